// The service manager's notifications (systemd's sd_notify protocol, from
// Debian's libsystemd): READY=1 once serving, WATCHDOG=1 pings while the
// worker is alive, RELOADING=1 and STOPPING=1 (docs/lightraild.md,
// "systemd"). Built without libsystemd, every call does nothing.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace lightrail::daemon {

// Whether this build can notify (linked with libsystemd).
bool can_notify();

// Sends `state` ("READY=1", "STATUS=...") to $NOTIFY_SOCKET; false when
// there is none (not started by a service manager) or the build cannot.
bool notify(const std::string& state);

// The watchdog interval the service manager asked for ($WATCHDOG_USEC, for
// this process), nullopt when none.
std::optional<std::chrono::microseconds> watchdog_interval();

}  // namespace lightrail::daemon
