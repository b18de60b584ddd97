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

#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
#include <string.h>

#include "hash/dispatch.h"

#define SHANI_TARGET __attribute__((target("sha,sse4.1,ssse3")))
#define SHANI_INLINE SHANI_TARGET static inline __attribute__((always_inline))

/* Eight state words a..h (host order) -> the ABEF / CDGH registers of sha256rnds2. */
SHANI_INLINE void shani_pack(const uint32_t s[8], __m128i *abef, __m128i *cdgh)
{
    __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)s), 0xB1);
    __m128i u = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)(s + 4)), 0x1B);
    *abef = _mm_alignr_epi8(t, u, 8);
    *cdgh = _mm_blend_epi16(u, t, 0xF0);
}

/* The inverse of shani_pack. */
SHANI_INLINE void shani_unpack(__m128i abef, __m128i cdgh, uint32_t s[8])
{
    __m128i t = _mm_shuffle_epi32(abef, 0x1B);
    __m128i u = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)(void *)s, _mm_blend_epi16(t, u, 0xF0));
    _mm_storeu_si128((__m128i *)(void *)(s + 4), _mm_alignr_epi8(u, t, 8));
}

/* The first n bytes of the digest held in abef/cdgh, big-endian, to out. */
SHANI_INLINE void shani_store_digest(__m128i abef, __m128i cdgh, uint8_t *out, size_t n)
{
    uint32_t d[8];
    shani_unpack(abef, cdgh, d);
    for (size_t k = 0; k < n / 4; k++)
        grove_store32_be(out + 4 * k, d[k]);
    grove_wipe(d, sizeof d);
}

/*
 * Where a digest byte lands in the message block: block register i (words 4i .. 4i + 3, host
 * order) takes byte b from pshufb(abef, mv0[i]) | pshufb(cdgh, mv1[i]) (value at byte `head`,
 * n bytes) and from pshufb(counter, mc[i]) (be32 at ctr_off); use[i] bit 0/1/2: the mask picks
 * something.
 */
static void shani_chain_masks(size_t head, size_t n, size_t ctr_off, uint8_t mv[2][4][16],
                              uint8_t mc[4][16], unsigned use[4])
{
    /* digest word u (a..h) -> register (0: ABEF, 1: CDGH) and 32-bit lane */
    static const uint8_t reg[8] = {0, 0, 1, 1, 0, 0, 1, 1}, lane[8] = {3, 2, 3, 2, 1, 0, 1, 0};
    memset(mv, 0x80, 2 * 4 * 16);
    memset(mc, 0x80, 4 * 16);
    for (int i = 0; i < 4; i++) {
        use[i] = 0;
        for (int b = 0; b < 16; b++) {
            size_t p = (size_t)(16 * i + 4 * (b / 4) + 3 - b % 4); /* byte in the block */
            if (p >= head && p < head + n) {
                size_t q = p - head, u = q / 4;
                mv[reg[u]][i][b] = (uint8_t)(4u * lane[u] + 3u - (unsigned)(q % 4));
                use[i] |= 1u << reg[u];
            } else if (p >= ctr_off && p < ctr_off + 4) {
                mc[i][b] = (uint8_t)(3 - (p - ctr_off));
                use[i] |= 4u;
            }
        }
    }
}

/* Four rounds g (0 .. 15) of N independent compressions, interleaved lane by lane. */
#define SHANI_GROUP(g)                                                                             \
    do {                                                                                           \
        const __m128i kk = _mm_loadu_si128((const __m128i *)(const void *)(grove_sha256_k + 4 * (g))); \
        for (size_t j = 0; j < N; j++) {                                                           \
            if ((g) >= 4) {                                                                        \
                __m128i mm = _mm_sha256msg1_epu32(w[j][(g) & 3], w[j][((g) - 3) & 3]);             \
                mm = _mm_add_epi32(mm, _mm_alignr_epi8(w[j][((g) - 1) & 3], w[j][((g) - 2) & 3], 4)); \
                w[j][(g) & 3] = _mm_sha256msg2_epu32(mm, w[j][((g) - 1) & 3]);                     \
            }                                                                                      \
            __m128i mk = _mm_add_epi32(w[j][(g) & 3], kk);                                         \
            s1[j] = _mm_sha256rnds2_epu32(s1[j], s0[j], mk);                                       \
            s0[j] = _mm_sha256rnds2_epu32(s0[j], s1[j], _mm_shuffle_epi32(mk, 0x0E));              \
        }                                                                                          \
    } while (0)

/* The rounds of groups 1 to 15 (group 0 may be skipped by the chain kernel). */
#define SHANI_GROUPS_1_15()                                                                       \
    do {                                                                                          \
        SHANI_GROUP(1);                                                                           \
        SHANI_GROUP(2);                                                                           \
        SHANI_GROUP(3);                                                                           \
        SHANI_GROUP(4);                                                                           \
        SHANI_GROUP(5);                                                                           \
        SHANI_GROUP(6);                                                                           \
        SHANI_GROUP(7);                                                                           \
        SHANI_GROUP(8);                                                                           \
        SHANI_GROUP(9);                                                                           \
        SHANI_GROUP(10);                                                                          \
        SHANI_GROUP(11);                                                                          \
        SHANI_GROUP(12);                                                                          \
        SHANI_GROUP(13);                                                                          \
        SHANI_GROUP(14);                                                                          \
        SHANI_GROUP(15);                                                                          \
    } while (0)

/*
 * grove_sha256_chains on N (1 .. 4) lanes, the N compressions of a step interleaved through
 * sha256rnds2 (one compression alone waits on each instruction's latency). The chain values
 * stay in the ABEF/CDGH registers; each step's block is its template ORed with byte shuffles
 * of the value and the counter. When neither the counter nor the value touches the first 16
 * bytes (SPHINCS+: 22-byte ADRS, counter at 18), the first four rounds run once per call.
 */
SHANI_INLINE void shani_chains_n(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                 uint32_t start, unsigned steps, const uint8_t *cap,
                                 uint8_t *const capout[], const uint32_t init[8],
                                 uint64_t pcount, const uint8_t *begin, const size_t N)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    uint8_t mvb[2][4][16], mcb[4][16];
    unsigned use[4];
    shani_chain_masks(head, n, ctr_off, mvb, mcb, use);
    __m128i mv0[4], mv1[4], mc[4], T[4][4], v0[4], v1[4], s0[4], s1[4], w[4][4], i0, i1;
    __m128i f0[4], f1[4], sel[4];
    for (int i = 0; i < 4; i++) {
        mv0[i] = _mm_loadu_si128((const __m128i *)(const void *)mvb[0][i]);
        mv1[i] = _mm_loadu_si128((const __m128i *)(const void *)mvb[1][i]);
        mc[i] = _mm_loadu_si128((const __m128i *)(const void *)mcb[i]);
    }
    const int fix4 = (use[0] == 0);
    shani_pack(init, &i0, &i1);
    for (size_t j = 0; j < N; j++) {
        uint8_t blk[64];
        uint32_t d[8] = {0};
        memset(blk, 0, sizeof blk);
        memcpy(blk, lanes[j], head);
        memset(blk + ctr_off, 0, 4);
        blk[head + n] = 0x80;
        grove_store64_be(blk + 56, (pcount + head + n) << 3);
        for (int i = 0; i < 4; i++)
            T[j][i] = _mm_shuffle_epi8(
                _mm_loadu_si128((const __m128i *)(const void *)(blk + 16 * i)), bswap);
        for (size_t k = 0; k < n / 4; k++)
            d[k] = grove_load32_be(lanes[j] + head + 4 * k);
        shani_pack(d, &v0[j], &v1[j]);
        grove_wipe(blk, sizeof blk);
        grove_wipe(d, sizeof d);
        f0[j] = i0;
        f1[j] = i1;
        if (fix4) { /* the first four rounds see the template's words only */
            const __m128i mk = _mm_add_epi32(
                T[j][0], _mm_loadu_si128((const __m128i *)(const void *)grove_sha256_k));
            f1[j] = _mm_sha256rnds2_epu32(f1[j], f0[j], mk);
            f0[j] = _mm_sha256rnds2_epu32(f0[j], f1[j], _mm_shuffle_epi32(mk, 0x0E));
        }
    }
    uint64_t capmask = 0;
    for (size_t j = 0; cap != NULL && j < N; j++)
        if (cap[j] >= start && cap[j] - start <= steps)
            capmask |= (uint64_t)1 << (cap[j] - start < 63 ? cap[j] - start : 63);
    for (unsigned st = 0; st <= steps; st++) {
        const uint32_t pos = start + st;
        if ((capmask >> (st < 63 ? st : 63)) & 1)
            for (size_t j = 0; j < N; j++)
                if (cap[j] == pos)
                    shani_store_digest(v0[j], v1[j], capout[j], n);
        if (st == steps)
            break;
        const __m128i c = _mm_cvtsi32_si128((int)pos);
        for (size_t j = 0; j < N; j++) {
            for (int i = 0; i < 4; i++) {
                __m128i x = T[j][i];
                if (use[i] & 1u)
                    x = _mm_or_si128(x, _mm_shuffle_epi8(v0[j], mv0[i]));
                if (use[i] & 2u)
                    x = _mm_or_si128(x, _mm_shuffle_epi8(v1[j], mv1[i]));
                if (use[i] & 4u)
                    x = _mm_or_si128(x, _mm_shuffle_epi8(c, mc[i]));
                w[j][i] = x;
            }
            s0[j] = f0[j];
            s1[j] = f1[j];
            /* lanes before their first position keep their value */
            sel[j] = _mm_set1_epi32(-(int32_t)(begin == NULL || pos >= begin[j]));
        }
        if (!fix4)
            SHANI_GROUP(0);
        SHANI_GROUPS_1_15();
        for (size_t j = 0; j < N; j++) {
            v0[j] = _mm_blendv_epi8(v0[j], _mm_add_epi32(s0[j], i0), sel[j]);
            v1[j] = _mm_blendv_epi8(v1[j], _mm_add_epi32(s1[j], i1), sel[j]);
        }
    }
    for (size_t j = 0; j < N; j++)
        shani_store_digest(v0[j], v1[j], lanes[j] + head, n);
    grove_chains_last_counter(lanes, N, ctr_off, start, steps, begin);
    for (size_t j = 0; j < N; j++)
        v0[j] = v1[j] = s0[j] = s1[j] = _mm_setzero_si128();
}

/* One block for each of N (1 .. 4) independent states, the compressions interleaved. */
SHANI_INLINE void shani_blocks_n(uint32_t *const st[], const uint8_t *const blocks[],
                                 const size_t N)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i s0[4], s1[4], f0[4], f1[4], w[4][4];
    for (size_t j = 0; j < N; j++) {
        shani_pack(st[j], &f0[j], &f1[j]);
        s0[j] = f0[j];
        s1[j] = f1[j];
        for (int i = 0; i < 4; i++)
            w[j][i] = _mm_shuffle_epi8(
                _mm_loadu_si128((const __m128i *)(const void *)(blocks[j] + 16 * i)), bswap);
    }
    SHANI_GROUP(0);
    SHANI_GROUPS_1_15();
    for (size_t j = 0; j < N; j++)
        shani_unpack(_mm_add_epi32(s0[j], f0[j]), _mm_add_epi32(s1[j], f1[j]), st[j]);
    for (size_t j = 0; j < N; j++)
        for (int i = 0; i < 4; i++)
            w[j][i] = _mm_setzero_si128();
}
#undef SHANI_GROUPS_1_15
#undef SHANI_GROUP

SHANI_TARGET void grove_sha256_blocks_x4_shani(uint32_t *const st[], const uint8_t *const blocks[],
                                               size_t count)
{
    /* One case per lane count, so that each inlined copy has a constant N: its loops unroll
     * and its states stay in registers (a variable N spills them). */
    switch (count) {
    case 1:
        shani_blocks_n(st, blocks, 1);
        break;
    case 2:
        shani_blocks_n(st, blocks, 2);
        break;
    case 3:
        shani_blocks_n(st, blocks, 3);
        break;
    case 4:
        shani_blocks_n(st, blocks, 4);
        break;
    default:
        break;
    }
}

SHANI_TARGET void grove_sha256_chains_x4_shani(uint8_t *const lanes[], size_t head, size_t n,
                                               size_t ctr_off, uint32_t start, unsigned steps,
                                               size_t count, const uint8_t *cap,
                                               uint8_t *const capout[], const uint32_t init[8],
                                               uint64_t pcount, const uint8_t *begin)
{
    switch (count) {
    case 1:
        shani_chains_n(lanes, head, n, ctr_off, start, steps, cap, capout, init, pcount, begin, 1);
        break;
    case 2:
        shani_chains_n(lanes, head, n, ctr_off, start, steps, cap, capout, init, pcount, begin, 2);
        break;
    case 3:
        shani_chains_n(lanes, head, n, ctr_off, start, steps, cap, capout, init, pcount, begin, 3);
        break;
    case 4:
        shani_chains_n(lanes, head, n, ctr_off, start, steps, cap, capout, init, pcount, begin, 4);
        break;
    default:
        break;
    }
}
#endif
