// What a Python lightrail.Device holds: the driver's Device, closable, and
// the mutex that lets one Python thread at a time use its connection.
#pragma once

#include <mutex>
#include <optional>

#include "lightrail/device.hpp"

namespace lightrail::python {

struct DeviceHandle {
  std::optional<Device> device;  // empty once closed
  std::mutex mutex;
  Device& get();  // Error "the device is closed" when empty
};

}  // namespace lightrail::python
