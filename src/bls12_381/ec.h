/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The groups: E(Fp): y^2 = x^3 + 4 holding G1, and the twist E'(Fp2): y^2 = x^3 + 4(1+u)
 * holding G2.
 *
 * Points are in Jacobian coordinates (x = X/Z^2, y = Y/Z^3; Z = 0 is the point at infinity).
 * Affine points use (0, 0) for infinity (not on either curve since b != 0).
 *
 * The same code serves both groups (ec_tmpl.h instantiated in g1.c and g2.c); functions are
 * prefixed g1_ or g2_. Functions named _vartime branch on their inputs and are for public data;
 * the others run in time independent of the point and scalar values. mul_ct (k < r) uses the
 * endomorphism and is only correct on G1 / G2; mul_ct_any works for any point of the curve;
 * mul_ct_public too, for a public point (it branches on the point, never on the scalar).
 */
#ifndef GROVE_BLS12_381_EC_H
#define GROVE_BLS12_381_EC_H

#include "bls12_381/fp2.h"

typedef struct {
    fp x, y, z;
} g1_p;
typedef struct {
    fp x, y;
} g1_a;
typedef struct {
    fp2 x, y, z;
} g2_p;
typedef struct {
    fp2 x, y;
} g2_a;

#define BLS_EC_DECLARE(P, PT, AFF, FE_T)                                                        \
    void P##set_inf(PT *r);                                                                 \
    int P##is_inf(const PT *a);                                                             \
    void P##from_affine(PT *r, const AFF *a);                                               \
    void P##generator(PT *r);                                                               \
    void P##neg(PT *r, const PT *a);                                                        \
    void P##cneg(PT *r, uint64_t mask);                                                     \
    void P##dbl(PT *r, const PT *a);                                                        \
    void P##add_vartime(PT *r, const PT *a, const PT *b);                                   \
    void P##add_affine_vartime(PT *r, const PT *a, const AFF *b);                           \
    void P##add_ct(PT *r, const PT *a, const PT *b);                                        \
    int P##eq_vartime(const PT *a, const PT *b);                                            \
    int P##on_curve(const PT *a);                                                           \
    int P##affine_on_curve(const AFF *a);                                                   \
    void P##to_affine(AFF *r, const PT *a);                                                 \
    void P##to_affine_vartime(AFF *r, const PT *a);                                         \
    int P##batch_to_affine_vartime(AFF *r, const PT *a, size_t n);                          \
    void P##mul_vartime(PT *r, const PT *a, const uint8_t *k, size_t nbits);                \
    void P##mul_ct(PT *r, const PT *a, const uint64_t k[4]);                                \
    void P##mul_ct_any(PT *r, const PT *a, const uint64_t k[4]);                            \
    void P##mul_ct_public(PT *r, const PT *a, const uint64_t k[4]);                         \
    void P##mul_z_abs_vartime(PT *r, const PT *a);                                          \
    int P##msm_vartime(PT *r, const PT *pts, const uint8_t *scalars, size_t scalar_bytes,   \
                       size_t n);                                                           \
    void P##batch_to_affine_scratch_vartime(AFF *r, const void *a, size_t n, FE_T *acc);    \
    size_t P##msm_scratch_bytes(size_t n, size_t scalar_bytes);                             \
    void P##msm_scratch_vartime(PT *r, const void *pts, const uint8_t *scalars,             \
                                size_t scalar_bytes, size_t n, void *scratch);             \
    size_t P##msm_windows(size_t n, size_t scalar_bytes);                                   \
    void P##msm_part_scratch_vartime(PT *r, const void *pts, const uint8_t *scalars,        \
                                     size_t scalar_bytes, size_t n, size_t wlo, size_t whi, \
                                     void *scratch);                                        \
    size_t P##msm_prep_bytes(size_t n, size_t scalar_bytes);                                \
    size_t P##msm_work_bytes(size_t n, size_t scalar_bytes);                                \
    void P##msm_prepare_vartime(void *prep, const void *pts, const uint8_t *scalars,        \
                                size_t scalar_bytes, size_t n);                             \
    void P##msm_part_prepared_vartime(PT *r, const void *prep, const void *pts,             \
                                      const uint8_t *scalars, size_t scalar_bytes, size_t n, \
                                      size_t wlo, size_t whi, void *work);

BLS_EC_DECLARE(g1_, g1_p, g1_a, fp)
BLS_EC_DECLARE(g2_, g2_p, g2_a, fp2)

/* Endomorphisms, subgroup checks and cofactor clearing. */
void g1_phi(g1_p *r, const g1_p *a);     /* (x, y) -> (beta x, y) = [-z^2] on G1 */
int g1_in_subgroup_vartime(const g1_p *a); /* 1 iff a is in G1 (infinity included) */
void g1_clear_cofactor(g1_p *r, const g1_p *a); /* [1 - z] a (RFC 9380 h_eff) */
void g2_psi(g2_p *r, const g2_p *a);
int g2_in_subgroup_vartime(const g2_p *a);
void g2_clear_cofactor(g2_p *r, const g2_p *a); /* RFC 9380 G2 h_eff via psi */

/*
 * ZCash serialization. compress/serialize write 48/96 (G1) or 96/192 (G2) bytes.
 * decode returns 0 on success or a BLS_DECODE_* reason; it checks flags, canonical
 * coordinates (< p), the curve equation and, unless no_subgroup_check, membership in G1/G2.
 */
enum {
    BLS_DECODE_OK = 0,
    BLS_DECODE_BAD_LENGTH = 1,
    BLS_DECODE_BAD_FLAGS = 2,       /* compression bit wrong for the length, sort bit misuse */
    BLS_DECODE_BAD_INFINITY = 3,    /* infinity bit set but other bits nonzero */
    BLS_DECODE_NOT_CANONICAL = 4,   /* a coordinate >= p */
    BLS_DECODE_NOT_ON_CURVE = 5,    /* no such x (compressed) or equation fails */
    BLS_DECODE_NOT_IN_SUBGROUP = 6,
    BLS_DECODE_INFINITY = 7         /* infinity where the caller forbids it (bls.c) */
};
void g1_compress(uint8_t out[48], const g1_p *a);
void g1_serialize(uint8_t out[96], const g1_p *a);
int g1_decode(g1_p *r, const uint8_t *in, size_t len, int no_subgroup_check);
void g2_compress(uint8_t out[96], const g2_p *a);
void g2_serialize(uint8_t out[192], const g2_p *a);
int g2_decode(g2_p *r, const uint8_t *in, size_t len, int no_subgroup_check);

#endif
