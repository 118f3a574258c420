# Board constraints for the AMD/Xilinx VCU118 (XCVU9P, xcvu9p-flga2104-2L-e),
# for the board wrapper around lightrail_board_top: it instantiates one GTY TX
# per switch port (32-bit TXDATA at 8 Gb/s, fed from gate_ser_o), the HLS
# sequencer and the host bridge. The port names below are that wrapper's.
# Why this board: docs/hw.md, "Reference board".
#
# Package pins: the known pins below are the board's fixed wiring (VCU118
# user guide UG1224; the same pins are used by the open-source Corundum
# VCU118 design). Check them against UG1224 for your board revision.
# Lanes marked SITE-SPECIFIC depend on the mezzanine fitted at your site.

# ---------------------------------------------------------------------------
# System clock: the board's 250 MHz differential oscillator (DIFF_SSTL12).
# In the synchronised design this input is replaced by the disciplined
# oscillator (one of the board's programmable clock synthesizers, steered by
# the servo); the period stays 4.000 ns.
set_property -dict {PACKAGE_PIN E12 IOSTANDARD DIFF_SSTL12} [get_ports sys_clk_250_p]
set_property -dict {PACKAGE_PIN D12 IOSTANDARD DIFF_SSTL12} [get_ports sys_clk_250_n]
create_clock -period 4.000 -name sys_clk_250 [get_ports sys_clk_250_p]

# ---------------------------------------------------------------------------
# GTY reference clocks: 156.25 MHz from the board's MGT clock sources to the
# QSFP28 quads 231 and 232. The transceiver wizard derives TXUSRCLK2 =
# 8 Gb/s / 32 = 250 MHz from these; its generated XDC constrains TXOUTCLK.
set_property PACKAGE_PIN W9 [get_ports gty_refclk_q231_p]
set_property PACKAGE_PIN W8 [get_ports gty_refclk_q231_n]
create_clock -period 6.400 -name gty_refclk_q231 [get_ports gty_refclk_q231_p]
set_property PACKAGE_PIN R9 [get_ports gty_refclk_q232_p]
set_property PACKAGE_PIN R8 [get_ports gty_refclk_q232_n]
create_clock -period 6.400 -name gty_refclk_q232 [get_ports gty_refclk_q232_p]

# ---------------------------------------------------------------------------
# Serializer outputs (gate of switch port p = GTY TX lane p). Only the P pin
# is placed; Vivado places N with it.
# Ports 0..3: QSFP28 cage 1, quad 231 (GTYE4_CHANNEL_X1Y48..X1Y51).
set_property PACKAGE_PIN V7 [get_ports {gate_txp[0]}]
set_property PACKAGE_PIN T7 [get_ports {gate_txp[1]}]
set_property PACKAGE_PIN P7 [get_ports {gate_txp[2]}]
set_property PACKAGE_PIN M7 [get_ports {gate_txp[3]}]
# Ports 4..7: QSFP28 cage 2, quad 232 (GTYE4_CHANNEL_X1Y52..X1Y55).
set_property PACKAGE_PIN L5 [get_ports {gate_txp[4]}]
set_property PACKAGE_PIN K7 [get_ports {gate_txp[5]}]
set_property PACKAGE_PIN J5 [get_ports {gate_txp[6]}]
set_property PACKAGE_PIN H7 [get_ports {gate_txp[7]}]
# Ports 8..15: SITE-SPECIFIC. Two more GTY quads are needed; on the VCU118
# they come from the FMC+ (HSPC) DP lanes or the FireFly connector, set by
# the mezzanine in use. Place them with
#   set_property PACKAGE_PIN <pin> [get_ports {gate_txp[8]}]  ...
# from the mezzanine's pin table. Until then the wrapper builds ports 0..7.

# ---------------------------------------------------------------------------
# Clock crossings. Inside lightrail_board_top everything is on the system
# clock but the DDMTD's helper side, whose crossings lightrail_timing.xdc
# constrains (the helper clock from a PLL on the oscillator, the recovered
# clock from the GTY receiver). If the host reaches the board through the PCIe bridge, its AXI clock
# is unrelated to sys_clk_250: the wrapper crosses it with an AXI clock
# converter whose IP-scoped XDC constrains the synchronisers; the two clocks
# are then declared asynchronous in the wrapper's own XDC (the PCIe clock's
# name is only known once the bridge IP is generated).
# The GTY TXUSRCLK2 must be the system clock itself (TX buffer bypass with
# phase alignment, docs/hw.md): no constraint relaxes that path.
