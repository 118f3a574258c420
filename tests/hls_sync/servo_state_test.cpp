// The servo's bookkeeping between samples, driven by direct clock_sync_step()
// calls on the two-way exchange alone (USE_DDMTD off): the lock count, the
// state a reference loss and a disable leave, the proportional-term register
// and the DAC rail flags. Each case kills a survivor of the mutation run
// (docs/mutation.md).
#include <gtest/gtest.h>

#include <cstdint>

#include "clock_sync/clock_sync.hpp"

namespace lightrail::sync::test {
namespace {

constexpr int64_t kFsPerPs = 1000;
constexpr int64_t kDelayFs = int64_t{20000} * kFsPerPs;  // 20 ns one way
constexpr uint32_t kLockSamples = 4;
constexpr int64_t kThreshPs = hwdef::SYNC_DEFAULT_LOCK_THRESH_PS;  // signed: offsets below are negative

// One update after 1 ms (the slew bound then allows any correction here
// whole), carrying an exchange whose offset is `theta_ps` over a symmetric
// path of one-way delay `delay_fs`.
ClockSyncOut update(ClockSyncState& s, int64_t theta_ps, int64_t delay_fs = kDelayFs, bool ref_ok = true,
                    bool enable = true, uint32_t pull_ppb = hwdef::SYNC_DEFAULT_DAC_PULL_PPB) {
  ClockSyncIn in;
  in.cfg.enable = enable;
  in.cfg.use_ddmtd = false;
  in.cfg.lock_samples = kLockSamples;
  in.cfg.dac_pull_ppb = pull_ppb;
  in.ref_ok = ref_ok;
  in.elapsed_fs = int64_t{1000000000} * 1000;
  in.exchange_valid = ref_ok;
  const int64_t theta_fs = theta_ps * kFsPerPs;
  in.t1_fs = 0;
  in.t2_fs = delay_fs + theta_fs;
  in.t3_fs = delay_fs + theta_fs;
  in.t4_fs = 2 * delay_fs;
  ClockSyncOut out;
  clock_sync_step(s, in, out);
  return out;
}

bool locked(const ClockSyncOut& o) { return (o.status & hwdef::SYNC_STATUS_LOCKED_MASK) != 0; }
bool at_rail(const ClockSyncOut& o) { return (o.status & hwdef::SYNC_STATUS_DAC_AT_RAIL_MASK) != 0; }
bool saturated(const ClockSyncOut& o) { return (o.errors & hwdef::SYNC_ERROR_DAC_SATURATED_MASK) != 0; }
uint32_t state(const ClockSyncOut& o) {
  return (o.status & hwdef::SYNC_STATUS_STATE_MASK) >> hwdef::SYNC_STATUS_STATE_LSB;
}

// Feeds in-threshold exchanges until LOCKED; returns how many it took.
uint32_t samples_to_lock(ClockSyncState& s) {
  for (uint32_t n = 1; n <= 4 * kLockSamples; ++n)
    if (locked(update(s, 0))) return n;
  return 0;
}

// LOCK_SAMPLES counts samples in a row: one beyond the threshold starts the
// count over (mutant: clock_sync.cpp `s.lock_run = 0;` deleted).
TEST(HlsSyncServoState, OneSampleBeyondTheThresholdRestartsTheLockCount) {
  ClockSyncState s;
  for (uint32_t n = 1; n < kLockSamples; ++n) ASSERT_FALSE(locked(update(s, 0)));
  ASSERT_FALSE(locked(update(s, 2 * kThreshPs)));
  EXPECT_EQ(samples_to_lock(s), kLockSamples);
}

// After a reference loss the lock is earned afresh: LOCK_SAMPLES new samples
// (mutant: the holdover's `s.lock_run = 0;` made 1).
TEST(HlsSyncServoState, AfterAReferenceLossLockTakesLockSamplesAgain) {
  ClockSyncState s;
  ASSERT_EQ(samples_to_lock(s), kLockSamples);
  const ClockSyncOut lost = update(s, 0, kDelayFs, false);
  EXPECT_FALSE(locked(lost));
  EXPECT_EQ(state(lost), static_cast<uint32_t>(SyncMode::kHoldover));
  EXPECT_EQ(samples_to_lock(s), kLockSamples);
}

// The first exchange after a reference loss seeds the path-delay filter with
// its own delay (the fibre may have been re-patched), not an average with
// the old one (mutant: the holdover's `s.have_exchange = false;` deleted).
TEST(HlsSyncServoState, TheFirstExchangeAfterAReferenceLossSetsThePathDelay) {
  ClockSyncState s;
  ASSERT_EQ(samples_to_lock(s), kLockSamples);
  update(s, 0, kDelayFs, false);
  const int64_t repatched_fs = kDelayFs + int64_t{1000} * kFsPerPs;  // 1 ns longer
  EXPECT_EQ(update(s, 0, repatched_fs).delay_ms_ps, repatched_fs / kFsPerPs);
}

// Disabling resets the servo: DISABLED, not locked, the DAC at mid-scale,
// no learnt frequency (mutant: `s = ClockSyncState{};` deleted).
TEST(HlsSyncServoState, DisableResetsTheServo) {
  ClockSyncState s;
  // A steady offset: the integrator learns a frequency, so the DAC leaves mid-scale.
  for (int n = 0; n < 8; ++n) update(s, 3 * kThreshPs);
  const ClockSyncOut before = update(s, 3 * kThreshPs);
  ASSERT_NE(before.dac_word, 1u << (hwdef::SYNC_DAC_BITS - 1));
  ASSERT_NE(before.servo_i_ppt, 0);
  const ClockSyncOut off = update(s, 0, kDelayFs, true, false);
  EXPECT_EQ(state(off), static_cast<uint32_t>(SyncMode::kDisabled));
  EXPECT_FALSE(locked(off));
  EXPECT_EQ(off.dac_word, 1u << (hwdef::SYNC_DAC_BITS - 1));
  EXPECT_EQ(off.servo_i_ppt, 0);
  EXPECT_EQ(off.offset_ps, 0);
}

// SERVO_P reports the proportional correction of the last sample: -KP x the
// offset (mutant: `s.last_p_fs = p;` deleted, the register stays 0).
TEST(HlsSyncServoState, ServoPIsTheProportionalCorrection) {
  ClockSyncState s;
  constexpr int64_t kThetaPs = 400;
  const ClockSyncOut o = update(s, kThetaPs);
  EXPECT_EQ(o.servo_p_ps, -kThetaPs * hwdef::SYNC_DEFAULT_KP_Q16 / 65536);
}

// An oscillator whose 1 ppb pull range cannot follow the integrator: every
// update is at the rail (DAC_AT_RAIL), but DAC_SATURATED waits for
// kRailSamples of them in a row, so acquisition's brief overshoot is not
// flagged (mutant: the run's saturating count's comparison swapped).
TEST(HlsSyncServoState, DacSaturatedOnlyAfterKRailSamplesInARow) {
  ClockSyncState s;
  for (uint32_t n = 1; n < kRailSamples; ++n) {
    const ClockSyncOut o = update(s, -5 * kThreshPs, kDelayFs, true, true, 1);
    ASSERT_TRUE(at_rail(o)) << n;
    ASSERT_FALSE(saturated(o)) << n;
  }
  EXPECT_TRUE(saturated(update(s, -5 * kThreshPs, kDelayFs, true, true, 1)));
}

// Syntonising on the DDMTD with an oscillator beyond the pull range: far off
// frequency the DDMTD now and then pairs one reference tag twice, and that
// beat shows no drift (here two units back). It must not restart the run,
// or a board that can never be pulled is never flagged (found through the
// boards' own ports, tests/sim/sync/dac_saturated.json; mutant: the check
// judges only the frequency after the beat's correction).
TEST(HlsSyncServoState, ABeatThatPairedOneTagTwiceDoesNotEndTheRailRun) {
  ClockSyncState s;
  ClockSyncIn in;
  in.cfg.enable = true;
  in.cfg.lock_samples = kLockSamples;
  in.cfg.dac_pull_ppb = 1000;
  in.ref_ok = true;
  in.elapsed_fs = kBeatFs;
  in.phase_valid = true;
  ClockSyncOut out;
  uint32_t lag = 0;
  for (uint32_t beat = 0; beat < 4 * kRailSamples && !saturated(out); ++beat) {
    // Every fifth beat the lag goes back two units; else the local clock
    // gains 150 units (about 290 ps) a beat on the reference.
    lag = (beat % 5 == 4 ? lag + 2 : lag + hwdef::DDMTD_N - 150) % hwdef::DDMTD_N;
    in.ddmtd_phase = lag;
    clock_sync_step(s, in, out);
    ASSERT_EQ(state(out), static_cast<uint32_t>(SyncMode::kCoarse)) << beat;
  }
  EXPECT_TRUE(saturated(out));
  EXPECT_TRUE(at_rail(out));
  EXPECT_EQ(out.dac_word, 0u);
}

// DAC_AT_RAIL says the last update wanted more than the pull range: an
// update at zero offset, which leaves the frequency at the range's edge
// without pushing, is not at the rail (mutant: `>` made `>=` on the
// positive edge).
TEST(HlsSyncServoState, AtTheRangesEdgeWithoutPushingIsNotAtTheRail) {
  ClockSyncState s;
  ASSERT_TRUE(at_rail(update(s, -5 * kThreshPs, kDelayFs, true, true, 1)));
  const ClockSyncOut still = update(s, 0, kDelayFs, true, true, 1);
  EXPECT_GT(still.servo_i_ppt, 0);  // held at the positive edge
  EXPECT_FALSE(at_rail(still));
}

// A board locked on the DDMTD over a still path is not held: a phase move
// within the lock threshold reaches SYNC_OFFSET at the next update (mutant:
// the path-step check compares with the last held delay, never set, instead
// of the filtered one, and holds the servo).
TEST(HlsSyncServoState, ALockedBoardOnAStillPathFollowsItsPhase) {
  ClockSyncState s;
  ClockSyncIn in;
  in.cfg.enable = true;
  in.cfg.lock_samples = kLockSamples;
  in.ref_ok = true;
  in.elapsed_fs = int64_t{1000000000} * 1000;
  // Offset 0 over a path of whole periods and a DDMTD lag of 0: the
  // DDMTD-refined offset is 0 too.
  in.exchange_valid = true;
  in.t1_fs = 0;
  in.t2_fs = kDelayFs;
  in.t3_fs = kDelayFs;
  in.t4_fs = 2 * kDelayFs;
  ASSERT_EQ(kDelayFs % kPeriodFs, 0);
  in.phase_valid = true;
  in.ddmtd_phase = 0;
  ClockSyncOut out;
  for (int n = 0; n < 4 * int(kLockSamples) && !locked(out); ++n) clock_sync_step(s, in, out);
  ASSERT_TRUE(locked(out));
  ASSERT_EQ(state(out), static_cast<uint32_t>(SyncMode::kLocked));
  // The local clock now lags by 20 DDMTD units (20 x 4 ns / DDMTD_N, about 20 ps).
  constexpr uint32_t kLag = 20;
  in.ddmtd_phase = kLag;
  clock_sync_step(s, in, out);
  const int64_t lag_ps = int64_t{kLag} * hwdef::CLK_PERIOD_PS / hwdef::DDMTD_N;
  ASSERT_LT(lag_ps, kThreshPs);
  EXPECT_NEAR(out.offset_ps, -lag_ps, 1);
  EXPECT_TRUE(locked(out));
}

// A coarse time set is no frequency error: the exchange-only servo's FLL
// does not take the step as drift, so the frequency word is unchanged by it
// (mutant: `s.prev_valid = false;` of the time set deleted, which kicks the
// frequency by the step's residual over the samples' spacing).
TEST(HlsSyncServoState, ACoarseTimeSetLeavesTheFrequencyAlone) {
  ClockSyncState s;
  ASSERT_EQ(update(s, 0).servo_i_ppt, 0);
  // 151 ns: stepped by 38 whole periods (152 ns), 1 ns left to the loop.
  const int64_t theta_ps = 151000;
  ASSERT_GE(theta_ps, int64_t{hwdef::SYNC_TIME_STEP_MIN_PS});
  const ClockSyncOut stepped = update(s, theta_ps);
  ASSERT_NE(stepped.time_step_ticks, 0);
  update(s, theta_ps);  // stamped before the step: dropped
  const ClockSyncOut after = update(s, theta_ps - 38 * int64_t{hwdef::CLK_PERIOD_PS});
  EXPECT_EQ(after.offset_ps, -1000);
  EXPECT_EQ(after.servo_i_ppt, 0);
}

// A lone bad DDMTD sample in FINE (before lock) is a slip: the servo falls
// back to the exchange, and the sample is no frequency error either, so the
// next good sample does not move the frequency word (mutant: the slip's
// `s.phase_init = false;` deleted, which unwraps the next sample against the
// bad one and takes the difference as drift).
TEST(HlsSyncServoState, ALoneBadPhaseSampleIsNoFrequencyError) {
  ClockSyncState s;
  ClockSyncIn in;
  in.cfg.enable = true;
  in.cfg.lock_samples = 1000;  // FINE, never LOCKED: no hold
  in.ref_ok = true;
  in.elapsed_fs = int64_t{1000000000} * 1000;
  in.exchange_valid = true;
  in.t1_fs = 0;
  in.t2_fs = kDelayFs;
  in.t3_fs = kDelayFs;
  in.t4_fs = 2 * kDelayFs;
  ASSERT_EQ(kDelayFs % kPeriodFs, 0);
  in.phase_valid = true;
  in.ddmtd_phase = 0;
  ClockSyncOut out;
  for (int n = 0; n < 8 && !(out.status & hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK); ++n)
    clock_sync_step(s, in, out);
  ASSERT_TRUE(out.status & hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK);
  clock_sync_step(s, in, out);
  const int32_t freq_ppt = out.servo_i_ppt;
  in.ddmtd_phase = hwdef::DDMTD_N / 4;  // a quarter period off, the exchange unmoved
  clock_sync_step(s, in, out);
  ASSERT_TRUE(out.errors & hwdef::SYNC_ERROR_PHASE_SLIP_MASK);
  ASSERT_FALSE(out.status & hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK);
  in.ddmtd_phase = 0;
  clock_sync_step(s, in, out);
  EXPECT_EQ(out.servo_i_ppt, freq_ppt);
}

}  // namespace
}  // namespace lightrail::sync::test
