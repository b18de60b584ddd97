/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/slhdsa.h - SLH-DSA (FIPS 205) and SPHINCS+ round 3.1 ("simple"), one engine.
 *
 * A parameter set is chosen at run time by name. FIPS 205 names ("SLH-DSA-SHA2-128s" ...
 * "SLH-DSA-SHAKE-256f") select the FIPS 205 flavour; round-3.1 names
 * ("sphincs-sha2-128s-simple" ... "sphincs-shake-256f-simple") select SPHINCS+ 3.1 (the
 * version inside PQClean, liboqs 0.8-0.12 and the DGSP crate). The two flavours share keys
 * and every hash; they differ in the FORS index bit order, the message framing and opt_rand
 * (see docs/slhdsa.md). A signature of one flavour does not verify in the other.
 *
 * Keys: pk = PK.seed || PK.root (2n bytes); sk = SK.seed || SK.prf || PK.seed || PK.root (4n).
 * Secret keys are plain byte strings owned by the caller: wipe them (grove_wipe) after use.
 * All functions are thread-safe and allocate only internal scratch memory.
 */
#ifndef GROVE_SLHDSA_H
#define GROVE_SLHDSA_H

#include "grove/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest sizes over all 12 sets, for static allocation. */
#define GROVE_SLHDSA_MAX_N         32
#define GROVE_SLHDSA_MAX_PK_BYTES  64
#define GROVE_SLHDSA_MAX_SK_BYTES  128
#define GROVE_SLHDSA_MAX_SIG_BYTES 49856
#define GROVE_SLHDSA_MAX_CTX_BYTES 255

typedef struct grove_slhdsa_params grove_slhdsa_params;

/* Look a parameter set up by name (either naming); NULL if unknown. */
GROVE_API const grove_slhdsa_params *grove_slhdsa_params_get(const char *name);
/* The number of descriptors (24: 12 sets x 2 flavours) and the i-th (NULL past the end). */
GROVE_API size_t grove_slhdsa_params_count(void);
GROVE_API const grove_slhdsa_params *grove_slhdsa_params_at(size_t i);
/* The set's name in its own flavour ("SLH-DSA-SHA2-128s" or "sphincs-sha2-128s-simple"). */
GROVE_API const char *grove_slhdsa_params_name(const grove_slhdsa_params *p);
/* true for the FIPS 205 flavour, false for SPHINCS+ round 3.1 (and NULL). */
GROVE_API bool grove_slhdsa_params_is_fips205(const grove_slhdsa_params *p);
/* The same set in the other flavour (NULL for NULL). */
GROVE_API const grove_slhdsa_params *
grove_slhdsa_params_other_flavour(const grove_slhdsa_params *p);

/* Sizes in bytes (0 for NULL): the hash length n, a public key, a secret key, a signature. */
GROVE_API size_t grove_slhdsa_n(const grove_slhdsa_params *p);
GROVE_API size_t grove_slhdsa_pk_bytes(const grove_slhdsa_params *p);
GROVE_API size_t grove_slhdsa_sk_bytes(const grove_slhdsa_params *p);
GROVE_API size_t grove_slhdsa_sig_bytes(const grove_slhdsa_params *p);

/*
 * Results (grove/common.h): every verify function returns GROVE_OK or GROVE_ERR_VERIFY for any
 * signature that does not verify, including one of the wrong sig_len. Keys and signatures have
 * the fixed sizes above (pk: pk_bytes, sk: sk_bytes, sig: sig_bytes) and take no length.
 * GROVE_ERR_INVALID_ARG for NULL pointers (msg may be NULL when msg_len is 0, ctx when ctx_len
 * is 0) and ctx_len > 255; GROVE_ERR_UNSUPPORTED for a descriptor of the other flavour.
 */

/* ---- key generation (both flavours) ------------------------------------------------------ */

/* Random key pair (3n bytes from grove_randombytes). */
GROVE_API GROVE_MUST_USE grove_status grove_slhdsa_keygen(const grove_slhdsa_params *p, uint8_t *pk,
                                                          uint8_t *sk);

/* slh_keygen_internal: the key pair of (SK.seed, SK.prf, PK.seed), each n bytes. */
GROVE_API GROVE_MUST_USE grove_status grove_slhdsa_keygen_from_seed(const grove_slhdsa_params *p,
                                                                    uint8_t *pk, uint8_t *sk,
                                                                    const uint8_t *sk_seed,
                                                                    const uint8_t *sk_prf,
                                                                    const uint8_t *pk_seed);

/* ---- FIPS 205 (p must be a FIPS 205 descriptor) ----------------------------------------- */

/*
 * Pure SLH-DSA: signs M' = 0x00 || len(ctx) || ctx || msg. ctx_len <= 255. hedged = false gives
 * the deterministic variant (opt_rand = PK.seed), hedged = true draws n fresh random bytes.
 */
GROVE_API GROVE_MUST_USE grove_status grove_slhdsa_sign(const grove_slhdsa_params *p, uint8_t *sig,
                                                        const uint8_t *msg, size_t msg_len,
                                                        const uint8_t *ctx, size_t ctx_len,
                                                        const uint8_t *sk, bool hedged);
GROVE_API GROVE_MUST_USE grove_status grove_slhdsa_verify(const grove_slhdsa_params *p,
                                                          const uint8_t *sig, size_t sig_len,
                                                          const uint8_t *msg, size_t msg_len,
                                                          const uint8_t *ctx, size_t ctx_len,
                                                          const uint8_t *pk);

/* Pre-hash functions of HashSLH-DSA. */
typedef enum grove_slhdsa_prehash {
    GROVE_PREHASH_SHA2_224 = 1,
    GROVE_PREHASH_SHA2_256,
    GROVE_PREHASH_SHA2_384,
    GROVE_PREHASH_SHA2_512,
    GROVE_PREHASH_SHA3_256,
    GROVE_PREHASH_SHA3_512,
    GROVE_PREHASH_SHAKE128, /* 256-bit output */
    GROVE_PREHASH_SHAKE256  /* 512-bit output */
} grove_slhdsa_prehash;

/* Pre-hash by name: "SHA2-256", "SHA2-512", "SHAKE128", "SHAKE256", ... (0 if unknown). */
GROVE_API grove_slhdsa_prehash grove_slhdsa_prehash_get(const char *name);

/* HashSLH-DSA: signs M' = 0x01 || len(ctx) || ctx || OID(ph) || ph(msg). An unknown ph:
 * GROVE_ERR_INVALID_ARG. */
GROVE_API GROVE_MUST_USE grove_status grove_hashslhdsa_sign(const grove_slhdsa_params *p,
                                                            uint8_t *sig, const uint8_t *msg,
                                                            size_t msg_len, const uint8_t *ctx,
                                                            size_t ctx_len, grove_slhdsa_prehash ph,
                                                            const uint8_t *sk, bool hedged);
GROVE_API GROVE_MUST_USE grove_status grove_hashslhdsa_verify(
    const grove_slhdsa_params *p, const uint8_t *sig, size_t sig_len, const uint8_t *msg,
    size_t msg_len, const uint8_t *ctx, size_t ctx_len, grove_slhdsa_prehash ph, const uint8_t *pk);

/*
 * The internal functions (slh_sign_internal / slh_verify_internal), for test vectors: the
 * message is used as given. opt_rand is n bytes. With a round-3.1 descriptor these are exactly
 * SPHINCS+ 3.1 signing (with the given optrand) and verification.
 */
GROVE_API GROVE_MUST_USE grove_status grove_slhdsa_sign_internal(const grove_slhdsa_params *p,
                                                                 uint8_t *sig, const uint8_t *msg,
                                                                 size_t msg_len, const uint8_t *sk,
                                                                 const uint8_t *opt_rand);
GROVE_API GROVE_MUST_USE grove_status
grove_slhdsa_verify_internal(const grove_slhdsa_params *p, const uint8_t *sig, size_t sig_len,
                             const uint8_t *msg, size_t msg_len, const uint8_t *pk);

/* ---- SPHINCS+ round 3.1 (p must be a round-3.1 descriptor) ------------------------------ */

/* Detached signature of the raw message with n fresh random bytes of optrand. */
GROVE_API GROVE_MUST_USE grove_status grove_sphincs_sign(const grove_slhdsa_params *p, uint8_t *sig,
                                                         const uint8_t *msg, size_t msg_len,
                                                         const uint8_t *sk);
GROVE_API GROVE_MUST_USE grove_status grove_sphincs_verify(const grove_slhdsa_params *p,
                                                           const uint8_t *sig, size_t sig_len,
                                                           const uint8_t *msg, size_t msg_len,
                                                           const uint8_t *pk);

#ifdef __cplusplus
}
#endif
#endif
