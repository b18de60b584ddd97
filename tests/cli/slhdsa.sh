#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove slhdsa / grove sphincs end to end: keygen (seeded and random), sign, verify, tampering,
# contexts, pre-hash, wrong inputs, exit codes, --json, secret key file mode; the secret key
# file's integrity trailer (corrupted keys refused, raw keys accepted with a warning), --force,
# outputs naming inputs, malformed signatures exit 2, --json with data on stdout, closed fds.
set -u
G="${GROVE:?}"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }

# Seeded key generation reproduces the ACVP keyGen case SHA2-128s tcId 1.
seed=2F896D61D9CD9038CA303394FADAA22A24AC5EC1D86A989CA2196C3C8632419C1A05A42FE300E87B16AEE116CB2E2363
"$G" slhdsa keygen --params SLH-DSA-SHA2-128s --seed $seed --pk $d/pk --sk $d/sk >/dev/null
check '[ $? -eq 0 ]' "seeded keygen"
check '[ "$(od -An -tx1 -v $d/pk | tr -d " \n")" = "1a05a42fe300e87b16aee116cb2e236358e2c3e62632c9de03d08a535a0eb7e7" ]' "ACVP public key"
check '[ "$(stat -c %a $d/sk)" = "600" ]' "secret key file mode 0600"

printf 'hello grove' > $d/msg
"$G" slhdsa keygen --params shake-128f --pk $d/pk2 --sk $d/sk2 >/dev/null
check '[ $(stat -c %s $d/pk2) -eq 32 ] && [ $(stat -c %s $d/sk2) -eq 104 ]' "random keygen sizes (sk: 64 + 40-byte trailer)"
check '[ "$(head -c 64 $d/sk2 | tail -c 32 | od -An -tx1 -v)" = "$(od -An -tx1 -v $d/pk2)" ]' "the secret key holds the public key"
"$G" slhdsa sign --params shake-128f --sk $d/sk2 --msg $d/msg --sig $d/sig --ctx 0102 >/dev/null
check '[ $? -eq 0 ] && [ $(stat -c %s $d/sig) -eq 17088 ]' "sign"
# Outputs that are devices or pipes are written in place, never replaced by a file.
mkfifo $d/fifo
( timeout 30 cat $d/fifo > $d/fromfifo ) &
"$G" slhdsa sign --params shake-128f --sk $d/sk2 --msg $d/msg --sig $d/fifo --ctx 0102 >/dev/null
rc=$?; wait
check '[ $rc -eq 0 ] && [ -p $d/fifo ] && [ $(stat -c %s $d/fromfifo) -eq 17088 ]' "signature to a FIFO"
"$G" slhdsa sign --params shake-128f --sk $d/sk2 --msg $d/msg --sig /dev/null --ctx 0102 >/dev/null
check '[ $? -eq 0 ] && [ -c /dev/null ]' "signature to /dev/null leaves the device"
"$G" slhdsa keygen --params shake-128f --pk $d/pk9 --sk /dev/null >/dev/null 2>&1
check '[ $? -eq 2 ] && [ -c /dev/null ]' "a secret key is not written to a device"
"$G" slhdsa verify --params SLH-DSA-SHAKE-128f --pk $d/pk2 --msg $d/msg --sig $d/sig --ctx 0102 >/dev/null
check '[ $? -eq 0 ]' "verify valid"
"$G" slhdsa verify --params shake-128f --pk $d/pk2 --msg $d/msg --sig $d/sig >/dev/null 2>&1
check '[ $? -eq 1 ]' "verify with the wrong context exits 1"
printf 'hello grovE' > $d/msg2
"$G" slhdsa verify --params shake-128f --pk $d/pk2 --msg $d/msg2 --sig $d/sig --ctx 0102 >/dev/null 2>&1
check '[ $? -eq 1 ]' "tampered message exits 1"
out=$("$G" slhdsa verify --params shake-128f --pk $d/pk2 --msg $d/msg2 --sig $d/sig --ctx 0102 --json); rc=$?
check '[ $rc -eq 1 ] && [ "$(echo "$out" | jget "[\"valid\"]")" = "False" ]' "--json reports valid=false"
# a signature file of the wrong length is an input error (2), not an invalid signature (1)
head -c 100 $d/sig > $d/short
out=$("$G" slhdsa verify --params shake-128f --pk $d/pk2 --msg $d/msg --sig $d/short --ctx 0102 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "not a signature"' "truncated signature exits 2 (rc=$rc)"
cat $d/sig $d/msg > $d/long
"$G" slhdsa verify --params shake-128f --pk $d/pk2 --msg $d/msg --sig $d/long --ctx 0102 >/dev/null 2>&1
check '[ $? -eq 2 ]' "signature with trailing bytes exits 2"
: > $d/empty
"$G" slhdsa verify --params shake-128f --pk $d/pk2 --msg $d/msg --sig $d/empty --ctx 0102 >/dev/null 2>&1
check '[ $? -eq 2 ]' "empty signature file exits 2"
out=$("$G" slhdsa verify --params shake-128f --pk $d/pk2 --msg $d/msg --sig $d/short --ctx 0102 --json); rc=$?
check '[ $rc -eq 2 ] && [ "$(echo "$out" | jget "[\"ok\"]")" = False ]' "truncated signature --json: exit 2, one object"
"$G" slhdsa verify --params shake-128s --pk $d/pk2 --msg $d/msg --sig $d/sig --ctx 0102 >/dev/null 2>&1
check '[ $? -eq 2 ]' "a signature of another parameter set (same key size, other length) exits 2"
"$G" slhdsa verify --params shake-256f --pk $d/pk2 --msg $d/msg --sig $d/sig >/dev/null 2>&1
check '[ $? -eq 2 ]' "wrong-size public key file exits 2"
"$G" slhdsa verify --params nope --pk $d/pk2 --msg $d/msg --sig $d/sig >/dev/null 2>&1
check '[ $? -eq 2 ]' "unknown parameter set exits 2"
"$G" slhdsa sign --params shake-128f --sk $d/sk2 --msg $d/msg --sig $d/x --ctx $(printf '%0512d' 0) >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e $d/x ]' "context of 256 bytes refused, nothing written"
"$G" slhdsa sign --params shake-128f --sk $d/pk2 --msg $d/msg --sig $d/x >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e $d/x ]' "public key given as secret key refused"

# deterministic signing is reproducible; hedged is not
"$G" slhdsa sign --params shake-128f --sk $d/sk2 --msg $d/msg --sig $d/sigb --ctx 0102 >/dev/null
check 'cmp -s $d/sig $d/sigb' "deterministic signatures equal"
"$G" slhdsa sign --params shake-128f --sk $d/sk2 --msg $d/msg --sig $d/sigh --hedged >/dev/null
check '! cmp -s $d/sig $d/sigh' "hedged signature differs"
"$G" slhdsa verify --params shake-128f --pk $d/pk2 --msg $d/msg --sig $d/sigh >/dev/null
check '[ $? -eq 0 ]' "hedged signature verifies"

# pre-hash, message from stdin, signature to stdout
"$G" slhdsa sign --params shake-128f --sk $d/sk2 --msg - --sig - --prehash SHA2-256 < $d/msg > $d/sigp
check '[ $(stat -c %s $d/sigp) -eq 17088 ]' "pre-hash sign via stdin/stdout"
"$G" slhdsa verify --params shake-128f --pk $d/pk2 --msg $d/msg --sig $d/sigp --prehash SHA2-256 >/dev/null
check '[ $? -eq 0 ]' "pre-hash verify"
"$G" slhdsa verify --params shake-128f --pk $d/pk2 --msg $d/msg --sig $d/sigp --prehash SHA2-512 >/dev/null 2>&1
check '[ $? -eq 1 ]' "wrong pre-hash exits 1"
"$G" slhdsa verify --params shake-128f --pk $d/pk2 --msg $d/msg --sig $d/sigp --prehash MD5 >/dev/null 2>&1
check '[ $? -eq 2 ]' "unknown pre-hash exits 2"

# round 3.1
"$G" sphincs keygen --params sha2-128f --pk $d/rpk --sk $d/rsk >/dev/null
"$G" sphincs sign --params sphincs-sha2-128f-simple --sk $d/rsk --msg $d/msg --sig $d/rsig >/dev/null
"$G" sphincs verify --params sha2-128f --pk $d/rpk --msg $d/msg --sig $d/rsig >/dev/null
check '[ $? -eq 0 ]' "sphincs round trip"
"$G" slhdsa verify --params sha2-128f --pk $d/rpk --msg $d/msg --sig $d/rsig >/dev/null 2>&1
check '[ $? -eq 1 ]' "a round-3.1 signature is not an SLH-DSA signature"
"$G" sphincs sign --params sha2-128f --sk $d/rsk --msg $d/msg --sig $d/x --ctx 00 >/dev/null 2>&1
check '[ $? -eq 2 ]' "sphincs refuses --ctx"
"$G" sphincs verify --params SLH-DSA-SHA2-128f --pk $d/rpk --msg $d/msg --sig $d/rsig >/dev/null 2>&1
check '[ $? -eq 2 ]' "sphincs refuses a FIPS name"
out=$("$G" sphincs params --json)
check 'echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); assert len(d[\"parameter_sets\"])==12"' "params lists 12 sets"

# ---- secret key files: integrity trailer, corrupted keys, raw keys, --force, same-file outputs
# the trailer is the documented construction (grove/sig.h, grove_sk_trailer), recomputed here
"$G" slhdsa keygen --params shake-128f --pk $d/tr.pk --sk $d/tr.sk >/dev/null
check 'python3 - "$d/tr.sk" "$d/tr.pk" <<"PY"
import hashlib, struct, sys
sk = open(sys.argv[1], "rb").read(); pk = open(sys.argv[2], "rb").read()
f = lambda b: struct.pack(">I", len(b)) + b
h = hashlib.sha256(b"grove secret key file integrity check v1" + f(b"SLH-DSA-SHAKE-128f") + f(sk[:-40]) + f(pk)).digest()
assert sk[-40:] == b"GRVSKCK1" + h
PY' "secret key trailer = the construction documented in grove/sig.h"
for scheme in slhdsa sphincs; do
  "$G" $scheme keygen --params sha2-128f --pk $d/$scheme.pk --sk $d/$scheme.sk >/dev/null
  for pos in 0 15 16 31 32 47 48 63 64 71 72 90 103; do
    python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[int(sys.argv[3])]^=0x10; open(sys.argv[2],'wb').write(b)" $d/$scheme.sk $d/bad.sk $pos
    out=$("$G" $scheme sign --params sha2-128f --sk $d/bad.sk --msg $d/msg --sig $d/bad.sig 2>&1); rc=$?
    check '[ $rc -eq 2 ] && [ ! -e $d/bad.sig ]' "$scheme: secret key with bit flipped at byte $pos refused, nothing written (rc=$rc: $out)"
  done
  out=$("$G" $scheme sign --params sha2-128f --sk $d/$scheme.sk --msg $d/msg --sig $d/$scheme.sig 2>&1); rc=$?
  check '[ $rc -eq 0 ] && ! echo "$out" | grep -q warning' "$scheme: an intact key signs without warning"
  "$G" $scheme verify --params sha2-128f --pk $d/$scheme.pk --msg $d/msg --sig $d/$scheme.sig >/dev/null
  check '[ $? -eq 0 ]' "$scheme: its signature verifies"
  "$G" $scheme sign --params sha2-128s --sk $d/$scheme.sk --msg $d/msg --sig $d/bad.sig >/dev/null 2>&1
  check '[ $? -eq 2 ] && [ ! -e $d/bad.sig ]' "$scheme: a key used with another parameter set of the same size is refused"
  # a raw key (e.g. from a reference implementation) is used, with a warning
  head -c 64 $d/$scheme.sk > $d/raw.sk
  out=$("$G" $scheme sign --params sha2-128f --sk $d/raw.sk --msg $d/msg --sig $d/raw.sig 2>&1 >/dev/null); rc=$?
  check '[ $rc -eq 0 ] && echo "$out" | grep -q "warning:.*integrity"' "$scheme: raw key accepted with a warning (rc=$rc)"
  [ $scheme = slhdsa ] && check 'cmp -s $d/raw.sig $d/$scheme.sig' "$scheme: raw key gives the same (deterministic) signature"
  "$G" $scheme verify --params sha2-128f --pk $d/$scheme.pk --msg $d/msg --sig $d/raw.sig >/dev/null
  check '[ $? -eq 0 ]' "$scheme: the raw key's signature verifies"
  out=$("$G" $scheme sign --params sha2-128f --sk $d/raw.sk --msg $d/msg --sig $d/raw.sig --json 2>/dev/null)
  check '[ -n "$(echo "$out" | jget "[\"warning\"]")" ]' "$scheme: --json carries the warning"
  # a raw key whose SK.seed is damaged does not give its PK.root: refused, nothing written
  python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[3]^=1; open(sys.argv[2],'wb').write(b)" $d/raw.sk $d/rawbad.sk
  "$G" $scheme sign --params sha2-128f --sk $d/rawbad.sk --msg $d/msg --sig $d/bad.sig >/dev/null 2>&1
  check '[ $? -eq 2 ] && [ ! -e $d/bad.sig ]' "$scheme: raw key with a damaged SK.seed refused"
  "$G" $scheme sign --params sha2-128f --sk $d/$scheme.pk --msg $d/msg --sig $d/bad.sig >/dev/null 2>&1
  check '[ $? -eq 2 ] && [ ! -e $d/bad.sig ]' "$scheme: a 32-byte file is not a secret key"
  # existing secret key files are not replaced without --force
  cp $d/$scheme.sk $d/keep.sk; rm -f $d/new.pk
  out=$("$G" $scheme keygen --params sha2-128f --pk $d/new.pk --sk $d/$scheme.sk 2>&1); rc=$?
  check '[ $rc -eq 2 ] && cmp -s $d/$scheme.sk $d/keep.sk && [ ! -e $d/new.pk ] && echo "$out" | grep -q "$d/$scheme.sk"' "$scheme: keygen refuses to overwrite a secret key, naming it (rc=$rc)"
  "$G" $scheme keygen --params sha2-128f --pk $d/new.pk --sk $d/$scheme.sk --force >/dev/null
  check '[ $? -eq 0 ] && ! cmp -s $d/$scheme.sk $d/keep.sk && [ "$(stat -c %a $d/$scheme.sk)" = 600 ]' "$scheme: --force replaces it (mode 0600)"
  # an output naming one of the inputs is refused before anything happens
  cp $d/msg $d/msgcopy
  "$G" $scheme sign --params sha2-128f --sk $d/$scheme.sk --msg $d/msgcopy --sig $d/msgcopy >/dev/null 2>&1
  check '[ $? -eq 2 ] && cmp -s $d/msg $d/msgcopy' "$scheme: --sig naming --msg refused"
  cp $d/$scheme.sk $d/keep.sk
  "$G" $scheme sign --params sha2-128f --sk $d/$scheme.sk --msg $d/msg --sig $d/$scheme.sk >/dev/null 2>&1
  check '[ $? -eq 2 ] && cmp -s $d/$scheme.sk $d/keep.sk' "$scheme: --sig naming --sk refused"
  "$G" $scheme keygen --params sha2-128f --pk $d/same --sk $d/./same >/dev/null 2>&1
  check '[ $? -eq 2 ] && [ ! -e $d/same ]' "$scheme: keygen --pk naming --sk refused"
done

# ---- --json with the signature on stdout: stdout is exactly the signature, JSON on stderr
"$G" slhdsa sign --params shake-128f --sk $d/sk2 --msg $d/msg --sig - --ctx 0102 --json > $d/stdout.sig 2> $d/stderr.json
rc=$?
check '[ $rc -eq 0 ] && cmp -s $d/stdout.sig $d/sig' "sign --sig - --json: stdout is exactly the signature"
check '[ "$(jget "[\"ok\"]" < $d/stderr.json)" = True ] && [ $(wc -l < $d/stderr.json) -eq 1 ]' "sign --sig - --json: one JSON object on stderr"
"$G" slhdsa sign --params shake-128f --sk $d/sk2 --msg $d/msg --sig - --ctx 0102 > $d/stdout.sig 2>/dev/null
check 'cmp -s $d/stdout.sig $d/sig' "sign --sig -: stdout is exactly the signature"
"$G" slhdsa sign --params shake-128f --sk $d/nonexistent --msg $d/msg --sig - --json > $d/stdout.sig 2> $d/stderr.json
check '[ $? -eq 2 ] && [ ! -s $d/stdout.sig ] && [ "$(jget "[\"ok\"]" < $d/stderr.json)" = False ]' "failing sign --sig - --json: nothing on stdout, the JSON object on stderr"

# ---- closed standard descriptors: no file ever lands on fd 0-2
"$G" slhdsa sign --params shake-128f --sk $d/sk2 --msg - --sig $d/closed.sig <&- >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e $d/closed.sig ]' "--msg - with stdin closed: exit 2, nothing signed"
out=$("$G" slhdsa sign --params shake-128f --sk $d/sk2 --msg - --sig $d/closed.sig 2>&1 <&-)
check 'echo "$out" | grep -q "standard input"' "--msg - with stdin closed names standard input"
out=$("$G" slhdsa sign --params shake-128f --sk $d/sk2 --msg $d/msg --sig - 2>&1 >&-); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "standard output"' "--sig - with stdout closed: exit 2 naming standard output (rc=$rc)"
"$G" slhdsa keygen --params shake-128f --pk $d/c.pk --sk $d/c.sk >&- 2>&-
check '[ $? -eq 0 ] && [ $(stat -c %s $d/c.sk) -eq 104 ] && [ $(stat -c %s $d/c.pk) -eq 32 ]' "keygen with stdout and stderr closed writes exact files"
"$G" slhdsa sign --params shake-128f --sk $d/c.sk --msg $d/msg --sig $d/c.sig <&- >&- 2>&-
check '[ $? -eq 0 ]' "sign with fds 0-2 closed"
"$G" slhdsa verify --params shake-128f --pk $d/c.pk --msg $d/msg --sig $d/c.sig >/dev/null
check '[ $? -eq 0 ]' "... and its signature verifies"
exit $fail
