#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# CROSS code shape (issue 17): no function in src/cross longer than 120 lines, and no
# macro-generated functions (token pasting) there. Usage: code_shape.sh <source dir>
set -u
src="$1/src/cross"
fail=0
# A function body runs from a '{' in column 0 to the next '}' in column 0; its name is taken
# from the last line before it that starts in column 0 with an identifier and has a '('.
long=$(awk -v max=120 '
  FNR == 1 { start = 0; name = "" }
  /^[A-Za-z_].*\(/ && !start { name = $0 }
  /^\{/ { start = FNR }
  /^\}/ && start {
    len = FNR - start + 1
    if (len > max) printf "%s:%d: %d lines: %s\n", FILENAME, start, len, name
    start = 0
  }
' "$src"/*.c)
if [ -n "$long" ]; then
  echo "FAIL: functions longer than 120 lines:"
  echo "$long"
  fail=1
fi
paste=$(grep -n '##' "$src"/*.c "$src"/*.h || true)
if [ -n "$paste" ]; then
  echo "FAIL: token pasting (macro-generated functions) in src/cross:"
  echo "$paste"
  fail=1
fi
[ $fail -eq 0 ] && echo "ok: src/cross functions <= 120 lines, no generated functions"
exit $fail
