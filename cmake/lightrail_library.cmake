# lightrail_library(NAME EXPORT_NAME SOURCES ...): a library built once and
# linked twice, for in-tree programs and for installing.
#   NAME         static archive; what in-tree targets link (lightrail::<EXPORT_NAME>
#                in the build tree), as before.
#   NAME_shared  the same objects as a shared library, output name NAME,
#                SONAME lib<NAME>.so.MAJOR.MINOR: a 0.x minor release may change
#                the ABI (the package's version file says SameMinorVersion).
#   NAME_objects the objects (position-independent, so the shared library can
#                use them); not installed.
# The installed package calls the shared one lightrail::<EXPORT_NAME> and the
# static one lightrail::<EXPORT_NAME>_static (packaging/CMakeLists.txt).
# Usage requirements go on all three with lightrail_library_link().
# Each library adds itself to the global properties LIGHTRAIL_INSTALLED_LIBRARIES
# (targets), LIGHTRAIL_SHARED_LIBRARY_DIRS and LIGHTRAIL_PUBLIC_INCLUDE_DIRS,
# which packaging/CMakeLists.txt installs: a new library needs no second list.
function(lightrail_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "EXPORT_NAME" "SOURCES")
  add_library(${name}_objects OBJECT ${arg_SOURCES})
  set_target_properties(${name}_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
  add_library(${name} STATIC $<TARGET_OBJECTS:${name}_objects>)
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${arg_EXPORT_NAME}_static)
  add_library(${name}_shared SHARED $<TARGET_OBJECTS:${name}_objects>)
  set_target_properties(${name}_shared PROPERTIES
    OUTPUT_NAME ${name}
    EXPORT_NAME ${arg_EXPORT_NAME})
  # A project that takes the libraries without a version (tests/fuzz) never
  # builds or installs the shared one.
  if(PROJECT_VERSION)
    set_target_properties(${name}_shared PROPERTIES
      VERSION ${PROJECT_VERSION}
      SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  endif()
  add_library(lightrail::${arg_EXPORT_NAME} ALIAS ${name})
  set_property(GLOBAL APPEND PROPERTY LIGHTRAIL_INSTALLED_LIBRARIES ${name} ${name}_shared)
  set_property(GLOBAL APPEND PROPERTY LIGHTRAIL_SHARED_LIBRARY_DIRS ${CMAKE_CURRENT_BINARY_DIR})
endfunction()

# lightrail_library_link(NAME ...): target_link_libraries(... same arguments)
# on the objects, the static and the shared library.
function(lightrail_library_link name)
  foreach(t ${name}_objects ${name} ${name}_shared)
    target_link_libraries(${t} ${ARGN})
  endforeach()
endfunction()

# lightrail_library_include(NAME DIR): DIR is the library's public include
# directory in the build tree; installed, the headers sit in
# CMAKE_INSTALL_INCLUDEDIR (packaging/CMakeLists.txt copies them there).
function(lightrail_library_include name dir)
  foreach(t ${name}_objects ${name} ${name}_shared)
    target_include_directories(${t} PUBLIC $<BUILD_INTERFACE:${dir}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  endforeach()
  set_property(GLOBAL APPEND PROPERTY LIGHTRAIL_PUBLIC_INCLUDE_DIRS ${dir})
endfunction()
