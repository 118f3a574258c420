// An at-time swap committed while an event step waits for its trigger lands
// on the first boundary at or after the commit time once the trigger ends the
// step: a sweep of trigger and commit times around the two boundaries that
// follow. Mutation testing found this reach path untested (docs/mutation.md).
#include <gtest/gtest.h>

#include <algorithm>

#include "board_harness.hpp"
#include "swap_schedule.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint32_t kGuard = 5;
constexpr uint64_t kT0 = 100 * FINE_STEPS;
constexpr uint64_t kStep1 = 300;  // the ordinary step after the event step
// Far enough ahead for verification and the commit lead (SequencerCommit).
constexpr uint64_t kAhead = 1200;

TestImage with_event_step() {  // step 0 waits for a trigger, then step 1 runs
  TestImage img;
  img.configs = {ports({{0, 1}}), ports({{0, 2}})};
  img.steps = {{200, 0, true}, {kStep1, 1}};
  img.guard_ticks = kGuard;
  img.generation = 3;
  return img;
}

// The board waits in its event step; an at-time commit `at` is pulsed, then
// a timed trigger for `trig`; `verified_first` lets verification finish in
// between. Fails unless the swap lands on the first boundary at or after at.
void swap_lands(uint64_t lead, uint64_t at_back, bool verified_first, bool at_after_trig) {
  Board board;
  board.load_bank(1, build_image(with_event_step()));
  board.commit_at(kT0);
  board.run_until_tick(kT0 + 2000);
  ASSERT_TRUE(board.status(STATUS_WAITING_TRIGGER_MASK));
  board.load_bank(0, build_image(new_schedule(kGuard)));
  const uint64_t trig = board.now() + kAhead + kStep1 + lead;  // the event step's end
  // After trig: up to a step later; else up to a step before it.
  const uint64_t at = at_after_trig ? trig + kStep1 - at_back : trig - at_back;
  board.commit_at(at);
  while (verified_first && board.status(STATUS_VERIFY_BUSY_MASK)) board.run(1);
  board.trigger_at(trig);
  // The step after the trigger ends at trig + kStep1; the event step after
  // it waits for a trigger that never comes.
  const uint64_t swap = at <= trig ? trig : trig + kStep1;
  board.run_until_tick(trig + kStep1 + 2000);
  ASSERT_EQ(board.out().triggered_at_ticks, trig);
  ASSERT_EQ(board.out().last_swap_ticks, swap) << "trigger at " << trig << ", commit at " << at;
  ASSERT_EQ(board.out().generation, 7u) << "trigger at " << trig << ", commit at " << at;
  ASSERT_EQ(board.out().errors, 0u);
  ASSERT_EQ(board.out().missed, 0u);
  // Port 0 retunes to the new schedule's wavelength 5 from the one it had
  // before the swap: 1 in the event step, 2 in the step after it. Its fall
  // and select come that transition's tune ahead (docs/sequencer.md,
  // "Walking"), so a swap planned from a dropped boundary's port state
  // shows here.
  const uint32_t before = swap == trig ? 1 : 2;
  const uint64_t retune = swap - test_tune(before, 5);
  const std::vector<Edge> edges = board.edges_of(0);
  const Edge select{EdgeKind::kSelect, 0, retune, 5};
  const Edge fall{EdgeKind::kFall, 0, retune};
  ASSERT_EQ(std::count(edges.begin(), edges.end(), select), 1)
      << "trigger at " << trig << ", commit at " << at;
  ASSERT_EQ(std::count(edges.begin(), edges.end(), fall), 1) << "trigger at " << trig << ", commit at " << at;
}

void sweep(bool verified_first, bool at_after_trig) {
  int cases = 0;
  for (uint64_t lead = 0; lead < 400; lead += 37) {
    for (uint64_t at_back = 0; at_back < kStep1; at_back += 23) {
      SCOPED_TRACE(testing::Message() << "lead " << lead << ", at_back " << at_back);
      swap_lands(lead, at_back, verified_first, at_after_trig);
      if (testing::Test::HasFatalFailure()) return;
      ++cases;
    }
  }
  EXPECT_GT(cases, 100);
}

// The trigger resolves the event step while the commit verifies; the commit
// time falls in the step after the triggered boundary.
TEST(SequencerEventSwap, ACommitTimeAfterTheTriggeredBoundaryLandsOnTheNextOne) { sweep(false, true); }

// Issue 27: the kernel failed these two before the trigger fixed cur's end
// and re-made room for the swap (docs/sequencer.md, "Event-triggered steps").
TEST(SequencerEventSwap, ACommitTimeAtOrBeforeTheTriggeredBoundaryLandsOnIt) { sweep(false, false); }
TEST(SequencerEventSwap, ACommitVerifiedBeforeTheTriggerLandsOnTheFirstBoundaryAtOrAfterIt) {
  sweep(true, true);
}
TEST(SequencerEventSwap, ACommitVerifiedBeforeTheTriggerAtOrBeforeItsBoundaryLandsOnIt) {
  sweep(true, false);
}

// An immediate trigger fixes a boundary a few cycles ahead: too close to
// replace by the swap (kCommitLeadCycles), so the swap lands on the first
// boundary at or after the commit time that is at least that far from the
// trigger. With a long step after the event step that is its end, for a
// commit time before, at or after the triggered boundary.
TEST(SequencerEventSwap, AnImmediateTriggerMovesTheSwapToTheFirstBoundaryFarEnoughAhead) {
  constexpr uint64_t kLong = 2000;
  static_assert(kLong > kCommitLeadCycles * FINE_STEPS, "the step's end is far enough ahead");
  int cases = 0;
  for (uint64_t back = 0; back < kCommitLeadCycles * FINE_STEPS; back += 29) {
    SCOPED_TRACE(testing::Message() << "trigger " << back << " ticks before the commit time");
    Board board;
    TestImage first = with_event_step();
    first.steps[1].duration_ticks = kLong;
    board.load_bank(1, build_image(first));
    board.commit_at(kT0);
    board.run_until_tick(kT0 + 2000);
    ASSERT_TRUE(board.status(STATUS_WAITING_TRIGGER_MASK));
    board.load_bank(0, build_image(new_schedule(kGuard)));
    const uint64_t at = board.now() + kAhead;
    board.commit_at(at);
    while (board.status(STATUS_VERIFY_BUSY_MASK)) board.run(1);
    board.run_until_tick(at - back);
    board.trigger();
    board.run(4);
    const uint64_t trig = board.out().triggered_at_ticks;
    ASSERT_GT(trig, at - back);
    board.run_until_tick(trig + kLong + 2000);
    ASSERT_EQ(board.out().last_swap_ticks, trig + kLong) << "trigger at " << trig << ", commit at " << at;
    ASSERT_EQ(board.out().generation, 7u);
    ASSERT_EQ(board.out().errors, 0u);
    ASSERT_EQ(board.out().missed, 0u);
    ++cases;
  }
  EXPECT_GT(cases, 10);
}

// A trigger that comes before the event step's own duration is over leaves
// the step's end where the duration puts it; an at-time commit pending then
// lands on the first boundary at or after its time, here the one after the
// prefetched boundary. The trigger sweeps every cycle up to the last one
// that still leaves the end in place: that one resolves the boundary in the
// very cycle that also takes it, when the swap decision for the boundary
// after the prefetched one is made from flags of that same cycle.
TEST(SequencerEventSwap, ATriggerBeforeTheEventStepsEndLeavesTheSwapOnTheFirstBoundaryAtOrAfterIt) {
  constexpr uint64_t kEvent = 2000;  // the event step's own duration
  constexpr uint64_t kStep = 300;
  TestImage first;
  first.configs = {ports({{0, 1}}), ports({{0, 2}})};
  first.steps = {{kEvent, 0, true}, {kStep, 1}, {kStep, 0}, {kStep, 1}};
  first.guard_ticks = kGuard;
  first.generation = 3;
  const uint64_t end = kT0 + kEvent;
  // Mid-cycle and past the transition's tune, so a trigger cycle exists
  // whose resolution keeps the end and takes the boundary at once.
  static_assert((kT0 + kEvent) % FINE_STEPS > 4 + 1, "the end lies past the tune within its cycle");
  int cases = 0;
  bool crossed = false;
  for (uint64_t trig = end - 16 * FINE_STEPS; !crossed; trig += FINE_STEPS) {
    for (uint64_t at = end + kStep + 1; at <= end + 2 * kStep; at += 37) {
      SCOPED_TRACE(testing::Message() << "trigger pulsed at " << trig << ", commit at " << at);
      Board board;
      board.load_bank(1, build_image(first));
      board.commit_at(kT0);
      board.run_until_tick(kT0 + 200);
      board.load_bank(0, build_image(new_schedule(kGuard)));
      board.commit_at(at);
      board.run_until_tick(trig);
      ASSERT_TRUE(board.status(STATUS_COMMIT_PENDING_MASK));
      board.trigger();
      board.run_until_tick(end + 3 * kStep + 2000);
      if (board.out().triggered_at_ticks != end) {
        crossed = true;  // the trigger now moves the end: the sweep is over
        break;
      }
      ASSERT_EQ(board.out().last_swap_ticks, end + 2 * kStep);
      ASSERT_EQ(board.out().generation, 7u);
      ASSERT_EQ(board.out().errors, 0u);
      ASSERT_EQ(board.out().missed, 0u);
      ++cases;
    }
    ASSERT_LT(trig, end) << "a trigger at the end itself cannot keep it";
  }
  EXPECT_GT(cases, 100);
}

// An immediate trigger puts the event step's end a few cycles ahead; with a
// commit time past the long step after it, the boundary that ends that step
// comes before the commit time and stays the running schedule's. The swap
// waits for the first boundary at or after the commit time: the end of the
// next event step, once a second trigger fixes it.
TEST(SequencerEventSwap, AnImmediateTriggerLeavesABoundaryBeforeTheCommitTimeToTheRunningSchedule) {
  constexpr uint64_t kLong = 2000;
  constexpr uint64_t kEvent = 200;  // with_event_step's event step, at least
  int cases = 0;
  for (uint64_t past = 110; past < kEvent; past += 20) {
    SCOPED_TRACE(testing::Message() << "commit time " << past << " ticks past the pulse plus the long step");
    Board board;
    TestImage first = with_event_step();
    first.steps[1].duration_ticks = kLong;
    board.load_bank(1, build_image(first));
    board.commit_at(kT0);
    board.run_until_tick(kT0 + 2000);
    ASSERT_TRUE(board.status(STATUS_WAITING_TRIGGER_MASK));
    board.load_bank(0, build_image(new_schedule(kGuard)));
    const uint64_t pulse = board.now() + kAhead;
    const uint64_t at = pulse + kLong + past;
    board.commit_at(at);
    while (board.status(STATUS_VERIFY_BUSY_MASK)) board.run(1);
    board.run_until_tick(pulse);
    board.trigger();
    board.run(4);
    const uint64_t trig = board.out().triggered_at_ticks;
    ASSERT_GE(trig, pulse);
    ASSERT_LT(trig + kLong, at);           // the long step's end: before the commit time
    ASSERT_GE(trig + kLong + kEvent, at);  // the next event step's end: not before it
    board.run_until_tick(trig + kLong + 2000);
    ASSERT_EQ(board.out().generation, 3u) << "trigger at " << trig << ", commit at " << at;
    ASSERT_EQ(board.out().last_swap_ticks, kT0);
    ASSERT_TRUE(board.status(STATUS_COMMIT_PENDING_MASK));
    board.trigger();
    board.run(4);
    const uint64_t trig2 = board.out().triggered_at_ticks;
    board.run_until_tick(trig2 + 2000);
    ASSERT_EQ(board.out().last_swap_ticks, trig2) << "trigger at " << trig << ", commit at " << at;
    ASSERT_EQ(board.out().generation, 7u);
    ASSERT_EQ(board.out().errors, 0u);
    ASSERT_EQ(board.out().missed, 0u);
    ++cases;
  }
  EXPECT_GT(cases, 3);
}

}  // namespace
}  // namespace lightrail::seq::test
