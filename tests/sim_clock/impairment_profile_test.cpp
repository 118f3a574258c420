// The reference impairment profile: defaults, overrides, and errors that
// name the offending field.
#include "clock/impairment_profile.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

namespace lightrail::sim::clock {
namespace {

using nlohmann::json;

std::string load_error(const json& j) {
  try {
    load_profile(j);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(ImpairmentProfile, ReferenceDefaultsAreTheDocumentedValues) {
  const ImpairmentProfile p = reference_profile();
  EXPECT_EQ(p.oscillator.offset_ppm_spread, 20.0);
  EXPECT_EQ(p.oscillator.pull_range_ppm, 50.0);
  EXPECT_EQ(p.oscillator.jitter_rms_fs, 1000.0);
  EXPECT_EQ(p.oscillator.vco_hz, 1.5e9);
  EXPECT_EQ(p.fibre.group_index, 1.4682);
  EXPECT_EQ(p.fibre.alpha, 2.6e-4);
  EXPECT_EQ(p.fibre.tcd_ps_per_km_k, 33.0);
  EXPECT_EQ(p.oscillator.pull_gain_error, 0.15);
  EXPECT_EQ(p.ddmtd.helper_jitter_fs, 1000.0);
  EXPECT_EQ(p.ddmtd.cdr_jitter_fs, 3000.0);
  EXPECT_EQ(p.ddmtd.aperture_fs, 10000.0);
  // The pull range covers every board's static error, or no servo could lock.
  EXPECT_GT(p.oscillator.pull_range_ppm, p.oscillator.offset_ppm_spread);
}

TEST(ImpairmentProfile, EmptyObjectGivesTheReferenceAndJsonRoundTrips) {
  EXPECT_EQ(to_json(load_profile(json::object())), to_json(reference_profile()));
  ImpairmentProfile p = reference_profile();
  p.seed = 99;
  p.fibre.length_m = 2500.0;
  p.oscillator.dac_bits = 20;
  EXPECT_EQ(to_json(load_profile(to_json(p))), to_json(p));
}

TEST(ImpairmentProfile, OverridingOneFieldKeepsTheOthers) {
  const ImpairmentProfile p = load_profile(json::parse(R"({"fibre": {"length_m": 5000}})"));
  EXPECT_EQ(p.fibre.length_m, 5000.0);
  json expected = to_json(reference_profile());
  expected["fibre"]["length_m"] = 5000.0;
  EXPECT_EQ(to_json(p), expected);
  // Overrides stack on a given base (a scenario's per-board overrides).
  const ImpairmentProfile q = load_profile(json::parse(R"({"seed": 3})"), "boards[2]", p);
  EXPECT_EQ(q.fibre.length_m, 5000.0);
  EXPECT_EQ(q.seed, 3u);
}

TEST(ImpairmentProfile, UnknownFieldIsNamed) {
  const std::string e = load_error(json::parse(R"({"oscillator": {"jitter_rms_ps": 1}})"));
  EXPECT_NE(e.find("profile.oscillator.jitter_rms_ps: unknown field"), std::string::npos) << e;
  EXPECT_NE(e.find("jitter_rms_fs"), std::string::npos) << e;  // lists what is known
  EXPECT_NE(load_error(json::parse(R"({"fiber": {}})")).find("profile.fiber: unknown field"),
            std::string::npos);
}

TEST(ImpairmentProfile, AbsurdValuesAreNamed) {
  struct Case {
    const char* json;
    const char* field;
  };
  for (const Case& c :
       {Case{R"({"oscillator": {"pull_range_ppm": 5000}})", "profile.oscillator.pull_range_ppm"},
        Case{R"({"oscillator": {"offset_ppm_spread": -1}})", "profile.oscillator.offset_ppm_spread"},
        Case{R"({"oscillator": {"vco_hz": 2.5e9}})", "profile.oscillator.vco_hz"},
        Case{R"({"oscillator": {"dac_bits": 40}})", "profile.oscillator.dac_bits"},
        Case{R"({"oscillator": {"jitter_rms_fs": 1e9}})", "profile.oscillator.jitter_rms_fs"},
        Case{R"({"oscillator": {"nominal_hz": 5}})", "profile.oscillator.nominal_hz"},
        Case{R"({"fibre": {"length_m": -3}})", "profile.fibre.length_m"},
        Case{R"({"fibre": {"group_index": 14.68}})", "profile.fibre.group_index"},
        Case{R"({"fibre": {"alpha": 0.5}})", "profile.fibre.alpha"},
        Case{R"({"oscillator": {"pull_gain_error": 2}})", "profile.oscillator.pull_gain_error"},
        Case{R"({"ddmtd": {"helper_jitter_fs": -1}})", "profile.ddmtd.helper_jitter_fs"},
        Case{R"({"ddmtd": {"cdr_jitter_fs": 1e300}})", "profile.ddmtd.cdr_jitter_fs"},
        Case{R"({"ddmtd": {"aperture_fs": 2e6}})", "profile.ddmtd.aperture_fs"}}) {
    const std::string e = load_error(json::parse(c.json));
    EXPECT_EQ(e.rfind(std::string(c.field) + ": ", 0), 0u) << c.json << " -> " << e;
  }
}

TEST(ImpairmentProfile, WrongTypesAreNamed) {
  EXPECT_EQ(load_error(json::parse(R"({"fibre": {"length_m": "1 km"}})"))
                .rfind("profile.fibre.length_m: expected a number", 0),
            0u);
  EXPECT_EQ(load_error(json::parse(R"({"oscillator": {"dac_bits": 12.5}})"))
                .rfind("profile.oscillator.dac_bits: expected an integer", 0),
            0u);
  EXPECT_EQ(
      load_error(json::parse(R"({"seed": -1})")).rfind("profile.seed: expected a non-negative integer", 0),
      0u);
  EXPECT_EQ(load_error(json::parse(R"({"fibre": 3})")).rfind("profile.fibre: expected an object", 0), 0u);
  EXPECT_EQ(load_error(json::parse(R"([1, 2])")).rfind("profile: expected an object", 0), 0u);
}

TEST(ImpairmentProfile, FileErrorsNameThePath) {
  const std::string dir = LIGHTRAIL_TEST_DATA;
  const ImpairmentProfile p = load_profile_file(dir + "/long_link.json");
  EXPECT_EQ(p.fibre.length_m, 5000.0);
  EXPECT_EQ(p.fibre.temperature_ramp_k_per_s, 0.001);
  try {
    load_profile_file(dir + "/bad_vco.json");
    FAIL() << "bad_vco.json loaded";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bad_vco.json.oscillator.vco_hz"), std::string::npos) << e.what();
  }
  EXPECT_THROW(load_profile_file(dir + "/no_such_file.json"), std::invalid_argument);
}

TEST(ImpairmentProfile, BoardsGetDistinctReproducibleOscillatorsInsideTheSpread) {
  const ImpairmentProfile p = reference_profile();
  std::set<double> offsets;
  std::set<uint64_t> seeds;
  for (int b = 0; b < 16; ++b) {
    const OscillatorConfig c = oscillator_for_board(p, b);
    EXPECT_LE(std::fabs(c.offset_ppm), p.oscillator.offset_ppm_spread);
    EXPECT_EQ(c.nominal_hz, 250e6);   // the board's system clock from hwdef
    EXPECT_EQ(c.dac_word, 1u << 15);  // mid-scale of the 16-bit DAC
    offsets.insert(c.offset_ppm);
    seeds.insert(c.seed);
    EXPECT_EQ(oscillator_for_board(p, b).offset_ppm, c.offset_ppm);  // same profile, same board
  }
  EXPECT_EQ(offsets.size(), 16u);
  EXPECT_EQ(seeds.size(), 16u);
  ImpairmentProfile other = p;
  other.seed = 2;
  EXPECT_NE(oscillator_for_board(other, 0).offset_ppm, oscillator_for_board(p, 0).offset_ppm);
}

TEST(ImpairmentProfile, HoldoverBoundCoversEveryTermOfTheOscillators) {
  ImpairmentProfile p = reference_profile();
  p.oscillator.rw_adev_1s = 1e-9;
  p.oscillator.flicker_adev = 0;
  p.oscillator.ageing_ppb_per_day = 0;
  // Random walk, 3 sigma over 1 ms, two boards: sqrt 2 * 3 * 1e-9 * (1e-3)^1.5 s.
  EXPECT_NEAR(holdover_bound_fs(p, 1e-3), 134.16, 0.01);
  EXPECT_NEAR(holdover_bound_fs(p, 4e-3) / holdover_bound_fs(p, 1e-3), 8.0, 1e-9);
  p.oscillator.rw_adev_1s = 0;
  p.oscillator.flicker_adev = 3e-10;  // grows as T: sqrt 2 * 3 * 3e-10 * T / sqrt(2 ln 2)
  EXPECT_NEAR(holdover_bound_fs(p, 1e-3), 1081.0, 0.1);
  p.oscillator.flicker_adev = 0;
  p.oscillator.temperature_ramp_k_per_s = 1;  // slopes +-32 ppb/K: at worst 64 ppb/s apart
  EXPECT_NEAR(holdover_bound_fs(p, 1e-3), 32.0, 1e-6);
  p.oscillator.temperature_ramp_k_per_s = 0;
  p.oscillator.ageing_ppb_per_day = 86400;  // 1 ppb/s each, 2 ppb/s apart
  EXPECT_NEAR(holdover_bound_fs(p, 1e-3), 1.0, 1e-9);
}

TEST(ImpairmentProfile, AFreeRunningPairDriftsWithinTheBoundOnlyWithItsTemperatureTerm) {
  // Two boards in a warming rack (exaggerated: 100 K/s), their crystals'
  // slopes drawn from +-32 ppb/K: the time between them bends away by
  // a T^2 / 2, within the bound that counts the temperature and beyond
  // the one that does not.
  ImpairmentProfile p = reference_profile();
  p.oscillator.offset_ppm_spread = 0;
  p.oscillator.jitter_rms_fs = 0;
  p.oscillator.temperature_ramp_k_per_s = 100;
  Oscillator a(oscillator_for_board(p, 0)), b(oscillator_for_board(p, 1));
  const double slope_apart = std::fabs(a.config().tempco_ppb_per_k - b.config().tempco_ppb_per_k);
  ASSERT_GT(slope_apart, 8.0);  // this seed's two crystals differ
  const double T = 5e-3;
  for (int i = 0; i < 1250000; ++i) {
    a.next_edge_fs();
    b.next_edge_fs();
  }
  const double drift_fs = std::fabs(a.time_error_fs() - b.time_error_fs());
  EXPECT_NEAR(drift_fs, slope_apart * 1e-9 * 100 * T * T / 2 * 1e15, 0.2 * drift_fs + 3000);
  EXPECT_LE(drift_fs, holdover_bound_fs(p, T));
  ImpairmentProfile without = p;
  without.oscillator.temperature_ramp_k_per_s = 0;
  EXPECT_GT(drift_fs, holdover_bound_fs(without, T));
}

TEST(ImpairmentProfile, AsymmetryCalibrationErrorIsDrawnPerBoard) {
  ImpairmentProfile p = reference_profile();
  p.calibration.asymmetry_error_ps = 0;
  EXPECT_EQ(asymmetry_calibration_error_fs(p, 1), 0.0);
  p.calibration.asymmetry_error_ps = 20;
  double sq = 0;
  for (int b = 1; b <= 400; ++b) sq += std::pow(asymmetry_calibration_error_fs(p, b), 2);
  EXPECT_NEAR(std::sqrt(sq / 400) / 20000, 1.0, 0.15);
  EXPECT_EQ(asymmetry_calibration_error_fs(p, 3), asymmetry_calibration_error_fs(p, 3));
  EXPECT_NE(asymmetry_calibration_error_fs(p, 3), asymmetry_calibration_error_fs(p, 4));
  EXPECT_THROW(load_profile(nlohmann::json{{"calibration", {{"asymmetry_error_ps", -1}}}}),
               std::invalid_argument);
}

}  // namespace
}  // namespace lightrail::sim::clock
