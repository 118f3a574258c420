# Runs hls/run_hls.tcl under plain tclsh with the Vitis HLS commands stubbed
# (no vendor tools here): syntax and argument errors fail, the calls the
# script makes are checked, and a synthesis report with the wrong II or
# latency must stop it.
#   tclsh run_hls_stub.tcl <run_hls.tcl> <work dir> <report II> <report latency> <expect: ok|fail> <args...>
# <report latency> is one number (best = worst case) or best/worst.
lassign $argv script work report_ii report_lat expect
set report_best $report_lat
set report_worst $report_lat
regexp {^(\d+)/(\d+)$} $report_lat -> report_best report_worst
set script_args [lrange $argv 5 end]
file mkdir $work
cd $work

set calls {}
set project ""
foreach cmd {set_top add_files open_solution set_part create_clock set_clock_uncertainty config_rtl csim_design
             cosim_design export_design} {
  proc $cmd {args} [format {lappend ::calls [list %s {*}$args]} $cmd]
}
proc open_project {args} {
  lappend ::calls [list open_project {*}$args]
  set ::project [lindex $args end]
}
# csynth_design leaves the report the script reads.
proc csynth_design {args} {
  lappend ::calls csynth_design
  file mkdir $::project/solution1/syn/report
  set fh [open $::project/solution1/syn/report/csynth.xml w]
  puts $fh "<profile><PerformanceEstimates><SummaryOfOverallLatency>"
  puts $fh "<Best-caseLatency>$::report_best</Best-caseLatency><Worst-caseLatency>$::report_worst</Worst-caseLatency>"
  puts $fh "<Interval-min>$::report_ii</Interval-min><Interval-max>$::report_ii</Interval-max>"
  puts $fh "</SummaryOfOverallLatency></PerformanceEstimates></profile>"
  close $fh
}
rename exit real_exit
proc exit {args} {}

set argv $script_args
set argc [llength $argv]
set failed [catch {source $script} err]
if {$expect eq "fail"} {
  if {!$failed} {
    puts "FAIL: run_hls.tcl accepted a report with II=$report_ii, latency $report_lat"
    real_exit 1
  }
  puts "PASS: refused as expected: $err"
  real_exit 0
}
if {$failed} {
  puts "FAIL: run_hls.tcl stopped: $err"
  real_exit 1
}
proc expect_call {pattern} {
  foreach c $::calls {
    if {[string match $pattern $c]} { return }
  }
  puts "FAIL: no call matching '$pattern' in:\n[join $::calls \n]"
  real_exit 1
}
lassign $script_args root part period uncertainty kernel top latency
expect_call "set_top $top"
expect_call "set_part $part"
expect_call "create_clock -period $period *"
expect_call "set_clock_uncertainty $uncertainty"
expect_call "config_rtl -reset all -reset_level low"
expect_call "add_files $root/hls/$kernel/$kernel.cpp *"
expect_call "add_files $root/hls/$kernel/${kernel}_top.cpp *"
expect_call "add_files -tb *"
expect_call csim_design
expect_call csynth_design
if {[string match update:* $latency]} {
  # A non-pipelined ap_ctrl_none top: Vitis cannot co-simulate it.
  foreach c $::calls {
    if {[string match cosim_design* $c]} {
      puts "FAIL: cosim_design called for $top, which Vitis cannot co-simulate"
      real_exit 1
    }
  }
} else {
  expect_call "cosim_design *"
}
expect_call "export_design *"
puts "PASS: [llength $::calls] HLS commands, as expected"
real_exit 0
