// What the outputs did, against what they should have done: the board's
// serializer words and select strobes become timed events (in fs of
// simulated time), matched to the reference's expected events; the traffic
// senders' packets are checked against the real gate and laser state.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "reference.hpp"

namespace lightrail::sim {

struct ProbeFigures {
  uint64_t switch_events = 0;  // wavelength changes matched to the schedule
  uint64_t gate_edges = 0;     // gate falls and rises matched to the schedule
  uint64_t missed_events = 0;  // expected, never seen within one tick
  uint64_t unexpected_events = 0;
  uint64_t late_boundaries = 0;  // boundaries with a missed event
  int64_t timing_error_fs_max = 0;  // |observed - intended| over matched events
  uint64_t packets_sent = 0, packets_delivered = 0, misdelivered_packets = 0, dark_violations = 0;
};

class Probe {
 public:
  Probe(Reference& ref, const std::vector<uint16_t>& tune, uint64_t tick_fs);

  // One cycle of outputs: the cycle starts at board tick `tick`, at simulated
  // time `edge_fs`; bit k of gate_word[p] is port p's gate during tick k.
  void observe_cycle(uint64_t tick, uint64_t edge_fs, const uint32_t* gate_word, uint32_t sel_stb,
                     const uint8_t* sel_fine, const uint8_t* sel_value);
  // Matches and checks everything older than `tick` minus the settling delay.
  void settle(uint64_t tick);

  const ProbeFigures& figures() const { return f_; }

 private:
  struct Seen {
    uint64_t tick;
    uint64_t fs;
    int kind;
    int value;       // kSel: new select; gate: new level
    int prev_value;  // kSel: select before
  };
  void match(int port, int kind, uint64_t before);
  void check_packet(const Packet& p);

  Reference& ref_;
  const std::vector<uint16_t>& tune_;
  uint64_t tick_fs_;
  uint64_t origin_fs_ = 0;  // simulated time of board tick 0
  bool have_origin_ = false;
  std::array<uint32_t, hwdef::PORTS> level_{};  // gate level at the end of the last cycle
  std::array<int, hwdef::PORTS> select_{};
  std::array<std::array<std::deque<Seen>, kEventKinds>, hwdef::PORTS> seen_;
  std::array<std::deque<Seen>, hwdef::PORTS> history_;  // every edge, for packet checks
  uint64_t last_late_boundary_ = UINT64_MAX;
  ProbeFigures f_;
};

}  // namespace lightrail::sim
