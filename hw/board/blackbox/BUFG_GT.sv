// UltraScale+ global clock buffer driven from a transceiver column
// (UG974 BUFG_GT): divides by DIV + 1.
module BUFG_GT (
  input  logic       I,
  input  logic       CE,
  input  logic       CEMASK,
  input  logic       CLR,
  input  logic       CLRMASK,
  input  logic [2:0] DIV,
  output logic       O
);
endmodule
