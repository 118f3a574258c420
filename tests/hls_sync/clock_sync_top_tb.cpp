// C-simulation and C/RTL co-simulation test bench of the servo's HLS top
// (hls/clock_sync/clock_sync_top.cpp), self-checking: main() returns 0 on
// success. Built and run here with g++ as the CTest hls.clock_sync_top_tb,
// and by Vitis through hls/clock_sync/hls_config.cfg (v++) or
// hls/run_hls.tcl (vitis_hls).
//
// A board 7.3 us ahead of its reference, over a 1 us fibre: every update
// carries a two-way exchange. The top and the C model on its own state get
// the same inputs; every output must match, the servo must measure the
// offset and step board time by it (a coarse time set), and in C simulation
// a mid-run reset must make the top behave as a fresh servo.
#include <cstdio>

#include "clock_sync/clock_sync.hpp"
#include "clock_sync/clock_sync_top.hpp"

using namespace lightrail;
using namespace lightrail::sync;

namespace {

constexpr int64_t kUpdateFs = int64_t{hwdef::CLK_PERIOD_PS} * 1000 * (int64_t{1} << hwdef::DDMTD_TAG_BITS);
constexpr int64_t kDelayFs = 1000000000;   // 1 us each way
constexpr int64_t kOffsetFs = 7300000000;  // the board is 7.3 us ahead

bool same(const ClockSyncOut& a, const ClockSyncOut& b) {
  return a.dac_word == b.dac_word && a.phase_steps == b.phase_steps &&
         a.time_step_ticks == b.time_step_ticks && a.status == b.status && a.errors == b.errors &&
         a.offset_ps == b.offset_ps && a.rtt_ps == b.rtt_ps && a.delay_ms_ps == b.delay_ms_ps &&
         a.servo_p_ps == b.servo_p_ps && a.servo_i_ppt == b.servo_i_ppt &&
         a.phase_steps_total == b.phase_steps_total && a.holdover_us == b.holdover_us;
}

struct Run {
  ClockSyncState model{};
  int64_t ref_fs = 0;  // reference time of the next exchange
  int64_t board_ahead_fs = kOffsetFs;
  int mismatches = 0;
  int64_t stepped_ticks = 0;  // coarse time sets applied
  ClockSyncOut last{};
  bool with_top = true;  // false: the C model alone

  void update(int n) {
    ClockSyncIn in;
    in.cfg.enable = true;
    in.elapsed_fs = kUpdateFs;
    in.ref_ok = true;
    in.exchange_valid = true;
    in.t1_fs = ref_fs;
    in.t2_fs = ref_fs + kDelayFs + board_ahead_fs;
    in.t3_fs = in.t2_fs + 1000000;
    in.t4_fs = in.t3_fs - board_ahead_fs + kDelayFs;
    in.phase_valid = true;
    in.ddmtd_phase = 0;
    ClockSyncOut top, m;
    clock_sync_step(model, in, m);
    if (with_top) {
      lightrail_clock_sync(in, top);
      if (!same(top, m) && mismatches++ < 10) std::printf("MISMATCH at update %d\n", n);
    }
    // The board applies the coarse time set before the next exchange.
    board_ahead_fs += m.time_step_ticks * int64_t{hwdef::TICK_PS} * 1000;
    stepped_ticks += m.time_step_ticks;
    ref_fs += kUpdateFs;
    last = m;
  }
};

}  // namespace

int main() {
  int failures = 0;
  Run run;
  for (int n = 0; n < 40; ++n) run.update(n);
  const int64_t want_ticks = -kOffsetFs / (int64_t{hwdef::TICK_PS} * 1000);
  if (run.stepped_ticks > want_ticks + 8 || run.stepped_ticks < want_ticks - 8) {
    std::printf("FAIL: board time stepped %lld ticks, want about %lld\n",
                static_cast<long long>(run.stepped_ticks), static_cast<long long>(want_ticks));
    ++failures;
  }
#ifndef __RTL_SIMULATION__
  // ap_rst_n mid-run: the top then answers as a fresh servo does.
  lightrail_clock_sync_csim_reset();
  Run fresh;
  fresh.with_top = false;
  fresh.ref_fs = run.ref_fs;
  run.model = ClockSyncState{};
  run.board_ahead_fs = kOffsetFs;
  run.stepped_ticks = 0;
  for (int n = 0; n < 40; ++n) {
    run.update(100 + n);
    fresh.update(200 + n);  // the model alone: the reference for "fresh"
    if (!same(run.last, fresh.last)) {
      std::printf("FAIL: after the reset update %d differs from a fresh servo\n", n);
      ++failures;
      break;
    }
  }
#endif
  failures += run.mismatches;
  std::printf("%s: %d mismatches, board time stepped %lld ticks\n", failures == 0 ? "PASS" : "FAIL",
              run.mismatches, static_cast<long long>(run.stepped_ticks));
  return failures == 0 ? 0 : 1;
}
