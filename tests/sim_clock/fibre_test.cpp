// The fibre link model: delays, asymmetry and drift as configured.
#include "clock/fibre.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace lightrail::sim::clock {
namespace {

constexpr int64_t kSecondFs = 1000000000000000;

TEST(Fibre, DelayFollowsLengthAndGroupIndex) {
  FibreConfig c;
  c.length_m = 1000.0;
  c.group_index = 1.4682;
  const Fibre f(c);
  // 1 km * 1.4682 / c = 4.8974 us: the ~4.9 us/km rule of thumb.
  const double expected = 1000.0 * 1.4682 / 299792458.0 * 1e15;
  EXPECT_NEAR(f.forward_delay_fs(0), expected, 0.5);
  EXPECT_NEAR(f.backward_delay_fs(0), expected, 0.5);
  EXPECT_NEAR(expected, 4.8974e9, 1e5);
  EXPECT_EQ(f.asymmetry_fs(), 0.0);
  // No drift configured: the delay does not change with time.
  EXPECT_EQ(f.forward_delay_fs(100 * kSecondFs), f.forward_delay_fs(0));
}

TEST(Fibre, WavelengthAsymmetryScalesBackwardDelayByOnePlusAlpha) {
  FibreConfig c;
  c.length_m = 5000.0;
  c.alpha = 2.6e-4;
  const Fibre f(c);
  const double fwd = static_cast<double>(f.forward_delay_fs(0));
  const double bwd = static_cast<double>(f.backward_delay_fs(0));
  EXPECT_NEAR(fwd / bwd, 1.0 + 2.6e-4, 1e-10);  // delays are whole fs
  // The mean (what a round trip measures) is the symmetric fibre's delay.
  EXPECT_NEAR((fwd + bwd) / 2.0, f.mean_delay_fs(), 1.0);
  EXPECT_NEAR(f.asymmetry_fs(), fwd - bwd, 1.0);
  // 5 km at alpha 2.6e-4: about 6.4 ns of asymmetry, 3.2 ns of offset if uncalibrated.
  EXPECT_NEAR(f.asymmetry_fs(), 6.37e6, 0.01e6);
}

TEST(Fibre, FixedAsymmetryIsSplitAroundTheMean) {
  FibreConfig c;
  c.length_m = 100.0;
  c.asymmetry_fs = 300000.0;  // 300 ps forward longer than backward
  const Fibre f(c);
  EXPECT_EQ(f.forward_delay_fs(0) - f.backward_delay_fs(0), 300000);
  EXPECT_NEAR((f.forward_delay_fs(0) + f.backward_delay_fs(0)) / 2.0, f.mean_delay_fs(), 1.0);
}

TEST(Fibre, TemperatureRampDriftsBothDirectionsAlike) {
  FibreConfig c;
  c.length_m = 2000.0;
  c.alpha = 2.6e-4;
  c.tcd_ps_per_km_k = 33.0;
  c.temperature_ramp_k_per_s = 0.5;
  const Fibre f(c);
  // After 2 s: 1 K * 2 km * 33 ps/km/K = 66 ps later in each direction.
  const int64_t t = 2 * kSecondFs;
  EXPECT_NEAR(f.forward_delay_fs(t) - f.forward_delay_fs(0), 66000, 1);
  EXPECT_NEAR(f.backward_delay_fs(t) - f.backward_delay_fs(0), 66000, 1);
  EXPECT_NEAR(f.drift_fs(t), 66000.0, 1e-6);
  EXPECT_EQ(f.forward_delay_fs(t) - f.backward_delay_fs(t), f.forward_delay_fs(0) - f.backward_delay_fs(0));
  // Cooling shortens the delay.
  c.temperature_ramp_k_per_s = -0.5;
  EXPECT_NEAR(Fibre(c).forward_delay_fs(t) - Fibre(c).forward_delay_fs(0), -66000, 1);
}

TEST(Fibre, ALinkChangeMovesOnlyItsDirectionsFromItsTime) {
  FibreConfig c;
  c.length_m = 100.0;
  Fibre f(c);
  const int64_t t0 = kSecondFs / 1000;  // 1 ms
  DelayChange step;
  step.at_fs = t0;
  step.forward = true;
  step.backward = false;
  step.step_fs = 2e6;  // +2 ns one way
  f.add_change(step);
  EXPECT_EQ(f.forward_delay_fs(t0 - 1), f.forward_delay_fs(0));
  EXPECT_EQ(f.forward_delay_fs(t0) - f.forward_delay_fs(0), 2000000);
  EXPECT_EQ(f.backward_delay_fs(t0), f.backward_delay_fs(0));
  // A ramp in both directions lasts its length, then stays where it got.
  DelayChange ramp;
  ramp.at_fs = 2 * t0;
  ramp.ramp_fs_per_s = 1e9;  // 1 ps per us
  ramp.ramp_for_fs = t0;     // for 1 ms: +1 ns
  f.add_change(ramp);
  EXPECT_NEAR(f.backward_delay_fs(2 * t0 + t0 / 2) - f.backward_delay_fs(0), 500000, 1);
  EXPECT_NEAR(f.backward_delay_fs(10 * t0) - f.backward_delay_fs(0), 1000000, 1);
  EXPECT_NEAR(f.forward_delay_fs(10 * t0) - f.forward_delay_fs(0), 3000000, 1);
  EXPECT_NEAR(f.max_delay_fs(), f.forward_delay_fs(0) + 3e6, 1);
}

TEST(Fibre, AChangeThatWouldMakeADelayNegativeIsRefused) {
  FibreConfig c;
  c.length_m = 1.0;  // ~4.9 ns
  Fibre f(c);
  DelayChange d;
  d.step_fs = -3e6;
  f.add_change(d);  // 4.9 - 3 ns: fine
  const int64_t before = f.forward_delay_fs(0);
  DelayChange more = d;
  more.at_fs = kSecondFs;  // later, but the two add up
  EXPECT_THROW(f.add_change(more), std::invalid_argument);
  // Refused means not applied.
  EXPECT_EQ(f.forward_delay_fs(2 * kSecondFs), before);
}

TEST(Fibre, BadConfigurationNamesTheField) {
  const auto message = [](FibreConfig c) {
    try {
      Fibre f(c);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  FibreConfig c;
  c.length_m = -1.0;
  EXPECT_NE(message(c).find("fibre.length_m"), std::string::npos) << message(c);
  c = FibreConfig();
  c.group_index = 0.5;
  EXPECT_NE(message(c).find("fibre.group_index"), std::string::npos) << message(c);
  c = FibreConfig();
  c.length_m = 1.0;      // ~4.9 ns
  c.asymmetry_fs = 1e7;  // backward would be negative
  EXPECT_NE(message(c).find("fibre.asymmetry_fs"), std::string::npos) << message(c);
  c = FibreConfig();
  c.temperature_ramp_k_per_s = 5.0;
  EXPECT_NE(message(c).find("fibre.temperature_ramp_k_per_s"), std::string::npos) << message(c);
}

}  // namespace
}  // namespace lightrail::sim::clock
