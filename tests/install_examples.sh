#!/usr/bin/env bash
# Install the build into a scratch prefix, then compile and run every examples/*.c against the
# installed headers and libraries through pkg-config (shared and static), as a user would.
set -eu
build="$1"
examples="$2"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib/x86_64-linux-gnu/pkgconfig:${PKG_CONFIG_PATH:-}"
test -f "$prefix/include/grove/grove.h"
cflags=$(pkg-config --define-variable=prefix="$prefix" --cflags grove)
libs=$(pkg-config --define-variable=prefix="$prefix" --libs grove)
# the static link uses libgrove.a, the (shared) libraries grove depends on and grove.pc's
# Libs.private (-lpthread -lm)
slibs="$(pkg-config --libs $(pkg-config --print-requires-private grove)) -lpthread -lm"
libdir=$(pkg-config --define-variable=prefix="$prefix" --variable=libdir grove)
shopt -s nullglob
n=0
for ex in "$examples"/*.c; do
  name=$(basename "$ex" .c)
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror ${EXTRA_CFLAGS:-} $cflags "$ex" -o "$prefix/$name" $libs
  LD_LIBRARY_PATH="$libdir" "$prefix/$name" > "$prefix/$name.out"
  # The static library must link the same program on its own.
  ${CC:-cc} -std=c11 ${EXTRA_CFLAGS:-} $cflags "$ex" -o "$prefix/$name.static" "$libdir/libgrove.a" $slibs
  "$prefix/$name.static" > /dev/null
  echo "example $name: ok"
  n=$((n+1))
done
echo "$n examples built and run against the installed library"
[ "$n" -gt 0 ]
