// `lightrail`: the lab engineer's and host program's entry point.
#include <exception>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "cli_doc.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/version.hpp"

namespace {

// Whatever a command did not handle itself, printed line by line with
// control characters escaped.
int report(int code, const char* kind, const std::string& what) {
  std::istringstream lines(what);
  std::string line;
  bool first = true;
  while (std::getline(lines, line)) {
    std::cerr << (first ? std::string("lightrail: ") + kind + ": " : std::string("  "))
              << lightrail::printable(line) << "\n";
    first = false;
  }
  if (first) std::cerr << "lightrail: " << kind << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = lightrail::cli;
  // Every path ends in one of the documented exit codes, never in
  // std::terminate: the commands map the driver's errors themselves, and
  // anything that escapes them is mapped here by its kind.
  try {
    CLI::App app{"lightrail: schedules for optical circuit switching boards"};
    app.set_version_flag("--version", lightrail::version_line("lightrail"));
    app.require_subcommand(1);
    cli::Action action;
    cli::add_device_commands(app, action);
    cli::add_planner_commands(app, action);
    cli::add_sync_commands(app, action);
    cli::add_fabric_commands(app, action);
    cli::add_job_commands(app, action);
    cli::add_lab_commands(app, action);
    // Last: the man page and completion read every command defined above.
    lightrail::clidoc::add_doc_option(
        app,
        {"lightrail", LIGHTRAIL_VERSION_STRING, cli::exit_codes(), {"lightraild(1)", "lightrail-cosim(1)"}});
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      const int code = app.exit(e);
      return code == 0 ? 0 : cli::kUsage;
    }
    return action ? action() : cli::kUsage;
  } catch (const lightrail::FormatError& e) {
    return report(cli::kInvalidInput, "invalid input", e.what());
  } catch (const lightrail::ValidationError& e) {
    return report(cli::kInvalidInput, "invalid input", e.what());
  } catch (const lightrail::BoardBusyError& e) {
    return report(cli::kBoardBusy, "board busy", e.what());
  } catch (const lightrail::Error& e) {
    return report(cli::kDeviceError, "device error", e.what());
  } catch (const CLI::Error& e) {
    return report(cli::kUsage, "usage", e.what());
  } catch (const nlohmann::json::exception& e) {
    // A JSON document of the user's that did not have the expected shape.
    return report(cli::kInvalidInput, "invalid input", e.what());
  } catch (const std::logic_error& e) {
    // invalid_argument, out_of_range, length_error: input that did not fit.
    return report(cli::kInvalidInput, "invalid input", e.what());
  } catch (const std::exception& e) {
    // A system or runtime failure (socket, memory): not the input's fault.
    return report(cli::kDeviceError, "error", e.what());
  } catch (...) {
    return report(cli::kDeviceError, "error", "unknown exception");
  }
}
