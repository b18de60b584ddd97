#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove.sh - install what grove needs (Debian 12, apt-get), build, and run the demo or the tests.
#
#   ./grove.sh demo      build the grove command only, then run grove's end-to-end demo; installs
#                        only what the build needs (BUILD_PACKAGES), not the test tools
#   ./grove.sh test      build and run the whole test suite: a Release build (gcc, -Werror) on the
#                        best CPU path and on the portable one, an optimized build with debug info,
#                        AddressSanitizer + UndefinedBehaviorSanitizer (clang, -Werror), and a build
#                        with every optional component off (no outside library); ends with ctest's
#                        summary
#   ./grove.sh build     configure and build (Release) into build/ (BUILD_PACKAGES only)
#   ./grove.sh python    build libgrove.so and the grove command, run the Python package's pytest
#                        suite against them (python/, docs/python.md)
#   ./grove.sh deps      only install the Debian packages (all of them: the build's and the tests')
# Environment: JOBS (parallel jobs, default: number of CPUs), CTEST_ARGS (extra ctest arguments,
# e.g. "-L slow"), GROVE_VECTORS_DIR (shared vectors folder, default ../shared/vectors).
set -euo pipefail
cd "$(dirname "$0")"

# What `build` and `demo` need: a C compiler, CMake, pkg-config and the libraries the default
# configuration requires (CMakeLists.txt: OpenSSL for DGSP, SQLite, libpq; GMP and jansson
# for the tools: GMP is the BLS12-381 and STM lottery tests' oracle, no longer the library's). Nothing else: a fresh machine runs the demo after ~100 MB of packages.
BUILD_PACKAGES=(gcc make libc6-dev cmake pkg-config libssl-dev libjansson-dev libsqlite3-dev
                libpq-dev libgmp-dev)
# What `test` (and CI, .ci/run) needs on top: clang (the sanitizer build), python3 (test
# scripts), PostgreSQL (the store tests start a private server), valgrind (constant-time and
# instruction counts), multilib and the ARM cross compiler with QEMU (tests/port), groff (the
# manual pages' render check), openssl (the command, for tests/openssl).
TEST_PACKAGES=(build-essential clang python3 postgresql valgrind gcc-multilib gcc-arm-none-eabi
               libnewlib-arm-none-eabi qemu-system-arm groff-base openssl)
# The Python package's tests (ctest python_pytest, ./grove.sh python): pytest, and pip with
# setuptools for the offline install test.
PYTHON_PACKAGES=(python3 python3-pytest python3-setuptools python3-pip)
TEST_PACKAGES+=("${PYTHON_PACKAGES[@]}")
# tests/port: the aarch64 and s390x cross builds (clang --target with Debian's cross binutils,
# libc and libgcc; not gcc-*-linux-gnu, which conflicts with gcc-multilib) run under qemu-user.
TEST_PACKAGES+=(qemu-user binutils-aarch64-linux-gnu libc6-dev-arm64-cross libgcc-12-dev-arm64-cross
                binutils-s390x-linux-gnu libc6-dev-s390x-cross libgcc-12-dev-s390x-cross)
PACKAGES=("${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}")
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

deps() { # deps <package>...: install those not installed yet
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "grove.sh: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

vectors_arg() {
  if [ -n "${GROVE_VECTORS_DIR:-}" ]; then echo "-DGROVE_VECTORS_DIR=$GROVE_VECTORS_DIR"; fi
}

ccache_arg() { # compile through ccache when it is installed (never installed for this)
  if command -v ccache >/dev/null 2>&1; then echo "-DCMAKE_C_COMPILER_LAUNCHER=ccache"; fi
}

build() { # build <dir> <cmake args...> [-- <build args...>]
  local dir=$1; shift
  local cfg=() extra=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do cfg+=("$1"); shift; done
  [ $# -gt 0 ] && shift && extra=("$@")
  cmake -S . -B "$dir" $(vectors_arg) $(ccache_arg) "${cfg[@]}" >/dev/null
  cmake --build "$dir" -j "$JOBS" "${extra[@]}"
}

run_tests() { # run_tests <dir> <label>
  echo "=== ctest: $2 ==="
  (cd "$1" && ctest --output-on-failure -j "$JOBS" ${CTEST_ARGS:--LE slow})
}

case "${1:-}" in
  deps) deps "${PACKAGES[@]}" ;;
  build) deps "${BUILD_PACKAGES[@]}"; build build -DCMAKE_BUILD_TYPE=Release ;;
  demo)
    deps "${BUILD_PACKAGES[@]}"
    build build -DCMAKE_BUILD_TYPE=Release -- --target grove >/dev/null
    ./build/bin/grove demo
    ;;
  python)
    deps "${BUILD_PACKAGES[@]}" "${PYTHON_PACKAGES[@]}"
    build build -DCMAKE_BUILD_TYPE=Release -- --target grove_shared grove
    GROVE_REQUIRE_PYTEST=1 GROVE_LIBRARY="$PWD/build/lib/libgrove.so" GROVE_CLI="$PWD/build/bin/grove" \
      sh python/tests/run_pytest.sh
    ;;
  test)
    deps "${PACKAGES[@]}"
    build build -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc -DGROVE_WERROR=ON
    build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DGROVE_WERROR=ON \
      -DGROVE_SANITIZE=ON
    status=0
    run_tests build "Release (gcc), best CPU path: $(./build/bin/grove --version)" || status=1
    GROVE_CPU=portable run_tests build "Release (gcc), GROVE_CPU=portable" || status=1
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      run_tests build-asan "ASan + UBSan (clang)" || status=1
    build build-min -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc -DGROVE_WERROR=ON \
      -DGROVE_WITH_DGSP=OFF -DGROVE_WITH_SQLITE=OFF -DGROVE_WITH_POSTGRES=OFF -DGROVE_WITH_STM=OFF
    if ldd build-min/lib/libgrove.so | grep -Eq 'libcrypto|libsqlite|libpq|libgmp'; then
      echo "grove.sh: the build with every optional component off links an outside library"
      status=1
    fi
    run_tests build-min "Release (gcc), every optional component off" || status=1
    exit $status
    ;;
  *)
    sed -n '3,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
