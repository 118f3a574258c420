// A small seeded random source for the clock models. Hand-written (SplitMix64
// state step + Box-Muller) rather than std::normal_distribution so that a seed
// gives the same noise on every standard library, and so that a draw costs a
// few multiplications: the oscillator asks for one per simulated clock edge.
#pragma once

#include <cmath>
#include <cstdint>

namespace lightrail::sim::clock {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  // Uniform 64-bit word (SplitMix64: passes BigCrush, one add and two multiplies).
  uint64_t next_u64() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in (0, 1]: never 0, so log() below is finite.
  double uniform() { return (static_cast<double>(next_u64() >> 11) + 1.0) * (1.0 / 9007199254740992.0); }

  // Standard normal. Box-Muller yields two values per pair of uniforms; the
  // second is kept for the next call.
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double r = std::sqrt(-2.0 * std::log(uniform()));
    const double theta = 6.283185307179586 * uniform();
    spare_ = r * std::sin(theta);
    has_spare_ = true;
    return r * std::cos(theta);
  }

 private:
  uint64_t state_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace lightrail::sim::clock
