/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SHA-512: four independent blocks / messages at once with AVX2 (one per 64-bit lane). */
#include "common/util.h"

#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
#include <immintrin.h>
#include <stddef.h>
#include <string.h>

#include "hash/sha2_k.h"
#include "hash/sha2_simd.h"

/* the round constants, broadcast: each is added straight from memory */
#define K4(k) {k, k, k, k},
static const uint64_t k512x4[80][4] __attribute__((aligned(32))) = {GROVE_SHA512_K_LIST(K4)};
/* The table through an opaque pointer: else the compiler rebuilds each constant from an
 * immediate (three instructions) instead of adding it from memory (none). */
__attribute__((target("avx2"))) static inline const uint64_t (*k_table(void))[4]
{
    const uint64_t(*p)[4] = k512x4;
    __asm__("" : "+r"(p));
    return p;
}

#define V __m256i
#define ADD(a, b) _mm256_add_epi64((a), (b))
#define XOR(a, b) _mm256_xor_si256((a), (b))
/* the rotation by a whole byte (8, in SSIG0) is one byte shuffle instead of three operations */
#define ROR(x, n)                                                                                \
    ((n) == 8 ? _mm256_shuffle_epi8((x), _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12,  \
                                                          13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0, \
                                                          9, 10, 11, 12, 13, 14, 15, 8))         \
              : _mm256_or_si256(_mm256_srli_epi64((x), (n)), _mm256_slli_epi64((x), 64 - (n))))
#define BSIG0(x) XOR(XOR(ROR(x, 28), ROR(x, 34)), ROR(x, 39))
#define BSIG1(x) XOR(XOR(ROR(x, 14), ROR(x, 18)), ROR(x, 41))
#define SSIG0(x) XOR(XOR(ROR(x, 1), ROR(x, 8)), _mm256_srli_epi64((x), 7))
#define SSIG1(x) XOR(XOR(ROR(x, 19), ROR(x, 61)), _mm256_srli_epi64((x), 6))
#define CH(e, f, g) XOR(_mm256_and_si256((e), (f)), _mm256_andnot_si256((e), (g)))
#define MAJ(a, b, c, ab, bc) XOR((b), _mm256_and_si256((ab), (bc)))
#define KSPLAT(i) _mm256_load_si256((const __m256i *)(const void *)k_table()[i])

__attribute__((target("avx2"))) void grove_sha512_x4_avx2(uint64_t *st, const uint8_t *blocks)
{
    const V bswap = _mm256_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                    11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    V w[80], s[8];
    for (int g4 = 0; g4 < 4; g4++) {
        /* words 4 g4 .. 4 g4 + 3 of the four lanes: a 4x4 transpose of 64-bit words */
        V r0 = _mm256_loadu_si256((const V *)(const void *)(blocks + 0 * 128 + 32 * g4));
        V r1 = _mm256_loadu_si256((const V *)(const void *)(blocks + 1 * 128 + 32 * g4));
        V r2 = _mm256_loadu_si256((const V *)(const void *)(blocks + 2 * 128 + 32 * g4));
        V r3 = _mm256_loadu_si256((const V *)(const void *)(blocks + 3 * 128 + 32 * g4));
        V t0 = _mm256_unpacklo_epi64(r0, r1), t1 = _mm256_unpackhi_epi64(r0, r1);
        V t2 = _mm256_unpacklo_epi64(r2, r3), t3 = _mm256_unpackhi_epi64(r2, r3);
        w[4 * g4 + 0] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(t0, t2, 0x20), bswap);
        w[4 * g4 + 1] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(t1, t3, 0x20), bswap);
        w[4 * g4 + 2] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(t0, t2, 0x31), bswap);
        w[4 * g4 + 3] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(t1, t3, 0x31), bswap);
    }
    for (int i = 0; i < 8; i++)
        s[i] = _mm256_loadu_si256((const V *)(const void *)(st + 4 * i));
    GROVE_SHA2_ROUNDS(s, w, 80, 80);
    for (int i = 0; i < 8; i++)
        _mm256_storeu_si256((V *)(void *)(st + 4 * i), s[i]);
}
/* The fused kernel (sha2_fused.h): grove_sha512_many_x4_avx2 */
#define SHA2_TARGET __attribute__((target("avx2")))
#define SHA2_W 4
#define SHA2_WB 8
#define SHA2_WORD uint64_t
#define SHA2_NR 80
#define SHA2_WN 80 /* message words kept: see GROVE_SHA2_ROUNDS_RANGE */
#define VSET1(x) _mm256_set1_epi64x((long long)(x))
#define VZERO() _mm256_setzero_si256()
#define VOR(a, b) _mm256_or_si256((a), (b))
#define VSLL(a, n) _mm256_slli_epi64((a), (int)(n))
#define VSRL(a, n) _mm256_srli_epi64((a), (int)(n))
#define VLOADA(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define VSTOREA(p, v) _mm256_store_si256((__m256i *)(void *)(p), (v))
#define OFFT __m128i
#define OFFLOAD(p) _mm_load_si128((const __m128i *)(const void *)(p))
#define VGATHER(base, off, pos)                                                                  \
    _mm256_shuffle_epi8(                                                                         \
        _mm256_i32gather_epi64((const long long *)(const void *)(base),                         \
                               _mm_add_epi32((off), _mm_set1_epi32((int)(pos))), 1),            \
        _mm256_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL, 0x08090a0b0c0d0e0fLL,     \
                          0x0001020304050607LL))
/*
 * The digests of the four lanes, words s[0..7], straight from registers into out[j] (j < lanes):
 * a 4x4 transpose of words 0..3 (and of 4..7 past 32 bytes), a byte swap, stores of whole words
 * (outlen a multiple of 8, at most 64; other lengths return 0 and take the word-by-word path).
 * The lane loop is unrolled so that the rows stay in registers: no copy of a digest in memory.
 */
__attribute__((target("avx2"))) static inline void store_half4(uint8_t *const out[], size_t off,
                                                                size_t bytes, const V s[4],
                                                                size_t lanes)
{
    const V bswap = _mm256_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                    11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    V t0 = _mm256_unpacklo_epi64(s[0], s[1]), t1 = _mm256_unpackhi_epi64(s[0], s[1]);
    V t2 = _mm256_unpacklo_epi64(s[2], s[3]), t3 = _mm256_unpackhi_epi64(s[2], s[3]);
    V r[4];
    r[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
    r[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
    r[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
    r[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++) {
        if ((size_t)j >= lanes)
            break;
        V d = _mm256_shuffle_epi8(r[j], bswap);
        uint8_t *o = out[j] + off;
        if (bytes == 32) {
            _mm256_storeu_si256((V *)(void *)o, d);
        } else {
            __m128i lo = _mm256_castsi256_si128(d);
            if (bytes >= 16)
                _mm_storeu_si128((__m128i *)(void *)o, lo);
            if (bytes == 8)
                _mm_storel_epi64((__m128i *)(void *)o, lo);
            if (bytes == 24)
                _mm_storel_epi64((__m128i *)(void *)(o + 16), _mm256_extracti128_si256(d, 1));
        }
    }
}

__attribute__((target("avx2"))) static inline int store_lanes4(uint8_t *const out[], size_t outlen,
                                                               const V s[8], size_t lanes)
{
    if (outlen == 0 || outlen > 64 || outlen % 8 != 0)
        return 0;
    store_half4(out, 0, outlen < 32 ? outlen : 32, s, lanes);
    if (outlen > 32)
        store_half4(out, 32, outlen - 32, s + 4, lanes);
    return 1;
}
#define SHA2_STORE_LANES store_lanes4
#define SHA2_FUSED_NAME grove_sha512_many_x4_avx2
#include "hash/sha2_fused.h"
#endif
