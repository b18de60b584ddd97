/*
 * grove/xmss.h - XMSS and XMSS^MT (RFC 8391, NIST SP 800-208): stateful hash-based signatures.
 *
 * PARAMETER SETS. All 21 XMSS and 56 XMSS^MT sets of RFC 8391 and SP 800-208, chosen at run
 * time by their registered name ("XMSS-SHA2_10_256", "XMSSMT-SHAKE256_40/4_192", ...; case and
 * '/' versus '-' do not matter) or by family and OID. XMSS and XMSS^MT have separate OID spaces:
 * OID 1 is XMSS-SHA2_10_256 in an XMSS key and XMSSMT-SHA2_20/2_256 in an XMSS^MT key, so every
 * OID lookup takes the family. Naming trap: "SHAKE" sets of RFC 8391 use SHAKE128 (n = 32) or
 * SHAKE256 (n = 64); the SP 800-208 "SHAKE256" sets use SHAKE256 for n = 32 and n = 24.
 *
 * BYTE FORMATS (RFC 8391). Public key = OID (4, big-endian) || root (n) || PUB_SEED (n).
 * Signature = idx (4 bytes for XMSS, ceil(h/8) for XMSS^MT) || r (n) || per layer, bottom
 * first: WOTS+ signature (len * n) || authentication path (h/d * n). No OID, no message.
 *
 * KEYS. WOTS+ secret keys are derived with PRF_keygen(SK_SEED, PUB_SEED || ADRS) as SP 800-208
 * and the current reference implementation do, so keys from the same seeds match liboqs, Botan
 * and the reference. A secret key is a grove_xmss_key object holding the seeds, the index and a
 * cache of tree nodes (so a signature costs a bounded, small amount of hashing: a WOTS+
 * signature plus at most one leaf per tree level, never a tree rebuild).
 *
 * STATE. An XMSS index must never sign twice. The key object enforces reserve-then-sign:
 *   - it refuses to sign until a persistence callback is set (GROVE_ERR_STATE);
 *   - before a signature is computed, its index is reserved by handing the new key state (the
 *     grove private-key format below) to the callback, which must store it durably; if the
 *     callback fails, nothing is signed, the output is wiped and GROVE_ERR_STORAGE is returned;
 *   - with a batch size k > 1, one callback reserves k indices; a crash burns (never reuses)
 *     the ones not yet used;
 *   - when the last index is used the seeds are wiped; an exhausted key returns
 *     GROVE_ERR_EXHAUSTED. The last leaf (index 2^h - 1) signs validly.
 * COPYING A KEY FILE IS DANGEROUS: two copies sign with the same indices and that breaks
 * security. Restoring an old backup does the same. To let several signers share a key pair,
 * use grove_xmss_key_split, which hands a disjoint index range to a new key.
 *
 * SP 800-208 requires key generation and signing to happen inside a FIPS 140 level-3 hardware
 * module that never exports the private key. Software signing (this library, the grove
 * command) cannot meet that requirement: grove is NOT SP 800-208-conformant for key generation
 * and signing. Verification is unaffected and conforms.
 *
 * PRIVATE-KEY FORMAT (grove's own, version 1; integers big-endian):
 *    0  8  magic "GRVXMSSK"         8  2  format version (1)
 *   10  1  family (0 XMSS, 1 XMSS^MT)  11 1 flags (bit 0: exhausted, seeds and cache erased)
 *   12  4  OID                     16  8  index: every index below it has been used
 *   24  8  high-water mark: indices in [index, high-water) were reserved and may have been
 *          used; no index at or above it was ever handed out; signing resumes there
 *   32  8  range start            40  8  range end (exclusive; 2^h for a whole key)
 *   48 16  key id (hash of the public key and the range start)
 *   64  1  cache layout (1)        65  3  zero      68  4  cache length in bytes
 *   72     SK_SEED, SK_PRF, PUB_SEED, root (n bytes each), then the node cache
 *   end-32 SHA-256 of "GROVE-XMSS-PRIVATE-KEY-v1" and every byte before it (integrity check)
 * Loading rejects a wrong magic, version, length, OID, inconsistent counters, a cache that does
 * not match the index, and any integrity-check mismatch (a torn or corrupted file).
 *
 * THREADS. Every function is thread-safe. A key object serializes its own signers with a
 * mutex (the callback runs under it: it must not call back into the same key).
 */
#ifndef GROVE_XMSS_H
#define GROVE_XMSS_H

#include "grove/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest sizes over all 77 sets, for static allocation. */
#define GROVE_XMSS_MAX_N 64
#define GROVE_XMSS_MAX_PK_BYTES 132
#define GROVE_XMSS_MAX_SIG_BYTES 104520 /* XMSSMT-SHA2_60/12_512 */
#define GROVE_XMSS_MAX_SEED_BYTES 192   /* 3n */
#define GROVE_XMSS_KEY_ID_BYTES 16

typedef enum grove_xmss_family {
    GROVE_XMSS_FAMILY_XMSS = 0,
    GROVE_XMSS_FAMILY_XMSSMT = 1
} grove_xmss_family;

typedef struct grove_xmss_params grove_xmss_params;

/* ---- parameter sets ----------------------------------------------------------------------- */

/* Look a set up by name; NULL if unknown. */
GROVE_API const grove_xmss_params *grove_xmss_params_get(const char *name);
/* Look a set up by family and OID; NULL if the OID is not registered in that family. */
GROVE_API const grove_xmss_params *grove_xmss_params_from_oid(grove_xmss_family family,
                                                               uint32_t oid);
/* The i-th of the 77 sets (21 XMSS, then 56 XMSS^MT, each in OID order), NULL past the end. */
GROVE_API const grove_xmss_params *grove_xmss_params_at(size_t i);

GROVE_API const char *grove_xmss_params_name(const grove_xmss_params *p);
GROVE_API grove_xmss_family grove_xmss_params_family(const grove_xmss_params *p);
GROVE_API uint32_t grove_xmss_params_oid(const grove_xmss_params *p);
/* "SHA2-256", "SHA2-256/192", "SHA2-512", "SHAKE128", "SHAKE256" (output cut to n bytes). */
GROVE_API const char *grove_xmss_params_hash(const grove_xmss_params *p);
GROVE_API unsigned grove_xmss_params_n(const grove_xmss_params *p);
GROVE_API unsigned grove_xmss_params_height(const grove_xmss_params *p);      /* total h */
GROVE_API unsigned grove_xmss_params_layers(const grove_xmss_params *p);      /* d (1 for XMSS) */
GROVE_API unsigned grove_xmss_params_tree_height(const grove_xmss_params *p); /* h / d */
GROVE_API unsigned grove_xmss_params_wots_len(const grove_xmss_params *p);    /* len = 2n + 3 */
/* 1 if SP 800-208 approves the set (SHA-256, SHA-256/192, SHAKE256/256, SHAKE256/192). */
GROVE_API int grove_xmss_params_sp800_208(const grove_xmss_params *p);
GROVE_API size_t grove_xmss_pk_bytes(const grove_xmss_params *p);
GROVE_API size_t grove_xmss_sig_bytes(const grove_xmss_params *p);
/* Bytes of the index field at the start of a signature. */
GROVE_API size_t grove_xmss_index_bytes(const grove_xmss_params *p);
/* Signatures a whole key can make: 2^h. */
GROVE_API uint64_t grove_xmss_total_signatures(const grove_xmss_params *p);

/* ---- verification (anyone) ---------------------------------------------------------------- */

/*
 * The parameter set of a public key: its OID looked up in `family`. GROVE_ERR_ENCODING if pklen
 * is not 4 + 2n for that set (or < 4), GROVE_ERR_UNSUPPORTED for an unregistered OID.
 */
GROVE_API int grove_xmss_pk_params(grove_xmss_family family, const uint8_t *pk, size_t pklen,
                                   const grove_xmss_params **p);

/*
 * Verify a signature. GROVE_OK if valid. GROVE_ERR_VERIFY if not, including a signature of the
 * wrong length (short or with trailing bytes) or with an index >= 2^h. GROVE_ERR_ENCODING /
 * GROVE_ERR_UNSUPPORTED for a malformed public key or unknown OID (as grove_xmss_pk_params).
 */
GROVE_API int grove_xmss_verify(grove_xmss_family family, const uint8_t *pk, size_t pklen,
                                const uint8_t *msg, size_t msglen, const uint8_t *sig,
                                size_t siglen);

/* The index field of a signature (no verification). GROVE_ERR_ENCODING if siglen is wrong. */
GROVE_API int grove_xmss_sig_index(const grove_xmss_params *p, const uint8_t *sig, size_t siglen,
                                   uint64_t *idx);

/* ---- key generation ----------------------------------------------------------------------- */

/* Progress of long operations: `done` of `total` leaves computed (called on the calling thread). */
typedef void (*grove_xmss_progress_fn)(void *arg, uint64_t done, uint64_t total);

typedef struct grove_xmss_opts {
    unsigned threads;                /* worker threads for tree building; 0 or 1: calling thread */
    grove_xmss_progress_fn progress; /* may be NULL */
    void *progress_arg;
} grove_xmss_opts;

typedef struct grove_xmss_key grove_xmss_key;

/* A key pair from 3n bytes of grove_randombytes (SK_SEED, SK_PRF, PUB_SEED). opts may be NULL. */
GROVE_API int grove_xmss_keygen(const grove_xmss_params *p, const grove_xmss_opts *opts,
                                grove_xmss_key **key);
/* The key pair of the given seeds (n bytes each), e.g. for known-answer tests. */
GROVE_API int grove_xmss_keygen_from_seed(const grove_xmss_params *p, const uint8_t *sk_seed,
                                          const uint8_t *sk_prf, const uint8_t *pub_seed,
                                          const grove_xmss_opts *opts, grove_xmss_key **key);
/* Wipes and frees a key (NULL is ignored). */
GROVE_API void grove_xmss_key_free(grove_xmss_key *key);

/* ---- queries ------------------------------------------------------------------------------ */

GROVE_API const grove_xmss_params *grove_xmss_key_params(const grove_xmss_key *key);
/* pk receives grove_xmss_pk_bytes(p) bytes. */
GROVE_API int grove_xmss_key_public_key(const grove_xmss_key *key, uint8_t *pk);
/* The next index this key will sign with. */
GROVE_API uint64_t grove_xmss_key_index(const grove_xmss_key *key);
/* Signatures this key can still make (0 when exhausted). */
GROVE_API uint64_t grove_xmss_key_remaining(const grove_xmss_key *key);
/* The key's index range [start, end) (a whole key: [0, 2^h)). */
GROVE_API void grove_xmss_key_range(const grove_xmss_key *key, uint64_t *start, uint64_t *end);
GROVE_API void grove_xmss_key_id(const grove_xmss_key *key, uint8_t id[GROVE_XMSS_KEY_ID_BYTES]);

/* ---- signing ------------------------------------------------------------------------------ */

/*
 * Persistence callback: store `len` bytes of key state (the private-key format) durably, e.g.
 * write a temporary file, fsync it, rename it over the key file and fsync the directory.
 * Return 0 on success, anything else on failure. Called with the key's mutex held.
 */
typedef int (*grove_xmss_persist_fn)(void *arg, const uint8_t *state, size_t len);

GROVE_API int grove_xmss_key_set_persist(grove_xmss_key *key, grove_xmss_persist_fn fn,
                                         void *arg);
/*
 * Reserve `batch` indices per callback (default 1; at most 2^20). A crash, or freeing the key,
 * burns the reserved indices not yet used.
 */
GROVE_API int grove_xmss_key_set_batch(grove_xmss_key *key, uint32_t batch);

/*
 * Sign: sig receives grove_xmss_sig_bytes(p) bytes; *idx (may be NULL) the index used.
 * GROVE_ERR_STATE without a persistence callback, GROVE_ERR_EXHAUSTED when no index is left,
 * GROVE_ERR_STORAGE if the callback failed (sig is zeroed and nothing was signed).
 */
GROVE_API int grove_xmss_key_sign(grove_xmss_key *key, const uint8_t *msg, size_t msglen,
                                  uint8_t *sig, uint64_t *idx);

/*
 * Streaming signature of a long message. begin reserves the index (through the callback, as
 * above) and returns a context; update hashes message pieces; finish writes the signature and
 * frees the context; abort frees it without signing (the index stays used). Contexts are
 * independent of each other and of the key (which may be freed meanwhile).
 */
typedef struct grove_xmss_sign_ctx grove_xmss_sign_ctx;
GROVE_API int grove_xmss_key_sign_begin(grove_xmss_key *key, grove_xmss_sign_ctx **ctx,
                                        uint64_t *idx);
GROVE_API int grove_xmss_sign_update(grove_xmss_sign_ctx *ctx, const uint8_t *data, size_t len);
GROVE_API int grove_xmss_sign_finish(grove_xmss_sign_ctx *ctx, uint8_t *sig);
GROVE_API void grove_xmss_sign_abort(grove_xmss_sign_ctx *ctx);

/* ---- key state (the private-key format) --------------------------------------------------- */

/* Size of the state grove_xmss_key_export writes (the callback receives the same size). */
GROVE_API size_t grove_xmss_key_state_bytes(const grove_xmss_key *key);
/*
 * The current state in the private-key format, e.g. to save a freshly generated key. The
 * high-water mark written is the key's current reservation. *len receives the size.
 */
GROVE_API int grove_xmss_key_export(grove_xmss_key *key, uint8_t *out, size_t cap, size_t *len);
/*
 * Load a key from its state (see the format above). Signing resumes at the high-water mark;
 * the node cache is brought up to that index (opts: threads and progress for that work; may
 * be NULL). GROVE_ERR_ENCODING for a malformed state, GROVE_ERR_UNSUPPORTED for an unknown
 * version or OID, GROVE_ERR_STATE for an integrity-check mismatch or inconsistent contents.
 */
GROVE_API int grove_xmss_key_load(const uint8_t *state, size_t len, const grove_xmss_opts *opts,
                                  grove_xmss_key **key);

/* What a state says, checked (length, counters, integrity) but without loading the key. */
typedef struct grove_xmss_state_info {
    const grove_xmss_params *params;
    unsigned version;
    uint64_t index, high_water, range_start, range_end;
    uint64_t remaining; /* range_end - high_water */
    int exhausted;      /* 1 if the seeds have been erased */
    uint8_t key_id[GROVE_XMSS_KEY_ID_BYTES];
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES];
    size_t pk_bytes;
} grove_xmss_state_info;
GROVE_API int grove_xmss_state_info_get(const uint8_t *state, size_t len,
                                        grove_xmss_state_info *info);

/*
 * Key split: hand the last `count` indices of the key's range to a new key (*out, with its own
 * key id). The shortened range of `key` is persisted through its callback (required) BEFORE
 * the new key exists, so a crash can lose that range but never give it to two keys. The new
 * key needs its own callback before it signs; save it (grove_xmss_key_export) at once.
 * GROVE_ERR_EXHAUSTED if fewer than `count` unreserved indices are left.
 */
GROVE_API int grove_xmss_key_split(grove_xmss_key *key, uint64_t count,
                                   const grove_xmss_opts *opts, grove_xmss_key **out);

#ifdef __cplusplus
}
#endif
#endif
