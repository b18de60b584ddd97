#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove bench: every scheme runs (tiny --time) and gives one JSON object with the header (CPU
# model, threads, hash path) and ops/s per entry; schemes and options in any order give the
# same cases; unknown schemes and bad options exit 2; the progress line appears on a terminal
# only.
set -u
G="${GROVE:?}"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# fields(file, scheme, min_entries, threads): the JSON parses (python3 -m json.tool), has the
# header and at least min_entries entries, all of the scheme, each with ops/s (hash: MB/s too).
fields() {
  python3 -m json.tool "$1" >/dev/null || return 1
  python3 - "$1" "$2" "$3" "$4" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
scheme, least, threads = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
assert d["ok"] is True and d["exit_code"] == 0, d
for k in ("grove_version", "cpu_model", "cpus_online", "cpu_path", "threads", "threads_used"):
    assert k in d, k
assert d["cpu_model"], "cpu_model is empty"
assert d["threads"] == threads, d["threads"]
assert d["threads_used"] == (d["cpus_online"] if threads == 0 else threads)
r = d["results"]
assert len(r) >= least, f"{len(r)} entries"
for e in r:
    assert e["scheme"] == scheme, e
    assert e["ops_per_sec"] > 0 and e["iterations"] >= 3 and e["median_ms"] > 0, e
    if scheme == "hash":
        assert e["mb_per_sec"] > 0 and e["bytes"] == 16384 and e["cpu_path"] == d["cpu_path"], e
PY
}

# scheme, --params (empty: the scheme's default sets), least number of entries
while read -r scheme params least; do
  [ "$params" = "-" ] && params=""
  args=(bench "$scheme" --time 1 --threads 1 --json)
  [ -n "$params" ] && args+=(--params "$params")
  "$G" "${args[@]}" > "$T/$scheme.json" 2> "$T/$scheme.err"; rc=$?
  want=$scheme; [ "$scheme" = bls ] && want=bls12_381
  # STM and DGSP are optional components: a build without them says so (exit 2)
  if { [ "$scheme" = stm ] || [ "$scheme" = dgsp ]; } && ! "$G" "$scheme" --help >/dev/null 2>&1; then
    check '[ $rc -eq 2 ] && grep -q "this build has no" "$T/$scheme.json"' "grove bench $scheme in a build without it: exit 2, saying so"
    rm -f "$T/$scheme.json"
    continue
  fi
  check '[ $rc -eq 0 ] && fields "$T/$scheme.json" "$want" "$least" 1' "grove bench $scheme --json ($(head -c 300 "$T/$scheme.err"))"
  check '! grep -q "ETA" "$T/$scheme.err"' "grove bench $scheme: no progress line when stderr is no terminal"
done <<'EOF'
slhdsa 128f 6
sphincs shake-128f 3
cross RSDP-1-fast 3
xmss - 6
stm - 4
bls12_381 - 11
bls min-pk 2
dgsp sha2-128f 11
hash - 8
EOF
# the operations each scheme must show
check 'python3 -c "
import json; ops = {(e[\"set\"], e[\"op\"]) for e in json.load(open(\"$T/xmss.json\"))[\"results\"]}
assert {(\"XMSS-SHA2_10_256\", o) for o in (\"keygen\", \"sign\", \"verify\")} <= ops, ops
assert any(s.startswith(\"XMSSMT\") for s, _ in ops), ops"' "xmss: XMSS-SHA2_10_256 and an XMSS^MT set, keygen/sign/verify"
[ -f "$T/stm.json" ] && check 'python3 -c "
import json; ops = {e[\"op\"] for e in json.load(open(\"$T/stm.json\"))[\"results\"]}
assert ops == {\"register\", \"sign\", \"aggregate\", \"verify\"}, ops"' "stm: registration, signing, aggregation, verification"
check 'python3 -c "
import json; ops = {(e[\"set\"], e[\"op\"]) for e in json.load(open(\"$T/bls12_381.json\"))[\"results\"]}
for want in [(\"min-sig\", \"sign\"), (\"min-sig\", \"verify\"), (\"min-pk\", \"sign\"), (\"min-pk\", \"verify\"), (\"pairing\", \"pairing\"), (\"g1\", \"hash_to_g1\"), (\"g2\", \"hash_to_g2\"), (\"g1\", \"scalar_mul\"), (\"g2\", \"scalar_mul\"), (\"g1\", \"msm_256\")]:
    assert want in ops, want"' "bls12_381: both variants, pairing, hash to G1/G2, scalar mult, MSM"
check 'python3 -c "
import json; sets = {e[\"set\"] for e in json.load(open(\"$T/hash.json\"))[\"results\"]}
assert {\"sha256\", \"sha512\", \"sha3-256\", \"shake128\", \"shake256\"} <= sets, sets"' "hash: every kernel family"

# schemes and options in any order, a scheme twice, `bls` for bls12_381: the same cases
cases() { python3 -c 'import json,sys; print(sorted((e["scheme"], e["set"], e["op"]) for e in json.load(open(sys.argv[1]))["results"]))' "$1"; }
"$G" bench hash bls --params g1 --time 1 --json > "$T/o1.json"; r1=$?
"$G" bench --json --time=1 bls12_381 --params=g1 hash bls > "$T/o2.json"; r2=$?
check '[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ "$(cases "$T/o1.json")" = "$(cases "$T/o2.json")" ] && [ -n "$(cases "$T/o1.json")" ]' "arguments in any order give the same cases"
check 'python3 -c "
import json; d = json.load(open(\"$T/o1.json\")); assert d[\"threads\"] == 0 and d[\"threads_used\"] == d[\"cpus_online\"]"' "--threads defaults to 0 (one per CPU)"

# the text table: header with the CPU model and threads, ops/s column
"$G" bench --time 1 xmss --params XMSS-SHA2_10_256 --threads 2 > "$T/table.txt"; rc=$?
model=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')
check '[ $rc -eq 0 ] && grep -q "threads 2" "$T/table.txt" && grep -q "ops/s" "$T/table.txt" && grep -Eq "XMSS-SHA2_10_256 +sign" "$T/table.txt"' "table: threads, ops/s, rows"
check 'grep -qF "on ${model:-unknown} (" "$T/table.txt"' "table: the CPU model in the header"
check '! grep -q "grove bench bench" <("$G" bench --help)' "bench --help does not say 'grove bench bench'"
check '"$G" bench --help | grep -q "^usage: grove bench \[SCHEME...\]"' "bench --help usage line"

# errors: exit 2
"$G" bench nosuch --time 1 >/dev/null 2>&1; check '[ $? -eq 2 ]' "unknown scheme exits 2"
out=$("$G" bench xmss nosuch --json 2>/dev/null); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"ok\"] is False and \"nosuch\" in d[\"error\"]"' "unknown scheme among known ones: exit 2, one JSON object naming it"
"$G" bench hash --threads many >/dev/null 2>&1; check '[ $? -eq 2 ]' "--threads not a number exits 2"
"$G" bench hash --time 0 >/dev/null 2>&1; check '[ $? -eq 2 ]' "--time 0 exits 2"
"$G" bench xmss --params nothing-like-this >/dev/null 2>&1; check '[ $? -eq 2 ]' "no matching set exits 2"
"$G" bench hash --bogus >/dev/null 2>&1; check '[ $? -eq 2 ]' "unknown option exits 2"

# progress on a terminal: "bench: i/n scheme set op ... ETA m:ss", erased at the end
if command -v script >/dev/null 2>&1; then
  script -qec "$G bench hash --time 1 >/dev/null" /dev/null > "$T/tty.txt" 2>&1; rc=$?
  check '[ $rc -eq 0 ] && grep -aq "bench: 0/8 hash sha224 16KiB ... ETA ?" "$T/tty.txt" && grep -aEq "bench: 7/8 hash shake256 16KiB ... ETA [0-9]+:[0-5][0-9]" "$T/tty.txt"' "progress line with ETA on a terminal"
  check 'tail -c 20 "$T/tty.txt" | grep -aq "$(printf "\r\033\\[K")"' "progress line erased at the end"
  script -qec "$G bench hash --time 1 --json >/dev/null" /dev/null > "$T/tty2.txt" 2>&1
  check '! grep -aq "ETA" "$T/tty2.txt"' "no progress line with --json"
else
  echo "SKIP: progress on a terminal (no script(1))"
fi

[ $fail -eq 0 ] && echo "all grove bench checks passed"
exit $fail
