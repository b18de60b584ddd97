/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * provider/keymgmt.c - key management: generation (SLH-DSA), raw import/export ("pub",
 * "priv"), has/match/dup, and the parameters OpenSSL asks for (bits, security-bits, max-size,
 * mandatory-digest).
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "grove/common.h"
#include "prov.h"

static void km_free(void *kd) { gp_key_free(kd); }

static int km_has(const void *kd, int selection) {
    const gp_key *k = kd;
    if (k == NULL)
        return 0;
    int ok = 1;
    if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
        ok = ok && k->pk_len != 0;
    if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY)
        ok = ok && (k->sk != NULL || k->keyfile != NULL);
    return ok; /* these algorithms have no domain parameters */
}

static int km_match(const void *kd1, const void *kd2, int selection) {
    const gp_key *a = kd1, *b = kd2;
    if (a == NULL || b == NULL || a->alg != b->alg)
        return 0;
    if (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) {
        /* The public key identifies the pair (and is all a public-only key has). */
        if (a->pk_len != 0 && b->pk_len != 0)
            return a->pk_len == b->pk_len && memcmp(a->pk, b->pk, a->pk_len) == 0;
        if (a->sk != NULL && b->sk != NULL)
            return a->sk_len == b->sk_len && CRYPTO_memcmp(a->sk, b->sk, a->sk_len) == 0;
        return 0;
    }
    return 1;
}

static int km_import(void *kd, int selection, const OSSL_PARAM params[]) {
    gp_key *k = kd;
    if (k == NULL)
        return 0;
    const OSSL_PARAM *pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
    const OSSL_PARAM *priv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
    const void *buf;
    size_t len;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && priv != NULL) {
        if (!OSSL_PARAM_get_octet_string_ptr(priv, &buf, &len))
            return 0;
        if (!gp_key_set_sk(k, buf, len))
            return 0;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && pub != NULL) {
        if (!OSSL_PARAM_get_octet_string_ptr(pub, &buf, &len))
            return 0;
        if (!gp_key_set_pk(k, buf, len))
            return 0;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) && k->pk_len == 0) {
        gp_raise(k->pc, GP_R_BAD_KEY, "%s import: no \"%s\" or \"%s\" given", k->alg->ln,
                 OSSL_PKEY_PARAM_PUB_KEY, OSSL_PKEY_PARAM_PRIV_KEY);
        return 0;
    }
    return 1;
}

static const OSSL_PARAM km_key_types[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0), OSSL_PARAM_END};

static const OSSL_PARAM *km_types(int selection) {
    return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) ? km_key_types : NULL;
}

static int km_export(void *kd, int selection, OSSL_CALLBACK *cb, void *cbarg) {
    gp_key *k = kd;
    if (k == NULL || cb == NULL)
        return 0;
    OSSL_PARAM params[3];
    size_t i = 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && k->pk_len != 0)
        params[i++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, k->pk, k->pk_len);
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && k->sk != NULL)
        params[i++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, k->sk, k->sk_len);
    params[i] = OSSL_PARAM_construct_end();
    return cb(params, cbarg);
}

static const OSSL_PARAM *km_gettable_params(void *provctx) {
    static const OSSL_PARAM t[] = {
        OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
        OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
        OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_MANDATORY_DIGEST, NULL, 0),
        OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
        OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
        OSSL_PARAM_END};
    (void)provctx;
    return t;
}

static int km_get_params(void *kd, OSSL_PARAM params[]) {
    gp_key *k = kd;
    OSSL_PARAM *p;
    if (k == NULL)
        return 0;
    /* bits: the public key's size, as OpenSSL 3.5 reports it for SLH-DSA. */
    size_t pkb = k->pk_len;
    if (pkb == 0)
        pkb = k->slh ? grove_slhdsa_pk_bytes(k->slh) : k->cross ? grove_cross_pk_bytes(k->cross) : 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != NULL &&
        !OSSL_PARAM_set_int(p, (int)(8 * pkb)))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != NULL &&
        !OSSL_PARAM_set_int(p, (int)gp_key_security_bits(k)))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != NULL &&
        !OSSL_PARAM_set_int(p, (int)gp_key_sig_bytes(k)))
        return 0;
    /* A pure signature: no digest (OpenSSL's tools then pass none, as for Ed25519). */
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MANDATORY_DIGEST)) != NULL &&
        !OSSL_PARAM_set_utf8_string(p, ""))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY)) != NULL && k->pk_len != 0 &&
        !OSSL_PARAM_set_octet_string(p, k->pk, k->pk_len))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY)) != NULL && k->sk != NULL &&
        !OSSL_PARAM_set_octet_string(p, k->sk, k->sk_len))
        return 0;
    return 1;
}

static void *km_load(const void *reference, size_t reference_sz) {
    gp_key *k = NULL;
    if (reference == NULL || reference_sz != sizeof k)
        return NULL;
    /* The decoder passed us its key object: take it over. */
    k = *(gp_key *const *)reference;
    *(gp_key **)reference = NULL;
    return k;
}

static void *km_dup(const void *kd, int selection) {
    const gp_key *src = kd;
    if (src == NULL)
        return NULL;
    gp_key *k = gp_key_new(src->pc, src->alg);
    if (k == NULL)
        return NULL;
    if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) {
        memcpy(k->pk, src->pk, src->pk_len);
        k->pk_len = src->pk_len;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && src->keyfile != NULL &&
        (k->keyfile = strdup(src->keyfile)) == NULL) {
        gp_key_free(k);
        return NULL;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && src->sk != NULL) {
        k->sk = malloc(src->sk_len);
        if (k->sk == NULL) {
            gp_key_free(k);
            return NULL;
        }
        memcpy(k->sk, src->sk, src->sk_len);
        k->sk_len = src->sk_len;
        memcpy(k->pk, src->pk, src->pk_len);
        k->pk_len = src->pk_len;
    }
    return k;
}

/* ---- generation -------------------------------------------------------------------------- */

typedef struct km_gen {
    const gp_provctx *pc;
    const gp_alg *alg;
    int selection;
} km_gen;

static void *km_gen_init(void *provctx, const gp_alg *alg, int selection) {
    km_gen *g = calloc(1, sizeof *g);
    if (g == NULL)
        return NULL;
    g->pc = provctx;
    g->alg = alg;
    g->selection = selection;
    return g;
}

static int km_gen_set_params(void *genctx, const OSSL_PARAM params[]) {
    (void)genctx;
    (void)params;
    return 1;
}

static const OSSL_PARAM *km_gen_settable_params(void *genctx, void *provctx) {
    static const OSSL_PARAM t[] = {OSSL_PARAM_END};
    (void)genctx;
    (void)provctx;
    return t;
}

static void *km_generate(void *genctx, OSSL_CALLBACK *cb, void *cbarg) {
    km_gen *g = genctx;
    (void)cb;
    (void)cbarg;
    if (g == NULL)
        return NULL;
    if (g->alg->family == GP_XMSS || g->alg->family == GP_XMSSMT) {
        gp_raise(g->pc, GP_R_UNSUPPORTED,
                 "%s is stateful: make its keys with `grove xmss keygen` (the provider only "
                 "verifies XMSS signatures)",
                 g->alg->ln);
        return NULL;
    }
    gp_key *k = gp_key_new(g->pc, g->alg);
    if (k == NULL)
        return NULL;
    const int cross = g->alg->family == GP_CROSS;
    size_t skb = cross ? grove_cross_sk_bytes(k->cross) : grove_slhdsa_sk_bytes(k->slh);
    k->sk = malloc(skb);
    if (k->sk == NULL) {
        gp_key_free(k);
        return NULL;
    }
    grove_status st = cross ? grove_cross_keygen(k->cross, k->pk, k->sk)
                            : grove_slhdsa_keygen(k->slh, k->pk, k->sk);
    if (st != GROVE_OK) {
        grove_wipe(k->sk, skb);
        gp_raise(g->pc, GP_R_LIBRARY, "%s key generation: %s", g->alg->ln, grove_strerror(st));
        gp_key_free(k);
        return NULL;
    }
    k->sk_len = skb;
    k->pk_len = cross ? grove_cross_pk_bytes(k->cross) : grove_slhdsa_pk_bytes(k->slh);
    return k;
}

static void km_gen_cleanup(void *genctx) { free(genctx); }

/* ---- one dispatch table per algorithm (new and gen_init must know it) --------------------- */

#define KM_FNS(i)                                                                              \
    static void *km_new_##i(void *provctx) { return gp_key_new(provctx, &gp_algs[i]); }        \
    static void *km_gen_init_##i(void *provctx, int selection, const OSSL_PARAM params[]) {    \
        (void)params;                                                                          \
        return km_gen_init(provctx, &gp_algs[i], selection);                                   \
    }                                                                                          \
    static const OSSL_DISPATCH km_fns_##i[] = {                                                \
        {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))km_new_##i},                                   \
        {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))km_free},                                     \
        {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))km_has},                                       \
        {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))km_match},                                   \
        {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))km_import},                                 \
        {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))km_types},                            \
        {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))km_export},                                 \
        {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))km_types},                            \
        {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))km_get_params},                         \
        {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))km_gettable_params},               \
        {OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))km_load},                                     \
        {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))km_dup},                                       \
        {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))km_gen_init_##i},                         \
        {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))km_gen_set_params},                 \
        {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))km_gen_settable_params},       \
        {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))km_generate},                                       \
        {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))km_gen_cleanup},                       \
        {0, NULL}};

KM_FNS(0)
KM_FNS(1)
KM_FNS(2)
KM_FNS(3)
KM_FNS(4)
KM_FNS(5)
KM_FNS(6)
KM_FNS(7)
KM_FNS(8)
KM_FNS(9)
KM_FNS(10)
KM_FNS(11)
KM_FNS(12)
KM_FNS(13)
KM_FNS(14)
KM_FNS(15)
KM_FNS(16)
KM_FNS(17)
KM_FNS(18)
KM_FNS(19)
KM_FNS(20)
KM_FNS(21)
KM_FNS(22)
KM_FNS(23)
KM_FNS(24)
KM_FNS(25)
KM_FNS(26)
KM_FNS(27)
KM_FNS(28)
KM_FNS(29)
KM_FNS(30)
KM_FNS(31)
KM_FNS(32)
KM_FNS(33)
KM_FNS(34)
KM_FNS(35)
KM_FNS(36)
KM_FNS(37)
KM_FNS(38)
KM_FNS(39)
KM_FNS(40)
KM_FNS(41)
KM_FNS(42)
KM_FNS(43)

const OSSL_DISPATCH *const gp_keymgmt_fns[GP_NUM_ALGS] = {
    km_fns_0,
    km_fns_1,
    km_fns_2,
    km_fns_3,
    km_fns_4,
    km_fns_5,
    km_fns_6,
    km_fns_7,
    km_fns_8,
    km_fns_9,
    km_fns_10,
    km_fns_11,
    km_fns_12,
    km_fns_13,
    km_fns_14,
    km_fns_15,
    km_fns_16,
    km_fns_17,
    km_fns_18,
    km_fns_19,
    km_fns_20,
    km_fns_21,
    km_fns_22,
    km_fns_23,
    km_fns_24,
    km_fns_25,
    km_fns_26,
    km_fns_27,
    km_fns_28,
    km_fns_29,
    km_fns_30,
    km_fns_31,
    km_fns_32,
    km_fns_33,
    km_fns_34,
    km_fns_35,
    km_fns_36,
    km_fns_37,
    km_fns_38,
    km_fns_39,
    km_fns_40,
    km_fns_41,
    km_fns_42,
    km_fns_43,
};
