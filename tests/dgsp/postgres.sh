#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# DGSP on PostgreSQL: a private server on a loopback port, then the whole DGSP scenario suite
# against it, every manager command with --store, several manager processes issuing
# certificates for the same members at once, a manager killed mid-batch, the database restarted
# during a run, bad connection strings and a role without privileges.
set -u
G="${GROVE:?}"
T="${TEST_DGSP:?}"
ST="${STORE_TOOL:-}"
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/pg.sh"
pg_start; rc=$?
[ $rc -eq 77 ] && { echo "SKIP: PostgreSQL not installed"; exit 77; }
[ $rc -ne 0 ] && { echo "FAIL: cannot start a PostgreSQL server"; exit 1; }
d=$(mktemp -d)
trap 'pg_stop; rm -rf "$d"' EXIT
cd "$d"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d$1)"; }
URL="$PG_URL"

echo "== the DGSP scenario suite against PostgreSQL"
"$T" f postgres "$URL" > suite.log 2>&1
check '[ $? -eq 0 ]' "test_dgsp against PostgreSQL: $(tail -1 suite.log)"

if [ -n "${REVOKE_BACKENDS:-}" ]; then
  echo "== one revoke scenario, identical on memory, SQLite and PostgreSQL"
  "$REVOKE_BACKENDS" postgres "$URL" > revoke.log 2>&1
  check '[ $? -eq 0 ] && grep -q "on 3 backend" revoke.log' "revoke on every backend: $(tail -1 revoke.log)"
fi

echo "== every manager command with --store"
"$G" dgsp manager init --group grp --params sha2-128f --store "$URL" >/dev/null
check '[ $? -eq 0 ] && [ -f grp/manager.sk ] && [ ! -e grp/group.db ]' "init with an external store"
"$G" dgsp manager init --group grp2 --params sha2-128f --store "$URL" >/dev/null 2>&1
check '[ $? -eq 2 ]' "a second group in the same store refused"
"$G" dgsp manager join --group grp --store "$URL" --username alice --out alice.cred >/dev/null
check '[ $? -eq 0 ]' "join"
"$G" dgsp manager join --group grp --store "$URL" --username alice --out x.cred >/dev/null 2>&1
check '[ $? -eq 2 ]' "duplicate username refused"
python3 -c "
for i in range(25000): print('pg-user-%05d' % i)" > users.txt
"$G" dgsp manager join --group grp --store "$URL" --batch users.txt >/dev/null
m=$("$G" dgsp manager status --group grp --store "$URL" --json | jget '["members"]')
check '[ "$m" = 25001 ]' "batch join of 25000 (COPY), members=$m"
export GROVE_STORE="$URL"   # the environment variable works as well as --store
"$G" dgsp member init --wallet alice.w --credential alice.cred >/dev/null
"$G" dgsp member csr --wallet alice.w --count 4 --out a.csr >/dev/null
"$G" dgsp manager cert --group grp --csr a.csr --out a.certs >/dev/null
check '[ $? -eq 0 ]' "cert"
"$G" dgsp member import-certs --wallet alice.w --certs a.certs >/dev/null
echo hello > m
"$G" dgsp member sign --wallet alice.w --msg m --sig s >/dev/null
"$G" dgsp verify --pk grp/manager.pub --msg m --sig s --revocation-store "$URL" >/dev/null
check '[ $? -eq 0 ]' "verify reading revocations from the database"
out=$("$G" dgsp manager open --group grp --msg m --sig s --proof-out p --json)
check '[ "$(echo "$out" | jget "[\"username\"]")" = alice ]' "open"
"$G" dgsp manager revoke --group grp --id 0 --id 99999999 >/dev/null 2>&1
check '[ $? -eq 2 ]' "revoke list with an unknown id refused"
"$G" dgsp verify --pk grp/manager.pub --msg m --sig s --revocation-store "$URL" >/dev/null
check '[ $? -eq 0 ]' "nothing revoked by the refused list"
"$G" dgsp manager revoke --group grp --id 0 >/dev/null
"$G" dgsp verify --pk grp/manager.pub --msg m --sig s --revocation-store "$URL" >/dev/null 2>&1
check '[ $? -eq 1 ]' "revoked signature exits 1 (database)"
"$G" dgsp manager export-revocations --group grp --out rl >/dev/null
"$G" dgsp verify --pk grp/manager.pub --msg m --sig s --revocations rl >/dev/null 2>&1
check '[ $? -eq 1 ]' "revoked signature exits 1 (signed export)"
out=$("$G" dgsp manager status --group grp --json)
check '[ "$(echo "$out" | jget "[\"revoked_entries\"]")" = 4 ]' "4 revocation entries"
unset GROVE_STORE

echo "== several manager processes issuing certificates at once"
for u in 1 2; do
  "$G" dgsp manager credential --group grp --store "$URL" --id $u --out u$u.cred >/dev/null
  "$G" dgsp member init --wallet u$u.w --credential u$u.cred >/dev/null
  "$G" dgsp member csr --wallet u$u.w --count 2 --out u$u.csr >/dev/null
done
pids=""
for p in 1 2 3 4; do
  ( for b in 1 2 3; do "$G" dgsp manager cert --group grp --store "$URL" --csr u$(( (p % 2) + 1 )).csr --out c.$p.$b --threads 1 >/dev/null || echo "cert failed"; done ) &
  pids="$pids $!"
done
wait $pids
if [ -n "$ST" ]; then
  "$ST" zetas c.* > z.txt
  check '[ $(wc -l < z.txt) -eq 24 ] && [ $(sort -u z.txt | wc -l) -eq 24 ]' "24 certificates from 4 processes, all zetas distinct"
fi
c1=$("$G" dgsp manager status --group grp --store "$URL" --id 1 --json | jget '["counter"]')
c2=$("$G" dgsp manager status --group grp --store "$URL" --id 2 --json | jget '["counter"]')
check '[ "$c1" = 12 ] && [ "$c2" = 12 ]' "counters exact ($c1, $c2)"

echo "== a manager killed in the middle of a batch"
"$G" dgsp member csr --wallet u1.w --count 64 --out big.csr >/dev/null
for r in 1 2 3; do
  "$G" dgsp manager cert --group grp --store "$URL" --csr big.csr --out k.$r --threads 1 >/dev/null 2>&1 &
  pid=$!; sleep 0.$((RANDOM % 5 + 1)); kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
done
"$G" dgsp manager cert --group grp --store "$URL" --csr u1.csr --out after.certs >/dev/null
if [ -n "$ST" ]; then
  "$ST" zetas c.* after.certs $(ls k.* 2>/dev/null) > z2.txt
  check '[ $(wc -l < z2.txt) -eq $(sort -u z2.txt | wc -l) ]' "no counter reused after killed batches"
fi
c1b=$("$G" dgsp manager status --group grp --store "$URL" --id 1 --json | jget '["counter"]')
check '[ "$c1b" -ge $((c1 + 2)) ]' "counter moved forward only ($c1 -> $c1b)"

echo "== the database restarted during a run"
( for i in $(seq 1 12); do "$G" dgsp manager cert --group grp --store "$URL" --csr u2.csr --out r.$i --threads 1 > r.$i.out 2>&1; echo "$?" >> rcs.txt; sleep 0.1; done ) &
loop=$!
sleep 0.4
pg_restart
wait $loop
okc=$(grep -c '^0$' rcs.txt); badc=$(grep -vc '^0$' rcs.txt)
echo "   $okc runs succeeded, $badc failed while the server restarted"
check '[ "$okc" -ge 1 ]' "issuing works again after the restart"
if [ "$badc" -gt 0 ]; then
  check 'grep -l -i "store\|connect\|server" $(ls r.*.out) >/dev/null' "failed runs say what happened"
fi
if [ -n "$ST" ]; then
  "$ST" zetas $(ls r.[0-9]* 2>/dev/null | grep -v out) c.* after.certs > z3.txt 2>/dev/null
  check '[ $(wc -l < z3.txt) -eq $(sort -u z3.txt | wc -l) ]' "no counter reused across the restart"
fi
out=$("$G" dgsp manager status --group grp --store "$URL" --json)
check '[ "$(echo "$out" | jget "[\"members\"]")" = 25001 ]' "no member lost across the restart"

echo "== bad connection strings and permission errors"
"$G" dgsp manager status --group grp --store "postgresql://127.0.0.1:1/grove?connect_timeout=2" > e1 2>&1; rc=$?
check '[ $rc -eq 2 ] && grep -q -i "connect" e1' "unreachable server: $(head -c 100 e1)"
"$G" dgsp manager status --group grp --store "postgresql://[nonsense" > e2 2>&1; rc=$?
check '[ $rc -eq 2 ] && grep -q -i "connection string\|invalid" e2' "malformed URI: $(head -c 100 e2)"
"$G" dgsp manager status --group grp --store "postgresql://postgres@127.0.0.1:$PG_PORT/nosuchdb" > e3 2>&1; rc=$?
check '[ $rc -eq 2 ] && grep -q -i "nosuchdb\|does not exist" e3' "missing database: $(head -c 100 e3)"
pg_sql "CREATE ROLE nopriv LOGIN; REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC;" >/dev/null
"$G" dgsp manager status --group grp --store "postgresql://nopriv@127.0.0.1:$PG_PORT/grove" > e4 2>&1; rc=$?
check '[ $rc -ne 0 ] && grep -q -i "permission\|denied\|not belong\|no grove" e4' "role without privileges: $(head -c 140 e4)"
exit $fail
