# Timing constraints of lightrail_board_top (docs/hw.md, "Clocking").
#
# The top has one clock domain: clk_i, the 250 MHz system clock (CLK_PERIOD_PS
# = 4000). The AXI4-Lite slave, the bank memories, the board time counter and
# the fine-edge stages all run on it, so there is no clock crossing inside the
# top. Used on its own for the out-of-context build (hw/vivado/build.tcl) and
# together with the board file (vcu118_board.xdc) in the board wrapper.

create_clock -period 4.000 -name sys_clk [get_ports clk_i]

# rst_ni is synchronous to clk_i (the wrapper synchronises its reset source
# before it reaches the top), so it is timed like any other input: no false
# path here on purpose.
