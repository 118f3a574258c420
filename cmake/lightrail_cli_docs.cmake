# lightrail_cli_docs(PROGRAM COMPONENT): PROGRAM's man page (PROGRAM.1.gz)
# and bash completion, printed by the program itself (`--generate-doc`,
# man/cli_doc.hpp) after every build of it, installed with COMPONENT into
# share/man/man1 and share/bash-completion/completions.
function(lightrail_cli_docs program component)
  set(dir ${PROJECT_BINARY_DIR}/cli_docs)
  set(man ${dir}/${program}.1.gz)
  set(completion ${dir}/${program})
  add_custom_command(OUTPUT ${man} ${completion}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/lightrail_cli_docs.sh $<TARGET_FILE:${program}> ${man} ${completion}
    DEPENDS ${program} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/lightrail_cli_docs.sh
    COMMENT "man page and bash completion of ${program}")
  add_custom_target(${program}_cli_docs ALL DEPENDS ${man} ${completion})
  install(FILES ${man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT ${component})
  install(FILES ${completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT ${component})
endfunction()

# lightrail_written_man_page(PAGE COMPONENT): a man page written by hand
# (for a program that is not CLI11's), compressed like the generated ones
# and installed with COMPONENT; tests/install/cli_docs.sh checks it against
# the program's --help.
function(lightrail_written_man_page page component)
  get_filename_component(name ${page} NAME)
  set(man ${PROJECT_BINARY_DIR}/cli_docs/${name}.gz)
  add_custom_command(OUTPUT ${man}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/cli_docs
    COMMAND gzip -9n -c ${page} > ${man}
    DEPENDS ${page}
    COMMENT "man page ${name}")
  add_custom_target(${name}_man_page ALL DEPENDS ${man})
  install(FILES ${man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT ${component})
endfunction()
