# SPDX-License-Identifier: MIT OR Apache-2.0
# Shared part of the Linux cross toolchain files: GROVE_CROSS_TRIPLE and CMAKE_SYSTEM_PROCESSOR
# are set by the including file. Compiler: GROVE_CROSS_CC (cache or environment), else the
# triple's gcc when installed and GROVE_CROSS_PREFER_GCC is set, else clang --target=<triple>.
set(GROVE_SYSROOT /usr/${GROVE_CROSS_TRIPLE})
if(NOT GROVE_CROSS_CC AND DEFINED ENV{GROVE_CROSS_CC})
  set(GROVE_CROSS_CC $ENV{GROVE_CROSS_CC})
endif()
if(NOT GROVE_CROSS_CC AND DEFINED ENV{GROVE_CROSS_PREFER_GCC})
  find_program(GROVE_CROSS_GCC ${GROVE_CROSS_TRIPLE}-gcc)
  if(GROVE_CROSS_GCC)
    set(GROVE_CROSS_CC ${GROVE_CROSS_GCC})
  endif()
endif()
if(NOT GROVE_CROSS_CC)
  set(GROVE_CROSS_CC clang)
endif()
set(GROVE_CROSS_CC ${GROVE_CROSS_CC} CACHE STRING "C compiler of the cross build")
set(CMAKE_C_COMPILER ${GROVE_CROSS_CC})
if(GROVE_CROSS_CC MATCHES "clang")
  set(CMAKE_C_COMPILER_TARGET ${GROVE_CROSS_TRIPLE})
  # clang finds the Debian cross binutils (<triple>-as, -ld) and the sysroot by the triple.
endif()
set(CMAKE_AR ${GROVE_CROSS_TRIPLE}-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${GROVE_CROSS_TRIPLE}-ranlib CACHE FILEPATH "")
set(CMAKE_OBJCOPY ${GROVE_CROSS_TRIPLE}-objcopy CACHE FILEPATH "")
set(CMAKE_NM ${GROVE_CROSS_TRIPLE}-nm CACHE FILEPATH "")

set(CMAKE_FIND_ROOT_PATH ${GROVE_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config must not hand the host's .pc files to the cross build.
set(ENV{PKG_CONFIG_LIBDIR} ${GROVE_SYSROOT}/lib/pkgconfig:${GROVE_SYSROOT}/share/pkgconfig)
set(ENV{PKG_CONFIG_SYSROOT_DIR} /)

# ctest runs every test program under qemu-user with the target's loader and libraries.
# QEMU_CPU (environment) picks the CPU model, e.g. QEMU_CPU=cortex-a53 for an ARMv8.0 core.
find_program(GROVE_QEMU qemu-${CMAKE_SYSTEM_PROCESSOR})
if(GROVE_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${GROVE_QEMU} -L ${GROVE_SYSROOT})
endif()
