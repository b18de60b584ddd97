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
#define XOR(a, b) _mm512_xor_si512((a), (b))
#define XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define ROR(x, n) _mm512_ror_epi64((x), (n))
#define BSIG0(x) XOR3(ROR(x, 28), ROR(x, 34), ROR(x, 39))
#define BSIG1(x) XOR3(ROR(x, 14), ROR(x, 18), ROR(x, 41))
#define SSIG0(x) XOR3(ROR(x, 1), ROR(x, 8), _mm512_srli_epi64((x), 7))
#define SSIG1(x) XOR3(ROR(x, 19), ROR(x, 61), _mm512_srli_epi64((x), 6))
#define CH(e, f, g) _mm512_ternarylogic_epi64((e), (f), (g), 0xCA)
#define MAJ(a, b, c, ab, bc) ((void)(ab), (void)(bc), _mm512_ternarylogic_epi64((a), (b), (c), 0xE8))
#define KSPLAT(i) _mm512_set1_epi64((long long)grove_sha512_k[i])

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
    GROVE_SHA2_ROUNDS(s, w, 80, 16);
    for (int i = 0; i < 8; i++)
        _mm512_storeu_si512((void *)(st + 8 * i), s[i]);
}

/* The fused kernel (sha2_fused.h): grove_sha512_many_x8_avx512 */
#define SHA2_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))
#define SHA2_W 8
#define SHA2_WB 8
#define SHA2_WORD uint64_t
#define SHA2_NR 80
#define SHA2_WN 16 /* message words kept: see GROVE_SHA2_ROUNDS_RANGE */
#define VSET1(x) _mm512_set1_epi64((long long)(x))
#define VZERO() _mm512_setzero_si512()
#define VOR(a, b) _mm512_or_si512((a), (b))
#define VSLL(a, n) _mm512_slli_epi64((a), (n))
#define VSRL(a, n) _mm512_srli_epi64((a), (n))
#define VLOADA(p) _mm512_load_si512((const void *)(p))
#define VSTOREA(p, v) _mm512_store_si512((void *)(p), (v))
#define OFFT __m256i
#define OFFLOAD(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define VGATHER(base, off, pos)                                                                  \
    _mm512_shuffle_epi8(                                                                         \
        _mm512_i32gather_epi64(_mm256_add_epi32((off), _mm256_set1_epi32((int)(pos))),          \
                               (const void *)(base), 1),                                         \
        _mm512_set4_epi64(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL, 0x08090a0b0c0d0e0fLL,     \
                          0x0001020304050607LL))
#define SHA2_FUSED_NAME grove_sha512_many_x8_avx512
#include "hash/sha2_fused.h"
#endif
