// The board top's core: the host register file and memories, board time,
// the PPS output, the fine-edge output stages, oscillator control and the
// servo's glue; everything of the top but its timing-link ports
// (hw/sync_port.sv), which lightrail_board_top wires to it. The co-simulation
// verilates this core and the ports as separate models (docs/cosim.md,
// "The timing link"): a recovered clock's edge then evaluates its port, not
// the whole board.
module lightrail_board_core #(
  // PPS / epoch period in ticks (default 1 us = 8000 ticks of 125 ps); the
  // pulses fall on the multiples of it of board time.
  parameter logic [63:0] PPS_PERIOD_TICKS = 64'd8000,
  // Build ID (CAP_BUILD_HASH_*, CAP_BUILD_TIME): the source commit's first 64
  // bits and the build time in s since the epoch, set by the build (CMake:
  // cmake/lightrail_build_id.cmake); 0 means unknown.
  parameter logic [63:0] BUILD_HASH = 64'd0,
  parameter logic [31:0] BUILD_TIME = 32'd0,
  // Pipeline latency of the synthesised sequencer kernel (hls/sequencer), in
  // cycles from its inputs to its outputs: the kernel is told a time this
  // many cycles ahead of board time, so its edges land where they would
  // with no pipeline (docs/sequencer.md, "Latency").
  parameter int SEQ_KERNEL_LATENCY = lightrail_hwdef_pkg::SEQ_KERNEL_LATENCY
) (
  input  logic                                                            clk_i,
  input  logic                                                            rst_ni,
  // Board index (CAP_BOARD_ID): strapped by the board wrapper (DIP switch,
  // pins or a constant), so one bitstream serves every board of a testbed.
  input  logic [31:0]                                                     board_id_i,
  // AXI4-Lite slave (host), on clk_i
  input  logic [lightrail_hwdef_pkg::AXI_ADDR_BITS-1:0]                   s_axil_awaddr,
  input  logic                                                            s_axil_awvalid,
  output logic                                                            s_axil_awready,
  input  logic [31:0]                                                     s_axil_wdata,
  input  logic [3:0]                                                      s_axil_wstrb,
  input  logic                                                            s_axil_wvalid,
  output logic                                                            s_axil_wready,
  output logic [1:0]                                                      s_axil_bresp,
  output logic                                                            s_axil_bvalid,
  input  logic                                                            s_axil_bready,
  input  logic [lightrail_hwdef_pkg::AXI_ADDR_BITS-1:0]                   s_axil_araddr,
  input  logic                                                            s_axil_arvalid,
  output logic                                                            s_axil_arready,
  output logic [31:0]                                                     s_axil_rdata,
  output logic [1:0]                                                      s_axil_rresp,
  output logic                                                            s_axil_rvalid,
  input  logic                                                            s_axil_rready,
  // to the sequencer kernel
  output logic [63:0]                                                     seq_now_ticks_o,
  output logic                                                            seq_commit_o,
  output logic                                                            seq_cancel_o,
  output logic [31:0]                                                     seq_commit_crc_o,
  output logic                                                            seq_commit_at_time_o,
  output logic [63:0]                                                     seq_commit_ticks_o,
  output logic                                                            seq_trigger_o,
  output logic                                                            seq_trigger_at_o,
  output logic [63:0]                                                     seq_trigger_ticks_o,
  output logic                                                            seq_trigger_jump_o,
  output logic [31:0]                                                     seq_trigger_step_o,
  output logic                                                            seq_stop_o,
  output logic [31:0]                                                     seq_clear_errors_o,
  input  logic [$clog2(lightrail_hwdef_pkg::BANK_LINES)-1:0]              seq_bank0_raddr_i,
  output logic [lightrail_hwdef_pkg::BANK_LINE_WORDS*32-1:0]              seq_bank0_rdata_o,
  input  logic [$clog2(lightrail_hwdef_pkg::BANK_LINES)-1:0]              seq_bank1_raddr_i,
  output logic [lightrail_hwdef_pkg::BANK_LINE_WORDS*32-1:0]              seq_bank1_rdata_o,
  output logic                                                            seq_tune_we_o,
  output logic [$clog2(lightrail_hwdef_pkg::TUNE_ENTRIES)-1:0]            seq_tune_addr_o,
  output logic [15:0]                                                     seq_tune_wdata_o,
  // from the sequencer kernel: status
  input  logic [31:0]                                                     seq_status_i,
  input  logic [31:0]                                                     seq_errors_i,
  input  logic [63:0]                                                     seq_steps_i,
  input  logic [31:0]                                                     seq_missed_i,
  input  logic [31:0]                                                     seq_cur_step_i,
  input  logic [31:0]                                                     seq_cur_config_i,
  input  logic [31:0]                                                     seq_generation_i,
  input  logic [31:0]                                                     seq_epochs_i,
  input  logic [31:0]                                                     seq_swaps_i,
  input  logic [63:0]                                                     seq_last_swap_i,
  input  logic [63:0]                                                     seq_triggered_at_i,
  input  logic [31:0]                                                     seq_triggers_i,
  input  logic [31:0]                                                     seq_triggered_step_i,
  // from the sequencer kernel: port events for the next cycle, port p at [p*W +: W]
  input  logic [lightrail_hwdef_pkg::PORTS-1:0]                           seq_sel_valid_i,
  input  logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::FINE_BITS-1:0] seq_sel_fine_i,
  input  logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::WAVELENGTH_BITS-1:0] seq_sel_value_i,
  input  logic [lightrail_hwdef_pkg::PORTS-1:0]                           seq_fall_valid_i,
  input  logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::FINE_BITS-1:0] seq_fall_fine_i,
  input  logic [lightrail_hwdef_pkg::PORTS-1:0]                           seq_rise_valid_i,
  input  logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::FINE_BITS-1:0] seq_rise_fine_i,
  // board outputs: per port a serializer word (bit k = gate level in tick k),
  // the wavelength select, its change strobe and the tick of the change
  output logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::FINE_STEPS-1:0] gate_ser_o,
  output logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::WAVELENGTH_BITS-1:0] sel_o,
  output logic [lightrail_hwdef_pkg::PORTS-1:0]                           sel_stb_o,
  output logic [lightrail_hwdef_pkg::PORTS*lightrail_hwdef_pkg::FINE_BITS-1:0] sel_fine_o,
  // to the clock-sync servo: the SYNC_* rw registers (levels) and the
  // SYNC_ERROR write-1s (one-cycle mask)
  output logic [31:0]                                                     sync_ctrl_o,
  output logic [31:0]                                                     sync_cal_delay_ms_ps_o,
  output logic [31:0]                                                     sync_cal_delay_sm_ps_o,
  output logic [31:0]                                                     sync_cal_asym_ps_o,
  output logic [31:0]                                                     sync_kp_o,
  output logic [31:0]                                                     sync_ki_o,
  output logic [31:0]                                                     sync_lock_thresh_ps_o,
  output logic [31:0]                                                     sync_lock_samples_o,
  output logic [31:0]                                                     sync_slew_max_ns_per_s_o,
  output logic [31:0]                                                     sync_dac_pull_ppb_o,
  output logic [31:0]                                                     sync_phase_step_fs_o,
  output logic [31:0]                                                     sync_exchange_period_o,  // SYNC_EXCHANGE_PERIOD
  output logic [31:0]                                                     sync_clear_errors_o,
  // from the clock-sync servo: status, layout of the SYNC_* registers
  input  logic [31:0]                                                     sync_status_i,
  input  logic [31:0]                                                     sync_error_i,
  input  logic [31:0]                                                     sync_offset_ps_i,
  input  logic [31:0]                                                     sync_rtt_ps_i,
  input  logic [31:0]                                                     sync_delay_ms_ps_i,
  input  logic [31:0]                                                     sync_servo_p_ps_i,
  input  logic [31:0]                                                     sync_servo_i_ppt_i,
  input  logic [31:0]                                                     sync_dac_i,
  input  logic [31:0]                                                     sync_phase_steps_i,
  input  logic [31:0]                                                     sync_holdover_us_i,
  // to the servo: what it needs besides the registers and the DDMTD
  // (docs/hw-clock-sync.md, "Servo kernel"): this board's own link (link_up_i,
  // synchronised, and the message engine aligned), the reference's clock
  // quality from its frames (SYNC_FLAG_*_BIT),
  // clk_i cycles since reset (its local time; board time steps, this does
  // not), and the message engine's last two-way exchange (t1..t4 in fs,
  // counted: a new count is a new exchange) and the link receiver's bit slide
  output logic                                                            sync_link_up_o,
  output logic [31:0]                                                     sync_cycles_o,
  // from the servo: high while it computes an update and reads no input; a
  // SYNC_ERROR clear or a DDMTD phase arriving then is held for it
  input  logic                                                            sync_busy_i,
  // The board's own timing-link port (hw/sync_port.sv) and what it shows
  // this core, on clk_i: its DDMTD phase (clk_i lags the recovered clock by
  // link_phase_i * CLK_PERIOD_PS / N, one per beat), its engine aligned, the
  // bit slide, the parent's frame flags and the bad-frame count. The ports
  // take board time from board_ticks_o.
  input  logic                                                            link_phase_valid_i,
  input  logic [lightrail_hwdef_pkg::DDMTD_TAG_BITS-1:0]                  link_phase_i,
  input  logic                                                            link_aligned_i,
  input  logic [$clog2(lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS)-1:0]     link_bitslide_i,
  input  logic [lightrail_hwdef_pkg::SYNC_FLAG_BITS-1:0]                  link_parent_flags_i,
  input  logic [31:0]                                                     link_bad_frames_i,
  // The downstream ports (hw/sync_port.sv in the reference role): port k's
  // engine aligned at bit k-1 (0 for ports the top leaves out), and their
  // bad-frame counts summed (SYNC_DOWN_LINK, SYNC_DOWN_BAD_FRAMES).
  input  logic [lightrail_hwdef_pkg::SYNC_DOWN_PORTS-1:0]                 down_aligned_i,
  input  logic [31:0]                                                     down_bad_frames_i,
  output logic [63:0]                                                     board_ticks_o,
  // to the servo: one DDMTD phase per beat (every N + 1 cycles), how far
  // clk_i lags clk_rx_i in units of CLK_PERIOD_PS / N
  output logic                                                            sync_phase_valid_o,
  output logic [lightrail_hwdef_pkg::DDMTD_TAG_BITS-1:0]                  sync_ddmtd_phase_o,
  // from the servo: its actuators (ClockSyncOut.dac_word, .phase_steps), each
  // with a one-cycle load
  input  logic [lightrail_hwdef_pkg::SYNC_DAC_BITS-1:0]                   sync_dac_word_i,
  input  logic                                                            sync_dac_load_i,
  input  logic signed [31:0]                                              sync_phase_steps_req_i,
  input  logic                                                            sync_phase_load_i,
  // ... and its coarse time set (ClockSyncOut.time_step_ticks): ticks added
  // to board time once, in the cycle of the load
  input  logic [63:0]                                                     sync_time_step_i,
  input  logic                                                            sync_time_step_load_i,
  // VCXO tuning DAC (AD5662 3-wire) and MMCM dynamic phase shift (PSCLK = clk_i)
  output logic                                                            dac_sclk_o,
  output logic                                                            dac_sync_no,
  output logic                                                            dac_din_o,
  output logic                                                            mmcm_psen_o,
  output logic                                                            mmcm_psincdec_o,
  input  logic                                                            mmcm_psdone_i,
  // PPS / epoch: high in the cycle whose tick window holds a multiple of
  // PPS_PERIOD_TICKS; pps_fine_o is that boundary's tick within the cycle
  output logic                                                            pps_o,
  output logic [lightrail_hwdef_pkg::FINE_BITS-1:0]                       pps_fine_o,
  // Board health (register HEALTH), asynchronous to clk_i: the wrapper's
  // system-clock MMCM lock and the sync link receiver's lock
  input  logic                                                            mmcm_locked_i,
  input  logic                                                            link_up_i
);
  localparam int Ports = lightrail_hwdef_pkg::PORTS;
  localparam int FineBits = lightrail_hwdef_pkg::FINE_BITS;
  localparam int FineSteps = lightrail_hwdef_pkg::FINE_STEPS;
  localparam int WlBits = lightrail_hwdef_pkg::WAVELENGTH_BITS;
  localparam int BankWordBits = $clog2(lightrail_hwdef_pkg::MEM_BANK0_WORDS);

  // ---------------------------------------------------------------- board time
  // Board time of the current cycle. Public to Verilator: the co-simulation
  // judges the outputs against it, not against the kernel's time.
  logic [63:0] board_ticks  /*verilator public_flat_rd*/;

  time_counter u_time (
    .clk_i,
    .rst_ni,
    .step_i      (sync_time_step_i),
    .step_valid_i(sync_time_step_load_i),
    .ticks_o     (board_ticks)
  );

`ifndef __ICARUS__  // Icarus 11 has no elaboration-time $error
  if (SEQ_KERNEL_LATENCY < 0 || SEQ_KERNEL_LATENCY > lightrail_hwdef_pkg::SEQ_KERNEL_LATENCY_MAX) begin : g_latency_check
    $error("SEQ_KERNEL_LATENCY must be 0..SEQ_KERNEL_LATENCY_MAX");
  end
`endif

  // The kernel's time runs SEQ_KERNEL_LATENCY cycles ahead: what it emits
  // for its window reaches the fine-edge stage that many cycles later, which
  // is when board time reaches that window. The co-simulation runs one
  // verilated model at every latency by writing kernel_latency (public);
  // in hardware it is the constant.
`ifdef VERILATOR
  logic [3:0] kernel_latency  /*verilator public_flat_rw*/ = 4'(SEQ_KERNEL_LATENCY);
`else
  logic [3:0] kernel_latency;  // SEQ_KERNEL_LATENCY is 0..15
  assign kernel_latency = 4'(SEQ_KERNEL_LATENCY);
`endif
  assign seq_now_ticks_o = board_ticks + 64'(kernel_latency) * 64'(FineSteps);

  // ---------------------------------------------------------------- registers
  logic [31:0] regs_sync_clear;  // SYNC_ERROR write-1s, one cycle (to the servo glue below)
  logic [             1:0] bank_en;
  logic                    bank_we;
  logic [BankWordBits-1:0] bank_word;
  logic [             3:0] bank_be;
  logic [            31:0] bank_wdata;
  logic [            31:0] bank0_rdata;
  logic [            31:0] bank1_rdata;

  logic [1:0] health_q;
  cdc_sync #(.WIDTH(2)) u_health_sync (
    .clk_i,
    .rst_ni,
    .d_i({link_up_i, mmcm_locked_i}),
    .q_o(health_q)
  );

  axil_regfile #(
    .BUILD_HASH(BUILD_HASH),
    .BUILD_TIME(BUILD_TIME)
  ) u_regs (
    .clk_i,
    .rst_ni,
    .board_id_i,
    .health_i((health_q[0] ? lightrail_hwdef_pkg::HEALTH_MMCM_LOCKED_MASK : '0) |
              (health_q[1] ? lightrail_hwdef_pkg::HEALTH_LINK_UP_MASK : '0)),
    .s_axil_awaddr,
    .s_axil_awvalid,
    .s_axil_awready,
    .s_axil_wdata,
    .s_axil_wstrb,
    .s_axil_wvalid,
    .s_axil_wready,
    .s_axil_bresp,
    .s_axil_bvalid,
    .s_axil_bready,
    .s_axil_araddr,
    .s_axil_arvalid,
    .s_axil_arready,
    .s_axil_rdata,
    .s_axil_rresp,
    .s_axil_rvalid,
    .s_axil_rready,
    .now_ticks_i(board_ticks),
    .seq_status_i,
    .seq_errors_i,
    .seq_steps_i,
    .seq_missed_i,
    .seq_cur_step_i,
    .seq_cur_config_i,
    .seq_generation_i,
    .seq_epochs_i,
    .seq_swaps_i,
    .seq_last_swap_i,
    .seq_triggered_at_i,
    .seq_triggers_i,
    .seq_triggered_step_i,
    .seq_commit_o,
    .seq_cancel_o,
    .seq_commit_crc_o,
    .seq_commit_at_time_o,
    .seq_commit_ticks_o,
    .seq_trigger_o,
    .seq_trigger_at_o,
    .seq_trigger_ticks_o,
    .seq_trigger_jump_o,
    .seq_trigger_step_o,
    .seq_stop_o,
    .seq_clear_errors_o,
    .seq_tune_we_o,
    .seq_tune_addr_o,
    .seq_tune_wdata_o,
    .bank_en_o(bank_en),
    .bank_we_o(bank_we),
    .bank_word_o(bank_word),
    .bank_be_o(bank_be),
    .bank_wdata_o(bank_wdata),
    .bank0_rdata_i(bank0_rdata),
    .bank1_rdata_i(bank1_rdata),
    .sync_ctrl_o,
    .sync_cal_delay_ms_ps_o,
    .sync_cal_delay_sm_ps_o,
    .sync_cal_asym_ps_o,
    .sync_kp_o,
    .sync_ki_o,
    .sync_lock_thresh_ps_o,
    .sync_lock_samples_o,
    .sync_slew_max_ns_per_s_o,
    .sync_dac_pull_ppb_o,
    .sync_phase_step_fs_o,
    .sync_exchange_period_o,
    .sync_clear_errors_o(regs_sync_clear),
    .sync_status_i,
    .sync_error_i,
    .sync_offset_ps_i,
    .sync_rtt_ps_i,
    .sync_delay_ms_ps_i,
    .sync_servo_p_ps_i,
    .sync_servo_i_ppt_i,
    .sync_dac_i,
    .sync_phase_steps_i,
    .sync_holdover_us_i,
    .sync_link_i           (sync_link_reg),
    .sync_link_bad_frames_i(link_bad_frames),
    .sync_down_link_i      (32'(down_aligned_i) << lightrail_hwdef_pkg::SYNC_DOWN_LINK_ALIGNED_LSB),
    .sync_down_bad_frames_i(down_bad_frames_i)
  );

  // ---------------------------------------------------------------- PPS / epoch
  // Taken from board time, so boards on one synchronised time base pulse on
  // the same boundary. The boundary itself and the alignment state are not
  // needed outside: the pulse and its fine tick are the board output.
  logic [63:0] pps_time;
  logic        pps_aligned;
  logic        pps_period_error;

  pps_out u_pps (
    .clk_i,
    .rst_ni,
    .time_i        (board_ticks),
    .enable_i      (1'b1),
    .period_i      (PPS_PERIOD_TICKS),
    .pps_o,
    .pps_fine_o,
    .pps_time_o    (pps_time),
    .aligned_o     (pps_aligned),
    .period_error_o(pps_period_error)
  );

  logic unused_pps;
  assign unused_pps = ^{pps_time, pps_aligned, pps_period_error};

  // ---------------------------------------------------------------- clock sync
  localparam int TagBits = lightrail_hwdef_pkg::DDMTD_TAG_BITS;
  logic               dmtd_valid;
  logic [TagBits-1:0] dmtd_phase;
  assign dmtd_valid = link_phase_valid_i;
  assign dmtd_phase = link_phase_i;
  assign board_ticks_o = board_ticks;

  // ---------------------------------------------------------------- servo glue
  // The servo kernel reads its inputs only between updates (sync_busy_i
  // low; an update takes SYNC_KERNEL_LATENCY cycles). A SYNC_ERROR clear
  // (one cycle from the register file) or a DDMTD phase (one cycle per
  // beat) arriving while it is busy is held here and presented in the first
  // cycle it is free: clears OR together, the newest phase wins. With
  // sync_busy_i low both pass straight through.
  logic [31:0]        clear_held_q;
  logic               phase_held_q;
  logic [TagBits-1:0] phase_held_value_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      clear_held_q       <= '0;
      phase_held_q       <= 1'b0;
      phase_held_value_q <= '0;
    end else if (sync_busy_i) begin
      clear_held_q <= clear_held_q | regs_sync_clear;
      if (dmtd_valid) begin
        phase_held_q       <= 1'b1;
        phase_held_value_q <= dmtd_phase;
      end
    end else begin
      clear_held_q <= '0;
      phase_held_q <= 1'b0;
    end
  end

  assign sync_clear_errors_o = sync_busy_i ? '0 : regs_sync_clear | clear_held_q;
  assign sync_phase_valid_o  = !sync_busy_i && (dmtd_valid || phase_held_q);
  assign sync_ddmtd_phase_o  = (dmtd_valid || !phase_held_q) ? dmtd_phase : phase_held_value_q;

  // The servo's local time: clk_i cycles since reset, wrapping (it takes
  // differences over at most a few beats).
  logic [31:0] cycles_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) cycles_q <= '0;
    else cycles_q <= cycles_q + 32'd1;
  end
  assign sync_cycles_o  = cycles_q;

  // ---------------------------------------------------------------- timing link
  // SYNC_LINK as the board's own port shows it. This board's own link is
  // up when the transceiver is and the engine aligned; whether the
  // reference's time is worth following is its frames' flags, which the
  // servo judges (SYNC_ERROR tells REF_LOST, this link, from PARENT_LOST,
  // the reference: docs/clock-sync.md).
  logic [31:0] link_bad_frames, sync_link_reg;
  assign link_bad_frames = link_bad_frames_i;
  assign sync_link_reg =
      (link_aligned_i ? lightrail_hwdef_pkg::SYNC_LINK_ALIGNED_MASK : '0) |
      (32'(link_parent_flags_i[lightrail_hwdef_pkg::SYNC_FLAG_LOCKED_BIT]) <<
       lightrail_hwdef_pkg::SYNC_LINK_PARENT_LOCKED_LSB) |
      (32'(link_parent_flags_i[lightrail_hwdef_pkg::SYNC_FLAG_TIME_VALID_BIT]) <<
       lightrail_hwdef_pkg::SYNC_LINK_PARENT_TIME_VALID_LSB) |
      (32'(link_parent_flags_i[lightrail_hwdef_pkg::SYNC_FLAG_HOLDOVER_BIT]) <<
       lightrail_hwdef_pkg::SYNC_LINK_PARENT_HOLDOVER_LSB) |
      (32'(link_bitslide_i) << lightrail_hwdef_pkg::SYNC_LINK_BITSLIDE_LSB);
  assign sync_link_up_o = health_q[1] && link_aligned_i;

  logic               dac_busy, dac_done, ps_timeout;
  logic signed [31:0] ps_pending, ps_done_total;

  osc_ctrl u_osc (
    .clk_i,
    .rst_ni,
    .dac_word_i        (sync_dac_word_i),
    .dac_load_i        (sync_dac_load_i),
    .dac_sclk_o,
    .dac_sync_no,
    .dac_din_o,
    .dac_busy_o        (dac_busy),
    .dac_done_o        (dac_done),
    .phase_steps_i     (sync_phase_steps_req_i),
    .phase_load_i      (sync_phase_load_i),
    .psen_o            (mmcm_psen_o),
    .psincdec_o        (mmcm_psincdec_o),
    .psdone_i          (mmcm_psdone_i),
    .steps_pending_o   (ps_pending),
    .steps_done_total_o(ps_done_total),
    .ps_timeout_o      (ps_timeout)
  );

  // The servo reports through its own SYNC_* status; these are for
  // waveforms and the ILA.
  logic unused_sync;
  assign unused_sync = ^{dac_busy, dac_done, ps_timeout, ps_pending, ps_done_total};

  // ---------------------------------------------------------------- bank memories
  bank_ram u_bank0 (
    .clk_i,
    .a_en_i(bank_en[0]),
    .a_we_i(bank_we),
    .a_word_i(bank_word),
    .a_be_i(bank_be),
    .a_wdata_i(bank_wdata),
    .a_rdata_o(bank0_rdata),
    .b_line_i(seq_bank0_raddr_i),
    .b_rdata_o(seq_bank0_rdata_o)
  );

  bank_ram u_bank1 (
    .clk_i,
    .a_en_i(bank_en[1]),
    .a_we_i(bank_we),
    .a_word_i(bank_word),
    .a_be_i(bank_be),
    .a_wdata_i(bank_wdata),
    .a_rdata_o(bank1_rdata),
    .b_line_i(seq_bank1_raddr_i),
    .b_rdata_o(seq_bank1_rdata_o)
  );

  // ---------------------------------------------------------------- fine-edge outputs
  for (genvar p = 0; p < Ports; p++) begin : g_port
    fine_edge_stage u_edge (
      .clk_i,
      .rst_ni,
      .sel_valid_i (seq_sel_valid_i[p]),
      .sel_fine_i  (seq_sel_fine_i[p*FineBits+:FineBits]),
      .sel_value_i (seq_sel_value_i[p*WlBits+:WlBits]),
      .fall_valid_i(seq_fall_valid_i[p]),
      .fall_fine_i (seq_fall_fine_i[p*FineBits+:FineBits]),
      .rise_valid_i(seq_rise_valid_i[p]),
      .rise_fine_i (seq_rise_fine_i[p*FineBits+:FineBits]),
      .gate_ser_o  (gate_ser_o[p*FineSteps+:FineSteps]),
      .sel_o       (sel_o[p*WlBits+:WlBits]),
      .sel_stb_o   (sel_stb_o[p]),
      .sel_fine_o  (sel_fine_o[p*FineBits+:FineBits])
    );
  end
endmodule
