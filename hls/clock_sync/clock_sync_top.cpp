// Vitis HLS top of the clock-synchronisation servo: one call per servo update
// (a DDMTD phase sample, ~every DDMTD_N+1 system cycles), started by hw/ with
// ap_ctrl_hs; state stays on chip. The latency (64-bit divisions) is far
// below the update interval, so no pipelining is asked for. g++ ignores the
// pragmas; the C simulation calls clock_sync_step() on its own state.
#include "clock_sync/clock_sync.hpp"

namespace lightrail::sync {

void lightrail_clock_sync(const ClockSyncIn& in, ClockSyncOut& out) {
#pragma HLS INTERFACE mode = ap_ctrl_hs port = return
  // Plain wires: hw/ owns the AXI4-Lite register file, the DDMTD and the
  // timestamp units, and holds these stable from ap_start to ap_done.
#pragma HLS INTERFACE mode = ap_none port = in
#pragma HLS DISAGGREGATE variable = in
#pragma HLS INTERFACE mode = ap_vld port = out
#pragma HLS DISAGGREGATE variable = out

  static ClockSyncState state;
  clock_sync_step(state, in, out);
}

}  // namespace lightrail::sync
