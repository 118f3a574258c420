// The compiled part of the `lightrail` Python package (python/lightrail/
// imports it as lightrail._lightrail). docs/python.md describes the API.
#include "binding.hpp"
#include "lightrail/version.hpp"

namespace py = pybind11;

namespace lightrail::python {

py::object to_python(const nlohmann::json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

}  // namespace lightrail::python

PYBIND11_MODULE(_lightrail, m) {
  m.doc() = "lightrail driver: schedules, validation, devices and fabrics";
  // The version of the driver this extension was built with (it links it).
  const lightrail::VersionInfo& v = lightrail::version();
  m.attr("__version__") = std::string(v.version);
  m.attr("source_hash") = std::string(v.source_hash);
  m.attr("regmap_version") = v.regmap_version;
  // Errors first: the other bindings' default arguments may already throw.
  lightrail::python::bind_errors(m);
  lightrail::python::bind_schedule(m);
  lightrail::python::bind_device(m);
  lightrail::python::bind_fabric(m);
}
