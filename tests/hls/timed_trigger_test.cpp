// Timed triggers: boards told one board time take one boundary together.
#include <gtest/gtest.h>

#include <algorithm>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint32_t kGuard = 5;
constexpr uint64_t kT0 = 100 * FINE_STEPS;
constexpr uint64_t kFine = FINE_STEPS;

TestImage with_event_step() {  // step 0 waits for a trigger after at least 200 ticks
  TestImage img;
  img.configs = {ports({{0, 1}}), ports({{0, 2}})};
  img.steps = {{200, 0, true}, {300, 1}};
  img.guard_ticks = kGuard;
  return img;
}

// A board waiting in its event step, started at kT0 + phase.
void start(Board& board, uint64_t phase) {
  board.load_bank(1, build_image(with_event_step()));
  board.commit_at(kT0 + phase);
  board.run_until_tick(kT0 + 2000);
  ASSERT_TRUE(board.status(STATUS_WAITING_TRIGGER_MASK));
}

uint64_t boundary_after_trigger(const Board& board) {
  const std::vector<uint64_t> rises = board.ticks_of(EdgeKind::kRise, 0);
  EXPECT_GE(rises.size(), 2u);
  return rises.size() >= 2 ? rises[1] - kGuard : 0;
}

TEST(SequencerTimedTrigger, TheBoundaryFallsExactlyOnTheNamedTimeOnEveryBoard) {
  // Any tick, not only a cycle boundary, and boards whose steps began at
  // different ticks: one named time, one boundary.
  const uint64_t at = kT0 + 5000 + 7;
  for (const uint64_t phase : {0u, 3u, 17u, 31u}) {
    SCOPED_TRACE(phase);
    Board board;
    start(board, phase);
    board.trigger_at(at);
    board.run(2);
    EXPECT_FALSE(board.status(STATUS_WAITING_TRIGGER_MASK)) << "resolved as soon as it is registered";
    EXPECT_EQ(board.out().triggered_at_ticks, at);
    EXPECT_EQ(board.out().triggers, 1u);
    board.run_until_tick(at + 400);
    EXPECT_EQ(boundary_after_trigger(board), at);
    const std::vector<uint64_t> selects = board.ticks_of(EdgeKind::kSelect, 0);
    EXPECT_NE(std::find(selects.begin(), selects.end(), at - test_tune(1, 2)), selects.end())
        << "tuned early";
    EXPECT_EQ(board.out().missed, 0u);
  }
}

TEST(SequencerTimedTrigger, ATimeBeforeTheMinimumOrTooCloseIsTakenAsSoonAsAllowed) {
  Board board;
  start(board, 0);
  const uint64_t trigger_cycle = board.now();
  board.trigger_at(trigger_cycle - 1000);  // in the past: as an immediate trigger
  const uint64_t t1 = trigger_cycle + kTriggerLeadCycles * kFine + test_tune(1, 2);
  board.run_until_tick(t1 + 100);
  EXPECT_EQ(boundary_after_trigger(board), t1);
  EXPECT_EQ(board.out().triggered_at_ticks, t1);
  EXPECT_EQ(board.out().missed, 0u);

  // Before anything runs, a time ahead of the event step's minimum end:
  // latched, then the minimum end decides.
  Board early;
  early.load_bank(1, build_image(with_event_step()));
  early.trigger_at(kT0 + 50);
  early.commit_at(kT0);
  early.run_until_tick(kT0 + 600);
  EXPECT_EQ(boundary_after_trigger(early), kT0 + 200);
}

TEST(SequencerTimedTrigger, AnImmediateTriggerOverridesALatchedTimedOne) {
  // Latched before the event step: the earlier of the two wins.
  Board board;
  board.load_bank(1, build_image(with_event_step()));
  board.trigger_at(kT0 + 100000);
  board.trigger();
  board.commit_at(kT0);
  board.run_until_tick(kT0 + 600);
  EXPECT_EQ(boundary_after_trigger(board), kT0 + 200);
  // ...and a timed one does not replace a latched immediate one.
  Board other;
  other.load_bank(1, build_image(with_event_step()));
  other.trigger();
  other.trigger_at(kT0 + 100000);
  other.commit_at(kT0);
  other.run_until_tick(kT0 + 600);
  EXPECT_EQ(boundary_after_trigger(other), kT0 + 200);
}

}  // namespace
}  // namespace lightrail::seq::test
