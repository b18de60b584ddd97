/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The vector kinds grove-vectors knows. One line each: X(name, function, description).
 * Each function lives in its own file (kind_<area>.c).
 */
#ifndef GROVE_VECTORS_KINDS_H
#define GROVE_VECTORS_KINDS_H

#include "grove/config.h"
#include "runner.h"

#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
#define GROVE_KIND_DGSP(X) \
    X("dgsp", vec_kind_dgsp, "DGSP interoperability vectors (../shared/vectors/dgsp, dgsp-grove)")
#else
#define GROVE_KIND_DGSP(X)
#endif
#if GROVE_HAVE_STM
#define GROVE_KIND_STM(X) \
    X("stm", vec_kind_stm, "Mithril STM: keys, Merkle, lottery, signatures, aggregates (../shared/vectors/stm)") \
    X("stm-cbor", vec_kind_stm_cbor, "mithril-stm 0.11.3's CBOR v1 and legacy bytes (../shared/vectors/stm-cbor)")
#else
#define GROVE_KIND_STM(X)
#endif

#define GROVE_VECTOR_KINDS(X)                                                               \
    X("hash", vec_kind_hash, "hash known answers: {\"hash_tests\":[{alg,msg,out}]}")        \
    X("sphincs-kat", vec_kind_sphincs_kat, "SPHINCS+ round-3.1 NIST KATs (../shared/vectors/sphincs)") \
    X("slhdsa", vec_kind_slhdsa, "FIPS 205 ACVP and external-interface cases (../shared/vectors/slhdsa)") \
    GROVE_KIND_DGSP(X)                                                                      \
    X("cross", vec_kind_cross, "CROSS v2.2 KATs: {variant, kat_sha256, entries:[{seed,msg,pk,sk,sm}]}") \
    X("xmss", vec_kind_xmss, "XMSS / XMSS^MT known answers (../shared/vectors/xmss)") \
    X("bls12381", vec_kind_bls12381,                                                        \
      "BLS12-381: RFC 9380 hash-to-curve/expand_message, Ethereum BLS, Mithril empty DST") \
    GROVE_KIND_STM(X)

#define GROVE_DECLARE_KIND(name, fn, desc) int fn(json_t *root, vec_report *r);
GROVE_VECTOR_KINDS(GROVE_DECLARE_KIND)
#undef GROVE_DECLARE_KIND

#endif
