// Transceiver Wizard core (PG182) for the fibre timing link on SFP0: one
// GTH channel, TX and RX at 8 Gb/s, raw 32-bit words (SYNC_LINK_WORD_BITS),
// CPLL from a 250 MHz reference, TX and RX buffers bypassed (fixed latency
// across resets, as the two-way delay measurement needs), user clocking
// outside the core: TXUSRCLK = clk_i, RXUSRCLK = the recovered RXOUTCLK.
// hw/vivado/gth_ip.tcl generates it; check the names against the generated
// lightrail_gth_link_stub.v when the core is upgraded.
module lightrail_gth_link (
  input  logic [ 0:0] gtwiz_userclk_tx_active_in,
  input  logic [ 0:0] gtwiz_userclk_rx_active_in,
  input  logic [ 0:0] gtwiz_buffbypass_tx_reset_in,
  input  logic [ 0:0] gtwiz_buffbypass_tx_start_user_in,
  output logic [ 0:0] gtwiz_buffbypass_tx_done_out,
  output logic [ 0:0] gtwiz_buffbypass_tx_error_out,
  input  logic [ 0:0] gtwiz_buffbypass_rx_reset_in,
  input  logic [ 0:0] gtwiz_buffbypass_rx_start_user_in,
  output logic [ 0:0] gtwiz_buffbypass_rx_done_out,
  output logic [ 0:0] gtwiz_buffbypass_rx_error_out,
  input  logic [ 0:0] gtwiz_reset_clk_freerun_in,
  input  logic [ 0:0] gtwiz_reset_all_in,
  input  logic [ 0:0] gtwiz_reset_tx_pll_and_datapath_in,
  input  logic [ 0:0] gtwiz_reset_tx_datapath_in,
  input  logic [ 0:0] gtwiz_reset_rx_pll_and_datapath_in,
  input  logic [ 0:0] gtwiz_reset_rx_datapath_in,
  output logic [ 0:0] gtwiz_reset_rx_cdr_stable_out,
  output logic [ 0:0] gtwiz_reset_tx_done_out,
  output logic [ 0:0] gtwiz_reset_rx_done_out,
  input  logic [31:0] gtwiz_userdata_tx_in,
  output logic [31:0] gtwiz_userdata_rx_out,
  input  logic [ 0:0] drpclk_in,
  input  logic [ 0:0] gtrefclk0_in,
  input  logic [ 0:0] gthrxn_in,
  input  logic [ 0:0] gthrxp_in,
  input  logic [ 0:0] txusrclk_in,
  input  logic [ 0:0] txusrclk2_in,
  input  logic [ 0:0] rxusrclk_in,
  input  logic [ 0:0] rxusrclk2_in,
  output logic [ 0:0] cplllock_out,
  output logic [ 0:0] gthtxn_out,
  output logic [ 0:0] gthtxp_out,
  output logic [ 0:0] gtpowergood_out,
  output logic [ 0:0] rxoutclk_out,
  output logic [ 0:0] rxpmaresetdone_out,
  output logic [ 0:0] txpmaresetdone_out
);
endmodule
