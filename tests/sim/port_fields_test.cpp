// The board glue's bit tricks (sim/port_fields.hpp) against the plain
// definitions they replace, and the output digest (sim/output_digest.hpp):
// every co-simulated cycle goes through them, and a wrong bit would change
// what the top sees or hide a difference the digest compares runs by.
#include "board/port_fields.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>

#include "board/output_digest.hpp"

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

// Two runs differ in one change, in any field: the digests differ.
TEST(OutputDigest, EveryBitOfTickAndChangeCounts) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t tick = rng() >> 20, what = rng();
    const uint64_t base = digest::term(tick, what);
    for (int b = 0; b < 64; ++b) {
      ASSERT_NE(digest::term(tick, what ^ (uint64_t{1} << b)), base) << "change bit " << b;
      if (b < 44) {
        ASSERT_NE(digest::term(tick ^ (uint64_t{1} << b), what), base) << "tick bit " << b;
      }
    }
  }
}

// A sum forgets order; the tick in each term keeps it: the same changes at
// swapped times are another run.
TEST(OutputDigest, SwappedTimesAreAnotherRun) {
  const uint64_t a = 5 | uint64_t{0xF0F0} << 8, b = 5 | uint64_t{0x0F0F} << 8;
  EXPECT_NE(digest::term(100, a) + digest::term(104, b), digest::term(100, b) + digest::term(104, a));
  EXPECT_NE(digest::term(100, a) + digest::term(100, a), uint64_t{0});
}

}  // namespace
}  // namespace lightrail::sim
