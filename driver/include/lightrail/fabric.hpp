// A fabric of boards: which board port feeds which switch port on which rail
// (the fabric file, docs/fabric.md), checking a set of board schedules
// against each other before anything is written, one all-or-nothing commit
// across boards at one synchronised time, and one timed trigger for many
// boards. Times are typed as in Device (lightrail/time.hpp): BoardTime for
// points of the boards' synchronised time, picoseconds for margins and
// windows, std::chrono::milliseconds for host-side waits.
// Thread safety: the spec, assignments and reports are values (safe from
// any thread on distinct objects, readable from several at once); Fabric
// itself is not thread-safe (below).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lightrail/device.hpp"
#include "lightrail/export.hpp"
#include "lightrail/time.hpp"
#include "lightrail/validate.hpp"

namespace lightrail {

enum class SwitchKind {
  kAwgr,  // tunable lasers: switch port s on wavelength w reaches (s + w) mod radix
  kOcs,   // optical circuit switch: a board port's value is the output switch port
  // A rail wider than one board's values reach (> WAVELENGTHS ports): a
  // 3-stage Clos of board-controlled PORTS x PORTS switches (docs/fabric.md,
  // "Rails wider than one switch"). radix = the rail's ports, a multiple of
  // PORTS; radix / PORTS ingress and egress boards, PORTS middle boards.
  kClos,
};

// A board's stage in a Clos rail; kNone on an AWGR or OCS rail.
enum class ClosStage { kNone, kIngress, kMiddle, kEgress };
LIGHTRAIL_EXPORT const char* to_string(ClosStage s);

struct FabricRail {
  int rail = 0;
  SwitchKind kind = SwitchKind::kAwgr;
  int radix = 0;  // switch ports
};

struct FabricBoard {
  std::string name;  // unique; what every message calls the board
  std::string uri;   // sim://... or xrt://...
  int rail = 0;
  // switch_ports[p]: the switch port board port p feeds; kDark: not cabled.
  // Empty on a Clos rail, whose cabling the stages imply.
  std::vector<int> switch_ports;
  // On a Clos rail: the stage and the switch within it. Ingress i takes rail
  // ports i*PORTS+p on its port p, its value k sends to middle k (arriving
  // on middle port i); middle k's value j sends to egress j (arriving on
  // egress port k); egress j's value q leaves on rail port j*PORTS+q.
  ClosStage stage = ClosStage::kNone;
  int stage_index = 0;
  // The board whose clock this one follows (a boundary clock's parent);
  // nullopt: the sync master itself (for every other board, the fabric file
  // defaults it to the sync master).
  std::optional<size_t> sync_parent;
  // The fixed delays and asymmetry of this board's link to its sync parent
  // (SYNC_CAL_*, as `lightrail sync calibrate` writes them); nullopt: the
  // file gives none and `fabric sync` leaves the board's own. Never on the
  // sync master, which has no reference to calibrate against.
  std::optional<SyncCalibration> sync_calibration;
};

struct LIGHTRAIL_EXPORT FabricSpec {
  std::string name = "fabric";
  std::vector<FabricRail> rails;
  std::vector<FabricBoard> boards;
  // The board whose clock the others follow (its own servo is not locked to
  // anything, so the lock check skips it); empty: none is the reference.
  std::optional<size_t> sync_master;
  // Commit time = the latest board time read + commit_margin: room to arm
  // every board before any of them reaches it. The fabric file's
  // commit_margin_us / commit_margin_ps.
  picoseconds commit_margin = std::chrono::milliseconds(2);
  // Fabric trigger time = latest board time + trigger_margin.
  picoseconds trigger_margin = std::chrono::microseconds(20);

  const FabricRail& rail(int r) const;  // std::out_of_range naming r
  // Board index by name, nullopt if none.
  std::optional<size_t> board_index(const std::string& name) const;
  // Hops from the sync master along sync_parent (0 for the master; nullopt
  // when there is no sync master). The fabric file refuses more than
  // SYNC_MAX_CHAIN_HOPS, the longest chain the servo is verified for.
  std::optional<uint32_t> sync_hops(size_t board) const;
};

// Parses and checks a fabric file (unknown fields, duplicate board names,
// two board ports on one switch port, a switch port beyond the radix, ...):
// FormatError naming every offending field ("boards[2].switch_ports[5]").
// `what` names the text in messages (a file name).
LIGHTRAIL_EXPORT FabricSpec parse_fabric(const std::string& text, const std::string& what = "fabric");
LIGHTRAIL_EXPORT FabricSpec read_fabric_file(const std::string& path);
// The fabric file parse_fabric reads back to the same spec.
LIGHTRAIL_EXPORT std::string to_json_text(const FabricSpec& spec);

// One board's part of a fabric-wide change.
struct BoardAssignment {
  size_t board = 0;  // index into FabricSpec::boards
  Schedule schedule;
};

// Every problem of a set of schedules taken together, not just the first
// (where = "b3.steps[2].port 5"); empty means they may be committed:
// - each schedule against its board's capabilities (validate());
// - each board at most once, and known to the spec;
// - per step, on each rail: OCS maps one-to-one (no output switch port
//   taken twice), AWGR receivers at most one sender per wavelength (one
//   wavelength from one input reaches one output, so two senders can only
//   meet on different wavelengths: at most one sender per receiver); a port
//   driven light-on must be cabled, and its destination must be a switch
//   port of a board in this set (a port of a board left out belongs to
//   someone else's schedule);
// - on a Clos rail, per step: each stage maps one-to-one, a lit circuit is
//   lit on through the next stage's board (in this set) to a rail port, and
//   a lit middle or egress input is fed by the stage before it;
// - boards on one rail have the same step program (count, durations,
//   event-triggered steps, cyclic), so they switch on the same boundaries.
// caps[i] are the capabilities of spec.boards[i].
LIGHTRAIL_EXPORT std::vector<Problem> validate_fabric(const FabricSpec& spec,
                                                      const std::vector<DeviceCapabilities>& caps,
                                                      const std::vector<BoardAssignment>& schedules);

// What a fabric commit did to one board. Only what was observed is claimed.
enum class BoardOutcome {
  kUnchanged,  // nothing armed, or armed and cancelled in time: the old schedule runs on
  kArmed,      // armed for the commit time; the swap has not been confirmed yet
  kSwitched,   // confirmed: swapped to the new generation
  kUnknown,    // the board could not be asked (error says why)
};
LIGHTRAIL_EXPORT const char* to_string(BoardOutcome o);

struct BoardCommitReport {
  size_t board = 0;
  std::string name;         // spec.boards[board].name
  uint32_t generation = 0;  // of the schedule given for it
  BoardOutcome outcome = BoardOutcome::kUnchanged;
  bool staged = false;
  bool armed = false;
  bool cancelled = false;
  std::optional<BoardTime> swap_time;  // when kSwitched: the board time of the swap
  std::string error;                   // what failed on this board, if anything
  // The driver exception behind `error` ("TransportError", "VerifyError",
  // "LeaseError", "BoardBusyError", "CommitError", "Error", ...); empty
  // when nothing failed.
  std::string error_kind;
};

struct FabricCommitReport {
  bool committed = false;                 // every board of the set is armed (or switched, with wait)
  BoardTime commit_time;                  // T; the epoch (0 ps) if no board was armed
  std::string error;                      // the first failure, naming the board; empty when committed
  std::vector<std::string> warnings;      // unlocked clocks let through with allow_unlocked
  std::vector<BoardCommitReport> boards;  // one per schedule, in the order given
};

struct FabricCommitOptions {
  bool allow_unlocked = false;  // warn instead of refusing a board whose clock is not locked
  bool wait_for_swap = true;    // after arming, wait until every board has swapped (kSwitched)
  std::chrono::milliseconds swap_timeout{30000};  // for wait_for_swap, in host time
  std::optional<BoardTime> at;                    // an explicit commit time instead of latest + margin
};

struct FabricTriggerReport {
  bool ok = false;                                       // every board resolved the same boundary
  BoardTime at;                                          // the time every board was told
  std::optional<BoardTime> boundary;                     // the boundary they take, when ok
  std::vector<std::optional<BoardTime>> board_boundary;  // per board given (nullopt: latched)
  std::string error;                                     // the first failure, naming the board
  std::vector<size_t> boards;                            // the boards given, in order
  std::vector<std::string> board_names;                  // their names
  std::vector<std::string> board_errors;                 // per board given: what failed ("" if nothing)
  // The margin `at` was chosen with (0 when `at` was given), and the board
  // time from the last time read to the last trigger written: a window
  // longer than the margin means some boards were told a time already past
  // and took a later boundary.
  picoseconds margin{0};
  std::optional<picoseconds> window;
};

// `fabric sync`: what one board is to be told (plan_fabric_sync) and what
// was written to it (Fabric::write_sync).
struct BoardSyncReport {
  size_t board = 0;
  std::string name;
  SyncMode mode = SyncMode::kOff;              // kReference for the sync master, kFollower otherwise
  std::optional<SyncCalibration> calibration;  // the file's; nullopt: the board's own is left as it is
  std::optional<size_t> parent;                // the board it follows (nullopt: the sync master)
  std::vector<size_t> children;                // the boards that name it as their sync_parent
  bool boundary_clock = false;                 // a parent with a parent: written as a plain follower
  std::optional<SyncMode> previous;            // the mode SYNC_CTRL held before (nullopt: unread or none)
  bool calibration_written = false;            // written and read back
  bool mode_written = false;                   // written and read back
  std::string error;                           // what failed on this board, if anything
  std::string error_kind;                      // as BoardCommitReport::error_kind
  bool written() const { return mode_written && (!calibration || calibration_written); }
};

struct FabricSyncReport {
  bool ok = false;                      // every board written and read back
  std::string error;                    // the first failure, naming the board; empty when ok
  std::vector<std::string> warnings;    // boundary clocks, servos started under a running schedule
  std::vector<BoardSyncReport> boards;  // in the order written: the sync master first, then file order
};

// The reports as the JSON `lightrail fabric commit/trigger/sync --json`
// print (docs/fabric.md), indented by `indent` spaces (-1: one line).
LIGHTRAIL_EXPORT std::string to_json_text(const FabricCommitReport& report, int indent = 2);
LIGHTRAIL_EXPORT std::string to_json_text(const FabricTriggerReport& report, int indent = 2);
LIGHTRAIL_EXPORT std::string to_json_text(const FabricSyncReport& report, int indent = 2);

// The roles and calibrations a fabric file asks for, one entry per board,
// the sync master first. FormatError naming "sync_master" when the file has
// none (no tree: nothing to realise). A board that is a sync_parent while
// having a parent (a boundary clock) cannot be realised on the reference
// board, whose top has one link engine (docs/hw-clock-sync.md): it is
// planned as a follower of its parent, and a warning in `warnings` names it.
LIGHTRAIL_EXPORT std::vector<BoardSyncReport> plan_fabric_sync(const FabricSpec& spec,
                                                               std::vector<std::string>* warnings);

struct FabricBoardState {
  size_t board = 0;
  std::string name;
  bool reachable = false;
  std::string error;  // when not reachable
  Status status;
  SyncStatus sync;
  LeaseInfo lease;
};

// The open boards of a spec. Not thread-safe: one thread at a time (it
// drives its Devices, which are not thread-safe either). Move-only.
class LIGHTRAIL_EXPORT Fabric {
 public:
  // Opens every board (Device::open). A board that cannot be opened is kept
  // closed and reported by status(); commit() and trigger() on it fail
  // naming it. Never throws for one unreachable board.
  static Fabric open(FabricSpec spec);
  // Over given devices (tests: in-memory boards); devices[i] is spec.boards[i].
  Fabric(FabricSpec spec, std::vector<std::optional<Device>> devices);

  const FabricSpec& spec() const { return spec_; }
  size_t size() const { return spec_.boards.size(); }
  // Throws Error naming the board when it could not be opened (retries the
  // open once first).
  Device& device(size_t board);
  // Capabilities of every board (reference capabilities for one that is closed).
  std::vector<DeviceCapabilities> capabilities() const;
  // The same lease token on every board (a daemon keeps it across restarts).
  void set_lease_token(uint32_t token);

  std::vector<Problem> validate(const std::vector<BoardAssignment>& schedules) const;

  // Two-phase commit: validate (ValidationError, nothing written); check
  // every board's clock is locked (Error naming them, nothing written,
  // unless allow_unlocked); stage and verify every board; T = latest board
  // time + margin (Error, nothing armed, if T is not in the future of every
  // board after staging); arm every board for T. If any stage, verify or
  // arm fails, every armed board is cancelled; a board that had already
  // swapped is reported kSwitched. Never throws for a board's failure: the
  // report says what happened on each.
  FabricCommitReport commit(const std::vector<BoardAssignment>& schedules,
                            const FabricCommitOptions& options = {});
  // Cancels whatever commit is armed on the boards given (recovery).
  std::vector<BoardCommitReport> cancel(const std::vector<size_t>& boards);

  // One timed trigger for every board given: at = latest board time +
  // margin unless given; ok when every board resolved the same boundary.
  // The margin is trigger_margin, or twice the longest window of the
  // last kWindowsKept triggers when that is longer: a host or link slower
  // than the file assumed widens it instead of splitting the boundary.
  // steps: empty, or one per board: a jump's target step (Device::trigger).
  static constexpr size_t kWindowsKept = 64;
  FabricTriggerReport trigger(const std::vector<size_t>& boards, std::optional<BoardTime> at = std::nullopt,
                              const std::vector<std::optional<uint32_t>>& steps = {});

  std::vector<FabricBoardState> status();

  // Writes every board's role (SYNC_CTRL: the sync master reference, every
  // other board follower) and, where the file gives one, its calibration
  // (SYNC_CAL_*, before the mode, so a servo starts on the right values).
  // Plans first (FormatError without a sync master, nothing opened); opens
  // every board and claims every board's lease before the first write: an
  // unreachable board or another writer's lease is reported with nothing
  // written. A failure while writing stops there: the report says which
  // boards were written (nothing is rolled back; writing again is safe).
  // Never throws for one board's failure.
  FabricSyncReport write_sync();

 private:
  FabricSpec spec_;
  // The device, opened (again) if it is closed; nullptr with open_errors_
  // saying why when it cannot be.
  Device* try_device(size_t board);
  std::string board_name(size_t board) const;

  std::vector<std::optional<Device>> devices_;
  std::vector<std::string> open_errors_;       // why a closed board could not be opened
  std::vector<std::string> open_error_kinds_;  // and the exception's kind ("TransportError", ...)
  uint32_t token_ = 0;
  std::vector<picoseconds> windows_;  // the last trigger windows, oldest first
};

}  // namespace lightrail
