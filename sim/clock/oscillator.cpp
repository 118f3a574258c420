#include "clock/oscillator.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace lightrail::sim::clock {
namespace {

[[noreturn]] void fail(const std::string& field, const std::string& what) {
  throw std::invalid_argument("oscillator." + field + ": " + what);
}

void check_range(const std::string& field, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) {
    std::ostringstream os;
    os << value << " is outside [" << lo << ", " << hi << "]";
    fail(field, os.str());
  }
}

}  // namespace

void validate(const OscillatorConfig& c) {
  check_range("nominal_hz", c.nominal_hz, 1e6, 2e9);
  check_range("offset_ppm", c.offset_ppm, -1000.0, 1000.0);
  check_range("pull_range_ppm", c.pull_range_ppm, 0.0, 1000.0);
  check_range("dac_bits", c.dac_bits, 1, 32);
  // Beyond period/20 rms a Gaussian edge could overtake its neighbour.
  check_range("jitter_rms_fs", c.jitter_rms_fs, 0.0, 1e15 / c.nominal_hz / 20.0);
  check_range("rw_adev_1s", c.rw_adev_1s, 0.0, 1e-6);
  check_range("rw_update_edges", c.rw_update_edges, 1, 1000000);
  // UltraScale+ MMCM VCO range (DS923/DS931: MMCM_FVCOMIN/MAX).
  check_range("vco_hz", c.vco_hz, 800e6, 1600e6);
  check_range("flicker_adev", c.flicker_adev, 0.0, 1e-6);
  check_range("tempco_ppb_per_k", c.tempco_ppb_per_k, -10000.0, 10000.0);
  check_range("temperature_ramp_k_per_s", c.temperature_ramp_k_per_s, -100.0, 100.0);
  check_range("ageing_ppb_per_day", c.ageing_ppb_per_day, -1000.0, 1000.0);
  // Beyond 1/3 the cubic curve would fold back (slope 1 - 2 k at the ends).
  check_range("pull_nonlinearity", c.pull_nonlinearity, -0.3, 0.3);
  check_range("dac_inl_lsb", c.dac_inl_lsb, -1e6, 1e6);
  check_range("dac_dnl_lsb", c.dac_dnl_lsb, 0.0, 1e6);
  check_range("dac_settling_fs", c.dac_settling_fs, 0.0, 1e12);
  if (c.start_fs < 0) fail("start_fs", "must not be negative");
}

Oscillator::Oscillator(const OscillatorConfig& config)
    : config_((validate(config), config)),
      rng_(config.seed),
      period0_fs_(1e15 / config.nominal_hz),
      phase_step_fs_(1e15 / (config.vco_hz * kPhaseStepsPerVcoPeriod)),
      // Random-walk FM: Var[y(t+T) - y(t)] = q^2 T with sigma_y(tau) = q sqrt(tau/3),
      // so q = sqrt(3) * ADEV(1 s); one step spans rw_update_edges periods.
      walk_step_(std::sqrt(3.0) * config.rw_adev_1s *
                 std::sqrt(config.rw_update_edges * (1.0 / config.nominal_hz))),
      dac_max_(config.dac_bits >= 32 ? 0xFFFFFFFFu : (1u << config.dac_bits) - 1u),
      whole_fs_(config.start_fs),
      countdown_(config.rw_update_edges),
      ideal_whole_fs_(config.start_fs) {
  y_offset_ = config.offset_ppm * 1e-6;
  if (config.dac_settling_fs > 0) settle_ = -std::expm1(-period0_fs_ / config.dac_settling_fs);
  // Flicker FM: processes of variance s^2 with one time constant per decade
  // sum to S_y(f) ~ s^2 / (ln 10 f) between the poles, i.e. h_-1 = s^2 / ln 10,
  // and flicker FM has sigma_y^2 = 2 ln 2 h_-1 at every tau.
  const double dt = config.rw_update_edges * period0_fs_ * 1e-15;
  const double s = config.flicker_adev * std::sqrt(std::log(10.0) / (2.0 * std::log(2.0)));
  for (int k = 0; k < kFlickerPoles; ++k) {
    const double tau = 1e-5 * std::pow(10.0, k);
    flicker_a_[k] = std::exp(-dt / tau);
    flicker_b_[k] = s * std::sqrt(1.0 - flicker_a_[k] * flicker_a_[k]);
    flicker_x_[k] = config.flicker_adev > 0 ? s * rng_.normal() : 0.0;  // start stationary
  }
  slow_ = walk_step_ > 0 || config.flicker_adev > 0 ||
          config.tempco_ppb_per_k * config.temperature_ramp_k_per_s != 0 || config.ageing_ppb_per_day != 0;
  for (double x : flicker_x_) y_slow_ += x;
  apply_dac(config.dac_word);
  y_dac_ = y_dac_target_;  // powered up settled
}

double Oscillator::pull_of(int64_t word) const {
  if (word < 0) word = 0;
  if (word > static_cast<int64_t>(dac_max_)) word = dac_max_;
  const double u = static_cast<double>(word) / dac_max_;
  // DAC: an end-point bow plus a fixed error per code (a hash of the code,
  // so no table and the same DAC on every run).
  uint64_t h = static_cast<uint64_t>(word) * 0x9E3779B97F4A7C15ull;
  h = (h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ull;
  const double dnl = config_.dac_dnl_lsb * (2.0 * static_cast<double>(h >> 11) / 9007199254740992.0 - 1.0);
  const double code = static_cast<double>(word) + config_.dac_inl_lsb * 4.0 * u * (1.0 - u) + dnl;
  const double x = 2.0 * code / dac_max_ - 1.0;
  // VCXO tuning curve: x + k (x - x^3) peaks at k 2/(3 sqrt 3) = pull_nonlinearity.
  const double k = config_.pull_nonlinearity * 1.5 * std::sqrt(3.0);
  return config_.pull_range_ppm * 1e-6 * (x + k * (x - x * x * x));
}

void Oscillator::apply_dac(int64_t word) {
  if (word < 0) word = 0;
  if (word > static_cast<int64_t>(dac_max_)) word = dac_max_;
  dac_word_ = static_cast<uint32_t>(word);
  y_dac_target_ = pull_of(word);
  if (config_.dac_settling_fs <= 0) y_dac_ = y_dac_target_;
}

void Oscillator::step_slow() {
  if (walk_step_ > 0.0) y_walk_ += walk_step_ * rng_.normal();
  double flicker = 0;
  if (config_.flicker_adev > 0)
    for (int k = 0; k < kFlickerPoles; ++k) {
      flicker_x_[k] = flicker_a_[k] * flicker_x_[k] + flicker_b_[k] * rng_.normal();
      flicker += flicker_x_[k];
    }
  const double t_s = static_cast<double>(++slow_steps_) * config_.rw_update_edges * period0_fs_ * 1e-15;
  y_slow_ = y_walk_ + flicker + config_.tempco_ppb_per_k * 1e-9 * config_.temperature_ramp_k_per_s * t_s +
            config_.ageing_ppb_per_day * 1e-9 * t_s / 86400.0;
}

void Oscillator::set_dac(int64_t word) { apply_dac(word); }

void Oscillator::shift_phase(int64_t steps) {
  if (std::fabs(static_cast<double>(steps) * phase_step_fs_) > period0_fs_ / 4.0) {
    std::ostringstream os;
    os << "shift_phase: " << steps << " steps of " << phase_step_fs_
       << " fs exceed a quarter period in one call";
    throw std::invalid_argument(os.str());
  }
  phase_steps_ += steps;
  shift_fs_ = static_cast<double>(phase_steps_) * phase_step_fs_;
}

int64_t Oscillator::next_edge_fs() {
  const double jitter = config_.jitter_rms_fs > 0.0 ? config_.jitter_rms_fs * rng_.normal() : 0.0;
  last_edge_fs_ = whole_fs_ + std::llround(frac_fs_ + shift_fs_ + jitter);
  // Ideal edge n of a perfect clock, split the same way as the real one.
  last_error_fs_ = static_cast<double>(whole_fs_ - ideal_whole_fs_) + (frac_fs_ - ideal_frac_fs_) + shift_fs_;
  ++edges_;

  if (slow_ && --countdown_ == 0) {
    step_slow();
    countdown_ = config_.rw_update_edges;
  }
  if (y_dac_ != y_dac_target_) {
    y_dac_ += settle_ * (y_dac_target_ - y_dac_);
    if (std::fabs(y_dac_target_ - y_dac_) < 1e-15) y_dac_ = y_dac_target_;
  }
  frac_fs_ += period0_fs_ / (1.0 + y_offset_ + y_dac_ + y_slow_);
  const double whole = std::floor(frac_fs_);
  whole_fs_ += static_cast<int64_t>(whole);
  frac_fs_ -= whole;

  ideal_frac_fs_ += period0_fs_;
  const double ideal_whole = std::floor(ideal_frac_fs_);
  ideal_whole_fs_ += static_cast<int64_t>(ideal_whole);
  ideal_frac_fs_ -= ideal_whole;
  return last_edge_fs_;
}

}  // namespace lightrail::sim::clock
