#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# DGSP member wallets under crashes, concurrency and restores (grove dgsp member sign with the
# state registry). Scenarios:
#   crash-injection  SIGKILL just before every durable step of member sign (crash shim, N = 1, 2,
#                    ... until the command completes), ROUNDS sweeps
#   random kills     SIGKILL at a random time during member sign (large message)
#   concurrent       several processes signing with one wallet file; and with two copies of one
#                    wallet at once (a refused copy is recovered and tried again)
#   restores         backups taken after 0, 1 and k signatures restored over the wallet: refused
#                    until recovered, then they sign only unused certificates
# After every kill: the wallet opens, is not damaged, and (recovered if it is behind the
# registry) signs again. Each scenario prints one line
#   <scenario>: trials T, released R, reused U, lost L
# released = signatures written that verify; reused = certificates (zeta) that signed two
# different messages (must be 0); lost = certificates used up without a released signature.
# Usage: wallet_reliability.sh [rounds]   (GROVE and CRASH_SHIM in the environment)
. "$(dirname "${BASH_SOURCE[0]}")/../support/cli_test.sh"
GF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/grove_file.py" # grove files by hand
SHIM="${CRASH_SHIM:?}"
ROUNDS=${1:-3}
rnd() { echo $(( RANDOM % $1 )); }

"$G" dgsp manager init --group grp --params sha2-128f >/dev/null || exit 1
member=0
newwallet() { # newwallet <wallet> <certificates>: a fresh member with a wallet
  "$G" dgsp manager join --group grp --username "user$member" --out "$1.cred" >/dev/null &&
  "$G" dgsp member init --wallet "$1" --credential "$1.cred" >/dev/null &&
  "$G" dgsp member csr --wallet "$1" --count "$2" --out "$1.csr" >/dev/null &&
  "$G" dgsp manager cert --group grp --csr "$1.csr" --out "$1.certs" --threads 2 >/dev/null &&
  "$G" dgsp member import-certs --wallet "$1" --certs "$1.certs" >/dev/null || exit 1
  member=$((member + 1))
}
info() { "$G" dgsp member info --wallet "$1" --json 2>/dev/null; }
# The wallet opens and is intact; if it is behind the registry, recover it.
after_kill() { # after_kill <wallet> <what>
  local out
  out=$(info "$1"); local rc=$?
  check '[ $rc -eq 0 ] && [ "$(echo "$out" | jget "[\"damaged\"]")" = False ]' "$2: the wallet opens undamaged after the kill (rc=$rc)"
  if [ "$(echo "$out" | jget '["stale"]' 2>/dev/null)" != 0 ]; then
    "$G" dgsp member recover --wallet "$1" >/dev/null 2>&1
    check '[ $? -eq 0 ]' "$2: recover after the kill"
    recovered=$((recovered + 1))
  fi
}
# Figures over the pairs "signature message" in the file $1, for wallet entry usage $2:
# prints "released reused lost".
figures() { # figures <pairs file> <certificates used>
  local pairs=$1 usedc=$2 good=$d/good.$RANDOM
  : > "$good"
  while read -r s m; do
    [ -f "$s" ] || continue
    "$G" dgsp verify --pk grp/manager.pub --msg "$m" --sig "$s" >/dev/null 2>&1 && echo "$s $m" >> "$good"
  done < "$pairs"
  python3 -B - "$good" "$usedc" "$GF" <<'P'
import os, sys
sys.path.insert(0, os.path.dirname(sys.argv[3])); import grove_file
zetas = {}
for line in open(sys.argv[1]):
    s, m = line.split()
    f = grove_file.read(s)
    n = grove_file.n_of(f)
    ln = {16: 35, 24: 51, 32: 67}[n]
    b = f["body"]
    z = b[ln * n + n: ln * n + n + 16]
    zetas.setdefault(z, set()).add(open(m, 'rb').read())
released = sum(1 for _ in open(sys.argv[1]))
reused = sum(1 for v in zetas.values() if len(v) > 1)
print(released, reused, int(sys.argv[2]) - len(zetas))
P
}
registry_used() { info "$1" | jget '["registry_used"]'; }

# ---- crash injection at every durable step ----------------------------------------------------
newwallet cw.w $((ROUNDS * 20 + 20))
: > cw.pairs
trials=0; recovered=0; t=0
for r in $(seq 1 "$ROUNDS"); do
  n=1
  while :; do
    t=$((t + 1)); echo "crash message $t" > cm.$t
    echo "cs.$t cm.$t" >> cw.pairs
    ( ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
      GROVE_CRASH_AT=$n LD_PRELOAD="$SHIM" "$G" dgsp member sign --wallet cw.w --msg cm.$t \
        --sig cs.$t >/dev/null 2>&1; exit $? ) 2>/dev/null   # (no "Killed" notices)
    rc=$?
    if [ $rc -eq 0 ]; then break; fi
    check '[ $rc -eq 137 ]' "crash at step $n: killed (rc=$rc)"
    trials=$((trials + 1))
    after_kill cw.w "crash at step $n (sweep $r)"
    n=$((n + 1))
    [ $n -le 100 ] || { echo "FAIL: member sign never completes under the shim"; fail=1; break; }
  done
done
read -r rel reu lost < <(figures cw.pairs "$(registry_used cw.w)")
echo "dgsp wallet sign crash-injection: trials $trials, released $rel, reused $reu, lost $lost ($recovered recoveries; $((n - 1)) durable steps per signature)"
check '[ "$reu" = 0 ]' "crash-injection: no certificate signed twice"
check '[ "$rel" -ge "$ROUNDS" ]' "crash-injection: every completed signature released"
# the wallet is recorded before the registry: a killed signer never leaves a wallet that looks
# like an older copy (the next signature brings the registry forward by itself)
check '[ "$recovered" = 0 ]' "crash-injection: no kill made the wallet need a recover ($recovered did)"

# ---- random-time kills --------------------------------------------------------------------------
newwallet rk.w $((ROUNDS * 10 + 10))
head -c 8000000 /dev/zero | tr '\0' 'y' > rk.base
: > rk.pairs
trials=0; recovered=0
for t in $(seq 1 $((ROUNDS * 8))); do
  { cat rk.base; echo "$t"; } > rm.$t
  echo "rs.$t rm.$t" >> rk.pairs
  "$G" dgsp member sign --wallet rk.w --msg rm.$t --sig rs.$t >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '0.%03d' "$(rnd 250)")"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  trials=$((trials + 1))
  after_kill rk.w "random kill $t"
done
read -r rel reu lost < <(figures rk.pairs "$(registry_used rk.w)")
echo "dgsp wallet sign random kills: trials $trials, released $rel, reused $reu, lost $lost ($recovered recoveries)"
check '[ "$reu" = 0 ]' "random kills: no certificate signed twice"
check '[ "$recovered" = 0 ]' "random kills: no kill made the wallet need a recover ($recovered did)"

# ---- concurrent processes: one wallet file ------------------------------------------------------
P=4; S=$((ROUNDS * 2))
newwallet cc.w $((P * S))
: > cc.pairs
for p in $(seq 1 $P); do
  ( for s in $(seq 1 $S); do
      echo "process $p message $s" > ccm.$p.$s
      "$G" dgsp member sign --wallet cc.w --msg ccm.$p.$s --sig ccs.$p.$s >/dev/null 2>&1 || echo "FAIL: concurrent sign $p.$s"
    done ) &
done
wait
for p in $(seq 1 $P); do for s in $(seq 1 $S); do echo "ccs.$p.$s ccm.$p.$s" >> cc.pairs; done; done
read -r rel reu lost < <(figures cc.pairs "$(registry_used cc.w)")
echo "dgsp wallet concurrent processes (one file): trials $((P * S)), released $rel, reused $reu, lost $lost"
check '[ "$reu" = 0 ] && [ "$rel" = $((P * S)) ] && [ "$lost" = 0 ]' "one file: every process signed with its own certificate"
check '[ "$(info cc.w | jget "[\"ready\"]")" = 0 ]' "one file: all certificates used"

# ---- concurrent processes: two copies of one wallet ----------------------------------------------
newwallet c2.w $((P * S * 2))
cp c2.w c2.copy
: > c2.pairs
for p in $(seq 1 $P); do
  w=c2.w; [ $((p % 2)) -eq 0 ] && w=c2.copy
  ( for s in $(seq 1 $S); do
      echo "copy $w process $p message $s" > c2m.$p.$s
      for try in 1 2 3 4 5 6 7 8 9 10; do
        "$G" dgsp member sign --wallet $w --msg c2m.$p.$s --sig c2s.$p.$s >/dev/null 2>&1; rc=$?
        [ $rc -eq 3 ] || break
        "$G" dgsp member recover --wallet $w >/dev/null 2>&1   # the other copy signed meanwhile
      done
      [ $rc -eq 0 ] || echo "FAIL: two copies: sign $p.$s (rc=$rc)"
    done ) &
done
wait
for p in $(seq 1 $P); do for s in $(seq 1 $S); do echo "c2s.$p.$s c2m.$p.$s" >> c2.pairs; done; done
read -r rel reu lost < <(figures c2.pairs "$(registry_used c2.w)")
echo "dgsp wallet concurrent processes (two copies): trials $((P * S)), released $rel, reused $reu, lost $lost"
check '[ "$reu" = 0 ]' "two copies: no certificate signed twice"

# ---- restores of earlier copies ------------------------------------------------------------------
K=$((ROUNDS + 2))
newwallet rs.w $((K * 4 + 10))
: > rs.pairs
trials=0; t=0
sign_rs() { t=$((t + 1)); echo "restore message $t" > rsm.$t; echo "rss.$t rsm.$t" >> rs.pairs
  "$G" dgsp member sign --wallet rs.w --msg rsm.$t --sig rss.$t >/dev/null 2>&1; }
cp rs.w bak.0; sign_rs; cp rs.w bak.1
for i in $(seq 2 "$K"); do sign_rs; done
cp rs.w bak.k; sign_rs; sign_rs
for b in bak.0 bak.1 bak.k bak.0 bak.k; do
  cp $b rs.w
  before=$(info rs.w | jget '["ready"]')
  t=$((t + 1)); echo "restore message $t" > rsm.$t; echo "rss.$t rsm.$t" >> rs.pairs
  "$G" dgsp member sign --wallet rs.w --msg rsm.$t --sig rss.$t >/dev/null 2>&1; rc=$?
  trials=$((trials + 1))
  check '[ $rc -eq 3 ] && [ ! -e rss.$t ] && [ "$(info rs.w | jget "[\"ready\"]")" = "$before" ]' "restored $b refused, unchanged (rc=$rc)"
  "$G" dgsp member recover --wallet rs.w >/dev/null
  sign_rs
  check '[ $? -eq 0 ]' "restored $b signs after recover"
done
read -r rel reu lost < <(figures rs.pairs "$(registry_used rs.w)")
echo "dgsp wallet restores: trials $trials, released $rel, reused $reu, lost $lost"
check '[ "$reu" = 0 ] && [ "$lost" = 0 ]' "restores: no reuse, nothing lost"
exit $fail
