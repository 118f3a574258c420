// C-simulation harness for the sequencer: one board's kernel with the two
// bank RAMs of hw/ (registered, one cycle read latency), the tune-table write
// port, and the port edges it emits, time-stamped at the board outputs.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <utility>
#include <vector>

#include "sequencer/sequencer.hpp"

namespace lightrail::seq::test {

enum class EdgeKind { kSelect, kFall, kRise };

struct Edge {
  EdgeKind kind;
  uint32_t port;
  uint64_t tick;       // board time at which the edge appears at the output
  uint32_t value = 0;  // new wavelength for kSelect

  bool operator==(const Edge& o) const {
    return kind == o.kind && port == o.port && tick == o.tick && value == o.value;
  }
};

std::ostream& operator<<(std::ostream& os, const Edge& e);

// Laser model of the tests: tune(a,b) = 0 if a == b, else 4 + |a - b| ticks.
uint16_t test_tune(uint32_t from, uint32_t to);

class Board {
 public:
  Board();  // loads test_tune() through the tune write port

  void load_bank(int bank, const std::vector<uint32_t>& words);
  void write_tune(uint32_t from, uint32_t to, uint16_t ticks);  // one write-port cycle

  // One clock cycle; `in` supplies the pulses (now_ticks and bank data are
  // filled in here).
  const SequencerOut& cycle(SequencerIn in = {});
  void run(uint64_t cycles);
  void run_until_tick(uint64_t tick);  // cycles until now() >= tick
  // Commit pulses naming the inactive bank's CRC, as the driver names the
  // image it staged; the board keeps running on later cycles.
  void commit_epoch();
  void commit_at(uint64_t ticks);
  uint32_t inactive_crc() const;
  void cancel();
  void trigger();
  void trigger_at(uint64_t ticks);  // a timed trigger (CTRL.TRIGGER_AT)
  void stop();
  // The board reset held for `cycles` cycles: the kernel's registers to
  // their reset values (sequencer_reset, as ap_rst_n does), its outputs
  // idle, board time back to 0 (hw/time_counter.sv). RAM contents (banks,
  // tune table) are kept. Edges already recorded stay in `edges`.
  void reset(uint64_t cycles = 1);

  uint64_t now() const { return now_; }
  const SequencerOut& out() const { return out_; }
  bool status(uint32_t mask) const { return (out_.status & mask) != 0; }

  // Edges seen so far; with record=false only on_edge sees them.
  std::vector<Edge> edges;
  bool record = true;
  std::function<void(const Edge&)> on_edge;

  std::vector<Edge> edges_of(uint32_t port) const;
  std::vector<uint64_t> ticks_of(EdgeKind kind, uint32_t port) const;
  // The transmit gate as the output stage (hw/fine_edge_stage.sv) makes it
  // from the recorded edges: each change of level, as {tick, new level}.
  std::vector<std::pair<uint64_t, bool>> gate_of(uint32_t port) const;

 private:
  void emit(const Edge& e);

  SequencerState state_{};
  std::vector<uint32_t> bank_[2];
  uint16_t raddr_[2] = {0, 0};
  uint64_t now_ = 0;
  SequencerOut out_;
};

}  // namespace lightrail::seq::test
