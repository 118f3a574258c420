# The build ID every image of the board carries in its capability block
# (CAP_BUILD_HASH_*, CAP_BUILD_TIME, with CAP_VERSION; docs/registers.md):
#   LIGHTRAIL_BUILD_HASH    16 hex digits: the first 64 bits of the git commit
#                           of the source tree (0000000000000000: no git)
#   LIGHTRAIL_BUILD_TIME    seconds since the epoch: SOURCE_DATE_EPOCH when set,
#                           else the commit's time (0: no git), so rebuilding
#                           one commit gives one build ID
#   LIGHTRAIL_REGMAP_VERSION  regmap_version of defs/regmap.json
# and the Verilator/Vivado generics that set the top's BUILD_HASH/BUILD_TIME
# parameters (LIGHTRAIL_BUILD_ID_GENERICS, "NAME=VALUE" Verilog literals).
# A dirty tree is not marked: the hash names the commit the edits sit on.
# Configure runs again when HEAD moves (a commit, a checkout).

find_package(Git QUIET)
set(LIGHTRAIL_BUILD_HASH "0000000000000000")
set(_lightrail_commit_time 0)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --verify HEAD
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE _lightrail_head
    RESULT_VARIABLE _lightrail_rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_lightrail_rc EQUAL 0 AND _lightrail_head MATCHES "^[0-9a-f]+$")
    string(SUBSTRING "${_lightrail_head}" 0 16 LIGHTRAIL_BUILD_HASH)
    execute_process(COMMAND ${GIT_EXECUTABLE} log -1 --format=%ct HEAD
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE _lightrail_commit_time
      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    # HEAD and the branch it points to (loose or packed): a commit re-runs
    # configure, so the ID follows the source.
    foreach(_lightrail_ref HEAD packed-refs)
      execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --git-path ${_lightrail_ref}
        WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE _lightrail_path
        OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      list(APPEND _lightrail_watch ${_lightrail_path})
    endforeach()
    execute_process(COMMAND ${GIT_EXECUTABLE} symbolic-ref -q HEAD
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE _lightrail_branch
      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_lightrail_branch)
      execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --git-path ${_lightrail_branch}
        WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE _lightrail_path
        OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      list(APPEND _lightrail_watch ${_lightrail_path})
    endif()
    foreach(_lightrail_path IN LISTS _lightrail_watch)
      if(NOT IS_ABSOLUTE "${_lightrail_path}")
        set(_lightrail_path "${PROJECT_SOURCE_DIR}/${_lightrail_path}")
      endif()
      if(EXISTS "${_lightrail_path}")
        set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_lightrail_path}")
      endif()
    endforeach()
  endif()
endif()

if(DEFINED ENV{SOURCE_DATE_EPOCH} AND NOT "$ENV{SOURCE_DATE_EPOCH}" STREQUAL "")
  if(NOT "$ENV{SOURCE_DATE_EPOCH}" MATCHES "^[0-9]+$" OR "$ENV{SOURCE_DATE_EPOCH}" GREATER 4294967295)
    message(FATAL_ERROR "SOURCE_DATE_EPOCH=\"$ENV{SOURCE_DATE_EPOCH}\": expected seconds since the epoch, "
                        "0..4294967295 (CAP_BUILD_TIME is 32 bits)")
  endif()
  set(LIGHTRAIL_BUILD_TIME "$ENV{SOURCE_DATE_EPOCH}")
elseif(_lightrail_commit_time MATCHES "^[0-9]+$")
  set(LIGHTRAIL_BUILD_TIME "${_lightrail_commit_time}")
else()
  set(LIGHTRAIL_BUILD_TIME 0)
endif()

file(READ ${PROJECT_SOURCE_DIR}/defs/regmap.json _lightrail_regmap)
string(JSON LIGHTRAIL_REGMAP_VERSION GET "${_lightrail_regmap}" regmap_version)

set(LIGHTRAIL_BUILD_ID_GENERICS
  "BUILD_HASH=64'h${LIGHTRAIL_BUILD_HASH}"
  "BUILD_TIME=32'd${LIGHTRAIL_BUILD_TIME}")
message(STATUS "lightrail build ID: source ${LIGHTRAIL_BUILD_HASH}, time ${LIGHTRAIL_BUILD_TIME}, "
               "register map ${LIGHTRAIL_REGMAP_VERSION}")

# lightrail_image_descriptor(OUT TARGET UUID [XCLBIN]): writes the JSON that
# describes one board image for `lightrail flash` (docs/lab.md): its UUID,
# build ID and register-map version, and for hardware the xclbin beside it.
function(lightrail_image_descriptor out target uuid)
  set(xclbin null)
  if(ARGC GREATER 3)
    set(xclbin "\"${ARGV3}\"")
  endif()
  file(CONFIGURE OUTPUT ${out} CONTENT [[{
  "format": "lightrail-board-image",
  "format_version": 1,
  "target": "@target@",
  "uuid": "@uuid@",
  "build": {
    "source_hash": "@LIGHTRAIL_BUILD_HASH@",
    "build_time": @LIGHTRAIL_BUILD_TIME@,
    "regmap_version": @LIGHTRAIL_REGMAP_VERSION@
  },
  "xclbin": @xclbin@
}
]] @ONLY)
endfunction()

# The same ID as a SystemVerilog package for the vendor flows: the board
# wrapper passes it to the top, so every bitstream and xclbin carries the ID
# its descriptor names without each Tcl script handling generics. Rewritten
# only when it changes, so an unchanged ID rebuilds nothing.
set(LIGHTRAIL_BUILD_ID_PKG ${PROJECT_BINARY_DIR}/hw/lightrail_build_id_pkg.sv)
set(_lightrail_pkg_text "// Generated by cmake/lightrail_build_id.cmake: the build ID of this tree.
package lightrail_build_id_pkg;
  localparam logic [63:0] BUILD_HASH = 64'h${LIGHTRAIL_BUILD_HASH};
  localparam logic [31:0] BUILD_TIME = 32'd${LIGHTRAIL_BUILD_TIME};
endpackage
")
set(_lightrail_pkg_old "")
if(EXISTS ${LIGHTRAIL_BUILD_ID_PKG})
  file(READ ${LIGHTRAIL_BUILD_ID_PKG} _lightrail_pkg_old)
endif()
if(NOT _lightrail_pkg_old STREQUAL _lightrail_pkg_text)
  file(WRITE ${LIGHTRAIL_BUILD_ID_PKG} "${_lightrail_pkg_text}")
endif()
