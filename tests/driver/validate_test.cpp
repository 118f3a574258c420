#include "lightrail/validate.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "test_schedules.hpp"

namespace lightrail {
namespace {

using test::two_shifts;
using test::uniform;

const DeviceCapabilities kCaps = DeviceCapabilities::reference();

// The one problem a schedule with a single mistake has.
Problem only_problem(const Schedule& s, const DeviceCapabilities& caps = kCaps) {
  const auto problems = validate(s, caps);
  EXPECT_EQ(problems.size(), 1u) << to_string(problems);
  return problems.empty() ? Problem{} : problems[0];
}

TEST(Validate, ValidScheduleHasNoProblems) { EXPECT_TRUE(validate(two_shifts(), kCaps).empty()); }

TEST(Validate, ReferenceTuneTableFollowsTheModel) {
  EXPECT_EQ(kCaps.tune_ps(5, 5), 0);
  EXPECT_EQ(kCaps.tune_ps(3, 4), 375);   // 309 ps -> 3 ticks
  EXPECT_EQ(kCaps.tune_ps(0, 63), 875);  // 867 ps -> 7 ticks
  EXPECT_EQ(kCaps.max_tune_to_ps(0), 875);
  EXPECT_EQ(kCaps.min_step_ps(), 16000);
}

TEST(Validate, WavelengthOutOfRange) {
  Schedule s = two_shifts();
  s.configs[1].wavelength[5] = 64;
  const Problem p = only_problem(s);
  EXPECT_EQ(p.where, "configs[1].ports[5]");
  EXPECT_NE(p.message.find("64"), std::string::npos);
}

TEST(Validate, PortCountMustMatchDevice) {
  Schedule s = two_shifts();
  s.configs[0].wavelength.pop_back();
  const Problem p = only_problem(s);
  EXPECT_EQ(p.where, "configs[0].ports");
  EXPECT_NE(p.message.find("15 ports, the device has 16"), std::string::npos);
}

TEST(Validate, StepShorterThanMinimum) {
  Schedule s = two_shifts();
  s.steps[1].duration_ps = 15999;
  EXPECT_EQ(only_problem(s).where, "steps[1].duration_ps");
}

TEST(Validate, ZeroAndNegativeDurations) {
  Schedule s = two_shifts();
  s.steps[0].duration_ps = 0;
  s.steps[1].duration_ps = -5;
  const auto problems = validate(s, kCaps);
  ASSERT_EQ(problems.size(), 2u) << to_string(problems);
  EXPECT_EQ(problems[0].where, "steps[0].duration_ps");
  EXPECT_EQ(problems[1].where, "steps[1].duration_ps");
  EXPECT_NE(problems[1].message.find("must be positive"), std::string::npos);
}

TEST(Validate, TuneAndGuardMustFitTheStep) {
  // 0 -> 63 tunes in 875 ps; with a guard of 15500 ps after the switch into
  // step 1 (16000 ps long), the retune back to 0 no longer fits.
  Schedule s;
  s.guard_ps = 15500;
  s.configs = {uniform("low", 0), uniform("high", 63)};
  s.steps = {{0, 20000, false}, {1, 16000, false}};
  const Problem p = only_problem(s);
  EXPECT_EQ(p.where, "steps[1]");
  EXPECT_EQ(p.message,
            "tune 63->0 (875 ps, port 0, into steps[0]) + guard 15500 ps = 16375 ps does not fit in duration "
            "16000 ps");
  s.steps[1].duration_ps = 16376;  // runs as 131 ticks = 16375 ps: still no room
  EXPECT_EQ(only_problem(s).where, "steps[1]");
  s.steps[1].duration_ps = 16500;  // 132 ticks
  EXPECT_TRUE(validate(s, kCaps).empty());
}

TEST(Validate, TuneFitChecksTheWrapOnlyWhenCyclic) {
  Schedule s;
  s.guard_ps = 15500;
  s.configs = {uniform("low", 0), uniform("high", 63)};
  // Step 1 is entered by a switch (guard) and, cyclic, must retune to step 0.
  s.steps = {{0, 100000, false}, {1, 16000, false}};
  EXPECT_EQ(only_problem(s).where, "steps[1]");
  s.cyclic = false;  // one-shot: ends dark, nothing to retune
  EXPECT_TRUE(validate(s, kCaps).empty());
}

// 16100 ps steps run as 128 or 129 ticks of 125 ps (cumulative rounding):
// 875 ps of tuning plus a 15125 ps guard fits 16100 ps but not 128 ticks.
TEST(Validate, TuneFitIsJudgedOnTheTicksTheBoardRuns) {
  Schedule s;
  s.guard_ps = 15125;
  s.configs = {uniform("low", 0), uniform("high", 63)};
  for (int i = 0; i < 10; ++i) s.steps.push_back({uint32_t(i % 2), 16100, false});
  const auto problems = validate(s, kCaps);
  ASSERT_FALSE(problems.empty());
  for (const Problem& p : problems) EXPECT_NE(p.message.find("128 ticks"), std::string::npos) << p.message;
  s.guard_ps = 15000;  // one tick of slack: fits every rounded step
  EXPECT_TRUE(validate(s, kCaps).empty()) << to_string(validate(s, kCaps));
}

TEST(Validate, ComingFromDarkUsesWorstCaseTune) {
  Schedule s;
  s.guard_ps = 0;
  s.cyclic = false;
  s.configs = {uniform("dark", kDark), uniform("lit", 10)};
  s.steps = {{0, 16000, false}, {1, 16000, false}};
  DeviceCapabilities caps = kCaps;
  caps.tune_ticks.assign(caps.tune_ticks.size(), 1);
  caps.tune_ticks[63 * caps.wavelengths + 10] = 200;  // 25000 ps from 63 only
  const Problem p = only_problem(s, caps);
  EXPECT_EQ(p.where, "steps[0]");
  EXPECT_NE(p.message.find("tune dark->10 (25000 ps"), std::string::npos) << p.message;
}

TEST(Validate, TooManyStepsAndConfigs) {
  Schedule s = two_shifts();
  DeviceCapabilities caps = kCaps;
  caps.max_steps = 1;
  caps.max_configs = 1;
  const auto problems = validate(s, caps);
  ASSERT_EQ(problems.size(), 2u) << to_string(problems);
  EXPECT_EQ(problems[0].where, "configs");
  EXPECT_EQ(problems[1].where, "steps");
}

TEST(Validate, EmptyScheduleIsRejected) {
  Schedule s;
  const auto problems = validate(s, kCaps);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].where, "configs");
  EXPECT_EQ(problems[1].where, "steps");
}

TEST(Validate, ConfigIndexOutOfRange) {
  Schedule s = two_shifts();
  s.steps[1].config = 2;
  const Problem p = only_problem(s);
  EXPECT_EQ(p.where, "steps[1].config");
}

TEST(Validate, DurationOverflowsTickField) {
  Schedule s = two_shifts();
  s.steps[0].duration_ps = (int64_t{1} << 40) * 125;  // one tick past 40 bits
  EXPECT_EQ(only_problem(s).where, "steps[0].duration_ps");
  s.steps[0].duration_ps = ((int64_t{1} << 40) - 1) * 125;
  EXPECT_TRUE(validate(s, kCaps).empty());
}

TEST(Validate, PeriodOverflowingInt64) {
  Schedule s = two_shifts();
  DeviceCapabilities caps = kCaps;
  caps.clk_period_ps = int64_t{1} << 40;  // ticks huge enough that durations fit 40 bits
  caps.fine_steps = 1;
  caps.min_step_cycles = 1;
  s.steps[0].duration_ps = std::numeric_limits<int64_t>::max() - 10;
  s.steps[1].duration_ps = std::numeric_limits<int64_t>::max() - 10;
  const Problem p = only_problem(s, caps);
  EXPECT_EQ(p.where, "steps");
  EXPECT_NE(p.message.find("overflows int64"), std::string::npos);
}

TEST(Validate, NegativeGuardAndActivation) {
  Schedule s = two_shifts();
  s.guard_ps = -1;
  EXPECT_EQ(only_problem(s).where, "guard_ps");
  s.guard_ps = 0;
  s.activation_ps = -5;
  EXPECT_EQ(only_problem(s).where, "activation.at_ps");
}

TEST(Validate, ActivationPlusPeriodOverflowing) {
  Schedule s = two_shifts();
  s.activation_ps = std::numeric_limits<int64_t>::max() - 1000;
  EXPECT_EQ(only_problem(s).where, "activation.at_ps");
}

TEST(Validate, UnusedConfigsAreFine) {
  Schedule s = two_shifts();
  s.configs.push_back(uniform("spare", 9));
  EXPECT_TRUE(validate(s, kCaps).empty());
}

TEST(Validate, ToStringIsOneProblemPerLine) {
  EXPECT_EQ(to_string({{"a", "x"}, {"b[1]", "y"}}), "a: x\nb[1]: y");
}

}  // namespace
}  // namespace lightrail
