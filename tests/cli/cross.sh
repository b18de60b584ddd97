#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove cross on grove files (the envelope): keygen/sign/verify in both strategies, the default
# set, info, params, exit codes, --json, key file modes, key ids, wrong type/scheme/set,
# damaged files, --binary, stdin/stdout, export/import raw (the NIST KAT layout: KAT keys and
# signatures go through import and verify; exports give the reference bytes).
set -u
G="${GROVE:?}"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d$1)"; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
# raw body of a grove file (a secret key is never written to stdout: through a file)
raw() { rm -f "$d/raw.tmp"; "$G" cross export --$1 "$2" --format raw --out "$d/raw.tmp" >/dev/null 2>&1; cat "$d/raw.tmp"; }
# change one base64 character of line $3 of armored file $1 into $2
damage() { python3 - "$1" "$2" "$3" <<'PY'
import sys
t = open(sys.argv[1]).read().split("\n"); i = int(sys.argv[3]) - 1
t[i] = t[i][:7] + ("B" if t[i][7] == "A" else "A") + t[i][8:]
open(sys.argv[2], "w").write("\n".join(t))
PY
}

"$G" cross --help >/dev/null; check '[ $? -eq 0 ]' "cross --help"
out=$("$G" cross params); check 'echo "$out" | grep -q "CROSS-RSDPG-5-small"' "params names the sets"
check '[ $(echo "$out" | wc -l) -eq 18 ]' "params has 18 lines"
check '[ "$(echo "$out" | grep default)" = "$(echo "$out" | grep "^CROSS-RSDPG-1-balanced ")" ]' "params marks the default CROSS-RSDPG-1-balanced"
out=$("$G" cross params --json); check '[ "$(echo "$out" | jget "[\"parameter_sets\"].__len__()")" = 18 ] && [ "$(echo "$out" | jget "[\"parameter_sets\"][0][\"pk_bytes\"]")" -gt 0 ] && [ "$(echo "$out" | jget "[\"default\"]")" = CROSS-RSDPG-1-balanced ]' "params --json (with the default)"
"$G" cross list >/dev/null 2>&1; check '[ $? -eq 2 ]' "the old name 'list' is gone (one command name per scheme: params)"
check '"$G" cross keygen --help 2>&1 | grep -q "CROSS-RSDPG-1-balanced"' "keygen --help names the default set"

printf 'hello CROSS' > "$d/msg"
out=$("$G" cross keygen --pk "$d/dpk" --sk "$d/dsk" --json); rc=$?
check '[ $rc -eq 0 ] && [ "$(echo "$out" | jget "[\"params\"]")" = CROSS-RSDPG-1-balanced ]' "keygen without --params: the default set"
check 'head -1 "$d/dpk" | grep -qx -- "-----BEGIN GROVE CROSS PUBLIC KEY-----" && head -1 "$d/dsk" | grep -qx -- "-----BEGIN GROVE CROSS SECRET KEY-----"' "armored grove files by default"

for set in CROSS-RSDP-1-fast CROSS-RSDPG-1-small cross-rsdp-g-3-balanced; do
  "$G" cross keygen --params $set --pk "$d/pk" --sk "$d/sk" >/dev/null; rc=$?
  check '[ $rc -eq 0 ]' "$set keygen"
  check '[ "$(stat -c %a "$d/sk")" = 600 ]' "$set secret key mode 0600"
  kid=$("$G" cross info "$d/pk" --json | jget '["key_id"]')
  for st in fast small-memory; do
    "$G" cross sign --strategy $st --sk "$d/sk" --msg "$d/msg" --sig "$d/sig.$st" >/dev/null
    check '[ $? -eq 0 ]' "$set sign $st"
  done
  for st in fast small-memory; do
    out=$("$G" cross verify --strategy $st --pk "$d/pk" --msg "$d/msg" --sig "$d/sig.fast"); rc=$?
    check '[ $rc -eq 0 ] && [ "$out" = "signature valid (key id $kid)" ]' "$set verify $st (fast signature): 'signature valid (key id ...)'"
    "$G" cross verify --strategy $st --pk "$d/pk" --sig "$d/sig.small-memory" --msg - < "$d/msg" >/dev/null
    check '[ $? -eq 0 ]' "$set verify $st (small-memory signature, message on stdin)"
  done
  printf 'hello CROSs' > "$d/msg2"
  out=$("$G" cross verify --pk "$d/pk" --msg "$d/msg2" --sig "$d/sig.fast" 2>&1); rc=$?
  check '[ $rc -eq 1 ] && echo "$out" | grep -q "signature INVALID"' "$set other message exits 1, 'signature INVALID'"
  # a signature body with one bit changed (the file re-made by import): invalid, exit 1
  raw sig "$d/sig.fast" > "$d/sig.raw"
  python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[len(b)//2]^=1; open(sys.argv[2],'wb').write(b)" "$d/sig.raw" "$d/bad.raw"
  rm -f "$d/bad"; "$G" cross import --format raw --params $set --sig "$d/bad.raw" --out "$d/bad" >/dev/null
  out=$("$G" cross verify --pk "$d/pk" --msg "$d/msg" --sig "$d/bad" --json); rc=$?
  check '[ $rc -eq 1 ] && [ "$(echo "$out" | jget "[\"valid\"]")" = False ]' "$set tampered signature exits 1 with valid=false"
  # a damaged or truncated file is an input error (2), not an invalid signature (1)
  damage "$d/sig.fast" "$d/dmg" 3
  "$G" cross verify --pk "$d/pk" --msg "$d/msg" --sig "$d/dmg" >/dev/null 2>&1
  check '[ $? -eq 2 ]' "$set signature file with a base64 character changed exits 2"
  head -c 100 "$d/sig.fast" > "$d/short"
  "$G" cross verify --pk "$d/pk" --msg "$d/msg" --sig "$d/short" >/dev/null 2>&1
  check '[ $? -eq 2 ]' "$set truncated signature exits 2"
  cat "$d/sig.fast" "$d/msg" > "$d/long"
  "$G" cross verify --pk "$d/pk" --msg "$d/msg" --sig "$d/long" >/dev/null 2>&1
  check '[ $? -eq 2 ]' "$set signature with trailing bytes exits 2"
  out=$("$G" cross verify --pk "$d/pk" --msg "$d/msg" --sig "$d/short" --json); rc=$?
  check '[ $rc -eq 2 ] && [ "$(echo "$out" | jget "[\"ok\"]")" = False ]' "$set truncated signature --json: exit 2, one object"
  # damaged secret key files are refused before signing; nothing is written
  lines=$(wc -l < "$d/sk")
  for line in 2 $((lines - 1)); do
    damage "$d/sk" "$d/bad.sk" $line
    out=$("$G" cross sign --sk "$d/bad.sk" --msg "$d/msg" --sig "$d/bad.sig" 2>&1); rc=$?
    check '[ $rc -eq 2 ] && [ ! -e "$d/bad.sig" ]' "$set secret key with a character changed on line $line refused, nothing written (rc=$rc: $out)"
  done
  rm -f "$d/sk.old"; mv "$d/sk" "$d/sk.old"
done

# secret key files: raw seeds through import, key ids, --force, same-file outputs, other sets
"$G" cross keygen --params CROSS-RSDP-1-fast --pk "$d/pk" --sk "$d/sk" >/dev/null
kid=$("$G" cross info "$d/sk" --json | jget '["key_id"]')
raw sk "$d/sk" > "$d/raw.sk"
check '[ $(stat -c %s "$d/raw.sk") -eq 32 ]' "the raw secret key is the 32-byte seed"
out=$("$G" cross sign --sk "$d/raw.sk" --msg "$d/msg" --sig "$d/raw.sig" 2>&1); rc=$?
check '[ $rc -eq 2 ] && [ ! -e "$d/raw.sig" ]' "a raw seed is refused by sign: it goes through import (rc=$rc: $out)"
out=$("$G" cross import --format raw --params CROSS-RSDP-1-fast --sk "$d/raw.sk" --out "$d/imp.sk" --json); rc=$?
check '[ $rc -eq 0 ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ] && [ "$(stat -c %a "$d/imp.sk")" = 600 ]' "import of a raw seed: the key id of its derived public key, mode 0600"
"$G" cross sign --sk "$d/imp.sk" --msg "$d/msg" --sig "$d/raw.sig" >/dev/null && "$G" cross verify --pk "$d/pk" --msg "$d/msg" --sig "$d/raw.sig" >/dev/null
check '[ $? -eq 0 ]' "... it signs and its signature verifies"
"$G" cross import --format raw --sk "$d/raw.sk" --out "$d/noparams" >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e "$d/noparams" ]' "import --format raw without --params exits 2"
out=$("$G" cross sign --params CROSS-RSDP-1-balanced --sk "$d/sk" --msg "$d/msg" --sig "$d/bad.sig" 2>&1); rc=$?
check '[ $rc -eq 2 ] && [ ! -e "$d/bad.sig" ] && echo "$out" | grep -q "CROSS-RSDP-1-fast"' "sign --params of another set exits 2 naming the key's set"
"$G" cross verify --params CROSS-RSDP-1-balanced --pk "$d/pk" --msg "$d/msg" --sig "$d/raw.sig" >/dev/null 2>&1
check '[ $? -eq 2 ]' "verify --params mismatch exits 2"
"$G" cross verify --params CROSS-RSDP-1-fast --pk "$d/pk" --msg "$d/msg" --sig "$d/raw.sig" >/dev/null
check '[ $? -eq 0 ]' "verify with a matching --params"
# a key of another set with the same key size is no longer "signing failed": the file says
"$G" cross import --format raw --params CROSS-RSDP-1-balanced --sk "$d/raw.sk" --out "$d/bal.sk" >/dev/null
"$G" cross sign --sk "$d/bal.sk" --msg "$d/msg" --sig "$d/bal.sig" >/dev/null
out=$("$G" cross verify --pk "$d/pk" --msg "$d/msg" --sig "$d/bal.sig" 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "CROSS-RSDP-1-balanced"' "a signature of another set exits 2 naming it (rc=$rc: $out)"
# a signature of another key of the set: exit 1 naming both key ids
"$G" cross keygen --params CROSS-RSDP-1-fast --pk "$d/o.pk" --sk "$d/o.sk" >/dev/null
oid=$("$G" cross info "$d/o.pk" --json | jget '["key_id"]')
out=$("$G" cross verify --pk "$d/o.pk" --msg "$d/msg" --sig "$d/raw.sig" 2>&1); rc=$?
check '[ $rc -eq 1 ] && echo "$out" | grep -q "signature INVALID" && echo "$out" | grep -q "$kid" && echo "$out" | grep -q "$oid"' "signature from another key exits 1 with both key ids (rc=$rc: $out)"
# wrong type, wrong scheme
out=$("$G" cross verify --pk "$d/raw.sig" --msg "$d/msg" --sig "$d/raw.sig" 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "SIGNATURE"' "a signature given as --pk exits 2 naming SIGNATURE (rc=$rc: $out)"
"$G" slhdsa keygen --pk "$d/slh.pk" --sk "$d/slh.sk" >/dev/null
out=$("$G" cross verify --pk "$d/slh.pk" --msg "$d/msg" --sig "$d/raw.sig" 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "SLH-DSA"' "another scheme's key exits 2 naming it (rc=$rc: $out)"
out=$("$G" cross sign --sk "$d/slh.sk" --msg "$d/msg" --sig "$d/bad.sig" 2>&1); rc=$?
check '[ $rc -eq 2 ] && [ ! -e "$d/bad.sig" ]' "another scheme's secret key exits 2, nothing written"
# --force, same-file outputs
cp "$d/sk" "$d/keep.sk"; rm -f "$d/new.pk"
out=$("$G" cross keygen --params CROSS-RSDP-1-fast --pk "$d/new.pk" --sk "$d/sk" 2>&1); rc=$?
check '[ $rc -eq 2 ] && cmp -s "$d/sk" "$d/keep.sk" && [ ! -e "$d/new.pk" ] && echo "$out" | grep -q "$d/sk"' "keygen refuses to overwrite a secret key, naming it"
"$G" cross keygen --params CROSS-RSDP-1-fast --pk "$d/pk" --sk "$d/sk" --force >/dev/null
check '[ $? -eq 0 ] && ! cmp -s "$d/sk" "$d/keep.sk"' "keygen --force replaces it"
"$G" cross keygen --params CROSS-RSDP-1-fast --pk "$d/same" --sk "$d/same" >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e "$d/same" ]' "keygen --pk naming --sk refused"
cp "$d/sk" "$d/keep.sk"
"$G" cross sign --sk "$d/sk" --msg "$d/msg" --sig "$d/sk" >/dev/null 2>&1
check '[ $? -eq 2 ] && cmp -s "$d/sk" "$d/keep.sk"' "sign --sig naming --sk refused"
cp "$d/msg" "$d/msgcopy"
"$G" cross sign --sk "$d/sk" --msg "$d/msgcopy" --sig "$d/msgcopy" >/dev/null 2>&1
check '[ $? -eq 2 ] && cmp -s "$d/msg" "$d/msgcopy"' "sign --sig naming --msg refused"

# --binary
"$G" cross keygen --pk "$d/b.pk" --sk "$d/b.sk" --binary >/dev/null
"$G" cross sign --sk "$d/b.sk" --msg "$d/msg" --sig "$d/b.sig" --binary >/dev/null
check '[ "$(head -c 4 "$d/b.pk")" = GRVE ] && [ "$(head -c 4 "$d/b.sk")" = GRVE ] && [ "$(head -c 4 "$d/b.sig")" = GRVE ]' "--binary writes binary grove files"
"$G" cross verify --pk "$d/b.pk" --msg "$d/msg" --sig "$d/b.sig" >/dev/null
check '[ $? -eq 0 ]' "binary files verify"
out=$("$G" cross info "$d/b.sig" --json)
check 'echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"scheme\"]==\"CROSS\" and d[\"type\"]==\"SIGNATURE\" and d[\"encoding\"]==\"binary\" and d[\"params\"]==\"CROSS-RSDPG-1-balanced\" and len(d[\"key_id\"])==16 and d[\"sig_bytes\"]==9120 and d[\"category\"]==1"' "info --json fields"
out=$("$G" cross info "$d/b.pk")
check 'echo "$out" | grep -q "grove CROSS PUBLIC KEY, set CROSS-RSDPG-1-balanced, key id" && echo "$out" | grep -q "category 1"' "info text"

# data on stdout: nothing else there; text and JSON go to stderr
"$G" cross keygen --params CROSS-RSDP-1-fast --seed "$(printf '%064x' 7)" --pk - --sk "$d/s7.sk" > "$d/s7.out" 2> "$d/s7.err"
check '[ $? -eq 0 ] && head -1 "$d/s7.out" | grep -q "BEGIN GROVE CROSS PUBLIC KEY" && grep -q "key pair written" "$d/s7.err"' "keygen --pk -: stdout is exactly the public key, the message on stderr"
"$G" cross keygen --params CROSS-RSDP-1-fast --seed "$(printf '%064x' 7)" --pk "$d/s7.pk" --sk "$d/s7b.sk" >/dev/null
check 'cmp -s "$d/s7.out" "$d/s7.pk"' "... the same public key file as written to a file"
"$G" cross keygen --params CROSS-RSDP-1-fast --seed "$(printf '%064x' 8)" --pk - --sk "$d/s8.sk" --json > "$d/s8.out" 2> "$d/s8.err"
check '[ $(raw pk "$d/s8.out" | wc -c) -eq 77 ] && [ "$(jget "[\"ok\"]" < "$d/s8.err")" = True ]' "keygen --pk - --json: the key on stdout, one JSON object on stderr"
"$G" cross sign --sk "$d/s7.sk" --msg "$d/msg" --sig - --json > "$d/s7.sig" 2> "$d/s7.err"
check '[ $? -eq 0 ] && [ $(raw sig "$d/s7.sig" | wc -c) -eq 18432 ] && [ "$(jget "[\"ok\"]" < "$d/s7.err")" = True ]' "sign --sig - --json: stdout is exactly the signature, JSON on stderr"
"$G" cross verify --pk "$d/s7.pk" --msg "$d/msg" --sig - < "$d/s7.sig" >/dev/null
check '[ $? -eq 0 ]' "... and it verifies (signature on stdin)"
"$G" cross export --pk "$d/s7.pk" --format raw --out - > "$d/s7.raw" 2>/dev/null
"$G" cross import --format raw --params CROSS-RSDP-1-fast --pk - --out - < "$d/s7.raw" > "$d/s7.again" 2>/dev/null
check '[ $(stat -c %s "$d/s7.raw") -eq 77 ] && cmp -s "$d/s7.again" "$d/s7.pk"' "export/import through stdin/stdout: the identical public key file"
# a right-length signature with non-zero padding bits is well formed in length but invalid:
# exit 1; a public key with non-zero padding bits is a malformed input: exit 2
flip_last() { python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[-1]^=0x80; open(sys.argv[2],'wb').write(b)" "$1" "$2"; }
raw sig "$d/s7.sig" > "$d/s7.sig.raw"; flip_last "$d/s7.sig.raw" "$d/s7.padsig.raw"
"$G" cross import --format raw --params CROSS-RSDP-1-fast --sig "$d/s7.padsig.raw" --out "$d/s7.padsig" >/dev/null
"$G" cross verify --pk "$d/s7.pk" --msg "$d/msg" --sig "$d/s7.padsig" >/dev/null 2>&1
check '[ $? -eq 1 ]' "right-length signature with bad padding exits 1"
flip_last "$d/s7.raw" "$d/s7.padpk.raw"
"$G" cross import --format raw --params CROSS-RSDP-1-fast --pk "$d/s7.padpk.raw" --out "$d/s7.padpk" >/dev/null
"$G" cross verify --pk "$d/s7.padpk" --msg "$d/msg" --sig "$d/s7.padsig" >/dev/null 2>&1
check '[ $? -eq 2 ]' "public key with bad padding exits 2"

# unknown names, der/pem, missing options are usage errors
"$G" cross keygen --params CROSS-RSDP-7-fast --pk "$d/x" --sk "$d/y" >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e "$d/x" ]' "unknown set exits 2"
"$G" cross sign --strategy turbo --sk "$d/sk" --msg "$d/msg" --sig "$d/z" >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e "$d/z" ]' "unknown strategy exits 2"
out=$("$G" cross keygen --pk "$d/x" --json); rc=$?
check '[ $rc -eq 2 ] && [ "$(echo "$out" | jget "[\"ok\"]")" = False ]' "missing --sk exits 2 with one JSON object"
"$G" cross keygen --pk "$d/x" --sk - >/dev/null 2>&1
check '[ $? -eq 2 ]' "secret key to stdout refused"
for fmt in der pem; do
  out=$("$G" cross export --pk "$d/pk" --format $fmt --out "$d/x" 2>&1); rc=$?
  check '[ $rc -eq 2 ] && [ ! -e "$d/x" ] && echo "$out" | grep -q "no standard DER encoding"' "export --format $fmt exits 2 'no standard DER encoding'"
  "$G" cross import --format $fmt --pk "$d/s7.raw" --out "$d/x" >/dev/null 2>&1
  check '[ $? -eq 2 ] && [ ! -e "$d/x" ]' "import --format $fmt exits 2"
done
out=$("$G" cross export --sk "$d/sk" --format raw --out "$d/raw.sk" 2>&1); rc=$?
check '[ $rc -eq 2 ]' "export refuses to replace an existing secret --out (rc=$rc)"

# the KAT layout: keys and signatures of cross-rsdp-1-fast count 0 (sm = msg || signature)
V="${GROVE_VECTORS_DIR:-}"
if [ -n "$V" ] && [ -f "$V/cross/cross-rsdp-1-fast.json" ]; then
  for set in rsdp-1-fast rsdpg-1-balanced rsdp-3-small; do
    python3 - "$V/cross/cross-$set.json" "$d/kat" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["entries"][0]
msg, sm = bytes.fromhex(e["msg"]), bytes.fromhex(e["sm"])
assert sm[:len(msg)] == msg
for name, b in (("pk", bytes.fromhex(e["pk"])), ("sk", bytes.fromhex(e["sk"])), ("msg", msg), ("sig", sm[len(msg):])):
    open(sys.argv[2] + "." + name, "wb").write(b)
PY
    rm -f "$d/kat.g"*
    for o in pk sk sig; do
      "$G" cross import --format raw --params CROSS-$set --$o "$d/kat.$o" --out "$d/kat.g$o" >/dev/null
      check '[ $? -eq 0 ] && [ "$(raw $o "$d/kat.g$o" | od -An -tx1 -v)" = "$(od -An -tx1 -v "$d/kat.$o")" ]' "KAT $set $o: import raw, export raw gives the reference bytes"
    done
    "$G" cross verify --pk "$d/kat.gpk" --msg "$d/kat.msg" --sig "$d/kat.gsig" >/dev/null
    check '[ $? -eq 0 ]' "KAT $set: the reference signature verifies through import"
    "$G" cross sign --sk "$d/kat.gsk" --msg "$d/kat.msg" --sig "$d/kat.mine" >/dev/null && "$G" cross verify --pk "$d/kat.gpk" --msg "$d/kat.msg" --sig "$d/kat.mine" >/dev/null
    check '[ $? -eq 0 ]' "KAT $set: the imported seed signs, the imported key verifies"
    check '[ "$("$G" cross info "$d/kat.gsk" --json | jget "[\"key_id\"]")" = "$("$G" cross info "$d/kat.gpk" --json | jget "[\"key_id\"]")" ]' "KAT $set: the imported seed and public key carry one key id"
  done
  # deterministic key from the KAT seed (sk = seed)
  sk=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['entries'][0]['sk'])" "$V/cross/cross-rsdp-1-fast.json")
  pkw=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['entries'][0]['pk'])" "$V/cross/cross-rsdp-1-fast.json")
  out=$("$G" cross keygen --params CROSS-RSDP-1-fast --seed "$sk" --pk "$d/kpk" --sk "$d/ksk" --json)
  check '[ "$(echo "$out" | jget "[\"public_key\"]")" = "$pkw" ]' "keygen --seed gives the KAT public key"
fi
out=$("$G" cross keygen --params CROSS-RSDP-1-fast --seed 00 --pk "$d/kpk2" --sk "$d/ksk2" 2>&1)
check '[ $? -eq 2 ]' "seed of the wrong length exits 2"
exit $fail
