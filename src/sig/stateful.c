/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The generic stateful signature API (the grove_sig_stfl_* block of grove/sig.h): XMSS and
 * XMSS^MT through the public key-file layer of grove/xmss.h, so that every signature keeps the
 * persist-before-release contract of the key files and their state registry (the same files,
 * locks and checks as the grove command).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "grove/sig.h"
#include "grove/xmss.h"

struct grove_sig_stfl_alg {
    const grove_xmss_params *p;
};

struct grove_sig_stfl_key {
    grove_xmss_keyfile *kf;
    const grove_sig_stfl_alg *alg;
};

#define MAX_ALGS 128 /* 77 sets today */

static grove_sig_stfl_alg algs[MAX_ALGS];
static size_t nalgs;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void build(void)
{
    size_t n = grove_xmss_params_count();
    for (size_t i = 0; i < n && i < MAX_ALGS; i++)
        algs[nalgs++].p = grove_xmss_params_at(i);
}

static const grove_sig_stfl_alg *alg_of(const grove_xmss_params *p)
{
    pthread_once(&once, build);
    for (size_t i = 0; p != NULL && i < nalgs; i++)
        if (algs[i].p == p)
            return &algs[i];
    return NULL;
}

size_t grove_sig_stfl_alg_count(void)
{
    pthread_once(&once, build);
    return nalgs;
}

const grove_sig_stfl_alg *grove_sig_stfl_alg_at(size_t i)
{
    pthread_once(&once, build);
    return i < nalgs ? &algs[i] : NULL;
}

const grove_sig_stfl_alg *grove_sig_stfl_alg_get(const char *name)
{
    return alg_of(grove_xmss_params_get(name));
}

const char *grove_sig_stfl_alg_name(const grove_sig_stfl_alg *a)
{
    return a ? grove_xmss_params_name(a->p) : NULL;
}

size_t grove_sig_stfl_pk_bytes(const grove_sig_stfl_alg *a)
{
    return a ? grove_xmss_pk_bytes(a->p) : 0;
}

size_t grove_sig_stfl_sig_bytes(const grove_sig_stfl_alg *a)
{
    return a ? grove_xmss_sig_bytes(a->p) : 0;
}

grove_status grove_sig_stfl_keygen(const grove_sig_stfl_alg *a, uint8_t *pk, const char *key_path,
                                   grove_registry *reg)
{
    if (a == NULL || pk == NULL || key_path == NULL)
        return GROVE_ERR_INVALID_ARG;
    const grove_xmss_opts opts = {.threads = GROVE_THREADS_AUTO};
    grove_xmss_key *key = NULL;
    uint8_t out[GROVE_XMSS_MAX_PK_BYTES];
    grove_status rc = grove_xmss_keygen(a->p, &key, &opts);
    if (rc == GROVE_OK)
        rc = grove_xmss_key_public_key(key, out);
    /* the key file (and its registry entry) exists before the public key is handed out */
    if (rc == GROVE_OK)
        rc = grove_xmss_keyfile_create(key_path, reg, key, GROVE_ENVELOPE_ARMORED, NULL, 0);
    if (rc == GROVE_OK)
        memcpy(pk, out, grove_xmss_pk_bytes(a->p));
    grove_xmss_key_free(key);
    return rc;
}

grove_status grove_sig_stfl_key_open(grove_sig_stfl_key **key, const char *key_path,
                                     grove_registry *reg)
{
    if (key != NULL)
        *key = NULL;
    if (key == NULL || key_path == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_sig_stfl_key *k = calloc(1, sizeof *k);
    if (k == NULL)
        return GROVE_ERR_NOMEM;
    const grove_xmss_opts opts = {.threads = GROVE_THREADS_AUTO};
    grove_status rc = grove_xmss_keyfile_open(&k->kf, key_path, reg, 0, &opts, NULL, 0);
    if (rc == GROVE_OK) {
        k->alg = alg_of(grove_xmss_key_params(grove_xmss_keyfile_key(k->kf)));
        if (k->alg == NULL)
            rc = GROVE_ERR_INTERNAL; /* every set of grove/xmss.h is in the table */
    }
    if (rc != GROVE_OK) {
        grove_sig_stfl_key_close(k);
        return rc;
    }
    *key = k;
    return GROVE_OK;
}

const grove_sig_stfl_alg *grove_sig_stfl_key_alg(const grove_sig_stfl_key *key)
{
    return key ? key->alg : NULL;
}

uint64_t grove_sig_stfl_remaining(const grove_sig_stfl_key *key)
{
    return key ? grove_xmss_key_remaining(grove_xmss_keyfile_key(key->kf)) : 0;
}

void grove_sig_stfl_key_close(grove_sig_stfl_key *key)
{
    if (key == NULL)
        return;
    grove_xmss_keyfile_close(key->kf);
    free(key);
}

grove_status grove_sig_stfl_sign(grove_sig_stfl_key *key, uint8_t *sig, size_t sig_cap,
                                 size_t *sig_len, const uint8_t *msg, size_t msg_len)
{
    if (sig_len != NULL)
        *sig_len = 0;
    if (key == NULL || sig == NULL || sig_len == NULL || (msg == NULL && msg_len > 0))
        return GROVE_ERR_INVALID_ARG;
    const size_t need = grove_xmss_sig_bytes(key->alg->p);
    if (sig_cap < need) {
        *sig_len = need;
        return GROVE_ERR_BUFFER_TOO_SMALL;
    }
    /* begin reserves the index: the key file, then the registry entry, are written first */
    grove_xmss_sign_ctx *ctx = NULL;
    grove_status rc = grove_xmss_key_sign_begin(grove_xmss_keyfile_key(key->kf), &ctx, NULL);
    if (rc != GROVE_OK)
        return rc;
    rc = grove_xmss_sign_update(ctx, msg, msg_len);
    if (rc != GROVE_OK) {
        grove_xmss_sign_abort(ctx);
        return rc;
    }
    rc = grove_xmss_sign_finish_checked(ctx, sig);
    if (rc == GROVE_OK)
        *sig_len = need;
    return rc;
}

grove_status grove_sig_stfl_verify(const grove_sig_stfl_alg *a, const uint8_t *sig,
                                   size_t sig_len, const uint8_t *msg, size_t msg_len,
                                   const uint8_t *pk)
{
    if (a == NULL || sig == NULL || pk == NULL || (msg == NULL && msg_len > 0))
        return GROVE_ERR_INVALID_ARG;
    const grove_xmss_family family = grove_xmss_params_family(a->p);
    const size_t pk_len = grove_xmss_pk_bytes(a->p);
    const grove_xmss_params *of_pk = NULL;
    /* a public key of another set (or an unknown OID) is a configuration error */
    if (grove_xmss_pk_params(family, &of_pk, pk, pk_len) != GROVE_OK || of_pk != a->p)
        return GROVE_ERR_ENCODING;
    return grove_xmss_verify(family, sig, sig_len, msg, msg_len, pk, pk_len);
}
