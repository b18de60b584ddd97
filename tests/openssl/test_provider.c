/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The grove OpenSSL provider through OpenSSL's own API (EVP_PKEY, EVP_DigestSign, encoders,
 * decoders, X509), with the provider registered as a built-in so that a sanitizer build checks
 * its code too:
 *   - all 12 SLH-DSA sets: key generation, key parameters, one-shot and streamed DigestSign,
 *     DigestVerify; tampered messages and signatures refused; deterministic signatures equal
 *     to libgrove's own; context strings; EVP_PKEY_sign on the raw message;
 *   - SubjectPublicKeyInfo and PKCS#8 (DER and PEM) byte-identical to libgrove's pkix
 *     encoders; RFC 9909's example keys decoded and re-encoded to the same text;
 *   - bad keys (wrong length, inconsistent secret key, truncated DER) and unsupported
 *     parameters give an error and no key;
 *   - XMSS / XMSS^MT: RFC 9802's self-signed example certificates verify (and a tampered one
 *     does not); a libgrove XMSS signature verifies through EVP; signing and key generation
 *     through OpenSSL are refused;
 *   - XMSS signing through a grove key file (OSSL_STORE "grove-xmss:<path>"): each signature
 *     takes the next index, the file records it, a refused request uses none;
 *   - HashSLH-DSA (pre-hash) keys: signatures equal to libgrove's, encodings with the
 *     id-hash-slh-dsa-* OIDs equal to libgrove's pkix;
 *   - CROSS: not offered by default; with experimental-cross = 1 (a configuration file loaded
 *     into a library context) key generation, signing and verification work.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/store.h>
#include <openssl/x509.h>

#include "grove/common.h"
#include "grove/cross.h"
#include "grove/pkix.h"
#include "grove/slhdsa.h"
#include "grove/state.h"
#include "grove/xmss.h"
#include "prov.h"
#include "rfc_examples.h"
#include "test.h"

static const char *const sets[] = {
    "SLH-DSA-SHA2-128s",  "SLH-DSA-SHA2-128f",  "SLH-DSA-SHA2-192s",  "SLH-DSA-SHA2-192f",
    "SLH-DSA-SHA2-256s",  "SLH-DSA-SHA2-256f",  "SLH-DSA-SHAKE-128s", "SLH-DSA-SHAKE-128f",
    "SLH-DSA-SHAKE-192s", "SLH-DSA-SHAKE-192f", "SLH-DSA-SHAKE-256s", "SLH-DSA-SHAKE-256f"};

static EVP_PKEY *keygen(const char *name) {
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, name, "provider=grove");
    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) <= 0 || EVP_PKEY_generate(ctx, &pkey) <= 0)
        pkey = NULL;
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

/* One-shot DigestSign with no digest (what X.509 signing does); params may be NULL. */
static size_t sign(EVP_PKEY *pkey, uint8_t *sig, size_t cap, const uint8_t *msg, size_t len,
                   const OSSL_PARAM *params) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    size_t siglen = cap;
    if (m == NULL || EVP_DigestSignInit_ex(m, NULL, NULL, NULL, NULL, pkey, params) <= 0 ||
        EVP_DigestSign(m, sig, &siglen, msg, len) <= 0)
        siglen = 0;
    EVP_MD_CTX_free(m);
    return siglen;
}

static int verify(EVP_PKEY *pkey, const uint8_t *sig, size_t siglen, const uint8_t *msg,
                  size_t len, const OSSL_PARAM *params) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    int ok = m != NULL && EVP_DigestVerifyInit_ex(m, NULL, NULL, NULL, NULL, pkey, params) > 0 &&
             EVP_DigestVerify(m, sig, siglen, msg, len) == 1;
    EVP_MD_CTX_free(m);
    ERR_clear_error();
    return ok;
}

static size_t encode(EVP_PKEY *pkey, int selection, const char *type, const char *structure,
                     uint8_t *out, size_t cap) {
    OSSL_ENCODER_CTX *e = OSSL_ENCODER_CTX_new_for_pkey(pkey, selection, type, structure, NULL);
    unsigned char *data = NULL;
    size_t len = 0;
    if (e == NULL || !OSSL_ENCODER_to_data(e, &data, &len) || len > cap)
        len = 0;
    else
        memcpy(out, data, len);
    OPENSSL_clear_free(data, len);
    OSSL_ENCODER_CTX_free(e);
    return len;
}

static EVP_PKEY *decode(const uint8_t *in, size_t len, const char *type, int selection) {
    EVP_PKEY *pkey = NULL;
    OSSL_DECODER_CTX *d =
        OSSL_DECODER_CTX_new_for_pkey(&pkey, type, NULL, NULL, selection, NULL, NULL);
    const unsigned char *p = in;
    if (d == NULL || !OSSL_DECODER_from_data(d, &p, &len)) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    OSSL_DECODER_CTX_free(d);
    return pkey;
}

static size_t raw_param(EVP_PKEY *pkey, const char *name, uint8_t *out, size_t cap) {
    size_t len = 0;
    if (!EVP_PKEY_get_octet_string_param(pkey, name, out, cap, &len))
        return 0;
    return len;
}

static void test_set(size_t i) {
    const char *name = sets[i];
    const grove_slhdsa_params *p = grove_slhdsa_params_get(name);
    EVP_PKEY *pkey = keygen(name);
    CHECK(pkey != NULL && p != NULL);
    if (pkey == NULL || p == NULL)
        return;
    size_t sigbytes = grove_slhdsa_sig_bytes(p), n = grove_slhdsa_n(p);
    CHECK(EVP_PKEY_is_a(pkey, name));
    CHECK_EQ_INT(EVP_PKEY_get_size(pkey), sigbytes);
    CHECK_EQ_INT(EVP_PKEY_get_bits(pkey), 8 * 2 * n);
    CHECK_EQ_INT(EVP_PKEY_get_security_bits(pkey), 8 * n);

    uint8_t pk[64], sk[128];
    CHECK_EQ_INT(raw_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, pk, sizeof pk), 2 * n);
    CHECK_EQ_INT(raw_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, sk, sizeof sk), 4 * n);
    CHECK_MEM(sk + 2 * n, pk, 2 * n);

    uint8_t *sig = malloc(sigbytes), *sig2 = malloc(sigbytes);
    static const uint8_t msg[] = "firmware image 1.2.3";
    size_t mlen = sizeof msg - 1;
    size_t siglen = sign(pkey, sig, sigbytes, msg, mlen, NULL);
    CHECK_EQ_INT(siglen, sigbytes);
    CHECK(verify(pkey, sig, siglen, msg, mlen, NULL));
    /* the library accepts it too (pure SLH-DSA, empty context) */
    CHECK(grove_slhdsa_verify(p, sig, siglen, msg, mlen, NULL, 0, pk) == GROVE_OK);
    /* tampering: message, signature (first, middle, last byte), length */
    uint8_t msg2[sizeof msg];
    memcpy(msg2, msg, sizeof msg);
    msg2[0] ^= 1;
    CHECK(!verify(pkey, sig, siglen, msg2, mlen, NULL));
    const size_t at[] = {0, siglen / 2, siglen - 1};
    for (size_t j = 0; j < 3; j++) {
        sig[at[j]] ^= 0x80;
        CHECK(!verify(pkey, sig, siglen, msg, mlen, NULL));
        sig[at[j]] ^= 0x80;
    }
    CHECK(!verify(pkey, sig, siglen - 1, msg, mlen, NULL));

    /* deterministic signing: twice the same, and the same as libgrove's */
    int det = 1;
    OSSL_PARAM dp[] = {OSSL_PARAM_construct_int("deterministic", &det), OSSL_PARAM_END};
    CHECK_EQ_INT(sign(pkey, sig, sigbytes, msg, mlen, dp), sigbytes);
    CHECK(grove_slhdsa_sign(p, sig2, msg, mlen, NULL, 0, sk, false) == GROVE_OK);
    CHECK_MEM(sig, sig2, sigbytes);

    /* context string: needed to verify, and the same signature as libgrove's with it */
    if (i % 4 == 1) {
        unsigned char ctx[] = "grove-test";
        OSSL_PARAM cp[] = {OSSL_PARAM_construct_octet_string("context-string", ctx, 10),
                           OSSL_PARAM_construct_int("deterministic", &det), OSSL_PARAM_END};
        CHECK_EQ_INT(sign(pkey, sig, sigbytes, msg, mlen, cp), sigbytes);
        CHECK(grove_slhdsa_sign(p, sig2, msg, mlen, ctx, 10, sk, false) == GROVE_OK);
        CHECK_MEM(sig, sig2, sigbytes);
        CHECK(verify(pkey, sig, sigbytes, msg, mlen, cp));
        CHECK(!verify(pkey, sig, sigbytes, msg, mlen, NULL));
    }

    /* streamed (update/final, as dgst and CMS do), with a digest named at init */
    if (i % 4 == 3) {
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        size_t l = sigbytes;
        CHECK(EVP_DigestSignInit_ex(m, NULL, "SHA256", NULL, NULL, pkey, NULL) == 1);
        CHECK(EVP_DigestSignUpdate(m, msg, 5) == 1);
        CHECK(EVP_DigestSignUpdate(m, msg + 5, mlen - 5) == 1);
        CHECK(EVP_DigestSignFinal(m, NULL, &l) == 1 && l == sigbytes);
        CHECK(EVP_DigestSignFinal(m, sig, &l) == 1 && l == sigbytes);
        EVP_MD_CTX_free(m);
        CHECK(verify(pkey, sig, l, msg, mlen, NULL));
        m = EVP_MD_CTX_new();
        CHECK(EVP_DigestVerifyInit_ex(m, NULL, "SHA256", NULL, NULL, pkey, NULL) == 1);
        CHECK(EVP_DigestVerifyUpdate(m, msg, 3) == 1);
        CHECK(EVP_DigestVerifyUpdate(m, msg + 3, mlen - 3) == 1);
        CHECK(EVP_DigestVerifyFinal(m, sig, l) == 1);
        EVP_MD_CTX_free(m);
        /* EVP_PKEY_sign / verify (pkeyutl): the input is the message */
        EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
        l = sigbytes;
        CHECK(pc != NULL && EVP_PKEY_sign_init(pc) == 1 &&
              EVP_PKEY_sign(pc, sig, &l, msg, mlen) == 1 && l == sigbytes);
        EVP_PKEY_CTX_free(pc);
        CHECK(grove_slhdsa_verify(p, sig, l, msg, mlen, NULL, 0, pk) == GROVE_OK);
    }

    /* encoders: byte-identical to libgrove's pkix (DER and PEM), and decoded back */
    CHECK_EQ_INT(sign(pkey, sig, sigbytes, msg, mlen, NULL), sigbytes);
    uint8_t der[GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES], got[1024];
    char pem[1024];
    size_t der_len = 0, pem_len = 0, got_len;
    CHECK(grove_pkix_slhdsa_pk_to_der(p, 0, der, sizeof der, &der_len, pk) == GROVE_OK);
    got_len = encode(pkey, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo", got, sizeof got);
    CHECK(got_len == der_len && memcmp(got, der, der_len) == 0);
    CHECK(grove_pkix_pem_encode(pem, sizeof pem, &pem_len, "PUBLIC KEY", der, der_len) ==
          GROVE_OK);
    got_len = encode(pkey, EVP_PKEY_PUBLIC_KEY, "PEM", "SubjectPublicKeyInfo", got, sizeof got);
    CHECK(got_len == pem_len && memcmp(got, pem, pem_len) == 0);
    EVP_PKEY *back = decode(der, der_len, "DER", EVP_PKEY_PUBLIC_KEY);
    CHECK(back != NULL && EVP_PKEY_eq(back, pkey) == 1);
    CHECK(back != NULL && verify(back, sig, sigbytes, msg, mlen, NULL));
    EVP_PKEY_free(back);

    CHECK(grove_pkix_slhdsa_sk_to_der(p, 0, der, sizeof der, &der_len, sk) == GROVE_OK);
    got_len = encode(pkey, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", got, sizeof got);
    CHECK(got_len == der_len && memcmp(got, der, der_len) == 0);
    CHECK(grove_pkix_pem_encode(pem, sizeof pem, &pem_len, "PRIVATE KEY", der, der_len) ==
          GROVE_OK);
    got_len = encode(pkey, EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo", got, sizeof got);
    CHECK(got_len == pem_len && memcmp(got, pem, pem_len) == 0);
    back = decode(der, der_len, "DER", EVP_PKEY_KEYPAIR);
    CHECK(back != NULL && EVP_PKEY_eq(back, pkey) == 1);
    EVP_PKEY_free(back);

    /* an inconsistent secret key (PK.root changed) is refused, with an error queued */
    der[der_len - 1] ^= 1;
    ERR_clear_error();
    back = decode(der, der_len, "DER", EVP_PKEY_KEYPAIR);
    CHECK(back == NULL);
    CHECK(ERR_peek_error() != 0);
    EVP_PKEY_free(back);
    ERR_clear_error();
    /* truncated DER: no key */
    back = decode(der, der_len - 3, "DER", EVP_PKEY_KEYPAIR);
    CHECK(back == NULL);
    EVP_PKEY_free(back);
    ERR_clear_error();

    grove_wipe(sk, sizeof sk);
    grove_wipe(der, sizeof der);
    grove_wipe(got, sizeof got);
    grove_wipe(pem, sizeof pem);
    free(sig);
    free(sig2);
    EVP_PKEY_free(pkey);
}

static void test_rfc9909_examples(void) {
    const char *texts[2] = {RFC9909_PUBLIC_KEY_PEM, RFC9909_PRIVATE_KEY_PEM};
    const int sel[2] = {EVP_PKEY_PUBLIC_KEY, EVP_PKEY_KEYPAIR};
    const char *structure[2] = {"SubjectPublicKeyInfo", "PrivateKeyInfo"};
    EVP_PKEY *keys[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        keys[i] = decode((const uint8_t *)texts[i], strlen(texts[i]), "PEM", sel[i]);
        CHECK(keys[i] != NULL);
        if (keys[i] == NULL)
            continue;
        CHECK(EVP_PKEY_is_a(keys[i], "SLH-DSA-SHA2-128s"));
        CHECK(EVP_PKEY_is_a(keys[i], "id-slh-dsa-sha2-128s"));
        CHECK(EVP_PKEY_is_a(keys[i], "2.16.840.1.101.3.4.3.20"));
        uint8_t out[1024];
        size_t len = encode(keys[i], sel[i], "PEM", structure[i], out, sizeof out);
        CHECK(len == strlen(texts[i]) && memcmp(out, texts[i], len) == 0);
    }
    if (keys[0] != NULL && keys[1] != NULL) {
        CHECK(EVP_PKEY_eq(keys[0], keys[1]) == 1);
        uint8_t sig[7856];
        static const uint8_t m[] = "RFC 9909";
        CHECK_EQ_INT(sign(keys[1], sig, sizeof sig, m, 8, NULL), 7856);
        CHECK(verify(keys[0], sig, sizeof sig, m, 8, NULL));
    }
    EVP_PKEY_free(keys[0]);
    EVP_PKEY_free(keys[1]);
}

static void test_bad_inputs(void) {
    /* raw import of a wrong-length public key, of an inconsistent secret key */
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "SLH-DSA-SHA2-128f", NULL);
    EVP_PKEY *pkey = NULL;
    uint8_t buf[64] = {1, 2, 3};
    OSSL_PARAM pub[] = {OSSL_PARAM_construct_octet_string("pub", buf, 31), OSSL_PARAM_END};
    CHECK(ctx != NULL && EVP_PKEY_fromdata_init(ctx) == 1);
    ERR_clear_error();
    CHECK(EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, pub) <= 0 && pkey == NULL);
    CHECK(ERR_peek_error() != 0);
    ERR_clear_error();
    OSSL_PARAM priv[] = {OSSL_PARAM_construct_octet_string("priv", buf, 64), OSSL_PARAM_END};
    CHECK(EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_KEYPAIR, priv) <= 0 && pkey == NULL);
    ERR_clear_error();
    /* a public key only: fine for verification, refused for signing */
    OSSL_PARAM pub32[] = {OSSL_PARAM_construct_octet_string("pub", buf, 32), OSSL_PARAM_END};
    CHECK(EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, pub32) == 1 && pkey != NULL);
    EVP_PKEY_CTX_free(ctx);
    uint8_t sig[17088];
    static const uint8_t m[] = "x";
    CHECK_EQ_INT(sign(pkey, sig, sizeof sig, m, 1, NULL), 0);
    ERR_clear_error();
    EVP_PKEY_free(pkey);

    /* unsupported parameters: a context string of 256 bytes, deterministic = 2 */
    pkey = keygen("SLH-DSA-SHAKE-128f");
    CHECK(pkey != NULL);
    uint8_t longctx[256] = {0};
    OSSL_PARAM cp[] = {OSSL_PARAM_construct_octet_string("context-string", longctx, 256),
                       OSSL_PARAM_END};
    CHECK_EQ_INT(sign(pkey, sig, sizeof sig, m, 1, cp), 0);
    CHECK(ERR_peek_error() != 0);
    ERR_clear_error();
    int two = 2;
    OSSL_PARAM dp[] = {OSSL_PARAM_construct_int("deterministic", &two), OSSL_PARAM_END};
    CHECK_EQ_INT(sign(pkey, sig, sizeof sig, m, 1, dp), 0);
    ERR_clear_error();
    /* a signature buffer too small */
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    size_t l = 100;
    CHECK(EVP_DigestSignInit_ex(md, NULL, NULL, NULL, NULL, pkey, NULL) == 1);
    CHECK(EVP_DigestSign(md, sig, &l, m, 1) <= 0);
    EVP_MD_CTX_free(md);
    ERR_clear_error();
    EVP_PKEY_free(pkey);

    /* garbage and another algorithm's key are not decoded as ours */
    static const uint8_t junk[] = {0x30, 0x03, 0x02, 0x01, 0x00};
    CHECK(decode(junk, sizeof junk, "DER", EVP_PKEY_PUBLIC_KEY) == NULL);
    ERR_clear_error();
}

static grove_status persist_nothing(void *arg, const uint8_t *state, size_t len) {
    (void)arg, (void)state, (void)len;
    return GROVE_OK; /* test only: the key lives in memory */
}

static void test_xmss(void) {
    /* RFC 9802's self-signed example certificates */
    const char *const *certs[2] = {RFC9802_XMSS_CERT_PEM, RFC9802_XMSSMT_CERT_PEM};
    const char *names[2] = {"XMSS", "XMSSMT"};
    for (int i = 0; i < 2; i++) {
        char text[20000] = "";
        size_t o = 0;
        for (const char *const *l = certs[i]; *l != NULL; l++)
            o += (size_t)snprintf(text + o, sizeof text - o, "%s\n", *l);
        BIO *b = BIO_new_mem_buf(text, (int)o);
        X509 *x = PEM_read_bio_X509(b, NULL, NULL, NULL);
        BIO_free(b);
        CHECK(x != NULL);
        if (x == NULL)
            continue;
        EVP_PKEY *pk = X509_get0_pubkey(x);
        CHECK(pk != NULL && EVP_PKEY_is_a(pk, names[i]));
        CHECK_EQ_INT(X509_verify(x, pk), 1);
        /* the same certificate with one signature byte changed */
        unsigned char *der = NULL;
        int len = i2d_X509(x, &der);
        CHECK(len > 100);
        der[len - 10] ^= 1;
        const unsigned char *p = der;
        X509 *y = d2i_X509(NULL, &p, len);
        CHECK(y != NULL && X509_verify(y, pk) != 1);
        ERR_clear_error();
        X509_free(y);
        OPENSSL_free(der);
        /* signing with an XMSS key through OpenSSL: refused */
        uint8_t sig[16];
        static const uint8_t m[] = "x";
        CHECK_EQ_INT(sign(pk, sig, sizeof sig, m, 1, NULL), 0);
        CHECK(ERR_peek_error() != 0);
        ERR_clear_error();
        X509_free(x);
    }
    /* key generation: refused (stateful keys are made by grove) */
    CHECK(keygen("XMSS") == NULL);
    ERR_clear_error();

    /* a libgrove XMSS signature verified through EVP */
    const grove_xmss_params *xp = grove_xmss_params_get("XMSS-SHA2_10_256");
    grove_xmss_key *key = NULL;
    uint8_t seed[32] = {7};
    grove_xmss_opts opts = {1, NULL, NULL};
    CHECK(xp != NULL &&
          grove_xmss_keygen_from_seed(xp, &key, seed, seed, seed, &opts) == GROVE_OK);
    if (key == NULL)
        return;
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES];
    size_t pklen = grove_xmss_pk_bytes(xp), siglen = grove_xmss_sig_bytes(xp);
    uint8_t *sig = malloc(siglen);
    static const uint8_t msg[] = "stateful";
    CHECK(grove_xmss_key_public_key(key, pk) == GROVE_OK);
    CHECK(grove_xmss_key_set_persist(key, persist_nothing, NULL) == GROVE_OK);
    CHECK(grove_xmss_key_sign(key, sig, NULL, msg, 8) == GROVE_OK);
    grove_xmss_key_free(key);
    uint8_t der[GROVE_PKIX_XMSS_MAX_SPKI_BYTES];
    size_t der_len = 0;
    CHECK(grove_pkix_xmss_pk_to_der(GROVE_XMSS_FAMILY_XMSS, der, sizeof der, &der_len, pk,
                                    pklen) == GROVE_OK);
    EVP_PKEY *pkey = decode(der, der_len, "DER", EVP_PKEY_PUBLIC_KEY);
    CHECK(pkey != NULL && EVP_PKEY_is_a(pkey, "XMSS"));
    if (pkey != NULL) {
        CHECK_EQ_INT(EVP_PKEY_get_size(pkey), siglen);
        CHECK(verify(pkey, sig, siglen, msg, 8, NULL));
        sig[siglen / 2] ^= 1;
        CHECK(!verify(pkey, sig, siglen, msg, 8, NULL));
        uint8_t out[256];
        CHECK(encode(pkey, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo", out, sizeof out) ==
                  der_len &&
              memcmp(out, der, der_len) == 0);
    }
    EVP_PKEY_free(pkey);
    free(sig);
}

/* XMSS signing through a grove key file loaded as grove-xmss:<path> (OSSL_STORE). */
static void test_xmss_keyfile(void) {
    char dir[] = "/tmp/grove-ossl-xmss-XXXXXX", path[256], state[256], uri[300];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/x.sk", dir);
    snprintf(state, sizeof state, "%s/state", dir);
    snprintf(uri, sizeof uri, "grove-xmss:%s", path);
    CHECK(setenv("GROVE_STATE_DIR", state, 1) == 0);
    const grove_xmss_params *xp = grove_xmss_params_get("XMSS-SHA2_10_256");
    grove_xmss_key *key = NULL;
    grove_registry *reg = NULL;
    uint8_t seed[32] = {9};
    grove_xmss_opts opts = {1, NULL, NULL};
    char err[GROVE_XMSS_ERR_CAP];
    CHECK(grove_registry_open(&reg, state) == GROVE_OK);
    CHECK(grove_xmss_keygen_from_seed(xp, &key, seed, seed, seed, &opts) == GROVE_OK);
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES];
    CHECK(key != NULL && grove_xmss_key_public_key(key, pk) == GROVE_OK);
    CHECK(grove_xmss_keyfile_create(path, reg, key, GROVE_ENVELOPE_ARMORED, err, sizeof err) ==
          GROVE_OK);
    grove_xmss_key_free(key);
    grove_registry_close(reg);

    EVP_PKEY *pkey = NULL;
    OSSL_STORE_CTX *st = OSSL_STORE_open(uri, NULL, NULL, NULL, NULL);
    CHECK(st != NULL);
    while (st != NULL && pkey == NULL && !OSSL_STORE_eof(st)) {
        OSSL_STORE_INFO *info = OSSL_STORE_load(st);
        if (info != NULL && OSSL_STORE_INFO_get_type(info) == OSSL_STORE_INFO_PKEY)
            pkey = OSSL_STORE_INFO_get1_PKEY(info);
        OSSL_STORE_INFO_free(info);
    }
    OSSL_STORE_close(st);
    CHECK(pkey != NULL && EVP_PKEY_is_a(pkey, "XMSS"));
    size_t sl = grove_xmss_sig_bytes(xp);
    uint8_t *sig = malloc(sl);
    static const uint8_t m[] = "through the key file";
    for (uint8_t i = 0; pkey != NULL && i < 2; i++) {
        CHECK_EQ_INT(sign(pkey, sig, sl, m, 20, NULL), sl);
        CHECK(grove_xmss_verify(GROVE_XMSS_FAMILY_XMSS, sig, sl, m, 20, pk,
                                grove_xmss_pk_bytes(xp)) == GROVE_OK);
        CHECK(sig[0] == 0 && sig[1] == 0 && sig[2] == 0 && sig[3] == i); /* index i */
    }
    grove_xmss_state_info info;
    CHECK(grove_xmss_keyfile_read_info(&info, path, err, sizeof err) == GROVE_OK &&
          info.index == 2);
    /* a context string is refused, and uses no index */
    unsigned char ctx[] = "c";
    OSSL_PARAM cp[] = {OSSL_PARAM_construct_octet_string("context-string", ctx, 1), OSSL_PARAM_END};
    CHECK_EQ_INT(sign(pkey, sig, sl, m, 20, cp), 0);
    ERR_clear_error();
    CHECK(grove_xmss_keyfile_read_info(&info, path, err, sizeof err) == GROVE_OK &&
          info.index == 2);
    EVP_PKEY_free(pkey);
    free(sig);
    /* a missing key file: no key */
    char missing[300];
    snprintf(missing, sizeof missing, "grove-xmss:%s/none.sk", dir);
    st = OSSL_STORE_open(missing, NULL, NULL, NULL, NULL);
    OSSL_STORE_INFO *none = st != NULL ? OSSL_STORE_load(st) : NULL;
    CHECK(none == NULL);
    OSSL_STORE_INFO_free(none);
    OSSL_STORE_close(st);
    ERR_clear_error();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* HashSLH-DSA keys (id-hash-slh-dsa-*): pre-hash signing, byte-identical to libgrove's. */
static void test_hashslhdsa(void) {
    static const struct {
        const char *name, *set;
        grove_slhdsa_prehash ph;
    } hs[] = {{"HASH-SLH-DSA-SHA2-128f-WITH-SHA256", "SLH-DSA-SHA2-128f", GROVE_PREHASH_SHA2_256},
              {"HASH-SLH-DSA-SHAKE-128f-WITH-SHAKE128", "SLH-DSA-SHAKE-128f",
               GROVE_PREHASH_SHAKE128},
              {"id-hash-slh-dsa-sha2-192f-with-sha512", "SLH-DSA-SHA2-192f",
               GROVE_PREHASH_SHA2_512}};
    for (size_t i = 0; i < sizeof hs / sizeof hs[0]; i++) {
        const grove_slhdsa_params *p = grove_slhdsa_params_get(hs[i].set);
        EVP_PKEY *pkey = keygen(hs[i].name);
        CHECK(pkey != NULL && p != NULL);
        if (pkey == NULL || p == NULL)
            continue;
        size_t sb = grove_slhdsa_sig_bytes(p);
        uint8_t pk[64], sk[128], der[GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES], got[512];
        uint8_t *sig = malloc(sb), *sig2 = malloc(sb);
        size_t pkl = raw_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, pk, sizeof pk);
        size_t skl = raw_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, sk, sizeof sk);
        CHECK(pkl == grove_slhdsa_pk_bytes(p) && skl == grove_slhdsa_sk_bytes(p));
        static const uint8_t m[] = "pre-hashed";
        int det = 1;
        OSSL_PARAM dp[] = {OSSL_PARAM_construct_int("deterministic", &det), OSSL_PARAM_END};
        CHECK_EQ_INT(sign(pkey, sig, sb, m, 10, dp), sb);
        CHECK(grove_hashslhdsa_sign(p, sig2, m, 10, NULL, 0, hs[i].ph, sk, false) == GROVE_OK);
        CHECK_MEM(sig, sig2, sb);
        CHECK(verify(pkey, sig, sb, m, 10, NULL));
        CHECK(!verify(pkey, sig, sb, m, 9, NULL));
        CHECK(grove_slhdsa_verify(p, sig, sb, m, 10, NULL, 0, pk) == GROVE_ERR_VERIFY);
        size_t dl = 0;
        CHECK(grove_pkix_slhdsa_pk_to_der(p, hs[i].ph, der, sizeof der, &dl, pk) == GROVE_OK);
        CHECK(encode(pkey, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo", got, sizeof got) ==
                  dl &&
              memcmp(got, der, dl) == 0);
        EVP_PKEY *back = decode(der, dl, "DER", EVP_PKEY_PUBLIC_KEY);
        CHECK(back != NULL && EVP_PKEY_is_a(back, hs[i].name) && verify(back, sig, sb, m, 10, NULL));
        EVP_PKEY_free(back);
        CHECK(grove_pkix_slhdsa_sk_to_der(p, hs[i].ph, der, sizeof der, &dl, sk) == GROVE_OK);
        CHECK(encode(pkey, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", got, sizeof got) == dl &&
              memcmp(got, der, dl) == 0);
        back = decode(der, dl, "DER", EVP_PKEY_KEYPAIR);
        CHECK(back != NULL && EVP_PKEY_eq(back, pkey) == 1);
        EVP_PKEY_free(back);
        grove_wipe(sk, sizeof sk);
        grove_wipe(der, sizeof der);
        grove_wipe(got, sizeof got);
        free(sig);
        free(sig2);
        EVP_PKEY_free(pkey);
    }
}

/* CROSS: absent by default, offered with experimental-cross = 1 in the provider's section. */
static void test_cross(void) {
    EVP_PKEY_CTX *none = EVP_PKEY_CTX_new_from_name(NULL, "EXPERIMENTAL-CROSS-RSDP-1-fast", NULL);
    CHECK(none == NULL); /* the default configuration does not offer it */
    EVP_PKEY_CTX_free(none);
    ERR_clear_error();

    char cnf[] = "/tmp/grove-ossl-XXXXXX";
    int fd = mkstemp(cnf);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    static const char text[] =
        "openssl_conf = init\n[init]\nproviders = provs\n[provs]\ngrove = grove_sect\n"
        "default = default_sect\n[grove_sect]\nactivate = 1\nexperimental-cross = 1\n"
        "[default_sect]\nactivate = 1\n";
    CHECK(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
    close(fd);
    OSSL_LIB_CTX *lib = OSSL_LIB_CTX_new();
    CHECK(lib != NULL && OSSL_PROVIDER_add_builtin(lib, "grove", gp_provider_init) == 1 &&
          OSSL_LIB_CTX_load_config(lib, cnf) == 1);
    unlink(cnf);
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(lib, "EXPERIMENTAL-CROSS-RSDP-1-fast", NULL);
    CHECK(ctx != NULL && EVP_PKEY_keygen_init(ctx) == 1 && EVP_PKEY_generate(ctx, &pkey) == 1);
    EVP_PKEY_CTX_free(ctx);
    const grove_cross_params *cp = grove_cross_params_get("CROSS-RSDP-1-fast");
    if (pkey != NULL && cp != NULL) {
        size_t sl = grove_cross_sig_bytes(cp), l = sl;
        uint8_t *sig = malloc(sl), pk[256];
        static const uint8_t m[] = "cross";
        CHECK_EQ_INT(EVP_PKEY_get_size(pkey), sl);
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        CHECK(EVP_DigestSignInit_ex(md, NULL, NULL, lib, NULL, pkey, NULL) == 1 &&
              EVP_DigestSign(md, sig, &l, m, 5) == 1 && l == sl);
        EVP_MD_CTX_free(md);
        size_t pkl = raw_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, pk, sizeof pk);
        CHECK_EQ_INT(pkl, grove_cross_pk_bytes(cp));
        CHECK(grove_cross_verify(cp, GROVE_CROSS_FAST, sig, sl, m, 5, pk) == GROVE_OK);
        CHECK(verify(pkey, sig, sl, m, 5, NULL));
        sig[sl - 1] ^= 1;
        CHECK(!verify(pkey, sig, sl, m, 5, NULL));
        /* no X.509 encoding for CROSS (no OID) */
        uint8_t out[512];
        CHECK_EQ_INT(encode(pkey, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo", out,
                            sizeof out),
                     0);
        ERR_clear_error();
        free(sig);
    }
    EVP_PKEY_free(pkey);
    /* every set: key generation, sizes as libgrove's */
    for (size_t i = 0; i < grove_cross_params_count(); i++) {
        const grove_cross_params *q = grove_cross_params_at(i);
        char name[64];
        snprintf(name, sizeof name, "EXPERIMENTAL-%s", grove_cross_params_name(q));
        EVP_PKEY *k = NULL;
        EVP_PKEY_CTX *kc = EVP_PKEY_CTX_new_from_name(lib, name, NULL);
        CHECK(kc != NULL && EVP_PKEY_keygen_init(kc) == 1 && EVP_PKEY_generate(kc, &k) == 1);
        CHECK(k != NULL && EVP_PKEY_get_size(k) == (int)grove_cross_sig_bytes(q) &&
              EVP_PKEY_get_bits(k) == (int)(8 * grove_cross_pk_bytes(q)));
        EVP_PKEY_free(k);
        EVP_PKEY_CTX_free(kc);
    }
    OSSL_LIB_CTX_free(lib);
}

int main(void) {
    OSSL_PROVIDER *grove = NULL, *dflt = NULL;
    if (!OSSL_PROVIDER_add_builtin(NULL, "grove", gp_provider_init) ||
        (grove = OSSL_PROVIDER_load(NULL, "grove")) == NULL ||
        (dflt = OSSL_PROVIDER_load(NULL, "default")) == NULL) {
        ERR_print_errors_fp(stderr);
        CHECK(0);
        return test_done();
    }
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        test_set(i);
    test_rfc9909_examples();
    test_bad_inputs();
    test_xmss();
    test_xmss_keyfile();
    test_hashslhdsa();
    test_cross();
    CHECK(OSSL_PROVIDER_unload(grove) == 1);
    CHECK(OSSL_PROVIDER_unload(dflt) == 1);
    return test_done();
}
