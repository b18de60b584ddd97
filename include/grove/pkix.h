/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/pkix.h - standard key encodings: X.509 SubjectPublicKeyInfo, PKCS#8 and PEM.
 *
 * SLH-DSA (RFC 9909): public keys as SubjectPublicKeyInfo, private keys as PKCS#8
 * OneAsymmetricKey, under the OIDs id-slh-dsa-* (2.16.840.1.101.3.4.3.20-31, pure SLH-DSA) or
 * id-hash-slh-dsa-* (.35-.46, HashSLH-DSA), parameters absent:
 *   SubjectPublicKeyInfo ::= SEQUENCE { SEQUENCE { OID }, BIT STRING (PK.seed || PK.root) }
 *   OneAsymmetricKey ::= SEQUENCE { INTEGER 0, SEQUENCE { OID },
 *                                   OCTET STRING (SK.seed || SK.prf || PK.seed || PK.root) }
 * XMSS and XMSS^MT (RFC 9802): public keys as SubjectPublicKeyInfo under id-alg-xmss-hashsig
 * (1.3.6.1.5.5.7.6.34) and id-alg-xmssmt-hashsig (.35); the BIT STRING holds the RFC 8391
 * public key (its 4-byte OID, root, seed) exactly as grove_xmss_* uses it.
 *
 * Only SLH-DSA (FIPS 205) descriptors have OIDs: a SPHINCS+ round-3.1 descriptor gives
 * GROVE_ERR_UNSUPPORTED. A HashSLH-DSA OID names the pre-hash function too; RFC 9909 assigns
 * one per set: SHA2-128s/f: SHA2-256; SHA2-192/256: SHA2-512; SHAKE-128s/f: SHAKE128;
 * SHAKE-192/256: SHAKE256.
 *
 * Encoders write DER (the unique encoding: byte-identical to other conforming encoders).
 * Decoders accept DER only: definite, minimal lengths, no trailing bytes, the algorithm
 * parameters absent, a BIT STRING without unused bits, a key of the set's exact length. They
 * return GROVE_ERR_ENCODING for anything else, including an algorithm OID this decoder does not
 * handle (an XMSS key given to the SLH-DSA decoder, say). The PKCS#8 decoder also accepts
 * version 1 with the optional publicKey [1] (which must equal the public half of the secret
 * key) and skips attributes [0]; the encoder writes version 0 without them, as RFC 9909's
 * example does.
 *
 * Results (grove/common.h): variable-length outputs take (out, out_cap, &out_len);
 * GROVE_ERR_BUFFER_TOO_SMALL (nothing written, *out_len = the length needed) when out_cap is
 * too small; GROVE_ERR_INVALID_ARG for NULL pointers. Decoders check the input completely
 * before they report a too-small output. A secret key is copied only into the caller's
 * buffer (the caller wipes it); no other copy is left behind.
 */
#ifndef GROVE_PKIX_H
#define GROVE_PKIX_H

#include "grove/common.h"
#include "grove/slhdsa.h"
#include "grove/xmss.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest DER encodings, for static allocation. */
#define GROVE_PKIX_SLHDSA_MAX_SPKI_BYTES 82   /* 18 + a 64-byte public key */
#define GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES 150 /* 22 + a 128-byte secret key */
#define GROVE_PKIX_XMSS_MAX_SPKI_BYTES 151    /* 19 + a 132-byte public key */

/* ---- SLH-DSA (RFC 9909) ------------------------------------------------------------------- */

/*
 * The public key pk (grove_slhdsa_pk_bytes(p) bytes) of set p as a SubjectPublicKeyInfo. ph = 0
 * gives the pure id-slh-dsa-* OID; a pre-hash gives id-hash-slh-dsa-*, and must be the one RFC
 * 9909 assigns to p (else GROVE_ERR_UNSUPPORTED).
 */
GROVE_API GROVE_MUST_USE grove_status grove_pkix_slhdsa_pk_to_der(const grove_slhdsa_params *p,
                                                                  grove_slhdsa_prehash ph,
                                                                  uint8_t *out, size_t out_cap,
                                                                  size_t *out_len,
                                                                  const uint8_t *pk);

/* The secret key sk (grove_slhdsa_sk_bytes(p) bytes) as PKCS#8 (ph as above). */
GROVE_API GROVE_MUST_USE grove_status grove_pkix_slhdsa_sk_to_der(const grove_slhdsa_params *p,
                                                                  grove_slhdsa_prehash ph,
                                                                  uint8_t *out, size_t out_cap,
                                                                  size_t *out_len,
                                                                  const uint8_t *sk);

/*
 * Decode a SubjectPublicKeyInfo: the set (*p, a FIPS 205 descriptor), the pre-hash its OID
 * names (*ph, 0 for pure SLH-DSA; ph may be NULL) and the raw public key (pk, pk_cap, &pk_len).
 */
GROVE_API GROVE_MUST_USE grove_status grove_pkix_slhdsa_pk_from_der(
    const grove_slhdsa_params **p, grove_slhdsa_prehash *ph, uint8_t *pk, size_t pk_cap,
    size_t *pk_len, const uint8_t *der, size_t der_len);

/* Decode a PKCS#8 private key: as above, with the raw secret key in (sk, sk_cap, &sk_len). */
GROVE_API GROVE_MUST_USE grove_status grove_pkix_slhdsa_sk_from_der(
    const grove_slhdsa_params **p, grove_slhdsa_prehash *ph, uint8_t *sk, size_t sk_cap,
    size_t *sk_len, const uint8_t *der, size_t der_len);

/* ---- XMSS and XMSS^MT (RFC 9802) ---------------------------------------------------------- */

/*
 * The public key pk (pk_len bytes, checked as grove_xmss_pk_params does: GROVE_ERR_ENCODING or
 * GROVE_ERR_UNSUPPORTED) of the given family as a SubjectPublicKeyInfo.
 */
GROVE_API GROVE_MUST_USE grove_status grove_pkix_xmss_pk_to_der(grove_xmss_family family,
                                                                uint8_t *out, size_t out_cap,
                                                                size_t *out_len,
                                                                const uint8_t *pk, size_t pk_len);

/*
 * Decode a SubjectPublicKeyInfo: the family its OID names (*family) and the RFC 8391 public key
 * (pk, pk_cap, &pk_len), checked as grove_xmss_pk_params does (GROVE_ERR_UNSUPPORTED for a key
 * whose own 4-byte OID is not a registered set).
 */
GROVE_API GROVE_MUST_USE grove_status grove_pkix_xmss_pk_from_der(grove_xmss_family *family,
                                                                  uint8_t *pk, size_t pk_cap,
                                                                  size_t *pk_len,
                                                                  const uint8_t *der,
                                                                  size_t der_len);

/* ---- PEM (RFC 7468) ----------------------------------------------------------------------- */

/* The PEM labels of the encodings above. */
#define GROVE_PKIX_PEM_PUBLIC_KEY "PUBLIC KEY"
#define GROVE_PKIX_PEM_PRIVATE_KEY "PRIVATE KEY"

/*
 * der as PEM text with the given label ("-----BEGIN <label>-----", base64 in lines of 64,
 * "-----END <label>-----", each line ending in "\n"). *out_len is the text length; out_cap
 * must hold it plus a terminating NUL. label: 1 to 64 printable ASCII characters without '-'
 * at either end (else GROVE_ERR_INVALID_ARG).
 */
GROVE_API GROVE_MUST_USE grove_status grove_pkix_pem_encode(char *out, size_t out_cap,
                                                            size_t *out_len, const char *label,
                                                            const uint8_t *der, size_t der_len);

/*
 * Decode PEM text (pem_len bytes) whose BEGIN and END lines carry `label`: RFC 7468's strict
 * form (lines of 64 base64 characters, the last one shorter, no headers), lines ending in
 * "\n" or "\r\n", nothing before BEGIN and only a line end after END. Another label, bad
 * framing or bad base64: GROVE_ERR_ENCODING. The DER bytes go to (der, der_cap, &der_len).
 */
GROVE_API GROVE_MUST_USE grove_status grove_pkix_pem_decode(uint8_t *der, size_t der_cap,
                                                            size_t *der_len, const char *label,
                                                            const char *pem, size_t pem_len);

#ifdef __cplusplus
}
#endif
#endif
