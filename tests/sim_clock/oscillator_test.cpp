// The oscillator model: what the clock servo and the truth probes rely on.
#include "clock/oscillator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace lightrail::sim::clock {
namespace {

OscillatorConfig quiet() {
  OscillatorConfig c;  // 250 MHz, no noise, DAC set below per test
  c.pull_range_ppm = 0.0;
  return c;
}

// Frequency error in ppm measured from edge times alone, as a counter would.
double measured_ppm(Oscillator& osc, int edges) {
  const int64_t first = osc.next_edge_fs();
  int64_t last = first;
  for (int i = 0; i < edges; ++i) last = osc.next_edge_fs();
  const double period = static_cast<double>(last - first) / edges;
  return (osc.nominal_period_fs() / period - 1.0) * 1e6;
}

TEST(Oscillator, NoiseFreeEdgesAreOnTheNominalGrid) {
  OscillatorConfig c = quiet();
  c.start_fs = 12345;
  Oscillator osc(c);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(osc.next_edge_fs(), 12345 + int64_t{4000000} * i) << "edge " << i;
  EXPECT_EQ(osc.edge_count(), 1000u);
  EXPECT_DOUBLE_EQ(osc.time_error_fs(), 0.0);
}

TEST(Oscillator, MeasuredOffsetEqualsConfiguredPpm) {
  for (double ppm : {12.5, -37.0, 0.3}) {
    OscillatorConfig c = quiet();
    c.offset_ppm = ppm;
    Oscillator osc(c);
    EXPECT_NEAR(measured_ppm(osc, 1000000), ppm, 1e-6) << ppm << " ppm";
    // The accumulated time error is the offset integrated: a fast clock's
    // edges come early. 1e6 periods of 4 ns = 4 ms.
    EXPECT_NEAR(osc.time_error_fs(), -4e-3 * ppm * 1e-6 / (1.0 + ppm * 1e-6) * 1e15, 2.0) << ppm << " ppm";
  }
}

TEST(Oscillator, DacPullsFrequencyLinearlyAndClamps) {
  OscillatorConfig c = quiet();
  c.pull_range_ppm = 50.0;
  c.offset_ppm = 3.0;
  c.dac_bits = 12;
  Oscillator osc(c);
  const double full = 4095.0;
  for (int64_t word : {0, 1024, 2048, 3000, 4095}) {
    osc.set_dac(word);
    EXPECT_EQ(osc.dac(), word);
    const double expected = 3.0 + 50.0 * (2.0 * word / full - 1.0);
    EXPECT_NEAR(measured_ppm(osc, 200000), expected, 1e-5) << "word " << word;
  }
  osc.set_dac(1 << 20);  // beyond a 12-bit DAC: full scale
  EXPECT_EQ(osc.dac(), 4095u);
  EXPECT_NEAR(measured_ppm(osc, 200000), 53.0, 1e-5);
  osc.set_dac(-5);
  EXPECT_EQ(osc.dac(), 0u);
  EXPECT_NEAR(measured_ppm(osc, 200000), -47.0, 1e-5);
}

TEST(Oscillator, InitialDacWordIsClampedToo) {
  OscillatorConfig c = quiet();
  c.dac_bits = 8;
  c.dac_word = 1000;
  EXPECT_EQ(Oscillator(c).dac(), 255u);
}

TEST(Oscillator, WhiteJitterRmsMatchesConfiguration) {
  OscillatorConfig c = quiet();
  c.jitter_rms_fs = 1500.0;
  c.seed = 42;
  Oscillator osc(c);
  const int n = 200000;
  double sum = 0.0, sum2 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double dev = static_cast<double>(osc.next_edge_fs() - int64_t{4000000} * i);
    sum += dev;
    sum2 += dev * dev;
  }
  const double mean = sum / n;
  const double rms = std::sqrt(sum2 / n - mean * mean);
  // Standard error of an rms estimate from n samples: rms / sqrt(2n) ~ 0.16 %.
  EXPECT_NEAR(rms, 1500.0, 1500.0 * 0.01);
  EXPECT_NEAR(mean, 0.0, 5.0 * 1500.0 / std::sqrt(n));
  // White phase noise does not accumulate: the clean phase stays on the grid.
  EXPECT_DOUBLE_EQ(osc.time_error_fs(), 0.0);
}

TEST(Oscillator, SameSeedSameEdgesOtherSeedOtherEdges) {
  OscillatorConfig c = quiet();
  c.jitter_rms_fs = 800.0;
  c.rw_adev_1s = 1e-8;
  c.rw_update_edges = 16;
  Oscillator a(c), b(c);
  c.seed = 2;
  Oscillator other(c);
  int differing = 0;
  for (int i = 0; i < 10000; ++i) {
    const int64_t ea = a.next_edge_fs();
    ASSERT_EQ(ea, b.next_edge_fs()) << "edge " << i;
    differing += ea != other.next_edge_fs();
  }
  EXPECT_GT(differing, 9000);
}

TEST(Oscillator, RandomWalkFrequencyVarianceGrowsLinearlyWithTime) {
  // Var[y(T)] = q^2 T with q = sqrt(3) * ADEV(1 s), over an ensemble of boards.
  const double adev = 1e-6;
  const int boards = 300;
  const int update = 64;
  const int steps1 = 500, steps2 = 4 * steps1;
  double var1 = 0.0, var2 = 0.0;
  for (int b = 0; b < boards; ++b) {
    OscillatorConfig c = quiet();
    c.rw_adev_1s = adev;
    c.rw_update_edges = update;
    c.seed = 1000 + b;
    Oscillator osc(c);
    for (int i = 0; i < steps1 * update; ++i) osc.next_edge_fs();
    var1 += std::pow(osc.fractional_frequency(), 2);
    for (int i = steps1 * update; i < steps2 * update; ++i) osc.next_edge_fs();
    var2 += std::pow(osc.fractional_frequency(), 2);
  }
  var1 /= boards;
  var2 /= boards;
  const double q2 = 3.0 * adev * adev;
  const double t1 = steps1 * update * 4e-9, t2 = steps2 * update * 4e-9;
  // 300 samples: relative standard error of a variance ~ sqrt(2/300) = 8 %.
  EXPECT_NEAR(var1 / (q2 * t1), 1.0, 0.3);
  EXPECT_NEAR(var2 / (q2 * t2), 1.0, 0.3);
  EXPECT_GT(var2 / var1, 2.5);
}

TEST(Oscillator, RandomWalkMovesThePhaseButJitterDoesNot) {
  OscillatorConfig c = quiet();
  c.rw_adev_1s = 1e-7;
  Oscillator osc(c);
  for (int i = 0; i < 100000; ++i) osc.next_edge_fs();
  EXPECT_NE(osc.time_error_fs(), 0.0);
  EXPECT_NE(osc.fractional_frequency(), 0.0);
}

// Allan deviation of the fractional frequency, averaged over `m` slow steps.
double adev_at(const std::vector<double>& y, size_t m) {
  std::vector<double> avg;
  for (size_t i = 0; i + m <= y.size(); i += m) {
    double s = 0;
    for (size_t j = 0; j < m; ++j) s += y[i + j];
    avg.push_back(s / double(m));
  }
  double sum = 0;
  for (size_t i = 1; i < avg.size(); ++i) sum += std::pow(avg[i] - avg[i - 1], 2);
  return std::sqrt(sum / (2.0 * double(avg.size() - 1)));
}

TEST(Oscillator, FlickerFrequencyNoiseHasAFlatAllanDeviation) {
  // The floor holds at every tau between the poles (10 us .. 10 s); white or
  // random-walk FM would fall or rise by sqrt(10) per decade.
  const double floor = 1e-9;
  const int update = 4096;  // 16.4 us per slow step
  std::vector<double> taus_adev[3];
  for (uint64_t seed : {1, 2, 3}) {
    OscillatorConfig c = quiet();
    c.flicker_adev = floor;
    c.rw_update_edges = update;
    c.seed = seed;
    Oscillator osc(c);
    std::vector<double> y;
    for (int step = 0; step < 24000; ++step) {  // 0.39 s
      for (int i = 0; i < update; ++i) osc.next_edge_fs();
      y.push_back(osc.fractional_frequency());
    }
    const size_t ms[3] = {6, 61, 610};  // 98 us, 1 ms, 10 ms
    for (int k = 0; k < 3; ++k) taus_adev[k].push_back(adev_at(y, ms[k]));
  }
  for (int k = 0; k < 3; ++k) {
    double mean = 0;
    for (double a : taus_adev[k]) mean += a / 3;
    EXPECT_NEAR(mean / floor, 1.0, 0.25) << "tau index " << k;
  }
}

TEST(Oscillator, TemperatureAndAgeingDriftTheFrequencyLinearly) {
  OscillatorConfig c = quiet();
  c.tempco_ppb_per_k = -40.0;
  c.temperature_ramp_k_per_s = 5.0;
  Oscillator osc(c);
  for (int i = 0; i < 2500000; ++i) osc.next_edge_fs();  // 10 ms: 0.05 K
  EXPECT_NEAR(osc.fractional_frequency() / (-40e-9 * 5.0 * 0.01), 1.0, 1e-3);
  c = quiet();
  c.ageing_ppb_per_day = 864.0;  // 1e-5 ppb per ms
  Oscillator aged(c);
  for (int i = 0; i < 2500000; ++i) aged.next_edge_fs();
  EXPECT_NEAR(aged.fractional_frequency() / (864e-9 * 0.01 / 86400.0), 1.0, 1e-3);
}

TEST(Oscillator, TuningCurveAndDacAreNotLinear) {
  OscillatorConfig c = quiet();
  c.pull_range_ppm = 50.0;
  c.dac_bits = 16;
  Oscillator linear(c);
  const int64_t full = 65535;
  c.pull_nonlinearity = 0.1;
  Oscillator curved(c);
  // End points stay; in between the curve is off the line by up to 10% of
  // the range (at x = +-1/sqrt 3), and steeper at mid-scale.
  EXPECT_DOUBLE_EQ(curved.pull_of(full), 50e-6);
  EXPECT_DOUBLE_EQ(curved.pull_of(0), -50e-6);
  double worst = 0;
  for (int64_t w = 0; w <= full; w += 7)
    worst = std::max(worst, std::fabs(curved.pull_of(w) - linear.pull_of(w)));
  EXPECT_NEAR(worst / 50e-6, 0.1, 1e-3);
  const double slope_mid = curved.pull_of(32768 + 100) - curved.pull_of(32768 - 100);
  const double slope_lin = linear.pull_of(32768 + 100) - linear.pull_of(32768 - 100);
  EXPECT_NEAR(slope_mid / slope_lin, 1.0 + 0.15 * std::sqrt(3.0) * 1.0, 0.01);

  c = quiet();
  c.pull_range_ppm = 50.0;
  c.dac_inl_lsb = 4.0;
  c.dac_dnl_lsb = 1.0;
  Oscillator dac(c);
  const double lsb = 100e-6 / double(full);
  // Bow of 4 LSB at mid-scale, every code within +-1 LSB of the bow, and the
  // per-code error is not one constant.
  double lo = 1, hi = -1;
  for (int64_t w = 32000; w < 33500; ++w) {
    const double bow = 4.0 * 4.0 * (double(w) / full) * (1.0 - double(w) / full);
    const double err = (dac.pull_of(w) - linear.pull_of(w)) / lsb - bow;
    ASSERT_LE(std::fabs(err), 1.0 + 1e-6) << w;
    lo = std::min(lo, err);
    hi = std::max(hi, err);
  }
  EXPECT_GT(hi - lo, 1.5);
}

TEST(Oscillator, DacWordSettlesWithItsTimeConstant) {
  OscillatorConfig c = quiet();
  c.pull_range_ppm = 50.0;
  c.dac_settling_fs = 4e9;  // 4 us: 1000 edges
  Oscillator osc(c);
  osc.next_edge_fs();
  EXPECT_NEAR(osc.fractional_frequency(), 0.0, 1e-9);  // powered up settled at mid-scale (half an LSB)
  osc.set_dac(65535);
  for (int i = 0; i < 1000; ++i) osc.next_edge_fs();
  EXPECT_NEAR(osc.fractional_frequency() / 50e-6, 1.0 - std::exp(-1.0), 0.01);
  for (int i = 0; i < 20000; ++i) osc.next_edge_fs();
  EXPECT_NEAR(osc.fractional_frequency() / 50e-6, 1.0, 1e-6);
}

TEST(Oscillator, PhaseStepIsOneFiftySixthOfTheVcoPeriod) {
  OscillatorConfig c = quiet();
  c.vco_hz = 1.25e9;  // 800 ps period -> 14.2857 ps per step
  Oscillator osc(c);
  EXPECT_DOUBLE_EQ(osc.phase_step_fs(), 800000.0 / 56.0);
  EXPECT_EQ(osc.next_edge_fs(), 0);
  osc.shift_phase(1);  // delays every later edge by one step
  EXPECT_EQ(osc.next_edge_fs(), 4000000 + 14286);
  EXPECT_NEAR(osc.time_error_fs(), 800000.0 / 56.0, 1e-6);
  osc.shift_phase(55);  // 56 steps in all: one whole VCO period
  EXPECT_EQ(osc.next_edge_fs(), 8000000 + 800000);
  osc.shift_phase(-56);
  EXPECT_EQ(osc.next_edge_fs(), 12000000);
  EXPECT_EQ(osc.phase_steps(), 0);
}

TEST(Oscillator, PhaseShiftOfMoreThanAQuarterPeriodAtOnceIsRefused) {
  OscillatorConfig c = quiet();
  c.vco_hz = 1.5e9;  // 11.9 ps steps; a quarter of 4 ns is 84 steps
  Oscillator osc(c);
  osc.shift_phase(84);
  EXPECT_THROW(osc.shift_phase(85), std::invalid_argument);
  EXPECT_THROW(osc.shift_phase(-85), std::invalid_argument);
  EXPECT_EQ(osc.phase_steps(), 84);  // a refused shift changes nothing
}

TEST(Oscillator, EdgesAreStrictlyIncreasingUnderAllImpairments) {
  OscillatorConfig c;
  c.offset_ppm = -80.0;
  c.jitter_rms_fs = 200000.0;  // the most the model accepts at 250 MHz
  c.rw_adev_1s = 1e-7;
  c.rw_update_edges = 1;
  Oscillator osc(c);
  int64_t prev = osc.next_edge_fs();
  for (int i = 0; i < 200000; ++i) {
    if (i % 1000 == 0) osc.shift_phase(i % 2000 ? -84 : 84);
    const int64_t e = osc.next_edge_fs();
    ASSERT_GT(e, prev) << "edge " << i;
    prev = e;
  }
}

TEST(Oscillator, BadConfigurationNamesTheField) {
  const auto message = [](OscillatorConfig c) {
    try {
      Oscillator osc(c);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  OscillatorConfig c;
  c.vco_hz = 2e9;
  EXPECT_NE(message(c).find("oscillator.vco_hz"), std::string::npos) << message(c);
  c = OscillatorConfig();
  c.dac_bits = 0;
  EXPECT_NE(message(c).find("oscillator.dac_bits"), std::string::npos) << message(c);
  c = OscillatorConfig();
  c.jitter_rms_fs = 1e6;  // 1 ns rms on a 4 ns clock
  EXPECT_NE(message(c).find("oscillator.jitter_rms_fs"), std::string::npos) << message(c);
  c = OscillatorConfig();
  c.rw_adev_1s = -1.0;
  EXPECT_NE(message(c).find("oscillator.rw_adev_1s"), std::string::npos) << message(c);
}

}  // namespace
}  // namespace lightrail::sim::clock
