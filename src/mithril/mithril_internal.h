/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Mithril certificates (internal): the decoded certificate and the checks shared by the
 * one-certificate and the whole-chain verifiers. */
#ifndef GROVE_MITHRIL_INTERNAL_H
#define GROVE_MITHRIL_INTERNAL_H

#include "grove/json.h"
#include "grove/mithril.h"
#include "grove/stm.h"
#include "stm/stm_internal.h"

/* Protocol parameters as mithril-common holds them; phi_fixed is phi_f as U8F24 (24
 * fractional bits, rounded to nearest, ties to even), which equality and hashing use. */
typedef struct mithril_params {
    uint64_t k, m;
    double phi_f;
    uint32_t phi_fixed;
} mithril_params;

struct grove_mithril_cert {
    char *hash, *previous_hash, *signed_message; /* as given, NUL-terminated copies */
    size_t hash_len, previous_hash_len, signed_message_len;
    uint64_t epoch;
    bool genesis;
    /* OK, or DECODE / UNSUPPORTED with the field at fault: nothing below is valid then */
    grove_mithril_rule decode_rule;
    const char *decode_detail;
    mithril_params params;
    char params_hash[65];   /* hex SHA-256 of the parameters (next_protocol_parameters form) */
    char message_hash[65];  /* hex hash of the protocol message                           */
    char computed_hash[65]; /* hex hash of the certificate as mithril-common computes it    */
    char *current_epoch;    /* protocol message parts (NULL if absent)                      */
    char *next_params;
    bool next_avk_ok; /* next_aggregate_verification_key present and decodes */
    grove_stm_avk next_avk;
    grove_stm_avk avk;
    grove_stm_aggregate *agg; /* standard certificates */
    uint8_t genesis_sig[64];  /* genesis certificates  */
};

/* A JSON array of exactly n numbers 0..255 (mithril's serde form of byte arrays) into out. */
bool mithril_json_bytes(uint8_t *out, size_t n, const char *text, size_t len);

/* Decode a certificate object of doc into a fresh certificate (decode failures are recorded in
 * it); GROVE_ERR_NOMEM or GROVE_ERR_INVALID_ARG only. cache (may be NULL): signer keys decoded
 * for earlier certificates of the same chain, reused by their bytes. */
grove_status mithril_cert_from_node(grove_mithril_cert **cert, const grove_json_doc *doc,
                                    const grove_json_node *obj, stm_vk_cache *cache);

/* The checks that need no predecessor, up to (excluding) the multi-signature: decode,
 * infinite loop, hash, signed message; the genesis signature for a genesis certificate. */
grove_mithril_rule mithril_check_before_sig(const grove_mithril_cert *c, const uint8_t *gvk,
                                            const char **detail);
/* The multi-signature alone: GROVE_OK, GROVE_ERR_VERIFY (*detail set) or GROVE_ERR_NOMEM. */
grove_status mithril_check_sig(const grove_mithril_cert *c, const char **detail);
/* The STM parameters of a certificate; false if grove refuses them. */
bool mithril_stm_params(const grove_mithril_cert *c, grove_stm_params *p);
/* After the multi-signature: the epoch part. */
grove_mithril_rule mithril_check_after_sig(const grove_mithril_cert *c, const char **detail);
/* The links to the predecessor (standard certificates). */
grove_mithril_rule mithril_check_links(const grove_mithril_cert *c, const grove_mithril_cert *prev,
                                       const char **detail);

#endif
