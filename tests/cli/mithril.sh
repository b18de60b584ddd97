#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove mithril verify-chain: the real devnet chain (../shared/vectors/mithril-chain) as a map,
# an array and one certificate; exit 0 / 1 / 2 and the --json object: a changed certificate is
# named with its rule (exit 1), a wrong genesis key fails the genesis certificate (exit 1), a
# field that does not decode is exit 1, a file that is not certificate JSON, a bad key, a
# missing option or file exit 2.
set -u
G="$(cd "$(dirname "${GROVE:?}")" && pwd)/$(basename "$GROVE")"
VEC="${GROVE_VECTORS_DIR:-}/mithril-chain"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d$1)"; }
if [ ! -f "$VEC/certificates.json" ]; then
  if [ "${GROVE_REQUIRE_VECTORS:-}" = 1 ]; then echo "FAIL: no vectors at $VEC"; exit 1; fi
  echo "SKIP: no vectors at $VEC"; exit 77
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
C="$VEC/certificates.json"
K="$VEC/genesis.vkey"
V() { "$G" mithril verify-chain "$@"; }

# ---- valid: map, array, --json
out=$(V --certificates "$C" --genesis-key "$K"); rc=$?
check '[ $rc -eq 0 ] && [[ "$out" == *"43 certificates (1 genesis), epochs 15-25"* ]]' "real chain: exit 0 ($rc: $out)"
j=$(V --certificates "$C" --genesis-key "$K" --json); rc=$?
check '[ $rc -eq 0 ] && [ "$(echo "$j" | jget "[\"valid\"]")" = True ] && [ "$(echo "$j" | jget "[\"certificates\"]")" = 43 ]' "real chain --json ($j)"
python3 -c "import json; d=json.load(open('$C')); json.dump(list(d.values()), open('$d/arr.json','w'))"
V --certificates "$d/arr.json" --genesis-key "$K" >/dev/null
check '[ $? -eq 0 ]' "as an array: exit 0"
cat "$d/arr.json" | V --certificates - --genesis-key "$K" >/dev/null
check '[ $? -eq 0 ]' "from stdin: exit 0"

# ---- invalid (exit 1): a changed protocol message part, named with its rule in --json
python3 - "$C" "$d" <<'EOF'
import json, sys
src, d = sys.argv[1], sys.argv[2]
m = json.load(open(src))
gen = [h for h, c in m.items() if c["genesis_signature"]][0]
# a certificate of epoch 23 whose message part changes (its hash then no longer matches)
h = sorted(k for k, c in m.items() if c["epoch"] == 23 and k != gen)[0]
m[h]["protocol_message"]["message_parts"]["current_epoch"] = "22"
json.dump(m, open(d + "/part.json", "w"))
open(d + "/part.hash", "w").write(h)
# an epoch that is no 64-bit number in one certificate (a field that does not decode)
m = json.load(open(src))
txt = json.dumps(m).replace('"epoch": 23,', '"epoch": 123456789012345678901234567890,', 1)
open(d + "/huge.json", "w").write(txt)
# one certificate alone: its predecessor is missing
json.dump(m[h], open(d + "/one.json", "w"))
EOF
j=$(V --certificates "$d/part.json" --genesis-key "$K" --json); rc=$?
h=$(cat "$d/part.hash")
check '[ $rc -eq 1 ]' "changed message part: exit 1 ($rc)"
check '[ "$(echo "$j" | jget "[\"failures\"][0][\"hash\"]")" = "$h" ] && [ "$(echo "$j" | jget "[\"failures\"][0][\"rule\"]")" = hash ]' "changed message part: named with rule hash ($j)"
check '[ "$(echo "$j" | jget "[\"valid\"]")" = False ] && [ "$(echo "$j" | jget "[\"ok\"]")" = False ]' "changed message part: valid false"
out=$(V --certificates "$d/part.json" --genesis-key "$K" 2>&1); rc=$?
check '[ $rc -eq 1 ] && [[ "$out" == *"INVALID $h"*"hash"* ]]' "changed message part: human text names it ($out)"
j=$(V --certificates "$d/huge.json" --genesis-key "$K" --json); rc=$?
check '[ $rc -eq 1 ] && [ "$(echo "$j" | jget "[\"failures\"][0][\"rule\"]")" = decode ]' "huge epoch: exit 1, rule decode ($rc $j)"
j=$(V --certificates "$d/one.json" --genesis-key "$K" --json); rc=$?
check '[ $rc -eq 1 ] && [ "$(echo "$j" | jget "[\"failures\"][0][\"rule\"]")" = previous_missing ]' "one certificate: previous_missing ($rc $j)"
# a wrong genesis key: the genesis certificate fails and every other one through it
python3 -c "
import json
k = json.loads(bytes.fromhex(open('$K').read().strip()))
k[0] ^= 1
open('$d/wrong.vkey','w').write(json.dumps(k).replace(' ', '').encode().hex())"
j=$(V --certificates "$C" --genesis-key "$d/wrong.vkey" --json); rc=$?
check '[ $rc -eq 1 ] && [ "$(echo "$j" | jget "[\"invalid\"]")" = 43 ] && echo "$j" | grep -q genesis_signature' "wrong genesis key: exit 1, 43 invalid ($rc)"

# ---- usage / input errors (exit 2)
printf '{"certificates": [' > "$d/trunc.json"
V --certificates "$d/trunc.json" --genesis-key "$K" >/dev/null 2>&1
check '[ $? -eq 2 ]' "truncated JSON: exit 2"
echo '[1, 2]' > "$d/nums.json"
j=$(V --certificates "$d/nums.json" --genesis-key "$K" --json); rc=$?
check '[ $rc -eq 2 ] && [ "$(echo "$j" | jget "[\"ok\"]")" = False ]' "not certificates: exit 2 ($rc $j)"
echo '[]' > "$d/empty.json"
V --certificates "$d/empty.json" --genesis-key "$K" >/dev/null 2>&1
check '[ $? -eq 2 ]' "no certificate: exit 2"
echo 'zz' > "$d/bad.vkey"
V --certificates "$C" --genesis-key "$d/bad.vkey" >/dev/null 2>&1
check '[ $? -eq 2 ]' "bad genesis key: exit 2"
V --certificates "$C" >/dev/null 2>&1
check '[ $? -eq 2 ]' "missing --genesis-key: exit 2"
V --certificates "$d/nope.json" --genesis-key "$K" >/dev/null 2>&1
check '[ $? -eq 2 ]' "missing file: exit 2"
"$G" mithril --help >/dev/null 2>&1
check '[ $? -eq 0 ]' "grove mithril --help"
exit $fail
