// Formal harness of hw/sync_link_rx.sv's frame parser (docs/formal.md):
// a frame is published exactly when the parser saw SOF, six payload words
// and a CRC over all 80 bits of header and timestamp that matches; its
// fields are those words; every dropped frame and line error is counted.
// The reference keeps the last seven words the parser saw and a running
// CRC since the last SOF, from its own bit-serial LFSR (not
// sync_link_pkg::crc16).
module sync_link_rx_props #(
  // The RTL's default; BMC runs (covers, broken copies) set 1 to reach a
  // frame in 14 steps instead of 26. The parser does not read it.
  parameter int LOCK_IDLES = 16
) (
  input logic        clk_i,
  input logic        rst_ni,
  input logic [31:0] word_i
);
  localparam logic [31:0] Idle = sync_link_pkg::Idle;
  localparam logic [31:0] Sof = sync_link_pkg::Sof;

  logic       aligned_o, frame_toggle_o;
  logic [3:0] frame_type_o, frame_flags_o;
  logic [7:0] frame_seq_o;
  logic [63:0] frame_ts_o;
  sync_link_rx #(.LOCK_IDLES(LOCK_IDLES)) dut (
    .clk_i, .rst_ni, .word_i, .aligned_o, .slide_o(), .sof_toggle_o(), .sof_toggle_half_o(),
    .frame_toggle_o, .frame_type_o, .frame_flags_o, .frame_seq_o, .frame_ts_o, .bad_gray_o());

  logic f_init = 1'b1;
  always_ff @(posedge clk_i) f_init <= 1'b0;
  always_comb assume (rst_ni == !f_init);

  logic [31:0] f_obs_word;      // dut.word_q: the word the parser sees
  logic [ 3:0] f_obs_bad;       // dut.bad_q: dropped frames and line errors
  logic        f_obs_in_frame;  // dut.in_frame_q
  logic [ 2:0] f_obs_index;     // dut.index_q
  logic [15:0] f_obs_crc;       // dut.crc_q
  logic [15:0] f_obs_header;    // dut.header_q
  logic [63:0] f_obs_ts;        // dut.ts_q

  // Manchester: bit i is the pair (w[2i], w[2i+1]) and must be (d, ~d).
  function automatic logic f_is_payload(input logic [31:0] w);
    f_is_payload = 1'b1;
    for (int i = 0; i < 16; i++) f_is_payload = f_is_payload && (w[2*i+1] != w[2*i]);
  endfunction
  function automatic logic [15:0] f_bits(input logic [31:0] w);
    for (int i = 0; i < 16; i++) f_bits[i] = w[2*i];
  endfunction
  // CRC-16/CCITT (x^16 + x^12 + x^5 + 1, initial all ones), one message bit
  // at a time, MSB of the header first, taps written out.
  function automatic logic [15:0] f_crc_word(input logic [15:0] r, input logic [15:0] d);
    logic fb;
    for (int i = 15; i >= 0; i--) begin
      fb = r[15] ^ d[i];
      r  = {r[14:12], r[11] ^ fb, r[10:5], r[4] ^ fb, r[3:0], fb};
    end
    f_crc_word = r;
  endfunction

  // The last seven parser words, newest first, and whether the parser was
  // live (out of reset, aligned) in each of those cycles.
  // Word i back is f_w[32*i+:32]: a flat vector, since yosys 0.23 has no
  // packed arrays and turns an unpacked one into a memory (z3 stalls on it).
  logic [7*32-1:0] f_w;
  logic [ 6:0] f_ok;
  logic        f_toggle, f_valid;
  logic [ 3:0] f_bad, f_type, f_flags;
  logic [ 7:0] f_seq;
  logic [63:0] f_ts;
  // f_rc: the CRC over the payload words since the last SOF (the last word
  // the parser saw included); f_rc_prev: the same, one word earlier.
  logic [15:0] f_rc, f_rc_prev;
  always_ff @(posedge clk_i) begin
    f_rc      <= (f_obs_word == Sof) ? 16'hFFFF : f_crc_word(f_rc, f_bits(f_obs_word));
    f_rc_prev <= f_rc;
    f_w      <= {f_w[6*32-1:0], f_obs_word};
    f_ok     <= rst_ni ? {f_ok[5:0], aligned_o} : 7'd0;
    f_valid  <= rst_ni;
    f_toggle <= frame_toggle_o;
    f_bad    <= f_obs_bad;
    f_type   <= frame_type_o;
    f_flags  <= frame_flags_o;
    f_seq    <= frame_seq_o;
    f_ts     <= frame_ts_o;
  end

  // pl[i]: word i back is payload. pre[k]: words 0..k-1 are live payload;
  // mid[k]: words 1..k are. body: the five words before the newest.
  logic [6:0] f_pl, f_pre, f_mid;
  logic [79:0] f_body;
  logic f_inv_regs;
  logic f_crc_ok, f_six, f_frame, f_in_frame_before, f_in_frame_now;
  logic [2:0] f_index_now;
  always_comb begin
    for (int i = 0; i < 7; i++) f_pl[i] = f_is_payload(f_w[32*i+:32]);
    f_pre[0] = 1'b1;
    f_mid[0] = 1'b1;
    for (int k = 1; k < 7; k++) begin
      f_pre[k] = f_pre[k-1] && f_ok[k-1] && f_pl[k-1];
      f_mid[k] = f_mid[k-1] && f_ok[k] && f_pl[k];
    end
    f_body   = {f_bits(f_w[32*5+:32]), f_bits(f_w[32*4+:32]), f_bits(f_w[32*3+:32]), f_bits(f_w[32*2+:32]), f_bits(f_w[32*1+:32])};
    // With SOF 6 words back, f_rc_prev covers exactly words 5..1 back.
    f_crc_ok = f_bits(f_w[32*0+:32]) == f_rc_prev;
    // SOF and six payload words, all live, ending with the newest word.
    f_six    = f_ok[6] && f_w[32*6+:32] == Sof && f_pre[6];
    f_frame  = f_six && f_crc_ok;
    // Inside a frame before the newest word: SOF, then i < 6 payload words.
    // Inside one now, at index i. The nearest SOF decides (SOF is not payload).
    f_in_frame_before = 1'b0;
    f_in_frame_now    = 1'b0;
    f_index_now       = '0;
    for (int i = 0; i < 6; i++) begin
      if (f_w[32*(i+1)+:32] == Sof && f_ok[i+1] && f_mid[i]) f_in_frame_before = 1'b1;
      if (f_w[32*i+:32] == Sof && f_ok[i] && f_pre[i]) begin
        f_in_frame_now = 1'b1;
        f_index_now    = 3'(i);
      end
    end
    // Invariant for the induction: inside a frame at index i, the running
    // CRC, the header and the timestamp so far are those of its i words.
    f_inv_regs = 1'b1;
    if (f_in_frame_now && f_obs_crc != f_rc) f_inv_regs = 1'b0;
    for (int i = 1; i < 6; i++)
      if (f_in_frame_now && f_index_now == 3'(i)) begin
        if (f_obs_header != f_bits(f_w[32*(i-1)+:32])) f_inv_regs = 1'b0;
        for (int k = 0; k < i - 1; k++)
          if (f_obs_ts[16*k+:16] != f_bits(f_w[32*k+:32])) f_inv_regs = 1'b0;
      end
  end

  // What the newest word should have added to the bad count.
  logic f_bad_inc;
  always_comb begin
    if (!f_ok[0]) f_bad_inc = 1'b0;
    else if (f_w[32*0+:32] == Sof) f_bad_inc = f_in_frame_before;  // a frame cut by SOF
    else if (f_pl[0]) f_bad_inc = !f_in_frame_before || (f_six && !f_crc_ok);  // stray, bad CRC
    else f_bad_inc = f_in_frame_before || f_w[32*0+:32] != Idle;  // cut by IDLE, or a line error
  end

  always_comb begin
    if (rst_ni && f_valid) begin
      a_accept: assert ((frame_toggle_o != f_toggle) == f_frame);
      a_fields: assert (f_frame ? {frame_type_o, frame_flags_o, frame_seq_o, frame_ts_o} == f_body
                                : {frame_type_o, frame_flags_o, frame_seq_o, frame_ts_o} ==
                                  {f_type, f_flags, f_seq, f_ts});
      a_bad: assert (f_obs_bad == f_bad + 4'(f_bad_inc));
      // Invariant for the induction: the parser's frame state is the reference's.
      a_inv_frame: assert (f_obs_in_frame == f_in_frame_now &&
                           (!f_in_frame_now || f_obs_index == f_index_now) && f_inv_regs);
    end
  end

  // Not vacuous: a frame is accepted, and one with a bad CRC is dropped.
  always_comb begin
    if (rst_ni && f_valid) begin
      c_accept: cover (f_frame);
      c_crc_drop: cover (f_six && !f_crc_ok);
    end
  end
endmodule
