#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# libgrove.a defines no global symbol outside grove_ (internal symbols are made local, so a
# static link never collides with a program's own names), and libgrove.so exports the public
# API only: every exported function is declared GROVE_API in include/grove/*.h, and every
# function of grove/common.h, hash.h, io.h, json.h, pkix.h and envelope.h is exported.
# Usage: symbols.sh <lib dir> <include dir>
set -eu
lib="$1"
inc="$2"
fail=0
# (__x86.get_pc_thunk.*: gcc's hidden COMDAT helpers of 32-bit x86 PIC code, one shared copy.)
bad=$(nm -g --defined-only "$lib/libgrove.a" |
      awk 'NF==3 && $3 !~ /^grove_/ && $3 !~ /^__x86\.get_pc_thunk\./ {print $3}' | sort -u)
if [ -n "$bad" ]; then
  echo "FAIL: libgrove.a defines global symbols outside grove_:"; echo "$bad" | head -40; fail=1
fi
nm -D --defined-only "$lib/libgrove.so" | awk '{print $3}' | sort -u > exported.$$
grep -ho 'grove_[a-z0-9_]*(' "$inc"/grove/*.h | tr -d '(' | sort -u > declared.$$
extra=$(comm -23 exported.$$ declared.$$)
if [ -n "$extra" ]; then
  echo "FAIL: libgrove.so exports symbols that no public header declares:"; echo "$extra" | head -40; fail=1
fi
# ...and the other way: every function of the always-built helper headers is exported.
for h in common hash io json pkix envelope; do
  for f in $(tr '\n' ' ' < "$inc/grove/$h.h" | grep -o 'GROVE_API[^;]*;' |
             grep -o 'grove_[a-z0-9_]*[[:space:]]*(' | tr -d ' (' | sort -u); do
    grep -qx "$f" exported.$$ || { echo "FAIL: grove/$h.h declares $f but libgrove.so does not export it"; fail=1; }
  done
done
n=$(wc -l < exported.$$)
rm -f exported.$$ declared.$$
[ "$n" -gt 100 ] || { echo "FAIL: only $n exported symbols"; fail=1; }
[ $fail -eq 0 ] && echo "symbols: $n exported, all declared in the public headers; libgrove.a: no global outside grove_"
exit $fail
