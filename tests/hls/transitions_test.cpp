// Exact edge ticks of each kind of port transition, from an idle start at a
// commanded (non cycle-aligned) time to a one-shot end.
#include <gtest/gtest.h>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint32_t kGuard = 10;
constexpr uint64_t kT0 = 100 * FINE_STEPS + 7;
constexpr uint64_t kT1 = kT0 + 400;
constexpr uint64_t kT2 = kT1 + 400;

class SequencerTransitions : public ::testing::Test {
 protected:
  void SetUp() override {
    TestImage img;
    // Port 0 retunes, 1 stays, 2 dark->lit, 3 lit->dark, 4 stays dark.
    img.configs = {ports({{0, 3}, {1, 3}, {3, 10}}), ports({{0, 5}, {1, 3}, {2, 7}})};
    img.steps = {{400, 0}, {400, 1}};
    img.cyclic = false;
    img.guard_ticks = kGuard;
    img.generation = 42;
    board.load_bank(1, build_image(img));
    board.commit_at(kT0);
    board.run_until_tick(kT2 + 10 * FINE_STEPS);
  }
  Board board;
};

TEST_F(SequencerTransitions, LitToLitRetunesEarlyAndGuardsTheGate) {
  const std::vector<Edge> expected = {
      {EdgeKind::kSelect, 0, kT0 - test_tune(0, 3), 3},
      {EdgeKind::kRise, 0, kT0 + kGuard},
      {EdgeKind::kSelect, 0, kT1 - test_tune(3, 5), 5},
      {EdgeKind::kFall, 0, kT1 - test_tune(3, 5)},
      {EdgeKind::kRise, 0, kT1 + kGuard},
      {EdgeKind::kFall, 0, kT2},
  };
  EXPECT_EQ(board.edges_of(0), expected);
}

TEST_F(SequencerTransitions, SameWavelengthKeepsTheGateUp) {
  const std::vector<Edge> expected = {
      {EdgeKind::kSelect, 1, kT0 - test_tune(0, 3), 3},
      {EdgeKind::kRise, 1, kT0 + kGuard},
      {EdgeKind::kFall, 1, kT2},
  };
  EXPECT_EQ(board.edges_of(1), expected);
}

TEST_F(SequencerTransitions, DarkToLitTunesFromTheKeptSelect) {
  const std::vector<Edge> expected = {
      {EdgeKind::kSelect, 2, kT1 - test_tune(0, 7), 7},
      {EdgeKind::kRise, 2, kT1 + kGuard},
      {EdgeKind::kFall, 2, kT2},
  };
  EXPECT_EQ(board.edges_of(2), expected);
}

TEST_F(SequencerTransitions, LitToDarkFallsAtTheBoundary) {
  const std::vector<Edge> expected = {
      {EdgeKind::kSelect, 3, kT0 - test_tune(0, 10), 10},
      {EdgeKind::kRise, 3, kT0 + kGuard},
      {EdgeKind::kFall, 3, kT1},
  };
  EXPECT_EQ(board.edges_of(3), expected);
}

TEST_F(SequencerTransitions, DarkPortsStayQuiet) {
  for (uint32_t p = 4; p < PORTS; ++p) EXPECT_TRUE(board.edges_of(p).empty()) << "port " << p;
}

TEST_F(SequencerTransitions, IdleStartAtTimeIsExactAndOneShotEndsIdle) {
  const SequencerOut& out = board.out();
  EXPECT_EQ(out.last_swap_ticks, kT0);
  EXPECT_EQ(out.swaps, 1u);
  EXPECT_EQ(out.generation, 42u);
  EXPECT_TRUE(board.status(STATUS_ACTIVE_BANK_MASK));
  EXPECT_FALSE(board.status(STATUS_RUNNING_MASK));
  EXPECT_FALSE(board.status(STATUS_COMMIT_PENDING_MASK));
  EXPECT_EQ(out.steps, 2u);
  EXPECT_EQ(out.epochs, 1u);
  EXPECT_EQ(out.missed, 0u);
  EXPECT_EQ(out.errors, 0u);
  const size_t seen = board.edges.size();
  board.run(2000);
  EXPECT_EQ(board.edges.size(), seen) << "a finished one-shot schedule emits nothing";
}

}  // namespace
}  // namespace lightrail::seq::test
