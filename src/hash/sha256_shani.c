/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SHA-256 compression with the x86 SHA extensions (sha256rnds2, sha256msg1/2). */
#include "common/util.h"

#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
#include <immintrin.h>

#include "hash/sha2_simd.h"

__attribute__((target("sha,sse4.1,ssse3"))) void
grove_sha256_compress_shani(uint32_t s[8], const uint8_t *p, size_t nblocks)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    /* state words a..h -> the ABEF / CDGH register layout of sha256rnds2 */
    __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)s), 0xB1);
    __m128i st1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)(s + 4)), 0x1B);
    __m128i st0 = _mm_alignr_epi8(t, st1, 8); /* ABEF */
    st1 = _mm_blend_epi16(st1, t, 0xF0);      /* CDGH */
    while (nblocks--) {
        __m128i save0 = st0, save1 = st1, w[4];
        for (int i = 0; i < 16; i++) {
            if (i < 4) {
                w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i)),
                                        bswap);
            } else {
                /* W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], four at a time */
                __m128i m = _mm_sha256msg1_epu32(w[i & 3], w[(i - 3) & 3]);
                m = _mm_add_epi32(m, _mm_alignr_epi8(w[(i - 1) & 3], w[(i - 2) & 3], 4));
                w[i & 3] = _mm_sha256msg2_epu32(m, w[(i - 1) & 3]);
            }
            __m128i k = _mm_loadu_si128((const __m128i *)(const void *)(grove_sha256_k + 4 * i));
            __m128i m = _mm_add_epi32(w[i & 3], k);
            st1 = _mm_sha256rnds2_epu32(st1, st0, m);
            st0 = _mm_sha256rnds2_epu32(st0, st1, _mm_shuffle_epi32(m, 0x0E));
        }
        st0 = _mm_add_epi32(st0, save0);
        st1 = _mm_add_epi32(st1, save1);
        p += 64;
    }
    t = _mm_shuffle_epi32(st0, 0x1B);   /* FEBA */
    st1 = _mm_shuffle_epi32(st1, 0xB1); /* DCHG */
    st0 = _mm_blend_epi16(t, st1, 0xF0); /* DCBA */
    st1 = _mm_alignr_epi8(st1, t, 8);    /* HGFE */
    _mm_storeu_si128((__m128i *)(void *)s, st0);
    _mm_storeu_si128((__m128i *)(void *)(s + 4), st1);
}
#endif
