/* SPDX-License-Identifier: MIT OR Apache-2.0 */

#include "hash/dispatch.h"
/*
 * Template (no include guard: included once per kernel file) of the fused multi-lane SHA-2
 * kernels, written once for every vector width and word size. The including file defines:
 *   SHA2_TARGET        the function attribute selecting the instruction set
 *   SHA2_W             lanes per vector; SHA2_WB word bytes (4: SHA-256, 8: SHA-512)
 *   SHA2_WORD          uint32_t or uint64_t; SHA2_NR rounds (64 or 80); SHA2_WN message
 *                      words kept (SHA2_NR or 16, see GROVE_SHA2_ROUNDS_RANGE)
 *   V and the ops of GROVE_SHA2_ROUNDS_RANGE (sha2_simd.h), and on V:
 *     VSET1(x)         the word x in every lane        VZERO()  the all-zero vector
 *     VOR(a, b)        bitwise or                      VSLL(a, n), VSRL(a, n)  word shifts
 *     VLOADA(p), VSTOREA(p, v)  aligned load / store of SHA2_W words
 *   OFFT, OFFLOAD(p)   the vector of 32-bit gather offsets and its aligned load
 *   VGATHER(base, off, pos)  the big-endian word at base + off[j] + pos in lane j
 *   SHA2_FUSED_NAME    the name of the whole-message kernel (see grove_sha256_many_x16_avx512)
 *   SHA2_STORE_LANES(out, outlen, s, lanes)  (optional) stores the first outlen bytes of the
 *                      big-endian words s[0..7] of lane j to out[j] (j < lanes) and returns 1,
 *                      or returns 0 (nothing stored) for a length it does not handle
 *   SHA2_LOAD_LANES(v, p, bytes)  (optional, chains) v[0..7] = the big-endian words of the
 *                      first bytes (16, 24 or 32) bytes at p[j] in lane j, zero past them
 *   SHA2_CHAINS_NAME   (SHA-256 only, optional) the name of the chain kernel (see
 *                      grove_sha256_chains), which needs besides VMASK, a lane mask type,
 *                      VGE(a, b) (mask: lanes with a >= b, signed) and VSELECT(m, a, b)
 *                      (a where m, else b)
 * With SHA2_BLOCK = 16 SHA2_WB, the message bytes are gathered straight from the inputs, the
 * padding and the length are built in registers and the state never leaves them.
 */
#define SHA2_BLOCK (16 * SHA2_WB)
#if SHA2_WB == 4
#define SHA2_STORE_BE grove_store32_be
#else
#define SHA2_STORE_BE grove_store64_be
#endif

/* The rounds on 8 state vectors s and the message vectors w[0..15] (w[16..] is scratch). */
SHA2_TARGET static inline void sha2_rounds(V s[8], V w[SHA2_WN])
{
    GROVE_SHA2_ROUNDS(s, w, SHA2_NR, SHA2_WN);
}

/* w[t] of a tail block b (0 or 1) of messages with rem bytes after the full blocks. */
SHA2_TARGET static inline V sha2_tail_word(const uint8_t *base, OFFT off, size_t full, size_t rem,
                                           size_t b, size_t t)
{
    size_t pos = SHA2_BLOCK * b + SHA2_WB * t; /* byte position in the tail */
    if (pos + SHA2_WB <= rem)
        return VGATHER(base, off, SHA2_BLOCK * full + pos);
    if (pos < rem) {
        unsigned r = (unsigned)(rem - pos); /* 1 .. SHA2_WB - 1 data bytes, then 0x80 */
        V last = VGATHER(base, off, SHA2_BLOCK * full + rem - SHA2_WB);
        return VOR(VSLL(last, 8 * (SHA2_WB - r)),
                   VSET1((SHA2_WORD)((SHA2_WORD)0x80 << (8 * (SHA2_WB - 1 - r)))));
    }
    if (pos == rem)
        return VSET1((SHA2_WORD)((SHA2_WORD)0x80 << (8 * (SHA2_WB - 1))));
    return VZERO();
}

/*
 * Equal-length messages after a prefix state `init` of pcount bytes (a multiple of the block
 * size), SHA2_W at a time. Returns 0 (nothing done) when the inputs are too far apart for 32-bit
 * offsets or shorter than a word.
 */
SHA2_TARGET int SHA2_FUSED_NAME(uint8_t *const out[], size_t outlen, const SHA2_WORD init[8],
                                uint64_t pcount, const uint8_t *const in[], size_t inlen,
                                size_t lanes)
{
    if (inlen < SHA2_WB || inlen > (1u << 30))
        return 0;
    const uint8_t *base = in[0];
    int32_t offs[SHA2_W < 8 ? 8 : SHA2_W] __attribute__((aligned(64)));
    if (!grove_sha2_gather_offsets(offs, in, lanes, SHA2_W))
        return 0;
    const OFFT off = OFFLOAD(offs);
    V s[8], w[SHA2_WN];
    for (int t = 0; t < 8; t++)
        s[t] = VSET1(init[t]);
    const size_t full = inlen / SHA2_BLOCK, rem = inlen % SHA2_BLOCK;
    const size_t ntail = rem + 2 * SHA2_WB + 1 <= SHA2_BLOCK ? 1 : 2;
    for (size_t b = 0; b < full; b++) {
        for (int t = 0; t < 16; t++)
            w[t] = VGATHER(base, off, SHA2_BLOCK * b + SHA2_WB * (size_t)t);
        sha2_rounds(s, w);
    }
    const uint64_t total = pcount + inlen;
    for (size_t b = 0; b < ntail; b++) {
        for (size_t t = 0; t < 16; t++)
            w[t] = sha2_tail_word(base, off, full, rem, b, t);
        if (b + 1 == ntail) {
            w[14] = VSET1((SHA2_WORD)(SHA2_WB == 4 ? total >> 29 : total >> 61));
            w[15] = VSET1((SHA2_WORD)(total << 3));
        }
        sha2_rounds(s, w);
    }
#ifdef SHA2_STORE_LANES
    /* the including file's transpose in registers: no copy of the digests in memory */
    if (SHA2_STORE_LANES(out, outlen, s, lanes))
        return 1;
#endif
    /* the digests, truncated to outlen, straight into the outputs */
    SHA2_WORD res[8][SHA2_W] __attribute__((aligned(64)));
    const size_t words = outlen / SHA2_WB, tail = outlen % SHA2_WB;
    for (size_t t = 0; t < (outlen + SHA2_WB - 1) / SHA2_WB; t++)
        VSTOREA(res[t], s[t]);
    for (size_t j = 0; j < lanes; j++) {
        for (size_t t = 0; t < words; t++)
            SHA2_STORE_BE(out[j] + SHA2_WB * t, res[t][j]);
        for (size_t b = 0; b < tail; b++)
            out[j][SHA2_WB * words + b] = (uint8_t)(res[words][j] >> (8 * (SHA2_WB - 1 - b)));
    }
    grove_wipe(res, sizeof res);
    return 1;
}

#if defined(SHA2_CHAINS_NAME) && SHA2_WB == 4
/*
 * The chain block template of each lane: its head with the counter zeroed, the value zeroed,
 * padding and length fixed (T), and the lanes' current values (val).
 */
SHA2_TARGET static inline void sha2_chains_load(uint8_t *const lanes[], size_t head, size_t n,
                                                size_t ctr_off, size_t count, uint64_t pcount,
                                                V T[16], V val[8])
{
#ifdef SHA2_LOAD_LANES
    if (head == 22 && ctr_off == 18 && (n == 16 || n == 24 || n == 32)) {
        /* SPHINCS+: only words 0..4 (the public ADRS head up to the counter) differ between
         * the lanes' templates: one transposed load of each lane's first 32 bytes (the lane
         * holds head + n >= 38 bytes) and one of the values, in registers; the padding and
         * length words are the same in every lane (nothing secret in blk: no wipe). */
        const uint8_t *p[SHA2_W];
        V hd[8];
        uint8_t blk[64];
        for (size_t j = 0; j < SHA2_W; j++)
            p[j] = lanes[j < count ? j : 0];
        SHA2_LOAD_LANES(hd, p, 32);
        for (size_t j = 0; j < SHA2_W; j++)
            p[j] += head;
        SHA2_LOAD_LANES(val, p, n);
        for (int t = 0; t < 4; t++)
            T[t] = hd[t];
        T[4] = VSLL(VSRL(hd[4], 16), 16); /* bytes 18, 19: the counter's high half, zeroed */
        memset(blk, 0, sizeof blk);
        blk[head + n] = 0x80;
        grove_store64_be(blk + 56, (pcount + head + n) << 3);
        for (int t = 5; t < 16; t++)
            T[t] = VSET1(grove_load32_be(blk + 4 * t));
        return;
    }
#endif
    uint32_t tpl[16][SHA2_W] __attribute__((aligned(64)));
    uint32_t res[8][SHA2_W] __attribute__((aligned(64)));
    for (size_t j = 0; j < SHA2_W; j++) {
        uint8_t blk[64];
        const uint8_t *src = lanes[j < count ? j : 0];
        memset(blk, 0, sizeof blk);
        memcpy(blk, src, head);
        memset(blk + ctr_off, 0, 4);
        blk[head + n] = 0x80;
        grove_store64_be(blk + 56, (pcount + head + n) << 3);
        for (int t = 0; t < 16; t++)
            tpl[t][j] = grove_load32_be(blk + 4 * t);
        for (size_t k = 0; k < n / 4; k++)
            res[k][j] = grove_load32_be(src + head + 4 * k);
        grove_wipe(blk, sizeof blk);
    }
    for (int t = 0; t < 16; t++)
        T[t] = VLOADA(tpl[t]);
    for (size_t k = 0; k < n / 4; k++)
        val[k] = VLOADA(res[k]);
    grove_wipe(tpl, sizeof tpl);
    grove_wipe(res, sizeof res);
}

/* Write the values of the lanes (j < count) whose capture position is pos. */
SHA2_TARGET static inline void sha2_chains_capture(const V val[8], size_t nw, size_t count,
                                                   const uint8_t *cap, uint8_t *const capout[],
                                                   uint32_t pos)
{
    uint32_t res[8][SHA2_W] __attribute__((aligned(64)));
    for (size_t k = 0; k < nw; k++) {
        VSTOREA(res[k], val[k]);
        for (size_t j = 0; j < count; j++)
            if (cap[j] == pos)
                grove_store32_be(capout[j] + 4 * k, res[k][j]);
    }
    grove_wipe(res, sizeof res);
}

/* Bit s set: some lane (j < count) captures at step s (position start + s); bit 63 stands for
 * every step from 63 on. */
static inline uint64_t sha2_chains_capmask(const uint8_t *cap, size_t count, uint32_t start,
                                           unsigned steps)
{
    uint64_t m = 0;
    for (size_t j = 0; cap != NULL && j < count; j++)
        if (cap[j] >= start && cap[j] - start <= steps)
            m |= (uint64_t)1 << (cap[j] - start < 63 ? cap[j] - start : 63);
    return m;
}

/* One chain step: w[16] = the template T with the counter c and the values val ORed in. */
SHA2_TARGET static inline __attribute__((always_inline)) void
sha2_chains_block(V w[SHA2_WN], const V T[16], const V val[8],
                                                 uint32_t c, size_t head, size_t nw,
                                                 size_t ctr_off)
{
    const size_t hb = head / 4, hs = 8 * (head % 4), cb = ctr_off / 4, cs = 8 * (ctr_off % 4);
    for (int t = 0; t < 16; t++)
        w[t] = T[t];
    /* the counter, big-endian at ctr_off */
    V cv = VSET1(c);
    if (cs == 0) {
        w[cb] = VOR(w[cb], cv);
    } else {
        w[cb] = VOR(w[cb], VSRL(cv, (unsigned)cs));
        w[cb + 1] = VOR(w[cb + 1], VSLL(cv, (unsigned)(32 - cs)));
    }
    /* the value at byte offset head */
    for (size_t k = 0; k < nw; k++) {
        if (hs == 0) {
            w[hb + k] = VOR(w[hb + k], val[k]);
        } else {
            w[hb + k] = VOR(w[hb + k], VSRL(val[k], (unsigned)hs));
            w[hb + k + 1] = VOR(w[hb + k + 1], VSLL(val[k], (unsigned)(32 - hs)));
        }
    }
}

/*
 * The steps of the chain kernel. FROM = 4: the counter and the value start at word 4 or later,
 * so the first four rounds see the same words at every step: they ran once (s4) and each step
 * starts from their state. ZERO < 15: words ZERO .. 14 are zero (the data and the 0x80 end
 * before them). Called with constants (the layout too, for SPHINCS+), so that each layout gets
 * its own code with the message schedule terms of the fixed words folded or hoisted out of the
 * loop.
 */
SHA2_TARGET static inline __attribute__((always_inline)) void
sha2_chains_steps(V val[8], const V T[16], const V s4[8], const V iv[8], size_t head, size_t nw,
                  size_t ctr_off, uint32_t start, unsigned steps, size_t count,
                  const uint8_t *cap, uint8_t *const capout[], const V *B, const int FROM,
                  const int ZERO)
{
    V w[SHA2_WN], s[8];
    const uint64_t capmask = sha2_chains_capmask(cap, count, start, steps);
    for (unsigned st = 0; st <= steps; st++) {
        if ((capmask >> (st < 63 ? st : 63)) & 1)
            sha2_chains_capture(val, nw, count, cap, capout, start + st);
        if (st == steps)
            break;
        sha2_chains_block(w, T, val, start + st, head, nw, ctr_off);
        for (int t = 0; t < FROM; t++)
            w[t] = T[t]; /* untouched by the block: said again for the compiler */
        for (int t = ZERO; t < 15; t++)
            w[t] = VZERO();
        if (ZERO < 15)
            w[15] = T[15];
        for (int t = 0; t < 8; t++)
            s[t] = s4[t];
        GROVE_SHA2_ROUNDS_RANGE(s, w, FROM, 64, SHA2_WN);
        if (B != NULL) { /* lanes before their first position keep their value */
            VMASK m = VGE(VSET1(start + st), *B);
            for (size_t k = 0; k < nw; k++)
                val[k] = VSELECT(m, ADD(s[k], iv[k]), val[k]);
        } else {
            for (size_t k = 0; k < nw; k++)
                val[k] = ADD(s[k], iv[k]);
        }
    }
}

/*
 * grove_sha256_chains on up to SHA2_W lanes; the values stay in registers. begin != NULL: lane j
 * takes only the steps at positions begin[j] and later (grove_sha256_chains_from).
 */
SHA2_TARGET void SHA2_CHAINS_NAME(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                  uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                                  uint8_t *const capout[], const uint32_t init[8], uint64_t pcount,
                                  const uint8_t *begin)
{
    const size_t nw = n / 4;
    /* SPHINCS+ (head 22, counter at 18): the four first rounds fixed */
    const int spx = head == 22 && ctr_off == 18 && (n == 16 || n == 24 || n == 32) &&
                    pcount < ((uint64_t)1 << 28); /* the high word of the bit length is 0 */
    V T[16], val[8], w[SHA2_WN], iv[8], s4[8], bv = VZERO();
    sha2_chains_load(lanes, head, n, ctr_off, count, pcount, T, val);
    if (begin != NULL) {
        uint32_t b[SHA2_W] __attribute__((aligned(64)));
        for (size_t j = 0; j < SHA2_W; j++)
            b[j] = begin[j < count ? j : 0];
        bv = VLOADA(b);
    }
    const V *B = begin != NULL ? &bv : NULL;
    for (int t = 0; t < 8; t++)
        iv[t] = s4[t] = VSET1(init[t]);
    if (spx) {
        for (int t = 0; t < 16; t++)
            w[t] = T[t];
        GROVE_SHA2_ROUNDS_RANGE(s4, w, 0, 4, SHA2_WN);
    }
    /* n = 16: data and 0x80 end in word 9 (words 10 .. 14 zero); 24, 32: in word 11, 13 */
    if (spx && n == 16)
        sha2_chains_steps(val, T, s4, iv, 22, 4, 18, start, steps, count, cap, capout, B, 4, 10);
    else if (spx && n == 24)
        sha2_chains_steps(val, T, s4, iv, 22, 6, 18, start, steps, count, cap, capout, B, 4, 12);
    else if (spx)
        sha2_chains_steps(val, T, s4, iv, 22, 8, 18, start, steps, count, cap, capout, B, 4, 14);
    else
        sha2_chains_steps(val, T, s4, iv, head, nw, ctr_off, start, steps, count, cap, capout, B,
                          0, 15);
#ifdef SHA2_STORE_LANES
    uint8_t *vout[SHA2_W];
    for (size_t j = 0; j < SHA2_W; j++)
        vout[j] = j < count ? lanes[j] + head : NULL;
    for (size_t k = nw; k < 8; k++)
        val[k] = VZERO(); /* the words past n: transposed, never stored */
    if (!SHA2_STORE_LANES(vout, n, val, count))
#endif
    {
        uint32_t res[8][SHA2_W] __attribute__((aligned(64)));
        for (size_t k = 0; k < nw; k++) {
            VSTOREA(res[k], val[k]);
            for (size_t j = 0; j < count; j++)
                grove_store32_be(lanes[j] + head + 4 * k, res[k][j]);
        }
        grove_wipe(res, sizeof res);
    }
    grove_chains_last_counter(lanes, count, ctr_off, start, steps, begin);
    for (size_t k = 0; k < 8; k++)
        val[k] = VZERO();
}
#endif

#undef SHA2_BLOCK
#undef SHA2_STORE_BE
