#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# `grove info FILE` describes any grove file: envelopes in both forms (written here
# independently of the library, from docs/formats.md), DGSP armored files and XMSS key files;
# it refuses raw, damaged, truncated and newer-version files with exit 2 and says why.
. "$(dirname "$0")/../support/cli_test.sh"

python3 - <<'PY'
import base64, hashlib
def env(scheme, set_, typ, body, pk=None, version=1):
    kid = hashlib.sha256(b"grove key id v1\0" + scheme.encode() + b"\0" + set_.encode() + b"\0"
                         + pk).digest()[:8] if pk is not None else bytes(8)
    b = b"GRVE" + bytes([version, 1 if pk is not None else 0])
    for n in (scheme, set_, typ):
        b += bytes([len(n)]) + n.encode()
    b += kid + len(body).to_bytes(4, "big") + body
    return b + hashlib.sha256(b"grove envelope v1" + b).digest()
def armor(b, title):
    s = base64.b64encode(b).decode()
    return "-----BEGIN %s-----\n%s\n-----END %s-----\n" % (
        title, "\n".join(s[i:i + 64] for i in range(0, len(s), 64)), title)
pk = bytes(range(32))
b = env("SLH-DSA", "shake-128f", "PUBLIC KEY", pk, pk)
open("pk.bin", "wb").write(b)
open("pk.txt", "w").write(armor(b, "GROVE SLH-DSA PUBLIC KEY"))
open("wrongtitle.txt", "w").write(armor(b, "GROVE SLH-DSA SECRET KEY"))
open("newer.bin", "wb").write(env("SLH-DSA", "shake-128f", "PUBLIC KEY", pk, pk, version=2))
open("params.bin", "wb").write(env("STM", "", "PARAMETERS", bytes(24)))
open("raw.pk", "wb").write(pk)
print(hashlib.sha256(b"grove key id v1\0SLH-DSA\0shake-128f\0" + pk).hexdigest()[:16],
      file=open("kid", "w"))
PY
kid=$(cat kid)

out=$("$G" info pk.txt); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | grep -q "grove SLH-DSA PUBLIC KEY, set shake-128f, key id $kid"' "armored envelope described with its key id"
out=$("$G" info --file pk.bin); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | grep -q "binary, format version 1, 32 bytes"' "binary envelope (--file)"
out=$("$G" info - < pk.txt); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | grep -q "^-: grove SLH-DSA PUBLIC KEY"' "info - reads stdin"
out=$("$G" info pk.bin --json); rc=$?
check '[ $rc -eq 0 ] && [ "$(echo "$out" | jget "[\"key_id\"]")" = "$kid" ] && [ "$(echo "$out" | jget "[\"type\"]")" = "PUBLIC KEY" ] && [ "$(echo "$out" | jget "[\"params\"]")" = "shake-128f" ]' "--json fields"
out=$("$G" info params.bin --json); rc=$?
check '[ $rc -eq 0 ] && [ "$(echo "$out" | jhas key_id)" = False ]' "no key id for an object of no key"

# refused: raw bytes (pointing to import), damaged, truncated, trailing data, wrong title, newer
out=$("$G" info raw.pk 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "import"' "raw file: exit 2, points to import"
python3 -c "import sys; b=bytearray(open('pk.bin','rb').read()); b[40]^=1; open('bad.bin','wb').write(b)"
out=$("$G" info bad.bin 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "damaged"' "one bit changed: exit 2, damaged"
head -c 50 pk.bin > short.bin
"$G" info short.bin >/dev/null 2>&1; check '[ $? -eq 2 ]' "truncated: exit 2"
{ cat pk.bin; printf x; } > long.bin
"$G" info long.bin >/dev/null 2>&1; check '[ $? -eq 2 ]' "trailing byte: exit 2"
out=$("$G" info wrongtitle.txt 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "title does not match"' "armor title disagreeing with the contents"
out=$("$G" info newer.bin 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "version not supported"' "newer format version: exit 2"
"$G" info nosuchfile >/dev/null 2>&1; check '[ $? -eq 2 ]' "missing file: exit 2"
"$G" info >/dev/null 2>&1; check '[ $? -eq 2 ]' "no file: exit 2"
"$G" info a b >/dev/null 2>&1; check '[ $? -eq 2 ]' "two files: exit 2"

# DGSP files (the envelope, with the group's key id), and DGSP's older armor; the XMSS key file
if "$G" dgsp params >/dev/null 2>&1; then
  "$G" dgsp manager init --group grp >/dev/null 2>&1
  gkid=$("$G" dgsp info grp/manager.pub --json | jget '["key_id"]')
  out=$("$G" info grp/manager.pub); rc=$?
  check '[ $rc -eq 0 ] && echo "$out" | grep -q "grove DGSP PUBLIC KEY, set shake-256f/r3.1/grove, key id $gkid" && echo "$out" | grep -q "armored"' "DGSP file described with the group's key id"
  old="$(dirname "${BASH_SOURCE[0]}")/../dgsp/old_files/msg.sig"
  out=$("$G" info "$old" --json); rc=$?
  check '[ $rc -eq 0 ] && [ "$(echo "$out" | jget "[\"encoding\"]")" = dgsp-armor ] && [ "$(echo "$out" | jget "[\"params\"]")" = sha2-128f/r3.1/grove ] && [ "$(echo "$out" | jhas key_id)" = False ]' "a DGSP file in the older armor described (no key id)"
fi
exit $fail
