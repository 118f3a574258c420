// The board's clock-synchronisation servo as the host sees it: its role and
// status (SYNC_CTRL .. SYNC_LINK_BAD_FRAMES), the mode a lab engineer sets
// (SYNC_CTRL) and the calibration a timing engineer measures once per link
// (SYNC_CAL_*). Registers: docs/registers.md; servo behaviour:
// docs/clock-sync.md. Read and written through Device. SyncStatus and
// SyncCalibration mirror their registers and JSON field for field, so their
// times stay plain int64_t picoseconds named *_ps (docs/driver.md, "Times").
// Thread safety: value types and pure functions; safe from any thread on
// distinct objects.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lightrail/export.hpp"
#include "lightrail/time.hpp"
#include "lightrail/validate.hpp"

namespace lightrail {

struct SyncStatus {
  std::string state;  // DISABLED, FREE_RUN, COARSE, TRACK, FINE, LOCKED, HOLDOVER (UNKNOWN(n) otherwise)
  uint32_t state_code = 0;  // SYNC_STATUS.STATE
  bool enabled = false;     // SYNC_CTRL.ENABLE: the servo runs
  bool use_ddmtd = false;   // SYNC_CTRL.USE_DDMTD: 0 is the two-way-only (PTP-style) mode
  bool reference = false;   // SYNC_CTRL.REFERENCE: the board is the reference (grandmaster) on its link
  bool locked = false;
  bool holdover = false;         // reference lost: frequency held
  bool ref_ok = false;           // this board's own link to its reference is up (light, engine aligned)
  bool time_valid = false;       // this board's time is good to follow (locked once since enable, kept)
  bool parent_degraded = false;  // own link up; the reference serves valid time but is not locked
  bool parent_holdover = false;  // own link up; the reference is in holdover
  bool slewing = false;          // the phase correction is at the slew bound
  bool ddmtd_active = false;
  int64_t offset_ps = 0;     // servo's estimate of board minus reference time (+: board ahead)
  uint32_t rtt_ps = 0;       // last round trip (t2-t1)+(t4-t3)
  uint32_t delay_ms_ps = 0;  // estimated one-way delay reference -> board
  int64_t servo_p_ps = 0;    // last proportional (phase) correction
  int64_t servo_i_ppt = 0;   // integral term: frequency correction, parts per 10^12
  uint32_t dac = 0;          // VCXO DAC word (mid-scale = nominal)
  int32_t phase_steps = 0;   // net MMCM fine phase steps since enable (wraps)
  uint32_t holdover_us = 0;  // time in the current (or last) holdover
  // The board's own link's message engine (SYNC_LINK, SYNC_LINK_BAD_FRAMES;
  // on sim:// the co-simulated board's own engine, 0 in its fast mode).
  bool link_aligned = false;        // the receiver found the word boundary: the far end runs the engine
  bool parent_locked = false;       // follower: the reference's last Sync said LOCKED (0 on a reference)
  bool parent_time_valid = false;   // ... said its time is valid (locked once and kept): followed
  bool parent_in_holdover = false;  // ... said it is in holdover
  uint32_t rx_bitslide_ui = 0;      // receive word boundary's slide, unit intervals (valid while aligned)
  uint32_t link_bad_frames = 0;     // frames dropped and line errors since reset (wraps)
  // The downstream ports, each serving one follower (SYNC_DOWN_LINK,
  // SYNC_DOWN_BAD_FRAMES): bit k-1 set when port k's engine aligned, and
  // their frames dropped and line errors together since reset (wraps).
  uint32_t down_aligned = 0;
  uint32_t down_bad_frames = 0;
  // SYNC_EXCHANGE_PERIOD: cycles from one Sync to the next this board sends
  // where it is the reference (sync_exchange_rate_hz gives the rate).
  uint32_t exchange_period_cycles = 0;
  std::vector<std::string> errors;  // sticky SYNC_ERROR flags set, by name ("REF_LOST")
};

// The board's role on its sync link and what its servo does: the SYNC_CTRL
// values a lab engineer chooses between (docs/lab.md).
enum class SyncMode {
  kOff,              // SYNC_CTRL = 0: servo off, follows nothing, sends no Sync frames
  kReference,        // REFERENCE: the grandmaster; servo off, its time is the reference
  kFollower,         // ENABLE | USE_DDMTD: follows the link, refined by the DDMTD phase
  kFollowerPtpOnly,  // ENABLE: follows the link on the two-way exchange alone (PTP-style)
};

// The SYNC_CTRL word of a mode (no other bits set).
LIGHTRAIL_EXPORT uint32_t sync_ctrl_word(SyncMode mode);
// "off", "reference", "follower", "follower-ptp-only".
LIGHTRAIL_EXPORT std::string sync_mode_name(SyncMode mode);
// The mode a SYNC_CTRL value amounts to: without ENABLE, USE_DDMTD changes
// nothing (the reset value, USE_DDMTD alone, is off). nullopt for REFERENCE
// with ENABLE, which no mode sets: a reference receives no Sync frames on
// its link, so its servo has nothing to follow.
LIGHTRAIL_EXPORT std::optional<SyncMode> sync_mode_of(uint32_t sync_ctrl);
LIGHTRAIL_EXPORT std::optional<SyncMode> sync_mode_of(const SyncStatus& status);

// Fixed delays outside the fibre and the fibre's asymmetry, from the board's
// point of view. Values are checked by validate() before anything is written.
struct SyncCalibration {
  int64_t delay_tx_ps = 0;   // board TX + reference RX: SYNC_CAL_DELAY_SM_PS, 0..SYNC_CAL_DELAY_MAX_PS
  int64_t delay_rx_ps = 0;   // reference TX + board RX: SYNC_CAL_DELAY_MS_PS, 0..SYNC_CAL_DELAY_MAX_PS
  int64_t asymmetry_ps = 0;  // fibre forward (reference->board) minus backward: SYNC_CAL_ASYM_PS,
                             // |a| <= SYNC_CAL_ASYM_MAX_PS
  bool operator==(const SyncCalibration& o) const {
    return delay_tx_ps == o.delay_tx_ps && delay_rx_ps == o.delay_rx_ps && asymmetry_ps == o.asymmetry_ps;
  }
  bool operator!=(const SyncCalibration& o) const { return !(*this == o); }
};

// Every out-of-range value, named by field ("asymmetry_ps"); empty means the
// calibration may be written.
LIGHTRAIL_EXPORT std::vector<Problem> validate(const SyncCalibration& calibration);

// The calibration arithmetic of docs/lab.md, section 5 (White Rabbit's
// procedure, in this register map's terms). A locked follower settles
// (DELAY_MS - DELAY_SM + a)/2 behind its reference when those are not
// calibrated (a: fibre forward minus backward); each function returns the
// values that remove what was measured.

// A PPS skew measured on a locked follower (its edge minus the reference's,
// ps, averaged, cable difference removed; positive: late) folded into its
// fixed delays: late by s, the receive delay grows by 2s; early, the
// transmit delay by 2|s|. Throws Error beyond 64-bit range.
LIGHTRAIL_EXPORT SyncCalibration with_pps_skew(const SyncCalibration& calibration, picoseconds skew);

// A port's fixed delays (transceiver, traces), measured once per board
// against one golden board (docs/lab.md): a link's SYNC_CAL_DELAY_* are the
// sums of its two ends' ports, so a re-patched link needs no new skew.
struct PortDelays {
  int64_t tx_ps = 0;
  int64_t rx_ps = 0;
};
LIGHTRAIL_EXPORT SyncCalibration with_port_delays(const SyncCalibration& calibration,
                                                  const PortDelays& reference, const PortDelays& board);

// One point of the fibre's alpha measurement: a follower calibrated for its
// ports, on one fibre, with SYNC_CAL_ASYM_PS = 0: its PPS skew (as above)
// and the round trip `sync status` shows (SYNC_RTT_PS).
struct AlphaPoint {
  double skew_ps = 0;
  double rtt_ps = 0;
};
// alpha = forward / backward delay - 1 of the fibre, from two fibres of
// different length on the same ports (their fixed delays cancel).
// Throws FormatError when the round trips do not differ.
LIGHTRAIL_EXPORT double fibre_alpha(const AlphaPoint& a, const AlphaPoint& b);
// Its standard error, from the skews' (and round trips') rms error.
LIGHTRAIL_EXPORT double fibre_alpha_error(const AlphaPoint& a, const AlphaPoint& b, double skew_error_ps);
// The asymmetry (SYNC_CAL_ASYM_PS) of a fibre of that alpha and round trip
// (the measured round trip minus the calibrated fixed delays).
LIGHTRAIL_EXPORT int64_t fibre_asymmetry_ps(double alpha, int64_t fibre_rtt_ps);

// The two-way exchange's rate on the links a board serves, set by
// SYNC_EXCHANGE_PERIOD (cycles from Sync to Sync): one per DDMTD beat
// (61,020/s, the reset value) down to SYNC_EXCHANGE_PERIOD_MAX (16/s).
LIGHTRAIL_EXPORT double sync_exchange_rate_hz(uint32_t period_cycles);
// The whole period nearest rate_hz exchanges per second; FormatError naming
// "rate_hz" when the engine cannot send at that rate (not a number, faster
// than a beat, slower than SYNC_EXCHANGE_PERIOD_MAX).
LIGHTRAIL_EXPORT uint32_t sync_exchange_period_cycles(double rate_hz);

// Name of a SYNC_STATUS.STATE value.
LIGHTRAIL_EXPORT std::string sync_state_name(uint32_t state);
// Names of the SYNC_ERROR flags set in value, in bit order.
LIGHTRAIL_EXPORT std::vector<std::string> sync_error_flag_names(uint32_t value);
// One line a user can act on: "locked, offset 3 ps", "no reference link ...".
LIGHTRAIL_EXPORT std::string describe(const SyncStatus& status);

}  // namespace lightrail
