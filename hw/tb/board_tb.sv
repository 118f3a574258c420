// Icarus test bench of lightrail_board_top alone, without the sequencer:
// the bench drives the seq_* status and event inputs itself.
//
// Phase 1 checks the host interface through AXI4-Lite (capabilities, tune
// table, banks, error flags, latched 64-bit reads) and a few directed
// fine-edge words, then the SYNC_* block of the clock-sync servo (reset
// values, write/readback to the sync_*_o ports, status inputs, SYNC_ERROR
// rw1c). Throughout, every PPS pulse is checked to sit on a multiple of the
// period with consecutive pulses one period apart. Phase 2 runs +cycles=N cycles (default 100000) of a fixed
// event pattern (every 4 cycles each port changes wavelength with a fall and
// a rise) and checks a few serializer words; it is the workload of the
// Icarus vs Verilator speed comparison, so nothing is printed per cycle.
// The last line is always "TB_DONE cycles=<N> errors=<E>".
//
// No `timescale: the bench counts cycles only (one clock = 4 time units).
module board_tb;
  localparam int AddrBits = lightrail_hwdef_pkg::AXI_ADDR_BITS;
  localparam int Ports = lightrail_hwdef_pkg::PORTS;
  localparam int FineBits = lightrail_hwdef_pkg::FINE_BITS;
  localparam int FineSteps = lightrail_hwdef_pkg::FINE_STEPS;
  localparam int WlBits = lightrail_hwdef_pkg::WAVELENGTH_BITS;
  localparam int Wavelengths = lightrail_hwdef_pkg::WAVELENGTHS;
  localparam int LineBits = $clog2(lightrail_hwdef_pkg::BANK_LINES);
  localparam int LineWidth = lightrail_hwdef_pkg::BANK_LINE_WORDS * 32;
  localparam int TuneBits = $clog2(lightrail_hwdef_pkg::TUNE_ENTRIES);
  localparam logic [31:0] BoardId = 32'd7;
  localparam logic [1:0] RespOkay = 2'b00;
  localparam logic [1:0] RespSlvErr = 2'b10;
  localparam logic [1:0] RespDecErr = 2'b11;
  localparam logic [31:0] TokenA = 32'hA11C_E001;
  localparam logic [31:0] TokenB = 32'hB0B0_0002;
  localparam int Timeout = 64;  // cycles an AXI handshake may take

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #2 clk = ~clk;

  // AXI4-Lite master side
  logic [AddrBits-1:0] awaddr = '0;
  logic awvalid = 1'b0;
  logic awready;
  logic [31:0] wdata = '0;
  logic [3:0] wstrb = '0;
  logic wvalid = 1'b0;
  logic wready;
  logic [1:0] bresp;
  logic bvalid;
  logic [AddrBits-1:0] araddr = '0;
  logic arvalid = 1'b0;
  logic arready;
  logic [31:0] rdata;
  logic [1:0] rresp;
  logic rvalid;

  // kernel side
  logic [63:0] now_ticks;  // the kernel's time: board time + the kernel's latency
  logic [63:0] board_ticks;
  assign board_ticks = now_ticks - 64'(lightrail_hwdef_pkg::SEQ_KERNEL_LATENCY * lightrail_hwdef_pkg::FINE_STEPS);
  logic commit, cancel, commit_at_time, trigger, stop;
  logic [31:0] commit_crc;
  logic trigger_at;
  logic [63:0] trigger_ticks;
  logic [63:0] triggered_at = '0;
  logic [63:0] commit_ticks;
  logic [31:0] clear_errors;
  logic [LineBits-1:0] bank0_raddr = '0, bank1_raddr = '0;
  logic [LineWidth-1:0] bank0_rdata, bank1_rdata;
  logic tune_we;
  logic [TuneBits-1:0] tune_addr;
  logic [15:0] tune_wdata;
  logic [31:0] status = '0, errors_in = '0;
  logic [63:0] steps = '0, last_swap = '0;
  logic [Ports-1:0] sel_valid = '0, fall_valid = '0, rise_valid = '0;
  logic [Ports*FineBits-1:0] sel_fine = '0, fall_fine = '0, rise_fine = '0;
  logic [Ports*WlBits-1:0] sel_value = '0;
  logic [Ports*FineSteps-1:0] gate_ser;
  logic [Ports*WlBits-1:0] sel;
  logic [Ports-1:0] sel_stb;
  logic [Ports*FineBits-1:0] sel_fine_out;

  // clock-sync servo side
  localparam logic [63:0] PpsPeriod = 64'd8000;  // the top's default: 1 us
  logic [31:0] sync_ctrl, sync_cal_delay_ms, sync_cal_delay_sm, sync_cal_asym, sync_kp, sync_ki;
  logic [31:0] sync_lock_thresh, sync_lock_samples, sync_slew_max, sync_dac_pull, sync_phase_step;
  logic [31:0] sync_clear_errors;
  logic [31:0] sync_status = '0, sync_error = '0, sync_offset = '0, sync_rtt = '0;
  logic pps;
  logic [FineBits-1:0] pps_fine;
  localparam int SlideBits = $clog2(lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS);
  logic sync_busy = 1'b0, sync_link_up;
  logic [lightrail_hwdef_pkg::SYNC_FLAG_BITS-1:0] sync_parent_flags;
  logic [SlideBits-1:0] sync_bitslide;
  // The timing link looped back onto the board itself, on clk_i, in phase 1
  // (the message engine's own bench is tests/hw_sync/sync_link_test.cpp);
  // stopped in phase 2, as in the co-simulation, whose link is modelled.
  logic loop_on = 1'b1;
  logic [31:0] link_word;
  logic [31:0] sync_cycles, sync_exchanges;
  logic        sync_exchange_fine;
  logic [63:0] sync_t1, sync_t2, sync_t3, sync_t4;

  // No downstream ports: the co-simulation's top has none either, so the
  // bench's speed figure compares the same logic (sim/bench.cpp).
  lightrail_board_top #(.SYNC_DOWN_PORTS(0)) dut (
    .clk_i               (clk),
    .rst_ni              (rst_n),
    .board_id_i          (BoardId),
    .s_axil_awaddr       (awaddr),
    .s_axil_awvalid      (awvalid),
    .s_axil_awready      (awready),
    .s_axil_wdata        (wdata),
    .s_axil_wstrb        (wstrb),
    .s_axil_wvalid       (wvalid),
    .s_axil_wready       (wready),
    .s_axil_bresp        (bresp),
    .s_axil_bvalid       (bvalid),
    .s_axil_bready       (1'b1),
    .s_axil_araddr       (araddr),
    .s_axil_arvalid      (arvalid),
    .s_axil_arready      (arready),
    .s_axil_rdata        (rdata),
    .s_axil_rresp        (rresp),
    .s_axil_rvalid       (rvalid),
    .s_axil_rready       (1'b1),
    .seq_now_ticks_o     (now_ticks),
    .seq_commit_o        (commit),
    .seq_cancel_o        (cancel),
    .seq_commit_crc_o    (commit_crc),
    .seq_commit_at_time_o(commit_at_time),
    .seq_commit_ticks_o  (commit_ticks),
    .seq_trigger_o       (trigger),
    .seq_trigger_at_o    (trigger_at),
    .seq_trigger_ticks_o (trigger_ticks),
    .seq_trigger_jump_o  (),
    .seq_trigger_step_o  (),
    .seq_stop_o          (stop),
    .seq_clear_errors_o  (clear_errors),
    .seq_bank0_raddr_i   (bank0_raddr),
    .seq_bank0_rdata_o   (bank0_rdata),
    .seq_bank1_raddr_i   (bank1_raddr),
    .seq_bank1_rdata_o   (bank1_rdata),
    .seq_tune_we_o       (tune_we),
    .seq_tune_addr_o     (tune_addr),
    .seq_tune_wdata_o    (tune_wdata),
    .seq_status_i        (status),
    .seq_errors_i        (errors_in),
    .seq_steps_i         (steps),
    .seq_missed_i        (32'd0),
    .seq_cur_step_i      (32'd0),
    .seq_cur_config_i    (32'd0),
    .seq_generation_i    (32'd0),
    .seq_epochs_i        (32'd0),
    .seq_swaps_i         (32'd0),
    .seq_last_swap_i     (last_swap),
    .seq_triggered_at_i  (triggered_at),
    .seq_triggers_i      (32'd3),
    .seq_triggered_step_i(32'd0),
    .seq_sel_valid_i     (sel_valid),
    .seq_sel_fine_i      (sel_fine),
    .seq_sel_value_i     (sel_value),
    .seq_fall_valid_i    (fall_valid),
    .seq_fall_fine_i     (fall_fine),
    .seq_rise_valid_i    (rise_valid),
    .seq_rise_fine_i     (rise_fine),
    .gate_ser_o          (gate_ser),
    .sel_o               (sel),
    .sel_stb_o           (sel_stb),
    .sel_fine_o          (sel_fine_out),
    .sync_ctrl_o             (sync_ctrl),
    .sync_cal_delay_ms_ps_o  (sync_cal_delay_ms),
    .sync_cal_delay_sm_ps_o  (sync_cal_delay_sm),
    .sync_cal_asym_ps_o      (sync_cal_asym),
    .sync_kp_o               (sync_kp),
    .sync_ki_o               (sync_ki),
    .sync_lock_thresh_ps_o   (sync_lock_thresh),
    .sync_lock_samples_o     (sync_lock_samples),
    .sync_slew_max_ns_per_s_o(sync_slew_max),
    .sync_dac_pull_ppb_o     (sync_dac_pull),
    .sync_phase_step_fs_o    (sync_phase_step),
    .sync_clear_errors_o     (sync_clear_errors),
    .sync_status_i           (sync_status),
    .sync_error_i            (sync_error),
    .sync_offset_ps_i        (sync_offset),
    .sync_rtt_ps_i           (sync_rtt),
    .sync_delay_ms_ps_i      (32'd0),
    .sync_servo_p_ps_i       (32'd0),
    .sync_servo_i_ppt_i      (32'd0),
    .sync_dac_i              (32'h0000_8000),
    .sync_phase_steps_i      (32'd0),
    .sync_holdover_us_i      (32'd0),
    .sync_link_up_o          (sync_link_up),
    .sync_parent_flags_o     (sync_parent_flags),
    .sync_cycles_o           (sync_cycles),
    .sync_exchanges_o        (sync_exchanges),
    .sync_exchange_fine_o    (sync_exchange_fine),
    .sync_t1_fs_o            (sync_t1),
    .sync_t2_fs_o            (sync_t2),
    .sync_t3_fs_o            (sync_t3),
    .sync_t4_fs_o            (sync_t4),
    .sync_rx_bitslide_o      (sync_bitslide),
    .sync_busy_i             (sync_busy),
    // The clock-sync hardware has its own benches (tests/hw_sync): idle here.
    .clk_dmtd_i              (1'b0),
    .rst_dmtd_ni             (1'b0),
    .clk_rx_i                (clk & loop_on),
    .rst_rx_ni               (rst_n),
    .sync_phase_valid_o      (),
    .sync_ddmtd_phase_o      (),
    .link_tx_word_o          (link_word),
    .link_rx_word_i          (link_word),
    .down_tx_words_o         (),
    .down_rx_words_i         (32'd0),
    .clk_down_rx_i           (1'b0),
    .rst_down_rx_ni          (1'b0),
    .down_aligned_o          (),
    .sync_dac_word_i         (16'd0),
    .sync_dac_load_i         (1'b0),
    .sync_phase_steps_req_i  (32'sd0),
    .sync_phase_load_i       (1'b0),
    .sync_time_step_i        (64'd0),
    .sync_time_step_load_i   (1'b0),
    .dac_sclk_o              (),
    .dac_sync_no             (),
    .dac_din_o               (),
    .mmcm_psen_o             (),
    .mmcm_psincdec_o         (),
    .mmcm_psdone_i           (1'b0),
    .pps_o                   (pps),
    .pps_fine_o              (pps_fine),
    .mmcm_locked_i           (1'b1),
    .link_up_i               (1'b0)
  );

  int errors = 0;
  int cycles = 100000;

  // Command outputs seen in the cycle after the last write was taken.
  logic pulse_commit, pulse_cancel, pulse_trigger, pulse_trigger_at, pulse_stop, pulse_tune_we;
  logic [31:0] pulse_clear_errors;
  logic [31:0] pulse_sync_clear_errors;
  logic [TuneBits-1:0] pulse_tune_addr;
  logic [15:0] pulse_tune_wdata;

  task automatic check(input string what, input logic [63:0] got, input logic [63:0] expected);
    if (got !== expected) begin
      errors++;
      $display("TB_ERROR %s: got 0x%0h, expected 0x%0h", what, got, expected);
    end
  endtask

  // Signals are sampled right after a rising edge, before the design's
  // nonblocking updates: what is seen is the value the edge acted on.
  task automatic axi_write(input logic [31:0] addr, input logic [31:0] data, input logic [3:0] strb,
                           output logic [1:0] resp);
    int n;
    awaddr  <= addr[AddrBits-1:0];
    wdata   <= data;
    wstrb   <= strb;
    awvalid <= 1'b1;
    wvalid  <= 1'b1;
    n = 0;
    @(posedge clk);
    while (!(awready && wready) && n < Timeout) begin
      n++;
      @(posedge clk);
    end
    awvalid <= 1'b0;
    wvalid  <= 1'b0;
    @(posedge clk);
    pulse_commit       = commit;
    pulse_cancel       = cancel;
    pulse_trigger      = trigger;
    pulse_trigger_at   = trigger_at;
    pulse_stop         = stop;
    pulse_clear_errors = clear_errors;
    pulse_sync_clear_errors = sync_clear_errors;
    pulse_tune_we      = tune_we;
    pulse_tune_addr    = tune_addr;
    pulse_tune_wdata   = tune_wdata;
    while (!bvalid && n < Timeout) begin
      n++;
      @(posedge clk);
    end
    resp = bresp;
    if (n >= Timeout) begin
      errors++;
      resp = 2'bxx;
      $display("TB_ERROR write 0x%0h: no handshake in %0d cycles", addr, Timeout);
    end
  endtask

  task automatic axi_read(input logic [31:0] addr, output logic [31:0] data, output logic [1:0] resp);
    int n;
    araddr  <= addr[AddrBits-1:0];
    arvalid <= 1'b1;
    n = 0;
    @(posedge clk);
    while (!arready && n < Timeout) begin
      n++;
      @(posedge clk);
    end
    arvalid <= 1'b0;
    @(posedge clk);
    while (!rvalid && n < Timeout) begin
      n++;
      @(posedge clk);
    end
    data = rdata;
    resp = rresp;
    if (n >= Timeout) begin
      errors++;
      resp = 2'bxx;
      $display("TB_ERROR read 0x%0h: no handshake in %0d cycles", addr, Timeout);
    end
  endtask

  task automatic write_ok(input string what, input logic [31:0] addr, input logic [31:0] data);
    logic [1:0] resp;
    axi_write(addr, data, 4'hF, resp);
    check({what, " bresp"}, 64'(resp), 64'(RespOkay));
  endtask

  task automatic write_refused(input string what, input logic [31:0] addr, input logic [31:0] data,
                               input logic [1:0] expected);
    logic [1:0] resp;
    axi_write(addr, data, 4'hF, resp);
    check({what, " bresp"}, 64'(resp), 64'(expected));
  endtask

  task automatic read_expect(input string what, input logic [31:0] addr, input logic [31:0] expected);
    logic [31:0] data;
    logic [ 1:0] resp;
    axi_read(addr, data, resp);
    check({what, " rresp"}, 64'(resp), 64'(RespOkay));
    check(what, 64'(data), 64'(expected));
  endtask

  // Presents one cycle of events on port 0 and checks the word it produces.
  task automatic edge_case(input string what, input logic fall_v, input int fall_f, input logic rise_v,
                           input int rise_f, input logic [31:0] expected);
    @(posedge clk);
    fall_valid[0] <= fall_v;
    fall_fine[FineBits-1:0] <= FineBits'(fall_f);
    rise_valid[0] <= rise_v;
    rise_fine[FineBits-1:0] <= FineBits'(rise_f);
    @(posedge clk);
    fall_valid[0] <= 1'b0;
    rise_valid[0] <= 1'b0;
    @(negedge clk);
    check(what, 64'(gate_ser[FineSteps-1:0]), 64'(expected));
    check({what, " (port 1 untouched)"}, 64'(gate_ser[2*FineSteps-1:FineSteps]), 64'd0);
  endtask

  // Expected outputs of port p in cycle k of the run pattern (k >= 4, so
  // the gate was high before each pattern cycle).
  task automatic check_pattern_outputs(input int k);
    for (int p = 0; p < Ports; p++) begin
      logic [31:0] gate_expected;
      gate_expected = (k % 4 == 0) ? ~(32'h0000FFFF << p) : 32'hFFFFFFFF;
      check($sformatf("cycle %0d port %0d gate_ser", k, p), 64'(gate_ser[p*FineSteps+:FineSteps]),
            64'(gate_expected));
      check($sformatf("cycle %0d port %0d sel", k, p), 64'(sel[p*WlBits+:WlBits]),
            64'((k / 4 + p) % Wavelengths));
      check($sformatf("cycle %0d port %0d sel_stb", k, p), 64'(sel_stb[p]), 64'(k % 4 == 0));
      check($sformatf("cycle %0d port %0d sel_fine", k, p), 64'(sel_fine_out[p*FineBits+:FineBits]),
            64'(p));
    end
  endtask

  // PPS: each pulse's boundary (board time of the cycle + its fine tick) is a
  // multiple of the period, and no boundary is skipped once pulses started.
  int pps_count = 0;
  logic [63:0] pps_last = '0;
  always @(posedge clk) begin
    if (rst_n && pps) begin
      logic [63:0] boundary;
      boundary = board_ticks + 64'(pps_fine);
      check("PPS on a multiple of the period", boundary % PpsPeriod, 64'd0);
      if (pps_count > 0) check("PPS one period after the last", boundary - pps_last, PpsPeriod);
      pps_last = boundary;
      pps_count++;
    end
  end

  initial begin
    logic [31:0] data;
    logic [ 1:0] resp;
    logic [63:0] t;
    int check_a, check_b;

    if (!$value$plusargs("cycles=%d", cycles)) begin
      cycles = 100000;
    end
    repeat (4) @(posedge clk);
    rst_n <= 1'b1;
    @(posedge clk);

    // ---- capability block
    read_expect("CAP_MAGIC", lightrail_hwdef_pkg::REG_CAP_MAGIC, lightrail_hwdef_pkg::CAP_MAGIC_VALUE);
    read_expect("CAP_PORTS", lightrail_hwdef_pkg::REG_CAP_PORTS, lightrail_hwdef_pkg::PORTS);
    read_expect("CAP_BOARD_ID", lightrail_hwdef_pkg::REG_CAP_BOARD_ID, BoardId);

    // ---- tune table: forwarded to the kernel and read back from the shadow
    write_ok("TUNE[5] write", lightrail_hwdef_pkg::MEM_TUNE_BASE + 4 * 5, 32'h0000_1234);
    check("tune_we pulse", 64'(pulse_tune_we), 64'd1);
    check("tune_addr", 64'(pulse_tune_addr), 64'd5);
    check("tune_wdata", 64'(pulse_tune_wdata), 64'h1234);
    write_ok("TUNE[4095] write", lightrail_hwdef_pkg::MEM_TUNE_BASE + 4 * 4095, 32'h0000_00AB);
    read_expect("TUNE[5] readback", lightrail_hwdef_pkg::MEM_TUNE_BASE + 4 * 5, 32'h0000_1234);
    read_expect("TUNE[4095] readback", lightrail_hwdef_pkg::MEM_TUNE_BASE + 4 * 4095, 32'h0000_00AB);
    axi_write(lightrail_hwdef_pkg::MEM_TUNE_BASE + 4 * 6, 32'h1, 4'h1, resp);
    check("TUNE partial write refused", 64'(resp), 64'(RespSlvErr));

    // ---- bank word 7 = line 1, lane 3; host readback and kernel-side line
    write_ok("BANK0[7] write", lightrail_hwdef_pkg::MEM_BANK0_BASE + 4 * 7, 32'hDEAD_BEEF);
    write_ok("BANK0[4] write", lightrail_hwdef_pkg::MEM_BANK0_BASE + 4 * 4, 32'h0404_0404);
    read_expect("BANK0[7] readback", lightrail_hwdef_pkg::MEM_BANK0_BASE + 4 * 7, 32'hDEAD_BEEF);
    axi_write(lightrail_hwdef_pkg::MEM_BANK0_BASE + 4 * 7, 32'h0000_00CC, 4'h1, resp);
    read_expect("BANK0[7] byte write", lightrail_hwdef_pkg::MEM_BANK0_BASE + 4 * 7, 32'hDEAD_BECC);
    bank0_raddr <= LineBits'(1);
    @(posedge clk);
    @(posedge clk);
    check("bank0 line 1 lane 3 (kernel port)", 64'(bank0_rdata[3*32+:32]), 64'hDEAD_BECC);
    check("bank0 line 1 lane 0 (kernel port)", 64'(bank0_rdata[0+:32]), 64'h0404_0404);

    // ---- a write to the bank the running kernel executes is refused and flagged
    status <= lightrail_hwdef_pkg::STATUS_RUNNING_MASK;  // running, active bank 0
    write_refused("BANK0[7] write while active", lightrail_hwdef_pkg::MEM_BANK0_BASE + 4 * 7, 32'h1111_1111,
                  RespSlvErr);
    read_expect("BANK0[7] unchanged", lightrail_hwdef_pkg::MEM_BANK0_BASE + 4 * 7, 32'hDEAD_BECC);
    write_ok("BANK1[7] write while bank 0 active", lightrail_hwdef_pkg::MEM_BANK1_BASE + 4 * 7, 32'h2222_2222);
    read_expect("BANK1[7] readback", lightrail_hwdef_pkg::MEM_BANK1_BASE + 4 * 7, 32'h2222_2222);
    write_refused("TUNE[5] write while running", lightrail_hwdef_pkg::MEM_TUNE_BASE + 4 * 5, 32'h0000_0777,
                  RespSlvErr);
    check("no tune_we while running", 64'(pulse_tune_we), 64'd0);
    read_expect("TUNE[5] unchanged", lightrail_hwdef_pkg::MEM_TUNE_BASE + 4 * 5, 32'h0000_1234);
    // A bank that waits for its swap is locked too: nothing unverified runs.
    status <= lightrail_hwdef_pkg::STATUS_RUNNING_MASK | lightrail_hwdef_pkg::STATUS_COMMIT_PENDING_MASK;
    write_refused("BANK1[7] write while armed", lightrail_hwdef_pkg::MEM_BANK1_BASE + 4 * 7, 32'h3333_3333,
                  RespSlvErr);
    read_expect("BANK1[7] armed, unchanged", lightrail_hwdef_pkg::MEM_BANK1_BASE + 4 * 7, 32'h2222_2222);
    status <= lightrail_hwdef_pkg::STATUS_VERIFY_BUSY_MASK;  // idle, bank 1 being verified
    write_refused("BANK1[7] write while verifying", lightrail_hwdef_pkg::MEM_BANK1_BASE + 4 * 7, 32'h4444_4444,
                  RespSlvErr);
    write_ok("BANK0[7] write while bank 1 verifies (idle)", lightrail_hwdef_pkg::MEM_BANK0_BASE + 4 * 7,
             32'hDEAD_BECC);
    status <= lightrail_hwdef_pkg::STATUS_RUNNING_MASK;
    errors_in <= lightrail_hwdef_pkg::ERROR_BAD_CRC_MASK;
    read_expect("ERROR after locked write", lightrail_hwdef_pkg::REG_ERROR,
                lightrail_hwdef_pkg::ERROR_LOCKED_WRITE_MASK | lightrail_hwdef_pkg::ERROR_BAD_CRC_MASK);
    write_ok("ERROR rw1c", lightrail_hwdef_pkg::REG_ERROR, lightrail_hwdef_pkg::ERROR_LOCKED_WRITE_MASK);
    check("clear_errors pulse (rw1c)", 64'(pulse_clear_errors), 64'(lightrail_hwdef_pkg::ERROR_LOCKED_WRITE_MASK));
    read_expect("ERROR after rw1c", lightrail_hwdef_pkg::REG_ERROR, lightrail_hwdef_pkg::ERROR_BAD_CRC_MASK);
    status <= '0;
    errors_in <= '0;
    write_ok("CTRL.CLEAR_ERRORS", lightrail_hwdef_pkg::REG_CTRL, lightrail_hwdef_pkg::CTRL_CLEAR_ERRORS_MASK);
    check("clear_errors pulse (CTRL)", 64'(pulse_clear_errors), 64'hFFFF_FFFF);

    // ---- lease: one writer at a time; COMMIT and CANCEL carry its token
    read_expect("LEASE_OWNER free", lightrail_hwdef_pkg::REG_LEASE_OWNER, 32'd0);
    read_expect("LEASE_TTL_MS reset", lightrail_hwdef_pkg::REG_LEASE_TTL_MS,
                lightrail_hwdef_pkg::LEASE_DEFAULT_TTL_MS);
    write_refused("COMMIT without a lease", lightrail_hwdef_pkg::REG_COMMIT, TokenA, RespSlvErr);
    check("no commit pulse without a lease", 64'(pulse_commit), 64'd0);
    write_refused("LEASE_CLAIM of token 0", lightrail_hwdef_pkg::REG_LEASE_CLAIM, 32'd0, RespSlvErr);
    write_ok("LEASE_CLAIM A", lightrail_hwdef_pkg::REG_LEASE_CLAIM, TokenA);
    read_expect("LEASE_OWNER A", lightrail_hwdef_pkg::REG_LEASE_OWNER, TokenA);
    write_refused("LEASE_CLAIM B while A holds it", lightrail_hwdef_pkg::REG_LEASE_CLAIM, TokenB, RespSlvErr);
    read_expect("LEASE_OWNER still A", lightrail_hwdef_pkg::REG_LEASE_OWNER, TokenA);
    write_ok("LEASE_CLAIM A renews", lightrail_hwdef_pkg::REG_LEASE_CLAIM, TokenA);
    write_refused("LEASE_RELEASE by B", lightrail_hwdef_pkg::REG_LEASE_RELEASE, TokenB, RespSlvErr);
    axi_read(lightrail_hwdef_pkg::REG_LEASE_EXPIRES_LO, data, resp);
    t[31:0] = data;
    axi_read(lightrail_hwdef_pkg::REG_LEASE_EXPIRES_HI, data, resp);
    t[63:32] = data;
    check("LEASE_EXPIRES about TTL ahead", 64'(t > board_ticks && t <= board_ticks +
          64'(lightrail_hwdef_pkg::LEASE_DEFAULT_TTL_MS) * (64'd1000000000 / lightrail_hwdef_pkg::TICK_PS)), 64'd1);

    // ---- commit: time, mode and CRC are levels, COMMIT a one-cycle pulse
    write_ok("COMMIT_TIME_LO", lightrail_hwdef_pkg::REG_COMMIT_TIME_LO, 32'h89AB_CDEF);
    write_ok("COMMIT_TIME_HI", lightrail_hwdef_pkg::REG_COMMIT_TIME_HI, 32'h0123_4567);
    write_ok("COMMIT_MODE", lightrail_hwdef_pkg::REG_COMMIT_MODE, lightrail_hwdef_pkg::COMMIT_MODE_AT_TIME_MASK);
    write_ok("COMMIT_CRC", lightrail_hwdef_pkg::REG_COMMIT_CRC, 32'hC0FF_EE11);
    write_refused("COMMIT with B's token", lightrail_hwdef_pkg::REG_COMMIT, TokenB, RespSlvErr);
    check("no commit pulse for B", 64'(pulse_commit), 64'd0);
    status <= '0;  // idle, bank 0 active
    write_ok("COMMIT with A's token", lightrail_hwdef_pkg::REG_COMMIT, TokenA);
    check("commit pulse", 64'(pulse_commit), 64'd1);
    // Before the kernel's status shows VERIFY_BUSY, the settle hold locks bank 1.
    write_refused("BANK1 write right after COMMIT", lightrail_hwdef_pkg::MEM_BANK1_BASE + 4 * 7, 32'h5555_5555,
                  RespSlvErr);
    check("commit pulse is one cycle", 64'(commit), 64'd0);
    check("commit_ticks", commit_ticks, 64'h0123_4567_89AB_CDEF);
    check("commit_at_time", 64'(commit_at_time), 64'd1);
    check("commit_crc", 64'(commit_crc), 64'hC0FF_EE11);
    read_expect("COMMIT_TIME_HI readback", lightrail_hwdef_pkg::REG_COMMIT_TIME_HI, 32'h0123_4567);
    read_expect("COMMIT_CRC readback", lightrail_hwdef_pkg::REG_COMMIT_CRC, 32'hC0FF_EE11);
    read_expect("BANK1[7] kept through the commit", lightrail_hwdef_pkg::MEM_BANK1_BASE + 4 * 7, 32'h2222_2222);
    write_refused("CANCEL with B's token", lightrail_hwdef_pkg::REG_CANCEL, TokenB, RespSlvErr);
    check("no cancel pulse for B", 64'(pulse_cancel), 64'd0);
    write_ok("CANCEL with A's token", lightrail_hwdef_pkg::REG_CANCEL, TokenA);
    check("cancel pulse", 64'(pulse_cancel), 64'd1);
    write_ok("LEASE_BREAK by B", lightrail_hwdef_pkg::REG_LEASE_BREAK, TokenB);
    read_expect("LEASE_OWNER B after the break", lightrail_hwdef_pkg::REG_LEASE_OWNER, TokenB);
    write_refused("COMMIT by A after the break", lightrail_hwdef_pkg::REG_COMMIT, TokenA, RespSlvErr);
    write_ok("LEASE_RELEASE by B", lightrail_hwdef_pkg::REG_LEASE_RELEASE, TokenB);
    read_expect("LEASE_OWNER free again", lightrail_hwdef_pkg::REG_LEASE_OWNER, 32'd0);
    // Expiry: a 1 ms lease is free again 1 ms of board time later.
    write_ok("LEASE_TTL_MS 0 (clamped to 1)", lightrail_hwdef_pkg::REG_LEASE_TTL_MS, 32'd0);
    read_expect("LEASE_TTL_MS clamped", lightrail_hwdef_pkg::REG_LEASE_TTL_MS, 32'd1);
    write_ok("LEASE_CLAIM A (1 ms)", lightrail_hwdef_pkg::REG_LEASE_CLAIM, TokenA);
    repeat (250010) @(posedge clk);
    read_expect("LEASE_OWNER after expiry", lightrail_hwdef_pkg::REG_LEASE_OWNER, 32'd0);
    write_ok("LEASE_CLAIM B after A expired", lightrail_hwdef_pkg::REG_LEASE_CLAIM, TokenB);
    write_ok("LEASE_RELEASE B", lightrail_hwdef_pkg::REG_LEASE_RELEASE, TokenB);

    // ---- timed trigger: the time is a level, TRIGGER_AT a pulse; the resolved
    // boundary reads back with LO latching HI
    write_ok("TRIGGER_TIME_LO", lightrail_hwdef_pkg::REG_TRIGGER_TIME_LO, 32'h0000_4000);
    write_ok("TRIGGER_TIME_HI", lightrail_hwdef_pkg::REG_TRIGGER_TIME_HI, 32'h0000_0002);
    write_ok("CTRL.TRIGGER_AT", lightrail_hwdef_pkg::REG_CTRL, lightrail_hwdef_pkg::CTRL_TRIGGER_AT_MASK);
    check("trigger_at pulse", 64'(pulse_trigger_at), 64'd1);
    check("no immediate trigger with TRIGGER_AT", 64'(pulse_trigger), 64'd0);
    check("trigger_ticks", trigger_ticks, 64'h0000_0002_0000_4000);
    triggered_at <= 64'h0000_0002_0000_4000;
    read_expect("TRIGGERED_AT_LO", lightrail_hwdef_pkg::REG_TRIGGERED_AT_LO, 32'h0000_4000);
    triggered_at <= '0;
    read_expect("TRIGGERED_AT_HI latched", lightrail_hwdef_pkg::REG_TRIGGERED_AT_HI, 32'h0000_0002);
    read_expect("TRIGGERS", lightrail_hwdef_pkg::REG_TRIGGERS, 32'd3);

    // ---- reading LO latches HI
    steps <= 64'h0000_0005_FFFF_FFFF;
    read_expect("STEPS_LO", lightrail_hwdef_pkg::REG_STEPS_LO, 32'hFFFF_FFFF);
    steps <= 64'h0000_0006_0000_0000;
    read_expect("STEPS_HI latched", lightrail_hwdef_pkg::REG_STEPS_HI, 32'h0000_0005);
    axi_read(lightrail_hwdef_pkg::REG_TIME_LO, data, resp);
    t[31:0] = data;
    axi_read(lightrail_hwdef_pkg::REG_TIME_HI, data, resp);
    t[63:32] = data;
    check("TIME is whole cycles", t % FineSteps, 64'd0);
    check("TIME is counting", 64'(t != 0 && t < board_ticks), 64'd1);

    // ---- bad addresses
    axi_read(32'h0000_00F0, data, resp);
    check("unmapped read", 64'(resp), 64'(RespDecErr));
    axi_read(lightrail_hwdef_pkg::MEM_TUNE_BASE + 4 * lightrail_hwdef_pkg::MEM_TUNE_WORDS, data, resp);
    check("read past TUNE", 64'(resp), 64'(RespDecErr));
    axi_write(32'h0000_00F0, 32'h0, 4'hF, resp);
    check("unmapped write", 64'(resp), 64'(RespDecErr));
    axi_write(lightrail_hwdef_pkg::REG_CAP_MAGIC, 32'h0, 4'hF, resp);
    check("write to read-only", 64'(resp), 64'(RespSlvErr));

    // ---- SYNC_* block: reset values are the servo's defaults, on the ports too
    read_expect("SYNC_CTRL reset", lightrail_hwdef_pkg::REG_SYNC_CTRL,
                lightrail_hwdef_pkg::SYNC_CTRL_USE_DDMTD_MASK);
    check("sync_ctrl_o reset (servo off)", 64'(sync_ctrl), 64'(lightrail_hwdef_pkg::SYNC_CTRL_USE_DDMTD_MASK));
    read_expect("SYNC_KP reset", lightrail_hwdef_pkg::REG_SYNC_KP, lightrail_hwdef_pkg::SYNC_DEFAULT_KP_Q16);
    read_expect("SYNC_LOCK_SAMPLES reset", lightrail_hwdef_pkg::REG_SYNC_LOCK_SAMPLES,
                lightrail_hwdef_pkg::SYNC_DEFAULT_LOCK_SAMPLES);
    read_expect("SYNC_PHASE_STEP_FS reset", lightrail_hwdef_pkg::REG_SYNC_PHASE_STEP_FS,
                lightrail_hwdef_pkg::SYNC_DEFAULT_PHASE_STEP_FS);
    read_expect("SYNC_CAL_ASYM_PS reset", lightrail_hwdef_pkg::REG_SYNC_CAL_ASYM_PS, 32'd0);
    check("sync_ki_o reset", 64'(sync_ki), 64'(lightrail_hwdef_pkg::SYNC_DEFAULT_KI_Q16));
    check("sync_slew_max_ns_per_s_o reset", 64'(sync_slew_max),
          64'(lightrail_hwdef_pkg::SYNC_DEFAULT_SLEW_MAX_NS_PER_S));
    check("sync_dac_pull_ppb_o reset", 64'(sync_dac_pull), 64'(lightrail_hwdef_pkg::SYNC_DEFAULT_DAC_PULL_PPB));
    check("sync_lock_thresh_ps_o reset", 64'(sync_lock_thresh),
          64'(lightrail_hwdef_pkg::SYNC_DEFAULT_LOCK_THRESH_PS));

    // write/readback, and the value on the servo's port (signed calibration)
    write_ok("SYNC_CAL_ASYM_PS write", lightrail_hwdef_pkg::REG_SYNC_CAL_ASYM_PS, 32'hFFFF_FC18);  // -1000 ps
    read_expect("SYNC_CAL_ASYM_PS readback", lightrail_hwdef_pkg::REG_SYNC_CAL_ASYM_PS, 32'hFFFF_FC18);
    check("sync_cal_asym_ps_o", 64'(sync_cal_asym), 64'hFFFF_FC18);
    write_ok("SYNC_CAL_DELAY_MS_PS write", lightrail_hwdef_pkg::REG_SYNC_CAL_DELAY_MS_PS, 32'd2100);
    write_ok("SYNC_CAL_DELAY_SM_PS write", lightrail_hwdef_pkg::REG_SYNC_CAL_DELAY_SM_PS, 32'd1900);
    check("sync_cal_delay_ms_ps_o", 64'(sync_cal_delay_ms), 64'd2100);
    check("sync_cal_delay_sm_ps_o", 64'(sync_cal_delay_sm), 64'd1900);
    read_expect("SYNC_CAL_DELAY_MS_PS readback", lightrail_hwdef_pkg::REG_SYNC_CAL_DELAY_MS_PS, 32'd2100);
    axi_write(lightrail_hwdef_pkg::REG_SYNC_KI, 32'h0000_AB00, 4'h2, resp);  // byte 1 only
    check("SYNC_KI byte write bresp", 64'(resp), 64'(RespOkay));
    check("sync_ki_o byte merge", 64'(sync_ki), 64'((lightrail_hwdef_pkg::SYNC_DEFAULT_KI_Q16 & 32'hFFFF_00FF) | 32'h0000_AB00));
    write_ok("SYNC_PHASE_STEP_FS write", lightrail_hwdef_pkg::REG_SYNC_PHASE_STEP_FS, 32'd4464);
    check("sync_phase_step_fs_o", 64'(sync_phase_step), 64'd4464);
    check("sync_kp_o untouched", 64'(sync_kp), 64'(lightrail_hwdef_pkg::SYNC_DEFAULT_KP_Q16));
    check("sync_lock_samples_o untouched", 64'(sync_lock_samples), 64'(lightrail_hwdef_pkg::SYNC_DEFAULT_LOCK_SAMPLES));
    // SYNC_CTRL keeps its defined fields only
    write_ok("SYNC_CTRL write", lightrail_hwdef_pkg::REG_SYNC_CTRL, 32'hFFFF_FFFF);
    read_expect("SYNC_CTRL fields only", lightrail_hwdef_pkg::REG_SYNC_CTRL,
                lightrail_hwdef_pkg::SYNC_CTRL_ENABLE_MASK | lightrail_hwdef_pkg::SYNC_CTRL_USE_DDMTD_MASK |
                lightrail_hwdef_pkg::SYNC_CTRL_REFERENCE_MASK | lightrail_hwdef_pkg::SYNC_CTRL_SERVES_MASK);
    write_ok("SYNC_CTRL enable, PTP only", lightrail_hwdef_pkg::REG_SYNC_CTRL, lightrail_hwdef_pkg::SYNC_CTRL_ENABLE_MASK);
    check("sync_ctrl_o", 64'(sync_ctrl), 64'(lightrail_hwdef_pkg::SYNC_CTRL_ENABLE_MASK));

    // status inputs read through (signed offset passes bit for bit)
    sync_status <= (32'd5 << lightrail_hwdef_pkg::SYNC_STATUS_STATE_LSB) | lightrail_hwdef_pkg::SYNC_STATUS_LOCKED_MASK |
                   lightrail_hwdef_pkg::SYNC_STATUS_REF_OK_MASK;
    sync_offset <= 32'hFFFF_FFDB;  // -37 ps
    sync_rtt <= 32'd98_765;
    read_expect("SYNC_STATUS", lightrail_hwdef_pkg::REG_SYNC_STATUS,
                (32'd5 << lightrail_hwdef_pkg::SYNC_STATUS_STATE_LSB) | lightrail_hwdef_pkg::SYNC_STATUS_LOCKED_MASK |
                lightrail_hwdef_pkg::SYNC_STATUS_REF_OK_MASK);
    read_expect("SYNC_OFFSET_PS", lightrail_hwdef_pkg::REG_SYNC_OFFSET_PS, 32'hFFFF_FFDB);
    read_expect("SYNC_RTT_PS", lightrail_hwdef_pkg::REG_SYNC_RTT_PS, 32'd98_765);
    read_expect("SYNC_DAC", lightrail_hwdef_pkg::REG_SYNC_DAC, 32'h0000_8000);
    axi_write(lightrail_hwdef_pkg::REG_SYNC_STATUS, 32'h0, 4'hF, resp);
    check("write to SYNC_STATUS (read-only)", 64'(resp), 64'(RespSlvErr));
    axi_write(lightrail_hwdef_pkg::REG_SYNC_CAL_ASYM_PS + 4, 32'h0, 4'hF, resp);
    check("write to the hole after SYNC_CAL_ASYM_PS", 64'(resp), 64'(RespDecErr));
    axi_read(lightrail_hwdef_pkg::REG_SYNC_CAL_ASYM_PS + 4, data, resp);
    check("read of the hole after SYNC_CAL_ASYM_PS", 64'(resp), 64'(RespDecErr));

    // SYNC_ERROR: rw1c on the servo's sticky flags; the sequencer's are not touched
    sync_error <= lightrail_hwdef_pkg::SYNC_ERROR_REF_LOST_MASK | lightrail_hwdef_pkg::SYNC_ERROR_CAL_CLAMPED_MASK;
    read_expect("SYNC_ERROR", lightrail_hwdef_pkg::REG_SYNC_ERROR,
                lightrail_hwdef_pkg::SYNC_ERROR_REF_LOST_MASK | lightrail_hwdef_pkg::SYNC_ERROR_CAL_CLAMPED_MASK);
    write_ok("SYNC_ERROR rw1c", lightrail_hwdef_pkg::REG_SYNC_ERROR, lightrail_hwdef_pkg::SYNC_ERROR_REF_LOST_MASK);
    check("sync_clear_errors pulse", 64'(pulse_sync_clear_errors), 64'(lightrail_hwdef_pkg::SYNC_ERROR_REF_LOST_MASK));
    check("no sequencer clear on SYNC_ERROR", 64'(pulse_clear_errors), 64'd0);
    @(posedge clk);
    check("sync_clear_errors pulse is one cycle", 64'(sync_clear_errors), 64'd0);
    write_ok("ERROR rw1c again", lightrail_hwdef_pkg::REG_ERROR, lightrail_hwdef_pkg::ERROR_LOCKED_WRITE_MASK);
    check("no servo clear on ERROR", 64'(pulse_sync_clear_errors), 64'd0);
    sync_status <= '0;
    sync_error <= '0;

    // ---- servo glue: a clear written while the servo computes an update
    // (sync_busy) is held and presented the first cycle it is free
    sync_busy <= 1'b1;
    write_ok("SYNC_ERROR rw1c while the servo is busy", lightrail_hwdef_pkg::REG_SYNC_ERROR,
             lightrail_hwdef_pkg::SYNC_ERROR_CAL_CLAMPED_MASK | lightrail_hwdef_pkg::SYNC_ERROR_REF_LOST_MASK);
    check("no clear reaches a busy servo", 64'(pulse_sync_clear_errors), 64'd0);
    write_ok("SYNC_ERROR rw1c again while busy", lightrail_hwdef_pkg::REG_SYNC_ERROR,
             lightrail_hwdef_pkg::SYNC_ERROR_LOST_LOCK_MASK);
    repeat (3) @(posedge clk);
    check("still no clear while busy", 64'(sync_clear_errors), 64'd0);
    sync_busy <= 1'b0;
    @(posedge clk);
    check("held clears, ORed, when the servo is free", 64'(sync_clear_errors),
          64'(lightrail_hwdef_pkg::SYNC_ERROR_CAL_CLAMPED_MASK | lightrail_hwdef_pkg::SYNC_ERROR_REF_LOST_MASK |
              lightrail_hwdef_pkg::SYNC_ERROR_LOST_LOCK_MASK));
    @(posedge clk);
    check("held clear presented once", 64'(sync_clear_errors), 64'd0);

    // ---- servo glue: local time, link state, the message engine's exchange
    data = sync_cycles;
    repeat (5) @(posedge clk);
    check("sync_cycles counts clk_i cycles", 64'(sync_cycles - data), 64'd5);
    check("sync_link_up low (link_up_i low)", 64'(sync_link_up), 64'd0);
    // Looped back, the receiver sees the board's own IDLE words in the
    // cycle they leave: aligned at slide 0, no reference's flag yet.
    read_expect("SYNC_LINK aligned on the loopback", lightrail_hwdef_pkg::REG_SYNC_LINK,
                lightrail_hwdef_pkg::SYNC_LINK_ALIGNED_MASK);
    // As the reference it sends Sync and Follow_Up frames to itself, which a
    // reference ignores: frames flow, good ones, and no exchange is made.
    data = sync_exchanges;
    write_ok("SYNC_CTRL reference", lightrail_hwdef_pkg::REG_SYNC_CTRL, lightrail_hwdef_pkg::SYNC_CTRL_REFERENCE_MASK);
    repeat (2 * (lightrail_hwdef_pkg::DDMTD_N + 1)) @(posedge clk);
    read_expect("no bad frames on the loopback", lightrail_hwdef_pkg::REG_SYNC_LINK_BAD_FRAMES, 32'd0);
    check("a reference makes no exchange", 64'(sync_exchanges - data), 64'd0);
    read_expect("SYNC_LINK still aligned, no parent flag as a reference", lightrail_hwdef_pkg::REG_SYNC_LINK,
                lightrail_hwdef_pkg::SYNC_LINK_ALIGNED_MASK);
    // As a follower its own link is down here (link_up_i low): the servo's
    // link is down, whatever flags the engine last heard (its own Syncs).
    write_ok("SYNC_CTRL follower", lightrail_hwdef_pkg::REG_SYNC_CTRL, 32'd0);
    repeat (16) @(posedge clk);
    check("sync_link_up low: own link down (link_up_i low)", 64'(sync_link_up), 64'd0);
    check("the flags heard reach the servo", 64'(sync_parent_flags),
          64'((1 << lightrail_hwdef_pkg::SYNC_FLAG_LOCKED_BIT) | (1 << lightrail_hwdef_pkg::SYNC_FLAG_TIME_VALID_BIT)));
    check("bit slide 0 on the loopback", 64'(sync_bitslide), 64'd0);
    loop_on <= 1'b0;

    // ---- directed fine edges on port 0 (level low after reset)
    edge_case("rise@3 fall@10", 1'b1, 10, 1'b1, 3, 32'h0000_03F8);
    edge_case("fall@12 rise@12", 1'b1, 12, 1'b1, 12, 32'hFFFF_F000);
    edge_case("no events keeps high", 1'b0, 0, 1'b0, 0, 32'hFFFF_FFFF);
    edge_case("fall@20 rise@25", 1'b1, 20, 1'b1, 25, 32'hFE0F_FFFF);
    edge_case("fall@0", 1'b1, 0, 1'b0, 0, 32'h0000_0000);

    // ---- run: fixed fine positions, wavelength advances every 4 cycles
    for (int p = 0; p < Ports; p++) begin
      sel_fine[p*FineBits+:FineBits]  = FineBits'(p);
      fall_fine[p*FineBits+:FineBits] = FineBits'(p);
      rise_fine[p*FineBits+:FineBits] = FineBits'(p + 16);
    end
    check_a = 8;
    check_b = ((cycles - 3) / 4) * 4;
    for (int c = 0; c < cycles; c++) begin
      @(posedge clk);
      // this edge registered the events of cycle c-1
      if (c % 4 == 0) begin
        for (int p = 0; p < Ports; p++) begin
          sel_value[p*WlBits+:WlBits] <= WlBits'((c / 4 + p) % Wavelengths);
        end
        sel_valid  <= '1;
        fall_valid <= '1;
        rise_valid <= '1;
      end else if (c % 4 == 1) begin
        sel_valid  <= '0;
        fall_valid <= '0;
        rise_valid <= '0;
      end
      if (c - 1 == check_a || c - 1 == check_a + 1 || (check_b > check_a + 1 && (c - 1 == check_b || c - 1 == check_b + 1))) begin
        @(negedge clk);
        check_pattern_outputs(c - 1);
      end
    end

    // 1 us period: a pulse every 250 cycles once aligned (~66 cycles after reset)
    check("PPS pulses seen", 64'(pps_count >= int'((board_ticks - 64'd100 * FineSteps) / PpsPeriod)), 64'd1);
    $display("PPS pulses=%0d", pps_count);
    $display("TB_DONE cycles=%0d errors=%0d", cycles, errors);
    $finish;
  end
endmodule
