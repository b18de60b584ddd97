#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove dgsp manager: regression checks for issue 16 (manager side). Restored group.db refused
# until recovered (4), resumed batch joins leave every member a credential (5), outputs checked
# before counters are reserved (6, 11, 15), open verifies first and reads crate signatures
# (7), manager.sk integrity (8), request limits (13), info on a FIFO and a refused empty store
# (17). Usage: manager.sh (GROVE, optional VECTORS in the environment)
. "$(dirname "${BASH_SOURCE[0]}")/../support/cli_test.sh"
GF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/grove_file.py" # grove files by hand
V="${VECTORS:-}"
ctr() { "$G" dgsp manager status --group "$1" --id "$2" --json 2>/dev/null | jget '["counter"]'; }
zetas() { python3 -B - "$GF" "$@" <<'P'
import os,sys
sys.path.insert(0, os.path.dirname(sys.argv[1])); import grove_file
for f in sys.argv[2:]:
    g=grove_file.read(f); b=g["body"]; n=grove_file.n_of(g)
    k=int.from_bytes(b[8:12],'big'); cb=(len(b)-12)//k-n
    for i in range(k): print(b[12+i*(n+cb)+n:12+i*(n+cb)+n+16].hex())
P
}

"$G" dgsp manager init --group grp --params sha2-128f >/dev/null || exit 1
"$G" dgsp manager join --group grp --username alice --out alice.cred >/dev/null
"$G" dgsp member init --wallet alice.w --credential alice.cred >/dev/null
"$G" dgsp member csr --wallet alice.w --count 4 --out a.csr >/dev/null

echo "== 4: a restored group.db is refused until recovered; no zeta issued twice"
cp grp/group.db old.db
"$G" dgsp manager cert --group grp --csr a.csr --out c1 >/dev/null
"$G" dgsp manager join --group grp --username bob --out bob.cred >/dev/null
cp old.db grp/group.db; rm -f grp/group.db-wal grp/group.db-shm
"$G" dgsp manager cert --group grp --csr a.csr --out c2 >/dev/null 2>err.txt; rc=$?
check '[ $rc -eq 3 ] && [ ! -e c2 ] && grep -q "restored from a backup" err.txt && grep -q "manager recover" err.txt' "cert on a restored store refused, exit 3 (rc=$rc: $(head -c 200 err.txt))"
"$G" dgsp manager join --group grp --username carol --out carol.cred >/dev/null 2>&1; rc=$?
check '[ $rc -eq 3 ] && [ ! -e carol.cred ]' "join on a restored store refused (member id 1 would be given twice; rc=$rc)"
"$G" dgsp manager revoke --group grp --id 0 >/dev/null 2>&1; rc=$?
check '[ $rc -eq 3 ]' "revoke on a restored store refused (rc=$rc)"
out=$("$G" dgsp manager status --group grp --json)
check 'echo "$out" | grep -q BEHIND' "status reports the store behind the registry"
"$G" dgsp manager recover --group grp >/dev/null; rc=$?
check '[ $rc -eq 0 ]' "recover"
"$G" dgsp manager cert --group grp --csr a.csr --out c2 >/dev/null; rc=$?
check '[ $rc -eq 0 ]' "cert after recover"
zetas c1 c2 > z.txt
check '[ $(wc -l < z.txt) -eq 8 ] && [ $(sort -u z.txt | wc -l) -eq 8 ]' "no zeta issued twice across the restore ($(sort -u z.txt | wc -l) distinct of $(wc -l < z.txt))"
"$G" dgsp manager join --group grp --username carol --out carol.cred --json > j.txt
check '[ "$(jget "[\"id\"]" < j.txt)" = 2 ]' "after recover the next member id is 2 (bob's id 1 is not given again)"
out=$("$G" dgsp manager status --group grp --id 1 --json)
check '[ "$(echo "$out" | jget "[\"username\"]")" = recovered-1 ]' "bob, joined after the backup, is recovered-1"
# a copy used next to the original is refused as well
cp grp/group.db copy.db
"$G" dgsp manager cert --group grp --csr a.csr --out c3 >/dev/null
"$G" dgsp manager cert --group grp --store copy.db --csr a.csr --out c4 >/dev/null 2>&1; rc=$?
check '[ $rc -eq 3 ] && [ ! -e c4 ]' "a stale copy (--store) of the same group refused (rc=$rc)"

echo "== 5: a resumed batch join leaves every member with a credential"
"$G" dgsp manager init --group bj --params sha2-128f >/dev/null
python3 -c "
for i in range(30): print('user-%03d' % i)" > users.txt
head -20 users.txt > first.txt
"$G" dgsp manager join --group bj --batch first.txt --out-dir creds >/dev/null
rm creds/3.cred; : > creds/7.cred; head -c 100 creds/9.cred > t && mv t creds/9.cred
"$G" dgsp manager join --group bj --batch users.txt --out-dir creds --skip-existing --json > j.txt; rc=$?
n=$(ls creds/*.cred | wc -l)
check '[ $rc -eq 0 ] && [ $n -eq 30 ]' "30 credentials after the resume (rc=$rc, $n files)"
check '[ "$(jget "[\"credentials_repaired\"]" < j.txt)" = 3 ]' "the resume reports 3 credentials written again"
"$G" dgsp manager credential --group bj --id 7 --out seven.cred >/dev/null
check 'cmp -s seven.cred creds/7.cred && [ -s creds/9.cred ] && cmp -s <("$G" dgsp manager credential --group bj --id 9 --out /dev/stdout 2>/dev/null || cat creds/9.cred) creds/9.cred' "the rewritten credentials are the members' own"

echo "== 6, 11, 15: outputs checked before anything is reserved"
c0=$(ctr grp 0)
"$G" dgsp manager cert --group grp --csr a.csr --out nodir/x.certs >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ] && [ "$(ctr grp 0)" = "$c0" ]' "unwritable --out: exit 2 and no counter burned (rc=$rc, counter $c0 -> $(ctr grp 0))"
for f in grp/group.db grp/manager.sk grp/manager.pub a.csr; do
  cp "$f" keep.bin
  "$G" dgsp manager cert --group grp --csr a.csr --out "$f" >/dev/null 2>&1; rc=$?
  check '[ $rc -eq 2 ] && cmp -s keep.bin "$f" && [ "$(ctr grp 0)" = "$c0" ]' "cert --out $f refused, file intact, no counter (rc=$rc)"
  "$G" dgsp manager cert --group grp --csr a.csr --out "$f" --force >/dev/null 2>&1; rc=$?
  check '[ $rc -eq 2 ] && cmp -s keep.bin "$f"' "cert --out $f --force refused too (rc=$rc)"
done
"$G" dgsp manager status --group grp >/dev/null; check '[ $? -eq 0 ]' "the group still works"
"$G" dgsp manager cert --group grp --csr a.csr --out c1 >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ] && [ "$(ctr grp 0)" = "$c0" ]' "cert over an existing output refused without --force (rc=$rc)"
"$G" dgsp manager cert --group grp --csr a.csr --out c1 --force >/dev/null; rc=$?
check '[ $rc -eq 0 ]' "cert --force replaces an output"
echo secret > dave.cred; cp dave.cred keep.cred
"$G" dgsp manager join --group grp --username dave --out dave.cred >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ] && cmp -s dave.cred keep.cred' "join --out over an existing file refused (rc=$rc)"
out=$("$G" dgsp manager status --group grp --json | jget '["members"]')
check '[ "$out" = 3 ]' "the refused join added no member ($out members)"
"$G" dgsp manager join --group grp --username dave --out grp/manager.sk >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ] && "$G" dgsp manager status --group grp >/dev/null' "join --out manager.sk refused (rc=$rc)"
"$G" dgsp manager credential --group grp --id 0 --out grp/group.db >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ] && "$G" dgsp manager status --group grp >/dev/null' "credential --out group.db refused (rc=$rc)"
"$G" dgsp manager export-revocations --group grp --out grp/manager.pub >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ] && "$G" dgsp manager status --group grp >/dev/null' "export --out manager.pub refused (rc=$rc)"
"$G" dgsp member import-certs --wallet alice.w --certs c1 >/dev/null
echo "message" > m1
"$G" dgsp member sign --wallet alice.w --msg m1 --sig s1 >/dev/null
cp m1 keep.m
"$G" dgsp manager open --group grp --msg m1 --sig s1 --proof-out m1 >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ] && cmp -s m1 keep.m' "open --proof-out = the message refused (rc=$rc)"

echo "== 7: open verifies the signature on the message first"
echo "another message" > m2
"$G" dgsp manager open --group grp --msg m2 --sig s1 --json > o.txt 2>/dev/null; rc=$?
check '[ $rc -eq 1 ] && ! grep -q "\"username\": \"alice\"" o.txt' "a signature is not attributed to a message it never signed (rc=$rc)"
"$G" dgsp manager open --group grp --msg m1 --sig s1 --proof-out p1 >/dev/null; rc=$?
check '[ $rc -eq 0 ]' "open of a valid signature"
if [ -n "$V" ] && [ -f "$V/dgsp/dgsp_sha2_128f.json" ]; then
  python3 - "$V/dgsp/dgsp_sha2_128f.json" <<'P'
import json
d=json.load(open(__import__('sys').argv[1])); f=d['manager']['sk_fields']; s=d['signatures'][0]
spx=bytes.fromhex(f['spx_sk'])
open('seed.hex','w').write((spx[:48]+bytes.fromhex(f['hash_secret'])+bytes.fromhex(f['aes_key'])).hex())
open('crate.sig','wb').write(bytes.fromhex(s['signature'])); open('crate.msg','wb').write(bytes.fromhex(s['message']))
open('crate.users','w').write('\n'.join(u['username'] for u in sorted(d['users'], key=lambda u: u['id']))+'\n')
open('crate.expect','w').write('%d %s %s\n' % (s['open_expected']['id'], s['open_expected']['username'], s['open_expected']['pi']))
P
  "$G" dgsp manager init --group crate --params sha2-128f --seed "$(cat seed.hex)" >/dev/null
  "$G" dgsp manager join --group crate --batch crate.users >/dev/null
  # the crate's raw files go through import (the profile is part of the file)
  "$G" dgsp import --format raw --params sha2-128f --profile dgsp-rs-0.1 --sig crate.sig --out crate.sig.grove >/dev/null
  check '[ $? -eq 0 ]' "a crate-made raw signature imported in the dgsp-rs-0.1 profile"
  out=$("$G" dgsp manager open --group crate --profile dgsp-rs-0.1 --msg crate.msg --sig crate.sig.grove --proof-out crate.proof --json); rc=$?
  read -r eid euser epi < crate.expect
  check '[ $rc -eq 0 ] && [ "$(echo "$out" | jget "[\"username\"]")" = "$euser" ] && [ "$(echo "$out" | jget "[\"proof\"]")" = "$epi" ]' "a crate-made signature opens with --profile dgsp-rs-0.1 (rc=$rc)"
  "$G" dgsp export --pk crate/manager.pub --format raw --out crate.pub >/dev/null
  "$G" dgsp import --format raw --params sha2-128f --profile dgsp-rs-0.1 --pk crate.pub --out crate.pub.grove >/dev/null
  "$G" dgsp judge --pk crate.pub.grove --msg crate.msg --sig crate.sig.grove --id "$eid" --proof crate.proof >/dev/null; rc=$?
  check '[ $rc -eq 0 ]' "judge confirms it with the dgsp-rs-0.1 files (rc=$rc)"
  "$G" dgsp manager open --group crate --msg crate.msg --sig crate.sig.grove >/dev/null 2>&1; rc=$?
  check '[ $rc -eq 2 ]' "a dgsp-rs-0.1 signature file is not opened in the grove profile without --profile (rc=$rc)"
  "$G" dgsp import --format raw --params sha2-128f --sig crate.sig --out crate.sig.g >/dev/null
  "$G" dgsp manager open --group crate --msg crate.msg --sig crate.sig.g >/dev/null 2>&1; rc=$?
  check '[ $rc -eq 1 ]' "in the grove profile the crate signature does not verify, so it is not opened (rc=$rc)"
fi

echo "== 8: manager.sk integrity"
"$G" dgsp manager init --group kg --params sha2-128f >/dev/null
"$G" dgsp manager join --group kg --username u --out u.cred >/dev/null
"$G" dgsp member init --wallet u.w --credential u.cred >/dev/null
"$G" dgsp member csr --wallet u.w --count 2 --out u.csr >/dev/null
cp kg/manager.sk good.sk
# one bit of the AES key (hash_secret is body bytes 0..15 at N = 16), as a disk would flip it
python3 "$GF" damage good.sk kg/manager.sk 16
"$G" dgsp manager cert --group kg --csr u.csr --out u.certs >/dev/null 2>err.txt; rc=$?
check '[ $rc -eq 2 ] && [ ! -e u.certs ] && [ "$(ctr kg 0)" = 0 ]' "a one-bit error in the AES key refused before anything is reserved (rc=$rc, counter $(ctr kg 0))"
cp good.sk kg/manager.sk
"$G" dgsp manager cert --group kg --csr u.csr --out u.certs >/dev/null; rc=$?
check '[ $rc -eq 0 ]' "the intact key works"
check 'grep -q "damaged" err.txt' "the message says manager.sk is damaged: $(cat err.txt)"
out=$("$G" dgsp info kg/manager.sk --json)
check '[ "$(echo "$out" | jget "[\"old_format\"]")" = False ] && [ "$(echo "$out" | jget "[\"encoding\"]")" = armored ]' "manager.sk is a grove file (the envelope's check covers it)"

echo "== 13: request limits"
"$G" dgsp member csr --wallet alice.w --count 40 --out big.csr >/dev/null
c0=$(ctr grp 0)
"$G" dgsp manager cert --group grp --csr big.csr --out big.certs --max-certs 32 >/dev/null 2>err.txt; rc=$?
check '[ $rc -eq 2 ] && [ ! -e big.certs ] && [ "$(ctr grp 0)" = "$c0" ] && grep -q max-certs err.txt' "a CSR above --max-certs refused before reserving (rc=$rc)"
python3 -B - "$GF" a.csr huge.csr <<'P'
import os,sys
sys.path.insert(0, os.path.dirname(sys.argv[1])); import grove_file
f=grove_file.read(sys.argv[2]); b=bytearray(f["body"])
b[24:28]=(1<<20).to_bytes(4,'big')   # count field at 8 + N (N = 16)
b+=bytes(16*((1<<20)-4))
f["body"]=bytes(b); grove_file.write(sys.argv[3], f)   # a well-formed request of 2^20 keys
P
/usr/bin/time -f "%M" -o mem.txt "$G" dgsp manager cert --group grp --csr huge.csr --out huge.certs >/dev/null 2>err.txt; rc=$?
check '[ $rc -eq 2 ] && [ "$(ctr grp 0)" = "$c0" ] && [ "$(tail -1 mem.txt)" -lt 65536 ]' "a 2^20-certificate CSR refused by the default limit, small memory ($(tail -1 mem.txt) KiB, rc=$rc)"
"$G" dgsp member csr --wallet alice.w --count 600 --out six.csr >/dev/null
/usr/bin/time -f "%M" -o mem.txt "$G" dgsp manager cert --group grp --csr six.csr --out six.certs --threads 2 >/dev/null; rc=$?
"$G" dgsp member import-certs --wallet alice.w --certs six.certs >/dev/null; irc=$?
check '[ $rc -eq 0 ] && [ $irc -eq 0 ] && [ "$(ctr grp 0)" = $((c0 + 600)) ]' "600 certificates issued in chunks, imported by the member (rc=$rc/$irc, $(tail -1 mem.txt) KiB)"

echo "== 17: info on a FIFO; a refused empty store creates nothing"
mkfifo f1
( cat s1 > f1 ) &
timeout 10 "$G" dgsp info f1 --json > i.txt 2>&1; rc=$?
wait
check '[ $rc -eq 0 ] && grep -q SIGNATURE i.txt' "info --file FIFO reads it once (rc=$rc)"
mkdir eg; cp grp/manager.pub grp/manager.sk eg/; : > eg/group.db
"$G" dgsp manager status --group eg >/dev/null 2>&1; rc=$?
check '[ $rc -ne 0 ] && [ ! -s eg/group.db ] && [ ! -e eg/group.db-wal ]' "a refused empty group.db stays empty (rc=$rc, $(stat -c %s eg/group.db) bytes)"
exit $fail
