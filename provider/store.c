/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * provider/store.c - the "grove-xmss:" key loader (OSSL_STORE) and XMSS signing through grove's
 * stateful key file.
 *
 * `-inkey grove-xmss:/path/to/key.sk` (or OSSL_STORE_open in a program) gives an EVP_PKEY that
 * holds the key file's *path* and public key, never its secret state. Each signature opens and
 * locks the file with its state-registry entry (grove_xmss_keyfile_open: a restored or copied
 * file is refused), signs with grove_xmss_key_sign, which writes the advanced state to the file
 * and to the registry (fsync) before it computes the signature, and closes it again. So the
 * provider never returns a signature whose index was not saved, and two processes signing with
 * the same file are serialized by its lock.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/params.h>

#include "grove/common.h"
#include "grove/state.h"
#include "prov.h"

#define GP_STORE_SCHEME "grove-xmss:"
#define GP_PATH_MAX 4096

typedef struct store_ctx {
    const gp_provctx *pc;
    char *path;
    int done;
} store_ctx;

static void *store_open(void *provctx, const char *uri) {
    const gp_provctx *pc = provctx;
    size_t pre = strlen(GP_STORE_SCHEME);
    if (uri == NULL || strncmp(uri, GP_STORE_SCHEME, pre) != 0 || uri[pre] == '\0' ||
        strlen(uri + pre) >= GP_PATH_MAX) {
        gp_raise(pc, GP_R_BAD_ARG, "expected %s<path of a grove XMSS key file>", GP_STORE_SCHEME);
        return NULL;
    }
    store_ctx *c = calloc(1, sizeof *c);
    if (c == NULL || (c->path = strdup(uri + pre)) == NULL) {
        free(c);
        gp_raise(pc, GP_R_NOMEM, "opening %s", uri);
        return NULL;
    }
    c->pc = pc;
    return c;
}

static int store_set_ctx_params(void *vc, const OSSL_PARAM params[]) {
    (void)vc;
    (void)params;
    return 1;
}

static const OSSL_PARAM *store_settable_ctx_params(void *provctx) {
    static const OSSL_PARAM t[] = {OSSL_PARAM_END};
    (void)provctx;
    return t;
}

static int store_load(void *vc, OSSL_CALLBACK *object_cb, void *object_cbarg,
                      OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg) {
    store_ctx *c = vc;
    (void)pw_cb, (void)pw_cbarg;
    if (c == NULL || c->done)
        return 0;
    c->done = 1;
    grove_xmss_state_info info;
    char err[GROVE_XMSS_ERR_CAP] = "";
    grove_status st = grove_xmss_keyfile_read_info(&info, c->path, err, sizeof err);
    if (st != GROVE_OK) {
        gp_raise(c->pc, GP_R_BAD_KEY, "%s: %s", c->path, err[0] ? err : grove_strerror(st));
        return 0;
    }
    const gp_alg *alg = &gp_algs[grove_xmss_params_family(info.params) == GROVE_XMSS_FAMILY_XMSS
                                     ? GP_NUM_SLHDSA
                                     : GP_NUM_SLHDSA + 1];
    gp_key *k = gp_key_new(c->pc, alg);
    if (k == NULL)
        return 0;
    if (!gp_key_set_pk(k, info.pk, info.pk_bytes) || (k->keyfile = strdup(c->path)) == NULL) {
        gp_key_free(k);
        return 0;
    }
    int type = OSSL_OBJECT_PKEY;
    OSSL_PARAM params[4];
    params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &type);
    params[1] = OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE, (char *)alg->ln, 0);
    params[2] = OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &k, sizeof k);
    params[3] = OSSL_PARAM_construct_end();
    int ok = object_cb(params, object_cbarg);
    gp_key_free(k); /* NULL if the key manager took it */
    return ok;
}

static int store_eof(void *vc) {
    const store_ctx *c = vc;
    return c == NULL || c->done;
}

static int store_close(void *vc) {
    store_ctx *c = vc;
    if (c != NULL) {
        free(c->path);
        free(c);
    }
    return 1;
}

const OSSL_DISPATCH gp_store_fns[] = {
    {OSSL_FUNC_STORE_OPEN, (void (*)(void))store_open},
    {OSSL_FUNC_STORE_SETTABLE_CTX_PARAMS, (void (*)(void))store_settable_ctx_params},
    {OSSL_FUNC_STORE_SET_CTX_PARAMS, (void (*)(void))store_set_ctx_params},
    {OSSL_FUNC_STORE_LOAD, (void (*)(void))store_load},
    {OSSL_FUNC_STORE_EOF, (void (*)(void))store_eof},
    {OSSL_FUNC_STORE_CLOSE, (void (*)(void))store_close},
    {0, NULL}};

/* ---- signing ------------------------------------------------------------------------------ */

int gp_xmss_sign_keyfile(const gp_key *k, uint8_t *sig, size_t sig_len, const uint8_t *msg,
                         size_t msg_len) {
    grove_registry *reg = NULL;
    grove_xmss_keyfile *kf = NULL;
    char err[GROVE_XMSS_ERR_CAP] = "";
    int ok = 0;
    grove_status st = grove_registry_open(&reg, NULL);
    if (st != GROVE_OK) {
        gp_raise(k->pc, GP_R_BAD_KEY,
                 "XMSS signing needs grove's state registry (set GROVE_STATE_DIR): %s",
                 grove_strerror(st));
        return 0;
    }
    grove_xmss_opts opts = {1, NULL, NULL};
    st = grove_xmss_keyfile_open(&kf, k->keyfile, reg, 0, &opts, err, sizeof err);
    if (st != GROVE_OK) {
        gp_raise(k->pc, GP_R_BAD_KEY, "%s: %s", k->keyfile, err[0] ? err : grove_strerror(st));
        goto done;
    }
    grove_xmss_key *key = grove_xmss_keyfile_key(kf);
    const grove_xmss_params *p = grove_xmss_key_params(key);
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES];
    if (grove_xmss_pk_bytes(p) != k->pk_len || grove_xmss_sig_bytes(p) != sig_len ||
        grove_xmss_key_public_key(key, pk) != GROVE_OK || memcmp(pk, k->pk, k->pk_len) != 0) {
        gp_raise(k->pc, GP_R_BAD_KEY, "%s is no longer the key that was loaded", k->keyfile);
        goto done;
    }
    /* The reservation reaches the file and the registry before the signature is computed. */
    st = grove_xmss_key_sign(key, sig, NULL, msg, msg_len);
    if (st != GROVE_OK) {
        const char *why = st == GROVE_ERR_STORAGE ? grove_xmss_keyfile_error(kf) : NULL;
        gp_raise(k->pc, st == GROVE_ERR_EXHAUSTED ? GP_R_BAD_KEY : GP_R_LIBRARY, "%s: %s",
                 k->keyfile, why != NULL && why[0] ? why : grove_strerror(st));
        grove_wipe(sig, sig_len);
        goto done;
    }
    ok = 1;
done:
    grove_xmss_keyfile_close(kf);
    grove_registry_close(reg);
    return ok;
}
