#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# DGSP on PostgreSQL: certificate throughput with 1, 2 and 4 manager processes sharing one
# database, join throughput (single and batch) and revoke throughput. Starts a private server
# (tests/support/pg.sh). Prints one JSON object.
# Usage: bench/dgsp/pg_throughput.sh [params (default sha2-128f)] [certificates per process]
set -eu
cd "$(dirname "$0")/../.."
G=${GROVE:-$PWD/build/bin/grove}
PARAMS=${1:-sha2-128f}
PER=${2:-64}
source tests/support/pg.sh
pg_start >/dev/null
d=$(mktemp -d)
trap 'pg_stop; rm -rf "$d"' EXIT
cd "$d"
now() { date +%s.%N; }
"$G" dgsp manager init --group g --params "$PARAMS" --store "$PG_URL" >/dev/null
python3 -c "
for i in range(100000): print('u%06d' % i)" > users.txt
t0=$(now); "$G" dgsp manager join --group g --store "$PG_URL" --batch users.txt >/dev/null; t1=$(now)
batch_join=$(python3 -c "print(round(100000/($t1-$t0)))")
t0=$(now); for i in $(seq 1 200); do "$G" dgsp manager join --group g --store "$PG_URL" --username s$i --out /dev/null >/dev/null 2>&1 || true; done; t1=$(now)
single_join=$(python3 -c "print(round(200/($t1-$t0),1))")
# one CSR of 8 keys per process
for p in 1 2 3 4; do
  "$G" dgsp manager credential --group g --store "$PG_URL" --id $p --out c$p >/dev/null
  "$G" dgsp member init --wallet w$p --credential c$p >/dev/null
  "$G" dgsp member csr --wallet w$p --count 8 --out r$p >/dev/null
done
res=""
for P in 1 2 4; do
  t0=$(now)
  pids=""
  for p in $(seq 1 $P); do
    ( for k in $(seq 1 $((PER / 8))); do "$G" dgsp manager cert --group g --store "$PG_URL" --csr r$p --out /dev/null --threads 1 >/dev/null; done ) &
    pids="$pids $!"
  done
  wait $pids
  t1=$(now)
  res="$res\"certs_per_s_${P}_processes\": $(python3 -c "print(round($P*$PER/($t1-$t0),1))"), "
done
t0=$(now); for i in $(seq 10 109); do "$G" dgsp manager revoke --group g --store "$PG_URL" --id $i >/dev/null; done; t1=$(now)
revoke=$(python3 -c "print(round(100/($t1-$t0),1))")
echo "{\"params\": \"$PARAMS\", \"cpus\": $(nproc), $res\"batch_join_members_per_s\": $batch_join, \"single_join_per_s\": $single_join, \"revoke_commands_per_s\": $revoke}"
