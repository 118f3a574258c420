// Per-port fields of the verilated top's wide ports (VlWide word arrays):
// one field of `Width` bits per port, port p at bit p * Width, 16 ports in
// three 32-bit words. Eight ports at a time travel as one byte each in a
// 64-bit word, closed up (or spread out) pairwise, by fours and by eights:
// no per-port shifts and no branches (a 128-bit shift per port cost more
// than the rest of the board's glue). `Words` is anything indexed like
// VlWide<3>.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

namespace lightrail::sim {

namespace port_fields {
constexpr unsigned kPorts = 16;
constexpr unsigned kWords = 3;
constexpr uint64_t lane_mask(unsigned lane, unsigned bits) {  // `bits` low bits of every `lane`-bit lane
  uint64_t m = 0;
  for (unsigned at = 0; at < 64; at += lane) m |= ((uint64_t{1} << bits) - 1) << at;
  return m;
}
template <unsigned Width>
constexpr uint64_t close_up(uint64_t x) {  // 8 fields, one per byte, to 8 * Width bits
  x = (x & lane_mask(16, Width)) | ((x & (lane_mask(16, Width) << 8)) >> (8 - Width));
  x = (x & lane_mask(32, 2 * Width)) | ((x & (lane_mask(32, 2 * Width) << 16)) >> (16 - 2 * Width));
  return (x & lane_mask(64, 4 * Width)) | ((x & (lane_mask(64, 4 * Width) << 32)) >> (32 - 4 * Width));
}
template <unsigned Width>
constexpr uint64_t spread(uint64_t x) {  // the inverse: 8 * Width bits to 8 fields, one per byte
  x = (x & lane_mask(64, 4 * Width)) | ((x & (lane_mask(64, 4 * Width) << 4 * Width)) << (32 - 4 * Width));
  x = (x & lane_mask(32, 2 * Width)) | ((x & (lane_mask(32, 2 * Width) << 2 * Width)) << (16 - 2 * Width));
  return (x & lane_mask(16, Width)) | ((x & (lane_mask(16, Width) << Width)) << (8 - Width));
}
// 0xFF in byte i where bit i of the index is set.
constexpr std::array<uint64_t, 256> kByteMasks = [] {
  std::array<uint64_t, 256> t{};
  for (unsigned i = 0; i < 256; ++i)
    for (unsigned b = 0; b < 8; ++b)
      if (i >> b & 1) t[i] |= uint64_t{0xFF} << (8 * b);
  return t;
}();
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "field bytes are moved as little-endian words");
}  // namespace port_fields

// Writes every word: field[p] (its low Width bits) for the ports in `ports`,
// 0 for the others.
template <unsigned Width, class Words>
void pack_ports(Words& w, uint32_t ports, const uint8_t* field) {
  using namespace port_fields;
  static_assert(Width > 4 && Width <= 6, "16 fields fill 65..96 bits: three words");
  uint64_t lo, hi;
  std::memcpy(&lo, field, 8);
  std::memcpy(&hi, field + 8, 8);
  lo = close_up<Width>(lo & kByteMasks[ports & 0xFF] & lane_mask(8, Width));
  hi = close_up<Width>(hi & kByteMasks[ports >> 8 & 0xFF] & lane_mask(8, Width));
  w[0] = uint32_t(lo);
  w[1] = uint32_t(lo >> 32 | hi << (8 * Width - 32));
  w[2] = uint32_t(hi >> (64 - 8 * Width));
}

// Every port's field (the inverse of pack_ports; bits above 16 * Width ignored).
template <unsigned Width, class Words>
void unpack_ports(const Words& w, uint8_t* field) {
  using namespace port_fields;
  static_assert(Width > 4 && Width <= 6, "16 fields fill 65..96 bits: three words");
  constexpr uint64_t kBits = (uint64_t{1} << (8 * Width)) - 1;
  const uint64_t w0 = w[0], w1 = w[1], w2 = w[2];
  const uint64_t lo = (w0 | w1 << 32) & kBits;
  const uint64_t hi = (w1 >> (8 * Width - 32) | w2 << (64 - 8 * Width)) & kBits;
  const uint64_t a = spread<Width>(lo), b = spread<Width>(hi);
  std::memcpy(field, &a, 8);
  std::memcpy(field + 8, &b, 8);
}

}  // namespace lightrail::sim
