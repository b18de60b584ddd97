/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SHA-2 (FIPS 180-4): SHA-224/256/384/512, HMAC (RFC 2104) and MGF1 (RFC 8017).
 *
 * Contexts are plain structs that may be copied: hash a common prefix once ("seeded state"),
 * then copy the context for every message that shares it. The *_many functions hash many
 * independent equal-length messages that share one prefix state; they are the entry points
 * the SIMD kernels accelerate, so callers hand them whole batches.
 */
#ifndef GROVE_HASH_SHA2_H
#define GROVE_HASH_SHA2_H

#include <stddef.h>
#include <stdint.h>

#include "grove/hash.h" /* the one-shot grove_sha224 .. grove_sha512 */

typedef struct {
    uint32_t s[8];
    uint64_t count; /* bytes absorbed so far */
    uint8_t buf[64];
} grove_sha256_ctx;

typedef struct {
    uint64_t s[8];
    uint64_t count; /* bytes absorbed so far (messages < 2^64 bytes) */
    uint8_t buf[128];
} grove_sha512_ctx;

void grove_sha256_init(grove_sha256_ctx *c);
void grove_sha224_init(grove_sha256_ctx *c);
void grove_sha256_update(grove_sha256_ctx *c, const uint8_t *in, size_t len);
/* Writes the first outlen (<= 32) bytes of the digest; the context is wiped. */
void grove_sha256_final(grove_sha256_ctx *c, uint8_t *out, size_t outlen);

void grove_sha512_init(grove_sha512_ctx *c);
void grove_sha384_init(grove_sha512_ctx *c);
void grove_sha512_update(grove_sha512_ctx *c, const uint8_t *in, size_t len);
/* Writes the first outlen (<= 64) bytes of the digest; the context is wiped. */
void grove_sha512_final(grove_sha512_ctx *c, uint8_t *out, size_t outlen);

/*
 * For i < count: out[i] = the first outlen bytes of SHA-256(P || in[i][0..inlen)), where P is
 * what `prefix` has absorbed (NULL: the empty prefix). All messages have the same length.
 */
void grove_sha256_many(uint8_t *const out[], size_t outlen, const grove_sha256_ctx *prefix,
                       const uint8_t *const in[], size_t inlen, size_t count);
void grove_sha512_many(uint8_t *const out[], size_t outlen, const grove_sha512_ctx *prefix,
                       const uint8_t *const in[], size_t inlen, size_t count);

/*
 * grove_sha256_many / grove_sha512_many for messages whose first 16 bytes are public (the
 * SPHINCS+ tweakable hashes: the compressed ADRS comes first): on the portable kernels,
 * one-block messages of the SPHINCS+ lengths after a one-block prefix (SHA-256: 38, 46 or 54
 * bytes after 64; SHA-512: 70 or 86 after 128; outlen 16/24/32 / 24..64) take a folded kernel
 * that compares those 16 bytes between consecutive messages and runs the rounds they fix once
 * per run of equal heads (sha2_onepub_portable.h). Same results as grove_sha*_many.
 */
void grove_sha256_many_pub16(uint8_t *const out[], size_t outlen, const grove_sha256_ctx *prefix,
                             const uint8_t *const in[], size_t inlen, size_t count);
void grove_sha512_many_pub16(uint8_t *const out[], size_t outlen, const grove_sha512_ctx *prefix,
                             const uint8_t *const in[], size_t inlen, size_t count);

/*
 * Iterated SHA-256 over many lanes (hash chains), the SHA-2 twin of grove_shake256_chains: each
 * lanes[i] holds `head` bytes then an n-byte value (head + n + 9 <= 64, n a multiple of 4,
 * n <= 32); for s = 0 .. steps - 1: store be32(start + s) at offset ctr_off of the head, then
 * value = SHA-256(P || head || value) truncated to n, where P is what `prefix` absorbed (a
 * multiple of 64 bytes). cap/capout capture values exactly as in grove_shake256_chains.
 */
void grove_sha256_chains(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                         uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                         uint8_t *const capout[], const grove_sha256_ctx *prefix);

/*
 * The chains of grove_sha256_chains, each from its own position: lane i takes the steps at
 * positions begin[i] .. end - 1 (none if begin[i] >= end; end <= 255), so that it ends at
 * position end. Only with a fused chain kernel for this layout: returns 0 (nothing done) if
 * there is none, 1 when done. Lanes of close begin[] next to each other waste the least.
 */
int grove_sha256_chains_from(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                             const uint8_t *begin, unsigned end, size_t count,
                             const grove_sha256_ctx *prefix);

/* Block compression functions of the selected kernel (state in host order). */
void grove_sha256_compress(uint32_t s[8], const uint8_t *blocks, size_t nblocks);
void grove_sha512_compress(uint64_t s[8], const uint8_t *blocks, size_t nblocks);
/* The portable reference kernels, always built (tests compare the others against them). */
void grove_sha256_compress_portable(uint32_t s[8], const uint8_t *blocks, size_t nblocks);
void grove_sha512_compress_portable(uint64_t s[8], const uint8_t *blocks, size_t nblocks);
/* The portable C kernels compiled for BMI1/BMI2 (x86 only). */
void grove_sha256_compress_bmi(uint32_t s[8], const uint8_t *blocks, size_t nblocks);
/* Portable C chain kernels (struct grove_hash_kernels' sha256_chains_few, any lane count; the
 * SPHINCS+ layout with its fixed words folded, sha256_chain_portable.h), plain and BMI. */
void grove_sha256_chains_portable(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                  uint32_t start, unsigned steps, size_t count,
                                  const uint8_t *cap, uint8_t *const capout[],
                                  const uint32_t init[8], uint64_t pcount, const uint8_t *begin);
void grove_sha256_chains_bmi(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                             uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                             uint8_t *const capout[], const uint32_t init[8], uint64_t pcount,
                             const uint8_t *begin);
void grove_sha512_compress_bmi(uint64_t s[8], const uint8_t *blocks, size_t nblocks);

/* HMAC with incremental message input. */
typedef struct {
    grove_sha256_ctx inner, outer;
} grove_hmac_sha256_ctx;
typedef struct {
    grove_sha512_ctx inner, outer;
} grove_hmac_sha512_ctx;

void grove_hmac_sha256_init(grove_hmac_sha256_ctx *c, const uint8_t *key, size_t keylen);
void grove_hmac_sha256_update(grove_hmac_sha256_ctx *c, const uint8_t *in, size_t len);
void grove_hmac_sha256_final(grove_hmac_sha256_ctx *c, uint8_t *out, size_t outlen);
void grove_hmac_sha512_init(grove_hmac_sha512_ctx *c, const uint8_t *key, size_t keylen);
void grove_hmac_sha512_update(grove_hmac_sha512_ctx *c, const uint8_t *in, size_t len);
void grove_hmac_sha512_final(grove_hmac_sha512_ctx *c, uint8_t *out, size_t outlen);
void grove_hmac_sha256(uint8_t out[32], const uint8_t *key, size_t keylen, const uint8_t *in,
                       size_t len);
void grove_hmac_sha512(uint8_t out[64], const uint8_t *key, size_t keylen, const uint8_t *in,
                       size_t len);

/* MGF1 (RFC 8017 B.2.1): outlen bytes of SHA-x(seed || be32(0)) || SHA-x(seed || be32(1)) ... */
void grove_mgf1_sha256(uint8_t *out, size_t outlen, const uint8_t *seed, size_t seedlen);
void grove_mgf1_sha512(uint8_t *out, size_t outlen, const uint8_t *seed, size_t seedlen);

#endif
