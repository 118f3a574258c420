# v++ link hook (link.cfg: run.impl_1 OPT_DESIGN TCL.PRE): read the board
# constraints into the linked design before optimisation. The XDC files
# find the kernel's cells by hierarchical name, so they hold wherever the
# platform puts the kernel. LIGHTRAIL_XDC lists them (link.cfg sets it from
# CMake: zcu102_board.xdc, then lightrail_timing.xdc).
if {![info exists ::env(LIGHTRAIL_XDC)]} {
  error "LIGHTRAIL_XDC is not set: the board constraints would be missing"
}
foreach xdc $::env(LIGHTRAIL_XDC) {
  if {![file exists $xdc]} { error "board constraint file not found: $xdc" }
  read_xdc $xdc
}
