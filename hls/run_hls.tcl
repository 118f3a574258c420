# C synthesis of one lightrail kernel (Vitis HLS), run from the build tree:
#   vitis_hls -f run_hls.tcl -tclargs <repo root> <part> <kernel> <top function>
# where <kernel> is the folder under hls/ holding <kernel>.cpp and
# <kernel>_top.cpp. The CMake targets hls-<kernel> do this when vitis_hls is
# on PATH.
lassign $argv root part kernel top
set cflags "-std=c++17 -I${root}/hls -I${root}/defs/include"

open_project -reset lightrail_${kernel}
set_top $top
add_files ${root}/hls/${kernel}/${kernel}.cpp -cflags $cflags
add_files ${root}/hls/${kernel}/${kernel}_top.cpp -cflags $cflags

open_solution -reset solution1 -flow_target vivado
set_part $part
# The 250 MHz system clock (CLK_PERIOD_PS = 4000).
create_clock -period 4 -name clk
csynth_design
export_design -format ip_catalog -rtl verilog
exit
