/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Optimal ate pairing (see pairing.h). */
#include "bls12_381/pairing.h"

#include <string.h>

#include "bls12_381/constants.h"

/* Long straight-line formulas: the products as calls (fp2.h, fp2_mul_call). */
#define fp2_mul fp2_mul_call
#define fp2_sqr fp2_sqr_call

/* Twist point in homogeneous projective coordinates during the Miller loop. */
typedef struct {
    fp2 x, y, z;
} twist_pt;

/* Evaluation point: P's coordinates, xP, -yP and 3 xP (the line formulas want these). */
typedef struct {
    fp x, ny, x3;
} eval_pt;

/*
 * Doubling step (Costello-Lange-Naehrig 2010, homogeneous coordinates, b' = 4(1+u)).
 * The tangent line at T evaluated at P, scaled into Fp12 by w^3 and an Fp2 factor, is
 * l0 + l1 v + l4 v w with l0 = 3b'Z^2 - Y^2, l1 = 3X^2 xP = X^2 (3 xP), l4 = -2YZ yP.
 */
static void dbl_step(twist_pt *t, fp2 *l0, fp2 *l1, fp2 *l4, const eval_pt *p)
{
    fp2 a, b, c, e, f, g, h, j, s;
    fp2_mul(&a, &t->x, &t->y);
    fp2_half(&a, &a);
    fp2_sqr(&b, &t->y);
    fp2_sqr(&c, &t->z);
    fp2_mul_by_xi(&e, &c);
    fp2_mul4(&e, &e);
    fp2_mul3(&e, &e); /* E = 3 b' Z^2 = 12 (1+u) Z^2 */
    fp2_mul3(&f, &e);
    fp2_add(&g, &b, &f);
    fp2_half(&g, &g);
    fp2_add(&h, &t->y, &t->z);
    fp2_sqr(&h, &h);
    fp2_add(&s, &b, &c);
    fp2_sub(&h, &h, &s); /* H = 2YZ */
    fp2_sub(l0, &e, &b);
    fp2_sqr(&j, &t->x);
    fp2_mul_fp(l1, &j, &p->x3);
    fp2_mul_fp(l4, &h, &p->ny);
    /* X3 = A (B - F), Y3 = G^2 - 3 E^2, Z3 = B H */
    fp2_sub(&s, &b, &f);
    fp2_mul(&t->x, &a, &s);
    fp2_sqr(&g, &g);
    fp2_sqr(&e, &e);
    fp2_mul3(&e, &e);
    fp2_sub(&t->y, &g, &e);
    fp2_mul(&t->z, &b, &h);
}

/*
 * Mixed addition step T + Q (Q affine). With theta = Y - yQ Z and lambda = X - xQ Z the chord
 * evaluated at P is l0 = theta xQ - lambda yQ, l1 = -theta xP, l4 = lambda yP.
 */
static void add_step(twist_pt *t, fp2 *l0, fp2 *l1, fp2 *l4, const g2_a *q, const eval_pt *p)
{
    fp2 theta, lambda, c, d, e, f, g, h, s;
    fp2_mul(&theta, &q->y, &t->z);
    fp2_sub(&theta, &t->y, &theta);
    fp2_mul(&lambda, &q->x, &t->z);
    fp2_sub(&lambda, &t->x, &lambda);
    fp2_sqr(&c, &theta);
    fp2_sqr(&d, &lambda);
    fp2_mul(&e, &lambda, &d);
    fp2_mul(&f, &t->z, &c);
    fp2_mul(&g, &t->x, &d);
    fp2_add(&h, &e, &f);
    fp2_sub(&h, &h, &g);
    fp2_sub(&h, &h, &g);
    /* line */
    fp2_mul(l0, &theta, &q->x);
    fp2_mul(&s, &lambda, &q->y);
    fp2_sub(l0, l0, &s);
    fp2_mul_fp(l1, &theta, &p->x);
    fp2_neg(l1, l1);
    fp2_mul_fp(l4, &lambda, &p->ny);
    fp2_neg(l4, l4);
    /* X3 = lambda H, Y3 = theta (G - H) - Y E, Z3 = Z E */
    fp2_mul(&t->x, &lambda, &h);
    fp2_sub(&g, &g, &h);
    fp2_mul(&g, &theta, &g);
    fp2_mul(&s, &t->y, &e);
    fp2_sub(&t->y, &g, &s);
    fp2_mul(&t->z, &t->z, &e);
}

#define MILLER_CHUNK 16

/*
 * The accumulator's first lines: f starts at 1, so the first line value is f itself (no
 * product), and the second is a product of two sparse values, six Fp2 products:
 * (l0 + l1 v + l4 vw)(m0 + m1 v + m4 vw) = (l0 m0 + xi l4 m4) + (l0 m1 + l1 m0) v + l1 m1 v^2
 *   + ((l0 m4 + l4 m0) v + (l1 m4 + l4 m1) v^2) w      (w^2 = v, v^3 = xi).
 * Only the number of lines taken so far (public: it follows the loop) selects the formula.
 */
typedef struct {
    fp12 f;
    fp2 l0, l1, l4; /* the first line while only one was taken */
    int lines;      /* 0, 1, or 2 for "f is a general value" */
} miller_acc;

static void acc_line(miller_acc *a, const fp2 *l0, const fp2 *l1, const fp2 *l4)
{
    if (a->lines == 0) {
        a->l0 = *l0;
        a->l1 = *l1;
        a->l4 = *l4;
        a->lines = 1;
        return;
    }
    if (a->lines == 2) {
        fp12_mul_by_014(&a->f, &a->f, l0, l1, l4);
        return;
    }
    fp2 p00, p11, p44, s, t;
    fp12 *f = &a->f;
    fp2_mul(&p00, &a->l0, l0);
    fp2_mul(&p11, &a->l1, l1);
    fp2_mul(&p44, &a->l4, l4);
    fp2_mul_by_xi(&s, &p44);
    fp2_add(&f->c0.c0, &p00, &s);
    fp2_add(&s, &a->l0, &a->l1);
    fp2_add(&t, l0, l1);
    fp2_mul(&s, &s, &t);
    fp2_sub(&s, &s, &p00);
    fp2_sub(&f->c0.c1, &s, &p11);
    f->c0.c2 = p11;
    memset(&f->c1.c0, 0, sizeof f->c1.c0);
    fp2_add(&s, &a->l0, &a->l4);
    fp2_add(&t, l0, l4);
    fp2_mul(&s, &s, &t);
    fp2_sub(&s, &s, &p00);
    fp2_sub(&f->c1.c1, &s, &p44);
    fp2_add(&s, &a->l1, &a->l4);
    fp2_add(&t, l1, l4);
    fp2_mul(&s, &s, &t);
    fp2_sub(&s, &s, &p11);
    fp2_sub(&f->c1.c2, &s, &p44);
    a->lines = 2;
}

/* f after the loop: 1, the single line, or the accumulated value. */
static void acc_value(fp12 *f, const miller_acc *a)
{
    if (a->lines == 2) {
        *f = a->f;
        return;
    }
    *f = BLS_FP12_ONE;
    if (a->lines == 1) {
        f->c0.c0 = a->l0;
        f->c0.c1 = a->l1;
        f->c1.c1 = a->l4;
    }
}

static void miller_chunk(fp12 *f, const g1_a *p, const g2_a *q, size_t n)
{
    twist_pt t[MILLER_CHUNK];
    eval_pt e[MILLER_CHUNK];
    const g2_a *qq[MILLER_CHUNK];
    size_t m = 0;
    fp2 l0, l1, l4;
    miller_acc acc;
    for (size_t i = 0; i < n; i++) {
        if ((fp_is_zero(&p[i].x) && fp_is_zero(&p[i].y)) ||
            (fp2_is_zero(&q[i].x) && fp2_is_zero(&q[i].y)))
            continue; /* e(O, Q) = e(P, O) = 1 */
        t[m].x = q[i].x;
        t[m].y = q[i].y;
        t[m].z = BLS_FP2_ONE;
        e[m].x = p[i].x;
        fp_neg(&e[m].ny, &p[i].y);
        fp_add(&e[m].x3, &p[i].x, &p[i].x);
        fp_add(&e[m].x3, &e[m].x3, &p[i].x);
        qq[m] = &q[i];
        m++;
    }
    acc.lines = 0;
    for (int i = 62; i >= 0; i--) {
        if (acc.lines == 2)
            fp12_sqr(&acc.f, &acc.f);
        else if (acc.lines == 1) { /* a single line squared: a product of two sparse values */
            l0 = acc.l0;
            l1 = acc.l1;
            l4 = acc.l4;
            acc_line(&acc, &l0, &l1, &l4);
        }
        for (size_t k = 0; k < m; k++) {
            dbl_step(&t[k], &l0, &l1, &l4, &e[k]);
            acc_line(&acc, &l0, &l1, &l4);
        }
        if ((BLS_Z_ABS >> i) & 1) {
            for (size_t k = 0; k < m; k++) {
                add_step(&t[k], &l0, &l1, &l4, qq[k], &e[k]);
                acc_line(&acc, &l0, &l1, &l4);
            }
        }
    }
    acc_value(f, &acc);
    fp12_conj(f, f); /* z < 0 */
}

void bls_miller_loop(fp12 *f, const g1_a *p, const g2_a *q, size_t n)
{
    fp12 g;
    miller_chunk(f, p, q, n < MILLER_CHUNK ? n : MILLER_CHUNK);
    for (size_t i = MILLER_CHUNK; i < n; i += MILLER_CHUNK) {
        miller_chunk(&g, p + i, q + i, n - i < MILLER_CHUNK ? n - i : MILLER_CHUNK);
        fp12_mul(f, f, &g);
    }
}

/*
 * Karabina's compressed squaring. An element of the cyclotomic subgroup,
 * c0 = a0 + a1 v + a2 v^2, c1 = b0 + b1 v + b2 v^2, is determined by (a1, a2, b0, b2) (his
 * g4, g3, g2, g5), which the Granger-Scott formulas square on their own:
 *   a1' = 3(b0^2 + xi a2^2) - 2 a1      a2' = 3(a1^2 + xi b2^2) - 2 a2
 *   b0' = 6 xi a1 b2 + 2 b0             b2' = 6 b0 a2 + 2 b2
 * (six Fp2 squarings instead of nine). Decompression:
 *   b1 = (xi b2^2 + 3 a1^2 - 2 a2) / (4 b0),   a0 = (2 b1^2 + b0 b2 - 3 a1 a2) xi + 1.
 */
typedef struct {
    fp2 a1, a2, b0, b2;
} cyclo_comp;

static void comp_sqr(cyclo_comp *r, const cyclo_comp *c)
{
    fp2 sb0, sa2, sx, sa1, sb2, sy, t, u;
    fp2_sqr(&sb0, &c->b0);
    fp2_sqr(&sa2, &c->a2);
    fp2_add(&t, &c->b0, &c->a2);
    fp2_sqr(&sx, &t);
    fp2_sqr(&sa1, &c->a1);
    fp2_sqr(&sb2, &c->b2);
    fp2_add(&t, &c->a1, &c->b2);
    fp2_sqr(&sy, &t);
    /* a1' = 3T - 2 a1, T = b0^2 + xi a2^2 */
    fp2_mul_by_xi(&t, &sa2);
    fp2_add(&t, &t, &sb0);
    fp2_sub(&u, &t, &c->a1);
    fp2_dbl(&u, &u);
    fp2_add(&r->a1, &u, &t);
    /* a2' = 3T - 2 a2, T = a1^2 + xi b2^2 */
    fp2_mul_by_xi(&t, &sb2);
    fp2_add(&t, &t, &sa1);
    fp2_sub(&u, &t, &c->a2);
    fp2_dbl(&u, &u);
    fp2_add(&r->a2, &u, &t);
    /* b2' = 3T + 2 b2, T = 2 b0 a2 */
    fp2_sub(&t, &sx, &sb0);
    fp2_sub(&t, &t, &sa2);
    fp2_add(&u, &t, &c->b2);
    fp2_dbl(&u, &u);
    fp2_add(&r->b2, &u, &t);
    /* b0' = 3T + 2 b0, T = 2 xi a1 b2 */
    fp2_sub(&t, &sy, &sa1);
    fp2_sub(&t, &t, &sb2);
    fp2_mul_by_xi(&t, &t);
    fp2_add(&u, &t, &c->b0);
    fp2_dbl(&u, &u);
    fp2_add(&r->b0, &u, &t);
}

/* a^|z| for a in the cyclotomic subgroup with compressed squarings; 0 if some b0 was zero. */
static int cyclotomic_exp_z_abs_comp(fp12 *r, const fp12 *a)
{
    /* |z| = 2^63 + 2^62 + 2^60 + 2^57 + 2^48 + 2^16 */
    static const int marks[6] = {16, 48, 57, 60, 62, 63};
    cyclo_comp c = {a->c0.c1, a->c0.c2, a->c1.c0, a->c1.c2}, s[6];
    fp2 num[6], pre[6], inv, t, u;
    fp12 x;
    int k = 0;
    for (int i = 1; i <= 63; i++) {
        comp_sqr(&c, &c);
        if (i == marks[k])
            s[k++] = c;
    }
    /* numerators and the batch inversion of the denominators 4 b0 */
    for (int j = 0; j < 6; j++) {
        if (fp2_is_zero(&s[j].b0))
            return 0;
        fp2_sqr(&t, &s[j].b2);
        fp2_mul_by_xi(&t, &t);
        fp2_sqr(&u, &s[j].a1);
        fp2_mul3(&u, &u);
        fp2_add(&t, &t, &u);
        fp2_dbl(&u, &s[j].a2);
        fp2_sub(&num[j], &t, &u);
        fp2_mul4(&u, &s[j].b0);
        if (j == 0)
            pre[0] = u;
        else
            fp2_mul(&pre[j], &pre[j - 1], &u);
    }
    fp2_inv_vartime(&inv, &pre[5]);
    for (int j = 5; j >= 0; j--) {
        fp2 d;
        if (j > 0) {
            fp2_mul(&d, &inv, &pre[j - 1]); /* 1 / (4 b0_j) */
            fp2_mul4(&u, &s[j].b0);
            fp2_mul(&inv, &inv, &u);
        } else {
            d = inv;
        }
        /* decompress s[j] into x */
        x.c0.c1 = s[j].a1;
        x.c0.c2 = s[j].a2;
        x.c1.c0 = s[j].b0;
        x.c1.c2 = s[j].b2;
        fp2_mul(&x.c1.c1, &num[j], &d);
        fp2_sqr(&t, &x.c1.c1);
        fp2_dbl(&t, &t);
        fp2_mul(&u, &s[j].b0, &s[j].b2);
        fp2_add(&t, &t, &u);
        fp2_mul(&u, &s[j].a1, &s[j].a2);
        fp2_mul3(&u, &u);
        fp2_sub(&t, &t, &u);
        fp2_mul_by_xi(&t, &t);
        fp2_add(&x.c0.c0, &t, &BLS_FP2_ONE);
        if (j == 5)
            *r = x;
        else
            fp12_mul(r, r, &x);
    }
    return 1;
}

/* r = a^z for a in the cyclotomic subgroup (z < 0: conjugate of a^|z|). */
static void cyclotomic_exp_z(fp12 *r, const fp12 *a)
{
    fp12 acc = *a;
    if (!cyclotomic_exp_z_abs_comp(&acc, a)) {
        acc = *a;
        for (int i = 62; i >= 0; i--) {
            fp12_cyclotomic_sqr(&acc, &acc);
            if ((BLS_Z_ABS >> i) & 1)
                fp12_mul(&acc, &acc, a);
        }
    }
    fp12_conj(r, &acc);
}

/* The easy part of the final exponentiation: f^((p^6 - 1)(p^2 + 1)), in the cyclotomic subgroup. */
static void final_exp_easy(fp12 *r, const fp12 *f)
{
    fp12 t0, t1;
    fp12_conj(&t0, f);
    fp12_inv_vartime(&t1, f);
    fp12_mul(&t0, &t0, &t1);
    fp12_frobenius(&t1, &t0, 2);
    fp12_mul(r, &t1, &t0);
}

/*
 * c = a^((z-1)(z+p)(z^2+p^2-1)). With a = t0^(z-1) this is the HHT hard part without its
 * "+ 3" term (3 (p^4-p^2+1)/r); with a = t0^((z-1)/3), the exact one without its "+ 1".
 */
static void final_exp_hard_tail(fp12 *c, const fp12 *a_in)
{
    fp12 a, b, t1;
    cyclotomic_exp_z(&b, a_in);
    fp12_conj(&t1, a_in);
    fp12_mul(&a, &b, &t1); /* a_in^(z-1) */
    cyclotomic_exp_z(&b, &a);
    fp12_frobenius(&t1, &a, 1);
    fp12_mul(&b, &b, &t1); /* a^(z+p) */
    cyclotomic_exp_z(c, &b);
    cyclotomic_exp_z(c, c);
    fp12_frobenius(&t1, &b, 2);
    fp12_mul(c, c, &t1);
    fp12_conj(&t1, &b);
    fp12_mul(c, c, &t1); /* b^(z^2 + p^2 - 1) */
}

void bls_final_exp(fp12 *r, const fp12 *f)
{
    fp12 t0, a, c, t1;
    final_exp_easy(&t0, f);
    /* hard part: t0^((z-1)^2 (z+p)(z^2+p^2-1) + 3) = t0^(3 (p^4 - p^2 + 1)/r) */
    cyclotomic_exp_z(&a, &t0);
    fp12_conj(&t1, &t0);
    fp12_mul(&a, &a, &t1); /* t0^(z-1) */
    final_exp_hard_tail(&c, &a);
    fp12_cyclotomic_sqr(&t1, &t0);
    fp12_mul(&t1, &t1, &t0);
    fp12_mul(r, &c, &t1);
}

/*
 * a^e for a in the cyclotomic subgroup and a public 64-bit e: fixed 4-bit windows over
 * cyclotomic squarings, with only the table entries e's digits use.
 */
static void cyclotomic_pow_u64_vartime(fp12 *r, const fp12 *a, uint64_t e)
{
    fp12 tab[16], acc;
    unsigned used = 0;
    int started = 0;
    for (int i = 0; i < 16; i++)
        used |= 1u << ((e >> (4 * i)) & 15);
    tab[1] = *a;
    for (unsigned d = 2; d < 16; d++) {
        /* every entry up to the largest digit used (for (|z|+1)/3: up to 11, five
         * squarings and five products) */
        if ((used >> d) == 0)
            break;
        if ((d & 1) == 0)
            fp12_cyclotomic_sqr(&tab[d], &tab[d / 2]);
        else
            fp12_mul(&tab[d], &tab[d - 1], a);
    }
    acc = BLS_FP12_ONE;
    for (int i = 15; i >= 0; i--) {
        unsigned d = (unsigned)(e >> (4 * i)) & 15;
        if (started)
            for (int s = 0; s < 4; s++)
                fp12_cyclotomic_sqr(&acc, &acc);
        if (d != 0) {
            if (started)
                fp12_mul(&acc, &acc, &tab[d]);
            else
                acc = tab[d];
            started = 1;
        }
    }
    *r = acc;
}

/* (|z| + 1) / 3: z = 1 (mod 3), so (z - 1)/3 = -(|z| + 1)/3 is an integer. */
#define BLS_Z_ABS_PLUS_1_DIV_3 0x460055555555aaabULL

void bls_final_exp_exact(fp12 *r, const fp12 *f)
{
    fp12 t0, a, c;
    final_exp_easy(&t0, f);
    /* hard part: (p^4 - p^2 + 1)/r = ((z-1)^2/3)(z+p)(z^2+p^2-1) + 1, and (z-1)^2/3 =
     * ((z-1)/3)(z-1) */
    cyclotomic_pow_u64_vartime(&a, &t0, BLS_Z_ABS_PLUS_1_DIV_3);
    fp12_conj(&a, &a); /* t0^((z-1)/3) */
    final_exp_hard_tail(&c, &a);
    fp12_mul(r, &c, &t0);
}

void bls_pairing(fp12 *r, const g1_a *p, const g2_a *q, size_t n)
{
    fp12 f;
    bls_miller_loop(&f, p, q, n);
    bls_final_exp(r, &f);
}
