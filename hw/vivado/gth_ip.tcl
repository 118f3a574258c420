# The two Transceiver Wizard cores of the board wrapper (AMD PG182), generated
# into the current project: sourced by build.tcl (board) and
# hw/vitis/package_kernel.tcl with $ip_dir set. Their ports are declared for
# lint in hw/board/blackbox/lightrail_gth_{tx,link}.sv; the wrapper's
# GtIndex lists the channel order this channel list gives (X first, then Y).
#
# Both: GTH, CPLL from the 250 MHz VCXO (FMC HPC0/HPC1 GBTCLK0_M2C), 8 Gb/s
# (125 ps per bit = one tick), raw 32-bit words (no 8b/10b, 64b/66b or
# scrambler), buffers bypassed (latency fixed across resets) with the core's
# phase alignment, user clocking outside the core (TXUSRCLK = clk_i).
# CONFIG names: PG182, "Customizing and Generating the Core"; check them when
# the core version changes (Vivado stops on an unknown CONFIG name).

# Run on its own (in an open project): -tclargs <ip_dir>.
if {![info exists ip_dir]} {
  if {[llength $argv] != 1} { error "gth_ip.tcl: set ip_dir, or pass it: -tclargs <ip_dir>" }
  set ip_dir [lindex $argv 0]
}

proc lightrail_gth_common {ip} {
  set_property -dict [list \
    CONFIG.GT_TYPE {GTH} \
    CONFIG.TX_LINE_RATE {8} \
    CONFIG.TX_PLL_TYPE {CPLL} \
    CONFIG.TX_REFCLK_FREQUENCY {250} \
    CONFIG.TX_DATA_ENCODING {RAW} \
    CONFIG.TX_USER_DATA_WIDTH {32} \
    CONFIG.TX_INT_DATA_WIDTH {32} \
    CONFIG.TX_BUFFER_MODE {0} \
    CONFIG.LOCATE_TX_USER_CLOCKING {EXAMPLE_DESIGN} \
    CONFIG.FREERUN_FREQUENCY {100} \
  ] $ip
}

# Switch gates (16) and the PPS lane (SFP1, X1Y13): transmit only. (Not run
# yet: if this core version keeps receiver ports for these channels, they go
# to the lanes' M2C pins, which the wrapper does not have yet.)
create_ip -name gtwizard_ultrascale -vendor xilinx.com -library ip -module_name lightrail_gth_tx -dir $ip_dir
set gth_tx [get_ips lightrail_gth_tx]
lightrail_gth_common $gth_tx
set_property -dict [list \
  CONFIG.ENABLE_OPTIONAL_PORTS {cplllock_out} \
  CONFIG.CHANNEL_ENABLE {X0Y8 X0Y9 X0Y10 X0Y11 X0Y12 X0Y13 X0Y14 X0Y15 X1Y4 X1Y5 X1Y6 X1Y7 X1Y8 X1Y9 X1Y10 X1Y11 X1Y13} \
  CONFIG.TX_MASTER_CHANNEL {X1Y10} \
] $gth_tx

# Fibre timing link on SFP0 (X1Y12): transmit and receive, RX buffer bypassed
# too, the recovered clock out (RXOUTCLK) for the DDMTD.
create_ip -name gtwizard_ultrascale -vendor xilinx.com -library ip -module_name lightrail_gth_link -dir $ip_dir
set gth_link [get_ips lightrail_gth_link]
lightrail_gth_common $gth_link
set_property -dict [list \
  CONFIG.RX_LINE_RATE {8} \
  CONFIG.RX_PLL_TYPE {CPLL} \
  CONFIG.RX_REFCLK_FREQUENCY {250} \
  CONFIG.RX_DATA_DECODING {RAW} \
  CONFIG.RX_USER_DATA_WIDTH {32} \
  CONFIG.RX_INT_DATA_WIDTH {32} \
  CONFIG.RX_BUFFER_MODE {0} \
  CONFIG.LOCATE_RX_USER_CLOCKING {EXAMPLE_DESIGN} \
  CONFIG.ENABLE_OPTIONAL_PORTS {cplllock_out} \
  CONFIG.CHANNEL_ENABLE {X1Y12} \
  CONFIG.TX_MASTER_CHANNEL {X1Y12} \
  CONFIG.RX_MASTER_CHANNEL {X1Y12} \
] $gth_link

generate_target all [get_ips {lightrail_gth_tx lightrail_gth_link}]
synth_ip [get_ips {lightrail_gth_tx lightrail_gth_link}]
