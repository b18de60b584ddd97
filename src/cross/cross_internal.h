/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * CROSS internals: the parameter table, derived sizes, and the entry points with explicit
 * randomness used by the known-answer tests. Depends only on hash/keccak.h and common/.
 */
#ifndef GROVE_CROSS_INTERNAL_H
#define GROVE_CROSS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "grove/cross.h"

#define CROSS_MAX_LEVELS 12   /* tree depth + 1 for t <= 1024 */
#define CROSS_MAX_SEED 32     /* lambda/8 */
#define CROSS_MAX_DIGEST 64   /* 2*lambda/8: digests, salt, keypair seeds */

struct grove_cross_params {
    const char *name;    /* canonical, e.g. "CROSS-RSDP-1-fast" */
    const char *vecname; /* vector file spelling, e.g. "cross-rsdp-1-fast" */
    uint8_t rsdpg;       /* 0 = RSDP, 1 = RSDP-G */
    uint8_t category;    /* 1, 3, 5 */
    uint8_t corner;      /* 0 fast (no trees), 1 balanced, 2 small */
    uint16_t n, k, m, t, w;
    uint16_t lambda;
    uint16_t nodes_to_store; /* TREE_NODES_TO_STORE (path/proof capacity, tree sets) */
    /* bits squeezed by each constant-squeeze sampler */
    uint32_t bits_n_fp, bits_chall1, bits_v, bits_e, bits_w, bits_cwstr;
};

/* Sizes derived from a parameter set. */
typedef struct cross_sizes {
    size_t seed, digest;      /* lambda/8, 2*lambda/8 (= salt = keypair seed) */
    uint32_t p, z, bp, bz;    /* field, exponent group, bits per packed element */
    size_t py, ps, pv;        /* packed y (n), syndrome (n-k), v (n or m) */
    size_t nv;                /* length of the v vector in signatures: n (RSDP) or m */
    size_t path, proof;       /* bytes of the path and proof fields */
    size_t resp0;             /* py + pv */
    size_t pk, sk, sig;
    size_t off_path, off_proof, off_resp1, off_resp0;
} cross_sizes;

void cross_sizes_of(const grove_cross_params *p, cross_sizes *z);

/*
 * Deterministic signing (the KAT entry point): root_seed has lambda/8 bytes, salt 2*lambda/8.
 * ws/ws_len as in grove_cross_sign_ws, or NULL/0 to use the stack.
 */
int cross_sign_derand(const grove_cross_params *p, grove_cross_strategy s, uint8_t *sig,
                      const uint8_t *msg, size_t mlen, const uint8_t *sk,
                      const uint8_t *root_seed, const uint8_t *salt, void *ws, size_t ws_len);

#endif
