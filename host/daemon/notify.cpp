#include "notify.hpp"

#ifdef LIGHTRAIL_HAVE_LIBSYSTEMD
#include <systemd/sd-daemon.h>
#endif

namespace lightrail::daemon {

#ifdef LIGHTRAIL_HAVE_LIBSYSTEMD

bool can_notify() { return true; }

bool notify(const std::string& state) { return sd_notify(0, state.c_str()) > 0; }

std::optional<std::chrono::microseconds> watchdog_interval() {
  uint64_t usec = 0;
  if (sd_watchdog_enabled(0, &usec) <= 0 || usec == 0) return std::nullopt;
  return std::chrono::microseconds(usec);
}

#else

bool can_notify() { return false; }
bool notify(const std::string&) { return false; }
std::optional<std::chrono::microseconds> watchdog_interval() { return std::nullopt; }

#endif

}  // namespace lightrail::daemon
