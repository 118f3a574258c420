// Closes the loop between the servo kernel and a Plant, one update at a time,
// and records what a timing engineer checks: when lock came, the true offset
// afterwards, and that board time never ran backwards or slewed too fast.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "clock_sync/clock_sync.hpp"
#include "plant.hpp"

namespace lightrail::sync::test {

inline uint32_t state_of(const ClockSyncOut& out) {
  return (out.status & hwdef::SYNC_STATUS_STATE_MASK) >> hwdef::SYNC_STATUS_STATE_LSB;
}

struct Stats {
  double mean = 0, rms = 0, p99 = 0, max_abs = 0;
};

inline Stats stats_of(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  double sum = 0, sq = 0;
  for (double x : v) {
    sum += x;
    sq += x * x;
    s.max_abs = std::max(s.max_abs, std::fabs(x));
  }
  s.mean = sum / v.size();
  s.rms = std::sqrt(sq / v.size());
  for (double& x : v) x = std::fabs(x);
  std::sort(v.begin(), v.end());
  s.p99 = v[std::min(v.size() - 1, size_t(0.99 * v.size()))];
  return s;
}

struct Loop {
  explicit Loop(const PlantConfig& pc) : plant(pc) { cfg.enable = true; }

  // Runs for `us` of simulated time; collects the true offset while locked.
  void run_us(double us, bool ref_ok = true) {
    const int n = int(std::ceil(us * 1e6 / Plant::kUpdatePs));
    for (int i = 0; i < n; ++i) {
      ClockSyncIn in = plant.measure(cfg, ref_ok);
      in.parent_flags = parent_flags;
      clock_sync_step(state, in, out);
      const double advance = plant.apply_and_advance(out, cfg);
      min_advance_ps = std::min(min_advance_ps, advance);
      // Phase slew per update, against the configured bound per second.
      const double slew = std::fabs(out.phase_steps * (cfg.phase_step_fs / 1000.0));
      const double bound = cfg.slew_max_ns_per_s * 1e-9 * Plant::kUpdatePs + cfg.phase_step_fs / 1000.0;
      max_slew_excess_ps = std::max(max_slew_excess_ps, slew - bound);
      now_us += Plant::kUpdatePs * 1e-6;
      time_steps += out.time_step_ticks != 0;
      if (out.time_step_ticks != 0) last_time_step_ticks = out.time_step_ticks;
      const bool locked = out.status & hwdef::SYNC_STATUS_LOCKED_MASK;
      if (locked && lock_us < 0) lock_us = now_us;
      if (locked && collect) offsets_ps.push_back(plant.true_offset_ps());
    }
  }

  Plant plant;
  ClockSyncConfig cfg;
  uint32_t parent_flags = kGrandmasterFlags;  // what the reference's frames say
  ClockSyncState state;
  ClockSyncOut out;
  double now_us = 0;
  double lock_us = -1;
  bool collect = false;
  std::vector<double> offsets_ps;
  double min_advance_ps = 1e30;
  double max_slew_excess_ps = -1e30;
  int time_steps = 0;  // calls that stepped board time
  int64_t last_time_step_ticks = 0;
};

}  // namespace lightrail::sync::test
