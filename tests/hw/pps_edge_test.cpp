// PPS / epoch output (hw/pps_out.sv) where boundaries meet cycle edges: a
// boundary on every tick of its cycle (tick 0 is exactly on the edge, tick 31
// one tick before the next), a one-second period across two seconds, and
// board-time steps over a boundary. Complements tests/hw_sync/pps_out_test.cpp,
// whose periods never put a boundary on an edge.
//
// The contract (docs/hw-clock-sync.md): pps_o is high during exactly the cycle
// whose window [time_i, time_i + FINE_STEPS) holds a multiple of the period,
// with the boundary's tick in pps_fine_o and the boundary in pps_time_o.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "Vhw_pps_bench.h"
#include "lightrail/hwdef.hpp"
#include "rtl_coverage.hpp"
#include "verilated.h"

namespace {

constexpr uint64_t kTicksPerCycle = lightrail::hwdef::FINE_STEPS;
constexpr uint64_t kTicksPerSecond = 1'000'000'000'000ull / lightrail::hwdef::TICK_PS;
// The docs allow ~66 cycles of alignment after enable or a step; the benches
// give it this many before the first boundary they expect.
constexpr uint64_t kAlignCycles = 100;

struct Pulse {
  uint64_t cycle_time;  // board time of the cycle pps_o was high
  uint64_t boundary;    // pps_time_o
  uint32_t fine;        // pps_fine_o
};

class PpsEdgeBench {
 public:
  PpsEdgeBench(uint64_t start_ticks, uint64_t period) : time_(start_ticks) {
    model_.rst_ni = 0;
    Cycle();
    model_.rst_ni = 1;
    model_.enable_i = 1;
    model_.period_i = period;
  }
  ~PpsEdgeBench() {
    model_.final();
    lightrail::rtl_coverage::write(context_, "hw_pps");
  }

  void Run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) Cycle();
  }
  // Runs until board time reaches t (a whole number of cycles ahead).
  void RunTo(uint64_t t) { Run((t - time_) / kTicksPerCycle); }
  void Step(int64_t ticks) { time_ += ticks; }

  uint64_t time() const { return time_; }
  const std::vector<Pulse>& pulses() const { return pulses_; }

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
  Vhw_pps_bench model_{&context_};
  uint64_t time_;
  std::vector<Pulse> pulses_;
};

// Every pulse lies in the cycle holding its boundary, at its tick, and the
// pulses are exactly the multiples of the period in [first, last]: one pulse,
// one cycle wide, per boundary.
void ExpectOnePulsePerBoundary(const std::vector<Pulse>& pulses, uint64_t period, uint64_t first,
                               uint64_t last, const std::string& what) {
  ASSERT_EQ(first % period, 0u) << what;
  ASSERT_EQ(pulses.size(), (last - first) / period + 1) << what;
  for (size_t i = 0; i < pulses.size(); ++i) {
    const Pulse& p = pulses[i];
    EXPECT_EQ(p.boundary, first + i * period) << what << ", pulse " << i;
    EXPECT_GE(p.boundary, p.cycle_time) << what << ", pulse " << i;
    EXPECT_LT(p.boundary, p.cycle_time + kTicksPerCycle) << what << ", pulse " << i;
    EXPECT_EQ(p.fine, p.boundary - p.cycle_time) << what << ", pulse " << i;
  }
}

struct PeriodCase {
  const char* name;
  uint64_t period;
};

class PpsBoundary : public testing::TestWithParam<PeriodCase> {};

// For each tick f of the cycle, board time runs so that the first boundary
// after 41 s lands on tick f: f = 0 is on the cycle edge, 1 one tick after it, 31
// one tick before the next edge.
TEST_P(PpsBoundary, OnEveryTickOfItsCycle) {
  const uint64_t period = GetParam().period;
  const uint64_t boundary = (41 * kTicksPerSecond / period + 1) * period;
  for (uint32_t f = 0; f < kTicksPerCycle; ++f) {
    const uint64_t cycle_time = boundary - f;
    PpsEdgeBench b(cycle_time - 3 * kAlignCycles * kTicksPerCycle, period);
    b.Run(kAlignCycles);
    const size_t before = b.pulses().size();
    const uint64_t from = b.time();
    b.RunTo(cycle_time + 2 * kAlignCycles * kTicksPerCycle);
    // From the first boundary after alignment to the last one run through.
    const uint64_t first = (from + period - 1) / period * period;
    const uint64_t last = (b.time() - 1) / period * period;
    const std::vector<Pulse> run(b.pulses().begin() + before, b.pulses().end());
    ExpectOnePulsePerBoundary(run, period, first, last, "boundary on tick " + std::to_string(f));
    bool seen = false;
    for (const Pulse& p : run) seen |= p.boundary == boundary && p.fine == f && p.cycle_time == cycle_time;
    EXPECT_TRUE(seen) << "the boundary on tick " << f << " was not pulsed in its cycle";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Period, PpsBoundary,
    testing::Values(PeriodCase{"OneSecond", kTicksPerSecond},
                    PeriodCase{"WholeCycles", 1000 * kTicksPerCycle},  // every boundary on one tick
                    PeriodCase{"OddTicks", 1001},                      // boundaries walk over the ticks
                    PeriodCase{"OneCycle", kTicksPerCycle}),           // a pulse every cycle
    [](const testing::TestParamInfo<PeriodCase>& info) { return std::string(info.param.name); });

// A full second of cycles: the two second boundaries pulse, each once, one
// cycle wide, and nothing between them.
TEST(PpsSecond, OnePulsePerSecondBoundaryAndNoneBetween) {
  const uint64_t first = 41 * kTicksPerSecond;
  PpsEdgeBench b(first - 3 * kAlignCycles * kTicksPerCycle, kTicksPerSecond);
  b.RunTo(first + kTicksPerSecond + kAlignCycles * kTicksPerCycle);
  ExpectOnePulsePerBoundary(b.pulses(), kTicksPerSecond, first, first + kTicksPerSecond, "two seconds");
}

// Board time steps (a servo's coarse correction) over a boundary.
class PpsStep : public testing::Test {
 protected:
  static constexpr uint64_t kPeriod = 100'000;  // 3125 cycles
  static constexpr uint64_t kBoundary = 7 * kPeriod;
  // Aligned, ten cycles before the boundary, no pulse yet.
  PpsEdgeBench b_{kBoundary - (10 + 3 * kAlignCycles) * kTicksPerCycle, kPeriod};
  void SetUp() override {
    b_.RunTo(kBoundary - 10 * kTicksPerCycle);
    ASSERT_TRUE(b_.pulses().empty());
  }
};

TEST_F(PpsStep, AForwardStepOverABoundarySkipsItAndPulsesTheNextOnTime) {
  b_.Step(20 * kTicksPerCycle);  // from 10 cycles before to 10 cycles after
  b_.RunTo(kBoundary + kPeriod + kAlignCycles * kTicksPerCycle);
  ExpectOnePulsePerBoundary(b_.pulses(), kPeriod, kBoundary + kPeriod, kBoundary + kPeriod, "after the step");
}

TEST_F(PpsStep, ABackwardStepOverABoundaryPulsesItAgain) {
  b_.Run(20);  // the boundary pulses, then board time steps back before it
  ASSERT_EQ(b_.pulses().size(), 1u);
  b_.Step(-static_cast<int64_t>((20 + 3 * kAlignCycles) * kTicksPerCycle));
  b_.RunTo(kBoundary + kAlignCycles * kTicksPerCycle);
  ASSERT_EQ(b_.pulses().size(), 2u);
  for (const Pulse& p : b_.pulses()) {
    EXPECT_EQ(p.boundary, kBoundary);
    EXPECT_EQ(p.cycle_time, kBoundary);  // a whole number of cycles: on the edge
    EXPECT_EQ(p.fine, 0u);
  }
}

TEST_F(PpsStep, ASubCycleStepMovesTheBoundaryToItsNewTick) {
  b_.Step(-(3 * kAlignCycles * kTicksPerCycle) + 5);  // back, and 5 ticks off the old grid
  b_.RunTo(kBoundary + 5 + kAlignCycles * kTicksPerCycle);
  ASSERT_EQ(b_.pulses().size(), 1u);
  const Pulse& p = b_.pulses()[0];
  EXPECT_EQ(p.boundary, kBoundary);
  EXPECT_EQ(p.cycle_time, kBoundary - kTicksPerCycle + 5);  // the cycle holding the boundary
  EXPECT_EQ(p.fine, kTicksPerCycle - 5);
}

}  // namespace
