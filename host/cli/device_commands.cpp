// `lightrail validate|upload|status|trigger|stop|cancel|lease`: the driver on the command
// line. Problems go to stderr one per line, naming the entry; --json prints
// one machine-readable object to stdout.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "commands.hpp"
#include "device_json.hpp"
#include "failure.hpp"
#include "lightrail/device.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/schedule_json.hpp"
#include "lightrail/sync.hpp"
#include "lightrail/validate.hpp"
#include "time_option.hpp"

namespace lightrail::cli {
namespace {

using nlohmann::json;

struct Options {
  std::string file;
  std::string device;
  std::string commit_at;   // empty: as the schedule's "activation" says
  std::string trigger_at;  // trigger --at: now+TIME | TIME; empty: at once
  bool json = false;
  bool break_lease = false;  // take the board's lease whoever holds it
};

template <typename Body>
int guarded(const Options& opt, const char* command, Body body) {
  return run_reporting(command, opt.device, opt.file, opt.json, body);
}

int run_validate(const Options& opt) {
  return guarded(opt, "validate", [&] {
    // Format problems and, when the document still says exactly which
    // schedule it is (only unknown fields are wrong), validation problems:
    // all at once. A document with gaps is not validated (defaults would
    // stand in for what is missing) and needs no device.
    const ScheduleDocument doc = read_schedule_file(opt.file);
    const Schedule& schedule = doc.schedule;
    std::optional<Device> device;
    if (!opt.device.empty() && doc.complete) device.emplace(open_device(opt.device));
    const DeviceCapabilities caps = device ? device->capabilities() : DeviceCapabilities::reference();
    const std::string against = opt.device.empty() ? "the reference board" : printable(opt.device);
    std::vector<Problem> problems = doc.problems;
    if (doc.complete) {
      const std::vector<Problem> invalid = validate(schedule, caps);
      problems.insert(problems.end(), invalid.begin(), invalid.end());
    }
    if (opt.json) {
      print_json({{"ok", problems.empty()},
                  {"file", printable(opt.file)},
                  {"device", opt.device.empty() ? "reference" : printable(opt.device)},
                  {"validated", doc.complete},
                  {"steps", schedule.steps.size()},
                  {"configs", schedule.configs.size()},
                  {"period_ps", problems.empty() ? json(schedule.period_ps()) : json(nullptr)},
                  {"problems", problems_json(problems)}},
                 "lightrail.validate/1");
    }
    if (!problems.empty()) {
      print_problems(opt.file, problems);
      if (doc.complete) {
        std::cerr << fmt::format("{}: {} problem{} against {}\n", printable(opt.file), problems.size(),
                                 problems.size() == 1 ? "" : "s", against);
      } else {
        std::cerr << fmt::format(
            "{}: {} format problem{}; the schedule is checked against {} once they are fixed\n",
            printable(opt.file), problems.size(), problems.size() == 1 ? "" : "s", against);
      }
      return static_cast<int>(kInvalidInput);
    }
    if (!opt.json) {
      std::cout << fmt::format("{}: valid for {} ({} steps, {} configurations, period {} ps)\n",
                               printable(opt.file), against, schedule.steps.size(), schedule.configs.size(),
                               schedule.period_ps());
    }
    return static_cast<int>(kOk);
  });
}

// How far ahead of the board's time a commit time must be: the commit's
// register writes and the board's check of the bank (about 8.5 us for a full
// bank) with room for a busy host. A closer time would most likely come back
// COMMIT_LATE, after the schedule was staged.
constexpr int64_t kMinCommitLeadPs = 1'000'000'000;  // 1 ms

// The commit for `spec` with the board at `now_ps`. Before staging, the time
// must be at least kMinCommitLeadPs ahead (FormatError naming the option or
// the file's activation.at_ps, with the numbers); after staging only "now+"
// is computed again, from the later board time (the board judges the rest).
std::optional<CommitAt> commit_time(const Options& opt, const CommitSpec& spec, const Schedule& schedule,
                                    int64_t now_ps, bool before_staging) {
  if (spec.kind == CommitSpec::kNone) return std::nullopt;
  if (spec.kind == CommitSpec::kEpoch) return CommitAt::epoch();
  if (spec.kind == CommitSpec::kFollow && !schedule.activation_ps) return CommitAt::epoch();
  if (now_ps < 0) {
    throw TransportError(fmt::format("{}: the board's time reads {} ps", printable(opt.device), now_ps));
  }
  const std::string option =
      spec.kind == CommitSpec::kFollow ? std::string() : "--commit-at " + printable(opt.commit_at);
  const auto refuse = [&](const std::string& message) {
    if (option.empty())
      return FormatError(printable(opt.file), {{"activation.at_ps", message + "; nothing written"}});
    return FormatError(fmt::format("{}: {}; nothing written", option, message));
  };
  if (spec.kind == CommitSpec::kAfterNow) {
    if (spec.ps < kMinCommitLeadPs) {
      throw refuse(
          fmt::format("a lead of {} ps is less than the {} ps an upload needs", spec.ps, kMinCommitLeadPs));
    }
    int64_t at = 0;
    if (__builtin_add_overflow(now_ps, spec.ps, &at)) {
      if (!before_staging) {
        throw TransportError(
            fmt::format("{}: the board's time jumped to {} ps while staging; staged, not committed",
                        printable(opt.device), now_ps));
      }
      throw refuse(fmt::format("the board's time {} ps plus {} ps is beyond the 64-bit picosecond range",
                               now_ps, spec.ps));
    }
    return CommitAt::at(board_time_ps(at));
  }
  const int64_t at = spec.kind == CommitSpec::kAt ? spec.ps : *schedule.activation_ps;
  if (before_staging && (at < now_ps || at - now_ps < kMinCommitLeadPs)) {
    throw refuse(
        fmt::format("{} ps is {} the board's time {} ps (a commit time needs at least {} ps of lead)", at,
                    at < now_ps ? "before" : "too close after", now_ps, kMinCommitLeadPs));
  }
  return CommitAt::at(board_time_ps(at));
}

int run_upload(const Options& opt) {
  return guarded(opt, "upload", [&] {
    // A bad --commit-at or a file that does not parse never reaches the
    // device; stage() validates against the device's capabilities before it
    // writes anything.
    const CommitSpec spec = parse_commit_at(opt.commit_at);
    const Schedule schedule = load_schedule_file(opt.file);
    Device device = open_device(opt.device);
    if (opt.break_lease) device.break_lease();
    // A time too soon fails before anything is written.
    commit_time(opt, spec, schedule, to_ps(device.time()), true);
    device.stage(schedule);  // validates against the device's own capabilities
    // "now+" counts from the end of staging, which takes its own time.
    const std::optional<CommitAt> when = commit_time(opt, spec, schedule, to_ps(device.time()), false);
    std::string what =
        fmt::format("staged {} ({} steps, {} configurations, generation {}, period {} ps) on {}",
                    printable(opt.file), schedule.steps.size(), schedule.configs.size(), schedule.generation,
                    schedule.period_ps(), printable(opt.device));
    json out = {{"ok", true},
                {"file", printable(opt.file)},
                {"device", printable(opt.device)},
                {"generation", schedule.generation},
                {"steps", schedule.steps.size()},
                {"configs", schedule.configs.size()},
                {"period_ps", schedule.period_ps()},
                {"committed", false}};
    if (when) {
      device.commit(*when);
      out["committed"] = true;
      if (when->time) {
        out["commit_at_ps"] = to_ps(*when->time);
        what += fmt::format("; committed for {} ps", to_ps(*when->time));
        // A time only means the same instant on every board once their
        // clocks are locked; before that a coarse time step may still move it.
        const SyncStatus sync = device.sync_status();
        if (sync.enabled && !sync.locked) {
          const std::string warning =
              sync.holdover ? std::string(
                                  "board time is in holdover (its reference is lost): it runs on the "
                                  "held frequency and drifts from the other boards' until the "
                                  "reference returns")
                            : fmt::format(
                                  "board time is not locked to its reference yet (clock sync {}): the "
                                  "commit time may still move with a coarse time step, and boards "
                                  "given one time will not switch together",
                                  sync.state);
          out["warnings"] = json::array({warning});
          std::cerr << "warning: " << printable(opt.device) << ": " << warning << "\n";
        }
      } else {
        out["commit_at"] = "epoch";
        what += "; committed for the next epoch boundary";
      }
    } else {
      what += "; not committed (--commit-at none)";
    }
    if (opt.json) {
      print_json(out, "lightrail.upload/1");
    } else {
      std::cout << what << "\n";
    }
    return static_cast<int>(kOk);
  });
}

std::string lease_text(const LeaseInfo& l, int64_t now_ps) {
  if (l.owner == 0) return "free";
  return fmt::format("held by token 0x{:08X}, {} ms of board time left", l.owner,
                     std::max<int64_t>(0, (to_ps(l.expires) - now_ps) / 1000000000));
}

int run_status(const Options& opt) {
  return guarded(opt, "status", [&] {
    Device device = open_device(opt.device);
    const Status s = device.status();
    const LeaseInfo lease = device.lease();
    if (opt.json) {
      json out = status_json(s);
      out["ok"] = true;
      out["device"] = printable(opt.device);
      out["board_id"] = device.board_id();
      out["build"] = build_json(device.build_id());
      out["lease"] = lease_json(lease);
      print_json(out, "lightrail.status/1");
      return static_cast<int>(kOk);
    }
    std::string errors;
    for (const std::string& e : s.errors) errors += (errors.empty() ? "" : ",") + e;
    std::cout << fmt::format(
        "{} (board {})\n"
        "  build       {}\n"
        "  state       {}{}{}{}\n"
        "  active bank {}  generation {}  swaps {}  last swap {} ps\n"
        "  step {}  config {}  steps {}  epochs {}  missed {}\n"
        "  board time  {} ps\n"
        "  lease       {}\n"
        "  errors      {}\n",
        printable(opt.device), device.board_id(), build_text(device.build_id()),
        s.running ? "running" : "idle", s.commit_pending ? ", commit pending" : "",
        s.verify_busy ? ", verifying" : "", s.waiting_trigger ? ", waiting for trigger" : "", s.active_bank,
        s.generation, s.swaps, to_ps(s.last_swap), s.cur_step, s.cur_config, s.steps, s.epochs, s.missed,
        to_ps(s.board_time), lease_text(lease, to_ps(s.board_time)), errors.empty() ? "none" : errors);
    return static_cast<int>(kOk);
  });
}

int run_control(const Options& opt, const char* command, void (Device::*op)()) {
  return guarded(opt, command, [&] {
    Device device = open_device(opt.device);
    (device.*op)();
    std::cout << fmt::format("{}: {} sent\n", printable(opt.device), command);
    return static_cast<int>(kOk);
  });
}

// `lightrail trigger [--at TIME]`: at once, or a timed trigger whose
// boundary the board reports.
int run_trigger(const Options& opt) {
  return guarded(opt, "trigger", [&] {
    std::optional<CommitSpec> at;
    if (!opt.trigger_at.empty()) {
      at = parse_commit_at(opt.trigger_at, "--at");
      if (at->kind != CommitSpec::kAt && at->kind != CommitSpec::kAfterNow)
        throw FormatError(fmt::format("--at \"{}\": expected now+TIME or TIME", printable(opt.trigger_at)));
    }
    Device device = open_device(opt.device);
    if (!at) {
      device.trigger();
      std::cout << fmt::format("{}: trigger sent\n", printable(opt.device));
      return static_cast<int>(kOk);
    }
    const int64_t t = at->kind == CommitSpec::kAt ? at->ps : to_ps(device.time()) + at->ps;
    std::optional<int64_t> boundary;
    if (const std::optional<BoardTime> b = device.trigger_at(board_time_ps(t))) boundary = to_ps(*b);
    if (opt.json) {
      print_json({{"ok", true},
                  {"device", opt.device},
                  {"at_ps", t},
                  {"boundary_ps", boundary ? json(*boundary) : json(nullptr)}},
                 "lightrail.trigger/1");
    } else if (boundary) {
      std::cout << fmt::format("{}: the event step ends at {} ps (asked for {} ps)\n", printable(opt.device),
                               *boundary, t);
    } else {
      std::cout << fmt::format("{}: no event step waits; the trigger for {} ps is latched for the next one\n",
                               printable(opt.device), t);
    }
    return static_cast<int>(kOk);
  });
}

// `lightrail cancel`: drops a commit that waits for its swap, if in time.
int run_cancel(const Options& opt) {
  return guarded(opt, "cancel", [&] {
    Device device = open_device(opt.device);
    if (opt.break_lease) device.break_lease();
    const CancelOutcome outcome = device.cancel();
    const char* name = outcome == CancelOutcome::kCancelled        ? "cancelled"
                       : outcome == CancelOutcome::kAlreadySwapped ? "already_swapped"
                                                                   : "nothing_pending";
    const Status s = device.status();
    if (opt.json) {
      print_json({{"ok", true}, {"device", opt.device}, {"outcome", name}, {"generation", s.generation}},
                 "lightrail.cancel/1");
    } else if (outcome == CancelOutcome::kCancelled) {
      std::cout << fmt::format("{}: commit cancelled before its swap; generation {} runs on\n", opt.device,
                               s.generation);
    } else if (outcome == CancelOutcome::kAlreadySwapped) {
      std::cout << fmt::format("{}: too late: the swap had begun (generation {}, swapped at {} ps)\n",
                               opt.device, s.generation, to_ps(s.last_swap));
    } else {
      std::cout << fmt::format("{}: no commit was pending\n", opt.device);
    }
    return static_cast<int>(kOk);
  });
}

// `lightrail lease break`: takes a stale lease and lets it go at exit, so
// the board is free again; `lease status` shows who holds it.
int run_lease(const Options& opt, bool take) {
  return guarded(opt, "lease", [&] {
    Device device = open_device(opt.device);
    const LeaseInfo before = device.lease();
    if (take) {
      device.break_lease();
      device.release();
    }
    const LeaseInfo now = device.lease();
    if (opt.json) {
      json out = {{"ok", true}, {"device", opt.device}, {"lease", lease_json(now)}};
      if (take) out["broken"] = lease_json(before);
      print_json(out, "lightrail.lease/1");
    } else if (take) {
      std::cout << fmt::format("{}: lease {} broken; the board is {}\n", opt.device,
                               lease_text(before, to_ps(device.time())),
                               lease_text(now, to_ps(device.time())));
    } else {
      std::cout << fmt::format("{}: lease {}\n", opt.device, lease_text(now, to_ps(device.time())));
    }
    return static_cast<int>(kOk);
  });
}

}  // namespace

void add_device_commands(CLI::App& app, Action& action) {
  auto opt = std::make_shared<Options>();

  CLI::App* validate_cmd =
      app.add_subcommand("validate", "Check a schedule file against a device (or the reference board)");
  validate_cmd->add_option("file", opt->file, "schedule JSON (docs/schedule.md)")->required();
  validate_cmd->add_option("--device", opt->device, "sim://HOST:PORT/BOARD or xrt://DEVICE");
  validate_cmd->add_flag("--json", opt->json, "print a JSON object to stdout");
  validate_cmd->callback([&action, opt] { action = [opt] { return run_validate(*opt); }; });

  CLI::App* upload = app.add_subcommand("upload", "Validate, stage and commit a schedule on a device");
  upload->add_option("--device", opt->device, "sim://HOST:PORT/BOARD or xrt://DEVICE")->required();
  upload->add_option("file", opt->file, "schedule JSON (docs/schedule.md)")->required();
  upload->add_option("--commit-at", opt->commit_at,
                     "epoch | now+TIME | TIME | none; TIME in ps, or with a unit ns, us, ms, s "
                     "(default: the schedule's \"activation\")");
  upload->add_flag("--json", opt->json, "print a JSON object to stdout");
  upload->add_flag("--break-lease", opt->break_lease,
                   "take the board's lease even if another writer holds it (for a stale lease whose holder "
                   "is gone)");
  upload->callback([&action, opt] { action = [opt] { return run_upload(*opt); }; });

  CLI::App* status = app.add_subcommand("status", "Show a device's schedule state and counters");
  status->add_option("--device", opt->device, "sim://HOST:PORT/BOARD or xrt://DEVICE")->required();
  status->add_flag("--json", opt->json, "print a JSON object to stdout");
  status->callback([&action, opt] { action = [opt] { return run_status(*opt); }; });

  CLI::App* trigger = app.add_subcommand("trigger", "Advance an event-triggered step");
  trigger->add_option("--device", opt->device, "sim://HOST:PORT/BOARD or xrt://DEVICE")->required();
  trigger->add_option(
      "--at", opt->trigger_at,
      "now+TIME | TIME: end the step at the first allowed boundary at or after that board time "
      "(TIME in ps, or with a unit ns/us/ms/s)");
  trigger->add_flag("--json", opt->json, "print a JSON object to stdout");
  trigger->callback([&action, opt] { action = [opt] { return run_trigger(*opt); }; });

  CLI::App* cancel = app.add_subcommand("cancel", "Drop a commit that waits for its swap, if still in time");
  cancel->add_option("--device", opt->device, "sim://HOST:PORT/BOARD or xrt://DEVICE")->required();
  cancel->add_flag("--json", opt->json, "print a JSON object to stdout");
  cancel->add_flag("--break-lease", opt->break_lease,
                   "take the board's lease even if another writer holds it");
  cancel->callback([&action, opt] { action = [opt] { return run_cancel(*opt); }; });

  CLI::App* lease = app.add_subcommand("lease", "Show or break a board's writer lease");
  lease->require_subcommand(1);
  for (const bool take : {false, true}) {
    CLI::App* sub = lease->add_subcommand(
        take ? "break" : "status", take ? "Take a stale lease whose holder is gone, then free the board"
                                        : "Show who holds the board's lease");
    sub->add_option("--device", opt->device, "sim://HOST:PORT/BOARD or xrt://DEVICE")->required();
    sub->add_flag("--json", opt->json, "print a JSON object to stdout");
    sub->callback([&action, opt, take] { action = [opt, take] { return run_lease(*opt, take); }; });
  }

  CLI::App* stop = app.add_subcommand("stop", "Stop at the next step boundary, all gates low");
  stop->add_option("--device", opt->device, "sim://HOST:PORT/BOARD or xrt://DEVICE")->required();
  stop->callback([&action, opt] { action = [opt] { return run_control(*opt, "stop", &Device::stop); }; });
}

}  // namespace lightrail::cli
