// Where one boundary's guard meets the next boundary's edges: the largest
// guards a schedule allows, swaps between guards, a triggered end and a STOP
// at the swap, judged on the gate the output stage makes (docs/sequencer.md,
// "Neighbouring boundaries"). Each case runs at every tick of the cycle.
#include <gtest/gtest.h>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

using Gate = std::vector<std::pair<uint64_t, bool>>;
constexpr uint64_t kStep = uint64_t{MIN_STEP_CYCLES} * FINE_STEPS;  // shortest step

// Changes of port 0's gate from tick `from` on.
Gate gate_from(const Board& board, uint64_t from) {
  Gate r;
  for (const auto& c : board.gate_of(0)) {
    if (c.first >= from) r.push_back(c);
  }
  return r;
}

uint64_t cycle_of(uint64_t tick) { return tick / FINE_STEPS; }

class SequencerGuard : public ::testing::TestWithParam<uint64_t> {
 protected:
  uint64_t t0() const { return 100 * FINE_STEPS + GetParam(); }  // start at every tick of a cycle
  Board board;
};

// A one-shot's last step may hold a guard of its whole length less a tick:
// its end needs no tuning. An epoch swap puts a retune there instead, whose
// fall comes before that guard ends: the port must stay dark from the fall,
// not light up while the laser moves.
TEST_P(SequencerGuard, SwapFallBeforeTheOldGuardEndsKeepsThePortDark) {
  TestImage old_img;
  old_img.configs = {ports({{0, 10}}), ports({{0, 11}})};
  old_img.steps = {{2000, 0}, {kStep, 1}};
  old_img.cyclic = false;
  old_img.guard_ticks = kStep - 1;
  TestImage new_img;
  new_img.configs = {ports({{0, 20}}), ports({{0, 22}})};
  new_img.steps = {{1000, 0}, {1000, 1}};
  new_img.guard_ticks = 40;
  new_img.generation = 2;
  board.load_bank(1, build_image(old_img));
  board.commit_at(t0());
  board.run_until_tick(t0() + 100);
  board.load_bank(0, build_image(new_img));
  board.commit_epoch();
  const uint64_t t1 = t0() + 2000, swap = t1 + kStep;
  board.run_until_tick(swap + 1500);
  ASSERT_EQ(board.out().last_swap_ticks, swap);
  const uint64_t fall = swap - test_tune(11, 20);
  ASSERT_LT(fall, t1 + old_img.guard_ticks) << "the case needs the fall before the old guard's end";
  const Gate expected = {{t0() + kStep - 1, true},
                         {t1 - test_tune(10, 11), false},
                         // no rise at t1 + guard: it would come after the swap's fall
                         {swap + 40, true},
                         {swap + 1000 - test_tune(20, 22), false},
                         {swap + 1040, true}};
  EXPECT_EQ(gate_from(board, 0), expected);
  EXPECT_EQ(board.out().missed, 0u);
  EXPECT_EQ(board.out().errors, 0u);
}

// The largest guard that fits a 16 ns step (its length less the tune into
// the next step less a tick) leaves a window of one tick before the next
// retune. A swap to a much shorter guard can put that window, the retune's
// fall and the new guard's end in one cycle, which the output stage (one
// fall, one rise per cycle) cannot make: the window is not opened. In any
// other cycle alignment it is there, exactly.
TEST_P(SequencerGuard, OneTickWindowBeforeASwapToAShortGuard) {
  constexpr uint32_t kOldGuard = kStep - 5 - 1;  // tune 10<->11 is 5 ticks
  TestImage old_img;
  old_img.configs = {ports({{0, 10}}), ports({{0, 11}})};
  old_img.steps = {{1000, 0}, {kStep, 1}};
  old_img.guard_ticks = kOldGuard;
  TestImage new_img;
  new_img.configs = {ports({{0, 12}}), ports({{0, 14}})};
  new_img.steps = {{1000, 0}, {1000, 1}};
  new_img.guard_ticks = 2;
  new_img.generation = 2;
  board.load_bank(1, build_image(old_img));
  board.commit_at(t0());
  board.run_until_tick(t0() + 100);
  board.load_bank(0, build_image(new_img));
  board.commit_epoch();
  const uint64_t swap = t0() + 1000 + kStep;
  board.run_until_tick(swap + 1500);
  ASSERT_EQ(board.out().last_swap_ticks, swap);
  const uint64_t last = swap - kStep;  // the old pass's last boundary
  const uint64_t opens = last + kOldGuard, closes = swap - test_tune(11, 12), rises = swap + 2;
  ASSERT_EQ(closes, opens + 1);
  Gate expected = {{last - test_tune(10, 11), false}};
  if (cycle_of(opens) != cycle_of(rises)) {
    expected.push_back({opens, true});
    expected.push_back({closes, false});
  }
  expected.push_back({rises, true});
  expected.push_back({swap + 1000 - test_tune(12, 14), false});
  expected.push_back({swap + 1002, true});
  EXPECT_EQ(gate_from(board, last - 10), expected);
  EXPECT_EQ(board.out().missed, 0u);
  EXPECT_EQ(board.out().errors, 0u);
}

// Guard = step - 1 tick at the shortest step, with retunes the calibration
// says are instant: a one-tick window every step, sustained.
TEST_P(SequencerGuard, GuardOfTheStepLessOneTickAtTheShortestStep) {
  board.write_tune(10, 11, 0);
  board.write_tune(11, 10, 0);
  TestImage img;
  img.configs = {ports({{0, 10}}), ports({{0, 11}})};
  img.steps = {{kStep, 0}, {kStep, 1}};
  img.guard_ticks = kStep - 1;
  board.load_bank(1, build_image(img));
  board.commit_at(t0());
  constexpr uint64_t kSteps = 1000;
  board.run_until_tick(t0() + kSteps * kStep + 10);
  Gate expected;
  for (uint64_t k = 0; k < kSteps; ++k) {
    const uint64_t t = t0() + k * kStep;
    expected.push_back({t + kStep - 1, true});
    expected.push_back({t + kStep, false});
  }
  EXPECT_EQ(gate_from(board, 0), expected);
  EXPECT_EQ(board.ticks_of(EdgeKind::kSelect, 0).size(), kSteps + 1);
  EXPECT_EQ(board.out().missed, 0u);
  EXPECT_EQ(board.out().errors, 0u);
}

// A triggered end behind a step with the largest guard: the step's own
// guard still ends on time, and the end retunes as early as tuning allows.
TEST_P(SequencerGuard, TriggeredEndAfterTheLargestGuard) {
  constexpr uint32_t kGuard = kStep - 5 - 1;
  TestImage img;
  img.configs = {ports({{0, 10}}), ports({{0, 11}})};
  img.steps = {{1000, 0}, {kStep, 1, true}};
  img.guard_ticks = kGuard;
  board.load_bank(1, build_image(img));
  board.commit_at(t0());
  const uint64_t event_start = t0() + 1000;
  board.run_until_tick(event_start + 5 * kStep);  // well past its minimum
  ASSERT_TRUE(board.status(STATUS_WAITING_TRIGGER_MASK));
  const uint64_t trigger_cycle = board.now();
  board.trigger();
  const uint64_t end = trigger_cycle + kTriggerLeadCycles * FINE_STEPS + test_tune(11, 10);
  board.run_until_tick(end + 1500);
  const Gate expected = {{event_start - test_tune(10, 11), false}, {event_start + kGuard, true},
                         {end - test_tune(11, 10), false},         {end + kGuard, true},
                         {end + 1000 - test_tune(10, 11), false},  {end + 1000 + kGuard, true}};
  EXPECT_EQ(gate_from(board, event_start - 10), expected);
  EXPECT_EQ(board.out().missed, 0u);
  EXPECT_EQ(board.out().errors, 0u);
}

// Named by the tick of the cycle the schedule starts at (t0).
INSTANTIATE_TEST_SUITE_P(EveryTickOfTheCycle, SequencerGuard, ::testing::Range<uint64_t>(0, FINE_STEPS),
                         [](const ::testing::TestParamInfo<uint64_t>& info) {
                           return "StartAtTick" + std::to_string(info.param);
                         });

// STOP in the cycles around an epoch swap's boundary: before the kernel takes
// it the boundary ends the schedule instead (no swap, the commit dropped);
// after, the new schedule runs to its first boundary.
struct StopCase {
  uint64_t phase;      // tick of its cycle the swap boundary is at
  int cycles_to_take;  // STOP this many cycles before the cycle that takes it (<0: after)
};

class SequencerStopAtSwap : public ::testing::TestWithParam<StopCase> {};

TEST_P(SequencerStopAtSwap, EndsAtTheFirstBoundaryNotYetTaken) {
  constexpr uint32_t kOldGuard = kStep - 5 - 1;
  constexpr uint64_t kFirst = 32 * FINE_STEPS;  // keeps the swap at `phase`
  TestImage old_img;
  old_img.configs = {ports({{0, 10}, {1, 30}}), ports({{0, 11}, {1, 30}})};
  old_img.steps = {{kFirst, 0}, {kStep, 1}};
  old_img.guard_ticks = kOldGuard;
  TestImage new_img;
  new_img.configs = {ports({{0, 12}, {1, 30}}), ports({{0, 14}, {1, 30}})};
  new_img.steps = {{1000, 0}, {1000, 1}};
  new_img.guard_ticks = 40;
  new_img.generation = 2;
  Board board;
  const uint64_t t0 = 100 * FINE_STEPS + GetParam().phase;
  board.load_bank(1, build_image(old_img));
  board.commit_at(t0);
  board.run_until_tick(t0 + 100);
  board.load_bank(0, build_image(new_img));
  board.commit_epoch();
  const uint64_t swap = t0 + kFirst + kStep;
  // The kernel takes a boundary in the cycle whose output window holds it.
  constexpr int64_t kCycle = FINE_STEPS;
  const int64_t take_now = int64_t(cycle_of(swap)) * kCycle - int64_t{OUTPUT_LATENCY_CYCLES} * kCycle;
  const int before = GetParam().cycles_to_take;
  const int64_t stop_now = take_now - before * kCycle;
  board.run_until_tick(uint64_t(stop_now));
  board.stop();
  board.run_until_tick(swap + 3000);
  const SequencerOut& out = board.out();
  EXPECT_FALSE(board.status(STATUS_RUNNING_MASK));
  EXPECT_FALSE(board.status(STATUS_COMMIT_PENDING_MASK));
  EXPECT_EQ(out.missed, 0u);
  EXPECT_EQ(out.errors, 0u);
  const uint64_t last = swap - kStep;
  const uint64_t retune = swap - test_tune(11, 12);
  Gate expected = {{last - test_tune(10, 11), false}, {last + kOldGuard, true}};
  if (before >= 0) {
    EXPECT_EQ(out.swaps, 1u) << "the swap boundary became the end";
    EXPECT_TRUE(board.status(STATUS_ACTIVE_BANK_MASK));
    EXPECT_EQ(out.generation, 1u);
    // An early retune already out stands (its fall and select); otherwise
    // the port falls at the boundary and keeps its select.
    const bool retune_out = int64_t(retune) < stop_now + int64_t{OUTPUT_LATENCY_CYCLES} * kCycle;
    expected.push_back({retune_out ? retune : swap, false});
    EXPECT_EQ(board.ticks_of(EdgeKind::kSelect, 0).back(), retune_out ? retune : last - test_tune(10, 11));
  } else {
    EXPECT_EQ(out.swaps, 2u);
    EXPECT_FALSE(board.status(STATUS_ACTIVE_BANK_MASK));
    EXPECT_EQ(out.generation, 2u);
    expected.push_back({retune, false});
    expected.push_back({swap + 40, true});
    expected.push_back({swap + 1000, false});
  }
  EXPECT_EQ(gate_from(board, last - 10), expected);
  // Port 1 keeps its wavelength across the swap: lit until the end.
  const Gate port1 = board.gate_of(1);
  ASSERT_FALSE(port1.empty());
  EXPECT_EQ(port1.back(), std::make_pair(before >= 0 ? swap : swap + 1000, false));
}

std::vector<StopCase> stop_cases() {
  std::vector<StopCase> r;
  for (uint64_t phase : {0u, 3u, 4u, 5u, 6u, 20u, 31u}) {
    for (int before : {2, 1, 0, -1}) r.push_back({phase, before});
  }
  return r;
}

INSTANTIATE_TEST_SUITE_P(AroundTheTake, SequencerStopAtSwap, ::testing::ValuesIn(stop_cases()),
                         [](const ::testing::TestParamInfo<StopCase>& info) {
                           const int before = info.param.cycles_to_take;
                           return "Phase" + std::to_string(info.param.phase) +
                                  (before >= 0 ? "Stop" + std::to_string(before) + "CyclesBeforeTheTake"
                                               : "Stop" + std::to_string(-before) + "CyclesAfterTheTake");
                         });

}  // namespace
}  // namespace lightrail::seq::test
