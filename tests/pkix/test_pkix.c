/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/pkix.h: the RFC 9909 / RFC 9802 examples decode to the right keys and re-encode
 * byte-identically (and the RFC 9802 certificates verify under the decoded keys), round trips
 * for every SLH-DSA set and OID and for XMSS / XMSS^MT keys, PEM, and hostile DER: truncated,
 * bumped, BER, wrong OID, parameters, trailing bytes, unused bits; all GROVE_ERR_ENCODING.
 */
#include <stdlib.h>
#include <string.h>

#include "grove/pkix.h"
#include "pkix/der.h"
#include "rfc_examples.h"
#include "test.h"

static uint64_t rng = 0x706b6978u;

/* PEM text -> DER (must succeed). */
static size_t pem_to_der(uint8_t *der, size_t cap, const char *label, const char *pem)
{
    size_t len = 0;
    CHECK_EQ_INT(grove_pkix_pem_decode(der, cap, &len, label, pem, strlen(pem)), GROVE_OK);
    return len;
}

/* ---- RFC 9909 examples ------------------------------------------------------------------- */

static void test_rfc9909_public_key(void)
{
    uint8_t der[128], pk[GROVE_SLHDSA_MAX_PK_BYTES], again[128];
    size_t der_len = pem_to_der(der, sizeof der, GROVE_PKIX_PEM_PUBLIC_KEY, RFC9909_PUBLIC_KEY_PEM);
    CHECK_EQ_INT(der_len, 50);
    const grove_slhdsa_params *p = NULL;
    grove_slhdsa_prehash ph = GROVE_PREHASH_SHA2_256;
    size_t pk_len = 0;
    CHECK_EQ_INT(grove_pkix_slhdsa_pk_from_der(&p, &ph, pk, sizeof pk, &pk_len, der, der_len),
                 GROVE_OK);
    CHECK(p == grove_slhdsa_params_get("SLH-DSA-SHA2-128s"));
    CHECK_EQ_INT(ph, 0);
    uint8_t want[32];
    CHECK(test_unhex_into(want, 32, "2b8109ec777caa4e1f024ccfcf9497d991805092"
                                    "80f4256af2b07af80289b494"));
    CHECK_EQ_INT(pk_len, 32);
    CHECK_MEM(pk, want, 32);
    size_t again_len = 0;
    CHECK_EQ_INT(grove_pkix_slhdsa_pk_to_der(p, 0, again, sizeof again, &again_len, pk), GROVE_OK);
    CHECK_EQ_INT(again_len, der_len);
    CHECK_MEM(again, der, der_len);
    char pem[256];
    size_t pem_len = 0;
    CHECK_EQ_INT(grove_pkix_pem_encode(pem, sizeof pem, &pem_len, GROVE_PKIX_PEM_PUBLIC_KEY, der,
                                       der_len),
                 GROVE_OK);
    CHECK_EQ_INT(pem_len, strlen(RFC9909_PUBLIC_KEY_PEM));
    CHECK(strcmp(pem, RFC9909_PUBLIC_KEY_PEM) == 0);
}

static void test_rfc9909_private_key(void)
{
    uint8_t der[128], sk[GROVE_SLHDSA_MAX_SK_BYTES], again[128];
    size_t der_len =
        pem_to_der(der, sizeof der, GROVE_PKIX_PEM_PRIVATE_KEY, RFC9909_PRIVATE_KEY_PEM);
    CHECK_EQ_INT(der_len, 84);
    const grove_slhdsa_params *p = NULL;
    grove_slhdsa_prehash ph = GROVE_PREHASH_SHA2_256;
    size_t sk_len = 0;
    CHECK_EQ_INT(grove_pkix_slhdsa_sk_from_der(&p, &ph, sk, sizeof sk, &sk_len, der, der_len),
                 GROVE_OK);
    CHECK(p == grove_slhdsa_params_get("SLH-DSA-SHA2-128s"));
    CHECK_EQ_INT(ph, 0);
    CHECK_EQ_INT(sk_len, 64);
    /* The key is SK.seed || SK.prf || PK.seed || PK.root: key generation from the three seeds
     * gives PK.root back, and the public half is the RFC's example public key. */
    uint8_t pk[32], sk2[64];
    CHECK_EQ_INT(grove_slhdsa_keygen_from_seed(p, pk, sk2, sk, sk + 16, sk + 32), GROVE_OK);
    CHECK_MEM(sk2, sk, 64);
    uint8_t pub_der[128];
    size_t pub_len =
        pem_to_der(pub_der, sizeof pub_der, GROVE_PKIX_PEM_PUBLIC_KEY, RFC9909_PUBLIC_KEY_PEM);
    CHECK_MEM(pub_der + pub_len - 32, pk, 32);
    size_t again_len = 0;
    CHECK_EQ_INT(grove_pkix_slhdsa_sk_to_der(p, 0, again, sizeof again, &again_len, sk), GROVE_OK);
    CHECK_EQ_INT(again_len, der_len);
    CHECK_MEM(again, der, der_len);
    char pem[256];
    size_t pem_len = 0;
    CHECK_EQ_INT(grove_pkix_pem_encode(pem, sizeof pem, &pem_len, GROVE_PKIX_PEM_PRIVATE_KEY, der,
                                       der_len),
                 GROVE_OK);
    CHECK(strcmp(pem, RFC9909_PRIVATE_KEY_PEM) == 0);
    grove_wipe(sk, sizeof sk);
}

/* ---- RFC 9802 certificates ---------------------------------------------------------------- */

/* Join a line array into one PEM text (malloc'd). */
static char *join_lines(const char *const *lines)
{
    size_t n = 0;
    for (size_t i = 0; lines[i] != NULL; i++)
        n += strlen(lines[i]) + 1;
    char *s = malloc(n + 1), *o = s;
    if (s == NULL)
        abort();
    for (size_t i = 0; lines[i] != NULL; i++) {
        size_t l = strlen(lines[i]);
        memcpy(o, lines[i], l);
        o[l] = '\n';
        o += l + 1;
    }
    *o = '\0';
    return s;
}

/* The next element of r with tag `tag`: its whole TLV in (*tlv, *tlv_len), its contents in c. */
static int next_tlv(der_reader *r, uint8_t tag, der_reader *c, const uint8_t **tlv,
                    size_t *tlv_len)
{
    size_t start = r->pos;
    if (der_read(r, tag, c) != GROVE_OK)
        return -1;
    *tlv = r->buf + start;
    *tlv_len = r->pos - start;
    return 0;
}

/*
 * Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signature BIT STRING }, with
 * tbsCertificate ::= SEQUENCE { [0] version, serial, signature, issuer, validity, subject,
 * subjectPublicKeyInfo, ... }: decode the SPKI with grove_pkix_xmss_pk_from_der, check it
 * re-encodes identically, and verify the certificate's signature with the decoded key.
 */
static void test_rfc9802_cert(const char *const *lines, grove_xmss_family want_family,
                              const char *want_set)
{
    char *pem = join_lines(lines);
    size_t der_len = 0;
    CHECK_EQ_INT(grove_pkix_pem_decode(NULL, 0, &der_len, "CERTIFICATE", pem, strlen(pem)),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    uint8_t *der = malloc(der_len);
    CHECK_EQ_INT(grove_pkix_pem_decode(der, der_len, &der_len, "CERTIFICATE", pem, strlen(pem)),
                 GROVE_OK);
    der_reader top, cert, tbs, c, sig;
    const uint8_t *tbs_tlv, *spki = NULL, *t;
    size_t tbs_len, spki_len = 0, l;
    der_reader_init(&top, der, der_len);
    int bad = der_read(&top, DER_SEQUENCE, &cert) != GROVE_OK ||
              next_tlv(&cert, DER_SEQUENCE, &tbs, &tbs_tlv, &tbs_len) != 0 ||
              next_tlv(&tbs, 0xa0, &c, &t, &l) != 0 || next_tlv(&tbs, DER_INTEGER, &c, &t, &l) ||
              next_tlv(&tbs, DER_SEQUENCE, &c, &t, &l) != 0 ||           /* signature */
              next_tlv(&tbs, DER_SEQUENCE, &c, &t, &l) != 0 ||           /* issuer */
              next_tlv(&tbs, DER_SEQUENCE, &c, &t, &l) != 0 ||           /* validity */
              next_tlv(&tbs, DER_SEQUENCE, &c, &t, &l) != 0 ||           /* subject */
              next_tlv(&tbs, DER_SEQUENCE, &c, &spki, &spki_len) != 0 || /* the key */
              next_tlv(&cert, DER_SEQUENCE, &c, &t, &l) != 0 ||
              der_read(&cert, DER_BIT_STRING, &sig) != GROVE_OK || sig.len < 1 || sig.buf[0] != 0;
    CHECK(!bad);
    if (bad) {
        free(der);
        free(pem);
        return;
    }
    grove_xmss_family family = (grove_xmss_family)7;
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES], again[GROVE_PKIX_XMSS_MAX_SPKI_BYTES];
    size_t pk_len = 0, again_len = 0;
    CHECK_EQ_INT(grove_pkix_xmss_pk_from_der(&family, pk, sizeof pk, &pk_len, spki, spki_len),
                 GROVE_OK);
    CHECK_EQ_INT(family, want_family);
    const grove_xmss_params *p = NULL;
    CHECK_EQ_INT(grove_xmss_pk_params(family, &p, pk, pk_len), GROVE_OK);
    CHECK(p != NULL && strcmp(grove_xmss_params_name(p), want_set) == 0);
    CHECK_EQ_INT(grove_pkix_xmss_pk_to_der(family, again, sizeof again, &again_len, pk, pk_len),
                 GROVE_OK);
    CHECK_EQ_INT(again_len, spki_len);
    CHECK_MEM(again, spki, spki_len);
    /* The signature over tbsCertificate verifies under the decoded key; a flipped bit fails. */
    CHECK_EQ_INT(grove_xmss_verify(family, sig.buf + 1, sig.len - 1, tbs_tlv, tbs_len, pk, pk_len),
                 GROVE_OK);
    der[tbs_len / 2] ^= 1; /* inside tbsCertificate */
    CHECK_EQ_INT(grove_xmss_verify(family, sig.buf + 1, sig.len - 1, tbs_tlv, tbs_len, pk, pk_len),
                 GROVE_ERR_VERIFY);
    free(der);
    free(pem);
}

/* The position of p in RFC 9909's list of OIDs (sigAlgs 20-31 and 35-46 in this order). */
static int rfc_index(const grove_slhdsa_params *p)
{
    static const char *const order[12] = {
        "SLH-DSA-SHA2-128s",  "SLH-DSA-SHA2-128f",  "SLH-DSA-SHA2-192s",  "SLH-DSA-SHA2-192f",
        "SLH-DSA-SHA2-256s",  "SLH-DSA-SHA2-256f",  "SLH-DSA-SHAKE-128s", "SLH-DSA-SHAKE-128f",
        "SLH-DSA-SHAKE-192s", "SLH-DSA-SHAKE-192f", "SLH-DSA-SHAKE-256s", "SLH-DSA-SHAKE-256f"};
    for (int i = 0; i < 12; i++)
        if (strcmp(grove_slhdsa_params_name(p), order[i]) == 0)
            return i;
    return -100;
}

/* ---- round trips --------------------------------------------------------------------------- */

/* Every SLH-DSA set, pure and HashSLH-DSA: DER and PEM round trips, sizes, capacity errors. */
static void test_slhdsa_round_trips(void)
{
    size_t sets = 0;
    for (size_t i = 0; i < grove_slhdsa_params_count(); i++) {
        const grove_slhdsa_params *p = grove_slhdsa_params_at(i);
        uint8_t pk[GROVE_SLHDSA_MAX_PK_BYTES], sk[GROVE_SLHDSA_MAX_SK_BYTES];
        uint8_t der[GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES], key[GROVE_SLHDSA_MAX_SK_BYTES];
        size_t der_len = 0, key_len = 0;
        test_rand_bytes(&rng, pk, sizeof pk);
        test_rand_bytes(&rng, sk, sizeof sk);
        if (!grove_slhdsa_params_is_fips205(p)) { /* SPHINCS+ round 3.1 has no OID */
            CHECK_EQ_INT(grove_pkix_slhdsa_pk_to_der(p, 0, der, sizeof der, &der_len, pk),
                         GROVE_ERR_UNSUPPORTED);
            CHECK_EQ_INT(grove_pkix_slhdsa_sk_to_der(p, 0, der, sizeof der, &der_len, sk),
                         GROVE_ERR_UNSUPPORTED);
            continue;
        }
        sets++;
        size_t pkb = grove_slhdsa_pk_bytes(p), skb = grove_slhdsa_sk_bytes(p);
        int hashes = 0;
        for (int ph = 0; ph <= GROVE_PREHASH_SHAKE256; ph++) {
            grove_slhdsa_prehash want = (grove_slhdsa_prehash)ph;
            grove_status st = grove_pkix_slhdsa_pk_to_der(p, want, der, sizeof der, &der_len, pk);
            if (st == GROVE_ERR_UNSUPPORTED)
                continue; /* not the pre-hash RFC 9909 pairs with this set */
            CHECK_EQ_INT(st, GROVE_OK);
            hashes += ph != 0;
            CHECK(der_len <= GROVE_PKIX_SLHDSA_MAX_SPKI_BYTES);
            /* ... 06 09 <2.16.840.1.101.3.4.3.arc> 03 len 00 <pk>: the arc of RFC 9909. */
            CHECK_EQ_INT(der[der_len - pkb - 4], (ph == 0 ? 20 : 35) + rfc_index(p));
            const grove_slhdsa_params *got = NULL;
            grove_slhdsa_prehash got_ph = (grove_slhdsa_prehash)99;
            CHECK_EQ_INT(grove_pkix_slhdsa_pk_from_der(&got, &got_ph, key, sizeof key, &key_len,
                                                       der, der_len),
                         GROVE_OK);
            CHECK(got == p);
            CHECK_EQ_INT(got_ph, want);
            CHECK_EQ_INT(key_len, pkb);
            CHECK_MEM(key, pk, pkb);
            /* Too small by one: the length needed, nothing written. */
            memset(key, 0xee, sizeof key);
            CHECK_EQ_INT(grove_pkix_slhdsa_pk_from_der(&got, NULL, key, pkb - 1, &key_len, der,
                                                       der_len),
                         GROVE_ERR_BUFFER_TOO_SMALL);
            CHECK_EQ_INT(key_len, pkb);
            CHECK_EQ_INT(key[0], 0xee);
            size_t need = 0;
            CHECK_EQ_INT(grove_pkix_slhdsa_pk_to_der(p, want, der, der_len - 1, &need, pk),
                         GROVE_ERR_BUFFER_TOO_SMALL);
            CHECK_EQ_INT(need, der_len);

            CHECK_EQ_INT(grove_pkix_slhdsa_sk_to_der(p, want, der, sizeof der, &der_len, sk),
                         GROVE_OK);
            CHECK(der_len <= GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES);
            CHECK_EQ_INT(grove_pkix_slhdsa_sk_from_der(&got, &got_ph, key, sizeof key, &key_len,
                                                       der, der_len),
                         GROVE_OK);
            CHECK(got == p);
            CHECK_EQ_INT(got_ph, want);
            CHECK_EQ_INT(key_len, skb);
            CHECK_MEM(key, sk, skb);
            CHECK_EQ_INT(grove_pkix_slhdsa_sk_to_der(p, want, der, der_len - 1, &need, sk),
                         GROVE_ERR_BUFFER_TOO_SMALL);
            CHECK_EQ_INT(need, der_len);
            /* PEM round trip of the private key. */
            char pem[512];
            size_t pem_len = 0;
            uint8_t back[GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES];
            size_t back_len = 0;
            CHECK_EQ_INT(grove_pkix_pem_encode(pem, sizeof pem, &pem_len,
                                               GROVE_PKIX_PEM_PRIVATE_KEY, der, der_len),
                         GROVE_OK);
            CHECK_EQ_INT(strlen(pem), pem_len);
            CHECK_EQ_INT(grove_pkix_pem_decode(back, sizeof back, &back_len,
                                               GROVE_PKIX_PEM_PRIVATE_KEY, pem, pem_len),
                         GROVE_OK);
            CHECK_EQ_INT(back_len, der_len);
            CHECK_MEM(back, der, der_len);
        }
        CHECK_EQ_INT(hashes, 1); /* exactly one HashSLH-DSA OID per set */
        grove_wipe(sk, sizeof sk);
        grove_wipe(key, sizeof key);
    }
    CHECK_EQ_INT(sets, 12);
}

/* A few XMSS and XMSS^MT sets: SPKI round trips of keys with each set's OID. */
static void test_xmss_round_trips(void)
{
    static const char *const names[] = {"XMSS-SHA2_10_256", "XMSS-SHAKE_16_512",
                                        "XMSS-SHA2_20_192", "XMSSMT-SHA2_20/2_256",
                                        "XMSSMT-SHAKE_60/12_512", "XMSSMT-SHAKE256_40/8_192"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const grove_xmss_params *p = grove_xmss_params_get(names[i]);
        CHECK(p != NULL);
        if (p == NULL)
            continue;
        grove_xmss_family fam = grove_xmss_params_family(p);
        uint8_t pk[GROVE_XMSS_MAX_PK_BYTES], der[GROVE_PKIX_XMSS_MAX_SPKI_BYTES];
        uint8_t back[GROVE_XMSS_MAX_PK_BYTES];
        size_t pk_len = grove_xmss_pk_bytes(p), der_len = 0, back_len = 0, need = 0;
        test_rand_bytes(&rng, pk, sizeof pk);
        uint32_t oid = grove_xmss_params_oid(p);
        pk[0] = (uint8_t)(oid >> 24), pk[1] = (uint8_t)(oid >> 16), pk[2] = (uint8_t)(oid >> 8);
        pk[3] = (uint8_t)oid;
        CHECK_EQ_INT(grove_pkix_xmss_pk_to_der(fam, der, sizeof der, &der_len, pk, pk_len),
                     GROVE_OK);
        CHECK(der_len <= GROVE_PKIX_XMSS_MAX_SPKI_BYTES);
        CHECK_EQ_INT(der[der_len - pk_len - (pk_len + 1 < 128 ? 4 : 5)], fam ? 0x23 : 0x22);
        grove_xmss_family got = (grove_xmss_family)7;
        CHECK_EQ_INT(grove_pkix_xmss_pk_from_der(&got, back, sizeof back, &back_len, der, der_len),
                     GROVE_OK);
        CHECK_EQ_INT(got, fam);
        CHECK_EQ_INT(back_len, pk_len);
        CHECK_MEM(back, pk, pk_len);
        CHECK_EQ_INT(grove_pkix_xmss_pk_to_der(fam, der, der_len - 1, &need, pk, pk_len),
                     GROVE_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_INT(need, der_len);
        CHECK_EQ_INT(grove_pkix_xmss_pk_from_der(&got, back, pk_len - 1, &need, der, der_len),
                     GROVE_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_INT(need, pk_len);
        /* The key checked as grove_xmss_pk_params does: wrong length, other family's OID. */
        CHECK_EQ_INT(grove_pkix_xmss_pk_to_der(fam, der, sizeof der, &der_len, pk, pk_len - 1),
                     GROVE_ERR_ENCODING);
        pk[3] = 0xee; /* an unregistered OID */
        CHECK_EQ_INT(grove_pkix_xmss_pk_to_der(fam, der, sizeof der, &der_len, pk, pk_len),
                     GROVE_ERR_UNSUPPORTED);
    }
    /* The SLH-DSA decoder refuses an XMSS key and the other way round. */
    uint8_t pk[32], der[GROVE_PKIX_XMSS_MAX_SPKI_BYTES], out[GROVE_XMSS_MAX_PK_BYTES];
    size_t der_len = 0, out_len = 0;
    const grove_slhdsa_params *sp = grove_slhdsa_params_get("SLH-DSA-SHA2-128s");
    const grove_slhdsa_params *got = NULL;
    grove_xmss_family fam;
    test_rand_bytes(&rng, pk, sizeof pk);
    CHECK_EQ_INT(grove_pkix_slhdsa_pk_to_der(sp, 0, der, sizeof der, &der_len, pk), GROVE_OK);
    CHECK_EQ_INT(grove_pkix_xmss_pk_from_der(&fam, out, sizeof out, &out_len, der, der_len),
                 GROVE_ERR_ENCODING);
    uint8_t xpk[68] = {0, 0, 0, 1};
    CHECK_EQ_INT(grove_pkix_xmss_pk_to_der(GROVE_XMSS_FAMILY_XMSS, der, sizeof der, &der_len, xpk,
                                           sizeof xpk),
                 GROVE_OK);
    CHECK_EQ_INT(grove_pkix_slhdsa_pk_from_der(&got, NULL, out, sizeof out, &out_len, der, der_len),
                 GROVE_ERR_ENCODING);
}

/* ---- hostile DER --------------------------------------------------------------------------- */

enum kind { SLH_PK, SLH_SK, XMSS_PK };

/* Decode der with the decoder of `kind`; on success, re-encode into again (*again_len). */
static grove_status decode(enum kind kind, const uint8_t *der, size_t der_len, uint8_t *again,
                           size_t *again_len)
{
    uint8_t key[GROVE_XMSS_MAX_PK_BYTES + GROVE_SLHDSA_MAX_SK_BYTES];
    size_t key_len = 0;
    const grove_slhdsa_params *p = NULL;
    grove_slhdsa_prehash ph = 0;
    grove_xmss_family fam;
    grove_status st;
    size_t cap = 256;
    *again_len = 0;
    switch (kind) {
    case SLH_PK:
        st = grove_pkix_slhdsa_pk_from_der(&p, &ph, key, sizeof key, &key_len, der, der_len);
        if (st == GROVE_OK)
            st = grove_pkix_slhdsa_pk_to_der(p, ph, again, cap, again_len, key);
        break;
    case SLH_SK:
        st = grove_pkix_slhdsa_sk_from_der(&p, &ph, key, sizeof key, &key_len, der, der_len);
        if (st == GROVE_OK)
            st = grove_pkix_slhdsa_sk_to_der(p, ph, again, cap, again_len, key);
        break;
    default:
        st = grove_pkix_xmss_pk_from_der(&fam, key, sizeof key, &key_len, der, der_len);
        if (st == GROVE_OK)
            st = grove_pkix_xmss_pk_to_der(fam, again, cap, again_len, key, key_len);
        break;
    }
    grove_wipe(key, sizeof key);
    return st;
}

/* A valid encoding of each kind (SLH-DSA-SHA2-128s / SHAKE-256f, XMSS-SHA2_10_256). */
static size_t sample(enum kind kind, uint8_t *der, size_t cap)
{
    uint8_t key[GROVE_SLHDSA_MAX_SK_BYTES] = {0, 0, 0, 1};
    size_t len = 0;
    const grove_slhdsa_params *p = grove_slhdsa_params_get("SLH-DSA-SHA2-128s");
    test_rand_bytes(&rng, key + 4, sizeof key - 4);
    grove_status st = kind == SLH_PK ? grove_pkix_slhdsa_pk_to_der(p, 0, der, cap, &len, key)
                      : kind == SLH_SK
                          ? grove_pkix_slhdsa_sk_to_der(
                                grove_slhdsa_params_get("SLH-DSA-SHAKE-256f"), 0, der, cap, &len,
                                key)
                          : grove_pkix_xmss_pk_to_der(GROVE_XMSS_FAMILY_XMSS, der, cap, &len, key,
                                                      68);
    CHECK_EQ_INT(st, GROVE_OK);
    return len;
}

/* Did decoding `bad` and encoding again give `bad` back? (A version-1 PKCS#8 comes back as
 * version 0, the only form the encoder writes.) */
static bool reencodes(enum kind kind, uint8_t *bad, size_t len, const uint8_t *again,
                      size_t again_len)
{
    uint8_t copy[256];
    memcpy(copy, bad, len);
    /* SEQUENCE header (2 or 3 bytes here), then INTEGER: 02 01 <version> */
    size_t version = (len > 1 && copy[1] == 0x81 ? 3 : 2) + 2;
    if (kind == SLH_SK && len > version && copy[version] == 1)
        copy[version] = 0;
    return again_len == len && memcmp(again, copy, len) == 0;
}

/*
 * Every truncation, and every byte bumped by +1 and -1 and flipped in its top bit: the result
 * is GROVE_ERR_ENCODING, or GROVE_OK only if the input re-encodes to itself (DER is unique:
 * a changed key byte or OID arc naming another valid set). Then random multi-byte damage.
 */
static void test_mutations(enum kind kind)
{
    uint8_t der[256], bad[256], again[256];
    size_t len = sample(kind, der, sizeof der), again_len;
    CHECK_EQ_INT(decode(kind, der, len, again, &again_len), GROVE_OK);
    for (size_t cut = 0; cut < len; cut++)
        CHECK_EQ_INT(decode(kind, der, cut, again, &again_len), GROVE_ERR_ENCODING);
    static const int deltas[] = {1, -1, 0x80};
    size_t accepted = 0;
    for (size_t i = 0; i < len; i++) {
        for (size_t d = 0; d < 3; d++) {
            memcpy(bad, der, len);
            bad[i] = deltas[d] == 0x80 ? (uint8_t)(bad[i] ^ 0x80) : (uint8_t)(bad[i] + deltas[d]);
            grove_status st = decode(kind, bad, len, again, &again_len);
            if (st == GROVE_OK) {
                accepted++;
                CHECK(reencodes(kind, bad, len, again, again_len));
            } else {
                CHECK(st == GROVE_ERR_ENCODING || st == GROVE_ERR_UNSUPPORTED);
            }
        }
    }
    CHECK(accepted > 0); /* key bytes are free */
    for (int round = 0; round < 20000; round++) {
        memcpy(bad, der, len);
        size_t n = 1 + test_rand_u64(&rng) % 4, bad_len = len;
        for (size_t k = 0; k < n; k++)
            bad[test_rand_u64(&rng) % len] = (uint8_t)test_rand_u64(&rng);
        if (test_rand_u64(&rng) % 4 == 0)
            bad_len = (size_t)(test_rand_u64(&rng) % (len + 8)); /* cut or extend */
        grove_status st = decode(kind, bad, bad_len, again, &again_len);
        if (st == GROVE_OK)
            CHECK(reencodes(kind, bad, bad_len, again, again_len));
        else
            CHECK(st == GROVE_ERR_ENCODING || st == GROVE_ERR_UNSUPPORTED);
    }
}

/* Decode a hand-made SLH-DSA SPKI or PKCS#8 given in hex. */
static grove_status decode_hex(enum kind kind, const char *hex)
{
    size_t len = 0;
    uint8_t *der = test_unhex(hex, &len), again[256];
    size_t again_len;
    grove_status st = decode(kind, der, len, again, &again_len);
    free(der);
    return st;
}

#define ALG_128S "300b0609608648016503040314" /* SEQUENCE { id-slh-dsa-sha2-128s } */
#define PK32 "2b8109ec777caa4e1f024ccfcf9497d99180509280f4256af2b07af80289b494"
#define PK31 "2b8109ec777caa4e1f024ccfcf9497d99180509280f4256af2b07af80289b4"
#define SK_HEAD "a2263bca45860836523160049523d621677fad90d51eb6067a327e0d1e64a501"
#define SK64 SK_HEAD PK32

/* The hostile cases one by one, each a small edit of the RFC 9909 example. */
static void test_hostile_cases(void)
{
    CHECK_EQ_INT(decode_hex(SLH_PK, "3030" ALG_128S "032100" PK32), GROVE_OK);
    CHECK_EQ_INT(decode_hex(SLH_SK, "3052020100" ALG_128S "0440" SK64), GROVE_OK);
    /* long-form lengths for small values (BER, not DER) */
    CHECK_EQ_INT(decode_hex(SLH_PK, "308130" ALG_128S "032100" PK32), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "30820030" ALG_128S "032100" PK32), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "3031" ALG_128S "03812100" PK32), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_SK, "3053020100" ALG_128S "048140" SK64), GROVE_ERR_ENCODING);
    /* indefinite length */
    CHECK_EQ_INT(decode_hex(SLH_PK, "3080" ALG_128S "032100" PK32 "0000"), GROVE_ERR_ENCODING);
    /* a length with more bytes than we read, and one past the end */
    CHECK_EQ_INT(decode_hex(SLH_PK, "3083000030" ALG_128S "032100" PK32), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "3031" ALG_128S "032100" PK32), GROVE_ERR_ENCODING);
    /* trailing bytes after the structure, and inside it */
    CHECK_EQ_INT(decode_hex(SLH_PK, "3030" ALG_128S "032100" PK32 "00"), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "3032" ALG_128S "032100" PK32 "0500"), GROVE_ERR_ENCODING);
    /* parameters present: NULL, or anything */
    CHECK_EQ_INT(decode_hex(SLH_PK, "3032300d0609608648016503040314" "0500" "032100" PK32),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_SK, "3054020100300d0609608648016503040314" "0500" "0440" SK64),
                 GROVE_ERR_ENCODING);
    /* wrong OIDs: arcs 19, 32, 34 and 47 beside the valid ranges, another prefix, one
     * byte longer, the RFC 9802 XMSS OID */
    CHECK_EQ_INT(decode_hex(SLH_PK, "3030300b0609608648016503040313032100" PK32),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "3030300b0609608648016503040320032100" PK32),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "3030300b0609608648016503040322032100" PK32),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "3030300b060960864801650304032f032100" PK32),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "3030300b0609608648016503040214032100" PK32),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "3031300c060a60864801650304031400032100" PK32),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "302f300a06082b06010505070622032100" PK32),
                 GROVE_ERR_ENCODING);
    /* the arc of SHA2-128s' HashSLH-DSA OID (35) is fine, and names SHA2-256 */
    CHECK_EQ_INT(decode_hex(SLH_PK, "3030300b0609608648016503040323032100" PK32), GROVE_OK);
    /* BIT STRING with unused bits, empty, or an OCTET STRING instead */
    CHECK_EQ_INT(decode_hex(SLH_PK, "3030" ALG_128S "032101" PK32), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "3030" ALG_128S "032107" PK32), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "300f" ALG_128S "0300"), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "302f" ALG_128S "0420" PK32), GROVE_ERR_ENCODING);
    /* a key one byte short or long for the set */
    CHECK_EQ_INT(decode_hex(SLH_PK, "302f" ALG_128S "032000" PK31), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_PK, "3031" ALG_128S "032200" PK32 "00"), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_SK, "3051020100" ALG_128S "043f" SK_HEAD PK31), GROVE_ERR_ENCODING);
    /* PKCS#8 versions: 2, a two-byte 0, a missing version */
    CHECK_EQ_INT(decode_hex(SLH_SK, "3052020102" ALG_128S "0440" SK64), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_SK, "305302020000" ALG_128S "0440" SK64), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_SK, "304f" ALG_128S "0440" SK64), GROVE_ERR_ENCODING);
    /* the private key wrapped once more in an OCTET STRING (not RFC 9909's form) */
    CHECK_EQ_INT(decode_hex(SLH_SK, "3054020100" ALG_128S "04420440" SK64), GROVE_ERR_ENCODING);
    /* version 1 with the matching public key [1]: fine; another public key: refused;
     * version 0 with a public key: refused; attributes [0] are skipped */
    CHECK_EQ_INT(decode_hex(SLH_SK, "3075020101" ALG_128S "0440" SK64 "812100" PK32), GROVE_OK);
    CHECK_EQ_INT(decode_hex(SLH_SK, "3075020101" ALG_128S "0440" SK64
                                    "8121002b8109ec777caa4e1f024ccfcf9497d99180509280f4256af2"
                                    "b07af80289b495"),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_SK, "3075020100" ALG_128S "0440" SK64 "812100" PK32),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(decode_hex(SLH_SK, "3074020101" ALG_128S "0440" SK64 "8120" PK32),
                 GROVE_ERR_ENCODING); /* no unused-bits byte */
    CHECK_EQ_INT(decode_hex(SLH_SK, "3056020100" ALG_128S "0440" SK64 "a0020500"), GROVE_OK);
    CHECK_EQ_INT(decode_hex(SLH_SK, "3056020100" ALG_128S "0440" SK64 "a1020500"),
                 GROVE_ERR_ENCODING);
    /* the wrong outer tag */
    CHECK_EQ_INT(decode_hex(SLH_PK, "3130" ALG_128S "032100" PK32), GROVE_ERR_ENCODING);
}

/* ---- PEM ----------------------------------------------------------------------------------- */

static grove_status pem_dec(const char *label, const char *pem)
{
    uint8_t der[256];
    size_t len = 0;
    return grove_pkix_pem_decode(der, sizeof der, &len, label, pem, strlen(pem));
}

#define BEGIN_PK "-----BEGIN PUBLIC KEY-----\n"
#define END_PK "-----END PUBLIC KEY-----\n"
#define LINE1 "MDAwCwYJYIZIAWUDBAMUAyEAK4EJ7Hd8qk4fAkzPz5SX2ZGAUJKA9CVq8rB6+AKJ"

static void test_pem(void)
{
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", BEGIN_PK LINE1 "\ntJQ=\n" END_PK), GROVE_OK);
    /* CRLF line ends, and no line end after END */
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", "-----BEGIN PUBLIC KEY-----\r\n" LINE1 "\r\ntJQ=\r\n"
                                       "-----END PUBLIC KEY-----"),
                 GROVE_OK);
    CHECK_EQ_INT(pem_dec("PRIVATE KEY", BEGIN_PK LINE1 "\ntJQ=\n" END_PK), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", BEGIN_PK LINE1 "\ntJQ=\n-----END PRIVATE KEY-----\n"),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", BEGIN_PK LINE1 "\ntJQ=\n"), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", BEGIN_PK LINE1 "\ntJQ=\n" END_PK "x"), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", BEGIN_PK LINE1 "\ntJQ=\n" END_PK "\n"), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", "text\n" BEGIN_PK LINE1 "\ntJQ=\n" END_PK),
                 GROVE_ERR_ENCODING);
    /* lines: 68 characters, a short line before a full one, an empty line, a padded
     * non-final line, a bad character, a header line */
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", BEGIN_PK LINE1 "tJQ=\n" END_PK), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", BEGIN_PK "tJQA\n" LINE1 "\n" END_PK), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", BEGIN_PK LINE1 "\n\ntJQ=\n" END_PK), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", BEGIN_PK "tJQ=\ntJQ=\n" END_PK), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", BEGIN_PK LINE1 "\ntJ*=\n" END_PK), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", BEGIN_PK "Proc-Type: 4,ENCRYPTED\n" LINE1 "\ntJQ=\n" END_PK),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(pem_dec("PUBLIC KEY", BEGIN_PK LINE1 "\ntJQ\n" END_PK), GROVE_ERR_ENCODING);
    /* a bad character in the last line: refused before anything is written, also when the
     * output is too small (the input is checked first) */
    uint8_t der[64];
    size_t len = 0;
    const char *late = BEGIN_PK LINE1 "\nt!Q=\n" END_PK;
    memset(der, 0x55, sizeof der);
    CHECK_EQ_INT(grove_pkix_pem_decode(der, sizeof der, &len, "PUBLIC KEY", late, strlen(late)),
                 GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_pkix_pem_decode(der, 1, &len, "PUBLIC KEY", late, strlen(late)),
                 GROVE_ERR_ENCODING);
    for (size_t i = 0; i < sizeof der; i++)
        CHECK_EQ_INT(der[i], 0x55);
    /* capacities: the length needed, nothing written */
    const char *ok = BEGIN_PK LINE1 "\ntJQ=\n" END_PK;
    memset(der, 0x55, sizeof der);
    CHECK_EQ_INT(grove_pkix_pem_decode(der, 49, &len, "PUBLIC KEY", ok, strlen(ok)),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(len, 50);
    CHECK_EQ_INT(der[0], 0x55);
    char text[256];
    CHECK_EQ_INT(grove_pkix_pem_encode(text, strlen(ok), &len, "PUBLIC KEY", der, 50),
                 GROVE_ERR_BUFFER_TOO_SMALL); /* no room for the NUL */
    CHECK_EQ_INT(len, strlen(ok));
    /* labels and arguments */
    CHECK_EQ_INT(grove_pkix_pem_encode(text, sizeof text, &len, "", der, 50),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_pkix_pem_encode(text, sizeof text, &len, "-X", der, 50),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_pkix_pem_encode(text, sizeof text, &len, "A\nB", der, 50),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_pkix_pem_encode(text, sizeof text, NULL, "X", der, 50),
                 GROVE_ERR_INVALID_ARG);
    /* PEM round trips of every length 0..200 (line breaks at 48-byte boundaries) */
    uint8_t data[200], back[200];
    test_rand_bytes(&rng, data, sizeof data);
    for (size_t n = 0; n <= sizeof data; n++) {
        char buf[400];
        size_t blen = 0, dlen = 0;
        CHECK_EQ_INT(grove_pkix_pem_encode(buf, sizeof buf, &blen, "X Y", data, n), GROVE_OK);
        CHECK_EQ_INT(grove_pkix_pem_decode(back, sizeof back, &dlen, "X Y", buf, blen), GROVE_OK);
        CHECK_EQ_INT(dlen, n);
        CHECK(n == 0 || memcmp(back, data, n) == 0);
    }
}

/* ---- arguments ----------------------------------------------------------------------------- */

static void test_arguments(void)
{
    const grove_slhdsa_params *p = grove_slhdsa_params_get("SLH-DSA-SHA2-128s");
    uint8_t key[128] = {0}, der[200];
    size_t len = 0;
    CHECK_EQ_INT(grove_pkix_slhdsa_pk_to_der(NULL, 0, der, sizeof der, &len, key),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_pkix_slhdsa_pk_to_der(p, 0, der, sizeof der, NULL, key),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_pkix_slhdsa_sk_to_der(p, 0, der, sizeof der, &len, NULL),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_pkix_slhdsa_pk_to_der(p, GROVE_PREHASH_SHA2_512, der, sizeof der, &len, key),
                 GROVE_ERR_UNSUPPORTED);
    /* a size query: NULL output with capacity 0 */
    CHECK_EQ_INT(grove_pkix_slhdsa_pk_to_der(p, 0, NULL, 0, &len, key), GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(len, 50);
    CHECK_EQ_INT(grove_pkix_slhdsa_pk_from_der(NULL, NULL, key, sizeof key, &len, der, 50),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_pkix_xmss_pk_to_der((grove_xmss_family)2, der, sizeof der, &len, key, 68),
                 GROVE_ERR_INVALID_ARG);
    grove_xmss_family fam;
    CHECK_EQ_INT(grove_pkix_xmss_pk_from_der(&fam, key, sizeof key, &len, NULL, 0),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_pkix_xmss_pk_from_der(&fam, key, sizeof key, &len, der, 0),
                 GROVE_ERR_ENCODING);
}

/* ---- an independent parser ----------------------------------------------------------------- */

/* `openssl asn1parse` reads our SPKI and PKCS#8 and names the OIDs we meant (if installed). */
static void test_openssl_asn1parse(void)
{
    if (system("openssl version >/dev/null 2>&1") != 0) {
        printf("openssl not found: asn1parse check skipped\n");
        return;
    }
    const grove_slhdsa_params *p = grove_slhdsa_params_get("SLH-DSA-SHAKE-256f");
    uint8_t key[128], der[200];
    size_t len = 0;
    test_rand_bytes(&rng, key, sizeof key);
    const struct {
        const char *want;
        int kind;
    } cases[] = {{"2.16.840.1.101.3.4.3.31", 0}, {"2.16.840.1.101.3.4.3.46", 1},
                 {"2.16.840.1.101.3.4.3.31", 2}, {"1.3.6.1.5.5.7.6.35", 3}};
    for (size_t c = 0; c < 4; c++) {
        grove_status st;
        if (cases[c].kind == 0)
            st = grove_pkix_slhdsa_pk_to_der(p, 0, der, sizeof der, &len, key);
        else if (cases[c].kind == 1)
            st = grove_pkix_slhdsa_pk_to_der(p, GROVE_PREHASH_SHAKE256, der, sizeof der, &len, key);
        else if (cases[c].kind == 2)
            st = grove_pkix_slhdsa_sk_to_der(p, 0, der, sizeof der, &len, key);
        else {
            key[0] = key[1] = key[2] = 0, key[3] = 0x30; /* XMSSMT-SHAKE256_60/12_192, say */
            const grove_xmss_params *xp = NULL;
            for (size_t i = 0; i < grove_xmss_params_count() && xp == NULL; i++)
                if (grove_xmss_params_family(grove_xmss_params_at(i)) == GROVE_XMSS_FAMILY_XMSSMT)
                    xp = grove_xmss_params_at(i);
            uint32_t oid = grove_xmss_params_oid(xp);
            key[3] = (uint8_t)oid;
            st = grove_pkix_xmss_pk_to_der(GROVE_XMSS_FAMILY_XMSSMT, der, sizeof der, &len, key,
                                           grove_xmss_pk_bytes(xp));
        }
        CHECK_EQ_INT(st, GROVE_OK);
        char path[] = "/tmp/grove_pkix_XXXXXX";
        int fd = mkstemp(path);
        CHECK(fd >= 0);
        if (fd < 0)
            return;
        FILE *f = fdopen(fd, "wb");
        CHECK(f != NULL && fwrite(der, 1, len, f) == len);
        if (f != NULL)
            fclose(f);
        char cmd[256], out[4096] = {0};
        snprintf(cmd, sizeof cmd, "openssl asn1parse -inform DER -in %s 2>&1", path);
        FILE *pipe = popen(cmd, "r");
        size_t got = pipe != NULL ? fread(out, 1, sizeof out - 1, pipe) : 0;
        int rc = pipe != NULL ? pclose(pipe) : -1;
        remove(path);
        out[got] = '\0';
        CHECK_EQ_INT(rc, 0);
        CHECK(strstr(out, cases[c].want) != NULL);
        CHECK(strstr(out, cases[c].kind == 2 ? "OCTET STRING" : "BIT STRING") != NULL);
        CHECK(strstr(out, "error") == NULL);
    }
}

int main(void)
{
    test_rfc9909_public_key();
    test_rfc9909_private_key();
    test_rfc9802_cert(RFC9802_XMSS_CERT_PEM, GROVE_XMSS_FAMILY_XMSS, "XMSS-SHA2_10_256");
    test_rfc9802_cert(RFC9802_XMSSMT_CERT_PEM, GROVE_XMSS_FAMILY_XMSSMT, "XMSSMT-SHA2_20/2_256");
    test_slhdsa_round_trips();
    test_xmss_round_trips();
    test_mutations(SLH_PK);
    test_mutations(SLH_SK);
    test_mutations(XMSS_PK);
    test_hostile_cases();
    test_pem();
    test_arguments();
    test_openssl_asn1parse();
    return test_done();
}
