/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SHA-224/256: contexts, portable compression, batches, HMAC-SHA-256, MGF1-SHA-256. */
#include <string.h>

#include "common/util.h"
#include "hash/dispatch.h"
#include "common/burn.h"
#include "hash/sha2.h"
#include "hash/sha2_k.h"

/* Lanes hashed per batch call by the portable chain walk (any size works; this bounds the
 * stack). */
#define CHAINS_SLICE 1024

#define K_ITEM(k) k,
const uint32_t grove_sha256_k[64] = {GROVE_SHA256_K_LIST(K_ITEM)};
#undef K_ITEM
static const uint32_t sha256_iv[8] = {
    0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
    0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
};
static const uint32_t sha224_iv[8] = {
    0xc1059ed8u, 0x367cd507u, 0x3070dd17u, 0xf70e5939u,
    0xffc00b31u, 0x68581511u, 0x64f98fa7u, 0xbefa4fa4u,
};

#define ROR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define BSIG0(x) (ROR32(x, 2) ^ ROR32(x, 13) ^ ROR32(x, 22))
#define BSIG1(x) (ROR32(x, 6) ^ ROR32(x, 11) ^ ROR32(x, 25))
#define SSIG0(x) (ROR32(x, 7) ^ ROR32(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ROR32(x, 17) ^ ROR32(x, 19) ^ ((x) >> 10))
#define CH(x, y, z) (((x) & ((y) ^ (z))) ^ (z))

/*
 * One round; the eight working variables rotate by renaming instead of moving. Maj(a, b, c) =
 * ((a ^ b) & (b ^ c)) ^ b, and this round's a ^ b is the next round's b ^ c (carried in bc):
 * three operations instead of four.
 */
#define R(a, b, c, d, e, f, g, h, i)                                                        \
    do {                                                                                    \
        uint32_t t1 = h + BSIG1(e) + CH(e, f, g) + grove_sha256_k[r + (i)] + w[(i)];              \
        uint32_t ab = a ^ b;                                                                \
        uint32_t t2 = BSIG0(a) + ((ab & bc) ^ b);                                           \
        bc = ab;                                                                            \
        d += t1;                                                                            \
        h = t1 + t2;                                                                        \
    } while (0)
#define SCHED(i) (w[(i)] = SSIG1(w[((i) + 14) & 15]) + w[((i) + 9) & 15] +                  \
                           SSIG0(w[((i) + 1) & 15]) + w[(i)])

GROVE_INLINE void sha256_compress_generic(uint32_t s[8], const uint8_t *p, size_t nblocks)
{
    uint32_t w[16];
    while (nblocks--) {
        uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
        uint32_t bc = b ^ c;
        for (int i = 0; i < 16; i++)
            w[i] = grove_load32_be(p + 4 * i);
        for (int r = 0; r < 64; r += 16) {
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
        p += 64;
    }
    grove_wipe(w, sizeof w);
}

void grove_sha256_compress_portable(uint32_t s[8], const uint8_t *p, size_t nblocks)
{
    sha256_compress_generic(s, p, nblocks);
}

#if GROVE_HAVE_X86_TARGETS
/* The same C code compiled for BMI1/BMI2 (rorx, andn); picked when the CPU has them. */
__attribute__((target("bmi,bmi2"))) void grove_sha256_compress_bmi(uint32_t s[8], const uint8_t *p,
                                                                  size_t nblocks)
{
    sha256_compress_generic(s, p, nblocks);
}
#endif

#include "hash/sha256_chain_portable.h"

/*
 * The chain kernel's working state lives in locals the compiler spills to the stack, and a chain
 * may start from a secret (WOTS+ keys): the work runs in a frame of its own (noinline) and the
 * entry point wipes that frame's stack when it returns (GROVE_BURN_STACK_SMALL bytes, above
 * the ~530 bytes gcc 12 gives it; test_wipe checks every path).
 */
static __attribute__((noinline)) void
sha256_chains_portable_run(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                           uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                           uint8_t *const capout[], const uint32_t init[8], uint64_t pcount,
                           const uint8_t *begin)
{
    spxc_chains(lanes, head, n, ctr_off, start, steps, count, cap, capout, init, pcount, begin);
}

void grove_sha256_chains_portable(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                  uint32_t start, unsigned steps, size_t count,
                                  const uint8_t *cap, uint8_t *const capout[],
                                  const uint32_t init[8], uint64_t pcount, const uint8_t *begin)
{
    sha256_chains_portable_run(lanes, head, n, ctr_off, start, steps, count, cap, capout, init,
                               pcount, begin);
    grove_burn_stack_small();
}

#if GROVE_HAVE_X86_TARGETS
static __attribute__((noinline, target("bmi,bmi2"))) void
sha256_chains_bmi_run(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                      uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                      uint8_t *const capout[], const uint32_t init[8], uint64_t pcount,
                      const uint8_t *begin)
{
    spxc_chains(lanes, head, n, ctr_off, start, steps, count, cap, capout, init, pcount, begin);
}

void grove_sha256_chains_bmi(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                             uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                             uint8_t *const capout[], const uint32_t init[8], uint64_t pcount,
                             const uint8_t *begin)
{
    sha256_chains_bmi_run(lanes, head, n, ctr_off, start, steps, count, cap, capout, init, pcount,
                          begin);
    grove_burn_stack_small();
}
#endif

/* ---- one-block SPHINCS+ messages with a public 16-byte head (sha2_onepub_portable.h) ---- */

#include "hash/sha2_onepub_portable.h"

#define OP256_KW(t) (grove_sha256_k[(t)] + w[(t) & 15])
#define OP256_SCHED(i) (w[(i)] = SSIG1(w[((i) + 14) & 15]) + w[((i) + 9) & 15] +              \
                                 SSIG0(w[((i) + 1) & 15]) + w[(i)])

/* What messages with the same first 16 bytes share: the variables after rounds 0..3 (named as
 * the unrolled rounds leave them) and the schedule terms of words 0..3 in words 16..19. */
typedef struct {
    uint32_t mid[8];
    uint32_t c[4];
} op256_fixed;

GROVE_INLINE void op256_fixed_init(op256_fixed *fx, const uint8_t *m, const uint32_t init[8])
{
    uint32_t w[16];
    for (int i = 0; i < 4; i++)
        w[i] = grove_load32_be(m + 4 * i);
    uint32_t a = init[0], b = init[1], c = init[2], d = init[3], e = init[4], f = init[5],
             g = init[6], h = init[7];
    uint32_t bc = b ^ c;
    OP_R(uint32_t, a, b, c, d, e, f, g, h, OP256_KW(0));
    OP_R(uint32_t, h, a, b, c, d, e, f, g, OP256_KW(1));
    OP_R(uint32_t, g, h, a, b, c, d, e, f, OP256_KW(2));
    OP_R(uint32_t, f, g, h, a, b, c, d, e, OP256_KW(3));
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
    fx->c[1] = w[1] + SSIG0(w[2]);
    fx->c[2] = w[2] + SSIG0(w[3]);
    fx->c[3] = w[3];
}

/* The rest of one message of L bytes (L = 2 mod 4, L <= 54): rounds 4..63, digest to out. */
GROVE_INLINE void op256_block(uint8_t *out, size_t outlen, const uint8_t *m,
                              const op256_fixed *fx, const uint32_t init[8], const size_t L)
{
    const size_t full = L / 4; /* whole words; word `full` holds the last two bytes and 0x80 */
    uint32_t w[16];
    for (size_t i = 4; i < full; i++)
        w[i] = grove_load32_be(m + 4 * i);
    w[full] = ((uint32_t)m[4 * full] << 24) | ((uint32_t)m[4 * full + 1] << 16) | 0x8000u;
    for (size_t i = full + 1; i < 15; i++)
        w[i] = 0;
    w[15] = (uint32_t)((64 + L) * 8);
    uint32_t a = fx->mid[0], b = fx->mid[1], c = fx->mid[2], d = fx->mid[3], e = fx->mid[4],
             f = fx->mid[5], g = fx->mid[6], h = fx->mid[7];
    uint32_t bc = f ^ g; /* b ^ c of round 4, whose a, b, c are e, f, g */
    OP_R(uint32_t, e, f, g, h, a, b, c, d, OP256_KW(4));
    OP_R(uint32_t, d, e, f, g, h, a, b, c, OP256_KW(5));
    OP_R(uint32_t, c, d, e, f, g, h, a, b, OP256_KW(6));
    OP_R(uint32_t, b, c, d, e, f, g, h, a, OP256_KW(7));
    OP_ROUNDS8(uint32_t, OP256_KW, 8);
    w[0] = fx->c[0] + w[9] + SSIG1(w[14]);
    w[1] = fx->c[1] + w[10] + SSIG1(w[15]);
    w[2] = fx->c[2] + w[11] + SSIG1(w[0]);
    w[3] = fx->c[3] + SSIG0(w[4]) + w[12] + SSIG1(w[1]);
    for (int i = 4; i < 16; i++)
        OP256_SCHED(i);
    OP_ROUNDS8(uint32_t, OP256_KW, 16);
    OP_ROUNDS8(uint32_t, OP256_KW, 24);
    for (int r = 32; r < 64; r += 16) {
        for (int i = 0; i < 16; i++)
            OP256_SCHED(i);
        OP_ROUNDS8(uint32_t, OP256_KW, r);
        OP_ROUNDS8(uint32_t, OP256_KW, r + 8);
    }
    /* word by word (outlen 16, 24 or 32): a loop over an array of them is vectorised by gcc
     * into SSE2 byte swaps that cost 80 instructions more a message */
    grove_store32_be(out, init[0] + a);
    grove_store32_be(out + 4, init[1] + b);
    grove_store32_be(out + 8, init[2] + c);
    grove_store32_be(out + 12, init[3] + d);
    if (outlen > 16) {
        grove_store32_be(out + 16, init[4] + e);
        grove_store32_be(out + 20, init[5] + f);
    }
    if (outlen > 24) {
        grove_store32_be(out + 24, init[6] + g);
        grove_store32_be(out + 28, init[7] + h);
    }
}

GROVE_INLINE void op256_many(uint8_t *const out[], size_t outlen, const uint32_t init[8],
                             const uint8_t *const in[], size_t count, const size_t L)
{
    op256_fixed fx;
    for (size_t i = 0; i < count; i++) {
        /* public bytes (the ADRS): equal heads share rounds 0..3 */
        if (i == 0 || memcmp(in[i], in[i - 1], 16) != 0)
            op256_fixed_init(&fx, in[i], init);
        op256_block(out[i], outlen, in[i], &fx, init, L);
    }
}

GROVE_INLINE void op256_dispatch(uint8_t *const out[], size_t outlen, const uint32_t init[8],
                                 const uint8_t *const in[], size_t inlen, size_t count)
{
    if (inlen == 38)
        op256_many(out, outlen, init, in, count, 38);
    else if (inlen == 46)
        op256_many(out, outlen, init, in, count, 46);
    else
        op256_many(out, outlen, init, in, count, 54);
}

/* The work in a frame of its own, burnt by the caller (PRF messages carry SK.seed). */
static __attribute__((noinline)) void
sha256_onepub_portable_run(uint8_t *const out[], size_t outlen, const uint32_t init[8],
                           const uint8_t *const in[], size_t inlen, size_t count)
{
    op256_dispatch(out, outlen, init, in, inlen, count);
}

#if GROVE_HAVE_X86_TARGETS
static __attribute__((noinline, target("bmi,bmi2"))) void
sha256_onepub_bmi_run(uint8_t *const out[], size_t outlen, const uint32_t init[8],
                      const uint8_t *const in[], size_t inlen, size_t count)
{
    op256_dispatch(out, outlen, init, in, inlen, count);
}
#endif

#undef OP256_KW
#undef OP256_SCHED

void grove_sha256_many_pub16(uint8_t *const out[], size_t outlen, const grove_sha256_ctx *prefix,
                             const uint8_t *const in[], size_t inlen, size_t count)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    const int layout = prefix != NULL && prefix->count == 64 &&
                       (inlen == 38 || inlen == 46 || inlen == 54) &&
                       (outlen == 16 || outlen == 24 || outlen == 32) && k->sha256_many == NULL && k->sha256_w == 1;
    if (layout && k->sha256_compress == grove_sha256_compress_portable) {
        sha256_onepub_portable_run(out, outlen, prefix->s, in, inlen, count);
        grove_burn_stack_small();
        return;
    }
#if GROVE_HAVE_X86_TARGETS
    if (layout && k->sha256_compress == grove_sha256_compress_bmi) {
        sha256_onepub_bmi_run(out, outlen, prefix->s, in, inlen, count);
        grove_burn_stack_small();
        return;
    }
#endif
    grove_sha256_many(out, outlen, prefix, in, inlen, count);
}

void grove_sha256_compress(uint32_t s[8], const uint8_t *blocks, size_t nblocks)
{
    grove_hash_kernels()->sha256_compress(s, blocks, nblocks);
}

void grove_sha256_init(grove_sha256_ctx *c)
{
    memcpy(c->s, sha256_iv, sizeof c->s);
    c->count = 0;
}

void grove_sha224_init(grove_sha256_ctx *c)
{
    memcpy(c->s, sha224_iv, sizeof c->s);
    c->count = 0;
}

void grove_sha256_update(grove_sha256_ctx *c, const uint8_t *in, size_t len)
{
    if (len == 0)
        return;
    size_t have = (size_t)(c->count & 63);
    c->count += len;
    if (have) {
        size_t take = 64 - have < len ? 64 - have : len;
        memcpy(c->buf + have, in, take);
        in += take;
        len -= take;
        if (have + take < 64)
            return;
        grove_sha256_compress(c->s, c->buf, 1);
    }
    if (len >= 64) {
        grove_sha256_compress(c->s, in, len / 64);
        in += len & ~(size_t)63;
        len &= 63;
    }
    if (len)
        memcpy(c->buf, in, len);
}

void grove_sha256_final(grove_sha256_ctx *c, uint8_t *out, size_t outlen)
{
    size_t have = (size_t)(c->count & 63);
    uint8_t digest[32];
    c->buf[have++] = 0x80;
    if (have > 56) {
        memset(c->buf + have, 0, 64 - have);
        grove_sha256_compress(c->s, c->buf, 1);
        have = 0;
    }
    memset(c->buf + have, 0, 56 - have);
    grove_store64_be(c->buf + 56, c->count << 3);
    grove_sha256_compress(c->s, c->buf, 1);
    for (int i = 0; i < 8; i++)
        grove_store32_be(digest + 4 * i, c->s[i]);
    memcpy(out, digest, outlen);
    grove_wipe(digest, sizeof digest);
    grove_wipe(c, sizeof *c);
}

void grove_sha256(uint8_t out[32], const uint8_t *in, size_t len)
{
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    grove_sha256_update(&c, in, len);
    grove_sha256_final(&c, out, 32);
}

void grove_sha224(uint8_t out[28], const uint8_t *in, size_t len)
{
    grove_sha256_ctx c;
    grove_sha224_init(&c);
    grove_sha256_update(&c, in, len);
    grove_sha256_final(&c, out, 28);
}

/*
 * Copies len bytes through general-purpose registers. libc's memcpy may use its AVX-512 variant,
 * which leaves the bytes in ymm16-31; the SHA-NI kernels (SSE) never overwrite those, so a
 * secret message would stay there until something (the dynamic linker's lazy binding saves every
 * vector register) spills it to the stack. The volatile stores keep the compiler from turning
 * the loop back into a memcpy call. dst is 8-byte aligned.
 */
static void copy_gpr(uint8_t *dst, const uint8_t *src, size_t len)
{
    size_t b = 0;
    for (; b + 8 <= len; b += 8) {
        uint64_t x;
        memcpy(&x, src + b, 8);
        *(volatile uint64_t *)(void *)(dst + b) = x;
    }
    for (; b < len; b++)
        *(volatile uint8_t *)(dst + b) = src[b];
}

/*
 * Equal-length messages after a block-aligned prefix, `w` lanes at a time through the multi-lane
 * kernel: full blocks, then the one or two padded tail blocks, then the digests.
 */
static void sha256_many_wide(const struct grove_hash_kernels *k, uint8_t *const out[],
                             size_t outlen, const uint32_t *init, uint64_t pcount,
                             const uint8_t *const in[], size_t inlen, size_t lanes)
{
    const size_t w = k->sha256_w;
    uint32_t st[8 * 16];
    uint8_t blocks[16 * 64], tail[16][2 * 64], dig[32];
    const size_t full = inlen / 64, rem = inlen % 64;
    const size_t ntail = rem + 8 + 1 <= 64 ? 1 : 2;
    for (int t = 0; t < 8; t++)
        for (size_t j = 0; j < w; j++)
            st[w * (size_t)t + j] = init[t];
    for (size_t b = 0; b < full; b++) {
        for (size_t j = 0; j < w; j++)
            memcpy(blocks + 64 * j, in[j < lanes ? j : 0] + 64 * b, 64);
        k->sha256_xw(st, blocks);
    }
    for (size_t j = 0; j < lanes; j++) {
        memset(tail[j], 0, sizeof tail[j]);
        if (rem)
            memcpy(tail[j], in[j] + 64 * full, rem);
        tail[j][rem] = 0x80;
        grove_store64_be(tail[j] + 64 * ntail - 8, (pcount + inlen) << 3);
    }
    for (size_t b = 0; b < ntail; b++) {
        for (size_t j = 0; j < w; j++)
            memcpy(blocks + 64 * j, tail[j < lanes ? j : 0] + 64 * b, 64);
        k->sha256_xw(st, blocks);
    }
    for (size_t j = 0; j < lanes; j++) {
        for (int t = 0; t < 8; t++)
            grove_store32_be(dig + 4 * t, st[w * (size_t)t + j]);
        memcpy(out[j], dig, outlen);
    }
    grove_wipe(st, sizeof st);
    grove_wipe(blocks, sizeof blocks);
    grove_wipe(tail, sizeof tail);
    grove_wipe(dig, sizeof dig);
}

void grove_sha256_many(uint8_t *const out[], size_t outlen, const grove_sha256_ctx *prefix,
                       const uint8_t *const in[], size_t inlen, size_t count)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    if (k->sha256_many != NULL) {
        k->sha256_many(out, outlen, prefix, in, inlen, count);
        return;
    }
    uint64_t pcount = prefix ? prefix->count : 0;
    const uint32_t *init = prefix ? prefix->s : sha256_iv;
    if (k->sha256_w > 1 && (pcount & 63) == 0) {
        size_t w = k->sha256_w, i = 0;
        /* one-block messages: the interleaved SHA-NI blocks beat a wide call on few lanes */
        const size_t minw = k->sha256_blocks_few != NULL && inlen + 9 <= 64 && outlen <= 32
                                ? k->sha256_blocks_wide_min
                                : k->sha256_wide_min;
        for (; i < count && count - i >= minw; i += w) {
            size_t lanes = count - i < w ? count - i : w;
            if (k->sha256_fused == NULL ||
                !k->sha256_fused(out + i, outlen, init, pcount, in + i, inlen, lanes))
                sha256_many_wide(k, out + i, outlen, init, pcount, in + i, inlen, lanes);
        }
        if (i >= count)
            return;
        out += i;
        in += i;
        count -= i;
    }
    if ((pcount & 63) == 0 && inlen + 9 <= 64 && outlen <= 32) {
        /* Fast path: each message is one final block after the prefix state. */
        uint8_t block[64], digest[32];
        uint32_t st[8];
        memset(block, 0, sizeof block);
        block[inlen] = 0x80;
        grove_store64_be(block + 56, (pcount + inlen) << 3);
        if (k->sha256_blocks_few != NULL && count > 1) {
            /* a few messages at a time, their compressions interleaved */
            uint8_t blks[4][64] __attribute__((aligned(16)));
            uint32_t sts[4][8];
            uint32_t *sp[4] = {sts[0], sts[1], sts[2], sts[3]};
            const uint8_t *bp[4] = {blks[0], blks[1], blks[2], blks[3]};
            const size_t fw = k->sha256_blocks_few_w < 4 ? k->sha256_blocks_few_w : 4;
            for (size_t i = 0, m; i < count; i += m) {
                m = count - i < fw ? count - i : fw;
                for (size_t j = 0; j < m; j++) {
                    memcpy(blks[j], block, 64);
                    copy_gpr(blks[j], in[i + j], inlen);
                    memcpy(sts[j], init, sizeof sts[j]);
                }
                k->sha256_blocks_few(sp, bp, m);
                for (size_t j = 0; j < m; j++) {
                    for (int t = 0; t < 8; t++)
                        grove_store32_be(digest + 4 * t, sts[j][t]);
                    memcpy(out[i + j], digest, outlen);
                }
            }
            grove_wipe(blks, sizeof blks);
            grove_wipe(sts, sizeof sts);
            grove_wipe(digest, sizeof digest);
            grove_wipe(block, sizeof block);
            return;
        }
        for (size_t i = 0; i < count; i++) {
            memcpy(block, in[i], inlen);
            if (prefix)
                memcpy(st, prefix->s, sizeof st);
            else
                memcpy(st, sha256_iv, sizeof st);
            k->sha256_compress(st, block, 1);
            for (int j = 0; j < 8; j++)
                grove_store32_be(digest + 4 * j, st[j]);
            memcpy(out[i], digest, outlen);
        }
        grove_wipe(block, sizeof block);
        grove_wipe(st, sizeof st);
        grove_wipe(digest, sizeof digest);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        grove_sha256_ctx c;
        if (prefix)
            c = *prefix;
        else
            grove_sha256_init(&c);
        grove_sha256_update(&c, in[i], inlen);
        grove_sha256_final(&c, out[i], outlen);
    }
}

/* The fused chain kernels take one block (with padding), whole words of value, the counter in
 * the head. */
static int sha256_chains_fused(const struct grove_hash_kernels *k, size_t head, size_t n,
                               size_t ctr_off, uint64_t pcount)
{
    return (k->sha256_chains_x != NULL || k->sha256_chains_few != NULL) && (pcount & 63) == 0 &&
           head + n + 9 <= 64 &&
           n % 4 == 0 && n <= 32 && ctr_off + 4 <= head;
}

int grove_sha256_chains_from(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                             const uint8_t *begin, unsigned end, size_t count,
                             const grove_sha256_ctx *prefix)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    uint64_t pcount = prefix ? prefix->count : 0;
    if (!sha256_chains_fused(k, head, n, ctr_off, pcount) || end > 255)
        return 0;
    const uint32_t *init = prefix ? prefix->s : sha256_iv;
    for (size_t i = 0, m; i < count; i += m) {
        unsigned lo;
        /* the wide kernel while enough lanes are left for it, then the few-lane one */
        const int wide = k->sha256_chains_x != NULL &&
                         (k->sha256_chains_few == NULL || count - i >= k->sha256_chains_wide_min);
        m = grove_chains_group(begin + i, count - i,
                               wide ? k->sha256_chains_w : k->sha256_chains_few_w, end, &lo);
        if (lo < end)
            (wide ? k->sha256_chains_x : k->sha256_chains_few)(lanes + i, head, n, ctr_off, lo,
                                                               end - lo, m, NULL, NULL, init,
                                                               pcount, begin + i);
    }
    return 1;
}

void grove_sha256_chains(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                         uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                         uint8_t *const capout[], const grove_sha256_ctx *prefix)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    uint64_t pcount = prefix ? prefix->count : 0;
    const uint32_t *init = prefix ? prefix->s : sha256_iv;
    size_t i = 0;
    if (sha256_chains_fused(k, head, n, ctr_off, pcount)) {
        const size_t w = k->sha256_chains_w;
        const size_t minw = k->sha256_chains_few != NULL ? k->sha256_chains_wide_min
                                                         : k->sha256_wide_min;
        for (; k->sha256_chains_x != NULL && i < count && count - i >= minw; i += w)
            k->sha256_chains_x(lanes + i, head, n, ctr_off, start, steps,
                               count - i < w ? count - i : w, cap ? cap + i : NULL,
                               capout ? capout + i : NULL, init, pcount, NULL);
        /* the leftovers (or all, without a wide kernel) on the few-lane kernel */
        const size_t fw = k->sha256_chains_few_w;
        for (; k->sha256_chains_few != NULL && i < count; i += fw)
            k->sha256_chains_few(lanes + i, head, n, ctr_off, start, steps,
                                 count - i < fw ? count - i : fw, cap ? cap + i : NULL,
                                 capout ? capout + i : NULL, init, pcount, NULL);
        if (i >= count)
            return;
        lanes += i;
        count -= i;
        if (cap) {
            cap += i;
            capout += i;
        }
    }
    /* Step by step through the batch interface, CHAINS_SLICE lanes per call. */
    uint8_t *outs[CHAINS_SLICE];
    for (size_t done = 0; done < count; done += CHAINS_SLICE) {
        size_t m = count - done < CHAINS_SLICE ? count - done : CHAINS_SLICE;
        uint8_t *const *L = lanes + done;
        for (size_t j = 0; j < m; j++)
            outs[j] = L[j] + head;
        for (unsigned st = 0; st <= steps; st++) {
            if (cap)
                for (size_t j = 0; j < m; j++)
                    if (cap[done + j] == start + st)
                        memcpy(capout[done + j], L[j] + head, n);
            if (st == steps)
                break;
            for (size_t j = 0; j < m; j++)
                grove_store32_be(L[j] + ctr_off, start + st);
            grove_sha256_many(outs, n, prefix, (const uint8_t *const *)L, head + n, m);
        }
    }
}

void grove_hmac_sha256_init(grove_hmac_sha256_ctx *c, const uint8_t *key, size_t keylen)
{
    uint8_t block[64];
    memset(block, 0, sizeof block);
    if (keylen > 64)
        grove_sha256(block, key, keylen);
    else if (keylen)
        memcpy(block, key, keylen);
    for (int i = 0; i < 64; i++)
        block[i] ^= 0x36;
    grove_sha256_init(&c->inner);
    grove_sha256_update(&c->inner, block, 64);
    for (int i = 0; i < 64; i++)
        block[i] ^= 0x36 ^ 0x5c;
    grove_sha256_init(&c->outer);
    grove_sha256_update(&c->outer, block, 64);
    grove_wipe(block, sizeof block);
}

void grove_hmac_sha256_update(grove_hmac_sha256_ctx *c, const uint8_t *in, size_t len)
{
    grove_sha256_update(&c->inner, in, len);
}

void grove_hmac_sha256_final(grove_hmac_sha256_ctx *c, uint8_t *out, size_t outlen)
{
    uint8_t ih[32];
    grove_sha256_final(&c->inner, ih, 32);
    grove_sha256_update(&c->outer, ih, 32);
    grove_sha256_final(&c->outer, out, outlen);
    grove_wipe(ih, sizeof ih);
}

void grove_hmac_sha256(uint8_t out[32], const uint8_t *key, size_t keylen, const uint8_t *in,
                       size_t len)
{
    grove_hmac_sha256_ctx c;
    grove_hmac_sha256_init(&c, key, keylen);
    grove_hmac_sha256_update(&c, in, len);
    grove_hmac_sha256_final(&c, out, 32);
}

void grove_mgf1_sha256(uint8_t *out, size_t outlen, const uint8_t *seed, size_t seedlen)
{
    grove_sha256_ctx base, c;
    uint8_t ctr[4], block[32];
    grove_sha256_init(&base);
    grove_sha256_update(&base, seed, seedlen);
    for (uint32_t i = 0; outlen > 0; i++) {
        size_t take = outlen < 32 ? outlen : 32;
        c = base;
        grove_store32_be(ctr, i);
        grove_sha256_update(&c, ctr, 4);
        grove_sha256_final(&c, block, 32);
        memcpy(out, block, take);
        out += take;
        outlen -= take;
    }
    grove_wipe(&base, sizeof base);
    grove_wipe(block, sizeof block);
}
