# Clock crossings of lightrail_board_top (docs/hw.md, "Clocking";
# docs/hw-clock-sync.md, "Clock domains and crossings"). Read in both builds:
# out of context after lightrail_ooc.xdc, on the board after
# zcu102_board.xdc. Each of those defines the clocks sys_clk (clk_i, 4.000
# ns), dmtd_clk (clk_dmtd_i, 4.001 ns = 4 ns * (N + 1) / N, N = DDMTD_N) and
# rx_clk (clk_rx_i, 4.000 ns, recovered from another board's oscillator), each
# at its true period, and out of context down_rx_clk (the downstream ports'
# clk_down_rx_i, hw/sync_port.sv: the same crossings as rx_clk's); the
# cells are found by hierarchical name, so the file
# does not depend on where the top sits.
#
# No pair is an asynchronous group: every crossing is bounded below by
# set_max_delay -datapath_only or ends at a synchroniser, and
# set_clock_groups would override those bounds (it takes precedence over
# set_max_delay, AMD UG903 "Constraints Precedence"). Any path not covered
# here is timed between the clocks' true periods (4.000 vs 4.001 ns for the
# helper: about a picosecond, which fails; the recovered clock against clk_i
# at an arbitrary phase), and report_cdc (gating hw/vivado/build.tcl) flags
# any crossing without a synchroniser whatever its timing.

# Every handshake crossing enters a cdc_sync (u_*_sync) at sync_q1, ASYNC_REG:
# false paths there. The DDMTD's two samplers and the message engine's two
# SOF samplers are excluded: they are bounded below.
set_false_path -to [get_cells -hier -filter {NAME =~ *u_*_sync/sync_q1_reg* && NAME !~ *u_ddmtd/u_ref_sync/* && NAME !~ *u_ddmtd/u_local_sync/* && NAME !~ *u_link/u_sof_*_sync/*}]

# The DDMTD's two samplers take clk_rx_i and clk_i as data (metastability
# there is the measurement), but the difference of their two routes enters
# the measured phase: keep both short so it stays small and stable. What is
# left is a constant of the build, calibrated per bitstream with the fixed
# delays (SYNC_CAL_DELAY_*).
set_max_delay -datapath_only 1.000 -from [get_clocks -quiet {rx_clk down_rx_clk}] \
  -to [get_cells -hier -filter {NAME =~ *u_ddmtd/u_ref_sync/sync_q1_reg*}]
set_max_delay -datapath_only 1.000 -from [get_clocks sys_clk] \
  -to [get_cells -hier -filter {NAME =~ *u_ddmtd/u_local_sync/sync_q1_reg*}]

# The DDMTD tag pair is held stable while its request crosses and is captured
# in clk_i only after the synchronised request changed: bound the data path
# to one system period so it has settled by then.
set_max_delay -datapath_only 4.000 \
  -from [get_cells -hier -filter {NAME =~ *u_ddmtd/hold_*_q_reg*}] -to [get_clocks sys_clk]

# The message engine (hw/sync_link.sv) stamps a received frame where clk_i
# samples its SOF toggle (u_sof_rise_sync) or the toggle's copy half a
# recovered period later (u_sof_fall_sync), both launched on clk_rx_i. Each
# route enters the stamp: keep both short, and alike (place the two
# samplers together), so that what is left is a constant of the build,
# calibrated with the fixed delays. Their difference is a step of the stamp
# where the engine changes sampler (the DDMTD phase crossing a quarter
# period).
set_max_delay -datapath_only 1.000 -from [get_clocks -quiet {rx_clk down_rx_clk}] \
  -to [get_cells -hier -filter {NAME =~ *u_link/u_sof_rise_sync/sync_q1_reg* || NAME =~ *u_link/u_sof_fall_sync/sync_q1_reg*}]

# A received frame's fields and the bit slide are held in clk_rx_i until the
# next frame (seven cycles at least) or while aligned, and captured in clk_i
# only after their toggle or level has crossed: one system period.
set_max_delay -datapath_only 4.000 \
  -from [get_cells -hier -filter {NAME =~ *u_link/u_rx/*_q_reg*}] -to [get_clocks sys_clk]

# rst_ni is synchronous to clk_i and rst_dmtd_ni to clk_dmtd_i (the wrapper
# synchronises each reset, hw/board/reset_sync.sv), so they are timed like any
# other input: no false path here on purpose.
