# Clocks of lightrail_board_top on its own (out-of-context build,
# hw/vivado/build.tcl ooc): the clock ports at their true periods,
# under the names lightrail_timing.xdc refers to. In the board build
# constraints/zcu102_board.xdc defines the same three names on the board's
# clocks instead; this file is not read there.
#
# clk_i: the system clock, CLK_PERIOD_PS = 4000 ps.
create_clock -period 4.000 -name sys_clk [get_ports clk_i]
# clk_dmtd_i: the DDMTD helper, f * N / (N + 1) with N = DDMTD_N = 4096, so
# its period is 4000 ps * 4097 / 4096 = 4000.977 ps (Vivado keeps periods to
# the picosecond).
create_clock -period 4.001 -name dmtd_clk [get_ports clk_dmtd_i]
# clk_rx_i: recovered from the link, nominally f but from another board's
# oscillator: unrelated to clk_i (lightrail_timing.xdc groups them).
create_clock -period 4.000 -name rx_clk [get_ports clk_rx_i]
# clk_down_rx_i: the downstream ports' recovered clocks (hw/sync_port.sv),
# each from its follower's oscillator. One clock over all of them: no path
# runs from one port's receiver to another's, only into clk_i, which
# lightrail_timing.xdc bounds as it does rx_clk's.
create_clock -period 4.000 -name down_rx_clk [get_ports {clk_down_rx_i[*]}]
