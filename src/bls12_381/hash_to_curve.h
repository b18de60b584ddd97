/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * RFC 9380 hashing to BLS12-381: expand_message_xmd, hash_to_field, the simplified SWU maps
 * to the 11-isogenous (G1) and 3-isogenous (G2) curves, the isogeny maps and cofactor
 * clearing. Suites BLS12381G1_XMD:SHA-256_SSWU_{RO,NU}_ and BLS12381G2_XMD:SHA-256_SSWU_{RO,NU}_
 * with any DST, including the empty one (RFC 9380 requires a non-empty DST; Mithril uses "").
 * A DST longer than 255 bytes is first hashed as the RFC specifies (H2C-OVERSIZE-DST-).
 */
#ifndef GROVE_BLS12_381_HASH_TO_CURVE_H
#define GROVE_BLS12_381_HASH_TO_CURVE_H

#include "bls12_381/ec.h"

enum { BLS_XMD_SHA256 = 256, BLS_XMD_SHA512 = 512 };

/* Returns 1, or 0 if len > 65535 or len > 255 * hash length. */
int bls_expand_message_xmd(uint8_t *out, size_t len, const uint8_t *msg, size_t msg_len,
                           const uint8_t *dst, size_t dst_len, int hash);

/* hash_to_field with expand_message_xmd(SHA-256), L = 64; count <= 2. */
void bls_hash_to_fp(fp *u, size_t count, const uint8_t *msg, size_t msg_len, const uint8_t *dst,
                    size_t dst_len);
void bls_hash_to_fp2(fp2 *u, size_t count, const uint8_t *msg, size_t msg_len,
                     const uint8_t *dst, size_t dst_len);

/* map_to_curve: SSWU on the isogenous curve followed by the isogeny (no cofactor clearing). */
void bls_map_to_g1(g1_p *r, const fp *u);
void bls_map_to_g2(g2_p *r, const fp2 *u);

/* hash_to_curve (random oracle, two field elements) and encode_to_curve (one). */
void bls_hash_to_g1(g1_p *r, const uint8_t *msg, size_t msg_len, const uint8_t *dst,
                    size_t dst_len);
void bls_encode_to_g1(g1_p *r, const uint8_t *msg, size_t msg_len, const uint8_t *dst,
                      size_t dst_len);
void bls_hash_to_g2(g2_p *r, const uint8_t *msg, size_t msg_len, const uint8_t *dst,
                    size_t dst_len);
void bls_encode_to_g2(g2_p *r, const uint8_t *msg, size_t msg_len, const uint8_t *dst,
                      size_t dst_len);

/* RFC 9380 sqrt_ratio in Fp2 (Z = -(2 + u)): returns all ones and y = sqrt(u/v) if u/v is a
 * square, else 0 and y = sqrt(Z u/v); v != 0. The _vartime form (used by the hash to G2, for
 * public messages) goes through an inversion and the norm; _ref is the RFC's constant-time
 * algorithm (tests). The two roots agree up to sign. */
uint64_t bls_sqrt_ratio_fp2_vartime(fp2 *y, const fp2 *u, const fp2 *v);
uint64_t bls_sqrt_ratio_fp2_ref(fp2 *y, const fp2 *u, const fp2 *v);

#endif
