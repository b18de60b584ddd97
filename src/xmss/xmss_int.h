/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * XMSS / XMSS^MT engine (internal).
 *
 * Hashing model (RFC 8391 section 5, SP 800-208 section 5). Every call is
 * Hash(toByte(X, pad) || KEY || M) with X = 0 (F), 1 (H), 2 (H_msg), 3 (PRF), 4 (PRF_keygen).
 * Calls are made on "lanes": one buffer per independent call, many lanes per hash-layer call,
 * so the batch kernels of src/hash (grove_sha256_many, ...) see whole batches:
 *   F lane     toByte(0,pad) || key (n) || value (n)       value stepped in place
 *   H lane     toByte(1,pad) || key (n) || left (n) || right (n)
 *   PRF lane   [toByte(3,pad) || PUB_SEED] || ADRS (32)     bracket: only when not precomputed
 *   KG lane    [toByte(4,pad) || SK_SEED] || PUB_SEED || ADRS
 * For SHA-256 with n = 32 and SHA-512 with n = 64 the bracketed part is exactly one block, so its
 * compression is done once per key ("midstate"): a PRF costs one compression instead of two.
 */
#ifndef GROVE_XMSS_INT_H
#define GROVE_XMSS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "grove/xmss.h"
#include "hash/keccak.h"
#include "hash/sha2.h"
#include "hashsig/adrs.h"
#include "hashsig/wots.h"

#define XMSS_MAX_N 64
#define XMSS_MAX_PAD 64
#define XMSS_MAX_D 12
#define XMSS_MAX_H 60
#define XMSS_MAX_HP 20     /* largest tree height h/d */
#define XMSS_MAX_LEVELS 8  /* cache levels per tree (tests use small level heights) */
#define XMSS_LEAF_BATCH 16 /* leaves computed together while building trees (16 * len chains:
                              whole groups of 16 or 8 lanes for len = 67) */

enum { XMSS_SHA256 = 0, XMSS_SHA512 = 1, XMSS_SHAKE128 = 2, XMSS_SHAKE256 = 3 };

struct grove_xmss_params {
    const char *name;
    const char *hash_name;
    uint32_t oid;
    uint8_t mt;       /* grove_xmss_family */
    uint8_t hash;     /* XMSS_SHA256 ... */
    uint8_t n, pad;   /* pad = bytes of toByte(X, .) */
    uint8_t h, d, hp; /* hp = h / d */
    uint8_t len;      /* 2n + 3 */
    uint8_t idx_bytes;
    uint8_t approved; /* SP 800-208 */
    uint8_t level_max; /* largest height of one cached level (10 for the standard sets) */
    uint32_t sig_bytes, pk_bytes;
};

/* ---- addresses: hs_adrs (hashsig/adrs.h) of form HS_ADRS_XMSS ------------------------------ */
enum { XMSS_ADRS_OTS = 0, XMSS_ADRS_LTREE = 1, XMSS_ADRS_TREE = 2 };

/* A fresh XMSS address: layer, tree and type set, every other word zero. */
void xmss_adrs_init(hs_adrs *a, uint32_t layer, uint64_t tree, uint32_t type);
/* The address of hash tree node `index` whose children are at height `height`. */
void xmss_adrs_node(hs_adrs *a, uint32_t layer, uint64_t tree, uint32_t height, uint32_t index);

/* ---- hashing ------------------------------------------------------------------------------ */
typedef struct xmss_hash {
    const grove_xmss_params *p;
    unsigned n, pad, kind;
    unsigned prf_pre; /* bytes of a PRF lane before the ADRS */
    unsigned kg_pre;  /* bytes of a KG lane before PUB_SEED */
    int midstate;     /* 1: PRF / PRF_keygen prefixes are precomputed states */
    int x256;         /* 1: full chains and node hashes through xmss_x256_* (sha256x.c) */
    int has_sk;
    hs_wots_dims wots; /* WOTS+ with w = 16 over n bytes */
    uint8_t pub_seed[XMSS_MAX_N];
    uint8_t prf_head[XMSS_MAX_PAD + XMSS_MAX_N]; /* toByte(3,pad) || PUB_SEED */
    uint8_t kg_head[XMSS_MAX_PAD + XMSS_MAX_N];  /* toByte(4,pad) || SK_SEED (secret) */
    grove_sha256_ctx prf256, kg256;
    grove_sha512_ctx prf512, kg512;
} xmss_hash;

void xmss_hash_init(xmss_hash *x, const grove_xmss_params *p, const uint8_t *pub_seed,
                    const uint8_t *sk_seed);
void xmss_hash_wipe(xmss_hash *x);

size_t xmss_prf_lane_len(const xmss_hash *x); /* prf_pre + 32 */
size_t xmss_kg_lane_len(const xmss_hash *x);  /* kg_pre + n + 32 */
size_t xmss_f_lane_len(const xmss_hash *x);   /* pad + 2n */
size_t xmss_h_lane_len(const xmss_hash *x);   /* pad + 3n */
/* Write the constant head of a lane (the ADRS / data parts are the caller's). */
void xmss_prf_lane_head(const xmss_hash *x, uint8_t *lane);
void xmss_kg_lane_head(const xmss_hash *x, uint8_t *lane);
void xmss_f_lane_head(const xmss_hash *x, uint8_t *lane);
void xmss_h_lane_head(const xmss_hash *x, uint8_t *lane);

/* out[i] = the call on lanes[i], n bytes each; out[i] may point into lanes[i]. */
void xmss_prf_many(const xmss_hash *x, uint8_t *const out[], uint8_t *const lanes[], size_t count);
void xmss_kg_many(const xmss_hash *x, uint8_t *const out[], uint8_t *const lanes[], size_t count);
void xmss_f_many(const xmss_hash *x, uint8_t *const out[], uint8_t *const lanes[], size_t count);
void xmss_h_many(const xmss_hash *x, uint8_t *const out[], uint8_t *const lanes[], size_t count);

/* PRF(key, m) with an arbitrary n-byte key and 32-byte m (r = PRF(SK_PRF, toByte(idx, 32))). */
void xmss_prf_keyed(const xmss_hash *x, uint8_t *out, const uint8_t *key, const uint8_t m[32]);

/* H_msg(r || root || toByte(idx, n), M), streamed. */
typedef struct xmss_hmsg {
    unsigned kind, n;
    union {
        grove_sha256_ctx s256;
        grove_sha512_ctx s512;
        grove_keccak_ctx k;
    } u;
} xmss_hmsg;
void xmss_hmsg_init(const xmss_hash *x, xmss_hmsg *h, const uint8_t *r, const uint8_t *root,
                    uint64_t idx);
void xmss_hmsg_update(xmss_hmsg *h, const uint8_t *m, size_t len);
void xmss_hmsg_final(xmss_hmsg *h, uint8_t *out);

/* Compression-function calls (SHA-2 blocks, Keccak permutations) made so far by this module. */
uint64_t xmss_hash_counter(void);
/* Adds calls made outside hash.c (sha256x.c) to that counter. */
void xmss_hash_count(uint64_t calls);

/*
 * SHA-256 with n = 32 on the hash layer's multi-lane compression (sha256x.c). usable: the set
 * and the selected kernels allow it (xmss_hash_init sets x->x256 from it). chains: cnt whole
 * WOTS+ chains, start (PRF_keygen) and all w - 1 steps, under the OTS addresses adrs[c]; the
 * chain end into out[c]. nodes: as xmss_nodes (out[i] may alias left[i] or right[i]).
 */
int xmss_x256_usable(const xmss_hash *x);
void xmss_x256_chains(const xmss_hash *x, const hs_adrs *adrs, size_t cnt, uint8_t *const out[]);
void xmss_x256_nodes(const xmss_hash *x, size_t cnt, uint8_t *const out[],
                     const uint8_t *const left[], const uint8_t *const right[],
                     const hs_adrs *adrs);

/* ---- lanes: scratch for batched chains and node hashes ------------------------------------ */
typedef struct xmss_lanes {
    size_t cap;                /* chains (and nodes) per batch */
    size_t flen, plen, hlen;   /* lane sizes */
    uint8_t *f;                /* cap F lanes */
    uint8_t *prf;              /* 3 * cap PRF / KG lanes */
    uint8_t *h;                /* cap H lanes */
    uint8_t *mask;             /* 2 * cap masks */
    uint8_t *nodes;            /* cap nodes (L-tree work) */
    hs_adrs *adrs;             /* cap addresses */
    uint8_t **pin, **pout;     /* 3 * cap pointers each (used by the hashing helpers) */
    uint8_t **o;               /* cap pointers each, free for callers of xmss_nodes */
    const uint8_t **l, **r;
    uint32_t *act;             /* cap active lane numbers */
    void *mem;
    size_t memlen;
} xmss_lanes;

int xmss_lanes_alloc(xmss_lanes *w, const xmss_hash *x, size_t cap);
void xmss_lanes_free(xmss_lanes *w);

/* ---- WOTS+ and leaves --------------------------------------------------------------------- */
/*
 * Leaves (L-tree outputs of the WOTS+ public keys) of leaf indices [leaf0, leaf0 + count) of
 * tree `tree` in layer `layer`; count * len <= w->cap. out: count * n bytes.
 */
void xmss_leaves(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree, uint32_t leaf0,
                 unsigned count, uint8_t *out);
/* WOTS+ signature of the n-byte message m with key (layer, tree, leaf). sig: len * n. */
void xmss_wots_sign(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree, uint32_t leaf,
                    const uint8_t *m, uint8_t *sig);
/* The leaf (L-tree of the WOTS+ public key) a signature of m gives. */
void xmss_wots_leaf_from_sig(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree,
                             uint32_t leaf, const uint8_t *m, const uint8_t *sig, uint8_t *out);
/* The full WOTS+ public key (len * n, before the L-tree) of a key pair; for test vectors. */
void xmss_wots_pk(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree, uint32_t leaf,
                  uint8_t *pk);
/* The first WOTS+ secret chain start of a key pair (PRF_keygen output); for test vectors. */
void xmss_wots_sk0(const xmss_hash *x, uint32_t layer, uint64_t tree, uint32_t leaf, uint8_t *out);

/*
 * count node hashes RAND_HASH(left[i], right[i]) under adrs[i] (keyAndMask words ignored);
 * count <= w->cap. out[i] may alias left[i] or right[i].
 */
void xmss_nodes(const xmss_hash *x, xmss_lanes *w, size_t count, uint8_t *const out[],
                const uint8_t *const left[], const uint8_t *const right[], const hs_adrs *adrs);
/* One tree node of (layer, tree): children at height `height`, parent index `index`. */
void xmss_tree_node(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree,
                    uint32_t height, uint32_t index, const uint8_t *left, const uint8_t *right,
                    uint8_t *out);

/* ---- building subtrees (multi-threaded) ----------------------------------------------------- */
/*
 * A node is named by (layer, height, gidx): gidx counts nodes of that height across all trees
 * of the layer, so the tree is gidx >> (hp - height) and the index inside it is the low bits.
 */
typedef void (*xmss_record_fn)(void *arg, unsigned layer, unsigned height, uint64_t gidx,
                               const uint8_t *node);

typedef struct xmss_job {
    unsigned layer, height;
    uint64_t gidx;
    uint8_t *root; /* n bytes, may be NULL */
} xmss_job;

/*
 * Compute the nodes of the given subtrees, calling record (may be NULL) for every node of them
 * (leaves included), from several threads at once (distinct nodes only).
 */
int xmss_build(const xmss_hash *x, const xmss_job *jobs, size_t njobs, xmss_record_fn record,
               void *rarg, const grove_xmss_opts *opts);

/* ---- the node cache ("traversal") ----------------------------------------------------------- */
/*
 * Each tree (one per layer in use) is cut into levels of height <= level_max. For each level
 * the cache holds every node of the current subtree at those heights (authentication paths are
 * lookups) and builds the next subtree one leaf per step of the layer's leaf index, so that it
 * is complete when needed ("cached subtrees"). For XMSS^MT, upper layers keep the WOTS+
 * signature of the root of the tree below.
 */
typedef struct xmss_level {
    unsigned lo, hi;   /* heights [lo, hi) */
    int top;           /* hi == hp */
    int has_next;      /* 0 only for the top level of the top layer */
    size_t nnodes;     /* 2^(hi-lo+1) - 2 */
    uint64_t cur_idx;  /* index of the current subtree among the layer's subtrees of this level */
    uint64_t nxt_done; /* leaves of the next subtree computed so far */
    unsigned stack_len;
    uint8_t stack_h[XMSS_MAX_HP + 2];
    uint8_t *cur, *nxt, *stack;
} xmss_level;

typedef struct xmss_layer {
    unsigned nlevels;
    xmss_level lv[XMSS_MAX_LEVELS];
    uint8_t *root;     /* root of the current tree */
    uint8_t *wots_sig; /* layers >= 1: signature of the current root of the layer below */
} xmss_layer;

typedef struct xmss_trav {
    const grove_xmss_params *p;
    unsigned d;
    xmss_layer ly[XMSS_MAX_D];
    uint64_t pos;       /* the index the cache is positioned at */
    uint64_t range_end; /* no subtree at or past this index is ever built */
    uint8_t *mem;
    size_t memlen;
} xmss_trav;

/* Levels of a tree of height hp with levels of at most level_max: fills lo/hi; returns count. */
unsigned xmss_levels(unsigned hp, unsigned level_max, unsigned *lo, unsigned *hi);

int xmss_trav_alloc(xmss_trav *t, const grove_xmss_params *p);
void xmss_trav_free(xmss_trav *t);
/*
 * Position the cache at index pos (< range_end), reusing whatever of src (may be NULL; same
 * parameters and seeds) is valid there.
 */
int xmss_trav_init(xmss_trav *t, const xmss_hash *x, uint64_t pos, uint64_t range_end,
                   const xmss_trav *src, const grove_xmss_opts *opts);
/* Move from pos to pos + 1 (bounded work; never fails). w: lanes with cap >= len. */
void xmss_trav_step(xmss_trav *t, const xmss_hash *x, xmss_lanes *w);
/* Authentication path of layer j for the current position (hp * n bytes). */
void xmss_trav_auth(const xmss_trav *t, unsigned j, uint8_t *auth);
/* Bytes of the serialized cache; serialize / parse it (parse checks it against pos). */
size_t xmss_trav_bytes(const grove_xmss_params *p);
void xmss_trav_save(const xmss_trav *t, uint8_t *out);
int xmss_trav_load(xmss_trav *t, const uint8_t *in, uint64_t pos, uint64_t range_end);

/* ---- signatures ----------------------------------------------------------------------------- */
/* Verification with explicit parameters (also non-standard test parameters). */
grove_status xmss_verify_internal(const grove_xmss_params *p, const uint8_t *root,
                                  const uint8_t *pub_seed, const uint8_t *msg, size_t msglen,
                                  const uint8_t *sig, size_t siglen);

/* Verification of a signature of the message digest mh (H_msg already computed). */
grove_status xmss_verify_digest(const grove_xmss_params *p, const uint8_t *root,
                                const uint8_t *pub_seed, const uint8_t *mh, const uint8_t *sig);

const grove_xmss_params *xmss_params_table(size_t *count);

/* Forget the in-process registry of reservations (tests that make the same key twice). */
void xmss_registry_reset(void);

/* grove_xmss_key_load with the parameters given (tests with non-standard parameters). */
grove_status xmss_key_load_params(const grove_xmss_params *force, const uint8_t *state,
                                  size_t len, const grove_xmss_opts *opts, grove_xmss_key **key);

/* ---- key files (keyfile.c) use these ---------------------------------------------------- */
/* The largest state of a set (not exhausted, current format). */
size_t xmss_state_max_bytes(const grove_xmss_params *p);

/* ---- key file bytes (file.c) ------------------------------------------------------------ */
/*
 * The largest key file (of its form and set) that starts with h[0..n) (the first few hundred
 * bytes of the file); 0 if they are no XMSS key file of a known set. Reads are capped by it
 * before anything is allocated.
 */
size_t xmss_file_read_cap(const uint8_t *h, size_t n);
/* The part of the last `count` unreserved indices (own id, parent = k); k is not changed. */
grove_status xmss_key_split_make(grove_xmss_key *k, uint64_t count, const grove_xmss_opts *opts,
                        grove_xmss_key **out);
/*
 * k's state moved forward (high-water mark >= hw, range end `end` <= k's, generation `gen` >=
 * k's); malloc'd into *out, to be wiped and freed.
 */
grove_status xmss_key_state_at(grove_xmss_key *k, uint64_t hw, uint64_t end, uint32_t gen,
                               uint8_t **out, size_t *len);

#endif
