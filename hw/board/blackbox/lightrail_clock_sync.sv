// The clock-synchronisation servo as Vitis HLS exports it (hls/clock_sync,
// top lightrail_clock_sync, ap_ctrl_none): its ports are lightrail_board_top's
// sync_* ports under the same names, each in the other direction, plus ap_clk
// and ap_rst_n. The test board.ports (tests/board/check_board.py) checks this
// list against the top's.
module lightrail_clock_sync (
  input  logic ap_clk,
  input  logic ap_rst_n,
  input  logic [31:0] sync_ctrl_o,
  input  logic [31:0] sync_cal_delay_ms_ps_o,
  input  logic [31:0] sync_cal_delay_sm_ps_o,
  input  logic [31:0] sync_cal_asym_ps_o,
  input  logic [31:0] sync_kp_o,
  input  logic [31:0] sync_ki_o,
  input  logic [31:0] sync_lock_thresh_ps_o,
  input  logic [31:0] sync_lock_samples_o,
  input  logic [31:0] sync_slew_max_ns_per_s_o,
  input  logic [31:0] sync_dac_pull_ppb_o,
  input  logic [31:0] sync_phase_step_fs_o,
  input  logic [31:0] sync_clear_errors_o,
  output logic [31:0] sync_status_i,
  output logic [31:0] sync_error_i,
  output logic [31:0] sync_offset_ps_i,
  output logic [31:0] sync_rtt_ps_i,
  output logic [31:0] sync_delay_ms_ps_i,
  output logic [31:0] sync_servo_p_ps_i,
  output logic [31:0] sync_servo_i_ppt_i,
  output logic [31:0] sync_dac_i,
  output logic [31:0] sync_phase_steps_i,
  output logic [31:0] sync_holdover_us_i,
  input  logic sync_phase_valid_o,
  input  logic [lightrail_hwdef_pkg::DDMTD_TAG_BITS-1:0] sync_ddmtd_phase_o,
  output logic [lightrail_hwdef_pkg::SYNC_DAC_BITS-1:0] sync_dac_word_i,
  output logic sync_dac_load_i,
  output logic signed [31:0] sync_phase_steps_req_i,
  output logic sync_phase_load_i,
  output logic [63:0] sync_time_step_i,
  output logic sync_time_step_load_i
);
endmodule
