#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove stm register with more than 1000 parties (registered in chunks): a progress bar on a
# terminal only, the same registration as without one, and a bad proof of possession in a
# later chunk named by its own line. Slow: 1100 keygen runs.
set -u
G="$(cd "$(dirname "${GROVE:?}")" && pwd)/$(basename "$GROVE")"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
n=1100
seq 1 $n | xargs -P 2 -I{} sh -c '"$0" stm keygen --sk s{} --pk p{} --seed "$(printf "%064x" {})" >/dev/null' "$G"
for i in $(seq 1 $n); do echo "$((i % 7 + 1)) p$i"; done > parties
if command -v script >/dev/null; then
  out=$(script -qec "'$G' stm register --parties parties --out reg.tty --avk avk.tty" /dev/null); rc=$?
  check '[ $rc -eq 0 ] && echo "$out" | grep -q "registering \[" && echo "$out" | grep -q "$n/$n"' "register of $n parties on a terminal shows progress (rc=$rc)"
  out=$(script -qec "'$G' stm register --parties parties --out reg.json --json" /dev/null)
  check '! echo "$out" | grep -q "registering \["' "no progress bar with --json"
fi
"$G" stm register --parties parties --out reg --avk avk 2> err >/dev/null
check '[ $? -eq 0 ] && [ ! -s err ]' "register without a terminal: no progress output"
check '[ "$("$G" stm info reg --json | python3 -c "import json,sys; print(json.load(sys.stdin)[\"parties\"])")" = $n ]' "all $n parties registered"
[ -e reg.tty ] && check 'cmp -s reg reg.tty && cmp -s avk avk.tty' "the same registration with and without the bar"
# a bad proof of possession on line 1050 (the second chunk) is named by its line
"$G" stm export --pk p1050 --format raw --out p1050.raw >/dev/null
python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[150]^=1; print(b.hex())" p1050.raw > bad.hex
awk -v h="$(cat bad.hex)" 'NR == 1050 { print $1 " " h; next } { print }' parties > parties.bad
out=$("$G" stm register --parties parties.bad --out reg.bad 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "parties line 1050: bad proof of possession" && [ ! -e reg.bad ]' "bad PoP in the second chunk named by its line ($out)"
[ $fail -eq 0 ] && echo "stm progress: all checks passed"
exit $fail
