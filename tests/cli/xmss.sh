#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove xmss end to end: keygen (seeded: the shared vector's public key; random; refusal to
# overwrite), sign / verify (files, stdin, stdout, --json), tampering and wrong inputs with their
# exit codes, info on key files, public keys and signatures, split (disjoint ranges, the last leaf,
# exhaustion), restored and copied key files refused, corrupted and truncated key files,
# parameter listing, --threads (0 = one per CPU); the envelope (armored and --binary, key ids,
# wrong type / scheme / damaged files, --params as a check), export / import (raw RFC 8391 bytes
# against the vectors, SPKI per RFC 9802 against the RFC's examples, private keys refused).
# GROVE in the environment; VECTORS optional (the shared vectors folder).
set -u
G="${GROVE:?}"
SRCDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export GROVE_STATE_DIR=$d/state XDG_STATE_HOME=$d/xdg
unset GROVE_XMSS_STATE_DIR
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
hex() { od -An -tx1 -v "$1" | tr -d ' \n'; }
cd "$d"
# the key file's layout, from the documents (tests/cli/xmss_keyfile.py): form, state, seal, ...
kfpy() { python3 "$SRCDIR/tests/cli/xmss_keyfile.py" "$@"; }

# raw RFC 8391 bytes of a grove file (export --format raw), as hex
rawhex() { "$G" xmss export --format raw --"$1" "$2" --out - 2>/dev/null | od -An -tx1 -v | tr -d ' \n'; }
# a raw signature file through import, tied to k.pub (set and key id)
imp() { rm -f "$2"; "$G" xmss import --format raw --sig "$1" --pk "${3:-k.pub}" --out "$2" >/dev/null 2>&1; }

# Seeded keygen reproduces the public vector (seed[i] = i).
seed=$(python3 -c "print(bytes(range(96)).hex())")
"$G" xmss keygen --params XMSS-SHA2_10_256 --seed $seed --sk k --pk k.pub --threads 2 >/dev/null
check '[ $? -eq 0 ] && [ "$(stat -c %a k)" = "600" ] && head -1 k.pub | grep -qx -- "-----BEGIN GROVE XMSS PUBLIC KEY-----"' "seeded keygen, key mode 0600, armored public key"
"$G" xmss export --pk k.pub --format raw --out k.raw
check '[ $? -eq 0 ] && [ $(stat -c %s k.raw) -eq 68 ] && [ "$(head -c 4 k.raw | od -An -tx1 | tr -d " \n")" = 00000001 ]' "export --format raw: the 68-byte RFC 8391 public key"
vec="${VECTORS:-}/xmss/XMSS-SHA2_10_256.json"
if [ -n "${VECTORS:-}" ] && [ -f "$vec" ]; then
  want=$(python3 -c "import json; print(json.load(open('$vec'))['pk'])")
  check '[ "$(hex k.raw)" = "$want" ]' "public key (export --format raw) equals the shared vector's"
  python3 -c "import json; open('vec.pub','wb').write(bytes.fromhex(json.load(open('$vec'))['pk']))"
  "$G" xmss import --format raw --params XMSS-SHA2_10_256 --pk vec.pub --out vec.gpub >/dev/null
  check '[ $? -eq 0 ] && cmp -s vec.gpub k.pub' "the vector's raw public key imported is the keygen's grove file, byte for byte"
fi
# --threads 0 (one per CPU, the default) and 1 give the same key; 257 is refused
"$G" xmss keygen --params XMSS-SHA2_10_256 --seed $seed --sk kt0 --pk kt0.pub --threads 0 --no-registry >/dev/null 2>&1
check '[ $? -eq 0 ] && cmp -s kt0.pub k.pub' "--threads 0 (one per CPU) gives the same key"
"$G" xmss keygen --params XMSS-SHA2_10_256 --seed $seed --sk kt1 --pk kt1.pub --threads 1 --no-registry >/dev/null 2>&1
check '[ $? -eq 0 ] && cmp -s kt1.pub k.pub' "--threads 1 gives the same key"
"$G" xmss keygen --params XMSS-SHA2_10_256 --sk kt2 --pk kt2.pub --threads 257 >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e kt2 ]' "--threads above 256 exits 2"
rm -f kt0 kt0.pub kt1 kt1.pub
cp k k.orig
"$G" xmss keygen --params XMSS-SHA2_10_256 --sk k --pk k2.pub >/dev/null 2>&1
check '[ $? -eq 2 ] && cmp -s k k.orig && [ ! -e k2.pub ]' "keygen refuses to overwrite a key file"
"$G" xmss keygen --params XMSS-NOPE --sk kx --pk kx.pub >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e kx ]' "unknown parameter set exits 2"
"$G" xmss keygen --params XMSS-SHA2_10_256 --seed 0011 --sk kx --pk kx.pub >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e kx ]' "seed of the wrong length refused"

printf 'hello xmss' > msg
out=$("$G" --json xmss sign --sk k --msg msg --sig s0)
check '[ $? -eq 0 ] && [ "$(echo "$out" | jget "[\"index\"]")" = 0 ] && [ "$(echo "$out" | jget "[\"remaining\"]")" = 1023 ]' "sign index 0 (--json)"
kid=$(echo "$out" | jget '["key_id"]')
check '[ ${#kid} -eq 16 ] && [ "$("$G" --json xmss info k.pub | jget "[\"key_id\"]")" = "$kid" ]' "sign --json: the key id, the public key's"
if [ -n "${VECTORS:-}" ] && [ -f "$vec" ]; then
  python3 -c "import json; open('m0','wb').write(bytes.fromhex(json.load(open('$vec'))['signatures'][0]['msg']))"
  "$G" xmss sign --sk k.orig --msg m0 --sig v0 --state-dir $d/other >/dev/null
  want=$(python3 -c "import json; print(json.load(open('$vec'))['signatures'][0]['sig'])")
  check '[ "$(rawhex sig v0)" = "$want" ]' "signature at index 0 (export --format raw) equals the shared vector's"
  python3 -c "import json; open('vec.sig','wb').write(bytes.fromhex(json.load(open('$vec'))['signatures'][0]['sig']))"
  imp vec.sig vec.gsig vec.gpub
  check '[ $? -eq 0 ] && cmp -s vec.gsig v0 && "$G" xmss verify --pk vec.gpub --msg m0 --sig vec.gsig >/dev/null' "the vector's raw signature imported is the command's signature, byte for byte, and verifies"
fi
"$G" xmss sign --sk k --msg - --sig - < msg > s1 2>s1.err
check '[ $? -eq 0 ] && head -1 s1 | grep -q "BEGIN GROVE XMSS SIGNATURE" && [ "$(rawhex sig s1 | wc -c)" -eq 5000 ] && grep -q "signed with index 1" s1.err' "sign from stdin to stdout (human text on stderr)"
out=$("$G" xmss verify --pk k.pub --msg msg --sig s1)
check '[ $? -eq 0 ] && [ "$out" = "signature valid (key id $kid)" ]' "verify: exactly 'signature valid (key id ...)'"
out=$("$G" --json xmss verify --pk k.pub --msg - --sig s0 < msg)
check '[ "$(echo "$out" | jget "[\"valid\"]")" = True ] && [ "$(echo "$out" | jget "[\"index\"]")" = 0 ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ] && [ "$(echo "$out" | jget "[\"params\"]")" = XMSS-SHA2_10_256 ]' "verify --json (valid, key_id, params, index), message from stdin"
"$G" xmss verify --pk k.pub --msg msg --sig s1 --params XMSS-SHA2_10_256 >/dev/null
check '[ $? -eq 0 ]' "verify with --params (a check that holds)"
"$G" xmss verify --pk k.pub --msg msg --sig s1 --params XMSSMT-SHA2_20/2_256 >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q "XMSS-SHA2_10_256" v.err' "verify --params of another set: exit 2 naming the file's set"
printf 'hello xmsS' > msg2
"$G" xmss verify --pk k.pub --msg msg2 --sig s1 >/dev/null 2>v.err
check '[ $? -eq 1 ] && grep -q "signature INVALID" v.err' "altered message: 'signature INVALID', exit 1"
out=$("$G" --json xmss verify --pk k.pub --msg msg2 --sig s1)
check '[ $? -eq 1 ] && [ "$(echo "$out" | jget "[\"valid\"]")" = False ]' "verify --json of an invalid signature: valid false, exit 1"
# the raw bytes: tampered, truncated, extended, out of range (through import)
"$G" xmss export --sig s1 --format raw --out s1.raw
cp s1.raw t; printf '\x01' | dd of=t bs=1 seek=100 conv=notrunc 2>/dev/null
imp t t.g; "$G" xmss verify --pk k.pub --msg msg --sig t.g >/dev/null 2>&1
check '[ $? -eq 1 ]' "tampered signature exits 1"
head -c 2499 s1.raw > t; rm -f t.g
"$G" xmss import --format raw --sig t --pk k.pub --out t.g >/dev/null 2>v.err
check '[ $? -eq 2 ] && [ ! -e t.g ] && grep -q "2499 bytes" v.err' "truncated raw signature (wrong length): import exits 2"
cat s1.raw > t; printf '\0' >> t; rm -f t.g
"$G" xmss import --format raw --sig t --params XMSS-SHA2_10_256 --out t.g >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e t.g ]' "raw signature with a trailing byte (wrong length): import exits 2"
cp s1.raw t; printf '\x00\x00\x04\x00' | dd of=t bs=1 seek=0 conv=notrunc 2>/dev/null
imp t t.g; "$G" xmss verify --pk k.pub --msg msg --sig t.g >/dev/null 2>&1
check '[ $? -eq 1 ]' "index 1024 (out of range) exits 1"
cp k.raw t; printf '\x00\x00\x00\x63' | dd of=t bs=1 seek=0 conv=notrunc 2>/dev/null; rm -f t.g
"$G" xmss import --format raw --pk t --family xmss --out t.g >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e t.g ]' "raw public key with an unknown OID: import exits 2"
head -c 67 k.raw > t; rm -f t.g
"$G" xmss import --format raw --pk t --params XMSS-SHA2_10_256 --out t.g >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e t.g ]' "raw public key of the wrong length: import exits 2"

# info
out=$("$G" --json xmss info k)
check '[ "$(echo "$out" | jget "[\"high_water\"]")" = 2 ] && [ "$(echo "$out" | jget "[\"remaining\"]")" = 1022 ] && [ "$(echo "$out" | jget "[\"registry_high_water\"]")" = 2 ]' "info KEYFILE"
check '[ "$(echo "$out" | jget "[\"public_key\"]")" = "$(hex k.raw)" ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ]' "info KEYFILE shows the public key and its key id"
"$G" xmss info k > info.txt
check '[ $? -eq 0 ] && grep -q "key id $kid" info.txt && grep -q "state id" info.txt && grep -q "next index       2" info.txt' "info KEYFILE (text): key id, state id, next index"
out=$("$G" --json xmss info s1)
check '[ "$(echo "$out" | jget "[\"signature_index\"]")" = 1 ] && [ "$(echo "$out" | jget "[\"params\"]")" = XMSS-SHA2_10_256 ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ] && [ "$(echo "$out" | jget "[\"type\"]")" = SIGNATURE ] && [ "$(echo "$out" | jget "[\"encoding\"]")" = armored ]' "info SIG --json: index, set, key id, type, encoding"
"$G" xmss info s1 > info.txt
check '[ $? -eq 0 ] && grep -q "grove XMSS SIGNATURE, set XMSS-SHA2_10_256, key id $kid" info.txt && grep -q "signature index  1" info.txt' "info SIG (text)"
out=$("$G" --json xmss info k.pub)
check '[ "$(echo "$out" | jget "[\"type\"]")" = "PUBLIC KEY" ] && [ "$(echo "$out" | jget "[\"family\"]")" = XMSS ] && [ "$(echo "$out" | jget "[\"pk_bytes\"]")" = 68 ] && [ "$(echo "$out" | jget "[\"sig_bytes\"]")" = 2500 ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ]' "info PK --json"
out=$("$G" --json xmss info - < s1)
check '[ "$(echo "$out" | jget "[\"signature_index\"]")" = 1 ]' "info - (stdin)"
"$G" info s1 >/dev/null 2>&1
check '[ $? -eq 0 ]' "grove info describes an XMSS signature"

# a restored (older) copy is refused; the registry catches it
cp k k.old
"$G" xmss sign --sk k --msg msg --sig s2 >/dev/null
cp k.old k
"$G" xmss sign --sk k --msg msg --sig s3 >/dev/null 2>err
check '[ $? -eq 3 ] && [ ! -e s3 ] && grep -q "old copy" err' "restored key file refused (exit 3)"
"$G" xmss info k >/dev/null 2>&1
check '[ $? -eq 3 ]' "info flags the stale key file (exit 3)"
"$G" xmss keygen --params XMSS-SHA2_10_256 --seed $seed --sk kre --pk kre.pub >/dev/null 2>err
check '[ $? -eq 3 ] && [ ! -e kre ]' "regenerating a key that already signed here is refused"

# a fresh key for the rest (the restored one stays stale)
"$G" xmss keygen --params XMSSMT-SHA2_20/4_256 --sk m --pk m.pub >/dev/null
for i in 1 2 3; do "$G" xmss sign --sk m --msg msg --sig ms$i >/dev/null; done
"$G" xmss verify --pk m.pub --msg msg --sig ms3 >/dev/null
check '[ $? -eq 0 ]' "XMSS^MT sign and verify (family from the signature size)"
# split: the last leaf and exhaustion
out=$("$G" --json xmss split --sk m --out m2 --count 2)
check '[ $? -eq 0 ] && [ "$(echo "$out" | jget "[\"new_range_start\"]")" = 1048574 ] && [ "$(echo "$out" | jget "[\"range_end\"]")" = 1048574 ]' "split off the last 2 indices"
check '[ "$(stat -c %a m2)" = "600" ]' "split key file mode 0600"
"$G" xmss split --sk m --out m2 --count 2 >/dev/null 2>&1
check '[ $? -eq 2 ]' "split refuses an existing output file"
"$G" xmss split --sk m --out m3 --count 2000000 >/dev/null 2>&1
check '[ $? -eq 3 ] && [ ! -e m3 ]' "split of more indices than left exits 3"
o1=$("$G" --json xmss sign --sk m2 --msg msg --sig l1 | jget '["index"]')
o2=$("$G" --json xmss sign --sk m2 --msg msg --sig l2 | jget '["index"]')
check '[ "$o1" = 1048574 ] && [ "$o2" = 1048575 ]' "the split key signs its own range, up to the last leaf"
"$G" xmss verify --pk m.pub --msg msg --sig l2 >/dev/null
check '[ $? -eq 0 ]' "last-leaf signature (index 2^h - 1) verifies"
"$G" xmss sign --sk m2 --msg msg --sig l3 >/dev/null 2>err
check '[ $? -eq 3 ] && [ ! -e l3 ] && grep -q exhausted err' "exhausted key exits 3"
out=$("$G" --json xmss info m2)
check '[ "$(echo "$out" | jget "[\"exhausted\"]")" = True ] && [ "$(echo "$out" | jget "[\"remaining\"]")" = 0 ]' "info: exhausted"
kfpy state m2 m2.state
check '[ "$(kfpy form m2)" = armored ] && ! python3 -c "import sys; b=open(\"m2.state\",\"rb\").read(); sys.exit(0 if any(b[72:72+64]) else 1)"' "exhausted key file holds no seeds (its state, inside the envelope)"
o4=$("$G" --json xmss sign --sk m --msg msg --sig ms4 | jget '["index"]')
check '[ "$o4" = 3 ]' "the original key goes on below the split point"

# corrupted and truncated key files: clear errors, nothing signed. The armored file (every byte
# of its text), the binary file (bytes of the header and of the state inside), and the state's
# fields at fixed offsets of the state (docs/xmss.md) in both forms, the envelope's check left
# as it was; then states and descriptions altered under a recomputed envelope check.
"$G" xmss keygen --params XMSSMT-SHAKE256_20/4_192 --sk c --pk c.pub >/dev/null
"$G" xmss keygen --params XMSSMT-SHAKE256_20/4_192 --sk cbin --pk cbin.pub --binary >/dev/null
cid=$("$G" --json xmss info c | jget '["state_id"]'); cbid=$("$G" --json xmss info cbin | jget '["state_id"]')
cp "$GROVE_STATE_DIR/xmss/$cid" c.entry; cp "$GROVE_STATE_DIR/xmss/$cbid" cbin.entry
# refused, nothing written, nothing reserved (both registry entries as they were)
refused() { [ $1 -ne 0 ] && [ ! -e cs ] && [ -s err ] && cmp -s "$GROVE_STATE_DIR/xmss/$cid" c.entry && cmp -s "$GROVE_STATE_DIR/xmss/$cbid" cbin.entry; }
sz=$(stat -c %s c)
for pos in 0 9 12 17 25 41 50 80 $((sz / 2)) $((sz - 1)); do
  cp c cb; printf '\xff' | dd of=cb bs=1 seek=$pos conv=notrunc 2>/dev/null
  cmp -s c cb && { printf '\x00' | dd of=cb bs=1 seek=$pos conv=notrunc 2>/dev/null; }
  "$G" xmss sign --sk cb --msg msg --sig cs >/dev/null 2>err; rc=$?
  check 'refused $rc' "corrupted armored key byte $pos refused (rc=$rc: $(head -c 100 err))"
done
szb=$(stat -c %s cbin)
for pos in 0 4 5 6 9 20 40 50 60 70 $((szb / 2)) $((szb - 1)); do
  cp cbin cb; printf '\xff' | dd of=cb bs=1 seek=$pos conv=notrunc 2>/dev/null
  cmp -s cbin cb && { printf '\x00' | dd of=cb bs=1 seek=$pos conv=notrunc 2>/dev/null; }
  "$G" xmss sign --sk cb --msg msg --sig cs >/dev/null 2>err; rc=$?
  check 'refused $rc' "corrupted binary key byte $pos refused (rc=$rc: $(head -c 100 err))"
done
for f in c cbin; do
  for off in 0 9 10 12 17 25 33 41 50 64 68 80 1000 5000; do
    kfpy flip $f cb $off
    "$G" xmss sign --sk cb --msg msg --sig cs >/dev/null 2>err; rc=$?
    check 'refused $rc && [ $rc -eq 3 ] && grep -q "integrity check failed" err' "$f: state byte $off changed: an integrity failure (exit 3, rc=$rc: $(head -c 100 err))"
  done
done
kfpy swap64 c cb
"$G" xmss sign --sk cb --msg msg --sig cs >/dev/null 2>err; rc=$?
check 'refused $rc && [ $rc -eq 3 ] && grep -q "integrity check failed" err' "armored key with one base64 character changed: an integrity failure (exit 3, rc=$rc)"
# the envelope's check recomputed: the state's own check still refuses a changed state
kfpy state cbin cbin.state
python3 -c "b=bytearray(open('cbin.state','rb').read()); b[200]^=1; open('cb.state','wb').write(b)"
kfpy seal cbin cb.state cb
"$G" xmss sign --sk cb --msg msg --sig cs >/dev/null 2>err; rc=$?
check 'refused $rc && [ $rc -eq 3 ] && grep -q "integrity check failed" err' "a changed state in a resealed envelope: the state's own check refuses it (exit 3, rc=$rc)"
# ... and a description that is not the key's (another set, or another key's id)
kfpy seal cbin cbin.state cb XMSSMT-SHAKE256_20/2_192
"$G" xmss sign --sk cb --msg msg --sig cs >/dev/null 2>err; rc=$?
check 'refused $rc && [ $rc -eq 3 ] && grep -q "does not match" err' "an envelope naming another set than the state's: refused (exit 3, rc=$rc: $(head -c 160 err))"
kfpy state c c.state
kfpy seal cbin c.state cb
"$G" xmss sign --sk cb --msg msg --sig cs >/dev/null 2>err; rc=$?
check 'refused $rc && [ $rc -eq 3 ] && grep -q "does not match" err' "an envelope carrying another key's id: refused (exit 3, rc=$rc)"
head -c $((sz - 10)) c > cb
"$G" xmss sign --sk cb --msg msg --sig cs >/dev/null 2>err; rc=$?
check 'refused $rc && [ $rc -eq 2 ] && grep -q "truncated" err' "truncated armored key file (exit 2)"
head -c $((szb - 10)) cbin > cb
"$G" xmss sign --sk cb --msg msg --sig cs >/dev/null 2>err; rc=$?
check 'refused $rc && [ $rc -eq 2 ] && grep -q "truncated" err' "truncated binary key file (exit 2)"
head -c $((szb / 2)) cbin > cb
"$G" info cb >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && grep -q "truncated" err' "grove info: a truncated key file is exit 2 ($(head -c 100 err))"
kfpy flip cbin cb 300
"$G" info cb >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && grep -q "integrity" err' "grove info: a damaged key file is refused ($(head -c 100 err))"
o=$("$G" --json xmss info c | jget '["high_water"]')
o2=$("$G" --json xmss sign --sk cbin --msg msg --sig cs | jget '["index"]'); rm -f cs
check '[ "$o" = 0 ] && [ "$o2" = 0 ]' "the intact files are at index 0 (the binary one signs it): nothing was reserved by the refusals"
: > cb
"$G" xmss info cb >/dev/null 2>&1
check '[ $? -eq 2 ]' "empty key file (exit 2)"
"$G" xmss sign --sk c.pub --msg msg --sig cs >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e cs ]' "public key given as a private key refused"
"$G" xmss sign --sk nonexistent --msg msg --sig cs >/dev/null 2>&1
check '[ $? -eq 2 ]' "missing key file exits 2"
"$G" xmss sign --sk c --msg nonexistent --sig cs >/dev/null 2>&1
check '[ $? -eq 2 ] && [ "$("$G" --json xmss info c | jget "[\"high_water\"]")" = 0 ]' "missing message: refused before an index is reserved"

# ---- issue 16 regressions ----------------------------------------------------------------------
# 1: a restored pre-split copy must not sign indices that belong to the split part
"$G" xmss keygen --params XMSS-SHA2_10_256 --sk r1 --pk r1.pub --threads 2 >/dev/null
cp r1 r1.presplit
timeout 60 "$G" xmss split --sk r1 --out r1.part --count 1020 >/dev/null
"$G" --json xmss sign --sk r1.part --msg msg --sig r1.p0 | jget '["index"]' > r1.idx
cp r1.presplit r1
for i in 1 2 3 4 5; do "$G" xmss sign --sk r1 --msg msg --sig r1.s$i >/dev/null 2>r1.err; echo $? > r1.rc$i; done
check '[ "$(cat r1.idx)" = 4 ] && [ "$(cat r1.rc1)" = 3 ] && [ ! -e r1.s1 ] && [ ! -e r1.s5 ] && grep -q "before a split" r1.err && grep -q "grove xmss recover" r1.err' "restored pre-split copy refused (exit 3) with the recovery command ($(head -c 200 r1.err))"
"$G" xmss info r1 >r1.info 2>&1
check '[ $? -eq 3 ] && grep -q STALE r1.info' "info: the pre-split copy is stale (exit 3)"
"$G" --json xmss recover --sk r1 > r1.rec
check '[ $? -eq 0 ] && [ "$(jget "[\"range_end\"]" < r1.rec)" = 4 ] && [ "$(jget "[\"changed\"]" < r1.rec)" = True ]' "recover: range end lowered to the registry's (4)"
for i in 1 2 3 4 5; do "$G" --json xmss sign --sk r1 --msg msg --sig r1.t$i 2>/dev/null | jget '["index"]' 2>/dev/null; done > r1.after
check '[ "$(tr "\n" " " < r1.after)" = "0 1 2 3 " ] && [ ! -e r1.t5 ]' "after recovery: indices 0-3 only, then exhausted ($(tr "\n" " " < r1.after))"
"$G" xmss recover --sk r1 >/dev/null
check '[ $? -eq 0 ]' "recover of a current file: nothing to do (exit 0)"
cp r1.presplit r1.again
"$G" xmss recover --sk r1.again --no-registry >/dev/null 2>&1
check '[ $? -eq 2 ]' "recover refuses --no-registry"
# a restored copy that is merely behind (signed since): fast-forward to the high-water mark
cp r1.part r1.part.old
"$G" xmss sign --sk r1.part --msg msg --sig r1.p1 >/dev/null
cp r1.part.old r1.part
"$G" xmss sign --sk r1.part --msg msg --sig r1.p2 >/dev/null 2>&1
check '[ $? -eq 3 ] && [ ! -e r1.p2 ]' "restored split part refused"
o=""; "$G" xmss recover --sk r1.part >/dev/null && o=$("$G" --json xmss sign --sk r1.part --msg msg --sig r1.p2 | jget '["index"]')
check '[ "$o" = 6 ]' "recovered part signs after the registry's high-water mark (index $o)"

# 2: split of everything that remains: no deadlock, distinct ids, both files usable as recorded
"$G" xmss keygen --params XMSS-SHA2_10_256 --sk a1 --pk a1.pub --threads 2 >/dev/null
cp a1 a1.keep
timeout 60 "$G" xmss split --sk a1 --out a1.part --count 1024 >/dev/null 2>a1.err; rc=$?
check '[ $rc -eq 0 ]' "split --count <all> of a fresh key completes (exit $rc: $(head -c 100 a1.err))"
ida=$("$G" --json xmss info a1 2>/dev/null | jget '["state_id"]' 2>/dev/null); idb=$("$G" --json xmss info a1.part 2>/dev/null | jget '["state_id"]' 2>/dev/null)
check '[ -n "$ida" ] && [ -n "$idb" ] && [ "$ida" != "$idb" ]' "the part has its own state id (registry entry)"
ka=$("$G" --json xmss info a1 2>/dev/null | jget '["key_id"]' 2>/dev/null); kb=$("$G" --json xmss info a1.part 2>/dev/null | jget '["key_id"]' 2>/dev/null)
check '[ -n "$ka" ] && [ "$ka" = "$kb" ] && [ "$ka" = "$("$G" --json xmss info a1.pub | jget "[\"key_id\"]")" ]' "the part has its public key's key id (one public key)"
o=$("$G" --json xmss sign --sk a1.part --msg msg --sig a1.p0 2>/dev/null | jget '["index"]' 2>/dev/null)
check '[ "$o" = 0 ] && "$G" xmss verify --pk a1.pub --msg msg --sig a1.p0 >/dev/null' "the part signs index 0 validly"
"$G" xmss sign --sk a1 --msg msg --sig a1.s1 >/dev/null 2>&1
check '[ $? -eq 3 ] && [ ! -e a1.s1 ]' "the source gave its whole range away (exhausted, exit 3)"
cp a1.keep a1.old
"$G" xmss sign --sk a1.old --msg msg --sig a1.s2 >/dev/null 2>&1
check '[ $? -eq 3 ] && [ ! -e a1.s2 ]' "the source's pre-split copy is refused"
timeout 60 "$G" xmss split --sk a1.part --out a1.part2 --count 1023 >/dev/null 2>&1
check '[ $? -eq 0 ] && [ "$("$G" --json xmss info a1.part2 | jget "[\"range_start\"]")" = 1 ]' "a part splits again (grandchild [1, 1024))"

# 10: --params is a check of the file's set; a raw public key's family is asked for when its
# bytes cannot tell (import), and a raw signature's set too
"$G" xmss verify --pk k.pub --msg msg --sig s1 --params XMSS-SHA2_16_256 >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q "XMSS-SHA2_10_256" v.err' "verify --params XMSS-SHA2_16_256 refuses a XMSS-SHA2_10_256 key (exit 2)"
rm -f t.g; "$G" xmss import --format raw --pk k.raw --out t.g >/dev/null 2>v.err
check '[ $? -eq 2 ] && [ ! -e t.g ] && grep -q -- "--family" v.err' "import of a raw public key whose OID both families use asks for the family"
out=$("$G" --json xmss import --format raw --pk k.raw --family xmss --out t.g)
check '[ "$(echo "$out" | jget "[\"params\"]")" = XMSS-SHA2_10_256 ] && cmp -s t.g k.pub' "import --family xmss: the same grove file as keygen's"
"$G" xmss import --format raw --pk k.raw --params XMSSMT-SHA2_20/2_256 --out t.g2 >/dev/null 2>&1
check '[ $? -eq 0 ] && [ "$("$G" --json xmss info t.g2 | jget "[\"params\"]")" = XMSSMT-SHA2_20/2_256 ]' "import --params picks the XMSS^MT reading of OID 1"
"$G" xmss import --format raw --pk k.raw --params XMSS-SHA2_16_256 --out t.g3 >/dev/null 2>v.err
check '[ $? -eq 2 ] && [ ! -e t.g3 ] && grep -q "XMSS-SHA2_10_256" v.err' "import --params of a set the OID is not: exit 2"
"$G" xmss import --format raw --sig s1.raw --out t.g3 >/dev/null 2>v.err
check '[ $? -eq 2 ] && [ ! -e t.g3 ] && grep -q -- "--params" v.err' "import of a raw signature without --params or --pk: exit 2"
"$G" xmss import --format raw --sig s1.raw --params XMSSMT-SHA2_20/2_256 --out t.g3 >/dev/null 2>v.err
check '[ $? -eq 2 ] && [ ! -e t.g3 ]' "a raw signature of another set's length: exit 2"
"$G" xmss import --format raw --sig s1.raw --params XMSS-SHA2_10_256 --out s1.nokey >/dev/null
"$G" xmss verify --pk k.pub --msg msg --sig s1.nokey >/dev/null
check '[ $? -eq 0 ] && [ "$("$G" --json xmss info s1.nokey | python3 -c "import json,sys; print(\"key_id\" in json.load(sys.stdin))")" = False ]' "a raw signature imported with --params only (no key id) verifies"
imp s1.raw s1.again
check '[ $? -eq 0 ] && cmp -s s1.again s1' "export raw then import raw --pk: the signature file byte for byte"

# 11: outputs that are inputs or state are refused before anything is reserved
cp k.pub kp.keep
"$G" xmss keygen --params XMSS-SHA2_10_256 --sk same --pk same >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e same ]' "keygen --pk = --sk refused"
"$G" xmss keygen --params XMSS-SHA2_10_256 --sk o1 --pk o1.pub --threads 2 >/dev/null
cp o1 o1.keep
"$G" xmss sign --sk o1 --msg msg --sig o1 >/dev/null 2>&1
check '[ $? -eq 2 ] && cmp -s o1 o1.keep' "sign --sig = --sk refused, key file unchanged"
cp msg msg.keep
"$G" xmss sign --sk o1 --msg msg --sig msg >/dev/null 2>&1
check '[ $? -eq 2 ] && cmp -s msg msg.keep && cmp -s o1 o1.keep' "sign --sig = --msg refused, nothing reserved"
ln o1 o1.link
"$G" xmss split --sk o1 --out o1.link --count 2 >/dev/null 2>&1
check '[ $? -eq 2 ] && cmp -s o1 o1.keep' "split --out = --sk (hard link) refused"
rm -f o1.link

# 12: stdin closed: refused before an index is reserved (nothing signed, the key unchanged)
cp o1 o1.before12
"$G" xmss sign --sk o1 --msg - --sig o1.sig <&- >/dev/null 2>o1.err; rc=$?
check '[ $rc -eq 2 ] && [ ! -e o1.sig ] && cmp -s o1 o1.before12 && grep -q "standard input" o1.err' "stdin closed: refused (exit $rc), no index reserved, nothing written"

# 13/14: reads capped at the object's size; a signature of the wrong length is exit 2
head -c 3000 /dev/zero > t
"$G" xmss verify --pk k.pub --msg msg --sig t >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q "import" v.err' "a raw (headerless) signature file: exit 2, pointing to import"
cat o1.keep > big.key; head -c 1000000 /dev/zero >> big.key
"$G" xmss sign --sk big.key --msg msg --sig t2 >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q "larger than any key file" v.err' "a key file larger than its set's maximum is refused unread"
head -c 200000 /dev/zero > t
"$G" xmss verify --pk k.pub --msg msg --sig t >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q "too large" v.err' "an oversized signature file is refused unread"
head -c 200000 /dev/zero > t; rm -f t.g
"$G" xmss import --format raw --sig t --params XMSS-SHA2_10_256 --out t.g >/dev/null 2>v.err
check '[ $? -eq 2 ] && [ ! -e t.g ] && grep -q "too large" v.err' "import reads at most the set's signature length"

# 8: a one-bit change anywhere in a key file is refused before anything is reserved
"$G" xmss keygen --params XMSSMT-SHA2_20/4_256 --sk b8 --pk b8.pub --threads 2 >/dev/null
"$G" xmss sign --sk b8 --msg msg --sig b8.s >/dev/null
b8id=$("$G" --json xmss info b8 | jget '["state_id"]')
cp b8 b8.keep; cp "$GROVE_STATE_DIR/xmss/$b8id" b8.entry
sz=$(stat -c %s b8); okb=1; nb=0
for pos in $(python3 -c "import random; r=random.Random(16); print(' '.join(str(x) for x in sorted(set(list(range(0,100,3))+[r.randrange($sz) for _ in range(60)]+[$sz-1]))))"); do
  bit=$((pos % 8)); nb=$((nb+1))
  python3 -c "b=bytearray(open('b8.keep','rb').read()); b[$pos]^=1<<$bit; open('b8','wb').write(b)"
  "$G" xmss sign --sk b8 --msg msg --sig b8.bad >/dev/null 2>b8.err; rc=$?
  if ! { [ $rc -eq 2 ] || [ $rc -eq 3 ]; } || [ -e b8.bad ] || [ ! -s b8.err ] || ! cmp -s "$GROVE_STATE_DIR/xmss/$b8id" b8.entry; then
    okb=0; echo "bit $bit of byte $pos: rc=$rc $(head -c 100 b8.err)"; fi
  python3 -c "import sys; b=bytearray(open('b8.keep','rb').read()); b[$pos]^=1<<$bit; sys.exit(0 if open('b8','rb').read()==bytes(b) else 1)" || okb=0
  rm -f b8.bad
done
cp b8.keep b8
o=$("$G" --json xmss sign --sk b8 --msg msg --sig b8.s2 | jget '["index"]')
check '[ $okb = 1 ] && [ "$o" = 1 ]' "$nb one-bit changes refused (exit 2/3, file untouched, nothing signed); the intact file goes on at index 1"

# ---- the envelope (issue 18) -----------------------------------------------------------------------
# --binary: binary envelopes, read like the armored ones
"$G" xmss keygen --params XMSS-SHA2_10_256 --sk eb --pk eb.pub --binary --threads 2 >/dev/null
"$G" xmss sign --sk eb --msg msg --sig eb.sig --binary >/dev/null
check '[ "$(head -c 4 eb.pub)" = GRVE ] && [ "$(head -c 4 eb.sig)" = GRVE ] && "$G" xmss verify --pk eb.pub --msg msg --sig eb.sig >/dev/null' "--binary key and signature (magic GRVE) verify"
check '[ "$("$G" --json xmss info eb.sig | jget "[\"encoding\"]")" = binary ]' "info: encoding binary"
"$G" xmss import --format raw --pk k.raw --family xmss --binary --out kb.pub >/dev/null
check '[ "$(head -c 4 kb.pub)" = GRVE ] && "$G" xmss verify --pk kb.pub --msg msg --sig s1 >/dev/null' "import --binary; the binary public key verifies the armored signature"
# the wrong type, the wrong scheme, a damaged file: exit 2 naming what the file is
"$G" xmss verify --pk s1 --msg msg --sig s1 >/dev/null 2>v.err; rc=$?
check '[ $rc -eq 2 ] && grep -q "SIGNATURE" v.err' "a signature given as --pk: exit 2 naming SIGNATURE ($(head -c 120 v.err))"
"$G" xmss verify --pk k.pub --msg msg --sig k.pub >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q "PUBLIC KEY" v.err' "a public key given as --sig: exit 2 naming PUBLIC KEY"
"$G" xmss verify --pk k --msg msg --sig s1 >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q "SECRET KEY" v.err' "a private key file given as --pk: exit 2 naming SECRET KEY"
out=$("$G" --json xmss info k)
check '[ "$(echo "$out" | jget "[\"type\"]")" = "SECRET KEY" ] && [ "$(echo "$out" | jget "[\"encoding\"]")" = armored ] && [ "$(echo "$out" | jget "[\"scheme\"]")" = XMSS ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$("$G" --json xmss info k.pub | jget "[\"key_id\"]")" ]' "info KEYFILE --json: type SECRET KEY, armored, its public key's key id"
python3 - <<'PY'
import hashlib, struct
def env(scheme, pset, typ, body, kid=None):
    h = b"GRVE" + bytes([1, 1 if kid else 0])
    for x in (scheme, pset, typ):
        h += bytes([len(x)]) + x.encode()
    h += (kid or bytes(8)) + struct.pack(">I", len(body)) + body
    return h + hashlib.sha256(b"grove envelope v1" + h).digest()
open("slh.pub", "wb").write(env("SLH-DSA", "SLH-DSA-SHA2-128s", "PUBLIC KEY", bytes(32), bytes(range(8))))
PY
"$G" xmss verify --pk slh.pub --msg msg --sig s1 >/dev/null 2>v.err; rc=$?
check '[ $rc -eq 2 ] && grep -q "SLH-DSA" v.err' "another scheme's public key: exit 2 naming SLH-DSA ($(head -c 120 v.err))"
"$G" xmss info slh.pub >/dev/null 2>&1
check '[ $? -eq 2 ]' "info of another scheme's file: exit 2"
"$G" xmss sign --sk k.pub --msg msg --sig t.s >/dev/null 2>v.err
check '[ $? -eq 2 ] && [ ! -e t.s ] && grep -q "PUBLIC KEY" v.err' "a public key given as --sk: exit 2 naming PUBLIC KEY"
python3 -c "
l=open('k.pub').read().split('\n'); s=l[2]; c='A' if s[10]!='A' else 'B'
l[2]=s[:10]+c+s[11:]; open('kd.pub','w').write('\n'.join(l))"
"$G" xmss verify --pk kd.pub --msg msg --sig s1 >/dev/null 2>v.err; rc=$?
check '[ $rc -eq 2 ]' "a public key with one base64 character changed: exit 2 ($(head -c 120 v.err))"
"$G" xmss verify --pk k.raw --msg msg --sig s1 >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q "import" v.err' "a raw public key: exit 2, pointing to import"
# --params on sign is a check, made before an index is reserved
hw=$("$G" --json xmss info o1 | jget '["high_water"]')
"$G" xmss sign --sk o1 --msg msg --sig t.s --params XMSS-SHA2_16_256 >/dev/null 2>v.err
check '[ $? -eq 2 ] && [ ! -e t.s ] && grep -q "XMSS-SHA2_10_256" v.err && [ "$("$G" --json xmss info o1 | jget "[\"high_water\"]")" = "$hw" ]' "sign --params of another set: exit 2, nothing reserved"
"$G" xmss sign --sk o1 --msg msg --sig o1.s --params xmss-sha2_10_256 >/dev/null
check '[ $? -eq 0 ]' "sign --params of the key's own set (any case)"
# a signature of another key: exit 1 naming both key ids
oid=$("$G" --json xmss info o1.pub | jget '["key_id"]')
"$G" xmss verify --pk k.pub --msg msg --sig o1.s >/dev/null 2>v.err
check '[ $? -eq 1 ] && grep -q "signature INVALID" v.err && grep -q "$oid" v.err && grep -q "$kid" v.err' "a signature of another key: exit 1 naming both key ids"
# export / import: raw, der, pem (SPKI per RFC 9802)
"$G" xmss export --pk k.pub --format raw --out - > t.raw 2>t.err
check '[ $? -eq 0 ] && cmp -s t.raw k.raw && [ -s t.err ]' "export --out - writes the raw key on stdout, the text on stderr"
"$G" xmss export --pk k.pub --format der --out k.der >/dev/null
check '[ $? -eq 0 ] && openssl asn1parse -inform DER -in k.der | grep -q "OBJECT *:1.3.6.1.5.5.7.6.34" && openssl asn1parse -inform DER -in k.der | grep -q "BIT STRING"' "export --format der: an SPKI with id-alg-xmss-hashsig (openssl asn1parse)"
check '[ "$(tail -c 68 k.der | od -An -tx1 -v | tr -d " \n")" = "$(hex k.raw)" ]' "the SPKI's BIT STRING holds the RFC 8391 key"
"$G" xmss export --pk k.pub --format pem --out k.pem >/dev/null
check '[ $? -eq 0 ] && head -1 k.pem | grep -qx -- "-----BEGIN PUBLIC KEY-----" && openssl asn1parse -in k.pem | grep -q "1.3.6.1.5.5.7.6.34"' "export --format pem"
"$G" xmss import --format der --pk k.der --out k.fromder >/dev/null && "$G" xmss import --format pem --pk k.pem --out k.frompem >/dev/null
check '[ $? -eq 0 ] && cmp -s k.fromder k.pub && cmp -s k.frompem k.pub' "import der and pem: the same grove file (the SPKI OID names the family)"
"$G" xmss import --format der --pk k.der --params XMSS-SHA2_16_256 --out t.g4 >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e t.g4 ]' "import der with a disagreeing --params: exit 2"
"$G" xmss export --pk m.pub --format der --out m.der >/dev/null
check '[ $? -eq 0 ] && openssl asn1parse -inform DER -in m.der | grep -q "1.3.6.1.5.5.7.6.35"' "XMSS^MT: id-alg-xmssmt-hashsig"
"$G" xmss import --format der --pk m.der --out m.fromder >/dev/null
check '[ $? -eq 0 ] && cmp -s m.fromder m.pub' "XMSS^MT SPKI import: the same grove file"
"$G" xmss export --sig s1 --format der --out t.der >/dev/null 2>v.err
check '[ $? -eq 2 ] && [ ! -e t.der ] && grep -q "no standard DER encoding" v.err' "export of a signature as der: exit 2, no standard encoding"
"$G" xmss export --sk k --format raw --out t.sk >/dev/null 2>v.err
check '[ $? -eq 2 ] && [ ! -e t.sk ] && grep -q "split" v.err' "export of a private key refused (exit 2), pointing to split"
"$G" xmss import --format raw --sk k.raw --params XMSS-SHA2_10_256 --out t.sk >/dev/null 2>v.err
check '[ $? -eq 2 ] && [ ! -e t.sk ] && grep -q "split" v.err' "import of a private key refused (exit 2)"
# the RFC 9802 example certificates: their SPKI imported and exported byte for byte
for which in XMSS XMSSMT; do
  python3 - "$SRCDIR/tests/pkix/rfc_examples.h" $which <<'PY'
import base64, re, sys
text = open(sys.argv[1]).read()
block = text.split("RFC9802_%s_CERT_PEM[] = {" % sys.argv[2])[1].split("};")[0]
lines = re.findall(r'"([^"]*)"', block)
der = base64.b64decode("".join(l for l in lines if not l.startswith("-----")))
def tlv(b, i):
    t = b[i]; l = b[i + 1]; i += 2
    if l & 0x80:
        n = l & 0x7f; l = int.from_bytes(b[i:i + n], "big"); i += n
    return t, i, l
_, i, _ = tlv(der, 0)             # Certificate
_, i, _ = tlv(der, i)             # tbsCertificate
for _ in range(6):                # [0] version, serial, signature, issuer, validity, subject
    _, j, l = tlv(der, i); i = j + l
_, j, l = tlv(der, i)             # subjectPublicKeyInfo
open("rfc.spki", "wb").write(der[i:j + l])
PY
  "$G" xmss import --format der --pk rfc.spki --out rfc.pub >/dev/null && "$G" xmss export --pk rfc.pub --format der --out rfc.again >/dev/null
  check '[ $? -eq 0 ] && cmp -s rfc.spki rfc.again' "RFC 9802 $which example: SPKI import then export, byte-identical"
done

# the private-key file in the envelope: armored by default, binary with --binary; every rewrite
# (reservations, splits, recovery) keeps the form it found; a bare key file of an older grove is
# read, and rewritten as the binary envelope at its next durable write
"$G" xmss keygen --params XMSS-SHA2_10_256 --sk fa --pk fa.pub --threads 2 >/dev/null
"$G" xmss keygen --params XMSS-SHA2_10_256 --sk fb --pk fb.pub --threads 2 --binary >/dev/null
check '[ "$(kfpy form fa)" = armored ] && [ "$(head -1 fa)" = "-----BEGIN GROVE XMSS SECRET KEY-----" ] && [ "$(kfpy form fb)" = binary ] && [ "$(head -c 4 fb)" = GRVE ] && [ "$(head -c 4 fb.pub)" = GRVE ] && [ "$(stat -c %a fa)" = 600 ] && [ "$(stat -c %a fb)" = 600 ]' "keygen: armored key file by default, binary with --binary (mode 0600)"
for f in fa fb; do
  out=$("$G" --json info $f)
  want=$([ $f = fa ] && echo armored || echo binary)
  check '[ "$(echo "$out" | jget "[\"type\"]")" = "SECRET KEY" ] && [ "$(echo "$out" | jget "[\"scheme\"]")" = XMSS ] && [ "$(echo "$out" | jget "[\"params\"]")" = XMSS-SHA2_10_256 ] && [ "$(echo "$out" | jget "[\"encoding\"]")" = $want ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$("$G" --json info $f.pub | jget "[\"key_id\"]")" ]' "grove info $f: XMSS SECRET KEY, $want, the key id of its public key"
  out=$("$G" --json xmss info $f)
  check '[ "$(echo "$out" | jget "[\"encoding\"]")" = $want ] && "$G" xmss info $f | grep -q "$want"' "grove xmss info $f shows the form ($want)"
  for i in 1 2 3; do "$G" xmss sign --sk $f --msg msg --sig $f.s$i >/dev/null; done
  check '[ "$(kfpy form $f)" = $want ] && "$G" xmss verify --pk $f.pub --msg msg --sig $f.s3 >/dev/null && [ "$("$G" --json xmss info $f | jget "[\"high_water\"]")" = 3 ]' "$f: three signatures verify; the file stays $want over the reservations"
done
"$G" xmss split --sk fa --out fa.p1 --count 100 --threads 2 >/dev/null
"$G" xmss split --sk fa --out fa.p2 --count 100 --threads 2 --binary >/dev/null
"$G" xmss split --sk fb --out fb.p1 --count 100 --threads 2 >/dev/null
check '[ "$(kfpy form fa)" = armored ] && [ "$(kfpy form fb)" = binary ] && [ "$(kfpy form fa.p1)" = armored ] && [ "$(kfpy form fa.p2)" = binary ] && [ "$(kfpy form fb.p1)" = armored ]' "split: the source keeps its form; the part is armored, binary with --binary"
ok=1
for f in fa.p1 fa.p2 fb.p1 fa fb; do
  pub=${f%%.*}.pub
  "$G" xmss sign --sk $f --msg msg --sig $f.sig >/dev/null && "$G" xmss verify --pk $pub --msg msg --sig $f.sig >/dev/null || ok=0
done
check '[ $ok = 1 ] && [ "$(kfpy form fa.p2)" = binary ] && [ "$(kfpy form fa.p1)" = armored ]' "every part and source signs and verifies, and keeps its form"
# a bare key file (the state alone, as grove before the envelope wrote it)
"$G" xmss keygen --params XMSS-SHA2_10_256 --sk fo --pk fo.pub --threads 2 >/dev/null
kfpy state fo fo.state; cp fo.state fo; cp fo fo.bare
out=$("$G" --json info fo)
check '[ "$(head -c 8 fo)" = GRVXMSSK ] && [ "$(echo "$out" | jget "[\"type\"]")" = "SECRET KEY" ] && [ "$(echo "$out" | jget "[\"encoding\"]")" = xmss-key-file ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$("$G" --json info fo.pub | jget "[\"key_id\"]")" ]' "grove info: a bare key file of an older grove is described (XMSS SECRET KEY, xmss-key-file)"
"$G" xmss info fo > fo.info 2>&1
check '[ $? -eq 0 ] && grep -q "older grove" fo.info && [ "$("$G" --json xmss info fo | jget "[\"encoding\"]")" = xmss-key-file ]' "grove xmss info: the bare form is shown"
o=$("$G" --json xmss sign --sk fo --msg msg --sig fo.s1 | jget '["index"]')
check '[ "$o" = 0 ] && "$G" xmss verify --pk fo.pub --msg msg --sig fo.s1 >/dev/null && [ "$(kfpy form fo)" = binary ] && [ "$("$G" --json info fo | jget "[\"encoding\"]")" = binary ]' "a bare key file signs; its reservation rewrote it as the binary envelope"
kfpy state fo fo.state2
check 'python3 -c "import sys; a=open(\"fo.state\",\"rb\").read(); b=open(\"fo.state2\",\"rb\").read(); sys.exit(0 if len(a)==len(b) and a[:16]==b[:16] and a[32:]!=b[32:] else 1)"' "the upgraded file holds the same key's state, moved on"
o=$("$G" --json xmss sign --sk fo --msg msg --sig fo.s2 | jget '["index"]')
check '[ "$o" = 1 ] && [ "$(kfpy form fo)" = binary ]' "the upgraded key goes on at index 1"
cp fo.bare fo.old
"$G" xmss sign --sk fo.old --msg msg --sig fo.s3 >/dev/null 2>err
check '[ $? -eq 3 ] && [ ! -e fo.s3 ]' "the bare copy from before the upgrade is stale: refused (exit 3)"
"$G" xmss keygen --params XMSS-SHA2_10_256 --sk fs --pk fs.pub --threads 2 >/dev/null
kfpy state fs fs.state; cp fs.state fs
"$G" xmss split --sk fs --out fs.p --count 10 --threads 2 >/dev/null
check '[ $? -eq 0 ] && [ "$(kfpy form fs)" = binary ] && [ "$(kfpy form fs.p)" = armored ] && "$G" xmss sign --sk fs.p --msg msg --sig fs.sig >/dev/null && "$G" xmss verify --pk fs.pub --msg msg --sig fs.sig >/dev/null' "split of a bare key file: the source becomes binary, the part armored; the part signs"
# the private key is never exported, whatever its form
for f in fa fb fo; do
  "$G" xmss export --sk $f --format raw --out x.raw >/dev/null 2>err
  check '[ $? -eq 2 ] && [ ! -e x.raw ] && grep -q "split" err' "export --sk $f refused (exit 2)"
done
"$G" xmss sign --sk fa.pub --msg msg --sig x.sig >/dev/null 2>err
check '[ $? -eq 2 ] && [ ! -e x.sig ] && grep -q "PUBLIC KEY" err' "a public key given as --sk: exit 2 naming PUBLIC KEY"
"$G" xmss verify --pk fb --msg msg --sig fb.s1 >/dev/null 2>err
check '[ $? -eq 2 ] && grep -q "SECRET KEY" err' "a binary private key given as --pk: exit 2 naming SECRET KEY"

# parameter sets
out=$("$G" --json xmss params)
check '[ "$(echo "$out" | python3 -c "import json,sys; print(len(json.load(sys.stdin)[\"parameter_sets\"]))")" = 77 ]' "77 parameter sets listed"
check '[ "$(echo "$out" | jget "[\"default\"]")" = XMSS-SHA2_10_256 ] && "$G" xmss params | grep "^XMSS-SHA2_10_256 " | grep -q "(default)"' "params marks the default set"
"$G" xmss --help >/dev/null
check '[ $? -eq 0 ]' "help"
exit $fail
