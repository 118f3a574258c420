# The reference board: the one place every vendor step takes its target from
# (HLS part, Vivado part, XRT platform, constraints). docs/board.md says why
# this board and what else was considered.
#
# AMD Zynq UltraScale+ MPSoC ZCU102 with the Vitis embedded (edge) platform:
# XRT reaches the programmable logic through zocl on the board's Linux.
set(LIGHTRAIL_BOARD "zcu102" CACHE STRING "Reference board (docs/board.md)")
set(LIGHTRAIL_FPGA_PART "xczu9eg-ffvb1156-2-e" CACHE STRING
    "FPGA part of the reference board, for Vitis HLS and Vivado")
set(LIGHTRAIL_XRT_PLATFORM "xilinx_zcu102_base_202320_1" CACHE STRING
    "Vitis platform (.xpfm name) the xclbin is linked against")
# The system clock every kernel and the RTL top run on: CLK_PERIOD_PS in
# defs/regmap.json (4000 ps, 250 MHz).
set(LIGHTRAIL_CLK_PERIOD_NS 4 CACHE STRING "System clock period for synthesis (ns)")
