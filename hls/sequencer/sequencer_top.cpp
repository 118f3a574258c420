// Vitis HLS top of the sequencer (ports: sequencer_top.hpp): unpacks the
// board top's packed words into SequencerIn, runs one cycle of the C model
// and packs SequencerOut back. g++ ignores the pragmas; the co-simulation
// and tests/hls call sequencer_step() on their own SequencerState, and the
// C-simulation test bench (tests/hls/sequencer_top_tb.cpp) calls this.
#include "sequencer/sequencer_top.hpp"

#include "sequencer/sequencer.hpp"

using namespace lightrail::seq;
using namespace lightrail::seq::top;

#ifndef __SYNTHESIS__
namespace {
bool csim_reset_pending = false;
}
void lightrail_sequencer_csim_reset() { csim_reset_pending = true; }
#endif

void lightrail_sequencer(ap_uint<64> seq_now_ticks, ap_uint<1> seq_commit, ap_uint<1> seq_cancel,
                         ap_uint<32> seq_commit_crc, ap_uint<1> seq_commit_at_time,
                         ap_uint<64> seq_commit_ticks, ap_uint<1> seq_trigger, ap_uint<1> seq_trigger_at,
                         ap_uint<64> seq_trigger_ticks, ap_uint<1> seq_trigger_jump,
                         ap_uint<32> seq_trigger_step, ap_uint<1> seq_stop, ap_uint<32> seq_clear_errors,
                         ap_uint<kBankAddrBits>& seq_bank0_raddr, ap_uint<kLineBits> seq_bank0_rdata,
                         ap_uint<kBankAddrBits>& seq_bank1_raddr, ap_uint<kLineBits> seq_bank1_rdata,
                         ap_uint<1> seq_tune_we, ap_uint<kTuneAddrBits> seq_tune_addr,
                         ap_uint<16> seq_tune_wdata, ap_uint<32>& seq_status, ap_uint<32>& seq_errors,
                         ap_uint<64>& seq_steps, ap_uint<32>& seq_missed, ap_uint<32>& seq_cur_step,
                         ap_uint<32>& seq_cur_config, ap_uint<32>& seq_generation, ap_uint<32>& seq_epochs,
                         ap_uint<32>& seq_swaps, ap_uint<64>& seq_last_swap, ap_uint<64>& seq_triggered_at,
                         ap_uint<32>& seq_triggers, ap_uint<32>& seq_triggered_step,
                         ap_uint<kPorts>& seq_sel_valid, ap_uint<kPorts * kFineBits>& seq_sel_fine,
                         ap_uint<kPorts * kWlBits>& seq_sel_value, ap_uint<kPorts>& seq_fall_valid,
                         ap_uint<kPorts * kFineBits>& seq_fall_fine, ap_uint<kPorts>& seq_rise_valid,
                         ap_uint<kPorts * kFineBits>& seq_rise_fine) {
#pragma HLS TOP name = lightrail_sequencer
  // Free-running: no start/done. Every argument is a plain wire (a scalar
  // packed word, never an array), so the RTL ports are exactly these.
#pragma HLS INTERFACE mode = ap_ctrl_none port = return
#pragma HLS INTERFACE mode = ap_none port = seq_now_ticks
#pragma HLS INTERFACE mode = ap_none port = seq_commit
#pragma HLS INTERFACE mode = ap_none port = seq_cancel
#pragma HLS INTERFACE mode = ap_none port = seq_commit_crc
#pragma HLS INTERFACE mode = ap_none port = seq_commit_at_time
#pragma HLS INTERFACE mode = ap_none port = seq_commit_ticks
#pragma HLS INTERFACE mode = ap_none port = seq_trigger
#pragma HLS INTERFACE mode = ap_none port = seq_trigger_at
#pragma HLS INTERFACE mode = ap_none port = seq_trigger_ticks
#pragma HLS INTERFACE mode = ap_none port = seq_trigger_jump
#pragma HLS INTERFACE mode = ap_none port = seq_trigger_step
#pragma HLS INTERFACE mode = ap_none port = seq_stop
#pragma HLS INTERFACE mode = ap_none port = seq_clear_errors
#pragma HLS INTERFACE mode = ap_none port = seq_bank0_raddr
#pragma HLS INTERFACE mode = ap_none port = seq_bank0_rdata
#pragma HLS INTERFACE mode = ap_none port = seq_bank1_raddr
#pragma HLS INTERFACE mode = ap_none port = seq_bank1_rdata
#pragma HLS INTERFACE mode = ap_none port = seq_tune_we
#pragma HLS INTERFACE mode = ap_none port = seq_tune_addr
#pragma HLS INTERFACE mode = ap_none port = seq_tune_wdata
#pragma HLS INTERFACE mode = ap_none port = seq_status
#pragma HLS INTERFACE mode = ap_none port = seq_errors
#pragma HLS INTERFACE mode = ap_none port = seq_steps
#pragma HLS INTERFACE mode = ap_none port = seq_missed
#pragma HLS INTERFACE mode = ap_none port = seq_cur_step
#pragma HLS INTERFACE mode = ap_none port = seq_cur_config
#pragma HLS INTERFACE mode = ap_none port = seq_generation
#pragma HLS INTERFACE mode = ap_none port = seq_epochs
#pragma HLS INTERFACE mode = ap_none port = seq_swaps
#pragma HLS INTERFACE mode = ap_none port = seq_last_swap
#pragma HLS INTERFACE mode = ap_none port = seq_triggered_at
#pragma HLS INTERFACE mode = ap_none port = seq_triggers
#pragma HLS INTERFACE mode = ap_none port = seq_triggered_step
#pragma HLS INTERFACE mode = ap_none port = seq_sel_valid
#pragma HLS INTERFACE mode = ap_none port = seq_sel_fine
#pragma HLS INTERFACE mode = ap_none port = seq_sel_value
#pragma HLS INTERFACE mode = ap_none port = seq_fall_valid
#pragma HLS INTERFACE mode = ap_none port = seq_fall_fine
#pragma HLS INTERFACE mode = ap_none port = seq_rise_valid
#pragma HLS INTERFACE mode = ap_none port = seq_rise_fine
  // One cycle per call at 4 ns, and exactly SEQ_KERNEL_LATENCY cycles from
  // the inputs to the outputs: hw/ tells the kernel a time that far ahead
  // (docs/sequencer.md, "Latency"). run_hls.tcl fails the build if the
  // schedule reports anything else.
  const int latency = int(lightrail::hwdef::SEQ_KERNEL_LATENCY);
  (void)latency;  // read by the LATENCY pragma only
#pragma HLS PIPELINE II = 1
#pragma HLS LATENCY min = latency max = latency

  static SequencerState state;
  // The tune table is block RAM (one copy per lookup lane, each a simple
  // dual-port RAM): it keeps its contents over a reset, as the bank RAMs do,
  // and the host writes it before a commit. Everything else is registers,
  // reset by ap_rst_n.
#pragma HLS ARRAY_PARTITION variable = state.tune dim = 1 type = complete
#pragma HLS BIND_STORAGE variable = state.tune type = ram_s2p impl = bram
#pragma HLS RESET variable = state.tune off
#pragma HLS ARRAY_PARTITION variable = state.plan_sel type = complete
#pragma HLS ARRAY_PARTITION variable = state.cur.tune type = complete
#pragma HLS ARRAY_PARTITION variable = state.cur.sel_value type = complete
#pragma HLS ARRAY_PARTITION variable = state.cur.sel_before type = complete
#pragma HLS ARRAY_PARTITION variable = state.up.tune type = complete
#pragma HLS ARRAY_PARTITION variable = state.up.sel_value type = complete
#pragma HLS ARRAY_PARTITION variable = state.up.sel_before type = complete
#pragma HLS ARRAY_PARTITION variable = state.next.tune type = complete
#pragma HLS ARRAY_PARTITION variable = state.next.sel_value type = complete
#pragma HLS ARRAY_PARTITION variable = state.next.sel_before type = complete
#pragma HLS ARRAY_PARTITION variable = state.staged.tune type = complete
#pragma HLS ARRAY_PARTITION variable = state.staged.sel_value type = complete
#pragma HLS ARRAY_PARTITION variable = state.staged.sel_before type = complete
#pragma HLS ARRAY_PARTITION variable = state.fetch.tune type = complete
#pragma HLS ARRAY_PARTITION variable = state.fetch.config_words type = complete

#ifndef __SYNTHESIS__
  if (csim_reset_pending) {
    sequencer_reset(state);
    csim_reset_pending = false;
  }
#endif

  SequencerIn in;
  in.now_ticks = seq_now_ticks.to_uint64();
  in.commit = seq_commit.to_uint64() != 0;
  in.cancel = seq_cancel.to_uint64() != 0;
  in.commit_crc = uint32_t(seq_commit_crc.to_uint64());
  in.commit_at_time = seq_commit_at_time.to_uint64() != 0;
  in.commit_ticks = seq_commit_ticks.to_uint64();
  in.trigger = seq_trigger.to_uint64() != 0;
  in.trigger_at = seq_trigger_at.to_uint64() != 0;
  in.trigger_ticks = seq_trigger_ticks.to_uint64();
  in.trigger_jump = seq_trigger_jump.to_uint64() != 0;
  in.trigger_step = uint32_t(seq_trigger_step.to_uint64());
  in.stop = seq_stop.to_uint64() != 0;
  in.clear_errors = uint32_t(seq_clear_errors.to_uint64());
  // The line at the address presented last call (bank_ram: registered read).
  for (int w = 0; w < int(BANK_LINE_WORDS); ++w) {
#pragma HLS UNROLL
    in.bank_rdata[0][w] = uint32_t(seq_bank0_rdata.range(32 * w + 31, 32 * w).to_uint64());
    in.bank_rdata[1][w] = uint32_t(seq_bank1_rdata.range(32 * w + 31, 32 * w).to_uint64());
  }
  in.tune_we = seq_tune_we.to_uint64() != 0;
  in.tune_addr = uint16_t(seq_tune_addr.to_uint64());
  in.tune_wdata = uint16_t(seq_tune_wdata.to_uint64());

  SequencerOut out;
  sequencer_step(state, in, out);

  seq_bank0_raddr = out.bank_raddr[0];
  seq_bank1_raddr = out.bank_raddr[1];
  seq_status = out.status;
  seq_errors = out.errors;
  seq_steps = out.steps;
  seq_missed = out.missed;
  seq_cur_step = out.cur_step;
  seq_cur_config = out.cur_config;
  seq_generation = out.generation;
  seq_epochs = out.epochs;
  seq_swaps = out.swaps;
  seq_last_swap = out.last_swap_ticks;
  seq_triggered_at = out.triggered_at_ticks;
  seq_triggers = out.triggers;
  seq_triggered_step = out.triggered_step;

  ap_uint<kPorts*kFineBits> sel_fine = 0, fall_fine = 0, rise_fine = 0;
  ap_uint<kPorts* kWlBits> sel_value = 0;
  for (int p = 0; p < kPorts; ++p) {
#pragma HLS UNROLL
    sel_fine.range(p * kFineBits + kFineBits - 1, p * kFineBits) = out.sel_fine[p];
    fall_fine.range(p * kFineBits + kFineBits - 1, p * kFineBits) = out.fall_fine[p];
    rise_fine.range(p * kFineBits + kFineBits - 1, p * kFineBits) = out.rise_fine[p];
    sel_value.range(p * kWlBits + kWlBits - 1, p * kWlBits) = out.sel_value[p];
  }
  seq_sel_valid = out.sel_valid;
  seq_sel_fine = sel_fine;
  seq_sel_value = sel_value;
  seq_fall_valid = out.fall_valid;
  seq_fall_fine = fall_fine;
  seq_rise_valid = out.rise_valid;
  seq_rise_fine = rise_fine;
}
