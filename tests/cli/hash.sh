#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# grove hash ALG [FILE]... used like coreutils' sha256sum: every algorithm byte for byte against
# coreutils (sha224/256/384/512sum) and Python's hashlib (SHA-3, SHAKE, where coreutils has no
# tool): output lines, --tag, escaped names, stdin, missing files, -c with its messages, summary
# lines and options, and the exit codes.
. "$(dirname "$0")/../support/cli_test.sh"

# The reference for the algorithms coreutils lacks: sha256sum's output rules with hashlib.
cat > ref.py <<'PY'
import hashlib, sys
alg, tag, length, files = sys.argv[1], sys.argv[2] == "tag", int(sys.argv[3]), sys.argv[4:] or ["-"]
rc = 0
for f in files:
    try:
        data = sys.stdin.buffer.read() if f == "-" else open(f, "rb").read()
    except OSError as e:
        sys.stdout.flush(); print(f"grove hash: {f}: {e.strerror}", file=sys.stderr); rc = 1; continue
    h = hashlib.new(alg.replace("-", "_"), data)
    hx = h.hexdigest(length) if alg.startswith("shake") else h.hexdigest()
    esc = any(c in f for c in "\\\n\r")
    name = f.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r") if esc else f
    pre = "\\" if esc else ""
    line = f"{pre}{alg.upper()} ({name}) = {hx}" if tag else f"{pre}{hx}  {name}"
    sys.stdout.write(line + "\n"); sys.stdout.flush()
sys.exit(rc)
PY

# ref ALG [--tag] FILE...: what grove hash ALG must print (stdout, stderr under the name of the
# coreutils tool, exit code)
ref() {
  local a=$1; shift
  local tag=no; [ "${1:-}" = --tag ] && { tag=tag; shift; }
  case $a in
    sha224|sha256|sha384|sha512)
      ${a}sum $([ $tag = tag ] && echo --tag) "$@" ;;
    shake128) python3 ref.py $a $tag 32 "$@" ;;
    shake256) python3 ref.py $a $tag 64 "$@" ;;
    *) python3 ref.py $a $tag 0 "$@" ;;
  esac
}
# same WHAT ALG ARGS...: grove hash ALG ARGS and the reference agree on stdout, stderr, exit code
same() {
  local what=$1 a=$2; shift 2
  "$G" hash "$a" "$@" > g.out 2> g.err < "${STDIN:-/dev/null}"; g=$?
  ref "$a" "$@" > r.out 2> r.err < "${STDIN:-/dev/null}"; r=$?
  sed -i "s/^sha[0-9]*sum:/grove hash:/" r.err
  check 'cmp -s g.out r.out && cmp -s g.err r.err && [ $g -eq $r ]' "$a: $what (rc $g vs $r)"
  if ! cmp -s g.out r.out || ! cmp -s g.err r.err; then diff g.out r.out; diff g.err r.err; fi
}
# cmp_check WHAT ALG SUMS ARGS...: grove hash ALG -c SUMS agrees with sha256sum -c on the
# sha256 sums file SUMS.sha256 of the same files (the check messages do not depend on the
# algorithm; the --warn line names it)
cmp_check() {
  local what=$1 a=$2 sums=$3; shift 3
  "$G" hash "$a" -c "$@" "$sums" > g.out 2> g.err; g=$?
  sha256sum -c "$@" "$sums.sha256" > r.out 2> r.err; r=$?
  local T; T=$(echo "$a" | tr a-z A-Z)
  sed -i -e "s/^sha256sum:/grove hash:/" -e "s/$sums.sha256/$sums/" -e "s/ SHA256 checksum line/ $T checksum line/" r.err
  check 'cmp -s g.out r.out && cmp -s g.err r.err && [ $g -eq $r ]' "$a -c: $what (rc $g vs $r)"
  if ! cmp -s g.out r.out || ! cmp -s g.err r.err; then diff g.out r.out; diff g.err r.err; fi
}

: > empty
head -c 1048576 /dev/urandom > big
printf 'two\n' > two
printf 'with space' > 'a b'
printf 'nl' > "$(printf 'new\nline')"
printf 'bs' > 'back\slash'
printf 'cr' > "$(printf 'car\rret')"
for a in sha224 sha256 sha384 sha512 sha3-256 sha3-512 shake128 shake256; do
  same "empty file" $a empty
  same "1 MiB file" $a big
  STDIN=big same "stdin" $a
  STDIN=two same "stdin as -" $a -
  same "two files" $a empty two
  same "missing file in the middle" $a empty nosuch two
  check '[ "$(wc -l < g.out)" -eq 2 ]' "$a: the files around the missing one are printed"
  same "name with spaces" $a 'a b'
  same "names escaped" $a "$(printf 'new\nline')" 'back\slash' "$(printf 'car\rret')" two
  same "--tag" $a --tag two 'a b' 'back\slash'

  # -c: a round trip, then the same checks as sha256sum -c on the same files
  files=(empty big two 'a b' "$(printf 'new\nline')" 'back\slash')
  "$G" hash $a "${files[@]}" > sums; check '[ $? -eq 0 ]' "$a: sums written"
  sha256sum "${files[@]}" > sums.sha256
  "$G" hash $a -c sums > out; rc=$?
  check '[ $rc -eq 0 ] && [ "$(grep -c ": OK$" out)" -eq 6 ]' "$a -c: round trip OK"
  cmp_check "round trip" $a sums
  "$G" hash $a --tag "${files[@]}" > tagged
  "$G" hash $a -c tagged > out; check '[ $? -eq 0 ] && [ "$(grep -c ": OK$" out)" -eq 6 ]' "$a -c: --tag lines"
  "$G" hash $a -c < sums > out; check '[ $? -eq 0 ] && [ "$(grep -c ": OK$" out)" -eq 6 ]' "$a -c: sums from stdin"
  cp two two.orig; printf 'tampered\n' > two
  cmp_check "one tampered file" $a sums
  check 'grep -qx "two: FAILED" g.out && grep -qx "grove hash: WARNING: 1 computed checksum did NOT match" g.err' "$a -c: FAILED and the summary"
  cmp_check "--status" $a sums --status
  check '[ ! -s g.out ] && [ ! -s g.err ]' "$a -c --status prints nothing"
  cmp_check "--quiet" $a sums --quiet
  mv 'a b' 'a b.away'
  cmp_check "a missing file" $a sums
  cmp_check "--ignore-missing" $a sums --ignore-missing
  mv 'a b.away' 'a b'; mv two.orig two
  printf 'not a checksum line\n' | tee -a sums >> sums.sha256
  cmp_check "a malformed line" $a sums
  check '[ $g -eq 0 ]' "$a -c: a malformed line alone is exit 0"
  cmp_check "--strict with a malformed line" $a sums --strict
  check '[ $g -eq 1 ]' "$a -c --strict: exit 1"
  cmp_check "--warn" $a sums -w
done

# SHAKE: --length BYTES, and -c reads the length of each line unless --length is given
py=$(python3 -c "import hashlib; print(hashlib.shake_256(b'two\n').hexdigest(100))")
check '[ "$("$G" hash shake256 --length 100 two)" = "$py  two" ]' "shake256 --length 100"
check '[ "$("$G" hash SHAKE-256 --length=100 two)" = "$py  two" ]' "--length=N and an alias"
"$G" hash shake128 --length 7 two > s7; "$G" hash shake128 -c s7 >/dev/null
check '[ $? -eq 0 ]' "shake128 -c takes the line's length"
"$G" hash shake128 --length 8 -c s7 >/dev/null 2>&1
check '[ $? -eq 1 ]' "shake128 -c --length 8 refuses a 7-byte line"
"$G" hash sha256 --length 8 two >/dev/null 2>&1; check '[ $? -eq 2 ]' "--length is SHAKE only"
"$G" hash shake128 --length 0 two >/dev/null 2>&1; check '[ $? -eq 2 ]' "--length 0 refused"
"$G" hash shake128 --length 1025 two >/dev/null 2>&1; check '[ $? -eq 2 ]' "--length 1025 refused"
out=$("$G" hash shake128 --help); check 'echo "$out" | grep -q "default 32 for shake128, 64 for"' "--help names the SHAKE lengths"
check 'echo "$out" | grep -q "Exit codes follow coreutils"' "--help documents the exit codes"

# aliases, usage errors (exit 2), and what coreutils refuses
for n in SHA-256 sha-256 SHA2-256 sha2_256; do
  check '[ "$("$G" hash $n two)" = "$(sha256sum two)" ]' "alias $n"
done
check '[ "$("$G" hash SHA3-256 two)" = "$("$G" hash sha3-256 two)" ]' "alias SHA3-256"
"$G" hash sha256 --bogus two >/dev/null 2>&1; check '[ $? -eq 2 ]' "unknown option exits 2"
"$G" hash sha256 --quiet two >/dev/null 2>&1; check '[ $? -eq 2 ]' "--quiet without -c exits 2"
"$G" hash sha256 -c --tag sums >/dev/null 2>&1; check '[ $? -eq 2 ]' "--tag with -c exits 2"
# --json: one object with the algorithm and each file's digest or error (coreutils' exit codes)
out=$("$G" hash sha256 two nosuch 'a b' --json 2> err); rc=$?
check '[ $rc -eq 1 ] && [ ! -s err ] && echo "$out" | python3 -c "
import json, sys, hashlib
d = json.load(sys.stdin)
assert d[\"algorithm\"] == \"sha256\" and d[\"ok\"] is False and d[\"exit_code\"] == 1, d
f = d[\"files\"]
assert [e[\"file\"] for e in f] == [\"two\", \"nosuch\", \"a b\"], f
assert f[0][\"digest\"] == hashlib.sha256(open(\"two\", \"rb\").read()).hexdigest()
assert f[1][\"error\"] == \"No such file or directory\" and \"digest\" not in f[1]
assert f[2][\"digest\"] == hashlib.sha256(b\"with space\").hexdigest()"' "--json: digests and errors per file, exit 1"
out=$(printf abc | "$G" hash SHA3-256 --json); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | python3 -c "
import json, sys; d = json.load(sys.stdin)
assert d[\"ok\"] and d[\"algorithm\"] == \"sha3-256\" and d[\"files\"] == [{\"file\": \"-\", \"digest\": \"3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532\"}]"' "--json: stdin, canonical algorithm name"
"$G" hash sha256 two empty > sums.j; printf 'x\n' >> sums.j; printf '%s  gone\n' "$(sha256sum two | cut -c1-64)" >> sums.j
cp two two.keep; printf 'changed\n' > two
out=$("$G" hash sha256 -c sums.j nosuch.sums --json 2> err); rc=$?
mv two.keep two
check '[ $rc -eq 1 ] && [ ! -s err ] && echo "$out" | python3 -c "
import json, sys; d = json.load(sys.stdin)
assert (d[\"matched\"], d[\"mismatched\"], d[\"unreadable\"], d[\"malformed\"]) == (1, 1, 1, 1), d
f = d[\"files\"]
assert f[0] == {\"file\": \"two\", \"ok\": False} and f[1] == {\"file\": \"empty\", \"ok\": True}, f
assert f[2][\"file\"] == \"gone\" and f[2][\"ok\"] is False and f[2][\"error\"]
assert f[3] == {\"sums_file\": \"nosuch.sums\", \"error\": \"No such file or directory\"}, f
assert d[\"ok\"] is False and d[\"exit_code\"] == 1"' "-c --json: each file and the counts"
"$G" hash sha256 two empty 'a b' > sums.ok
out=$("$G" hash sha256 -c sums.ok --json); rc=$?
check '[ $rc -eq 0 ] && echo "$out" | python3 -c "
import json, sys; d = json.load(sys.stdin)
assert d[\"ok\"] and d[\"matched\"] >= 1 and d[\"mismatched\"] == 0 and all(e[\"ok\"] for e in d[\"files\"])"' "-c --json: all matched, exit 0"
out=$("$G" hash sha256 --bogus two --json 2> err); rc=$?
check '[ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | jget "[\"error\"]" | grep -q "unknown option --bogus"' "--json: a usage error is one object, exit 2"
# -z / --zero: NUL-terminated lines, names not escaped, as coreutils (not with -c)
for a in sha224 sha256 sha384 sha512; do
  "$G" hash $a -z two "$(printf 'new\nline')" 'back\slash' > z.g; ${a}sum -z two "$(printf 'new\nline')" 'back\slash' > z.r
  check 'cmp -s z.g z.r' "$a -z: the bytes of ${a}sum -z"
  "$G" hash $a --zero --tag two 'a b' > z.g; ${a}sum --zero --tag two 'a b' > z.r
  check 'cmp -s z.g z.r' "$a --zero --tag: the bytes of ${a}sum"
done
"$G" hash shake128 -z two "$(printf 'new\nline')" > z.g
check '[ "$(tr "\0" "#" < z.g)" = "$(python3 -c "import hashlib; h=lambda b: hashlib.shake_128(b).hexdigest(32); print(h(open(\"two\",\"rb\").read()) + \"  two#\" + h(b\"nl\") + \"  new\\nline#\", end=\"\")")" ]' "shake128 -z: NUL after each line, the newline in a name kept raw"
"$G" hash sha256 -c -z sums.ok > /dev/null 2> err; rc=$?
check '[ $rc -eq 2 ] && grep -q "the --zero option is not supported when verifying checksums" err' "-c -z: exit 2, as coreutils refuses it"
"$G" hash md5 two >/dev/null 2>&1; check '[ $? -eq 2 ]' "unknown algorithm exits 2"
"$G" hash sha256 -- -c > /dev/null 2> err; check '[ $? -eq 1 ] && grep -q "^grove hash: -c: No such file" err' "-- ends the options"
# a sums file naming '-' read from stdin is malformed (as coreutils), a directory is unreadable
printf '%s  -\n' "$(sha256sum < two | cut -c1-64)" > dash
"$G" hash sha256 -c < dash > /dev/null 2> err; check '[ $? -eq 1 ] && grep -q "no properly formatted" err' "'-' in a sums file on stdin"
mkdir dir; same "a directory" sha256 dir two
same "missing names quoted like coreutils" sha256 "it's" 'a c' 'x=y' 'a~' '#a' 'a:b' 'a]b'
# sums-file lines as coreutils reads them: CRLF, leading blanks, a tab, upper-case hex, a bad
# escape, the binary marker, mixed forms, a tight --tag line, a short and a long digest
h=$(sha256sum two | cut -c1-64)
printf '%s  two\r\n' "$h" > l.crlf; printf '  %s  two\n' "$h" > l.lead; printf '%s\ttwo\n' "$h" > l.tab
printf '%s  empty\n' "$(sha256sum empty | cut -c1-64 | tr a-f A-F)" > l.upper
printf '\\%s  tw\\q\n%s  two\n' "$h" "$h" > l.badesc; printf '%s *two\n%s  empty\n' "$h" "$h" > l.bin
printf '%s two\n%s  two\n' "$h" "$h" > l.mixed; printf 'SHA256(two)= %s\n' "$h" > l.tagtight
printf 'SHA256 (two) = %s\n' "${h:0:63}" > l.short; printf '%s  two\n' "${h}00" > l.long
for f in l.crlf l.lead l.tab l.upper l.badesc l.bin l.mixed l.tagtight l.short l.long; do
  cp $f $f.sha256; cmp_check "line form $f" sha256 $f -w
done
# hashing streams: more than the 1 GiB that whole-file reads allow, from a pipe
want=$(head -c 1100M /dev/zero | sha256sum)
got=$(head -c 1100M /dev/zero | "$G" hash sha256)
check '[ "$got" = "$want" ]' "1100 MiB from a pipe, streamed"
# grove(1) documents grove hash ALG with every option of its --help
if [ -n "${MANDIR:-}" ] && [ -f "$MANDIR/grove.1" ]; then man1="$MANDIR/grove.1"; else "$G" help --man > grove.1; man1=grove.1; fi
check 'grep -q "^\.SS \"grove hash ALG \[FILE\]\.\.\.\"" "$man1" && grep -q "^\.B grove hash$" "$man1"' "grove(1): grove hash ALG [FILE]... in SYNOPSIS and COMMANDS"
"$G" hash sha256 --help > help.txt
check 'python3 - "$man1" help.txt <<"PY"
import re, sys
man = open(sys.argv[1]).read().replace("\\-", "-").replace("\\fB", "").replace("\\fR", "").replace("\\fI", "")
sec = man.split(".SS \"grove hash ALG [FILE]...\"", 1)[1].split(".SS ", 1)[0].split(".SH ", 1)[0]
opts = re.findall(r"^  (--[a-z-]+)", open(sys.argv[2]).read(), re.M)
assert len(opts) >= 12, opts
missing = [o for o in opts if not re.search("^" + re.escape(o) + r"\b", sec, re.M)]
assert not missing, missing
PY' "grove(1) lists every option of grove hash's --help"
# the old one-digest command still works
check '[ "$(printf abc | "$G" hash digest --alg SHA-256)" = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" ]' "hash digest with an alias"
exit $fail
