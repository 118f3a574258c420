// One schedule bank: LINES x (LANES*32)-bit block RAM with two ports.
//
// Port A (host, AXI side): 32-bit read/write of word w = line w/LANES,
// lane w%LANES, with byte enables; registered read of the addressed word.
// Port B (sequencer): read-only, one full line per cycle, registered: the
// line at b_line_i appears on b_rdata_o the next cycle.
module bank_ram #(
  parameter int LINES = lightrail_hwdef_pkg::BANK_LINES,
  parameter int LANES = lightrail_hwdef_pkg::BANK_LINE_WORDS
) (
  input  logic                                   clk_i,
  // port A
  input  logic                                   a_en_i,    // read (and write when a_we_i)
  input  logic                                   a_we_i,
  input  logic [$clog2(LINES)+$clog2(LANES)-1:0] a_word_i,
  input  logic [                            3:0] a_be_i,
  input  logic [                           31:0] a_wdata_i,
  output logic [                           31:0] a_rdata_o,
  // port B
  input  logic [                $clog2(LINES)-1:0] b_line_i,
  output logic [                     LANES*32-1:0] b_rdata_o
);
  localparam int LineBits = $clog2(LINES);
  localparam int LaneBits = $clog2(LANES);

  logic [LANES*32-1:0] mem[0:LINES-1];
  logic [LANES*32-1:0] a_line_q;
  logic [LaneBits-1:0] a_lane_q;
  logic [LineBits-1:0] a_line;
  logic [LaneBits-1:0] a_lane;

  assign a_line = a_word_i[LaneBits+:LineBits];
  assign a_lane = a_word_i[LaneBits-1:0];

  always_ff @(posedge clk_i) begin
    if (a_en_i) begin
      for (int l = 0; l < LANES; l++) begin
        for (int b = 0; b < 4; b++) begin
          if (a_we_i && a_lane == LaneBits'(l) && a_be_i[b]) begin
            mem[a_line][l*32+b*8+:8] <= a_wdata_i[b*8+:8];
          end
        end
      end
      a_line_q <= mem[a_line];
      a_lane_q <= a_lane;
    end
  end

  assign a_rdata_o = a_line_q[a_lane_q*32+:32];

  always_ff @(posedge clk_i) begin
    b_rdata_o <= mem[b_line_i];
  end
endmodule
