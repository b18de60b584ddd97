/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The SHA-256 sets with n = 32 (XMSS-SHA2_*_256, XMSSMT-SHA2_*_256) on the hash layer's
 * multi-lane block compression (sha256_xw of hash/dispatch.h: W = 16 lanes with AVX-512, 8 with
 * AVX2). Every call of these sets is a fixed number of whole blocks:
 *   PRF        [toByte(3,32) || PUB_SEED] || ADRS                      1 block after the midstate
 *   PRF_keygen [toByte(4,32) || SK_SEED] || PUB_SEED || ADRS           2 blocks after the midstate
 *   F          toByte(0,32) || KEY | M ^ BM                            2 blocks
 *   H          toByte(1,32) || KEY | L ^ BM0 || R ^ BM1 | padding      3 blocks
 * so W chains (or node hashes) keep their states interleaved (word t of lane j at st[W t + j])
 * from one compression to the next: a digest becomes the next block's words directly, with no
 * byte strings, pointers or per-message padding in between. The blocks are built once per
 * group; a chain step rewrites only the hash-address word of its two PRF blocks and the 16
 * words of its F blocks. A group of at most W / 4 lanes goes through the single-block kernel
 * (SHA-NI where there is one) lane by lane instead.
 */
#include <string.h>

#include "common/util.h"
#include "hash/dispatch.h"
#include "xmss/xmss_int.h"

#define XW_MAX 16 /* the widest multi-lane kernel */
#define HASH_OFF 24u /* XMSS ADRS: hash address / tree index word */
#define KM_OFF 28u   /* keyAndMask word */

int xmss_x256_usable(const xmss_hash *x)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    return x->kind == XMSS_SHA256 && x->n == 32 && x->pad == 32 && x->midstate &&
           k->sha256_xw != NULL && k->sha256_w >= 4 && k->sha256_w <= XW_MAX;
}

/* The native word whose bytes in memory are v big-endian (block words are read big-endian). */
GROVE_INLINE uint32_t be(uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return v;
#elif defined(__GNUC__)
    return __builtin_bswap32(v);
#else
    uint8_t b[4];
    uint32_t r;
    grove_store32_be(b, v);
    memcpy(&r, b, 4);
    return r;
#endif
}

/*
 * Scratch of one group: interleaved states (st[W t + j]) and blocks as words (word t of lane
 * j's block at blk[16 j + t], stored big-endian: the bytes the kernel reads).
 */
typedef struct {
    uint32_t prf[8 * XW_MAX], iv[8 * XW_MAX], kg[8 * XW_MAX]; /* the initial states, broadcast */
    uint32_t sv[8 * XW_MAX], s0[8 * XW_MAX], s1[8 * XW_MAX], s2[8 * XW_MAX];
    uint32_t b0[16 * XW_MAX], b1[16 * XW_MAX], b2[16 * XW_MAX], b3[16 * XW_MAX];
} xw_scratch;

/* The broadcast initial states (kg: PRF_keygen's, secret, only when with_kg). */
static void xw_scratch_init(xw_scratch *s, const xmss_hash *x, size_t W, int with_kg)
{
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    for (size_t t = 0; t < 8; t++)
        for (size_t j = 0; j < W; j++) {
            s->prf[W * t + j] = x->prf256.s[t];
            s->iv[W * t + j] = c.s[t];
            if (with_kg)
                s->kg[W * t + j] = x->kg256.s[t];
        }
}

/* One block per lane: blk into st; the first L of the W lanes are the ones in use. */
GROVE_INLINE void xw_compress(const struct grove_hash_kernels *k, size_t W, size_t L,
                              uint32_t *st, const uint32_t *blk)
{
    if (4 * L > W) {
        k->sha256_xw(st, (const uint8_t *)blk);
        return;
    }
    uint32_t s[8];
    for (size_t j = 0; j < L; j++) {
        for (size_t t = 0; t < 8; t++)
            s[t] = st[W * t + j];
        k->sha256_compress(s, (const uint8_t *)(blk + 16 * j), 1);
        for (size_t t = 0; t < 8; t++)
            st[W * t + j] = s[t];
    }
    grove_wipe(s, sizeof s);
}

/* The lanes whose blocks are built: all W for the multi-lane kernel, else the L in use. */
GROVE_INLINE size_t lanes_built(size_t W, size_t L)
{
    return 4 * L > W ? W : L;
}

/* Lane j's 8 state words as the 32 big-endian bytes at out (a digest). */
static void xw_put(uint8_t *out, const uint32_t *st, size_t W, size_t j)
{
    for (size_t t = 0; t < 8; t++)
        grove_store32_be(out + 4 * t, st[W * t + j]);
}

/* b[0..8) = ADRS (keyAndMask km), then the padding of a 96-byte message: a PRF block. */
static void prf_block(uint32_t *b, const uint8_t adrs[32], uint32_t km)
{
    for (size_t t = 0; t < 7; t++)
        b[t] = be(grove_load32_be(adrs + 4 * t));
    b[7] = be(km);
    b[8] = be(0x80000000u);
    for (size_t t = 9; t < 15; t++)
        b[t] = 0;
    b[15] = be(96 * 8);
}

/* The last block of a message of `bytes` bytes (a multiple of 64): padding only. */
static void pad_block(uint32_t *b, uint32_t bytes)
{
    b[0] = be(0x80000000u);
    for (size_t t = 1; t < 15; t++)
        b[t] = 0;
    b[15] = be(bytes * 8);
}

/*
 * L <= W chains from their start (PRF_keygen) through all w - 1 steps; the ends into out[j].
 * Step pos: KEY = PRF(ADRS hash pos, km 0) (s0), BM = PRF(.., km 1) (s1), then
 * value = F: SHA-256(toByte(0,32) || KEY | value ^ BM || padding) (sv).
 */
GROVE_INLINE void chain_group(const xmss_hash *x, const struct grove_hash_kernels *k,
                              xw_scratch *s, const hs_adrs *adrs, size_t L, uint8_t *const out[],
                              const size_t W)
{
    const size_t P = lanes_built(W, L);
    for (size_t j = 0; j < P; j++) {
        const uint8_t *a = adrs[j < L ? j : 0].b;
        uint32_t *b1 = s->b1 + 16 * j;
        for (size_t t = 0; t < 8; t++) {
            b1[t] = be(grove_load32_be(x->pub_seed + 4 * t));
            b1[8 + t] = be(grove_load32_be(a + 4 * t));
        }
        pad_block(s->b2 + 16 * j, 128);
        prf_block(s->b0 + 16 * j, a, 0);
        prf_block(s->b3 + 16 * j, a, 1);
    }
    /* the chain starts: PRF_keygen(SK_SEED, PUB_SEED || ADRS), two blocks after the midstate */
    memcpy(s->sv, s->kg, sizeof(uint32_t) * 8 * W);
    xw_compress(k, W, L, s->sv, s->b1);
    xw_compress(k, W, L, s->sv, s->b2);
    /* F's blocks: b1 = toByte(0,32) || KEY, b2 = value ^ BM || padding of 96 bytes */
    for (size_t j = 0; j < P; j++) {
        uint32_t *b1 = s->b1 + 16 * j, *b2 = s->b2 + 16 * j;
        for (size_t t = 0; t < 8; t++)
            b1[t] = 0;
        b2[8] = be(0x80000000u);
        for (size_t t = 9; t < 15; t++)
            b2[t] = 0;
        b2[15] = be(96 * 8);
    }
    for (uint32_t pos = 0; pos + 1 < x->wots.w; pos++) {
        const uint32_t hw = be(pos);
        for (size_t j = 0; j < P; j++) {
            s->b0[16 * j + 6] = hw;
            s->b3[16 * j + 6] = hw;
        }
        memcpy(s->s0, s->prf, sizeof(uint32_t) * 8 * W);
        xw_compress(k, W, L, s->s0, s->b0);
        memcpy(s->s1, s->prf, sizeof(uint32_t) * 8 * W);
        xw_compress(k, W, L, s->s1, s->b3);
        for (size_t t = 0; t < 8; t++)
            for (size_t j = 0; j < P; j++) {
                s->b1[16 * j + 8 + t] = be(s->s0[W * t + j]);
                s->b2[16 * j + t] = be(s->sv[W * t + j] ^ s->s1[W * t + j]);
            }
        memcpy(s->sv, s->iv, sizeof(uint32_t) * 8 * W);
        xw_compress(k, W, L, s->sv, s->b1);
        xw_compress(k, W, L, s->sv, s->b2);
    }
    for (size_t j = 0; j < L; j++)
        xw_put(out[j], s->sv, W, j);
}

void xmss_x256_chains(const xmss_hash *x, const hs_adrs *adrs, size_t cnt, uint8_t *const out[])
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    const size_t W = k->sha256_w;
    xw_scratch s;
    xw_scratch_init(&s, x, W, 1);
    for (size_t g = 0; g < cnt; g += W) {
        const size_t L = cnt - g < W ? cnt - g : W;
        if (W == 16) /* constant widths: the loops over lanes unrolled */
            chain_group(x, k, &s, adrs + g, L, out + g, 16);
        else if (W == 8)
            chain_group(x, k, &s, adrs + g, L, out + g, 8);
        else
            chain_group(x, k, &s, adrs + g, L, out + g, W);
    }
    grove_wipe(&s, sizeof s);
    xmss_hash_count((uint64_t)cnt * (2 + 4 * (uint64_t)(x->wots.w - 1)));
}

/*
 * L <= W node hashes: KEY, BM0, BM1 = PRF(ADRS, km 0, 1, 2), then
 * SHA-256(toByte(1,32) || KEY | L ^ BM0 || R ^ BM1 | padding). All inputs are read before any
 * output is written.
 */
static void node_group(const struct grove_hash_kernels *k, xw_scratch *s, size_t L,
                       uint8_t *const out[], const uint8_t *const left[],
                       const uint8_t *const right[], const hs_adrs *adrs)
{
    const size_t W = k->sha256_w, P = lanes_built(W, L);
    for (size_t j = 0; j < P; j++) {
        const uint8_t *a = adrs[j < L ? j : 0].b;
        prf_block(s->b0 + 16 * j, a, 0);
        prf_block(s->b1 + 16 * j, a, 1);
        prf_block(s->b2 + 16 * j, a, 2);
    }
    memcpy(s->s0, s->prf, sizeof(uint32_t) * 8 * W);
    xw_compress(k, W, L, s->s0, s->b0);
    memcpy(s->s1, s->prf, sizeof(uint32_t) * 8 * W);
    xw_compress(k, W, L, s->s1, s->b1);
    memcpy(s->s2, s->prf, sizeof(uint32_t) * 8 * W);
    xw_compress(k, W, L, s->s2, s->b2);
    for (size_t j = 0; j < P; j++) {
        const size_t q = j < L ? j : 0;
        uint32_t *b1 = s->b1 + 16 * j, *b2 = s->b2 + 16 * j;
        for (size_t t = 0; t < 7; t++)
            b1[t] = 0;
        b1[7] = be(1);
        for (size_t t = 0; t < 8; t++) {
            b1[8 + t] = be(s->s0[W * t + j]);
            b2[t] = be(grove_load32_be(left[q] + 4 * t) ^ s->s1[W * t + j]);
            b2[8 + t] = be(grove_load32_be(right[q] + 4 * t) ^ s->s2[W * t + j]);
        }
        pad_block(s->b3 + 16 * j, 128);
    }
    memcpy(s->sv, s->iv, sizeof(uint32_t) * 8 * W);
    xw_compress(k, W, L, s->sv, s->b1);
    xw_compress(k, W, L, s->sv, s->b2);
    xw_compress(k, W, L, s->sv, s->b3);
    for (size_t j = 0; j < L; j++)
        xw_put(out[j], s->sv, W, j);
}

/*
 * Nothing of a node hash is secret (the nodes, their keys and masks follow from public values
 * and PUB_SEED; authentication paths publish them), so its scratch is not wiped: verification
 * and signing hash a few nodes at a time, and a 7 KiB wipe per call would cost more than the
 * lane-by-lane hashing of a single node.
 */
void xmss_x256_nodes(const xmss_hash *x, size_t cnt, uint8_t *const out[],
                     const uint8_t *const left[], const uint8_t *const right[],
                     const hs_adrs *adrs)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    const size_t W = k->sha256_w;
    xw_scratch s;
    xw_scratch_init(&s, x, W, 0);
    for (size_t g = 0; g < cnt; g += W)
        node_group(k, &s, cnt - g < W ? cnt - g : W, out + g, left + g, right + g, adrs + g);
    xmss_hash_count(6 * (uint64_t)cnt);
}
