// Control pulses: commit timing limits, event-triggered steps, STOP.
#include <gtest/gtest.h>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint32_t kGuard = 5;
constexpr uint64_t kT0 = 100 * FINE_STEPS;
constexpr uint64_t kFine = FINE_STEPS;

TestImage alternating() {
  TestImage img;
  img.configs = {ports({{0, 1}, {1, 9}}), ports({{0, 2}, {1, 9}})};
  img.steps = {{400, 0}, {800, 1}};
  img.guard_ticks = kGuard;
  img.generation = 3;
  return img;
}

// Lines the checker reads for alternating(): header, 2 configs, 1 step line.
constexpr uint64_t kVerifyCycles = IMG_HEADER_WORDS / BANK_LINE_WORDS + 2 + 1;
// The lead docs/sequencer.md promises the host (16 cycles = 512 ticks), typed
// here rather than read from the kernel, so a change of the kernel's constant
// fails this test instead of moving its expectation with it.
constexpr uint64_t kDocumentedCommitLeadCycles = 16;
constexpr uint64_t kLeadTicks = (kVerifyCycles + kDocumentedCommitLeadCycles) * kFine;

TEST(SequencerCommit, AtTimeNeedsVerificationPlusTheCommitLead) {
  Board board;
  board.load_bank(1, build_image(alternating()));
  board.run(10);
  board.commit_at(board.now() + kLeadTicks - 1);
  board.run(kVerifyCycles + 1);
  EXPECT_EQ(board.out().errors, ERROR_COMMIT_LATE_MASK);
  EXPECT_FALSE(board.status(STATUS_COMMIT_PENDING_MASK));
  board.run(100);
  EXPECT_FALSE(board.status(STATUS_RUNNING_MASK));
  EXPECT_EQ(board.out().swaps, 0u);

  board.cycle([] {
    SequencerIn in;
    in.clear_errors = ERROR_COMMIT_LATE_MASK;
    return in;
  }());
  const uint64_t start = board.now() + kLeadTicks;
  board.commit_at(start);
  board.run_until_tick(start + 100);
  EXPECT_EQ(board.out().errors, 0u);
  EXPECT_EQ(board.out().last_swap_ticks, start);
  EXPECT_EQ(board.ticks_of(EdgeKind::kRise, 0), std::vector<uint64_t>{start + kGuard});
}

TEST(SequencerCommit, TimeInThePastIsDroppedAndTheScheduleRunsOn) {
  Board board;
  board.load_bank(1, build_image(alternating()));
  board.commit_at(kT0);
  board.run_until_tick(kT0 + 1300);
  TestImage other = alternating();
  other.generation = 4;
  board.load_bank(0, build_image(other));
  board.commit_at(board.now() - 100);
  const uint64_t until = kT0 + 5 * 1200 + 100;
  board.run_until_tick(until);
  EXPECT_EQ(board.out().errors, ERROR_COMMIT_LATE_MASK);
  EXPECT_EQ(board.out().generation, 3u);
  EXPECT_TRUE(board.status(STATUS_ACTIVE_BANK_MASK));
  EXPECT_EQ(board.out().swaps, 1u);
  EXPECT_EQ(board.ticks_of(EdgeKind::kRise, 0).size(), 11u)
      << "2 boundaries a pass for 5 passes, then the 6th pass starts";
}

TestImage with_event_step() {
  TestImage img;
  img.configs = {ports({{0, 1}}), ports({{0, 2}})};
  img.steps = {{200, 0, true}, {300, 1}};
  img.guard_ticks = kGuard;
  return img;
}

TEST(SequencerEvent, StepWaitsForTheTriggerThenSwitchesAsEarlyAsTuningAllows) {
  Board board;
  board.load_bank(1, build_image(with_event_step()));
  board.commit_at(kT0);
  board.run_until_tick(kT0 + 2000);
  EXPECT_TRUE(board.status(STATUS_WAITING_TRIGGER_MASK));
  EXPECT_EQ(board.out().steps, 1u);
  EXPECT_EQ(board.out().cur_step, 0u);
  EXPECT_EQ(board.ticks_of(EdgeKind::kRise, 0), std::vector<uint64_t>{kT0 + kGuard});

  const uint64_t trigger_cycle = board.now();
  board.trigger();
  const uint64_t t1 = trigger_cycle + kTriggerLeadCycles * kFine + test_tune(1, 2);
  board.run_until_tick(t1 + 100);
  EXPECT_FALSE(board.status(STATUS_WAITING_TRIGGER_MASK));
  EXPECT_EQ(board.out().cur_step, 1u);
  const std::vector<Edge> expected = {
      {EdgeKind::kSelect, 0, kT0 - test_tune(0, 1), 1},
      {EdgeKind::kRise, 0, kT0 + kGuard},
      {EdgeKind::kSelect, 0, t1 - test_tune(1, 2), 2},
      {EdgeKind::kFall, 0, t1 - test_tune(1, 2)},
      {EdgeKind::kRise, 0, t1 + kGuard},
  };
  EXPECT_EQ(board.edges_of(0), expected);
  EXPECT_EQ(board.out().missed, 0u);
}

TEST(SequencerEvent, EarlyTriggerIsLatchedForTheNextEventStep) {
  Board board;
  board.load_bank(1, build_image(with_event_step()));
  board.trigger();  // before anything runs: used by the first event step
  board.commit_at(kT0);
  board.run_until_tick(kT0 + 200 + 300 + 50);  // into the second pass's event step
  board.trigger();                             // used by that step
  board.run_until_tick(kT0 + 3000);
  // Both event steps end at their minimum duration; the third waits.
  const std::vector<uint64_t> expected = {kT0 + kGuard, kT0 + 200 + kGuard, kT0 + 500 + kGuard,
                                          kT0 + 700 + kGuard, kT0 + 1000 + kGuard};
  EXPECT_EQ(board.ticks_of(EdgeKind::kRise, 0), expected);
  EXPECT_TRUE(board.status(STATUS_WAITING_TRIGGER_MASK));
}

TEST(SequencerStop, AllGatesFallAtTheNextBoundaryAndNothingRisesAgain) {
  Board board;
  board.load_bank(1, build_image(alternating()));
  board.commit_at(kT0);
  board.run_until_tick(kT0 + 1200 + 100);  // in step 0 of pass 2, which ends at +1600
  board.stop();
  const size_t edges_before = board.edges.size();
  board.run_until_tick(kT0 + 5000);
  const uint64_t t = kT0 + 1600;
  const std::vector<Edge> expected = {{EdgeKind::kFall, 0, t}, {EdgeKind::kFall, 1, t}};
  EXPECT_EQ(std::vector<Edge>(board.edges.begin() + edges_before, board.edges.end()), expected);
  EXPECT_FALSE(board.status(STATUS_RUNNING_MASK));
  EXPECT_EQ(board.out().steps, 3u);
  EXPECT_EQ(board.out().cur_step, 0u);
  EXPECT_EQ(board.out().errors, 0u);
}

TEST(SequencerStop, EndsAStepWaitingForATrigger) {
  Board board;
  board.load_bank(1, build_image(with_event_step()));
  board.commit_at(kT0);
  board.run_until_tick(kT0 + 2000);
  ASSERT_TRUE(board.status(STATUS_WAITING_TRIGGER_MASK));
  board.stop();
  board.run(4);
  EXPECT_FALSE(board.status(STATUS_RUNNING_MASK));
  EXPECT_FALSE(board.status(STATUS_WAITING_TRIGGER_MASK));
  const std::vector<uint64_t> falls = board.ticks_of(EdgeKind::kFall, 0);
  ASSERT_EQ(falls.size(), 1u);
  EXPECT_GT(falls[0], kT0 + 2000);
  EXPECT_LT(falls[0], kT0 + 2000 + 4 * kFine);
}

}  // namespace
}  // namespace lightrail::seq::test
