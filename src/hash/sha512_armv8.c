/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SHA-512 compression with the ARMv8.2 SHA-512 instructions (FEAT_SHA512: SHA512H, SHA512H2,
 * SHA512SU0, SHA512SU1), compiled alone with -march=armv8.2-a+sha3 (src/CMakeLists.txt; the
 * SHA-512 intrinsics come with the sha3 feature) and used only when the CPU reports
 * HWCAP_SHA512. The state is held as the pairs ab, cd, ef, gh (first word in lane 0). Each
 * SHA512H/SHA512H2 pair does two rounds; after it the pairs change roles (the new ab is
 * SHA512H2's result, the old ab becomes cd, cd plus the round sum becomes ef, ef becomes gh),
 * so after 40 pairs every pair is back in its place.
 */
#include "common/util.h"

#if GROVE_HAVE_ARM_TARGETS && defined(__ARM_FEATURE_SHA512)
#include <arm_neon.h>

#include "hash/sha2.h"
#include "hash/sha2_simd.h"
#include "hash/arm_kernels.h"

static inline uint64x2_t load_be64x2(const uint8_t *p)
{
    return vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(p)));
}

/*
 * Rounds 2t and 2t + 1 with the message pair M (W[2t], W[2t + 1]) and the constants at k; then,
 * if upd, M becomes W[2t + 16], W[2t + 17] from M, MN (the next pair), MP (the previous pair,
 * already replaced) and M4, M5 (the pairs four and five on).
 */
#define SHA512_2ROUNDS(M, MN, M4, M5, MP, k, upd)                                              \
    do {                                                                                       \
        const uint64x2_t wk = vaddq_u64((M), vld1q_u64(k));                                    \
        const uint64x2_t t0 = vaddq_u64(vextq_u64(wk, wk, 1), gh);                             \
        const uint64x2_t t1 = vsha512hq_u64(t0, vextq_u64(ef, gh, 1), vextq_u64(cd, ef, 1));   \
        const uint64x2_t nab = vsha512h2q_u64(t1, cd, ab);                                     \
        gh = ef;                                                                               \
        ef = vaddq_u64(cd, t1);                                                                \
        cd = ab;                                                                               \
        ab = nab;                                                                              \
        if (upd)                                                                               \
            (M) = vsha512su1q_u64(vsha512su0q_u64((M), (MN)), (MP), vextq_u64((M4), (M5), 1)); \
    } while (0)

void grove_sha512_compress_armv8(uint64_t s[8], const uint8_t *blocks, size_t nblocks)
{
    uint64x2_t ab = vld1q_u64(s), cd = vld1q_u64(s + 2), ef = vld1q_u64(s + 4),
               gh = vld1q_u64(s + 6);
    for (size_t b = 0; b < nblocks; b++, blocks += 128) {
        const uint64x2_t ab0 = ab, cd0 = cd, ef0 = ef, gh0 = gh;
        uint64x2_t m0 = load_be64x2(blocks), m1 = load_be64x2(blocks + 16),
                   m2 = load_be64x2(blocks + 32), m3 = load_be64x2(blocks + 48),
                   m4 = load_be64x2(blocks + 64), m5 = load_be64x2(blocks + 80),
                   m6 = load_be64x2(blocks + 96), m7 = load_be64x2(blocks + 112);
        for (int r = 0; r < 5; r++) { /* rounds 16r .. 16r + 15 */
            const uint64_t *k = grove_sha512_k + 16 * r;
            const int upd = r < 4;
            SHA512_2ROUNDS(m0, m1, m4, m5, m7, k + 0, upd);
            SHA512_2ROUNDS(m1, m2, m5, m6, m0, k + 2, upd);
            SHA512_2ROUNDS(m2, m3, m6, m7, m1, k + 4, upd);
            SHA512_2ROUNDS(m3, m4, m7, m0, m2, k + 6, upd);
            SHA512_2ROUNDS(m4, m5, m0, m1, m3, k + 8, upd);
            SHA512_2ROUNDS(m5, m6, m1, m2, m4, k + 10, upd);
            SHA512_2ROUNDS(m6, m7, m2, m3, m5, k + 12, upd);
            SHA512_2ROUNDS(m7, m0, m3, m4, m6, k + 14, upd);
        }
        ab = vaddq_u64(ab, ab0);
        cd = vaddq_u64(cd, cd0);
        ef = vaddq_u64(ef, ef0);
        gh = vaddq_u64(gh, gh0);
    }
    vst1q_u64(s, ab);
    vst1q_u64(s + 2, cd);
    vst1q_u64(s + 4, ef);
    vst1q_u64(s + 6, gh);
}
#endif
