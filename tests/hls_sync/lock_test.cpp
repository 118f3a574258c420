// Acquisition and steady state under the reference noise level of
// PlantConfig: 20 ppm oscillator, 2 ps white jitter, 2e-9/sqrt(s) random-walk
// frequency noise, 5 ps timestamp jitter, 1 km fibre.
#include <gtest/gtest.h>

#include <string>

#include "loop_runner.hpp"

namespace lightrail::sync::test {
namespace {

struct Start {
  double offset_ps;
  double ppm;
  uint64_t seed;
};

class LockFrom : public ::testing::TestWithParam<Start> {};

TEST_P(LockFrom, LocksWithin2msThenRmsUnder20psAndP99Under100ps) {
  PlantConfig pc;
  pc.initial_offset_ps = GetParam().offset_ps;
  pc.osc_offset_ppm = GetParam().ppm;
  pc.seed = GetParam().seed;
  Loop loop(pc);
  loop.run_us(2000);
  ASSERT_GT(loop.lock_us, 0) << "no lock within 2 ms; state " << state_of(loop.out);
  EXPECT_TRUE(loop.out.status & hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK);
  loop.collect = true;
  loop.run_us(3000);
  const Stats s = stats_of(loop.offsets_ps);
  ASSERT_GT(loop.offsets_ps.size(), 150u) << "lock lost after acquisition";
  EXPECT_LT(s.rms, 20.0);
  EXPECT_LT(s.p99, 100.0);
  // Time never ran backwards and never slewed faster than the bound.
  EXPECT_GT(loop.min_advance_ps, 0.0);
  EXPECT_LE(loop.max_slew_excess_ps, 0.0);
  // The status mirrors the state: locked, offset estimate near the truth.
  EXPECT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked));
  EXPECT_LT(std::abs(loop.out.offset_ps - loop.plant.smooth_offset_ps()), 30.0);
}

INSTANTIATE_TEST_SUITE_P(HlsSync, LockFrom,
                         ::testing::Values(Start{150000, 20, 1}, Start{-150000, -20, 2}, Start{3000, 45, 3},
                                           Start{-40000, 0, 4}),
                         [](const ::testing::TestParamInfo<Start>& p) {
                           return "seed" + std::to_string(p.param.seed);
                         });

// The fibre here is a whole number of clock periods, so the DDMTD phase at
// lock sits on the wrap (tags jump between 0 and N-1): unwrapping must hide it.
TEST(HlsSync, DdmtdPhaseWrapDoesNotDisturbLock) {
  PlantConfig pc;
  pc.fibre_ms_ps = pc.fibre_sm_ps = 1250 * double(hwdef::CLK_PERIOD_PS);
  pc.white_jitter_ps = 4;
  Loop loop(pc);
  loop.run_us(2000);
  ASSERT_GT(loop.lock_us, 0);
  loop.collect = true;
  loop.run_us(2000);
  const Stats s = stats_of(loop.offsets_ps);
  EXPECT_LT(s.rms, 20.0);
  EXPECT_LT(s.max_abs, 200.0);
}

// The same kernel without the DDMTD (USE_DDMTD = 0) is the PTP-style
// baseline: with cycle-quantised timestamps it converges on the two-way
// offset alone, to within a cycle, far worse than with the phase detector.
TEST(HlsSync, TwoWayOnlyTracksButDdmtdIsFarBetter) {
  PlantConfig pc;
  pc.initial_offset_ps = 20000;
  PlantConfig pc_base = pc;
  pc_base.timestamp_quantum_ps = hwdef::CLK_PERIOD_PS;
  pc_base.timestamp_noise_ps = 50;
  Loop base(pc_base), fine(pc);
  base.cfg.use_ddmtd = false;
  base.run_us(2000);
  fine.run_us(2000);
  base.offsets_ps.clear();
  for (int i = 0; i < 120; ++i) {  // collect regardless of lock
    base.run_us(Plant::kUpdatePs * 1e-6);
    fine.run_us(Plant::kUpdatePs * 1e-6);
    base.offsets_ps.push_back(base.plant.true_offset_ps());
    fine.offsets_ps.push_back(fine.plant.true_offset_ps());
  }
  EXPECT_FALSE(base.out.status & hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK);
  const Stats b = stats_of(base.offsets_ps), f = stats_of(fine.offsets_ps);
  EXPECT_LT(b.max_abs, 4000.0) << "baseline should still hold within a cycle";
  EXPECT_GT(b.rms, 5 * f.rms);
}

// Boards power up with their counters far apart: the first exchange steps
// board time once by whole ticks (TIME_STEPPED) and the loop slews the
// rest; below SYNC_TIME_STEP_MIN_PS nothing steps. Once locked, a large
// offset is slewed, never stepped, and time never runs backwards.
TEST(HlsSync, ACoarseOffsetAtBootIsSteppedOnceThenOnlySlewed) {
  for (const double offset_ps : {40e6, -3e9, 1.2e6, 50e3}) {
    PlantConfig pc;
    pc.initial_offset_ps = offset_ps;
    pc.seed = 5;
    Loop loop(pc);
    loop.run_us(2000);
    ASSERT_GT(loop.lock_us, 0) << offset_ps;
    const bool stepped = std::fabs(offset_ps) >= hwdef::SYNC_TIME_STEP_MIN_PS;
    EXPECT_EQ(loop.time_steps, stepped ? 1 : 0) << offset_ps;
    EXPECT_EQ(bool(loop.out.errors & hwdef::SYNC_ERROR_TIME_STEPPED_MASK), stepped) << offset_ps;
    // Whole cycles: board time stays on the clock's edges.
    EXPECT_EQ(loop.last_time_step_ticks % int64_t{hwdef::FINE_STEPS}, 0) << offset_ps;
    EXPECT_LT(std::fabs(loop.plant.smooth_offset_ps()), 30.0) << offset_ps;

    loop.plant.shift_time(3e6);  // 3 us, well past the step threshold
    loop.min_advance_ps = 1e30;
    loop.run_us(2000);
    EXPECT_EQ(loop.time_steps, stepped ? 1 : 0) << offset_ps;
    EXPECT_GT(loop.min_advance_ps, 0.0) << offset_ps;
    EXPECT_LE(loop.max_slew_excess_ps, 0.0) << offset_ps;
    EXPECT_TRUE(loop.out.status & hwdef::SYNC_STATUS_SLEWING_MASK) << offset_ps;
  }
}

// On hardware an exchange does not come with every call: the first one
// delivered after a time step may have been stamped before it, however many
// calls without one came between. It must not step time a second time.
TEST(HlsSync, AnExchangeStampedBeforeTheStepDoesNotStepAgain) {
  PlantConfig pc;
  pc.initial_offset_ps = 40e6;
  pc.seed = 3;
  Loop loop(pc);
  const ClockSyncIn before = loop.plant.measure(loop.cfg, true);
  ASSERT_TRUE(before.exchange_valid);
  clock_sync_step(loop.state, before, loop.out);
  ASSERT_NE(loop.out.time_step_ticks, 0);
  loop.plant.apply_and_advance(loop.out, loop.cfg);
  for (int i = 0; i < 3; ++i) {  // calls without an exchange
    ClockSyncIn in = loop.plant.measure(loop.cfg, true);
    in.exchange_valid = false;
    clock_sync_step(loop.state, in, loop.out);
    EXPECT_EQ(loop.out.time_step_ticks, 0);
    loop.plant.apply_and_advance(loop.out, loop.cfg);
  }
  ClockSyncIn stale = loop.plant.measure(loop.cfg, true);
  stale.t1_fs = before.t1_fs;
  stale.t2_fs = before.t2_fs;
  stale.t3_fs = before.t3_fs;
  stale.t4_fs = before.t4_fs;
  clock_sync_step(loop.state, stale, loop.out);
  EXPECT_EQ(loop.out.time_step_ticks, 0) << "stepped again on an exchange from before the step";
  loop.plant.apply_and_advance(loop.out, loop.cfg);
  loop.run_us(2000);
  EXPECT_GT(loop.lock_us, 0);
  EXPECT_LT(std::fabs(loop.plant.smooth_offset_ps()), 30.0);
}

}  // namespace
}  // namespace lightrail::sync::test
