// One bidirectional fibre link between two boards: forward (master to
// follower) and backward delays in fs, their asymmetry, an optional slow
// drift from a temperature ramp common to every link, and this link's own
// changes (steps and ramps, per direction). Delays are evaluated at the time
// a signal is launched; once built the model is pure (no state), so any
// process may ask.
#pragma once

#include <cstdint>
#include <vector>

namespace lightrail::sim::clock {

// Speed of light in vacuum, m/s (exact, SI definition).
inline constexpr double kSpeedOfLightMps = 299792458.0;

struct FibreConfig {
  double length_m = 1000.0;
  double group_index = 1.4682;  // SMF-28 class fibre at 1550 nm
  // Wavelength-dependent asymmetry, White Rabbit convention:
  // alpha = (forward - backward) / backward for the fibre part of the delay.
  double alpha = 0.0;
  // Fixed extra asymmetry (transceivers, patch cords): forward - backward, fs.
  double asymmetry_fs = 0.0;
  // Thermal coefficient of delay, ps per km per kelvin, and a linear
  // temperature ramp from t = 0 (K/s); 0 ramp = no drift.
  double tcd_ps_per_km_k = 0.0;
  double temperature_ramp_k_per_s = 0.0;
};

// A change of one link's delay from at_fs on, in one direction or both: a
// step, and a linear ramp lasting ramp_for_fs (a re-patched fibre, a
// temperature change of one cable).
struct DelayChange {
  int64_t at_fs = 0;
  bool forward = true, backward = true;
  double step_fs = 0;
  double ramp_fs_per_s = 0;
  int64_t ramp_for_fs = 0;
};

// Throws std::invalid_argument naming the field ("fibre.length_m: ...").
void validate(const FibreConfig& config);

class Fibre {
 public:
  explicit Fibre(const FibreConfig& config);

  // Delay of a signal launched at true time t_fs, in each direction.
  int64_t forward_delay_fs(int64_t t_fs) const;
  int64_t backward_delay_fs(int64_t t_fs) const;

  // Static parts, for the docs and for what a calibration would measure.
  double mean_delay_fs() const { return mean_fs_; }                     // (forward + backward) / 2 at t = 0
  double asymmetry_fs() const { return forward0_fs_ - backward0_fs_; }  // forward - backward
  // Delay change (both directions alike) at time t from the temperature ramp.
  double drift_fs(int64_t t_fs) const;
  // This link's own change of delay in one direction at time t.
  double change_fs(int64_t t_fs, bool forward) const;
  // The most either direction's delay reaches over the changes (fs); the
  // least is checked when a change is added (never negative).
  double max_delay_fs() const;
  // The least either direction's delay reaches from t = 0 to `until_fs`
  // (fs; every shortening at once): a partitioned run's lookahead.
  double min_delay_fs(int64_t until_fs) const;
  // Throws std::invalid_argument when the change would make a delay negative.
  void add_change(const DelayChange& change);
  const FibreConfig& config() const { return config_; }

 private:
  FibreConfig config_;
  double mean_fs_;
  double forward0_fs_;
  double backward0_fs_;
  double drift_fs_per_s_;
  std::vector<DelayChange> changes_;
};

}  // namespace lightrail::sim::clock
