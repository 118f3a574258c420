// One board's tunable system-clock oscillator, as the co-simulation sees it:
// a DAC (integral and differential non-linearity, settling) driving a VCXO
// (static error, a non-linear tuning curve, white phase jitter, random-walk
// and flicker frequency noise, temperature coefficient, ageing) followed by
// an MMCM whose dynamic phase shifter moves every output edge by 1/56 of the
// VCO period per step (UltraScale+ interpolated fine phase shift, UG572).
// Times are femtoseconds of true (simulation) time.
//
// next_edge_fs() is called once per simulated clock cycle, so it does no
// allocation and at most one normal draw (white jitter) per call; the slow
// terms (random walk, flicker, temperature, ageing) are advanced once every
// `rw_update_edges` edges.
#pragma once

#include <cstdint>

#include "clock/rng.hpp"

namespace lightrail::sim::clock {

struct OscillatorConfig {
  double nominal_hz = 250e6;     // output frequency the board believes it has
  double offset_ppm = 0.0;       // static frequency error at DAC mid-scale
  double pull_range_ppm = 50.0;  // DAC word 0 -> -range, full scale -> +range (linear)
  int dac_bits = 16;             // DAC resolution; words beyond full scale clamp
  uint32_t dac_word = 0x8000;    // initial DAC word (clamped to the DAC's range)
  double jitter_rms_fs = 0.0;    // white phase noise added to each edge, independently
  double rw_adev_1s = 0.0;       // random-walk FM, given as its Allan deviation at tau = 1 s
  int rw_update_edges = 256;     // edges between random-walk steps (statistics are exact per step)
  double vco_hz = 1.5e9;         // MMCM VCO; fine phase step = 1 / (56 * vco_hz)
  // Flicker FM: an Allan deviation flat at this value from 10 us to 10 s
  // (a sum of first-order processes, one per decade of time constant).
  double flicker_adev = 0.0;
  double tempco_ppb_per_k = 0.0;          // df/f per kelvin about the operating point
  double temperature_ramp_k_per_s = 0.0;  // the board's temperature from start_fs on
  double ageing_ppb_per_day = 0.0;        // linear frequency drift
  // Tuning curve: deviation from the straight line between the end points,
  // at most this fraction of the pull range (a cubic, compressed at the
  // ends as a varactor's is; slope (1 + 2.6 x) at mid-scale).
  double pull_nonlinearity = 0.0;
  double dac_inl_lsb = 0.0;      // DAC integral non-linearity: a bow, this many LSB at mid-scale
  double dac_dnl_lsb = 0.0;      // each code off by up to this (fixed per code)
  double dac_settling_fs = 0.0;  // DAC output and tuning port: first-order time constant
  int64_t start_fs = 0;          // true time of the first edge (before jitter and shift)
  uint64_t seed = 1;             // same seed, same edges
};

// Throws std::invalid_argument naming the field ("oscillator.dac_bits: ...").
void validate(const OscillatorConfig& config);

class Oscillator {
 public:
  // MMCM interpolated fine phase shift: 56 steps per VCO period.
  static constexpr int kPhaseStepsPerVcoPeriod = 56;

  explicit Oscillator(const OscillatorConfig& config);

  // True time of the next rising edge (jitter and phase shift included).
  // Successive calls return successive edges; the first call returns edge 0.
  int64_t next_edge_fs();

  // Steer the frequency: DAC word, clamped to [0, 2^dac_bits - 1]. Takes
  // effect from the next edge.
  void set_dac(int64_t word);
  uint32_t dac() const { return dac_word_; }
  uint32_t dac_full_scale() const { return dac_max_; }

  // MMCM dynamic phase shift: +1 delays every later edge by one step
  // (PSINCDEC=1), -1 advances it. One call may move at most a quarter of the
  // clock period, so edges stay in order; throws std::invalid_argument beyond.
  void shift_phase(int64_t steps);
  int64_t phase_steps() const { return phase_steps_; }
  double phase_step_fs() const { return phase_step_fs_; }

  // --- probes: the truth the synchronisation is measured against ---
  uint64_t edge_count() const { return edges_; }  // edges returned so far
  int64_t last_edge_fs() const { return last_edge_fs_; }
  // Edge time minus the ideal time of the same edge on a perfect clock
  // (start_fs + n * nominal period), without the white jitter: the phase
  // error the servo has to remove. Valid after the first edge.
  double time_error_fs() const { return last_error_fs_; }
  // Present fractional frequency error (static + DAC + slow terms) and
  // frequency; the period of the next edge follows from them.
  double fractional_frequency() const { return y_offset_ + y_dac_ + y_slow_; }
  // The DAC word's pull once settled, through the DAC's and the tuning
  // curve's non-linearity (fractional frequency).
  double pull_of(int64_t word) const;
  double frequency_hz() const { return config_.nominal_hz * (1.0 + fractional_frequency()); }
  double nominal_period_fs() const { return period0_fs_; }
  const OscillatorConfig& config() const { return config_; }

 private:
  void apply_dac(int64_t word);
  void step_slow();

  // Flicker FM from one first-order process per decade of time constant.
  static constexpr int kFlickerPoles = 7;  // 10 us .. 10 s

  OscillatorConfig config_;
  Rng rng_;
  double period0_fs_;
  double phase_step_fs_;
  double walk_step_;  // std dev of one random-walk step (fractional frequency)
  uint32_t dac_max_;
  uint32_t dac_word_ = 0;
  double y_offset_ = 0.0;      // static error
  double y_dac_ = 0.0;         // the pull now (settling towards y_dac_target_)
  double y_dac_target_ = 0.0;  // the pull of the DAC word once settled
  double settle_ = 1.0;        // fraction of the way to the target per edge
  double y_slow_ = 0.0;        // walk + flicker + temperature + ageing
  double y_walk_ = 0.0;
  bool slow_ = false;  // any slow term configured
  double flicker_a_[kFlickerPoles] = {};
  double flicker_b_[kFlickerPoles] = {};
  double flicker_x_[kFlickerPoles] = {};
  uint64_t slow_steps_ = 0;
  int64_t phase_steps_ = 0;
  double shift_fs_ = 0.0;
  // Clean (jitter-free, unshifted) edge time = whole_fs_ + frac_fs_: split so
  // that hours of 4 ns periods accumulate without double rounding drift.
  int64_t whole_fs_;
  double frac_fs_ = 0.0;
  uint64_t edges_ = 0;
  int countdown_;
  int64_t ideal_whole_fs_;
  double ideal_frac_fs_ = 0.0;
  int64_t last_edge_fs_ = 0;
  double last_error_fs_ = 0.0;
};

}  // namespace lightrail::sim::clock
