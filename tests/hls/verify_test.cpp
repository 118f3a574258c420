// A committed bank that fails verification raises its error flag, is never
// swapped in, and the running schedule carries on untouched.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "board_harness.hpp"
#include "test_image.hpp"

namespace lightrail::seq::test {
namespace {

using namespace hwdef;

constexpr uint32_t kGuard = 5;
constexpr uint64_t kT0 = 100 * FINE_STEPS;
constexpr uint64_t kPeriod = 1200;

TestImage running_schedule() {
  TestImage img;
  img.configs = {ports({{0, 1}}), ports({{0, 2}})};
  img.steps = {{400, 0}, {800, 1}};
  img.guard_ticks = kGuard;
  img.generation = 3;
  return img;
}

TestImage candidate() {
  TestImage img;
  img.configs = {ports({{0, 5}}), ports({{0, 6}})};
  img.steps = {{600, 0}, {800, 1}};
  img.generation = 9;
  return img;
}

struct BadBank {
  std::string name;
  std::function<void(std::vector<uint32_t>&)> corrupt;
  uint32_t error;
};

class SequencerVerifyRejects : public ::testing::TestWithParam<BadBank> {};

TEST_P(SequencerVerifyRejects, RaisesItsFlagAndKeepsTheOldScheduleRunning) {
  Board board;
  board.load_bank(1, build_image(running_schedule()));
  board.commit_at(kT0);
  board.run_until_tick(kT0 + kPeriod + 100);
  std::vector<uint32_t> words = build_image(candidate());
  GetParam().corrupt(words);
  board.load_bank(0, words);
  board.commit_epoch();
  const uint64_t until = kT0 + 4 * kPeriod + 100;
  board.run_until_tick(until);

  const SequencerOut& out = board.out();
  EXPECT_EQ(out.errors, GetParam().error);
  EXPECT_FALSE(board.status(STATUS_COMMIT_PENDING_MASK));
  EXPECT_FALSE(board.status(STATUS_VERIFY_BUSY_MASK));
  EXPECT_TRUE(board.status(STATUS_ACTIVE_BANK_MASK));
  EXPECT_TRUE(board.status(STATUS_RUNNING_MASK));
  EXPECT_EQ(out.swaps, 1u);
  EXPECT_EQ(out.generation, 3u);
  EXPECT_EQ(out.missed, 0u);
  // Boundaries stay on the old grid: 400, 800, 400, 800, ...
  std::vector<uint64_t> expected;
  for (uint64_t t = kT0, k = 0; t < until; t += (k++ % 2 == 0) ? 400 : 800) expected.push_back(t + kGuard);
  EXPECT_EQ(board.ticks_of(EdgeKind::kRise, 0), expected);

  SequencerIn clear;
  clear.clear_errors = GetParam().error;
  board.cycle(clear);
  EXPECT_EQ(board.out().errors, 0u);
}

void seal_after(std::vector<uint32_t>& w, uint32_t index, uint32_t value) {
  w[index] = value;
  seal(w);
}

const uint32_t kStep1Hi = IMG_STEP_BASE_WORD + IMG_STEP_WORDS + IMG_STEP_DURATION_HI_WORD;

INSTANTIATE_TEST_SUITE_P(
    Sequencer, SequencerVerifyRejects,
    ::testing::Values(
        BadBank{"Magic", [](auto& w) { seal_after(w, IMG_HDR_MAGIC, IMG_MAGIC ^ 1u); }, ERROR_BAD_MAGIC_MASK},
        BadBank{"Version", [](auto& w) { seal_after(w, IMG_HDR_VERSION, IMG_VERSION + 1); },
                ERROR_BAD_VERSION_MASK},
        BadBank{"NoSteps", [](auto& w) { seal_after(w, IMG_HDR_N_STEPS, 0); }, ERROR_BAD_BOUNDS_MASK},
        BadBank{"TooManySteps", [](auto& w) { seal_after(w, IMG_HDR_N_STEPS, MAX_STEPS + 1); },
                ERROR_BAD_BOUNDS_MASK},
        BadBank{"NoConfigs", [](auto& w) { seal_after(w, IMG_HDR_N_CONFIGS, 0); }, ERROR_BAD_BOUNDS_MASK},
        BadBank{"TooManyConfigs", [](auto& w) { seal_after(w, IMG_HDR_N_CONFIGS, MAX_CONFIGS + 1); },
                ERROR_BAD_BOUNDS_MASK},
        BadBank{"ConfigIndexOutOfRange",
                [](auto& w) {
                  // Step 1 names config 2 of 2 (indices 0..1); the CRC is right.
                  seal_after(w, kStep1Hi,
                             (w[kStep1Hi] & ~IMG_STEP_CONFIG_MASK) | (2u << IMG_STEP_CONFIG_LSB));
                },
                ERROR_BAD_BOUNDS_MASK},
        BadBank{"StepShorterThanMinimum",
                [](auto& w) {
                  seal_after(w, IMG_STEP_BASE_WORD + IMG_STEP_DURATION_LO_WORD,
                             MIN_STEP_CYCLES * FINE_STEPS - 1);
                },
                ERROR_BAD_BOUNDS_MASK},
        BadBank{"CrcOfAStep", [](auto& w) { w[IMG_STEP_BASE_WORD] += 32; }, ERROR_BAD_CRC_MASK},
        BadBank{"CrcOfAConfig", [](auto& w) { w[IMG_CONFIG_BASE_WORD] ^= 1u; }, ERROR_BAD_CRC_MASK},
        BadBank{"CrcOfTheHeader", [](auto& w) { w[IMG_HDR_GUARD_TICKS] ^= 1u; }, ERROR_BAD_CRC_MASK}),
    [](const auto& info) { return info.param.name; });

TEST(SequencerVerify, UnusedWordsAreNotCovered) {
  // Words past the used configs and steps may hold anything.
  Board board;
  std::vector<uint32_t> words = build_image(candidate());
  words[IMG_CONFIG_BASE_WORD + 2 * IMG_CONFIG_WORDS] = 0xDEADBEEF;
  words[IMG_STEP_BASE_WORD + 2 * IMG_STEP_WORDS] = 0xDEADBEEF;
  board.load_bank(1, words);
  board.commit_epoch();
  board.run(100);
  EXPECT_EQ(board.out().errors, 0u);
  EXPECT_TRUE(board.status(STATUS_RUNNING_MASK));
  EXPECT_EQ(board.out().generation, 9u);
}

}  // namespace
}  // namespace lightrail::seq::test
