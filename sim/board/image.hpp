// The sim's own reading of a schedule bank, made from the words the host wrote
// (not from the kernel), so the probes check the kernel against an
// independent model of what the image means.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lightrail/hwdef.hpp"

namespace lightrail::sim {

inline constexpr int kDarkPort = -1;
using PortConfig = std::array<int, hwdef::PORTS>;  // wavelength per port or kDarkPort

struct DecodedImage {
  bool valid = false;
  std::string problem;  // why not valid
  uint32_t generation = 0;
  bool cyclic = false;
  uint64_t guard_ticks = 0;
  std::vector<PortConfig> configs;
  struct Step {
    uint64_t duration_ticks;
    uint32_t config;
    bool event;
  };
  std::vector<Step> steps;
};

// `words` is one bank, MEM_BANK0_WORDS long.
DecodedImage decode_image(const std::vector<uint32_t>& words);

}  // namespace lightrail::sim
