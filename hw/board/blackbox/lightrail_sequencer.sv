// The sequencer kernel as Vitis HLS exports it (hls/sequencer, top
// lightrail_sequencer, ap_ctrl_none): its ports are lightrail_board_top's
// seq_* ports under the same names, each in the other direction, plus ap_clk
// and ap_rst_n (the board reset, docs/sequencer.md). The test board.ports
// (tests/board/check_board.py) checks this list against the top's.
module lightrail_sequencer (
  input  logic ap_clk,
  input  logic ap_rst_n,
  input  logic [63:0] seq_now_ticks_o,
  input  logic seq_commit_o,
  input  logic seq_cancel_o,
  input  logic [31:0] seq_commit_crc_o,
  input  logic seq_commit_at_time_o,
  input  logic [63:0] seq_commit_ticks_o,
  input  logic seq_trigger_o,
  input  logic seq_trigger_at_o,
  input  logic [63:0] seq_trigger_ticks_o,
  input  logic seq_stop_o,
  input  logic [31:0] seq_clear_errors_o,
  output logic [$clog2(lightrail_hwdef_pkg::BANK_LINES)-1:0] seq_bank0_raddr_i,
  input  logic [lightrail_hwdef_pkg::BANK_LINE_WORDS*32-1:0] seq_bank0_rdata_o,
  output logic [$clog2(lightrail_hwdef_pkg::BANK_LINES)-1:0] seq_bank1_raddr_i,
  input  logic [lightrail_hwdef_pkg::BANK_LINE_WORDS*32-1:0] seq_bank1_rdata_o,
  input  logic seq_tune_we_o,
  input  logic [$clog2(lightrail_hwdef_pkg::TUNE_ENTRIES)-1:0] seq_tune_addr_o,
  input  logic [15:0] seq_tune_wdata_o,
  output logic [31:0] seq_status_i,
  output logic [31:0] seq_errors_i,
  output logic [63:0] seq_steps_i,
  output logic [31:0] seq_missed_i,
  output logic [31:0] seq_cur_step_i,
  output logic [31:0] seq_cur_config_i,
  output logic [31:0] seq_generation_i,
  output logic [31:0] seq_epochs_i,
  output logic [31:0] seq_swaps_i,
  output logic [63:0] seq_last_swap_i,
  output logic [63:0] seq_triggered_at_i,
  output logic [31:0] seq_triggers_i,
  output logic [lightrail_hwdef_pkg::PORTS-1:0] seq_sel_valid_i,
  output logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::FINE_BITS-1:0] seq_sel_fine_i,
  output logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::WAVELENGTH_BITS-1:0] seq_sel_value_i,
  output logic [lightrail_hwdef_pkg::PORTS-1:0] seq_fall_valid_i,
  output logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::FINE_BITS-1:0] seq_fall_fine_i,
  output logic [lightrail_hwdef_pkg::PORTS-1:0] seq_rise_valid_i,
  output logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::FINE_BITS-1:0] seq_rise_fine_i
);
endmodule
