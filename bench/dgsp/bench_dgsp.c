/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * DGSP: every operation per parameter set at batch 1 and 8 (keygen_manager, join, csr,
 * gen_cert, check_cert, sign, verify, open, judge, revoke), in-memory store, one thread unless
 * the case name says otherwise. "revoke" revokes a member holding `batch` certificates.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "dgsp/dgsp_int.h"
#include "grove/dgsp.h"

typedef struct {
    grove_dgsp_cfg cfg;
    size_t batch;
    unsigned threads;
    uint8_t pk[64], sk[192], seed_u[32], cid_star[32];
    uint64_t id, joined;
    grove_dgsp_store *store;
    uint8_t *pks, *seeds, *certs, *sig;
    grove_dgsp_wallet *w;
    char name[64];
} dctx;

static int setup(void *arg)
{
    dctx *d = arg;
    if (d->store)
        return 0;
    size_t n = d->cfg.n, cb = grove_dgsp_cert_bytes(&d->cfg);
    d->pks = malloc(8 * n);
    d->seeds = malloc(8 * n);
    d->certs = malloc(8 * cb);
    d->sig = malloc(grove_dgsp_sig_bytes(&d->cfg));
    if (!d->pks || !d->seeds || !d->certs || !d->sig)
        return 1;
    if (grove_dgsp_keygen_manager(&d->cfg, d->pk, d->sk) || grove_dgsp_store_memory_open(&d->store))
        return 1;
    /* a group of 1024 members */
    for (int i = 0; i < 1024; i++) {
        char u[32];
        snprintf(u, sizeof u, "member-%d", i);
        if (grove_dgsp_join(&d->cfg, d->store, &d->id, d->cid_star, u, d->sk))
            return 1;
    }
    d->joined = 1024;
    if (grove_dgsp_keygen_user(&d->cfg, d->seed_u) ||
        grove_dgsp_csr(&d->cfg, d->pks, d->seeds, 8, d->seed_u) ||
        grove_dgsp_gen_cert(&d->cfg, d->store, d->certs, d->pks, 8, d->id, d->cid_star, d->sk, 1))
        return 1;
    if (grove_dgsp_wallet_memory_open(&d->cfg, &d->w, d->seed_u, d->id, d->cid_star))
        return 1;
    for (size_t i = 0; i < 8; i++)
        if (grove_dgsp_wallet_add(d->w, d->seeds + i * n, d->certs + i * cb))
            return 1;
    return grove_dgsp_wallet_sign(d->w, d->sig, (const uint8_t *)"m", 1);
}

static int op_keygen(void *arg)
{
    dctx *d = arg;
    uint8_t pk[64], sk[192];
    return grove_dgsp_keygen_manager(&d->cfg, pk, sk);
}
static int op_join(void *arg)
{
    dctx *d = arg;
    char u[32];
    uint64_t id;
    uint8_t cs[32];
    snprintf(u, sizeof u, "joiner-%llu", (unsigned long long)d->joined++);
    return grove_dgsp_join(&d->cfg, d->store, &id, cs, u, d->sk);
}
static int op_csr(void *arg)
{
    dctx *d = arg;
    uint8_t pks[8 * 32], seeds[8 * 32];
    return grove_dgsp_csr(&d->cfg, pks, seeds, d->batch, d->seed_u);
}
static int op_gen_cert(void *arg)
{
    dctx *d = arg;
    return grove_dgsp_gen_cert(&d->cfg, d->store, d->certs, d->pks, d->batch, d->id, d->cid_star,
                               d->sk, d->threads);
}
static int op_check_cert(void *arg)
{
    dctx *d = arg;
    return grove_dgsp_check_cert(&d->cfg, d->certs, d->pks, d->batch, d->id, d->pk);
}
/* The signature itself (the wallet's bookkeeping is a few memory writes): the same
 * certificate is reused here, in the benchmark only. */
static int op_sign(void *arg)
{
    dctx *d = arg;
    return dgsp_sign_raw(&d->cfg, (const uint8_t *)"m", 1, d->seed_u, d->id, d->seeds, d->certs,
                         d->sig, 0);
}
static int op_verify(void *arg)
{
    dctx *d = arg;
    return grove_dgsp_verify(&d->cfg, d->sig, grove_dgsp_sig_bytes(&d->cfg), (const uint8_t *)"m",
                             1, d->pk, d->store);
}
static int op_open(void *arg)
{
    dctx *d = arg;
    uint64_t id;
    uint8_t pi[32];
    char u[256];
    return grove_dgsp_open(&d->cfg, d->store, &id, u, pi, d->sig, grove_dgsp_sig_bytes(&d->cfg),
                           (const uint8_t *)"m", 1, d->sk);
}
static int op_judge(void *arg)
{
    dctx *d = arg;
    uint64_t id;
    uint8_t pi[32];
    int r = grove_dgsp_open(&d->cfg, d->store, &id, NULL, pi, d->sig, grove_dgsp_sig_bytes(&d->cfg),
                            (const uint8_t *)"m", 1, d->sk);
    return r ? r : grove_dgsp_judge(&d->cfg, d->sig, grove_dgsp_sig_bytes(&d->cfg),
                                    (const uint8_t *)"m", 1, id, pi);
}
/* revoke: a fresh member that was issued `batch` counters (reservation only, no signing) */
static int op_revoke(void *arg)
{
    dctx *d = arg;
    char u[32];
    uint64_t id, first;
    uint8_t cs[32];
    snprintf(u, sizeof u, "revokee-%llu", (unsigned long long)d->joined++);
    int r = grove_dgsp_join(&d->cfg, d->store, &id, cs, u, d->sk);
    if (r == GROVE_OK)
        r = d->store->ops->reserve(d->store->ctx, id, d->batch, &first);
    return r ? r : grove_dgsp_revoke(&d->cfg, d->store, NULL, &id, 1, d->sk);
}

int main(int argc, char **argv)
{
    static const char *sets[] = {"shake-128f", "sha2-128f", "shake-256f", "sha2-256f",
                                 "shake-192f", "sha2-192f", "shake-128s", "sha2-128s",
                                 "shake-192s", "sha2-192s", "shake-256s", "sha2-256s"};
    bench_suite s = {.name = "dgsp"};
    static dctx ctx[12][3];
    for (size_t i = 0; i < 12; i++) {
        for (size_t v = 0; v < 3; v++) {
            dctx *d = &ctx[i][v];
            if (grove_dgsp_cfg_init(&d->cfg, grove_dgsp_params_get(sets[i]), GROVE_DGSP_FLAVOUR_R31,
                                    GROVE_DGSP_PROFILE_GROVE))
                return 2;
            d->batch = v == 0 ? 1 : 8;
            d->threads = v == 2 ? 2 : 1;
            snprintf(d->name, sizeof d->name, "%s b%zu%s", sets[i], d->batch, v == 2 ? " t2" : "");
        }
        dctx *b1 = &ctx[i][0], *b8 = &ctx[i][1], *t2 = &ctx[i][2];
        bench_add(&s, b1->name, "keygen_manager", op_keygen, b1, setup);
        bench_add(&s, b1->name, "join", op_join, b1, setup);
        bench_add(&s, b1->name, "csr", op_csr, b1, setup);
        bench_add(&s, b8->name, "csr", op_csr, b8, setup);
        bench_add(&s, b1->name, "gen_cert", op_gen_cert, b1, setup);
        bench_add(&s, b8->name, "gen_cert", op_gen_cert, b8, setup);
        bench_add(&s, t2->name, "gen_cert", op_gen_cert, t2, setup);
        bench_add(&s, b1->name, "check_cert", op_check_cert, b1, setup);
        bench_add(&s, b8->name, "check_cert", op_check_cert, b8, setup);
        bench_add(&s, b1->name, "sign", op_sign, b1, setup);
        bench_add(&s, b1->name, "verify", op_verify, b1, setup);
        bench_add(&s, b1->name, "open", op_open, b1, setup);
        bench_add(&s, b1->name, "judge", op_judge, b1, setup);
        bench_add(&s, b1->name, "revoke", op_revoke, b1, setup);
        bench_add(&s, b8->name, "revoke", op_revoke, b8, setup);
    }
    int rc = bench_main(&s, argc, argv);
    for (size_t i = 0; i < 12; i++) {
        for (size_t v = 0; v < 3; v++) {
            dctx *d = &ctx[i][v];
            grove_dgsp_wallet_close(d->w);
            grove_dgsp_store_close(d->store);
            free(d->pks);
            free(d->seeds);
            free(d->certs);
            free(d->sig);
        }
    }
    free(s.cases);
    return rc;
}
