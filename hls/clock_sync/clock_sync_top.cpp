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

int64_t signed64(uint64_t v) { return static_cast<int64_t>(v); }

#ifndef __SYNTHESIS__
bool csim_reset_pending = false;
#endif

}  // namespace

namespace lightrail {
namespace sync {
namespace top {

ClockSyncConfig config_of(const Inputs& i) {
  ClockSyncConfig c;
  c.enable = (i.ctrl & lightrail::hwdef::SYNC_CTRL_ENABLE_MASK) != 0;
  c.use_ddmtd = (i.ctrl & lightrail::hwdef::SYNC_CTRL_USE_DDMTD_MASK) != 0;
  c.serves = (i.ctrl & lightrail::hwdef::SYNC_CTRL_SERVES_MASK) != 0;
  c.cal_delay_ms_ps = static_cast<int32_t>(i.cal_delay_ms_ps);
  c.cal_delay_sm_ps = static_cast<int32_t>(i.cal_delay_sm_ps);
  c.cal_asym_ps = static_cast<int32_t>(i.cal_asym_ps);
  c.kp_q16 = i.kp;
  c.ki_q16 = i.ki;
  c.lock_thresh_ps = i.lock_thresh_ps;
  c.lock_samples = i.lock_samples;
  c.slew_max_ns_per_s = i.slew_max_ns_per_s;
  c.dac_pull_ppb = i.dac_pull_ppb;
  c.phase_step_fs = i.phase_step_fs;
  return c;
}

bool Kernel::starts_update(const Inputs& in) const {
#ifndef __SYNTHESIS__
  if (busy_left_ > 0) return false;
#endif
  return in.phase_valid || in.cycles - last_cycles_ >= kSilentUpdateCycles;  // modulo 2^32
}

void Kernel::cycle(const Inputs& in, Outputs& o) {
  o.updated = false;
#ifndef __SYNTHESIS__
  if (busy_left_ > 0) {
    // Inside the update: no input is read. Its last cycle writes the result.
    o.busy = true;
    if (--busy_left_ == 0) {
      shown_ = next_;
      o.updated = true;
    }
    o.shown = shown_.out;
    o.dac_load = busy_left_ == 0 && shown_.dac_load;
    o.phase_load = busy_left_ == 0 && shown_.phase_load;
    o.time_step_load = busy_left_ == 0 && shown_.time_step_load;
    return;
  }
#endif
  clear_pending_ |= in.clear_errors;
  const uint32_t since = in.cycles - last_cycles_;  // modulo 2^32: at most a few beats
  const bool update = in.phase_valid || since >= kSilentUpdateCycles;
  o.shown = shown_.out;
  o.dac_load = o.phase_load = o.time_step_load = false;
  // Written before the update in program order: with no dependence on it,
  // the write is scheduled in the update's first cycle, so sync_busy rises
  // the cycle after the inputs were latched and the top holds what comes.
  o.busy = update;
  if (!update) return;
  // The update: every input as it is in this cycle.
  const int latency = int(kUpdateLatency);
  (void)latency;  // read by the LATENCY pragma only
#pragma HLS LATENCY min = latency max = latency
  ClockSyncIn s;
  s.cfg = config_of(in);
  s.clear_errors = clear_pending_;
  // Local time from the clock's cycles, not board time: a coarse time step
  // is no elapsed time.
  s.elapsed_fs = int64_t{since} * kPeriodFs;
  s.ref_ok = in.link_up;
  s.parent_flags = in.parent_flags;
  // An exchange completed since the last update (the top counts them and
  // holds the latest; of two in one interval the servo sees the second, as
  // a late reader of a register would).
  s.exchange_valid = s.ref_ok && in.exchanges != last_exchanges_;
  s.exchange_fine = in.exchange_fine;
  s.t1_fs = signed64(in.t1_fs);
  s.t2_fs = signed64(in.t2_fs);
  s.t3_fs = signed64(in.t3_fs);
  s.t4_fs = signed64(in.t4_fs);
  s.phase_valid = s.ref_ok && in.phase_valid;
  s.ddmtd_phase = in.ddmtd_phase;
  s.rx_bitslide_ui = in.rx_bitslide;

  Shown next;
  clock_sync_step(servo_, s, next.out);
  next.dac_load = next.out.dac_word != dac_loaded_;
  next.phase_load = next.out.phase_steps != 0;
  next.time_step_load = next.out.time_step_ticks != 0;
  dac_loaded_ = next.out.dac_word;
  clear_pending_ = 0;
  last_cycles_ = in.cycles;
  last_exchanges_ = in.exchanges;
#ifdef __SYNTHESIS__
  // Written at the end of the update's schedule.
  shown_ = next;
  o.shown = next.out;
  o.dac_load = next.dac_load;
  o.phase_load = next.phase_load;
  o.time_step_load = next.time_step_load;
  o.updated = true;
#else
  next_ = next;
  busy_left_ = latency_;
#endif
}

}  // namespace top
}  // namespace sync
}  // namespace lightrail

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
    ap_uint<1> sync_exchange_fine, ap_uint<64> sync_t1_fs, ap_uint<64> sync_t2_fs, ap_uint<64> sync_t3_fs,
    ap_uint<64> sync_t4_fs, ap_uint<kBitslideBits> sync_rx_bitslide, ap_uint<1>& sync_busy,
    ap_uint<kDacBits>& sync_dac_word, ap_uint<1>& sync_dac_load, ap_uint<32>& sync_phase_steps_req,
    ap_uint<1>& sync_phase_load, ap_uint<64>& sync_time_step, ap_uint<1>& sync_time_step_load) {
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
#pragma HLS INTERFACE mode = ap_none port = sync_exchange_fine
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
  static Kernel k;
#ifndef __SYNTHESIS__
  if (csim_reset_pending) {
    k.reset();
    csim_reset_pending = false;
  }
#endif
  Inputs in;
  in.ctrl = uint32_t(sync_ctrl.to_uint64());
  in.cal_delay_ms_ps = uint32_t(sync_cal_delay_ms_ps.to_uint64());
  in.cal_delay_sm_ps = uint32_t(sync_cal_delay_sm_ps.to_uint64());
  in.cal_asym_ps = uint32_t(sync_cal_asym_ps.to_uint64());
  in.kp = uint32_t(sync_kp.to_uint64());
  in.ki = uint32_t(sync_ki.to_uint64());
  in.lock_thresh_ps = uint32_t(sync_lock_thresh_ps.to_uint64());
  in.lock_samples = uint32_t(sync_lock_samples.to_uint64());
  in.slew_max_ns_per_s = uint32_t(sync_slew_max_ns_per_s.to_uint64());
  in.dac_pull_ppb = uint32_t(sync_dac_pull_ppb.to_uint64());
  in.phase_step_fs = uint32_t(sync_phase_step_fs.to_uint64());
  in.clear_errors = uint32_t(sync_clear_errors.to_uint64());
  in.phase_valid = sync_phase_valid.to_uint64() != 0;
  in.ddmtd_phase = uint32_t(sync_ddmtd_phase.to_uint64());
  in.link_up = sync_link_up.to_uint64() != 0;
  in.parent_flags = uint32_t(sync_parent_flags.to_uint64());
  in.cycles = uint32_t(sync_cycles.to_uint64());
  in.exchanges = uint32_t(sync_exchanges.to_uint64());
  in.exchange_fine = sync_exchange_fine.to_uint64() != 0;
  in.t1_fs = sync_t1_fs.to_uint64();
  in.t2_fs = sync_t2_fs.to_uint64();
  in.t3_fs = sync_t3_fs.to_uint64();
  in.t4_fs = sync_t4_fs.to_uint64();
  in.rx_bitslide = uint32_t(sync_rx_bitslide.to_uint64());
  Outputs o;
  k.cycle(in, o);

  const ClockSyncOut& now = o.shown;
  sync_status = now.status;
  sync_error = now.errors;
  sync_offset_ps = uint32_t(now.offset_ps);
  sync_rtt_ps = now.rtt_ps;
  sync_delay_ms_ps = now.delay_ms_ps;
  sync_servo_p_ps = uint32_t(now.servo_p_ps);
  sync_servo_i_ppt = uint32_t(now.servo_i_ppt);
  sync_dac = now.dac_word;
  sync_phase_steps = uint32_t(now.phase_steps_total);
  sync_holdover_us = now.holdover_us;
  sync_busy = o.busy ? 1 : 0;
  sync_dac_word = now.dac_word;
  sync_dac_load = o.dac_load ? 1 : 0;
  sync_phase_steps_req = uint32_t(now.phase_steps);
  sync_phase_load = o.phase_load ? 1 : 0;
  sync_time_step = uint64_t(now.time_step_ticks);
  sync_time_step_load = o.time_step_load ? 1 : 0;
}
