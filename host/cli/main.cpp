// `lightrail`: the lab engineer's and host program's entry point.
#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"lightrail: schedules for optical circuit switching boards"};
  app.require_subcommand(1);
  lightrail::cli::Action action;
  lightrail::cli::add_device_commands(app, action);
  lightrail::cli::add_planner_commands(app, action);
  lightrail::cli::add_sync_commands(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : lightrail::cli::kUsage;
  }
  return action ? action() : lightrail::cli::kUsage;
}
