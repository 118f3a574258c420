// How every device-facing command reports a failure: the message (or each
// problem, named by file and entry) on stderr, and with --json an
// {"ok": false, "error", "problems"} object (lightrail.error/1) on stdout.
#pragma once

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "device_json.hpp"
#include "lease_holder.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/validate.hpp"

namespace lightrail::cli {

inline void print_problems(const std::string& file, const std::vector<Problem>& problems) {
  for (const Problem& p : problems)
    std::cerr << printable(file) << ": " << p.where << ": " << p.message << "\n";
}

// Returns code, for `return report_failure(...)`.
inline int report_failure(int code, const std::string& command, const std::string& file, bool as_json,
                          const std::string& message, const std::vector<Problem>& problems) {
  if (problems.empty()) {
    std::cerr << command << ": " << message << "\n";
  } else {
    print_problems(file, problems);
  }
  if (as_json) {
    nlohmann::json out = {{"ok", false}, {"error", message}};
    if (!problems.empty()) out["problems"] = problems_json(problems);
    print_json(out, "lightrail.error/1");
  }
  return code;
}

// Runs body; turns the driver's exceptions into exit codes and messages
// (invalid input 1, board busy 4, any other device error 3). device: the
// URI the command works on, empty if none.
template <typename Body>
int run_reporting(const char* command, const std::string& device, const std::string& file, bool as_json,
                  Body body) {
  auto report = [&](int code, const std::string& message, const std::vector<Problem>& problems) {
    return report_failure(code, "lightrail " + std::string(command), file, as_json, message, problems);
  };
  try {
    return body();
  } catch (const FormatError& e) {
    return report(kInvalidInput, e.what(), e.problems());
  } catch (const ValidationError& e) {
    return report(kInvalidInput, e.what(), e.problems());
  } catch (const LeaseError& e) {
    // The board names only a token: say whose it is when a daemon can tell.
    return report(kBoardBusy, std::string(e.what()) + ". " + lease_holder_note(device, e.owner()), {});
  } catch (const BoardBusyError& e) {
    return report(kBoardBusy, e.what(), {});
  } catch (const Error& e) {
    return report(kDeviceError, e.what(), {});
  }
}

}  // namespace lightrail::cli
