// FNV-1a (64-bit), for the board's output digest: one dependent xor and
// multiply per byte. With a dozen output changes a cycle that chain's
// latency was a quarter of a board's time; a zero byte only multiplies by
// the prime, so a run of k bytes known to be zero is one multiply by the
// prime's k-th power: the same hash with fewer steps in the chain.
#pragma once

#include <cstdint>

namespace lightrail::sim::fnv1a {

constexpr uint64_t kOffset = 1469598103934665603ull;
constexpr uint64_t kPrime = 1099511628211ull;
constexpr uint64_t prime_pow(unsigned k) { return k == 0 ? 1 : kPrime * prime_pow(k - 1); }

// The low `Bytes` bytes of v, least significant first.
template <unsigned Bytes>
inline uint64_t bytes(uint64_t h, uint64_t v) {
  for (unsigned i = 0; i < Bytes; ++i) h = (h ^ ((v >> (8 * i)) & 0xFF)) * kPrime;
  return h;
}
// `Zeros` zero bytes.
template <unsigned Zeros>
inline uint64_t zeros(uint64_t h) {
  return h * prime_pow(Zeros);
}
// All 8 bytes of v, least significant first: the same as bytes<8>.
inline uint64_t word(uint64_t h, uint64_t v) {
  if (v >> 32) return bytes<8>(h, v);
  if (v >> 24) return zeros<4>(bytes<4>(h, v));
  return zeros<5>(bytes<3>(h, v));
}

}  // namespace lightrail::sim::fnv1a
