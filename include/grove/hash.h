/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/hash.h - the hash functions grove is built on: SHA-224/256/384/512 (FIPS 180-4),
 * SHA3-256/512 and SHAKE128/256 (FIPS 202), with the same SIMD kernels the signature schemes
 * use (grove_cpu_path() names them). Follows the contract in grove/common.h.
 *
 * One-shot functions hash a whole input. The incremental interface hashes input given in
 * pieces: grove_hash_init, any number of grove_hash_update calls, then grove_hash_final. A
 * grove_hash_ctx is a plain struct of fixed size (its content is private); it may be copied
 * to hash several inputs that share a prefix. None of these functions allocates.
 */
#ifndef GROVE_HASH_H
#define GROVE_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "grove/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- one-shot ----------------------------------------------------------------------------- */

GROVE_API void grove_sha224(uint8_t out[28], const uint8_t *in, size_t in_len);
GROVE_API void grove_sha256(uint8_t out[32], const uint8_t *in, size_t in_len);
GROVE_API void grove_sha384(uint8_t out[48], const uint8_t *in, size_t in_len);
GROVE_API void grove_sha512(uint8_t out[64], const uint8_t *in, size_t in_len);
GROVE_API void grove_sha3_256(uint8_t out[32], const uint8_t *in, size_t in_len);
GROVE_API void grove_sha3_512(uint8_t out[64], const uint8_t *in, size_t in_len);
/* The extendable-output functions write out_len bytes (any length). */
GROVE_API void grove_shake128(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
GROVE_API void grove_shake256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);

/* ---- incremental -------------------------------------------------------------------------- */

typedef enum grove_hash_alg {
    GROVE_HASH_SHA224 = 1,
    GROVE_HASH_SHA256,
    GROVE_HASH_SHA384,
    GROVE_HASH_SHA512,
    GROVE_HASH_SHA3_256,
    GROVE_HASH_SHA3_512,
    GROVE_HASH_SHAKE128,
    GROVE_HASH_SHAKE256
} grove_hash_alg;

/* The state of an incremental hash; its size is part of the ABI, its content is private. */
typedef struct grove_hash_ctx {
    uint64_t opaque[32];
} grove_hash_ctx;

/* Start hashing with alg: GROVE_ERR_INVALID_ARG for a NULL ctx, GROVE_ERR_UNSUPPORTED for an
 * unknown alg. */
GROVE_API GROVE_MUST_USE grove_status grove_hash_init(grove_hash_ctx *ctx, grove_hash_alg alg);

/* Absorb in_len more bytes (in may be NULL when in_len is 0). On a context that was never
 * initialised or is finalised it does nothing, and grove_hash_final then fails. */
GROVE_API void grove_hash_update(grove_hash_ctx *ctx, const uint8_t *in, size_t in_len);

/*
 * Write the digest: out_len must be grove_hash_digest_bytes(alg), or any length for SHAKE128
 * and SHAKE256 (else GROVE_ERR_INVALID_ARG, nothing written). The context is wiped; init it
 * again to reuse it (a finalised context is GROVE_ERR_INVALID_ARG).
 */
GROVE_API GROVE_MUST_USE grove_status grove_hash_final(grove_hash_ctx *ctx, uint8_t *out,
                                                       size_t out_len);

/* One call: init, update with in, final. */
GROVE_API GROVE_MUST_USE grove_status grove_hash(grove_hash_alg alg, uint8_t *out, size_t out_len,
                                                 const uint8_t *in, size_t in_len);

/* The digest length of alg in bytes; 0 for SHAKE128/SHAKE256 (any length) and unknown algs. */
GROVE_API size_t grove_hash_digest_bytes(grove_hash_alg alg);

/* The name of alg as `grove hash ALG` and `grove hash digest --alg` take it ("sha256",
 * "sha3-512", "shake128", ...), NULL if alg is unknown. */
GROVE_API const char *grove_hash_alg_name(grove_hash_alg alg);

/* The algorithm of that name: grove_hash_alg_name's spelling or a common alias, in any case
 * ("SHA-256", "SHA2-256", "sha2_256", "SHA3_256", "SHAKE-128", ...). GROVE_ERR_UNSUPPORTED if
 * unknown, GROVE_ERR_INVALID_ARG for NULL pointers. */
GROVE_API GROVE_MUST_USE grove_status grove_hash_alg_from_name(const char *name,
                                                               grove_hash_alg *alg);

#ifdef __cplusplus
}
#endif
#endif
