# Stand-ins for the vendor Tcl commands (Vivado, Vitis HLS, v++'s packaging)
# so that the project's Tcl scripts and XDC files can run under a plain
# tclsh (tests/board/run_stubbed.tcl). Each stand-in checks the shape of its
# arguments (known options, option values present, the number of positional
# arguments, files that must exist, numbers that must be numbers) and
# records the call; it does nothing else. What a command returns is an
# opaque object name, or for queries a plausible value (a met slack, no
# violations) so that the scripts' own checks take their passing branch.
# Option lists follow the tools' reference guides (UG835 Vivado Tcl
# commands, UG1399 Vitis HLS commands); only options the project uses or
# is likely to use are accepted, so a misspelt option fails.

namespace eval stub {
  variable calls {}
  variable errors {}
  variable serial 0
  variable part_re {^x[a-z]{1,3}[0-9a-z]+-[a-z0-9]+-[0-9a-z]+(-[a-z0-9]+)?$}
}

proc stub::fail {msg} {
  variable errors
  lappend errors $msg
  return -code error "stub: $msg"
}

proc stub::object {cmd} {
  variable serial
  incr serial
  return "${cmd}_obj$serial"
}

proc stub::is_number {x} { return [string is double -strict $x] }

# Parse args of $cmd against value options, flags and a positional count.
# Returns a dict: options -> value (flags -> 1), and "" -> positional list.
proc stub::parse {cmd opts flags min max arglist} {
  set result [dict create "" {}]
  set pos {}
  for {set i 0} {$i < [llength $arglist]} {incr i} {
    set a [lindex $arglist $i]
    if {[string match -* $a] && ![stub::is_number $a] && $a ne "-"} {
      if {$a in $opts} {
        if {$i + 1 >= [llength $arglist]} { stub::fail "$cmd: option $a needs a value" }
        incr i
        dict set result $a [lindex $arglist $i]
      } elseif {$a in $flags} {
        dict set result $a 1
      } else {
        stub::fail "$cmd: unknown option $a"
      }
    } else {
      lappend pos $a
    }
  }
  if {[llength $pos] < $min || ($max >= 0 && [llength $pos] > $max)} {
    stub::fail "$cmd: [llength $pos] positional argument(s) ($pos), expected $min..[expr {$max < 0 ? "any" : $max}]"
  }
  dict set result "" $pos
  return $result
}

# define name {value options} {flags} min max ?check-body? ?return-body?
proc stub::define {name opts flags min max {check {}} {ret {return [stub::object %NAME%]}}} {
  set ret [string map [list %NAME% [namespace tail $name]] $ret]
  proc ::$name args [string map [list %N $name %O [list $opts] %F [list $flags] %MIN $min %MAX $max %CHECK $check %RET $ret] {
    set a [stub::parse %N %O %F %MIN %MAX $args]
    set pos [dict get $a ""]
    lappend stub::calls [list %N $args]
    %CHECK
    %RET
  }]
}

proc stub::file_args {cmd files} {
  foreach f $files {
    foreach g $f {
      if {![file exists $g]} { stub::fail "$cmd: file not found: $g" }
    }
  }
}

proc stub::need {cmd a opt} {
  if {![dict exists $a $opt]} { stub::fail "$cmd: $opt is required" }
}

proc stub::check_part {cmd part} {
  if {![regexp $stub::part_re $part]} { stub::fail "$cmd: '$part' is not an AMD part name" }
}

# ------------------------------------------------------------------ queries
foreach q {get_ports get_pins get_cells get_nets get_clocks get_ips get_files get_bd_pins
           get_bd_intf_pins get_bd_cells get_bd_addr_segs get_ipdefs} {
  stub::define $q {-filter -of_objects -regexp -include_generated_clocks} \
    {-hierarchical -hier -quiet -nocase -include_generated_clocks -all} 0 -1
}
# -include_generated_clocks is a flag of get_clocks; listed in both to keep one table.
stub::define all_outputs {} {} 0 0
stub::define all_inputs {} {} 0 0
stub::define all_clocks {} {} 0 0
stub::define current_design {} {-quiet} 0 1
stub::define current_project {} {-quiet} 0 1
stub::define current_fileset {} {-simset -constrset} 0 1
stub::define get_property {-object} {-quiet -min -max} 1 2 {} {
  switch -- [lindex $pos 0] {
    SLACK { return 0.125 }
    PERIOD { return 10.000 }
    DIR { return O }
    LEFT { return 15 }
    RIGHT { return 0 }
    NAME { return [lindex $pos 1] }
    default { return 0 }
  }
}
stub::define get_timing_paths {-delay_type -max_paths -from -to -through -nworst} {-setup -hold} 0 0
stub::define get_methodology_violations {-filter} {-quiet} 0 0 {} {return {}}

# ------------------------------------------------------------------ properties and constraints
stub::define set_property {-dict -objects} {-quiet} 1 3 {
  if {[dict exists $a -dict]} {
    if {[llength [dict get $a -dict]] % 2 != 0} { stub::fail "set_property: -dict needs name/value pairs" }
    if {[llength $pos] != 1} { stub::fail "set_property -dict: one object list expected" }
  } elseif {[llength $pos] != 3} {
    stub::fail "set_property: expected <name> <value> <objects>, got $pos"
  }
} {return {}}
stub::define create_clock {-period -name -waveform} {-add} 0 1 {
  stub::need create_clock $a -period
  if {![stub::is_number [dict get $a -period]] || [dict get $a -period] <= 0} {
    stub::fail "create_clock: -period [dict get $a -period] is not a positive number"
  }
}
stub::define create_generated_clock {-name -source -divide_by -multiply_by -master_clock -edges} \
  {-add -combinational -invert} 1 1
stub::define set_clock_groups {-name -group} {-asynchronous -physically_exclusive -logically_exclusive} 0 0 {
  if {[llength [lsearch -all $args -group]] < 2} { stub::fail "set_clock_groups: needs two -group lists" }
} {return {}}
stub::define set_false_path {-from -to -through -rise_from -fall_from} {-setup -hold -quiet} 0 0 {
  if {![dict exists $a -from] && ![dict exists $a -to] && ![dict exists $a -through]} {
    stub::fail "set_false_path: no -from, -to or -through"
  }
} {return {}}
stub::define set_max_delay {-from -to -through} {-datapath_only -quiet} 1 1 {
  if {![stub::is_number [lindex $pos 0]]} { stub::fail "set_max_delay: '[lindex $pos 0]' is not a number" }
  if {[dict exists $a -datapath_only] && ![dict exists $a -from]} {
    stub::fail "set_max_delay -datapath_only needs -from"
  }
} {return {}}
foreach io {set_input_delay set_output_delay} {
  stub::define $io {-clock -reference_pin} {-max -min -add_delay -clock_fall} 2 2 {
    if {![stub::is_number [lindex $pos 0]]} { stub::fail "$io: '[lindex $pos 0]' is not a number" }
  } {return {}}
}
stub::define create_waiver {-type -id -from -to -description -user} {} 0 0

# ------------------------------------------------------------------ Vivado flow
stub::define read_verilog {-library} {-sv} 1 -1 { stub::file_args read_verilog $pos } {return {}}
# read_xdc also runs the file under these stand-ins: an XDC is Tcl.
stub::define read_xdc {-ref -cells -mode -unmanaged} {-quiet} 1 1 {
  stub::file_args read_xdc $pos
  if {[dict exists $a -mode] && [dict get $a -mode] ni {default out_of_context}} {
    stub::fail "read_xdc: -mode [dict get $a -mode]"
  }
  uplevel #0 [list source [lindex $pos 0]]
} {return {}}
stub::define synth_design {-top -part -mode -directive -flatten_hierarchy} {-rtl -quiet} 0 0 {
  stub::need synth_design $a -top
  stub::need synth_design $a -part
  stub::check_part synth_design [dict get $a -part]
}
foreach s {opt_design place_design phys_opt_design route_design} {
  stub::define $s {-directive} {-quiet} 0 0
}
foreach r {report_utilization report_timing_summary report_clock_interaction report_drc} {
  stub::define $r {-file -name -max_paths -delay_type} {-hierarchical -return_string -quiet} 0 0
}
stub::define report_cdc {-file -from -to -severity} {-details -summary -return_string -no_header -all_checks_per_endpoint} 0 0 {
  if {[dict exists $a -severity] && [dict get $a -severity] ni {Critical Warning Info}} {
    stub::fail "report_cdc: -severity [dict get $a -severity]"
  }
} {return {}}
stub::define report_methodology {-file -checks -name} {-return_string -quiet} 0 0 {} {return {}}
stub::define write_checkpoint {} {-force -quiet} 1 1 {} {return {}}
stub::define write_bitstream {} {-force -bin_file -quiet} 1 1 {
  if {![string match *.bit [lindex $pos 0]]} { stub::fail "write_bitstream: '[lindex $pos 0]' is not a .bit" }
} {return {}}
stub::define write_hw_platform {} {-fixed -include_bit -force} 1 1 {} {return {}}
stub::define create_project {-part -dir} {-in_memory -force} 0 2 {
  if {[dict exists $a -part]} { stub::check_part create_project [dict get $a -part] }
}
stub::define update_ip_catalog {} {-rebuild -quiet} 0 0 {} {return {}}
stub::define create_ip {-name -vendor -library -version -vlnv -module_name -dir} {} 0 0 {
  stub::need create_ip $a -module_name
  if {![dict exists $a -vlnv] && ![dict exists $a -name]} { stub::fail "create_ip: -name or -vlnv needed" }
}
stub::define generate_target {} {-force -quiet} 2 2 {} {return {}}
stub::define synth_ip {} {-force -quiet} 1 1 {} {return {}}
stub::define add_files {-fileset -cflags -csimflags} {-norecurse -tb -quiet -blackbox} 1 -1 {
  stub::file_args add_files $pos
} {return {}}
stub::define update_compile_order {-fileset} {} 0 0 {} {return {}}
stub::define close_project {} {-delete} 0 0 {} {return {}}

# ------------------------------------------------------------------ block design
stub::define create_bd_design {} {} 1 1
stub::define create_bd_cell {-type -vlnv -reference} {} 1 1 {
  stub::need create_bd_cell $a -type
  if {[dict get $a -type] eq "ip" && ![dict exists $a -vlnv]} { stub::fail "create_bd_cell -type ip: -vlnv needed" }
  if {[dict get $a -type] eq "module" && ![dict exists $a -reference]} { stub::fail "create_bd_cell -type module: -reference needed" }
}
stub::define get_board_parts {-filter} {-quiet -latest_file_version} 0 1 {} {return xilinx.com:zcu102:part0:3.4}
stub::define apply_bd_automation {-rule -config} {} 1 1 {
  stub::need apply_bd_automation $a -rule
} {return {}}
stub::define connect_bd_net {} {} 2 -1 {} {return {}}
stub::define connect_bd_intf_net {} {} 2 2 {} {return {}}
stub::define make_bd_pins_external {} {} 1 1 {} {return {}}
stub::define create_bd_port {-dir -from -to -type -freq_hz} {} 1 1 {
  stub::need create_bd_port $a -dir
  if {[dict get $a -dir] ni {I O IO}} { stub::fail "create_bd_port: -dir [dict get $a -dir]" }
  if {[dict exists $a -from] != [dict exists $a -to]} { stub::fail "create_bd_port: -from and -to go together" }
}
stub::define get_bd_ports {-filter -of_objects} {-quiet} 0 -1
stub::define assign_bd_address {-offset -range -target_address_space} {} 0 1 {} {return {}}
stub::define validate_bd_design {} {-force} 0 0 {} {return {}}
stub::define save_bd_design {} {} 0 0 {} {return {}}
# make_wrapper writes a file the script then reads: make an empty one here.
stub::define make_wrapper {-files} {-top -import} 0 0 {} {
  set f [file join [pwd] stub_bd_wrapper.v]
  close [open $f w]
  return $f
}

# ------------------------------------------------------------------ IP packager and v++ packaging
namespace eval ipx {}
# -set_current takes a value in Vivado (true/false): accept it as one.
proc ::ipx::package_project args {
  set clean {}
  for {set i 0} {$i < [llength $args]} {incr i} {
    if {[lindex $args $i] eq "-set_current"} { incr i; continue }
    lappend clean [lindex $args $i]
  }
  set a [stub::parse ipx::package_project {-root_dir -vendor -library -taxonomy -module} {-import_files -generated_files} 0 0 $clean]
  lappend stub::calls [list ipx::package_project $args]
  stub::need ipx::package_project $a -root_dir
}
stub::define ipx::unload_core {} {} 1 1 {} {return {}}
stub::define ipx::edit_ip_in_project {-name -directory -upgrade} {} 1 1 {} {return {}}
stub::define ipx::current_core {} {} 0 0
stub::define ipx::associate_bus_interfaces {-busif -clock -reset} {-remove} 1 1 {
  stub::need ipx::associate_bus_interfaces $a -busif
} {return {}}
stub::define ipx::add_memory_map {} {} 2 2
stub::define ipx::get_bus_interfaces {-of_objects} {} 0 1
stub::define ipx::add_address_block {} {} 2 2
stub::define ipx::update_checksums {} {} 1 1 {} {return {}}
stub::define ipx::check_integrity {} {-kernel -quiet} 1 1 {} {return {}}
stub::define ipx::save_core {} {} 1 1 {} {return {}}
stub::define package_xo {-xo_path -kernel_name -ip_directory -kernel_xml -ctrl_protocol -kernel_files} {-force} 0 0 {
  stub::need package_xo $a -xo_path
  stub::need package_xo $a -kernel_name
  if {![dict exists $a -ip_directory] && ![dict exists $a -kernel_files]} {
    stub::fail "package_xo: -ip_directory or -kernel_files needed"
  }
  if {[dict exists $a -kernel_xml]} { stub::file_args package_xo [list [dict get $a -kernel_xml]] }
  if {![string match *.xo [dict get $a -xo_path]]} { stub::fail "package_xo: -xo_path must name a .xo" }
} {return {}}

# ------------------------------------------------------------------ Vitis HLS
stub::define open_project {} {-reset} 1 1 {set ::stub::hls_project [lindex $pos 0]} {return {}}
stub::define set_top {} {} 1 1 {
  if {[string match *::* [lindex $pos 0]]} { stub::fail "set_top: '[lindex $pos 0]' is namespace-qualified; HLS wants the plain function name" }
} {return {}}
stub::define open_solution {-flow_target} {-reset} 1 1 {
  if {[dict exists $a -flow_target] && [dict get $a -flow_target] ni {vivado vitis}} {
    stub::fail "open_solution: -flow_target [dict get $a -flow_target]"
  }
} {return {}}
stub::define set_part {} {-tool} 1 1 { stub::check_part set_part [lindex $pos 0] } {return {}}
stub::define set_clock_uncertainty {} {} 1 2 {
  if {![regexp {^[0-9.]+%?$} [lindex $pos 0]]} { stub::fail "set_clock_uncertainty: '[lindex $pos 0]'" }
} {return {}}
stub::define config_rtl {-reset -reset_level -module_prefix} {-reset_async} 0 0 {
  if {[dict exists $a -reset] && [dict get $a -reset] ni {none control state all}} {
    stub::fail "config_rtl: -reset [dict get $a -reset]"
  }
} {return {}}
stub::define config_interface {-m_axi_addr64 -default_slave_interface -m_axi_latency} {-clock_enable -register_io} 0 0 {} {return {}}
stub::define config_compile {-pipeline_loops -name_max_length -pipeline_style} {-pragma_strict_mode} 0 0 {} {return {}}
stub::define config_export {-format -rtl -output -vendor -library -version -ipname -display_name} {-vivado_clock} 0 0 {} {return {}}
stub::define config_dataflow {-default_channel -fifo_depth} {} 0 0 {} {return {}}
stub::define config_schedule {-effort} {-enable_dsp_full_reg -relax_ii_for_timing} 0 0 {} {return {}}
stub::define config_cosim {-tool -trace_level -wave_debug} {-enable_tasks_with_m_axi} 0 0 {} {return {}}
stub::define csim_design {-argv -compiler -ldflags -mflags} {-clean -O -setup} 0 0 {} {return {}}
# Vitis HLS writes its schedule to csynth.xml, which run_hls.tcl checks: a
# kernel at II 1 with the latency asked for (stub::hls_latency, default 1),
# or the schedule in the environment's LIGHTRAIL_STUB_HLS_SCHEDULE
# ("best worst interval" cycles: the servo's is "0 N N+1").
set ::stub::hls_latency 1
stub::define csynth_design {} {-synthesis_check} 0 0 {
  if {![info exists ::stub::hls_project]} { stub::fail "csynth_design before open_project" }
  lassign [list $::stub::hls_latency $::stub::hls_latency 1] best worst ii
  if {[info exists ::env(LIGHTRAIL_STUB_HLS_SCHEDULE)]} { lassign $::env(LIGHTRAIL_STUB_HLS_SCHEDULE) best worst ii }
  set dir $::stub::hls_project/solution1/syn/report
  file mkdir $dir
  set fh [open $dir/csynth.xml w]
  puts $fh "<profile><PerformanceEstimates><SummaryOfOverallLatency><Best-caseLatency>$best</Best-caseLatency>"
  puts $fh "<Worst-caseLatency>$worst</Worst-caseLatency>"
  puts $fh "<Interval-min>1</Interval-min><Interval-max>$ii</Interval-max></SummaryOfOverallLatency></PerformanceEstimates></profile>"
  close $fh
} {return {}}
stub::define cosim_design {-argv -tool -trace_level -rtl -ldflags -compiled_library_dir} {-O -setup -wave_debug -enable_dataflow_profiling -disable_deadlock_detection} 0 0 {} {return {}}
stub::define export_design {-format -rtl -output -vendor -library -version -ipname -display_name -flow} {-evaluate} 0 0 {
  if {[dict exists $a -format] && [dict get $a -format] ni {ip_catalog xo syn_dcp sysgen}} {
    stub::fail "export_design: -format [dict get $a -format]"
  }
} {return {}}
stub::define close_solution {} {} 0 0 {} {return {}}
# exit ends the script: the runner tells it from an error.
proc ::exit args {
  lappend stub::calls [list exit $args]
  return -code error -errorcode {STUB EXIT} "exit"
}
