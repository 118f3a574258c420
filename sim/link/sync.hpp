// Clock distribution in the co-simulation: every board's oscillator and the
// fibres between boards (sim/clock), the hls/ servo kernel on every
// follower, the two-way exchange and DDMTD phase it measures, and the truth:
// each board's PPS edge against the grandmaster's, in fs of simulated time.
//
// Every link end is a board's timing-link port (hw/sync_port.sv, one model
// each: sim/board/port_model.hpp): its DDMTD's helper clock (the board's
// oscillator times N/(N+1)) samples the recovered clock and the board's own,
// and with the link at word level (SyncOptions::link "rtl", the default)
// its message engine's words travel the fibre model to the other end. The
// servo is the kernel's free-running HLS top
// (hls/clock_sync/clock_sync_top.hpp), one call per cycle on the top's
// sync_* ports; its DAC word and phase steps go through the top's osc_ctrl
// (hw/osc_ctrl.sv) to a DAC and MMCM model (osc_pins.hpp) that steer the
// oscillator. In the fast mode (link "model") the exchange is modelled
// instead (docs/cosim.md): the timestamps are the board time at the
// message's true arrival, on the system clock (PTP-only baseline) or
// refined to the DDMTD resolution.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "board/link_port.hpp"
#include "clock/fibre.hpp"
#include "clock/impairment_profile.hpp"
#include "clock/oscillator.hpp"
#include "clock_sync/clock_sync.hpp"
#include "clock_sync/clock_sync_top.hpp"
#include "link/edge_history.hpp"
#include "link/partition.hpp"

namespace lightrail::sim {

// Where a board's servo kernel meets the board top: the kernel
// (hls/clock_sync/clock_sync_top.hpp) runs free, one call per clk_i cycle,
// on the top's sync_* outputs, and drives its sync_* inputs, as on the
// board. The exchange's inputs (link, parent flags, t1..t4, bit slide) are
// the fibre model's (SyncEngine) or, with the link at word level, the top's
// message engine (docs/cosim.md).
struct SyncPort {
  virtual ~SyncPort() = default;
  // rst_ni is low: the kernel (ap_rst_n) is held in reset with the top.
  virtual bool in_reset() const = 0;
  // The top's sync_* outputs in this cycle (after its edge).
  virtual sync::top::Inputs kernel_inputs() = 0;
  // The kernel's outputs, onto the top's sync_* inputs for the next edge.
  virtual void drive_kernel(const sync::top::Outputs& out) = 0;
  // What reached the oscillator since the last call through the top's
  // osc_ctrl: a DAC word the DAC took, and MMCM fine steps done (+ delays).
  virtual bool take_dac(uint32_t* word) = 0;
  virtual int take_phase_steps() = 0;
  // The fibre model's link to the board's reference: up (receiver locked)
  // or down (a reference loss), onto the top's link_up_i.
  virtual void set_link_up(bool /*up*/) {}
  // The board's timing-link ports (hw/sync_port.sv): 0 its own link, k its
  // downstream port k once the board has that many (add_down_ports).
  virtual LinkPort& link_port(int k) = 0;
  virtual void add_down_ports(int count) = 0;
};

struct RefLoss {
  int board;  // follower whose reference link goes down
  int64_t at_ps, for_ps;
};

// A change of one follower's link to its parent mid-run: a step of its
// delay, or a step or ramp of its temperature (through the profile's thermal
// coefficient), in one direction or both (docs/cosim.md).
struct LinkChange {
  int board;
  int64_t at_ps;
  bool forward = true, backward = true;
  // "delay_step_ps", "temperature_step_k" or "temperature_ramp_k_per_s";
  // internally also "cdr_relock_slide_ui" (a CdrRelock: value the new
  // slide, step_fs the forward step from the previous one).
  std::string kind;
  double value = 0;
  double step_fs = 0;
  int64_t for_ps = 0;  // a ramp's length
};

// A relock of one follower's link receiver: the link is down for down_ps
// from at_ps, and the receiver locks again with its word boundary on
// another bit (White Rabbit's bitslide), which delays the recovered clock
// and every receive timestamp by slide_ui unit intervals (docs/cosim.md).
struct CdrRelock {
  int board;
  int64_t at_ps, down_ps;
  int slide_ui;  // 0..SYNC_LINK_WORD_BITS-1; the boot lock is at 0 (what calibration saw)
};

struct SyncOptions {
  bool enabled = false;
  // star: every follower on board 0; chain: board k on k-1; tree: breadth
  // first, each board serving as many as its ports take.
  std::string topology = "star";
  clock::ImpairmentProfile profile = clock::reference_profile();
  bool baseline = true;             // PTP-only copies of every follower, in the same run
  bool calibrate_asymmetry = true;  // the fibre asymmetry written to the servo's calibration
  int64_t pps_period_ps = 1000000;
  int64_t measure_from_ps = 2000000000;  // statistics from here on (the 2 ms lock deadline)
  int64_t boot_skew_ps = 40000000;       // every board powers up somewhere within this of t = 0
  // Two-way exchanges per second; 0: one with every servo update (every
  // DDMTD beat, 61,020/s). White Rabbit's PTP runs about 1-16/s.
  double exchange_rate_hz = 0;
  // A boundary clock follows a parent only while the parent's frames say
  // its time is valid (locked once since enable and kept since); off: always.
  bool wait_for_parent_lock = true;
  std::vector<RefLoss> ref_loss;
  std::vector<LinkChange> link_changes;
  std::vector<CdrRelock> cdr_relocks;
  // The receiver's bitslide goes to the servo (rx_bitslide_ui), which counts
  // it as receive delay, as White Rabbit does; off: the servo is never told.
  bool bitslide_compensation = true;
  // What carries the two-way exchange to the servo: "rtl" (the default),
  // the boards' own timing-link ports (hw/sync_port.sv: message engine and
  // DDMTD) at both ends of each link, their words carried over the fibre
  // model to the other end's receiver on the recovered clock; "model", the
  // fast mode, timestamps taken from the fibre model at the messages' true
  // instants, for what the ports cannot run: stars beyond a board's ports
  // (docs/cosim.md, "The timing link").
  std::string link = "rtl";
  // With link "rtl": each bit on the fibre flips with this probability
  // (independently, both directions).
  double bit_error_rate = 0;
  // With link "rtl": each payload word a sender puts on the fibre has one
  // data bit flipped, with this probability (its Manchester pair swapped:
  // a burst the line code cannot see, which only the frame's CRC catches).
  // Only while the receiving end is aligned, so every corrupted frame must
  // show in its SYNC_LINK_BAD_FRAMES.
  double frame_error_rate = 0;
  // A deliberately broken servo, to show the holdover bound can fail: in
  // holdover its DAC word is off the learnt frequency by this much.
  double fault_holdover_ppb = 0;
};

class SyncEngine {
 public:
  // `boards` synchronised boards (0 is the grandmaster) plus, with
  // options.baseline, boards-1 PTP-only followers numbered from `boards`.
  SyncEngine(const SyncOptions& options, int boards);
  ~SyncEngine();
  int total_boards() const { return int(nodes_.size()); }
  bool is_baseline(int b) const { return b >= boards_; }

  // The registers board b's servo takes its settings from and reports to.
  void attach(int b, SyncPort* port);
  // The SYNC_* settings each board is brought up with (written over its bus).
  sync::ClockSyncConfig initial_config(int b) const;
  // SYNC_EXCHANGE_PERIOD every board is brought up with: the reset value
  // (one exchange per DDMTD beat) unless sync.exchange_rate_hz sets it.
  uint32_t exchange_period_cycles() const;

  // The next rising edge of board b's oscillator (fs of simulated time).
  int64_t next_edge_fs(int b);
  // Board b's clock edge at `edge_fs`, after which its counter reads `ticks`.
  void on_edge(int b, int64_t edge_fs, uint64_t ticks);
  // Whether board b runs the DDMTD (a follower that is not a PTP-only
  // copy); its next helper edge; that edge, played onto the board.
  bool has_ddmtd(int b) const;
  // Before board b's clock edge at edge_fs (and before its oscillator is
  // asked for the next one): the edges of its DDMTD helper clock and of its
  // ports' recovered clocks up to that instant, in time order (see play_rx).
  void before_edge(int b, int64_t edge_fs);
  // SYNC_CTRL.REFERENCE for board b's engine (the reference end of its link).
  bool link_reference(int b) const;
  int64_t next_dmtd_edge_fs(int b);
  void on_dmtd_edge(int b, int64_t edge_fs);

  nlohmann::json report() const { return merge_reports({partial_report()}); }
  bool correct() const { return true; }  // judged by the scenario's expectations

  // Partitioned over processes (docs/cosim.md): this process simulates the
  // boards `mine` marks; the others' clocks reach it at window boundaries.
  // Everything a board reads of another is at least `lookahead_fs` old, so a
  // window of that length needs nothing from the window it runs in, and the
  // result does not depend on how the boards are split.
  void partition(const std::vector<bool>& mine);
  int64_t lookahead_fs(int64_t until_fs) const;
  // What this process's boards showed the others during the last window
  // (their clock edges and lock changes, the grandmaster's PPS); then every
  // process's, this one's included, taken in rank order.
  void export_window(Wire& out);
  void import_window(WireReader& in);
  // The report's parts for this process's boards, and the report made from
  // every process's parts.
  nlohmann::json partial_report() const;
  nlohmann::json merge_reports(const std::vector<nlohmann::json>& parts) const;

 private:
  struct Node;
  struct End;
  template <class F>
  void for_each_end(const Node& n, F&& f) const;
  void rx_edge(End& e, int64_t t);
  void play_rx(End& e, int64_t before_fs);
  void servo_cycle(Node& n, int64_t now_fs);
  void exchange_inputs(Node& n, int64_t now_fs, sync::top::Inputs& in);
  void after_update(Node& n, int64_t now_fs);
  bool ref_ok(const Node& n, int64_t now_fs) const;
  void record_pps(int b, uint64_t index, int64_t fs);
  void grandmaster_pps(uint64_t index, int64_t fs);
  void match_pps(Node& n, uint64_t index, int64_t fs);
  uint32_t flags_at(const Node& n, int64_t t_fs) const;  // n's frame flags at t
  void add_link_changes(const clock::FibreConfig& fc, const std::vector<LinkChange>& changes,
                        const std::string& where, const std::vector<double>& compensated_ps);
  void add_cdr_relocks(const clock::FibreConfig& fc);
  int slide_at(const Node& n, int64_t now_fs) const;
  bool rtl_link() const { return opt_.link == "rtl"; }
  void send_words(End& from, int64_t edge_fs);
  void receive_words(End& to, int64_t before_fs);
  void corrupt_frame_word(End& to);
  bool rx_sample(End& e, int64_t t_fs);

  SyncOptions opt_;
  int boards_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<End>> ends_;  // the links' ends at word level (link "rtl")
  // PPS edges waiting for the grandmaster's edge of the same index.
  std::map<uint64_t, int64_t> gm_pps_;
  bool windowed_ = false;                             // partitioned: see partition()
  std::vector<std::pair<uint64_t, int64_t>> gm_out_;  // the grandmaster's PPS, to go out at the window's end
  struct Holdover {
    int board;
    int64_t start_fs, end_fs;
    double offset_at_start_ps = 0;
    bool started = false;
    double max_drift_ps = 0;
    double predicted_ps = 0;
    double frequency_bound_ppb = 0;                  // the frequency error the bound allows at the loss
    bool loss_seen = false, locked_at_loss = false;  // the servo's LOCKED when the link went down
    bool relocked = false;
    double relock_us = -1;
  };
  std::vector<Holdover> holdovers_;
  // What each link change did to its board, judged from the truth.
  struct ChangeRecord {
    LinkChange spec;
    int64_t at_fs, until_fs;  // to the next change of the same board, or the end
    double forward_ps = 0, backward_ps = 0;
    double compensated_ps = 0;  // of the forward change, what the servo is told (a compensated bitslide)
    std::vector<std::pair<int64_t, double>> offsets;  // (fs, ps) from kChangeBeforeFs before the change
    bool seen = false, lock_lost = false;
    double unlocked_at_us = -1, relock_us = -1;  // after the change
    uint32_t errors_before = 0, errors_after = 0;
  };
  std::vector<ChangeRecord> changes_;
  nlohmann::json change_report(const ChangeRecord& c) const;
  nlohmann::json coherence_below(const std::map<int, std::map<uint64_t, double>>& offsets) const;
  int64_t first_event_at_fs_ = INT64_MAX;  // the first declared event (link change, reference loss)
  int64_t first_event_fs_ = INT64_MAX;     // PPS offsets are kept by index from here on
};

}  // namespace lightrail::sim
