// What guards a commit: the compare-and-swap on the staged image's CRC, a
// commit that comes while another is under way, the horizon, and CANCEL.
#include <gtest/gtest.h>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint32_t kGuard = 5;
constexpr uint64_t kT0 = 100 * FINE_STEPS;

TestImage running_image() {  // period 1900, port 0 changes at every boundary
  TestImage img;
  img.configs = {ports({{0, 1}, {3, 7}}), ports({{0, 2}, {3, 8}})};
  img.steps = {{300, 0}, {500, 1}, {700, 0}, {400, 1}};
  img.guard_ticks = kGuard;
  img.generation = 3;
  return img;
}

TestImage next_image() {
  TestImage img;
  img.configs = {ports({{0, 5}}), ports({{0, 6}, {3, 9}})};
  img.steps = {{600, 0}, {800, 1}};
  img.guard_ticks = kGuard;
  img.generation = 7;
  return img;
}

// A board running running_image() from kT0 (bank 1), next_image() in bank 0.
void start(Board& board) {
  board.load_bank(1, build_image(running_image()));
  board.commit_at(kT0);
  board.run_until_tick(kT0 + 2000);
  ASSERT_EQ(board.out().generation, 3u);
  board.load_bank(0, build_image(next_image()));
}

SequencerIn commit_with_crc(uint32_t crc, uint64_t at) {
  SequencerIn in;
  in.commit = true;
  in.commit_at_time = true;
  in.commit_ticks = at;
  in.commit_crc = crc;
  return in;
}

TEST(SequencerCommitGuard, AnotherImageThanTheCommitterStagedIsRefused) {
  Board board;
  start(board);
  const uint32_t staged_crc = board.inactive_crc() ^ 0x1u;  // the committer staged something else
  board.cycle(commit_with_crc(staged_crc, board.now() + 5000));
  board.run(200);
  EXPECT_EQ(board.out().errors, ERROR_COMMIT_MISMATCH_MASK);
  EXPECT_FALSE(board.status(STATUS_COMMIT_PENDING_MASK));
  board.run(2000);
  EXPECT_EQ(board.out().generation, 3u);
  EXPECT_EQ(board.out().swaps, 1u);
}

TEST(SequencerCommitGuard, ACommitWhileAnotherIsPendingIsFlaggedNotTakenAsItsOwn) {
  Board board;
  start(board);
  const uint64_t at = board.now() + 20000;
  board.commit_at(at);
  board.run(100);
  ASSERT_TRUE(board.status(STATUS_COMMIT_PENDING_MASK));
  board.commit_epoch();  // a second committer
  board.run(2);
  EXPECT_EQ(board.out().errors, ERROR_COMMIT_BUSY_MASK);
  board.run_until_tick(at + 4000);
  EXPECT_EQ(board.out().generation, 7u);
  EXPECT_EQ(board.out().swaps, 2u);
  EXPECT_GE(board.out().last_swap_ticks, at) << "the first commit's time, not the second's epoch";
}

TEST(SequencerCommitGuard, ATimeBeyondTheHorizonIsRefusedAtOnce) {
  Board board;
  start(board);
  const uint64_t horizon = uint64_t{COMMIT_HORIZON_S} * 1000000000000ull / TICK_PS;
  board.commit_at(board.now() + horizon + 1000);
  EXPECT_EQ(board.out().errors, ERROR_COMMIT_FAR_MASK);
  EXPECT_FALSE(board.status(STATUS_VERIFY_BUSY_MASK));
  EXPECT_FALSE(board.status(STATUS_COMMIT_PENDING_MASK));
  // Within it, the same commit is taken.
  board.cycle([] {
    SequencerIn in;
    in.clear_errors = ~0u;
    return in;
  }());
  board.commit_at(board.now() + horizon - 1000);
  board.run(200);
  EXPECT_EQ(board.out().errors, 0u);
  EXPECT_TRUE(board.status(STATUS_COMMIT_PENDING_MASK));
}

// Cancelling a planned swap leaves exactly the edges the running schedule
// has without any commit: compared edge for edge with a twin board.
TEST(SequencerCommitGuard, CancelInTimeLeavesTheRunningScheduleUntouched) {
  for (const bool epoch : {false, true}) {
    SCOPED_TRACE(epoch ? "at the epoch boundary" : "at a time");
    Board board, twin;
    start(board);
    start(twin);
    const uint64_t at = board.now() + 3000;
    epoch ? board.commit_epoch() : board.commit_at(at);
    twin.cycle();
    board.run(12);  // verified (7 lines), the swap planned; its boundary still 40+ cycles away
    twin.run(12);
    ASSERT_TRUE(board.status(STATUS_COMMIT_PENDING_MASK));
    board.cancel();
    twin.cycle();
    EXPECT_TRUE(board.status(STATUS_CANCELLED_MASK));
    EXPECT_FALSE(board.status(STATUS_COMMIT_PENDING_MASK));
    board.run_until_tick(at + 6000);
    twin.run_until_tick(at + 6000);
    EXPECT_EQ(board.out().generation, 3u);
    EXPECT_EQ(board.out().swaps, 1u);
    EXPECT_EQ(board.out().missed, 0u);
    EXPECT_EQ(board.edges, twin.edges);
    // The next commit clears CANCELLED and swaps as usual.
    board.commit_epoch();
    EXPECT_FALSE(board.status(STATUS_CANCELLED_MASK));
    board.run(2500);
    EXPECT_EQ(board.out().generation, 7u);
  }
}

TEST(SequencerCommitGuard, CancelOnceTheSwapHasBegunToLeaveIsTooLate) {
  Board board;
  start(board);
  // A boundary of the running schedule, far enough ahead to verify.
  uint64_t at = kT0;
  const uint64_t durations[] = {300, 500, 700, 400};
  for (size_t k = 0; at < board.now() + 2000; ++k) at += durations[k % 4];
  board.commit_at(at);
  // Two cycles before the swap boundary: within the lead the running
  // schedule's own boundary would need to be planned in its place.
  board.run_until_tick(at - 2 * FINE_STEPS);
  ASSERT_TRUE(board.status(STATUS_COMMIT_PENDING_MASK));
  board.cancel();
  EXPECT_FALSE(board.status(STATUS_CANCELLED_MASK));
  board.run_until_tick(at + 2000);
  EXPECT_EQ(board.out().generation, 7u);
  EXPECT_EQ(board.out().last_swap_ticks, at);
  EXPECT_EQ(board.out().missed, 0u);
}

TEST(SequencerCommitGuard, CancelWhileVerifyingOrIdleDropsTheActivation) {
  Board board;
  board.load_bank(1, build_image(running_image()));
  board.commit_at(kT0);
  board.cancel();  // still verifying
  EXPECT_TRUE(board.status(STATUS_CANCELLED_MASK));
  EXPECT_FALSE(board.status(STATUS_VERIFY_BUSY_MASK));
  board.commit_at(kT0);
  board.run(40);
  ASSERT_TRUE(board.status(STATUS_COMMIT_PENDING_MASK));
  board.cancel();  // verified, waiting for its time on an idle board
  EXPECT_TRUE(board.status(STATUS_CANCELLED_MASK));
  board.run_until_tick(kT0 + 3000);
  EXPECT_FALSE(board.status(STATUS_RUNNING_MASK));
  EXPECT_EQ(board.out().swaps, 0u);
  EXPECT_TRUE(board.edges.empty());
}

// The horizon to the tick: COMMIT_HORIZON_S ahead is taken, one tick more is
// refused (mutation testing: a horizon 28 ticks longer survived the case
// above, which tries 1000 ticks either side).
TEST(SequencerCommitGuard, TheHorizonIsExactToTheTick) {
  const uint64_t horizon = uint64_t{COMMIT_HORIZON_S} * 1000000000000ull / TICK_PS;
  Board beyond;
  start(beyond);
  beyond.commit_at(beyond.now() + horizon + 1);
  EXPECT_EQ(beyond.out().errors, ERROR_COMMIT_FAR_MASK);
  Board at;
  start(at);
  at.commit_at(at.now() + horizon);
  at.run(200);
  EXPECT_EQ(at.out().errors, 0u);
  EXPECT_TRUE(at.status(STATUS_COMMIT_PENDING_MASK));
}

// The same when the swap belongs two boundaries ahead, so it was prefetched
// into the queue's second slot: cancelled in time, it leaves the edges of a
// board that never saw the commit (mutation testing: that slot's in-time
// test negated survived every case above, which cancel a swap in the first).
TEST(SequencerCommitGuard, CancelOfASwapInTheSecondSlotLeavesTheRunningScheduleUntouched) {
  constexpr uint64_t kLong = 2000;  // every boundary far beyond the commit lead
  TestImage running = running_image();
  running.steps = {{kLong, 0}, {kLong, 1}};
  Board board, twin;
  for (Board* b : {&board, &twin}) {
    b->load_bank(1, build_image(running));
    b->commit_at(kT0);
    b->run_until_tick(kT0 + 400);  // cur at kT0, up at kT0 + kLong, next at kT0 + 2 kLong
    b->load_bank(0, build_image(next_image()));
  }
  board.commit_at(kT0 + kLong + kLong / 2);  // after up: the swap replaces next
  twin.cycle();
  board.run(12);
  twin.run(12);
  ASSERT_TRUE(board.status(STATUS_COMMIT_PENDING_MASK));
  board.cancel();
  twin.cycle();
  EXPECT_TRUE(board.status(STATUS_CANCELLED_MASK));
  EXPECT_FALSE(board.status(STATUS_COMMIT_PENDING_MASK));
  board.run_until_tick(kT0 + 5 * kLong);
  twin.run_until_tick(kT0 + 5 * kLong);
  EXPECT_EQ(board.out().generation, 3u);
  EXPECT_EQ(board.out().swaps, 1u);
  EXPECT_EQ(board.out().missed, 0u);
  EXPECT_EQ(board.edges, twin.edges);
}

}  // namespace
}  // namespace lightrail::seq::test
