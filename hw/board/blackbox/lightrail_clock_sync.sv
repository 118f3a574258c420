// The clock-synchronisation servo as Vitis HLS exports it (hls/clock_sync,
// top lightrail_clock_sync, ap_ctrl_none): its ports are lightrail_board_top's
// sync_* ports under the same names with the _i/_o suffix dropped, each in
// the other direction, plus ap_clk and ap_rst_n. The test board.ports
// (tests/board/check_board.py) checks this list against the top's, and
// tests/hls KernelPorts checks the HLS top (hls/clock_sync/clock_sync_top.hpp)
// the same way.
module lightrail_clock_sync (
  input  logic ap_clk,
  input  logic ap_rst_n,
  input  logic [31:0] sync_ctrl,
  input  logic [31:0] sync_cal_delay_ms_ps,
  input  logic [31:0] sync_cal_delay_sm_ps,
  input  logic [31:0] sync_cal_asym_ps,
  input  logic [31:0] sync_kp,
  input  logic [31:0] sync_ki,
  input  logic [31:0] sync_lock_thresh_ps,
  input  logic [31:0] sync_lock_samples,
  input  logic [31:0] sync_slew_max_ns_per_s,
  input  logic [31:0] sync_dac_pull_ppb,
  input  logic [31:0] sync_phase_step_fs,
  input  logic [31:0] sync_clear_errors,
  output logic [31:0] sync_status,
  output logic [31:0] sync_error,
  output logic [31:0] sync_offset_ps,
  output logic [31:0] sync_rtt_ps,
  output logic [31:0] sync_delay_ms_ps,
  output logic [31:0] sync_servo_p_ps,
  output logic [31:0] sync_servo_i_ppt,
  output logic [31:0] sync_dac,
  output logic [31:0] sync_phase_steps,
  output logic [31:0] sync_holdover_us,
  input  logic sync_phase_valid,
  input  logic [lightrail_hwdef_pkg::DDMTD_TAG_BITS-1:0] sync_ddmtd_phase,
  input  logic sync_link_up,
  input  logic [lightrail_hwdef_pkg::SYNC_FLAG_BITS-1:0] sync_parent_flags,
  input  logic [31:0] sync_cycles,
  input  logic [31:0] sync_exchanges,
  input  logic sync_exchange_fine,
  input  logic [63:0] sync_t1_fs,
  input  logic [63:0] sync_t2_fs,
  input  logic [63:0] sync_t3_fs,
  input  logic [63:0] sync_t4_fs,
  input  logic [$clog2(lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS)-1:0] sync_rx_bitslide,
  output logic sync_busy,
  output logic [lightrail_hwdef_pkg::SYNC_DAC_BITS-1:0] sync_dac_word,
  output logic sync_dac_load,
  output logic signed [31:0] sync_phase_steps_req,
  output logic sync_phase_load,
  output logic [63:0] sync_time_step,
  output logic sync_time_step_load
);
endmodule
