// Back-to-back boundaries at the tightest spacing the schedule model allows:
// steps of MIN_STEP_CYCLES cycles, every port retuning at every boundary,
// tune + guard one tick short of the step (the host validator's limit). A
// boundary's early edges then fall one tick after the boundary before it,
// in the very cycle that takes it, so they go out on time only if the
// prefetcher's boundary joins the queue no later than the sequencer's
// pipelined update allows (docs/sequencer.md, "The per-cycle state
// update"). Every edge is checked against the schedule, at every phase of
// the boundary within the clock cycle.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint64_t kStep = uint64_t{MIN_STEP_CYCLES} * FINE_STEPS;
constexpr uint64_t kBoundaries = 40;  // boundaries checked after the first

bool edge_order(const Edge& a, const Edge& b) {
  return std::make_tuple(a.tick, a.port, static_cast<int>(a.kind), a.value) <
         std::make_tuple(b.tick, b.port, static_cast<int>(b.kind), b.value);
}

// Port p alternates between wavelengths p and p+1 at every boundary.
PortWavelengths config(uint32_t shift) {
  PortWavelengths w;
  for (uint32_t p = 0; p < PORTS; ++p) w[p] = static_cast<int>(p + shift);
  return w;
}

struct Case {
  uint32_t tune;
  uint32_t guard;
};

class SequencerTightSteps : public ::testing::TestWithParam<Case> {};

TEST_P(SequencerTightSteps, EveryEdgeOfBackToBackMinimumStepsLandsOnItsTickAtEveryPhase) {
  const Case c = GetParam();
  ASSERT_LT(c.tune + c.guard, kStep) << "the validator's limit";
  TestImage img;
  img.configs = {config(0), config(1)};
  img.steps = {{kStep, 0}, {kStep, 1}};
  img.guard_ticks = c.guard;
  for (uint64_t phase = 0; phase < FINE_STEPS; ++phase) {
    SCOPED_TRACE(::testing::Message() << "tune " << c.tune << " guard " << c.guard << " phase " << phase);
    Board board;
    for (uint32_t w = 0; w + 1 <= PORTS; ++w) {
      board.write_tune(w, w + 1, static_cast<uint16_t>(c.tune));
      board.write_tune(w + 1, w, static_cast<uint16_t>(c.tune));
    }
    board.load_bank(1, build_image(img));
    const uint64_t t0 = 100 * FINE_STEPS + phase;  // boundary k at t0 + k * kStep
    board.commit_at(t0);
    const uint64_t last = t0 + kBoundaries * kStep;
    board.run_until_tick(last + kStep);

    // Boundary k >= 1 into config k % 2: select and fall `tune` early, rise
    // `guard` late, on every port. Boundary 0 (from reset) and k > kBoundaries
    // lie outside [first, last + guard].
    std::vector<Edge> want;
    for (uint64_t k = 1; k <= kBoundaries; ++k) {
      const uint64_t t = t0 + k * kStep;
      for (uint32_t p = 0; p < PORTS; ++p) {
        const uint32_t wl = p + static_cast<uint32_t>(k % 2);
        want.push_back({EdgeKind::kSelect, p, t - c.tune, wl});
        want.push_back({EdgeKind::kFall, p, t - c.tune, 0});
        want.push_back({EdgeKind::kRise, p, t + c.guard, 0});
      }
    }
    const uint64_t first = t0 + kStep - c.tune;
    std::vector<Edge> got;
    for (const Edge& e : board.edges) {
      if (e.tick >= first && e.tick <= last + c.guard) got.push_back(e);
    }
    std::sort(want.begin(), want.end(), edge_order);
    std::sort(got.begin(), got.end(), edge_order);
    EXPECT_EQ(got, want);
    EXPECT_EQ(board.out().missed, 0u);
    EXPECT_EQ(board.out().errors, 0u);
    EXPECT_GE(board.out().steps, kBoundaries + 1);
  }
}

// The tune before each boundary and the guard after it, summing to one tick
// less than the step: the early edges one tick after the previous boundary,
// the guard's rise one tick before the next boundary's early fall, and
// between.
INSTANTIATE_TEST_SUITE_P(TuneAndGuard, SequencerTightSteps,
                         ::testing::Values(Case{kStep - 1, 0}, Case{kStep / 2, kStep / 2 - 1},
                                           Case{1, kStep - 2}, Case{FINE_STEPS + 1, kStep - FINE_STEPS - 2}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return "Tune" + std::to_string(info.param.tune) + "Guard" +
                                  std::to_string(info.param.guard);
                         });

}  // namespace
}  // namespace lightrail::seq::test
