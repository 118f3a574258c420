// A 16-bit mask of the ports whose 32-bit word is non-zero (bit p: port p),
// four ports per SSE2 compare and one movemask: the compiler's own loop
// tested and branched port by port, on branches no predictor learns (which
// ports have an edge changes every cycle). Without SSE2, the plain loop.
#pragma once

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lightrail::sim {

inline uint32_t nonzero_ports16(const uint32_t* w) {
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i a = _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w)), zero);
  const __m128i b = _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 4)), zero);
  const __m128i c = _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 8)), zero);
  const __m128i d = _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 12)), zero);
  // Lanes of all ones (zero words) narrowed to bytes in port order.
  const __m128i bytes = _mm_packs_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d));
  return ~uint32_t(_mm_movemask_epi8(bytes)) & 0xFFFFu;
#else
  uint32_t m = 0;
  for (unsigned p = 0; p < 16; ++p) m |= uint32_t(w[p] != 0) << p;
  return m;
#endif
}

}  // namespace lightrail::sim
