// DDMTD deglitcher: turns one sampled beat signal (a clock seen through the
// helper clock) into one rising-edge tag per beat period.
//
// Near each transition of the beat, jitter makes the samples toggle for a
// while. The stable level changes only after DEGLITCH consecutive samples
// disagree with it, so one transition gives exactly one tag however long it
// glitches. The tag is the midpoint between the first crossing (the first
// sample that disagreed with the old level) and the last one (the first
// sample of the final stable run), not the moment of decision: both
// channels share the same estimator, the constant decision latency never
// enters the tag, and jitter symmetric about the transition moves the two
// crossings alike, so a jittery input (the recovered clock) is not tagged
// late against a clean one (the local clock). The last crossing alone was
// late by about two sigma of the jitter: 9.3 ps of offset at 10 ps rms of
// CDR jitter, the same sign on every board (issue 26). A disagreeing sample
// followed by DEGLITCH agreeing ones is forgotten as a lone glitch.
//
// Out of reset the beat level is unknown: the level starts high and tags are
// armed only by the first settled fall, so the first tag marks a rising edge
// actually seen (never the release of reset in a high half of the beat).
module ddmtd_deglitch #(
  parameter int TAG_BITS = lightrail_hwdef_pkg::DDMTD_TAG_BITS,  // beat period = 2**TAG_BITS helper cycles
  parameter int DEGLITCH = 64   // samples a new level must hold
) (
  input  logic                clk_i,     // helper clock
  input  logic                rst_ni,    // synchronous to clk_i
  input  logic                sample_i,  // beat signal, already synchronised to clk_i
  input  logic [TAG_BITS-1:0] count_i,   // free-running tag counter
  output logic                tag_valid_o,  // one cycle per deglitched rising edge
  output logic [TAG_BITS-1:0] tag_o,
  output logic                level_o    // deglitched beat level
);
  localparam int RunBits = $clog2(DEGLITCH + 1);
  localparam logic [RunBits-1:0] RunLast = RunBits'(DEGLITCH - 1);

  logic [RunBits-1:0]  run_q;    // consecutive samples differing from level_o
  logic [TAG_BITS-1:0] start_q;  // count_i when the current run began
  logic                armed_q;  // a settled fall has been seen since reset
  logic [RunBits-1:0]  agree_q;  // consecutive samples equal to level_o, saturating at DEGLITCH
  logic                first_ok_q;  // a crossing since the level last held
  logic [TAG_BITS-1:0] first_q;     // count_i at that first crossing
  logic [TAG_BITS-1:0] last;        // count_i at the last crossing
  logic [TAG_BITS-1:0] span;        // last - first (mod N)

  assign last = (run_q == '0) ? count_i : start_q;
  assign span = last - (first_ok_q ? first_q : last);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      level_o     <= 1'b1;
      armed_q     <= 1'b0;
      agree_q     <= '0;
      first_ok_q  <= 1'b0;
      first_q     <= '0;
      run_q       <= '0;
      start_q     <= '0;
      tag_valid_o <= 1'b0;
      tag_o       <= '0;
    end else begin
      tag_valid_o <= 1'b0;
      if (sample_i == level_o) begin
        run_q <= '0;
        if (agree_q != RunLast) agree_q <= agree_q + 1'b1;
        else first_ok_q <= 1'b0;  // held for DEGLITCH samples: no transition began
      end else if (run_q == RunLast) begin
        level_o    <= sample_i;
        run_q      <= '0;
        agree_q    <= '0;
        first_ok_q <= 1'b0;
        if (!sample_i) begin
          armed_q <= 1'b1;
        end else if (armed_q) begin
          tag_valid_o <= 1'b1;
          tag_o       <= (first_ok_q ? first_q : last) + (span >> 1);
        end
      end else begin
        agree_q <= '0;
        if (!first_ok_q) begin
          first_ok_q <= 1'b1;
          first_q    <= count_i;
        end
        if (run_q == '0) start_q <= count_i;
        run_q <= run_q + 1'b1;
      end
    end
  end

  // A level must settle within half a beat, or no tag would ever come.
  initial begin
    if (DEGLITCH < 1 || DEGLITCH >= (1 << (TAG_BITS - 1))) begin
      $error("ddmtd_deglitch: DEGLITCH=%0d must be in [1, 2**(TAG_BITS-1))", DEGLITCH);
    end
  end
endmodule
