/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Keccak-f[1600] (portable kernel) and the FIPS 202 sponge functions. */
#include <string.h>

#include "common/util.h"
#include "hash/dispatch.h"
#include "common/burn.h"
#include "hash/keccak.h"
#include "hash/keccak_round.h"

/* Lanes hashed per batch call by the portable chain walk (any size works; this bounds the
 * stack). */
#define CHAINS_SLICE 1024

#define KT uint64_t
#define KXOR(a, b) ((a) ^ (b))
#define KXOR5(a, b, c, d, e) ((a) ^ (b) ^ (c) ^ (d) ^ (e))
#define KROL(a, n) (((a) << (n)) | ((a) >> (64 - (n))))
#define KCHI(a, b, c) ((a) ^ (~(b) & (c)))
#define KRC(r) grove_keccak_rc[r]

GROVE_INLINE void keccakf1600_generic(uint64_t st[25])
{
    KECCAK_DECLARE_LANES(A);
    KECCAK_DECLARE_LANES(E);
#define LOAD_LANE(v, i) v = st[i]
#define STORE_LANE(v, i) st[i] = v
    KECCAK_FOR_LANES(A, LOAD_LANE);
    KECCAK_PERMUTE(A, E);
    KECCAK_FOR_LANES(A, STORE_LANE);
#undef LOAD_LANE
#undef STORE_LANE
}

void grove_keccakf1600_portable(uint64_t st[25])
{
    keccakf1600_generic(st);
}

#if GROVE_HAVE_X86_TARGETS
/* The same C code compiled for BMI1/BMI2 (andn, rorx); picked when the CPU has them. */
__attribute__((target("bmi,bmi2"))) void grove_keccakf1600_bmi(uint64_t st[25])
{
    keccakf1600_generic(st);
}
#endif

void grove_keccakf1600(uint64_t s[25])
{
    grove_hash_kernels()->keccakf1600(s);
}

#define MAX_W 8

/* Full (and nearly full) groups of states through the wide kernel; returns how many were done.
 * Kept out of line so callers without a wide kernel (e.g. embedded builds) pay no stack. */
__attribute__((noinline)) static size_t permute_wide(const struct grove_hash_kernels *k,
                                                     uint64_t (*states)[25], size_t count)
{
    const size_t w = k->keccak_w;
    size_t i = 0;
    {
        uint64_t st[25 * MAX_W];
        for (; i < count && count - i >= k->keccak_wide_min; i += w) {
            size_t lanes = count - i < w ? count - i : w;
            memset(st, 0, sizeof st);
            for (size_t j = 0; j < lanes; j++)
                for (int l = 0; l < 25; l++)
                    st[w * (size_t)l + j] = states[i + j][l];
            k->keccak_xw(st);
            for (size_t j = 0; j < lanes; j++)
                for (int l = 0; l < 25; l++)
                    states[i + j][l] = st[w * (size_t)l + j];
        }
        grove_wipe(st, sizeof st);
    }
    return i < count ? i : count;
}

void grove_keccakf1600_many(uint64_t (*states)[25], size_t count)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    if (k->keccakf1600_many != NULL) {
        k->keccakf1600_many(states, count);
        return;
    }
    size_t i = k->keccak_w > 1 ? permute_wide(k, states, count) : 0;
    for (; i < count; i++)
        k->keccakf1600(states[i]);
}

/* ---- sponge ---------------------------------------------------------------------------- */

void grove_keccak_init(grove_keccak_ctx *c, uint32_t rate, uint8_t dsuffix)
{
    memset(c->s, 0, sizeof c->s);
    c->pos = 0;
    c->rate = rate;
    c->dsuffix = dsuffix;
    c->squeezing = 0;
}

void grove_shake128_init(grove_keccak_ctx *c)
{
    grove_keccak_init(c, GROVE_SHAKE128_RATE, 0x1F);
}
void grove_shake256_init(grove_keccak_ctx *c)
{
    grove_keccak_init(c, GROVE_SHAKE256_RATE, 0x1F);
}
void grove_sha3_256_init(grove_keccak_ctx *c)
{
    grove_keccak_init(c, GROVE_SHA3_256_RATE, 0x06);
}
void grove_sha3_512_init(grove_keccak_ctx *c)
{
    grove_keccak_init(c, GROVE_SHA3_512_RATE, 0x06);
}

GROVE_INLINE void xor_byte(uint64_t *s, size_t pos, uint8_t b)
{
    s[pos >> 3] ^= (uint64_t)b << (8 * (pos & 7));
}

GROVE_INLINE uint8_t get_byte(const uint64_t *s, size_t pos)
{
    return (uint8_t)(s[pos >> 3] >> (8 * (pos & 7)));
}

void grove_keccak_absorb(grove_keccak_ctx *c, const uint8_t *in, size_t len)
{
    void (*permute)(uint64_t *) = grove_hash_kernels()->keccakf1600;
    size_t pos = c->pos, rate = c->rate;
    /* Bytes up to the next lane boundary, then whole lanes, then the tail. */
    while (len > 0 && (pos & 7) != 0) {
        xor_byte(c->s, pos++, *in++);
        len--;
        if (pos == rate) {
            permute(c->s);
            pos = 0;
        }
    }
    while (len >= 8) {
        c->s[pos >> 3] ^= grove_load64_le(in);
        pos += 8;
        in += 8;
        len -= 8;
        if (pos == rate) {
            permute(c->s);
            pos = 0;
        }
    }
    while (len > 0) {
        xor_byte(c->s, pos++, *in++);
        len--;
        if (pos == rate) {
            permute(c->s);
            pos = 0;
        }
    }
    c->pos = (uint32_t)pos;
}

void grove_keccak_squeeze(grove_keccak_ctx *c, uint8_t *out, size_t len)
{
    void (*permute)(uint64_t *) = grove_hash_kernels()->keccakf1600;
    size_t pos = c->pos, rate = c->rate;
    if (!c->squeezing) {
        xor_byte(c->s, pos, c->dsuffix);
        xor_byte(c->s, rate - 1, 0x80);
        permute(c->s);
        pos = 0;
        c->squeezing = 1;
    }
    while (len > 0) {
        if (pos == rate) {
            permute(c->s);
            pos = 0;
        }
        if ((pos & 7) == 0 && len >= 8 && pos + 8 <= rate) {
            grove_store64_le(out, c->s[pos >> 3]);
            out += 8;
            pos += 8;
            len -= 8;
        } else {
            *out++ = get_byte(c->s, pos++);
            len--;
        }
    }
    c->pos = (uint32_t)pos;
}

void grove_sha3_256(uint8_t out[32], const uint8_t *in, size_t len)
{
    grove_keccak_ctx c;
    grove_sha3_256_init(&c);
    grove_keccak_absorb(&c, in, len);
    grove_keccak_squeeze(&c, out, 32);
}

void grove_sha3_512(uint8_t out[64], const uint8_t *in, size_t len)
{
    grove_keccak_ctx c;
    grove_sha3_512_init(&c);
    grove_keccak_absorb(&c, in, len);
    grove_keccak_squeeze(&c, out, 64);
}

void grove_shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)
{
    grove_keccak_ctx c;
    grove_shake128_init(&c);
    grove_keccak_absorb(&c, in, inlen);
    grove_keccak_squeeze(&c, out, outlen);
    grove_wipe(&c, sizeof c);
}

void grove_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)
{
    grove_keccak_ctx c;
    grove_shake256_init(&c);
    grove_keccak_absorb(&c, in, inlen);
    grove_keccak_squeeze(&c, out, outlen);
    grove_wipe(&c, sizeof c);
}

/*
 * `lanes` (<= w) sponges side by side on interleaved states: absorb inlen bytes of each input,
 * pad, squeeze outlen bytes into each output.
 */
__attribute__((noinline)) static void shake_wide(const struct grove_hash_kernels *k, uint32_t rate,
                                                 uint8_t *const out[],
                       size_t outlen, const uint8_t *const in[], size_t inlen, size_t lanes)
{
    const size_t w = k->keccak_w, rw = rate / 8;
    uint64_t st[25 * MAX_W];
    uint8_t tail[MAX_W][200];
    memset(st, 0, sizeof st);
    size_t full = inlen / rate, rem = inlen % rate;
    for (size_t b = 0; b < full; b++) {
        for (size_t j = 0; j < lanes; j++) {
            const uint8_t *p = in[j] + b * rate;
            for (size_t l = 0; l < rw; l++)
                st[w * l + j] ^= grove_load64_le(p + 8 * l);
        }
        k->keccak_xw(st);
    }
    /* last block: the remaining bytes and the padding */
    for (size_t j = 0; j < lanes; j++) {
        memset(tail[j], 0, rate);
        if (rem)
            memcpy(tail[j], in[j] + full * rate, rem);
        tail[j][rem] ^= 0x1F;
        tail[j][rate - 1] ^= 0x80;
        for (size_t l = 0; l < rw; l++)
            st[w * l + j] ^= grove_load64_le(tail[j] + 8 * l);
    }
    k->keccak_xw(st);
    for (size_t o = 0; o < outlen;) {
        size_t take = outlen - o < rate ? outlen - o : rate;
        for (size_t j = 0; j < lanes; j++) {
            for (size_t l = 0; 8 * l < take; l++)
                grove_store64_le(tail[j] + 8 * l, st[w * l + j]);
            memcpy(out[j] + o, tail[j], take);
        }
        o += take;
        if (o < outlen)
            k->keccak_xw(st);
    }
    grove_wipe(st, sizeof st);
    grove_wipe(tail, sizeof tail);
}

static void shake_many(uint32_t rate, uint8_t *const out[], size_t outlen,
                       const uint8_t *const in[], size_t inlen, size_t count)
{
    const struct grove_hash_kernels *kern = grove_hash_kernels();
    if (kern->keccak_w > 1) {
        size_t i = 0, w = kern->keccak_w;
        for (; i < count && count - i >= kern->keccak_wide_min; i += w) {
            size_t lanes = count - i < w ? count - i : w;
            if (kern->shake_xw)
                kern->shake_xw(rate, out + i, outlen, in + i, inlen, lanes);
            else
                shake_wide(kern, rate, out + i, outlen, in + i, inlen, lanes);
        }
        if (i > count)
            i = count;
        out += i;
        in += i;
        count -= i;
    }
    if (inlen < rate && outlen <= rate && kern->keccakf1600_many == NULL) {
        /* Fast path: one input block, one output block per message. */
        uint64_t st[25];
        for (size_t i = 0; i < count; i++) {
            memset(st, 0, sizeof st);
            const uint8_t *p = in[i];
            size_t w = 0;
            for (; 8 * w + 8 <= inlen; w++)
                st[w] = grove_load64_le(p + 8 * w);
            for (size_t b = 8 * w; b < inlen; b++)
                xor_byte(st, b, p[b]);
            xor_byte(st, inlen, 0x1F);
            xor_byte(st, rate - 1, 0x80);
            kern->keccakf1600(st);
            uint8_t *o = out[i];
            size_t j = 0;
            for (; j + 8 <= outlen; j += 8)
                grove_store64_le(o + j, st[j >> 3]);
            for (; j < outlen; j++)
                o[j] = get_byte(st, j);
        }
        grove_wipe(st, sizeof st);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        grove_keccak_ctx c;
        grove_keccak_init(&c, rate, 0x1F);
        grove_keccak_absorb(&c, in[i], inlen);
        grove_keccak_squeeze(&c, out[i], outlen);
        grove_wipe(&c, sizeof c);
    }
}

void grove_shake128_many(uint8_t *const out[], size_t outlen, const uint8_t *const in[],
                         size_t inlen, size_t count)
{
    shake_many(GROVE_SHAKE128_RATE, out, outlen, in, inlen, count);
}

void grove_shake256_many(uint8_t *const out[], size_t outlen, const uint8_t *const in[],
                         size_t inlen, size_t count)
{
    shake_many(GROVE_SHAKE256_RATE, out, outlen, in, inlen, count);
}

/*
 * Portable SHAKE256 chains in the SPHINCS+ layout (PK.seed || 32-byte ADRS || value: head =
 * n + 32, the counter at n + 28, n = 16, 24 or 32), one lane at a time: the head words stay in
 * registers, the counter goes straight into its word, and the permutation is inlined into a copy
 * per n, so the compiler folds the lanes that are zero or constant in the first round (13 to 15
 * of the 25 input lanes are zero, two are padding constants). No block is re-absorbed per step.
 */
GROVE_INLINE void shake_chain_lane(uint8_t *lane, uint32_t start, uint32_t from, uint32_t to,
                                   const uint8_t *cap, uint8_t *capout, const size_t N)
{
    const size_t hw = (N + 32) / 8, nw = N / 8, cw = (N + 28) / 8;
    uint64_t H[8], v[4] = {0};
    for (size_t l = 0; l < hw; l++)
        H[l] = grove_load64_le(lane + 8 * l);
    H[cw] &= 0xFFFFFFFFu; /* the counter is the high half of its word */
    for (size_t l = 0; l < nw; l++)
        v[l] = grove_load64_le(lane + hw * 8 + 8 * l);
    const int early = cap != NULL && *cap >= start && *cap < from;
    for (uint32_t pos = from;; pos++) {
        if (cap != NULL && (*cap == pos || (early && pos == from)))
            for (size_t l = 0; l < nw; l++)
                grove_store64_le(capout + 8 * l, v[l]);
        if (pos >= to)
            break;
        /* the input state: a local array the compiler folds (its constant lanes) and mostly
         * keeps in registers; what it spills is wiped by the entry point (grove_burn_stack_small) */
        uint64_t S[25];
        const uint64_t cb = ((pos & 0xFFu) << 24) | ((pos & 0xFF00u) << 8) |
                            ((pos >> 8) & 0xFF00u) | (pos >> 24);
        for (size_t l = 0; l < hw; l++)
            S[l] = H[l];
        S[cw] |= cb << 32;
        for (size_t l = 0; l < nw; l++)
            S[hw + l] = v[l];
        for (size_t l = hw + nw; l < 25; l++)
            S[l] = 0;
        S[hw + nw] = 0x1F;
        S[16] ^= 0x8000000000000000ULL;
        {
            /* The first two rounds written out, so that the zero lanes fold into round 0, and
             * the last two, so that the compiler drops what the value (lanes 0 .. nw - 1) does
             * not need of round 23. */
            KECCAK_DECLARE_LANES(A);
            KECCAK_DECLARE_LANES(E);
#define LOAD_LANE(x, i) x = S[i]
            KECCAK_FOR_LANES(A, LOAD_LANE);
#undef LOAD_LANE
            KECCAK_ROUND(A, E, 0);
            KECCAK_ROUND(E, A, 1);
            for (int round_ = 2; round_ < 22; round_ += 2) {
                KECCAK_ROUND(A, E, round_);
                KECCAK_ROUND(E, A, round_ + 1);
            }
            KECCAK_ROUND(A, E, 22);
            KECCAK_ROUND(E, A, 23);
            const uint64_t out[4] = {Aba, Abe, Abi, Abo};
            for (size_t l = 0; l < nw; l++)
                v[l] = out[l];
        }
    }
    for (size_t l = 0; l < nw; l++)
        grove_store64_le(lane + hw * 8 + 8 * l, v[l]);
    grove_wipe(v, sizeof v);
}

GROVE_INLINE void shake_chains_body(uint8_t *const lanes[], size_t n, uint32_t start,
                                    unsigned steps, size_t count, const uint8_t *cap,
                                    uint8_t *const capout[], const uint8_t *begin)
{
    const uint64_t end = (uint64_t)start + steps;
    for (size_t j = 0; j < count; j++) {
        uint32_t from = start;
        if (begin != NULL && begin[j] > from)
            from = begin[j] < end ? begin[j] : (uint32_t)end;
        const uint8_t *cj = cap != NULL ? cap + j : NULL;
        uint8_t *co = cap != NULL ? capout[j] : NULL;
        if (n == 16)
            shake_chain_lane(lanes[j], start, from, (uint32_t)end, cj, co, 16);
        else if (n == 24)
            shake_chain_lane(lanes[j], start, from, (uint32_t)end, cj, co, 24);
        else
            shake_chain_lane(lanes[j], start, from, (uint32_t)end, cj, co, 32);
    }
    grove_chains_last_counter(lanes, count, n + 28, start, steps, begin);
}

/*
 * The chain kernels keep their lanes in locals, which the compiler spills to the stack under
 * register pressure (25 + 25 lanes); a chain may start from a secret (WOTS+ keys, and PRF in
 * this layout takes SK.seed as its value). So the work runs in a frame of its own (noinline) and
 * the entry point wipes that frame's stack when it returns: GROVE_BURN_STACK_SMALL bytes,
 * above the frames gcc and clang give it (about 530 bytes with gcc 12 -O2; test_wipe checks).
 */
static __attribute__((noinline)) void shake_chains_portable_run(uint8_t *const lanes[], size_t n,
                                                                uint32_t start, unsigned steps,
                                                                size_t count, const uint8_t *cap,
                                                                uint8_t *const capout[],
                                                                const uint8_t *begin)
{
    shake_chains_body(lanes, n, start, steps, count, cap, capout, begin);
}

void grove_shake256_chains_portable(uint8_t *const lanes[], size_t n, uint32_t start,
                                    unsigned steps, size_t count, const uint8_t *cap,
                                    uint8_t *const capout[], const uint8_t *begin)
{
    shake_chains_portable_run(lanes, n, start, steps, count, cap, capout, begin);
    grove_burn_stack_small();
}

#if GROVE_HAVE_X86_TARGETS
static __attribute__((noinline, target("bmi,bmi2"))) void
shake_chains_bmi_run(uint8_t *const lanes[], size_t n, uint32_t start, unsigned steps,
                     size_t count, const uint8_t *cap, uint8_t *const capout[],
                     const uint8_t *begin)
{
    shake_chains_body(lanes, n, start, steps, count, cap, capout, begin);
}

void grove_shake256_chains_bmi(uint8_t *const lanes[], size_t n, uint32_t start, unsigned steps,
                               size_t count, const uint8_t *cap, uint8_t *const capout[],
                               const uint8_t *begin)
{
    shake_chains_bmi_run(lanes, n, start, steps, count, cap, capout, begin);
    grove_burn_stack_small();
}
#endif

/* The portable chain kernel for this layout and kernel set, or NULL. */
static void (*shake_chains_portable(const struct grove_hash_kernels *k, size_t head, size_t n,
                                    size_t ctr_off, uint64_t end))(uint8_t *const *, size_t,
                                                                  uint32_t, unsigned, size_t,
                                                                  const uint8_t *,
                                                                  uint8_t *const *,
                                                                  const uint8_t *)
{
    if (k->shake256_chains_x != NULL || (n != 16 && n != 24 && n != 32) || head != n + 32 ||
        ctr_off != n + 28 || end > UINT32_MAX)
        return NULL;
#if GROVE_HAVE_X86_TARGETS
    if (k->keccakf1600 == grove_keccakf1600_bmi)
        return grove_shake256_chains_bmi;
#endif
    return k->keccakf1600 == grove_keccakf1600_portable ? grove_shake256_chains_portable : NULL;
}

/* The fused chain kernels take whole words, the counter within one word, one block, n <= 32. */
static int shake256_chains_fused(const struct grove_hash_kernels *k, size_t head, size_t n,
                                 size_t ctr_off)
{
    return k->shake256_chains_x != NULL && head % 8 == 0 && n % 8 == 0 && n <= 32 &&
           ctr_off % 8 <= 4 && ctr_off + 4 <= head && head + n < GROVE_SHAKE256_RATE;
}

int grove_shake256_chains_from(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                               const uint8_t *begin, unsigned end, size_t count)
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    if (end > 255)
        return 0;
    if (!shake256_chains_fused(k, head, n, ctr_off)) {
        /* without a vector kernel: the portable one, each lane from its own position */
        void (*pc)(uint8_t *const *, size_t, uint32_t, unsigned, size_t, const uint8_t *,
                   uint8_t *const *, const uint8_t *) = shake_chains_portable(k, head, n,
                                                                             ctr_off, end);
        if (pc == NULL)
            return 0;
        pc(lanes, n, 0, end, count, NULL, NULL, begin);
        return 1;
    }
    for (size_t i = 0, m; i < count; i += m) {
        unsigned lo;
        m = grove_chains_group(begin + i, count - i, k->shake256_chains_w, end, &lo);
        if (lo < end)
            k->shake256_chains_x(lanes + i, head, n, ctr_off, lo, end - lo, m, NULL, NULL,
                                 begin + i);
    }
    return 1;
}

void grove_shake256_chains(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                           uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                           uint8_t *const capout[])
{
    const struct grove_hash_kernels *k = grove_hash_kernels();
    size_t i = 0;
    void (*pc)(uint8_t *const *, size_t, uint32_t, unsigned, size_t, const uint8_t *,
               uint8_t *const *, const uint8_t *) =
        shake_chains_portable(k, head, n, ctr_off, (uint64_t)start + steps);
    if (pc != NULL) {
        pc(lanes, n, start, steps, count, cap, capout, NULL);
        return;
    }
    if (shake256_chains_fused(k, head, n, ctr_off)) {
        const size_t w = k->shake256_chains_w;
        for (; i < count && count - i >= k->keccak_wide_min; i += w)
            k->shake256_chains_x(lanes + i, head, n, ctr_off, start, steps,
                                 count - i < w ? count - i : w, cap ? cap + i : NULL,
                                 capout ? capout + i : NULL, NULL);
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
        for (unsigned s = 0; s <= steps; s++) {
            if (cap)
                for (size_t j = 0; j < m; j++)
                    if (cap[done + j] == start + s)
                        memcpy(capout[done + j], L[j] + head, n);
            if (s == steps)
                break;
            for (size_t j = 0; j < m; j++)
                grove_store32_be(L[j] + ctr_off, start + s);
            grove_shake256_many(outs, n, (const uint8_t *const *)L, head + n, m);
        }
    }
}
