# Runs one of the project's Tcl scripts (or XDC files) under tclsh with the
# vendor commands replaced by vendor_stubs.tcl, once per case listed for it
# in tcl_scripts.txt (its arguments, environment, and the vendor commands it
# must reach). Fails on a Tcl error, a stand-in's argument check, a missing
# required command, or a script that has no entry in tcl_scripts.txt.
#
#   tclsh run_stubbed.tcl <repo root> <work dir> <part> <hw sources> <board sources> <script>
#
# <hw sources> and <board sources> are ;-separated lists (CMake's); they
# replace @HW_SOURCES@ and @BOARD_SOURCES@ in the arguments, as <root>,
# <work dir> and <part> replace @ROOT@, @OUT@ and @PART@.
if {[llength $argv] != 6} {
  puts stderr "usage: tclsh run_stubbed.tcl <root> <work dir> <part> <hw sources> <board sources> <script>"
  exit 2
}
lassign $argv root out part hw_sources board_sources script
set here [file dirname [file normalize [info script]]]
set rel [string range [file normalize $script] [string length [file normalize $root]/] end]

set table [open [file join $here tcl_scripts.txt]]
set cases {}
foreach line [split [read $table] \n] {
  set line [string trim $line]
  if {$line eq "" || [string index $line 0] eq "#"} continue
  set fields [lmap f [split $line |] { string trim $f }]
  if {[lindex $fields 0] eq $rel} { lappend cases [lrange $fields 1 end] }
}
close $table
if {[llength $cases] == 0} {
  puts stderr "$rel has no entry in tests/board/tcl_scripts.txt: add one (arguments, commands it must reach)"
  exit 1
}

set subst [list @ROOT@ $root @OUT@ $out @PART@ $part \
  @HW_SOURCES@ [join [split $hw_sources ";"] " "] @BOARD_SOURCES@ [join [split $board_sources ";"] " "]]
set failed 0
set n 0
foreach c $cases {
  incr n
  lassign $c args required case_env
  set args [string map $subst $args]
  # Each case in a fresh interpreter, so that no state leaks between cases.
  foreach {k v} [string map $subst $case_env] { set ::env($k) $v }
  set interp [interp create]
  $interp eval [list source [file join $here vendor_stubs.tcl]]
  $interp eval [list set argv $args]
  $interp eval [list set argc [llength $args]]
  $interp eval [list set argv0 $script]
  $interp eval [list set ::env(LIGHTRAIL_STUBBED) 1]
  file mkdir $out
  set code [catch {$interp eval [list source $script]} msg opts]
  set errors [$interp eval {set stub::errors}]
  set called [lmap c [$interp eval {set stub::calls}] { lindex $c 0 }]
  interp delete $interp
  foreach {k v} [string map $subst $case_env] { unset -nocomplain ::env($k) }

  set what "$rel case $n ([string range $args 0 80])"
  if {$code != 0 && [dict get $opts -errorcode] ne {STUB EXIT}} {
    puts "FAIL $what: $msg"
    incr failed
    continue
  }
  if {[llength $errors]} {
    puts "FAIL $what: $errors"
    incr failed
    continue
  }
  set missing {}
  foreach r $required {
    if {$r ni $called} { lappend missing $r }
  }
  if {[llength $missing]} {
    puts "FAIL $what: never called [join $missing {, }]"
    incr failed
    continue
  }
  puts "ok   $what: [llength $called] vendor command(s)"
}
exit [expr {$failed ? 1 : 0}]
