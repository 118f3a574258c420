// The board's output digest: a sum over every change at its outputs of a
// 64-bit hash of (tick, what changed). Each change is hashed on its own, so
// the changes of one cycle hash side by side instead of in one chain of
// multiplies (a byte-wise FNV-1a chain was 12-17% of a board's time); the
// tick in every term keeps the order that a sum would otherwise lose. The
// tick is mixed once per cycle (splitmix64's finaliser, two multiplies);
// each change then costs one 64x64->128-bit multiply of (mixed tick ^
// change) by a fixed odd constant, its halves folded: the finaliser per
// change took twice the multiplies, a dozen changes a cycle.
#pragma once

#include <cstdint>

namespace lightrail::sim::digest {

// splitmix64's finaliser: every input bit reaches every output bit.
inline uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// One change: at `tick`, `what` (its kind, port and value packed into 64
// bits by the caller). The changes of one cycle share their tick, so
// at(tick) is computed once for all of them.
inline uint64_t at(uint64_t tick) { return mix(tick); }
inline uint64_t term_at(uint64_t at_tick, uint64_t what) {
  const unsigned __int128 x = static_cast<unsigned __int128>(at_tick ^ what) * 0x9e3779b97f4a7c15ull;
  return uint64_t(x) ^ uint64_t(x >> 64);
}
inline uint64_t term(uint64_t tick, uint64_t what) { return term_at(at(tick), what); }

}  // namespace lightrail::sim::digest
