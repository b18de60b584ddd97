/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * provider/signature.c - signing and verification.
 *
 * SLH-DSA and XMSS sign the message itself, not a digest of it. OpenSSL 3.0's tools reach a
 * signature through EVP_DigestSign*: one-shot (X.509) or init/update/final (dgst, CMS). The
 * update calls are collected here and the whole message is signed at final. A digest named
 * at init (CMS names the one of its message-digest attribute) is not used by the signature.
 * EVP_PKEY_sign/verify (pkeyutl without -rawin) also sign the input bytes as the message.
 *
 * Context parameters: "context-string" (FIPS 205's ctx, up to 255 bytes, default empty),
 * "deterministic" (1: opt_rand = PK.seed; default 0, hedged), and "algorithm-id" (get: the
 * DER AlgorithmIdentifier X.509 and CMS write).
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "grove/common.h"
#include "prov.h"

#define GP_PARAM_CONTEXT_STRING "context-string"
#define GP_PARAM_DETERMINISTIC "deterministic"
/* Largest message collected by the init/update/final path (the one-shot calls take any size). */
#define GP_MAX_BUFFERED ((size_t)1 << 32)

typedef struct sig_ctx {
    const gp_provctx *pc;
    gp_key *key;
    int signing;
    int deterministic;
    uint8_t ctx_str[GROVE_SLHDSA_MAX_CTX_BYTES];
    size_t ctx_len;
    uint8_t *msg; /* collected by digest_*_update */
    size_t msg_len, msg_cap;
} sig_ctx;

static void *sig_newctx(void *provctx, const char *propq) {
    (void)propq;
    sig_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->pc = provctx;
    return c;
}

static void sig_freectx(void *vc) {
    sig_ctx *c = vc;
    if (c == NULL)
        return;
    if (c->msg != NULL) {
        grove_wipe(c->msg, c->msg_cap);
        free(c->msg);
    }
    free(c);
}

static void *sig_dupctx(void *vc) {
    const sig_ctx *src = vc;
    sig_ctx *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *src;
    c->msg = NULL;
    c->msg_cap = 0;
    if (src->msg_len != 0) {
        c->msg = malloc(src->msg_len);
        if (c->msg == NULL) {
            free(c);
            return NULL;
        }
        memcpy(c->msg, src->msg, src->msg_len);
        c->msg_cap = src->msg_len;
    }
    return c;
}

static int sig_set_ctx_params(void *vc, const OSSL_PARAM params[]);

static int sig_init(sig_ctx *c, void *key, const OSSL_PARAM params[], int signing) {
    if (c == NULL)
        return 0;
    if (key != NULL)
        c->key = key;
    if (c->key == NULL) {
        gp_raise(c->pc, GP_R_BAD_ARG, "no key");
        return 0;
    }
    if (signing) {
        if ((c->key->alg->family == GP_XMSS || c->key->alg->family == GP_XMSSMT) &&
            c->key->keyfile == NULL) {
            gp_raise(c->pc, GP_R_UNSUPPORTED,
                     "%s signs only through its grove key file: load the key as "
                     "grove-xmss:<path of the key file> (its state is saved before each "
                     "signature), or use `grove xmss sign`",
                     c->key->alg->ln);
            return 0;
        }
        if (c->key->sk == NULL && c->key->keyfile == NULL) {
            gp_raise(c->pc, GP_R_BAD_KEY, "signing needs a %s private key", c->key->alg->ln);
            return 0;
        }
    } else if (c->key->pk_len == 0) {
        gp_raise(c->pc, GP_R_BAD_KEY, "verification needs a %s public key", c->key->alg->ln);
        return 0;
    }
    c->signing = signing;
    c->msg_len = 0;
    return sig_set_ctx_params(c, params);
}

static int sig_sign_init(void *vc, void *key, const OSSL_PARAM params[]) {
    return sig_init(vc, key, params, 1);
}

static int sig_verify_init(void *vc, void *key, const OSSL_PARAM params[]) {
    return sig_init(vc, key, params, 0);
}

static int sig_digest_sign_init(void *vc, const char *mdname, void *key,
                                const OSSL_PARAM params[]) {
    (void)mdname; /* a pure signature: the digest, if any, is the caller's (CMS) business */
    return sig_init(vc, key, params, 1);
}

static int sig_digest_verify_init(void *vc, const char *mdname, void *key,
                                  const OSSL_PARAM params[]) {
    (void)mdname;
    return sig_init(vc, key, params, 0);
}

static int sig_do_sign(sig_ctx *c, unsigned char *sig, size_t *siglen, size_t sigsize,
                       const unsigned char *msg, size_t msg_len) {
    size_t need = gp_key_sig_bytes(c->key);
    if (sig == NULL) {
        *siglen = need;
        return 1;
    }
    if (sigsize < need) {
        gp_raise(c->pc, GP_R_BAD_ARG, "signature buffer of %zu bytes, %zu needed", sigsize, need);
        return 0;
    }
    grove_status st;
    if (c->key->keyfile != NULL) {
        if (c->ctx_len != 0 || c->deterministic) {
            gp_raise(c->pc, GP_R_UNSUPPORTED, "%s takes no context string or deterministic mode",
                     c->key->alg->ln);
            return 0;
        }
        if (!gp_xmss_sign_keyfile(c->key, sig, need, msg, msg_len))
            return 0;
        *siglen = need;
        return 1;
    }
    if (c->key->alg->family == GP_CROSS) {
        if (c->deterministic) {
            gp_raise(c->pc, GP_R_UNSUPPORTED, "%s signing is always randomized", c->key->alg->ln);
            return 0;
        }
        st = grove_cross_sign(c->key->cross, GROVE_CROSS_FAST, sig, msg, msg_len, c->key->sk);
    } else {
        st = c->key->ph ? grove_hashslhdsa_sign(c->key->slh, sig, msg, msg_len, c->ctx_str,
                                                c->ctx_len, c->key->ph, c->key->sk,
                                                c->deterministic == 0)
                        : grove_slhdsa_sign(c->key->slh, sig, msg, msg_len, c->ctx_str,
                                            c->ctx_len, c->key->sk, c->deterministic == 0);
    }
    if (st != GROVE_OK) {
        gp_raise(c->pc, GP_R_LIBRARY, "%s signing: %s", c->key->alg->ln, grove_strerror(st));
        return 0;
    }
    *siglen = need;
    return 1;
}

static int sig_do_verify(sig_ctx *c, const unsigned char *sig, size_t siglen,
                         const unsigned char *msg, size_t msg_len) {
    grove_status st;
    if (c->key->alg->family == GP_CROSS)
        st = grove_cross_verify(c->key->cross, GROVE_CROSS_FAST, sig, siglen, msg, msg_len,
                                c->key->pk);
    else if (c->key->ph != 0)
        st = grove_hashslhdsa_verify(c->key->slh, sig, siglen, msg, msg_len, c->ctx_str,
                                     c->ctx_len, c->key->ph, c->key->pk);
    else if (c->key->alg->family == GP_SLHDSA)
        st = grove_slhdsa_verify(c->key->slh, sig, siglen, msg, msg_len, c->ctx_str, c->ctx_len,
                                 c->key->pk);
    else
        st = grove_xmss_verify(gp_xmss_family(c->key->alg), sig,
                               siglen, msg, msg_len, c->key->pk, c->key->pk_len);
    if (st == GROVE_OK)
        return 1;
    if (st != GROVE_ERR_VERIFY)
        gp_raise(c->pc, GP_R_LIBRARY, "%s verification: %s", c->key->alg->ln,
                 grove_strerror(st));
    return 0; /* a signature that does not verify: OpenSSL reports the failure itself */
}

static int sig_sign(void *vc, unsigned char *sig, size_t *siglen, size_t sigsize,
                    const unsigned char *tbs, size_t tbslen) {
    sig_ctx *c = vc;
    if (c == NULL || c->key == NULL || !c->signing)
        return 0;
    return sig_do_sign(c, sig, siglen, sigsize, tbs, tbslen);
}

static int sig_verify(void *vc, const unsigned char *sig, size_t siglen,
                      const unsigned char *tbs, size_t tbslen) {
    sig_ctx *c = vc;
    if (c == NULL || c->key == NULL || c->signing)
        return 0;
    return sig_do_verify(c, sig, siglen, tbs, tbslen);
}

static int sig_update(void *vc, const unsigned char *data, size_t len) {
    sig_ctx *c = vc;
    if (c == NULL || c->key == NULL)
        return 0;
    if (len == 0)
        return 1;
    if (len > GP_MAX_BUFFERED - c->msg_len) {
        gp_raise(c->pc, GP_R_BAD_ARG, "message longer than %zu bytes", GP_MAX_BUFFERED);
        return 0;
    }
    if (c->msg_len + len > c->msg_cap) {
        size_t cap = c->msg_cap ? c->msg_cap : 4096;
        while (cap < c->msg_len + len)
            cap *= 2;
        uint8_t *m = malloc(cap);
        if (m == NULL) {
            gp_raise(c->pc, GP_R_NOMEM, "collecting the message");
            return 0;
        }
        if (c->msg != NULL) {
            memcpy(m, c->msg, c->msg_len);
            grove_wipe(c->msg, c->msg_cap);
            free(c->msg);
        }
        c->msg = m;
        c->msg_cap = cap;
    }
    memcpy(c->msg + c->msg_len, data, len);
    c->msg_len += len;
    return 1;
}

static int sig_digest_sign_final(void *vc, unsigned char *sig, size_t *siglen, size_t sigsize) {
    sig_ctx *c = vc;
    if (c == NULL || c->key == NULL || !c->signing)
        return 0;
    return sig_do_sign(c, sig, siglen, sigsize, c->msg, c->msg_len);
}

static int sig_digest_verify_final(void *vc, const unsigned char *sig, size_t siglen) {
    sig_ctx *c = vc;
    if (c == NULL || c->key == NULL || c->signing)
        return 0;
    return sig_do_verify(c, sig, siglen, c->msg, c->msg_len);
}

static int sig_digest_sign(void *vc, unsigned char *sig, size_t *siglen, size_t sigsize,
                           const unsigned char *tbs, size_t tbslen) {
    return sig_sign(vc, sig, siglen, sigsize, tbs, tbslen);
}

static int sig_digest_verify(void *vc, const unsigned char *sig, size_t siglen,
                             const unsigned char *tbs, size_t tbslen) {
    return sig_verify(vc, sig, siglen, tbs, tbslen);
}

static int sig_get_ctx_params(void *vc, OSSL_PARAM params[]) {
    sig_ctx *c = vc;
    OSSL_PARAM *p;
    if (c == NULL)
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID)) != NULL) {
        uint8_t aid[16];
        size_t n = c->key ? gp_alg_id_der(c->key->alg, aid, sizeof aid) : 0;
        if (n == 0 || !OSSL_PARAM_set_octet_string(p, aid, n))
            return 0;
    }
    return 1;
}

static const OSSL_PARAM *sig_gettable_ctx_params(void *vc, void *provctx) {
    static const OSSL_PARAM t[] = {
        OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0), OSSL_PARAM_END};
    (void)vc;
    (void)provctx;
    return t;
}

static int sig_set_ctx_params(void *vc, const OSSL_PARAM params[]) {
    sig_ctx *c = vc;
    const OSSL_PARAM *p;
    if (c == NULL)
        return 0;
    if (params == NULL)
        return 1;
    if ((p = OSSL_PARAM_locate_const(params, GP_PARAM_CONTEXT_STRING)) != NULL) {
        const void *buf = NULL;
        size_t len = 0;
        if (!OSSL_PARAM_get_octet_string_ptr(p, &buf, &len) &&
            !OSSL_PARAM_get_utf8_string_ptr(p, (const char **)&buf)) {
            gp_raise(c->pc, GP_R_BAD_ARG, "context-string must be an octet or UTF-8 string");
            return 0;
        }
        if (p->data_type == OSSL_PARAM_UTF8_STRING)
            len = strlen(buf);
        if (len > GROVE_SLHDSA_MAX_CTX_BYTES) {
            gp_raise(c->pc, GP_R_BAD_ARG, "context-string of %zu bytes (at most %d)", len,
                     GROVE_SLHDSA_MAX_CTX_BYTES);
            return 0;
        }
        if (c->key != NULL && c->key->alg->family != GP_SLHDSA && len != 0) {
            gp_raise(c->pc, GP_R_UNSUPPORTED, "%s has no context string", c->key->alg->ln);
            return 0;
        }
        if (len != 0)
            memcpy(c->ctx_str, buf, len);
        c->ctx_len = len;
    }
    if ((p = OSSL_PARAM_locate_const(params, GP_PARAM_DETERMINISTIC)) != NULL) {
        int v;
        if (!OSSL_PARAM_get_int(p, &v) || (v != 0 && v != 1)) {
            gp_raise(c->pc, GP_R_BAD_ARG, "deterministic must be 0 or 1");
            return 0;
        }
        c->deterministic = v;
    }
    return 1;
}

static const OSSL_PARAM *sig_settable_ctx_params(void *vc, void *provctx) {
    static const OSSL_PARAM t[] = {OSSL_PARAM_octet_string(GP_PARAM_CONTEXT_STRING, NULL, 0),
                                   OSSL_PARAM_int(GP_PARAM_DETERMINISTIC, NULL), OSSL_PARAM_END};
    (void)vc;
    (void)provctx;
    return t;
}

const OSSL_DISPATCH gp_signature_fns[] = {
    {OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))sig_newctx},
    {OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sig_freectx},
    {OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sig_dupctx},
    {OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sig_sign_init},
    {OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sig_sign},
    {OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))sig_verify_init},
    {OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))sig_verify},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))sig_digest_sign_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))sig_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))sig_digest_sign_final},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))sig_digest_sign},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (void (*)(void))sig_digest_verify_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))sig_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (void (*)(void))sig_digest_verify_final},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, (void (*)(void))sig_digest_verify},
    {OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))sig_get_ctx_params},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))sig_gettable_ctx_params},
    {OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))sig_set_ctx_params},
    {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))sig_settable_ctx_params},
    {0, NULL}};
