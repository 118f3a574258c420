#include "clock/impairment_profile.hpp"

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/json_text.hpp"

namespace lightrail::sim::clock {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::invalid_argument(where + ": " + what);
}

void read(const json& v, const std::string& where, double& out) {
  if (!v.is_number()) fail(where, "expected a number, got " + v.dump());
  out = v.get<double>();
}

void read(const json& v, const std::string& where, int& out) {
  if (!v.is_number_integer()) fail(where, "expected an integer, got " + v.dump());
  const int64_t x = v.get<int64_t>();
  if (x < -2147483648LL || x > 2147483647LL) fail(where, v.dump() + " does not fit an int");
  out = static_cast<int>(x);
}

void read(const json& v, const std::string& where, uint64_t& out) {
  if (!v.is_number_unsigned()) fail(where, "expected a non-negative integer, got " + v.dump());
  out = v.get<uint64_t>();
}

// Applies each member of object `j` through the setter registered under its
// name; a name with no setter is an error listing the known ones.
using Setters = std::map<std::string, std::function<void(const json&, const std::string&)>>;

void apply(const json& j, const std::string& where, const Setters& setters) {
  if (!j.is_object()) fail(where, "expected an object, got " + j.dump());
  for (const auto& [key, value] : j.items()) {
    auto it = setters.find(key);
    if (it == setters.end()) {
      std::string known;
      for (const auto& [name, setter] : setters) known += (known.empty() ? "" : ", ") + name;
      fail(where + "." + key, "unknown field (known: " + known + ")");
    }
    it->second(value, where + "." + key);
  }
}

template <typename T>
std::function<void(const json&, const std::string&)> field(T& target) {
  return [&target](const json& v, const std::string& where) { read(v, where, target); };
}

// The models' own checks, reported under the profile's path.
void check(const ImpairmentProfile& p, const std::string& where) {
  if (!(p.oscillator.offset_ppm_spread >= 0.0 && p.oscillator.offset_ppm_spread <= 1000.0)) {
    std::ostringstream os;
    os << p.oscillator.offset_ppm_spread << " is outside [0, 1000]";
    fail(where + ".oscillator.offset_ppm_spread", os.str());
  }
  if (p.oscillator.nominal_hz != 0.0 && !(p.oscillator.nominal_hz >= 1e6 && p.oscillator.nominal_hz <= 2e9)) {
    std::ostringstream os;
    os << p.oscillator.nominal_hz << " is outside [1e6, 2e9] (or 0: the board's system clock)";
    fail(where + ".oscillator.nominal_hz", os.str());
  }
  if (!(p.oscillator.pull_gain_error >= -0.5 && p.oscillator.pull_gain_error <= 0.5)) {
    std::ostringstream os;
    os << p.oscillator.pull_gain_error << " is outside [-0.5, 0.5]";
    fail(where + ".oscillator.pull_gain_error", os.str());
  }
  if (!(p.oscillator.dac_settling_us >= 0 && p.oscillator.dac_settling_us <= 1000)) {
    std::ostringstream os;
    os << p.oscillator.dac_settling_us << " is outside [0, 1000]";
    fail(where + ".oscillator.dac_settling_us", os.str());
  }
  if (!(p.calibration.asymmetry_error_ps >= 0 && p.calibration.asymmetry_error_ps <= 10000)) {
    std::ostringstream os;
    os << p.calibration.asymmetry_error_ps << " is outside [0, 10000]";
    fail(where + ".calibration.asymmetry_error_ps", os.str());
  }
  // Each jitter at most a twentieth of the period (edges stay in order).
  const double jitter_max = hwdef::CLK_PERIOD_PS * 1000.0 / 20;
  for (const auto& [name, v] : {std::pair<const char*, double>{"helper_jitter_fs", p.ddmtd.helper_jitter_fs},
                                {"cdr_jitter_fs", p.ddmtd.cdr_jitter_fs}})
    if (!(v >= 0 && v <= jitter_max)) {
      std::ostringstream os;
      os << v << " is outside [0, " << jitter_max << "]";
      fail(where + ".ddmtd." + name, os.str());
    }
  if (!(p.ddmtd.aperture_fs >= 0 && p.ddmtd.aperture_fs <= hwdef::CLK_PERIOD_PS * 1000.0 / 4)) {
    std::ostringstream os;
    os << p.ddmtd.aperture_fs << " is outside [0, " << hwdef::CLK_PERIOD_PS * 1000.0 / 4 << "]";
    fail(where + ".ddmtd.aperture_fs", os.str());
  }
  try {
    OscillatorConfig osc = oscillator_for_board(p, 0);
    osc.offset_ppm = p.oscillator.offset_ppm_spread;  // the worst board
    validate(osc);
    validate(fibre_config(p));
  } catch (const std::invalid_argument& e) {
    fail(where + "." + std::string(e.what()).substr(0, std::string(e.what()).find(':')),
         std::string(e.what()).substr(std::string(e.what()).find(':') + 2));
  }
}

}  // namespace

ImpairmentProfile reference_profile() {
  ImpairmentProfile p;
  check(p, "reference_profile");
  return p;
}

ImpairmentProfile load_profile(const json& j, const std::string& where, const ImpairmentProfile& base) {
  ImpairmentProfile p = base;  // a failed load leaves the caller's profile as it was
  OscillatorProfile& o = p.oscillator;
  FibreProfile& f = p.fibre;
  const Setters oscillator = {{"nominal_hz", field(o.nominal_hz)},
                              {"offset_ppm_spread", field(o.offset_ppm_spread)},
                              {"pull_range_ppm", field(o.pull_range_ppm)},
                              {"dac_bits", field(o.dac_bits)},
                              {"jitter_rms_fs", field(o.jitter_rms_fs)},
                              {"rw_adev_1s", field(o.rw_adev_1s)},
                              {"rw_update_edges", field(o.rw_update_edges)},
                              {"vco_hz", field(o.vco_hz)},
                              {"pull_gain_error", field(o.pull_gain_error)},
                              {"flicker_adev", field(o.flicker_adev)},
                              {"tempco_ppb_per_k", field(o.tempco_ppb_per_k)},
                              {"temperature_ramp_k_per_s", field(o.temperature_ramp_k_per_s)},
                              {"ageing_ppb_per_day", field(o.ageing_ppb_per_day)},
                              {"pull_nonlinearity", field(o.pull_nonlinearity)},
                              {"dac_inl_lsb", field(o.dac_inl_lsb)},
                              {"dac_dnl_lsb", field(o.dac_dnl_lsb)},
                              {"dac_settling_us", field(o.dac_settling_us)}};
  const Setters calibration = {{"asymmetry_error_ps", field(p.calibration.asymmetry_error_ps)}};
  DdmtdProfile& d = p.ddmtd;
  const Setters ddmtd = {{"helper_jitter_fs", field(d.helper_jitter_fs)},
                         {"cdr_jitter_fs", field(d.cdr_jitter_fs)},
                         {"aperture_fs", field(d.aperture_fs)}};
  const Setters fibre = {{"length_m", field(f.length_m)},
                         {"group_index", field(f.group_index)},
                         {"alpha", field(f.alpha)},
                         {"asymmetry_fs", field(f.asymmetry_fs)},
                         {"tcd_ps_per_km_k", field(f.tcd_ps_per_km_k)},
                         {"temperature_ramp_k_per_s", field(f.temperature_ramp_k_per_s)}};
  const Setters top = {
      {"seed", field(p.seed)},
      {"oscillator", [&](const json& v, const std::string& w) { apply(v, w, oscillator); }},
      {"fibre", [&](const json& v, const std::string& w) { apply(v, w, fibre); }},
      {"ddmtd", [&](const json& v, const std::string& w) { apply(v, w, ddmtd); }},
      {"calibration", [&](const json& v, const std::string& w) { apply(v, w, calibration); }}};
  apply(j, where, top);
  check(p, where);
  return p;
}

ImpairmentProfile load_profile_file(const std::string& path) {
  json j;
  try {
    j = read_json_file(path, path);  // strict: duplicate keys, trailing junk
  } catch (const Error& e) {
    throw std::invalid_argument(std::string(e.what()) + " (impairment profile)");
  }
  return load_profile(j, path);
}

json to_json(const ImpairmentProfile& p) {
  const OscillatorProfile& o = p.oscillator;
  const FibreProfile& f = p.fibre;
  return json{{"seed", p.seed},
              {"oscillator",
               {{"nominal_hz", o.nominal_hz},
                {"offset_ppm_spread", o.offset_ppm_spread},
                {"pull_range_ppm", o.pull_range_ppm},
                {"dac_bits", o.dac_bits},
                {"jitter_rms_fs", o.jitter_rms_fs},
                {"rw_adev_1s", o.rw_adev_1s},
                {"rw_update_edges", o.rw_update_edges},
                {"vco_hz", o.vco_hz},
                {"pull_gain_error", o.pull_gain_error},
                {"flicker_adev", o.flicker_adev},
                {"tempco_ppb_per_k", o.tempco_ppb_per_k},
                {"temperature_ramp_k_per_s", o.temperature_ramp_k_per_s},
                {"ageing_ppb_per_day", o.ageing_ppb_per_day},
                {"pull_nonlinearity", o.pull_nonlinearity},
                {"dac_inl_lsb", o.dac_inl_lsb},
                {"dac_dnl_lsb", o.dac_dnl_lsb},
                {"dac_settling_us", o.dac_settling_us}}},
              {"calibration", {{"asymmetry_error_ps", p.calibration.asymmetry_error_ps}}},
              {"ddmtd",
               {{"helper_jitter_fs", p.ddmtd.helper_jitter_fs},
                {"cdr_jitter_fs", p.ddmtd.cdr_jitter_fs},
                {"aperture_fs", p.ddmtd.aperture_fs}}},
              {"fibre",
               {{"length_m", f.length_m},
                {"group_index", f.group_index},
                {"alpha", f.alpha},
                {"asymmetry_fs", f.asymmetry_fs},
                {"tcd_ps_per_km_k", f.tcd_ps_per_km_k},
                {"temperature_ramp_k_per_s", f.temperature_ramp_k_per_s}}}};
}

OscillatorConfig oscillator_for_board(const ImpairmentProfile& p, int board) {
  // One stream per (seed, board): adding boards does not change the others.
  Rng rng(p.seed * 0x9E3779B97F4A7C15ull ^ (static_cast<uint64_t>(board) + 1) * 0xD1B54A32D192ED03ull);
  OscillatorConfig c;
  c.nominal_hz = p.oscillator.nominal_hz != 0.0 ? p.oscillator.nominal_hz : 1e12 / hwdef::CLK_PERIOD_PS;
  c.offset_ppm = p.oscillator.offset_ppm_spread * (2.0 * rng.uniform() - 1.0);
  c.pull_range_ppm = p.oscillator.pull_range_ppm;
  c.dac_bits = p.oscillator.dac_bits;
  // Mid-scale (the shift is guarded: the profile check runs on this config).
  c.dac_word = (c.dac_bits >= 1 && c.dac_bits <= 32) ? (1u << (c.dac_bits - 1)) : 0u;
  c.jitter_rms_fs = p.oscillator.jitter_rms_fs;
  c.rw_adev_1s = p.oscillator.rw_adev_1s;
  c.rw_update_edges = p.oscillator.rw_update_edges;
  c.vco_hz = p.oscillator.vco_hz;
  c.seed = rng.next_u64();
  // Drawn after the older fields, so those stay what they were.
  c.flicker_adev = p.oscillator.flicker_adev;
  c.tempco_ppb_per_k = p.oscillator.tempco_ppb_per_k * (2.0 * rng.uniform() - 1.0);
  c.temperature_ramp_k_per_s = p.oscillator.temperature_ramp_k_per_s;
  c.ageing_ppb_per_day = p.oscillator.ageing_ppb_per_day * (2.0 * rng.uniform() - 1.0);
  c.pull_nonlinearity = p.oscillator.pull_nonlinearity;
  c.dac_inl_lsb = p.oscillator.dac_inl_lsb;
  c.dac_dnl_lsb = p.oscillator.dac_dnl_lsb;
  c.dac_settling_fs = p.oscillator.dac_settling_us * 1e9;
  return c;
}

FibreConfig fibre_config(const ImpairmentProfile& p) {
  FibreConfig c;
  c.length_m = p.fibre.length_m;
  c.group_index = p.fibre.group_index;
  c.alpha = p.fibre.alpha;
  c.asymmetry_fs = p.fibre.asymmetry_fs;
  c.tcd_ps_per_km_k = p.fibre.tcd_ps_per_km_k;
  c.temperature_ramp_k_per_s = p.fibre.temperature_ramp_k_per_s;
  return c;
}

double asymmetry_calibration_error_fs(const ImpairmentProfile& p, int board) {
  Rng rng(p.seed * 0xA0761D6478BD642Full ^ (static_cast<uint64_t>(board) + 1) * 0xE7037ED1A0B428DBull);
  return p.calibration.asymmetry_error_ps * 1000.0 * rng.normal();
}

double holdover_bound_fs(const ImpairmentProfile& p, double duration_s, double k_sigma) {
  const OscillatorProfile& o = p.oscillator;
  const double walk = o.rw_adev_1s * std::pow(duration_s, 1.5);
  const double flicker = o.flicker_adev * duration_s / std::sqrt(2.0 * std::log(2.0));
  const double ramp = std::fabs(o.tempco_ppb_per_k * o.temperature_ramp_k_per_s) * 1e-9 +
                      std::fabs(o.ageing_ppb_per_day) * 1e-9 / 86400.0;
  return (std::sqrt(2.0) * k_sigma * std::hypot(walk, flicker) + 2.0 * ramp * duration_s * duration_s / 2.0) *
         1e15;
}

}  // namespace lightrail::sim::clock
