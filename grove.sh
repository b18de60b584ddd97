#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove.sh - install what grove needs (Debian 12, apt-get), build, and run the demo or the tests.
#
#   ./grove.sh demo      build, then run grove's end-to-end demo
#   ./grove.sh test      build and run the whole test suite: a Release build (gcc, -Werror) on the
#                        best CPU path and on the portable one, an optimized build with debug info,
#                        AddressSanitizer + UndefinedBehaviorSanitizer (clang, -Werror), and a build
#                        with every optional component off (no outside library); ends with ctest's
#                        summary
#   ./grove.sh build     configure and build (Release) into build/
#   ./grove.sh deps      only install the Debian packages
# Environment: JOBS (parallel jobs, default: number of CPUs), CTEST_ARGS (extra ctest arguments,
# e.g. "-L slow"), GROVE_VECTORS_DIR (shared vectors folder, default ../shared/vectors).
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(build-essential cmake clang pkg-config python3 libssl-dev libjansson-dev libsqlite3-dev
          libpq-dev postgresql valgrind gcc-multilib libgmp-dev
          gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm groff-base)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

deps() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
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

build() { # build <dir> <cmake args...>
  local dir=$1; shift
  cmake -S . -B "$dir" $(vectors_arg) "$@" >/dev/null
  cmake --build "$dir" -j "$JOBS"
}

run_tests() { # run_tests <dir> <label>
  echo "=== ctest: $2 ==="
  (cd "$1" && ctest --output-on-failure -j "$JOBS" ${CTEST_ARGS:--LE slow})
}

case "${1:-}" in
  deps) deps ;;
  build) deps; build build -DCMAKE_BUILD_TYPE=Release ;;
  demo)
    deps
    build build -DCMAKE_BUILD_TYPE=Release >/dev/null
    ./build/bin/grove demo
    ;;
  test)
    deps
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
