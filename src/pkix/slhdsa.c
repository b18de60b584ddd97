/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SLH-DSA keys as SubjectPublicKeyInfo and PKCS#8 (RFC 9909; see grove/pkix.h). */
#include <string.h>

#include "grove/io.h"
#include "grove/pkix.h"
#include "pkix/keyinfo.h"

/* sigAlgs = 2.16.840.1.101.3.4.3 (NIST algorithms); the sets' OIDs are sigAlgs.<arc>. */
static const uint8_t SIG_ALGS[8] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03};
#define OID_BYTES (sizeof SIG_ALGS + 1)
#define ARC_PURE 20    /* id-slh-dsa-<set>: 20 + index below */
#define ARC_PREHASH 35 /* id-hash-slh-dsa-<set>-with-<ph>: 35 + index below */

/* The sets in RFC 9909's order, each with the pre-hash of its HashSLH-DSA OID. */
static const struct {
    const char *name;
    grove_slhdsa_prehash ph;
} SETS[12] = {
    {"SLH-DSA-SHA2-128s", GROVE_PREHASH_SHA2_256},  {"SLH-DSA-SHA2-128f", GROVE_PREHASH_SHA2_256},
    {"SLH-DSA-SHA2-192s", GROVE_PREHASH_SHA2_512},  {"SLH-DSA-SHA2-192f", GROVE_PREHASH_SHA2_512},
    {"SLH-DSA-SHA2-256s", GROVE_PREHASH_SHA2_512},  {"SLH-DSA-SHA2-256f", GROVE_PREHASH_SHA2_512},
    {"SLH-DSA-SHAKE-128s", GROVE_PREHASH_SHAKE128}, {"SLH-DSA-SHAKE-128f", GROVE_PREHASH_SHAKE128},
    {"SLH-DSA-SHAKE-192s", GROVE_PREHASH_SHAKE256}, {"SLH-DSA-SHAKE-192f", GROVE_PREHASH_SHAKE256},
    {"SLH-DSA-SHAKE-256s", GROVE_PREHASH_SHAKE256}, {"SLH-DSA-SHAKE-256f", GROVE_PREHASH_SHAKE256},
};
#define NSETS (sizeof SETS / sizeof SETS[0])

/* The OID of (p, ph): GROVE_ERR_UNSUPPORTED for a round-3.1 set or another pre-hash. */
static grove_status oid_of(uint8_t oid[OID_BYTES], const grove_slhdsa_params *p,
                           grove_slhdsa_prehash ph)
{
    for (size_t i = 0; i < NSETS; i++) {
        if (grove_slhdsa_params_get(SETS[i].name) != p)
            continue;
        if (ph != 0 && ph != SETS[i].ph)
            return GROVE_ERR_UNSUPPORTED;
        memcpy(oid, SIG_ALGS, sizeof SIG_ALGS);
        oid[sizeof SIG_ALGS] = (uint8_t)((ph == 0 ? ARC_PURE : ARC_PREHASH) + i);
        return GROVE_OK;
    }
    return GROVE_ERR_UNSUPPORTED; /* a SPHINCS+ round-3.1 descriptor */
}

/* The set and pre-hash an OID names; GROVE_ERR_ENCODING for any other OID. */
static grove_status set_of(const grove_slhdsa_params **p, grove_slhdsa_prehash *ph,
                           const der_reader *oid)
{
    if (oid->len != OID_BYTES || memcmp(oid->buf, SIG_ALGS, sizeof SIG_ALGS) != 0)
        return GROVE_ERR_ENCODING;
    unsigned arc = oid->buf[sizeof SIG_ALGS];
    bool pure = arc >= ARC_PURE && arc < ARC_PURE + NSETS;
    bool prehash = arc >= ARC_PREHASH && arc < ARC_PREHASH + NSETS;
    if (!pure && !prehash)
        return GROVE_ERR_ENCODING;
    size_t i = arc - (pure ? ARC_PURE : ARC_PREHASH);
    *p = grove_slhdsa_params_get(SETS[i].name);
    *ph = pure ? (grove_slhdsa_prehash)0 : SETS[i].ph;
    return *p != NULL ? GROVE_OK : GROVE_ERR_INTERNAL;
}

grove_status grove_pkix_slhdsa_pk_to_der(const grove_slhdsa_params *p, grove_slhdsa_prehash ph,
                                         uint8_t *out, size_t out_cap, size_t *out_len,
                                         const uint8_t *pk)
{
    uint8_t oid[OID_BYTES];
    if (p == NULL || out_len == NULL || pk == NULL || (out == NULL && out_cap > 0))
        return GROVE_ERR_INVALID_ARG;
    grove_status st = oid_of(oid, p, ph);
    if (st != GROVE_OK)
        return st;
    return keyinfo_spki_encode(out, out_cap, out_len, oid, sizeof oid, pk,
                               grove_slhdsa_pk_bytes(p));
}

grove_status grove_pkix_slhdsa_sk_to_der(const grove_slhdsa_params *p, grove_slhdsa_prehash ph,
                                         uint8_t *out, size_t out_cap, size_t *out_len,
                                         const uint8_t *sk)
{
    uint8_t oid[OID_BYTES];
    if (p == NULL || out_len == NULL || sk == NULL || (out == NULL && out_cap > 0))
        return GROVE_ERR_INVALID_ARG;
    grove_status st = oid_of(oid, p, ph);
    if (st != GROVE_OK)
        return st;
    return keyinfo_pkcs8_encode(out, out_cap, out_len, oid, sizeof oid, sk,
                                grove_slhdsa_sk_bytes(p));
}

/* Copy a decoded key of the set's exact length `want` to (out, out_cap, &out_len). */
static grove_status give_key(uint8_t *out, size_t out_cap, size_t *out_len, const der_reader *key,
                             size_t want)
{
    if (key->len != want)
        return GROVE_ERR_ENCODING;
    *out_len = want;
    if (want > out_cap)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    memcpy(out, key->buf, want);
    return GROVE_OK;
}

grove_status grove_pkix_slhdsa_pk_from_der(const grove_slhdsa_params **p,
                                           grove_slhdsa_prehash *ph, uint8_t *pk, size_t pk_cap,
                                           size_t *pk_len, const uint8_t *der, size_t der_len)
{
    if (p == NULL || pk_len == NULL || der == NULL || (pk == NULL && pk_cap > 0))
        return GROVE_ERR_INVALID_ARG;
    der_reader oid, key;
    const grove_slhdsa_params *set = NULL;
    grove_slhdsa_prehash hash = 0;
    grove_status st = keyinfo_spki_decode(&oid, &key, der, der_len);
    if (st == GROVE_OK)
        st = set_of(&set, &hash, &oid);
    if (st == GROVE_OK)
        st = give_key(pk, pk_cap, pk_len, &key, grove_slhdsa_pk_bytes(set));
    if (st != GROVE_OK)
        return st;
    *p = set;
    if (ph != NULL)
        *ph = hash;
    return GROVE_OK;
}

grove_status grove_pkix_slhdsa_sk_from_der(const grove_slhdsa_params **p,
                                           grove_slhdsa_prehash *ph, uint8_t *sk, size_t sk_cap,
                                           size_t *sk_len, const uint8_t *der, size_t der_len)
{
    if (p == NULL || sk_len == NULL || der == NULL || (sk == NULL && sk_cap > 0))
        return GROVE_ERR_INVALID_ARG;
    der_reader oid, key, pub;
    const grove_slhdsa_params *set = NULL;
    grove_slhdsa_prehash hash = 0;
    grove_status st = keyinfo_pkcs8_decode(&oid, &key, &pub, der, der_len);
    if (st == GROVE_OK)
        st = set_of(&set, &hash, &oid);
    if (st == GROVE_OK && key.len != grove_slhdsa_sk_bytes(set))
        st = GROVE_ERR_ENCODING;
    /* An optional publicKey must be the secret key's own public half, PK.seed || PK.root. */
    size_t pk_bytes = set != NULL ? grove_slhdsa_pk_bytes(set) : 0;
    if (st == GROVE_OK && pub.buf != NULL &&
        (pub.len != pk_bytes || !grove_ct_equal(pub.buf, key.buf + key.len - pk_bytes, pk_bytes)))
        st = GROVE_ERR_ENCODING;
    if (st == GROVE_OK)
        st = give_key(sk, sk_cap, sk_len, &key, key.len);
    if (st != GROVE_OK)
        return st;
    *p = set;
    if (ph != NULL)
        *ph = hash;
    return GROVE_OK;
}
