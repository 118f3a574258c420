// Drives the servo's HLS top (hls/clock_sync/clock_sync_top.hpp) one call
// per clock cycle through plain structs, as the board top's sync_* ports
// would. C++14: the Vitis C-simulation test bench includes it too.
#pragma once

#include <cstdint>

#include "clock_sync/clock_sync_top.hpp"

namespace lightrail {
namespace sync {
namespace test {

// The kernel's inputs in one cycle (the board top's sync_*_o).
struct TopIn {
  // SYNC_* registers at their reset values, servo enabled on the DDMTD.
  uint32_t ctrl = hwdef::SYNC_CTRL_ENABLE_MASK | hwdef::SYNC_CTRL_USE_DDMTD_MASK;
  uint32_t cal_delay_ms_ps = 0;
  uint32_t cal_delay_sm_ps = 0;
  uint32_t cal_asym_ps = 0;
  uint32_t kp = hwdef::SYNC_DEFAULT_KP_Q16;
  uint32_t ki = hwdef::SYNC_DEFAULT_KI_Q16;
  uint32_t lock_thresh_ps = hwdef::SYNC_DEFAULT_LOCK_THRESH_PS;
  uint32_t lock_samples = hwdef::SYNC_DEFAULT_LOCK_SAMPLES;
  uint32_t slew_max_ns_per_s = hwdef::SYNC_DEFAULT_SLEW_MAX_NS_PER_S;
  uint32_t dac_pull_ppb = hwdef::SYNC_DEFAULT_DAC_PULL_PPB;
  uint32_t phase_step_fs = hwdef::SYNC_DEFAULT_PHASE_STEP_FS;
  uint32_t clear_errors = 0;
  bool phase_valid = false;
  uint32_t ddmtd_phase = 0;
  bool link_up = false;
  uint32_t parent_flags = sync::kGrandmasterFlags;  // the reference's frame flags
  uint32_t cycles = 0;
  uint32_t exchanges = 0;
  bool exchange_fine = true;
  int64_t t1_fs = 0, t2_fs = 0, t3_fs = 0, t4_fs = 0;
  uint32_t rx_bitslide = 0;
};

// What the kernel drives after the call (the board top's sync_*_i).
struct TopOut {
  uint32_t status = 0, error = 0, offset_ps = 0, rtt_ps = 0, delay_ms_ps = 0, servo_p_ps = 0, servo_i_ppt = 0,
           dac = 0, phase_steps = 0, holdover_us = 0;
  bool busy = false;
  uint32_t dac_word = 0;
  bool dac_load = false;
  uint32_t phase_steps_req = 0;
  bool phase_load = false;
  uint64_t time_step = 0;
  bool time_step_load = false;
};

inline TopOut call_top(const TopIn& i) {
  ap_uint<32> status, error, offset, rtt, delay, p, ki, dac, steps, holdover, steps_req;
  ap_uint<1> busy, dac_load, phase_load, step_load;
  ap_uint<top::kDacBits> dac_word;
  ap_uint<64> time_step;
  lightrail_clock_sync(i.ctrl, i.cal_delay_ms_ps, i.cal_delay_sm_ps, i.cal_asym_ps, i.kp, i.ki,
                       i.lock_thresh_ps, i.lock_samples, i.slew_max_ns_per_s, i.dac_pull_ppb, i.phase_step_fs,
                       i.clear_errors, status, error, offset, rtt, delay, p, ki, dac, steps, holdover,
                       i.phase_valid ? 1u : 0u, i.ddmtd_phase, i.link_up ? 1u : 0u, i.parent_flags, i.cycles,
                       i.exchanges, i.exchange_fine ? 1u : 0u, static_cast<uint64_t>(i.t1_fs),
                       static_cast<uint64_t>(i.t2_fs), static_cast<uint64_t>(i.t3_fs),
                       static_cast<uint64_t>(i.t4_fs), i.rx_bitslide, busy, dac_word, dac_load, steps_req,
                       phase_load, time_step, step_load);
  TopOut o;
  o.status = uint32_t(status.to_uint64());
  o.error = uint32_t(error.to_uint64());
  o.offset_ps = uint32_t(offset.to_uint64());
  o.rtt_ps = uint32_t(rtt.to_uint64());
  o.delay_ms_ps = uint32_t(delay.to_uint64());
  o.servo_p_ps = uint32_t(p.to_uint64());
  o.servo_i_ppt = uint32_t(ki.to_uint64());
  o.dac = uint32_t(dac.to_uint64());
  o.phase_steps = uint32_t(steps.to_uint64());
  o.holdover_us = uint32_t(holdover.to_uint64());
  o.busy = busy.to_uint64() != 0;
  o.dac_word = uint32_t(dac_word.to_uint64());
  o.dac_load = dac_load.to_uint64() != 0;
  o.phase_steps_req = uint32_t(steps_req.to_uint64());
  o.phase_load = phase_load.to_uint64() != 0;
  o.time_step = time_step.to_uint64();
  o.time_step_load = step_load.to_uint64() != 0;
  return o;
}

// The model's outputs as the kernel's ports carry them.
inline bool same_values(const TopOut& t, const ClockSyncOut& m) {
  return t.status == m.status && t.error == m.errors && t.offset_ps == uint32_t(m.offset_ps) &&
         t.rtt_ps == m.rtt_ps && t.delay_ms_ps == m.delay_ms_ps && t.servo_p_ps == uint32_t(m.servo_p_ps) &&
         t.servo_i_ppt == uint32_t(m.servo_i_ppt) && t.dac == m.dac_word &&
         t.phase_steps == uint32_t(m.phase_steps_total) && t.holdover_us == m.holdover_us &&
         t.dac_word == m.dac_word && t.phase_steps_req == uint32_t(m.phase_steps) &&
         t.time_step == uint64_t(m.time_step_ticks);
}

// The model's configuration from the same register values.
inline ClockSyncConfig config_of(const TopIn& i) {
  ClockSyncConfig c;
  c.enable = (i.ctrl & hwdef::SYNC_CTRL_ENABLE_MASK) != 0;
  c.use_ddmtd = (i.ctrl & hwdef::SYNC_CTRL_USE_DDMTD_MASK) != 0;
  c.cal_delay_ms_ps = int32_t(i.cal_delay_ms_ps);
  c.cal_delay_sm_ps = int32_t(i.cal_delay_sm_ps);
  c.cal_asym_ps = int32_t(i.cal_asym_ps);
  c.kp_q16 = i.kp;
  c.ki_q16 = i.ki;
  c.lock_thresh_ps = i.lock_thresh_ps;
  c.lock_samples = i.lock_samples;
  c.slew_max_ns_per_s = i.slew_max_ns_per_s;
  c.dac_pull_ppb = i.dac_pull_ppb;
  c.phase_step_fs = i.phase_step_fs;
  return c;
}

}  // namespace test
}  // namespace sync
}  // namespace lightrail
