#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The real `openssl` command (Debian 12: OpenSSL 3.0) with grove.so from the build tree
# (OPENSSL_MODULES): genpkey, pkey, req -new -x509, x509 -req/-text, verify of a two-certificate
# SLH-DSA chain, dgst -sign/-verify, pkeyutl -rawin, CMS (signed with grove-ossl-cms where 3.0's
# `openssl cms -sign` cannot, verified by `openssl cms -verify`), tampered variants refused,
# keys and signatures exchanged with the grove CLI both ways (byte-identical keys, identical
# deterministic signatures, pure and pre-hash), RFC 9802's XMSS certificates and a grove XMSS signature verified,
# XMSS signing through grove-xmss:<key file> (state saved first, a restored key file refused),
# bad keys and unsupported parameters: an error message and no crash.
set -u
O="${OPENSSL:?}"
G="${GROVE:?}"
CMS="${GROVE_OSSL_CMS:?}"
: "${OPENSSL_MODULES:?}"
export OPENSSL_MODULES
SRC="$(cd "$(dirname "$0")/../.." && pwd)"
if ! [ -x "$O" ]; then
  if [ "${GROVE_REQUIRE_PROVIDER:-0}" = 1 ]; then echo "FAIL: no openssl command ($O)"; exit 1; fi
  echo "SKIP: no openssl command (Debian package openssl)"
  exit 77
fi
if [ "${GROVE_SANITIZED:-0}" = 1 ] || [ "${GROVE_SANITIZED:-0}" = ON ]; then
  echo "SKIP: the openssl command cannot load a sanitizer-instrumented grove.so (test_openssl_provider covers it)"
  exit 77
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export GROVE_STATE_DIR=$d/state
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
# exit status of a command that must fail cleanly: 1..127 (not 0, not a signal)
clean_fail() { [ "$1" -ne 0 ] && [ "$1" -lt 128 ]; }
# flip FILE OFFSET: XOR one byte with 0x01 (a negative OFFSET counts from the end): always a change
flip() { python3 -c "import sys; p, i = sys.argv[1], int(sys.argv[2]); b = bytearray(open(p, 'rb').read()); b[i] ^= 1; open(p, 'wb').write(b)" "$1" "$2"; }
P="-provider grove -provider default"
ossl() { "$O" "$@"; }

# grove.so exports the provider entry point and nothing else (libgrove inside is hidden)
if command -v nm >/dev/null; then
  exported=$(nm -D --defined-only "$OPENSSL_MODULES/grove.so" | awk '{print $3}' | sort -u | tr '\n' ' ')
  check '[ "$exported" = "OSSL_provider_init " ]' "grove.so exports only OSSL_provider_init (got: $exported)"
fi
if command -v ldd >/dev/null; then
  deps=$(ldd "$OPENSSL_MODULES/grove.so" | grep -Ec 'libsqlite3|libpq|libgmp')
  check '[ "$deps" = 0 ]' "grove.so needs no SQLite, libpq or GMP (libgrove's unused parts are not linked in)"
fi
out=$(ossl list -providers $P 2>&1)
check 'echo "$out" | grep -q "grove post-quantum signatures provider"' "openssl list -providers shows grove ($out)"
out=$(ossl list -signature-algorithms $P 2>&1)
check '[ $(echo "$out" | grep -c "{ 2.16.840.1.101.3.4.3.[0-9]*, id-slh-dsa-.*@ grove") -eq 12 ] && [ $(echo "$out" | grep -c "id-hash-slh-dsa-.*@ grove") -eq 12 ] && echo "$out" | grep -q "XMSSMT"' "12 SLH-DSA and 12 HashSLH-DSA signature algorithms and XMSS^MT listed"

# ---- a CA and a leaf certificate, both SLH-DSA ------------------------------------------------
ossl genpkey $P -algorithm SLH-DSA-SHA2-128f -out $d/ca.key
check '[ $? -eq 0 ] && head -1 $d/ca.key | grep -qx -- "-----BEGIN PRIVATE KEY-----"' "genpkey SLH-DSA-SHA2-128f (PEM PKCS#8)"
ossl req $P -new -x509 -key $d/ca.key -subj "/CN=grove test CA" -days 30 -out $d/ca.pem \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
check '[ $? -eq 0 ]' "req -new -x509: self-signed CA"
out=$(ossl x509 $P -in $d/ca.pem -text -noout 2>&1)
check 'echo "$out" | grep -q "Signature Algorithm: SLH-DSA-SHA2-128f" && echo "$out" | grep -q "Public Key Algorithm: SLH-DSA-SHA2-128f"' "x509 -text names SLH-DSA-SHA2-128f"
out=$(ossl asn1parse -in $d/ca.pem 2>&1)
check '[ $(echo "$out" | grep -c "OBJECT *:2.16.840.1.101.3.4.3.21") -eq 3 ]' "the certificate carries id-slh-dsa-sha2-128f three times (RFC 9909 OID; parameters absent)"
ossl genpkey $P -algorithm SLH-DSA-SHAKE-128f -out $d/leaf.key
ossl req $P -new -key $d/leaf.key -subj "/CN=firmware signer" -out $d/leaf.csr
check '[ $? -eq 0 ] && ossl req $P -in $d/leaf.csr -verify -noout >/dev/null 2>&1' "req: a CSR signed with SLH-DSA-SHAKE-128f verifies"
ossl x509 $P -req -in $d/leaf.csr -CA $d/ca.pem -CAkey $d/ca.key -days 10 -out $d/leaf.pem \
  -set_serial 2 >/dev/null 2>&1
check '[ $? -eq 0 ]' "x509 -req: the CA issues the leaf"
out=$(ossl verify $P -CAfile $d/ca.pem $d/leaf.pem 2>&1)
check '[ $? -eq 0 ] && [ "$out" = "$d/leaf.pem: OK" ]' "verify: the two-certificate chain ($out)"
# tampered: a signature byte, a byte of the signed part, another CA with the same name
ossl x509 -in $d/leaf.pem -outform DER -out $d/leaf.der
cp $d/leaf.der $d/bad.der
flip $d/bad.der -100
ossl x509 -inform DER -in $d/bad.der -out $d/bad.pem 2>/dev/null
out=$(ossl verify $P -CAfile $d/ca.pem $d/bad.pem 2>&1); rc=$?
check 'clean_fail $rc && echo "$out" | grep -q "signature failure"' "verify refuses a leaf with a changed signature byte (rc=$rc)"
python3 - $d/leaf.der $d/bad2.der <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
i = b.find(b'firmware signer')
b[i] ^= 0x20
open(sys.argv[2], 'wb').write(b)
PY
ossl x509 -inform DER -in $d/bad2.der -out $d/bad2.pem 2>/dev/null
out=$(ossl verify $P -CAfile $d/ca.pem $d/bad2.pem 2>&1); rc=$?
check 'clean_fail $rc' "verify refuses a leaf whose subject was changed (rc=$rc)"
ossl genpkey $P -algorithm SLH-DSA-SHA2-128f -out $d/evil.key
ossl req $P -new -x509 -key $d/evil.key -subj "/CN=grove test CA" -days 30 -out $d/evil.pem \
  -addext basicConstraints=critical,CA:TRUE
out=$(ossl verify $P -CAfile $d/evil.pem $d/leaf.pem 2>&1); rc=$?
check 'clean_fail $rc' "verify refuses the leaf under a different CA key of the same name (rc=$rc)"

# ---- dgst and pkeyutl --------------------------------------------------------------------------
head -c 300000 /dev/urandom > $d/fw.bin
ossl x509 $P -in $d/leaf.pem -pubkey -noout > $d/leaf.pub
ossl dgst $P -sign $d/leaf.key -out $d/fw.dgst.sig $d/fw.bin
check '[ $? -eq 0 ] && [ $(stat -c %s $d/fw.dgst.sig) -eq 17088 ]' "dgst -sign (17088-byte SLH-DSA-SHAKE-128f signature)"
out=$(ossl dgst $P -verify $d/leaf.pub -signature $d/fw.dgst.sig $d/fw.bin 2>&1)
check '[ $? -eq 0 ] && [ "$out" = "Verified OK" ]' "dgst -verify ($out)"
cp $d/fw.bin $d/fw.bad; flip $d/fw.bad 1000
out=$(ossl dgst $P -verify $d/leaf.pub -signature $d/fw.dgst.sig $d/fw.bad 2>&1); rc=$?
check '[ $rc -eq 1 ] && echo "$out" | grep -qi "Verification Failure"' "dgst -verify refuses a changed file (rc=$rc)"
ossl pkeyutl $P -sign -rawin -inkey $d/leaf.key -in $d/fw.bin -out $d/fw.raw.sig
out=$(ossl pkeyutl $P -verify -rawin -pubin -inkey $d/leaf.pub -in $d/fw.bin -sigfile $d/fw.raw.sig 2>&1)
check '[ $? -eq 0 ] && echo "$out" | grep -q "Signature Verified Successfully"' "pkeyutl -rawin sign/verify"
out=$(ossl pkeyutl $P -verify -rawin -pubin -inkey $d/leaf.pub -in $d/fw.bad -sigfile $d/fw.raw.sig 2>&1); rc=$?
check 'clean_fail $rc' "pkeyutl -rawin -verify refuses a changed file (rc=$rc)"

# ---- CMS (RFC 9814) ----------------------------------------------------------------------------
# OpenSSL 3.0's own `cms -sign` leaves the SignerInfo's signatureAlgorithm empty for a provider
# key: it must fail cleanly (and if a later OpenSSL makes it work, verify its output too).
ossl cms $P -sign -binary -in $d/fw.bin -signer $d/leaf.pem -inkey $d/leaf.key -md sha512 \
  -outform DER -out $d/fw.ossl.cms >$d/cms.log 2>&1; rc=$?
if [ $rc -eq 0 ]; then
  ossl cms $P -verify -binary -inform DER -in $d/fw.ossl.cms -content $d/fw.bin -CAfile $d/ca.pem -out /dev/null 2>/dev/null
  check '[ $? -eq 0 ]' "openssl cms -sign worked (OpenSSL >= 3.2?): its output verifies"
else
  check 'clean_fail $rc' "openssl cms -sign on OpenSSL 3.0 fails cleanly (rc=$rc)"
fi
"$CMS" sign $d/leaf.pem $d/leaf.key $d/fw.bin $d/fw.cms
check '[ $? -eq 0 ]' "grove-ossl-cms: detached SignedData"
out=$(ossl asn1parse -inform DER -in $d/fw.cms 2>&1)
check 'echo "$out" | grep -q "OBJECT *:2.16.840.1.101.3.4.3.27" && echo "$out" | grep -q "OBJECT *:sha512" && echo "$out" | grep -q "messageDigest"' "SignerInfo: id-slh-dsa-shake-128f, SHA-512 digest, signed attributes"
out=$(ossl cms $P -verify -binary -inform DER -in $d/fw.cms -content $d/fw.bin -CAfile $d/ca.pem -out $d/fw.out 2>&1)
check '[ $? -eq 0 ] && cmp -s $d/fw.out $d/fw.bin && echo "$out" | grep -q "Verification successful"' "openssl cms -verify: firmware CMS signature and chain verify ($out)"
out=$(ossl cms $P -verify -binary -inform DER -in $d/fw.cms -content $d/fw.bad -CAfile $d/ca.pem -out /dev/null 2>&1); rc=$?
check 'clean_fail $rc && echo "$out" | grep -q "Verification failure"' "cms -verify refuses a changed firmware file (rc=$rc)"
python3 - $d/fw.cms $d/fw.bad.cms <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[-200] ^= 1  # inside the SLH-DSA signature (the last field of the SignerInfo)
open(sys.argv[2], 'wb').write(b)
PY
out=$(ossl cms $P -verify -binary -inform DER -in $d/fw.bad.cms -content $d/fw.bin -CAfile $d/ca.pem -out /dev/null 2>&1); rc=$?
check 'clean_fail $rc' "cms -verify refuses a changed signature byte (rc=$rc)"
out=$(ossl cms $P -verify -binary -inform DER -in $d/fw.cms -content $d/fw.bin -CAfile $d/evil.pem -out /dev/null 2>&1); rc=$?
check 'clean_fail $rc' "cms -verify refuses a signer not issued by the trusted CA (rc=$rc)"
"$CMS" sign $d/ca.pem $d/ca.key $d/fw.bin $d/fw128.cms && \
  check 'ossl asn1parse -inform DER -in $d/fw128.cms | grep -q "OBJECT *:sha256"' "SLH-DSA-SHA2-128f: SHA-256 digest (RFC 9814)"

# ---- keys and signatures between the provider and the grove CLI -------------------------------
# provider -> grove: the PEM keys import; grove's re-export is byte-identical; grove verifies
# openssl's signature and openssl verifies grove's (deterministic: the very same bytes)
ossl pkey $P -in $d/leaf.key -pubout -out $d/leaf.pk.pem
"$G" slhdsa import --format pem --sk $d/leaf.key --out $d/leaf.gsk >/dev/null
check '[ $? -eq 0 ]' "grove slhdsa import reads the provider's PKCS#8 PEM"
"$G" slhdsa import --format pem --pk $d/leaf.pk.pem --out $d/leaf.gpk >/dev/null
check '[ $? -eq 0 ]' "grove slhdsa import reads the provider's SubjectPublicKeyInfo PEM"
"$G" slhdsa export --sk $d/leaf.gsk --format pem --out $d/leaf.again.key >/dev/null
"$G" slhdsa export --pk $d/leaf.gpk --format pem --out $d/leaf.again.pub >/dev/null
check 'cmp -s $d/leaf.again.key $d/leaf.key && cmp -s $d/leaf.again.pub $d/leaf.pk.pem' "grove's PEM export of those keys is byte-identical to the provider's"
ossl pkeyutl $P -sign -rawin -inkey $d/leaf.key -in $d/fw.bin -out $d/det.sig -pkeyopt deterministic:1
"$G" slhdsa sign --sk $d/leaf.gsk --msg $d/fw.bin --sig $d/g.sig >/dev/null
"$G" slhdsa export --sig $d/g.sig --format raw --out $d/g.raw.sig >/dev/null
check 'cmp -s $d/det.sig $d/g.raw.sig' "deterministic signatures: openssl (-pkeyopt deterministic:1) and grove give the same bytes"
"$G" slhdsa import --format raw --params SLH-DSA-SHAKE-128f --sig $d/fw.raw.sig --out $d/o.sig >/dev/null
"$G" slhdsa verify --pk $d/leaf.gpk --msg $d/fw.bin --sig $d/o.sig >/dev/null
check '[ $? -eq 0 ]' "grove slhdsa verify accepts openssl's (hedged) signature"
"$G" slhdsa verify --pk $d/leaf.gpk --msg $d/fw.bad --sig $d/o.sig >/dev/null 2>&1
check '[ $? -eq 1 ]' "... and refuses it on a changed file (exit 1)"
# grove -> provider: a grove key pair, exported, used by openssl; PEM re-encoded identically
"$G" slhdsa keygen --params SLH-DSA-SHA2-192f --pk $d/g2.pk --sk $d/g2.sk >/dev/null
"$G" slhdsa export --sk $d/g2.sk --format pem --out $d/g2.key >/dev/null
"$G" slhdsa export --pk $d/g2.pk --format pem --out $d/g2.pub >/dev/null
"$G" slhdsa export --pk $d/g2.pk --format der --out $d/g2.pub.der >/dev/null
ossl pkey $P -in $d/g2.key -out $d/g2.key.again 2>/dev/null
ossl pkey $P -pubin -in $d/g2.pub -out $d/g2.pub.again 2>/dev/null
ossl pkey $P -pubin -inform DER -in $d/g2.pub.der -outform DER -out $d/g2.pub.der.again 2>/dev/null
check 'cmp -s $d/g2.key $d/g2.key.again && cmp -s $d/g2.pub $d/g2.pub.again && cmp -s $d/g2.pub.der $d/g2.pub.der.again' "openssl pkey re-encodes grove's PKCS#8/SPKI (PEM and DER) byte-identically"
"$G" slhdsa sign --sk $d/g2.sk --msg $d/fw.bin --sig $d/g2.sig --hedged >/dev/null
"$G" slhdsa export --sig $d/g2.sig --format raw --out $d/g2.raw.sig >/dev/null
ossl pkeyutl $P -verify -rawin -pubin -inkey $d/g2.pub -in $d/fw.bin -sigfile $d/g2.raw.sig >/dev/null 2>&1
check '[ $? -eq 0 ]' "openssl verifies grove's signature with grove's exported key"
ossl dgst $P -verify $d/g2.pub -signature $d/g2.raw.sig $d/fw.bin >/dev/null 2>&1
check '[ $? -eq 0 ]' "... with dgst -verify too"
# context strings: grove --ctx and openssl -pkeyopt context-string agree
ossl pkeyutl $P -sign -rawin -inkey $d/g2.key -in $d/fw.bin -out $d/ctx.sig -pkeyopt context-string:fw-v1
"$G" slhdsa import --format raw --params SLH-DSA-SHA2-192f --sig $d/ctx.sig --out $d/ctx.gsig >/dev/null
"$G" slhdsa verify --pk $d/g2.pk --msg $d/fw.bin --sig $d/ctx.gsig --ctx $(printf 'fw-v1' | od -An -tx1 | tr -d ' \n') >/dev/null
check '[ $? -eq 0 ]' "a context string set through -pkeyopt is FIPS 205's ctx (grove verifies with --ctx)"
"$G" slhdsa verify --pk $d/g2.pk --msg $d/fw.bin --sig $d/ctx.gsig >/dev/null 2>&1
check '[ $? -eq 1 ]' "... and not without it"

# HashSLH-DSA: a grove key exported under id-hash-slh-dsa-shake-128f-with-shake128 is a pre-hash
# key for openssl too; its signature is verified by grove with --prehash shake128
"$G" slhdsa keygen --params SLH-DSA-SHAKE-128f --pk $d/h.pk --sk $d/h.sk >/dev/null
"$G" slhdsa export --sk $d/h.sk --format pem --prehash shake128 --out $d/h.key >/dev/null
"$G" slhdsa export --pk $d/h.pk --format pem --prehash shake128 --out $d/h.pub >/dev/null
out=$(ossl pkey $P -in $d/h.key -noout -text 2>&1)
check 'echo "$out" | grep -q "HASH-SLH-DSA-SHAKE-128f-WITH-SHAKE128 Private-Key"' "openssl reads a HashSLH-DSA PKCS#8 key from grove ($out)"
ossl pkey $P -in $d/h.key -out $d/h.key.again 2>/dev/null
check 'cmp -s $d/h.key $d/h.key.again' "... and re-encodes it byte-identically"
ossl pkeyutl $P -sign -rawin -inkey $d/h.key -in $d/fw.bin -out $d/h.sig -pkeyopt deterministic:1
"$G" slhdsa sign --sk $d/h.sk --msg $d/fw.bin --sig $d/h.gsig --prehash shake128 >/dev/null
"$G" slhdsa export --sig $d/h.gsig --format raw --out $d/h.graw >/dev/null
check 'cmp -s $d/h.sig $d/h.graw' "HashSLH-DSA deterministic signatures: openssl and grove --prehash shake128 give the same bytes"
ossl pkeyutl $P -verify -rawin -pubin -inkey $d/h.pub -in $d/fw.bin -sigfile $d/h.graw >/dev/null 2>&1
check '[ $? -eq 0 ]' "openssl verifies grove's HashSLH-DSA signature"
ossl pkeyutl $P -verify -rawin -pubin -inkey $d/g2.pub -in $d/fw.bin -sigfile $d/h.graw >/dev/null 2>&1
check '[ $? -ne 0 ]' "... not under another key"

# ---- XMSS / XMSS^MT: verification ---------------------------------------------------------------
python3 - "$SRC/tests/pkix/rfc_examples.h" $d <<'PY'
import re, sys
src = open(sys.argv[1]).read()
for name, out in (("RFC9802_XMSS_CERT_PEM", "xmss.pem"), ("RFC9802_XMSSMT_CERT_PEM", "xmssmt.pem")):
    body = src.split("static const char *const %s[] = {" % name)[1].split("NULL};")[0]
    open(sys.argv[2] + "/" + out, "w").write("".join(s + "\n" for s in re.findall(r'"([^"]*)"', body)))
PY
for c in xmss xmssmt; do
  out=$(ossl verify $P -CAfile $d/$c.pem $d/$c.pem 2>&1)
  check '[ $? -eq 0 ]' "verify: RFC 9802's self-signed $c certificate ($out)"
done
out=$(ossl x509 $P -in $d/xmssmt.pem -text -noout 2>&1)
check 'echo "$out" | grep -q "Signature Algorithm: XMSSMT"' "x509 -text names XMSSMT"
"$G" xmss keygen --params XMSS-SHA2_10_256 --pk $d/x.pk --sk $d/x.sk --threads 1 >/dev/null
"$G" xmss sign --sk $d/x.sk --msg $d/fw.bin --sig $d/x.sig >/dev/null
"$G" xmss export --pk $d/x.pk --format pem --out $d/x.pub.pem >/dev/null
"$G" xmss export --sig $d/x.sig --format raw --out $d/x.raw.sig >/dev/null
out=$(ossl pkeyutl $P -verify -rawin -pubin -inkey $d/x.pub.pem -in $d/fw.bin -sigfile $d/x.raw.sig 2>&1)
check '[ $? -eq 0 ]' "openssl verifies a grove XMSS signature ($out)"
out=$(ossl pkeyutl $P -verify -rawin -pubin -inkey $d/x.pub.pem -in $d/fw.bad -sigfile $d/x.raw.sig 2>&1); rc=$?
check 'clean_fail $rc' "... and refuses it on a changed file (rc=$rc)"
ossl pkey $P -pubin -in $d/x.pub.pem -out $d/x.pub.again 2>/dev/null
check 'cmp -s $d/x.pub.pem $d/x.pub.again' "openssl pkey re-encodes grove's RFC 9802 SPKI byte-identically"

# XMSS signing through grove's key file: -inkey grove-xmss:<path>; the state is saved first
jidx() { "$G" xmss info --file "$1" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['index'])"; }
sigidx() { od -An -tu1 -N4 "$1" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}'; }
before=$(jidx $d/x.sk)
cp $d/x.sk $d/x.sk.backup
ossl pkeyutl $P -sign -rawin -inkey grove-xmss:$d/x.sk -in $d/fw.bin -out $d/xo1.sig
check '[ $? -eq 0 ] && [ $(stat -c %s $d/xo1.sig) -eq 2500 ]' "pkeyutl -sign with -inkey grove-xmss:<key file> (2500-byte XMSS signature)"
ossl pkeyutl $P -sign -rawin -inkey grove-xmss:$d/x.sk -in $d/fw.bin -out $d/xo2.sig
check '[ "$(sigidx $d/xo1.sig)" = "$before" ] && [ "$(sigidx $d/xo2.sig)" = $((before + 1)) ] && [ "$(jidx $d/x.sk)" = $((before + 2)) ]' "each signature uses the next index and the key file records it (indices $(sigidx $d/xo1.sig), $(sigidx $d/xo2.sig); file at $(jidx $d/x.sk))"
ossl pkeyutl $P -verify -rawin -pubin -inkey $d/x.pub.pem -in $d/fw.bin -sigfile $d/xo2.sig >/dev/null 2>&1
check '[ $? -eq 0 ]' "the provider's XMSS signature verifies (openssl)"
"$G" xmss import --format raw --sig $d/xo2.sig --params XMSS-SHA2_10_256 --out $d/xo2.gsig >/dev/null 2>&1 && \
  "$G" xmss verify --pk $d/x.pk --msg $d/fw.bin --sig $d/xo2.gsig >/dev/null 2>&1
check '[ $? -eq 0 ]' "... and with grove xmss verify"
ossl dgst $P -sign grove-xmss:$d/x.sk -out $d/xo3.sig $d/fw.bin 2>/dev/null
check '[ $? -eq 0 ] && [ "$(sigidx $d/xo3.sig)" = $((before + 2)) ]' "dgst -sign grove-xmss:<key file> too"
# a restored backup of the key file is refused (the registry knows better) and left alone
cp $d/x.sk.backup $d/x.sk
cp $d/x.sk $d/x.sk.restored
out=$(ossl pkeyutl $P -sign -rawin -inkey grove-xmss:$d/x.sk -in $d/fw.bin -out $d/xo4.sig 2>&1); rc=$?
check 'clean_fail $rc && echo "$out" | grep -qi "stale\|behind\|restored" && cmp -s $d/x.sk $d/x.sk.restored' "a restored (stale) key file: no signature, the file unchanged (rc=$rc)"
out=$(ossl pkeyutl $P -sign -rawin -inkey grove-xmss:$d/nonexistent.sk -in $d/fw.bin -out $d/xo5.sig 2>&1); rc=$?
check 'clean_fail $rc' "grove-xmss: a missing key file is a clean failure (rc=$rc)"

# an XMSS CA certificate signed through the key file (req -x509 -key grove-xmss:...), verified
"$G" xmss keygen --params XMSS-SHA2_10_256 --pk $d/y.pk --sk $d/y.sk --threads 1 >/dev/null
ossl req $P -new -x509 -key grove-xmss:$d/y.sk -subj "/CN=XMSS test CA" -days 30 -out $d/y.pem 2>/dev/null
check '[ $? -eq 0 ] && [ "$(jidx $d/y.sk)" = 1 ]' "req -new -x509 -key grove-xmss:<key file>: an XMSS CA certificate (key file at index $(jidx $d/y.sk))"
out=$(ossl verify $P -CAfile $d/y.pem $d/y.pem 2>&1)
check '[ $? -eq 0 ] && ossl x509 $P -in $d/y.pem -noout -text | grep -q "Signature Algorithm: XMSS"' "verify: the self-signed XMSS certificate ($out)"

# ---- bad keys and unsupported operations: a message, never a crash -----------------------------
out=$(ossl genpkey $P -algorithm XMSS 2>&1); rc=$?
check 'clean_fail $rc && echo "$out" | grep -q "stateful"' "genpkey XMSS: refused, says why (rc=$rc)"
head -c 60 $d/leaf.key > $d/trunc.key
out=$(ossl pkey $P -in $d/trunc.key -noout 2>&1); rc=$?
check 'clean_fail $rc' "a truncated private key: a clean failure (rc=$rc)"
python3 - $d/g2.key $d/incons.key <<'PY'
import base64, sys
lines = open(sys.argv[1]).read().split("\n")
der = bytearray(base64.b64decode("".join(lines[1:-2])))
der[-1] ^= 1  # the last byte of PK.root inside the secret key
b64 = base64.b64encode(bytes(der)).decode()
open(sys.argv[2], "w").write("-----BEGIN PRIVATE KEY-----\n" + "\n".join(b64[i:i+64] for i in range(0, len(b64), 64)) + "\n-----END PRIVATE KEY-----\n")
PY
out=$(ossl pkey $P -in $d/incons.key -noout 2>&1); rc=$?
# (OpenSSL 3.0's OSSL_STORE drops the provider's reason and says "Could not read key";
# test_openssl_provider checks the reason through the decoder API)
check 'clean_fail $rc && echo "$out" | grep -q "Could not read key"' "an inconsistent secret key (PK.root changed): refused (rc=$rc)"
out=$(ossl pkeyutl $P -sign -rawin -inkey $d/leaf.key -in $d/fw.bin -out $d/x -pkeyopt context-string:$(head -c 300 /dev/zero | tr '\0' a) 2>&1); rc=$?
check 'clean_fail $rc && echo "$out" | grep -q "context-string"' "a 300-byte context string: refused (rc=$rc)"
out=$(ossl pkeyutl $P -sign -rawin -inkey $d/leaf.key -in $d/fw.bin -out $d/x -pkeyopt deterministic:7 2>&1); rc=$?
check 'clean_fail $rc' "deterministic:7: refused (rc=$rc)"
out=$(ossl genpkey $P -algorithm SLH-DSA-SHA2-128f -aes256 -pass pass:x -out $d/enc.key 2>&1); rc=$?
check 'clean_fail $rc' "an encrypted PKCS#8 key is refused, not written in the clear (rc=$rc)"
out=$(ossl pkeyutl $P -sign -rawin -inkey $d/x.pub.pem -pubin -in $d/fw.bin -out $d/x 2>&1); rc=$?
check 'clean_fail $rc' "signing with a public key: refused (rc=$rc)"

# ---- openssl.cnf (the snippet of docs/openssl.md): no -provider options needed; CROSS ---------
cat > $d/grove.cnf <<'EOF'
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
grove = grove_sect
[default_sect]
activate = 1
[grove_sect]
activate = 1
EOF
OPENSSL_CONF=$d/grove.cnf ossl genpkey -algorithm SLH-DSA-SHAKE-256f -out $d/cnf.key 2>/dev/null
check '[ $? -eq 0 ] && OPENSSL_CONF=$d/grove.cnf ossl pkey -in $d/cnf.key -noout -text | grep -q "SLH-DSA-SHAKE-256f Private-Key"' "with the openssl.cnf snippet, genpkey/pkey need no -provider options"
out=$(OPENSSL_CONF=$d/grove.cnf ossl list -signature-algorithms 2>&1)
check '! echo "$out" | grep -q CROSS' "CROSS is off by default"
(cat $d/grove.cnf; echo "experimental-cross = 1") > $d/cross.cnf
out=$(OPENSSL_CONF=$d/cross.cnf ossl list -signature-algorithms 2>&1)
check '[ $(echo "$out" | grep -c "EXPERIMENTAL-CROSS-.*@ grove") -eq 18 ]' "experimental-cross = 1 offers the 18 CROSS sets under EXPERIMENTAL- names"

if [ $fail -ne 0 ]; then exit 1; fi
echo "openssl_cli: all checks passed"
