// Formal harness of hw/osc_ctrl.sv's phase stepper (docs/formal.md), against
// an MMCM that answers each PSEN with one PSDONE within the timeout, or
// never (UG572): one step at a time; the pending count is requests minus
// completed steps, saturating at the int32 bounds instead of wrapping; the
// completed total moves by one per PSDONE, in the step's direction.
// The DAC's serial framing is not covered here (docs/formal.md).
module osc_ctrl_props (
  input logic               clk_i,
  input logic               rst_ni,
  input logic [lightrail_hwdef_pkg::SYNC_DAC_BITS-1:0] dac_word_i,
  input logic               dac_load_i,
  input logic signed [31:0] phase_steps_i,
  input logic               phase_load_i,
  input logic               psdone_i
);
  localparam int PsTimeout = 16;  // the smallest osc_ctrl accepts: shortest proofs

  logic psen_o, psincdec_o, ps_timeout_o;
  logic signed [31:0] steps_pending_o, steps_done_total_o;
  osc_ctrl #(.DIV(4), .PS_TIMEOUT(PsTimeout)) dut (
    .clk_i, .rst_ni, .dac_word_i, .dac_load_i, .dac_sclk_o(), .dac_sync_no(), .dac_din_o(),
    .dac_busy_o(), .dac_done_o(), .phase_steps_i, .phase_load_i, .psen_o, .psincdec_o, .psdone_i,
    .steps_pending_o, .steps_done_total_o, .ps_timeout_o);

  logic f_init = 1'b1;
  always_ff @(posedge clk_i) f_init <= 1'b0;
  always_comb assume (rst_ni == !f_init);

  // The MMCM: a PSDONE only for a step outstanding, 1..PsTimeout cycles
  // after its PSEN; a step not answered by then is never answered.
  logic       f_out, f_adv;
  logic [7:0] f_age;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_out <= 1'b0;
      f_age <= '0;
    end else if (psen_o) begin
      f_out <= 1'b1;
      f_adv <= !psincdec_o;  // PSINCDEC = 0 advances board time
      f_age <= 8'd1;
    end else if (f_out) begin
      if (psdone_i || f_age == 8'(PsTimeout)) f_out <= 1'b0;
      f_age <= f_age + 8'd1;
    end
  end
  always_comb assume (!psdone_i || (f_out && !psen_o));

  // Reference: requests add, completed steps subtract, saturating.
  logic signed [33:0] f_sum;
  logic signed [31:0] f_pending, f_done;
  logic f_valid;
  always_comb begin
    f_sum = 34'(steps_pending_o) + (phase_load_i ? 34'(phase_steps_i) : 34'sd0);
    if (psdone_i) f_sum = f_adv ? f_sum - 34'sd1 : f_sum + 34'sd1;
  end
  always_ff @(posedge clk_i) begin
    f_valid   <= rst_ni;
    f_pending <= (f_sum > 34'sd2147483647) ? 32'sh7fffffff
               : (f_sum < -34'sd2147483648) ? 32'sh80000000 : 32'(f_sum);
    f_done    <= !psdone_i ? steps_done_total_o
               : f_adv ? steps_done_total_o + 32'sd1 : steps_done_total_o - 32'sd1;
  end

  logic       f_obs_inflight;  // dut.inflight_q
  logic       f_obs_advance;   // dut.advance_q
  logic [4:0] f_obs_wait;      // dut.wait_q
  always_comb begin
    if (rst_ni && f_valid) begin
      // The next PSEN only after PSDONE (or after giving the step up).
      a_one_step: assert (!(psen_o && f_out));
      a_pending: assert (steps_pending_o == f_pending);
      a_done_total: assert (steps_done_total_o == f_done);
      // Invariant for the induction: the DUT waits on the step the MMCM has.
      a_inv_inflight: assert (f_obs_inflight == (f_out || psen_o) &&
                              (!f_out || (32'(f_obs_wait) == 32'(f_age) && f_age <= 8'(PsTimeout) &&
                                          f_obs_advance == f_adv)));
    end
  end
endmodule
