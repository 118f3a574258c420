// One simulated board: the verilated hw/ top, the hls/ sequencer kernel
// called once per cycle beside it (a free-running II=1 kernel), the AXI
// master that plays host requests onto its bus, and the probes on its
// outputs.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "axi_master.hpp"
#include "bus_request.hpp"
#include "osc_pins.hpp"
#include "probe.hpp"
#include "reference.hpp"
#include "sequencer/sequencer.hpp"
#include "sync.hpp"

class Vlightrail_board_top;
class VerilatedFstC;

namespace lightrail::sim {

// Faults put between the kernel and the RTL, to show the probes see them.
struct FaultInjection {
  int port = -1;                // port whose events are disturbed (-1: none)
  int fall_shift_ticks = 0;     // gate falls this many ticks late (within the cycle)
  uint64_t drop_every_sel = 0;  // drop every n-th wavelength change (0: none)
  bool ignore_stop = false;     // the kernel never sees STOP (the reference does)
};

struct BoardOptions {
  FaultInjection fault;
  uint64_t margin_ticks = 1;   // senders keep this far from the intended window edges
  uint64_t packet_ticks = 41;  // 64 B at 100 Gb/s = 5.12 ns
  std::string waveform;        // FST file, empty: none
};

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
  void fail_pending(const std::string& why);  // answers every queued request
  bool correct() const;                       // every correctness figure is zero
  Probe& probe() { return probe_; }

  sync::ClockSyncConfig sync_config() override;
  uint32_t take_sync_clear() override;
  void set_sync_status(const sync::ClockSyncOut& out) override;
  void dmtd_edge(bool ref_level, bool local_level) override;
  bool take_ddmtd_phase(uint32_t* phase) override;
  void load_actuators(uint32_t dac_word, bool load_dac, int32_t phase_steps,
                      int64_t time_step_ticks) override;
  bool take_dac(uint32_t* word) override { return osc_pins_.take_dac(word); }
  int take_phase_steps() override { return osc_pins_.take_steps(); }
  void set_link_up(bool up) override { link_up_ = up; }

 private:
  void start_request(BusRequest* r, uint64_t edge_fs);
  void mirror_write(uint32_t addr, uint32_t value);
  void watch_kernel(const seq::SequencerOut& before);
  void inject_fault();
  void on_swap();

  int id_;
  BoardOptions opt_;
  std::unique_ptr<Vlightrail_board_top> m_;
  std::unique_ptr<VerilatedFstC> trace_;
  std::unique_ptr<seq::SequencerState> st_;  // large: on the heap
  seq::SequencerIn in_{};
  seq::SequencerOut out_{};
  AxiMaster<Vlightrail_board_top> axi_;
  BusQueue bus_;
  uint64_t cycles_ = 0, now_ticks_ = 0, sel_seen_ = 0;
  uint32_t sync_clear_ = 0;
  bool ddmtd_valid_ = false;  // the top reported a DDMTD phase in the last cycle
  uint32_t ddmtd_phase_ = 0;
  OscPins osc_pins_;      // the DAC and MMCM on the top's osc_ctrl pins
  uint32_t act_dac_ = 0;  // actuator loads for the next cycle
  int32_t act_steps_ = 0;
  int64_t act_time_step_ = 0;
  bool act_dac_load_ = false, act_steps_load_ = false, act_time_step_load_ = false;
  bool link_up_ = false;       // the fibre model's link to the reference (none: down)
  bool answered_now_ = false;  // a request was answered without bus cycles  // SYNC_ERROR clear pulses since
                               // the servo last ran

  // The host's writes as the board should have taken them: the independent
  // side of every check.
  std::vector<uint32_t> bank_[2];
  std::vector<uint16_t> tune_;
  bool commit_at_time_ = false;
  uint64_t commit_ticks_ = 0;
  uint64_t pending_since_ = 0;
  std::shared_ptr<const DecodedImage> pending_;

  Reference ref_;
  Probe probe_;
  uint64_t swap_errors_ = 0, verify_mismatches_ = 0, board_timed_starts_ = 0;
  // Boundaries the kernel says a trigger resolved, to be seen by the
  // reference (from the edges) once they are past; those that are not are
  // trigger_errors.
  std::deque<uint64_t> triggered_;
  uint64_t timed_triggers_ = 0, trigger_errors_ = 0;
  enum class Latched { kNone, kImmediate, kTimed } latched_ = Latched::kNone;  // as the kernel keeps it
  nlohmann::json swaps_ = nlohmann::json::array();
  std::vector<std::string> rejections_;
};

}  // namespace lightrail::sim
