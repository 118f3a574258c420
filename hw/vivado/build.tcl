# Out-of-context Vivado build of lightrail_board_top for the VCU118 part:
# synthesis, placement, routing, utilisation and timing reports. No bitstream:
# the board wrapper (GTY lanes, clocks, the HLS sequencer) is not written yet.
#
# vivado -mode batch -source build.tcl -tclargs <out_dir> <xdc>... SOURCES <sv>...
# (hw/CMakeLists.txt target hw_vivado passes LIGHTRAIL_HW_XDC and
# LIGHTRAIL_HW_SOURCES.) Fails when routed setup or hold timing is not met.

set part xcvu9p-flga2104-2L-e
set top lightrail_board_top

set sep [lsearch -exact $argv SOURCES]
if {[llength $argv] < 3 || $sep < 2} {
  error "usage: -tclargs <out_dir> <xdc>... SOURCES <sv source>..."
}
set out_dir [lindex $argv 0]
set xdcs [lrange $argv 1 [expr {$sep - 1}]]
set sources [lrange $argv [expr {$sep + 1}] end]
file mkdir $out_dir

foreach f $sources { read_verilog -sv $f }
foreach f $xdcs { read_xdc -mode out_of_context $f }

synth_design -top $top -part $part -mode out_of_context

# The top's ports face on-chip neighbours (sequencer kernel, GTY lanes, host
# bridge), all registered on the same clock: give them 1 ns of the 4 ns.
set data_in [get_ports -filter {DIRECTION == IN && NAME !~ clk_* && NAME != rst_dmtd_ni}]
set_input_delay -clock sys_clk 1.0 $data_in
set_input_delay -clock dmtd_clk 1.0 [get_ports rst_dmtd_ni]
set_output_delay -clock sys_clk 1.0 [all_outputs]

opt_design
place_design
route_design

report_utilization -hierarchical -file $out_dir/utilization.rpt
report_timing_summary -file $out_dir/timing_summary.rpt
write_checkpoint -force $out_dir/${top}_routed.dcp

set setup [get_timing_paths -delay_type max -max_paths 1]
set hold [get_timing_paths -delay_type min -max_paths 1]
if {[get_property SLACK $setup] < 0 || [get_property SLACK $hold] < 0} {
  error "timing not met at 250 MHz: see $out_dir/timing_summary.rpt"
}
puts "lightrail: $top meets 250 MHz; reports in $out_dir"
