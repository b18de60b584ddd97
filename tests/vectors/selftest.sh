#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove-vectors machinery: recognition by content, README ignored, exit codes, failing cases.
set -u
gv="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }

mkdir -p "$dir/ok/sub"
cat > "$dir/ok/any-name.json" <<'J'
{"hash_tests":[{"alg":"sha256","msg":"616263","out":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
 {"alg":"shake128","msg":"","out":"7f9c2ba4e88f827d616045507605853e"}]}
J
cat > "$dir/ok/sub/other.json" <<'J'
{"hash_tests":[{"alg":"sha3-256","msg":"616263","out":"3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"}]}
J
echo '{"unrelated": 1}' > "$dir/ok/unrelated.json"
echo 'not json at all' > "$dir/ok/README.json"
echo 'ignored' > "$dir/ok/notes.txt"
out=$("$gv" hash "$dir/ok"); rc=$?
check '[ $rc -eq 0 ]' "good folder exits 0 (got $rc: $out)"
check 'echo "$out" | grep -q "^3 passed, 0 failed$"' "counts 3 cases: $out"

mkdir -p "$dir/bad"
cat > "$dir/bad/x.json" <<'J'
{"hash_tests":[{"alg":"sha256","msg":"616263","out":"00"},{"alg":"sha256","msg":"616263","out":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}]}
J
out=$("$gv" hash "$dir/bad"); rc=$?
check '[ $rc -eq 1 ]' "a failing case exits 1"
check 'echo "$out" | grep -q "^1 passed, 1 failed$"' "reports the failure: $out"
check 'echo "$out" | grep -q "^FAIL "' "prints the failing case"

mkdir -p "$dir/empty"
out=$("$gv" hash "$dir/empty"); rc=$?
check '[ $rc -eq 1 ]' "no cases at all exits 1 (N = 0)"

echo '{"hash_tests": [' > "$dir/broken.json"
out=$("$gv" hash "$dir/broken.json"); rc=$?
check '[ $rc -eq 1 ]' "malformed JSON is a failure"

"$gv" nosuchkind "$dir/ok" >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ]' "unknown kind is a usage error"
"$gv" hash "$dir/missing" >/dev/null 2>&1; rc=$?
check '[ $rc -eq 2 ]' "missing path is an error"
GROVE_REQUIRE_VECTORS= "$gv" --ctest hash "$dir/missing" >/dev/null 2>&1; rc=$?
check '[ $rc -eq 77 ]' "--ctest with missing vectors skips"
GROVE_REQUIRE_VECTORS=1 "$gv" --ctest hash "$dir/missing" >/dev/null 2>&1; rc=$?
check '[ $rc -ne 0 ] && [ $rc -ne 77 ]' "GROVE_REQUIRE_VECTORS=1 turns the skip into a failure"
exit $fail
