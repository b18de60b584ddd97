/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/dgsp.h - DGSP, post-quantum fully-dynamic group signatures (IACR ePrint 2025/760),
 * byte-compatible with the Rust crate seyyedarashazimi/dgsp 0.1.x where it is correct.
 *
 * Roles. The group MANAGER holds the manager key (a SPHINCS+ key plus two secrets), keeps the
 * member list and the revocation list (a grove_dgsp_store), admits members (join), certifies
 * their one-time WOTS+ keys (gen_cert), opens signatures (open) and revokes members. A MEMBER
 * holds a long-term seed, an id and a credential cid*, requests certificates for fresh one-time
 * keys (CSR), checks them (check_cert) and signs with a grove_dgsp_wallet (one certificate per
 * signature). ANYONE verifies a signature with the manager public key and the revocation list,
 * and can judge an opening (the manager's proof pi).
 *
 * Profiles. "grove" (default) uses a correct WOTS+. "dgsp-rs-0.1" reproduces the crate's
 * WOTS+ exactly, including two bugs that let anyone forge signatures from one signature; it is
 * for verifying, opening and judging data made by the crate only: everything that creates a
 * WOTS+ key or signature (CSR, signing) is refused with GROVE_ERR_INSECURE_PROFILE.
 *
 * Flavour. A group's SPHINCS+ is round 3.1 "simple" by default (certificates compatible with the
 * crate), or FIPS 205 SLH-DSA on opt-in (certificate messages signed with pure SLH-DSA, context
 * "grove-dgsp-cert-v1").
 *
 * Byte layouts are the crate's raw concatenations (N = 16, 24 or 32 by parameter set):
 *   manager public key  = SPHINCS+ pk (2N)
 *   manager secret key  = hash_secret (N) || aes_key (N) || SPHINCS+ sk (4N)
 *   certificate         = zeta (16) || pi (N) || SPHINCS+ signature
 *   signature           = wots_sig (len*N) || wots_rand (N) || zeta (16) || SPHINCS+ sig || tau (N)
 * Every decoder checks the exact length. All functions are thread-safe for distinct outputs;
 * stores and wallets are internally locked. Secrets are wiped after use.
 *
 * Statuses, names and argument order follow grove/common.h. Verify functions (verify, judge,
 * check_cert, revocations_verify) return GROVE_ERR_VERIFY for anything that does not verify,
 * a wrong length or a malformed encoding included; GROVE_ERR_REVOKED for a valid signature
 * whose certificate is revoked.
 */
#ifndef GROVE_DGSP_H
#define GROVE_DGSP_H

#include "grove/common.h"
#include "grove/config.h"
#include "grove/envelope.h"
#include "grove/hash.h"
#include "grove/slhdsa.h"
#include "grove/state.h"
#if GROVE_HAVE_DGSP /* (an optional component: declares nothing in a build without it) */

#ifdef __cplusplus
extern "C" {
#endif

#define GROVE_DGSP_MAX_N 32
#define GROVE_DGSP_ZETA_BYTES 16
#define GROVE_DGSP_MAX_PK_BYTES 64
#define GROVE_DGSP_MAX_SK_BYTES 192
#define GROVE_DGSP_MAX_CERT_BYTES (16 + 32 + GROVE_SLHDSA_MAX_SIG_BYTES)
#define GROVE_DGSP_MAX_SIG_BYTES (67 * 32 + 32 + 16 + GROVE_SLHDSA_MAX_SIG_BYTES + 32)
#define GROVE_DGSP_MAX_USERNAME 255 /* bytes of UTF-8, no NUL */

typedef enum grove_dgsp_profile {
    GROVE_DGSP_PROFILE_GROVE = 0,      /* correct WOTS+ (default) */
    GROVE_DGSP_PROFILE_DGSP_RS_0_1 = 1 /* the crate's WOTS+ (insecure; verify/open/judge only) */
} grove_dgsp_profile;

typedef enum grove_dgsp_flavour {
    GROVE_DGSP_FLAVOUR_R31 = 0,    /* SPHINCS+ round 3.1 simple (default, crate-compatible) */
    GROVE_DGSP_FLAVOUR_FIPS205 = 1 /* SLH-DSA, context "grove-dgsp-cert-v1" */
} grove_dgsp_flavour;

/* ---- parameter sets and a group's configuration ----------------------------------------- */

/* One of the 12 parameter sets (the SPHINCS+ sets of the crate). Opaque, static. */
typedef struct grove_dgsp_params grove_dgsp_params;

/*
 * name: "shake-256f", "sha2-128s", ... (as `grove dgsp params` prints them) or the crate's
 * feature names "sphincs_shake_256f", ...; NULL if unknown.
 */
GROVE_API const grove_dgsp_params *grove_dgsp_params_get(const char *name);
GROVE_API size_t grove_dgsp_params_count(void);
/* NULL if i >= grove_dgsp_params_count(). */
GROVE_API const grove_dgsp_params *grove_dgsp_params_at(size_t i);
/* The set's short name, e.g. "shake-256f" (NULL for NULL). */
GROVE_API const char *grove_dgsp_params_name(const grove_dgsp_params *p);

/*
 * A group's configuration: a parameter set in a flavour and a profile. Every DGSP function
 * takes one as its parameter object ("p" in grove/common.h). Read-only after
 * grove_dgsp_cfg_init; copy it freely.
 */
typedef struct grove_dgsp_cfg {
    const grove_dgsp_params *params;
    const grove_slhdsa_params *spx; /* the SPHINCS+ set, in the group's flavour */
    grove_dgsp_profile profile;
    unsigned n; /* security parameter N in bytes */
} grove_dgsp_cfg;

/* GROVE_ERR_INVALID_ARG for a NULL cfg or params, or an unknown flavour or profile value. */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_cfg_init(grove_dgsp_cfg *cfg,
                                                          const grove_dgsp_params *params,
                                                          grove_dgsp_flavour flavour,
                                                          grove_dgsp_profile profile);
/* Parse "grove" / "dgsp-rs-0.1" and "r3.1" / "fips205"; GROVE_ERR_UNSUPPORTED if unknown. */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_profile_from_name(grove_dgsp_profile *profile,
                                                                   const char *name);
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_flavour_from_name(grove_dgsp_flavour *flavour,
                                                                   const char *name);
GROVE_API const char *grove_dgsp_profile_name(grove_dgsp_profile profile);
GROVE_API const char *grove_dgsp_flavour_name(grove_dgsp_flavour flavour);
/* The configuration's flavour. */
GROVE_API grove_dgsp_flavour grove_dgsp_cfg_flavour(const grove_dgsp_cfg *cfg);
/* true if a username is acceptable: 1..255 bytes of UTF-8, no control characters. */
GROVE_API bool grove_dgsp_username_is_valid(const char *username);

/* Sizes in bytes (0 for an invalid cfg): public key, secret key, certificate, signature. */
GROVE_API size_t grove_dgsp_pk_bytes(const grove_dgsp_cfg *cfg);
GROVE_API size_t grove_dgsp_sk_bytes(const grove_dgsp_cfg *cfg);
GROVE_API size_t grove_dgsp_cert_bytes(const grove_dgsp_cfg *cfg);
GROVE_API size_t grove_dgsp_sig_bytes(const grove_dgsp_cfg *cfg);

/* ---- storage: member list and revocation list ------------------------------------------- */

/* What the member list knows of one member. */
typedef struct grove_dgsp_member {
    uint64_t id;
    uint64_t ctr; /* certificate counters issued (or reserved) so far */
    bool active;  /* false once revoked */
    size_t username_len;
    char username[GROVE_DGSP_MAX_USERNAME + 1]; /* NUL-terminated */
} grove_dgsp_member;

/*
 * What a store has issued so far; every field only ever grows. Kept by a store that supports
 * restore protection (the SQLite backend) and mirrored in the state registry.
 */
typedef struct grove_dgsp_store_summary {
    uint64_t generation;      /* changes committed (each change commits generation + 1) */
    uint64_t members;         /* next member id */
    uint64_t ctr_max;         /* largest certificate counter of any member */
    uint64_t revocations_seq; /* last signed revocation list number */
} grove_dgsp_store_summary;

/*
 * The storage interface: a small vtable any backend implements (the crate's member-list and
 * revocation-list traits plus atomic counter reservation). Every operation outside a
 * transaction is atomic; a failed operation changes nothing. Status codes:
 * GROVE_ERR_NOT_FOUND (unknown id), GROVE_ERR_EXISTS (username taken), GROVE_ERR_REVOKED
 * (inactive member), GROVE_ERR_OVERFLOW (counter), GROVE_ERR_STORAGE (backend failure).
 *
 * Multi-step changes (revoking members) are decided by the library, once for every backend,
 * inside a transaction the backend provides: tx_begin takes the store's lock and opens the
 * transaction; the tx_ operations read and write within it; tx_end(ctx, status) commits it
 * (durably) when status is GROVE_OK, rolls it back otherwise, releases the lock and returns
 * the final status. After a rollback nothing has changed.
 */
typedef struct grove_dgsp_store_ops {
    /* Adds members with the next ids (consecutive from 0); all or none. ids may be NULL. */
    grove_status (*add_members)(void *ctx, const char *const *usernames, size_t count,
                                uint64_t *ids);
    grove_status (*get_member)(void *ctx, uint64_t id, grove_dgsp_member *out);
    grove_status (*find_member)(void *ctx, const char *username, uint64_t *id);
    /* Number of members (= next id). */
    grove_status (*member_count)(void *ctx, uint64_t *count);
    /*
     * Atomically: check the member exists and is active and that ctr + count <= 2^64 - 1, set
     * *first = ctr and ctr += count. Committed durably before returning.
     */
    grove_status (*reserve)(void *ctx, uint64_t id, uint64_t count, uint64_t *first);
    /* *present = true if zeta is in the revocation list. */
    grove_status (*is_revoked)(void *ctx, const uint8_t zeta[16], bool *present);
    /* Add zetas to the revocation list (a verifier importing a published list). */
    grove_status (*add_revoked)(void *ctx, const uint8_t *zetas, size_t count);
    /* All revoked zetas in ascending byte order: calls fn for each chunk. */
    grove_status (*list_revoked)(void *ctx,
                                 grove_status (*fn)(void *arg, const uint8_t *zetas, size_t count),
                                 void *arg);
    /* Transactions (see above). */
    grove_status (*tx_begin)(void *ctx);
    grove_status (*tx_end)(void *ctx, grove_status status);
    /* A member as the transaction sees it (its row locked until tx_end where that matters). */
    grove_status (*tx_get_member)(void *ctx, uint64_t id, grove_dgsp_member *out);
    /* Mark a member inactive. */
    grove_status (*tx_deactivate)(void *ctx, uint64_t id);
    /* Add zetas to the revocation list (already present ones are ignored). */
    grove_status (*tx_add_revoked)(void *ctx, const uint8_t *zetas, size_t count);
    void (*close)(void *ctx);
    /* Small key/value data of the group (e.g. its public key). May be NULL. */
    grove_status (*meta_get)(void *ctx, const char *key, uint8_t *val, size_t cap, size_t *len);
    grove_status (*meta_set)(void *ctx, const char *key, const uint8_t *val, size_t len);
    /* Atomically increment an unsigned 64-bit counter kept as meta; returns the new value. */
    grove_status (*meta_next)(void *ctx, const char *key, uint64_t *value);
    /* The backend's message for its last failure, or NULL. May be NULL. */
    const char *(*last_error)(void *ctx);
    /*
     * Restore protection (NULL if unsupported). Every change (members added, counters
     * reserved, members revoked, revocations added, meta written) commits generation + 1 in its
     * own transaction; from this call on, a change is refused with GROVE_ERR_STATE (nothing
     * changes) while the store's generation is below `floor`. Reports the summary.
     */
    grove_status (*guard)(void *ctx, uint64_t floor, grove_dgsp_store_summary *sum);
    /*
     * Recovery of a store older than what was issued from it (NULL if unsupported), in one
     * transaction: members up to hw->members are added as "<prefix><id>" (active), every active
     * member's counter below hw->ctr_max is raised to it, revocations_seq is raised to
     * hw->revocations_seq and the generation to hw->generation + 1.
     */
    grove_status (*recover)(void *ctx, const grove_dgsp_store_summary *hw, const char *prefix,
                            uint64_t *added, uint64_t *raised);
} grove_dgsp_store_ops;

struct grove_dgsp_guard;

typedef struct grove_dgsp_store {
    const grove_dgsp_store_ops *ops;
    void *ctx;
    struct grove_dgsp_guard *guard; /* restore protection (grove_dgsp_store_set_registry) */
} grove_dgsp_store;

/* The in-memory backend (thread-safe; nothing persisted). */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_store_memory_open(grove_dgsp_store **out);
/*
 * The SQLite backend: one database file per group (WAL, synchronous=FULL, one transaction per
 * operation, safe to share between processes). create = true creates the file and schema if
 * missing; create = false fails with GROVE_ERR_NOT_FOUND if there is no grove store at path.
 * A store of an unknown schema version is refused (GROVE_ERR_UNSUPPORTED) and left unchanged.
 */
#if GROVE_HAVE_SQLITE
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_store_sqlite_open(grove_dgsp_store **out,
                                                                   const char *path, bool create);
#endif
/*
 * The PostgreSQL backend (libpq): several manager processes or machines can share one group.
 * conninfo is a libpq connection string or URI ("postgresql://user@host:5432/db?sslmode=
 * verify-full&sslrootcert=..."; TLS options pass through). create = true creates the tables on
 * first use (schema migration); create = false requires an existing grove schema. On failure
 * err (if not NULL) receives libpq's message.
 */
#if GROVE_HAVE_POSTGRES
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_store_postgres_open(grove_dgsp_store **out,
                                                                     const char *conninfo,
                                                                     bool create, char *err,
                                                                     size_t err_cap);
#endif
/* The last backend error message of a store, or NULL. */
GROVE_API const char *grove_dgsp_store_error(grove_dgsp_store *store);
/*
 * Group metadata kept in the store (GROVE_ERR_NOT_FOUND if absent or unsupported). val
 * receives at most val_cap bytes, *val_len the value's length (GROVE_ERR_BUFFER_TOO_SMALL if
 * it does not fit).
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_store_meta_get(grove_dgsp_store *store,
                                                                uint8_t *val, size_t val_cap,
                                                                size_t *val_len, const char *key);
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_store_meta_set(grove_dgsp_store *store,
                                                                const char *key,
                                                                const uint8_t *val, size_t val_len);
/* Atomically increment the counter kept as meta `key`; *value receives the new value. */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_store_meta_next(grove_dgsp_store *store,
                                                                 uint64_t *value, const char *key);

/*
 * Consistency check (SQLite: integrity_check, member ids contiguous, sane rows). report
 * receives "ok" or what is wrong. GROVE_OK or GROVE_ERR_STORAGE.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_store_check(grove_dgsp_store *store, char *report,
                                                             size_t report_cap);
/* Closes any store and frees it (NULL accepted). */
GROVE_API void grove_dgsp_store_close(grove_dgsp_store *store);

/*
 * Restore protection. Ties the store to the state registry entry (kind "dgsp-store", id =
 * SHA-256("grove-dgsp-store-v1" || group_pk)) that records what was issued from this group's
 * store on this machine (grove_dgsp_store_summary). From then on every change made through the
 * library (join, gen_cert, revoke, grove_dgsp_store_add_members/meta_set/meta_next) locks the
 * entry, refuses with GROVE_ERR_STATE if the store is behind the record in any field (a
 * restored backup or a copy: going on would issue member ids or counters again; nothing
 * changes), commits the change, and updates the record durably BEFORE the function returns,
 * i.e. before any credential or certificate can leave the process. A store ahead of the record
 * (a crash between the two commits) is accepted and the record raised. `reg` must stay open
 * until the store is closed; `where` (the store's path, may be NULL) is kept in the record for
 * messages. GROVE_ERR_UNSUPPORTED for backends without restore protection (memory, PostgreSQL).
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_store_set_registry(grove_dgsp_store *store,
                                                                    grove_registry *reg,
                                                                    const uint8_t *group_pk,
                                                                    size_t pk_len,
                                                                    const char *where);
/*
 * The store's summary and the registry's record (*recorded = false if the registry has none
 * yet). registry may be NULL. Needs grove_dgsp_store_set_registry for the registry part.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_store_summary_get(
    grove_dgsp_store *store, grove_dgsp_store_summary *sum, grove_dgsp_store_summary *registry,
    bool *recorded);
/*
 * Recover an older store (after grove_dgsp_store_set_registry): raises it to the registry's
 * record so nothing is issued twice. Members joined after the backup come back as
 * "recovered-<id>" (their credentials keep working; their names are unknown), every active
 * member's counter is raised to the largest counter ever issued (certificates issued after the
 * backup are unknown to the store: they cannot be opened to a name other than
 * "recovered-<id>", and revoking a member covers them only through the raised counter).
 * Revocations made after the backup are lost: repeat them. *added / *raised (may be NULL)
 * receive the numbers of members added and counters raised.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_store_recover(grove_dgsp_store *store,
                                                               uint64_t *added, uint64_t *raised);
/* Add members with the next ids (all or none), through restore protection. ids may be NULL. */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_store_add_members(grove_dgsp_store *store,
                                                                   uint64_t *ids,
                                                                   const char *const *usernames,
                                                                   size_t count);

/* ---- manager ---------------------------------------------------------------------------- */

/* Random manager key pair. pk: pk_bytes, sk: sk_bytes. */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_keygen_manager(const grove_dgsp_cfg *cfg,
                                                                uint8_t *pk, uint8_t *sk);
/* Deterministic manager key pair from 5N seed bytes (SK.seed, SK.prf, PK.seed, hash_secret,
 * aes_key), for tests and key escrow. */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_keygen_manager_from_seed(
    const grove_dgsp_cfg *cfg, uint8_t *pk, uint8_t *sk, const uint8_t *seed);

/* Admit a member: assigns the next id and returns the credential cid* (N bytes). */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_join(const grove_dgsp_cfg *cfg,
                                                      grove_dgsp_store *store, uint64_t *id,
                                                      uint8_t *cid_star, const char *username,
                                                      const uint8_t *sk);
/* The credential of an existing member (e.g. to re-issue it). */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_credential(const grove_dgsp_cfg *cfg,
                                                            uint8_t *cid_star, uint64_t id,
                                                            const uint8_t *sk);

/*
 * Certify `count` one-time WOTS+ public keys (count * N bytes) of member `id`. Checks the
 * member (GROVE_ERR_NOT_FOUND, GROVE_ERR_REVOKED) and cid* (constant time; GROVE_ERR_DENIED),
 * reserves `count` counters in the store before signing (GROVE_ERR_OVERFLOW if they would
 * overflow), then signs on at most `threads` threads (grove/common.h: 1 = the calling thread
 * only, GROVE_THREADS_AUTO = one per CPU). certs receives count * cert_bytes bytes in input
 * order, the same whatever the thread count. A failure after the reservation burns the
 * counters.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_gen_cert(const grove_dgsp_cfg *cfg,
                                                          grove_dgsp_store *store, uint8_t *certs,
                                                          const uint8_t *wots_pks, size_t count,
                                                          uint64_t id, const uint8_t *cid_star,
                                                          const uint8_t *sk, unsigned threads);

/*
 * Open a signature: verifies it on msg first against the public key kept in sk (no revocation
 * check; GROVE_ERR_VERIFY if it does not verify, a wrong length included), then recovers the
 * signer's id and username and the proof pi (N bytes) that anyone can check with
 * grove_dgsp_judge. username receives at most GROVE_DGSP_MAX_USERNAME + 1 bytes
 * (NUL-terminated); may be NULL.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_open(const grove_dgsp_cfg *cfg,
                                                      grove_dgsp_store *store, uint64_t *id,
                                                      char *username, uint8_t *pi,
                                                      const uint8_t *sig, size_t sig_len,
                                                      const uint8_t *msg, size_t msg_len,
                                                      const uint8_t *sk);

/*
 * Revoke members: every id must exist (else GROVE_ERR_NOT_FOUND and nothing changes); then, in
 * one store transaction, every certificate ever issued to each still-active member is added to
 * the revocation list and the member deactivated. Already revoked members (and repeated ids)
 * are skipped. All or nothing. *revoked (may be NULL) receives the number newly revoked.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_revoke(const grove_dgsp_cfg *cfg,
                                                        grove_dgsp_store *store, size_t *revoked,
                                                        const uint64_t *ids, size_t count,
                                                        const uint8_t *sk);

/* ---- member ----------------------------------------------------------------------------- */

/* A member's long-term seed (N random bytes). */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_keygen_user(const grove_dgsp_cfg *cfg,
                                                             uint8_t *seed_u);

/*
 * Certificate signing request for `count` certificates: fresh one-time seeds (count * N bytes,
 * SECRET: keep them until signing) and the WOTS+ public keys to send (count * N bytes).
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_csr(const grove_dgsp_cfg *cfg, uint8_t *wots_pks,
                                                     uint8_t *wots_seeds, size_t count,
                                                     const uint8_t *seed_u);

/*
 * Check `count` certificates (count * cert_bytes) against the manager public key, the
 * member's id and the WOTS+ keys (count * N). GROVE_ERR_VERIFY if any does not verify.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_check_cert(const grove_dgsp_cfg *cfg,
                                                            const uint8_t *certs,
                                                            const uint8_t *wots_pks, size_t count,
                                                            uint64_t id, const uint8_t *pk);

#if GROVE_HAVE_SQLITE /* wallets are SQLite databases (a file, or in memory) */
/*
 * A member's wallet: seed_u, id, cid*, and certificates with their one-time seeds. Signing takes
 * the next unused certificate, checks it, marks it used and erases its seed (durably, for a
 * file) BEFORE the signature is computed, so a certificate never signs twice. Opaque; like a
 * store, opened in memory (grove_dgsp_wallet_memory_open) or in a file (grove_dgsp_wallet_create,
 * grove_dgsp_wallet_open) and closed (and wiped) with grove_dgsp_wallet_close.
 *
 * Integrity. A wallet file carries a check value (SHA-256 over its parameters, id, cid*, seed_u
 * and group public key) verified when it is opened; a wallet whose check fails opens "damaged"
 * and refuses every change (GROVE_ERR_ENCODING). Before a certificate is marked used, the WOTS+
 * public key re-derived from seed_u and its one-time seed must equal the stored one and (when
 * the wallet holds the group public key) the certificate must verify for the wallet's id:
 * otherwise GROVE_ERR_ENCODING, nothing marked used (grove_dgsp_wallet_last_error says which).
 */
typedef struct grove_dgsp_wallet grove_dgsp_wallet;

/* A wallet in memory (nothing persisted). seed_u may be NULL (a fresh random seed). */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_memory_open(
    const grove_dgsp_cfg *cfg, grove_dgsp_wallet **out, const uint8_t *seed_u, uint64_t id,
    const uint8_t *cid_star);
/*
 * A wallet in an SQLite file (created with mode 0600; GROVE_ERR_EXISTS if the file exists).
 * Every change is committed durably before the call returns; in particular a certificate is
 * marked used, and its one-time seed erased, before its signature is computed. group_pk (the
 * manager public key, pk_bytes) may be NULL (certificates are then not re-checked before use).
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_create(const grove_dgsp_cfg *cfg,
                                                               grove_dgsp_wallet **out,
                                                               const char *path,
                                                               const uint8_t *seed_u, uint64_t id,
                                                               const uint8_t *cid_star,
                                                               const uint8_t *group_pk);
/* Open a wallet file; its configuration is read from it. */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_open(grove_dgsp_wallet **out,
                                                             const char *path);
/* Closes the wallet, wiping its secrets (NULL accepted). */
GROVE_API void grove_dgsp_wallet_close(grove_dgsp_wallet *w);
GROVE_API const grove_dgsp_cfg *grove_dgsp_wallet_cfg(const grove_dgsp_wallet *w);
/* The member's credential: id and cid* (N bytes). */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_credential(const grove_dgsp_wallet *w,
                                                                   uint64_t *id,
                                                                   uint8_t *cid_star);
/* The manager public key stored with the wallet (GROVE_ERR_NOT_FOUND if none). */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_group_pk(const grove_dgsp_wallet *w,
                                                                 uint8_t *pk);
/* Numbers of certificates requested (pending), ready to sign, and used. */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_counts(const grove_dgsp_wallet *w,
                                                               uint64_t *pending, uint64_t *ready,
                                                               uint64_t *used);
GROVE_API uint64_t grove_dgsp_wallet_id(const grove_dgsp_wallet *w);
/* Certificates ready to sign with. */
GROVE_API size_t grove_dgsp_wallet_available(const grove_dgsp_wallet *w);
/* New CSR: keeps the one-time seeds as pending, writes count * N bytes of WOTS+ keys. */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_csr(grove_dgsp_wallet *w,
                                                            uint8_t *wots_pks, size_t count);
/*
 * Import certificates for pending keys (wots_pks[i] certified by certs[i]); each is checked
 * (check_cert) against the manager public key pk. All-or-nothing: any bad certificate or
 * unknown key refuses the whole batch.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_import(grove_dgsp_wallet *w,
                                                               const uint8_t *certs,
                                                               const uint8_t *wots_pks,
                                                               size_t count, const uint8_t *pk);
/* Add one (wots_seed, certificate) pair directly (restoring a backup; known-answer tests). */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_add(grove_dgsp_wallet *w,
                                                            const uint8_t *wots_seed,
                                                            const uint8_t *cert);
/*
 * Sign msg with the next unused certificate (sig: sig_bytes); GROVE_ERR_EXHAUSTED when none
 * is left. With a state registry attached (grove_dgsp_wallet_set_registry) the certificate is
 * first recorded as used in the wallet, then in the registry, both durably, and only then is
 * the signature computed (a crash between the two is caught up by the next signature); a wallet holding as unused a certificate the registry lists as used
 * (an older copy) is refused with GROVE_ERR_STATE (see grove_dgsp_wallet_recover).
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_sign(grove_dgsp_wallet *w, uint8_t *sig,
                                                             const uint8_t *msg, size_t msg_len);

/* ---- member wallets and the state registry (grove/state.h) -------------------------------- */

struct grove_registry;
#define GROVE_DGSP_WALLET_REGISTRY_KIND "dgsp-wallet"
#define GROVE_DGSP_WALLET_REGISTRY_ID_BYTES 16
#define GROVE_DGSP_WALLET_FINGERPRINT_BYTES 16

/*
 * The wallet's registry entry id: the first 16 bytes of SHA-256("grove-dgsp-wallet-registry-v1"
 * || be64(id) || cid*). Every copy of a wallet, and every wallet made from the same credential
 * (also one re-created from the same seed), maps to the same entry; the entry records the used
 * certificates by fingerprint (the first 16 bytes of the certified WOTS+ public key), so
 * wallets with different seeds share it without conflict.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_registry_id(const grove_dgsp_wallet *w,
                                                                    uint8_t *id);
/*
 * Attach a state registry (NULL detaches). The registry must stay open while attached. The
 * entry (kind "dgsp-wallet") is locked for the duration of each sign/recover call, so processes
 * sharing the registry folder take turns on one wallet and its copies.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_set_registry(grove_dgsp_wallet *w,
                                                                     struct grove_registry *reg);
/*
 * Compare the wallet with its registry entry (read without locking): *listed receives the
 * number of certificates the entry records as used, *stale the number the wallet still holds as
 * unused (requested or ready) although the entry lists them as used (an older copy: > 0).
 * GROVE_ERR_STATE if the entry is damaged; GROVE_ERR_INVALID_ARG without a registry.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_registry_status(grove_dgsp_wallet *w,
                                                                        uint64_t *listed,
                                                                        uint64_t *stale);
/*
 * Fast-forward an older copy: mark used (and erase the one-time seed of) every certificate the
 * registry lists as used, and add the wallet's used certificates to the registry. Never marks
 * anything unused. *marked (may be NULL) receives the number of certificates newly marked used.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_wallet_recover(grove_dgsp_wallet *w,
                                                                uint64_t *marked);
/* true if the wallet's check value did not match when it was opened (every change refused). */
GROVE_API bool grove_dgsp_wallet_is_damaged(const grove_dgsp_wallet *w);
/* One English sentence about the wallet's last failure ("" if none); valid until the next call. */
GROVE_API const char *grove_dgsp_wallet_last_error(const grove_dgsp_wallet *w);

#endif /* GROVE_HAVE_SQLITE */

/* ---- signed revocation lists ------------------------------------------------------------ */

/*
 * The manager publishes the revocation list signed with the manager key. Layout:
 *   be64(seq) || be64(time) || be64(count) || count zetas (16 bytes each, ascending, distinct)
 *   || SPHINCS+ signature
 * The signed message is the ASCII label "grove-dgsp-revocations-v1" followed by everything
 * before the signature (FIPS 205 groups: pure SLH-DSA with that label as the context instead).
 * Certificate messages are exactly 2N + 16 bytes with no label, so the two never collide.
 */
/* The size of a list of `count` zetas (the most revocations_sign writes); 0 if too large. */
GROVE_API size_t grove_dgsp_revocations_bytes(const grove_dgsp_cfg *cfg, uint64_t count);
/*
 * zetas: `count` entries in any order (sorted and de-duplicated here). out: out_cap bytes
 * (revocations_bytes(count) always suffices); *out_len receives the length written.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_revocations_sign(
    const grove_dgsp_cfg *cfg, uint8_t *out, size_t out_cap, size_t *out_len, uint64_t seq,
    uint64_t time, const uint8_t *zetas, uint64_t count, const uint8_t *sk);
/*
 * Checks length, order and the manager signature (GROVE_ERR_VERIFY for anything wrong in the
 * list); then exposes the fields (zetas points into rl; any output may be NULL).
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_revocations_verify(
    const grove_dgsp_cfg *cfg, uint64_t *seq, uint64_t *time, const uint8_t **zetas,
    uint64_t *count, const uint8_t *rl, size_t rl_len, const uint8_t *pk);

/* ---- anyone ----------------------------------------------------------------------------- */

/*
 * GROVE_OK if the signature is valid and not revoked; GROVE_ERR_REVOKED if its certificate is
 * in the revocation list `revoked` (checked first; may be NULL: no revocation check);
 * GROVE_ERR_VERIFY if it does not verify (a wrong sig_len or a malformed signature included).
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_verify(const grove_dgsp_cfg *cfg,
                                                        const uint8_t *sig, size_t sig_len,
                                                        const uint8_t *msg, size_t msg_len,
                                                        const uint8_t *pk,
                                                        grove_dgsp_store *revoked);

/* GROVE_OK if the opening (id, pi) of the signature is correct, else GROVE_ERR_VERIFY (a wrong
 * sig_len included). Does not verify the SPHINCS+ part: call grove_dgsp_verify first. */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_judge(const grove_dgsp_cfg *cfg,
                                                       const uint8_t *sig, size_t sig_len,
                                                       const uint8_t *msg, size_t msg_len,
                                                       uint64_t id, const uint8_t *pi);

/* ---- grove's DGSP files (what `grove dgsp` reads and writes) ----------------------------- */

/*
 * Every DGSP file is a grove envelope (grove/envelope.h, docs/formats.md): armored text by
 * default, binary on request, scheme "DGSP", type one of the names below, and
 *   set     "<params>/<flavour>/<profile>", the group's configuration, e.g.
 *           "shake-256f/r3.1/grove" or "sha2-128s/fips205/dgsp-rs-0.1" (at most 30 characters)
 *   key id  grove_envelope_key_id("DGSP", set, manager public key) (grove_dgsp_key_id): the
 *           same on every file of a group, so a signature, credential or CSR names its group.
 *           PUBLIC KEY, SECRET KEY and CREDENTIAL hold the manager public key and always carry
 *           it; the other types carry it when the writer knows the group's public key.
 * The envelope's check (SHA-256 over the whole file) covers the body: a SECRET KEY body is
 * the bare key, and a damaged secret key file is GROVE_ERR_STATE. Bodies (big-endian integers):
 *   PUBLIC KEY    manager pk (2N)                      [raw crate layout]
 *   SECRET KEY    manager sk (6N)
 *   CREDENTIAL    id (8) || cid* (N) || manager pk (2N) || ulen (1) || username
 *   CSR           id (8) || cid* (N) || count (4) || count WOTS+ keys (N each)
 *   CERTIFICATES  id (8) || count (4) || count x (WOTS+ key (N) || certificate)
 *   SIGNATURE     signature                            [raw crate layout]
 *   REVOCATIONS   signed revocation list (grove_dgsp_revocations_sign)
 *   PROOF         id (8) || pi (N)
 * `grove dgsp export --format raw` writes the body of a PUBLIC KEY or SIGNATURE file (the raw crate
 * layout); `grove dgsp import --format raw` makes the file of one.
 *
 * Older files. grove before the envelope wrote its own armor, which the decoder still reads:
 *   -----BEGIN GROVE DGSP <TYPE> v<version> <params> <flavour> <profile>-----
 *   <base64 body, 64 characters a line>
 *   -----END GROVE DGSP <TYPE>-----
 * with the same bodies, no key id and no check, except a SECRET KEY: v2 = sk (6N) || check (32),
 * check = SHA-256("grove-dgsp-manager-sk-v2" || NUL || header title || NUL || sk); v1 = sk with
 * no check, refused by grove_dgsp_file_decode (`grove dgsp manager upgrade-key` rewrites it).
 */
typedef enum grove_dgsp_file_type {
    GROVE_DGSP_FILE_PUBLIC_KEY = 0,
    GROVE_DGSP_FILE_SECRET_KEY,
    GROVE_DGSP_FILE_CREDENTIAL,
    GROVE_DGSP_FILE_CSR,
    GROVE_DGSP_FILE_CERTIFICATES,
    GROVE_DGSP_FILE_SIGNATURE,
    GROVE_DGSP_FILE_REVOCATIONS,
    GROVE_DGSP_FILE_PROOF,
    GROVE_DGSP_FILE_ANY /* decode: accept any type */
} grove_dgsp_file_type;

#define GROVE_DGSP_OLD_FILE_VERSION 1    /* the older armor's version (all types but SECRET KEY) */
#define GROVE_DGSP_OLD_SK_FILE_VERSION 2 /* ... and of SECRET KEY files (v2: with a check)     */
#define GROVE_DGSP_OLD_SK_CHECK_BYTES 32
#define GROVE_DGSP_MAX_BATCH (1u << 20) /* certificates per CSR / certificate file */
/* The longest envelope header (everything before the body) of a DGSP file. */
#define GROVE_DGSP_FILE_HEAD_MAX 128

/* What grove_dgsp_file_decode found besides the body. */
typedef struct grove_dgsp_file_info {
    grove_dgsp_file_type type;
    unsigned version;    /* the envelope's format version; for an older file, its armor's   */
    bool old_format;     /* the older DGSP armor (no key id, no envelope check)             */
    grove_envelope_form form; /* GROVE_ENVELOPE_ARMORED, _BINARY or _DGSP_ARMOR (older)     */
    bool has_key_id;     /* false for older files and files written without the public key  */
    uint8_t key_id[GROVE_ENVELOPE_KEY_ID_BYTES];
} grove_dgsp_file_info;

/* "SIGNATURE", "PUBLIC KEY", ... ("?" for an unknown type). */
GROVE_API const char *grove_dgsp_file_type_name(grove_dgsp_file_type type);
/* The envelope set name of cfg, "<params>/<flavour>/<profile>"; GROVE_ERR_INVALID_ARG for an
 * invalid cfg. */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_set_name(const grove_dgsp_cfg *cfg,
                                                          char out[GROVE_ENVELOPE_SET_MAX + 1]);
/* The key id of a group: grove_envelope_key_id("DGSP", set name of cfg, pk (2N bytes)). */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_key_id(const grove_dgsp_cfg *cfg,
                                                        uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES],
                                                        const uint8_t *pk);
/*
 * The largest file (armored, the larger form; older armor included) of an object of this type
 * for cfg, for capping reads (CSR and CERTIFICATES: with `count` entries; REVOCATIONS: 256 MiB).
 */
GROVE_API size_t grove_dgsp_file_max_text(const grove_dgsp_cfg *cfg, grove_dgsp_file_type type,
                                          size_t count);
/*
 * Fill env (grove_envelope_init) with the envelope of a DGSP file, ready for
 * grove_envelope_encode: scheme, set, type, key id, and the body referenced (not copied; for a
 * SECRET KEY the caller's secret: wipe the encoded output). pk: the manager public key (2N
 * bytes), or NULL where the writer does not know it: then PUBLIC KEY, SECRET KEY and CREDENTIAL
 * take it from their body, other types get no key id; a pk that differs from the one in the
 * body is GROVE_ERR_INVALID_ARG. The body's length is checked against the type
 * (GROVE_ERR_ENCODING).
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_file_envelope(const grove_dgsp_cfg *cfg,
                                                               grove_envelope *env,
                                                               grove_dgsp_file_type type,
                                                               const uint8_t *body,
                                                               size_t body_len, const uint8_t *pk);
/*
 * Encode a file in form (GROVE_ENVELOPE_ARMORED or _BINARY): grove_dgsp_file_envelope, then
 * grove_envelope_encode. out receives out_cap bytes at most, *out_len the file's length (no
 * NUL is written); GROVE_ERR_BUFFER_TOO_SMALL (with *out_len set) if out_cap is too small.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_file_encode(const grove_dgsp_cfg *cfg,
                                                             uint8_t *out, size_t out_cap,
                                                             size_t *out_len,
                                                             grove_dgsp_file_type type,
                                                             const uint8_t *body, size_t body_len,
                                                             const uint8_t *pk,
                                                             grove_envelope_form form);
/*
 * A file written as its body is produced (certificate batches of any size in bounded memory):
 * _begin writes the binary envelope's header (everything before the body, at most
 * GROVE_DGSP_FILE_HEAD_MAX bytes) into head; the caller then writes the body, passing every
 * byte through _update, and ends with the 32-byte check from _final (GROVE_ERR_INVALID_ARG if
 * the bytes given are not exactly body_len). The armored form is the standard base64 of these
 * bytes, 64 characters a line, between "-----BEGIN GROVE DGSP <TYPE>-----" and
 * "-----END GROVE DGSP <TYPE>-----". The body is not checked: decode the result to check it.
 */
typedef struct grove_dgsp_file_stream {
    grove_hash_ctx hash;
    uint64_t left; /* body bytes still expected */
} grove_dgsp_file_stream;
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_file_stream_begin(
    const grove_dgsp_cfg *cfg, grove_dgsp_file_stream *s, uint8_t *head, size_t head_cap,
    size_t *head_len, grove_dgsp_file_type type, size_t body_len, const uint8_t *pk);
GROVE_API void grove_dgsp_file_stream_update(grove_dgsp_file_stream *s, const uint8_t *p,
                                             size_t len);
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_file_stream_final(grove_dgsp_file_stream *s,
                                                                   uint8_t check[32]);
/*
 * Decode a DGSP file (either envelope form, or the older armor) of type `expect`
 * (GROVE_DGSP_FILE_ANY: any). *cfg receives the configuration from its set (older armor: its
 * header); info (may be NULL) the type, key id and form. The body is checked against the type
 * and configuration, and, where it holds the manager public key, against the key id; it is
 * written to body (body_cap >= in_len always suffices) with its length in *body_len. A SECRET
 * KEY body is secret: wipe it. Statuses: GROVE_ERR_ENCODING (not a grove file, another scheme,
 * malformed, damaged, wrong type, wrong length), GROVE_ERR_UNSUPPORTED (unknown version,
 * parameter set, flavour or profile; an older v1 secret key), GROVE_ERR_STATE (a secret key
 * file that is damaged: its check fails). err (may be NULL) receives a sentence saying what is
 * wrong.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_file_decode(
    grove_dgsp_cfg *cfg, grove_dgsp_file_info *info, uint8_t *body, size_t body_cap,
    size_t *body_len, const uint8_t *in, size_t in_len, grove_dgsp_file_type expect, char *err,
    size_t err_cap);
/*
 * Like grove_dgsp_file_decode, also accepting an older v1 (unchecked) SECRET KEY. For
 * upgrading old keys and for inspecting files.
 */
GROVE_API GROVE_MUST_USE grove_status grove_dgsp_file_decode_any_version(
    grove_dgsp_cfg *cfg, grove_dgsp_file_info *info, uint8_t *body, size_t body_cap,
    size_t *body_len, const uint8_t *in, size_t in_len, grove_dgsp_file_type expect, char *err,
    size_t err_cap);

#ifdef __cplusplus
}
#endif
#endif /* GROVE_HAVE_DGSP */
#endif
