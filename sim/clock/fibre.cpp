#include "clock/fibre.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace lightrail::sim::clock {
namespace {

void check_range(const std::string& field, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) {
    std::ostringstream os;
    os << "fibre." << field << ": " << value << " is outside [" << lo << ", " << hi << "]";
    throw std::invalid_argument(os.str());
  }
}

}  // namespace

void validate(const FibreConfig& c) {
  check_range("length_m", c.length_m, 0.0, 200e3);
  check_range("group_index", c.group_index, 1.0, 2.0);
  check_range("alpha", c.alpha, -0.01, 0.01);
  check_range("asymmetry_fs", c.asymmetry_fs, -1e7, 1e7);
  check_range("tcd_ps_per_km_k", c.tcd_ps_per_km_k, 0.0, 200.0);
  check_range("temperature_ramp_k_per_s", c.temperature_ramp_k_per_s, -1.0, 1.0);
}

Fibre::Fibre(const FibreConfig& config) : config_((validate(config), config)) {
  mean_fs_ = config.length_m * config.group_index / kSpeedOfLightMps * 1e15;
  // Split the fibre delay so that forward = backward * (1 + alpha) with the
  // mean unchanged, then add the fixed asymmetry half to each side.
  const double backward_fibre = 2.0 * mean_fs_ / (2.0 + config.alpha);
  const double forward_fibre = backward_fibre * (1.0 + config.alpha);
  forward0_fs_ = forward_fibre + config.asymmetry_fs / 2.0;
  backward0_fs_ = backward_fibre - config.asymmetry_fs / 2.0;
  if (forward0_fs_ < 0.0 || backward0_fs_ < 0.0) {
    throw std::invalid_argument("fibre.asymmetry_fs: " + std::to_string(config.asymmetry_fs) +
                                " fs makes one direction's delay negative on this length");
  }
  // ps/km/K * km * K/s -> ps/s -> fs/s
  drift_fs_per_s_ =
      config.tcd_ps_per_km_k * (config.length_m / 1000.0) * config.temperature_ramp_k_per_s * 1e3;
}

double Fibre::drift_fs(int64_t t_fs) const { return drift_fs_per_s_ * (static_cast<double>(t_fs) * 1e-15); }

double Fibre::change_fs(int64_t t_fs, bool forward) const {
  double d = 0;
  for (const DelayChange& c : changes_) {
    if (t_fs < c.at_fs || !(forward ? c.forward : c.backward)) continue;
    const int64_t ramped = c.ramp_for_fs > 0 ? std::min(t_fs - c.at_fs, c.ramp_for_fs) : 0;
    d += c.step_fs + c.ramp_fs_per_s * (double(ramped) * 1e-15);
  }
  return d;
}

namespace {
// The most (sign > 0) or least (sign < 0) one direction's changes can add.
double extreme_change(const std::vector<DelayChange>& changes, bool forward, double sign) {
  double sum = 0;
  for (const DelayChange& c : changes) {
    if (!(forward ? c.forward : c.backward)) continue;
    const double ramp = c.ramp_fs_per_s * (double(c.ramp_for_fs) * 1e-15);
    sum += std::max(0.0, sign * c.step_fs) + std::max(0.0, sign * ramp);
  }
  return sign * sum;
}
}  // namespace

double Fibre::max_delay_fs() const {
  return std::max(forward0_fs_ + extreme_change(changes_, true, 1),
                  backward0_fs_ + extreme_change(changes_, false, 1));
}

double Fibre::min_delay_fs(int64_t until_fs) const {
  const double drift = std::min({0.0, drift_fs(0), drift_fs(until_fs)});
  return std::min(forward0_fs_ + extreme_change(changes_, true, -1),
                  backward0_fs_ + extreme_change(changes_, false, -1)) +
         drift;
}

void Fibre::add_change(const DelayChange& change) {
  std::vector<DelayChange> all = changes_;
  all.push_back(change);
  // Conservative: every shortening at once, with the drift at its start.
  if (forward0_fs_ + extreme_change(all, true, -1) < 0.0 ||
      backward0_fs_ + extreme_change(all, false, -1) < 0.0)
    throw std::invalid_argument("shortens the fibre's delay below zero");
  changes_ = std::move(all);
}

int64_t Fibre::forward_delay_fs(int64_t t_fs) const {
  return std::llround(forward0_fs_ + drift_fs(t_fs) + change_fs(t_fs, true));
}

int64_t Fibre::backward_delay_fs(int64_t t_fs) const {
  return std::llround(backward0_fs_ + drift_fs(t_fs) + change_fs(t_fs, false));
}

}  // namespace lightrail::sim::clock
