// What each exit code of `lightrail` means: the one table `--help` prints in
// its footer and the man page in EXIT STATUS; the README's list is checked
// against `--help` (tests/install/exit_codes.sh).
#pragma once

#include <vector>

#include "cli_doc.hpp"
#include "commands.hpp"

namespace lightrail::cli {

inline std::vector<clidoc::ExitCode> exit_codes() {
  return {
      {kOk, "ok", ""},
      {kInvalidInput, "invalid input",
       "the schedule, job, URI or other input is invalid; every offending entry is named"},
      {kUsage, "usage", "bad command line"},
      {kDeviceError, "device error",
       "the device or the connection to it failed (`health`: the board cannot be read)"},
      {kBoardBusy, "board busy",
       "another program holds the board's writer lease, or a commit is armed on the bank the call would "
       "write; "
       "nothing was changed (`job`: the daemon was busy or the request conflicts, HTTP 409 or 503)"},
      {kUnauthorized, "unauthorized", "`job`: the daemon refused the token (HTTP 401); nothing was done"},
      {kUnhealthy, "unhealthy", "`health`: the board answered and at least one check failed (marked FAIL)"},
      {kNoPictures, "no pictures", "`eval --plot`: the pictures could not be made (docs/plots.md)"},
  };
}

}  // namespace lightrail::cli
