// The sequencer kernel as Vitis HLS synthesises it: one function whose
// arguments are exactly lightrail_board_top's seq_* ports (hw/), with the
// top's _i/_o suffix dropped and the direction reversed, each one packed
// word. Port p of a per-port field is bits [p*W +: W], as in the top. The
// test kernel_ports_test checks names, widths and directions against the
// elaborated RTL top, so the two cannot drift.
//
// The control is ap_ctrl_none (free-running, one call per cycle, II=1); the
// RTL gets ap_clk and ap_rst_n beside these ports. ap_rst_n resets the
// kernel's registers (config_rtl -reset all); the C simulation does the same
// with lightrail_sequencer_csim_reset().
#pragma once

#include <cstdint>

#include "lightrail/ap_uint.hpp"
#include "lightrail/hwdef.hpp"

namespace lightrail {
namespace seq {
namespace top {

constexpr int clog2(uint64_t n) { return n <= 1 ? 0 : 1 + clog2((n + 1) / 2); }

constexpr int kBankAddrBits = clog2(hwdef::BANK_LINES);
constexpr int kLineBits = int(hwdef::BANK_LINE_WORDS) * 32;
constexpr int kTuneAddrBits = clog2(hwdef::TUNE_ENTRIES);
constexpr int kPorts = int(hwdef::PORTS);
constexpr int kFineBits = int(hwdef::FINE_BITS);
constexpr int kWlBits = int(hwdef::WAVELENGTH_BITS);

}  // namespace top
}  // namespace seq
}  // namespace lightrail

// Plain (unqualified) name: it is the HLS top and the RTL module name.
void lightrail_sequencer(
    // from the board top
    ap_uint<64> seq_now_ticks, ap_uint<1> seq_commit, ap_uint<1> seq_cancel, ap_uint<32> seq_commit_crc,
    ap_uint<1> seq_commit_at_time, ap_uint<64> seq_commit_ticks, ap_uint<1> seq_trigger,
    ap_uint<1> seq_trigger_at, ap_uint<64> seq_trigger_ticks, ap_uint<1> seq_trigger_jump,
    ap_uint<32> seq_trigger_step, ap_uint<1> seq_stop, ap_uint<32> seq_clear_errors,
    // the two bank RAMs' sequencer ports: address out, line back next cycle
    ap_uint<lightrail::seq::top::kBankAddrBits>& seq_bank0_raddr,
    ap_uint<lightrail::seq::top::kLineBits> seq_bank0_rdata,
    ap_uint<lightrail::seq::top::kBankAddrBits>& seq_bank1_raddr,
    ap_uint<lightrail::seq::top::kLineBits> seq_bank1_rdata,
    // tune-table write port
    ap_uint<1> seq_tune_we, ap_uint<lightrail::seq::top::kTuneAddrBits> seq_tune_addr,
    ap_uint<16> seq_tune_wdata,
    // status
    ap_uint<32>& seq_status, ap_uint<32>& seq_errors, ap_uint<64>& seq_steps, ap_uint<32>& seq_missed,
    ap_uint<32>& seq_cur_step, ap_uint<32>& seq_cur_config, ap_uint<32>& seq_generation,
    ap_uint<32>& seq_epochs, ap_uint<32>& seq_swaps, ap_uint<64>& seq_last_swap,
    ap_uint<64>& seq_triggered_at, ap_uint<32>& seq_triggers, ap_uint<32>& seq_triggered_step,
    // port events
    ap_uint<lightrail::seq::top::kPorts>& seq_sel_valid,
    ap_uint<lightrail::seq::top::kPorts * lightrail::seq::top::kFineBits>& seq_sel_fine,
    ap_uint<lightrail::seq::top::kPorts * lightrail::seq::top::kWlBits>& seq_sel_value,
    ap_uint<lightrail::seq::top::kPorts>& seq_fall_valid,
    ap_uint<lightrail::seq::top::kPorts * lightrail::seq::top::kFineBits>& seq_fall_fine,
    ap_uint<lightrail::seq::top::kPorts>& seq_rise_valid,
    ap_uint<lightrail::seq::top::kPorts * lightrail::seq::top::kFineBits>& seq_rise_fine);

#ifndef __SYNTHESIS__
// C simulation only: what ap_rst_n does in the RTL, applied before the next
// call (the kernel's registers to their reset values; the tune table, a
// block RAM, keeps its contents).
void lightrail_sequencer_csim_reset();
#endif
