// Board wrapper for the AMD ZCU102 (docs/board.md), packaged as the RTL
// kernel XRT loads (hw/vitis/): lightrail_board_top, the two HLS kernels, the
// transceivers and the clocking, behind the kernel's AXI4-Lite control port.
//
// Clocks (constraints/zcu102_board.xdc, lightrail_timing.xdc):
//   ap_clk     platform clock of the XRT shell; the host's register accesses
//              and the transceivers' free-running reset/DRP clock
//   clk_i      250 MHz, the disciplined board clock: the timing card's VCXO
//              (FMC HPC0 GBTCLK0_M2C) through MMCME4_ADV, whose dynamic phase
//              shift the servo steps; TXUSRCLK of every transmitter
//   clk_dmtd   250 MHz * N / (N + 1) (N = DDMTD_N), made by the board's Si5328
//              from clk_i forwarded to it; samples clk_i and clk_rx
//   clk_rx     250 MHz recovered by the SFP0 timing-link receiver
// ap_clk and clk_i are unrelated: axil_cdc crosses the host's accesses.
//
// Outputs: gate p of the switch on GTH lane p (FMC HPC0 DP0..7, HPC1 DP0..7),
// 8 Gb/s, one 32-bit word per clk_i cycle from gate_ser_o; PPS on the SFP1
// transmitter at tick resolution (and at cycle resolution on PMOD0 for a
// scope trigger); the VCXO's DAC (AD5662) on FMC HPC0 LA pins.
//
// Not here yet (docs/board.md, "What a lab must add"): the wavelength-select
// outputs to the laser drivers (sel_o, whose electrical interface depends on
// the laser), per-port delay calibration.
module lightrail_zcu102_top #(
  parameter logic [63:0] PPS_PERIOD_TICKS = 64'd8000
) (
  // XRT kernel interface: clock, reset, AXI4-Lite control (the register map,
  // AXI_ADDR_BITS wide: kernel.xml declares its whole range).
  input  logic                                      ap_clk,
  input  logic                                      ap_rst_n,
  input  logic [lightrail_hwdef_pkg::AXI_ADDR_BITS-1:0] s_axi_control_awaddr,
  input  logic                                      s_axi_control_awvalid,
  output logic                                      s_axi_control_awready,
  input  logic [31:0]                               s_axi_control_wdata,
  input  logic [ 3:0]                               s_axi_control_wstrb,
  input  logic                                      s_axi_control_wvalid,
  output logic                                      s_axi_control_wready,
  output logic [ 1:0]                               s_axi_control_bresp,
  output logic                                      s_axi_control_bvalid,
  input  logic                                      s_axi_control_bready,
  input  logic [lightrail_hwdef_pkg::AXI_ADDR_BITS-1:0] s_axi_control_araddr,
  input  logic                                      s_axi_control_arvalid,
  output logic                                      s_axi_control_arready,
  output logic [31:0]                               s_axi_control_rdata,
  output logic [ 1:0]                               s_axi_control_rresp,
  output logic                                      s_axi_control_rvalid,
  input  logic                                      s_axi_control_rready,
  // GTH reference clocks: the VCXO at 250 MHz on FMC HPC0 GBTCLK0_M2C
  // (quads 228-230) and on FMC HPC1 GBTCLK0_M2C (quads 129-130); the DDMTD
  // helper from the Si5328 (U20) on MGTREFCLK1 of quad 230.
  input  logic                                      gtrefclk_hpc0_p,
  input  logic                                      gtrefclk_hpc0_n,
  input  logic                                      gtrefclk_hpc1_p,
  input  logic                                      gtrefclk_hpc1_n,
  input  logic                                      dmtd_refclk_p,
  input  logic                                      dmtd_refclk_n,
  // clk_i forwarded to the Si5328's CKIN1 (the board's REC_CLOCK pins)
  output logic                                      si5328_ckin_p,
  output logic                                      si5328_ckin_n,
  // switch gates, one GTH transmitter per port
  output logic [lightrail_hwdef_pkg::PORTS-1:0]     gate_txp,
  output logic [lightrail_hwdef_pkg::PORTS-1:0]     gate_txn,
  // fibre timing link (SFP0) and the PPS lane (SFP1 transmitter)
  output logic                                      link_txp,
  output logic                                      link_txn,
  input  logic                                      link_rxp,
  input  logic                                      link_rxn,
  output logic                                      pps_txp,
  output logic                                      pps_txn,
  output logic [ 1:0]                               sfp_tx_disable_b,
  // VCXO tuning DAC on the timing card (AD5662 3-wire)
  output logic                                      dac_sclk_o,
  output logic                                      dac_sync_no,
  output logic                                      dac_din_o,
  // PPS at cycle resolution (PMOD0), board index (DIP switches), status LEDs
  output logic                                      pps_pin_o,
  input  logic [ 3:0]                               board_id_sw_i,
  output logic [ 7:0]                               led_o
);
  import lightrail_hwdef_pkg::*;

  localparam int Ports = PORTS;
  localparam int FineSteps = FINE_STEPS;
  localparam int FineBits = FINE_BITS;
  localparam int WlBits = WAVELENGTH_BITS;
  localparam int AddrBits = AXI_ADDR_BITS;
  localparam int BankAddrBits = $clog2(BANK_LINES);
  localparam int BankLineBits = BANK_LINE_WORDS * 32;
  localparam int TuneAddrBits = $clog2(TUNE_ENTRIES);
  localparam int TagBits = DDMTD_TAG_BITS;
  localparam int DacBits = SYNC_DAC_BITS;
  localparam int SlideBits = $clog2(SYNC_LINK_WORD_BITS);
  localparam int GtLanes = Ports + 1;  // the gates, then the PPS lane

  // Index in lightrail_gth_tx (which orders its channels by site, X then Y)
  // of the channel that drives switch port p; entry Ports is the PPS lane.
  // Sites from the MGTHTXP<n>_<quad> pin names in zcu102_board.xdc (docs/board.md,
  // "Pin verification"); tests/board/check_board.py checks this table against them.
  localparam int GtIndex[GtLanes] = '{14, 13, 15, 12, 11, 9, 8, 10, 4, 5, 6, 7, 0, 1, 2, 3, 16};
  // Channels below this index sit in quads 129/130 (HPC1 reference clock).
  localparam int GtFirstHpc0 = 8;

  // GtIndex must use every channel of the core exactly once.
  for (genvar i = 0; i < GtLanes; i++) begin : g_gt_index_check
    if (GtIndex[i] < 0 || GtIndex[i] >= GtLanes) begin : g_range
      $error("GtIndex[%0d] = %0d is not a channel of lightrail_gth_tx", i, GtIndex[i]);
    end
    for (genvar j = i + 1; j < GtLanes; j++) begin : g_unique
      if (GtIndex[i] == GtIndex[j]) begin : g_dup
        $error("GtIndex[%0d] and GtIndex[%0d] name the same channel %0d", i, j, GtIndex[i]);
      end
    end
  end

  // ================================================================ clocks
  logic refclk_hpc0, refclk_hpc0_div2, refclk_hpc1, dmtd_refclk_div2;
  logic refclk_hpc1_div2_unused, dmtd_refclk_unused;

  IBUFDS_GTE4 #(.REFCLK_HROW_CK_SEL(2'b00)) u_refclk_hpc0_buf (
    .I(gtrefclk_hpc0_p), .IB(gtrefclk_hpc0_n), .CEB(1'b0), .O(refclk_hpc0), .ODIV2(refclk_hpc0_div2)
  );
  IBUFDS_GTE4 #(.REFCLK_HROW_CK_SEL(2'b00)) u_refclk_hpc1_buf (
    .I(gtrefclk_hpc1_p), .IB(gtrefclk_hpc1_n), .CEB(1'b0), .O(refclk_hpc1), .ODIV2(refclk_hpc1_div2_unused)
  );
  // REFCLK_HROW_CK_SEL = 00: ODIV2 runs at the input frequency, undivided.
  IBUFDS_GTE4 #(.REFCLK_HROW_CK_SEL(2'b00)) u_dmtd_refclk_buf (
    .I(dmtd_refclk_p), .IB(dmtd_refclk_n), .CEB(1'b0), .O(dmtd_refclk_unused), .ODIV2(dmtd_refclk_div2)
  );

  // The VCXO into the fabric, then the MMCM that makes clk_i: VCO 1 GHz
  // (M = 4), CLKOUT0 / 4 = 250 MHz, fine phase shift on CLKOUT0 only. One
  // step = VCO period / 56 = 17.857 ps = SYNC_DEFAULT_PHASE_STEP_FS.
  logic vcxo_clk, mmcm_fb_out, mmcm_fb, mmcm_clk0, mmcm_locked, clk_i;
  logic mmcm_psen, mmcm_psincdec, mmcm_psdone;

  BUFG_GT u_vcxo_bufg (
    .I(refclk_hpc0_div2), .CE(1'b1), .CEMASK(1'b0), .CLR(1'b0), .CLRMASK(1'b0), .DIV(3'd0), .O(vcxo_clk)
  );

  MMCME4_ADV #(
    .BANDWIDTH           ("OPTIMIZED"),
    .CLKIN1_PERIOD       (4.0),
    .CLKFBOUT_MULT_F     (4.0),
    .DIVCLK_DIVIDE       (1),
    .CLKOUT0_DIVIDE_F    (4.0),
    .CLKOUT0_USE_FINE_PS ("TRUE"),
    .CLKFBOUT_USE_FINE_PS("FALSE"),
    .COMPENSATION        ("AUTO")
  ) u_mmcm (
    .CLKIN1  (vcxo_clk),
    .CLKIN2  (1'b0),
    .CLKINSEL(1'b1),
    .CLKFBIN (mmcm_fb),
    .CLKFBOUT(mmcm_fb_out),
    .CLKOUT0 (mmcm_clk0),
    .LOCKED  (mmcm_locked),
    .RST     (!ap_rst_n),
    .PWRDWN  (1'b0),
    .PSCLK   (clk_i),
    .PSEN    (mmcm_psen),
    .PSINCDEC(mmcm_psincdec),
    .PSDONE  (mmcm_psdone),
    .DCLK    (1'b0),
    .DEN     (1'b0),
    .DWE     (1'b0),
    .DADDR   (7'd0),
    .DI      (16'd0),
    .CDDCREQ (1'b0)
  );

  BUFG u_mmcm_fb_bufg (.I(mmcm_fb_out), .O(mmcm_fb));
  BUFG u_clk_bufg (.I(mmcm_clk0), .O(clk_i));

  logic clk_dmtd;
  BUFG_GT u_dmtd_bufg (
    .I(dmtd_refclk_div2), .CE(1'b1), .CEMASK(1'b0), .CLR(1'b0), .CLRMASK(1'b0), .DIV(3'd0), .O(clk_dmtd)
  );

  // clk_i to the Si5328, which locks to it and returns the helper clock.
  logic si5328_ckin;
  ODDRE1 #(.SRVAL(1'b0), .SIM_DEVICE("ULTRASCALE_PLUS")) u_ckin_fwd (
    .C(clk_i), .D1(1'b1), .D2(1'b0), .SR(1'b0), .Q(si5328_ckin)
  );
  OBUFDS u_ckin_obuf (.I(si5328_ckin), .O(si5328_ckin_p), .OB(si5328_ckin_n));

  // ================================================================ resets
  // Released together in each domain once the host released ap_rst_n and
  // the MMCM locked (docs/hw-clock-sync.md: release the DDMTD's two resets
  // together).
  logic ap_rst_sync_n, rst_ni, rst_dmtd_ni, board_arst_n;
  assign board_arst_n = ap_rst_n && mmcm_locked;

  reset_sync u_rst_ap (.clk_i(ap_clk), .arst_ni(ap_rst_n), .rst_no(ap_rst_sync_n));
  reset_sync u_rst_sys (.clk_i(clk_i), .arst_ni(board_arst_n), .rst_no(rst_ni));
  reset_sync u_rst_dmtd (.clk_i(clk_dmtd), .arst_ni(board_arst_n), .rst_no(rst_dmtd_ni));

  // ================================================================ host bridge
  logic [AddrBits-1:0] axil_awaddr, axil_araddr;
  logic        axil_awvalid, axil_awready, axil_wvalid, axil_wready, axil_bvalid, axil_bready;
  logic        axil_arvalid, axil_arready, axil_rvalid, axil_rready;
  logic [31:0] axil_wdata, axil_rdata;
  logic [ 3:0] axil_wstrb;
  logic [ 1:0] axil_bresp, axil_rresp;

  axil_cdc u_host_cdc (
    .s_clk_i  (ap_clk),
    .s_rst_ni (ap_rst_sync_n),
    .s_awaddr (s_axi_control_awaddr),
    .s_awvalid(s_axi_control_awvalid),
    .s_awready(s_axi_control_awready),
    .s_wdata  (s_axi_control_wdata),
    .s_wstrb  (s_axi_control_wstrb),
    .s_wvalid (s_axi_control_wvalid),
    .s_wready (s_axi_control_wready),
    .s_bresp  (s_axi_control_bresp),
    .s_bvalid (s_axi_control_bvalid),
    .s_bready (s_axi_control_bready),
    .s_araddr (s_axi_control_araddr),
    .s_arvalid(s_axi_control_arvalid),
    .s_arready(s_axi_control_arready),
    .s_rdata  (s_axi_control_rdata),
    .s_rresp  (s_axi_control_rresp),
    .s_rvalid (s_axi_control_rvalid),
    .s_rready (s_axi_control_rready),
    .m_clk_i  (clk_i),
    .m_rst_ni (rst_ni),
    .m_awaddr (axil_awaddr),
    .m_awvalid(axil_awvalid),
    .m_awready(axil_awready),
    .m_wdata  (axil_wdata),
    .m_wstrb  (axil_wstrb),
    .m_wvalid (axil_wvalid),
    .m_wready (axil_wready),
    .m_bresp  (axil_bresp),
    .m_bvalid (axil_bvalid),
    .m_bready (axil_bready),
    .m_araddr (axil_araddr),
    .m_arvalid(axil_arvalid),
    .m_arready(axil_arready),
    .m_rdata  (axil_rdata),
    .m_rresp  (axil_rresp),
    .m_rvalid (axil_rvalid),
    .m_rready (axil_rready)
  );

  // ================================================================ board index
  // A static strap (DIP switches), bitwise independent: a plain synchroniser.
  logic [3:0] board_id_sw;
  cdc_sync #(.WIDTH(4)) u_board_id_sync (.clk_i, .rst_ni, .d_i(board_id_sw_i), .q_o(board_id_sw));

  // ================================================================ sequencer kernel <-> top
  logic [63:0] seq_now_ticks, seq_commit_ticks, seq_trigger_ticks, seq_steps, seq_last_swap, seq_triggered_at;
  logic        seq_commit, seq_cancel, seq_commit_at_time, seq_trigger, seq_trigger_at, seq_stop, seq_tune_we;
  logic        seq_trigger_jump;
  logic [31:0] seq_commit_crc, seq_clear_errors, seq_status, seq_errors, seq_missed, seq_cur_step, seq_cur_config;
  logic [31:0] seq_generation, seq_epochs, seq_swaps, seq_triggers, seq_trigger_step, seq_triggered_step;
  logic [BankAddrBits-1:0] seq_bank0_raddr, seq_bank1_raddr;
  logic [BankLineBits-1:0] seq_bank0_rdata, seq_bank1_rdata;
  logic [TuneAddrBits-1:0] seq_tune_addr;
  logic [15:0] seq_tune_wdata;
  logic [Ports-1:0] seq_sel_valid, seq_fall_valid, seq_rise_valid;
  logic [Ports*FineBits-1:0] seq_sel_fine, seq_fall_fine, seq_rise_fine;
  logic [Ports*WlBits-1:0] seq_sel_value;

  lightrail_sequencer u_sequencer (
    .ap_clk              (clk_i),
    .ap_rst_n            (rst_ni),
    .seq_now_ticks     (seq_now_ticks),
    .seq_commit        (seq_commit),
    .seq_cancel        (seq_cancel),
    .seq_commit_crc    (seq_commit_crc),
    .seq_commit_at_time(seq_commit_at_time),
    .seq_commit_ticks  (seq_commit_ticks),
    .seq_trigger       (seq_trigger),
    .seq_trigger_at    (seq_trigger_at),
    .seq_trigger_ticks (seq_trigger_ticks),
    .seq_trigger_jump  (seq_trigger_jump),
    .seq_trigger_step  (seq_trigger_step),
    .seq_stop          (seq_stop),
    .seq_clear_errors  (seq_clear_errors),
    .seq_bank0_raddr   (seq_bank0_raddr),
    .seq_bank0_rdata   (seq_bank0_rdata),
    .seq_bank1_raddr   (seq_bank1_raddr),
    .seq_bank1_rdata   (seq_bank1_rdata),
    .seq_tune_we       (seq_tune_we),
    .seq_tune_addr     (seq_tune_addr),
    .seq_tune_wdata    (seq_tune_wdata),
    .seq_status        (seq_status),
    .seq_errors        (seq_errors),
    .seq_steps         (seq_steps),
    .seq_missed        (seq_missed),
    .seq_cur_step      (seq_cur_step),
    .seq_cur_config    (seq_cur_config),
    .seq_generation    (seq_generation),
    .seq_epochs        (seq_epochs),
    .seq_swaps         (seq_swaps),
    .seq_last_swap     (seq_last_swap),
    .seq_triggered_at  (seq_triggered_at),
    .seq_triggers      (seq_triggers),
    .seq_triggered_step(seq_triggered_step),
    .seq_sel_valid     (seq_sel_valid),
    .seq_sel_fine      (seq_sel_fine),
    .seq_sel_value     (seq_sel_value),
    .seq_fall_valid    (seq_fall_valid),
    .seq_fall_fine     (seq_fall_fine),
    .seq_rise_valid    (seq_rise_valid),
    .seq_rise_fine     (seq_rise_fine)
  );

  // ================================================================ clock-sync servo <-> top
  logic [31:0] sync_ctrl, sync_cal_delay_ms_ps, sync_cal_delay_sm_ps, sync_cal_asym_ps, sync_kp, sync_ki;
  logic [31:0] sync_lock_thresh_ps, sync_lock_samples, sync_slew_max_ns_per_s, sync_dac_pull_ppb;
  logic [31:0] sync_phase_step_fs, sync_clear_errors;
  logic [31:0] sync_status, sync_error, sync_offset_ps, sync_rtt_ps, sync_delay_ms_ps, sync_servo_p_ps;
  logic [31:0] sync_servo_i_ppt, sync_dac, sync_phase_steps, sync_holdover_us;
  logic               sync_phase_valid, sync_dac_load, sync_phase_load, sync_time_step_load;
  logic [TagBits-1:0] sync_ddmtd_phase;
  logic [DacBits-1:0] sync_dac_word;
  logic signed [31:0] sync_phase_steps_req;
  logic [63:0]        sync_time_step;
  logic               sync_link_up, sync_busy;
  logic [lightrail_hwdef_pkg::SYNC_FLAG_BITS-1:0] sync_parent_flags;
  logic [31:0]        sync_cycles, sync_exchanges;
  logic               sync_exchange_fine;
  logic [63:0]        sync_t1_fs, sync_t2_fs, sync_t3_fs, sync_t4_fs;
  logic [SlideBits-1:0] sync_rx_bitslide;

  lightrail_clock_sync u_clock_sync (
    .ap_clk                  (clk_i),
    .ap_rst_n                (rst_ni),
    .sync_ctrl             (sync_ctrl),
    .sync_cal_delay_ms_ps  (sync_cal_delay_ms_ps),
    .sync_cal_delay_sm_ps  (sync_cal_delay_sm_ps),
    .sync_cal_asym_ps      (sync_cal_asym_ps),
    .sync_kp               (sync_kp),
    .sync_ki               (sync_ki),
    .sync_lock_thresh_ps   (sync_lock_thresh_ps),
    .sync_lock_samples     (sync_lock_samples),
    .sync_slew_max_ns_per_s(sync_slew_max_ns_per_s),
    .sync_dac_pull_ppb     (sync_dac_pull_ppb),
    .sync_phase_step_fs    (sync_phase_step_fs),
    .sync_clear_errors     (sync_clear_errors),
    .sync_status           (sync_status),
    .sync_error            (sync_error),
    .sync_offset_ps        (sync_offset_ps),
    .sync_rtt_ps           (sync_rtt_ps),
    .sync_delay_ms_ps      (sync_delay_ms_ps),
    .sync_servo_p_ps       (sync_servo_p_ps),
    .sync_servo_i_ppt      (sync_servo_i_ppt),
    .sync_dac              (sync_dac),
    .sync_phase_steps      (sync_phase_steps),
    .sync_holdover_us      (sync_holdover_us),
    .sync_phase_valid      (sync_phase_valid),
    .sync_ddmtd_phase      (sync_ddmtd_phase),
    .sync_link_up          (sync_link_up),
    .sync_parent_flags     (sync_parent_flags),
    .sync_cycles           (sync_cycles),
    .sync_exchanges        (sync_exchanges),
    .sync_exchange_fine    (sync_exchange_fine),
    .sync_t1_fs            (sync_t1_fs),
    .sync_t2_fs            (sync_t2_fs),
    .sync_t3_fs            (sync_t3_fs),
    .sync_t4_fs            (sync_t4_fs),
    .sync_rx_bitslide      (sync_rx_bitslide),
    .sync_busy             (sync_busy),
    .sync_dac_word         (sync_dac_word),
    .sync_dac_load         (sync_dac_load),
    .sync_phase_steps_req  (sync_phase_steps_req),
    .sync_phase_load       (sync_phase_load),
    .sync_time_step        (sync_time_step),
    .sync_time_step_load   (sync_time_step_load)
  );

  // ================================================================ the board top
  logic [Ports*FineSteps-1:0] gate_ser;
  logic [Ports*WlBits-1:0]    sel;
  logic [Ports-1:0]           sel_stb;
  logic [Ports*FineBits-1:0]  sel_fine;
  logic                       clk_rx, pps;
  logic [FineBits-1:0]        pps_fine;
  logic [31:0]                link_tx_word, link_rx_word;
  logic                       link_rx_active;

  // The timing link's state (its transceiver is below), read by HEALTH.LINK_UP.
  logic link_tx_done, link_rx_done, link_cdr_stable, link_cplllock, link_powergood;
  logic link_txbyp_done, link_txbyp_error, link_rxbyp_done, link_rxbyp_error;

  logic [31:0] down_tx_words_unused;
  logic        down_aligned_unused;

  lightrail_board_top #(
    .PPS_PERIOD_TICKS(PPS_PERIOD_TICKS),
    // The build ID `lightrail flash` checks against the image's descriptor.
    .BUILD_HASH      (lightrail_build_id_pkg::BUILD_HASH),
    .BUILD_TIME      (lightrail_build_id_pkg::BUILD_TIME),
    // SFP0 is the board's own link and SFP1 carries PPS: no cage is wired
    // to a downstream port yet (docs/board.md, "What a lab must add").
    .SYNC_DOWN_PORTS (0)
  ) u_top (
    .clk_i,
    .rst_ni,
    .board_id_i              ({28'd0, board_id_sw}),
    .s_axil_awaddr           (axil_awaddr),
    .s_axil_awvalid          (axil_awvalid),
    .s_axil_awready          (axil_awready),
    .s_axil_wdata            (axil_wdata),
    .s_axil_wstrb            (axil_wstrb),
    .s_axil_wvalid           (axil_wvalid),
    .s_axil_wready           (axil_wready),
    .s_axil_bresp            (axil_bresp),
    .s_axil_bvalid           (axil_bvalid),
    .s_axil_bready           (axil_bready),
    .s_axil_araddr           (axil_araddr),
    .s_axil_arvalid          (axil_arvalid),
    .s_axil_arready          (axil_arready),
    .s_axil_rdata            (axil_rdata),
    .s_axil_rresp            (axil_rresp),
    .s_axil_rvalid           (axil_rvalid),
    .s_axil_rready           (axil_rready),
    .seq_now_ticks_o         (seq_now_ticks),
    .seq_commit_o            (seq_commit),
    .seq_cancel_o            (seq_cancel),
    .seq_commit_crc_o        (seq_commit_crc),
    .seq_commit_at_time_o    (seq_commit_at_time),
    .seq_commit_ticks_o      (seq_commit_ticks),
    .seq_trigger_o           (seq_trigger),
    .seq_trigger_at_o        (seq_trigger_at),
    .seq_trigger_ticks_o     (seq_trigger_ticks),
    .seq_trigger_jump_o      (seq_trigger_jump),
    .seq_trigger_step_o      (seq_trigger_step),
    .seq_stop_o              (seq_stop),
    .seq_clear_errors_o      (seq_clear_errors),
    .seq_bank0_raddr_i       (seq_bank0_raddr),
    .seq_bank0_rdata_o       (seq_bank0_rdata),
    .seq_bank1_raddr_i       (seq_bank1_raddr),
    .seq_bank1_rdata_o       (seq_bank1_rdata),
    .seq_tune_we_o           (seq_tune_we),
    .seq_tune_addr_o         (seq_tune_addr),
    .seq_tune_wdata_o        (seq_tune_wdata),
    .seq_status_i            (seq_status),
    .seq_errors_i            (seq_errors),
    .seq_steps_i             (seq_steps),
    .seq_missed_i            (seq_missed),
    .seq_cur_step_i          (seq_cur_step),
    .seq_cur_config_i        (seq_cur_config),
    .seq_generation_i        (seq_generation),
    .seq_epochs_i            (seq_epochs),
    .seq_swaps_i             (seq_swaps),
    .seq_last_swap_i         (seq_last_swap),
    .seq_triggered_at_i      (seq_triggered_at),
    .seq_triggers_i          (seq_triggers),
    .seq_triggered_step_i    (seq_triggered_step),
    .seq_sel_valid_i         (seq_sel_valid),
    .seq_sel_fine_i          (seq_sel_fine),
    .seq_sel_value_i         (seq_sel_value),
    .seq_fall_valid_i        (seq_fall_valid),
    .seq_fall_fine_i         (seq_fall_fine),
    .seq_rise_valid_i        (seq_rise_valid),
    .seq_rise_fine_i         (seq_rise_fine),
    .gate_ser_o              (gate_ser),
    .sel_o                   (sel),
    .sel_stb_o               (sel_stb),
    .sel_fine_o              (sel_fine),
    .sync_ctrl_o             (sync_ctrl),
    .sync_cal_delay_ms_ps_o  (sync_cal_delay_ms_ps),
    .sync_cal_delay_sm_ps_o  (sync_cal_delay_sm_ps),
    .sync_cal_asym_ps_o      (sync_cal_asym_ps),
    .sync_kp_o               (sync_kp),
    .sync_ki_o               (sync_ki),
    .sync_lock_thresh_ps_o   (sync_lock_thresh_ps),
    .sync_lock_samples_o     (sync_lock_samples),
    .sync_slew_max_ns_per_s_o(sync_slew_max_ns_per_s),
    .sync_dac_pull_ppb_o     (sync_dac_pull_ppb),
    .sync_phase_step_fs_o    (sync_phase_step_fs),
    .sync_clear_errors_o     (sync_clear_errors),
    .sync_status_i           (sync_status),
    .sync_error_i            (sync_error),
    .sync_offset_ps_i        (sync_offset_ps),
    .sync_rtt_ps_i           (sync_rtt_ps),
    .sync_delay_ms_ps_i      (sync_delay_ms_ps),
    .sync_servo_p_ps_i       (sync_servo_p_ps),
    .sync_servo_i_ppt_i      (sync_servo_i_ppt),
    .sync_dac_i              (sync_dac),
    .sync_phase_steps_i      (sync_phase_steps),
    .sync_holdover_us_i      (sync_holdover_us),
    .sync_link_up_o          (sync_link_up),
    .sync_parent_flags_o     (sync_parent_flags),
    .sync_cycles_o           (sync_cycles),
    .sync_exchanges_o        (sync_exchanges),
    .sync_exchange_fine_o    (sync_exchange_fine),
    .sync_t1_fs_o            (sync_t1_fs),
    .sync_t2_fs_o            (sync_t2_fs),
    .sync_t3_fs_o            (sync_t3_fs),
    .sync_t4_fs_o            (sync_t4_fs),
    .sync_rx_bitslide_o      (sync_rx_bitslide),
    .sync_busy_i             (sync_busy),
    .clk_dmtd_i              (clk_dmtd),
    .rst_dmtd_ni,
    .clk_rx_i                (clk_rx),
    .sync_phase_valid_o      (sync_phase_valid),
    .sync_ddmtd_phase_o      (sync_ddmtd_phase),
    // The timing link's words: the sync message engine in the top frames
    // the two-way exchange on them (hw/sync_link.sv).
    .rst_rx_ni               (link_rx_active),
    .link_tx_word_o          (link_tx_word),
    .link_rx_word_i          (link_rx_word),
    .down_tx_words_o         (down_tx_words_unused),
    .down_rx_words_i         (32'd0),
    .clk_down_rx_i           (1'b0),
    .rst_down_rx_ni          (1'b0),
    .down_aligned_o          (down_aligned_unused),
    .sync_dac_word_i         (sync_dac_word),
    .sync_dac_load_i         (sync_dac_load),
    .sync_phase_steps_req_i  (sync_phase_steps_req),
    .sync_phase_load_i       (sync_phase_load),
    .sync_time_step_i        (sync_time_step),
    .sync_time_step_load_i   (sync_time_step_load),
    .dac_sclk_o,
    .dac_sync_no,
    .dac_din_o,
    .mmcm_psen_o             (mmcm_psen),
    .mmcm_psincdec_o         (mmcm_psincdec),
    .mmcm_psdone_i           (mmcm_psdone),
    .pps_o                   (pps),
    .pps_fine_o              (pps_fine),
    // HEALTH: what `lightrail health` reports as clock and link state.
    .mmcm_locked_i           (mmcm_locked),
    .link_up_i               (link_rx_done && link_rxbyp_done && link_txbyp_done)
  );

  // ================================================================ PPS
  logic [FineSteps-1:0] pps_word;
  pps_ser u_pps_ser (.clk_i, .rst_ni, .pps_i(pps), .pps_fine_i(pps_fine), .word_o(pps_word), .pin_o(pps_pin_o));

  // ================================================================ switch outputs + PPS lane
  logic [GtLanes*32-1:0] gt_tx_data;
  logic [GtLanes-1:0]    gt_refclk, gt_txp, gt_txn, gt_cplllock, gt_powergood, gt_txoutclk, gt_txpmaresetdone;
  logic gt_tx_done, gt_bypass_done, gt_bypass_error;

  for (genvar p = 0; p < GtLanes; p++) begin : g_lane
    localparam int Core = GtIndex[p];
    if (p < Ports) begin : g_gate
      assign gt_tx_data[Core*32+:32] = gate_ser[p*FineSteps+:FineSteps];
      assign gate_txp[p] = gt_txp[Core];
      assign gate_txn[p] = gt_txn[Core];
    end else begin : g_pps
      assign gt_tx_data[Core*32+:32] = pps_word;
      assign pps_txp = gt_txp[Core];
      assign pps_txn = gt_txn[Core];
    end
    assign gt_refclk[p] = (p < GtFirstHpc0) ? refclk_hpc1 : refclk_hpc0;
  end

  lightrail_gth_tx u_gth_tx (
    .gtwiz_userclk_tx_active_in        (rst_ni),
    .gtwiz_buffbypass_tx_reset_in      (!gt_tx_done),
    .gtwiz_buffbypass_tx_start_user_in (1'b0),
    .gtwiz_buffbypass_tx_done_out      (gt_bypass_done),
    .gtwiz_buffbypass_tx_error_out     (gt_bypass_error),
    .gtwiz_reset_clk_freerun_in        (ap_clk),
    .gtwiz_reset_all_in                (!ap_rst_sync_n),
    .gtwiz_reset_tx_pll_and_datapath_in(1'b0),
    .gtwiz_reset_tx_datapath_in        (1'b0),
    .gtwiz_reset_tx_done_out           (gt_tx_done),
    .gtwiz_userdata_tx_in              (gt_tx_data),
    .drpclk_in                         ({GtLanes{ap_clk}}),
    .gtrefclk0_in                      (gt_refclk),
    .txusrclk_in                       ({GtLanes{clk_i}}),
    .txusrclk2_in                      ({GtLanes{clk_i}}),
    .cplllock_out                      (gt_cplllock),
    .gthtxn_out                        (gt_txn),
    .gthtxp_out                        (gt_txp),
    .gtpowergood_out                   (gt_powergood),
    .txoutclk_out                      (gt_txoutclk),
    .txpmaresetdone_out                (gt_txpmaresetdone)
  );

  // ================================================================ fibre timing link (SFP0)
  // Receiver and transmitter on the same CPLL reference as the gates; the
  // recovered clock (8 Gb/s / 32 = 250 MHz) is clk_rx, the DDMTD's reference.
  // RAW 32-bit words both ways (SYNC_LINK_WORD_BITS), framed by the top's
  // message engine; its receive side runs on clk_rx, reset until the
  // receiver's PMA is up.
  logic link_rxoutclk, link_rxpmaresetdone, link_txpmaresetdone;

  BUFG_GT u_rx_bufg (
    .I(link_rxoutclk), .CE(1'b1), .CEMASK(1'b0), .CLR(!link_rxpmaresetdone), .CLRMASK(1'b0), .DIV(3'd0),
    .O(clk_rx)
  );
  reset_sync u_rst_rx (.clk_i(clk_rx), .arst_ni(link_rxpmaresetdone), .rst_no(link_rx_active));

  lightrail_gth_link u_gth_link (
    .gtwiz_userclk_tx_active_in        (rst_ni),
    .gtwiz_userclk_rx_active_in        (link_rx_active),
    .gtwiz_buffbypass_tx_reset_in      (!link_tx_done),
    .gtwiz_buffbypass_tx_start_user_in (1'b0),
    .gtwiz_buffbypass_tx_done_out      (link_txbyp_done),
    .gtwiz_buffbypass_tx_error_out     (link_txbyp_error),
    .gtwiz_buffbypass_rx_reset_in      (!link_rx_done),
    .gtwiz_buffbypass_rx_start_user_in (1'b0),
    .gtwiz_buffbypass_rx_done_out      (link_rxbyp_done),
    .gtwiz_buffbypass_rx_error_out     (link_rxbyp_error),
    .gtwiz_reset_clk_freerun_in        (ap_clk),
    .gtwiz_reset_all_in                (!ap_rst_sync_n),
    .gtwiz_reset_tx_pll_and_datapath_in(1'b0),
    .gtwiz_reset_tx_datapath_in        (1'b0),
    .gtwiz_reset_rx_pll_and_datapath_in(1'b0),
    .gtwiz_reset_rx_datapath_in        (1'b0),
    .gtwiz_reset_rx_cdr_stable_out     (link_cdr_stable),
    .gtwiz_reset_tx_done_out           (link_tx_done),
    .gtwiz_reset_rx_done_out           (link_rx_done),
    .gtwiz_userdata_tx_in              (link_tx_word),
    .gtwiz_userdata_rx_out             (link_rx_word),
    .drpclk_in                         (ap_clk),
    .gtrefclk0_in                      (refclk_hpc0),
    .gthrxn_in                         (link_rxn),
    .gthrxp_in                         (link_rxp),
    .txusrclk_in                       (clk_i),
    .txusrclk2_in                      (clk_i),
    .rxusrclk_in                       (clk_rx),
    .rxusrclk2_in                      (clk_rx),
    .cplllock_out                      (link_cplllock),
    .gthtxn_out                        (link_txn),
    .gthtxp_out                        (link_txp),
    .gtpowergood_out                   (link_powergood),
    .rxoutclk_out                      (link_rxoutclk),
    .rxpmaresetdone_out                (link_rxpmaresetdone),
    .txpmaresetdone_out                (link_txpmaresetdone)
  );

  // SFP transmitters on: high at these pins enables the cages' transmitters
  // (docs/board.md, "Pin verification").
  assign sfp_tx_disable_b = 2'b11;

  // ================================================================ status LEDs
  // Levels for a person at the bench; each from a register in its own domain.
  assign led_o = {
    &gt_cplllock && link_cplllock,                        // 7 every transceiver PLL locked
    rst_dmtd_ni,                                          // 6 DDMTD helper clock running
    pps_pin_o,                                            // 5 PPS (visible at 1 s periods)
    seq_status[STATUS_RUNNING_LSB],                       // 4 a schedule is running
    sync_status[SYNC_STATUS_LOCKED_LSB],                  // 3 clock sync locked
    link_rx_done && link_rxbyp_done && link_txbyp_done,   // 2 timing link up
    gt_tx_done && gt_bypass_done && !gt_bypass_error,     // 1 switch outputs up
    rst_ni                                                // 0 clk_i running (MMCM locked)
  };

  // What only waveforms, the ILA or later blocks (the laser-select
  // interface) use.
  logic unused;
  assign unused = ^{refclk_hpc1_div2_unused, dmtd_refclk_unused, down_tx_words_unused, down_aligned_unused,
                    sel, sel_stb, sel_fine, gt_powergood, gt_txoutclk, gt_txpmaresetdone,
                    link_txpmaresetdone, link_powergood, link_txbyp_error, link_rxbyp_error,
                    link_cdr_stable};
endmodule
