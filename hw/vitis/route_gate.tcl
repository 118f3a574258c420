# v++ link hook (link.cfg: run.impl_1 ROUTE_DESIGN TCL.POST): the same gates
# as the Vivado build (hw/vivado/gate.tcl) on the routed, linked design, so
# an xclbin is never produced from a design with an unwaived critical
# crossing or methodology warning. Reports go to the run directory.
source [file join [file dirname [info script]] .. vivado gate.tcl]
lightrail_timing_met [pwd] "linked design"
lightrail_gate [pwd] 1
