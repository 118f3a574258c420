# Runs a yosys synth_xilinx script, keeps the log, prints the resource counts
# and fails when yosys fails or the netlist holds a latch.
# Inputs: -DYOSYS=<exe> -DSCRIPT=<.ys> -DLOG=<file>
execute_process(
  COMMAND ${YOSYS} -q -l ${LOG} -s ${SCRIPT}
  RESULT_VARIABLE rc
  OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "yosys failed (${rc}); log: ${LOG}\n${err}")
endif()

file(READ ${LOG} log)
# Totals are under "design hierarchy"; a single-module design has only its own block.
string(FIND "${log}" "=== design hierarchy ===" at REVERSE)
if(at EQUAL -1)
  string(FIND "${log}" "Printing statistics." at REVERSE)
endif()
if(at EQUAL -1)
  message(FATAL_ERROR "no statistics in ${LOG}")
endif()
string(SUBSTRING "${log}" ${at} -1 totals)
string(FIND "${totals}" "End of script" end)
if(NOT end EQUAL -1)
  string(SUBSTRING "${totals}" 0 ${end} totals)
endif()
message("${totals}")
message("full log: ${LOG}")

# Any latch in any module fails: the RTL is meant to be fully synchronous.
string(REGEX MATCHALL "[ \t](\\$_DLATCH[A-Z0-9_]*_|\\$dlatch|LDCE|LDPE)[ \t]+[0-9]+" latches "${log}")
if(latches)
  message(FATAL_ERROR "latches inferred: ${latches}")
endif()
