// The reference impairment profile: every number the clock co-simulation
// draws its oscillators and fibres from, with defaults that have a public
// source each (docs/impairments.md). Scenario files override any field:
//
//   {"seed": 7,
//    "oscillator": {"offset_ppm_spread": 20, "pull_range_ppm": 50, "dac_bits": 16,
//                   "jitter_rms_fs": 1000, "rw_adev_1s": 1e-9, "rw_update_edges": 256,
//                   "vco_hz": 1.5e9, "pull_gain_error": 0.15, "flicker_adev": 3e-10,
//                   "tempco_ppb_per_k": 32, "temperature_ramp_k_per_s": 0,
//                   "ageing_ppb_per_day": 2.7, "pull_nonlinearity": 0.1,
//                   "dac_inl_lsb": 4, "dac_dnl_lsb": 1, "dac_settling_us": 4},
//    "fibre": {"length_m": 1000, "group_index": 1.4682, "alpha": 2.6e-4,
//              "asymmetry_fs": 0, "tcd_ps_per_km_k": 33,
//              "temperature_ramp_k_per_s": 0},
//    "ddmtd": {"helper_jitter_fs": 1000, "cdr_jitter_fs": 3000, "aperture_fs": 10000},
//    "calibration": {"asymmetry_error_ps": 10}}
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
  double flicker_adev = 3e-10;          // flicker FM floor (Allan deviation)
  double tempco_ppb_per_k = 32;         // each board's slope uniform in +-this
  double temperature_ramp_k_per_s = 0;  // the boards' ambient, all alike
  double ageing_ppb_per_day = 2.7;      // each board's uniform in +-this
  double pull_nonlinearity = 0.10;      // tuning curve off its line, fraction of the range
  double dac_inl_lsb = 4;
  double dac_dnl_lsb = 1;
  double dac_settling_us = 4;
};

// What calibration leaves: it is a measurement, so it has an error.
struct CalibrationProfile {
  // The asymmetry written to SYNC_CAL_ASYM is the true one plus a Gaussian
  // error of this rms (ps), drawn per link.
  double asymmetry_error_ps = 10;
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
  CalibrationProfile calibration;
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
// +-offset_ppm_spread, a noise seed, its temperature slope and ageing, all
// from (profile.seed, board), so a board keeps its oscillator when others
// are added. DAC starts at mid-scale.
OscillatorConfig oscillator_for_board(const ImpairmentProfile& profile, int board);

// The profile's fibre (every link alike in the reference profile; a scenario
// that wants one odd link overrides that link's FibreConfig).
FibreConfig fibre_config(const ImpairmentProfile& profile);

// The error of board `board`'s asymmetry calibration (fs), drawn from
// (profile.seed, board).
double asymmetry_calibration_error_fs(const ImpairmentProfile& profile, int board);

// Time error a board in holdover accumulates over `duration_s` against
// another board of the profile (its reference), from the two oscillators'
// specified instability, as a k-sigma bound (the frequency frozen at the
// start of holdover is the servo's business). Random terms add in quadrature
// over the two boards (sqrt 2), the ramps at worst with opposite slopes (2x).
// Per oscillator: random-walk FM,
// sigma_x(T) = q T^1.5 / sqrt(3) = ADEV(1 s) T^1.5; flicker FM, sigma_x(T)
// = ADEV_floor T / sqrt(2 ln 2) (order of magnitude); and, not random, the
// worst temperature slope times the ambient ramp and the worst ageing,
// each giving a frequency ramp a, T^2 a / 2.
double holdover_bound_fs(const ImpairmentProfile& profile, double duration_s, double k_sigma = 3.0);

}  // namespace lightrail::sim::clock
