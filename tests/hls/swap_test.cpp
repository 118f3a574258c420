// Hitless bank swaps: at the end of a pass, and at a commanded time.
#include <gtest/gtest.h>

#include "board_harness.hpp"
#include "swap_schedule.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint32_t kGuard = 5;
constexpr uint64_t kT0 = 100 * FINE_STEPS;
const std::vector<uint64_t> kOldDurations = {300, 500, 700, 400};  // period 1900
const std::vector<uint64_t> kNewDurations = {600, 800};            // period 1400

// Port 0 changes wavelength at every boundary (also across the swap), so
// its rises mark every boundary.
TestImage old_schedule() {
  TestImage img;
  img.configs = {ports({{0, 1}}), ports({{0, 2}})};
  img.steps = {{300, 0}, {500, 1}, {700, 0}, {400, 1}};
  img.guard_ticks = kGuard;
  img.generation = 3;
  return img;
}

// Boundaries of the old schedule from kT0 until `swap`, then the new one's.
std::vector<uint64_t> expected_boundaries(uint64_t swap, uint64_t until) {
  std::vector<uint64_t> r;
  uint64_t t = kT0;
  for (size_t k = 0; t < swap; ++k) {
    r.push_back(t);
    t += kOldDurations[k % kOldDurations.size()];
  }
  EXPECT_EQ(t, swap) << "the swap must land on an old boundary";
  for (size_t k = 0; t < until; ++k) {
    r.push_back(t);
    t += kNewDurations[k % kNewDurations.size()];
  }
  return r;
}

std::vector<uint64_t> boundaries(const Board& board) {
  std::vector<uint64_t> r = board.ticks_of(EdgeKind::kRise, 0);
  for (uint64_t& t : r) t -= kGuard;
  return r;
}

class SequencerSwap : public ::testing::Test {
 protected:
  void SetUp() override {
    board.load_bank(1, build_image(old_schedule()));
    board.commit_at(kT0);
  }
  Board board;
};

TEST_F(SequencerSwap, EpochSwapIsHitlessAtTheEndOfThePass) {
  board.run_until_tick(kT0 + 2 * 1900 + 600);  // mid third pass
  board.load_bank(0, build_image(new_schedule(kGuard)));
  board.commit_epoch();
  EXPECT_TRUE(board.status(STATUS_VERIFY_BUSY_MASK));
  board.run(20);  // verification: 7 lines
  EXPECT_TRUE(board.status(STATUS_COMMIT_PENDING_MASK));
  EXPECT_TRUE(board.status(STATUS_ACTIVE_BANK_MASK)) << "old bank runs until the pass ends";
  const uint64_t swap = kT0 + 3 * 1900;
  const uint64_t until = swap + 3 * 1400 + 100;
  board.run_until_tick(until);
  // Every old step kept its full duration; the new program starts exactly at
  // the old period's end.
  EXPECT_EQ(boundaries(board), expected_boundaries(swap, until));
  const SequencerOut& out = board.out();
  EXPECT_EQ(out.last_swap_ticks, swap);
  EXPECT_EQ(out.swaps, 2u);
  EXPECT_EQ(out.generation, 7u);
  EXPECT_FALSE(board.status(STATUS_ACTIVE_BANK_MASK));
  EXPECT_FALSE(board.status(STATUS_COMMIT_PENDING_MASK));
  EXPECT_EQ(out.epochs, 3u) << "epochs count passes of the new schedule";
  EXPECT_EQ(out.steps, 12u + 7u) << "the step counter continues across the swap";
  EXPECT_EQ(out.missed, 0u);
  EXPECT_EQ(out.errors, 0u);
}

struct AtTimeCase {
  uint64_t commit_offset;  // from kT0
  uint64_t swap_offset;    // expected first boundary >= commit time
};

class SequencerSwapAtTime : public SequencerSwap, public ::testing::WithParamInterface<AtTimeCase> {};

TEST_P(SequencerSwapAtTime, LandsOnTheFirstBoundaryAtOrAfterTheTime) {
  board.run_until_tick(kT0 + 1900 + 300);
  board.load_bank(0, build_image(new_schedule(kGuard)));
  board.commit_at(kT0 + GetParam().commit_offset);
  const uint64_t swap = kT0 + GetParam().swap_offset;
  const uint64_t until = swap + 2 * 1400 + 100;
  board.run_until_tick(until);
  EXPECT_EQ(boundaries(board), expected_boundaries(swap, until));
  EXPECT_EQ(board.out().last_swap_ticks, swap);
  EXPECT_EQ(board.out().generation, 7u);
  EXPECT_EQ(board.out().missed, 0u);
  EXPECT_EQ(board.out().errors, 0u);
}

INSTANTIATE_TEST_SUITE_P(Sequencer, SequencerSwapAtTime,
                         ::testing::Values(AtTimeCase{3800 + 400, 3800 + 800},   // mid step
                                           AtTimeCase{3800 + 800, 3800 + 800},   // on a boundary
                                           AtTimeCase{3800 + 801, 3800 + 1500},  // just after one
                                           AtTimeCase{5000, 5300}),              // a later pass
                         [](const ::testing::TestParamInfo<AtTimeCase>& info) {
                           return "CommitAt" + std::to_string(info.param.commit_offset) + "SwapAt" +
                                  std::to_string(info.param.swap_offset);
                         });

}  // namespace
}  // namespace lightrail::seq::test
