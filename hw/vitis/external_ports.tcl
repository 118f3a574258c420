# v++ link hook (link.cfg: compiler.userPostSysLinkOverlayTcl), run in the
# platform's block design after the kernel is linked: every pin of the
# lightrail kernel that is not its XRT interface (ap_clk, ap_rst_n,
# s_axi_control) becomes a port of the design under its own name, the name
# constraints/zcu102_board.xdc places. Embedded platforms expose no GT or
# board I/O to kernels, so this is how the board's pins reach the kernel.
set cells [get_bd_cells -hierarchical -filter {VLNV =~ "lightrail.org:kernel:lightrail_zcu102_top:*"}]
if {[llength $cells] != 1} {
  error "expected one lightrail_zcu102_top kernel in the design, found [llength $cells]"
}
source [file join [file dirname [info script]] .. vivado bd_ports.tcl]
lightrail_board_ports $cells
