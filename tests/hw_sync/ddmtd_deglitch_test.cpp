// The DDMTD deglitcher alone (hw/ddmtd_deglitch.sv), driven sample by sample:
// the stable level changes after exactly DEGLITCH samples that disagree with
// it, however soon after the last change they come, and a shorter run is a
// glitch. The DDMTD bench (ddmtd_test.cpp) only sees beats thousands of
// samples long, where neither edge of that rule shows; mutation testing found
// the run count's restart at a change untested (docs/mutation.md).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "Vhw_sync_deglitch.h"
#include "lightrail/hwdef.hpp"
#include "rtl_coverage.hpp"
#include "verilated.h"

namespace {

namespace hwdef = lightrail::hwdef;

// The model is verilated with DEGLITCH = LIGHTRAIL_DEGLITCH_TEST (CMake): the
// rule is the same at any length, a short one keeps the patterns short.
constexpr uint32_t kDeglitch = LIGHTRAIL_DEGLITCH_TEST;
constexpr uint32_t kCountMask = (1u << hwdef::DDMTD_TAG_BITS) - 1;  // the model's TAG_BITS (module default)

class DeglitchBench {
 public:
  DeglitchBench() {
    model_.rst_ni = 0;
    Sample(true);
    Sample(true);
    model_.rst_ni = 1;
  }
  ~DeglitchBench() {
    model_.final();
    lightrail::rtl_coverage::write(context_, "hw_sync_deglitch");
  }

  // One helper cycle with `level` sampled; count_i is the cycle number.
  void Sample(bool level) {
    model_.sample_i = level;
    model_.count_i = count_ & kCountMask;
    model_.clk_i = 0;
    model_.eval();
    model_.clk_i = 1;
    model_.eval();
    if (model_.tag_valid_o) tags_.push_back(model_.tag_o);
    ++count_;
  }
  void Hold(bool level, uint32_t samples) {
    for (uint32_t k = 0; k < samples; ++k) Sample(level);
  }
  // Reset held for `cycles` helper cycles, the input at `level`.
  void Reset(bool level, uint32_t cycles) {
    model_.rst_ni = 0;
    Hold(level, cycles);
    model_.rst_ni = 1;
  }

  uint32_t count() const { return count_; }
  bool level() const { return model_.level_o; }
  const std::vector<uint32_t>& tags() const { return tags_; }

 private:
  VerilatedContext context_;
  Vhw_sync_deglitch model_{&context_};
  uint32_t count_ = 0;
  std::vector<uint32_t> tags_;
};

// A clean beat at the shortest period the deglitcher follows (DEGLITCH high,
// DEGLITCH low): every level is taken the sample it completes, and every
// rising edge gives one tag, the count of its first high sample.
TEST(DdmtdDeglitch, LevelsOfExactlyDeglitchSamplesAreEachTakenAndEveryRiseTagged) {
  DeglitchBench bench;
  bench.Hold(false, kDeglitch);  // the first settled fall arms the tags
  ASSERT_FALSE(bench.level());
  std::vector<uint32_t> rises;
  for (int period = 0; period < 8; ++period) {
    rises.push_back(bench.count() & kCountMask);
    bench.Hold(true, kDeglitch);
    EXPECT_TRUE(bench.level()) << "period " << period;
    bench.Hold(false, kDeglitch);
    EXPECT_FALSE(bench.level()) << "period " << period;
  }
  EXPECT_EQ(bench.tags(), rises);
}

// A run one sample short of DEGLITCH is a glitch: the level stays and no tag
// comes; a full run after one agreeing sample is a rise, tagged midway
// between the glitch's first sample and the rise's first (the estimator).
TEST(DdmtdDeglitch, ARunOneSampleShortIsAGlitch) {
  DeglitchBench bench;
  bench.Hold(false, 4 * kDeglitch);
  bench.Hold(true, kDeglitch - 1);
  EXPECT_FALSE(bench.level());
  const uint32_t first = bench.count();
  bench.Hold(false, 1);
  EXPECT_TRUE(bench.tags().empty());
  const uint32_t last = bench.count();
  bench.Hold(true, kDeglitch);
  EXPECT_TRUE(bench.level());
  const uint32_t glitch_start = first - (kDeglitch - 1);
  EXPECT_EQ(bench.tags(), std::vector<uint32_t>{(glitch_start + (last - glitch_start) / 2) & kCountMask});
}

// A reset in the cycle after a tag ends that tag's one-cycle pulse: the rise
// gives one tag, not one more per reset cycle (mutation testing: the reset
// of tag_valid_o deleted survived the DDMTD benches, which reset only once,
// before any tag).
TEST(DdmtdDeglitch, AResetRightAfterATagEndsItsPulse) {
  DeglitchBench bench;
  bench.Hold(false, kDeglitch);
  bench.Hold(true, kDeglitch);
  ASSERT_EQ(bench.tags().size(), 1u);
  bench.Reset(true, 3);
  EXPECT_EQ(bench.tags().size(), 1u);
}

}  // namespace
