/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The pairing: bilinearity in each argument and jointly (e(aP, bQ) = e(P, Q)^(ab)),
 * non-degeneracy, e(P, Q)^r = 1, identities, multi-pairing = product of pairings (across the
 * Miller-loop chunk size), pairing checks, and the public pairing API; the standard value:
 * the exact final exponentiation against f^((p^12 - 1)/r) computed with GMP's exponent and a
 * plain square-and-multiply, and the cubed one (HHT, checks) against its cube; the
 * caller-scratch forms of the pairing and of the MSMs against the allocating ones and against
 * sums of single multiplications.
 */
#include <gmp.h>
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

/* the field and group orders as the spec gives them (draft-irtf-cfrg-pairing-friendly-curves) */
static const char P_HEX[] = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eab"
                            "fffeb153ffffb9feffffffffaaab";
static const char R_HEX[] = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

/* the exact final exponentiation is f^((p^12 - 1)/r); the fast one its cube */
static void test_exact(void)
{
    mpz_t p, r, e;
    uint8_t *ebytes;
    size_t elen = 0;
    g1_p g, a1;
    g2_p h, a2;
    g1_a pa;
    g2_a qa;
    fp12 f, naive, exact, cubed, t;
    mpz_init_set_str(p, P_HEX, 16);
    mpz_init_set_str(r, R_HEX, 16);
    mpz_init(e);
    mpz_pow_ui(e, p, 12);
    mpz_sub_ui(e, e, 1);
    CHECK(mpz_divisible_p(e, r));
    mpz_divexact(e, e, r);
    ebytes = mpz_export(NULL, &elen, -1, 1, -1, 0, e); /* little-endian bytes */
    CHECK(ebytes != NULL && elen == 540);
    g1_generator(&g);
    g2_generator(&h);
    for (int i = 0; i < 3; i++) {
        uint8_t k[32];
        rand_k(k);
        if (i == 0) {
            a1 = g; /* e(g1, g2) itself */
            a2 = h;
        } else {
            g1_mul_vartime(&a1, &g, k, 256);
            rand_k(k);
            g2_mul_vartime(&a2, &h, k, 256);
        }
        g1_to_affine_vartime(&pa, &a1);
        g2_to_affine_vartime(&qa, &a2);
        bls_miller_loop(&f, &pa, &qa, 1);
        fp12_pow_le(&naive, &f, ebytes, elen);
        bls_final_exp_exact(&exact, &f);
        CHECK(fp12_eq(&exact, &naive));
        CHECK(!fp12_is_one(&exact));
        bls_final_exp(&cubed, &f);
        fp12_sqr(&t, &exact);
        fp12_mul(&t, &t, &exact);
        CHECK(fp12_eq(&cubed, &t));
        CHECK(!fp12_eq(&cubed, &exact));
        /* and a value that is not a Miller-loop output: the exponent is what it is */
        f.c1.c2.c0.l[0] ^= 1;
        fp12_pow_le(&naive, &f, ebytes, elen);
        bls_final_exp_exact(&exact, &f);
        CHECK(fp12_eq(&exact, &naive));
    }
    free(ebytes);
    mpz_clears(p, r, e, NULL);
}

/* the public pairing is the exact one; scratch forms give the same results */
static void test_scratch_pairing(void)
{
    enum { N = 9 };
    grove_bls_g1 p[N];
    grove_bls_g2 q[N];
    grove_bls_gt e1, e2;
    g1_p g;
    g2_p h;
    g1_a pa;
    g2_a qa;
    fp12 f, x;
    unsigned char *buf;
    size_t need = grove_bls_pairing_scratch_size(N);
    CHECK(need > 0 && grove_bls_pairing_scratch_size(GROVE_BLS_PAIRING_MAX_PAIRS + 1) == 0);
    CHECK(grove_bls_pairing_scratch_size(1) < need);
    grove_bls_g1_generator(&p[0]);
    grove_bls_g2_generator(&q[0]);
    /* grove_bls_pairing(g1, g2) = the exact final exponentiation of the Miller loop */
    CHECK(grove_bls_pairing(&e1, p, q, 1) == GROVE_OK);
    g1_generator(&g);
    g2_generator(&h);
    g1_to_affine_vartime(&pa, &g);
    g2_to_affine_vartime(&qa, &h);
    bls_miller_loop(&f, &pa, &qa, 1);
    bls_final_exp_exact(&x, &f);
    CHECK(memcmp(e1.opaque, &x, sizeof x) == 0);
    for (int i = 1; i < N; i++) {
        uint8_t k[16];
        test_rand_bytes(&rng, k, sizeof k);
        CHECK(grove_bls_g1_mul(&p[i], &p[0], k, sizeof k) == GROVE_OK);
        test_rand_bytes(&rng, k, sizeof k);
        CHECK(grove_bls_g2_mul(&q[i], &q[0], k, sizeof k) == GROVE_OK);
    }
    /* misaligned, poisoned scratch of exactly the size asked for */
    buf = malloc(need + 1);
    CHECK(buf != NULL);
    memset(buf, 0xa5, need + 1);
    CHECK(grove_bls_pairing(&e1, p, q, N) == GROVE_OK);
    CHECK(grove_bls_pairing_with_scratch(&e2, p, q, N, buf + 1) == GROVE_OK);
    CHECK(grove_bls_gt_equal(&e1, &e2));
    CHECK(!grove_bls_gt_is_one(&e1));
    CHECK_EQ_INT(grove_bls_pairing_check_with_scratch(p, q, N, buf + 1), GROVE_ERR_VERIFY);
    /* e(P, Q) e(-P, Q) ... = 1 */
    grove_bls_g1 pp[2 * N];
    grove_bls_g2 qq[2 * N];
    for (int i = 0; i < N; i++) {
        pp[i] = p[i];
        grove_bls_g1_neg(&pp[N + i], &p[i]);
        qq[i] = qq[N + i] = q[i];
    }
    unsigned char *big = malloc(grove_bls_pairing_scratch_size(2 * N));
    CHECK(big != NULL);
    CHECK_EQ_INT(grove_bls_pairing_check_with_scratch(pp, qq, 2 * N, big), GROVE_OK);
    CHECK(grove_bls_pairing_with_scratch(&e2, pp, qq, 2 * N, big) == GROVE_OK &&
          grove_bls_gt_is_one(&e2));
    free(big);
    CHECK_EQ_INT(grove_bls_pairing_with_scratch(&e2, p, q, N, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_bls_pairing_check_with_scratch(p, q, GROVE_BLS_PAIRING_MAX_PAIRS + 1, buf),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_bls_pairing_check_with_scratch(NULL, NULL, 0, NULL), GROVE_OK);
    free(buf);
}

/* MSM in caller scratch = allocating MSM = sum of single multiplications */
static void test_scratch_msm(void)
{
    enum { N = 70 };
    static grove_bls_g1 p1[N];
    static grove_bls_g2 p2[N];
    static uint8_t ks[N * 32];
    const size_t ns[] = {0, 1, 7, 8, 20, N};
    const size_t klens[] = {16, 32};
    grove_bls_g1_generator(&p1[0]);
    grove_bls_g2_generator(&p2[0]);
    for (int i = 1; i < N; i++) {
        uint8_t k[16];
        test_rand_bytes(&rng, k, sizeof k);
        CHECK(grove_bls_g1_mul(&p1[i], &p1[0], k, sizeof k) == GROVE_OK);
        CHECK(grove_bls_g2_mul(&p2[i], &p2[0], k, sizeof k) == GROVE_OK);
    }
    grove_bls_g1_identity(&p1[5]);
    grove_bls_g2_identity(&p2[5]);
    test_rand_bytes(&rng, ks, sizeof ks);
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t b = 0; b < 2; b++) {
            size_t n = ns[a], kl = klens[b];
            size_t s1 = grove_bls_g1_msm_scratch_size(n, kl);
            size_t s2 = grove_bls_g2_msm_scratch_size(n, kl);
            unsigned char *b1 = malloc(s1 + 3), *b2 = malloc(s2 + 3);
            grove_bls_g1 r1, w1, acc1, t1;
            grove_bls_g2 r2, w2, acc2, t2;
            CHECK(b1 != NULL && b2 != NULL);
            memset(b1, 0x5a, s1 + 3);
            memset(b2, 0x5a, s2 + 3);
            CHECK(n >= 8 || (s1 == 0 && s2 == 0));
            CHECK(grove_bls_g1_msm_with_scratch(&r1, p1, ks, kl, n, b1 + 3) == GROVE_OK);
            CHECK(grove_bls_g2_msm_with_scratch(&r2, p2, ks, kl, n, b2 + 3) == GROVE_OK);
            CHECK(grove_bls_g1_msm(&w1, p1, ks, kl, n) == GROVE_OK);
            CHECK(grove_bls_g2_msm(&w2, p2, ks, kl, n) == GROVE_OK);
            CHECK(grove_bls_g1_equal(&r1, &w1));
            CHECK(grove_bls_g2_equal(&r2, &w2));
            grove_bls_g1_identity(&acc1);
            grove_bls_g2_identity(&acc2);
            for (size_t i = 0; i < n; i++) {
                CHECK(grove_bls_g1_mul(&t1, &p1[i], ks + i * kl, kl) == GROVE_OK);
                CHECK(grove_bls_g2_mul(&t2, &p2[i], ks + i * kl, kl) == GROVE_OK);
                grove_bls_g1_add(&acc1, &acc1, &t1);
                grove_bls_g2_add(&acc2, &acc2, &t2);
            }
            CHECK(grove_bls_g1_equal(&r1, &acc1));
            CHECK(grove_bls_g2_equal(&r2, &acc2));
            if (n >= 8) {
                CHECK_EQ_INT(grove_bls_g1_msm_with_scratch(&r1, p1, ks, kl, n, NULL),
                             GROVE_ERR_INVALID_ARG);
                CHECK_EQ_INT(grove_bls_g2_msm_with_scratch(&r2, p2, ks, kl, n, NULL),
                             GROVE_ERR_INVALID_ARG);
            }
            free(b1);
            free(b2);
        }
    CHECK(grove_bls_g1_msm_scratch_size(GROVE_BLS_MSM_MAX_POINTS + 1, 16) == 0);
    CHECK(grove_bls_g2_msm_scratch_size(10, GROVE_BLS_MAX_SCALAR_BYTES + 1) == 0);
    /* 256 points, Mithril's 16-byte scalars: the sizes the docs quote */
    printf("# msm scratch for 256 x 16-byte scalars: G1 %zu bytes, G2 %zu bytes\n",
           grove_bls_g1_msm_scratch_size(256, 16), grove_bls_g2_msm_scratch_size(256, 16));
}

int main(void)
{
    for (int i = 0; i < 4; i++)
        grove_store64_be(R_BE + 8 * (3 - i), BLS_R_ORDER[i]);
    test_bilinear();
    test_multi();
    test_public();
    test_exact();
    test_scratch_pairing();
    test_scratch_msm();
    return test_done();
}
