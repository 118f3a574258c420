# cmake -P: writes the board image descriptor of a linked xclbin (the JSON
# `lightrail flash` takes, docs/lab.md), for the build step after `v++ -l`:
#   cmake -DXCLBIN=lightrail.xclbin -DOUT=lightrail.image.json -DTARGET=zcu102
#         -DHASH=<LIGHTRAIL_BUILD_HASH> -DTIME=<LIGHTRAIL_BUILD_TIME>
#         -DMAP=<LIGHTRAIL_REGMAP_VERSION> [-DXCLBINUTIL=xclbinutil]
#         -P cmake/write_image_descriptor.cmake
# The UUID is the one v++ gave the xclbin (xclbinutil --info); HASH and TIME
# must be the generics the RTL was synthesised with (LIGHTRAIL_BUILD_ID_GENERICS),
# so the descriptor says what the board will report.
foreach(v XCLBIN OUT TARGET HASH TIME MAP)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "write_image_descriptor: -D${v}=... is required")
  endif()
endforeach()
if(NOT XCLBINUTIL)
  find_program(XCLBINUTIL xclbinutil)
endif()
if(NOT XCLBINUTIL)
  message(FATAL_ERROR "write_image_descriptor: xclbinutil (XRT) not found; it reads the xclbin's UUID")
endif()
execute_process(COMMAND ${XCLBINUTIL} --info --input ${XCLBIN}
  OUTPUT_VARIABLE info RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "write_image_descriptor: xclbinutil --info --input ${XCLBIN} failed: ${err}")
endif()
# "UUID (xclbin):   8-4-4-4-12"
if(NOT info MATCHES "UUID \\(xclbin\\): *([0-9a-fA-F-]+)")
  message(FATAL_ERROR "write_image_descriptor: no \"UUID (xclbin)\" line in xclbinutil's --info of ${XCLBIN}")
endif()
string(TOLOWER "${CMAKE_MATCH_1}" uuid)
if(NOT uuid MATCHES "^[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+$" OR NOT HASH MATCHES "^[0-9a-f]+$")
  message(FATAL_ERROR "write_image_descriptor: bad UUID \"${uuid}\" or HASH \"${HASH}\"")
endif()
get_filename_component(xclbin_name ${XCLBIN} NAME)
file(WRITE ${OUT} "{
  \"format\": \"lightrail-board-image\",
  \"format_version\": 1,
  \"target\": \"${TARGET}\",
  \"uuid\": \"${uuid}\",
  \"build\": {
    \"source_hash\": \"${HASH}\",
    \"build_time\": ${TIME},
    \"regmap_version\": ${MAP}
  },
  \"xclbin\": \"${xclbin_name}\"
}
")
