// One end of a timing link on a board (docs/hw-clock-sync.md, "Ports"): the
// sync message engine (sync_link) with a DDMTD of its own, which measures
// the link's recovered clock against clk_i. The board top has one for its
// own link (port 0: the follower's end towards its parent, or a
// grandmaster's towards its first follower; the role is SYNC_CTRL.REFERENCE)
// and one per downstream port (DOWNSTREAM: always the reference end, towards
// a follower this board serves). Each transceiver recovers its own clock, so
// each port refines its receive stamps with its own phase.
//
// What the board's frames say of its clock comes from the servo's
// SYNC_STATUS here: a grandmaster (SYNC_CTRL.REFERENCE with the servo off)
// vouches for its own time; a boundary clock sends its servo's quality:
// LOCKED, TIME_VALID (locked once and kept since) and HOLDOVER. A board
// that is neither (its servo not enabled yet, REFERENCE clear) vouches for
// nothing: a boundary clock not yet configured would otherwise tell its
// followers its free-running time was valid, and take that back when its
// servo starts (found by the co-simulation's chains on the engines).
module sync_port #(
  parameter bit DOWNSTREAM = 1'b0
) (
  input  logic                                                        clk_i,
  input  logic                                                        rst_ni,
  input  logic [63:0]                                                 time_i,       // board time (ticks) of this cycle
  input  logic                                                        time_step_i,  // board time jumps after this cycle
  input  logic [31:0]                                                 sync_ctrl_i,  // SYNC_CTRL
  input  logic [31:0]                                                 sync_status_i,  // SYNC_STATUS, from the servo
  input  logic [31:0]                                                 exchange_period_i,  // SYNC_EXCHANGE_PERIOD
  // the DDMTD's helper clock (shared by every port) and its reset
  input  logic                                                        clk_dmtd_i,
  input  logic                                                        rst_dmtd_ni,
  // the link: words sent on clk_i, received on the port's recovered clock
  output logic [lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS-1:0]          tx_word_o,
  input  logic                                                        clk_rx_i,
  input  logic                                                        rst_rx_ni,
  input  logic [lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS-1:0]          rx_word_i,
  // clk_i: the DDMTD's phase (clk_i lags clk_rx_i by phase_o * T / N), one
  // per beat, and the engine's status and (a follower's) last exchange
  output logic                                                        phase_valid_o,
  output logic [lightrail_hwdef_pkg::DDMTD_TAG_BITS-1:0]              phase_o,
  output logic                                                        aligned_o,
  output logic [$clog2(lightrail_hwdef_pkg::SYNC_LINK_WORD_BITS)-1:0] rx_bitslide_o,
  output logic [lightrail_hwdef_pkg::SYNC_FLAG_BITS-1:0]              parent_flags_o,
  output logic [31:0]                                                 bad_frames_o,
  output logic [31:0]                                                 exchanges_o,
  output logic                                                        exchange_fine_o,
  output logic [63:0]                                                 t1_fs_o,
  output logic [63:0]                                                 t2_fs_o,
  output logic [63:0]                                                 t3_fs_o,
  output logic [63:0]                                                 t4_fs_o
);
  localparam int TagBits = lightrail_hwdef_pkg::DDMTD_TAG_BITS;
  localparam int FlagBits = lightrail_hwdef_pkg::SYNC_FLAG_BITS;

  logic               dmtd_tag_valid;
  logic [TagBits-1:0] dmtd_tag_ref, dmtd_tag_local, dmtd_sys_tag_ref, dmtd_sys_tag_local;

  ddmtd u_ddmtd (
    .clk_dmtd_i,
    .rst_dmtd_ni,
    .clk_ref_i      (clk_rx_i),
    .clk_local_i    (clk_i),
    .tag_valid_o    (dmtd_tag_valid),
    .tag_ref_o      (dmtd_tag_ref),
    .tag_local_o    (dmtd_tag_local),
    .clk_sys_i      (clk_i),
    .rst_sys_ni     (rst_ni),
    .sys_valid_o    (phase_valid_o),
    .sys_tag_ref_o  (dmtd_sys_tag_ref),
    .sys_tag_local_o(dmtd_sys_tag_local),
    .sys_phase_o    (phase_o)
  );

  logic                servo_off, grandmaster, reference;
  logic [FlagBits-1:0] flags;
  assign servo_off   = !sync_ctrl_i[lightrail_hwdef_pkg::SYNC_CTRL_ENABLE_LSB];
  assign grandmaster = servo_off && sync_ctrl_i[lightrail_hwdef_pkg::SYNC_CTRL_REFERENCE_LSB];
  assign reference   = DOWNSTREAM || sync_ctrl_i[lightrail_hwdef_pkg::SYNC_CTRL_REFERENCE_LSB];
  assign flags =
      FlagBits'((32'(grandmaster || (!servo_off && sync_status_i[lightrail_hwdef_pkg::SYNC_STATUS_LOCKED_LSB])) <<
                 lightrail_hwdef_pkg::SYNC_FLAG_LOCKED_BIT) |
                (32'(grandmaster || (!servo_off && sync_status_i[lightrail_hwdef_pkg::SYNC_STATUS_TIME_VALID_LSB])) <<
                 lightrail_hwdef_pkg::SYNC_FLAG_TIME_VALID_BIT) |
                (32'(!servo_off && sync_status_i[lightrail_hwdef_pkg::SYNC_STATUS_HOLDOVER_LSB]) <<
                 lightrail_hwdef_pkg::SYNC_FLAG_HOLDOVER_BIT));

  sync_link u_link (
    .clk_i,
    .rst_ni,
    .time_i,
    .time_step_i,
    .reference_i    (reference),
    .flags_i        (flags),
    .period_i       (exchange_period_i),
    .phase_valid_i  (phase_valid_o),
    .phase_i        (phase_o),
    .tx_word_o,
    .clk_rx_i,
    .rst_rx_ni,
    .rx_word_i,
    .aligned_o,
    .rx_bitslide_o,
    .parent_flags_o,
    .bad_frames_o,
    .exchanges_o,
    .exchange_fine_o,
    .t1_fs_o,
    .t2_fs_o,
    .t3_fs_o,
    .t4_fs_o
  );

  // The raw tags are for waveforms and the ILA; the other status bits of
  // SYNC_CTRL and SYNC_STATUS are the servo's.
  logic unused;
  assign unused = ^{dmtd_tag_valid, dmtd_tag_ref, dmtd_tag_local, dmtd_sys_tag_ref, dmtd_sys_tag_local,
                    sync_ctrl_i, sync_status_i};
endmodule
