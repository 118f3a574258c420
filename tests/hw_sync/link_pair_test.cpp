// Two board tops (hw/lightrail_board_top.sv) on one timing link: the sync
// message engine as the top wires it, with the top's own DDMTD measuring
// each board's recovered clock, the role set through the register file,
// and the exchange read where the servo reads it (sync_t*_fs_o). The link
// is link_model.hpp's, at bit level (on the top's own link or one of its
// downstream ports); each board has its own oscillator
// phase and DDMTD helper clock (T (N + 1) / N). No servo runs: the boards
// keep their offset, and every exchange must measure it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "Vhw_sync_board.h"
#include "Vhw_sync_board___024root.h"
#include "clock_gen.hpp"
#include "lightrail/hwdef.hpp"
#include "link_model.hpp"
#include "rtl_coverage.hpp"

namespace {

namespace hw = lightrail::hwdef;
using namespace hw_sync_test;

constexpr int64_t kN = hw::DDMTD_N;
constexpr int64_t kBeatFs = (kN + 1) * kT;
// The top as built, with every downstream port; the benches serve their
// follower on the last, whose words sit at the top of each bus.
constexpr int kLastPort = int(hw::SYNC_DOWN_PORTS);

// A register access played onto the top's AXI4-Lite pins, one at a time.
struct Bus {
  bool aw = false, w = false, b = false, ar = false, r = false;
  uint32_t addr = 0, data = 0, rdata = 0;
  bool busy() const { return aw || w || b || ar || r; }
};

class Board {
 public:
  // `port`: the link this board's end is on, 0 its own, k its downstream port k.
  Board(VerilatedContext* ctx, int64_t phase_fs, int64_t dmtd_phase_fs, uint32_t id, int port = 0)
      : m_(std::make_unique<Vhw_sync_board>(ctx)),
        phase_(phase_fs),
        dmtd_(kT * (kN + 1), kN, dmtd_phase_fs),
        port_(port) {
    m_->board_id_i = id;
    m_->rst_ni = 0;
    m_->rst_dmtd_ni = 0;
    m_->rst_rx_ni = 0;
    m_->link_up_i = 1;
    m_->mmcm_locked_i = 1;
    m_->eval();
  }
  Vhw_sync_board& m() { return *m_; }
  const hw_sync_test::WordLog& sent() const { return sent_; }
  int64_t phase_fs() const { return phase_; }
  int port() const { return port_; }
  Bus& bus() { return bus_; }

  int64_t next_clk_fs() const { return phase_ + half_ * (kT / 2); }
  void clk_edge() {
    const bool rising = half_ % 2 == 0;
    if (rising) drive();
    m_->clk_i = rising;
    m_->eval();
    if (rising) {
      sent_.push(port_ == 0 ? m_->link_tx_word_o : m_->down_tx_words_o[port_ - 1]);
      m_->rst_ni = half_ / 2 >= 8 && !(half_ / 2 >= reboot_from_ && half_ / 2 < reboot_from_ + 8);
      ticks_ = m_->rootp->lightrail_board_top__DOT__board_ticks;
      edge_fs_ = next_clk_fs();
      if (m_->sync_phase_valid_o) ++phases_;
    }
    ++half_;
  }
  int64_t next_dmtd_fs() const { return dmtd_.next_edge_fs(); }
  void dmtd_edge() {
    m_->rst_dmtd_ni = m_->rst_ni;
    m_->clk_dmtd_i = dmtd_.Toggle();
    m_->eval();
  }
  // Board time (fs) at true time t >= the last rising edge.
  int64_t local_fs(int64_t t) const { return int64_t(ticks_) * kTickFs + (t - edge_fs_); }
  int phases() const { return phases_; }
  // The board reset for 8 cycles from the next one.
  void reboot() { reboot_from_ = half_ / 2 + 1; }

  void write(uint32_t addr, uint32_t data) {
    bus_ = Bus{};
    bus_.aw = bus_.w = true;
    bus_.addr = addr;
    bus_.data = data;
  }
  void read(uint32_t addr) {
    bus_ = Bus{};
    bus_.ar = true;
    bus_.addr = addr;
  }

 private:
  // Before a rising edge: drive the bus and take the handshakes this edge completes.
  void drive() {
    Vhw_sync_board& m = *m_;
    m.s_axil_awaddr = bus_.addr;
    m.s_axil_araddr = bus_.addr;
    m.s_axil_wdata = bus_.data;
    m.s_axil_wstrb = 0xF;
    m.s_axil_awvalid = bus_.aw;
    m.s_axil_wvalid = bus_.w;
    m.s_axil_bready = bus_.b;
    m.s_axil_arvalid = bus_.ar;
    m.s_axil_rready = bus_.r;
    m.eval();
    const bool hs_aw = bus_.aw && m.s_axil_awready, hs_w = bus_.w && m.s_axil_wready;
    const bool hs_b = bus_.b && m.s_axil_bvalid, hs_ar = bus_.ar && m.s_axil_arready;
    const bool hs_r = bus_.r && m.s_axil_rvalid;
    if (hs_aw) bus_.aw = false;
    if (hs_w) bus_.w = false;
    if ((hs_aw || hs_w) && !bus_.aw && !bus_.w) bus_.b = true;
    if (hs_b) {
      EXPECT_EQ(m.s_axil_bresp, 0u) << "write 0x" << std::hex << bus_.addr;
      bus_.b = false;
    }
    if (hs_ar) {
      bus_.ar = false;
      bus_.r = true;
    }
    if (hs_r) {
      EXPECT_EQ(m.s_axil_rresp, 0u) << "read 0x" << std::hex << bus_.addr;
      bus_.rdata = m.s_axil_rdata;
      bus_.r = false;
    }
  }

  std::unique_ptr<Vhw_sync_board> m_;
  int64_t phase_;
  ClockGen dmtd_;
  hw_sync_test::WordLog sent_;
  Bus bus_;
  int64_t half_ = 0;
  uint64_t ticks_ = 0;
  int64_t edge_fs_ = 0;
  int phases_ = 0;
  int64_t reboot_from_ = -8;
  int port_;
};

// One direction: `to`'s recovered clock and received words, from `from`.
class Receiver {
 public:
  Receiver(Board& from, Board& to, int64_t fibre_fs, int offset)
      : from_(from), to_(to), fibre_(fibre_fs), offset_(offset) {}
  int64_t edge_fs() const {
    return recovered_edge_fs(from_.phase_fs(), m_, offset_, fibre_) + (high_ ? kT / 2 : 0);
  }
  bool rising_next() const { return !high_; }
  void edge() {
    Vhw_sync_board& m = to_.m();
    const int k = to_.port() - 1;  // downstream port k + 1, or -1: the top's own link
    const auto bit = [k](auto& v, bool on) { v = on ? v | (1u << k) : v & ~(1u << k); };
    if (k < 0)
      m.clk_rx_i = !high_;
    else
      bit(m.clk_down_rx_i, !high_);
    m.eval();
    if (!high_) {
      const uint32_t word = from_.sent().received(m_, offset_);
      if (k < 0) {
        m.rst_rx_ni = m_ >= 8;
        m.link_rx_word_i = word;
      } else {
        bit(m.rst_down_rx_ni, m_ >= 8);
        m.down_rx_words_i[k] = word;
      }
    } else {
      ++m_;
    }
    high_ = !high_;
  }

 private:
  Board& from_;
  Board& to_;
  int64_t fibre_;
  int offset_;
  int64_t m_ = 0;
  bool high_ = false;
};

class PairBench {
 public:
  // a_port: the port of a's that b's link is on (0: a's own).
  PairBench(int64_t a_phase, int64_t b_phase, int a_offset, int b_offset, int64_t fibre_fs, int a_port = 0)
      : a_(&ctx_, a_phase, 777'000, 0, a_port),
        b_(&ctx_, b_phase, 2'345'000, 1),
        ab_(a_, b_, fibre_fs, b_offset),
        ba_(b_, a_, fibre_fs, a_offset),
        fibre_(fibre_fs) {}
  ~PairBench() { lightrail::rtl_coverage::write(ctx_, "hw_sync_link_pair"); }

  Board& a() { return a_; }
  Board& b() { return b_; }
  int64_t now() const { return now_; }

  // Events in time order, except that a board's recovered rising edge (where
  // the engine's SOF toggle moves) and its next clk_i edge, closer than
  // kMetaWindowFs with nothing between them, come in an order drawn at
  // random: its sampler going metastable. The DDMTD, whose samplers see
  // every edge where it is, is not disturbed.
  void run_until(int64_t until) {
    while (true) {
      const int64_t t[6] = {a_.next_clk_fs(), a_.next_dmtd_fs(), ba_.edge_fs(),
                            b_.next_clk_fs(), b_.next_dmtd_fs(), ab_.edge_fs()};
      int who = int(std::min_element(t, t + 6) - t);
      if (t[who] > until) break;
      for (const auto& [clk, rx] : {std::pair{0, 2}, std::pair{3, 5}}) {
        const Receiver& r = rx == 2 ? ba_ : ab_;
        if ((who != clk && who != rx) || !r.rising_next()) continue;
        const int other = who == clk ? rx : clk;
        if (t[other] - t[who] >= kMetaWindowFs) continue;
        bool between = false;
        for (int e = 0; e < 6; ++e) between |= e != who && e != other && t[e] <= t[other];
        if (between) continue;
        ++near_edges;
        if (std::bernoulli_distribution(0.5)(rng_)) who = other;
      }
      now_ = std::max(now_, t[who]);
      switch (who) {
        case 0:
          a_.clk_edge();
          break;
        case 1:
          a_.dmtd_edge();
          break;
        case 2:
          ba_.edge();
          break;
        case 3:
          b_.clk_edge();
          if (b_.m().sync_exchanges_o != seen_) {
            seen_ = b_.m().sync_exchanges_o;
            exchanges.push_back({b_.m().sync_t1_fs_o, b_.m().sync_t2_fs_o, b_.m().sync_t3_fs_o,
                                 b_.m().sync_t4_fs_o, int(b_.m().sync_rx_bitslide_o), now_,
                                 b_.m().sync_exchange_fine_o != 0});
          }
          break;
        case 4:
          b_.dmtd_edge();
          break;
        default:
          ab_.edge();
          break;
      }
    }
  }
  // Runs until the board's bus access is done; returns what a read read.
  uint32_t access(Board& board) {
    while (board.bus().busy()) run_until(now_ + kT);
    return board.bus().rdata;
  }

  // b's offset from a as the servo computes it, fixed delays calibrated.
  double offset_fs(const Exchange& x) const { return servo_offset_fs(x, 0); }  // a symmetric fibre
  double rtt_fs(const Exchange& x) const { return fibre_rtt_fs(x); }
  double true_offset_fs() const { return double(b_.local_fs(now_) - a_.local_fs(now_)); }
  int64_t fibre_fs() const { return fibre_; }

  std::vector<Exchange> exchanges;
  uint64_t near_edges = 0;  // recovered and board edges ordered at random

 private:
  VerilatedContext ctx_;
  Board a_, b_;
  Receiver ab_, ba_;
  int64_t fibre_;
  int64_t now_ = 0;
  uint32_t seen_ = 0;
  std::mt19937_64 rng_{2026};
};

// SYNC_LINK as a follower shows it: aligned, the reference's frame flags
// (SYNC_FLAG_*_BIT), the bit slide.
uint32_t link_reg(bool aligned, uint32_t parent_flags, int slide) {
  return (aligned ? hw::SYNC_LINK_ALIGNED_MASK : 0u) |
         ((parent_flags >> hw::SYNC_FLAG_LOCKED_BIT) & 1u ? hw::SYNC_LINK_PARENT_LOCKED_MASK : 0u) |
         ((parent_flags >> hw::SYNC_FLAG_TIME_VALID_BIT) & 1u ? hw::SYNC_LINK_PARENT_TIME_VALID_MASK : 0u) |
         ((parent_flags >> hw::SYNC_FLAG_HOLDOVER_BIT) & 1u ? hw::SYNC_LINK_PARENT_HOLDOVER_MASK : 0u) |
         (uint32_t(slide) << hw::SYNC_LINK_BITSLIDE_LSB);
}

constexpr uint32_t kLocked = 1u << hw::SYNC_FLAG_LOCKED_BIT, kValid = 1u << hw::SYNC_FLAG_TIME_VALID_BIT,
                   kHoldover = 1u << hw::SYNC_FLAG_HOLDOVER_BIT;

TEST(LinkPair, TheFollowersExchangeMeasuresItsOffsetThroughTheTopsOwnDdmtd) {
  struct Case {
    int64_t b_phase;
    int a_offset, b_offset;
  };
  // The reference's clock rises at 1.234567 ns, a 5 m fibre (25 ns) each
  // way. The follower's recovered edges (at 1.234567 + 1 ns + its slide x
  // 125 ps, mod 4 ns) fall 100 ps before its clk_i rising edge, then 120 ps
  // after its falling edge; then the reference's own recovered edges fall
  // 50 ps before its rising edge: each time one sampler is within the
  // metastable window and the engine must use the other.
  for (const Case c : {Case{709'567, 3, 19}, Case{114'567, 30, 0}, Case{2'534'567, 14, 7}}) {
    SCOPED_TRACE(testing::Message() << "follower phase " << c.b_phase << " fs, slides " << c.a_offset << "/"
                                    << c.b_offset);
    PairBench bench(1'234'567, c.b_phase, c.a_offset, c.b_offset, 25'000'000);
    bench.run_until(20 * kT);
    // The reference: REFERENCE alone (a grandmaster, servo off, says LOCKED).
    bench.a().write(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_REFERENCE_MASK);
    bench.access(bench.a());
    bench.run_until(bench.now() + 14 * kBeatFs);

    ASSERT_GE(bench.exchanges.size(), 10u);
    EXPECT_GE(bench.b().phases(), 8);
    // Once both DDMTDs pair (two reference tags that agree, then a beat),
    // every exchange has the offset to the DDMTD's resolution.
    // An exchange says whether both receive stamps were refined: one that
    // says so is, and the first ones (no DDMTD phase yet) say they are not.
    size_t refined = 0;
    EXPECT_FALSE(bench.exchanges.front().fine);
    for (const Exchange& x : bench.exchanges) {
      const double err = bench.offset_fs(x) - bench.true_offset_fs();
      EXPECT_LT(std::abs(err), double(kT)) << "at " << x.at_fs;  // a cycle stamp at worst
      if (x.fine) {
        EXPECT_LT(std::abs(err), 1'500.0) << "flagged fine at " << x.at_fs;
      }
      if (x.at_fs < 6 * kBeatFs) continue;
      EXPECT_TRUE(x.fine) << "at " << x.at_fs;
      ++refined;
      EXPECT_EQ(x.slide, c.b_offset);
      EXPECT_LT(std::abs(err), 1'500.0) << "at " << x.at_fs;
      EXPECT_NEAR(bench.rtt_fs(x), double(2 * bench.fibre_fs()), 3'000.0) << "at " << x.at_fs;
    }
    EXPECT_GE(refined, 6u);
    EXPECT_GT(bench.near_edges, 1000u);
    EXPECT_EQ(bench.a().m().sync_exchanges_o, 0u);  // a reference makes none

    // The servo's view and the registers.
    EXPECT_TRUE(bench.b().m().sync_link_up_o);
    EXPECT_EQ(int(bench.b().m().sync_rx_bitslide_o), c.b_offset);
    bench.b().read(hw::REG_SYNC_LINK);
    EXPECT_EQ(int(bench.b().m().sync_parent_flags_o), int(kLocked | kValid));
    EXPECT_EQ(bench.access(bench.b()), link_reg(true, kLocked | kValid, c.b_offset));
    bench.a().read(hw::REG_SYNC_LINK);
    EXPECT_EQ(bench.access(bench.a()), link_reg(true, 0, c.a_offset));
    bench.b().read(hw::REG_SYNC_LINK_BAD_FRAMES);
    EXPECT_EQ(bench.access(bench.b()), 0u);
  }
}

TEST(LinkPair, AFollowerHearsItsReferencesClockQualityAndItsOwnLinkApart) {
  PairBench bench(500'000, 2'000'000, 4, 9, 10'000'000);
  bench.run_until(20 * kT);
  // A reference that runs its servo (a boundary clock) and has not locked yet:
  // the follower's own link is up, but the reference's time is not valid.
  bench.a().write(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_REFERENCE_MASK | hw::SYNC_CTRL_ENABLE_MASK);
  bench.access(bench.a());
  bench.run_until(bench.now() + 3 * kBeatFs);
  EXPECT_TRUE(bench.b().m().sync_link_up_o);
  EXPECT_EQ(int(bench.b().m().sync_parent_flags_o), 0);
  bench.b().read(hw::REG_SYNC_LINK);
  EXPECT_EQ(bench.access(bench.b()), link_reg(true, 0, 9));
  // Its servo's status, as the kernel reports it, reaches the follower in
  // the next Sync: locked; re-acquiring with its time kept; in holdover.
  struct Case {
    uint32_t status, flags;
  };
  for (const Case c :
       {Case{hw::SYNC_STATUS_LOCKED_MASK | hw::SYNC_STATUS_TIME_VALID_MASK, kLocked | kValid},
        Case{hw::SYNC_STATUS_TIME_VALID_MASK, kValid},
        Case{hw::SYNC_STATUS_TIME_VALID_MASK | hw::SYNC_STATUS_HOLDOVER_MASK, kValid | kHoldover}}) {
    SCOPED_TRACE(testing::Message() << "status " << c.status);
    bench.a().m().sync_status_i = c.status;
    bench.run_until(bench.now() + 2 * kBeatFs);
    EXPECT_TRUE(bench.b().m().sync_link_up_o);
    EXPECT_EQ(int(bench.b().m().sync_parent_flags_o), int(c.flags));
    bench.b().read(hw::REG_SYNC_LINK);
    EXPECT_EQ(bench.access(bench.b()), link_reg(true, c.flags, 9));
  }
  // The transceiver down: this board's own link is down, and nothing is
  // heard of the reference, whatever the engine held.
  bench.b().m().link_up_i = 0;
  bench.run_until(bench.now() + 4 * kT);
  EXPECT_FALSE(bench.b().m().sync_link_up_o);
}

// A grandmaster serves a second follower on a downstream port
// (hw/sync_port.sv): the reference end of a link with a DDMTD of its own.
// The follower's exchange is as good as on the grandmaster's own link
// (the port's t4 refined by its DDMTD, its bit slide taken out), the port
// says it is aligned, and the top's own link, idle, does not.
TEST(LinkPair, ADownstreamPortServesAFollowerAsTheTopsOwnLinkDoes) {
  const int port = kLastPort;
  PairBench bench(1'234'567, 709'567, 3, 19, 25'000'000, port);
  bench.run_until(20 * kT);
  bench.a().write(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_REFERENCE_MASK);
  bench.access(bench.a());
  bench.run_until(bench.now() + 14 * kBeatFs);

  ASSERT_GE(bench.exchanges.size(), 10u);
  size_t refined = 0;
  for (const Exchange& x : bench.exchanges) {
    if (x.at_fs < 6 * kBeatFs) continue;
    EXPECT_TRUE(x.fine) << "at " << x.at_fs;
    refined += x.fine;
    EXPECT_EQ(x.slide, 19);
    EXPECT_LT(std::abs(bench.offset_fs(x) - bench.true_offset_fs()), 1'500.0) << "at " << x.at_fs;
    EXPECT_NEAR(bench.rtt_fs(x), double(2 * bench.fibre_fs()), 3'000.0) << "at " << x.at_fs;
  }
  EXPECT_GE(refined, 6u);
  EXPECT_EQ(uint32_t(bench.a().m().down_aligned_o), 1u << (port - 1));
  bench.b().read(hw::REG_SYNC_LINK);
  EXPECT_EQ(bench.access(bench.b()), link_reg(true, kLocked | kValid, 19));
  bench.a().read(hw::REG_SYNC_LINK);
  EXPECT_EQ(bench.access(bench.a()), 0u);  // its own link hears nothing
  // The reference's registers say which downstream port hears its follower.
  bench.a().read(hw::REG_SYNC_DOWN_LINK);
  EXPECT_EQ(bench.access(bench.a()), (1u << (port - 1)) << hw::SYNC_DOWN_LINK_ALIGNED_LSB);
  bench.a().read(hw::REG_SYNC_DOWN_BAD_FRAMES);
  EXPECT_EQ(bench.access(bench.a()), 0u);
}

// SYNC_EXCHANGE_PERIOD: a write out of range reads back clamped to one DDMTD
// beat .. SYNC_EXCHANGE_PERIOD_MAX, and the value in force paces the Syncs
// of the board's downstream ports: its follower's exchanges are that many
// cycles apart.
TEST(LinkPair, TheExchangePeriodKeepsItsRangeAndPacesADownstreamPort) {
  PairBench bench(1'234'567, 709'567, 3, 19, 25'000'000, kLastPort);
  bench.run_until(20 * kT);
  const uint32_t beat = uint32_t(kN + 1), period = 2 * beat + 3;
  bench.a().read(hw::REG_SYNC_EXCHANGE_PERIOD);
  EXPECT_EQ(bench.access(bench.a()), beat);  // the reset value
  for (const auto& [written, held] :
       {std::pair{0u, beat}, std::pair{beat - 1, beat},
        std::pair{hw::SYNC_EXCHANGE_PERIOD_MAX + 1, hw::SYNC_EXCHANGE_PERIOD_MAX},
        std::pair{0xFFFFFFFFu, hw::SYNC_EXCHANGE_PERIOD_MAX}, std::pair{period, period}}) {
    bench.a().write(hw::REG_SYNC_EXCHANGE_PERIOD, written);
    bench.access(bench.a());
    bench.a().read(hw::REG_SYNC_EXCHANGE_PERIOD);
    EXPECT_EQ(bench.access(bench.a()), held) << "written " << written;
  }
  bench.a().write(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_REFERENCE_MASK);
  bench.access(bench.a());
  bench.run_until(bench.now() + 16 * kBeatFs);
  ASSERT_GE(bench.exchanges.size(), 5u);
  for (size_t i = 1; i < bench.exchanges.size(); ++i)
    EXPECT_EQ(int64_t(bench.exchanges[i].t1 - bench.exchanges[i - 1].t1), int64_t(period) * kT) << i;
}

// A board that is neither a grandmaster nor a running servo (SYNC_CTRL not
// written yet: a boundary clock before its host configures it) vouches for
// nothing on its downstream ports; as a grandmaster (REFERENCE, the servo
// off) it vouches for its time. The co-simulation's chains on the engines
// found boundary clocks vouching with their servo off, which their
// followers took back as PARENT_LOST once the servo started.
TEST(LinkPair, OnlyAGrandmasterVouchesForATimeItsServoDoesNotKeep) {
  PairBench bench(1'234'567, 709'567, 3, 19, 25'000'000, kLastPort);
  bench.run_until(8 * kBeatFs);
  ASSERT_TRUE(bench.b().m().sync_link_up_o);
  EXPECT_EQ(int(bench.b().m().sync_parent_flags_o), 0);
  bench.a().write(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_REFERENCE_MASK);
  bench.access(bench.a());
  bench.run_until(bench.now() + 2 * kBeatFs);
  EXPECT_EQ(int(bench.b().m().sync_parent_flags_o), int(kLocked | kValid));
}

// A DDMTD phase that arrives while the servo kernel is busy is held for it
// (docs/hw-clock-sync.md); a board reset drops it with the kernel's own
// state, so the kernel, reset too, is not handed a phase from before the
// reset (mutation testing: the held phase's reset deleted survived every
// bench, none of which raises sync_busy_i around a reset).
TEST(LinkPair, ABoardResetDropsAPhaseHeldForTheBusyKernel) {
  PairBench bench(500'000, 2'000'000, 4, 9, 10'000'000);
  bench.run_until(8 * kBeatFs);  // the follower's DDMTD pairs every beat
  ASSERT_GT(bench.b().phases(), 0);
  bench.b().m().sync_busy_i = 1;
  const int64_t limit = bench.now() + 2 * kBeatFs;
  while (!bench.b().m().rootp->lightrail_board_top__DOT__u_core__DOT__phase_held_q && bench.now() < limit)
    bench.run_until(bench.now() + kT);
  ASSERT_TRUE(bench.b().m().rootp->lightrail_board_top__DOT__u_core__DOT__phase_held_q) << "no phase held";
  const int before = bench.b().phases();
  bench.b().reboot();
  bench.run_until(bench.now() + 4 * kT);  // into the reset, still busy
  ASSERT_FALSE(bench.b().m().rst_ni);
  bench.b().m().sync_busy_i = 0;            // the kernel is reset with the board
  bench.run_until(bench.now() + 200 * kT);  // well within a beat: no new DDMTD phase yet
  EXPECT_EQ(bench.b().phases(), before);
}

}  // namespace
