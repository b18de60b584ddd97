/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Portable C SHA-256 hash chains (grove_sha256_chains / _chains_from), one lane at a time.
 * Included by sha256.c only, which wraps spxc_chains() once for the plain build and once for
 * its BMI1/BMI2 copy.
 *
 * The SPHINCS+ chain layout (64-byte PK.seed prefix, 22-byte compressed ADRS with the counter
 * at 18, n = 16, 24 or 32 bytes of value, one padded block) fixes much of every compression:
 * message words 0..4 (the ADRS up to the counter's high half, which stays 0) are the same at
 * every step of a chain, so rounds 0..4 run once per chain and the schedule terms made of those
 * words (w0 + s0(w1) ... w4) are added once per chain; the padding and length words are
 * compile-time constants per n, so the compiler folds the zero words and their schedule terms.
 * The value stays in host-order words between steps: each message word is two value halves
 * (the value starts at byte 22, two bytes into word 5). Other layouts walk the block byte-wise
 * through the plain compression.
 *
 * Expects from the includer the macros and functions of sha256.c (BSIG*, SSIG*, CH,
 * sha256_compress_generic, grove_sha256_k).
 */
#ifndef GROVE_HASH_SHA256_CHAIN_PORTABLE_H
#define GROVE_HASH_SHA256_CHAIN_PORTABLE_H

/* One round with the message word already added to its round constant (kw); Maj through the
 * b ^ c carried from the previous round (bc), one operation fewer (see sha256.c). */
#define SPXC_R(a, b, c, d, e, f, g, h, kw)                                                  \
    do {                                                                                    \
        uint32_t t1_ = h + BSIG1(e) + CH(e, f, g) + (kw);                                   \
        uint32_t ab_ = a ^ b;                                                               \
        uint32_t t2_ = BSIG0(a) + ((ab_ & bc) ^ b);                                         \
        bc = ab_;                                                                           \
        d += t1_;                                                                           \
        h = t1_ + t2_;                                                                      \
    } while (0)
#define SPXC_KW(t) (grove_sha256_k[(t)] + w[(t) & 15])
#define SPXC_SCHED(i) (w[(i)] = SSIG1(w[((i) + 14) & 15]) + w[((i) + 9) & 15] +               \
                               SSIG0(w[((i) + 1) & 15]) + w[(i)])
#define SPXC_ROUNDS8(t)                                                                     \
    do {                                                                                    \
        SPXC_R(a, b, c, d, e, f, g, h, SPXC_KW((t) + 0));                                   \
        SPXC_R(h, a, b, c, d, e, f, g, SPXC_KW((t) + 1));                                   \
        SPXC_R(g, h, a, b, c, d, e, f, SPXC_KW((t) + 2));                                   \
        SPXC_R(f, g, h, a, b, c, d, e, SPXC_KW((t) + 3));                                   \
        SPXC_R(e, f, g, h, a, b, c, d, SPXC_KW((t) + 4));                                   \
        SPXC_R(d, e, f, g, h, a, b, c, SPXC_KW((t) + 5));                                   \
        SPXC_R(c, d, e, f, g, h, a, b, SPXC_KW((t) + 6));                                   \
        SPXC_R(b, c, d, e, f, g, h, a, SPXC_KW((t) + 7));                                   \
    } while (0)

/* What one chain keeps between steps: the working variables after rounds 0..4 (in the names
 * the rolled-by-renaming rounds leave them in) and the per-chain parts of words 16..20. */
typedef struct {
    uint32_t mid[8];
    uint32_t c[5];
} spxc_fixed;

/* One chain step of the SPHINCS+ layout: v (nw = N / 4 words) <- SHA-256 block of position
 * ctr, truncated. N is a constant after inlining. */
GROVE_INLINE void spxc_step(uint32_t v[8], const spxc_fixed *fx, const uint32_t init[8],
                             uint32_t ctr, const size_t N)
{
    const size_t nw = N / 4;
    /* The schedule never leaves registers and this frame's spill slots (no wipe of an array:
     * forcing w to memory costs 10 % more instructions; callgrind, sha2-128f sign, 255 M
     * against 231 M in this kernel), as the working variables of every compression. */
    uint32_t w[16];
    w[5] = (ctr << 16) | (v[0] >> 16);
    for (size_t k = 1; k < nw; k++)
        w[5 + k] = (v[k - 1] << 16) | (v[k] >> 16);
    w[5 + nw] = (v[nw - 1] << 16) | 0x8000u;
    for (size_t k = 6 + nw; k < 15; k++)
        w[k] = 0;
    w[15] = (uint32_t)((64 + 22 + N) * 8);
    uint32_t a = fx->mid[0], b = fx->mid[1], c = fx->mid[2], d = fx->mid[3], e = fx->mid[4],
             f = fx->mid[5], g = fx->mid[6], h = fx->mid[7];
    uint32_t bc = e ^ f; /* b ^ c of round 5, whose a, b, c are d, e, f */
    SPXC_R(d, e, f, g, h, a, b, c, SPXC_KW(5));
    SPXC_R(c, d, e, f, g, h, a, b, SPXC_KW(6));
    SPXC_R(b, c, d, e, f, g, h, a, SPXC_KW(7));
    SPXC_ROUNDS8(8);
    /* words 16..20: their terms from words 0..4 come precomputed */
    w[0] = fx->c[0] + w[9] + SSIG1(w[14]);
    w[1] = fx->c[1] + w[10] + SSIG1(w[15]);
    w[2] = fx->c[2] + w[11] + SSIG1(w[0]);
    w[3] = fx->c[3] + w[12] + SSIG1(w[1]);
    w[4] = fx->c[4] + w[13] + SSIG0(w[5]) + SSIG1(w[2]);
    for (int i = 5; i < 16; i++)
        SPXC_SCHED(i);
    SPXC_ROUNDS8(16);
    SPXC_ROUNDS8(24);
    for (int r = 32; r < 64; r += 16) {
        for (int i = 0; i < 16; i++)
            SPXC_SCHED(i);
        SPXC_ROUNDS8(r);
        SPXC_ROUNDS8(r + 8);
    }
    const uint32_t out[8] = {a, b, c, d, e, f, g, h};
    for (size_t k = 0; k < nw; k++)
        v[k] = init[k] + out[k];
}

/* Rounds 0..4 and the per-chain schedule terms of one lane (counter high half 0). */
GROVE_INLINE void spxc_fixed_init(spxc_fixed *fx, const uint8_t *lane, const uint32_t init[8])
{
    uint32_t w[16];
    for (int i = 0; i < 4; i++)
        w[i] = grove_load32_be(lane + 4 * i);
    w[4] = ((uint32_t)lane[16] << 24) | ((uint32_t)lane[17] << 16);
    uint32_t a = init[0], b = init[1], c = init[2], d = init[3], e = init[4], f = init[5],
             g = init[6], h = init[7];
    uint32_t bc = b ^ c;
    SPXC_R(a, b, c, d, e, f, g, h, SPXC_KW(0));
    SPXC_R(h, a, b, c, d, e, f, g, SPXC_KW(1));
    SPXC_R(g, h, a, b, c, d, e, f, SPXC_KW(2));
    SPXC_R(f, g, h, a, b, c, d, e, SPXC_KW(3));
    SPXC_R(e, f, g, h, a, b, c, d, SPXC_KW(4));
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
    fx->c[3] = w[3] + SSIG0(w[4]);
    fx->c[4] = w[4];
}

/* One lane of the SPHINCS+ layout from position `from` to `to` (to <= 65536). */
GROVE_INLINE void spxc_lane(uint8_t *lane, const uint32_t init[8], uint32_t start,
                                  uint32_t from, uint32_t to, const uint8_t *cap, uint8_t *capout, const size_t N)
{
    const size_t nw = N / 4;
    spxc_fixed fx;
    uint32_t v[8] = {0};
    spxc_fixed_init(&fx, lane, init);
    for (size_t k = 0; k < nw; k++)
        v[k] = grove_load32_be(lane + 22 + 4 * k);
    /* a capture before the lane's first position sees the value it starts with */
    const int early = cap != NULL && *cap >= start && *cap < from;
    for (uint32_t pos = from;; pos++) {
        if (cap != NULL && (*cap == pos || (early && pos == from)))
            for (size_t k = 0; k < nw; k++)
                grove_store32_be(capout + 4 * k, v[k]);
        if (pos >= to)
            break;
        spxc_step(v, &fx, init, pos, N);
    }
    for (size_t k = 0; k < nw; k++)
        grove_store32_be(lane + 22 + 4 * k, v[k]);
    /* v and fx are not wiped here: they live in the kernel's own frame (sha256.c runs it
     * noinline), which the entry point burns once after all lanes (grove_burn_stack_small); two
     * grove_wipe calls a lane cost 4.4 M instructions in a SHA2-256f signature (callgrind). */
}

/* Any other layout: the block byte-wise through the plain compression. */
GROVE_INLINE void spxc_lane_any(uint8_t *lane, size_t head, size_t n, size_t ctr_off,
                                      const uint32_t init[8], uint64_t pcount, uint32_t start, uint32_t from,
                                      uint32_t to, const uint8_t *cap, uint8_t *capout)
{
    uint8_t blk[64];
    uint32_t s[8];
    memset(blk, 0, sizeof blk);
    memcpy(blk, lane, head + n);
    blk[head + n] = 0x80;
    grove_store64_be(blk + 56, (pcount + head + n) << 3);
    const int early = cap != NULL && *cap >= start && *cap < from;
    for (uint32_t pos = from;; pos++) {
        if (cap != NULL && (*cap == pos || (early && pos == from)))
            memcpy(capout, blk + head, n);
        if (pos >= to)
            break;
        grove_store32_be(blk + ctr_off, pos);
        memcpy(s, init, sizeof s);
        sha256_compress_generic(s, blk, 1);
        for (size_t k = 0; k < n / 4; k++)
            grove_store32_be(blk + head + 4 * k, s[k]);
    }
    memcpy(lane + head, blk + head, n);
    grove_wipe(blk, sizeof blk);
    grove_wipe(s, sizeof s);
}

/* The kernel's body (struct grove_hash_kernels' sha256_chains_few): lane j walks from
 * max(start, begin[j]) to start + steps. */
GROVE_INLINE void spxc_chains(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                 uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                                 uint8_t *const capout[], const uint32_t init[8], uint64_t pcount,
                                 const uint8_t *begin)
{
    const uint64_t end = (uint64_t)start + steps;
    const int spx = head == 22 && ctr_off == 18 && pcount == 64 && end <= 65536;
    for (size_t j = 0; j < count; j++) {
        uint32_t from = start;
        if (begin != NULL && begin[j] > from)
            from = begin[j] < end ? begin[j] : (uint32_t)end;
        const uint8_t *cj = cap != NULL ? cap + j : NULL;
        uint8_t *co = cap != NULL ? capout[j] : NULL;
        if (spx && n == 16)
            spxc_lane(lanes[j], init, start, from, (uint32_t)end, cj, co, 16);
        else if (spx && n == 24)
            spxc_lane(lanes[j], init, start, from, (uint32_t)end, cj, co, 24);
        else if (spx && n == 32)
            spxc_lane(lanes[j], init, start, from, (uint32_t)end, cj, co, 32);
        else
            spxc_lane_any(lanes[j], head, n, ctr_off, init, pcount, start, from,
                          (uint32_t)end,
                                cj, co);
    }
    grove_chains_last_counter(lanes, count, ctr_off, start, steps, begin);
}

#undef SPXC_R
#undef SPXC_KW
#undef SPXC_SCHED
#undef SPXC_ROUNDS8

#endif
