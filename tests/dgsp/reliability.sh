#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# DGSP reliability: SIGKILL at random points during batch join, certificate issuing, revocation
# and member signing; several processes issuing certificates at once; bad input files of every
# kind; a full disk. After every kill the store must open, pass its consistency check, and show
# no lost or duplicated member, no counter issued twice, revocations all or nothing, and no
# certificate that signed twice.
# Usage: reliability.sh [rounds]   (GROVE and STORE_TOOL in the environment)
set -u
G="${GROVE:?}"
GF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/grove_file.py" # grove files by hand
T="${STORE_TOOL:?}"
ROUNDS=${1:-12}
d=$(mktemp -d)
cleanup() { mountpoint -q "$d/full" 2>/dev/null && umount "$d/full"; rm -rf "$d"; }
trap cleanup EXIT
cd "$d"
export GROVE_STATE_DIR="$d/state"  # the state registry of these runs only
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d$1)"; }
rnd() { echo $(( (RANDOM % $1) )); }
killafter() { # killafter <ms> <cmd...>: run in the background, SIGKILL after ms
  local ms=$1; shift
  "$@" >/dev/null 2>&1 &
  local pid=$!
  sleep "$(printf '0.%03d' "$ms")"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
}
status_ok() { "$G" dgsp manager status --group "$1" --json 2>/dev/null | jget '["check"]'; }

"$G" dgsp manager init --group grp --params sha2-128f >/dev/null || exit 1

echo "== batch join killed at random points"
seen=""
python3 -c "
for i in range(200000): print('user-%06d' % i)" > users.txt
for r in $(seq 1 $ROUNDS); do
  killafter $(rnd 200) "$G" dgsp manager join --group grp --batch users.txt --skip-existing
  s=$(status_ok grp)
  check '[ "$s" = ok ]' "store consistent after killed join (round $r): $s"
  m=$("$G" dgsp manager status --group grp --json | jget '["members"]')
  check '[ $((m % 10000)) -eq 0 ]' "join chunks are all or nothing (members=$m)"
  seen="$seen $m"
done
echo "   members after each kill:$seen"
out=$("$G" dgsp manager join --group grp --batch users.txt --skip-existing --json)
m=$("$G" dgsp manager status --group grp --json | jget '["members"]')
check '[ "$m" = 200000 ]' "every member present exactly once after resuming (members=$m)"

echo "== certificate issuing killed at random points"
"$G" dgsp manager credential --group grp --id 7 --out u7.cred >/dev/null
"$G" dgsp member init --wallet u7.w --credential u7.cred >/dev/null
"$G" dgsp member csr --wallet u7.w --count 8 --out u7.csr >/dev/null
for r in $(seq 1 $ROUNDS); do
  killafter $(rnd 200) "$G" dgsp manager cert --group grp --csr u7.csr --out certs.$r --threads 1
  s=$(status_ok grp)
  check '[ "$s" = ok ]' "store consistent after killed cert (round $r)"
done
"$G" dgsp manager cert --group grp --csr u7.csr --out certs.final >/dev/null
ls certs.* > written.txt
"$T" zetas $(cat written.txt) > zetas.txt
total=$(wc -l < zetas.txt); uniq=$(sort -u zetas.txt | wc -l)
ctr=$("$G" dgsp manager status --group grp --id 7 --json | jget '["counter"]')
echo "   $(ls certs.* | wc -l) certificate files written, $total certificates, counter $ctr"
check '[ "$total" = "$uniq" ] && [ "$total" -ge 8 ]' "no counter issued twice ($uniq distinct of $total)"
check '[ "$ctr" -ge "$total" ] && [ $((ctr % 8)) -eq 0 ]' "counter covers every issued certificate (ctr=$ctr, issued=$total)"

echo "== concurrent certificate issuing from several processes"
"$G" dgsp manager credential --group grp --id 8 --out u8.cred >/dev/null
"$G" dgsp member init --wallet u8.w --credential u8.cred >/dev/null
"$G" dgsp member csr --wallet u8.w --count 2 --out u8.csr >/dev/null
"$G" dgsp member csr --wallet u7.w --count 2 --out u7b.csr >/dev/null
c7=$("$G" dgsp manager status --group grp --id 7 --json | jget '["counter"]')
pids=""
for p in 1 2 3 4 5 6; do
  csr=u8.csr; [ $((p % 2)) -eq 0 ] && csr=u7b.csr
  ( for b in 1 2 3; do "$G" dgsp manager cert --group grp --csr $csr --out conc.$p.$b --threads 1 >/dev/null || echo "cert failed"; done ) &
  pids="$pids $!"
done
wait $pids
"$T" zetas conc.* > czetas.txt
check '[ $(wc -l < czetas.txt) -eq 36 ] && [ $(sort -u czetas.txt | wc -l) -eq 36 ]' "36 certificates from 6 processes, all zetas distinct"
c8=$("$G" dgsp manager status --group grp --id 8 --json | jget '["counter"]')
c7b=$("$G" dgsp manager status --group grp --id 7 --json | jget '["counter"]')
check '[ "$c8" = 18 ] && [ $((c7b - c7)) -eq 18 ]' "counters exact after concurrent issuing ($c8, +$((c7b - c7)))"

echo "== member signing killed at random points"
"$G" dgsp manager cert --group grp --csr u8.csr --out u8.certs >/dev/null
"$G" dgsp member csr --wallet u8.w --count 18 --out u8c.csr >/dev/null
"$G" dgsp manager cert --group grp --csr u8c.csr --out u8c.certs >/dev/null
"$G" dgsp member import-certs --wallet u8.w --certs u8.certs >/dev/null
"$G" dgsp member import-certs --wallet u8.w --certs u8c.certs >/dev/null
echo "a message" > msg
head -c 20000000 /dev/zero | tr '\0' 'x' > bigmsg   # hashing it keeps the signer busy after its commit
for r in $(seq 1 $ROUNDS); do
  killafter $(rnd 80) "$G" dgsp member sign --wallet u8.w --msg bigmsg --sig big.$r
done
while "$G" dgsp member sign --wallet u8.w --msg msg --sig sig.more.$(date +%s%N) >/dev/null 2>&1; do :; done
good=""
for f in big.*; do "$G" dgsp verify --pk grp/manager.pub --msg bigmsg --sig $f >/dev/null 2>&1 && good="$good $f"; done
nbig=$(echo $good | wc -w)
for f in sig.*; do "$G" dgsp verify --pk grp/manager.pub --msg msg --sig $f >/dev/null 2>&1 && good="$good $f"; done
"$T" zetas $good > szetas.txt
check '[ $(wc -l < szetas.txt) -eq $(sort -u szetas.txt | wc -l) ]' "no certificate signed twice ($(wc -l < szetas.txt) signatures)"
out=$("$G" dgsp member info --wallet u8.w --json)
check '[ "$(echo "$out" | jget "[\"ready\"]")" = 0 ] && [ "$(echo "$out" | jget "[\"used\"]")" = 20 ]' "wallet: all 20 certificates used, none reusable"
check '[ $(wc -l < szetas.txt) -le 20 ]' "at most 20 signatures from 20 certificates"
echo "   $(wc -l < szetas.txt) valid signatures from 20 certificates ($nbig from killed runs; the rest burned by kills)"

echo "== revocation killed at random points (all or nothing)"
for id in 100 101 102; do "$T" reserve grp/group.db $id 150000 >/dev/null; done
before=$("$G" dgsp manager status --group grp --json | jget '["revoked_entries"]')
notyet=0
for r in $(seq 1 $ROUNDS); do
  killafter $(rnd 999) "$G" dgsp manager revoke --group grp --id 100 --id 101 --id 102
  s=$(status_ok grp)
  check '[ "$s" = ok ]' "store consistent after killed revoke (round $r)"
  a=$("$G" dgsp manager status --group grp --id 100 --json | jget '["active"]')
  b=$("$G" dgsp manager status --group grp --id 102 --json | jget '["active"]')
  e=$("$G" dgsp manager status --group grp --json | jget '["revoked_entries"]')
  if [ "$a" = True ]; then
    check '[ "$b" = True ] && [ "$e" = "$before" ]' "revoke not applied at all (round $r)"
    notyet=$((notyet + 1))
  else
    check '[ "$b" = False ] && [ "$e" -eq $((before + 450000)) ]' "revoke fully applied (round $r, entries $e)"
    break
  fi
done
echo "   $notyet killed revocations left no trace"
"$G" dgsp manager revoke --group grp --id 100 --id 101 --id 102 >/dev/null
e=$("$G" dgsp manager status --group grp --json | jget '["revoked_entries"]')
check '[ "$e" -eq $((before + 450000)) ]' "revocation complete afterwards"

echo "== bad input files of every kind change nothing"
snapshot() { "$G" dgsp manager status --group grp --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['members'], d['revoked_entries'])"; }
"$G" dgsp manager export-revocations --group grp --out rl >/dev/null
onesig=$(ls sig.* | head -1)
"$G" dgsp manager open --group grp --msg msg --sig $onesig --proof-out proof >/dev/null
s0=$(snapshot)
for f in grp/manager.pub u8.cred u8.csr u8.certs $onesig rl proof; do
  kind=$(basename $f)
  head -c $(( $(stat -c %s $f) / 2 )) $f > bad.trunc
  python3 -B - $f bad.flip bad.type bad.params "$GF" <<'P'
import os,sys
sys.path.insert(0, os.path.dirname(sys.argv[5])); import grove_file
t=open(sys.argv[1]).read().split('\n')
b=list(t[2]); b[5]= 'A' if b[5]!='A' else 'B'; f=t[:]; f[2]=''.join(b)
open(sys.argv[2],'w').write('\n'.join(f))   # a damaged file
g=grove_file.read(sys.argv[1])   # well-formed envelopes that say another type, another set
g["type"]='CSR' if g["type"]!='CSR' else 'PROOF'
grove_file.write(sys.argv[3], g)
g=grove_file.read(sys.argv[1]); g["set"]=g["set"].replace('sha2-128f','shake-128f')
grove_file.write(sys.argv[4], g)
P
  for v in bad.trunc bad.flip bad.type bad.params; do
    rm -f x.certs
    "$G" dgsp info $v >/dev/null 2>&1; rc=$?
    # a flipped body character can still be well formed, and another parameter set of the
    # same size decodes: only truncation and a wrong type are refused by info itself
    case $v in bad.trunc|bad.type) check '[ $rc -eq 2 ]' "info refuses $kind/$v";; esac
    "$G" dgsp verify --pk grp/manager.pub --msg msg --sig $v >/dev/null 2>&1; rc=$?
    check '[ $rc -eq 1 ] || [ $rc -eq 2 ]' "verify refuses $kind/$v as a signature (rc=$rc)"
    "$G" dgsp manager cert --group grp --csr $v --out x.certs >/dev/null 2>&1; rc=$?
    # (a CSR with one flipped key byte is still a valid request for another key)
    [ "$kind/$v" = u8.csr/bad.flip ] || check '[ $rc -ne 0 ] && [ ! -e x.certs ]' "cert refuses $kind/$v as a CSR"
    "$G" dgsp member import-certs --wallet u7.w --certs $v >/dev/null 2>&1; rc=$?
    check '[ $rc -ne 0 ]' "import refuses $kind/$v"
    "$G" dgsp verify --pk grp/manager.pub --msg msg --sig $onesig --revocations $v >/dev/null 2>&1; rc=$?
    check '[ $rc -eq 2 ]' "verify refuses $kind/$v as a revocation list"
  done
done
check '[ "$(snapshot)" = "$s0" ]' "the store is unchanged by all refused inputs"

echo "== a full disk"
mkdir -p full
if mount -t tmpfs -o size=160k tmpfs full 2>/dev/null; then
  "$G" dgsp manager init --group full/g --params sha2-128f >/dev/null
  python3 -c "
for i in range(20000): print('name-%05d-padding-padding-padding' % i)" > many.txt
  "$G" dgsp manager join --group full/g --batch many.txt >/dev/null 2>out.txt; rc=$?
  check '[ $rc -eq 2 ] && grep -q -i "storage\|stopped" out.txt' "join on a full disk fails with a clear error (rc=$rc: $(head -c 120 out.txt))"
  s=$(status_ok full/g)
  check '[ "$s" = ok ]' "store consistent on a full disk: $s"
  m=$("$G" dgsp manager status --group full/g --json | jget '["members"]')
  check '[ $((m % 10000)) -eq 0 ]' "no partial chunk on a full disk (members=$m)"
  "$G" dgsp manager revoke --group full/g --id 0 >/dev/null 2>&1
  s=$(status_ok full/g)
  check '[ "$s" = ok ]' "store consistent after revoke on a full disk"
else
  echo "note: cannot mount a tmpfs here; full-disk case not run"
fi
exit $fail
