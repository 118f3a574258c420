// Vitis HLS top of the clock-synchronisation servo (ports: clock_sync_top.hpp):
// a free-running wrapper around clock_sync_step(), the C model that stays
// the one source of the arithmetic. g++ ignores the pragmas; the
// co-simulation calls clock_sync_step() on its own state, and the tests
// (tests/hls_sync) drive this function one call per cycle.
//
// Schedule (docs/hw-clock-sync.md, "Servo kernel"). Between updates one call
// takes one cycle (the idle path: sample, keep counting, hold the outputs).
// In the cycle t of a DDMTD phase strobe, or kSilentUpdateCycles after the
// last update without one, the call latches every input and runs the update
// for SYNC_KERNEL_LATENCY cycles (its 64-bit divisions are multi-cycle; the
// LATENCY pragma pins the schedule and run_hls.tcl checks it): the new
// outputs and one-cycle loads appear at t + SYNC_KERNEL_LATENCY + 1, and
// sync_busy is high from t + 1 to then. Inputs are not read while busy; the
// board top holds a SYNC_ERROR clear or a DDMTD phase that comes meanwhile.
// In C simulation the busy calls are counted explicitly, so one call is one
// cycle there too.
#include "clock_sync/clock_sync_top.hpp"

using namespace lightrail::sync;
using namespace lightrail::sync::top;

namespace {

// What the outputs show between updates (registers of the RTL).
struct Shown {
  ClockSyncOut out;  // status and actuator values of the last update
  bool dac_load = false;
  bool phase_load = false;
  bool time_step_load = false;
};

// The kernel's registers besides the servo's own state.
struct Regs {
  Shown shown;
  uint32_t dac_loaded = ~0u;    // the last word loaded into the DAC (none yet)
  uint32_t clear_pending = 0;   // SYNC_ERROR clears since the last update
  uint32_t last_cycles = 0;     // sync_cycles at the last update
  uint32_t last_exchanges = 0;  // sync_exchanges at the last update
};

ClockSyncConfig config_of(uint32_t ctrl, uint32_t cal_ms, uint32_t cal_sm, uint32_t asym, uint32_t kp,
                          uint32_t ki, uint32_t lock_thresh, uint32_t lock_samples, uint32_t slew,
                          uint32_t pull, uint32_t step) {
  ClockSyncConfig c;
  c.enable = (ctrl & lightrail::hwdef::SYNC_CTRL_ENABLE_MASK) != 0;
  c.use_ddmtd = (ctrl & lightrail::hwdef::SYNC_CTRL_USE_DDMTD_MASK) != 0;
  c.serves = (ctrl & lightrail::hwdef::SYNC_CTRL_SERVES_MASK) != 0;
  c.cal_delay_ms_ps = static_cast<int32_t>(cal_ms);
  c.cal_delay_sm_ps = static_cast<int32_t>(cal_sm);
  c.cal_asym_ps = static_cast<int32_t>(asym);
  c.kp_q16 = kp;
  c.ki_q16 = ki;
  c.lock_thresh_ps = lock_thresh;
  c.lock_samples = lock_samples;
  c.slew_max_ns_per_s = slew;
  c.dac_pull_ppb = pull;
  c.phase_step_fs = step;
  return c;
}

int64_t signed64(uint64_t v) { return static_cast<int64_t>(v); }

#ifndef __SYNTHESIS__
bool csim_reset_pending = false;
// C simulation of the busy cycles: the update's result waits here until the
// call that, in the RTL, ends the update.
uint32_t csim_busy_left = 0;
Shown csim_next;
#endif

}  // namespace

#ifndef __SYNTHESIS__
void lightrail_clock_sync_csim_reset() { csim_reset_pending = true; }
#endif

void lightrail_clock_sync(
    ap_uint<32> sync_ctrl, ap_uint<32> sync_cal_delay_ms_ps, ap_uint<32> sync_cal_delay_sm_ps,
    ap_uint<32> sync_cal_asym_ps, ap_uint<32> sync_kp, ap_uint<32> sync_ki, ap_uint<32> sync_lock_thresh_ps,
    ap_uint<32> sync_lock_samples, ap_uint<32> sync_slew_max_ns_per_s, ap_uint<32> sync_dac_pull_ppb,
    ap_uint<32> sync_phase_step_fs, ap_uint<32> sync_clear_errors, ap_uint<32>& sync_status,
    ap_uint<32>& sync_error, ap_uint<32>& sync_offset_ps, ap_uint<32>& sync_rtt_ps,
    ap_uint<32>& sync_delay_ms_ps, ap_uint<32>& sync_servo_p_ps, ap_uint<32>& sync_servo_i_ppt,
    ap_uint<32>& sync_dac, ap_uint<32>& sync_phase_steps, ap_uint<32>& sync_holdover_us,
    ap_uint<1> sync_phase_valid, ap_uint<kTagBits> sync_ddmtd_phase, ap_uint<1> sync_link_up,
    ap_uint<kParentFlagBits> sync_parent_flags, ap_uint<32> sync_cycles, ap_uint<32> sync_exchanges,
    ap_uint<64> sync_t1_fs, ap_uint<64> sync_t2_fs, ap_uint<64> sync_t3_fs, ap_uint<64> sync_t4_fs,
    ap_uint<kBitslideBits> sync_rx_bitslide, ap_uint<1>& sync_busy, ap_uint<kDacBits>& sync_dac_word,
    ap_uint<1>& sync_dac_load, ap_uint<32>& sync_phase_steps_req, ap_uint<1>& sync_phase_load,
    ap_uint<64>& sync_time_step, ap_uint<1>& sync_time_step_load) {
#pragma HLS TOP name = lightrail_clock_sync
  // Free-running: no start/done. Every argument is a plain wire (a scalar
  // packed word); the outputs are registers that hold their value until the
  // next write (the idle path rewrites them every cycle, the update once).
#pragma HLS INTERFACE mode = ap_ctrl_none port = return
#pragma HLS INTERFACE mode = ap_none port = sync_ctrl
#pragma HLS INTERFACE mode = ap_none port = sync_cal_delay_ms_ps
#pragma HLS INTERFACE mode = ap_none port = sync_cal_delay_sm_ps
#pragma HLS INTERFACE mode = ap_none port = sync_cal_asym_ps
#pragma HLS INTERFACE mode = ap_none port = sync_kp
#pragma HLS INTERFACE mode = ap_none port = sync_ki
#pragma HLS INTERFACE mode = ap_none port = sync_lock_thresh_ps
#pragma HLS INTERFACE mode = ap_none port = sync_lock_samples
#pragma HLS INTERFACE mode = ap_none port = sync_slew_max_ns_per_s
#pragma HLS INTERFACE mode = ap_none port = sync_dac_pull_ppb
#pragma HLS INTERFACE mode = ap_none port = sync_phase_step_fs
#pragma HLS INTERFACE mode = ap_none port = sync_clear_errors
#pragma HLS INTERFACE mode = ap_none port = sync_status register
#pragma HLS INTERFACE mode = ap_none port = sync_error register
#pragma HLS INTERFACE mode = ap_none port = sync_offset_ps register
#pragma HLS INTERFACE mode = ap_none port = sync_rtt_ps register
#pragma HLS INTERFACE mode = ap_none port = sync_delay_ms_ps register
#pragma HLS INTERFACE mode = ap_none port = sync_servo_p_ps register
#pragma HLS INTERFACE mode = ap_none port = sync_servo_i_ppt register
#pragma HLS INTERFACE mode = ap_none port = sync_dac register
#pragma HLS INTERFACE mode = ap_none port = sync_phase_steps register
#pragma HLS INTERFACE mode = ap_none port = sync_holdover_us register
#pragma HLS INTERFACE mode = ap_none port = sync_phase_valid
#pragma HLS INTERFACE mode = ap_none port = sync_ddmtd_phase
#pragma HLS INTERFACE mode = ap_none port = sync_link_up
#pragma HLS INTERFACE mode = ap_none port = sync_parent_flags
#pragma HLS INTERFACE mode = ap_none port = sync_cycles
#pragma HLS INTERFACE mode = ap_none port = sync_exchanges
#pragma HLS INTERFACE mode = ap_none port = sync_t1_fs
#pragma HLS INTERFACE mode = ap_none port = sync_t2_fs
#pragma HLS INTERFACE mode = ap_none port = sync_t3_fs
#pragma HLS INTERFACE mode = ap_none port = sync_t4_fs
#pragma HLS INTERFACE mode = ap_none port = sync_rx_bitslide
#pragma HLS INTERFACE mode = ap_none port = sync_busy register
#pragma HLS INTERFACE mode = ap_none port = sync_dac_word register
#pragma HLS INTERFACE mode = ap_none port = sync_dac_load register
#pragma HLS INTERFACE mode = ap_none port = sync_phase_steps_req register
#pragma HLS INTERFACE mode = ap_none port = sync_phase_load register
#pragma HLS INTERFACE mode = ap_none port = sync_time_step register
#pragma HLS INTERFACE mode = ap_none port = sync_time_step_load register

  // Every register, the servo's state included, is reset by ap_rst_n
  // (config_rtl -reset all).
  static ClockSyncState servo;
  static Regs r;

  Shown now;  // what this call writes to the outputs

#ifndef __SYNTHESIS__
  if (csim_reset_pending) {
    servo = ClockSyncState{};
    r = Regs{};
    csim_busy_left = 0;
    csim_reset_pending = false;
  }
  if (csim_busy_left > 0) {
    // Inside the update: no input is read. Its last cycle writes the result.
    sync_busy = 1;
    if (--csim_busy_left == 0) r.shown = csim_next;
    now = r.shown;
    if (csim_busy_left != 0) now.dac_load = now.phase_load = now.time_step_load = false;
  } else
#endif
  {
    r.clear_pending |= uint32_t(sync_clear_errors.to_uint64());
    const uint32_t cycles = uint32_t(sync_cycles.to_uint64());
    const uint32_t since = cycles - r.last_cycles;  // modulo 2^32: at most a few beats
    const bool phase = sync_phase_valid.to_uint64() != 0;
    now = r.shown;
    now.dac_load = now.phase_load = now.time_step_load = false;
    const bool update = phase || since >= kSilentUpdateCycles;
    // Written before the update in program order: with no dependence on it,
    // the write is scheduled in the update's first cycle, so sync_busy rises
    // the cycle after the inputs were latched and the top holds what comes.
    sync_busy = update ? 1 : 0;
    if (update) {
      // The update: every input as it is in this cycle.
      const int latency = int(kUpdateLatency);
      (void)latency;  // read by the LATENCY pragma only
#pragma HLS LATENCY min = latency max = latency
      ClockSyncIn in;
      in.cfg = config_of(uint32_t(sync_ctrl.to_uint64()), uint32_t(sync_cal_delay_ms_ps.to_uint64()),
                         uint32_t(sync_cal_delay_sm_ps.to_uint64()), uint32_t(sync_cal_asym_ps.to_uint64()),
                         uint32_t(sync_kp.to_uint64()), uint32_t(sync_ki.to_uint64()),
                         uint32_t(sync_lock_thresh_ps.to_uint64()), uint32_t(sync_lock_samples.to_uint64()),
                         uint32_t(sync_slew_max_ns_per_s.to_uint64()),
                         uint32_t(sync_dac_pull_ppb.to_uint64()), uint32_t(sync_phase_step_fs.to_uint64()));
      in.clear_errors = r.clear_pending;
      // Local time from the clock's cycles, not board time: a coarse time
      // step is no elapsed time.
      in.elapsed_fs = int64_t{since} * kPeriodFs;
      in.ref_ok = sync_link_up.to_uint64() != 0;
      in.parent_flags = uint32_t(sync_parent_flags.to_uint64());
      // An exchange completed since the last update (the top counts them
      // and holds the latest; of two in one interval the servo sees the
      // second, as a late reader of a register would).
      const uint32_t exchanges = uint32_t(sync_exchanges.to_uint64());
      in.exchange_valid = in.ref_ok && exchanges != r.last_exchanges;
      in.t1_fs = signed64(sync_t1_fs.to_uint64());
      in.t2_fs = signed64(sync_t2_fs.to_uint64());
      in.t3_fs = signed64(sync_t3_fs.to_uint64());
      in.t4_fs = signed64(sync_t4_fs.to_uint64());
      in.phase_valid = in.ref_ok && phase;
      in.ddmtd_phase = uint32_t(sync_ddmtd_phase.to_uint64());
      in.rx_bitslide_ui = uint32_t(sync_rx_bitslide.to_uint64());

      Shown next;
      clock_sync_step(servo, in, next.out);
      next.dac_load = next.out.dac_word != r.dac_loaded;
      next.phase_load = next.out.phase_steps != 0;
      next.time_step_load = next.out.time_step_ticks != 0;
      r.dac_loaded = next.out.dac_word;
      r.clear_pending = 0;
      r.last_cycles = cycles;
      r.last_exchanges = exchanges;
#ifdef __SYNTHESIS__
      r.shown = next;
      now = next;  // written at the end of the update's schedule
#else
      csim_next = next;
      csim_busy_left = kUpdateLatency;
#endif
    }
  }

  sync_status = now.out.status;
  sync_error = now.out.errors;
  sync_offset_ps = uint32_t(now.out.offset_ps);
  sync_rtt_ps = now.out.rtt_ps;
  sync_delay_ms_ps = now.out.delay_ms_ps;
  sync_servo_p_ps = uint32_t(now.out.servo_p_ps);
  sync_servo_i_ppt = uint32_t(now.out.servo_i_ppt);
  sync_dac = now.out.dac_word;
  sync_phase_steps = uint32_t(now.out.phase_steps_total);
  sync_holdover_us = now.out.holdover_us;
  sync_dac_word = now.out.dac_word;
  sync_dac_load = now.dac_load ? 1 : 0;
  sync_phase_steps_req = uint32_t(now.out.phase_steps);
  sync_phase_load = now.phase_load ? 1 : 0;
  sync_time_step = uint64_t(now.out.time_step_ticks);
  sync_time_step_load = now.time_step_load ? 1 : 0;
}
