#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Portability: tests/port/port_check.c and the libc-only part of libgrove (common, hash, state,
# SLH-DSA/SPHINCS+, XMSS, CROSS) built as 64-bit and 32-bit (-m32) binaries with gcc and clang
# (-Werror, the project's warnings), each run with the portable kernels and with the best path
# of this CPU. Every output must be identical to the 64-bit gcc run.
#   tests/port/run.sh [--all] [work dir]
# DGSP (OpenSSL), the stores and the vector runner need 32-bit builds of their libraries, which
# this check does not install (see SECURITY.md / docs).
set -euo pipefail
cd "$(dirname "$0")/../.."
ALL=""
[ "${1:-}" = "--all" ] && { ALL=--all; shift; }
W=${1:-$(mktemp -d)}
mkdir -p "$W"
SRC=$(ls src/common/*.c src/hash/*.c src/state/*.c src/format/*.c src/hashsig/*.c src/sphincs/*.c \
  src/xmss/*.c src/cross/*.c)
# grove/config.h of this libc-only build: every optional component off
mkdir -p "$W/include/grove"
sed 's/@GROVE_HAVE_[A-Z]*@/0/' cmake/config.h.in > "$W/include/grove/config.h"
WARN="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wvla -Werror"
status=0
ref=""
for cc in gcc clang; do
  command -v $cc >/dev/null || { echo "SKIP $cc: not installed"; continue; }
  for bits in 64 32; do
    exe="$W/port_${cc}_${bits}"
    if ! $cc -m$bits -std=c11 -O2 -D_GNU_SOURCE -DGROVE_BUILDING $WARN -Iinclude -I"$W/include" -Isrc \
         $SRC tests/port/port_check.c -o "$exe" -lpthread 2> "$exe.log"; then
      echo "FAIL: $cc -m$bits does not build"; tail -20 "$exe.log"; status=1; continue
    fi
    for cpu in portable best; do
      out="$exe.$cpu.txt"
      if [ $cpu = best ]; then "$exe" $ALL > "$out" || status=1
      else GROVE_CPU=portable "$exe" $ALL > "$out" || status=1; fi
      grep FAIL "$out" && status=1
      body=$(grep -v '^#' "$out" | sha256sum)
      [ -z "$ref" ] && ref=$body
      if [ "$body" != "$ref" ]; then
        echo "FAIL: $cc -m$bits ($cpu) differs from the 64-bit gcc results"
        diff <(grep -v '^#' "$W/port_gcc_64.portable.txt") <(grep -v '^#' "$out") | head
        status=1
      else
        echo "ok: $cc -m$bits ($cpu): $(grep -vc '^#' "$out") parameter sets identical"
      fi
    done
  done
done
[ $status -eq 0 ] && echo "portability: identical results"
exit $status
