/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/bls12_381.h - the BLS12-381 pairing-friendly curve and BLS signatures.
 *
 * Two layers:
 *  1. Groups and pairing: points of G1 (over Fp, 48-byte compressed encoding) and G2 (over
 *     Fp2, 96 bytes), the optimal ate pairing into GT, multi-scalar multiplication, RFC 9380
 *     hashing to either group with any domain separation tag (DST), including the empty one.
 *  2. BLS signatures (IETF draft-irtf-cfrg-bls-signature) in both variants:
 *       GROVE_BLS_MIN_SIG: signatures in G1 (48 bytes), public keys in G2 (96 bytes) - Mithril;
 *       GROVE_BLS_MIN_PK:  public keys in G1 (48 bytes), signatures in G2 (96 bytes) - Ethereum.
 *     The DST is always the caller's choice (GROVE_BLS_DST_* below for the IETF POP suites;
 *     Mithril signs with the empty DST).
 *
 * Encodings are ZCash's: big-endian x (for G2: x.c1 then x.c0), with the three top bits of the
 * first byte as flags 0x80 compressed, 0x40 infinity, 0x20 "y is the larger root". Decoding
 * checks everything: length, flags, canonical coordinates (< p), the curve equation and, unless
 * told otherwise, membership in the prime-order subgroup. A malformed point is
 * GROVE_ERR_ENCODING where it is a key or a point to decode, GROVE_ERR_VERIFY where it is the
 * signature or proof of a verify function (grove/common.h).
 *
 * Secret keys are handled in constant time (key generation, scalar multiplication with a
 * secret key, signing) and live in grove_bls_sk, which the caller wipes with
 * grove_bls_sk_wipe(). Everything that takes only public data (verification, hashing of
 * public messages, decoding, MSM with public scalars) runs in variable time.
 *
 * Point types are plain fixed-size values (copy them freely); their contents are private.
 * Scalars for the public multiplications are little-endian byte strings of any length up to 64
 * bytes (e.g. the 16-byte Blake2b outputs Mithril uses). All functions are thread-safe.
 *
 * Argument order (grove/common.h): the variant first, then the outputs, then the inputs
 * (message before keys, the DST last); encoders take the point or key first.
 */
#ifndef GROVE_BLS12_381_H
#define GROVE_BLS12_381_H

#include "grove/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GROVE_BLS_SK_BYTES 32               /* secret key: big-endian scalar < r       */
#define GROVE_BLS_G1_BYTES 48               /* compressed G1 point                      */
#define GROVE_BLS_G1_UNCOMPRESSED_BYTES 96
#define GROVE_BLS_G2_BYTES 96               /* compressed G2 point                      */
#define GROVE_BLS_G2_UNCOMPRESSED_BYTES 192
#define GROVE_BLS_MAX_SCALAR_BYTES 64       /* longest scalar the public mul/MSM accept */
/* Most points of one MSM and pairs of one multi-pairing (bounds that keep every scratch size
 * computation far from overflowing size_t, also on 32-bit targets). */
#define GROVE_BLS_MSM_MAX_POINTS (((size_t)-1) / 4096)
#define GROVE_BLS_PAIRING_MAX_PAIRS (((size_t)-1) / 1024)

/* The IETF proof-of-possession ciphersuites' DSTs (use strlen() for the length). */
#define GROVE_BLS_DST_MIN_SIG "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_POP_"
#define GROVE_BLS_DST_MIN_PK "BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"
#define GROVE_BLS_POP_DST_MIN_SIG "BLS_POP_BLS12381G1_XMD:SHA-256_SSWU_RO_POP_"
#define GROVE_BLS_POP_DST_MIN_PK "BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"

typedef struct grove_bls_sk {
    uint64_t opaque[4];
} grove_bls_sk;
typedef struct grove_bls_g1 { /* a point of E(Fp) (normally of G1) */
    uint64_t opaque[18];
} grove_bls_g1;
typedef struct grove_bls_g2 { /* a point of E'(Fp2) (normally of G2) */
    uint64_t opaque[36];
} grove_bls_g2;
typedef struct grove_bls_gt { /* an element of GT (in Fp12) */
    uint64_t opaque[72];
} grove_bls_gt;

typedef enum grove_bls_variant {
    GROVE_BLS_MIN_SIG = 1, /* "min-sig": signature in G1, public key in G2 */
    GROVE_BLS_MIN_PK = 2   /* "min-pk": public key in G1, signature in G2 */
} grove_bls_variant;

/* "min-sig" or "min-pk" -> the variant; 0 (no variant) for any other name or NULL. */
GROVE_API grove_bls_variant grove_bls_variant_get(const char *name);
/* "min-sig", "min-pk" or "unknown". */
GROVE_API const char *grove_bls_variant_name(grove_bls_variant variant);
/* Sizes of a variant's compressed public keys, secret keys and signatures (0 for an unknown
 * variant). */
GROVE_API size_t grove_bls_pk_bytes(grove_bls_variant variant);
GROVE_API size_t grove_bls_sk_bytes(grove_bls_variant variant);
GROVE_API size_t grove_bls_sig_bytes(grove_bls_variant variant);

/* ==== secret keys ========================================================================= */

/*
 * IETF KeyGen (HKDF-SHA-256 with salt "BLS-SIG-KEYGEN-SALT-", L = 48, retried while the key is
 * 0): the same key as blst_keygen. ikm must hold at least 32 bytes (GROVE_ERR_INVALID_ARG
 * otherwise); info may be empty (NULL, 0).
 */
GROVE_API GROVE_MUST_USE grove_status grove_bls_keygen(grove_bls_sk *sk, const uint8_t *ikm,
                                                       size_t ikm_len, const uint8_t *info,
                                                       size_t info_len);
/* KeyGen from 32 fresh bytes of grove_randombytes(). */
GROVE_API GROVE_MUST_USE grove_status grove_bls_sk_generate(grove_bls_sk *sk);
/* 32 big-endian bytes; GROVE_ERR_ENCODING if the value is 0 or >= r. */
GROVE_API GROVE_MUST_USE grove_status grove_bls_sk_from_bytes(grove_bls_sk *sk,
                                                              const uint8_t in[GROVE_BLS_SK_BYTES]);
GROVE_API void grove_bls_sk_to_bytes(const grove_bls_sk *sk, uint8_t out[GROVE_BLS_SK_BYTES]);
GROVE_API void grove_bls_sk_wipe(grove_bls_sk *sk);

/* ==== BLS signatures on byte strings ====================================================== */
/*
 * The variant first, then the outputs (fixed size: grove_bls_sig_bytes / grove_bls_pk_bytes of
 * the variant, no length), then the inputs: message, keys, and last the DST. Inputs are
 * compressed (or uncompressed) encodings; every function decodes with full checks. Results
 * (grove/common.h):
 *   GROVE_ERR_VERIFY    from every verify function for any signature or proof that does not
 *                       verify: wrong length, malformed, not on the curve, not in the group,
 *                       non-canonical, or simply wrong;
 *   GROVE_ERR_ENCODING  for a malformed, out-of-group or identity public key (KeyValidate),
 *                       and from the aggregation functions for any malformed input;
 *   GROVE_ERR_INVALID_ARG for NULL pointers, n = 0 or an unknown variant.
 */

/* pk = sk * generator, compressed (grove_bls_pk_bytes(variant) bytes). */
GROVE_API GROVE_MUST_USE grove_status grove_bls_sk_to_pk(grove_bls_variant variant, uint8_t *pk,
                                                         const grove_bls_sk *sk);
/* sig = sk * hash_to_curve(msg, dst), compressed (grove_bls_sig_bytes(variant) bytes). */
GROVE_API GROVE_MUST_USE grove_status grove_bls_sign(grove_bls_variant variant, uint8_t *sig,
                                                     const uint8_t *msg, size_t msg_len,
                                                     const grove_bls_sk *sk, const uint8_t *dst,
                                                     size_t dst_len);
GROVE_API GROVE_MUST_USE grove_status grove_bls_verify(grove_bls_variant variant,
                                                       const uint8_t *sig, size_t sig_len,
                                                       const uint8_t *msg, size_t msg_len,
                                                       const uint8_t *pk, size_t pk_len,
                                                       const uint8_t *dst, size_t dst_len);
/*
 * Aggregation: the compressed sum of n >= 1 signatures (or public keys) of the variant, given
 * as n concatenated compressed encodings. Signatures may be the identity; public keys may not.
 * out holds grove_bls_sig_bytes (grove_bls_pk_bytes) of the variant.
 */
GROVE_API GROVE_MUST_USE grove_status grove_bls_aggregate_sigs(grove_bls_variant variant,
                                                               uint8_t *out, const uint8_t *sigs,
                                                               size_t n);
GROVE_API GROVE_MUST_USE grove_status grove_bls_aggregate_pks(grove_bls_variant variant,
                                                              uint8_t *out, const uint8_t *pks,
                                                              size_t n);
/* n >= 1 public keys (concatenated, compressed) that all signed the same message. */
GROVE_API GROVE_MUST_USE grove_status grove_bls_fast_aggregate_verify(
    grove_bls_variant variant, const uint8_t *sig, size_t sig_len, const uint8_t *msg,
    size_t msg_len, const uint8_t *pks, size_t n, const uint8_t *dst, size_t dst_len);
/* n >= 1 (message, public key) pairs and one aggregate signature. Messages need not differ
 * (proof-of-possession scheme); callers of the basic scheme must check distinctness. */
GROVE_API GROVE_MUST_USE grove_status grove_bls_aggregate_verify(
    grove_bls_variant variant, const uint8_t *sig, size_t sig_len, const uint8_t *const *msgs,
    const size_t *msg_lens, const uint8_t *pks, size_t n, const uint8_t *dst, size_t dst_len);
/*
 * Randomized batch verification of n independent (sig_i, msg_i, pk_i) triples in one
 * multi-pairing, with 128-bit random weights from grove_randombytes(): GROVE_OK iff (except
 * with probability 2^-128) every signature verifies. sigs and pks are n concatenated compressed
 * encodings each; a signature that is the identity does not verify.
 */
GROVE_API GROVE_MUST_USE grove_status grove_bls_batch_verify(
    grove_bls_variant variant, const uint8_t *sigs, const uint8_t *const *msgs,
    const size_t *msg_lens, const uint8_t *pks, size_t n, const uint8_t *dst, size_t dst_len);
/* IETF PopProve / PopVerify: proof = sk * hash_to_curve(pk bytes, dst), dst normally
 * GROVE_BLS_POP_DST_*. (Mithril's own PoP is built from grove_bls_sign and the G1 public key.) */
GROVE_API GROVE_MUST_USE grove_status grove_bls_pop_prove(grove_bls_variant variant, uint8_t *proof,
                                                          const grove_bls_sk *sk,
                                                          const uint8_t *dst, size_t dst_len);
GROVE_API GROVE_MUST_USE grove_status grove_bls_pop_verify(grove_bls_variant variant,
                                                           const uint8_t *proof, size_t proof_len,
                                                           const uint8_t *pk, size_t pk_len,
                                                           const uint8_t *dst, size_t dst_len);

/* ==== BLS on points (for protocols built on top, e.g. Mithril STM) ======================= */

/* min-sig: sig = sk * H_G1(msg, dst) (constant time in sk). */
GROVE_API GROVE_MUST_USE grove_status grove_bls_sign_g1(grove_bls_g1 *sig, const uint8_t *msg,
                                                        size_t msg_len, const grove_bls_sk *sk,
                                                        const uint8_t *dst, size_t dst_len);
/* min-sig core verification e(sig, g2) == e(H_G1(msg, dst), pk). The points are taken as
 * given (validate them when decoding); GROVE_ERR_VERIFY if pk or sig is the identity. */
GROVE_API GROVE_MUST_USE grove_status grove_bls_verify_g1(const grove_bls_g1 *sig,
                                                          const uint8_t *msg, size_t msg_len,
                                                          const grove_bls_g2 *pk,
                                                          const uint8_t *dst, size_t dst_len);
/* min-pk counterparts: sig = sk * H_G2(msg, dst); e(g1, sig) == e(pk, H_G2(msg, dst)). */
GROVE_API GROVE_MUST_USE grove_status grove_bls_sign_g2(grove_bls_g2 *sig, const uint8_t *msg,
                                                        size_t msg_len, const grove_bls_sk *sk,
                                                        const uint8_t *dst, size_t dst_len);
GROVE_API GROVE_MUST_USE grove_status grove_bls_verify_g2(const grove_bls_g2 *sig,
                                                          const uint8_t *msg, size_t msg_len,
                                                          const grove_bls_g1 *pk,
                                                          const uint8_t *dst, size_t dst_len);

/* ==== groups ============================================================================== */

/* Decoding flags. */
#define GROVE_BLS_NO_INFINITY 1u       /* reject the identity (keys, signatures)              */
#define GROVE_BLS_NO_SUBGROUP_CHECK 2u /* skip the subgroup check: only for points that were
                                        * validated before (e.g. read back from own storage) */

/*
 * Decode a point: in_len 48 (compressed) or 96 (uncompressed) for G1, 96 or 192 for G2.
 * GROVE_ERR_ENCODING on any malformed input or a point outside the group.
 */
GROVE_API GROVE_MUST_USE grove_status grove_bls_g1_from_bytes(grove_bls_g1 *p, const uint8_t *in,
                                                              size_t in_len, unsigned flags);
/* Encode p: compressed (48 bytes) or uncompressed (96 bytes). */
GROVE_API void grove_bls_g1_to_bytes(const grove_bls_g1 *p, uint8_t out[GROVE_BLS_G1_BYTES]);
GROVE_API void grove_bls_g1_to_bytes_uncompressed(const grove_bls_g1 *p,
                                                  uint8_t out[GROVE_BLS_G1_UNCOMPRESSED_BYTES]);
GROVE_API GROVE_MUST_USE grove_status grove_bls_g2_from_bytes(grove_bls_g2 *p, const uint8_t *in,
                                                              size_t in_len, unsigned flags);
GROVE_API void grove_bls_g2_to_bytes(const grove_bls_g2 *p, uint8_t out[GROVE_BLS_G2_BYTES]);
GROVE_API void grove_bls_g2_to_bytes_uncompressed(const grove_bls_g2 *p,
                                                  uint8_t out[GROVE_BLS_G2_UNCOMPRESSED_BYTES]);

GROVE_API void grove_bls_g1_generator(grove_bls_g1 *p);
GROVE_API void grove_bls_g1_identity(grove_bls_g1 *p);
GROVE_API bool grove_bls_g1_is_identity(const grove_bls_g1 *p);
GROVE_API bool grove_bls_g1_equal(const grove_bls_g1 *a, const grove_bls_g1 *b);
/* true iff p is on the curve and in the order-r subgroup G1 (the identity included). */
GROVE_API bool grove_bls_g1_in_group(const grove_bls_g1 *p);
GROVE_API void grove_bls_g1_add(grove_bls_g1 *r, const grove_bls_g1 *a, const grove_bls_g1 *b);
GROVE_API void grove_bls_g1_neg(grove_bls_g1 *r, const grove_bls_g1 *a);
/* r = k * p for a public little-endian scalar of k_len <= 64 bytes (variable time). */
GROVE_API GROVE_MUST_USE grove_status grove_bls_g1_mul(grove_bls_g1 *r, const grove_bls_g1 *p,
                                                       const uint8_t *k, size_t k_len);
/*
 * r = sk * p, constant time in sk for any point of the curve. The point is treated as public:
 * a variable-time membership test picks the GLV (G1) / GLS (G2) path for points of the group
 * and a one-dimensional ladder for the other curve points.
 */
GROVE_API void grove_bls_g1_mul_sk(grove_bls_g1 *r, const grove_bls_g1 *p,
                                   const grove_bls_sk *sk);
/*
 * r = sum k_i * p_i (Pippenger; variable time) for n points of the group (as every decoded
 * point is: the G2 version uses the endomorphism psi = [z] of G2) and n little-endian scalars
 * of k_len <= 64 bytes each, concatenated in ks (Mithril: k_len = 16, the Blake2b-128 outputs
 * as they come). GROVE_ERR_NOMEM if scratch memory is missing.
 */
GROVE_API GROVE_MUST_USE grove_status grove_bls_g1_msm(grove_bls_g1 *r, const grove_bls_g1 *points,
                                                       const uint8_t *ks, size_t k_len, size_t n);
/*
 * The same in caller-provided scratch, without any heap allocation (as blst's
 * blst_p1s_mult_pippenger_scratch_sizeof): scratch holds at least
 * grove_bls_g1_msm_scratch_size(n, k_len) bytes, any alignment (0 bytes: scratch may be NULL;
 * the size function returns 0 also for n or k_len out of range, which the MSM refuses with
 * GROVE_ERR_INVALID_ARG). The scratch content is not secret and need not be wiped.
 */
GROVE_API size_t grove_bls_g1_msm_scratch_size(size_t n, size_t k_len);
GROVE_API GROVE_MUST_USE grove_status grove_bls_g1_msm_with_scratch(grove_bls_g1 *r,
                                                                    const grove_bls_g1 *points,
                                                                    const uint8_t *ks,
                                                                    size_t k_len, size_t n,
                                                                    void *scratch);
/* RFC 9380 hash_to_curve (RO, "BLS12381G1_XMD:SHA-256_SSWU_RO_" with this dst) and
 * encode_to_curve (NU). Any dst, including the empty one. */
GROVE_API void grove_bls_g1_hash(grove_bls_g1 *r, const uint8_t *msg, size_t msg_len,
                                 const uint8_t *dst, size_t dst_len);
GROVE_API void grove_bls_g1_encode(grove_bls_g1 *r, const uint8_t *msg, size_t msg_len,
                                   const uint8_t *dst, size_t dst_len);

GROVE_API void grove_bls_g2_generator(grove_bls_g2 *p);
GROVE_API void grove_bls_g2_identity(grove_bls_g2 *p);
GROVE_API bool grove_bls_g2_is_identity(const grove_bls_g2 *p);
GROVE_API bool grove_bls_g2_equal(const grove_bls_g2 *a, const grove_bls_g2 *b);
GROVE_API bool grove_bls_g2_in_group(const grove_bls_g2 *p);
GROVE_API void grove_bls_g2_add(grove_bls_g2 *r, const grove_bls_g2 *a, const grove_bls_g2 *b);
GROVE_API void grove_bls_g2_neg(grove_bls_g2 *r, const grove_bls_g2 *a);
GROVE_API GROVE_MUST_USE grove_status grove_bls_g2_mul(grove_bls_g2 *r, const grove_bls_g2 *p,
                                                       const uint8_t *k, size_t k_len);
GROVE_API void grove_bls_g2_mul_sk(grove_bls_g2 *r, const grove_bls_g2 *p,
                                   const grove_bls_sk *sk);
GROVE_API GROVE_MUST_USE grove_status grove_bls_g2_msm(grove_bls_g2 *r, const grove_bls_g2 *points,
                                                       const uint8_t *ks, size_t k_len, size_t n);
GROVE_API size_t grove_bls_g2_msm_scratch_size(size_t n, size_t k_len);
GROVE_API GROVE_MUST_USE grove_status grove_bls_g2_msm_with_scratch(grove_bls_g2 *r,
                                                                    const grove_bls_g2 *points,
                                                                    const uint8_t *ks,
                                                                    size_t k_len, size_t n,
                                                                    void *scratch);
GROVE_API void grove_bls_g2_hash(grove_bls_g2 *r, const uint8_t *msg, size_t msg_len,
                                 const uint8_t *dst, size_t dst_len);
GROVE_API void grove_bls_g2_encode(grove_bls_g2 *r, const uint8_t *msg, size_t msg_len,
                                   const uint8_t *dst, size_t dst_len);

/* ==== pairing ============================================================================= */

/*
 * r = prod_{i<n} e(p_i, q_i) (n = 1: one pairing; one shared final exponentiation). Points
 * must be in G1 / G2 (not re-checked). GT values are the standard reduced optimal ate pairing
 * f_{z,Q}(P)^((p^12 - 1)/r). (blst's blst_final_exp, and the fast exponentiation behind the
 * pairing checks here, compute its cube: the exponent 3 (p^4 - p^2 + 1)/r of the
 * Hayashida-Hayasaka-Teruya / Aranha et al. hard parts; cube r to compare with those.)
 * Small n uses stack scratch, larger n one heap block; the _with_scratch forms take
 * grove_bls_pairing_scratch_size(n) bytes of caller scratch (any alignment; NULL for n = 0)
 * and never allocate.
 */
GROVE_API GROVE_MUST_USE grove_status grove_bls_pairing(grove_bls_gt *r, const grove_bls_g1 *p,
                                                        const grove_bls_g2 *q, size_t n);
/* GROVE_OK iff prod_{i<n} e(p_i, q_i) == 1, else GROVE_ERR_VERIFY. */
GROVE_API GROVE_MUST_USE grove_status grove_bls_pairing_check(const grove_bls_g1 *p,
                                                              const grove_bls_g2 *q, size_t n);
/* Scratch bytes for n pairs (0 for n > GROVE_BLS_PAIRING_MAX_PAIRS, which the functions refuse). */
GROVE_API size_t grove_bls_pairing_scratch_size(size_t n);
GROVE_API GROVE_MUST_USE grove_status grove_bls_pairing_with_scratch(grove_bls_gt *r,
                                                                     const grove_bls_g1 *p,
                                                                     const grove_bls_g2 *q,
                                                                     size_t n, void *scratch);
GROVE_API GROVE_MUST_USE grove_status grove_bls_pairing_check_with_scratch(const grove_bls_g1 *p,
                                                                           const grove_bls_g2 *q,
                                                                           size_t n,
                                                                           void *scratch);
GROVE_API bool grove_bls_gt_equal(const grove_bls_gt *a, const grove_bls_gt *b);
GROVE_API bool grove_bls_gt_is_one(const grove_bls_gt *a);
GROVE_API void grove_bls_gt_mul(grove_bls_gt *r, const grove_bls_gt *a, const grove_bls_gt *b);

/* ==== hashing ============================================================================= */

/* RFC 9380 expand_message_xmd with SHA-256 into out_len bytes (the requested length, not a
 * capacity); any dst (longer than 255 bytes: hashed first). GROVE_ERR_INVALID_ARG if
 * out_len > 8160. */
GROVE_API GROVE_MUST_USE grove_status grove_bls_expand_message_xmd(uint8_t *out, size_t out_len,
                                                                   const uint8_t *msg,
                                                                   size_t msg_len,
                                                                   const uint8_t *dst,
                                                                   size_t dst_len);

#ifdef __cplusplus
}
#endif
#endif
