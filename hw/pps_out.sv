// PPS / epoch output: one pulse per programmed period of board time, on the
// exact multiples of that period (board time 0, P, 2P, ...), so that every
// board synchronised to one time base pulses on the same boundary.
//
// pps_o is high during the clk_i cycle whose tick window [time_i,
// time_i + FINE_STEPS) contains a boundary; pps_fine_o is its tick within the
// cycle (for the fine-edge stage) and pps_time_o the boundary itself.
//
// Alignment needs time mod P, found by a 64-step restoring division of a
// time a little ahead of now; afterwards the next boundary advances by P per
// pulse. Any discontinuity of board time (a servo step), a change of period
// or enable restarts the alignment, so pulses never fall off the multiples;
// no pulse is emitted while aligning. period_i below FINE_STEPS (more than one
// boundary per cycle) is refused: period_error_o, no pulses.
module pps_out (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [63:0] time_i,    // board time (ticks) during this cycle
  input  logic        enable_i,
  input  logic [63:0] period_i,  // ticks; e.g. 1 s = 8e9 ticks of 125 ps
  output logic        pps_o,
  output logic [lightrail_hwdef_pkg::FINE_BITS-1:0] pps_fine_o,
  output logic [63:0] pps_time_o,
  output logic        aligned_o,      // pulses are being produced
  output logic        period_error_o  // period_i < FINE_STEPS
);
  localparam logic [63:0] Ticks = 64'(lightrail_hwdef_pkg::FINE_STEPS);
  localparam int FineBits = lightrail_hwdef_pkg::FINE_BITS;
  // The division takes 64 cycles; aim past them so the first boundary found
  // is still ahead when the division ends.
  localparam logic [63:0] AlignLead = 64'd80 * Ticks;

  typedef enum logic [1:0] {
    Idle,
    Divide,
    Run
  } state_e;

  state_e      state_q;
  logic [63:0] period_q;     // the period being produced
  logic [63:0] prev_time_q;  // to see board time jump
  logic [63:0] target_q;     // the time being divided, then the next boundary
  logic [63:0] dividend_q;   // bits of target_q still to bring down
  logic [63:0] rem_q;      // remainder so far (< period_q)
  logic [6:0]  step_q;

  logic [63:0] lookahead;    // board time during the next cycle
  logic        time_jumped, period_ok;
  logic [64:0] rem_shift;
  logic [63:0] rem_next;

  assign lookahead   = time_i + Ticks;
  assign time_jumped = (time_i != prev_time_q + Ticks);
  assign period_ok   = (period_i >= Ticks);
  assign rem_shift   = {rem_q, dividend_q[63]};
  assign rem_next    = (rem_shift >= {1'b0, period_q}) ? 64'(rem_shift - {1'b0, period_q})
                                                      : rem_shift[63:0];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q        <= Idle;
      period_q       <= '0;
      prev_time_q    <= '0;
      target_q       <= '0;
      dividend_q     <= '0;
      rem_q          <= '0;
      step_q         <= '0;
      pps_o          <= 1'b0;
      pps_fine_o     <= '0;
      pps_time_o     <= '0;
      period_error_o <= 1'b0;
    end else begin
      prev_time_q    <= time_i;
      pps_o          <= 1'b0;
      period_error_o <= enable_i && !period_ok;

      if (!enable_i || !period_ok) begin
        state_q <= Idle;
      end else if (state_q == Idle || period_i != period_q || time_jumped) begin
        state_q    <= Divide;
        period_q   <= period_i;
        target_q   <= time_i + AlignLead;
        dividend_q <= time_i + AlignLead;
        rem_q      <= '0;
        step_q     <= '0;
      end else if (state_q == Divide) begin
        rem_q      <= rem_next;
        dividend_q <= dividend_q << 1;
        step_q     <= step_q + 1'b1;
        if (step_q == 7'd63) begin
          // First multiple of the period at or after target_q.
          target_q <= (rem_next == '0) ? target_q : target_q - rem_next + period_q;
          state_q  <= Run;
        end
      end else if (target_q < lookahead) begin
        // The boundary went by unseen (cannot happen with a continuous
        // time); find the next one again.
        state_q    <= Divide;
        target_q   <= time_i + AlignLead;
        dividend_q <= time_i + AlignLead;
        rem_q      <= '0;
        step_q     <= '0;
      end else if (target_q - lookahead < Ticks) begin
        pps_o      <= 1'b1;
        pps_fine_o <= FineBits'(target_q - lookahead);
        pps_time_o <= target_q;
        target_q   <= target_q + period_q;
      end
    end
  end

  assign aligned_o = (state_q == Run);
endmodule
