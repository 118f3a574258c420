# Board constraints of lightrail_zcu102_top on the AMD ZCU102 (Rev 1.x,
# xczu9eg-ffvb1156-2-e: cmake/lightrail_board.cmake). Why this board and what
# each connector carries: docs/board.md. Read before lightrail_timing.xdc.
#
# Pins. The ZCU102's fixed wiring is in AMD UG1182 (ZCU102 Evaluation Board
# User Guide), chapter 3. Every pin below was checked against AMD's board
# files for the ZCU102 Rev 1.0/1.1 (XilinxBoardStore, zcu102/3.4) where they
# cover it (FMC LA/DP/GBTCLK, DIP switches, LEDs) and against public ZCU102
# constraint tables elsewhere (SFP+, Si5328, PMOD): sources, commits and
# what each settles in docs/board.md, "Pin verification". The comment on
# each pin line starts with the package pin's name (its bank is the name's
# suffix), then the connector pin and board net; tests/board/check_board.py
# reads it (P/N legs of one pair, TX/RX direction, the bank's VCCO).
#
# Bank supplies of the banks used: the HD banks on the 3.3 V rail, the FMC
# banks on VADJ_FMC, which the board's system controller sets and which must
# be 1.8 V for this design (the board files give every FMC LA pin LVCMOS18,
# i.e. assume the same). Format: VCCO <rail> <volts> banks <bank>...
#   VCCO VCC3V3 3.3 banks 44 47 49
#   VCCO VADJ_FMC 1.8 banks 66 67
#
# What sits on the FMCs is this project's assumption (docs/board.md, "What a
# lab must add"): on HPC0 the timing card (disciplined 250 MHz VCXO on
# GBTCLK0_M2C, its AD5662 DAC on LA pins) and eight gate lanes; on HPC1 eight
# more gate lanes and a copy of the VCXO clock on its GBTCLK0_M2C.
#
# Configuration. On the Zynq UltraScale+ the processing system loads the
# programmable logic (from BOOT.BIN on SD/QSPI at boot, or at run time by
# XRT/zocl or fpgautil), so there are no CFGBVS/CONFIG_VOLTAGE or SPI-flash
# properties to set: the QSPI flash is the PS's, on its MIO pins.
set_property BITSTREAM.GENERAL.COMPRESS TRUE [current_design]
set_property BITSTREAM.CONFIG.UNUSEDPIN PULLNONE [current_design]

# =========================================================== clocks (true periods)
# The timing card's VCXO, 250 MHz = CLK_PERIOD_PS 4000, on FMC HPC0
# GBTCLK0_M2C (J5.D4/D5) -> MGTREFCLK0 of quad 229: CPLL reference of quads
# 228-230 and, through BUFG_GT and the MMCM, clk_i. GT reference pins take
# no IOSTANDARD.
set_property PACKAGE_PIN G8 [get_ports gtrefclk_hpc0_p] ;# MGTREFCLK0P_229 J5.D4 GBTCLK0_M2C_P
set_property PACKAGE_PIN G7 [get_ports gtrefclk_hpc0_n] ;# MGTREFCLK0N_229 J5.D5 GBTCLK0_M2C_N
create_clock -period 4.000 -name vcxo_refclk [get_ports gtrefclk_hpc0_p]
# The same VCXO on FMC HPC1 GBTCLK0_M2C (J4.D4/D5) -> MGTREFCLK0 of quad 130:
# CPLL reference of quads 129-130. Frequency-locked to vcxo_refclk but of
# unknown phase (another cable): asynchronous to everything in the fabric.
set_property PACKAGE_PIN G27 [get_ports gtrefclk_hpc1_p] ;# MGTREFCLK0P_130 J4.D4 GBTCLK0_M2C_P
set_property PACKAGE_PIN G28 [get_ports gtrefclk_hpc1_n] ;# MGTREFCLK0N_130 J4.D5 GBTCLK0_M2C_N
create_clock -period 4.000 -name vcxo_refclk_hpc1 [get_ports gtrefclk_hpc1_p]
# The DDMTD helper from the board's Si5328 (U20, CKOUT2 -> MGTREFCLK1 of quad
# 230), locked to clk_i forwarded on si5328_ckin: 250 MHz * 4096 / 4097
# (N = DDMTD_N = 4096), period 4000.977 ps. Si5328 settings: docs/board.md.
set_property PACKAGE_PIN B10 [get_ports dmtd_refclk_p] ;# MGTREFCLK1P_230 SFP_SI5328_OUT_C_P
set_property PACKAGE_PIN B9 [get_ports dmtd_refclk_n] ;# MGTREFCLK1N_230 SFP_SI5328_OUT_C_N
create_clock -period 4.001 -name dmtd_clk [get_ports dmtd_refclk_p]

# clk_i: the MMCM output Vivado derives from vcxo_refclk, renamed to the
# name lightrail_timing.xdc uses.
create_generated_clock -name sys_clk [get_pins -hier -filter {NAME =~ *u_mmcm/CLKOUT0}]
# clk_rx: the timing link's recovered clock. Vivado would derive RXOUTCLK from
# the CPLL's reference (vcxo_refclk) and so time it as related to clk_i,
# which it is not (it is the far end's oscillator): declared here as its own
# clock, overriding the derived one.
create_clock -period 4.000 -name rx_clk \
  [get_pins -hier -filter {NAME =~ *u_gth_link/*GTHE4_CHANNEL_PRIM_INST/RXOUTCLK}]

# The platform's clock on ap_clk (its period is the platform's: read it).
# (=~ is a glob: a bit index in brackets would be a character class, so the
# first flop of the chain is taken with lindex.)
set ap_clk [get_clocks -of_objects [lindex [get_pins -hier -filter {NAME =~ *u_rst_ap/arst_q_reg*/C}] 0]]
set ap_period [get_property PERIOD $ap_clk]

# Asynchronous groups: the HPC1 copy of the VCXO (only its transceivers use
# it) against everything, and the pairs with no crossing at all. The three
# pairs with crossings bounded by set_max_delay (sys/dmtd, rx/dmtd, ap/sys)
# are deliberately not grouped: a group would override those bounds
# (docs/board.md, "Clocks that are grouped").
set_clock_groups -asynchronous -group [get_clocks -include_generated_clocks vcxo_refclk_hpc1] \
  -group [concat [get_clocks -include_generated_clocks {vcxo_refclk dmtd_clk rx_clk}] $ap_clk]
set_clock_groups -asynchronous -group $ap_clk -group [get_clocks dmtd_clk]
set_clock_groups -asynchronous -group $ap_clk -group [get_clocks rx_clk]

# =========================================================== board crossings
# Host bridge (axil_cdc): request buses held from the toggle until the board
# side has seen it, responses held likewise; the toggles go through cdc_sync
# (false paths in lightrail_timing.xdc). Bound each held bus to one
# destination period.
set_max_delay -datapath_only 4.000 \
  -from [get_cells -hier -filter {NAME =~ *u_host_cdc/hold_*_q_reg*}] -to [get_clocks sys_clk]
set_max_delay -datapath_only $ap_period \
  -from [get_cells -hier -filter {NAME =~ *u_host_cdc/*_m_q_reg*}] -to $ap_clk
# Reset synchronisers assert asynchronously (reset_sync.sv).
set_false_path -to [get_pins -hier -filter {NAME =~ *u_rst_*/arst_q_reg*/CLR}]

# =========================================================== switch gates: GTH TX
# Port p -> lane; only P and N pins are placed, the channel follows from
# them. The comment on each P pin names its transceiver pin (MGTHTXP<channel>_
# <quad>): tests/board/check_board.py derives the channel's site from it and
# checks it against the wrapper's GtIndex and gth_ip.tcl's channel list.
# HPC0 J5 DP0..7 (quads 229, 228):
set_property PACKAGE_PIN G4 [get_ports {gate_txp[0]}] ;# MGTHTXP2_229 J5.C2 DP0_C2M_P
set_property PACKAGE_PIN G3 [get_ports {gate_txn[0]}] ;# MGTHTXN2_229 J5.C3 DP0_C2M_N
set_property PACKAGE_PIN H6 [get_ports {gate_txp[1]}] ;# MGTHTXP1_229 J5.A22 DP1_C2M_P
set_property PACKAGE_PIN H5 [get_ports {gate_txn[1]}] ;# MGTHTXN1_229 J5.A23 DP1_C2M_N
set_property PACKAGE_PIN F6 [get_ports {gate_txp[2]}] ;# MGTHTXP3_229 J5.A26 DP2_C2M_P
set_property PACKAGE_PIN F5 [get_ports {gate_txn[2]}] ;# MGTHTXN3_229 J5.A27 DP2_C2M_N
set_property PACKAGE_PIN K6 [get_ports {gate_txp[3]}] ;# MGTHTXP0_229 J5.A30 DP3_C2M_P
set_property PACKAGE_PIN K5 [get_ports {gate_txn[3]}] ;# MGTHTXN0_229 J5.A31 DP3_C2M_N
set_property PACKAGE_PIN M6 [get_ports {gate_txp[4]}] ;# MGTHTXP3_228 J5.A34 DP4_C2M_P
set_property PACKAGE_PIN M5 [get_ports {gate_txn[4]}] ;# MGTHTXN3_228 J5.A35 DP4_C2M_N
set_property PACKAGE_PIN P6 [get_ports {gate_txp[5]}] ;# MGTHTXP1_228 J5.A38 DP5_C2M_P
set_property PACKAGE_PIN P5 [get_ports {gate_txn[5]}] ;# MGTHTXN1_228 J5.A39 DP5_C2M_N
set_property PACKAGE_PIN R4 [get_ports {gate_txp[6]}] ;# MGTHTXP0_228 J5.B36 DP6_C2M_P
set_property PACKAGE_PIN R3 [get_ports {gate_txn[6]}] ;# MGTHTXN0_228 J5.B37 DP6_C2M_N
set_property PACKAGE_PIN N4 [get_ports {gate_txp[7]}] ;# MGTHTXP2_228 J5.B32 DP7_C2M_P
set_property PACKAGE_PIN N3 [get_ports {gate_txn[7]}] ;# MGTHTXN2_228 J5.B33 DP7_C2M_N
# HPC1 J4 DP0..7 (quads 130, 129). Channel n of quad 130 is site X0Y(12 + n),
# as in every quad whose sites the sources list consistently; the one list
# with quad 130 out of order (X0Y14, X0Y13, X0Y15, X0Y12) repeats quad 229's
# DP order there (docs/board.md, "Pin verification"). Vivado stops on a
# pin/site mismatch, so a wrong site cannot pass silently.
set_property PACKAGE_PIN F29 [get_ports {gate_txp[8]}] ;# MGTHTXP0_130 J4.C2 DP0_C2M_P
set_property PACKAGE_PIN F30 [get_ports {gate_txn[8]}] ;# MGTHTXN0_130 J4.C3 DP0_C2M_N
set_property PACKAGE_PIN D29 [get_ports {gate_txp[9]}] ;# MGTHTXP1_130 J4.A22 DP1_C2M_P
set_property PACKAGE_PIN D30 [get_ports {gate_txn[9]}] ;# MGTHTXN1_130 J4.A23 DP1_C2M_N
set_property PACKAGE_PIN B29 [get_ports {gate_txp[10]}] ;# MGTHTXP2_130 J4.A26 DP2_C2M_P
set_property PACKAGE_PIN B30 [get_ports {gate_txn[10]}] ;# MGTHTXN2_130 J4.A27 DP2_C2M_N
set_property PACKAGE_PIN A31 [get_ports {gate_txp[11]}] ;# MGTHTXP3_130 J4.A30 DP3_C2M_P
set_property PACKAGE_PIN A32 [get_ports {gate_txn[11]}] ;# MGTHTXN3_130 J4.A31 DP3_C2M_N
set_property PACKAGE_PIN K29 [get_ports {gate_txp[12]}] ;# MGTHTXP0_129 J4.A34 DP4_C2M_P
set_property PACKAGE_PIN K30 [get_ports {gate_txn[12]}] ;# MGTHTXN0_129 J4.A35 DP4_C2M_N
set_property PACKAGE_PIN J31 [get_ports {gate_txp[13]}] ;# MGTHTXP1_129 J4.A38 DP5_C2M_P
set_property PACKAGE_PIN J32 [get_ports {gate_txn[13]}] ;# MGTHTXN1_129 J4.A39 DP5_C2M_N
set_property PACKAGE_PIN H29 [get_ports {gate_txp[14]}] ;# MGTHTXP2_129 J4.B36 DP6_C2M_P
set_property PACKAGE_PIN H30 [get_ports {gate_txn[14]}] ;# MGTHTXN2_129 J4.B37 DP6_C2M_N
set_property PACKAGE_PIN G31 [get_ports {gate_txp[15]}] ;# MGTHTXP3_129 J4.B32 DP7_C2M_P
set_property PACKAGE_PIN G32 [get_ports {gate_txn[15]}] ;# MGTHTXN3_129 J4.B33 DP7_C2M_N

# =========================================================== SFP+ cages (quad 230)
# SFP0 (P1 cage, GTHE4_CHANNEL_X1Y12): the fibre timing link.
set_property PACKAGE_PIN E4 [get_ports link_txp] ;# MGTHTXP0_230 SFP0_TX_P
set_property PACKAGE_PIN E3 [get_ports link_txn] ;# MGTHTXN0_230 SFP0_TX_N
set_property PACKAGE_PIN D2 [get_ports link_rxp] ;# MGTHRXP0_230 SFP0_RX_P
set_property PACKAGE_PIN D1 [get_ports link_rxn] ;# MGTHRXN0_230 SFP0_RX_N
# SFP1 (X1Y13) transmitter: PPS at tick resolution (pps_ser), to an SFP+
# module or an SFP-to-SMA adapter.
set_property PACKAGE_PIN D6 [get_ports pps_txp] ;# MGTHTXP1_230 SFP1_TX_P
set_property PACKAGE_PIN D5 [get_ports pps_txn] ;# MGTHTXN1_230 SFP1_TX_N
# TX_DISABLE of SFP0/SFP1 (nets SFP0/1_TX_DISABLE at the FPGA). High turns
# the transmitter on: the public ZCU102 Ethernet designs all drive it so
# (docs/board.md, "Pin verification"); the wrapper drives them high.
set_property -dict {PACKAGE_PIN A12 IOSTANDARD LVCMOS33 SLEW SLOW DRIVE 8} [get_ports {sfp_tx_disable_b[0]}] ;# IO_L9N_AD11N_49 SFP0_TX_DISABLE
set_property -dict {PACKAGE_PIN A13 IOSTANDARD LVCMOS33 SLEW SLOW DRIVE 8} [get_ports {sfp_tx_disable_b[1]}] ;# IO_L9P_AD11P_49 SFP1_TX_DISABLE
set_false_path -to [get_ports {sfp_tx_disable_b[*]}]

# =========================================================== Si5328 reference input
# clk_i forwarded (ODDRE1) to the Si5328's CKIN1 over the board's REC_CLOCK
# pair, in HP bank 67: an LVDS output there needs VCCO = VADJ_FMC = 1.8 V.
set_property -dict {PACKAGE_PIN R10 IOSTANDARD LVDS} [get_ports si5328_ckin_p] ;# IO_L11P_T1U_N8_GC_67 SFP_REC_CLOCK_C_P
set_property -dict {PACKAGE_PIN R9 IOSTANDARD LVDS} [get_ports si5328_ckin_n] ;# IO_L11N_T1U_N9_GC_67 SFP_REC_CLOCK_C_N
# A forwarded clock the Si5328 locks to: its I/O timing does not matter.
set_false_path -to [get_ports {si5328_ckin_p si5328_ckin_n}]

# =========================================================== VCXO DAC (timing card on HPC0)
# AD5662 3-wire on HPC0 LA02_P/LA02_N/LA03_P (J5.H7, J5.H8, J5.G9), VADJ_FMC =
# 1.8 V. The FPGA side is verified; the card is this project's and not built
# yet: CHECK its schematic against these three. Every signal is launched
# in clk_i with half an SCLK period (24 ns) of setup and hold at the DAC
# (osc_ctrl), far more than the few ns of I/O delay: placed in the IOB and
# not timed further.
set_property -dict {PACKAGE_PIN V2 IOSTANDARD LVCMOS18 SLEW SLOW DRIVE 8 IOB TRUE} [get_ports dac_sclk_o] ;# IO_L23P_T3U_N8_66 J5.H7 LA02_P
set_property -dict {PACKAGE_PIN V1 IOSTANDARD LVCMOS18 SLEW SLOW DRIVE 8 IOB TRUE} [get_ports dac_sync_no] ;# IO_L23N_T3U_N9_66 J5.H8 LA02_N
set_property -dict {PACKAGE_PIN Y2 IOSTANDARD LVCMOS18 SLEW SLOW DRIVE 8 IOB TRUE} [get_ports dac_din_o] ;# IO_L22P_T3U_N6_DBC_AD0P_66 J5.G9 LA03_P
set_false_path -to [get_ports {dac_sclk_o dac_sync_no dac_din_o}]

# =========================================================== user I/O
# PPS at cycle resolution on PMOD0 J55.1 (scope trigger; the timing
# reference is the SFP1 lane).
set_property -dict {PACKAGE_PIN A20 IOSTANDARD LVCMOS33 SLEW FAST DRIVE 12 IOB TRUE} [get_ports pps_pin_o] ;# IO_L12N_AD0N_47 J55.1 PMOD0_0
set_false_path -to [get_ports pps_pin_o]
# Board index: GPIO_DIP_SW0..3 (CAP_BOARD_ID bits 3:0).
set_property -dict {PACKAGE_PIN AN14 IOSTANDARD LVCMOS33} [get_ports {board_id_sw_i[0]}] ;# IO_L1P_AD11P_44 GPIO_DIP_SW0
set_property -dict {PACKAGE_PIN AP14 IOSTANDARD LVCMOS33} [get_ports {board_id_sw_i[1]}] ;# IO_L1N_AD11N_44 GPIO_DIP_SW1
set_property -dict {PACKAGE_PIN AM14 IOSTANDARD LVCMOS33} [get_ports {board_id_sw_i[2]}] ;# IO_L2P_AD10P_44 GPIO_DIP_SW2
set_property -dict {PACKAGE_PIN AN13 IOSTANDARD LVCMOS33} [get_ports {board_id_sw_i[3]}] ;# IO_L2N_AD10N_44 GPIO_DIP_SW3
set_false_path -from [get_ports {board_id_sw_i[*]}]
# Status LEDs GPIO_LED_0..7 (meaning in lightrail_zcu102_top.sv).
set_property -dict {PACKAGE_PIN AG14 IOSTANDARD LVCMOS33 SLEW SLOW DRIVE 8} [get_ports {led_o[0]}] ;# IO_L10P_AD2P_44 GPIO_LED_0
set_property -dict {PACKAGE_PIN AF13 IOSTANDARD LVCMOS33 SLEW SLOW DRIVE 8} [get_ports {led_o[1]}] ;# IO_L9N_AD3N_44 GPIO_LED_1
set_property -dict {PACKAGE_PIN AE13 IOSTANDARD LVCMOS33 SLEW SLOW DRIVE 8} [get_ports {led_o[2]}] ;# IO_L9P_AD3P_44 GPIO_LED_2
set_property -dict {PACKAGE_PIN AJ14 IOSTANDARD LVCMOS33 SLEW SLOW DRIVE 8} [get_ports {led_o[3]}] ;# IO_L8N_HDGC_AD4N_44 GPIO_LED_3
set_property -dict {PACKAGE_PIN AJ15 IOSTANDARD LVCMOS33 SLEW SLOW DRIVE 8} [get_ports {led_o[4]}] ;# IO_L8P_HDGC_AD4P_44 GPIO_LED_4
set_property -dict {PACKAGE_PIN AH13 IOSTANDARD LVCMOS33 SLEW SLOW DRIVE 8} [get_ports {led_o[5]}] ;# IO_L7N_HDGC_AD5N_44 GPIO_LED_5
set_property -dict {PACKAGE_PIN AH14 IOSTANDARD LVCMOS33 SLEW SLOW DRIVE 8} [get_ports {led_o[6]}] ;# IO_L7P_HDGC_AD5P_44 GPIO_LED_6
set_property -dict {PACKAGE_PIN AL12 IOSTANDARD LVCMOS33 SLEW SLOW DRIVE 8} [get_ports {led_o[7]}] ;# IO_L6N_HDGC_AD6N_44 GPIO_LED_7
set_false_path -to [get_ports {led_o[*]}]
