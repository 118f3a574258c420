// A clock for the Verilator benches: edges at exact femtoseconds of a
// rational period (so a DDMTD helper period T*(N+1)/N is not rounded once
// per cycle and the error does not accumulate), optional white Gaussian
// jitter on every edge.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace hw_sync_test {

class ClockGen {
 public:
  // period = period_num / period_den fs; the first rising edge at offset_fs.
  ClockGen(int64_t period_num, int64_t period_den, int64_t offset_fs, double jitter_rms_fs = 0.0,
           uint64_t seed = 1)
      : num_(period_num), den_(period_den), offset_(offset_fs), jitter_(jitter_rms_fs), rng_(seed) {
    next_ = EdgeTime(0);
  }

  int64_t next_edge_fs() const { return next_; }
  bool level() const { return level_; }

  // A step of the clock's phase: every edge not yet taken comes `fs` later
  // (earlier if negative).
  void Shift(int64_t fs) {
    offset_ += fs;
    next_ = EdgeTime(edge_);
  }

  // Takes the pending edge; returns true for a rising one.
  bool Toggle() {
    level_ = !level_;
    ++edge_;
    next_ = EdgeTime(edge_);
    return level_;
  }

 private:
  // Edge k (even: rising) at offset + k * period / 2, plus jitter.
  int64_t EdgeTime(int64_t k) {
    const __int128 nominal = static_cast<__int128>(k) * num_ / (2 * den_);
    int64_t t = offset_ + static_cast<int64_t>(nominal);
    if (jitter_ > 0.0) t += static_cast<int64_t>(std::llround(noise_(rng_) * jitter_));
    return t;
  }

  int64_t num_;
  int64_t den_;
  int64_t offset_;
  double jitter_;
  std::mt19937_64 rng_;
  std::normal_distribution<double> noise_{0.0, 1.0};
  int64_t edge_ = 0;
  int64_t next_ = 0;
  bool level_ = false;
};

}  // namespace hw_sync_test
