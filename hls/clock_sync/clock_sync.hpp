// The clock-synchronisation servo kernel: turns two-way exchanges and DDMTD
// phase samples into a VCXO frequency (DAC word) and MMCM fine phase steps
// that keep this board's time on the reference's. Behaviour: docs/clock-sync.md.
//
// Synthesisable style: fixed-point int64 arithmetic (no float), no heap, no
// STL; all state in ClockSyncState so the co-simulation runs many boards in
// one process while the HLS top (clock_sync_top.cpp) keeps one as a static.
#pragma once

#include <cstdint>

#include "clock_sync/clock_sync_io.hpp"

namespace lightrail {
namespace sync {

// SYNC_STATUS.STATE values.
enum class SyncMode : uint8_t {
  kDisabled = 0,
  kFreeRun = 1,  // enabled, reference never seen
  kCoarse = 2,   // phase correction limited by the slew bound
  kTrack = 3,    // PI on the two-way offset
  kFine = 4,     // PI on the DDMTD-refined offset
  kLocked = 5,
  kHoldover = 6,
};

// Frequencies are fractions of nominal in units of 2^-kFreqFracBits.
constexpr int kFreqFracBits = 40;
constexpr int64_t kPeriodFs = int64_t{hwdef::CLK_PERIOD_PS} * 1000;
// The integrator and FLL see errors clamped to this (keeps the Q40 shift in
// int64 range; larger errors are handled by the slew stage anyway).
constexpr int64_t kIntegratorErrorLimitFs = int64_t{1} << 21;
// The integrator runs only while |error| is within this many lock
// thresholds; beyond, the FLL steers the frequency (see servo_sample).
constexpr int64_t kIntegrateWithinLockThresholds = 8;
// The integral gain until lock: SYNC_KI, or this if SYNC_KI is lower.
constexpr int64_t kAcquireKiQ16 = hwdef::SYNC_DEFAULT_KI_Q16;
// Gain of the frequency-locked loops: the fraction of the measured
// frequency error removed per sample. On the DDMTD phase (a beat old at
// most) half; with the oscillator's tuning gain 0.4x..1.5x of what the servo
// is told the loop gain stays within 0.2..0.75, below the limit of 1 that a
// one-sample delay sets (docs/clock-sync.md, "Frequency acquisition").
constexpr int kFllShift = 1;
// Before the whole-period count is known, the frequency is learnt from the
// DDMTD's beat alone (its phase advances by the frequency error every beat,
// whatever the exchange's age) at this gain: a quarter, so the per-beat
// noise of the phase (the pairing with the newest reference tag) averages.
constexpr int kSyntoniseShift = 2;
// One servo update: a DDMTD beat.
constexpr int64_t kBeatFs = int64_t{hwdef::DDMTD_N + 1} * kPeriodFs;
// The oldest a two-way exchange can be when the servo gets it, local time:
// Sync forward, Delay_Req back, Delay_Resp (t4) forward again over the
// longest supported fibre (group index <= 1.5: 5 ns/m), plus framing, the
// answer's turnaround and the kernel's latency (10 us together), plus a
// beat for the exchange to wait for the servo's next update.
constexpr int64_t kFibreFsPerM = 5000000;
constexpr int64_t kExchangeOverheadFs = 10000000000 + kBeatFs;
constexpr int64_t kExchangeAgeMaxFs =
    3 * int64_t{hwdef::SYNC_MAX_FIBRE_M} * kFibreFsPerM + kExchangeOverheadFs;
// The whole-period count is taken from an exchange only while the DDMTD
// phase has drifted less than this per beat (filtered): over the exchange's
// age the phase then moves by well under the lock threshold.
constexpr int64_t kSyntonisedDriftFs = 2000;
// In FINE the phase is slewed by at most half a period per sample (112 MMCM
// steps, one per 13 cycles: 1,456 cycles after the kernel's 1,024), so every
// step has landed before the next DDMTD tag and is in the phase it reports.
constexpr int64_t kFineSlewMaxFs = kPeriodFs / 2;
// The DDMTD cycle count is taken from the two-way offset only when that is
// this close to zero, so the nearest whole period is unambiguous.
constexpr int64_t kFineAcquireFs = kPeriodFs / 4;
// In FINE, a DDMTD-refined offset this far from the two-way offset is a slip
// (a bad phase sample or a lost whole-period count), not a measurement.
constexpr int64_t kPhaseSlipFs = kPeriodFs / 8;
// A coarse exchange (a receive stamp not refined: clock_sync_io.hpp) steers
// a servo that uses the DDMTD only once the DDMTD has been silent this long:
// after a relock it pairs again within three beats, and in between a 4 ns
// stamp would move the phase by up to KP x 2 ns.
constexpr int64_t kCoarseExchangeSilentFs = int64_t{hwdef::DDMTD_N + 1} * kPeriodFs * 4;
// No DDMTD phase for this long (a beat and a quarter) means it fell silent.
constexpr int64_t kDdmtdSilentFs = int64_t{hwdef::DDMTD_N + 1} * kPeriodFs * 5 / 4;
// A one-way delay this far from the filtered one is an outlier exchange (well
// above the noise of cycle timestamps, well below the smallest time step,
// SYNC_TIME_STEP_MIN_PS); this many in a row re-seed the filter.
constexpr int64_t kExchangeOutlierFs = 4 * kPeriodFs;
static_assert(2 * kExchangeOutlierFs < int64_t{hwdef::SYNC_TIME_STEP_MIN_PS} * 1000,
              "an outlier bound must stay below the smallest time step");
constexpr uint32_t kOutliersBeforeReseed = 4;
constexpr int64_t kTimeStepMinFs = int64_t{hwdef::SYNC_TIME_STEP_MIN_PS} * 1000;
// A locked board whose path delay (from the exchange) or DDMTD phase jumps by
// more than the lock threshold holds its servo for at most this many samples
// until both have settled, then re-points its phase setpoint (the DDMTD
// phase and the exchange arrive up to a sample apart).
// The hold also lasts at least the exchange's age (the phase sees a step
// that long before the exchange does), so this many at most on the longest
// supported fibre.
constexpr uint32_t kPathHoldSamples = uint32_t(kExchangeAgeMaxFs / kBeatFs) + 3;
// Consecutive updates at the DAC rail before the sticky DAC_SATURATED flag:
// acquisition overshoots the pull range for a few samples on a healthy
// board (star of 8: 4 of 7 followers flagged with DAC words near mid-scale);
// an oscillator outside its range stays at the rail for good. The status
// bit DAC_AT_RAIL still shows every update.
constexpr uint32_t kRailSamples = 16;

struct ClockSyncState {
  SyncMode mode = SyncMode::kDisabled;
  uint32_t errors = 0;
  int64_t since_sample_fs = 0;  // local time since the last servo sample
  // Two-way exchange.
  bool have_exchange = false;
  int64_t theta_fs = 0;     // offset from the last exchange
  int64_t delay_ms_fs = 0;  // filtered one-way delay reference -> board
  uint32_t rtt_ps = 0;
  uint32_t outliers = 0;  // exchanges in a row far off the filtered delay
  // DDMTD: unwrapped lead of the local clock over the recovered reference.
  bool phase_init = false;
  int64_t lead_fs = 0;
  int64_t applied_since_phase_fs = 0;  // phase steps issued since the last phase sample
  bool fine = false;                   // cycle count acquired: error from DDMTD
  int64_t since_phase_fs = 0;          // local time since the last DDMTD phase
  int64_t cycles = 0;                  // whole periods between lead - delay and offset
  int64_t phase_jump_fs = 0;           // lead motion at the last phase sample that the steps do not explain
  // A step of the path delay or phase, while locked (see kPathHoldSamples).
  int64_t fwd_now_fs = 0;              // one-way delay of the last exchange, unfiltered
  uint32_t hold_run = 0;               // samples held so far
  int64_t hold_fs = 0;                 // local time held so far
  int64_t age_fs = kExchangeAgeMaxFs;  // how old an exchange is when it arrives (from the round trip)
  bool coarse_exchange = false;        // the last one taken had cycle stamps (not DDMTD-refined)
  int64_t hold_fwd_fs = 0;             // one-way delay at the last held sample
  int64_t hold_lead_fs = 0;            // lead before the hold
  int64_t setpoint_fs = 0;       // step still to be slewed, fed forward (the loop's error is not disturbed)
  bool serving_slew = false;     // a serving board slews a re-acquisition: not on time until it is done
  int64_t ff_since_prev_fs = 0;  // of the phase steps since the last sample, the fed-forward part
  // Servo.
  int64_t freq_q40 = 0;   // integral term: frequency correction
  bool at_rail = false;   // the last update wanted more than the DAC's pull range
  uint32_t rail_run = 0;  // consecutive updates at_rail
  bool prev_valid = false;
  int64_t prev_err_fs = 0;
  int64_t applied_since_prev_fs = 0;  // phase steps issued since the last sample
  // The part of this update's phase correction under half an MMCM step,
  // moved by the DAC instead: a frequency pulse until the next update
  // (about interval_fs, the last one), and the phase it moves meanwhile.
  int64_t pulse_q40 = 0;
  int64_t pulse_fs = 0;
  int64_t interval_fs = 0;
  int64_t step_residual_fs = 0;  // what the DAC had no room for (at its rail), to the next sample
  int64_t last_err_fs = 0;
  int64_t last_p_fs = 0;
  bool slewing = false;
  uint32_t lock_run = 0;
  bool locked = false;
  bool ever_locked = false;   // since enable: the coarse time set is over
  bool step_holdoff = false;  // a time step was issued: the next exchange delivered may straddle it
  int64_t holdoff_fs = 0;     // and so may every one within its age of the step
  int64_t calm_fs = 0;  // local time since the servo last moved the phase by more than the lock threshold
  int64_t drift_avg_fs = 0;   // DDMTD phase drift per beat, filtered (syntonisation)
  int64_t time_step_now = 0;  // ticks stepped by this call
  int64_t steps_now = 0;      // phase steps issued by this call
  int32_t steps_total = 0;
  int64_t holdover_fs = 0;
};

// One servo update. A value-initialised ClockSyncState is the reset state.
void clock_sync_step(ClockSyncState& state, const ClockSyncIn& in, ClockSyncOut& out);

}  // namespace sync
}  // namespace lightrail
