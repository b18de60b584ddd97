/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Member wallets: the state registry (a restored, copied or re-created wallet refuses the
 * certificates the registry lists as used until it is recovered; recovery only ever marks
 * certificates used), integrity checks (every one-bit corruption of a secret, and of the public
 * data bound to it, is refused before any certificate is used), and registry record size.
 * Usage: test_wallet [params]   (default sha2-128f)
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dgsp/dgsp_int.h"
#include "grove/dgsp.h"
#include "grove/state.h"
#include "test.h"

static grove_dgsp_cfg cfg;
static size_t N, SB, CB;
static uint8_t gpk[64], gsk[192];
static grove_dgsp_store *store;
static char dir[256], statedir[300];
static grove_registry *reg;

typedef struct {
    uint64_t id;
    uint8_t cid_star[32];
} cred;

static void setup(const char *params)
{
    CHECK_EQ_INT(grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get(params), GROVE_DGSP_FLAVOUR_R31,
                                     GROVE_DGSP_PROFILE_GROVE),
                 GROVE_OK);
    N = cfg.n;
    SB = grove_dgsp_sig_bytes(&cfg);
    CB = grove_dgsp_cert_bytes(&cfg);
    CHECK_EQ_INT(grove_dgsp_keygen_manager(&cfg, gpk, gsk), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_store_memory_open(&store), GROVE_OK);
    snprintf(dir, sizeof dir, "/tmp/grove-test-wallet-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    snprintf(statedir, sizeof statedir, "%s/state", dir);
    CHECK_EQ_INT(grove_registry_open(&reg, statedir), GROVE_OK);
}

static void join(const char *name, cred *c)
{
    CHECK_EQ_INT(grove_dgsp_join(&cfg, store, &c->id, c->cid_star, name, gsk), GROVE_OK);
}

static void path_of(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

/* A wallet file for member c with `count` certificates (seed_u may be NULL: random). */
static grove_dgsp_wallet *make_wallet(const char *name, const cred *c, const uint8_t *seed_u,
                                      size_t count)
{
    char p[512];
    path_of(p, sizeof p, name);
    grove_dgsp_wallet *w = NULL;
    CHECK_EQ_INT(grove_dgsp_wallet_create(&cfg, &w, p, seed_u, c->id, c->cid_star, gpk), GROVE_OK);
    uint8_t *pks = malloc(count * N), *certs = malloc(count * CB);
    CHECK_EQ_INT(grove_dgsp_wallet_csr(w, pks, count), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_gen_cert(&cfg, store, certs, pks, count, c->id, c->cid_star, gsk, 1),
                 GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_import(w, certs, pks, count, gpk), GROVE_OK);
    free(pks);
    free(certs);
    return w;
}

static grove_dgsp_wallet *open_wallet(const char *name, int with_registry)
{
    char p[512];
    path_of(p, sizeof p, name);
    grove_dgsp_wallet *w = NULL;
    CHECK_EQ_INT(grove_dgsp_wallet_open(&w, p), GROVE_OK);
    if (w && with_registry)
        CHECK_EQ_INT(grove_dgsp_wallet_set_registry(w, reg), GROVE_OK);
    return w;
}

static void copy_file(const char *from, const char *to)
{
    char a[512], b[512];
    path_of(a, sizeof a, from);
    path_of(b, sizeof b, to);
    FILE *f = fopen(a, "rb"), *g = fopen(b, "wb");
    CHECK(f != NULL && g != NULL);
    if (f && g) {
        char buf[65536];
        size_t k;
        while ((k = fread(buf, 1, sizeof buf, f)) > 0)
            CHECK(fwrite(buf, 1, k, g) == k);
    }
    if (f)
        fclose(f);
    if (g)
        fclose(g);
}

static uint64_t used_of(grove_dgsp_wallet *w)
{
    uint64_t u = 0;
    CHECK_EQ_INT(grove_dgsp_wallet_counts(w, NULL, NULL, &u), GROVE_OK);
    return u;
}

static const uint8_t *zeta_of(const uint8_t *sig)
{
    dgsp_sizes s;
    dgsp_sizes_of(&cfg, &s);
    return sig + s.wots_sig + s.n;
}

static int all_zero(const uint8_t *p, size_t len)
{
    uint8_t v = 0;
    for (size_t i = 0; i < len; i++)
        v |= p[i];
    return v == 0;
}

/* A restored backup and a copy: refused until recovered; recovery marks, never unmarks. */
static void test_restore(void)
{
    cred c;
    join("restore", &c);
    grove_dgsp_wallet *w = make_wallet("r.w", &c, NULL, 4);
    grove_dgsp_wallet_close(w);
    copy_file("r.w", "r.bak0");
    uint8_t *s1 = malloc(SB), *s2 = malloc(SB);
    w = open_wallet("r.w", 1);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, s1, (const uint8_t *)"one", 3), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&cfg, s1, SB, (const uint8_t *)"one", 3, gpk, NULL), GROVE_OK);
    grove_dgsp_wallet_close(w);
    copy_file("r.w", "r.bak1");

    /* the backup from before the signature */
    copy_file("r.bak0", "r.w");
    w = open_wallet("r.w", 1);
    uint64_t listed = 0, stale = 0;
    CHECK_EQ_INT(grove_dgsp_wallet_registry_status(w, &listed, &stale), GROVE_OK);
    CHECK_EQ_INT(listed, 1);
    CHECK_EQ_INT(stale, 1);
    memset(s2, 0xAA, SB);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, s2, (const uint8_t *)"two", 3), GROVE_ERR_STATE);
    CHECK(strstr(grove_dgsp_wallet_last_error(w), "older copy") != NULL);
    CHECK(all_zero(s2, SB));
    CHECK_EQ_INT(used_of(w), 0);
    CHECK_EQ_INT(grove_dgsp_wallet_available(w), 4);
    /* without the registry the same copy would sign again: the library default is unchanged */
    uint64_t marked = 9;
    CHECK_EQ_INT(grove_dgsp_wallet_recover(w, &marked), GROVE_OK);
    CHECK_EQ_INT(marked, 1);
    CHECK_EQ_INT(grove_dgsp_wallet_available(w), 3);
    CHECK_EQ_INT(grove_dgsp_wallet_recover(w, &marked), GROVE_OK);
    CHECK_EQ_INT(marked, 0);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, s2, (const uint8_t *)"two", 3), GROVE_OK);
    CHECK(memcmp(zeta_of(s1), zeta_of(s2), 16) != 0);
    grove_dgsp_wallet_close(w);

    /* the copy taken after one signature is now one behind as well */
    copy_file("r.bak1", "r.w");
    w = open_wallet("r.w", 1);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, s2, (const uint8_t *)"three", 5), GROVE_ERR_STATE);
    CHECK_EQ_INT(grove_dgsp_wallet_recover(w, &marked), GROVE_OK);
    CHECK_EQ_INT(marked, 1);
    CHECK_EQ_INT(used_of(w), 2);
    CHECK_EQ_INT(grove_dgsp_wallet_registry_status(w, &listed, &stale), GROVE_OK);
    CHECK_EQ_INT(listed, 2);
    CHECK_EQ_INT(stale, 0);
    grove_dgsp_wallet_close(w);
    free(s1);
    free(s2);
}

/* Used certificates of a wallet signed without the registry join it at the next signature. */
static void test_migration(void)
{
    cred c;
    join("migrate", &c);
    grove_dgsp_wallet *w = make_wallet("m.w", &c, NULL, 5);
    grove_dgsp_wallet_close(w);
    copy_file("m.w", "m.bak");
    uint8_t *sig = malloc(SB);
    w = open_wallet("m.w", 0);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig, (const uint8_t *)"a", 1), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig, (const uint8_t *)"b", 1), GROVE_OK);
    grove_dgsp_wallet_close(w);
    w = open_wallet("m.w", 1);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig, (const uint8_t *)"c", 1), GROVE_OK);
    uint64_t listed = 0, stale = 9;
    CHECK_EQ_INT(grove_dgsp_wallet_registry_status(w, &listed, &stale), GROVE_OK);
    CHECK_EQ_INT(listed, 3);
    CHECK_EQ_INT(stale, 0);
    grove_dgsp_wallet_close(w);
    copy_file("m.bak", "m.w");
    w = open_wallet("m.w", 1);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig, (const uint8_t *)"d", 1), GROVE_ERR_STATE);
    uint64_t marked = 0;
    CHECK_EQ_INT(grove_dgsp_wallet_recover(w, &marked), GROVE_OK);
    CHECK_EQ_INT(marked, 3);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig, (const uint8_t *)"d", 1), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_available(w), 1);
    grove_dgsp_wallet_close(w);
    free(sig);
}

/*
 * A wallet re-created from the same seed and credential, holding the same certificates again
 * (wallet_add), maps to the same registry entry; a wallet with another seed shares the entry
 * without conflict.
 */
static void test_recreated(void)
{
    cred c;
    join("recreate", &c);
    uint8_t seed_u[32], seeds[3 * 32], pks[3 * 32], *certs = malloc(3 * CB), *sig = malloc(SB);
    CHECK_EQ_INT(grove_dgsp_keygen_user(&cfg, seed_u), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_csr(&cfg, pks, seeds, 3, seed_u), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_gen_cert(&cfg, store, certs, pks, 3, c.id, c.cid_star, gsk, 1),
                 GROVE_OK);
    const char *names[2] = {"rc1.w", "rc2.w"};
    grove_dgsp_wallet *w[2];
    for (int k = 0; k < 2; k++) {
        char p[512];
        path_of(p, sizeof p, names[k]);
        CHECK_EQ_INT(grove_dgsp_wallet_create(&cfg, &w[k], p, seed_u, c.id, c.cid_star, gpk),
                     GROVE_OK);
        for (size_t i = 0; i < 3; i++)
            CHECK_EQ_INT(grove_dgsp_wallet_add(w[k], seeds + i * N, certs + i * CB), GROVE_OK);
        CHECK_EQ_INT(grove_dgsp_wallet_set_registry(w[k], reg), GROVE_OK);
    }
    uint8_t id1[16], id2[16];
    CHECK_EQ_INT(grove_dgsp_wallet_registry_id(w[0], id1), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_registry_id(w[1], id2), GROVE_OK);
    CHECK_MEM(id1, id2, 16);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w[0], sig, (const uint8_t *)"x", 1), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w[1], sig, (const uint8_t *)"y", 1), GROVE_ERR_STATE);
    CHECK_EQ_INT(grove_dgsp_wallet_available(w[1]), 3);
    /* another seed of the same member: its own certificates sign, nothing stale */
    grove_dgsp_wallet *o = make_wallet("rc3.w", &c, NULL, 2);
    CHECK_EQ_INT(grove_dgsp_wallet_set_registry(o, reg), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(o, sig, (const uint8_t *)"z", 1), GROVE_OK);
    uint64_t listed = 0, stale = 0;
    CHECK_EQ_INT(grove_dgsp_wallet_registry_status(o, &listed, &stale), GROVE_OK);
    CHECK_EQ_INT(listed, 2);
    CHECK_EQ_INT(stale, 0);
    grove_dgsp_wallet_close(o);
    grove_dgsp_wallet_close(w[0]);
    grove_dgsp_wallet_close(w[1]);
    free(certs);
    free(sig);
}

/* ---- integrity ------------------------------------------------------------------------------ */

/* Read or write one blob of the wallet file behind the library's back. */
static size_t blob_io(const char *name, const char *sql_get, const char *sql_set,
                      const char *key, long long row, uint8_t *buf, size_t len, int write)
{
    char p[512];
    path_of(p, sizeof p, name);
    sqlite3 *db;
    CHECK_EQ_INT(sqlite3_open(p, &db), SQLITE_OK);
    sqlite3_exec(db, "PRAGMA synchronous=OFF", NULL, NULL, NULL);
    sqlite3_stmt *q;
    CHECK_EQ_INT(sqlite3_prepare_v2(db, write ? sql_set : sql_get, -1, &q, NULL), SQLITE_OK);
    if (key)
        sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    else
        sqlite3_bind_int64(q, 1, row);
    size_t got = 0;
    if (write) {
        sqlite3_bind_blob(q, 2, buf, (int)len, SQLITE_STATIC);
        CHECK_EQ_INT(sqlite3_step(q), SQLITE_DONE);
        got = len;
    } else if (sqlite3_step(q) == SQLITE_ROW) {
        got = (size_t)sqlite3_column_bytes(q, 0);
        CHECK(got <= len);
        if (got <= len)
            memcpy(buf, sqlite3_column_blob(q, 0), got);
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    return got;
}

static size_t meta_io(const char *name, const char *key, uint8_t *buf, size_t len, int write)
{
    return blob_io(name, "SELECT value FROM meta WHERE key = ?1",
                   "UPDATE meta SET value = ?2 WHERE key = ?1", key, 0, buf, len, write);
}

static size_t cert_io(const char *name, const char *col, long long row, uint8_t *buf, size_t len,
                      int write)
{
    char get[128], set[128];
    snprintf(get, sizeof get, "SELECT %s FROM certs WHERE rowid = ?1", col);
    snprintf(set, sizeof set, "UPDATE certs SET %s = ?2 WHERE rowid = ?1", col);
    return blob_io(name, get, set, NULL, row, buf, len, write);
}

/* Opening and signing are refused, nothing is marked used, the registry does not move. */
static int refused_untouched(const char *name, int expect_damaged)
{
    grove_dgsp_wallet *w = open_wallet(name, 1);
    if (w == NULL)
        return 0;
    uint8_t *sig = malloc(SB);
    uint64_t r0 = 0, u0 = 0, r1 = 0, u1 = 0, l0 = 0, l1 = 0;
    int ok = grove_dgsp_wallet_counts(w, NULL, &r0, &u0) == GROVE_OK &&
             grove_dgsp_wallet_registry_status(w, &l0, NULL) == GROVE_OK;
    int damaged = grove_dgsp_wallet_is_damaged(w);
    memset(sig, 0, SB);
    int st = grove_dgsp_wallet_sign(w, sig, (const uint8_t *)"m", 1);
    ok = ok && st == GROVE_ERR_ENCODING && damaged == expect_damaged && all_zero(sig, SB) &&
             grove_dgsp_wallet_last_error(w)[0] != '\0';
    ok = ok && grove_dgsp_wallet_counts(w, NULL, &r1, &u1) == GROVE_OK &&
         grove_dgsp_wallet_registry_status(w, &l1, NULL) == GROVE_OK;
    ok = ok && r0 == r1 && u0 == u1 && l0 == l1;
    static int reported;
    if (!ok && reported++ < 5)
        fprintf(stderr, "  sign status %d (%s), damaged %d, ready %llu->%llu, used %llu->%llu\n",
                st, grove_dgsp_wallet_last_error(w), damaged, (unsigned long long)r0,
                (unsigned long long)r1, (unsigned long long)u0, (unsigned long long)u1);
    free(sig);
    grove_dgsp_wallet_close(w);
    return ok;
}

/* Every bit of a meta value: the wallet opens damaged and refuses to sign. */
static void flip_meta(const char *name, const char *key, size_t len)
{
    uint8_t orig[64], bad[64];
    CHECK_EQ_INT(meta_io(name, key, orig, sizeof orig, 0), len);
    size_t fails = 0;
    for (size_t bit = 0; bit < 8 * len; bit++) {
        memcpy(bad, orig, len);
        bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        meta_io(name, key, bad, len, 1);
        fails += !refused_untouched(name, 1);
    }
    meta_io(name, key, orig, len, 1);
    if (fails)
        fprintf(stderr, "meta %s: %zu of %zu one-bit corruptions not refused\n", key, fails,
                8 * len);
    CHECK_EQ_INT(fails, 0);
}

/* Bits [0, 8 * range) of a column (len bytes) of a certificate row: every `step`-th bit. */
static void flip_cert(const char *name, const char *col, long long row, size_t len, size_t range,
                      size_t step)
{
    uint8_t *orig = malloc(len), *bad = malloc(len);
    CHECK_EQ_INT(cert_io(name, col, row, orig, len, 0), len);
    size_t fails = 0, tried = 0;
    for (size_t bit = 0; bit < 8 * range; bit += step) {
        memcpy(bad, orig, len);
        bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        cert_io(name, col, row, bad, len, 1);
        fails += !refused_untouched(name, 0);
        tried++;
    }
    cert_io(name, col, row, orig, len, 1);
    if (fails)
        fprintf(stderr, "certs.%s: %zu of %zu one-bit corruptions not refused\n", col, fails,
                tried);
    CHECK_EQ_INT(fails, 0);
    free(orig);
    free(bad);
}

static void test_integrity(void)
{
    cred c;
    join("integrity", &c);
    grove_dgsp_wallet *w = make_wallet("i.w", &c, NULL, 3);
    uint8_t *sig = malloc(SB);
    CHECK_EQ_INT(grove_dgsp_wallet_set_registry(w, reg), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig, (const uint8_t *)"first", 5), GROVE_OK);
    grove_dgsp_wallet_close(w);
    /* the wallet's own secrets and what they are bound to */
    flip_meta("i.w", "seed_u", N);
    flip_meta("i.w", "cid_star", N);
    flip_meta("i.w", "group_pk", 2 * N);
    flip_meta("i.w", "id", 8);
    flip_meta("i.w", "check", 32);
    /* the next certificate (row 2): one-time seed, WOTS+ key, certificate */
    flip_cert("i.w", "wots_seed", 2, N, N, 1);
    flip_cert("i.w", "wots_pk", 2, N, N, 1);
    flip_cert("i.w", "cert", 2, CB, 16 + N, 1);         /* zeta and pi: every bit */
    flip_cert("i.w", "cert", 2, CB, CB, 8 * CB / 97 + 1); /* the SPHINCS+ part: 97 spread bits */
    /* untouched again: signs */
    w = open_wallet("i.w", 1);
    CHECK_EQ_INT(grove_dgsp_wallet_is_damaged(w), 0);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig, (const uint8_t *)"second", 6), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_verify(&cfg, sig, SB, (const uint8_t *)"second", 6, gpk, NULL),
                 GROVE_OK);
    grove_dgsp_wallet_close(w);
    /* a wallet without a check value (made before it existed) opens and signs; a damaged seed
     * is still caught when it signs */
    char p[512];
    path_of(p, sizeof p, "i.w");
    sqlite3 *db;
    CHECK_EQ_INT(sqlite3_open(p, &db), SQLITE_OK);
    CHECK_EQ_INT(sqlite3_exec(db, "DELETE FROM meta WHERE key = 'check'", NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    uint8_t seed[32];
    CHECK_EQ_INT(meta_io("i.w", "seed_u", seed, sizeof seed, 0), N);
    seed[0] ^= 0x10;
    meta_io("i.w", "seed_u", seed, N, 1);
    CHECK(refused_untouched("i.w", 0));
    seed[0] ^= 0x10;
    meta_io("i.w", "seed_u", seed, N, 1);
    w = open_wallet("i.w", 1);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig, (const uint8_t *)"third", 5), GROVE_OK);
    grove_dgsp_wallet_close(w);
    free(sig);
}

/* A damaged registry entry stops signing (never read as "nothing used"). */
static void test_damaged_entry(void)
{
    cred c;
    join("damaged-entry", &c);
    grove_dgsp_wallet *w = make_wallet("d.w", &c, NULL, 2);
    uint8_t *sig = malloc(SB), id[16];
    CHECK_EQ_INT(grove_dgsp_wallet_set_registry(w, reg), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig, (const uint8_t *)"a", 1), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_registry_id(w, id), GROVE_OK);
    grove_registry_entry *e;
    CHECK_EQ_INT(grove_registry_lock(reg, &e, GROVE_DGSP_WALLET_REGISTRY_KIND, id, 16), GROVE_OK);
    char path[1024];
    snprintf(path, sizeof path, "%s", grove_registry_entry_path(e));
    grove_registry_unlock(e);
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        fseek(f, 30, SEEK_SET);
        fputc('z', f);
        fclose(f);
    }
    CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig, (const uint8_t *)"b", 1), GROVE_ERR_STATE);
    CHECK(strstr(grove_dgsp_wallet_last_error(w), "damaged") != NULL);
    CHECK_EQ_INT(grove_dgsp_wallet_available(w), 1);
    uint64_t marked;
    CHECK_EQ_INT(grove_dgsp_wallet_recover(w, &marked), GROVE_ERR_STATE);
    CHECK_EQ_INT(grove_dgsp_wallet_available(w), 1);
    grove_dgsp_wallet_close(w);
    free(sig);
}

/* Threads on one wallet object with the registry: every certificate signs once. */
struct worker {
    grove_dgsp_wallet *w;
    uint8_t zetas[8][16];
    int done;
};

static void *sign_worker(void *arg)
{
    struct worker *k = arg;
    uint8_t *sig = malloc(SB);
    for (int i = 0; i < 8 && sig; i++) {
        if (grove_dgsp_wallet_sign(k->w, sig, (const uint8_t *)&i, sizeof i) != GROVE_OK)
            break;
        memcpy(k->zetas[k->done++], zeta_of(sig), 16);
    }
    free(sig);
    return NULL;
}

static int cmp16(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

static void test_threads(void)
{
    cred c;
    join("threads", &c);
    grove_dgsp_wallet *w = make_wallet("t.w", &c, NULL, 20);
    CHECK_EQ_INT(grove_dgsp_wallet_set_registry(w, reg), GROVE_OK);
    struct worker k[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        k[i].w = w;
        k[i].done = 0;
        CHECK(pthread_create(&t[i], NULL, sign_worker, &k[i]) == 0);
    }
    uint8_t all[32][16];
    int n = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        for (int j = 0; j < k[i].done; j++)
            memcpy(all[n++], k[i].zetas[j], 16);
    }
    CHECK_EQ_INT(n, 20);
    qsort(all, (size_t)n, 16, cmp16);
    for (int i = 1; i < n; i++)
        CHECK(memcmp(all[i - 1], all[i], 16) != 0);
    uint64_t listed = 0;
    CHECK_EQ_INT(grove_dgsp_wallet_registry_status(w, &listed, NULL), GROVE_OK);
    CHECK_EQ_INT(listed, 20);
    grove_dgsp_wallet_close(w);
}

/* The record: a header line, a count line, 33 bytes per used certificate. */
static void test_record_size(void)
{
    cred c;
    join("size", &c);
    grove_dgsp_wallet *w = make_wallet("s.w", &c, NULL, 50);
    uint8_t *sig = malloc(SB), id[16];
    CHECK_EQ_INT(grove_dgsp_wallet_set_registry(w, reg), GROVE_OK);
    for (int i = 0; i < 50; i++)
        CHECK_EQ_INT(grove_dgsp_wallet_sign(w, sig, (const uint8_t *)&i, sizeof i), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_wallet_registry_id(w, id), GROVE_OK);
    char *rec = NULL;
    size_t len = 0;
    CHECK_EQ_INT(grove_registry_peek(reg, &rec, &len, GROVE_DGSP_WALLET_REGISTRY_KIND, id, 16),
                 GROVE_OK);
    CHECK_EQ_INT(len, strlen("grove-dgsp-wallet v1\nused 50\n") + 50 * 33);
    CHECK(rec && strncmp(rec, "grove-dgsp-wallet v1\nused 50\n", 29) == 0);
    free(rec);
    grove_dgsp_wallet_close(w);
    free(sig);
}

int main(int argc, char **argv)
{
    setup(argc > 1 ? argv[1] : "sha2-128f");
    test_restore();
    test_migration();
    test_recreated();
    test_integrity();
    test_damaged_entry();
    test_threads();
    test_record_size();
    grove_registry_close(reg);
    grove_dgsp_store_close(store);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_done();
}
