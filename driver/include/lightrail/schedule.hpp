// A switching schedule as host programs build it: configurations (per port a
// wavelength or dark) and a program of steps. Times are picoseconds of the
// fabric's synchronised time, plain int64_t named *_ps: the schedule is a
// record of the schedule file, field for field (docs/driver.md, "Times").
// Thread safety: a value type; distinct objects may be used from any
// thread, and one may be read from several threads at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lightrail/export.hpp"

namespace lightrail {

// Wavelength value of a port that is dark (transmit gate held low).
inline constexpr int kDark = -1;

struct Configuration {
  std::string name;             // optional label, for messages
  std::vector<int> wavelength;  // one entry per port: 0..W-1 or kDark
};

struct Step {
  uint32_t config = 0;      // index into Schedule::configs
  int64_t duration_ps = 0;  // time-triggered: exact; event-triggered: minimum
  bool event_triggered = false;
};

struct LIGHTRAIL_EXPORT Schedule {
  static constexpr int kFormatVersion = 1;
  uint32_t generation = 0;  // host-chosen; reported back by the board
  bool cyclic = true;       // repeat the program; one-shot ends dark
  int64_t guard_ps = 0;     // gate stays low this long after each switch
  // Synchronised time to take over; empty: at the running schedule's next
  // epoch boundary (at once when the board is idle).
  std::optional<int64_t> activation_ps;
  std::vector<Configuration> configs;
  std::vector<Step> steps;

  int64_t period_ps() const;  // sum of step durations (one epoch)
};

}  // namespace lightrail
