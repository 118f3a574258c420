// Fine-edge output stage of one port: turns the sequencer's per-cycle events
// (fine = tick within the cycle) into one serializer word per cycle.
//
// Exactly OUTPUT_LATENCY_CYCLES (1) register stage: the events presented
// during cycle t shape the outputs during cycle t+1. gate_ser_o bit k is the
// transmit gate level during tick k of the cycle, bit 0 first on the line.
module fine_edge_stage (
  input  logic                                             clk_i,
  input  logic                                             rst_ni,
  input  logic                                             sel_valid_i,
  input  logic [           lightrail_hwdef_pkg::FINE_BITS-1:0] sel_fine_i,
  input  logic [     lightrail_hwdef_pkg::WAVELENGTH_BITS-1:0] sel_value_i,
  input  logic                                             fall_valid_i,
  input  logic [           lightrail_hwdef_pkg::FINE_BITS-1:0] fall_fine_i,
  input  logic                                             rise_valid_i,
  input  logic [           lightrail_hwdef_pkg::FINE_BITS-1:0] rise_fine_i,
  output logic [          lightrail_hwdef_pkg::FINE_STEPS-1:0] gate_ser_o,
  output logic [     lightrail_hwdef_pkg::WAVELENGTH_BITS-1:0] sel_o,
  output logic                                             sel_stb_o,
  output logic [           lightrail_hwdef_pkg::FINE_BITS-1:0] sel_fine_o
);
  localparam int Ticks = lightrail_hwdef_pkg::FINE_STEPS;

  logic [Ticks-1:0] prev_level;  // level before this cycle, on every tick
  logic [Ticks-1:0] fall_from;   // ticks at or after the fall
  logic [Ticks-1:0] rise_from;   // ticks at or after the rise
  logic [Ticks-1:0] gate_d;

  // The gate level carried into a cycle is the last tick of the previous one.
  assign prev_level = {Ticks{gate_ser_o[Ticks-1]}};
  assign fall_from  = fall_valid_i ? ({Ticks{1'b1}} << fall_fine_i) : '0;
  assign rise_from  = rise_valid_i ? ({Ticks{1'b1}} << rise_fine_i) : '0;

  // The later event wins from its tick on. Events on the same tick apply
  // fall then rise (a zero-length guard leaves the gate up). With only one
  // event (the other mask is 0) both forms give the same word.
  assign gate_d = (fall_fine_i <= rise_fine_i) ? ((prev_level & ~fall_from) | rise_from)
                                               : ((prev_level | rise_from) & ~fall_from);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      gate_ser_o <= '0;
      sel_o      <= '0;
      sel_stb_o  <= 1'b0;
      sel_fine_o <= '0;
    end else begin
      gate_ser_o <= gate_d;
      sel_stb_o  <= sel_valid_i;
      if (sel_valid_i) begin
        sel_o      <= sel_value_i;
        sel_fine_o <= sel_fine_i;
      end
    end
  end
endmodule
