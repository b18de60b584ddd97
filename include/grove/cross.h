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
 * key is performed, and a signature failing any of them gives GROVE_ERR_VERIFY.
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
GROVE_API const grove_cross_params *grove_cross_params_by_name(const char *name);
/* Number of parameter sets (18) and the i-th of them (NULL when out of range). */
GROVE_API size_t grove_cross_params_count(void);
GROVE_API const grove_cross_params *grove_cross_params_at(size_t i);
/* Canonical name, e.g. "CROSS-RSDPG-3-balanced". */
GROVE_API const char *grove_cross_params_name(const grove_cross_params *p);
/* NIST security category (1, 3 or 5). */
GROVE_API int grove_cross_params_category(const grove_cross_params *p);

/* Sizes in bytes of a public key, a secret key and a signature. */
GROVE_API size_t grove_cross_public_key_bytes(const grove_cross_params *p);
GROVE_API size_t grove_cross_secret_key_bytes(const grove_cross_params *p);
GROVE_API size_t grove_cross_signature_bytes(const grove_cross_params *p);

/* "fast" / "small-memory" (also "small") to a strategy; GROVE_ERR_UNSUPPORTED if unknown. */
GROVE_API int grove_cross_strategy_by_name(const char *name, grove_cross_strategy *out);
GROVE_API const char *grove_cross_strategy_name(grove_cross_strategy s);

/*
 * Key generation from fresh randomness (grove_randombytes). pk_cap and sk_cap must be at least
 * the sizes above. Keygen is the same streaming code for both strategies (< 2 KB of stack).
 */
GROVE_API int grove_cross_keygen(const grove_cross_params *p, uint8_t *pk, size_t pk_cap,
                                 uint8_t *sk, size_t sk_cap);
/* Deterministic key generation: the secret key is the seed (secret_key_bytes long). */
GROVE_API int grove_cross_keygen_from_seed(const grove_cross_params *p, uint8_t *pk,
                                           size_t pk_cap, uint8_t *sk, size_t sk_cap,
                                           const uint8_t *seed, size_t seed_len);

/*
 * Sign msg: writes exactly grove_cross_signature_bytes(p) bytes to sig (sig_cap must be at
 * least that). Randomness (a root seed and a salt) comes from grove_randombytes.
 */
GROVE_API int grove_cross_sign(const grove_cross_params *p, grove_cross_strategy s, uint8_t *sig,
                               size_t sig_cap, const uint8_t *msg, size_t msg_len,
                               const uint8_t *sk, size_t sk_len);

/*
 * Verify: GROVE_OK if sig is a valid signature of msg under pk, GROVE_ERR_VERIFY if not
 * (including bad padding and out-of-range values), GROVE_ERR_ENCODING if sig_len or pk_len is
 * not the size of the parameter set.
 */
GROVE_API int grove_cross_verify(const grove_cross_params *p, grove_cross_strategy s,
                                 const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                                 size_t msg_len, const uint8_t *pk, size_t pk_len);

/*
 * NIST-style attached signatures: sm = msg || signature. sign_attached writes msg_len +
 * signature_bytes bytes to sm (sm may not overlap msg). open checks sm and copies the message
 * to msg (msg_cap >= sm_len - signature_bytes); on failure *msg_len is 0 and msg is zeroed.
 */
GROVE_API int grove_cross_sign_attached(const grove_cross_params *p, grove_cross_strategy s,
                                        uint8_t *sm, size_t sm_cap, size_t *sm_len,
                                        const uint8_t *msg, size_t msg_len, const uint8_t *sk,
                                        size_t sk_len);
GROVE_API int grove_cross_open(const grove_cross_params *p, grove_cross_strategy s, uint8_t *msg,
                               size_t msg_cap, size_t *msg_len, const uint8_t *sm, size_t sm_len,
                               const uint8_t *pk, size_t pk_len);

/*
 * Caller-provided working memory (e.g. a static buffer on a microcontroller): the number of
 * bytes an operation needs, and sign/verify using ws instead of a heap block for their large
 * buffers. ws must be 8-byte aligned (else GROVE_ERR_INVALID_ARG); a smaller ws_len gives
 * GROVE_ERR_BUFFER_TOO_SMALL. The functions above allocate exactly this amount on the heap.
 */
GROVE_API size_t grove_cross_workspace_bytes(const grove_cross_params *p, grove_cross_strategy s,
                                             grove_cross_op op);
GROVE_API int grove_cross_sign_ws(const grove_cross_params *p, grove_cross_strategy s,
                                  uint8_t *sig, size_t sig_cap, const uint8_t *msg,
                                  size_t msg_len, const uint8_t *sk, size_t sk_len, void *ws,
                                  size_t ws_len);
GROVE_API int grove_cross_verify_ws(const grove_cross_params *p, grove_cross_strategy s,
                                    const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                                    size_t msg_len, const uint8_t *pk, size_t pk_len, void *ws,
                                    size_t ws_len);

#ifdef __cplusplus
}
#endif
#endif
