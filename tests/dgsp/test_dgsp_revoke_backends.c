/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Revocation is decided once, above the stores (grove_dgsp_revoke): the same scenario runs
 * against every compiled backend and must leave every backend in the same state, byte for
 * byte: the same statuses, the same members active, the same revocation list. A store whose
 * transaction fails half-way (an injected failure) must change nothing.
 * Usage: test_dgsp_revoke_backends [postgres URL]   (or GROVE_PG_URL; PostgreSQL is skipped
 * without one)
 */
#include "grove/config.h"
#if GROVE_HAVE_POSTGRES
#include <libpq-fe.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dgsp/dgsp_int.h"
#include "grove/dgsp.h"
#include "test.h"

enum { MEMBERS = 4, MAX_ZETAS = 8192 };

/* What one backend ends with. */
typedef struct {
    grove_status st[6];
    size_t revoked[6];
    bool active[MEMBERS];
    uint64_t ctr[MEMBERS];
    bool bob_zeta_listed, dave_zeta_listed;
    size_t nzetas;
    uint8_t zetas[16 * MAX_ZETAS];
} outcome;

static grove_dgsp_cfg cfg;
static uint8_t pk[64], sk[192];

static grove_status collect(void *arg, const uint8_t *z, size_t count)
{
    outcome *o = arg;
    if (o->nzetas + count > MAX_ZETAS)
        return GROVE_ERR_OVERFLOW;
    memcpy(o->zetas + 16 * o->nzetas, z, 16 * count);
    o->nzetas += count;
    return GROVE_OK;
}

/* A view of a store whose tx_add_revoked fails from its `fail_at`-th call on. */
static const grove_dgsp_store_ops *real_ops;
static int add_calls, fail_at;

static grove_status failing_add(void *ctx, const uint8_t *zetas, size_t count)
{
    if (++add_calls >= fail_at)
        return GROVE_ERR_STORAGE;
    return real_ops->tx_add_revoked(ctx, zetas, count);
}

static void snapshot(grove_dgsp_store *s, outcome *o)
{
    for (uint64_t id = 0; id < MEMBERS; id++) {
        grove_dgsp_member m;
        CHECK_EQ_INT(s->ops->get_member(s->ctx, id, &m), GROVE_OK);
        o->active[id] = m.active;
        o->ctr[id] = m.ctr;
    }
    o->nzetas = 0;
    CHECK_EQ_INT(s->ops->list_revoked(s->ctx, collect, o), GROVE_OK);
}

/* The scenario: alice 3 counters, bob 5000 (more than one step of zetas), carol 0, dave 2. */
static void scenario(grove_dgsp_store *s, outcome *o)
{
    static const char *const names[MEMBERS] = {"alice", "bob", "carol", "dave"};
    static const uint64_t ctrs[MEMBERS] = {3, 5000, 0, 2};
    uint8_t cid[32];
    memset(o, 0, sizeof *o);
    for (uint64_t i = 0; i < MEMBERS; i++) {
        uint64_t id = 99, first = 99;
        CHECK_EQ_INT(grove_dgsp_join(&cfg, s, &id, cid, names[i], sk), GROVE_OK);
        CHECK_EQ_INT(id, i);
        if (ctrs[i])
            CHECK_EQ_INT(s->ops->reserve(s->ctx, id, ctrs[i], &first), GROVE_OK);
    }
    /* an unknown id refuses the whole list */
    const uint64_t unknown[] = {1, 99};
    o->st[0] = grove_dgsp_revoke(&cfg, s, &o->revoked[0], unknown, 2, sk);
    /* a failure inside the transaction (bob's second step of zetas) rolls everything back */
    grove_dgsp_store_ops ops = *s->ops;
    ops.tx_add_revoked = failing_add;
    real_ops = s->ops;
    add_calls = 0;
    fail_at = 3;
    grove_dgsp_store view = {&ops, s->ctx, NULL};
    const uint64_t dave_bob[] = {3, 1};
    o->st[1] = grove_dgsp_revoke(&cfg, &view, &o->revoked[1], dave_bob, 2, sk);
    outcome mid;
    snapshot(s, &mid);
    CHECK(mid.active[1] && mid.active[3] && mid.nzetas == 0);
    /* bob listed twice, alice once */
    const uint64_t bob_alice[] = {1, 0, 1};
    o->st[2] = grove_dgsp_revoke(&cfg, s, &o->revoked[2], bob_alice, 3, sk);
    /* alice again (skipped) and carol (no certificate: deactivated, nothing listed) */
    const uint64_t alice_carol[] = {0, 2};
    o->st[3] = grove_dgsp_revoke(&cfg, s, &o->revoked[3], alice_carol, 2, sk);
    uint64_t first;
    o->st[4] = s->ops->reserve(s->ctx, 1, 1, &first); /* bob asks for more: refused */
    o->st[5] = grove_dgsp_revoke(&cfg, s, &o->revoked[5], NULL, 0, sk); /* nothing to do */
    uint8_t z[16];
    CHECK_EQ_INT(dgsp_zetas(&cfg, sk + cfg.n, 1, 4999, 1, z), GROVE_OK);
    CHECK_EQ_INT(s->ops->is_revoked(s->ctx, z, &o->bob_zeta_listed), GROVE_OK);
    CHECK_EQ_INT(dgsp_zetas(&cfg, sk + cfg.n, 3, 0, 1, z), GROVE_OK);
    CHECK_EQ_INT(s->ops->is_revoked(s->ctx, z, &o->dave_zeta_listed), GROVE_OK);
    snapshot(s, o);
}

static int cmp16(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

/* What every backend must end with. */
static void expected(outcome *o)
{
    memset(o, 0, sizeof *o);
    o->st[0] = GROVE_ERR_NOT_FOUND;
    o->st[1] = GROVE_ERR_STORAGE;
    o->revoked[2] = 2;
    o->revoked[3] = 1;
    o->st[4] = GROVE_ERR_REVOKED;
    o->active[3] = true;
    o->ctr[0] = 3;
    o->ctr[1] = 5000;
    o->ctr[3] = 2;
    o->bob_zeta_listed = true;
    CHECK_EQ_INT(dgsp_zetas(&cfg, sk + cfg.n, 0, 0, 3, o->zetas), GROVE_OK);
    CHECK_EQ_INT(dgsp_zetas(&cfg, sk + cfg.n, 1, 0, 5000, o->zetas + 16 * 3), GROVE_OK);
    o->nzetas = 5003;
    qsort(o->zetas, o->nzetas, 16, cmp16);
}

static void check_same(const char *name, const outcome *got, const outcome *want)
{
    size_t bad = 0;
    for (int i = 0; i < 6; i++) {
        bad += got->st[i] != want->st[i] || got->revoked[i] != want->revoked[i];
        if (got->st[i] != want->st[i])
            fprintf(stderr, "%s: step %d status %d, want %d\n", name, i, got->st[i], want->st[i]);
    }
    for (int i = 0; i < MEMBERS; i++)
        bad += got->active[i] != want->active[i] || got->ctr[i] != want->ctr[i];
    bad += got->bob_zeta_listed != want->bob_zeta_listed;
    bad += got->dave_zeta_listed != want->dave_zeta_listed;
    bad += got->nzetas != want->nzetas ||
           memcmp(got->zetas, want->zetas, 16 * want->nzetas) != 0;
    if (bad)
        fprintf(stderr, "%s: %zu differences (%zu zetas listed)\n", name, bad, got->nzetas);
    CHECK_EQ_INT(bad, 0);
}

#if GROVE_HAVE_POSTGRES
/* A store in a schema of its own in the database at url. */
static grove_status open_postgres(const char *url, grove_dgsp_store **s)
{
    char schema[64], conninfo[1024], sql[256], err[512] = "";
    snprintf(schema, sizeof schema, "revoke_backends_%d", (int)getpid());
    PGconn *c = PQconnectdb(url);
    snprintf(sql, sizeof sql,
             "SET client_min_messages = warning; DROP SCHEMA IF EXISTS %s CASCADE; "
             "CREATE SCHEMA %s",
             schema, schema);
    PQclear(PQexec(c, sql));
    PQfinish(c);
    snprintf(conninfo, sizeof conninfo, "%s%coptions=-csearch_path%%3D%s", url,
             strchr(url, '?') ? '&' : '?', schema);
    grove_status st = grove_dgsp_store_postgres_open(s, conninfo, true, err, sizeof err);
    if (st != GROVE_OK)
        fprintf(stderr, "postgres: %s\n", err);
    return st;
}
#endif

int main(int argc, char **argv)
{
    static outcome want, got;
    uint8_t seed[5 * 16];
    for (size_t i = 0; i < sizeof seed; i++)
        seed[i] = (uint8_t)(7 * i + 1);
    CHECK_EQ_INT(grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get("sha2-128f"),
                                     GROVE_DGSP_FLAVOUR_R31, GROVE_DGSP_PROFILE_GROVE),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_keygen_manager_from_seed(&cfg, pk, sk, seed), GROVE_OK);
    expected(&want);
    int backends = 0;

    grove_dgsp_store *s = NULL;
    CHECK_EQ_INT(grove_dgsp_store_memory_open(&s), GROVE_OK);
    scenario(s, &got);
    check_same("memory", &got, &want);
    grove_dgsp_store_close(s);
    backends++;
#if GROVE_HAVE_SQLITE
    char path[256];
    snprintf(path, sizeof path, "/tmp/grove-test-revoke-%d.db", (int)getpid());
    unlink(path);
    CHECK_EQ_INT(grove_dgsp_store_sqlite_open(&s, path, true), GROVE_OK);
    scenario(s, &got);
    check_same("sqlite", &got, &want);
    grove_dgsp_store_close(s);
    unlink(path);
    backends++;
#endif
#if GROVE_HAVE_POSTGRES
    const char *url = argc > 2 && strcmp(argv[1],
                                         "postgres") == 0 ? argv[2] : getenv("GROVE_PG_URL");
    if (url != NULL && *url != '\0') {
        grove_status st = open_postgres(url, &s);
        CHECK_EQ_INT(st, GROVE_OK);
        if (st == GROVE_OK) {
            scenario(s, &got);
            check_same("postgres", &got, &want);
            grove_dgsp_store_close(s);
            backends++;
        }
    } else {
        printf("postgres: skipped (no URL)\n");
    }
#else
    (void)argc;
    (void)argv;
#endif
    printf("revoke scenario identical on %d backend(s)\n", backends);
    grove_wipe(sk, sizeof sk);
    return test_done();
}
