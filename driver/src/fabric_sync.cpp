// `fabric sync`: the roles and calibrations of a fabric file's sync tree
// written to its boards (docs/fabric.md "Sync roles and calibration"). A
// reset loses SYNC_CTRL and SYNC_CAL_*, so this runs at every start; it is
// idempotent, so a run that failed midway is simply run again.
#include <fmt/format.h>

#include "error_kind.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/fabric.hpp"
#include "lightrail/fabric_json.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/json_text.hpp"

namespace lightrail {
namespace {

using nlohmann::json;

std::string names_of(const FabricSpec& spec, const std::vector<size_t>& boards) {
  std::string out;
  for (size_t b : boards) out += (out.empty() ? "" : ", ") + printable(spec.boards[b].name);
  return out;
}

json calibration_json(const std::optional<SyncCalibration>& c) {
  if (!c) return nullptr;
  return {
      {"delay_tx_ps", c->delay_tx_ps}, {"delay_rx_ps", c->delay_rx_ps}, {"asymmetry_ps", c->asymmetry_ps}};
}

}  // namespace

std::vector<BoardSyncReport> plan_fabric_sync(const FabricSpec& spec, std::vector<std::string>* warnings) {
  if (!spec.sync_master || *spec.sync_master >= spec.boards.size()) {
    throw FormatError(fmt::format("fabric {}", printable(spec.name)),
                      {{"sync_master",
                        "missing: `fabric sync` writes the roles of a sync tree, and this "
                        "fabric has none (name the grandmaster in sync_master)"}});
  }
  const size_t master = *spec.sync_master;
  std::vector<BoardSyncReport> plan;
  std::vector<size_t> order{master};
  for (size_t i = 0; i < spec.boards.size(); ++i) {
    if (i != master) order.push_back(i);
  }
  for (size_t i : order) {
    const FabricBoard& b = spec.boards[i];
    BoardSyncReport r;
    r.board = i;
    r.name = b.name;
    r.mode = i == master ? SyncMode::kReference : SyncMode::kFollower;
    if (i != master) {
      r.parent = b.sync_parent ? *b.sync_parent : master;
      if (*r.parent >= spec.boards.size() || *r.parent == i) {  // only in a spec built in code
        throw FormatError(
            fmt::format("fabric {}", printable(spec.name)),
            {{fmt::format("boards[{}].sync_parent", i), "names no other board of this fabric"}});
      }
      r.calibration = b.sync_calibration;
    } else if (b.sync_calibration) {
      // The file refuses this; a spec built in code may still carry one.
      throw FormatError(fmt::format("fabric {}", printable(spec.name)),
                        {{fmt::format("boards[{}].sync_calibration", i),
                          "the sync master has no reference to calibrate against"}});
    }
    for (size_t j = 0; j < spec.boards.size(); ++j) {
      if (j != master && j != i && spec.boards[j].sync_parent == i) r.children.push_back(j);
    }
    r.boundary_clock = i != master && !r.children.empty();
    if (r.boundary_clock && warnings) {
      warnings->push_back(fmt::format(
          "{} is a boundary clock (it follows {} and is the sync_parent of {}), which the reference board "
          "cannot be: its top has one link engine (docs/hw-clock-sync.md). Written as a follower of {}; "
          "on hardware {} receive no Sync frames from it (on sim:// the co-simulation models boundary "
          "clocks itself)",
          printable(b.name), printable(spec.boards[*r.parent].name), names_of(spec, r.children),
          printable(spec.boards[*r.parent].name), names_of(spec, r.children)));
    }
    plan.push_back(std::move(r));
  }
  return plan;
}

FabricSyncReport Fabric::write_sync() {
  FabricSyncReport report;
  report.boards = plan_fabric_sync(spec_, &report.warnings);  // FormatError: nothing opened
  auto fail = [&](BoardSyncReport& r, const std::string& kind, const std::string& message) {
    r.error = message;
    r.error_kind = kind;
    if (report.error.empty()) report.error = fmt::format("board {}: {}", printable(r.name), message);
  };

  // Every board reached and its lease claimed before the first write, so
  // the common failures (a board down, another writer) change nothing.
  std::vector<Device*> dev(report.boards.size(), nullptr);
  for (size_t k = 0; k < report.boards.size(); ++k) {
    BoardSyncReport& r = report.boards[k];
    dev[k] = try_device(r.board);
    if (!dev[k]) {
      fail(r, open_error_kinds_[r.board], "cannot be opened: " + open_errors_[r.board]);
      continue;
    }
    try {
      dev[k]->claim();
      const SyncStatus s = dev[k]->sync_status();
      r.previous = sync_mode_of(s);
      // The servo's first lock may step board time once: a running
      // schedule's edges would move with it (as `sync mode` warns).
      const bool starts_servo = (sync_ctrl_word(r.mode) & hwdef::SYNC_CTRL_ENABLE_MASK) != 0;
      if (starts_servo && !s.enabled && dev[k]->status().running) {
        report.warnings.push_back(
            fmt::format("{}: a schedule runs; the servo's first lock may step board time once "
                        "(SYNC_ERROR.TIME_STEPPED), moving its switch edges with it",
                        printable(r.name)));
      }
    } catch (const std::exception& e) {
      fail(r, kind_of(e), e.what());
    }
  }
  if (!report.error.empty()) {
    report.error += "; nothing was written";
    return report;
  }

  for (size_t k = 0; k < report.boards.size(); ++k) {
    BoardSyncReport& r = report.boards[k];
    try {
      if (r.calibration) {
        dev[k]->sync_calibrate(*r.calibration);
        r.calibration_written = true;
      }
      dev[k]->sync_set_mode(r.mode);
      r.mode_written = true;
    } catch (const std::exception& e) {
      fail(r, kind_of(e), e.what());
      std::vector<size_t> done, partly, not_done;
      for (const BoardSyncReport& x : report.boards)
        (x.written() ? done : x.calibration_written ? partly : not_done).push_back(x.board);
      report.error += fmt::format(
          "; written: {}{}; not written: {} (nothing is rolled back; the writes are idempotent: run it "
          "again)",
          done.empty() ? "none" : names_of(spec_, done),
          partly.empty() ? ""
                         : "; partly written (its calibration, not its mode): " + names_of(spec_, partly),
          names_of(spec_, not_done));
      return report;
    }
  }
  report.ok = true;
  return report;
}

std::string to_json_text(const FabricSyncReport& report, int indent) { return to_json(report).dump(indent); }

nlohmann::json to_json(const FabricSyncReport& report) {
  json written = json::array(), partly_written = json::array(), not_written = json::array(),
       out = json::array();
  for (const BoardSyncReport& b : report.boards) {
    (b.written() ? written : b.calibration_written ? partly_written : not_written).push_back(b.name);
    out.push_back({{"board", b.name},
                   {"index", b.board},
                   {"mode", sync_mode_name(b.mode)},
                   {"sync_ctrl", sync_ctrl_word(b.mode)},
                   {"previous", b.previous ? json(sync_mode_name(*b.previous)) : json(nullptr)},
                   {"calibration", calibration_json(b.calibration)},
                   {"boundary_clock", b.boundary_clock},
                   {"mode_written", b.mode_written},
                   {"calibration_written", b.calibration_written},
                   {"written", b.written()},
                   {"error", b.error},
                   {"error_kind", b.error_kind}});
  }
  return {{"ok", report.ok},
          {"error", report.error},
          {"warnings", report.warnings},
          {"written", written},
          {"partly_written", partly_written},
          {"not_written", not_written},
          {"boards", out}};
}

}  // namespace lightrail
