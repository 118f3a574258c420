// Cycle-by-cycle bench of the register file (hw/axil_regfile.sv): an AXI4-Lite
// host, and a bench kernel that answers the register file's pulses
// kernel_latency + 1 cycles after them, as the sequencer kernel does
// (docs/sequencer.md, "Latency"): STATUS.VERIFY_BUSY after a COMMIT, TRIGGERS
// after a CTRL.TRIGGER.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "Vhw_regfile_bench.h"
#include "lightrail/hwdef.hpp"
#include "rtl_coverage.hpp"
#include "verilated.h"

namespace lightrail::hw_bench {

namespace hwdef = lightrail::hwdef;

inline constexpr uint32_t kOkay = 0;
inline constexpr uint32_t kSlvErr = 2;
inline constexpr uint32_t kDecErr = 3;
// What the two bank memories answer on the host port (any distinct words).
inline constexpr uint32_t kBank0Data = 0xB0B0B0B0u;
inline constexpr uint32_t kBank1Data = 0xB1B1B1B1u;
// Board time of one millisecond (LEASE_TTL_MS), in ticks.
inline constexpr uint64_t kTicksPerMs = 1'000'000'000ull / hwdef::TICK_PS;

inline uint32_t BankBase(int bank) { return bank == 0 ? hwdef::MEM_BANK0_BASE : hwdef::MEM_BANK1_BASE; }

struct CommitPulse {
  uint64_t cycle;
  uint32_t crc;
  uint64_t ticks;
  bool at_time;
};
struct BankWrite {
  uint64_t cycle;
  uint32_t enables;  // bit b: bank b
  uint32_t word;
  uint32_t strobes;
  uint32_t data;
};
struct TuneWrite {
  uint64_t cycle;
  uint32_t entry;
  uint32_t value;
};
struct ReadResult {
  uint32_t data;
  uint32_t resp;
};

class RegfileBench {
 public:
  explicit RegfileBench(uint32_t kernel_latency = hwdef::SEQ_KERNEL_LATENCY) : latency_(kernel_latency) {
    m_.rst_ni = 0;
    m_.s_axil_bready = 1;
    m_.s_axil_rready = 1;
    m_.bank0_rdata_i = kBank0Data;
    m_.bank1_rdata_i = kBank1Data;
    Tick();
    m_.rst_ni = 1;
    Tick();
  }
  ~RegfileBench() {
    m_.final();
    lightrail::rtl_coverage::write(context_, "hw_regfile");
  }

  // ------------------------------------------------------------ one cycle
  // The bench kernel drives this cycle's status, the outputs are recorded
  // before the rising edge that ends the cycle.
  void Tick() {
    m_.seq_status_i = Status();
    m_.seq_triggers_i = triggers_;
    m_.now_ticks_i = now_;
    m_.clk_i = 0;
    m_.eval();
    Record();
    m_.clk_i = 1;
    m_.eval();
    ++cycle_;
  }
  void Idle(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) Tick();
  }
  // The cycle the next Tick() runs.
  uint64_t cycle() const { return cycle_; }

  // ------------------------------------------------------------ AXI4-Lite host
  // Presents a write from the next cycle on until StopWrite().
  void StartWrite(uint32_t addr, uint32_t data, uint32_t strobes = 0xF) {
    m_.s_axil_awaddr = addr;
    m_.s_axil_wdata = data;
    m_.s_axil_wstrb = strobes;
    m_.s_axil_awvalid = 1;
    m_.s_axil_wvalid = 1;
  }
  void StopWrite() {
    m_.s_axil_awvalid = 0;
    m_.s_axil_wvalid = 0;
  }
  // Ticks until the presented write is taken; returns that cycle.
  uint64_t TickUntilWriteTaken() {
    for (int guard = 0; guard < 1000; ++guard) {
      Tick();
      if (taken_write_) return cycle_ - 1;
    }
    ADD_FAILURE() << "write never taken";
    return 0;
  }
  // Ticks until BVALID; returns BRESP.
  uint32_t TickUntilResponse() {
    for (int guard = 0; guard < 1000; ++guard) {
      Tick();
      if (bvalid_) return bresp_;
    }
    ADD_FAILURE() << "no write response";
    return 0xFF;
  }
  uint32_t Write(uint32_t addr, uint32_t data, uint32_t strobes = 0xF) {
    StartWrite(addr, data, strobes);
    last_write_cycle_ = TickUntilWriteTaken();
    StopWrite();
    return TickUntilResponse();
  }
  uint64_t last_write_cycle() const { return last_write_cycle_; }

  ReadResult Read(uint32_t addr) {
    m_.s_axil_araddr = addr;
    m_.s_axil_arvalid = 1;
    for (int guard = 0;; ++guard) {
      Tick();
      if (m_arready_) break;
      if (guard > 1000) {
        ADD_FAILURE() << "read never taken";
        return {0, 0xFF};
      }
    }
    last_read_cycle_ = cycle_ - 1;
    m_.s_axil_arvalid = 0;
    for (int guard = 0; guard < 1000; ++guard) {
      Tick();
      if (rvalid_) return {rdata_, rresp_};
    }
    ADD_FAILURE() << "no read data";
    return {0, 0xFF};
  }
  uint32_t ReadOk(uint32_t addr) {
    const ReadResult r = Read(addr);
    EXPECT_EQ(r.resp, kOkay) << "read of 0x" << std::hex << addr;
    return r.data;
  }
  uint64_t last_read_cycle() const { return last_read_cycle_; }
  bool LockedWriteFlag() { return (ReadOk(hwdef::REG_ERROR) & hwdef::ERROR_LOCKED_WRITE_MASK) != 0; }

  // ------------------------------------------------------------ bench kernel
  void set_running(bool on) { running_ = on; }
  void set_active_bank(int bank) { active_bank_ = bank; }
  void set_commit_pending(bool on) { pending_ = on; }
  void set_verify_busy(bool on) { busy_ = on; }
  // The kernel ends a commit: no longer verifying (the swap, if any, is the test's).
  void EndCommit() {
    busy_ = false;
    verifying_from_ = kNever;
  }
  int inactive_bank() const { return 1 - active_bank_; }
  bool verify_busy_shown() const { return (Status() & hwdef::STATUS_VERIFY_BUSY_MASK) != 0; }

  // ------------------------------------------------------------ other inputs
  void set_now(uint64_t ticks) { now_ = ticks; }
  uint64_t now() const { return now_; }
  Vhw_regfile_bench& m() { return m_; }

  // ------------------------------------------------------------ what the outputs did
  const std::vector<CommitPulse>& commits() const { return commits_; }
  const std::vector<uint64_t>& cancels() const { return cancels_; }
  const std::vector<BankWrite>& bank_writes() const { return bank_writes_; }
  const std::vector<TuneWrite>& tune_writes() const { return tune_writes_; }
  const std::vector<uint32_t>& clear_errors() const { return clear_errors_; }
  bool awready_seen() const { return m_awready_; }
  bool arready_seen() const { return m_arready_; }

 private:
  static constexpr uint64_t kNever = ~0ull;

  uint32_t Status() const {
    uint32_t s = 0;
    if (running_) s |= hwdef::STATUS_RUNNING_MASK;
    if (active_bank_ == 1) s |= hwdef::STATUS_ACTIVE_BANK_MASK;
    if (pending_) s |= hwdef::STATUS_COMMIT_PENDING_MASK;
    if (busy_ || cycle_ >= verifying_from_) s |= hwdef::STATUS_VERIFY_BUSY_MASK;
    return s;
  }

  void Record() {
    m_awready_ = m_.s_axil_awready;
    m_arready_ = m_.s_axil_arready;
    taken_write_ = m_.s_axil_awvalid && m_.s_axil_wvalid && m_.s_axil_awready;
    bvalid_ = m_.s_axil_bvalid;
    bresp_ = m_.s_axil_bresp;
    rvalid_ = m_.s_axil_rvalid;
    rdata_ = m_.s_axil_rdata;
    rresp_ = m_.s_axil_rresp;
    // The kernel shows its answer to a pulse latency + 1 cycles after it.
    if (m_.seq_commit_o) {
      commits_.push_back({cycle_, m_.seq_commit_crc_o, m_.seq_commit_ticks_o, m_.seq_commit_at_time_o != 0});
      if (verifying_from_ == kNever) verifying_from_ = cycle_ + latency_ + 1;
    }
    if (m_.seq_cancel_o) cancels_.push_back(cycle_);
    if (m_.seq_trigger_o) trigger_answers_.push_back(cycle_ + latency_ + 1);
    while (!trigger_answers_.empty() && trigger_answers_.front() <= cycle_ + 1) {
      ++triggers_;  // shown from the next cycle on
      trigger_answers_.erase(trigger_answers_.begin());
    }
    if (m_.seq_tune_we_o) tune_writes_.push_back({cycle_, m_.seq_tune_addr_o, m_.seq_tune_wdata_o});
    if (m_.bank_we_o && m_.bank_en_o != 0) {
      bank_writes_.push_back({cycle_, m_.bank_en_o, m_.bank_word_o, m_.bank_be_o, m_.bank_wdata_o});
    }
    if (m_.seq_clear_errors_o != 0) clear_errors_.push_back(m_.seq_clear_errors_o);
  }

  VerilatedContext context_;
  Vhw_regfile_bench m_{&context_};
  uint32_t latency_;
  uint64_t cycle_ = 0;
  uint64_t now_ = 0;
  // bench kernel
  bool running_ = false;
  int active_bank_ = 0;
  bool pending_ = false;
  bool busy_ = false;
  uint64_t verifying_from_ = kNever;
  uint32_t triggers_ = 0;
  std::vector<uint64_t> trigger_answers_;
  // outputs seen in the last cycle
  bool m_awready_ = false;
  bool m_arready_ = false;
  bool taken_write_ = false;
  bool bvalid_ = false;
  uint32_t bresp_ = 0;
  bool rvalid_ = false;
  uint32_t rdata_ = 0;
  uint32_t rresp_ = 0;
  uint64_t last_write_cycle_ = 0;
  uint64_t last_read_cycle_ = 0;
  // outputs over the run
  std::vector<CommitPulse> commits_;
  std::vector<uint64_t> cancels_;
  std::vector<BankWrite> bank_writes_;
  std::vector<TuneWrite> tune_writes_;
  std::vector<uint32_t> clear_errors_;
};

// Takes the lease for token (a free lease: answered OKAY).
inline void ClaimLease(RegfileBench& b, uint32_t token) {
  ASSERT_EQ(b.Write(hwdef::REG_LEASE_CLAIM, token), kOkay) << "claiming the lease";
}

}  // namespace lightrail::hw_bench
