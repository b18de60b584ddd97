#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# XMSS crash and restore drivers, through the grove command (GROVE, SHIM = the crash shim):
#  - sign, split and keygen killed before every durable step in turn (GROVE_CRASH_AT=1, 2, ...
#    until the command completes), then split and sign killed at random instants; the first
#    sign of a bare key file of an older grove (its rewrite as the binary envelope) likewise;
#  - restores of earlier copies of every state file (a key file before/after signatures,
#    before/after a split, the split part, the registry entry damaged or removed).
# After every kill: every file that the command accepts signs from a range no other file can
# sign from, the source or the part (at least one) stays usable, and at most the moved range is
# lost. One line per scenario: trials, released (signatures that left the process), reused
# (an index signed twice: must be 0), lost (indices made unusable).
# Usage: crash.sh [max-steps] [random-kills]
set -u
G="${GROVE:?}"
SHIM="${SHIM:?}"
# without the shim nothing is killed and every scenario would pass untested
[ -f "$SHIM" ] || { echo "FAIL: crash shim $SHIM not built (build the grove_crash_shim target)"; exit 1; }
MAXN=${1:-40}
RKILLS=${2:-8}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
export GROVE_STATE_DIR=$d/state XDG_STATE_HOME=$d/xdg
unset GROVE_XMSS_STATE_DIR
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys
try: print(json.load(sys.stdin)$1)
except Exception: print('')"; }
printf 'a message' > msg
run_at() { local n=$1; shift; GROVE_CRASH_AT=$n LD_PRELOAD="$SHIM" "$@"; }
sigidx() { "$G" --json xmss info "$2" 2>/dev/null | jget '["signature_index"]'; }
# sign once with a file: prints the index, or nothing if refused
try_sign() { "$G" --json xmss sign --sk "$1" --msg msg --sig "$2" 2>/dev/null | jget '["index"]'; }
field() { "$G" --json xmss info "$1" 2>/dev/null | jget "[\"$2\"]"; }

"$G" xmss keygen --params XMSS-SHA2_10_256 --sk k0 --pk k0.pub --threads 2 >/dev/null || exit 1
cp -a state state0

# ---- sign: killed before each durable step; one key file, one lineage ------------------------------
cp k0 ks
trials=0; released=0; : > s.idx
for n in $(seq 1 $MAXN); do
  trials=$((trials + 1))
  run_at $n "$G" xmss sign --sk ks --msg msg --sig s.$n >/dev/null 2>&1; rc=$?
  if [ -s s.$n ]; then
    "$G" xmss verify --pk k0.pub --msg msg --sig s.$n >/dev/null 2>&1 || { echo "FAIL: sign step $n: released an invalid signature"; fail=1; }
    sigidx k0.pub s.$n xmss >> s.idx; released=$((released + 1))
  fi
  h=$(field ks high_water)
  check '[ -n "$h" ]' "sign step $n: the key file still reads ($(ls))"
  [ $rc -eq 0 ] && break
done
for r in 1 2 3; do i=$(try_sign ks s.after.$r); [ -n "$i" ] && { echo $i >> s.idx; released=$((released + 1)); }; done
reused=$(( $(wc -l < s.idx) - $(sort -u s.idx | wc -l) ))
hw=$(field ks high_water)
lost=$(( hw - $(wc -l < s.idx) ))
check '[ $reused -eq 0 ] && [ $lost -le $trials ]' "sign crash-injection: no index twice, at most one burned per kill"
echo "xmss sign crash-injection: trials $trials, released $released, reused $reused, lost $lost"

# ---- sign of a bare key file of an older grove (no envelope), killed before each durable step:
# its first reservation rewrites it as the binary envelope; after every kill the file reads, in
# one of the two forms (never torn), and no index is released twice
KFPY="$(cd "$(dirname "${BASH_SOURCE[0]}")/../cli" && pwd)/xmss_keyfile.py"
rm -rf state; cp -a state0 state
python3 "$KFPY" state k0 kb
check '[ "$(python3 "$KFPY" form kb)" = bare ]' "a bare key file made from k0"
trials=0; released=0; forms_ok=1; : > b.idx
for n in $(seq 1 $MAXN); do
  trials=$((trials + 1))
  run_at $n "$G" xmss sign --sk kb --msg msg --sig b.$n >/dev/null 2>&1; rc=$?
  if [ -s b.$n ]; then
    "$G" xmss verify --pk k0.pub --msg msg --sig b.$n >/dev/null 2>&1 || { echo "FAIL: bare sign step $n: released an invalid signature"; fail=1; }
    sigidx k0.pub b.$n xmss >> b.idx; released=$((released + 1))
  fi
  f=$(python3 "$KFPY" form kb 2>/dev/null)
  { [ "$f" = bare ] || [ "$f" = binary ]; } || forms_ok=0
  check '[ -n "$(field kb high_water)" ]' "bare sign step $n: the key file still reads ($(ls))"
  [ $rc -eq 0 ] && break
done
for r in 1 2 3; do i=$(try_sign kb b.after.$r); [ -n "$i" ] && { echo $i >> b.idx; released=$((released + 1)); }; done
reused=$(( $(wc -l < b.idx) - $(sort -u b.idx | wc -l) ))
lost=$(( $(field kb high_water) - $(wc -l < b.idx) ))
check '[ $reused -eq 0 ] && [ $lost -le $trials ] && [ $forms_ok = 1 ] && [ "$(python3 "$KFPY" form kb)" = binary ]' "bare-file sign crash-injection: no index twice, bare or binary after every kill, binary at the end"
echo "xmss bare-file sign crash-injection: trials $trials, released $released, reused $reused, lost $lost"

# ---- split and the invariants after it -------------------------------------------------------------
# check_pair SRC PART TOTAL MOVED: each file signs once (if it is accepted); the ranges they then
# hold must be disjoint; at least one must work; lost = TOTAL - both ranges - used before
S_REL=0; S_REUSE=0; S_LOST=0; S_BAD=0
check_pair() {
  local src=$1 part=$2 used=$3 moved=$4 tag=$5
  local i1 i2 e1=0 e2=0 s1 s2 n1=0 n2=0
  i1=$(try_sign $src $tag.a)
  if [ -n "$i1" ]; then e1=$(field $src range_end); n1=$((e1 - i1)); S_REL=$((S_REL + 1)); fi
  i2=""
  if [ -e $part ]; then
    i2=$(try_sign $part $tag.b)
    if [ -n "$i2" ]; then e2=$(field $part range_end); s2=$(field $part range_start); n2=$((e2 - i2)); S_REL=$((S_REL + 1)); fi
  fi
  if [ -z "$i1" ] && [ -z "$i2" ]; then echo "FAIL: $tag: both files dead"; S_BAD=1; fi
  if [ -n "$i1" ] && [ -n "$i2" ] && [ "$i1" -lt "$e2" ] && [ "$i2" -lt "$e1" ]; then
    echo "FAIL: $tag: overlapping ranges [$i1, $e1) and [$i2, $e2)"; S_REUSE=$((S_REUSE + 1)); S_BAD=1; fi
  local lost=$((1024 - used - n1 - n2))
  if [ $lost -gt $moved ]; then echo "FAIL: $tag: $lost indices lost (more than the $moved moved)"; S_BAD=1; fi
  S_LOST=$((S_LOST + lost))
}

trials=0
for n in $(seq 1 $MAXN); do
  trials=$((trials + 1))
  rm -rf state kp kp.* kk kk.*; cp -a state0 state; cp k0 kk
  "$G" xmss sign --sk kk --msg msg --sig /dev/null >/dev/null   # index 0 used
  run_at $n "$G" xmss split --sk kk --out kp --count 1000 >/dev/null 2>&1; rc=$?
  check_pair kk kp 1 1000 split.$n
  [ $rc -eq 0 ] && break
done
check '[ $S_BAD -eq 0 ]' "split crash-injection invariants"
echo "xmss split crash-injection: trials $trials, released $S_REL, reused $S_REUSE, lost $S_LOST"

# the whole remaining range, killed at each step
S_REL=0; S_REUSE=0; S_LOST=0; trials=0
for n in $(seq 1 $MAXN); do
  trials=$((trials + 1))
  rm -rf state kp kp.* kk kk.*; cp -a state0 state; cp k0 kk
  run_at $n "$G" xmss split --sk kk --out kp --count 1024 >/dev/null 2>&1; rc=$?
  check_pair kk kp 0 1024 splitall.$n
  [ $rc -eq 0 ] && break
done
check '[ $S_BAD -eq 0 ]' "split-all crash-injection invariants"
echo "xmss split-all crash-injection: trials $trials, released $S_REL, reused $S_REUSE, lost $S_LOST"

# random-time kills of split on a key whose part needs a new cache (XMSS^MT, 2 layers)
"$G" xmss keygen --params XMSSMT-SHA2_20/2_256 --sk m0 --pk m0.pub --threads 2 >/dev/null
cp -a state statem
S_REL=0; S_REUSE=0; S_LOST=0; trials=0
for r in $(seq 1 $RKILLS); do
  trials=$((trials + 1))
  rm -rf state kp kp.* kk kk.*; cp -a statem state; cp m0 kk
  "$G" xmss split --sk kk --out kp --count 700000 --threads 1 >/dev/null 2>&1 &
  pid=$!
  sleep "0.$(printf '%03d' $((RANDOM % 300)))"
  kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
  i1=$(try_sign kk rs.$r.a); i2=""; [ -e kp ] && i2=$(try_sign kp rs.$r.b)
  [ -n "$i1" ] && S_REL=$((S_REL + 1)); [ -n "$i2" ] && S_REL=$((S_REL + 1))
  e1=$(field kk range_end)
  check '[ -n "$i1" ] || [ -n "$i2" ]' "random split kill $r: both files dead"
  if [ -n "$i2" ]; then check '[ "$e1" -le 348576 ]' "random split kill $r: source range end $e1 overlaps the part"; fi
  if [ -n "$i1" ] && [ "$e1" != 1048576 ] && [ -z "$i2" ]; then S_LOST=$((S_LOST + 700000)); fi
done
echo "xmss split random-kill: trials $trials, released $S_REL, reused $S_REUSE, lost $S_LOST"

# random-time kills of sign (large message): one lineage
head -c 20000000 /dev/zero | tr '\0' 'x' > big
cp k0 kr; rm -rf state; cp -a state0 state
: > r.idx; trials=0; released=0
for r in $(seq 1 $RKILLS); do
  trials=$((trials + 1))
  "$G" xmss sign --sk kr --msg big --sig rb.$r >/dev/null 2>&1 &
  pid=$!
  sleep "0.$(printf '%03d' $((RANDOM % 400)))"
  kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
  if [ -s rb.$r ] && "$G" xmss verify --pk k0.pub --msg big --sig rb.$r >/dev/null 2>&1; then
    sigidx k0.pub rb.$r xmss >> r.idx; released=$((released + 1)); fi
  check '[ -n "$(field kr high_water)" ]' "random sign kill $r: key file reads"
done
i=$(try_sign kr rb.final); [ -n "$i" ] && echo $i >> r.idx && released=$((released + 1))
reused=$(( $(wc -l < r.idx) - $(sort -u r.idx | wc -l) )); lost=$(( $(field kr high_water) - $(wc -l < r.idx) ))
check '[ $reused -eq 0 ]' "random sign kills: no index twice"
echo "xmss sign random-kill: trials $trials, released $released, reused $reused, lost $lost"

# ---- keygen killed before each durable step ----------------------------------------------------------
trials=0; released=0; lost=0; bad=0
for n in $(seq 1 $MAXN); do
  trials=$((trials + 1))
  rm -rf state kg kg.pub kg.*; mkdir -p state
  run_at $n "$G" xmss keygen --params XMSS-SHA2_10_256 --sk kg --pk kg.pub --threads 2 >/dev/null 2>&1; rc=$?
  if [ -e kg ]; then
    i=$(try_sign kg kg.s)
    ls kg.tmp.* >/dev/null 2>&1 && { echo "FAIL: keygen step $n: a temporary key file survived the next use"; bad=1; }
    if [ "$i" != 0 ]; then echo "FAIL: keygen step $n: the key file exists but does not sign"; bad=1; lost=$((lost + 1024)); fi
  fi
  [ $rc -eq 0 ] && break
done
check '[ $bad -eq 0 ]' "keygen crash-injection: a key file that exists is usable"
echo "xmss keygen crash-injection: trials $trials, released $released, reused 0, lost $lost"

# ---- restores of earlier copies of every state file -------------------------------------------------------
rm -rf state; cp -a state0 state; cp k0 kx
: > x.idx; trials=0; released=0
sgn() { local i; i=$(try_sign $1 x.$RANDOM$RANDOM); [ -n "$i" ] && { echo $i >> x.idx; released=$((released + 1)); }; echo "$i"; }
cp kx c.fresh; sgn kx >/dev/null; sgn kx >/dev/null; cp kx c.after2
"$G" xmss split --sk kx --out px --count 500 >/dev/null; cp kx c.postsplit; cp px c.part0
sgn px >/dev/null; cp px c.part1; sgn px >/dev/null; sgn kx >/dev/null
cp kx c.cur; cp px c.pcur
for copy in c.fresh c.after2 c.postsplit; do
  trials=$((trials + 1)); cp $copy kx; i=$(sgn kx)
  check '[ -z "$i" ]' "restored $copy refused (signed index $i)"
done
for copy in c.part0 c.part1; do
  trials=$((trials + 1)); cp $copy px; i=$(sgn px)
  check '[ -z "$i" ]' "restored $copy refused (signed index $i)"
done
# the restored copies brought forward: they sign only fresh indices
cp c.fresh kx; "$G" xmss recover --sk kx >/dev/null; sgn kx >/dev/null
cp c.part0 px; "$G" xmss recover --sk px >/dev/null; sgn px >/dev/null
# the registry entry damaged, then removed
id=$(field kx state_id); trials=$((trials + 1))
cp state/xmss/$id e.keep; printf 'x' >> state/xmss/$id
i=$(sgn kx); check '[ -z "$i" ]' "a damaged registry entry refuses the key"
cp e.keep state/xmss/$id; sgn kx >/dev/null
reused=$(( $(wc -l < x.idx) - $(sort -u x.idx | wc -l) ))
check '[ $reused -eq 0 ]' "restores: no index twice"
echo "xmss restore: trials $trials, released $released, reused $reused, lost 0"
exit $fail
