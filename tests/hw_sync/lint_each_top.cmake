# Run one checker over the clock-distribution sources once per top module, so
# every module is clean on its own (not only as instantiated by another).
# -DTOOL=verilator|iverilog -DEXE=<path> -DSOURCES=a;b;... -DTOPS=x;y;... [-DOUT=<vvp>]
set(_failed "")
foreach(top IN LISTS TOPS)
  if(TOOL STREQUAL "verilator")
    execute_process(COMMAND ${EXE} --lint-only -Wall --top-module ${top} ${SOURCES}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  else()
    execute_process(COMMAND ${EXE} -g2012 -s ${top} -o ${OUT} ${SOURCES}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  endif()
  # Icarus reports some problems as warnings with exit code 0: treat any output as a failure.
  if(NOT rc EQUAL 0 OR NOT out STREQUAL "")
    message("${TOOL} ${top}: FAILED\n${out}")
    list(APPEND _failed ${top})
  else()
    message("${TOOL} ${top}: clean")
  endif()
endforeach()
if(_failed)
  message(FATAL_ERROR "${TOOL} not clean for: ${_failed}")
endif()
