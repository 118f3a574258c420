# The install directories (GNUInstallDirs), with Debian's multiarch library
# directory, lib/<triplet>, under every prefix: the Debian packages need it
# under /usr, and one layout everywhere keeps one RPATH, one lightrail.pc and
# one CMake package (docs/packaging.md). -DCMAKE_INSTALL_LIBDIR=lib overrides.
if(NOT DEFINED CMAKE_INSTALL_LIBDIR AND CMAKE_LIBRARY_ARCHITECTURE AND EXISTS /etc/debian_version)
  set(CMAKE_INSTALL_LIBDIR "lib/${CMAKE_LIBRARY_ARCHITECTURE}" CACHE PATH "Object code libraries (LIBDIR)")
endif()
include(GNUInstallDirs)
