/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove bench [SCHEME...] [--params NAME] [--time MS] [--threads N] [--json]: like `openssl
 * speed`. Times every operation of each scheme (key generation, signing, verification and the
 * rest) per parameter set, and the hash kernels, and prints the median, the spread (10th to
 * 90th percentile) and operations per second (and MB/s for hashing). SCHEME: slhdsa, sphincs,
 * cross, xmss, stm, bls12_381 (or bls), dgsp, hash, several in any order, mixed with the
 * options; without one, a representative set of each. The header names the grove version, the
 * CPU model, the online CPUs, the hash code path and the threads. The timing loop and its
 * statistics are the bench programs' (bench/support/bench.h). On a terminal a progress line
 * with the time left runs on stderr (not with --json).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "grove/grove.h"

typedef struct {
    const char *scheme;
    char set[64];
    const char *op;
    int (*fn)(void *);
    void *ctx;
    int (*prep)(void *); /* run before each timed call, not timed (may be NULL) */
    size_t bytes;        /* bytes hashed per call (MB/s is reported), else 0 */
} bcase;

typedef struct {
    void *p;
    void (*release)(void *);
} owned;

typedef struct {
    bcase *c;
    size_t n, cap;
    owned *own; /* the case contexts, released at the end */
    size_t nown, capown;
    unsigned threads; /* --threads: for every operation that takes threads */
} blist;

/* Take ownership of a context (released by release_all, also after a failed setup). */
static int own(blist *l, void *p, void (*release)(void *))
{
    if (l->nown == l->capown) {
        size_t cap = l->capown ? 2 * l->capown : 16;
        owned *no = realloc(l->own, cap * sizeof *no);
        if (no == NULL) {
            release(p);
            return -1;
        }
        l->own = no;
        l->capown = cap;
    }
    l->own[l->nown].p = p;
    l->own[l->nown++].release = release;
    return 0;
}

static void release_all(blist *l)
{
    while (l->nown > 0) {
        l->nown--;
        l->own[l->nown].release(l->own[l->nown].p);
    }
    free(l->own);
    free(l->c);
}

static int add(blist *l, const char *scheme, const char *set, const char *op, int (*fn)(void *),
               void *ctx)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        bcase *nc = realloc(l->c, cap * sizeof *nc);
        if (nc == NULL)
            return -1;
        l->c = nc;
        l->cap = cap;
    }
    bcase *b = &l->c[l->n++];
    b->scheme = scheme;
    snprintf(b->set, sizeof b->set, "%s", set);
    b->op = op;
    b->fn = fn;
    b->ctx = ctx;
    b->prep = NULL;
    b->bytes = 0;
    return 0;
}

/* ---- SLH-DSA / SPHINCS+ ------------------------------------------------------------------- */

typedef struct {
    const grove_slhdsa_params *p;
    uint8_t pk[64], sk[128], seed[96];
    uint8_t *sig;
} spx_b;

static int spx_keygen(void *a)
{
    spx_b *b = a;
    size_t n = grove_slhdsa_n(b->p);
    return grove_slhdsa_keygen_from_seed(b->p, b->pk, b->sk, b->seed, b->seed + n, b->seed + 2 * n);
}
static int spx_sign(void *a)
{
    spx_b *b = a;
    if (grove_slhdsa_params_is_fips205(b->p))
        return grove_slhdsa_sign(b->p, b->sig, (const uint8_t *)"bench", 5, NULL, 0, b->sk, 0);
    return grove_sphincs_sign(b->p, b->sig, (const uint8_t *)"bench", 5, b->sk);
}
static int spx_verify(void *a)
{
    spx_b *b = a;
    size_t sl = grove_slhdsa_sig_bytes(b->p);
    if (grove_slhdsa_params_is_fips205(b->p))
        return grove_slhdsa_verify(b->p, b->sig, sl, (const uint8_t *)"bench", 5, NULL, 0, b->pk);
    return grove_sphincs_verify(b->p, b->sig, sl, (const uint8_t *)"bench", 5, b->pk);
}

static void spx_release(void *a)
{
    spx_b *b = a;
    free(b->sig);
    grove_wipe(b, sizeof *b);
    free(b);
}

static int add_spx(blist *l, const char *scheme, const grove_slhdsa_params *p)
{
    spx_b *b = calloc(1, sizeof *b);
    if (b == NULL || own(l, b, spx_release) != 0 ||
        (b->sig = malloc(grove_slhdsa_sig_bytes(p))) == NULL)
        return -1;
    b->p = p;
    for (size_t i = 0; i < sizeof b->seed; i++)
        b->seed[i] = (uint8_t)(i * 13 + 5);
    if (spx_keygen(b) != GROVE_OK || spx_sign(b) != GROVE_OK)
        return -1;
    const char *name = grove_slhdsa_params_name(p);
    return add(l, scheme, name, "keygen", spx_keygen, b) | add(l, scheme, name, "sign", spx_sign, b) |
           add(l, scheme, name, "verify", spx_verify, b);
}

/* ---- DGSP --------------------------------------------------------------------------------- */
#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE

typedef struct {
    grove_dgsp_cfg cfg;
    uint8_t pk[64], sk[192], cid[32], wpk[8 * 32];
    uint64_t id, joined;
    grove_dgsp_store *store;
    grove_dgsp_wallet *w;
    uint8_t *certs, *sig;
    size_t batch;
    unsigned threads;
} dg_b;

static int dg_keygen(void *a)
{
    dg_b *b = a;
    uint8_t pk[64], sk[192];
    return grove_dgsp_keygen_manager(&b->cfg, pk, sk);
}
static int dg_join(void *a)
{
    dg_b *b = a;
    char u[32];
    uint64_t id;
    uint8_t cs[32];
    snprintf(u, sizeof u, "bench-%llu", (unsigned long long)b->joined++);
    return grove_dgsp_join(&b->cfg, b->store, &id, cs, u, b->sk);
}
static int dg_csr(void *a)
{
    dg_b *b = a;
    uint8_t pks[32], seeds[32], su[32];
    memset(su, 7, sizeof su);
    return grove_dgsp_csr(&b->cfg, pks, seeds, 1, su);
}
static int dg_cert(void *a)
{
    dg_b *b = a;
    return grove_dgsp_gen_cert(&b->cfg, b->store, b->certs, b->wpk, b->batch, b->id, b->cid, b->sk,
                               b->threads);
}
static int dg_check(void *a)
{
    dg_b *b = a;
    return grove_dgsp_check_cert(&b->cfg, b->certs, b->wpk, 1, b->id, b->pk);
}
/* Keep one certificate ready in the wallet (outside the timed signing). */
static int dg_refill(void *a)
{
    dg_b *b = a;
    if (grove_dgsp_wallet_available(b->w) == 0) {
        int r = grove_dgsp_wallet_csr(b->w, b->wpk, 1);
        if (r == GROVE_OK)
            r = grove_dgsp_gen_cert(&b->cfg, b->store, b->certs, b->wpk, 1, b->id, b->cid, b->sk,
                                    1);
        if (r == GROVE_OK)
            r = grove_dgsp_wallet_import(b->w, b->certs, b->wpk, 1, b->pk);
        return r;
    }
    return GROVE_OK;
}

static int dg_sign(void *a)
{
    dg_b *b = a;
    return grove_dgsp_wallet_sign(b->w, b->sig, (const uint8_t *)"bench", 5);
}
static int dg_verify(void *a)
{
    dg_b *b = a;
    return grove_dgsp_verify(&b->cfg, b->sig, grove_dgsp_sig_bytes(&b->cfg),
                             (const uint8_t *)"bench", 5, b->pk, b->store);
}
static int dg_open(void *a)
{
    dg_b *b = a;
    uint64_t id;
    uint8_t pi[32];
    return grove_dgsp_open(&b->cfg, b->store, &id, NULL, pi, b->sig, grove_dgsp_sig_bytes(&b->cfg),
                           (const uint8_t *)"bench", 5, b->sk);
}
static int dg_judge(void *a)
{
    dg_b *b = a;
    uint8_t pi[32];
    uint64_t id;
    int r = grove_dgsp_open(&b->cfg, b->store, &id, NULL, pi, b->sig, grove_dgsp_sig_bytes(&b->cfg),
                            (const uint8_t *)"bench", 5, b->sk);
    return r ? r : grove_dgsp_judge(&b->cfg, b->sig, grove_dgsp_sig_bytes(&b->cfg),
                                    (const uint8_t *)"bench", 5, id, pi);
}
static int dg_revoke(void *a)
{
    dg_b *b = a;
    char u[32];
    uint64_t id, first;
    uint8_t cs[32];
    snprintf(u, sizeof u, "revokee-%llu", (unsigned long long)b->joined++);
    int r = grove_dgsp_join(&b->cfg, b->store, &id, cs, u, b->sk);
    if (r == GROVE_OK)
        r = b->store->ops->reserve(b->store->ctx, id, 8, &first);
    return r ? r : grove_dgsp_revoke(&b->cfg, b->store, NULL, &id, 1, b->sk);
}

static void dg_release(void *a)
{
    dg_b *b = a;
    grove_dgsp_wallet_close(b->w);
    if (b->store)
        grove_dgsp_store_close(b->store);
    free(b->certs);
    free(b->sig);
    grove_wipe(b, sizeof *b);
    free(b);
}

/* The batch-8 copy shares the group, store and wallet of its original. */
static void dg8_release(void *a)
{
    dg_b *b = a;
    free(b->certs);
    grove_wipe(b, sizeof *b);
    free(b);
}

static int add_dgsp(blist *l, const char *params)
{
    dg_b *b = calloc(1, sizeof *b);
    if (b == NULL || own(l, b, dg_release) != 0 ||
        grove_dgsp_cfg_init(&b->cfg, grove_dgsp_params_get(params), GROVE_DGSP_FLAVOUR_R31,
                            GROVE_DGSP_PROFILE_GROVE))
        return -1;
    b->batch = 1;
    b->threads = l->threads;
    b->certs = malloc(8 * grove_dgsp_cert_bytes(&b->cfg));
    b->sig = malloc(grove_dgsp_sig_bytes(&b->cfg));
    if (!b->certs || !b->sig || grove_dgsp_keygen_manager(&b->cfg, b->pk, b->sk) ||
        grove_dgsp_store_memory_open(&b->store) ||
        grove_dgsp_join(&b->cfg, b->store, &b->id, b->cid, "member", b->sk) ||
        grove_dgsp_wallet_memory_open(&b->cfg, &b->w, NULL, b->id,
                                      b->cid) || dg_refill(b) || dg_sign(b))
        return -1;
    /* batch 8: its own keys and certificate buffer, the same group */
    dg_b *b8 = malloc(sizeof *b8);
    if (b8 == NULL)
        return -1;
    *b8 = *b;
    b8->batch = 8;
    b8->certs = NULL;
    if (own(l, b8, dg8_release) != 0)
        return -1;
    b8->certs = malloc(8 * grove_dgsp_cert_bytes(&b->cfg));
    uint8_t su[32], seeds[8 * 32];
    memset(su, 9, sizeof su);
    if (b8->certs == NULL || grove_dgsp_csr(&b->cfg, b8->wpk, seeds, 8, su))
        return -1;
    char set8[64];
    snprintf(set8, sizeof set8, "%s b8", params);
    int r = add(l, "dgsp", params, "keygen_manager", dg_keygen, b);
    r |= add(l, "dgsp", params, "join", dg_join, b);
    r |= add(l, "dgsp", params, "csr", dg_csr, b);
    r |= add(l, "dgsp", params, "gen_cert", dg_cert, b);
    r |= add(l, "dgsp", set8, "gen_cert", dg_cert, b8);
    r |= add(l, "dgsp", params, "check_cert", dg_check, b);
    r |= add(l, "dgsp", params, "sign", dg_sign, b);
    if (r == 0)
        l->c[l->n - 1].prep = dg_refill;
    r |= add(l, "dgsp", params, "verify", dg_verify, b);
    r |= add(l, "dgsp", params, "open", dg_open, b);
    r |= add(l, "dgsp", params, "judge", dg_judge, b);
    r |= add(l, "dgsp", params, "revoke", dg_revoke, b);
    return r;
}
#endif

/* ---- CROSS -------------------------------------------------------------------------------- */

typedef struct {
    const grove_cross_params *p;
    uint8_t *pk, *sk, *sig;
} cr_b;

static int cr_keygen(void *a)
{
    cr_b *b = a;
    return grove_cross_keygen(b->p, b->pk, b->sk);
}
static int cr_sign(void *a)
{
    cr_b *b = a;
    return grove_cross_sign(b->p, GROVE_CROSS_FAST, b->sig, (const uint8_t *)"bench", 5, b->sk);
}
static int cr_verify(void *a)
{
    cr_b *b = a;
    return grove_cross_verify(b->p, GROVE_CROSS_FAST, b->sig, grove_cross_sig_bytes(b->p),
                              (const uint8_t *)"bench", 5, b->pk);
}

static void cr_release(void *a)
{
    cr_b *b = a;
    free(b->pk);
    if (b->sk)
        grove_wipe(b->sk, grove_cross_sk_bytes(b->p));
    free(b->sk);
    free(b->sig);
    free(b);
}

static int add_cross(blist *l, const grove_cross_params *p)
{
    cr_b *b = calloc(1, sizeof *b);
    if (b == NULL || own(l, b, cr_release) != 0)
        return -1;
    b->p = p;
    b->pk = malloc(grove_cross_pk_bytes(p));
    b->sk = malloc(grove_cross_sk_bytes(p));
    b->sig = malloc(grove_cross_sig_bytes(p));
    if (!b->pk || !b->sk || !b->sig || cr_keygen(b) || cr_sign(b))
        return -1;
    const char *name = grove_cross_params_name(p);
    return add(l, "cross", name, "keygen", cr_keygen, b) | add(l, "cross", name, "sign", cr_sign, b) |
           add(l, "cross", name, "verify", cr_verify, b);
}

/* ---- XMSS / XMSS^MT ----------------------------------------------------------------------- */

typedef struct {
    const grove_xmss_params *p;
    unsigned threads;
    grove_xmss_key *key; /* the signing key: in memory, its state kept nowhere */
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES];
    uint8_t *sig;
} xm_b;

/* The state "persisted" by an in-memory key: nothing is written (no file, no state registry). */
static grove_status xm_persist(void *arg, const uint8_t *state, size_t state_len)
{
    (void)arg, (void)state, (void)state_len;
    return GROVE_OK;
}

static int xm_keygen(void *a)
{
    xm_b *b = a;
    grove_xmss_opts o = {b->threads, NULL, NULL};
    grove_xmss_key *k = NULL;
    int rc = grove_xmss_keygen(b->p, &k, &o);
    grove_xmss_key_free(k);
    return rc;
}

/* A fresh signing key when the current one has no signature left (not timed). */
static int xm_ready(void *a)
{
    xm_b *b = a;
    if (b->key != NULL && grove_xmss_key_remaining(b->key) > 0)
        return GROVE_OK;
    grove_xmss_key_free(b->key);
    b->key = NULL;
    grove_xmss_opts o = {b->threads, NULL, NULL};
    int rc = grove_xmss_keygen(b->p, &b->key, &o);
    if (rc == GROVE_OK)
        rc = grove_xmss_key_public_key(b->key, b->pk);
    if (rc == GROVE_OK)
        rc = grove_xmss_key_set_persist(b->key, xm_persist, NULL);
    return rc;
}

static int xm_sign(void *a)
{
    xm_b *b = a;
    return grove_xmss_key_sign(b->key, b->sig, NULL, (const uint8_t *)"bench", 5);
}

static int xm_verify(void *a)
{
    xm_b *b = a;
    return grove_xmss_verify(grove_xmss_params_family(b->p), b->sig, grove_xmss_sig_bytes(b->p),
                             (const uint8_t *)"bench", 5, b->pk, grove_xmss_pk_bytes(b->p));
}

static void xm_release(void *a)
{
    xm_b *b = a;
    grove_xmss_key_free(b->key);
    free(b->sig);
    free(b);
}

static int add_xmss(blist *l, const grove_xmss_params *p)
{
    xm_b *b = calloc(1, sizeof *b);
    if (b == NULL || own(l, b, xm_release) != 0 ||
        (b->sig = malloc(grove_xmss_sig_bytes(p))) == NULL)
        return -1;
    b->p = p;
    b->threads = l->threads;
    if (xm_ready(b) != GROVE_OK || xm_sign(b) != GROVE_OK)
        return -1;
    const char *name = grove_xmss_params_name(p);
    int r = add(l, "xmss", name, "keygen", xm_keygen, b) | add(l, "xmss", name, "sign", xm_sign, b);
    if (r == 0)
        l->c[l->n - 1].prep = xm_ready;
    return r | add(l, "xmss", name, "verify", xm_verify, b);
}

/* The sets: XMSS-SHA2_10_256 and XMSSMT-SHA2_20/4_256 by default; with --params the sets
 * whose name contains it and whose trees are at most 2^10 leaves high (key generation takes
 * seconds, not hours), or any set named in full. */
static int collect_xmss(blist *l, const char *params)
{
    int r = 0;
    for (size_t i = 0; i < grove_xmss_params_count() && r == 0; i++) {
        const grove_xmss_params *p = grove_xmss_params_at(i);
        const char *name = grove_xmss_params_name(p);
        int take = params == NULL
                       ? strcmp(name, "XMSS-SHA2_10_256") == 0 ||
                             strcmp(name, "XMSSMT-SHA2_20/4_256") == 0
                       : strcasecmp(name, params) == 0 ||
                             (strcasestr(name, params) != NULL &&
                              grove_xmss_params_tree_height(p) <= 10);
        if (take)
            r = add_xmss(l, p);
    }
    return r;
}

/* ---- Mithril STM -------------------------------------------------------------------------- */
#if GROVE_HAVE_STM

typedef struct {
    char name[48];
    grove_stm_params params;
    size_t parties;
    unsigned threads;
    uint8_t *sks, *vkpops; /* parties * 32, parties * 192 */
    uint64_t *stakes;
    grove_stm_closed *closed;
    grove_stm_avk avk;
    grove_stm_signer *signer; /* the party with the median stake */
    grove_stm_sig *sigs;
    size_t nsigs;
    grove_stm_aggregate *agg;
} st_b;

static const uint8_t st_msg[32] = "grove bench stm message 00000001";

static uint64_t st_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int st_register(void *a)
{
    st_b *b = a;
    grove_stm_keyreg *reg = NULL;
    grove_stm_closed *closed = NULL;
    int rc = grove_stm_keyreg_new(&reg);
    if (rc == GROVE_OK)
        rc = grove_stm_keyreg_add_many(reg, NULL, b->stakes, b->vkpops, b->parties, b->threads);
    if (rc == GROVE_OK)
        rc = grove_stm_keyreg_close(reg, &closed);
    grove_stm_closed_free(closed);
    grove_stm_keyreg_free(reg);
    return rc;
}

/* One party's signature: BLS signing and all m lotteries (losing them all is a result too). */
static int st_sign(void *a)
{
    st_b *b = a;
    grove_stm_sig sig;
    memset(&sig, 0, sizeof sig);
    int rc = grove_stm_sign(b->signer, &sig, st_msg, sizeof st_msg);
    grove_stm_sig_clear(&sig);
    return rc == GROVE_ERR_LOTTERY_LOST ? GROVE_OK : rc;
}

static int st_aggregate(void *a)
{
    st_b *b = a;
    grove_stm_aggregate *agg = NULL;
    int rc = grove_stm_aggregate_new(&b->params, &agg, NULL, b->sigs, b->nsigs, st_msg,
                                     sizeof st_msg, b->closed, b->threads);
    grove_stm_aggregate_free(agg);
    return rc;
}

static int st_verify(void *a)
{
    st_b *b = a;
    return grove_stm_aggregate_verify(&b->params, b->agg, st_msg, sizeof st_msg, &b->avk);
}

static void st_release(void *a)
{
    st_b *b = a;
    if (b->sks)
        grove_wipe(b->sks, b->parties * GROVE_STM_SK_BYTES);
    free(b->sks);
    free(b->vkpops);
    free(b->stakes);
    for (size_t i = 0; b->sigs && i < b->nsigs; i++)
        grove_stm_sig_clear(&b->sigs[i]);
    free(b->sigs);
    grove_stm_signer_free(b->signer);
    grove_stm_aggregate_free(b->agg);
    grove_stm_closed_free(b->closed);
    free(b);
}

/* Every party's key (fixed seeds) and stake, the registration, every party's signature. */
static int st_setup(st_b *b)
{
    size_t n = b->parties;
    b->sks = calloc(n, GROVE_STM_SK_BYTES);
    b->vkpops = calloc(n, GROVE_STM_VKPOP_BYTES);
    b->stakes = calloc(n, sizeof *b->stakes);
    b->sigs = calloc(n, sizeof *b->sigs);
    if (!b->sks || !b->vkpops || !b->stakes || !b->sigs)
        return -1;
    uint64_t x = 0x9e3779b97f4a7c15ULL ^ n;
    for (size_t i = 0; i < n; i++) {
        uint8_t seed[GROVE_STM_SEED_BYTES];
        for (size_t k = 0; k < sizeof seed; k += 8) {
            uint64_t v = st_rand(&x);
            memcpy(seed + k, &v, 8);
        }
        if (grove_stm_keygen(b->vkpops + i * GROVE_STM_VKPOP_BYTES, b->sks + i * GROVE_STM_SK_BYTES,
                             seed) != GROVE_OK)
            return -1;
        b->stakes[i] = 1 + st_rand(&x) % 999;
    }
    grove_stm_keyreg *reg = NULL;
    int rc = grove_stm_keyreg_new(&reg);
    if (rc == GROVE_OK)
        rc = grove_stm_keyreg_add_many(reg, NULL, b->stakes, b->vkpops, n, b->threads);
    if (rc == GROVE_OK)
        rc = grove_stm_keyreg_close(reg, &b->closed);
    grove_stm_keyreg_free(reg);
    if (rc != GROVE_OK)
        return -1;
    grove_stm_closed_avk(b->closed, &b->avk);
    for (size_t i = 0; i < n; i++) {
        grove_stm_signer *s = NULL;
        if (grove_stm_signer_new(&b->params, &s, b->sks + i * GROVE_STM_SK_BYTES, b->closed))
            return -1;
        rc = grove_stm_sign(s, &b->sigs[b->nsigs], st_msg, sizeof st_msg);
        if (rc == GROVE_OK)
            b->nsigs++;
        if (b->signer == NULL && grove_stm_signer_index(s) == n / 2) /* ordered by stake */
            b->signer = s;
        else
            grove_stm_signer_free(s);
        if (rc != GROVE_OK && rc != GROVE_ERR_LOTTERY_LOST)
            return -1;
    }
    if (b->signer == NULL)
        return -1;
    return grove_stm_aggregate_new(&b->params, &b->agg, NULL, b->sigs, b->nsigs, st_msg,
                                   sizeof st_msg, b->closed, b->threads) == GROVE_OK ? 0 : -1;
}

/* The groups: m, k, phi_f and the number of parties (stakes 1 to 999). */
static const struct {
    uint64_t m, k;
    double phi_f;
    size_t parties;
} st_sets[] = {{150, 25, 0.65, 30}, {150, 25, 0.2, 300}, {1523, 250, 0.2, 2000}};

static int collect_stm(blist *l, const char *params)
{
    int r = 0;
    for (size_t i = 0; i < sizeof st_sets / sizeof st_sets[0] && r == 0; i++) {
        char name[48];
        snprintf(name, sizeof name, "m%llu-k%llu-phi%g-n%zu", (unsigned long long)st_sets[i].m,
                 (unsigned long long)st_sets[i].k, st_sets[i].phi_f, st_sets[i].parties);
        if (params ? strcasestr(name, params) == NULL : i != 0)
            continue;
        st_b *b = calloc(1, sizeof *b);
        if (b == NULL || own(l, b, st_release) != 0)
            return -1;
        snprintf(b->name, sizeof b->name, "%s", name);
        b->params = (grove_stm_params){st_sets[i].m, st_sets[i].k, st_sets[i].phi_f};
        b->parties = st_sets[i].parties;
        b->threads = l->threads;
        if (st_setup(b) != 0)
            return -1;
        r = add(l, "stm", name, "register", st_register, b) |
            add(l, "stm", name, "sign", st_sign, b) |
            add(l, "stm", name, "aggregate", st_aggregate, b) |
            add(l, "stm", name, "verify", st_verify, b);
    }
    return r;
}
#endif

/* ---- BLS12-381 ------------------------------------------------------------------------------ */

#define BLS_MSM 256

typedef struct {
    grove_bls_sk sk;
    uint8_t msg[48];
    uint8_t pk_sig[96], sig_sig[48]; /* min-sig: public key in G2, signature in G1 */
    uint8_t pk_pk[48], sig_pk[96];   /* min-pk */
    uint8_t out[96], k[32];
    grove_bls_g1 g1, m1[BLS_MSM];
    grove_bls_g2 g2, m2[BLS_MSM];
    uint8_t ks[BLS_MSM * 16];
} bl_b;

static int bl_sign_sig(void *a)
{
    bl_b *b = a;
    return grove_bls_sign(GROVE_BLS_MIN_SIG, b->out, b->msg, sizeof b->msg, &b->sk, NULL, 0);
}
static int bl_verify_sig(void *a)
{
    bl_b *b = a;
    return grove_bls_verify(GROVE_BLS_MIN_SIG, b->sig_sig, 48, b->msg, sizeof b->msg, b->pk_sig, 96,
                            NULL, 0);
}
static int bl_sign_pk(void *a)
{
    bl_b *b = a;
    return grove_bls_sign(GROVE_BLS_MIN_PK, b->out, b->msg, sizeof b->msg, &b->sk, NULL, 0);
}
static int bl_verify_pk(void *a)
{
    bl_b *b = a;
    return grove_bls_verify(GROVE_BLS_MIN_PK, b->sig_pk, 96, b->msg, sizeof b->msg, b->pk_pk, 48,
                            NULL, 0);
}
static int bl_pairing(void *a)
{
    bl_b *b = a;
    grove_bls_gt r;
    return grove_bls_pairing(&r, &b->g1, &b->g2, 1);
}
static int bl_hash_g1(void *a)
{
    bl_b *b = a;
    grove_bls_g1 r;
    grove_bls_g1_hash(&r, b->msg, sizeof b->msg, NULL, 0);
    return 0;
}
static int bl_hash_g2(void *a)
{
    bl_b *b = a;
    grove_bls_g2 r;
    grove_bls_g2_hash(&r, b->msg, sizeof b->msg, NULL, 0);
    return 0;
}
static int bl_mul_g1(void *a)
{
    bl_b *b = a;
    grove_bls_g1 r;
    return grove_bls_g1_mul(&r, &b->g1, b->k, sizeof b->k);
}
static int bl_mul_g2(void *a)
{
    bl_b *b = a;
    grove_bls_g2 r;
    return grove_bls_g2_mul(&r, &b->g2, b->k, sizeof b->k);
}
static int bl_msm_g1(void *a)
{
    bl_b *b = a;
    grove_bls_g1 r;
    return grove_bls_g1_msm(&r, b->m1, b->ks, 16, BLS_MSM);
}
static int bl_msm_g2(void *a)
{
    bl_b *b = a;
    grove_bls_g2 r;
    return grove_bls_g2_msm(&r, b->m2, b->ks, 16, BLS_MSM);
}

static void bl_release(void *a)
{
    bl_b *b = a;
    grove_bls_sk_wipe(&b->sk);
    free(b);
}

static int bl_setup(bl_b *b)
{
    uint8_t ikm[32];
    for (size_t i = 0; i < sizeof ikm; i++)
        ikm[i] = (uint8_t)(3 * i + 5);
    for (size_t i = 0; i < sizeof b->msg; i++)
        b->msg[i] = (uint8_t)(7 * i + 1);
    uint64_t x = 0x9e3779b97f4a7c15ULL; /* public scalars that look random */
    for (size_t i = 0; i < sizeof b->ks; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        b->ks[i] = (uint8_t)(x >> 24);
    }
    memcpy(b->k, b->ks, sizeof b->k);
    b->k[31] &= 0x3f; /* below the group order */
    grove_bls_g1 g;
    grove_bls_g2 h;
    grove_bls_g1_generator(&g);
    grove_bls_g2_generator(&h);
    int rc = grove_bls_keygen(&b->sk, ikm, sizeof ikm, NULL, 0);
    if (rc == GROVE_OK)
        rc = grove_bls_sk_to_pk(GROVE_BLS_MIN_SIG, b->pk_sig, &b->sk);
    if (rc == GROVE_OK)
        rc = grove_bls_sign(GROVE_BLS_MIN_SIG, b->sig_sig, b->msg, sizeof b->msg, &b->sk, NULL, 0);
    if (rc == GROVE_OK)
        rc = grove_bls_sk_to_pk(GROVE_BLS_MIN_PK, b->pk_pk, &b->sk);
    if (rc == GROVE_OK)
        rc = grove_bls_sign(GROVE_BLS_MIN_PK, b->sig_pk, b->msg, sizeof b->msg, &b->sk, NULL, 0);
    if (rc == GROVE_OK)
        rc = grove_bls_g1_from_bytes(&b->g1, b->sig_sig, 48, 0);
    if (rc == GROVE_OK)
        rc = grove_bls_g2_from_bytes(&b->g2, b->pk_sig, 96, 0);
    for (size_t i = 0; i < BLS_MSM && rc == GROVE_OK; i++) {
        rc = grove_bls_g1_mul(&b->m1[i], &g, b->ks + 16 * ((i + 1) % BLS_MSM), 16);
        if (rc == GROVE_OK)
            rc = grove_bls_g2_mul(&b->m2[i], &h, b->ks + 16 * ((i + 1) % BLS_MSM), 16);
    }
    return rc == GROVE_OK ? 0 : -1;
}

static int collect_bls(blist *l, const char *params)
{
    static const struct {
        const char *set, *op;
        int (*fn)(void *);
    } ops[] = {
        {"min-sig", "sign", bl_sign_sig},  {"min-sig", "verify", bl_verify_sig},
        {"min-pk", "sign", bl_sign_pk},    {"min-pk", "verify", bl_verify_pk},
        {"pairing", "pairing", bl_pairing}, {"g1", "hash_to_g1", bl_hash_g1},
        {"g2", "hash_to_g2", bl_hash_g2},  {"g1", "scalar_mul", bl_mul_g1},
        {"g2", "scalar_mul", bl_mul_g2},   {"g1", "msm_256", bl_msm_g1},
        {"g2", "msm_256", bl_msm_g2},
    };
    bl_b *b = NULL;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (params != NULL && strcasestr(ops[i].set, params) == NULL)
            continue;
        if (b == NULL && ((b = calloc(1, sizeof *b)) == NULL || own(l, b, bl_release) != 0 ||
                          bl_setup(b) != 0))
            return -1;
        if (add(l, "bls12_381", ops[i].set, ops[i].op, ops[i].fn, b) != 0)
            return -1;
    }
    return 0;
}

/* ---- hash kernels ------------------------------------------------------------------------- */

#define HASH_BUF 16384

typedef struct {
    grove_hash_alg alg;
    size_t out_len;
    uint8_t in[HASH_BUF], out[64];
} hs_b;

static int hs_run(void *a)
{
    hs_b *b = a;
    return grove_hash(b->alg, b->out, b->out_len, b->in, sizeof b->in);
}

static int collect_hash(blist *l, const char *params, int representative)
{
    static const grove_hash_alg algs[] = {GROVE_HASH_SHA224,   GROVE_HASH_SHA256,
                                          GROVE_HASH_SHA384,   GROVE_HASH_SHA512,
                                          GROVE_HASH_SHA3_256, GROVE_HASH_SHA3_512,
                                          GROVE_HASH_SHAKE128, GROVE_HASH_SHAKE256};
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
        const char *name = grove_hash_alg_name(algs[i]);
        if (params ? strcasestr(name, params) == NULL
                   : representative && (algs[i] == GROVE_HASH_SHA224 ||
                                        algs[i] == GROVE_HASH_SHA384 ||
                                        algs[i] == GROVE_HASH_SHA3_512))
            continue;
        hs_b *b = calloc(1, sizeof *b);
        if (b == NULL || own(l, b, free) != 0)
            return -1;
        b->alg = algs[i];
        b->out_len = grove_hash_digest_bytes(algs[i]) ? grove_hash_digest_bytes(algs[i]) : 32;
        for (size_t k = 0; k < sizeof b->in; k++)
            b->in[k] = (uint8_t)(k * 31 + 7);
        if (add(l, "hash", name, "16KiB", hs_run, b) != 0)
            return -1;
        l->c[l->n - 1].bytes = HASH_BUF;
    }
    return 0;
}

/* ---- driver ------------------------------------------------------------------------------- */

/* The schemes grove bench knows, in the order it measures them. */
enum { B_SLHDSA, B_SPHINCS, B_CROSS, B_XMSS, B_STM, B_BLS, B_DGSP, B_HASH, B_COUNT };
static const char *const scheme_names[B_COUNT] = {"slhdsa", "sphincs", "cross", "xmss",
                                                  "stm",    "bls12_381", "dgsp", "hash"};
#define SCHEME_LIST "slhdsa, sphincs, cross, xmss, stm, bls12_381 (bls), dgsp, hash"

static int scheme_index(const char *name)
{
    if (strcmp(name, "bls") == 0)
        return B_BLS;
    for (int i = 0; i < B_COUNT; i++)
        if (strcmp(name, scheme_names[i]) == 0)
            return i;
    return -1;
}

static int collect_spx(blist *l, int fips, const char *params, int representative)
{
    int r = 0;
    for (size_t i = 0; grove_slhdsa_params_at(i) && r == 0; i++) {
        const grove_slhdsa_params *p = grove_slhdsa_params_at(i);
        if (grove_slhdsa_params_is_fips205(p) != fips)
            continue;
        const char *name = grove_slhdsa_params_name(p);
        if (params ? strcasestr(name, params) == NULL
                   : representative && strcmp(name, "SLH-DSA-SHAKE-128f") != 0 &&
                         strcmp(name, "SLH-DSA-SHA2-128f") != 0 &&
                         strcmp(name, "sphincs-shake-128f-simple") != 0)
            continue;
        r = add_spx(l, fips ? "slhdsa" : "sphincs", p);
    }
    return r;
}

static int collect_cross(blist *l, const char *params, int representative)
{
    int r = 0;
    for (size_t i = 0; i < grove_cross_params_count() && r == 0; i++) {
        const grove_cross_params *p = grove_cross_params_at(i);
        const char *name = grove_cross_params_name(p);
        if (params ? strcasestr(name, params) == NULL
                   : representative && strcmp(name, "CROSS-RSDP-1-fast") != 0)
            continue;
        r = add_cross(l, p);
    }
    return r;
}

#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
static int collect_dgsp(blist *l, const char *params, int representative)
{
    static const char *sets[] = {"shake-128f", "sha2-128f", "shake-256f", "sha2-256f",
                                 "shake-192f", "sha2-192f", "shake-128s", "sha2-128s",
                                 "shake-192s", "sha2-192s", "shake-256s", "sha2-256s"};
    int r = 0;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0] && r == 0; i++) {
        if (params ? strstr(sets[i], params) == NULL : (representative ? i != 1 : i > 5))
            continue;
        r = add_dgsp(l, sets[i]);
    }
    return r;
}
#endif

/* The cases of one scheme; representative: the scheme was not named (grove bench alone). */
static int collect_one(blist *l, int scheme, const char *params, int representative)
{
    switch (scheme) {
    case B_SLHDSA:
        return collect_spx(l, 1, params, representative);
    case B_SPHINCS:
        return collect_spx(l, 0, params, representative);
    case B_CROSS:
        return collect_cross(l, params, representative);
    case B_XMSS:
        return collect_xmss(l, params);
#if GROVE_HAVE_STM
    case B_STM:
        return collect_stm(l, params);
#endif
    case B_BLS:
        return collect_bls(l, params);
#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
    case B_DGSP:
        return collect_dgsp(l, params, representative);
#endif
    case B_HASH:
        return collect_hash(l, params, representative);
    default:
        return 0; /* not in this build */
    }
}

/* Which schemes: each named one once (any order, `bls` = bls12_381), else all. 0 or exit 2. */
static int pick_schemes(cli_ctx *c, int n, const char *const *names, int want[B_COUNT])
{
    for (int i = 0; i < B_COUNT; i++)
        want[i] = n == 0;
    for (int i = 0; i < n; i++) {
        int k = scheme_index(names[i]);
        if (k < 0)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                            "unknown scheme '%s' for grove bench (one of " SCHEME_LIST ")",
                            names[i]);
#if !GROVE_HAVE_STM
        if (k == B_STM)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                            "this build has no STM (GROVE_WITH_STM=OFF)");
#endif
#if !(GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE)
        if (k == B_DGSP)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                            "this build has no DGSP with SQLite");
#endif
        want[k] = 1;
    }
    return 0;
}

/* The cases: --params filters the sets of every scheme chosen; nothing left is exit 2. */
static int collect(cli_ctx *c, blist *l, int n, const char *const *names, const char *params)
{
    int want[B_COUNT];
    int rc = pick_schemes(c, n, names, want);
    for (int k = 0; k < B_COUNT && rc == 0; k++)
        if (want[k] && collect_one(l, k, params, n == 0) != 0)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INTERNAL, "setting up %s failed",
                            scheme_names[k]);
    if (rc == 0 && l->n == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "nothing to measure: no parameter set matches --params '%s' (see 'grove "
                        "<scheme> params')",
                        params ? params : "");
    return rc;
}

/* "model name" of /proc/cpuinfo, or "unknown". */
static void cpu_model(char *out, size_t cap)
{
    snprintf(out, cap, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return;
    char line[512];
    while (fgets(line, sizeof line, f) != NULL) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || colon == NULL)
            continue;
        char *v = colon + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        v[strcspn(v, "\r\n")] = '\0';
        if (*v != '\0')
            snprintf(out, cap, "%s", v);
        break;
    }
    fclose(f);
}

/* The header: version, CPU model, online CPUs, hash code path, threads, time per case. */
static void out_header(cli_ctx *c, unsigned threads, uint64_t ms)
{
    char model[256];
    cpu_model(model, sizeof model);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1)
        cpus = 1;
    unsigned used = threads == GROVE_THREADS_AUTO ? (unsigned)cpus : threads;
    cli_say(c, "grove %s on %s (%ld CPUs online), hash path %s", grove_version(), model, cpus,
            grove_cpu_path());
    cli_say(c, "threads %u%s; each case runs about %llu ms", used,
            threads == GROVE_THREADS_AUTO ? " (one per CPU)" : "", (unsigned long long)ms);
    cli_say(c, "%-9s %-28s %-15s %12s %16s %12s", "scheme", "set", "operation", "median",
            "p10-p90 ms", "ops/s");
    cli_out_str(c, "grove_version", grove_version());
    cli_out_str(c, "cpu_model", model);
    cli_out_int(c, "cpus_online", cpus);
    cli_out_str(c, "cpu_path", grove_cpu_path());
    cli_out_u64(c, "threads", threads);
    cli_out_u64(c, "threads_used", used);
    cli_out_u64(c, "time_ms", ms);
}

/* One element of "results": {"scheme", "set", "op", "iterations", "median_ms", "p10_ms",
 * "p90_ms", "ops_per_sec"[, "bytes", "mb_per_sec", "cpu_path"]} (milliseconds with 6
 * decimals), and the table row. */
static void out_result(cli_ctx *c, const bcase *b, const bench_stats *st)
{
    static const char *const keys[3] = {"median_ms", "p10_ms", "p90_ms"};
    const uint64_t ns[3] = {st->median_ns, st->p10_ns, st->p90_ns};
    double med_s = (double)(st->median_ns ? st->median_ns : 1) / 1e9;
    char num[48];
    cli_out_begin_object(c, NULL);
    cli_out_str(c, "scheme", b->scheme);
    cli_out_str(c, "set", b->set);
    cli_out_str(c, "op", b->op);
    cli_out_u64(c, "iterations", st->iterations);
    for (int i = 0; i < 3; i++) {
        snprintf(num, sizeof num, "%.6f", (double)ns[i] / 1e6);
        cli_out_raw(c, keys[i], num);
    }
    snprintf(num, sizeof num, "%.1f", 1.0 / med_s);
    cli_out_raw(c, "ops_per_sec", num);
    char spread[40], rate[40];
    snprintf(spread, sizeof spread, "%.3g-%.3g", (double)st->p10_ns / 1e6,
             (double)st->p90_ns / 1e6);
    snprintf(rate, sizeof rate, "%.1f", 1.0 / med_s);
    if (b->bytes) {
        double mbs = (double)b->bytes / med_s / 1e6;
        cli_out_u64(c, "bytes", b->bytes);
        snprintf(num, sizeof num, "%.1f", mbs);
        cli_out_raw(c, "mb_per_sec", num);
        cli_out_str(c, "cpu_path", grove_cpu_path());
        snprintf(rate, sizeof rate, "%.1f MB/s", mbs);
    }
    cli_out_end(c);
    cli_say(c, "%-9s %-28s %-15s %9.3f ms %16s %12s", b->scheme, b->set, b->op,
            (double)st->median_ns / 1e6, spread, rate);
}

int cli_bench(cli_ctx *c, int nschemes, const char *const *schemes);
int cli_bench(cli_ctx *c, int nschemes, const char *const *schemes)
{
    uint64_t ms, threads;
    if (cli_opt_u64(c, "time", 1, 600000, 500, &ms) ||
        cli_opt_u64(c, "threads", 0, 1024, GROVE_THREADS_AUTO, &threads))
        return CLI_EXIT_USAGE;
    blist l = {NULL, 0, 0, NULL, 0, 0, (unsigned)threads};
    int rc = collect(c, &l, nschemes, schemes, cli_opt_str(c, "params"));
    if (rc) {
        release_all(&l);
        return rc;
    }
    out_header(c, l.threads, ms);
    cli_out_begin_array(c, "results");
    cli_progress_line pl;
    cli_progress_begin(c, &pl, "bench");
    for (size_t i = 0; i < l.n; i++) {
        bcase *b = &l.c[i];
        char label[160];
        snprintf(label, sizeof label, "%s %s %s", b->scheme, b->set, b->op);
        cli_progress_step(&pl, i, l.n, label);
        bench_stats st;
        if ((b->prep && b->prep(b->ctx) != GROVE_OK) || b->fn(b->ctx) != GROVE_OK ||
            bench_time(b->fn, b->prep, b->ctx, (double)ms / 1e3, 0, &st) != 0) {
            cli_progress_end(&pl);
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INTERNAL, "%s failed", label);
            break;
        }
        cli_progress_clear(&pl);
        out_result(c, b, &st);
    }
    cli_progress_end(&pl);
    cli_out_end(c);
    release_all(&l);
    return rc;
}
