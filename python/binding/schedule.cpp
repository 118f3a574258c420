// Schedules as host programs build them (lightrail/schedule.hpp), the
// schedule file format (schedule_json.hpp), the checks against a board
// (validate.hpp) and what a board can do (capabilities.hpp).
#include "lightrail/schedule.hpp"

#include <pybind11/stl.h>
#include <pybind11/stl_bind.h>

#include <fstream>
#include <string>
#include <vector>

#include "binding.hpp"
#include "lightrail/capabilities.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/schedule_json.hpp"
#include "lightrail/schedule_json_value.hpp"
#include "lightrail/validate.hpp"

namespace py = pybind11;

// Schedule.configs and Schedule.steps are the Schedule's own lists, so that
// schedule.steps.append(...) changes the schedule (a converted list would be
// a copy and the append would be lost).
PYBIND11_MAKE_OPAQUE(std::vector<lightrail::Configuration>)
PYBIND11_MAKE_OPAQUE(std::vector<lightrail::Step>)

namespace lightrail::python {
namespace {

std::string repr(const Step& s) {
  return "Step(config=" + std::to_string(s.config) + ", duration_ps=" + std::to_string(s.duration_ps) +
         ", event_triggered=" + (s.event_triggered ? "True" : "False") + ")";
}

void save_schedule_file(const Schedule& schedule, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(path + ": cannot open for writing");
  out << to_json(schedule).dump(2) << "\n";
  out.close();
  if (!out) throw Error(path + ": write failed");
}

}  // namespace

void bind_schedule(py::module_& m) {
  m.attr("DARK") = kDark;

  py::class_<Problem>(m, "Problem", "One problem of an input: the offending entry and what is wrong with it.")
      .def(py::init<std::string, std::string>(), py::arg("where"), py::arg("message"))
      .def_readonly("where", &Problem::where, "The offending entry, e.g. 'steps[12].duration_ps'.")
      .def_readonly("message", &Problem::message, "What is wrong with it, with the numbers.")
      .def("__str__", [](const Problem& p) { return p.where + ": " + p.message; })
      .def("__repr__", [](const Problem& p) {
        return "Problem(where=" + py::repr(py::str(p.where)).cast<std::string>() +
               ", message=" + py::repr(py::str(p.message)).cast<std::string>() + ")";
      });

  py::class_<DeviceCapabilities>(m, "DeviceCapabilities", "What a board can do (its capability block).")
      .def_static("reference", &DeviceCapabilities::reference,
                  "The reference board with the reference tune table.")
      .def_readonly("ports", &DeviceCapabilities::ports)
      .def_readonly("wavelengths", &DeviceCapabilities::wavelengths)
      .def_readonly("max_steps", &DeviceCapabilities::max_steps)
      .def_readonly("max_configs", &DeviceCapabilities::max_configs)
      .def_readonly("fine_steps", &DeviceCapabilities::fine_steps)
      .def_readonly("clk_period_ps", &DeviceCapabilities::clk_period_ps)
      .def_readonly("min_step_cycles", &DeviceCapabilities::min_step_cycles)
      .def_readonly("tune_ticks", &DeviceCapabilities::tune_ticks)
      .def_property_readonly("tick_ps", &DeviceCapabilities::tick_ps)
      .def_property_readonly("min_step_ps", &DeviceCapabilities::min_step_ps)
      .def("tune_ps", &DeviceCapabilities::tune_ps, py::arg("from_wavelength"), py::arg("to_wavelength"),
           "Settling time from one wavelength to another.")
      .def("max_tune_to_ps", &DeviceCapabilities::max_tune_to_ps, py::arg("to_wavelength"));

  py::class_<Configuration>(m, "Configuration", "Per port a wavelength (0..W-1) or DARK.")
      .def(py::init([](std::vector<int> wavelength, std::string name) {
             return Configuration{std::move(name), std::move(wavelength)};
           }),
           py::arg("wavelength") = std::vector<int>{}, py::arg("name") = "")
      .def_readwrite("name", &Configuration::name)
      // A copy: assign a whole list (config.wavelength = [...]).
      .def_readwrite("wavelength", &Configuration::wavelength)
      .def("__repr__", [](const Configuration& c) {
        return "Configuration(wavelength=" + py::repr(py::cast(c.wavelength)).cast<std::string>() +
               ", name=" + py::repr(py::str(c.name)).cast<std::string>() + ")";
      });

  py::class_<Step>(m, "Step", "One step of the program: a configuration for a duration.")
      .def(py::init([](uint32_t config, int64_t duration_ps, bool event_triggered) {
             return Step{config, duration_ps, event_triggered};
           }),
           py::arg("config") = 0, py::arg("duration_ps") = 0, py::arg("event_triggered") = false)
      .def_readwrite("config", &Step::config, "Index into Schedule.configs.")
      .def_readwrite("duration_ps", &Step::duration_ps, "Time-triggered: exact; event-triggered: minimum.")
      .def_readwrite("event_triggered", &Step::event_triggered)
      .def("__repr__", &repr);

  py::bind_vector<std::vector<Configuration>>(m, "ConfigurationList");
  py::bind_vector<std::vector<Step>>(m, "StepList");
  py::implicitly_convertible<py::list, std::vector<Configuration>>();
  py::implicitly_convertible<py::list, std::vector<Step>>();

  py::class_<Schedule>(m, "Schedule", "Configurations and a program of steps, times in picoseconds.")
      .def(py::init([](std::vector<Configuration> configs, std::vector<Step> steps, uint32_t generation,
                       bool cyclic, int64_t guard_ps, std::optional<int64_t> activation_ps) {
             Schedule s;
             s.configs = std::move(configs);
             s.steps = std::move(steps);
             s.generation = generation;
             s.cyclic = cyclic;
             s.guard_ps = guard_ps;
             s.activation_ps = activation_ps;
             return s;
           }),
           py::arg("configs") = std::vector<Configuration>{}, py::arg("steps") = std::vector<Step>{},
           py::arg("generation") = 0, py::arg("cyclic") = true, py::arg("guard_ps") = 0,
           py::arg("activation_ps") = std::nullopt)
      .def_readwrite("generation", &Schedule::generation)
      .def_readwrite("cyclic", &Schedule::cyclic)
      .def_readwrite("guard_ps", &Schedule::guard_ps)
      .def_readwrite("activation_ps", &Schedule::activation_ps,
                     "Synchronised time to take over; None: the running schedule's next epoch boundary.")
      .def_readwrite("configs", &Schedule::configs)
      .def_readwrite("steps", &Schedule::steps)
      .def_property_readonly("period_ps", &Schedule::period_ps, "Sum of the step durations (one epoch).")
      .def(
          "add_config",
          [](Schedule& s, std::vector<int> wavelength, std::string name) {
            s.configs.push_back(Configuration{std::move(name), std::move(wavelength)});
            return s.configs.size() - 1;
          },
          py::arg("wavelength"), py::arg("name") = "", "Appends a configuration; returns its index.")
      .def(
          "add_step",
          [](Schedule& s, uint32_t config, int64_t duration_ps, bool event_triggered) {
            s.steps.push_back(Step{config, duration_ps, event_triggered});
            return s.steps.size() - 1;
          },
          py::arg("config"), py::arg("duration_ps"), py::arg("event_triggered") = false,
          "Appends a step; returns its index.")
      .def_static("load", &load_schedule_file, py::arg("path"),
                  "Reads a schedule file (FormatError naming every bad field).")
      .def_static("from_json", &parse_schedule, py::arg("text"), "Parses a schedule document.")
      .def(
          "to_json", [](const Schedule& s) { return to_json(s).dump(2); },
          "The schedule document that from_json reads back to this schedule.")
      .def("save", &save_schedule_file, py::arg("path"), "Writes the schedule document to a file.")
      .def("__eq__", [](const Schedule& a, const Schedule& b) { return to_json(a) == to_json(b); })
      .def("__repr__", [](const Schedule& s) {
        return "Schedule(generation=" + std::to_string(s.generation) + ", " +
               std::to_string(s.configs.size()) + " configs, " + std::to_string(s.steps.size()) + " steps)";
      });

  m.def(
      "validate",
      [](const Schedule& s, const std::optional<DeviceCapabilities>& caps) {
        return validate(s, caps ? *caps : DeviceCapabilities::reference());
      },
      py::arg("schedule"), py::arg("capabilities") = std::nullopt,
      "Every problem of the schedule against a board (the reference board by default); empty: it may be "
      "staged.");
}

}  // namespace lightrail::python
