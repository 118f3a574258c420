// The board reset (ap_rst_n) in the middle of a running schedule: the
// kernel restarts as a fresh one, edge for edge and status for status,
// whatever it was doing (walking a bank, holding a verified at-time commit,
// a latched trigger, a STOP on its way).
#include <gtest/gtest.h>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

TestImage busy_image() {
  TestImage img;
  img.configs = {ports({{0, 1}, {1, 2}, {5, 7}}), ports({{0, 3}, {2, 4}}), ports({{1, 9}, {5, 7}})};
  img.steps = {{300, 0}, {450, 1}, {260, 2}};
  img.guard_ticks = 6;
  return img;
}

TestImage after_reset_image() {
  TestImage img;
  img.configs = {ports({{0, 4}, {3, 1}}), ports({{0, 6}, {3, 2}, {7, 5}})};
  img.steps = {{400, 0}, {330, 1}};
  img.guard_ticks = 4;
  return img;
}

void expect_same_outputs(const SequencerOut& a, const SequencerOut& b, int cycle) {
  EXPECT_EQ(a.status, b.status) << "cycle " << cycle;
  EXPECT_EQ(a.errors, b.errors) << "cycle " << cycle;
  EXPECT_EQ(a.steps, b.steps) << "cycle " << cycle;
  EXPECT_EQ(a.missed, b.missed) << "cycle " << cycle;
  EXPECT_EQ(a.cur_step, b.cur_step) << "cycle " << cycle;
  EXPECT_EQ(a.generation, b.generation) << "cycle " << cycle;
  EXPECT_EQ(a.epochs, b.epochs) << "cycle " << cycle;
  EXPECT_EQ(a.swaps, b.swaps) << "cycle " << cycle;
  EXPECT_EQ(a.last_swap_ticks, b.last_swap_ticks) << "cycle " << cycle;
  EXPECT_EQ(a.triggers, b.triggers) << "cycle " << cycle;
  EXPECT_EQ(a.bank_raddr[0], b.bank_raddr[0]) << "cycle " << cycle;
  EXPECT_EQ(a.bank_raddr[1], b.bank_raddr[1]) << "cycle " << cycle;
}

class SequencerReset : public ::testing::TestWithParam<int> {};

TEST_P(SequencerReset, MidRunResetRestartsAsAFreshKernel) {
  Board used;
  used.load_bank(1, build_image(busy_image()));
  used.commit_epoch();
  used.run(1500);
  ASSERT_TRUE(used.status(STATUS_RUNNING_MASK));
  // Dirty every part of the state: an at-time commit verified and pending,
  // a latched timed trigger, and (per parameter) a STOP or a verify in flight.
  used.load_bank(0, build_image(after_reset_image()));
  used.commit_at(used.now() + 200000);
  used.run(40);
  ASSERT_TRUE(used.status(STATUS_COMMIT_PENDING_MASK));
  used.trigger_at(used.now() + 100000);
  if (GetParam() == 1) used.stop();
  used.run(uint64_t(GetParam()) * 7);
  ASSERT_GT(used.out().steps, 3u);
  const size_t edges_before = used.edges.size();
  ASSERT_GT(edges_before, 20u);

  used.reset(3);
  EXPECT_EQ(used.out().status, 0u);
  EXPECT_EQ(used.now(), 0u);

  Board fresh;
  // Lock-step from here: the same inputs, the same outputs every cycle.
  used.edges.clear();
  used.load_bank(1, build_image(after_reset_image()));
  fresh.load_bank(1, build_image(after_reset_image()));
  used.commit_epoch();
  fresh.commit_epoch();
  for (int c = 0; c < 6000; ++c) {
    SequencerIn in;
    if (c == 3000) in.trigger = true;
    if (c == 4000) in.stop = true;
    expect_same_outputs(used.cycle(in), fresh.cycle(in), c);
    if (HasFailure()) return;
  }
  EXPECT_GT(fresh.edges.size(), 40u) << "the comparison must cover a real run";
  EXPECT_EQ(used.edges, fresh.edges);
  EXPECT_EQ(fresh.out().swaps, 1u);
  EXPECT_EQ(used.out().swaps, 1u) << "the at-time commit pending at reset must not swap afterwards";
  EXPECT_FALSE(used.status(STATUS_RUNNING_MASK)) << "stopped";
}

// Named by what comes between the dirtying and the reset.
INSTANTIATE_TEST_SUITE_P(, SequencerReset, ::testing::Values(0, 1, 2, 3),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return info.param == 1 ? std::string("AStopThen7Cycles")
                                                  : "After" + std::to_string(info.param * 7) + "Cycles";
                         });

// Without the reset the same sequence does differ: the comparison above
// can fail (the pending at-time commit of the old run swaps, and counters
// carry on).
TEST(SequencerResetControl, WithoutResetTheOldRunShows) {
  Board used;
  used.load_bank(1, build_image(busy_image()));
  used.commit_epoch();
  used.run(1500);
  const uint64_t steps_before = used.out().steps;
  Board fresh;
  used.load_bank(1, build_image(after_reset_image()));
  fresh.load_bank(1, build_image(after_reset_image()));
  used.commit_epoch();
  fresh.commit_epoch();
  used.run(2000);
  fresh.run(2000);
  EXPECT_NE(used.out().steps, fresh.out().steps);
  EXPECT_GT(used.out().steps, steps_before);
}

}  // namespace
}  // namespace lightrail::seq::test
