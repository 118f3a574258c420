# C synthesis of the clock-synchronisation servo (Vitis HLS). Run from the build tree:
#   vitis_hls -f run_hls.tcl -tclargs <repo root> [part]
# The CMake target hls-clock-sync does this when vitis_hls is on PATH.
set root [lindex $argv 0]
set part [expr {[llength $argv] > 1 ? [lindex $argv 1] : "xcu280-fsvh2892-2L-e"}]
set cflags "-std=c++17 -I${root}/hls -I${root}/defs/include"

open_project -reset lightrail_clock_sync
set_top lightrail::sync::lightrail_clock_sync
add_files ${root}/hls/clock_sync/clock_sync.cpp -cflags $cflags
add_files ${root}/hls/clock_sync/clock_sync_top.cpp -cflags $cflags

open_solution -reset solution1 -flow_target vivado
set_part $part
# The 250 MHz system clock (CLK_PERIOD_PS = 4000).
create_clock -period 4 -name clk
csynth_design
export_design -format ip_catalog -rtl verilog
exit
