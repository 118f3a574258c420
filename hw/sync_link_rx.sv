// Receive side of the timing link, in the recovered clock's domain: word
// alignment (the bit slide), the frame parser and what crosses to clk_i
// (sync_link.sv). Framing: sync_link_pkg.sv.
//
// Alignment. The transceiver hands over 32 bits per cycle starting at
// whatever bit its CDR locked on. This block forms each candidate word from
// the last two and hunts over the 32 bit offsets, staying on one for up to
// HUNT_MISSES non-IDLE words; LOCK_IDLES IDLE words in a row there align it.
// IDLE matches at one offset only, so nothing else can align it. Aligned, a
// word that is neither IDLE, SOF nor payload is a line error; ERRORS_TO_LOSE
// of them without GOOD_TO_FORGIVE clean words between drop the alignment
// and the hunt starts again (a relocked CDR lands on another bit).
//
// slide_o is how many bits (unit intervals) after the transmitted word
// boundary the receiver's words begin: received stamps and the recovered
// clock are that much later, which the servo adds to the receive delay
// (docs/clock-sync.md, "Link relock").
//
// Frames. SOF starts one (a SOF inside a frame drops the one before); six
// payload words follow; a good CRC publishes type, flags, seq and timestamp
// in frame_*_o, held until the next good frame, and toggles frame_toggle_o.
// sof_toggle_o toggles in the cycle after a SOF word is seen: the timestamp
// point, sampled in clk_i by sync_link. A frame cut by IDLE or a line error
// is dropped and counted. Latency: a SOF whose last bit arrives in the word
// the transceiver presents at recovered edge E toggles sof_toggle_o at
// E + 3 cycles (input register, alignment register, toggle), and
// sof_toggle_half_o half a cycle after it.
module sync_link_rx #(
  parameter int LOCK_IDLES      = 16,
  parameter int HUNT_MISSES     = 32,
  parameter int ERRORS_TO_LOSE  = 4,
  parameter int GOOD_TO_FORGIVE = 64
) (
  input  logic        clk_i,          // recovered clock
  input  logic        rst_ni,         // synchronous to clk_i
  input  logic [31:0] word_i,         // from the transceiver, bit 0 first on the wire
  output logic        aligned_o,
  output logic [ 4:0] slide_o,        // 0..31 UI, valid while aligned_o
  output logic        sof_toggle_o,
  output logic        sof_toggle_half_o,  // the same, half a recovered period later
  output logic        frame_toggle_o,
  output logic [ 3:0] frame_type_o,
  output logic [ 3:0] frame_flags_o,
  output logic [ 7:0] frame_seq_o,
  output logic [63:0] frame_ts_o,
  output logic [ 3:0] bad_gray_o      // frames dropped and line errors, Gray-coded count
);
  localparam int CountBits = $clog2(GOOD_TO_FORGIVE + HUNT_MISSES + LOCK_IDLES + 1);

  // ---------------------------------------------------------------- alignment
  logic [31:0] raw_q, prev_q, word_q;
  logic [ 5:0] shift_q;     // 1..32: word = bits shift .. shift+31 of {raw_q, prev_q}
  logic        settle_q;    // word_q is still from the previous shift
  logic        aligned_q;
  logic [CountBits-1:0] run_q, miss_q;
  logic [ 2:0] errors_q;
  logic [63:0] pair;

  assign pair = {raw_q, prev_q};

  always_ff @(posedge clk_i) begin
    raw_q  <= word_i;
    prev_q <= raw_q;
    word_q <= pair[shift_q+:32];
  end

  // Words the parser sees: aligned, and not the one just after a shift.
  logic is_idle, is_sof, is_data, line_error;
  assign is_idle    = word_q == sync_link_pkg::Idle;
  assign is_sof     = word_q == sync_link_pkg::Sof;
  assign is_data    = sync_link_pkg::is_payload(word_q);
  assign line_error = aligned_q && !(is_idle || is_sof || is_data);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      shift_q   <= 6'd32;
      settle_q  <= 1'b1;
      aligned_q <= 1'b0;
      run_q     <= '0;
      miss_q    <= '0;
      errors_q  <= '0;
    end else if (!aligned_q) begin
      settle_q <= 1'b0;
      if (settle_q) begin
        run_q <= '0;
      end else if (is_idle) begin
        run_q <= run_q + 1'b1;
        if (run_q == CountBits'(LOCK_IDLES - 1)) begin
          aligned_q <= 1'b1;
          run_q     <= '0;
          miss_q    <= '0;
          errors_q  <= '0;
        end
      end else begin
        run_q  <= '0;
        miss_q <= miss_q + 1'b1;
        if (miss_q == CountBits'(HUNT_MISSES - 1)) begin
          miss_q   <= '0;
          shift_q  <= (shift_q == 6'd1) ? 6'd32 : shift_q - 6'd1;
          settle_q <= 1'b1;
        end
      end
    end else if (line_error) begin
      run_q <= '0;
      if (errors_q == 3'(ERRORS_TO_LOSE - 1)) begin
        aligned_q <= 1'b0;
        errors_q  <= '0;
        miss_q    <= '0;
        shift_q   <= (shift_q == 6'd1) ? 6'd32 : shift_q - 6'd1;
        settle_q  <= 1'b1;
      end else begin
        errors_q <= errors_q + 1'b1;
      end
    end else if (run_q == CountBits'(GOOD_TO_FORGIVE - 1)) begin
      run_q    <= '0;
      errors_q <= '0;
    end else begin
      run_q <= run_q + 1'b1;
    end
  end

  assign aligned_o = aligned_q;
  assign slide_o   = 5'(6'd32 - shift_q);

  // ---------------------------------------------------------------- frames
  logic        in_frame_q, sof_toggle_q, frame_toggle_q;
  logic [ 2:0] index_q;     // payload words received in this frame
  logic [15:0] header_q, crc_q;
  logic [63:0] ts_q;
  logic [15:0] data;
  logic [ 3:0] bad_q, bad_gray_q;

  logic [ 3:0] type_q, flags_q;
  logic [ 7:0] seq_q;
  logic [63:0] frame_ts_q;

  assign data = sync_link_pkg::payload(word_q);

  always_ff @(posedge clk_i) begin
    if (!rst_ni || !aligned_q) begin
      in_frame_q <= 1'b0;
      index_q    <= '0;
      if (!rst_ni) begin
        sof_toggle_q   <= 1'b0;
        frame_toggle_q <= 1'b0;
        bad_q          <= '0;
        type_q         <= '0;
        flags_q        <= '0;
        seq_q          <= '0;
        frame_ts_q     <= '0;
      end
    end else if (is_sof) begin
      if (in_frame_q) bad_q <= bad_q + 1'b1;
      in_frame_q   <= 1'b1;
      index_q      <= '0;
      crc_q        <= 16'hFFFF;
      sof_toggle_q <= !sof_toggle_q;
    end else if (in_frame_q && is_data) begin
      index_q <= index_q + 1'b1;
      if (index_q == 3'd0) header_q <= data;
      else if (index_q <= 3'd4) ts_q <= {ts_q[47:0], data};
      if (index_q != 3'(sync_link_pkg::FrameWords - 2)) begin
        crc_q <= sync_link_pkg::crc16(crc_q, data);
      end else begin
        in_frame_q <= 1'b0;
        if (data == crc_q) begin
          type_q         <= header_q[15:12];
          flags_q        <= header_q[11:8];
          seq_q          <= header_q[7:0];
          frame_ts_q     <= ts_q;
          frame_toggle_q <= !frame_toggle_q;
        end else begin
          bad_q <= bad_q + 1'b1;
        end
      end
    end else if (in_frame_q || line_error) begin
      // Cut by IDLE or by a word that is not payload; a line error outside a
      // frame counts too (payload where none belongs is one).
      in_frame_q <= 1'b0;
      bad_q      <= bad_q + 1'b1;
    end else if (is_data) begin
      bad_q <= bad_q + 1'b1;
    end
  end

  assign sof_toggle_o   = sof_toggle_q;

  // Half a period later, for clk_i's second sample (sync_link): a falling-
  // edge flop here, so that clk_i has no falling-edge logic at all.
  logic sof_toggle_half_q;
  always_ff @(negedge clk_i) begin
    if (!rst_ni) sof_toggle_half_q <= 1'b0;
    else sof_toggle_half_q <= sof_toggle_q;
  end
  assign sof_toggle_half_o = sof_toggle_half_q;
  assign frame_toggle_o = frame_toggle_q;
  assign frame_type_o   = type_q;
  assign frame_flags_o  = flags_q;
  assign frame_seq_o    = seq_q;
  assign frame_ts_o     = frame_ts_q;
  // Registered: a crossing must start at a flop, not at logic that glitches.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) bad_gray_q <= '0;
    else bad_gray_q <= bad_q ^ (bad_q >> 1);
  end
  assign bad_gray_o = bad_gray_q;
endmodule
