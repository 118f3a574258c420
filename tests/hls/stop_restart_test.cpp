// After a STOP the board is idle, not half-stopped: a schedule committed
// afterwards runs as it would on a board that never ran one (the commit
// accepted, the same gate edges at the same ticks, the same selects; only a
// select's tick may differ, since a dark port's laser keeps the wavelength
// it had and tunes from there). Mutation testing found the
// STOP's clean-up untested (docs/mutation.md).
#include <gtest/gtest.h>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint64_t kT0 = 100 * FINE_STEPS;
constexpr uint64_t kIdleAt = kT0 + 5000;  // the first schedule has stopped by then
constexpr uint64_t kT1 = kT0 + 6000;      // the second one starts

TestImage first() {
  TestImage img;
  img.configs = {ports({{0, 1}, {1, 9}}), ports({{0, 2}, {1, 9}})};
  img.steps = {{400, 0}, {800, 1}};
  img.guard_ticks = 5;
  return img;
}

// Lights the ports the first schedule left lit, on other wavelengths, and
// one it never used.
TestImage second() {
  TestImage img;
  img.configs = {ports({{0, 5}, {1, 12}, {2, 3}}), ports({{0, 6}, {2, 4}})};
  img.steps = {{600, 0}, {600, 1}};
  img.guard_ticks = 7;
  img.generation = 2;
  return img;
}

// The edges from `tick` on, select ticks left out.
std::vector<Edge> edges_from(const Board& board, uint64_t tick) {
  std::vector<Edge> out;
  for (Edge e : board.edges) {
    if (e.tick < tick) continue;
    if (e.kind == EdgeKind::kSelect) e.tick = 0;
    out.push_back(e);
  }
  return out;
}

TEST(SequencerStopRestart, AScheduleCommittedAfterAStopRunsAsOnAFreshBoard) {
  Board stopped;
  stopped.load_bank(1, build_image(first()));
  stopped.commit_at(kT0);
  stopped.run_until_tick(kT0 + 1300);
  stopped.stop();
  stopped.run_until_tick(kIdleAt);
  ASSERT_FALSE(stopped.status(STATUS_RUNNING_MASK));
  stopped.load_bank(0, build_image(second()));
  stopped.commit_at(kT1);
  stopped.run_until_tick(kT1 + 3000);

  Board fresh;
  fresh.run_until_tick(kIdleAt);
  fresh.load_bank(1, build_image(second()));
  fresh.commit_at(kT1);
  fresh.run_until_tick(kT1 + 3000);

  EXPECT_EQ(stopped.out().errors, 0u);
  EXPECT_TRUE(stopped.status(STATUS_RUNNING_MASK));
  EXPECT_EQ(stopped.out().generation, 2u);
  const std::vector<Edge> expected = edges_from(fresh, kIdleAt);
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(edges_from(stopped, kIdleAt), expected);
}

}  // namespace
}  // namespace lightrail::seq::test
