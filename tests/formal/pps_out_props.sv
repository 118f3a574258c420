// Formal harness of hw/pps_out.sv (docs/formal.md). With board time running
// continuously and the period fixed: every pulse marks a boundary inside its
// own cycle's tick window, at the tick pps_fine_o says; after a pulse at
// boundary B the next pulse is exactly B + period, in the cycle whose window
// holds it (one pulse per boundary: none skipped, none extra); with a period
// of two cycles or more a pulse is one cycle wide.
//
// Cuts (run_formal.py --cutpoint): the division's remainder (dut.rem_next)
// and step count (dut.step_q) are free inputs in every cycle. The division
// then ends at any time with any first boundary. The properties above hold
// for any first boundary, so the cut adds behaviour and proves nothing false.
// That the first boundary is a multiple of the period (the division itself)
// is therefore not proven here; the benches check it (docs/formal.md).
module pps_out_props #(
  // 0: the a_inv_* invariants are not asserted (broken copies: BMC goes on
  // to the property the bug breaks, past the invariant it breaks first).
  parameter bit INVARIANTS = 1
) (
  input logic        clk_i,
  input logic        rst_ni,
  input logic [63:0] time_i
);
  localparam logic [63:0] Ticks = 64'(lightrail_hwdef_pkg::FINE_STEPS);
  localparam logic [1:0] Run = 2'd2;  // pps_out's state_e

  // A period of one cycle or more, up to 2^40 ticks (137 s); board time
  // below 2^62 ticks (18 years): no sum below wraps.
  (* anyconst *) logic [63:0] f_period;
  always_comb assume (f_period >= Ticks && f_period <= 64'd1 << 40);

  logic        pps_o, aligned_o, period_error_o;
  logic [lightrail_hwdef_pkg::FINE_BITS-1:0] pps_fine_o;
  logic [63:0] pps_time_o;
  pps_out dut (.clk_i, .rst_ni, .time_i, .enable_i(1'b1), .period_i(f_period), .pps_o, .pps_fine_o,
               .pps_time_o, .aligned_o, .period_error_o);

  logic f_init = 1'b1, f_run = 1'b0, f_prev_pps = 1'b0;
  always_ff @(posedge clk_i) begin
    f_init     <= 1'b0;
    f_run      <= rst_ni;
    f_prev_pps <= pps_o;
  end
  always_comb assume (rst_ni == !f_init);

  // Board time runs on: one cycle of ticks per cycle.
  logic [63:0] f_prev_time;
  always_ff @(posedge clk_i) f_prev_time <= time_i;
  always_comb begin
    assume (time_i < 64'd1 << 62);
    if (!f_init) assume (time_i == f_prev_time + Ticks);
  end

  // The boundary after the last pulse.
  logic        f_have;
  logic [63:0] f_next;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) f_have <= 1'b0;
    else if (pps_o) begin
      f_have <= 1'b1;
      f_next <= pps_time_o + f_period;
    end
  end

  // DUT registers, for the invariants (keep: connected also when INVARIANTS = 0).
  (* keep *) logic [1:0]  f_obs_state;      // dut.state_q
  (* keep *) logic [63:0] f_obs_target;     // dut.target_q: the next boundary, in Run
  (* keep *) logic [63:0] f_obs_period;     // dut.period_q
  (* keep *) logic [63:0] f_obs_prev_time;  // dut.prev_time_q

  always_comb begin
    if (rst_ni && f_run) begin
      a_pulse_window: assert (!pps_o || (pps_time_o >= time_i && pps_time_o - time_i < Ticks &&
                                          64'(pps_fine_o) == pps_time_o - time_i));
      a_next_boundary: assert (!(f_have && f_next >= time_i && f_next - time_i < Ticks) ||
                               (pps_o && pps_time_o == f_next));
      a_no_extra_pulse: assert (!(pps_o && f_have) || pps_time_o == f_next);
      if (f_period >= 2 * Ticks) a_width: assert (!(pps_o && f_prev_pps));
    end
    if (rst_ni && f_run && INVARIANTS) begin
      // Invariants for the induction: the DUT's own state.
      a_inv_prev: assert (f_obs_prev_time + Ticks == time_i && !period_error_o);
      a_inv_period: assert (f_obs_state != 2'd3 && (f_obs_state == 2'd0 || f_obs_period == f_period));
      a_inv_have: assert (!f_have || (f_obs_state == Run && f_next >= time_i &&
                                      f_obs_target == (pps_o ? pps_time_o + f_period : f_next)));
    end
  end

  // Not vacuous: a pulse, and the next one a period later.
  always_comb begin
    if (rst_ni && f_run) begin
      c_pulse: cover (pps_o);
      c_next: cover (pps_o && f_have);
    end
  end
endmodule
