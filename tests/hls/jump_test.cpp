// Jumping triggers (CTRL.TRIGGER_JUMP): the step after the event step is the
// one named, at the boundary the trigger resolved; a jump to step 0 counts a
// pass (EPOCHS); a step outside the running schedule is refused and changes
// nothing.
#include <gtest/gtest.h>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint32_t kGuard = 5;
constexpr uint64_t kT0 = 100 * FINE_STEPS;

// Two phases, each an event step and a timed round: port 0 on wavelength
// step + 1 in step `step`, so an edge names the step it belongs to.
TestImage two_phases() {
  TestImage img;
  img.configs = {ports({{0, 1}}), ports({{0, 2}}), ports({{0, 3}}), ports({{0, 4}})};
  img.steps = {{200, 0, true}, {300, 1}, {200, 2, true}, {300, 3}};
  img.guard_ticks = kGuard;
  return img;
}

void start(Board& board) {
  board.load_bank(1, build_image(two_phases()));
  board.commit_at(kT0);
  board.run_until_tick(kT0 + 2000);
  ASSERT_TRUE(board.status(STATUS_WAITING_TRIGGER_MASK));
  ASSERT_EQ(board.out().cur_step, 0u);
}

void jump(Board& board, uint32_t step, std::optional<uint64_t> at) {
  SequencerIn in;
  in.trigger = !at;
  in.trigger_at = at.has_value();
  in.trigger_ticks = at.value_or(0);
  in.trigger_jump = true;
  in.trigger_step = step;
  board.cycle(in);
}

// The select edges of port 0 after `from`, as {tick, wavelength}.
std::vector<std::pair<uint64_t, int>> selects_after(const Board& board, uint64_t from) {
  std::vector<std::pair<uint64_t, int>> out;
  for (const Edge& e : board.edges_of(0))
    if (e.kind == EdgeKind::kSelect && e.tick >= from) out.push_back({e.tick, e.value});
  return out;
}

TEST(SequencerJump, ATimedJumpLandsOnTheNamedStepAtTheNamedTime) {
  Board board;
  start(board);
  const uint64_t at = kT0 + 5000 + 7;
  jump(board, 3, at);
  board.run(12);  // the target is fetched in place of step 1, then the trigger resolves
  EXPECT_EQ(board.out().triggers, 1u);
  EXPECT_EQ(board.out().triggered_at_ticks, at);
  EXPECT_EQ(board.out().triggered_step, 3u);
  board.run_until_tick(at + 100);
  EXPECT_EQ(board.out().cur_step, 3u) << "step 3 runs, not step 1";
  EXPECT_EQ(board.out().cur_config, 3u);
  const auto sel = selects_after(board, kT0 + 2000);
  ASSERT_FALSE(sel.empty());
  EXPECT_EQ(sel.front().second, 4) << "port 0 tunes to step 3's wavelength";
  EXPECT_EQ(sel.front().first, at - test_tune(1, 4)) << "tuned early for the boundary at the named time";
  const std::vector<uint64_t> rises = board.ticks_of(EdgeKind::kRise, 0);
  ASSERT_GE(rises.size(), 2u);
  EXPECT_EQ(rises[1], at + kGuard) << "the boundary is the named time";
  // After the target the schedule goes on from it: step 3 wraps to step 0.
  board.run_until_tick(at + 300 + 200);
  EXPECT_EQ(board.out().cur_step, 0u);
  EXPECT_EQ(board.out().missed, 0u);
  EXPECT_EQ(board.out().errors, 0u);
}

TEST(SequencerJump, AnImmediateJumpLandsOnTheNamedStepAtTheBoundaryItReports) {
  Board board;
  start(board);
  jump(board, 2, std::nullopt);  // back to an event step: it waits there
  board.run(12);
  ASSERT_EQ(board.out().triggers, 1u);
  EXPECT_EQ(board.out().triggered_step, 2u);
  const uint64_t t = board.out().triggered_at_ticks;
  board.run_until_tick(t + 400);
  EXPECT_EQ(board.out().cur_step, 2u);
  EXPECT_TRUE(board.status(STATUS_WAITING_TRIGGER_MASK)) << "the named event step waits for its own trigger";
  const std::vector<uint64_t> rises = board.ticks_of(EdgeKind::kRise, 0);
  ASSERT_GE(rises.size(), 2u);
  EXPECT_EQ(rises[1], t + kGuard);
  EXPECT_EQ(selects_after(board, kT0 + 2000).front().second, 3);
  EXPECT_EQ(board.out().missed, 0u);
}

TEST(SequencerJump, AJumpLatchedDuringARoundActsAtTheNextEventStep) {
  Board board;
  start(board);
  board.trigger();  // plain: into step 1
  board.run_until_tick(board.now() + 100);
  ASSERT_EQ(board.out().cur_step, 1u);
  jump(board, 1, std::nullopt);  // latched in step 1; step 2 (event) then goes back to step 1
  board.run_until_tick(board.now() + 2000);
  EXPECT_EQ(board.out().triggers, 2u);
  EXPECT_EQ(board.out().triggered_step, 1u);
  EXPECT_EQ(board.out().cur_step, 2u) << "step 1 ran again, then step 2 waits";
  EXPECT_EQ(board.out().missed, 0u);
}

// EPOCHS counts passes of the schedule (docs/sequencer.md, "Jumps"): a jump
// to step 0 starts a new pass and counts, as a wrap does; a jump to any
// other step does not.
TEST(SequencerJump, AJumpToStepZeroCountsAPassAJumpElsewhereDoesNot) {
  Board board;
  start(board);
  board.trigger();  // plain: step 1, then step 2 (event) waits
  board.run_until_tick(board.now() + 1000);
  ASSERT_EQ(board.out().cur_step, 2u);
  EXPECT_EQ(board.out().epochs, 0u);
  jump(board, 0, std::nullopt);  // back to step 0 from the middle: a new pass
  board.run_until_tick(board.now() + 1000);
  ASSERT_EQ(board.out().triggered_step, 0u);
  ASSERT_EQ(board.out().cur_step, 0u);
  EXPECT_EQ(board.out().epochs, 1u) << "a jump to step 0 starts a new pass";
  board.trigger();  // step 1, then step 2 waits
  board.run_until_tick(board.now() + 1000);
  ASSERT_EQ(board.out().cur_step, 2u);
  jump(board, 2, std::nullopt);  // step 2 again: not a new pass
  board.run_until_tick(board.now() + 1000);
  ASSERT_EQ(board.out().triggers, 4u);
  ASSERT_EQ(board.out().triggered_step, 2u);
  ASSERT_EQ(board.out().cur_step, 2u);
  EXPECT_EQ(board.out().epochs, 1u) << "a jump to another step is not a pass";
  board.trigger();  // step 3, then the wrap to step 0
  board.run_until_tick(board.now() + 1000);
  ASSERT_EQ(board.out().cur_step, 0u);
  EXPECT_EQ(board.out().epochs, 2u) << "the wrap counts as before";
  EXPECT_EQ(board.out().missed, 0u);
  EXPECT_EQ(board.out().errors, 0u);
}

TEST(SequencerJump, AStepOutsideTheScheduleIsRefusedAndChangesNothing) {
  Board board;
  start(board);
  const size_t edges_before = board.edges.size();
  jump(board, 4, kT0 + 3000);  // 4 steps: 0..3
  board.run(2000);
  EXPECT_TRUE(board.out().errors & ERROR_BAD_TRIGGER_STEP_MASK);
  EXPECT_EQ(board.out().triggers, 0u);
  EXPECT_EQ(board.out().cur_step, 0u);
  EXPECT_TRUE(board.status(STATUS_WAITING_TRIGGER_MASK)) << "still waiting: the trigger was dropped";
  EXPECT_EQ(board.edges.size(), edges_before) << "no edge: the running schedule is untouched";
  // A huge one does not wrap into range.
  jump(board, 0x10002, std::nullopt);
  board.run(100);
  EXPECT_EQ(board.out().triggers, 0u);
  // A plain trigger still works.
  board.trigger();
  board.run(100);
  EXPECT_EQ(board.out().triggers, 1u);
  EXPECT_EQ(board.out().triggered_step, 1u);
}

TEST(SequencerJump, AJumpWithNoScheduleRunningIsRefused) {
  Board board;
  jump(board, 0, std::nullopt);
  board.run(10);
  EXPECT_TRUE(board.out().errors & ERROR_BAD_TRIGGER_STEP_MASK);
  EXPECT_EQ(board.out().triggers, 0u);
}

}  // namespace
}  // namespace lightrail::seq::test
