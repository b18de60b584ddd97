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
#define XOR3(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0x96)
#define ROR(x, n) _mm512_ror_epi32((x), (n))
#define BSIG0(x) XOR3(ROR(x, 2), ROR(x, 13), ROR(x, 22))
#define BSIG1(x) XOR3(ROR(x, 6), ROR(x, 11), ROR(x, 25))
#define SSIG0(x) XOR3(ROR(x, 7), ROR(x, 18), _mm512_srli_epi32((x), 3))
#define SSIG1(x) XOR3(ROR(x, 17), ROR(x, 19), _mm512_srli_epi32((x), 10))
#define CH(e, f, g) _mm512_ternarylogic_epi32((e), (f), (g), 0xCA)
#define MAJ(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0xE8)
#define KSPLAT(i) _mm512_set1_epi32((int)grove_sha256_k[i])

/* The rounds on 8 state vectors s and 16 message vectors w (w is consumed). */
__attribute__((target("avx512f,avx512bw,avx512vl"))) static inline void rounds16(V s[8], V w[16])
{
    GROVE_SHA2_ROUNDS(s, w, 64);
}

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
    rounds16(s, w);
    for (int i = 0; i < 8; i++)
        _mm512_storeu_si512((void *)(st + 16 * i), s[i]);
}

/*
 * Equal-length messages after a prefix state `init` of pcount bytes (a multiple of 64), 16 at a
 * time: message words are gathered straight from the inputs (32-bit offsets from the first one),
 * padding and length are built in registers, the state never leaves them. Returns 0 (nothing
 * done) when the inputs are too far apart for 32-bit offsets or shorter than 4 bytes.
 */
__attribute__((target("avx512f,avx512bw,avx512vl"))) int
grove_sha256_many_x16_avx512(uint8_t *const out[], size_t outlen, const uint32_t init[8],
                             uint64_t pcount, const uint8_t *const in[], size_t inlen, size_t lanes)
{
    const V bswap = _mm512_set_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203, 0x0c0d0e0f,
                                     0x08090a0b, 0x04050607, 0x00010203, 0x0c0d0e0f, 0x08090a0b,
                                     0x04050607, 0x00010203, 0x0c0d0e0f, 0x08090a0b, 0x04050607,
                                     0x00010203);
    if (inlen < 4 || inlen > (1u << 30))
        return 0;
    const uint8_t *base = in[0];
    int32_t offs[16] __attribute__((aligned(64)));
    if (!grove_sha2_gather_offsets(offs, in, lanes, 16))
        return 0;
    const V off = _mm512_load_si512((const void *)offs);
    V s[8], w[16];
    for (int t = 0; t < 8; t++)
        s[t] = _mm512_set1_epi32((int)init[t]);
    const size_t full = inlen / 64, rem = inlen % 64, ntail = rem + 9 <= 64 ? 1 : 2;
#define GATHER(pos) _mm512_shuffle_epi8(_mm512_i32gather_epi32(_mm512_add_epi32(off, _mm512_set1_epi32((int)(pos))), (const void *)base, 1), bswap)
    for (size_t b = 0; b < full; b++) {
        for (int t = 0; t < 16; t++)
            w[t] = GATHER(64 * b + 4 * (size_t)t);
        rounds16(s, w);
    }
    const uint64_t bits = (pcount + inlen) << 3;
    for (size_t b = 0; b < ntail; b++) {
        for (size_t t = 0; t < 16; t++) {
            size_t pos = 64 * b + 4 * t; /* byte position in the tail */
            if (pos + 4 <= rem) {
                w[t] = GATHER(64 * full + pos);
            } else if (pos < rem) {
                unsigned r = (unsigned)(rem - pos); /* 1..3 data bytes, then 0x80 */
                w[t] = _mm512_or_si512(_mm512_slli_epi32(GATHER(64 * full + rem - 4), 8 * (4 - r)),
                                       _mm512_set1_epi32((int)(0x80u << (8 * (3 - r)))));
            } else if (pos == rem) {
                w[t] = _mm512_set1_epi32((int)0x80000000u);
            } else {
                w[t] = _mm512_setzero_si512();
            }
        }
        if (b + 1 == ntail) {
            w[14] = _mm512_set1_epi32((int)(uint32_t)(bits >> 32));
            w[15] = _mm512_set1_epi32((int)(uint32_t)bits);
        }
        rounds16(s, w);
    }
#undef GATHER
    uint32_t res[8][16] __attribute__((aligned(64)));
    for (int t = 0; t < 8; t++)
        _mm512_store_si512((void *)res[t], s[t]);
    uint8_t dig[32];
    for (size_t j = 0; j < lanes; j++) {
        for (int t = 0; t < 8; t++)
            grove_store32_be(dig + 4 * t, res[t][j]);
        memcpy(out[j], dig, outlen);
    }
    grove_wipe(res, sizeof res);
    grove_wipe(dig, sizeof dig);
    return 1;
}

__attribute__((target("avx512f,avx512bw,avx512vl"))) void
grove_sha256_chains_x16_avx512(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                               uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                               uint8_t *const capout[], const uint32_t init[8], uint64_t pcount)
{
    const size_t nw = n / 4, hb = head / 4, hs = 8 * (head % 4), cb = ctr_off / 4,
                 cs = 8 * (ctr_off % 4);
    uint32_t tpl[16][16] __attribute__((aligned(64)));
    uint32_t res[8][16] __attribute__((aligned(64)));
    V T[16], val[8], w[16], s[8];
    /* the block of each lane with the value and the counter zeroed: padding and length fixed */
    for (size_t j = 0; j < 16; j++) {
        uint8_t blk[64];
        memset(blk, 0, sizeof blk);
        memcpy(blk, lanes[j < count ? j : 0], head);
        memset(blk + ctr_off, 0, 4);
        blk[head + n] = 0x80;
        grove_store64_be(blk + 56, (pcount + head + n) << 3);
        for (int t = 0; t < 16; t++)
            tpl[t][j] = grove_load32_be(blk + 4 * t);
        for (size_t k = 0; k < nw; k++)
            res[k][j] = grove_load32_be(lanes[j < count ? j : 0] + head + 4 * k);
    }
    for (int t = 0; t < 16; t++)
        T[t] = _mm512_load_si512((const void *)tpl[t]);
    for (size_t k = 0; k < nw; k++)
        val[k] = _mm512_load_si512((const void *)res[k]);
    for (unsigned st = 0; st <= steps; st++) {
        if (cap != NULL) {
            int any = 0;
            for (size_t j = 0; j < count; j++)
                any |= cap[j] == start + st;
            if (any) {
                for (size_t k = 0; k < nw; k++) {
                    _mm512_store_si512((void *)res[k], val[k]);
                    for (size_t j = 0; j < count; j++)
                        if (cap[j] == start + st)
                            grove_store32_be(capout[j] + 4 * k, res[k][j]);
                }
            }
        }
        if (st == steps)
            break;
        for (int t = 0; t < 16; t++)
            w[t] = T[t];
        /* the counter, big-endian at ctr_off */
        V c = _mm512_set1_epi32((int)(start + st));
        if (cs == 0) {
            w[cb] = _mm512_or_si512(w[cb], c);
        } else {
            w[cb] = _mm512_or_si512(w[cb], _mm512_srli_epi32(c, (unsigned)cs));
            w[cb + 1] = _mm512_or_si512(w[cb + 1], _mm512_slli_epi32(c, (unsigned)(32 - cs)));
        }
        /* the value at byte offset head */
        for (size_t k = 0; k < nw; k++) {
            if (hs == 0) {
                w[hb + k] = _mm512_or_si512(w[hb + k], val[k]);
            } else {
                w[hb + k] = _mm512_or_si512(w[hb + k], _mm512_srli_epi32(val[k], (unsigned)hs));
                w[hb + k + 1] =
                    _mm512_or_si512(w[hb + k + 1], _mm512_slli_epi32(val[k], (unsigned)(32 - hs)));
            }
        }
        for (int t = 0; t < 8; t++)
            s[t] = _mm512_set1_epi32((int)init[t]);
        rounds16(s, w);
        for (size_t k = 0; k < nw; k++)
            val[k] = s[k];
    }
    for (size_t k = 0; k < nw; k++) {
        _mm512_store_si512((void *)res[k], val[k]);
        for (size_t j = 0; j < count; j++)
            grove_store32_be(lanes[j] + head + 4 * k, res[k][j]);
    }
    if (steps > 0)
        for (size_t j = 0; j < count; j++)
            grove_store32_be(lanes[j] + ctr_off, start + steps - 1);
    grove_wipe(res, sizeof res);
    for (size_t k = 0; k < 8; k++)
        val[k] = _mm512_setzero_si512();
}
#endif
