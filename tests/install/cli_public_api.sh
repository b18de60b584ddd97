#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The grove command uses libgrove's public API only: every #include "..." in cli/ names a public
# header (grove/...) or one of the command's own (cli.h, schemes.h, bench.h: the benchmark
# driver shared with bench/). Files named after the folder are the known exceptions still on
# internal headers (cli/CMakeLists.txt: GROVE_CLI_INTERNAL_SOURCES; a build that compiles one
# links the internal library); each must really need one, so the list cannot go stale.
# Usage: cli_public_api.sh <cli folder> [exception.c ...]
set -eu
dir="$1"
shift
fail=0
for f in "$dir"/*.c "$dir"/*.h; do
  name=$(basename "$f")
  bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
        grep -vE '"(grove/[a-z0-9_]+\.h|cli\.h|schemes\.h|bench\.h)"' || true)
  excepted=0
  for e in "$@"; do
    [ "$e" = "$name" ] && excepted=1
  done
  if [ $excepted -eq 1 ]; then
    [ -n "$bad" ] || { echo "FAIL: $name is listed as using internal headers but uses none: drop it from GROVE_CLI_INTERNAL_SOURCES"; fail=1; }
    continue
  fi
  if [ -n "$bad" ]; then
    echo "FAIL: $name includes headers outside the public API:"; echo "$bad" | sed 's/^/  /'; fail=1
  fi
done
[ $fail -eq 0 ] && echo "cli_public_api: cli/ includes public headers only (exceptions: ${*:-none})"
exit $fail
