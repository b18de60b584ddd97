/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/sig.h - one API for every stateless signature algorithm in grove, chosen by name at
 * run time: the 12 SLH-DSA sets (FIPS 205, pure, empty context, hedged), the 12 SPHINCS+
 * round-3.1 sets, the 18 CROSS sets (fast strategy) and BLS12-381 in its two variants
 * (proof-of-possession ciphersuites). Names are those `grove <scheme> params` prints
 * ("SLH-DSA-SHA2-128f", "sphincs-shake-256f-simple", "CROSS-RSDP-1-fast", "BLS12-381-min-pk").
 *
 *     const grove_sig_alg *a = grove_sig_alg_get("SLH-DSA-SHAKE-128f");
 *     uint8_t *pk = malloc(grove_sig_pk_bytes(a)), *sk = malloc(grove_sig_sk_bytes(a));
 *     grove_sig_keygen(a, pk, sk);
 *     grove_sig_sign(a, sig, grove_sig_sig_bytes(a), &sig_len, msg, msg_len, sk);
 *     if (grove_sig_verify(a, sig, sig_len, msg, msg_len, pk) == GROVE_OK) ...
 *
 * Options that belong to one scheme (SLH-DSA contexts and pre-hash, CROSS strategies, BLS
 * domain tags) are in that scheme's header. Stateful XMSS / XMSS^MT keys have their own block,
 * grove_sig_stfl_*, at the end of this header: they persist their state before a signature.
 * Results follow grove/common.h: GROVE_OK; GROVE_ERR_VERIFY for any signature that does not
 * verify, including one of the wrong length or a malformed encoding; GROVE_ERR_ENCODING only
 * for a malformed public key (CROSS: out-of-range syndrome values or non-zero padding);
 * GROVE_ERR_INVALID_ARG for NULL pointers (msg may be NULL when msg_len is 0);
 * GROVE_ERR_BUFFER_TOO_SMALL when sig_cap is short (then *sig_len = the length needed and
 * nothing is written).
 * The caller owns every buffer; wipe secret keys with grove_wipe when done.
 */
#ifndef GROVE_SIG_H
#define GROVE_SIG_H

#include <stddef.h>
#include <stdint.h>

#include "grove/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grove_sig_alg grove_sig_alg;

/* The algorithms, in a fixed order: grove_sig_alg_at(0 .. count-1); NULL past the end. */
GROVE_API size_t grove_sig_alg_count(void);
GROVE_API const grove_sig_alg *grove_sig_alg_at(size_t i);
/* By name (exact, case-sensitive); NULL if unknown. */
GROVE_API const grove_sig_alg *grove_sig_alg_get(const char *name);
GROVE_API const char *grove_sig_alg_name(const grove_sig_alg *a);

/* Sizes in bytes (0 for NULL). sig_bytes is the largest signature the algorithm makes. */
GROVE_API size_t grove_sig_pk_bytes(const grove_sig_alg *a);
GROVE_API size_t grove_sig_sk_bytes(const grove_sig_alg *a);
GROVE_API size_t grove_sig_sig_bytes(const grove_sig_alg *a);

/* A fresh key pair from the system's randomness: pk_bytes and sk_bytes bytes. */
GROVE_API GROVE_MUST_USE grove_status grove_sig_keygen(const grove_sig_alg *a, uint8_t *pk,
                                                       uint8_t *sk);

/* Sign msg: the signature goes to sig (sig_cap bytes available), its length to *sig_len
 * (0 on any failure but GROVE_ERR_BUFFER_TOO_SMALL). */
GROVE_API GROVE_MUST_USE grove_status grove_sig_sign(const grove_sig_alg *a, uint8_t *sig,
                                                     size_t sig_cap, size_t *sig_len,
                                                     const uint8_t *msg, size_t msg_len,
                                                     const uint8_t *sk);

/* GROVE_OK if sig is a valid signature of msg under pk, else GROVE_ERR_VERIFY (see above). */
GROVE_API GROVE_MUST_USE grove_status grove_sig_verify(const grove_sig_alg *a, const uint8_t *sig,
                                                       size_t sig_len, const uint8_t *msg,
                                                       size_t msg_len, const uint8_t *pk);

/* ==== Stateful signatures: XMSS and XMSS^MT ================================================ */
/*
 * grove_sig_stfl_*: the counterpart of grove_sig_* for the stateful hash-based algorithms: the
 * 21 XMSS and 56 XMSS^MT sets of RFC 8391 / SP 800-208, named as `grove xmss params` prints
 * them ("XMSS-SHA2_10_256", "XMSSMT-SHAKE_20/4_256"; any spelling grove_xmss_params_get
 * accepts also works).
 *
 * A stateful secret key is never in a caller's buffer: it lives in a key file (the format
 * `grove xmss` reads and writes, see grove/xmss.h), locked while open. Each signature uses a
 * fresh index, and that index is written durably to the key file and then to the state
 * registry (grove/state.h; reg may be NULL: then a restored copy goes undetected) BEFORE the
 * signature is returned: a crash at any instant may burn an index, never release one twice.
 *
 *     const grove_sig_stfl_alg *a = grove_sig_stfl_alg_get("XMSS-SHA2_10_256");
 *     grove_registry *reg;                        grove_registry_open(&reg, NULL);
 *     grove_sig_stfl_keygen(a, pk, "signer.key", reg);       (pk: grove_sig_stfl_pk_bytes(a))
 *     grove_sig_stfl_key *k;                      grove_sig_stfl_key_open(&k, "signer.key", reg);
 *     grove_sig_stfl_sign(k, sig, grove_sig_stfl_sig_bytes(a), &sig_len, msg, msg_len);
 *     grove_sig_stfl_key_close(k);                grove_registry_close(reg);
 *     if (grove_sig_stfl_verify(a, sig, sig_len, msg, msg_len, pk) == GROVE_OK) ...
 *
 * Results follow grove/common.h: GROVE_ERR_VERIFY for any signature that does not verify (of
 * the wrong length included); GROVE_ERR_ENCODING for a public key that is not one of the
 * algorithm's; GROVE_ERR_EXHAUSTED when a key has no index left; GROVE_ERR_STATE for a key file
 * that is stale (a restored backup, an overtaken copy), conflicting or damaged; GROVE_ERR_IO
 * when a file cannot be read or written. Key splits, reports, batches and threads:
 * grove/xmss.h (these functions build the node cache on GROVE_THREADS_AUTO threads).
 */
#include "grove/state.h"

typedef struct grove_sig_stfl_alg grove_sig_stfl_alg;
typedef struct grove_sig_stfl_key grove_sig_stfl_key;

/* The algorithms, in a fixed order (21 XMSS then 56 XMSS^MT); NULL past the end or if unknown. */
GROVE_API size_t grove_sig_stfl_alg_count(void);
GROVE_API const grove_sig_stfl_alg *grove_sig_stfl_alg_at(size_t i);
GROVE_API const grove_sig_stfl_alg *grove_sig_stfl_alg_get(const char *name);
GROVE_API const char *grove_sig_stfl_alg_name(const grove_sig_stfl_alg *a);

/* Sizes in bytes (0 for NULL); signatures of an algorithm all have sig_bytes bytes. */
GROVE_API size_t grove_sig_stfl_pk_bytes(const grove_sig_stfl_alg *a);
GROVE_API size_t grove_sig_stfl_sig_bytes(const grove_sig_stfl_alg *a);

/*
 * A fresh key pair from the system's randomness: the public key into pk (pk_bytes), the secret
 * key into a new key file key_path (mode 0600; must not exist), registered in reg.
 */
GROVE_API GROVE_MUST_USE grove_status grove_sig_stfl_keygen(const grove_sig_stfl_alg *a,
                                                            uint8_t *pk, const char *key_path,
                                                            grove_registry *reg);

/*
 * Open and lock a key file (checked against its registry entry when reg is not NULL; reg must
 * stay open until the key is closed). GROVE_ERR_STATE for a stale or conflicting file.
 */
GROVE_API GROVE_MUST_USE grove_status grove_sig_stfl_key_open(grove_sig_stfl_key **key,
                                                              const char *key_path,
                                                              grove_registry *reg);
/* The algorithm of an open key (NULL for NULL). */
GROVE_API const grove_sig_stfl_alg *grove_sig_stfl_key_alg(const grove_sig_stfl_key *key);
/* Signatures the key can still make (0 for NULL or when exhausted). */
GROVE_API uint64_t grove_sig_stfl_remaining(const grove_sig_stfl_key *key);
/* Unlock, wipe and free (NULL is ignored). */
GROVE_API void grove_sig_stfl_key_close(grove_sig_stfl_key *key);

/*
 * Sign msg with the key's next index, recorded durably before this returns the signature (sig:
 * sig_cap bytes available; *sig_len receives its length, or the length needed with
 * GROVE_ERR_BUFFER_TOO_SMALL, and then no index is used). The signature is verified before it
 * is released (a fault gives GROVE_ERR_INTERNAL). GROVE_ERR_EXHAUSTED when no index is left,
 * GROVE_ERR_STORAGE when the state could not be recorded (nothing was signed).
 */
GROVE_API GROVE_MUST_USE grove_status grove_sig_stfl_sign(grove_sig_stfl_key *key, uint8_t *sig,
                                                          size_t sig_cap, size_t *sig_len,
                                                          const uint8_t *msg, size_t msg_len);

/*
 * GROVE_OK if sig is a valid signature of msg under pk (pk_bytes(a) bytes), else
 * GROVE_ERR_VERIFY; GROVE_ERR_ENCODING if pk is not a public key of algorithm a.
 */
GROVE_API GROVE_MUST_USE grove_status grove_sig_stfl_verify(const grove_sig_stfl_alg *a,
                                                            const uint8_t *sig, size_t sig_len,
                                                            const uint8_t *msg, size_t msg_len,
                                                            const uint8_t *pk);

#ifdef __cplusplus
}
#endif
#endif
