// An oscillator outside the DAC's pull range: the servo cannot lock it, and
// says so (SYNC_ERROR.DAC_SATURATED, SYNC_STATUS.DAC_AT_RAIL) instead of
// sitting at a rail with no flag.
#include <gtest/gtest.h>

#include "loop_runner.hpp"

namespace lightrail::sync::test {
namespace {

TEST(HlsSync, AnOscillatorBeyondThePullRangeFlagsTheDacRail) {
  PlantConfig pc;
  pc.osc_offset_ppm = 80;  // the DAC pulls +-50 ppm
  Loop loop(pc);
  loop.run_us(3000);
  EXPECT_LT(loop.lock_us, 0) << "locked an oscillator it cannot pull";
  EXPECT_TRUE(loop.out.errors & hwdef::SYNC_ERROR_DAC_SATURATED_MASK);
  EXPECT_TRUE(loop.out.status & hwdef::SYNC_STATUS_DAC_AT_RAIL_MASK);
  EXPECT_EQ(loop.out.dac_word, 0u) << "a fast oscillator is pulled down to the rail";
}

TEST(HlsSync, AnOscillatorWithinThePullRangeNeverFlagsTheRail) {
  PlantConfig pc;
  pc.osc_offset_ppm = 45;
  Loop loop(pc);
  loop.run_us(3000);
  ASSERT_GT(loop.lock_us, 0);
  EXPECT_FALSE(loop.out.errors & hwdef::SYNC_ERROR_DAC_SATURATED_MASK);
  EXPECT_FALSE(loop.out.status & hwdef::SYNC_STATUS_DAC_AT_RAIL_MASK);
}

}  // namespace
}  // namespace lightrail::sync::test
