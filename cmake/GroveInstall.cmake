# SPDX-License-Identifier: MIT OR Apache-2.0
# Installation: headers, libgrove.{so,a}, the CMake package (find_package(grove CONFIG), targets
# grove::grove and grove::grove_static) and grove.pc. Both the package and grove.pc locate the
# install prefix relative to themselves, so `cmake --install build --prefix X` gives a working
# tree at X whatever prefix the build was configured with.
include(CMakePackageConfigHelpers)

install(DIRECTORY include/grove DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_BINARY_DIR}/include/grove/config.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/grove)
install(TARGETS grove_shared grove_static EXPORT grove-targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(GROVE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/grove)
install(EXPORT grove-targets NAMESPACE grove:: FILE grove-targets.cmake
        DESTINATION ${GROVE_CMAKE_DIR})
configure_package_config_file(cmake/grove-config.cmake.in
  ${CMAKE_BINARY_DIR}/grove-config.cmake INSTALL_DESTINATION ${GROVE_CMAKE_DIR})
# 0.x: a minor release may change the API and ABI (docs/versioning.md).
write_basic_package_version_file(${CMAKE_BINARY_DIR}/grove-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/grove-config.cmake ${CMAKE_BINARY_DIR}/grove-config-version.cmake
        DESTINATION ${GROVE_CMAKE_DIR})

# grove.pc: prefix=${pcfiledir}/<as many .. as the pkgconfig folder is deep>.
set(GROVE_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(GROVE_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(TO_CMAKE_PATH "${GROVE_PC_DIR}" _pcdir)
  string(REPLACE "/" ";" _parts "${_pcdir}")
  set(GROVE_PC_PREFIX "\${pcfiledir}")
  foreach(_p ${_parts})
    if(NOT _p STREQUAL "" AND NOT _p STREQUAL ".")
      string(APPEND GROVE_PC_PREFIX "/..")
    endif()
  endforeach()
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(GROVE_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(GROVE_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(GROVE_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(GROVE_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(cmake/grove.pc.in ${CMAKE_BINARY_DIR}/grove.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/grove.pc DESTINATION ${GROVE_PC_DIR})
