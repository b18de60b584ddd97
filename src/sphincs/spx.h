/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The SPHINCS+ / SLH-DSA engine (internal). One engine for both flavours: the FIPS 205
 * internal algorithms with a per-descriptor FORS index bit order.
 *
 * Hashing model. Every tweakable hash call (PRF, F, H, T_l) works on a "lane buffer":
 *   SHAKE: PK.seed (n) || ADRS (32) || data           -> SHAKE256(...) truncated to n
 *   SHA-2: ADRSc (22) || data, with the chaining state after PK.seed || 0^(64-n) (or 128-n
 *          for SHA-512) precomputed once per key ("seeded state")
 * The data part starts at ctx->pre. Outputs may be written back into a lane's own data part
 * (chains step in place). Many independent lanes are hashed in one call, so SIMD kernels of
 * the hash layer are used without any change here.
 */
#ifndef GROVE_SPHINCS_SPX_H
#define GROVE_SPHINCS_SPX_H

#include <stddef.h>
#include <stdint.h>

#include "grove/slhdsa.h"
#include "hash/keccak.h"
#include "hash/sha2.h"
#include "hashsig/adrs.h"
#include "hashsig/wots.h"

#define SPX_MAX_N 32
#define SPX_MAX_LEN 67       /* WOTS+ chains: 2n + 3 */
#define SPX_MAX_PRE 64       /* bytes before the data in a lane buffer (SHAKE: n + 32) */
#define SPX_MAX_HP 9         /* largest XMSS subtree height h' */
#define SPX_MAX_A 14         /* largest FORS tree height */
#define SPX_MAX_K 35
#define SPX_MAX_D 22
#define SPX_MAX_M 49         /* largest digest length */

/* ADRS types (FIPS 205 table) */
enum {
    SPX_ADRS_WOTS_HASH = 0,
    SPX_ADRS_WOTS_PK = 1,
    SPX_ADRS_TREE = 2,
    SPX_ADRS_FORS_TREE = 3,
    SPX_ADRS_FORS_ROOTS = 4,
    SPX_ADRS_WOTS_PRF = 5,
    SPX_ADRS_FORS_PRF = 6,
};

struct grove_slhdsa_params {
    const char *name;
    unsigned n, h, d, hp, a, k, m;
    unsigned sha2;        /* 1: SHA-2 family, 0: SHAKE */
    unsigned fips205;     /* 1: FIPS 205 flavour (MSB-first FORS indices), 0: round 3.1 */
    unsigned category;    /* NIST security category */
    size_t sig_bytes;
};

/* Addresses are hs_adrs (hashsig/adrs.h) of form HS_ADRS_SPHINCS. */

/* Per-key hashing context. */
typedef struct spx_ctx {
    unsigned n;
    unsigned sha2;
    unsigned hsha512;  /* SHA-2 family: 1 if H and T_l (multi-block inputs) use SHA-512 */
    unsigned pre;      /* lane buffer bytes before the data */
    unsigned adrs_off; /* where the ADRS starts in a lane buffer */
    unsigned hash_off; /* offset of the ADRS hash word (chain position) in a lane buffer */
    hs_wots_dims wots; /* WOTS+ with w = 16 over n bytes */
    uint8_t pk_seed[SPX_MAX_N];
    uint8_t sk_seed[SPX_MAX_N]; /* secret; zero when the context only verifies */
    grove_sha256_ctx seeded256;
    grove_sha512_ctx seeded512;
} spx_ctx;

/*
 * Set up a context. sk_seed may be NULL (verification only). hsha512 selects SHA-512 for the
 * multi-block tweakable hashes of the SHA-2 family (SPHINCS+: n > 16; DGSP's WOTS+: never).
 */
void spx_ctx_init(spx_ctx *c, unsigned n, unsigned sha2, unsigned hsha512, const uint8_t *pk_seed,
                  const uint8_t *sk_seed);
void spx_ctx_wipe(spx_ctx *c);

/* Write the ADRS into a lane buffer (compressed for SHA-2) and, for SHAKE, PK.seed before it. */
void spx_lane_init(const spx_ctx *c, uint8_t *lane, const hs_adrs *a);

/*
 * out[i] = T(lane[i]) for i < count: each lane holds pre + nblocks*n bytes. out[i] may point
 * into lane[i]'s data part.
 */
void spx_thash_lanes(const spx_ctx *c, unsigned nblocks, uint8_t *const lanes[],
                     uint8_t *const out[], size_t count);
/* One tweakable hash of nblocks*n bytes of data under ADRS a (any nblocks). */
void spx_thash(const spx_ctx *c, uint8_t *out, const hs_adrs *a, const uint8_t *data,
               unsigned nblocks);

/* ---- WOTS+ (w = 16; digits: hs_wots_digits(&ctx->wots, ...)) ------------------------------ */

/* Lanes per call of the shared chain core (larger counts are walked in slices). */
#define SPX_CHAINS_MAX (8 * SPX_MAX_LEN)

/*
 * Walk WOTS+ chains held in lane buffers (spx_lane_init'ed, chain value at lane + pre) through
 * the shared core: lane i from position from[i] to to[i] (NULL: 0 / 15), captures as in
 * hs_chains_walk. hash_follows = 1: F under the lane's ADRS with the hash word = the position
 * (FIPS 205; full walks use the hash layer's fused chain kernels); 0: the ADRS stays as
 * written (DGSP's dgsp-rs-0.1 profile).
 */
void spx_chains_walk(const spx_ctx *c, uint8_t *const lanes[], size_t count, int hash_follows,
                     const uint8_t *from, const uint8_t *to, const uint8_t *cap,
                     uint8_t *const capout[]);

/*
 * Public keys (compressed with T_len) of `count` consecutive WOTS+ key pairs starting at key
 * pair index kp0, under the layer/tree of `base` (type and words are set here). If sig != NULL,
 * also writes the signature (len*n bytes) of key pair sig_kp on `digits`, captured while
 * walking the chains (sig_kp outside [kp0, kp0+count) writes nothing).
 */
int spx_wots_gen_pks(const spx_ctx *c, const hs_adrs *base, uint32_t kp0, unsigned count,
                     uint8_t *pks, uint32_t sig_kp, const uint8_t *digits, uint8_t *sig);

/* The WOTS+ public key of key pair `kp` from a signature on `digits`. */
int spx_wots_pk_from_sig(const spx_ctx *c, const hs_adrs *base, uint32_t kp,
                         const uint8_t *sig, const uint8_t *digits, uint8_t *pk);

/* ---- Merkle trees ---------------------------------------------------------------------------- */

/* Leaf generator: write leaves [first, first+count) of the tree (n bytes each) into out. */
typedef int (*spx_leaf_fn)(void *arg, uint32_t first, unsigned count, uint8_t *out);

/*
 * Root and authentication path of leaf `leaf` of a tree of the given height. Node ADRS:
 * `node_base` with word 2 = height z and word 3 = (index_offset >> z) + index within level.
 * auth receives height*n bytes (may be NULL).
 */
int spx_merkle_tree(const spx_ctx *c, unsigned height, spx_leaf_fn leaf_fn, void *arg,
                    const hs_adrs *node_base, uint32_t index_offset, uint32_t leaf,
                    uint8_t *root, uint8_t *auth);

/* Root from a leaf and its authentication path (FIPS 205 xmss_pkFromSig loop / fors). */
void spx_merkle_root_from_auth(const spx_ctx *c, unsigned height, const hs_adrs *node_base,
                               uint32_t index_offset, uint32_t leaf, const uint8_t *leaf_node,
                               const uint8_t *auth, uint8_t *root);

/* ---- the algorithms ----------------------------------------------------------------------- */

int spx_keygen_internal(const grove_slhdsa_params *p, uint8_t *pk, uint8_t *sk,
                        const uint8_t *sk_seed, const uint8_t *sk_prf, const uint8_t *pk_seed);
/* Sign the message prefix || msg (prefix: the FIPS 205 framing, may be empty). */
int spx_sign_internal(const grove_slhdsa_params *p, uint8_t *sig, const uint8_t *prefix,
                      size_t prefixlen, const uint8_t *msg, size_t msglen, const uint8_t *sk,
                      const uint8_t *opt_rand);
int spx_verify_internal(const grove_slhdsa_params *p, const uint8_t *sig, size_t siglen,
                        const uint8_t *prefix, size_t prefixlen, const uint8_t *msg,
                        size_t msglen, const uint8_t *pk);

#endif
