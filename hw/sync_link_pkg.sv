// Framing of the two-way sync exchange on the timing link (docs/hw-clock-sync.md,
// "sync_link"): the link carries raw 32-bit words (transceiver in RAW mode,
// bit 0 first on the wire), so the line code, the word alignment and the
// frame check are ours.
//
// Line code: a payload word carries 16 bits, each as the pair (d, ~d)
// (Manchester), so every word has a transition at least every 2 bits and as
// many ones as zeros. IDLE and SOF break that rule in 12 of their 16 bit
// pairs, so at the right alignment neither is ever taken for payload (one
// bit error cannot turn payload into either); IDLE differs from each of its
// own rotations in at least 8 bits, so a run of IDLE words matches at one bit
// offset only: the receiver's alignment. SOF is IDLE inverted, at least 10
// bits from any rotation of it. Both are DC-balanced, with runs of at most 4.
//
// Frame: SOF, header, timestamp (4 words, bits 63..48 first), CRC, 7 words.
// The header is {type[3:0], flags[3:0], seq[7:0]}; the CRC is CRC-16/CCITT
// (polynomial 0x1021, initial 0xFFFF, MSB first) over the header and the four
// timestamp halves. The timestamp point of a frame is its SOF word.
package sync_link_pkg;
  // A package: each module uses part of it.
  /* verilator lint_off UNUSEDPARAM */
  localparam logic [31:0] Idle = 32'hF0CC_F0AA;
  localparam logic [31:0] Sof = 32'h0F33_0F55;
  localparam int FrameWords = 7;

  // Frame types. PTP's two-step exchange: the reference's Sync, then its
  // Follow_Up with the Sync's send time t1; the follower's Delay_Req (sent at
  // t3); the reference's Delay_Resp with the request's arrival time t4.
  localparam logic [3:0] TypeSync = 4'd1;
  localparam logic [3:0] TypeFollowUp = 4'd2;
  localparam logic [3:0] TypeDelayReq = 4'd3;
  localparam logic [3:0] TypeDelayResp = 4'd4;

  // Header flags: the low SYNC_FLAG_BITS are the sender's clock quality
  // (lightrail_hwdef_pkg::SYNC_FLAG_*_BIT: LOCKED, TIME_VALID, HOLDOVER); a
  // boundary clock follows a reference whose time is valid, locked or not
  // (docs/clock-sync.md, "Boundary clocks that keep serving"). In a
  // Delay_Resp, FlagRefined says its t4 was refined by the reference's DDMTD
  // (a fresh phase), not a bare cycle stamp.
  localparam int FlagRefined = 3;
  /* verilator lint_on UNUSEDPARAM */

  function automatic logic [31:0] manchester(input logic [15:0] d);
    for (int i = 0; i < 16; i++) begin
      manchester[2*i]   = d[i];
      manchester[2*i+1] = ~d[i];
    end
  endfunction

  function automatic logic is_payload(input logic [31:0] w);
    is_payload = 1'b1;
    for (int i = 0; i < 16; i++) if (w[2*i] == w[2*i+1]) is_payload = 1'b0;
  endfunction

  function automatic logic [15:0] payload(input logic [31:0] w);
    for (int i = 0; i < 16; i++) payload[i] = w[2*i];
  endfunction

  function automatic logic [15:0] crc16(input logic [15:0] crc, input logic [15:0] d);
    logic [15:0] c;
    c = crc;
    for (int i = 15; i >= 0; i--) c = {c[14:0], 1'b0} ^ ((c[15] ^ d[i]) ? 16'h1021 : 16'h0000);
    crc16 = c;
  endfunction
endpackage
