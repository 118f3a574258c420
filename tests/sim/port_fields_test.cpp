// The board glue's bit tricks (sim/port_fields.hpp, sim/fnv1a.hpp) against
// the plain definitions they replace: every co-simulated cycle goes through
// them, and a wrong bit would change what the top sees or the digest runs
// are compared by.
#include "port_fields.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>

#include "fnv1a.hpp"

namespace lightrail::sim {
namespace {

using Words = std::array<uint32_t, 3>;

// Field p at bits [p * width, p * width + width), bit by bit.
template <unsigned Width>
Words pack_plain(uint32_t ports, const uint8_t* field) {
  Words w{};
  for (unsigned p = 0; p < 16; ++p) {
    if (!(ports >> p & 1)) continue;
    for (unsigned b = 0; b < Width; ++b)
      if (field[p] >> b & 1) w[(p * Width + b) / 32] |= 1u << ((p * Width + b) % 32);
  }
  return w;
}

template <unsigned Width>
void check_fields(std::mt19937& rng) {
  std::array<uint8_t, 16> field;
  for (auto& f : field) f = uint8_t(rng());  // bits above Width must be dropped
  const uint32_t ports = rng() & 0xFFFF;
  Words w{0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF};  // every word is overwritten
  pack_ports<Width>(w, ports, field.data());
  ASSERT_EQ(w, pack_plain<Width>(ports, field.data())) << "ports " << ports;
  std::array<uint8_t, 16> back;
  unpack_ports<Width>(w, back.data());
  for (unsigned p = 0; p < 16; ++p)
    EXPECT_EQ(back[p], (ports >> p & 1) ? field[p] & ((1u << Width) - 1) : 0) << "port " << p;
}

TEST(PortFields, PackAndUnpackMatchTheBitByBitLayout) {
  std::mt19937 rng(11);
  for (int i = 0; i < 20000; ++i) {
    check_fields<5>(rng);  // fine ticks
    check_fields<6>(rng);  // wavelengths
  }
}

TEST(PortFields, UnpackIgnoresBitsAboveTheFields) {
  Words w{0, 0, 0xFFFF0000u};  // 80 bits of 5-bit fields: the top 16 are not a port's
  std::array<uint8_t, 16> f;
  unpack_ports<5>(w, f.data());
  for (uint8_t v : f) EXPECT_EQ(v, 0);
}

uint64_t fnv_plain(uint64_t h, uint64_t v) {
  for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xFF)) * fnv1a::kPrime;
  return h;
}

TEST(Fnv1a, SkippedZeroBytesGiveThePlainHash) {
  std::mt19937_64 rng(3);
  uint64_t plain = fnv1a::kOffset, fast = fnv1a::kOffset;
  for (int i = 0; i < 100000; ++i) {
    // Words of every length, as ticks grow: below 2^24, 2^32 and above.
    const uint64_t v = rng() >> (rng() % 64);
    plain = fnv_plain(plain, v);
    fast = fnv1a::word(fast, v);
    const uint64_t small = rng() & 0xFFFFFFFFFFull;  // 5 bytes, 3 zero bytes
    plain = fnv_plain(plain, small);
    fast = fnv1a::zeros<3>(fnv1a::bytes<5>(fast, small));
    ASSERT_EQ(plain, fast) << "after " << i;
  }
  EXPECT_EQ(fnv1a::word(fnv1a::kOffset, 0), fnv_plain(fnv1a::kOffset, 0));
}

}  // namespace
}  // namespace lightrail::sim
