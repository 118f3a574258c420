// One board: its capabilities, schedule upload (stage + commit), status and
// control. The same calls work on sim:// and xrt:// boards.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lightrail/capabilities.hpp"
#include "lightrail/schedule.hpp"
#include "lightrail/sync.hpp"
#include "lightrail/transport.hpp"

namespace lightrail {

// When a staged schedule takes over.
struct CommitAt {
  bool at_time = false;
  int64_t time_ps = 0;  // synchronised time, when at_time

  // At the running schedule's next epoch boundary (at once when idle).
  static CommitAt epoch() { return {}; }
  // At the first step boundary at or after t (exactly t when idle).
  static CommitAt at_time_ps(int64_t t) { return {true, t}; }
};

struct Status {
  bool running = false;
  int active_bank = 0;
  bool commit_pending = false;
  bool verify_busy = false;
  bool waiting_trigger = false;
  std::vector<std::string> errors;  // ERROR flags set, by name ("COMMIT_LATE")
  uint64_t steps = 0;               // steps executed
  uint32_t missed = 0;              // boundaries served late
  uint32_t cur_step = 0;
  uint32_t cur_config = 0;
  uint32_t generation = 0;  // of the active bank
  uint32_t epochs = 0;
  uint32_t swaps = 0;
  int64_t last_swap_ps = 0;
  int64_t board_time_ps = 0;
};

// Names of the ERROR flags set in value, in bit order.
std::vector<std::string> error_flag_names(uint32_t value);

class Device {
 public:
  // sim://HOST:PORT/BOARD or xrt://...; reads and checks the capability block
  // and the tune table. Throws TransportError, FormatError (bad capability
  // block), Error (unknown scheme, no XRT in this build).
  static Device open(const std::string& uri);
  // Over any transport (tests use an in-memory board).
  explicit Device(std::unique_ptr<Transport> transport);

  const DeviceCapabilities& capabilities() const { return caps_; }
  uint32_t board_id() const { return board_id_; }
  const std::string& uri() const { return uri_; }

  // Validates (ValidationError: nothing written), writes the image into the
  // inactive bank, reads it back and checks it and its CRC (VerifyError).
  void stage(const Schedule& schedule);
  // Makes the staged bank active at `when`; waits until the board has
  // verified it. CommitError names the ERROR flags the board raised (they
  // are cleared).
  void commit(CommitAt when);

  Status status();
  int64_t time_ps();  // board time now
  void trigger();     // advance an event-triggered step
  void stop();        // stop at the next step boundary, all gates low
  // Writes a calibration table (ticks, a*wavelengths+b) and uses it from now.
  void write_tune_table(const std::vector<uint16_t>& tune_ticks);

  // The clock-synchronisation servo (docs/clock-sync.md), read in one block.
  SyncStatus sync_status();
  // The calibration the servo uses now (SYNC_CAL_*).
  SyncCalibration sync_calibration();
  // Checks every value against the register map's limits first (FormatError
  // naming each bad field; nothing written), writes SYNC_CAL_* and reads them
  // back (VerifyError naming the register). Works with or without a
  // reference link: the servo uses the values on its next exchange.
  void sync_calibrate(const SyncCalibration& calibration);

  // How long commit() polls VERIFY_BUSY before giving up.
  void set_commit_timeout_ms(int ms) { commit_timeout_ms_ = ms; }

 private:
  uint64_t read64(uint32_t lo_reg);
  void read_capabilities();

  std::unique_ptr<Transport> transport_;
  std::string uri_;
  DeviceCapabilities caps_;
  uint32_t board_id_ = 0;
  int commit_timeout_ms_ = 5000;
};

}  // namespace lightrail
