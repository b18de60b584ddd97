/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The window parts of one MSM (bls12_381/ec.h, msm_part_scratch_vartime), as STM's
 * aggregate verification uses them on two threads: for every cut of the windows the two
 * parts add up to the whole MSM (and to a plain sum of scalar multiplications), in G1 and
 * G2, on both sides of the affine-bucket threshold (64 points) and of the small-n path (< 8);
 * the same with the preparation done once and shared by the parts (msm_prepare_vartime).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bls12_381/ec.h"
#include "grove/bls12_381.h"
#include "test.h"

/*
 * The prepared form (msm_prepare_vartime once, then parts with a work block each, as on two
 * threads), from the points as given (Z != 1) and from the same points with Z = 1 (as decoded
 * points are: the preparation copies them instead of inverting).
 */
#define PREPARED_TEST(G, PT, AFF)                                                               \
    static void G##_prepared(const PT *pts, const uint8_t *ks, size_t n, size_t nw,           \
                             const PT *ref)                                                     \
    {                                                                                           \
        size_t pb = G##_msm_prep_bytes(n, 16), wb = G##_msm_work_bytes(n, 16);                  \
        CHECK(n < 8 ? pb == 0 && wb == 0 : pb > 0 && wb > 0);                                   \
        PT *pn = malloc(n * sizeof *pn), gen, lo, hi, t;                                        \
        unsigned char *prep = malloc(pb + 1), *w0 = malloc(wb + 1), *w1 = malloc(wb + 1);       \
        CHECK(pn != NULL && prep != NULL && w0 != NULL && w1 != NULL);                          \
        if (pn && prep && w0 && w1) {                                                           \
            G##_generator(&gen);                                                                \
            for (size_t i = 0; i < n; i++) {                                                    \
                AFF a;                                                                          \
                G##_to_affine(&a, &pts[i]);                                                     \
                pn[i] = gen; /* Z = 1 */                                                        \
                pn[i].x = a.x;                                                                  \
                pn[i].y = a.y;                                                                  \
                CHECK(G##_eq_vartime(&pn[i], &pts[i]));                                         \
            }                                                                                   \
            for (int z1 = 0; z1 < 2; z1++) {                                                    \
                const PT *p = z1 ? pn : pts;                                                    \
                G##_msm_prepare_vartime(prep, p, ks, 16, n);                                    \
                for (size_t cut = 0; cut <= nw; cut += (nw > 4 ? nw / 3 : 1)) {                 \
                    G##_msm_part_prepared_vartime(&lo, prep, p, ks, 16, n, 0, cut, w0);         \
                    G##_msm_part_prepared_vartime(&hi, prep, p, ks, 16, n, cut, SIZE_MAX, w1);  \
                    G##_add_vartime(&t, &lo, &hi);                                              \
                    CHECK(G##_eq_vartime(&t, ref));                                             \
                }                                                                               \
            }                                                                                   \
            /* one wrong scalar: not the sum */                                                 \
            uint8_t *k2 = malloc(16 * n);                                                       \
            CHECK(k2 != NULL);                                                                  \
            if (k2) {                                                                           \
                memcpy(k2, ks, 16 * n);                                                         \
                k2[16 * (n - 1)] ^= 1;                                                          \
                G##_msm_prepare_vartime(prep, pn, k2, 16, n);                                   \
                G##_msm_part_prepared_vartime(&t, prep, pn, k2, 16, n, 0, SIZE_MAX, w0);        \
                CHECK(!G##_eq_vartime(&t, ref));                                                \
                free(k2);                                                                       \
            }                                                                                   \
        }                                                                                       \
        free(pn);                                                                               \
        free(prep);                                                                             \
        free(w0);                                                                               \
        free(w1);                                                                               \
    }

PREPARED_TEST(g1, g1_p, g1_a)
PREPARED_TEST(g2, g2_p, g2_a)

#define PARTS_TEST(G, PT, OPAQUE)                                                               \
    static void G##_parts(size_t n)                                                             \
    {                                                                                           \
        PT *pts = malloc(n * sizeof *pts), whole, ref, t, lo, hi;                               \
        uint8_t *ks = malloc(16 * n), e[32] = {0};                                              \
        size_t bytes = G##_msm_scratch_bytes(n, 16);                                            \
        void *scr = malloc(bytes ? bytes : 1);                                                  \
        CHECK(pts != NULL && ks != NULL && scr != NULL);                                        \
        if (!pts || !ks || !scr)                                                                \
            goto out;                                                                           \
        G##_set_inf(&ref);                                                                      \
        for (size_t i = 0; i < n; i++) {                                                        \
            e[0] = (uint8_t)(i + 3);                                                            \
            e[1] = (uint8_t)(i >> 8);                                                           \
            e[7] = 0x5a;                                                                        \
            G##_generator(&pts[i]);                                                             \
            G##_mul_vartime(&pts[i], &pts[i], e, 256);                                          \
            for (size_t b = 0; b < 16; b++)                                                     \
                ks[16 * i + b] = (uint8_t)(i * 37 + b * 101 + (i * b) % 251);                   \
            if (i == 5)                                                                         \
                memset(ks + 16 * i, 0, 16); /* a zero scalar */                                 \
            if (i == 6)                                                                         \
                memset(ks + 16 * i, 0xff, 16); /* the largest */                                \
            G##_mul_vartime(&t, &pts[i], ks + 16 * i, 128);                                     \
            G##_add_vartime(&ref, &ref, &t);                                                    \
        }                                                                                       \
        G##_msm_scratch_vartime(&whole, pts, ks, 16, n, scr);                                   \
        CHECK(G##_eq_vartime(&whole, &ref));                                                    \
        size_t nw = G##_msm_windows(n, 16);                                                     \
        CHECK(n < 8 ? nw == 0 : nw > 1);                                                        \
        for (size_t cut = 0; cut <= nw + 1; cut++) {                                            \
            G##_msm_part_scratch_vartime(&lo, pts, ks, 16, n, 0, cut, scr);                     \
            G##_msm_part_scratch_vartime(&hi, pts, ks, 16, n, cut, SIZE_MAX, scr);              \
            G##_add_vartime(&t, &lo, &hi);                                                      \
            CHECK(G##_eq_vartime(&t, &ref));                                                    \
        }                                                                                       \
        if (nw >= 3) { /* three parts */                                                        \
            PT mid;                                                                             \
            G##_msm_part_scratch_vartime(&lo, pts, ks, 16, n, 0, 1, scr);                       \
            G##_msm_part_scratch_vartime(&mid, pts, ks, 16, n, 1, nw - 1, scr);                 \
            G##_msm_part_scratch_vartime(&hi, pts, ks, 16, n, nw - 1, nw, scr);                 \
            G##_add_vartime(&t, &lo, &mid);                                                     \
            G##_add_vartime(&t, &t, &hi);                                                       \
            CHECK(G##_eq_vartime(&t, &ref));                                                    \
            CHECK(!G##_eq_vartime(&mid, &ref)); /* a part alone is not the sum */               \
        }                                                                                       \
        G##_prepared(pts, ks, n, nw, &ref);                                                     \
    out:                                                                                        \
        free(pts);                                                                              \
        free(ks);                                                                               \
        free(scr);                                                                              \
    }

PARTS_TEST(g1, g1_p, grove_bls_g1)
PARTS_TEST(g2, g2_p, grove_bls_g2)

int main(void)
{
    static const size_t ns[] = {2, 7, 8, 25, 63, 64, 150, 228};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        g1_parts(ns[i]);
        g2_parts(ns[i]);
    }
    return test_done();
}
