// Vitis HLS top of the clock-synchronisation servo: one call per servo update
// (a DDMTD phase sample, ~every DDMTD_N+1 system cycles), started by hw/ with
// ap_ctrl_hs; state stays on chip. The latency (64-bit divisions) is far
// below the update interval, so no pipelining is asked for. g++ ignores the
// pragmas; the co-simulation calls clock_sync_step() on its own state, the
// test bench tests/hls_sync/clock_sync_top_tb.cpp calls this.
//
// Not yet the board top's sync_* ports (docs/clock-sync.md, "HLS top"): the
// servo also needs the two-way exchange (t1..t4), the link state and the
// receiver's bit slide from a message engine the top does not have yet.
#include "clock_sync/clock_sync_top.hpp"

void lightrail_clock_sync(const lightrail::sync::ClockSyncIn& in, lightrail::sync::ClockSyncOut& out) {
#pragma HLS TOP name = lightrail_clock_sync
#pragma HLS INTERFACE mode = ap_ctrl_hs port = return
  // Plain wires (the structs hold no arrays): hw/ owns the AXI4-Lite
  // register file, the DDMTD and the timestamp units, and holds these stable
  // from ap_start to ap_done.
#pragma HLS INTERFACE mode = ap_none port = in
#pragma HLS DISAGGREGATE variable = in
#pragma HLS INTERFACE mode = ap_vld port = out
#pragma HLS DISAGGREGATE variable = out

  static lightrail::sync::ClockSyncState state;
#ifndef __SYNTHESIS__
  if (lightrail_clock_sync_csim_reset_pending()) state = lightrail::sync::ClockSyncState{};
#endif
  lightrail::sync::clock_sync_step(state, in, out);
}

#ifndef __SYNTHESIS__
namespace {
bool reset_pending = false;
}
void lightrail_clock_sync_csim_reset() { reset_pending = true; }
bool lightrail_clock_sync_csim_reset_pending() {
  const bool r = reset_pending;
  reset_pending = false;
  return r;
}
#endif
