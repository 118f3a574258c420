// The reference impairment profile: every number the clock co-simulation
// draws its oscillators and fibres from, with defaults that have a public
// source each (docs/impairments.md). Scenario files override any field:
//
//   {"seed": 7,
//    "oscillator": {"offset_ppm_spread": 20, "pull_range_ppm": 50, "dac_bits": 16,
//                   "jitter_rms_fs": 1000, "rw_adev_1s": 1e-9, "rw_update_edges": 256,
//                   "vco_hz": 1.5e9, "pull_gain_error": 0.15},
//    "fibre": {"length_m": 1000, "group_index": 1.4682, "alpha": 2.6e-4,
//              "asymmetry_fs": 0, "tcd_ps_per_km_k": 33,
//              "temperature_ramp_k_per_s": 0},
//    "ddmtd": {"helper_jitter_fs": 1000, "cdr_jitter_fs": 3000, "aperture_fs": 10000}}
//
// Unknown fields, wrong types and absurd values are errors naming the field
// ("profile.oscillator.pull_range_ppm: ..."); a failed load changes nothing.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "clock/fibre.hpp"
#include "clock/oscillator.hpp"

namespace lightrail::sim::clock {

struct OscillatorProfile {
  double nominal_hz = 0.0;          // 0: the board's system clock (hwdef CLK_PERIOD_PS)
  double offset_ppm_spread = 20.0;  // each board's static error is uniform in +-spread
  double pull_range_ppm = 50.0;
  int dac_bits = 16;
  double jitter_rms_fs = 1000.0;
  double rw_adev_1s = 1e-9;
  int rw_update_edges = 256;
  double vco_hz = 1.5e9;
  // The oscillator's true pull over the range the servo is told
  // (SYNC_DAC_PULL_PPB): real tuning gain is known to +-10-20%.
  double pull_gain_error = 0.15;
};

// The clocks the DDMTD compares and samples with, as real parts make them.
struct DdmtdProfile {
  double helper_jitter_fs = 1000.0;  // the helper's own PLL/oscillator: white, per helper edge
  double cdr_jitter_fs = 3000.0;     // the recovered reference (CDR/SerDes): white, per recovered edge
  double aperture_fs = 10000.0;      // a sampler this close to an edge of its input resolves at random
};

struct FibreProfile {
  double length_m = 1000.0;
  double group_index = 1.4682;
  double alpha = 2.6e-4;
  double asymmetry_fs = 0.0;
  double tcd_ps_per_km_k = 33.0;
  double temperature_ramp_k_per_s = 0.0;
};

struct ImpairmentProfile {
  uint64_t seed = 1;
  OscillatorProfile oscillator;
  FibreProfile fibre;
  DdmtdProfile ddmtd;
};

// The defaults above, checked.
ImpairmentProfile reference_profile();

// `base` with every field present in `j` overridden. `where` prefixes error
// messages ("scenario.impairments"). Throws std::invalid_argument.
ImpairmentProfile load_profile(const nlohmann::json& j, const std::string& where = "profile",
                               const ImpairmentProfile& base = reference_profile());
// Same, from a JSON file; errors also name the path.
ImpairmentProfile load_profile_file(const std::string& path);

nlohmann::json to_json(const ImpairmentProfile& profile);

// Board `board`'s oscillator: static offset drawn uniformly in
// +-offset_ppm_spread and a noise seed, both from (profile.seed, board), so a
// board keeps its oscillator when others are added. DAC starts at mid-scale.
OscillatorConfig oscillator_for_board(const ImpairmentProfile& profile, int board);

// The profile's fibre (every link alike in the reference profile; a scenario
// that wants one odd link overrides that link's FibreConfig).
FibreConfig fibre_config(const ImpairmentProfile& profile);

// Time error a board in holdover accumulates over `duration_s` from the
// random-walk FM alone, as a k-sigma bound (the frequency frozen at the start
// of holdover is the servo's business). For random-walk FM the phase error
// has sigma_x(T) = q T^1.5 / sqrt(3) = ADEV(1 s) * T^1.5 (T in s).
double holdover_walk_bound_fs(const ImpairmentProfile& profile, double duration_s, double k_sigma = 3.0);

}  // namespace lightrail::sim::clock
