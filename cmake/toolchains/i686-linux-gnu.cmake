# SPDX-License-Identifier: MIT OR Apache-2.0
# 32-bit x86 on an x86-64 Debian with gcc-multilib (the programs run natively):
#   cmake -S . -B build-m32 --toolchain cmake/toolchains/i686-linux-gnu.cmake \
#         -DGROVE_WITH_DGSP=OFF -DGROVE_WITH_MITHRIL=OFF
# CC=clang (environment) builds with clang -m32 instead of gcc -m32.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
if(NOT CMAKE_C_COMPILER)
  if(DEFINED ENV{CC})
    set(CMAKE_C_COMPILER $ENV{CC})
  else()
    set(CMAKE_C_COMPILER gcc)
  endif()
endif()
# SSE2 binary64 arithmetic (as x86-64 and Rust's i686 targets, hence mithril-stm on 32-bit x86):
# with the x87 default (FLT_EVAL_METHOD 2) expressions are evaluated in 80-bit precision, which
# test_stm_json and test_stm_cbor's constants (0.1 + 0.2, == 0.2) do not expect.
set(CMAKE_C_FLAGS_INIT "-m32 -msse2 -mfpmath=sse")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-m32")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-m32")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-m32")
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
# Only 32-bit libraries: the host's 64-bit ones (and their .pc files) must not be found.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/i386-linux-gnu/pkgconfig)
# Where the kernel cannot start 32-bit programs, pass
# -DCMAKE_CROSSCOMPILING_EMULATOR="qemu-i386;-L;/" (tests/port/run.sh does).
