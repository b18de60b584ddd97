#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove dgsp member side and verify: restored wallet copies refused until recovered (state
# registry), corrupted wallets refused before any certificate is used, outputs that are inputs
# refused, reads capped at each object's size, verify's exit codes for every kind of bad
# signature file, and verify never claiming "not revoked" unless it checked.
# Usage: member.sh   (GROVE in the environment)
. "$(dirname "${BASH_SOURCE[0]}")/../support/cli_test.sh"
GF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/grove_file.py" # grove files by hand
# zeta (certificate id) of a signature file, in hex
zeta() { python3 -B - "$GF" "$1" <<'P'
import os,sys
sys.path.insert(0, os.path.dirname(sys.argv[1])); import grove_file
f=grove_file.read(sys.argv[2]); n=grove_file.n_of(f)
ln={16:35,24:51,32:67}[n]
b=f["body"]
print(b[ln*n+n:ln*n+n+16].hex())
P
}
ready() { "$G" dgsp member info --wallet "$1" --json | jget '["ready"]'; }
used() { "$G" dgsp member info --wallet "$1" --json | jget '["used"]'; }

"$G" dgsp manager init --group grp --params sha2-128f >/dev/null || exit 1
"$G" dgsp manager join --group grp --username alice --out a.cred >/dev/null
"$G" dgsp manager join --group grp --username bob --out b.cred >/dev/null
newwallet() { # newwallet <wallet> <cred> <count>
  "$G" dgsp member init --wallet "$1" --credential "$2" >/dev/null &&
  "$G" dgsp member csr --wallet "$1" --count "$3" --out "$1.csr" >/dev/null &&
  "$G" dgsp manager cert --group grp --csr "$1.csr" --out "$1.certs" --threads 1 >/dev/null &&
  "$G" dgsp member import-certs --wallet "$1" --certs "$1.certs" >/dev/null
}
newwallet a.w a.cred 6 || exit 1
for i in 1 2 3 4 5 6 7; do echo "message $i" > m$i; done

echo "== a restored backup of a wallet is refused until recovered"
cp a.w a.bak0
"$G" dgsp member sign --wallet a.w --msg m1 --sig s1 >/dev/null
check '[ $? -eq 0 ]' "first signature"
cp a.w a.bak1
"$G" dgsp member sign --wallet a.w --msg m2 --sig s2 >/dev/null
cp a.bak0 a.w
"$G" dgsp member sign --wallet a.w --msg m3 --sig s3 >/dev/null 2>err; rc=$?
check '[ $rc -eq 3 ] && [ ! -e s3 ]' "restored copy (0 signatures) refused with exit 3, nothing written (rc=$rc)"
check 'grep -q "older copy" err && grep -q "member recover" err' "the message says it is an older copy and how to recover: $(head -c 300 err)"
out=$("$G" dgsp member info --wallet a.w --json)
check '[ "$(echo "$out" | jget "[\"stale\"]")" = 2 ] && [ "$(echo "$out" | jget "[\"used\"]")" = 0 ]' "info: 2 stale certificates, the copy unchanged: $out"
out=$("$G" dgsp member recover --wallet a.w --json)
check '[ "$(echo "$out" | jget "[\"marked_used\"]")" = 2 ] && [ "$(echo "$out" | jget "[\"ready\"]")" = 4 ]' "recover marks the 2 used certificates: $out"
"$G" dgsp member sign --wallet a.w --msg m3 --sig s3 >/dev/null
check '[ $? -eq 0 ]' "the recovered copy signs"
cp a.bak1 a.w
"$G" dgsp member sign --wallet a.w --msg m4 --sig s4 >/dev/null 2>&1; rc=$?
check '[ $rc -eq 3 ] && [ ! -e s4 ]' "restored copy (1 signature) refused (rc=$rc)"
"$G" dgsp member recover --wallet a.w >/dev/null
"$G" dgsp member sign --wallet a.w --msg m4 --sig s4 >/dev/null
for s in s1 s2 s3 s4; do
  "$G" dgsp verify --pk grp/manager.pub --msg m${s#s} --sig $s >/dev/null 2>&1
  check '[ $? -eq 0 ]' "$s verifies"
done
z=$(for s in s1 s2 s3 s4; do zeta $s; done | sort -u | wc -l)
check '[ "$z" = 4 ]' "4 signatures, 4 distinct certificates ($z)"
# a wallet re-created from the same credential and seed maps to the same registry entry
out=$("$G" dgsp member info --wallet a.w --json)
check '[ "$(echo "$out" | jget "[\"registry_used\"]")" = 4 ] && [ "$(echo "$out" | jget "[\"stale\"]")" = 0 ]' "registry lists 4 used, nothing stale: $out"
# --state-dir selects another registry (a registry that has not seen the wallet accepts it)
"$G" dgsp member sign --wallet a.w --msg m5 --sig s5 --state-dir "$d/other" >/dev/null
check '[ $? -eq 0 ] && [ -d "$d/other/dgsp-wallet" ]' "--state-dir is used"

echo "== outputs that are inputs or state are refused before anything is used"
cp a.w a.keep
r0=$(ready a.w)
"$G" dgsp member sign --wallet a.w --msg m6 --sig a.w >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && cmp -s a.w a.keep && [ "$(ready a.w)" = "$r0" ]' "sign --out = --wallet refused, wallet intact (rc=$rc)"
"$G" dgsp member sign --wallet a.w --msg m6 --sig m6 >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ] && [ "$(cat m6)" = "message 6" ] && [ "$(ready a.w)" = "$r0" ]' "sign --out = --msg refused, nothing used (rc=$rc)"
ln -s a.w a.link
"$G" dgsp member sign --wallet a.w --msg m6 --sig a.link >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ] && [ "$(ready a.w)" = "$r0" ]' "sign --out = a link to the wallet refused (rc=$rc)"
"$G" dgsp member csr --wallet a.w --count 2 --out a.w >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ] && [ "$(ready a.w)" = "$r0" ] && [ "$("$G" dgsp member info --wallet a.w --json | jget "[\"pending\"]")" = 0 ]' "csr --out = --wallet refused (rc=$rc)"
"$G" dgsp member import-certs --wallet a.w.certs --certs a.w.certs >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ]' "import-certs with --wallet = --certs refused (rc=$rc)"

echo "== corrupted wallets are refused before any certificate is used"
newwallet c.w b.cred 3
"$G" dgsp member sign --wallet c.w --msg m1 --sig c1 >/dev/null
cp c.w c.good
n=0
# (row 1 signed; row 2 is the next certificate: its one-time seed, WOTS+ key, and the zeta, pi
# and SPHINCS+ parts of its certificate)
for what in "meta value key='seed_u' 3" "meta value key='cid_star' 0" "meta value key='group_pk' 17" \
            "meta value key='id' 7" "meta value key='check' 9" "certs wots_seed rowid=2 5" \
            "certs wots_pk rowid=2 15" "certs cert rowid=2 0" "certs cert rowid=2 20" "certs cert rowid=2 9000"; do
  set -- $what
  cp c.good c.w
  python3 - c.w "$1" "$2" "$3" "$4" <<'P'
import sqlite3,sys
db=sqlite3.connect(sys.argv[1]); t,c,w,pos=sys.argv[2:6]
v=bytearray(db.execute(f"SELECT {c} FROM {t} WHERE {w}").fetchone()[0])
v[int(pos)]^=0x04
db.execute(f"UPDATE {t} SET {c}=? WHERE {w}",(bytes(v),)); db.commit(); db.close()
P
  u0=$(used c.w 2>/dev/null); r0=$(ready c.w 2>/dev/null)
  rm -f cx
  "$G" dgsp member sign --wallet c.w --msg m2 --sig cx >/dev/null 2>err; rc=$?
  check '[ $rc -eq 2 ] && [ ! -e cx ]' "corrupted $what: sign refused with exit 2, nothing written (rc=$rc: $(head -c 200 err))"
  check 'grep -q -i "damaged" err' "corrupted $what: the message says the wallet is damaged"
  check '[ "$(used c.w)" = "$u0" ] && [ "$(ready c.w)" = "$r0" ]' "corrupted $what: no certificate used"
  n=$((n + 1))
done
cp c.good c.w
"$G" dgsp member sign --wallet c.w --msg m2 --sig c2 >/dev/null
check '[ $? -eq 0 ]' "the intact wallet still signs"
echo "   $n corruptions refused"

echo "== verify: revocation never claimed unless checked"
out=$("$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 --json 2>err)
check '[ "$(echo "$out" | jget "[\"revocation_checked\"]")" = False ] && [ "$(echo "$out" | jhas revoked)" = False ]' "no revocation source: revocation_checked false, no \"revoked\" key: $out"
check 'grep -q -i "revocation not checked" err' "warning on stderr without a revocation source"
txt=$("$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 2>/dev/null)
check 'echo "$txt" | grep -q "revocation not checked" && ! echo "$txt" | grep -q "not revoked"' "text output says revocation not checked: $txt"
"$G" dgsp manager export-revocations --group grp --out rl0 >/dev/null
out=$("$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 --revocations rl0 --json 2>/dev/null)
check '[ "$(echo "$out" | jget "[\"revocation_checked\"]")" = True ] && [ "$(echo "$out" | jget "[\"revoked\"]")" = False ]' "with a list: checked, not revoked: $out"
"$G" dgsp manager revoke --group grp --id 0 >/dev/null
"$G" dgsp manager export-revocations --group grp --out rl1 >/dev/null
out=$("$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 --revocations rl1 --json 2>/dev/null); rc=$?
check '[ $rc -eq 1 ] && [ "$(echo "$out" | jget "[\"revoked\"]")" = True ] && [ "$(echo "$out" | jget "[\"revocation_checked\"]")" = True ]' "revoked member: exit 1, revoked true: $out"
out=$("$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 --revocation-store grp/group.db --json 2>/dev/null); rc=$?
check '[ $rc -eq 1 ] && [ "$(echo "$out" | jget "[\"revoked\"]")" = True ]' "revoked member via the store: exit 1"

echo "== verify: exit 2 for a signature file of the wrong type, encoding or length"
echo "== export/import: the crate's raw layout is one command away, checked on import"
"$G" dgsp member sign --wallet c.w --msg m3 --sig c3 >/dev/null
"$G" dgsp export --sig c3 --format raw --out c3.raw >/dev/null
check '[ $? -eq 0 ] && [ "$(stat -c %s c3.raw)" = 17696 ]' "export --sig: the raw sha2-128f signature (17696 bytes)"
"$G" dgsp export --pk grp/manager.pub --format raw --out pub.raw >/dev/null
python3 "$GF" body grp/manager.pub > pub.body
check 'cmp -s pub.raw pub.body' "export --pk writes exactly the armored body"
"$G" dgsp export --pk grp/manager.pub --format raw --out pub.raw >/dev/null 2>&1
check '[ $? -eq 2 ]' "export over an existing file refused without --force"
"$G" dgsp export --pk grp/manager.pub --format raw --out pub.raw --force >/dev/null
check '[ $? -eq 0 ]' "export --force replaces it"
for f in der pem; do
  "$G" dgsp export --pk grp/manager.pub --format $f --out x.$f >/dev/null 2>err; rc=$?
  check '[ $rc -eq 2 ] && grep -q "no standard DER encoding" err && [ ! -e x.$f ]' "export --format $f: exit 2, no standard encoding"
  "$G" dgsp import --format $f --params sha2-128f --pk pub.raw --out x.$f >/dev/null 2>&1; rc=$?
  check '[ $rc -eq 2 ] && [ ! -e x.$f ]' "import --format $f: exit 2"
done
"$G" dgsp import --format raw --pk pub.raw --out x.pub >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && grep -q -- "--params" err && [ ! -e x.pub ]' "import --format raw without --params: exit 2"
"$G" dgsp import --format raw --params sha2-128f --pk pub.raw --sig c3.raw --out x.pub >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e x.pub ]' "import of --pk and --sig at once: exit 2"
out=$("$G" dgsp import --format raw --params sha2-128f --pk pub.raw --out pub.grove --json)
kid=$("$G" dgsp info grp/manager.pub --json | jget '["key_id"]')
check 'cmp -s pub.grove grp/manager.pub && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ]' "raw public key imported: the same file, the same key id"
head -c 1000 c3.raw > short.raw
cat c3.raw c3.raw > long.raw
imp() { rm -f imp.sig; "$G" dgsp import --format raw --params sha2-128f --sig "$1" --out imp.sig >/dev/null 2>&1; echo $?; }
vr() { r=$(imp "$1"); if [ "$r" != 0 ]; then echo "$r"; return; fi
       "$G" dgsp verify --pk grp/manager.pub --msg m3 --sig imp.sig >/dev/null 2>&1; echo $?; }
check '[ "$(vr c3.raw)" = 0 ] && [ "$(python3 "$GF" body imp.sig | cmp - c3.raw && echo same)" = same ]' "raw signature imported: the same signature, and it verifies"
check '[ -z "$(python3 "$GF" keyid imp.sig)" ]' "an imported raw signature carries no key id (the raw bytes name no group)"
check '[ "$(vr short.raw)" = 2 ]' "raw signature too short: exit 2 (got $(vr short.raw))"
check '[ "$(vr long.raw)" = 2 ]' "raw signature too long: exit 2 (got $(vr long.raw))"
check '[ "$(vr c2)" = 2 ]' "armored file given as raw: exit 2 (got $(vr c2))"
check '[ "$(vr m3)" = 2 ]' "a text file given as raw signature: exit 2 (got $(vr m3))"
python3 -c "
import sys; b=bytearray(open('c3.raw','rb').read()); b[100]^=1; open('flip.raw','wb').write(b)"
check '[ "$(vr flip.raw)" = 1 ]' "well-formed raw signature that does not verify: exit 1 (got $(vr flip.raw))"
va() { "$G" dgsp verify --pk grp/manager.pub --msg m2 --sig "$1" >/dev/null 2>&1; echo $?; }
check '[ "$(va c2)" = 0 ]' "armored signature verifies"
check '[ "$(va c.w.csr)" = 2 ]' "a CSR as signature: exit 2"
check '[ "$(va c3.raw)" = 2 ]' "a raw signature given to verify: exit 2"
check '[ "$(va imp.sig)" = 1 ]' "an imported signature on another message: exit 1"
head -c 3000 c2 > trunc.sig
check '[ "$(va trunc.sig)" = 2 ]' "truncated armored signature: exit 2"
python3 "$GF" flipbody c2 flip.sig 2000
check '[ "$(va flip.sig)" = 1 ]' "a well-formed signature file with one changed signature byte: exit 1"
python3 "$GF" damage c2 damaged.sig 2000
check '[ "$(va damaged.sig)" = 2 ]' "a damaged signature file (its check fails): exit 2"
"$G" dgsp import --format raw --params sha2-128f --pk m1 --out x.pub >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e x.pub ]' "raw public key of the wrong length: exit 2"
"$G" dgsp verify --pk pub.raw --msg m3 --sig c3 >/dev/null 2>&1
check '[ $? -eq 2 ]' "a raw public key given to verify: exit 2 (import it)"

echo "== reads are capped at the object's own size"
truncate -s 100M big.sig
"$G" dgsp verify --pk grp/manager.pub --msg m2 --sig big.sig >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && grep -q "too large" err' "a 100 MB signature file is refused unread: $(head -c 200 err)"
"$G" dgsp import --format raw --params sha2-128f --sig big.sig --out x.sig >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && grep -q "too large" err && [ ! -e x.sig ]' "a 100 MB raw signature is refused unread by import: $(head -c 200 err)"
truncate -s 1M big.pub
"$G" dgsp verify --pk big.pub --msg m2 --sig c2 >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && grep -q "too large" err' "a 1 MB public key file is refused unread: $(head -c 200 err)"
"$G" dgsp member init --wallet x.w --credential big.pub >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && grep -q "too large" err && [ ! -e x.w ]' "a 1 MB credential is refused unread: $(head -c 200 err)"
"$G" dgsp member import-certs --wallet c.w --certs c.w.certs --pk big.pub >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && grep -q "too large" err' "a 1 MB public key for import is refused unread: $(head -c 200 err)"
exit $fail
