# Coverage build (docs/coverage.md): LIGHTRAIL_COVERAGE=ON, in a build
# directory of its own (scripts/coverage.sh uses build-cov/). Off by default:
# the counters slow every model and kernel down.
#   LIGHTRAIL_VERILATOR_COVERAGE_ARGS  what each verilate() call adds to its
#     VERILATOR_ARGS: --coverage (Verilator 5.006: line and branch blocks,
#     toggles, user points) and the ports-only toggle file, empty when the
#     option is off.
#   lightrail_coverage_instrument_kernels()  builds gcov-counted copies of
#     the HLS kernels for their C-simulation tests (tests/hls, tests/hls_sync);
#     call it once every directory is added.
# A process writes the RTL counters when LIGHTRAIL_COVERAGE_DIR is set
# (sim/rtl_coverage.hpp); the kernels' .gcda files land beside their objects.
option(LIGHTRAIL_COVERAGE "Build with RTL (Verilator) and kernel (gcov) coverage counters" OFF)
# Toggle points on module ports only (ports), as OpenTitan's sign-off counts
# them, or on every signal (all): Verilator checks each toggle bit at every
# evaluation, and the internal signals' made the co-simulation about twice as
# slow again (docs/coverage.md, "Speed").
set(LIGHTRAIL_COVERAGE_TOGGLE ports CACHE STRING "Toggle coverage on module ports only (ports) or every signal (all)")
set_property(CACHE LIGHTRAIL_COVERAGE_TOGGLE PROPERTY STRINGS ports all)

set(LIGHTRAIL_VERILATOR_COVERAGE_ARGS "")
if(LIGHTRAIL_COVERAGE)
  set(LIGHTRAIL_VERILATOR_COVERAGE_ARGS --coverage)
  if(LIGHTRAIL_COVERAGE_TOGGLE STREQUAL "ports")
    # A Verilator configuration file turning coverage off on the lines that
    # declare internal signals (tests/coverage/toggle_ports_only.py).
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
    file(GLOB _cov_hw_sources ${PROJECT_SOURCE_DIR}/hw/*.sv)
    set(_cov_vlt ${PROJECT_BINARY_DIR}/coverage_toggle_ports_only.vlt)
    execute_process(COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/coverage/toggle_ports_only.py
                            ${_cov_vlt}.new ${_cov_hw_sources}
                    OUTPUT_QUIET RESULT_VARIABLE _cov_rc)
    if(NOT _cov_rc EQUAL 0)
      message(FATAL_ERROR "tests/coverage/toggle_ports_only.py failed (${_cov_rc})")
    endif()
    # Every model depends on the file: rewritten only when it changes.
    file(COPY_FILE ${_cov_vlt}.new ${_cov_vlt} ONLY_IF_DIFFERENT)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_cov_hw_sources}
                                                                   ${PROJECT_SOURCE_DIR}/tests/coverage/toggle_ports_only.py)
    list(APPEND LIGHTRAIL_VERILATOR_COVERAGE_ARGS ${_cov_vlt})
  elseif(NOT LIGHTRAIL_COVERAGE_TOGGLE STREQUAL "all")
    message(FATAL_ERROR "LIGHTRAIL_COVERAGE_TOGGLE is '${LIGHTRAIL_COVERAGE_TOGGLE}': expected ports or all")
  endif()
  message(STATUS "LIGHTRAIL_COVERAGE: verilated models count coverage (toggles: ${LIGHTRAIL_COVERAGE_TOGGLE}); "
                 "the kernels' C-simulation tests count gcov")
endif()

function(lightrail_coverage_instrument_kernels)
  if(NOT LIGHTRAIL_COVERAGE)
    return()
  endif()
  # The kernels' figure is over their C-simulation tests (tests/hls,
  # tests/hls_sync) only, so only those count. Each test there links a
  # counted copy of the kernel library; the co-simulation keeps the plain,
  # optimised one: it calls the sequencer every board cycle, and counted -O0
  # kernels made the coverage build's co-simulation several times slower
  # for counts no figure used (docs/coverage.md, "Speed").
  # -O0: each counted line and branch is one in the source, not in what the
  # optimiser made of it.
  set(counted_options --coverage -O0 -Wno-unknown-pragmas)
  set(test_dirs)
  foreach(d tests/hls tests/hls_sync)
    if(EXISTS ${PROJECT_SOURCE_DIR}/${d}/CMakeLists.txt)
      list(APPEND test_dirs ${PROJECT_SOURCE_DIR}/${d})
    endif()
  endforeach()
  foreach(k sequencer clock_sync)
    add_library(lightrail_hls_${k}_counted STATIC ${PROJECT_SOURCE_DIR}/hls/${k}/${k}.cpp)
    target_include_directories(lightrail_hls_${k}_counted PUBLIC ${PROJECT_SOURCE_DIR}/hls)
    target_link_libraries(lightrail_hls_${k}_counted PUBLIC lightrail::defs)
    target_compile_options(lightrail_hls_${k}_counted PRIVATE ${counted_options})
    target_link_options(lightrail_hls_${k}_counted INTERFACE --coverage)
  endforeach()
  foreach(d IN LISTS test_dirs)
    # The synthesis tops (hls/*/*_top.cpp) are compiled into the test programs.
    file(GLOB tops ${PROJECT_SOURCE_DIR}/hls/*/*_top.cpp)
    set_source_files_properties(${tops} DIRECTORY ${d} PROPERTIES COMPILE_OPTIONS "${counted_options}")
    get_property(targets DIRECTORY ${d} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(t IN LISTS targets)
      get_target_property(type ${t} TYPE)
      if(NOT type STREQUAL "EXECUTABLE")
        continue()
      endif()
      get_target_property(libs ${t} LINK_LIBRARIES)
      if(NOT libs)
        continue()
      endif()
      list(TRANSFORM libs REPLACE "^lightrail::hls_(sequencer|clock_sync)$" "lightrail_hls_\\1_counted")
      set_target_properties(${t} PROPERTIES LINK_LIBRARIES "${libs}")
    endforeach()
  endforeach()
endfunction()

