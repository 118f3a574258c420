// The servo on the DDMTD, driven by direct clock_sync_step() calls: a still
// phase and exchanges that agree with it hand over to FINE and lock. Locked,
// an exchange whose path delay is exactly the lock threshold off is still
// filtered into the path delay, not held as a step; a reference loss leaves
// FINE (the DDMTD has no reference to measure); path steps and phase jumps
// are told apart at a hold's end. Mutation testing found these untested
// (docs/mutation.md).
#include <gtest/gtest.h>

#include <cstdint>

#include "clock_sync/clock_sync.hpp"

namespace lightrail::sync::test {
namespace {

constexpr int64_t kFsPerPs = 1000;
constexpr int64_t kDelayFs = 5 * kPeriodFs;  // one way: DDMTD phase 0 names 5 whole periods
constexpr int64_t kThreshFs = int64_t{hwdef::SYNC_DEFAULT_LOCK_THRESH_PS} * kFsPerPs;
constexpr int64_t kMsFs = int64_t{1000000000} * 1000;  // far longer than the exchange's age

// One call (a millisecond unless told) with the DDMTD at phase `lag` and an
// exchange of no offset over a symmetric path of `delay_fs` each way.
ClockSyncOut call(ClockSyncState& s, int64_t delay_fs = kDelayFs, bool ref_ok = true, uint32_t lag = 0,
                  int64_t elapsed_fs = kMsFs, uint32_t thresh_ps = hwdef::SYNC_DEFAULT_LOCK_THRESH_PS) {
  ClockSyncIn in;
  in.cfg.enable = true;
  in.cfg.lock_samples = 2;
  in.cfg.lock_thresh_ps = thresh_ps;
  in.ref_ok = ref_ok;
  in.elapsed_fs = elapsed_fs;
  in.phase_valid = ref_ok;
  in.ddmtd_phase = lag;
  in.exchange_valid = ref_ok;
  in.t1_fs = 0;
  in.t2_fs = delay_fs;
  in.t3_fs = delay_fs;
  in.t4_fs = 2 * delay_fs;
  ClockSyncOut out;
  clock_sync_step(s, in, out);
  return out;
}

bool fine(const ClockSyncOut& o) { return (o.status & hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK) != 0; }
bool locked(const ClockSyncOut& o) { return (o.status & hwdef::SYNC_STATUS_LOCKED_MASK) != 0; }

// FINE and LOCKED within a few calls.
void lock_on_the_ddmtd(ClockSyncState& s, uint32_t thresh_ps = hwdef::SYNC_DEFAULT_LOCK_THRESH_PS) {
  for (int n = 0; n < 8; ++n) {
    const ClockSyncOut o = call(s, kDelayFs, true, 0, kMsFs, thresh_ps);
    if (fine(o) && locked(o)) return;
  }
  FAIL() << "not locked on the DDMTD";
}

TEST(HlsSyncDdmtdState, LockedAnExchangeExactlyTheLockThresholdOffIsFilteredIn) {
  ClockSyncState s;
  lock_on_the_ddmtd(s);
  const ClockSyncOut o = call(s, kDelayFs + kThreshFs);
  // The delay filter takes 1/16 of the difference: 3.125 ps.
  EXPECT_EQ(o.delay_ms_ps, uint32_t((kDelayFs + kThreshFs / 16) / kFsPerPs));
  EXPECT_EQ(o.errors & hwdef::SYNC_ERROR_DELAY_STEP_MASK, 0u);
}

TEST(HlsSyncDdmtdState, AReferenceLossLeavesFine) {
  ClockSyncState s;
  lock_on_the_ddmtd(s);
  const ClockSyncOut lost = call(s, kDelayFs, false);
  EXPECT_NE(lost.status & hwdef::SYNC_STATUS_HOLDOVER_MASK, 0u);
  EXPECT_FALSE(fine(lost));
  EXPECT_FALSE(locked(lost));
}

// Two path steps in a row, one beat per call as on the board: each reaches
// the DDMTD phase a beat or two before the exchange shows it. Each hold lasts
// the exchange's age, so each step ends as a DELAY_STEP, never a PHASE_SLIP
// (the second hold's time is counted from its own start).
TEST(HlsSyncDdmtdState, EachOfTwoPathStepsHoldsForTheExchangesAge) {
  ClockSyncState s;
  lock_on_the_ddmtd(s);
  constexpr uint32_t kStepUnits = 256;  // DDMTD units: 250 ps, beyond the lock threshold
  constexpr int64_t kStepFs = kStepUnits * kPeriodFs / hwdef::DDMTD_N;
  uint32_t lag = 0;
  int64_t delay = kDelayFs;
  for (int step = 1; step <= 2; ++step) {
    SCOPED_TRACE(testing::Message() << "path step " << step);
    lag = (lag + hwdef::DDMTD_N - kStepUnits) % hwdef::DDMTD_N;  // a longer path: the local clock leads more
    for (int beat = 0; beat < 2; ++beat) call(s, delay, true, lag, kBeatFs);  // the exchange still old
    delay += kStepFs;
    for (int beat = 0; beat < 6; ++beat) {
      const ClockSyncOut o = call(s, delay, true, lag, kBeatFs);
      ASSERT_EQ(o.errors & hwdef::SYNC_ERROR_PHASE_SLIP_MASK, 0u) << "beat " << beat;
    }
    const ClockSyncOut o = call(s, delay, true, lag, kBeatFs);
    EXPECT_NE(o.errors & hwdef::SYNC_ERROR_DELAY_STEP_MASK, 0u);
    EXPECT_EQ(o.delay_ms_ps, uint32_t(delay / kFsPerPs));
    EXPECT_TRUE(fine(o));
  }
}

// SYNC_LOCK_THRESH_PS = 0 (lock only on an exact match, as these direct
// calls give): a phase jump the exchange never confirms ends its hold as a
// PHASE_SLIP; the path delay did not move at all, so no DELAY_STEP.
TEST(HlsSyncDdmtdState, AtAZeroThresholdAJumpTheExchangeDoesNotSeeIsASlip) {
  ClockSyncState s;
  lock_on_the_ddmtd(s, 0);
  const uint32_t lag = hwdef::DDMTD_N - 256;  // the phase jumps by 250 ps, the exchange stays
  ClockSyncOut o;
  for (int beat = 0; beat < 6; ++beat) o = call(s, kDelayFs, true, lag, kBeatFs, 0);
  EXPECT_NE(o.errors & hwdef::SYNC_ERROR_PHASE_SLIP_MASK, 0u);
  EXPECT_EQ(o.errors & hwdef::SYNC_ERROR_DELAY_STEP_MASK, 0u);
}

}  // namespace
}  // namespace lightrail::sync::test
