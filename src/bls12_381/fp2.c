/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Fp2: inversion, exponentiation, square root, signs (see fp2.h). */
#include "bls12_381/fp2.h"

#include "bls12_381/constants.h"

const fp2 BLS_FP2_ONE = {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                           0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
                         {{0, 0, 0, 0, 0, 0}}};

void fp2_inv(fp2 *r, const fp2 *a)
{
    fp t0, t1;
    fp_sqr(&t0, &a->c0);
    fp_sqr(&t1, &a->c1);
    fp_add(&t0, &t0, &t1);
    fp_inv(&t1, &t0);
    fp_mul(&r->c0, &a->c0, &t1);
    fp_mul(&t0, &a->c1, &t1);
    fp_neg(&r->c1, &t0);
}

void fp2_inv_vartime(fp2 *r, const fp2 *a)
{
    fp t0, t1;
    fp_sqr(&t0, &a->c0);
    fp_sqr(&t1, &a->c1);
    fp_add(&t0, &t0, &t1);
    fp_inv_vartime(&t1, &t0);
    fp_mul(&r->c0, &a->c0, &t1);
    fp_mul(&t0, &a->c1, &t1);
    fp_neg(&r->c1, &t0);
}

/* fp2_pow is in fp.c, next to fp_pow (the same sliding windows) */

/*
 * Square root for p = 3 mod 4 (Adj and Rodriguez-Henriquez, "Square root computation over
 * even extension fields", algorithm 9): two Fp2 exponentiations. The reference for
 * fp2_sqrt_vartime (tests). Branches on the input: public values only.
 */
int fp2_sqrt_adj_vartime(fp2 *r, const fp2 *a)
{
    fp2 a1, alpha, a0, x0, t, minus_one;
    fp2_pow(&a1, a, BLS_EXP_P_MINUS_3_DIV_4, 6);
    fp2_mul(&t, &a1, a);
    fp2_mul(&alpha, &a1, &t); /* a^((p-1)/2) */
    fp2_conj(&a0, &alpha);
    fp2_mul(&a0, &a0, &alpha); /* a^((p^2-1)/2): -1 iff a is a non-square */
    fp2_neg(&minus_one, &BLS_FP2_ONE);
    if (fp2_eq(&a0, &minus_one))
        return 0;
    x0 = t; /* a^((p+1)/4) */
    if (fp2_eq(&alpha, &minus_one)) {
        /* x = u * x0 */
        fp_neg(&t.c0, &x0.c1);
        t.c1 = x0.c0;
    } else {
        fp2 b;
        fp2_add(&b, &alpha, &BLS_FP2_ONE);
        fp2_pow(&b, &b, BLS_EXP_P_MINUS_1_DIV_2, 6);
        fp2_mul(&t, &b, &x0);
    }
    fp2_sqr(&a0, &t);
    if (!fp2_eq(&a0, a))
        return 0;
    *r = t;
    return 1;
}

/*
 * Square root through the norm (p = 3 mod 4, u^2 = -1), in two Fp exponentiations and no
 * inversion. For a = a0 + a1 u with a1 != 0: a is a square iff n = a0^2 + a1^2 is one; with
 * s = sqrt(n), t = (a0 + s)/2 and w = t^((p-3)/4) (so t w = t^((p+1)/4), w^2 = t^((p-1)/2)/t):
 *   t a square:      x0 = t w,      x1 = a1 w / 2    (x0 w = 1, x1 = a1 / (2 x0));
 *   t not a square:  x0 = a1 w / 2, x1 = -t w        (then t' = (a0 - s)/2 = -a1^2/(4t) is the
 *                    square, w^2 = -1/t, sqrt(t') = a1 w / 2 and x1 = a1 / (2 x0) = -t w).
 * For a1 = 0: with w = a0^((p-3)/4), x = a0 w is sqrt(a0) or sqrt(-a0), giving x or x u.
 * The result is checked by squaring. Branches on the input: public values only.
 */
int fp2_sqrt_vartime(fp2 *r, const fp2 *a)
{
    fp n, s, t, w, x0, x1, chk;
    fp2 y, y2;
    if (fp_is_zero(&a->c1)) {
        fp_pow(&w, &a->c0, BLS_EXP_P_MINUS_3_DIV_4, 6);
        fp_mul(&x0, &a->c0, &w);
        fp_sqr(&chk, &x0);
        if (fp_eq(&chk, &a->c0)) {
            y.c0 = x0;
            fp_set_zero(&y.c1);
        } else {
            fp_set_zero(&y.c0); /* x0^2 = -a0: (x0 u)^2 = a0 */
            y.c1 = x0;
        }
    } else {
        fp_sqr(&n, &a->c0);
        fp_sqr(&t, &a->c1);
        fp_add(&n, &n, &t);
        if (!fp_sqrt(&s, &n))
            return 0; /* the norm is not a square: neither is a */
        fp_add(&t, &a->c0, &s);
        fp_half(&t, &t);
        fp_pow(&w, &t, BLS_EXP_P_MINUS_3_DIV_4, 6);
        fp_mul(&x0, &t, &w);
        fp_sqr(&chk, &x0);
        fp_mul(&x1, &a->c1, &w);
        fp_half(&x1, &x1);
        if (fp_eq(&chk, &t)) {
            y.c0 = x0;
            y.c1 = x1;
        } else {
            y.c0 = x1;
            fp_neg(&y.c1, &x0);
        }
    }
    fp2_sqr(&y2, &y);
    if (!fp2_eq(&y2, a))
        return 0;
    *r = y;
    return 1;
}

int fp2_sgn0(const fp2 *a)
{
    int s0 = fp_sgn0(&a->c0), z0 = fp_is_zero(&a->c0), s1 = fp_sgn0(&a->c1);
    return s0 | (z0 & s1);
}

int fp2_is_lexicographically_largest(const fp2 *a)
{
    int z1 = fp_is_zero(&a->c1);
    int l1 = fp_is_lexicographically_largest(&a->c1), l0 = fp_is_lexicographically_largest(&a->c0);
    return (z1 & l0) | ((1 - z1) & l1);
}

void fp_mul_call(fp *r, const fp *a, const fp *b)
{
    fp_mul(r, a, b);
}

void fp2_mul_call(fp2 *r, const fp2 *a, const fp2 *b)
{
    fp2_mul(r, a, b);
}

void fp2_sqr_call(fp2 *r, const fp2 *a)
{
    fp2_sqr(r, a);
}
