// Formal harness of hw/time_counter.sv (docs/formal.md): board time advances
// by exactly one cycle of ticks per cycle, and moves otherwise only by the
// servo's commanded step, in the cycle after it.
module time_counter_props (
  input logic        clk_i,
  input logic        rst_ni,
  input logic [63:0] step_i,
  input logic        step_valid_i
);
  localparam logic [63:0] TicksPerCycle = 64'(lightrail_hwdef_pkg::FINE_STEPS);

  logic [63:0] ticks_o;
  time_counter dut (.clk_i, .rst_ni, .step_i, .step_valid_i, .ticks_o);

  logic f_init = 1'b1;
  always_ff @(posedge clk_i) f_init <= 1'b0;
  always_comb assume (rst_ni == !f_init);

  // What the counter must show next cycle, from this cycle's view.
  logic [63:0] f_expect;
  logic        f_valid;
  always_ff @(posedge clk_i) begin
    f_valid  <= rst_ni;
    f_expect <= ticks_o + TicksPerCycle + (step_valid_i ? step_i : 64'd0);
  end

  always_comb begin
    if (rst_ni && f_valid) begin
      // Monotonic at one cycle of ticks per cycle, plus exactly the step commanded.
      a_advance: assert (ticks_o == f_expect);
    end
  end
endmodule
