// The pieces of the `lightrail` Python extension (python/binding/), one file
// each, registered on the module by module.cpp.
#pragma once

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

namespace lightrail::python {

void bind_errors(pybind11::module_& m);    // errors.cpp: lightrail.Error and its subclasses
void bind_schedule(pybind11::module_& m);  // schedule.cpp: Schedule, validate, capabilities
void bind_device(pybind11::module_& m);    // device.cpp: Device, Status, sync
void bind_fabric(pybind11::module_& m);    // fabric.cpp: FabricSpec, Fabric

// A JSON value as the Python value json.loads would give.
pybind11::object to_python(const nlohmann::json& j);

}  // namespace lightrail::python
