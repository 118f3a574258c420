#include "scenario/probe.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "board/port_mask.hpp"
#include "scenario/fabric.hpp"

namespace lightrail::sim {

using hwdef::FINE_STEPS;
using hwdef::PORTS;
static_assert(PORTS == 16, "port_mask.hpp tests 16 ports");

namespace {
// Events are matched this long after they happen, so a swap the kernel
// reports a few cycles after its boundary can still re-plan the reference.
constexpr uint64_t kSettleTicks = 8 * FINE_STEPS;  // > kSearchTicks + the kernel's swap report delay
constexpr uint64_t kToleranceTicks = 1;            // "within one fine step"
constexpr uint64_t kSearchTicks = FINE_STEPS / 2;  // how far to look for a displaced edge
// A packet is judged at most this many cycles after its end.
constexpr uint64_t kJudgeLagCycles =
    kSettleTicks / FINE_STEPS + Probe::kJudgeEvery * Probe::kSettleEveryCycles;
}  // namespace

Probe::Probe(Reference& ref, const std::vector<uint16_t>& tune) : ref_(ref), tune_(tune) {}

void Probe::observe_cycle(uint64_t tick, uint64_t edge_fs, uint64_t fine_fs, const uint32_t* gate_word,
                          uint32_t sel_stb, const uint8_t* sel_fine, const uint8_t* sel_value) {
  ref_.set_cycle_start(tick);
  // Bit k of a word is an edge where it differs from bit k-1 (bit -1: the
  // level the last cycle ended at). Found for every port at once (a loop
  // the compiler vectorises), then only ports with an edge or a select
  // strobe are visited: most ports have neither.
  std::array<uint32_t, PORTS> edge_bits;
  for (uint32_t p = 0; p < PORTS; ++p) {
    const uint32_t w = gate_word[p];
    edge_bits[p] = w ^ ((w << 1) | level_[p]);
  }
  const uint32_t gates = nonzero_ports16(edge_bits.data());
  // Only an edge can end an event step the reference waits on, and a trace
  // keeps edges in the order they are seen: then every edge in port order
  // (nothing here opens a window or starts a wait).
  if (open_trace_ < traces_.size() || ref_.waiting_event()) {
    observe_in_order(tick, edge_fs, fine_fs, gate_word, edge_bits.data(), gates | sel_stb, sel_stb, sel_fine,
                     sel_value);
    while (open_trace_ < traces_.size() && traces_[open_trace_].until_tick < tick) ++open_trace_;
    return;
  }
  // Otherwise the gate edges, then the selects: each port and class has its
  // own queue and log, so the order between them changes nothing, and two
  // loops without a test per port spare the branches no predictor learns
  // (which ports have an edge changes every cycle).
  for (uint32_t g = gates; g; g &= g - 1) {
    const uint32_t p = uint32_t(__builtin_ctz(g));
    const uint32_t w = gate_word[p];
    level_[p] = w >> (FINE_STEPS - 1);
    uint32_t edges = edge_bits[p];
    do {
      const uint32_t k = uint32_t(__builtin_ctz(edges));
      const int bit = int((w >> k) & 1u);
      seen_[p][bit ? kRise : kFall].push_back({tick + k, edge_fs + k * fine_fs, uint32_t(fine_fs), bit});
      gate_log_[p].push(tick + k, bit, 0);
      edges &= edges - 1;
    } while (edges);
  }
  for (uint32_t s = sel_stb; s; s &= s - 1) {
    const uint32_t p = uint32_t(__builtin_ctz(s));
    const uint64_t t = tick + sel_fine[p];
    seen_[p][kSel].push_back({t, edge_fs + sel_fine[p] * fine_fs, uint32_t(fine_fs), sel_value[p]});
    sel_log_[p].push(t, sel_value[p], select_[p]);
    select_[p] = sel_value[p];
  }
}

void Probe::observe_in_order(uint64_t tick, uint64_t edge_fs, uint64_t fine_fs, const uint32_t* gate_word,
                             const uint32_t* edge_bits, uint32_t visit, uint32_t sel_stb,
                             const uint8_t* sel_fine, const uint8_t* sel_value) {
  bool waiting = ref_.waiting_event();  // asked again only after an edge resumed it
  const bool tracing = open_trace_ < traces_.size();
  for (; visit; visit &= visit - 1) {
    const uint32_t p = uint32_t(__builtin_ctz(visit));
    const uint32_t w = gate_word[p];
    uint32_t edges = edge_bits[p];
    if (edges) {
      level_[p] = w >> (FINE_STEPS - 1);
      for (; edges; edges &= edges - 1) {
        const uint32_t k = uint32_t(__builtin_ctz(edges));
        const int bit = int((w >> k) & 1u);
        const int kind = bit ? kRise : kFall;
        seen_[p][kind].push_back({tick + k, edge_fs + k * fine_fs, uint32_t(fine_fs), bit});
        gate_log_[p].push(tick + k, bit, 0);
        if (tracing) trace_edge(int(p), kind, tick + k, bit);
        if (waiting) {
          resume_event(int(p), kind, tick + k);
          waiting = ref_.waiting_event();
        }
      }
    }
    if (sel_stb >> p & 1u) {
      const uint64_t t = tick + sel_fine[p];
      seen_[p][kSel].push_back({t, edge_fs + sel_fine[p] * fine_fs, uint32_t(fine_fs), sel_value[p]});
      sel_log_[p].push(t, sel_value[p], select_[p]);
      select_[p] = sel_value[p];
      if (tracing) trace_edge(int(p), kSel, t, sel_value[p]);
      if (waiting) {
        resume_event(int(p), kSel, t);
        waiting = ref_.waiting_event();
      }
    }
  }
}

void Probe::trace_edge(int port, int kind, uint64_t tick, int value) {
  for (size_t i = open_trace_; i < traces_.size(); ++i) {
    EdgeTrace& t = traces_[i];
    if (tick < t.from_tick) {  // registered ahead of its window: the state it starts from
      (kind == kSel ? t.select : t.gate)[size_t(port)] = value;
      continue;
    }
    if (tick > t.until_tick) continue;
    if (t.edges.size() >= kTraceEdges) {
      ++t.edges_dropped;
      continue;
    }
    t.edges.push_back({int64_t(tick), uint8_t(port), uint8_t(kind), int16_t(value)});
  }
}

// The edges already seen (up to the current cycle) come from each port's
// history; the state at the window's start is today's state with those
// edges undone. A history too short for the window starts it later.
void Probe::trace_window(uint64_t tick, TraceKind kind) {
  // One window per boundary: a swap onto an event step is drawn once, as
  // the swap.
  for (size_t i = traces_.size(); i-- > 0 && traces_[i].until_tick >= tick;)
    if (traces_[i].at_tick == tick) {
      if (kind == TraceKind::kSwap) traces_[i].kind = kind;
      return;
    }
  if (traces_.size() >= kTraces) {
    ++traces_dropped_;
    return;
  }
  EdgeTrace t;
  t.kind = kind;
  t.at_tick = tick;
  t.from_tick = tick > kTraceBeforeTicks ? tick - kTraceBeforeTicks : 0;
  t.until_tick = tick + kTraceAfterTicks;
  // Each port's kept gate and select edges (EdgeLog): a full log that does
  // not reach back to the window's start starts the window later.
  for (uint32_t p = 0; p < PORTS; ++p)
    for (const EdgeLog* log : {&gate_log_[p], &sel_log_[p]})
      if (log->n > EdgeLog::kEdges && log->at(log->lo()).tick > t.from_tick)
        t.from_tick = log->at(log->lo()).tick;
  std::vector<TraceEdge> seen;
  for (uint32_t p = 0; p < PORTS; ++p) {
    int gate = int(level_[p]), select = select_[p];
    const EdgeLog& gl = gate_log_[p];
    for (uint64_t i = gl.n; i-- > gl.lo() && gl.at(i).tick >= t.from_tick;) {
      gate = 1 - gl.at(i).value;
      if (gl.at(i).tick <= t.until_tick)
        seen.push_back({int64_t(gl.at(i).tick), uint8_t(p), uint8_t(gl.at(i).value ? kRise : kFall),
                        int16_t(gl.at(i).value)});
    }
    const EdgeLog& sl = sel_log_[p];
    for (uint64_t i = sl.n; i-- > sl.lo() && sl.at(i).tick >= t.from_tick;) {
      select = sl.at(i).prev;
      if (sl.at(i).tick <= t.until_tick)
        seen.push_back({int64_t(sl.at(i).tick), uint8_t(p), uint8_t(kSel), int16_t(sl.at(i).value)});
    }
    t.select[p] = select;
    t.gate[p] = gate;
  }
  std::stable_sort(seen.begin(), seen.end(),
                   [](const TraceEdge& a, const TraceEdge& b) { return a.tick < b.tick; });
  if (seen.size() > kTraceEdges) {
    t.edges_dropped = seen.size() - kTraceEdges;
    seen.resize(kTraceEdges);
  }
  t.edges = std::move(seen);
  traces_.push_back(std::move(t));
}

// The first edge of the boundary that ends an event-triggered step says when
// the board ended it; the reference resumes from there.
void Probe::resume_event(int port, int kind, uint64_t tick) {
  const uint64_t boundary = ref_.boundary_from_edge(port, kind, tick);
  if (boundary != std::numeric_limits<uint64_t>::max()) ref_.resume_at(boundary);
}

void Probe::watch_boundary(uint64_t tick, Watch why) {
  if (why == Watch::kEventStart) trace_window(tick, TraceKind::kEventStart);
  BoundaryEdges& e = watched_[tick];
  (why == Watch::kTrigger ? e.trigger : e.event_start) = true;
  if (watched_.size() > kWatchedBoundaries) watched_.erase(watched_.begin());
}

void Probe::match(int port, int kind, uint64_t before) {
  auto& expected = ref_.events[port][kind];
  auto& seen = seen_[port][kind];
  // Walked with local pointers and counters, the queues updated once at the
  // end: stores to the figures would otherwise make the compiler reload the
  // queues' state on every event.
  const ExpectedEvent *e = expected.begin(), *const e_end = expected.end();
  const Seen *o = seen.begin(), *const o_end = seen.end();
  uint64_t on_time = 0, unexpected = 0;
  int64_t err_max = f_.timing_error_fs_max;
  const bool keep_edges = (record_ && kind == kSel) || !watched_.empty();
  for (; e != e_end && e->tick + kSearchTicks < before; ++e) {
    while (o != o_end && o->tick + kSearchTicks < e->tick) {
      ++unexpected;
      ++o;
    }
    // The nearest edge within a cycle counts as this one, so a late or early
    // edge shows in the timing error as well as among the missed ones.
    if (o != o_end && o->tick <= e->tick + kSearchTicks && (kind != kSel || o->value == e->value)) {
      // Intended: the expected tick on the same cycle's serializer grid.
      const uint64_t off = o->tick > e->tick ? o->tick - e->tick : e->tick - o->tick;
      err_max = std::max(err_max, int64_t(off * o->fine_fs));
      const Seen& m = *o++;
      if (off <= kToleranceTicks) {
        ++on_time;
        if (keep_edges) note_edge(kind, e->boundary, m);
        continue;
      }
    }
    note_missed(e->boundary);
  }
  while (o != o_end && o->tick + kSearchTicks < before && (e == e_end || o->tick + kSearchTicks < e->tick)) {
    ++unexpected;
    ++o;
  }
  expected.pop_front_to(e);
  seen.pop_front_to(o);
  (kind == kSel ? f_.switch_events : f_.gate_edges) += on_time;
  f_.unexpected_events += unexpected;
  f_.timing_error_fs_max = err_max;
}

// Kept out of line, with note_missed: the matcher's loop stays small.
void Probe::note_missed(uint64_t boundary) {
  ++f_.missed_events;
  if (late_.insert(boundary).second) ++f_.late_boundaries;
}

void Probe::note_edge(int kind, uint64_t boundary, const Seen& o) {
  if (record_ && kind == kSel) {
    // The boundary's earliest select says when it happened, whichever
    // port's is judged first: a judging pass takes each port's edges in
    // turn, so the boundaries come nearly, not strictly, in order (taking
    // the first one judged and skipping older ones lost the boundaries only
    // later ports switched at, more of them the longer the pass).
    const int64_t fs = int64_t(o.fs) + (int64_t(boundary) - int64_t(o.tick)) * int64_t(o.fine_fs);
    size_t i = boundary_fs_.size();
    while (i > 0 && boundary_fs_[i - 1].first > boundary) --i;
    if (i > 0 && boundary_fs_[i - 1].first == boundary) {
      if (o.tick < boundary_tick_[i - 1]) {
        boundary_fs_[i - 1].second = fs;
        boundary_tick_[i - 1] = o.tick;
      }
    } else {
      boundary_fs_.insert(boundary_fs_.begin() + std::ptrdiff_t(i), {boundary, fs});
      boundary_tick_.insert(boundary_tick_.begin() + std::ptrdiff_t(i), o.tick);
    }
  }
  if (watched_.empty()) return;
  auto w = watched_.find(boundary);
  if (w == watched_.end()) return;
  int64_t& at = kind == kSel ? w->second.sel_fs : kind == kFall ? w->second.fall_fs : w->second.rise_fs;
  const auto fs = int64_t(o.fs);
  if (at < 0 || (kind == kRise ? fs > at : fs < at)) {
    at = fs;
    if (kind != kSel) (kind == kFall ? w->second.fall_tick : w->second.rise_tick) = int64_t(o.tick);
  }
}

Probe::Verdict Probe::check_packet(int port, uint64_t start, uint64_t end, int wavelength,
                                   uint64_t* quiet_until) {
  // Gate and laser state at the packet's first tick, from the last edge of
  // each class at or before it; any edge inside the packet spoils it.
  const EdgeLog& g = gate_log_[port];
  const uint64_t gi = gate_log_[port].seek(start);
  const EdgeLog& s = sel_log_[port];
  const uint64_t si = sel_log_[port].seek(start);
  const uint64_t none = std::numeric_limits<uint64_t>::max();
  const uint64_t next_gate = gi < g.n ? g.at(gi).tick : none, next_sel = si < s.n ? s.at(si).tick : none;
  *quiet_until = std::min(next_gate, next_sel);
  // No gate edge before the packet kept: the level before the first one
  // after it, or the current one.
  const int gate = gi > g.lo() ? g.at(gi - 1).value : gi < g.n ? 1 - g.at(gi).value : int(level_[port]);
  if (gate != 1 || next_gate <= end) return Verdict::kDark;
  int select, select_prev = -1;
  uint64_t select_tick = 0;
  if (si > s.lo()) {
    const Edge& e = s.at(si - 1);
    select = e.value;
    select_prev = e.prev;
    select_tick = e.tick;
  } else {
    select = si < s.n ? s.at(si).prev : select_[port];
  }
  const bool settled =
      select_prev < 0 ||
      select_tick + tune_[size_t(select_prev) * hwdef::WAVELENGTHS + size_t(select)] <= start;
  const int receiver = awgr_receiver(port, select, int(PORTS));
  const int intended = awgr_receiver(port, wavelength, int(PORTS));
  if (!settled || next_sel <= end || receiver != intended) return Verdict::kMisdelivered;
  return Verdict::kDelivered;
}

void Probe::settle(uint64_t tick) {
  if (tick < kSettleTicks) return;
  due_before_ = tick - kSettleTicks;
  due_ = true;
  if (++settles_ % kJudgeEvery == 0) judge(due_before_);
}

void Probe::flush() {
  if (due_) judge(due_before_);
}

uint64_t Probe::unjudged() const {
  uint64_t n = ref_.packets.size();
  for (uint32_t p = 0; p < PORTS; ++p)
    for (int k = 0; k < kEventKinds; ++k) n += ref_.events[p][k].size() + seen_[p][k].size();
  return n;
}

// Matching and packet checks are the same done at once to `before` as done
// in steps: every event and packet they take is older than anything the
// reference may still withdraw or add (docs/cosim.md, "Speed").
void Probe::judge(uint64_t before) {
  // The edge logs must still hold every edge of a packet's port since its
  // start. Between its start and its window's end the port has none; after
  // that, at most a fall and a rise per boundary, boundaries at least
  // MIN_STEP_CYCLES apart (judged every 128 cycles, the logs fell short).
  static_assert(2 * (kJudgeLagCycles / hwdef::MIN_STEP_CYCLES + 2) <= EdgeLog::kEdges,
                "the edge logs must reach back to the oldest packet not judged yet");
  due_ = false;
  // Only queues with something due: a call per queue costs as much as the
  // events in it.
  for (int p = 0; p < int(PORTS); ++p)
    for (int k = 0; k < kEventKinds; ++k) {
      const auto& e = ref_.events[p][k];
      const auto& o = seen_[p][k];
      if ((!e.empty() && e.front().tick + kSearchTicks < before) ||
          (!o.empty() && o.front().tick + kSearchTicks < before))
        match(p, k, before);
    }
  // A boundary older than every event still to judge can miss no more.
  uint64_t oldest = std::numeric_limits<uint64_t>::max();
  for (const auto& kinds : ref_.events)
    for (const auto& q : kinds)
      if (!q.empty() && q.front().boundary < oldest) oldest = q.front().boundary;
  late_.erase(late_.begin(), late_.lower_bound(oldest));
  // Each packet once its last tick is old enough, in the order they were
  // generated (a window's first packet may be judged before its last).
  // The window's progress and the verdicts are kept in locals, written back
  // once: stored to the window and reloaded beside its neighbour field, the
  // progress stalled the loads that fetched both at once.
  auto& windows = ref_.packets;
  uint64_t verdicts[3] = {};  // by Verdict
  while (!windows.empty()) {
    Packet& w = windows.front();
    const uint32_t n = w.count;
    uint32_t judged = w.judged;
    while (judged < n && w.end[judged] < before) {
      uint64_t quiet_until;
      const Verdict v = check_packet(w.port, w.start[judged], w.end[judged], w.wavelength, &quiet_until);
      ++verdicts[int(v)];
      ++judged;
      // No edge of the port from the first packet's start to the end of the
      // last: the last sees the same gate and laser, so the same verdict
      // (a laser not settled yet may have settled since: judged apart).
      if (judged == 1 && n == 2 && w.end[1] < before && quiet_until > w.end[1] &&
          v != Verdict::kMisdelivered) {
        ++verdicts[int(v)];
        ++judged;
      }
    }
    w.judged = judged;
    if (judged < n) break;
    windows.pop_front();
  }
  f_.packets_sent += verdicts[0] + verdicts[1] + verdicts[2];
  f_.packets_delivered += verdicts[int(Verdict::kDelivered)];
  f_.dark_violations += verdicts[int(Verdict::kDark)];
  f_.misdelivered_packets += verdicts[int(Verdict::kMisdelivered)];
}

}  // namespace lightrail::sim
