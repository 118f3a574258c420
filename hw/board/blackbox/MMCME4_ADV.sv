// UltraScale+ MMCM with dynamic phase shift (UG974 MMCME4_ADV; phase-shift
// interface UG572 "Dynamic Phase Shift Interface in the MMCM"). Only the
// attributes and ports the wrapper sets are declared.
module MMCME4_ADV #(
  parameter string BANDWIDTH            = "OPTIMIZED",
  parameter real   CLKIN1_PERIOD        = 0.0,
  parameter real   CLKFBOUT_MULT_F      = 5.0,
  parameter int    DIVCLK_DIVIDE        = 1,
  parameter real   CLKOUT0_DIVIDE_F     = 1.0,
  parameter string CLKOUT0_USE_FINE_PS  = "FALSE",
  parameter string CLKFBOUT_USE_FINE_PS = "FALSE",
  parameter string COMPENSATION         = "AUTO"
) (
  input  logic        CLKIN1,
  input  logic        CLKIN2,
  input  logic        CLKINSEL,
  input  logic        CLKFBIN,
  output logic        CLKFBOUT,
  output logic        CLKOUT0,
  output logic        LOCKED,
  input  logic        RST,
  input  logic        PWRDWN,
  input  logic        PSCLK,
  input  logic        PSEN,
  input  logic        PSINCDEC,
  output logic        PSDONE,
  input  logic        DCLK,
  input  logic        DEN,
  input  logic        DWE,
  input  logic [ 6:0] DADDR,
  input  logic [15:0] DI,
  input  logic        CDDCREQ
);
endmodule
