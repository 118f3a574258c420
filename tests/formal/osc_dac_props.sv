// Formal harness of hw/osc_ctrl.sv's DAC serial frame (docs/formal.md),
// against the AD5662 framing osc_ctrl.sv's header states. SYNC low frames
// FRAME_BITS SCLK periods; SCLK idles high and, in a frame, is high for the
// first half of each period and low for the second, so the DAC's falling
// edge is mid-period. DIN holds one frame bit per period: the frame is the
// latched word, right-aligned, MSB first, zeros above it (PD1 PD0 = 00).
// SYNC stays high one SCLK period or more between frames. A frame starts
// only for a word loaded and not yet sent, and it is the latest such word.
// A word loaded during a frame waits, and starts as soon as the gap ends.
// The monitor reads the DAC pins only; the f_obs_* registers carry the
// induction invariants.
module osc_dac_props #(
  parameter int DIV = 12,  // osc_ctrl's default; covers and broken copies use 4
  parameter int FRAME_BITS = 24,
  // 0: a_inv_dac is not asserted (the slow broken copies: BMC goes on to
  // the property the bug breaks, past the invariant it breaks first).
  parameter bit INVARIANTS = 1
) (
  input logic clk_i,
  input logic rst_ni,
  input logic [lightrail_hwdef_pkg::SYNC_DAC_BITS-1:0] dac_word_i,
  input logic dac_load_i
);
  localparam int DacBits = lightrail_hwdef_pkg::SYNC_DAC_BITS;
  localparam int Half = DIV / 2;
  localparam int CntBits = 8;  // f_ph, f_gap (saturating) and f_bit: DIV and FRAME_BITS < 128
  localparam logic [1:0] DacIdle = 2'd0, DacShift = 2'd1, DacGap = 2'd2;  // osc_ctrl's dac_state_e

  logic sclk, sync_n, din, busy, done;
  osc_ctrl #(.DIV(DIV), .FRAME_BITS(FRAME_BITS)) dut (
    .clk_i, .rst_ni, .dac_word_i, .dac_load_i, .dac_sclk_o(sclk), .dac_sync_no(sync_n),
    .dac_din_o(din), .dac_busy_o(busy), .dac_done_o(done), .phase_steps_i(32'sd0),
    .phase_load_i(1'b0), .psen_o(), .psincdec_o(), .psdone_i(1'b0), .steps_pending_o(),
    .steps_done_total_o(), .ps_timeout_o());

  logic f_init = 1'b1;
  always_ff @(posedge clk_i) f_init <= 1'b0;
  always_comb assume (rst_ni == !f_init);

  // The pins last cycle, and what was loaded: f_word after every load so far,
  // f_word_d one cycle earlier, f_load_d a load last cycle.
  logic f_valid, f_sync_p, f_load_d;
  logic [DacBits-1:0] f_word, f_word_d;
  always_ff @(posedge clk_i) begin
    f_valid  <= rst_ni;
    f_sync_p <= !rst_ni || sync_n;
    f_load_d <= rst_ni && dac_load_i;
    f_word_d <= f_word;
    if (!rst_ni) f_word <= '0;
    else if (dac_load_i) f_word <= dac_word_i;
  end

  // A frame starts (SYNC falls) the cycle after the DAC took its word: it
  // takes the word loaded up to two cycles back (f_word_d), and every load up
  // to then. f_wait: a word loaded two or more cycles back waits.
  logic f_sfall, f_srise, f_wait;
  assign f_sfall = f_sync_p && !sync_n;
  assign f_srise = !f_sync_p && sync_n;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) f_wait <= 1'b0;
    else f_wait <= (f_wait && !f_sfall) || f_load_d;
  end

  // In a frame: f_ph, the cycle within the SCLK period; f_bit, the frame bit
  // on DIN; f_rest, the frame from that bit on, MSB first (shifted once per
  // period). Out of one: f_gap, cycles since SYNC rose.
  logic [CntBits-1:0] f_ph_q, f_bit_q, f_gap_q, f_ph, f_bit, f_gap;
  logic [FRAME_BITS-1:0] f_rest_q, f_rest;
  always_comb begin
    f_ph   = f_sfall ? '0 : f_ph_q;
    f_bit  = f_sfall ? '0 : f_bit_q;
    f_rest = f_sfall ? FRAME_BITS'(f_word_d) : f_rest_q;
    f_gap  = f_srise ? '0 : f_gap_q;
  end
  always_ff @(posedge clk_i) begin
    f_ph_q    <= (f_ph == CntBits'(DIV - 1)) ? '0 : f_ph + 1'b1;
    f_bit_q   <= (f_ph == CntBits'(DIV - 1)) ? f_bit + 1'b1 : f_bit;
    f_rest_q  <= (f_ph == CntBits'(DIV - 1)) ? f_rest << 1 : f_rest;
    // After reset: idle, as if the gap were over.
    f_gap_q   <= !rst_ni ? CntBits'(DIV) : (f_gap == '1) ? f_gap : f_gap + 1'b1;
  end

  // DUT registers, for the invariant only (keep: the runner connects them
  // also when INVARIANTS = 0).
  (* keep *) logic [1:0] f_obs_state;                   // dut.dac_state_q
  (* keep *) logic [$clog2(DIV)-1:0] f_obs_div;         // dut.div_q
  (* keep *) logic [$clog2(FRAME_BITS)-1:0] f_obs_bit;  // dut.bit_q
  (* keep *) logic [FRAME_BITS-1:0] f_obs_shift;        // dut.shift_q
  (* keep *) logic [DacBits-1:0] f_obs_next_word;       // dut.next_word_q
  (* keep *) logic f_obs_next_valid;                    // dut.next_valid_q

  logic f_idle_p;  // the DAC was idle last cycle: SYNC high, the gap over
  always_ff @(posedge clk_i) f_idle_p <= sync_n && f_gap >= CntBits'(DIV);

  always_comb begin
    if (rst_ni && f_valid) begin
      a_sclk: assert (sclk == (sync_n || f_ph < CntBits'(Half)));
      a_din: assert (sync_n || (f_bit < CntBits'(FRAME_BITS) && din == f_rest[FRAME_BITS-1]));
      a_frame_len: assert (f_sync_p || (sync_n == (f_ph == '0 && f_bit == CntBits'(FRAME_BITS))));
      a_sync_gap: assert (!f_sfall || f_gap >= CntBits'(DIV));
      a_start: assert (!f_sfall || f_wait);
      a_no_loss: assert (!(f_wait && f_idle_p) || f_sfall);
      a_done: assert (done == f_srise);
      a_busy: assert (busy == (!sync_n || f_gap < CntBits'(DIV) || f_load_d || (f_wait && !f_sfall)));
    end
    if (rst_ni && f_valid && INVARIANTS) begin
      // Invariants for the induction: the DAC's state is the monitor's.
      a_inv_dac: assert ((f_obs_state == DacShift) == !sync_n &&
                         (sync_n || (f_ph < CntBits'(DIV) && 32'(f_obs_div) == 32'(f_ph) &&
                                     32'(f_obs_bit) == 32'(f_bit) &&
                                     f_obs_shift == f_rest)) &&
                         (f_obs_state == DacGap) == (sync_n && f_gap < CntBits'(DIV)) &&
                         (f_obs_state != DacGap || 32'(f_obs_div) == 32'(f_gap)) &&
                         f_obs_next_word == f_word &&
                         f_obs_next_valid == (f_load_d || (f_wait && !f_sfall)));
    end
  end

  // Not vacuous (with DIV = 4 and FRAME_BITS = 16, within 12 cycles): the
  // DAC samples a one, and a word is loaded during a frame.
  always_comb begin
    if (rst_ni && f_valid) begin
      c_one: cover (!sync_n && sclk == 1'b0 && f_ph == CntBits'(Half) && din);
      c_load_in_frame: cover (!sync_n && dac_load_i);
    end
  end
endmodule
