# SPDX-License-Identifier: MIT OR Apache-2.0
# Manual pages: grove(1) and grove-<scheme>(1), written at build time by the built grove
# (`grove help --man [scheme]`, from the tables --help prints: cli/man.c) into <build>/man, and
# installed into ${CMAKE_INSTALL_MANDIR}/man1. Nothing generated is checked in.
#
# Two uses of this file:
#  - include()d from cli/CMakeLists.txt: grove_man_pages(<target>) adds the rule and the install;
#  - run as a script at build time (cmake -DGROVE=<exe> -DOUT=<dir> [-DEMULATOR=<a|b>] -P
#    GroveMan.cmake; EMULATOR: the cross-compiling emulator, its words joined by '|'): asks
#    grove for its schemes (the "schemes:" list of `grove help`) and writes one page each, plus
#    grove.1, replacing the folder's previous pages.

if(CMAKE_SCRIPT_MODE_FILE)
  string(REPLACE "|" ";" grove_cmd "${EMULATOR}")
  list(APPEND grove_cmd "${GROVE}")
  execute_process(COMMAND ${grove_cmd} help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "grove help failed (${rc})")
  endif()
  string(REGEX MATCH "\nschemes:\n([^\n]+\n)+" list "${help}")
  string(REGEX MATCHALL "\n  [a-z0-9_-]+ " names "${list}")
  if(NOT names)
    message(FATAL_ERROR "no schemes in the output of 'grove help'")
  endif()
  file(REMOVE_RECURSE "${OUT}")
  file(MAKE_DIRECTORY "${OUT}")
  set(pages grove)
  foreach(n IN LISTS names)
    string(STRIP "${n}" n)
    list(APPEND pages ${n})
  endforeach()
  foreach(p IN LISTS pages)
    if(p STREQUAL "grove")
      set(args "")
      set(file "${OUT}/grove.1")
    else()
      set(args ${p})
      set(file "${OUT}/grove-${p}.1")
    endif()
    execute_process(COMMAND ${grove_cmd} help --man ${args} OUTPUT_FILE "${file}.tmp"
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "grove help --man ${args} failed (${rc})")
    endif()
    file(RENAME "${file}.tmp" "${file}")
  endforeach()
  return()
endif()

function(grove_man_pages target)
  set(dir ${CMAKE_BINARY_DIR}/man)
  set(emulator "")
  if(CMAKE_CROSSCOMPILING)
    if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
      message(STATUS "grove: no manual pages (cross-compiling without an emulator to run grove)")
      return()
    endif()
    string(REPLACE ";" "|" emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
  endif()
  add_custom_command(OUTPUT ${dir}/.generated
                     COMMAND ${CMAKE_COMMAND} -DGROVE=$<TARGET_FILE:${target}>
                             "-DEMULATOR=${emulator}" -DOUT=${dir}
                             -P ${PROJECT_SOURCE_DIR}/cmake/GroveMan.cmake
                     COMMAND ${CMAKE_COMMAND} -E touch ${dir}/.generated
                     DEPENDS ${target} ${PROJECT_SOURCE_DIR}/cmake/GroveMan.cmake
                     COMMENT "Writing the manual pages (grove help --man)" VERBATIM)
  add_custom_target(grove_man ALL DEPENDS ${dir}/.generated)
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
          FILES_MATCHING PATTERN "*.1")
endfunction()
