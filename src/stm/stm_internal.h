/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Internal definitions of Mithril STM shared by the files of src/stm (core, encodings, JSON).
 */
#ifndef GROVE_STM_INTERNAL_H
#define GROVE_STM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/pool.h"
#include "grove/bls12_381.h"
#include "grove/stm.h"
#include "hash/blake2b.h"

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
    grove_bls_g2 *vks;     /* decoded vks (on the curve; G2 vouched by the path) */
    size_t n_values;       /* batch path                                        */
    uint8_t *values;       /* n_values * 32                                     */
    size_t n_indices;
    uint64_t *indices;
};

/* grove_stm_sig_from_bytes without decoding sigma (aggregate readers: stm_aggregate_assemble
 * decodes and checks every point once). *sig zeroed on error. */
int stm_sig_parse(grove_stm_sig *sig, const uint8_t *in, size_t in_len);

/*
 * Builds an aggregate from parts (everything is copied): decodes and validates every sigma
 * (curve, subgroup) and vk (curve only: its subgroup is vouched for by the Merkle path that
 * verification checks before using it, aggregate.c) (GROVE_ERR_ENCODING), checks count limits. Used by the binary and JSON readers and the
 * clerk. Structural checks (index order, path shape) are left to verification.
 */
/*
 * Decoded verification keys shared across aggregates (a Mithril chain: the same signers sign
 * every certificate of an epoch). Holds only keys that were decoded as an aggregate's are
 * (curve, not the identity; the subgroup is vouched for by the Merkle path each aggregate's
 * verification checks before it uses them, aggregate.c), found again by their exact 96 bytes;
 * up to 4096 keys, then it
 * stops growing. Not thread-safe: one decoding at a time per cache.
 */
typedef struct stm_vk_cache stm_vk_cache;
stm_vk_cache *stm_vk_cache_new(void);
void stm_vk_cache_free(stm_vk_cache *c);

/* cache may be NULL (every vk decoded); with one, known vks are taken from it and the
 * aggregate's new vks are added to it. */
int stm_aggregate_assemble(grove_stm_aggregate **out, size_t n, const grove_stm_sig *sigs,
                           const uint8_t *entries, size_t n_values, const uint8_t *values,
                           size_t n_indices, const uint64_t *indices, stm_vk_cache *cache);
/* grove_stm_aggregate_from_bytes / _from_cbor / _from_json with a cache (may be NULL). */
int stm_aggregate_from_bytes_cached(grove_stm_aggregate **out, const uint8_t *in, size_t in_len,
                                    stm_vk_cache *cache);
int stm_aggregate_from_cbor_cached(grove_stm_aggregate **agg, grove_stm_cbor_form *form,
                                   const uint8_t *in, size_t in_len, stm_vk_cache *cache);
int stm_aggregate_from_json_cached(grove_stm_aggregate **agg, const char *in, size_t in_len,
                                   stm_vk_cache *cache);

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

/* Stable merge sort of n indices with a context comparator (tmp: n scratch entries). */
void stm_sort_idx(size_t *a, size_t *tmp, size_t n,
                  int (*cmp)(const void *, const void *, void *), void *ctx);

/*
 * Threads: the public `threads` of STM functions goes to grove_parallel_for unchanged
 * (common/pool.h resolves GROVE_THREADS_AUTO). stm_chunk gives the chunk size for n items and
 * that `threads`: about four chunks per thread (so that a descheduled thread holds up little
 * work), or one chunk for one thread.
 */
size_t stm_chunk(size_t n, unsigned threads);

/* Lottery (lottery.c). One context per (phi_f, stake, total stake). */
typedef struct {
    double phi_f;
    double x; /* -(stake / total) * ln(1 - phi_f) in binary64: the fast path's input */
    uint64_t stake, total;
    int mode; /* 0: play, 1: always won (phi_f == 1), 2: never won (stake == 0) */
} stm_lottery;
/* GROVE_ERR_INVALID_ARG for total 0, stake > total or phi_f out of range. */
int stm_lottery_init(stm_lottery *lot, double phi_f, uint64_t stake, uint64_t total);
/* 1 won, 0 lost, GROVE_ERR_NOMEM (negative) when the exact loop cannot get its memory: a
 * binary64 pre-check with a safety margin decides almost every ev; the rare ones near a decision
 * boundary go to the exact integer computation (lottery.c). */
int stm_lottery_decide(const stm_lottery *lot, const uint8_t ev[GROVE_STM_EV_BYTES]);
/* The exact rule alone (1, 0 or GROVE_ERR_NOMEM), for tests. */
int stm_lottery_exact(const stm_lottery *lot, const uint8_t ev[GROVE_STM_EV_BYTES]);
/* Blake2b-512 state after absorbing "map" || msg_with_root; stm_ev continues a copy of it. */
void stm_ev_prefix(grove_blake2b_ctx *c, const uint8_t *msg_with_root, size_t len);
void stm_ev(uint8_t ev[GROVE_STM_EV_BYTES], const grove_blake2b_ctx *prefix, uint64_t index,
            const uint8_t sigma[GROVE_STM_SIGMA_BYTES]);

/* msg' = msg || root in a fresh malloc'd buffer (NULL if out of memory or too long), and the
 * lottery's Blake2b prefix state for it (stm_ev_prefix) in *pre. */
uint8_t *stm_with_root(const uint8_t *msg, size_t len, const uint8_t root[32],
                       grove_blake2b_ctx *pre);

/* The randomized aggregate of an aggregate's (vk, sigma) pairs (aggregate.c, spec section 3). */
int stm_randomized_sum(grove_bls_g2 *avk_pt, grove_bls_g1 *asig, const grove_stm_aggregate *a);

/*
 * Lottery part of single-signature verification (sign.c): indexes strictly ascending, < m,
 * each won with (stake, total); pre = stm_ev_prefix of msg || root. An empty index list
 * passes (it claims nothing). GROVE_OK or GROVE_ERR_LOTTERY_LOST.
 */
int stm_sig_check_lottery(const grove_stm_sig *sig, const grove_stm_params *params,
                          uint64_t stake, uint64_t total, const grove_blake2b_ctx *pre);

/*
 * Why a signature or an aggregate does not verify. The public verify functions report every
 * such reason as GROVE_ERR_VERIFY (grove/common.h); these return the reason itself, for tests
 * and vectors: GROVE_ERR_LOTTERY_LOST (no index, an index not won or >= m), GROVE_ERR_EXISTS
 * (an index claimed twice), GROVE_ERR_NOT_ENOUGH (fewer than k indexes), GROVE_ERR_VERIFY
 * (BLS signature, batch path, a sigma that is not a point).
 */
grove_status stm_sig_verify_reason(const grove_stm_params *params, const grove_stm_sig *sig,
                                   const uint8_t *msg, size_t msg_len,
                                   const uint8_t vk[GROVE_STM_VK_BYTES], uint64_t stake,
                                   const grove_stm_avk *avk);
grove_status stm_aggregate_verify_reason(const grove_stm_params *params,
                                         const grove_stm_aggregate *agg, const uint8_t *msg,
                                         size_t msg_len, const grove_stm_avk *avk);
/* the same on at most `threads` threads (stm_aggregate_verify_reason: GROVE_THREADS_AUTO) */
grove_status stm_aggregate_verify_reason_threads(const grove_stm_params *params,
                                                 const grove_stm_aggregate *agg,
                                                 const uint8_t *msg, size_t msg_len,
                                                 const grove_stm_avk *avk, unsigned threads);
/* A reason above as the verify functions report it: GROVE_ERR_VERIFY; other statuses as is. */
grove_status stm_verdict(grove_status reason);

#endif
