#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Build the CROSS module for a Cortex-M4 (Debian's gcc-arm-none-eabi + newlib), run it under
# QEMU's mps2-an386 board, check the KAT outputs and compare peak stacks with budgets.txt.
#   run.sh <source dir> <work dir> <cross_m4_gen> <vectors dir>
# Exit 77 (skip) when the toolchain or QEMU is missing, unless GROVE_REQUIRE_M4=1 or CI is set.
set -u
src=$1; work=$2; gen=$3; vec=$4
here="$src/tests/cross/m4"
missing=""
for tool in arm-none-eabi-gcc qemu-system-arm python3; do
  command -v $tool >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
  echo "missing:$missing (Debian: gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm)"
  if [ "${GROVE_REQUIRE_M4:-}" = 1 ] || [ -n "${CI:-}" ]; then exit 1; fi
  exit 77
fi
if [ ! -d "$vec/cross" ]; then
  echo "no vectors at $vec/cross"
  if [ "${GROVE_REQUIRE_VECTORS:-}" = 1 ]; then exit 1; fi
  exit 77
fi
mkdir -p "$work"
"$gen" "$vec/cross" "$work/kat_m4.h" || { echo "FAIL: KAT header generation"; exit 1; }
CFLAGS=(-mcpu=cortex-m4 -mthumb -mfloat-abi=soft -O2 -std=c11 -ffunction-sections -fdata-sections
        -Wall -Wextra -Werror -Wno-unused-parameter -D_DEFAULT_SOURCE
        -I "$src/include" -I "$src/src" -I "$work" -I "$here")
arm-none-eabi-gcc "${CFLAGS[@]}" \
  "$src"/src/cross/*.c "$src/src/hash/keccak.c" "$src/src/common/mem.c" \
  "$here/startup.c" "$here/shim.c" "$here/m4_main.c" \
  -T "$here/mps2_an386.ld" -nostartfiles --specs=rdimon.specs -Wl,--gc-sections \
  -o "$work/cross_m4.elf" || { echo "FAIL: M4 build"; exit 1; }
arm-none-eabi-size "$work/cross_m4.elf" || true
timeout 1200 qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none \
  -semihosting-config enable=on,target=native -kernel "$work/cross_m4.elf" > "$work/m4.out" 2>&1
rc=$?
cat "$work/m4.out"
[ $rc -eq 0 ] || { echo "FAIL: the M4 image exited with $rc"; exit 1; }
python3 - "$work/m4.out" "$here/budgets.txt" "$work/m4_stack.json" <<'PY'
import json, sys
out, budget_file, json_out = sys.argv[1:4]
res = {}
for line in open(out):
    f = line.split()
    if len(f) == 11 and f[0] == "RESULT":
        res[(f[1], f[2])] = {"keygen": int(f[4]), "sign": int(f[6]), "verify": int(f[8]), "kat": f[10]}
budgets, targets = {}, {}
for line in open(budget_file):
    f = line.split()
    if not f or f[0].startswith("#"):
        continue
    # budget <set> <strategy> <op> <bytes>   |   target <set> <op> <bytes> (paper, small-memory)
    if f[0] == "budget":
        budgets[(f[1], f[2], f[3])] = int(f[4])
    elif f[0] == "target":
        targets[(f[1], f[2])] = int(f[3])
fails = []
if len(res) != 36:
    fails.append("expected 36 results (18 sets x 2 strategies), got %d" % len(res))
for (s, st), r in res.items():
    if r["kat"] != "ok":
        fails.append("%s %s: KAT mismatch or verify failure" % (s, st))
    for op in ("keygen", "sign", "verify"):
        b = budgets.get((s, st, op))
        if b is None:
            fails.append("%s %s %s: no budget recorded" % (s, st, op))
        elif r[op] > b:
            fails.append("%s %s %s: %d bytes > budget %d" % (s, st, op, r[op], b))
        if st == "small-memory":
            t = targets.get((s, op))
            if t is not None and r[op] > t:
                fails.append("%s %s: %d bytes > paper figure %d" % (s, op, r[op], t))
            if op == "keygen" and r[op] >= 2048:
                fails.append("%s keygen: %d bytes >= 2 KB" % (s, r[op]))
            if r[op] >= 128 * 1024:
                fails.append("%s %s: %d bytes >= 128 KB" % (s, op, r[op]))
small = [s for (s, st), r in res.items() if st == "small-memory"
         and max(r["keygen"], r["sign"], r["verify"]) < 32 * 1024]
if len(small) <= 6:
    fails.append("only %d sets under 32 KB in every operation" % len(small))
json.dump({"board": "qemu mps2-an386 (Cortex-M4)", "unit": "bytes",
           "results": [dict(set=s, strategy=st, **r) for (s, st), r in sorted(res.items())],
           "sets_under_32KB_small_memory": len(small)}, open(json_out, "w"), indent=1)
print("%d of 18 sets under 32 KB in every operation (small-memory)" % len(small))
for f in fails:
    print("FAIL:", f)
n = len(res) * 3
print("%d passed, %d failed" % (n - min(n, len(fails)), len(fails)))
sys.exit(1 if fails else 0)
PY
