/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * provider/codec.c - encoders (SubjectPublicKeyInfo and PKCS#8 PrivateKeyInfo as DER or PEM,
 * and text) and decoders (both structures from DER; OpenSSL's own PEM decoder feeds them).
 * Every encoding is libgrove's (grove/pkix.h), so the bytes are exactly what
 * `grove slhdsa export` writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/params.h>

#include "grove/common.h"
#include "prov.h"

#define GP_PEM_MAX 1024
#define GP_DER_MAX 512
/* The decoders read at most this much: every key they handle is far smaller. */
#define GP_READ_MAX 4096

/* ---- encoders ---------------------------------------------------------------------------- */

static void *enc_newctx(void *provctx) { return provctx; }
static void enc_freectx(void *ctx) { (void)ctx; }

static int enc_write(const gp_provctx *pc, OSSL_CORE_BIO *out, const void *buf, size_t len) {
    size_t done = 0;
    return pc->bio_write_ex(out, buf, len, &done) && done == len;
}

/* The DER of the key: public (SubjectPublicKeyInfo) or private (PKCS#8). */
static int enc_der(const gp_key *k, int private_key, uint8_t *der, size_t cap, size_t *len) {
    grove_status st;
    if (private_key) {
        if (k->sk == NULL || k->alg->family != GP_SLHDSA) {
            gp_raise(k->pc, GP_R_BAD_KEY, "no %s private key to encode", k->alg->ln);
            return 0;
        }
        st = grove_pkix_slhdsa_sk_to_der(k->slh, k->ph, der, cap, len, k->sk);
    } else {
        if (k->pk_len == 0) {
            gp_raise(k->pc, GP_R_BAD_KEY, "no %s public key to encode", k->alg->ln);
            return 0;
        }
        if (k->alg->family == GP_SLHDSA)
            st = grove_pkix_slhdsa_pk_to_der(k->slh, k->ph, der, cap, len, k->pk);
        else
            st = grove_pkix_xmss_pk_to_der(gp_xmss_family(k->alg),
                                           der, cap, len, k->pk, k->pk_len);
    }
    if (st != GROVE_OK) {
        gp_raise(k->pc, GP_R_LIBRARY, "encoding a %s key: %s", k->alg->ln, grove_strerror(st));
        return 0;
    }
    return 1;
}

static int enc_key(void *vctx, OSSL_CORE_BIO *out, const void *obj, const OSSL_PARAM abstract[],
                   int private_key, int pem) {
    const gp_provctx *pc = vctx;
    const gp_key *k = obj;
    if (k == NULL || abstract != NULL) {
        gp_raise(pc, GP_R_UNSUPPORTED, "the grove encoders take grove keys only");
        return 0;
    }
    uint8_t der[GP_DER_MAX];
    char text[GP_PEM_MAX];
    size_t der_len = 0, text_len = 0;
    int ok = enc_der(k, private_key, der, sizeof der, &der_len);
    if (ok && pem) {
        grove_status st = grove_pkix_pem_encode(
            text, sizeof text, &text_len,
            private_key ? GROVE_PKIX_PEM_PRIVATE_KEY : GROVE_PKIX_PEM_PUBLIC_KEY, der, der_len);
        ok = st == GROVE_OK;
        if (ok)
            ok = enc_write(pc, out, text, text_len);
    } else if (ok) {
        ok = enc_write(pc, out, der, der_len);
    }
    grove_wipe(der, sizeof der);
    grove_wipe(text, sizeof text);
    return ok;
}

/* A cipher (encrypted PKCS#8) is not offered: refuse rather than write a clear key. */
static int enc_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
    const gp_provctx *pc = vctx;
    if (OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_CIPHER) != NULL) {
        gp_raise(pc, GP_R_UNSUPPORTED,
                 "encrypted PKCS#8 is not offered by the grove provider: store the key "
                 "unencrypted with restricted permissions");
        return 0;
    }
    return 1;
}

static const OSSL_PARAM *enc_settable_ctx_params(void *provctx) {
    static const OSSL_PARAM t[] = {OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_CIPHER, NULL, 0),
                                   OSSL_PARAM_END};
    (void)provctx;
    return t;
}

static int enc_spki_does(void *ctx, int selection) {
    (void)ctx;
    return gp_selection_ok(selection, OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
}
static int enc_pkcs8_does(void *ctx, int selection) {
    (void)ctx;
    return gp_selection_ok(selection, OSSL_KEYMGMT_SELECT_PRIVATE_KEY);
}
static int enc_text_does(void *ctx, int selection) {
    (void)ctx;
    return gp_selection_ok(selection, OSSL_KEYMGMT_SELECT_KEYPAIR);
}

static int enc_spki_der(void *ctx, OSSL_CORE_BIO *out, const void *obj,
                        const OSSL_PARAM abstract[], int selection, OSSL_PASSPHRASE_CALLBACK *cb,
                        void *cbarg) {
    (void)selection, (void)cb, (void)cbarg;
    return enc_key(ctx, out, obj, abstract, 0, 0);
}
static int enc_spki_pem(void *ctx, OSSL_CORE_BIO *out, const void *obj,
                        const OSSL_PARAM abstract[], int selection, OSSL_PASSPHRASE_CALLBACK *cb,
                        void *cbarg) {
    (void)selection, (void)cb, (void)cbarg;
    return enc_key(ctx, out, obj, abstract, 0, 1);
}
static int enc_pkcs8_der(void *ctx, OSSL_CORE_BIO *out, const void *obj,
                         const OSSL_PARAM abstract[], int selection, OSSL_PASSPHRASE_CALLBACK *cb,
                         void *cbarg) {
    (void)selection, (void)cb, (void)cbarg;
    return enc_key(ctx, out, obj, abstract, 1, 0);
}
static int enc_pkcs8_pem(void *ctx, OSSL_CORE_BIO *out, const void *obj,
                         const OSSL_PARAM abstract[], int selection, OSSL_PASSPHRASE_CALLBACK *cb,
                         void *cbarg) {
    (void)selection, (void)cb, (void)cbarg;
    return enc_key(ctx, out, obj, abstract, 1, 1);
}

static size_t hex_lines(char *out, size_t cap, const char *label, const uint8_t *b, size_t n) {
    size_t o = 0;
    int w = snprintf(out, cap, "%s:\n", label);
    if (w < 0 || (size_t)w >= cap)
        return 0;
    o = (size_t)w;
    for (size_t i = 0; i < n; i++) {
        w = snprintf(out + o, cap - o, "%s%02x%s", i % 16 == 0 ? "    " : "", b[i],
                     i + 1 == n ? "\n" : (i % 16 == 15 ? ":\n" : ":"));
        if (w < 0 || (size_t)w >= cap - o)
            return 0;
        o += (size_t)w;
    }
    return o;
}

static int enc_text(void *vctx, OSSL_CORE_BIO *out, const void *obj, const OSSL_PARAM abstract[],
                    int selection, OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg) {
    const gp_provctx *pc = vctx;
    const gp_key *k = obj;
    (void)cb, (void)cbarg;
    if (k == NULL || abstract != NULL)
        return 0;
    char buf[2048];
    size_t o = 0, w;
    int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && k->sk != NULL;
    int n = snprintf(buf, sizeof buf, "%s %s-Key:\n", k->alg->ln, priv ? "Private" : "Public");
    if (n < 0)
        return 0;
    o = (size_t)n;
    if (priv) {
        w = hex_lines(buf + o, sizeof buf - o, "priv", k->sk, k->sk_len);
        if (w == 0) {
            grove_wipe(buf, sizeof buf);
            return 0;
        }
        o += w;
    }
    w = hex_lines(buf + o, sizeof buf - o, "pub", k->pk, k->pk_len);
    int ok = w != 0 && enc_write(pc, out, buf, o + w);
    grove_wipe(buf, sizeof buf);
    return ok;
}

#define ENC_TABLE(name, does, encode)                                                          \
    const OSSL_DISPATCH name[] = {                                                             \
        {OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))enc_newctx},                                \
        {OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))enc_freectx},                              \
        {OSSL_FUNC_ENCODER_SET_CTX_PARAMS, (void (*)(void))enc_set_ctx_params},                \
        {OSSL_FUNC_ENCODER_SETTABLE_CTX_PARAMS, (void (*)(void))enc_settable_ctx_params},      \
        {OSSL_FUNC_ENCODER_DOES_SELECTION, (void (*)(void))does},                              \
        {OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))encode},                                    \
        {0, NULL}};

ENC_TABLE(gp_encoder_spki_der_fns, enc_spki_does, enc_spki_der)
ENC_TABLE(gp_encoder_spki_pem_fns, enc_spki_does, enc_spki_pem)
ENC_TABLE(gp_encoder_pkcs8_der_fns, enc_pkcs8_does, enc_pkcs8_der)
ENC_TABLE(gp_encoder_pkcs8_pem_fns, enc_pkcs8_does, enc_pkcs8_pem)
ENC_TABLE(gp_encoder_text_fns, enc_text_does, enc_text)

/* ---- decoders ---------------------------------------------------------------------------- */

typedef struct dec_ctx {
    const gp_provctx *pc;
    const gp_alg *alg;
} dec_ctx;

static void *dec_newctx(void *provctx, const gp_alg *alg) {
    dec_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->pc = provctx;
    c->alg = alg;
    return c;
}

static void dec_freectx(void *c) { free(c); }

static int dec_spki_does(void *ctx, int selection) {
    (void)ctx;
    return gp_selection_ok(selection, OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
}
static int dec_pkcs8_does(void *ctx, int selection) {
    (void)ctx;
    return gp_selection_ok(selection, OSSL_KEYMGMT_SELECT_PRIVATE_KEY);
}

/* Read the whole input (at most GP_READ_MAX bytes; longer is not a key of ours: 0). */
static size_t dec_read(const dec_ctx *c, OSSL_CORE_BIO *in, uint8_t *buf, size_t cap) {
    size_t len = 0;
    for (;;) {
        size_t got = 0;
        if (len == cap) {
            uint8_t extra;
            if (c->pc->bio_read_ex(in, &extra, 1, &got) && got != 0)
                return 0;
            return len;
        }
        if (!c->pc->bio_read_ex(in, buf + len, cap - len, &got) || got == 0)
            return len;
        len += got;
    }
}

/* Does the DER name this decoder's algorithm (so a failure deserves a message)? */
static int dec_names_alg(const dec_ctx *c, const uint8_t *der, size_t len) {
    uint8_t aid[16];
    size_t n = gp_alg_id_der(c->alg, aid, sizeof aid);
    for (size_t i = 0; n != 0 && i + n <= len && i < 8; i++)
        if (memcmp(der + i, aid, n) == 0)
            return 1;
    return 0;
}

static int dec_deliver(const dec_ctx *c, gp_key *k, OSSL_CALLBACK *cb, void *cbarg) {
    int type = OSSL_OBJECT_PKEY;
    OSSL_PARAM params[4];
    params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &type);
    params[1] = OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE, (char *)c->alg->ln, 0);
    params[2] = OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &k, sizeof k);
    params[3] = OSSL_PARAM_construct_end();
    int ok = cb(params, cbarg);
    gp_key_free(k); /* NULL if the key manager took it over */
    return ok;
}

static int dec_decode(void *vctx, OSSL_CORE_BIO *in, int selection, OSSL_CALLBACK *cb,
                      void *cbarg, int private_key) {
    const dec_ctx *c = vctx;
    (void)selection;
    uint8_t der[GP_READ_MAX];
    uint8_t raw[GP_MAX_PK > GP_MAX_SK ? GP_MAX_PK : GP_MAX_SK];
    size_t der_len = dec_read(c, in, der, sizeof der), raw_len = 0;
    int ok = 1;
    if (der_len == 0 || !dec_names_alg(c, der, der_len))
        goto done; /* not ours: let the next decoder try (1 with no object) */
    grove_status st;
    if (c->alg->family == GP_SLHDSA) {
        const grove_slhdsa_params *p = NULL;
        grove_slhdsa_prehash ph = 0;
        st = private_key ? grove_pkix_slhdsa_sk_from_der(&p, &ph, raw, sizeof raw, &raw_len, der,
                                                         der_len)
                         : grove_pkix_slhdsa_pk_from_der(&p, &ph, raw, sizeof raw, &raw_len, der,
                                                         der_len);
        grove_slhdsa_prehash want = c->alg->ph ? grove_slhdsa_prehash_get(c->alg->ph) : 0;
        if (st == GROVE_OK && (ph != want || p != grove_slhdsa_params_get(c->alg->set)))
            goto done; /* another set's or HashSLH-DSA's OID */
    } else {
        grove_xmss_family fam = 0;
        st = grove_pkix_xmss_pk_from_der(&fam, raw, sizeof raw, &raw_len, der, der_len);
        if (st == GROVE_OK && fam != gp_xmss_family(c->alg))
            goto done;
    }
    if (st != GROVE_OK) {
        gp_raise(c->pc, GP_R_BAD_KEY, "malformed %s %s key: %s", c->alg->ln,
                 private_key ? "PKCS#8 private" : "SubjectPublicKeyInfo public",
                 grove_strerror(st));
        goto done;
    }
    gp_key *k = gp_key_new(c->pc, c->alg);
    if (k == NULL) {
        ok = 0;
        goto done;
    }
    if (private_key ? !gp_key_set_sk(k, raw, raw_len) : !gp_key_set_pk(k, raw, raw_len)) {
        gp_key_free(k);
        goto done; /* the error says why; another decoder may still try */
    }
    ok = dec_deliver(c, k, cb, cbarg);
done:
    grove_wipe(der, sizeof der);
    grove_wipe(raw, sizeof raw);
    return ok;
}

static int dec_spki(void *ctx, OSSL_CORE_BIO *in, int selection, OSSL_CALLBACK *cb, void *cbarg,
                    OSSL_PASSPHRASE_CALLBACK *pw, void *pwarg) {
    (void)pw, (void)pwarg;
    return dec_decode(ctx, in, selection, cb, cbarg, 0);
}
static int dec_pkcs8(void *ctx, OSSL_CORE_BIO *in, int selection, OSSL_CALLBACK *cb,
                     void *cbarg, OSSL_PASSPHRASE_CALLBACK *pw, void *pwarg) {
    (void)pw, (void)pwarg;
    return dec_decode(ctx, in, selection, cb, cbarg, 1);
}

/* For a key manager of another provider: hand over the raw key as "pub"/"priv". */
static int dec_export_object(void *vctx, const void *reference, size_t reference_sz,
                             OSSL_CALLBACK *cb, void *cbarg) {
    (void)vctx;
    if (reference == NULL || reference_sz != sizeof(gp_key *))
        return 0;
    const gp_key *k = *(gp_key *const *)reference;
    if (k == NULL)
        return 0;
    OSSL_PARAM params[3];
    size_t i = 0;
    if (k->pk_len != 0)
        params[i++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)k->pk,
                                                        k->pk_len);
    if (k->sk != NULL)
        params[i++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, k->sk, k->sk_len);
    params[i] = OSSL_PARAM_construct_end();
    return cb(params, cbarg);
}

#define DEC_FNS(i)                                                                             \
    static void *dec_newctx_##i(void *provctx) { return dec_newctx(provctx, &gp_algs[i]); }    \
    static const OSSL_DISPATCH dec_spki_##i[] = {                                              \
        {OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))dec_newctx_##i},                            \
        {OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dec_freectx},                              \
        {OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))dec_spki_does},                     \
        {OSSL_FUNC_DECODER_DECODE, (void (*)(void))dec_spki},                                  \
        {OSSL_FUNC_DECODER_EXPORT_OBJECT, (void (*)(void))dec_export_object},                  \
        {0, NULL}};                                                                            \
    static const OSSL_DISPATCH dec_pkcs8_##i[] = {                                             \
        {OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))dec_newctx_##i},                            \
        {OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dec_freectx},                              \
        {OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))dec_pkcs8_does},                    \
        {OSSL_FUNC_DECODER_DECODE, (void (*)(void))dec_pkcs8},                                 \
        {OSSL_FUNC_DECODER_EXPORT_OBJECT, (void (*)(void))dec_export_object},                  \
        {0, NULL}};

DEC_FNS(0)
DEC_FNS(1)
DEC_FNS(2)
DEC_FNS(3)
DEC_FNS(4)
DEC_FNS(5)
DEC_FNS(6)
DEC_FNS(7)
DEC_FNS(8)
DEC_FNS(9)
DEC_FNS(10)
DEC_FNS(11)
DEC_FNS(12)
DEC_FNS(13)
DEC_FNS(14)
DEC_FNS(15)
DEC_FNS(16)
DEC_FNS(17)
DEC_FNS(18)
DEC_FNS(19)
DEC_FNS(20)
DEC_FNS(21)
DEC_FNS(22)
DEC_FNS(23)
DEC_FNS(24)
DEC_FNS(25)

const OSSL_DISPATCH *const gp_decoder_spki_fns[GP_NUM_ALGS] = {
    dec_spki_0,
    dec_spki_1,
    dec_spki_2,
    dec_spki_3,
    dec_spki_4,
    dec_spki_5,
    dec_spki_6,
    dec_spki_7,
    dec_spki_8,
    dec_spki_9,
    dec_spki_10,
    dec_spki_11,
    dec_spki_12,
    dec_spki_13,
    dec_spki_14,
    dec_spki_15,
    dec_spki_16,
    dec_spki_17,
    dec_spki_18,
    dec_spki_19,
    dec_spki_20,
    dec_spki_21,
    dec_spki_22,
    dec_spki_23,
    dec_spki_24,
    dec_spki_25,
};
const OSSL_DISPATCH *const gp_decoder_pkcs8_fns[GP_NUM_ALGS] = {
    dec_pkcs8_0,
    dec_pkcs8_1,
    dec_pkcs8_2,
    dec_pkcs8_3,
    dec_pkcs8_4,
    dec_pkcs8_5,
    dec_pkcs8_6,
    dec_pkcs8_7,
    dec_pkcs8_8,
    dec_pkcs8_9,
    dec_pkcs8_10,
    dec_pkcs8_11,
    dec_pkcs8_12,
    dec_pkcs8_13,
    dec_pkcs8_14,
    dec_pkcs8_15,
    dec_pkcs8_16,
    dec_pkcs8_17,
    dec_pkcs8_18,
    dec_pkcs8_19,
    dec_pkcs8_20,
    dec_pkcs8_21,
    dec_pkcs8_22,
    dec_pkcs8_23,
    dec_pkcs8_24,
    dec_pkcs8_25,
};
