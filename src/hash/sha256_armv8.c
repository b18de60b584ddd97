/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SHA-256 compression with the ARMv8 SHA-2 instructions (FEAT_SHA256: SHA256H, SHA256H2,
 * SHA256SU0, SHA256SU1), compiled alone with -march=armv8-a+crypto (src/CMakeLists.txt) and
 * used only when the CPU reports HWCAP_SHA2. Four rounds per SHA256H/SHA256H2 pair; the
 * message schedule four words at a time.
 */
#include "common/util.h"

#if GROVE_HAVE_ARM_TARGETS && (defined(__ARM_FEATURE_SHA2) || defined(__ARM_FEATURE_CRYPTO))
#include <arm_neon.h>

#include "hash/sha2.h"
#include "hash/sha2_simd.h"
#include "hash/arm_kernels.h"

/* Big-endian 32-bit words of 16 message bytes. */
static inline uint32x4_t load_be32x4(const uint8_t *p)
{
    return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
}

void grove_sha256_compress_armv8(uint32_t s[8], const uint8_t *blocks, size_t nblocks)
{
    uint32x4_t abcd = vld1q_u32(s), efgh = vld1q_u32(s + 4);
    for (size_t b = 0; b < nblocks; b++, blocks += 64) {
        const uint32x4_t abcd0 = abcd, efgh0 = efgh;
        uint32x4_t m[4];
        for (int i = 0; i < 4; i++)
            m[i] = load_be32x4(blocks + 16 * i);
        for (int g = 0; g < 16; g++) { /* rounds 4g .. 4g + 3 */
            uint32x4_t wk = vaddq_u32(m[g & 3], vld1q_u32(grove_sha256_k + 4 * g));
            if (g < 12) /* W[4g + 16 .. 4g + 19] replace W[4g .. 4g + 3] */
                m[g & 3] = vsha256su1q_u32(vsha256su0q_u32(m[g & 3], m[(g + 1) & 3]),
                                           m[(g + 2) & 3], m[(g + 3) & 3]);
            const uint32x4_t prev = abcd;
            abcd = vsha256hq_u32(abcd, efgh, wk);
            efgh = vsha256h2q_u32(efgh, prev, wk);
        }
        abcd = vaddq_u32(abcd, abcd0);
        efgh = vaddq_u32(efgh, efgh0);
    }
    vst1q_u32(s, abcd);
    vst1q_u32(s + 4, efgh);
}
#endif
