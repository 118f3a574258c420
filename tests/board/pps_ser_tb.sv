// Bench of hw/board/pps_ser.sv: for a boundary at every tick f of a cycle,
// the serialised pulse rises exactly at tick f of that cycle's word, stays
// high exactly PULSE_CYCLES * 32 ticks, and the pin copy is high for
// PULSE_CYCLES cycles from that cycle.
`timescale 1ns / 1ps
module pps_ser_tb;
  localparam int Pulse = 5;
  logic clk = 0, rst_n = 0, pps = 0;
  logic [4:0] fine = 0;
  logic [31:0] word;
  logic pin;
  always #2 clk = ~clk;
  pps_ser #(.PULSE_CYCLES(Pulse)) dut (.clk_i(clk), .rst_ni(rst_n), .pps_i(pps), .pps_fine_i(fine), .word_o(word), .pin_o(pin));

  int errors = 0;
  int rise, fall, tick, pin_cycles;
  initial begin
    repeat (3) @(posedge clk);
    rst_n = 1;
    for (int f = 0; f < 32; f++) begin
      rise = -1; fall = -1; tick = 0; pin_cycles = 0;
      @(negedge clk); pps = 1; fine = 5'(f);
      @(negedge clk); pps = 0;
      // The word for the pps cycle is out after this edge: collect ticks.
      for (int c = 0; c < Pulse + 3; c++) begin
        for (int k = 0; k < 32; k++) begin
          if (word[k] && rise < 0) rise = tick;
          if (!word[k] && rise >= 0 && fall < 0) fall = tick;
          tick++;
        end
        if (pin) pin_cycles++;
        @(negedge clk);
      end
      if (rise != f || fall - rise != Pulse * 32 || pin_cycles != Pulse) begin
        $display("ERROR fine %0d: rise %0d fall %0d pin %0d cycles", f, rise, fall, pin_cycles);
        errors++;
      end
    end
    $display("TB_DONE errors=%0d", errors);
    $finish;
  end
endmodule
