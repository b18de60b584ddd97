/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SHA-256: eight independent blocks / messages / hash chains at once with AVX2 (one per 32-bit
 * lane). */
#include "common/util.h"

#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
#include <immintrin.h>
#include <stddef.h>
#include <string.h>

#include "hash/sha2_k.h"
#include "hash/sha2_simd.h"

/* the round constants, broadcast: each is added straight from memory */
#define K8(k) {k, k, k, k, k, k, k, k},
static const uint32_t k256x8[64][8] __attribute__((aligned(32))) = {GROVE_SHA256_K_LIST(K8)};
/* The table through an opaque pointer: else the compiler rebuilds each constant from an
 * immediate (three instructions) instead of adding it from memory (none). */
__attribute__((target("avx2"))) static inline const uint32_t (*k_table(void))[8]
{
    const uint32_t(*p)[8] = k256x8;
    __asm__("" : "+r"(p));
    return p;
}

#define V __m256i
#define ADD(a, b) _mm256_add_epi32((a), (b))
#define XOR(a, b) _mm256_xor_si256((a), (b))
#define ROR(x, n) _mm256_or_si256(_mm256_srli_epi32((x), (n)), _mm256_slli_epi32((x), 32 - (n)))
#define SHR(x, n) _mm256_srli_epi32((x), (n))
#define BSIG0(x) XOR(XOR(ROR(x, 2), ROR(x, 13)), ROR(x, 22))
#define BSIG1(x) XOR(XOR(ROR(x, 6), ROR(x, 11)), ROR(x, 25))
#define SSIG0(x) XOR(XOR(ROR(x, 7), ROR(x, 18)), SHR(x, 3))
#define SSIG1(x) XOR(XOR(ROR(x, 17), ROR(x, 19)), SHR(x, 10))
#define CH(e, f, g) XOR(_mm256_and_si256((e), (f)), _mm256_andnot_si256((e), (g)))
#define MAJ(a, b, c, ab, bc) XOR((b), _mm256_and_si256((ab), (bc)))
#define KSPLAT(i) _mm256_load_si256((const __m256i *)(const void *)k_table()[i])

/* c[t] = word t of the 8 rows r[j] (an 8x8 transpose of 32-bit words) */
__attribute__((target("avx2"))) static inline void transpose8(V r[8])
{
    V t0 = _mm256_unpacklo_epi32(r[0], r[1]), t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    V t2 = _mm256_unpacklo_epi32(r[2], r[3]), t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    V t4 = _mm256_unpacklo_epi32(r[4], r[5]), t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    V t6 = _mm256_unpacklo_epi32(r[6], r[7]), t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    V u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
    V u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
    V u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
    V u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);
    r[0] = _mm256_permute2x128_si256(u0, u4, 0x20);
    r[1] = _mm256_permute2x128_si256(u1, u5, 0x20);
    r[2] = _mm256_permute2x128_si256(u2, u6, 0x20);
    r[3] = _mm256_permute2x128_si256(u3, u7, 0x20);
    r[4] = _mm256_permute2x128_si256(u0, u4, 0x31);
    r[5] = _mm256_permute2x128_si256(u1, u5, 0x31);
    r[6] = _mm256_permute2x128_si256(u2, u6, 0x31);
    r[7] = _mm256_permute2x128_si256(u3, u7, 0x31);
}

__attribute__((target("avx2"))) void grove_sha256_x8_avx2(uint32_t *st, const uint8_t *blocks)
{
    const V bswap = _mm256_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13,
                                    14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
    V w[64], s[8];
    for (int h = 0; h < 2; h++) {
        V r[8];
        for (int j = 0; j < 8; j++)
            r[j] = _mm256_loadu_si256((const V *)(const void *)(blocks + 64 * j + 32 * h));
        transpose8(r);
        for (int t = 0; t < 8; t++)
            w[8 * h + t] = _mm256_shuffle_epi8(r[t], bswap);
    }
    for (int i = 0; i < 8; i++)
        s[i] = _mm256_loadu_si256((const V *)(const void *)(st + 8 * i));
    GROVE_SHA2_ROUNDS(s, w, 64, 64);
    for (int i = 0; i < 8; i++)
        _mm256_storeu_si256((V *)(void *)(st + 8 * i), s[i]);
}
/* The fused kernels (sha2_fused.h): grove_sha256_many_x8_avx2, grove_sha256_chains_x8_avx2 */
#define SHA2_TARGET __attribute__((target("avx2")))
#define SHA2_W 8
#define SHA2_WB 4
#define SHA2_WORD uint32_t
#define SHA2_NR 64
#define SHA2_WN 64 /* message words kept: see GROVE_SHA2_ROUNDS_RANGE */
#define VSET1(x) _mm256_set1_epi32((int)(x))
#define VZERO() _mm256_setzero_si256()
#define VOR(a, b) _mm256_or_si256((a), (b))
#define VSLL(a, n) _mm256_slli_epi32((a), (int)(n))
#define VSRL(a, n) _mm256_srli_epi32((a), (int)(n))
#define VLOADA(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define VSTOREA(p, v) _mm256_store_si256((__m256i *)(void *)(p), (v))
#define OFFT __m256i
#define OFFLOAD(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define VGATHER(base, off, pos)                                                                  \
    _mm256_shuffle_epi8(                                                                         \
        _mm256_i32gather_epi32((const int *)(const void *)(base),                               \
                               _mm256_add_epi32((off), _mm256_set1_epi32((int)(pos))), 1),      \
        _mm256_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL, 0x0c0d0e0f08090a0bLL,     \
                          0x0405060700010203LL))
#define VMASK __m256i
#define VGE(a, b) _mm256_cmpgt_epi32(_mm256_add_epi32((a), _mm256_set1_epi32(1)), (b))
#define VSELECT(m, a, b) _mm256_blendv_epi8((b), (a), (m))
/*
 * The digests (or chain values) of the eight lanes, words s[0..7], straight from registers into
 * out[j] (j < lanes): an 8x8 transpose, a byte swap, one store per lane (n = 16, 24 or 32 bytes;
 * other lengths return 0 and take the word-by-word path). The lane loop is unrolled so that the
 * transposed rows stay in registers: no copy of a (possibly secret) digest in memory.
 */
__attribute__((target("avx2"))) static inline int store_lanes8(uint8_t *const out[], size_t outlen,
                                                               const V s[8], size_t lanes)
{
    if (outlen != 16 && outlen != 24 && outlen != 32)
        return 0;
    const V bswap = _mm256_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13,
                                    14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
    V r[8];
    for (int t = 0; t < 8; t++)
        r[t] = s[t];
    transpose8(r);
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) {
        if ((size_t)j >= lanes)
            break;
        V d = _mm256_shuffle_epi8(r[j], bswap);
        if (outlen == 32) {
            _mm256_storeu_si256((V *)(void *)out[j], d);
        } else {
            _mm_storeu_si128((__m128i *)(void *)out[j], _mm256_castsi256_si128(d));
            if (outlen == 24)
                _mm_storel_epi64((__m128i *)(void *)(out[j] + 16), _mm256_extracti128_si256(d, 1));
        }
    }
    return 1;
}
#define SHA2_STORE_LANES store_lanes8
/* v[t] = big-endian word t of the first `bytes` (16, 24 or 32) bytes at p[j], lane j (zero past
 * them): a load of each lane, an 8x8 transpose and a byte swap, all in registers. */
__attribute__((target("avx2"))) static inline void load_lanes8(V v[8], const uint8_t *const p[8],
                                                               size_t bytes)
{
    const V bswap = _mm256_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13,
                                    14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
    for (int j = 0; j < 8; j++) {
        if (bytes == 32) {
            v[j] = _mm256_loadu_si256((const V *)(const void *)p[j]);
        } else {
            __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)p[j]);
            __m128i hi = bytes == 24 ? _mm_loadl_epi64((const __m128i *)(const void *)(p[j] + 16))
                                     : _mm_setzero_si128();
            v[j] = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
        }
    }
    transpose8(v);
    for (int t = 0; t < 8; t++)
        v[t] = _mm256_shuffle_epi8(v[t], bswap);
}
#define SHA2_LOAD_LANES load_lanes8
#define SHA2_FUSED_NAME grove_sha256_many_x8_avx2
#define SHA2_CHAINS_NAME grove_sha256_chains_x8_avx2
#include "hash/sha2_fused.h"
#endif
