#include "lightrail/capabilities.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "lightrail/hwdef.hpp"

namespace lightrail {

std::string BuildId::source_hash_hex() const { return fmt::format("{:016x}", source_hash); }

int64_t DeviceCapabilities::tune_ps(int from, int to) const {
  const size_t index = static_cast<size_t>(from) * wavelengths + static_cast<size_t>(to);
  if (from < 0 || to < 0 || static_cast<uint32_t>(from) >= wavelengths ||
      static_cast<uint32_t>(to) >= wavelengths || index >= tune_ticks.size()) {
    return 0;  // validate() reports out-of-range wavelengths itself
  }
  return int64_t{tune_ticks[index]} * tick_ps();
}

int64_t DeviceCapabilities::max_tune_to_ps(int to) const {
  int64_t worst = 0;
  for (uint32_t from = 0; from < wavelengths; ++from) {
    worst = std::max(worst, tune_ps(static_cast<int>(from), to));
  }
  return worst;
}

DeviceCapabilities DeviceCapabilities::reference() {
  DeviceCapabilities caps;
  caps.ports = hwdef::PORTS;
  caps.wavelengths = hwdef::WAVELENGTHS;
  caps.max_steps = hwdef::MAX_STEPS;
  caps.max_configs = hwdef::MAX_CONFIGS;
  caps.fine_steps = hwdef::FINE_STEPS;
  caps.clk_period_ps = hwdef::CLK_PERIOD_PS;
  caps.min_step_cycles = hwdef::MIN_STEP_CYCLES;
  caps.tune_ticks = reference_tune_ticks(caps.wavelengths, caps.tick_ps());
  caps.build.regmap_version = hwdef::REGMAP_VERSION;  // hash and time: no image, unknown
  return caps;
}

std::vector<uint16_t> reference_tune_ticks(uint32_t wavelengths, int64_t tick_ps) {
  constexpr int64_t kBasePs = 300;
  constexpr int64_t kPerChannelPs = 9;
  std::vector<uint16_t> table(static_cast<size_t>(wavelengths) * wavelengths, 0);
  for (uint32_t a = 0; a < wavelengths; ++a) {
    for (uint32_t b = 0; b < wavelengths; ++b) {
      if (a == b) continue;
      const int64_t ps = kBasePs + kPerChannelPs * std::llabs(int64_t{a} - int64_t{b});
      table[size_t{a} * wavelengths + b] = static_cast<uint16_t>((ps + tick_ps - 1) / tick_ps);
    }
  }
  return table;
}

}  // namespace lightrail
