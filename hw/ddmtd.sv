// Dual-mixer time-difference (DDMTD) phase detector: the phase of the local
// clock against the reference clock, both at frequency f, with a resolution
// of period / 2**TAG_BITS (DDMTD_TAG_BITS of the register map by default).
//
// clk_dmtd_i runs at f * N / (N + 1), N = 2**TAG_BITS. Sampling an f clock
// with it slides the sampling point by period/N per helper cycle, so each
// input appears as a "beat" square wave of exactly N helper cycles; a delay d
// of the local clock against the reference delays its beat by d * N / period
// helper cycles. Both beats go through a cdc_sync (the inputs are clocks used
// as data) and a ddmtd_deglitch, which tag rising edges with a free-running
// TAG_BITS counter that wraps once per beat. Then
//   phase = (tag_local - tag_ref) mod N,  delay = phase * period / N.
//
// A pair is emitted on every local tag, with the latest reference tag (the
// modulo makes the order of the two tags within a beat irrelevant). It is
// presented in the helper domain and crossed into clk_sys_i by a
// request/acknowledge toggle handshake: the pair is held in helper-domain
// registers while the request toggles through cdc_sync; the system side
// captures it only after the synchronised request changed, when it has been
// stable for at least two clk_sys_i cycles. A crossing takes a few cycles of
// each clock, far less than a beat (N helper cycles), so none is ever dropped
// at a sensible N.
//
// Resets: one per domain, each synchronous to its clock; release both together.
module ddmtd #(
  parameter int TAG_BITS = lightrail_hwdef_pkg::DDMTD_TAG_BITS,  // N = 2**TAG_BITS
  parameter int DEGLITCH = 64   // M: samples a beat level must hold
) (
  input  logic                clk_dmtd_i,   // helper clock, f * N / (N + 1)
  input  logic                rst_dmtd_ni,
  input  logic                clk_ref_i,    // reference clock (recovered from the link)
  input  logic                clk_local_i,  // local clock (the board's system clock or a copy)

  // helper domain
  output logic                tag_valid_o,  // one cycle per beat period
  output logic [TAG_BITS-1:0] tag_ref_o,
  output logic [TAG_BITS-1:0] tag_local_o,

  // system domain
  input  logic                clk_sys_i,
  input  logic                rst_sys_ni,
  output logic                sys_valid_o,  // one clk_sys_i cycle per crossed pair
  output logic [TAG_BITS-1:0] sys_tag_ref_o,
  output logic [TAG_BITS-1:0] sys_tag_local_o,
  output logic [TAG_BITS-1:0] sys_phase_o   // (tag_local - tag_ref) mod N
);
`ifndef SYNTHESIS
  // Parameter checks as an initial block: Icarus 11 lacks elaboration $error.
  initial begin
    if (TAG_BITS < 6) $fatal(1, "ddmtd: TAG_BITS must be >= 6 (the pairing tolerance is N/64)");
    if (DEGLITCH >= (1 << (TAG_BITS - 1))) $fatal(1, "ddmtd: DEGLITCH must be below N/2");
  end
`endif

  // ---- helper domain: samplers, deglitchers, tag counter ------------------
  logic                ref_sample, local_sample;
  logic [TAG_BITS-1:0] count_q;
  logic                ref_tag_valid, local_tag_valid;
  logic [TAG_BITS-1:0] ref_tag, local_tag;
  logic                ref_level, local_level;

  cdc_sync #(
    .RESET_VALUE(1'b1)  // the deglitcher's reset level: no fake fall at reset
  ) u_ref_sync (
    .clk_i (clk_dmtd_i),
    .rst_ni(rst_dmtd_ni),
    .d_i   (clk_ref_i),
    .q_o   (ref_sample)
  );

  cdc_sync #(
    .RESET_VALUE(1'b1)  // the deglitcher's reset level: no fake fall at reset
  ) u_local_sync (
    .clk_i (clk_dmtd_i),
    .rst_ni(rst_dmtd_ni),
    .d_i   (clk_local_i),
    .q_o   (local_sample)
  );

  always_ff @(posedge clk_dmtd_i) begin
    if (!rst_dmtd_ni) begin
      count_q <= '0;
    end else begin
      count_q <= count_q + 1'b1;
    end
  end

  ddmtd_deglitch #(
    .TAG_BITS(TAG_BITS),
    .DEGLITCH(DEGLITCH)
  ) u_ref_deglitch (
    .clk_i      (clk_dmtd_i),
    .rst_ni     (rst_dmtd_ni),
    .sample_i   (ref_sample),
    .count_i    (count_q),
    .tag_valid_o(ref_tag_valid),
    .tag_o      (ref_tag),
    .level_o    (ref_level)
  );

  ddmtd_deglitch #(
    .TAG_BITS(TAG_BITS),
    .DEGLITCH(DEGLITCH)
  ) u_local_deglitch (
    .clk_i      (clk_dmtd_i),
    .rst_ni     (rst_dmtd_ni),
    .sample_i   (local_sample),
    .count_i    (count_q),
    .tag_valid_o(local_tag_valid),
    .tag_o      (local_tag),
    .level_o    (local_level)
  );

  // The levels are for waveforms only.
  logic unused_levels;
  assign unused_levels = ref_level ^ local_level;

  // ---- helper domain: pairing ------------------------------------------------
  // Local tags pair only with a reference tag that proved itself: it came
  // within a beat and a quarter of the previous one, and it advanced over
  // it (mod N) by at most N/4 and, to N/64, as that one advanced over its
  // own predecessor or as the last tag that proved itself did (so a one-off
  // jump of the phase, a step of the path, costs one pair, not two). A reference off in frequency by y advances its tag by
  // -y N (N + 1) a beat, so the phase then ramps by the frequency error
  // every beat and the servo syntonises from it (up to N/4 / (N (N + 1)),
  // 61 ppm at N = 4096). A reference that returns after a loss resumes its
  // beat wherever it is, and a resume in the high half looks like a rising
  // edge that is none; its advance disagrees with the last one, so it pairs
  // only if it lands where a real tag would anyway (an error of at most
  // 1/64 of a period). Reset or a loss longer than a beat and a quarter
  // make no pairs until three tags in a row agree.
  localparam logic [TAG_BITS:0]   MaxAge = (TAG_BITS + 1)'((1 << TAG_BITS) + (1 << (TAG_BITS - 2)));
  localparam logic [TAG_BITS-1:0] Tol = TAG_BITS'(1 << (TAG_BITS - 6));
  localparam logic [TAG_BITS-1:0] MaxAdvance = TAG_BITS'(1 << (TAG_BITS - 2));

  logic [TAG_BITS:0]   ref_age_q;    // helper cycles since the last reference tag, saturating
  logic                ref_armed_q;  // the last reference tag proved itself
  logic                ref_agrees;   // this reference tag proves itself
  logic                ref_fresh;
  logic [TAG_BITS-1:0] last_ref_q;
  logic [TAG_BITS-1:0] ref_delta;     // this tag's advance over the last one
  logic [TAG_BITS-1:0] last_delta_q;  // the last tag's advance over its predecessor
  logic                last_delta_ok_q;
  logic [TAG_BITS-1:0] good_delta_q;  // the advance of the last tag that proved itself
  logic                good_delta_ok_q;
  logic [TAG_BITS-1:0] good_change;
  logic [TAG_BITS-1:0] delta_change;
  logic [TAG_BITS-1:0] pair_ref;

  assign ref_delta    = ref_tag - last_ref_q;
  assign delta_change = ref_delta - last_delta_q;
  assign good_change  = ref_delta - good_delta_q;
  assign ref_agrees   = (ref_age_q <= MaxAge) &&
                        ((ref_delta <= MaxAdvance) || (ref_delta >= TAG_BITS'(-MaxAdvance))) &&
                        ((last_delta_ok_q && ((delta_change <= Tol) || (delta_change >= TAG_BITS'(-Tol)))) ||
                         (good_delta_ok_q && ((good_change <= Tol) || (good_change >= TAG_BITS'(-Tol)))));
  assign ref_fresh  = ref_tag_valid ? ref_agrees : (ref_armed_q && ref_age_q <= MaxAge);
  assign pair_ref   = ref_tag_valid ? ref_tag : last_ref_q;

  always_ff @(posedge clk_dmtd_i) begin
    if (!rst_dmtd_ni) begin
      ref_age_q       <= '1;
      ref_armed_q     <= 1'b0;
      last_ref_q      <= '0;
      last_delta_q    <= '0;
      last_delta_ok_q <= 1'b0;
      good_delta_q    <= '0;
      good_delta_ok_q <= 1'b0;
      tag_valid_o <= 1'b0;
      tag_ref_o   <= '0;
      tag_local_o <= '0;
    end else begin
      if (ref_tag_valid) begin
        ref_age_q   <= '0;
        ref_armed_q     <= ref_agrees;
        last_ref_q      <= ref_tag;
        last_delta_q    <= ref_delta;
        last_delta_ok_q <= ref_age_q <= MaxAge;
        if (ref_age_q > MaxAge) good_delta_ok_q <= 1'b0;
        else if (ref_agrees) begin
          good_delta_q    <= ref_delta;
          good_delta_ok_q <= 1'b1;
        end
      end else if (ref_age_q != '1) begin
        ref_age_q <= ref_age_q + 1'b1;
      end
      tag_valid_o <= local_tag_valid && ref_fresh;
      if (local_tag_valid) begin
        tag_ref_o   <= pair_ref;
        tag_local_o <= local_tag;
      end
    end
  end

  // ---- helper -> system crossing: toggle request / acknowledge -------------
  logic                req_q;       // toggles once per pair launched
  logic                ack_dmtd;    // sys_seen_q, synchronised back
  logic [TAG_BITS-1:0] hold_ref_q, hold_local_q;  // stable while req_q != ack_dmtd

  always_ff @(posedge clk_dmtd_i) begin
    if (!rst_dmtd_ni) begin
      req_q        <= 1'b0;
      hold_ref_q   <= '0;
      hold_local_q <= '0;
    end else if (tag_valid_o && (req_q == ack_dmtd)) begin
      req_q        <= ~req_q;
      hold_ref_q   <= tag_ref_o;
      hold_local_q <= tag_local_o;
    end
  end

  logic req_sys;
  logic sys_seen_q;  // the last request the system side has taken

  cdc_sync u_req_sync (
    .clk_i (clk_sys_i),
    .rst_ni(rst_sys_ni),
    .d_i   (req_q),
    .q_o   (req_sys)
  );

  cdc_sync u_ack_sync (
    .clk_i (clk_dmtd_i),
    .rst_ni(rst_dmtd_ni),
    .d_i   (sys_seen_q),
    .q_o   (ack_dmtd)
  );

  always_ff @(posedge clk_sys_i) begin
    if (!rst_sys_ni) begin
      sys_seen_q      <= 1'b0;
      sys_valid_o     <= 1'b0;
      sys_tag_ref_o   <= '0;
      sys_tag_local_o <= '0;
      sys_phase_o     <= '0;
    end else begin
      sys_valid_o <= 1'b0;
      if (req_sys != sys_seen_q) begin
        sys_seen_q      <= req_sys;
        sys_valid_o     <= 1'b1;
        sys_tag_ref_o   <= hold_ref_q;
        sys_tag_local_o <= hold_local_q;
        sys_phase_o     <= hold_local_q - hold_ref_q;
      end
    end
  end
endmodule
