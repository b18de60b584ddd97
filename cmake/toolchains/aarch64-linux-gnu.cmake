# SPDX-License-Identifier: MIT OR Apache-2.0
# Cross build for aarch64-linux-gnu (Debian's multiarch sysroot /usr/aarch64-linux-gnu), tests run under qemu-user:
#   cmake -S . -B build-aarch64 --toolchain cmake/toolchains/aarch64-linux-gnu.cmake \
#         -DGROVE_WITH_DGSP=OFF -DGROVE_WITH_STM=OFF
# The compiler is clang --target=aarch64-linux-gnu unless GROVE_CROSS_CC names another (e.g. gcc:
# -DGROVE_CROSS_CC=aarch64-linux-gnu-gcc from Debian's gcc-aarch64-linux-gnu, which conflicts with gcc-multilib).
# Needs binutils-aarch64-linux-gnu, libc6-dev-arm64-cross, libgcc-12-dev-arm64-cross and qemu-user.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(GROVE_CROSS_TRIPLE aarch64-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
