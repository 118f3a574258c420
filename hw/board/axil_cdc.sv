// AXI4-Lite clock crossing, one transaction per direction in flight: the
// host bridge (the XRT kernel's s_axi_control, on the platform's ap_clk)
// into lightrail_board_top's slave on the disciplined clk_i. The two clocks
// are unrelated oscillators.
//
// Each direction is a request/acknowledge toggle pair through cdc_sync; the
// request's bus (address, data, strobes) and the response (resp, rdata) are
// held stable from the toggle until the other side has seen it, so they
// cross as data under a set_max_delay -datapath_only (constraints/
// zcu102_board.xdc). The top's slave takes one write and one read at a time
// anyway, so nothing is lost by not pipelining.
//
// A host must never hang on the bus (on the Zynq an AXI request that is never
// answered stalls the processor): a request the board side does not answer
// within TIMEOUT ap_clk cycles (clk_i stopped: no oscillator, MMCM unlocked)
// gets SLVERR, and so does every request while one is still unanswered. When
// the board side is reset it acknowledges whatever was outstanding without
// performing it, answering SLVERR, so the two sides line up again. A reset of
// the host side alone leaves a request in flight to complete.
module axil_cdc #(
  parameter int ADDR_BITS = lightrail_hwdef_pkg::AXI_ADDR_BITS,
  parameter int TIMEOUT   = 4096
) (
  // host side (slave)
  input  logic                 s_clk_i,
  input  logic                 s_rst_ni,
  input  logic [ADDR_BITS-1:0] s_awaddr,
  input  logic                 s_awvalid,
  output logic                 s_awready,
  input  logic [         31:0] s_wdata,
  input  logic [          3:0] s_wstrb,
  input  logic                 s_wvalid,
  output logic                 s_wready,
  output logic [          1:0] s_bresp,
  output logic                 s_bvalid,
  input  logic                 s_bready,
  input  logic [ADDR_BITS-1:0] s_araddr,
  input  logic                 s_arvalid,
  output logic                 s_arready,
  output logic [         31:0] s_rdata,
  output logic [          1:0] s_rresp,
  output logic                 s_rvalid,
  input  logic                 s_rready,
  // board side (master)
  input  logic                 m_clk_i,
  input  logic                 m_rst_ni,
  output logic [ADDR_BITS-1:0] m_awaddr,
  output logic                 m_awvalid,
  input  logic                 m_awready,
  output logic [         31:0] m_wdata,
  output logic [          3:0] m_wstrb,
  output logic                 m_wvalid,
  input  logic                 m_wready,
  input  logic [          1:0] m_bresp,
  input  logic                 m_bvalid,
  output logic                 m_bready,
  output logic [ADDR_BITS-1:0] m_araddr,
  output logic                 m_arvalid,
  input  logic                 m_arready,
  input  logic [         31:0] m_rdata,
  input  logic [          1:0] m_rresp,
  input  logic                 m_rvalid,
  output logic                 m_rready
);
  localparam logic [1:0] RespSlvErr = 2'b10;
  localparam int ToBits = $clog2(TIMEOUT + 1);

  // ================================================================ host side
  // Held request buses (stable while a toggle is unanswered).
  logic [ADDR_BITS-1:0] hold_awaddr_q, hold_araddr_q;
  logic [         31:0] hold_wdata_q;
  logic [          3:0] hold_wstrb_q;
  // The toggles start at 0 (the FPGA's flop INIT) so that the two sides
  // agree at power-up; after that each side's reset aligns to the other.
  logic                 wreq_q = 1'b0, rreq_q = 1'b0;  // request toggles
  logic                 wack_s, rack_s;     // acknowledge toggles, synchronised
  logic [   ToBits-1:0] wwait_q, rwait_q;   // cycles waited for the acknowledge
  logic                 wbusy_q, rbusy_q;   // a response is owed to the host

  // Neither the toggles nor their synchronisers are reset (they start at
  // their power-up value): a request in flight when this side is reset
  // completes on the board side as issued, and until its acknowledge
  // arrives new requests are refused, so the board side never sees a
  // request withdrawn halfway.
  cdc_sync u_wack_sync (.clk_i(s_clk_i), .rst_ni(1'b1), .d_i(wack_m_q), .q_o(wack_s));
  cdc_sync u_rack_sync (.clk_i(s_clk_i), .rst_ni(1'b1), .d_i(rack_m_q), .q_o(rack_s));

  logic wpending, rpending;
  assign wpending = wreq_q != wack_s;
  assign rpending = rreq_q != rack_s;

  // Write: taken when address and data are both offered and no response is owed.
  logic wtake;
  assign wtake     = s_awvalid && s_wvalid && !wbusy_q;
  assign s_awready = wtake;
  assign s_wready  = wtake;

  always_ff @(posedge s_clk_i) begin
    if (!s_rst_ni) begin
      wbusy_q  <= 1'b0;
      wwait_q  <= '0;
      s_bvalid <= 1'b0;
      s_bresp  <= '0;
    end else begin
      if (wtake) begin
        wbusy_q <= 1'b1;
        wwait_q <= '0;
        if (wpending) begin
          // The board side still owes an earlier answer: refuse, do not cross.
          s_bvalid <= 1'b1;
          s_bresp  <= RespSlvErr;
        end else begin
          hold_awaddr_q <= s_awaddr;
          hold_wdata_q  <= s_wdata;
          hold_wstrb_q  <= s_wstrb;
          wreq_q        <= ~wreq_q;
        end
      end else if (wbusy_q && !s_bvalid) begin
        if (!wpending) begin
          s_bvalid <= 1'b1;
          s_bresp  <= wresp_m_q;
        end else if (wwait_q == ToBits'(TIMEOUT)) begin
          s_bvalid <= 1'b1;
          s_bresp  <= RespSlvErr;
        end else begin
          wwait_q <= wwait_q + ToBits'(1);
        end
      end
      if (s_bvalid && s_bready) begin
        s_bvalid <= 1'b0;
        wbusy_q  <= 1'b0;
      end
    end
  end

  logic rtake;
  assign rtake     = s_arvalid && !rbusy_q;
  assign s_arready = rtake;

  always_ff @(posedge s_clk_i) begin
    if (!s_rst_ni) begin
      rbusy_q  <= 1'b0;
      rwait_q  <= '0;
      s_rvalid <= 1'b0;
      s_rresp  <= '0;
      s_rdata  <= '0;
    end else begin
      if (rtake) begin
        rbusy_q <= 1'b1;
        rwait_q <= '0;
        if (rpending) begin
          s_rvalid <= 1'b1;
          s_rresp  <= RespSlvErr;
          s_rdata  <= '0;
        end else begin
          hold_araddr_q <= s_araddr;
          rreq_q        <= ~rreq_q;
        end
      end else if (rbusy_q && !s_rvalid) begin
        if (!rpending) begin
          s_rvalid <= 1'b1;
          s_rresp  <= rresp_m_q;
          s_rdata  <= rdata_m_q;
        end else if (rwait_q == ToBits'(TIMEOUT)) begin
          s_rvalid <= 1'b1;
          s_rresp  <= RespSlvErr;
          s_rdata  <= '0;
        end else begin
          rwait_q <= rwait_q + ToBits'(1);
        end
      end
      if (s_rvalid && s_rready) begin
        s_rvalid <= 1'b0;
        rbusy_q  <= 1'b0;
      end
    end
  end

  // =============================================================== board side
  logic       wreq_m, rreq_m;        // request toggles, synchronised
  logic       wseen_q, rseen_q;      // last request toggle acted on
  logic       wack_m_q = 1'b0, rack_m_q = 1'b0;  // acknowledge toggles
  logic [1:0] wresp_m_q, rresp_m_q;  // held responses
  logic [31:0] rdata_m_q;
  logic       aw_done_q, w_done_q;

  // Not reset either: a board-side reset must see the host's current toggle.
  cdc_sync u_wreq_sync (.clk_i(m_clk_i), .rst_ni(1'b1), .d_i(wreq_q), .q_o(wreq_m));
  cdc_sync u_rreq_sync (.clk_i(m_clk_i), .rst_ni(1'b1), .d_i(rreq_q), .q_o(rreq_m));

  logic wactive, ractive;
  assign wactive = wreq_m != wseen_q;
  assign ractive = rreq_m != rseen_q;

  assign m_awaddr  = hold_awaddr_q;
  assign m_wdata   = hold_wdata_q;
  assign m_wstrb   = hold_wstrb_q;
  assign m_awvalid = wactive && !aw_done_q;
  assign m_wvalid  = wactive && !w_done_q;
  assign m_bready  = wactive && aw_done_q && w_done_q;
  assign m_araddr  = hold_araddr_q;

  always_ff @(posedge m_clk_i) begin
    if (!m_rst_ni) begin
      // Whatever was outstanding is acknowledged, not performed: SLVERR.
      wseen_q   <= wreq_m;
      wack_m_q  <= wreq_m;
      wresp_m_q <= RespSlvErr;
      aw_done_q <= 1'b0;
      w_done_q  <= 1'b0;
    end else if (wactive) begin
      if (m_awvalid && m_awready) aw_done_q <= 1'b1;
      if (m_wvalid && m_wready) w_done_q <= 1'b1;
      if (m_bready && m_bvalid) begin
        wresp_m_q <= m_bresp;
        wseen_q   <= wreq_m;
        wack_m_q  <= wreq_m;
        aw_done_q <= 1'b0;
        w_done_q  <= 1'b0;
      end
    end
  end

  logic ar_done_q;
  assign m_arvalid = ractive && !ar_done_q;
  assign m_rready  = ractive && ar_done_q;

  always_ff @(posedge m_clk_i) begin
    if (!m_rst_ni) begin
      rseen_q   <= rreq_m;
      rack_m_q  <= rreq_m;
      rresp_m_q <= RespSlvErr;
      rdata_m_q <= '0;
      ar_done_q <= 1'b0;
    end else if (ractive) begin
      if (m_arvalid && m_arready) ar_done_q <= 1'b1;
      if (m_rready && m_rvalid) begin
        rresp_m_q <= m_rresp;
        rdata_m_q <= m_rdata;
        rseen_q   <= rreq_m;
        rack_m_q  <= rreq_m;
        ar_done_q <= 1'b0;
      end
    end
  end
endmodule
