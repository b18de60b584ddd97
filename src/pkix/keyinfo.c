/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SubjectPublicKeyInfo and PKCS#8 OneAsymmetricKey (see keyinfo.h). */
#include "pkix/keyinfo.h"

/* ---- writing ---------------------------------------------------------------------------- */

/* AlgorithmIdentifier ::= SEQUENCE { OID } */
static size_t alg_bytes(size_t oid_len)
{
    return der_tlv_bytes(der_tlv_bytes(oid_len));
}

static void put_alg(der_writer *w, const uint8_t *oid, size_t oid_len)
{
    der_put_header(w, DER_SEQUENCE, der_tlv_bytes(oid_len));
    der_put_header(w, DER_OID, oid_len);
    der_put_bytes(w, oid, oid_len);
}

/* Sets *out_len to total and checks the room: GROVE_OK or GROVE_ERR_BUFFER_TOO_SMALL. */
static grove_status room(size_t total, size_t out_cap, size_t *out_len)
{
    *out_len = total;
    return total > out_cap ? GROVE_ERR_BUFFER_TOO_SMALL : GROVE_OK;
}

grove_status keyinfo_spki_encode(uint8_t *out, size_t out_cap, size_t *out_len,
                                 const uint8_t *oid, size_t oid_len, const uint8_t *pk,
                                 size_t pk_len)
{
    size_t bits = der_tlv_bytes(1 + pk_len); /* the unused-bits byte, then the key */
    size_t content = alg_bytes(oid_len) + bits;
    grove_status st = room(der_tlv_bytes(content), out_cap, out_len);
    if (st != GROVE_OK)
        return st;
    der_writer w = {out, 0};
    der_put_header(&w, DER_SEQUENCE, content);
    put_alg(&w, oid, oid_len);
    der_put_header(&w, DER_BIT_STRING, 1 + pk_len);
    w.buf[w.pos++] = 0; /* no unused bits */
    der_put_bytes(&w, pk, pk_len);
    return GROVE_OK;
}

grove_status keyinfo_pkcs8_encode(uint8_t *out, size_t out_cap, size_t *out_len,
                                  const uint8_t *oid, size_t oid_len, const uint8_t *sk,
                                  size_t sk_len)
{
    static const uint8_t version0[3] = {DER_INTEGER, 1, 0};
    size_t content = sizeof version0 + alg_bytes(oid_len) + der_tlv_bytes(sk_len);
    grove_status st = room(der_tlv_bytes(content), out_cap, out_len);
    if (st != GROVE_OK)
        return st;
    der_writer w = {out, 0};
    der_put_header(&w, DER_SEQUENCE, content);
    der_put_bytes(&w, version0, sizeof version0);
    put_alg(&w, oid, oid_len);
    der_put_header(&w, DER_OCTET_STRING, sk_len);
    der_put_bytes(&w, sk, sk_len);
    return GROVE_OK;
}

/* ---- reading ---------------------------------------------------------------------------- */

/* The outermost SEQUENCE, which must span all der_len bytes: *body reads its contents. */
static grove_status read_outer(der_reader *body, const uint8_t *der, size_t der_len)
{
    der_reader top;
    der_reader_init(&top, der, der_len);
    grove_status st = der_read(&top, DER_SEQUENCE, body);
    if (st == GROVE_OK && !der_at_end(&top))
        st = GROVE_ERR_ENCODING; /* trailing bytes */
    return st;
}

/* AlgorithmIdentifier with its parameters absent: *oid reads the OID's contents. */
static grove_status read_alg(der_reader *r, der_reader *oid)
{
    der_reader alg;
    grove_status st = der_read(r, DER_SEQUENCE, &alg);
    if (st == GROVE_OK)
        st = der_read(&alg, DER_OID, oid);
    if (st == GROVE_OK && (oid->len == 0 || !der_at_end(&alg)))
        st = GROVE_ERR_ENCODING; /* an empty OID, or parameters present (even NULL) */
    return st;
}

/* A BIT STRING (tag `tag`) of whole bytes: *bytes reads them, without the unused-bits byte. */
static grove_status read_bits(der_reader *r, uint8_t tag, der_reader *bytes)
{
    der_reader bits;
    grove_status st = der_read(r, tag, &bits);
    if (st != GROVE_OK)
        return st;
    if (bits.len < 1 || bits.buf[0] != 0)
        return GROVE_ERR_ENCODING;
    der_reader_init(bytes, bits.buf + 1, bits.len - 1);
    return GROVE_OK;
}

grove_status keyinfo_spki_decode(der_reader *oid, der_reader *pk, const uint8_t *der,
                                 size_t der_len)
{
    der_reader body;
    grove_status st = read_outer(&body, der, der_len);
    if (st == GROVE_OK)
        st = read_alg(&body, oid);
    if (st == GROVE_OK)
        st = read_bits(&body, DER_BIT_STRING, pk);
    if (st == GROVE_OK && !der_at_end(&body))
        st = GROVE_ERR_ENCODING;
    return st;
}

/* INTEGER version: 0 (v1) or 1 (v2, which may carry the public key); *v2 says which. */
static grove_status read_version(der_reader *r, bool *v2)
{
    der_reader version;
    grove_status st = der_read(r, DER_INTEGER, &version);
    if (st != GROVE_OK)
        return st;
    if (version.len != 1 || version.buf[0] > 1)
        return GROVE_ERR_ENCODING;
    *v2 = version.buf[0] == 1;
    return GROVE_OK;
}

grove_status keyinfo_pkcs8_decode(der_reader *oid, der_reader *sk, der_reader *pk,
                                  const uint8_t *der, size_t der_len)
{
    der_reader body, attributes;
    bool v2 = false;
    der_reader_init(pk, NULL, 0); /* absent */
    grove_status st = read_outer(&body, der, der_len);
    if (st == GROVE_OK)
        st = read_version(&body, &v2);
    if (st == GROVE_OK)
        st = read_alg(&body, oid);
    if (st == GROVE_OK)
        st = der_read(&body, DER_OCTET_STRING, sk);
    if (st == GROVE_OK && der_peek_tag(&body) == DER_CONTEXT_0_CONSTRUCTED)
        st = der_read(&body, DER_CONTEXT_0_CONSTRUCTED, &attributes); /* skipped */
    if (st == GROVE_OK && v2 && der_peek_tag(&body) == DER_CONTEXT_1_PRIMITIVE)
        st = read_bits(&body, DER_CONTEXT_1_PRIMITIVE, pk);
    if (st == GROVE_OK && !der_at_end(&body))
        st = GROVE_ERR_ENCODING;
    return st;
}
