# CPACK_POST_BUILD_SCRIPTS: CPack 3.25 gives a package with libraries under
# /usr/lib postinst and postrm scripts that call ldconfig; Debian wants the
# ldconfig trigger instead (packaging/debian/triggers, in the library
# package's control). The library package is rebuilt without the scripts;
# md5sums, modes and the root owner stay as they were.
foreach(deb ${CPACK_PACKAGE_FILES})
  get_filename_component(name ${deb} NAME)
  if(NOT name MATCHES "^${CPACK_LIGHTRAIL_LIB_PACKAGE}_")
    continue()
  endif()
  set(tree ${CPACK_TOPLEVEL_DIRECTORY}/drop-ldconfig)
  file(REMOVE_RECURSE ${tree})
  execute_process(COMMAND dpkg-deb -R ${deb} ${tree} COMMAND_ERROR_IS_FATAL ANY)
  file(REMOVE ${tree}/DEBIAN/postinst ${tree}/DEBIAN/postrm)
  execute_process(COMMAND dpkg-deb --root-owner-group -Zxz -b ${tree} ${deb} OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
  file(REMOVE_RECURSE ${tree})
endforeach()
