#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Resource limits: oversized files (sparse, so the test is cheap), absurd counts and lengths are
# refused quickly with exit 2 and a clear message, under a 3 GiB address-space limit so that
# allocating anything near the input's size would fail the test.
set -u
G="${GROVE:?}"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export GROVE_STATE_DIR=$d/state
# schemes this build has (DGSP and STM are optional components)
has() { "$G" help 2>/dev/null | grep -q "^  $1 "; }
# (not under AddressSanitizer, which reserves terabytes of address space for its shadow)
[ -z "${GROVE_SANITIZED:-}" ] && ulimit -v $((3 * 1024 * 1024))
truncate -s 8G $d/huge          # larger than every input limit
truncate -s 1100M $d/big        # over the 1 GiB message limit
printf 'm' > $d/m

"$G" slhdsa keygen --params shake-128f --pk $d/pk --sk $d/sk >/dev/null
"$G" slhdsa sign --sk $d/sk --msg $d/m --sig $d/sig >/dev/null
out=$("$G" slhdsa verify --pk $d/pk --msg $d/m --sig $d/huge 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "too large"' "SLH-DSA: 8 GiB signature file refused (rc=$rc: $out)"
out=$("$G" slhdsa verify --pk $d/pk --msg $d/big --sig $d/sig 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "too large"' "SLH-DSA: 1.1 GiB message refused (rc=$rc)"
out=$("$G" slhdsa verify --pk $d/huge --msg $d/m --sig $d/sig 2>&1); rc=$?
check '[ $rc -eq 2 ]' "SLH-DSA: 8 GiB public key refused (rc=$rc)"
out=$(head -c 1100M /dev/zero | "$G" hash digest --alg sha256 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "too large"' "piped input over the limit refused (rc=$rc)"
# the same with too little memory to grow the buffer to the limit (a 32-bit address space):
# still "too large", not "out of memory"
if [ -z "${GROVE_SANITIZED:-}" ]; then
  out=$(head -c 1100M /dev/zero | (ulimit -v $((900 * 1024)); "$G" hash digest --alg sha256) 2>&1); rc=$?
  check '[ $rc -eq 2 ] && echo "$out" | grep -q "too large"' "piped input over the limit, memory short: refused as too large (rc=$rc: $out)"
fi

"$G" cross keygen --params CROSS-RSDP-1-fast --pk $d/cpk --sk $d/csk >/dev/null
out=$("$G" cross verify --pk $d/cpk --msg $d/m --sig $d/huge 2>&1); rc=$?
check '[ $rc -eq 2 ] && echo "$out" | grep -q "too large"' "CROSS: 8 GiB signature file refused (rc=$rc)"

out=$("$G" xmss verify --pk $d/huge --msg $d/m --sig $d/sig 2>&1); rc=$?
check '[ $rc -eq 2 ]' "XMSS: 8 GiB public key refused (rc=$rc)"
out=$("$G" xmss sign --sk $d/huge --msg $d/m --sig $d/xsig --no-registry 2>&1); rc=$?
check '[ $rc -eq 2 ] || [ $rc -eq 3 ]' "XMSS: 8 GiB key file refused (rc=$rc)"

mkdir $d/grp && cd $d
if has dgsp; then
"$G" dgsp manager init --group g --params sha2-128f >/dev/null
"$G" dgsp manager join --group g --username u --out u.cred >/dev/null
"$G" dgsp member init --wallet w --credential u.cred >/dev/null
for n in -1 0 18446744073709551616 99999999999 1e9 0x10; do
  out=$("$G" dgsp member csr --wallet w --count "$n" --out c.csr 2>&1); rc=$?
  check '[ $rc -eq 2 ] && [ ! -e c.csr ]' "DGSP: csr --count $n refused (rc=$rc)"
done
out=$("$G" dgsp manager cert --group g --csr $d/huge --out x.certs 2>&1); rc=$?
check '[ $rc -eq 2 ] && [ ! -e x.certs ]' "DGSP: 8 GiB CSR refused (rc=$rc)"
out=$("$G" dgsp member import-certs --wallet w --certs $d/huge 2>&1); rc=$?
check '[ $rc -eq 2 ]' "DGSP: 8 GiB certificate file refused (rc=$rc)"
out=$("$G" dgsp verify --pk g/manager.pub --msg m --sig $d/huge 2>&1); rc=$?
check '[ $rc -eq 2 ] || [ $rc -eq 1 ]' "DGSP: 8 GiB signature refused (rc=$rc)"
out=$("$G" dgsp manager join --group g --username "$(head -c 300 /dev/zero | tr '\0' a)" --out v.cred 2>&1); rc=$?
check '[ $rc -eq 2 ] && [ ! -e v.cred ]' "DGSP: 300-byte username refused (rc=$rc)"
"$G" dgsp member csr --wallet w --count 1 --out ok.csr >/dev/null
out=$("$G" dgsp manager cert --group g --csr ok.csr --threads 100000 --out y 2>&1); rc=$?
check '[ $rc -eq 2 ] && [ ! -e y ] && echo "$out" | grep -qi thread' "DGSP: --threads 100000 refused (rc=$rc: $out)"
fi
out=$("$G" slhdsa sign --sk $d/sk --msg $d/m --sig $d/s2 --ctx "$(printf '%0600d' 0)" 2>&1); rc=$?
check '[ $rc -eq 2 ]' "SLH-DSA: 300-byte context refused (rc=$rc)"

# Inputs that are not regular files (devices, pipes) are read only up to the object's own
# maximum size: /dev/zero as a key, a signature or an STM file fails fast with a small peak RSS.
peak() { python3 -c 'import resource,subprocess,sys; r=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL).returncode; print(r, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"; }
small() { # exit code 2 and a peak RSS under 64 MiB (ru_maxrss is in KiB)
  set -- $1; [ "$1" -eq 2 ] && [ "$2" -lt 65536 ]; }
if has stm; then
"$G" stm setup --m 60 --k 12 --phi-f 0.5 --out $d/stm.p >/dev/null
"$G" stm keygen --sk $d/stm.sk --pk $d/stm.vk --seed "$(printf '%064x' 1)" >/dev/null
printf '10 %s\n' $d/stm.vk > $d/parties
"$G" stm register --parties $d/parties --out $d/closed --avk $d/avk >/dev/null
printf 'm' | "$G" stm sign --params $d/stm.p --sk $d/stm.sk --closed $d/closed --sig $d/stm.sig >/dev/null
# a pipe whose envelope header announces a 1 GiB secret key: read no further than a key's size
r=$( (printf 'GRVE\001\001\003STM\000\012SECRET KEY\001\002\003\004\005\006\007\010\100\000\000\000'; cat /dev/zero) |
     peak "$G" stm sign --params $d/stm.p --sk - --closed $d/closed --msg $d/m --sig $d/zsig)
check 'small "$r"' "STM: a piped secret key announcing 1 GiB (exit code, peak KiB: $r)"
fi
while read -r what; do
  case "$what" in stm\ *) has stm || continue ;; esac
  r=$(peak "$G" $what </dev/null)
  check 'small "$r"' "/dev/zero input: $what (exit code, peak KiB: $r)"
done <<EOF
slhdsa verify --pk /dev/zero --msg $d/m --sig $d/sig
slhdsa verify --pk $d/pk --msg $d/m --sig /dev/zero
slhdsa sign --sk /dev/zero --msg $d/m --sig $d/zsig
sphincs verify --pk $d/pk --msg $d/m --sig /dev/zero
cross verify --pk /dev/zero --msg $d/m --sig $d/sig
cross verify --pk $d/cpk --msg $d/m --sig /dev/zero
cross sign --sk /dev/zero --msg $d/m --sig $d/zsig
stm info /dev/zero
stm sign --params $d/stm.p --sk /dev/zero --closed $d/closed --msg $d/m --sig $d/zsig
stm sign --params /dev/zero --sk $d/stm.sk --closed $d/closed --msg $d/m --sig $d/zsig
stm verify-sig --params $d/stm.p --closed /dev/zero --msg $d/m --sig $d/stm.sig
stm verify-sig --params $d/stm.p --closed $d/closed --msg $d/m --sig /dev/zero
stm verify --params $d/stm.p --avk /dev/zero --msg $d/m --sig $d/stm.sig
stm verify --params $d/stm.p --avk $d/avk --msg $d/m --sig /dev/zero
stm import --format raw --params /dev/zero --out $d/zp
stm import --format json --avk /dev/zero --out $d/zp
stm import --format raw --sk /dev/zero --out $d/zp
EOF
r=$(head -c 300M /dev/zero | peak "$G" cross verify --pk $d/cpk --msg $d/m --sig -)
check 'small "$r"' "a 300 MB pipe as a CROSS signature (exit code, peak KiB: $r)"
check '[ ! -e $d/zsig ]' "nothing was signed with /dev/zero as a key"
check '[ ! -e $d/zp ]' "STM: nothing imported from /dev/zero"
[ $fail -eq 0 ] && echo "resource limits: all checks passed"
exit $fail
