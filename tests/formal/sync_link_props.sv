// Formal harness of hw/sync_link.sv's sequence pairing, follower side
// (docs/formal.md). A Delay_Req goes out with sequence number s only after
// the engine took a Sync with s, then a Follow_Up with s, with no other Sync
// between them. An exchange is published only for a Delay_Resp whose s is
// an open round: a Delay_Req with s whose send time is recorded, not
// answered, not dropped by a time step or a loss of link, and whose round
// slot no later request took. Every such Delay_Resp is published.
//
// The receiver (u_rx) is cut: its outputs are free inputs in every cycle,
// so the frames reaching the engine are any stream at all. The properties
// speak of the frames the engine takes (dut.frame_ok, with type_b_q and
// seq_b_q). No property reads a timestamp, so opt_clean removes the 64-bit
// stamps, the multipliers and the rounds' t1..t3.
// One sequence number f_s, free and fixed for the run, stands for all 256.
module sync_link_props #(
  // 0: the a_inv_* induction invariants are not asserted. The broken copies
  // run so, so that BMC stops at the property the bug breaks, not at the
  // invariant it breaks a few cycles earlier.
  parameter bit INVARIANTS = 1,
  // 1: also cover the round lost in a collision (24 steps, about 20 s).
  parameter bit COVER_LOST = 0
) (
  input logic        clk_i,
  input logic        rst_ni,
  input logic [63:0] time_i,
  input logic        time_step_i,
  input logic        reference_i,
  input logic [lightrail_hwdef_pkg::SYNC_FLAG_BITS-1:0] flags_i,
  input logic [31:0] period_i,
  input logic        phase_valid_i,
  input logic [lightrail_hwdef_pkg::DDMTD_TAG_BITS-1:0] phase_i
);
  localparam int Rounds = 32;  // sync_link's round slots: a slot is seq mod 32
  localparam int SlotBits = $clog2(Rounds);
  localparam logic [3:0] TypeSync = sync_link_pkg::TypeSync;
  localparam logic [3:0] TypeFollowUp = sync_link_pkg::TypeFollowUp;
  localparam logic [3:0] TypeDelayReq = sync_link_pkg::TypeDelayReq;
  localparam logic [3:0] TypeDelayResp = sync_link_pkg::TypeDelayResp;

  logic        aligned_o;
  logic [31:0] exchanges_o;
  sync_link dut (
    .clk_i, .rst_ni, .time_i, .time_step_i, .reference_i, .flags_i, .period_i, .phase_valid_i, .phase_i,
    .tx_word_o(), .clk_rx_i(clk_i), .rst_rx_ni(rst_ni), .rx_word_i(32'd0), .aligned_o,
    .rx_bitslide_o(), .parent_flags_o(), .bad_frames_o(), .exchanges_o, .t1_fs_o(), .t2_fs_o(),
    .t3_fs_o(), .t4_fs_o());

  logic f_init = 1'b1;
  always_ff @(posedge clk_i) f_init <= 1'b0;
  always_comb assume (rst_ni == !f_init);

  (* anyconst *) logic [7:0] f_s;

  // keep: the runner connects every one, and INVARIANTS = 0 reads only some.
  (* keep *) logic        f_obs_frame_ok;     // dut.frame_ok: the engine takes a frame
  (* keep *) logic [ 3:0] f_obs_type;         // dut.type_b_q
  (* keep *) logic [ 7:0] f_obs_seq;          // dut.seq_b_q
  (* keep *) logic        f_obs_start;        // dut.start: a frame starts
  (* keep *) logic [ 2:0] f_obs_next_type;    // dut.next_type, which yosys narrows to 3 bits (every type < 8)
  (* keep *) logic [ 7:0] f_obs_next_seq;     // dut.next_header[7:0]
  (* keep *) logic        f_obs_want_req;     // dut.want_req_q
  (* keep *) logic        f_obs_req_sent;     // dut.req_sent_q
  (* keep *) logic [ 7:0] f_obs_req_seq;      // dut.req_seq_q
  (* keep *) logic        f_obs_have_sync;    // dut.have_sync_q
  (* keep *) logic [ 7:0] f_obs_cur_seq;      // dut.cur_seq_q
  (* keep *) logic [ 2:0] f_obs_tx_index;     // dut.tx_index_q
  (* keep *) logic        f_obs_tx_stamped;   // dut.tx_stamped_q
  (* keep *) logic        f_obs_tx_fs_valid;  // dut.tx_fs_valid_q
  (* keep *) logic [Rounds-1:0] f_obs_round_valid;    // dut.round_valid_q
  (* keep *) logic [8*Rounds-1:0] f_obs_round_seq;    // dut.round_seq_q[0..31]x8: word i at 8*i

  // The follower's state is dropped without a link, in the reference role,
  // and at a time step; otherwise it takes the frame the engine takes.
  logic f_flush, f_take, f_req;
  logic [SlotBits-1:0] f_slot;
  always_comb begin
    f_flush = reference_i || !aligned_o || time_step_i;
    f_take  = f_obs_frame_ok && !f_flush;
    f_req   = f_obs_start && f_obs_next_type == TypeDelayReq[2:0];
    f_slot  = f_s[SlotBits-1:0];
  end

  // Reference, for f_s:
  //   f_sync:   the last Sync taken carries f_s.
  //   f_paired: then a Follow_Up with f_s was taken: one Delay_Req with f_s may go.
  //   f_fl:     a Delay_Req (any seq, f_fl_seq) is out, its send time not yet
  //             recorded; that takes 3 cycles (SOF out, stamp, fs).
  //   f_must, f_may: the round of f_s is surely, or possibly, recorded and
  //             open. Since the collision fix (a request recorded in the
  //             cycle the old round of its slot is answered keeps the slot;
  //             docs/formal.md) they are equal; the two names keep the
  //             properties' form, and c_round_lost is unreachable.
  logic       f_sync, f_paired, f_fl, f_must, f_may, f_valid;
  logic [7:0] f_fl_seq;
  logic [1:0] f_fl_age;
  logic       f_rec, f_rec_slot, f_resp_s, f_resp_other;
  always_comb begin
    f_rec        = !f_flush && f_fl && f_fl_age == 2'd3;
    f_rec_slot   = f_rec && f_fl_seq[SlotBits-1:0] == f_slot;
    f_resp_s     = f_take && f_obs_type == TypeDelayResp && f_obs_seq == f_s;
    f_resp_other = f_take && f_obs_type == TypeDelayResp && f_obs_seq != f_s &&
                   f_obs_seq[SlotBits-1:0] == f_slot;
  end
  always_ff @(posedge clk_i) begin
    f_valid <= rst_ni;
    if (!rst_ni || f_flush) begin
      f_sync   <= 1'b0;
      f_paired <= 1'b0;
      f_fl     <= 1'b0;
      f_must   <= 1'b0;
      f_may    <= 1'b0;
    end else begin
      if (f_take && f_obs_type == TypeSync) f_sync <= f_obs_seq == f_s;
      if (f_req && f_obs_next_seq == f_s) f_paired <= 1'b0;
      if (f_take && f_obs_type == TypeFollowUp && f_obs_seq == f_s && f_sync) f_paired <= 1'b1;
      if (f_req) begin
        f_fl     <= 1'b1;
        f_fl_seq <= f_obs_next_seq;
        f_fl_age <= 2'd1;
      end else if (f_fl) begin
        f_fl_age <= f_fl_age + 2'd1;
        if (f_fl_age == 2'd3) f_fl <= 1'b0;
      end
      if (f_rec_slot && f_fl_seq != f_s) begin  // another request took the slot
        f_must <= 1'b0;
        f_may  <= 1'b0;
      end else if (f_rec_slot) begin  // f_s recorded: open, whatever answer the old round gets now
        f_must <= 1'b1;
        f_may  <= 1'b1;
      end else if (f_resp_s) begin  // answered, or not open anyway
        f_must <= 1'b0;
        f_may  <= 1'b0;
      end
    end
  end

  // The frame taken last cycle and the count before it.
  logic        f_d_resp, f_d_resp_s, f_d_must, f_d_may;
  logic [31:0] f_d_exchanges;
  always_ff @(posedge clk_i) begin
    f_d_resp      <= f_take && f_obs_type == TypeDelayResp;
    f_d_resp_s    <= f_resp_s;
    f_d_must      <= f_must;
    f_d_may       <= f_may;
    f_d_exchanges <= exchanges_o;
  end

  logic f_open;  // the engine's round of f_s is open
  assign f_open = f_obs_round_valid[f_slot] && f_obs_round_seq[8*f_slot+:8] == f_s;

  always_comb begin
    if (rst_ni && f_valid) begin
      // A Delay_Req with f_s only for a Sync and Follow_Up with f_s.
      a_req_pair: assert (!(f_req && f_obs_next_seq == f_s) || f_paired);
      // An exchange only for a Delay_Resp taken, one at a time ...
      a_resp_only: assert (exchanges_o == f_d_exchanges ||
                           (f_d_resp && exchanges_o == f_d_exchanges + 32'd1));
      // ... and for a Delay_Resp with f_s only when its round is open; and
      // always then, unless a collision may have closed it.
      a_resp_pair: assert (!f_d_resp_s || exchanges_o == f_d_exchanges || f_d_may);
      a_resp_live: assert (!f_d_resp_s || exchanges_o != f_d_exchanges || !f_d_must);
    end
    if (rst_ni && f_valid && INVARIANTS) begin
      // Invariants for the induction: the engine's state is the reference's.
      a_inv_round: assert ((!f_must || f_open) && (!f_open || f_may));
      a_inv_flight: assert (f_obs_req_sent == f_fl &&
                            (!f_fl || (f_obs_req_seq == f_fl_seq &&
                                       3'(f_fl_age) == f_obs_tx_index &&
                                       f_obs_tx_stamped == (f_fl_age == 2'd2) &&
                                       f_obs_tx_fs_valid == (f_fl_age == 2'd3))));
      a_inv_want: assert (!f_obs_want_req || (!f_obs_req_sent &&
                                              (f_obs_req_seq != f_s || f_paired)));
      a_inv_sync: assert (!(f_obs_have_sync && f_obs_cur_seq == f_s) || f_sync);
    end
  end

  // Not vacuous: an exchange is published.
  always_comb begin
    if (rst_ni && f_valid) begin
      c_exchange: cover (f_d_resp_s && exchanges_o != f_d_exchanges);
      // The corner f_must leaves out happens: a round recorded in the cycle
      // its slot's previous round is answered is lost (docs/formal.md).
      if (COVER_LOST)
        c_round_lost: cover (f_d_resp_s && f_d_may && !f_d_must && exchanges_o == f_d_exchanges);
    end
  end
endmodule
