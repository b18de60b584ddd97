/*
 * The vector kinds grove-vectors knows. One line each: X(name, function, description).
 * Each function lives in its own file (kind_<area>.c).
 */
#ifndef GROVE_VECTORS_KINDS_H
#define GROVE_VECTORS_KINDS_H

#include "runner.h"

#define GROVE_VECTOR_KINDS(X)                                                               \
    X("hash", vec_kind_hash, "hash known answers: {\"hash_tests\":[{alg,msg,out}]}")        \
    X("bls12381", vec_kind_bls12381,                                                        \
      "BLS12-381: RFC 9380 hash-to-curve/expand_message, Ethereum BLS, Mithril empty DST")

#define GROVE_DECLARE_KIND(name, fn, desc) int fn(json_t *root, vec_report *r);
GROVE_VECTOR_KINDS(GROVE_DECLARE_KIND)
#undef GROVE_DECLARE_KIND

#endif
