/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Keccak-f[1600] on 2 states with the ARMv8.2 SHA-3 extension (FEAT_SHA3: EOR3, BCAX, XAR,
 * RAX1), compiled alone with -march=armv8.2-a+sha3 (src/CMakeLists.txt) and used only when
 * the CPU reports HWCAP_SHA3. The round is keccak_round.h's, restated with the extension's
 * fused operations (compilers form EOR3 and BCAX from plain C, but not XAR or RAX1): theta's
 * column sums are EOR3 pairs, D[x] = C[x-1] ^ rol(C[x+1], 1) is RAX1, each rho rotation of a
 * lane XORed with D is one XAR, chi is BCAX.
 */
#include "common/util.h"

#if GROVE_HAVE_ARM_TARGETS && defined(__ARM_FEATURE_SHA3)
#define KNAME(x) grove_##x##_neon_sha3
#define KXOR5(a, b, c, d, e) veor3q_u64(veor3q_u64((a), (b), (c)), (d), (e))
#define KROL(a, n) vsriq_n_u64(vshlq_n_u64((a), (n)), (a), 64 - (n))
#define KCHI(a, b, c) vbcaxq_u64((a), (c), (b))
/* rol(a ^ d, n) in one XAR (which rotates right) */
#define KXAR(a, d, n) vxarq_u64((a), (d), 64 - (n))

#define KECCAK_ROUND_OVERRIDE(I, O, r)                                                         \
    do {                                                                                       \
        KT Ca = KXOR5(I##ba, I##ga, I##ka, I##ma, I##sa);                                      \
        KT Ce = KXOR5(I##be, I##ge, I##ke, I##me, I##se);                                      \
        KT Ci = KXOR5(I##bi, I##gi, I##ki, I##mi, I##si);                                      \
        KT Co = KXOR5(I##bo, I##go, I##ko, I##mo, I##so);                                      \
        KT Cu = KXOR5(I##bu, I##gu, I##ku, I##mu, I##su);                                      \
        KT Da = vrax1q_u64(Cu, Ce), De = vrax1q_u64(Ca, Ci), Di = vrax1q_u64(Ce, Co);          \
        KT Do = vrax1q_u64(Ci, Cu), Du = vrax1q_u64(Co, Ca);                                   \
        KT B0, B1, B2, B3, B4;                                                                 \
        B0 = KXOR(I##ba, Da);                                                                  \
        B1 = KXAR(I##ge, De, 44);                                                              \
        B2 = KXAR(I##ki, Di, 43);                                                              \
        B3 = KXAR(I##mo, Do, 21);                                                              \
        B4 = KXAR(I##su, Du, 14);                                                              \
        KECCAK_CHI_ROW(O, b, B0, B1, B2, B3, B4);                                              \
        O##ba = KXOR(O##ba, KRC(r));                                                           \
        B0 = KXAR(I##bo, Do, 28);                                                              \
        B1 = KXAR(I##gu, Du, 20);                                                              \
        B2 = KXAR(I##ka, Da, 3);                                                               \
        B3 = KXAR(I##me, De, 45);                                                              \
        B4 = KXAR(I##si, Di, 61);                                                              \
        KECCAK_CHI_ROW(O, g, B0, B1, B2, B3, B4);                                              \
        B0 = KXAR(I##be, De, 1);                                                               \
        B1 = KXAR(I##gi, Di, 6);                                                               \
        B2 = KXAR(I##ko, Do, 25);                                                              \
        B3 = KXAR(I##mu, Du, 8);                                                               \
        B4 = KXAR(I##sa, Da, 18);                                                              \
        KECCAK_CHI_ROW(O, k, B0, B1, B2, B3, B4);                                              \
        B0 = KXAR(I##bu, Du, 27);                                                              \
        B1 = KXAR(I##ga, Da, 36);                                                              \
        B2 = KXAR(I##ke, De, 10);                                                              \
        B3 = KXAR(I##mi, Di, 15);                                                              \
        B4 = KXAR(I##so, Do, 56);                                                              \
        KECCAK_CHI_ROW(O, m, B0, B1, B2, B3, B4);                                              \
        B0 = KXAR(I##bi, Di, 62);                                                              \
        B1 = KXAR(I##go, Do, 55);                                                              \
        B2 = KXAR(I##ku, Du, 39);                                                              \
        B3 = KXAR(I##ma, Da, 41);                                                              \
        B4 = KXAR(I##se, De, 2);                                                               \
        KECCAK_CHI_ROW(O, s, B0, B1, B2, B3, B4);                                              \
    } while (0)
#include "hash/keccak_neon_tmpl.h"
#endif
