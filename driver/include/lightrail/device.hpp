// One board: its capabilities, schedule upload (stage + commit + wait for
// the swap), status and control. The same calls work on sim:// and xrt://
// boards. Times are typed (lightrail/time.hpp): BoardTime for points of the
// board's synchronised time, picoseconds for its durations, and
// std::chrono::milliseconds for host-side waits.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lightrail/capabilities.hpp"
#include "lightrail/export.hpp"
#include "lightrail/schedule.hpp"
#include "lightrail/sync.hpp"
#include "lightrail/time.hpp"
#include "lightrail/transport.hpp"

namespace lightrail {

// When a staged schedule takes over.
struct CommitAt {
  std::optional<BoardTime> time;  // nullopt: at the next epoch boundary

  // At the running schedule's next epoch boundary (at once when idle).
  static CommitAt epoch() { return {}; }
  // At the first step boundary at or after t (exactly t when idle).
  static CommitAt at(BoardTime t) { return {t}; }
};

// What Device::commit() armed, for Device::wait_for_swap() to wait on.
struct CommitTicket {
  std::string uri;          // the board it was committed to
  uint32_t generation = 0;  // of the committed schedule
  // The board time the board was told (the time asked, rounded to the
  // board's tick); nullopt for CommitAt::epoch().
  std::optional<BoardTime> at;
  uint32_t swaps_before = 0;  // SWAPS before the commit: the swap waited for is a later one
};

// A swap the board made: when, and to which schedule.
struct Swap {
  BoardTime time;           // LAST_SWAP: the boundary the new bank took over at
  uint32_t generation = 0;  // GENERATION of the bank it took over
};

struct Status {
  bool running = false;
  int active_bank = 0;
  bool commit_pending = false;
  bool verify_busy = false;
  bool waiting_trigger = false;
  bool cancelled = false;           // the last commit was dropped by a cancel before its swap
  std::vector<std::string> errors;  // ERROR flags set, by name ("COMMIT_LATE")
  uint64_t steps = 0;               // steps executed
  uint32_t missed = 0;              // boundaries served late
  uint32_t cur_step = 0;
  uint32_t cur_config = 0;
  uint32_t generation = 0;  // of the active bank
  uint32_t epochs = 0;
  uint32_t swaps = 0;
  BoardTime last_swap;             // the boundary of the last swap (the epoch before any)
  uint32_t triggers = 0;           // triggers that ended an event step
  BoardTime last_trigger;          // the boundary the last of them resolved
  uint32_t last_trigger_step = 0;  // the step that boundary went into (TRIGGERED_STEP)
  BoardTime board_time;            // board time when status was read
};

// The board's health inputs (HEALTH) and what its platform tells
// (temperature, nullopt where it tells nothing).
struct HealthInputs {
  bool mmcm_locked = false;
  bool link_up = false;
  std::optional<double> temperature_c;
};

// Who may write the board (docs/driver.md, "One writer at a time").
struct LeaseInfo {
  uint32_t owner = 0;                // token holding the lease; 0: free
  bool mine = false;                 // that token is this Device's
  BoardTime expires;                 // board time the lease runs out (when owner != 0)
  std::chrono::milliseconds ttl{0};  // lifetime a claim or renewal gives
};

// What a cancel found.
enum class CancelOutcome {
  kCancelled,       // the commit was dropped before its swap: the old schedule runs on
  kAlreadySwapped,  // too late: the swap had begun (it is in Status::last_swap)
  kNothingPending,  // no commit was verifying or waiting
};

// Names of the ERROR flags set in value, in bit order.
LIGHTRAIL_EXPORT std::vector<std::string> error_flag_names(uint32_t value);

// Thread safety: a Device is not thread-safe. Use each Device from one
// thread at a time (serialise its calls, as the Python binding does with a
// lock of its own): its calls are sequences of register accesses on one
// connection (a stage's writes and read-back, a commit's writes and
// verdict) that must not interleave. Different Devices, on one board or on
// many, may be used from different threads at once: each has its own
// connection, and the board's lease arbitrates between writers. A Device may
// be moved to another thread between calls.
class LIGHTRAIL_EXPORT Device {
 public:
  static constexpr std::chrono::milliseconds kDefaultLeaseTtl{10000};

  // sim://HOST:PORT/BOARD or xrt://...; reads and checks the capability block
  // and the tune table. Throws TransportError, FormatError (a malformed URI,
  // an unknown scheme, a bad capability block), Error (no XRT in this build).
  static Device open(const std::string& uri);
  // Over any transport (tests use an in-memory board).
  explicit Device(std::unique_ptr<Transport> transport);
  // Releases the lease if this Device holds it (a pending commit stays
  // armed: the board keeps its bank locked until the swap).
  ~Device();
  // A moved-from Device may only be destroyed or assigned to. Assigning to
  // a Device that holds its board's lease releases the lease first, as its
  // destructor would (vector<Device>::erase, optional<Device> reassigned).
  Device(Device&& other) noexcept;
  Device& operator=(Device&& other) noexcept;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // One writer at a time. Every call that changes the board (stage, commit,
  // cancel, trigger, write_tune_table, sync_calibrate, sync_set_mode) first
  // claims or renews the lease with this Device's token and throws
  // LeaseError, having changed nothing, when another writer holds it. stop()
  // needs no lease: it is the safety action anyone may take. Status readers
  // need none.
  void claim(std::chrono::milliseconds ttl = kDefaultLeaseTtl);
  // Takes the lease whoever holds it: for a stale lease whose holder is
  // known to be gone. The previous holder's commits are refused from then.
  void break_lease(std::chrono::milliseconds ttl = kDefaultLeaseTtl);
  void release();  // no-op when this Device does not hold it
  LeaseInfo lease();
  uint32_t lease_token() const { return token_; }
  // A token of the caller's choosing (non-zero), e.g. kept by a daemon
  // across restarts so it can recognise its own lease.
  void set_lease_token(uint32_t token);

  const DeviceCapabilities& capabilities() const { return caps_; }
  const BuildId& build_id() const { return caps_.build; }
  // The UUID of the image the board runs, as its platform reports it (XRT:
  // the xclbin; sim://: the co-simulated model); nullopt if it reports none.
  std::optional<std::string> image_uuid() { return transport_->image_uuid(); }
  HealthInputs health_inputs();
  // The register path's self-test: under the lease, writes patterns to
  // SCRATCH (a register with no effect) and reads each back, then restores
  // it; reads the capability block again and compares it with the one read
  // at open. Touches nothing a running schedule or the servo uses.
  // VerifyError naming the register, pattern and word read; LeaseError when
  // another writer holds the board. Returns the patterns checked.
  int self_test();
  // Clears the sticky ERROR and SYNC_ERROR flags set now (write-1-to-clear,
  // under the lease) and returns their names ("ERROR.MISSED_DEADLINE",
  // "SYNC_ERROR.REF_LOST"). A cause still present raises its flag again.
  std::vector<std::string> clear_sticky_errors();
  uint32_t board_id() const { return board_id_; }
  const std::string& uri() const { return uri_; }

  // Validates (ValidationError: nothing written), writes the image into the
  // inactive bank, reads it back and checks it and its CRC (VerifyError).
  // Refused (Error, nothing written) while a commit verifies or waits for
  // its swap: the board locks that bank; cancel() first.
  void stage(const Schedule& schedule);
  // Makes the bank this Device staged active at `when`, as a compare-and-
  // swap: the board swaps only if the bank still holds exactly that image
  // (COMMIT_CRC). Waits until the board has verified it (at most
  // commit_timeout()), then returns the ticket wait_for_swap() takes.
  // CommitError names the ERROR flags the board raised (they are cleared);
  // Error if nothing was staged by this Device or `when` is negative or
  // beyond the board's horizon (nothing written).
  CommitTicket commit(CommitAt when);
  // Waits until the board has swapped to the ticket's schedule and returns
  // the swap: its board time (for CommitAt::at(t): the first step boundary
  // at or after t, exactly t on an idle board) and generation. Polls
  // status(), sleeping in host time no longer than the board time left
  // before the commit time. TimeoutError when the swap has not come within
  // `timeout` of host time (a co-simulated board's time runs slower than
  // the host's: allow for it); CommitError when the board dropped the
  // commit (a cancel or a STOP) or swapped to another generation; Error
  // for a ticket of another board.
  Swap wait_for_swap(const CommitTicket& ticket, std::chrono::milliseconds timeout);
  // Drops a commit that verifies or waits for its swap, if it is still in
  // time; the running schedule runs on.
  CancelOutcome cancel();

  Status status();
  BoardTime time();  // board time now
  // Advances an event-triggered step. With `step`, a jump: the step after
  // the event step is `step` instead of the next one (phases in any order).
  // A step outside the running schedule is refused before anything is
  // written (FormatError naming "step"); the board refuses it as well
  // (ERROR.BAD_TRIGGER_STEP) should the schedule change meanwhile.
  void trigger(std::optional<uint32_t> step = std::nullopt);
  // Advances the event step at the first allowed boundary at or after board
  // time t: exactly t when it is past the step's minimum end and far enough
  // ahead for the tuning (boards told one t take one boundary). Returns the
  // boundary's board time once the board has resolved it (an event step was
  // waiting), nullopt when the trigger is latched for a later event step.
  // `step`: a jump, as for trigger().
  std::optional<BoardTime> trigger_at(BoardTime t, std::optional<uint32_t> step = std::nullopt);
  // trigger_at in three parts, so that a fabric tells many boards one t
  // within a short window of board time: prepare (claims the lease, reads
  // the trigger count, checks and writes a jump's step) before t is chosen,
  // write (the two writes alone) inside the window, resolved (reads the
  // result) after it.
  struct TriggerTicket {
    uint32_t triggers_before = 0;
    bool jump = false;
  };
  TriggerTicket trigger_prepare(std::optional<uint32_t> step = std::nullopt);
  void trigger_write_at(BoardTime t, bool jump = false);  // jump: ticket.jump
  std::optional<BoardTime> trigger_resolved(const TriggerTicket& ticket);
  void stop();  // stop at the next step boundary, all gates low
  // Writes a calibration table (ticks, a*wavelengths+b) and uses it from now.
  // BoardBusyError (nothing written) while a schedule runs or a commit is
  // under way: the board locks the table then.
  void write_tune_table(const std::vector<uint16_t>& tune_ticks);

  // The clock-synchronisation servo (docs/clock-sync.md) and the link's
  // message engine, read in one block (SYNC_CTRL .. SYNC_EXCHANGE_PERIOD).
  SyncStatus sync_status();
  // The board's role on its sync link: writes SYNC_CTRL once with exactly
  // the mode's bits (sync_ctrl_word) under the lease and reads it back
  // (VerifyError naming the register and both words). Enabling the servo
  // may step board time once (its coarse time set, SYNC_ERROR.TIME_STEPPED).
  void sync_set_mode(SyncMode mode);
  // The calibration the servo uses now (SYNC_CAL_*).
  SyncCalibration sync_calibration();
  // Checks every value against the register map's limits first (FormatError
  // naming each bad field; nothing written), writes SYNC_CAL_* and reads them
  // back (VerifyError naming the register). Works with or without a
  // reference link: the servo uses the values on its next exchange.
  void sync_calibrate(const SyncCalibration& calibration);
  // SYNC_EXCHANGE_PERIOD, under the lease: the exchange rate of every link
  // this board serves (sync_exchange_period_cycles turns a rate into one).
  // FormatError naming "exchange_period_cycles" outside DDMTD_N + 1 ..
  // SYNC_EXCHANGE_PERIOD_MAX (nothing written); VerifyError when it reads
  // back otherwise. The next Sync leaves at the new period.
  void sync_set_exchange_period(uint32_t cycles);

  // How long commit() polls VERIFY_BUSY before giving up (host time).
  void set_commit_timeout(std::chrono::milliseconds timeout) { commit_timeout_ = timeout; }
  std::chrono::milliseconds commit_timeout() const { return commit_timeout_; }

 private:
  uint64_t read64(uint32_t lo_reg);
  void read_capabilities();
  void take_lease(uint32_t reg, std::chrono::milliseconds ttl);
  void ensure_lease();                  // claim or renew before a change
  void write_jump_step(uint32_t step);  // checks a jump's step, then writes TRIGGER_STEP
  [[noreturn]] void throw_lease_lost(const std::string& what);
  void release_quietly() noexcept;  // the destructor's release
  BoardTime from_ticks(uint64_t ticks) const;

  std::unique_ptr<Transport> transport_;
  std::string uri_;
  DeviceCapabilities caps_;
  uint32_t board_id_ = 0;
  std::chrono::milliseconds commit_timeout_{5000};
  uint32_t token_ = 0;
  bool holds_lease_ = false;
  // Host time of the last claim: renewed once half the lifetime has passed
  // (board time never runs ahead of host time by more than ppm), so a
  // change costs no extra bus write while the lease is fresh.
  std::chrono::steady_clock::time_point claimed_at_;
  std::chrono::milliseconds lease_ttl_ = kDefaultLeaseTtl;
  struct Staged {
    uint32_t bank = 0;
    uint32_t crc = 0;
    uint32_t generation = 0;
  };
  std::optional<Staged> staged_;  // what this Device wrote and read back
};

}  // namespace lightrail
