// Formal harness of hw/fine_edge_stage.sv (docs/formal.md): the serializer
// word of cycle t+1 is the gate level tick by tick that the events of cycle t
// describe (docs/hw.md): the last event at or before a tick sets its level,
// a fall and a rise on one tick leave the gate up, and with no event yet the
// level carried from the previous cycle holds. Stated per tick, independent
// of the RTL's mask form.
module fine_edge_stage_props (
  input logic clk_i,
  input logic rst_ni,
  input logic sel_valid_i,
  input logic [lightrail_hwdef_pkg::FINE_BITS-1:0] sel_fine_i,
  input logic [lightrail_hwdef_pkg::WAVELENGTH_BITS-1:0] sel_value_i,
  input logic fall_valid_i,
  input logic [lightrail_hwdef_pkg::FINE_BITS-1:0] fall_fine_i,
  input logic rise_valid_i,
  input logic [lightrail_hwdef_pkg::FINE_BITS-1:0] rise_fine_i
);
  localparam int Ticks = lightrail_hwdef_pkg::FINE_STEPS;

  logic [Ticks-1:0] gate_ser_o;
  logic [lightrail_hwdef_pkg::WAVELENGTH_BITS-1:0] sel_o;
  logic sel_stb_o;
  logic [lightrail_hwdef_pkg::FINE_BITS-1:0] sel_fine_o;

  fine_edge_stage dut (.clk_i, .rst_ni, .sel_valid_i, .sel_fine_i, .sel_value_i, .fall_valid_i,
                       .fall_fine_i, .rise_valid_i, .rise_fine_i, .gate_ser_o, .sel_o, .sel_stb_o,
                       .sel_fine_o);

  logic f_init = 1'b1;
  always_ff @(posedge clk_i) f_init <= 1'b0;
  always_comb assume (rst_ni == !f_init);

  logic [Ticks-1:0] f_word;
  always_comb begin
    for (int k = 0; k < Ticks; k++) begin
      if (rise_valid_i && rise_fine_i <= k && (!fall_valid_i || fall_fine_i > k || fall_fine_i <= rise_fine_i))
        f_word[k] = 1'b1;
      else if (fall_valid_i && fall_fine_i <= k) f_word[k] = 1'b0;
      else f_word[k] = gate_ser_o[Ticks-1];
    end
  end

  logic [Ticks-1:0] f_expect_word;
  logic [lightrail_hwdef_pkg::WAVELENGTH_BITS-1:0] f_expect_sel;
  logic [lightrail_hwdef_pkg::FINE_BITS-1:0] f_expect_fine;
  logic f_expect_stb, f_valid;
  always_ff @(posedge clk_i) begin
    f_valid       <= rst_ni;
    f_expect_word <= f_word;
    f_expect_stb  <= sel_valid_i;
    if (!rst_ni) begin
      f_expect_sel  <= '0;
      f_expect_fine <= '0;
    end else if (sel_valid_i) begin
      f_expect_sel  <= sel_value_i;
      f_expect_fine <= sel_fine_i;
    end
  end

  always_comb begin
    if (rst_ni && f_valid) begin
      a_gate_word: assert (gate_ser_o == f_expect_word);
      // A wavelength select shows one cycle later, with its tick, and holds.
      a_select: assert (sel_stb_o == f_expect_stb && sel_o == f_expect_sel && sel_fine_o == f_expect_fine);
    end
  end
endmodule
