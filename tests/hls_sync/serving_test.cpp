// A boundary clock's quality in its frames (issue 26): its children follow
// while its time is valid, locked or not, and tell whose fault a holdover
// is; a serving boundary clock re-acquires slowly enough for them to track.
#include <gtest/gtest.h>

#include "loop_runner.hpp"

namespace lightrail::sync::test {
namespace {

constexpr uint32_t kLocked = 1u << hwdef::SYNC_FLAG_LOCKED_BIT;
constexpr uint32_t kValid = 1u << hwdef::SYNC_FLAG_TIME_VALID_BIT;
constexpr uint32_t kHoldover = 1u << hwdef::SYNC_FLAG_HOLDOVER_BIT;

bool has(uint32_t word, uint32_t mask) { return (word & mask) != 0; }

TEST(HlsSync, AReferenceWhoseTimeIsNotValidYetIsNotFollowed) {
  PlantConfig pc;
  pc.seed = 31;
  Loop loop(pc);
  loop.parent_flags = 0;  // the reference is still acquiring
  loop.run_us(2000);
  EXPECT_EQ(state_of(loop.out), uint32_t(SyncMode::kFreeRun));
  EXPECT_FALSE(has(loop.out.status, hwdef::SYNC_STATUS_TIME_VALID_MASK));
  EXPECT_TRUE(has(loop.out.status, hwdef::SYNC_STATUS_REF_OK_MASK));  // its own link is fine
  EXPECT_EQ(loop.out.errors & (hwdef::SYNC_ERROR_PARENT_LOST_MASK | hwdef::SYNC_ERROR_REF_LOST_MASK), 0u);
  loop.parent_flags = kLocked | kValid;
  loop.run_us(2000);
  ASSERT_GT(loop.lock_us, 0);
  EXPECT_TRUE(has(loop.out.status, hwdef::SYNC_STATUS_TIME_VALID_MASK));
}

TEST(HlsSync, ADegradedReferenceIsFollowedAndAnInvalidOneIsItsFault) {
  PlantConfig pc;
  pc.seed = 32;
  Loop loop(pc);
  loop.run_us(2000);
  ASSERT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked));
  const uint32_t errors = loop.out.errors;

  // Re-acquiring, then in holdover: followed, locked, flagged as the
  // reference's state only.
  loop.parent_flags = kValid;
  loop.run_us(500);
  EXPECT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked));
  EXPECT_TRUE(has(loop.out.status, hwdef::SYNC_STATUS_PARENT_DEGRADED_MASK));
  EXPECT_FALSE(has(loop.out.status, hwdef::SYNC_STATUS_PARENT_HOLDOVER_MASK));
  loop.parent_flags = kValid | kHoldover;
  loop.run_us(500);
  EXPECT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked));
  EXPECT_TRUE(has(loop.out.status, hwdef::SYNC_STATUS_PARENT_DEGRADED_MASK));
  EXPECT_TRUE(has(loop.out.status, hwdef::SYNC_STATUS_PARENT_HOLDOVER_MASK));
  EXPECT_EQ(loop.out.errors, errors);

  // The reference's time declared invalid: holdover, PARENT_LOST, not REF_LOST.
  loop.parent_flags = 0;
  loop.run_us(300);
  EXPECT_EQ(state_of(loop.out), uint32_t(SyncMode::kHoldover));
  EXPECT_TRUE(has(loop.out.errors, hwdef::SYNC_ERROR_PARENT_LOST_MASK));
  EXPECT_FALSE(has(loop.out.errors, hwdef::SYNC_ERROR_REF_LOST_MASK));
  EXPECT_TRUE(has(loop.out.status, hwdef::SYNC_STATUS_TIME_VALID_MASK));  // it serves what it holds
  EXPECT_TRUE(has(loop.out.status, hwdef::SYNC_STATUS_REF_OK_MASK));

  // Valid again: re-locks. Then its own link goes: REF_LOST.
  loop.parent_flags = kLocked | kValid;
  loop.lock_us = -1;
  loop.run_us(2000);
  EXPECT_GT(loop.lock_us, 0);
  loop.state.errors = 0;
  loop.run_us(300, /*ref_ok=*/false);
  EXPECT_EQ(state_of(loop.out), uint32_t(SyncMode::kHoldover));
  EXPECT_TRUE(has(loop.out.errors, hwdef::SYNC_ERROR_REF_LOST_MASK));
  EXPECT_FALSE(has(loop.out.errors, hwdef::SYNC_ERROR_PARENT_LOST_MASK));
  EXPECT_FALSE(has(loop.out.status, hwdef::SYNC_STATUS_PARENT_DEGRADED_MASK));  // nothing heard
}

// The largest move of the board's time over any window of `window_us`, ps,
// from a trace of one smoothed offset per update.
double largest_move_ps(const std::vector<double>& xs, double window_us) {
  const size_t w = size_t(window_us * 1e6 / Plant::kUpdatePs);
  double most = 0;
  for (size_t i = w; i < xs.size(); ++i) most = std::max(most, std::fabs(xs[i] - xs[i - w]));
  return most;
}

struct Reacquired {
  std::vector<double> xs;
  double final_ps = 0, relock_us = -1;
};

Reacquired step_and_follow(bool serves) {
  PlantConfig pc;
  pc.seed = 33;
  Loop loop(pc);
  loop.cfg.serves = serves;
  loop.run_us(2000);
  EXPECT_EQ(state_of(loop.out), uint32_t(SyncMode::kLocked));
  const double x0 = loop.plant.smooth_offset_ps();
  loop.plant.step_delay(2500, 0);  // a one-way step beyond a quarter period
  Reacquired r;
  const int n = int(9000e6 / Plant::kUpdatePs);
  bool unlocked = false;
  for (int i = 0; i < n; ++i) {
    loop.run_us(Plant::kUpdatePs * 1e-6);
    r.xs.push_back(loop.plant.smooth_offset_ps() - x0);
    const bool locked = has(loop.out.status, hwdef::SYNC_STATUS_LOCKED_MASK);
    unlocked |= !locked;
    if (unlocked && locked && r.relock_us < 0) r.relock_us = double(i + 1) * Plant::kUpdatePs * 1e-6;
  }
  r.final_ps = r.xs.back();
  EXPECT_TRUE(has(loop.out.errors, hwdef::SYNC_ERROR_DELAY_STEP_MASK));
  EXPECT_GT(loop.min_advance_ps, 0.0) << "board time ran backwards";
  return r;
}

TEST(HlsSync, AServingBoundaryClockReacquiresAtTheServingSlew) {
  const double rate_ps_per_ms = double(hwdef::SYNC_SERVING_SLEW_PPB) * 1e-9 * 1e-3 * 1e12;
  const Reacquired serving = step_and_follow(true);
  const Reacquired leaf = step_and_follow(false);
  // Both end where the exchange puts them (half the one-way step), and in
  // the same place.
  EXPECT_NEAR(serving.final_ps, -1250, 25);
  EXPECT_NEAR(serving.final_ps, leaf.final_ps, 5);
  // The serving board never moves faster than the serving slew (plus an MMCM
  // step and the loop's noise); the leaf moves the whole way within 1 ms.
  EXPECT_LT(largest_move_ps(serving.xs, 1000), rate_ps_per_ms + 40);
  EXPECT_GT(largest_move_ps(leaf.xs, 1000), 1000);
  // Unlocked until its setpoint has slewed: 1.25 ns at 250 ppb is 5 ms.
  EXPECT_GT(serving.relock_us, 1250 / rate_ps_per_ms * 1000 * 0.9);
  EXPECT_LT(serving.relock_us, 1250 / rate_ps_per_ms * 1000 + 1000);
  EXPECT_LT(leaf.relock_us, 1000);
}

}  // namespace
}  // namespace lightrail::sync::test
