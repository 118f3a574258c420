# Timing constraints of lightrail_board_top (docs/hw.md, "Clocking";
# docs/hw-clock-sync.md, "Clock domains and crossings").
#
# Three clocks reach the top. clk_i, the 250 MHz system clock (CLK_PERIOD_PS
# = 4000), runs the AXI4-Lite slave, the bank memories, board time, the
# fine-edge stages, the timestamps, the oscillator control and the system
# side of the DDMTD. clk_dmtd_i, the DDMTD helper at f * N / (N + 1) (N =
# 4096: 4.000977 ns), samples clk_i and clk_rx_i, the reference clock the
# link recovers (nominally f), as data. Used on its own for the
# out-of-context build (hw/vivado/build.tcl). In the board wrapper the three
# clocks come from a PLL and a transceiver, which define them already: read
# this file there with SCOPED_TO_REF lightrail_board_top (or drop its
# create_clock lines), next to the board file (vcu118_board.xdc).

create_clock -period 4.000 -name sys_clk [get_ports clk_i]
create_clock -period 4.000 -name dmtd_clk [get_ports clk_dmtd_i]
create_clock -period 4.000 -name rx_clk [get_ports clk_rx_i]

# No set_clock_groups: a crossing that does not go through a cdc_sync stays
# timed as synchronous and fails, instead of being hidden.
#
# Every crossing enters a cdc_sync (u_*_sync) at sync_q1, ASYNC_REG. The
# request/acknowledge toggles are false paths there.
set_false_path -to [get_cells -hier -filter {NAME =~ *u_*_sync/sync_q1_reg* && NAME !~ *u_ddmtd/u_ref_sync/* && NAME !~ *u_ddmtd/u_local_sync/*}]
# The DDMTD's two samplers take clk_rx_i and clk_i as data (metastability
# there is the measurement), but the difference of their two routes enters
# the measured phase: keep both short so it stays small and stable. What is
# left is a constant of the build, calibrated per bitstream with the fixed
# delays (SYNC_CAL_DELAY_*).
set_max_delay -datapath_only 1.000 -from [get_ports clk_rx_i] \
  -to [get_cells -hier -filter {NAME =~ *u_ddmtd/u_ref_sync/sync_q1_reg*}]
set_max_delay -datapath_only 1.000 -from [get_ports clk_i] \
  -to [get_cells -hier -filter {NAME =~ *u_ddmtd/u_local_sync/sync_q1_reg*}]
# The DDMTD tag pair is held stable while its request crosses and is captured
# in clk_i only after the synchronised request changed: bound the data path
# to one system period so it has settled by then.
set_max_delay -datapath_only 4.000 \
  -from [get_cells -hier -filter {NAME =~ *u_ddmtd/hold_*_q_reg*}] -to [get_clocks sys_clk]

# rst_ni is synchronous to clk_i and rst_dmtd_ni to clk_dmtd_i (the wrapper
# synchronises each reset source before it reaches the top), so they are
# timed like any other input: no false path here on purpose.
