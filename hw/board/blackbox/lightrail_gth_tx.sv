// Transceiver Wizard core (PG182) for the switch outputs: 17 GTH TX
// channels (16 gates + the PPS lane), 8 Gb/s, raw 32-bit words (no
// encoding), CPLL from a 250 MHz reference, TX buffer bypassed with the
// core's phase alignment, user clocking outside the core (TXUSRCLK and
// TXUSRCLK2 are the board's clk_i). hw/vivado/gth_ip.tcl generates it; the
// port names below are the core's for that configuration (check them
// against the generated lightrail_gth_tx_stub.v when the core is upgraded).
module lightrail_gth_tx #(
  localparam int N = 17
) (
  input  logic [      0:0] gtwiz_userclk_tx_active_in,
  input  logic [      0:0] gtwiz_buffbypass_tx_reset_in,
  input  logic [      0:0] gtwiz_buffbypass_tx_start_user_in,
  output logic [      0:0] gtwiz_buffbypass_tx_done_out,
  output logic [      0:0] gtwiz_buffbypass_tx_error_out,
  input  logic [      0:0] gtwiz_reset_clk_freerun_in,
  input  logic [      0:0] gtwiz_reset_all_in,
  input  logic [      0:0] gtwiz_reset_tx_pll_and_datapath_in,
  input  logic [      0:0] gtwiz_reset_tx_datapath_in,
  output logic [      0:0] gtwiz_reset_tx_done_out,
  input  logic [ 32*N-1:0] gtwiz_userdata_tx_in,
  input  logic [    N-1:0] drpclk_in,
  input  logic [    N-1:0] gtrefclk0_in,
  input  logic [    N-1:0] txusrclk_in,
  input  logic [    N-1:0] txusrclk2_in,
  output logic [    N-1:0] cplllock_out,
  output logic [    N-1:0] gthtxn_out,
  output logic [    N-1:0] gthtxp_out,
  output logic [    N-1:0] gtpowergood_out,
  output logic [    N-1:0] txoutclk_out,
  output logic [    N-1:0] txpmaresetdone_out
);
endmodule
