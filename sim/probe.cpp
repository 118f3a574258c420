#include "probe.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "fabric.hpp"

namespace lightrail::sim {

using hwdef::FINE_STEPS;
using hwdef::PORTS;

namespace {
// Events are matched this long after they happen, so a swap the kernel
// reports a few cycles after its boundary can still re-plan the reference.
constexpr uint64_t kSettleTicks = 8 * FINE_STEPS;  // > kSearchTicks + the kernel's swap report delay
constexpr uint64_t kToleranceTicks = 1;            // "within one fine step"
constexpr uint64_t kSearchTicks = FINE_STEPS / 2;  // how far to look for a displaced edge
}  // namespace

Probe::Probe(Reference& ref, const std::vector<uint16_t>& tune) : ref_(ref), tune_(tune) {}

void Probe::observe_cycle(uint64_t tick, uint64_t edge_fs, uint64_t fine_fs, const uint32_t* gate_word,
                          uint32_t sel_stb, const uint8_t* sel_fine, const uint8_t* sel_value) {
  ref_.set_cycle_start(tick);
  for (uint32_t p = 0; p < PORTS; ++p) {
    const uint32_t w = gate_word[p];
    const uint32_t level = level_[p];
    // Bit k is an edge where it differs from bit k-1 (bit -1: the level the
    // last cycle ended at): visit only those.
    for (uint32_t edges = w ^ ((w << 1) | level); edges; edges &= edges - 1) {
      const uint32_t k = uint32_t(__builtin_ctz(edges));
      const uint32_t bit = (w >> k) & 1u;
      const Seen s{tick + k, edge_fs + k * fine_fs, fine_fs, bit ? kRise : kFall, int(bit), 0};
      seen_[p][s.kind].push_back(s);
      history_[p].push_back(s);
      if (open_trace_ < traces_.size()) trace_edge(int(p), s);
      resume_event(int(p), s);
    }
    level_[p] = w >> (FINE_STEPS - 1);
    if (sel_stb >> p & 1u) {
      const Seen s{tick + sel_fine[p], edge_fs + sel_fine[p] * fine_fs, fine_fs, kSel, sel_value[p],
                   select_[p]};
      select_[p] = sel_value[p];
      seen_[p][kSel].push_back(s);
      history_[p].push_back(s);
      if (open_trace_ < traces_.size()) trace_edge(int(p), s);
      resume_event(int(p), s);
    }
  }
  while (open_trace_ < traces_.size() && traces_[open_trace_].until_tick < tick) ++open_trace_;
}

void Probe::trace_edge(int port, const Seen& s) {
  for (size_t i = open_trace_; i < traces_.size(); ++i) {
    EdgeTrace& t = traces_[i];
    if (s.tick < t.from_tick) {  // registered ahead of its window: the state it starts from
      (s.kind == kSel ? t.select : t.gate)[size_t(port)] = s.value;
      continue;
    }
    if (s.tick > t.until_tick) continue;
    if (t.edges.size() >= kTraceEdges) {
      ++t.edges_dropped;
      continue;
    }
    t.edges.push_back({int64_t(s.tick), uint8_t(port), uint8_t(s.kind), int16_t(s.value)});
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
  for (uint32_t p = 0; p < PORTS; ++p) {
    const auto& h = history_[p];
    if (h.size() == kHistoryEdges && h[0].tick > t.from_tick) t.from_tick = h[0].tick;
  }
  std::vector<TraceEdge> seen;
  for (uint32_t p = 0; p < PORTS; ++p) {
    int gate = int(level_[p]), select = select_[p];
    const auto& h = history_[p];
    for (size_t i = h.size(); i-- > 0 && h[i].tick >= t.from_tick;) {
      if (h[i].kind == kSel) {
        select = h[i].prev_value;
      } else {
        gate = 1 - h[i].value;
      }
      if (h[i].tick <= t.until_tick)
        seen.push_back({int64_t(h[i].tick), uint8_t(p), uint8_t(h[i].kind), int16_t(h[i].value)});
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
void Probe::resume_event(int port, const Seen& s) {
  if (!ref_.waiting_event()) return;
  const uint64_t boundary = ref_.boundary_from_edge(port, s.kind, s.tick);
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
  while (!expected.empty() && expected.front().tick + kSearchTicks < before) {
    const ExpectedEvent e = expected.front();
    expected.pop_front();
    while (!seen.empty() && seen.front().tick + kSearchTicks < e.tick) {
      ++f_.unexpected_events;
      seen.pop_front();
    }
    // The nearest edge within a cycle counts as this one, so a late or early
    // edge shows in the timing error as well as among the missed ones.
    if (!seen.empty() && seen.front().tick <= e.tick + kSearchTicks &&
        (kind != kSel || seen.front().value == e.value)) {
      // Intended: the expected tick on the same cycle's serializer grid.
      const Seen o = seen.front();
      const int64_t err = std::llabs(
          int64_t(o.fs) - (int64_t(o.fs) + (int64_t(e.tick) - int64_t(o.tick)) * int64_t(o.fine_fs)));
      if (err > f_.timing_error_fs_max) f_.timing_error_fs_max = err;
      const bool on_time =
          seen.front().tick + kToleranceTicks >= e.tick && seen.front().tick <= e.tick + kToleranceTicks;
      seen.pop_front();
      if (on_time && record_ && kind == kSel &&
          (boundary_fs_.empty() || boundary_fs_.back().first < e.boundary))
        boundary_fs_.emplace_back(
            e.boundary, int64_t(o.fs) + (int64_t(e.boundary) - int64_t(o.tick)) * int64_t(o.fine_fs));
      if (on_time && !watched_.empty()) {
        auto w = watched_.find(e.boundary);
        if (w != watched_.end()) {
          int64_t& at = kind == kSel    ? w->second.sel_fs
                        : kind == kFall ? w->second.fall_fs
                                        : w->second.rise_fs;
          const auto fs = int64_t(o.fs);
          if (at < 0 || (kind == kRise ? fs > at : fs < at)) {
            at = fs;
            if (kind != kSel) (kind == kFall ? w->second.fall_tick : w->second.rise_tick) = int64_t(o.tick);
          }
        }
      }
      if (on_time) {
        ++(kind == kSel ? f_.switch_events : f_.gate_edges);
        continue;
      }
    }
    ++f_.missed_events;
    if (late_.insert(e.boundary).second) ++f_.late_boundaries;
  }
  while (!seen.empty() && seen.front().tick + kSearchTicks < before &&
         (expected.empty() || seen.front().tick + kSearchTicks < expected.front().tick)) {
    ++f_.unexpected_events;
    seen.pop_front();
  }
}

void Probe::check_packet(const Packet& pkt) {
  ++f_.packets_sent;
  const auto& h = history_[pkt.port];
  // Gate and laser state at the packet's first tick, from the last edges
  // before it; any edge inside the packet spoils it.
  int gate = -1, select = -1, select_prev = -1;
  uint64_t select_tick = 0;
  bool edge_inside_gate = false, edge_inside_select = false;
  // Newest first: edges inside the packet, then the last of each kind before it.
  for (size_t i = h.size(); i-- > 0 && (gate < 0 || select < 0);) {
    const Seen* it = &h[i];
    const bool select_edge = it->kind == kSel;
    if (it->tick > pkt.end) continue;
    if (it->tick > pkt.start) {
      (select_edge ? edge_inside_select : edge_inside_gate) = true;
    } else if (select_edge && select < 0) {
      select = it->value;
      select_prev = it->prev_value;
      select_tick = it->tick;
    } else if (!select_edge && gate < 0) {
      gate = it->value;
    }
  }
  // No edge before the packet in the window: the state before the first
  // edge after it, or the current one.
  for (size_t i = 0; i < h.size() && (gate < 0 || select < 0); ++i) {
    const Seen* it = &h[i];
    if (gate < 0 && it->kind != kSel) gate = 1 - it->value;
    if (select < 0 && it->kind == kSel) select = it->prev_value;
  }
  if (gate < 0) gate = int(level_[pkt.port]);
  if (select < 0) select = select_[pkt.port];
  if (gate != 1 || edge_inside_gate) {
    ++f_.dark_violations;
    return;
  }
  const bool settled =
      select_prev < 0 ||
      select_tick + tune_[size_t(select_prev) * hwdef::WAVELENGTHS + size_t(select)] <= pkt.start;
  const int receiver = awgr_receiver(pkt.port, select, int(PORTS));
  const int intended = awgr_receiver(pkt.port, pkt.wavelength, int(PORTS));
  if (!settled || edge_inside_select || receiver != intended) {
    ++f_.misdelivered_packets;
    return;
  }
  ++f_.packets_delivered;
}

void Probe::settle(uint64_t tick) {
  if (tick < kSettleTicks) return;
  const uint64_t before = tick - kSettleTicks;
  for (int p = 0; p < int(PORTS); ++p)
    for (int k = 0; k < kEventKinds; ++k) match(p, k, before);
  // A boundary older than every event still to judge can miss no more.
  uint64_t oldest = std::numeric_limits<uint64_t>::max();
  for (const auto& kinds : ref_.events)
    for (const auto& q : kinds)
      if (!q.empty() && q.front().boundary < oldest) oldest = q.front().boundary;
  late_.erase(late_.begin(), late_.lower_bound(oldest));
  auto& packets = ref_.packets;
  while (!packets.empty() && packets.front().end < before) {
    check_packet(packets.front());
    packets.pop_front();
  }
}

}  // namespace lightrail::sim
