/*
 * The member's wallet: one-time certificates that sign once. Backed by SQLite, either a file
 * (durable: every change committed before returning) or ":memory:". Schema version 1:
 *   meta(key TEXT PRIMARY KEY, value BLOB)     schema_version, params, flavour, profile, id,
 *                                              cid_star, seed_u (secret), group_pk
 *   certs(rowid INTEGER PRIMARY KEY, wots_pk BLOB, wots_seed BLOB (secret; zeroed once used),
 *         cert BLOB (NULL while pending), state INTEGER: 0 pending, 1 ready, 2 used)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "dgsp/dgsp_int.h"


enum { W_PENDING = 0, W_READY = 1, W_USED = 2 };

struct grove_dgsp_wallet {
    grove_dgsp_cfg cfg;
    uint8_t seed_u[GROVE_DGSP_MAX_N];
    uint8_t cid_star[GROVE_DGSP_MAX_N];
    uint8_t group_pk[GROVE_DGSP_MAX_PK_BYTES];
    int has_pk;
    int file;
    uint64_t id;
    sqlite3 *db;
    pthread_mutex_t lock;
};

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

void grove_dgsp_wallet_free(grove_dgsp_wallet *w)
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
    const char *params = grove_dgsp_params_name(cfg);
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
    r = w_finish(w, r);
    if (r != GROVE_OK) {
        grove_dgsp_wallet_free(w);
        return r;
    }
    *out = w;
    return GROVE_OK;
}

int grove_dgsp_wallet_new(const grove_dgsp_cfg *cfg, const uint8_t *seed_u, uint64_t id,
                          const uint8_t *cid_star, grove_dgsp_wallet **out)
{
    return create_common(":memory:", cfg, seed_u, id, cid_star, NULL, out);
}

int grove_dgsp_wallet_create(const char *path, const grove_dgsp_cfg *cfg, const uint8_t *seed_u,
                             uint64_t id, const uint8_t *cid_star, const uint8_t *group_pk,
                             grove_dgsp_wallet **out)
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

int grove_dgsp_wallet_open(const char *path, grove_dgsp_wallet **out)
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
    int fl = grove_dgsp_flavour_from_name(flavour), pr = grove_dgsp_profile_from_name(profile);
    if (r == GROVE_OK && (fl < 0 || pr < 0))
        r = GROVE_ERR_ENCODING;
    if (r == GROVE_OK)
        r = grove_dgsp_cfg_init(&w->cfg, params, (grove_dgsp_flavour)fl, (grove_dgsp_profile)pr);
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
        grove_dgsp_wallet_free(w);
        return r;
    }
    w->id = grove_load64_be(idb);
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

int grove_dgsp_wallet_credential(const grove_dgsp_wallet *w, uint64_t *id, uint8_t *cid_star)
{
    if (w == NULL || id == NULL || cid_star == NULL)
        return GROVE_ERR_INVALID_ARG;
    *id = w->id;
    memcpy(cid_star, w->cid_star, w->cfg.n);
    return GROVE_OK;
}

int grove_dgsp_wallet_group_pk(const grove_dgsp_wallet *w, uint8_t *pk)
{
    if (w == NULL || pk == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (!w->has_pk)
        return GROVE_ERR_NOT_FOUND;
    memcpy(pk, w->group_pk, 2 * (size_t)w->cfg.n);
    return GROVE_OK;
}

int grove_dgsp_wallet_counts(const grove_dgsp_wallet *w, uint64_t *pending, uint64_t *ready,
                             uint64_t *used)
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

int grove_dgsp_wallet_csr(grove_dgsp_wallet *w, size_t count, uint8_t *wots_pks)
{
    if (w == NULL || (count && wots_pks == NULL))
        return GROVE_ERR_INVALID_ARG;
    if (w->cfg.profile != GROVE_DGSP_PROFILE_GROVE)
        return GROVE_ERR_INSECURE_PROFILE;
    const size_t n = w->cfg.n;
    if (count > SIZE_MAX / n)
        return GROVE_ERR_INVALID_ARG;
    uint8_t *seeds = malloc(count ? count * n : 1);
    if (seeds == NULL)
        return GROVE_ERR_NOMEM;
    int r = grove_dgsp_csr(&w->cfg, w->seed_u, count, wots_pks, seeds);
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

int grove_dgsp_wallet_import(grove_dgsp_wallet *w, const uint8_t *pk, const uint8_t *wots_pks,
                             const uint8_t *certs, size_t count)
{
    if (w == NULL || pk == NULL || (count && (wots_pks == NULL || certs == NULL)))
        return GROVE_ERR_INVALID_ARG;
    const size_t n = w->cfg.n, cb = grove_dgsp_cert_bytes(&w->cfg);
    /* Every certificate is checked before the wallet changes. */
    int r = grove_dgsp_check_cert(&w->cfg, pk, w->id, wots_pks, certs, count);
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

int grove_dgsp_wallet_add(grove_dgsp_wallet *w, const uint8_t *wots_seed, const uint8_t *cert)
{
    if (w == NULL || wots_seed == NULL || cert == NULL)
        return GROVE_ERR_INVALID_ARG;
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

/*
 * Take the next ready certificate: mark it used and erase its seed, committed durably, before
 * anything is signed. A crash after this point burns the certificate; it never signs twice.
 */
static int take_certificate(grove_dgsp_wallet *w, uint8_t *seed, uint8_t *cert)
{
    const size_t n = w->cfg.n, cb = grove_dgsp_cert_bytes(&w->cfg);
    sqlite3_stmt *q = NULL, *u = NULL;
    pthread_mutex_lock(&w->lock);
    int r = w_exec(w, "BEGIN IMMEDIATE");
    if (r == GROVE_OK &&
        (sqlite3_prepare_v2(w->db,
                            "SELECT rowid, wots_seed, cert FROM certs WHERE state = 1 "
                            "ORDER BY rowid LIMIT 1",
                            -1, &q, NULL) != SQLITE_OK ||
         sqlite3_prepare_v2(w->db,
                            "UPDATE certs SET state = 2, wots_seed = zeroblob(?2) WHERE rowid = ?1",
                            -1, &u, NULL) != SQLITE_OK))
        r = GROVE_ERR_STORAGE;
    if (r == GROVE_OK) {
        int rc = sqlite3_step(q);
        if (rc == SQLITE_DONE) {
            r = GROVE_ERR_EXHAUSTED;
        } else if (rc != SQLITE_ROW || sqlite3_column_bytes(q, 1) != (int)n ||
                   sqlite3_column_bytes(q, 2) != (int)cb) {
            r = GROVE_ERR_STORAGE;
        } else {
            memcpy(seed, sqlite3_column_blob(q, 1), n);
            memcpy(cert, sqlite3_column_blob(q, 2), cb);
            sqlite3_bind_int64(u, 1, sqlite3_column_int64(q, 0));
            sqlite3_bind_int(u, 2, (int)n);
            if (sqlite3_step(u) != SQLITE_DONE)
                r = GROVE_ERR_STORAGE;
        }
    }
    sqlite3_finalize(q);
    sqlite3_finalize(u);
    r = w_finish(w, r);
    if (r == GROVE_OK && w->file) /* move the erased page into the main file, drop the WAL */
        sqlite3_wal_checkpoint_v2(w->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
    pthread_mutex_unlock(&w->lock);
    if (r != GROVE_OK)
        grove_wipe(seed, n);
    return r;
}

static int dgsp_wallet_sign_impl(grove_dgsp_wallet *w, const uint8_t *msg, size_t msglen, uint8_t *sig)
{
    if (w == NULL || sig == NULL || (msg == NULL && msglen))
        return GROVE_ERR_INVALID_ARG;
    if (w->cfg.profile != GROVE_DGSP_PROFILE_GROVE)
        return GROVE_ERR_INSECURE_PROFILE;
    uint8_t seed[GROVE_DGSP_MAX_N];
    uint8_t *cert = malloc(grove_dgsp_cert_bytes(&w->cfg));
    if (cert == NULL)
        return GROVE_ERR_NOMEM;
    int r = take_certificate(w, seed, cert);
    if (r == GROVE_OK)
        r = dgsp_sign_raw(&w->cfg, msg, msglen, w->seed_u, w->id, seed, cert, sig, 0);
    grove_wipe(seed, sizeof seed);
    free(cert);
    return r;
}

int grove_dgsp_wallet_sign(grove_dgsp_wallet *w, const uint8_t *msg, size_t msglen, uint8_t *sig)
{
    int r = dgsp_wallet_sign_impl(w, msg, msglen, sig);
    grove_burn_stack(); /* spilled copies of secrets in the frames below */
    return r;
}
