// Walking the program: exact boundaries, cyclic wrap, sustained 16 ns steps
// and what happens when a deadline cannot be met.
#include <gtest/gtest.h>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint32_t kGuard = 5;

// Port 0 changes wavelength at every boundary, so its rises mark them.
TestImage three_step_cycle() {
  TestImage img;
  img.configs = {ports({{0, 1}}), ports({{0, 2}}), ports({{0, 4}})};
  img.steps = {{300, 0}, {500, 1}, {700, 2}};
  img.guard_ticks = kGuard;
  return img;
}

TEST(SequencerWalk, CyclicProgramWrapsOnExactBoundariesAndCountsEpochs) {
  Board board;
  board.load_bank(1, build_image(three_step_cycle()));
  board.commit_epoch();
  board.run(3000);  // 96000 ticks: 64 passes of 1500
  const std::vector<uint64_t> rises = board.ticks_of(EdgeKind::kRise, 0);
  ASSERT_GE(rises.size(), 30u);
  const uint64_t t0 = rises[0] - kGuard;
  EXPECT_EQ(t0 % FINE_STEPS, 0u) << "an idle epoch start lands on a cycle boundary";
  EXPECT_EQ(board.out().last_swap_ticks, t0);
  const uint64_t durations[] = {300, 500, 700};
  uint64_t t = t0;
  for (size_t k = 0; k < rises.size(); ++k) {
    ASSERT_EQ(rises[k], t + kGuard) << "boundary " << k;
    t += durations[k % 3];
  }
  const uint64_t started = rises.size();
  EXPECT_EQ(board.out().steps, started);
  EXPECT_EQ(board.out().epochs, (started - 1) / 3);
  EXPECT_EQ(board.out().cur_step, (started - 1) % 3);
  EXPECT_EQ(board.out().cur_config, (started - 1) % 3);
  EXPECT_TRUE(board.status(STATUS_RUNNING_MASK));
  EXPECT_EQ(board.out().missed, 0u);
}

TEST(SequencerWalk, SixteenNanosecondStepsForAHundredThousandStepsMissNothing) {
  // Every port retunes at every 4-cycle step: the prefetcher's worst case.
  TestImage img;
  PortWavelengths a, b;
  for (uint32_t p = 0; p < PORTS; ++p) {
    a[p] = static_cast<int>(p);
    b[p] = static_cast<int>(p + 1);
  }
  img.configs = {a, b};
  const uint64_t step = uint64_t{MIN_STEP_CYCLES} * FINE_STEPS;
  img.steps = {{step, 0}, {step, 1}, {step, 0}, {step, 1}};
  img.guard_ticks = 8;
  Board board;
  board.load_bank(1, build_image(img));
  const uint64_t t0 = 200 * FINE_STEPS + 3;
  board.record = false;
  uint64_t counts[3] = {};
  uint64_t wrong = 0;
  const uint64_t tune = test_tune(0, 1);
  board.on_edge = [&](const Edge& e) {
    ++counts[static_cast<int>(e.kind)];
    if (e.tick < t0 + step / 2) {  // activation from reset: tunes from select 0
      if (e.kind == EdgeKind::kFall || (e.kind == EdgeKind::kRise && e.tick != t0 + img.guard_ticks)) ++wrong;
      return;
    }
    const uint64_t phase = (e.kind == EdgeKind::kRise ? e.tick - img.guard_ticks : e.tick + tune) - t0;
    if (phase % step != 0) ++wrong;
  };
  board.commit_at(t0);
  const uint64_t kSteps = 100000;
  // Stop just before the boundary after the last one is taken.
  board.run_until_tick(t0 + kSteps * step - 2 * FINE_STEPS + 1);
  EXPECT_EQ(board.out().steps, kSteps);
  EXPECT_EQ(board.out().missed, 0u);
  EXPECT_EQ(board.out().errors, 0u);
  EXPECT_EQ(wrong, 0u) << "edges off the 16 ns grid";
  // Every port retunes at every boundary but the first (from reset select 0).
  EXPECT_EQ(counts[static_cast<int>(EdgeKind::kRise)], kSteps * PORTS);
  // (The next boundary's early retune may already be out.)
  EXPECT_GE(counts[static_cast<int>(EdgeKind::kFall)], (kSteps - 1) * PORTS);
  EXPECT_GE(counts[static_cast<int>(EdgeKind::kSelect)], (kSteps - 1) * PORTS);
}

TEST(SequencerWalk, TuneLongerThanThePrefetchCountsMissedButStillSwitches) {
  // A tune longer than two 16 ns steps (which the host validator would
  // refuse) cannot be issued early enough: the kernel switches late.
  TestImage img;
  img.configs = {ports({{0, 0}}), ports({{0, 60}})};
  const uint64_t step = uint64_t{MIN_STEP_CYCLES} * FINE_STEPS;
  img.steps = {{step, 0}, {step, 1}};
  img.guard_ticks = 0;
  Board board;
  board.write_tune(0, 60, 3 * step);
  board.write_tune(60, 0, 3 * step);
  board.load_bank(1, build_image(img));
  const uint64_t t0 = 200 * FINE_STEPS;
  board.commit_at(t0);
  board.run_until_tick(t0 + 20 * step);
  EXPECT_GT(board.out().missed, 0u);
  EXPECT_TRUE(board.out().errors & ERROR_MISSED_DEADLINE_MASK);
  // The grid itself does not slip: every boundary up to the last output
  // window is taken, and each one after the first moves the select.
  EXPECT_EQ(board.out().steps, 21u);
  const std::vector<uint64_t> selects = board.ticks_of(EdgeKind::kSelect, 0);
  EXPECT_GE(selects.size(), 20u);
  // Each step's laser is still moving to the next step's wavelength, whose
  // fall comes before the step's own guard ends: the gate stays dark.
  EXPECT_TRUE(board.ticks_of(EdgeKind::kRise, 0).empty());
}

}  // namespace
}  // namespace lightrail::seq::test
