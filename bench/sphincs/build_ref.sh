#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# bench/sphincs/build_ref.sh SRC OUT: builds the SPHINCS+ reference drivers bench/compare.sh runs
# (SPHINCSPLUS_DIR=OUT) from a checkout SRC of github.com/sphincs/sphincsplus (its ref, shake-avx2
# and sha2-avx2 folders, THASH=simple). It downloads nothing; keep SRC and OUT outside the
# repository. OUT/ref/<set>: ref -O3 (plain x86-64); OUT/ref-v3/<set>: ref -O3 -march=x86-64-v3;
# OUT/avx2-v3/<set>: the AVX2 code, -O3 -march=x86-64-v3 (plain AVX2); OUT/avx2-native/<set>: the
# AVX2 code, -O3 -march=native (the reference Makefile's flags). SETS and FLAVOURS select.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 SPHINCSPLUS_CHECKOUT OUT" >&2; exit 2; }
SRC=$(cd "$1" && pwd)
FLAVOURS=${FLAVOURS:-ref ref-v3 avx2-v3 avx2-native}
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
DRIVER=$(cd "$(dirname "$0")" && pwd)/ref_driver.c
CC=${CC:-gcc}
for set in ${SETS:-shake-128f sha2-128f shake-128s sha2-128s shake-256f sha2-256f}; do
  R="address.c randombytes.c merkle.c wots.c wotsx1.c utils.c utilsx1.c fors.c sign.c"
  case $set in
    shake-*)
      avx=shake-avx2
      R="$R fips202.c hash_shake.c thash_shake_simple.c"
      A="hash_shake.c hash_shakex4.c thash_shake_simple.c thash_shake_simplex4.c address.c
         randombytes.c merkle.c wots.c utils.c utilsx4.c fors.c sign.c fips202.c fips202x4.c
         keccak4x/KeccakP-1600-times4-SIMD256.c" ;;
    sha2-*)
      avx=sha2-avx2
      R="$R sha2.c hash_sha2.c thash_sha2_simple.c"
      A="hash_sha2.c hash_sha2x8.c thash_sha2_simple.c thash_sha2_simplex8.c sha2.c sha256x8.c
         sha512x4.c sha256avx.c address.c randombytes.c merkle.c wots.c utils.c utilsx8.c
         fors.c sign.c" ;;
    *) echo "unknown set $set" >&2; exit 2 ;;
  esac
  for f in $FLAVOURS; do
    mkdir -p "$OUT/$f"
    case $f in
      ref) (cd "$SRC/ref" && $CC -O3 -std=c99 -DPARAMS="sphincs-$set" -I. -o "$OUT/$f/$set" $R "$DRIVER") ;;
      ref-v3) (cd "$SRC/ref" && $CC -O3 -std=c99 -march=x86-64-v3 -DPARAMS="sphincs-$set" -I. \
                 -o "$OUT/$f/$set" $R "$DRIVER") ;;
      avx2-v3|avx2-native)
        m=x86-64-v3; [ "$f" = avx2-v3 ] || m=native
        (cd "$SRC/$avx" && $CC -O3 -std=c99 -march=$m -fomit-frame-pointer -flto -w \
           -DPARAMS="sphincs-$set" -I. -o "$OUT/$f/$set" $A "$DRIVER") ;;
      *) echo "unknown flavour $f" >&2; exit 2 ;;
    esac
  done
  echo "built $set"
done
