// UltraScale+ transceiver reference-clock input buffer (UG974 IBUFDS_GTE4).
// O feeds GT reference clocks; ODIV2 (O, or O/2 per REFCLK_HROW_CK_SEL) feeds
// the fabric through BUFG_GT.
module IBUFDS_GTE4 #(
  parameter logic       REFCLK_EN_TX_PATH  = 1'b0,
  parameter logic [1:0] REFCLK_HROW_CK_SEL = 2'b00,
  parameter logic [1:0] REFCLK_ICNTL_RX    = 2'b00
) (
  input  logic I,
  input  logic IB,
  input  logic CEB,
  output logic O,
  output logic ODIV2
);
endmodule
