// AXI4-Lite register file of the board: capability block, commands, status,
// board time, the clock-sync servo's SYNC_* block, the tune(a,b) window and the
// two bank windows (docs/registers.md).
//
// One writer owns the board at a time: a lease (LEASE_*) held by a token,
// with expiry in board time. COMMIT and CANCEL carry the token and are
// refused unless it holds the live lease; from a COMMIT until its swap, drop
// or cancel, the inactive bank and the tune table refuse writes (SLVERR,
// ERROR.LOCKED_WRITE), so nothing but what verification read can run.
// Offsets in the register space that are no register answer DECERR.
//
// One transaction at a time per channel. A write is taken when AWVALID and
// WVALID are both high (the slave may wait for both). A read takes three
// cycles: issue (memories read), capture, RVALID. Writes wait while a read
// issues because the memory windows share one host port.
module axil_regfile #(
  parameter logic [63:0] BUILD_HASH = 64'd0,  // CAP_BUILD_HASH_*
  parameter logic [31:0] BUILD_TIME = 32'd0   // CAP_BUILD_TIME
) (
  input  logic                                             clk_i,
  input  logic                                             rst_ni,
  input  logic [31:0]                                      board_id_i,  // CAP_BOARD_ID
  input  logic [31:0]                                      health_i,    // HEALTH, synchronised
  // AXI4-Lite slave
  input  logic [lightrail_hwdef_pkg::AXI_ADDR_BITS-1:0]    s_axil_awaddr,
  input  logic                                             s_axil_awvalid,
  output logic                                             s_axil_awready,
  input  logic [                                   31:0]   s_axil_wdata,
  input  logic [                                    3:0]   s_axil_wstrb,
  input  logic                                             s_axil_wvalid,
  output logic                                             s_axil_wready,
  output logic [                                    1:0]   s_axil_bresp,
  output logic                                             s_axil_bvalid,
  input  logic                                             s_axil_bready,
  input  logic [lightrail_hwdef_pkg::AXI_ADDR_BITS-1:0]    s_axil_araddr,
  input  logic                                             s_axil_arvalid,
  output logic                                             s_axil_arready,
  output logic [                                   31:0]   s_axil_rdata,
  output logic [                                    1:0]   s_axil_rresp,
  output logic                                             s_axil_rvalid,
  input  logic                                             s_axil_rready,
  // board time
  input  logic [                                   63:0]   now_ticks_i,
  // sequencer status (layout of the registers of the same names)
  input  logic [                                   31:0]   seq_status_i,
  input  logic [                                   31:0]   seq_errors_i,
  input  logic [                                   63:0]   seq_steps_i,
  input  logic [                                   31:0]   seq_missed_i,
  input  logic [                                   31:0]   seq_cur_step_i,
  input  logic [                                   31:0]   seq_cur_config_i,
  input  logic [                                   31:0]   seq_generation_i,
  input  logic [                                   31:0]   seq_epochs_i,
  input  logic [                                   31:0]   seq_swaps_i,
  input  logic [                                   63:0]   seq_last_swap_i,
  input  logic [                                   63:0]   seq_triggered_at_i,
  input  logic [                                   31:0]   seq_triggers_i,
  input  logic [                                   31:0]   seq_triggered_step_i,
  // sequencer commands (pulses are one cycle wide)
  output logic                                             seq_commit_o,
  output logic                                             seq_cancel_o,
  output logic [                                   31:0]   seq_commit_crc_o,
  output logic                                             seq_commit_at_time_o,
  output logic [                                   63:0]   seq_commit_ticks_o,
  output logic                                             seq_trigger_o,
  output logic                                             seq_trigger_at_o,
  output logic [                                   63:0]   seq_trigger_ticks_o,
  output logic                                             seq_trigger_jump_o,
  output logic [                                   31:0]   seq_trigger_step_o,
  output logic                                             seq_stop_o,
  output logic [                                   31:0]   seq_clear_errors_o,
  output logic                                             seq_tune_we_o,
  output logic [$clog2(lightrail_hwdef_pkg::MEM_TUNE_WORDS)-1:0] seq_tune_addr_o,
  output logic [                                   15:0]   seq_tune_wdata_o,
  // host port (A) of the two bank memories; word address within the bank
  output logic [                                    1:0]   bank_en_o,
  output logic                                             bank_we_o,
  output logic [$clog2(lightrail_hwdef_pkg::MEM_BANK0_WORDS)-1:0] bank_word_o,
  output logic [                                    3:0]   bank_be_o,
  output logic [                                   31:0]   bank_wdata_o,
  input  logic [                                   31:0]   bank0_rdata_i,
  input  logic [                                   31:0]   bank1_rdata_i,
  // clock-sync servo (hls/clock_sync beside the top): SYNC_* rw registers as
  // levels, one port per register (layout of the register of the same name)
  output logic [                                   31:0]   sync_ctrl_o,
  output logic [                                   31:0]   sync_cal_delay_ms_ps_o,
  output logic [                                   31:0]   sync_cal_delay_sm_ps_o,
  output logic [                                   31:0]   sync_cal_asym_ps_o,
  output logic [                                   31:0]   sync_kp_o,
  output logic [                                   31:0]   sync_ki_o,
  output logic [                                   31:0]   sync_lock_thresh_ps_o,
  output logic [                                   31:0]   sync_lock_samples_o,
  output logic [                                   31:0]   sync_slew_max_ns_per_s_o,
  output logic [                                   31:0]   sync_dac_pull_ppb_o,
  output logic [                                   31:0]   sync_phase_step_fs_o,
  output logic [                                   31:0]   sync_exchange_period_o,  // to the message engines
  output logic [                                   31:0]   sync_clear_errors_o,  // SYNC_ERROR write-1s, one cycle
  // clock-sync servo status (read-only registers; SYNC_ERROR is the sticky flags)
  input  logic [                                   31:0]   sync_status_i,
  input  logic [                                   31:0]   sync_error_i,
  input  logic [                                   31:0]   sync_offset_ps_i,
  input  logic [                                   31:0]   sync_rtt_ps_i,
  input  logic [                                   31:0]   sync_delay_ms_ps_i,
  input  logic [                                   31:0]   sync_servo_p_ps_i,
  input  logic [                                   31:0]   sync_servo_i_ppt_i,
  input  logic [                                   31:0]   sync_dac_i,
  input  logic [                                   31:0]   sync_phase_steps_i,
  input  logic [                                   31:0]   sync_holdover_us_i,
  // the sync message engine (SYNC_LINK layout), its dropped-frame count;
  // the downstream ports' (SYNC_DOWN_LINK layout, their count together)
  input  logic [                                   31:0]   sync_link_i,
  input  logic [                                   31:0]   sync_link_bad_frames_i,
  input  logic [                                   31:0]   sync_down_link_i,
  input  logic [                                   31:0]   sync_down_bad_frames_i
);
  localparam int AddrBits = lightrail_hwdef_pkg::AXI_ADDR_BITS;
  localparam int TuneBits = $clog2(lightrail_hwdef_pkg::MEM_TUNE_WORDS);
  localparam int BankBits = $clog2(lightrail_hwdef_pkg::MEM_BANK0_WORDS);
  // tune(a,b) entries are 16 bits (bits 15:0 of the word), as the kernel takes them
  localparam int TuneDataBits = 16;

  localparam logic [1:0] RespOkay = 2'b00;
  localparam logic [1:0] RespSlvErr = 2'b10;
  localparam logic [1:0] RespDecErr = 2'b11;
  // Board time of one millisecond, in ticks.
  localparam logic [63:0] TicksPerMs = 64'd1000000000 / 64'(lightrail_hwdef_pkg::TICK_PS);
  localparam int SettleBits = $clog2(lightrail_hwdef_pkg::COMMAND_SETTLE_CYCLES + 1);
`ifndef __ICARUS__  // Icarus 11 has no elaboration-time $error
  if (lightrail_hwdef_pkg::COMMAND_SETTLE_CYCLES < lightrail_hwdef_pkg::SEQ_KERNEL_LATENCY_MAX + 1) begin : g_settle_check
    $error("COMMAND_SETTLE_CYCLES must cover SEQ_KERNEL_LATENCY_MAX + 1 (the kernel's VERIFY_BUSY)");
  end
`endif

  localparam logic [1:0] SrcReg = 2'd0;
  localparam logic [1:0] SrcTune = 2'd1;
  localparam logic [1:0] SrcBank0 = 2'd2;
  localparam logic [1:0] SrcBank1 = 2'd3;

  // SYNC_CTRL keeps only its defined fields. Reset: servo off, DDMTD on (the
  // defaults of hls/clock_sync/clock_sync_io.hpp's ClockSyncConfig).
  localparam logic [31:0] SyncCtrlFields = lightrail_hwdef_pkg::SYNC_CTRL_ENABLE_MASK |
                                           lightrail_hwdef_pkg::SYNC_CTRL_USE_DDMTD_MASK |
                                           lightrail_hwdef_pkg::SYNC_CTRL_REFERENCE_MASK |
                                           lightrail_hwdef_pkg::SYNC_CTRL_SERVES_MASK;
  localparam logic [31:0] SyncCtrlReset = lightrail_hwdef_pkg::SYNC_CTRL_USE_DDMTD_MASK;

  // Byte address inside [base, base + 4*words).
  function automatic logic in_window(input logic [31:0] addr, input logic [31:0] base,
                                     input logic [31:0] words);
    in_window = (addr >= base) && (addr < base + (words << 2));
  endfunction

  // A rw register after a write: the enabled bytes (mask) take the new bits.
  function automatic logic [31:0] merge(input logic [31:0] old, input logic [31:0] mask,
                                        input logic [31:0] bits);
    merge = (old & ~mask) | (bits & mask);
  endfunction

  // The TTL register keeps 1..LEASE_TTL_MAX_MS.
  function automatic logic [31:0] clamp_ttl(input logic [31:0] ms);
    if (ms == '0) clamp_ttl = 32'd1;
    else if (ms > lightrail_hwdef_pkg::LEASE_TTL_MAX_MS) clamp_ttl = lightrail_hwdef_pkg::LEASE_TTL_MAX_MS;
    else clamp_ttl = ms;
  endfunction

  // SYNC_EXCHANGE_PERIOD keeps DDMTD_N + 1 .. SYNC_EXCHANGE_PERIOD_MAX: the
  // servo takes at most one exchange per beat, and is verified no slower.
  localparam logic [31:0] ExchangePeriodMin = 32'(lightrail_hwdef_pkg::DDMTD_N + 1);
  function automatic logic [31:0] clamp_exchange_period(input logic [31:0] cycles);
    if (cycles < ExchangePeriodMin) clamp_exchange_period = ExchangePeriodMin;
    else if (cycles > lightrail_hwdef_pkg::SYNC_EXCHANGE_PERIOD_MAX)
      clamp_exchange_period = lightrail_hwdef_pkg::SYNC_EXCHANGE_PERIOD_MAX;
    else clamp_exchange_period = cycles;
  endfunction

  // ---------------------------------------------------------------- state
  logic                    commit_at_time_q;
  logic [            31:0] commit_lo_q;
  logic [            31:0] commit_hi_q;
  logic [            31:0] commit_crc_q;
  logic [            31:0] trigger_lo_q;
  logic [            31:0] trigger_hi_q;
  logic [            31:0] trigger_step_q;  // TRIGGER_STEP: the kernel checks its range
  logic [            31:0] triggered_at_hi_q;  // HI latched by reading LO
  logic                    locked_write_q;  // ERROR.LOCKED_WRITE, owned here
  // lease
  logic [            31:0] lease_owner_q;
  logic [            63:0] lease_expires_q;
  logic [            31:0] lease_ttl_ms_q;
  logic [            63:0] lease_ttl_ticks_q;  // lease_ttl_ms_q in ticks, kept beside it
  logic [            31:0] lease_expires_hi_q;  // HI latched by reading LO
  // A COMMIT keeps the inactive bank locked until the kernel's status shows
  // it: VERIFY_BUSY rises SEQ_KERNEL_LATENCY + 1 cycles after the pulse, so
  // the window (the pulse's cycle and the COMMAND_SETTLE_CYCLES - 1 after it,
  // counted down by settle_q) must reach the longest latency the top accepts.
  logic [  SettleBits-1:0] settle_q;
  logic [            31:0] time_hi_q;       // HI halves latched by reading LO
  logic [            31:0] steps_hi_q;
  logic [            31:0] last_swap_hi_q;
  logic [TuneDataBits-1:0] tune_shadow[0:lightrail_hwdef_pkg::MEM_TUNE_WORDS-1];
  logic [TuneDataBits-1:0] tune_rdata_q;
  // SYNC_* rw registers (calibration values are passed as written: the servo
  // clamps and flags SYNC_ERROR.CAL_CLAMPED, so the host reads back its value)
  logic [            31:0] sync_ctrl_q;
  logic [            31:0] sync_cal_delay_ms_ps_q;
  logic [            31:0] sync_cal_delay_sm_ps_q;
  logic [            31:0] sync_cal_asym_ps_q;
  logic [            31:0] sync_kp_q;
  logic [            31:0] sync_ki_q;
  logic [            31:0] sync_lock_thresh_ps_q;
  logic [            31:0] sync_lock_samples_q;
  logic [            31:0] sync_slew_max_ns_per_s_q;
  logic [            31:0] sync_dac_pull_ppb_q;
  logic [            31:0] sync_phase_step_fs_q;
  logic [            31:0] sync_exchange_period_q;
  logic [            31:0] scratch_q;

  // ---------------------------------------------------------------- write channel
  logic              wr_fire;
  logic              bvalid_q;
  logic [       1:0] bresp_q;
  logic              rd_issue_q;  // read channel owns the memory port this cycle
  logic [      31:0] wr_addr;
  logic [      31:0] wr_mask;
  logic [      31:0] wr_bits;
  logic              wr_tune;
  logic              wr_bank0;
  logic              wr_bank1;
  logic [      31:0] wr_tune_off;
  logic [      31:0] wr_bank_off;
  logic              wr_bank_drop;
  logic              wr_tune_drop;
  logic              wr_full;      // all four byte lanes: tokens are whole words
  logic              lease_live;   // held and not expired
  logic              token_owns;   // the written word is the live lease's token
  logic              running;
  logic              active_bank;
  logic              commit_busy;  // a commit is under way: being issued, verified or armed

  assign wr_fire = s_axil_awvalid && s_axil_wvalid && !bvalid_q && !rd_issue_q;
  assign s_axil_awready = wr_fire;
  assign s_axil_wready = wr_fire;
  assign s_axil_bvalid = bvalid_q;
  assign s_axil_bresp = bresp_q;

  assign wr_addr = 32'({s_axil_awaddr[AddrBits-1:2], 2'b00});
  for (genvar b = 0; b < 4; b++) begin : g_wr_mask
    assign wr_mask[b*8+:8] = {8{s_axil_wstrb[b]}};
  end
  assign wr_bits = s_axil_wdata & wr_mask;

  assign wr_tune = in_window(wr_addr, lightrail_hwdef_pkg::MEM_TUNE_BASE,
                             lightrail_hwdef_pkg::MEM_TUNE_WORDS);
  assign wr_bank0 = in_window(wr_addr, lightrail_hwdef_pkg::MEM_BANK0_BASE,
                              lightrail_hwdef_pkg::MEM_BANK0_WORDS);
  assign wr_bank1 = in_window(wr_addr, lightrail_hwdef_pkg::MEM_BANK1_BASE,
                              lightrail_hwdef_pkg::MEM_BANK1_WORDS);
  assign wr_tune_off = (wr_addr - lightrail_hwdef_pkg::MEM_TUNE_BASE) >> 2;
  assign wr_bank_off = (wr_addr - (wr_bank1 ? lightrail_hwdef_pkg::MEM_BANK1_BASE
                                            : lightrail_hwdef_pkg::MEM_BANK0_BASE)) >> 2;
  assign running = seq_status_i[lightrail_hwdef_pkg::STATUS_RUNNING_LSB];
  assign active_bank = seq_status_i[lightrail_hwdef_pkg::STATUS_ACTIVE_BANK_LSB];
  assign commit_busy = seq_status_i[lightrail_hwdef_pkg::STATUS_VERIFY_BUSY_LSB] ||
                       seq_status_i[lightrail_hwdef_pkg::STATUS_COMMIT_PENDING_LSB] ||
                       seq_commit_o || (settle_q != '0);
  // The running bank is read by the sequencer; the inactive one, once
  // committed, holds what verification reads and the swap runs.
  assign wr_bank_drop = (wr_bank0 && ((running && !active_bank) || (commit_busy && active_bank))) ||
                        (wr_bank1 && ((running && active_bank) || (commit_busy && !active_bank)));
  // Verified schedules were checked against the tune table as it is.
  assign wr_tune_drop = running || commit_busy;
  assign wr_full = &s_axil_wstrb;
  assign lease_live = (lease_owner_q != '0) && (now_ticks_i < lease_expires_q);
  assign token_owns = wr_full && lease_live && (s_axil_wdata == lease_owner_q);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      bvalid_q           <= 1'b0;
      bresp_q            <= RespOkay;
      commit_at_time_q   <= 1'b0;
      commit_lo_q        <= '0;
      commit_hi_q        <= '0;
      commit_crc_q       <= '0;
      trigger_lo_q       <= '0;
      trigger_hi_q       <= '0;
      trigger_step_q     <= '0;
      seq_trigger_at_o   <= 1'b0;
      seq_trigger_jump_o <= 1'b0;
      locked_write_q     <= 1'b0;
      lease_owner_q      <= '0;
      lease_expires_q    <= '0;
      lease_ttl_ms_q     <= lightrail_hwdef_pkg::LEASE_DEFAULT_TTL_MS;
      lease_ttl_ticks_q  <= 64'(lightrail_hwdef_pkg::LEASE_DEFAULT_TTL_MS) * TicksPerMs;
      settle_q           <= '0;
      seq_commit_o       <= 1'b0;
      seq_cancel_o       <= 1'b0;
      seq_trigger_o      <= 1'b0;
      seq_stop_o         <= 1'b0;
      seq_clear_errors_o <= '0;
      seq_tune_we_o      <= 1'b0;
      seq_tune_addr_o    <= '0;
      seq_tune_wdata_o   <= '0;
      sync_clear_errors_o      <= '0;
      sync_ctrl_q              <= SyncCtrlReset;
      sync_cal_delay_ms_ps_q   <= '0;
      sync_cal_delay_sm_ps_q   <= '0;
      sync_cal_asym_ps_q       <= '0;
      sync_kp_q                <= lightrail_hwdef_pkg::SYNC_DEFAULT_KP_Q16;
      sync_ki_q                <= lightrail_hwdef_pkg::SYNC_DEFAULT_KI_Q16;
      sync_lock_thresh_ps_q    <= lightrail_hwdef_pkg::SYNC_DEFAULT_LOCK_THRESH_PS;
      sync_lock_samples_q      <= lightrail_hwdef_pkg::SYNC_DEFAULT_LOCK_SAMPLES;
      sync_slew_max_ns_per_s_q <= lightrail_hwdef_pkg::SYNC_DEFAULT_SLEW_MAX_NS_PER_S;
      sync_dac_pull_ppb_q      <= lightrail_hwdef_pkg::SYNC_DEFAULT_DAC_PULL_PPB;
      sync_phase_step_fs_q     <= lightrail_hwdef_pkg::SYNC_DEFAULT_PHASE_STEP_FS;
      sync_exchange_period_q   <= ExchangePeriodMin;
      scratch_q                <= '0;
    end else begin
      // command outputs are pulses
      seq_commit_o       <= 1'b0;
      seq_cancel_o       <= 1'b0;
      seq_trigger_at_o   <= 1'b0;
      seq_trigger_jump_o <= 1'b0;
      if (settle_q != '0) settle_q <= settle_q - 1'b1;
      seq_trigger_o      <= 1'b0;
      seq_stop_o         <= 1'b0;
      seq_clear_errors_o <= '0;
      seq_tune_we_o      <= 1'b0;
      sync_clear_errors_o <= '0;
      if (bvalid_q && s_axil_bready) begin
        bvalid_q <= 1'b0;
      end
      if (wr_fire) begin
        bvalid_q <= 1'b1;
        bresp_q  <= RespOkay;
        if (wr_tune) begin
          // The kernel takes whole 16-bit entries: a partial write is refused.
          if (wr_tune_drop) begin
            bresp_q        <= RespSlvErr;
            locked_write_q <= 1'b1;
          end else if (&s_axil_wstrb[1:0]) begin
            seq_tune_we_o    <= 1'b1;
            seq_tune_addr_o  <= wr_tune_off[TuneBits-1:0];
            seq_tune_wdata_o <= s_axil_wdata[TuneDataBits-1:0];
          end else begin
            bresp_q <= RespSlvErr;
          end
        end else if (wr_bank0 || wr_bank1) begin
          if (wr_bank_drop) begin
            bresp_q        <= RespSlvErr;
            locked_write_q <= 1'b1;
          end
        end else begin
          case (wr_addr)
            lightrail_hwdef_pkg::REG_CTRL: begin
              seq_trigger_o <= |(wr_bits & lightrail_hwdef_pkg::CTRL_TRIGGER_MASK);
              seq_trigger_at_o <= |(wr_bits & lightrail_hwdef_pkg::CTRL_TRIGGER_AT_MASK);
              seq_trigger_jump_o <= |(wr_bits & lightrail_hwdef_pkg::CTRL_TRIGGER_JUMP_MASK);
              seq_stop_o    <= |(wr_bits & lightrail_hwdef_pkg::CTRL_STOP_MASK);
              if (|(wr_bits & lightrail_hwdef_pkg::CTRL_CLEAR_ERRORS_MASK)) begin
                seq_clear_errors_o <= '1;
                locked_write_q     <= 1'b0;
              end
            end
            lightrail_hwdef_pkg::REG_COMMIT_MODE: begin
              if (|(wr_mask & lightrail_hwdef_pkg::COMMIT_MODE_AT_TIME_MASK)) begin
                commit_at_time_q <= |(wr_bits & lightrail_hwdef_pkg::COMMIT_MODE_AT_TIME_MASK);
              end
            end
            lightrail_hwdef_pkg::REG_COMMIT_TIME_LO: commit_lo_q <= (commit_lo_q & ~wr_mask) | wr_bits;
            lightrail_hwdef_pkg::REG_COMMIT_TIME_HI: commit_hi_q <= (commit_hi_q & ~wr_mask) | wr_bits;
            lightrail_hwdef_pkg::REG_COMMIT_CRC: commit_crc_q <= merge(commit_crc_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_TRIGGER_TIME_LO: trigger_lo_q <= merge(trigger_lo_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_TRIGGER_TIME_HI: trigger_hi_q <= merge(trigger_hi_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_TRIGGER_STEP: trigger_step_q <= merge(trigger_step_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_COMMIT: begin
              if (token_owns) begin
                seq_commit_o <= 1'b1;
                settle_q     <= SettleBits'(lightrail_hwdef_pkg::COMMAND_SETTLE_CYCLES);
              end else begin
                bresp_q <= RespSlvErr;
              end
            end
            lightrail_hwdef_pkg::REG_CANCEL: begin
              if (token_owns) seq_cancel_o <= 1'b1;
              else bresp_q <= RespSlvErr;
            end
            lightrail_hwdef_pkg::REG_LEASE_TTL_MS: begin
              lease_ttl_ms_q    <= clamp_ttl(merge(lease_ttl_ms_q, wr_mask, wr_bits));
              lease_ttl_ticks_q <= 64'(clamp_ttl(merge(lease_ttl_ms_q, wr_mask, wr_bits))) * TicksPerMs;
            end
            lightrail_hwdef_pkg::REG_LEASE_CLAIM: begin
              // Take a free or expired lease, or renew one's own.
              if (wr_full && s_axil_wdata != '0 && (!lease_live || s_axil_wdata == lease_owner_q)) begin
                lease_owner_q   <= s_axil_wdata;
                lease_expires_q <= now_ticks_i + lease_ttl_ticks_q;
              end else begin
                bresp_q <= RespSlvErr;
              end
            end
            lightrail_hwdef_pkg::REG_LEASE_RELEASE: begin
              if (wr_full && s_axil_wdata != '0 && s_axil_wdata == lease_owner_q) begin
                lease_owner_q   <= '0;
                lease_expires_q <= '0;
              end else begin
                bresp_q <= RespSlvErr;
              end
            end
            lightrail_hwdef_pkg::REG_LEASE_BREAK: begin
              if (wr_full && s_axil_wdata != '0) begin
                lease_owner_q   <= s_axil_wdata;
                lease_expires_q <= now_ticks_i + lease_ttl_ticks_q;
              end else begin
                bresp_q <= RespSlvErr;
              end
            end
            lightrail_hwdef_pkg::REG_ERROR: begin
              seq_clear_errors_o <= wr_bits;
              if (|(wr_bits & lightrail_hwdef_pkg::ERROR_LOCKED_WRITE_MASK)) begin
                locked_write_q <= 1'b0;
              end
            end
            lightrail_hwdef_pkg::REG_SYNC_CTRL:
              sync_ctrl_q <= merge(sync_ctrl_q, wr_mask & SyncCtrlFields, wr_bits);
            lightrail_hwdef_pkg::REG_SYNC_ERROR: sync_clear_errors_o <= wr_bits;
            lightrail_hwdef_pkg::REG_SYNC_CAL_DELAY_MS_PS:
              sync_cal_delay_ms_ps_q <= merge(sync_cal_delay_ms_ps_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_SYNC_CAL_DELAY_SM_PS:
              sync_cal_delay_sm_ps_q <= merge(sync_cal_delay_sm_ps_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_SYNC_CAL_ASYM_PS:
              sync_cal_asym_ps_q <= merge(sync_cal_asym_ps_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_SCRATCH: scratch_q <= merge(scratch_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_SYNC_KP: sync_kp_q <= merge(sync_kp_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_SYNC_KI: sync_ki_q <= merge(sync_ki_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_SYNC_LOCK_THRESH_PS:
              sync_lock_thresh_ps_q <= merge(sync_lock_thresh_ps_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_SYNC_LOCK_SAMPLES:
              sync_lock_samples_q <= merge(sync_lock_samples_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_SYNC_SLEW_MAX_NS_PER_S:
              sync_slew_max_ns_per_s_q <= merge(sync_slew_max_ns_per_s_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_SYNC_DAC_PULL_PPB:
              sync_dac_pull_ppb_q <= merge(sync_dac_pull_ppb_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_SYNC_PHASE_STEP_FS:
              sync_phase_step_fs_q <= merge(sync_phase_step_fs_q, wr_mask, wr_bits);
            lightrail_hwdef_pkg::REG_SYNC_EXCHANGE_PERIOD:
              sync_exchange_period_q <= clamp_exchange_period(merge(sync_exchange_period_q, wr_mask, wr_bits));
            // read-only registers refuse; holes are no register at all
            default: bresp_q <= lightrail_hwdef_pkg::is_register(wr_addr) ? RespSlvErr : RespDecErr;
          endcase
        end
      end
    end
  end

  assign seq_commit_at_time_o = commit_at_time_q;
  assign seq_commit_ticks_o = {commit_hi_q, commit_lo_q};
  assign seq_commit_crc_o = commit_crc_q;
  assign seq_trigger_ticks_o = {trigger_hi_q, trigger_lo_q};
  assign seq_trigger_step_o = trigger_step_q;
  assign sync_ctrl_o = sync_ctrl_q;
  assign sync_cal_delay_ms_ps_o = sync_cal_delay_ms_ps_q;
  assign sync_cal_delay_sm_ps_o = sync_cal_delay_sm_ps_q;
  assign sync_cal_asym_ps_o = sync_cal_asym_ps_q;
  assign sync_kp_o = sync_kp_q;
  assign sync_ki_o = sync_ki_q;
  assign sync_lock_thresh_ps_o = sync_lock_thresh_ps_q;
  assign sync_lock_samples_o = sync_lock_samples_q;
  assign sync_slew_max_ns_per_s_o = sync_slew_max_ns_per_s_q;
  assign sync_dac_pull_ppb_o = sync_dac_pull_ppb_q;
  assign sync_phase_step_fs_o = sync_phase_step_fs_q;
  assign sync_exchange_period_o = sync_exchange_period_q;

  // ---------------------------------------------------------------- read channel
  logic [AddrBits-1:0] rd_addr_q;
  logic                rd_capture_q;  // memory outputs valid: capture this cycle
  logic                rvalid_q;
  logic [        31:0] rdata_q;
  logic [         1:0] rresp_q;
  logic [        31:0] rd_addr;
  logic                rd_tune;
  logic                rd_bank0;
  logic                rd_bank1;
  logic [        31:0] rd_tune_off;
  logic [        31:0] rd_bank_off;
  logic [         1:0] rd_src;
  logic [        31:0] rd_reg;
  logic                rd_reg_ok;
  logic [        31:0] rd_value;
  logic [        31:0] time_lo;  // low halves as nets: Icarus cannot take part-selects
  logic [        31:0] steps_lo;  // of inputs inside always_comb precisely
  logic [        31:0] last_swap_lo;
  logic [        31:0] lease_expires_lo;
  logic [        31:0] triggered_at_lo;

  assign time_lo = now_ticks_i[31:0];
  assign steps_lo = seq_steps_i[31:0];
  assign last_swap_lo = seq_last_swap_i[31:0];
  assign lease_expires_lo = lease_expires_q[31:0];
  assign triggered_at_lo = seq_triggered_at_i[31:0];

  // Kernel fence: a read is not taken until the kernel's outputs reflect
  // the pulses of the last write, so a host that writes CTRL and then reads
  // STATUS or TRIGGERS sees the effect. The kernel's status answers a pulse
  // SEQ_KERNEL_LATENCY + 1 cycles after it; the fence is the settle window,
  // which covers every latency the top accepts, so the bus timing does not
  // depend on the kernel's.
  logic [SettleBits-1:0] fence_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      fence_q <= '0;
    end else if (wr_fire) begin
      fence_q <= SettleBits'(lightrail_hwdef_pkg::COMMAND_SETTLE_CYCLES);
    end else if (fence_q != '0) begin
      fence_q <= fence_q - 1'b1;
    end
  end

  assign s_axil_arready = !rd_issue_q && !rd_capture_q && !rvalid_q && fence_q == '0;
  assign s_axil_rvalid = rvalid_q;
  assign s_axil_rdata = rdata_q;
  assign s_axil_rresp = rresp_q;

  assign rd_addr = 32'({rd_addr_q[AddrBits-1:2], 2'b00});
  assign rd_tune = in_window(rd_addr, lightrail_hwdef_pkg::MEM_TUNE_BASE,
                             lightrail_hwdef_pkg::MEM_TUNE_WORDS);
  assign rd_bank0 = in_window(rd_addr, lightrail_hwdef_pkg::MEM_BANK0_BASE,
                              lightrail_hwdef_pkg::MEM_BANK0_WORDS);
  assign rd_bank1 = in_window(rd_addr, lightrail_hwdef_pkg::MEM_BANK1_BASE,
                              lightrail_hwdef_pkg::MEM_BANK1_WORDS);
  assign rd_tune_off = (rd_addr - lightrail_hwdef_pkg::MEM_TUNE_BASE) >> 2;
  assign rd_bank_off = (rd_addr - (rd_bank1 ? lightrail_hwdef_pkg::MEM_BANK1_BASE
                                            : lightrail_hwdef_pkg::MEM_BANK0_BASE)) >> 2;
  assign rd_src = rd_tune ? SrcTune : rd_bank0 ? SrcBank0 : rd_bank1 ? SrcBank1 : SrcReg;

  always_comb begin
    rd_reg    = '0;
    rd_reg_ok = 1'b1;
    case (rd_addr)
      lightrail_hwdef_pkg::REG_CAP_MAGIC:              rd_reg = lightrail_hwdef_pkg::CAP_MAGIC_VALUE;
      lightrail_hwdef_pkg::REG_CAP_VERSION:            rd_reg = lightrail_hwdef_pkg::REGMAP_VERSION;
      lightrail_hwdef_pkg::REG_CAP_PORTS:              rd_reg = lightrail_hwdef_pkg::PORTS;
      lightrail_hwdef_pkg::REG_CAP_WAVELENGTHS:        rd_reg = lightrail_hwdef_pkg::WAVELENGTHS;
      lightrail_hwdef_pkg::REG_CAP_MAX_STEPS:          rd_reg = lightrail_hwdef_pkg::MAX_STEPS;
      lightrail_hwdef_pkg::REG_CAP_MAX_CONFIGS:        rd_reg = lightrail_hwdef_pkg::MAX_CONFIGS;
      lightrail_hwdef_pkg::REG_CAP_FINE_STEPS:         rd_reg = lightrail_hwdef_pkg::FINE_STEPS;
      lightrail_hwdef_pkg::REG_CAP_CLK_PERIOD_PS:      rd_reg = lightrail_hwdef_pkg::CLK_PERIOD_PS;
      lightrail_hwdef_pkg::REG_CAP_MIN_STEP_CYCLES:    rd_reg = lightrail_hwdef_pkg::MIN_STEP_CYCLES;
      lightrail_hwdef_pkg::REG_CAP_BOARD_ID:           rd_reg = board_id_i;
      lightrail_hwdef_pkg::REG_CAP_BUILD_HASH_LO:      rd_reg = BUILD_HASH[31:0];
      lightrail_hwdef_pkg::REG_CAP_BUILD_HASH_HI:      rd_reg = BUILD_HASH[63:32];
      lightrail_hwdef_pkg::REG_CAP_BUILD_TIME:         rd_reg = BUILD_TIME;
      lightrail_hwdef_pkg::REG_HEALTH:                 rd_reg = health_i;
      lightrail_hwdef_pkg::REG_SCRATCH:                rd_reg = scratch_q;
      lightrail_hwdef_pkg::REG_CTRL:                   rd_reg = '0;  // write-only: reads as 0
      lightrail_hwdef_pkg::REG_COMMIT_MODE:
        rd_reg = commit_at_time_q ? lightrail_hwdef_pkg::COMMIT_MODE_AT_TIME_MASK : '0;
      lightrail_hwdef_pkg::REG_COMMIT_TIME_LO:         rd_reg = commit_lo_q;
      lightrail_hwdef_pkg::REG_COMMIT_TIME_HI:         rd_reg = commit_hi_q;
      lightrail_hwdef_pkg::REG_COMMIT_CRC:             rd_reg = commit_crc_q;
      lightrail_hwdef_pkg::REG_TRIGGER_TIME_LO:        rd_reg = trigger_lo_q;
      lightrail_hwdef_pkg::REG_TRIGGER_TIME_HI:        rd_reg = trigger_hi_q;
      lightrail_hwdef_pkg::REG_TRIGGERED_AT_LO:        rd_reg = triggered_at_lo;
      lightrail_hwdef_pkg::REG_TRIGGERED_AT_HI:        rd_reg = triggered_at_hi_q;
      lightrail_hwdef_pkg::REG_TRIGGERS:               rd_reg = seq_triggers_i;
      lightrail_hwdef_pkg::REG_TRIGGER_STEP:           rd_reg = trigger_step_q;
      lightrail_hwdef_pkg::REG_TRIGGERED_STEP:         rd_reg = seq_triggered_step_i;
      lightrail_hwdef_pkg::REG_COMMIT:                 rd_reg = '0;  // write-only
      lightrail_hwdef_pkg::REG_CANCEL:                 rd_reg = '0;
      lightrail_hwdef_pkg::REG_LEASE_OWNER:            rd_reg = lease_live ? lease_owner_q : '0;
      lightrail_hwdef_pkg::REG_LEASE_EXPIRES_LO:       rd_reg = lease_expires_lo;
      lightrail_hwdef_pkg::REG_LEASE_EXPIRES_HI:       rd_reg = lease_expires_hi_q;
      lightrail_hwdef_pkg::REG_LEASE_TTL_MS:           rd_reg = lease_ttl_ms_q;
      lightrail_hwdef_pkg::REG_LEASE_CLAIM:            rd_reg = '0;
      lightrail_hwdef_pkg::REG_LEASE_RELEASE:          rd_reg = '0;
      lightrail_hwdef_pkg::REG_LEASE_BREAK:            rd_reg = '0;
      lightrail_hwdef_pkg::REG_STATUS:                 rd_reg = seq_status_i;
      lightrail_hwdef_pkg::REG_ERROR:
        rd_reg = seq_errors_i | (locked_write_q ? lightrail_hwdef_pkg::ERROR_LOCKED_WRITE_MASK : '0);
      lightrail_hwdef_pkg::REG_STEPS_LO:               rd_reg = steps_lo;
      lightrail_hwdef_pkg::REG_STEPS_HI:               rd_reg = steps_hi_q;
      lightrail_hwdef_pkg::REG_MISSED:                 rd_reg = seq_missed_i;
      lightrail_hwdef_pkg::REG_CUR_STEP:               rd_reg = seq_cur_step_i;
      lightrail_hwdef_pkg::REG_CUR_CONFIG:             rd_reg = seq_cur_config_i;
      lightrail_hwdef_pkg::REG_GENERATION:             rd_reg = seq_generation_i;
      lightrail_hwdef_pkg::REG_TIME_LO:                rd_reg = time_lo;
      lightrail_hwdef_pkg::REG_TIME_HI:                rd_reg = time_hi_q;
      lightrail_hwdef_pkg::REG_EPOCHS:                 rd_reg = seq_epochs_i;
      lightrail_hwdef_pkg::REG_SWAPS:                  rd_reg = seq_swaps_i;
      lightrail_hwdef_pkg::REG_LAST_SWAP_LO:           rd_reg = last_swap_lo;
      lightrail_hwdef_pkg::REG_LAST_SWAP_HI:           rd_reg = last_swap_hi_q;
      lightrail_hwdef_pkg::REG_SYNC_CTRL:              rd_reg = sync_ctrl_q;
      lightrail_hwdef_pkg::REG_SYNC_STATUS:            rd_reg = sync_status_i;
      lightrail_hwdef_pkg::REG_SYNC_ERROR:             rd_reg = sync_error_i;
      lightrail_hwdef_pkg::REG_SYNC_OFFSET_PS:         rd_reg = sync_offset_ps_i;
      lightrail_hwdef_pkg::REG_SYNC_RTT_PS:            rd_reg = sync_rtt_ps_i;
      lightrail_hwdef_pkg::REG_SYNC_DELAY_MS_PS:       rd_reg = sync_delay_ms_ps_i;
      lightrail_hwdef_pkg::REG_SYNC_SERVO_P_PS:        rd_reg = sync_servo_p_ps_i;
      lightrail_hwdef_pkg::REG_SYNC_SERVO_I_PPT:       rd_reg = sync_servo_i_ppt_i;
      lightrail_hwdef_pkg::REG_SYNC_DAC:               rd_reg = sync_dac_i;
      lightrail_hwdef_pkg::REG_SYNC_PHASE_STEPS:       rd_reg = sync_phase_steps_i;
      lightrail_hwdef_pkg::REG_SYNC_HOLDOVER_US:       rd_reg = sync_holdover_us_i;
      lightrail_hwdef_pkg::REG_SYNC_LINK:              rd_reg = sync_link_i;
      lightrail_hwdef_pkg::REG_SYNC_LINK_BAD_FRAMES:   rd_reg = sync_link_bad_frames_i;
      lightrail_hwdef_pkg::REG_SYNC_DOWN_LINK:         rd_reg = sync_down_link_i;
      lightrail_hwdef_pkg::REG_SYNC_DOWN_BAD_FRAMES:   rd_reg = sync_down_bad_frames_i;
      lightrail_hwdef_pkg::REG_SYNC_EXCHANGE_PERIOD:   rd_reg = sync_exchange_period_q;
      lightrail_hwdef_pkg::REG_SYNC_CAL_DELAY_MS_PS:   rd_reg = sync_cal_delay_ms_ps_q;
      lightrail_hwdef_pkg::REG_SYNC_CAL_DELAY_SM_PS:   rd_reg = sync_cal_delay_sm_ps_q;
      lightrail_hwdef_pkg::REG_SYNC_CAL_ASYM_PS:       rd_reg = sync_cal_asym_ps_q;
      lightrail_hwdef_pkg::REG_SYNC_KP:                rd_reg = sync_kp_q;
      lightrail_hwdef_pkg::REG_SYNC_KI:                rd_reg = sync_ki_q;
      lightrail_hwdef_pkg::REG_SYNC_LOCK_THRESH_PS:    rd_reg = sync_lock_thresh_ps_q;
      lightrail_hwdef_pkg::REG_SYNC_LOCK_SAMPLES:      rd_reg = sync_lock_samples_q;
      lightrail_hwdef_pkg::REG_SYNC_SLEW_MAX_NS_PER_S: rd_reg = sync_slew_max_ns_per_s_q;
      lightrail_hwdef_pkg::REG_SYNC_DAC_PULL_PPB:      rd_reg = sync_dac_pull_ppb_q;
      lightrail_hwdef_pkg::REG_SYNC_PHASE_STEP_FS:     rd_reg = sync_phase_step_fs_q;
      default:                                         rd_reg_ok = 1'b0;
    endcase
  end

  always_comb begin
    case (rd_src)
      SrcTune:  rd_value = 32'(tune_rdata_q);
      SrcBank0: rd_value = bank0_rdata_i;
      SrcBank1: rd_value = bank1_rdata_i;
      default:  rd_value = rd_reg;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rd_addr_q      <= '0;
      rd_issue_q     <= 1'b0;
      rd_capture_q   <= 1'b0;
      rvalid_q       <= 1'b0;
      rdata_q        <= '0;
      rresp_q        <= RespOkay;
      time_hi_q      <= '0;
      steps_hi_q     <= '0;
      last_swap_hi_q <= '0;
      lease_expires_hi_q <= '0;
      triggered_at_hi_q <= '0;
    end else begin
      rd_issue_q   <= s_axil_arvalid && s_axil_arready;
      rd_capture_q <= rd_issue_q;
      if (s_axil_arvalid && s_axil_arready) begin
        rd_addr_q <= s_axil_araddr;
      end
      if (rd_capture_q) begin
        rvalid_q <= 1'b1;
        rdata_q  <= rd_value;
        rresp_q  <= (rd_src != SrcReg || rd_reg_ok) ? RespOkay : RespDecErr;
        // Reading LO latches HI of the same sample, so LO then HI is one 64-bit value.
        case (rd_addr)
          lightrail_hwdef_pkg::REG_TIME_LO:      time_hi_q <= now_ticks_i[63:32];
          lightrail_hwdef_pkg::REG_STEPS_LO:     steps_hi_q <= seq_steps_i[63:32];
          lightrail_hwdef_pkg::REG_LAST_SWAP_LO: last_swap_hi_q <= seq_last_swap_i[63:32];
          lightrail_hwdef_pkg::REG_LEASE_EXPIRES_LO: lease_expires_hi_q <= lease_expires_q[63:32];
          lightrail_hwdef_pkg::REG_TRIGGERED_AT_LO: triggered_at_hi_q <= seq_triggered_at_i[63:32];
          default: ;
        endcase
      end else if (rvalid_q && s_axil_rready) begin
        rvalid_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- memories
  // Tune shadow: what the host wrote, so it can read the table back (the
  // kernel's copy has no read port to the host).
  always_ff @(posedge clk_i) begin
    if (wr_fire && wr_tune && !wr_tune_drop && (&s_axil_wstrb[1:0])) begin
      tune_shadow[wr_tune_off[TuneBits-1:0]] <= s_axil_wdata[TuneDataBits-1:0];
    end
    if (rd_issue_q && rd_tune) begin
      tune_rdata_q <= tune_shadow[rd_tune_off[TuneBits-1:0]];
    end
  end

  assign bank_we_o = !rd_issue_q;
  assign bank_en_o[0] = rd_issue_q ? rd_bank0 : (wr_fire && wr_bank0 && !wr_bank_drop);
  assign bank_en_o[1] = rd_issue_q ? rd_bank1 : (wr_fire && wr_bank1 && !wr_bank_drop);
  assign bank_word_o = rd_issue_q ? rd_bank_off[BankBits-1:0] : wr_bank_off[BankBits-1:0];
  assign bank_be_o = s_axil_wstrb;
  assign bank_wdata_o = s_axil_wdata;

  // Bits the decode above does not need (sub-word address bits, offsets
  // beyond a window, upper tune data bits) are ignored by design.
  logic unused_bits;
  assign unused_bits = ^{s_axil_awaddr[1:0], rd_addr_q[1:0], wr_tune_off[31:TuneBits],
                         wr_bank_off[31:BankBits], rd_tune_off[31:TuneBits],
                         rd_bank_off[31:BankBits], s_axil_wdata[31:TuneDataBits]};
endmodule
