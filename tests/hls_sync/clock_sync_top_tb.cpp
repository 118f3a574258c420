// C-simulation test bench of the servo's HLS top (hls/clock_sync/
// clock_sync_top.cpp), self-checking: main() returns 0 on success. Built and
// run here with g++ as the CTest hls.clock_sync_top_tb, and by Vitis for C
// simulation through hls/clock_sync/hls_config.cfg (v++) or hls/run_hls.tcl
// (vitis_hls). Vitis cannot co-simulate this top (a non-pipelined
// ap_ctrl_none design: UG1399, "Co-simulation Requirements"), so the RTL is
// not run against it (docs/clock-sync.md).
//
// A board 7.3 us ahead of its reference, over a 1 us fibre, one call per
// clock cycle: a DDMTD phase strobe every beat with a two-way exchange
// delivered before it. The top and the C model on its own state get the
// same inputs; each update's outputs must match, appear SYNC_KERNEL_LATENCY
// cycles after the strobe with their loads for one cycle, and the servo
// must step board time by the offset (a coarse time set). In C simulation a
// mid-run reset must make the top behave as a fresh servo.
#include <cstdio>

#include "top_driver.hpp"

using namespace lightrail;
using namespace lightrail::sync;
using namespace lightrail::sync::test;

namespace {

constexpr int64_t kDelayFs = 1000000000;   // 1 us each way
constexpr int64_t kOffsetFs = 7300000000;  // the board is 7.3 us ahead
constexpr int64_t kTickFs = int64_t{hwdef::TICK_PS} * 1000;

struct Run {
  ClockSyncState model{};
  int64_t ref_fs = 1000000000000;  // reference time of the next exchange
  int64_t board_ahead_fs = kOffsetFs;
  uint32_t cycles = 0;  // since reset, as the board top counts them
  uint32_t exchanges = 0;
  int mismatches = 0;
  int64_t stepped_ticks = 0;  // coarse time sets applied
  ClockSyncOut last{};

  // One beat: the exchange, then the phase strobe, then idle cycles.
  void beat(int n) {
    TopIn in;
    in.link_up = true;
    in.exchanges = ++exchanges;
    in.t1_fs = ref_fs;
    in.t2_fs = ref_fs + kDelayFs + board_ahead_fs;
    in.t3_fs = in.t2_fs + 1000000;
    in.t4_fs = in.t3_fs - board_ahead_fs + kDelayFs;
    in.phase_valid = true;
    in.ddmtd_phase = 0;

    ClockSyncIn m;
    m.cfg = config_of(in);
    m.elapsed_fs = int64_t{n == 0 ? 0u : top::kBeatCycles} * kPeriodFs;
    m.ref_ok = true;
    m.exchange_valid = true;
    m.t1_fs = in.t1_fs;
    m.t2_fs = in.t2_fs;
    m.t3_fs = in.t3_fs;
    m.t4_fs = in.t4_fs;
    m.phase_valid = true;
    ClockSyncOut want;
    clock_sync_step(model, m, want);

    for (uint32_t k = 0; k < top::kBeatCycles; ++k) {
      in.cycles = cycles++;
      in.phase_valid = k == 0;
      const TopOut o = call_top(in);
      const bool at_update = k == top::kUpdateLatency;
      const bool loads = o.dac_load || o.phase_load || o.time_step_load;
      bool ok = o.busy == (k <= top::kUpdateLatency);
      if (k >= top::kUpdateLatency) ok = ok && same_values(o, want);
      if (at_update)
        ok = ok && o.dac_load == (n == 0 || want.dac_word != last.dac_word) &&
             o.time_step_load == (want.time_step_ticks != 0);
      if (!at_update) ok = ok && !loads;
      if (!ok && mismatches++ < 10) std::printf("MISMATCH at beat %d, cycle %u\n", n, k);
      if (at_update && o.time_step_load) {
        // The board applies the coarse time set before the next exchange.
        board_ahead_fs += int64_t(o.time_step) * kTickFs;
        stepped_ticks += int64_t(o.time_step);
      }
    }
    ref_fs += int64_t{top::kBeatCycles} * kPeriodFs;
    last = want;
  }
};

}  // namespace

int main() {
  int failures = 0;
  lightrail_clock_sync_csim_reset();
  Run run;
  for (int n = 0; n < 40; ++n) run.beat(n);
  const int64_t want_ticks = -kOffsetFs / kTickFs;
  if (run.stepped_ticks > want_ticks + 8 || run.stepped_ticks < want_ticks - 8) {
    std::printf("FAIL: board time stepped %lld ticks, want about %lld\n",
                static_cast<long long>(run.stepped_ticks), static_cast<long long>(want_ticks));
    ++failures;
  }
  failures += run.mismatches;
  int fresh_mismatches = 0;
#ifndef __RTL_SIMULATION__
  // ap_rst_n mid-run: the top then answers as a fresh servo does.
  lightrail_clock_sync_csim_reset();
  Run fresh;
  for (int n = 0; n < 40; ++n) fresh.beat(n);
  fresh_mismatches = fresh.mismatches;
  failures += fresh.mismatches;
  if (fresh.stepped_ticks != run.stepped_ticks) {
    std::printf("FAIL: after the reset the top stepped %lld ticks, a fresh one %lld\n",
                static_cast<long long>(fresh.stepped_ticks), static_cast<long long>(run.stepped_ticks));
    ++failures;
  }
#endif
  std::printf("%s: %d mismatches, board time stepped %lld ticks\n", failures == 0 ? "PASS" : "FAIL",
              run.mismatches + fresh_mismatches, static_cast<long long>(run.stepped_ticks));
  return failures == 0 ? 0 : 1;
}
