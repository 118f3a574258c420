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
  apply_dac(config.dac_word);
}

void Oscillator::apply_dac(int64_t word) {
  if (word < 0) word = 0;
  if (word > static_cast<int64_t>(dac_max_)) word = dac_max_;
  dac_word_ = static_cast<uint32_t>(word);
  const double pull = config_.pull_range_ppm * (2.0 * dac_word_ / dac_max_ - 1.0);
  y_static_ = (config_.offset_ppm + pull) * 1e-6;
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

  if (walk_step_ > 0.0 && --countdown_ == 0) {
    y_walk_ += walk_step_ * rng_.normal();
    countdown_ = config_.rw_update_edges;
  }
  frac_fs_ += period0_fs_ / (1.0 + y_static_ + y_walk_);
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
