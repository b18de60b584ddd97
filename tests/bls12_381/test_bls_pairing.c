/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The pairing: bilinearity in each argument and jointly (e(aP, bQ) = e(P, Q)^(ab)),
 * non-degeneracy, e(P, Q)^r = 1, identities, multi-pairing = product of pairings (across the
 * Miller-loop chunk size), pairing checks, and the public pairing API.
 */
#include <stdlib.h>
#include <string.h>

#include "bls12_381/constants.h"
#include "bls12_381/pairing.h"
#include "grove/bls12_381.h"
#include "test.h"

static uint64_t rng = 0xbadcafe;
static uint8_t R_BE[32];

static void rand_k(uint8_t k[32]) /* little-endian, < 2^255 */
{
    test_rand_bytes(&rng, k, 32);
    k[31] &= 0x7f;
}

static void fp12_pow_le(fp12 *r, const fp12 *a, const uint8_t *k, size_t len)
{
    fp12 acc = BLS_FP12_ONE;
    for (size_t i = len; i-- > 0;)
        for (int b = 7; b >= 0; b--) {
            fp12_sqr(&acc, &acc);
            if ((k[i] >> b) & 1)
                fp12_mul(&acc, &acc, a);
        }
    *r = acc;
}

static void pair1(fp12 *r, const g1_p *p, const g2_p *q)
{
    g1_a pa;
    g2_a qa;
    g1_to_affine_vartime(&pa, p);
    g2_to_affine_vartime(&qa, q);
    bls_pairing(r, &pa, &qa, 1);
}

static void test_bilinear(void)
{
    g1_p g, p, p2, ps;
    g2_p h, q, q2, qs;
    fp12 e, e1, e2, t;
    uint8_t a[32], b[32], rle[32];
    for (int i = 0; i < 32; i++)
        rle[i] = R_BE[31 - i];
    g1_generator(&g);
    g2_generator(&h);
    pair1(&e, &g, &h);
    CHECK(!fp12_is_one(&e)); /* non-degenerate */
    fp12_pow_le(&t, &e, rle, 32);
    CHECK(fp12_is_one(&t)); /* in the order-r subgroup */
    for (int i = 0; i < 3; i++) {
        rand_k(a);
        rand_k(b);
        g1_mul_vartime(&p, &g, a, 256);
        g2_mul_vartime(&q, &h, b, 256);
        /* e(aP, bQ) = e(P, Q)^(ab) */
        pair1(&e1, &p, &q);
        fp12_pow_le(&t, &e, a, 32);
        fp12_pow_le(&t, &t, b, 32);
        CHECK(fp12_eq(&e1, &t));
        /* e(bP, aQ) is the same value */
        g1_mul_vartime(&p2, &g, b, 256);
        g2_mul_vartime(&q2, &h, a, 256);
        pair1(&e2, &p2, &q2);
        CHECK(fp12_eq(&e1, &e2));
        /* linearity in each argument */
        g1_add_vartime(&ps, &p, &p2);
        pair1(&e1, &ps, &q);
        pair1(&e2, &p, &q);
        pair1(&t, &p2, &q);
        fp12_mul(&t, &t, &e2);
        CHECK(fp12_eq(&e1, &t));
        g2_add_vartime(&qs, &q, &q2);
        pair1(&e1, &p, &qs);
        pair1(&e2, &p, &q);
        pair1(&t, &p, &q2);
        fp12_mul(&t, &t, &e2);
        CHECK(fp12_eq(&e1, &t));
        /* e(-P, Q) = e(P, Q)^-1 = conj */
        g1_neg(&ps, &p);
        pair1(&e1, &ps, &q);
        fp12_conj(&t, &e2);
        CHECK(fp12_eq(&e1, &t));
    }
    /* identities */
    g1_p inf1;
    g2_p inf2;
    g1_set_inf(&inf1);
    g2_set_inf(&inf2);
    pair1(&t, &inf1, &h);
    CHECK(fp12_is_one(&t));
    pair1(&t, &g, &inf2);
    CHECK(fp12_is_one(&t));
}

static void test_multi(void)
{
    enum { N = 20 };
    g1_p g, p[N];
    g2_p h, q[N];
    g1_a pa[N];
    g2_a qa[N];
    fp12 prod = BLS_FP12_ONE, m, e;
    g1_generator(&g);
    g2_generator(&h);
    for (int i = 0; i < N; i++) {
        uint8_t a[32], b[32];
        rand_k(a);
        rand_k(b);
        g1_mul_vartime(&p[i], &g, a, 256);
        g2_mul_vartime(&q[i], &h, b, 256);
        if (i == 7)
            g1_set_inf(&p[i]);
        if (i == 11)
            g2_set_inf(&q[i]);
        g1_to_affine_vartime(&pa[i], &p[i]);
        g2_to_affine_vartime(&qa[i], &q[i]);
    }
    for (size_t n = 1; n <= N; n += (n < 3 ? 1 : 8)) {
        prod = BLS_FP12_ONE;
        for (size_t i = 0; i < n; i++) {
            pair1(&e, &p[i], &q[i]);
            fp12_mul(&prod, &prod, &e);
        }
        bls_pairing(&m, pa, qa, n);
        CHECK(fp12_eq(&m, &prod));
    }
    bls_pairing(&m, pa, qa, 0);
    CHECK(fp12_is_one(&m));
    /* product e(P, Q) e(-P, Q) = 1 within a multi-pairing, and e(aP, Q) e(P, -aQ) = 1 */
    g1_a two_p[2];
    g2_a two_q[2];
    g1_p np;
    two_p[0] = pa[0];
    g1_neg(&np, &p[0]);
    g1_to_affine_vartime(&two_p[1], &np);
    two_q[0] = qa[0];
    two_q[1] = qa[0];
    bls_pairing(&m, two_p, two_q, 2);
    CHECK(fp12_is_one(&m));
}

static void test_public(void)
{
    grove_bls_g1 p[3];
    grove_bls_g2 q[3];
    grove_bls_gt e1, e2, e3;
    uint8_t k[16];
    test_rand_bytes(&rng, k, sizeof k);
    grove_bls_g1_generator(&p[0]);
    grove_bls_g2_generator(&q[0]);
    CHECK(grove_bls_g1_mul(&p[1], &p[0], k, sizeof k) == GROVE_OK);
    CHECK(grove_bls_g2_mul(&q[1], &q[0], k, sizeof k) == GROVE_OK);
    /* e(kP, Q) == e(P, kQ) */
    CHECK(grove_bls_pairing(&e1, &p[1], &q[0], 1) == GROVE_OK);
    CHECK(grove_bls_pairing(&e2, &p[0], &q[1], 1) == GROVE_OK);
    CHECK(grove_bls_gt_equal(&e1, &e2));
    CHECK(!grove_bls_gt_is_one(&e1));
    /* e(kP, Q) * e(-P, kQ) == 1 */
    grove_bls_g1 two_p[2] = {p[1], p[0]};
    grove_bls_g2 two_q[2] = {q[0], q[1]};
    grove_bls_g1_neg(&two_p[1], &two_p[1]);
    CHECK_EQ_INT(grove_bls_pairing_check(two_p, two_q, 2), GROVE_OK);
    CHECK(grove_bls_pairing(&e3, two_p, two_q, 2) == GROVE_OK && grove_bls_gt_is_one(&e3));
    two_p[1] = p[0];
    CHECK_EQ_INT(grove_bls_pairing_check(two_p, two_q, 2), GROVE_ERR_VERIFY);
    grove_bls_gt_mul(&e3, &e1, &e2);
    CHECK(!grove_bls_gt_equal(&e3, &e1));
    CHECK_EQ_INT(grove_bls_pairing_check(NULL, NULL, 0), GROVE_OK);
    CHECK_EQ_INT(grove_bls_pairing_check(NULL, q, 1), GROVE_ERR_INVALID_ARG);
}

int main(void)
{
    for (int i = 0; i < 4; i++)
        grove_store64_be(R_BE + 8 * (3 - i), BLS_R_ORDER[i]);
    test_bilinear();
    test_multi();
    test_public();
    return test_done();
}
