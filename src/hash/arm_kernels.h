/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The AArch64 hash kernels (internal; built where GROVE_HAVE_ARM_TARGETS, each file with its own
 * -march, picked by dispatch.c from the hwcaps in common/cpu.c):
 *   *_neon        Advanced SIMD (every ARMv8-A core)
 *   *_neon_sha3   with the SHA-3 extension (EOR3, BCAX, XAR, RAX1; HWCAP_SHA3)
 *   sha256_*_armv8   the SHA-2 extension (HWCAP_SHA2); sha512_*_armv8 FEAT_SHA512 (HWCAP_SHA512)
 * The Keccak kernels take two interleaved states st[25][2] (see keccak_simd.h). The NEON SHA-2
 * kernels take four SHA-256 or two SHA-512 lanes, in the layouts of sha2_simd.h (state
 * st[8][W], blocks[W][64 or 128]) and with the contracts of the x86 ones declared there.
 */
#ifndef GROVE_HASH_ARM_KERNELS_H
#define GROVE_HASH_ARM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#define GROVE_ARM_KECCAK_DECLARE(sfx)                                                          \
    void grove_keccakf1600_x2_##sfx(uint64_t *st);                                             \
    void grove_shake_x2_##sfx(uint32_t rate, uint8_t *const out[], size_t outlen,              \
                              const uint8_t *const in[], size_t inlen, size_t lanes);          \
    void grove_shake256_chains_x2_##sfx(uint8_t *const lanes[], size_t head, size_t n,         \
                                        size_t ctr_off, uint32_t start, unsigned steps,        \
                                        size_t count, const uint8_t *cap,                      \
                                        uint8_t *const capout[], const uint8_t *begin);
GROVE_ARM_KECCAK_DECLARE(neon)
GROVE_ARM_KECCAK_DECLARE(neon_sha3)

void grove_sha256_compress_armv8(uint32_t s[8], const uint8_t *blocks, size_t nblocks);
void grove_sha512_compress_armv8(uint64_t s[8], const uint8_t *blocks, size_t nblocks);

void grove_sha256_x4_neon(uint32_t *st, const uint8_t *blocks);
void grove_sha512_x2_neon(uint64_t *st, const uint8_t *blocks);
int grove_sha256_many_x4_neon(uint8_t *const out[], size_t outlen, const uint32_t init[8],
                              uint64_t pcount, const uint8_t *const in[], size_t inlen,
                              size_t lanes);
int grove_sha512_many_x2_neon(uint8_t *const out[], size_t outlen, const uint64_t init[8],
                              uint64_t pcount, const uint8_t *const in[], size_t inlen,
                              size_t lanes);
void grove_sha256_chains_x4_neon(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                 uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                                 uint8_t *const capout[], const uint32_t init[8],
                                 uint64_t pcount, const uint8_t *begin);

#endif
