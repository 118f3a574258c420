# The kernel sources (hls/) are C++14, the standard Vitis HLS documents
# (UG1399: C/C++11/14). Compiles each top and C model with -std=c++14
# -pedantic and fails on any diagnostic except the two C++17 extensions the
# shared generated headers use (nested namespace definitions and inline
# variables in defs/include/lightrail/), which Clang, the HLS front end, and
# GCC accept in C++14 mode (docs/sequencer.md, "Toolchain").
#   cmake -DCXX=... -DROOT=... -P cxx14_check.cmake
set(sources hls/sequencer/sequencer.cpp hls/sequencer/sequencer_top.cpp hls/clock_sync/clock_sync.cpp
            hls/clock_sync/clock_sync_top.cpp
            # the test benches Vitis compiles for C simulation and co-simulation
            tests/hls/sequencer_top_tb.cpp tests/hls/test_image.cpp tests/hls_sync/clock_sync_top_tb.cpp)
set(bad "")
foreach(src ${sources})
  execute_process(COMMAND ${CXX} -std=c++14 -pedantic -Wall -Wextra -Wno-unknown-pragmas -fsyntax-only
                          -I${ROOT}/hls -I${ROOT}/defs/include -I${ROOT}/tests/hls ${ROOT}/${src}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${src} does not compile as C++14:\n${err}")
  endif()
  string(REPLACE "\n" ";" lines "${err}")
  foreach(line ${lines})
    if(line MATCHES "(warning|error):" AND NOT line MATCHES "defs/include/lightrail/[a-z_]+\\.hpp:.*\\[-Wc\\+\\+17-extensions\\]")
      string(APPEND bad "${src}: ${line}\n")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "the kernels use more than C++14 (beyond the shared headers' two extensions):\n${bad}")
endif()
message("hls/ kernels compile as C++14 (${sources})")
