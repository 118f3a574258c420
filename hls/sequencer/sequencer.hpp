// The wavelength-switch sequencer kernel: walks the active schedule bank and
// emits, one clock cycle ahead, the wavelength-select and transmit-gate edges
// of every port at tick resolution. Behaviour: docs/sequencer.md.
//
// Synthesisable style: all state lives in SequencerState (fixed-size arrays,
// no heap, no STL), so the co-simulation can run many boards in one process
// while the HLS top (sequencer_top.cpp) keeps exactly one as a static.
#pragma once

#include <cstdint>

#include "lightrail/hwdef.hpp"
#include "sequencer/sequencer_io.hpp"

namespace lightrail {
namespace seq {

using hwdef::FINE_STEPS;
using hwdef::TUNE_ENTRIES;

// An at-time commit must name a time at least this far past the cycle in
// which verification finishes; the same lead decides whether an epoch
// boundary that is already prefetched can still be replaced by the swap.
constexpr uint32_t kCommitLeadCycles = 16;
// A trigger is registered, then acted on: the event step's boundary is no
// earlier than trigger cycle + this lead + the transition's largest tune.
constexpr uint32_t kTriggerLeadCycles = hwdef::OUTPUT_LATENCY_CYCLES + 1;
// Cycles from starting a step fetch to its boundary being ready to emit:
// step line, config line, then two cycles of tune lookups.
constexpr uint32_t kFetchCycles = 4;
// The tune table is replicated so one cycle performs PORTS/2 lookups (each
// copy is a simple dual-port RAM: one read for the kernel, one write port).
constexpr uint32_t kTuneLookupCycles = 2;
constexpr uint32_t kTuneCopies = PORTS / kTuneLookupCycles;

// Header fields of a verified bank the walker needs.
struct BankInfo {
  uint32_t n_steps = 0;
  uint32_t n_configs = 0;
  bool cyclic = false;
  uint32_t guard_ticks = 0;
  uint32_t generation = 0;
};

// One step boundary: the transition into step `step` of bank `bank` at tick
// `t`, with the port edges it causes. The kernel holds three: the boundary of
// the executing step (its rises may still be pending), the upcoming one and
// the prefetched one after it.
struct Boundary {
  bool valid = false;
  bool t_known = false;   // false: t is the earliest possible time (event step, idle start)
  bool asap = false;      // idle start: resolve to the first cycle boundary the tuning allows
  bool is_end = false;    // into "all dark, not running" (one-shot end or STOP)
  bool is_stop = false;   // the end is a STOP
  bool pass_end = false;  // ends a pass of the schedule before it (wrap, one-shot end, epoch swap)
  bool swap = false;      // first step of a newly committed bank
  bool event = false;     // the step it starts is event-triggered
  bool jump = false;      // fetched as a latched jump's target (after an event step)
  bool late = false;      // an edge of it was emitted after its time
  uint8_t bank = 0;
  uint16_t step = 0;
  uint16_t config = 0;
  uint64_t t = 0;         // boundary tick
  uint64_t duration = 0;  // ticks of the step it starts (minimum if event)
  uint64_t t_end = 0;     // t + duration: the next boundary's (earliest) tick, kept so no add is on a path
  uint32_t guard = 0;     // gate stays low until t + guard
  uint16_t max_tune = 0;  // largest early select lead of this boundary
  uint32_t sel_pend = 0;  // per-port pending edges (bit p = port p)
  uint32_t fall_pend = 0;
  uint32_t rise_pend = 0;
  uint32_t fall_plan = 0;   // ports that fall at this boundary (pending or done)
  uint32_t fall_early = 0;  // fall at t - tune (retune) instead of at t (to dark)
  uint16_t tune[PORTS] = {};
  uint8_t sel_value[PORTS] = {};
  // Port state before this boundary, to roll the plan back when a swap or
  // STOP replaces it.
  uint8_t sel_before[PORTS] = {};
  uint32_t lit_before = 0;
};

enum class CommitState : uint8_t {
  kNone,       // nothing committed
  kVerifying,  // reading the inactive bank
  kPending,    // verified, waiting for the fetcher to schedule the swap
  kClaimed,    // the swap boundary is planned, waiting for it to be taken
};

enum class FetchPhase : uint8_t { kIdle, kStepLine, kConfigLine, kTune2 };

// The prefetcher: turns the next step of a bank into a Boundary.
struct Fetch {
  FetchPhase phase = FetchPhase::kIdle;
  uint8_t bank = 0;
  uint16_t step = 0;
  uint64_t t_min = 0;  // expected boundary time when the fetch started
  bool asap = false;
  bool at_commit_time = false;  // idle at-time start: t = commit_ticks
  bool swap = false;
  bool pass_end = false;
  uint64_t duration = 0;
  uint16_t config = 0;
  bool event = false;
  bool jump = false;  // the step is a latched jump's target
  uint32_t config_words[BANK_LINE_WORDS] = {};
  uint16_t tune[PORTS] = {};
};

// The checker: reads the inactive bank line by line.
struct Verify {
  uint8_t bank = 0;
  uint32_t next_seq = 0;   // next line of the read sequence to present
  bool have_line = false;  // a line was presented last cycle
  uint32_t line_seq = 0;
  bool header_read = false;
  uint32_t total_lines = 0;
  uint32_t crc = 0;
  uint32_t crc_expected = 0;
  bool bounds_error = false;
  BankInfo info;
};

// Everything the board reset returns to its initial value: registers in
// the synthesised kernel.
struct SequencerRegs {
  BankInfo bank_info[2];
  uint8_t active_bank = 0;

  Boundary cur;   // boundary of the executing step; valid = running
  Boundary up;    // next boundary
  Boundary next;  // the one after
  // A boundary the prefetcher completed (planned) last cycle: it joins the
  // queue at the start of this cycle, taking its time from the queue's tail
  // then (docs/sequencer.md, "The per-cycle state update").
  Boundary staged;
  // Port state after the last planned boundary.
  uint8_t plan_sel[PORTS] = {};
  uint32_t plan_lit = 0;

  Fetch fetch;
  Verify verify;
  CommitState commit = CommitState::kNone;
  bool commit_at_time = false;
  uint64_t commit_ticks = 0;
  uint32_t commit_crc = 0;
  bool cancelled = false;  // the last commit was dropped by CANCEL

  bool trigger_latched = false;
  bool trigger_timed = false;  // the latched trigger names a board time
  uint64_t trigger_ticks = 0;
  // The latched trigger jumps to trigger_step: what is queued after the
  // event step is dropped and the target fetched in its place; the trigger
  // resolves once the target is the upcoming boundary (docs/sequencer.md,
  // "Jumps").
  bool trigger_jump = false;
  uint16_t trigger_step = 0;
  uint64_t triggered_at = 0;
  uint32_t triggers = 0;
  uint16_t triggered_step = 0;
  bool stop_latched = false;

  uint32_t errors = 0;
  uint64_t steps = 0;
  uint32_t missed = 0;
  uint32_t cur_step = 0;
  uint32_t cur_config = 0;
  uint32_t generation = 0;
  uint32_t epochs = 0;
  uint32_t swaps = 0;
  uint64_t last_swap_ticks = 0;
};

struct SequencerState : SequencerRegs {
  // The tune table: block RAM, written only through tune_we. A reset does
  // not clear it (no RAM is cleared in one cycle); the host writes it
  // before it commits a schedule.
  uint16_t tune[kTuneCopies][TUNE_ENTRIES] = {};
};

// One clock cycle of the free-running kernel. A value-initialised
// SequencerState is the power-up state.
void sequencer_step(SequencerState& state, const SequencerIn& in, SequencerOut& out);

// The board reset (ap_rst_n): every register to its initial value, so the
// next call behaves as a fresh kernel's first; the tune table is kept.
void sequencer_reset(SequencerState& state);

}  // namespace seq
}  // namespace lightrail
