/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The window parts of one MSM (bls12_381/ec.h, msm_part_scratch_vartime), as STM's
 * aggregate verification uses them on two threads: for every cut of the windows the two
 * parts add up to the whole MSM (and to a plain sum of scalar multiplications), in G1 and
 * G2, on both sides of the affine-bucket threshold (64 points) and of the small-n path (< 8).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bls12_381/ec.h"
#include "grove/bls12_381.h"
#include "test.h"

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
