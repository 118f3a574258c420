// A board's physical surroundings for closed-loop tests of the servo: its
// oscillator (static offset, DAC pull, white phase jitter, random-walk
// frequency noise), the MMCM phase shifter, the DDMTD phase detector and the
// fibre link to the reference (delay per direction, fixed delays). Seeded, so
// every run is reproducible. It knows the true offset; the servo does not.
#pragma once

#include <cmath>
#include <cstdint>
#include <deque>
#include <random>

#include "clock_sync/clock_sync.hpp"

namespace lightrail::sync::test {

// The noise level the acceptance figures are stated for.
struct PlantConfig {
  double initial_offset_ps = 150000;  // after the boot-time coarse time set
  double osc_offset_ppm = 20;         // free-running frequency error
  double white_jitter_ps = 2;         // RMS white phase noise of the local clock
  double rw_freq_per_sqrt_s = 2e-9;   // random-walk frequency noise, fractional / sqrt(s)
  double timestamp_noise_ps = 5;      // RMS jitter of the t1..t4 hardware timestamps
  double timestamp_quantum_ps = 1;    // 4000: PTP-style cycle timestamps
  double fibre_ms_ps = 5000000;       // 1 km
  double fibre_sm_ps = 5000000;
  double fixed_ms_ps = 0;  // reference TX + board RX
  double fixed_sm_ps = 0;  // board TX + reference RX
  // Where the receiver's word boundary landed at lock: the recovered clock
  // and the received stamps arrive this many unit intervals later.
  uint32_t rx_bitslide_ui = 0;
  bool report_bitslide = true;  // the transceiver tells the servo the slide
  uint32_t exchange_every = 1;  // updates per two-way exchange
  // As on a board (off: the exchange is fresh and the DDMTD pairs at any
  // frequency, as the tests written before issue 26 assume): an exchange
  // reaches the servo one and a half round trips plus framing after its t1
  // (the Delay_Resp carrying t4 returns over the fibre), and the DDMTD pairs
  // only within +-61 ppm, each phase the lag at the reference's last beat.
  bool as_on_board = false;
  // The oscillator's tuning: its true pull is (1 + pull_gain_error) times
  // what the servo is told, bent by pull_nonlinearity (the co-simulation's
  // VCXO curve, sim/clock/oscillator.cpp).
  double pull_gain_error = 0;
  double pull_nonlinearity = 0;
  uint64_t seed = 1;
};

class Plant {
 public:
  // One servo update per DDMTD beat: N + 1 system cycles.
  static constexpr double kUpdatePs = double(hwdef::DDMTD_N + 1) * hwdef::CLK_PERIOD_PS;

  explicit Plant(const PlantConfig& c) : c_(c), rng_(c.seed), x_ps_(c.initial_offset_ps) {
    y_osc_ = c.osc_offset_ppm * 1e-6;
  }

  // Inputs for the servo's next call, measured on the current truth.
  ClockSyncIn measure(const ClockSyncConfig& cfg, bool ref_ok) {
    ClockSyncIn in;
    in.cfg = cfg;
    in.elapsed_fs = std::llround(kUpdatePs * (1 + y()) * 1000);
    in.ref_ok = ref_ok;
    jitter_ps_ = c_.white_jitter_ps * gauss_(rng_);
    if (!ref_ok) return in;
    if (c_.report_bitslide) in.rx_bitslide_ui = c_.rx_bitslide_ui;
    const double T = hwdef::CLK_PERIOD_PS;
    const double ui = T / hwdef::SYNC_LINK_WORD_BITS;
    const double d_ms = c_.fixed_ms_ps + c_.fibre_ms_ps + c_.rx_bitslide_ui * ui;
    // hw/ddmtd.sv: how far the local clock lags the recovered reference.
    double lag = std::fmod(-(true_offset_ps() + d_ms), T);
    if (lag < 0) lag += T;
    if (c_.as_on_board) {
      // The phase pairs the local tag with the newest reference tag, up to a
      // beat older: the lag then (the frequency error times that age).
      lag = std::fmod(lag + y() * kUpdatePs * uniform_(rng_), T);
      if (lag < 0) lag += T;
    }
    in.phase_valid = !c_.as_on_board || std::fabs(y()) < kPairPpm * 1e-6;
    in.ddmtd_phase = uint32_t(std::floor(lag / T * hwdef::DDMTD_N)) % hwdef::DDMTD_N;
    if (++since_exchange_ >= c_.exchange_every) {
      since_exchange_ = 0;
      const double t1 = t_ps_ - 2000000;  // sent 2 us ago in reference time
      const double t2 = t1 + d_ms + x_ps_;
      const double t3 = t2 + 1000000;  // answered 1 us later in board time
      const double t4 = t3 - x_ps_ + c_.fixed_sm_ps + c_.fibre_sm_ps;
      // On a board it arrives after the Delay_Resp's trip back and framing.
      const double age_ps = c_.as_on_board ? 2000000 + (t4 - t1) + d_ms + 1000000 : 0;
      pending_.push_back({t_ps_ + age_ps, stamp(t1), stamp(t2), stamp(t3), stamp(t4)});
    }
    // The newest exchange that has arrived by now.
    bool got = false;
    while (!pending_.empty() && pending_.front().due_ps <= t_ps_) {
      const Exchange& e = pending_.front();
      in.t1_fs = e.t1, in.t2_fs = e.t2, in.t3_fs = e.t3, in.t4_fs = e.t4;
      got = true;
      pending_.pop_front();
    }
    in.exchange_valid = got;
    return in;
  }

  // Applies the servo's outputs, then lets one update interval pass.
  // Returns the board-time advance over it (ps): it must stay positive.
  double apply_and_advance(const ClockSyncOut& out, const ClockSyncConfig& cfg) {
    const double step_ps =
        out.phase_steps * (cfg.phase_step_fs / 1000.0) + double(out.time_step_ticks) * hwdef::TICK_PS;
    x_ps_ += step_ps;
    dac_ = out.dac_word;
    x_ps_ += y() * kUpdatePs;
    t_ps_ += kUpdatePs;
    y_osc_ += c_.rw_freq_per_sqrt_s * std::sqrt(kUpdatePs * 1e-12) * gauss_(rng_);
    return kUpdatePs * (1 + y()) + step_ps;
  }

  double true_offset_ps() const { return x_ps_ + jitter_ps_; }
  double smooth_offset_ps() const { return x_ps_; }
  // Fractional frequency error of board time: oscillator plus DAC pull.
  double y() const {
    const double mid = double(1u << (hwdef::SYNC_DAC_BITS - 1));
    const double x = (double(dac_) - mid) / mid;
    const double k = c_.pull_nonlinearity * 1.5 * std::sqrt(3.0);
    return y_osc_ + (x + k * (x - x * x * x)) * (1 + c_.pull_gain_error) * pull_ppb_ * 1e-9;
  }
  // A sudden oscillator frequency change (a temperature step, a knock).
  void shift_frequency(double dy) { y_osc_ += dy; }
  // A sudden offset of board time against the reference.
  void shift_time(double dx_ps) { x_ps_ += dx_ps; }
  // A sudden change of the fibre's delay, per direction (a re-patched or
  // re-routed link): the recovered clock and the exchange both see it.
  void step_delay(double ms_ps, double sm_ps) {
    c_.fibre_ms_ps += ms_ps;
    c_.fibre_sm_ps += sm_ps;
  }

 private:
  // The reference advances its tag by less than N/4 a beat (hw/ddmtd.sv).
  static constexpr double kPairPpm = 1e6 / (4.0 * (hwdef::DDMTD_N + 1));
  struct Exchange {
    double due_ps;
    int64_t t1, t2, t3, t4;
  };

  int64_t stamp(double t_ps) {
    const double q = c_.timestamp_quantum_ps;
    const double noisy = t_ps + c_.timestamp_noise_ps * gauss_(rng_);
    return std::llround(std::floor(noisy / q) * q * 1000);
  }

  PlantConfig c_;
  std::mt19937_64 rng_;
  std::normal_distribution<double> gauss_{0.0, 1.0};
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
  std::deque<Exchange> pending_;
  double x_ps_;           // board time minus reference time, without jitter
  double jitter_ps_ = 0;  // this update's white phase noise
  double y_osc_ = 0;      // oscillator frequency error
  double t_ps_ = 1e9;     // reference time
  uint32_t dac_ = 1u << (hwdef::SYNC_DAC_BITS - 1);
  double pull_ppb_ = hwdef::SYNC_DEFAULT_DAC_PULL_PPB;
  uint32_t since_exchange_ = 0;
};

}  // namespace lightrail::sync::test
