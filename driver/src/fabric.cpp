// lightrail::Fabric: the open boards of a fabric file, one all-or-nothing
// commit across them at one synchronised time, and one timed trigger for
// many (docs/fabric.md). Only what a board was seen to do is claimed.
#include "lightrail/fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>

#include "error_kind.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/fabric_json.hpp"
#include "lightrail/json_text.hpp"

namespace lightrail {
namespace {

using nlohmann::json;

// A failure after which the board is known to have changed nothing: the
// lease or the bank lock refused it, or the board refused the commit.
bool changed_nothing(const std::string& kind) {
  return kind == "LeaseError" || kind == "BoardBusyError" || kind == "CommitError";
}

// Times are rounded up to whole ticks so that the value every board is told
// is exactly the tick it takes (the driver rounds to the nearest).
int64_t round_up(int64_t t, int64_t tick) {
  if (tick <= 0) return t;
  const int64_t r = t % tick;
  return r == 0 ? t : t + (tick - r);
}

// A time the report may lack, as the plain picoseconds of JSON (null: none).
template <typename T>
json optional_json(const std::optional<T>& v) {
  return v ? json(to_ps(*v)) : json(nullptr);
}

// A status read is several registers in a row: a swap can land between
// GENERATION and SWAPS. One that shows a swap other than the one expected is
// read again before anything is concluded (only one commit, so one swap, is
// under way).
Status status_after_swap(Device& dev, const Status& first, uint32_t generation) {
  if (first.generation == generation) return first;
  return dev.status();
}

// After a cancel found the swap too late to stop: it may show in SWAPS only
// a few cycles later.
std::optional<Status> wait_for_swap_count(Device& dev, uint32_t swaps_before) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  for (;;) {
    const Status s = dev.status();
    if (s.swaps != swaps_before) return s;
    if (std::chrono::steady_clock::now() > deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// After a failed commit: takes back the board's arm and records what it
// then showed.
void settle(BoardCommitReport& r, Device& dev, const Status& before) {
  try {
    const CancelOutcome c = dev.cancel();
    if (c == CancelOutcome::kCancelled) {
      r.outcome = BoardOutcome::kUnchanged;
      r.cancelled = true;
      return;
    }
    if (c == CancelOutcome::kAlreadySwapped) {
      r.outcome = BoardOutcome::kSwitched;
      if (const std::optional<Status> s = wait_for_swap_count(dev, before.swaps)) r.swap_time = s->last_swap;
      return;
    }
    // Nothing pending: it swapped already, or never took the commit.
    const Status s = status_after_swap(dev, dev.status(), r.generation);
    if (s.swaps == before.swaps) {
      r.outcome = BoardOutcome::kUnchanged;
    } else if (s.generation == r.generation) {
      r.outcome = BoardOutcome::kSwitched;
      r.swap_time = s.last_swap;
    } else {
      r.outcome = BoardOutcome::kUnknown;
      const std::string m = fmt::format("it swapped to generation {} at {} ps, not to this commit's {}",
                                        s.generation, to_ps(s.last_swap), r.generation);
      r.error = r.error.empty() ? m : r.error + "; " + m;
    }
  } catch (const std::exception& e) {
    r.outcome = BoardOutcome::kUnknown;
    const std::string m = std::string("the cancel could not be sent or read: ") + e.what();
    r.error = r.error.empty() ? m : r.error + "; " + m;
    if (r.error_kind.empty()) r.error_kind = kind_of(e);
  }
}

}  // namespace

const char* to_string(BoardOutcome o) {
  switch (o) {
    case BoardOutcome::kUnchanged:
      return "unchanged";
    case BoardOutcome::kArmed:
      return "armed";
    case BoardOutcome::kSwitched:
      return "switched";
    case BoardOutcome::kUnknown:
      return "unknown";
  }
  return "unknown";
}

std::string to_json_text(const FabricCommitReport& report, int indent) {
  return to_json(report).dump(indent);
}

std::string to_json_text(const FabricTriggerReport& report, int indent) {
  return to_json(report).dump(indent);
}

nlohmann::json to_json(const FabricCommitReport& report) {
  json out_boards = json::array();
  json switched = json::array();
  for (const BoardCommitReport& b : report.boards) {
    out_boards.push_back({{"board", b.name},
                          {"index", b.board},
                          {"generation", b.generation},
                          {"outcome", lightrail::to_string(b.outcome)},
                          {"staged", b.staged},
                          {"armed", b.armed},
                          {"cancelled", b.cancelled},
                          {"swap_ps", optional_json(b.swap_time)},
                          {"error", b.error},
                          {"error_kind", b.error_kind}});
    if (b.outcome == BoardOutcome::kSwitched) switched.push_back(b.name);
  }
  return {{"committed", report.committed}, {"commit_ps", to_ps(report.commit_time)},
          {"error", report.error},         {"warnings", report.warnings},
          {"switched", switched},          {"boards", out_boards}};
}

nlohmann::json to_json(const FabricTriggerReport& r) {
  const std::vector<size_t>& boards = r.boards;
  const std::vector<std::string>& board_names = r.board_names;
  const std::vector<std::optional<BoardTime>>& board_boundary = r.board_boundary;
  const std::vector<std::string>& board_errors = r.board_errors;
  json out_boards = json::array();
  for (size_t i = 0; i < boards.size(); ++i) {
    out_boards.push_back(
        {{"board", i < board_names.size() ? board_names[i] : std::to_string(boards[i])},
         {"index", boards[i]},
         {"boundary_ps", i < board_boundary.size() ? optional_json(board_boundary[i]) : json(nullptr)},
         {"error", i < board_errors.size() ? board_errors[i] : std::string()}});
  }
  return {{"ok", r.ok},          {"at_ps", to_ps(r.at)},         {"boundary_ps", optional_json(r.boundary)},
          {"error", r.error},    {"margin_ps", to_ps(r.margin)}, {"window_ps", optional_json(r.window)},
          {"boards", out_boards}};
}

Fabric Fabric::open(FabricSpec spec) {
  const size_t n = spec.boards.size();
  Fabric fabric(std::move(spec), std::vector<std::optional<Device>>(n));
  for (size_t b = 0; b < n; ++b) fabric.try_device(b);
  return fabric;
}

Fabric::Fabric(FabricSpec spec, std::vector<std::optional<Device>> devices)
    : spec_(std::move(spec)), devices_(std::move(devices)) {
  if (devices_.size() != spec_.boards.size()) {
    throw Error(fmt::format("fabric {}: {} devices given for its {} boards", printable(spec_.name),
                            devices_.size(), spec_.boards.size()));
  }
  open_errors_.assign(devices_.size(), "");
  open_error_kinds_.assign(devices_.size(), "");
  for (size_t b = 0; b < devices_.size(); ++b) {
    if (!devices_[b]) {
      open_errors_[b] = "not opened";
      open_error_kinds_[b] = "TransportError";
    }
  }
}

std::string Fabric::board_name(size_t board) const {
  return board < spec_.boards.size() ? printable(spec_.boards[board].name) : fmt::format("#{}", board);
}

Device* Fabric::try_device(size_t board) {
  if (board >= devices_.size()) return nullptr;
  if (devices_[board]) return &*devices_[board];
  try {
    devices_[board].emplace(Device::open(spec_.boards[board].uri));
    if (token_ != 0) devices_[board]->set_lease_token(token_);
    open_errors_[board].clear();
    open_error_kinds_[board].clear();
    return &*devices_[board];
  } catch (const std::exception& e) {
    devices_[board].reset();
    open_errors_[board] = e.what();
    open_error_kinds_[board] = kind_of(e);
    return nullptr;
  }
}

Device& Fabric::device(size_t board) {
  if (board >= devices_.size()) {
    throw Error(
        fmt::format("fabric {}: no board #{} (it has {})", printable(spec_.name), board, devices_.size()));
  }
  if (Device* d = try_device(board)) return *d;
  const std::string message = fmt::format("board {} ({}) cannot be opened: {}", board_name(board),
                                          printable(spec_.boards[board].uri), open_errors_[board]);
  if (open_error_kinds_[board] == "FormatError") throw FormatError(message);
  if (open_error_kinds_[board] == "TransportError") throw TransportError(message);
  throw Error(message);
}

std::vector<DeviceCapabilities> Fabric::capabilities() const {
  std::vector<DeviceCapabilities> caps;
  caps.reserve(devices_.size());
  for (const std::optional<Device>& d : devices_)
    caps.push_back(d ? d->capabilities() : DeviceCapabilities::reference());
  return caps;
}

void Fabric::set_lease_token(uint32_t token) {
  if (token == 0) throw Error("a lease token must not be 0 (0 means free)");
  token_ = token;
  std::string failed;
  for (size_t b = 0; b < devices_.size(); ++b) {
    if (!devices_[b]) continue;  // gets it when it opens
    try {
      devices_[b]->set_lease_token(token);
    } catch (const std::exception& e) {
      failed += fmt::format("\n  board {}: {}", board_name(b), e.what());
    }
  }
  if (!failed.empty()) throw Error("the lease token could not be set on every board:" + failed);
}

std::vector<Problem> Fabric::validate(const std::vector<BoardAssignment>& schedules) const {
  return validate_fabric(spec_, capabilities(), schedules);
}

FabricCommitReport Fabric::commit(const std::vector<BoardAssignment>& schedules,
                                  const FabricCommitOptions& options) {
  std::vector<Problem> problems = validate(schedules);
  if (!problems.empty()) throw ValidationError(std::move(problems));
  if (options.at && *options.at < BoardTime())
    throw Error(fmt::format("commit time {} ps is negative; nothing was written", to_ps(*options.at)));

  const size_t n = schedules.size();
  FabricCommitReport report;
  for (const BoardAssignment& a : schedules) {
    BoardCommitReport r;
    r.board = a.board;
    r.name = spec_.boards[a.board].name;
    r.generation = a.schedule.generation;
    report.boards.push_back(std::move(r));
  }
  auto fail = [&](size_t i, const std::string& kind, const std::string& message) {
    BoardCommitReport& r = report.boards[i];
    r.error = r.error.empty() ? message : r.error + "; " + message;
    if (r.error_kind.empty()) r.error_kind = kind;
    if (report.error.empty()) report.error = fmt::format("board {}: {}", board_name(r.board), message);
  };

  // 1. Every board reachable, its counters and clock read: nothing written.
  std::vector<Device*> dev(n, nullptr);
  std::vector<Status> before(n);
  std::vector<std::string> unlocked;
  for (size_t i = 0; i < n; ++i) {
    const size_t b = schedules[i].board;
    dev[i] = try_device(b);
    if (!dev[i]) {
      fail(i, open_error_kinds_[b], "cannot be opened: " + open_errors_[b]);
      continue;
    }
    try {
      before[i] = dev[i]->status();
      if (spec_.sync_master && *spec_.sync_master == b) continue;
      const SyncStatus sync = dev[i]->sync_status();
      if (!sync.locked) unlocked.push_back(fmt::format("{} ({})", board_name(b), describe(sync)));
    } catch (const std::exception& e) {
      fail(i, kind_of(e), e.what());
    }
  }
  if (!report.error.empty()) {
    report.error += "; nothing was written";
    return report;
  }
  if (!unlocked.empty()) {
    std::string list;
    for (const std::string& u : unlocked) list += "\n  " + u;
    if (!options.allow_unlocked) {
      throw Error(fmt::format(
          "fabric {}: {} board clock{} not locked to the reference, so one commit time would not be one "
          "instant; nothing was written (wait for the lock, or allow unlocked clocks):{}",
          printable(spec_.name), unlocked.size(), unlocked.size() == 1 ? " is" : "s are", list));
    }
    for (const std::string& u : unlocked)
      report.warnings.push_back("clock not locked, committed anyway: " + u);
  }

  // 2. Stage and verify everywhere. A failure leaves at most inactive banks
  // written, which nothing runs: the boards are unchanged.
  for (size_t i = 0; i < n; ++i) {
    try {
      dev[i]->stage(schedules[i].schedule);
      report.boards[i].staged = true;
    } catch (const std::exception& e) {
      fail(i, kind_of(e), std::string("staging failed: ") + e.what());
      report.error += "; nothing was armed (banks staged so far are inactive and run nothing)";
      return report;
    }
  }

  // 3. One time T for all, after the last stage.
  int64_t latest = 0;
  int64_t tick = 1;
  size_t latest_board = 0;
  for (size_t i = 0; i < n; ++i) {
    try {
      const int64_t t = to_ps(dev[i]->time());
      if (t >= latest) {
        latest = t;
        latest_board = schedules[i].board;
      }
      tick = std::max(tick, dev[i]->capabilities().tick_ps());
    } catch (const std::exception& e) {
      fail(i, kind_of(e), std::string("reading the board's time failed: ") + e.what());
      report.error += "; nothing was armed (the staged banks are inactive)";
      return report;
    }
  }
  int64_t commit_ps = 0;
  if (options.at) {
    commit_ps = to_ps(*options.at);
    if (commit_ps <= latest) {
      throw Error(
          fmt::format("commit time {} ps is not after board {}'s time {} ps; nothing was armed (the "
                      "staged banks are inactive)",
                      commit_ps, board_name(latest_board), latest));
    }
  } else if (__builtin_add_overflow(latest, to_ps(spec_.commit_margin), &commit_ps)) {
    throw Error(fmt::format("board {}'s time {} ps plus the commit margin overflows; nothing was armed",
                            board_name(latest_board), latest));
  } else if (commit_ps > INT64_MAX - tick) {
    throw Error(fmt::format("board {}'s time {} ps plus the commit margin overflows; nothing was armed",
                            board_name(latest_board), latest));
  } else {
    commit_ps = round_up(commit_ps, tick);
  }

  // 4. Arm everywhere for T; on a failure take back every arm.
  for (size_t i = 0; i < n; ++i) {
    try {
      dev[i]->commit(CommitAt::at(board_time_ps(commit_ps)));
      report.boards[i].armed = true;
      report.boards[i].outcome = BoardOutcome::kArmed;
    } catch (const std::exception& e) {
      const std::string kind = kind_of(e);
      fail(i, kind, std::string("arming failed: ") + e.what());
      for (size_t j = 0; j < i; ++j) settle(report.boards[j], *dev[j], before[j]);
      // Its COMMIT may have reached the board before the failure did.
      if (!changed_nothing(kind)) settle(report.boards[i], *dev[i], before[i]);
      const bool any =
          std::any_of(report.boards.begin(), report.boards.end(), [](const BoardCommitReport& r) {
            return r.armed || r.cancelled || r.outcome != BoardOutcome::kUnchanged;
          });
      report.commit_time = any ? board_time_ps(commit_ps) : BoardTime();
      std::string switched;
      for (const BoardCommitReport& r : report.boards) {
        if (r.outcome == BoardOutcome::kSwitched)
          switched += (switched.empty() ? "" : ", ") + printable(r.name);
      }
      report.error += switched.empty() ? "; the armed boards were cancelled in time"
                                       : "; too late to cancel on " + switched + ", which switched";
      return report;
    }
  }
  report.commit_time = board_time_ps(commit_ps);
  report.committed = true;
  if (!options.wait_for_swap) return report;

  // 5. Wait until every board shows the swap at or after T.
  const auto deadline = std::chrono::steady_clock::now() + options.swap_timeout;
  std::vector<size_t> waiting(n);
  std::vector<std::string> last_error(n);
  for (size_t i = 0; i < n; ++i) waiting[i] = i;
  while (!waiting.empty()) {
    std::vector<size_t> still;
    for (size_t i : waiting) {
      BoardCommitReport& r = report.boards[i];
      try {
        Status s = dev[i]->status();
        if (s.swaps != before[i].swaps) s = status_after_swap(*dev[i], s, r.generation);
        if (s.swaps != before[i].swaps) {
          if (s.generation == r.generation && s.last_swap >= board_time_ps(commit_ps)) {
            r.outcome = BoardOutcome::kSwitched;
            r.swap_time = s.last_swap;
          } else {
            r.outcome = BoardOutcome::kUnknown;
            fail(i, "Error",
                 fmt::format("the board swapped to generation {} at {} ps, not to this commit's {} at {} ps",
                             s.generation, to_ps(s.last_swap), r.generation, commit_ps));
            report.committed = false;
          }
        } else if (!s.commit_pending && !s.verify_busy) {
          r.outcome = BoardOutcome::kUnchanged;
          fail(i, "Error",
               "the armed commit was dropped before its swap (a STOP or a cancel came in between)");
          report.committed = false;
        } else {
          still.push_back(i);
        }
      } catch (const std::exception& e) {
        last_error[i] = e.what();
        still.push_back(i);
      }
    }
    waiting.swap(still);
    if (waiting.empty() || std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  for (size_t i : waiting) {
    report.warnings.push_back(
        fmt::format("board {}: armed for {} ps, but its swap was not seen within {} ms{}{}",
                    board_name(report.boards[i].board), commit_ps, options.swap_timeout.count(),
                    last_error[i].empty() ? " (an event-triggered step holds a board until its trigger)"
                                          : " (last status read: ",
                    last_error[i].empty() ? "" : last_error[i] + ")"));
  }
  return report;
}

std::vector<BoardCommitReport> Fabric::cancel(const std::vector<size_t>& boards) {
  std::vector<BoardCommitReport> out;
  for (size_t b : boards) {
    BoardCommitReport r;
    r.board = b;
    r.name = b < spec_.boards.size() ? spec_.boards[b].name : std::string();
    Device* d = try_device(b);
    if (!d) {
      r.outcome = BoardOutcome::kUnknown;
      r.error = b < spec_.boards.size() ? "cannot be opened: " + open_errors_[b]
                                        : fmt::format("no board #{} in the fabric", b);
      r.error_kind = b < spec_.boards.size() ? open_error_kinds_[b] : "Error";
      out.push_back(std::move(r));
      continue;
    }
    try {
      const CancelOutcome c = d->cancel();
      r.cancelled = c == CancelOutcome::kCancelled;
      const Status s = d->status();
      r.generation = s.generation;
      if (c == CancelOutcome::kAlreadySwapped) {
        r.outcome = BoardOutcome::kSwitched;
        r.swap_time = s.last_swap;
      }
    } catch (const std::exception& e) {
      r.outcome = BoardOutcome::kUnknown;
      r.error = e.what();
      r.error_kind = kind_of(e);
    }
    out.push_back(std::move(r));
  }
  return out;
}

FabricTriggerReport Fabric::trigger(const std::vector<size_t>& boards, std::optional<BoardTime> at,
                                    const std::vector<std::optional<uint32_t>>& steps) {
  FabricTriggerReport report;
  const size_t n = boards.size();
  report.boards = boards;
  report.board_boundary.assign(n, std::nullopt);
  report.board_errors.assign(n, "");
  auto fail = [&](size_t i, const std::string& message) {
    report.board_errors[i] = message;
    if (report.error.empty()) report.error = fmt::format("board {}: {}", report.board_names[i], message);
  };
  std::vector<Device*> dev(n, nullptr);
  for (size_t i = 0; i < n; ++i) {
    report.board_names.push_back(board_name(boards[i]));
    if (boards[i] >= spec_.boards.size()) {
      fail(i, fmt::format("no board #{} in the fabric", boards[i]));
      continue;
    }
    for (size_t j = 0; j < i; ++j) {
      if (boards[j] == boards[i]) fail(i, "given twice");
    }
    dev[i] = try_device(boards[i]);
    if (!dev[i]) fail(i, "cannot be opened: " + open_errors_[boards[i]]);
  }
  if (n == 0) report.error = "no boards to trigger";
  if (!steps.empty() && steps.size() != n && report.error.empty())
    report.error = fmt::format("steps: {} given for {} boards (none, or one per board)", steps.size(), n);
  if (!report.error.empty()) {
    report.error += "; no board was triggered";
    return report;
  }
  // Everything that can wait goes before the time is chosen (lease, trigger
  // counts, capabilities), so that between the last time read and the last
  // write only the two trigger writes per board remain.
  std::vector<Device::TriggerTicket> tickets(n);
  int64_t latest = 0, tick = 1, last_read = 0;
  for (size_t i = 0; i < n; ++i) {
    try {
      tickets[i] = dev[i]->trigger_prepare(steps.empty() ? std::nullopt : steps[i]);
      tick = std::max(tick, dev[i]->capabilities().tick_ps());
    } catch (const std::exception& e) {
      fail(i, e.what());
      report.error += "; no board was triggered";
      return report;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    try {
      last_read = to_ps(dev[i]->time());
      latest = std::max(latest, last_read);
    } catch (const std::exception& e) {
      fail(i, std::string("reading the board's time failed: ") + e.what());
      report.error += "; no board was triggered";
      return report;
    }
  }
  if (at) {
    report.at = *at;
  } else {
    int64_t margin = to_ps(spec_.trigger_margin);
    for (const picoseconds w : windows_)
      margin = std::max(margin, to_ps(w) > INT64_MAX / 2 ? INT64_MAX : 2 * to_ps(w));
    report.margin = picoseconds(margin);
    int64_t t = 0;
    if (__builtin_add_overflow(latest, margin, &t) || t > INT64_MAX - tick) {
      report.error = fmt::format(
          "the latest board time {} ps plus the trigger margin overflows; no board was "
          "triggered",
          latest);
      return report;
    }
    report.at = board_time_ps(round_up(t, tick));
  }
  size_t written = 0;
  for (size_t i = 0; i < n; ++i) {
    try {
      dev[i]->trigger_write_at(report.at, tickets[i].jump);
      written = i + 1;
    } catch (const std::exception& e) {
      fail(i, e.what());
    }
  }
  // The window is measured on the board read last, so one clock is used.
  if (written == n) {
    try {
      report.window = dev[n - 1]->time() - board_time_ps(last_read);
      windows_.push_back(*report.window);
      if (windows_.size() > kWindowsKept) windows_.erase(windows_.begin());
    } catch (const std::exception& e) {
      fail(n - 1, std::string("reading the board's time failed: ") + e.what());
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (!report.board_errors[i].empty()) continue;
    try {
      if (const std::optional<BoardTime> b = dev[i]->trigger_resolved(tickets[i]))
        report.board_boundary[i] = *b;
    } catch (const std::exception& e) {
      fail(i, e.what());
    }
  }
  if (!report.error.empty()) return report;
  const std::optional<BoardTime> first = report.board_boundary[0];
  const bool same = std::all_of(report.board_boundary.begin(), report.board_boundary.end(),
                                [&](const std::optional<BoardTime>& v) { return v == first; });
  report.ok = same && first.has_value();
  if (report.ok) {
    report.boundary = first;
    return report;
  }
  if (same) {
    report.error =
        "no board had an event step waiting: the trigger is latched on every board for its next one";
    return report;
  }
  std::string list;
  for (size_t i = 0; i < n; ++i) {
    list += fmt::format("{}{} {}", i ? ", " : "", report.board_names[i],
                        report.board_boundary[i] ? fmt::format("{} ps", to_ps(*report.board_boundary[i]))
                                                 : std::string("latched"));
  }
  report.error = "the boards did not resolve one boundary: " + list;
  if (report.window && !at && *report.window >= report.margin) {
    report.error += fmt::format(
        "; telling every board took {} ps of board time, more than the {} ps margin, so the last "
        "were told a time already past (the next trigger's margin is twice that window; raise "
        "trigger_margin if this recurs)",
        to_ps(*report.window), to_ps(report.margin));
  }
  return report;
}

std::vector<FabricBoardState> Fabric::status() {
  std::vector<FabricBoardState> out;
  for (size_t b = 0; b < devices_.size(); ++b) {
    FabricBoardState st;
    st.board = b;
    st.name = spec_.boards[b].name;
    Device* d = try_device(b);
    if (!d) {
      st.error = open_errors_[b];
      out.push_back(std::move(st));
      continue;
    }
    try {
      st.status = d->status();
      st.sync = d->sync_status();
      st.lease = d->lease();
      st.reachable = true;
    } catch (const std::exception& e) {
      st.error = e.what();
    }
    out.push_back(std::move(st));
  }
  return out;
}

}  // namespace lightrail
