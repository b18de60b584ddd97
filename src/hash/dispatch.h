/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Hash kernel selection. The table is chosen once from the CPU features (common/cpu.h, which
 * honours GROVE_CPU) and never changes afterwards. A NULL batch entry means "loop over the
 * single-message kernel".
 */
#ifndef GROVE_HASH_DISPATCH_H
#define GROVE_HASH_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

#include "common/util.h"
#include "hash/sha2.h"

struct grove_hash_kernels {
    const char *name;
    void (*sha256_compress)(uint32_t s[8], const uint8_t *blocks, size_t nblocks);
    void (*sha512_compress)(uint64_t s[8], const uint8_t *blocks, size_t nblocks);
    void (*keccakf1600)(uint64_t s[25]);
    void (*keccakf1600_many)(uint64_t (*states)[25], size_t count);
    /* Multi-state permutation on interleaved states st[25][keccak_w] (NULL if none). */
    void (*keccak_xw)(uint64_t *st);
    unsigned keccak_w;
    /* Whole SHAKE sponges on up to keccak_w messages at once (NULL if none). */
    void (*shake_xw)(uint32_t rate, uint8_t *const out[], size_t outlen, const uint8_t *const in[],
                     size_t inlen, size_t lanes);
    /* Fused hash chains on up to *_chains_w lanes (see grove_shake256_chains and
     * grove_sha256_chains); NULL if none. */
    void (*shake256_chains_x)(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                              uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                              uint8_t *const capout[], const uint8_t *begin);
    unsigned shake256_chains_w;
    void (*sha256_chains_x)(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                            uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                            uint8_t *const capout[], const uint32_t init[8], uint64_t pcount,
                            const uint8_t *begin);
    unsigned sha256_chains_w;
    /* The same on few lanes (fewer than sha256_wide_min: the leftovers of the wide kernel),
     * up to sha256_chains_few_w at a time (SHA-NI, compressions interleaved); NULL if none. */
    void (*sha256_chains_few)(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                              uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                              uint8_t *const capout[], const uint32_t init[8], uint64_t pcount,
                              const uint8_t *begin);
    unsigned sha256_chains_few_w;
    /* One block each for up to sha256_blocks_few_w independent states (SHA-NI, interleaved);
     * NULL if none. */
    void (*sha256_blocks_few)(uint32_t *const st[], const uint8_t *const blocks[], size_t count);
    unsigned sha256_blocks_few_w;
    /* Multi-lane block compressions (state st[8][w], blocks[w][64 or 128]); NULL if none. */
    void (*sha256_xw)(uint32_t *st, const uint8_t *blocks);
    unsigned sha256_w;
    void (*sha512_xw)(uint64_t *st, const uint8_t *blocks);
    unsigned sha512_w;
    /* Whole equal-length messages in one pass (0 returned if they cannot run); NULL if none. */
    int (*sha256_fused)(uint8_t *const out[], size_t outlen, const uint32_t init[8],
                        uint64_t pcount, const uint8_t *const in[], size_t inlen, size_t lanes);
    int (*sha512_fused)(uint8_t *const out[], size_t outlen, const uint64_t init[8],
                        uint64_t pcount, const uint8_t *const in[], size_t inlen, size_t lanes);
    /*
     * The fewest messages or chains worth one call of a wide kernel (fewer go one by one):
     * a wide call costs about as much as one single-lane Keccak-f or SHA-512 compression
     * (so 2), and about five single SHA-256 compressions with SHA-NI (AMD EPYC Zen 4,
     * bench_hash: keccak x8 441 ns, x4 461 ns, one 411-430 ns; sha256 x16 431 ns, x8 390-401
     * ns, SHA-NI 80-90 ns, portable 360 ns; sha512 x8 450 ns, x4 471-571 ns, one 260-380 ns).
     */
    unsigned keccak_wide_min, sha256_wide_min, sha512_wide_min;
    /*
     * With the few-lane SHA-NI kernels: the fewest chains worth a wide chain kernel call, and
     * the fewest one-block messages worth a wide sha256_fused call (fewer go to
     * sha256_chains_few / sha256_blocks_few, four at a time). See dispatch.c for the figures.
     */
    unsigned sha256_chains_wide_min, sha256_blocks_wide_min;
    void (*sha256_many)(uint8_t *const out[], size_t outlen, const grove_sha256_ctx *prefix,
                        const uint8_t *const in[], size_t inlen, size_t count);
    void (*sha512_many)(uint8_t *const out[], size_t outlen, const grove_sha512_ctx *prefix,
                        const uint8_t *const in[], size_t inlen, size_t count);
};

const struct grove_hash_kernels *grove_hash_kernels(void);

/*
 * For grove_*_chains_from: the next kernel call takes the first m = min(left, w) lanes of begin
 * (returned); *lo is their first position (end if none of them walks).
 */
static inline size_t grove_chains_group(const uint8_t *begin, size_t left, size_t w, unsigned end,
                                        unsigned *lo)
{
    size_t m = left < w ? left : w;
    *lo = end;
    for (size_t j = 0; j < m; j++)
        *lo = begin[j] < *lo ? begin[j] : *lo;
    return m;
}

/* After a chain kernel: each lane that hashed holds the last position hashed as its counter. */
static inline void grove_chains_last_counter(uint8_t *const lanes[], size_t count,
                                             size_t ctr_off, uint32_t start, unsigned steps,
                                             const uint8_t *begin)
{
    for (size_t j = 0; steps > 0 && j < count; j++)
        if (begin == NULL || begin[j] < start + steps)
            grove_store32_be(lanes[j] + ctr_off, start + steps - 1);
}

#endif
