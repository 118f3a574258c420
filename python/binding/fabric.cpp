// Many boards that switch as one (lightrail/fabric.hpp): the fabric file,
// validating a set of schedules together, the all-or-nothing commit at one
// synchronised time and the fabric-wide trigger. Boards are named as in the
// fabric file. The reports are the dicts of the C++ reports' to_json(), the
// same the CLI's `fabric ... --json` prints. The GIL is released during
// every call that talks to boards; one thread at a time uses a Fabric.
#include "lightrail/fabric.hpp"

#include <pybind11/stl.h>

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "binding.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/fabric_json.hpp"
#include "lightrail/json_text.hpp"

namespace py = pybind11;

namespace lightrail::python {
namespace {

struct FabricHandle {
  std::optional<Fabric> fabric;
  std::mutex mutex;
};

// The index of each named board; FormatError naming `what` and the board
// when the fabric has no such board.
std::vector<size_t> board_indices(const FabricSpec& spec, const std::vector<std::string>& names,
                                  const std::string& what) {
  std::vector<size_t> out;
  for (const std::string& name : names) {
    const auto i = spec.board_index(name);
    if (!i) {
      std::string known;
      for (const FabricBoard& b : spec.boards) known += (known.empty() ? "" : ", ") + b.name;
      throw FormatError(what + "[\"" + name + "\"]: no board of that name in fabric '" + spec.name +
                        "' (it has: " + known + ")");
    }
    out.push_back(*i);
  }
  return out;
}

std::vector<BoardAssignment> assignments(const FabricSpec& spec,
                                         const std::map<std::string, Schedule>& schedules) {
  std::vector<std::string> names;
  for (const auto& [name, s] : schedules) names.push_back(name);
  const std::vector<size_t> index = board_indices(spec, names, "schedules");
  std::vector<BoardAssignment> out;
  size_t k = 0;
  for (const auto& [name, s] : schedules) out.push_back(BoardAssignment{index[k++], s});
  return out;
}

}  // namespace

void bind_fabric(py::module_& m) {
  py::class_<FabricBoard>(m, "FabricBoard", "A board of a fabric file.")
      .def_readonly("name", &FabricBoard::name)
      .def_readonly("uri", &FabricBoard::uri)
      .def_readonly("rail", &FabricBoard::rail)
      .def_readonly("switch_ports", &FabricBoard::switch_ports,
                    "Switch port each board port feeds; DARK: not cabled.")
      .def_property_readonly(
          "stage",
          [](const FabricBoard& b) -> std::optional<std::string> {
            if (b.stage == ClosStage::kNone) return std::nullopt;
            return std::string(to_string(b.stage));
          },
          "On a Clos rail: \"ingress\", \"middle\" or \"egress\"; None on a rail of one switch.")
      .def_readonly("stage_index", &FabricBoard::stage_index, "On a Clos rail: the switch within its stage.");

  py::class_<FabricSpec>(m, "FabricSpec", "A fabric file: rails, boards and margins.")
      .def_static("load", &read_fabric_file, py::arg("path"),
                  "Reads a fabric file (FormatError naming every bad field).")
      .def_static(
          "from_json",
          [](const std::string& text) { return fabric_from_json(parse_json_text(text, "fabric")); },
          py::arg("text"))
      .def("to_json", [](const FabricSpec& s) { return to_json(s).dump(2); })
      .def_readonly("name", &FabricSpec::name)
      .def_readonly("boards", &FabricSpec::boards)
      // Python keeps times as int picoseconds (docs/python.md).
      .def_property(
          "commit_margin_ps", [](const FabricSpec& s) { return to_ps(s.commit_margin); },
          [](FabricSpec& s, int64_t ps) { s.commit_margin = picoseconds(ps); })
      .def_property(
          "trigger_margin_ps", [](const FabricSpec& s) { return to_ps(s.trigger_margin); },
          [](FabricSpec& s, int64_t ps) { s.trigger_margin = picoseconds(ps); })
      .def("board_index", &FabricSpec::board_index, py::arg("name"),
           "Index of the named board, None if none.");

  py::class_<FabricBoardState>(m, "FabricBoardState", "One board as Fabric.status() found it.")
      .def_readonly("name", &FabricBoardState::name)
      .def_readonly("reachable", &FabricBoardState::reachable)
      .def_readonly("error", &FabricBoardState::error, "Why it is not reachable.")
      .def_readonly("status", &FabricBoardState::status)
      .def_readonly("sync", &FabricBoardState::sync)
      .def_readonly("lease", &FabricBoardState::lease);

  py::class_<FabricHandle, std::shared_ptr<FabricHandle>>(m, "Fabric", "The open boards of a fabric.")
      .def_static(
          "open",
          [](FabricSpec spec) {
            auto handle = std::make_shared<FabricHandle>();
            py::gil_scoped_release no_gil;
            handle->fabric.emplace(Fabric::open(std::move(spec)));
            return handle;
          },
          py::arg("spec"), "Opens every board; an unreachable board is reported, not raised.")
      .def_property_readonly("spec", [](FabricHandle& f) { return f.fabric->spec(); })
      .def_property_readonly("board_names",
                             [](FabricHandle& f) {
                               std::vector<std::string> names;
                               for (const FabricBoard& b : f.fabric->spec().boards) names.push_back(b.name);
                               return names;
                             })
      .def("__len__", [](FabricHandle& f) { return f.fabric->size(); })
      .def(
          "set_lease_token",
          [](FabricHandle& f, uint32_t token) {
            py::gil_scoped_release no_gil;
            std::lock_guard<std::mutex> lock(f.mutex);
            f.fabric->set_lease_token(token);
          },
          py::arg("token"), "The same lease token on every board.")
      .def(
          "validate",
          [](FabricHandle& f, const std::map<std::string, Schedule>& schedules) {
            py::gil_scoped_release no_gil;
            std::lock_guard<std::mutex> lock(f.mutex);
            return f.fabric->validate(assignments(f.fabric->spec(), schedules));
          },
          py::arg("schedules"), "Every problem of {board name: schedule} taken together.")
      .def(
          "commit",
          [](FabricHandle& f, const std::map<std::string, Schedule>& schedules, bool allow_unlocked,
             bool wait_for_swap, int swap_timeout_ms, std::optional<int64_t> at_ps) {
            FabricCommitReport report;
            {
              py::gil_scoped_release no_gil;
              std::lock_guard<std::mutex> lock(f.mutex);
              FabricCommitOptions options;
              options.allow_unlocked = allow_unlocked;
              options.wait_for_swap = wait_for_swap;
              options.swap_timeout = std::chrono::milliseconds(swap_timeout_ms);
              if (at_ps) options.at = board_time_ps(*at_ps);
              report = f.fabric->commit(assignments(f.fabric->spec(), schedules), options);
            }
            return to_python(to_json(report));
          },
          py::arg("schedules"), py::kw_only(), py::arg("allow_unlocked") = false,
          py::arg("wait_for_swap") = true, py::arg("swap_timeout_ms") = 30000,
          py::arg("at_ps") = std::nullopt,
          "Stages every board, arms all for one time T, cancels all if any fails; returns the report dict.")
      .def(
          "trigger",
          [](FabricHandle& f, std::optional<std::vector<std::string>> boards, std::optional<int64_t> at_ps,
             std::vector<std::optional<uint32_t>> steps) {
            FabricTriggerReport report;
            {
              py::gil_scoped_release no_gil;
              std::lock_guard<std::mutex> lock(f.mutex);
              std::vector<size_t> index;
              if (boards) {
                index = board_indices(f.fabric->spec(), *boards, "boards");
              } else {
                for (size_t i = 0; i < f.fabric->size(); ++i) index.push_back(i);
              }
              report = f.fabric->trigger(
                  index, at_ps ? std::optional<BoardTime>(board_time_ps(*at_ps)) : std::nullopt, steps);
            }
            return to_python(to_json(report));
          },
          py::arg("boards") = std::nullopt, py::arg("at_ps") = std::nullopt,
          py::arg("steps") = std::vector<std::optional<uint32_t>>{},
          "One timed trigger for the boards named (all by default); steps: none, or one per board (a "
          "jump's step, or None); returns the report dict.")
      .def("status", [](FabricHandle& f) {
        py::gil_scoped_release no_gil;
        std::lock_guard<std::mutex> lock(f.mutex);
        return f.fabric->status();
      });
}

}  // namespace lightrail::python
