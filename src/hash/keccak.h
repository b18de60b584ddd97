/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Keccak-f[1600] and the FIPS 202 sponges: SHA3-256, SHA3-512, SHAKE128, SHAKE256.
 *
 * A grove_keccak_ctx absorbs any number of pieces, then squeezes any number of pieces; it may
 * be copied at any point (e.g. after a common prefix). The *_many functions process batches of
 * independent equal-length inputs: they are the entry points the SIMD kernels accelerate.
 */
#ifndef GROVE_HASH_KECCAK_H
#define GROVE_HASH_KECCAK_H

#include <stddef.h>
#include <stdint.h>

#include "grove/hash.h" /* the one-shot grove_sha3_256 .. grove_shake256 */

#define GROVE_SHAKE128_RATE 168
#define GROVE_SHAKE256_RATE 136
#define GROVE_SHA3_256_RATE 136
#define GROVE_SHA3_512_RATE 72

typedef struct {
    uint64_t s[25];
    uint32_t pos;      /* byte position inside the current block */
    uint32_t rate;     /* block size in bytes */
    uint8_t dsuffix;   /* domain bits + first padding bit: 0x06 SHA-3, 0x1F SHAKE */
    uint8_t squeezing; /* 0 while absorbing */
} grove_keccak_ctx;

/* The permutation of the selected kernel, and the portable reference kernel. */
void grove_keccakf1600(uint64_t s[25]);
void grove_keccakf1600_portable(uint64_t s[25]);
/* The portable C kernel compiled for BMI1/BMI2 (x86 only). */
void grove_keccakf1600_bmi(uint64_t s[25]);
/*
 * Portable SHAKE256 chains in the SPHINCS+ layout (head = n + 32 bytes, counter at n + 28,
 * n = 16, 24 or 32), the semantics of grove_shake256_chains plus per-lane start positions
 * (begin, may be NULL) as in grove_shake256_chains_from; plain and BMI1/BMI2 (x86) builds.
 * grove_shake256_chains picks them on the portable paths; tests call them directly.
 */
void grove_shake256_chains_portable(uint8_t *const lanes[], size_t n, uint32_t start,
                                    unsigned steps, size_t count, const uint8_t *cap,
                                    uint8_t *const capout[], const uint8_t *begin);
void grove_shake256_chains_bmi(uint8_t *const lanes[], size_t n, uint32_t start, unsigned steps,
                               size_t count, const uint8_t *cap, uint8_t *const capout[],
                               const uint8_t *begin);
/* Permute count independent states. */
void grove_keccakf1600_many(uint64_t (*states)[25], size_t count);

void grove_keccak_init(grove_keccak_ctx *c, uint32_t rate, uint8_t dsuffix);
void grove_shake128_init(grove_keccak_ctx *c);
void grove_shake256_init(grove_keccak_ctx *c);
void grove_sha3_256_init(grove_keccak_ctx *c);
void grove_sha3_512_init(grove_keccak_ctx *c);
void grove_keccak_absorb(grove_keccak_ctx *c, const uint8_t *in, size_t len);
/* Squeeze len bytes; the first call ends absorption. May be called repeatedly. */
void grove_keccak_squeeze(grove_keccak_ctx *c, uint8_t *out, size_t len);


/* For i < count: out[i] = SHAKE(in[i][0..inlen)) truncated to outlen bytes. */
void grove_shake128_many(uint8_t *const out[], size_t outlen, const uint8_t *const in[],
                         size_t inlen, size_t count);
void grove_shake256_many(uint8_t *const out[], size_t outlen, const uint8_t *const in[],
                         size_t inlen, size_t count);

/*
 * Iterated SHAKE256 over many lanes (hash chains). Each lanes[i] holds `head` bytes followed
 * by an n-byte value; head and n are multiples of 8, head + n < 136 and n <= 32. For
 * s = 0 .. steps - 1:
 *     store be32(start + s) at byte offset ctr_off of the head (ctr_off + 4 <= head), then
 *     value = SHAKE256(head || value) truncated to n bytes.
 * If cap is not NULL, a lane with cap[i] == start + s copies its value to capout[i] just before
 * step s (and cap[i] == start + steps after the last step). The lanes are updated in place.
 */
void grove_shake256_chains(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                           uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                           uint8_t *const capout[]);

/* grove_shake256_chains with a first position per lane, as grove_sha256_chains_from (0: no
 * fused kernel for this layout, nothing done). */
int grove_shake256_chains_from(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                               const uint8_t *begin, unsigned end, size_t count);

#endif
