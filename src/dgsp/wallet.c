/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The member's wallet: one-time certificates that sign once. Backed by SQLite, either a file
 * (durable: every change committed before returning) or ":memory:". Schema version 1:
 *   meta(key TEXT PRIMARY KEY, value BLOB)     schema_version, params, flavour, profile, id,
 *                                              cid_star, seed_u (secret), group_pk, check
 *   certs(rowid INTEGER PRIMARY KEY, wots_pk BLOB, wots_seed BLOB (secret; zeroed once used),
 *         cert BLOB (NULL while pending), state INTEGER: 0 pending, 1 ready, 2 used)
 * "check" (wallets made since the state registry) is SHA-256 over the label, params, flavour,
 * profile, id, cid*, seed_u and group_pk; wallets without it are accepted (their certificates
 * are still checked when they sign).
 *
 * With a state registry (grove/state.h) attached, the entry ("dgsp-wallet", registry id) holds
 *   grove-dgsp-wallet v1
 *   used <count>
 *   <32 hex digits>           one line per used certificate, ascending
 * Signing checks the next certificate, records it as used in the wallet (durably, seed erased),
 * then in the registry (durably), and only then computes the signature. A crash between the
 * two records leaves the registry behind the wallet: the next signature brings it forward. A
 * wallet behind its registry entry is an older copy (a restored backup, or a copy used
 * elsewhere): it is refused until grove_dgsp_wallet_recover fast-forwards it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/encoding.h"
#include "common/util.h"
#include "dgsp/dgsp_int.h"
#include "grove/state.h"
#include "hash/sha2.h"


enum { W_PENDING = 0, W_READY = 1, W_USED = 2 };

#define FP_BYTES GROVE_DGSP_WALLET_FINGERPRINT_BYTES
#define REG_ID_BYTES GROVE_DGSP_WALLET_REGISTRY_ID_BYTES
#define REG_HEAD "grove-dgsp-wallet v1\n"
#define CHECK_LABEL "grove-dgsp-wallet-check-v1"
#define REG_ID_LABEL "grove-dgsp-wallet-registry-v1"

struct grove_dgsp_wallet {
    grove_dgsp_cfg cfg;
    uint8_t seed_u[GROVE_DGSP_MAX_N];
    uint8_t cid_star[GROVE_DGSP_MAX_N];
    uint8_t group_pk[GROVE_DGSP_MAX_PK_BYTES];
    int has_pk;
    int file;
    int damaged; /* the check value did not match at open */
    uint64_t id;
    sqlite3 *db;
    pthread_mutex_t lock;
    grove_registry *reg;
    uint8_t reg_id[REG_ID_BYTES];
    char err[512];
};

static void set_err(grove_dgsp_wallet *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(grove_dgsp_wallet *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, sizeof w->err, fmt, ap);
    va_end(ap);
}

static int w_exec(grove_dgsp_wallet *w, const char *sql)
{
    return sqlite3_exec(w->db, sql, NULL, NULL, NULL) == SQLITE_OK ? GROVE_OK : GROVE_ERR_STORAGE;
}

static int w_finish(grove_dgsp_wallet *w, int r)
{
    if (r == GROVE_OK && w_exec(w, "COMMIT") == GROVE_OK)
        return GROVE_OK;
    if (!sqlite3_get_autocommit(w->db))
        w_exec(w, "ROLLBACK");
    return r == GROVE_OK ? GROVE_ERR_STORAGE : r;
}

static int meta_put(grove_dgsp_wallet *w, const char *key, const void *val, size_t len)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(w->db, "INSERT INTO meta(key, value) VALUES(?1, ?2)", -1, &q, NULL) !=
        SQLITE_OK)
        return GROVE_ERR_STORAGE;
    sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_blob(q, 2, val, (int)len, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? GROVE_OK : GROVE_ERR_STORAGE;
}

/* Reads a meta value of exactly `len` bytes (len 0: any length up to cap, returned in *got). */
static int meta_get(grove_dgsp_wallet *w, const char *key, void *val, size_t len, size_t cap,
                    size_t *got)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(w->db, "SELECT value FROM meta WHERE key = ?1", -1, &q, NULL) !=
        SQLITE_OK)
        return GROVE_ERR_STORAGE;
    sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q), r;
    if (rc == SQLITE_ROW) {
        size_t l = (size_t)sqlite3_column_bytes(q, 0);
        const void *b = sqlite3_column_blob(q, 0);
        if ((len && l != len) || (!len && l > cap) || (l && b == NULL)) {
            r = GROVE_ERR_ENCODING;
        } else {
            if (l)
                memcpy(val, b, l);
            if (got)
                *got = l;
            r = GROVE_OK;
        }
    } else {
        r = rc == SQLITE_DONE ? GROVE_ERR_NOT_FOUND : GROVE_ERR_STORAGE;
    }
    sqlite3_finalize(q);
    return r;
}

/* The check value over the wallet's secrets and the public data they belong to. */
static void wallet_check_value(const grove_dgsp_wallet *w, uint8_t out[32])
{
    const size_t n = w->cfg.n;
    const char *params = grove_dgsp_params_name(w->cfg.params);
    const char *flavour = grove_slhdsa_params_is_fips205(w->cfg.spx) ? "fips205" : "r3.1";
    const char *profile = grove_dgsp_profile_name(w->cfg.profile);
    uint8_t idb[8], has = (uint8_t)(w->has_pk != 0);
    grove_store64_be(idb, w->id);
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)CHECK_LABEL, sizeof CHECK_LABEL);
    grove_sha256_update(&c, (const uint8_t *)params, strlen(params) + 1);
    grove_sha256_update(&c, (const uint8_t *)flavour, strlen(flavour) + 1);
    grove_sha256_update(&c, (const uint8_t *)profile, strlen(profile) + 1);
    grove_sha256_update(&c, idb, 8);
    grove_sha256_update(&c, w->cid_star, n);
    grove_sha256_update(&c, w->seed_u, n);
    grove_sha256_update(&c, &has, 1);
    if (w->has_pk)
        grove_sha256_update(&c, w->group_pk, 2 * n);
    grove_sha256_final(&c, out, 32);
    grove_wipe(&c, sizeof c);
}

/* The registry id: SHA-256(label || be64(id) || cid*), first 16 bytes. */
static void wallet_registry_id(grove_dgsp_wallet *w)
{
    uint8_t idb[8], d[32];
    grove_store64_be(idb, w->id);
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)REG_ID_LABEL, sizeof REG_ID_LABEL - 1);
    grove_sha256_update(&c, idb, 8);
    grove_sha256_update(&c, w->cid_star, w->cfg.n);
    grove_sha256_final(&c, d, sizeof d);
    memcpy(w->reg_id, d, REG_ID_BYTES);
    grove_wipe(&c, sizeof c);
    grove_wipe(d, sizeof d);
}

static int open_db(const char *path, int create, grove_dgsp_wallet **out)
{
    grove_dgsp_wallet *w = calloc(1, sizeof *w);
    if (w == NULL)
        return GROVE_ERR_NOMEM;
    if (pthread_mutex_init(&w->lock, NULL) != 0) {
        free(w);
        return GROVE_ERR_NOMEM;
    }
    w->file = strcmp(path, ":memory:") != 0;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
    int r = GROVE_OK;
    if (sqlite3_open_v2(path, &w->db, flags, NULL) != SQLITE_OK) {
        r = create ? GROVE_ERR_STORAGE : GROVE_ERR_NOT_FOUND;
    } else {
        sqlite3_busy_timeout(w->db, 30000);
        const char *pragmas = w->file ? "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                                        "PRAGMA secure_delete=ON;"
                                      : "PRAGMA secure_delete=ON;";
        r = w_exec(w, pragmas);
    }
    if (r != GROVE_OK) {
        sqlite3_close(w->db);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return r;
    }
    *out = w;
    return GROVE_OK;
}

void grove_dgsp_wallet_close(grove_dgsp_wallet *w)
{
    if (w == NULL)
        return;
    sqlite3_close(w->db);
    pthread_mutex_destroy(&w->lock);
    grove_wipe(w, sizeof *w);
    free(w);
}

static int create_common(const char *path, const grove_dgsp_cfg *cfg, const uint8_t *seed_u,
                         uint64_t id, const uint8_t *cid_star, const uint8_t *group_pk,
                         grove_dgsp_wallet **out)
{
    if (!dgsp_cfg_ok(cfg) || cid_star == NULL || out == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_dgsp_wallet *w;
    int r = open_db(path, 1, &w);
    if (r != GROVE_OK)
        return r;
    w->cfg = *cfg;
    w->id = id;
    memcpy(w->cid_star, cid_star, cfg->n);
    if (seed_u)
        memcpy(w->seed_u, seed_u, cfg->n);
    else
        r = grove_randombytes(w->seed_u, cfg->n);
    if (group_pk) {
        memcpy(w->group_pk, group_pk, 2 * (size_t)cfg->n);
        w->has_pk = 1;
    }
    if (r == GROVE_OK)
        r = w_exec(w, "BEGIN IMMEDIATE;"
                      "CREATE TABLE meta(key TEXT PRIMARY KEY, value BLOB NOT NULL);"
                      "CREATE TABLE certs(wots_pk BLOB NOT NULL, wots_seed BLOB NOT NULL,"
                      " cert BLOB, state INTEGER NOT NULL);"
                      "CREATE INDEX certs_pk ON certs(wots_pk);"
                      "CREATE INDEX certs_state ON certs(state);");
    uint8_t idb[8];
    grove_store64_be(idb, id);
    const char *params = grove_dgsp_params_name(cfg->params);
    const char *flavour = grove_slhdsa_params_is_fips205(cfg->spx) ? "fips205" : "r3.1";
    const char *profile = grove_dgsp_profile_name(cfg->profile);
    if (r == GROVE_OK)
        r = meta_put(w, "schema_version", "1", 1);
    if (r == GROVE_OK)
        r = meta_put(w, "params", params, strlen(params));
    if (r == GROVE_OK)
        r = meta_put(w, "flavour", flavour, strlen(flavour));
    if (r == GROVE_OK)
        r = meta_put(w, "profile", profile, strlen(profile));
    if (r == GROVE_OK)
        r = meta_put(w, "id", idb, 8);
    if (r == GROVE_OK)
        r = meta_put(w, "cid_star", cid_star, cfg->n);
    if (r == GROVE_OK)
        r = meta_put(w, "seed_u", w->seed_u, cfg->n);
    if (r == GROVE_OK && group_pk)
        r = meta_put(w, "group_pk", group_pk, 2 * (size_t)cfg->n);
    uint8_t check[32];
    wallet_check_value(w, check);
    if (r == GROVE_OK)
        r = meta_put(w, "check", check, sizeof check);
    grove_wipe(check, sizeof check);
    wallet_registry_id(w);
    r = w_finish(w, r);
    if (r != GROVE_OK) {
        grove_dgsp_wallet_close(w);
        return r;
    }
    *out = w;
    return GROVE_OK;
}

grove_status grove_dgsp_wallet_memory_open(const grove_dgsp_cfg *cfg, grove_dgsp_wallet **out,
                                           const uint8_t *seed_u, uint64_t id,
                                           const uint8_t *cid_star)
{
    return create_common(":memory:", cfg, seed_u, id, cid_star, NULL, out);
}

grove_status grove_dgsp_wallet_create(const grove_dgsp_cfg *cfg, grove_dgsp_wallet **out,
                                      const char *path, const uint8_t *seed_u, uint64_t id,
                                      const uint8_t *cid_star, const uint8_t *group_pk)
{
    if (path == NULL || *path == '\0' || strcmp(path, ":memory:") == 0)
        return GROVE_ERR_INVALID_ARG;
    /* Create the file ourselves: mode 0600, and never over an existing file. */
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return errno == EEXIST ? GROVE_ERR_EXISTS : GROVE_ERR_IO;
    close(fd);
    int r = create_common(path, cfg, seed_u, id, cid_star, group_pk, out);
    if (r != GROVE_OK)
        unlink(path);
    return r;
}

grove_status grove_dgsp_wallet_open(grove_dgsp_wallet **out, const char *path)
{
    if (path == NULL || out == NULL || strcmp(path, ":memory:") == 0)
        return GROVE_ERR_INVALID_ARG;
    if (access(path, F_OK) != 0)
        return GROVE_ERR_NOT_FOUND;
    grove_dgsp_wallet *w;
    int r = open_db(path, 0, &w);
    if (r != GROVE_OK)
        return r;
    char params[32] = {0}, flavour[16] = {0}, profile[16] = {0}, ver[4] = {0};
    uint8_t idb[8];
    size_t l;
    r = meta_get(w, "schema_version", ver, 0, sizeof ver - 1, &l);
    if (r == GROVE_OK && strcmp(ver, "1") != 0)
        r = GROVE_ERR_UNSUPPORTED;
    if (r == GROVE_ERR_STORAGE)
        r = GROVE_ERR_ENCODING; /* not a wallet */
    if (r == GROVE_OK)
        r = meta_get(w, "params", params, 0, sizeof params - 1, &l);
    if (r == GROVE_OK)
        r = meta_get(w, "flavour", flavour, 0, sizeof flavour - 1, &l);
    if (r == GROVE_OK)
        r = meta_get(w, "profile", profile, 0, sizeof profile - 1, &l);
    grove_dgsp_flavour fl = GROVE_DGSP_FLAVOUR_R31;
    grove_dgsp_profile pr = GROVE_DGSP_PROFILE_GROVE;
    const grove_dgsp_params *set = grove_dgsp_params_get(params);
    if (r == GROVE_OK && (grove_dgsp_flavour_from_name(&fl, flavour) != GROVE_OK ||
                          grove_dgsp_profile_from_name(&pr, profile) != GROVE_OK || set == NULL))
        r = GROVE_ERR_ENCODING;
    if (r == GROVE_OK)
        r = grove_dgsp_cfg_init(&w->cfg, set, fl, pr);
    if (r == GROVE_OK)
        r = meta_get(w, "id", idb, 8, 8, NULL);
    if (r == GROVE_OK)
        r = meta_get(w, "cid_star", w->cid_star, w->cfg.n, w->cfg.n, NULL);
    if (r == GROVE_OK)
        r = meta_get(w, "seed_u", w->seed_u, w->cfg.n, w->cfg.n, NULL);
    if (r == GROVE_OK) {
        int pr2 = meta_get(w, "group_pk", w->group_pk, 2 * w->cfg.n, 2 * w->cfg.n, NULL);
        w->has_pk = pr2 == GROVE_OK;
        if (pr2 != GROVE_OK && pr2 != GROVE_ERR_NOT_FOUND)
            r = pr2;
    }
    if (r == GROVE_ERR_NOT_FOUND)
        r = GROVE_ERR_ENCODING; /* a required entry is missing: not a (complete) wallet */
    if (r != GROVE_OK) {
        grove_dgsp_wallet_close(w);
        return r;
    }
    w->id = grove_load64_be(idb);
    wallet_registry_id(w);
    /* the check value (absent in wallets made before it existed) */
    uint8_t stored[32], want[32];
    int cr = meta_get(w, "check", stored, sizeof stored, sizeof stored, NULL);
    if (cr == GROVE_OK || cr == GROVE_ERR_ENCODING) {
        wallet_check_value(w, want);
        if (cr != GROVE_OK || !grove_ct_memeq(stored, want, sizeof want)) {
            w->damaged = 1;
            set_err(w, "the wallet is damaged: its check value does not match its seed, "
                       "credential or group key (restore it from a backup, then run member "
                       "recover)");
        }
        grove_wipe(want, sizeof want);
    } else if (cr != GROVE_ERR_NOT_FOUND) {
        grove_dgsp_wallet_close(w);
        return cr;
    }
    *out = w;
    return GROVE_OK;
}

const grove_dgsp_cfg *grove_dgsp_wallet_cfg(const grove_dgsp_wallet *w)
{
    return w ? &w->cfg : NULL;
}

uint64_t grove_dgsp_wallet_id(const grove_dgsp_wallet *w)
{
    return w ? w->id : 0;
}

grove_status grove_dgsp_wallet_credential(const grove_dgsp_wallet *w, uint64_t *id,
                                          uint8_t *cid_star)
{
    if (w == NULL || id == NULL || cid_star == NULL)
        return GROVE_ERR_INVALID_ARG;
    *id = w->id;
    memcpy(cid_star, w->cid_star, w->cfg.n);
    return GROVE_OK;
}

grove_status grove_dgsp_wallet_group_pk(const grove_dgsp_wallet *w, uint8_t *pk)
{
    if (w == NULL || pk == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (!w->has_pk)
        return GROVE_ERR_NOT_FOUND;
    memcpy(pk, w->group_pk, 2 * (size_t)w->cfg.n);
    return GROVE_OK;
}

grove_status grove_dgsp_wallet_counts(const grove_dgsp_wallet *w, uint64_t *pending,
                                      uint64_t *ready, uint64_t *used)
{
    if (w == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_dgsp_wallet *mw = (grove_dgsp_wallet *)w;
    uint64_t c[3] = {0, 0, 0};
    sqlite3_stmt *q;
    pthread_mutex_lock(&mw->lock);
    int r = GROVE_OK;
    if (sqlite3_prepare_v2(w->db, "SELECT state, COUNT(*) FROM certs GROUP BY state", -1, &q,
                           NULL) != SQLITE_OK) {
        r = GROVE_ERR_STORAGE;
    } else {
        int rc;
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            int st = sqlite3_column_int(q, 0);
            if (st >= 0 && st <= 2)
                c[st] = (uint64_t)sqlite3_column_int64(q, 1);
        }
        if (rc != SQLITE_DONE)
            r = GROVE_ERR_STORAGE;
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&mw->lock);
    if (pending)
        *pending = c[0];
    if (ready)
        *ready = c[1];
    if (used)
        *used = c[2];
    return r;
}

size_t grove_dgsp_wallet_available(const grove_dgsp_wallet *w)
{
    uint64_t ready = 0;
    if (grove_dgsp_wallet_counts(w, NULL, &ready, NULL) != GROVE_OK)
        return 0;
    return (size_t)ready;
}

static int insert_cert(grove_dgsp_wallet *w, const uint8_t *wots_pk, const uint8_t *wots_seed,
                       const uint8_t *cert, int state)
{
    const size_t n = w->cfg.n;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(w->db,
                           "INSERT INTO certs(wots_pk, wots_seed, cert, state) VALUES(?1,?2,?3,?4)",
                           -1, &q, NULL) != SQLITE_OK)
        return GROVE_ERR_STORAGE;
    sqlite3_bind_blob(q, 1, wots_pk, (int)n, SQLITE_STATIC);
    sqlite3_bind_blob(q, 2, wots_seed, (int)n, SQLITE_STATIC);
    if (cert)
        sqlite3_bind_blob(q, 3, cert, (int)grove_dgsp_cert_bytes(&w->cfg), SQLITE_STATIC);
    else
        sqlite3_bind_null(q, 3);
    sqlite3_bind_int(q, 4, state);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? GROVE_OK : GROVE_ERR_STORAGE;
}

grove_status grove_dgsp_wallet_csr(grove_dgsp_wallet *w, uint8_t *wots_pks, size_t count)
{
    if (w == NULL || (count && wots_pks == NULL))
        return GROVE_ERR_INVALID_ARG;
    if (w->damaged)
        return GROVE_ERR_ENCODING;
    if (w->cfg.profile != GROVE_DGSP_PROFILE_GROVE)
        return GROVE_ERR_INSECURE_PROFILE;
    const size_t n = w->cfg.n;
    if (count > SIZE_MAX / n)
        return GROVE_ERR_INVALID_ARG;
    uint8_t *seeds = malloc(count ? count * n : 1);
    if (seeds == NULL)
        return GROVE_ERR_NOMEM;
    int r = grove_dgsp_csr(&w->cfg, wots_pks, seeds, count, w->seed_u);
    pthread_mutex_lock(&w->lock);
    if (r == GROVE_OK)
        r = w_exec(w, "BEGIN IMMEDIATE");
    for (size_t i = 0; i < count && r == GROVE_OK; i++)
        r = insert_cert(w, wots_pks + i * n, seeds + i * n, NULL, W_PENDING);
    if (r == GROVE_OK || !sqlite3_get_autocommit(w->db))
        r = w_finish(w, r);
    pthread_mutex_unlock(&w->lock);
    grove_wipe(seeds, count * n);
    free(seeds);
    return r;
}

grove_status grove_dgsp_wallet_import(grove_dgsp_wallet *w, const uint8_t *certs,
                                      const uint8_t *wots_pks, size_t count, const uint8_t *pk)
{
    if (w == NULL || pk == NULL || (count && (wots_pks == NULL || certs == NULL)))
        return GROVE_ERR_INVALID_ARG;
    if (w->damaged)
        return GROVE_ERR_ENCODING;
    const size_t n = w->cfg.n, cb = grove_dgsp_cert_bytes(&w->cfg);
    /* Every certificate is checked before the wallet changes. */
    int r = grove_dgsp_check_cert(&w->cfg, certs, wots_pks, count, w->id, pk);
    if (r != GROVE_OK)
        return r;
    pthread_mutex_lock(&w->lock);
    r = w_exec(w, "BEGIN IMMEDIATE");
    sqlite3_stmt *find = NULL, *upd = NULL;
    if (r == GROVE_OK &&
        (sqlite3_prepare_v2(w->db,
                            "SELECT rowid FROM certs WHERE wots_pk = ?1 AND state = 0 LIMIT 1", -1,
                            &find, NULL) != SQLITE_OK ||
         sqlite3_prepare_v2(w->db, "UPDATE certs SET cert = ?2, state = 1 WHERE rowid = ?1", -1,
                            &upd, NULL) != SQLITE_OK))
        r = GROVE_ERR_STORAGE;
    for (size_t i = 0; i < count && r == GROVE_OK; i++) {
        sqlite3_reset(find);
        sqlite3_bind_blob(find, 1, wots_pks + i * n, (int)n, SQLITE_STATIC);
        int rc = sqlite3_step(find);
        if (rc != SQLITE_ROW) {
            r = rc == SQLITE_DONE ? GROVE_ERR_NOT_FOUND : GROVE_ERR_STORAGE;
            break;
        }
        sqlite3_int64 row = sqlite3_column_int64(find, 0);
        sqlite3_reset(upd);
        sqlite3_bind_int64(upd, 1, row);
        sqlite3_bind_blob(upd, 2, certs + i * cb, (int)cb, SQLITE_STATIC);
        if (sqlite3_step(upd) != SQLITE_DONE)
            r = GROVE_ERR_STORAGE;
    }
    sqlite3_finalize(find);
    sqlite3_finalize(upd);
    r = w_finish(w, r);
    pthread_mutex_unlock(&w->lock);
    return r;
}

grove_status grove_dgsp_wallet_add(grove_dgsp_wallet *w, const uint8_t *wots_seed,
                                   const uint8_t *cert)
{
    if (w == NULL || wots_seed == NULL || cert == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (w->damaged)
        return GROVE_ERR_ENCODING;
    uint8_t wpk[GROVE_DGSP_MAX_N];
    int r = dgsp_csr_from_seeds(&w->cfg, w->seed_u, 1, wots_seed, wpk);
    pthread_mutex_lock(&w->lock);
    if (r == GROVE_OK)
        r = w_exec(w, "BEGIN IMMEDIATE");
    if (r == GROVE_OK)
        r = insert_cert(w, wpk, wots_seed, cert, W_READY);
    if (r == GROVE_OK || !sqlite3_get_autocommit(w->db))
        r = w_finish(w, r);
    pthread_mutex_unlock(&w->lock);
    return r;
}

/* ---- fingerprints and the state registry --------------------------------------------------- */

/* A set of fingerprints: v[0..sorted) ascending and distinct, v[sorted..n) appended since. */
typedef struct {
    uint8_t *v;
    size_t n, sorted, cap;
} fpset;

static void fps_free(fpset *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

static int fps_has(const fpset *s, const uint8_t *fp)
{
    size_t lo = 0, hi = s->sorted;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = memcmp(s->v + mid * FP_BYTES, fp, FP_BYTES);
        if (c == 0)
            return 1;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

static int fps_append(fpset *s, const uint8_t *fp)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 256;
        uint8_t *nv = nc <= SIZE_MAX / FP_BYTES ? realloc(s->v, nc * FP_BYTES) : NULL;
        if (nv == NULL)
            return GROVE_ERR_NOMEM;
        s->v = nv;
        s->cap = nc;
    }
    memcpy(s->v + s->n * FP_BYTES, fp, FP_BYTES);
    s->n++;
    return GROVE_OK;
}

static int cmp_fp(const void *a, const void *b)
{
    return memcmp(a, b, FP_BYTES);
}

/* Sort everything and drop duplicates. */
static void fps_normalize(fpset *s)
{
    if (s->n > 1)
        qsort(s->v, s->n, FP_BYTES, cmp_fp);
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (k > 0 && memcmp(s->v + (k - 1) * FP_BYTES, s->v + i * FP_BYTES, FP_BYTES) == 0)
            continue;
        if (k != i)
            memcpy(s->v + k * FP_BYTES, s->v + i * FP_BYTES, FP_BYTES);
        k++;
    }
    s->n = s->sorted = k;
}

/* Parse a registry record; GROVE_ERR_STATE unless it is exactly one this code writes. */
static int reg_parse(const char *rec, size_t len, fpset *s)
{
    const size_t hl = sizeof REG_HEAD - 1;
    if (len < hl + 7 || memcmp(rec, REG_HEAD, hl) != 0)
        return GROVE_ERR_STATE;
    uint64_t count;
    if (grove_record_u64(&count, rec + hl, "used") != GROVE_OK || memcmp(rec + hl, "used ", 5))
        return GROVE_ERR_STATE;
    const char *p = memchr(rec + hl, '\n', len - hl);
    if (p == NULL)
        return GROVE_ERR_STATE;
    p++;
    size_t rest = len - (size_t)(p - rec);
    if (count > rest / (2 * FP_BYTES + 1) || rest != count * (2 * FP_BYTES + 1))
        return GROVE_ERR_STATE;
    uint8_t fp[FP_BYTES];
    size_t got;
    for (uint64_t i = 0; i < count; i++, p += 2 * FP_BYTES + 1) {
        if (p[2 * FP_BYTES] != '\n' || grove_hex_decode(fp, sizeof fp, &got, p, 2 * FP_BYTES) != GROVE_OK)
            return GROVE_ERR_STATE;
        if (s->n > 0 && memcmp(s->v + (s->n - 1) * FP_BYTES, fp, FP_BYTES) >= 0)
            return GROVE_ERR_STATE; /* ascending and distinct */
        int r = fps_append(s, fp);
        if (r != GROVE_OK)
            return r;
    }
    s->sorted = s->n;
    return GROVE_OK;
}

static int reg_write(grove_dgsp_wallet *w, grove_registry_entry *e, const fpset *s)
{
    const size_t hl = sizeof REG_HEAD - 1, line = 2 * FP_BYTES + 1;
    if (s->n > (GROVE_REGISTRY_MAX_RECORD - hl - 32) / line) {
        set_err(w, "the state registry entry %s is full (%zu used certificates)",
                grove_registry_entry_path(e), s->n);
        return GROVE_ERR_STATE;
    }
    size_t cap = hl + 32 + s->n * line, o = hl;
    char *rec = malloc(cap);
    if (rec == NULL)
        return GROVE_ERR_NOMEM;
    memcpy(rec, REG_HEAD, hl);
    o += (size_t)snprintf(rec + o, cap - o, "used %zu\n", s->n);
    for (size_t i = 0; i < s->n; i++, o += line) {
        grove_hex_encode(rec + o, s->v + i * FP_BYTES, FP_BYTES);
        rec[o + line - 1] = '\n';
    }
    int r = grove_registry_write(e, rec, o);
    free(rec);
    if (r != GROVE_OK) {
        set_err(w, "cannot write the state registry entry %s: %s", grove_registry_entry_path(e),
                grove_strerror(r));
        return GROVE_ERR_STATE;
    }
    return GROVE_OK;
}

/* Read the entry (locked if e, else peeked) into s; a damaged entry is GROVE_ERR_STATE. */
static int reg_read(grove_dgsp_wallet *w, grove_registry_entry *e, fpset *s)
{
    char *rec = NULL;
    size_t len = 0;
    int r = e ? grove_registry_read(e, &rec, &len)
              : grove_registry_peek(w->reg, &rec, &len, GROVE_DGSP_WALLET_REGISTRY_KIND, w->reg_id,
                                    REG_ID_BYTES);
    if (r == GROVE_ERR_NOT_FOUND)
        r = GROVE_OK; /* nothing used yet */
    else if (r == GROVE_OK)
        r = reg_parse(rec, len, s);
    free(rec);
    if (r == GROVE_ERR_NOMEM)
        return r;
    if (r != GROVE_OK) {
        set_err(w, "the state registry entry of this wallet (in %s) is damaged or unreadable "
                   "(%s): refusing to sign until it is repaired (see docs/dgsp.md)",
                grove_registry_dir(w->reg), grove_strerror(r));
        return GROVE_ERR_STATE;
    }
    return GROVE_OK;
}

typedef int (*row_fn)(void *arg, sqlite3_int64 row, const uint8_t *wots_pk);

/* Calls fn(row, wots_pk) for every certificate row `sql` selects (rowid, wots_pk). */
static int for_each_cert(grove_dgsp_wallet *w, const char *sql, row_fn fn, void *arg)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(w->db, sql, -1, &q, NULL) != SQLITE_OK)
        return GROVE_ERR_STORAGE;
    int r = GROVE_OK, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        sqlite3_int64 row = sqlite3_column_int64(q, 0);
        const uint8_t *pk = sqlite3_column_blob(q, 1);
        if (pk == NULL || sqlite3_column_bytes(q, 1) != (int)w->cfg.n) {
            set_err(w, "certificate row %lld has a malformed WOTS+ key: the wallet is damaged",
                    (long long)row);
            r = GROVE_ERR_ENCODING;
            break;
        }
        r = fn(arg, row, pk);
        if (r != GROVE_OK)
            break;
    }
    if (r == GROVE_OK && rc != SQLITE_DONE)
        r = GROVE_ERR_STORAGE;
    sqlite3_finalize(q);
    return r;
}

/* Rows the registry lists as used although the wallet holds them unused. */
struct stale_scan {
    const fpset *used;
    uint64_t count;
    sqlite3_int64 *rows; /* collected when collect != 0 */
    size_t cap;
    int collect;
};

static int stale_fn(void *arg, sqlite3_int64 row, const uint8_t *wots_pk)
{
    struct stale_scan *s = arg;
    if (!fps_has(s->used, wots_pk))
        return GROVE_OK;
    if (s->collect) {
        if (s->count == s->cap) {
            size_t nc = s->cap ? 2 * s->cap : 64;
            sqlite3_int64 *nr = realloc(s->rows, nc * sizeof *nr);
            if (nr == NULL)
                return GROVE_ERR_NOMEM;
            s->rows = nr;
            s->cap = nc;
        }
        s->rows[s->count] = row;
    }
    s->count++;
    return GROVE_OK;
}

static int scan_stale(grove_dgsp_wallet *w, struct stale_scan *s)
{
    return for_each_cert(w, "SELECT rowid, wots_pk FROM certs WHERE state IN (0, 1)", stale_fn, s);
}

static int merge_fn(void *arg, sqlite3_int64 row, const uint8_t *wots_pk)
{
    (void)row;
    fpset *s = arg;
    return fps_has(s, wots_pk) ? GROVE_OK : fps_append(s, wots_pk);
}

/*
 * Add to the entry every certificate the wallet holds as used, and new_fp (may be NULL); the
 * entry is rewritten only if it gains something.
 */
static int reg_record(grove_dgsp_wallet *w, grove_registry_entry *e, fpset *used,
                      const uint8_t *new_fp)
{
    size_t before = used->n;
    int r = for_each_cert(w, "SELECT rowid, wots_pk FROM certs WHERE state = 2", merge_fn, used);
    if (r == GROVE_OK && new_fp != NULL && !fps_has(used, new_fp))
        r = fps_append(used, new_fp);
    if (r != GROVE_OK || used->n == before)
        return r;
    fps_normalize(used);
    return reg_write(w, e, used);
}

static int reg_lock(grove_dgsp_wallet *w, grove_registry_entry **e)
{
    int r =
        grove_registry_lock(w->reg, e, GROVE_DGSP_WALLET_REGISTRY_KIND, w->reg_id, REG_ID_BYTES);
    if (r == GROVE_OK)
        return GROVE_OK;
    set_err(w, "cannot lock this wallet's entry in the state registry %s: %s",
            grove_registry_dir(w->reg), grove_strerror(r));
    return GROVE_ERR_STATE;
}

/* Locked entry read plus the older-copy check. */
static int reg_check(grove_dgsp_wallet *w, grove_registry_entry *e, fpset *used)
{
    int r = reg_read(w, e, used);
    struct stale_scan sc = {used, 0, NULL, 0, 0};
    if (r == GROVE_OK)
        r = scan_stale(w, &sc);
    if (r == GROVE_OK && sc.count > 0) {
        set_err(w, "this wallet is an older copy (restored from a backup, or a copy used "
                   "elsewhere): %llu certificate(s) it holds as unused were already used "
                   "according to the state registry entry %s; recovering the wallet marks them "
                   "used",
                (unsigned long long)sc.count, grove_registry_entry_path(e));
        r = GROVE_ERR_STATE;
    }
    return r;
}

/* ---- signing ------------------------------------------------------------------------------ */

/* The next ready certificate: its row, WOTS+ key, one-time seed and certificate. */
static int next_ready(grove_dgsp_wallet *w, sqlite3_int64 *row, uint8_t *wpk, uint8_t *seed,
                      uint8_t *cert)
{
    const size_t n = w->cfg.n, cb = grove_dgsp_cert_bytes(&w->cfg);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(w->db,
                           "SELECT rowid, wots_pk, wots_seed, cert FROM certs WHERE state = 1 "
                           "ORDER BY rowid LIMIT 1",
                           -1, &q, NULL) != SQLITE_OK)
        return GROVE_ERR_STORAGE;
    int rc = sqlite3_step(q), r = GROVE_OK;
    if (rc == SQLITE_DONE) {
        r = GROVE_ERR_EXHAUSTED;
    } else if (rc != SQLITE_ROW) {
        r = GROVE_ERR_STORAGE;
    } else {
        *row = sqlite3_column_int64(q, 0);
        const void *a = sqlite3_column_blob(q, 1), *b = sqlite3_column_blob(q, 2),
                   *c = sqlite3_column_blob(q, 3);
        if (a == NULL || b == NULL || c == NULL || sqlite3_column_bytes(q, 1) != (int)n ||
            sqlite3_column_bytes(q, 2) != (int)n || sqlite3_column_bytes(q, 3) != (int)cb) {
            set_err(w, "certificate row %lld is malformed: the wallet is damaged (nothing was "
                       "marked used)",
                    (long long)*row);
            r = GROVE_ERR_ENCODING;
        } else {
            memcpy(wpk, a, n);
            memcpy(seed, b, n);
            memcpy(cert, c, cb);
        }
    }
    sqlite3_finalize(q);
    return r;
}

/*
 * Check the certificate about to be used against everything it is bound to, before anything is
 * marked used: the WOTS+ key re-derived from seed_u and its one-time seed must be the stored
 * (certified) one, and with the group key the certificate must verify for this member's id.
 * Any one-bit corruption of seed_u, a one-time seed, a WOTS+ key, the certificate, the id or the
 * group key fails here.
 */
static int check_next(grove_dgsp_wallet *w, sqlite3_int64 row, const uint8_t *wpk,
                      const uint8_t *seed, const uint8_t *cert)
{
    uint8_t got[GROVE_DGSP_MAX_N];
    int r = dgsp_csr_from_seeds(&w->cfg, w->seed_u, 1, seed, got);
    if (r != GROVE_OK)
        return r;
    if (!grove_ct_memeq(got, wpk, w->cfg.n)) {
        set_err(w, "certificate row %lld: its one-time seed (or the wallet's seed) does not give "
                   "its certified WOTS+ key: the wallet is damaged (nothing was marked used)",
                (long long)row);
        r = GROVE_ERR_ENCODING;
    } else if (w->has_pk &&
               grove_dgsp_check_cert(&w->cfg, cert, wpk, 1, w->id, w->group_pk) != GROVE_OK) {
        set_err(w, "certificate row %lld does not verify with the group public key for member "
                   "%llu: the wallet is damaged (nothing was marked used)",
                (long long)row, (unsigned long long)w->id);
        r = GROVE_ERR_ENCODING;
    }
    grove_wipe(got, sizeof got);
    return r;
}

static int mark_used(grove_dgsp_wallet *w, sqlite3_int64 row)
{
    sqlite3_stmt *u;
    if (sqlite3_prepare_v2(w->db,
                           "UPDATE certs SET state = 2, wots_seed = zeroblob(?2) WHERE rowid = ?1",
                           -1, &u, NULL) != SQLITE_OK)
        return GROVE_ERR_STORAGE;
    sqlite3_bind_int64(u, 1, row);
    sqlite3_bind_int(u, 2, (int)w->cfg.n);
    int r = sqlite3_step(u) == SQLITE_DONE ? GROVE_OK : GROVE_ERR_STORAGE;
    sqlite3_finalize(u);
    return r;
}

/* Move erased seeds into the main file and drop the WAL (file wallets). */
static void checkpoint(grove_dgsp_wallet *w)
{
    if (w->file)
        sqlite3_wal_checkpoint_v2(w->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
}

/*
 * The whole signing step under the wallet mutex: registry entry locked, wallet write
 * transaction open; check the next certificate; record it as used in the registry, then in the
 * wallet (its seed erased), both durably; only then is the signature computed.
 */
static int sign_locked(grove_dgsp_wallet *w, const uint8_t *msg, size_t msg_len, uint8_t *sig,
                       uint8_t *seed, uint8_t *cert)
{
    grove_registry_entry *e = NULL;
    fpset used = {0};
    sqlite3_int64 row = 0;
    uint8_t wpk[GROVE_DGSP_MAX_N];
    int r = w->reg ? reg_lock(w, &e) : GROVE_OK;
    if (r == GROVE_OK)
        r = w_exec(w, "BEGIN IMMEDIATE");
    if (r == GROVE_OK && e)
        r = reg_check(w, e, &used);
    if (r == GROVE_OK)
        r = next_ready(w, &row, wpk, seed, cert);
    if (r == GROVE_OK)
        r = check_next(w, row, wpk, seed, cert);
    if (r == GROVE_OK)
        r = mark_used(w, row);
    r = w_finish(w, r);
    /* The wallet first, then the registry, both before the signature exists: a crash between
     * the two leaves the registry behind the wallet, which the next signature brings forward
     * (reg_record adds every certificate the wallet holds as used). The certificate never
     * signed, so a copy of the wallet that still holds it unused may sign with it once. */
    if (r == GROVE_OK && e) {
        r = reg_record(w, e, &used, wpk);
        if (r != GROVE_OK)
            set_err(w, "the certificate is marked used in the wallet but the state registry "
                       "could not record it (%s): it is burned, nothing was signed",
                    grove_strerror(r));
    }
    if (r == GROVE_OK)
        checkpoint(w);
    grove_registry_unlock(e);
    fps_free(&used);
    /* the certificate is used for good now: a failure from here on burns it */
    if (r == GROVE_OK)
        r = dgsp_sign_raw(&w->cfg, msg, msg_len, w->seed_u, w->id, seed, cert, sig, 0);
    if (r != GROVE_OK)
        grove_wipe(sig, grove_dgsp_sig_bytes(&w->cfg));
    return r;
}

static int dgsp_wallet_sign_impl(grove_dgsp_wallet *w, const uint8_t *msg, size_t msg_len,
                                 uint8_t *sig)
{
    if (w == NULL || sig == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    if (w->cfg.profile != GROVE_DGSP_PROFILE_GROVE)
        return GROVE_ERR_INSECURE_PROFILE;
    if (w->damaged)
        return GROVE_ERR_ENCODING;
    uint8_t seed[GROVE_DGSP_MAX_N];
    uint8_t *cert = malloc(grove_dgsp_cert_bytes(&w->cfg));
    if (cert == NULL)
        return GROVE_ERR_NOMEM;
    pthread_mutex_lock(&w->lock);
    w->err[0] = '\0';
    int r = sign_locked(w, msg, msg_len, sig, seed, cert);
    pthread_mutex_unlock(&w->lock);
    grove_wipe(seed, sizeof seed);
    free(cert);
    return r;
}

grove_status grove_dgsp_wallet_sign(grove_dgsp_wallet *w, uint8_t *sig, const uint8_t *msg,
                                    size_t msg_len)
{
    int r = dgsp_wallet_sign_impl(w, msg, msg_len, sig);
    grove_burn_stack_bytes(DGSP_BURN_SIGN); /* spilled secrets in the frames below */
    return r;
}

/* ---- registry API ------------------------------------------------------------------------- */

grove_status grove_dgsp_wallet_registry_id(const grove_dgsp_wallet *w, uint8_t *id)
{
    if (w == NULL || id == NULL)
        return GROVE_ERR_INVALID_ARG;
    memcpy(id, w->reg_id, REG_ID_BYTES);
    return GROVE_OK;
}

grove_status grove_dgsp_wallet_set_registry(grove_dgsp_wallet *w, grove_registry *reg)
{
    if (w == NULL)
        return GROVE_ERR_INVALID_ARG;
    pthread_mutex_lock(&w->lock);
    w->reg = reg;
    pthread_mutex_unlock(&w->lock);
    return GROVE_OK;
}

grove_status grove_dgsp_wallet_registry_status(grove_dgsp_wallet *w, uint64_t *listed,
                                               uint64_t *stale)
{
    if (w == NULL)
        return GROVE_ERR_INVALID_ARG;
    pthread_mutex_lock(&w->lock);
    fpset used = {0};
    struct stale_scan sc = {&used, 0, NULL, 0, 0};
    int r = w->reg ? reg_read(w, NULL, &used) : GROVE_ERR_INVALID_ARG;
    if (r == GROVE_OK)
        r = scan_stale(w, &sc);
    if (r == GROVE_OK && listed)
        *listed = used.n;
    if (r == GROVE_OK && stale)
        *stale = sc.count;
    fps_free(&used);
    pthread_mutex_unlock(&w->lock);
    return r;
}

static int recover_locked(grove_dgsp_wallet *w, uint64_t *marked)
{
    grove_registry_entry *e = NULL;
    fpset used = {0};
    struct stale_scan sc = {&used, 0, NULL, 0, 1};
    int r = reg_lock(w, &e);
    if (r == GROVE_OK)
        r = w_exec(w, "BEGIN IMMEDIATE");
    if (r == GROVE_OK)
        r = reg_read(w, e, &used);
    if (r == GROVE_OK)
        r = scan_stale(w, &sc);
    for (uint64_t i = 0; i < sc.count && r == GROVE_OK; i++)
        r = mark_used(w, sc.rows[i]);
    if (r == GROVE_OK)
        r = reg_record(w, e, &used, NULL);
    r = w_finish(w, r);
    if (r == GROVE_OK) {
        checkpoint(w);
        *marked = sc.count;
    }
    grove_registry_unlock(e);
    fps_free(&used);
    free(sc.rows);
    return r;
}

grove_status grove_dgsp_wallet_recover(grove_dgsp_wallet *w, uint64_t *marked)
{
    uint64_t m = 0;
    if (marked)
        *marked = 0;
    if (w == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (w->damaged)
        return GROVE_ERR_ENCODING;
    if (w->reg == NULL) {
        set_err(w, "no state registry attached");
        return GROVE_ERR_INVALID_ARG;
    }
    pthread_mutex_lock(&w->lock);
    w->err[0] = '\0';
    int r = recover_locked(w, &m);
    pthread_mutex_unlock(&w->lock);
    if (marked)
        *marked = m;
    return r;
}

bool grove_dgsp_wallet_is_damaged(const grove_dgsp_wallet *w)
{
    return w ? w->damaged : 0;
}

const char *grove_dgsp_wallet_last_error(const grove_dgsp_wallet *w)
{
    return w ? w->err : "";
}
