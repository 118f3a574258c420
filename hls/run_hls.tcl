# One lightrail kernel through Vitis HLS, classic Tcl flow (the fallback to
# the unified flow's hls/<kernel>/hls_config.cfg.in; both say the same):
#   vitis_hls -f run_hls.tcl -tclargs <repo root> <part> <period ns> \
#             <uncertainty> <kernel> <top> <latency|-> <cflags> <tb files>
# <kernel> is the folder under hls/ holding <kernel>.cpp and <kernel>_top.cpp,
# <top> the plain top function name. <latency> is what the schedule must be:
#   N         a pipelined free-running kernel (the sequencer): II=1 and
#             latency N
#   update:N  a free-running kernel that is not pipelined (the servo): its
#             idle path takes one cycle (best-case latency 0, so it reads its
#             inputs every cycle between updates) and its update exactly N
#             (worst-case latency N)
#   -         not checked
# C simulation, C synthesis (failing on another schedule), C/RTL
# co-simulation and IP export run in that order; any failure stops the
# script with an error. Vitis co-simulates an ap_ctrl_none top only if it is
# pipelined at II=1 or combinational (UG1399, "Co-simulation Requirements
# for Interface Synthesis"), so an update:N kernel is not co-simulated.
# The CMake targets hls-<kernel> run this when vitis_hls is on PATH and v++
# is not.
if {[llength $argv] < 8} {
  error "usage: run_hls.tcl <root> <part> <period_ns> <uncertainty> <kernel> <top> <latency|-> <cflags> ?tb...?"
}
lassign $argv root part period uncertainty kernel top latency cflags
set tb_files [lrange $argv 8 end]

open_project -reset lightrail_${kernel}
set_top $top
add_files ${root}/hls/${kernel}/${kernel}.cpp -cflags $cflags
add_files ${root}/hls/${kernel}/${kernel}_top.cpp -cflags $cflags
foreach tb $tb_files {
  add_files -tb $tb -cflags "$cflags -I${root}/tests/hls -I${root}/tests/hls_sync"
}

open_solution -reset solution1 -flow_target vivado
set_part $part
create_clock -period $period -name ap_clk
set_clock_uncertainty $uncertainty
# ap_rst_n (the board reset, active low) resets every register of the kernel.
config_rtl -reset all -reset_level low

if {[llength $tb_files] > 0} {
  csim_design
}
csynth_design

# The schedule the RTL around the kernel relies on: one call per cycle and,
# for a pipelined kernel, exactly the latency hw/ compensates; for the
# servo, an idle path of one cycle and exactly the update latency hw/ and
# docs/hw-clock-sync.md describe.
set report lightrail_${kernel}/solution1/syn/report/csynth.xml
set fh [open $report r]
set xml [read $fh]
close $fh
set update_only [regexp {^update:(\d+)$} $latency -> update_latency]
if {$latency ne "-"} {
  if {![regexp {<Worst-caseLatency>\s*(\d+)\s*</Worst-caseLatency>} $xml -> lat]} {
    error "no <Worst-caseLatency> in $report"
  }
  if {$update_only} {
    if {![regexp {<Best-caseLatency>\s*(\d+)\s*</Best-caseLatency>} $xml -> best]} {
      error "no <Best-caseLatency> in $report"
    }
    if {$best != 0} {
      error "$top: idle path latency $best cycles, not 0: the kernel would not read its inputs every cycle"
    }
    if {$lat != $update_latency} {
      error "$top: update latency $lat cycles, not $update_latency (SYNC_KERNEL_LATENCY)"
    }
    puts "lightrail: $top schedules its idle path in one cycle and its update in $lat as required"
  } else {
    if {![regexp {<Interval-max>\s*(\d+)\s*</Interval-max>} $xml -> ii]} {
      error "no <Interval-max> in $report"
    }
    if {$ii != 1} {
      error "$top: initiation interval $ii, not 1: the kernel would not take one call per cycle"
    }
    if {$lat != $latency} {
      error "$top: latency $lat cycles, not $latency (SEQ_KERNEL_LATENCY, which hw/ compensates)"
    }
    puts "lightrail: $top schedules at II=1, latency $lat cycles as required"
  }
}

if {[llength $tb_files] > 0 && !$update_only} {
  cosim_design -tool xsim -rtl verilog
} elseif {$update_only} {
  puts "lightrail: $top not co-simulated: Vitis co-simulates ap_ctrl_none only at II=1 (UG1399); C simulation ran"
}
export_design -format ip_catalog -rtl verilog
exit
