// Small schedules the driver tests share.
#pragma once

#include "lightrail/capabilities.hpp"
#include "lightrail/schedule.hpp"

namespace lightrail::test {

// Every port on one wavelength (an AWGR shift).
inline Configuration uniform(const std::string& name, int wavelength, uint32_t ports = 16) {
  return {name, std::vector<int>(ports, wavelength)};
}

// Two shifts alternating, 1 us each, guard 500 ps: valid on the reference board.
inline Schedule two_shifts() {
  Schedule s;
  s.generation = 7;
  s.guard_ps = 500;
  s.configs = {uniform("shift1", 1), uniform("shift2", 2)};
  s.steps = {{0, 1'000'000, false}, {1, 1'000'000, false}};
  return s;
}

}  // namespace lightrail::test
