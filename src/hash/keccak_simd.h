/* Multi-state Keccak-f[1600] kernels (internal). State layout: st[25][W] (lane i of state j at
 * st[W * i + j]). */
#ifndef GROVE_HASH_KECCAK_SIMD_H
#define GROVE_HASH_KECCAK_SIMD_H

#include <stddef.h>
#include <stdint.h>

void grove_keccakf1600_x4_avx2(uint64_t *st);   /* W = 4 */
void grove_keccakf1600_x8_avx512(uint64_t *st); /* W = 8 */

/* SHAKE of up to W equal-length messages in one pass (lanes <= W; rate in bytes). */
void grove_shake_x4_avx2(uint32_t rate, uint8_t *const out[], size_t outlen,
                         const uint8_t *const in[], size_t inlen, size_t lanes);
void grove_shake_x8_avx512(uint32_t rate, uint8_t *const out[], size_t outlen,
                           const uint8_t *const in[], size_t inlen, size_t lanes);

/* grove_shake256_chains on up to 8 lanes with AVX-512; the chain values stay in registers. */
void grove_shake256_chains_x8_avx512(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                     uint32_t start, unsigned steps, size_t count,
                                     const uint8_t *cap, uint8_t *const capout[]);

#endif
