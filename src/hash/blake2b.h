/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * BLAKE2b (RFC 7693), unkeyed, any digest length 1..64 set in the parameter block (so
 * Blake2b-256 is NOT a truncation of Blake2b-512). Used by Mithril STM: Blake2b-256 for the
 * Merkle tree, Blake2b-512 for the lottery, Blake2b-128 for the aggregation scalars.
 *
 * The context is a plain struct and may be copied to hash a common prefix once.
 */
#ifndef GROVE_HASH_BLAKE2B_H
#define GROVE_HASH_BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t h[8];
    uint64_t t[2]; /* bytes compressed so far (128-bit counter) */
    uint8_t buf[128];
    size_t buflen; /* 0..128; a full block is kept until more input arrives */
    size_t outlen;
} grove_blake2b_ctx;

/* outlen in 1..64 (other values are clamped into that range). */
void grove_blake2b_init(grove_blake2b_ctx *c, size_t outlen);
/* Keyed BLAKE2b (RFC 7693 section 3.3): key of keylen <= 64 bytes (longer keys are cut). */
void grove_blake2b_init_key(grove_blake2b_ctx *c, size_t outlen, const uint8_t *key,
                            size_t keylen);
void grove_blake2b_update(grove_blake2b_ctx *c, const void *in, size_t len);
/* Writes c->outlen bytes; the context is wiped. */
void grove_blake2b_final(grove_blake2b_ctx *c, uint8_t *out);
void grove_blake2b(uint8_t *out, size_t outlen, const void *in, size_t len);

#endif
