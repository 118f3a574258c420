// The clock-synchronisation servo as Vitis HLS synthesises it: one function
// whose arguments are exactly lightrail_board_top's sync_* ports (hw/), with
// the top's _i/_o suffix dropped and the direction reversed, each one packed
// scalar word (no struct, no array). The KernelPorts test (tests/hls) checks
// names, widths and directions against the elaborated RTL top.
//
// Free-running (ap_ctrl_none), one call per clk_i cycle between updates. An
// update starts in the cycle the top strobes sync_phase_valid, or when
// kSilentUpdateCycles have passed without one (reference lost: holdover
// still counts, exchanges still arrive); it runs clock_sync_step() (the C
// model, the one source of the arithmetic) over SYNC_KERNEL_LATENCY cycles,
// reading no input meanwhile (sync_busy high), then presents the new
// outputs and pulses each load strobe for one cycle. Timing:
// docs/hw-clock-sync.md, "Servo kernel".
#pragma once

#include <cstdint>

#include "clock_sync/clock_sync.hpp"
#include "lightrail/ap_uint.hpp"
#include "lightrail/hwdef.hpp"

namespace lightrail {
namespace sync {
namespace top {

constexpr int clog2(uint64_t n) { return n <= 1 ? 0 : 1 + clog2((n + 1) / 2); }

constexpr int kTagBits = int(hwdef::DDMTD_TAG_BITS);
constexpr int kDacBits = int(hwdef::SYNC_DAC_BITS);
constexpr int kBitslideBits = clog2(hwdef::SYNC_LINK_WORD_BITS);
constexpr int kParentFlagBits = int(hwdef::SYNC_FLAG_BITS);
// Cycles from the latching call to the call that writes the new outputs.
constexpr uint32_t kUpdateLatency = hwdef::SYNC_KERNEL_LATENCY;
// One DDMTD beat is DDMTD_N + 1 cycles; none for a beat and a quarter means
// it fell silent, and the servo runs without a phase (as the co-simulation
// does, sim/link/sync.cpp).
constexpr uint32_t kBeatCycles = hwdef::DDMTD_N + 1;
constexpr uint32_t kSilentUpdateCycles = kBeatCycles + kBeatCycles / 4;
static_assert(kUpdateLatency >= 1 && kUpdateLatency < kBeatCycles / 2,
              "an update must end well within a DDMTD beat");

// The kernel's ports in one cycle, unpacked: what the board top drives
// (its sync_*_o) ...
struct Inputs {
  uint32_t ctrl = 0, cal_delay_ms_ps = 0, cal_delay_sm_ps = 0, cal_asym_ps = 0, kp = 0, ki = 0,
           lock_thresh_ps = 0, lock_samples = 0, slew_max_ns_per_s = 0, dac_pull_ppb = 0, phase_step_fs = 0;
  uint32_t clear_errors = 0;
  bool phase_valid = false;
  uint32_t ddmtd_phase = 0;
  bool link_up = false;
  uint32_t parent_flags = 0;
  uint32_t cycles = 0, exchanges = 0;
  bool exchange_fine = false;
  uint64_t t1_fs = 0, t2_fs = 0, t3_fs = 0, t4_fs = 0;
  uint32_t rx_bitslide = 0;
};

// ... and what the kernel drives back (the top's sync_*_i): the status
// registers and actuator values are `shown`'s fields.
struct Outputs {
  ClockSyncOut shown;
  bool busy = false;
  bool dac_load = false, phase_load = false, time_step_load = false;
  bool updated = false;  // this call ends an update: `shown` is its result
};

// The SYNC_* settings the inputs carry, as the servo takes them.
ClockSyncConfig config_of(const Inputs& in);

// One instance of the kernel: its registers (the servo's state included,
// all reset by ap_rst_n) and one call per clk_i cycle. The HLS top below
// keeps one; the co-simulation keeps one per board (sim/).
class Kernel {
 public:
#ifndef __SYNTHESIS__
  // C simulation may run the update in fewer cycles than the HLS schedule
  // pins (the co-simulation's fast mode, docs/cosim.md); synthesis always
  // takes kUpdateLatency.
  explicit Kernel(uint32_t update_latency = kUpdateLatency) : latency_(update_latency) {}
#endif
  // Whether the call with these inputs latches them and starts an update.
  bool starts_update(const Inputs& in) const;
  void cycle(const Inputs& in, Outputs& out);
  void reset() {
#ifndef __SYNTHESIS__
    *this = Kernel(latency_);
#else
    *this = Kernel();
#endif
  }

 private:
  struct Shown {
    ClockSyncOut out;  // status and actuator values of the last update
    bool dac_load = false, phase_load = false, time_step_load = false;
  };
  ClockSyncState servo_{};
  Shown shown_;
  uint32_t dac_loaded_ = ~0u;    // the last word loaded into the DAC (none yet)
  uint32_t clear_pending_ = 0;   // SYNC_ERROR clears since the last update
  uint32_t last_cycles_ = 0;     // sync_cycles at the last update
  uint32_t last_exchanges_ = 0;  // sync_exchanges at the last update
#ifndef __SYNTHESIS__
  // C simulation of the busy cycles: the update's result waits here until
  // the call that, in the RTL, ends the update.
  uint32_t latency_ = kUpdateLatency;
  uint32_t busy_left_ = 0;
  Shown next_;
#endif
};

}  // namespace top
}  // namespace sync
}  // namespace lightrail

// Plain (unqualified) name: it is the HLS top and the RTL module name.
void lightrail_clock_sync(
    // the SYNC_* rw registers (levels) and the SYNC_ERROR write-1s (one cycle)
    ap_uint<32> sync_ctrl, ap_uint<32> sync_cal_delay_ms_ps, ap_uint<32> sync_cal_delay_sm_ps,
    ap_uint<32> sync_cal_asym_ps, ap_uint<32> sync_kp, ap_uint<32> sync_ki, ap_uint<32> sync_lock_thresh_ps,
    ap_uint<32> sync_lock_samples, ap_uint<32> sync_slew_max_ns_per_s, ap_uint<32> sync_dac_pull_ppb,
    ap_uint<32> sync_phase_step_fs, ap_uint<32> sync_clear_errors,
    // status, laid out as the SYNC_* ro registers
    ap_uint<32>& sync_status, ap_uint<32>& sync_error, ap_uint<32>& sync_offset_ps, ap_uint<32>& sync_rtt_ps,
    ap_uint<32>& sync_delay_ms_ps, ap_uint<32>& sync_servo_p_ps, ap_uint<32>& sync_servo_i_ppt,
    ap_uint<32>& sync_dac, ap_uint<32>& sync_phase_steps, ap_uint<32>& sync_holdover_us,
    // the DDMTD: one phase per beat
    ap_uint<1> sync_phase_valid, ap_uint<lightrail::sync::top::kTagBits> sync_ddmtd_phase,
    // this board's link, its reference's quality (frame flags), the local
    // clock, and the message engine's last two-way exchange
    ap_uint<1> sync_link_up, ap_uint<lightrail::sync::top::kParentFlagBits> sync_parent_flags,
    ap_uint<32> sync_cycles, ap_uint<32> sync_exchanges, ap_uint<1> sync_exchange_fine,
    ap_uint<64> sync_t1_fs, ap_uint<64> sync_t2_fs, ap_uint<64> sync_t3_fs, ap_uint<64> sync_t4_fs,
    ap_uint<lightrail::sync::top::kBitslideBits> sync_rx_bitslide,
    // high while an update runs: the kernel reads no input
    ap_uint<1>& sync_busy,
    // actuators: a value and its one-cycle load
    ap_uint<lightrail::sync::top::kDacBits>& sync_dac_word, ap_uint<1>& sync_dac_load,
    ap_uint<32>& sync_phase_steps_req, ap_uint<1>& sync_phase_load, ap_uint<64>& sync_time_step,
    ap_uint<1>& sync_time_step_load);

#ifndef __SYNTHESIS__
// C simulation only: what ap_rst_n does (every register to its initial
// value), applied before the next call.
void lightrail_clock_sync_csim_reset();
#endif
