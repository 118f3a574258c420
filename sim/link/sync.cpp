#include "link/sync.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "clock/rng.hpp"
#include "lightrail/hwdef.hpp"

namespace lightrail::sim {

using nlohmann::json;

namespace {

constexpr int64_t kPeriodFs = int64_t(hwdef::CLK_PERIOD_PS) * 1000;
constexpr uint64_t kUpdateCycles = hwdef::DDMTD_N + 1;  // one servo update per DDMTD beat
constexpr int64_t kExchangeGapFs = 1000000000;          // the follower answers 1 us after the Sync arrives
constexpr int64_t kSlewWindowFs =
    int64_t(kUpdateCycles) * kPeriodFs;  // slew: offset change over >= one servo interval
// A link change is judged against the offset over this long before it, and
// its final offset over this long at the end of its window.
constexpr int64_t kChangeBeforeFs = 100000000000;
constexpr int64_t kChangeFinalFs = 100000000000;
constexpr size_t kTracePoints = 500;
constexpr double kRecoveryBandMinPs = 20;  // recovered: within max(this, 4 sigma before) of the final offset

// Exchanges per second at a Sync every `cycles` (SYNC_EXCHANGE_PERIOD).
double rate_of_period(double cycles) { return 1e15 / (cycles * double(kPeriodFs)); }

// A tree's parent of board b (>= 1): boards in breadth-first order, the
// grandmaster serving 1 + SYNC_DOWN_PORTS (its own port and the downstream
// ones: boards 1..8), every boundary clock SYNC_DOWN_PORTS (the next 7), so
// every link is on a port.
int tree_parent(int b) {
  constexpr int kRoot = 1 + int(hwdef::SYNC_DOWN_PORTS), kEach = int(hwdef::SYNC_DOWN_PORTS);
  return b <= kRoot ? 0 : 1 + (b - kRoot - 1) / kEach;
}

// SYNC_ERROR flags by name, as the register map calls them.
json flag_names(uint32_t errors) {
  json names = json::array();
  for (const hwdef::Flag& f : hwdef::SYNC_ERROR_FLAGS)
    if (errors & f.mask) names.push_back(f.name);
  return names;
}

json stats(std::vector<double> v) {
  if (v.empty()) return {{"samples", 0}};
  double sum = 0, sq = 0, max_abs = 0;
  for (double x : v) {
    sum += x;
    sq += x * x;
    max_abs = std::max(max_abs, std::fabs(x));
  }
  for (double& x : v) x = std::fabs(x);
  std::sort(v.begin(), v.end());
  const double mean = sum / double(v.size());
  // The spread about the mean apart from the mean: a constant bias (an
  // uncalibrated delay, the truncation of coarse timestamps) and noise have
  // different causes and different cures.
  return {{"samples", v.size()},
          {"mean", mean},
          {"std", std::sqrt(std::max(0.0, sq / double(v.size()) - mean * mean))},
          {"rms", std::sqrt(sq / double(v.size()))},
          {"p99", v[std::min(v.size() - 1, size_t(0.99 * double(v.size())))]},
          {"max_abs", max_abs}};
}

// Every PPS offset of one board from power-up on, for a picture of
// acquisition, lock and holdover: at most kPoints buckets of equally many
// consecutive samples, each its first time and its least and greatest
// offset. A full trace merges neighbours, and buckets take twice as many
// from then on, so a long run keeps its whole span in the same room.
class OffsetTrace {
 public:
  static constexpr size_t kPoints = 1024;  // even
  void add(int64_t t_fs, double ps) {
    if (!b_.empty() && in_last_ < per_) {
      b_.back().lo = std::min(b_.back().lo, ps);
      b_.back().hi = std::max(b_.back().hi, ps);
      ++in_last_;
      return;
    }
    if (b_.size() == kPoints) {  // every bucket is full: pair them up
      for (size_t i = 0; i < kPoints / 2; ++i)
        b_[i] = {b_[2 * i].t_fs, std::min(b_[2 * i].lo, b_[2 * i + 1].lo),
                 std::max(b_[2 * i].hi, b_[2 * i + 1].hi)};
      b_.resize(kPoints / 2);
      per_ *= 2;
    }
    b_.push_back({t_fs, ps, ps});
    in_last_ = 1;
  }
  json to_json() const {
    json t = json::array(), lo = json::array(), hi = json::array();
    for (const Bucket& x : b_) {
      t.push_back(double(x.t_fs) * 1e-9);
      lo.push_back(x.lo);
      hi.push_back(x.hi);
    }
    return {{"samples_per_point", per_}, {"t_us", t}, {"min_ps", lo}, {"max_ps", hi}};
  }

 private:
  struct Bucket {
    int64_t t_fs;
    double lo, hi;
  };
  std::vector<Bucket> b_;
  uint64_t per_ = 1, in_last_ = 0;
};

// The standard deviation of a locked servo's frequency (its integrator,
// what holdover keeps) about the oscillator's, from the loop's design (KP,
// KI, one update per DDMTD beat) and the profile's specified noise: white
// phase noise on every DDMTD sample (helper and CDR jitter, and the
// DDMTD's quantisation) and the oscillator's random-walk frequency
// (rw_adev_1s; flicker taken as a walk of the same Allan deviation at 1 s,
// an over-estimate at these intervals). The loop, per update of T:
//   x' = (1 - kp) x - T f - kp n,   f' = f + (ki / T)(x + n) + w
// (x the phase error, f the frequency error, n the phase noise, w the
// walk's step); its stationary covariance by iteration.
double servo_frequency_sigma(const clock::ImpairmentProfile& p, const sync::ClockSyncConfig& cfg) {
  const double T = double(kUpdateCycles) * double(kPeriodFs) * 1e-15;
  const double kp = double(cfg.kp_q16) / 65536.0;
  const double ki = double(cfg.ki_q16) / 65536.0;  // locked: SYNC_KI itself (clock_sync.cpp)
  const double quantum = double(kPeriodFs) / double(hwdef::DDMTD_N) * 1e-15;
  const double sn2 = std::pow(p.ddmtd.helper_jitter_fs * 1e-15, 2) +
                     std::pow(p.ddmtd.cdr_jitter_fs * 1e-15, 2) + quantum * quantum / 12;
  const double q = std::hypot(p.oscillator.rw_adev_1s, p.oscillator.flicker_adev) * std::sqrt(3.0);
  const double sw2 = q * q * T;
  const double a = 1 - kp, b = -T, c = ki / T, u = -kp, v = ki / T;
  double xx = 0, xf = 0, ff = 0;
  for (int i = 0; i < 200000; ++i) {
    const double nxx = a * a * xx + 2 * a * b * xf + b * b * ff + u * u * sn2;
    const double nxf = a * c * xx + (a + b * c) * xf + b * ff + u * v * sn2;
    const double nff = c * c * xx + 2 * c * xf + ff + v * v * sn2 + sw2;
    const bool settled = std::fabs(nff - ff) <= 1e-9 * nff && i > 100;
    xx = nxx, xf = nxf, ff = nff;
    if (settled) break;
  }
  return std::sqrt(ff);
}

}  // namespace

constexpr size_t kLockEventsKept = 64;
// How far back the exchange may reach into a parent's edge history.
constexpr double kHistoryReachFs =
    double(EdgeHistory::kEdges - 16) * double(kPeriodFs) - 2.0 * kExchangeGapFs;

struct SyncEngine::Node {
  int id = 0, parent = -1;
  bool baseline = false;
  std::unique_ptr<clock::Oscillator> osc;
  std::unique_ptr<clock::Fibre> fibre;  // to the parent
  // Its clock's recent edges: this process's boards and the parents of
  // its boards only (256 KiB each).
  std::unique_ptr<EdgeHistory> history = std::make_unique<EdgeHistory>();
  SyncPort* port = nullptr;
  sync::top::Kernel kernel;       // its servo, the HLS top (one call per cycle)
  sync::ClockSyncConfig cfg;      // brought up with
  sync::ClockSyncConfig cfg_now;  // at the last servo update (the host may have changed it)
  sync::ClockSyncOut out;
  uint64_t edges = 0;                               // of the board's clock
  int64_t last_edge_fs = 0, period_fs = kPeriodFs;  // of the board's clock
  int64_t dmtd_edge_fs = 0;                         // the next helper edge (jitter included)
  int64_t dmtd_ideal_fs = 0;                        // the same without the helper's jitter
  clock::Rng noise{1};                              // helper, CDR, sampler and timestamp noise
  uint64_t ddmtd_phases = 0;                        // phases the top's DDMTD reported
  uint32_t dac_loaded = ~0u;                        // the last DAC word sent to osc_ctrl
  double cal_error_fs = 0;                          // SYNC_CAL_ASYM minus the true asymmetry
  double lock_us = -1;
  // Every change of the servo's LOCKED flag (at us, locked), the first
  // kLockEventsKept; and the time locked from measure_from on.
  bool locked = false;
  std::vector<std::pair<double, bool>> lock_events;
  uint64_t lock_events_dropped = 0;
  int64_t last_update_fs = 0, locked_in_window_fs = 0, window_fs = 0;
  int64_t next_exchange_fs = 0;  // at a set exchange rate: the next update that gets one
  uint64_t exchanges = 0;
  // Slew measured from the truth: the change of the PPS offset against the
  // grandmaster over at least one servo interval, ns/s.
  double max_slew_ns_per_s = 0;
  int64_t slew_from_fs = -1;
  double slew_from_offset_ps = 0;
  // The board's counter after its previous edge: once locked it never goes
  // back (a coarse time step backwards would break every timestamp).
  uint64_t last_ticks = 0;
  uint64_t time_backwards = 0;
  double first_backwards_us = -1;
  std::deque<std::pair<uint64_t, int64_t>> pps;  // waiting for the grandmaster's
  std::vector<double> offsets;                   // ps, while locked after measure_from
  OffsetTrace trace;                             // every PPS offset, decimated
  std::vector<std::pair<int64_t, int>> relocks;  // (fs the receiver locked again, its bitslide in UI)
  // Partitioned runs: whether this process simulates the board, and whether
  // a board another process simulates follows it (its edges and lock
  // changes then go out at each window's end).
  bool mine = true, shown = false;
  uint64_t edges_out = 0;  // edges sent so far
  // Its clock quality as its children hear it (the flags in its exchange
  // frames, SYNC_FLAG_*_BIT): every change (fs, flags) within the reach of
  // the edge history.
  uint32_t flags = 0;
  // Every holdover its servo entered (fs from, to; -1: still in it), the
  // first kLockEventsKept: declared or not, a board's holdover is reported.
  std::vector<std::pair<int64_t, int64_t>> holdovers;
  // PPS offsets by index from the first declared event on (coherence of the
  // boards below a changed link, judged in merge_reports).
  std::vector<std::pair<uint64_t, double>> event_offsets;
  std::vector<double> offsets_before_event;  // ps, from measure_from to the first declared event
  std::deque<std::pair<int64_t, uint32_t>> flag_history;
  std::vector<std::pair<int64_t, uint32_t>> flags_out;  // changes not sent yet
  // The timing link at word level (SyncOptions::link "rtl"): the end on
  // the board's own link (port 0: to its parent, or a grandmaster's to its
  // first follower), and those on its downstream ports (hw/sync_port.sv),
  // indices into ends_.
  int own_end = -1;
  std::vector<int> down_ends;
};

// One end of a timing link at word level: the engine (its LinkPort) and
// what the link carries to it. The peer's transmitter hands its words in
// as sent (the edge each left on, the raw word), on whatever process it
// runs; this end puts them on its fibre in its own time (receive_words):
// every draw and state that depends on the receiver is here. The last two
// words on the fibre (a received word spans two), the words on their way
// (arrival fs, raw word), the recovered clock's last rise and pending fall,
// and the recovered edges its receiver is still held in reset for (after
// the clock starts again: the CDR's lock, its aligner's restart).
struct SyncEngine::End {
  int node = -1, peer = -1;
  int port = 0;            // 0: the board's own link; k > 0: downstream port k
  LinkPort* io = nullptr;  // the board's port (attach())
  struct Sent {
    int64_t edge_fs;
    uint32_t word;          // the peer's tx_word_o after that edge
    int64_t delay_fs = -1;  // the fibre's, once this end has looked at it
  };
  std::deque<Sent> inbox;  // the peer's words, not on the fibre yet
  uint32_t line_prev2 = 0, line_prev1 = 0;
  // frame_error_rate: the frame coming in has a flipped bit already; the
  // last two words on the fibre start a frame that has one (counted when
  // that word arrives); frames corrupted that reached this end.
  bool frame_hit = false, mark2 = false, mark1 = false;
  uint64_t frames_corrupted = 0;
  struct RxWord {
    int64_t at;
    uint32_t word;
    bool corrupted_frame;  // the first flipped word of a corrupted frame
  };
  std::deque<RxWord> rx_words;
  int64_t rx_rise_fs = INT64_MIN, rx_fall_fs = INT64_MAX;
  int64_t played_fs = INT64_MIN;  // its recovered clock is played up to here (play_rx)
  int rx_reset_edges = 0;
  double bits_to_error = -1;  // bits this end receives before the next flipped one (-1: draw)
  uint64_t bit_errors = 0;    // flipped in the words it received
  int64_t next_fs() const { return std::min(rx_fall_fs, rx_words.empty() ? INT64_MAX : rx_words.front().at); }
};

SyncEngine::SyncEngine(const SyncOptions& o, int boards) : opt_(o), boards_(boards) {
  if (boards < 2) throw std::invalid_argument("sync: needs at least 2 boards (a grandmaster and a follower)");
  if (o.topology != "star" && o.topology != "chain" && o.topology != "tree")
    throw std::invalid_argument("sync.topology: must be \"star\", \"chain\" or \"tree\", is \"" + o.topology +
                                "\"");
  const clock::FibreConfig fc = clock::fibre_config(o.profile);
  const int total = o.baseline ? 2 * boards - 1 : boards;
  for (int b = 0; b < total; ++b) {
    auto n = std::make_unique<Node>();
    n->id = b;
    n->baseline = b >= boards;
    const int mirror = n->baseline ? b - boards + 1 : b;  // the synchronised board a baseline copies
    if (mirror > 0) {
      const int up = o.topology == "star" ? 0 : o.topology == "chain" ? mirror - 1 : tree_parent(mirror);
      n->parent = n->baseline && up > 0 ? up + boards - 1 : up;
    }
    clock::OscillatorConfig oc = clock::oscillator_for_board(o.profile, mirror);
    // Power-up: every board (its copy alike) starts its oscillator, and its
    // counter from 0, somewhere within the boot skew; the servo's coarse
    // time set steps the difference away.
    if (o.boot_skew_ps > 0) {
      clock::Rng boot(o.profile.seed * 0x2545F4914F6CDD1Dull + uint64_t(mirror) + 1);
      oc.start_fs = int64_t(boot.next_u64() % uint64_t(o.boot_skew_ps)) * 1000;
    }
    n->osc = std::make_unique<clock::Oscillator>(oc);
    n->noise = clock::Rng(oc.seed ^ 0x6A09E667F3BCC909ull);
    n->fibre = std::make_unique<clock::Fibre>(fc);
    // The servo is designed for fibres up to SYNC_MAX_FIBRE_M (the exchange's
    // age); a longer one is refused, not run into a loop that hunts.
    if (n->parent >= 0 && o.profile.fibre.length_m > double(hwdef::SYNC_MAX_FIBRE_M))
      throw std::invalid_argument(
          fmt::format("sync.profile.fibre.length_m: {} m is longer than the longest supported fibre "
                      "(SYNC_MAX_FIBRE_M = {} m, docs/clock-sync.md)",
                      o.profile.fibre.length_m, hwdef::SYNC_MAX_FIBRE_M));
    // How long the exchange reaches back must fit the edge history.
    if (n->parent >= 0 && 3 * n->fibre->mean_delay_fs() > kHistoryReachFs)
      throw std::invalid_argument(fmt::format(
          "sync.profile.fibre.length_m: {} m is longer than the co-simulation keeps clock history for "
          "(at most {:.0f} m at this group index)",
          o.profile.fibre.length_m,
          o.profile.fibre.length_m * kHistoryReachFs / (3 * n->fibre->mean_delay_fs())));
    n->cfg.enable = n->parent >= 0;
    n->cfg.use_ddmtd = !n->baseline;
    // A PTP-only loop never gets within the DDMTD's lock threshold.
    if (n->baseline) n->cfg.lock_thresh_ps = 2000;
    // Calibration is a measurement: what is written is off by the profile's
    // calibration error (the same for a board and its PTP-only copy).
    n->cal_error_fs = o.calibrate_asymmetry ? clock::asymmetry_calibration_error_fs(o.profile, mirror) : 0.0;
    n->cfg.cal_asym_ps = o.calibrate_asymmetry
                             ? int32_t(std::lround((n->fibre->asymmetry_fs() + n->cal_error_fs) / 1000.0))
                             : 0;
    n->cfg.phase_step_fs = uint32_t(std::lround(n->osc->phase_step_fs()));
    // A boundary clock behind another one filters harder (less peaking).
    if (n->parent >= 0 && nodes_.size() > size_t(n->parent) && nodes_[size_t(n->parent)]->parent >= 0)
      n->cfg.ki_q16 = hwdef::SYNC_CASCADE_KI_Q16;
    // What the servo is told; the oscillator pulls (1 + pull_gain_error) of it.
    n->cfg.dac_pull_ppb = uint32_t(
        std::lround(o.profile.oscillator.pull_range_ppm * 1000 / (1 + o.profile.oscillator.pull_gain_error)));
    nodes_.push_back(std::move(n));
  }
  for (const RefLoss& r : o.ref_loss) {
    if (r.board <= 0 || r.board >= boards)
      throw std::invalid_argument(
          fmt::format("sync.ref_loss.board: {} is not a follower (1..{})", r.board, boards - 1));
    holdovers_.push_back({r.board, r.at_ps * 1000, (r.at_ps + r.for_ps) * 1000});
  }
  // A boundary clock (a follower others follow) serves: once its time is
  // valid it moves it slowly enough for them to track (SYNC_CTRL.SERVES).
  for (auto& n : nodes_)
    if (n->parent > 0) nodes_[size_t(n->parent)]->cfg.serves = true;
  if (o.link != "model" && o.link != "rtl")
    throw std::invalid_argument("sync.link: must be \"model\" or \"rtl\", is \"" + o.link + "\"");
  if (rtl_link()) {
    // The engines send at the whole period nearest the rate, within the
    // register's range (the fast mode's what-if goes to one a second).
    const uint32_t p = exchange_period_cycles();
    if (p > hwdef::SYNC_EXCHANGE_PERIOD_MAX)
      throw std::invalid_argument(fmt::format(
          "sync.exchange_rate_hz: {:g} is below the message engine's slowest, {:.0f} exchanges per second "
          "(SYNC_EXCHANGE_PERIOD_MAX, {} cycles); slower runs only with sync.link \"model\", the fast mode",
          o.exchange_rate_hz, rate_of_period(hwdef::SYNC_EXCHANGE_PERIOD_MAX),
          hwdef::SYNC_EXCHANGE_PERIOD_MAX));
    // Every link between synchronised boards at word level: the follower's
    // own link (port 0) to its parent's port 0 when that is a grandmaster's
    // and free, else to the parent's next downstream port (PTP-only copies
    // keep the modelled exchange: they are the baseline, not the shipped path).
    for (auto& c : nodes_) {
      if (c->parent < 0 || c->baseline) continue;
      Node& p = *nodes_[size_t(c->parent)];
      auto child = std::make_unique<End>();
      child->node = c->id;
      auto up = std::make_unique<End>();
      up->node = p.id;
      if (p.parent < 0 && p.own_end < 0) {
        p.own_end = int(ends_.size()) + 1;
      } else {
        up->port = int(p.down_ends.size()) + 1;
        if (up->port > int(hwdef::SYNC_DOWN_PORTS))
          throw std::invalid_argument(fmt::format(
              "sync.topology: board {} would serve board {} on downstream port {}, but a board top has {} "
              "(SYNC_DOWN_PORTS; a grandmaster serves {} followers, a boundary clock {}); as deployed, a "
              "\"tree\" of boundary clocks, or a larger star with \"link\": \"model\", the fast mode "
              "(docs/cosim.md, \"The timing link\")",
              p.id, c->id, up->port, hwdef::SYNC_DOWN_PORTS, hwdef::SYNC_DOWN_PORTS + 1,
              hwdef::SYNC_DOWN_PORTS));
        p.down_ends.push_back(int(ends_.size()) + 1);
      }
      c->own_end = int(ends_.size());
      child->peer = c->own_end + 1;
      up->peer = c->own_end;
      ends_.push_back(std::move(child));
      ends_.push_back(std::move(up));
      // The engine's fixed delay each way, calibrated exactly: the word's
      // cycle before it leaves, the period from its first bit's arrival to
      // its presentation, and the receiver's three-cycle pipeline.
      c->cfg.cal_delay_ms_ps = c->cfg.cal_delay_sm_ps = int32_t(5 * hwdef::CLK_PERIOD_PS);
    }
  }
  add_link_changes(fc, opt_.link_changes, "sync.link_changes",
                   std::vector<double>(opt_.link_changes.size(), 0.0));
  add_cdr_relocks(fc);
  for (const ChangeRecord& c : changes_) first_event_at_fs_ = std::min(first_event_at_fs_, c.at_fs);
  for (const Holdover& h : holdovers_) first_event_at_fs_ = std::min(first_event_at_fs_, h.start_fs);
  if (first_event_at_fs_ < INT64_MAX) first_event_fs_ = first_event_at_fs_ - kChangeBeforeFs;
}

// A relock is an outage of the link (a reference loss, judged as one) and,
// when the receiver locks again, a step of the forward path by the change of
// the bitslide; the servo learns the new slide only with compensation on.
void SyncEngine::add_cdr_relocks(const clock::FibreConfig& fc) {
  constexpr int64_t kUiFs = kPeriodFs / int64_t(hwdef::SYNC_LINK_WORD_BITS);
  std::vector<LinkChange> steps;
  std::vector<double> compensated;
  std::map<int, int> slide;  // per board, after the relocks so far
  std::vector<size_t> order(opt_.cdr_relocks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return opt_.cdr_relocks[a].at_ps < opt_.cdr_relocks[b].at_ps; });
  for (size_t i : order) {
    const CdrRelock& r = opt_.cdr_relocks[i];
    const std::string where = fmt::format("sync.cdr_relocks[{}]", i);
    if (r.board <= 0 || r.board >= boards_)
      throw std::invalid_argument(
          fmt::format("{}.board: {} is not a follower (1..{})", where, r.board, boards_ - 1));
    if (r.slide_ui < 0 || r.slide_ui >= int(hwdef::SYNC_LINK_WORD_BITS))
      throw std::invalid_argument(fmt::format("{}.slide_ui: {} is outside 0..{} (SYNC_LINK_WORD_BITS - 1)",
                                              where, r.slide_ui, hwdef::SYNC_LINK_WORD_BITS - 1));
    holdovers_.push_back({r.board, r.at_ps * 1000, (r.at_ps + r.down_ps) * 1000});
    for (int b : {r.board, opt_.baseline ? r.board + boards_ - 1 : -1})
      if (b >= 0) nodes_[size_t(b)]->relocks.emplace_back((r.at_ps + r.down_ps) * 1000, r.slide_ui);
    LinkChange c;
    c.board = r.board;
    c.at_ps = r.at_ps;
    c.forward = true;
    c.backward = false;
    c.kind = "cdr_relock_slide_ui";
    c.value = r.slide_ui;
    const double step_fs = double(r.slide_ui - slide[r.board]) * double(kUiFs);
    c.step_fs = step_fs;
    slide[r.board] = r.slide_ui;
    steps.push_back(c);
    compensated.push_back(opt_.bitslide_compensation ? step_fs / 1000 : 0.0);
  }
  add_link_changes(fc, steps, "sync.cdr_relocks", compensated);
}

// The bitslide of n's receiver at now: the last relock's, once it locked.
int SyncEngine::slide_at(const Node& n, int64_t now) const {
  int s = 0;
  for (const auto& [at, k] : n.relocks)
    if (now >= at) s = k;
  return s;
}

// Each change goes onto the board's fibre and its PTP-only copy's, so the
// baseline sees the same link.
void SyncEngine::add_link_changes(const clock::FibreConfig& fc, const std::vector<LinkChange>& changes,
                                  const std::string& list, const std::vector<double>& compensated_ps) {
  const double ps_per_k = fc.tcd_ps_per_km_k * fc.length_m / 1000.0;
  for (size_t i = 0; i < changes.size(); ++i) {
    const LinkChange& c = changes[i];
    const std::string where = fmt::format("{}[{}]", list, i);
    if (c.board <= 0 || c.board >= boards_)
      throw std::invalid_argument(
          fmt::format("{}.board: {} is not a follower (1..{})", where, c.board, boards_ - 1));
    clock::DelayChange d;
    d.at_fs = c.at_ps * 1000;
    d.forward = c.forward;
    d.backward = c.backward;
    if (c.kind == "delay_step_ps") {
      d.step_fs = c.value * 1000;
    } else if (c.kind == "cdr_relock_slide_ui") {
      d.step_fs = c.step_fs;
    } else if (c.kind == "temperature_step_k") {
      d.step_fs = c.value * ps_per_k * 1000;
    } else if (c.kind == "temperature_ramp_k_per_s") {
      d.ramp_fs_per_s = c.value * ps_per_k * 1000;
      d.ramp_for_fs = c.for_ps * 1000;
    } else {
      throw std::invalid_argument(where + ": unknown kind " + c.kind);
    }
    std::vector<int> targets{c.board};
    if (opt_.baseline) targets.push_back(c.board + boards_ - 1);
    for (int b : targets) {
      clock::Fibre& f = *nodes_[size_t(b)]->fibre;
      try {
        f.add_change(d);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("{}.{}: {}", where, c.kind, e.what()));
      }
      if (3 * f.max_delay_fs() > kHistoryReachFs)
        throw std::invalid_argument(fmt::format(
            "{}.{}: the link's delay reaches {:.0f} ns, longer than the co-simulation keeps clock history "
            "for ({:.0f} ns)",
            where, c.kind, f.max_delay_fs() * 1e-6, kHistoryReachFs / 3 * 1e-6));
    }
    ChangeRecord r;
    r.spec = c;
    r.at_fs = d.at_fs;
    r.until_fs = INT64_MAX;
    const double total_fs = d.step_fs + d.ramp_fs_per_s * (double(d.ramp_for_fs) * 1e-15);
    r.forward_ps = c.forward ? total_fs / 1000 : 0;
    r.backward_ps = c.backward ? total_fs / 1000 : 0;
    r.compensated_ps = compensated_ps[i];
    changes_.push_back(r);
  }
  // A change is judged up to the next change of the same board (of either list).
  for (ChangeRecord& a : changes_)
    for (const ChangeRecord& b : changes_)
      if (b.spec.board == a.spec.board && b.at_fs > a.at_fs) a.until_fs = std::min(a.until_fs, b.at_fs);
}

SyncEngine::~SyncEngine() = default;

void SyncEngine::attach(int b, SyncPort* port) {
  Node& n = *nodes_[size_t(b)];
  n.port = port;
  if (!n.down_ends.empty()) port->add_down_ports(int(n.down_ends.size()));
  for_each_end(n, [&](End& e) { e.io = &port->link_port(e.port); });
}

sync::ClockSyncConfig SyncEngine::initial_config(int b) const { return nodes_[size_t(b)]->cfg; }

int64_t SyncEngine::next_edge_fs(int b) { return nodes_[size_t(b)]->osc->next_edge_fs(); }

bool SyncEngine::has_ddmtd(int b) const {
  const Node& n = *nodes_[size_t(b)];
  return (n.parent >= 0 && !n.baseline) || n.own_end >= 0;  // a reference's engine refines its stamps too
}

uint32_t SyncEngine::exchange_period_cycles() const {
  if (opt_.exchange_rate_hz <= 0) return uint32_t(kUpdateCycles);
  const double cycles = std::round(1e15 / (opt_.exchange_rate_hz * double(kPeriodFs)));
  return uint32_t(std::clamp(cycles, double(kUpdateCycles), double(UINT32_MAX)));
}

bool SyncEngine::link_reference(int b) const {
  const Node& n = *nodes_[size_t(b)];
  return n.own_end >= 0 && n.parent < 0;
}

// Board b's ends: its own link's, then its downstream ports'.
template <class F>
void SyncEngine::for_each_end(const Node& n, F&& f) const {
  if (n.own_end >= 0) f(*ends_[size_t(n.own_end)]);
  for (int e : n.down_ends) f(*ends_[size_t(e)]);
}

// A board's DDMTD helper clock and its ports' recovered clocks are played
// lazily: their edges (each one evaluation of a port's model) up to, not
// including, the board's next clk_i edge, in time order, just before it.
// Nothing observes a port in between (its helper and receive domains reach
// clk_i only through synchronisers), so this is the run one process per
// edge would give, without the scheduler's cost per edge: what an edge
// needs is there by then (the words are on their way a fibre delay ahead,
// the clocks' edges before it are in their histories, and the oscillator
// has not yet been asked for the edge after this one).
void SyncEngine::play_rx(End& e, int64_t before) {
  if (!e.io) return;
  receive_words(e, before);
  for (int64_t t; (t = e.next_fs()) < before;) rx_edge(e, t);
  e.played_fs = std::max(e.played_fs, before);
}

void SyncEngine::before_edge(int b, int64_t edge_fs) {
  Node& n = *nodes_[size_t(b)];
  if (has_ddmtd(b))
    while (n.dmtd_edge_fs < edge_fs) on_dmtd_edge(b, n.dmtd_edge_fs);
  for_each_end(n, [&](End& e) { play_rx(e, edge_fs); });
}

// The recovered clock at an end: its fall, or its next rise with the word
// it presents. Its receiver is held in reset for the first edges after the
// clock starts again (a link that came back).
void SyncEngine::rx_edge(End& n, int64_t t) {
  if (n.rx_fall_fs <= t && (n.rx_words.empty() || n.rx_fall_fs <= n.rx_words.front().at)) {
    n.rx_fall_fs = INT64_MAX;
    n.io->rx_fall();
    return;
  }
  if (n.rx_words.empty()) return;
  const End::RxWord rx = n.rx_words.front();
  const int64_t at = rx.at;
  const uint32_t word = rx.word;
  n.rx_words.pop_front();
  if (rx.corrupted_frame) ++n.frames_corrupted;
  if (n.rx_fall_fs != INT64_MAX) n.io->rx_fall();  // a fall the rise overtook (jitter)
  constexpr int kRxResetEdges = 8;
  if (n.rx_rise_fs == INT64_MIN || at - n.rx_rise_fs > 2 * kPeriodFs) n.rx_reset_edges = kRxResetEdges;
  n.rx_rise_fs = at;
  n.rx_fall_fs = at + kPeriodFs / 2;
  const bool release = n.rx_reset_edges == 0;
  if (n.rx_reset_edges > 0) --n.rx_reset_edges;
  n.io->rx_rise(release && !n.io->in_reset(), word);
  Node& board = *nodes_[size_t(n.node)];
  if (n.port == 0 && board.parent < 0) board.port->set_link_up(true);  // the reference hears its follower
}

// The word in board `from`'s transmitter after its edge at edge_fs, to the
// other end: into that end's inbox, as the raw word and its edge, whichever
// process simulates it (partitioned, it crosses at the window's end:
// export_window). Nothing here depends on the receiver.
void SyncEngine::send_words(End& from, int64_t edge_fs) {
  ends_[size_t(from.peer)]->inbox.push_back({edge_fs, from.io->tx_word()});
}

// The words the peer sent, over the fibre to this end's receiver
// (tests/hw_sync/link_model.hpp's link, on the simulated clocks), in this
// end's own time: every word whose earliest arrival is within a period of
// `before`, so that what its recovered clock plays up to there (and a
// DDMTD sample's look a quarter period ahead) is on its way. The word in
// the transmitter during cycle k leaves from edge k + 1, bit 0 first; the
// receiver's CDR, locked on bit `offset`, presents raw word k (bits
// offset..offset + 31 of words k and k + 1) at the recovered edge one
// period after its first bit arrived: the sender's edge k + 2 one fibre
// later, plus the offset and the CDR's jitter (held to at most a period
// early: lookahead_fs leaves the room). No light while the link is down.
// The draws (the CDR's jitter, the bit errors, a frame error) are this
// end's board's, in the order its words arrive, so they do not depend on
// how the boards are split over processes.
void SyncEngine::receive_words(End& to, int64_t before) {
  const End& from = *ends_[size_t(to.peer)];
  Node& to_node = *nodes_[size_t(to.node)];
  const bool forward = to_node.parent == from.node && to.port == 0;
  const Node& follower = forward ? to_node : *nodes_[size_t(from.node)];
  while (!to.inbox.empty()) {
    End::Sent& sent = to.inbox.front();
    const int64_t edge_fs = sent.edge_fs;
    if (sent.delay_fs < 0)
      sent.delay_fs =
          forward ? follower.fibre->forward_delay_fs(edge_fs) : follower.fibre->backward_delay_fs(edge_fs);
    const int64_t d = sent.delay_fs, earliest = edge_fs + d - kPeriodFs;
    if (earliest >= before + kPeriodFs) return;
    const uint32_t sent_word = sent.word;
    to.inbox.pop_front();
    const int offset = forward ? slide_at(follower, edge_fs + d) : 0;
    // (A relock's new slide is already in the fibre's forward delay:
    // add_cdr_relocks.)
    // Never before what is played already: a link shorter than two periods
    // in one process (partitioned, lookahead_fs refuses it) can bring a
    // word due before its sender's edge came.
    int64_t at = std::max(
        {earliest, to.played_fs,
         edge_fs + d + int64_t(std::llround(opt_.profile.ddmtd.cdr_jitter_fs * to_node.noise.normal()))});
    if (ref_ok(follower, at)) {
      if (!to.rx_words.empty()) at = std::max(at, to.rx_words.back().at + 1);  // a fibre keeps order
      const uint64_t pair = uint64_t(to.line_prev2) | uint64_t(to.line_prev1) << 32;
      uint32_t word = uint32_t(pair >> offset);
      // Bit errors: the gaps between flipped bits are geometric (exponential,
      // drawn once per error, so an error-free link draws nothing).
      constexpr double kBits = hwdef::SYNC_LINK_WORD_BITS;
      for (double p = opt_.bit_error_rate; p > 0;) {
        if (to.bits_to_error < 0) to.bits_to_error = std::floor(-std::log(to_node.noise.uniform()) / p);
        if (to.bits_to_error >= kBits) {
          to.bits_to_error -= kBits;
          break;
        }
        word ^= 1u << unsigned(to.bits_to_error);
        ++to.bit_errors;
        to.bits_to_error = std::floor(-std::log(to_node.noise.uniform()) / p) + to.bits_to_error + 1;
      }
      to.rx_words.push_back({at, word, to.mark2});
    }
    to.line_prev2 = to.line_prev1;
    to.mark2 = to.mark1;
    to.line_prev1 = sent_word;
    to.mark1 = false;
    if (opt_.frame_error_rate > 0) corrupt_frame_word(to);
  }
}

// frame_error_rate: a payload word (hw/sync_link_pkg.sv's line code: every
// bit pair (d, ~d); IDLE and SOF are not) gets one data bit flipped, both
// bits of its pair, while the receiving end is aligned (as it is when the
// word goes onto its fibre, about a fibre delay after it was sent). A frame
// is a run of payload words; its first flipped word carries the mark.
void SyncEngine::corrupt_frame_word(End& to) {
  uint32_t& w = to.line_prev1;
  bool payload = true;
  for (int i = 0; i < 16 && payload; ++i) payload = ((w >> (2 * i)) & 1u) != ((w >> (2 * i + 1)) & 1u);
  if (!payload) {
    to.frame_hit = false;
    return;
  }
  clock::Rng& noise = nodes_[size_t(to.node)]->noise;
  if (!to.io->link_aligned() || noise.uniform() >= opt_.frame_error_rate) return;
  w ^= 3u << (2 * (noise.next_u64() % 16));
  to.mark1 = !to.frame_hit;
  to.frame_hit = true;
}

// The level of board n's recovered clock that its DDMTD samples at t: the
// clock as played (rise, fall half a period later; stopped low), resolved
// at random within half the sampler's aperture of an edge. An edge the
// sample says has come is played now, a few fs early, so the model's
// clk_rx_i agrees with the sample.
bool SyncEngine::rx_sample(End& n, int64_t t) {
  clock::Rng& noise = nodes_[size_t(n.node)]->noise;
  const int64_t half_ap = int64_t(opt_.profile.ddmtd.aperture_fs / 2);
  const int64_t next = n.rx_words.empty() ? INT64_MAX : n.rx_words.front().at;
  const bool started = n.rx_rise_fs != INT64_MIN;
  const int64_t since = started ? t - n.rx_rise_fs : INT64_MAX;
  const bool near = std::llabs(next - t) < half_ap ||
                    (started && (std::llabs(since) < half_ap || std::llabs(since - kPeriodFs / 2) < half_ap));
  bool level = near ? (noise.next_u64() & 1) != 0 : since < kPeriodFs / 2;
  const bool now = n.io->rx_level();
  if (level && !now) {
    if (next - t < kPeriodFs / 4)
      rx_edge(n, next);
    else
      level = false;
  } else if (!level && now) {
    n.rx_fall_fs = INT64_MAX;
    n.io->rx_fall();
  }
  return level;
}

// The helper PLL runs off the board's oscillator: N/(N+1) of its frequency.
int64_t SyncEngine::next_dmtd_edge_fs(int b) {
  Node& n = *nodes_[size_t(b)];
  if (n.dmtd_edge_fs == 0) n.dmtd_edge_fs = n.dmtd_ideal_fs = n.osc->next_edge_fs() + kPeriodFs / 3;
  return n.dmtd_edge_fs;
}

void SyncEngine::on_dmtd_edge(int b, int64_t t) {
  Node& n = *nodes_[size_t(b)];
  // A PLL tracks the oscillator's frequency, not its edge-to-edge jitter,
  // and sits before the MMCM, so phase steps do not move the helper.
  // Its own jitter is white about that grid (profile.ddmtd.helper_jitter_fs).
  const clock::DdmtdProfile& dp = opt_.profile.ddmtd;
  const double period = n.osc->nominal_period_fs() / (1.0 + n.osc->fractional_frequency());
  n.dmtd_ideal_fs += int64_t(std::llround(period * double(hwdef::DDMTD_N + 1) / double(hwdef::DDMTD_N)));
  n.dmtd_edge_fs =
      std::max(t + 1, n.dmtd_ideal_fs + int64_t(std::llround(dp.helper_jitter_fs * n.noise.normal())));
  if (!n.port) return;
  for_each_end(n, [&](End& e) { play_rx(e, t); });
  // Levels at t, high for the first half of each period: the recovered
  // reference is the parent's clock one fibre later with the CDR's jitter
  // (stuck low while the link is down); the local clock is the board's own.
  // A sampler within half the aperture of an edge of its input resolves at
  // random (metastability, settled by the synchroniser after it).
  // The level near the transition closest to `since_edge` (the time since
  // the last rising edge, one period `period` long), that transition moved
  // by `jitter_fs`: a rise is high after it, a fall low after it.
  auto level = [&](int64_t since_edge, int64_t period, int64_t jitter_fs) {
    const int64_t half = period / 2;
    const bool near_fall = since_edge >= half / 2 && since_edge < half + half / 2;
    const int64_t d = (near_fall           ? since_edge - half
                       : since_edge < half ? since_edge
                                           : since_edge - period) -
                      jitter_fs;
    if (std::llabs(d) < int64_t(dp.aperture_fs / 2)) return (n.noise.next_u64() & 1) != 0;
    return near_fall ? d < 0 : d >= 0;
  };
  int64_t e;
  uint64_t ticks;
  bool ref;
  if (n.own_end >= 0) {
    ref = rx_sample(*ends_[size_t(n.own_end)], t);  // the recovered clock as played onto clk_rx_i
  } else {
    const Node& p = *nodes_[size_t(n.parent)];
    const int64_t at_parent = t - n.fibre->forward_delay_fs(t);
    ref = ref_ok(n, t) && p.history->edge_before(at_parent, &e, &ticks) &&
          level(at_parent - e, kPeriodFs, int64_t(std::llround(dp.cdr_jitter_fs * n.noise.normal())));
  }
  const bool local = n.history->edge_before(t, &e, &ticks) && level(t - e, n.period_fs, 0);
  n.port->link_port(0).dmtd_edge(ref, local);
  // The downstream ports' DDMTDs, on the same helper clock: each samples
  // its own follower's recovered clock.
  for (int d : n.down_ends) {
    End& end = *ends_[size_t(d)];
    end.io->dmtd_edge(rx_sample(end, t), local);
  }
}

bool SyncEngine::ref_ok(const Node& n, int64_t now) const {
  for (const Holdover& h : holdovers_)
    if (h.board == n.id && now >= h.start_fs && now < h.end_fs) return false;
  return true;
}

void SyncEngine::on_edge(int b, int64_t edge_fs, uint64_t ticks) {
  Node& n = *nodes_[size_t(b)];
  n.history->push(edge_fs, ticks);
  if (n.lock_us >= 0 && ticks <= n.last_ticks) {
    if (n.time_backwards++ == 0) n.first_backwards_us = double(edge_fs) * 1e-9;
  }
  n.last_ticks = ticks;
  ++n.edges;
  if (n.last_edge_fs > 0) n.period_fs = edge_fs - n.last_edge_fs;
  n.last_edge_fs = edge_fs;
  if (n.port) {  // what the top's osc_ctrl got to the DAC and the MMCM this cycle
    uint32_t word;
    if (n.port->take_dac(&word)) n.osc->set_dac(word);
    if (const int steps = n.port->take_phase_steps()) n.osc->shift_phase(steps);
  }
  if (n.port) for_each_end(n, [&](End& e) { send_words(e, edge_fs); });
  // A follower's servo kernel: one call per cycle (the grandmaster's servo
  // is off, SYNC_CTRL.ENABLE 0, and its kernel is not run).
  if (n.parent >= 0 && n.port) servo_cycle(n, edge_fs);
  const uint64_t pps_ticks = uint64_t(opt_.pps_period_ps / hwdef::TICK_PS);
  if (ticks > 0 && ticks % pps_ticks == 0) record_pps(b, ticks / pps_ticks, edge_fs);
}

// One cycle of n's servo kernel on its top's outputs, the exchange's inputs
// from the fibre model; the update's bookkeeping when one ends.
void SyncEngine::servo_cycle(Node& n, int64_t now) {
  if (n.port->in_reset()) {
    n.kernel.reset();
    n.port->drive_kernel(sync::top::Outputs{});
    return;
  }
  sync::top::Inputs in = n.port->kernel_inputs();
  exchange_inputs(n, now, in);
  sync::top::Outputs out;
  n.kernel.cycle(in, out);
  if (out.updated) {
    n.out = out.shown;
    // The deliberately broken servo (options): its holdover word off.
    if (opt_.fault_holdover_ppb != 0) {
      if (n.out.status & hwdef::SYNC_STATUS_HOLDOVER_MASK) {
        const double lsb_ppb = 2.0 * double(n.cfg_now.dac_pull_ppb) / double(1u << hwdef::SYNC_DAC_BITS);
        const int64_t word = int64_t(n.out.dac_word) + std::llround(opt_.fault_holdover_ppb / lsb_ppb);
        n.out.dac_word = uint32_t(std::clamp<int64_t>(word, 0, (int64_t{1} << hwdef::SYNC_DAC_BITS) - 1));
        out.shown.dac_word = n.out.dac_word;
      }
      out.dac_load = out.shown.dac_word != n.dac_loaded;
    }
    if (out.dac_load) n.dac_loaded = out.shown.dac_word;
    after_update(n, now);
  }
  n.port->drive_kernel(out);
}

// The kernel's inputs besides the top's: with the link at word level the
// top's message engine gives them (link up, the parent's frame flags, the
// stamps and their count, the bit slide); else the fibre model does: this
// board's link, the parent's frame flags, the receiver's bit slide, and, in
// a cycle in which the kernel latches its inputs, the last two-way exchange
// (a new count when one completed).
void SyncEngine::exchange_inputs(Node& n, int64_t now, sync::top::Inputs& in) {
  const Node& p = *nodes_[size_t(n.parent)];
  // The board's own link, and its parent's clock quality as the parent's
  // frames say it: a boundary clock follows a parent whose time is valid
  // (locked once and kept since), so it keeps following one that
  // re-acquires or holds over; following one still acquiring would pass its
  // transient down the chain, amplified.
  const bool ref = ref_ok(n, now);
  n.port->set_link_up(ref);
  if (n.own_end < 0) {
    in.link_up = ref;
    in.parent_flags = p.parent < 0 || !opt_.wait_for_parent_lock
                          ? sync::kGrandmasterFlags
                          : flags_at(p, now - n.fibre->forward_delay_fs(now));
    in.rx_bitslide = opt_.bitslide_compensation ? uint32_t(slide_at(n, now)) : 0u;
    in.exchanges = uint32_t(n.exchanges);
  } else if (!opt_.bitslide_compensation) {
    in.rx_bitslide = 0;  // the engine's slide, kept from the servo (a deliberate fault)
  }
  if (!n.kernel.starts_update(in)) return;
  if (in.phase_valid) ++n.ddmtd_phases;
  n.cfg_now = sync::top::config_of(in);
  for (ChangeRecord& c : changes_)
    if (c.spec.board == n.id && now >= c.at_fs && !c.seen) {
      c.seen = true;
      c.errors_before = n.out.errors;
    }
  if (n.own_end >= 0) {  // the top's message engine gave the rest
    n.exchanges = in.exchanges;
    return;
  }
  // At a set exchange rate only some updates carry an exchange; the DDMTD
  // phase comes with every beat regardless.
  bool exchange_due = true;
  if (opt_.exchange_rate_hz > 0) {
    exchange_due = now >= n.next_exchange_fs;
    if (exchange_due) n.next_exchange_fs = now + int64_t(1e15 / opt_.exchange_rate_hz);
  }
  // A parent whose time is not valid is not followed: the servo ignores its
  // exchanges and phases, so none is made (nor noise drawn for one).
  if (!exchange_due || !ref || !((in.parent_flags >> hwdef::SYNC_FLAG_TIME_VALID_BIT) & 1u)) return;
  const int64_t d_fwd = n.fibre->forward_delay_fs(now), d_bwd = n.fibre->backward_delay_fs(now);
  // Two-way exchange, as a board gets it: Sync at T1 (parent), arrives T2;
  // Delay_Req leaves T3, arrives T4 (parent); the Delay_Resp carrying T4
  // comes back over the fibre and is framed and handed over half a gap
  // later, now. The servo's data are one and a half round trips old.
  const int64_t T4 = now - kExchangeGapFs / 2 - d_fwd, T3 = T4 - d_bwd, T2 = T3 - kExchangeGapFs,
                T1 = T2 - d_fwd;
  const bool fine = !n.baseline;
  int64_t t1, t2, t3, t4;
  if (!(p.history->board_time_fs(T1, fine, &t1) && n.history->board_time_fs(T2, fine, &t2) &&
        n.history->board_time_fs(T3, fine, &t3) && p.history->board_time_fs(T4, fine, &t4)))
    return;
  if (fine) {
    // A receive timestamp is refined by the receiver's DDMTD phase, so it
    // carries that DDMTD's noise: the helper's and the CDR's jitter.
    const clock::DdmtdProfile& dp = opt_.profile.ddmtd;
    const double sigma = std::hypot(dp.helper_jitter_fs, dp.cdr_jitter_fs);
    t2 += int64_t(std::llround(sigma * n.noise.normal()));
    t4 += int64_t(std::llround(sigma * n.noise.normal()));
    // DDMTD-refined timestamps resolve period/N, not a femtosecond.
    const int64_t q = kPeriodFs / int64_t(hwdef::DDMTD_N);
    for (int64_t* t : {&t1, &t2, &t3, &t4}) *t -= *t % q;
  }
  in.t1_fs = uint64_t(t1);
  in.t2_fs = uint64_t(t2);
  in.t3_fs = uint64_t(t3);
  in.t4_fs = uint64_t(t4);
  in.exchange_fine = fine;  // the PTP-only copies' stamps are cycle stamps
  in.exchanges = uint32_t(++n.exchanges);
}

// After an update of n's servo (its results now on the top): lock, flags,
// holdovers and the judged changes, from what the kernel shows.
void SyncEngine::after_update(Node& n, int64_t now) {
  const bool locked = n.out.status & hwdef::SYNC_STATUS_LOCKED_MASK;
  if (locked && n.lock_us < 0) n.lock_us = double(now) * 1e-9;
  const int64_t from = std::max(n.last_update_fs, opt_.measure_from_ps * 1000);
  if (now > from) {
    n.window_fs += now - from;
    if (n.locked) n.locked_in_window_fs += now - from;
  }
  n.last_update_fs = now;
  for (Holdover& h : holdovers_)
    if (h.board == n.id && now >= h.start_fs && !h.loss_seen) {
      h.loss_seen = true;
      h.locked_at_loss = n.locked;
    }
  const uint32_t flags =
      (locked ? 1u << hwdef::SYNC_FLAG_LOCKED_BIT : 0u) |
      (n.out.status & hwdef::SYNC_STATUS_TIME_VALID_MASK ? 1u << hwdef::SYNC_FLAG_TIME_VALID_BIT : 0u) |
      (n.out.status & hwdef::SYNC_STATUS_HOLDOVER_MASK ? 1u << hwdef::SYNC_FLAG_HOLDOVER_BIT : 0u);
  if (flags != n.flags) {
    const uint32_t h = 1u << hwdef::SYNC_FLAG_HOLDOVER_BIT;
    if ((flags & h) && !(n.flags & h) && n.holdovers.size() < kLockEventsKept)
      n.holdovers.emplace_back(now, -1);
    if (!(flags & h) && (n.flags & h) && !n.holdovers.empty()) n.holdovers.back().second = now;
    n.flags = flags;
    n.flag_history.emplace_back(now, flags);
    while (n.flag_history.size() > 1 && n.flag_history[1].first < now - int64_t(kHistoryReachFs))
      n.flag_history.pop_front();
    if (n.shown) n.flags_out.emplace_back(now, flags);
  }
  if (locked != n.locked) {
    n.locked = locked;
    if (n.lock_events.size() < kLockEventsKept)
      n.lock_events.emplace_back(double(now) * 1e-9, locked);
    else
      ++n.lock_events_dropped;
  }
  for (ChangeRecord& c : changes_) {
    if (c.spec.board != n.id || !c.seen || now >= c.until_fs) continue;
    c.errors_after |= n.out.errors;
    if (!locked && !c.lock_lost) {
      c.lock_lost = true;
      c.unlocked_at_us = double(now - c.at_fs) * 1e-9;
    } else if (locked && c.lock_lost && c.relock_us < 0) {
      c.relock_us = double(now - c.at_fs) * 1e-9;
    }
  }
  for (Holdover& h : holdovers_)
    if (h.board == n.id && now >= h.end_fs && !h.relocked &&
        (n.out.status & hwdef::SYNC_STATUS_LOCKED_MASK)) {
      h.relocked = true;
      h.relock_us = double(now - h.end_fs) * 1e-9;
    }
}

// The truth: a board's PPS edge against the grandmaster's of the same index.
void SyncEngine::match_pps(Node& n, uint64_t k, int64_t t) {
  const double offset_ps = double(gm_pps_.at(k) - t) / 1000.0;  // > 0: the board is ahead
  n.trace.add(t, offset_ps);
  // Every sample from the lock deadline on, whatever the servo thinks of
  // itself: the truth does not ask.
  if (t >= opt_.measure_from_ps * 1000) {
    n.offsets.push_back(offset_ps);
    if (n.slew_from_fs < 0) {
      n.slew_from_fs = t;
      n.slew_from_offset_ps = offset_ps;
    } else if (t - n.slew_from_fs >= kSlewWindowFs) {
      const double rate =
          std::fabs(offset_ps - n.slew_from_offset_ps) * 1e3 / (double(t - n.slew_from_fs) * 1e-15);
      n.max_slew_ns_per_s = std::max(n.max_slew_ns_per_s, rate * 1e-6);
      n.slew_from_fs = t;
      n.slew_from_offset_ps = offset_ps;
    }
  }
  for (ChangeRecord& c : changes_)
    if (c.spec.board == n.id && t >= c.at_fs - kChangeBeforeFs && t < c.until_fs)
      c.offsets.emplace_back(t, offset_ps);
  if (t >= first_event_fs_) n.event_offsets.emplace_back(k, offset_ps);
  if (t >= opt_.measure_from_ps * 1000 && t < first_event_at_fs_) n.offsets_before_event.push_back(offset_ps);
  for (Holdover& h : holdovers_) {
    if (h.board != n.id || t < h.start_fs || t >= h.end_fs) continue;
    if (!h.started) {
      h.started = true;
      h.offset_at_start_ps = offset_ps;
      // The bound a data sheet and the servo's design give, never the
      // truth: the frequency the servo holds is its integrator's, whose
      // error at the loss is 3 sigma of what the locked loop leaves from
      // the DDMTD's specified noise and the oscillator's wander
      // (servo_frequency_sigma); the oscillators add their specified
      // instability over the gap (3 sigma, both ends: random walk,
      // flicker, temperature, ageing) and two edges' jitter. A board that
      // was not locked has no bound.
      const double gap_s = double(h.end_fs - t) * 1e-15;
      const double y_servo = 3 * servo_frequency_sigma(opt_.profile, n.cfg_now);
      h.frequency_bound_ppb = y_servo * 1e9;
      h.predicted_ps = y_servo * gap_s * 1e12 + clock::holdover_bound_fs(opt_.profile, gap_s) / 1000.0 +
                       6 * opt_.profile.oscillator.jitter_rms_fs / 1000.0 +
                       double(n.cfg.phase_step_fs) / 1000.0;
    }
    h.max_drift_ps = std::max(h.max_drift_ps, std::fabs(offset_ps - h.offset_at_start_ps));
  }
}

void SyncEngine::grandmaster_pps(uint64_t index, int64_t fs) {
  gm_pps_[index] = fs;
  while (gm_pps_.size() > 256) gm_pps_.erase(gm_pps_.begin());
  for (auto& n : nodes_)
    while (!n->pps.empty() && gm_pps_.count(n->pps.front().first)) {
      match_pps(*n, n->pps.front().first, n->pps.front().second);
      n->pps.pop_front();
    }
}

uint32_t SyncEngine::flags_at(const Node& n, int64_t t_fs) const {
  uint32_t flags = 0;
  for (const auto& [at, f] : n.flag_history)
    if (at <= t_fs) flags = f;
  return flags;
}

void SyncEngine::record_pps(int b, uint64_t index, int64_t fs) {
  if (b == 0) {
    // Partitioned, every process learns it at the window's end (this one too).
    if (windowed_)
      gm_out_.emplace_back(index, fs);
    else
      grandmaster_pps(index, fs);
    return;
  }
  Node& n = *nodes_[size_t(b)];
  if (gm_pps_.count(index)) {
    match_pps(n, index, fs);
  } else {
    n.pps.emplace_back(index, fs);
    if (n.pps.size() > 256) n.pps.pop_front();  // more than 256 PPS apart: never in sync anyway
  }
}

void SyncEngine::partition(const std::vector<bool>& mine) {
  windowed_ = true;
  for (auto& n : nodes_) n->mine = mine[size_t(n->id)];
  for (auto& n : nodes_)
    if (n->parent >= 0 && n->mine != nodes_[size_t(n->parent)]->mine) nodes_[size_t(n->parent)]->shown = true;
  // Clock history only where it is read: this process's boards and their parents.
  std::vector<bool> read(nodes_.size());
  for (const auto& n : nodes_)
    if (n->mine) {
      read[size_t(n->id)] = true;
      if (n->parent >= 0) read[size_t(n->parent)] = true;
    }
  for (auto& n : nodes_)
    if (!read[size_t(n->id)]) n->history.reset();
}

// What one board reads of another: its parent's clock one fibre earlier
// (the recovered reference at the DDMTD, the flags in its exchange frames) and
// the parent's board time at the exchange's T1 and T4, T4 half the exchange
// gap before the servo runs. With the link at word level, the words the
// other end sent: a receiver takes a word in up to two periods before it
// arrives a fibre later (receive_words), so two periods less.
int64_t SyncEngine::lookahead_fs(int64_t until_fs) const {
  double least = double(kExchangeGapFs / 2);
  for (const auto& n : nodes_)
    if (n->parent >= 0)
      least = std::min(least, n->fibre->min_delay_fs(until_fs) - (n->own_end >= 0 ? 2.0 * kPeriodFs : 0.0));
  return int64_t(least);
}

void SyncEngine::export_window(Wire& out) {
  for (auto& n : nodes_) {
    if (!n->mine || !n->shown) continue;
    const uint64_t fresh = n->edges - n->edges_out;
    if (fresh >= EdgeHistory::kEdges)
      throw std::runtime_error("partition: a window is longer than the clock history it must send");
    out.put(int32_t(n->id));
    out.put(fresh);
    for (uint64_t age = fresh; age-- > 0;) {
      int64_t fs;
      uint64_t ticks;
      n->history->recent(size_t(age), &fs, &ticks);
      out.put(fs);
      out.put(ticks);
    }
    n->edges_out = n->edges;
    out.put(uint64_t(n->flags_out.size()));
    for (const auto& [at, flags] : n->flags_out) {
      out.put(at);
      out.put(uint8_t(flags));
    }
    n->flags_out.clear();
  }
  out.put(int32_t(-1));
  out.put(uint64_t(gm_out_.size()));
  for (const auto& [index, fs] : gm_out_) {
    out.put(index);
    out.put(fs);
  }
  gm_out_.clear();
  // The words this process's boards sent to ends another one simulates,
  // as sent: the receiving end puts them on its fibre (receive_words).
  for (size_t i = 0; i < ends_.size(); ++i) {
    End& e = *ends_[i];
    if (nodes_[size_t(e.node)]->mine || e.inbox.empty()) continue;
    out.put(int32_t(i));
    out.put(uint64_t(e.inbox.size()));
    for (const End::Sent& w : e.inbox) {
      out.put(w.edge_fs);
      out.put(w.word);
    }
    e.inbox.clear();
  }
  out.put(int32_t(-1));
}

void SyncEngine::import_window(WireReader& in) {
  for (int32_t id; (id = in.get<int32_t>()) >= 0;) {
    if (size_t(id) >= nodes_.size()) throw std::runtime_error("partition: a window names an unknown board");
    Node& n = *nodes_[size_t(id)];
    const bool keep = !n.mine && n.history;  // another process's board, parent of one of ours
    int64_t newest = std::numeric_limits<int64_t>::min();
    for (auto k = in.get<uint64_t>(); k > 0; --k) {
      const auto fs = in.get<int64_t>();
      const auto ticks = in.get<uint64_t>();
      newest = fs;
      if (keep) n.history->push(fs, ticks);
    }
    for (auto k = in.get<uint64_t>(); k > 0; --k) {
      const auto at = in.get<int64_t>();
      const uint32_t flags = in.get<uint8_t>();
      if (keep) n.flag_history.emplace_back(at, flags);
    }
    while (keep && n.flag_history.size() > 1 && n.flag_history[1].first < newest - int64_t(kHistoryReachFs))
      n.flag_history.pop_front();
  }
  for (auto k = in.get<uint64_t>(); k > 0; --k) {
    const auto index = in.get<uint64_t>();
    const auto fs = in.get<int64_t>();
    grandmaster_pps(index, fs);
  }
  for (int32_t i; (i = in.get<int32_t>()) >= 0;) {
    if (size_t(i) >= ends_.size()) throw std::runtime_error("partition: a window names an unknown link end");
    End& e = *ends_[size_t(i)];
    const bool keep = nodes_[size_t(e.node)]->mine;  // not: the words this process sent
    for (auto k = in.get<uint64_t>(); k > 0; --k) {
      const auto edge_fs = in.get<int64_t>();
      const auto word = in.get<uint32_t>();
      if (keep) e.inbox.push_back({edge_fs, word});
    }
  }
}

json SyncEngine::partial_report() const {
  json nodes = json::array(), holdovers = json::array(), changes = json::array();
  for (const auto& n : nodes_) {
    if (n->parent < 0 || !n->mine) continue;
    const bool over_window = n->window_fs > 0 && n->locked_in_window_fs == n->window_fs && n->locked;
    json events = json::array();
    for (const auto& [at_us, locked] : n->lock_events)
      events.push_back({{"at_us", at_us}, {"locked", locked}});
    nodes.push_back(
        {{"board", n->id},
         {"parent", n->parent},
         {"ptp_only", n->baseline},
         {"lock_time_us", n->lock_us},
         {"lock_events", events},
         {"lock_events_dropped", n->lock_events_dropped},
         {"locked_at_end", n->locked},
         {"locked_fraction", n->window_fs > 0 ? double(n->locked_in_window_fs) / double(n->window_fs) : 0.0},
         {"locked_over_window", over_window},
         {"offset_ps", stats(n->offsets)},
         {"offset_ps_before_event", stats(n->offsets_before_event)},
         {"offsets", n->offsets},  // for the totals; merge_reports takes it out
         {"servo_offset_ps", n->out.offset_ps},
         {"rtt_ps", n->out.rtt_ps},
         {"dac", n->out.dac_word},
         {"ddmtd_phases", n->ddmtd_phases},
         {"exchanges", n->exchanges},
         {"servo_errors", flag_names(n->out.errors)},
         {"max_slew_ns_per_s", n->max_slew_ns_per_s},
         {"board_time_backwards", n->time_backwards},
         {"first_backwards_us", n->first_backwards_us},
         {"oscillator_ppm", n->osc->fractional_frequency() * 1e6},
         // Calibrated asymmetry too large by e leaves the board e/2 ahead.
         {"asymmetry_calibration_error_ps", n->cal_error_fs / 1000.0},
         {"offset_from_calibration_ps", n->cal_error_fs / 2000.0},
         {"offset_trace", n->trace.to_json()}});
    json entered = json::array();
    for (const auto& [from, to] : n->holdovers)
      entered.push_back({{"from_us", double(from) * 1e-9},
                         {"for_us", to < 0 ? json(nullptr) : json(double(to - from) * 1e-9)}});
    nodes.back()["holdovers_entered"] = entered;
    if (n->own_end >= 0 && n->port) {  // the follower's engine, as its SYNC_LINK registers show it
      // (its reference's end, on the parent's process: merge_reports)
      const sync::top::Inputs top = n->port->kernel_inputs();
      const End& own = *ends_[size_t(n->own_end)];
      nodes.back()["engine"] = {{"aligned", own.io->link_aligned()},
                                {"parent_flags", top.parent_flags},
                                {"bitslide_ui", top.rx_bitslide},
                                // how far clk_i lags the recovered clock, T / DDMTD_N units
                                {"ddmtd_phase", top.ddmtd_phase},
                                {"bad_frames", own.io->link_bad_frames()},
                                {"bit_errors_received", own.bit_errors},
                                {"frames_corrupted_received", own.frames_corrupted}};
    }
    if (!n->event_offsets.empty())
      nodes.back()["event_offsets"] = n->event_offsets;  // merge_reports takes it out
  }
  for (size_t i = 0; i < holdovers_.size(); ++i) {
    const Holdover& h = holdovers_[i];
    if (!nodes_[size_t(h.board)]->mine) continue;
    holdovers.push_back(
        {{"index", i},
         {"board", h.board},
         {"from_us", double(h.start_fs) * 1e-9},
         {"for_us", double(h.end_fs - h.start_fs) * 1e-9},
         {"max_drift_ps", h.max_drift_ps},
         {"locked_at_loss", h.locked_at_loss},
         {"frequency_bound_ppb", h.frequency_bound_ppb},
         {"predicted_max_ps", h.predicted_ps},
         {"within_prediction", h.started && h.locked_at_loss && h.max_drift_ps <= h.predicted_ps},
         {"relocked", h.relocked},
         {"relock_us", h.relock_us}});
  }
  for (size_t i = 0; i < changes_.size(); ++i)
    if (nodes_[size_t(changes_[i].spec.board)]->mine) {
      json c = change_report(changes_[i]);
      c["index"] = i;
      changes.push_back(std::move(c));
    }
  // The serving ends of this process's boards (the parent's side of a
  // follower's link), for the follower's engine in merge_reports.
  json serving = json::array();
  for (size_t i = 0; i < ends_.size(); ++i) {
    const End& e = *ends_[i];
    if (!e.io || !nodes_[size_t(e.node)]->mine ||
        nodes_[size_t(ends_[size_t(e.peer)]->node)]->parent != e.node)
      continue;
    serving.push_back({{"end", i},
                       {"aligned", e.io->link_aligned()},
                       {"bad_frames", e.io->link_bad_frames()},
                       {"bit_errors_received", e.bit_errors},
                       {"frames_corrupted_received", e.frames_corrupted}});
  }
  return {{"boards", nodes}, {"holdover", holdovers}, {"link_changes", changes}, {"serving_ends", serving}};
}

json SyncEngine::merge_reports(const std::vector<json>& parts) const {
  // Every part in board (or list) order, whichever process made it.
  std::map<int, json> by_board;
  std::map<size_t, json> holdover_by_index, change_by_index, serving_by_end;
  for (const json& p : parts) {
    for (const json& b : p["boards"]) by_board[b["board"].get<int>()] = b;
    for (const json& h : p["holdover"]) holdover_by_index[h["index"].get<size_t>()] = h;
    for (const json& c : p["link_changes"]) change_by_index[c["index"].get<size_t>()] = c;
    for (const json& e : p["serving_ends"]) serving_by_end[e["end"].get<size_t>()] = e;
  }
  // A follower's engine with its reference's end, wherever each ran.
  for (auto& [id, b] : by_board) {
    if (!b.contains("engine")) continue;
    const int peer = ends_[size_t(nodes_[size_t(id)]->own_end)]->peer;
    const auto s = serving_by_end.find(size_t(peer));
    const json ref = s == serving_by_end.end() ? json::object() : s->second;
    json& g = b["engine"];
    g["reference_port"] = ends_[size_t(peer)]->port;
    g["reference_aligned"] = ref.value("aligned", false);
    g["reference_bad_frames"] = ref.value("bad_frames", 0u);
    g["reference_bit_errors_received"] = ref.value("bit_errors_received", uint64_t{0});
    g["reference_frames_corrupted_received"] = ref.value("frames_corrupted_received", uint64_t{0});
  }
  json boards = json::array();
  std::map<int, std::map<uint64_t, double>> event_offsets;  // board -> PPS index -> offset
  std::vector<double> offsets, baseline_offsets;
  double lock_us = 0;
  bool all_locked = true, all_locked_over_window = true;
  for (auto& [id, b] : by_board) {
    const auto mine = b["offsets"].get<std::vector<double>>();
    const bool baseline = b["ptp_only"].get<bool>();
    (baseline ? baseline_offsets : offsets)
        .insert((baseline ? baseline_offsets : offsets).end(), mine.begin(), mine.end());
    if (!baseline) {
      const double t = b["lock_time_us"].get<double>();
      all_locked = all_locked && t >= 0;
      lock_us = std::max(lock_us, t);
      all_locked_over_window = all_locked_over_window && b["locked_over_window"].get<bool>();
    }
    b.erase("offsets");
    if (b.contains("event_offsets")) {
      for (const auto& [k, off] : b["event_offsets"].get<std::vector<std::pair<uint64_t, double>>>())
        event_offsets[id][k] = off;
      b.erase("event_offsets");
    }
    boards.push_back(std::move(b));
  }
  json holdover = json::array();
  double max_drift = 0;
  for (auto& [i, h] : holdover_by_index) {
    max_drift = std::max(max_drift, h["max_drift_ps"].get<double>());
    h.erase("index");
    holdover.push_back(std::move(h));
  }
  json r = {{"topology", opt_.topology},
            {"link", opt_.link},
            {"exchange_rate_hz", opt_.exchange_rate_hz > 0 && !rtl_link()
                                     ? opt_.exchange_rate_hz
                                     : rate_of_period(exchange_period_cycles())},
            {"measure_from_ps", opt_.measure_from_ps},
            {"offset_ps", stats(offsets)},
            {"lock_time_us", all_locked ? json(lock_us) : json(nullptr)},
            {"every_follower_locked_over_window", all_locked_over_window},
            {"boards", boards},
            {"asymmetry_calibrated", opt_.calibrate_asymmetry},
            {"fibre_asymmetry_ps", nodes_.back()->fibre->asymmetry_fs() / 1000.0},
            {"profile", clock::to_json(opt_.profile)}};
  if (opt_.baseline) {
    // The baseline's bias (the truncation of 4 ns timestamps, a function of
    // where the fibre length falls within a cycle) and its noise apart: the
    // ratio of the noise does not move with a few cm of fibre, a ratio of
    // p99 does (29x to 168x over 0.2 m).
    r["baseline"] = {{"offset_ps", stats(baseline_offsets)}};
    const json& a = r["offset_ps"];
    const json& b = r["baseline"]["offset_ps"];
    if (a.contains("std") && b.contains("std")) {
      r["baseline"]["bias_ps"] = b["mean"];
      r["baseline"]["noise_rms_ps"] = b["std"];
      if (a["std"].get<double>() > 0)
        r["baseline"]["noise_ratio"] = b["std"].get<double>() / a["std"].get<double>();
    }
  }
  if (!holdovers_.empty()) r["holdover"] = {{"max_drift_ps", max_drift}, {"events", holdover}};
  if (!changes_.empty()) {
    json changes = json::array();
    for (auto& [i, c] : change_by_index) {
      c.erase("index");
      changes.push_back(std::move(c));
    }
    r["link_changes"] = changes;
  }
  if (json below = coherence_below(event_offsets); !below.empty()) r["below_events"] = below;
  if (opt_.topology == "chain") {
    // Per hop, and how the spread grows from hop to hop: exp of the
    // least-squares slope of log(std) over the hop number (robust to one
    // noisy hop at either end). Each hop adds its own noise to what it
    // follows, so even with no peaking at all the spread grows as sqrt(hop)
    // (1.081x per hop by this fit over 16 hops); the growth beyond that, of
    // std / sqrt(hop), is what jitter peaking adds: 1 or below is none.
    json hops = json::array();
    double sx = 0, sy = 0, sxx = 0, sxy = 0, sy_beyond = 0, sxy_beyond = 0;
    int counted = 0;
    // With a declared event, over the window before it: a step every hop
    // below it shares is no jitter, and would swamp the growth per hop.
    const bool before = first_event_at_fs_ < INT64_MAX;
    r["hops_window"] =
        before ? fmt::format("from {:.0f} us to the first event at {:.0f} us",
                             double(opt_.measure_from_ps) * 1e-6, double(first_event_at_fs_) * 1e-9)
               : std::string("the whole measurement window");
    for (const json& b : r["boards"]) {
      const json& st = b[before ? "offset_ps_before_event" : "offset_ps"];
      if (b["ptp_only"].get<bool>() || st["samples"].get<size_t>() == 0) continue;
      const int id = b["board"].get<int>();
      hops.push_back({{"hop", id}, {"p99", st["p99"]}, {"std", st["std"]}, {"mean", st["mean"]}});
      const double std_ps = st["std"].get<double>();
      if (std_ps <= 0) continue;
      const double x = id, y = std::log(std_ps), y_beyond = y - 0.5 * std::log(x);
      sx += x, sy += y, sxx += x * x, sxy += x * y;
      sy_beyond += y_beyond, sxy_beyond += x * y_beyond;
      ++counted;
    }
    r["hops"] = hops;
    if (counted > 1) {
      const double d = counted * sxx - sx * sx;
      r["std_growth_per_hop"] = std::exp((counted * sxy - sx * sy) / d);
      r["std_growth_beyond_sqrt_per_hop"] = std::exp((counted * sxy_beyond - sx * sy_beyond) / d);
    }
  }
  return r;
}

// The boards below each declared event's board (its subtree, synchronised
// boards only): at every PPS edge from the event on, how far apart they
// are from each other. A shift they share (their parent moved) is no spread.
json SyncEngine::coherence_below(const std::map<int, std::map<uint64_t, double>>& offsets) const {
  std::vector<std::pair<int, int64_t>> events;  // (board, fs)
  for (const ChangeRecord& c : changes_) events.emplace_back(c.spec.board, c.at_fs);
  for (const Holdover& h : holdovers_) events.emplace_back(h.board, h.start_fs);
  const uint64_t pps_ticks = uint64_t(opt_.pps_period_ps / hwdef::TICK_PS);
  const int64_t pps_fs = int64_t(pps_ticks) * int64_t(hwdef::TICK_PS) * 1000;
  json out = json::array();
  for (const auto& [board, at_fs] : events) {
    std::vector<int> below;
    for (const auto& n : nodes_) {
      if (n->baseline || n->id == board) continue;
      int up = n->parent;
      while (up > 0 && up != board) up = nodes_[size_t(up)]->parent;
      if (up == board) below.push_back(n->id);
    }
    if (below.size() < 2) continue;
    std::vector<double> spread;
    const uint64_t first = uint64_t(std::max<int64_t>(0, at_fs) / pps_fs) + 1;
    const auto it0 = offsets.find(below[0]);
    if (it0 == offsets.end()) continue;
    for (auto e = it0->second.lower_bound(first); e != it0->second.end(); ++e) {
      double lo = e->second, hi = e->second;
      bool all = true;
      for (size_t i = 1; i < below.size() && all; ++i) {
        const auto b = offsets.find(below[i]);
        const auto x =
            b == offsets.end() ? std::map<uint64_t, double>::const_iterator{} : b->second.find(e->first);
        all = b != offsets.end() && x != b->second.end();
        if (all) lo = std::min(lo, x->second), hi = std::max(hi, x->second);
      }
      if (all) spread.push_back(hi - lo);
    }
    json st = stats(spread);
    out.push_back({{"board", board},
                   {"at_us", double(at_fs) * 1e-9},
                   {"boards_below", below},
                   {"pps_edges", spread.size()},
                   {"spread_ps_max", st.contains("max_abs") ? st["max_abs"] : json(nullptr)},
                   {"spread_ps_p99", st.contains("p99") ? st["p99"] : json(nullptr)}});
  }
  return out;
}

// Each change judged from the PPS truth: the offset before it, where it
// settles (the last kChangeFinalFs of its window) against what the two-way
// model predicts (a one-way change dF - dB moves the offset by -(dF - dB)/2,
// the half the exchange cannot see), the largest excursion, overshoot
// beyond the final offset after that peak, and the time until the offset
// stays within the recovery band.
json SyncEngine::change_report(const ChangeRecord& c) const {
  double before_sum = 0, before_sq = 0;
  size_t before_n = 0, final_n = 0;
  double final_sum = 0;
  const int64_t last_t = c.offsets.empty() ? c.at_fs : c.offsets.back().first;
  for (const auto& [t, off] : c.offsets) {
    if (t < c.at_fs) {
      before_sum += off;
      before_sq += off * off;
      ++before_n;
    } else if (t > last_t - kChangeFinalFs) {
      final_sum += off;
      ++final_n;
    }
  }
  json j = {{"board", c.spec.board},
            {"at_us", double(c.at_fs) * 1e-9},
            {"direction", c.spec.forward && c.spec.backward ? "both"
                          : c.spec.forward                  ? "forward"
                                                            : "backward"},
            {c.spec.kind, c.spec.value},
            {"forward_change_ps", c.forward_ps},
            {"backward_change_ps", c.backward_ps},
            {"model_shift_ps", -(c.forward_ps - c.backward_ps - c.compensated_ps) / 2},
            {"lock_kept", c.seen && !c.lock_lost},
            {"unlocked_at_us", c.unlocked_at_us},
            {"relock_us", c.relock_us},
            {"flags_raised", flag_names(c.errors_after & ~c.errors_before)}};
  if (c.spec.kind == "temperature_ramp_k_per_s") j["for_us"] = double(c.spec.for_ps) * 1e-6;
  if (c.spec.kind == "cdr_relock_slide_ui") j["bitslide_compensated_ps"] = c.compensated_ps;
  if (before_n == 0 || final_n == 0 || last_t - c.at_fs < 2 * kChangeFinalFs) {
    j["judged"] = false;  // too little before or after it in the run
    return j;
  }
  const double before = before_sum / double(before_n);
  const double before_std = std::sqrt(std::max(0.0, before_sq / double(before_n) - before * before));
  const double final_offset = final_sum / double(final_n);
  const double band = std::max(kRecoveryBandMinPs, 4 * before_std);
  double peak = 0, peak_abs = 0;
  size_t peak_i = 0;
  int64_t last_out_t = -1;
  for (size_t i = 0; i < c.offsets.size(); ++i) {
    const auto& [t, off] = c.offsets[i];
    if (t < c.at_fs) continue;
    peak_abs = std::max(peak_abs, std::fabs(off));
    if (std::fabs(off - final_offset) > std::fabs(peak)) {
      peak = off - final_offset;
      peak_i = i;
    }
    if (std::fabs(off - final_offset) > band) last_out_t = t;
  }
  double overshoot = 0;
  for (size_t i = peak_i; i < c.offsets.size(); ++i)
    overshoot = std::max(overshoot, -(peak >= 0 ? 1.0 : -1.0) * (c.offsets[i].second - final_offset));
  j["judged"] = true;
  j["offset_before_ps"] = before;
  j["offset_before_std_ps"] = before_std;
  j["offset_final_ps"] = final_offset;
  j["measured_shift_ps"] = final_offset - before;
  j["peak_excursion_ps"] = peak;
  j["peak_abs_offset_ps"] = peak_abs;
  j["overshoot_ps"] = overshoot;
  j["recovery_band_ps"] = band;
  j["recovery_us"] = last_out_t < 0 ? 0.0 : double(last_out_t - c.at_fs) * 1e-9;
  j["settled"] = last_out_t < last_t - kChangeFinalFs;
  // The response itself, at most kTracePoints samples (us from the change, ps).
  json trace = json::array();
  const size_t every = std::max<size_t>(1, c.offsets.size() / kTracePoints);
  for (size_t i = 0; i < c.offsets.size(); i += every)
    trace.push_back({double(c.offsets[i].first - c.at_fs) * 1e-9, c.offsets[i].second});
  j["trace_us_ps"] = trace;
  return j;
}

}  // namespace lightrail::sim
