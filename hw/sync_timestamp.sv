// Timestamps of the two-way sync messages: the board time of the cycle in
// which the link signals a message's timestamp point leaving (tx) or arriving
// (rx). Each direction holds one capture with a valid flag until the servo
// takes it (clear); a capture while valid overwrites it and flags overrun.
//
// STROBE_CDC = 0: the strobes are one-cycle pulses in clk_i (a link whose
// user clock is the system clock). STROBE_CDC = 1: each strobe is a toggle
// (one change per message) from the link's own clock domain, crossed through
// cdc_sync and edge-detected here; the capture is then 3 cycles (+0..1 for
// the phase of the crossing) after the event, a fixed delay the calibration
// absorbs like any other (docs/hw-clock-sync.md). Either way the resolution
// is one clk_i cycle: the sub-cycle part is the DDMTD's job.
module sync_timestamp #(
  parameter bit STROBE_CDC = 1'b0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [63:0] time_i,        // board time (ticks) during this cycle
  input  logic        tx_strobe_i,   // message timestamp point sent
  input  logic        rx_strobe_i,   // message timestamp point received
  input  logic        tx_clear_i,    // capture consumed
  input  logic        rx_clear_i,
  output logic [63:0] tx_time_o,
  output logic        tx_valid_o,
  output logic        tx_overrun_o,  // a capture was overwritten before it was cleared
  output logic [63:0] rx_time_o,
  output logic        rx_valid_o,
  output logic        rx_overrun_o
);
  logic [1:0] strobe_in, event_q, clear;  // [0] tx, [1] rx
  logic [1:0] valid_q, overrun_q;
  logic [63:0] time_q[2];

  assign strobe_in = {rx_strobe_i, tx_strobe_i};
  assign clear     = {rx_clear_i, tx_clear_i};

  if (STROBE_CDC) begin : gen_cdc
    logic [1:0] toggle_sync, toggle_prev_q;

    cdc_sync #(
      .WIDTH(2)
    ) u_strobe_sync (
      .clk_i (clk_i),
      .rst_ni(rst_ni),
      .d_i   (strobe_in),
      .q_o   (toggle_sync)
    );

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        toggle_prev_q <= '0;
        event_q       <= '0;
      end else begin
        toggle_prev_q <= toggle_sync;
        event_q       <= toggle_sync ^ toggle_prev_q;
      end
    end
  end else begin : gen_sync
    assign event_q = strobe_in;
  end

  for (genvar d = 0; d < 2; d++) begin : gen_dir
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        valid_q[d]   <= 1'b0;
        overrun_q[d] <= 1'b0;
        time_q[d]    <= '0;
      end else if (event_q[d]) begin
        // A new message wins over a clear in the same cycle.
        time_q[d]    <= time_i;
        valid_q[d]   <= 1'b1;
        overrun_q[d] <= valid_q[d] && !clear[d];
      end else if (clear[d]) begin
        valid_q[d]   <= 1'b0;
        overrun_q[d] <= 1'b0;
      end
    end
  end

  assign tx_time_o    = time_q[0];
  assign tx_valid_o   = valid_q[0];
  assign tx_overrun_o = overrun_q[0];
  assign rx_time_o    = time_q[1];
  assign rx_valid_o   = valid_q[1];
  assign rx_overrun_o = overrun_q[1];
endmodule
