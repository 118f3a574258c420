# The checks that gate every Vivado build of the board (sourced by
# build.tcl, and by hw/vitis/route_gate.tcl inside v++'s link): routed timing
# met, no critical unwaived crossing in report_cdc, and (whole designs) no
# critical warning in report_methodology. Waivers, when any are needed, are
# create_waiver lines in the XDC with the reason next to them.

# report_cdc and report_methodology gate the build: count what is critical.
proc lightrail_gate {out_dir check_methodology} {
  report_cdc -details -file $out_dir/cdc.rpt
  set cdc [report_cdc -severity Critical -no_header -return_string]
  set critical 0
  foreach {all id count} [regexp -all -inline {Critical\s+(CDC-\d+)\s+(\d+)} $cdc] {
    incr critical $count
  }
  if {$critical > 0} {
    error "report_cdc: $critical critical unwaived crossing(s): see $out_dir/cdc.rpt"
  }
  if {$check_methodology} {
    report_methodology -file $out_dir/methodology.rpt
    set crit [get_methodology_violations -filter {SEVERITY == "Critical Warning"}]
    if {[llength $crit] > 0} {
      error "report_methodology: [llength $crit] critical warning(s): see $out_dir/methodology.rpt"
    }
  }
}

proc lightrail_timing_met {out_dir what} {
  report_timing_summary -file $out_dir/timing_summary.rpt
  set setup [get_timing_paths -delay_type max -max_paths 1]
  set hold [get_timing_paths -delay_type min -max_paths 1]
  if {[get_property SLACK $setup] < 0 || [get_property SLACK $hold] < 0} {
    error "timing not met ($what): see $out_dir/timing_summary.rpt"
  }
}

