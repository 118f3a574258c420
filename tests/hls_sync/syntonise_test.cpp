// Syntonisation (docs/clock-sync.md, "Frequency acquisition"): before the
// whole-period count is known, each beat a quarter of the frequency error the
// DDMTD phase shows is removed from the DAC frequency. The gain sets the
// acquisition time and the loop's margins (the closed-form table there).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "loop_runner.hpp"

namespace lightrail::sync::test {
namespace {

// One beat in which the local clock falls behind the recovered reference by
// `lag` DDMTD units: the servo raises its frequency by a quarter of that
// drift over the beat. No exchange, so nothing else moves the frequency.
TEST(HlsSyncSyntonise, OneBeatRemovesAQuarterOfTheFrequencyError) {
  constexpr uint32_t kLag = 335;  // about 20 ppm over a beat
  ClockSyncState s;
  ClockSyncIn in;
  in.cfg.enable = true;
  in.ref_ok = true;
  in.elapsed_fs = kBeatFs;
  in.phase_valid = true;
  in.ddmtd_phase = 0;
  ClockSyncOut out;
  clock_sync_step(s, in, out);
  ASSERT_EQ(out.servo_i_ppt, 0);  // the first phase only sets the reference
  in.ddmtd_phase = kLag;
  clock_sync_step(s, in, out);
  ASSERT_EQ(state_of(out), uint32_t(SyncMode::kCoarse));
  const double error_ppt =
      1e12 * double(kLag) * hwdef::CLK_PERIOD_PS / hwdef::DDMTD_N * 1000 / double(kBeatFs);
  EXPECT_NEAR(out.servo_i_ppt, error_ppt / 4, error_ppt * 0.01);
  EXPECT_GT(out.dac_word, 1u << (hwdef::SYNC_DAC_BITS - 1));  // speeds the board up
}

// Closed over the plant, a 20 ppm oscillator whose pull is as the servo is
// told (G = 1) is within 1 ppm of the reference after 15 beats: the loop
// c[k+1] = c[k] - y[k-1]/4 gets there in 11 (at 1/8 it takes 22).
TEST(HlsSyncSyntonise, TwentyPpmIsWithinOnePpmInFifteenBeats) {
  PlantConfig pc;
  pc.seed = 3;
  Loop loop(pc);
  int beats = -1;
  for (int k = 1; k <= 40 && beats < 0; ++k) {
    loop.run_us(Plant::kUpdatePs * 1e-6);
    if (std::fabs(loop.plant.y()) < 1e-6) beats = k;
  }
  EXPECT_GT(beats, 0);
  EXPECT_LE(beats, 15);
}

}  // namespace
}  // namespace lightrail::sync::test
