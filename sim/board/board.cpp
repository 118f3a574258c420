#include "board/board.hpp"

#include <Vlightrail_board_core.h>
#include <Vlightrail_board_core___024root.h>
#include <fmt/format.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "board/model_clock.hpp"
#include "board/output_digest.hpp"
#include "board/port_fields.hpp"
#include "board/port_mask.hpp"
#include "lightrail/hwdef.hpp"

namespace lightrail::sim {

using namespace hwdef;
using Root = Vlightrail_board_core___024root;

namespace {

bool in_window(uint32_t addr, uint32_t base, uint32_t words) {
  return addr >= base && addr < base + 4 * words;
}

// One 32-bit serializer word per port and cycle; the event and select
// fields in three words (port_fields.hpp).
static_assert(FINE_STEPS == 32, "gate_ser_o is read as one 32-bit word per port");
static_assert(PORTS == port_fields::kPorts, "port_fields.hpp packs 16 ports");
static_assert(PORTS == 16, "port_mask.hpp tests 16 ports");

constexpr uint32_t kBadBank =
    ERROR_BAD_MAGIC_MASK | ERROR_BAD_VERSION_MASK | ERROR_BAD_BOUNDS_MASK | ERROR_BAD_CRC_MASK;
constexpr int kResetCycles = 4;

}  // namespace

PortInputs port_inputs(const Vlightrail_board_core& m) {
  return {m.rst_ni != 0, m.board_ticks_o, m.sync_time_step_load_i != 0,
          m.sync_ctrl_o, m.sync_status_i, m.sync_exchange_period_o};
}

Board::Board(int id, const BoardOptions& options)
    : id_(id),
      opt_(options),
      m_(std::make_unique<Vlightrail_board_core>()),
      st_(std::make_unique<seq::SequencerState>()),
      tune_(TUNE_ENTRIES, 0),
      ref_(std::make_unique<Reference>(tune_, options.margin_ticks, options.packet_ticks)),
      probe_(std::make_unique<Probe>(*ref_, tune_)) {
  if (opt_.kernel_latency > kMaxKernelLatency)
    throw std::invalid_argument("kernel_latency must be 0.." + std::to_string(kMaxKernelLatency));
  m_->board_id_i = uint32_t(id);
  // Its own link's port; its receiver stays in reset unless the run carries
  // the link's words (sim/link/sync.hpp, SyncOptions::link).
  ports_.push_back(PortModel::make(false));
  bank_[0].assign(MEM_BANK0_WORDS, 0);
  bank_[1].assign(MEM_BANK1_WORDS, 0);
  if (!opt_.waveform.empty()) {
    Verilated::traceEverOn(true);
    trace_ = std::make_unique<VerilatedFstC>();
    m_->trace(trace_.get(), 99);
    ports_[0]->trace(trace_.get());
    trace_->open(opt_.waveform.c_str());
  }
}

Board::~Board() {
  if (trace_) trace_->close();
  m_->final();
}

void Board::start_request(BusRequest* r, uint64_t edge_fs) {
  if (r->kind == BusRequest::Kind::kTime || r->kind == BusRequest::Kind::kReport) {
    answered_now_ = true;
    BusRequest::Result res;
    res.data = {uint32_t(now_ticks_), uint32_t(now_ticks_ >> 32)};
    res.sim_fs = edge_fs;
    if (r->kind == BusRequest::Kind::kReport) res.text = figures().dump();
    answer(r, std::move(res));
    return;
  }
  axi_.begin(r);
}

// What the board keeps of a write it accepted: a refused one (a locked bank,
// a locked tune table) changes nothing here either.
void Board::mirror_write(uint32_t a, uint32_t v) {
  if (in_window(a, MEM_TUNE_BASE, MEM_TUNE_WORDS)) {
    tune_[(a - MEM_TUNE_BASE) / 4] = uint16_t(v);
  } else if (in_window(a, MEM_BANK0_BASE, MEM_BANK0_WORDS)) {
    bank_[0][(a - MEM_BANK0_BASE) / 4] = v;
  } else if (in_window(a, MEM_BANK1_BASE, MEM_BANK1_WORDS)) {
    bank_[1][(a - MEM_BANK1_BASE) / 4] = v;
  }
}

void Board::cycle(uint64_t edge_fs, uint64_t period_fs) {
  auto& m = *m_;
  // The power-up reset, then the board resets the run asks for: rst_ni low
  // resets hw/ (board time back to 0) and, as ap_rst_n, the kernel.
  while (next_reset_ < opt_.resets.size() && opt_.resets[next_reset_].at_fs <= edge_fs) {
    const BoardOptions::Reset& r = opt_.resets[next_reset_++];
    if (r.board >= 0 && r.board != id_) continue;
    if (reset_left_ == 0 && cycles_ >= kResetCycles) begin_reset();
    reset_left_ = std::max(reset_left_, r.cycles);
  }
  m.rst_ni = cycles_ >= kResetCycles && reset_left_ == 0;
  if (reset_left_ > 0) --reset_left_;
  // The top's lead of the kernel's time over board time (a constant in
  // hardware, SEQ_KERNEL_LATENCY): this run's kernel latency.
  m.rootp->lightrail_board_core__DOT__kernel_latency = uint8_t(opt_.kernel_latency);

  // The kernel's outputs leaving its pipeline onto the top's inputs: those
  // of the call kernel_latency calls before the last.
  const seq::SequencerOut* leaving = &pipe_[pipe_head_].out;
  if (opt_.fault.port >= 0) {
    faulty_ = *leaving;
    inject_fault(faulty_);
    leaving = &faulty_;
  }
  const seq::SequencerOut& k = *leaving;
  // The bank read ports are not in the delay: the address of the last call,
  // its line back for the next (the kernel's own one-call round trip).
  m.seq_bank0_raddr_i = out_->bank_raddr[0];
  m.seq_bank1_raddr_i = out_->bank_raddr[1];
  m.seq_status_i = k.status;
  m.seq_errors_i = k.errors;
  m.seq_steps_i = k.steps;
  m.seq_missed_i = k.missed;
  m.seq_cur_step_i = k.cur_step;
  m.seq_cur_config_i = k.cur_config;
  m.seq_generation_i = k.generation;
  m.seq_epochs_i = k.epochs;
  m.seq_swaps_i = k.swaps;
  m.seq_last_swap_i = k.last_swap_ticks;
  m.seq_triggered_at_i = k.triggered_at_ticks;
  m.seq_triggers_i = k.triggers;
  m.seq_triggered_step_i = k.triggered_step;
  m.seq_sel_valid_i = k.sel_valid;
  m.seq_fall_valid_i = k.fall_valid;
  m.seq_rise_valid_i = k.rise_valid;
  // Every field of a port with any event, the others 0; a cycle without
  // events after one without leaves the (all-zero) ports as they are.
  const uint32_t any = k.sel_valid | k.fall_valid | k.rise_valid;
  if (any || packed_events_) {
    pack_ports<FINE_BITS>(m.seq_sel_fine_i, any, k.sel_fine);
    pack_ports<WAVELENGTH_BITS>(m.seq_sel_value_i, any, k.sel_value);
    pack_ports<FINE_BITS>(m.seq_fall_fine_i, any, k.fall_fine);
    pack_ports<FINE_BITS>(m.seq_rise_fine_i, any, k.rise_fine);
    packed_events_ = any != 0;
  }

  m.mmcm_psdone_i = osc_pins_.psdone();
  // The model's MMCM locks with the reset's release (the wrapper holds reset
  // until its MMCM locks); the link is the fibre model's.
  m.mmcm_locked_i = m.rst_ni;
  m.link_up_i = link_up_;

  axi_.drive(m);
  // The low phase is evaluated when something looks at it: the bus master
  // samples the slave's ready and valid pins (combinational from its inputs)
  // before the edge, and a waveform shows it. Otherwise the model is only
  // told that clk_i was low, and the edge's evaluation settles the same
  // inputs (about a fifth of the model's instructions spared). The first
  // cycle's low phase is the model's first evaluation (model_clock.hpp).
  if (trace_ || axi_.pins_active() || cycles_ == 0 || !model_clock::Clocks<Root>::clk_low(*m.rootp)) {
    m.clk_i = 0;
    m.eval();
    // Both clock phases, in ps: the low phase half a period before the edge.
    if (trace_ && edge_fs >= period_fs / 2) trace_->dump((edge_fs - period_fs / 2) / 1000);
  }
  axi_.sample(m);
  // What the core holds for its ports' edge: registers and inputs, so the
  // same before and after its own.
  const PortInputs port_in = port_inputs(m);
  // The top's register of the downstream ports' bad frames takes their sum
  // from before the edge.
  uint32_t down_bad_frames = 0;
  for (size_t k = 1; k < ports_.size(); ++k) down_bad_frames += ports_[k]->outputs().bad_frames;
  m.clk_i = 1;
  m.eval();
  // The ports' edge, then what they show onto the core's link_* and down_*
  // inputs: its flops took the values from before the edge, its
  // combinational outputs (SYNC_LINK, sync_link_up, the servo's DDMTD phase)
  // follow the new ones.
  for (auto& p : ports_) p->edge(port_in);
  uint32_t down_aligned = 0;
  for (size_t k = 1; k < ports_.size(); ++k)
    down_aligned |= uint32_t(ports_[k]->outputs().aligned) << (k - 1);
  // One settling of the core for whatever of them changed.
  bool changed = false;
  if (ports_.size() > 1 && (down_aligned != m.down_aligned_i || down_bad_frames != m.down_bad_frames_i)) {
    m.down_aligned_i = uint8_t(down_aligned);
    m.down_bad_frames_i = down_bad_frames;
    changed = true;
  }
  const PortOutputs own = ports_[0]->outputs();
  if (!(own == shown_)) {
    changed = true;
    shown_ = own;
    m.link_phase_valid_i = own.phase_valid;
    m.link_phase_i = uint16_t(own.phase);
    m.link_aligned_i = own.aligned;
    m.link_bitslide_i = uint8_t(own.bitslide);
    m.link_parent_flags_i = uint8_t(own.parent_flags);
    m.link_bad_frames_i = own.bad_frames;
  }
  if (changed) m.eval();
  uint32_t wr_addr = 0, wr_data = 0;
  if (axi_.accepted_write(&wr_addr, &wr_data)) mirror_write(wr_addr, wr_data);
  if (trace_) trace_->dump(edge_fs / 1000);
  ++cycles_;
  osc_pins_.cycle(m.dac_sclk_o, m.dac_sync_no, m.dac_din_o, m.mmcm_psen_o, m.mmcm_psincdec_o);

  // A request is taken no sooner than the cycle after the last one was
  // answered, however fast the host sends it: runs stay deterministic.
  const bool answered = axi_.advance(edge_fs) != nullptr || answered_now_;
  answered_now_ = false;
  if (m.rst_ni && !axi_.busy() && !answered)
    if (BusRequest* r = bus_.pop()) start_request(r, edge_fs);

  // The top's outputs to the kernel, then one kernel cycle. Board time is
  // the top's own; the kernel's runs kernel_latency cycles ahead of it.
  now_ticks_ = m.board_ticks_o;
  in_.now_ticks = m.seq_now_ticks_o;
  in_.commit = m.seq_commit_o;
  in_.commit_at_time = m.seq_commit_at_time_o;
  in_.commit_ticks = m.seq_commit_ticks_o;
  in_.commit_crc = m.seq_commit_crc_o;
  in_.cancel = m.seq_cancel_o;
  in_.trigger = m.seq_trigger_o;
  in_.trigger_at = m.seq_trigger_at_o;
  in_.trigger_ticks = m.seq_trigger_ticks_o;
  in_.trigger_jump = m.seq_trigger_jump_o;
  in_.trigger_step = m.seq_trigger_step_o;
  in_.stop = m.seq_stop_o;
  const bool stop = m.rst_ni && in_.stop;
  if (stop) {
    pending_.reset();  // the kernel drops a pending commit
    if (opt_.fault.ignore_stop) in_.stop = false;
  }
  in_.clear_errors = m.seq_clear_errors_o;
  for (unsigned w = 0; w < BANK_LINE_WORDS; ++w) {
    in_.bank_rdata[0][w] = m.seq_bank0_rdata_o[w];
    in_.bank_rdata[1][w] = m.seq_bank1_rdata_o[w];
  }
  in_.tune_we = m.seq_tune_we_o;
  in_.tune_addr = m.seq_tune_addr_o;
  in_.tune_wdata = m.seq_tune_wdata_o;
  // The kernel writes its outputs straight into the pipeline (it writes
  // every field each call), with the STOP's output window: the kernel's
  // window, in its own time, is board time when the outputs reach the board.
  Piped& slot = pipe_[pipe_head_];
  if (m.rst_ni) {
    const KernelCounts before{out_->status, out_->errors, out_->triggers, out_->swaps};
    const bool jump_latched = st_->trigger_latched && st_->trigger_jump;
    seq::sequencer_step(*st_, in_, slot.out);
    out_ = &slot.out;
    watch_kernel(before, jump_latched);
  } else {
    seq::sequencer_reset(*st_);  // ap_rst_n: held in reset, outputs idle
    slot.out = seq::SequencerOut{};
    out_ = &slot.out;
  }
  slot.stop = stop;
  slot.stop_window = in_.now_ticks + uint64_t{OUTPUT_LATENCY_CYCLES} * FINE_STEPS;
  if (++pipe_head_ > size_t(opt_.kernel_latency)) pipe_head_ = 0;  // a ring of kernel_latency + 1

  if (m.rst_ni) {
    uint32_t gate[PORTS];
    uint8_t fine[PORTS], value[PORTS];
    const uint32_t stb = m.sel_stb_o;
    for (unsigned p = 0; p < PORTS; ++p) gate[p] = m.gate_ser_o[p * FINE_STEPS / 32];
    if (stb) {
      unpack_ports<FINE_BITS>(m.sel_fine_o, fine);
      unpack_ports<WAVELENGTH_BITS>(m.sel_o, value);
    }
    // The digest first: its multiplies then run beside the probe's work,
    // which does not depend on them.
    digest_outputs(gate, stb, fine, value);
    probe_->observe_cycle(now_ticks_, edge_fs, period_fs / FINE_STEPS, gate, stb, fine, value);
    // The kernel stops at its next boundary. The reference is told when the
    // outputs of the call that took the STOP are the next to leave the
    // kernel's pipeline: after the edges emitted before it are seen (one of
    // them may be the first edge of a triggered boundary the reference was
    // still waiting for), at the window those outputs are for. A boundary
    // the edges just placed must be generated before the STOP looks for the
    // first one at or after its window.
    const Piped& next = pipe_[pipe_head_];
    if (next.stop) {
      ref_->generate_until(now_ticks_ + FINE_STEPS);
      ref_->stop(next.stop_window);
    }
    ref_->generate_until(now_ticks_ + 2 * FINE_STEPS);
    if (ref_->waiting_event() && ref_->event_due_tick() != jump_told_ && !jump_steps_.empty()) {
      ref_->jump(jump_steps_.front());
      jump_steps_.pop_front();
      jump_told_ = ref_->event_due_tick();
    }
    for (uint64_t t : ref_->take_event_starts()) probe_->watch_boundary(t, Probe::Watch::kEventStart);
    // A timed trigger ends the event step at the time the kernel names; the
    // reference resumes there if it still waits. A boundary that changes no
    // port, followed by another event step before any port changes (a
    // middle switch keeping its configuration over a phase), shows in no
    // edge it could resume from. The edges after it judge what the board
    // did, and trigger_errors whether the kernel's time is a boundary.
    while (ref_->waiting_event() && !trigger_resumes_.empty()) {
      const uint64_t t = trigger_resumes_.front();
      trigger_resumes_.pop_front();
      if (t >= ref_->event_due_tick()) ref_->resume_at(t);  // earlier: an event step already resumed
    }
    // A triggered boundary is judged by the probes from its edges; the
    // reference must then hold a boundary exactly where the kernel said,
    // once it has resumed past it (a boundary that changes no port shows
    // only in the edges of a later one).
    while (!triggered_.empty() && triggered_.front() + 4 * FINE_STEPS < now_ticks_ &&
           ref_->resolved_through(triggered_.front())) {
      ++timed_triggers_;
      if (!ref_->is_boundary(triggered_.front(), nullptr)) ++trigger_errors_;
      triggered_.pop_front();
    }
    if (cycles_ % Probe::kSettleEveryCycles == 0) probe_->settle(now_ticks_);  // matching waits anyway
  }
}

sync::top::Inputs Board::kernel_inputs() {
  const auto& m = *m_;
  sync::top::Inputs i;
  i.ctrl = m.sync_ctrl_o;
  i.cal_delay_ms_ps = m.sync_cal_delay_ms_ps_o;
  i.cal_delay_sm_ps = m.sync_cal_delay_sm_ps_o;
  i.cal_asym_ps = m.sync_cal_asym_ps_o;
  i.kp = m.sync_kp_o;
  i.ki = m.sync_ki_o;
  i.lock_thresh_ps = m.sync_lock_thresh_ps_o;
  i.lock_samples = m.sync_lock_samples_o;
  i.slew_max_ns_per_s = m.sync_slew_max_ns_per_s_o;
  i.dac_pull_ppb = m.sync_dac_pull_ppb_o;
  i.phase_step_fs = m.sync_phase_step_fs_o;
  i.clear_errors = m.sync_clear_errors_o;
  i.phase_valid = m.sync_phase_valid_o;
  i.ddmtd_phase = m.sync_ddmtd_phase_o;
  i.link_up = m.sync_link_up_o;
  const PortOutputs own = ports_[0]->outputs();
  const PortExchange x = ports_[0]->exchange();
  i.parent_flags = own.parent_flags;
  i.cycles = m.sync_cycles_o;
  i.exchanges = x.exchanges;
  i.t1_fs = x.t1_fs;
  i.t2_fs = x.t2_fs;
  i.t3_fs = x.t3_fs;
  i.t4_fs = x.t4_fs;
  i.rx_bitslide = own.bitslide;
  i.exchange_fine = x.fine;
  return i;
}

bool Board::in_reset() const { return !m_->rst_ni; }

void Board::add_down_ports(int count) {
  while (int(ports_.size()) < count + 1) ports_.push_back(PortModel::make(true));
}

void Board::drive_kernel(const sync::top::Outputs& k) {
  auto& m = *m_;
  const sync::ClockSyncOut& o = k.shown;
  m.sync_status_i = o.status;
  m.sync_error_i = o.errors;
  m.sync_offset_ps_i = uint32_t(o.offset_ps);
  m.sync_rtt_ps_i = o.rtt_ps;
  m.sync_delay_ms_ps_i = o.delay_ms_ps;
  m.sync_servo_p_ps_i = uint32_t(o.servo_p_ps);
  m.sync_servo_i_ppt_i = uint32_t(o.servo_i_ppt);
  m.sync_dac_i = o.dac_word;
  m.sync_phase_steps_i = uint32_t(o.phase_steps_total);
  m.sync_holdover_us_i = o.holdover_us;
  m.sync_busy_i = k.busy;
  m.sync_dac_word_i = uint16_t(o.dac_word);
  m.sync_dac_load_i = k.dac_load;
  m.sync_phase_steps_req_i = uint32_t(o.phase_steps);
  m.sync_phase_load_i = k.phase_load;
  m.sync_time_step_i = uint64_t(o.time_step_ticks);
  m.sync_time_step_load_i = k.time_step_load;
}

// A board reset starts (rst_ni falls before the next edge): the outputs go
// idle from the cycle after the last one observed. What the board did up to
// there is judged by the probes of that run, against a reference cut at the
// same tick; a fresh reference and probes judge what it does after (board
// time starts again at 0). The kernel, its pipeline and the harness's view
// of it start again too; the RAMs (banks, tune table) and their mirrors keep
// their contents.
void Board::begin_reset() {
  ++resets_;
  axi_.reset_bus("board reset");
  ref_->cut(now_ticks_ + FINE_STEPS);
  probe_->settle(std::numeric_limits<uint64_t>::max());
  probe_->flush();  // settle() may only note the horizon: everything is judged before the probes go
  unjudged_at_reset_ += probe_->unjudged();
  past_.probe = figures_total();
  past_.stops += ref_->stops;
  past_.stops_mid_retune += ref_->stops_mid_retune;
  past_.board_timed_boundaries += ref_->board_timed_boundaries;
  past_.event_rule_errors += ref_->event_rule_errors;
  past_.watched = watched_boundaries();
  past_.traces_dropped = edge_traces_dropped();
  past_.traces = edge_traces();
  probe_.reset();
  ref_ = std::make_unique<Reference>(tune_, opt_.margin_ticks, opt_.packet_ticks);
  probe_ = std::make_unique<Probe>(*ref_, tune_);
  if (record_boundaries_) probe_->record_boundaries();

  seq::sequencer_reset(*st_);
  in_ = seq::SequencerIn{};
  pipe_.fill(Piped{});
  pipe_head_ = 0;
  out_ = &pipe_[0].out;
  pending_.reset();
  triggered_.clear();
  jump_steps_.clear();
  jump_told_ = UINT64_MAX;
  latched_ = Latched::kNone;
  commit_at_time_ = false;
  commit_ticks_ = 0;
  last_gate_.fill(0);
}

// This run's probe figures with those of the runs before the last reset.
ProbeFigures Board::figures_total() const {
  ProbeFigures t = past_.probe;
  const ProbeFigures& f = probe_->figures();
  t.switch_events += f.switch_events;
  t.gate_edges += f.gate_edges;
  t.missed_events += f.missed_events;
  t.unexpected_events += f.unexpected_events;
  t.late_boundaries += f.late_boundaries;
  t.timing_error_fs_max = std::max(t.timing_error_fs_max, f.timing_error_fs_max);
  t.packets_sent += f.packets_sent;
  t.packets_delivered += f.packets_delivered;
  t.misdelivered_packets += f.misdelivered_packets;
  t.dark_violations += f.dark_violations;
  return t;
}

void Board::inject_fault(seq::SequencerOut& out) {
  const int p = opt_.fault.port;
  if (out.fall_valid >> p & 1u)
    out.fall_fine[p] = uint8_t(std::min<int>(FINE_STEPS - 1, out.fall_fine[p] + opt_.fault.fall_shift_ticks));
  if ((out.sel_valid >> p & 1u) && opt_.fault.drop_every_sel && ++sel_seen_ % opt_.fault.drop_every_sel == 0)
    out.sel_valid &= ~(1u << p);
}

// Every change at the board outputs (sim/board/output_digest.hpp): a gate word
// that changed (port, 32-bit word), a wavelength strobe (port, fine, value,
// marked apart from a gate by bit 63). Every change of a cycle is at the
// same tick (digest::at once per cycle), and the changed gate words are
// found for all ports at once.
void Board::digest_outputs(const uint32_t* gate, uint32_t stb, const uint8_t* fine, const uint8_t* value) {
  uint32_t diff[PORTS];
  for (unsigned p = 0; p < PORTS; ++p) diff[p] = gate[p] ^ last_gate_[p];
  const uint32_t changed = nonzero_ports16(diff);
  if (!(changed | stb)) return;
  const uint64_t tick = digest::at(now_ticks_);
  uint64_t h = 0, n = 0;  // counted here: __builtin_popcount is a library call without -mpopcnt
  for (uint32_t c = changed; c; c &= c - 1, ++n) {
    const unsigned p = unsigned(__builtin_ctz(c));
    h += digest::term_at(tick, p | uint64_t{gate[p]} << 8);
  }
  for (uint32_t s = stb; s; s &= s - 1, ++n) {
    const unsigned p = unsigned(__builtin_ctz(s));
    h += digest::term_at(tick, p | uint64_t{fine[p]} << 8 | uint64_t{value[p]} << 16 | uint64_t{1} << 63);
  }
  std::memcpy(last_gate_.data(), gate, sizeof last_gate_);
  output_changes_ += n;
  output_digest_ += h;
}

void Board::watch_kernel(const KernelCounts& before, bool jump_latched) {
  const unsigned inactive = (out_->status & STATUS_ACTIVE_BANK_MASK) ? 0 : 1;
  const uint32_t new_errors = out_->errors & ~before.errors;
  if (new_errors & kBadBank) {
    const DecodedImage img = decode_image(bank_[inactive]);
    rejections_.push_back(img.valid ? "rejected a valid bank" : img.problem);
    if (img.valid) ++verify_mismatches_;
  }
  // The commit's time as the kernel took it, when it began to verify.
  if ((out_->status & STATUS_VERIFY_BUSY_MASK) && !(before.status & STATUS_VERIFY_BUSY_MASK)) {
    commit_at_time_ = in_.commit_at_time;
    commit_ticks_ = in_.commit_ticks;
  }
  if ((out_->status & STATUS_COMMIT_PENDING_MASK) && !(before.status & STATUS_COMMIT_PENDING_MASK)) {
    pending_ = std::make_shared<DecodedImage>(decode_image(bank_[inactive]));
    pending_since_ = now_ticks_;
  }
  // Timed triggers only (an immediate one latched with them wins, as in the
  // kernel): their boundary is the named time; the others are the board's.
  if (out_->triggers != before.triggers) {
    // One entry per trigger, so each meets its own event step; a plain one
    // (UINT32_MAX) leaves the reference's next step as it is.
    jump_steps_.push_back(jump_latched ? out_->triggered_step : UINT32_MAX);
    if (latched_ == Latched::kTimed) {
      triggered_.push_back(out_->triggered_at_ticks);
      trigger_resumes_.push_back(out_->triggered_at_ticks);
      probe_->watch_boundary(out_->triggered_at_ticks, Probe::Watch::kTrigger);
    }
    latched_ = Latched::kNone;
  }
  if (in_.trigger) latched_ = Latched::kImmediate;
  if (in_.trigger_at && latched_ != Latched::kImmediate) latched_ = Latched::kTimed;
  if (out_->swaps != before.swaps) {
    on_swap();
  } else if ((before.status & STATUS_COMMIT_PENDING_MASK) && !(out_->status & STATUS_COMMIT_PENDING_MASK)) {
    pending_.reset();  // dropped without a swap: CANCEL or STOP
  }
}

void Board::on_swap() {
  const unsigned active = (out_->status & STATUS_ACTIVE_BANK_MASK) ? 1 : 0;
  auto image = pending_ ? pending_ : std::make_shared<DecodedImage>(decode_image(bank_[active]));
  pending_.reset();
  const uint64_t at = out_->last_swap_ticks;
  // The kernel takes a boundary kernel_latency cycles before board time
  // reaches it: the reference must have made it.
  ref_->generate_until(in_.now_ticks + 2 * FINE_STEPS);
  std::string rule;
  uint64_t expected = at;
  // Judged on the model as it stood at `at`: it may have generated a
  // boundary or two beyond it (a one-shot's end, say).
  bool epoch_end = false;
  const bool at_boundary = ref_->is_boundary(at, &epoch_end);
  if (!image->valid) {
    ++verify_mismatches_;  // the kernel activated a bank that fails its checks
    rule = "invalid bank activated: " + image->problem;
  } else if (!ref_->running() && !at_boundary) {
    if (commit_at_time_) {
      expected = commit_ticks_;
      rule = "idle, at time";
    } else {
      ++board_timed_starts_;  // "at once": the kernel's own prefetch lead decides
      rule = "idle, at once";
    }
  } else if (commit_at_time_) {
    expected = ref_->first_boundary_at_or_after(commit_ticks_, false);
    rule = "first boundary at or after the commit time";
  } else {
    if (!at_boundary || !epoch_end) expected = ~0ull;
    rule = "epoch boundary";
  }
  const bool ok = image->valid && expected == at;
  if (!ok) ++swap_errors_;
  probe_->trace_window(at, Probe::TraceKind::kSwap);
  swaps_.push_back({{"at_ps", int64_t(at * TICK_PS)},
                    {"generation", image->generation},
                    {"rule", rule},
                    {"ok", ok},
                    {"expected_ps", expected == ~0ull ? nlohmann::json(nullptr)
                                                      : nlohmann::json(int64_t(expected * TICK_PS))}});
  if (image->valid) {
    ref_->start(image, at);
  }
}

void Board::fail_pending(const std::string& why) {
  axi_.abort(why);
  while (BusRequest* r = bus_.pop()) {
    BusRequest::Result res;
    res.ok = false;
    res.error = why;
    answer(r, std::move(res));
  }
}

nlohmann::json Board::figures() const {
  const ProbeFigures f = figures_total();
  return {{"board", id_},
          {"cycles", cycles_},
          {"kernel_latency", opt_.kernel_latency},
          {"board_resets", resets_},
          {"output_changes", output_changes_},
          {"output_digest", fmt::format("{:016x}", output_digest_)},
          {"switch_events", f.switch_events},
          {"gate_edges", f.gate_edges},
          {"timing_error_ps_max", double(f.timing_error_fs_max) / 1000.0},
          {"missed_steps", f.late_boundaries},  // each late boundary once; the kernel's own count beside it
          {"missed_events", f.missed_events},
          {"unexpected_events", f.unexpected_events},
          {"kernel_missed_deadlines", out_->missed},
          {"packets_sent", f.packets_sent},
          {"packets_delivered", f.packets_delivered},
          {"misdelivered_packets", f.misdelivered_packets},
          {"dark_violations", f.dark_violations},
          {"swap_errors", swap_errors_},
          {"unjudged_at_reset", unjudged_at_reset_},
          {"verify_mismatches", verify_mismatches_},
          {"board_timed_starts", board_timed_starts_},
          {"swaps", swaps_},
          {"rejected_banks", rejections_},
          {"steps_executed", out_->steps},
          {"epochs", out_->epochs},
          {"error_flags", out_->errors},
          {"osc_pin_errors", osc_pins_.protocol_errors()},
          {"stops", past_.stops + ref_->stops},
          {"stops_mid_retune", past_.stops_mid_retune + ref_->stops_mid_retune},
          {"board_timed_boundaries", past_.board_timed_boundaries + ref_->board_timed_boundaries},
          {"event_rule_errors", past_.event_rule_errors + ref_->event_rule_errors},
          {"triggers_checked", timed_triggers_},
          {"trigger_errors", trigger_errors_},
          {"watched_boundaries", watched_boundaries()},
          {"edge_traces", edge_traces()},
          {"edge_traces_dropped", edge_traces_dropped()}};
}

// Each traced window (a swap, a boundary into an event step): board times
// in ps from its boundary, each port's wavelength and gate (1: light passes)
// at the window's start, then every edge as [ps, port, "wavelength" |
// "gate", new value].
// The runs before a board reset come first, each trace in its run's board
// time; the first Probe::kTraces of all the runs are kept.
nlohmann::json Board::edge_traces() const {
  nlohmann::json out = past_.traces;
  for (const Probe::EdgeTrace& t : probe_->traces()) {
    if (out.size() >= Probe::kTraces) break;
    const auto rel = [&](int64_t tick) { return (tick - int64_t(t.at_tick)) * int64_t(TICK_PS); };
    nlohmann::json start = nlohmann::json::array(), edges = nlohmann::json::array();
    for (size_t p = 0; p < PORTS; ++p) start.push_back({t.select[p], t.gate[p]});
    // In time order: one cycle's edges come port by port.
    std::vector<Probe::TraceEdge> sorted = t.edges;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Probe::TraceEdge& a, const Probe::TraceEdge& b) { return a.tick < b.tick; });
    for (const Probe::TraceEdge& e : sorted)
      edges.push_back({rel(e.tick), e.port, e.kind == kSel ? "wavelength" : "gate", e.value});
    out.push_back({{"kind", t.kind == Probe::TraceKind::kSwap ? "swap" : "event_start"},
                   {"at_ps", int64_t(t.at_tick) * int64_t(TICK_PS)},
                   {"from_ps", rel(int64_t(t.from_tick))},
                   {"until_ps", rel(int64_t(t.until_tick))},
                   {"start_wavelength_gate", start},
                   {"edges", edges},
                   {"edges_dropped", t.edges_dropped}});
  }
  return out;
}

// Every watched boundary: the board time it was due, whether a timed
// trigger ended an event step there (else it starts one), the board and the
// simulated time of its first gate fall and last rise, and the simulated
// time of its first wavelength change (null when the boundary had none).
uint64_t Board::edge_traces_dropped() const {
  const size_t kept = std::min(probe_->traces().size(), Probe::kTraces - past_.traces.size());
  return past_.traces_dropped + probe_->traces_dropped() + (probe_->traces().size() - kept);
}

nlohmann::json Board::watched_boundaries() const {
  nlohmann::json out = past_.watched;
  auto ps = [](int64_t fs) { return fs < 0 ? nlohmann::json(nullptr) : nlohmann::json(double(fs) / 1000.0); };
  auto board_ps = [](int64_t t) {
    return t < 0 ? nlohmann::json(nullptr) : nlohmann::json(t * hwdef::TICK_PS);
  };
  for (const auto& [tick, e] : probe_->watched()) {
    out.push_back({{"board_ps", int64_t(tick) * hwdef::TICK_PS},
                   {"kind", e.trigger ? "trigger" : "event_start"},
                   {"dark_from_board_ps", board_ps(e.fall_tick)},
                   {"dark_until_board_ps", board_ps(e.rise_tick)},
                   {"switch_sim_ps", ps(e.sel_fs)},
                   {"dark_from_sim_ps", ps(e.fall_fs)},
                   {"dark_until_sim_ps", ps(e.rise_fs)}});
  }
  return out;
}

bool Board::correct() const {
  const ProbeFigures f = figures_total();
  return f.missed_events == 0 && f.unexpected_events == 0 && f.misdelivered_packets == 0 &&
         f.dark_violations == 0 && out_->missed == 0 && swap_errors_ == 0 && verify_mismatches_ == 0 &&
         unjudged_at_reset_ == 0 && past_.event_rule_errors + ref_->event_rule_errors == 0 &&
         trigger_errors_ == 0 && osc_pins_.protocol_errors() == 0 &&
         f.timing_error_fs_max <= int64_t(TICK_PS) * 1000;
}

}  // namespace lightrail::sim
