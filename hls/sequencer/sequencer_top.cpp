// Vitis HLS top of the sequencer: a free-running (ap_ctrl_none) II=1 kernel
// that reads the two schedule bank RAMs in hw/ through registered BRAM ports
// and keeps its state on chip. g++ ignores the pragmas; the C simulation
// calls sequencer_step() on its own SequencerState instead.
#include "sequencer/sequencer.hpp"

namespace lightrail::seq {

using BankLines = uint32_t[hwdef::BANK_LINES][BANK_LINE_WORDS];

void lightrail_sequencer(const SequencerIn& ctrl, const BankLines bank0, const BankLines bank1,
                         SequencerOut& out) {
#pragma HLS INTERFACE mode = ap_ctrl_none port = return
  // Scalars are plain wires: hw/ owns the AXI4-Lite register file and drives
  // the pulses, times and tune-table write port directly.
#pragma HLS INTERFACE mode = ap_none port = ctrl
#pragma HLS DISAGGREGATE variable = ctrl
#pragma HLS INTERFACE mode = ap_none port = out
#pragma HLS DISAGGREGATE variable = out
  // One 128-bit line per read, one cycle of read latency (registered BRAM).
#pragma HLS INTERFACE mode = ap_memory port = bank0 storage_type = ram_1p latency = 1
#pragma HLS INTERFACE mode = ap_memory port = bank1 storage_type = ram_1p latency = 1
#pragma HLS ARRAY_RESHAPE variable = bank0 dim = 2 type = complete
#pragma HLS ARRAY_RESHAPE variable = bank1 dim = 2 type = complete
#pragma HLS PIPELINE II = 1

  static SequencerState state;
  // One tune-table copy per lookup lane; per-port state in registers.
#pragma HLS ARRAY_PARTITION variable = state.tune dim = 1 type = complete
#pragma HLS BIND_STORAGE variable = state.tune type = ram_s2p impl = bram
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
#pragma HLS ARRAY_PARTITION variable = state.fetch.tune type = complete
#pragma HLS ARRAY_PARTITION variable = state.fetch.config_words type = complete
  // The address presented last cycle: its line is this cycle's read data.
  static uint16_t raddr[2] = {0, 0};
#pragma HLS ARRAY_PARTITION variable = raddr type = complete

  SequencerIn in = ctrl;
  for (uint32_t w = 0; w < BANK_LINE_WORDS; ++w) {
#pragma HLS UNROLL
    in.bank_rdata[0][w] = bank0[raddr[0]][w];
    in.bank_rdata[1][w] = bank1[raddr[1]][w];
  }
  sequencer_step(state, in, out);
  raddr[0] = out.bank_raddr[0];
  raddr[1] = out.bank_raddr[1];
}

}  // namespace lightrail::seq
