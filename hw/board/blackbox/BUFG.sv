// UltraScale+ global clock buffer (UG974 BUFG).
module BUFG (
  input  logic I,
  output logic O
);
endmodule
