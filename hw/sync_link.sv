// The sync message engine: the two-way exchange on the timing link, in
// clk_i, with the receive side (sync_link_rx) in the recovered clock's
// domain. Framing: sync_link_pkg.sv; docs/hw-clock-sync.md, "sync_link".
//
// Roles (reference_i, SYNC_CTRL.REFERENCE). The reference sends a Sync every
// period_i cycles (SYNC_EXCHANGE_PERIOD, at least a DDMTD beat) and its
// Follow_Up with the Sync's send time t1, both
// flagged as flags_i says (LOCKED, TIME_VALID, HOLDOVER: SYNC_FLAG_*_BIT); it answers each Delay_Req with a Delay_Resp
// carrying the request's arrival time t4. A follower answers a Sync whose
// Follow_Up came with a Delay_Req (sent at t3) and, on the matching
// Delay_Resp, publishes the exchange (t1..t4, fs) and counts it. Stale
// answers (another sequence number) are ignored.
//
// Timestamps. A frame is stamped at its SOF. Sent: the board time of the
// cycle tx_word_o holds the SOF (exact: the transmitter runs on clk_i).
// Received: clk_i samples the SOF toggle from the receive side, and a copy of
// it half a recovered period later (a falling-edge flop there: the same as
// sampling the toggle on clk_i's falling edge, with no falling-edge logic on
// clk_i). With the DDMTD's phase l (clk_i lags the recovered clock by l) the
// direct sample is used when l is in [T/4, 3T/4) and the delayed one
// otherwise, so the sample used is never within a quarter period of its
// toggle (never metastable), and the stamp is the board time of the
// sampling edge minus its lag (l; for the copy, half a period plus
// (l + T/2) mod T): the recovered edge's own time, to the DDMTD's
// resolution (T/N, 0.98 ps) instead of a cycle. Without a phase in the last two beats
// (DDMTD not pairing: frequency not yet pulled in, or a relock) the rising
// sample is used unrefined, a cycle stamp as PTP's, and the exchange says so
// (exchange_fine_o low; the reference's t4 by FlagRefined in its
// Delay_Resp): the servo must not take a 4 ns stamp for a refined one. Fixed delays (transceivers, these
// pipelines: a received SOF is stamped 4 cycles after its first bit
// arrives, plus the bit slide) are the calibrated SYNC_CAL_DELAY_*; the
// follower's bit slide goes to the servo, and the reference removes its own
// from t4 before sending it.
//
// A coarse time step (time_step_i) splits the stamps into two time bases:
// every round in flight is dropped, and frames stamped before it (those that
// complete in the next StepQuiet cycles) are ignored, so no exchange mixes
// the two; otherwise, on a long fibre, the rounds in flight would report the
// offset the step just removed.
module sync_link (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [63:0] time_i,           // board time (ticks) of this cycle
  input  logic        time_step_i,      // board time jumps after this cycle (the servo's coarse set)
  input  logic        reference_i,      // this board is the reference on the link
  input  logic [lightrail_hwdef_pkg::SYNC_FLAG_BITS-1:0] flags_i,  // what this board's Syncs say
  input  logic [31:0] period_i,         // reference: cycles from one Sync to the next
  input  logic        phase_valid_i,    // DDMTD: clk_i lags clk_rx_i by phase_i * T / N
  input  logic [lightrail_hwdef_pkg::DDMTD_TAG_BITS-1:0] phase_i,
  output logic [31:0] tx_word_o,        // to the transmitter (TXUSRCLK2 = clk_i)
  input  logic        clk_rx_i,         // recovered clock
  input  logic        rst_rx_ni,        // synchronous to clk_rx_i
  input  logic [31:0] rx_word_i,        // from the receiver, on clk_rx_i
  // status, clk_i
  output logic        aligned_o,        // the receiver found the word boundary
  output logic [ 4:0] rx_bitslide_o,    // ... at this slide, UI
  // follower: the last Sync's flags (cleared while the link is down)
  output logic [lightrail_hwdef_pkg::SYNC_FLAG_BITS-1:0] parent_flags_o,
  output logic [31:0] bad_frames_o,     // frames dropped and line errors, wrapping
  // follower: the last exchange, held, and a count of exchanges
  output logic [31:0] exchanges_o,
  output logic        exchange_fine_o,  // both receive stamps of it refined by a DDMTD phase
  output logic [63:0] t1_fs_o,
  output logic [63:0] t2_fs_o,
  output logic [63:0] t3_fs_o,
  output logic [63:0] t4_fs_o
);
  localparam int TagBits = lightrail_hwdef_pkg::DDMTD_TAG_BITS;
  localparam int TicksPerCycle = lightrail_hwdef_pkg::FINE_STEPS;
  localparam logic [63:0] TickFs = 64'(lightrail_hwdef_pkg::TICK_PS) * 64'd1000;
  localparam logic [63:0] PeriodFs = 64'(lightrail_hwdef_pkg::CLK_PERIOD_PS) * 64'd1000;
  localparam logic [63:0] UiFs = PeriodFs / 64'(lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS);
  // A DDMTD phase older than two beats is stale (the DDMTD stopped pairing).
  localparam int PhaseFresh = 2 * (lightrail_hwdef_pkg::DDMTD_N + 1);
  localparam int AgeBits = $clog2(PhaseFresh + 1);

  // ================================================================ receive side
  logic        rx_aligned, rx_sof_toggle, rx_sof_toggle_half, rx_frame_toggle;
  logic [ 4:0] rx_slide;
  logic [ 3:0] rx_type, rx_flags, rx_bad_gray;
  logic [ 7:0] rx_seq;
  logic [63:0] rx_ts;

  sync_link_rx u_rx (
    .clk_i         (clk_rx_i),
    .rst_ni        (rst_rx_ni),
    .word_i        (rx_word_i),
    .aligned_o     (rx_aligned),
    .slide_o       (rx_slide),
    .sof_toggle_o  (rx_sof_toggle),
    .sof_toggle_half_o(rx_sof_toggle_half),
    .frame_toggle_o(rx_frame_toggle),
    .frame_type_o  (rx_type),
    .frame_flags_o (rx_flags),
    .frame_seq_o   (rx_seq),
    .frame_ts_o    (rx_ts),
    .bad_gray_o    (rx_bad_gray)
  );

  // ================================================================ crossings
  // Levels and toggles through cdc_sync; the bad-frame count as Gray code
  // (one bit changes per count). Frame fields and the slide are held by the
  // receive side until the next frame (7 cycles at least) or while aligned,
  // and are read only after their toggle or level has crossed.
  logic       aligned_sync, frame_sync, sof_rise_sync, sof_fall_sync;
  logic [3:0] bad_gray_sync;

  cdc_sync #(.WIDTH(6)) u_link_sync (
    .clk_i,
    .rst_ni,
    .d_i ({rx_bad_gray, rx_frame_toggle, rx_aligned}),
    .q_o ({bad_gray_sync, frame_sync, aligned_sync})
  );

  // The SOF toggle sampled twice by clk_i: as it is, and half a recovered
  // period later (see the header).
  cdc_sync u_sof_rise_sync (
    .clk_i,
    .rst_ni,
    .d_i(rx_sof_toggle),
    .q_o(sof_rise_sync)
  );
  cdc_sync u_sof_fall_sync (
    .clk_i,
    .rst_ni,
    .d_i(rx_sof_toggle_half),
    .q_o(sof_fall_sync)
  );

  // Board time of the sampling edge: a sample shows two cycles after its
  // edge; the delayed copy's stamp is half a cycle earlier still (its
  // toggle moved half a recovered period after the SOF's).
  logic        sof_rise_q, sof_fall_prev_q, frame_prev_q;
  logic [63:0] stamp_rise_q, stamp_fall_q;
  logic [ 3:0] bad_prev_q;
  logic [31:0] bad_frames_q;
  logic [ 4:0] slide_q;
  logic        aligned_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sof_rise_q      <= 1'b0;
      sof_fall_prev_q <= 1'b0;
      frame_prev_q    <= 1'b0;
      stamp_rise_q    <= '0;
      stamp_fall_q    <= '0;
      bad_prev_q      <= '0;
      bad_frames_q    <= '0;
      slide_q         <= '0;
      aligned_q       <= 1'b0;
    end else begin
      sof_rise_q      <= sof_rise_sync;
      sof_fall_prev_q <= sof_fall_sync;
      frame_prev_q    <= frame_sync;
      if (sof_rise_sync != sof_rise_q) stamp_rise_q <= time_i - 64'(TicksPerCycle);
      if (sof_fall_sync != sof_fall_prev_q) stamp_fall_q <= time_i - 64'(TicksPerCycle * 3 / 2);
      bad_prev_q   <= bad_gray_sync;
      if (bad_gray_sync != bad_prev_q)
        bad_frames_q <= bad_frames_q + 32'(4'(gray_to_bin(bad_gray_sync) - gray_to_bin(bad_prev_q)));
      aligned_q    <= aligned_sync;
      if (aligned_sync && aligned_q) slide_q <= rx_slide;  // stable since before the alignment crossed
    end
  end

  function automatic logic [3:0] gray_to_bin(input logic [3:0] g);
    gray_to_bin = {g[3], g[3] ^ g[2], g[3] ^ g[2] ^ g[1], g[3] ^ g[2] ^ g[1] ^ g[0]};
  endfunction

  // ================================================================ DDMTD phase
  logic [TagBits-1:0] phase_q;
  logic [AgeBits-1:0] phase_age_q;
  logic                  phase_fresh;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      phase_q     <= '0;
      phase_age_q <= AgeBits'(PhaseFresh);
    end else if (phase_valid_i) begin
      phase_q     <= phase_i;
      phase_age_q <= '0;
    end else if (phase_age_q != AgeBits'(PhaseFresh)) begin
      phase_age_q <= phase_age_q + 1'b1;
    end
  end
  assign phase_fresh = phase_age_q != AgeBits'(PhaseFresh);

  // ================================================================ received frames
  // Stage A: the frame's fields and which sample; stage B: its stamp in fs.
  logic               frame_a_q, frame_b_q, rise_a, fine_a_q;
  logic [3:0]         type_a_q, flags_a_q;
  logic [7:0]         seq_a_q;
  logic [63:0]        ts_a_q, ticks_a_q, rx_fs_b_q;
  logic [TagBits-1:0] lag_a_q;

  // Rising sample when the lag is in [T/4, 3T/4): the phase's top two bits differ.
  assign rise_a = !phase_fresh || (phase_q[TagBits-1] ^ phase_q[TagBits-2]);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      frame_a_q <= 1'b0;
      frame_b_q <= 1'b0;
    end else begin
      frame_a_q <= aligned_q && (frame_sync != frame_prev_q);
      frame_b_q <= frame_a_q;
    end
    if (frame_sync != frame_prev_q) begin
      type_a_q  <= rx_type;
      flags_a_q <= rx_flags;
      seq_a_q   <= rx_seq;
      ts_a_q    <= rx_ts;
      ticks_a_q <= rise_a ? stamp_rise_q : stamp_fall_q;
      fine_a_q  <= phase_fresh;
      // The falling edge lags half a period more (mod T): flip the phase's MSB.
      lag_a_q   <= !phase_fresh ? '0 : rise_a ? phase_q : phase_q ^ (TagBits'(1) << (TagBits - 1));
    end
    // Registers load only when they have something new (clock enables):
    // most cycles carry no frame.
    if (frame_a_q) rx_fs_b_q <= ticks_a_q * TickFs - ((64'(lag_a_q) * PeriodFs) >> TagBits);
  end

  logic [3:0]  type_b_q;
  logic [3:0]  flags_b_q;
  logic [7:0]  seq_b_q;
  logic [63:0] ts_b_q;
  logic        fine_b_q;  // rx_fs_b_q was refined by a fresh DDMTD phase
  always_ff @(posedge clk_i) begin
    if (frame_a_q) begin
      type_b_q  <= type_a_q;
      fine_b_q  <= fine_a_q;
      flags_b_q <= flags_a_q;
      seq_b_q   <= seq_a_q;
      ts_b_q    <= ts_a_q;
    end
  end

  // ================================================================ transmitter
  logic [ 2:0] tx_index_q;   // 0 idle; 1 SOF out; 2 header out; .. 7 CRC out
  logic [31:0] tx_q;
  logic [15:0] tx_header_q, tx_crc_q;
  logic [63:0] tx_ts_q, tx_ticks_q, tx_fs_q;
  logic        tx_stamped_q, tx_fs_valid_q;

  // What to send next, most urgent first; one frame at a time.
  logic        want_resp_q, want_follow_q, want_req_q, want_sync_q;
  logic [ 7:0] resp_seq_q, sync_seq_q, req_seq_q;
  logic [63:0] resp_ts_q, follow_ts_q;
  logic        resp_fine_q;
  logic [ 3:0] next_type;
  logic [15:0] next_header;
  logic [63:0] next_ts;
  logic        start;

  always_comb begin
    next_type   = sync_link_pkg::TypeSync;
    next_header = {sync_link_pkg::TypeSync, 4'(flags_i), sync_seq_q};
    next_ts     = '0;
    start       = tx_index_q == 3'd0;
    if (want_resp_q) begin
      next_type   = sync_link_pkg::TypeDelayResp;
      next_header = {sync_link_pkg::TypeDelayResp, 4'(32'(resp_fine_q) << sync_link_pkg::FlagRefined), resp_seq_q};
      next_ts     = resp_ts_q;
    end else if (want_follow_q) begin
      next_type   = sync_link_pkg::TypeFollowUp;
      next_header = {sync_link_pkg::TypeFollowUp, 4'(flags_i), sync_seq_q};
      next_ts     = follow_ts_q;
    end else if (want_req_q) begin
      next_type   = sync_link_pkg::TypeDelayReq;
      next_header = {sync_link_pkg::TypeDelayReq, 4'b0000, req_seq_q};
    end else if (!want_sync_q) begin
      start = 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      tx_index_q   <= '0;
      tx_q         <= sync_link_pkg::Idle;
      tx_stamped_q <= 1'b0;
    end else begin
      tx_stamped_q <= tx_index_q == 3'd1;
      case (tx_index_q)
        3'd0: begin
          tx_q <= start ? sync_link_pkg::Sof : sync_link_pkg::Idle;
          if (start) begin
            tx_index_q  <= 3'd1;
            tx_header_q <= next_header;
            tx_ts_q     <= next_ts;
          end
        end
        3'd1: begin
          tx_ticks_q <= time_i;  // tx_q holds the SOF in this cycle
          tx_q       <= sync_link_pkg::manchester(tx_header_q);
          tx_crc_q   <= sync_link_pkg::crc16(16'hFFFF, tx_header_q);
          tx_index_q <= 3'd2;
        end
        3'd2, 3'd3, 3'd4, 3'd5: begin
          tx_q       <= sync_link_pkg::manchester(tx_ts_q[63:48]);
          tx_crc_q   <= sync_link_pkg::crc16(tx_crc_q, tx_ts_q[63:48]);
          tx_ts_q    <= {tx_ts_q[47:0], 16'h0000};
          tx_index_q <= tx_index_q + 3'd1;
        end
        3'd6: begin
          tx_q       <= sync_link_pkg::manchester(tx_crc_q);
          tx_index_q <= 3'd7;
        end
        default: begin
          tx_q       <= sync_link_pkg::Idle;  // at least one IDLE between frames
          tx_index_q <= 3'd0;
        end
      endcase
    end
    if (tx_stamped_q) tx_fs_q <= tx_ticks_q * TickFs;
  end
  assign tx_word_o = tx_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) tx_fs_valid_q <= 1'b0;
    else tx_fs_valid_q <= tx_stamped_q;  // tx_fs_q holds the SOF's time from this cycle on
  end

  // ================================================================ protocol
  // A follower's rounds in flight: a fibre's round trip may span many Sync
  // periods (10 km: 100 us, six), so each Delay_Req's t1..t3 wait under its
  // sequence number for the Delay_Resp. ROUNDS of them bound the fibre:
  // a round trip up to ROUNDS Sync periods (32: 524 us, about 52 km).
  localparam int Rounds = 32;
  localparam int RoundBits = $clog2(Rounds);

  logic [31:0] sync_timer_q;
  logic        sync_sent_q;     // reference: a Sync is out, its Follow_Up not yet queued
  logic        have_sync_q;
  logic [lightrail_hwdef_pkg::SYNC_FLAG_BITS-1:0] parent_flags_q;
  logic [ 7:0] cur_seq_q;
  logic [63:0] t2_q, req_t1_q, req_t2_q;
  logic        t2_fine_q, req_t2_fine_q, x_fine_q;
  logic [63:0] round_t1_q[Rounds], round_t2_q[Rounds], round_t3_q[Rounds];
  logic [Rounds-1:0] round_t2_fine_q;
  logic [ 7:0] round_seq_q[Rounds];
  logic [Rounds-1:0] round_valid_q;
  logic [RoundBits-1:0] resp_round;
  logic [31:0] exchanges_q;
  logic [63:0] x_t1_q, x_t2_q, x_t3_q, x_t4_q;
  logic        follower_ok, req_sent_q;

  // A frame completes in its 7 words, the crossing and the two stages
  // within 16 cycles of its SOF's stamp; twice that, to be sure.
  localparam int StepQuiet = 32;
  logic [$clog2(StepQuiet+1)-1:0] step_quiet_q;
  logic        frame_ok;

  assign follower_ok = !reference_i && aligned_q;
  assign resp_round  = seq_b_q[RoundBits-1:0];
  assign frame_ok    = frame_b_q && step_quiet_q == '0;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) step_quiet_q <= '0;
    else if (time_step_i) step_quiet_q <= ($clog2(StepQuiet+1))'(StepQuiet);
    else if (step_quiet_q != '0) step_quiet_q <= step_quiet_q - 1'b1;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sync_timer_q    <= '0;
      sync_sent_q     <= 1'b0;
      want_sync_q     <= 1'b0;
      want_follow_q   <= 1'b0;
      want_resp_q     <= 1'b0;
      want_req_q      <= 1'b0;
      sync_seq_q      <= '0;
      have_sync_q     <= 1'b0;
      req_sent_q      <= 1'b0;
      round_valid_q   <= '0;
      parent_flags_q  <= '0;
      exchanges_q     <= '0;
      x_t1_q          <= '0;
      x_t2_q          <= '0;
      x_t3_q          <= '0;
      x_t4_q          <= '0;
      x_fine_q        <= 1'b0;
    end else begin
      // ---- reference: Sync every period_i cycles, then its Follow_Up. A
      // new period counts from the next Sync (>=: one shortened under a
      // running count ends it now).
      if (!reference_i) begin
        sync_timer_q  <= '0;
        want_sync_q   <= 1'b0;
        want_follow_q <= 1'b0;
        want_resp_q   <= 1'b0;
        sync_sent_q   <= 1'b0;
      end else begin
        if (sync_timer_q + 32'd1 >= period_i) begin
          sync_timer_q <= '0;
          want_sync_q  <= 1'b1;
        end else begin
          sync_timer_q <= sync_timer_q + 1'b1;
        end
        if (start && next_type == sync_link_pkg::TypeSync) begin
          want_sync_q <= 1'b0;
          sync_sent_q <= 1'b1;
        end
        if (sync_sent_q && tx_fs_valid_q) begin
          sync_sent_q   <= 1'b0;
          follow_ts_q   <= tx_fs_q;
          want_follow_q <= 1'b1;
        end
        if (start && next_type == sync_link_pkg::TypeFollowUp) begin
          want_follow_q <= 1'b0;
          sync_seq_q    <= sync_seq_q + 8'd1;  // the Follow_Up took this seq
        end
        if (start && next_type == sync_link_pkg::TypeDelayResp) want_resp_q <= 1'b0;
        if (frame_ok && type_b_q == sync_link_pkg::TypeDelayReq) begin
          want_resp_q <= 1'b1;
          resp_seq_q  <= seq_b_q;
          resp_ts_q   <= rx_fs_b_q - 64'(slide_q) * UiFs;
          resp_fine_q <= fine_b_q;
        end
      end

      // ---- follower: Sync (t2), Follow_Up (t1), our Delay_Req (t3), Delay_Resp (t4)
      if (!follower_ok || time_step_i) begin
        // No link, or a time step: rounds in flight, a Sync or a request are
        // stamped in a time base that is gone. The parent's flag stays
        // through a step.
        have_sync_q   <= 1'b0;
        want_req_q    <= 1'b0;
        req_sent_q    <= 1'b0;
        round_valid_q <= '0;
        if (!follower_ok) parent_flags_q <= '0;
      end else begin
        if (start && next_type == sync_link_pkg::TypeDelayReq) begin
          want_req_q <= 1'b0;
          req_sent_q <= 1'b1;
        end
        if (req_sent_q && tx_fs_valid_q) begin
          req_sent_q                                 <= 1'b0;
          round_t1_q[req_seq_q[RoundBits-1:0]]       <= req_t1_q;
          round_t2_q[req_seq_q[RoundBits-1:0]]       <= req_t2_q;
          round_t2_fine_q[req_seq_q[RoundBits-1:0]]  <= req_t2_fine_q;
          round_t3_q[req_seq_q[RoundBits-1:0]]       <= tx_fs_q;
          round_seq_q[req_seq_q[RoundBits-1:0]]      <= req_seq_q;
          round_valid_q[req_seq_q[RoundBits-1:0]]    <= 1'b1;
        end
        if (frame_ok) begin
          case (type_b_q)
            sync_link_pkg::TypeSync: begin
              cur_seq_q       <= seq_b_q;
              t2_q            <= rx_fs_b_q;
              t2_fine_q       <= fine_b_q;
              have_sync_q     <= 1'b1;
              parent_flags_q  <= flags_b_q[lightrail_hwdef_pkg::SYNC_FLAG_BITS-1:0];
            end
            sync_link_pkg::TypeFollowUp:
            if (have_sync_q && seq_b_q == cur_seq_q && !want_req_q && !req_sent_q) begin
              have_sync_q <= 1'b0;
              req_t1_q    <= ts_b_q;
              req_t2_q    <= t2_q;
              req_t2_fine_q <= t2_fine_q;
              req_seq_q   <= cur_seq_q;
              want_req_q  <= 1'b1;
            end
            sync_link_pkg::TypeDelayResp:
            if (round_valid_q[resp_round] && round_seq_q[resp_round] == seq_b_q) begin
              x_t1_q                    <= round_t1_q[resp_round];
              x_t2_q                    <= round_t2_q[resp_round];
              x_t3_q                    <= round_t3_q[resp_round];
              x_t4_q                    <= ts_b_q;
              x_fine_q                  <= round_t2_fine_q[resp_round] && flags_b_q[sync_link_pkg::FlagRefined];
              exchanges_q               <= exchanges_q + 32'd1;
              // A request recorded into the same slot this cycle (a reply 32
              // requests late) keeps it: its own reply is still to come.
              if (!(req_sent_q && tx_fs_valid_q && req_seq_q[RoundBits-1:0] == resp_round))
                round_valid_q[resp_round] <= 1'b0;
            end
            default: ;
          endcase
        end
      end
    end
  end

  assign aligned_o       = aligned_q;
  assign rx_bitslide_o   = slide_q;
  assign parent_flags_o  = parent_flags_q;
  assign bad_frames_o    = bad_frames_q;
  assign exchanges_o     = exchanges_q;
  assign exchange_fine_o = x_fine_q;
  assign t1_fs_o         = x_t1_q;
  assign t2_fs_o         = x_t2_q;
  assign t3_fs_o         = x_t3_q;
  assign t4_fs_o         = x_t4_q;
endmodule
