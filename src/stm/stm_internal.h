/*
 * Internal definitions of Mithril STM shared by the files of src/stm (core, encodings, JSON).
 */
#ifndef GROVE_STM_INTERNAL_H
#define GROVE_STM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "grove/bls12_381.h"
#include "grove/stm.h"

/* Hard limits on decoded objects (every length read from outside input is checked first). */
#define STM_MAX_SIGS GROVE_STM_MAX_PARTIES    /* signatures in an aggregate    */
#define STM_MAX_INDEXES GROVE_STM_MAX_M       /* indexes in one signature      */
#define STM_MAX_PATH_VALUES (64u * STM_MAX_SIGS) /* values in a batch path    */

struct grove_stm_closed {
    uint64_t n;        /* entries                                              */
    uint64_t total;    /* total stake                                          */
    uint8_t *entries;  /* n * 104: vk || stake BE, in signer-index order        */
    grove_bls_g2 *vks; /* decoded vks (validated)                              */
    uint8_t *tree;     /* heap of n + p - 1 Blake2b-256 nodes (32 bytes each)   */
    uint64_t nodes;
    uint8_t root[GROVE_STM_ROOT_BYTES];
};

struct grove_stm_aggregate {
    size_t n;              /* signatures                                        */
    grove_stm_sig *sigs;   /* n signatures (owned)                              */
    uint8_t *entries;      /* n * 104 registration entries                      */
    grove_bls_g1 *sigmas;  /* decoded sigmas (validated)                        */
    grove_bls_g2 *vks;     /* decoded vks (validated)                           */
    size_t n_values;       /* batch path                                        */
    uint8_t *values;       /* n_values * 32                                     */
    size_t n_indices;
    uint64_t *indices;
};

/*
 * Builds an aggregate from parts (everything is copied): decodes and validates every sigma and
 * vk (GROVE_ERR_ENCODING), checks count limits. Used by the binary and JSON readers and the
 * clerk. Structural checks (index order, path shape) are left to verification.
 */
int stm_aggregate_assemble(grove_stm_aggregate **out, size_t n, const grove_stm_sig *sigs,
                           const uint8_t *entries, size_t n_values, const uint8_t *values,
                           size_t n_indices, const uint64_t *indices);

/* Merkle tree (merkle.c). */
uint64_t stm_merkle_nodes(uint64_t n);
/* tree must hold stm_merkle_nodes(n) * 32 bytes. */
void stm_merkle_build(uint8_t *tree, const uint8_t *entries, uint64_t n);
/* Batch path for ascending, distinct leaf indices; values malloc'd (caller frees). */
int stm_merkle_batch_path(const uint8_t *tree, uint64_t n, const uint64_t *idx, size_t count,
                          uint8_t **values, size_t *n_values);
/* 1 iff the leaves (entries at the path's indices, count of them) and the path prove root. */
int stm_merkle_batch_verify(const uint8_t root[32], uint64_t n_leaves, const uint8_t *entries,
                            const uint64_t *idx, size_t count, const uint8_t *values,
                            size_t n_values);
void stm_leaf_hash(uint8_t out[32], const uint8_t entry[GROVE_STM_ENTRY_BYTES]);

/* Worker threads: number to use for `requested` (0 = online CPUs), capped at items. */
unsigned stm_threads(unsigned requested, size_t items);

#endif
