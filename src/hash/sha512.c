/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SHA-384/512: contexts, portable compression, batches, HMAC-SHA-512, MGF1-SHA-512. */
#include <string.h>

#include "common/burn.h"
#include "common/util.h"
#include "hash/dispatch.h"
#include "hash/sha2.h"
#include "hash/sha2_k.h"

#define K_ITEM(k) k,
const uint64_t grove_sha512_k[80] = {GROVE_SHA512_K_LIST(K_ITEM)};
#undef K_ITEM
static const uint64_t sha512_iv[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};
static const uint64_t sha384_iv[8] = {
    0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
    0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL, 0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL,
};

#define ROR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define BSIG0(x) (ROR64(x, 28) ^ ROR64(x, 34) ^ ROR64(x, 39))
#define BSIG1(x) (ROR64(x, 14) ^ ROR64(x, 18) ^ ROR64(x, 41))
#define SSIG0(x) (ROR64(x, 1) ^ ROR64(x, 8) ^ ((x) >> 7))
#define SSIG1(x) (ROR64(x, 19) ^ ROR64(x, 61) ^ ((x) >> 6))
#define CH(x, y, z) (((x) & ((y) ^ (z))) ^ (z))
/* Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b, with this round's a ^ b carried as the next round's
 * b ^ c (bc): three operations instead of four (as in sha256.c). */
#define R(a, b, c, d, e, f, g, h, i)                                                        \
    do {                                                                                    \
        uint64_t t1 = h + BSIG1(e) + CH(e, f, g) + grove_sha512_k[r + (i)] + w[(i)];              \
        uint64_t ab = a ^ b;                                                                \
        uint64_t t2 = BSIG0(a) + ((ab & bc) ^ b);                                           \
        bc = ab;                                                                            \
        d += t1;                                                                            \
        h = t1 + t2;                                                                        \
    } while (0)
#define SCHED(i) (w[(i)] = SSIG1(w[((i) + 14) & 15]) + w[((i) + 9) & 15] +                  \
                           SSIG0(w[((i) + 1) & 15]) + w[(i)])

GROVE_INLINE void sha512_compress_generic(uint64_t s[8], const uint8_t *p, size_t nblocks)
{
    uint64_t w[16];
    while (nblocks--) {
        uint64_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
        uint64_t bc = b ^ c;
        for (int i = 0; i < 16; i++)
            w[i] = grove_load64_be(p + 8 * i);
        for (int r = 0; r < 80; r += 16) {
            if (r > 0)
                for (int i = 0; i < 16; i++)
                    SCHED(i);
            R(a, b, c, d, e, f, g, h, 0);
            R(h, a, b, c, d, e, f, g, 1);
            R(g, h, a, b, c, d, e, f, 2);
            R(f, g, h, a, b, c, d, e, 3);
            R(e, f, g, h, a, b, c, d, 4);
            R(d, e, f, g, h, a, b, c, 5);
            R(c, d, e, f, g, h, a, b, 6);
            R(b, c, d, e, f, g, h, a, 7);
            R(a, b, c, d, e, f, g, h, 8);
            R(h, a, b, c, d, e, f, g, 9);
            R(g, h, a, b, c, d, e, f, 10);
            R(f, g, h, a, b, c, d, e, 11);
            R(e, f, g, h, a, b, c, d, 12);
            R(d, e, f, g, h, a, b, c, 13);
            R(c, d, e, f, g, h, a, b, 14);
            R(b, c, d, e, f, g, h, a, 15);
        }
        s[0] += a;
        s[1] += b;
        s[2] += c;
        s[3] += d;
        s[4] += e;
        s[5] += f;
        s[6] += g;
        s[7] += h;
        p += 128;
    }
    grove_wipe(w, sizeof w);
}

void grove_sha512_compress_portable(uint64_t s[8], const uint8_t *p, size_t nblocks)
{
    sha512_compress_generic(s, p, nblocks);
}

#if GROVE_HAVE_X86_TARGETS
/* The same C code compiled for BMI1/BMI2 (rorx, andn); picked when the CPU has them. */
__attribute__((target("bmi,bmi2"))) void grove_sha512_compress_bmi(uint64_t s[8], const uint8_t *p,
                                                                  size_t nblocks)
{
    sha512_compress_generic(s, p, nblocks);
}
#endif

/* ---- one-block SPHINCS+ messages with a public 16-byte head (sha2_onepub_portable.h) ---- */

#include "hash/sha2_onepub_portable.h"

#define OP512_KW(t) (grove_sha512_k[(t)] + w[(t) & 15])
#define OP512_SCHED(i) (w[(i)] = SSIG1(w[((i) + 14) & 15]) + w[((i) + 9) & 15] +              \
                                 SSIG0(w[((i) + 1) & 15]) + w[(i)])

/* What messages with the same first 16 bytes share: the variables after rounds 0..1 and the
 * schedule terms of words 0..1 in words 16..17. */
typedef struct {
    uint64_t mid[8];
    uint64_t c[2];
} op512_fixed;

GROVE_INLINE void op512_fixed_init(op512_fixed *fx, const uint8_t *m, const uint64_t init[8])
{
    uint64_t w[16];
    w[0] = grove_load64_be(m);
    w[1] = grove_load64_be(m + 8);
    uint64_t a = init[0], b = init[1], c = init[2], d = init[3], e = init[4], f = init[5],
             g = init[6], h = init[7];
    uint64_t bc = b ^ c;
    OP_R(uint64_t, a, b, c, d, e, f, g, h, OP512_KW(0));
    OP_R(uint64_t, h, a, b, c, d, e, f, g, OP512_KW(1));
    (void)bc;
    fx->mid[0] = a;
    fx->mid[1] = b;
    fx->mid[2] = c;
    fx->mid[3] = d;
    fx->mid[4] = e;
    fx->mid[5] = f;
    fx->mid[6] = g;
    fx->mid[7] = h;
    fx->c[0] = w[0] + SSIG0(w[1]);
    fx->c[1] = w[1];
}

/* The rest of one message of L bytes (L = 6 mod 8, L <= 110): rounds 2..79, digest to out. */
GROVE_INLINE void op512_block(uint8_t *out, size_t outlen, const uint8_t *m,
                              const op512_fixed *fx, const uint64_t init[8], const size_t L)
{
    const size_t full = L / 8; /* whole words; word `full` holds the last six bytes and 0x80 */
    uint64_t w[16];
    for (size_t i = 2; i < full; i++)
        w[i] = grove_load64_be(m + 8 * i);
    w[full] = ((uint64_t)grove_load32_be(m + 8 * full) << 32) |
              ((uint64_t)m[8 * full + 4] << 24) | ((uint64_t)m[8 * full + 5] << 16) | 0x8000u;
    for (size_t i = full + 1; i < 15; i++)
        w[i] = 0;
    w[15] = (uint64_t)((128 + L) * 8);
    uint64_t a = fx->mid[0], b = fx->mid[1], c = fx->mid[2], d = fx->mid[3], e = fx->mid[4],
             f = fx->mid[5], g = fx->mid[6], h = fx->mid[7];
    uint64_t bc = h ^ a; /* b ^ c of round 2, whose a, b, c are g, h, a */
    OP_R(uint64_t, g, h, a, b, c, d, e, f, OP512_KW(2));
    OP_R(uint64_t, f, g, h, a, b, c, d, e, OP512_KW(3));
    OP_R(uint64_t, e, f, g, h, a, b, c, d, OP512_KW(4));
    OP_R(uint64_t, d, e, f, g, h, a, b, c, OP512_KW(5));
    OP_R(uint64_t, c, d, e, f, g, h, a, b, OP512_KW(6));
    OP_R(uint64_t, b, c, d, e, f, g, h, a, OP512_KW(7));
    OP_ROUNDS8(uint64_t, OP512_KW, 8);
    w[0] = fx->c[0] + w[9] + SSIG1(w[14]);
    w[1] = fx->c[1] + SSIG0(w[2]) + w[10] + SSIG1(w[15]);
    for (int i = 2; i < 16; i++)
        OP512_SCHED(i);
    OP_ROUNDS8(uint64_t, OP512_KW, 16);
    OP_ROUNDS8(uint64_t, OP512_KW, 24);
    for (int r = 32; r < 80; r += 16) {
        for (int i = 0; i < 16; i++)
            OP512_SCHED(i);
        OP_ROUNDS8(uint64_t, OP512_KW, r);
        OP_ROUNDS8(uint64_t, OP512_KW, r + 8);
    }
    /* word by word (outlen 24 .. 64, a multiple of 8): no array for gcc to vectorise */
    grove_store64_be(out, init[0] + a);
    grove_store64_be(out + 8, init[1] + b);
    grove_store64_be(out + 16, init[2] + c);
    if (outlen > 24)
        grove_store64_be(out + 24, init[3] + d);
    if (outlen > 32)
        grove_store64_be(out + 32, init[4] + e);
    if (outlen > 40)
        grove_store64_be(out + 40, init[5] + f);
    if (outlen > 48)
        grove_store64_be(out + 48, init[6] + g);
    if (outlen > 56)
        grove_store64_be(out + 56, init[7] + h);
}

GROVE_INLINE void op512_many(uint8_t *const out[], size_t outlen, const uint64_t init[8],
                             const uint8_t *const in[], size_t count, const size_t L)
{
    op512_fixed fx;
    for (size_t i = 0; i < count; i++) {
        /* public bytes (the ADRS): equal heads share rounds 0..1 */
        if (i == 0 || memcmp(in[i], in[i - 1], 16) != 0)
            op512_fixed_init(&fx, in[i], init);
        op512_block(out[i], outlen, in[i], &fx, init, L);
    }
}

GROVE_INLINE void op512_dispatch(uint8_t *const out[], size_t outlen, const uint64_t init[8],
                                 const uint8_t *const in[], size_t inlen, size_t count)
{
    if (inlen == 70)
        op512_many(out, outlen, init, in, count, 70);
    else
        op512_many(out, outlen, init, in, count, 86);
}

/* The work in a frame of its own, burnt by the caller. */
static __attribute__((noinline)) void
sha512_onepub_portable_run(uint8_t *const out[], size_t outlen, const uint64_t init[8],
                           const uint8_t *const in[], size_t inlen, size_t count)
{
    op512_dispatch(out, outlen, init, in, inlen, count);
}

#if GROVE_HAVE_X86_TARGETS
static __attribute__((noinline, target("bmi,bmi2"))) void
sha512_onepub_bmi_run(uint8_t *const out[], size_t outlen, const uint64_t init[8],
                      const uint8_t *const in[], size_t inlen, size_t count)
{
    op512_dispatch(out, outlen, init, in, inlen, count);
}
#endif

#undef OP512_KW
#undef OP512_SCHED

void grove_sha512_many_pub16(uint8_t *const out[], size_t outlen, const grove_sha512_ctx *prefix,
                             const uint8_t *const in[], size_t inlen, size_t count)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    const int layout = prefix != NULL && prefix->count == 128 && (inlen == 70 || inlen == 86) &&
                       outlen >= 24 && outlen <= 64 && outlen % 8 == 0 && k->sha512_many == NULL &&
                       k->sha512_w == 1;
    if (layout && k->sha512_compress == grove_sha512_compress_portable) {
        sha512_onepub_portable_run(out, outlen, prefix->s, in, inlen, count);
        grove_burn_stack_small();
        return;
    }
#if GROVE_HAVE_X86_TARGETS
    if (layout && k->sha512_compress == grove_sha512_compress_bmi) {
        sha512_onepub_bmi_run(out, outlen, prefix->s, in, inlen, count);
        grove_burn_stack_small();
        return;
    }
#endif
    grove_sha512_many(out, outlen, prefix, in, inlen, count);
}

void grove_sha512_compress(uint64_t s[8], const uint8_t *blocks, size_t nblocks)
{
    grove_hash_kernels()->sha512_compress(s, blocks, nblocks);
}

void grove_sha512_init(grove_sha512_ctx *c)
{
    memcpy(c->s, sha512_iv, sizeof c->s);
    c->count = 0;
}

void grove_sha384_init(grove_sha512_ctx *c)
{
    memcpy(c->s, sha384_iv, sizeof c->s);
    c->count = 0;
}

void grove_sha512_update(grove_sha512_ctx *c, const uint8_t *in, size_t len)
{
    if (len == 0)
        return;
    size_t have = (size_t)(c->count & 127);
    c->count += len;
    if (have) {
        size_t take = 128 - have < len ? 128 - have : len;
        memcpy(c->buf + have, in, take);
        in += take;
        len -= take;
        if (have + take < 128)
            return;
        grove_sha512_compress(c->s, c->buf, 1);
    }
    if (len >= 128) {
        grove_sha512_compress(c->s, in, len / 128);
        in += len & ~(size_t)127;
        len &= 127;
    }
    if (len)
        memcpy(c->buf, in, len);
}

void grove_sha512_final(grove_sha512_ctx *c, uint8_t *out, size_t outlen)
{
    size_t have = (size_t)(c->count & 127);
    uint8_t digest[64];
    c->buf[have++] = 0x80;
    if (have > 112) {
        memset(c->buf + have, 0, 128 - have);
        grove_sha512_compress(c->s, c->buf, 1);
        have = 0;
    }
    memset(c->buf + have, 0, 112 - have);
    grove_store64_be(c->buf + 112, c->count >> 61);
    grove_store64_be(c->buf + 120, c->count << 3);
    grove_sha512_compress(c->s, c->buf, 1);
    for (int i = 0; i < 8; i++)
        grove_store64_be(digest + 8 * i, c->s[i]);
    memcpy(out, digest, outlen);
    grove_wipe(digest, sizeof digest);
    grove_wipe(c, sizeof *c);
}

void grove_sha512(uint8_t out[64], const uint8_t *in, size_t len)
{
    grove_sha512_ctx c;
    grove_sha512_init(&c);
    grove_sha512_update(&c, in, len);
    grove_sha512_final(&c, out, 64);
}

void grove_sha384(uint8_t out[48], const uint8_t *in, size_t len)
{
    grove_sha512_ctx c;
    grove_sha384_init(&c);
    grove_sha512_update(&c, in, len);
    grove_sha512_final(&c, out, 48);
}

/*
 * Equal-length messages after a block-aligned prefix, `w` lanes at a time through the multi-lane
 * kernel: full blocks, then the one or two padded tail blocks, then the digests.
 */
static void sha512_many_wide(const struct grove_hash_kernels *k, uint8_t *const out[],
                             size_t outlen, const uint64_t *init, uint64_t pcount,
                             const uint8_t *const in[], size_t inlen, size_t lanes)
{
    const size_t w = k->sha512_w;
    uint64_t st[8 * 16];
    uint8_t blocks[16 * 128], tail[16][2 * 128], dig[64];
    const size_t full = inlen / 128, rem = inlen % 128;
    const size_t ntail = rem + 16 + 1 <= 128 ? 1 : 2;
    for (int t = 0; t < 8; t++)
        for (size_t j = 0; j < w; j++)
            st[w * (size_t)t + j] = init[t];
    for (size_t b = 0; b < full; b++) {
        for (size_t j = 0; j < w; j++)
            memcpy(blocks + 128 * j, in[j < lanes ? j : 0] + 128 * b, 128);
        k->sha512_xw(st, blocks);
    }
    for (size_t j = 0; j < lanes; j++) {
        memset(tail[j], 0, sizeof tail[j]);
        if (rem)
            memcpy(tail[j], in[j] + 128 * full, rem);
        tail[j][rem] = 0x80;
        grove_store64_be(tail[j] + 128 * ntail - 16, (pcount + inlen) >> 61);
        grove_store64_be(tail[j] + 128 * ntail - 8, (pcount + inlen) << 3);
    }
    for (size_t b = 0; b < ntail; b++) {
        for (size_t j = 0; j < w; j++)
            memcpy(blocks + 128 * j, tail[j < lanes ? j : 0] + 128 * b, 128);
        k->sha512_xw(st, blocks);
    }
    for (size_t j = 0; j < lanes; j++) {
        for (int t = 0; t < 8; t++)
            grove_store64_be(dig + 8 * t, st[w * (size_t)t + j]);
        memcpy(out[j], dig, outlen);
    }
    grove_wipe(st, sizeof st);
    grove_wipe(blocks, sizeof blocks);
    grove_wipe(tail, sizeof tail);
    grove_wipe(dig, sizeof dig);
}

void grove_sha512_many(uint8_t *const out[], size_t outlen, const grove_sha512_ctx *prefix,
                       const uint8_t *const in[], size_t inlen, size_t count)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    if (k->sha512_many != NULL) {
        k->sha512_many(out, outlen, prefix, in, inlen, count);
        return;
    }
    uint64_t pcount = prefix ? prefix->count : 0;
    const uint64_t *init = prefix ? prefix->s : sha512_iv;
    if (k->sha512_w > 1 && (pcount & 127) == 0) {
        size_t w = k->sha512_w, i = 0;
        for (; i < count && count - i >= k->sha512_wide_min; i += w) {
            size_t lanes = count - i < w ? count - i : w;
            if (k->sha512_fused == NULL ||
                !k->sha512_fused(out + i, outlen, init, pcount, in + i, inlen, lanes))
                sha512_many_wide(k, out + i, outlen, init, pcount, in + i, inlen, lanes);
        }
        if (i >= count)
            return;
        out += i;
        in += i;
        count -= i;
    }
    if ((pcount & 127) == 0 && inlen + 17 <= 128 && outlen <= 64) {
        /* Fast path: each message is one final block after the prefix state. */
        uint8_t block[128], digest[64];
        uint64_t st[8];
        memset(block, 0, sizeof block);
        block[inlen] = 0x80;
        grove_store64_be(block + 112, pcount >> 61);
        grove_store64_be(block + 120, (pcount + inlen) << 3);
        for (size_t i = 0; i < count; i++) {
            memcpy(block, in[i], inlen);
            if (prefix)
                memcpy(st, prefix->s, sizeof st);
            else
                memcpy(st, sha512_iv, sizeof st);
            k->sha512_compress(st, block, 1);
            for (int j = 0; j < 8; j++)
                grove_store64_be(digest + 8 * j, st[j]);
            memcpy(out[i], digest, outlen);
        }
        grove_wipe(block, sizeof block);
        grove_wipe(st, sizeof st);
        grove_wipe(digest, sizeof digest);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        grove_sha512_ctx c;
        if (prefix)
            c = *prefix;
        else
            grove_sha512_init(&c);
        grove_sha512_update(&c, in[i], inlen);
        grove_sha512_final(&c, out[i], outlen);
    }
}

void grove_hmac_sha512_init(grove_hmac_sha512_ctx *c, const uint8_t *key, size_t keylen)
{
    uint8_t block[128];
    memset(block, 0, sizeof block);
    if (keylen > 128)
        grove_sha512(block, key, keylen);
    else if (keylen)
        memcpy(block, key, keylen);
    for (int i = 0; i < 128; i++)
        block[i] ^= 0x36;
    grove_sha512_init(&c->inner);
    grove_sha512_update(&c->inner, block, 128);
    for (int i = 0; i < 128; i++)
        block[i] ^= 0x36 ^ 0x5c;
    grove_sha512_init(&c->outer);
    grove_sha512_update(&c->outer, block, 128);
    grove_wipe(block, sizeof block);
}

void grove_hmac_sha512_update(grove_hmac_sha512_ctx *c, const uint8_t *in, size_t len)
{
    grove_sha512_update(&c->inner, in, len);
}

void grove_hmac_sha512_final(grove_hmac_sha512_ctx *c, uint8_t *out, size_t outlen)
{
    uint8_t ih[64];
    grove_sha512_final(&c->inner, ih, 64);
    grove_sha512_update(&c->outer, ih, 64);
    grove_sha512_final(&c->outer, out, outlen);
    grove_wipe(ih, sizeof ih);
}

void grove_hmac_sha512(uint8_t out[64], const uint8_t *key, size_t keylen, const uint8_t *in,
                       size_t len)
{
    grove_hmac_sha512_ctx c;
    grove_hmac_sha512_init(&c, key, keylen);
    grove_hmac_sha512_update(&c, in, len);
    grove_hmac_sha512_final(&c, out, 64);
}

void grove_mgf1_sha512(uint8_t *out, size_t outlen, const uint8_t *seed, size_t seedlen)
{
    grove_sha512_ctx base, c;
    uint8_t ctr[4], block[64];
    grove_sha512_init(&base);
    grove_sha512_update(&base, seed, seedlen);
    for (uint32_t i = 0; outlen > 0; i++) {
        size_t take = outlen < 64 ? outlen : 64;
        c = base;
        grove_store32_be(ctr, i);
        grove_sha512_update(&c, ctr, 4);
        grove_sha512_final(&c, block, 64);
        memcpy(out, block, take);
        out += take;
        outlen -= take;
    }
    grove_wipe(&base, sizeof base);
    grove_wipe(block, sizeof block);
}
