// Board time in ticks (1/FINE_STEPS of a system clock cycle).
//
// Counts the system clock's cycles, which the clock-sync servo steers (VCXO
// DAC, MMCM phase steps), so the count is the disciplined time base. The one
// exception is the coarse time set at boot: the servo adds whole ticks once
// (step_valid_i), before its first lock; after that time is only slewed.
module time_counter (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [63:0] step_i,        // ticks to add, two's complement
  input  logic        step_valid_i,  // one cycle
  output logic [63:0] ticks_o        // board time during the current cycle
);
  localparam logic [63:0] TicksPerCycle = 64'(lightrail_hwdef_pkg::FINE_STEPS);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ticks_o <= '0;
    end else begin
      ticks_o <= ticks_o + TicksPerCycle + (step_valid_i ? step_i : 64'd0);
    end
  end
endmodule
