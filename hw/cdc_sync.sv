// Two-flop synchroniser: the one named primitive for every single-bit (or
// bitwise-independent) crossing into clk_i. Multi-bit values cross only as
// handshake-qualified buses whose request/acknowledge go through this module.
//
// ASYNC_REG keeps Vivado from splitting the flops apart and tells timing
// analysis the first flop may go metastable; constraints match the instance
// name pattern "*u_*sync*/sync_q*" (one rule covers every crossing).
module cdc_sync #(
  parameter int WIDTH = 1,
  parameter logic [WIDTH-1:0] RESET_VALUE = '0
) (
  input  logic             clk_i,    // destination clock
  input  logic             rst_ni,   // synchronous to clk_i
  input  logic [WIDTH-1:0] d_i,      // from another clock domain
  output logic [WIDTH-1:0] q_o       // d_i two clk_i edges later
);
  // Initial values are the flops' power-up state (INIT on the FPGA), so an
  // instance whose reset is tied off (axil_cdc) starts defined.
  (* ASYNC_REG = "TRUE" *) logic [WIDTH-1:0] sync_q1 = RESET_VALUE;
  (* ASYNC_REG = "TRUE" *) logic [WIDTH-1:0] sync_q2 = RESET_VALUE;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sync_q1 <= RESET_VALUE;
      sync_q2 <= RESET_VALUE;
    end else begin
      sync_q1 <= d_i;
      sync_q2 <= sync_q1;
    end
  end

  assign q_o = sync_q2;
endmodule
