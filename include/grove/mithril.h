/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/mithril.h - Mithril certificate chains: verify certificates as a Mithril aggregator's
 * API serves them (JSON), with the rules of mithril-common's certificate verifier
 * (docs/mithril.md maps each rule to upstream's).
 *
 * A certificate is valid when
 *   - its `hash` is the SHA-256 that mithril-common computes over its fields, and differs from
 *     its `previous_hash`                                        (rules HASH, INFINITE_LOOP)
 *   - its `signed_message` is the hash of its protocol message   (SIGNED_MESSAGE)
 *   - the protocol message's `current_epoch` part is its epoch   (EPOCH)
 *   - a genesis certificate (non-empty `genesis_signature`): the Ed25519 signature on the
 *     signed message verifies with the genesis key              (GENESIS_SIGNATURE)
 *   - any other: the STM multi-signature on the signed message verifies with the certificate's
 *     AVK and protocol parameters (grove/stm.h)                  (MULTI_SIGNATURE)
 *     and, against its predecessor (the certificate whose hash is its previous_hash): the
 *     epochs differ by at most one (MISSING_EPOCH), the previous hash matches (PREVIOUS_HASH),
 *     its AVK and parameters are the predecessor's (same epoch) or the predecessor's signed
 *     next_aggregate_verification_key / next_protocol_parameters (AVK, PARAMETERS).
 * A chain is valid when every certificate is, and every one leads back to a genesis
 * certificate through valid ones.
 *
 * Field encodings follow mithril-common: AVKs and the multi-signature are hex of mithril-stm's
 * JSON (or of its bytes), the genesis signature hex of 64 bytes, the genesis key hex of the
 * JSON array of its 32 bytes (or hex of the bytes). A certificate whose field does not decode
 * is invalid (rule DECODE), not an error of the call. Not supported (rule UNSUPPORTED): the
 * SNARK-era fields (ancillary data, the "rigid" protocol-message hash scheme).
 *
 * Everything here is public data: no secrets are handled. Objects are read-only after creation
 * and may be shared between threads. Follows grove/common.h. Built only with OpenSSL libcrypto
 * (Ed25519) and STM (GROVE_HAVE_MITHRIL).
 */
#ifndef GROVE_MITHRIL_H
#define GROVE_MITHRIL_H

#include "grove/common.h"
#include "grove/config.h"
#if GROVE_HAVE_MITHRIL

#ifdef __cplusplus
extern "C" {
#endif

#define GROVE_MITHRIL_GENESIS_VK_BYTES 32
/* Upper bound on the JSON text of one file of certificates (grove/json.h's bound). */
#define GROVE_MITHRIL_MAX_INPUT ((size_t)64 << 20)

/* The rule a certificate breaks (the first one, in mithril-common's order of checks). */
typedef enum grove_mithril_rule {
    GROVE_MITHRIL_OK = 0,
    GROVE_MITHRIL_DECODE,            /* a field is missing, of the wrong type or malformed      */
    GROVE_MITHRIL_UNSUPPORTED,       /* SNARK-era fields grove does not verify                  */
    GROVE_MITHRIL_INFINITE_LOOP,     /* hash == previous_hash                                   */
    GROVE_MITHRIL_HASH,              /* hash is not the hash of the certificate's content       */
    GROVE_MITHRIL_SIGNED_MESSAGE,    /* signed_message is not the protocol message's hash       */
    GROVE_MITHRIL_MULTI_SIGNATURE,   /* the STM multi-signature does not verify                 */
    GROVE_MITHRIL_GENESIS_SIGNATURE, /* the Ed25519 genesis signature does not verify           */
    GROVE_MITHRIL_EPOCH,             /* current_epoch part missing or not the epoch             */
    GROVE_MITHRIL_MISSING_EPOCH,     /* more than one epoch from the predecessor's              */
    GROVE_MITHRIL_PREVIOUS_HASH,     /* previous_hash is not the predecessor's hash             */
    GROVE_MITHRIL_AVK,               /* AVK not the predecessor's (next) AVK                    */
    GROVE_MITHRIL_PARAMETERS,        /* parameters not the predecessor's (next) parameters      */
    GROVE_MITHRIL_PREVIOUS_MISSING,  /* no certificate with hash previous_hash is given         */
    GROVE_MITHRIL_PREVIOUS_INVALID,  /* valid itself, but an ancestor is not                    */
    GROVE_MITHRIL_DUPLICATE          /* a second certificate with this hash, or a map key that
                                        is not the certificate's hash                          */
} grove_mithril_rule;

/* Short stable name ("hash", "multi_signature", ...; "ok") and a one-line description. */
GROVE_API const char *grove_mithril_rule_name(grove_mithril_rule rule);
GROVE_API const char *grove_mithril_rule_text(grove_mithril_rule rule);

/*
 * The genesis verification key from the text of a genesis.vkey file (hex of the JSON array of
 * 32 bytes, or 64 hex digits; surrounding whitespace allowed). GROVE_ERR_ENCODING otherwise
 * (also for a key OpenSSL does not accept as an Ed25519 point).
 */
GROVE_API GROVE_MUST_USE grove_status grove_mithril_genesis_key_from_text(
    uint8_t vk[GROVE_MITHRIL_GENESIS_VK_BYTES], const char *text, size_t text_len);

/* ==== one certificate (a light client verifying incrementally) ========================== */
typedef struct grove_mithril_cert grove_mithril_cert;

/*
 * Reads one certificate (a JSON object as GET /certificate/{hash} serves it). GROVE_ERR_ENCODING
 * only if the text is not JSON or not an object; a certificate whose fields do not decode is
 * returned and fails verification with rule DECODE (grove_mithril_cert_verify).
 */
GROVE_API GROVE_MUST_USE grove_status grove_mithril_cert_from_json(grove_mithril_cert **cert,
                                                                   const char *in, size_t in_len);
GROVE_API void grove_mithril_cert_free(grove_mithril_cert *cert);
/* Its `hash` and `previous_hash` as given (NUL-terminated; "" if absent). */
GROVE_API const char *grove_mithril_cert_hash(const grove_mithril_cert *cert);
GROVE_API const char *grove_mithril_cert_previous_hash(const grove_mithril_cert *cert);
GROVE_API uint64_t grove_mithril_cert_epoch(const grove_mithril_cert *cert);
GROVE_API bool grove_mithril_cert_is_genesis(const grove_mithril_cert *cert);

/*
 * Verifies cert: a genesis certificate against the genesis key (previous is ignored and may be
 * NULL), any other against its predecessor `previous`, which the caller has verified already
 * (NULL: rule PREVIOUS_MISSING). GROVE_OK (*rule = OK), GROVE_ERR_VERIFY with *rule the first
 * rule broken and *detail (if not NULL) a static text naming the field or reason, or
 * GROVE_ERR_INVALID_ARG / GROVE_ERR_NOMEM. A light client walking from the genesis certificate
 * forward keeps only the last verified certificate of each epoch it needs.
 */
GROVE_API GROVE_MUST_USE grove_status grove_mithril_cert_verify(
    const grove_mithril_cert *cert, grove_mithril_rule *rule, const char **detail,
    const grove_mithril_cert *previous, const uint8_t genesis_vk[GROVE_MITHRIL_GENESIS_VK_BYTES]);

/* ==== a whole chain ====================================================================== */
typedef struct grove_mithril_chain grove_mithril_chain;

/*
 * Reads a file of certificates: one certificate, an array of them, or an object mapping each
 * certificate's hash to it (the aggregator's API shapes). GROVE_ERR_ENCODING if the text is not
 * JSON, or has none of these shapes (an element that is not an object); at most
 * GROVE_MITHRIL_MAX_INPUT bytes.
 */
GROVE_API GROVE_MUST_USE grove_status grove_mithril_chain_from_json(grove_mithril_chain **chain,
                                                                    const char *in, size_t in_len);
GROVE_API void grove_mithril_chain_free(grove_mithril_chain *chain);
GROVE_API size_t grove_mithril_chain_count(const grove_mithril_chain *chain);
/* Certificate i, in the order of the file. NULL past the end. */
GROVE_API const grove_mithril_cert *grove_mithril_chain_cert(const grove_mithril_chain *chain,
                                                             size_t i);
/*
 * Verifies every certificate (the STM multi-signatures with one batched pairing check, falling
 * back to one by one if the batch fails) and the links back to genesis. GROVE_OK if every
 * certificate holds, GROVE_ERR_VERIFY if any does not (grove_mithril_chain_result tells which
 * and why), GROVE_ERR_NOMEM / GROVE_ERR_INVALID_ARG. May be called again (results are
 * replaced).
 */
GROVE_API GROVE_MUST_USE grove_status grove_mithril_chain_verify(
    grove_mithril_chain *chain, const uint8_t genesis_vk[GROVE_MITHRIL_GENESIS_VK_BYTES]);
/* The verdict on certificate i after grove_mithril_chain_verify: its rule (OK if valid) and a
 * static detail text (or NULL). GROVE_ERR_NOT_FOUND past the end. */
GROVE_API GROVE_MUST_USE grove_status grove_mithril_chain_result(const grove_mithril_chain *chain,
                                                                 size_t i,
                                                                 grove_mithril_rule *rule,
                                                                 const char **detail);

#ifdef __cplusplus
}
#endif
#endif /* GROVE_HAVE_MITHRIL */
#endif
