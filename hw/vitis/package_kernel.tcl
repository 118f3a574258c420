# Package lightrail_zcu102_top as the RTL kernel XRT loads (a .xo for v++):
#
#   vivado -mode batch -source package_kernel.tcl -tclargs <part> <out_dir> <xo> <kernel.xml> SOURCES <sv>... IPREPO <dir>...
#
# The kernel is user-managed (no ap_start/ap_done): the host reaches the
# register map through xrt::ip on s_axi_control, whose address block is the
# whole map (kernel.xml: 0x40000 bytes, AXI_ADDR_BITS = 18). Its board ports
# (transceivers, reference clocks, DAC, LEDs) are not kernel arguments:
# v++'s link makes them ports of the design (external_ports.tcl) and
# constrains them (board_xdc.tcl). docs/board.md, "Packaging and link".

set usage "usage: -tclargs <part> <out_dir> <xo> <kernel.xml> SOURCES <sv>... IPREPO <dir>..."
if {[llength $argv] < 7} { error $usage }
lassign $argv part out_dir xo kernel_xml
set rest [lrange $argv 4 end]
if {[lindex $rest 0] ne "SOURCES"} { error $usage }
set ipsep [lsearch -exact $rest IPREPO]
if {$ipsep < 2} { error "no IPREPO (the HLS kernels' IP repositories); $usage" }
set sources [lrange $rest 1 [expr {$ipsep - 1}]]
set ip_repos [lrange $rest [expr {$ipsep + 1}] end]
if {![file exists $kernel_xml]} { error "kernel.xml not found: $kernel_xml" }
# The register range is kernel.xml's (tests/board checks it covers the map).
set fh [open $kernel_xml r]
set kernel_text [read $fh]
close $fh
if {![regexp {name="s_axi_control"[^>]*range="(0x[0-9A-Fa-f]+)"} $kernel_text -> map_range]} {
  error "no s_axi_control range in $kernel_xml"
}
set top lightrail_zcu102_top
set ip_dir $out_dir/ip
file mkdir $ip_dir

create_project -force lightrail_kernel $out_dir/project -part $part
set_property ip_repo_paths $ip_repos [current_project]
update_ip_catalog
add_files -norecurse $sources
set_property top $top [current_fileset]
source [file join [file dirname [info script]] .. vivado gth_ip.tcl]
foreach kernel {lightrail_sequencer lightrail_clock_sync} {
  set def [lindex [get_ipdefs -filter "NAME == $kernel"] 0]
  if {$def eq ""} { error "HLS kernel $kernel not found in $ip_repos (build the hls targets first)" }
  create_ip -vlnv $def -module_name $kernel -dir $ip_dir
}
update_compile_order -fileset sources_1

ipx::package_project -root_dir $out_dir/ip_packaged -vendor lightrail.org -library kernel \
  -taxonomy /KernelIP -import_files -set_current false
ipx::unload_core $out_dir/ip_packaged/component.xml
ipx::edit_ip_in_project -upgrade true -name tmp_edit_project -directory $out_dir/ip_packaged \
  $out_dir/ip_packaged/component.xml
set core [ipx::current_core]
set_property name $top $core
set_property version 1.0 $core
set_property sdx_kernel true $core
set_property sdx_kernel_type rtl $core
set_property vitis_drc {ctrl_protocol user_managed} $core
set_property ipi_drc {ignore_freq_hz true} $core

ipx::associate_bus_interfaces -busif s_axi_control -clock ap_clk $core
# The register map's address block: kernel.xml's range, the whole map.
set map [ipx::add_memory_map s_axi_control $core]
set_property slave_memory_map_ref s_axi_control [ipx::get_bus_interfaces s_axi_control -of_objects $core]
set block [ipx::add_address_block reg0 $map]
set_property range $map_range $block
set_property width 32 $block

set_property xpm_libraries {XPM_CDC XPM_MEMORY} $core
ipx::update_checksums $core
ipx::check_integrity -kernel $core
ipx::save_core $core
close_project -delete

package_xo -force -xo_path $xo -kernel_name $top -ip_directory $out_dir/ip_packaged \
  -kernel_xml $kernel_xml
puts "lightrail: kernel $top packaged in $xo"
