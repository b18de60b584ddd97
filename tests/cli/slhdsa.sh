#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove slhdsa / grove sphincs end to end on grove files (the envelope): keygen (seeded and
# random, armored and --binary), sign, verify (key ids), info, params, tampering, contexts,
# pre-hash, wrong inputs (type, scheme, set, damaged files), exit codes, --json, secret key
# file mode, --force, outputs naming inputs, stdin/stdout, closed fds; export/import raw (the
# NIST API layout, ACVP keys), DER/PEM (RFC 9909 SubjectPublicKeyInfo and PKCS#8, checked
# against the RFC's example keys).
set -u
G="${GROVE:?}"
SRC="$(cd "$(dirname "$0")/../.." && pwd)"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
hexof() { od -An -tx1 -v "$1" | tr -d ' \n'; }
# raw body of a grove file (export --format raw)
# (a secret key is never written to stdout: through a file of mode 0600)
raw() { rm -f "$d/raw.tmp"; "$G" $1 export --$2 "$3" --format raw --out "$d/raw.tmp" >/dev/null 2>&1; cat "$d/raw.tmp"; }

# Seeded key generation reproduces the ACVP keyGen case SHA2-128s tcId 1.
seed=2F896D61D9CD9038CA303394FADAA22A24AC5EC1D86A989CA2196C3C8632419C1A05A42FE300E87B16AEE116CB2E2363
"$G" slhdsa keygen --params SLH-DSA-SHA2-128s --seed $seed --pk $d/pk --sk $d/sk >/dev/null
check '[ $? -eq 0 ]' "seeded keygen"
raw slhdsa pk $d/pk > $d/pk.raw
check '[ "$(hexof $d/pk.raw)" = "1a05a42fe300e87b16aee116cb2e236358e2c3e62632c9de03d08a535a0eb7e7" ]' "ACVP public key (export --format raw)"
check '[ "$(stat -c %a $d/sk)" = "600" ]' "secret key file mode 0600"
check 'head -1 $d/pk | grep -qx -- "-----BEGIN GROVE SLH-DSA PUBLIC KEY-----" && head -1 $d/sk | grep -qx -- "-----BEGIN GROVE SLH-DSA SECRET KEY-----"' "keys are armored grove files by default"

printf 'hello grove' > $d/msg
out=$("$G" slhdsa keygen --pk $d/pk2 --sk $d/sk2 --json); rc=$?
kid=$(echo "$out" | jget '["key_id"]')
check '[ $rc -eq 0 ] && [ "$(echo "$out" | jget "[\"params\"]")" = SLH-DSA-SHAKE-128f ] && [ ${#kid} -eq 16 ]' "keygen without --params: the default SLH-DSA-SHAKE-128f, a key id"
raw slhdsa pk $d/pk2 > $d/pk2.raw; raw slhdsa sk $d/sk2 > $d/sk2.raw
check '[ $(stat -c %s $d/pk2.raw) -eq 32 ] && [ $(stat -c %s $d/sk2.raw) -eq 64 ]' "raw key sizes 2n and 4n"
check '[ "$(tail -c 32 $d/sk2.raw | od -An -tx1 -v)" = "$(od -An -tx1 -v $d/pk2.raw)" ]' "the secret key holds the public key"
"$G" slhdsa sign --sk $d/sk2 --msg $d/msg --sig $d/sig --ctx 0102 >/dev/null
check '[ $? -eq 0 ] && [ $(raw slhdsa sig $d/sig | wc -c) -eq 17088 ]' "sign (17088-byte signature body)"

# info: text and --json (the envelope's fields and the set's sizes)
out=$("$G" slhdsa info $d/sig); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | grep -q "grove SLH-DSA SIGNATURE, set SLH-DSA-SHAKE-128f, key id $kid" && echo "$out" | grep -q "armored"' "info FILE (positional): type, set, key id, encoding"
out=$("$G" slhdsa info --file $d/pk2 --json); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"scheme\"]==\"SLH-DSA\" and d[\"type\"]==\"PUBLIC KEY\" and d[\"params\"]==\"SLH-DSA-SHAKE-128f\" and d[\"key_id\"]==\"$kid\" and d[\"encoding\"]==\"armored\" and d[\"pk_bytes\"]==32 and d[\"sig_bytes\"]==17088 and d[\"body_bytes\"]==32"' "info --json fields"
out=$("$G" slhdsa info - < $d/sk2 --json); rc=$?
check '[ $rc -eq 0 ] && [ "$(echo "$out" | jget "[\"type\"]")" = "SECRET KEY" ] && ! echo "$out" | grep -qi "$(hexof $d/sk2.raw | head -c 32)"' "info - (stdin) of a secret key: described, the key not printed"
out=$("$G" info $d/sig --json)
check '[ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ]' "grove info FILE describes it too"

# Outputs that are devices or pipes are written in place, never replaced by a file.
mkfifo $d/fifo
( timeout 30 cat $d/fifo > $d/fromfifo ) &
"$G" slhdsa sign --sk $d/sk2 --msg $d/msg --sig $d/fifo --ctx 0102 >/dev/null
rc=$?; wait
check '[ $rc -eq 0 ] && [ -p $d/fifo ] && cmp -s $d/fromfifo $d/sig' "signature to a FIFO"
"$G" slhdsa sign --sk $d/sk2 --msg $d/msg --sig /dev/null --ctx 0102 >/dev/null
check '[ $? -eq 0 ] && [ -c /dev/null ]' "signature to /dev/null leaves the device"
"$G" slhdsa keygen --pk $d/pk9 --sk /dev/null >/dev/null 2>&1
check '[ $? -eq 2 ] && [ -c /dev/null ]' "a secret key is not written to a device"

out=$("$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/sig --ctx 0102); rc=$?
check '[ $rc -eq 0 ] && [ "$out" = "signature valid (key id $kid)" ]' "verify valid: exactly 'signature valid (key id ...)'"
out=$("$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/sig --ctx 0102 --json); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"valid\"] is True and d[\"key_id\"]==\"$kid\" and d[\"params\"]==\"SLH-DSA-SHAKE-128f\""' "verify --json: valid, key_id, params"
"$G" slhdsa verify --params SLH-DSA-SHAKE-128f --pk $d/pk2 --msg $d/msg --sig $d/sig --ctx 0102 >/dev/null
check '[ $? -eq 0 ]' "verify with a matching --params (a check)"
out=$("$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/sig 2>&1); rc=$?
check '[ $rc -eq 1 ] && echo "$out" | grep -q "signature INVALID"' "verify with the wrong context exits 1, 'signature INVALID'"
printf 'hello grovE' > $d/msg2
! "$G" slhdsa verify --pk $d/pk2 --msg $d/msg2 --sig $d/sig --ctx 0102 >/dev/null 2>&1
check '[ $? -eq 0 ]' "tampered message fails"
"$G" slhdsa verify --pk $d/pk2 --msg $d/msg2 --sig $d/sig --ctx 0102 >/dev/null 2>&1
check '[ $? -eq 1 ]' "tampered message exits 1"
out=$("$G" slhdsa verify --pk $d/pk2 --msg $d/msg2 --sig $d/sig --ctx 0102 --json); rc=$?
check '[ $rc -eq 1 ] && [ "$(echo "$out" | jget "[\"valid\"]")" = "False" ]' "--json reports valid=false"

# --params on sign and verify is a check against the files' set: a mismatch is exit 2
out=$("$G" slhdsa verify --params sha2-128f --pk $d/pk2 --msg $d/msg --sig $d/sig --ctx 0102 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "SLH-DSA-SHAKE-128f" && echo "$out" | grep -q "SLH-DSA-SHA2-128f"' "verify --params mismatch exits 2 naming both sets (rc=$rc)"
"$G" slhdsa sign --params shake-128s --sk $d/sk2 --msg $d/msg --sig $d/x >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e $d/x ]' "sign --params mismatch exits 2, nothing written"
"$G" slhdsa verify --params nope --pk $d/pk2 --msg $d/msg --sig $d/sig >/dev/null 2>&1
check '[ $? -eq 2 ]' "unknown parameter set exits 2"
"$G" slhdsa keygen --params nope --pk $d/x --sk $d/y >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e $d/x ] && [ ! -e $d/y ]' "keygen with an unknown set exits 2"

# damaged, truncated, empty, wrong-type, wrong-scheme and raw files are input errors (exit 2)
python3 - $d/sig $d/damaged.sig <<'PY'
import sys
t = open(sys.argv[1]).read().split("\n")
l = t[5]; t[5] = l[:10] + ("A" if l[10] != "A" else "B") + l[11:]
open(sys.argv[2], "w").write("\n".join(t))
PY
out=$("$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/damaged.sig --ctx 0102 2>&1); rc=$?
check '[ $rc -eq 2 ]' "a signature file with one base64 character changed exits 2 (rc=$rc: $out)"
head -c 1000 $d/sig > $d/short
"$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/short --ctx 0102 >/dev/null 2>&1
check '[ $? -eq 2 ]' "truncated signature file exits 2"
out=$("$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/short --ctx 0102 --json); rc=$?
check '[ $rc -eq 2 ] && [ "$(echo "$out" | jget "[\"ok\"]")" = False ]' "truncated signature --json: exit 2, one object"
cat $d/sig $d/msg > $d/long
"$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/long --ctx 0102 >/dev/null 2>&1
check '[ $? -eq 2 ]' "signature with trailing bytes exits 2"
: > $d/empty
"$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/empty --ctx 0102 >/dev/null 2>&1
check '[ $? -eq 2 ]' "empty signature file exits 2"
out=$("$G" slhdsa verify --pk $d/sig --msg $d/msg --sig $d/sig --ctx 0102 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "SIGNATURE"' "a signature given as --pk exits 2 naming SIGNATURE (rc=$rc: $out)"
out=$("$G" slhdsa sign --sk $d/pk2 --msg $d/msg --sig $d/x 2>&1); rc=$?
check '[ $rc -eq 2 ] && [ ! -e $d/x ] && echo "$out" | grep -q "PUBLIC KEY"' "a public key given as --sk exits 2 naming PUBLIC KEY, nothing written"
out=$("$G" slhdsa sign --sk $d/sk2.raw --msg $d/msg --sig $d/x 2>&1); rc=$?
check '[ $rc -eq 2 ] && [ ! -e $d/x ]' "a raw (headerless) secret key is refused: it goes through import (rc=$rc: $out)"
"$G" cross keygen --pk $d/cross.pk --sk $d/cross.sk >/dev/null
out=$("$G" slhdsa verify --pk $d/cross.pk --msg $d/msg --sig $d/sig 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "CROSS"' "another scheme's key exits 2 naming it (rc=$rc: $out)"
# a signature of another set: an input error
"$G" slhdsa keygen --params shake-128s --pk $d/s.pk --sk $d/s.sk >/dev/null
"$G" slhdsa sign --sk $d/s.sk --msg $d/msg --sig $d/s.sig >/dev/null
out=$("$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/s.sig 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "SLH-DSA-SHAKE-128s"' "a signature of another parameter set exits 2 (rc=$rc)"
# a signature of another key of the same set: invalid (1), naming both key ids
"$G" slhdsa keygen --pk $d/o.pk --sk $d/o.sk >/dev/null
oid=$("$G" slhdsa info $d/o.pk --json | jget '["key_id"]')
out=$("$G" slhdsa verify --pk $d/o.pk --msg $d/msg --sig $d/sig --ctx 0102 2>&1); rc=$?
check '[ $rc -eq 1 ] && echo "$out" | grep -q "signature INVALID" && echo "$out" | grep -q "$kid" && echo "$out" | grep -q "$oid"' "signature from another key exits 1 with both key ids (rc=$rc: $out)"
"$G" slhdsa sign --sk $d/sk2 --msg $d/msg --sig $d/x --ctx $(printf '%0512d' 0) >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e $d/x ]' "context of 256 bytes refused, nothing written"

# --binary: the binary form of the same objects
"$G" slhdsa keygen --pk $d/b.pk --sk $d/b.sk --binary >/dev/null
check '[ "$(head -c 4 $d/b.pk)" = GRVE ] && [ "$(head -c 4 $d/b.sk)" = GRVE ]' "keygen --binary writes binary grove files"
"$G" slhdsa sign --sk $d/b.sk --msg $d/msg --sig $d/b.sig --binary >/dev/null
check '[ "$(head -c 4 $d/b.sig)" = GRVE ] && [ "$("$G" slhdsa info $d/b.sig --json | jget "[\"encoding\"]")" = binary ]' "sign --binary, info says binary"
"$G" slhdsa verify --pk $d/b.pk --msg $d/msg --sig $d/b.sig >/dev/null
check '[ $? -eq 0 ]' "binary files verify"

# deterministic signing is reproducible; hedged is not
"$G" slhdsa sign --sk $d/sk2 --msg $d/msg --sig $d/sigb --ctx 0102 >/dev/null
check 'cmp -s $d/sig $d/sigb' "deterministic signatures equal"
"$G" slhdsa sign --sk $d/sk2 --msg $d/msg --sig $d/sigh --hedged >/dev/null
check '! cmp -s $d/sig $d/sigh' "hedged signature differs"
"$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/sigh >/dev/null
check '[ $? -eq 0 ]' "hedged signature verifies"

# pre-hash (grove hash names and aliases), message from stdin, signature to stdout
"$G" slhdsa sign --sk $d/sk2 --msg - --sig - --prehash sha256 < $d/msg > $d/sigp
check '[ $? -eq 0 ] && head -1 $d/sigp | grep -q "BEGIN GROVE SLH-DSA SIGNATURE"' "pre-hash sign via stdin/stdout"
out=$("$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/sigp --prehash SHA2-256 --json); rc=$?
check '[ $rc -eq 0 ] && [ "$(echo "$out" | jget "[\"prehash\"]")" = sha256 ]' "pre-hash verify (alias SHA2-256 of sha256, printed as sha256)"
"$G" slhdsa verify --pk $d/pk2 --msg - --sig $d/sigp --prehash sha-256 < $d/msg >/dev/null
check '[ $? -eq 0 ]' "pre-hash verify, message on stdin"
"$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/sigp --prehash sha512 >/dev/null 2>&1
check '[ $? -eq 1 ]' "wrong pre-hash exits 1"
"$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/sigp >/dev/null 2>&1
check '[ $? -eq 1 ]' "a pre-hash signature checked as pure exits 1 (the pre-hash is an option, not recorded)"
"$G" slhdsa verify --pk $d/pk2 --msg $d/msg --sig $d/sigp --prehash MD5 >/dev/null 2>&1
check '[ $? -eq 2 ]' "unknown pre-hash exits 2"

# round 3.1
out=$("$G" sphincs keygen --pk $d/rpk --sk $d/rsk --json)
check '[ "$(echo "$out" | jget "[\"params\"]")" = sphincs-shake-128f-simple ]' "sphincs default set sphincs-shake-128f-simple"
"$G" sphincs keygen --params sha2-128f --pk $d/rpk --sk $d/rsk --force >/dev/null
"$G" sphincs sign --params sphincs-sha2-128f-simple --sk $d/rsk --msg $d/msg --sig $d/rsig >/dev/null
"$G" sphincs verify --pk $d/rpk --msg $d/msg --sig $d/rsig >/dev/null
check '[ $? -eq 0 ] && head -1 $d/rsig | grep -q "BEGIN GROVE SPHINCS+ SIGNATURE"' "sphincs round trip (SPHINCS+ files)"
out=$("$G" slhdsa verify --pk $d/rpk --msg $d/msg --sig $d/rsig 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "SPHINCS+"' "a round-3.1 key is not an SLH-DSA key: exit 2 naming SPHINCS+"
"$G" sphincs sign --sk $d/rsk --msg $d/msg --sig $d/x --ctx 00 >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e $d/x ]' "sphincs refuses --ctx"
"$G" sphincs verify --params SLH-DSA-SHA2-128f --pk $d/rpk --msg $d/msg --sig $d/rsig >/dev/null 2>&1
check '[ $? -eq 2 ]' "sphincs refuses a FIPS name"
out=$("$G" sphincs params --json)
check 'echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); s=d[\"parameter_sets\"]; assert len(s)==12 and [x[\"name\"] for x in s if x[\"default\"]]==[\"sphincs-shake-128f-simple\"] and d[\"default\"]==\"sphincs-shake-128f-simple\""' "sphincs params lists 12 sets, the default marked"
out=$("$G" slhdsa params)
check 'echo "$out" | grep "SLH-DSA-SHAKE-128f" | grep -q default && [ $(echo "$out" | grep -c default) -eq 1 ]' "slhdsa params marks the default"
check '"$G" slhdsa keygen --help 2>&1 | grep -q "SLH-DSA-SHAKE-128f"' "--help names the default set"

# ---- secret key files: damaged, key id bound to the key, --force, same-file outputs
for scheme in slhdsa sphincs; do
  "$G" $scheme keygen --params sha2-128f --pk $d/$scheme.pk --sk $d/$scheme.sk >/dev/null
  lines=$(wc -l < $d/$scheme.sk)
  for line in 2 3 4 $((lines - 1)); do
    python3 - $d/$scheme.sk $d/bad.sk $line <<'PY'
import sys
t = open(sys.argv[1]).read().split("\n"); i = int(sys.argv[3]) - 1
t[i] = ("B" if t[i][7] == "A" else "A").join([t[i][:7], t[i][8:]])
open(sys.argv[2], "w").write("\n".join(t))
PY
    out=$("$G" $scheme sign --sk $d/bad.sk --msg $d/msg --sig $d/bad.sig 2>&1); rc=$?
    check '[ $rc -eq 2 ] && [ ! -e $d/bad.sig ]' "$scheme: secret key with a base64 character changed on line $line refused, nothing written (rc=$rc: $out)"
  done
  # a well-formed file whose key id is not its key's (re-sealed with a valid check): refused
  "$G" $scheme export --sk $d/$scheme.sk --format raw --out $d/$scheme.sk.raw >/dev/null
  "$G" $scheme import --format raw --params sha2-128f --sk $d/$scheme.sk.raw --out $d/$scheme.skb --binary >/dev/null
  python3 - $d/$scheme.skb $d/bad.sk <<'PY'
import hashlib, sys
b = bytearray(open(sys.argv[1], "rb").read())
i = 7 + b[6]; i += 1 + b[i]; i += 1 + b[i]  # scheme, set, type: the key id follows
b[i] ^= 1
b = b[:-32]; b += hashlib.sha256(b"grove envelope v1" + bytes(b)).digest()
open(sys.argv[2], "wb").write(b)
PY
  out=$("$G" $scheme sign --sk $d/bad.sk --msg $d/msg --sig $d/bad.sig 2>&1); rc=$?
  check '[ $rc -eq 2 ] && [ ! -e $d/bad.sig ] && echo "$out" | grep -q "key id"' "$scheme: a secret key file with another key id refused (rc=$rc: $out)"
  out=$("$G" $scheme sign --sk $d/$scheme.sk --msg $d/msg --sig $d/$scheme.sig 2>&1); rc=$?
  check '[ $rc -eq 0 ] && ! echo "$out" | grep -q warning' "$scheme: an intact key signs without warning"
  "$G" $scheme verify --pk $d/$scheme.pk --msg $d/msg --sig $d/$scheme.sig >/dev/null
  check '[ $? -eq 0 ]' "$scheme: its signature verifies"
  # an imported raw key gives the same (deterministic) signature
  "$G" $scheme sign --sk $d/$scheme.skb --msg $d/msg --sig $d/imp.sig >/dev/null
  [ $scheme = slhdsa ] && check 'cmp -s $d/imp.sig $d/$scheme.sig' "$scheme: the imported raw key gives the same signature"
  "$G" $scheme verify --pk $d/$scheme.pk --msg $d/msg --sig $d/imp.sig >/dev/null
  check '[ $? -eq 0 ]' "$scheme: the imported raw key's signature verifies"
  # a raw key whose SK.seed is damaged does not give its PK.root: refused, nothing written
  python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[3]^=1; open(sys.argv[2],'wb').write(b)" $d/$scheme.sk.raw $d/rawbad.sk
  rm -f $d/rawbad.grove
  "$G" $scheme import --format raw --params sha2-128f --sk $d/rawbad.sk --out $d/rawbad.grove >/dev/null
  "$G" $scheme sign --sk $d/rawbad.grove --msg $d/msg --sig $d/bad.sig >/dev/null 2>&1
  check '[ $? -eq 2 ] && [ ! -e $d/bad.sig ]' "$scheme: a key with a damaged SK.seed refused"
  # existing secret key files are not replaced without --force
  cp $d/$scheme.sk $d/keep.sk; rm -f $d/new.pk
  out=$("$G" $scheme keygen --params sha2-128f --pk $d/new.pk --sk $d/$scheme.sk 2>&1); rc=$?
  check '[ $rc -eq 2 ] && cmp -s $d/$scheme.sk $d/keep.sk && [ ! -e $d/new.pk ] && echo "$out" | grep -q "$d/$scheme.sk"' "$scheme: keygen refuses to overwrite a secret key, naming it (rc=$rc)"
  "$G" $scheme keygen --params sha2-128f --pk $d/new.pk --sk $d/$scheme.sk --force >/dev/null
  check '[ $? -eq 0 ] && ! cmp -s $d/$scheme.sk $d/keep.sk && [ "$(stat -c %a $d/$scheme.sk)" = 600 ]' "$scheme: --force replaces it (mode 0600)"
  # an output naming one of the inputs is refused before anything happens
  cp $d/msg $d/msgcopy
  "$G" $scheme sign --sk $d/$scheme.sk --msg $d/msgcopy --sig $d/msgcopy >/dev/null 2>&1
  check '[ $? -eq 2 ] && cmp -s $d/msg $d/msgcopy' "$scheme: --sig naming --msg refused"
  cp $d/$scheme.sk $d/keep.sk
  "$G" $scheme sign --sk $d/$scheme.sk --msg $d/msg --sig $d/$scheme.sk >/dev/null 2>&1
  check '[ $? -eq 2 ] && cmp -s $d/$scheme.sk $d/keep.sk' "$scheme: --sig naming --sk refused"
  "$G" $scheme keygen --params sha2-128f --pk $d/same --sk $d/./same >/dev/null 2>&1
  check '[ $? -eq 2 ] && [ ! -e $d/same ]' "$scheme: keygen --pk naming --sk refused"
  # raw export/import round trip is byte-identical, for all three objects
  for o in pk sk sig; do
    f=$d/$scheme.$o; [ $o = sig ] && f=$d/$scheme.sig
    rm -f $d/rt.$o $d/rt2.$o
    "$G" $scheme export --$o $f --format raw --out $d/rt.$o >/dev/null
    "$G" $scheme import --format raw --params sha2-128f --$o $d/rt.$o --out $d/rt.grove.$o --force >/dev/null
    "$G" $scheme export --$o $d/rt.grove.$o --format raw --out $d/rt2.$o >/dev/null
    check 'cmp -s $d/rt.$o $d/rt2.$o' "$scheme: export/import raw $o round trip byte-identical"
  done
  check '[ "$(stat -c %a $d/rt.sk)" = 600 ] && [ "$(stat -c %a $d/rt.grove.sk)" = 600 ]' "$scheme: exported and imported secret keys have mode 0600"
  cmp -s $d/rt.grove.pk $d/$scheme.pk
  check '[ $? -eq 0 ]' "$scheme: an imported raw public key gives the identical grove file (same key id)"
  "$G" $scheme verify --pk $d/rt.grove.pk --msg $d/msg --sig $d/rt.grove.sig >/dev/null
  check '[ $? -eq 0 ]' "$scheme: an imported raw signature (no key id) verifies"
  "$G" $scheme import --format raw --sk $d/rt.sk --out $d/noparams >/dev/null 2>&1
  check '[ $? -eq 2 ] && [ ! -e $d/noparams ]' "$scheme: import --format raw without --params exits 2"
  "$G" $scheme import --format raw --params sha2-192f --pk $d/rt.pk --out $d/wrongsize >/dev/null 2>&1
  check '[ $? -eq 2 ] && [ ! -e $d/wrongsize ]' "$scheme: a raw file of the wrong size for --params exits 2"
  out=$("$G" $scheme export --sk $d/$scheme.sk --format raw --out $d/rt.sk 2>&1); rc=$?
  check '[ $rc -eq 2 ]' "$scheme: export refuses to replace an existing secret --out (rc=$rc)"
  "$G" $scheme export --sk $d/$scheme.sk --format raw --out $d/rt.sk --force >/dev/null
  check '[ $? -eq 0 ]' "$scheme: ... unless --force"
  "$G" $scheme export --pk $d/$scheme.pk --sk $d/$scheme.sk --format raw --out $d/two >/dev/null 2>&1
  check '[ $? -eq 2 ] && [ ! -e $d/two ]' "$scheme: export takes exactly one object"
done
out=$("$G" sphincs export --pk $d/sphincs.pk --format der --out $d/x 2>&1); rc=$?
check '[ $rc -eq 2 ] && [ ! -e $d/x ] && echo "$out" | grep -q "no standard DER encoding"' "sphincs: der exits 2 'no standard DER encoding'"
out=$("$G" slhdsa export --sig $d/sig --format pem --out $d/x 2>&1); rc=$?
check '[ $rc -eq 2 ] && [ ! -e $d/x ] && echo "$out" | grep -q "no standard DER encoding"' "slhdsa: a signature has no DER/PEM encoding: exit 2"

# ---- RFC 9909: SubjectPublicKeyInfo and PKCS#8, DER and PEM
"$G" slhdsa export --pk $d/pk2 --format der --out $d/pk2.der >/dev/null
check '[ $? -eq 0 ] && [ $(stat -c %s $d/pk2.der) -eq 50 ]' "SPKI DER of a 32-byte key: 50 bytes"
if command -v openssl >/dev/null; then
  out=$(openssl asn1parse -inform DER -in $d/pk2.der 2>&1)
  check 'echo "$out" | grep -q "OBJECT *:2.16.840.1.101.3.4.3.27" && echo "$out" | grep -q "BIT STRING"' "openssl asn1parse: SPKI with id-slh-dsa-shake-128f ($out)"
  "$G" slhdsa export --sk $d/sk2 --format der --out $d/sk2.der >/dev/null
  out=$(openssl asn1parse -inform DER -in $d/sk2.der 2>&1)
  check 'echo "$out" | grep -q "INTEGER *:00" && echo "$out" | grep -q "OCTET STRING" && [ "$(stat -c %a $d/sk2.der)" = 600 ]' "openssl asn1parse: PKCS#8 (version 0, OCTET STRING), mode 0600"
fi
"$G" slhdsa export --pk $d/pk2 --format pem --out $d/pk2.pem >/dev/null
check 'head -1 $d/pk2.pem | grep -qx -- "-----BEGIN PUBLIC KEY-----"' "PEM public key"
"$G" slhdsa import --format pem --pk $d/pk2.pem --out $d/pk2.again >/dev/null
check 'cmp -s $d/pk2.again $d/pk2' "import of the exported PEM gives the identical grove file"
"$G" slhdsa import --format der --pk $d/pk2.der --params sha2-128f --out $d/x >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e $d/x ]' "import der with a --params that disagrees with the OID exits 2"
"$G" slhdsa import --format pem --pk $d/pk2.der --out $d/x >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e $d/x ]' "DER given as PEM exits 2"
# HashSLH-DSA OIDs: --prehash on export, reported on import
out=$("$G" slhdsa export --pk $d/pk2 --format der --prehash shake128 --out $d/pkh.der --json); rc=$?
check '[ $rc -eq 0 ] && [ "$(echo "$out" | jget "[\"prehash\"]")" = shake128 ]' "export --prehash shake128"
command -v openssl >/dev/null && check 'openssl asn1parse -inform DER -in $d/pkh.der | grep -q "2.16.840.1.101.3.4.3.42"' "... the id-hash-slh-dsa-shake-128f-with-shake128 OID"
out=$("$G" slhdsa import --format der --pk $d/pkh.der --out $d/pkh --json); rc=$?
check '[ $rc -eq 0 ] && [ "$(echo "$out" | jget "[\"prehash\"]")" = shake128 ]' "import of a HashSLH-DSA key reports its pre-hash"
"$G" slhdsa export --pk $d/pk2 --format der --prehash sha512 --out $d/x >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e $d/x ]' "a pre-hash RFC 9909 does not assign to the set exits 2"
# the RFC's own example keys (SLH-DSA-SHA2-128s): import, re-export: identical text
python3 - "$SRC/tests/pkix/rfc_examples.h" $d <<'PY'
import re, sys
src = open(sys.argv[1]).read()
for name, out in (("RFC9909_PUBLIC_KEY_PEM", "rfc.pub.pem"), ("RFC9909_PRIVATE_KEY_PEM", "rfc.priv.pem")):
    body = src.split("static const char %s[] =" % name)[1].split(";")[0]
    text = "".join(bytes(s, "ascii").decode("unicode_escape") for s in re.findall(r'"((?:[^"\\]|\\.)*)"', body))
    open(sys.argv[2] + "/" + out, "w").write(text)
PY
"$G" slhdsa import --format pem --pk $d/rfc.pub.pem --out $d/rfc.pub >/dev/null
check '[ $? -eq 0 ] && [ "$("$G" slhdsa info $d/rfc.pub --json | jget "[\"params\"]")" = SLH-DSA-SHA2-128s ]' "RFC 9909 example public key imported (SLH-DSA-SHA2-128s)"
"$G" slhdsa export --pk $d/rfc.pub --format pem --out $d/rfc.pub.again >/dev/null
check 'cmp -s $d/rfc.pub.pem $d/rfc.pub.again' "re-exported SPKI PEM equals RFC 9909's example text"
"$G" slhdsa export --pk $d/rfc.pub --format der --out $d/rfc.pub.der >/dev/null
check '[ "$(base64 -w0 $d/rfc.pub.der)" = "$(grep -v -- ----- $d/rfc.pub.pem | tr -d "\n")" ]' "re-exported SPKI DER equals RFC 9909's example bytes"
"$G" slhdsa import --format pem --sk $d/rfc.priv.pem --out $d/rfc.sec >/dev/null
"$G" slhdsa export --sk $d/rfc.sec --format pem --out $d/rfc.priv.again >/dev/null
check 'cmp -s $d/rfc.priv.pem $d/rfc.priv.again' "re-exported PKCS#8 PEM equals RFC 9909's example text"
check '[ "$("$G" slhdsa info $d/rfc.sec --json | jget "[\"key_id\"]")" = "$("$G" slhdsa info $d/rfc.pub --json | jget "[\"key_id\"]")" ]' "the RFC's private and public key files carry one key id"
"$G" slhdsa sign --sk $d/rfc.sec --msg $d/msg --sig $d/rfc.sig >/dev/null && "$G" slhdsa verify --pk $d/rfc.pub --msg $d/msg --sig $d/rfc.sig >/dev/null
check '[ $? -eq 0 ]' "the RFC's private key signs, its public key verifies"

# ---- ACVP keys through import --format raw (the NIST layout), back out byte-identical
V="${GROVE_VECTORS_DIR:-}"
if [ -n "$V" ] && [ -f "$V/slhdsa/acvp-keygen.json" ]; then
  python3 - "$V/slhdsa/acvp-keygen.json" $d <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
with open(sys.argv[2] + "/acvp.list", "w") as f:
    for g in d["testGroups"]:
        t = g["tests"][0]
        open("%s/acvp.%d.pk" % (sys.argv[2], g["tgId"]), "wb").write(bytes.fromhex(t["pk"]))
        open("%s/acvp.%d.sk" % (sys.argv[2], g["tgId"]), "wb").write(bytes.fromhex(t["sk"]))
        f.write("%d %s\n" % (g["tgId"], g["parameterSet"]))
PY
  while read -r tg set; do
    "$G" slhdsa import --format raw --params $set --pk $d/acvp.$tg.pk --out $d/acvp.$tg.gpk >/dev/null &&
    "$G" slhdsa import --format raw --params $set --sk $d/acvp.$tg.sk --out $d/acvp.$tg.gsk >/dev/null &&
    "$G" slhdsa sign --sk $d/acvp.$tg.gsk --msg $d/msg --sig $d/acvp.sig >/dev/null &&
    "$G" slhdsa verify --pk $d/acvp.$tg.gpk --msg $d/msg --sig $d/acvp.sig >/dev/null
    check '[ $? -eq 0 ]' "ACVP $set key: import --format raw, sign, verify"
    check '[ "$(raw slhdsa sk $d/acvp.$tg.gsk | od -An -tx1 -v)" = "$(od -An -tx1 -v $d/acvp.$tg.sk)" ]' "ACVP $set: export --format raw gives the reference bytes"
  done < $d/acvp.list
fi

# ---- --json with the signature on stdout: stdout is exactly the signature, JSON on stderr
"$G" slhdsa sign --sk $d/sk2 --msg $d/msg --sig - --ctx 0102 --json > $d/stdout.sig 2> $d/stderr.json
rc=$?
check '[ $rc -eq 0 ] && cmp -s $d/stdout.sig $d/sig' "sign --sig - --json: stdout is exactly the signature"
check '[ "$(jget "[\"ok\"]" < $d/stderr.json)" = True ] && [ $(wc -l < $d/stderr.json) -eq 1 ]' "sign --sig - --json: one JSON object on stderr"
"$G" slhdsa sign --sk $d/sk2 --msg $d/msg --sig - --ctx 0102 > $d/stdout.sig 2>/dev/null
check 'cmp -s $d/stdout.sig $d/sig' "sign --sig -: stdout is exactly the signature"
"$G" slhdsa sign --sk $d/nonexistent --msg $d/msg --sig - --json > $d/stdout.sig 2> $d/stderr.json
check '[ $? -eq 2 ] && [ ! -s $d/stdout.sig ] && [ "$(jget "[\"ok\"]" < $d/stderr.json)" = False ]' "failing sign --sig - --json: nothing on stdout, the JSON object on stderr"
"$G" slhdsa export --pk $d/pk2 --format raw --out - > $d/stdout.raw 2> $d/stderr.txt
check 'cmp -s $d/stdout.raw $d/pk2.raw && grep -q exported $d/stderr.txt' "export --out -: the bytes on stdout, the message on stderr"
"$G" slhdsa import --format raw --params shake-128f --pk - --out - < $d/pk2.raw > $d/stdout.pk 2>/dev/null
check 'cmp -s $d/stdout.pk $d/pk2' "import --pk - --out -: stdin to stdout"

# ---- closed standard descriptors: no file ever lands on fd 0-2
"$G" slhdsa sign --sk $d/sk2 --msg - --sig $d/closed.sig <&- >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e $d/closed.sig ]' "--msg - with stdin closed: exit 2, nothing signed"
out=$("$G" slhdsa sign --sk $d/sk2 --msg - --sig $d/closed.sig 2>&1 <&-)
check 'echo "$out" | grep -q "standard input"' "--msg - with stdin closed names standard input"
out=$("$G" slhdsa sign --sk $d/sk2 --msg $d/msg --sig - 2>&1 >&-); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "standard output"' "--sig - with stdout closed: exit 2 naming standard output (rc=$rc)"
"$G" slhdsa keygen --pk $d/c.pk --sk $d/c.sk >&- 2>&-
check '[ $? -eq 0 ] && [ $(raw slhdsa sk $d/c.sk | wc -c) -eq 64 ] && [ $(raw slhdsa pk $d/c.pk | wc -c) -eq 32 ]' "keygen with stdout and stderr closed writes exact files"
"$G" slhdsa sign --sk $d/c.sk --msg $d/msg --sig $d/c.sig <&- >&- 2>&-
check '[ $? -eq 0 ]' "sign with fds 0-2 closed"
"$G" slhdsa verify --pk $d/c.pk --msg $d/msg --sig $d/c.sig >/dev/null
check '[ $? -eq 0 ]' "... and its signature verifies"
exit $fail
