// Bench of hw/board/axil_cdc.sv between two unrelated clocks (host 10 ns,
// board 3.7 ns), against a register-memory slave with random ready delays
// that answers SLVERR at one address: every write lands once with its
// strobes, every read returns what was written, SLVERR comes through; with
// the board clock stopped a request is answered SLVERR within TIMEOUT, the
// next one at once, and after the board side restarts (reset) the stale
// write is never performed and traffic works again; a host-side reset with a
// write in flight lets it complete and leaves the bridge working.
`timescale 1ps / 1ps
module axil_cdc_tb;
  localparam int AW = 18;
  localparam int Timeout = 64;
  localparam int Words = 64;
  localparam logic [AW-1:0] ErrAddr = 18'h00100;

  logic s_clk = 0, m_clk = 0, m_clk_run = 1;
  logic s_rst_n = 0, m_rst_n = 0;
  always #5000 s_clk = ~s_clk;
  always #1850 if (m_clk_run) m_clk = ~m_clk;

  logic [AW-1:0] s_awaddr, s_araddr, m_awaddr, m_araddr;
  logic s_awvalid, s_awready, s_wvalid, s_wready, s_bvalid, s_bready, s_arvalid, s_arready, s_rvalid, s_rready;
  logic m_awvalid, m_awready, m_wvalid, m_wready, m_bvalid, m_bready, m_arvalid, m_arready, m_rvalid, m_rready;
  logic [31:0] s_wdata, s_rdata, m_wdata, m_rdata;
  logic [3:0] s_wstrb, m_wstrb;
  logic [1:0] s_bresp, s_rresp, m_bresp, m_rresp;

  axil_cdc #(.ADDR_BITS(AW), .TIMEOUT(Timeout)) dut (
    .s_clk_i(s_clk), .s_rst_ni(s_rst_n), .s_awaddr, .s_awvalid, .s_awready, .s_wdata, .s_wstrb, .s_wvalid,
    .s_wready, .s_bresp, .s_bvalid, .s_bready, .s_araddr, .s_arvalid, .s_arready, .s_rdata, .s_rresp,
    .s_rvalid, .s_rready,
    .m_clk_i(m_clk), .m_rst_ni(m_rst_n), .m_awaddr, .m_awvalid, .m_awready, .m_wdata, .m_wstrb, .m_wvalid,
    .m_wready, .m_bresp, .m_bvalid, .m_bready, .m_araddr, .m_arvalid, .m_arready, .m_rdata, .m_rresp,
    .m_rvalid, .m_rready
  );

  // ---------------------------------------------------------------- slave
  logic [31:0] mem[Words];
  int writes_done = 0;
  logic aw_seen, w_seen;
  logic [AW-1:0] aw_q;
  logic [31:0] w_q;
  logic [3:0] ws_q;
  always @(posedge m_clk) begin
    if (!m_rst_n) begin
      m_awready <= 0; m_wready <= 0; m_bvalid <= 0; m_arready <= 0; m_rvalid <= 0;
      aw_seen <= 0; w_seen <= 0;
    end else begin
      m_awready <= !aw_seen && ($urandom % 3 == 0);
      m_wready  <= !w_seen && ($urandom % 3 == 0);
      if (m_awvalid && m_awready) begin aw_seen <= 1; aw_q <= m_awaddr; m_awready <= 0; end
      if (m_wvalid && m_wready) begin w_seen <= 1; w_q <= m_wdata; ws_q <= m_wstrb; m_wready <= 0; end
      if (aw_seen && w_seen && !m_bvalid) begin
        m_bvalid <= 1;
        if (aw_q == ErrAddr) m_bresp <= 2'b10;
        else begin
          m_bresp <= 2'b00;
          for (int b = 0; b < 4; b++) if (ws_q[b]) mem[aw_q[7:2]][8*b+:8] <= w_q[8*b+:8];
          writes_done <= writes_done + 1;
        end
      end
      if (m_bvalid && m_bready) begin m_bvalid <= 0; aw_seen <= 0; w_seen <= 0; end
      m_arready <= !m_rvalid && ($urandom % 2 == 0);
      if (m_arvalid && m_arready) begin
        m_arready <= 0;
        m_rvalid <= 1;
        m_rdata <= mem[m_araddr[7:2]];
        m_rresp <= (m_araddr == ErrAddr) ? 2'b10 : 2'b00;
      end
      if (m_rvalid && m_rready) m_rvalid <= 0;
    end
  end

  // ---------------------------------------------------------------- host tasks
  int errors = 0;
  task automatic write(input logic [AW-1:0] a, input logic [31:0] d, input logic [3:0] st, output logic [1:0] resp);
    @(negedge s_clk);
    s_awaddr = a; s_awvalid = 1; s_wdata = d; s_wstrb = st; s_wvalid = 1; s_bready = 1;
    do @(posedge s_clk); while (!(s_awready && s_wready));
    @(negedge s_clk); s_awvalid = 0; s_wvalid = 0;
    while (!s_bvalid) @(negedge s_clk);
    resp = s_bresp;
    @(posedge s_clk); @(negedge s_clk); s_bready = 0;
  endtask
  task automatic read(input logic [AW-1:0] a, output logic [31:0] d, output logic [1:0] resp);
    @(negedge s_clk);
    s_araddr = a; s_arvalid = 1; s_rready = 1;
    do @(posedge s_clk); while (!s_arready);
    @(negedge s_clk); s_arvalid = 0;
    while (!s_rvalid) @(negedge s_clk);
    d = s_rdata; resp = s_rresp;
    @(posedge s_clk); @(negedge s_clk); s_rready = 0;
  endtask

  logic [31:0] model[Words];
  logic [31:0] d;
  logic [1:0] r;
  int n_before, t0, w;
  logic [31:0] v;
  logic [3:0] st;
  initial begin
    s_awvalid = 0; s_wvalid = 0; s_bready = 0; s_arvalid = 0; s_rready = 0;
    for (int i = 0; i < Words; i++) begin mem[i] = 0; model[i] = 0; end
    repeat (5) @(posedge s_clk);
    s_rst_n = 1; m_rst_n = 1;
    repeat (5) @(posedge s_clk);
    // Random traffic with byte strobes.
    for (int n = 0; n < 400; n++) begin
      w = $urandom % Words;
      v = $urandom;
      st = ($urandom % 4 == 0) ? $urandom : 4'hF;
      if ($urandom % 2) begin
        write(AW'(w * 4), v, st, r);
        if (r !== 2'b00) begin $display("ERROR write %0d resp %b", w, r); errors++; end
        for (int b = 0; b < 4; b++) if (st[b]) model[w][8*b+:8] = v[8*b+:8];
      end else begin
        read(AW'(w * 4), d, r);
        if (r !== 2'b00 || d !== model[w]) begin
          $display("ERROR read %0d: %h resp %b, expected %h", w, d, r, model[w]); errors++;
        end
      end
    end
    // The slave's SLVERR reaches the host, both directions.
    write(ErrAddr, 32'h1, 4'hF, r);
    if (r !== 2'b10) begin $display("ERROR: slave SLVERR on write came back as %b", r); errors++; end
    read(ErrAddr, d, r);
    if (r !== 2'b10) begin $display("ERROR: slave SLVERR on read came back as %b", r); errors++; end
    // Board clock stops: answered SLVERR within the timeout, the next at once.
    m_clk_run = 0;
    n_before = writes_done;
    t0 = $time;
    write(AW'(8), 32'hDEAD_BEEF, 4'hF, r);
    if (r !== 2'b10) begin $display("ERROR: write with the board clock stopped answered %b", r); errors++; end
    if (($time - t0) / 10000 > Timeout + 8) begin $display("ERROR: timeout took %0d cycles", ($time - t0) / 10000); errors++; end
    t0 = $time;
    write(AW'(16), 32'hFEED_F00D, 4'hF, r);
    if (r !== 2'b10) begin $display("ERROR: write while one is owed answered %b", r); errors++; end
    if (($time - t0) / 10000 > 6) begin $display("ERROR: refusal took %0d cycles", ($time - t0) / 10000); errors++; end
    // Reads are their own channel: this one crosses and times out too.
    read(AW'(8), d, r);
    if (r !== 2'b10) begin $display("ERROR: read with the board clock stopped answered %b", r); errors++; end
    // Board side comes back through a reset: the stale write is dropped.
    m_rst_n = 0;
    m_clk_run = 1;
    repeat (10) @(posedge m_clk);
    m_rst_n = 1;
    repeat (10) @(posedge s_clk);
    if (writes_done != n_before || mem[2] !== model[2] || mem[4] !== model[4]) begin
      $display("ERROR: the write answered SLVERR was performed after the board side restarted"); errors++;
    end
    write(AW'(12), 32'h1234_5678, 4'hF, r);
    model[3] = 32'h1234_5678;
    read(AW'(12), d, r);
    if (r !== 2'b00 || d !== 32'h1234_5678) begin $display("ERROR: after the restart read %h resp %b", d, r); errors++; end
    // Host side reset while a write is in flight (board clock paused): the
    // board side completes it as issued, never sees it withdrawn, and the
    // bridge works afterwards.
    m_clk_run = 0;
    @(negedge s_clk);
    s_awaddr = AW'(20); s_awvalid = 1; s_wdata = 32'hA5A5_0001; s_wstrb = 4'hF; s_wvalid = 1; s_bready = 0;
    do @(posedge s_clk); while (!(s_awready && s_wready));
    @(negedge s_clk); s_awvalid = 0; s_wvalid = 0;
    s_rst_n = 0;
    repeat (3) @(posedge s_clk);
    s_rst_n = 1;
    m_clk_run = 1;
    repeat (40) @(posedge s_clk);
    if (mem[5] !== 32'hA5A5_0001) begin $display("ERROR: the write in flight over a host reset was lost"); errors++; end
    model[5] = 32'hA5A5_0001;
    write(AW'(24), 32'h0BAD_CAFE, 4'hF, r);
    read(AW'(24), d, r);
    if (r !== 2'b00 || d !== 32'h0BAD_CAFE) begin $display("ERROR: after a host reset read %h resp %b", d, r); errors++; end
    $display("TB_DONE errors=%0d writes=%0d", errors, writes_done);
    $finish;
  end
  initial begin #200_000_000; $display("TB_DONE errors=timeout"); $finish; end
endmodule
