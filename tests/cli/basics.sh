#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The CLI skeleton: version, help, exit codes, --json giving exactly one object.
set -u
G="${GROVE:?}"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
json_ok() { python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); sys.exit(0 if isinstance(d,dict) else 1)'; }

out=$("$G" --version); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | grep -q "^grove [0-9]"' "--version"
out=$("$G" --version --json); check 'echo "$out" | json_ok' "--version --json is one object"
"$G" help >/dev/null; check '[ $? -eq 0 ]' "help exits 0"
"$G" >/dev/null 2>&1; check '[ $? -eq 2 ]' "no arguments is a usage error"
"$G" nosuch >/dev/null 2>&1; check '[ $? -eq 2 ]' "unknown scheme exits 2"
out=$("$G" nosuch --json); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | json_ok' "unknown scheme --json gives one object"
check '[ $(echo "$out" | wc -l) -eq 1 ]' "exactly one line of JSON"
"$G" hash --help >/dev/null; check '[ $? -eq 0 ]' "scheme --help"
out=$("$G" hash digest --help); check 'echo "$out" | grep -q -- "--alg"' "command --help lists options"
out=$(printf abc | "$G" hash digest --alg sha256)
check '[ "$out" = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" ]' "digest of stdin"
out=$(printf abc | "$G" hash digest --alg sha256 --json)
check 'echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"ok\"] and d[\"digest\"].startswith(\"ba78\")"' "digest --json"
"$G" hash digest --alg nope </dev/null >/dev/null 2>&1; check '[ $? -eq 2 ]' "bad algorithm exits 2"
# every algorithm (grove/hash.h through the CLI) against Python's hashlib
for a in sha224 sha256 sha384 sha512 sha3-256 sha3-512 shake128 shake256; do
  py=$(printf 'grove %s' "$a" | python3 -c "import hashlib,sys; h=hashlib.new('$a'.replace('-','_'), sys.stdin.buffer.read()); print(h.hexdigest(40) if '$a'.startswith('shake') else h.hexdigest())")
  len=""; case $a in shake*) len="--len 40";; esac
  out=$(printf 'grove %s' "$a" | "$G" hash digest --alg "$a" $len)
  check '[ "$out" = "$py" ]' "hash digest --alg $a matches hashlib"
done
out=$("$G" --version --json)
check 'echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"ok\"] and d[\"version\"] and d[\"cpu_path\"]"' "--version --json fields"
"$G" hash digest --alg sha256 --bogus </dev/null >/dev/null 2>&1; check '[ $? -eq 2 ]' "unknown option exits 2"
"$G" hash digest --alg shake256 --len 0 </dev/null >/dev/null 2>&1; check '[ $? -eq 2 ]' "out-of-range number exits 2"
"$G" hash digest --alg sha256 --msg /nonexistent/file >/dev/null 2>&1; check '[ $? -eq 2 ]' "missing file exits 2"
out=$("$G" hash digest --alg sha256 --msg /nonexistent/file --json); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"ok\"] is False and d[\"error\"]"' "IO error --json"
# grove bench: a short run per scheme, one JSON object with results
out=$("$G" bench cross --params RSDP-1-fast --time 10 --json); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"ok\"] and len(d[\"results\"]) == 3 and d[\"results\"][1][\"median_ms\"] > 0"' "grove bench cross --json"
out=$("$G" bench slhdsa --params SHA2-128f --time 10); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | grep -q "SLH-DSA-SHA2-128f *sign"' "grove bench slhdsa text table"
"$G" bench nosuch >/dev/null 2>&1; check '[ $? -eq 2 ]' "grove bench with an unknown scheme exits 2"
"$G" bench dgsp --params nothing-like-this >/dev/null 2>&1; check '[ $? -eq 2 ]' "grove bench with no matching set exits 2"

# grove demo --help prints usage and runs nothing
before=$(ls -d /tmp/grove-demo.* 2>/dev/null | wc -l)
out=$(timeout 20 "$G" demo --help); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | grep -q "^usage: grove demo" && ! echo "$out" | grep -q "Working folder"' "demo --help prints usage only (rc=$rc)"
check '[ "$(ls -d /tmp/grove-demo.* 2>/dev/null | wc -l)" = "$before" ]' "demo --help creates no demo folder"
"$G" demo --bogus >/dev/null 2>&1; check '[ $? -eq 2 ]' "demo with an unknown option exits 2"

# Temporary files of killed writers (<path>.tmp.<pid>[.<n>], pid dead, ours) are wiped and removed
# when the path is written next; a live writer's temporary file is left alone.
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
dead=$(bash -c 'echo $$')
printf 'secret' > "$d/k.tmp.$dead"; printf 'secret' > "$d/k.tmp.$dead.7"
printf 'live' > "$d/k.tmp.$$.0"; printf 'other' > "$d/kk.tmp.$dead"
ln -s "$d/target" "$d/k.tmp.$dead.8"; printf 'keep' > "$d/target"
"$G" slhdsa keygen --params shake-128f --pk "$d/k.pub" --sk "$d/k" >/dev/null
check '[ $? -eq 0 ] && [ ! -e "$d/k.tmp.$dead" ] && [ ! -e "$d/k.tmp.$dead.7" ]' "stale temporary files of a dead writer removed"
check '[ -e "$d/k.tmp.$$.0" ] && [ -e "$d/kk.tmp.$dead" ]' "a live writer's temporary file and other paths' files are kept"
check '[ "$(cat "$d/target")" = keep ]' "a symbolic link is never followed (its target is untouched)"
check '[ -z "$(ls "$d" | grep "^k.pub.tmp")" ]' "no temporary file is left after a write"
exit $fail
