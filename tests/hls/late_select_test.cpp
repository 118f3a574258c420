// A select that can only go out after its time is a missed deadline: a port
// that was dark retunes for its next lit step with a tune longer than the
// prefetcher's lead (docs/sequencer.md, "Prefetch and deadlines"). The select
// goes out late, at fine 0, and MISSED counts the boundary although the
// boundary itself is on time. Mutation testing found this late flag untested
// (docs/mutation.md): every other late edge comes with a late boundary.
#include <gtest/gtest.h>

#include <algorithm>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint64_t kT0 = 100 * FINE_STEPS;
constexpr uint64_t kStep = 300;
constexpr uint16_t kLongTune = 1000;  // more than a step and the fetch ahead of the boundary

TEST(SequencerLateSelect, ASelectThatCannotGoOutInTimeIsAMissedDeadline) {
  Board board;
  board.write_tune(1, 2, kLongTune);
  TestImage img;
  // Port 0 on wavelength 1, dark (its select stays 1), then lit on 2: the
  // select to 2 is due kLongTune before the third boundary, with no fall.
  img.configs = {ports({{0, 1}}), ports({}), ports({{0, 2}})};
  img.steps = {{kStep, 0}, {kStep, 1}, {kStep, 2}};
  img.guard_ticks = 5;
  img.generation = 3;
  img.cyclic = false;
  board.load_bank(1, build_image(img));
  board.commit_at(kT0);
  board.run_until_tick(kT0 + 4 * kStep);
  const uint64_t lit = kT0 + 2 * kStep;
  const std::vector<Edge> edges = board.edges_of(0);
  const auto select = std::find_if(edges.begin(), edges.end(),
                                   [](const Edge& e) { return e.kind == EdgeKind::kSelect && e.value == 2; });
  ASSERT_NE(select, edges.end());
  EXPECT_GT(select->tick, lit - kLongTune) << "the select could not go out in time";
  EXPECT_EQ(board.ticks_of(EdgeKind::kRise, 0).back(), lit + 5) << "the boundary itself is on time";
  EXPECT_EQ(board.out().missed, 1u);
  EXPECT_NE(board.out().errors & ERROR_MISSED_DEADLINE_MASK, 0u);
}

}  // namespace
}  // namespace lightrail::seq::test
