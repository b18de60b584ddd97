/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* DGSP internals: sizes, the DGSP hash layer, WOTS+ in both profiles, AES zeta. */
#ifndef GROVE_DGSP_INT_H
#define GROVE_DGSP_INT_H

#include <stddef.h>
#include <stdint.h>

#include "common/burn.h"
#include "grove/dgsp.h"

#define DGSP_LAYER 73
#define DGSP_MAX_LEN 67
#define DGSP_WALK_MAX_W 32 /* widest F kernel dgsp_walk_from_sig fills */
#define DGSP_CERT_CTX "grove-dgsp-cert-v1"

/* Derived sizes of a configuration. */
typedef struct dgsp_sizes {
    size_t n, len, wots_sig, spx_sig, cert, sig;
} dgsp_sizes;

void dgsp_sizes_of(const grove_dgsp_cfg *cfg, dgsp_sizes *s);
int dgsp_cfg_ok(const grove_dgsp_cfg *cfg);

/* H(a || b || c), N bytes (SHAKE256; SHA-256 at N = 16; SHA-512 truncated at N = 24/32). */
void dgsp_hash(const grove_dgsp_cfg *cfg, uint8_t *out, const uint8_t *a, size_t alen,
               const uint8_t *b, size_t blen, const uint8_t *c, size_t clen);
/* Hm(pub_seed, M): the WOTS+ message digest, N bytes. */
void dgsp_hash_msg(const grove_dgsp_cfg *cfg, uint8_t *out, const uint8_t *pub_seed,
                   const uint8_t *msg, size_t msglen);

/* WOTS+ (profile of cfg): public key, and public key + signature of an N-byte digest. */
int dgsp_wots_pk(const grove_dgsp_cfg *cfg, const uint8_t *pub_seed, const uint8_t *sk_seed,
                 uint8_t *pk);
int dgsp_wots_pk_sign(const grove_dgsp_cfg *cfg, const uint8_t *pub_seed, const uint8_t *sk_seed,
                      const uint8_t *digest, uint8_t *pk, uint8_t *sig);
/* The public key a WOTS+ signature on msg (hashed with Hm) gives. */
void dgsp_wots_pk_from_sig(const grove_dgsp_cfg *cfg, const uint8_t *pub_seed, const uint8_t *sig,
                           const uint8_t *msg, size_t msglen, uint8_t *pk);

/* zeta = AES_{aes_key}(be64(id) || be64(ctr)) for ctr in [first, first + count). */
int dgsp_zetas(const grove_dgsp_cfg *cfg, const uint8_t *aes_key, uint64_t id, uint64_t first,
               uint64_t count, uint8_t *out);
/* (id, ctr) of a zeta. */
int dgsp_unzeta(const grove_dgsp_cfg *cfg, const uint8_t *aes_key, const uint8_t *zeta,
                uint64_t *id, uint64_t *ctr);


/* The WOTS+ keys of explicit one-time seeds (the CSR computation). */
int dgsp_csr_from_seeds(const grove_dgsp_cfg *cfg, const uint8_t *seed_u, size_t count,
                        const uint8_t *wots_seeds, uint8_t *wots_pks);

/*
 * Stack bytes wiped (grove_burn_stack_bytes) after each secret-key operation: the deepest
 * stack its secret computation uses on any CPU path plus DGSP_BURN_MARGIN, rounded up.
 * test_wipe paints the stack, runs each computation and fails if a size here does not cover
 * it. Measured with gcc 12 -O3 (AVX-512 / AVX2 / portable path): dgsp_cid 0.6-1.0 KiB,
 * dgsp_unzeta 1.0, dgsp_zetas 3.1, SPHINCS+ keygen 25.5-30.7, SPHINCS+ sign 27.0-32.2,
 * csr 27.8-33.1, member signing 28.0-33.2 KiB.
 */
#define DGSP_BURN_MARGIN 2048
#define DGSP_BURN_CID (4 * 1024)       /* credential, join: dgsp_cid */
#define DGSP_BURN_KEYGEN (36 * 1024)   /* keygen_manager: SPHINCS+ keygen */
#define DGSP_BURN_GEN_CERT (38 * 1024) /* gen_cert: dgsp_cid, dgsp_zetas, SPHINCS+ sign */
#define DGSP_BURN_OPEN (4 * 1024)      /* open: dgsp_unzeta, dgsp_cid, dgsp_hash */
#define DGSP_BURN_REVOKE (6 * 1024)    /* revoke: dgsp_zetas */
#define DGSP_BURN_CSR (38 * 1024)      /* csr: dgsp_csr_from_seeds */
#define DGSP_BURN_SIGN (38 * 1024)     /* wallet sign: dgsp_sign_raw */

/* cid = H(hash_secret || be64(id)) and cid* = H(cid || be64(id)). */
void dgsp_cid(const grove_dgsp_cfg *cfg, const uint8_t *hash_secret, uint64_t id, uint8_t *cid,
              uint8_t *cid_star);

/*
 * Sign with an explicit (wots_seed, certificate): the crate's sign(). No one-time bookkeeping;
 * allow_compat lets known-answer tests reproduce dgsp-rs-0.1 signatures. Not exported.
 */
int dgsp_sign_raw(const grove_dgsp_cfg *cfg, const uint8_t *msg, size_t msglen,
                  const uint8_t *seed_u, uint64_t id, const uint8_t *wots_seed,
                  const uint8_t *cert, uint8_t *sig, int allow_compat);

/*
 * Restore protection (store/guard.c). Every change made through the library is wrapped:
 * r = dgsp_guard_enter(store); if OK: r = change; r = dgsp_guard_leave(store, r). enter refuses
 * (GROVE_ERR_STATE) a store behind the registry's record; leave records the store's new
 * summary durably (or turns r into an error if it cannot). Both do nothing without a registry.
 */
typedef struct grove_dgsp_guard grove_dgsp_guard;
int dgsp_guard_enter(grove_dgsp_store *store);
int dgsp_guard_leave(grove_dgsp_store *store, int r);
void dgsp_guard_free(grove_dgsp_guard *g);
const char *dgsp_guard_message(const grove_dgsp_store *store);

#endif
