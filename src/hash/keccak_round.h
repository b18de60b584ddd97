/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The Keccak-f[1600] round, written once for every kernel (internal to src/hash).
 *
 * Lanes are named by row (b, g, k, m, s for y = 0..4) and column (a, e, i, o, u for x = 0..4);
 * lane (x, y) is s[x + 5y]. One round reads the 25 lanes of one set of variables and writes the
 * other set, so two rounds per iteration need no copies. Rho and pi are folded into the
 * gathering of each output row: row y' of the new state gathers the lanes (x, y) with
 * 2x + 3y = y' (mod 5), each XORed with theta's D[x] and rotated by its rho offset.
 *
 * The includer defines the lane type and its operations:
 *   KT            the lane type (uint64_t, __m256i holding 4 states, __m512i holding 8)
 *   KXOR(a, b)    a ^ b
 *   KXOR5(a..e)   a ^ b ^ c ^ d ^ e
 *   KROL(a, n)    rotate each 64-bit lane left by n (1 <= n <= 63)
 *   KCHI(a, b, c) a ^ (~b & c)
 *   KRC(r)        round constant r as a lane value
 */
#ifndef GROVE_HASH_KECCAK_ROUND_H
#define GROVE_HASH_KECCAK_ROUND_H

#include <stdint.h>

static const uint64_t grove_keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
    0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

#define KECCAK_CHI_ROW(O, r, b0, b1, b2, b3, b4)                                           \
    O##r##a = KCHI(b0, b1, b2);                                                             \
    O##r##e = KCHI(b1, b2, b3);                                                             \
    O##r##i = KCHI(b2, b3, b4);                                                             \
    O##r##o = KCHI(b3, b4, b0);                                                             \
    O##r##u = KCHI(b4, b0, b1)

/* Theta of state I: the column parities C and the values D XORed into each column. */
#define KECCAK_THETA(I)                                                                     \
        KT Ca = KXOR5(I##ba, I##ga, I##ka, I##ma, I##sa);                                   \
        KT Ce = KXOR5(I##be, I##ge, I##ke, I##me, I##se);                                   \
        KT Ci = KXOR5(I##bi, I##gi, I##ki, I##mi, I##si);                                   \
        KT Co = KXOR5(I##bo, I##go, I##ko, I##mo, I##so);                                   \
        KT Cu = KXOR5(I##bu, I##gu, I##ku, I##mu, I##su);                                   \
        KT Da = KXOR(Cu, KROL(Ce, 1));                                                      \
        KT De = KXOR(Ca, KROL(Ci, 1));                                                      \
        KT Di = KXOR(Ce, KROL(Co, 1));                                                      \
        KT Do = KXOR(Ci, KROL(Cu, 1));                                                      \
        KT Du = KXOR(Co, KROL(Ca, 1));

#define KECCAK_ROUND(I, O, r)                                                               \
    do {                                                                                    \
        KECCAK_THETA(I);                                                                    \
        KT B0, B1, B2, B3, B4;                                                              \
        B0 = KXOR(I##ba, Da);                                                               \
        B1 = KROL(KXOR(I##ge, De), 44);                                                     \
        B2 = KROL(KXOR(I##ki, Di), 43);                                                     \
        B3 = KROL(KXOR(I##mo, Do), 21);                                                     \
        B4 = KROL(KXOR(I##su, Du), 14);                                                     \
        KECCAK_CHI_ROW(O, b, B0, B1, B2, B3, B4);                                           \
        O##ba = KXOR(O##ba, KRC(r));                                                        \
        B0 = KROL(KXOR(I##bo, Do), 28);                                                     \
        B1 = KROL(KXOR(I##gu, Du), 20);                                                     \
        B2 = KROL(KXOR(I##ka, Da), 3);                                                      \
        B3 = KROL(KXOR(I##me, De), 45);                                                     \
        B4 = KROL(KXOR(I##si, Di), 61);                                                     \
        KECCAK_CHI_ROW(O, g, B0, B1, B2, B3, B4);                                           \
        B0 = KROL(KXOR(I##be, De), 1);                                                      \
        B1 = KROL(KXOR(I##gi, Di), 6);                                                      \
        B2 = KROL(KXOR(I##ko, Do), 25);                                                     \
        B3 = KROL(KXOR(I##mu, Du), 8);                                                      \
        B4 = KROL(KXOR(I##sa, Da), 18);                                                     \
        KECCAK_CHI_ROW(O, k, B0, B1, B2, B3, B4);                                           \
        B0 = KROL(KXOR(I##bu, Du), 27);                                                     \
        B1 = KROL(KXOR(I##ga, Da), 36);                                                     \
        B2 = KROL(KXOR(I##ke, De), 10);                                                     \
        B3 = KROL(KXOR(I##mi, Di), 15);                                                     \
        B4 = KROL(KXOR(I##so, Do), 56);                                                     \
        KECCAK_CHI_ROW(O, m, B0, B1, B2, B3, B4);                                           \
        B0 = KROL(KXOR(I##bi, Di), 62);                                                     \
        B1 = KROL(KXOR(I##go, Do), 55);                                                     \
        B2 = KROL(KXOR(I##ku, Du), 39);                                                     \
        B3 = KROL(KXOR(I##ma, Da), 41);                                                     \
        B4 = KROL(KXOR(I##se, De), 2);                                                      \
        KECCAK_CHI_ROW(O, s, B0, B1, B2, B3, B4);                                           \
    } while (0)

/*
 * The round with only row b of its output (lanes 0-4: ba, be, bi, bo, bu) computed, for a
 * permutation whose caller reads no more than the first 40 bytes of the state afterwards (a
 * SHAKE output of n <= 40 bytes, a chain value): theta in full, then rho, pi and chi of the one
 * row. The other 20 output lanes are left as they were.
 */
#define KECCAK_ROUND_ROW0(I, O, r)                                                          \
    do {                                                                                    \
        KECCAK_THETA(I);                                                                    \
        KT B0 = KXOR(I##ba, Da);                                                            \
        KT B1 = KROL(KXOR(I##ge, De), 44);                                                  \
        KT B2 = KROL(KXOR(I##ki, Di), 43);                                                  \
        KT B3 = KROL(KXOR(I##mo, Do), 21);                                                  \
        KT B4 = KROL(KXOR(I##su, Du), 14);                                                  \
        KECCAK_CHI_ROW(O, b, B0, B1, B2, B3, B4);                                           \
        O##ba = KXOR(O##ba, KRC(r));                                                        \
    } while (0)

#define KECCAK_DECLARE_LANES(P)                                                             \
    KT P##ba, P##be, P##bi, P##bo, P##bu, P##ga, P##ge, P##gi, P##go, P##gu, P##ka, P##ke,  \
        P##ki, P##ko, P##ku, P##ma, P##me, P##mi, P##mo, P##mu, P##sa, P##se, P##si, P##so, \
        P##su

/* OP(variable, index) for all 25 lanes in state order. */
#define KECCAK_FOR_LANES(P, OP)                                                             \
    OP(P##ba, 0); OP(P##be, 1); OP(P##bi, 2); OP(P##bo, 3); OP(P##bu, 4); OP(P##ga, 5);     \
    OP(P##ge, 6); OP(P##gi, 7); OP(P##go, 8); OP(P##gu, 9); OP(P##ka, 10); OP(P##ke, 11);   \
    OP(P##ki, 12); OP(P##ko, 13); OP(P##ku, 14); OP(P##ma, 15); OP(P##me, 16);              \
    OP(P##mi, 17); OP(P##mo, 18); OP(P##mu, 19); OP(P##sa, 20); OP(P##se, 21);              \
    OP(P##si, 22); OP(P##so, 23); OP(P##su, 24)

/* The 24 rounds on lanes A (in and out) using E as scratch. */
#define KECCAK_PERMUTE(A, E)                                                                \
    for (int round_ = 0; round_ < 24; round_ += 2) {                                        \
        KECCAK_ROUND(A, E, round_);                                                         \
        KECCAK_ROUND(E, A, round_ + 1);                                                     \
    }

/* The 24 rounds with only row b of the result in A (lanes 0-4, the first 40 bytes; the rest of
 * A holds what round 22 read). */
#define KECCAK_PERMUTE_ROW0(A, E)                                                           \
    do {                                                                                    \
        KECCAK_ROUND(A, E, 0); /* outside the loop: input lanes known zero fold into it */  \
        KECCAK_ROUND(E, A, 1);                                                              \
        for (int round_ = 2; round_ < 22; round_ += 2) {                                    \
            KECCAK_ROUND(A, E, round_);                                                     \
            KECCAK_ROUND(E, A, round_ + 1);                                                 \
        }                                                                                   \
        KECCAK_ROUND(A, E, 22);                                                             \
        KECCAK_ROUND_ROW0(E, A, 23);                                                        \
    } while (0)

#endif
