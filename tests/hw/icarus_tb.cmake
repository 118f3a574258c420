# Compiles the Icarus bench and runs it; passes when the bench ends with
# "TB_DONE cycles=<CYCLES> errors=0".
# Inputs: -DIVERILOG -DVVP -DFILELIST -DTOP -DOUT -DCYCLES
execute_process(
  COMMAND ${IVERILOG} -g2012 -s ${TOP} -o ${OUT} -c ${FILELIST}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "iverilog failed (${rc}):\n${out}")
endif()

execute_process(
  COMMAND ${VVP} -n ${OUT} +cycles=${CYCLES}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vvp failed (${rc})")
endif()
if(NOT out MATCHES "TB_DONE cycles=${CYCLES} errors=0")
  message(FATAL_ERROR "bench reported errors (or did not finish)")
endif()
