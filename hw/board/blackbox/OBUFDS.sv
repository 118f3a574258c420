// Differential output buffer (UG974 OBUFDS).
module OBUFDS (
  input  logic I,
  output logic O,
  output logic OB
);
endmodule
