// Formal harness of hw/axil_regfile.sv (docs/formal.md): the bank and tune
// locks around a COMMIT at every sequencer-kernel latency, the lease, and
// the command pulses. The DUT is instantiated unchanged; its inputs are free
// except where an assume below says otherwise.
//
// Observed internals: the f_obs_* wires have no driver here; run_formal.py
// connects each to the DUT register of the same meaning after flattening
// (yosys 0.23 has no hierarchical references). They serve the lease
// reference model's equality checks, which also make the lease inductive.
module axil_regfile_props (
  input logic        clk_i,
  input logic        rst_ni,
  input logic [31:0] board_id_i,
  input logic [31:0] health_i,
  input logic [lightrail_hwdef_pkg::AXI_ADDR_BITS-1:0] s_axil_awaddr,
  input logic        s_axil_awvalid,
  input logic [31:0] s_axil_wdata,
  input logic [ 3:0] s_axil_wstrb,
  input logic        s_axil_wvalid,
  input logic        s_axil_bready,
  input logic [lightrail_hwdef_pkg::AXI_ADDR_BITS-1:0] s_axil_araddr,
  input logic        s_axil_arvalid,
  input logic        s_axil_rready,
  input logic [63:0] now_ticks_i,
  input logic [31:0] status_free_i,  // STATUS bits the kernel model does not own
  input logic [31:0] bank0_rdata_i,
  input logic [31:0] bank1_rdata_i,
  // kernel model choices, free every cycle
  input logic        k_accept_i,     // the kernel takes the COMMIT (else drops it at once)
  input logic        k_verify_end_i,
  input logic        k_verify_ok_i,
  input logic        k_swap_i,
  input logic        k_drop_i,       // a CANCEL or an error ends the commit early
  input logic        k_stop_i
);
  localparam int LatBits = $clog2(lightrail_hwdef_pkg::SEQ_KERNEL_LATENCY_MAX + 1);

  // ------------------------------------------------------------ the DUT
  logic s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready, s_axil_rvalid;
  logic [1:0] s_axil_bresp, s_axil_rresp;
  logic [31:0] s_axil_rdata, seq_status;
  logic seq_commit_o, seq_cancel_o, seq_commit_at_time_o, seq_tune_we_o;
  logic seq_trigger_o, seq_trigger_at_o, seq_trigger_jump_o;
  logic [31:0] seq_trigger_step_o;
  logic [31:0] seq_commit_crc_o;
  logic [63:0] seq_commit_ticks_o;
  logic [1:0] bank_en_o;
  logic bank_we_o;

  axil_regfile dut (
    .clk_i, .rst_ni, .board_id_i, .health_i,
    .s_axil_awaddr, .s_axil_awvalid, .s_axil_awready, .s_axil_wdata, .s_axil_wstrb,
    .s_axil_wvalid, .s_axil_wready, .s_axil_bresp, .s_axil_bvalid, .s_axil_bready,
    .s_axil_araddr, .s_axil_arvalid, .s_axil_arready, .s_axil_rdata, .s_axil_rresp,
    .s_axil_rvalid, .s_axil_rready,
    .now_ticks_i,
    .seq_status_i(seq_status), .seq_errors_i('0), .seq_steps_i('0), .seq_missed_i('0),
    .seq_cur_step_i('0), .seq_cur_config_i('0), .seq_generation_i('0), .seq_epochs_i('0),
    .seq_swaps_i('0), .seq_last_swap_i('0), .seq_triggered_at_i('0), .seq_triggers_i('0),
    .seq_triggered_step_i('0),
    .seq_commit_o, .seq_cancel_o, .seq_commit_crc_o, .seq_commit_at_time_o,
    .seq_commit_ticks_o, .seq_trigger_o, .seq_trigger_at_o, .seq_trigger_ticks_o(),
    .seq_trigger_jump_o, .seq_trigger_step_o,
    .seq_stop_o(), .seq_clear_errors_o(), .seq_tune_we_o, .seq_tune_addr_o(),
    .seq_tune_wdata_o(),
    .bank_en_o, .bank_we_o, .bank_word_o(), .bank_be_o(), .bank_wdata_o(),
    .bank0_rdata_i, .bank1_rdata_i,
    .sync_ctrl_o(), .sync_cal_delay_ms_ps_o(), .sync_cal_delay_sm_ps_o(),
    .sync_cal_asym_ps_o(), .sync_kp_o(), .sync_ki_o(), .sync_lock_thresh_ps_o(),
    .sync_lock_samples_o(), .sync_slew_max_ns_per_s_o(), .sync_dac_pull_ppb_o(),
    .sync_phase_step_fs_o(), .sync_clear_errors_o(),
    .sync_status_i('0), .sync_error_i('0), .sync_offset_ps_i('0), .sync_rtt_ps_i('0),
    .sync_delay_ms_ps_i('0), .sync_servo_p_ps_i('0), .sync_servo_i_ppt_i('0),
    .sync_dac_i('0), .sync_phase_steps_i('0), .sync_holdover_us_i('0),
    .sync_link_i('0), .sync_link_bad_frames_i('0)
  );

  // ------------------------------------------------------------ reset
  // One reset at the start; the kernel model resets with the DUT.
  logic f_init = 1'b1;
  always_ff @(posedge clk_i) f_init <= 1'b0;
  always_comb assume (rst_ni == !f_init);

  // ------------------------------------------------------------ AXI-Lite master
  // A valid stays up, its payload unchanged, until its handshake.
  always_ff @(posedge clk_i) begin
    if (!f_init && $past(rst_ni)) begin
      if ($past(s_axil_awvalid && !s_axil_awready)) begin
        assume (s_axil_awvalid && s_axil_awaddr == $past(s_axil_awaddr));
      end
      if ($past(s_axil_wvalid && !s_axil_wready)) begin
        assume (s_axil_wvalid && s_axil_wdata == $past(s_axil_wdata) &&
                s_axil_wstrb == $past(s_axil_wstrb));
      end
      if ($past(s_axil_arvalid && !s_axil_arready)) begin
        assume (s_axil_arvalid && s_axil_araddr == $past(s_axil_araddr));
      end
    end
  end

  // ------------------------------------------------------------ kernel model
  // The kernel answers a COMMIT pulse with STATUS.VERIFY_BUSY at pulse + L + 1
  // for a latency L fixed for the run, any of 0..lightrail_hwdef_pkg::SEQ_KERNEL_LATENCY_MAX.
  // Until then (Flight) its status does not show the commit. It may drop the
  // commit at any time (CANCEL, a failed check, COMMIT_FAR at once), and a
  // verified commit swaps banks whenever it likes. A COMMIT while one is
  // under way is dropped (COMMIT_BUSY). More freedom than the kernel has
  // makes the proof stronger, not weaker.
  (* anyconst *) logic [LatBits-1:0] f_lat;
  always_comb assume (f_lat <= LatBits'(lightrail_hwdef_pkg::SEQ_KERNEL_LATENCY_MAX));

  typedef enum logic [1:0] {
    KIdle,
    KFlight,
    KVerify,
    KPending
  } kphase_e;
  kphase_e             k_phase;
  logic [LatBits-1:0] k_count;   // Flight cycles left after this one
  logic                k_bank;    // the bank the commit verifies
  logic                k_active;  // STATUS.ACTIVE_BANK
  logic                k_running; // STATUS.RUNNING

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      k_phase   <= KIdle;
      k_count   <= '0;
      k_bank    <= 1'b1;
      k_active  <= 1'b0;
      k_running <= 1'b0;
    end else begin
      if (k_stop_i) k_running <= 1'b0;
      case (k_phase)
        KIdle:
        if (seq_commit_o && k_accept_i) begin
          k_bank  <= !k_active;
          k_phase <= (f_lat == '0) ? KVerify : KFlight;
          k_count <= f_lat - 1'b1;
        end
        KFlight:
        if (k_drop_i) k_phase <= KIdle;
        else if (k_count == '0) k_phase <= KVerify;
        else k_count <= k_count - 1'b1;
        KVerify:
        if (k_drop_i) k_phase <= KIdle;
        else if (k_verify_end_i) k_phase <= k_verify_ok_i ? KPending : KIdle;
        default:
        if (k_drop_i) k_phase <= KIdle;
        else if (k_swap_i) begin
          k_phase   <= KIdle;
          k_active  <= k_bank;
          k_running <= 1'b1;
        end
      endcase
    end
  end

  always_comb begin
    seq_status = status_free_i;
    seq_status[lightrail_hwdef_pkg::STATUS_RUNNING_LSB] = k_running;
    seq_status[lightrail_hwdef_pkg::STATUS_ACTIVE_BANK_LSB] = k_active;
    seq_status[lightrail_hwdef_pkg::STATUS_COMMIT_PENDING_LSB] = (k_phase == KPending);
    seq_status[lightrail_hwdef_pkg::STATUS_VERIFY_BUSY_LSB] = (k_phase == KVerify);
  end

  // ------------------------------------------------------------ bank and tune locks
  logic [$clog2(lightrail_hwdef_pkg::COMMAND_SETTLE_CYCLES + 1)-1:0] f_obs_settle;  // dut.settle_q
  logic bank_write[2];
  assign bank_write[0] = bank_we_o && bank_en_o[0];
  assign bank_write[1] = bank_we_o && bank_en_o[1];

  always_comb begin
    if (rst_ni) begin
      // The bank the sequencer runs is never written.
      a_running_bank: assert (!(k_running && bank_write[k_active]));
      // The committed bank is not written from the COMMIT pulse until the
      // kernel's status shows it (the settle window, at every latency) ...
      a_settle_window: assert (!((seq_commit_o && bank_write[!k_active]) ||
                                 (k_phase == KFlight && bank_write[k_bank])));
      // ... nor while it is verified or waits for its swap.
      a_verify_pending: assert (!((k_phase == KVerify || k_phase == KPending) && bank_write[k_bank]));
      // The tune table the kernel checked against does not change.
      a_tune_locked: assert (!(seq_tune_we_o && (k_running || k_phase != KIdle || seq_commit_o)));
      // Invariants for the induction: a commit under way is for the inactive
      // bank, and the settle counter runs with the flight.
      a_inv_bank: assert (k_phase == KIdle || k_bank == !k_active);
      a_inv_settle: assert (32'(f_obs_settle) <= lightrail_hwdef_pkg::COMMAND_SETTLE_CYCLES &&
                            (k_phase != KFlight || k_count < f_lat) && (k_phase != KFlight ||
                            32'(f_obs_settle) >= 32'(k_count) + lightrail_hwdef_pkg::COMMAND_SETTLE_CYCLES - 32'(f_lat)));
    end
  end

  // ------------------------------------------------------------ lease reference model
  // docs/registers.md, LEASE_*: a claim takes a free or expired lease or
  // renews one's own; a break takes it whoever holds it; the holder's token
  // releases it; a token must be a whole non-zero word.
  // DUT lease state, connected by run_formal.py (see the header).
  logic [31:0] f_obs_owner, f_obs_ttl_ms;
  logic [63:0] f_obs_expires, f_obs_ttl_ticks;

  logic wr_fire;
  logic [31:0] wr_addr, wr_mask, merged_ttl, clamped_ttl;
  logic wr_full, f_live, f_token_owns;
  logic [31:0] f_owner, f_ttl_ms, f_crc, f_time_lo, f_time_hi;
  logic [63:0] f_expires;
  logic f_at_time;
  logic f_exp_commit, f_exp_cancel, f_exp_slverr, f_checked;
  logic [31:0] f_trigger_step;
  logic f_exp_trigger, f_exp_trigger_at, f_exp_jump;

  assign wr_fire = s_axil_awvalid && s_axil_awready && s_axil_wvalid && s_axil_wready;
  assign wr_addr = 32'({s_axil_awaddr[lightrail_hwdef_pkg::AXI_ADDR_BITS-1:2], 2'b00});
  assign wr_full = &s_axil_wstrb;
  for (genvar b = 0; b < 4; b++) begin : g_mask
    assign wr_mask[b*8+:8] = {8{s_axil_wstrb[b]}};
  end
  assign f_live = (f_owner != '0) && (now_ticks_i < f_expires);
  assign f_token_owns = wr_full && f_live && (s_axil_wdata == f_owner);
  assign merged_ttl = (f_ttl_ms & ~wr_mask) | (s_axil_wdata & wr_mask);
  assign clamped_ttl = (merged_ttl == '0) ? 32'd1
                     : (merged_ttl > lightrail_hwdef_pkg::LEASE_TTL_MAX_MS) ? lightrail_hwdef_pkg::LEASE_TTL_MAX_MS : merged_ttl;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_owner      <= '0;
      f_expires    <= '0;
      f_ttl_ms     <= lightrail_hwdef_pkg::LEASE_DEFAULT_TTL_MS;
      f_crc        <= '0;
      f_time_lo    <= '0;
      f_time_hi    <= '0;
      f_at_time    <= 1'b0;
      f_exp_commit <= 1'b0;
      f_exp_cancel <= 1'b0;
      f_trigger_step   <= '0;
      f_exp_trigger    <= 1'b0;
      f_exp_trigger_at <= 1'b0;
      f_exp_jump       <= 1'b0;
      f_exp_slverr <= 1'b0;
      f_checked    <= 1'b0;
    end else begin
      f_exp_commit <= wr_fire && wr_addr == lightrail_hwdef_pkg::REG_COMMIT && f_token_owns;
      f_exp_trigger    <= wr_fire && wr_addr == lightrail_hwdef_pkg::REG_CTRL &&
                          |(s_axil_wdata & wr_mask & lightrail_hwdef_pkg::CTRL_TRIGGER_MASK);
      f_exp_trigger_at <= wr_fire && wr_addr == lightrail_hwdef_pkg::REG_CTRL &&
                          |(s_axil_wdata & wr_mask & lightrail_hwdef_pkg::CTRL_TRIGGER_AT_MASK);
      f_exp_jump       <= wr_fire && wr_addr == lightrail_hwdef_pkg::REG_CTRL &&
                          |(s_axil_wdata & wr_mask & lightrail_hwdef_pkg::CTRL_TRIGGER_JUMP_MASK);
      f_exp_cancel <= wr_fire && wr_addr == lightrail_hwdef_pkg::REG_CANCEL && f_token_owns;
      f_checked    <= 1'b0;
      f_exp_slverr <= 1'b0;
      if (wr_fire) begin
        case (wr_addr)
          lightrail_hwdef_pkg::REG_COMMIT, lightrail_hwdef_pkg::REG_CANCEL: begin
            f_checked    <= 1'b1;
            f_exp_slverr <= !f_token_owns;
          end
          lightrail_hwdef_pkg::REG_COMMIT_CRC: f_crc <= (f_crc & ~wr_mask) | (s_axil_wdata & wr_mask);
          lightrail_hwdef_pkg::REG_COMMIT_TIME_LO: f_time_lo <= (f_time_lo & ~wr_mask) | (s_axil_wdata & wr_mask);
          lightrail_hwdef_pkg::REG_COMMIT_TIME_HI: f_time_hi <= (f_time_hi & ~wr_mask) | (s_axil_wdata & wr_mask);
          lightrail_hwdef_pkg::REG_COMMIT_MODE:
          if (|(wr_mask & lightrail_hwdef_pkg::COMMIT_MODE_AT_TIME_MASK)) f_at_time <= |(s_axil_wdata & lightrail_hwdef_pkg::COMMIT_MODE_AT_TIME_MASK);
          lightrail_hwdef_pkg::REG_LEASE_TTL_MS: f_ttl_ms <= clamped_ttl;
          lightrail_hwdef_pkg::REG_TRIGGER_STEP: f_trigger_step <= (f_trigger_step & ~wr_mask) | (s_axil_wdata & wr_mask);
          lightrail_hwdef_pkg::REG_LEASE_CLAIM: begin
            f_checked <= 1'b1;
            if (wr_full && s_axil_wdata != '0 && (!f_live || s_axil_wdata == f_owner)) begin
              f_owner   <= s_axil_wdata;
              f_expires <= now_ticks_i + f_obs_ttl_ticks;
            end else begin
              f_exp_slverr <= 1'b1;
            end
          end
          lightrail_hwdef_pkg::REG_LEASE_RELEASE: begin
            f_checked <= 1'b1;
            if (wr_full && s_axil_wdata != '0 && s_axil_wdata == f_owner) begin
              f_owner   <= '0;
              f_expires <= '0;
            end else begin
              f_exp_slverr <= 1'b1;
            end
          end
          lightrail_hwdef_pkg::REG_LEASE_BREAK: begin
            f_checked <= 1'b1;
            if (wr_full && s_axil_wdata != '0) begin
              f_owner   <= s_axil_wdata;
              f_expires <= now_ticks_i + f_obs_ttl_ticks;
            end else begin
              f_exp_slverr <= 1'b1;
            end
          end
          default: ;
        endcase
      end
    end
  end

  always_comb begin
    if (rst_ni) begin
      // The lease (claim, renew, expiry, release, break) is the reference's.
      a_lease_state: assert (f_obs_owner == f_owner && f_obs_expires == f_expires);
      // LEASE_TTL_MS keeps 1..LEASE_TTL_MAX_MS. (Its conversion to ticks, one
      // multiplication, is not checked: z3 stalls on multiplier equivalence.)
      a_lease_ttl: assert (f_obs_ttl_ms == f_ttl_ms);
      // COMMIT and CANCEL pulse exactly for the live lease's token.
      a_commit_token: assert (seq_commit_o == f_exp_commit);
      a_cancel_token: assert (seq_cancel_o == f_exp_cancel);
      // A refused command or lease write answers SLVERR, an accepted one OKAY.
      if (f_checked) begin
        a_lease_resp: assert (s_axil_bvalid && s_axil_bresp == (f_exp_slverr ? 2'b10 : 2'b00));
      end
      // COMMIT hands the kernel the staged CRC, mode and time as written
      // (the compare-and-swap's inputs).
      a_commit_args: assert (seq_commit_crc_o == f_crc && seq_commit_at_time_o == f_at_time &&
                             seq_commit_ticks_o == {f_time_hi, f_time_lo});
      // A trigger pulses exactly as CTRL was written; it jumps only when
      // TRIGGER_JUMP was written with it (else exactly as before jumps),
      // and hands the kernel TRIGGER_STEP as written, in the same cycle.
      a_trigger_args: assert (seq_trigger_o == f_exp_trigger && seq_trigger_at_o == f_exp_trigger_at &&
                              seq_trigger_jump_o == f_exp_jump && seq_trigger_step_o == f_trigger_step);
    end
  end

  // Reachability: each of these must be coverable, or the proofs are vacuous.
  always_comb begin
    if (rst_ni) begin
      c_commit_flight: cover (k_phase == KFlight && f_lat == LatBits'(lightrail_hwdef_pkg::SEQ_KERNEL_LATENCY_MAX));
      c_swap: cover (k_running && k_active);
      c_bank_write: cover (bank_write[!k_active] && !k_running);
      c_jump: cover (seq_trigger_jump_o && seq_trigger_at_o && seq_trigger_step_o == 32'd3 && k_running);
    end
  end
endmodule
