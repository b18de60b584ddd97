#!/usr/bin/env bash
# grove cross: keygen/sign/verify in both strategies, exit codes, --json, key file modes,
# deterministic keys equal to the KAT, tampering and wrong sizes.
set -u
G="${GROVE:?}"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d$1)"; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

"$G" cross --help >/dev/null; check '[ $? -eq 0 ]' "cross --help"
out=$("$G" cross list); check 'echo "$out" | grep -q "CROSS-RSDPG-5-small"' "list names the sets"
check '[ $(echo "$out" | wc -l) -eq 18 ]' "list has 18 lines"
out=$("$G" cross list --json); check '[ "$(echo "$out" | jget "[\"params\"].__len__()")" = 18 ]' "list --json"

printf 'hello CROSS' > "$d/msg"
for set in CROSS-RSDP-1-fast CROSS-RSDPG-1-small cross-rsdp-g-3-balanced; do
  "$G" cross keygen --params $set --pk "$d/pk" --sk "$d/sk"; rc=$?
  check '[ $rc -eq 0 ]' "$set keygen"
  check '[ "$(stat -c %a "$d/sk")" = 600 ]' "$set secret key mode 0600"
  for st in fast small-memory; do
    "$G" cross sign --params $set --strategy $st --sk "$d/sk" --msg "$d/msg" --sig "$d/sig.$st" >/dev/null
    check '[ $? -eq 0 ]' "$set sign $st"
  done
  for st in fast small-memory; do
    "$G" cross verify --params $set --strategy $st --pk "$d/pk" --msg "$d/msg" --sig "$d/sig.fast" >/dev/null
    check '[ $? -eq 0 ]' "$set verify $st (fast signature)"
    "$G" cross verify --params $set --strategy $st --pk "$d/pk" --sig "$d/sig.small-memory" < "$d/msg" >/dev/null
    check '[ $? -eq 0 ]' "$set verify $st (small-memory signature, message on stdin)"
  done
  printf 'hello CROSs' > "$d/msg2"
  "$G" cross verify --params $set --pk "$d/pk" --msg "$d/msg2" --sig "$d/sig.fast" >/dev/null 2>&1
  check '[ $? -eq 1 ]' "$set other message exits 1"
  python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[len(b)//2]^=1; open(sys.argv[2],'wb').write(b)" "$d/sig.fast" "$d/bad"
  out=$("$G" cross verify --params $set --pk "$d/pk" --msg "$d/msg" --sig "$d/bad" --json); rc=$?
  check '[ $rc -eq 1 ] && [ "$(echo "$out" | jget "[\"valid\"]")" = False ]' "$set tampered signature exits 1 with valid=false"
  head -c 100 "$d/sig.fast" > "$d/short"
  "$G" cross verify --params $set --pk "$d/pk" --msg "$d/msg" --sig "$d/short" >/dev/null 2>&1
  check '[ $? -eq 1 ]' "$set truncated signature exits 1"
  cat "$d/sig.fast" "$d/msg" > "$d/long"
  "$G" cross verify --params $set --pk "$d/pk" --msg "$d/msg" --sig "$d/long" >/dev/null 2>&1
  check '[ $? -eq 1 ]' "$set signature with trailing bytes exits 1"
done

# wrong key sizes and unknown names are usage errors
"$G" cross verify --params CROSS-RSDP-5-fast --pk "$d/pk" --msg "$d/msg" --sig "$d/sig.fast" >/dev/null 2>&1
check '[ $? -eq 2 ]' "public key of another set exits 2"
"$G" cross keygen --params CROSS-RSDP-7-fast --pk "$d/x" --sk "$d/y" >/dev/null 2>&1
check '[ $? -eq 2 ]' "unknown set exits 2"
"$G" cross sign --params CROSS-RSDP-1-fast --strategy turbo --sk "$d/sk" --msg "$d/msg" --sig "$d/z" >/dev/null 2>&1
check '[ $? -eq 2 ]' "unknown strategy exits 2"
out=$("$G" cross keygen --params CROSS-RSDP-1-fast --pk "$d/x" --json); rc=$?
check '[ $rc -eq 2 ] && [ "$(echo "$out" | jget "[\"ok\"]")" = False ]' "missing --sk exits 2 with one JSON object"
"$G" cross keygen --params CROSS-RSDP-1-fast --pk "$d/x" --sk - >/dev/null 2>&1
check '[ $? -eq 2 ]' "secret key to stdout refused"

# deterministic key from the KAT seed of cross-rsdp-1-fast count 0 (sk = seed)
V="${GROVE_VECTORS_DIR:-}"
if [ -n "$V" ] && [ -f "$V/cross/cross-rsdp-1-fast.json" ]; then
  sk=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['entries'][0]['sk'])" "$V/cross/cross-rsdp-1-fast.json")
  pkw=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['entries'][0]['pk'])" "$V/cross/cross-rsdp-1-fast.json")
  out=$("$G" cross keygen --params CROSS-RSDP-1-fast --seed "$sk" --pk "$d/kpk" --sk "$d/ksk" --json)
  check '[ "$(echo "$out" | jget "[\"public_key\"]")" = "$pkw" ]' "keygen --seed gives the KAT public key"
fi
out=$("$G" cross keygen --params CROSS-RSDP-1-fast --seed 00 --pk "$d/kpk" --sk "$d/ksk" 2>&1)
check '[ $? -eq 2 ]' "seed of the wrong length exits 2"
exit $fail
