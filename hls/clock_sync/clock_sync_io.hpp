// The clock-synchronisation servo's per-call ports. One call of
// clock_sync_step() is one servo update: normally one per DDMTD phase sample
// (every DDMTD_N + 1 system cycles), carrying a two-way exchange whenever one
// completed since the previous call. Behaviour and units: docs/clock-sync.md.
//
// Units: times are int64 femtoseconds (the co-simulation's resolution);
// register-facing values are ps as in hwdef.hpp. Offset sign: positive means
// this board's time is ahead of the reference.
#pragma once

#include <cstdint>

#include "lightrail/hwdef.hpp"

namespace lightrail {
namespace sync {

// The SYNC_* read/write registers, as the register file drives them.
// Reset values are the SYNC_DEFAULT_* parameters.
struct ClockSyncConfig {
  bool enable = false;    // SYNC_CTRL.ENABLE
  bool use_ddmtd = true;  // SYNC_CTRL.USE_DDMTD
  bool serves = false;    // SYNC_CTRL.SERVES: other boards follow this one
  // Calibration, ps. Out-of-range values are clamped and flag
  // SYNC_ERROR.CAL_CLAMPED (see the hwdef limits).
  int32_t cal_delay_ms_ps = 0;  // reference TX + board RX fixed delay
  int32_t cal_delay_sm_ps = 0;  // board TX + reference RX fixed delay
  int32_t cal_asym_ps = 0;      // fibre forward minus backward delay
  uint32_t kp_q16 = hwdef::SYNC_DEFAULT_KP_Q16;
  uint32_t ki_q16 = hwdef::SYNC_DEFAULT_KI_Q16;
  uint32_t lock_thresh_ps = hwdef::SYNC_DEFAULT_LOCK_THRESH_PS;
  uint32_t lock_samples = hwdef::SYNC_DEFAULT_LOCK_SAMPLES;
  uint32_t slew_max_ns_per_s = hwdef::SYNC_DEFAULT_SLEW_MAX_NS_PER_S;
  uint32_t dac_pull_ppb = hwdef::SYNC_DEFAULT_DAC_PULL_PPB;
  uint32_t phase_step_fs = hwdef::SYNC_DEFAULT_PHASE_STEP_FS;
};

// What a grandmaster's frames say: locked, time valid, not in holdover.
constexpr uint32_t kGrandmasterFlags =
    (1u << hwdef::SYNC_FLAG_LOCKED_BIT) | (1u << hwdef::SYNC_FLAG_TIME_VALID_BIT);

struct ClockSyncIn {
  ClockSyncConfig cfg;
  int64_t elapsed_fs = 0;  // local time since the previous call (> 0)
  bool ref_ok = false;     // this board's own link is up (light, receiver aligned)
  // The flags of the reference's last Sync (SYNC_FLAG_*_BIT): the servo
  // follows while they say its time is valid, whether or not it is locked.
  uint32_t parent_flags = kGrandmasterFlags;
  // A completed two-way exchange: t1 reference TX and t4 reference RX in
  // reference time, t2 board RX and t3 board TX in board time, fs.
  bool exchange_valid = false;
  int64_t t1_fs = 0;
  int64_t t2_fs = 0;
  int64_t t3_fs = 0;
  int64_t t4_fs = 0;
  // Both receive stamps (t2, t4) were refined by their DDMTD's phase; a
  // coarse exchange carries a bare cycle stamp (up to a period off), so the
  // servo uses it only where a PTP servo would (docs/clock-sync.md,
  // "Coarse exchanges").
  bool exchange_fine = true;
  // A DDMTD sample: (tag_local - tag_ref) mod DDMTD_N, i.e. how far the
  // local clock lags the recovered reference clock, in units of
  // CLK_PERIOD_PS / DDMTD_N (hw/ddmtd.sv's phase output).
  bool phase_valid = false;
  uint32_t ddmtd_phase = 0;
  // Where the link receiver's last lock put the word boundary, in unit
  // intervals (CLK_PERIOD_PS / SYNC_LINK_WORD_BITS), 0..SYNC_LINK_WORD_BITS-1:
  // the transceiver's comma aligner reports it. It delays the recovered
  // clock and every receive timestamp alike, so it counts as receive delay
  // on top of SYNC_CAL_DELAY_MS_PS (which is calibrated at slide 0).
  uint32_t rx_bitslide_ui = 0;
  uint32_t clear_errors = 0;  // pulse: SYNC_ERROR bits to clear
};

struct ClockSyncOut {
  // Actuators, applied by the board before the next call.
  uint32_t dac_word = 1u << (hwdef::SYNC_DAC_BITS - 1);  // VCXO DAC; mid-scale = nominal
  int32_t phase_steps = 0;                               // MMCM fine phase steps now; > 0 advances board time
  int64_t time_step_ticks = 0;                           // coarse time set: ticks to add now, whole cycles
  // Status, laid out as the SYNC_* registers of the same names.
  uint32_t status = 0;
  uint32_t errors = 0;
  int32_t offset_ps = 0;
  uint32_t rtt_ps = 0;
  uint32_t delay_ms_ps = 0;
  int32_t servo_p_ps = 0;
  int32_t servo_i_ppt = 0;
  int32_t phase_steps_total = 0;
  uint32_t holdover_us = 0;
};

}  // namespace sync
}  // namespace lightrail
