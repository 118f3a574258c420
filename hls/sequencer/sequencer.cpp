// One clock cycle of the sequencer. The order inside sequencer_step() is the
// order of the combinational logic: inputs, STOP, commit/verify, boundary
// time resolution, edge emission, boundary take, prefetch, status.
#include "sequencer/sequencer.hpp"

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

uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

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

// Completes the fetched (or synthesised END) boundary and queues it.
void finish_boundary(SequencerState& s, bool is_end, bool is_stop, bool pass_end) {
  Fetch& f = s.fetch;
  Boundary b;
  b.valid = true;
  b.is_end = is_end;
  b.is_stop = is_stop;
  b.pass_end = pass_end;
  b.swap = !is_end && f.swap;
  b.bank = f.bank;
  b.step = is_end ? 0 : f.step;
  b.config = is_end ? 0 : f.config;
  b.event = !is_end && f.event;
  b.duration = is_end ? 0 : f.duration;
  b.guard = s.bank_info[f.bank].guard_ticks;
  // The time comes from the queue as it is now: an event boundary before it
  // may have resolved while this one was being fetched.
  const Boundary* tl = tail(s);
  if (tl != nullptr) {
    b.t = tl->t + tl->duration;
    b.t_known = tl->t_known && !tl->event;
  } else if (f.at_commit_time) {
    b.t = s.commit_ticks;
    b.t_known = true;
  } else {
    b.t = f.t_min;
    b.asap = true;
  }
  static const uint32_t kNoConfig[BANK_LINE_WORDS] = {};
  plan_ports(s, b, is_end ? kNoConfig : f.config_words, f.tune, is_end);
  if (!s.up.valid) {
    s.up = b;
  } else {
    s.next = b;
  }
  f.phase = FetchPhase::kIdle;
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
void fetch_step(SequencerState& s, const SequencerIn& in, SequencerOut& out, uint64_t now) {
  Fetch& f = s.fetch;
  switch (f.phase) {
    case FetchPhase::kIdle: {
      if (s.next.valid) return;  // queue full
      const Boundary* tl = tail(s);
      f.swap = false;
      f.asap = false;
      f.at_commit_time = false;
      f.pass_end = false;
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
        f.t_min = tl->t + tl->duration;
        f.bank = tl->bank;
        if (s.stop_latched) {
          finish_boundary(s, true, true, false);
          return;
        }
        const uint32_t step = uint32_t{tl->step} + 1;
        f.pass_end = step >= s.bank_info[tl->bank].n_steps;
        const bool swap_here =
            s.commit == CommitState::kPending && (s.commit_at_time ? f.t_min >= s.commit_ticks : f.pass_end);
        if (swap_here) {
          f.bank = static_cast<uint8_t>(1 - s.active_bank);
          f.step = 0;
          f.swap = true;
          s.commit = CommitState::kClaimed;
        } else if (f.pass_end) {
          if (!s.bank_info[tl->bank].cyclic) {
            finish_boundary(s, true, false, true);
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
      finish_boundary(s, false, false, f.pass_end);
      return;
  }
}

// When a verified commit could swap at a boundary that is already planned,
// drop that boundary (and what follows) so the prefetcher plans the swap
// there instead. Planned boundaries this close to now are kept.
void make_room_for_swap(SequencerState& s, uint64_t now) {
  if (!s.cur.valid) return;
  auto wanted = [&](uint64_t t_min, bool pass_end) {
    return s.commit_at_time ? t_min >= s.commit_ticks : (pass_end && t_min >= now + kCommitLeadTicks);
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

void verify_done(SequencerState& s, uint32_t errors, uint64_t now) {
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
  make_room_for_swap(s, now);
}

// Line of the verification read sequence: header, used configs, used steps.
uint32_t verify_line_address(const Verify& v, uint32_t seq) {
  if (seq < kHeaderLines) return seq;
  if (seq < kHeaderLines + v.info.n_configs) return kConfigBaseLine + (seq - kHeaderLines);
  return kStepBaseLine + (seq - kHeaderLines - v.info.n_configs);
}

void verify_line(SequencerState& s, const uint32_t line[BANK_LINE_WORDS], uint64_t now) {
  Verify& v = s.verify;
  const uint32_t seq = v.line_seq;
  if (seq == 0) {
    v.info.n_steps = line[IMG_HDR_N_STEPS];
    v.info.n_configs = line[IMG_HDR_N_CONFIGS];
    if (line[IMG_HDR_MAGIC] != IMG_MAGIC) return verify_done(s, ERROR_BAD_MAGIC_MASK, now);
    if (line[IMG_HDR_VERSION] != IMG_VERSION) return verify_done(s, ERROR_BAD_VERSION_MASK, now);
    if (v.info.n_steps < 1 || v.info.n_steps > MAX_STEPS || v.info.n_configs < 1 ||
        v.info.n_configs > MAX_CONFIGS) {
      return verify_done(s, ERROR_BAD_BOUNDS_MASK, now);
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
    verify_done(s, errors, now);
  }
}

// The checker reads one line per cycle of the inactive bank (its own read
// port: the walker only reads the active bank while this runs).
void verify_step(SequencerState& s, const SequencerIn& in, SequencerOut& out, uint64_t now) {
  Verify& v = s.verify;
  if (s.commit != CommitState::kVerifying) return;
  if (v.have_line) verify_line(s, in.bank_rdata[v.bank], now);
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
    const uint64_t lead = s.cur.valid ? kCommitLeadTicks : 0;
    auto in_time = [&](const Boundary& b) {
      return !b.t_known || b.t >= window + (lead > b.max_tune ? lead : uint64_t{b.max_tune});
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
  s.plan_lit = 0;
}

// Fixes the time of the upcoming boundary when it was open: idle start,
// event step with a trigger, or a STOP ending an event step.
void resolve_up(SequencerState& s, uint64_t now, uint64_t window) {
  Boundary& b = s.up;
  if (!b.valid || b.t_known) return;
  uint64_t t = 0;
  if (b.asap) {
    const uint64_t cycles = (kOutputLeadTicks + b.max_tune + kFine - 1) / kFine;
    t = now + cycles * kFine;
  } else if (b.is_stop) {
    t = max_u64(b.t, window + b.max_tune);
  } else if (s.trigger_latched && s.cur.valid && s.cur.event) {
    t = max_u64(b.t, window + b.max_tune);
    if (s.trigger_timed) t = max_u64(t, s.trigger_ticks);  // a time named ahead is kept exactly
    s.trigger_latched = false;
    s.trigger_timed = false;
    s.triggered_at = t;
    ++s.triggers;
  } else {
    return;
  }
  b.t = t;
  b.t_known = true;
  b.asap = false;
  if (s.next.valid) {
    s.next.t = t + b.duration;
    s.next.t_known = !b.event;
  }
}

// Emits every pending edge of b that falls before the end of the output
// window; an edge whose time already passed goes out at fine 0, late.
// `prev` is the boundary before b (its edges of this cycle are already in
// `out`). Where b's fall meets prev's guard rise the port stays dark until
// b's rise (docs/sequencer.md, "Neighbouring boundaries"): a rise at or
// after the fall would light the port while it retunes, and a window that
// opens and closes in the cycle of b's rise cannot be sent (the output
// stage takes one fall and one rise per port and cycle).
void emit_edges(Boundary& b, Boundary* prev, uint64_t window, SequencerOut& out) {
  if (!b.valid || !b.t_known || (b.sel_pend | b.fall_pend | b.rise_pend) == 0) return;
  const uint64_t end = window + kFine;
  for (uint32_t p = 0; p < PORTS; ++p) {
#pragma HLS UNROLL
    const uint32_t bit = 1u << p;
    const uint64_t t_early = b.t - b.tune[p];
    if ((b.sel_pend & bit) && t_early < end) {
      b.late |= t_early < window;
      out.sel_valid |= bit;
      out.sel_fine[p] = static_cast<uint8_t>(t_early < window ? 0 : t_early - window);
      out.sel_value[p] = b.sel_value[p];
      b.sel_pend &= ~bit;
    }
    const uint64_t t_fall = (b.fall_early & bit) ? t_early : b.t;
    if ((b.fall_pend & bit) && t_fall < end) {
      b.late |= t_fall < window;
      out.fall_valid |= bit;
      out.fall_fine[p] = static_cast<uint8_t>(t_fall < window ? 0 : t_fall - window);
      b.fall_pend &= ~bit;
      const uint64_t fell = t_fall < window ? window : t_fall;  // a late fall goes out now
      if (prev != nullptr && (prev->rise_pend & bit) && prev->t + prev->guard >= fell) {
        prev->rise_pend &= ~bit;  // due in a later cycle
      }
      if ((out.rise_valid & bit) && out.rise_fine[p] >= out.fall_fine[p]) out.rise_valid &= ~bit;
    }
    const uint64_t t_rise = b.t + b.guard;
    if ((b.rise_pend & bit) && t_rise < end) {
      // A rise already in `out` is prev's, before b's fall in this cycle:
      // this one replaces it, so that window is not opened.
      b.late |= t_rise < window;
      out.rise_valid |= bit;
      out.rise_fine[p] = static_cast<uint8_t>(t_rise < window ? 0 : t_rise - window);
      b.rise_pend &= ~bit;
    }
  }
}

// The upcoming boundary is taken in the cycle whose output window holds it.
void take_up(SequencerState& s, uint64_t window) {
  Boundary& b = s.up;
  if (!b.valid || !b.t_known || b.t >= window + kFine) return;
  if (b.late || b.t < window) {
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
    } else if (b.pass_end) {
      ++s.epochs;
    }
    ++s.steps;
    s.cur_step = b.step;
    s.cur_config = b.config;
    s.cur = b;
  }
  s.up = s.next;
  s.next.valid = false;
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

  if (in.stop) apply_stop(s);
  if (in.cancel) apply_cancel(s, window);
  if (in.commit) start_verify(s, in);
  verify_step(s, in, out, now);

  resolve_up(s, now, window);
  emit_edges(s.cur, nullptr, window, out);
  emit_edges(s.up, &s.cur, window, out);
  emit_edges(s.next, &s.up, window, out);
  take_up(s, window);
  fetch_step(s, in, out, now);

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

  // Registered: the trigger acts from the next cycle (kTriggerLeadCycles).
  if (in.trigger) {
    s.trigger_latched = true;
    s.trigger_timed = false;  // merged: the earlier of the two wins
  } else if (in.trigger_at && !(s.trigger_latched && !s.trigger_timed)) {
    s.trigger_latched = true;
    s.trigger_timed = true;
    s.trigger_ticks = in.trigger_ticks;
  }
}

}  // namespace seq
}  // namespace lightrail
