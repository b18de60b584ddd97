#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
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
out=$("$G" cross params); check 'echo "$out" | grep -q "CROSS-RSDPG-5-small"' "params names the sets"
check '[ $(echo "$out" | wc -l) -eq 18 ]' "params has 18 lines"
out=$("$G" cross params --json); check '[ "$(echo "$out" | jget "[\"parameter_sets\"].__len__()")" = 18 ] && [ "$(echo "$out" | jget "[\"parameter_sets\"][0][\"pk_bytes\"]")" -gt 0 ]' "params --json"
"$G" cross list >/dev/null 2>&1; check '[ $? -eq 2 ]' "the old name 'list' is gone (one command name per scheme: params)"

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
  # a signature file of the wrong length is an input error (2), not an invalid signature (1)
  head -c 100 "$d/sig.fast" > "$d/short"
  "$G" cross verify --params $set --pk "$d/pk" --msg "$d/msg" --sig "$d/short" >/dev/null 2>&1
  check '[ $? -eq 2 ]' "$set truncated signature exits 2"
  cat "$d/sig.fast" "$d/msg" > "$d/long"
  "$G" cross verify --params $set --pk "$d/pk" --msg "$d/msg" --sig "$d/long" >/dev/null 2>&1
  check '[ $? -eq 2 ]' "$set signature with trailing bytes exits 2"
  out=$("$G" cross verify --params $set --pk "$d/pk" --msg "$d/msg" --sig "$d/short" --json); rc=$?
  check '[ $rc -eq 2 ] && [ "$(echo "$out" | jget "[\"ok\"]")" = False ]' "$set truncated signature --json: exit 2, one object"
  # corrupted secret key files are refused before signing; nothing is written
  skl=$(stat -c %s "$d/sk")
  for pos in 0 1 $((skl / 4)) $((skl / 2)) $((skl - 41)) $((skl - 40)) $((skl - 33)) $((skl - 32)) $((skl - 1)); do
    python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[int(sys.argv[3])]^=0x01; open(sys.argv[2],'wb').write(b)" "$d/sk" "$d/bad.sk" $pos
    out=$("$G" cross sign --params $set --sk "$d/bad.sk" --msg "$d/msg" --sig "$d/bad.sig" 2>&1); rc=$?
    check '[ $rc -eq 2 ] && [ ! -e "$d/bad.sig" ]' "$set secret key with a bit flipped at byte $pos refused, nothing written (rc=$rc: $out)"
  done
  rm -f "$d/sk.old"; mv "$d/sk" "$d/sk.old"
done

# secret key files: size, raw seeds, --force, same-file outputs, other sets
"$G" cross keygen --params CROSS-RSDP-1-fast --pk "$d/pk" --sk "$d/sk" >/dev/null
check '[ $(stat -c %s "$d/sk") -eq $((32 + 40)) ]' "secret key file: 32-byte seed + 40-byte integrity trailer"
head -c 32 "$d/sk" > "$d/raw.sk"
out=$("$G" cross sign --params CROSS-RSDP-1-fast --sk "$d/raw.sk" --msg "$d/msg" --sig "$d/raw.sig" 2>&1 >/dev/null); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | grep -q "warning:.*integrity"' "a raw seed is accepted with a warning"
"$G" cross verify --params CROSS-RSDP-1-fast --pk "$d/pk" --msg "$d/msg" --sig "$d/raw.sig" >/dev/null
check '[ $? -eq 0 ]' "... and its signature verifies"
"$G" cross sign --params CROSS-RSDP-1-balanced --sk "$d/sk" --msg "$d/msg" --sig "$d/bad.sig" >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e "$d/bad.sig" ]' "a key of another set (same size) is refused"
cp "$d/sk" "$d/keep.sk"; rm -f "$d/new.pk"
out=$("$G" cross keygen --params CROSS-RSDP-1-fast --pk "$d/new.pk" --sk "$d/sk" 2>&1); rc=$?
check '[ $rc -eq 2 ] && cmp -s "$d/sk" "$d/keep.sk" && [ ! -e "$d/new.pk" ] && echo "$out" | grep -q "$d/sk"' "keygen refuses to overwrite a secret key, naming it"
"$G" cross keygen --params CROSS-RSDP-1-fast --pk "$d/pk" --sk "$d/sk" --force >/dev/null
check '[ $? -eq 0 ] && ! cmp -s "$d/sk" "$d/keep.sk"' "keygen --force replaces it"
"$G" cross keygen --params CROSS-RSDP-1-fast --pk "$d/same" --sk "$d/same" >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e "$d/same" ]' "keygen --pk naming --sk refused"
cp "$d/sk" "$d/keep.sk"
"$G" cross sign --params CROSS-RSDP-1-fast --sk "$d/sk" --msg "$d/msg" --sig "$d/sk" >/dev/null 2>&1
check '[ $? -eq 2 ] && cmp -s "$d/sk" "$d/keep.sk"' "sign --sig naming --sk refused"
cp "$d/msg" "$d/msgcopy"
"$G" cross sign --params CROSS-RSDP-1-fast --sk "$d/sk" --msg "$d/msgcopy" --sig "$d/msgcopy" >/dev/null 2>&1
check '[ $? -eq 2 ] && cmp -s "$d/msg" "$d/msgcopy"' "sign --sig naming --msg refused"

# data on stdout: nothing else there; text and JSON go to stderr
"$G" cross keygen --params CROSS-RSDP-1-fast --seed "$(printf '%064x' 7)" --pk - --sk "$d/s7.sk" > "$d/s7.out" 2> "$d/s7.err"
check '[ $? -eq 0 ] && [ $(stat -c %s "$d/s7.out") -eq 77 ] && grep -q "key pair written" "$d/s7.err"' "keygen --pk -: stdout is exactly the public key, the message on stderr"
"$G" cross keygen --params CROSS-RSDP-1-fast --seed "$(printf '%064x' 7)" --pk "$d/s7.pk" --sk "$d/s7b.sk" >/dev/null
check 'cmp -s "$d/s7.out" "$d/s7.pk"' "... the same public key as written to a file"
"$G" cross keygen --params CROSS-RSDP-1-fast --seed "$(printf '%064x' 8)" --pk - --sk "$d/s8.sk" --json > "$d/s8.out" 2> "$d/s8.err"
check '[ $(stat -c %s "$d/s8.out") -eq 77 ] && [ "$(jget "[\"ok\"]" < "$d/s8.err")" = True ]' "keygen --pk - --json: the key on stdout, one JSON object on stderr"
"$G" cross sign --params CROSS-RSDP-1-fast --sk "$d/s7.sk" --msg "$d/msg" --sig - --json > "$d/s7.sig" 2> "$d/s7.err"
check '[ $? -eq 0 ] && [ $(stat -c %s "$d/s7.sig") -eq 18432 ] && [ "$(jget "[\"ok\"]" < "$d/s7.err")" = True ]' "sign --sig - --json: stdout is exactly the signature, JSON on stderr"
"$G" cross verify --params CROSS-RSDP-1-fast --pk "$d/s7.pk" --msg "$d/msg" --sig "$d/s7.sig" >/dev/null
check '[ $? -eq 0 ]' "... and it verifies"
# a right-length signature with non-zero padding bits is well formed in length but invalid:
# exit 1; a public key with non-zero padding bits is a malformed input: exit 2
flip_last() { python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[-1]^=0x80; open(sys.argv[2],'wb').write(b)" "$1" "$2"; }
flip_last "$d/s7.sig" "$d/s7.padsig"
"$G" cross verify --params CROSS-RSDP-1-fast --pk "$d/s7.pk" --msg "$d/msg" --sig "$d/s7.padsig" >/dev/null 2>&1
check '[ $? -eq 1 ]' "right-length signature with bad padding exits 1"
flip_last "$d/s7.pk" "$d/s7.padpk"
"$G" cross verify --params CROSS-RSDP-1-fast --pk "$d/s7.padpk" --msg "$d/msg" --sig "$d/s7.sig" >/dev/null 2>&1
check '[ $? -eq 2 ]' "public key with bad padding exits 2"

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
