// One clock cycle of the sequencer. The order inside sequencer_step() is the
// order of the combinational logic: inputs, the boundary staged last cycle
// joining the queue, STOP, commit/verify, boundary time resolution, edge
// emission, boundary take, prefetch, status. Board times enter each cycle
// through one 64-bit operation (mostly a window offset) and everything after
// it is narrow, so no 64-bit operation follows another on a register-to-
// register path (docs/sequencer.md, "The per-cycle state update").
#include "sequencer/sequencer.hpp"

#include <cassert>

#include "lightrail/image_crc.hpp"

namespace lightrail {
namespace seq {

using namespace hwdef;

namespace {

constexpr uint64_t kFine = FINE_STEPS;
constexpr uint64_t kOutputLeadTicks = uint64_t{OUTPUT_LATENCY_CYCLES} * kFine;
constexpr uint64_t kCommitLeadTicks = uint64_t{kCommitLeadCycles} * kFine;
constexpr uint64_t kMinStepTicks = uint64_t{MIN_STEP_CYCLES} * kFine;
constexpr uint64_t kCommitHorizonTicks = uint64_t{COMMIT_HORIZON_S} * 1000000000000ull / TICK_PS;
constexpr uint32_t kHeaderLines = IMG_HEADER_WORDS / BANK_LINE_WORDS;
constexpr uint32_t kConfigBaseLine = IMG_CONFIG_BASE_WORD / BANK_LINE_WORDS;
constexpr uint32_t kStepBaseLine = IMG_STEP_BASE_WORD / BANK_LINE_WORDS;
constexpr uint32_t kStepsPerLine = BANK_LINE_WORDS / IMG_STEP_WORDS;
constexpr uint32_t kPortsPerWord = 32 / IMG_PORT_BITS;
constexpr uint32_t kPortByteMask = (1u << IMG_PORT_BITS) - 1u;

// The line-oriented walker relies on these layout facts of regmap.json.
static_assert(IMG_HEADER_WORDS % BANK_LINE_WORDS == 0, "header must fill whole lines");
static_assert(IMG_CONFIG_BASE_WORD % BANK_LINE_WORDS == 0, "config table must be line aligned");
static_assert(IMG_CONFIG_WORDS == BANK_LINE_WORDS, "one configuration per bank line");
static_assert(PORTS * IMG_PORT_BITS == IMG_CONFIG_WORDS * 32, "a configuration holds every port");
static_assert(IMG_STEP_BASE_WORD % BANK_LINE_WORDS == 0, "step table must be line aligned");
static_assert(BANK_LINE_WORDS % IMG_STEP_WORDS == 0, "a step must not straddle lines");
static_assert(IMG_STEP_DURATION_LO_WORD == 0 && IMG_STEP_DURATION_HI_WORD == 1, "step word order");
static_assert(IMG_STEP_CONFIG_WORD == 1 && IMG_STEP_EVENT_WORD == 1, "step word order");
static_assert(kStepBaseLine + MAX_STEPS / kStepsPerLine <= BANK_LINES, "step table must fit a bank");
static_assert(PORTS <= 32, "port masks are 32 bits");
static_assert(PORTS % kTuneLookupCycles == 0, "tune lookups split evenly");
static_assert(WAVELENGTHS * WAVELENGTHS <= TUNE_ENTRIES, "tune table covers every transition");

uint32_t port_byte(const uint32_t config_words[BANK_LINE_WORDS], uint32_t p) {
  return (config_words[p / kPortsPerWord] >> (IMG_PORT_BITS * (p % kPortsPerWord))) & kPortByteMask;
}

uint32_t port_wavelength(uint32_t byte) {
  return (byte & IMG_PORT_WAVELENGTH_MASK) >> IMG_PORT_WAVELENGTH_LSB;
}

bool port_dark(uint32_t byte) { return (byte & IMG_PORT_DARK_MASK) != 0; }

uint64_t step_duration(uint32_t w0, uint32_t w1) {
  const uint64_t lo = (w0 & IMG_STEP_DURATION_LO_MASK) >> IMG_STEP_DURATION_LO_LSB;
  const uint64_t hi = (w1 & IMG_STEP_DURATION_HI_MASK) >> IMG_STEP_DURATION_HI_LSB;
  return lo | (hi << 32);
}

uint32_t step_config(uint32_t w1) { return (w1 & IMG_STEP_CONFIG_MASK) >> IMG_STEP_CONFIG_LSB; }

bool step_event(uint32_t w1) { return (w1 & IMG_STEP_EVENT_MASK) != 0; }

// Board times within a cycle are compared as offsets from the output
// window's first tick, clamped to +-kRelMax: one 64-bit subtract per time,
// then narrow (35-bit) arithmetic. The clamp changes no decision: every
// comparison made on an offset is against 0 or FINE_STEPS after adding a
// tune (< 2^16), a guard (< 2^32) or a clamped duration (<= kRelMax), so a
// clamped offset lands on the same side as the true one.
using Rel = int64_t;
constexpr Rel kRelMax = Rel{1} << 33;
constexpr Rel kFineRel = Rel{FINE_STEPS};

Rel clamp_rel(Rel r) { return r > kRelMax ? kRelMax : (r < -kRelMax ? -kRelMax : r); }

// t - window, exact for |t - window| < 2^63 ticks (about 36 years).
Rel rel_of(uint64_t t, uint64_t window) { return clamp_rel(static_cast<Rel>(t - window)); }

Rel clamp_duration(uint64_t d) { return d > uint64_t(kRelMax) ? kRelMax : static_cast<Rel>(d); }

// The at-time swap compares a boundary's end (t_end) with commit_ticks.
// Where that end is fixed in the same cycle, the compare is made on
// differences computed in parallel instead: a 64-bit difference clamped to
// [-1, kWideMax] against a sum of durations and tunes (< 2^41 + 2^16), a
// 43-bit compare that the clamp does not change.
constexpr Rel kWideMax = Rel{1} << 42;

Rel clamp_wide(Rel r) { return r > kWideMax ? kWideMax : (r < -1 ? -1 : r); }

// Per queue slot ([0] cur, [1] up, [2] next): commit_ticks - t_end as the
// cycle starts (one 64-bit subtract each, in parallel), and whether t_end
// reaches commit_ticks, kept current as slots are filled or resolved.
struct Reach {
  Rel ct_less_end[3];
  bool r[3];
};

// Queue slot of the last planned boundary (2 next, 1 up, 0 cur), -1 if none.
int tail_slot(const SequencerState& s) {
  return s.next.valid ? 2 : (s.up.valid ? 1 : (s.cur.valid ? 0 : -1));
}

// The last planned boundary: the next one is planned after it.
const Boundary* tail(const SequencerState& s) {
  if (s.next.valid) return &s.next;
  if (s.up.valid) return &s.up;
  if (s.cur.valid) return &s.cur;
  return nullptr;
}

void restore_plan(SequencerState& s, const Boundary& b) {
  for (uint32_t p = 0; p < PORTS; ++p) s.plan_sel[p] = b.sel_before[p];
  s.plan_lit = b.lit_before;
}

// Fills the port edges of boundary b from the planned port state, per the
// transition table of docs/sequencer.md, and advances the planned state.
void plan_ports(SequencerState& s, Boundary& b, const uint32_t config_words[BANK_LINE_WORDS],
                const uint16_t tune[PORTS], bool all_dark) {
  b.lit_before = s.plan_lit;
  b.sel_pend = b.fall_pend = b.rise_pend = b.fall_plan = b.fall_early = 0;
  b.max_tune = 0;
  for (uint32_t p = 0; p < PORTS; ++p) {
#pragma HLS UNROLL
    const uint32_t bit = 1u << p;
    const uint32_t byte = all_dark ? IMG_PORT_DARK_MASK : port_byte(config_words, p);
    const bool lit_a = (s.plan_lit & bit) != 0;
    const uint8_t sel_a = s.plan_sel[p];
    b.sel_before[p] = sel_a;
    b.tune[p] = tune[p];
    b.sel_value[p] = sel_a;
    if (!port_dark(byte)) {
      const uint8_t wb = static_cast<uint8_t>(port_wavelength(byte));
      if (!(lit_a && sel_a == wb)) {
        if (sel_a != wb) {
          b.sel_pend |= bit;
          b.sel_value[p] = wb;
          if (tune[p] > b.max_tune) b.max_tune = tune[p];
          if (lit_a) {  // retune a lit port: dark from the moment the select moves
            b.fall_pend |= bit;
            b.fall_plan |= bit;
            b.fall_early |= bit;
          }
        }
        b.rise_pend |= bit;
      }
      s.plan_sel[p] = wb;
      s.plan_lit |= bit;
    } else {
      if (lit_a) {
        b.fall_pend |= bit;
        b.fall_plan |= bit;
      }
      s.plan_lit &= ~bit;
    }
  }
}

// Completes the fetched (or synthesised END) boundary: plans its ports and
// leaves it in `staged`, from where it joins the queue at the start of the
// next cycle (insert_staged). Nothing here depends on this cycle's take.
void stage_boundary(SequencerState& s, bool is_end, bool is_stop, bool pass_end) {
  Fetch& f = s.fetch;
  Boundary& b = s.staged;
  b = Boundary{};
  b.valid = true;
  b.is_end = is_end;
  b.is_stop = is_stop;
  b.pass_end = pass_end;
  b.swap = !is_end && f.swap;
  b.bank = f.bank;
  b.step = is_end ? 0 : f.step;
  b.config = is_end ? 0 : f.config;
  b.event = !is_end && f.event;
  b.jump = !is_end && f.jump;
  b.duration = is_end ? 0 : f.duration;
  b.guard = s.bank_info[f.bank].guard_ticks;
  // Timed here only if the queue is empty when it joins (activation from
  // idle); otherwise insert_staged times it from the tail.
  b.t_known = f.at_commit_time;
  b.asap = !f.at_commit_time;
  b.t = f.at_commit_time ? s.commit_ticks : f.t_min;
  static const uint32_t kNoConfig[BANK_LINE_WORDS] = {};
  plan_ports(s, b, is_end ? kNoConfig : f.config_words, f.tune, is_end);
  f.phase = FetchPhase::kIdle;
}

// The staged boundary joins the queue. Its time comes from the queue's tail
// as it is now (an event boundary before it may have resolved meanwhile):
// the tail's t_end, a register, so this is a mux; the one add (t_end) ends
// in a register, and its swap compare is made on the tail's difference.
void insert_staged(SequencerState& s, Reach& reach) {
  Boundary& b = s.staged;
  if (!b.valid) return;
  const int ts = tail_slot(s);
  const Boundary* tl = tail(s);
  // With no tail this boundary is an activation that claimed the commit, so
  // its flag is never read. Clamped differences stay on the right side of
  // every sum they are compared with (< 2^41 + 2^16), so the narrow subtract
  // keeps the compares exact.
  Rel ct_less_end = -1;
  if (tl != nullptr) {
    b.t = tl->t_end;
    b.t_known = tl->t_known && !tl->event;
    b.asap = false;
    ct_less_end = clamp_wide(reach.ct_less_end[ts] - static_cast<Rel>(b.duration));
  }
  b.t_end = b.t + b.duration;
  const int slot = s.up.valid ? 2 : 1;
  if (slot == 1) {
    s.up = b;
  } else {
    s.next = b;
  }
  reach.ct_less_end[slot] = ct_less_end;
  reach.r[slot] = ct_less_end <= 0;
#ifndef __SYNTHESIS__
  assert(tl == nullptr || s.commit != CommitState::kPending || reach.r[slot] == (b.t_end >= s.commit_ticks));
#endif
  b.valid = false;
}

void tune_lookups(SequencerState& s, uint32_t half) {
  Fetch& f = s.fetch;
  for (uint32_t c = 0; c < kTuneCopies; ++c) {
#pragma HLS UNROLL
    const uint32_t p = half * kTuneCopies + c;
    const uint32_t wb = port_wavelength(port_byte(f.config_words, p));
    const uint32_t addr = (uint32_t{s.plan_sel[p]} * WAVELENGTHS + wb) & (TUNE_ENTRIES - 1);
    f.tune[p] = s.tune[c][addr];
  }
}

// The prefetcher: one state per cycle (step line, config line, two tune
// lookup cycles), so a boundary is ready kFetchCycles after its fetch starts.
// `tail_reaches_commit`: the tail's t_end >= commit_ticks, compared before
// this cycle's take moved the queue (sequencer_step), so no 64-bit compare
// follows the take.
void fetch_step(SequencerState& s, const SequencerIn& in, SequencerOut& out, uint64_t now,
                bool tail_reaches_commit) {
  Fetch& f = s.fetch;
  switch (f.phase) {
    case FetchPhase::kIdle: {
      if (s.next.valid) return;  // queue full
      const Boundary* tl = tail(s);
      f.swap = false;
      f.asap = false;
      f.at_commit_time = false;
      f.pass_end = false;
      f.jump = false;
      if (tl == nullptr) {
        if (s.commit != CommitState::kPending) return;
        // Activation from idle.
        if (s.commit_at_time && s.commit_ticks < now + kCommitLeadTicks) {
          s.errors |= ERROR_COMMIT_LATE_MASK;
          s.commit = CommitState::kNone;
          return;
        }
        f.bank = static_cast<uint8_t>(1 - s.active_bank);
        f.step = 0;
        f.swap = true;
        f.at_commit_time = s.commit_at_time;
        f.asap = !s.commit_at_time;
        f.t_min = s.commit_at_time ? s.commit_ticks : now;
        s.commit = CommitState::kClaimed;
      } else {
        if (tl->is_end) return;
        f.t_min = tl->t_end;
        f.bank = tl->bank;
        if (s.stop_latched) {
          stage_boundary(s, true, true, false);
          return;
        }
        // After an event step with a latched jump, the target (checked
        // again: a swap may have changed the bank since the latch).
        const bool jumping = s.trigger_latched && s.trigger_jump && tl == &s.cur && s.cur.event;
        const uint32_t n_steps = s.bank_info[tl->bank].n_steps;
        if (jumping && s.trigger_step >= n_steps) {
          s.errors |= ERROR_BAD_TRIGGER_STEP_MASK;
          s.trigger_latched = false;
          s.trigger_jump = false;
        }
        f.jump = jumping && s.trigger_jump;
        const uint32_t step = f.jump ? uint32_t{s.trigger_step} : uint32_t{tl->step} + 1;
        f.pass_end = !f.jump && step >= n_steps;
        const bool swap_here =
            s.commit == CommitState::kPending && (s.commit_at_time ? tail_reaches_commit : f.pass_end);
#ifndef __SYNTHESIS__
        assert(!(s.commit == CommitState::kPending && s.commit_at_time) ||
               tail_reaches_commit == (tl->t_end >= s.commit_ticks));
#endif
        if (swap_here) {
          f.bank = static_cast<uint8_t>(1 - s.active_bank);
          f.step = 0;
          f.swap = true;
          s.commit = CommitState::kClaimed;
        } else if (f.pass_end) {
          if (!s.bank_info[tl->bank].cyclic) {
            stage_boundary(s, true, false, true);
            return;
          }
          f.step = 0;
        } else {
          f.step = static_cast<uint16_t>(step);
        }
      }
      out.bank_raddr[f.bank] = static_cast<uint16_t>(kStepBaseLine + f.step / kStepsPerLine);
      f.phase = FetchPhase::kStepLine;
      return;
    }
    case FetchPhase::kStepLine: {
      const uint32_t lane = (f.step % kStepsPerLine) * IMG_STEP_WORDS;
      const uint32_t w0 = in.bank_rdata[f.bank][lane];
      const uint32_t w1 = in.bank_rdata[f.bank][lane + 1];
      f.duration = step_duration(w0, w1);
      f.config = static_cast<uint16_t>(step_config(w1));
      f.event = step_event(w1);
      out.bank_raddr[f.bank] = static_cast<uint16_t>((kConfigBaseLine + f.config) & (BANK_LINES - 1));
      f.phase = FetchPhase::kConfigLine;
      return;
    }
    case FetchPhase::kConfigLine:
      for (uint32_t w = 0; w < BANK_LINE_WORDS; ++w) f.config_words[w] = in.bank_rdata[f.bank][w];
      tune_lookups(s, 0);
      f.phase = FetchPhase::kTune2;
      return;
    case FetchPhase::kTune2:
      tune_lookups(s, 1);
      stage_boundary(s, false, false, f.pass_end);
      return;
  }
}

// When a verified commit could swap at a boundary that is already planned,
// drop that boundary (and what follows) so the prefetcher plans the swap
// there instead. Planned boundaries this close to now are kept.
void make_room_for_swap(SequencerState& s, uint64_t window) {
  if (!s.cur.valid) return;
  // t >= now + lead, as an offset from the window.
  auto wanted = [&](uint64_t t_min, bool pass_end) {
    return s.commit_at_time ? t_min >= s.commit_ticks
                            : (pass_end && rel_of(t_min, window) >= Rel{kCommitLeadTicks - kOutputLeadTicks});
  };
  if (s.up.valid && !s.up.is_stop && wanted(s.up.t, s.up.pass_end)) {
    restore_plan(s, s.up);
    s.up.valid = false;
    s.next.valid = false;
    s.fetch.phase = FetchPhase::kIdle;
  } else if (s.next.valid && wanted(s.next.t, s.next.pass_end)) {
    restore_plan(s, s.next);
    s.next.valid = false;
    s.fetch.phase = FetchPhase::kIdle;
  } else if (s.fetch.phase != FetchPhase::kIdle && wanted(s.fetch.t_min, s.fetch.pass_end)) {
    s.fetch.phase = FetchPhase::kIdle;
  }
}

void verify_done(SequencerState& s, uint32_t errors, uint64_t now, uint64_t window) {
  Verify& v = s.verify;
  if (errors != 0) {
    s.errors |= errors;
    s.commit = CommitState::kNone;
    return;
  }
  if (s.commit_at_time && s.commit_ticks < now + kCommitLeadTicks) {
    s.errors |= ERROR_COMMIT_LATE_MASK;
    s.commit = CommitState::kNone;
    return;
  }
  s.bank_info[v.bank] = v.info;
  s.commit = CommitState::kPending;
  make_room_for_swap(s, window);
}

// Line of the verification read sequence: header, used configs, used steps.
uint32_t verify_line_address(const Verify& v, uint32_t seq) {
  if (seq < kHeaderLines) return seq;
  if (seq < kHeaderLines + v.info.n_configs) return kConfigBaseLine + (seq - kHeaderLines);
  return kStepBaseLine + (seq - kHeaderLines - v.info.n_configs);
}

void verify_line(SequencerState& s, const uint32_t line[BANK_LINE_WORDS], uint64_t now, uint64_t window) {
  Verify& v = s.verify;
  const uint32_t seq = v.line_seq;
  if (seq == 0) {
    v.info.n_steps = line[IMG_HDR_N_STEPS];
    v.info.n_configs = line[IMG_HDR_N_CONFIGS];
    if (line[IMG_HDR_MAGIC] != IMG_MAGIC) return verify_done(s, ERROR_BAD_MAGIC_MASK, now, window);
    if (line[IMG_HDR_VERSION] != IMG_VERSION) return verify_done(s, ERROR_BAD_VERSION_MASK, now, window);
    if (v.info.n_steps < 1 || v.info.n_steps > MAX_STEPS || v.info.n_configs < 1 ||
        v.info.n_configs > MAX_CONFIGS) {
      return verify_done(s, ERROR_BAD_BOUNDS_MASK, now, window);
    }
    v.header_read = true;
    v.total_lines = kHeaderLines + v.info.n_configs + (v.info.n_steps + kStepsPerLine - 1) / kStepsPerLine;
  }
  uint32_t used_words = BANK_LINE_WORDS;
  if (seq < kHeaderLines) {
    for (uint32_t w = 0; w < BANK_LINE_WORDS; ++w) {
      const uint32_t word = seq * BANK_LINE_WORDS + w;
      if (word == IMG_HDR_FLAGS) v.info.cyclic = (line[w] & IMG_FLAGS_CYCLIC_MASK) != 0;
      if (word == IMG_HDR_GUARD_TICKS) v.info.guard_ticks = line[w];
      if (word == IMG_HDR_GENERATION) v.info.generation = line[w];
      if (word == IMG_HDR_CRC) v.crc_expected = line[w];
    }
    if ((seq + 1) * BANK_LINE_WORDS > IMG_HDR_CRC) used_words = IMG_HDR_CRC - seq * BANK_LINE_WORDS;
  } else if (seq < kHeaderLines + v.info.n_configs) {
    for (uint32_t p = 0; p < PORTS; ++p) {
      const uint32_t byte = port_byte(line, p);
      if (!port_dark(byte) && port_wavelength(byte) >= WAVELENGTHS) v.bounds_error = true;
    }
  } else {
    const uint32_t first_step = (seq - kHeaderLines - v.info.n_configs) * kStepsPerLine;
    for (uint32_t k = 0; k < kStepsPerLine; ++k) {
      if (first_step + k >= v.info.n_steps) {
        if (k * IMG_STEP_WORDS < used_words) used_words = k * IMG_STEP_WORDS;
        continue;
      }
      const uint32_t w0 = line[k * IMG_STEP_WORDS];
      const uint32_t w1 = line[k * IMG_STEP_WORDS + 1];
      if (step_config(w1) >= v.info.n_configs) v.bounds_error = true;
      if (step_duration(w0, w1) < kMinStepTicks) v.bounds_error = true;
    }
  }
  for (uint32_t w = 0; w < BANK_LINE_WORDS; ++w) {
    if (w < used_words) v.crc = image_crc_word(v.crc, line[w]);
  }
  if (seq + 1 == v.total_lines) {
    uint32_t errors = v.bounds_error ? ERROR_BAD_BOUNDS_MASK : 0u;
    if (image_crc_final(v.crc) != v.crc_expected) {
      errors |= ERROR_BAD_CRC_MASK;
    } else if (v.crc_expected != s.commit_crc) {
      errors |= ERROR_COMMIT_MISMATCH_MASK;  // a sound image, but not the one its committer staged
    }
    verify_done(s, errors, now, window);
  }
}

// The checker reads one line per cycle of the inactive bank (its own read
// port: the walker only reads the active bank while this runs).
void verify_step(SequencerState& s, const SequencerIn& in, SequencerOut& out, uint64_t now, uint64_t window) {
  Verify& v = s.verify;
  if (s.commit != CommitState::kVerifying) return;
  if (v.have_line) verify_line(s, in.bank_rdata[v.bank], now, window);
  v.have_line = false;
  if (s.commit != CommitState::kVerifying) return;
  const uint32_t limit = v.header_read ? v.total_lines : kHeaderLines;
  if (v.next_seq < limit) {
    out.bank_raddr[v.bank] = static_cast<uint16_t>(verify_line_address(v, v.next_seq));
    v.line_seq = v.next_seq;
    v.have_line = true;
    ++v.next_seq;
  }
}

void start_verify(SequencerState& s, const SequencerIn& in) {
  s.cancelled = false;
  if (s.commit != CommitState::kNone || s.stop_latched) {
    s.errors |= ERROR_COMMIT_BUSY_MASK;  // said, not silently ignored
    return;
  }
  if (in.commit_at_time && in.commit_ticks > in.now_ticks + kCommitHorizonTicks) {
    s.errors |= ERROR_COMMIT_FAR_MASK;  // it could only ever be ended by CANCEL or STOP
    return;
  }
  Verify& v = s.verify;
  v = Verify{};
  v.bank = static_cast<uint8_t>(1 - s.active_bank);
  v.crc = kImageCrcInit;
  s.commit = CommitState::kVerifying;
  s.commit_at_time = in.commit_at_time;
  s.commit_ticks = in.commit_ticks;
  s.commit_crc = in.commit_crc;
}

// CANCEL: drops the commit unless its swap boundary has begun to leave (an
// edge of it emitted) or is too close to plan the running bank's own
// boundary in its place (the make_room_for_swap lead, mirrored).
void apply_cancel(SequencerState& s, uint64_t window) {
  if (s.commit == CommitState::kNone) return;
  if (s.commit == CommitState::kClaimed) {
    const Rel lead = s.cur.valid ? Rel{kCommitLeadTicks} : 0;
    auto in_time = [&](const Boundary& b) {
      return !b.t_known || rel_of(b.t, window) >= (lead > Rel{b.max_tune} ? lead : Rel{b.max_tune});
    };
    if (s.up.valid && s.up.swap) {
      if (!in_time(s.up)) return;
      restore_plan(s, s.up);
      s.up.valid = false;
      s.next.valid = false;
    } else if (s.next.valid && s.next.swap) {
      if (!in_time(s.next)) return;
      restore_plan(s, s.next);
      s.next.valid = false;
    }
    s.fetch.phase = FetchPhase::kIdle;  // the swap, or what was fetched after it
  }
  s.commit = CommitState::kNone;
  s.cancelled = true;
}

// STOP: the next boundary becomes "all dark"; a commit in progress is dropped.
void apply_stop(SequencerState& s) {
  s.commit = CommitState::kNone;
  s.fetch.phase = FetchPhase::kIdle;
  if (!s.cur.valid) {  // idle: only an activation can be queued
    if (s.up.valid) restore_plan(s, s.up);
    s.up.valid = false;
    s.next.valid = false;
    return;
  }
  s.stop_latched = true;
  if (s.next.valid) {
    restore_plan(s, s.next);
    s.next.valid = false;
  }
  if (!s.up.valid || s.up.is_end) return;  // the prefetcher plans the stop
  Boundary& b = s.up;
  // Edges of the boundary not yet emitted are replaced: select moves are
  // cancelled and every lit port falls exactly at the boundary. Edges
  // already emitted (an early retune) stand; nothing rises.
  for (uint32_t p = 0; p < PORTS; ++p) {
    if (b.sel_pend & (1u << p)) s.plan_sel[p] = b.sel_before[p];
  }
  b.sel_pend = 0;
  b.max_tune = 0;
  b.fall_early &= ~b.fall_pend;
  const uint32_t add = b.lit_before & ~b.fall_plan;
  b.fall_pend |= add;
  b.fall_plan |= add;
  b.rise_pend = 0;
  b.is_end = true;
  b.is_stop = true;
  b.pass_end = false;
  b.swap = false;
  b.event = false;
  b.duration = 0;
  b.t_end = b.t;
  s.plan_lit = 0;
}

// Window offsets of the three queued boundaries for this cycle's emission
// and take: [0] cur, [1] up, [2] next.
struct QueueRel {
  Rel r[3];
};

// A trigger just fixed up's time (and next's): a pending at-time commit
// that verified while they were open may now want to swap at one of them,
// as make_room_for_swap decides when verification ends. The compares are
// the Reach flags and narrow window offsets; a boundary closer than the
// commit lead is kept, as its refetch would come too late.
void make_room_after_trigger(SequencerState& s, const QueueRel& q, const Reach& reach) {
  if (s.commit != CommitState::kPending || !s.commit_at_time) return;
  constexpr Rel kLead = Rel{kCommitLeadTicks - kOutputLeadTicks};
  // After up: next, or the boundary being fetched (both at up.t_end).
  const bool after_up_wanted = reach.r[1] && clamp_rel(q.r[1] + clamp_duration(s.up.duration)) >= kLead;
  if (reach.r[0] && q.r[1] >= kLead) {
    restore_plan(s, s.up);
    s.up.valid = false;
    s.next.valid = false;
    s.fetch.phase = FetchPhase::kIdle;
  } else if (s.next.valid && after_up_wanted) {
    restore_plan(s, s.next);
    s.next.valid = false;
    s.fetch.phase = FetchPhase::kIdle;
  } else if (!s.next.valid && s.fetch.phase != FetchPhase::kIdle && after_up_wanted) {
    s.fetch.phase = FetchPhase::kIdle;
  }
}

// A latched jump during an event step: what is queued after the step (not
// yet timed, so none of its edges has left) is dropped and the target is
// fetched in its place (fetch_step); the trigger resolves once the target is
// the upcoming boundary. A swap planned at that boundary wins: the trigger
// then acts as one without a jump. A swap planned after it is planned again.
void start_jump(SequencerState& s) {
  if (!s.trigger_latched || !s.trigger_jump || !s.cur.valid || !s.cur.event || s.stop_latched) return;
  if (s.up.valid) {
    if (s.up.jump || s.up.is_stop) return;
    if (s.up.swap) {
      s.trigger_jump = false;
      return;
    }
    if (s.next.valid && s.next.swap) s.commit = CommitState::kPending;
    restore_plan(s, s.up);
    s.up.valid = false;
    s.next.valid = false;
    s.fetch.phase = FetchPhase::kIdle;
  } else if (s.fetch.phase != FetchPhase::kIdle && !s.fetch.jump) {
    s.fetch.phase = FetchPhase::kIdle;
  }
}

// Fixes the time of the upcoming boundary when it was open: idle start,
// event step with a trigger, or a STOP ending an event step. Each candidate
// time and the ends that follow from it (up's t_end, next's t and t_end)
// are one 64-bit add of a register or input and a narrow sum, all in
// parallel; narrow compares of window offsets pick one. The emission and
// take of this cycle use the picked offset, the swap compare the matching
// flag (Reach), so no 64-bit operation follows another.
void resolve_up(SequencerState& s, uint64_t now, uint64_t window, QueueRel& q, Reach& reach) {
  Boundary& b = s.up;
  if (!b.valid || b.t_known) return;
  const Rel tune = Rel{b.max_tune};
  const Rel rel_b = q.r[1];  // b.t: the earliest time
  const uint64_t dur = b.duration;
  const uint64_t dur2 = b.duration + s.next.duration;  // up's step and next's (< 2^41)
  const Rel ct_rel = clamp_wide(static_cast<Rel>(s.commit_ticks - window));
  Rel rel = 0;
  uint64_t t = 0;
  uint64_t t_end = 0;
  uint64_t next_end = 0;
  bool reach_up = false;
  bool reach_next = false;
  bool reach_t = false;         // t >= commit_ticks
  bool reach_cur = reach.r[0];  // cur.t_end >= commit_ticks, after this resolution
  bool triggered = false;
  if (b.asap) {
    const uint64_t lead = (kOutputLeadTicks + b.max_tune + kFine - 1) / kFine * kFine;
    rel = static_cast<Rel>(lead - kOutputLeadTicks);
    t = now + lead;
    t_end = now + (lead + dur);
    next_end = now + (lead + dur2);
    reach_up = rel + static_cast<Rel>(dur) >= ct_rel;
    reach_next = rel + static_cast<Rel>(dur2) >= ct_rel;
  } else if (b.is_stop || (s.trigger_latched && s.cur.valid && s.cur.event && (!s.trigger_jump || b.jump))) {
    // max(b.t, window + max_tune[, trigger_ticks]): a time named ahead is
    // kept exactly. Three compares side by side (two narrow ones on
    // offsets, one of two registers) decide it.
    const bool timed = !b.is_stop && s.trigger_timed;
    const Rel rel_trig = rel_of(s.trigger_ticks, window);
    const bool earliest_wins = rel_b > tune;
    const bool trig_wins = timed && (earliest_wins ? s.trigger_ticks > b.t : rel_trig > tune);
    if (trig_wins) {
      const Rel ct_less_trig = clamp_wide(static_cast<Rel>(s.commit_ticks - s.trigger_ticks));
      rel = rel_trig;
      t = s.trigger_ticks;
      t_end = s.trigger_ticks + dur;
      next_end = s.trigger_ticks + dur2;
      reach_up = static_cast<Rel>(dur) >= ct_less_trig;
      reach_next = static_cast<Rel>(dur2) >= ct_less_trig;
      reach_t = ct_less_trig <= 0;
    } else if (earliest_wins) {
      rel = rel_b;
      t = b.t;
      t_end = b.t_end;
      next_end = s.next.t_end;  // already up.t_end + next.duration: no add here
      reach_up = reach.r[1];
      reach_next = reach.r[2];
      reach_t = reach.r[0];  // b.t is cur.t_end
#ifndef __SYNTHESIS__
      assert(s.commit != CommitState::kPending || reach_t == (b.t >= s.commit_ticks));
#endif
    } else {
      rel = tune;
      t = window + b.max_tune;
      t_end = window + (b.max_tune + dur);
      next_end = window + (b.max_tune + dur2);
      reach_up = tune + static_cast<Rel>(dur) >= ct_rel;
      reach_next = tune + static_cast<Rel>(dur2) >= ct_rel;
      reach_t = tune >= ct_rel;
    }
    if (!b.is_stop) {
      s.trigger_latched = false;
      s.trigger_timed = false;
      s.trigger_jump = false;
      s.triggered_at = t;
      s.triggered_step = b.step;
      ++s.triggers;
      // The executing step's end is fixed: kept in cur, so a boundary
      // refetched after up is dropped starts at it, and does not wait for a
      // second trigger.
      s.cur.t_end = t;
      s.cur.event = false;
      reach_cur = reach_t;
      triggered = true;
    }
  } else {
    return;
  }
#ifndef __SYNTHESIS__
  assert(rel == rel_of(t, window) && t_end == t + dur &&
         (s.commit != CommitState::kPending || reach_up == (t_end >= s.commit_ticks)) &&
         (!triggered || s.commit != CommitState::kPending || reach_cur == (t >= s.commit_ticks)));
#endif
  b.t = t;
  b.t_end = t_end;
  b.t_known = true;
  b.asap = false;
  q.r[1] = rel;
  reach.r[0] = reach_cur;
  reach.r[1] = reach_up;
  if (s.next.valid) {
    s.next.t = t_end;
    s.next.t_end = next_end;
    s.next.t_known = !b.event;
    q.r[2] = clamp_rel(rel + clamp_duration(dur));  // both >= 0: exact after the clamp
    reach.r[2] = reach_next;
#ifndef __SYNTHESIS__
    // (commit_ticks may have changed this cycle, starting a verification:
    // the flags are read only for a pending commit.)
    assert(q.r[2] == rel_of(t_end, window) && next_end == t_end + s.next.duration &&
           (s.commit != CommitState::kPending || reach_next == (next_end >= s.commit_ticks)));
#endif
  }
  if (triggered) make_room_after_trigger(s, q, reach);
}

// Emits every pending edge of b that falls before the end of the output
// window; an edge whose time already passed goes out at fine 0, late.
// `rel` is b.t - window (clamped), so every per-port time is a narrow
// offset: t - tune, t, t + guard. `prev` is the boundary before b (its
// edges of this cycle are already in `out`), prev_rel its offset. Where b's
// fall meets prev's guard rise the port stays dark until b's rise
// (docs/sequencer.md, "Neighbouring boundaries"): a rise at or after the
// fall would light the port while it retunes, and a window that opens and
// closes in the cycle of b's rise cannot be sent (the output stage takes one
// fall and one rise per port and cycle).
void emit_edges(Boundary& b, Rel rel, Boundary* prev, Rel prev_rel, SequencerOut& out) {
  if (!b.valid || !b.t_known || (b.sel_pend | b.fall_pend | b.rise_pend) == 0) return;
  constexpr int32_t kFine32 = static_cast<int32_t>(FINE_STEPS);
  constexpr int32_t kFineMask = kFine32 - 1;
  // Per boundary (shared by its 16 ports): the offset narrowed to 32 bits
  // for the tune compares (their bounds lie in [0, 2^16 + FINE_STEPS], so
  // clamping to +-2^24 decides nothing differently); the rise, whose bound
  // FINE_STEPS - guard is the same for every port; and where the previous
  // boundary's pending rise falls, as one of 0..FINE_STEPS (FINE_STEPS:
  // after this output cycle).
  const int32_t rel32 = static_cast<int32_t>(
      rel > (Rel{1} << 24) ? (Rel{1} << 24) : (rel < -(Rel{1} << 24) ? -(Rel{1} << 24) : rel));
  const Rel r_rise = rel + Rel{b.guard};
  const bool rise_due = r_rise < kFineRel;
  const bool rise_late = r_rise < 0;
  const uint8_t rise_fine = rise_late ? 0 : static_cast<uint8_t>(r_rise & kFineMask);
  // A fall to dark is at t, the same for every port.
  const bool at_t_due = rel32 < kFine32;
  const bool at_t_late = rel32 < 0;
  const uint8_t at_t_fine = at_t_late ? 0 : static_cast<uint8_t>(rel32 & kFineMask);
  const Rel prev_r = prev != nullptr ? prev_rel + Rel{prev->guard} : 0;
  const int32_t prev_rise = prev_r < 0 ? -1 : (prev_r > kFineRel ? kFine32 : static_cast<int32_t>(prev_r));
  for (uint32_t p = 0; p < PORTS; ++p) {
#pragma HLS UNROLL
    const uint32_t bit = 1u << p;
    // One 32-bit compare per decision; a fine position is the low bits.
    const int32_t tune = static_cast<int32_t>(b.tune[p]);
    const bool early_due = rel32 < tune + kFine32;
    const bool early_late = rel32 < tune;
    const uint8_t early_fine = early_late ? 0 : static_cast<uint8_t>((rel32 - tune) & kFineMask);
    if ((b.sel_pend & bit) && early_due) {
      b.late |= early_late;
      out.sel_valid |= bit;
      out.sel_fine[p] = early_fine;
      out.sel_value[p] = b.sel_value[p];
      b.sel_pend &= ~bit;
    }
    // Which time the fall takes is per port and changes from boundary to
    // boundary: chosen with logic, not a branch (in C simulation a branch
    // here was a tenth of the mispredicted branches of a board cycle).
    const bool at_early = (b.fall_early & bit) != 0;
    const bool fall_due = (at_early & early_due) | (!at_early & at_t_due);
    const bool fall_late = (at_early & early_late) | (!at_early & at_t_late);
    if ((b.fall_pend & bit) && fall_due) {
      // A late fall goes out now, at fine 0.
      const uint8_t fell = at_early ? early_fine : at_t_fine;
      b.late |= fall_late;
      out.fall_valid |= bit;
      out.fall_fine[p] = fell;
      b.fall_pend &= ~bit;
      if (prev != nullptr && (prev->rise_pend & bit) && prev_rise >= int32_t{fell}) {
        prev->rise_pend &= ~bit;  // due in a later cycle
      }
      if ((out.rise_valid & bit) && out.rise_fine[p] >= out.fall_fine[p]) out.rise_valid &= ~bit;
    }
  }
  // The rises, all at t + guard: after every port's fall, which looks at
  // the rises already in `out` (prev's) and not at b's own. A rise already
  // in `out` is prev's, before b's fall in this cycle: b's replaces it, so
  // that window is not opened.
  if (rise_due && b.rise_pend != 0) {
    b.late |= rise_late;
    out.rise_valid |= b.rise_pend;
    for (uint32_t p = 0; p < PORTS; ++p) {
#pragma HLS UNROLL
      if (b.rise_pend & (1u << p)) out.rise_fine[p] = rise_fine;
    }
    b.rise_pend = 0;
  }
}

// The upcoming boundary is taken in the cycle whose output window holds it
// (rel_up: its offset from the window). Returns whether it was.
bool take_up(SequencerState& s, Rel rel_up) {
  Boundary& b = s.up;
  if (!b.valid || !b.t_known || rel_up >= kFineRel) return false;
  if (b.late || rel_up < 0) {
    ++s.missed;
    s.errors |= ERROR_MISSED_DEADLINE_MASK;
  }
  if (b.is_end) {
    if (b.pass_end) ++s.epochs;
    s.stop_latched = false;
    s.cur.valid = false;
  } else {
    if (b.swap) {
      s.active_bank = b.bank;
      ++s.swaps;
      s.last_swap_ticks = b.t;
      s.generation = s.bank_info[b.bank].generation;
      s.epochs = 0;
      s.commit = CommitState::kNone;
    } else if (b.pass_end || (b.jump && b.step == 0)) {
      // A jump to step 0 starts a new pass, as a wrap does (EPOCHS counts
      // passes); it is no pass end for an epoch commit, which waits for a
      // pass the schedule completes by itself.
      ++s.epochs;
    }
    ++s.steps;
    s.cur_step = b.step;
    s.cur_config = b.config;
    s.cur = b;
  }
  s.up = s.next;
  s.next.valid = false;
  return true;
}

}  // namespace

void sequencer_reset(SequencerState& s) { static_cast<SequencerRegs&>(s) = SequencerRegs{}; }

void sequencer_step(SequencerState& s, const SequencerIn& in, SequencerOut& out) {
  out = SequencerOut{};
  const uint64_t now = in.now_ticks;
  const uint64_t window = now + kOutputLeadTicks;  // first tick of the cycle the outputs are for

  if (in.tune_we) {
    for (uint32_t c = 0; c < kTuneCopies; ++c) {
#pragma HLS UNROLL
      s.tune[c][in.tune_addr & (TUNE_ENTRIES - 1)] = in.tune_wdata;
    }
  }
  s.errors &= ~in.clear_errors;

  // For the at-time swap: each slot's distance to commit_ticks, from the
  // registers (a commit started below leaves no swap to decide this cycle).
  Reach reach;
  reach.ct_less_end[0] = clamp_wide(static_cast<Rel>(s.commit_ticks - s.cur.t_end));
  reach.ct_less_end[1] = clamp_wide(static_cast<Rel>(s.commit_ticks - s.up.t_end));
  reach.ct_less_end[2] = clamp_wide(static_cast<Rel>(s.commit_ticks - s.next.t_end));
  for (int i = 0; i < 3; ++i) reach.r[i] = reach.ct_less_end[i] <= 0;

  // Stage 0: last cycle's staged boundary joins the queue (a mux of
  // registers; its t_end add ends in a register).
  insert_staged(s, reach);

  if (in.stop) apply_stop(s);
  if (in.cancel) apply_cancel(s, window);
  if (in.commit) start_verify(s, in);
  verify_step(s, in, out, now, window);

  start_jump(s);  // only drops queued boundaries: no time changes

  // One 64-bit subtract per queued boundary, in parallel; what follows is
  // narrow (docs/sequencer.md, "The per-cycle state update").
  QueueRel q;
  q.r[0] = rel_of(s.cur.t, window);
  q.r[1] = rel_of(s.up.t, window);
  q.r[2] = rel_of(s.next.t, window);
  resolve_up(s, now, window, q, reach);

  emit_edges(s.cur, q.r[0], nullptr, 0, out);
  emit_edges(s.up, q.r[1], &s.cur, q.r[0], out);
  emit_edges(s.next, q.r[2], &s.up, q.r[1], out);
  const bool taken = take_up(s, q.r[1]);
  // The tail after the take: up if valid, else cur (next is then invalid or
  // the prefetcher waits).
  const bool tail_reaches = s.up.valid ? reach.r[taken ? 2 : 1] : reach.r[taken ? 1 : 0];
  fetch_step(s, in, out, now, tail_reaches);

  uint32_t status = 0;
  if (s.cur.valid) status |= STATUS_RUNNING_MASK;
  status |= (uint32_t{s.active_bank} << STATUS_ACTIVE_BANK_LSB) & STATUS_ACTIVE_BANK_MASK;
  if (s.commit == CommitState::kPending || s.commit == CommitState::kClaimed) {
    status |= STATUS_COMMIT_PENDING_MASK;
  }
  if (s.commit == CommitState::kVerifying) status |= STATUS_VERIFY_BUSY_MASK;
  if (s.cancelled) status |= STATUS_CANCELLED_MASK;
  if (s.cur.valid && s.cur.event && !(s.up.valid && s.up.t_known)) status |= STATUS_WAITING_TRIGGER_MASK;
  out.status = status;
  out.errors = s.errors & ~ERROR_LOCKED_WRITE_MASK;  // the register file owns that flag
  out.steps = s.steps;
  out.missed = s.missed;
  out.cur_step = s.cur_step;
  out.cur_config = s.cur_config;
  out.generation = s.generation;
  out.epochs = s.epochs;
  out.swaps = s.swaps;
  out.last_swap_ticks = s.last_swap_ticks;
  out.triggered_at_ticks = s.triggered_at;
  out.triggers = s.triggers;
  out.triggered_step = s.triggered_step;

  // Registered: the trigger acts from the next cycle (kTriggerLeadCycles).
  // A jump outside the running schedule is refused here, never latched.
  const bool jump_refused = in.trigger_jump && (in.trigger || in.trigger_at) &&
                            (!s.cur.valid || in.trigger_step >= s.bank_info[s.active_bank].n_steps);
  if (jump_refused) {
    s.errors |= ERROR_BAD_TRIGGER_STEP_MASK;
  } else if (in.trigger) {
    s.trigger_latched = true;
    s.trigger_timed = false;  // merged: the earlier of the two wins
  } else if (in.trigger_at && !(s.trigger_latched && !s.trigger_timed)) {
    s.trigger_latched = true;
    s.trigger_timed = true;
    s.trigger_ticks = in.trigger_ticks;
  }
  // A later named target replaces a latched one (and a plain trigger keeps it).
  if (!jump_refused && in.trigger_jump && (in.trigger || in.trigger_at)) {
    s.trigger_jump = true;
    s.trigger_step = static_cast<uint16_t>(in.trigger_step);
  }
}

}  // namespace seq
}  // namespace lightrail
