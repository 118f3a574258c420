// Each group of `lightrail` subcommands registers itself here; main() runs
// the action of the subcommand the user chose and exits with its code.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "lightrail/device.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/transport.hpp"

namespace lightrail::cli {

// Exit codes of every subcommand.
enum Exit : int {
  kOk = 0,
  kInvalidInput = 1,  // the schedule, job, URI or other input is invalid
  kUsage = 2,         // bad command line (CLI11's own code too)
  kDeviceError = 3,   // the device or the connection to it failed
  kBoardBusy = 4,     // another writer holds the board's lease or armed a commit: nothing changed
                      // (`job`: the daemon is busy or the request conflicts; nothing was done)
  kUnauthorized = 5,  // `job`: the daemon refused the token (HTTP 401); nothing was done
  kUnhealthy = 6,     // `health`: the board answered and a check failed (the output names it)
  kNoPictures = 7,    // `eval --plot`: the pictures could not be made (lightrail-plot, matplotlib)
};

using Action = std::function<int()>;

// validate, upload, status, trigger, stop, cancel, lease (driver/ on a device)
void add_device_commands(CLI::App& app, Action& action);
// plan, eval (the control plane, host/planner)
void add_planner_commands(CLI::App& app, Action& action);
// sync status, sync mode, sync calibrate (the clock-synchronisation servo on a device)
void add_sync_commands(CLI::App& app, Action& action);
// fabric validate|commit|trigger|status (many boards as one, lightrail::Fabric)
void add_fabric_commands(CLI::App& app, Action& action);
// boards, flash, health (bringing up a board in the lab, docs/lab.md)
void add_lab_commands(CLI::App& app, Action& action);
// job submit, phase, progress, list, show, delete (the strategy daemon, lightraild)
void add_job_commands(CLI::App& app, Action& action);

// Opens the device a command names. A malformed URI is the user's input
// (FormatError: exit 1); a board that answers but whose capability block is
// missing or malformed is the device's fault, so Device's FormatError for it
// becomes a TransportError (exit 3).
inline Device open_device(const std::string& uri) {
  std::unique_ptr<Transport> transport = open_transport(uri);
  try {
    return Device(std::move(transport));
  } catch (const FormatError& e) {
    throw TransportError(e.what());
  }
}

}  // namespace lightrail::cli
