// Device::commit and Device::wait_for_swap on a co-simulated board (sim://,
// the RTL sequencer under Verilator): the swap comes exactly at the board
// time asked, on an idle board and on a running one's step boundary; a
// commit that is not due within the wait times out, stays armed, and once
// cancelled is reported dropped. The board's URI comes from
// LIGHTRAIL_TEST_BOARD (commit_wait_sim.sh starts `lightrail-cosim serve`).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>

#include "lightrail/device.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/schedule.hpp"

namespace lightrail {
namespace {

using namespace std::chrono_literals;

// A co-simulated board runs about a thousand times slower than real time:
// 1 ms of board time is about a second of host time, more on a busy machine.
constexpr picoseconds kLead = std::chrono::milliseconds(1);
constexpr std::chrono::milliseconds kWait = std::chrono::seconds(120);
constexpr picoseconds kStep = std::chrono::microseconds(1);

Schedule two_steps(const DeviceCapabilities& caps, uint32_t generation) {
  Schedule s;
  s.generation = generation;
  s.guard_ps = 500;
  s.configs = {{"a", std::vector<int>(caps.ports, 1)}, {"b", std::vector<int>(caps.ports, 2)}};
  s.steps = {{0, to_ps(kStep), false}, {1, to_ps(kStep), false}};
  return s;
}

class SimCommitWait : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* uri = std::getenv("LIGHTRAIL_TEST_BOARD");
    if (uri == nullptr) GTEST_SKIP() << "LIGHTRAIL_TEST_BOARD is not set (run by commit_wait_sim.sh)";
    uri_ = uri;
  }
  std::string uri_;
};

TEST_F(SimCommitWait, TheSwapComesExactlyAtTheTimeAsked) {
  Device dev = Device::open(uri_);
  const int64_t tick = dev.capabilities().tick_ps();
  ASSERT_EQ(to_ps(kStep) % tick, 0) << "the test's times must fall on ticks to be exact";
  ASSERT_FALSE(dev.status().running) << "the board must start idle";

  // Idle: the new schedule starts at exactly the time asked.
  dev.stage(two_steps(dev.capabilities(), 21));
  const BoardTime first_at = dev.time() + kLead;
  const CommitTicket first = dev.commit(CommitAt::at(first_at));
  ASSERT_EQ(first.at, first_at);
  const Swap swap1 = dev.wait_for_swap(first, kWait);
  EXPECT_EQ(swap1.time, first_at);
  EXPECT_EQ(swap1.generation, 21u);
  Status s = dev.status();
  EXPECT_TRUE(s.running);
  EXPECT_EQ(s.last_swap, first_at);
  EXPECT_GE(s.board_time, first_at);

  // Running: a time on one of its step boundaries is taken exactly ...
  dev.stage(two_steps(dev.capabilities(), 22));
  const picoseconds ahead = dev.time() + kLead - swap1.time;
  const BoardTime on_boundary = swap1.time + kStep * ((ahead + kStep - picoseconds(1)) / kStep);
  const Swap swap2 = dev.wait_for_swap(dev.commit(CommitAt::at(on_boundary)), kWait);
  EXPECT_EQ(swap2.time, on_boundary);
  EXPECT_EQ(swap2.generation, 22u);

  // ... and one between boundaries waits for the next boundary.
  dev.stage(two_steps(dev.capabilities(), 23));
  const picoseconds ahead3 = dev.time() + kLead - swap2.time;
  const BoardTime boundary3 = swap2.time + kStep * ((ahead3 + kStep - picoseconds(1)) / kStep);
  const BoardTime between = boundary3 - kStep / 2;
  const CommitTicket third = dev.commit(CommitAt::at(between));
  EXPECT_EQ(third.at, between);
  const Swap swap3 = dev.wait_for_swap(third, kWait);
  EXPECT_EQ(swap3.time, boundary3);
  EXPECT_EQ(swap3.generation, 23u);
  s = dev.status();
  EXPECT_EQ(s.generation, 23u);
  EXPECT_EQ(s.missed, 0u);
}

TEST_F(SimCommitWait, ACommitNotDueInTheWaitTimesOutThenCancelledIsDropped) {
  Device dev = Device::open(uri_);
  const uint32_t generation = dev.status().generation + 1;
  dev.stage(two_steps(dev.capabilities(), generation));
  // 50 ms of board time: about a minute of host time on sim://.
  const CommitTicket ticket = dev.commit(CommitAt::at(dev.time() + std::chrono::milliseconds(50)));
  EXPECT_THROW(dev.wait_for_swap(ticket, 300ms), TimeoutError);
  const Status armed = dev.status();
  EXPECT_TRUE(armed.commit_pending) << "a timed-out wait leaves the commit armed";
  EXPECT_EQ(armed.swaps, ticket.swaps_before);
  ASSERT_EQ(dev.cancel(), CancelOutcome::kCancelled);
  try {
    dev.wait_for_swap(ticket, kWait);
    FAIL() << "a cancelled commit was reported swapped";
  } catch (const CommitError& e) {
    EXPECT_EQ(e.flags(), std::vector<std::string>{"CANCELLED"}) << e.what();
  }
  EXPECT_EQ(dev.status().generation, generation - 1) << "the previous schedule runs on";
}

}  // namespace
}  // namespace lightrail
