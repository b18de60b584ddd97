/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The WOTS+ core shared by SPHINCS+ / SLH-DSA, XMSS and DGSP: base-w digits with their
 * checksum, and the chain walk over "lanes".
 *
 * A lane is one hash chain. The core decides which lanes take a step at which chain position
 * and hands all of them to the scheme in one call, so the scheme hashes them through one batch
 * call of the hash layer (whose SIMD kernels take 4, 8 or 16 messages at a time). The scheme
 * supplies the hashing (its tweakable hash, its address update, its lane buffers) through an
 * hs_chain_ops; the core knows no hash function and no scheme size, and the hash layer knows
 * no WOTS+ size.
 */
#ifndef GROVE_HASHSIG_WOTS_H
#define GROVE_HASHSIG_WOTS_H

#include <stddef.h>
#include <stdint.h>

/* Sizes of WOTS+ over n-byte messages with w = 2^lg_w (RFC 8391 3.1.1, FIPS 205 5). */
typedef struct {
    unsigned n;    /* message bytes */
    unsigned lg_w; /* 1, 2, 4 or 8 */
    unsigned w;    /* 2^lg_w */
    unsigned len1; /* message digits: 8n / lg_w */
    unsigned len2; /* checksum digits: floor(log2(len1 (w - 1)) / lg_w) + 1 */
    unsigned len;  /* len1 + len2 chains */
} hs_wots_dims;

#define HS_WOTS_MAX_LEN 131 /* n = 64, w = 16 (XMSS-SHA2_*_512) */

void hs_wots_dims_init(hs_wots_dims *d, unsigned n, unsigned lg_w);

/*
 * The len digits of an n-byte message: len1 base-w digits of msg (most significant first)
 * followed by the len2 digits of the checksum sum(w - 1 - digit), shifted left so that it
 * ends on a byte boundary (toByte(csum << (8 - (len2 lg_w) % 8) % 8, ceil(len2 lg_w / 8))).
 */
void hs_wots_digits(const hs_wots_dims *d, const uint8_t *msg, uint8_t *digits);

/* A capture position that never occurs (chains have fewer than 255 steps here). */
#define HS_NO_CAPTURE 0xFF

/* How a scheme hashes its chains. ctx is the scheme's. */
typedef struct hs_chain_ops {
    /* Advance lanes lane[0..count) one step, from chain position pos to pos + 1. */
    void (*step)(void *ctx, const uint32_t *lane, size_t count, uint32_t pos);
    /* The current n-byte value of a lane (for captures). */
    uint8_t *(*value)(void *ctx, size_t lane);
    /*
     * Optional (NULL: step by step): walk every lane from position 0 through `steps` steps in
     * one fused call, capturing exactly as hs_chains_walk does.
     */
    void (*walk_all)(void *ctx, size_t count, unsigned steps, const uint8_t *cap,
                     uint8_t *const capout[]);
} hs_chain_ops;

/*
 * Walk `count` chains of w positions: lane i from position from[i] to position to[i]
 * (from == NULL: 0 for every lane; to == NULL: w - 1 for every lane). At each position, every
 * lane still walking takes its step in the same ops->step call.
 * If cap != NULL, lane i's value at position cap[i] (HS_NO_CAPTURE: none) is copied to
 * capout[i] (n bytes) when the lane is there (a position before from[i] or after to[i] is never
 * captured).
 * idx: scratch for count lane numbers.
 */
void hs_chains_walk(const hs_chain_ops *ops, void *ctx, unsigned n, unsigned w, size_t count,
                    const uint8_t *from, const uint8_t *to, const uint8_t *cap,
                    uint8_t *const capout[], uint32_t *idx);

#endif
