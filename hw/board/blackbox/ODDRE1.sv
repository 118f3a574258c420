// UltraScale+ output DDR register (UG974 ODDRE1): Q = D1 after the rising
// edge of C, D2 after the falling edge; forwards a clock with D1 = 1, D2 = 0.
module ODDRE1 #(
  parameter logic  SRVAL      = 1'b0,
  parameter string SIM_DEVICE = "ULTRASCALE_PLUS"
) (
  input  logic C,
  input  logic D1,
  input  logic D2,
  input  logic SR,
  output logic Q
);
endmodule
