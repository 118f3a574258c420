// Reset synchroniser: asserts asynchronously (a clock that stops, or an MMCM
// that unlocks, still resets its domain) and releases synchronously to clk_i
// after STAGES edges, so every flop of the domain leaves reset in one cycle.
// The board XDC false-paths the asynchronous assertion into arst_q.
module reset_sync #(
  parameter int STAGES = 3
) (
  input  logic clk_i,
  input  logic arst_ni,  // any domain, active low
  output logic rst_no    // synchronous to clk_i, active low
);
  (* ASYNC_REG = "TRUE" *) logic [STAGES-1:0] arst_q;

  always_ff @(posedge clk_i or negedge arst_ni) begin
    if (!arst_ni) arst_q <= '0;
    else arst_q <= {arst_q[STAGES-2:0], 1'b1};
  end

  assign rst_no = arst_q[STAGES-1];
endmodule
