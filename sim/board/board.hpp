// One simulated board: the verilated hw/ top (its core and its timing-link
// ports, each a model: port_model.hpp), the hls/ sequencer kernel
// called once per cycle beside it (a free-running II=1 kernel), the AXI
// master that plays host requests onto its bus, and the probes on its
// outputs.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "board/axi_master.hpp"
#include "board/bus_request.hpp"
#include "board/osc_pins.hpp"
#include "board/port_model.hpp"
#include "lightrail/hwdef.hpp"
#include "link/sync.hpp"
#include "scenario/probe.hpp"
#include "scenario/reference.hpp"
#include "sequencer/sequencer.hpp"

class Vlightrail_board_core;
class VerilatedFstC;

namespace lightrail::sim {

// Faults put between the kernel and the RTL, to show the probes see them.
struct FaultInjection {
  int port = -1;                // port whose events are disturbed (-1: none)
  int fall_shift_ticks = 0;     // gate falls this many ticks late (within the cycle)
  uint64_t drop_every_sel = 0;  // drop every n-th wavelength change (0: none)
  bool ignore_stop = false;     // the kernel never sees STOP (the reference does)
};

// Longest kernel pipeline the co-simulation models (hw/'s kernel_latency
// is 4 bits; the HLS schedule of the sequencer is far shorter).
inline constexpr unsigned kMaxKernelLatency = hwdef::SEQ_KERNEL_LATENCY_MAX;

struct BoardOptions {
  FaultInjection fault;
  // Cycles the kernel's event and status outputs take to reach the top
  // (the synthesised pipeline's latency); the top tells the kernel a time
  // that far ahead. The bank read ports are not delayed: their one-call
  // round trip is part of the kernel's state update (docs/sequencer.md).
  unsigned kernel_latency = hwdef::SEQ_KERNEL_LATENCY;
  uint64_t margin_ticks = 1;   // senders keep this far from the intended window edges
  uint64_t packet_ticks = 41;  // 64 B at 100 Gb/s = 5.12 ns
  std::string waveform;        // FST file, empty: none
  // Board resets (rst_ni low) mid-run: from the first cycle at or after
  // at_fs, for `cycles` cycles, on board `board` (-1: every board).
  struct Reset {
    uint64_t at_fs = 0;
    uint64_t cycles = 0;
    int board = -1;
  };
  std::vector<Reset> resets;  // in time order
};

// What the core gives its timing-link ports for their next edge, as
// lightrail_board_top wires them: registers and inputs of the core, so the
// same before and after the core's own edge.
PortInputs port_inputs(const Vlightrail_board_core& m);

class Board : public SyncPort {
 public:
  Board(int id, const BoardOptions& options);
  ~Board() override;
  Board(const Board&) = delete;
  Board& operator=(const Board&) = delete;

  // One system clock cycle whose rising edge is at simulated time `edge_fs`.
  void cycle(uint64_t edge_fs, uint64_t period_fs);

  BusQueue& bus() { return bus_; }
  int id() const { return id_; }
  uint64_t cycles() const { return cycles_; }
  uint64_t now_ticks() const { return now_ticks_; }
  bool idle() const { return !axi_.busy(); }
  nlohmann::json figures() const;             // this board's part of the report
  nlohmann::json watched_boundaries() const;  // switch edges of timed-trigger and event-start boundaries
  nlohmann::json edge_traces() const;         // every port's edges around the first swaps and event starts
  uint64_t edge_traces_dropped() const;       // traces beyond the first Probe::kTraces
  void fail_pending(const std::string& why);  // answers every queued request
  bool correct() const;                       // every correctness figure is zero
  Probe& probe() { return *probe_; }
  void record_boundaries() {
    record_boundaries_ = true;
    probe_->record_boundaries();
  }

  sync::top::Inputs kernel_inputs() override;
  void drive_kernel(const sync::top::Outputs& out) override;
  bool in_reset() const override;
  bool take_dac(uint32_t* word) override { return osc_pins_.take_dac(word); }
  int take_phase_steps() override { return osc_pins_.take_steps(); }
  void set_link_up(bool up) override { link_up_ = up; }
  LinkPort& link_port(int k) override { return *ports_.at(size_t(k)); }
  void add_down_ports(int count) override;

 private:
  void start_request(BusRequest* r, uint64_t edge_fs);
  void mirror_write(uint32_t addr, uint32_t value);
  // What watch_kernel() compares of the kernel's last outputs.
  struct KernelCounts {
    uint32_t status, errors, triggers, swaps;
  };
  void watch_kernel(const KernelCounts& before, bool jump_latched);
  void inject_fault(seq::SequencerOut& out);
  void digest_outputs(const uint32_t* gate, uint32_t stb, const uint8_t* fine, const uint8_t* value);
  void on_swap();

  int id_;
  BoardOptions opt_;
  std::unique_ptr<Vlightrail_board_core> m_;
  // Its timing-link ports, the own link first: the top's sync_port
  // instances, each a model of its own (port_model.hpp), wired to the core
  // each cycle as the top wires them (cycle()).
  std::vector<std::unique_ptr<PortModel>> ports_;
  std::unique_ptr<VerilatedFstC> trace_;
  std::unique_ptr<seq::SequencerState> st_;  // large: on the heap
  seq::SequencerIn in_{};
  // The kernel's pipeline: outputs of the last kernel_latency + 1 calls,
  // the oldest at pipe_head_, with the STOP each call took and the window
  // (board time) its outputs are for.
  struct Piped {
    seq::SequencerOut out;
    bool stop = false;
    uint64_t stop_window = 0;
  };
  std::array<Piped, kMaxKernelLatency + 1> pipe_{};
  size_t pipe_head_ = 0;
  const seq::SequencerOut* out_ = &pipe_[0].out;  // the last call's outputs (all zero before the first)
  seq::SequencerOut faulty_{};                    // with a fault injected: what leaves the pipeline instead
  PortOutputs shown_;                             // what the core's link_* inputs hold of its own port
  bool packed_events_ = true;                     // the top's event field ports may hold a non-zero field
  // Every change of the board outputs, hashed: two runs with the same
  // digest switched every port at the same ticks to the same values.
  uint64_t output_digest_ = 0;
  uint64_t output_changes_ = 0;
  std::array<uint32_t, hwdef::PORTS> last_gate_{};
  AxiMaster<Vlightrail_board_core> axi_;
  BusQueue bus_;
  uint64_t cycles_ = 0, now_ticks_ = 0, sel_seen_ = 0;
  OscPins osc_pins_;           // the DAC and MMCM on the top's osc_ctrl pins
  bool link_up_ = false;       // the fibre model's link to the reference (none: down)
  bool answered_now_ = false;  // a request was answered without bus cycles

  // The host's writes as the board should have taken them: the independent
  // side of every check.
  std::vector<uint32_t> bank_[2];
  std::vector<uint16_t> tune_;
  bool commit_at_time_ = false;
  uint64_t commit_ticks_ = 0;
  uint64_t pending_since_ = 0;
  std::shared_ptr<const DecodedImage> pending_;

  // The independent model and the probes of the current run; a board
  // reset ends one run (its figures are kept in past_) and starts the next.
  std::unique_ptr<Reference> ref_;
  std::unique_ptr<Probe> probe_;
  bool record_boundaries_ = false;
  struct PastRuns {
    ProbeFigures probe;
    uint64_t stops = 0, stops_mid_retune = 0, board_timed_boundaries = 0, event_rule_errors = 0;
    nlohmann::json watched = nlohmann::json::array();
    nlohmann::json traces = nlohmann::json::array();  // edge_traces(), each in its own run's board time
    uint64_t traces_dropped = 0;
  } past_;
  uint64_t resets_ = 0;
  uint64_t reset_left_ = 0;  // cycles of the board reset still to hold
  size_t next_reset_ = 0;    // in opt_.resets
  void begin_reset();
  ProbeFigures figures_total() const;
  uint64_t swap_errors_ = 0, verify_mismatches_ = 0, board_timed_starts_ = 0;
  uint64_t unjudged_at_reset_ = 0;  // events and packets a reset dropped unjudged (must stay 0)
  // Boundaries the kernel says a trigger resolved, to be seen by the
  // reference (from the edges) once they are past; those that are not are
  // trigger_errors.
  std::deque<uint64_t> triggered_;
  std::deque<uint64_t> trigger_resumes_;  // the same, for a reference that waits on them
  // The step each resolved trigger went into (UINT32_MAX: no jump), in
  // order, for the reference to follow once it waits on the event step the
  // trigger ended (the kernel runs ahead of it by its pipeline latency);
  // jump_told_ is that step's minimum end, so one step is told once.
  std::deque<uint32_t> jump_steps_;
  uint64_t jump_told_ = UINT64_MAX;
  uint64_t timed_triggers_ = 0, trigger_errors_ = 0;
  enum class Latched { kNone, kImmediate, kTimed } latched_ = Latched::kNone;  // as the kernel keeps it
  nlohmann::json swaps_ = nlohmann::json::array();
  std::vector<std::string> rejections_;
};

}  // namespace lightrail::sim
