#include "sync.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
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

}  // namespace

constexpr size_t kLockEventsKept = 64;

struct SyncEngine::Node {
  int id = 0, parent = -1;
  bool baseline = false;
  std::unique_ptr<clock::Oscillator> osc;
  std::unique_ptr<clock::Fibre> fibre;  // to the parent
  EdgeHistory history;
  SyncPort* port = nullptr;
  sync::ClockSyncState servo{};
  sync::ClockSyncConfig cfg;      // brought up with
  sync::ClockSyncConfig cfg_now;  // at the last servo update (the host may have changed it)
  sync::ClockSyncOut out;
  uint64_t cycles = 0;                      // since the last servo call (PTP-only copies: since start)
  uint64_t edges = 0, edges_at_update = 0;  // of the board's clock
  int64_t last_edge_fs = 0, period_fs = kPeriodFs;  // of the board's clock
  int64_t dmtd_edge_fs = 0;                         // the next helper edge
  uint64_t ddmtd_phases = 0;                        // phases the top's DDMTD reported
  uint32_t dac_loaded = ~0u;                        // the last DAC word sent to osc_ctrl
  double lock_us = -1;
  // Every change of the servo's LOCKED flag (at us, locked), the first
  // kLockEventsKept; and the time locked from measure_from on.
  bool locked = false;
  std::vector<std::pair<double, bool>> lock_events;
  uint64_t lock_events_dropped = 0;
  int64_t last_update_fs = 0, locked_in_window_fs = 0, window_fs = 0;
  // Slew measured from the truth: the change of the PPS offset against the
  // grandmaster over at least one servo interval, ns/s.
  double max_slew_ns_per_s = 0;
  int64_t slew_from_fs = -1;
  double slew_from_offset_ps = 0;
  std::deque<std::pair<uint64_t, int64_t>> pps;  // waiting for the grandmaster's
  std::vector<double> offsets;                   // ps, while locked after measure_from
};

SyncEngine::SyncEngine(const SyncOptions& o, int boards) : opt_(o), boards_(boards) {
  if (boards < 2) throw std::invalid_argument("sync: needs at least 2 boards (a grandmaster and a follower)");
  if (o.topology != "star" && o.topology != "chain")
    throw std::invalid_argument("sync.topology: must be \"star\" or \"chain\", is \"" + o.topology + "\"");
  const clock::FibreConfig fc = clock::fibre_config(o.profile);
  const int total = o.baseline ? 2 * boards - 1 : boards;
  for (int b = 0; b < total; ++b) {
    auto n = std::make_unique<Node>();
    n->id = b;
    n->baseline = b >= boards;
    const int mirror = n->baseline ? b - boards + 1 : b;  // the synchronised board a baseline copies
    if (mirror > 0) {
      const int up = o.topology == "star" ? 0 : mirror - 1;
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
    n->fibre = std::make_unique<clock::Fibre>(fc);
    // How long the exchange reaches back must fit the edge history.
    const double history_fs = double(EdgeHistory::kEdges - 16) * double(kPeriodFs) - 2.0 * kExchangeGapFs;
    if (n->parent >= 0 && 3 * n->fibre->mean_delay_fs() > history_fs)
      throw std::invalid_argument(fmt::format(
          "sync.profile.fibre.length_m: {} m is longer than the co-simulation keeps clock history for "
          "(at most {:.0f} m at this group index)",
          o.profile.fibre.length_m, o.profile.fibre.length_m * history_fs / (3 * n->fibre->mean_delay_fs())));
    n->cfg.enable = n->parent >= 0;
    n->cfg.use_ddmtd = !n->baseline;
    // A PTP-only loop never gets within the DDMTD's lock threshold.
    if (n->baseline) n->cfg.lock_thresh_ps = 2000;
    n->cfg.cal_asym_ps = o.calibrate_asymmetry ? int32_t(std::lround(n->fibre->asymmetry_fs() / 1000.0)) : 0;
    n->cfg.phase_step_fs = uint32_t(std::lround(n->osc->phase_step_fs()));
    n->cfg.dac_pull_ppb = uint32_t(std::lround(o.profile.oscillator.pull_range_ppm * 1000));
    nodes_.push_back(std::move(n));
  }
  for (const RefLoss& r : o.ref_loss) {
    if (r.board <= 0 || r.board >= boards)
      throw std::invalid_argument(
          fmt::format("sync.ref_loss.board: {} is not a follower (1..{})", r.board, boards - 1));
    holdovers_.push_back({r.board, r.at_ps * 1000, (r.at_ps + r.for_ps) * 1000});
  }
}

SyncEngine::~SyncEngine() = default;

void SyncEngine::attach(int b, SyncPort* port) { nodes_[size_t(b)]->port = port; }

sync::ClockSyncConfig SyncEngine::initial_config(int b) const { return nodes_[size_t(b)]->cfg; }

int64_t SyncEngine::next_edge_fs(int b) { return nodes_[size_t(b)]->osc->next_edge_fs(); }

bool SyncEngine::has_ddmtd(int b) const {
  const Node& n = *nodes_[size_t(b)];
  return n.parent >= 0 && !n.baseline;
}

// The helper PLL runs off the board's oscillator: N/(N+1) of its frequency.
int64_t SyncEngine::next_dmtd_edge_fs(int b) {
  Node& n = *nodes_[size_t(b)];
  if (n.dmtd_edge_fs == 0) n.dmtd_edge_fs = n.osc->next_edge_fs() + kPeriodFs / 3;
  return n.dmtd_edge_fs;
}

void SyncEngine::on_dmtd_edge(int b, int64_t t) {
  Node& n = *nodes_[size_t(b)];
  const Node& p = *nodes_[size_t(n.parent)];
  // A PLL tracks the oscillator's frequency, not its edge-to-edge jitter,
  // and sits before the MMCM, so phase steps do not move the helper.
  const double period = n.osc->nominal_period_fs() / (1.0 + n.osc->fractional_frequency());
  n.dmtd_edge_fs = t + int64_t(std::llround(period * double(hwdef::DDMTD_N + 1) / double(hwdef::DDMTD_N)));
  if (!n.port) return;
  // Levels at t, high for the first half of each period: the recovered
  // reference is the parent's clock one fibre later (stuck low while the
  // link is down); the local clock is the board's own.
  int64_t e;
  uint64_t ticks;
  const int64_t at_parent = t - n.fibre->forward_delay_fs(t);
  const bool ref =
      ref_ok(n, t) && p.history.edge_before(at_parent, &e, &ticks) && at_parent - e < kPeriodFs / 2;
  const bool local = n.history.edge_before(t, &e, &ticks) && t - e < n.period_fs / 2;
  n.port->dmtd_edge(ref, local);
}

bool SyncEngine::ref_ok(const Node& n, int64_t now) const {
  for (const Holdover& h : holdovers_)
    if (h.board == n.id && now >= h.start_fs && now < h.end_fs) return false;
  return true;
}

void SyncEngine::on_edge(int b, int64_t edge_fs, uint64_t ticks) {
  Node& n = *nodes_[size_t(b)];
  n.history.push(edge_fs, ticks);
  ++n.edges;
  if (n.last_edge_fs > 0) n.period_fs = edge_fs - n.last_edge_fs;
  n.last_edge_fs = edge_fs;
  if (n.port) {  // what the top's osc_ctrl got to the DAC and the MMCM this cycle
    uint32_t word;
    if (n.port->take_dac(&word)) n.osc->set_dac(word);
    if (const int steps = n.port->take_phase_steps()) n.osc->shift_phase(steps);
  }
  if (n.parent >= 0) {
    // A follower's servo runs once per DDMTD beat: on each phase its top
    // reports (while the DDMTD is silent, a beat and a quarter after the
    // last call), or, on a PTP-only copy, every N + 1 cycles.
    uint32_t phase = 0;
    ++n.cycles;
    if (!n.baseline && n.port) {
      if (n.port->take_ddmtd_phase(&phase)) {
        ++n.ddmtd_phases;
        n.cycles = 0;
        servo_update(n, edge_fs, true, phase);
      } else if (n.cycles >= kUpdateCycles + kUpdateCycles / 4) {
        n.cycles = 0;
        servo_update(n, edge_fs, false, 0);
      }
    } else if (n.cycles % kUpdateCycles == 0) {
      servo_update(n, edge_fs, false, 0);
    }
  }
  const uint64_t pps_ticks = uint64_t(opt_.pps_period_ps / hwdef::TICK_PS);
  if (ticks > 0 && ticks % pps_ticks == 0) record_pps(b, ticks / pps_ticks, edge_fs);
}

void SyncEngine::servo_update(Node& n, int64_t now, bool phase_valid, uint32_t phase) {
  const Node& p = *nodes_[size_t(n.parent)];
  sync::ClockSyncIn in;
  in.cfg = n.port ? n.port->sync_config() : n.cfg;
  n.cfg_now = in.cfg;
  if (n.port) in.clear_errors = n.port->take_sync_clear();
  // Local time from the clock's cycles, not board time: a coarse time step
  // is no elapsed time.
  in.elapsed_fs = int64_t(n.edges - n.edges_at_update) * kPeriodFs;
  n.edges_at_update = n.edges;
  in.ref_ok = ref_ok(n, now);
  if (in.ref_ok) {
    const int64_t d_fwd = n.fibre->forward_delay_fs(now), d_bwd = n.fibre->backward_delay_fs(now);
    in.phase_valid = phase_valid;
    in.ddmtd_phase = phase;
    // Two-way exchange, finished before now: Sync at T1 (parent), arrives T2;
    // Delay_Req leaves T3, arrives T4 (parent).
    const int64_t T3 = now - d_bwd - kExchangeGapFs / 2, T2 = T3 - kExchangeGapFs, T1 = T2 - d_fwd,
                  T4 = T3 + d_bwd;
    const bool fine = !n.baseline;
    in.exchange_valid =
        p.history.board_time_fs(T1, fine, &in.t1_fs) && n.history.board_time_fs(T2, fine, &in.t2_fs) &&
        n.history.board_time_fs(T3, fine, &in.t3_fs) && p.history.board_time_fs(T4, fine, &in.t4_fs);
    if (fine && in.exchange_valid) {
      // DDMTD-refined timestamps resolve period/N, not a femtosecond.
      const int64_t q = kPeriodFs / int64_t(hwdef::DDMTD_N);
      for (int64_t* t : {&in.t1_fs, &in.t2_fs, &in.t3_fs, &in.t4_fs}) *t -= *t % q;
    }
  }
  sync::clock_sync_step(n.servo, in, n.out);
  if (n.port) {
    n.port->set_sync_status(n.out);
    // Through the top's osc_ctrl: on_edge applies what reaches the DAC and MMCM.
    n.port->load_actuators(n.out.dac_word, n.out.dac_word != n.dac_loaded, n.out.phase_steps,
                           n.out.time_step_ticks);
    n.dac_loaded = n.out.dac_word;
  }
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
  if (locked != n.locked) {
    n.locked = locked;
    if (n.lock_events.size() < kLockEventsKept)
      n.lock_events.emplace_back(double(now) * 1e-9, locked);
    else
      ++n.lock_events_dropped;
  }
  for (Holdover& h : holdovers_)
    if (h.board == n.id && now >= h.end_fs && !h.relocked &&
        (n.out.status & hwdef::SYNC_STATUS_LOCKED_MASK)) {
      h.relocked = true;
      h.relock_us = double(now - h.end_fs) * 1e-9;
    }
}

void SyncEngine::record_pps(int b, uint64_t index, int64_t fs) {
  auto match = [&](Node& n, uint64_t k, int64_t t) {
    const double offset_ps = double(gm_pps_.at(k) - t) / 1000.0;  // > 0: the board is ahead
    // Every sample from the lock deadline on, whatever the servo thinks of
    // itself: the truth does not ask.
    if (t >= opt_.measure_from_ps * 1000) {
      n.offsets.push_back(offset_ps);
      (n.baseline ? baseline_offsets_ : offsets_).push_back(offset_ps);
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
    for (Holdover& h : holdovers_) {
      if (h.board != n.id || t < h.start_fs || t >= h.end_fs) continue;
      if (!h.started) {
        h.started = true;
        h.offset_at_start_ps = offset_ps;
        // The bound a data sheet and the servo's design give, never the
        // truth: a locked loop can carry at most the frequency error its
        // proportional path hides within the lock threshold
        // (kp * threshold per servo interval); the oscillator adds its
        // specified random walk (3 sigma, of both ends) and two edges'
        // jitter. A board that was not locked has no bound.
        const double gap_s = double(h.end_fs - t) * 1e-15;
        const double interval_s = double(kUpdateCycles) * double(kPeriodFs) * 1e-15;
        const double y_servo =
            double(n.cfg_now.lock_thresh_ps) * 1e-12 * (double(n.cfg_now.kp_q16) / 65536.0) / interval_s;
        h.frequency_bound_ppb = y_servo * 1e9;
        h.predicted_ps = y_servo * gap_s * 1e12 +
                         std::sqrt(2.0) * clock::holdover_walk_bound_fs(opt_.profile, gap_s) / 1000.0 +
                         6 * opt_.profile.oscillator.jitter_rms_fs / 1000.0 +
                         double(n.cfg.phase_step_fs) / 1000.0;
      }
      h.max_drift_ps = std::max(h.max_drift_ps, std::fabs(offset_ps - h.offset_at_start_ps));
    }
  };
  if (b == 0) {
    gm_pps_[index] = fs;
    while (gm_pps_.size() > 256) gm_pps_.erase(gm_pps_.begin());
    for (auto& n : nodes_)
      while (!n->pps.empty() && gm_pps_.count(n->pps.front().first)) {
        match(*n, n->pps.front().first, n->pps.front().second);
        n->pps.pop_front();
      }
    return;
  }
  Node& n = *nodes_[size_t(b)];
  if (gm_pps_.count(index)) {
    match(n, index, fs);
  } else {
    n.pps.emplace_back(index, fs);
    if (n.pps.size() > 256) n.pps.pop_front();  // more than 256 PPS apart: never in sync anyway
  }
}

json SyncEngine::report() const {
  json boards = json::array();
  double lock_us = 0;
  bool all_locked = true, all_locked_over_window = true;
  for (const auto& n : nodes_) {
    if (n->parent < 0) continue;
    const bool over_window = n->window_fs > 0 && n->locked_in_window_fs == n->window_fs && n->locked;
    if (!n->baseline) {
      all_locked = all_locked && n->lock_us >= 0;
      lock_us = std::max(lock_us, n->lock_us);
      all_locked_over_window = all_locked_over_window && over_window;
    }
    json events = json::array();
    for (const auto& [at_us, locked] : n->lock_events)
      events.push_back({{"at_us", at_us}, {"locked", locked}});
    boards.push_back(
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
         {"servo_offset_ps", n->out.offset_ps},
         {"rtt_ps", n->out.rtt_ps},
         {"dac", n->out.dac_word},
         {"ddmtd_phases", n->ddmtd_phases},
         {"servo_errors", flag_names(n->out.errors)},
         {"max_slew_ns_per_s", n->max_slew_ns_per_s},
         {"oscillator_ppm", n->osc->fractional_frequency() * 1e6}});
  }
  json holdover = json::array();
  double max_drift = 0;
  for (const Holdover& h : holdovers_) {
    holdover.push_back(
        {{"board", h.board},
         {"from_us", double(h.start_fs) * 1e-9},
         {"for_us", double(h.end_fs - h.start_fs) * 1e-9},
         {"max_drift_ps", h.max_drift_ps},
         {"locked_at_loss", h.locked_at_loss},
         {"frequency_bound_ppb", h.frequency_bound_ppb},
         {"predicted_max_ps", h.predicted_ps},
         {"within_prediction", h.started && h.locked_at_loss && h.max_drift_ps <= h.predicted_ps},
         {"relocked", h.relocked},
         {"relock_us", h.relock_us}});
    max_drift = std::max(max_drift, h.max_drift_ps);
  }
  json r = {{"topology", opt_.topology},
            {"measure_from_ps", opt_.measure_from_ps},
            {"offset_ps", stats(offsets_)},
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
    r["baseline"] = {{"offset_ps", stats(baseline_offsets_)}};
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
  return r;
}

}  // namespace lightrail::sim
