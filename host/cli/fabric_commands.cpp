// `lightrail fabric validate|commit|trigger|status|sync`: many boards as one
// (lightrail::Fabric, docs/fabric.md). Problems go to stderr one per line;
// --json prints one object to stdout.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "device_json.hpp"
#include "failure.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/fabric.hpp"
#include "lightrail/fabric_json.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/schedule_json.hpp"
#include "numbers.hpp"
#include "time_option.hpp"

namespace lightrail::cli {
namespace {

using nlohmann::json;

struct FabricOptions {
  std::string fabric;                    // the fabric file
  std::vector<std::string> assignments;  // NAME=SCHEDULE.json
  std::string all;                       // --all SCHEDULE.json: every board not named
  std::vector<std::string> boards;       // trigger --board NAME
  std::string at;                        // --at now+TIME | TIME
  bool allow_unlocked = false;
  bool no_wait = false;
  bool online = false;
  bool json = false;
  std::string swap_timeout_ms = "30000";
};

// A problem the command line itself has (exit 2), found after CLI11 parsed.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs body; turns exceptions into exit codes and messages (stderr, and the
// JSON object with --json).
template <typename Body>
int guarded(const FabricOptions& opt, const char* command, Body body) {
  auto report = [&](int code, const std::string& message, const std::vector<Problem>& problems) {
    return report_failure(code, "lightrail fabric " + std::string(command), opt.fabric, opt.json, message,
                          problems);
  };
  try {
    return body();
  } catch (const UsageError& e) {
    return report(kUsage, e.what(), {});
  } catch (const FormatError& e) {
    return report(kInvalidInput, e.what(), e.problems());
  } catch (const ValidationError& e) {
    return report(kInvalidInput, e.what(), e.problems());
  } catch (const BoardBusyError& e) {
    return report(kBoardBusy, e.what(), {});
  } catch (const Error& e) {
    return report(kDeviceError, e.what(), {});
  }
}

// --at: now+TIME (latest board time + TIME: the margin) or TIME (a board
// time), checked before any file is read.
std::optional<CommitSpec> parse_at(const FabricOptions& opt) {
  if (opt.at.empty()) return std::nullopt;
  const CommitSpec at = parse_commit_at(opt.at, "--at");
  if (at.kind != CommitSpec::kAt && at.kind != CommitSpec::kAfterNow)
    throw FormatError(fmt::format("--at \"{}\": expected now+TIME or TIME", printable(opt.at)));
  if (at.kind == CommitSpec::kAfterNow && at.ps <= 0)
    throw FormatError(fmt::format("--at \"{}\": the lead must be more than 0", printable(opt.at)));
  return at;
}

std::string board_list(const FabricSpec& spec) {
  std::string names;
  for (const FabricBoard& b : spec.boards) names += (names.empty() ? "" : ", ") + printable(b.name);
  return names;
}

// The schedules the command line gives, in board order: NAME=FILE pairs and
// --all for every board not named. Every format problem of every file is
// collected (file, problems); a file with any is not used.
struct Assignments {
  std::vector<BoardAssignment> set;
  std::vector<std::string> files;  // per entry of set
  std::vector<std::pair<std::string, std::vector<Problem>>> format_problems;
  bool complete = true;  // every file fully read (only unknown fields wrong, if anything)
};

Assignments read_assignments(const FabricSpec& spec, const FabricOptions& opt) {
  if (opt.assignments.empty() && opt.all.empty())
    throw UsageError("no schedules: give NAME=SCHEDULE.json for boards, or --all SCHEDULE.json");
  std::vector<std::string> file_of(spec.boards.size());
  std::vector<Problem> wrong;
  for (const std::string& a : opt.assignments) {
    const size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == a.size())
      throw UsageError(fmt::format("\"{}\": expected NAME=SCHEDULE.json", printable(a)));
    const std::string name = a.substr(0, eq);
    const std::optional<size_t> b = spec.board_index(name);
    if (!b) {
      wrong.push_back({printable(name),
                       fmt::format("no board of that name in the fabric (boards: {})", board_list(spec))});
      continue;
    }
    if (!file_of[*b].empty()) {
      wrong.push_back({printable(name), "given twice on the command line"});
      continue;
    }
    file_of[*b] = a.substr(eq + 1);
  }
  if (!wrong.empty()) throw FormatError(printable(opt.fabric), std::move(wrong));
  Assignments out;
  for (size_t b = 0; b < spec.boards.size(); ++b) {
    const std::string& file = file_of[b].empty() ? opt.all : file_of[b];
    if (file.empty()) continue;
    ScheduleDocument doc = read_schedule_file(file);
    if (!doc.problems.empty()) {
      out.complete = out.complete && doc.complete;
      // One file given for many boards is reported once.
      const bool seen = std::any_of(out.format_problems.begin(), out.format_problems.end(),
                                    [&](const auto& f) { return f.first == file; });
      if (!seen) out.format_problems.emplace_back(file, doc.problems);
    }
    out.set.push_back({b, std::move(doc.schedule)});
    out.files.push_back(file);
  }
  return out;
}

int run_validate(const FabricOptions& opt) {
  return guarded(opt, "validate", [&] {
    const FabricSpec spec = read_fabric_file(opt.fabric);
    const Assignments a = read_assignments(spec, opt);
    std::vector<Problem> problems;
    std::vector<DeviceCapabilities> caps(spec.boards.size(), DeviceCapabilities::reference());
    // Files with gaps are not validated: defaults would stand in for them.
    if (a.complete) {
      if (opt.online) {
        Fabric fabric = Fabric::open(spec);
        for (const BoardAssignment& x : a.set) fabric.device(x.board);  // Error naming a board that is down
        caps = fabric.capabilities();
      }
      problems = validate_fabric(spec, caps, a.set);
    }
    size_t format_count = 0;
    for (const auto& [file, ps] : a.format_problems) format_count += ps.size();
    const std::string against = opt.online ? "the boards" : "the reference board";
    if (opt.json) {
      json files = json::array();
      for (const auto& [file, ps] : a.format_problems)
        files.push_back({{"file", printable(file)}, {"problems", problems_json(ps)}});
      json boards = json::array();
      for (size_t i = 0; i < a.set.size(); ++i)
        boards.push_back({{"board", spec.boards[a.set[i].board].name}, {"file", printable(a.files[i])}});
      print_json({{"ok", problems.empty() && format_count == 0},
                  {"fabric", spec.name},
                  {"against", opt.online ? "online" : "reference"},
                  {"validated", a.complete},
                  {"boards", boards},
                  {"format_problems", files},
                  {"problems", problems_json(problems)}},
                 "lightrail.fabric-validate/1");
    }
    for (const auto& [file, ps] : a.format_problems) print_problems(file, ps);
    print_problems(opt.fabric, problems);
    if (format_count > 0 || !problems.empty()) {
      if (!a.complete) {
        std::cerr << fmt::format(
            "{} format problem{}; the schedules are checked together once they are fixed\n", format_count,
            format_count == 1 ? "" : "s");
      } else {
        std::cerr << fmt::format("{}: {} problem{} across {} boards against {}\n", printable(opt.fabric),
                                 problems.size() + format_count,
                                 problems.size() + format_count == 1 ? "" : "s", a.set.size(), against);
      }
      return static_cast<int>(kInvalidInput);
    }
    if (!opt.json) {
      std::cout << fmt::format("{}: {} schedules valid together against {}\n", printable(opt.fabric),
                               a.set.size(), against);
    }
    return static_cast<int>(kOk);
  });
}

// Whether every board that failed failed only because it was busy (its
// lease, an armed bank), and one did: waiting may then help. A board that
// is down as well is not busy; a script that retries on 4 would wait for
// it forever.
bool only_busy(const std::vector<std::string>& error_kinds) {
  bool busy = false;
  for (const std::string& k : error_kinds) {
    if (k.empty()) continue;
    if (k != "LeaseError" && k != "BoardBusyError") return false;
    busy = true;
  }
  return busy;
}

// The exit code of a commit that did not commit: 4 when only busy boards
// stopped it and every board is unchanged, else 3.
int failed_commit_code(const FabricCommitReport& r) {
  std::vector<std::string> kinds;
  for (const BoardCommitReport& b : r.boards) {
    if (b.outcome != BoardOutcome::kUnchanged) return kDeviceError;
    kinds.push_back(b.error_kind);
  }
  return only_busy(kinds) ? kBoardBusy : kDeviceError;
}

int run_commit(const FabricOptions& opt) {
  return guarded(opt, "commit", [&] {
    const std::optional<CommitSpec> at = parse_at(opt);
    const Decimal timeout = parse_decimal(opt.swap_timeout_ms);
    if (!timeout.in_range || timeout.value < 1 || timeout.value > 3'600'000)
      throw FormatError(
          fmt::format("--swap-timeout-ms {}: expected 1..3600000", printable(opt.swap_timeout_ms)));
    FabricSpec spec = read_fabric_file(opt.fabric);
    if (at && at->kind == CommitSpec::kAfterNow) spec.commit_margin = picoseconds(at->ps);
    const Assignments a = read_assignments(spec, opt);
    if (!a.format_problems.empty()) {
      json files = json::array();
      for (const auto& [file, ps] : a.format_problems) {
        print_problems(file, ps);
        files.push_back({{"file", printable(file)}, {"problems", problems_json(ps)}});
      }
      if (opt.json)
        print_json({{"ok", false},
                    {"error", "schedule file problems; nothing was written"},
                    {"format_problems", files}},
                   "lightrail.error/1");
      return static_cast<int>(kInvalidInput);
    }
    FabricCommitOptions o;
    o.allow_unlocked = opt.allow_unlocked;
    o.wait_for_swap = !opt.no_wait;
    o.swap_timeout = std::chrono::milliseconds(static_cast<int64_t>(timeout.value));
    if (at && at->kind == CommitSpec::kAt) o.at = board_time_ps(at->ps);
    Fabric fabric = Fabric::open(spec);
    const FabricCommitReport r = fabric.commit(a.set, o);
    for (const std::string& w : r.warnings) std::cerr << "warning: " << printable(w) << "\n";
    const int code = r.committed ? static_cast<int>(kOk) : failed_commit_code(r);
    if (opt.json) {
      json out = to_json(r);
      out["ok"] = r.committed;
      out["fabric"] = spec.name;
      print_json(out, "lightrail.fabric-commit/1");
    } else {
      std::cout << fmt::format("fabric {}: {} for {} ps\n", printable(spec.name),
                               r.committed ? (o.wait_for_swap ? "committed" : "armed") : "NOT committed",
                               to_ps(r.commit_time));
      for (const BoardCommitReport& b : r.boards) {
        std::string line = fmt::format("  {:<12} {:<9} generation {}", printable(b.name),
                                       to_string(b.outcome), b.generation);
        if (b.swap_time) line += fmt::format(", swapped at {} ps", to_ps(*b.swap_time));
        if (b.cancelled) line += ", cancelled before its swap";
        if (!b.error.empty()) line += ": " + printable(b.error);
        std::cout << line << "\n";
      }
    }
    if (!r.committed) std::cerr << "lightrail fabric commit: " << printable(r.error) << "\n";
    return code;
  });
}

int run_trigger(const FabricOptions& opt) {
  return guarded(opt, "trigger", [&] {
    const std::optional<CommitSpec> at = parse_at(opt);
    FabricSpec spec = read_fabric_file(opt.fabric);
    if (at && at->kind == CommitSpec::kAfterNow) spec.trigger_margin = picoseconds(at->ps);
    std::vector<size_t> boards;
    std::vector<Problem> wrong;
    for (const std::string& name : opt.boards) {
      const std::optional<size_t> b = spec.board_index(name);
      if (!b) {
        wrong.push_back({"--board " + printable(name),
                         fmt::format("no board of that name in the fabric (boards: {})", board_list(spec))});
      } else if (std::find(boards.begin(), boards.end(), *b) != boards.end()) {
        wrong.push_back({"--board " + printable(name), "given twice"});
      } else {
        boards.push_back(*b);
      }
    }
    if (!wrong.empty()) throw FormatError(printable(opt.fabric), std::move(wrong));
    if (opt.boards.empty()) {
      for (size_t b = 0; b < spec.boards.size(); ++b) boards.push_back(b);
    }
    Fabric fabric = Fabric::open(spec);
    const FabricTriggerReport r = fabric.trigger(boards, at && at->kind == CommitSpec::kAt
                                                             ? std::optional<BoardTime>(board_time_ps(at->ps))
                                                             : std::nullopt);
    const bool failed = std::any_of(r.board_errors.begin(), r.board_errors.end(),
                                    [](const std::string& e) { return !e.empty(); }) ||
                        r.board_boundary.size() != boards.size();
    // Latched everywhere: no event step waits; each board's next one ends
    // at its minimum end. Not a failure, but not one boundary either.
    const bool latched = !failed && std::all_of(r.board_boundary.begin(), r.board_boundary.end(),
                                                [](const std::optional<BoardTime>& v) { return !v; });
    if (opt.json) {
      json out = to_json(r);
      out["fabric"] = spec.name;
      out["latched"] = latched;
      print_json(out, "lightrail.fabric-trigger/1");
    } else if (r.ok) {
      std::cout << fmt::format("fabric {}: {} boards end their event step at {} ps (asked for {} ps)\n",
                               printable(spec.name), boards.size(), to_ps(*r.boundary), to_ps(r.at));
    } else {
      for (size_t i = 0; i < r.boards.size() && i < r.board_boundary.size(); ++i) {
        std::cout << fmt::format("  {:<12} {}\n", r.board_names[i],
                                 !r.board_errors[i].empty() ? printable(r.board_errors[i])
                                 : r.board_boundary[i] ? fmt::format("{} ps", to_ps(*r.board_boundary[i]))
                                                       : std::string("latched for its next event step"));
      }
    }
    if (r.ok || latched) {
      if (latched) std::cerr << "lightrail fabric trigger: " << printable(r.error) << "\n";
      return static_cast<int>(kOk);
    }
    std::cerr << "lightrail fabric trigger: " << printable(r.error) << "\n";
    return static_cast<int>(kDeviceError);
  });
}

int run_status(const FabricOptions& opt) {
  return guarded(opt, "status", [&] {
    const FabricSpec spec = read_fabric_file(opt.fabric);
    Fabric fabric = Fabric::open(spec);
    const std::vector<FabricBoardState> states = fabric.status();
    bool reachable = true, locked = true;
    json boards = json::array();
    for (const FabricBoardState& s : states) {
      const bool master = spec.sync_master && *spec.sync_master == s.board;
      reachable = reachable && s.reachable;
      locked = locked && s.reachable && (master || s.sync.locked);
      json b = {
          {"board", s.name},       {"index", s.board},         {"uri", printable(spec.boards[s.board].uri)},
          {"sync_master", master}, {"reachable", s.reachable}, {"error", s.error}};
      if (s.reachable) {
        b["status"] = status_json(s.status);
        b["sync"] = sync_status_json(s.sync);
        b["lease"] = lease_json(s.lease);
      }
      boards.push_back(std::move(b));
      if (opt.json) continue;
      if (!s.reachable) {
        std::cout << fmt::format("{:<12} unreachable: {}\n", printable(s.name), printable(s.error));
        continue;
      }
      std::cout << fmt::format(
          "{:<12} {}{}, generation {}, swaps {}, last swap {} ps, board time {} ps; clock {}{}\n",
          printable(s.name), s.status.running ? "running" : "idle",
          s.status.commit_pending ? " (commit pending)" : "", s.status.generation, s.status.swaps,
          to_ps(s.status.last_swap), to_ps(s.status.board_time), describe(s.sync),
          master ? " (sync master)" : "");
    }
    if (opt.json) {
      print_json({{"ok", reachable}, {"fabric", spec.name}, {"all_locked", locked}, {"boards", boards}},
                 "lightrail.fabric-status/1");
    }
    return static_cast<int>(reachable ? kOk : kDeviceError);
  });
}

// Every board's role and calibration from the file (Fabric::write_sync).
int run_sync(const FabricOptions& opt) {
  return guarded(opt, "sync", [&] {
    const FabricSpec spec = read_fabric_file(opt.fabric);
    // Planned before anything is opened: a file without a tree fails here.
    plan_fabric_sync(spec, nullptr);
    Fabric fabric = Fabric::open(spec);
    const FabricSyncReport r = fabric.write_sync();
    const bool sim = std::any_of(spec.boards.begin(), spec.boards.end(),
                                 [](const FabricBoard& b) { return b.uri.rfind("sim://", 0) == 0; });
    for (const std::string& w : r.warnings) std::cerr << "warning: " << printable(w) << "\n";
    std::vector<std::string> kinds;
    bool unchanged = true;
    for (const BoardSyncReport& b : r.boards) {
      kinds.push_back(b.error_kind);
      unchanged = unchanged && !b.mode_written && !b.calibration_written;
    }
    const int code = r.ok ? static_cast<int>(kOk) : only_busy(kinds) && unchanged ? kBoardBusy : kDeviceError;
    if (opt.json) {
      json out = to_json(r);
      out["fabric"] = spec.name;
      print_json(out, "lightrail.fabric-sync/1");
    } else {
      std::cout << fmt::format("fabric {}: sync roles {}\n", printable(spec.name),
                               r.ok ? "written" : "NOT all written");
      for (const BoardSyncReport& b : r.boards) {
        std::string line = fmt::format("  {:<12} {:<9} SYNC_CTRL 0x{:X}", printable(b.name),
                                       sync_mode_name(b.mode), sync_ctrl_word(b.mode));
        if (b.parent) line += " of " + printable(spec.boards[*b.parent].name);
        if (b.calibration) {
          line += fmt::format(", calibration delay tx {} ps, delay rx {} ps, asymmetry {} ps",
                              b.calibration->delay_tx_ps, b.calibration->delay_rx_ps,
                              b.calibration->asymmetry_ps);
        } else if (b.mode != SyncMode::kReference) {
          line += ", calibration unchanged (none in the file)";
        }
        if (b.boundary_clock) line += " (boundary clock: see the warning)";
        line += b.written()                               ? ": written"
                : b.mode_written || b.calibration_written ? ": PARTLY written"
                                                          : ": not written";
        if (!b.error.empty()) line += ": " + printable(b.error);
        std::cout << line << "\n";
      }
    }
    if (!r.ok) std::cerr << "lightrail fabric sync: " << printable(r.error) << "\n";
    if (sim && r.ok) {
      std::cerr << "note: on sim:// the co-simulation's scenario decides who follows whom (serve --sync, "
                   "docs/lab.md section 4): the modes were written and read back, and ENABLE and USE_DDMTD "
                   "drive its modelled servos\n";
    }
    return code;
  });
}

}  // namespace

void add_fabric_commands(CLI::App& app, Action& action) {
  auto opt = std::make_shared<FabricOptions>();
  CLI::App* fabric =
      app.add_subcommand("fabric", "Many boards as one: validate, commit, trigger, status, sync");
  fabric->require_subcommand(1);
  const char* fabric_help = "fabric file (docs/fabric.md)";
  const char* assign_help = "NAME=SCHEDULE.json: the schedule of the board called NAME";

  CLI::App* validate =
      fabric->add_subcommand("validate", "Check board schedules together against the fabric");
  validate->add_option("fabric", opt->fabric, fabric_help)->required();
  validate->add_option("schedules", opt->assignments, assign_help);
  validate->add_option("--all", opt->all, "the schedule of every board not named");
  validate->add_flag("--online", opt->online,
                     "against the boards' own capabilities (default: the reference board)");
  validate->add_flag("--json", opt->json, "print a JSON object to stdout");
  validate->callback([&action, opt] { action = [opt] { return run_validate(*opt); }; });

  CLI::App* commit = fabric->add_subcommand("commit", "Stage on every board, then switch all at one time");
  commit->add_option("fabric", opt->fabric, fabric_help)->required();
  commit->add_option("schedules", opt->assignments, assign_help);
  commit->add_option("--all", opt->all, "the schedule of every board not named");
  commit->add_flag("--allow-unlocked", opt->allow_unlocked,
                   "commit on boards whose clock is not locked (warns)");
  commit->add_flag("--no-wait", opt->no_wait,
                   "return once every board is armed, without waiting for the swaps");
  commit->add_option(
      "--at", opt->at,
      "now+TIME (latest board time after staging + TIME) or TIME (a board time); TIME in ps or "
      "with a unit ns/us/ms/s (default: the fabric's commit margin)");
  commit
      ->add_option("--swap-timeout-ms", opt->swap_timeout_ms,
                   "how long to wait for the swaps (default 30000)")
      ->check(decimal_integer());
  commit->add_flag("--json", opt->json, "print a JSON object to stdout");
  commit->callback([&action, opt] { action = [opt] { return run_commit(*opt); }; });

  CLI::App* trigger =
      fabric->add_subcommand("trigger", "End the waiting event step on many boards at one time");
  trigger->add_option("fabric", opt->fabric, fabric_help)->required();
  trigger->add_option("--board", opt->boards, "a board by name (repeat; default: every board)");
  trigger->add_option(
      "--at", opt->at,
      "now+TIME (latest board time + TIME) or TIME (a board time) (default: the fabric's trigger "
      "margin)");
  trigger->add_flag("--json", opt->json, "print a JSON object to stdout");
  trigger->callback([&action, opt] { action = [opt] { return run_trigger(*opt); }; });

  CLI::App* status = fabric->add_subcommand("status", "Every board's schedule, clock and lease");
  status->add_option("fabric", opt->fabric, fabric_help)->required();
  status->add_flag("--json", opt->json, "print a JSON object to stdout");
  status->callback([&action, opt] { action = [opt] { return run_status(*opt); }; });

  CLI::App* sync =
      fabric->add_subcommand("sync", "Write every board's sync role and calibration from the file");
  sync->add_option("fabric", opt->fabric, fabric_help)->required();
  sync->add_flag("--json", opt->json, "print a JSON object to stdout");
  sync->callback([&action, opt] { action = [opt] { return run_sync(*opt); }; });
}

}  // namespace lightrail::cli
