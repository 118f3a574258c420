# lightrail_deb_docs(COMPONENT PACKAGE [DOCS...]): what Debian policy wants in
# every package's /usr/share/doc/PACKAGE: the machine-readable copyright, the
# changelog (changelog.Debian.gz, gzip -9n), and the DOCS given. Only in the
# packages (EXCLUDE_FROM_ALL), not in a plain `cmake --install`.
set(LIGHTRAIL_DEB_CHANGELOG ${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz)
add_custom_command(OUTPUT ${LIGHTRAIL_DEB_CHANGELOG}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/debian
  COMMAND gzip -9n -c ${PROJECT_SOURCE_DIR}/packaging/debian/changelog > ${LIGHTRAIL_DEB_CHANGELOG}
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/debian/changelog
  COMMENT "changelog.Debian.gz")
add_custom_target(lightrail_deb_changelog ALL DEPENDS ${LIGHTRAIL_DEB_CHANGELOG})

function(lightrail_deb_docs component package)
  set(dir ${CMAKE_INSTALL_DATADIR}/doc/${package})
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/debian/copyright ${LIGHTRAIL_DEB_CHANGELOG}
    DESTINATION ${dir} COMPONENT ${component} EXCLUDE_FROM_ALL)
  foreach(doc ${ARGN})
    # README.md at the top, the pages under docs/ as in the tree.
    if(doc MATCHES "/docs/[^/]*$")
      install(FILES ${doc} DESTINATION ${dir}/docs COMPONENT ${component} EXCLUDE_FROM_ALL)
    else()
      install(FILES ${doc} DESTINATION ${dir} COMPONENT ${component} EXCLUDE_FROM_ALL)
    endif()
  endforeach()
endfunction()
