/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove-ossl-cms: CMS SignedData (RFC 5652, RFC 9814 for SLH-DSA) made with OpenSSL's CMS API
 * and a key of the grove provider (loaded from OPENSSL_MODULES like the openssl command does).
 *
 *   grove-ossl-cms sign CERT KEY IN OUT [DIGEST]   detached SignedData (DER) over file IN
 *
 * Why this exists: OpenSSL 3.0 and 3.1's CMS code fills in the SignerInfo's
 * signatureAlgorithm only for the algorithms it knows (RSA, DSA, EC and the legacy methods),
 * so `openssl cms -sign` with a provider key writes nothing ("illegal zero content"; OpenSSL
 * issue 17717, fixed in 3.2). This program does what 3.2 does: it asks the provider's
 * signature for its AlgorithmIdentifier ("algorithm-id") and writes it before the SignerInfo
 * is signed. `openssl cms -verify` on Debian 12's 3.0 verifies the result.
 *
 * DIGEST (the digestAlgorithm and message-digest attribute) defaults to the one RFC 9814
 * requires for the set: SHA-256 for SLH-DSA-SHA2-128s/f, SHA-512 for the other SHA2 sets.
 * For the SHAKE sets RFC 9814 asks for SHAKE128 (256-bit output) or SHAKE256 (512-bit);
 * OpenSSL 3.0's CMS cannot set those output lengths, so SHA-512 is used (RFC 9814 allows
 * other digests of sufficient strength). Exit: 0 done, 2 usage or input error.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/x509.h>

static int fail(const char *what) {
    fprintf(stderr, "grove-ossl-cms: %s\n", what);
    ERR_print_errors_fp(stderr);
    return 2;
}

static const char *rfc9814_digest(const EVP_PKEY *pkey) {
    if (EVP_PKEY_is_a(pkey, "SLH-DSA-SHA2-128s") || EVP_PKEY_is_a(pkey, "SLH-DSA-SHA2-128f"))
        return "SHA256";
    return "SHA512";
}

int main(int argc, char **argv) {
    if (argc < 6 || argc > 7 || strcmp(argv[1], "sign") != 0) {
        fprintf(stderr, "usage: grove-ossl-cms sign CERT KEY IN OUT [DIGEST]\n");
        return 2;
    }
    if (OSSL_PROVIDER_load(NULL, "grove") == NULL || OSSL_PROVIDER_load(NULL, "default") == NULL)
        return fail("cannot load the grove and default providers (set OPENSSL_MODULES)");
    int rc = 2;
    X509 *cert = NULL;
    EVP_PKEY *pkey = NULL;
    BIO *in = NULL, *out = NULL, *b = NULL;
    CMS_ContentInfo *cms = NULL;
    EVP_PKEY_CTX *pctx = NULL;
    const unsigned flags = CMS_BINARY | CMS_DETACHED | CMS_PARTIAL | CMS_NOSMIMECAP;

    if ((b = BIO_new_file(argv[2], "r")) == NULL ||
        (cert = PEM_read_bio_X509(b, NULL, NULL, NULL)) == NULL) {
        rc = fail("cannot read the signer's certificate");
        goto done;
    }
    BIO_free(b);
    if ((b = BIO_new_file(argv[3], "r")) == NULL ||
        (pkey = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL)) == NULL) {
        rc = fail("cannot read the private key");
        goto done;
    }
    const char *mdname = argc == 7 ? argv[6] : rfc9814_digest(pkey);
    EVP_MD *md = EVP_MD_fetch(NULL, mdname, NULL);
    if (md == NULL) {
        rc = fail("unknown digest");
        goto done;
    }
    if ((in = BIO_new_file(argv[4], "rb")) == NULL) {
        EVP_MD_free(md);
        rc = fail("cannot open the input");
        goto done;
    }
    cms = CMS_sign(NULL, NULL, NULL, NULL, flags);
    CMS_SignerInfo *si = cms ? CMS_add1_signer(cms, cert, pkey, md, flags) : NULL;
    EVP_MD_free(md);
    if (si == NULL) {
        rc = fail("cannot add the signer");
        goto done;
    }
    /* The signatureAlgorithm OpenSSL 3.0 leaves empty: the provider's own AlgorithmIdentifier. */
    unsigned char aid[64];
    OSSL_PARAM params[2] = {
        OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, aid, sizeof aid),
        OSSL_PARAM_construct_end()};
    pctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
    X509_ALGOR *psig = NULL, *alg = NULL;
    const unsigned char *p = aid;
    if (pctx == NULL || EVP_PKEY_sign_init(pctx) <= 0 || !EVP_PKEY_CTX_get_params(pctx, params) ||
        params[0].return_size == 0 ||
        (alg = d2i_X509_ALGOR(NULL, &p, (long)params[0].return_size)) == NULL) {
        rc = fail("the key's signature gives no AlgorithmIdentifier");
        goto done;
    }
    CMS_SignerInfo_get0_algs(si, NULL, NULL, NULL, &psig);
    const ASN1_OBJECT *oid = NULL;
    X509_ALGOR_get0(&oid, NULL, NULL, alg);
    int ok = psig != NULL && X509_ALGOR_set0(psig, OBJ_dup(oid), V_ASN1_UNDEF, NULL);
    X509_ALGOR_free(alg);
    if (!ok) {
        rc = fail("cannot set the signature algorithm");
        goto done;
    }
    if (!CMS_final(cms, in, NULL, flags)) {
        rc = fail("signing failed");
        goto done;
    }
    if ((out = BIO_new_file(argv[5], "wb")) == NULL || !i2d_CMS_bio(out, cms)) {
        rc = fail("cannot write the output");
        goto done;
    }
    rc = 0;
done:
    EVP_PKEY_CTX_free(pctx);
    CMS_ContentInfo_free(cms);
    BIO_free(b);
    BIO_free(in);
    BIO_free(out);
    EVP_PKEY_free(pkey);
    X509_free(cert);
    return rc;
}
