// The clock-synchronisation servo as Vitis HLS synthesises it (plain top
// name; see clock_sync_top.cpp for its control and what is still missing).
#pragma once

#include "clock_sync/clock_sync.hpp"

void lightrail_clock_sync(const lightrail::sync::ClockSyncIn& in, lightrail::sync::ClockSyncOut& out);

#ifndef __SYNTHESIS__
// C simulation only: what ap_rst_n does (every register to its initial
// value), applied before the next call.
void lightrail_clock_sync_csim_reset();
bool lightrail_clock_sync_csim_reset_pending();
#endif
