# SPDX-License-Identifier: MIT OR Apache-2.0
# Cross build for s390x-linux-gnu (Debian's multiarch sysroot /usr/s390x-linux-gnu), tests run under qemu-user:
#   cmake -S . -B build-s390x --toolchain cmake/toolchains/s390x-linux-gnu.cmake \
#         -DGROVE_WITH_DGSP=OFF -DGROVE_WITH_STM=OFF
# The compiler is clang --target=s390x-linux-gnu unless GROVE_CROSS_CC names another (e.g. gcc:
# -DGROVE_CROSS_CC=s390x-linux-gnu-gcc from Debian's gcc-s390x-linux-gnu, which conflicts with gcc-multilib).
# Needs binutils-s390x-linux-gnu, libc6-dev-s390x-cross, libgcc-12-dev-s390x-cross and qemu-user.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(GROVE_CROSS_TRIPLE s390x-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
