// The sequencer kernel as Vitis HLS exports it (hls/sequencer, top
// lightrail_sequencer, ap_ctrl_none): its ports are lightrail_board_top's
// seq_* ports under the same names with the _i/_o suffix dropped, each in
// the other direction, plus ap_clk and ap_rst_n (the board reset,
// docs/sequencer.md); tests/hls KernelPorts checks the HLS top the same way. The test board.ports
// (tests/board/check_board.py) checks this list against the top's.
module lightrail_sequencer (
  input  logic ap_clk,
  input  logic ap_rst_n,
  input  logic [63:0] seq_now_ticks,
  input  logic seq_commit,
  input  logic seq_cancel,
  input  logic [31:0] seq_commit_crc,
  input  logic seq_commit_at_time,
  input  logic [63:0] seq_commit_ticks,
  input  logic seq_trigger,
  input  logic seq_trigger_at,
  input  logic [63:0] seq_trigger_ticks,
  input  logic seq_stop,
  input  logic [31:0] seq_clear_errors,
  output logic [$clog2(lightrail_hwdef_pkg::BANK_LINES)-1:0] seq_bank0_raddr,
  input  logic [lightrail_hwdef_pkg::BANK_LINE_WORDS*32-1:0] seq_bank0_rdata,
  output logic [$clog2(lightrail_hwdef_pkg::BANK_LINES)-1:0] seq_bank1_raddr,
  input  logic [lightrail_hwdef_pkg::BANK_LINE_WORDS*32-1:0] seq_bank1_rdata,
  input  logic seq_tune_we,
  input  logic [$clog2(lightrail_hwdef_pkg::TUNE_ENTRIES)-1:0] seq_tune_addr,
  input  logic [15:0] seq_tune_wdata,
  output logic [31:0] seq_status,
  output logic [31:0] seq_errors,
  output logic [63:0] seq_steps,
  output logic [31:0] seq_missed,
  output logic [31:0] seq_cur_step,
  output logic [31:0] seq_cur_config,
  output logic [31:0] seq_generation,
  output logic [31:0] seq_epochs,
  output logic [31:0] seq_swaps,
  output logic [63:0] seq_last_swap,
  output logic [63:0] seq_triggered_at,
  output logic [31:0] seq_triggers,
  output logic [lightrail_hwdef_pkg::PORTS-1:0] seq_sel_valid,
  output logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::FINE_BITS-1:0] seq_sel_fine,
  output logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::WAVELENGTH_BITS-1:0] seq_sel_value,
  output logic [lightrail_hwdef_pkg::PORTS-1:0] seq_fall_valid,
  output logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::FINE_BITS-1:0] seq_fall_fine,
  output logic [lightrail_hwdef_pkg::PORTS-1:0] seq_rise_valid,
  output logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::FINE_BITS-1:0] seq_rise_fine
);
endmodule
