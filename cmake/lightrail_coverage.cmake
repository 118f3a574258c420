# Coverage build (docs/coverage.md): LIGHTRAIL_COVERAGE=ON, in a build
# directory of its own (scripts/coverage.sh uses build-cov/). Off by default:
# the counters slow every model and kernel down.
#   LIGHTRAIL_VERILATOR_COVERAGE_ARGS  what each verilate() call adds to its
#     VERILATOR_ARGS: --coverage (Verilator 5.006: line and branch blocks,
#     toggles, user points), empty when the option is off.
#   lightrail_coverage_instrument_kernels()  compiles the HLS kernels' C++
#     (hls/*/*.cpp, wherever a target compiles it) with gcov counters; call it
#     once every directory is added.
# A process writes the RTL counters when LIGHTRAIL_COVERAGE_DIR is set
# (sim/rtl_coverage.hpp); the kernels' .gcda files land beside their objects.
option(LIGHTRAIL_COVERAGE "Build with RTL (Verilator) and kernel (gcov) coverage counters" OFF)

set(LIGHTRAIL_VERILATOR_COVERAGE_ARGS "")
if(LIGHTRAIL_COVERAGE)
  set(LIGHTRAIL_VERILATOR_COVERAGE_ARGS --coverage)
  message(STATUS "LIGHTRAIL_COVERAGE: verilated models count coverage; the HLS kernels are built for gcov")
endif()

function(lightrail_coverage_instrument_kernels)
  if(NOT LIGHTRAIL_COVERAGE)
    return()
  endif()
  file(GLOB kernel_sources ${PROJECT_SOURCE_DIR}/hls/*/*.cpp)
  # The synthesis tops are compiled into test programs too, not only in hls/.
  set(dirs ${PROJECT_SOURCE_DIR}/hls)
  foreach(d tests/hls tests/hls_sync sim)
    if(EXISTS ${PROJECT_SOURCE_DIR}/${d}/CMakeLists.txt)
      list(APPEND dirs ${PROJECT_SOURCE_DIR}/${d})
    endif()
  endforeach()
  # -O0: each counted line and branch is one in the source, not in what the
  # optimiser made of it.
  set_source_files_properties(${kernel_sources} DIRECTORY ${dirs} PROPERTIES COMPILE_OPTIONS "--coverage;-O0")
  foreach(t lightrail_hls_sequencer lightrail_hls_clock_sync)
    target_link_options(${t} INTERFACE --coverage)
  endforeach()
endfunction()
