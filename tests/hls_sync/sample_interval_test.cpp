// A sample's phase correction is bounded by SLEW_MAX times the time since the
// previous sample (docs/clock-sync.md), and a syntonising beat is a sample:
// an exchange-only update after it is bounded by the interval since that
// beat, to the femtosecond. The interval is picked so the bound is just under
// a half picosecond, where SERVO_P's rounding shows a bound 1 fs larger.
// A reference loss restarts it as well. Mutation testing found both restarts
// untested (docs/mutation.md).
#include <gtest/gtest.h>

#include <cstdint>

#include "clock_sync/clock_sync.hpp"

namespace lightrail::sync::test {
namespace {

constexpr int64_t kFsPerPs = 1000;
constexpr int64_t kSlew = hwdef::SYNC_DEFAULT_SLEW_MAX_NS_PER_S;  // ns/s: fs per 10^9 fs
constexpr int64_t kHalfUpFs = 1000 * kFsPerPs + kFsPerPs / 2;     // a bound of 1000.5 ps reads 1001
// The longest interval whose bound stays below 1000.5 ps.
constexpr int64_t kIntervalFs = (kHalfUpFs * 1000000000 + kSlew - 1) / kSlew - 1;
static_assert(kSlew * kIntervalFs / 1000000000 == kHalfUpFs - 1, "the bound is 1000.499 ps");

// A syntonising beat (a DDMTD phase, no exchange), then after `interval_fs`
// an exchange alone whose offset (50 ns, below a coarse time set) asks for
// more than the bound: the SERVO_P it reports.
int32_t servo_p_after(int64_t interval_fs) {
  ClockSyncState s;
  ClockSyncIn in;
  in.cfg.enable = true;
  in.ref_ok = true;
  in.elapsed_fs = int64_t{1000000000} * 1000;  // 1 ms
  in.phase_valid = true;
  ClockSyncOut out;
  clock_sync_step(s, in, out);
  EXPECT_EQ((out.status & hwdef::SYNC_STATUS_STATE_MASK) >> hwdef::SYNC_STATUS_STATE_LSB,
            static_cast<uint32_t>(SyncMode::kCoarse));
  constexpr int64_t kDelayFs = 20000 * kFsPerPs;
  constexpr int64_t kThetaFs = 50000 * kFsPerPs;
  static_assert(kThetaFs < kTimeStepMinFs, "no coarse time set");
  in.elapsed_fs = interval_fs;
  in.phase_valid = false;
  in.exchange_valid = true;
  in.t1_fs = 0;
  in.t2_fs = kDelayFs + kThetaFs;
  in.t3_fs = kDelayFs + kThetaFs;
  in.t4_fs = 2 * kDelayFs;
  clock_sync_step(s, in, out);
  EXPECT_NE(out.status & hwdef::SYNC_STATUS_SLEWING_MASK, 0u);
  return out.servo_p_ps;
}

// A reference loss restarts the interval too: time before the loss that no
// sample used does not widen the first bound after the link returns.
int32_t servo_p_after_loss(int64_t interval_fs) {
  ClockSyncState s;
  ClockSyncIn in;
  in.cfg.enable = true;
  in.ref_ok = true;
  in.elapsed_fs = int64_t{1000000000} * 1000;  // 1 ms up, no sample
  ClockSyncOut out;
  clock_sync_step(s, in, out);
  in.ref_ok = false;  // lost for 1 ms
  clock_sync_step(s, in, out);
  EXPECT_NE(out.status & hwdef::SYNC_STATUS_HOLDOVER_MASK, 0u);
  constexpr int64_t kDelayFs = 20000 * kFsPerPs;
  constexpr int64_t kThetaFs = 50000 * kFsPerPs;
  in.ref_ok = true;
  in.elapsed_fs = interval_fs;
  in.exchange_valid = true;
  in.t1_fs = 0;
  in.t2_fs = kDelayFs + kThetaFs;
  in.t3_fs = kDelayFs + kThetaFs;
  in.t4_fs = 2 * kDelayFs;
  clock_sync_step(s, in, out);
  return out.servo_p_ps;
}

TEST(HlsSyncSampleInterval, AfterAReferenceLossTheSlewBoundCountsFromTheReturn) {
  EXPECT_EQ(servo_p_after_loss(kIntervalFs), -1000);
  EXPECT_EQ(servo_p_after_loss(kIntervalFs + 1), -1001);
}

TEST(HlsSyncSampleInterval, AnExchangeAfterASyntonisingBeatSlewsBySlewMaxOverTheTimeSinceIt) {
  EXPECT_EQ(servo_p_after(kIntervalFs), -1000);
  EXPECT_EQ(servo_p_after(kIntervalFs + 1), -1001);
}

}  // namespace
}  // namespace lightrail::sync::test
