#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove dgsp end to end: every subcommand, its success path and its refusals (exit codes, --json,
# file modes, key ids, stdin/stdout), export/import of the crate's raw layouts, plus data made by
# the original crate imported with --profile dgsp-rs-0.1 and verified; the grove envelope on
# every file (the group's key id, --binary, files of another group refused, the older armor).
set -u
G="${GROVE:?}"
GF="$(cd "$(dirname "${BASH_SOURCE[0]}")/../dgsp" && pwd)/grove_file.py" # envelopes by hand
OLD="$(cd "$(dirname "${BASH_SOURCE[0]}")/../dgsp/old_files" && pwd)"   # an earlier grove's files
V="${VECTORS:-}"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
export GROVE_STATE_DIR="$d/state"  # the state registry of these runs only
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d$1)"; }
# flip <in> <out> <line>: change one base64 character of that line (always a real change)
flip() { python3 -c "
import sys
t=open(sys.argv[1]).read().split('\n'); l=int(sys.argv[3]); c=t[l][10]
t[l]=t[l][:10]+('B' if c!='B' else 'C')+t[l][11:]
open(sys.argv[2],'w').write('\n'.join(t))" "$1" "$2" "$3"; }
mode() { stat -c %a "$1"; }

# --- params: the 12 sets, by the names every command accepts
out=$("$G" dgsp params --json)
check '[ "$(echo "$out" | jget "[\"parameter_sets\"].__len__()")" = 12 ]' "dgsp params lists 12 sets"
check '[ "$(echo "$out" | jget "[\"parameter_sets\"][2][\"name\"]")" = sha2-128f ] && [ "$(echo "$out" | jget "[\"parameter_sets\"][2][\"sig_bytes\"]")" = 17696 ]' "dgsp params names and sizes"
check '[ "$(echo "$out" | python3 -c "import json,sys; print(\",\".join(p[\"name\"] for p in json.load(sys.stdin)[\"parameter_sets\"] if p[\"default\"]))")" = shake-256f ]' "dgsp params marks shake-256f as the default"
"$G" dgsp params | grep -q "^shake-256f .*(default)"
check '[ $? -eq 0 ]' "dgsp params text marks the default"

# --- manager init
out=$("$G" dgsp manager init --group grp --params shake-128f --json)
check '[ $? -eq 0 ] && [ -f grp/manager.pub ] && [ -f grp/group.db ]' "manager init"
kid=$(echo "$out" | jget '["key_id"]')
check 'echo "$kid" | grep -qE "^[0-9a-f]{16}$"' "manager init --json prints the group's key id: $kid"
check '[ "$(mode grp/manager.sk)" = 600 ] && [ "$(mode grp/group.db)" = 600 ]' "manager.sk and group.db are 0600"
"$G" dgsp manager init --group grp --params shake-128f >/dev/null 2>&1
check '[ $? -eq 2 ]' "init over an existing group refused"
"$G" dgsp manager init --group g2 --params shake-999f >/dev/null 2>&1
check '[ $? -eq 2 ]' "unknown parameter set refused"
"$G" dgsp manager init --group g3 --params sha2-128f --profile dgsp-rs-0.1 >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e g3/manager.sk ]' "insecure profile refused for a new group"
"$G" dgsp manager init --group fgrp --params sha2-128f --flavour fips205 >/dev/null
check '[ $? -eq 0 ]' "FIPS 205 group"

# --- join
"$G" dgsp manager join --group grp --username alice --out alice.cred >/dev/null
check '[ $? -eq 0 ] && [ "$(mode alice.cred)" = 600 ]' "join alice (credential 0600)"
out=$("$G" dgsp manager join --group grp --username bob --out bob.cred --json)
check '[ "$(echo "$out" | jget "[\"id\"]")" = 1 ]' "bob gets id 1"
"$G" dgsp manager join --group grp --username alice --out x.cred >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e x.cred ]' "duplicate username refused"
"$G" dgsp manager join --group grp --username "$(printf 'a\tb')" --out x.cred >/dev/null 2>&1
check '[ $? -eq 2 ]' "control character in a username refused"
printf 'carol\ndave\r\n\nerin\n' > users.txt
out=$("$G" dgsp manager join --group grp --batch users.txt --out-dir creds --json)
check '[ "$(echo "$out" | jget "[\"joined\"]")" = 3 ] && [ -f creds/2.cred ] && [ -f creds/4.cred ]' "batch join"
"$G" dgsp manager join --group grp --batch users.txt >/dev/null 2>&1
check '[ $? -eq 2 ]' "batch with existing names refused without --skip-existing"
printf 'erin\nfrank\n' > more.txt
out=$("$G" dgsp manager join --group grp --batch more.txt --skip-existing --json)
check '[ "$(echo "$out" | jget "[\"joined\"]")" = 1 ] && [ "$(echo "$out" | jget "[\"skipped\"]")" = 1 ]' "batch --skip-existing"
printf 'gina\ngina\n' > dup.txt
"$G" dgsp manager join --group grp --batch dup.txt >/dev/null 2>&1
check '[ $? -eq 2 ]' "repeated name inside one batch refused"
out=$("$G" dgsp manager status --group grp --json)
check '[ "$(echo "$out" | jget "[\"members\"]")" = 6 ] && [ "$(echo "$out" | jget "[\"check\"]")" = ok ]' "status: 6 members, store ok"
"$G" dgsp manager credential --group grp --id 2 --out carol2.cred >/dev/null
check 'cmp -s carol2.cred creds/2.cred' "re-issued credential equals the batch one"

# --- member init, csr, cert, import
txt=$("$G" dgsp member init --wallet alice.w --credential alice.cred); rc=$?
check '[ $rc -eq 0 ] && [ "$(mode alice.w)" = 600 ]' "member init (wallet 0600)"
check 'echo "$txt" | grep -q "key id $kid"' "member init names the group's key id: $txt"
"$G" dgsp member init --wallet alice.w --credential alice.cred >/dev/null 2>&1
check '[ $? -eq 2 ]' "member init over an existing wallet refused"
"$G" dgsp member init --wallet bob.w --credential bob.cred >/dev/null
"$G" dgsp member csr --wallet alice.w --count 3 --out a.csr >/dev/null
check '[ $? -eq 0 ]' "member csr"
"$G" dgsp member csr --wallet alice.w --count 0 --out z.csr >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e z.csr ]' "csr of 0 certificates refused"
"$G" dgsp manager cert --group grp --csr a.csr --out a.certs --threads 2 >/dev/null
check '[ $? -eq 0 ]' "manager cert"
"$G" dgsp manager cert --group fgrp --csr a.csr --out x.certs >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e x.certs ]' "CSR of another group's parameters refused"
# --threads follows grove/common.h: 0 = one per CPU (the default), at most 64
"$G" dgsp member init --wallet t.w --credential creds/2.cred >/dev/null
"$G" dgsp member csr --wallet t.w --count 2 --out t.csr >/dev/null
"$G" dgsp manager cert --group grp --csr t.csr --out t.certs --threads 0 >/dev/null
check '[ $? -eq 0 ] && [ -s t.certs ]' "manager cert --threads 0 (one per CPU)"
"$G" dgsp manager cert --group grp --csr t.csr --out t2.certs --threads 65 >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e t2.certs ]' "--threads 65 refused"
# a CSR carrying bob's id with alice's cid*: refused, bob's counter does not move
python3 "$GF" flipbody a.csr b.csr 7 # id 0 -> 1, a well-formed file
"$G" dgsp manager cert --group grp --csr b.csr --out x.certs >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e x.certs ]' "CSR with a wrong credential refused"
out=$("$G" dgsp manager status --group grp --id 1 --json)
check '[ "$(echo "$out" | jget "[\"counter\"]")" = 0 ]' "refused request moved no counter"
"$G" dgsp member import-certs --wallet bob.w --certs a.certs >/dev/null 2>&1
check '[ $? -eq 2 ]' "bob cannot import alice's certificates"
head -c 300 a.certs > trunc.certs
"$G" dgsp member import-certs --wallet alice.w --certs trunc.certs >/dev/null 2>&1
check '[ $? -eq 2 ]' "truncated certificate file refused"
flip a.certs bad.certs 4
"$G" dgsp member import-certs --wallet alice.w --certs bad.certs >/dev/null 2>&1
rc=$?
check '[ $rc -eq 1 ] || [ $rc -eq 2 ]' "corrupted certificate refused (rc=$rc)"
out=$("$G" dgsp member info --wallet alice.w --json)
check '[ "$(echo "$out" | jget "[\"ready\"]")" = 0 ] && [ "$(echo "$out" | jget "[\"pending\"]")" = 3 ]' "nothing imported after refusals"
"$G" dgsp member import-certs --wallet alice.w --certs a.certs >/dev/null
check '[ $? -eq 0 ]' "import-certs"
"$G" dgsp member import-certs --wallet alice.w --certs a.certs >/dev/null 2>&1
check '[ $? -eq 2 ]' "importing the same certificates twice refused"

# --- '-': a CSR and its certificates through pipes, the human text on stderr
"$G" dgsp member csr --wallet bob.w --count 2 --out - 2>csr.err | "$G" dgsp manager cert --group grp --csr - --out - > b.certs 2>cert.err
check '[ $? -eq 0 ] && head -1 b.certs | grep -q "BEGIN GROVE DGSP CERTIFICATES" && grep -q "written to -" csr.err && grep -q "written to -" cert.err' "member csr --out - | manager cert --csr - --out -"
"$G" dgsp member import-certs --wallet bob.w --certs - < b.certs >/dev/null
check '[ $? -eq 0 ] && [ "$("$G" dgsp member info --wallet bob.w --json | jget "[\"ready\"]")" = 2 ]' "member import-certs --certs - (stdin)"

# --- sign, verify
echo "pay 5 to bob" > m1
"$G" dgsp member sign --wallet alice.w --msg m1 --sig s1 >/dev/null
check '[ $? -eq 0 ]' "member sign"
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 >v.out 2>/dev/null; rc=$?
check '[ $rc -eq 0 ] && grep -q "^signature valid (key id $kid)" v.out' "verify valid, with the key id: $(cat v.out)"
out=$("$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 --json 2>/dev/null)
check '[ "$(echo "$out" | jget "[\"valid\"]")" = True ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ]' "verify --json: valid and key_id"
"$G" dgsp verify --pk grp/manager.pub --msg - --sig s1 < m1 >/dev/null 2>&1
check '[ $? -eq 0 ]' "verify --msg - (stdin)"
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig - < s1 >/dev/null 2>&1
check '[ $? -eq 0 ]' "verify --sig - (stdin)"
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 --params shake-128f >/dev/null 2>&1
check '[ $? -eq 0 ]' "verify --params of the key's set: a check that passes"
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 --params sha2-128f >/dev/null 2>err
check '[ $? -eq 2 ] && grep -q "shake-128f" err' "verify --params of another set: exit 2 naming the key's set"
"$G" dgsp verify --pk s1 --msg m1 --sig s1 >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && grep -q "SIGNATURE" err' "a signature given as --pk: exit 2 naming SIGNATURE: $(cat err)"
"$G" dgsp verify --pk alice.cred --msg m1 --sig s1 >/dev/null 2>err
check '[ $? -eq 2 ] && grep -q "CREDENTIAL" err' "a credential given as --pk: exit 2 naming CREDENTIAL"
"$G" slhdsa keygen --pk slh.pub --sk slh.sk >/dev/null 2>&1
"$G" dgsp verify --pk slh.pub --msg m1 --sig s1 >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ]' "another scheme's public key: exit 2 (rc=$rc)"
if head -c 17 slh.pub | grep -q -- "-----BEGIN GROVE "; then
  check 'grep -q "SLH-DSA" err' "another scheme's grove file is named: $(cat err)"
fi
python3 -c "
t=open('grp/manager.pub').read().split('\n'); t[1]=t[1][:5]+'!'+t[1][6:]; open('pubbad','w').write('\n'.join(t))"
"$G" dgsp verify --pk pubbad --msg m1 --sig s1 >/dev/null 2>&1
check '[ $? -eq 2 ]' "a public key file with a damaged base64 character: exit 2"
echo "pay 500 to bob" > m2
"$G" dgsp verify --pk grp/manager.pub --msg m2 --sig s1 >/dev/null 2>&1
check '[ $? -eq 1 ]' "verify on another message exits 1"
out=$("$G" dgsp verify --pk grp/manager.pub --msg m2 --sig s1 --json)
check '[ "$(echo "$out" | jget "[\"valid\"]")" = False ] && [ $(echo "$out" | wc -l) -eq 1 ]' "verify --json one object"
python3 "$GF" flipbody s1 s1bad -1 # tau: a well-formed signature file, a wrong signature
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1bad >/dev/null 2>&1
check '[ $? -eq 1 ]' "tampered signature exits 1"
flip s1 s1dam 2
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1dam >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && grep -q "damaged" err' "a damaged signature file (its check fails) exits 2: $(cat err)"
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig a.csr >/dev/null 2>&1
check '[ $? -eq 2 ]' "a CSR given as signature exits 2"
head -c 500 s1 > s1short
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1short >/dev/null 2>&1
check '[ $? -eq 2 ]' "truncated signature file exits 2"
"$G" dgsp verify --pk fgrp/manager.pub --msg m1 --sig s1 >/dev/null 2>&1
check '[ $? -eq 2 ]' "signature and key of different groups exit 2"
# the signature on stdout ('-'): only the signature there, the human text on stderr
"$G" dgsp member sign --wallet alice.w --msg - --sig - < m2 > s2 2>sign.err
check '[ $? -eq 0 ] && head -1 s2 | grep -q "BEGIN GROVE DGSP SIGNATURE" && grep -q "signature written to -" sign.err' "member sign --msg - --sig -: data on stdout, text on stderr"
"$G" dgsp member sign --wallet alice.w --msg m2 --sig s3 >/dev/null
"$G" dgsp member sign --wallet alice.w --msg m2 --sig s4 >/dev/null 2>&1
check '[ $? -eq 3 ] && [ ! -e s4 ]' "exhausted wallet exits 3"

# --- open, judge
out=$("$G" dgsp manager open --group grp --msg m1 --sig s1 --proof-out p1 --json)
check '[ "$(echo "$out" | jget "[\"id\"]")" = 0 ] && [ "$(echo "$out" | jget "[\"username\"]")" = alice ]' "open gives id and username"
"$G" dgsp judge --pk grp/manager.pub --msg m1 --sig s1 --id 0 --proof p1 >/dev/null
check '[ $? -eq 0 ]' "judge confirms"
"$G" dgsp judge --pk grp/manager.pub --msg m1 --sig s1 --id 1 --proof p1 >/dev/null 2>&1
check '[ $? -eq 1 ]' "judge refuses another id"
"$G" dgsp judge --pk grp/manager.pub --msg m2 --sig s1 --id 0 --proof p1 >/dev/null 2>&1
check '[ $? -eq 1 ]' "judge refuses an invalid signature"

# --- revoke, export, verify with revocations
"$G" dgsp manager revoke --group grp --id 0 --id 999 >/dev/null 2>&1
check '[ $? -eq 2 ]' "revoke with an unknown id refused"
out=$("$G" dgsp manager status --group grp --id 0 --json)
check '[ "$(echo "$out" | jget "[\"active\"]")" = True ]' "nobody revoked after a refused list"
"$G" dgsp manager revoke --group grp --id 0 >/dev/null
check '[ $? -eq 0 ]' "revoke"
"$G" dgsp manager export-revocations --group grp --out rl >/dev/null
check '[ $? -eq 0 ]' "export-revocations"
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 --revocations rl >/dev/null 2>&1
check '[ $? -eq 1 ]' "revoked signature exits 1"
out=$("$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 --revocations rl --json)
check '[ "$(echo "$out" | jget "[\"revoked\"]")" = True ]' "--json says revoked"
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 >/dev/null
check '[ $? -eq 0 ]' "without the list the signature is still valid"
"$G" dgsp manager export-revocations --group fgrp --out frl >/dev/null
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 --revocations frl >/dev/null 2>&1
check '[ $? -eq 2 ]' "another group's revocation list refused"
flip rl rlbad 3
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig s1 --revocations rlbad >/dev/null 2>&1
check '[ $? -eq 2 ]' "tampered revocation list refused"
"$G" dgsp member csr --wallet alice.w --count 1 --out a2.csr >/dev/null
"$G" dgsp manager cert --group grp --csr a2.csr --out a2.certs >/dev/null 2>&1
check '[ $? -eq 1 ] && [ ! -e a2.certs ]' "no certificates for a revoked member"

# --- info (FILE positional)
for f in grp/manager.pub grp/manager.sk alice.cred alice.w; do
  out=$("$G" dgsp info $f --json)
  check '[ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ]' "info $f names the group's key id"
done
txt=$("$G" dgsp info grp/manager.pub)
check 'echo "$txt" | grep -q "PUBLIC KEY.*key id $kid"' "info text shows the key id: $txt"
out=$("$G" dgsp info - --json < grp/manager.pub)
check '[ "$(echo "$out" | jget "[\"type\"]")" = "PUBLIC KEY" ]' "info - reads stdin"
"$G" info grp/manager.pub >/dev/null
check '[ $? -eq 0 ]' "grove info describes a DGSP file"
for f in grp/manager.pub alice.cred a.csr a.certs s1 rl p1 alice.w grp/group.db; do
  "$G" dgsp info $f >/dev/null
  check '[ $? -eq 0 ]' "info $f"
done
out=$("$G" dgsp info s1 --json)
check '[ "$(echo "$out" | jget "[\"type\"]")" = SIGNATURE ]' "info names the type"
"$G" dgsp info m1 >/dev/null 2>&1
check '[ $? -eq 2 ]' "info on a non-grove file exits 2"
out=$("$G" dgsp info grp/manager.sk --json)
check '! echo "$out" | grep -q -i "secret_key\|hash_secret"' "info does not print secrets"

# --- export/import: the crate's raw layouts (DGSP has no DER/PEM encoding)
"$G" dgsp export --pk grp/manager.pub --format raw --out pub.raw >/dev/null
python3 "$GF" body grp/manager.pub > pub.body
check '[ $? -eq 0 ] && cmp -s pub.raw pub.body' "export --pk --format raw: the body bytes"
"$G" dgsp import --format raw --params shake-128f --pk pub.raw --out pub.back >/dev/null
check '[ $? -eq 0 ] && cmp -s pub.back grp/manager.pub' "a raw public key imported: the same file (the same key id)"
"$G" dgsp export --sig s2 --format raw --out - > s2.raw 2>/dev/null
"$G" dgsp import --format raw --params shake-128f --sig - --out - < s2.raw > s2.back 2>/dev/null
python3 "$GF" body s2 > s2.body
check '[ $? -eq 0 ] && cmp -s s2.raw s2.body && [ "$(python3 "$GF" body s2.back | cmp - s2.raw && echo same)" = same ]' "export/import round trip through stdin/stdout keeps the signature's bytes"
check '[ -z "$(python3 "$GF" keyid s2.back)" ] && [ "$(python3 "$GF" keyid s2)" = "$kid" ]' "a raw signature names no group: the imported file has no key id"
"$G" dgsp verify --pk grp/manager.pub --msg m2 --sig s2.back >/dev/null 2>&1
check '[ $? -eq 0 ]' "an imported signature verifies"
"$G" dgsp import --format raw --sig s2.raw --out x.sig >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e x.sig ]' "import --format raw without --params exits 2"
"$G" dgsp export --sig s2 --format der --out x.der >/dev/null 2>err
check '[ $? -eq 2 ] && grep -q "no standard DER encoding" err && [ ! -e x.der ]' "export --format der: exit 2, no standard encoding"
"$G" dgsp verify --pk pub.raw --msg m2 --sig s2 >/dev/null 2>err
check '[ $? -eq 2 ] && grep -q "import" err' "a raw public key given to verify: exit 2 pointing to import"

# --- the grove envelope: every file of the group carries its key id
for f in grp/manager.pub grp/manager.sk alice.cred creds/2.cred a.csr a.certs b.certs s1 s2 s3 p1 rl; do
  check '[ "$(python3 "$GF" keyid $f)" = "$kid" ] && [ "$(python3 "$GF" set $f)" = shake-128f/r3.1/grove ]' "$f: a DGSP envelope of set shake-128f/r3.1/grove with the group's key id"
  txt=$("$G" info $f)
  check 'echo "$txt" | grep -q "grove DGSP .*set shake-128f/r3.1/grove, key id $kid"' "grove info $f: $(echo "$txt" | head -1)"
done
out=$("$G" dgsp info s1 --json)
check '[ "$(echo "$out" | jget "[\"encoding\"]")" = armored ] && [ "$(echo "$out" | jget "[\"old_format\"]")" = False ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ]' "dgsp info: armored grove file with the key id"
out=$("$G" dgsp member sign --wallet bob.w --msg m1 --sig bs1 --json)
check '[ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ]' "member sign --json prints the key id"
# --binary: the binary envelope, read by every command like the armored one
"$G" dgsp manager join --group grp --username hank --out hank.cred --binary >/dev/null
check '[ "$(head -c 4 hank.cred)" = GRVE ]' "manager join --binary writes a binary credential"
"$G" dgsp member init --wallet hank.w --credential hank.cred >/dev/null &&
"$G" dgsp member csr --wallet hank.w --count 2 --out h.csr --binary >/dev/null &&
"$G" dgsp manager cert --group grp --csr h.csr --out h.certs --binary >/dev/null &&
"$G" dgsp member import-certs --wallet hank.w --certs h.certs >/dev/null &&
"$G" dgsp member sign --wallet hank.w --msg m1 --sig hs1 --binary >/dev/null
check '[ $? -eq 0 ] && [ "$(head -c 4 h.csr)" = GRVE ] && [ "$(head -c 4 h.certs)" = GRVE ] && [ "$(head -c 4 hs1)" = GRVE ]' "csr, cert (streamed) and sign --binary"
check '[ "$(python3 "$GF" keyid h.certs)" = "$kid" ] && [ "$(python3 "$GF" keyid hs1)" = "$kid" ]' "binary files carry the key id"
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig hs1 >/dev/null 2>&1
check '[ $? -eq 0 ]' "verify reads a binary signature"
hid=$("$G" dgsp manager open --group grp --msg m1 --sig hs1 --proof-out hp1 --binary --json | jget '["id"]')
"$G" dgsp judge --pk grp/manager.pub --msg m1 --sig hs1 --id "$hid" --proof hp1 >/dev/null 2>&1
check '[ $? -eq 0 ] && [ "$(head -c 4 hp1)" = GRVE ]' "open --binary, judge reads the binary proof"
out=$("$G" dgsp info hs1 --json)
check '[ "$(echo "$out" | jget "[\"encoding\"]")" = binary ]' "dgsp info: binary"
out=$("$G" info hs1 --json)
check '[ "$(echo "$out" | jget "[\"encoding\"]")" = binary ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ]' "grove info: binary, the key id"
# a file of another group (same parameters): exit 2 naming both key ids, nothing done
"$G" dgsp manager init --group ogrp --params shake-128f >/dev/null
okid=$("$G" dgsp info ogrp/manager.pub --json | jget '["key_id"]')
"$G" dgsp manager join --group ogrp --username olga --out olga.cred >/dev/null
"$G" dgsp member init --wallet olga.w --credential olga.cred >/dev/null
"$G" dgsp member csr --wallet olga.w --count 2 --out o.csr >/dev/null
"$G" dgsp manager cert --group ogrp --csr o.csr --out o.certs >/dev/null
"$G" dgsp member import-certs --wallet olga.w --certs o.certs >/dev/null
"$G" dgsp member sign --wallet olga.w --msg m1 --sig os1 >/dev/null
"$G" dgsp manager open --group ogrp --msg m1 --sig os1 --proof-out op1 >/dev/null
"$G" dgsp manager export-revocations --group ogrp --out orl >/dev/null
names() { grep -q "$okid" err && grep -q "$kid" err && grep -q "another group" err; }
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig os1 >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && names' "verify: a signature of another group exits 2 naming both key ids: $(cat err)"
"$G" dgsp judge --pk grp/manager.pub --msg m1 --sig s1 --id 0 --proof op1 >/dev/null 2>err
check '[ $? -eq 2 ] && names' "judge: a proof of another group exits 2"
"$G" dgsp verify --pk grp/manager.pub --msg m1 --sig bs1 --revocations orl >/dev/null 2>err
check '[ $? -eq 2 ] && names' "verify: a revocation list of another group exits 2"
"$G" dgsp manager open --group grp --msg m1 --sig os1 >/dev/null 2>err
check '[ $? -eq 2 ] && names' "manager open: a signature of another group exits 2"
"$G" dgsp member csr --wallet olga.w --count 1 --out o2.csr >/dev/null
"$G" dgsp manager cert --group grp --csr o2.csr --out x.certs >/dev/null 2>err
check '[ $? -eq 2 ] && names && [ ! -e x.certs ]' "manager cert: a CSR of another group exits 2, nothing issued"
"$G" dgsp member csr --wallet bob.w --count 1 --out bob2.csr >/dev/null
"$G" dgsp manager cert --group ogrp --csr bob2.csr --out x.certs >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e x.certs ]' "the other manager refuses this group's CSR"
"$G" dgsp member import-certs --wallet bob.w --certs o.certs >/dev/null 2>err
check '[ $? -eq 2 ] && names' "import-certs: certificates of another group exit 2"

# --- files an earlier grove wrote (the older DGSP armor, tests/dgsp/old_files): still read
okid2=$("$G" dgsp info "$OLD/manager.pub" --json | jget '["key_id"]')
out=$("$G" dgsp info "$OLD/msg.sig" --json)
check '[ "$(echo "$out" | jget "[\"old_format\"]")" = True ] && [ "$(echo "$out" | jget "[\"encoding\"]")" = dgsp-armor ]' "dgsp info: an older file is described as such"
"$G" dgsp verify --pk "$OLD/manager.pub" --msg "$OLD/msg.txt" --sig "$OLD/msg.sig" >/dev/null 2>&1
check '[ $? -eq 0 ]' "an older signature verifies with an older public key"
"$G" dgsp judge --pk "$OLD/manager.pub" --msg "$OLD/msg.txt" --sig "$OLD/msg.sig" --id 0 --proof "$OLD/msg.proof" >/dev/null 2>&1
check '[ $? -eq 0 ]' "an older proof is judged"
"$G" dgsp verify --pk "$OLD/manager.pub" --msg "$OLD/msg.txt" --sig "$OLD/msg.sig" --revocations "$OLD/group.rl" >/dev/null 2>&1
check '[ $? -eq 1 ]' "an older revocation list revokes"
"$G" info "$OLD/alice.certs" >/dev/null
check '[ $? -eq 0 ]' "grove info describes an older file"
mkdir og && cp "$OLD/manager.pub" "$OLD/manager.sk" og/ && chmod 600 og/manager.sk
out=$("$G" dgsp manager upgrade-key --group og --json)
check '[ $? -eq 0 ] && [ "$(echo "$out" | jget "[\"upgraded\"]")" = True ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$okid2" ]' "upgrade-key rewrites older key files as grove files"
check '[ "$(python3 "$GF" keyid og/manager.sk)" = "$okid2" ] && [ "$(python3 "$GF" keyid og/manager.pub)" = "$okid2" ] && [ "$(mode og/manager.sk)" = 600 ]' "the rewritten keys carry the group's key id (manager.sk 0600)"
"$G" dgsp verify --pk og/manager.pub --msg "$OLD/msg.txt" --sig "$OLD/msg.sig" >/dev/null 2>&1
check '[ $? -eq 0 ]' "an older signature verifies with the rewritten public key"
out=$("$G" dgsp manager upgrade-key --group og --json)
check '[ $? -eq 0 ] && [ "$(echo "$out" | jget "[\"upgraded\"]")" = False ]' "upgrade-key again: nothing to do"
# an older v1 manager.sk (no check): refused until upgrade-key has checked it
"$G" dgsp manager init --group v1g --params sha2-128f >/dev/null
python3 "$GF" old v1g/manager.sk 1 v1.sk && cp v1.sk v1g/manager.sk
python3 "$GF" old v1g/manager.pub 1 v1g/manager.pub
"$G" dgsp manager join --group v1g --username ada --out ada.cred >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && grep -q "upgrade-key" err && [ ! -e ada.cred ]' "a v1 manager.sk is refused, pointing to upgrade-key (rc=$rc)"
python3 "$GF" old og/manager.sk 2 v2.sk
cmp -s v2.sk "$OLD/manager.sk"
check '[ $? -eq 0 ]' "grove_file.py writes the older armor byte for byte as an earlier grove did"
out=$("$G" dgsp manager upgrade-key --group v1g --json)
check '[ $? -eq 0 ] && [ "$(echo "$out" | jget "[\"upgraded\"]")" = True ]' "upgrade-key checks and rewrites a v1 key"
"$G" dgsp manager join --group v1g --username ada --out ada.cred >/dev/null
check '[ $? -eq 0 ] && [ "$(python3 "$GF" keyid v1g/manager.sk)" = "$(python3 "$GF" keyid ada.cred)" ]' "the upgraded group works; its files carry its key id"

# --- data made by the original crate (dgsp-rs-0.1 profile, raw layouts, through import)
if [ -n "$V" ] && [ -f "$V/dgsp/dgsp_sha2_128f.json" ]; then
  python3 - "$V/dgsp/dgsp_sha2_128f.json" <<'P'
import json,sys
d=json.load(open(sys.argv[1])); s=d['signatures'][0]
open('crate.pub','wb').write(bytes.fromhex(d['manager']['pk']))
open('crate.sig','wb').write(bytes.fromhex(s['signature']))
open('crate.msg','wb').write(bytes.fromhex(s['message']))
P
  imp() { "$G" dgsp import --format raw --params "$1" ${2:+--profile $2} --pk crate.pub --out "$3.pub" >/dev/null &&
          "$G" dgsp import --format raw --params "$1" ${2:+--profile $2} --sig crate.sig --out "$3.sig" >/dev/null; }
  imp sphincs_sha2_128f dgsp-rs-0.1 crs
  check '[ $? -eq 0 ]' "crate key and signature imported (--params sphincs_sha2_128f --profile dgsp-rs-0.1)"
  "$G" dgsp verify --pk crs.pub --msg crate.msg --sig crs.sig >/dev/null 2>&1
  check '[ $? -eq 0 ]' "crate signature verifies in the dgsp-rs-0.1 profile"
  "$G" dgsp export --pk crs.pub --format raw --out crate.pub.back >/dev/null &&
  "$G" dgsp export --sig crs.sig --format raw --out crate.sig.back >/dev/null
  check 'cmp -s crate.pub crate.pub.back && cmp -s crate.sig crate.sig.back' "export gives back the crate's bytes exactly"
  imp sha2-128f "" grs
  "$G" dgsp verify --pk grs.pub --msg crate.msg --sig grs.sig >/dev/null 2>&1
  check '[ $? -eq 1 ]' "crate signature rejected in the grove profile"
  "$G" dgsp verify --pk grs.pub --msg crate.msg --sig crs.sig >/dev/null 2>&1
  check '[ $? -eq 2 ]' "key and signature of different profiles: exit 2"
  echo x >> crate.msg
  "$G" dgsp verify --pk crs.pub --msg crate.msg --sig crs.sig >/dev/null 2>&1
  check '[ $? -eq 1 ]' "crate signature on another message rejected"
elif [ "${GROVE_REQUIRE_VECTORS:-}" = 1 ]; then
  echo "FAIL: vectors required"; fail=1
fi
exit $fail
