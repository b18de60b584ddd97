/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * BLS12-381 groups: group laws (Jacobian and complete formulas) in G1 and G2, scalar
 * multiplication (wNAF, constant-time windows) against a plain double-and-add, MSM against
 * separate multiplications, endomorphisms, fast subgroup checks against multiplication by r on
 * points in and out of the subgroups, cofactor clearing, and ZCash encodings: round trips and
 * the rejection of every malformed encoding with its reason.
 */
#include <stdlib.h>
#include <string.h>

#include "bls12_381/constants.h"
#include "bls12_381/ec.h"
#include "bls12_381/hash_to_curve.h"
#include "grove/bls12_381.h"
#include "test.h"

static uint64_t rng = 0xc0ffee;

static uint8_t R_LE[32]; /* r little-endian */

static void rand_scalar(uint8_t k[32])
{
    test_rand_bytes(&rng, k, 32);
    k[31] &= 0x7f;
}

/* ---- reference scalar multiplication: MSB-first double and add ---------------------------- */
#define REF_MUL(G, PT)                                                                      \
    static void G##_ref_mul(PT *r, const PT *a, const uint8_t *k, size_t len)               \
    {                                                                                       \
        PT acc;                                                                             \
        G##_set_inf(&acc);                                                                  \
        for (size_t i = len; i-- > 0;)                                                      \
            for (int b = 7; b >= 0; b--) {                                                  \
                G##_dbl(&acc, &acc);                                                        \
                if ((k[i] >> b) & 1)                                                        \
                    G##_add_vartime(&acc, &acc, a);                                         \
            }                                                                               \
        *r = acc;                                                                           \
    }
REF_MUL(g1, g1_p)
REF_MUL(g2, g2_p)

static void rand_g1(g1_p *r)
{
    uint8_t k[32];
    g1_p g;
    rand_scalar(k);
    g1_generator(&g);
    g1_mul_vartime(r, &g, k, 256);
}

static void rand_g2(g2_p *r)
{
    uint8_t k[32];
    g2_p g;
    rand_scalar(k);
    g2_generator(&g);
    g2_mul_vartime(r, &g, k, 256);
}

/* A point of E(Fp) (E'(Fp2)) that is normally outside G1 (G2): the map without clearing. */
static void rand_e1(g1_p *r)
{
    uint8_t m[16];
    test_rand_bytes(&rng, m, sizeof m);
    fp u;
    bls_hash_to_fp(&u, 1, m, sizeof m, (const uint8_t *)"test", 4);
    bls_map_to_g1(r, &u);
}

static void rand_e2(g2_p *r)
{
    uint8_t m[16];
    test_rand_bytes(&rng, m, sizeof m);
    fp2 u;
    bls_hash_to_fp2(&u, 1, m, sizeof m, (const uint8_t *)"test", 4);
    bls_map_to_g2(r, &u);
}

/* ---- group laws, shared by G1 and G2 ------------------------------------------------------ */
#define GROUP_LAWS(G, PT, AFF, RAND)                                                        \
    static void G##_laws(void)                                                              \
    {                                                                                       \
        PT a, b, c, r, s, t, inf, na;                                                       \
        AFF aa;                                                                             \
        G##_set_inf(&inf);                                                                  \
        for (int i = 0; i < 20; i++) {                                                      \
            RAND(&a);                                                                       \
            RAND(&b);                                                                       \
            RAND(&c);                                                                       \
            CHECK(G##_on_curve(&a) && G##_in_subgroup_vartime(&a));                         \
            G##_add_vartime(&r, &a, &b);                                                    \
            G##_add_vartime(&s, &b, &a);                                                    \
            CHECK(G##_eq_vartime(&r, &s));                                                  \
            G##_add_ct(&t, &a, &b);                                                         \
            CHECK(G##_eq_vartime(&r, &t));                                                  \
            G##_add_vartime(&r, &r, &c);                                                    \
            G##_add_vartime(&s, &b, &c);                                                    \
            G##_add_vartime(&s, &a, &s);                                                    \
            CHECK(G##_eq_vartime(&r, &s));                                                  \
            G##_add_vartime(&r, &a, &inf);                                                  \
            CHECK(G##_eq_vartime(&r, &a));                                                  \
            G##_add_vartime(&r, &inf, &a);                                                  \
            CHECK(G##_eq_vartime(&r, &a));                                                  \
            G##_add_ct(&r, &inf, &a);                                                       \
            CHECK(G##_eq_vartime(&r, &a));                                                  \
            G##_neg(&na, &a);                                                               \
            G##_add_vartime(&r, &a, &na);                                                   \
            CHECK(G##_is_inf(&r));                                                          \
            G##_add_ct(&r, &a, &na);                                                        \
            CHECK(G##_is_inf(&r));                                                          \
            G##_dbl(&r, &a);                                                                \
            G##_add_vartime(&s, &a, &a);                                                    \
            CHECK(G##_eq_vartime(&r, &s));                                                  \
            G##_add_ct(&s, &a, &a);                                                         \
            CHECK(G##_eq_vartime(&r, &s));                                                  \
            /* mixed addition, including doubling and cancellation */                       \
            G##_to_affine(&aa, &b);                                                         \
            G##_add_affine_vartime(&r, &a, &aa);                                            \
            G##_add_vartime(&s, &a, &b);                                                    \
            CHECK(G##_eq_vartime(&r, &s));                                                  \
            G##_add_affine_vartime(&r, &b, &aa);                                            \
            G##_dbl(&s, &b);                                                                \
            CHECK(G##_eq_vartime(&r, &s));                                                  \
            G##_neg(&t, &b);                                                                \
            G##_add_affine_vartime(&r, &t, &aa);                                            \
            CHECK(G##_is_inf(&r));                                                          \
            G##_add_affine_vartime(&r, &inf, &aa);                                          \
            CHECK(G##_eq_vartime(&r, &b));                                                  \
            /* affine conversions */                                                        \
            G##_from_affine(&r, &aa);                                                       \
            CHECK(G##_eq_vartime(&r, &b));                                                  \
            G##_to_affine_vartime(&aa, &b);                                                 \
            G##_from_affine(&r, &aa);                                                       \
            CHECK(G##_eq_vartime(&r, &b) && G##_affine_on_curve(&aa));                      \
            CHECK(!G##_eq_vartime(&a, &b) && !G##_eq_vartime(&a, &inf));                    \
        }                                                                                   \
        G##_dbl(&r, &inf);                                                                  \
        CHECK(G##_is_inf(&r));                                                              \
        G##_add_ct(&r, &inf, &inf);                                                         \
        CHECK(G##_is_inf(&r));                                                              \
        G##_to_affine(&aa, &inf);                                                           \
        G##_from_affine(&r, &aa);                                                           \
        CHECK(G##_is_inf(&r) && G##_on_curve(&inf));                                        \
        /* batch affine conversion with an infinity in the middle */                        \
        PT pts[5];                                                                          \
        AFF affs[5];                                                                        \
        for (int i = 0; i < 5; i++)                                                         \
            RAND(&pts[i]);                                                                  \
        pts[2] = inf;                                                                       \
        CHECK(G##_batch_to_affine_vartime(affs, pts, 5));                                   \
        for (int i = 0; i < 5; i++) {                                                       \
            G##_from_affine(&r, &affs[i]);                                                  \
            CHECK(G##_eq_vartime(&r, &pts[i]));                                             \
        }                                                                                   \
    }
GROUP_LAWS(g1, g1_p, g1_a, rand_g1)
GROUP_LAWS(g2, g2_p, g2_a, rand_g2)

/* ---- scalar multiplication ---------------------------------------------------------------- */
#define SCALAR_TESTS(G, PT, RAND, RANDE)                                                    \
    static void G##_scalars(void)                                                           \
    {                                                                                       \
        PT a, b, r, s, t;                                                                   \
        uint8_t k[32], k2[32], ksum[33];                                                    \
        uint64_t kl[4];                                                                     \
        for (int i = 0; i < 12; i++) {                                                      \
            RAND(&a);                                                                       \
            rand_scalar(k);                                                                 \
            if (i == 0)                                                                     \
                memset(k, 0, 32);                                                           \
            if (i == 1) {                                                                   \
                memset(k, 0, 32);                                                           \
                k[0] = 1;                                                                   \
            }                                                                               \
            if (i == 2)                                                                     \
                memcpy(k, R_LE, 32);                                                        \
            if (i == 3) {                                                                   \
                memcpy(k, R_LE, 32);                                                        \
                k[0]--;                                                                     \
            }                                                                               \
            if (i == 4) {                                                                   \
                memset(k, 0xff, 32); /* 2^256 - 1 */                                        \
            }                                                                               \
            if (i == 5)                                                                     \
                RANDE(&a); /* a point outside the subgroup */                               \
            G##_ref_mul(&r, &a, k, 32);                                                     \
            G##_mul_vartime(&s, &a, k, 256);                                                \
            CHECK(G##_eq_vartime(&r, &s));                                                  \
            for (int j = 0; j < 4; j++) {                                                   \
                kl[j] = 0;                                                                  \
                for (int q = 7; q >= 0; q--)                                                \
                    kl[j] = (kl[j] << 8) | k[8 * j + q];                                    \
            }                                                                               \
            G##_mul_ct_any(&t, &a, kl);                                                     \
            CHECK(G##_eq_vartime(&r, &t));                                                  \
            if (i == 2)                                                                     \
                CHECK(G##_is_inf(&s) && G##_is_inf(&t));                                    \
            if (i != 4 && i != 5) { /* GLV: k <= r and a point of the subgroup */            \
                G##_mul_ct(&t, &a, kl);                                                     \
                CHECK(G##_eq_vartime(&r, &t));                                              \
            }                                                                               \
            /* short scalars */                                                             \
            G##_ref_mul(&r, &a, k, 5);                                                      \
            G##_mul_vartime(&s, &a, k, 37);                                                 \
            k2[4] = (uint8_t)(k[4] & 0x1f);                                                 \
            memcpy(k2, k, 4);                                                               \
            G##_ref_mul(&r, &a, k2, 5);                                                     \
            CHECK(G##_eq_vartime(&r, &s));                                                  \
            /* (k + k2) a = k a + k2 a */                                                   \
            rand_scalar(k2);                                                                \
            unsigned c = 0;                                                                 \
            for (int j = 0; j < 32; j++) {                                                  \
                c += (unsigned)k[j] + k2[j];                                                \
                ksum[j] = (uint8_t)c;                                                       \
                c >>= 8;                                                                    \
            }                                                                               \
            ksum[32] = (uint8_t)c;                                                          \
            G##_mul_vartime(&r, &a, ksum, 264);                                             \
            G##_mul_vartime(&s, &a, k, 256);                                                \
            G##_mul_vartime(&t, &a, k2, 256);                                               \
            G##_add_vartime(&s, &s, &t);                                                    \
            CHECK(G##_eq_vartime(&r, &s));                                                  \
            /* multiplication by |z| */                                                     \
            uint8_t zb[8];                                                                  \
            for (int j = 0; j < 8; j++)                                                     \
                zb[j] = (uint8_t)(BLS_Z_ABS >> (8 * j));                                    \
            G##_ref_mul(&r, &a, zb, 8);                                                     \
            G##_mul_z_abs_vartime(&s, &a);                                                  \
            CHECK(G##_eq_vartime(&r, &s));                                                  \
        }                                                                                   \
        /* r * P = O for the generator */                                                   \
        G##_generator(&b);                                                                  \
        G##_mul_vartime(&r, &b, R_LE, 256);                                                 \
        CHECK(G##_is_inf(&r));                                                              \
    }
SCALAR_TESTS(g1, g1_p, rand_g1, rand_e1)
SCALAR_TESTS(g2, g2_p, rand_g2, rand_e2)

#define MSM_TESTS(G, PT, RAND)                                                              \
    static void G##_msm(void)                                                               \
    {                                                                                       \
        static const size_t sizes[] = {0, 1, 3, 7, 8, 9, 33, 70};                          \
        static const size_t klens[] = {16, 32, 1, 5};                                       \
        PT *pts = malloc(70 * sizeof *pts), r, s, t;                                       \
        uint8_t *ks = malloc(70 * 32);                                                     \
        for (size_t si = 0; si < GROVE_ARRAY_LEN(sizes); si++) {                            \
            size_t n = sizes[si], kl = klens[si % GROVE_ARRAY_LEN(klens)];                  \
            for (size_t i = 0; i < n; i++)                                                  \
                RAND(&pts[i]);                                                              \
            test_rand_bytes(&rng, ks, n * kl);                                              \
            if (n > 5) {                                                                    \
                G##_set_inf(&pts[1]);           /* an identity */                           \
                memset(ks + 2 * kl, 0, kl);     /* a zero scalar */                         \
                pts[4] = pts[3];                /* a repeated point: doubling in buckets */ \
                memcpy(ks + 4 * kl, ks + 3 * kl, kl);                                       \
                G##_neg(&pts[5], &pts[3]);      /* cancellation */                          \
                memcpy(ks + 5 * kl, ks + 3 * kl, kl);                                       \
            }                                                                               \
            CHECK(G##_msm_vartime(&r, pts, ks, kl, n));                                     \
            G##_set_inf(&s);                                                                \
            for (size_t i = 0; i < n; i++) {                                                \
                G##_ref_mul(&t, &pts[i], ks + i * kl, kl);                                  \
                G##_add_vartime(&s, &s, &t);                                                \
            }                                                                               \
            CHECK(G##_eq_vartime(&r, &s));                                                  \
        }                                                                                   \
        /* 100 points, one repeated 16-byte scalar: every window puts all points in one     \
         * bucket (deep bucket trees); the result is k (sum P_i) */                         \
        PT *many = malloc(100 * sizeof *many);                                              \
        uint8_t *same = malloc(100 * 16);                                                   \
        G##_set_inf(&s);                                                                    \
        for (size_t i = 0; i < 100; i++) {                                                  \
            RAND(&many[i]);                                                                 \
            G##_add_vartime(&s, &s, &many[i]);                                              \
        }                                                                                   \
        test_rand_bytes(&rng, same, 16);                                                    \
        for (size_t i = 1; i < 100; i++)                                                    \
            memcpy(same + 16 * i, same, 16);                                                \
        CHECK(G##_msm_vartime(&r, many, same, 16, 100));                                    \
        G##_mul_vartime(&t, &s, same, 128);                                                 \
        CHECK(G##_eq_vartime(&r, &t));                                                      \
        free(many);                                                                         \
        free(same);                                                                         \
        free(pts);                                                                          \
        free(ks);                                                                           \
    }
MSM_TESTS(g1, g1_p, rand_g1)
MSM_TESTS(g2, g2_p, rand_g2)

/* ---- endomorphisms, subgroup checks, cofactor clearing ------------------------------------ */

static void test_subgroups(void)
{
    g1_p a, r, s;
    g2_p b, u, v;
    /* -z^2 mod r and z mod r, little-endian */
    uint8_t mz2[32], zr[32];
    {
        /* r - z^2 (z^2 < 2^128) and r - |z| */
        bls_u128 z2 = (bls_u128)BLS_Z_ABS * BLS_Z_ABS;
        uint8_t z2b[32] = {0}, zb[32] = {0};
        for (int i = 0; i < 16; i++)
            z2b[i] = (uint8_t)(z2 >> (8 * i));
        for (int i = 0; i < 8; i++)
            zb[i] = (uint8_t)(BLS_Z_ABS >> (8 * i));
        int br1 = 0, br2 = 0;
        for (int i = 0; i < 32; i++) {
            int d1 = R_LE[i] - z2b[i] - br1, d2 = R_LE[i] - zb[i] - br2;
            br1 = d1 < 0;
            br2 = d2 < 0;
            mz2[i] = (uint8_t)(d1 + 256 * br1);
            zr[i] = (uint8_t)(d2 + 256 * br2);
        }
    }
    for (int i = 0; i < 10; i++) {
        rand_g1(&a);
        g1_phi(&r, &a);
        g1_mul_vartime(&s, &a, mz2, 256);
        CHECK(g1_eq_vartime(&r, &s));
        rand_g2(&b);
        g2_psi(&u, &b);
        g2_mul_vartime(&v, &b, zr, 256);
        CHECK(g2_eq_vartime(&u, &v));
    }
    /* random points of E / E': fast check == (r P == O); cofactor clearing lands in G */
    int out1 = 0, out2 = 0;
    for (int i = 0; i < 10; i++) {
        rand_e1(&a);
        CHECK(g1_on_curve(&a));
        g1_mul_vartime(&r, &a, R_LE, 256);
        CHECK_EQ_INT(g1_in_subgroup_vartime(&a), g1_is_inf(&r));
        out1 += !g1_is_inf(&r);
        g1_clear_cofactor(&s, &a);
        CHECK(g1_in_subgroup_vartime(&s));
        g1_mul_vartime(&r, &s, R_LE, 256);
        CHECK(g1_is_inf(&r));
        /* h_eff = 1 - z for G1 */
        uint8_t h1[8];
        for (int j = 0; j < 8; j++)
            h1[j] = (uint8_t)((BLS_Z_ABS + 1) >> (8 * j));
        g1_mul_vartime(&r, &a, h1, 64);
        CHECK(g1_eq_vartime(&r, &s));

        rand_e2(&b);
        CHECK(g2_on_curve(&b));
        g2_mul_vartime(&u, &b, R_LE, 256);
        CHECK_EQ_INT(g2_in_subgroup_vartime(&b), g2_is_inf(&u));
        out2 += !g2_is_inf(&u);
        g2_clear_cofactor(&v, &b);
        CHECK(g2_in_subgroup_vartime(&v));
        g2_mul_vartime(&u, &v, R_LE, 256);
        CHECK(g2_is_inf(&u));
        if (i < 3) {
            /* h_eff of RFC 9380 section 8.8.2 */
            static const char *heff = "0bc69f08f2ee75b3584c6a0ea91b352888e2a8e9145ad7689986ff0315"
                                      "08ffe1329c2f178731db956d82bf015d1212b02ec0ec69d7477c1ae95"
                                      "4cbc06689f6a359894c0adebbf6b4e8020005aaa95551";
            size_t hl;
            uint8_t *hb = test_unhex(heff, &hl), le[80];
            for (size_t j = 0; j < hl; j++)
                le[j] = hb[hl - 1 - j];
            g2_mul_vartime(&u, &b, le, 8 * hl);
            CHECK(g2_eq_vartime(&u, &v));
            free(hb);
        }
    }
    CHECK(out1 == 10 && out2 == 10);
    /* a point of order 3 on E: (0, 2) */
    g1_a o3;
    fp_set_zero(&o3.x);
    fp_from_u64(&o3.y, 2);
    CHECK(g1_affine_on_curve(&o3));
    g1_from_affine(&a, &o3);
    CHECK(!g1_in_subgroup_vartime(&a));
    g1_dbl(&r, &a);
    g1_add_vartime(&r, &r, &a);
    CHECK(g1_is_inf(&r));
    /* identity is in both groups; points off the curve are not */
    g1_set_inf(&a);
    g2_set_inf(&b);
    CHECK(g1_in_subgroup_vartime(&a) && g2_in_subgroup_vartime(&b));
    rand_g1(&a);
    fp_add(&a.y, &a.y, &BLS_FP_ONE);
    CHECK(!g1_on_curve(&a) && !g1_in_subgroup_vartime(&a));
    rand_g2(&b);
    fp2_add(&b.y, &b.y, &BLS_FP2_ONE);
    CHECK(!g2_on_curve(&b) && !g2_in_subgroup_vartime(&b));
}

/* ---- encodings ---------------------------------------------------------------------------- */

static void put_fp(uint8_t *out, const fp *a)
{
    fp_to_bytes(out, a);
}

/* big-endian 48 bytes of p + k */
static void p_plus(uint8_t out[48], unsigned k)
{
    fp t;
    memset(&t, 0, sizeof t);
    uint64_t c = k;
    for (int i = 0; i < 6; i++) {
        uint64_t v = BLS_FP_P.l[i] + c;
        c = v < c;
        t.l[i] = v;
    }
    for (int i = 0; i < 6; i++)
        grove_store64_be(out + 8 * (5 - i), t.l[i]);
}

/* An x in Fp with x^3 + 4 a non-square (no point). */
static void x_off_curve_g1(fp *x)
{
    fp y2;
    for (uint64_t v = 1;; v++) {
        fp_from_u64(x, v);
        fp_sqr(&y2, x);
        fp_mul(&y2, &y2, x);
        fp_add(&y2, &y2, &BLS_G1_B);
        if (!fp_is_square(&y2))
            return;
    }
}

static void test_encoding_g1(void)
{
    uint8_t c[48], u[96], bad[96];
    g1_p a, r;
    for (int i = 0; i < 20; i++) {
        rand_g1(&a);
        g1_compress(c, &a);
        g1_serialize(u, &a);
        CHECK(c[0] & 0x80);
        CHECK((u[0] & 0xe0) == 0);
        CHECK(memcmp(c + 1, u + 1, 47) == 0 && (c[0] & 0x1f) == u[0]);
        CHECK(g1_decode(&r, c, 48, 0) == BLS_DECODE_OK && g1_eq_vartime(&r, &a));
        CHECK(g1_decode(&r, u, 96, 0) == BLS_DECODE_OK && g1_eq_vartime(&r, &a));
        /* the sort bit selects -a */
        memcpy(bad, c, 48);
        bad[0] ^= 0x20;
        g1_neg(&a, &a);
        CHECK(g1_decode(&r, bad, 48, 0) == BLS_DECODE_OK && g1_eq_vartime(&r, &a));
        /* flags wrong for the length */
        memcpy(bad, c, 48);
        bad[0] &= 0x7f;
        CHECK_EQ_INT(g1_decode(&r, bad, 48, 0), BLS_DECODE_BAD_FLAGS);
        memcpy(bad, u, 96);
        bad[0] |= 0x80;
        CHECK_EQ_INT(g1_decode(&r, bad, 96, 0), BLS_DECODE_BAD_FLAGS);
        memcpy(bad, u, 96);
        bad[0] |= 0x20;
        CHECK_EQ_INT(g1_decode(&r, bad, 96, 0), BLS_DECODE_BAD_FLAGS);
        /* wrong y for the uncompressed form */
        memcpy(bad, u, 96);
        bad[95] ^= 1;
        CHECK_EQ_INT(g1_decode(&r, bad, 96, 0), BLS_DECODE_NOT_ON_CURVE);
    }
    /* every other length */
    rand_g1(&a);
    g1_serialize(bad, &a);
    for (size_t len = 0; len <= 96; len++)
        if (len != 48 && len != 96)
            CHECK_EQ_INT(g1_decode(&r, bad, len, 0), BLS_DECODE_BAD_LENGTH);
    g1_compress(c, &a);
    CHECK_EQ_INT(g1_decode(&r, c, 47, 0), BLS_DECODE_BAD_LENGTH);
    CHECK_EQ_INT(g1_decode(&r, u, 95, 0), BLS_DECODE_BAD_LENGTH);
    CHECK_EQ_INT(g1_decode(&r, c, 0, 0), BLS_DECODE_BAD_LENGTH);
    /* infinity */
    g1_set_inf(&a);
    g1_compress(c, &a);
    g1_serialize(u, &a);
    CHECK(c[0] == 0xc0 && u[0] == 0x40);
    CHECK(g1_decode(&r, c, 48, 0) == BLS_DECODE_OK && g1_is_inf(&r));
    CHECK(g1_decode(&r, u, 96, 0) == BLS_DECODE_OK && g1_is_inf(&r));
    memcpy(bad, c, 48);
    bad[0] = 0xe0; /* infinity with the sort bit */
    CHECK_EQ_INT(g1_decode(&r, bad, 48, 0), BLS_DECODE_BAD_FLAGS);
    bad[0] = 0xc1;
    CHECK_EQ_INT(g1_decode(&r, bad, 48, 0), BLS_DECODE_BAD_INFINITY);
    for (int pos = 1; pos < 48; pos += 11) {
        memcpy(bad, c, 48);
        bad[pos] = 1;
        CHECK_EQ_INT(g1_decode(&r, bad, 48, 0), BLS_DECODE_BAD_INFINITY);
        memcpy(bad, u, 96);
        bad[pos + 48] = 0x80;
        CHECK_EQ_INT(g1_decode(&r, bad, 96, 0), BLS_DECODE_BAD_INFINITY);
    }
    memset(bad, 0, 96);
    bad[0] = 0x80; /* "compressed x = 0" is a real x, but infinity needs the flag: (0, 2) has
                    * order 3, so it decodes to a point outside G1 */
    CHECK_EQ_INT(g1_decode(&r, bad, 48, 0), BLS_DECODE_NOT_IN_SUBGROUP);
    memset(bad, 0, 96); /* uncompressed (0, 0) without the infinity flag */
    CHECK_EQ_INT(g1_decode(&r, bad, 96, 0), BLS_DECODE_NOT_ON_CURVE);
    /* x >= p */
    for (unsigned k = 0; k < 3; k++) {
        p_plus(bad, k);
        bad[0] |= 0x80;
        CHECK_EQ_INT(g1_decode(&r, bad, 48, 0), BLS_DECODE_NOT_CANONICAL);
        p_plus(bad, k);
        rand_g1(&a);
        g1_serialize(u, &a);
        memcpy(u, bad, 48);
        CHECK_EQ_INT(g1_decode(&r, u, 96, 0), BLS_DECODE_NOT_CANONICAL);
        g1_serialize(u, &a);
        p_plus(u + 48, k);
        CHECK_EQ_INT(g1_decode(&r, u, 96, 0), BLS_DECODE_NOT_CANONICAL);
    }
    memset(bad, 0xff, 48);
    bad[0] = 0x9f; /* x = 2^381 - 1 */
    CHECK_EQ_INT(g1_decode(&r, bad, 48, 0), BLS_DECODE_NOT_CANONICAL);
    /* no point with this x */
    fp x;
    x_off_curve_g1(&x);
    put_fp(bad, &x);
    bad[0] |= 0x80;
    CHECK_EQ_INT(g1_decode(&r, bad, 48, 0), BLS_DECODE_NOT_ON_CURVE);
    /* on the curve but outside G1, both forms; accepted without the subgroup check */
    for (int i = 0; i < 5; i++) {
        rand_e1(&a);
        g1_compress(c, &a);
        g1_serialize(u, &a);
        CHECK_EQ_INT(g1_decode(&r, c, 48, 0), BLS_DECODE_NOT_IN_SUBGROUP);
        CHECK_EQ_INT(g1_decode(&r, u, 96, 0), BLS_DECODE_NOT_IN_SUBGROUP);
        CHECK(g1_decode(&r, c, 48, 1) == BLS_DECODE_OK && g1_eq_vartime(&r, &a));
        CHECK(g1_decode(&r, u, 96, 1) == BLS_DECODE_OK && g1_eq_vartime(&r, &a));
    }
    /* the public API maps every failure to GROVE_ERR_ENCODING */
    grove_bls_g1 pub;
    CHECK_EQ_INT(grove_bls_g1_from_bytes(&pub, c, 48, 0), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_bls_g1_from_bytes(&pub, c, 48, GROVE_BLS_NO_SUBGROUP_CHECK), GROVE_OK);
    CHECK_EQ_INT(grove_bls_g1_from_bytes(&pub, c, 47, 0), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_bls_g1_from_bytes(&pub, NULL, 48, 0), GROVE_ERR_INVALID_ARG);
    memset(c, 0, 48);
    c[0] = 0xc0;
    CHECK_EQ_INT(grove_bls_g1_from_bytes(&pub, c, 48, 0), GROVE_OK);
    CHECK(grove_bls_g1_is_identity(&pub));
    CHECK_EQ_INT(grove_bls_g1_from_bytes(&pub, c, 48, GROVE_BLS_NO_INFINITY), GROVE_ERR_ENCODING);
}

static void test_encoding_g2(void)
{
    uint8_t c[96], u[192], bad[192];
    g2_p a, r;
    for (int i = 0; i < 20; i++) {
        rand_g2(&a);
        if (i == 0)
            g2_generator(&a);
        g2_compress(c, &a);
        g2_serialize(u, &a);
        CHECK(c[0] & 0x80);
        CHECK(memcmp(c + 1, u + 1, 95) == 0 && (c[0] & 0x1f) == u[0]);
        CHECK(g2_decode(&r, c, 96, 0) == BLS_DECODE_OK && g2_eq_vartime(&r, &a));
        CHECK(g2_decode(&r, u, 192, 0) == BLS_DECODE_OK && g2_eq_vartime(&r, &a));
        memcpy(bad, c, 96);
        bad[0] ^= 0x20;
        g2_neg(&a, &a);
        CHECK(g2_decode(&r, bad, 96, 0) == BLS_DECODE_OK && g2_eq_vartime(&r, &a));
        memcpy(bad, c, 96);
        bad[0] &= 0x7f;
        CHECK_EQ_INT(g2_decode(&r, bad, 96, 0), BLS_DECODE_BAD_FLAGS);
        memcpy(bad, u, 192);
        bad[0] |= 0x80;
        CHECK_EQ_INT(g2_decode(&r, bad, 192, 0), BLS_DECODE_BAD_FLAGS);
        memcpy(bad, u, 192);
        bad[0] |= 0x20;
        CHECK_EQ_INT(g2_decode(&r, bad, 192, 0), BLS_DECODE_BAD_FLAGS);
        memcpy(bad, u, 192);
        bad[191] ^= 1;
        CHECK_EQ_INT(g2_decode(&r, bad, 192, 0), BLS_DECODE_NOT_ON_CURVE);
    }
    CHECK_EQ_INT(g2_decode(&r, c, 95, 0), BLS_DECODE_BAD_LENGTH);
    CHECK_EQ_INT(g2_decode(&r, c, 48, 0), BLS_DECODE_BAD_LENGTH);
    CHECK_EQ_INT(g2_decode(&r, u, 191, 0), BLS_DECODE_BAD_LENGTH);
    /* infinity */
    g2_set_inf(&a);
    g2_compress(c, &a);
    g2_serialize(u, &a);
    CHECK(c[0] == 0xc0 && u[0] == 0x40);
    CHECK(g2_decode(&r, c, 96, 0) == BLS_DECODE_OK && g2_is_inf(&r));
    CHECK(g2_decode(&r, u, 192, 0) == BLS_DECODE_OK && g2_is_inf(&r));
    memcpy(bad, c, 96);
    bad[0] = 0xe0;
    CHECK_EQ_INT(g2_decode(&r, bad, 96, 0), BLS_DECODE_BAD_FLAGS);
    for (int pos = 1; pos < 96; pos += 13) {
        memcpy(bad, c, 96);
        bad[pos] = 4;
        CHECK_EQ_INT(g2_decode(&r, bad, 96, 0), BLS_DECODE_BAD_INFINITY);
    }
    memset(bad, 0, 192);
    CHECK_EQ_INT(g2_decode(&r, bad, 192, 0), BLS_DECODE_NOT_ON_CURVE);
    /* each coordinate half >= p */
    for (unsigned k = 0; k < 2; k++)
        for (int half = 0; half < 2; half++) {
            rand_g2(&a);
            g2_compress(c, &a);
            p_plus(c + 48 * half, k);
            c[0] |= 0x80;
            CHECK_EQ_INT(g2_decode(&r, c, 96, 0), BLS_DECODE_NOT_CANONICAL);
            for (int q = 0; q < 4; q++) {
                g2_serialize(u, &a);
                p_plus(u + 48 * q, k);
                CHECK_EQ_INT(g2_decode(&r, u, 192, 0), BLS_DECODE_NOT_CANONICAL);
            }
        }
    /* an x with no point: try x = (v, 1) until x^3 + b' is a non-square */
    for (uint64_t v = 1;; v++) {
        fp2 x, y2, y;
        fp_from_u64(&x.c0, v);
        x.c1 = BLS_FP_ONE;
        fp2_sqr(&y2, &x);
        fp2_mul(&y2, &y2, &x);
        fp2_add(&y2, &y2, &BLS_G2_B);
        if (fp2_sqrt_vartime(&y, &y2))
            continue;
        fp_to_bytes(c, &x.c1);
        fp_to_bytes(c + 48, &x.c0);
        c[0] |= 0x80;
        CHECK_EQ_INT(g2_decode(&r, c, 96, 0), BLS_DECODE_NOT_ON_CURVE);
        break;
    }
    /* a point of E' with x in Fp (outside G2): both signs round-trip without the check */
    for (uint64_t v = 1; v < 1000; v++) {
        fp2 x, y2, y;
        fp_from_u64(&x.c0, v);
        fp_set_zero(&x.c1);
        fp2_sqr(&y2, &x);
        fp2_mul(&y2, &y2, &x);
        fp2_add(&y2, &y2, &BLS_G2_B);
        if (!fp2_sqrt_vartime(&y, &y2))
            continue;
        g2_a pa = {x, y};
        g2_from_affine(&a, &pa);
        g2_compress(c, &a);
        CHECK(g2_decode(&r, c, 96, 1) == BLS_DECODE_OK && g2_eq_vartime(&r, &a));
        c[0] ^= 0x20;
        g2_neg(&a, &a);
        CHECK(g2_decode(&r, c, 96, 1) == BLS_DECODE_OK && g2_eq_vartime(&r, &a));
        break;
    }
    /* on the twist but outside G2 */
    for (int i = 0; i < 5; i++) {
        rand_e2(&a);
        g2_compress(c, &a);
        g2_serialize(u, &a);
        CHECK_EQ_INT(g2_decode(&r, c, 96, 0), BLS_DECODE_NOT_IN_SUBGROUP);
        CHECK_EQ_INT(g2_decode(&r, u, 192, 0), BLS_DECODE_NOT_IN_SUBGROUP);
        CHECK(g2_decode(&r, c, 96, 1) == BLS_DECODE_OK && g2_eq_vartime(&r, &a));
        CHECK(g2_decode(&r, u, 192, 1) == BLS_DECODE_OK && g2_eq_vartime(&r, &a));
    }
    grove_bls_g2 pub;
    CHECK_EQ_INT(grove_bls_g2_from_bytes(&pub, c, 96, 0), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_bls_g2_from_bytes(&pub, c, 96, GROVE_BLS_NO_SUBGROUP_CHECK), GROVE_OK);
    CHECK(!grove_bls_g2_in_group(&pub));
    memset(c, 0, 96);
    c[0] = 0xc0;
    CHECK_EQ_INT(grove_bls_g2_from_bytes(&pub, c, 96, 0), GROVE_OK);
    CHECK_EQ_INT(grove_bls_g2_from_bytes(&pub, c, 96, GROVE_BLS_NO_INFINITY), GROVE_ERR_ENCODING);
}

/* the one-exponentiation Fp2 square root against the two-exponentiation reference */
static void rand_fp(fp *r)
{
    uint8_t b[64];
    test_rand_bytes(&rng, b, sizeof b);
    fp_from_bytes_wide(r, b, sizeof b);
}

static void sqrt_case(const fp2 *a, int expect) /* expect: 1 square, 0 not, -1 unknown */
{
    fp2 y, ref, t;
    int got = fp2_sqrt_vartime(&y, a), want = fp2_sqrt_adj_vartime(&ref, a);
    CHECK_EQ_INT(got, want);
    if (expect >= 0)
        CHECK_EQ_INT(got, expect);
    if (got) {
        fp2_sqr(&t, &y);
        CHECK(fp2_eq(&t, a));
        fp2_neg(&t, &ref);
        CHECK(fp2_eq(&y, &ref) || fp2_eq(&y, &t));
    }
}

static void test_fp2_sqrt(void)
{
    fp2 x, a, z;
    int squares = 0, nonsquares = 0;
    for (int i = 0; i < 200; i++) {
        rand_fp(&x.c0);
        rand_fp(&x.c1);
        if (i % 4 == 1)
            fp_set_zero(&x.c1); /* a1 = 0: a0 square and non-square */
        if (i % 4 == 3)
            fp_set_zero(&x.c0);
        fp2_sqr(&a, &x);
        sqrt_case(&a, 1); /* a square: (x0 + x1 u)^2 */
        rand_fp(&a.c0);
        rand_fp(&a.c1);
        if (i % 4 == 1)
            fp_set_zero(&a.c1);
        {
            fp2 y;
            int q = fp2_sqrt_adj_vartime(&y, &a);
            squares += q;
            nonsquares += !q;
        }
        sqrt_case(&a, -1); /* random: half are squares */
    }
    CHECK(squares > 50 && nonsquares > 50);
    fp2_set_zero(&z);
    sqrt_case(&z, 1);
    a = BLS_FP2_ONE;
    sqrt_case(&a, 1);
    fp2_neg(&a, &a); /* -1 = u^2 */
    sqrt_case(&a, 1);
}

/* the hash to G2's sqrt_ratio (inversion + norm square root) against the RFC's algorithm */
static void test_sqrt_ratio_fp2(void)
{
    int qr = 0, nqr = 0;
    for (int i = 0; i < 120; i++) {
        fp2 u, v, y, ref, t, w;
        rand_fp(&u.c0);
        rand_fp(&u.c1);
        rand_fp(&v.c0);
        rand_fp(&v.c1);
        if (i % 5 == 1)
            fp_set_zero(&u.c1);
        if (i % 5 == 2)
            fp_set_zero(&v.c0);
        if (i == 3)
            fp2_set_zero(&u); /* the RFC's algorithm gives (false, 0) for u = 0 */
        uint64_t a = bls_sqrt_ratio_fp2_vartime(&y, &u, &v);
        uint64_t b = bls_sqrt_ratio_fp2_ref(&ref, &u, &v);
        CHECK(a == b && (a == 0 || a == ~(uint64_t)0));
        qr += a != 0;
        nqr += a == 0;
        /* y^2 v = u (square) or Z u */
        fp2_sqr(&t, &y);
        fp2_mul(&t, &t, &v);
        w = u;
        if (!a)
            fp2_mul(&w, &w, &BLS_SSWU2_Z);
        CHECK(fp2_eq(&t, &w));
        fp2_neg(&t, &ref);
        CHECK(fp2_eq(&y, &ref) || fp2_eq(&y, &t));
    }
    CHECK(qr > 30 && nqr > 30);
}

/* the GLV / GLS constant-time multiplications (signed windows) against the any-point ladder */
#define MUL_CT_RANDOM(G, PT, RAND)                                                          \
    static void G##_mul_ct_random(void)                                                     \
    {                                                                                       \
        static const uint64_t patterns[5] = {0, ~0ULL, 0x5555555555555555ULL,               \
                                             0xaaaaaaaaaaaaaaaaULL, 0x8421084210842108ULL}; \
        for (int i = 0; i < 25; i++) {                                                      \
            PT a, x, y;                                                                     \
            uint64_t kl[4];                                                                 \
            uint8_t k[32];                                                                  \
            RAND(&a);                                                                       \
            rand_scalar(k);                                                                 \
            for (int j = 0; j < 4; j++) {                                                   \
                kl[j] = 0;                                                                  \
                for (int q = 7; q >= 0; q--)                                                \
                    kl[j] = (kl[j] << 8) | k[8 * j + q];                                    \
                if (i >= 20)                                                                \
                    kl[j] = patterns[i - 20];                                               \
            }                                                                               \
            kl[3] &= 0x3fffffffffffffffULL; /* below 2^254 < r */                           \
            G##_mul_ct(&x, &a, kl);                                                         \
            G##_mul_ct_any(&y, &a, kl);                                                     \
            CHECK(G##_eq_vartime(&x, &y));                                                  \
        }                                                                                   \
    }
MUL_CT_RANDOM(g1, g1_p, rand_g1)
MUL_CT_RANDOM(g2, g2_p, rand_g2)

/*
 * The public grove_bls_g1/g2_mul_sk (one four-dimensional ladder, its bases through the
 * endomorphism in the group and through variable-time multiples outside it): both kinds of
 * points against the variable-time multiplication.
 */
#define MUL_SK_PUBLIC(G, PT, RAND_IN, RAND_OUT)                                             \
    static void G##_mul_sk_public(void)                                                     \
    {                                                                                       \
        for (int i = 0; i < 16; i++) {                                                      \
            PT a, x;                                                                        \
            grove_bls_##G p, q;                                                             \
            grove_bls_sk sk;                                                                \
            uint8_t be[32], le[32];                                                         \
            if (i % 2)                                                                      \
                RAND_OUT(&a);                                                               \
            else                                                                            \
                RAND_IN(&a);                                                                \
            CHECK_EQ_INT(G##_in_subgroup_vartime(&a), !(i % 2));                            \
            do                                                                              \
                rand_scalar(le);                                                            \
            while (le[31] >= 0x73); /* below 0x73 << 248 < r */                             \
            if (i == 0 || i == 1)                                                           \
                memset(le, 0, 32), le[0] = (uint8_t)(1 + i); /* small scalars */            \
            for (int j = 0; j < 32; j++)                                                    \
                be[j] = le[31 - j];                                                         \
            CHECK_EQ_INT(grove_bls_sk_from_bytes(&sk, be), GROVE_OK);                       \
            memcpy(p.opaque, &a, sizeof a);                                                 \
            grove_bls_##G##_mul_sk(&q, &p, &sk);                                            \
            memcpy(&x, q.opaque, sizeof x);                                                 \
            G##_mul_vartime(&a, &a, le, 256);                                               \
            CHECK(G##_eq_vartime(&x, &a));                                                  \
            grove_bls_sk_wipe(&sk);                                                         \
        }                                                                                   \
    }
MUL_SK_PUBLIC(g1, g1_p, rand_g1, rand_e1)
MUL_SK_PUBLIC(g2, g2_p, rand_g2, rand_e2)

/*
 * mul_ct_public (behind grove_bls_g1/g2_mul_sk) on every kind of curve point - the identity,
 * points of the group, points outside it, points of the cofactor torsion ([r] Q: order dividing
 * h, where the ladder's partial sums collide) - and the scalars 0, 1, 2, r - 1, r and random
 * ones, against the variable-time multiplication; through the public API for 1, 2, r - 1.
 */
#define MUL_CT_PUBLIC_EDGES(G, PT, RAND_IN, RAND_OUT)                                      \
    static void G##_mul_ct_public_edges(void)                                               \
    {                                                                                       \
        for (int pi = 0; pi < 8; pi++) {                                                    \
            PT a;                                                                           \
            if (pi == 0)                                                                    \
                G##_set_inf(&a);                                                            \
            else if (pi <= 2)                                                               \
                RAND_IN(&a);                                                                \
            else if (pi <= 5)                                                               \
                RAND_OUT(&a);                                                               \
            else                                                                            \
                RAND_OUT(&a), G##_mul_vartime(&a, &a, R_LE, 256); /* cofactor torsion */    \
            CHECK(G##_on_curve(&a));                                                        \
            if (pi >= 3)                                                                    \
                CHECK(!G##_in_subgroup_vartime(&a));                                        \
            if (pi >= 6)                                                                    \
                CHECK(!G##_is_inf(&a));                                                     \
            for (int ki = 0; ki < 7; ki++) {                                                \
                uint8_t le[32];                                                             \
                uint64_t kl[4];                                                             \
                PT x, y;                                                                    \
                memset(le, 0, 32);                                                          \
                if (ki == 1 || ki == 2)                                                     \
                    le[0] = (uint8_t)ki;                                                    \
                else if (ki == 3 || ki == 4) {                                              \
                    memcpy(le, R_LE, 32);                                                   \
                    le[0] = (uint8_t)(le[0] - (ki == 3)); /* r - 1, r (r is odd) */         \
                } else if (ki >= 5) {                                                       \
                    do                                                                      \
                        rand_scalar(le);                                                    \
                    while (le[31] >= 0x73);                                                 \
                }                                                                           \
                for (int j = 0; j < 4; j++) {                                               \
                    kl[j] = 0;                                                              \
                    for (int q = 7; q >= 0; q--)                                            \
                        kl[j] = (kl[j] << 8) | le[8 * j + q];                               \
                }                                                                           \
                G##_mul_ct_public(&x, &a, kl);                                              \
                G##_mul_vartime(&y, &a, le, 256);                                           \
                CHECK(G##_eq_vartime(&x, &y));                                              \
                G##_mul_ct_any(&y, &a, kl);                                                 \
                CHECK(G##_eq_vartime(&x, &y));                                              \
                if (ki == 0)                                                                \
                    CHECK(G##_is_inf(&x));                                                  \
                if (ki == 4) /* [r] a is the identity exactly in the group */               \
                    CHECK(G##_is_inf(&x) == (pi < 3));                                      \
                if (ki == 1 || ki == 2 || ki == 3 || ki == 5) { /* valid keys: the API */   \
                    grove_bls_##G p, q;                                                     \
                    grove_bls_sk sk;                                                        \
                    uint8_t be[32];                                                         \
                    for (int j = 0; j < 32; j++)                                            \
                        be[j] = le[31 - j];                                                 \
                    CHECK_EQ_INT(grove_bls_sk_from_bytes(&sk, be), GROVE_OK);               \
                    memcpy(p.opaque, &a, sizeof a);                                         \
                    grove_bls_##G##_mul_sk(&q, &p, &sk);                                    \
                    memcpy(&y, q.opaque, sizeof y);                                         \
                    CHECK(G##_eq_vartime(&x, &y));                                          \
                    grove_bls_sk_wipe(&sk);                                                 \
                }                                                                           \
            }                                                                               \
        }                                                                                   \
    }
MUL_CT_PUBLIC_EDGES(g1, g1_p, rand_g1, rand_e1)
MUL_CT_PUBLIC_EDGES(g2, g2_p, rand_g2, rand_e2)

int main(void)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            R_LE[8 * i + j] = (uint8_t)(BLS_R_ORDER[i] >> (8 * j));
    g1_laws();
    g2_laws();
    g1_scalars();
    g2_scalars();
    g1_msm();
    g2_msm();
    test_subgroups();
    test_encoding_g1();
    test_encoding_g2();
    test_fp2_sqrt();
    test_sqrt_ratio_fp2();
    g1_mul_ct_random();
    g2_mul_ct_random();
    g1_mul_sk_public();
    g2_mul_sk_public();
    g1_mul_ct_public_edges();
    g2_mul_ct_public_edges();
    return test_done();
}
