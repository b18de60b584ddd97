/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/cross.h - CROSS code-based signatures (spec version 2.2, all 18 parameter sets).
 *
 * CROSS signs with a zero-knowledge identification protocol on the restricted syndrome decoding
 * problem (RSDP, p = 127) or its subgroup variant (RSDP-G, p = 509), made non-interactive with
 * Fiat-Shamir. grove's outputs are byte-identical to the v2.2 reference implementation (KATs).
 *
 * Parameter sets are chosen at run time by name:
 *   CROSS-RSDP-<1|3|5>-<fast|balanced|small>  and  CROSS-RSDPG-<1|3|5>-<fast|balanced|small>
 * The spellings CROSS-RSDP-G-1-fast, cross-rsdpg-1-fast and cross-rsdpg-128-fast (liboqs) are
 * accepted too; case does not matter.
 *
 * Two execution strategies give byte-identical results:
 *   GROVE_CROSS_FAST          (default) keeps per-round data in memory: fastest, several
 *                             hundred KB of working memory for the large sets;
 *   GROVE_CROSS_SMALL_MEMORY  streams: recomputes round data instead of storing it, builds the
 *                             seed and Merkle trees without storing them, uses the signature
 *                             buffer as scratch while signing. Needs a few KB to ~100 KB.
 * grove_cross_sign/verify allocate one heap block of grove_cross_workspace_bytes per call
 * (GROVE_ERR_NOMEM if that fails) and wipe it; the *_ws functions use the caller's buffer and
 * allocate nothing. Either way the library's own stack stays under 8 KB. The secret key is a
 * single seed of 2*lambda/8 bytes.
 *
 * Verification never aborts: every padding and range check of the signature and the public
 * key is performed; a signature failing any of them gives GROVE_ERR_VERIFY, a public key
 * failing them GROVE_ERR_ENCODING (grove/common.h). Keys and signatures have the fixed sizes
 * of the set (grove_cross_pk_bytes/_sk_bytes/_sig_bytes), so they take no length arguments,
 * except a signature being verified (sig_len).
 */
#ifndef GROVE_CROSS_H
#define GROVE_CROSS_H

#include <stddef.h>
#include <stdint.h>

#include "grove/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A parameter set (static, never freed). */
typedef struct grove_cross_params grove_cross_params;

typedef enum grove_cross_strategy {
    GROVE_CROSS_FAST = 0,
    GROVE_CROSS_SMALL_MEMORY = 1
} grove_cross_strategy;

typedef enum grove_cross_op {
    GROVE_CROSS_OP_KEYGEN = 0,
    GROVE_CROSS_OP_SIGN = 1,
    GROVE_CROSS_OP_VERIFY = 2
} grove_cross_op;

/* The parameter set of a name (see above), or NULL if unknown. */
GROVE_API const grove_cross_params *grove_cross_params_get(const char *name);
/* Number of parameter sets (18) and the i-th of them (NULL when out of range). */
GROVE_API size_t grove_cross_params_count(void);
GROVE_API const grove_cross_params *grove_cross_params_at(size_t i);
/* Canonical name, e.g. "CROSS-RSDPG-3-balanced" (NULL for NULL). */
GROVE_API const char *grove_cross_params_name(const grove_cross_params *p);
/* NIST security category (1, 3 or 5; 0 for NULL). */
GROVE_API int grove_cross_params_category(const grove_cross_params *p);

/* Sizes in bytes of a public key, a secret key (the seed) and a signature (0 for NULL). */
GROVE_API size_t grove_cross_pk_bytes(const grove_cross_params *p);
GROVE_API size_t grove_cross_sk_bytes(const grove_cross_params *p);
GROVE_API size_t grove_cross_sig_bytes(const grove_cross_params *p);

/* "fast" / "small-memory" (also "small") to *s; GROVE_ERR_UNSUPPORTED if unknown. */
GROVE_API GROVE_MUST_USE grove_status grove_cross_strategy_get(grove_cross_strategy *s,
                                                               const char *name);
GROVE_API const char *grove_cross_strategy_name(grove_cross_strategy s);

/*
 * Key generation from fresh randomness (grove_randombytes): pk receives pk_bytes(p) bytes, sk
 * sk_bytes(p). Keygen is the same streaming code for both strategies (< 2 KB of stack).
 */
GROVE_API GROVE_MUST_USE grove_status grove_cross_keygen(const grove_cross_params *p, uint8_t *pk,
                                                         uint8_t *sk);
/* Deterministic key generation: the secret key is the seed (sk_bytes(p) bytes, copied to sk;
 * seed may equal sk). */
GROVE_API GROVE_MUST_USE grove_status grove_cross_keygen_from_seed(const grove_cross_params *p,
                                                                   uint8_t *pk, uint8_t *sk,
                                                                   const uint8_t *seed);

/*
 * Sign msg: writes exactly grove_cross_sig_bytes(p) bytes to sig. sk is sk_bytes(p) long.
 * Randomness (a root seed and a salt) comes from grove_randombytes.
 */
GROVE_API GROVE_MUST_USE grove_status grove_cross_sign(const grove_cross_params *p,
                                                       grove_cross_strategy s, uint8_t *sig,
                                                       const uint8_t *msg, size_t msg_len,
                                                       const uint8_t *sk);

/*
 * Verify: GROVE_OK if sig is a valid signature of msg under pk (pk_bytes(p) long);
 * GROVE_ERR_VERIFY if not, whatever the reason: a wrong sig_len, bad padding or out-of-range
 * values in the signature, or a wrong signature. GROVE_ERR_ENCODING only if the public key is
 * malformed (its syndrome has out-of-range values or non-zero padding).
 */
GROVE_API GROVE_MUST_USE grove_status grove_cross_verify(const grove_cross_params *p,
                                                         grove_cross_strategy s, const uint8_t *sig,
                                                         size_t sig_len, const uint8_t *msg,
                                                         size_t msg_len, const uint8_t *pk);

/*
 * NIST-style attached signatures: sm = msg || signature. sign_attached writes msg_len +
 * sig_bytes(p) bytes to sm (capacity sm_cap; sm may not overlap msg) and sets *sm_len; a short
 * sm_cap gives GROVE_ERR_BUFFER_TOO_SMALL with *sm_len set to the length needed. open checks
 * sm and copies the message to msg (capacity msg_cap; if short: GROVE_ERR_BUFFER_TOO_SMALL,
 * *msg_len = the length needed, nothing written). An sm shorter than a signature or one that
 * does not verify gives GROVE_ERR_VERIFY, *msg_len = 0 and msg untouched.
 */
GROVE_API GROVE_MUST_USE grove_status grove_cross_sign_attached(const grove_cross_params *p,
                                                                grove_cross_strategy s, uint8_t *sm,
                                                                size_t sm_cap, size_t *sm_len,
                                                                const uint8_t *msg, size_t msg_len,
                                                                const uint8_t *sk);
GROVE_API GROVE_MUST_USE grove_status grove_cross_open(const grove_cross_params *p,
                                                       grove_cross_strategy s, uint8_t *msg,
                                                       size_t msg_cap, size_t *msg_len,
                                                       const uint8_t *sm, size_t sm_len,
                                                       const uint8_t *pk);

/*
 * Caller-provided working memory (e.g. a static buffer on a microcontroller): the number of
 * bytes an operation needs (0 for NULL, an unknown strategy or GROVE_CROSS_OP_KEYGEN, which
 * needs none), and sign/verify using ws instead of a heap block for their large buffers. ws
 * must be 8-byte aligned (else GROVE_ERR_INVALID_ARG); a smaller ws_len gives
 * GROVE_ERR_BUFFER_TOO_SMALL. The functions above allocate exactly this amount on the heap.
 */
GROVE_API size_t grove_cross_workspace_bytes(const grove_cross_params *p, grove_cross_strategy s,
                                             grove_cross_op op);
GROVE_API GROVE_MUST_USE grove_status grove_cross_sign_ws(const grove_cross_params *p,
                                                          grove_cross_strategy s, uint8_t *sig,
                                                          const uint8_t *msg, size_t msg_len,
                                                          const uint8_t *sk, void *ws,
                                                          size_t ws_len);
GROVE_API GROVE_MUST_USE grove_status grove_cross_verify_ws(
    const grove_cross_params *p, grove_cross_strategy s, const uint8_t *sig, size_t sig_len,
    const uint8_t *msg, size_t msg_len, const uint8_t *pk, void *ws, size_t ws_len);

#ifdef __cplusplus
}
#endif
#endif
