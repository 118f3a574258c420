# Vivado builds of the board (docs/board.md, "Building"):
#
#   vivado -mode batch -source build.tcl -tclargs ooc <part> <out_dir> <xdc>... SOURCES <sv>...
#     lightrail_board_top out of context: synthesis, placement, routing,
#     reports, timing at 250 MHz. Read lightrail_ooc.xdc and lightrail_timing.xdc.
#   vivado -mode batch -source build.tcl -tclargs board <part> <out_dir> <xdc>... SOURCES <sv>... IPREPO <dir>...
#     the whole board without XRT: a block design with the Zynq UltraScale+
#     processing system driving lightrail_zcu102_top's AXI4-Lite port (the
#     register map at the PS address printed at the end), the transceiver
#     cores (gth_ip.tcl), the HLS kernels from the IP repositories given, the
#     board constraints, and write_bitstream. For bring-up with devmem or
#     fpgautil; the XRT build is hw/vitis/ (v++).
#
# <part> comes from CMake (LIGHTRAIL_FPGA_PART, cmake/lightrail_board.cmake).
# Both fail when routed setup or hold timing is not met, when report_cdc
# finds a critical crossing that is not waived, or (board) when
# report_methodology finds a critical warning.

set usage "usage: -tclargs ooc|board <part> <out_dir> <xdc>... SOURCES <sv>... ?IPREPO <dir>...?"
if {[llength $argv] < 5} { error $usage }
lassign $argv mode part out_dir
if {$mode ni {ooc board}} { error "unknown mode '$mode'; $usage" }
set rest [lrange $argv 3 end]
set sep [lsearch -exact $rest SOURCES]
set ipsep [lsearch -exact $rest IPREPO]
if {$sep < 1} { error $usage }
set xdcs [lrange $rest 0 [expr {$sep - 1}]]
if {$ipsep < 0} {
  set sources [lrange $rest [expr {$sep + 1}] end]
  set ip_repos {}
} else {
  set sources [lrange $rest [expr {$sep + 1}] [expr {$ipsep - 1}]]
  set ip_repos [lrange $rest [expr {$ipsep + 1}] end]
}
if {[llength $sources] == 0} { error "no SOURCES given; $usage" }
if {$mode eq "board" && [llength $ip_repos] == 0} {
  error "board mode needs the HLS kernels' IP repositories after IPREPO"
}
file mkdir $out_dir

source [file join [file dirname [info script]] gate.tcl]

if {$mode eq "ooc"} {
  set top lightrail_board_top
  foreach f $sources { read_verilog -sv $f }
  foreach f $xdcs { read_xdc -mode out_of_context $f }
  synth_design -top $top -part $part -mode out_of_context
  # The top's ports face on-chip neighbours (kernels, transceivers, host
  # bridge), registered on the same clock: give them 1 ns of the 4 ns.
  set data_in [get_ports -filter {DIRECTION == IN && NAME !~ clk_* && NAME != rst_dmtd_ni}]
  set_input_delay -clock sys_clk 1.0 $data_in
  set_input_delay -clock dmtd_clk 1.0 [get_ports rst_dmtd_ni]
  set_output_delay -clock sys_clk 1.0 [all_outputs]
  opt_design
  place_design
  route_design
  report_utilization -hierarchical -file $out_dir/utilization.rpt
  write_checkpoint -force $out_dir/${top}_routed.dcp
  lightrail_timing_met $out_dir "out of context, 250 MHz"
  # Methodology checks are about a whole design; out of context only CDC.
  lightrail_gate $out_dir 0
  puts "lightrail: $top meets 250 MHz out of context; reports in $out_dir"
  return
}

# ------------------------------------------------------------------ board
set top lightrail_zcu102_top
create_project -in_memory -part $part
# The ZCU102's board files (they ship with Vivado) give the PS its DDR, MIO
# and clock settings (the board preset below).
set board_part [lindex [lsort [get_board_parts -quiet *zcu102*]] end]
if {$board_part eq ""} { error "no ZCU102 board part in this Vivado installation (get_board_parts *zcu102*)" }
set_property board_part $board_part [current_project]
set_property ip_repo_paths $ip_repos [current_project]
update_ip_catalog
foreach f $sources { read_verilog -sv $f }
set ip_dir $out_dir/ip
file mkdir $ip_dir
source [file join [file dirname [info script]] gth_ip.tcl]
# The HLS kernels, by top name whatever vendor/library the export used.
foreach kernel {lightrail_sequencer lightrail_clock_sync} {
  set def [lindex [get_ipdefs -filter "NAME == $kernel"] 0]
  if {$def eq ""} { error "HLS kernel $kernel not found in $ip_repos (build the hls targets first)" }
  create_ip -vlnv $def -module_name $kernel -dir $ip_dir
}
generate_target all [get_ips {lightrail_sequencer lightrail_clock_sync}]
synth_ip [get_ips {lightrail_sequencer lightrail_clock_sync}]

# Processing system -> AXI4-Lite -> the wrapper; the wrapper's board ports
# become the design's ports under their own names (zcu102_board.xdc).
create_bd_design lightrail_bd
set ps [create_bd_cell -type ip -vlnv xilinx.com:ip:zynq_ultra_ps_e zynq_ps]
apply_bd_automation -rule xilinx.com:bd_rule:zynq_ultra_ps_e -config {apply_board_preset "1"} $ps
# The PS settings below take effect when the board boots this design's
# BOOT.BIN (from the .xsa, through PetaLinux). Loading only the .bit at run
# time (fpgautil) onto a system booted with another design relies on that
# design enabling M_AXI_HPM0_FPD and pl_clk0 the same way.
set_property -dict [list CONFIG.PSU__USE__M_AXI_GP0 {1} CONFIG.PSU__USE__M_AXI_GP1 {0} \
  CONFIG.PSU__USE__M_AXI_GP2 {0} CONFIG.PSU__FPGA_PL0_ENABLE {1} \
  CONFIG.PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ {100}] $ps
set kernel [create_bd_cell -type module -reference $top lightrail]
set ic [create_bd_cell -type ip -vlnv xilinx.com:ip:smartconnect axi_ic]
set_property -dict [list CONFIG.NUM_SI {1} CONFIG.NUM_MI {1}] $ic
set rst [create_bd_cell -type ip -vlnv xilinx.com:ip:proc_sys_reset pl_reset]
connect_bd_net [get_bd_pins zynq_ps/pl_clk0] [get_bd_pins zynq_ps/maxihpm0_fpd_aclk] \
  [get_bd_pins axi_ic/aclk] [get_bd_pins pl_reset/slowest_sync_clk] [get_bd_pins lightrail/ap_clk]
connect_bd_net [get_bd_pins zynq_ps/pl_resetn0] [get_bd_pins pl_reset/ext_reset_in]
connect_bd_net [get_bd_pins pl_reset/peripheral_aresetn] [get_bd_pins axi_ic/aresetn] \
  [get_bd_pins lightrail/ap_rst_n]
connect_bd_intf_net [get_bd_intf_pins zynq_ps/M_AXI_HPM0_FPD] [get_bd_intf_pins axi_ic/S00_AXI]
connect_bd_intf_net [get_bd_intf_pins axi_ic/M00_AXI] [get_bd_intf_pins lightrail/s_axi_control]
source [file join [file dirname [info script]] bd_ports.tcl]
lightrail_board_ports $kernel
# The whole register map: 2^AXI_ADDR_BITS bytes, from the generated package.
set map_bytes 0
foreach f $sources {
  if {[file tail $f] ne "lightrail_hwdef_pkg.sv"} { continue }
  set fh [open $f r]
  if {[regexp {AXI_ADDR_BITS = 32'd(\d+);} [read $fh] -> bits]} { set map_bytes [format 0x%X [expr {1 << $bits}]] }
  close $fh
}
if {$map_bytes == 0} { error "AXI_ADDR_BITS not found: lightrail_hwdef_pkg.sv must be among the SOURCES" }
assign_bd_address -offset 0xA0000000 -range $map_bytes [get_bd_addr_segs lightrail/s_axi_control/reg0]
validate_bd_design
save_bd_design
generate_target all [get_files lightrail_bd.bd]
set wrapper [make_wrapper -files [get_files lightrail_bd.bd] -top]
read_verilog $wrapper

foreach f $xdcs { read_xdc $f }
synth_design -top lightrail_bd_wrapper -part $part
opt_design
place_design
phys_opt_design
route_design
report_utilization -hierarchical -file $out_dir/utilization.rpt
report_clock_interaction -file $out_dir/clock_interaction.rpt
write_checkpoint -force $out_dir/${top}_routed.dcp
lightrail_timing_met $out_dir "board"
lightrail_gate $out_dir 1
write_bitstream -force $out_dir/${top}.bit
write_hw_platform -fixed -include_bit -force $out_dir/${top}.xsa
puts "lightrail: $out_dir/${top}.bit written; registers at PS address 0xA0000000 (256 KiB)"
