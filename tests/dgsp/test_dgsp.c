/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * DGSP scenarios (the crate's suite, in both profiles where they apply) plus grove's stronger
 * guarantees: counter reservation under concurrency, one-time certificates, atomic revocation,
 * bad inputs that change nothing, the FIPS 205 flavour.
 * Usage: test_dgsp [f|all] [memory|sqlite|postgres URL]
 *   f: the six "f" sets (default); all: all 12 sets. The store backend defaults to memory; with
 *   postgres every group gets its own schema in the database at URL.
 */
#include "grove/config.h"
#if GROVE_HAVE_POSTGRES
#include <libpq-fe.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dgsp/dgsp_int.h"
#include "grove/dgsp.h"
#include "test.h"

typedef struct {
    grove_dgsp_cfg cfg;
    size_t n, cb, sb;
    uint8_t pk[64], sk[192];
    grove_dgsp_store *store;
    char path[256];
} group;

static const char *backend = "memory", *pg_url;
static int group_seq;

/* A fresh, empty store of the selected backend. */
static void open_store(group *g)
{
    int seq = group_seq++;
    if (strcmp(backend, "sqlite") == 0) {
        snprintf(g->path, sizeof g->path, "/tmp/grove-test-dgsp-%d-%d.db", (int)getpid(), seq);
        unlink(g->path);
        CHECK_EQ_INT(grove_dgsp_store_sqlite_open(&g->store, g->path, 1), GROVE_OK);
#if GROVE_HAVE_POSTGRES
    } else if (strcmp(backend, "postgres") == 0) {
        char schema[64], conninfo[1024], err[512] = "";
        snprintf(schema, sizeof schema, "g%d_%d", (int)getpid(), seq);
        PGconn *c = PQconnectdb(pg_url);
        char sql[256];
        snprintf(sql, sizeof sql, "SET client_min_messages = warning; DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s", schema,
                 schema);
        PQclear(PQexec(c, sql));
        PQfinish(c);
        snprintf(conninfo, sizeof conninfo, "%s%coptions=-csearch_path%%3D%s", pg_url,
                 strchr(pg_url, '?') ? '&' : '?', schema);
        int st = grove_dgsp_store_postgres_open(&g->store, conninfo, 1, err, sizeof err);
        if (st != GROVE_OK)
            fprintf(stderr, "postgres: %s\n", err);
        CHECK_EQ_INT(st, GROVE_OK);
#endif
    } else {
        CHECK_EQ_INT(grove_dgsp_store_memory_open(&g->store), GROVE_OK);
    }
}

static void group_new(group *g, const char *set, grove_dgsp_flavour fl, grove_dgsp_profile prof)
{
    memset(g, 0, sizeof *g);
    CHECK_EQ_INT(grove_dgsp_cfg_init(&g->cfg, grove_dgsp_params_get(set), fl, prof), GROVE_OK);
    g->n = g->cfg.n;
    g->cb = grove_dgsp_cert_bytes(&g->cfg);
    g->sb = grove_dgsp_sig_bytes(&g->cfg);
    CHECK_EQ_INT(grove_dgsp_keygen_manager(&g->cfg, g->pk, g->sk), GROVE_OK);
    open_store(g);
}

static void group_free(group *g)
{
    grove_dgsp_store_close(g->store);
    grove_wipe(g->sk, sizeof g->sk);
    if (g->path[0]) {
        char p[300];
        unlink(g->path);
        snprintf(p, sizeof p, "%s-wal", g->path);
        unlink(p);
        snprintf(p, sizeof p, "%s-shm", g->path);
        unlink(p);
    }
}

static grove_status count_cb(void *arg, const uint8_t *z, size_t c)
{
    (void)z;
    *(uint64_t *)arg += c;
    return GROVE_OK;
}

static uint64_t revoked_count(group *g)
{
    uint64_t total = 0;
    CHECK_EQ_INT(g->store->ops->list_revoked(g->store->ctx, count_cb, &total), GROVE_OK);
    return total;
}

/* A member with a wallet holding `certs` certificates. */
typedef struct {
    uint64_t id;
    uint8_t cid_star[32];
    grove_dgsp_wallet *w;
} member;

static void member_join(group *g, member *m, const char *name, size_t certs)
{
    CHECK_EQ_INT(grove_dgsp_join(&g->cfg, g->store, &m->id, m->cid_star, name, g->sk), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_memory_open(&g->cfg, &m->w, NULL, m->id, m->cid_star), GROVE_OK);
    if (certs == 0)
        return;
    uint8_t *pks = malloc(certs * g->n), *cs = malloc(certs * g->cb);
    CHECK_EQ_INT(grove_dgsp_wallet_csr(m->w, pks, certs), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_gen_cert(&g->cfg, g->store, cs, pks, certs, m->id, m->cid_star, g->sk,
                                     2),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_import(m->w, cs, pks, certs, g->pk), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_available(m->w), certs);
    free(pks);
    free(cs);
}

/* The crate's "full" scenario plus open/judge/revoke details. */
static void scenario_full(group *g)
{
    member a, b;
    member_join(g, &a, "alice", 3);
    member_join(g, &b, "bob", 1);
    const uint8_t msg[] = "Hello, DGSP!";
    uint8_t *sig = malloc(g->sb), *sig2 = malloc(g->sb);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(a.w, sig, msg, sizeof msg), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig, g->sb, msg, sizeof msg, g->pk, g->store),
                 GROVE_OK);
    /* open and judge; pi recomputed independently */
    uint64_t id;
    char name[256];
    uint8_t pi[32], cid[32], wpk[32], pi2[32];
    CHECK_EQ_INT(grove_dgsp_open(&g->cfg, g->store, &id, name, pi, sig, g->sb, msg, sizeof msg,
                                 g->sk),
                 GROVE_OK);
    CHECK(id == a.id && strcmp(name, "alice") == 0);
    dgsp_cid(&g->cfg, g->sk, a.id, cid, NULL);
    dgsp_wots_pk_from_sig(&g->cfg, sig + (2 * g->n + 3) * g->n, sig, msg, sizeof msg, wpk);
    dgsp_hash(&g->cfg, pi2, wpk, g->n, cid, g->n, NULL, 0);
    CHECK_MEM(pi, pi2, g->n);
    CHECK_EQ_INT(grove_dgsp_judge(&g->cfg, sig, g->sb, msg, sizeof msg, a.id, pi), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_judge(&g->cfg, sig, g->sb, msg, sizeof msg, b.id, pi),
                 GROVE_ERR_VERIFY);
    pi[0] ^= 1;
    CHECK_EQ_INT(grove_dgsp_judge(&g->cfg, sig, g->sb, msg, sizeof msg, a.id, pi),
                 GROVE_ERR_VERIFY);

    /* a second signature with a different certificate: distinct zeta */
    CHECK_EQ_INT(grove_dgsp_wallet_sign(a.w, sig2, msg, sizeof msg), GROVE_OK);
    CHECK(memcmp(sig + g->sb - g->n - grove_slhdsa_sig_bytes(g->cfg.spx) - 16,
                 sig2 + g->sb - g->n - grove_slhdsa_sig_bytes(g->cfg.spx) - 16, 16) != 0);

    /* revoke alice: her signatures stop verifying ("revoked"), bob's stay valid */
    uint64_t ids[1] = {a.id};
    CHECK_EQ_INT(grove_dgsp_revoke(&g->cfg, g->store, NULL, ids, 1, g->sk), GROVE_OK);
    CHECK_EQ_INT(revoked_count(g), 3);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig, g->sb, msg, sizeof msg, g->pk, g->store),
                 GROVE_ERR_REVOKED);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig, g->sb, msg, sizeof msg, g->pk, NULL), GROVE_OK);
    /* her remaining certificate signs, but the signature is revoked */
    CHECK_EQ_INT(grove_dgsp_wallet_sign(a.w, sig2, msg, sizeof msg), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig2, g->sb, msg, sizeof msg, g->pk, g->store),
                 GROVE_ERR_REVOKED);
    /* a revoked signature reports "revoked" even when corrupted (revocation is checked first) */
    sig2[0] ^= 1;
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig2, g->sb, msg, sizeof msg, g->pk, g->store),
                 GROVE_ERR_REVOKED);
    /* no more certificates for her */
    uint8_t wpk1[32] = {0}, *cert = malloc(g->cb);
    CHECK_EQ_INT(grove_dgsp_gen_cert(&g->cfg, g->store, cert, wpk1, 1, a.id, a.cid_star, g->sk, 1),
                 GROVE_ERR_REVOKED);
    /* revoking her again is a no-op */
    CHECK_EQ_INT(grove_dgsp_revoke(&g->cfg, g->store, NULL, ids, 1, g->sk), GROVE_OK);
    CHECK_EQ_INT(revoked_count(g), 3);
    /* bob unaffected */
    CHECK_EQ_INT(grove_dgsp_wallet_sign(b.w, sig, msg, sizeof msg), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig, g->sb, msg, sizeof msg, g->pk, g->store),
                 GROVE_OK);
    /* the wallet is exhausted now */
    CHECK_EQ_INT(grove_dgsp_wallet_sign(b.w, sig, msg, sizeof msg), GROVE_ERR_EXHAUSTED);
    free(cert);
    free(sig);
    free(sig2);
    grove_dgsp_wallet_close(a.w);
    grove_dgsp_wallet_close(b.w);
}

/* The crate's manager_trust / gen_cert / join / sign_* / verify_fake_* scenarios. */
static void scenario_bad_inputs(group *g)
{
    const size_t n = g->n, spx = grove_slhdsa_sig_bytes(g->cfg.spx);
    member a, b;
    member_join(g, &a, "carol", 0);
    member_join(g, &b, "dave", 0);
    uint8_t seed_u[32], seeds[2 * 32], pks[2 * 32], cid_bad[32];
    uint8_t *certs = malloc(2 * g->cb), *sig = malloc(g->sb), *sig2 = malloc(g->sb + 1);
    CHECK_EQ_INT(grove_dgsp_keygen_user(&g->cfg, seed_u), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_csr(&g->cfg, pks, seeds, 2, seed_u), GROVE_OK);

    /* duplicate username, invalid usernames */
    uint64_t id;
    uint8_t cs[32];
    CHECK_EQ_INT(grove_dgsp_join(&g->cfg, g->store, &id, cs, "carol", g->sk), GROVE_ERR_EXISTS);
    CHECK_EQ_INT(grove_dgsp_join(&g->cfg, g->store, &id, cs, "", g->sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_dgsp_join(&g->cfg, g->store, &id, cs, "a\nb", g->sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_dgsp_join(&g->cfg, g->store, &id, cs, "\xc3\x28", g->sk),
                 GROVE_ERR_INVALID_ARG);
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[299] = 0;
    CHECK_EQ_INT(grove_dgsp_join(&g->cfg, g->store, &id, cs, longname, g->sk),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_dgsp_join(&g->cfg, g->store, &id, cs, "\xc3\xa9milie", g->sk), GROVE_OK);
    uint64_t members;
    g->store->ops->member_count(g->store->ctx, &members);

    /* fake id, fake cid*, swapped credentials: refused, no counter moves */
    grove_dgsp_member before, after;
    g->store->ops->get_member(g->store->ctx, a.id, &before);
    CHECK_EQ_INT(grove_dgsp_gen_cert(&g->cfg, g->store, certs, pks, 2, 999999, a.cid_star, g->sk,
                                     1),
                 GROVE_ERR_NOT_FOUND);
    memcpy(cid_bad, a.cid_star, n);
    cid_bad[n - 1] ^= 1;
    CHECK_EQ_INT(grove_dgsp_gen_cert(&g->cfg, g->store, certs, pks, 2, a.id, cid_bad, g->sk, 1),
                 GROVE_ERR_DENIED);
    CHECK_EQ_INT(grove_dgsp_gen_cert(&g->cfg, g->store, certs, pks, 2, a.id, b.cid_star, g->sk, 1),
                 GROVE_ERR_DENIED);
    g->store->ops->get_member(g->store->ctx, a.id, &after);
    CHECK(before.ctr == after.ctr);

    /* honest certificates; check_cert passes, fails for another id, another key, flipped tau */
    CHECK_EQ_INT(grove_dgsp_gen_cert(&g->cfg, g->store, certs, pks, 2, a.id, a.cid_star, g->sk, 1),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_check_cert(&g->cfg, certs, pks, 2, a.id, g->pk), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_check_cert(&g->cfg, certs, pks, 2, b.id, g->pk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_dgsp_check_cert(&g->cfg, certs, pks + n, 1, a.id, g->pk), GROVE_ERR_VERIFY);
    certs[16] ^= 1; /* pi, hence tau */
    CHECK_EQ_INT(grove_dgsp_check_cert(&g->cfg, certs, pks, 1, a.id, g->pk), GROVE_ERR_VERIFY);
    certs[16] ^= 1;
    /* a member's wallet refuses a certificate for someone else's key or id */
    CHECK_EQ_INT(grove_dgsp_wallet_import(b.w, certs, pks, 2, g->pk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_dgsp_wallet_available(b.w), 0);

    /* honest signature (raw, explicit seed) verifies */
    const uint8_t msg[] = "message 0";
    CHECK_EQ_INT(dgsp_sign_raw(&g->cfg, msg, sizeof msg, seed_u, a.id, seeds, certs, sig, 0),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig, g->sb, msg, sizeof msg, g->pk, g->store),
                 GROVE_OK);
    /* sign_with_wrong_seed / _id / _wots_seed / _cert: verification fails */
    uint8_t bad[32];
    memcpy(bad, seed_u, n);
    bad[0] ^= 1;
    CHECK_EQ_INT(dgsp_sign_raw(&g->cfg, msg, sizeof msg, bad, a.id, seeds, certs, sig2, 0), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig2, g->sb, msg, sizeof msg, g->pk, g->store),
                 GROVE_ERR_VERIFY);
    CHECK_EQ_INT(dgsp_sign_raw(&g->cfg, msg, sizeof msg, seed_u, b.id, seeds, certs, sig2, 0), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig2, g->sb, msg, sizeof msg, g->pk, g->store),
                 GROVE_ERR_VERIFY);
    CHECK_EQ_INT(dgsp_sign_raw(&g->cfg, msg, sizeof msg, seed_u, a.id, seeds + n, certs, sig2, 0),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig2, g->sb, msg, sizeof msg, g->pk, g->store),
                 GROVE_ERR_VERIFY);
    certs[0] ^= 1; /* cert zeta */
    CHECK_EQ_INT(dgsp_sign_raw(&g->cfg, msg, sizeof msg, seed_u, a.id, seeds, certs, sig2, 0), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig2, g->sb, msg, sizeof msg, g->pk, g->store),
                 GROVE_ERR_VERIFY);
    certs[0] ^= 1;
    certs[16 + n + 5] ^= 1; /* cert SPHINCS+ signature */
    CHECK_EQ_INT(dgsp_sign_raw(&g->cfg, msg, sizeof msg, seed_u, a.id, seeds, certs, sig2, 0), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig2, g->sb, msg, sizeof msg, g->pk, g->store),
                 GROVE_ERR_VERIFY);
    certs[16 + n + 5] ^= 1;

    /* verify_fake_*: one bit in each field, the message, or the length */
    const size_t wl = (2 * n + 3) * n;
    const size_t offs[] = {0, wl - 1, wl, wl + n, wl + n + 15, wl + n + 16, wl + n + 16 + spx - 1,
                           g->sb - n, g->sb - 1};
    for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
        memcpy(sig2, sig, g->sb);
        sig2[offs[i]] ^= 0x10;
        CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig2, g->sb, msg, sizeof msg, g->pk, g->store),
                     GROVE_ERR_VERIFY);
    }
    const uint8_t msg2[] = "message 1";
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig, g->sb, msg2, sizeof msg2, g->pk, g->store),
                 GROVE_ERR_VERIFY);
    /* grove/common.h: a signature of the wrong length does not verify (never ENCODING) */
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig, g->sb - 1, msg, sizeof msg, g->pk, g->store),
                 GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig, g->sb + 1, msg, sizeof msg, g->pk, g->store),
                 GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig, 0, msg, sizeof msg, g->pk, NULL),
                 GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_dgsp_judge(&g->cfg, sig, g->sb - 1, msg, sizeof msg, a.id, bad),
                 GROVE_ERR_VERIFY);
    uint8_t pi[32];
    char name[256];
    CHECK_EQ_INT(grove_dgsp_open(&g->cfg, g->store, &id, name, pi, sig, 3, msg, sizeof msg, g->sk),
                 GROVE_ERR_VERIFY);
    /* a changed zeta: the signature no longer verifies, so open refuses it before decrypting
     * (open verifies first) */
    memcpy(sig2, sig, g->sb);
    sig2[wl + n] ^= 0x80;
    CHECK_EQ_INT(grove_dgsp_open(&g->cfg, g->store, &id, name, pi, sig2, g->sb, msg, sizeof msg,
                                 g->sk),
                 GROVE_ERR_VERIFY);
    /* a valid signature opened against another message is refused too */
    CHECK_EQ_INT(grove_dgsp_open(&g->cfg, g->store, &id, name, pi, sig, g->sb, msg2, sizeof msg2,
                                 g->sk),
                 GROVE_ERR_VERIFY);

    /* revocation is all or nothing: an unknown id refuses the whole list */
    uint64_t ids[3] = {a.id, b.id, 123456789};
    uint64_t rc0 = revoked_count(g);
    CHECK_EQ_INT(grove_dgsp_revoke(&g->cfg, g->store, NULL, ids, 3, g->sk), GROVE_ERR_NOT_FOUND);
    CHECK_EQ_INT(revoked_count(g), rc0);
    g->store->ops->get_member(g->store->ctx, a.id, &after);
    CHECK(after.active == 1);
    CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig, g->sb, msg, sizeof msg, g->pk, g->store),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_revoke(&g->cfg, g->store, NULL, ids, 2, g->sk), GROVE_OK);
    CHECK_EQ_INT(revoked_count(g), rc0 + 2); /* carol had 2 certificates, dave none */
    g->store->ops->member_count(g->store->ctx, &id);
    CHECK(id == members);

    /* wrong-length keys are the caller's job: sizes are fixed per configuration */
    CHECK_EQ_INT(grove_dgsp_pk_bytes(&g->cfg), 2 * n);
    CHECK_EQ_INT(grove_dgsp_sk_bytes(&g->cfg), 6 * n);
    free(certs);
    free(sig);
    free(sig2);
    grove_dgsp_wallet_close(a.w);
    grove_dgsp_wallet_close(b.w);
}

/* Wallet rules: pending keys, all-or-nothing import, one signature per certificate. */
static void scenario_wallet(group *g)
{
    member m;
    member_join(g, &m, "erin", 0);
    const size_t n = g->n;
    uint8_t pks[3 * 32], *certs = malloc(3 * g->cb), *sig = malloc(g->sb);
    CHECK_EQ_INT(grove_dgsp_wallet_csr(m.w, pks, 3), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_available(m.w), 0);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(m.w, sig, (const uint8_t *)"x", 1), GROVE_ERR_EXHAUSTED);
    CHECK_EQ_INT(grove_dgsp_gen_cert(&g->cfg, g->store, certs, pks, 3, m.id, m.cid_star, g->sk, 3),
                 GROVE_OK);
    /* one bad certificate refuses the batch */
    certs[2 * g->cb + 20] ^= 1;
    CHECK_EQ_INT(grove_dgsp_wallet_import(m.w, certs, pks, 3, g->pk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_dgsp_wallet_available(m.w), 0);
    certs[2 * g->cb + 20] ^= 1;
    CHECK_EQ_INT(grove_dgsp_wallet_import(m.w, certs, pks, 3, g->pk), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_available(m.w), 3);
    /* importing the same certificates again: no pending key left */
    CHECK_EQ_INT(grove_dgsp_wallet_import(m.w, certs, pks, 1, g->pk), GROVE_ERR_NOT_FOUND);
    uint8_t zetas[3][16];
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_INT(grove_dgsp_wallet_sign(m.w, sig, (const uint8_t *)"msg", 3), GROVE_OK);
        CHECK_EQ_INT(grove_dgsp_verify(&g->cfg, sig, g->sb, (const uint8_t *)"msg", 3, g->pk,
                                       g->store),
                     GROVE_OK);
        memcpy(zetas[i], sig + (2 * n + 3) * n + n, 16);
    }
    CHECK(memcmp(zetas[0], zetas[1], 16) != 0 && memcmp(zetas[1], zetas[2], 16) != 0 &&
          memcmp(zetas[0], zetas[2], 16) != 0);
    CHECK_EQ_INT(grove_dgsp_wallet_available(m.w), 0);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(m.w, sig, (const uint8_t *)"msg", 3), GROVE_ERR_EXHAUSTED);
    free(certs);
    free(sig);
    grove_dgsp_wallet_close(m.w);
}

/* Many threads request certificates for the same member: all zetas distinct, counter exact. */
struct conc {
    group *g;
    member *m;
    const uint8_t *pks;
    uint8_t *certs;
    size_t per;
    int status;
};

static void *conc_worker(void *arg)
{
    struct conc *c = arg;
    c->status = grove_dgsp_gen_cert(&c->g->cfg, c->g->store, c->certs, c->pks, c->per, c->m->id,
                                    c->m->cid_star, c->g->sk, 1);
    return NULL;
}

static int cmp16(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

static void scenario_concurrency(group *g, unsigned nthreads, size_t per)
{
    member m;
    member_join(g, &m, "frank", 0);
    uint8_t seed_u[32], *seeds = malloc(per * g->n), *pks = malloc(per * g->n);
    CHECK_EQ_INT(grove_dgsp_keygen_user(&g->cfg, seed_u), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_csr(&g->cfg, pks, seeds, per, seed_u), GROVE_OK);
    pthread_t t[16];
    struct conc c[16];
    uint8_t *all = malloc(nthreads * per * g->cb);
    for (unsigned i = 0; i < nthreads; i++) {
        c[i] = (struct conc){g, &m, pks, all + i * per * g->cb, per, -1};
        CHECK(pthread_create(&t[i], NULL, conc_worker, &c[i]) == 0);
    }
    for (unsigned i = 0; i < nthreads; i++) {
        pthread_join(t[i], NULL);
        CHECK_EQ_INT(c[i].status, GROVE_OK);
    }
    size_t total = nthreads * per;
    uint8_t *z = malloc(16 * total);
    for (size_t i = 0; i < total; i++)
        memcpy(z + 16 * i, all + i * g->cb, 16);
    qsort(z, total, 16, cmp16);
    for (size_t i = 1; i < total; i++)
        CHECK(memcmp(z + 16 * (i - 1), z + 16 * i, 16) != 0);
    grove_dgsp_member mm;
    g->store->ops->get_member(g->store->ctx, m.id, &mm);
    CHECK_EQ_INT(mm.ctr, total);
    /* every certificate is good */
    for (unsigned i = 0; i < nthreads; i++)
        CHECK_EQ_INT(grove_dgsp_check_cert(&g->cfg, all + i * per * g->cb, pks, per, m.id, g->pk),
                     GROVE_OK);
    free(z);
    free(all);
    free(seeds);
    free(pks);
    grove_dgsp_wallet_close(m.w);
}

/* dgsp-rs-0.1 refuses to create WOTS+ keys or signatures through the public API. */
static void scenario_compat_refuses(const char *set)
{
    group g;
    group_new(&g, set, GROVE_DGSP_FLAVOUR_R31, GROVE_DGSP_PROFILE_DGSP_RS_0_1);
    member m;
    CHECK_EQ_INT(grove_dgsp_join(&g.cfg, g.store, &m.id, m.cid_star, "mallory", g.sk), GROVE_OK);
    uint8_t seed_u[32], pks[32], seeds[32], sig[8];
    CHECK_EQ_INT(grove_dgsp_keygen_user(&g.cfg, seed_u), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_csr(&g.cfg, pks, seeds, 1, seed_u), GROVE_ERR_INSECURE_PROFILE);
    CHECK_EQ_INT(grove_dgsp_wallet_memory_open(&g.cfg, &m.w, seed_u, m.id, m.cid_star), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_csr(m.w, pks, 1), GROVE_ERR_INSECURE_PROFILE);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(m.w, sig, (const uint8_t *)"x", 1),
                 GROVE_ERR_INSECURE_PROFILE);
    grove_dgsp_wallet_close(m.w);
    group_free(&g);
}

static void cfg_names(void)
{
    grove_dgsp_cfg c;
    CHECK_EQ_INT(grove_dgsp_cfg_init(&c, grove_dgsp_params_get("sphincs_shake_256f"),
                                     GROVE_DGSP_FLAVOUR_R31, GROVE_DGSP_PROFILE_GROVE),
                 GROVE_OK);
    CHECK(strcmp(grove_dgsp_params_name(c.params), "shake-256f") == 0);
    CHECK_EQ_INT(grove_dgsp_sig_bytes(&c), 52080);
    CHECK_EQ_INT(grove_dgsp_cert_bytes(&c), 49904);
    CHECK_EQ_INT(grove_dgsp_cfg_init(&c, grove_dgsp_params_get("sha2-128f"), GROVE_DGSP_FLAVOUR_R31,
                                     GROVE_DGSP_PROFILE_GROVE),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_sig_bytes(&c), 17696);
    CHECK_EQ_INT(grove_dgsp_cfg_init(&c, grove_dgsp_params_get("sha2-128s"), GROVE_DGSP_FLAVOUR_R31,
                                     GROVE_DGSP_PROFILE_GROVE),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_sig_bytes(&c), 8464);
    CHECK_EQ_INT(grove_dgsp_cfg_init(&c, grove_dgsp_params_get("shake-192s"),
                                     GROVE_DGSP_FLAVOUR_FIPS205, GROVE_DGSP_PROFILE_GROVE),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_sig_bytes(&c), 17512);
    CHECK(grove_slhdsa_params_is_fips205(c.spx));
    /* the contract's lookups: NULL for an unknown name, every set listed once */
    CHECK(grove_dgsp_params_get("shake-512f") == NULL);
    CHECK(grove_dgsp_params_get(NULL) == NULL);
    CHECK_EQ_INT(grove_dgsp_cfg_init(&c, NULL, GROVE_DGSP_FLAVOUR_R31, GROVE_DGSP_PROFILE_GROVE),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_dgsp_params_count(), 12);
    CHECK(grove_dgsp_params_at(grove_dgsp_params_count()) == NULL);
    for (size_t i = 0; i < grove_dgsp_params_count(); i++) {
        const grove_dgsp_params *p = grove_dgsp_params_at(i);
        CHECK(p != NULL && grove_dgsp_params_get(grove_dgsp_params_name(p)) == p);
    }
    CHECK_EQ_INT(grove_dgsp_cfg_init(&c, grove_dgsp_params_get("shake-128f"), (grove_dgsp_flavour)7,
                                     GROVE_DGSP_PROFILE_GROVE),
                 GROVE_ERR_INVALID_ARG);
    grove_dgsp_profile prof = GROVE_DGSP_PROFILE_GROVE;
    grove_dgsp_flavour fl = GROVE_DGSP_FLAVOUR_R31;
    CHECK_EQ_INT(grove_dgsp_profile_from_name(&prof, "dgsp-rs-0.1"), GROVE_OK);
    CHECK_EQ_INT(prof, GROVE_DGSP_PROFILE_DGSP_RS_0_1);
    CHECK_EQ_INT(grove_dgsp_profile_from_name(&prof, "crate"), GROVE_ERR_UNSUPPORTED);
    CHECK_EQ_INT(grove_dgsp_flavour_from_name(&fl, "fips205"), GROVE_OK);
    CHECK_EQ_INT(fl, GROVE_DGSP_FLAVOUR_FIPS205);
    CHECK_EQ_INT(grove_dgsp_flavour_from_name(&fl, "r3"), GROVE_ERR_UNSUPPORTED);
    CHECK(strcmp(grove_dgsp_flavour_name(grove_dgsp_cfg_flavour(&c)), "fips205") == 0);
}

/* FIPS 205 groups: the flow works; their certificates are not round-3.1 certificates. */
static void scenario_fips(const char *set)
{
    group g;
    group_new(&g, set, GROVE_DGSP_FLAVOUR_FIPS205, GROVE_DGSP_PROFILE_GROVE);
    member m;
    member_join(&g, &m, "grace", 1);
    uint8_t *sig = malloc(g.sb);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(m.w, sig, (const uint8_t *)"fips", 4), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&g.cfg, sig, g.sb, (const uint8_t *)"fips", 4, g.pk, g.store),
                 GROVE_OK);
    grove_dgsp_cfg r31;
    CHECK_EQ_INT(grove_dgsp_cfg_init(&r31, grove_dgsp_params_get(set), GROVE_DGSP_FLAVOUR_R31,
                                     GROVE_DGSP_PROFILE_GROVE),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&r31, sig, g.sb, (const uint8_t *)"fips", 4, g.pk, g.store),
                 GROVE_ERR_VERIFY);
    free(sig);
    grove_dgsp_wallet_close(m.w);
    group_free(&g);
}

/*
 * grove/common.h on the rest of the API: revocation lists (capacities, GROVE_ERR_VERIFY for
 * anything wrong), the public file API (round trips, capacities, wrong types and lengths), and
 * gen_cert with threads = GROVE_THREADS_AUTO.
 */
static void contract_and_files(void)
{
    group g;
    group_new(&g, "sha2-128f", GROVE_DGSP_FLAVOUR_R31, GROVE_DGSP_PROFILE_GROVE);
    member a;
    memset(&a, 0, sizeof a);
    CHECK_EQ_INT(grove_dgsp_join(&g.cfg, g.store, &a.id, a.cid_star, "alice", g.sk), GROVE_OK);
    uint8_t pks[4 * 16], *certs = malloc(4 * g.cb);
    CHECK_EQ_INT(grove_dgsp_wallet_memory_open(&g.cfg, &a.w, NULL, a.id, a.cid_star), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_csr(a.w, pks, 4), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_gen_cert(&g.cfg, g.store, certs, pks, 4, a.id, a.cid_star, g.sk,
                                     GROVE_THREADS_AUTO),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_check_cert(&g.cfg, certs, pks, 4, a.id, g.pk), GROVE_OK);

    /* revocation lists */
    uint8_t zetas[3 * 16];
    for (size_t i = 0; i < sizeof zetas; i++)
        zetas[i] = (uint8_t)(i < 16 ? 200 - i : i); /* unsorted, one duplicate below */
    memcpy(zetas + 32, zetas, 16);
    size_t cap = grove_dgsp_revocations_bytes(&g.cfg, 3), len = 0;
    uint8_t *rl = malloc(cap);
    CHECK_EQ_INT(grove_dgsp_revocations_sign(&g.cfg, rl, 40, &len, 1, 2, zetas, 3, g.sk),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(len, cap - 16); /* the size needed: two distinct zetas */
    CHECK_EQ_INT(grove_dgsp_revocations_sign(&g.cfg, rl, cap, &len, 1, 2, zetas, 3, g.sk),
                 GROVE_OK);
    uint64_t seq = 0, count = 0;
    const uint8_t *z = NULL;
    CHECK_EQ_INT(grove_dgsp_revocations_verify(&g.cfg, &seq, NULL, &z, &count, rl, len, g.pk),
                 GROVE_OK);
    CHECK(seq == 1 && count == 2 && memcmp(z, z + 16, 16) < 0);
    CHECK_EQ_INT(grove_dgsp_revocations_verify(&g.cfg, NULL, NULL, NULL, NULL, rl, len - 1, g.pk),
                 GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_dgsp_revocations_verify(&g.cfg, NULL, NULL, NULL, NULL, rl, 10, g.pk),
                 GROVE_ERR_VERIFY);
    rl[20] ^= 1; /* the count */
    CHECK_EQ_INT(grove_dgsp_revocations_verify(&g.cfg, NULL, NULL, NULL, NULL, rl, len, g.pk),
                 GROVE_ERR_VERIFY);
    rl[20] ^= 1;
    rl[len - 1] ^= 1; /* the signature */
    CHECK_EQ_INT(grove_dgsp_revocations_verify(&g.cfg, NULL, NULL, NULL, NULL, rl, len, g.pk),
                 GROVE_ERR_VERIFY);

    /* files: a public key round trip, then every refusal (tests/dgsp/test_dgsp_files.c has the
     * envelope, the key ids, the stream writer and the older armor) */
    size_t tl = 0, bl = 0;
    CHECK_EQ_INT(grove_dgsp_file_encode(&g.cfg, NULL, 0, &tl, GROVE_DGSP_FILE_PUBLIC_KEY, g.pk,
                                        2 * g.n, NULL, GROVE_ENVELOPE_ARMORED),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    uint8_t *text = malloc(tl + 1);
    memset(text, 'Z', tl + 1);
    CHECK_EQ_INT(grove_dgsp_file_encode(&g.cfg, text, tl - 1, &tl, GROVE_DGSP_FILE_PUBLIC_KEY,
                                        g.pk, 2 * g.n, NULL, GROVE_ENVELOPE_ARMORED),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK(text[0] == 'Z'); /* nothing written */
    CHECK_EQ_INT(grove_dgsp_file_encode(&g.cfg, text, tl, &tl, GROVE_DGSP_FILE_PUBLIC_KEY, g.pk,
                                        2 * g.n, NULL, GROVE_ENVELOPE_ARMORED),
                 GROVE_OK);
    CHECK(memcmp(text, "-----BEGIN GROVE DGSP PUBLIC KEY-----\n", 38) == 0);
    CHECK_EQ_INT(grove_dgsp_file_encode(&g.cfg, text, tl, &tl, GROVE_DGSP_FILE_PUBLIC_KEY, g.pk,
                                        2 * g.n - 1, NULL, GROVE_ENVELOPE_ARMORED),
                 GROVE_ERR_ENCODING);
    grove_dgsp_cfg c2;
    grove_dgsp_file_info fi;
    uint8_t body[64];
    char err[256] = "";
    CHECK_EQ_INT(grove_dgsp_file_decode(&c2, &fi, body, sizeof body, &bl, text, tl,
                                        GROVE_DGSP_FILE_ANY, err, sizeof err),
                 GROVE_OK);
    CHECK(fi.type == GROVE_DGSP_FILE_PUBLIC_KEY && bl == 2 * g.n && memcmp(body, g.pk, bl) == 0);
    CHECK(c2.spx == g.cfg.spx && c2.profile == g.cfg.profile && c2.params == g.cfg.params);
    CHECK(fi.has_key_id && !fi.old_format && fi.form == GROVE_ENVELOPE_ARMORED);
    CHECK_EQ_INT(grove_dgsp_file_decode(&c2, NULL, body, sizeof body, &bl, text, tl,
                                        GROVE_DGSP_FILE_SIGNATURE, err, sizeof err),
                 GROVE_ERR_ENCODING);
    CHECK(strstr(err, "SIGNATURE") != NULL);
    CHECK_EQ_INT(grove_dgsp_file_decode(&c2, NULL, body, 8, &bl, text, tl,
                                        GROVE_DGSP_FILE_PUBLIC_KEY, NULL, 0),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(grove_dgsp_file_decode(&c2, NULL, body, sizeof body, &bl, text, 40,
                                        GROVE_DGSP_FILE_PUBLIC_KEY, NULL, 0),
                 GROVE_ERR_ENCODING);
    free(text);

    /* a secret key file is checked: a changed key is GROVE_ERR_STATE */
    CHECK_EQ_INT(grove_dgsp_file_encode(&g.cfg, NULL, 0, &tl, GROVE_DGSP_FILE_SECRET_KEY, g.sk,
                                        6 * g.n, g.pk, GROVE_ENVELOPE_ARMORED),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    text = malloc(tl);
    CHECK_EQ_INT(grove_dgsp_file_encode(&g.cfg, text, tl, &tl, GROVE_DGSP_FILE_SECRET_KEY, g.sk,
                                        6 * g.n, g.pk, GROVE_ENVELOPE_ARMORED),
                 GROVE_OK);
    uint8_t skb[256];
    CHECK_EQ_INT(grove_dgsp_file_decode(&c2, NULL, skb, sizeof skb, &bl, text, tl,
                                        GROVE_DGSP_FILE_SECRET_KEY, NULL, 0),
                 GROVE_OK);
    CHECK(bl == 6 * g.n && memcmp(skb, g.sk, bl) == 0);
    char *line = strchr((char *)text, '\n') + 1; /* the first base64 line: bytes 0..47 */
    line = strchr(strchr(line, '\n') + 1, '\n') + 1; /* the third: bytes 96..143, the key */
    line[3] = line[3] == 'A' ? 'B' : 'A';
    CHECK_EQ_INT(grove_dgsp_file_decode(&c2, NULL, skb, sizeof skb, &bl, text, tl,
                                        GROVE_DGSP_FILE_SECRET_KEY, NULL, 0),
                 GROVE_ERR_STATE);
    grove_wipe(skb, sizeof skb);
    grove_wipe(text, tl);
    free(text);
    free(rl);
    free(certs);
    grove_dgsp_wallet_close(a.w);
    group_free(&g);
}

int main(int argc, char **argv)
{
    int all = argc > 1 && strcmp(argv[1], "all") == 0;
    if (argc > 2)
        backend = argv[2];
    if (strcmp(backend, "postgres") == 0) {
#if !GROVE_HAVE_POSTGRES
        printf("SKIP: this build has no PostgreSQL store\n");
        return TEST_SKIP;
#endif
        pg_url = argc > 3 ? argv[3] : getenv("GROVE_PG_URL");
        if (pg_url == NULL || *pg_url == '\0') {
            printf("SKIP: no PostgreSQL URL\n");
            return TEST_SKIP;
        }
    }
    printf("backend: %s\n", backend);
    static const char *sets[] = {"sha2-128f", "shake-128f", "sha2-192f", "shake-192f",
                                 "sha2-256f", "shake-256f", "sha2-128s", "shake-128s",
                                 "sha2-192s", "shake-192s", "sha2-256s", "shake-256s"};
    cfg_names();
    contract_and_files();
    for (size_t i = 0; i < (all ? 12u : 6u); i++) {
        group g;
        group_new(&g, sets[i], GROVE_DGSP_FLAVOUR_R31, GROVE_DGSP_PROFILE_GROVE);
        scenario_full(&g);
        scenario_bad_inputs(&g);
        scenario_wallet(&g);
        if (i < 2 || all)
            scenario_concurrency(&g, 8, 2);
        group_free(&g);
        scenario_compat_refuses(sets[i]);
    }
    scenario_fips("shake-128f");
    scenario_fips("sha2-192f");
    if (all)
        scenario_fips("sha2-256s");
    return test_done();
}
