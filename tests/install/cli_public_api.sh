#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The grove command uses libgrove's public API only: every #include "..." in cli/ names a public
# header (grove/...) or one of the command's own (cli.h, schemes.h, man.h, bench.h: the benchmark
# driver shared with bench/). The command links the public static library, so a call of an
# internal function would not link either; this test names the offending line.
# Usage: cli_public_api.sh <cli folder>
set -eu
dir="$1"
fail=0
for f in "$dir"/*.c "$dir"/*.h; do
  bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
        grep -vE '"(grove/[a-z0-9_]+\.h|cli\.h|schemes\.h|man\.h|bench\.h)"' || true)
  if [ -n "$bad" ]; then
    echo "FAIL: $(basename "$f") includes headers outside the public API:"; echo "$bad" | sed 's/^/  /'; fail=1
  fi
done
[ $fail -eq 0 ] && echo "cli_public_api: cli/ includes public headers only"
exit $fail
