/* SPDX-License-Identifier: MIT OR Apache-2.0 */
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
 * PRIVATE-KEY FORMAT: the key state (grove's own, version 2; version 1 states are still read;
 * integers big-endian). It is what grove_xmss_key_export writes and a persistence callback
 * receives, and the body of the key file (an envelope, see "KEY FILE" below):
 *    0  8  magic "GRVXMSSK"         8  2  format version (2)
 *   10  1  family (0 XMSS, 1 XMSS^MT)  11 1 flags (bit 0: exhausted, seeds and cache erased)
 *   12  4  OID                     16  8  index: every index below it has been used
 *   24  8  high-water mark: indices in [index, high-water) were reserved and may have been
 *          used; no index at or above it was ever handed out; signing resumes there
 *   32  8  range start            40  8  range end (exclusive; 2^h for a whole key)
 *   48 16  key id (below)
 *   64  1  cache layout (1)        65  3  zero      68  4  cache length in bytes
 *   72     SK_SEED, SK_PRF, PUB_SEED, root (n bytes each), then the node cache
 *   end-56 4  split generation: splits this key has made (version 1: 0)
 *   end-52 4  birth: for a split part, its parent's generation after the split (else 0)
 *   end-48 16 parent id: a split part's parent key id (zero for a key from keygen)
 *   end-32 SHA-256 of "GROVE-XMSS-PRIVATE-KEY-v1" and every byte before it (integrity check)
 * (version 1 has no generation/birth/parent fields: its tag follows the cache.)
 * Key id: a key from keygen (and a version-1 file): the first 16 bytes of SHA-256(
 * "grove-xmss-key-id-v1" || family || OID || root || PUB_SEED || range start); a split part:
 * SHA-256("grove-xmss-part-id-v2" || family || OID || root || PUB_SEED || parent id || birth ||
 * range start), so a part never shares its parent's or a sibling's id.
 * Loading rejects a wrong magic, version, length, OID, inconsistent counters, a cache that does
 * not match the index, and any integrity-check mismatch (a torn or corrupted file).
 *
 * THREADS. Every function is thread-safe. A key object serializes its own signers with a
 * mutex (the callback runs under it: it must not call back into the same key).
 */
#ifndef GROVE_XMSS_H
#define GROVE_XMSS_H

#include "grove/common.h"
#include "grove/envelope.h"
#include "grove/state.h"

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
/* The number of sets: 77. */
GROVE_API size_t grove_xmss_params_count(void);
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
/* true if SP 800-208 approves the set (SHA-256, SHA-256/192, SHAKE256/256, SHAKE256/192). */
GROVE_API bool grove_xmss_params_sp800_208(const grove_xmss_params *p);
/*
 * Sizes (0 for NULL). There is no _sk_bytes: a secret key is a grove_xmss_key object, and its
 * saved state (grove_xmss_key_state_bytes) carries a node cache whose size depends on the key.
 */
GROVE_API size_t grove_xmss_pk_bytes(const grove_xmss_params *p);
GROVE_API size_t grove_xmss_sig_bytes(const grove_xmss_params *p);
/* Bytes of the index field at the start of a signature. */
GROVE_API size_t grove_xmss_index_bytes(const grove_xmss_params *p);
/* Signatures a whole key can make: 2^h. */
GROVE_API uint64_t grove_xmss_total_signatures(const grove_xmss_params *p);

/* ---- verification (anyone) ---------------------------------------------------------------- */

/*
 * The parameter set of a public key (*p): its OID looked up in `family`. GROVE_ERR_ENCODING if
 * pk_len is not 4 + 2n for that set (or < 4), GROVE_ERR_UNSUPPORTED for an unregistered OID.
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_pk_params(grove_xmss_family family,
                                                           const grove_xmss_params **p,
                                                           const uint8_t *pk, size_t pk_len);

/*
 * Verify a signature of msg under pk (pk_len bytes: the set comes from pk's OID). GROVE_OK if
 * valid. GROVE_ERR_VERIFY if not, whatever the reason: a signature of the wrong length (short or
 * with trailing bytes), an index >= 2^h, a bad value. GROVE_ERR_ENCODING /
 * GROVE_ERR_UNSUPPORTED for a malformed public key or unknown OID (as grove_xmss_pk_params);
 * GROVE_ERR_INVALID_ARG for a NULL sig (or a NULL msg with msg_len > 0).
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_verify(grove_xmss_family family,
                                                        const uint8_t *sig, size_t sig_len,
                                                        const uint8_t *msg, size_t msg_len,
                                                        const uint8_t *pk, size_t pk_len);

/* The index field of a signature (no verification). GROVE_ERR_ENCODING if sig_len is wrong. */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_sig_index(const grove_xmss_params *p,
                                                           uint64_t *idx, const uint8_t *sig,
                                                           size_t sig_len);

/* ---- key generation ----------------------------------------------------------------------- */

/* Progress of long operations: `done` of `total` leaves computed (called on the calling thread). */
typedef void (*grove_xmss_progress_fn)(void *arg, uint64_t done, uint64_t total);

typedef struct grove_xmss_opts {
    unsigned threads;                /* tree building: at most this many threads, the calling
                                        thread included; 1 = the calling thread only,
                                        GROVE_THREADS_AUTO (0) = one per online CPU */
    grove_xmss_progress_fn progress; /* may be NULL */
    void *progress_arg;
} grove_xmss_opts;

typedef struct grove_xmss_key grove_xmss_key;

/*
 * A key pair (*key) from 3n bytes of grove_randombytes (SK_SEED, SK_PRF, PUB_SEED). opts may be
 * NULL (all threads, no progress).
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_keygen(const grove_xmss_params *p,
                                                        grove_xmss_key **key,
                                                        const grove_xmss_opts *opts);
/* The key pair of the given seeds (n bytes each), e.g. for known-answer tests. */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_keygen_from_seed(const grove_xmss_params *p,
                                                                  grove_xmss_key **key,
                                                                  const uint8_t *sk_seed,
                                                                  const uint8_t *sk_prf,
                                                                  const uint8_t *pub_seed,
                                                                  const grove_xmss_opts *opts);
/* Wipes and frees a key (NULL is ignored). */
GROVE_API void grove_xmss_key_free(grove_xmss_key *key);

/* ---- queries ------------------------------------------------------------------------------ */

GROVE_API const grove_xmss_params *grove_xmss_key_params(const grove_xmss_key *key);
/* pk receives grove_xmss_pk_bytes(p) bytes. */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_key_public_key(const grove_xmss_key *key,
                                                                uint8_t *pk);
/* The next index this key will sign with. */
GROVE_API uint64_t grove_xmss_key_index(const grove_xmss_key *key);
/* Signatures this key can still make (0 when exhausted). */
GROVE_API uint64_t grove_xmss_key_remaining(const grove_xmss_key *key);
/* The key's index range [start, end) (a whole key: [0, 2^h)). */
GROVE_API void grove_xmss_key_range(const grove_xmss_key *key, uint64_t *start, uint64_t *end);
GROVE_API void grove_xmss_key_id(const grove_xmss_key *key, uint8_t id[GROVE_XMSS_KEY_ID_BYTES]);

/* ---- signing ------------------------------------------------------------------------------ */

/*
 * Persistence callback: store `state_len` bytes of key state (the private-key format) durably,
 * e.g. write a temporary file, fsync it, rename it over the key file and fsync the directory
 * (grove_xmss_keyfile_encode gives the bytes of grove's key file; the grove_xmss_keyfile_*
 * functions below do all of this).
 * Return GROVE_OK on success, any other status on failure. Called with the key's mutex held.
 */
typedef grove_status (*grove_xmss_persist_fn)(void *arg, const uint8_t *state, size_t state_len);

GROVE_API GROVE_MUST_USE grove_status grove_xmss_key_set_persist(grove_xmss_key *key,
                                                                 grove_xmss_persist_fn fn,
                                                                 void *arg);
/*
 * Reserve `batch` indices per callback (default 1; at most 2^20). A crash, or freeing the key,
 * burns the reserved indices not yet used.
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_key_set_batch(grove_xmss_key *key,
                                                               uint32_t batch);

/*
 * Sign msg: sig receives grove_xmss_sig_bytes(p) bytes; *idx (may be NULL) the index used.
 * GROVE_ERR_STATE without a persistence callback, GROVE_ERR_EXHAUSTED when no index is left,
 * GROVE_ERR_STORAGE if the callback failed (sig is zeroed and nothing was signed).
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_key_sign(grove_xmss_key *key, uint8_t *sig,
                                                          uint64_t *idx, const uint8_t *msg,
                                                          size_t msg_len);

/*
 * Streaming signature of a long message. begin reserves the index (through the callback, as
 * above) and returns a context; update hashes message pieces; finish writes the signature and
 * frees the context; abort frees it without signing (the index stays used). Contexts are
 * independent of each other and of the key (which may be freed meanwhile).
 */
typedef struct grove_xmss_sign_ctx grove_xmss_sign_ctx;
GROVE_API GROVE_MUST_USE grove_status grove_xmss_key_sign_begin(grove_xmss_key *key,
                                                                grove_xmss_sign_ctx **ctx,
                                                                uint64_t *idx);
GROVE_API GROVE_MUST_USE grove_status grove_xmss_sign_update(grove_xmss_sign_ctx *ctx,
                                                             const uint8_t *msg, size_t msg_len);
GROVE_API GROVE_MUST_USE grove_status grove_xmss_sign_finish(grove_xmss_sign_ctx *ctx,
                                                             uint8_t *sig);
/*
 * grove_xmss_sign_finish, then the signature is verified against the key's public key for the
 * message digest that was signed (the work of one verification); if it does not verify, sig is
 * zeroed and GROVE_ERR_INTERNAL returned (the index stays used). grove's command signs this way.
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_sign_finish_checked(grove_xmss_sign_ctx *ctx,
                                                                     uint8_t *sig);
GROVE_API void grove_xmss_sign_abort(grove_xmss_sign_ctx *ctx);

/* ---- key state (the private-key format) --------------------------------------------------- */

/* Size of the state grove_xmss_key_export writes (the callback receives the same size). */
GROVE_API size_t grove_xmss_key_state_bytes(const grove_xmss_key *key);
/*
 * The current state in the private-key format, e.g. to save a freshly generated key. The
 * high-water mark written is the key's current reservation. *out_len receives the size (the
 * size needed with GROVE_ERR_BUFFER_TOO_SMALL).
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_key_export(grove_xmss_key *key, uint8_t *out,
                                                            size_t out_cap, size_t *out_len);
/*
 * Load a key from its state (see the format above). Signing resumes at the high-water mark;
 * the node cache is brought up to that index (opts: threads and progress for that work; may
 * be NULL). GROVE_ERR_ENCODING for a malformed state, GROVE_ERR_UNSUPPORTED for an unknown
 * version or OID, GROVE_ERR_STATE for an integrity-check mismatch or inconsistent contents.
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_key_load(grove_xmss_key **key,
                                                          const uint8_t *state, size_t state_len,
                                                          const grove_xmss_opts *opts);

/*
 * What a state says (*info; NULL to only check it), checked (length, counters, integrity) but
 * without loading the key. Errors as grove_xmss_key_load.
 */
typedef struct grove_xmss_state_info {
    const grove_xmss_params *params;
    unsigned version;
    uint64_t index, high_water, range_start, range_end;
    uint64_t remaining; /* range_end - high_water */
    bool exhausted;      /* the seeds have been erased */
    uint32_t generation; /* splits this key has made */
    uint32_t birth;      /* a split part: its parent's generation after the split; else 0 */
    bool has_parent;     /* a split part made by format version 2 */
    uint8_t parent_id[GROVE_XMSS_KEY_ID_BYTES];
    uint8_t key_id[GROVE_XMSS_KEY_ID_BYTES];
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES];
    size_t pk_bytes;
    /* The key file's form: GROVE_ENVELOPE_ARMORED or _BINARY (a grove envelope, see "KEY FILE"
       below), or GROVE_ENVELOPE_XMSS_KEY_FILE: the bare state, as a key file of an older grove
       (and every state given to grove_xmss_state_info_get) is. */
    grove_envelope_form form;
} grove_xmss_state_info;
GROVE_API GROVE_MUST_USE grove_status grove_xmss_state_info_get(grove_xmss_state_info *info,
                                                                const uint8_t *state,
                                                                size_t state_len);

/*
 * Key split: hand the last `count` indices of the key's range to a new key (*out, with its own
 * key id; the key's split generation goes up by one). The shortened range of `key` is
 * persisted through its callback (required) BEFORE the new key exists, so a crash can lose
 * that range but never give it to two keys. The new key needs its own callback before it
 * signs; save it (grove_xmss_key_export) at once.
 * GROVE_ERR_EXHAUSTED if fewer than `count` unreserved indices are left.
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_key_split(grove_xmss_key *key,
                                                           grove_xmss_key **out, uint64_t count,
                                                           const grove_xmss_opts *opts);

/* ---- key files and the state registry ------------------------------------------------------ */
/*
 * KEY FILE. The file holding a private key is a grove envelope (grove/envelope.h) of scheme
 * "XMSS" (XMSS^MT too; the set tells), the parameter set, type "SECRET KEY" and the key id of
 * its public key (the id its public key and signatures carry), whose body is the state in the
 * private-key format above, with its own integrity check inside the envelope's check. Armored
 * text by default, binary on request (the form given to grove_xmss_keyfile_create / _split);
 * every later rewrite (each reservation, a split, a recovery) keeps the form the file has.
 * A bare state ("GRVXMSSK" at offset 0: the key file of a grove before the envelope) is still
 * read, and is rewritten as the binary envelope at its next durable write (the first
 * reservation, split or recovery): the bytes stay binary, the file gains the description.
 */
#define GROVE_XMSS_FILE_TYPE "SECRET KEY"

/* The largest key file of set p in any form (the armored envelope of its largest state). */
GROVE_API size_t grove_xmss_keyfile_max_bytes(const grove_xmss_params *p);

/* true if in starts like an XMSS key file: a bare state, or an envelope of scheme "XMSS" and
 * type "SECRET KEY" in either form (nothing is checked). */
GROVE_API bool grove_xmss_keyfile_detect(const uint8_t *in, size_t in_len);

/*
 * The key file of a state (grove_xmss_key_export, or what a persistence callback receives) in
 * form GROVE_ENVELOPE_ARMORED or _BINARY: (out, out_cap, &out_len) as in common.h. The state is
 * checked (grove_xmss_state_info_get) for its set and public key. out holds the secret state:
 * wipe it.
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_keyfile_encode(uint8_t *out, size_t out_cap,
                                                                size_t *out_len,
                                                                const uint8_t *state,
                                                                size_t state_len,
                                                                grove_envelope_form form);

/*
 * The state inside the bytes of a key file (either envelope form, or a bare state): *state
 * points into buf (buf_cap >= in_len suffices; buf may be in itself, to decode in place, but
 * may not overlap it otherwise); info (may be NULL) receives what it says, form included. The
 * envelope (its check, scheme, type), the state (as grove_xmss_state_info_get) and their
 * agreement (the envelope's set and key id are those of the key held) are checked; err (may be
 * NULL) receives a sentence. GROVE_ERR_ENCODING: not an XMSS key file (another grove file is
 * named), malformed or truncated; GROVE_ERR_UNSUPPORTED: an unknown version or set;
 * GROVE_ERR_STATE: an integrity-check failure of the envelope or the state, or a description
 * that disagrees with the key (a damaged or altered file). On failure buf is wiped.
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_keyfile_decode(const uint8_t **state,
                                                                size_t *state_len,
                                                                grove_xmss_state_info *info,
                                                                uint8_t *buf, size_t buf_cap,
                                                                const uint8_t *in, size_t in_len,
                                                                char *err, size_t err_cap);

/*
 * A key file used through these functions gets the protection of the grove command: the file is
 * locked (flock) while open, the state registry (grove/state.h; entries of kind "xmss", one per
 * key id) records for every key its parameter set, index range, high-water mark, split
 * generation and the splits it made, and a file that disagrees with its entry is refused:
 *   - a file behind its entry (a restored backup, a copy that another copy overtook, a pre-split
 *     copy: lower high-water mark, larger range end or lower generation) is "stale": refused
 *     with GROVE_ERR_STATE, and brought forward by opening it with GROVE_XMSS_KEYFILE_RECOVER
 *     (high-water mark raised, range end lowered, generation set to the entry's; never back);
 *   - a file ahead of its entry (a crash between the file and the entry write, or use with no
 *     registry) is accepted and the entry catches up;
 *   - a file of another range start or parameter set under the same id is refused for good.
 * Signing through grove_xmss_keyfile_key(kf) persists each reservation to the file (replaced
 * atomically, lock kept) and then to the entry, before the signature exists. Every failure
 * writes one sentence (what, why, what to do) into err (err_cap bytes; may be NULL): this
 * diagnostic output comes last in every keyfile function.
 * reg may be NULL: no registry (the file is still locked; restored copies are not detected).
 */
#define GROVE_XMSS_ERR_CAP 512

typedef struct grove_xmss_split_rec {
    uint32_t generation; /* the source's generation after this split */
    uint64_t start, end; /* the range given away */
    uint8_t child_id[GROVE_XMSS_KEY_ID_BYTES];
} grove_xmss_split_rec;

/* A registry entry of an XMSS key. */
typedef struct grove_xmss_record {
    bool legacy;                     /* grove 0.1 entry: only the high-water mark is known */
    const grove_xmss_params *params; /* NULL for a legacy entry */
    uint64_t range_start, range_end, high_water;
    uint32_t generation;
    bool pending;                    /* a split was started and not finished */
    char *pending_path;              /* its part's file (absolute; malloc'd) */
    bool has_parent;
    uint8_t parent_id[GROVE_XMSS_KEY_ID_BYTES];
    size_t nsplits;
    grove_xmss_split_rec *splits;    /* malloc'd: grove_xmss_record_free */
} grove_xmss_record;

/*
 * Read the entry of a key id into *rec without locking it: GROVE_ERR_NOT_FOUND, GROVE_ERR_STATE
 * (damaged). Free it with grove_xmss_record_free.
 */
GROVE_API GROVE_MUST_USE grove_status
grove_xmss_record_read(grove_registry *reg, grove_xmss_record *rec,
                       const uint8_t id[GROVE_XMSS_KEY_ID_BYTES]);
GROVE_API void grove_xmss_record_free(grove_xmss_record *rec);

typedef enum grove_xmss_file_verdict {
    GROVE_XMSS_FILE_CURRENT = 0,       /* agrees with its entry, or is ahead of it */
    GROVE_XMSS_FILE_UNREGISTERED = 1,  /* no entry (one is made at the next open) */
    GROVE_XMSS_FILE_SPLIT_PENDING = 2, /* the source of an interrupted split, as it was before:
                                          the next open completes the split */
    GROVE_XMSS_FILE_STALE = 3,         /* behind its entry: refused; recoverable */
    GROVE_XMSS_FILE_CONFLICT = 4       /* another range start or set: refused, not recoverable */
} grove_xmss_file_verdict;

/*
 * How a key file (its checked state info) stands against its entry (NULL: none); why (why_cap
 * bytes; may be NULL) receives a sentence.
 */
GROVE_API grove_xmss_file_verdict grove_xmss_file_check(const grove_xmss_state_info *file,
                                                        const grove_xmss_record *rec, char *why,
                                                        size_t why_cap);

typedef struct grove_xmss_keyfile grove_xmss_keyfile;

enum {
    GROVE_XMSS_KEYFILE_RECOVER = 1 /* bring a stale file forward to its entry instead of refusing */
};

/*
 * Open and lock a key file and its registry entry, check the file against the entry (completing
 * an interrupted split, or with GROVE_XMSS_KEYFILE_RECOVER fast-forwarding a stale file), load
 * the key and set its persistence callback. Reads are capped at the largest key file of the
 * file's parameter set. GROVE_ERR_IO (cannot open/read), GROVE_ERR_ENCODING/UNSUPPORTED (not a
 * key file), GROVE_ERR_STATE (integrity failure, stale or conflicting file, damaged entry).
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_keyfile_open(grove_xmss_keyfile **kf,
                                                              const char *path,
                                                              grove_registry *reg, unsigned flags,
                                                              const grove_xmss_opts *opts,
                                                              char *err, size_t err_cap);
/* The key (owned by kf; sign with grove_xmss_key_sign / _sign_begin). */
GROVE_API grove_xmss_key *grove_xmss_keyfile_key(grove_xmss_keyfile *kf);
/* What the file says now (after any write). */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_keyfile_info(grove_xmss_keyfile *kf,
                                                              grove_xmss_state_info *info);
/* true if the open fast-forwarded the file or completed an interrupted split. */
GROVE_API bool grove_xmss_keyfile_changed(const grove_xmss_keyfile *kf);
/* The registry entry's file (NULL without a registry), e.g. to refuse it as an output. */
GROVE_API const char *grove_xmss_keyfile_entry_path(const grove_xmss_keyfile *kf);
/* The sentence of the last failed reservation (GROVE_ERR_STORAGE from signing). */
GROVE_API const char *grove_xmss_keyfile_error(const grove_xmss_keyfile *kf);
/*
 * Move the last `count` unreserved indices to a new key file out_path (must not exist), written
 * in form (GROVE_ENVELOPE_ARMORED or _BINARY; the source keeps its own). With a registry: the
 * split is recorded in the source's entry first (marked pending), the part's entry is created,
 * the part's file is written, then the shrunk source file, then the mark is cleared; a crash at
 * any point leaves at most the moved range unusable (the next open of the source completes the
 * split). Without a registry the source is shrunk before the part exists.
 * *start / *end (may be NULL) receive the moved range.
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_keyfile_split(grove_xmss_keyfile *kf,
                                                               uint64_t *start, uint64_t *end,
                                                               uint64_t count,
                                                               const char *out_path,
                                                               grove_envelope_form form,
                                                               const grove_xmss_opts *opts,
                                                               char *err, size_t err_cap);
/*
 * Save a freshly generated key as a new file (must not exist; never replaced) in form
 * (GROVE_ENVELOPE_ARMORED or _BINARY) and register it. Refused (GROVE_ERR_STATE) if its entry
 * shows it was already used (same seeds regenerated).
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_keyfile_create(const char *path,
                                                                grove_registry *reg,
                                                                grove_xmss_key *key,
                                                                grove_envelope_form form,
                                                                char *err, size_t err_cap);
/*
 * What a key file says (checked as grove_xmss_keyfile_decode, its form included; read capped at
 * the largest key file of its set), without locking or loading it, e.g. for a report.
 */
GROVE_API GROVE_MUST_USE grove_status grove_xmss_keyfile_read_info(grove_xmss_state_info *info,
                                                                   const char *path, char *err,
                                                                   size_t err_cap);
/* Unlock and free (the key too; NULL is ignored). */
GROVE_API void grove_xmss_keyfile_close(grove_xmss_keyfile *kf);

#ifdef __cplusplus
}
#endif
#endif
