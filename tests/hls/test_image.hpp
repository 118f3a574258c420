// A minimal schedule-image writer for the sequencer tests (the driver's real
// builder lives in driver/; this one only knows what the tests need).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "lightrail/hwdef.hpp"

namespace lightrail {
namespace seq {
namespace test {

constexpr int kDarkPort = -1;
using PortWavelengths = std::array<int, hwdef::PORTS>;  // wavelength or kDarkPort

struct TestStep {
  uint64_t duration_ticks = 0;
  uint32_t config = 0;
  bool event = false;
};

struct TestImage {
  std::vector<PortWavelengths> configs;
  std::vector<TestStep> steps;
  bool cyclic = true;
  uint32_t guard_ticks = 0;
  uint32_t generation = 1;
};

// A configuration with every port dark except those given as {port, wavelength}.
PortWavelengths ports(std::initializer_list<std::pair<int, int>> lit);

// The whole bank (MEM_BANK0_WORDS words), CRC sealed.
std::vector<uint32_t> build_image(const TestImage& image);

// Recomputes the header CRC after a test edited the words on purpose.
void seal(std::vector<uint32_t>& words);

}  // namespace test
}  // namespace seq
}  // namespace lightrail
