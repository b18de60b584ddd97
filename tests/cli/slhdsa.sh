#!/usr/bin/env bash
# grove slhdsa / grove sphincs end to end: keygen (seeded and random), sign, verify, tampering,
# contexts, pre-hash, wrong inputs, exit codes, --json, secret key file mode.
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
check '[ $(stat -c %s $d/pk2) -eq 32 ] && [ $(stat -c %s $d/sk2) -eq 64 ]' "random keygen sizes"
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
head -c 100 $d/sig > $d/short
"$G" slhdsa verify --params shake-128f --pk $d/pk2 --msg $d/msg --sig $d/short --ctx 0102 >/dev/null 2>&1
check '[ $? -eq 1 ]' "truncated signature exits 1"
"$G" slhdsa verify --params shake-128s --pk $d/pk2 --msg $d/msg --sig $d/sig --ctx 0102 >/dev/null 2>&1
check '[ $? -eq 1 ]' "other parameter set (same key size) rejects"
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
exit $fail
