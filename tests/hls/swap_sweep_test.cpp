// An at-time swap lands on the first boundary of the running schedule at or
// after the commit time, wherever the commit time falls and whatever the
// prefetch queue holds when the commit is issued: a sweep of both, against
// the schedule's own boundaries. Mutation testing found the queue-state
// paths of the at-time swap untested by the four hand-picked cases
// (docs/mutation.md).
#include <gtest/gtest.h>

#include "board_harness.hpp"
#include "swap_schedule.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint32_t kGuard = 5;
constexpr uint64_t kT0 = 100 * FINE_STEPS;
// Short and uneven steps keep the queue in every state (one, two or three
// boundaries ahead) at one moment or another.
constexpr uint64_t kMin = uint64_t{MIN_STEP_CYCLES} * FINE_STEPS;
const std::vector<uint64_t> kOld = {kMin + 32, 2 * kMin, kMin, 2 * kMin + 64, kMin + 72};
constexpr uint64_t kOldPeriod = 7 * kMin + 168;
// Far enough ahead for verification and the commit lead (SequencerCommit).
constexpr uint64_t kAhead = 1200;

TestImage old_schedule() {
  TestImage img;
  img.configs = {ports({{0, 1}}), ports({{0, 2}})};
  for (size_t k = 0; k < kOld.size(); ++k) img.steps.push_back({kOld[k], uint32_t(k % 2)});
  img.guard_ticks = kGuard;
  img.generation = 3;
  return img;
}

// The first old boundary at or after `t`.
uint64_t first_boundary_from(uint64_t t) {
  uint64_t b = kT0;
  for (size_t k = 0; b < t; ++k) b += kOld[k % kOld.size()];
  return b;
}

TEST(SequencerSwapSweep, EveryCommitTimeLandsOnTheFirstBoundaryAtOrAfterIt) {
  int cases = 0;
  for (uint64_t issue = kT0 + kOldPeriod; issue < kT0 + 2 * kOldPeriod; issue += 3 * FINE_STEPS) {
    for (uint64_t at = issue + kAhead; at < issue + kAhead + kOldPeriod; at += 17) {
      Board board;
      board.load_bank(1, build_image(old_schedule()));
      board.commit_at(kT0);
      board.run_until_tick(issue);
      board.load_bank(0, build_image(new_schedule(kGuard)));
      board.commit_at(at);
      const uint64_t swap = first_boundary_from(at);
      board.run_until_tick(swap + 2000);
      ASSERT_EQ(board.out().last_swap_ticks, swap) << "commit issued at " << issue << " for " << at;
      ASSERT_EQ(board.out().generation, 7u) << "commit issued at " << issue << " for " << at;
      ASSERT_EQ(board.out().errors, 0u) << "commit issued at " << issue << " for " << at;
      ASSERT_EQ(board.out().missed, 0u) << "commit issued at " << issue << " for " << at;
      ++cases;
    }
  }
  EXPECT_GT(cases, 200);
}

}  // namespace
}  // namespace lightrail::seq::test
