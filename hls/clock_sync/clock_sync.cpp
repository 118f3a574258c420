// The clock-synchronisation servo. Stages, in the order a board goes through
// them: FREE_RUN until the reference appears; COARSE while the phase
// correction is held at the slew bound (frequency learnt by an FLL); TRACK,
// a PI loop on the two-way offset; FINE, the same loop on the DDMTD-refined
// offset; LOCKED once the error stays small. Before the first lock an
// offset of SYNC_TIME_STEP_MIN_PS or more is removed by stepping board time
// (the coarse time set at boot); after it, time is only ever slewed. Losing
// the reference holds the learnt frequency (HOLDOVER); its return re-enters
// COARSE/TRACK, which slew.
#include "clock_sync/clock_sync.hpp"

namespace lightrail {
namespace sync {
namespace {

using hwdef::DDMTD_N;
using hwdef::SYNC_DAC_BITS;

constexpr int64_t kFsPerPs = 1000;
constexpr int64_t kPpbDenominator = 1000000000;  // ppb and ns/s per unit
constexpr int64_t kDacMid = int64_t{1} << (SYNC_DAC_BITS - 1);
constexpr int64_t kDacMax = (int64_t{1} << SYNC_DAC_BITS) - 1;
constexpr int64_t kLinkUiFs = kPeriodFs / hwdef::SYNC_LINK_WORD_BITS;  // one bit of the sync link

int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Clamps v into [lo, hi]; a clamp raises CAL_CLAMPED.
int64_t clamp_flagged(int64_t v, int64_t lo, int64_t hi, uint32_t& errors) {
  if (v < lo || v > hi) errors |= hwdef::SYNC_ERROR_CAL_CLAMPED_MASK;
  return clamp64(v, lo, hi);
}

// Division rounding to nearest (halves away from zero); d > 0.
int64_t div_round(int64_t n, int64_t d) { return n >= 0 ? (n + d / 2) / d : -((-n + d / 2) / d); }

// v * k / 2^16, rounded; sign-magnitude so no right shift of a negative.
int64_t mul_q16(int64_t v, int64_t k) {
  const int64_t m = (abs64(v) * k + 32768) >> 16;
  return v < 0 ? -m : m;
}

// Fold v into [-T/2, T/2).
int64_t wrap_half_period(int64_t v) {
  int64_t m = v % kPeriodFs;
  if (m < 0) m += kPeriodFs;
  return m >= kPeriodFs / 2 ? m - kPeriodFs : m;
}

int32_t saturate32(int64_t v) { return static_cast<int32_t>(clamp64(v, INT32_MIN, INT32_MAX)); }
uint32_t saturate_u32(int64_t v) { return static_cast<uint32_t>(clamp64(v, 0, UINT32_MAX)); }

// The configuration in the kernel's units, every value within its range.
struct Limits {
  int64_t cal_ms_fs, cal_sm_fs, asym_fs;
  int64_t kp, ki;
  int64_t lock_thresh_fs;
  uint32_t lock_samples;
  int64_t slew_ns_per_s;
  bool serving;       // SYNC_CTRL.SERVES and the time valid: re-acquisitions are slewed slowly
  bool two_way_only;  // USE_DDMTD off: the exchange alone steers
  int64_t pull_q40;   // +- frequency range of the DAC
  int64_t step_fs;
};

Limits checked(const ClockSyncConfig& c, uint32_t rx_bitslide_ui, uint32_t& errors) {
  Limits l{};
  const int64_t dmax = hwdef::SYNC_CAL_DELAY_MAX_PS, amax = hwdef::SYNC_CAL_ASYM_MAX_PS;
  const int64_t slide = clamp_flagged(rx_bitslide_ui, 0, hwdef::SYNC_LINK_WORD_BITS - 1, errors);
  l.cal_ms_fs = clamp_flagged(c.cal_delay_ms_ps, 0, dmax, errors) * kFsPerPs + slide * kLinkUiFs;
  l.cal_sm_fs = clamp_flagged(c.cal_delay_sm_ps, 0, dmax, errors) * kFsPerPs;
  l.asym_fs = clamp_flagged(c.cal_asym_ps, -amax, amax, errors) * kFsPerPs;
  l.kp = clamp_flagged(c.kp_q16, 0, 65536, errors);
  l.ki = clamp_flagged(c.ki_q16, 0, 65536, errors);
  l.lock_thresh_fs = int64_t{c.lock_thresh_ps} * kFsPerPs;
  l.two_way_only = !c.use_ddmtd;
  l.lock_samples = static_cast<uint32_t>(clamp_flagged(c.lock_samples, 1, UINT32_MAX, errors));
  l.slew_ns_per_s = clamp_flagged(c.slew_max_ns_per_s, 0, hwdef::SYNC_SLEW_MAX_LIMIT, errors);
  const int64_t pull = clamp_flagged(c.dac_pull_ppb, 1, 1000000, errors);
  l.pull_q40 = (pull << kFreqFracBits) / kPpbDenominator;
  l.step_fs = clamp_flagged(c.phase_step_fs, 1, 1000000, errors);
  return l;
}

// One two-way exchange, its receive stamps refined by a DDMTD phase or bare
// cycle stamps (`fine`). Returns false (and flags it) when the round trip is
// negative or smaller than the calibrated delays say it must be.
bool take_exchange(ClockSyncState& s, const ClockSyncIn& in, const Limits& l, bool fine) {
  const int64_t fwd_raw = in.t2_fs - in.t1_fs;  // delay_ms + offset
  const int64_t rtt = fwd_raw + (in.t4_fs - in.t3_fs);
  const int64_t fibre_rtt = rtt - l.cal_ms_fs - l.cal_sm_fs;
  if (rtt < 0 || fibre_rtt < 0 || abs64(l.asym_fs) > fibre_rtt) {
    s.errors |= hwdef::SYNC_ERROR_BAD_EXCHANGE_MASK;
    return false;
  }
  // forward = fixed forward + (fibre round trip + asymmetry) / 2
  const int64_t fwd = l.cal_ms_fs + (fibre_rtt + l.asym_fs) / 2;
  // The path delay drifts slowly; one far off the filtered delay is an
  // exchange that straddled a time step of either side (the coarse time
  // set). A few in a row mean the path itself changed: start over.
  if (s.have_exchange && abs64(fwd - s.delay_ms_fs) > kExchangeOutlierFs) {
    s.errors |= hwdef::SYNC_ERROR_BAD_EXCHANGE_MASK;
    if (++s.outliers < kOutliersBeforeReseed) return false;
    s.have_exchange = false;
  }
  s.outliers = 0;
  s.theta_fs = fwd_raw - fwd;
  s.coarse_exchange = !fine;
  s.rtt_ps = saturate_u32(rtt / kFsPerPs);
  // Sync forward, Delay_Req back, Delay_Resp forward: one and a half round trips.
  s.age_fs = rtt + rtt / 2 + kExchangeOverheadFs;
  s.fwd_now_fs = fwd;
  // Locked on the DDMTD, a delay this far off is a step of the path, not
  // noise: filtering it in would walk the phase reference over 16 exchanges
  // (the board chases the phase jump, then half of it back: a 2x overshoot).
  // The step is taken whole once it has settled (clock_sync_step).
  if (s.have_exchange && s.fine && s.locked && abs64(fwd - s.delay_ms_fs) > l.lock_thresh_fs) return true;
  // A board that moved its own time within the exchange's age may have had
  // a receive stamp refined by a DDMTD phase from before the move (the
  // newest phase is up to a beat old): that exchange's delay is off by the
  // move, and filtered in it would hold the phase reference off (an
  // overshoot after every re-acquisition). The hand-over to FINE waits for
  // a calm exchange, so the reference starts right.
  if (s.have_exchange && s.fine && s.calm_fs < s.age_fs) return true;
  // The one-way delay the DDMTD phase is referred to: from a round trip
  // averaged over 16 exchanges, so timestamp noise does not reach the phase.
  // Until the whole-period count is taken, the delay follows every
  // exchange: one taken while acquiring (off frequency, slewing) is off by
  // up to a nanosecond, and a filter seeded with it would hold the DDMTD's
  // offset that far from the exchange's for tens of exchanges, refusing the
  // hand-over to FINE meanwhile.
  if (!s.have_exchange || !s.fine) s.delay_ms_fs = fwd;
  s.delay_ms_fs += div_round(fwd - s.delay_ms_fs, 16);
  s.have_exchange = true;
  return true;
}

// Unwraps a DDMTD sample into lead_fs, expecting the phase steps issued
// since the previous sample to have moved it.
void take_phase(ClockSyncState& s, uint32_t ddmtd_phase) {
  const int64_t lag = int64_t{ddmtd_phase % DDMTD_N};
  const int64_t lead_raw = div_round(((DDMTD_N - lag) % DDMTD_N) * kPeriodFs, DDMTD_N);
  if (!s.phase_init) {
    s.lead_fs = lead_raw;
    s.phase_jump_fs = 0;
    s.phase_init = true;
  } else {
    const int64_t predicted = s.lead_fs + s.applied_since_phase_fs;
    s.phase_jump_fs = wrap_half_period(lead_raw - predicted);
    s.lead_fs = predicted + s.phase_jump_fs;
  }
  s.applied_since_phase_fs = 0;
}

// Holds the frequency within the DAC's range; an update that wanted more
// (`beyond`) is at the rail, and kRailSamples of them in a row are flagged.
void rail_check(ClockSyncState& s, const Limits& l, bool beyond) {
  s.at_rail = beyond;
  s.rail_run = s.at_rail ? (s.rail_run < kRailSamples ? s.rail_run + 1 : kRailSamples) : 0;
  if (s.rail_run >= kRailSamples) s.errors |= hwdef::SYNC_ERROR_DAC_SATURATED_MASK;
  s.freq_q40 = clamp64(s.freq_q40, -l.pull_q40, l.pull_q40);
}

void servo_sample(ClockSyncState& s, const Limits& l, int64_t err_fs) {
  const int64_t dt = s.since_sample_fs;
  s.since_sample_fs = 0;
  s.last_err_fs = err_fs;
  if (dt <= 0) return;

  // Proportional path: a phase correction, at most the slew bound.
  const int64_t p_max = l.slew_ns_per_s * dt / kPpbDenominator;
  // A path step being slewed away goes straight to the phase steps (at most
  // half the slew bound per sample, the rest left to the loop): the loop
  // never sees it, so neither its integrator nor its lock is disturbed.
  if (!s.fine) s.setpoint_fs = 0;
  const int64_t ff_max =
      l.serving ? clamp64(p_max, 0, int64_t{hwdef::SYNC_SERVING_SLEW_PPB} * dt / kPpbDenominator) : p_max / 2;
  const int64_t ff = clamp64(-s.setpoint_fs, -ff_max, ff_max);
  s.setpoint_fs += ff;
  // On the DDMTD the slew per sample is bounded further (kFineSlewMaxFs).
  const int64_t p_room =
      s.fine ? clamp64(p_max - abs64(ff), 0, kFineSlewMaxFs - abs64(ff)) : p_max - abs64(ff);
  const int64_t p_want = -mul_q16(err_fs, l.kp);
  const int64_t p = clamp64(p_want, -p_room, p_room);
  s.slewing = p != p_want;
  s.last_p_fs = p;

  const int64_t e_int = clamp64(err_fs, -kIntegratorErrorLimitFs, kIntegratorErrorLimitFs);
  // Conditional integration (anti-windup): far from zero the integrator
  // would wind up on an error the phase path is about to remove and
  // overshoot; there the frequency is learnt instead from the drift our own
  // steps do not explain (an FLL), and the integrator takes over near zero.
  // Two-way only, on an exchange of cycle stamps the offset is known to
  // half a period only: within that the integrator averages the stamps'
  // quantisation, where the FLL would take each jump of a period for a
  // frequency error and throw the DAC from rail to rail (so the port's
  // DDMTD never pairs and the stamps are never refined: `sync mode
  // --ptp-only`). With the DDMTD on, coarse exchanges come only while it
  // is silent, and the FLL steers until it pairs again (a boundary clock
  // integrating them there made its followers call slips: chain9_loss_hop3).
  const int64_t resolution = l.two_way_only && s.coarse_exchange ? kPeriodFs / 2 : 0;
  const bool integrate =
      !s.slewing && abs64(err_fs) <= kIntegrateWithinLockThresholds *
                                         (l.lock_thresh_fs > resolution ? l.lock_thresh_fs : resolution);
  // Slewing on the exchange is COARSE; on the DDMTD the count is known and
  // every step is seen in the next phase, so FINE is kept.
  if (s.slewing) {
    s.mode = s.fine ? SyncMode::kFine : SyncMode::kCoarse;
    s.lock_run = 0;
    s.locked = false;
  }
  if (!integrate) {
    if (s.prev_valid) {
      const int64_t drift = clamp64(err_fs - s.prev_err_fs - (s.applied_since_prev_fs - s.ff_since_prev_fs),
                                    -kIntegratorErrorLimitFs, kIntegratorErrorLimitFs);
      s.freq_q40 -= ((drift * (int64_t{1} << kFreqFracBits)) / dt) >> kFllShift;
    }
  } else {
    // Integral path: a frequency correction, held within the DAC range
    // (it never integrates past what the oscillator can do). Until lock it
    // integrates at least at the acquisition gain, so a narrow tracking
    // gain (a cascade's, docs/clock-sync.md) costs no lock time; the state
    // is the frequency itself, so the change of gain at lock is bumpless.
    const int64_t ki = s.locked ? l.ki : (l.ki > kAcquireKiQ16 ? l.ki : kAcquireKiQ16);
    s.freq_q40 -= mul_q16((e_int * (int64_t{1} << kFreqFracBits)) / dt, ki);
  }
  // A serving board's re-acquisition is not on time until its setpoint is.
  if (s.serving_slew && abs64(s.setpoint_fs) <= l.lock_thresh_fs) s.serving_slew = false;
  if (!s.slewing) {
    if (abs64(err_fs) <= l.lock_thresh_fs && !s.serving_slew) {
      if (s.lock_run < l.lock_samples) ++s.lock_run;
      if (s.lock_run >= l.lock_samples) s.locked = true;
    } else {
      s.lock_run = 0;
      if (s.locked && abs64(err_fs) > 2 * l.lock_thresh_fs) {
        s.locked = false;
        s.errors |= hwdef::SYNC_ERROR_LOST_LOCK_MASK;
      }
    }
    s.mode = s.locked ? SyncMode::kLocked : (s.fine ? SyncMode::kFine : SyncMode::kTrack);
  }
  // At the rail the oscillator cannot follow: flagged, never silent.
  rail_check(s, l, s.freq_q40 < -l.pull_q40 || s.freq_q40 > l.pull_q40);
  s.prev_err_fs = err_fs;
  s.prev_valid = true;
  s.applied_since_prev_fs = 0;
  s.ff_since_prev_fs = ff;

  // Whole MMCM steps, and what is left (at most half a step) as a
  // frequency pulse on the DAC over the next interval, so the phase moves
  // by exactly the correction, continuously. Carrying the remainder to the
  // next sample instead (first-order noise shaping) adds it to a correction
  // the next sample asks for again: an integrator on the phase, which with
  // the DDMTD's 1 ps resolution limit-cycles by a whole step (12 ps) on a
  // noiseless link (docs/clock-sync.md, "Phase actuation").
  // Near the DAC's rail the pulse gets what room the range leaves, and the
  // rest is carried to the next sample as before (the phase then still
  // comes right on average, where the DAC cannot move it).
  const int64_t want = p + ff + s.step_residual_fs;
  const int64_t steps = div_round(want, l.step_fs);
  s.steps_now += steps;
  const int64_t interval = s.interval_fs > 0 ? s.interval_fs : kBeatFs;
  const int64_t rest = want - steps * l.step_fs;
  const int64_t wanted_q40 = (rest * (int64_t{1} << kFreqFracBits)) / interval;  // |rest| <= half a step
  s.pulse_q40 = clamp64(wanted_q40, -l.pull_q40 - s.freq_q40, l.pull_q40 - s.freq_q40);
  s.pulse_fs = s.pulse_q40 == wanted_q40 ? rest : rest * s.pulse_q40 / wanted_q40;  // wanted_q40 != 0 here
  s.step_residual_fs = rest - s.pulse_fs;
}

// Back to the exchange after a step of the path or a slip: PI on the
// two-way offset (TRACK), until the DDMTD's whole-period count is taken
// again. A serving board moves no time on the exchange (its children would
// follow each jump): it holds its phase, unlocked, until the count is back
// and the setpoint slews the difference at SYNC_SERVING_SLEW_PPB.
void reacquire(ClockSyncState& s, const Limits& l) {
  if (!l.serving) {
    servo_sample(s, l, s.theta_fs);
    return;
  }
  if (s.locked) s.errors |= hwdef::SYNC_ERROR_LOST_LOCK_MASK;
  s.locked = false;
  s.lock_run = 0;
  s.slewing = false;
  s.since_sample_fs = 0;
  s.last_err_fs = s.theta_fs;
  s.mode = SyncMode::kTrack;
}

}  // namespace

void clock_sync_step(ClockSyncState& s, const ClockSyncIn& in, ClockSyncOut& out) {
  s.errors &= ~in.clear_errors;
  Limits l = checked(in.cfg, in.rx_bitslide_ui, s.errors);
  // A boundary clock whose time others follow moves it slowly once it is
  // valid, so they track it within their lock threshold: a re-acquisition
  // goes to the fed-forward setpoint, slewed at SYNC_SERVING_SLEW_PPB, while
  // the loop keeps its gains around it.
  l.serving = in.cfg.serves && s.ever_locked;
  const bool parent_valid = (in.parent_flags >> hwdef::SYNC_FLAG_TIME_VALID_BIT) & 1u;
  s.steps_now = 0;
  s.time_step_now = 0;
  s.pulse_q40 = 0;  // a pulse lasts one interval
  s.pulse_fs = 0;
  if (in.elapsed_fs > 0) s.interval_fs = in.elapsed_fs;

  if (!in.cfg.enable) {
    const uint32_t errors = s.errors;
    s = ClockSyncState{};
    s.errors = errors;
  } else if (!in.ref_ok || !parent_valid) {
    // HOLDOVER: keep the learnt frequency, issue no steps; every phase and
    // exchange reference is stale once the link returns, the path delay too
    // (the receiver may lock on another bit, the fibre may be re-patched):
    // the first exchange after it seeds the delay filter afresh. Whose
    // fault it is goes in the flag: this board's link, or its reference's
    // time (its frames say invalid).
    if (s.mode != SyncMode::kDisabled && s.mode != SyncMode::kFreeRun && s.mode != SyncMode::kHoldover) {
      s.mode = SyncMode::kHoldover;
      s.errors |= in.ref_ok ? hwdef::SYNC_ERROR_PARENT_LOST_MASK : hwdef::SYNC_ERROR_REF_LOST_MASK;
      s.holdover_fs = 0;
    }
    if (s.mode == SyncMode::kDisabled) s.mode = SyncMode::kFreeRun;
    if (s.mode == SyncMode::kHoldover) s.holdover_fs += in.elapsed_fs;
    s.locked = false;
    s.lock_run = 0;
    s.slewing = false;
    s.fine = false;
    s.phase_init = false;
    s.prev_valid = false;
    s.since_sample_fs = 0;
    s.have_exchange = false;
    s.outliers = 0;
  } else {
    if (s.mode == SyncMode::kDisabled || s.mode == SyncMode::kFreeRun || s.mode == SyncMode::kHoldover) {
      s.mode = SyncMode::kCoarse;  // until the first sample says otherwise
    }
    s.since_sample_fs += in.elapsed_fs;
    // An exchange straddling a time step measures neither side of it.
    // The next exchange delivered after a time step may have been stamped
    // before it (calls without one do not count).
    // Every exchange that arrives within its age of a time step may have
    // been stamped before it (on a long fibre, several).
    s.holdoff_fs = s.holdoff_fs > in.elapsed_fs ? s.holdoff_fs - in.elapsed_fs : 0;
    // A coarse exchange (bare cycle stamps: the engine had no fresh DDMTD
    // phase) is PTP's: taken without the DDMTD, or once it has been silent
    // for kCoarseExchangeSilentFs; else dropped unseen. Read here once.
    const bool stamps_fine = in.exchange_fine;
    const bool offered = in.exchange_valid && (stamps_fine || !in.cfg.use_ddmtd ||
                                               s.since_phase_fs + in.elapsed_fs > kCoarseExchangeSilentFs);
    const bool skip = offered && (s.step_holdoff || s.holdoff_fs > 0);
    if (skip) s.step_holdoff = false;
    const bool exchange = offered && !skip && take_exchange(s, in, l, stamps_fine);
    const bool phase = in.phase_valid && in.cfg.use_ddmtd;
    // The phase's motion since the previous phase that the servo's own
    // steps do not explain: the frequency error over phase_dt.
    const bool drift_valid = phase && s.phase_init;
    const int64_t phase_dt = s.since_phase_fs + in.elapsed_fs;
    if (phase) take_phase(s, in.ddmtd_phase);
    s.since_phase_fs = phase ? 0 : s.since_phase_fs + in.elapsed_fs;
    // Silent: no phase for a beat and a quarter (one comes every beat).
    const bool ddmtd_silent = s.since_phase_fs > kDdmtdSilentFs;
    if (!in.cfg.use_ddmtd) s.fine = false;

    // The DDMTD offset before the setpoint (what the exchange also sees).
    const int64_t raw_err = s.lead_fs - s.delay_ms_fs + s.cycles * kPeriodFs;
    const int64_t fine_err = raw_err - s.setpoint_fs;
    // Locked, a jump of the path delay or of the phase holds the servo until
    // both have settled (the two arrive up to a sample apart; taking either
    // alone would chase a transient).
    const bool both = s.fine && phase && exchange;
    // The phase has been still for the exchange's age: the board moved no
    // time of its own while this exchange was on its way. A receive stamp is
    // refined by the newest DDMTD phase, up to a beat older than the stamp,
    // so right after the board's own step (a re-point) it is off by that
    // step: no path moved, and holding for it would re-point twice.
    const bool calm = s.calm_fs >= s.age_fs;
    const bool path_moved =
        both && calm &&
        abs64(s.fwd_now_fs - (s.hold_run > 0 ? s.hold_fwd_fs : s.delay_ms_fs)) > l.lock_thresh_fs;
    const bool phase_jumped = both && abs64(s.phase_jump_fs) > l.lock_thresh_fs;
    // A hold lasts at least the exchange's age: the exchange sees a step
    // of the path that much later than the phase (and a hold the exchange
    // alone started outlasts a parent's own transient: its receive stamps
    // too are refined by a phase up to a beat old).
    const bool hold = both && s.locked && s.hold_run < kPathHoldSamples &&
                      (path_moved || phase_jumped || (s.hold_run > 0 && s.hold_fs < s.age_fs));
    const bool hold_ended = both && !hold && s.hold_run > 0;
    // In FINE the exchange overrules the DDMTD when the two contradict each
    // other (both carry the same calibration: a slip) or the DDMTD fell
    // silent (it pairs only a reference within 61 ppm that advances steadily).
    // Only while the phase has been still for the exchange's age: a stale
    // exchange of a board that is slewing contradicts nothing.
    const bool slip = both && !hold && !hold_ended && calm && abs64(raw_err - s.theta_fs) > kPhaseSlipFs;
    if (exchange && !s.ever_locked && abs64(s.theta_fs) >= kTimeStepMinFs) {
      // Coarse time set: whole clock cycles now, so board time stays on
      // the clock's edges and the DDMTD keeps meaning what it did; the
      // rest (under half a period) is the loop's.
      s.time_step_now = -div_round(s.theta_fs, kPeriodFs) * int64_t{hwdef::FINE_STEPS};
      s.errors |= hwdef::SYNC_ERROR_TIME_STEPPED_MASK;
      s.step_holdoff = true;
      s.holdoff_fs = s.age_fs;
      s.fine = false;
      s.prev_valid = false;
      s.since_sample_fs = 0;
    } else if (hold) {
      if (s.hold_run == 0) {
        s.hold_lead_fs = s.lead_fs - s.phase_jump_fs;
        s.hold_fs = 0;
      }
      s.hold_fs += in.elapsed_fs;
      s.hold_fwd_fs = s.fwd_now_fs;
      ++s.hold_run;  // no sample: no steps, the frequency held
    } else if (hold_ended) {
      s.hold_run = 0;
      const bool delay_moved = abs64(s.fwd_now_fs - s.delay_ms_fs) > l.lock_thresh_fs;
      if (delay_moved) {
        s.delay_ms_fs = s.fwd_now_fs;
        s.errors |= hwdef::SYNC_ERROR_DELAY_STEP_MASK;
      }
      const int64_t err = s.lead_fs - s.delay_ms_fs + s.cycles * kPeriodFs;
      // The exchange (fine timestamps, a few ps of noise) is the arbiter: a
      // phase that moved by other than it says is a slip of the DDMTD (a
      // lone outlier sample that came back within the hold is no move).
      const bool agree = abs64(err - s.theta_fs) <= 2 * l.lock_thresh_fs;
      if (!agree && !delay_moved) s.errors |= hwdef::SYNC_ERROR_PHASE_SLIP_MASK;
      if (abs64(s.lead_fs - s.hold_lead_fs) >= kFineAcquireFs || !agree) {
        // Beyond a quarter period the phase may have wrapped, or the DDMTD
        // and the exchange disagree: re-acquire from the exchange.
        s.fine = false;
        s.phase_init = false;
        s.setpoint_fs = 0;
        s.prev_valid = false;  // the jump is no frequency error for the FLL
        reacquire(s, l);
      } else {
        // Re-point: the step, fed forward, moves the board; the loop
        // carries on from the error it had.
        s.setpoint_fs = err - s.last_err_fs;
        servo_sample(s, l, s.last_err_fs);
      }
    } else if (slip || (s.fine && !phase && exchange && ddmtd_silent)) {
      // Track the exchange and re-acquire the whole-period count.
      if (slip) s.errors |= hwdef::SYNC_ERROR_PHASE_SLIP_MASK;
      s.fine = false;
      s.phase_init = false;
      s.setpoint_fs = 0;
      s.hold_run = 0;
      s.prev_valid = false;  // the jump is no frequency error for the FLL
      reacquire(s, l);
    } else if (s.fine && phase) {
      servo_sample(s, l, fine_err);
    } else if (!s.fine && phase) {
      // Syntonise: the DDMTD's phase advances by the frequency error every
      // beat, so the frequency is learnt from the beat alone (an FLL a beat
      // old, whatever the fibre); no phase correction yet. The exchange
      // gives the whole-period count once the phase has held still for the
      // exchange's age, so an old exchange still names the right period.
      s.mode = SyncMode::kCoarse;
      s.slewing = false;
      s.since_sample_fs = 0;
      if (exchange) s.last_err_fs = s.theta_fs;
      if (drift_valid && phase_dt > 0) {
        const int64_t drift = clamp64(s.phase_jump_fs, -kIntegratorErrorLimitFs, kIntegratorErrorLimitFs);
        const int64_t freq_before = s.freq_q40;
        s.freq_q40 -= ((drift * (int64_t{1} << kFreqFracBits)) / phase_dt) >> kSyntoniseShift;
        s.drift_avg_fs += div_round(drift - s.drift_avg_fs, 4);
        // At the rail by the filtered drift, from the rail or onto it: far
        // off frequency the DDMTD now and then pairs one reference tag twice,
        // and that beat shows no drift (its small correction moves the
        // frequency just off the rail), so it must not end the run.
        const int64_t low = freq_before < s.freq_q40 ? freq_before : s.freq_q40;
        const int64_t high = freq_before > s.freq_q40 ? freq_before : s.freq_q40;
        rail_check(s, l,
                   (low <= -l.pull_q40 && s.drift_avg_fs > kSyntonisedDriftFs) ||
                       (high >= l.pull_q40 && s.drift_avg_fs < -kSyntonisedDriftFs));
      }
      const int64_t cycles = div_round(s.theta_fs - (s.lead_fs - s.delay_ms_fs), kPeriodFs);
      const int64_t acquired = s.lead_fs - s.delay_ms_fs + cycles * kPeriodFs;
      if (exchange && drift_valid && abs64(s.drift_avg_fs) <= kSyntonisedDriftFs && s.calm_fs >= s.age_fs &&
          abs64(acquired - s.theta_fs) <= 2 * l.lock_thresh_fs) {
        s.cycles = cycles;
        s.fine = true;
        s.setpoint_fs = 0;
        s.hold_run = 0;
        s.prev_valid = false;
        s.since_sample_fs = in.elapsed_fs;
        if (l.serving) {
          // The time others follow moves by the acquired error at the
          // serving slew, fed forward; the loop starts from zero error.
          s.setpoint_fs = acquired;
          s.serving_slew = abs64(acquired) > l.lock_thresh_fs;
          servo_sample(s, l, 0);
        } else {
          servo_sample(s, l, acquired);
        }
      }
    } else if (!s.fine && exchange) {
      // No DDMTD phase (USE_DDMTD = 0, or the DDMTD silent): the exchange
      // alone steers time (TRACK, the PTP baseline). The hand-over to FINE
      // needs a phase, so it is the syntonise branch's above.
      servo_sample(s, l, s.theta_fs);
    }
  }

  const int64_t applied = s.steps_now * l.step_fs + s.pulse_fs;
  s.calm_fs = abs64(applied) > l.lock_thresh_fs || s.time_step_now != 0 ? 0 : s.calm_fs + in.elapsed_fs;
  s.applied_since_phase_fs += applied;
  s.applied_since_prev_fs += applied;
  s.steps_total =
      static_cast<int32_t>(static_cast<uint32_t>(s.steps_total) + static_cast<uint32_t>(s.steps_now));

  const int64_t lsb_q40 = l.pull_q40 >> (SYNC_DAC_BITS - 1);
  const int64_t dac = s.mode == SyncMode::kDisabled
                          ? kDacMid
                          : kDacMid + (lsb_q40 > 0 ? div_round(s.freq_q40 + s.pulse_q40, lsb_q40) : 0);
  out.dac_word = static_cast<uint32_t>(clamp64(dac, 0, kDacMax));
  out.phase_steps = static_cast<int32_t>(s.steps_now);
  out.time_step_ticks = s.time_step_now;
  s.ever_locked = s.ever_locked || s.locked;

  out.status = (static_cast<uint32_t>(s.mode) << hwdef::SYNC_STATUS_STATE_LSB) |
               (s.locked ? hwdef::SYNC_STATUS_LOCKED_MASK : 0u) |
               (s.mode == SyncMode::kHoldover ? hwdef::SYNC_STATUS_HOLDOVER_MASK : 0u) |
               (in.ref_ok ? hwdef::SYNC_STATUS_REF_OK_MASK : 0u) |
               (s.slewing ? hwdef::SYNC_STATUS_SLEWING_MASK : 0u) |
               (s.fine ? hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK : 0u) |
               (s.at_rail && s.mode != SyncMode::kDisabled ? hwdef::SYNC_STATUS_DAC_AT_RAIL_MASK : 0u) |
               (s.ever_locked ? hwdef::SYNC_STATUS_TIME_VALID_MASK : 0u) |
               (in.ref_ok && parent_valid && !((in.parent_flags >> hwdef::SYNC_FLAG_LOCKED_BIT) & 1u)
                    ? hwdef::SYNC_STATUS_PARENT_DEGRADED_MASK
                    : 0u) |
               (in.ref_ok && ((in.parent_flags >> hwdef::SYNC_FLAG_HOLDOVER_BIT) & 1u)
                    ? hwdef::SYNC_STATUS_PARENT_HOLDOVER_MASK
                    : 0u);
  out.errors = s.errors;
  out.offset_ps = saturate32(div_round(s.last_err_fs, kFsPerPs));
  out.rtt_ps = s.rtt_ps;
  out.delay_ms_ps = saturate_u32(div_round(s.delay_ms_fs, kFsPerPs));
  out.servo_p_ps = saturate32(div_round(s.last_p_fs, kFsPerPs));
  // 10^12 / 2^40 = 931322.57 / 2^20; |freq| <= 2^30 keeps the product small.
  out.servo_i_ppt = saturate32(div_round(s.freq_q40 * 931323, int64_t{1} << 20));
  out.phase_steps_total = s.steps_total;
  out.holdover_us = saturate_u32(s.holdover_fs / 1000000000);
}

}  // namespace sync
}  // namespace lightrail
