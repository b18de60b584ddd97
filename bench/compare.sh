#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# bench/compare.sh - grove's SLH-DSA side by side with the SPHINCS+ reference, one clock on both.
#
# Usage: bench/compare.sh [--rounds N] [--sets "shake-128f sha2-128f ..."] [--out DIR]
#                         [--target-ms MS] [--label TEXT]
#        bench/compare.sh --instructions [--pairs "PATH:FLAVOUR ..."] [--sets ...] [--out DIR]
#        bench/compare.sh --plot [--out DIR]      (redraw the SVGs from DIR's JSON files)
#        bench/compare.sh --self-test             (checks the ratio/median code on fixed data)
#        bench/compare.sh --dgsp [--instructions] [--pairs "PATH:crate ..."] [--sets ...] [--rounds N]
#                         [--ops "join revoke ..."]  (grove's DGSP against the dgsp crate 0.1.2)
#
# It never downloads or builds anything (docs/benchmarks.md says how to build the reference).
#   BENCH_SLHDSA    grove's program (default build/bin/bench_slhdsa), run as
#                   `bench_slhdsa --count N sphincs-<set>-simple keygen|sign|verify`
#   SPHINCSPLUS_DIR folder of reference drivers <flavour>/<set>, run as `<set> keygen|sign|verify N`;
#                   flavours (bench/sphincs/build_ref.sh): ref (portable C, -O3), ref-v3 (the same
#                   -march=x86-64-v3), avx2-v3 (AVX2 code, -march=x86-64-v3), avx2-native
# Both print "cpu_ns_per_op <ns>": the process CPU time (CLOCK_PROCESS_CPUTIME_ID) of N operations
# after one warm one, divided by N.
# --dgsp: the same two modes for DGSP (docs/benchmarks.md says how the crate was built):
#   BENCH_DGSP      grove's program (default build/bin/bench_dgsp), run as
#                   `bench_dgsp --count N <set> <op>`
#   CRATE_DRIVER    folder of drivers of the dgsp crate, one per parameter set (`<set>`, the crate
#                   fixes its set at compile time), run as `<set> <op> N`, whose counted calls go
#                   through a function named measured_op
#   operations keygen join gen_cert sign verify open judge revoke verify_open (gen_cert: a batch
#   of 8, per certificate; grove's open verifies the signature first, the crate's does not:
#   verify_open is grove's open against the crate's verify + open); default sets sha2-128f
#   shake-128f sha2-192f shake-192f sha2-256f shake-256f; --instructions pairs default to
#   avx2-nosha:crate. Writes DIR/dgsp-time.json or
#   DIR/dgsp-instructions-<path>.json.
#
# Time mode (each round runs fresh copies of both programs, see docs/benchmarks.md, "A
# measurement trap"): grove's best path (GROVE_CPU unset) against avx2-native (or, with --pairs
# "PATH:FLAVOUR", GROVE_CPU=PATH against that flavour, e.g. portable:ref-v3). For each set and operation
# the two programs run alternately (the order flips every round) for N rounds (default 5) with the
# same operation count (chosen so grove's run takes about --target-ms, default 200 ms); the
# result is the median of the per-round ratios grove / reference. Writes DIR/sphincs-time.json.
# Instructions mode: valgrind callgrind counts one warm operation on each side (--toggle-collect
# on the measured function) for each pair GROVE_CPU path : reference flavour, by default
# portable:ref-v3 (the C code of both compiled for x86-64-v3: grove's portable path uses BMI),
# baseline:ref (both plain x86-64) and avx2-nosha:avx2-v3. Writes
# DIR/sphincs-instructions-<path>-<flavour>.json. Both modes draw SVGs when gnuplot is installed.
# The header and the JSON name the CPU model, the load average (before and after) and grove's path.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_SLHDSA=${BENCH_SLHDSA:-build/bin/bench_slhdsa}
ROUNDS=5
TARGET_MS=200
SETS="shake-128f sha2-128f shake-128s sha2-128s shake-256f sha2-256f"
OUT=docs/benchmarks
MODE="time"
LABEL=""
OPS="keygen sign verify"
PAIRS="portable:ref-v3 baseline:ref avx2-nosha:avx2-v3"
SCHEME=sphincs
SETS_GIVEN=""; PAIRS_GIVEN=""; OPS_GIVEN=""
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) ROUNDS=$2; shift 2 ;;
    --sets) SETS=$2; SETS_GIVEN=1; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --target-ms) TARGET_MS=$2; shift 2 ;;
    --label) LABEL=$2; shift 2 ;;
    --pairs) PAIRS=$2; PAIRS_GIVEN=1; shift 2 ;;
    --ops) OPS_GIVEN=$2; shift 2 ;;
    --instructions) MODE=instructions; shift ;;
    --plot) MODE=plot; shift ;;
    --self-test) MODE=selftest; shift ;;
    --dgsp) SCHEME=dgsp; shift ;;
    *) awk 'NR > 2 && !/^#/ { exit } NR > 2 { print }' "$0" >&2; exit 2 ;;
  esac
done
case $ROUNDS in ''|*[!0-9]*) echo "compare.sh: --rounds needs a number" >&2; exit 2 ;; esac
case $TARGET_MS in ''|*[!0-9]*) echo "compare.sh: --target-ms needs a number" >&2; exit 2 ;; esac
if [ "$SCHEME" = dgsp ]; then
  [ -n "$SETS_GIVEN" ] || SETS="sha2-128f shake-128f sha2-192f shake-192f sha2-256f shake-256f"
  [ -n "$PAIRS_GIVEN" ] || PAIRS="avx2-nosha:crate"
  OPS="keygen join gen_cert sign verify open judge revoke verify_open"
fi
[ -z "$OPS_GIVEN" ] || OPS=$OPS_GIVEN
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The analysis, shared by every mode. Input: lines "set op round grove reference" (ns or
# instructions); output: per (set, op) the medians of each side and the median of the ratios.
cat > "$tmp/analyse.py" <<'PY'
import json, statistics, sys

def analyse(lines):
    per = {}
    for line in lines:
        f = line.split()
        if len(f) != 5:
            continue
        s, op, _, g, r = f[0], f[1], f[2], float(f[3]), float(f[4])
        if g <= 0 or r <= 0:
            raise ValueError("non-positive measurement: " + line.strip())
        per.setdefault((s, op), []).append((g, r))
    rows = []
    for (s, op), v in per.items():
        rows.append({"set": s, "op": op, "rounds": len(v),
                     "grove": statistics.median(g for g, _ in v),
                     "reference": statistics.median(r for _, r in v),
                     "ratio": round(statistics.median(g / r for g, r in v), 4),
                     "ratio_min": round(min(g / r for g, r in v), 4),
                     "ratio_max": round(max(g / r for g, r in v), 4)})
    return rows

def self_test():
    data = ["a sign 1 200 100", "a sign 2 50 100", "a sign 3 300 300",  # ratios 2, 0.5, 1
            "a verify 1 10 40", "a verify 2 30 40",                      # ratios 0.25, 0.75
            "b keygen 1 900 1000", "b keygen 2 9 10", "b keygen 3 100000 1"]  # 0.9, 0.9, 1e5
    rows = {(x["set"], x["op"]): x for x in analyse(data)}
    want = {("a", "sign"): (1.0, 200, 100, 0.5, 2.0), ("a", "verify"): (0.5, 20, 40, 0.25, 0.75),
            ("b", "keygen"): (0.9, 900, 10, 0.9, 100000.0)}
    bad = 0
    for k, (ratio, g, r, lo, hi) in want.items():
        x = rows.get(k)
        got = None if x is None else (x["ratio"], x["grove"], x["reference"], x["ratio_min"], x["ratio_max"])
        if got != (ratio, g, r, lo, hi):
            print("self-test FAILED for %s: got %s, want %s" % (k, got, (ratio, g, r, lo, hi)))
            bad = 1
    # the ratio of the medians (a sign: 200/100 = 2) is not the median of the ratios (1)
    if rows[("a", "sign")]["grove"] / rows[("a", "sign")]["reference"] == rows[("a", "sign")]["ratio"]:
        print("self-test FAILED: ratio of medians used"); bad = 1
    try:
        analyse(["a sign 1 0 100"]); print("self-test FAILED: zero accepted"); bad = 1
    except ValueError:
        pass
    print("self-test " + ("FAILED" if bad else "passed"))
    return bad

if __name__ == "__main__":
    if sys.argv[1] == "self-test":
        sys.exit(self_test())
    meta = json.load(open(sys.argv[2]))
    rows = analyse(open(sys.argv[3]).read().splitlines())
    unit = meta["unit"]
    print("%-11s %-7s %14s %14s %7s %15s" % ("set", "op", "grove " + unit, "ref " + unit, "ratio", "min..max"))
    for x in rows:
        print("%-11s %-7s %14.0f %14.0f %7.3f %7.3f..%.3f" % (x["set"], x["op"], x["grove"],
              x["reference"], x["ratio"], x["ratio_min"], x["ratio_max"]))
    meta["results"] = rows
    with open(sys.argv[4], "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    with open(sys.argv[5], "w") as f:  # gnuplot data: set keygen sign verify
        for s in dict.fromkeys(x["set"] for x in rows):
            v = {x["op"]: x["ratio"] for x in rows if x["set"] == s}
            f.write("%s %s %s %s\n" % (s, v.get("keygen", "NaN"), v.get("sign", "NaN"), v.get("verify", "NaN")))
    print("%-11s %s" % ("ratio", " ".join("%8s" % op[:8] for op in dict.fromkeys(x["op"] for x in rows))))
    for s in dict.fromkeys(x["set"] for x in rows):
        v = {x["op"]: x["ratio"] for x in rows if x["set"] == s}
        print("%-11s %s" % (s, " ".join("%8.3f" % v[op] for op in dict.fromkeys(x["op"] for x in rows))))
PY

# The JSON header: meta.py <file> <unit> <grove path> <reference> <load before> <cpu> <load
# after> <cpus> <label> <rounds> <mode> <grove program> [<reference program>...]
cat > "$tmp/meta.py" <<'PY'
import json, sys, datetime, hashlib, os
f, unit, path, ref, load0, cpu, load1, ncpu, label, rounds, mode, gbin = sys.argv[1:13]
def digest(p):
    with open(p, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()
json.dump({"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           "mode": mode, "unit": unit, "cpu_model": cpu, "cpus": int(ncpu),
           "load_before": load0, "load_after": load1, "grove_cpu_path": path,
           "reference": ref, "rounds": int(rounds) if mode == "time" else 1,
           "label": label, "grove_program": {os.path.abspath(gbin): digest(gbin)},
           "reference_programs": {os.path.abspath(p): digest(p)
                                  for p in dict.fromkeys(sys.argv[13:])}}, open(f, "w"))
PY

if [ "$MODE" = selftest ]; then
  python3 "$tmp/analyse.py" self-test || exit 1
  # the JSON names the programs it measured: this script, once (given twice), by its SHA-256
  self=bench/compare.sh  # (the working folder is the repository's top, see the cd above)
  python3 "$tmp/meta.py" "$tmp/m.json" ns p r 0 cpu 0 1 "" 1 time "$self" "$self" "$self"
  want=$(sha256sum "$self" | cut -d' ' -f1)
  python3 - "$tmp/m.json" "$PWD/$self" "$want" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
ok = (d["grove_program"] == {sys.argv[2]: sys.argv[3]}
      and d["reference_programs"] == {sys.argv[2]: sys.argv[3]})
print("self-test (program digests) " + ("passed" if ok else "FAILED: %s" % d))
sys.exit(0 if ok else 1)
PY
  exit 0
fi

plot() { # plot <data> <svg> <title> <goal> [<second goal>]; columns: set, then $PLOT_OPS
  command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not installed: $2 not drawn"; return 0; }
  [ -s "$1" ] || return 0
  local sub goal2="" series="" col=2 op
  sub=$(sed -n 's/^# //p' "$1")
  [ -z "${5:-}" ] ||
    goal2="set arrow 2 from graph 0, first $5 to graph 1, first $5 nohead dt 3 lc rgb '#aa0000'"
  for op in $PLOT_OPS; do
    if [ $col -eq 2 ]; then series="\"$1\" using 2:xtic(1) title \"$op\""
    else series="$series, \"\" using $col title \"$op\""; fi
    col=$((col + 1))
  done
  gnuplot <<GP
set terminal svg size 900,460 font "sans,11" noenhanced
set output "$2"
set title "$3\n$sub"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:*]
set grid ytics
set arrow 1 from graph 0, first $4 to graph 1, first $4 nohead dt 2 lc rgb '#aa0000'
$goal2
set arrow 3 from graph 0, first 1 to graph 1, first 1 nohead lc rgb '#555555'
set key outside right
plot $series
GP
  echo "wrote $2"
}

json_to_dat() { # the gnuplot data of one result file: set, then the ratio of each of $PLOT_OPS
  python3 - "$1" "$PLOT_OPS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ops = sys.argv[2].split()
rows = d["results"]
print("# %s, %s, load %s .. %s, grove path %s" % (d["cpu_model"], d["date"], d["load_before"],
                                                d["load_after"], d["grove_cpu_path"]))
for s in dict.fromkeys(x["set"] for x in rows):
    v = {x["op"]: x["ratio"] for x in rows if x["set"] == s}
    print(s, " ".join(str(v.get(op, "NaN")) for op in ops))
PY
}

json_cpu() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cpu_model"])' "$1"; }
dgsp_ops() { # the DGSP operations a result file holds, in plot order (open left out, see below)
  python3 - "$1" <<'PY'
import json, sys
have = {r["op"] for r in json.load(open(sys.argv[1]))["results"]}
print(" ".join(o for o in "keygen join gen_cert sign verify judge revoke verify_open".split()
               if o in have))
PY
}

plot_all() {
  local f
  PLOT_OPS="keygen sign verify"
  # sphincs-time.json: the latest run; sphincs-time-<cpu>.json: runs kept from other machine kinds
  for f in "$OUT"/sphincs-time.json "$OUT"/sphincs-time-*.json; do
    [ -f "$f" ] || continue
    local cpu
    cpu=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cpu_model"])' "$f")
    json_to_dat "$f" > "$tmp/t.dat"
    plot "$tmp/t.dat" "${f%.json}.svg" \
      "grove best path / SPHINCS+ avx2 -march=native, CPU time, $cpu (goals 0.60 SHAKE, 0.40 SHA2)" 0.6 0.4
  done
  for f in "$OUT"/sphincs-instructions-*.json; do
    [ -f "$f" ] || continue
    json_to_dat "$f" > "$tmp/i.dat"
    local ref title
    ref=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["reference"])' "$f")
    case $f in
      *avx2*) title="grove GROVE_CPU=avx2-nosha / $ref, instructions (goals 0.85 keygen, sign; 0.90 verify)"
              plot "$tmp/i.dat" "${f%.json}.svg" "$title" 0.85 0.9 ;;
      *) title="grove GROVE_CPU=${f#*sphincs-instructions-}"; title="${title%%-ref*} / $ref, instructions (goal 0.80)"
         plot "$tmp/i.dat" "${f%.json}.svg" "$title" 0.8 ;;
    esac
  done
  # open is left out of the plots: grove's verifies first, the crate's does not (verify_open)
  PLOT_OPS="keygen join gen_cert sign verify judge revoke verify_open"
  # dgsp-time.json: the latest run; dgsp-time-<cpu>.json: runs kept from other machine kinds
  for f in "$OUT"/dgsp-time.json "$OUT"/dgsp-time-*.json; do
    [ -f "$f" ] || continue
    PLOT_OPS=$(dgsp_ops "$f")
    json_to_dat "$f" > "$tmp/t.dat"
    plot "$tmp/t.dat" "${f%.json}.svg" \
      "grove DGSP best path / dgsp crate 0.1.2, CPU time, $(json_cpu "$f") (goal 0.5; open: see verify_open)" 0.5
  done
  for f in "$OUT"/dgsp-instructions-*.json; do
    [ -f "$f" ] || continue
    PLOT_OPS=$(dgsp_ops "$f")
    json_to_dat "$f" > "$tmp/i.dat"
    local gpath=${f#*dgsp-instructions-}
    plot "$tmp/i.dat" "${f%.json}.svg" \
      "grove DGSP GROVE_CPU=${gpath%.json} / dgsp crate 0.1.2, instructions (goals: gen_cert 0.85, join 1)" 0.85
  done
}

if [ "$MODE" = plot ]; then
  plot_all
  exit 0
fi

if [ "$SCHEME" = dgsp ]; then
  BENCH_DGSP=${BENCH_DGSP:-build/bin/bench_dgsp}
  [ -x "$BENCH_DGSP" ] || { echo "compare.sh: $BENCH_DGSP not found (build bench_dgsp first)" >&2; exit 2; }
  if [ -z "${CRATE_DRIVER:-}" ]; then
    echo "compare.sh: CRATE_DRIVER is not set: no dgsp crate driver to compare with" >&2
    exit 2
  fi
  GROVE_BIN=$BENCH_DGSP
else
  [ -x "$BENCH_SLHDSA" ] || { echo "compare.sh: $BENCH_SLHDSA not found (build bench_slhdsa first)" >&2; exit 2; }
  if [ -z "${SPHINCSPLUS_DIR:-}" ]; then
    echo "compare.sh: SPHINCSPLUS_DIR is not set: no SPHINCS+ reference to compare with" >&2
    exit 2
  fi
  GROVE_BIN=$BENCH_SLHDSA
fi
mkdir -p "$OUT"

cpu_field() { grep -m1 "^$1" /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'; }
cpu_model="$(cpu_field 'model name') (family $(cpu_field 'cpu family'), model $(cpu_field 'model\s'))"
load() { cut -d' ' -f1-3 /proc/loadavg; }
grove_path() { # the hash path grove takes under GROVE_CPU=$1
  GROVE_CPU=$1 "$GROVE_BIN" --no-time --filter none | sed -n 's/.*"cpu_path": "\([^"]*\)".*/\1/p'
}
cpu_ns() { # cpu_ns <command...>: the "cpu_ns_per_op" figure the command prints
  "$@" | sed -n 's/^cpu_ns_per_op //p'
}
# The two sides' commands: grove_argv <set> <op> <N> sets GARGV; grove_run <set> <op> <N> runs it;
# ref_prog <flavour> <set> names the reference program, run as <prog> <op> <N>
grove_argv() {
  if [ "$SCHEME" = dgsp ]; then GARGV=("$BENCH_DGSP" --count "$3" "$1" "$2")
  else GARGV=("$BENCH_SLHDSA" --count "$3" "sphincs-$1-simple" "$2"); fi
}
grove_run() { grove_argv "$@"; "${GARGV[@]}"; }
ref_prog() {
  if [ "$SCHEME" = dgsp ]; then echo "$CRATE_DRIVER/$2"; else echo "$SPHINCSPLUS_DIR/$1/$2"; fi
}

# The programs measured, named in the JSON by path and SHA-256 (so that a result can be traced
# to the binaries that made it): REF_USED holds the reference programs of the current report.
REF_USED=()
meta() { # meta <file> <unit> <grove path> <reference> <load before>
  python3 "$tmp/meta.py" "$@" "$cpu_model" "$(load)" "$(nproc)" "$LABEL" "$ROUNDS" "$MODE" \
    "$GROVE_BIN" "${REF_USED[@]}"
}

report() { # report <name> <unit> <grove path> <reference> <load before> <data>
  meta "$tmp/meta.json" "$2" "$3" "$4" "$5"
  echo "cpu: $cpu_model ($(nproc) CPUs); load before: $5, after: $(load)"
  echo "grove path: $3; reference: $4"
  python3 "$tmp/analyse.py" report "$tmp/meta.json" "$6" "$OUT/$1.json" "$tmp/$1.dat"
  echo "wrote $OUT/$1.json"
}
if [ "$SCHEME" = dgsp ]; then
  REF_NAME="dgsp crate 0.1.2"
else
  REF_NAME="sphincsplus"
fi

if [ "$MODE" = time ]; then
  # --pairs "PATH:FLAVOUR" in time mode (SPHINCS+ only): grove under GROVE_CPU=PATH against that
  # reference flavour (e.g. portable:ref-v3), written to sphincs-cputime-PATH-FLAVOUR.json (not plotted)
  tcpu=""; tflav=avx2-native; tname=sphincs-time
  if [ "$SCHEME" != dgsp ] && [ -n "$PAIRS_GIVEN" ]; then
    # shellcheck disable=SC2086 # PAIRS is a list of words
    set -- $PAIRS
    tcpu=${1%%:*}; tflav=${1#*:}; tname="sphincs-cputime-$tcpu-$tflav"
    export GROVE_CPU=$tcpu
  fi
  path=$(grove_path "$tcpu")
  load0=$(load)
  : > "$tmp/time.txt"
  for set in $SETS; do
    ref=$(ref_prog "$tflav" "$set")
    [ -x "$ref" ] || { echo "skip $set: $ref not found"; continue; }
    REF_USED+=("$ref")
    for op in $OPS; do
      one=$(cpu_ns grove_run "$set" "$op" 1)
      n=$(( TARGET_MS * 1000000 / (one > 0 ? one : 1) ))
      [ "$SCHEME" != dgsp ] || [ "$op" != gen_cert ] || n=$(( (n + 7) / 8 )) # batches of 8
      [ "$n" -ge 1 ] || n=1
      for r in $(seq 1 "$ROUNDS"); do
        # each round runs fresh copies of both programs: a file can run 1.5x slower than a
        # byte-identical copy of itself (docs/benchmarks.md, "A measurement trap")
        rm -f "$tmp/g.run" "$tmp/x.run"
        cp "$GROVE_BIN" "$tmp/g.run"; cp "$ref" "$tmp/x.run"
        if [ $((r % 2)) -eq 1 ]; then
          g=$(BENCH_SLHDSA=$tmp/g.run BENCH_DGSP=$tmp/g.run cpu_ns grove_run "$set" "$op" "$n")
          x=$(cpu_ns "$tmp/x.run" "$op" "$n")
        else
          x=$(cpu_ns "$tmp/x.run" "$op" "$n")
          g=$(BENCH_SLHDSA=$tmp/g.run BENCH_DGSP=$tmp/g.run cpu_ns grove_run "$set" "$op" "$n")
        fi
        echo "$set $op $r $g $x" >> "$tmp/time.txt"
      done
    done
  done
  if [ "$SCHEME" = dgsp ]; then
    report dgsp-time ns "$path" "$REF_NAME (RAYON_NUM_THREADS=1)" "$load0" "$tmp/time.txt"
  else
    if [ -n "$tcpu" ]; then
      report "$tname" ns "$path (GROVE_CPU=$tcpu)" "$REF_NAME $tflav" "$load0" "$tmp/time.txt"
    else
      report sphincs-time ns "$path" "$REF_NAME avx2 -O3 -march=native" "$load0" "$tmp/time.txt"
    fi
  fi
  plot_all
  exit 0
fi

# Instructions: one warm operation, counted by callgrind on the measured function only.
command -v valgrind >/dev/null 2>&1 || { echo "compare.sh: valgrind not installed" >&2; exit 2; }
callgrind_ir() { # callgrind_ir <function> <command...>: instructions of <function>'s calls
  local fn=$1; shift
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect="$fn" \
    --callgrind-out-file="$tmp/cg.out" "$@" > /dev/null 2> "$tmp/cg.err" ||
    { cat "$tmp/cg.err" >&2; return 1; }
  sed -n 's/^totals: \([0-9]*\).*/\1/p' "$tmp/cg.out"
}
for pair in $PAIRS; do
  gcpu=${pair%%:*} flavour=${pair#*:}
  path=$(grove_path "$gcpu")
  load0=$(load)
  : > "$tmp/ir.txt"
  REF_USED=()
  for set in $SETS; do
    ref=$(ref_prog "$flavour" "$set")
    [ -x "$ref" ] || { echo "skip $set: $ref not found"; continue; }
    REF_USED+=("$ref")
    for op in $OPS; do
      # DGSP: join and revoke are counted over 1000 calls (the stores' growth amortized as in
      # the time mode), gen_cert over one batch of 8; the figure is per call / per certificate
      k=1
      [ "$SCHEME" != dgsp ] || case $op in join|revoke) k=1000 ;; gen_cert) k=8 ;; esac
      grove_argv "$set" "$op" $(( k == 8 ? 1 : k ))
      g=$(GROVE_CPU=$gcpu callgrind_ir bench_measured_op "${GARGV[@]}")
      x=$(callgrind_ir measured_op "$ref" "$op" $(( k == 8 ? 1 : k )))
      g=$((g / k)) x=$((x / k))
      echo "$set $op 1 $g $x" >> "$tmp/ir.txt"
    done
  done
  if [ "$SCHEME" = dgsp ]; then
    report "dgsp-instructions-$gcpu" instr "$path (GROVE_CPU=$gcpu)" "$REF_NAME" "$load0" "$tmp/ir.txt"
    continue
  fi
  case $flavour in
    ref) desc="ref -O3" ;;
    ref-v3) desc="ref -O3 -march=x86-64-v3" ;;
    avx2-v3) desc="avx2 -O3 -march=x86-64-v3" ;;
    *) desc=$flavour ;;
  esac
  report "sphincs-instructions-$gcpu-$flavour" instr "$path (GROVE_CPU=$gcpu)" "$REF_NAME $desc" "$load0" "$tmp/ir.txt"
done
plot_all
