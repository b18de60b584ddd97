#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# A C program using only the public library (examples/dgsp_verify_file.c, linked with the
# shared libgrove) verifies what the grove command signed: the armored public key, signature
# and signed revocation list the CLI writes are read with grove_dgsp_file_decode; its verdicts
# match `grove dgsp verify` (0 valid, 1 invalid or revoked, 2 bad input).
set -u
G="${GROVE:?}"
VF="${VERIFY_FILE:?}"
OLD="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/old_files" # written by an earlier grove
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
export GROVE_STATE_DIR="$d/state"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }

for params in sha2-128f shake-128f; do
  for flavour in r3.1 fips205; do
    g="grp-$params-$flavour"
    "$G" dgsp manager init --group "$g" --params "$params" --flavour "$flavour" >/dev/null || { echo "FAIL: init $g"; fail=1; continue; }
    "$G" dgsp manager join --group "$g" --username alice --out "$g.cred" >/dev/null
    "$G" dgsp member init --wallet "$g.w" --credential "$g.cred" >/dev/null
    "$G" dgsp member csr --wallet "$g.w" --count 1 --out "$g.csr" >/dev/null
    "$G" dgsp manager cert --group "$g" --csr "$g.csr" --out "$g.certs" >/dev/null
    "$G" dgsp member import-certs --wallet "$g.w" --certs "$g.certs" >/dev/null
    echo "pay 5 to bob ($g)" > "$g.msg"
    "$G" dgsp member sign --wallet "$g.w" --msg "$g.msg" --sig "$g.sig" >/dev/null
    check '[ $? -eq 0 ] && [ -f "$g.sig" ]' "$g: the CLI signs"

    "$VF" "$g/manager.pub" "$g.msg" "$g.sig" >/dev/null
    check '[ $? -eq 0 ]' "$g: the library verifies the CLI's signature file"
    echo "pay 500 to bob" > other.msg
    "$VF" "$g/manager.pub" other.msg "$g.sig" >/dev/null
    check '[ $? -eq 1 ]' "$g: another message does not verify (1)"
    head -c 400 "$g.sig" > short.sig
    "$VF" "$g/manager.pub" "$g.msg" short.sig >/dev/null 2>&1
    check '[ $? -eq 2 ]' "$g: a truncated signature file is bad input (2)"
    "$VF" "$g/manager.pub" "$g.msg" "$g.csr" >/dev/null 2>&1
    check '[ $? -eq 2 ]' "$g: a CSR given as signature is bad input (2)"

    "$G" dgsp manager export-revocations --group "$g" --out "$g.rl0" >/dev/null
    "$VF" "$g/manager.pub" "$g.msg" "$g.sig" "$g.rl0" >/dev/null
    check '[ $? -eq 0 ]' "$g: valid against an empty revocation list"
    "$G" dgsp manager revoke --group "$g" --id 0 >/dev/null
    "$G" dgsp manager export-revocations --group "$g" --out "$g.rl" >/dev/null
    out=$("$VF" "$g/manager.pub" "$g.msg" "$g.sig" "$g.rl")
    rc=$?
    check '[ $rc -eq 1 ] && echo "$out" | grep -q "revoked"' "$g: revoked after the CLI's revocation list (rc=$rc: $out)"
    "$G" dgsp verify --pk "$g/manager.pub" --msg "$g.msg" --sig "$g.sig" --revocations "$g.rl" >/dev/null 2>&1
    check '[ $? -eq 1 ]' "$g: the CLI agrees"
  done
done
# a revocation list of another group is refused
"$VF" grp-sha2-128f-r3.1/manager.pub grp-sha2-128f-r3.1.msg grp-sha2-128f-r3.1.sig grp-sha2-128f-fips205.rl >/dev/null 2>&1
check '[ $? -eq 2 ]' "another group's revocation list is bad input (2)"
"$VF" grp-sha2-128f-r3.1/manager.pub grp-sha2-128f-r3.1.msg grp-shake-128f-r3.1.sig >/dev/null 2>&1
check '[ $? -eq 2 ]' "a signature of another parameter set is bad input (2)"
# a signature of another group of the same parameters: refused by its key id (2), in either form
"$G" dgsp manager init --group other --params sha2-128f >/dev/null
"$G" dgsp manager join --group other --username olga --out o.cred >/dev/null
"$G" dgsp member init --wallet o.w --credential o.cred >/dev/null
"$G" dgsp member csr --wallet o.w --count 2 --out o.csr >/dev/null
"$G" dgsp manager cert --group other --csr o.csr --out o.certs >/dev/null
"$G" dgsp member import-certs --wallet o.w --certs o.certs >/dev/null
echo "pay 5 to bob" > o.msg
"$G" dgsp member sign --wallet o.w --msg o.msg --sig o.sig >/dev/null
"$VF" other/manager.pub o.msg o.sig >/dev/null
check '[ $? -eq 0 ]' "the other group's signature verifies with its own key"
"$VF" grp-sha2-128f-r3.1/manager.pub o.msg o.sig >/dev/null 2>err; rc=$?
check '[ $rc -eq 2 ] && grep -q "key id" err' "a signature of another group (same parameters) is bad input (2): $(cat err)"
"$G" dgsp member sign --wallet o.w --msg o.msg --sig o.bin --binary >/dev/null
"$VF" other/manager.pub o.msg o.bin >/dev/null
check '[ $? -eq 0 ]' "the library reads a binary signature file (--binary)"
"$VF" grp-sha2-128f-r3.1/manager.pub o.msg o.bin >/dev/null 2>&1
check '[ $? -eq 2 ]' "... and refuses it with another group's key (2)"
# files an earlier grove wrote (the older DGSP armor) are read by the library too
"$VF" "$OLD/manager.pub" "$OLD/msg.txt" "$OLD/msg.sig" >/dev/null
check '[ $? -eq 0 ]' "an older signature file verifies"
"$VF" "$OLD/manager.pub" "$OLD/msg.txt" "$OLD/msg.sig" "$OLD/group.rl" >/dev/null
check '[ $? -eq 1 ]' "an older revocation list revokes it"
# and the example's own walk-through (no arguments)
"$VF" >/dev/null
check '[ $? -eq 0 ]' "dgsp_verify_file without arguments"
[ $fail -eq 0 ] && echo "all dgsp_verify_file checks passed"
exit $fail
