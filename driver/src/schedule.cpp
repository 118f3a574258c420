#include "lightrail/schedule.hpp"

#include "lightrail/errors.hpp"

namespace lightrail {

int64_t Schedule::period_ps() const {
  int64_t total = 0;
  for (const Step& step : steps) {
    // validate() reports this as a problem; here there is no right answer.
    if (__builtin_add_overflow(total, step.duration_ps, &total)) {
      throw Error("schedule period overflows int64 picoseconds");
    }
  }
  return total;
}

}  // namespace lightrail
