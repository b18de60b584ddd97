/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * DGSP stores: member-list and revocation-list operations for the in-memory and the SQLite
 * backend at group sizes 2^10 and 2^20 (2^25 with --big): single join (one durable
 * transaction), batch join (per member, 1000 per transaction), counter reservation, member
 * lookup, revocation of a member holding 1000 certificates, and verification (shake-128f)
 * against a revocation list of 10^6 entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "common/util.h"
#include "grove/dgsp.h"

typedef struct {
    const char *backend;
    unsigned log_size;
    grove_dgsp_store *store;
    char path[256];
    uint64_t next;   /* next username number */
    uint64_t filled; /* members named m<k> for k < filled */
    grove_dgsp_cfg cfg;
    uint8_t pk[64], sk[192], *sig;
    int ready;
} sctx;

static grove_dgsp_cfg g_cfg;
static uint8_t g_pk[64], g_sk[192], *g_sig;
static size_t g_siglen;

static int fill(sctx *s, uint64_t count)
{
    enum { CHUNK = 10000 };
    char *names = malloc((size_t)CHUNK * 24);
    const char **ptrs = malloc(CHUNK * sizeof *ptrs);
    int r = names && ptrs ? GROVE_OK : GROVE_ERR_NOMEM;
    for (uint64_t done = 0; done < count && r == GROVE_OK;) {
        size_t k = count - done < CHUNK ? (size_t)(count - done) : CHUNK;
        for (size_t i = 0; i < k; i++) {
            snprintf(names + 24 * i, 24, "m%llu", (unsigned long long)s->filled++);
            ptrs[i] = names + 24 * i;
        }
        r = s->store->ops->add_members(s->store->ctx, ptrs, k, NULL);
        done += k;
    }
    free(names);
    free(ptrs);
    return r;
}

static int setup(void *arg)
{
    sctx *s = arg;
    if (s->ready)
        return 0;
    int r;
    if (strcmp(s->backend, "memory") == 0) {
        r = grove_dgsp_store_memory_open(&s->store);
    } else {
        snprintf(s->path, sizeof s->path, "/tmp/grove-bench-store-%d-%u.db", (int)getpid(),
                 s->log_size);
        unlink(s->path);
        r = grove_dgsp_store_sqlite_open(&s->store, s->path, 1);
    }
    if (r == GROVE_OK)
        r = fill(s, (uint64_t)1 << s->log_size);
    /* a revocation list of 10^6 entries */
    enum { NREV = 1000000 };
    uint8_t *z = r == GROVE_OK ? malloc(16 * (size_t)NREV) : NULL;
    if (r == GROVE_OK && z == NULL)
        r = GROVE_ERR_NOMEM;
    if (r == GROVE_OK)
        r = grove_randombytes(z, 16 * (size_t)NREV);
    if (r == GROVE_OK)
        r = s->store->ops->add_revoked(s->store->ctx, z, NREV);
    free(z);
    s->ready = r == GROVE_OK;
    return r;
}

static int op_join(void *arg)
{
    sctx *s = arg;
    char name[32];
    uint64_t id;
    uint8_t cs[32];
    snprintf(name, sizeof name, "j%llu", (unsigned long long)s->next++);
    return grove_dgsp_join(&g_cfg, s->store, &id, cs, name, g_sk);
}

static int op_join_batch(void *arg)
{
    return fill(arg, 1000);
}

static int op_reserve(void *arg)
{
    sctx *s = arg;
    uint64_t first;
    return s->store->ops->reserve(s->store->ctx, 5, 1, &first);
}

static int op_lookup(void *arg)
{
    sctx *s = arg;
    grove_dgsp_member m;
    uint64_t id;
    char name[32];
    snprintf(name, sizeof name, "m%llu", (unsigned long long)(s->filled / 2));
    int r = s->store->ops->find_member(s->store->ctx, name, &id);
    return r ? r : s->store->ops->get_member(s->store->ctx, id, &m);
}

static int op_revoke1000(void *arg)
{
    sctx *s = arg;
    char name[32];
    uint64_t id, first;
    uint8_t cs[32];
    snprintf(name, sizeof name, "r%llu", (unsigned long long)s->next++);
    int r = grove_dgsp_join(&g_cfg, s->store, &id, cs, name, g_sk);
    if (r == GROVE_OK)
        r = s->store->ops->reserve(s->store->ctx, id, 1000, &first);
    return r ? r : grove_dgsp_revoke(&g_cfg, s->store, NULL, &id, 1, g_sk);
}

static int op_is_revoked(void *arg)
{
    sctx *s = arg;
    bool present;
    uint8_t z[16] = {1, 2, 3};
    return s->store->ops->is_revoked(s->store->ctx, z, &present);
}

static int op_verify_rl(void *arg)
{
    sctx *s = arg;
    return grove_dgsp_verify(&g_cfg, g_sig, g_siglen, (const uint8_t *)"m", 1, g_pk, s->store);
}

int main(int argc, char **argv)
{
    int big = 0;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--big") == 0) {
            big = 1;
            for (int j = i; j < argc - 1; j++)
                argv[j] = argv[j + 1];
            argc--;
        }
    if (grove_dgsp_cfg_init(&g_cfg, grove_dgsp_params_get("shake-128f"), GROVE_DGSP_FLAVOUR_R31,
                            GROVE_DGSP_PROFILE_GROVE) ||
        grove_dgsp_keygen_manager(&g_cfg, g_pk, g_sk))
        return 2;
    /* one valid signature for the verify case */
    {
        grove_dgsp_store *st;
        grove_dgsp_wallet *w;
        uint64_t id;
        uint8_t cs[32], pks[16];
        uint8_t *cert = malloc(grove_dgsp_cert_bytes(&g_cfg));
        g_siglen = grove_dgsp_sig_bytes(&g_cfg);
        g_sig = malloc(g_siglen);
        if (!cert || !g_sig || grove_dgsp_store_memory_open(&st) ||
            grove_dgsp_join(&g_cfg, st, &id, cs, "x", g_sk) ||
            grove_dgsp_wallet_memory_open(&g_cfg, &w, NULL, id,
                                          cs) || grove_dgsp_wallet_csr(w, pks, 1) ||
            grove_dgsp_gen_cert(&g_cfg, st, cert, pks, 1, id, cs, g_sk, 1) ||
            grove_dgsp_wallet_import(w, cert, pks, 1, g_pk) ||
            grove_dgsp_wallet_sign(w, g_sig, (const uint8_t *)"m", 1))
            return 2;
        grove_dgsp_wallet_close(w);
        grove_dgsp_store_close(st);
        free(cert);
    }
    static const char *backends[] = {"memory", "sqlite"};
    unsigned sizes[3] = {10, 20, 25};
    static sctx ctx[2][3];
    static char names[2][3][32];
    bench_suite s = {.name = "dgsp-store"};
    for (int b = 0; b < 2; b++) {
        for (int z = 0; z < (big ? 3 : 2); z++) {
            sctx *c = &ctx[b][z];
            c->backend = backends[b];
            c->log_size = sizes[z];
            snprintf(names[b][z], sizeof names[b][z], "%s 2^%u", backends[b], sizes[z]);
            bench_add(&s, names[b][z], "join", op_join, c, setup);
            bench_add(&s, names[b][z], "join_batch_1000", op_join_batch, c, setup);
            bench_add(&s, names[b][z], "reserve", op_reserve, c, setup);
            bench_add(&s, names[b][z], "lookup", op_lookup, c, setup);
            bench_add(&s, names[b][z], "revoke_member_1000_certs", op_revoke1000, c, setup);
            bench_add(&s, names[b][z], "is_revoked_rl_1e6", op_is_revoked, c, setup);
            bench_add(&s, names[b][z], "verify_rl_1e6", op_verify_rl, c, setup);
        }
    }
    int rc = bench_main(&s, argc, argv);
    for (int b = 0; b < 2; b++)
        for (int z = 0; z < 3; z++) {
            grove_dgsp_store_close(ctx[b][z].store);
            if (ctx[b][z].path[0]) {
                char p[300];
                unlink(ctx[b][z].path);
                snprintf(p, sizeof p, "%s-wal", ctx[b][z].path);
                unlink(p);
                snprintf(p, sizeof p, "%s-shm", ctx[b][z].path);
                unlink(p);
            }
        }
    free(g_sig);
    free(s.cases);
    return rc;
}
