/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The generic signature API (grove/sig.h): a table of every stateless algorithm, built once,
 * each entry dispatching to its scheme. The contract (GROVE_ERR_VERIFY for any signature that
 * does not verify, lengths checked here) is enforced in this file so that every algorithm
 * answers alike.
 */
#include <pthread.h>
#include <string.h>

#include "grove/bls12_381.h"
#include "grove/cross.h"
#include "grove/sig.h"
#include "grove/slhdsa.h"

typedef enum { K_SLHDSA, K_SPHINCS, K_CROSS, K_BLS } kind;

struct grove_sig_alg {
    kind k;
    const char *name;
    const void *params;          /* grove_slhdsa_params / grove_cross_params */
    grove_bls_variant variant;   /* K_BLS */
    size_t pk, sk, sig;
};

#define MAX_ALGS 64

static grove_sig_alg algs[MAX_ALGS];
static size_t nalgs;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void add(kind k, const char *name, const void *params, grove_bls_variant v, size_t pk,
                size_t sk, size_t sig)
{
    if (nalgs < MAX_ALGS)
        algs[nalgs++] = (grove_sig_alg){k, name, params, v, pk, sk, sig};
}

static void build(void)
{
    /* SLH-DSA first, then SPHINCS+ round 3.1 (one descriptor table holds both flavours) */
    for (int fips = 1; fips >= 0; fips--)
        for (size_t i = 0; i < grove_slhdsa_params_count(); i++) {
            const grove_slhdsa_params *p = grove_slhdsa_params_at(i);
            if (grove_slhdsa_params_is_fips205(p) == fips)
                add(fips ? K_SLHDSA : K_SPHINCS, grove_slhdsa_params_name(p), p, 0,
                    grove_slhdsa_pk_bytes(p), grove_slhdsa_sk_bytes(p), grove_slhdsa_sig_bytes(p));
        }
    for (size_t i = 0; i < grove_cross_params_count(); i++) {
        const grove_cross_params *p = grove_cross_params_at(i);
        add(K_CROSS, grove_cross_params_name(p), p, 0, grove_cross_pk_bytes(p),
            grove_cross_sk_bytes(p), grove_cross_sig_bytes(p));
    }
    add(K_BLS, "BLS12-381-min-pk", NULL, GROVE_BLS_MIN_PK, grove_bls_pk_bytes(GROVE_BLS_MIN_PK),
        GROVE_BLS_SK_BYTES, grove_bls_sig_bytes(GROVE_BLS_MIN_PK));
    add(K_BLS, "BLS12-381-min-sig", NULL, GROVE_BLS_MIN_SIG,
        grove_bls_pk_bytes(GROVE_BLS_MIN_SIG), GROVE_BLS_SK_BYTES,
        grove_bls_sig_bytes(GROVE_BLS_MIN_SIG));
}

static void init(void)
{
    pthread_once(&once, build);
}

size_t grove_sig_alg_count(void)
{
    init();
    return nalgs;
}

const grove_sig_alg *grove_sig_alg_at(size_t i)
{
    init();
    return i < nalgs ? &algs[i] : NULL;
}

const grove_sig_alg *grove_sig_alg_get(const char *name)
{
    init();
    for (size_t i = 0; name != NULL && i < nalgs; i++)
        if (strcmp(algs[i].name, name) == 0)
            return &algs[i];
    return NULL;
}

const char *grove_sig_alg_name(const grove_sig_alg *a)
{
    return a ? a->name : NULL;
}

size_t grove_sig_pk_bytes(const grove_sig_alg *a)
{
    return a ? a->pk : 0;
}

size_t grove_sig_sk_bytes(const grove_sig_alg *a)
{
    return a ? a->sk : 0;
}

size_t grove_sig_sig_bytes(const grove_sig_alg *a)
{
    return a ? a->sig : 0;
}

static const char *bls_dst(grove_bls_variant v)
{
    return v == GROVE_BLS_MIN_PK ? GROVE_BLS_DST_MIN_PK : GROVE_BLS_DST_MIN_SIG;
}

grove_status grove_sig_keygen(const grove_sig_alg *a, uint8_t *pk, uint8_t *sk)
{
    if (a == NULL || pk == NULL || sk == NULL)
        return GROVE_ERR_INVALID_ARG;
    switch (a->k) {
    case K_SLHDSA:
    case K_SPHINCS:
        return grove_slhdsa_keygen(a->params, pk, sk);
    case K_CROSS:
        return grove_cross_keygen(a->params, pk, sk);
    case K_BLS: {
        grove_bls_sk s;
        int rc = grove_bls_sk_generate(&s);
        if (rc == GROVE_OK)
            rc = grove_bls_sk_to_pk(a->variant, pk, &s);
        if (rc == GROVE_OK)
            grove_bls_sk_to_bytes(&s, sk);
        grove_bls_sk_wipe(&s);
        return (grove_status)rc;
    }
    }
    return GROVE_ERR_INVALID_ARG;
}

grove_status grove_sig_sign(const grove_sig_alg *a, uint8_t *sig, size_t sig_cap,
                            size_t *sig_len, const uint8_t *msg, size_t msg_len,
                            const uint8_t *sk)
{
    if (sig_len != NULL)
        *sig_len = 0;
    if (a == NULL || sig == NULL || sig_len == NULL || sk == NULL || (msg == NULL && msg_len > 0))
        return GROVE_ERR_INVALID_ARG;
    if (sig_cap < a->sig) {
        *sig_len = a->sig; /* the length needed (grove/common.h); nothing written */
        return GROVE_ERR_BUFFER_TOO_SMALL;
    }
    static const uint8_t empty[1];
    if (msg == NULL)
        msg = empty;
    int rc = GROVE_ERR_INVALID_ARG;
    switch (a->k) {
    case K_SLHDSA:
        rc = grove_slhdsa_sign(a->params, sig, msg, msg_len, NULL, 0, sk, true);
        break;
    case K_SPHINCS:
        rc = grove_sphincs_sign(a->params, sig, msg, msg_len, sk);
        break;
    case K_CROSS:
        rc = grove_cross_sign(a->params, GROVE_CROSS_FAST, sig, msg, msg_len, sk);
        break;
    case K_BLS: {
        grove_bls_sk s;
        rc = grove_bls_sk_from_bytes(&s, sk);
        if (rc == GROVE_OK)
            rc = grove_bls_sign(a->variant, sig, msg, msg_len, &s,
                                (const uint8_t *)bls_dst(a->variant), strlen(bls_dst(a->variant)));
        grove_bls_sk_wipe(&s);
        break;
    }
    }
    if (rc == GROVE_OK)
        *sig_len = a->sig;
    else
        memset(sig, 0, a->sig);
    return (grove_status)rc;
}

grove_status grove_sig_verify(const grove_sig_alg *a, const uint8_t *sig, size_t sig_len,
                              const uint8_t *msg, size_t msg_len, const uint8_t *pk)
{
    if (a == NULL || sig == NULL || pk == NULL || (msg == NULL && msg_len > 0))
        return GROVE_ERR_INVALID_ARG;
    if (sig_len != a->sig)
        return GROVE_ERR_VERIFY; /* one rule for every algorithm (grove/common.h) */
    static const uint8_t empty[1];
    if (msg == NULL)
        msg = empty;
    int rc = GROVE_ERR_VERIFY;
    switch (a->k) {
    case K_SLHDSA:
        rc = grove_slhdsa_verify(a->params, sig, sig_len, msg, msg_len, NULL, 0, pk);
        break;
    case K_SPHINCS:
        rc = grove_sphincs_verify(a->params, sig, sig_len, msg, msg_len, pk);
        break;
    case K_CROSS:
        rc = grove_cross_verify(a->params, GROVE_CROSS_FAST, sig, sig_len, msg, msg_len, pk);
        break;
    case K_BLS:
        rc = grove_bls_verify(a->variant, sig, sig_len, msg, msg_len, pk, a->pk,
                              (const uint8_t *)bls_dst(a->variant), strlen(bls_dst(a->variant)));
        break;
    }
    /* the schemes answer GROVE_ERR_VERIFY for every signature that does not verify and
     * GROVE_ERR_ENCODING only for a malformed public key (grove/common.h) */
    return (grove_status)rc;
}
