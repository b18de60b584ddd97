/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/sig.h - one API for every stateless signature algorithm in grove, chosen by name at
 * run time: the 12 SLH-DSA sets (FIPS 205, pure, empty context, hedged), the 12 SPHINCS+
 * round-3.1 sets, the 18 CROSS sets (fast strategy) and BLS12-381 in its two variants
 * (proof-of-possession ciphersuites). Names are those `grove <scheme> params` prints
 * ("SLH-DSA-SHA2-128f", "sphincs-shake-256f-simple", "CROSS-RSDP-1-fast", "BLS12-381-min-pk").
 *
 *     const grove_sig_alg *a = grove_sig_alg_get("SLH-DSA-SHAKE-128f");
 *     uint8_t *pk = malloc(grove_sig_pk_bytes(a)), *sk = malloc(grove_sig_sk_bytes(a));
 *     grove_sig_keygen(a, pk, sk);
 *     grove_sig_sign(a, sig, grove_sig_sig_bytes(a), &sig_len, msg, msg_len, sk);
 *     if (grove_sig_verify(a, sig, sig_len, msg, msg_len, pk) == GROVE_OK) ...
 *
 * Options that belong to one scheme (SLH-DSA contexts and pre-hash, CROSS strategies, BLS
 * domain tags) are in that scheme's header. Stateful XMSS keys are not here: they sign only
 * through grove/xmss.h's key objects, which persist their state before releasing a signature.
 * Results follow grove/common.h: GROVE_OK; GROVE_ERR_VERIFY for any signature that does not
 * verify, including one of the wrong length or a malformed encoding; GROVE_ERR_ENCODING only
 * for a malformed public key (CROSS: out-of-range syndrome values or non-zero padding);
 * GROVE_ERR_INVALID_ARG for NULL pointers (msg may be NULL when msg_len is 0);
 * GROVE_ERR_BUFFER_TOO_SMALL when sig_cap is short (then *sig_len = the length needed and
 * nothing is written).
 * The caller owns every buffer; wipe secret keys with grove_wipe when done.
 */
#ifndef GROVE_SIG_H
#define GROVE_SIG_H

#include <stddef.h>
#include <stdint.h>

#include "grove/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grove_sig_alg grove_sig_alg;

/* The algorithms, in a fixed order: grove_sig_alg_at(0 .. count-1); NULL past the end. */
GROVE_API size_t grove_sig_alg_count(void);
GROVE_API const grove_sig_alg *grove_sig_alg_at(size_t i);
/* By name (exact, case-sensitive); NULL if unknown. */
GROVE_API const grove_sig_alg *grove_sig_alg_get(const char *name);
GROVE_API const char *grove_sig_alg_name(const grove_sig_alg *a);

/* Sizes in bytes (0 for NULL). sig_bytes is the largest signature the algorithm makes. */
GROVE_API size_t grove_sig_pk_bytes(const grove_sig_alg *a);
GROVE_API size_t grove_sig_sk_bytes(const grove_sig_alg *a);
GROVE_API size_t grove_sig_sig_bytes(const grove_sig_alg *a);

/* A fresh key pair from the system's randomness: pk_bytes and sk_bytes bytes. */
GROVE_API GROVE_MUST_USE grove_status grove_sig_keygen(const grove_sig_alg *a, uint8_t *pk,
                                                       uint8_t *sk);

/* Sign msg: the signature goes to sig (sig_cap bytes available), its length to *sig_len
 * (0 on any failure but GROVE_ERR_BUFFER_TOO_SMALL). */
GROVE_API GROVE_MUST_USE grove_status grove_sig_sign(const grove_sig_alg *a, uint8_t *sig,
                                                     size_t sig_cap, size_t *sig_len,
                                                     const uint8_t *msg, size_t msg_len,
                                                     const uint8_t *sk);

/* GROVE_OK if sig is a valid signature of msg under pk, else GROVE_ERR_VERIFY (see above). */
GROVE_API GROVE_MUST_USE grove_status grove_sig_verify(const grove_sig_alg *a, const uint8_t *sig,
                                                       size_t sig_len, const uint8_t *msg,
                                                       size_t msg_len, const uint8_t *pk);

#ifdef __cplusplus
}
#endif
#endif
