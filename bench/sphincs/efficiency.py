#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""The physical limit of SLH-DSA on one CPU path (issue 19, "Physical limit").

For each parameter set, the number of Keccak-f[1600] permutations (SHAKE sets) or SHA-256 /
SHA-512 compressions (SHA2 sets) that keygen and sign need at the least (FIPS 205 counted below),
times the per-lane cost of the fastest kernel the path has (bench_hash), against what grove
measures (bench_slhdsa): efficiency = ideal / measured. Two clocks: instructions (callgrind, load
independent) and process CPU time (bench_slhdsa --count, the same clock as bench/compare.sh).

Usage: bench/sphincs/efficiency.py [--path avx512|avx2|avx2-nosha|portable] [--sets "..."]
                                   [--ops "keygen sign"] [--no-time] [--no-instructions]
                                   [--rounds N] [--json FILE]
CPU time (a loaded machine): for each set and operation the kernels (bench_hash --filter) and
the operation (bench_slhdsa --count) run alternately, the order flipping every round, for N
rounds (default 5), each round from fresh copies of both programs; the efficiency is the
median of the per-round ratios ideal / measured, with their range. The kernel chosen for each hash is the cheapest in one first bench_hash run.
Environment: BENCH_SLHDSA, BENCH_HASH (default build/bin/...). The path is set with GROVE_CPU.

What is counted (n, h, d, h' = h/d, a, k of the set; w = 16, len = 2n + 3):
  WOTS+ leaf   len PRF + 15 len F + 1 T_len           (the signature's chains come free with it)
  XMSS tree    2^h' leaves + (2^h' - 1) H
  keygen       one XMSS tree (the top layer)
  sign         k 2^a (PRF + F) + k (2^a - 1) H + T_k (FORS) + d XMSS trees
Instruction counts exist for the paths valgrind can run (portable, avx2-nosha) only.
The two message hashes (PRF_msg, H_msg: a few compressions) are left out.
Blocks per call. SHAKE256: ceil((bytes + 1) / 136) permutations of PK.seed || ADRS (32) || data.
SHA2: PK.seed's padded block is hashed once per key (0 per call); then ADRSc (22) || data with
SHA-256 padding (9 bytes, 64-byte blocks) for F and PRF (and H, T_l when n = 16), SHA-512
padding (17 bytes, 128-byte blocks) for H and T_l when n > 16 (FIPS 205 section 11.2).
"""
import argparse
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# name: (n, h, d, a, k) -- FIPS 205 table 2 (the SPHINCS+ r3.1 "simple" sets are the same)
SETS = {
    "128s": (16, 63, 7, 12, 14), "128f": (16, 66, 22, 6, 33),
    "192s": (24, 63, 7, 14, 17), "192f": (24, 66, 22, 8, 33),
    "256s": (32, 64, 8, 14, 22), "256f": (32, 68, 17, 9, 35),
}


def calls(size, op):
    """Calls of each tweakable hash: {"F": .., "H": .., "PRF": .., "T_len": .., "T_k": ..}."""
    n, h, d, a, k = SETS[size]
    hp = h // d
    ln = 2 * n + 3
    leaves = 2 ** hp
    tree = {"PRF": leaves * ln, "F": leaves * ln * 15, "T_len": leaves, "H": leaves - 1, "T_k": 0}
    if op == "keygen":
        return tree
    c = {key: d * v for key, v in tree.items()}
    c["PRF"] += k * 2 ** a
    c["F"] += k * 2 ** a
    c["H"] += k * (2 ** a - 1)
    c["T_k"] += 1
    return c


def blocks(family, size):
    """Per call: (kernel, blocks) for each tweakable hash."""
    n, _, _, _, k = SETS[size]
    ln = 2 * n + 3
    data = {"F": n, "PRF": n, "H": 2 * n, "T_len": ln * n, "T_k": k * n}
    out = {}
    for f, m in data.items():
        if family == "shake":
            out[f] = ("keccak", math.ceil((n + 32 + m + 1) / 136))
        elif f in ("F", "PRF") or n == 16:
            out[f] = ("sha256", math.ceil((22 + m + 9) / 64))
        else:
            out[f] = ("sha512", math.ceil((22 + m + 17) / 128))
    return out


def ideal_units(family, size, op):
    """{kernel: number of single-lane permutations / compressions}."""
    units = {}
    per = blocks(family, size)
    for f, cnt in calls(size, op).items():
        kern, b = per[f]
        units[kern] = units.get(kern, 0) + cnt * b
    return units


# bench_hash cases per kernel: (set name, lanes, paths that may use it)
KERNELS = {
    "keccak": [("keccak-f1600", 1, "*"), ("keccak-f1600 x4 (avx2)", 4, "avx2 avx2-nosha avx512"),
               ("keccak-f1600 x8 (avx512)", 8, "avx512")],
    "sha256": [("sha256", 1, "*"), ("sha256 x8 (avx2)", 8, "avx2 avx2-nosha avx512"),
               ("sha256 x16 (avx512)", 16, "avx512"), ("sha256 (sha-ni)", 1, "avx2 avx512")],
    "sha512": [("sha512", 1, "*"), ("sha512 x4 (avx2)", 4, "avx2 avx2-nosha avx512"),
               ("sha512 x8 (avx512)", 8, "avx512")],
}


def run_json(cmd, env):
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def kernel_costs(path, env, bench_hash, instructions):
    """Cheapest per-lane cost (ns, or instructions) of each kernel the path may use."""
    cmd = [bench_hash, "--min-time", "0.3"]
    if instructions:
        cmd = [bench_hash, "--instructions", "--no-time"]
    res = run_json(cmd, env)["results"]
    got = {(r["set"], r["op"]): r for r in res}
    best = {}
    for kern, cands in KERNELS.items():
        for name, lanes, paths in cands:
            op = "permute" if kern == "keccak" else "compress"
            r = got.get((name, op))
            if r is None or (paths != "*" and path not in paths.split()):
                continue
            if instructions and r.get("instructions", -1) < 0:
                continue  # valgrind cannot run it (AVX-512, SHA-NI)
            v = (r["instructions"] if instructions else r["median_ns"]) / lanes
            if kern not in best or v < best[kern][0]:
                best[kern] = (v, name, lanes)
    return best


def measured_instructions(bench_slhdsa, env, set_name, op):
    res = run_json([bench_slhdsa, "--instructions", "--no-time", "--filter",
                    f"{set_name} {op}"], env)["results"]
    return float(res[0]["instructions"])


def measured_ns(bench_slhdsa, env, set_name, op):
    """One `bench_slhdsa --count` run: CPU time per operation (ns)."""
    reps = {"keygen": 30, "sign": 3, "verify": 50}[op]  # runs of several ms at least
    if "s-simple" in set_name and op != "verify":
        reps = 1
    out = subprocess.run([bench_slhdsa, "--count", str(reps), set_name, op], env=env,
                         check=True, capture_output=True, text=True).stdout
    return float(out.split()[1])


def kernel_ns(bench_hash, env, kernel_name, lanes):
    """One short bench_hash run of one kernel: CPU time per lane (ns)."""
    op = "permute" if kernel_name.startswith("keccak") else "compress"
    res = run_json([bench_hash, "--min-time", "0.1", "--filter", f"{kernel_name} {op}"],
                   env)["results"]
    return [r for r in res if r["set"] == kernel_name][0]["median_ns"] / lanes


def efficiency_time(bench_slhdsa, bench_hash, env, set_name, op, units, kernels, rounds):
    """CPU time under load: the kernels and the operation measured alternately (the order flips
    every round); per round ideal / measured; the result is the median of the rounds' ratios.
    Returns (ideal, measured, efficiency, lowest, highest): ideal and measured are medians."""
    ideals, meas, ratios = [], [], []
    for r in range(rounds):
        # fresh copies of both programs every round: a file can run 1.5x slower than a
        # byte-identical copy of itself (docs/benchmarks.md, "A measurement trap")
        with tempfile.TemporaryDirectory() as d:
            hb, sb = os.path.join(d, "bench_hash"), os.path.join(d, "bench_slhdsa")
            shutil.copy2(bench_hash, hb)
            shutil.copy2(bench_slhdsa, sb)

            def kern():
                return sum(cnt * kernel_ns(hb, env, kernels[k][1], kernels[k][2])
                           for k, cnt in units.items())
            if r % 2 == 0:
                i = kern()
                m = measured_ns(sb, env, set_name, op)
            else:
                m = measured_ns(sb, env, set_name, op)
                i = kern()
        ideals.append(i)
        meas.append(m)
        ratios.append(i / m)
    return (statistics.median(ideals), statistics.median(meas), statistics.median(ratios),
            min(ratios), max(ratios))


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--path", default="avx512")
    ap.add_argument("--sets", default="shake-128f sha2-128f shake-128s sha2-128s shake-192f "
                    "sha2-192f shake-256f sha2-256f")
    ap.add_argument("--ops", default="keygen sign")
    ap.add_argument("--no-time", action="store_true")
    ap.add_argument("--no-instructions", action="store_true")
    ap.add_argument("--rounds", type=int, default=5,
                    help="CPU time: alternated rounds of kernel and operation (median of ratios)")
    ap.add_argument("--json")
    ap.add_argument("--self-test", action="store_true", help="check the counts on known values")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    bench_slhdsa = os.environ.get("BENCH_SLHDSA", "build/bin/bench_slhdsa")
    bench_hash = os.environ.get("BENCH_HASH", "build/bin/bench_hash")
    env = dict(os.environ, GROVE_CPU=args.path)
    clocks = []
    if args.path in ("avx512", "avx2") and not args.no_instructions:
        print(f"# path {args.path}: no instruction counts (valgrind runs neither AVX-512 nor "
              "SHA-NI, so grove would take another path under it)")
        args.no_instructions = True
    if not args.no_instructions:
        clocks.append(("instructions", True))
    if not args.no_time:
        clocks.append(("cpu_ns", False))
    costs = {c: kernel_costs(args.path, env, bench_hash, ins) for c, ins in clocks}
    rows = []
    if args.rounds < 1:
        print("efficiency.py: --rounds must be at least 1", file=sys.stderr)
        return 2
    load0 = os.getloadavg()
    print(f"# SLH-DSA efficiency, path {args.path}, CPU {cpu_model()}, load "
          f"{load0[0]:.2f}")
    for c, _ in clocks:
        print(f"# per-lane {c}: " + ", ".join(f"{k} {v[0]:.1f} ({v[1]})"
                                             for k, v in sorted(costs[c].items())))
    print("| set | op | permutations / compressions | " +
          " | ".join(f"ideal {c} | measured {c} | efficiency ({c})" for c, _ in clocks) + " |")
    for s in args.sets.split():
        family, size = s.split("-")
        set_name = f"sphincs-{s}-simple"
        for op in args.ops.split():
            units = ideal_units(family, size, op)
            row = {"set": s, "op": op, "units": units}
            cells = []
            for c, ins in clocks:
                if ins:
                    ideal = sum(cnt * costs[c][kern][0] for kern, cnt in units.items())
                    meas = measured_instructions(bench_slhdsa, env, set_name, op)
                    row[c] = {"ideal": ideal, "measured": meas, "efficiency": ideal / meas}
                    cells.append(f"{ideal:.4g} | {meas:.4g} | {100 * ideal / meas:.0f} %")
                    continue
                ideal, meas, eff, lo, hi = efficiency_time(bench_slhdsa, bench_hash, env,
                                                           set_name, op, units, costs[c],
                                                           args.rounds)
                row[c] = {"ideal": ideal, "measured": meas, "efficiency": eff,
                          "efficiency_min": lo, "efficiency_max": hi, "rounds": args.rounds}
                cells.append(f"{ideal:.4g} | {meas:.4g} | {100 * eff:.0f} % "
                             f"({100 * lo:.0f}-{100 * hi:.0f})")
            rows.append(row)
            ustr = ", ".join(f"{v} {k}" for k, v in sorted(units.items()))
            print(f"| {s} | {op} | {ustr} | " + " | ".join(cells) + " |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"benchmark": "slhdsa-efficiency", "path": args.path, "cpu": cpu_model(),
                       "load": os.getloadavg()[0], "load_before": load0[0],
                       "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                       "rounds": args.rounds,
                       "kernel_costs": {c: {k: {"per_lane": v[0], "kernel": v[1]}
                                            for k, v in costs[c].items()} for c, _ in clocks},
                       "rows": rows}, f, indent=1)
    return 0


def self_test():
    # shake-128f sign: d = 22 trees of 8 leaves, each leaf 35 PRF + 525 F + T_len (5 perms);
    # FORS 33 * 64 leaves. Counted by hand from FIPS 205.
    u = ideal_units("shake", "128f", "sign")
    fors = 33 * 64 * 2 + 33 * 63 + 1  # PRF + F, H, T_k (1 + 32 + 33*16 = 561 bytes: 5 perms)
    fors += 4
    ht = 22 * (8 * (35 + 525 + 5) + 7)
    assert u == {"keccak": fors + ht}, u
    # sha2-128f T_len: 22 + 35 * 16 = 582 bytes + 9 -> 10 blocks; H: 22 + 32 + 9 = 63 -> 1
    assert blocks("sha2", "128f")["T_len"] == ("sha256", 10)
    assert blocks("sha2", "128f")["H"] == ("sha256", 1)
    # sha2-256f: H is SHA-512 (22 + 64 + 17 = 103 -> 1); T_len 22 + 67 * 32 + 17 = 2183 -> 18
    assert blocks("sha2", "256f")["H"] == ("sha512", 1)
    assert blocks("sha2", "256f")["T_len"] == ("sha512", 18)
    assert blocks("sha2", "256f")["F"] == ("sha256", 1)
    k = ideal_units("shake", "128s", "keygen")
    assert k == {"keccak": 512 * (35 + 525 + 5) + 511}, k
    print("efficiency.py self-test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
