// The hand-over to the DDMTD (TRACK -> FINE) at its edge: it is taken when
// the DDMTD-refined offset is within twice the lock threshold of the
// exchange's, and refused one femtosecond beyond (docs/clock-sync.md).
// Mutation testing found the edge untested (docs/mutation.md).
#include <gtest/gtest.h>

#include <cstdint>

#include "clock_sync/clock_sync.hpp"

namespace lightrail::sync::test {
namespace {

// Updates with a symmetric exchange (offset 0) whose one-way delay is
// `delay_fs`, and a still DDMTD phase of 0 (lead 0): the refined offset is
// then -delay_fs, so it differs from the exchange's by delay_fs. The servo
// syntonises first and takes the whole-period count only once the phase has
// held still for the exchange's age, so the hand-over comes a few updates in.
bool fine_after(int64_t delay_fs, uint32_t lock_thresh_ps) {
  ClockSyncState s;
  ClockSyncIn in;
  in.cfg.enable = true;
  in.cfg.lock_thresh_ps = lock_thresh_ps;
  in.ref_ok = true;
  in.elapsed_fs = int64_t{1000000000} * 1000;  // 1 ms: the slew bound allows the first correction whole
  in.exchange_valid = true;
  in.t1_fs = 0;
  in.t2_fs = delay_fs;
  in.t3_fs = delay_fs;
  in.t4_fs = 2 * delay_fs;
  in.phase_valid = true;
  in.ddmtd_phase = 0;
  for (int update = 0; update < 8; ++update) {
    ClockSyncOut out;
    clock_sync_step(s, in, out);
    EXPECT_EQ(out.errors, 0u);
    if (out.status & hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK) return true;
  }
  return false;
}

TEST(HlsSyncHandover, TheDdmtdIsTakenWithinTwiceTheLockThresholdOfTheExchange) {
  constexpr uint32_t kThreshPs = 10;
  constexpr int64_t kEdgeFs = 2 * int64_t{kThreshPs} * 1000;
  EXPECT_TRUE(fine_after(kEdgeFs / 2, kThreshPs));
  EXPECT_TRUE(fine_after(kEdgeFs, kThreshPs));
  EXPECT_FALSE(fine_after(kEdgeFs + 1, kThreshPs));
}

}  // namespace
}  // namespace lightrail::sync::test
