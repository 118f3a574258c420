// Board top: the core (hw/lightrail_board_core.sv: the host register file
// and memories, board time, the PPS output, the fine-edge output stages,
// oscillator control) and the timing-link ports (hw/sync_port.sv: the
// message engine and a DDMTD each; docs/hw-clock-sync.md).
// The sequencer kernel
// (hls/sequencer) and the clock-sync servo (hls/clock_sync), both Vitis HLS,
// sit beside this top, not inside it: the sequencer's per-cycle ports
// (hls/sequencer/sequencer_io.hpp) are this module's seq_* ports, the servo's
// registers (ClockSyncConfig in, ClockSyncOut status out), the DDMTD phase,
// the actuators and the servo's other inputs its sync_* ports
// (hls/clock_sync/clock_sync_top.hpp).
module lightrail_board_top #(
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
  parameter int SEQ_KERNEL_LATENCY = lightrail_hwdef_pkg::SEQ_KERNEL_LATENCY,
  // Downstream timing-link ports (hw/sync_port.sv): followers this board
  // serves besides the one on its own link (port 0, when it is the
  // reference there). A wrapper sets what its cages carry (ZCU102: 0).
  parameter int SYNC_DOWN_PORTS = lightrail_hwdef_pkg::SYNC_DOWN_PORTS
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
  output logic [lightrail_hwdef_pkg::SYNC_FLAG_BITS-1:0]                  sync_parent_flags_o,
  output logic [31:0]                                                     sync_cycles_o,
  output logic [31:0]                                                     sync_exchanges_o,
  output logic                                                            sync_exchange_fine_o,
  output logic [63:0]                                                     sync_t1_fs_o,
  output logic [63:0]                                                     sync_t2_fs_o,
  output logic [63:0]                                                     sync_t3_fs_o,
  output logic [63:0]                                                     sync_t4_fs_o,
  output logic [$clog2(lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS)-1:0]     sync_rx_bitslide_o,
  // from the servo: high while it computes an update and reads no input; a
  // SYNC_ERROR clear or a DDMTD phase arriving then is held for it
  input  logic                                                            sync_busy_i,
  // Clock-sync hardware. The DDMTD helper clock, f * N / (N + 1) from a PLL on
  // the board oscillator, with its own reset (synchronous to it, released
  // with rst_ni); the reference clock the link transceiver recovers, with a
  // reset synchronous to it (held while the receiver is down).
  input  logic                                                            clk_dmtd_i,
  input  logic                                                            rst_dmtd_ni,
  input  logic                                                            clk_rx_i,
  input  logic                                                            rst_rx_ni,
  // to the servo: one DDMTD phase per beat (every N + 1 cycles), how far
  // clk_i lags clk_rx_i in units of CLK_PERIOD_PS / N
  output logic                                                            sync_phase_valid_o,
  output logic [lightrail_hwdef_pkg::DDMTD_TAG_BITS-1:0]                  sync_ddmtd_phase_o,
  // The timing link's words (transceiver in RAW mode, bit 0 first): sent
  // on clk_i (TXUSRCLK2), received on clk_rx_i; the sync message engine
  // (hw/sync_link.sv) frames the two-way exchange on them.
  output logic [lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS-1:0]              link_tx_word_o,
  input  logic [lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS-1:0]              link_rx_word_i,
  // The downstream ports' links, port p at [p] (p = 0 is port 1), each on
  // its own transceiver: words sent on clk_i and received on its recovered
  // clock (with a reset synchronous to it), and whether its engine aligned.
  // With SYNC_DOWN_PORTS = 0 they are one unused bit wide.
  output logic [(SYNC_DOWN_PORTS > 0 ? SYNC_DOWN_PORTS : 1)*lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS-1:0] down_tx_words_o,
  input  logic [(SYNC_DOWN_PORTS > 0 ? SYNC_DOWN_PORTS : 1)*lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS-1:0] down_rx_words_i,
  input  logic [(SYNC_DOWN_PORTS > 0 ? SYNC_DOWN_PORTS : 1)-1:0] clk_down_rx_i,
  input  logic [(SYNC_DOWN_PORTS > 0 ? SYNC_DOWN_PORTS : 1)-1:0] rst_down_rx_ni,
  output logic [(SYNC_DOWN_PORTS > 0 ? SYNC_DOWN_PORTS : 1)-1:0] down_aligned_o,
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
  // Board time of the current cycle, as the core counts it (public to the
  // verilated model: benches judge the link against it).
  logic [63:0] board_ticks  /*verilator public_flat_rd*/;

  // ---------------------------------------------------------------- timing-link ports
  // The board's own link (port 0): towards its parent, or a grandmaster's
  // towards its first follower (SYNC_CTRL.REFERENCE). The engine holds the
  // last exchange and counts them: the servo takes the newest at its next
  // update, however late.
  localparam int TagBits = lightrail_hwdef_pkg::DDMTD_TAG_BITS;
  localparam int WordBits = lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS;
  logic               link_phase_valid, link_aligned;
  logic [TagBits-1:0] link_phase;
  logic [31:0]        link_bad_frames;
  logic [31:0]        exchange_period;  // SYNC_EXCHANGE_PERIOD, for every port's Syncs

  sync_port u_own (
    .clk_i,
    .rst_ni,
    .time_i         (board_ticks),
    .time_step_i    (sync_time_step_load_i),
    .sync_ctrl_i    (sync_ctrl_o),
    .sync_status_i,
    .exchange_period_i(exchange_period),
    .clk_dmtd_i,
    .rst_dmtd_ni,
    .tx_word_o      (link_tx_word_o),
    .clk_rx_i,
    .rst_rx_ni,
    .rx_word_i      (link_rx_word_i),
    .phase_valid_o  (link_phase_valid),
    .phase_o        (link_phase),
    .aligned_o      (link_aligned),
    .rx_bitslide_o  (sync_rx_bitslide_o),
    .parent_flags_o (sync_parent_flags_o),
    .bad_frames_o   (link_bad_frames),
    .exchanges_o    (sync_exchanges_o),
    .exchange_fine_o(sync_exchange_fine_o),
    .t1_fs_o        (sync_t1_fs_o),
    .t2_fs_o        (sync_t2_fs_o),
    .t3_fs_o        (sync_t3_fs_o),
    .t4_fs_o        (sync_t4_fs_o)
  );

  // The downstream ports: the reference end of a link each, with this
  // board's time and flags as port 0 sends them. Their exchanges are their
  // followers'; the core shows which aligned (SYNC_DOWN_LINK) and their
  // bad frames together (SYNC_DOWN_BAD_FRAMES), the sum registered so the
  // seven-way add is off the register read path.
  localparam int MaxDownPorts = lightrail_hwdef_pkg::SYNC_DOWN_PORTS;
`ifndef __ICARUS__  // Icarus 11 has no elaboration-time $error
  if (SYNC_DOWN_PORTS < 0 || SYNC_DOWN_PORTS > MaxDownPorts ||
      lightrail_hwdef_pkg::SYNC_DOWN_LINK_ALIGNED_WIDTH != MaxDownPorts)
    $error("SYNC_DOWN_PORTS must be 0..%0d, the SYNC_DOWN_LINK.ALIGNED bits", MaxDownPorts);
`endif
  logic [MaxDownPorts-1:0] down_aligned;
  logic [31:0]             down_bad_frames_q;
  if (SYNC_DOWN_PORTS > 0) begin : g_down
    logic [31:0] bad_frames [SYNC_DOWN_PORTS];
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        down_bad_frames_q <= '0;
      end else begin
        logic [31:0] sum;
        sum = '0;
        for (int p = 0; p < SYNC_DOWN_PORTS; p++) sum += bad_frames[p];
        down_bad_frames_q <= sum;
      end
    end
    assign down_aligned = MaxDownPorts'(down_aligned_o);
    for (genvar p = 0; p < SYNC_DOWN_PORTS; p++) begin : g_port
      logic                                                        phase_valid, fine;
      logic [TagBits-1:0]                                          phase;
      logic [$clog2(WordBits)-1:0]                                 slide;
      logic [lightrail_hwdef_pkg::SYNC_FLAG_BITS-1:0]              parent_flags;
      logic [31:0]                                                 exchanges;
      logic [63:0]                                                 t1, t2, t3, t4;

      sync_port #(.DOWNSTREAM(1'b1)) u_port (
        .clk_i,
        .rst_ni,
        .time_i         (board_ticks),
        .time_step_i    (sync_time_step_load_i),
        .sync_ctrl_i    (sync_ctrl_o),
        .sync_status_i,
        .exchange_period_i(exchange_period),
        .clk_dmtd_i,
        .rst_dmtd_ni,
        .tx_word_o      (down_tx_words_o[p*WordBits+:WordBits]),
        .clk_rx_i       (clk_down_rx_i[p]),
        .rst_rx_ni      (rst_down_rx_ni[p]),
        .rx_word_i      (down_rx_words_i[p*WordBits+:WordBits]),
        .phase_valid_o  (phase_valid),
        .phase_o        (phase),
        .aligned_o      (down_aligned_o[p]),
        .rx_bitslide_o  (slide),
        .parent_flags_o (parent_flags),
        .bad_frames_o   (bad_frames[p]),
        .exchanges_o    (exchanges),
        .exchange_fine_o(fine),
        .t1_fs_o        (t1),
        .t2_fs_o        (t2),
        .t3_fs_o        (t3),
        .t4_fs_o        (t4)
      );
      logic unused_port;
      assign unused_port = ^{phase_valid, phase, slide, parent_flags, exchanges, fine, t1, t2, t3, t4};
    end
  end else begin : g_no_down
    assign down_tx_words_o   = '0;
    assign down_aligned_o    = '0;
    assign down_aligned      = '0;
    assign down_bad_frames_q = '0;
    logic unused_down;
    assign unused_down = ^{down_rx_words_i, clk_down_rx_i, rst_down_rx_ni};
  end

  // ---------------------------------------------------------------- core
  lightrail_board_core #(
    .PPS_PERIOD_TICKS  (PPS_PERIOD_TICKS),
    .BUILD_HASH        (BUILD_HASH),
    .BUILD_TIME        (BUILD_TIME),
    .SEQ_KERNEL_LATENCY(SEQ_KERNEL_LATENCY)
  ) u_core (
    .clk_i                    (clk_i),
    .rst_ni                   (rst_ni),
    .board_id_i               (board_id_i),
    .s_axil_awaddr            (s_axil_awaddr),
    .s_axil_awvalid           (s_axil_awvalid),
    .s_axil_awready           (s_axil_awready),
    .s_axil_wdata             (s_axil_wdata),
    .s_axil_wstrb             (s_axil_wstrb),
    .s_axil_wvalid            (s_axil_wvalid),
    .s_axil_wready            (s_axil_wready),
    .s_axil_bresp             (s_axil_bresp),
    .s_axil_bvalid            (s_axil_bvalid),
    .s_axil_bready            (s_axil_bready),
    .s_axil_araddr            (s_axil_araddr),
    .s_axil_arvalid           (s_axil_arvalid),
    .s_axil_arready           (s_axil_arready),
    .s_axil_rdata             (s_axil_rdata),
    .s_axil_rresp             (s_axil_rresp),
    .s_axil_rvalid            (s_axil_rvalid),
    .s_axil_rready            (s_axil_rready),
    .seq_now_ticks_o          (seq_now_ticks_o),
    .seq_commit_o             (seq_commit_o),
    .seq_cancel_o             (seq_cancel_o),
    .seq_commit_crc_o         (seq_commit_crc_o),
    .seq_commit_at_time_o     (seq_commit_at_time_o),
    .seq_commit_ticks_o       (seq_commit_ticks_o),
    .seq_trigger_o            (seq_trigger_o),
    .seq_trigger_at_o         (seq_trigger_at_o),
    .seq_trigger_ticks_o      (seq_trigger_ticks_o),
    .seq_trigger_jump_o       (seq_trigger_jump_o),
    .seq_trigger_step_o       (seq_trigger_step_o),
    .seq_stop_o               (seq_stop_o),
    .seq_clear_errors_o       (seq_clear_errors_o),
    .seq_bank0_raddr_i        (seq_bank0_raddr_i),
    .seq_bank0_rdata_o        (seq_bank0_rdata_o),
    .seq_bank1_raddr_i        (seq_bank1_raddr_i),
    .seq_bank1_rdata_o        (seq_bank1_rdata_o),
    .seq_tune_we_o            (seq_tune_we_o),
    .seq_tune_addr_o          (seq_tune_addr_o),
    .seq_tune_wdata_o         (seq_tune_wdata_o),
    .seq_status_i             (seq_status_i),
    .seq_errors_i             (seq_errors_i),
    .seq_steps_i              (seq_steps_i),
    .seq_missed_i             (seq_missed_i),
    .seq_cur_step_i           (seq_cur_step_i),
    .seq_cur_config_i         (seq_cur_config_i),
    .seq_generation_i         (seq_generation_i),
    .seq_epochs_i             (seq_epochs_i),
    .seq_swaps_i              (seq_swaps_i),
    .seq_last_swap_i          (seq_last_swap_i),
    .seq_triggered_at_i       (seq_triggered_at_i),
    .seq_triggers_i           (seq_triggers_i),
    .seq_triggered_step_i     (seq_triggered_step_i),
    .seq_sel_valid_i          (seq_sel_valid_i),
    .seq_sel_fine_i           (seq_sel_fine_i),
    .seq_sel_value_i          (seq_sel_value_i),
    .seq_fall_valid_i         (seq_fall_valid_i),
    .seq_fall_fine_i          (seq_fall_fine_i),
    .seq_rise_valid_i         (seq_rise_valid_i),
    .seq_rise_fine_i          (seq_rise_fine_i),
    .gate_ser_o               (gate_ser_o),
    .sel_o                    (sel_o),
    .sel_stb_o                (sel_stb_o),
    .sel_fine_o               (sel_fine_o),
    .sync_ctrl_o              (sync_ctrl_o),
    .sync_cal_delay_ms_ps_o   (sync_cal_delay_ms_ps_o),
    .sync_cal_delay_sm_ps_o   (sync_cal_delay_sm_ps_o),
    .sync_cal_asym_ps_o       (sync_cal_asym_ps_o),
    .sync_kp_o                (sync_kp_o),
    .sync_ki_o                (sync_ki_o),
    .sync_lock_thresh_ps_o    (sync_lock_thresh_ps_o),
    .sync_lock_samples_o      (sync_lock_samples_o),
    .sync_slew_max_ns_per_s_o (sync_slew_max_ns_per_s_o),
    .sync_dac_pull_ppb_o      (sync_dac_pull_ppb_o),
    .sync_phase_step_fs_o     (sync_phase_step_fs_o),
    .sync_exchange_period_o   (exchange_period),
    .sync_clear_errors_o      (sync_clear_errors_o),
    .sync_status_i            (sync_status_i),
    .sync_error_i             (sync_error_i),
    .sync_offset_ps_i         (sync_offset_ps_i),
    .sync_rtt_ps_i            (sync_rtt_ps_i),
    .sync_delay_ms_ps_i       (sync_delay_ms_ps_i),
    .sync_servo_p_ps_i        (sync_servo_p_ps_i),
    .sync_servo_i_ppt_i       (sync_servo_i_ppt_i),
    .sync_dac_i               (sync_dac_i),
    .sync_phase_steps_i       (sync_phase_steps_i),
    .sync_holdover_us_i       (sync_holdover_us_i),
    .sync_link_up_o           (sync_link_up_o),
    .sync_cycles_o            (sync_cycles_o),
    .sync_busy_i              (sync_busy_i),
    .link_phase_valid_i       (link_phase_valid),
    .link_phase_i             (link_phase),
    .link_aligned_i           (link_aligned),
    .link_bitslide_i          (sync_rx_bitslide_o),
    .link_parent_flags_i      (sync_parent_flags_o),
    .link_bad_frames_i        (link_bad_frames),
    .down_aligned_i           (down_aligned),
    .down_bad_frames_i        (down_bad_frames_q),
    .board_ticks_o            (board_ticks),
    .sync_phase_valid_o       (sync_phase_valid_o),
    .sync_ddmtd_phase_o       (sync_ddmtd_phase_o),
    .sync_dac_word_i          (sync_dac_word_i),
    .sync_dac_load_i          (sync_dac_load_i),
    .sync_phase_steps_req_i   (sync_phase_steps_req_i),
    .sync_phase_load_i        (sync_phase_load_i),
    .sync_time_step_i         (sync_time_step_i),
    .sync_time_step_load_i    (sync_time_step_load_i),
    .dac_sclk_o               (dac_sclk_o),
    .dac_sync_no              (dac_sync_no),
    .dac_din_o                (dac_din_o),
    .mmcm_psen_o              (mmcm_psen_o),
    .mmcm_psincdec_o          (mmcm_psincdec_o),
    .mmcm_psdone_i            (mmcm_psdone_i),
    .pps_o                    (pps_o),
    .pps_fine_o               (pps_fine_o),
    .mmcm_locked_i            (mmcm_locked_i),
    .link_up_i                (link_up_i)
  );
endmodule
