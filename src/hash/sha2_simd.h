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

/* grove_sha256_chains on up to 16 lanes with AVX-512; the values stay in registers. */
void grove_sha256_chains_x16_avx512(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                    uint32_t start, unsigned steps, size_t count,
                                    const uint8_t *cap, uint8_t *const capout[],
                                    const uint32_t init[8], uint64_t pcount);

#endif
