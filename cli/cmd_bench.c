/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove bench [scheme] [--params NAME] [--time SEC] [--json]: like `openssl speed`. Times
 * key generation, signing and verification (and every DGSP operation) per parameter set and
 * prints the median, the spread (10th to 90th percentile) and operations per second, with the
 * hash code path in use. Without a scheme, a representative set of each scheme is measured.
 * The timing loop and its statistics are the bench programs' (bench/support/bench.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
                               1);
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

/* ---- driver ------------------------------------------------------------------------------- */

static int collect(cli_ctx *c, blist *l, const char *scheme, const char *params)
{
    int all = scheme == NULL;
    int r = 0;
    if (all || strcmp(scheme, "slhdsa") == 0 || strcmp(scheme, "sphincs") == 0) {
        int fips = !(scheme && strcmp(scheme, "sphincs") == 0);
        for (size_t i = 0; grove_slhdsa_params_at(i) && r == 0; i++) {
            const grove_slhdsa_params *p = grove_slhdsa_params_at(i);
            if (grove_slhdsa_params_is_fips205(p) != fips)
                continue;
            const char *name = grove_slhdsa_params_name(p);
            if (params ? strcasestr(name, params) == NULL
                       : (all && strcmp(name, "SLH-DSA-SHAKE-128f") != 0 &&
                          strcmp(name, "SLH-DSA-SHA2-128f") != 0))
                continue;
            r = add_spx(l, fips ? "slhdsa" : "sphincs", p);
        }
    }
#if GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE
    if (r == 0 && (all || strcmp(scheme, "dgsp") == 0)) {
        static const char *sets[] = {"shake-128f", "sha2-128f", "shake-256f", "sha2-256f",
                                     "shake-192f", "sha2-192f", "shake-128s", "sha2-128s",
                                     "shake-192s", "sha2-192s", "shake-256s", "sha2-256s"};
        for (size_t i = 0; i < 12 && r == 0; i++) {
            if (params ? strstr(sets[i], params) == NULL : (all ? i != 2 : i > 5))
                continue;
            r = add_dgsp(l, sets[i]);
        }
    }
#endif
    if (r == 0 && (all || strcmp(scheme, "cross") == 0)) {
        for (size_t i = 0; i < grove_cross_params_count() && r == 0; i++) {
            const grove_cross_params *p = grove_cross_params_at(i);
            const char *name = grove_cross_params_name(p);
            if (params ? strcasestr(name, params) == NULL
                       : (all && strcmp(name, "CROSS-RSDP-1-fast") != 0))
                continue;
            r = add_cross(l, p);
        }
    }
    if (r != 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INTERNAL, "benchmark setup failed");
    if (l->n == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "nothing to measure: scheme one of slhdsa, sphincs, dgsp, cross; --params "
                        "a part of a parameter set name");
    return 0;
}

/* One element of "results": {"scheme", "set", "op", "iterations", "median_ms", "p10_ms",
 * "p90_ms"} (milliseconds with 6 decimals, as docs/benchmarks.md shows them). */
static void out_result(cli_ctx *c, const bcase *b, const bench_stats *st)
{
    static const char *const keys[3] = {"median_ms", "p10_ms", "p90_ms"};
    const uint64_t ns[3] = {st->median_ns, st->p10_ns, st->p90_ns};
    cli_out_begin_object(c, NULL);
    cli_out_str(c, "scheme", b->scheme);
    cli_out_str(c, "set", b->set);
    cli_out_str(c, "op", b->op);
    cli_out_u64(c, "iterations", st->iterations);
    for (int i = 0; i < 3; i++) {
        char ms[32];
        snprintf(ms, sizeof ms, "%.6f", (double)ns[i] / 1e6);
        cli_out_raw(c, keys[i], ms);
    }
    cli_out_end(c);
}

int cli_bench(cli_ctx *c, const char *scheme);
int cli_bench(cli_ctx *c, const char *scheme)
{
    uint64_t ms;
    if (cli_opt_u64(c, "time", 10, 600000, 500, &ms))
        return CLI_EXIT_USAGE;
    if (scheme && strcmp(scheme, "slhdsa") && strcmp(scheme, "sphincs") && strcmp(scheme, "dgsp") &&
        strcmp(scheme, "cross"))
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "grove bench knows slhdsa, sphincs, dgsp and cross");
    blist l = {NULL, 0, 0, NULL, 0, 0};
    int rc = collect(c, &l, scheme, cli_opt_str(c, "params"));
    if (rc) {
        release_all(&l);
        return rc;
    }
    cli_say(c, "grove %s, hash path %s; each case runs about %llu ms", grove_version(),
            grove_cpu_path(), (unsigned long long)ms);
    cli_say(c, "%-8s %-26s %-15s %12s %12s %10s", "scheme", "set", "operation", "median", "p10-p90",
            "ops/s");
    cli_out_str(c, "cpu_path", grove_cpu_path());
    cli_out_begin_array(c, "results");
    for (size_t i = 0; i < l.n; i++) {
        bcase *b = &l.c[i];
        bench_stats st;
        if ((b->prep && b->prep(b->ctx) != GROVE_OK) || b->fn(b->ctx) != GROVE_OK ||
            bench_time(b->fn, b->prep, b->ctx, (double)ms / 1e3, 0, &st) != 0) {
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INTERNAL, "%s %s %s failed", b->scheme,
                          b->set, b->op);
            break;
        }
        double med = (double)st.median_ns / 1e6, p10 = (double)st.p10_ns / 1e6,
               p90 = (double)st.p90_ns / 1e6;
        char spread[40];
        snprintf(spread, sizeof spread, "%.3g-%.3g", p10, p90);
        cli_say(c, "%-8s %-26s %-15s %9.3f ms %12s %10.1f", b->scheme, b->set, b->op, med, spread,
                1e3 / med);
        out_result(c, b, &st);
    }
    cli_out_end(c);
    release_all(&l);
    return rc;
}
