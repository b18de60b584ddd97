/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SHA-512: eight independent blocks at once with AVX-512 (native rotates, vpternlogq). */
#include "common/util.h"

#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
#include <immintrin.h>
#include <stddef.h>
#include <string.h>

#include "hash/sha2_simd.h"

#define V __m512i
#define ADD(a, b) _mm512_add_epi64((a), (b))
#define XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define ROR(x, n) _mm512_ror_epi64((x), (n))
#define BSIG0(x) XOR3(ROR(x, 28), ROR(x, 34), ROR(x, 39))
#define BSIG1(x) XOR3(ROR(x, 14), ROR(x, 18), ROR(x, 41))
#define SSIG0(x) XOR3(ROR(x, 1), ROR(x, 8), _mm512_srli_epi64((x), 7))
#define SSIG1(x) XOR3(ROR(x, 19), ROR(x, 61), _mm512_srli_epi64((x), 6))
#define CH(e, f, g) _mm512_ternarylogic_epi64((e), (f), (g), 0xCA)
#define MAJ(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0xE8)
#define KSPLAT(i) _mm512_set1_epi64((long long)grove_sha512_k[i])

/* The rounds on 8 state vectors s and 16 message vectors w (w is consumed). */
__attribute__((target("avx512f,avx512bw,avx512vl"))) static inline void rounds8(V s[8], V w[16])
{
    GROVE_SHA2_ROUNDS(s, w, 80);
}

__attribute__((target("avx512f,avx512bw,avx512vl"))) void
grove_sha512_x8_avx512(uint64_t *st, const uint8_t *blocks)
{
    const V bswap = _mm512_set_epi64(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                     0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                     0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                     0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
    const V idx = _mm512_set_epi64(112, 96, 80, 64, 48, 32, 16, 0); /* lane j at word 16 j */
    V w[16], s[8];
    for (int t = 0; t < 16; t++)
        w[t] = _mm512_shuffle_epi8(_mm512_i64gather_epi64(idx, (const void *)(blocks + 8 * t), 8),
                                   bswap);
    for (int i = 0; i < 8; i++)
        s[i] = _mm512_loadu_si512((const void *)(st + 8 * i));
    rounds8(s, w);
    for (int i = 0; i < 8; i++)
        _mm512_storeu_si512((void *)(st + 8 * i), s[i]);
}

/*
 * Equal-length messages after a prefix state `init` of pcount bytes (a multiple of 128), 8 at a
 * time, gathered straight from the inputs (see grove_sha256_many_x16_avx512). Returns 0 when it
 * cannot run (inputs too far apart for 32-bit offsets or shorter than 8 bytes).
 */
__attribute__((target("avx512f,avx512bw,avx512vl"))) int
grove_sha512_many_x8_avx512(uint8_t *const out[], size_t outlen, const uint64_t init[8],
                            uint64_t pcount, const uint8_t *const in[], size_t inlen, size_t lanes)
{
    const V bswap = _mm512_set_epi64(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                     0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                     0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                     0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
    if (inlen < 8 || inlen > (1u << 30))
        return 0;
    const uint8_t *base = in[0];
    int32_t offs[8] __attribute__((aligned(32)));
    if (!grove_sha2_gather_offsets(offs, in, lanes, 8))
        return 0;
    const __m256i off = _mm256_load_si256((const __m256i *)(const void *)offs);
    V s[8], w[16];
    for (int t = 0; t < 8; t++)
        s[t] = _mm512_set1_epi64((long long)init[t]);
    const size_t full = inlen / 128, rem = inlen % 128, ntail = rem + 17 <= 128 ? 1 : 2;
#define GATHER(pos) _mm512_shuffle_epi8(_mm512_i32gather_epi64(_mm256_add_epi32(off, _mm256_set1_epi32((int)(pos))), (const void *)base, 1), bswap)
    for (size_t b = 0; b < full; b++) {
        for (int t = 0; t < 16; t++)
            w[t] = GATHER(128 * b + 8 * (size_t)t);
        rounds8(s, w);
    }
    const uint64_t total = pcount + inlen;
    for (size_t b = 0; b < ntail; b++) {
        for (size_t t = 0; t < 16; t++) {
            size_t pos = 128 * b + 8 * t;
            if (pos + 8 <= rem) {
                w[t] = GATHER(128 * full + pos);
            } else if (pos < rem) {
                unsigned r = (unsigned)(rem - pos); /* 1..7 data bytes, then 0x80 */
                w[t] = _mm512_or_si512(_mm512_slli_epi64(GATHER(128 * full + rem - 8), 8 * (8 - r)),
                                       _mm512_set1_epi64((long long)(0x80ULL << (8 * (7 - r)))));
            } else if (pos == rem) {
                w[t] = _mm512_set1_epi64((long long)0x8000000000000000ULL);
            } else {
                w[t] = _mm512_setzero_si512();
            }
        }
        if (b + 1 == ntail) {
            w[14] = _mm512_set1_epi64((long long)(total >> 61));
            w[15] = _mm512_set1_epi64((long long)(total << 3));
        }
        rounds8(s, w);
    }
#undef GATHER
    uint64_t res[8][8] __attribute__((aligned(64)));
    for (int t = 0; t < 8; t++)
        _mm512_store_si512((void *)res[t], s[t]);
    uint8_t dig[64];
    for (size_t j = 0; j < lanes; j++) {
        for (int t = 0; t < 8; t++)
            grove_store64_be(dig + 8 * t, res[t][j]);
        memcpy(out[j], dig, outlen);
    }
    grove_wipe(res, sizeof res);
    grove_wipe(dig, sizeof dig);
    return 1;
}
#endif
