#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# bench/compare.sh - grove side by side with other implementations, measured in one go.
#
# Usage: bench/compare.sh [--rounds N] [--sets "shake-128f sha2-128f ..."] [--out DIR]
#
# It never downloads or builds anything. Each comparison runs only if its program is present:
#   GROVE           the grove command (default: build/bin/grove)
#   SPHINCSPLUS_DIR a folder of benchmark programs of the SPHINCS+ reference implementation
#                   (its test/benchmark, built by you), named bench-sphincs-<set>-simple, e.g.
#                   bench-sphincs-shake-128f-simple built from shake-avx2 with PARAMS=
#                   sphincs-shake-128f THASH=simple
# For each parameter set the two programs run alternately, N rounds each (default 5), so a
# busy machine slows both alike; the script reports the median of the per-round ratios
# grove / other for keygen, sign and verify, writes them as JSON to DIR (default
# docs/benchmarks) and, when gnuplot is installed, draws DIR/sphincs-ratios.svg.
set -euo pipefail
cd "$(dirname "$0")/.."
GROVE=${GROVE:-build/bin/grove}
ROUNDS=5
SETS="shake-128f sha2-128f shake-192f sha2-192f shake-256f sha2-256f shake-128s sha2-128s"
OUT=docs/benchmarks
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) ROUNDS=$2; shift 2 ;;
    --sets) SETS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) sed -n '3,20p' "$0"; exit 2 ;;
  esac
done
[ -x "$GROVE" ] || { echo "compare.sh: $GROVE not found (build grove first)"; exit 2; }
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -z "${SPHINCSPLUS_DIR:-}" ]; then
  echo "compare.sh: SPHINCSPLUS_DIR is not set: no SPHINCS+ reference to compare with"
  exit 0
fi
echo "grove: $("$GROVE" --version)"
echo "cpu:   $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
for set in $SETS; do
  ref="$SPHINCSPLUS_DIR/bench-sphincs-$set-simple"
  [ -x "$ref" ] || { echo "skip $set: $ref not found"; continue; }
  for r in $(seq 1 "$ROUNDS"); do
    "$GROVE" bench sphincs --params "sphincs-$set-simple" --time 300 --json > "$tmp/g.$set.$r.json"
    "$ref" > "$tmp/r.$set.$r.txt"
  done
done
python3 - "$tmp" "$OUT" "$ROUNDS" $SETS <<'PY'
import json, re, statistics, sys, os, datetime
tmp, out, rounds, sets = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
ops = {"keygen": "Generating keypair", "sign": "Signing", "verify": "Verifying"}
rows = []
for s in sets:
    ratios = {o: [] for o in ops}
    times = {o: ([], []) for o in ops}
    for r in range(1, rounds + 1):
        gp, rp = f"{tmp}/g.{s}.{r}.json", f"{tmp}/r.{s}.{r}.txt"
        if not (os.path.exists(gp) and os.path.exists(rp)):
            continue
        g = {x["op"]: x["median_ms"] for x in json.load(open(gp))["results"]}
        txt = open(rp).read()
        for o, label in ops.items():
            m = re.search(re.escape(label) + r"\.*\s+avg\.\s+([0-9.]+) us", txt)
            if m and o in g:
                ref_ms = float(m.group(1)) / 1000
                ratios[o].append(g[o] / ref_ms)
                times[o][0].append(g[o]); times[o][1].append(ref_ms)
    for o in ops:
        if ratios[o]:
            rows.append({"set": s, "op": o, "grove_ms": statistics.median(times[o][0]),
                         "reference_ms": statistics.median(times[o][1]),
                         "ratio": statistics.median(ratios[o])})
print("%-12s %-7s %12s %14s %8s" % ("set", "op", "grove ms", "reference ms", "ratio"))
for x in rows:
    print("%-12s %-7s %12.3f %14.3f %8.2f" % (x["set"], x["op"], x["grove_ms"], x["reference_ms"], x["ratio"]))
res = {"date": datetime.date.today().isoformat(), "rounds": rounds, "results": rows}
json.dump(res, open(f"{out}/sphincs-ratios.json", "w"), indent=1)
with open(f"{tmp}/plot.dat", "w") as f:
    for s in sets:
        vals = {x["op"]: x["ratio"] for x in rows if x["set"] == s}
        if vals:
            f.write("%s %s %s %s\n" % (s, vals.get("keygen", "NaN"), vals.get("sign", "NaN"), vals.get("verify", "NaN")))
PY
if command -v gnuplot >/dev/null 2>&1 && [ -s "$tmp/plot.dat" ]; then
  gnuplot <<GP
set terminal svg size 900,420 font "sans,11"
set output "$OUT/sphincs-ratios.svg"
set title "grove time / SPHINCS+ reference time (lower is faster)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:1.2]
set grid ytics
set arrow from graph 0, first 0.7 to graph 1, first 0.7 nohead dt 2 lc rgb "#aa0000"
set key outside right
set xtics rotate by -30
plot "$tmp/plot.dat" using 2:xtic(1) title "keygen", "" using 3 title "sign", "" using 4 title "verify"
GP
  echo "wrote $OUT/sphincs-ratios.svg"
fi
echo "wrote $OUT/sphincs-ratios.json"
