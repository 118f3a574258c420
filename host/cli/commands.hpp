// Each group of `lightrail` subcommands registers itself here; main() runs
// the action of the subcommand the user chose and exits with its code.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace lightrail::cli {

// Exit codes of every subcommand.
enum Exit : int {
  kOk = 0,
  kInvalidInput = 1,  // the schedule, job or other input file is invalid
  kUsage = 2,         // bad command line (CLI11's own code too)
  kDeviceError = 3,   // the device or the connection to it failed
  kBoardBusy = 4,     // another writer holds the board's lease or armed a commit: nothing changed
};

using Action = std::function<int()>;

// validate, upload, status, trigger, stop, cancel, lease (driver/ on a device)
void add_device_commands(CLI::App& app, Action& action);
// plan, eval (the control plane, host/planner)
void add_planner_commands(CLI::App& app, Action& action);
// sync status, sync calibrate (the clock-synchronisation servo on a device)
void add_sync_commands(CLI::App& app, Action& action);

}  // namespace lightrail::cli
