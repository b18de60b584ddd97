#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Install the build into a scratch prefix other than the one it was configured with, then, as a
# user would:
#  1. compile and run every examples/*.c against the installed tree through pkg-config, with
#     the shared library and with libgrove.a alone (grove.pc's private requirements);
#  2. build the same examples with CMake through find_package(grove CONFIG), linking
#     grove::grove and grove::grove_static, and run them.
# Usage: run.sh <build dir> <examples dir>   (CC, EXTRA_CFLAGS from the environment)
set -eu
build="$1"
examples="$2"
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
configured=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
[ "$configured" != "$prefix" ]
cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/include/grove/grove.h"
test -f "$prefix/include/grove/config.h"
# the manual pages (cmake/GroveMan.cmake): grove(1) and grove-<scheme>(1) for every scheme the
# installed grove lists, in <prefix>/share/man/man1 (CMAKE_INSTALL_MANDIR)
mandir=$(sed -n 's/^CMAKE_INSTALL_MANDIR:PATH=//p' "$build/CMakeCache.txt")
man1="$prefix/${mandir:-share/man}/man1"
bindir=$(sed -n 's/^CMAKE_INSTALL_BINDIR:PATH=//p' "$build/CMakeCache.txt")
schemes=$("$prefix/${bindir:-bin}/grove" help | sed -n '/^schemes:/,/^$/s/^  \([a-z0-9_-]*\) .*/\1/p')
[ -n "$schemes" ]
for page in grove $(printf 'grove-%s ' $schemes); do
  [ -s "$man1/$page.1" ] || { echo "missing manual page $man1/$page.1"; exit 1; }
done
echo "manual pages: grove.1 and $(echo $schemes | wc -w) scheme pages in $man1"
pc=$(find "$prefix" -name grove.pc | head -1)
test -n "$pc"
export PKG_CONFIG_PATH="$(dirname "$pc")"
# grove.pc must point into this prefix with no help (no --define-variable)
libdir=$(pkg-config --variable=libdir grove)
[ "$(cd "$libdir" && pwd -P)" = "$(cd "$(dirname "$pc")/.." && pwd -P)" ]
test -f "$libdir/libgrove.a"
cflags=$(pkg-config --cflags grove)
libs=$(pkg-config --libs grove)
# a static link: grove's private requirements (their shared libraries) and Libs.private
req=$(pkg-config --print-requires-private grove)
slibs="-lpthread -lm"
if [ -n "$req" ]; then slibs="$(pkg-config --libs $req) $slibs"; fi
shopt -s nullglob
n=0
for ex in "$examples"/*.c; do
  name=$(basename "$ex" .c)
  # an example of a component this build left out is skipped (grove/config.h)
  need=$(sed -n 's|.*grove-example-needs: *\(GROVE_HAVE_[A-Z]*\).*|\1|p' "$ex")
  if [ -n "$need" ] && ! grep -q "define $need 1" "$prefix/include/grove/config.h"; then
    echo "example $name: skipped ($need is 0 in this build)"
    continue
  fi
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror ${EXTRA_CFLAGS:-} $cflags "$ex" -o "$prefix/$name" $libs
  LD_LIBRARY_PATH="$libdir" "$prefix/$name" > "$prefix/$name.out"
  ${CC:-cc} -std=c11 ${EXTRA_CFLAGS:-} $cflags "$ex" -o "$prefix/$name.static" "$libdir/libgrove.a" $slibs
  "$prefix/$name.static" > /dev/null
  echo "example $name: ok (pkg-config, shared and static)"
  n=$((n+1))
done
[ "$n" -gt 0 ]
# find_package(grove CONFIG) from a separate CMake project
cmake -S "$here/consumer" -B "$prefix/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DGROVE_EXAMPLES_DIR="$examples" -DCMAKE_C_COMPILER="${CC:-cc}" \
  "-DCMAKE_C_FLAGS=${EXTRA_CFLAGS:-}" >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
m=0
for exe in "$prefix"/consumer-build/shared_* "$prefix"/consumer-build/static_*; do
  LD_LIBRARY_PATH="$libdir" "$exe" > /dev/null
  m=$((m+1))
done
echo "find_package: $m programs built against grove::grove / grove::grove_static and run"
[ "$m" -eq $((2 * n)) ]
echo "$n examples built and run against the installed library (pkg-config and find_package)"
