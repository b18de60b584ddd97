/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* XMSS and XMSS^MT public keys as SubjectPublicKeyInfo (RFC 9802; see grove/pkix.h). */
#include <string.h>

#include "grove/pkix.h"
#include "pkix/keyinfo.h"

/* id-alg-xmss-hashsig = 1.3.6.1.5.5.7.6.34, id-alg-xmssmt-hashsig = 1.3.6.1.5.5.7.6.35 */
#define OID_BYTES 8
static const uint8_t OID_XMSS[OID_BYTES] = {0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x06, 0x22};
static const uint8_t OID_XMSSMT[OID_BYTES] = {0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x06, 0x23};

grove_status grove_pkix_xmss_pk_to_der(grove_xmss_family family, uint8_t *out, size_t out_cap,
                                       size_t *out_len, const uint8_t *pk, size_t pk_len)
{
    if ((family != GROVE_XMSS_FAMILY_XMSS && family != GROVE_XMSS_FAMILY_XMSSMT) ||
        out_len == NULL || pk == NULL || (out == NULL && out_cap > 0))
        return GROVE_ERR_INVALID_ARG;
    const grove_xmss_params *p;
    grove_status st = grove_xmss_pk_params(family, &p, pk, pk_len);
    if (st != GROVE_OK)
        return st;
    const uint8_t *oid = family == GROVE_XMSS_FAMILY_XMSS ? OID_XMSS : OID_XMSSMT;
    return keyinfo_spki_encode(out, out_cap, out_len, oid, OID_BYTES, pk, pk_len);
}

grove_status grove_pkix_xmss_pk_from_der(grove_xmss_family *family, uint8_t *pk, size_t pk_cap,
                                         size_t *pk_len, const uint8_t *der, size_t der_len)
{
    if (family == NULL || pk_len == NULL || der == NULL || (pk == NULL && pk_cap > 0))
        return GROVE_ERR_INVALID_ARG;
    der_reader oid, key;
    grove_status st = keyinfo_spki_decode(&oid, &key, der, der_len);
    if (st != GROVE_OK)
        return st;
    grove_xmss_family fam;
    if (oid.len == OID_BYTES && memcmp(oid.buf, OID_XMSS, OID_BYTES) == 0)
        fam = GROVE_XMSS_FAMILY_XMSS;
    else if (oid.len == OID_BYTES && memcmp(oid.buf, OID_XMSSMT, OID_BYTES) == 0)
        fam = GROVE_XMSS_FAMILY_XMSSMT;
    else
        return GROVE_ERR_ENCODING;
    const grove_xmss_params *p;
    st = grove_xmss_pk_params(fam, &p, key.buf, key.len);
    if (st != GROVE_OK)
        return st;
    *pk_len = key.len;
    if (key.len > pk_cap)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    memcpy(pk, key.buf, key.len);
    *family = fam;
    return GROVE_OK;
}
