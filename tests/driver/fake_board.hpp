// An in-memory board for tests: capability block, tune memory, two banks, the
// STATUS/ERROR/CTRL behaviour the driver relies on, the lease and the token-
// carrying COMMIT/CANCEL (expiry aside: time stands still here), and the
// SYNC_* registers (read-only status set with poke(); docs/registers.md). A
// write the board refuses (SLVERR) throws TransportError, as sim:// does.
// With defer_timed_commits an at-time commit waits for its time as the
// sequencer does (time moves with advance() or ticks_per_time_read), so a
// fabric commit can be armed, cancelled, or found already swapped.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "lightrail/capabilities.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/image.hpp"
#include "lightrail/transport.hpp"

namespace lightrail::test {

class FakeBoard {
 public:
  FakeBoard() {
    namespace hw = hwdef;
    regs_[hw::REG_CAP_MAGIC] = hw::CAP_MAGIC_VALUE;
    regs_[hw::REG_CAP_VERSION] = hw::REGMAP_VERSION;
    regs_[hw::REG_CAP_PORTS] = hw::PORTS;
    regs_[hw::REG_CAP_WAVELENGTHS] = hw::WAVELENGTHS;
    regs_[hw::REG_CAP_MAX_STEPS] = hw::MAX_STEPS;
    regs_[hw::REG_CAP_MAX_CONFIGS] = hw::MAX_CONFIGS;
    regs_[hw::REG_CAP_FINE_STEPS] = hw::FINE_STEPS;
    regs_[hw::REG_CAP_CLK_PERIOD_PS] = hw::CLK_PERIOD_PS;
    regs_[hw::REG_CAP_MIN_STEP_CYCLES] = hw::MIN_STEP_CYCLES;
    regs_[hw::REG_CAP_BOARD_ID] = 5;
    const auto tune = reference_tune_ticks(hw::WAVELENGTHS, hw::TICK_PS);
    for (size_t i = 0; i < tune.size(); ++i) regs_[hw::MEM_TUNE_BASE + 4 * i] = tune[i];
    // The sync servo out of reset: disabled (DDMTD on, as the RTL's reset
    // value), no reference link (all status 0), link engine not aligned.
    regs_[hw::REG_SYNC_CTRL] = hw::SYNC_CTRL_USE_DDMTD_MASK;
    regs_[hw::REG_SYNC_KP] = hw::SYNC_DEFAULT_KP_Q16;
    regs_[hw::REG_SYNC_KI] = hw::SYNC_DEFAULT_KI_Q16;
    regs_[hw::REG_SYNC_LOCK_THRESH_PS] = hw::SYNC_DEFAULT_LOCK_THRESH_PS;
    regs_[hw::REG_SYNC_LOCK_SAMPLES] = hw::SYNC_DEFAULT_LOCK_SAMPLES;
    regs_[hw::REG_SYNC_SLEW_MAX_NS_PER_S] = hw::SYNC_DEFAULT_SLEW_MAX_NS_PER_S;
    regs_[hw::REG_SYNC_DAC_PULL_PPB] = hw::SYNC_DEFAULT_DAC_PULL_PPB;
    regs_[hw::REG_SYNC_PHASE_STEP_FS] = hw::SYNC_DEFAULT_PHASE_STEP_FS;
    regs_[hw::REG_SYNC_EXCHANGE_PERIOD] = hw::DDMTD_N + 1;
    regs_[hw::REG_SYNC_DAC] = 1u << (hw::SYNC_DAC_BITS - 1);
  }

  // Knobs.
  uint32_t active_bank = 0;
  bool running = false;
  uint32_t error = 0;
  uint32_t force_commit_error = 0;  // ERROR bits the next commit raises
  bool ignore_commits = false;      // as the sequencer does while a STOP or a commit is pending
  int verify_busy_reads = 0;        // STATUS reads that still show VERIFY_BUSY after a commit
  uint64_t time_ticks = 1000;
  uint64_t stuck_addr = ~0ull;       // writes here keep bit 0 set
  bool defer_timed_commits = false;  // an at-time commit waits (COMMIT_PENDING) until its time
  uint64_t cancel_lead_ticks = 0;    // a cancel this close to a pending swap is too late: it swaps
  uint64_t ticks_per_time_read = 0;  // board time moves on by this at every TIME_LO read
  // Called before every write reaches the board (outside its lock): a test
  // throws TransportError here to drop the connection at that write.
  std::function<void(uint64_t addr, uint32_t value)> before_write;
  // Called after a write took effect: throwing here loses its reply.
  std::function<void(uint64_t addr, uint32_t value)> after_write;
  // Called after a read was answered (outside the board's lock): a test
  // changes the board here as the hardware would between two reads.
  std::function<void(uint64_t addr)> after_read;
  // Observations.
  std::vector<uint64_t> write_log;  // every written address
  int commits = 0;
  int triggers = 0;
  int jumps = 0;           // triggers with CTRL.TRIGGER_JUMP (plain or timed)
  uint32_t jump_step = 0;  // TRIGGER_STEP when the last of them came
  int stops = 0;
  uint32_t swaps = 0;
  uint32_t generation = 0;
  uint32_t commit_mode = 0;
  uint64_t commit_time = 0;
  uint32_t commit_crc = 0;
  bool pending = false;  // a verified commit waits for its swap (set by a test)
  uint32_t lease_owner = 0;
  int cancels = 0;
  bool waiting_event = false;  // an event step waits: a timed trigger resolves at once
  uint64_t trigger_time = 0;   // TRIGGER_TIME_HI:LO
  uint64_t triggered_at = 0;
  uint32_t trigger_count = 0;

  static uint64_t bank_base(uint32_t bank) { return bank ? hwdef::MEM_BANK1_BASE : hwdef::MEM_BANK0_BASE; }
  static bool in_bank(uint64_t addr, uint32_t bank) {
    return addr >= bank_base(bank) && addr < bank_base(bank) + 4ull * hwdef::MEM_BANK0_WORDS;
  }
  uint32_t bank_word(uint32_t bank, uint32_t word) { return peek(bank_base(bank) + 4ull * word); }
  // Sets any register as the hardware would (read-only SYNC status, say).
  void poke(uint64_t addr, uint32_t value) {
    std::lock_guard<std::mutex> lock(mutex_);
    regs_[addr] = value;
  }
  // SYNC_STATUS, SYNC_OFFSET_PS..SYNC_HOLDOVER_US (the servo's outputs) and
  // SYNC_LINK .. SYNC_DOWN_BAD_FRAMES (the link engines').
  static bool sync_read_only(uint64_t addr) {
    return addr == hwdef::REG_SYNC_STATUS ||
           (addr >= hwdef::REG_SYNC_OFFSET_PS && addr <= hwdef::REG_SYNC_DOWN_BAD_FRAMES);
  }
  // Board time moves on; a deferred commit whose time has come swaps.
  void advance(uint64_t ticks) {
    std::lock_guard<std::mutex> lock(mutex_);
    time_ticks += ticks;
    settle();
  }
  uint32_t peek(uint64_t addr) {
    auto it = regs_.find(addr);
    return it == regs_.end() ? 0 : it->second;
  }

  uint32_t read(uint64_t addr) {
    const uint32_t value = read_locked(addr);
    if (after_read) after_read(addr);
    return value;
  }

  uint32_t read_locked(uint64_t addr) {
    std::lock_guard<std::mutex> lock(mutex_);
    namespace hw = hwdef;
    if (addr == hw::REG_TIME_LO) time_ticks += ticks_per_time_read;
    settle();
    switch (addr) {
      case hw::REG_STATUS: {
        uint32_t s = (running ? hw::STATUS_RUNNING_MASK : 0) | (active_bank << hw::STATUS_ACTIVE_BANK_LSB) |
                     (pending ? hw::STATUS_COMMIT_PENDING_MASK : 0) |
                     (cancelled_ ? hw::STATUS_CANCELLED_MASK : 0);
        if (verify_busy_reads > 0) {
          --verify_busy_reads;
          s |= hw::STATUS_VERIFY_BUSY_MASK;
        }
        return s;
      }
      case hw::REG_ERROR:
        return error;
      case hw::REG_CTRL:
        return 0;
      case hw::REG_COMMIT_MODE:
        return commit_mode;
      case hw::REG_TIME_LO:
        return static_cast<uint32_t>(time_ticks);
      case hw::REG_TIME_HI:
        return static_cast<uint32_t>(time_ticks >> 32);
      case hw::REG_GENERATION:
        return generation;
      case hw::REG_SWAPS:
        return swaps;
      case hw::REG_LEASE_OWNER:
        return lease_owner;
      case hw::REG_TRIGGERS:
        return trigger_count;
      case hw::REG_TRIGGERED_AT_LO:
        return static_cast<uint32_t>(triggered_at);
      case hw::REG_TRIGGERED_AT_HI:
        return static_cast<uint32_t>(triggered_at >> 32);
      case hw::REG_COMMIT_CRC:
        return commit_crc;
      default:
        return peek(addr);
    }
  }

  void write(uint64_t addr, uint32_t value) {
    if (before_write) before_write(addr, value);
    apply(addr, value);
    if (after_write) after_write(addr, value);
  }

  void apply(uint64_t addr, uint32_t value) {
    std::lock_guard<std::mutex> lock(mutex_);
    namespace hw = hwdef;
    settle();
    write_log.push_back(addr);
    auto refuse = [&](const char* why) {
      throw TransportError(fmt::format("fake://board: SLVERR at 0x{:05X} ({})", addr, why));
    };
    if (addr == hw::REG_LEASE_CLAIM) {
      if (value == 0 || (lease_owner != 0 && lease_owner != value)) refuse("lease held");
      lease_owner = value;
    } else if (addr == hw::REG_LEASE_BREAK) {
      if (value == 0) refuse("token 0");
      lease_owner = value;
    } else if (addr == hw::REG_LEASE_RELEASE) {
      if (value == 0 || value != lease_owner) refuse("not the holder");
      lease_owner = 0;
    } else if (addr == hw::REG_COMMIT) {
      if (value == 0 || value != lease_owner) refuse("not the lease holder");
      commit();
    } else if (addr == hw::REG_CANCEL) {
      if (value == 0 || value != lease_owner) refuse("not the lease holder");
      ++cancels;
      if (pending && defer_timed_commits && time_ticks + cancel_lead_ticks >= commit_time) {
        swap(1 - active_bank, commit_time);  // its boundary had begun to leave
      } else if (pending) {
        pending = false;
        cancelled_ = true;
      }
    } else if (addr == hw::REG_COMMIT_CRC) {
      commit_crc = value;
    } else if (addr == hw::REG_ERROR) {
      error &= ~value;
    } else if (addr == hw::REG_CTRL) {
      if (value & hw::CTRL_TRIGGER_MASK) ++triggers;
      if (value & hw::CTRL_TRIGGER_JUMP_MASK) {
        ++jumps;
        jump_step = peek(hw::REG_TRIGGER_STEP);
      }
      if ((value & hw::CTRL_TRIGGER_AT_MASK) && waiting_event) {
        waiting_event = false;
        // As the kernel: a time already past resolves at the next boundary.
        triggered_at = std::max(trigger_time, time_ticks + 1);
        ++trigger_count;
      }
      if (value & hw::CTRL_STOP_MASK) ++stops;
      if (value & hw::CTRL_CLEAR_ERRORS_MASK) error = 0;
    } else if (addr == hw::REG_TRIGGER_TIME_LO) {
      trigger_time = (trigger_time & ~0xFFFFFFFFull) | value;
    } else if (addr == hw::REG_TRIGGER_TIME_HI) {
      trigger_time = (trigger_time & 0xFFFFFFFFull) | (uint64_t{value} << 32);
    } else if (addr == hw::REG_COMMIT_MODE) {
      commit_mode = value;
    } else if (addr == hw::REG_COMMIT_TIME_LO) {
      commit_time = (commit_time & ~0xFFFFFFFFull) | value;
    } else if (addr == hw::REG_COMMIT_TIME_HI) {
      commit_time = (commit_time & 0xFFFFFFFFull) | (uint64_t{value} << 32);
    } else if (addr == hw::REG_SYNC_ERROR) {
      regs_[addr] &= ~value;  // write 1 to clear
    } else if (addr == hw::REG_SYNC_CTRL) {
      // Keeps only its defined fields, as hw/axil_regfile.sv does.
      const uint32_t fields =
          hw::SYNC_CTRL_ENABLE_MASK | hw::SYNC_CTRL_USE_DDMTD_MASK | hw::SYNC_CTRL_REFERENCE_MASK;
      regs_[addr] = (addr == stuck_addr ? (value | 1u) : value) & fields;
    } else if (sync_read_only(addr)) {
      // dropped: the servo owns these
    } else if ((running && in_bank(addr, active_bank)) || (pending && in_bank(addr, 1 - active_bank))) {
      error |= hw::ERROR_LOCKED_WRITE_MASK;  // refused, as the hardware does
      refuse("locked bank");
    } else {
      regs_[addr] = addr == stuck_addr ? (value | 1u) : value;
    }
  }

 private:
  // Checks the inactive bank as the sequencer would and swaps at once (idle).
  void commit() {
    namespace hw = hwdef;
    ++commits;
    cancelled_ = false;
    if (ignore_commits) return;
    const uint32_t bank = 1 - active_bank;
    uint32_t flags = force_commit_error;
    force_commit_error = 0;
    if (bank_word(bank, hw::IMG_HDR_MAGIC) != hw::IMG_MAGIC) flags |= hw::ERROR_BAD_MAGIC_MASK;
    const uint32_t n_steps = bank_word(bank, hw::IMG_HDR_N_STEPS);
    const uint32_t n_configs = bank_word(bank, hw::IMG_HDR_N_CONFIGS);
    if (n_steps == 0 || n_steps > hw::MAX_STEPS || n_configs == 0 || n_configs > hw::MAX_CONFIGS) {
      flags |= hw::ERROR_BAD_BOUNDS_MASK;
    } else {
      std::vector<uint32_t> image(hw::IMG_STEP_BASE_WORD + hw::IMG_STEP_WORDS * n_steps);
      for (uint32_t w = 0; w < image.size(); ++w) image[w] = bank_word(bank, w);
      if (image_crc(image) != image[hw::IMG_HDR_CRC]) {
        flags |= hw::ERROR_BAD_CRC_MASK;
      } else if (image[hw::IMG_HDR_CRC] != commit_crc) {
        flags |= hw::ERROR_COMMIT_MISMATCH_MASK;
      }
    }
    if (defer_timed_commits && (commit_mode & hw::COMMIT_MODE_AT_TIME_MASK) && commit_time <= time_ticks)
      flags |= hw::ERROR_COMMIT_LATE_MASK;
    error |= flags;
    if (flags) return;
    if (defer_timed_commits && (commit_mode & hw::COMMIT_MODE_AT_TIME_MASK)) {
      pending = true;
      return;
    }
    swap(bank, time_ticks);
  }

  void swap(uint32_t bank, uint64_t at_ticks) {
    namespace hw = hwdef;
    pending = false;
    active_bank = bank;
    running = true;
    generation = bank_word(bank, hw::IMG_HDR_GENERATION);
    ++swaps;
    regs_[hw::REG_LAST_SWAP_LO] = static_cast<uint32_t>(at_ticks);
    regs_[hw::REG_LAST_SWAP_HI] = static_cast<uint32_t>(at_ticks >> 32);
  }

  void settle() {
    if (pending && defer_timed_commits && time_ticks >= commit_time) swap(1 - active_bank, commit_time);
  }

  bool cancelled_ = false;
  std::mutex mutex_;
  std::map<uint64_t, uint32_t> regs_;
};

// The driver's view of a FakeBoard; the test keeps the board.
class FakeTransport : public Transport {
 public:
  explicit FakeTransport(FakeBoard& board) : board_(board) {}
  uint32_t read32(uint64_t addr) override { return board_.read(addr); }
  void write32(uint64_t addr, uint32_t value) override { board_.write(addr, value); }
  std::string uri() const override { return "fake://board"; }

 private:
  FakeBoard& board_;
};

}  // namespace lightrail::test
