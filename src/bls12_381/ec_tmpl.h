/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Curve arithmetic shared by G1 and G2 (short Weierstrass, a = 0). Included by g1.c and g2.c
 * after defining:
 *   FE, FE_(op)       the coordinate field type and its functions (fp_add -> FE_(add))
 *   PT, AFF, P_(op)   the Jacobian and affine point types and the function prefix
 *   CURVE_B3          3b (for the complete formulas)
 *   GEN_X, GEN_Y      the generator
 *   FE_ONE            1 in the field
 *   ENDO_Z2(r, a)     r = [z^2] a on the subgroup, in homogeneous coordinates
 *   CURVE_B           b
 *   FE_BYTES          bytes of one encoded coordinate (48 for Fp, 96 for Fp2)
 *   FE_TO_BYTES(out, a), FE_FROM_BYTES(r, in)
 *                     ZCash coordinate encoding (FE_FROM_BYTES returns 0 for a value >= p)
 *   FE_SQRT(r, a)     square root (returns 0 if a is not a square)
 * Formulas: dbl-2009-l, add-2007-bl, madd-2007-bl (Jacobian, a = 0) for the variable-time
 * code; Renes-Costello-Batina 2016 algorithms 7 and 9 (complete, homogeneous projective) for
 * the constant-time scalar multiplication.
 */

#include <stdlib.h>
#include <string.h>

#include "bls12_381/constants.h"
#include "bls12_381/fr.h"

void P_(set_inf)(PT *r)
{
    r->x = FE_ONE;
    r->y = FE_ONE;
    FE_(set_zero)(&r->z);
}

int P_(is_inf)(const PT *a)
{
    return FE_(is_zero)(&a->z);
}

void P_(from_affine)(PT *r, const AFF *a)
{
    uint64_t inf = FE_(is_zero_mask)(&a->x) & FE_(is_zero_mask)(&a->y);
    FE zero;
    FE_(set_zero)(&zero);
    r->x = a->x;
    r->y = a->y;
    r->z = FE_ONE;
    FE_(cmov)(&r->z, &zero, inf);
}

void P_(generator)(PT *r)
{
    r->x = GEN_X;
    r->y = GEN_Y;
    r->z = FE_ONE;
}

void P_(neg)(PT *r, const PT *a)
{
    r->x = a->x;
    FE_(neg)(&r->y, &a->y);
    r->z = a->z;
}

/* r = mask ? -r : r */
void P_(cneg)(PT *r, uint64_t mask)
{
    FE t;
    FE_(neg)(&t, &r->y);
    FE_(cmov)(&r->y, &t, mask);
}

/* dbl-2009-l: 2M + 5S. Infinity (Z = 0) maps to infinity. */
void P_(dbl)(PT *r, const PT *a)
{
    FE A, B, C, D, E, F, t;
    FE_(sqr)(&A, &a->x);
    FE_(sqr)(&B, &a->y);
    FE_(sqr)(&C, &B);
    FE_(add)(&t, &a->x, &B);
    FE_(sqr)(&t, &t);
    FE_(sub)(&t, &t, &A);
    FE_(sub)(&t, &t, &C);
    FE_(dbl)(&D, &t);
    FE_(mul3)(&E, &A);
    FE_(sqr)(&F, &E);
    FE_(mul)(&t, &a->y, &a->z);
    FE_(dbl)(&r->z, &t);
    FE_(sub)(&r->x, &F, &D);
    FE_(sub)(&r->x, &r->x, &D);
    FE_(sub)(&t, &D, &r->x);
    FE_(mul)(&t, &E, &t);
    FE_(mul8)(&C, &C);
    FE_(sub)(&r->y, &t, &C);
}

/* add-2007-bl: 11M + 5S, with the special cases handled by branches. */
void P_(add_vartime)(PT *r, const PT *a, const PT *b)
{
    FE z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    if (P_(is_inf)(a)) {
        *r = *b;
        return;
    }
    if (P_(is_inf)(b)) {
        *r = *a;
        return;
    }
    FE_(sqr)(&z1z1, &a->z);
    FE_(sqr)(&z2z2, &b->z);
    FE_(mul)(&u1, &a->x, &z2z2);
    FE_(mul)(&u2, &b->x, &z1z1);
    FE_(mul)(&s1, &a->y, &b->z);
    FE_(mul)(&s1, &s1, &z2z2);
    FE_(mul)(&s2, &b->y, &a->z);
    FE_(mul)(&s2, &s2, &z1z1);
    FE_(sub)(&h, &u2, &u1);
    FE_(sub)(&rr, &s2, &s1);
    if (FE_(is_zero)(&h)) {
        if (FE_(is_zero)(&rr))
            P_(dbl)(r, a);
        else
            P_(set_inf)(r);
        return;
    }
    FE_(dbl)(&rr, &rr);
    FE_(dbl)(&i, &h);
    FE_(sqr)(&i, &i);
    FE_(mul)(&j, &h, &i);
    FE_(mul)(&v, &u1, &i);
    /* Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H */
    FE_(add)(&t, &a->z, &b->z);
    FE_(sqr)(&t, &t);
    FE_(sub)(&t, &t, &z1z1);
    FE_(sub)(&t, &t, &z2z2);
    FE_(mul)(&r->z, &t, &h);
    /* X3 = rr^2 - J - 2V */
    FE_(sqr)(&t, &rr);
    FE_(sub)(&t, &t, &j);
    FE_(sub)(&t, &t, &v);
    FE_(sub)(&r->x, &t, &v);
    /* Y3 = rr (V - X3) - 2 S1 J */
    FE_(sub)(&t, &v, &r->x);
    FE_(mul)(&t, &rr, &t);
    FE_(mul)(&s1, &s1, &j);
    FE_(dbl)(&s1, &s1);
    FE_(sub)(&r->y, &t, &s1);
}

/* madd-2007-bl: 7M + 4S; b affine ((0, 0) = infinity). */
void P_(add_affine_vartime)(PT *r, const PT *a, const AFF *b)
{
    FE z1z1, u2, s2, h, hh, i, j, rr, v, t;
    if (FE_(is_zero)(&b->x) && FE_(is_zero)(&b->y)) {
        *r = *a;
        return;
    }
    if (P_(is_inf)(a)) {
        P_(from_affine)(r, b);
        return;
    }
    FE_(sqr)(&z1z1, &a->z);
    FE_(mul)(&u2, &b->x, &z1z1);
    FE_(mul)(&s2, &b->y, &a->z);
    FE_(mul)(&s2, &s2, &z1z1);
    FE_(sub)(&h, &u2, &a->x);
    FE_(sub)(&rr, &s2, &a->y);
    if (FE_(is_zero)(&h)) {
        if (FE_(is_zero)(&rr))
            P_(dbl)(r, a);
        else
            P_(set_inf)(r);
        return;
    }
    FE_(dbl)(&rr, &rr);
    FE_(sqr)(&hh, &h);
    FE_(mul4)(&i, &hh);
    FE_(mul)(&j, &h, &i);
    FE_(mul)(&v, &a->x, &i);
    /* Z3 = (Z1 + H)^2 - Z1Z1 - HH */
    FE_(add)(&t, &a->z, &h);
    FE_(sqr)(&t, &t);
    FE_(sub)(&t, &t, &z1z1);
    FE_(sub)(&r->z, &t, &hh);
    /* X3 = rr^2 - J - 2V */
    FE_(sqr)(&t, &rr);
    FE_(sub)(&t, &t, &j);
    FE_(sub)(&t, &t, &v);
    FE_(sub)(&t, &t, &v);
    /* Y3 = rr (V - X3) - 2 Y1 J */
    FE_(sub)(&v, &v, &t);
    FE_(mul)(&v, &rr, &v);
    FE_(mul)(&j, &a->y, &j);
    FE_(dbl)(&j, &j);
    FE_(sub)(&r->y, &v, &j);
    r->x = t;
}

/* ---- complete formulas on homogeneous projective coordinates (x = X/Z, y = Y/Z) --------- */

/* r = 3b a: by the group's additions-only MUL_B3 when it defines one (G1: 3b = 12, G2:
 * 3b = 12 (1 + u)), else a full multiplication */
#ifndef MUL_B3
#define MUL_B3(r, a) FE_(mul)((r), &CURVE_B3, (a))
#endif

static void P_(proj_add)(PT *r, const PT *a, const PT *b)
{
    FE t0, t1, t2, t3, t4, x3, y3, z3;
    FE_(mul)(&t0, &a->x, &b->x);
    FE_(mul)(&t1, &a->y, &b->y);
    FE_(mul)(&t2, &a->z, &b->z);
    FE_(add)(&t3, &a->x, &a->y);
    FE_(add)(&t4, &b->x, &b->y);
    FE_(mul)(&t3, &t3, &t4);
    FE_(add)(&t4, &t0, &t1);
    FE_(sub)(&t3, &t3, &t4);
    FE_(add)(&t4, &a->y, &a->z);
    FE_(add)(&x3, &b->y, &b->z);
    FE_(mul)(&t4, &t4, &x3);
    FE_(add)(&x3, &t1, &t2);
    FE_(sub)(&t4, &t4, &x3);
    FE_(add)(&x3, &a->x, &a->z);
    FE_(add)(&y3, &b->x, &b->z);
    FE_(mul)(&x3, &x3, &y3);
    FE_(add)(&y3, &t0, &t2);
    FE_(sub)(&y3, &x3, &y3);
    FE_(dbl)(&x3, &t0);
    FE_(add)(&t0, &x3, &t0);
    MUL_B3(&t2, &t2);
    FE_(add)(&z3, &t1, &t2);
    FE_(sub)(&t1, &t1, &t2);
    MUL_B3(&y3, &y3);
    FE_(mul)(&x3, &t4, &y3);
    FE_(mul)(&t2, &t3, &t1);
    FE_(sub)(&x3, &t2, &x3);
    FE_(mul)(&y3, &y3, &t0);
    FE_(mul)(&t1, &t1, &z3);
    FE_(add)(&y3, &t1, &y3);
    FE_(mul)(&t0, &t0, &t3);
    FE_(mul)(&z3, &z3, &t4);
    FE_(add)(&z3, &z3, &t0);
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

static void P_(proj_dbl)(PT *r, const PT *a)
{
    FE t0, t1, t2, x3, y3, z3;
    FE_(sqr)(&t0, &a->y);
    FE_(mul8)(&z3, &t0);
    FE_(mul)(&t1, &a->y, &a->z);
    FE_(sqr)(&t2, &a->z);
    MUL_B3(&t2, &t2);
    FE_(mul)(&x3, &t2, &z3);
    FE_(add)(&y3, &t0, &t2);
    FE_(mul)(&z3, &t1, &z3);
    FE_(dbl)(&t1, &t2);
    FE_(add)(&t2, &t1, &t2);
    FE_(sub)(&t0, &t0, &t2);
    FE_(mul)(&y3, &t0, &y3);
    FE_(add)(&y3, &x3, &y3);
    FE_(mul)(&t1, &a->x, &a->y);
    FE_(mul)(&x3, &t0, &t1);
    FE_(dbl)(&x3, &x3);
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

/* Jacobian (X, Y, Z) -> homogeneous (X Z, Y, Z^3); infinity -> (0, Y, 0). */
static void P_(jac_to_proj)(PT *r, const PT *a)
{
    FE z2;
    FE_(sqr)(&z2, &a->z);
    FE_(mul)(&r->x, &a->x, &a->z);
    r->y = a->y;
    FE_(mul)(&r->z, &z2, &a->z);
    /* make infinity exactly (0 : 1 : 0) */
    uint64_t inf = FE_(is_zero_mask)(&a->z);
    FE one = FE_ONE;
    FE_(cmov)(&r->y, &one, inf);
}

/* homogeneous (X, Y, Z) -> Jacobian (X Z, Y Z^2, Z) */
static void P_(proj_to_jac)(PT *r, const PT *a)
{
    FE z2;
    FE_(sqr)(&z2, &a->z);
    FE_(mul)(&r->x, &a->x, &a->z);
    FE_(mul)(&r->y, &a->y, &z2);
    r->z = a->z;
}

/* Constant-time addition of Jacobian points (complete; no exceptional cases). */
void P_(add_ct)(PT *r, const PT *a, const PT *b)
{
    PT pa, pb;
    P_(jac_to_proj)(&pa, a);
    P_(jac_to_proj)(&pb, b);
    P_(proj_add)(&pa, &pa, &pb);
    P_(proj_to_jac)(r, &pa);
}

int P_(eq_vartime)(const PT *a, const PT *b)
{
    FE z1z1, z2z2, t1, t2;
    int ia = P_(is_inf)(a), ib = P_(is_inf)(b);
    if (ia || ib)
        return ia == ib;
    FE_(sqr)(&z1z1, &a->z);
    FE_(sqr)(&z2z2, &b->z);
    FE_(mul)(&t1, &a->x, &z2z2);
    FE_(mul)(&t2, &b->x, &z1z1);
    if (!FE_(eq)(&t1, &t2))
        return 0;
    FE_(mul)(&t1, &a->y, &z2z2);
    FE_(mul)(&t1, &t1, &b->z);
    FE_(mul)(&t2, &b->y, &z1z1);
    FE_(mul)(&t2, &t2, &a->z);
    return FE_(eq)(&t1, &t2);
}

/* Y^2 = X^3 + b Z^6 (infinity counts as on the curve). */
int P_(on_curve)(const PT *a)
{
    FE l, rgt, z6;
    FE_(sqr)(&l, &a->y);
    FE_(sqr)(&rgt, &a->x);
    FE_(mul)(&rgt, &rgt, &a->x);
    FE_(sqr)(&z6, &a->z);
    FE_(mul)(&z6, &z6, &a->z);
    FE_(sqr)(&z6, &z6);
    FE_(mul)(&z6, &z6, &CURVE_B);
    FE_(add)(&rgt, &rgt, &z6);
    return FE_(eq)(&l, &rgt) | P_(is_inf)(a);
}

/* y^2 = x^3 + b for an affine point given as coordinates ((0, 0) is not on the curve). */
int P_(affine_on_curve)(const AFF *a)
{
    FE l, rgt;
    FE_(sqr)(&l, &a->y);
    FE_(sqr)(&rgt, &a->x);
    FE_(mul)(&rgt, &rgt, &a->x);
    FE_(add)(&rgt, &rgt, &CURVE_B);
    return FE_(eq)(&l, &rgt);
}

void P_(to_affine)(AFF *r, const PT *a)
{
    FE zi, zi2;
    FE_(inv)(&zi, &a->z); /* 0 -> 0: infinity becomes (0, 0) */
    FE_(sqr)(&zi2, &zi);
    FE_(mul)(&r->x, &a->x, &zi2);
    FE_(mul)(&zi2, &zi2, &zi);
    FE_(mul)(&r->y, &a->y, &zi2);
}

void P_(to_affine_vartime)(AFF *r, const PT *a)
{
    FE zi, zi2;
    if (P_(is_inf)(a)) {
        FE_(set_zero)(&r->x);
        FE_(set_zero)(&r->y);
        return;
    }
    FE_(inv_vartime)(&zi, &a->z);
    FE_(sqr)(&zi2, &zi);
    FE_(mul)(&r->x, &a->x, &zi2);
    FE_(mul)(&zi2, &zi2, &zi);
    FE_(mul)(&r->y, &a->y, &zi2);
}

/*
 * Montgomery's simultaneous inversion of the n points stored (as PT objects, any alignment) at
 * a, with acc holding n field elements of scratch. r may alias nothing.
 */
void P_(batch_to_affine_scratch_vartime)(AFF *r, const void *a, size_t n, FE *acc)
{
    const unsigned char *src = a;
    FE inv, t, zi2;
    PT pt;
    FE run = FE_ONE;
    for (size_t i = 0; i < n; i++) {
        memcpy(&pt, src + i * sizeof(PT), sizeof pt);
        acc[i] = run;
        if (!P_(is_inf)(&pt))
            FE_(mul)(&run, &run, &pt.z);
    }
    if (n == 0)
        return;
    FE_(inv_vartime)(&inv, &run);
    for (size_t i = n; i-- > 0;) {
        memcpy(&pt, src + i * sizeof(PT), sizeof pt);
        if (P_(is_inf)(&pt)) {
            FE_(set_zero)(&r[i].x);
            FE_(set_zero)(&r[i].y);
            continue;
        }
        FE_(mul)(&t, &inv, &acc[i]); /* 1/Z_i */
        FE_(mul)(&inv, &inv, &pt.z);
        FE_(sqr)(&zi2, &t);
        FE_(mul)(&r[i].x, &pt.x, &zi2);
        FE_(mul)(&zi2, &zi2, &t);
        FE_(mul)(&r[i].y, &pt.y, &zi2);
    }
}

/* The same with its own scratch; returns 0 on allocation failure. */
int P_(batch_to_affine_vartime)(AFF *r, const PT *a, size_t n)
{
    FE *acc;
    if (n == 0)
        return 1;
    acc = malloc(n * sizeof *acc);
    if (acc == NULL)
        return 0;
    P_(batch_to_affine_scratch_vartime)(r, a, n, acc);
    free(acc);
    return 1;
}

/* ---- scalar multiplication ---------------------------------------------------------------- */

#define BLS_WNAF_W 5
#define BLS_MAX_SCALAR_BITS 1024

/* Width-w NAF of a little-endian scalar; returns the number of digits. */
static size_t P_(wnaf)(int8_t *naf, const uint8_t *k, size_t nbits)
{
    uint64_t l[BLS_MAX_SCALAR_BITS / 64 + 2] = {0};
    size_t nbytes = (nbits + 7) / 8, nl = (nbits + 63) / 64 + 1, i = 0;
    for (size_t b = 0; b < nbytes; b++) {
        uint8_t v = k[b];
        if (b == nbytes - 1 && (nbits & 7))
            v &= (uint8_t)((1u << (nbits & 7)) - 1);
        l[b / 8] |= (uint64_t)v << (8 * (b % 8));
    }
    for (;;) {
        int nz = 0;
        for (size_t j = 0; j < nl; j++)
            nz |= l[j] != 0;
        if (!nz)
            break;
        int d = 0;
        if (l[0] & 1) {
            d = (int)(l[0] & ((1u << BLS_WNAF_W) - 1));
            if (d >= (1 << (BLS_WNAF_W - 1)))
                d -= 1 << BLS_WNAF_W;
            /* l -= d */
            if (d > 0) {
                uint64_t br = (uint64_t)d;
                for (size_t j = 0; j < nl && br; j++) {
                    uint64_t o = l[j];
                    l[j] = o - br;
                    br = o < br;
                }
            } else {
                uint64_t c = (uint64_t)(-d);
                for (size_t j = 0; j < nl && c; j++) {
                    l[j] += c;
                    c = l[j] < c;
                }
            }
        }
        naf[i++] = (int8_t)d;
        for (size_t j = 0; j < nl; j++)
            l[j] = (l[j] >> 1) | (j + 1 < nl ? l[j + 1] << 63 : 0);
    }
    return i;
}

void P_(mul_vartime)(PT *r, const PT *a, const uint8_t *k, size_t nbits)
{
    int8_t naf[BLS_MAX_SCALAR_BITS + 2];
    PT tab[1 << (BLS_WNAF_W - 2)], a2, acc, t;
    size_t n;
    if (nbits > BLS_MAX_SCALAR_BITS)
        nbits = BLS_MAX_SCALAR_BITS;
    n = P_(wnaf)(naf, k, nbits);
    tab[0] = *a;
    P_(dbl)(&a2, a);
    for (int i = 1; i < (1 << (BLS_WNAF_W - 2)); i++)
        P_(add_vartime)(&tab[i], &tab[i - 1], &a2);
    P_(set_inf)(&acc);
    for (size_t i = n; i-- > 0;) {
        P_(dbl)(&acc, &acc);
        int d = naf[i];
        if (d > 0) {
            P_(add_vartime)(&acc, &acc, &tab[d / 2]);
        } else if (d < 0) {
            P_(neg)(&t, &tab[(-d) / 2]);
            P_(add_vartime)(&acc, &acc, &t);
        }
    }
    *r = acc;
}

/* sel = tab[w] for a secret w in 0..15, scanning the whole table. */
static void P_(ct_lookup16)(PT *sel, const PT tab[16], uint64_t w)
{
    *sel = tab[0];
    for (uint64_t j = 1; j < 16; j++) {
        uint64_t m = grove_ct_is_zero64(grove_value_barrier64(j ^ w));
        FE_(cmov)(&sel->x, &tab[j].x, m);
        FE_(cmov)(&sel->y, &tab[j].y, m);
        FE_(cmov)(&sel->z, &tab[j].z, m);
    }
}

/* tab[i] = i a in homogeneous coordinates (tab[0] = (0 : 1 : 0)) */
static void P_(ct_table16)(PT tab[16], const PT *a)
{
    P_(jac_to_proj)(&tab[1], a);
    FE_(set_zero)(&tab[0].x);
    tab[0].y = FE_ONE;
    FE_(set_zero)(&tab[0].z);
    for (int i = 2; i < 16; i++) {
        if (i & 1)
            P_(proj_add)(&tab[i], &tab[i - 1], &tab[1]);
        else
            P_(proj_dbl)(&tab[i], &tab[i / 2]);
    }
}

/* sel = tab[w] for a secret w in 0..16, scanning the whole table. */
GROVE_INLINE void P_(ct_lookup17)(PT *sel, const PT tab[17], uint64_t w)
{
    *sel = tab[0];
    for (uint64_t j = 1; j < 17; j++) {
        uint64_t m = grove_ct_is_zero64(grove_value_barrier64(j ^ w));
        FE_(cmov)(&sel->x, &tab[j].x, m);
        FE_(cmov)(&sel->y, &tab[j].y, m);
        FE_(cmov)(&sel->z, &tab[j].z, m);
    }
}

/*
 * Signed 5-bit (Booth) window i of the nl-limb value k: d = b(5i-1) + b(5i) + 2 b(5i+1) +
 * 4 b(5i+2) + 8 b(5i+3) - 16 b(5i+4) in [-16, 16] (b(-1) = 0), as |d| and a sign mask;
 * sum_i d_i 2^(5i) = k when the windows cover one bit above k's top bit. The bit positions are
 * public; the arithmetic on the secret bits is branch-free.
 */
static void P_(booth5)(uint64_t *abs_d, uint64_t *neg_mask, const uint64_t *k, size_t nl, int i)
{
    uint64_t v = 0;
    for (int j = 0; j < 6; j++) {
        int b = 5 * i - 1 + j;
        if (b >= 0 && (size_t)b < 64 * nl)
            v |= ((k[b / 64] >> (b % 64)) & 1) << j;
    }
    uint64_t u = ((v >> 1) & 15) + (v & 1), top = grove_value_barrier64(v >> 5);
    uint64_t m = 0 - top;
    *abs_d = u ^ ((u ^ (16 - u)) & m);
    *neg_mask = m;
}

/* add +-tab[|d|] for the signed window i of k (constant time); sel is the caller's scratch,
 * wiped by the caller once at the end */
static void P_(booth_add)(PT *acc, PT *sel, const PT tab[17], const uint64_t *k, size_t nl, int i)
{
    uint64_t ad, neg;
    P_(booth5)(&ad, &neg, k, nl, i);
    P_(ct_lookup17)(sel, tab, ad);
    P_(cneg)(sel, neg);
    P_(proj_add)(acc, acc, sel);
}

/*
 * Constant time for any point of the curve: fixed 4-bit windows over 256 bits with a full
 * table scan and complete formulas.
 */
void P_(mul_ct_any)(PT *r, const PT *a, const uint64_t k[4])
{
    PT tab[16], acc, sel;
    P_(ct_table16)(tab, a);
    acc = tab[0];
    for (int win = 63; win >= 0; win--) {
        uint64_t w = (k[win / 16] >> (4 * (win % 16))) & 15;
        if (win != 63) {
            P_(proj_dbl)(&acc, &acc);
            P_(proj_dbl)(&acc, &acc);
            P_(proj_dbl)(&acc, &acc);
            P_(proj_dbl)(&acc, &acc);
        }
        P_(ct_lookup16)(&sel, tab, w);
        P_(proj_add)(&acc, &acc, &sel);
    }
    P_(proj_to_jac)(r, &acc);
    grove_wipe(tab, sizeof tab);
    grove_wipe(&acc, sizeof acc);
    grove_wipe(&sel, sizeof sel);
}

/* tab[0..16] = 0 .. 16 times a (homogeneous) */
static void P_(ct_table17)(PT tab[17], const PT *a)
{
    P_(ct_table16)(tab, a);
    P_(proj_dbl)(&tab[16], &tab[8]);
}

/*
 * k = hi |z| + lo for k < z^2 (so hi < |z|): binary long division over a fixed 128 steps with
 * masks, constant time in k.
 */
static void P_(split_zabs_ct)(uint64_t *lo, uint64_t *hi, const uint64_t k[2])
{
    uint64_t q[2];
    *lo = fr_divrem_zabs(q, k);
    *hi = q[0]; /* k < z^2: q < |z| */
    grove_wipe(q, sizeof q);
}

/*
 * k = d0 + d1 |z| + d2 z^2 + d3 |z|^3 as integers (k < r; each digit below 2^64): k = k1 z^2 +
 * k0, k0 = d1 |z| + d0, k1 = d3 |z| + d2. Constant time in k.
 */
static void P_(split4_ct)(uint64_t d[4], const uint64_t k[4])
{
    uint64_t k0[2], k1[2];
    fr_split_z2(k0, k1, k);
    P_(split_zabs_ct)(&d[0], &d[1], k0);
    P_(split_zabs_ct)(&d[2], &d[3], k1);
    grove_wipe(k0, sizeof k0);
    grove_wipe(k1, sizeof k1);
}

/*
 * r = sum d[j] B_j for the 64-bit digits d and the tables t[j] = 0 .. 16 times B_j: signed 5-bit
 * windows side by side (13 cover the 64-bit digits and one bit above), 60 doublings and 52
 * complete additions with full table scans. Constant time in d.
 */
static void P_(mul_ct4)(PT *r, const PT t[4][17], const uint64_t d[4])
{
    PT acc, sel;
    acc = t[0][0];
    for (int win = 12; win >= 0; win--) {
        if (win != 12) {
#ifdef CT_JACOBIAN_DBL
            /* the doublings in Jacobian coordinates (dbl-2009-l, branch-free, infinity stays
             * infinity; no curve point has order 2): 2M + 5S each against 6M + 2S, for two
             * conversions (2M + S each) per window */
            P_(proj_to_jac)(&sel, &acc);
            for (int j = 0; j < 5; j++)
                P_(dbl)(&sel, &sel);
            P_(jac_to_proj)(&acc, &sel);
#else
            for (int j = 0; j < 5; j++)
                P_(proj_dbl)(&acc, &acc);
#endif
        }
        for (int j = 0; j < 4; j++)
            P_(booth_add)(&acc, &sel, t[j], &d[j], 1, win);
    }
    P_(proj_to_jac)(r, &acc);
    grove_wipe(&acc, sizeof acc);
    grove_wipe(&sel, sizeof sel);
}

#ifndef ENDO_ZABS
/*
 * Constant time, two-dimensional (GLV / GLS) for points of the prime-order subgroup, where
 * ENDO_Z2 computes [z^2] with one field multiplication: k a = k0 a + k1 [z^2] a with
 * k = k1 z^2 + k0, both halves below 2^128, processed in signed 5-bit windows side by side
 * (tables of 0..16 multiples, full scans, conditional negation).
 */
void P_(mul_ct)(PT *r, const PT *a, const uint64_t k[4])
{
    PT t0[17], t1[17], acc, sel;
    uint64_t k0[2], k1[2];
    fr_split_z2(k0, k1, k);
    P_(ct_table17)(t0, a);
    for (int i = 0; i < 17; i++)
        ENDO_Z2(&t1[i], &t0[i]);
    /* signed 5-bit windows: 26 cover the 128-bit halves and one bit above */
    acc = t0[0];
    for (int win = 25; win >= 0; win--) {
        if (win != 25)
            for (int j = 0; j < 5; j++)
                P_(proj_dbl)(&acc, &acc);
        P_(booth_add)(&acc, &sel, t0, k0, 2, win);
        P_(booth_add)(&acc, &sel, t1, k1, 2, win);
    }
    P_(proj_to_jac)(r, &acc);
    grove_wipe(t0, sizeof t0);
    grove_wipe(t1, sizeof t1);
    grove_wipe(&acc, sizeof acc);
    grove_wipe(&sel, sizeof sel);
    grove_wipe(k0, sizeof k0);
    grove_wipe(k1, sizeof k1);
}
#else
/*
 * Constant time, four-dimensional (GLS) for points of the prime-order subgroup, where
 * ENDO_Z2 computes [z^2] and ENDO_ZABS computes [|z|] with a few field multiplications (G2:
 * psi^2 and -psi): k a = d0 a + d1 [|z|] a + d2 [z^2] a + d3 [|z| z^2] a (split4_ct).
 */
void P_(mul_ct)(PT *r, const PT *a, const uint64_t k[4])
{
    PT t[4][17];
    uint64_t d[4];
    P_(split4_ct)(d, k);
    P_(ct_table17)(t[0], a);
    for (int i = 0; i < 17; i++) {
        ENDO_ZABS(&t[1][i], &t[0][i]);
        ENDO_Z2(&t[2][i], &t[0][i]);
        ENDO_ZABS(&t[3][i], &t[2][i]);
    }
    P_(mul_ct4)(r, (const PT(*)[17])t, d);
    grove_wipe(t, sizeof t);
    grove_wipe(d, sizeof d);
}
#endif

/*
 * r = k a for a PUBLIC point a of the curve, in the group or not, and a secret k < r; constant
 * time in k. k a = d0 a + d1 U + d2 T + d3 V with U = [|z|] a, T = [z^2] a, V = [|z|^3] a and
 * the integer split of split4_ct, which holds for every point whatever its order. The bases are
 * public: U comes from a variable-time multiplication by |z|, which also decides (Scott's
 * membership test, on public data only) whether a is in the group. In the group T and V (and in
 * G2 U too) are endomorphism images of the tables (a few multiplications per entry); outside
 * it they come from further variable-time multiplications by |z| and their own tables. The
 * same constant-time ladder (mul_ct4) runs in both cases.
 */
void P_(mul_ct_public)(PT *r, const PT *a, const uint64_t k[4])
{
    PT t[4][17], u, tz2, v, e;
    uint64_t d[4];
    int in_group;
    P_(split4_ct)(d, k);
    P_(mul_z_abs_vartime)(&u, a); /* public */
#ifdef ENDO_ZABS
    ENDO_ZABS(&e, a); /* -psi(a): a is in G2 iff [|z|] a = -psi(a) */
    in_group = P_(on_curve)(a) && P_(eq_vartime)(&u, &e);
#else
    P_(mul_z_abs_vartime)(&tz2, &u);
    ENDO_Z2(&e, a); /* (beta x, -y) = -phi(a): a is in G1 iff [z^2] a = -phi(a) */
    in_group = P_(on_curve)(a) && P_(eq_vartime)(&tz2, &e);
#endif
    P_(ct_table17)(t[0], a);
    if (in_group) {
#ifdef ENDO_ZABS
        for (int i = 0; i < 17; i++)
            ENDO_ZABS(&t[1][i], &t[0][i]);
#else
        P_(ct_table17)(t[1], &u);
#endif
        for (int i = 0; i < 17; i++) {
            ENDO_Z2(&t[2][i], &t[0][i]);
            ENDO_Z2(&t[3][i], &t[1][i]);
        }
    } else {
#ifdef ENDO_ZABS
        P_(mul_z_abs_vartime)(&tz2, &u);
#endif
        P_(mul_z_abs_vartime)(&v, &tz2);
        P_(ct_table17)(t[1], &u);
        P_(ct_table17)(t[2], &tz2);
        P_(ct_table17)(t[3], &v);
    }
    P_(mul_ct4)(r, (const PT(*)[17])t, d);
    grove_wipe(t, sizeof t);
    grove_wipe(d, sizeof d);
}

/* r = [|z|] a, |z| = 0xd201000000010000 (bits 63, 62, 60, 57, 48, 16). */
void P_(mul_z_abs_vartime)(PT *r, const PT *a)
{
    PT acc = *a;
    AFF b;
    /* a decoded point has Z = 1: mixed additions (public data, variable time) */
    int affine = FE_(eq)(&a->z, &FE_ONE);
    b.x = a->x;
    b.y = a->y;
    for (int i = 62; i >= 0; i--) {
        P_(dbl)(&acc, &acc);
        if ((0xd201000000010000ULL >> i) & 1) {
            if (affine)
                P_(add_affine_vartime)(&acc, &acc, &b);
            else
                P_(add_vartime)(&acc, &acc, a);
        }
    }
    *r = acc;
}

/* ---- multi-scalar multiplication ---------------------------------------------------------- */
/*
 * Pippenger's bucket method with signed c-bit digits (buckets 1 .. 2^(c-1)), variable time.
 * From 64 points on, the buckets are filled in affine coordinates: the points of a bucket are
 * added pairwise, level by level (a tree), and all additions of one level, over every bucket of
 * a group of windows (about 256 KiB of points), share one inversion (Montgomery's trick) -
 * about log2(points per bucket) inversions per group, whatever the scalars look like. Window
 * sums use Jacobian coordinates.
 */

static unsigned P_(scalar_window)(const uint8_t *s, size_t nbytes, size_t bit, unsigned c)
{
    /* c <= 16 bits from bit (bit % 8 <= 7): within the 4 bytes from bit / 8 */
    uint32_t v = 0;
    size_t b0 = bit / 8;
    for (size_t k = 0; k < 4 && b0 + k < nbytes; k++)
        v |= (uint32_t)s[b0 + k] << (8 * k);
    return (unsigned)(v >> (bit % 8)) & ((1u << c) - 1u);
}

/* dig[w] in [-2^(c-1), 2^(c-1)], sum dig[w] 2^(c w) = scalar; nwin covers nbits + 1 bits */
static void P_(recode)(int32_t *dig, size_t nwin, const uint8_t *s, size_t nbytes, unsigned c)
{
    int32_t carry = 0;
    for (size_t w = 0; w < nwin; w++) {
        int32_t v = (int32_t)P_(scalar_window)(s, nbytes, w * c, c) + carry;
        carry = v > (1 << (c - 1));
        dig[w] = v - (carry << c);
    }
}

#define BLS_MSM_AFFINE_MIN 64

static int P_(aff_is_inf)(const AFF *a)
{
    return FE_(is_zero)(&a->x) && FE_(is_zero)(&a->y);
}

/*
 * One level of the bucket trees: within each bucket segment [start[j], start[j] + len[j]) of w,
 * entries 2t and 2t+1 are added; an odd last entry is kept. The sums go to the front of the
 * segment and len[j] shrinks. den/pre: scratch for n/2 field elements.
 */
static void P_(tree_level)(AFF *w, const size_t *start, size_t *len, size_t nb, FE *den,
                           FE *pre, FE *num)
{
    size_t np = 0;
    /* denominators: x2 - x1, or 2y for a doubling; 1 where no inversion is needed */
    for (size_t j = 0; j < nb; j++)
        for (size_t t = 0; t + 1 < len[j]; t += 2) {
            AFF *p1 = &w[start[j] + t], *p2 = p1 + 1;
            if (P_(aff_is_inf)(p1) || P_(aff_is_inf)(p2)) {
                den[np] = FE_ONE;
            } else if (!FE_(eq)(&p1->x, &p2->x)) {
                FE_(sub)(&den[np], &p2->x, &p1->x);
                FE_(sub)(&num[np], &p2->y, &p1->y);
            } else if (FE_(eq)(&p1->y, &p2->y) && !FE_(is_zero)(&p1->y)) {
                FE_(dbl)(&den[np], &p1->y); /* lambda = 3 x^2 / 2y */
                FE_(sqr)(&num[np], &p1->x);
                FE_(mul3)(&num[np], &num[np]);
            } else {
                den[np] = FE_ONE; /* P + (-P) */
            }
            np++;
        }
    if (np == 0)
        return;
    FE inv, dinv, lambda, t3;
    pre[0] = den[0];
    for (size_t k = 1; k < np; k++)
        FE_(mul)(&pre[k], &pre[k - 1], &den[k]);
    FE_(inv_vartime)(&inv, &pre[np - 1]);
    for (size_t k = np; k-- > 0;) {
        if (k > 0) {
            FE_(mul)(&dinv, &inv, &pre[k - 1]);
            FE_(mul)(&inv, &inv, &den[k]);
        } else {
            dinv = inv;
        }
        den[k] = dinv; /* 1 / den[k] */
    }
    np = 0;
    for (size_t j = 0; j < nb; j++) {
        size_t m = len[j], out = start[j];
        for (size_t t = 0; t < m; t += 2, out++) {
            AFF *p1 = &w[start[j] + t];
            if (t + 1 == m) {
                w[out] = *p1;
                break;
            }
            AFF *p2 = p1 + 1, r;
            FE *dinv_k = &den[np++];
            if (P_(aff_is_inf)(p1)) {
                r = *p2;
            } else if (P_(aff_is_inf)(p2)) {
                r = *p1;
            } else if (FE_(eq)(&p1->x, &p2->x) &&
                       !(FE_(eq)(&p1->y, &p2->y) && !FE_(is_zero)(&p1->y))) {
                FE_(set_zero)(&r.x); /* P + (-P) = O */
                FE_(set_zero)(&r.y);
            } else {
                /* x3 = lambda^2 - x1 - x2, y3 = lambda (x1 - x3) - y1 */
                FE_(mul)(&lambda, &num[np - 1], dinv_k);
                FE_(sqr)(&t3, &lambda);
                FE_(sub)(&t3, &t3, &p1->x);
                FE_(sub)(&r.x, &t3, &p2->x);
                FE_(sub)(&t3, &p1->x, &r.x);
                FE_(mul)(&t3, &lambda, &t3);
                FE_(sub)(&r.y, &t3, &p1->y);
            }
            w[out] = r;
        }
        len[j] = (m + 1) / 2;
    }
}

/* window size minimising (windows) x (n additions + 2^(c-1) bucket-sum steps) */
static unsigned P_(msm_window)(size_t n, size_t nbits, int affine)
{
    unsigned best = 2;
    double best_cost = 0;
    for (unsigned c = 2; c <= 16; c++) {
        double nwin = (double)(nbits / c + 1);
        double cost =
            nwin * ((double)n * (affine ? 8.0 : 11.0) + (double)((size_t)1 << (c - 1)) * 27.0);
        if (c == 2 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

/* working set of one group of windows in the affine path (kept cache-sized) */
#define BLS_MSM_GROUP_BYTES (256 * 1024)

/* Scratch carving: every piece starts on a 64-byte boundary of the caller's block. */
#ifndef BLS_SCRATCH_ALIGN
#define BLS_SCRATCH_ALIGN(x) (((x) + 63u) & ~(size_t)63u)
#endif

/* The shape of one msm_core call: window, buckets, group of windows and the piece sizes. */
typedef struct {
    int affine;
    unsigned c;
    size_t nb, nwin, gw, nseg, cap, half;
    size_t dig_bytes; /* the digits (in the prepared block) */
    size_t off_start, off_len, off_w, off_den, off_jb, off_s, bytes; /* the work block */
} P_(msm_plan);

static void P_(msm_make_plan)(P_(msm_plan) *pl, size_t n, size_t nbits)
{
    pl->affine = n >= BLS_MSM_AFFINE_MIN;
    pl->c = P_(msm_window)(n, nbits, pl->affine);
    pl->nb = (size_t)1 << (pl->c - 1);
    pl->nwin = nbits / pl->c + 1;
    /* windows per group: about BLS_MSM_GROUP_BYTES of points (at least one window) */
    size_t per = BLS_MSM_GROUP_BYTES / sizeof(AFF) / n;
    pl->gw = pl->affine ? (per < 1 ? 1 : per > pl->nwin ? pl->nwin : per) : 1;
    pl->nseg = pl->gw * pl->nb;
    pl->cap = pl->gw * n;
    pl->half = pl->cap / 2 + 1;
    pl->dig_bytes = BLS_SCRATCH_ALIGN(n * pl->nwin * sizeof(int32_t));
    size_t off = 0;
    pl->off_start = off;
    off += BLS_SCRATCH_ALIGN(pl->nseg * sizeof(size_t));
    pl->off_len = off;
    off += BLS_SCRATCH_ALIGN(pl->nseg * sizeof(size_t));
    pl->off_w = off;
    off += pl->affine ? BLS_SCRATCH_ALIGN(pl->cap * sizeof(AFF)) : 0;
    pl->off_den = off;
    off += pl->affine ? BLS_SCRATCH_ALIGN(3 * pl->half * sizeof(FE)) : 0;
    pl->off_jb = off;
    off += pl->affine ? 0 : BLS_SCRATCH_ALIGN(pl->nb * sizeof(PT));
    pl->off_s = off;
    off += BLS_SCRATCH_ALIGN(pl->nwin * sizeof(PT));
    pl->bytes = off;
}

/* every point's signed digits (all windows of the plan; a point at infinity has none) */
static void P_(msm_recode_all)(int32_t *dig, const AFF *aff, const uint8_t *scalars,
                               size_t sbytes, size_t n, const P_(msm_plan) *pl)
{
    for (size_t i = 0; i < n; i++) {
        if (P_(aff_is_inf)(&aff[i]))
            memset(dig + i * pl->nwin, 0, pl->nwin * sizeof *dig);
        else
            P_(recode)(dig + i * pl->nwin, pl->nwin, scalars + i * sbytes, sbytes, pl->c);
    }
}

/*
 * r = sum k_i aff_i for affine points (identity = (0, 0)) whose digits msm_recode_all gave,
 * in the plan's work block (pl->bytes, 64-byte aligned); only the windows [wlo, whi) of the
 * plan (the part of the sum their digits give: the parts over a partition of the windows add up
 * to the sum). Reads aff and dig only: any number of parts may run at once on them.
 */
static void P_(msm_core)(PT *r, const AFF *aff, const int32_t *dig, size_t n,
                         const P_(msm_plan) *plan, unsigned char *scr, size_t wlo, size_t whi)
{
    const P_(msm_plan) pl = *plan;
    if (whi > pl.nwin)
        whi = pl.nwin;
    if (wlo >= whi) {
        P_(set_inf)(r);
        return;
    }
    int affine = pl.affine;
    unsigned c = pl.c;
    size_t nb = pl.nb, nwin = pl.nwin, gw = pl.gw, nseg = pl.nseg, half = pl.half;
    size_t *start = (size_t *)(void *)(scr + pl.off_start);
    size_t *len = (size_t *)(void *)(scr + pl.off_len);
    AFF *w = (AFF *)(void *)(scr + pl.off_w);
    FE *den = (FE *)(void *)(scr + pl.off_den);
    PT *jb = (PT *)(void *)(scr + pl.off_jb), *S = (PT *)(void *)(scr + pl.off_s), acc, run;
    /* S[win] = sum_j (j + 1) bucket[win][j] */
    for (size_t w0 = wlo; w0 < whi; w0 += gw) {
        size_t w1 = w0 + gw < whi ? w0 + gw : whi;
        if (affine) {
            /* segment (win - w0) nb + j holds the signed points whose digit in window win is
             * +-(j + 1); the trees of all segments of the group share their inversions */
            size_t total = 0;
            int more = 0;
            memset(len, 0, nseg * sizeof *len);
            for (size_t i = 0; i < n; i++)
                for (size_t win = w0; win < w1; win++) {
                    int32_t d = dig[i * nwin + win];
                    if (d != 0)
                        len[(win - w0) * nb + (size_t)(d < 0 ? -d : d) - 1]++;
                }
            for (size_t j = 0; j < nseg; j++) {
                start[j] = total;
                total += len[j];
                len[j] = 0;
            }
            for (size_t i = 0; i < n; i++)
                for (size_t win = w0; win < w1; win++) {
                    int32_t d = dig[i * nwin + win];
                    if (d == 0)
                        continue;
                    size_t j = (win - w0) * nb + (size_t)(d < 0 ? -d : d) - 1;
                    AFF *q = &w[start[j] + len[j]++];
                    *q = aff[i];
                    if (d < 0)
                        FE_(neg)(&q->y, &q->y);
                    more |= len[j] > 1;
                }
            while (more) {
                P_(tree_level)(w, start, len, nseg, den, den + half, den + 2 * half);
                more = 0;
                for (size_t j = 0; j < nseg; j++)
                    more |= len[j] > 1;
            }
            for (size_t win = w0; win < w1; win++) {
                P_(set_inf)(&run);
                P_(set_inf)(&S[win]);
                for (size_t j = nb; j-- > 0;) {
                    size_t sj = (win - w0) * nb + j;
                    if (len[sj])
                        P_(add_affine_vartime)(&run, &run, &w[start[sj]]);
                    P_(add_vartime)(&S[win], &S[win], &run);
                }
            }
        } else {
            size_t win = w0;
            for (size_t j = 0; j < nb; j++)
                P_(set_inf)(&jb[j]);
            for (size_t i = 0; i < n; i++) {
                int32_t d = dig[i * nwin + win];
                if (d == 0)
                    continue;
                AFF q = aff[i];
                if (d < 0)
                    FE_(neg)(&q.y, &q.y);
                size_t j = (size_t)(d < 0 ? -d : d) - 1;
                P_(add_affine_vartime)(&jb[j], &jb[j], &q);
            }
            P_(set_inf)(&run);
            P_(set_inf)(&S[win]);
            for (size_t j = nb; j-- > 0;) {
                P_(add_vartime)(&run, &run, &jb[j]);
                P_(add_vartime)(&S[win], &S[win], &run);
            }
        }
    }
    /* r = sum S[win] 2^(c win), win in [wlo, whi) */
    acc = S[whi - 1];
    for (size_t win = whi - 1; win-- > wlo;) {
        for (unsigned j = 0; j < c; j++)
            P_(dbl)(&acc, &acc);
        P_(add_vartime)(&acc, &acc, &S[win]);
    }
    for (size_t j = 0; j < c * wlo && !P_(is_inf)(&acc); j++)
        P_(dbl)(&acc, &acc);
    *r = acc;
}

/*
 * scalars of at most 16 bytes are split k = k1 |z| + k0 where an endomorphism gives [|z|]:
 * k0 < |z| < 2^64 and k1 <= (2^128 - 1) / |z| < 2^65 (|z| > 2^63), so both halves have at most
 * MSM_SPLIT_BITS bits (the windows then cover 66 bits, not the 73 of their 9-byte storage)
 */
#define MSM_SPLIT_BITS 65
#ifdef MSM_SPLIT_Z
#define MSM_SPLITS(sbytes) ((sbytes) <= 16)
#else
#define MSM_SPLITS(sbytes) 0
#endif

/*
 * The prepared block of an MSM of n >= 8 points (see msm_prepare_vartime), from a 64-byte
 * aligned base: the affine points, with the split the points and the scalar halves, the batch
 * inversion's scratch, then the digits. nbits/npts: the plan's scalar bits and point count.
 */
typedef struct {
    size_t off_a2, off_k2, off_inv, off_dig, bytes, npts, nbits;
} P_(msm_prep_layout);

static void P_(msm_layout)(P_(msm_prep_layout) *lo, P_(msm_plan) *pl, size_t n,
                           size_t scalar_bytes)
{
    size_t off = BLS_SCRATCH_ALIGN(n * sizeof(AFF));
    lo->off_a2 = lo->off_k2 = off;
    if (MSM_SPLITS(scalar_bytes)) {
        lo->npts = 2 * n;
        lo->nbits = MSM_SPLIT_BITS;
        off += BLS_SCRATCH_ALIGN(2 * n * sizeof(AFF));
        lo->off_k2 = off;
        off += BLS_SCRATCH_ALIGN(2 * n * 9);
    } else {
        lo->npts = n;
        lo->nbits = 8 * scalar_bytes;
    }
    P_(msm_make_plan)(pl, lo->npts, lo->nbits);
    lo->off_inv = off;
    off += BLS_SCRATCH_ALIGN(n * sizeof(FE));
    lo->off_dig = off;
    off += pl->dig_bytes;
    lo->bytes = off;
}

static unsigned char *P_(align64)(void *p)
{
    unsigned char *b = (unsigned char *)p;
    return b + ((64 - ((uintptr_t)b & 63)) & 63);
}

size_t P_(msm_prep_bytes)(size_t n, size_t scalar_bytes)
{
    P_(msm_prep_layout) lo;
    P_(msm_plan) pl;
    if (n < 8 || scalar_bytes == 0)
        return 0;
    P_(msm_layout)(&lo, &pl, n, scalar_bytes);
    return lo.bytes + 63; /* + 63: any alignment of the caller's block */
}

size_t P_(msm_work_bytes)(size_t n, size_t scalar_bytes)
{
    P_(msm_prep_layout) lo;
    P_(msm_plan) pl;
    if (n < 8 || scalar_bytes == 0)
        return 0;
    P_(msm_layout)(&lo, &pl, n, scalar_bytes);
    return pl.bytes + 63;
}

size_t P_(msm_scratch_bytes)(size_t n, size_t scalar_bytes)
{
    size_t p = P_(msm_prep_bytes)(n, scalar_bytes);
    return p == 0 ? 0 : p + P_(msm_work_bytes)(n, scalar_bytes);
}

/* the windows of msm_scratch_vartime's plan for n points (0: no windows, one part only) */
size_t P_(msm_windows)(size_t n, size_t scalar_bytes)
{
    P_(msm_prep_layout) lo;
    P_(msm_plan) pl;
    if (n < 8 || scalar_bytes == 0)
        return 0;
    P_(msm_layout)(&lo, &pl, n, scalar_bytes);
    return pl.nwin;
}

/*
 * Everything of sum k_i P_i that does not depend on the windows, once: the points in affine
 * coordinates (a copy where Z = 1 already, as for decoded points), the endomorphism split and
 * every digit, into prep (msm_prep_bytes). Any number of msm_part_prepared_vartime calls may then
 * read it at the same time. Nothing to do for n < 8 (the parts use pts and scalars directly).
 */
void P_(msm_prepare_vartime)(void *prep, const void *pts, const uint8_t *scalars,
                             size_t scalar_bytes, size_t n)
{
    P_(msm_prep_layout) lo;
    P_(msm_plan) pl;
    if (n < 8 || scalar_bytes == 0)
        return;
    P_(msm_layout)(&lo, &pl, n, scalar_bytes);
    unsigned char *base = P_(align64)(prep);
    AFF *aff = (AFF *)(void *)base;
    const unsigned char *src = (const unsigned char *)pts;
    int all_z1 = 1;
    for (size_t i = 0; i < n && all_z1; i++) {
        PT pt;
        memcpy(&pt, src + i * sizeof(PT), sizeof pt);
        all_z1 = FE_(eq)(&pt.z, &FE_ONE);
        aff[i].x = pt.x;
        aff[i].y = pt.y;
    }
    if (!all_z1)
        P_(batch_to_affine_scratch_vartime)(aff, pts, n, (FE *)(void *)(base + lo.off_inv));
    int32_t *dig = (int32_t *)(void *)(base + lo.off_dig);
#ifdef MSM_SPLIT_Z
    if (MSM_SPLITS(scalar_bytes)) {
        /* k = k1 |z| + k0: k P = k0 P + k1 (-psi(P)), psi = [z] on G2; 65-bit halves */
        AFF *a2 = (AFF *)(void *)(base + lo.off_a2);
        uint8_t *k2 = base + lo.off_k2;
        for (size_t i = 0; i < n; i++) {
            uint64_t k[2] = {0, 0}, k1[2], k0;
            for (size_t b = scalar_bytes; b-- > 0;)
                k[b / 8] |= (uint64_t)scalars[i * scalar_bytes + b] << (8 * (b % 8));
#if defined(__SIZEOF_INT128__) && !GROVE_BLS_LIMB32
            bls_u128 kk = ((bls_u128)k[1] << 64) | k[0], qq = kk / BLS_Z_ABS;
            k0 = (uint64_t)(kk % BLS_Z_ABS);
            k1[0] = (uint64_t)qq;
            k1[1] = (uint64_t)(qq >> 64);
#else
            k0 = fr_divrem_zabs(k1, k);
#endif
            for (size_t b = 0; b < 9; b++) {
                k2[18 * i + b] = (uint8_t)(b < 8 ? k0 >> (8 * b) : 0);
                k2[18 * i + 9 + b] = (uint8_t)(b < 8 ? k1[0] >> (8 * b) : k1[1]);
            }
            a2[2 * i] = aff[i];
            MSM_SPLIT_Z(&a2[2 * i + 1], &aff[i]);
        }
        P_(msm_recode_all)(dig, a2, k2, 9, 2 * n, &pl);
        return;
    }
#endif
    P_(msm_recode_all)(dig, aff, scalars, scalar_bytes, n, &pl);
}

/*
 * The part of sum k_i P_i that the windows [wlo, whi) of the plan give, from the prepared block
 * (msm_prepare_vartime) and a work block of msm_work_bytes of this caller's own: two threads can
 * each take some windows of one MSM, with no bucket sum done twice (splitting the points instead
 * repeats every window's bucket sums: +14% instructions for 228 G2 points) and the preparation
 * shared. Without windows (msm_windows() = 0), the part [0, ...) is the whole sum (from pts and
 * scalars), any other is empty.
 */
void P_(msm_part_prepared_vartime)(PT *r, const void *prep, const void *pts,
                                   const uint8_t *scalars, size_t scalar_bytes, size_t n,
                                   size_t wlo, size_t whi, void *work)
{
    size_t nbits = 8 * scalar_bytes;
    if (n < 8 || nbits == 0) {
        if (wlo > 0 || whi == 0) {
            P_(set_inf)(r);
            return;
        }
        PT acc, t, pt;
        P_(set_inf)(&acc);
        for (size_t i = 0; i < n; i++) {
            memcpy(&pt, (const unsigned char *)pts + i * sizeof(PT), sizeof pt);
            P_(mul_vartime)(&t, &pt, scalars + i * scalar_bytes, nbits);
            P_(add_vartime)(&acc, &acc, &t);
        }
        *r = acc;
        return;
    }
    P_(msm_prep_layout) lo;
    P_(msm_plan) pl;
    P_(msm_layout)(&lo, &pl, n, scalar_bytes);
    const unsigned char *base = P_(align64)((void *)(uintptr_t)prep);
    const AFF *a = (const AFF *)(const void *)(MSM_SPLITS(scalar_bytes) ? base + lo.off_a2 : base);
    const int32_t *dig = (const int32_t *)(const void *)(base + lo.off_dig);
    P_(msm_core)(r, a, dig, lo.npts, &pl, P_(align64)(work), wlo, whi);
}

void P_(msm_part_scratch_vartime)(PT *r, const void *pts, const uint8_t *scalars,
                                  size_t scalar_bytes, size_t n, size_t wlo, size_t whi,
                                  void *scratch)
{
    size_t pb = P_(msm_prep_bytes)(n, scalar_bytes);
    unsigned char *work = pb ? P_(align64)(scratch) + pb - 63 : NULL;
    P_(msm_prepare_vartime)(scratch, pts, scalars, scalar_bytes, n);
    P_(msm_part_prepared_vartime)(r, scratch, pts, scalars, scalar_bytes, n, wlo, whi, work);
}

void P_(msm_scratch_vartime)(PT *r, const void *pts, const uint8_t *scalars,
                             size_t scalar_bytes, size_t n, void *scratch)
{
    P_(msm_part_scratch_vartime)(r, pts, scalars, scalar_bytes, n, 0, SIZE_MAX, scratch);
}

int P_(msm_vartime)(PT *r, const PT *pts, const uint8_t *scalars, size_t scalar_bytes, size_t n)
{
    size_t bytes = P_(msm_scratch_bytes)(n, scalar_bytes);
    void *scratch = NULL;
    if (bytes > 0 && (scratch = malloc(bytes)) == NULL)
        return 0;
    P_(msm_scratch_vartime)(r, pts, scalars, scalar_bytes, n, scratch);
    free(scratch);
    return 1;
}

/* ---- ZCash serialization ------------------------------------------------------------------ */

void P_(compress)(uint8_t out[FE_BYTES], const PT *a)
{
    AFF aff;
    if (P_(is_inf)(a)) {
        memset(out, 0, FE_BYTES);
        out[0] = 0xc0;
        return;
    }
    P_(to_affine)(&aff, a);
    FE_TO_BYTES(out, &aff.x);
    out[0] |= 0x80;
    if (FE_(is_lexicographically_largest)(&aff.y))
        out[0] |= 0x20;
}

void P_(serialize)(uint8_t out[2 * FE_BYTES], const PT *a)
{
    AFF aff;
    if (P_(is_inf)(a)) {
        memset(out, 0, 2 * FE_BYTES);
        out[0] = 0x40;
        return;
    }
    P_(to_affine)(&aff, a);
    FE_TO_BYTES(out, &aff.x);
    FE_TO_BYTES(out + FE_BYTES, &aff.y);
}

static int P_(all_zero)(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

int P_(decode)(PT *r, const uint8_t *in, size_t len, int no_subgroup_check)
{
    uint8_t buf[FE_BYTES];
    AFF aff;
    int compressed;
    if (len == FE_BYTES)
        compressed = 1;
    else if (len == 2 * FE_BYTES)
        compressed = 0;
    else
        return BLS_DECODE_BAD_LENGTH;
    if (((in[0] & 0x80) != 0) != compressed)
        return BLS_DECODE_BAD_FLAGS;
    if (in[0] & 0x40) {
        if (in[0] & 0x20)
            return BLS_DECODE_BAD_FLAGS;
        if ((in[0] & 0x1f) != 0 || !P_(all_zero)(in + 1, len - 1))
            return BLS_DECODE_BAD_INFINITY;
        P_(set_inf)(r);
        return BLS_DECODE_OK;
    }
    if (!compressed && (in[0] & 0x20))
        return BLS_DECODE_BAD_FLAGS;
    memcpy(buf, in, FE_BYTES);
    buf[0] &= 0x1f;
    if (!FE_FROM_BYTES(&aff.x, buf))
        return BLS_DECODE_NOT_CANONICAL;
    if (compressed) {
        FE y2;
        FE_(sqr)(&y2, &aff.x);
        FE_(mul)(&y2, &y2, &aff.x);
        FE_(add)(&y2, &y2, &CURVE_B);
        if (!FE_SQRT(&aff.y, &y2))
            return BLS_DECODE_NOT_ON_CURVE;
        if (FE_(is_lexicographically_largest)(&aff.y) != ((in[0] & 0x20) != 0))
            FE_(neg)(&aff.y, &aff.y);
    } else {
        if (!FE_FROM_BYTES(&aff.y, in + FE_BYTES))
            return BLS_DECODE_NOT_CANONICAL;
        if (!P_(affine_on_curve)(&aff))
            return BLS_DECODE_NOT_ON_CURVE;
    }
    P_(from_affine)(r, &aff);
    if (!no_subgroup_check && !P_(in_subgroup_vartime)(r))
        return BLS_DECODE_NOT_IN_SUBGROUP;
    return BLS_DECODE_OK;
}
