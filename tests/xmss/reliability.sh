#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# XMSS key-state reliability, through the grove command:
#  - a signer killed between the durable state write and the signature output, many times (the
#    message comes through a pipe that is left open, so the kill lands exactly there): the
#    index moved forward, no signature was written, and that index is never used again;
#  - signers killed at random points while hashing a large message: the key file always loads,
#    its high-water mark never goes back, no index is used twice;
#  - several processes signing with one key file at once, and with two copies of it at once:
#    no index twice, every signature valid; the stale copy is refused;
#  - a key file restored from an older copy is refused;
#  - a full disk: the reservation fails cleanly, nothing is signed, the key file stays intact.
# (crash.sh: crash injection at every durable step of sign, split and keygen, and restores.)
# Usage: reliability.sh [rounds]   (GROVE in the environment)
set -u
G="${GROVE:?}"
ROUNDS=${1:-10}
d=$(mktemp -d)
cleanup() { mountpoint -q "$d/full" 2>/dev/null && umount "$d/full"; rm -rf "$d"; }
trap cleanup EXIT
cd "$d"
export GROVE_STATE_DIR=$d/state XDG_STATE_HOME=$d/xdg
unset GROVE_XMSS_STATE_DIR
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d$1)"; }
rnd() { echo $(( (RANDOM % $1) )); }
hw() { "$G" --json xmss info "$1" 2>/dev/null | jget '["high_water"]'; }
sigidx() { "$G" --json xmss info "$2" 2>/dev/null | jget '["signature_index"]'; }
# every valid signature in the list, one index per line
valid_indices() { local pub=$1 msg=$2; shift 2; for f in "$@"; do
  [ -s "$f" ] && "$G" xmss verify --pk $pub --msg $msg --sig $f >/dev/null 2>&1 && sigidx $pub $f; done; }

"$G" xmss keygen --params XMSSMT-SHA2_20/4_256 --sk k --pk k.pub >/dev/null || exit 1
printf 'a message' > msg

echo "== killed between the state write and the signature output"
mkfifo pipe
for r in $(seq 1 $ROUNDS); do
  h0=$(hw k)
  "$G" xmss sign --sk k --msg - --sig crash.$r < pipe >/dev/null 2>&1 &
  pid=$!
  exec 3>pipe
  printf 'the first half of a message' >&3
  h=$h0
  for i in $(seq 1 500); do h=$(hw k); [ "$h" != "$h0" ] && break; sleep 0.01; done
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  exec 3>&-
  check '[ "$h" = $((h0 + 1)) ]' "round $r: the index was reserved durably before signing ($h0 -> $h)"
  check '[ ! -e crash.$r ]' "round $r: no signature output after the kill"
done
out=$("$G" --json xmss sign --sk k --msg msg --sig after)
i=$(echo "$out" | jget '["index"]')
check '[ "$i" = "$ROUNDS" ]' "the next signature uses a fresh index ($i), the killed ones are burned"

echo "== killed at random points while hashing a large message"
head -c 20000000 /dev/zero | tr '\0' 'x' > big
prev=$(hw k)
for r in $(seq 1 $ROUNDS); do
  "$G" xmss sign --sk k --msg big --sig big.$r >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '0.%03d' $(rnd 400))"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  h=$(hw k)
  check '[ -n "$h" ] && [ "$h" -ge "$prev" ]' "round $r: key file intact, high-water mark $prev -> $h"
  prev=${h:-$prev}
done
for r in 1 2 3; do "$G" xmss sign --sk k --msg big --sig big.done.$r >/dev/null; done
valid_indices k.pub big big.* > idx.txt
n=$(wc -l < idx.txt); u=$(sort -u idx.txt | wc -l)
echo "   $n valid signatures of the large message ($((n - 3)) from killed runs)"
check '[ "$n" = "$u" ] && [ "$n" -ge 3 ]' "no index used twice ($u distinct of $n)"

echo "== four processes signing with one key file at once"
h0=$(hw k)
pids=""
for p in 1 2 3 4; do
  ( for b in 1 2 3 4 5 6; do "$G" xmss sign --sk k --msg msg --sig conc.$p.$b >/dev/null || echo "sign failed"; done ) &
  pids="$pids $!"
done
wait $pids
valid_indices k.pub msg conc.* > cidx.txt
check '[ $(wc -l < cidx.txt) -eq 24 ] && [ $(sort -u cidx.txt | wc -l) -eq 24 ]' "24 valid signatures with 24 distinct indices"
check '[ "$(hw k)" = $((h0 + 24)) ]' "the high-water mark moved by exactly 24"
n=$(wc -l < cidx.txt); echo "xmss concurrent one file: trials 24, released $n, reused $((n - $(sort -u cidx.txt | wc -l))), lost $((24 - n))"

echo "== two copies of the key file used at once"
cp k kcopy
pids=""
( for b in 1 2 3 4 5; do "$G" xmss sign --sk k --msg msg --sig cp.a.$b >/dev/null 2>&1; done ) &
pids="$pids $!"
( for b in 1 2 3 4 5; do "$G" xmss sign --sk kcopy --msg msg --sig cp.b.$b >/dev/null 2>&1; done ) &
pids="$pids $!"
wait $pids
valid_indices k.pub msg cp.* > pidx.txt
na=$(ls cp.a.* 2>/dev/null | wc -l); nb=$(ls cp.b.* 2>/dev/null | wc -l)
echo "   original wrote $na signatures, the copy $nb (the one that fell behind is refused)"
check '[ $(wc -l < pidx.txt) -eq $(sort -u pidx.txt | wc -l) ] && [ $((na + nb)) -ge 5 ] && [ $((na + nb)) -le 10 ]' "copies never share an index"
n=$(wc -l < pidx.txt); echo "xmss concurrent two copies: trials 10, released $n, reused $((n - $(sort -u pidx.txt | wc -l))), lost 0"
"$G" xmss sign --sk kcopy --msg msg --sig cp.late >/dev/null 2>&1 && "$G" xmss sign --sk k --msg msg --sig cp.late2 >/dev/null 2>&1
check '[ $? -ne 0 ]' "after one copy moves on, the other is refused"

echo "== a key file restored from an older copy"
"$G" xmss keygen --params XMSS-SHA2_10_256 --sk r --pk r.pub --threads 2 >/dev/null
"$G" xmss sign --sk r --msg msg --sig r.0 >/dev/null
cp r r.backup
"$G" xmss sign --sk r --msg msg --sig r.1 >/dev/null
"$G" xmss sign --sk r --msg msg --sig r.2 >/dev/null
cp r r.new
cp r.backup r
"$G" xmss sign --sk r --msg msg --sig r.3 >/dev/null 2>err; rc=$?
check '[ $rc -eq 3 ] && [ ! -e r.3 ]' "restored key file refused (exit $rc: $(head -c 90 err))"
cp r.new r
"$G" xmss sign --sk r --msg msg --sig r.3 >/dev/null
check '[ "$(sigidx r.pub r.3)" = 3 ]' "the current key file goes on at index 3"

echo "== a full disk"
mkdir -p full
if mount -t tmpfs -o size=200k tmpfs full 2>/dev/null; then
  "$G" xmss keygen --params XMSS-SHA2_10_256 --sk full/k --pk full/k.pub --threads 2 --state-dir full/state >/dev/null
  head -c 90000 /dev/zero > full/filler 2>/dev/null
  cp full/k k.before
  "$G" xmss sign --sk full/k --msg msg --sig s.full --state-dir full/state >/dev/null 2>err; rc=$?
  check '[ $rc -eq 3 ] && [ ! -e s.full ] && grep -q "nothing signed" err' "full disk: reservation refused, nothing signed (exit $rc: $(head -c 100 err))"
  check 'cmp -s full/k k.before' "full disk: the key file is unchanged"
  rm -f full/filler full/k.tmp.*
  "$G" xmss sign --sk full/k --msg msg --sig s.full --state-dir full/state >/dev/null
  check '[ $? -eq 0 ] && "$G" xmss verify --pk full/k.pub --msg msg --sig s.full >/dev/null' "after freeing space, signing works"
else
  echo "note: cannot mount a tmpfs here; full-disk case not run"
fi
exit $fail
