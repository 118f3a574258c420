// The sync message engine (hw/sync_link*.sv): two engines, a reference and
// a follower, joined by a bit-level model of the fibre link, each with its
// own board clock, board time, recovered clock and DDMTD phase.
//
// The link is link_model.hpp's (bit level, each receiver's CDR locked on
// bit `cdr_offset` of the words). The DDMTD phase given to each
// engine is the true lag of its board clock behind its recovered clock,
// truncated to T / N, one per beat (N + 1 cycles). Where a recovered edge
// falls within kMetaWindowFs of an edge of the board clock, which of the two
// the engine sees first is drawn at random: a sampler going metastable.
//
// The exchange is judged as the servo uses it (docs/clock-sync.md, "Units
// and signs"): with the bench's fixed delays (kFixedFs each way: the word's
// cycle, its flight into the receiver's word and the engine's receive
// pipeline) and the receiver's reported bit slide added to the forward
// delay, the fibre round trip and the board's offset from the reference
// must come out as the bench made them, to the DDMTD's resolution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "Vhw_sync_link.h"
#include "lightrail/hwdef.hpp"
#include "link_model.hpp"
#include "rtl_coverage.hpp"

namespace {

namespace hw = lightrail::hwdef;

using namespace hw_sync_test;
constexpr int64_t kTicksPerCycle = hw::FINE_STEPS;
constexpr int64_t kBeat = int64_t{hw::DDMTD_N} + 1;  // cycles per DDMTD phase
constexpr int64_t kQuantumFs = kT / hw::DDMTD_N;     // 976 fs, DDMTD resolution (rounded down)
// A grandmaster's frame flags: locked, time valid.
constexpr uint32_t kGrandmasterFlags =
    (1u << hw::SYNC_FLAG_LOCKED_BIT) | (1u << hw::SYNC_FLAG_TIME_VALID_BIT);

struct SideConfig {
  int64_t phase_fs = 0;  // first rising edge of the board clock
  uint64_t ticks0 = 0;   // board time at that edge
  bool reference = false;
  uint32_t flags = kGrandmasterFlags;  // reference: what its Syncs say (SYNC_FLAG_*_BIT)
  int cdr_offset = 0;                  // this side's receiver: the bit its CDR locked on
  bool ddmtd = true;                   // phases given to the engine
  uint32_t period = uint32_t(kBeat);   // reference: cycles from Sync to Sync (SYNC_EXCHANGE_PERIOD)
};

struct LinkConfig {
  SideConfig a, b;  // a sends to b with delay ab_fs, b to a with ba_fs
  int64_t ab_fs = 25'000'000, ba_fs = 25'000'000;
  double ber = 0.0;  // bit errors on both directions
  uint64_t seed = 1;
};

class Side {
 public:
  Side(const SideConfig& c, VerilatedContext* ctx) : c_(c), m_(std::make_unique<Vhw_sync_link>(ctx)) {
    m_->rst_ni = 0;
    m_->rst_rx_ni = 0;
    m_->reference_i = c.reference;
    m_->flags_i = c.flags;
    m_->period_i = c.period;
    m_->clk_i = 0;
    m_->clk_rx_i = 0;
    m_->eval();
  }
  Vhw_sync_link& m() { return *m_; }
  const SideConfig& config() const { return c_; }
  SideConfig& config() { return c_; }

  // Board clock: rising edge k at phase + k T, falling half a period later.
  int64_t next_clk_fs() const { return c_.phase_fs + half_ * (kT / 2); }
  void clk_edge() {
    const bool rising = half_ % 2 == 0;
    m_->clk_i = rising;
    m_->eval();
    if (rising) {
      const int64_t k = half_ / 2;
      tx_.push(m_->tx_word_o);  // the word of cycle k
      // A coarse time step: announced in cycle k, board time jumps from k + 1.
      m_->time_step_i = step_pending_ != 0;
      m_->time_i = c_.ticks0 + uint64_t(k) * kTicksPerCycle;
      c_.ticks0 += uint64_t(step_pending_);
      step_pending_ = 0;
      m_->rst_ni = k >= 8 && !(k >= reboot_from_ && k < reboot_from_ + 8);
      // The DDMTD phase, once per beat: how far this clock lags the recovered one.
      m_->phase_valid_i = c_.ddmtd && k % kBeat == kBeat - 1 && rx_phase_known_;
      m_->phase_i = uint32_t(mod(c_.phase_fs - rx_phase_fs_, kT) * hw::DDMTD_N / kT);
    }
    ++half_;
  }
  const hw_sync_test::WordLog& sent() const { return tx_; }

  // Board time (fs) at true time t.
  int64_t local_fs(int64_t t) const { return int64_t(c_.ticks0) * kTickFs + (t - c_.phase_fs); }

  // Board time jumps by `ticks` (the servo's coarse time set) from the next cycle but one.
  void step_time(int64_t ticks) { step_pending_ = ticks; }

  // The board reset for 8 cycles from the next one, its time restarting
  // `ticks` away, unannounced (a reboot, not a time set).
  void reboot(int64_t ticks) {
    reboot_from_ = half_ / 2 + 1;
    c_.ticks0 += uint64_t(ticks);
  }

  void set_rx_phase(int64_t fs) {
    rx_phase_fs_ = fs;
    rx_phase_known_ = true;
  }

 private:
  static int64_t mod(int64_t x, int64_t m) { return ((x % m) + m) % m; }
  SideConfig c_;
  std::unique_ptr<Vhw_sync_link> m_;
  int64_t half_ = 0;
  hw_sync_test::WordLog tx_;
  int64_t rx_phase_fs_ = 0;
  bool rx_phase_known_ = false;
  int64_t step_pending_ = 0;
  int64_t reboot_from_ = -8;
};

// One direction of the link: the receiver's recovered clock and words.
class Receiver {
 public:
  Receiver(Side& from, Side& to, int64_t delay_fs, double ber, uint64_t seed)
      : from_(from), to_(to), delay_(delay_fs), ber_(ber), rng_(seed) {
    relock(to.config().cdr_offset, 0);
  }
  int64_t edge_fs(int64_t m) const { return recovered_edge_fs(from_.config().phase_fs, m, offset_, delay_); }
  int64_t next_fs() const { return high_ ? edge_fs(m_) + kT / 2 : edge_fs(m_); }
  int64_t next_ordering_fs() {
    if (high_) return next_fs();
    if (!drawn_) {
      jitter_ = std::uniform_int_distribution<int64_t>(-kMetaWindowFs, kMetaWindowFs)(rng_);
      drawn_ = true;
    }
    return next_fs() + jitter_;
  }
  void edge() {
    Vhw_sync_link& m = to_.m();
    if (high_) {
      m.clk_rx_i = 0;
      m.eval();
      high_ = false;
      ++m_;
      return;
    }
    drawn_ = false;
    m.clk_rx_i = 1;
    m.eval();
    m.rst_rx_ni = m_ >= 8;
    uint32_t w = 0;
    if (!down_) {
      w = from_.sent().received(m_, offset_);
      if (ber_ > 0)
        for (int i = 0; i < 32; ++i)
          if (std::bernoulli_distribution(ber_)(rng_)) w ^= 1u << i;
    }
    m.rx_word_i = w;
    high_ = true;
  }
  // The CDR locks again on bit `offset` (its recovered clock moves with it).
  void relock(int offset, int64_t after_fs) {
    offset_ = offset;
    while (edge_fs(m_) <= after_fs) ++m_;
    to_.set_rx_phase(from_.config().phase_fs + offset_ * kUi + delay_);
  }
  void set_down(bool down) { down_ = down; }
  int offset() const { return offset_; }

 private:
  Side& from_;
  Side& to_;
  int64_t delay_;
  double ber_;
  std::mt19937_64 rng_;
  int offset_ = 0;
  int64_t m_ = 0;
  bool high_ = false, down_ = false, drawn_ = false;
  int64_t jitter_ = 0;
};

class LinkBench {
 public:
  explicit LinkBench(const LinkConfig& c)
      : c_(c),
        a_(c.a, &ctx_),
        b_(c.b, &ctx_),
        ab_(a_, b_, c.ab_fs, c.ber, c.seed),
        ba_(b_, a_, c.ba_fs, c.ber, c.seed * 7 + 3) {}
  ~LinkBench() { lightrail::rtl_coverage::write(ctx_, "hw_sync_link"); }

  Side& a() { return a_; }
  Side& b() { return b_; }
  Receiver& ab() { return ab_; }
  Receiver& ba() { return ba_; }
  int64_t now_fs() const { return now_; }

  // Runs until true time `until_fs`, collecting b's exchanges.
  void run_until(int64_t until_fs) {
    while (true) {
      struct Ev {
        int64_t t;
        int who;
      };
      const Ev evs[4] = {{a_.next_clk_fs(), 0},
                         {ab_.next_ordering_fs(), 1},
                         {b_.next_clk_fs(), 2},
                         {ba_.next_ordering_fs(), 3}};
      const Ev* e = std::min_element(std::begin(evs), std::end(evs),
                                     [](const Ev& x, const Ev& y) { return x.t < y.t; });
      if (e->t > until_fs) break;
      now_ = e->t;
      switch (e->who) {
        case 0:
          a_.clk_edge();
          break;
        case 1:
          ab_.edge();
          break;
        case 2:
          b_.clk_edge();
          if (b_.m().exchanges_o != seen_) {
            seen_ = b_.m().exchanges_o;
            if (!b_.m().rst_ni) break;  // the count cleared by a reset is no exchange
            exchanges.push_back(
                {b_.m().t1_fs_o, b_.m().t2_fs_o, b_.m().t3_fs_o, b_.m().t4_fs_o, int(b_.m().rx_bitslide_o)});
          }
          break;
        default:
          ba_.edge();
          break;
      }
    }
  }
  void run_exchanges(size_t n, int64_t limit_fs) {
    while (exchanges.size() < n && now_ < limit_fs) run_until(now_ + 1000 * kT);
  }

  // The offset of b from a (fs) and the fibre round trip (fs), as the servo
  // computes them from an exchange with exact calibration.
  double offset_fs(const Exchange& x) const { return servo_offset_fs(x, c_.ab_fs - c_.ba_fs); }
  double rtt_fs(const Exchange& x) const { return fibre_rtt_fs(x); }
  double true_offset_fs() const { return double(b_.local_fs(0) - a_.local_fs(0)); }

  std::vector<Exchange> exchanges;

 private:
  LinkConfig c_;
  VerilatedContext ctx_;
  Side a_, b_;
  Receiver ab_, ba_;
  int64_t now_ = 0;
  uint32_t seen_ = 0;
};

LinkConfig reference_and_follower(int64_t b_phase_fs, int a_offset, int b_offset) {
  LinkConfig c;
  c.a.reference = true;
  c.a.phase_fs = 1'234'567;
  c.a.ticks0 = 5'000'000'000ull;
  c.a.cdr_offset = a_offset;
  c.b.phase_fs = b_phase_fs;
  c.b.ticks0 = 7'123'456'789ull;  // boards booted apart: seconds of offset
  c.b.cdr_offset = b_offset;
  return c;
}

TEST(SyncLink, EveryExchangeGivesTheOffsetAndRoundTripToTheDdmtdResolution) {
  // Board-clock phases of the follower across the period, landing its
  // recovered edge near each of the samplers' edges and near the T/4
  // boundaries where the engine changes sampler.
  const int64_t a_phase = 1'234'567, delay = 25'000'000;
  const int b_offset = 13, a_offset = 5;
  const int64_t rx_phase = a_phase + b_offset * kUi + delay;  // b's recovered edges, mod T
  std::vector<int64_t> lags;
  for (int64_t base : {int64_t{0}, kT / 4, kT / 2, 3 * kT / 4})
    for (int64_t d : {int64_t{-150'000}, int64_t{-1'000}, int64_t{0}, int64_t{1'000}, int64_t{150'000}})
      lags.push_back(base + d);
  lags.push_back(1'111'111);
  lags.push_back(3'333'333);
  for (int64_t lag : lags) {
    SCOPED_TRACE(testing::Message() << "follower lags its recovered clock by " << lag << " fs");
    LinkConfig c = reference_and_follower(rx_phase + lag, a_offset, b_offset);
    c.seed = uint64_t(lag + 1'000'000);
    LinkBench bench(c);
    bench.run_exchanges(5, 60 * kBeat * kT);
    ASSERT_GE(bench.exchanges.size(), 5u);
    for (const Exchange& x : bench.exchanges) {
      EXPECT_EQ(x.slide, b_offset);
      EXPECT_NEAR(bench.offset_fs(x), bench.true_offset_fs(), kQuantumFs / 2.0 + 1);
      const double rtt = bench.rtt_fs(x) - double(c.ab_fs + c.ba_fs);
      EXPECT_GE(rtt, -1.0);
      EXPECT_LT(rtt, 2.0 * kQuantumFs + 1);
    }
    EXPECT_EQ(bench.b().m().parent_flags_o, kGrandmasterFlags);
    EXPECT_TRUE(bench.b().m().aligned_o);
    EXPECT_EQ(bench.b().m().bad_frames_o, 0u);
    EXPECT_EQ(bench.a().m().bad_frames_o, 0u);
  }
}

// SYNC_EXCHANGE_PERIOD: the reference's Syncs leave exactly a period apart
// (consecutive exchanges' t1, the reference's board time), at the reset
// value and at a slower, odd one; a period set while running holds from
// the next Sync, and every exchange stays exact.
TEST(SyncLink, TheReferenceSendsASyncEveryPeriodAsSet) {
  for (uint32_t period : {uint32_t(kBeat), uint32_t(3 * kBeat + 7)}) {
    SCOPED_TRACE(testing::Message() << "period " << period << " cycles");
    LinkConfig c = reference_and_follower(1'111'111, 5, 13);
    c.a.period = period;
    LinkBench bench(c);
    bench.run_exchanges(6, 60 * int64_t(period) * kT);
    ASSERT_GE(bench.exchanges.size(), 6u);
    for (size_t i = 1; i < bench.exchanges.size(); ++i)
      EXPECT_EQ(int64_t(bench.exchanges[i].t1 - bench.exchanges[i - 1].t1), int64_t(period) * kT) << i;
    // Halved while running: the next Syncs are a new period apart.
    const uint32_t next = period / 2 + 1;
    bench.a().m().period_i = next;
    const size_t before = bench.exchanges.size();
    bench.run_exchanges(before + 5, bench.now_fs() + 60 * int64_t(period) * kT);
    ASSERT_GE(bench.exchanges.size(), before + 5);
    for (size_t i = before + 2; i < bench.exchanges.size(); ++i)
      EXPECT_EQ(int64_t(bench.exchanges[i].t1 - bench.exchanges[i - 1].t1), int64_t(next) * kT) << i;
    for (const Exchange& x : bench.exchanges)
      EXPECT_NEAR(bench.offset_fs(x), bench.true_offset_fs(), kQuantumFs / 2.0 + 1);
  }
}

TEST(SyncLink, EveryBitSlideIsFoundAndReported) {
  for (int offset = 0; offset < int(hw::SYNC_LINK_WORD_BITS); ++offset) {
    SCOPED_TRACE(testing::Message() << "follower's CDR on bit " << offset);
    LinkConfig c = reference_and_follower(2'000'000 + offset * 37'000, 31 - offset, offset);
    c.seed = uint64_t(offset + 1);
    LinkBench bench(c);
    bench.run_exchanges(2, 20 * kBeat * kT);
    ASSERT_GE(bench.exchanges.size(), 2u);
    for (const Exchange& x : bench.exchanges) {
      EXPECT_EQ(x.slide, offset);
      EXPECT_NEAR(bench.offset_fs(x), bench.true_offset_fs(), kQuantumFs / 2.0 + 1);
    }
  }
}

TEST(SyncLink, TenKilometresOfAsymmetricFibre) {
  LinkConfig c = reference_and_follower(3'000'000, 9, 22);
  c.ab_fs = 50'000'000'000 + 1'270'000;  // 10 km, and 1.27 ns longer forward
  c.ba_fs = 50'000'000'000;
  LinkBench bench(c);
  bench.run_exchanges(4, 80 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), 4u);
  for (size_t i = 0; i < bench.exchanges.size(); ++i) {
    const Exchange& x = bench.exchanges[i];
    EXPECT_NEAR(bench.offset_fs(x), bench.true_offset_fs(), kQuantumFs / 2.0 + 1);
    EXPECT_NEAR(bench.rtt_fs(x), double(c.ab_fs + c.ba_fs), 2.0 * kQuantumFs + 1);
    // The round trip spans six Sync periods, yet every Sync makes an
    // exchange: rounds wait under their sequence numbers.
    if (i > 0) {
      EXPECT_EQ(int64_t(x.t1 - bench.exchanges[i - 1].t1), kBeat * kT);
    }
  }
}

TEST(SyncLink, ACoarseTimeStepDropsTheRoundsInFlight) {
  // 10 km: six rounds in flight when the follower's board time is stepped.
  LinkConfig c = reference_and_follower(3'000'000, 9, 22);
  c.ab_fs = c.ba_fs = 50'000'000'000;
  LinkBench bench(c);
  bench.run_exchanges(3, 80 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), 3u);
  const double before = bench.true_offset_fs();
  for (const Exchange& x : bench.exchanges) EXPECT_NEAR(bench.offset_fs(x), before, kQuantumFs / 2.0 + 1);
  const size_t n = bench.exchanges.size();
  bench.b().step_time(-32'000);  // 4 us back
  bench.run_exchanges(n + 8, bench.now_fs() + 40 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), n + 8);
  const double after = bench.true_offset_fs();
  ASSERT_NEAR(after - before, -4'000'000'000.0, 1.0);
  // Every exchange published after the step measures the new offset: none
  // mixes the time bases or reports the offset the step removed.
  for (size_t i = n; i < bench.exchanges.size(); ++i)
    EXPECT_NEAR(bench.offset_fs(bench.exchanges[i]), after, kQuantumFs / 2.0 + 1) << "exchange " << i;
}

TEST(SyncLink, BitErrorsDropFramesButNeverCorruptAnExchange) {
  LinkConfig c = reference_and_follower(2'500'000, 3, 17);
  c.ber = 2e-4;  // ~2 in 1,000 frames' words hit
  c.seed = 42;
  LinkBench bench(c);
  bench.run_exchanges(30, 400 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), 30u);
  for (const Exchange& x : bench.exchanges)
    EXPECT_NEAR(bench.offset_fs(x), bench.true_offset_fs(), kQuantumFs / 2.0 + 1);
  // Errors were seen and dropped: frames, or words outside them.
  EXPECT_GT(bench.a().m().bad_frames_o + bench.b().m().bad_frames_o, 0u);
}

TEST(SyncLink, AfterALinkLossTheReceiverRealignsOnItsNewBitSlide) {
  LinkConfig c = reference_and_follower(1'700'000, 0, 4);
  LinkBench bench(c);
  bench.run_exchanges(2, 20 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), 2u);
  ASSERT_EQ(bench.exchanges.back().slide, 4);
  // The fibre goes dark for 10 us; the follower's CDR relocks on bit 27.
  bench.ab().set_down(true);
  bench.run_until(bench.now_fs() + 10'000'000'000);
  EXPECT_FALSE(bench.b().m().aligned_o);
  EXPECT_EQ(bench.b().m().parent_flags_o, 0u);  // nothing heard: nothing to follow
  const size_t before = bench.exchanges.size();
  bench.ab().relock(27, bench.now_fs());
  bench.ab().set_down(false);
  bench.run_exchanges(before + 3, bench.now_fs() + 30 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), before + 3);
  for (size_t i = before; i < bench.exchanges.size(); ++i) {
    EXPECT_EQ(bench.exchanges[i].slide, 27);
    EXPECT_NEAR(bench.offset_fs(bench.exchanges[i]), bench.true_offset_fs(), kQuantumFs / 2.0 + 1);
  }
}

// Slide 0 is word shift 32; the hunt must wrap from shift 1 back to 32, not
// try shift 0, which shows the same words a cycle late under the same slide.
TEST(SyncLink, AfterALinkLossTheReceiverRealignsOnSlideZeroWithoutACycleOfLatency) {
  LinkConfig c = reference_and_follower(1'700'000, 3, 0);
  LinkBench bench(c);
  bench.run_exchanges(2, 20 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), 2u);
  ASSERT_EQ(bench.exchanges.back().slide, 0);
  // The fibre goes dark for 10 us, long enough for the hunt to leave shift 32.
  bench.ab().set_down(true);
  bench.run_until(bench.now_fs() + 10'000'000'000);
  EXPECT_FALSE(bench.b().m().aligned_o);
  const size_t before = bench.exchanges.size();
  bench.ab().relock(0, bench.now_fs());
  bench.ab().set_down(false);
  bench.run_exchanges(before + 3, bench.now_fs() + 30 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), before + 3);
  for (size_t i = before; i < bench.exchanges.size(); ++i) {
    EXPECT_EQ(bench.exchanges[i].slide, 0);
    EXPECT_NEAR(bench.offset_fs(bench.exchanges[i]), bench.true_offset_fs(), kQuantumFs / 2.0 + 1);
  }
}

// The frame types a transmitter sent in cycles [from, to), in order. The
// line's words are learned, not re-typed: the first word after reset is IDLE,
// the first other word a SOF; a frame's type is its header's top 4 bits,
// Manchester-coded on the even bits of the word after the SOF.
std::vector<int> frame_types(const WordLog& tx, int64_t from, int64_t to, uint32_t sof) {
  std::vector<int> types;
  for (int64_t k = from; k + 1 < to; ++k) {
    if (tx.at(k) != sof) continue;
    uint32_t header = 0;
    for (int i = 0; i < 16; ++i) header |= ((tx.at(k + 1) >> (2 * i)) & 1u) << i;
    types.push_back(int(header >> 12));
  }
  return types;
}

// A follower switched to reference while running sends a Sync before any
// Follow_Up, even when the switch lands as its last Delay_Req goes out: a
// Follow_Up carries the send time of its own Sync, never another frame's.
TEST(SyncLink, ABoardSwitchedToReferenceSendsItsFirstSyncBeforeAnyFollowUp) {
  LinkConfig c = reference_and_follower(1'300'000, 6, 19);
  LinkBench bench(c);
  bench.run_exchanges(2, 20 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), 2u);
  const WordLog& ta = bench.a().sent();
  const WordLog& tb = bench.b().sent();
  const uint32_t idle = ta.at(8);  // the first word out of reset
  int64_t k = 8;
  while (ta.at(k) == idle) ++k;
  const uint32_t sof = ta.at(k);
  const std::vector<int> ref_types = frame_types(ta, 0, ta.end(), sof);
  ASSERT_GE(ref_types.size(), 2u);
  const int sync_type = ref_types[0], follow_type = ref_types[1];  // a reference's first two frames
  ASSERT_NE(sync_type, follow_type);
  // Switch both roles in the cycle b's next Delay_Req SOF is on the line.
  const int64_t limit = bench.now_fs() + 2 * kBeat * kT;
  while (tb.at(tb.end() - 1) != sof && bench.now_fs() < limit) bench.run_until(bench.now_fs() + kT / 2);
  ASSERT_EQ(tb.at(tb.end() - 1), sof);
  const int64_t from = tb.end();
  bench.b().m().reference_i = 1;
  bench.a().m().reference_i = 0;
  bench.run_until(bench.now_fs() + 3 * kBeat * kT);
  const std::vector<int> types = frame_types(tb, from, tb.end(), sof);
  ASSERT_GE(types.size(), 2u);
  EXPECT_EQ(types[0], sync_type) << "the new reference's first frame";
  int syncs = 0, follows = 0;
  for (int t : types) {
    syncs += t == sync_type;
    follows += t == follow_type;
    EXPECT_LE(follows, syncs) << "a Follow_Up without its Sync";
  }
  EXPECT_GE(follows, 2);
}

TEST(SyncLink, WithoutADdmtdPhaseStampsAreWholeCycles) {
  LinkConfig c = reference_and_follower(2'900'000, 6, 11);
  c.a.ddmtd = false;
  c.b.ddmtd = false;
  LinkBench bench(c);
  bench.run_exchanges(4, 30 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), 4u);
  for (const Exchange& x : bench.exchanges) {
    // PTP-style: each receive stamp is late by up to a cycle.
    EXPECT_NEAR(bench.offset_fs(x), bench.true_offset_fs(), double(kT));
    EXPECT_EQ(int64_t(x.t2) % kTickFs, 0);
  }
}

TEST(SyncLink, TheReferencesClockQualityReachesTheFollower) {
  // Each quality a reference can have, in its frames' flags: acquiring
  // (nothing valid), re-acquiring with valid time, in holdover, locked.
  constexpr uint32_t kLocked = 1u << hw::SYNC_FLAG_LOCKED_BIT, kValid = 1u << hw::SYNC_FLAG_TIME_VALID_BIT,
                     kHoldover = 1u << hw::SYNC_FLAG_HOLDOVER_BIT;
  LinkConfig c = reference_and_follower(1'000'000, 2, 8);
  c.a.flags = 0;
  LinkBench bench(c);
  bench.run_exchanges(2, 20 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), 2u);
  EXPECT_EQ(bench.b().m().parent_flags_o, 0u);
  for (uint32_t flags : {kValid, kValid | kHoldover, kLocked | kValid}) {
    SCOPED_TRACE(testing::Message() << "flags " << flags);
    bench.a().m().flags_i = flags;
    const size_t before = bench.exchanges.size();
    bench.run_exchanges(before + 1, bench.now_fs() + 5 * kBeat * kT);
    EXPECT_EQ(bench.b().m().parent_flags_o, flags);
  }
}

TEST(SyncLink, TwoReferencesOrTwoFollowersExchangeNothing) {
  for (bool reference : {true, false}) {
    SCOPED_TRACE(reference ? "both references" : "both followers");
    LinkConfig c = reference_and_follower(1'500'000, 1, 2);
    c.a.reference = reference;
    c.b.reference = reference;
    LinkBench bench(c);
    bench.run_until(10 * kBeat * kT);
    EXPECT_TRUE(bench.exchanges.empty());
    EXPECT_EQ(bench.a().m().exchanges_o, 0u);
    // The links align all the same (IDLE words flow both ways).
    EXPECT_TRUE(bench.a().m().aligned_o);
    EXPECT_TRUE(bench.b().m().aligned_o);
  }
}

// Seventy Syncs in a row on a short fibre, past the sequence numbers 32 and
// 64: every one makes an exchange, one Sync period after the last, so every
// sequence number finds its round (mutation testing: 33 rounds, which leaves
// sequence numbers 33..63 of every 64 without one, survived every case
// above, none of which runs past 32 exchanges).
TEST(SyncLink, EverySequenceNumberFindsItsRound) {
  LinkConfig c = reference_and_follower(3'000'000, 9, 22);
  LinkBench bench(c);
  bench.run_exchanges(70, 90 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), 70u);
  for (size_t i = 1; i < bench.exchanges.size(); ++i) {
    EXPECT_EQ(int64_t(bench.exchanges[i].t1 - bench.exchanges[i - 1].t1), kBeat * kT) << "exchange " << i;
  }
}

// A follower rebooted while its Delay_Reqs are on a 10 km fibre: the answers
// to them arrive after the reset, in a new time base, and must find no round
// (mutation testing: the rounds' reset deleted survived every case above; the
// stale rounds then complete exchanges that mix the two time bases).
TEST(SyncLink, AFollowerRebootedWithRoundsInFlightMixesNoTimeBases) {
  LinkConfig c = reference_and_follower(3'000'000, 9, 22);
  c.ab_fs = c.ba_fs = 50'000'000'000;
  LinkBench bench(c);
  bench.run_exchanges(3, 80 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), 3u);
  const double before = bench.true_offset_fs();
  const size_t n = bench.exchanges.size();
  bench.b().reboot(-32'000);  // 4 us back
  bench.run_exchanges(n + 8, bench.now_fs() + 40 * kBeat * kT);
  ASSERT_GE(bench.exchanges.size(), n + 8);
  const double after = bench.true_offset_fs();
  ASSERT_NEAR(after - before, -4'000'000'000.0, 1.0);
  for (size_t i = n; i < bench.exchanges.size(); ++i)
    EXPECT_NEAR(bench.offset_fs(bench.exchanges[i]), after, kQuantumFs / 2.0 + 1) << "exchange " << i;
}

}  // namespace
