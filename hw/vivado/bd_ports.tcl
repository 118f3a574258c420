# Make every board pin of a block-design cell a port of the design under the
# pin's own name, the name the board XDC places (make_bd_pins_external would
# append "_0"). Pins of the XRT interface (ap_clk, ap_rst_n, s_axi_control)
# are left for the platform or the caller to connect. Sourced by build.tcl
# (board) and hw/vitis/external_ports.tcl.
proc lightrail_board_ports {cell} {
  set pins [get_bd_pins -of_objects $cell -filter {INTF == FALSE && NAME !~ ap_* && NAME !~ s_axi_control_*}]
  if {[llength $pins] == 0} { error "lightrail_board_ports: $cell has no board pins" }
  foreach pin $pins {
    set name [get_property NAME $pin]
    set dir [get_property DIR $pin]
    set left [get_property LEFT $pin]
    set right [get_property RIGHT $pin]
    if {$left eq ""} {
      set port [create_bd_port -dir $dir $name]
    } else {
      set port [create_bd_port -dir $dir -from $left -to $right $name]
    }
    connect_bd_net $pin $port
  }
}
