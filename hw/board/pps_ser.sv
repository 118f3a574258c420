// PPS on a transceiver lane: turns the top's pps_o / pps_fine_o (the cycle
// holding a PPS boundary and the boundary's tick in it) into 32-bit
// serializer words (bit k = level in tick k, as gate_ser_o), so the pulse's
// rising edge lands on its 125 ps tick instead of a 4 ns cycle edge. The pulse
// is exactly PULSE_CYCLES cycles long. One register stage, like
// fine_edge_stage, so PPS and switch gates leave the board with the same
// latency (a constant, calibrated once on a scope: docs/board.md).
//
// pin_o is the same pulse at cycle resolution (its edge up to one cycle late)
// for a plain I/O pin: a scope trigger, not a timing reference.
module pps_ser #(
  parameter int PULSE_CYCLES = 25  // 100 ns at 250 MHz; must be < the PPS period
) (
  input  logic                                       clk_i,
  input  logic                                       rst_ni,
  input  logic                                       pps_i,
  input  logic [lightrail_hwdef_pkg::FINE_BITS-1:0]  pps_fine_i,
  output logic [lightrail_hwdef_pkg::FINE_STEPS-1:0] word_o,
  output logic                                       pin_o
);
  localparam int FineSteps = lightrail_hwdef_pkg::FINE_STEPS;
  localparam int FineBits = lightrail_hwdef_pkg::FINE_BITS;
  localparam int CntBits = $clog2(PULSE_CYCLES + 1);

  logic [ CntBits-1:0] left_q;  // cycles of the pulse still to send after this one
  logic [FineBits-1:0] fine_q;  // tick of the rising edge, for the falling one

  // Bits at or above tick f: the part of a word after an edge at f.
  function automatic logic [FineSteps-1:0] from_tick(logic [FineBits-1:0] f);
    return ~((FineSteps'(1) << f) - FineSteps'(1));
  endfunction

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      left_q <= '0;
      fine_q <= '0;
      word_o <= '0;
      pin_o  <= 1'b0;
    end else if (pps_i) begin
      // A boundary restarts the pulse (periods shorter than the pulse merge).
      left_q <= CntBits'(PULSE_CYCLES);
      fine_q <= pps_fine_i;
      word_o <= from_tick(pps_fine_i);
      pin_o  <= 1'b1;
    end else if (left_q > CntBits'(1)) begin
      left_q <= left_q - CntBits'(1);
      word_o <= '1;
      pin_o  <= 1'b1;
    end else if (left_q == CntBits'(1)) begin
      // Last word: high up to the tick of the rising edge, so the pulse is
      // exactly PULSE_CYCLES * FINE_STEPS ticks long.
      left_q <= '0;
      word_o <= ~from_tick(fine_q);
      pin_o  <= 1'b0;
    end else begin
      word_o <= '0;
      pin_o  <= 1'b0;
    end
  end
endmodule
