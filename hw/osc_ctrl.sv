// Oscillator control: the two actuators the clock servo steers.
//
// 1. VCXO tuning DAC, written over a 3-wire serial link with the framing of
//    the Analog Devices AD5662 (16-bit nanoDAC; datasheet "Input Shift
//    Register" / "SYNC Interrupt"): SYNC low frames 24 bits sent MSB first,
//    each sampled by the DAC on a falling edge of SCLK, the DAC register
//    updated on the 24th falling edge. Frame = 6 don't-care bits (sent 0),
//    PD1 PD0 = 00 (normal operation), D15..D0. SCLK idles high; DIN changes
//    on SCLK rising edges, so it is stable half an SCLK period either side of
//    every falling edge. SYNC falls half a period before the first falling
//    edge, rises half a period after the 24th, and stays high at least one
//    full SCLK period before the next frame.
//
// 2. MMCM dynamic fine phase shift (UG572, "Dynamic Phase Shift Interface"):
//    one step per one-cycle PSEN, direction from PSINCDEC sampled with it,
//    the next PSEN only after PSDONE. PSCLK must be clk_i: psen_o/psincdec_o
//    are launched and psdone_i is sampled in clk_i with no synchroniser.
//    Sign convention: phase_steps_i > 0 advances board time (the shifted
//    clock's edges come earlier). A PSINCDEC = 1 increment delays the output
//    clock, so advancing is PSINCDEC = 0 and retarding PSINCDEC = 1.
//
// Both accept requests at any time: a DAC word arriving while a frame is on
// the wire is kept and sent next (only the latest such word); phase requests
// arriving while stepping are added to the steps still to do.
module osc_ctrl #(
  // clk_i cycles per SCLK period (even, >= 4). 12 at 250 MHz = 20.8 MHz,
  // inside the AD5662's 30 MHz SCLK limit with margin on every setup/hold.
  parameter int DIV        = 12,
  // Serial frame length; the word is right-aligned, the bits above it are 0.
  parameter int FRAME_BITS = 24,
  // clk_i cycles to wait for PSDONE before giving up on a step (MMCM in
  // reset or unlocked never answers); UG572 answers after 12 PSCLK cycles.
  parameter int PS_TIMEOUT = 64
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // VCXO DAC.
  input  logic [lightrail_hwdef_pkg::SYNC_DAC_BITS-1:0] dac_word_i,
  input  logic        dac_load_i,   // one-cycle request to send dac_word_i
  output logic        dac_sclk_o,
  output logic        dac_sync_no,
  output logic        dac_din_o,
  output logic        dac_busy_o,   // a word waits, or a frame (or its SYNC-high gap) is on
  output logic        dac_done_o,   // one cycle: a frame just completed (DAC updated)

  // MMCM dynamic phase shift (PSCLK = clk_i).
  input  logic signed [31:0] phase_steps_i,  // + advances board time
  input  logic        phase_load_i,
  output logic        psen_o,
  output logic        psincdec_o,
  input  logic        psdone_i,
  output logic signed [31:0] steps_pending_o,     // requested, not yet completed (incl. in flight)
  output logic signed [31:0] steps_done_total_o,  // completed since reset, mod 2^32
  output logic        ps_timeout_o                // sticky: a PSDONE never came
);
  localparam int DacBits = lightrail_hwdef_pkg::SYNC_DAC_BITS;
  localparam int Half    = DIV / 2;
  localparam int DivBits = $clog2(DIV);
  localparam int BitBits = $clog2(FRAME_BITS);
  localparam int ToBits  = $clog2(PS_TIMEOUT + 1);

`ifndef SYNTHESIS
  // Parameter checks as an initial block: Icarus 11 lacks elaboration $error.
  initial begin
    if (DIV < 4 || DIV % 2 != 0) $fatal(1, "osc_ctrl: DIV must be even and >= 4");
    if (FRAME_BITS < DacBits) $fatal(1, "osc_ctrl: FRAME_BITS must hold SYNC_DAC_BITS");
    if (PS_TIMEOUT < 16) $fatal(1, "osc_ctrl: PS_TIMEOUT must exceed the 12-cycle PSDONE latency");
  end
`endif

  // ---------------------------------------------------------------- DAC ---

  typedef enum logic [1:0] {
    DacIdle,
    DacShift,
    DacGap
  } dac_state_e;

  dac_state_e               dac_state_q;
  logic [DacBits-1:0]       next_word_q;     // latest word not yet started
  logic                     next_valid_q;
  logic [FRAME_BITS-1:0]    shift_q;         // frame bits still to send, MSB first
  logic [DivBits-1:0]       div_q;           // clk_i cycle within the SCLK period
  logic [BitBits-1:0]       bit_q;           // bit being sent
  logic [FRAME_BITS-1:0]    next_frame;
  logic                     start_frame;

  assign next_frame  = FRAME_BITS'(next_word_q);
  assign start_frame = (dac_state_q == DacIdle) && next_valid_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      dac_state_q  <= DacIdle;
      next_word_q  <= '0;
      next_valid_q <= 1'b0;
      shift_q      <= '0;
      div_q        <= '0;
      bit_q        <= '0;
      dac_sclk_o   <= 1'b1;
      dac_sync_no  <= 1'b1;
      dac_din_o    <= 1'b0;
      dac_done_o   <= 1'b0;
    end else begin
      dac_done_o <= 1'b0;

      // A load in the same cycle a frame starts is the next word, not lost.
      if (dac_load_i) begin
        next_word_q  <= dac_word_i;
        next_valid_q <= 1'b1;
      end else if (start_frame) begin
        next_valid_q <= 1'b0;
      end

      case (dac_state_q)
        DacIdle: begin
          if (next_valid_q) begin
            dac_state_q <= DacShift;
            shift_q     <= next_frame;
            dac_sync_no <= 1'b0;
            dac_din_o   <= next_frame[FRAME_BITS-1];
            div_q       <= '0;
            bit_q       <= '0;
          end
        end
        DacShift: begin
          div_q <= div_q + 1'b1;
          if (div_q == DivBits'(Half - 1)) begin
            dac_sclk_o <= 1'b0;  // the DAC samples dac_din_o on this edge
          end else if (div_q == DivBits'(DIV - 1)) begin
            div_q      <= '0;
            dac_sclk_o <= 1'b1;
            if (bit_q == BitBits'(FRAME_BITS - 1)) begin
              // Half a period after the last falling edge.
              dac_state_q <= DacGap;
              dac_sync_no <= 1'b1;
              dac_din_o   <= 1'b0;
              dac_done_o  <= 1'b1;
            end else begin
              bit_q     <= bit_q + 1'b1;
              shift_q   <= shift_q << 1;
              dac_din_o <= shift_q[FRAME_BITS-2];
            end
          end
        end
        DacGap: begin
          // SYNC high for one full SCLK period before the next frame.
          div_q <= div_q + 1'b1;
          if (div_q == DivBits'(DIV - 1)) begin
            div_q       <= '0;
            dac_state_q <= DacIdle;
          end
        end
        default: dac_state_q <= DacIdle;
      endcase
    end
  end

  assign dac_busy_o = (dac_state_q != DacIdle) || next_valid_q;

  // ------------------------------------------------------ phase stepper ---

  logic signed [31:0] pending_q;    // net steps not yet completed
  logic signed [31:0] done_q;
  logic               inflight_q;   // a PSEN was issued, PSDONE not yet seen
  logic               advance_q;    // direction of the step in flight
  logic [ToBits-1:0]  wait_q;
  logic               step_done, step_lost;
  logic signed [33:0] pending_sum;
  logic signed [31:0] pending_next;

  assign step_done = inflight_q && psdone_i;
  assign step_lost = inflight_q && !psdone_i && (wait_q == ToBits'(PS_TIMEOUT));

  // Requests add, completed steps subtract (an advance completed leaves one
  // fewer positive step to do); saturate instead of wrapping the sign.
  logic signed [33:0] pending_req;
  assign pending_req  = 34'(pending_q) + (phase_load_i ? 34'(phase_steps_i) : 34'sd0);
  assign pending_sum  = !step_done ? pending_req
                      : advance_q  ? pending_req - 34'sd1 : pending_req + 34'sd1;
  assign pending_next = (pending_sum > 34'sd2147483647)  ? 32'sh7fffffff
                      : (pending_sum < -34'sd2147483648) ? 32'sh80000000
                      : pending_sum[31:0];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pending_q    <= '0;
      done_q       <= '0;
      inflight_q   <= 1'b0;
      advance_q    <= 1'b0;
      wait_q       <= '0;
      psen_o       <= 1'b0;
      psincdec_o   <= 1'b0;
      ps_timeout_o <= 1'b0;
    end else begin
      pending_q <= pending_next;
      psen_o    <= 1'b0;

      if (step_done) begin
        done_q <= advance_q ? done_q + 32'sd1 : done_q - 32'sd1;
        // UG572 allows the next PSEN right after PSDONE: one step per 13 cycles.
        if (pending_next != 32'sd0) begin
          psen_o     <= 1'b1;
          psincdec_o <= (pending_next < 0);  // retard = increment
          advance_q  <= (pending_next > 0);
          wait_q     <= '0;
        end else begin
          inflight_q <= 1'b0;
        end
      end else if (step_lost) begin
        // Outcome unknown: not counted; the step stays pending and is retried.
        inflight_q   <= 1'b0;
        ps_timeout_o <= 1'b1;
      end else if (inflight_q) begin
        wait_q <= wait_q + 1'b1;
      end else if (pending_q != 32'sd0) begin
        // Issued the cycle after the previous PSDONE at the earliest.
        psen_o     <= 1'b1;
        psincdec_o <= (pending_q < 0);  // retard = increment
        advance_q  <= (pending_q > 0);
        inflight_q <= 1'b1;
        wait_q     <= '0;
      end
    end
  end

  assign steps_pending_o    = pending_q;
  assign steps_done_total_o = done_q;
endmodule
