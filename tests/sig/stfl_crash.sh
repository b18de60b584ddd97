#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The generic stateful API (grove_sig_stfl_sign, through tests/sig/stfl_driver) killed before
# every durable step in turn (GROVE_CRASH_AT=1, 2, ... until a signature completes), ROUNDS
# times over: no index is ever released twice, at most one is burned per kill, and every
# signature released verifies with the grove command (`grove xmss verify`, the raw bytes brought
# in with `grove xmss import --format raw`), which reads the
# same index from it. Then a restored copy of the key file is refused by the driver and the
# command alike. Usage: stfl_crash.sh [rounds] (GROVE, DRIVER, SHIM in the environment).
set -u
G="${GROVE:?}"
DRV="${DRIVER:?}"
SHIM="${SHIM:?}"
ROUNDS=${1:-3}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
export GROVE_STATE_DIR=$d/state XDG_STATE_HOME=$d/xdg
fail=0
jget() { python3 -c "import json,sys
try: print(json.load(sys.stdin)$1)
except Exception: print('')"; }
# the driver writes raw RFC 8391 bytes: the command reads them through 'grove xmss import'
gsig() { rm -f "$1.g"; "$G" xmss import --format raw --sig "$1" --pk k.gpub --out "$1.g" >/dev/null 2>&1; }
sigidx() { gsig "$1"; "$G" --json xmss info "$1.g" 2>/dev/null | jget '["signature_index"]'; }
field() { "$G" --json xmss info k 2>/dev/null | jget "[\"$1\"]"; }

for alg in XMSS-SHA2_10_256:xmss XMSSMT-SHA2_20/4_256:xmssmt; do
  name=${alg%%:*}
  rm -f k k.pub k.gpub k.copy s.* idx
  "$DRV" keygen "$name" k k.pub || { echo "FAIL: keygen $name"; exit 1; }
  "$G" xmss import --format raw --params "$name" --pk k.pub --out k.gpub >/dev/null || { echo "FAIL: import the raw public key of $name"; exit 1; }
  cp k k.copy
  printf 'a message for %s' "$name" > msg
  : > idx
  trials=0; released=0
  for round in $(seq 1 "$ROUNDS"); do
    for n in $(seq 1 40); do
      trials=$((trials + 1))
      rm -f sig
      GROVE_CRASH_AT=$n LD_PRELOAD="$SHIM" "$DRV" sign k msg sig >/dev/null 2>&1; rc=$?
      if [ -s sig ]; then
        if ! gsig sig || ! "$G" xmss verify --pk k.gpub --msg msg --sig sig.g >/dev/null 2>&1; then
          echo "FAIL: $name round $round step $n: grove xmss verify rejects a released signature"
          fail=1
        fi
        sigidx sig >> idx; released=$((released + 1))
      fi
      [ $rc -eq 0 ] && break
      if [ $rc -ne 137 ] && [ $rc -ne 0 ]; then
        echo "FAIL: $name round $round step $n: the driver failed without being killed (exit $rc)"
        fail=1; break
      fi
    done
  done
  # the key file still signs after all the kills
  for r in 1 2; do
    rm -f sig
    "$DRV" sign k msg sig >/dev/null 2>&1 || { echo "FAIL: $name: no signature after the kills"; fail=1; }
    [ -s sig ] && { sigidx sig >> idx; released=$((released + 1)); }
  done
  reused=$(( $(wc -l < idx) - $(sort -u idx | wc -l) ))
  empty=$(grep -c '^$' idx)
  hw=$(field high_water)
  lost=$(( hw - released ))
  if [ "$reused" -ne 0 ] || [ "$empty" -ne 0 ] || [ -z "$hw" ] || [ "$lost" -gt "$trials" ]; then
    echo "FAIL: $name: reused $reused, unreadable $empty, high-water '$hw', lost $lost of $trials kills"
    fail=1
  fi
  echo "$name generic sign crash-injection: trials $trials, released $released, reused $reused, lost $lost"
  # a restored copy: refused by the generic API (exit 3: state) and by the command (exit 3)
  cp k.copy k
  "$DRV" sign k msg sig.restored >/dev/null 2>&1; rc=$?
  [ $rc -eq 3 ] && [ ! -s sig.restored ] || { echo "FAIL: $name: restored copy not refused (exit $rc)"; fail=1; }
  "$G" xmss sign --sk k --msg msg --sig sig.cli >/dev/null 2>&1; rc=$?
  [ $rc -eq 3 ] || { echo "FAIL: $name: the command signs with a restored copy (exit $rc)"; fail=1; }
done
exit $fail
