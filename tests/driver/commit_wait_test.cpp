// Device::commit's ticket and Device::wait_for_swap on the in-memory board:
// the swap returned is the board's, at the time the commit was armed for;
// a commit that never swaps ends in a clear error, not a hang.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "fake_board.hpp"
#include "lightrail/device.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "test_schedules.hpp"

namespace lightrail {
namespace {

using namespace std::chrono_literals;
namespace hw = hwdef;
using test::FakeBoard;
using test::FakeTransport;

Device open_fake(FakeBoard& board) { return Device(std::make_unique<FakeTransport>(board)); }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CommitWait, TheSwapComesAtTheTimeTheTicketNames) {
  FakeBoard board;
  board.defer_timed_commits = true;  // the swap waits for its time, as the sequencer's does
  Device dev = open_fake(board);
  const Schedule s = test::two_shifts();
  dev.stage(s);
  // 60 ps past a tick: the board is told the nearest tick, and the ticket says which.
  const BoardTime asked = dev.time() + picoseconds(1'000'060);
  const CommitTicket ticket = dev.commit(CommitAt::at(asked));
  EXPECT_EQ(ticket.uri, dev.uri());
  EXPECT_EQ(ticket.generation, s.generation);
  EXPECT_EQ(ticket.swaps_before, 0u);
  ASSERT_TRUE(ticket.at.has_value());
  EXPECT_EQ(*ticket.at, asked - picoseconds(60));
  EXPECT_EQ(to_ps(*ticket.at) % hw::TICK_PS, 0);
  EXPECT_TRUE(board.pending) << "armed, not swapped yet";

  board.ticks_per_time_read = 1000;  // board time moves on while the host polls
  const Swap swap = dev.wait_for_swap(ticket, 5s);
  EXPECT_EQ(swap.time, *ticket.at);
  EXPECT_EQ(swap.generation, s.generation);
  const Status st = dev.status();
  EXPECT_EQ(st.last_swap, swap.time);
  EXPECT_EQ(st.swaps, 1u);
  EXPECT_GT(st.board_time, swap.time) << "the wait returned once board time had passed the swap";
}

TEST(CommitWait, AnEpochCommitOnAnIdleBoardHasSwappedWhenCommitReturns) {
  FakeBoard board;
  Device dev = open_fake(board);
  dev.stage(test::two_shifts());
  const CommitTicket ticket = dev.commit(CommitAt::epoch());
  EXPECT_FALSE(ticket.at.has_value());
  const Swap swap = dev.wait_for_swap(ticket, 1ms);
  EXPECT_EQ(swap.generation, 7u);
  EXPECT_EQ(swap.time, dev.status().last_swap);
}

TEST(CommitWait, NoSwapWithinTheTimeoutIsATimeoutErrorAndTheCommitStaysArmed) {
  FakeBoard board;
  board.defer_timed_commits = true;  // board time stands still: the swap never comes
  Device dev = open_fake(board);
  dev.stage(test::two_shifts());
  const CommitTicket ticket = dev.commit(CommitAt::at(dev.time() + picoseconds(1'000'000)));
  const auto start = std::chrono::steady_clock::now();
  try {
    dev.wait_for_swap(ticket, 30ms);
    FAIL() << "returned without a swap";
  } catch (const TimeoutError& e) {
    EXPECT_TRUE(contains(e.what(), "no swap to generation 7 within 30 ms")) << e.what();
    EXPECT_TRUE(contains(e.what(), std::to_string(to_ps(*ticket.at)) + " ps")) << e.what();
  }
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, 30ms);
  EXPECT_LT(waited, 2s);
  EXPECT_TRUE(board.pending);
  EXPECT_EQ(board.cancels, 0);
}

TEST(CommitWait, ACancelledCommitIsACommitErrorNotAWaitForever) {
  FakeBoard board;
  board.defer_timed_commits = true;
  Device dev = open_fake(board);
  dev.stage(test::two_shifts());
  const CommitTicket ticket = dev.commit(CommitAt::at(dev.time() + picoseconds(1'000'000)));
  ASSERT_EQ(dev.cancel(), CancelOutcome::kCancelled);
  try {
    dev.wait_for_swap(ticket, 10s);
    FAIL() << "returned a swap for a cancelled commit";
  } catch (const CommitError& e) {
    EXPECT_EQ(e.flags(), std::vector<std::string>{"CANCELLED"});
    EXPECT_TRUE(contains(e.what(), "dropped before its swap (cancelled)")) << e.what();
  }
}

TEST(CommitWait, ASwapToAnotherGenerationIsACommitError) {
  FakeBoard board;
  board.defer_timed_commits = true;
  Device dev = open_fake(board);
  dev.stage(test::two_shifts());
  const CommitTicket ticket = dev.commit(CommitAt::at(dev.time() + picoseconds(1'000'000)));
  board.advance(1'000'000);  // swapped ...
  board.generation = 99;     // ... and replaced by another writer's bank since
  try {
    dev.wait_for_swap(ticket, 1s);
    FAIL() << "took another generation's swap for this commit's";
  } catch (const CommitError& e) {
    EXPECT_EQ(e.flags(), std::vector<std::string>{"OTHER_GENERATION"});
    EXPECT_TRUE(contains(e.what(), "generation 99")) << e.what();
  }
}

TEST(CommitWait, ATicketOfAnotherBoardIsRefused) {
  FakeBoard board;
  Device dev = open_fake(board);
  CommitTicket other;
  other.uri = "sim://127.0.0.1:7000/3";
  try {
    dev.wait_for_swap(other, 1s);
    FAIL() << "waited on another board's ticket";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "the commit ticket is for sim://127.0.0.1:7000/3")) << e.what();
  }
}

}  // namespace
}  // namespace lightrail
