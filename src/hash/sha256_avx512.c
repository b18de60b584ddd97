/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SHA-256: sixteen independent blocks at once with AVX-512 (native rotates, vpternlogd). */
#include "common/util.h"

#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
#include <immintrin.h>
#include <stddef.h>
#include <string.h>

#include "hash/sha2_simd.h"

#define V __m512i
#define ADD(a, b) _mm512_add_epi32((a), (b))
#define XOR(a, b) _mm512_xor_si512((a), (b))
#define XOR3(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0x96)
#define ROR(x, n) _mm512_ror_epi32((x), (n))
#define BSIG0(x) XOR3(ROR(x, 2), ROR(x, 13), ROR(x, 22))
#define BSIG1(x) XOR3(ROR(x, 6), ROR(x, 11), ROR(x, 25))
#define SSIG0(x) XOR3(ROR(x, 7), ROR(x, 18), _mm512_srli_epi32((x), 3))
#define SSIG1(x) XOR3(ROR(x, 17), ROR(x, 19), _mm512_srli_epi32((x), 10))
#define CH(e, f, g) _mm512_ternarylogic_epi32((e), (f), (g), 0xCA)
#define MAJ(a, b, c, ab, bc) ((void)(ab), (void)(bc), _mm512_ternarylogic_epi32((a), (b), (c), 0xE8))
#define KSPLAT(i) _mm512_set1_epi32((int)grove_sha256_k[i])

__attribute__((target("avx512f,avx512bw,avx512vl"))) void
grove_sha256_x16_avx512(uint32_t *st, const uint8_t *blocks)
{
    const V bswap = _mm512_set_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203, 0x0c0d0e0f,
                                     0x08090a0b, 0x04050607, 0x00010203, 0x0c0d0e0f, 0x08090a0b,
                                     0x04050607, 0x00010203, 0x0c0d0e0f, 0x08090a0b, 0x04050607,
                                     0x00010203);
    const V idx = _mm512_set_epi32(240, 224, 208, 192, 176, 160, 144, 128, 112, 96, 80, 64, 48, 32,
                                   16, 0); /* lane j's block starts at word 16 j */
    V w[16], s[8];
    for (int t = 0; t < 16; t++)
        w[t] = _mm512_shuffle_epi8(_mm512_i32gather_epi32(idx, (const void *)(blocks + 4 * t), 4),
                                   bswap);
    for (int i = 0; i < 8; i++)
        s[i] = _mm512_loadu_si512((const void *)(st + 16 * i));
    GROVE_SHA2_ROUNDS(s, w, 64, 16);
    for (int i = 0; i < 8; i++)
        _mm512_storeu_si512((void *)(st + 16 * i), s[i]);
}

/* The fused kernels (sha2_fused.h): grove_sha256_many_x16_avx512, grove_sha256_chains_x16_avx512 */
#define SHA2_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))
#define SHA2_W 16
#define SHA2_WB 4
#define SHA2_WORD uint32_t
#define SHA2_NR 64
#define SHA2_WN 16 /* message words kept: see GROVE_SHA2_ROUNDS_RANGE */
#define VSET1(x) _mm512_set1_epi32((int)(x))
#define VZERO() _mm512_setzero_si512()
#define VOR(a, b) _mm512_or_si512((a), (b))
#define VSLL(a, n) _mm512_slli_epi32((a), (n))
#define VSRL(a, n) _mm512_srli_epi32((a), (n))
#define VLOADA(p) _mm512_load_si512((const void *)(p))
#define VSTOREA(p, v) _mm512_store_si512((void *)(p), (v))
#define OFFT __m512i
#define OFFLOAD(p) _mm512_load_si512((const void *)(p))
#define VGATHER(base, off, pos)                                                                  \
    _mm512_shuffle_epi8(                                                                         \
        _mm512_i32gather_epi32(_mm512_add_epi32((off), _mm512_set1_epi32((int)(pos))),          \
                               (const void *)(base), 1),                                         \
        _mm512_set4_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203))
#define VMASK __mmask16
#define VGE(a, b) _mm512_cmpge_epi32_mask((a), (b))
#define VSELECT(m, a, b) _mm512_mask_blend_epi32((m), (b), (a))
#define SHA2_FUSED_NAME grove_sha256_many_x16_avx512
#define SHA2_CHAINS_NAME grove_sha256_chains_x16_avx512
#include "hash/sha2_fused.h"
#endif
