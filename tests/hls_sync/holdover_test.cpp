// Losing the reference: the frequency is held and flagged, the drift is what
// the frequency error at that moment predicts, and the return re-locks by
// slewing without time ever running backwards.
#include <gtest/gtest.h>

#include "loop_runner.hpp"

namespace lightrail::sync::test {
namespace {

TEST(HlsSync, HoldoverHoldsFrequencyDriftBoundedThenRelocksBySlewing) {
  PlantConfig pc;
  pc.seed = 7;
  Loop loop(pc);
  loop.run_us(2000);
  ASSERT_GT(loop.lock_us, 0);
  loop.run_us(500);
  const double x0 = loop.plant.smooth_offset_ps();
  const double y0 = loop.plant.y();
  const uint32_t dac_locked = loop.out.dac_word;

  const double holdover_us = 1000;
  loop.run_us(holdover_us, /*ref_ok=*/false);
  EXPECT_TRUE(loop.out.status & hwdef::SYNC_STATUS_HOLDOVER_MASK);
  EXPECT_FALSE(loop.out.status & hwdef::SYNC_STATUS_LOCKED_MASK);
  EXPECT_EQ(state_of(loop.out), uint32_t(SyncMode::kHoldover));
  EXPECT_TRUE(loop.out.errors & hwdef::SYNC_ERROR_REF_LOST_MASK);
  EXPECT_EQ(loop.out.phase_steps, 0);
  EXPECT_NEAR(loop.out.holdover_us, holdover_us, 20);
  // Held: the DAC keeps the integrator's value (within a few LSB of the
  // word driven while locked, which carried the proportional dither).
  EXPECT_NEAR(double(loop.out.dac_word), double(dac_locked), 8);

  // Predicted drift: the frequency error when the reference went, over the
  // holdover, plus 4 sigma of random-walk frequency noise (sigma_x =
  // q * T^1.5 / sqrt(3)) and the white jitter of two readings.
  const double T = holdover_us * 1e-6;
  const double predicted =
      std::fabs(y0) * T * 1e12 + 4 * pc.rw_freq_per_sqrt_s * std::pow(T, 1.5) / std::sqrt(3.0) * 1e12 + 10;
  const double drift = std::fabs(loop.plant.smooth_offset_ps() - x0);
  EXPECT_LT(drift, predicted) << "y0 " << y0;

  loop.lock_us = -1;
  const double t_back = loop.now_us;
  loop.min_advance_ps = 1e30;
  loop.run_us(2000);
  ASSERT_GT(loop.lock_us, 0) << "no re-lock";
  EXPECT_LT(loop.lock_us - t_back, 2000);
  EXPECT_GT(loop.min_advance_ps, 0.0);
  EXPECT_LE(loop.max_slew_excess_ps, 0.0);
  EXPECT_LT(std::fabs(loop.plant.smooth_offset_ps()), 50.0);
}

// An oscillator frequency step during holdover leaves a large offset on the
// return: removed at the slew bound (COARSE), never by a step.
TEST(HlsSync, ReturnAfterLargeDriftSlewsAtTheBound) {
  PlantConfig pc;
  pc.seed = 9;
  pc.initial_offset_ps = 2000;
  Loop loop(pc);
  loop.cfg.slew_max_ns_per_s = 100000;
  loop.run_us(2000);
  ASSERT_GT(loop.lock_us, 0);
  loop.plant.shift_frequency(10e-6);
  loop.run_us(3000, false);
  ASSERT_GT(loop.plant.smooth_offset_ps(), 25000.0);
  loop.min_advance_ps = 1e30;
  loop.max_slew_excess_ps = -1e30;
  loop.lock_us = -1;
  bool saw_coarse = false;
  for (int i = 0; i < 300 && loop.lock_us < 0; ++i) {
    loop.run_us(Plant::kUpdatePs * 1e-6);
    saw_coarse |= state_of(loop.out) == uint32_t(SyncMode::kCoarse);
  }
  EXPECT_TRUE(saw_coarse);
  EXPECT_GT(loop.lock_us, 0);
  EXPECT_GT(loop.min_advance_ps, 0.0);
  EXPECT_LE(loop.max_slew_excess_ps, 0.0);
}

// A lone DDMTD sample a quarter or half period off (a false reference edge)
// while locked: the servo holds for it, sees the phase come back, and drops
// it: no step of the board, no flag, still locked.
TEST(HlsSync, ALoneContradictingPhaseSampleIsHeldAndDropped) {
  for (const int32_t off : {1060, -1060, 2048}) {
    PlantConfig pc;
    pc.seed = 11;
    Loop loop(pc);
    loop.run_us(2000);
    ASSERT_GT(loop.lock_us, 0);
    ASSERT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked));
    const uint32_t errors_before = loop.out.errors;
    const double x0 = loop.plant.smooth_offset_ps();
    ClockSyncIn in = loop.plant.measure(loop.cfg, true);
    in.ddmtd_phase = uint32_t((int64_t(in.ddmtd_phase) + off + int64_t(hwdef::DDMTD_N)) % hwdef::DDMTD_N);
    clock_sync_step(loop.state, in, loop.out);
    loop.plant.apply_and_advance(loop.out, loop.cfg);
    EXPECT_EQ(loop.out.phase_steps, 0) << off;
    loop.run_us(100);
    EXPECT_EQ(loop.out.errors, errors_before) << off;
    EXPECT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked)) << off;
    EXPECT_LT(std::fabs(loop.plant.smooth_offset_ps() - x0), 30.0) << off;
  }
}

// The DDMTD's phase moves a quarter period for good while the exchange says
// the path did not (a lost whole-period count): a slip, flagged; the board
// keeps its time on the exchange.
TEST(HlsSync, APhaseThatStaysOffTheExchangeIsASlipNotAStep) {
  for (const int32_t off : {1060, -1060}) {
    PlantConfig pc;
    pc.seed = 11;
    Loop loop(pc);
    loop.run_us(2000);
    ASSERT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked));
    const double x0 = loop.plant.smooth_offset_ps();
    double worst = 0;
    for (int i = 0; i < 60; ++i) {
      ClockSyncIn in = loop.plant.measure(loop.cfg, true);
      in.ddmtd_phase = uint32_t((int64_t(in.ddmtd_phase) + off + int64_t(hwdef::DDMTD_N)) % hwdef::DDMTD_N);
      clock_sync_step(loop.state, in, loop.out);
      loop.plant.apply_and_advance(loop.out, loop.cfg);
      worst = std::max(worst, std::fabs(loop.plant.smooth_offset_ps() - x0));
    }
    EXPECT_TRUE(loop.out.errors & hwdef::SYNC_ERROR_PHASE_SLIP_MASK) << off;
    EXPECT_FALSE(loop.out.errors & hwdef::SYNC_ERROR_DELAY_STEP_MASK) << off;
    EXPECT_LT(worst, 30.0) << off;
  }
}

// The DDMTD falls silent (it pairs only a reference within a few ppm, e.g.
// while the reference itself slews) but exchanges keep coming: the servo
// tracks the exchange instead of holding still, and is back in FINE and
// locked once phases return.
TEST(HlsSync, WhenTheDdmtdFallsSilentTheExchangeKeepsTheBoardOnTime) {
  PlantConfig pc;
  pc.seed = 13;
  Loop loop(pc);
  loop.run_us(2000);
  ASSERT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked));
  loop.plant.shift_frequency(2e-6);  // 2 ppm: the board would run 33 ps away per update
  double worst = 0;
  for (int i = 0; i < 120; ++i) {  // ~2 ms without a phase
    ClockSyncIn in = loop.plant.measure(loop.cfg, true);
    in.phase_valid = false;
    clock_sync_step(loop.state, in, loop.out);
    loop.plant.apply_and_advance(loop.out, loop.cfg);
    worst = std::max(worst, std::fabs(loop.plant.smooth_offset_ps()));
  }
  EXPECT_NE(state_of(loop.out), uint32_t(SyncMode::kFine));
  EXPECT_LT(worst, 200.0);
  EXPECT_LT(std::fabs(loop.plant.smooth_offset_ps()), 50.0);
  loop.run_us(2000);
  EXPECT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked));
  EXPECT_TRUE(loop.out.status & hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK);
  EXPECT_LT(std::fabs(loop.plant.smooth_offset_ps()), 30.0);
}

// Exchanges may come in calls of their own between phases: as long as a
// phase comes every beat the servo stays in FINE and locked.
TEST(HlsSync, AnExchangeBetweenPhasesDoesNotLeaveFine) {
  PlantConfig pc;
  pc.seed = 17;
  Loop loop(pc);
  loop.run_us(2000);
  ASSERT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked));
  for (int i = 0; i < 100; ++i) {
    ClockSyncIn in = loop.plant.measure(loop.cfg, true);
    if (i % 2) {
      in.phase_valid = false;  // the exchange alone
    } else {
      in.exchange_valid = false;  // the phase alone
    }
    clock_sync_step(loop.state, in, loop.out);
    loop.plant.apply_and_advance(loop.out, loop.cfg);
    ASSERT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked)) << "call " << i;
    ASSERT_TRUE(loop.out.status & hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK) << "call " << i;
  }
  EXPECT_LT(std::fabs(loop.plant.smooth_offset_ps()), 30.0);
}

// SYNC_HOLDOVER_US counts whole microseconds since the reference was lost:
// one femtosecond short of a microsecond still reads 0.
TEST(HlsSyncHoldover, TheHoldoverTimeCountsWholeMicroseconds) {
  constexpr int64_t kFsPerUs = 1000000000;
  ClockSyncState s;
  ClockSyncIn in;
  ClockSyncOut out;
  in.cfg.enable = true;
  in.ref_ok = true;
  in.elapsed_fs = kPeriodFs;
  clock_sync_step(s, in, out);  // leaves FREE_RUN: a reference was seen
  in.ref_ok = false;
  in.elapsed_fs = kFsPerUs - 1;
  clock_sync_step(s, in, out);
  ASSERT_EQ(state_of(out), uint32_t(SyncMode::kHoldover));
  EXPECT_EQ(out.holdover_us, 0u);
  in.elapsed_fs = 1;
  clock_sync_step(s, in, out);
  EXPECT_EQ(out.holdover_us, 1u);
  in.elapsed_fs = 1000 * kFsPerUs;
  clock_sync_step(s, in, out);
  EXPECT_EQ(out.holdover_us, 1001u);
}

// "Silent" is a beat and a quarter without a phase (docs/clock-sync.md): an
// exchange that comes exactly that long after the last phase leaves the
// servo in FINE; one cycle later it drops to the exchange.
bool fine_after_silence(int64_t silence_fs) {
  PlantConfig pc;
  pc.seed = 13;
  Loop loop(pc);
  loop.run_us(2000);
  EXPECT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked));
  EXPECT_TRUE(loop.out.status & hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK);
  ClockSyncIn quiet = loop.plant.measure(loop.cfg, true);
  quiet.phase_valid = false;
  quiet.exchange_valid = false;
  quiet.elapsed_fs = silence_fs - kPeriodFs;
  clock_sync_step(loop.state, quiet, loop.out);
  ClockSyncIn exchange = loop.plant.measure(loop.cfg, true);
  EXPECT_TRUE(exchange.exchange_valid);
  exchange.phase_valid = false;
  exchange.elapsed_fs = silence_fs - quiet.elapsed_fs;
  clock_sync_step(loop.state, exchange, loop.out);
  return (loop.out.status & hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK) != 0;
}

TEST(HlsSyncSilence, TheDdmtdIsSilentAfterABeatAndAQuarterWithoutAPhase) {
  const int64_t beat_fs = int64_t{hwdef::DDMTD_N + 1} * hwdef::CLK_PERIOD_PS * 1000;
  const int64_t silent_fs = beat_fs * 5 / 4;
  EXPECT_TRUE(fine_after_silence(silent_fs));
  EXPECT_FALSE(fine_after_silence(silent_fs + kPeriodFs));
}

}  // namespace
}  // namespace lightrail::sync::test
