// PPS / epoch output (hw/pps_out.sv).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "Vhw_sync_pps.h"
#include "lightrail/hwdef.hpp"
#include "rtl_coverage.hpp"
#include "verilated.h"

namespace {

constexpr uint64_t kTicksPerCycle = lightrail::hwdef::FINE_STEPS;

struct Pulse {
  uint64_t cycle_time;  // board time of the cycle pps_o was high
  uint64_t boundary;    // pps_time_o
  uint32_t fine;        // pps_fine_o
};

class PpsBench {
 public:
  explicit PpsBench(uint64_t start_ticks) : time_(start_ticks) {
    model_.rst_ni = 0;
    Cycle();
    model_.rst_ni = 1;
  }
  ~PpsBench() {
    model_.final();
    lightrail::rtl_coverage::write(context_, "hw_sync_pps");
  }

  void Configure(bool enable, uint64_t period) {
    model_.enable_i = enable;
    model_.period_i = period;
  }

  // Runs n cycles of continuous board time; collects pulses.
  void Run(int n) {
    for (int i = 0; i < n; ++i) Cycle();
  }
  void JumpTime(int64_t ticks) { time_ += ticks; }

  uint64_t time() const { return time_; }
  const std::vector<Pulse>& pulses() const { return pulses_; }
  Vhw_sync_pps& m() { return model_; }

 private:
  void Cycle() {
    // Outputs seen before the edge belong to the cycle with board time time_.
    model_.time_i = time_;
    model_.clk_i = 0;
    model_.eval();
    if (model_.pps_o) pulses_.push_back({time_, model_.pps_time_o, model_.pps_fine_o});
    model_.clk_i = 1;
    model_.eval();
    time_ += kTicksPerCycle;
  }

  VerilatedContext context_;
  Vhw_sync_pps model_{&context_};
  uint64_t time_;
  std::vector<Pulse> pulses_;
};

// Every pulse sits on a multiple of the period inside its own cycle, and
// after the first one no multiple is skipped.
void ExpectPulsesOnEveryMultiple(const std::vector<Pulse>& pulses, uint64_t period) {
  for (size_t i = 0; i < pulses.size(); ++i) {
    const Pulse& p = pulses[i];
    EXPECT_EQ(p.boundary % period, 0u) << "pulse " << i;
    EXPECT_GE(p.boundary, p.cycle_time) << "pulse " << i;
    EXPECT_LT(p.boundary, p.cycle_time + kTicksPerCycle) << "pulse " << i;
    EXPECT_EQ(p.fine, p.boundary - p.cycle_time) << "pulse " << i;
    if (i > 0) {
      EXPECT_EQ(p.boundary, pulses[i - 1].boundary + period) << "pulse " << i;
    }
  }
}

TEST(PpsOut, OnePulsePerPeriodOnTheMultiplesOfBoardTimeWithItsFineTick) {
  constexpr uint64_t kPeriod = 1000;  // not a whole number of cycles: every fine tick varies
  PpsBench b(123'456'789);
  b.Configure(true, kPeriod);
  b.Run(100);  // alignment
  EXPECT_TRUE(b.m().aligned_o);
  const size_t before = b.pulses().size();
  const uint64_t from = b.time();
  b.Run(10'000);
  const uint64_t to = b.time();
  ASSERT_FALSE(b.pulses().empty());
  ExpectPulsesOnEveryMultiple(b.pulses(), kPeriod);
  // Exactly the multiples in [from, to): none missing at either end.
  const uint64_t expected = (to - 1) / kPeriod - (from - 1) / kPeriod;
  EXPECT_EQ(b.pulses().size() - before, expected);
}

TEST(PpsOut, APeriodOfOneCyclePulsesEveryCycle) {
  PpsBench b(5 * kTicksPerCycle + 7);
  b.Configure(true, kTicksPerCycle);
  b.Run(200);
  ASSERT_GE(b.pulses().size(), 100u);
  ExpectPulsesOnEveryMultiple(b.pulses(), kTicksPerCycle);
  // Board time runs 7 ticks past the cycle grid: every boundary is tick 25.
  EXPECT_EQ(b.pulses().back().fine, kTicksPerCycle - 7);
}

TEST(PpsOut, OneSecondPeriodLandsOnTheSecond) {
  constexpr uint64_t kSecond = 8'000'000'000ull;  // ticks of 125 ps
  PpsBench b(41 * kSecond - 50'000);              // 50000 ticks = 1563 cycles before
  b.Configure(true, kSecond);
  b.Run(3'000);
  ASSERT_EQ(b.pulses().size(), 1u);
  EXPECT_EQ(b.pulses()[0].boundary, 41 * kSecond);
  EXPECT_EQ(b.pulses()[0].fine, (41 * kSecond - (41 * kSecond - 50'000)) % kTicksPerCycle);
}

TEST(PpsOut, AfterABoardTimeStepPulsesRealignToTheNewMultiples) {
  constexpr uint64_t kPeriod = 4096 + 17;
  PpsBench b(0);
  b.Configure(true, kPeriod);
  b.Run(2'000);
  const size_t before = b.pulses().size();
  ASSERT_GE(before, 10u);
  b.JumpTime(+777'777);  // the servo steps the time forward
  b.Run(2'000);
  b.JumpTime(-333'333);  // and back (a coarse correction)
  b.Run(2'000);
  ASSERT_GE(b.pulses().size(), before + 20);
  for (size_t i = 0; i < b.pulses().size(); ++i) {
    const Pulse& p = b.pulses()[i];
    EXPECT_EQ(p.boundary % kPeriod, 0u) << "pulse " << i;
    EXPECT_GE(p.boundary, p.cycle_time) << "pulse " << i;
    EXPECT_LT(p.boundary, p.cycle_time + kTicksPerCycle) << "pulse " << i;
  }
}

TEST(PpsOut, APeriodChangeRealignsAndAPeriodBelowOneCycleIsRefused) {
  PpsBench b(10'000);
  b.Configure(true, 31);  // two boundaries could fall in one cycle
  b.Run(300);
  EXPECT_TRUE(b.m().period_error_o);
  EXPECT_FALSE(b.m().aligned_o);
  EXPECT_TRUE(b.pulses().empty());

  b.Configure(true, 500);
  b.Run(1'000);
  EXPECT_FALSE(b.m().period_error_o);
  const size_t at_500 = b.pulses().size();
  ASSERT_GT(at_500, 10u);
  b.Configure(true, 700);
  b.Run(1'000);
  ASSERT_GT(b.pulses().size(), at_500 + 10);
  for (size_t i = at_500; i < b.pulses().size(); ++i) {
    EXPECT_EQ(b.pulses()[i].boundary % 700, 0u) << "pulse " << i;
  }
  b.Configure(false, 700);
  const size_t at_disable = b.pulses().size();
  b.Run(1'000);
  EXPECT_EQ(b.pulses().size(), at_disable);
  EXPECT_FALSE(b.m().aligned_o);
}

}  // namespace
