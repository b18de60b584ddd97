/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SHA-2 SIMD and SHA-NI kernels (internal). The multi-lane kernels compress one block per lane:
 * state interleaved as st[8][W] (word t of lane j at st[W * t + j]), blocks contiguous as
 * blocks[W][64] (SHA-256) or blocks[W][128] (SHA-512).
 */
#ifndef GROVE_HASH_SHA2_SIMD_H
#define GROVE_HASH_SHA2_SIMD_H

#include <stddef.h>
#include <stdint.h>

extern const uint32_t grove_sha256_k[64];
extern const uint64_t grove_sha512_k[80];

void grove_sha256_compress_shani(uint32_t s[8], const uint8_t *blocks, size_t nblocks);
/* One block each for count (1 .. 4) independent states st[j][8], interleaved (SHA-NI). */
void grove_sha256_blocks_x4_shani(uint32_t *const st[], const uint8_t *const blocks[],
                                  size_t count);
void grove_sha256_x8_avx2(uint32_t *st, const uint8_t *blocks);
void grove_sha256_x16_avx512(uint32_t *st, const uint8_t *blocks);
void grove_sha512_x4_avx2(uint64_t *st, const uint8_t *blocks);
void grove_sha512_x8_avx512(uint64_t *st, const uint8_t *blocks);

/* Whole messages (after a block-aligned prefix state) in one pass; 0 if they cannot run. */
int grove_sha256_many_x16_avx512(uint8_t *const out[], size_t outlen, const uint32_t init[8],
                                 uint64_t pcount, const uint8_t *const in[], size_t inlen,
                                 size_t lanes);
int grove_sha512_many_x8_avx512(uint8_t *const out[], size_t outlen, const uint64_t init[8],
                                uint64_t pcount, const uint8_t *const in[], size_t inlen,
                                size_t lanes);
int grove_sha256_many_x8_avx2(uint8_t *const out[], size_t outlen, const uint32_t init[8],
                              uint64_t pcount, const uint8_t *const in[], size_t inlen,
                              size_t lanes);
int grove_sha512_many_x4_avx2(uint8_t *const out[], size_t outlen, const uint64_t init[8],
                              uint64_t pcount, const uint8_t *const in[], size_t inlen,
                              size_t lanes);

/* grove_sha256_chains on up to 16 (AVX-512) or 8 (AVX2) lanes; the values stay in registers.
 * begin != NULL: lane j takes the steps at positions begin[j] and later only. */
void grove_sha256_chains_x16_avx512(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                    uint32_t start, unsigned steps, size_t count,
                                    const uint8_t *cap, uint8_t *const capout[],
                                    const uint32_t init[8], uint64_t pcount,
                                    const uint8_t *begin);
/* The same on 1 .. 4 lanes with SHA-NI, their compressions interleaved (x86-64 only). */
void grove_sha256_chains_x4_shani(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                  uint32_t start, unsigned steps, size_t count,
                                  const uint8_t *cap, uint8_t *const capout[],
                                  const uint32_t init[8], uint64_t pcount, const uint8_t *begin);
void grove_sha256_chains_x8_avx2(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                 uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                                 uint8_t *const capout[], const uint32_t init[8],
                                 uint64_t pcount, const uint8_t *begin);

/*
 * For the gathers of the many_* kernels: offs[j] = in[j] - in[0] for the nlanes vector lanes
 * (in[0] stands in for j >= lanes). Returns 0 if an input lies more than 2^30 bytes away.
 */
static inline int grove_sha2_gather_offsets(int32_t *offs, const uint8_t *const in[],
                                            size_t lanes, size_t nlanes)
{
    const uint8_t *base = in[0];
    for (size_t j = 0; j < nlanes; j++) {
        ptrdiff_t d = in[j < lanes ? j : 0] - base;
        if (d < -(ptrdiff_t)0x40000000 || d > (ptrdiff_t)0x40000000)
            return 0;
        offs[j] = (int32_t)d;
    }
    return 1;
}

/*
 * The rounds of the multi-lane kernels, written once: rounds FROM .. TO - 1 on the working state
 * vectors s[8] (a .. h after FROM rounds; updated in place, no feed-forward). w[WN] holds the
 * message words, the caller fills w[0..15]. WN = TO: the message schedule fills the rest first,
 * in a pass of its own (AVX2: interleaved with the rounds, 16 message and 8 state vectors
 * overflow the 16 registers and the compiler spills at random); WN = 16: w is a ring that the
 * schedule updates round by round (AVX-512, 32 registers: less stack, which matters as callers
 * wipe the stack their secret computations used). The including kernel defines the vector type
 * V and, on it, ADD, XOR, BSIG0, BSIG1, SSIG0, SSIG1, CH(e, f, g), MAJ(a, b, c, ab, bc)
 * (ab = a ^ b and bc = b ^ c are at hand: a ^ b of one round is b ^ c of the next, so
 * Maj = b ^ (ab & bc) costs three operations), and KSPLAT(i): round constant i in every lane.
 */
#define GROVE_SHA2_ROUNDS_RANGE(s, w, FROM, TO, WN)                                         \
    do {                                                                                    \
        if ((WN) > 16)                                                                      \
            _Pragma("GCC unroll 80") for (int i = 16; i < (TO); i++)                        \
                (w)[i % (WN)] = ADD(ADD(SSIG1((w)[(i - 2) % (WN)]), (w)[(i - 7) % (WN)]),   \
                                    ADD(SSIG0((w)[(i - 15) % (WN)]), (w)[(i - 16) % (WN)])); \
        V a = (s)[0], b = (s)[1], c = (s)[2], d = (s)[3], e = (s)[4], f = (s)[5];           \
        V g = (s)[6], hh = (s)[7], bc = XOR(b, c);                                          \
        _Pragma("GCC unroll 80") for (int i = (FROM); i < (TO); i++) {                      \
            if ((WN) == 16 && i >= 16)                                                      \
                (w)[i & 15] = ADD(ADD(SSIG1((w)[(i - 2) & 15]), (w)[(i - 7) & 15]),         \
                                  ADD(SSIG0((w)[(i - 15) & 15]), (w)[i & 15]));             \
            V t1 = ADD(ADD(hh, BSIG1(e)), ADD(CH(e, f, g), ADD(KSPLAT(i), (w)[i % (WN)]))); \
            V ab = XOR(a, b);                                                               \
            V t2 = ADD(BSIG0(a), MAJ(a, b, c, ab, bc));                                     \
            bc = ab;                                                                        \
            hh = g;                                                                         \
            g = f;                                                                          \
            f = e;                                                                          \
            e = ADD(d, t1);                                                                 \
            d = c;                                                                          \
            c = b;                                                                          \
            b = a;                                                                          \
            a = ADD(t1, t2);                                                                \
        }                                                                                   \
        (s)[0] = a;                                                                         \
        (s)[1] = b;                                                                         \
        (s)[2] = c;                                                                         \
        (s)[3] = d;                                                                         \
        (s)[4] = e;                                                                         \
        (s)[5] = f;                                                                         \
        (s)[6] = g;                                                                         \
        (s)[7] = hh;                                                                        \
    } while (0)

/* All NR rounds (64: SHA-256, 80: SHA-512) of one block (w[WN] as above); the result is added
 * into s. */
#define GROVE_SHA2_ROUNDS(s, w, NR, WN)                                                     \
    do {                                                                                    \
        V grove_r_[8];                                                                      \
        for (int grove_t_ = 0; grove_t_ < 8; grove_t_++)                                    \
            grove_r_[grove_t_] = (s)[grove_t_];                                             \
        GROVE_SHA2_ROUNDS_RANGE(grove_r_, w, 0, NR, WN);                                    \
        for (int grove_t_ = 0; grove_t_ < 8; grove_t_++)                                   \
            (s)[grove_t_] = ADD((s)[grove_t_], grove_r_[grove_t_]);                         \
    } while (0)

#endif
