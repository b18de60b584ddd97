/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * BLS12-381 fields: Fp against GMP on random and edge-case elements (add, sub, neg, half, mul,
 * sqr, inv, sqrt, squares, wide reduction, encodings, signs); Fp2 against GMP formulas; field
 * axioms for Fp2, Fp6, Fp12 on random elements; Frobenius maps against exponentiation;
 * cyclotomic squaring; the sparse line multiplication; scalars mod r against GMP; HKDF-SHA-256
 * against RFC 5869.
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "bls12_381/constants.h"
#include "bls12_381/fp12.h"
#include "bls12_381/fr.h"
#include "hash/hkdf.h"
#include "test.h"

static mpz_t P, R;
static uint64_t rng = 0x5eed0b15ULL;

/* ---- GMP bridges -------------------------------------------------------------------------- */

static void fp_to_mpz(mpz_t z, const fp *a)
{
    uint8_t b[48];
    fp_to_bytes(b, a);
    mpz_import(z, 48, 1, 1, 1, 0, b);
}

static void mpz_to_fp(fp *a, const mpz_t z)
{
    uint8_t b[48] = {0};
    size_t n = 0;
    mpz_t t;
    mpz_init(t);
    mpz_mod(t, z, P);
    mpz_export(b + 48 - (mpz_sizeinbase(t, 256)), &n, 1, 1, 1, 0, t);
    if (mpz_sgn(t) == 0)
        memset(b, 0, 48);
    if (!fp_from_bytes(a, b))
        test_fail(__FILE__, __LINE__, "mpz_to_fp: non-canonical");
    mpz_clear(t);
}

static void rand_mpz(mpz_t z, size_t bytes)
{
    uint8_t b[128];
    test_rand_bytes(&rng, b, bytes);
    mpz_import(z, bytes, 1, 1, 1, 0, b);
}

static void rand_fp(fp *a)
{
    mpz_t z;
    mpz_init(z);
    rand_mpz(z, 64);
    mpz_to_fp(a, z);
    mpz_clear(z);
}

static void rand_fp2(fp2 *a)
{
    rand_fp(&a->c0);
    rand_fp(&a->c1);
}

static void rand_fp6(fp6 *a)
{
    rand_fp2(&a->c0);
    rand_fp2(&a->c1);
    rand_fp2(&a->c2);
}

static void rand_fp12(fp12 *a)
{
    rand_fp6(&a->c0);
    rand_fp6(&a->c1);
}

static int fp_eq_mpz(const fp *a, const mpz_t z)
{
    mpz_t t, u;
    int eq;
    mpz_inits(t, u, NULL);
    fp_to_mpz(t, a);
    mpz_mod(u, z, P);
    eq = mpz_cmp(t, u) == 0;
    mpz_clears(t, u, NULL);
    return eq;
}

/* ---- Fp against GMP ----------------------------------------------------------------------- */

static void check_fp_pair(const fp *a, const fp *b)
{
    mpz_t A, B, E, T;
    fp r;
    mpz_inits(A, B, E, T, NULL);
    fp_to_mpz(A, a);
    fp_to_mpz(B, b);

    fp_add(&r, a, b);
    mpz_add(E, A, B);
    CHECK(fp_eq_mpz(&r, E));
    fp_sub(&r, a, b);
    mpz_sub(E, A, B);
    CHECK(fp_eq_mpz(&r, E));
    fp_neg(&r, a);
    mpz_neg(E, A);
    CHECK(fp_eq_mpz(&r, E));
    fp_mul(&r, a, b);
    mpz_mul(E, A, B);
    CHECK(fp_eq_mpz(&r, E));
    fp_sqr(&r, a);
    mpz_mul(E, A, A);
    CHECK(fp_eq_mpz(&r, E));
    fp_dbl(&r, a);
    mpz_mul_ui(E, A, 2);
    CHECK(fp_eq_mpz(&r, E));
    fp_mul3(&r, a);
    mpz_mul_ui(E, A, 3);
    CHECK(fp_eq_mpz(&r, E));
    fp_mul8(&r, a);
    mpz_mul_ui(E, A, 8);
    CHECK(fp_eq_mpz(&r, E));
    /* half: 2 * half(a) == a */
    fp_half(&r, a);
    fp_dbl(&r, &r);
    CHECK(fp_eq(&r, a));
    /* inverse */
    fp_inv(&r, a);
    if (mpz_sgn(A) == 0) {
        CHECK(fp_is_zero(&r));
    } else {
        mpz_invert(E, A, P);
        CHECK(fp_eq_mpz(&r, E));
        fp_inv_vartime(&r, a);
        CHECK(fp_eq_mpz(&r, E));
    }
    /* squares and roots */
    int leg = mpz_legendre(A, P);
    CHECK_EQ_INT(fp_is_square(a), leg >= 0);
    fp s;
    int ok = fp_sqrt(&s, a);
    CHECK_EQ_INT(ok, leg >= 0);
    if (ok) {
        fp_sqr(&r, &s);
        CHECK(fp_eq(&r, a));
    }
    /* signs */
    CHECK_EQ_INT(fp_sgn0(a), mpz_odd_p(A) ? 1 : 0);
    mpz_sub_ui(T, P, 1);
    mpz_fdiv_q_2exp(T, T, 1);
    CHECK_EQ_INT(fp_is_lexicographically_largest(a), mpz_cmp(A, T) > 0);
    /* encodings */
    uint8_t buf[48];
    fp_to_bytes(buf, a);
    CHECK(fp_from_bytes(&r, buf) && fp_eq(&r, a));
    /* conditional move */
    r = *a;
    fp_cmov(&r, b, 0);
    CHECK(fp_eq(&r, a));
    fp_cmov(&r, b, ~(uint64_t)0);
    CHECK(fp_eq(&r, b));
    CHECK_EQ_INT(fp_eq(a, b), mpz_cmp(A, B) == 0);
    mpz_clears(A, B, E, T, NULL);
}

static void test_fp(void)
{
    mpz_t z, e;
    fp a, b;
    mpz_inits(z, e, NULL);
    /* edge values: 0, 1, 2, p-1, p-2, (p-1)/2, (p+1)/2, 2^380, 2^64 - 1 */
    const char *edges[] = {"0", "1", "2", "-1", "-2", "(p-1)/2", "(p+1)/2", "2^380", "2^64-1"};
    fp ev[GROVE_ARRAY_LEN(edges)];
    for (size_t i = 0; i < GROVE_ARRAY_LEN(edges); i++) {
        switch (i) {
        case 0: mpz_set_ui(z, 0); break;
        case 1: mpz_set_ui(z, 1); break;
        case 2: mpz_set_ui(z, 2); break;
        case 3: mpz_sub_ui(z, P, 1); break;
        case 4: mpz_sub_ui(z, P, 2); break;
        case 5: mpz_sub_ui(z, P, 1); mpz_fdiv_q_2exp(z, z, 1); break;
        case 6: mpz_add_ui(z, P, 1); mpz_fdiv_q_2exp(z, z, 1); break;
        case 7: mpz_ui_pow_ui(z, 2, 380); break;
        default: mpz_ui_pow_ui(z, 2, 64); mpz_sub_ui(z, z, 1); break;
        }
        mpz_to_fp(&ev[i], z);
    }
    for (size_t i = 0; i < GROVE_ARRAY_LEN(edges); i++)
        for (size_t j = 0; j < GROVE_ARRAY_LEN(edges); j++)
            check_fp_pair(&ev[i], &ev[j]);
    for (int i = 0; i < 300; i++) {
        rand_fp(&a);
        rand_fp(&b);
        check_fp_pair(&a, &b);
        check_fp_pair(&a, &ev[(size_t)i % GROVE_ARRAY_LEN(edges)]);
    }
    /* Montgomery constants */
    fp_from_u64(&a, 1);
    CHECK(fp_eq(&a, &BLS_FP_ONE));
    fp_from_u64(&a, 4);
    CHECK(fp_eq(&a, &BLS_G1_B));
    /* non-canonical encodings are refused: p, p+1, 2^384 - 1 */
    uint8_t buf[48];
    for (int k = 0; k < 3; k++) {
        size_t n;
        memset(buf, 0xff, 48);
        if (k < 2) {
            mpz_add_ui(z, P, (unsigned long)k);
            mpz_export(buf, &n, 1, 1, 1, 0, z);
        }
        CHECK(!fp_from_bytes(&a, buf));
    }
    /* wide reduction of 64- and 96-byte strings */
    for (int i = 0; i < 100; i++) {
        uint8_t w[96];
        size_t len = i % 2 ? 64 : (size_t)(i % 97);
        test_rand_bytes(&rng, w, len);
        if (i == 0)
            memset(w, 0xff, len = 96);
        mpz_import(z, len, 1, 1, 1, 0, w);
        fp_from_bytes_wide(&a, w, len);
        CHECK(fp_eq_mpz(&a, z));
    }
    /* exponentiation */
    for (int i = 0; i < 10; i++) {
        uint64_t ex[6];
        rand_fp(&a);
        test_rand_bytes(&rng, (uint8_t *)ex, sizeof ex);
        fp_pow(&b, &a, ex, 6);
        mpz_import(e, 6, -1, 8, 0, 0, ex);
        fp_to_mpz(z, &a);
        mpz_powm(z, z, e, P);
        CHECK(fp_eq_mpz(&b, z));
    }
    mpz_clears(z, e, NULL);
}

/* ---- Fp2 ---------------------------------------------------------------------------------- */

static void test_fp2(void)
{
    mpz_t a0, a1, b0, b1, t, u;
    mpz_inits(a0, a1, b0, b1, t, u, NULL);
    for (int i = 0; i < 200; i++) {
        fp2 a, b, c, r, s, inv;
        rand_fp2(&a);
        rand_fp2(&b);
        rand_fp2(&c);
        if (i == 0)
            fp_set_zero(&a.c1); /* an element of Fp */
        if (i == 1)
            fp_set_zero(&a.c0);
        fp_to_mpz(a0, &a.c0);
        fp_to_mpz(a1, &a.c1);
        fp_to_mpz(b0, &b.c0);
        fp_to_mpz(b1, &b.c1);
        /* product against GMP: (a0 b0 - a1 b1) + (a0 b1 + a1 b0) u */
        fp2_mul(&r, &a, &b);
        mpz_mul(t, a0, b0);
        mpz_submul(t, a1, b1);
        CHECK(fp_eq_mpz(&r.c0, t));
        mpz_mul(t, a0, b1);
        mpz_addmul(t, a1, b0);
        CHECK(fp_eq_mpz(&r.c1, t));
        /* axioms */
        fp2_mul(&s, &b, &a);
        CHECK(fp2_eq(&r, &s));
        fp2_mul(&r, &r, &c);
        fp2_mul(&s, &b, &c);
        fp2_mul(&s, &a, &s);
        CHECK(fp2_eq(&r, &s));
        fp2_add(&r, &b, &c);
        fp2_mul(&r, &a, &r);
        fp2_mul(&s, &a, &b);
        fp2_mul(&inv, &a, &c);
        fp2_add(&s, &s, &inv);
        CHECK(fp2_eq(&r, &s));
        fp2_sqr(&r, &a);
        fp2_mul(&s, &a, &a);
        CHECK(fp2_eq(&r, &s));
        fp2_sub(&r, &a, &b);
        fp2_add(&r, &r, &b);
        CHECK(fp2_eq(&r, &a));
        fp2_neg(&r, &a);
        fp2_add(&r, &r, &a);
        CHECK(fp2_is_zero(&r));
        fp2_half(&r, &a);
        fp2_dbl(&r, &r);
        CHECK(fp2_eq(&r, &a));
        fp2_inv(&inv, &a);
        fp2_mul(&r, &inv, &a);
        CHECK(fp2_eq(&r, &BLS_FP2_ONE));
        fp2_inv_vartime(&r, &a);
        CHECK(fp2_eq(&r, &inv));
        /* xi = 1 + u */
        fp2 xi = BLS_FP2_ONE;
        xi.c1 = BLS_FP_ONE;
        fp2_mul(&r, &a, &xi);
        fp2_mul_by_xi(&s, &a);
        CHECK(fp2_eq(&r, &s));
        /* Frobenius: a^p */
        uint64_t pl[6];
        for (int k = 0; k < 6; k++)
            pl[k] = BLS_FP_P.l[k];
        fp2_pow(&r, &a, pl, 6);
        fp2_frobenius(&s, &a);
        CHECK(fp2_eq(&r, &s));
        /* square roots */
        fp2_sqr(&s, &a);
        CHECK(fp2_sqrt_vartime(&r, &s));
        fp2_sqr(&r, &r);
        CHECK(fp2_eq(&r, &s));
        /* non-squares: Z = -(2 + u) is a non-square; Z * square is not a square */
        fp2_mul(&s, &s, &BLS_SSWU2_Z);
        if (!fp2_is_zero(&a))
            CHECK(!fp2_sqrt_vartime(&r, &s));
        /* sgn0 (RFC 9380 m = 2) */
        int s0 = mpz_odd_p(a0) ? 1 : 0, z0 = mpz_sgn(a0) == 0, s1 = mpz_odd_p(a1) ? 1 : 0;
        CHECK_EQ_INT(fp2_sgn0(&a), s0 | (z0 & s1));
        /* lexicographic order: c1 decides unless zero */
        mpz_sub_ui(u, P, 1);
        mpz_fdiv_q_2exp(u, u, 1);
        int want = mpz_sgn(a1) ? mpz_cmp(a1, u) > 0 : mpz_cmp(a0, u) > 0;
        CHECK_EQ_INT(fp2_is_lexicographically_largest(&a), want);
    }
    fp2 z;
    fp2_set_zero(&z);
    fp2 r;
    CHECK(fp2_sqrt_vartime(&r, &z) && fp2_is_zero(&r));
    mpz_clears(a0, a1, b0, b1, t, u, NULL);
}

/* ---- Fp6, Fp12 ---------------------------------------------------------------------------- */

static int fp6_eq(const fp6 *a, const fp6 *b)
{
    return fp2_eq(&a->c0, &b->c0) && fp2_eq(&a->c1, &b->c1) && fp2_eq(&a->c2, &b->c2);
}

/* r = a^e for a big-endian exponent of len bytes (square and multiply). */
static void fp12_pow_be(fp12 *r, const fp12 *a, const uint8_t *e, size_t len)
{
    fp12 acc = BLS_FP12_ONE;
    for (size_t i = 0; i < len; i++)
        for (int b = 7; b >= 0; b--) {
            fp12_sqr(&acc, &acc);
            if ((e[i] >> b) & 1)
                fp12_mul(&acc, &acc, a);
        }
    *r = acc;
}

/* schoolbook references: (a0 + a1 v + a2 v^2)(b0 + b1 v + b2 v^2) with v^3 = xi */
static void fp6_mul_ref(fp6 *r, const fp6 *a, const fp6 *b)
{
    const fp2 *x[3] = {&a->c0, &a->c1, &a->c2}, *y[3] = {&b->c0, &b->c1, &b->c2};
    fp2 c[5], t;
    memset(c, 0, sizeof c);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            fp2_mul(&t, x[i], y[j]);
            fp2_add(&c[i + j], &c[i + j], &t);
        }
    fp2_mul_by_xi(&t, &c[3]);
    fp2_add(&r->c0, &c[0], &t);
    fp2_mul_by_xi(&t, &c[4]);
    fp2_add(&r->c1, &c[1], &t);
    r->c2 = c[2];
}

/* (a0 + a1 w)(b0 + b1 w) with w^2 = v */
static void fp12_mul_ref(fp12 *r, const fp12 *a, const fp12 *b)
{
    fp6 t0, t1, t2, t3;
    fp6_mul_ref(&t0, &a->c0, &b->c0);
    fp6_mul_ref(&t1, &a->c1, &b->c1);
    fp6_mul_ref(&t2, &a->c0, &b->c1);
    fp6_mul_ref(&t3, &a->c1, &b->c0);
    fp6_mul_by_v(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
    fp6_add(&r->c1, &t2, &t3);
}

static void test_tower(void)
{
    uint8_t pbytes[48] = {0};
    size_t pn;
    mpz_export(pbytes, &pn, 1, 1, 1, 0, P); /* p fills all 48 bytes */
    fp pm1; /* p - 1: the largest coefficients stress the lazy-reduction bounds */
    fp_neg(&pm1, &BLS_FP_ONE);
    for (int i = 0; i < 20; i++) {
        fp6 a, b, c, r, s, t;
        rand_fp6(&a);
        rand_fp6(&b);
        rand_fp6(&c);
        if (i < 2)
            for (int k = 0; k < 6; k++)
                ((fp *)&a)[k] = pm1;
        if (i == 0)
            b = a;
        fp6_mul(&r, &a, &b);
        fp6_mul_ref(&s, &a, &b);
        CHECK(fp6_eq(&r, &s));
        fp6_mul(&s, &b, &a);
        CHECK(fp6_eq(&r, &s));
        fp6_mul(&r, &r, &c);
        fp6_mul(&s, &b, &c);
        fp6_mul(&s, &a, &s);
        CHECK(fp6_eq(&r, &s));
        fp6_add(&r, &b, &c);
        fp6_mul(&r, &a, &r);
        fp6_mul(&s, &a, &b);
        fp6_mul(&t, &a, &c);
        fp6_add(&s, &s, &t);
        CHECK(fp6_eq(&r, &s));
        fp6_sqr(&r, &a);
        fp6_mul(&s, &a, &a);
        CHECK(fp6_eq(&r, &s));
        fp6_inv(&r, &a);
        fp6_mul(&r, &r, &a);
        memset(&s, 0, sizeof s);
        s.c0 = BLS_FP2_ONE;
        CHECK(fp6_eq(&r, &s));
        /* v^3 = xi: (v)(v)(v) */
        fp6 v;
        memset(&v, 0, sizeof v);
        v.c1 = BLS_FP2_ONE;
        fp6_mul(&r, &a, &v);
        fp6_mul_by_v(&s, &a);
        CHECK(fp6_eq(&r, &s));
        fp6_sub(&r, &a, &b);
        fp6_add(&r, &r, &b);
        CHECK(fp6_eq(&r, &a));
    }
    for (int i = 0; i < 10; i++) {
        fp12 a, b, c, r, s, t;
        rand_fp12(&a);
        rand_fp12(&b);
        rand_fp12(&c);
        if (i < 2)
            for (int k = 0; k < 12; k++)
                ((fp *)&a)[k] = pm1;
        if (i == 0)
            b = a;
        fp12_mul(&r, &a, &b);
        fp12_mul_ref(&s, &a, &b);
        CHECK(fp12_eq(&r, &s));
        fp12_mul(&s, &b, &a);
        CHECK(fp12_eq(&r, &s));
        fp12_mul(&r, &r, &c);
        fp12_mul(&s, &b, &c);
        fp12_mul(&s, &a, &s);
        CHECK(fp12_eq(&r, &s));
        fp12_sqr(&r, &a);
        fp12_mul_ref(&s, &a, &a);
        CHECK(fp12_eq(&r, &s));
        fp12_inv(&r, &a);
        fp12_mul(&r, &r, &a);
        CHECK(fp12_is_one(&r));
        /* distributivity through Fp6 addition */
        fp6_add(&t.c0, &b.c0, &c.c0);
        fp6_add(&t.c1, &b.c1, &c.c1);
        fp12_mul(&r, &a, &t);
        fp12_mul(&s, &a, &b);
        fp12_mul(&t, &a, &c);
        fp6_add(&s.c0, &s.c0, &t.c0);
        fp6_add(&s.c1, &s.c1, &t.c1);
        CHECK(fp12_eq(&r, &s));
        /* Frobenius against exponentiation by p, and composition */
        if (i < 3) {
            fp12_pow_be(&r, &a, pbytes, 48);
            fp12_frobenius(&s, &a, 1);
            CHECK(fp12_eq(&r, &s));
        }
        fp12_frobenius(&r, &a, 1);
        fp12_frobenius(&r, &r, 1);
        fp12_frobenius(&s, &a, 2);
        CHECK(fp12_eq(&r, &s));
        fp12_frobenius(&r, &r, 1);
        fp12_frobenius(&s, &a, 3);
        CHECK(fp12_eq(&r, &s));
        fp12_frobenius(&r, &r, 3);
        fp12_frobenius(&r, &r, 3);
        fp12_frobenius(&r, &r, 3); /* p^12 */
        CHECK(fp12_eq(&r, &a));
        /* conjugation is the p^6 power */
        fp12_frobenius(&r, &a, 3);
        fp12_frobenius(&r, &r, 3);
        fp12_conj(&s, &a);
        CHECK(fp12_eq(&r, &s));
        /* cyclotomic squaring on g = a^((p^6 - 1)(p^2 + 1)) */
        fp12 g;
        fp12_conj(&g, &a);
        fp12_inv(&r, &a);
        fp12_mul(&g, &g, &r);
        fp12_frobenius(&r, &g, 2);
        fp12_mul(&g, &r, &g);
        fp12_sqr(&r, &g);
        fp12_cyclotomic_sqr(&s, &g);
        CHECK(fp12_eq(&r, &s));
        fp12_cyclotomic_sqr(&s, &s);
        fp12_sqr(&r, &r);
        CHECK(fp12_eq(&r, &s));
        /* sparse line multiplication */
        fp2 l0, l1, l4;
        rand_fp2(&l0);
        rand_fp2(&l1);
        rand_fp2(&l4);
        memset(&t, 0, sizeof t);
        t.c0.c0 = l0;
        t.c0.c1 = l1;
        t.c1.c1 = l4;
        fp12_mul_ref(&r, &a, &t);
        fp12_mul_by_014(&s, &a, &l0, &l1, &l4);
        CHECK(fp12_eq(&r, &s));
    }
}

/* ---- scalars mod r ------------------------------------------------------------------------ */

static void test_fr(void)
{
    mpz_t z, w;
    mpz_inits(z, w, NULL);
    for (int i = 0; i < 200; i++) {
        uint8_t in[64], out[32];
        uint64_t k[4];
        size_t len = (size_t)(i % 65);
        test_rand_bytes(&rng, in, len);
        if (i == 64)
            memset(in, 0xff, len);
        fr_from_bytes_wide(k, in, len);
        mpz_import(z, len, 1, 1, 1, 0, in);
        mpz_mod(z, z, R);
        fr_store_be(out, k);
        mpz_import(w, 32, 1, 1, 1, 0, out);
        CHECK(mpz_cmp(z, w) == 0);
        CHECK(fr_is_canonical_mask(k) != 0);
    }
    /* the GLV split k = k1 z^2 + k0, 0 <= k0 < z^2, k1 < 2^128, for k in [0, r] */
    mpz_t z2, q, m;
    mpz_inits(z2, q, m, NULL);
    mpz_set_str(z2, "ac45a4010001a4020000000100000000", 16);
    for (int i = 0; i < 300; i++) {
        uint8_t in[32];
        uint64_t k[4], k0[2], k1[2];
        test_rand_bytes(&rng, in, 32);
        mpz_import(z, 32, 1, 1, 1, 0, in);
        mpz_mod(z, z, R);
        if (i < 6) { /* 0, 1, r - 1, r, z^2 - 1, z^2 */
            static const int e[6] = {0, 1, -1, -2, -3, -4};
            if (e[i] >= 0)
                mpz_set_ui(z, (unsigned long)e[i]);
            else if (e[i] == -1)
                mpz_sub_ui(z, R, 1);
            else if (e[i] == -2)
                mpz_set(z, R);
            else if (e[i] == -3)
                mpz_sub_ui(z, z2, 1);
            else
                mpz_set(z, z2);
        }
        memset(in, 0, 32);
        size_t n0;
        mpz_export(in + 32 - (mpz_sgn(z) ? mpz_sizeinbase(z, 256) : 0), &n0, 1, 1, 1, 0, z);
        fr_load_be(k, in);
        fr_split_z2(k0, k1, k);
        mpz_fdiv_qr(q, m, z, z2);
        mpz_import(w, 2, -1, 8, 0, 0, k0);
        CHECK(mpz_cmp(w, m) == 0);
        mpz_import(w, 2, -1, 8, 0, 0, k1);
        CHECK(mpz_cmp(w, q) == 0);
    }
    mpz_clears(z2, q, m, NULL);
    uint64_t k[4];
    uint8_t b[32];
    size_t n;
    memset(b, 0, 32);
    mpz_export(b, &n, 1, 1, 1, 0, R);
    fr_load_be(k, b);
    CHECK(fr_is_canonical_mask(k) == 0);
    k[0] -= 1;
    CHECK(fr_is_canonical_mask(k) != 0);
    memset(k, 0, sizeof k);
    CHECK(fr_is_zero_mask(k) != 0);
    mpz_clears(z, w, NULL);
}

/* ---- HKDF-SHA-256 (RFC 5869 appendix A.1 - A.3) ------------------------------------------- */

static void test_hkdf(void)
{
    static const struct {
        const char *ikm, *salt, *info, *prk, *okm;
    } tv[] = {
        {"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "000102030405060708090a0b0c",
         "f0f1f2f3f4f5f6f7f8f9",
         "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
         "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"},
        {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a"
         "2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f",
         "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a"
         "8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
         "b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9da"
         "dbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
         "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
         "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c6"
         "5e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"},
        {"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "", "",
         "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
         "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"},
    };
    for (size_t i = 0; i < GROVE_ARRAY_LEN(tv); i++) {
        size_t il, sl, nl, pl, ol;
        uint8_t *ikm = test_unhex(tv[i].ikm, &il), *salt = test_unhex(tv[i].salt, &sl);
        uint8_t *info = test_unhex(tv[i].info, &nl), *prk = test_unhex(tv[i].prk, &pl);
        uint8_t *okm = test_unhex(tv[i].okm, &ol), got_prk[32], got[128];
        grove_hkdf_sha256_extract(got_prk, salt, sl, ikm, il);
        CHECK_MEM(got_prk, prk, 32);
        CHECK(grove_hkdf_sha256_expand(got, ol, got_prk, info, nl));
        CHECK_MEM(got, okm, ol);
        /* the same through split parts */
        grove_hkdf_part ip[3] = {{ikm, il / 3}, {ikm + il / 3, 0}, {ikm + il / 3, il - il / 3}};
        grove_hkdf_part np[2] = {{info, nl / 2}, {info + nl / 2, nl - nl / 2}};
        grove_hkdf_sha256_extract_parts(got_prk, salt, sl, ip, 3);
        CHECK_MEM(got_prk, prk, 32);
        CHECK(grove_hkdf_sha256_expand_parts(got, ol, got_prk, np, 2));
        CHECK_MEM(got, okm, ol);
        free(ikm);
        free(salt);
        free(info);
        free(prk);
        free(okm);
    }
    uint8_t prk[32] = {0}, big[8161];
    CHECK(!grove_hkdf_sha256_expand(big, sizeof big, prk, NULL, 0));
    CHECK(grove_hkdf_sha256_expand(big, 8160, prk, NULL, 0));
}

int main(void)
{
    mpz_init_set_str(P,
                     "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9fe"
                     "ffffffffaaab",
                     16);
    mpz_init_set_str(R, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    test_fp();
    test_fp2();
    test_tower();
    test_fr();
    test_hkdf();
    mpz_clears(P, R, NULL);
    return test_done();
}
