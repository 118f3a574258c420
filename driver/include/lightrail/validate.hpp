// Checking a schedule against a board before anything reaches it.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <string>
#include <vector>

#include "lightrail/capabilities.hpp"
#include "lightrail/export.hpp"
#include "lightrail/schedule.hpp"

namespace lightrail {

struct Problem {
  std::string where;    // the offending entry, e.g. "steps[12].duration_ps"
  std::string message;  // what is wrong with it, with the numbers
};

// Every problem, not just the first; empty means the schedule may be staged.
LIGHTRAIL_EXPORT std::vector<Problem> validate(const Schedule& schedule, const DeviceCapabilities& caps);

LIGHTRAIL_EXPORT std::string to_string(const std::vector<Problem>& problems);  // one per line

}  // namespace lightrail
