#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# DGSP manager reliability on SQLite: the crash shim kills `manager join` (single and batch),
# `manager cert` and `manager revoke` before every durable step in turn (N = 1, 2, ... until the
# command completes); random-time SIGKILLs of a larger certificate batch; several manager
# processes on one store at once; restores of earlier copies of group.db (refused until
# recovered). After every kill the store passes its check, the state registry is not ahead of
# nothing and behind nothing, and no member id or zeta ever leaves the process twice.
# Each scenario ends with one line: "<scenario>: trials T, released R, reused U, lost L"
# (released = credentials / certificates written out, reused = an id or zeta issued twice,
# must be 0; lost = ids or counters burned). Usage: manager_reliability.sh [rounds]
# (GROVE, STORE_TOOL and SHIM = the crash shim library in the environment)
. "$(dirname "${BASH_SOURCE[0]}")/../support/cli_test.sh"
T="${STORE_TOOL:?}"
SHIM="${SHIM:?}"
ROUNDS=${1:-8}
st() { "$G" dgsp manager status --group "$1" --json 2>/dev/null; }
ctr() { "$G" dgsp manager status --group "$1" --id "$2" --json 2>/dev/null | jget '["counter"]'; }
members() { st "$1" | jget '["members"]'; }
healthy() { # store check ok and registry ok (or no record yet)
  local s; s=$(st "$1")
  [ "$(echo "$s" | jget '["check"]')" = ok ] && echo "$s" | grep -q '"registry": "\(ok\|no record yet\)"'
}
# crashrun <N> <cmd...>: run with the shim killing before durable step N; 0 if it completed
crashrun() {
  local n=$1; shift
  local rc
  rc=$( { env LD_PRELOAD="$SHIM" GROVE_CRASH_AT=$n "$@" >/dev/null 2>&1; echo $?; } 2>/dev/null )
  [ "$rc" -ne 137 ]
}
cred_ids() { for f in "$@"; do "$G" dgsp info "$f" --json | jget '["id"]'; done; }
report() { echo "$1: trials $2, released $3, reused $4, lost $5"; check "[ $4 -eq 0 ]" "$1: nothing reused"; }

"$G" dgsp manager init --group grp --params sha2-128f >/dev/null || exit 1

echo "== manager join (single) killed before every durable step"
trials=0
for n in $(seq 1 200); do
  trials=$((trials + 1))
  if crashrun $n "$G" dgsp manager join --group grp --username "u$n" --out "u$n.cred"; then break; fi
  check 'healthy grp' "store and registry consistent after a kill at step $n"
done
rel=$(ls u*.cred 2>/dev/null | wc -l)
ids=$(cred_ids u*.cred | sort)
reused=$(( $(echo "$ids" | wc -l) - $(echo "$ids" | sort -u | wc -l) ))
m=$(members grp)
report "dgsp manager join crash-injection" $trials $rel $reused $((m - rel))
check '[ "$rel" -ge 1 ]' "the completed join released its credential"

echo "== manager join --batch killed before every durable step, resumed each time"
python3 -c "
for i in range(40): print('b-%03d' % i)" > batch.txt
trials=0
for n in $(seq 1 400); do
  trials=$((trials + 1))
  if crashrun $n "$G" dgsp manager join --group grp --batch batch.txt --out-dir bcreds --skip-existing; then break; fi
  check 'healthy grp' "consistent after a batch kill at step $n"
done
"$G" dgsp manager join --group grp --batch batch.txt --out-dir bcreds --skip-existing >/dev/null
rel=$(ls bcreds/*.cred | wc -l)
ids=$(cred_ids bcreds/*.cred | sort)
reused=$(( $(echo "$ids" | wc -l) - $(echo "$ids" | sort -u | wc -l) ))
report "dgsp manager join batch crash-injection" $trials $rel $reused $((40 - rel))
check '[ "$rel" -eq 40 ]' "every batch member has its credential after the resume ($rel of 40)"
for f in bcreds/*.cred; do   # (a killed run may leave <id>.cred.tmp.<pid>, never a partial credential)
  id=$(basename $f .cred)
  "$G" dgsp manager credential --group grp --id $id --out chk.cred --force >/dev/null
  cmp -s chk.cred $f || { echo "FAIL: credential $f is not member $id's"; fail=1; break; }
done

# members used below: A and B for certificates, R1..R3 (the last three) for revocation
set -- $(ls bcreds | grep -E '^[0-9]+\.cred$' | sed 's/\.cred$//' | sort -n)
A=$1; B=$2; R1=${38}; R2=${39}; R3=${40}
echo "== manager cert killed before every durable step"
"$G" dgsp member init --wallet w.w --credential bcreds/$A.cred >/dev/null
"$G" dgsp member csr --wallet w.w --count 8 --out w.csr >/dev/null
c0=$(ctr grp $A)
trials=0
for n in $(seq 1 200); do
  trials=$((trials + 1))
  done_=0
  crashrun $n "$G" dgsp manager cert --group grp --csr w.csr --out "c.$n" --threads 1 && done_=1
  check 'healthy grp' "consistent after a cert kill at step $n"
  [ -e "c.$n" ] && check '"$T" zetas "c.$n" >/dev/null' "a released certificate file is complete (step $n)"
  [ $done_ = 1 ] && break
done
"$T" zetas $(for f in c.*; do case $f in *.tmp.*) ;; *) echo $f;; esac; done) > cz.txt
rel=$(wc -l < cz.txt); reused=$((rel - $(sort -u cz.txt | wc -l)))
c1=$(ctr grp $A)
report "dgsp manager cert crash-injection" $trials $rel $reused $((c1 - c0 - rel))
check '[ $((c1 - c0)) -ge "$rel" ]' "the counter covers every released certificate"

echo "== manager revoke killed before every durable step"
for id in $R1 $R2 $R3; do "$T" reserve grp/group.db $id 2000 >/dev/null; done
e0=$(st grp | jget '["revoked_entries"]')
trials=0
for n in $(seq 1 200); do
  trials=$((trials + 1))
  crashrun $n "$G" dgsp manager revoke --group grp --id $R1 --id $R2 --id $R3 && break
  check 'healthy grp' "consistent after a revoke kill at step $n"
  e=$(st grp | jget '["revoked_entries"]')
  check '[ "$e" = "$e0" ] || [ "$e" = $((e0 + 6000)) ]' "revocation all or nothing (step $n: $e)"
done
e=$(st grp | jget '["revoked_entries"]')
report "dgsp manager revoke crash-injection" $trials 0 0 0
check '[ "$e" = $((e0 + 6000)) ]' "revocation complete ($e entries)"

echo "== manager cert killed at random times (256 certificates, threads 1)"
"$G" dgsp member csr --wallet w.w --count 256 --out w64.csr >/dev/null
c0=$(ctr grp $A)
for r in $(seq 1 $ROUNDS); do
  { "$G" dgsp manager cert --group grp --csr w64.csr --out "r.$r" --threads 1 >/dev/null 2>&1 &
    pid=$!
    sleep "0.$(printf '%03d' $((RANDOM % 1000)))"
    kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null; } 2>/dev/null
  check 'healthy grp' "consistent after a random kill (round $r)"
done
released() { for f in "$@"; do [ -e "$f" ] && echo "$f"; done; }
"$T" zetas $(released r.[0-9] r.[0-9][0-9] c.[0-9] c.[0-9][0-9] c.[0-9][0-9][0-9]) > rz.txt 2>/dev/null
rel=$(released $(seq -f 'r.%g' 1 $ROUNDS) | wc -l)
reused=$(( $(wc -l < rz.txt) - $(sort -u rz.txt | wc -l) ))
c1=$(ctr grp $A)
report "dgsp manager cert random kills" $ROUNDS $((rel * 256)) $reused $((c1 - c0 - rel * 256))

echo "== concurrent manager processes on one store"
"$G" dgsp member init --wallet w6.w --credential bcreds/$B.cred >/dev/null
"$G" dgsp member csr --wallet w6.w --count 3 --out w6.csr >/dev/null
"$G" dgsp member csr --wallet w.w --count 3 --out w5.csr >/dev/null
a5=$(ctr grp $A); a6=$(ctr grp $B); m0=$(members grp)
pids=""
for p in 1 2 3 4; do
  csr=w6.csr; [ $((p % 2)) -eq 0 ] && csr=w5.csr
  ( for b in 1 2 3; do "$G" dgsp manager cert --group grp --csr $csr --out k.$p.$b --threads 1 >/dev/null || echo "FAIL: concurrent cert"; done ) &
  pids="$pids $!"
done
for p in 1 2; do
  ( for b in 1 2 3; do "$G" dgsp manager join --group grp --username "cc-$p-$b" --out "cc-$p-$b.cred" >/dev/null || echo "FAIL: concurrent join"; done ) &
  pids="$pids $!"
done
wait $pids
"$T" zetas k.* > kz.txt
ids=$(cred_ids cc-*.cred | sort)
reused=$(( $(wc -l < kz.txt) - $(sort -u kz.txt | wc -l) + $(echo "$ids" | wc -l) - $(echo "$ids" | sort -u | wc -l) ))
lost=$(( $(ctr grp $A) - a5 + $(ctr grp $B) - a6 - $(wc -l < kz.txt) + $(members grp) - m0 - 6 ))
report "dgsp manager concurrent processes" 18 $(( $(wc -l < kz.txt) + 6 )) $reused $lost
check '[ $(wc -l < kz.txt) -eq 36 ] && healthy grp' "36 certificates from 4 processes, store healthy"

echo "== restores of earlier copies of group.db"
restored=0; refused=0; trials=0
cp grp/group.db snap.0
for r in $(seq 1 $ROUNDS); do
  trials=$((trials + 1))
  "$G" dgsp manager cert --group grp --csr w5.csr --out "s.$r" --threads 1 >/dev/null 2>&1
  cp grp/group.db "snap.$r"   # a backup taken now (no manager process runs)
  if [ $((RANDOM % 2)) -eq 0 ]; then
    k=$((RANDOM % r))
    cp "snap.$k" grp/group.db; rm -f grp/group.db-wal grp/group.db-shm
    restored=$((restored + 1))
    "$G" dgsp manager cert --group grp --csr w5.csr --out "x.$r" --threads 1 >/dev/null 2>&1; rc=$?
    check '[ $rc -eq 3 ] && [ ! -e "x.$r" ]' "a restored copy (snapshot $k) refused (round $r, rc=$rc)"
    [ $rc -eq 3 ] && refused=$((refused + 1))
    "$G" dgsp manager recover --group grp >/dev/null || { echo "FAIL: recover"; fail=1; }
  fi
done
"$G" dgsp manager cert --group grp --csr w5.csr --out s.final --threads 1 >/dev/null
"$T" zetas $(for f in s.* x.* k.* r.* c.*; do case $f in *.tmp.*) ;; *) [ -e $f ] && echo $f;; esac; done) > sz.txt
rel=$(ls s.* | wc -l)
reused=$(( $(wc -l < sz.txt) - $(sort -u sz.txt | wc -l) ))
report "dgsp manager restores ($restored restores, $refused refused)" $trials $((rel * 3)) $reused 0
check '[ $refused -eq $restored ]' "every restore refused until recovered"
exit $fail
