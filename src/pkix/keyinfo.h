/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The two key containers of grove/pkix.h, independent of the scheme:
 *   SubjectPublicKeyInfo ::= SEQUENCE { AlgorithmIdentifier, BIT STRING public key }
 *   OneAsymmetricKey (PKCS#8) ::= SEQUENCE { INTEGER version, AlgorithmIdentifier,
 *       OCTET STRING private key, [0] attributes OPTIONAL, [1] public key OPTIONAL (v1) }
 * with AlgorithmIdentifier ::= SEQUENCE { OBJECT IDENTIFIER } (parameters absent). The scheme
 * files map their sets to OIDs and check key lengths.
 */
#ifndef GROVE_PKIX_KEYINFO_H
#define GROVE_PKIX_KEYINFO_H

#include "pkix/der.h"

/* Write a SubjectPublicKeyInfo (out, out_cap, &out_len as in grove/pkix.h). */
grove_status keyinfo_spki_encode(uint8_t *out, size_t out_cap, size_t *out_len,
                                 const uint8_t *oid, size_t oid_len, const uint8_t *pk,
                                 size_t pk_len);

/* Write a version-0 OneAsymmetricKey without attributes or public key. */
grove_status keyinfo_pkcs8_encode(uint8_t *out, size_t out_cap, size_t *out_len,
                                  const uint8_t *oid, size_t oid_len, const uint8_t *sk,
                                  size_t sk_len);

/* Parse a SubjectPublicKeyInfo: *oid reads the OID's contents, *pk the public key bytes. */
grove_status keyinfo_spki_decode(der_reader *oid, der_reader *pk, const uint8_t *der,
                                 size_t der_len);

/*
 * Parse a OneAsymmetricKey: *oid, *sk (the private key OCTET STRING's contents) and *pk (the
 * optional publicKey's bytes; pk->buf is NULL when it is absent).
 */
grove_status keyinfo_pkcs8_decode(der_reader *oid, der_reader *sk, der_reader *pk,
                                  const uint8_t *der, size_t der_len);

#endif
