// Board time in ticks (1/FINE_STEPS of a system clock cycle).
//
// Free-running from reset for now. The clock-synchronisation work replaces
// the source of this time base (servo-disciplined, loadable from the
// timestamp exchange) behind these same ports, so everything downstream
// (sequencer, TIME_LO/HI) is unchanged when it lands.
module time_counter (
  input  logic        clk_i,
  input  logic        rst_ni,
  output logic [63:0] ticks_o  // board time during the current cycle
);
  localparam logic [63:0] TicksPerCycle = 64'(lightrail_hwdef_pkg::FINE_STEPS);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ticks_o <= '0;
    end else begin
      ticks_o <= ticks_o + TicksPerCycle;
    end
  end
endmodule
