#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove stm export/import --format cbor (mithril-stm's CBOR v1) and format auto-detection: the
# crate's own bytes (../shared/vectors/stm-cbor) import without --format (0x01 = CBOR, '{' =
# JSON, else raw), verify, and export byte-identically (the aggregate in both proof_bytes forms);
# an initializer imports as a secret key that signs the crate's signature; garbage, a changed
# version byte and the crate-crashing case exit 2; objects without a CBOR form exit 2.
set -u
G="$(cd "$(dirname "${GROVE:?}")" && pwd)/$(basename "$GROVE")"
VEC="${GROVE_VECTORS_DIR:-}"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
jget() { python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d$1)"; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

# ---- a group made here: export cbor, import (auto and --format cbor) gives the same files
"$G" stm setup --m 60 --k 3 --phi-f 0.5 --out "$d/p" >/dev/null
for i in 1 2 3; do
  "$G" stm keygen --sk "$d/sk$i" --pk "$d/pk$i" --seed "$(printf "%064x" $i)" >/dev/null
  echo "$((i * 100)) $d/pk$i" >> "$d/parties"
done
"$G" stm register --parties "$d/parties" --out "$d/reg" --avk "$d/avk" >/dev/null
echo "hello" > "$d/msg"
sigs=()
for i in 1 2 3; do
  if "$G" stm sign --params "$d/p" --sk "$d/sk$i" --closed "$d/reg" --msg "$d/msg" --sig "$d/s$i" >/dev/null 2>&1; then
    sigs+=(--sig "$d/s$i"); one="$d/s$i"
  fi
done
"$G" stm aggregate --params "$d/p" --closed "$d/reg" --msg "$d/msg" "${sigs[@]}" --out "$d/agg" >/dev/null
check '[ $? -eq 0 ]' "a group: aggregate"

for pair in "params:p" "avk:avk" "sig:$(basename "$one")" "sig:agg"; do
  opt=${pair%%:*}; f=${pair#*:}
  "$G" stm export --$opt "$d/$f" --format cbor --out "$d/$f.cbor" >/dev/null
  check '[ $? -eq 0 ] && [ "$(head -c1 "$d/$f.cbor" | od -An -tx1 | tr -d " ")" = 01 ]' "export --$opt $f --format cbor: 0x01 first"
  iopt=$opt; extra=()
  [ "$f" = agg ] && iopt=agg && extra=(--avk "$d/avk")
  [ "$opt" = sig ] && [ "$f" != agg ] && extra=(--closed "$d/reg")
  for fmt in auto cbor; do
    fa=(); [ $fmt = cbor ] && fa=(--format cbor)
    rm -f "$d/$f.imp"
    out=$("$G" stm import "${fa[@]}" --$iopt "$d/$f.cbor" "${extra[@]}" --out "$d/$f.imp" --json)
    check '[ $? -eq 0 ] && cmp -s "$d/$f" "$d/$f.imp"' "import ($fmt) of the CBOR of $f gives the same file"
    check '[ "$(echo "$out" | jget "[\"format\"]")" = cbor ]' "import ($fmt) of $f reports format cbor"
  done
done
# the 0.12 form of the aggregate: smaller, imports to the same file
"$G" stm export --sig "$d/agg" --format cbor --cbor-form 0.12 --out "$d/agg12.cbor" >/dev/null
check '[ $(wc -c < "$d/agg12.cbor") -lt $(wc -c < "$d/agg.cbor") ]' "--cbor-form 0.12 is the byte-string form (smaller)"
"$G" stm import --agg "$d/agg12.cbor" --avk "$d/avk" --out "$d/agg12.imp" >/dev/null
check '[ $? -eq 0 ] && cmp -s "$d/agg" "$d/agg12.imp"' "the 0.12 form imports to the same aggregate"
"$G" stm export --sig "$d/agg" --format cbor --cbor-form 0.13 --out "$d/x" >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e "$d/x" ]' "--cbor-form 0.13: exit 2"
"$G" stm export --sig "$d/agg" --format raw --cbor-form 0.12 --out "$d/x" >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e "$d/x" ]' "--cbor-form without --format cbor: exit 2"
# auto-detection of the other encodings still works (raw and JSON, no --format)
"$G" stm export --params "$d/p" --format json --out "$d/p.json" >/dev/null
"$G" stm export --params "$d/p" --format raw --out "$d/p.raw" >/dev/null
for f in p.json p.raw; do
  rm -f "$d/x"
  out=$("$G" stm import --params "$d/$f" --out "$d/x" --json)
  check '[ $? -eq 0 ] && cmp -s "$d/p" "$d/x"' "import of $f without --format"
done
# an explicit format is a promise: CBOR given as raw, raw as CBOR: exit 2
"$G" stm import --format raw --params "$d/p.cbor" --out "$d/y" >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e "$d/y" ]' "CBOR parameters as --format raw: exit 2"
"$G" stm import --format cbor --params "$d/p.raw" --out "$d/y" >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e "$d/y" ]' "raw parameters as --format cbor: exit 2"
# objects without a CBOR form
for o in pk:pk1 closed:reg; do
  "$G" stm export --${o%%:*} "$d/${o#*:}" --format cbor --out "$d/y" >/dev/null 2>&1
  check '[ $? -eq 2 ] && [ ! -e "$d/y" ]' "export --${o%%:*} --format cbor: exit 2 (no CBOR form)"
done
"$G" stm import --format cbor --pk "$d/p.cbor" --out "$d/y" >/dev/null 2>&1
check '[ $? -eq 2 ] && [ ! -e "$d/y" ]' "import --pk --format cbor: exit 2"

# ---- the crate's own bytes
if [ -n "$VEC" ] && [ -d "$VEC/stm-cbor" ]; then
  for v in "$VEC"/stm-cbor/group_*.json; do
    n=$(basename "$v" .json)
    python3 - "$v" "$d" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1])); d = sys.argv[2]
w = lambda name, h: open(d + "/" + name, "wb").write(bytes.fromhex(h))
w("c_params", v["params"]["cbor_hex"]); w("c_avk", v["avk"]["cbor_hex"])
w("c_agg", v["aggregate"]["cbor_hex"]); w("c_msg", v["message_hex"])
neg = {c["case"]: c for c in v["aggregate"]["negative_cases"] if "bytes_hex" in c}
w("c_agg_v00", neg["version_byte_00"]["bytes_hex"]); w("c_agg_flip", neg["flip_middle"]["bytes_hex"])
pneg = {c["case"]: c for c in v["params"]["negative_cases"] if "bytes_hex" in c}
w("c_params_vff", pneg["version_byte_ff"]["bytes_hex"])
win = [s for s in v["single_signatures"] if s.get("cbor_hex")][0]
w("c_sig", win["cbor_hex"]); w("c_init", v["parties"][win["party"]]["initializer_cbor_hex"])
with open(d + "/c_parties", "w") as f:
    for p in v["parties"]:
        f.write("%d %s\n" % (p["stake"], p["vkpop_legacy_hex"]))
EOF
    rm -f "$d"/c_p "$d"/c_a "$d"/c_g "$d"/c_reg "$d"/c_avk2 "$d"/c_sk "$d"/c_s "$d"/c_out
    "$G" stm import --params "$d/c_params" --out "$d/c_p" >/dev/null &&
    "$G" stm import --avk "$d/c_avk" --out "$d/c_a" >/dev/null &&
    "$G" stm import --agg "$d/c_agg" --avk "$d/c_a" --out "$d/c_g" >/dev/null &&
    "$G" stm verify --params "$d/c_p" --avk "$d/c_a" --msg "$d/c_msg" --sig "$d/c_g" >/dev/null
    check '[ $? -eq 0 ]' "$n: the crate's CBOR parameters, AVK and aggregate import (auto) and verify"
    "$G" stm export --sig "$d/c_g" --format cbor --out "$d/c_out" >/dev/null
    check 'cmp -s "$d/c_out" "$d/c_agg"' "$n: export --format cbor is the crate's aggregate"
    for f in params:c_p:c_params avk:c_a:c_avk; do
      IFS=: read -r o g want <<< "$f"
      rm -f "$d/c_out"
      "$G" stm export --$o "$d/$g" --format cbor --out "$d/c_out" >/dev/null
      check 'cmp -s "$d/c_out" "$d/$want"' "$n: export --$o --format cbor is the crate's bytes"
    done
    # the registration from the parties' vk + PoP gives the crate's AVK; the initializer's key
    # signs the crate's single signature
    "$G" stm register --parties "$d/c_parties" --out "$d/c_reg" --avk "$d/c_avk2" >/dev/null
    check 'cmp -s "$d/c_a" "$d/c_avk2"' "$n: grove's registration gives the crate's AVK"
    out=$("$G" stm import --sk "$d/c_init" --out "$d/c_sk" --json)
    check '[ $? -eq 0 ] && [ "$(echo "$out" | jget "[\"type\"]")" = "SECRET KEY" ]' "$n: the crate's initializer imports as a secret key"
    check '[ "$(stat -c %a "$d/c_sk")" = 600 ]' "$n: the imported secret key has mode 0600"
    "$G" stm sign --params "$d/c_p" --sk "$d/c_sk" --closed "$d/c_reg" --msg "$d/c_msg" --sig "$d/c_s" >/dev/null &&
    "$G" stm export --sig "$d/c_s" --format cbor --out "$d/c_out2" >/dev/null
    check 'cmp -s "$d/c_out2" "$d/c_sig"' "$n: the imported initializer signs the crate's signature (CBOR byte-identical)"
    rm -f "$d/c_out2"
    "$G" stm import --sig "$d/c_sig" --closed "$d/c_reg" --out "$d/c_s2" >/dev/null &&
    "$G" stm verify-sig --params "$d/c_p" --closed "$d/c_reg" --msg "$d/c_msg" --sig "$d/c_s2" >/dev/null
    check '[ $? -eq 0 ]' "$n: the crate's CBOR single signature imports and verifies"
    rm -f "$d/c_s2"
    # hostile: the crate-crashing version byte 00, a flip it rejects, version ff parameters
    for bad in agg:c_agg_v00 agg:c_agg_flip params:c_params_vff; do
      o=${bad%%:*}; f=${bad#*:}; extra=(); [ $o = agg ] && extra=(--avk "$d/c_a")
      "$G" stm import --$o "$d/$f" "${extra[@]}" --out "$d/c_x" >/dev/null 2>&1
      check '[ $? -eq 2 ] && [ ! -e "$d/c_x" ]' "$n: $f refused (exit 2)"
    done
  done
fi

[ $fail -eq 0 ] && echo "stm CBOR CLI: all checks passed"
exit $fail
