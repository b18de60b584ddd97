/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * DGSP: every operation per parameter set at batch 1 and 8 (keygen_manager, join, csr,
 * gen_cert, check_cert, sign, verify, open, judge, revoke), in-memory store, one thread unless
 * the case name says otherwise. "revoke" revokes a member holding `batch` certificates.
 *
 * `bench_dgsp --count N SET OP` is the mode bench/compare.sh --dgsp uses to put grove next to
 * the dgsp crate: one warm OP, then N more through bench_measured_op() (the function callgrind's
 * --toggle-collect counts), one thread, and it prints the process CPU time per operation
 * (CLOCK_PROCESS_CPUTIME_ID) as "cpu_ns_per_op <ns>". OP: keygen, join, gen_cert (a batch of 8,
 * reported per certificate), sign, verify, open, judge (the judge call alone, pi from one open
 * in the setup), revoke (a member holding 8 certificates) or verify_open (the same as open,
 * which verifies first: the name of the crate's verify + open). Whatever an operation consumes
 * (a fresh username to join, a fresh member to revoke) is prepared before the clock starts.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    /* --count mode: what each measured call consumes, prepared before the clock */
    char (*names)[32];
    uint64_t *revokees;
    size_t next;
    uint8_t pi[32];
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

/* ---- --count mode --------------------------------------------------------------------------- */

static int cnt_join(void *arg)
{
    dctx *d = arg;
    uint64_t id;
    uint8_t cs[32];
    return grove_dgsp_join(&d->cfg, d->store, &id, cs, d->names[d->next++], d->sk);
}
static int cnt_judge(void *arg)
{
    dctx *d = arg;
    return grove_dgsp_judge(&d->cfg, d->sig, grove_dgsp_sig_bytes(&d->cfg), (const uint8_t *)"m",
                            1, d->id, d->pi);
}
static int cnt_revoke(void *arg)
{
    dctx *d = arg;
    return grove_dgsp_revoke(&d->cfg, d->store, NULL, &d->revokees[d->next++], 1, d->sk);
}

/* What the consuming operations use up: n + 1 usernames or members of 8 certificates. */
static int count_prepare(dctx *d, bench_fn op, size_t n)
{
    if (op == cnt_join) {
        d->names = calloc(n + 1, sizeof *d->names);
        if (d->names == NULL)
            return 1;
        for (size_t i = 0; i <= n; i++)
            snprintf(d->names[i], sizeof d->names[i], "joiner-%zu", i);
    } else if (op == cnt_revoke) {
        d->revokees = calloc(n + 1, sizeof *d->revokees);
        if (d->revokees == NULL)
            return 1;
        for (size_t i = 0; i <= n; i++) {
            char u[32];
            uint8_t cs[32];
            uint64_t first;
            snprintf(u, sizeof u, "revokee-%zu", i);
            if (grove_dgsp_join(&d->cfg, d->store, &d->revokees[i], cs, u, d->sk) ||
                d->store->ops->reserve(d->store->ctx, d->revokees[i], 8, &first))
                return 1;
        }
    } else if (op == cnt_judge) {
        uint64_t id;
        if (grove_dgsp_open(&d->cfg, d->store, &id, NULL, d->pi, d->sig,
                            grove_dgsp_sig_bytes(&d->cfg), (const uint8_t *)"m", 1, d->sk) ||
            id != d->id)
            return 1;
    }
    return 0;
}

static int count_mode(const char *count, const char *set, const char *opname)
{
    static const struct {
        const char *name;
        bench_fn fn;
    } ops[] = {{"keygen", op_keygen}, {"join", cnt_join},     {"gen_cert", op_gen_cert},
               {"sign", op_sign},     {"verify", op_verify},  {"open", op_open},
               {"judge", cnt_judge},  {"revoke", cnt_revoke},  {"verify_open", op_open}};
    char *end;
    long n = strtol(count, &end, 10);
    bench_fn op = NULL;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(opname, ops[i].name) == 0)
            op = ops[i].fn;
    static dctx d; /* static: large, and zeroed */
    const grove_dgsp_params *p = grove_dgsp_params_get(set);
    if (*end != '\0' || n < 1 || n > 10000000 || p == NULL || op == NULL ||
        grove_dgsp_cfg_init(&d.cfg, p, GROVE_DGSP_FLAVOUR_R31, GROVE_DGSP_PROFILE_GROVE)) {
        fprintf(stderr, "usage: bench_dgsp --count N SET "
                        "keygen|join|gen_cert|sign|verify|open|judge|revoke|verify_open\n");
        return 2;
    }
    d.batch = op == op_gen_cert ? 8 : 1;
    d.threads = 1;
    /* the group, a certificate batch and a signature; then one warm operation */
    double per = 0;
    int rc = setup(&d) || count_prepare(&d, op, (size_t)n) || op(&d);
    if (rc == 0)
        rc = bench_count_calls(op, &d, n, &per);
    grove_dgsp_wallet_close(d.w);
    grove_dgsp_store_close(d.store);
    grove_wipe(d.sk, sizeof d.sk);
    grove_wipe(d.seed_u, sizeof d.seed_u);
    free(d.pks);
    free(d.seeds);
    free(d.certs);
    free(d.sig);
    free(d.names);
    free(d.revokees);
    if (rc != 0) {
        fprintf(stderr, "bench_dgsp: %s %s failed\n", set, opname);
        return 1;
    }
    printf("cpu_ns_per_op %.0f\n", per / (double)d.batch);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--count") == 0)
        return count_mode(argv[2], argv[3], argv[4]);
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
