// What the outputs did, against what they should have done: the board's
// serializer words and select strobes become timed events (in fs of
// simulated time), matched to the reference's expected events; the traffic
// senders' packets are checked against the real gate and laser state.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "scenario/fifo.hpp"
#include "scenario/reference.hpp"
#include "scenario/ring.hpp"

namespace lightrail::sim {

struct ProbeFigures {
  uint64_t switch_events = 0;  // wavelength changes matched to the schedule
  uint64_t gate_edges = 0;     // gate falls and rises matched to the schedule
  uint64_t missed_events = 0;  // expected, never seen within one tick
  uint64_t unexpected_events = 0;
  uint64_t late_boundaries = 0;  // boundaries with a missed event, each counted once
  // |observed - intended| over matched events, intended on the board's own
  // clock (its tick grid in that cycle); cross-board alignment is the sync
  // report's business.
  int64_t timing_error_fs_max = 0;
  uint64_t packets_sent = 0, packets_delivered = 0, misdelivered_packets = 0, dark_violations = 0;
};

class Probe {
 public:
  Probe(Reference& ref, const std::vector<uint16_t>& tune);

  // One cycle of outputs: the cycle starts at board tick `tick`, at simulated
  // time `edge_fs`; bit k of gate_word[p] is port p's gate during tick k.
  // `fine_fs` is this cycle's period over FINE_STEPS (the serializer bit).
  void observe_cycle(uint64_t tick, uint64_t edge_fs, uint64_t fine_fs, const uint32_t* gate_word,
                     uint32_t sel_stb, const uint8_t* sel_fine, const uint8_t* sel_value);
  // Matches and checks everything older than `tick` minus the settling
  // delay: every kJudgeEvery-th call (a pass over every queue costs as much
  // as the events in it, and each pass mispredicts the end of every queue),
  // the others only note how far it may go. A board calls it every
  // kSettleEveryCycles cycles.
  void settle(uint64_t tick);
  static constexpr unsigned kSettleEveryCycles = 8;
  static constexpr unsigned kJudgeEvery = 8;
  // Does what the last settle() deferred: the figures are then those of
  // judging at every call (the end of a run).
  void flush();
  // Events and packets not judged yet (0 after flush() once the reference
  // is cut: what a board reset checks before it drops these probes).
  uint64_t unjudged() const;

  const ProbeFigures& figures() const { return f_; }
  // With record_boundaries(): when each boundary happened, in fs of
  // simulated time on this board's serializer grid (from its earliest
  // wavelength change), in boundary order, for cross-board skew.
  void record_boundaries() { record_ = true; }
  const std::vector<std::pair<uint64_t, int64_t>>& boundaries() const { return boundary_fs_; }
  // The switch edges of one boundary as they came out (fs of simulated
  // time): the earliest wavelength change, the earliest gate fall and the
  // latest gate rise, so a host can see when a boundary it asked for took
  // effect and how long the ports were dark for it. Only boundaries watched
  // (timed triggers, and the boundaries into event steps, where a phase's
  // circuits are set up) are kept, at most kWatchedBoundaries of them.
  struct BoundaryEdges {
    bool trigger = false;                    // a timed trigger's boundary
    bool event_start = false;                // a boundary into an event-triggered step
    int64_t fall_tick = -1, rise_tick = -1;  // board time of the first fall, the last rise
    int64_t sel_fs = -1, fall_fs = -1, rise_fs = -1;
  };
  static constexpr size_t kWatchedBoundaries = 4096;
  enum class Watch { kTrigger, kEventStart };
  void watch_boundary(uint64_t tick, Watch why);
  const std::map<uint64_t, BoundaryEdges>& watched() const { return watched_; }

  // Every port's wavelength and gate over a window around a swap (the
  // board taking up a new schedule) or a boundary into an event step (a
  // phase's circuits set up), for a picture rather than a check: the state
  // each port was in at the window's start and every edge in it, in board
  // time. The first kTraces are kept, each with at most kTraceEdges edges,
  // so a long run's report stays small.
  enum class TraceKind { kSwap, kEventStart };
  struct TraceEdge {
    int64_t tick;
    uint8_t port, kind;  // EventKind
    int16_t value;       // kSel: the new wavelength; gate: the new level
  };
  struct EdgeTrace {
    TraceKind kind = TraceKind::kSwap;
    uint64_t at_tick = 0, from_tick = 0, until_tick = 0;
    std::array<int, hwdef::PORTS> select{}, gate{};  // at from_tick
    std::vector<TraceEdge> edges;
    uint64_t edges_dropped = 0;
  };
  static constexpr size_t kTraces = 16;
  static constexpr size_t kTraceEdges = 4096;
  static constexpr uint64_t kTraceBeforeTicks = 2048;  // 256 ns
  static constexpr uint64_t kTraceAfterTicks = 4096;   // 512 ns
  // A window around board tick `tick`, registered before or after it.
  void trace_window(uint64_t tick, TraceKind kind);
  const std::vector<EdgeTrace>& traces() const { return traces_; }
  uint64_t traces_dropped() const { return traces_dropped_; }

 private:
  // An edge as the matcher needs it: when, on which serializer grid, to what.
  struct Seen {
    uint64_t tick;
    uint64_t fs;
    uint32_t fine_fs;  // the serializer bit of its cycle
    int32_t value;     // kSel: new select; gate: new level
  };
  // One port's last edges of one class (gate, or select), in time order
  // (each class is: gate edges come bit by bit, selects at most one per
  // cycle), with a cursor that packet checks move forward: the packets of a
  // port come in time order, so the state at a packet's start is found in
  // O(1) however many edges are kept.
  struct Edge {
    uint64_t tick;
    int16_t value;  // kSel: new select; gate: new level
    int16_t prev;   // kSel: select before
  };
  struct EdgeLog {
    static constexpr uint64_t kEdges = 64;  // per port and class
    std::array<Edge, kEdges> e{};
    uint64_t n = 0, cur = 0;  // edges pushed; the first edge after the last seek
    uint64_t lo() const { return n > kEdges ? n - kEdges : 0; }
    const Edge& at(uint64_t i) const { return e[i % kEdges]; }
    void push(uint64_t tick, int value, int prev) { e[n++ % kEdges] = {tick, int16_t(value), int16_t(prev)}; }
    // Index of the first kept edge after `t` (every kept edge before it is
    // at or before `t`); the cursor moves there.
    uint64_t seek(uint64_t t) {
      const uint64_t low = lo();
      uint64_t i = cur < low ? low : cur;
      while (i < n && at(i).tick <= t) ++i;
      while (i > low && at(i - 1).tick > t) --i;
      return cur = i;
    }
  };
  // observe_cycle() for a cycle with a trace window open or an event step
  // waited on: every edge in port order, gate edges before a port's select.
  [[gnu::noinline]] void observe_in_order(uint64_t tick, uint64_t edge_fs, uint64_t fine_fs,
                                          const uint32_t* gate_word, const uint32_t* edge_bits,
                                          uint32_t visit, uint32_t sel_stb, const uint8_t* sel_fine,
                                          const uint8_t* sel_value);
  void match(int port, int kind, uint64_t before);
  // A matched edge on time: for record_boundaries() and watched boundaries.
  [[gnu::noinline]] void note_edge(int kind, uint64_t boundary, const Seen& o);
  [[gnu::noinline]] void note_missed(uint64_t boundary);
  void resume_event(int port, int kind, uint64_t tick);
  enum class Verdict { kDelivered, kDark, kMisdelivered };
  // `quiet_until`: the port's first edge after `start` (UINT64_MAX: none yet).
  Verdict check_packet(int port, uint64_t start, uint64_t end, int wavelength, uint64_t* quiet_until);
  void trace_edge(int port, int kind, uint64_t tick, int value);

  Reference& ref_;
  const std::vector<uint16_t>& tune_;
  std::array<uint32_t, hwdef::PORTS> level_{};  // gate level at the end of the last cycle
  std::array<int, hwdef::PORTS> select_{};
  std::array<std::array<Fifo<Seen>, kEventKinds>, hwdef::PORTS> seen_;
  // Every port's last edges, for packet checks.
  std::array<EdgeLog, hwdef::PORTS> gate_log_, sel_log_;
  // Late boundaries whose events are not all judged yet: the events of one
  // boundary are matched per port and kind, in any order among others'.
  std::set<uint64_t> late_;
  bool record_ = false;
  std::vector<std::pair<uint64_t, int64_t>> boundary_fs_;
  std::vector<uint64_t> boundary_tick_;  // the tick of the select each boundary_fs_ entry is from
  std::map<uint64_t, BoundaryEdges> watched_;
  std::vector<EdgeTrace> traces_;
  size_t open_trace_ = 0;  // traces_[open_trace_..] may still take edges
  uint64_t traces_dropped_ = 0;
  void judge(uint64_t before);
  uint64_t due_before_ = 0;  // the horizon of the last settle() not judged yet
  bool due_ = false;
  unsigned settles_ = 0;
  ProbeFigures f_;
};

}  // namespace lightrail::sim
