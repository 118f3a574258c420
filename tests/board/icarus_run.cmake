# Compiles one Icarus bench and runs it; passes when it ends with
# "TB_DONE errors=0". Inputs: -DIVERILOG -DVVP -DTOP -DOUT -DSOURCES (;-list)
execute_process(
  COMMAND ${IVERILOG} -g2012 -s ${TOP} -o ${OUT} ${SOURCES}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "iverilog failed (${rc}):\n${out}")
endif()
execute_process(COMMAND ${VVP} -n ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "TB_DONE errors=0")
  message(FATAL_ERROR "bench ${TOP} reported errors (or did not finish)")
endif()
