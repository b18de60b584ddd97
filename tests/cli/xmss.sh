#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove xmss end to end: keygen (seeded: the shared vector's public key; random; refusal to
# overwrite), sign / verify (files, stdin, stdout, --json), tampering and wrong inputs with their
# exit codes, info on keys, public keys and signatures, split (disjoint ranges, the last leaf,
# exhaustion), restored and copied key files refused, corrupted and truncated key files,
# parameter listing, --threads (0 = one per CPU). GROVE in the environment; VECTORS optional (the shared vectors folder).
set -u
G="${GROVE:?}"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export GROVE_STATE_DIR=$d/state XDG_STATE_HOME=$d/xdg
unset GROVE_XMSS_STATE_DIR
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
hex() { od -An -tx1 -v "$1" | tr -d ' \n'; }
cd "$d"

# Seeded keygen reproduces the public vector (seed[i] = i).
seed=$(python3 -c "print(bytes(range(96)).hex())")
"$G" xmss keygen --params XMSS-SHA2_10_256 --seed $seed --key k --pub k.pub --threads 2 >/dev/null
check '[ $? -eq 0 ] && [ "$(stat -c %a k)" = "600" ] && [ $(stat -c %s k.pub) -eq 68 ]' "seeded keygen, key mode 0600"
vec="${VECTORS:-}/xmss/XMSS-SHA2_10_256.json"
if [ -n "${VECTORS:-}" ] && [ -f "$vec" ]; then
  want=$(python3 -c "import json; print(json.load(open('$vec'))['pk'])")
  check '[ "$(hex k.pub)" = "$want" ]' "public key equals the shared vector's"
fi
# --threads 0 (one per CPU, the default) and 1 give the same key; 257 is refused
"$G" xmss keygen --params XMSS-SHA2_10_256 --seed $seed --key kt0 --pub kt0.pub --threads 0 --no-registry >/dev/null 2>&1
check '[ $? -eq 0 ] && cmp -s kt0.pub k.pub' "--threads 0 (one per CPU) gives the same key"
"$G" xmss keygen --params XMSS-SHA2_10_256 --seed $seed --key kt1 --pub kt1.pub --threads 1 --no-registry >/dev/null 2>&1
check '[ $? -eq 0 ] && cmp -s kt1.pub k.pub' "--threads 1 gives the same key"
"$G" xmss keygen --params XMSS-SHA2_10_256 --key kt2 --pub kt2.pub --threads 257 >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e kt2 ]' "--threads above 256 exits 2"
rm -f kt0 kt0.pub kt1 kt1.pub
cp k k.orig
"$G" xmss keygen --params XMSS-SHA2_10_256 --key k --pub k2.pub >/dev/null 2>&1
check '[ $? -eq 2 ] && cmp -s k k.orig && [ ! -e k2.pub ]' "keygen refuses to overwrite a key file"
"$G" xmss keygen --params XMSS-NOPE --key kx --pub kx.pub >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e kx ]' "unknown parameter set exits 2"
"$G" xmss keygen --params XMSS-SHA2_10_256 --seed 0011 --key kx --pub kx.pub >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e kx ]' "seed of the wrong length refused"

printf 'hello xmss' > msg
out=$("$G" --json xmss sign --key k --msg msg --out s0)
check '[ $? -eq 0 ] && [ "$(echo "$out" | jget "[\"index\"]")" = 0 ] && [ "$(echo "$out" | jget "[\"remaining\"]")" = 1023 ]' "sign index 0 (--json)"
if [ -n "${VECTORS:-}" ] && [ -f "$vec" ]; then
  python3 -c "import json; open('m0','wb').write(bytes.fromhex(json.load(open('$vec'))['signatures'][0]['msg']))"
  "$G" xmss sign --key k.orig --msg m0 --out v0 --state-dir $d/other >/dev/null
  want=$(python3 -c "import json; print(json.load(open('$vec'))['signatures'][0]['sig'])")
  check '[ "$(hex v0)" = "$want" ]' "signature at index 0 equals the shared vector's"
fi
"$G" xmss sign --key k --msg - --out - < msg > s1
check '[ $? -eq 0 ] && [ $(stat -c %s s1) -eq 2500 ]' "sign from stdin to stdout"
"$G" xmss verify --pub k.pub --msg msg --sig s1 >/dev/null
check '[ $? -eq 0 ]' "verify"
out=$("$G" --json xmss verify --pub k.pub --msg - --sig s0 < msg)
check '[ "$(echo "$out" | jget "[\"valid\"]")" = True ] && [ "$(echo "$out" | jget "[\"index\"]")" = 0 ]' "verify --json, message from stdin"
"$G" xmss verify --pub k.pub --msg msg --sig s1 --family xmssmt >/dev/null 2>&1
check '[ $? -eq 2 ]' "wrong family: OID 1 read as XMSSMT-SHA2_20/2_256, the signature has the wrong length (exit 2)"
"$G" xmss verify --pub k.pub --msg msg --sig s1 --params XMSS-SHA2_10_256 >/dev/null
check '[ $? -eq 0 ]' "verify with --params"
printf 'hello xmsS' > msg2
"$G" xmss verify --pub k.pub --msg msg2 --sig s1 >/dev/null 2>&1
check '[ $? -eq 1 ]' "altered message exits 1"
cp s1 t; printf '\x01' | dd of=t bs=1 seek=100 conv=notrunc 2>/dev/null
"$G" xmss verify --pub k.pub --msg msg --sig t >/dev/null 2>&1
check '[ $? -eq 1 ]' "tampered signature exits 1"
head -c 2499 s1 > t
"$G" xmss verify --pub k.pub --msg msg --sig t >/dev/null 2>&1
check '[ $? -eq 2 ]' "truncated signature (wrong length) exits 2"
cat s1 > t; printf '\0' >> t
"$G" xmss verify --pub k.pub --msg msg --sig t >/dev/null 2>&1
check '[ $? -eq 2 ]' "signature with a trailing byte (wrong length) exits 2"
cp s1 t; printf '\x00\x00\x04\x00' | dd of=t bs=1 seek=0 conv=notrunc 2>/dev/null
"$G" xmss verify --pub k.pub --msg msg --sig t >/dev/null 2>&1
check '[ $? -eq 1 ]' "index 1024 (out of range) exits 1"
cp k.pub t; printf '\x00\x00\x00\x63' | dd of=t bs=1 seek=0 conv=notrunc 2>/dev/null
"$G" xmss verify --pub t --msg msg --sig s1 >/dev/null 2>&1
check '[ $? -eq 2 ]' "public key with an unknown OID exits 2"
head -c 67 k.pub > t
"$G" xmss verify --pub t --msg msg --sig s1 >/dev/null 2>&1
check '[ $? -eq 2 ]' "public key of the wrong length exits 2"

# info
out=$("$G" --json xmss info --key k)
check '[ "$(echo "$out" | jget "[\"high_water\"]")" = 2 ] && [ "$(echo "$out" | jget "[\"remaining\"]")" = 1022 ] && [ "$(echo "$out" | jget "[\"registry_high_water\"]")" = 2 ]' "info --key"
check '[ "$(echo "$out" | jget "[\"public_key\"]")" = "$(hex k.pub)" ]' "info --key shows the public key"
out=$("$G" --json xmss info --pub k.pub --sig s1)
check '[ "$(echo "$out" | jget "[\"signature_index\"]")" = 1 ] && [ "$(echo "$out" | jget "[\"params\"]")" = XMSS-SHA2_10_256 ]' "info --pub --sig"
out=$("$G" --json xmss info --sig s1 --params XMSS-SHA2_10_256)
check '[ "$(echo "$out" | jget "[\"signature_index\"]")" = 1 ]' "info --sig --params"

# a restored (older) copy is refused; the registry catches it
cp k k.old
"$G" xmss sign --key k --msg msg --out s2 >/dev/null
cp k.old k
"$G" xmss sign --key k --msg msg --out s3 >/dev/null 2>err
check '[ $? -eq 3 ] && [ ! -e s3 ] && grep -q "old copy" err' "restored key file refused (exit 3)"
"$G" xmss info --key k >/dev/null 2>&1
check '[ $? -eq 3 ]' "info flags the stale key file (exit 3)"
"$G" xmss keygen --params XMSS-SHA2_10_256 --seed $seed --key kre --pub kre.pub >/dev/null 2>err
check '[ $? -eq 3 ] && [ ! -e kre ]' "regenerating a key that already signed here is refused"

# a fresh key for the rest (the restored one stays stale)
"$G" xmss keygen --params XMSSMT-SHA2_20/4_256 --key m --pub m.pub >/dev/null
for i in 1 2 3; do "$G" xmss sign --key m --msg msg --out ms$i >/dev/null; done
"$G" xmss verify --pub m.pub --msg msg --sig ms3 >/dev/null
check '[ $? -eq 0 ]' "XMSS^MT sign and verify (family from the signature size)"
# split: the last leaf and exhaustion
out=$("$G" --json xmss split --key m --out m2 --count 2)
check '[ $? -eq 0 ] && [ "$(echo "$out" | jget "[\"new_range_start\"]")" = 1048574 ] && [ "$(echo "$out" | jget "[\"range_end\"]")" = 1048574 ]' "split off the last 2 indices"
check '[ "$(stat -c %a m2)" = "600" ]' "split key file mode 0600"
"$G" xmss split --key m --out m2 --count 2 >/dev/null 2>&1
check '[ $? -eq 2 ]' "split refuses an existing output file"
"$G" xmss split --key m --out m3 --count 2000000 >/dev/null 2>&1
check '[ $? -eq 3 ] && [ ! -e m3 ]' "split of more indices than left exits 3"
o1=$("$G" --json xmss sign --key m2 --msg msg --out l1 | jget '["index"]')
o2=$("$G" --json xmss sign --key m2 --msg msg --out l2 | jget '["index"]')
check '[ "$o1" = 1048574 ] && [ "$o2" = 1048575 ]' "the split key signs its own range, up to the last leaf"
"$G" xmss verify --pub m.pub --msg msg --sig l2 >/dev/null
check '[ $? -eq 0 ]' "last-leaf signature (index 2^h - 1) verifies"
"$G" xmss sign --key m2 --msg msg --out l3 >/dev/null 2>err
check '[ $? -eq 3 ] && [ ! -e l3 ] && grep -q exhausted err' "exhausted key exits 3"
out=$("$G" --json xmss info --key m2)
check '[ "$(echo "$out" | jget "[\"exhausted\"]")" = True ] && [ "$(echo "$out" | jget "[\"remaining\"]")" = 0 ]' "info: exhausted"
check '! python3 -c "import sys; b=open(\"m2\",\"rb\").read(); sys.exit(0 if any(b[72:72+64]) else 1)"' "exhausted key file holds no seeds"
o4=$("$G" --json xmss sign --key m --msg msg --out ms4 | jget '["index"]')
check '[ "$o4" = 3 ]' "the original key goes on below the split point"

# corrupted and truncated key files: clear errors, nothing signed
"$G" xmss keygen --params XMSSMT-SHAKE256_20/4_192 --key c --pub c.pub >/dev/null
sz=$(stat -c %s c)
for pos in 0 9 12 17 25 41 50 80 $((sz / 2)) $((sz - 1)); do
  cp c cb; printf '\xff' | dd of=cb bs=1 seek=$pos conv=notrunc 2>/dev/null
  cmp -s c cb && { printf '\x00' | dd of=cb bs=1 seek=$pos conv=notrunc 2>/dev/null; }
  "$G" xmss sign --key cb --msg msg --out cs >/dev/null 2>err; rc=$?
  check '[ $rc -ne 0 ] && [ ! -e cs ] && [ -s err ]' "corrupted key byte $pos refused (rc=$rc: $(head -c 100 err))"
done
cp c cb; printf '\xff' | dd of=cb bs=1 seek=$((sz / 2)) conv=notrunc 2>/dev/null
"$G" xmss sign --key cb --msg msg --out cs >/dev/null 2>err
check '[ $? -eq 3 ] && grep -q "integrity check failed" err' "corruption reported as an integrity failure (exit 3)"
head -c $((sz - 10)) c > cb
"$G" xmss sign --key cb --msg msg --out cs >/dev/null 2>err
check '[ $? -eq 2 ] && grep -q "truncated" err' "truncated key file (exit 2)"
: > cb
"$G" xmss info --key cb >/dev/null 2>&1
check '[ $? -eq 2 ]' "empty key file (exit 2)"
"$G" xmss sign --key c.pub --msg msg --out cs >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e cs ]' "public key given as a private key refused"
"$G" xmss sign --key nonexistent --msg msg --out cs >/dev/null 2>&1
check '[ $? -eq 2 ]' "missing key file exits 2"
"$G" xmss sign --key c --msg nonexistent --out cs >/dev/null 2>&1
check '[ $? -eq 2 ] && [ "$("$G" --json xmss info --key c | jget "[\"high_water\"]")" = 0 ]' "missing message: refused before an index is reserved"

# ---- issue 16 regressions ----------------------------------------------------------------------
# 1: a restored pre-split copy must not sign indices that belong to the split part
"$G" xmss keygen --params XMSS-SHA2_10_256 --key r1 --pub r1.pub --threads 2 >/dev/null
cp r1 r1.presplit
timeout 60 "$G" xmss split --key r1 --out r1.part --count 1020 >/dev/null
"$G" --json xmss sign --key r1.part --msg msg --out r1.p0 | jget '["index"]' > r1.idx
cp r1.presplit r1
for i in 1 2 3 4 5; do "$G" xmss sign --key r1 --msg msg --out r1.s$i >/dev/null 2>r1.err; echo $? > r1.rc$i; done
check '[ "$(cat r1.idx)" = 4 ] && [ "$(cat r1.rc1)" = 3 ] && [ ! -e r1.s1 ] && [ ! -e r1.s5 ] && grep -q "before a split" r1.err && grep -q "grove xmss recover" r1.err' "restored pre-split copy refused (exit 3) with the recovery command ($(head -c 200 r1.err))"
"$G" xmss info --key r1 >r1.info 2>&1
check '[ $? -eq 3 ] && grep -q STALE r1.info' "info: the pre-split copy is stale (exit 3)"
"$G" --json xmss recover --key r1 > r1.rec
check '[ $? -eq 0 ] && [ "$(jget "[\"range_end\"]" < r1.rec)" = 4 ] && [ "$(jget "[\"changed\"]" < r1.rec)" = True ]' "recover: range end lowered to the registry's (4)"
for i in 1 2 3 4 5; do "$G" --json xmss sign --key r1 --msg msg --out r1.t$i 2>/dev/null | jget '["index"]' 2>/dev/null; done > r1.after
check '[ "$(tr "\n" " " < r1.after)" = "0 1 2 3 " ] && [ ! -e r1.t5 ]' "after recovery: indices 0-3 only, then exhausted ($(tr "\n" " " < r1.after))"
"$G" xmss recover --key r1 >/dev/null
check '[ $? -eq 0 ]' "recover of a current file: nothing to do (exit 0)"
cp r1.presplit r1.again
"$G" xmss recover --key r1.again --no-registry >/dev/null 2>&1
check '[ $? -eq 2 ]' "recover refuses --no-registry"
# a restored copy that is merely behind (signed since): fast-forward to the high-water mark
cp r1.part r1.part.old
"$G" xmss sign --key r1.part --msg msg --out r1.p1 >/dev/null
cp r1.part.old r1.part
"$G" xmss sign --key r1.part --msg msg --out r1.p2 >/dev/null 2>&1
check '[ $? -eq 3 ] && [ ! -e r1.p2 ]' "restored split part refused"
o=""; "$G" xmss recover --key r1.part >/dev/null && o=$("$G" --json xmss sign --key r1.part --msg msg --out r1.p2 | jget '["index"]')
check '[ "$o" = 6 ]' "recovered part signs after the registry's high-water mark (index $o)"

# 2: split of everything that remains: no deadlock, distinct ids, both files usable as recorded
"$G" xmss keygen --params XMSS-SHA2_10_256 --key a1 --pub a1.pub --threads 2 >/dev/null
cp a1 a1.keep
timeout 60 "$G" xmss split --key a1 --out a1.part --count 1024 >/dev/null 2>a1.err; rc=$?
check '[ $rc -eq 0 ]' "split --count <all> of a fresh key completes (exit $rc: $(head -c 100 a1.err))"
ida=$("$G" --json xmss info --key a1 2>/dev/null | jget '["key_id"]' 2>/dev/null); idb=$("$G" --json xmss info --key a1.part 2>/dev/null | jget '["key_id"]' 2>/dev/null)
check '[ -n "$ida" ] && [ -n "$idb" ] && [ "$ida" != "$idb" ]' "the part has its own key id"
o=$("$G" --json xmss sign --key a1.part --msg msg --out a1.p0 2>/dev/null | jget '["index"]' 2>/dev/null)
check '[ "$o" = 0 ] && "$G" xmss verify --pub a1.pub --msg msg --sig a1.p0 >/dev/null' "the part signs index 0 validly"
"$G" xmss sign --key a1 --msg msg --out a1.s1 >/dev/null 2>&1
check '[ $? -eq 3 ] && [ ! -e a1.s1 ]' "the source gave its whole range away (exhausted, exit 3)"
cp a1.keep a1.old
"$G" xmss sign --key a1.old --msg msg --out a1.s2 >/dev/null 2>&1
check '[ $? -eq 3 ] && [ ! -e a1.s2 ]' "the source's pre-split copy is refused"
timeout 60 "$G" xmss split --key a1.part --out a1.part2 --count 1023 >/dev/null 2>&1
check '[ $? -eq 0 ] && [ "$("$G" --json xmss info --key a1.part2 | jget "[\"range_start\"]")" = 1 ]' "a part splits again (grandchild [1, 1024))"

# 10: --params pins the exact set; the family is asked for when the bytes cannot tell
"$G" xmss verify --pub k.pub --msg msg --sig s1 --params XMSS-SHA2_16_256 >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q "XMSS-SHA2_10_256" v.err' "verify --params XMSS-SHA2_16_256 refuses a XMSS-SHA2_10_256 key (exit 2)"
"$G" xmss info --pub k.pub >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q -- "--family" v.err' "info --pub of an OID both families use asks for the family"
out=$("$G" --json xmss info --pub k.pub --family xmss)
check '[ "$(echo "$out" | jget "[\"params\"]")" = XMSS-SHA2_10_256 ]' "info --pub --family xmss"
head -c 100 s1 > t
"$G" xmss verify --pub k.pub --msg msg --sig t >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q -- "--family" v.err && grep -q "XMSSMT-SHA2_20/2_256 in the XMSS^MT family" v.err' "a signature of no set's length: exit 2, the family asked for, each set named with its family"
"$G" xmss verify --pub k.pub --msg msg --sig t --family xmss >/dev/null 2>v.err; rc=$?
check '[ $rc -eq 2 ] && ! grep -q XMSSMT v.err' "--family xmss: the wrong-length error names no XMSS^MT set ($(head -c 120 v.err))"

# 11: outputs that are inputs or state are refused before anything is reserved
cp k.pub kp.keep
"$G" xmss keygen --params XMSS-SHA2_10_256 --key same --pub same >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e same ]' "keygen --pub = --key refused"
"$G" xmss keygen --params XMSS-SHA2_10_256 --key o1 --pub o1.pub --threads 2 >/dev/null
cp o1 o1.keep
"$G" xmss sign --key o1 --msg msg --out o1 >/dev/null 2>&1
check '[ $? -eq 2 ] && cmp -s o1 o1.keep' "sign --out = --key refused, key file unchanged"
cp msg msg.keep
"$G" xmss sign --key o1 --msg msg --out msg >/dev/null 2>&1
check '[ $? -eq 2 ] && cmp -s msg msg.keep && cmp -s o1 o1.keep' "sign --out = --msg refused, nothing reserved"
ln o1 o1.link
"$G" xmss split --key o1 --out o1.link --count 2 >/dev/null 2>&1
check '[ $? -eq 2 ] && cmp -s o1 o1.keep' "split --out = --key (hard link) refused"
rm -f o1.link

# 12: stdin closed: refused before an index is reserved (nothing signed, the key unchanged)
cp o1 o1.before12
"$G" xmss sign --key o1 --msg - --out o1.sig <&- >/dev/null 2>o1.err; rc=$?
check '[ $rc -eq 2 ] && [ ! -e o1.sig ] && cmp -s o1 o1.before12 && grep -q "standard input" o1.err' "stdin closed: refused (exit $rc), no index reserved, nothing written"

# 13/14: reads capped at the object's size; a signature of the wrong length is exit 2
head -c 3000 /dev/zero > t
"$G" xmss verify --pub k.pub --msg msg --sig t --family xmss >/dev/null 2>&1
check '[ $? -eq 2 ]' "a signature of the wrong length exits 2"
cat o1.keep > big.key; head -c 1000000 /dev/zero >> big.key
"$G" xmss sign --key big.key --msg msg --out t2 >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q "larger than any key file" v.err' "a key file larger than its set's maximum is refused unread"
head -c 200000 /dev/zero > t
"$G" xmss verify --pub k.pub --msg msg --sig t --family xmss >/dev/null 2>v.err
check '[ $? -eq 2 ] && grep -q "too large" v.err' "an oversized signature file is refused unread"

# 8: a one-bit change anywhere in a key file is refused before anything is reserved
"$G" xmss keygen --params XMSSMT-SHA2_20/4_256 --key b8 --pub b8.pub --threads 2 >/dev/null
"$G" xmss sign --key b8 --msg msg --out b8.s >/dev/null
b8id=$("$G" --json xmss info --key b8 | jget '["key_id"]')
cp b8 b8.keep; cp "$GROVE_STATE_DIR/xmss/$b8id" b8.entry
sz=$(stat -c %s b8); okb=1; nb=0
for pos in $(python3 -c "import random; r=random.Random(16); print(' '.join(str(x) for x in sorted(set(list(range(0,100,3))+[r.randrange($sz) for _ in range(60)]+[$sz-1]))))"); do
  bit=$((pos % 8)); nb=$((nb+1))
  python3 -c "b=bytearray(open('b8.keep','rb').read()); b[$pos]^=1<<$bit; open('b8','wb').write(b)"
  "$G" xmss sign --key b8 --msg msg --out b8.bad >/dev/null 2>b8.err; rc=$?
  if ! { [ $rc -eq 2 ] || [ $rc -eq 3 ]; } || [ -e b8.bad ] || [ ! -s b8.err ] || ! cmp -s "$GROVE_STATE_DIR/xmss/$b8id" b8.entry; then
    okb=0; echo "bit $bit of byte $pos: rc=$rc $(head -c 100 b8.err)"; fi
  python3 -c "import sys; b=bytearray(open('b8.keep','rb').read()); b[$pos]^=1<<$bit; sys.exit(0 if open('b8','rb').read()==bytes(b) else 1)" || okb=0
  rm -f b8.bad
done
cp b8.keep b8
o=$("$G" --json xmss sign --key b8 --msg msg --out b8.s2 | jget '["index"]')
check '[ $okb = 1 ] && [ "$o" = 1 ]' "$nb one-bit changes refused (exit 2/3, file untouched, nothing signed); the intact file goes on at index 1"

# parameter sets
out=$("$G" --json xmss params)
check '[ "$(echo "$out" | python3 -c "import json,sys; print(len(json.load(sys.stdin)[\"parameter_sets\"]))")" = 77 ]' "77 parameter sets listed"
"$G" xmss --help >/dev/null
check '[ $? -eq 0 ]' "help"
exit $fail
