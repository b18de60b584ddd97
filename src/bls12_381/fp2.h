/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Fp2 = Fp[u] / (u^2 + 1). Elements c0 + c1*u. Constant time unless named _vartime.
 */
#ifndef GROVE_BLS12_381_FP2_H
#define GROVE_BLS12_381_FP2_H

#include "bls12_381/fp.h"

typedef struct {
    fp c0, c1;
} fp2;

GROVE_INLINE void fp2_add(fp2 *r, const fp2 *a, const fp2 *b)
{
    fp_add(&r->c0, &a->c0, &b->c0);
    fp_add(&r->c1, &a->c1, &b->c1);
}
GROVE_INLINE void fp2_sub(fp2 *r, const fp2 *a, const fp2 *b)
{
    fp_sub(&r->c0, &a->c0, &b->c0);
    fp_sub(&r->c1, &a->c1, &b->c1);
}
GROVE_INLINE void fp2_dbl(fp2 *r, const fp2 *a)
{
    fp_dbl(&r->c0, &a->c0);
    fp_dbl(&r->c1, &a->c1);
}
GROVE_INLINE void fp2_neg(fp2 *r, const fp2 *a)
{
    fp_neg(&r->c0, &a->c0);
    fp_neg(&r->c1, &a->c1);
}
GROVE_INLINE void fp2_conj(fp2 *r, const fp2 *a)
{
    r->c0 = a->c0;
    fp_neg(&r->c1, &a->c1);
}
GROVE_INLINE void fp2_half(fp2 *r, const fp2 *a)
{
    fp_half(&r->c0, &a->c0);
    fp_half(&r->c1, &a->c1);
}

/* Double-width Fp2 values: both components in [0, p R), reduced later with fp2_redc. */
typedef struct {
    fp_wide c0, c1;
} fp2w;

/*
 * r = a b double-width: (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0
 * - a1 b1) u with three double-width products. Inputs reduced (< p).
 */
GROVE_INLINE void fp2_mul_w(fp2w *r, const fp2 *a, const fp2 *b)
{
    fp_wide t1, s;
    fp sa, sb;
    fp_mul_wide(&r->c0, &a->c0, &b->c0);
    fp_mul_wide(&t1, &a->c1, &b->c1);
    fp_add_nr(&sa, &a->c0, &a->c1);
    fp_add_nr(&sb, &b->c0, &b->c1);
    fp_mul_wide(&s, &sa, &sb);
    fp_wide_sub(&s, &s, &r->c0);
    fp_wide_sub(&r->c1, &s, &t1);         /* a0 b1 + a1 b0 < 2p^2 */
    fp_wide_sub_mod(&r->c0, &r->c0, &t1); /* a0 b0 - a1 b1 mod pR */
}

GROVE_INLINE void fp2_redc(fp2 *r, const fp2w *a)
{
    fp_redc(&r->c0, &a->c0);
    fp_redc(&r->c1, &a->c1);
}

GROVE_INLINE void fp2w_add(fp2w *r, const fp2w *a, const fp2w *b)
{
    fp_wide_add_mod(&r->c0, &a->c0, &b->c0);
    fp_wide_add_mod(&r->c1, &a->c1, &b->c1);
}

GROVE_INLINE void fp2w_sub(fp2w *r, const fp2w *a, const fp2w *b)
{
    fp_wide_sub_mod(&r->c0, &a->c0, &b->c0);
    fp_wide_sub_mod(&r->c1, &a->c1, &b->c1);
}

/* r = a (1 + u) = (a0 - a1) + (a0 + a1) u */
GROVE_INLINE void fp2w_mul_by_xi(fp2w *r, const fp2w *a)
{
    fp_wide t;
    fp_wide_sub_mod(&t, &a->c0, &a->c1);
    fp_wide_add_mod(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

/* r = a b with two Montgomery reductions. Inputs reduced (< p). */
GROVE_INLINE void fp2_mul(fp2 *r, const fp2 *a, const fp2 *b)
{
    fp2w t;
    fp2_mul_w(&t, a, b);
    fp2_redc(r, &t);
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u, with unreduced factors (< 2p). */
GROVE_INLINE void fp2_sqr(fp2 *r, const fp2 *a)
{
    fp s, d, t;
    fp_add_nr(&s, &a->c0, &a->c1);
    fp_sub_nr(&d, &a->c0, &a->c1);
    fp_add_nr(&t, &a->c0, &a->c0);
    fp_mul(&r->c1, &t, &a->c1);
    fp_mul(&r->c0, &s, &d);
}

/* r = a * (1 + u) = (a0 - a1) + (a0 + a1) u, multiplication by the Fp6 non-residue xi. */
GROVE_INLINE void fp2_mul_by_xi(fp2 *r, const fp2 *a)
{
    fp t;
    fp_sub(&t, &a->c0, &a->c1);
    fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

/* r = a * b for b in Fp. */
GROVE_INLINE void fp2_mul_fp(fp2 *r, const fp2 *a, const fp *b)
{
    fp_mul(&r->c0, &a->c0, b);
    fp_mul(&r->c1, &a->c1, b);
}

GROVE_INLINE uint64_t fp2_is_zero_mask(const fp2 *a)
{
    return fp_is_zero_mask(&a->c0) & fp_is_zero_mask(&a->c1);
}
GROVE_INLINE uint64_t fp2_eq_mask(const fp2 *a, const fp2 *b)
{
    return fp_eq_mask(&a->c0, &b->c0) & fp_eq_mask(&a->c1, &b->c1);
}
GROVE_INLINE int fp2_is_zero(const fp2 *a)
{
    return (int)(fp2_is_zero_mask(a) & 1);
}
GROVE_INLINE int fp2_eq(const fp2 *a, const fp2 *b)
{
    return (int)(fp2_eq_mask(a, b) & 1);
}
GROVE_INLINE void fp2_cmov(fp2 *r, const fp2 *a, uint64_t mask)
{
    fp_cmov(&r->c0, &a->c0, mask);
    fp_cmov(&r->c1, &a->c1, mask);
}
GROVE_INLINE void fp2_set_zero(fp2 *r)
{
    memset(r, 0, sizeof *r);
}
GROVE_INLINE void fp2_mul3(fp2 *r, const fp2 *a)
{
    fp_mul3(&r->c0, &a->c0);
    fp_mul3(&r->c1, &a->c1);
}
GROVE_INLINE void fp2_mul4(fp2 *r, const fp2 *a)
{
    fp_mul4(&r->c0, &a->c0);
    fp_mul4(&r->c1, &a->c1);
}
GROVE_INLINE void fp2_mul8(fp2 *r, const fp2 *a)
{
    fp_mul8(&r->c0, &a->c0);
    fp_mul8(&r->c1, &a->c1);
}

/* ---- out-of-line (fp2.c) ----------------------------------------------------------------- */
extern const fp2 BLS_FP2_ONE;
/* r = 1/a (0 gives 0). Constant time. */
void fp2_inv(fp2 *r, const fp2 *a);
void fp2_inv_vartime(fp2 *r, const fp2 *a);
/* r = a^e for a public exponent (nlimbs little-endian limbs). */
void fp2_pow(fp2 *r, const fp2 *a, const uint64_t *e, size_t nlimbs);
/*
 * The Fp product and the Fp2 product and square as calls (fp2.c). Files of long straight-line
 * formulas (the isogeny and SSWU maps, G2 point arithmetic, the pairing's line functions)
 * define fp_mul / fp2_mul / fp2_sqr to these: inlined everywhere, those functions grow to
 * 50-100 KB, spill heavily and take gcc minutes of alias analysis to compile; as calls they
 * build in seconds with the same or fewer instructions (docs/bls12_381.md).
 */
void fp_mul_call(fp *r, const fp *a, const fp *b);
void fp2_mul_call(fp2 *r, const fp2 *a, const fp2 *b);
void fp2_sqr_call(fp2 *r, const fp2 *a);
/* Square root of a public value: returns 1 and r = sqrt(a), or 0 if a is not a square. */
int fp2_sqrt_vartime(fp2 *r, const fp2 *a);
/* The same by two Fp2 exponentiations (Adj-Rodriguez-Henriquez): the tests' reference. */
int fp2_sqrt_adj_vartime(fp2 *r, const fp2 *a);
/* sgn0 (RFC 9380, m = 2). */
int fp2_sgn0(const fp2 *a);
/* ZCash "larger y" for Fp2: c1 > (p-1)/2, or c1 == 0 and c0 > (p-1)/2. */
int fp2_is_lexicographically_largest(const fp2 *a);
/* Frobenius a^p = conjugate. */
GROVE_INLINE void fp2_frobenius(fp2 *r, const fp2 *a)
{
    fp2_conj(r, a);
}

#endif
