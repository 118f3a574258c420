// What a board can do, read from its capability block and tune table.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lightrail/export.hpp"

namespace lightrail {

// Which build of the board's image answers (CAP_BUILD_*, CAP_VERSION): the
// first 64 bits of its source commit, its build time (s since the epoch;
// SOURCE_DATE_EPOCH or the commit's time) and its register-map version.
// 0 for hash or time: the image does not know (built outside git).
struct LIGHTRAIL_EXPORT BuildId {
  uint64_t source_hash = 0;
  uint32_t build_time = 0;
  uint32_t regmap_version = 0;

  std::string source_hash_hex() const;  // 16 lower-case hex digits
  bool operator==(const BuildId& o) const {
    return source_hash == o.source_hash && build_time == o.build_time && regmap_version == o.regmap_version;
  }
  bool operator!=(const BuildId& o) const { return !(*this == o); }
};

struct LIGHTRAIL_EXPORT DeviceCapabilities {
  uint32_t ports = 0;
  uint32_t wavelengths = 0;
  uint32_t max_steps = 0;
  uint32_t max_configs = 0;
  uint32_t fine_steps = 0;  // fine edge positions per clock cycle
  int64_t clk_period_ps = 0;
  uint32_t min_step_cycles = 0;
  std::vector<uint16_t> tune_ticks;  // tune(a,b) at a*wavelengths+b, in ticks
  BuildId build;

  int64_t tick_ps() const { return clk_period_ps / fine_steps; }
  int64_t min_step_ps() const { return clk_period_ps * min_step_cycles; }
  int64_t tune_ps(int from, int to) const;  // settling time from a to b
  int64_t max_tune_to_ps(int to) const;     // worst case over every a (from dark)

  // The reference board of hwdef.hpp with the reference tune table
  // (reference_tune_ticks()).
  static DeviceCapabilities reference();
};

// Reference laser calibration (a model, documented in docs/schedule.md):
// tune(a,a)=0, else 300 ps + 9 ps per channel of distance, rounded up to
// ticks (at most 867 ps before rounding: Sirius tunes in under 912 ps).
LIGHTRAIL_EXPORT std::vector<uint16_t> reference_tune_ticks(uint32_t wavelengths, int64_t tick_ps);

}  // namespace lightrail
