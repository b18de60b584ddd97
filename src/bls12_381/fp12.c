/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Fp6 and Fp12 arithmetic (see fp12.h). */
#include "bls12_381/fp12.h"

#include "bls12_381/constants.h"

/* Long straight-line formulas: the products as calls (fp2.h, fp2_mul_call). */
#define fp2_mul fp2_mul_call
#define fp2_sqr fp2_sqr_call

const fp12 BLS_FP12_ONE = {
    {{{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
        0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
      {{0}}},
     {{{0}}, {{0}}},
     {{{0}}, {{0}}}},
    {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}}};

/* ---- Fp6 ---------------------------------------------------------------------------------- */

void fp6_add(fp6 *r, const fp6 *a, const fp6 *b)
{
    fp2_add(&r->c0, &a->c0, &b->c0);
    fp2_add(&r->c1, &a->c1, &b->c1);
    fp2_add(&r->c2, &a->c2, &b->c2);
}

void fp6_sub(fp6 *r, const fp6 *a, const fp6 *b)
{
    fp2_sub(&r->c0, &a->c0, &b->c0);
    fp2_sub(&r->c1, &a->c1, &b->c1);
    fp2_sub(&r->c2, &a->c2, &b->c2);
}

void fp6_neg(fp6 *r, const fp6 *a)
{
    fp2_neg(&r->c0, &a->c0);
    fp2_neg(&r->c1, &a->c1);
    fp2_neg(&r->c2, &a->c2);
}

/* ---- double-width Fp6 for lazy reduction ------------------------------------------------ */

typedef struct {
    fp2w c0, c1, c2;
} fp6w;

static void fp6_redc(fp6 *r, const fp6w *a)
{
    fp2_redc(&r->c0, &a->c0);
    fp2_redc(&r->c1, &a->c1);
    fp2_redc(&r->c2, &a->c2);
}

static void fp6w_sub(fp6w *r, const fp6w *a, const fp6w *b)
{
    fp2w_sub(&r->c0, &a->c0, &b->c0);
    fp2w_sub(&r->c1, &a->c1, &b->c1);
    fp2w_sub(&r->c2, &a->c2, &b->c2);
}

/* r = a + v b (v (x0 + x1 v + x2 v^2) = xi x2 + x0 v + x1 v^2); r may alias a */
static void fp6w_add_mul_v(fp6w *r, const fp6w *a, const fp6w *b)
{
    fp2w t;
    fp2w_mul_by_xi(&t, &b->c2);
    fp2w_add(&r->c2, &a->c2, &b->c1);
    fp2w_add(&r->c1, &a->c1, &b->c0);
    fp2w_add(&r->c0, &a->c0, &t);
}

/* Karatsuba with double-width Fp2 products (reduced inputs) */
static void fp6_mul_w(fp6w *r, const fp6 *a, const fp6 *b)
{
    fp2w t0, t1, t2, x, y;
    fp2 sa, sb;
    fp2_mul_w(&t0, &a->c0, &b->c0);
    fp2_mul_w(&t1, &a->c1, &b->c1);
    fp2_mul_w(&t2, &a->c2, &b->c2);
    /* c0 = xi ((a1 + a2)(b1 + b2) - t1 - t2) + t0 */
    fp2_add(&sa, &a->c1, &a->c2);
    fp2_add(&sb, &b->c1, &b->c2);
    fp2_mul_w(&x, &sa, &sb);
    fp2w_sub(&x, &x, &t1);
    fp2w_sub(&x, &x, &t2);
    fp2w_mul_by_xi(&x, &x);
    fp2w_add(&r->c0, &x, &t0);
    /* c1 = (a0 + a1)(b0 + b1) - t0 - t1 + xi t2 */
    fp2_add(&sa, &a->c0, &a->c1);
    fp2_add(&sb, &b->c0, &b->c1);
    fp2_mul_w(&x, &sa, &sb);
    fp2w_sub(&x, &x, &t0);
    fp2w_sub(&x, &x, &t1);
    fp2w_mul_by_xi(&y, &t2);
    fp2w_add(&r->c1, &x, &y);
    /* c2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1 */
    fp2_add(&sa, &a->c0, &a->c2);
    fp2_add(&sb, &b->c0, &b->c2);
    fp2_mul_w(&x, &sa, &sb);
    fp2w_sub(&x, &x, &t0);
    fp2w_sub(&x, &x, &t2);
    fp2w_add(&r->c2, &x, &t1);
}

void fp6_mul(fp6 *r, const fp6 *a, const fp6 *b)
{
    fp6w t;
    fp6_mul_w(&t, a, b);
    fp6_redc(r, &t);
}

/* Chung-Hasan SQR2. */
void fp6_sqr(fp6 *r, const fp6 *a)
{
    fp2 s0, s1, s2, s3, s4, t;
    fp2_sqr(&s0, &a->c0);
    fp2_mul(&s1, &a->c0, &a->c1);
    fp2_dbl(&s1, &s1);
    fp2_sub(&t, &a->c0, &a->c1);
    fp2_add(&t, &t, &a->c2);
    fp2_sqr(&s2, &t);
    fp2_mul(&s3, &a->c1, &a->c2);
    fp2_dbl(&s3, &s3);
    fp2_sqr(&s4, &a->c2);
    /* c2 = s1 + s2 + s3 - s0 - s4 */
    fp2_add(&t, &s1, &s2);
    fp2_add(&t, &t, &s3);
    fp2_sub(&t, &t, &s0);
    fp2_sub(&r->c2, &t, &s4);
    /* c0 = s0 + xi s3, c1 = s1 + xi s4 */
    fp2_mul_by_xi(&s3, &s3);
    fp2_add(&r->c0, &s0, &s3);
    fp2_mul_by_xi(&s4, &s4);
    fp2_add(&r->c1, &s1, &s4);
}

void fp6_mul_by_v(fp6 *r, const fp6 *a)
{
    fp2 t;
    fp2_mul_by_xi(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

/* r = a (b0 + b1 v), double-width */
static void fp6_mul_by_01_w(fp6w *r, const fp6 *a, const fp2 *b0, const fp2 *b1)
{
    fp2w t0, t1, x;
    fp2 sa, sb;
    fp2_mul_w(&t0, &a->c0, b0);
    fp2_mul_w(&t1, &a->c1, b1);
    /* c0 = xi (a2 b1) + t0 */
    fp2_mul_w(&x, &a->c2, b1);
    fp2w_mul_by_xi(&x, &x);
    fp2w_add(&r->c0, &x, &t0);
    /* c1 = (a0 + a1)(b0 + b1) - t0 - t1 */
    fp2_add(&sa, &a->c0, &a->c1);
    fp2_add(&sb, b0, b1);
    fp2_mul_w(&x, &sa, &sb);
    fp2w_sub(&x, &x, &t0);
    fp2w_sub(&r->c1, &x, &t1);
    /* c2 = a2 b0 + t1 */
    fp2_mul_w(&x, &a->c2, b0);
    fp2w_add(&r->c2, &x, &t1);
}

/* r = a (b1 v) = xi a2 b1 + a0 b1 v + a1 b1 v^2, double-width */
static void fp6_mul_by_1_w(fp6w *r, const fp6 *a, const fp2 *b1)
{
    fp2w x;
    fp2_mul_w(&x, &a->c2, b1);
    fp2w_mul_by_xi(&r->c0, &x);
    fp2_mul_w(&r->c1, &a->c0, b1);
    fp2_mul_w(&r->c2, &a->c1, b1);
}

static void fp6_inv_with(fp6 *r, const fp6 *a, void (*inv2)(fp2 *, const fp2 *))
{
    fp2 c0, c1, c2, t, s;
    /* c0 = a0^2 - xi a1 a2 */
    fp2_sqr(&c0, &a->c0);
    fp2_mul(&t, &a->c1, &a->c2);
    fp2_mul_by_xi(&t, &t);
    fp2_sub(&c0, &c0, &t);
    /* c1 = xi a2^2 - a0 a1 */
    fp2_sqr(&c1, &a->c2);
    fp2_mul_by_xi(&c1, &c1);
    fp2_mul(&t, &a->c0, &a->c1);
    fp2_sub(&c1, &c1, &t);
    /* c2 = a1^2 - a0 a2 */
    fp2_sqr(&c2, &a->c1);
    fp2_mul(&t, &a->c0, &a->c2);
    fp2_sub(&c2, &c2, &t);
    /* t = a0 c0 + xi (a2 c1 + a1 c2) */
    fp2_mul(&t, &a->c2, &c1);
    fp2_mul(&s, &a->c1, &c2);
    fp2_add(&t, &t, &s);
    fp2_mul_by_xi(&t, &t);
    fp2_mul(&s, &a->c0, &c0);
    fp2_add(&t, &t, &s);
    inv2(&t, &t);
    fp2_mul(&r->c0, &c0, &t);
    fp2_mul(&r->c1, &c1, &t);
    fp2_mul(&r->c2, &c2, &t);
}

void fp6_inv(fp6 *r, const fp6 *a)
{
    fp6_inv_with(r, a, fp2_inv);
}

/* ---- Fp12 --------------------------------------------------------------------------------- */

void fp12_mul(fp12 *r, const fp12 *a, const fp12 *b)
{
    fp6w t0, t1, s;
    fp6 sa, sb;
    fp6_mul_w(&t0, &a->c0, &b->c0);
    fp6_mul_w(&t1, &a->c1, &b->c1);
    fp6_add(&sa, &a->c0, &a->c1);
    fp6_add(&sb, &b->c0, &b->c1);
    fp6_mul_w(&s, &sa, &sb);
    fp6w_sub(&s, &s, &t0);
    fp6w_sub(&s, &s, &t1);
    fp6_redc(&r->c1, &s);
    fp6w_add_mul_v(&t0, &t0, &t1);
    fp6_redc(&r->c0, &t0);
}

/* (a0 + a1 w)^2 = (a0 + a1)(a0 + v a1) - t - v t + 2t w, t = a0 a1 */
void fp12_sqr(fp12 *r, const fp12 *a)
{
    fp6w t, s;
    fp6 x, y;
    fp6_mul_w(&t, &a->c0, &a->c1);
    fp6_add(&x, &a->c0, &a->c1);
    fp6_mul_by_v(&y, &a->c1);
    fp6_add(&y, &y, &a->c0);
    fp6_mul_w(&s, &x, &y);
    fp6w_sub(&s, &s, &t);
    /* s - v t */
    fp2w u;
    fp2w_mul_by_xi(&u, &t.c2);
    fp2w_sub(&s.c0, &s.c0, &u);
    fp2w_sub(&s.c1, &s.c1, &t.c0);
    fp2w_sub(&s.c2, &s.c2, &t.c1);
    fp6_redc(&r->c0, &s);
    fp2w_add(&t.c0, &t.c0, &t.c0);
    fp2w_add(&t.c1, &t.c1, &t.c1);
    fp2w_add(&t.c2, &t.c2, &t.c2);
    fp6_redc(&r->c1, &t);
}

void fp12_conj(fp12 *r, const fp12 *a)
{
    r->c0 = a->c0;
    fp6_neg(&r->c1, &a->c1);
}

static void fp12_inv_with(fp12 *r, const fp12 *a, void (*inv2)(fp2 *, const fp2 *))
{
    fp6 t, s;
    fp6_sqr(&t, &a->c0);
    fp6_sqr(&s, &a->c1);
    fp6_mul_by_v(&s, &s);
    fp6_sub(&t, &t, &s);
    fp6_inv_with(&t, &t, inv2);
    fp6_mul(&r->c0, &a->c0, &t);
    fp6_mul(&s, &a->c1, &t);
    fp6_neg(&r->c1, &s);
}

void fp12_inv(fp12 *r, const fp12 *a)
{
    fp12_inv_with(r, a, fp2_inv);
}

void fp12_inv_vartime(fp12 *r, const fp12 *a)
{
    fp12_inv_with(r, a, fp2_inv_vartime);
}

static void frob_coeff(fp2 *r, const fp2 *a, int k, int i)
{
    /* r = a^(p^k) * gamma[k][i] */
    const fp2 *g = &BLS_FROB_GAMMA[k - 1][i - 1];
    if (k == 2) {
        fp2_mul_fp(r, a, &g->c0);
    } else {
        fp2 t;
        fp2_conj(&t, a);
        fp2_mul(r, &t, g);
    }
}

void fp12_frobenius(fp12 *r, const fp12 *a, int k)
{
    /* coefficient of w^j (j = 0..5) is multiplied by gamma[k][j]; c0 holds w^0, w^2, w^4 and
     * c1 holds w^1, w^3, w^5 */
    if (k & 1)
        fp2_conj(&r->c0.c0, &a->c0.c0);
    else
        r->c0.c0 = a->c0.c0;
    frob_coeff(&r->c0.c1, &a->c0.c1, k, 2);
    frob_coeff(&r->c0.c2, &a->c0.c2, k, 4);
    frob_coeff(&r->c1.c0, &a->c1.c0, k, 1);
    frob_coeff(&r->c1.c1, &a->c1.c1, k, 3);
    frob_coeff(&r->c1.c2, &a->c1.c2, k, 5);
}

void fp12_mul_by_014(fp12 *r, const fp12 *a, const fp2 *l0, const fp2 *l1, const fp2 *l4)
{
    fp6w t0, t1, s;
    fp6 sa;
    fp2 u;
    fp6_mul_by_01_w(&t0, &a->c0, l0, l1);
    fp6_mul_by_1_w(&t1, &a->c1, l4);
    fp6_add(&sa, &a->c0, &a->c1);
    fp2_add(&u, l1, l4);
    fp6_mul_by_01_w(&s, &sa, l0, &u);
    fp6w_sub(&s, &s, &t0);
    fp6w_sub(&s, &s, &t1);
    fp6_redc(&r->c1, &s);
    fp6w_add_mul_v(&t0, &t0, &t1);
    fp6_redc(&r->c0, &t0);
}

/* (x + y t)^2 in Fp4 = Fp2[t]/(t^2 - xi): returns x^2 + xi y^2 and 2xy. */
static void fp4_sqr(fp2 *r0, fp2 *r1, const fp2 *x, const fp2 *y)
{
    fp2 x2, y2, s;
    fp2_sqr(&x2, x);
    fp2_sqr(&y2, y);
    fp2_add(&s, x, y);
    fp2_sqr(&s, &s);
    fp2_sub(&s, &s, &x2);
    fp2_sub(r1, &s, &y2);
    fp2_mul_by_xi(&y2, &y2);
    fp2_add(r0, &x2, &y2);
}

/*
 * Granger-Scott squaring. With t = w^3, f = A + C w + B w^2 for A = a0 + b1 t, B = a1 + b2 t,
 * C = b0 + a2 t (c0 = a0 + a1 v + a2 v^2, c1 = b0 + b1 v + b2 v^2), and for f unitary:
 * A' = 3A^2 - 2 conj(A), B' = 3C^2 - 2 conj(B), C' = 3 t B^2 + 2 conj(C).
 */
void fp12_cyclotomic_sqr(fp12 *r, const fp12 *a)
{
    fp2 A0, A1, B0, B1, C0, C1, t;
    fp4_sqr(&A0, &A1, &a->c0.c0, &a->c1.c1);
    fp4_sqr(&B0, &B1, &a->c0.c1, &a->c1.c2);
    fp4_sqr(&C0, &C1, &a->c1.c0, &a->c0.c2);

    /* a0' = 3 A0 - 2 a0 ; b1' = 3 A1 + 2 b1 */
    fp2_sub(&t, &A0, &a->c0.c0);
    fp2_dbl(&t, &t);
    fp2_add(&r->c0.c0, &t, &A0);
    fp2_add(&t, &A1, &a->c1.c1);
    fp2_dbl(&t, &t);
    fp2_add(&r->c1.c1, &t, &A1);

    /* C' = 3 t B^2 + 2 conj(C): t B^2 = xi B1 + B0 t ; b0' = 3 xi B1 + 2 b0, a2' = 3 B0 - 2 a2 */
    fp2_mul_by_xi(&B1, &B1);
    fp2_add(&t, &B1, &a->c1.c0);
    fp2_dbl(&t, &t);
    fp2_add(&r->c1.c0, &t, &B1);
    fp2_sub(&t, &B0, &a->c0.c2);
    fp2_dbl(&t, &t);
    fp2_add(&r->c0.c2, &t, &B0);

    /* B' = 3 C^2 - 2 conj(B): a1' = 3 C0 - 2 a1, b2' = 3 C1 + 2 b2 */
    fp2_sub(&t, &C0, &a->c0.c1);
    fp2_dbl(&t, &t);
    fp2_add(&r->c0.c1, &t, &C0);
    fp2_add(&t, &C1, &a->c1.c2);
    fp2_dbl(&t, &t);
    fp2_add(&r->c1.c2, &t, &C1);
}

int fp12_eq(const fp12 *a, const fp12 *b)
{
    uint64_t m = fp2_eq_mask(&a->c0.c0, &b->c0.c0) & fp2_eq_mask(&a->c0.c1, &b->c0.c1) &
                 fp2_eq_mask(&a->c0.c2, &b->c0.c2) & fp2_eq_mask(&a->c1.c0, &b->c1.c0) &
                 fp2_eq_mask(&a->c1.c1, &b->c1.c1) & fp2_eq_mask(&a->c1.c2, &b->c1.c2);
    return (int)(m & 1);
}

int fp12_is_one(const fp12 *a)
{
    return fp12_eq(a, &BLS_FP12_ONE);
}
