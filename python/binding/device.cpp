// One board (lightrail/device.hpp): open, stage, commit, status, triggers,
// the lease and the clock-synchronisation servo. Every call that talks to
// the board releases the GIL, so other Python threads run while it waits;
// a mutex per Device keeps two threads from interleaving on its one
// connection (the C++ Device is one caller at a time).
#include "lightrail/device.hpp"

#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "binding.hpp"
#include "device_handle.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/sync.hpp"
#include "lightrail/validate.hpp"

namespace py = pybind11;

namespace lightrail::python {
namespace {

using std::chrono::milliseconds;

// A call on the handle's Device that may block on the board: the GIL is
// released first, then the device's mutex taken (in that order, so a thread
// waiting for the mutex never holds the GIL). Give it a captureless lambda
// with a leading +, so its signature is known.
template <typename R, typename... A>
auto blocking(R (*f)(Device&, A...)) {
  return [f](DeviceHandle& d, A... args) -> R {
    py::gil_scoped_release no_gil;
    std::lock_guard<std::mutex> lock(d.mutex);
    return f(d.get(), args...);
  };
}

}  // namespace

Device& DeviceHandle::get() {
  if (!device) throw Error("the device is closed");
  return *device;
}

void bind_device(py::module_& m) {
  py::class_<Status>(m, "Status", "What the board's sequencer is doing.")
      .def_readonly("running", &Status::running)
      .def_readonly("active_bank", &Status::active_bank)
      .def_readonly("commit_pending", &Status::commit_pending)
      .def_readonly("verify_busy", &Status::verify_busy)
      .def_readonly("waiting_trigger", &Status::waiting_trigger)
      .def_readonly("cancelled", &Status::cancelled)
      .def_readonly("errors", &Status::errors, "ERROR flags set, by name.")
      .def_readonly("steps", &Status::steps, "Steps executed.")
      .def_readonly("missed", &Status::missed, "Boundaries served late.")
      .def_readonly("cur_step", &Status::cur_step)
      .def_readonly("cur_config", &Status::cur_config)
      .def_readonly("generation", &Status::generation, "Of the active bank.")
      .def_readonly("epochs", &Status::epochs)
      .def_readonly("swaps", &Status::swaps)
      .def_property_readonly("last_swap_ps", [](const Status& s) { return to_ps(s.last_swap); })
      .def_readonly("triggers", &Status::triggers)
      .def_property_readonly("last_trigger_ps", [](const Status& s) { return to_ps(s.last_trigger); })
      .def_readonly("last_trigger_step", &Status::last_trigger_step, "The step that boundary went into.")
      .def_property_readonly("board_time_ps", [](const Status& s) { return to_ps(s.board_time); })
      .def("__repr__", [](const Status& s) {
        return "Status(running=" + std::string(s.running ? "True" : "False") +
               ", generation=" + std::to_string(s.generation) + ", steps=" + std::to_string(s.steps) +
               ", swaps=" + std::to_string(s.swaps) +
               ", board_time_ps=" + std::to_string(to_ps(s.board_time)) + ")";
      });

  py::class_<CommitTicket>(m, "CommitTicket", "What Device.commit armed, for Device.wait_for_swap.")
      .def_readonly("uri", &CommitTicket::uri, "The board it was committed to.")
      .def_readonly("generation", &CommitTicket::generation, "Of the committed schedule.")
      .def_property_readonly(
          "at_ps",
          [](const CommitTicket& t) { return t.at ? std::optional<int64_t>(to_ps(*t.at)) : std::nullopt; },
          "The board time the board was told (rounded to its tick); None for the next epoch boundary.")
      .def_readonly("swaps_before", &CommitTicket::swaps_before, "SWAPS before the commit.")
      .def("__repr__", [](const CommitTicket& t) {
        return "CommitTicket(generation=" + std::to_string(t.generation) +
               ", at_ps=" + (t.at ? std::to_string(to_ps(*t.at)) : std::string("None")) + ")";
      });

  py::class_<Swap>(m, "Swap", "A swap the board made: when, and to which schedule.")
      .def_property_readonly(
          "time_ps", [](const Swap& s) { return to_ps(s.time); }, "The boundary the new bank took over at.")
      .def_readonly("generation", &Swap::generation)
      .def("__repr__", [](const Swap& s) {
        return "Swap(time_ps=" + std::to_string(to_ps(s.time)) +
               ", generation=" + std::to_string(s.generation) + ")";
      });

  py::class_<LeaseInfo>(m, "LeaseInfo", "Who may write the board.")
      .def_readonly("owner", &LeaseInfo::owner, "Token holding the lease; 0: free.")
      .def_readonly("mine", &LeaseInfo::mine, "That token is this Device's.")
      .def_property_readonly("expires_ps", [](const LeaseInfo& l) { return to_ps(l.expires); })
      .def_property_readonly("ttl_ms", [](const LeaseInfo& l) { return l.ttl.count(); });

  py::enum_<CancelOutcome>(m, "CancelOutcome")
      .value("CANCELLED", CancelOutcome::kCancelled, "Dropped before its swap: the old schedule runs on.")
      .value("ALREADY_SWAPPED", CancelOutcome::kAlreadySwapped, "Too late: the swap had begun.")
      .value("NOTHING_PENDING", CancelOutcome::kNothingPending, "No commit was verifying or waiting.");

  py::enum_<SyncMode>(m, "SyncMode", "The board's role on its sync link (SYNC_CTRL).")
      .value("OFF", SyncMode::kOff, "SYNC_CTRL = 0: servo off, sends no Sync frames.")
      .value("REFERENCE", SyncMode::kReference, "The grandmaster: sends Sync frames, servo off.")
      .value("FOLLOWER", SyncMode::kFollower, "The servo follows the link, refined by the DDMTD phase.")
      .value("FOLLOWER_PTP_ONLY", SyncMode::kFollowerPtpOnly,
             "The servo follows the link on the two-way exchange alone.");

  py::class_<SyncStatus>(m, "SyncStatus",
                         "The clock-synchronisation servo and link engine, read in one block.")
      .def_readonly("state", &SyncStatus::state)
      .def_readonly("state_code", &SyncStatus::state_code)
      .def_readonly("enabled", &SyncStatus::enabled)
      .def_readonly("use_ddmtd", &SyncStatus::use_ddmtd)
      .def_readonly("reference", &SyncStatus::reference)
      .def_readonly("locked", &SyncStatus::locked)
      .def_readonly("holdover", &SyncStatus::holdover)
      .def_readonly("ref_ok", &SyncStatus::ref_ok)
      .def_readonly("slewing", &SyncStatus::slewing)
      .def_readonly("ddmtd_active", &SyncStatus::ddmtd_active)
      .def_readonly("offset_ps", &SyncStatus::offset_ps)
      .def_readonly("rtt_ps", &SyncStatus::rtt_ps)
      .def_readonly("delay_ms_ps", &SyncStatus::delay_ms_ps)
      .def_readonly("servo_p_ps", &SyncStatus::servo_p_ps)
      .def_readonly("servo_i_ppt", &SyncStatus::servo_i_ppt)
      .def_readonly("dac", &SyncStatus::dac)
      .def_readonly("phase_steps", &SyncStatus::phase_steps)
      .def_readonly("holdover_us", &SyncStatus::holdover_us)
      .def_readonly("link_aligned", &SyncStatus::link_aligned)
      .def_readonly("parent_locked", &SyncStatus::parent_locked)
      .def_readonly("parent_time_valid", &SyncStatus::parent_time_valid)
      .def_readonly("parent_in_holdover", &SyncStatus::parent_in_holdover)
      .def_readonly("time_valid", &SyncStatus::time_valid)
      .def_readonly("parent_degraded", &SyncStatus::parent_degraded)
      .def_readonly("parent_holdover", &SyncStatus::parent_holdover)
      .def_readonly("rx_bitslide_ui", &SyncStatus::rx_bitslide_ui)
      .def_readonly("link_bad_frames", &SyncStatus::link_bad_frames)
      .def_readonly("down_aligned", &SyncStatus::down_aligned)
      .def_readonly("down_bad_frames", &SyncStatus::down_bad_frames)
      .def_readonly("exchange_period_cycles", &SyncStatus::exchange_period_cycles)
      .def_readonly("errors", &SyncStatus::errors)
      .def_property_readonly(
          "mode", [](const SyncStatus& s) { return sync_mode_of(s); },
          "The SyncMode SYNC_CTRL amounts to; None for REFERENCE with ENABLE, which no mode sets.")
      .def(
          "describe", [](const SyncStatus& s) { return describe(s); }, "One line a user can act on.")
      .def("__repr__", [](const SyncStatus& s) { return "SyncStatus(" + describe(s) + ")"; });

  py::class_<SyncCalibration>(m, "SyncCalibration", "Fixed delays and the fibre's asymmetry, in ps.")
      .def(py::init([](int64_t tx, int64_t rx, int64_t asym) {
             return SyncCalibration{tx, rx, asym};
           }),
           py::arg("delay_tx_ps") = 0, py::arg("delay_rx_ps") = 0, py::arg("asymmetry_ps") = 0)
      .def_readwrite("delay_tx_ps", &SyncCalibration::delay_tx_ps)
      .def_readwrite("delay_rx_ps", &SyncCalibration::delay_rx_ps)
      .def_readwrite("asymmetry_ps", &SyncCalibration::asymmetry_ps)
      .def(
          "validate", [](const SyncCalibration& c) { return validate(c); },
          "Every out-of-range value, named by field.")
      .def(py::self == py::self)
      .def("__repr__", [](const SyncCalibration& c) {
        return "SyncCalibration(delay_tx_ps=" + std::to_string(c.delay_tx_ps) +
               ", delay_rx_ps=" + std::to_string(c.delay_rx_ps) +
               ", asymmetry_ps=" + std::to_string(c.asymmetry_ps) + ")";
      });

  py::class_<DeviceHandle, std::shared_ptr<DeviceHandle>>(m, "Device", "One board, over sim:// or xrt://.")
      .def_static(
          "open",
          [](const std::string& uri) {
            auto handle = std::make_shared<DeviceHandle>();
            py::gil_scoped_release no_gil;
            handle->device.emplace(Device::open(uri));
            return handle;
          },
          py::arg("uri"), "Opens sim://HOST:PORT/BOARD or xrt://...; reads the capability block.")
      .def(
          "close",
          [](DeviceHandle& d) {
            py::gil_scoped_release no_gil;
            std::lock_guard<std::mutex> lock(d.mutex);
            d.device.reset();  // releases the lease if this Device holds it
          },
          "Releases the lease if held and closes the connection; later calls raise Error.")
      .def_property_readonly("closed", [](DeviceHandle& d) { return !d.device; })
      .def("__enter__", [](std::shared_ptr<DeviceHandle> d) { return d; })
      .def("__exit__",
           [](DeviceHandle& d, py::args) {
             py::gil_scoped_release no_gil;
             std::lock_guard<std::mutex> lock(d.mutex);
             d.device.reset();
           })
      .def_property_readonly("uri", blocking(+[](Device& d) { return d.uri(); }))
      .def_property_readonly("board_id", blocking(+[](Device& d) { return d.board_id(); }))
      .def_property_readonly("capabilities", blocking(+[](Device& d) { return d.capabilities(); }))
      .def("validate", blocking(+[](Device& d, const Schedule& s) { return validate(s, d.capabilities()); }),
           py::arg("schedule"), "Every problem of the schedule against this board.")
      .def("claim", blocking(+[](Device& d, int64_t ttl_ms) { d.claim(milliseconds(ttl_ms)); }),
           py::arg("ttl_ms") = Device::kDefaultLeaseTtl.count(), "Claims or renews the writer lease.")
      .def("break_lease", blocking(+[](Device& d, int64_t ttl_ms) { d.break_lease(milliseconds(ttl_ms)); }),
           py::arg("ttl_ms") = Device::kDefaultLeaseTtl.count(), "Takes the lease whoever holds it.")
      .def("release", blocking(+[](Device& d) { d.release(); }))
      .def("lease", blocking(+[](Device& d) { return d.lease(); }))
      .def_property("lease_token", blocking(+[](Device& d) { return d.lease_token(); }),
                    blocking(+[](Device& d, uint32_t token) { d.set_lease_token(token); }))
      .def("stage", blocking(+[](Device& d, const Schedule& s) { d.stage(s); }), py::arg("schedule"),
           "Validates, writes the inactive bank, reads it back (ValidationError, VerifyError).")
      .def("commit", blocking(+[](Device& d, std::optional<int64_t> at_ps) {
             return d.commit(at_ps ? CommitAt::at(board_time_ps(*at_ps)) : CommitAt::epoch());
           }),
           py::arg("at_ps") = std::nullopt,
           "Makes the staged bank active at board time at_ps (None: the next epoch boundary, at once when "
           "idle); returns the CommitTicket wait_for_swap takes.")
      .def("wait_for_swap", blocking(+[](Device& d, const CommitTicket& ticket, double timeout_s) {
             if (!(timeout_s > 0) || timeout_s > 86400)
               throw FormatError("timeout_s must be a number of seconds in (0, 86400], not " +
                                 std::to_string(timeout_s));
             return d.wait_for_swap(ticket, milliseconds(static_cast<int64_t>(std::ceil(timeout_s * 1000))));
           }),
           py::arg("ticket"), py::arg("timeout_s") = 60.0,
           "Waits until the board has swapped to the ticket's schedule and returns the Swap. TimeoutError "
           "(the commit stays armed), CommitError when it was dropped (flags CANCELLED or DROPPED) or "
           "replaced (OTHER_GENERATION).")
      .def("cancel", blocking(+[](Device& d) { return d.cancel(); }))
      .def("status", blocking(+[](Device& d) { return d.status(); }))
      .def("time_ps", blocking(+[](Device& d) { return to_ps(d.time()); }), "Board time now.")
      .def("trigger", blocking(+[](Device& d, std::optional<uint32_t> step) { d.trigger(step); }),
           py::arg("step") = std::nullopt,
           "Advances an event-triggered step; with step, to that step (a jump).")
      .def("trigger_at_ps", blocking(+[](Device& d, int64_t t, std::optional<uint32_t> step) {
             const std::optional<BoardTime> b = d.trigger_at(board_time_ps(t), step);
             return b ? std::optional<int64_t>(to_ps(*b)) : std::nullopt;
           }),
           py::arg("t"), py::arg("step") = std::nullopt,
           "Advances the event step at the first allowed boundary at or after t (with step: to that step); "
           "returns it, or None if latched.")
      .def("stop", blocking(+[](Device& d) { d.stop(); }), "Stops at the next step boundary, all gates low.")
      .def("write_tune_table",
           blocking(+[](Device& d, const std::vector<uint16_t>& t) { d.write_tune_table(t); }),
           py::arg("tune_ticks"))
      .def("sync_status", blocking(+[](Device& d) { return d.sync_status(); }))
      .def("sync_set_mode", blocking(+[](Device& d, SyncMode mode) { d.sync_set_mode(mode); }),
           py::arg("mode"), "Writes SYNC_CTRL under the lease and reads it back (VerifyError on a mismatch).")
      .def("sync_calibration", blocking(+[](Device& d) { return d.sync_calibration(); }))
      .def("sync_calibrate", blocking(+[](Device& d, const SyncCalibration& c) { d.sync_calibrate(c); }),
           py::arg("calibration"), "FormatError naming each bad field; nothing written.")
      .def("set_commit_timeout_ms",
           blocking(+[](Device& d, int ms) { d.set_commit_timeout(milliseconds(ms)); }), py::arg("ms"),
           "How long commit() waits for the board's verification (wall clock).")
      .def("__repr__", [](DeviceHandle& d) {
        std::optional<std::string> uri;
        {
          py::gil_scoped_release no_gil;
          std::lock_guard<std::mutex> lock(d.mutex);
          if (d.device) uri = d.device->uri();
        }
        return uri ? "Device(" + py::repr(py::str(*uri)).cast<std::string>() + ")"
                   : std::string("Device(closed)");
      });
}

}  // namespace lightrail::python
