// STOP in every cycle around the activation and around a later boundary:
// before the activation (it is dropped), in the first steps, while the
// prefetcher has not yet the next boundary (it then plans the stop itself),
// and with the queue full. scripts/coverage.sh found the first two untested.
// Wherever the STOP lands, every port ends dark, gone dark on a boundary of
// the schedule by the end of the step after the STOP's, and the board idle.
#include <gtest/gtest.h>

#include <vector>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint64_t kFine = FINE_STEPS;
constexpr uint64_t kT0 = 100 * kFine;
constexpr uint64_t kStep = uint64_t{MIN_STEP_CYCLES} * kFine;  // the shortest step
constexpr uint64_t kGuard = 5;

TestImage alternating() {
  TestImage img;
  img.configs = {ports({{0, 1}, {1, 9}}), ports({{0, 2}, {1, 9}})};
  img.steps = {{uint32_t(kStep), 0}, {uint32_t(kStep), 1}};
  img.guard_ticks = kGuard;
  return img;
}

// A boundary of the schedule, or a retune's fall, the guard before one.
bool on_a_boundary(uint64_t t) {
  auto boundary = [](uint64_t b) { return b >= kT0 && (b - kT0) % kStep == 0; };
  return boundary(t) || boundary(t + kGuard);
}

TEST(SequencerStop, InEveryCycleAroundABoundaryEveryPortEndsDarkByTheStepAfter) {
  // From before the activation at kT0 (the STOP drops it) through the first
  // steps (the prefetcher is still filling the queue), then around the 10th
  // boundary (the queue full).
  std::vector<uint64_t> stops;
  for (uint64_t at = kT0 - 8 * kFine; at <= kT0 + 3 * kStep; at += kFine) stops.push_back(at);
  for (uint64_t at = kT0 + 9 * kStep; at <= kT0 + 11 * kStep; at += kFine) stops.push_back(at);
  for (const uint64_t at : stops) {
    SCOPED_TRACE("STOP at tick " + std::to_string(at));
    Board board;
    board.load_bank(1, build_image(alternating()));
    board.commit_at(kT0);
    board.run_until_tick(at);
    const uint64_t stopped = board.now();
    board.stop();
    board.run_until_tick(at + 10 * kStep);
    for (uint32_t port : {0u, 1u}) {
      // The gate the output stage makes: its last change is to dark, on a
      // boundary, no later than the end of the step after the STOP's.
      const auto gate = board.gate_of(port);
      if (gate.empty()) continue;  // the STOP came before the activation
      EXPECT_FALSE(gate.back().second) << "port " << port << " is lit at the end";
      EXPECT_TRUE(on_a_boundary(gate.back().first))
          << "port " << port << " went dark at " << gate.back().first;
      EXPECT_LE(gate.back().first, stopped + 2 * kStep + 4 * kFine)
          << "port " << port << ": later than the step after";
    }
    EXPECT_FALSE(board.status(STATUS_RUNNING_MASK));
    EXPECT_EQ(board.out().errors, 0u);
  }
}

}  // namespace
}  // namespace lightrail::seq::test
