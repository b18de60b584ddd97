#!/usr/bin/env bash
# grove xmss end to end: keygen (seeded: the shared vector's public key; random; refusal to
# overwrite), sign / verify (files, stdin, stdout, --json), tampering and wrong inputs with their
# exit codes, info on keys, public keys and signatures, split (disjoint ranges, the last leaf,
# exhaustion), restored and copied key files refused, corrupted and truncated key files,
# parameter listing. GROVE in the environment; VECTORS optional (the shared vectors folder).
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

# parameter sets
out=$("$G" --json xmss params)
check '[ "$(echo "$out" | python3 -c "import json,sys; print(len(json.load(sys.stdin)[\"parameter_sets\"]))")" = 77 ]' "77 parameter sets listed"
"$G" xmss --help >/dev/null
check '[ $? -eq 0 ]' "help"
exit $fail
