/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SQLite DGSP store: the manager's member list and the revocation list in one database file
 * per group. WAL journal, synchronous=FULL (a committed operation survives a crash), every
 * operation one transaction (BEGIN IMMEDIATE), prepared statements, busy timeout so several
 * processes can share the file.
 *
 * Schema version 1:
 *   meta(key TEXT PRIMARY KEY, value BLOB)          schema_version, and caller-defined keys
 *   members(id INTEGER PRIMARY KEY, username TEXT UNIQUE, active INTEGER, ctr INTEGER)
 *   revoked(zeta BLOB PRIMARY KEY) WITHOUT ROWID
 * Ids and counters are unsigned 64-bit values stored bit for bit in SQLite's signed integers.
 * Every change also raises meta 'generation' (8 bytes, big-endian) in its own transaction, and
 * is refused while the generation is below the floor the restore protection set (guard.c).
 */
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "grove/dgsp.h"

#define SCHEMA_VERSION 1
#define BUSY_TIMEOUT_MS 30000

enum {
    ST_BEGIN, ST_BEGIN_READ, ST_COMMIT, ST_ROLLBACK, ST_NEXT_ID, ST_INSERT, ST_GET, ST_FIND, ST_COUNT,
    ST_SET_CTR, ST_DEACTIVATE, ST_REVOKED_INS, ST_REVOKED_HAS, ST_REVOKED_LIST, ST_META_GET,
    ST_META_SET, ST_CTR_MAX, ST_RAISE, ST_N
};

static const char *const sql_text[ST_N] = {
    "BEGIN IMMEDIATE",
    "BEGIN",
    "COMMIT",
    "ROLLBACK",
    "SELECT COALESCE(MAX(id) + 1, 0) FROM members",
    "INSERT INTO members(id, username, active, ctr) VALUES(?1, ?2, 1, 0)",
    "SELECT username, active, ctr FROM members WHERE id = ?1",
    "SELECT id FROM members WHERE username = ?1",
    "SELECT COUNT(*) FROM members",
    "UPDATE members SET ctr = ?2 WHERE id = ?1",
    "UPDATE members SET active = 0 WHERE id = ?1",
    "INSERT OR IGNORE INTO revoked(zeta) VALUES(?1)",
    "SELECT 1 FROM revoked WHERE zeta = ?1",
    "SELECT zeta FROM revoked ORDER BY zeta",
    "SELECT value FROM meta WHERE key = ?1",
    "INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)",
    "SELECT COALESCE(MAX(ctr), 0) FROM members",
    "UPDATE members SET ctr = ?1 WHERE active = 1 AND ctr < ?1",
};

typedef struct {
    sqlite3 *db;
    sqlite3_stmt *st[ST_N];
    pthread_mutex_t lock;
    uint64_t floor; /* changes are refused while the generation is below it */
} sq_store;

static grove_status sq_err(int rc)
{
    if (rc == SQLITE_NOMEM)
        return GROVE_ERR_NOMEM;
    return GROVE_ERR_STORAGE;
}

static sqlite3_stmt *stmt(sq_store *s, int which)
{
    sqlite3_stmt *q = s->st[which];
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    return q;
}

/* Run a statement that returns no rows. */
static int exec1(sq_store *s, int which)
{
    int rc = sqlite3_step(stmt(s, which));
    sqlite3_reset(s->st[which]);
    return rc == SQLITE_DONE ? GROVE_OK : sq_err(rc);
}

/* An unsigned 64-bit meta value (0 if absent). */
static int meta_u64(sq_store *s, const char *key, uint64_t *v)
{
    sqlite3_stmt *q = stmt(s, ST_META_GET);
    sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q), r = GROVE_OK;
    *v = 0;
    if (rc == SQLITE_ROW && sqlite3_column_bytes(q, 0) == 8)
        *v = grove_load64_be(sqlite3_column_blob(q, 0));
    else if (rc == SQLITE_ROW)
        r = GROVE_ERR_STORAGE; /* a damaged value */
    else if (rc != SQLITE_DONE)
        r = sq_err(rc);
    sqlite3_reset(q);
    return r;
}

static int meta_put_u64(sq_store *s, const char *key, uint64_t v)
{
    uint8_t b[8];
    grove_store64_be(b, v);
    sqlite3_stmt *q = stmt(s, ST_META_SET);
    sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_blob(q, 2, b, 8, SQLITE_TRANSIENT);
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? GROVE_OK : sq_err(rc);
}

/* Inside a write transaction: refuse below the floor, else generation + 1. */
static int bump_generation(sq_store *s)
{
    uint64_t g;
    int r = meta_u64(s, "generation", &g);
    if (r == GROVE_OK && g < s->floor)
        r = GROVE_ERR_STATE; /* an older store than the registry's record: change nothing */
    if (r == GROVE_OK && g == UINT64_MAX)
        r = GROVE_ERR_OVERFLOW;
    return r == GROVE_OK ? meta_put_u64(s, "generation", g + 1) : r;
}

static int begin(sq_store *s)
{
    int r = exec1(s, ST_BEGIN);
    if (r == GROVE_OK) {
        r = bump_generation(s);
        if (r != GROVE_OK)
            exec1(s, ST_ROLLBACK);
    }
    return r;
}

static int finish(sq_store *s, int r)
{
    if (r == GROVE_OK) {
        r = exec1(s, ST_COMMIT);
        if (r == GROVE_OK)
            return GROVE_OK;
    }
    if (!sqlite3_get_autocommit(s->db))
        exec1(s, ST_ROLLBACK);
    return r;
}

static grove_status sq_add_members(void *ctx, const char *const *usernames, size_t count,
                                   uint64_t *ids)
{
    sq_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    int r = begin(s);
    uint64_t next = 0;
    if (r == GROVE_OK) {
        sqlite3_stmt *q = stmt(s, ST_NEXT_ID);
        if (sqlite3_step(q) == SQLITE_ROW)
            next = (uint64_t)sqlite3_column_int64(q, 0);
        else
            r = GROVE_ERR_STORAGE;
        sqlite3_reset(q);
    }
    for (size_t i = 0; i < count && r == GROVE_OK; i++) {
        sqlite3_stmt *q = stmt(s, ST_INSERT);
        sqlite3_bind_int64(q, 1, (sqlite3_int64)(next + i));
        sqlite3_bind_text(q, 2, usernames[i], -1, SQLITE_STATIC);
        int rc = sqlite3_step(q);
        sqlite3_reset(q);
        if (rc == SQLITE_CONSTRAINT)
            r = GROVE_ERR_EXISTS;
        else if (rc != SQLITE_DONE)
            r = sq_err(rc);
        else if (ids)
            ids[i] = next + i;
    }
    r = finish(s, r);
    pthread_mutex_unlock(&s->lock);
    return r;
}

static int get_locked(sq_store *s, uint64_t id, grove_dgsp_member *out)
{
    sqlite3_stmt *q = stmt(s, ST_GET);
    sqlite3_bind_int64(q, 1, (sqlite3_int64)id);
    int rc = sqlite3_step(q), r;
    if (rc == SQLITE_ROW) {
        const unsigned char *u = sqlite3_column_text(q, 0);
        int ul = sqlite3_column_bytes(q, 0);
        if (u == NULL || ul <= 0 || ul > GROVE_DGSP_MAX_USERNAME) {
            r = GROVE_ERR_STORAGE; /* a corrupted row */
        } else {
            out->id = id;
            out->active = sqlite3_column_int(q, 1) != 0;
            out->ctr = (uint64_t)sqlite3_column_int64(q, 2);
            out->username_len = (size_t)ul;
            memcpy(out->username, u, (size_t)ul);
            out->username[ul] = '\0';
            r = GROVE_OK;
        }
    } else {
        r = rc == SQLITE_DONE ? GROVE_ERR_NOT_FOUND : sq_err(rc);
    }
    sqlite3_reset(q);
    return r;
}

static grove_status sq_get_member(void *ctx, uint64_t id, grove_dgsp_member *out)
{
    sq_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    int r = get_locked(s, id, out);
    pthread_mutex_unlock(&s->lock);
    return r;
}

static grove_status sq_find_member(void *ctx, const char *username, uint64_t *id)
{
    sq_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *q = stmt(s, ST_FIND);
    sqlite3_bind_text(q, 1, username, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q), r;
    if (rc == SQLITE_ROW) {
        *id = (uint64_t)sqlite3_column_int64(q, 0);
        r = GROVE_OK;
    } else {
        r = rc == SQLITE_DONE ? GROVE_ERR_NOT_FOUND : sq_err(rc);
    }
    sqlite3_reset(q);
    pthread_mutex_unlock(&s->lock);
    return r;
}

static grove_status sq_member_count(void *ctx, uint64_t *count)
{
    sq_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *q = stmt(s, ST_COUNT);
    int rc = sqlite3_step(q), r = GROVE_OK;
    if (rc == SQLITE_ROW)
        *count = (uint64_t)sqlite3_column_int64(q, 0);
    else
        r = sq_err(rc);
    sqlite3_reset(q);
    pthread_mutex_unlock(&s->lock);
    return r;
}

static grove_status sq_reserve(void *ctx, uint64_t id, uint64_t count, uint64_t *first)
{
    sq_store *s = ctx;
    grove_dgsp_member m;
    pthread_mutex_lock(&s->lock);
    int r = begin(s);
    if (r == GROVE_OK)
        r = get_locked(s, id, &m);
    if (r == GROVE_OK && !m.active)
        r = GROVE_ERR_REVOKED;
    if (r == GROVE_OK && m.ctr > UINT64_MAX - count)
        r = GROVE_ERR_OVERFLOW;
    if (r == GROVE_OK) {
        sqlite3_stmt *q = stmt(s, ST_SET_CTR);
        sqlite3_bind_int64(q, 1, (sqlite3_int64)id);
        sqlite3_bind_int64(q, 2, (sqlite3_int64)(m.ctr + count));
        int rc = sqlite3_step(q);
        sqlite3_reset(q);
        if (rc != SQLITE_DONE)
            r = sq_err(rc);
    }
    r = finish(s, r); /* committed (durably) before any certificate is signed */
    if (r == GROVE_OK)
        *first = m.ctr;
    pthread_mutex_unlock(&s->lock);
    return r;
}

static int insert_zetas(sq_store *s, const uint8_t *z, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        sqlite3_stmt *q = stmt(s, ST_REVOKED_INS);
        sqlite3_bind_blob(q, 1, z + 16 * i, 16, SQLITE_STATIC);
        int rc = sqlite3_step(q);
        sqlite3_reset(q);
        if (rc != SQLITE_DONE)
            return sq_err(rc);
    }
    return GROVE_OK;
}

/* Transactions: the lock and one SQLite write transaction from tx_begin to tx_end. */
static grove_status sq_tx_begin(void *ctx)
{
    sq_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    grove_status r = (grove_status)begin(s); /* counts the change (generation + 1) */
    if (r != GROVE_OK)
        pthread_mutex_unlock(&s->lock);
    return r;
}

static grove_status sq_tx_end(void *ctx, grove_status status)
{
    sq_store *s = ctx;
    grove_status r = (grove_status)finish(s, status); /* commit (durably) or roll back */
    pthread_mutex_unlock(&s->lock);
    return r;
}

static grove_status sq_tx_get_member(void *ctx, uint64_t id, grove_dgsp_member *out)
{
    return (grove_status)get_locked(ctx, id, out);
}

static grove_status sq_tx_deactivate(void *ctx, uint64_t id)
{
    sq_store *s = ctx;
    sqlite3_stmt *q = stmt(s, ST_DEACTIVATE);
    sqlite3_bind_int64(q, 1, (sqlite3_int64)id);
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? GROVE_OK : (grove_status)sq_err(rc);
}

static grove_status sq_tx_add_revoked(void *ctx, const uint8_t *zetas, size_t count)
{
    return (grove_status)insert_zetas(ctx, zetas, count);
}

static grove_status sq_is_revoked(void *ctx, const uint8_t zeta[16], bool *present)
{
    sq_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *q = stmt(s, ST_REVOKED_HAS);
    sqlite3_bind_blob(q, 1, zeta, 16, SQLITE_STATIC);
    int rc = sqlite3_step(q), r = GROVE_OK;
    if (rc == SQLITE_ROW)
        *present = true;
    else if (rc == SQLITE_DONE)
        *present = false;
    else
        r = sq_err(rc);
    sqlite3_reset(q);
    pthread_mutex_unlock(&s->lock);
    return r;
}

static grove_status sq_add_revoked(void *ctx, const uint8_t *zetas, size_t count)
{
    sq_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    int r = begin(s);
    if (r == GROVE_OK)
        r = insert_zetas(s, zetas, count);
    r = finish(s, r);
    pthread_mutex_unlock(&s->lock);
    return r;
}

static grove_status sq_list_revoked(void *ctx, grove_status (*fn)(void *, const uint8_t *, size_t),
                                    void *arg)
{
    sq_store *s = ctx;
    enum { CHUNK = 4096 };
    uint8_t *buf = malloc(16 * CHUNK);
    if (buf == NULL)
        return GROVE_ERR_NOMEM;
    pthread_mutex_lock(&s->lock);
    /* a read transaction gives a consistent snapshot */
    int r = exec1(s, ST_BEGIN_READ);
    sqlite3_stmt *q = stmt(s, ST_REVOKED_LIST);
    size_t n = 0;
    int rc;
    while (r == GROVE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (sqlite3_column_bytes(q, 0) != 16) {
            r = GROVE_ERR_STORAGE;
            break;
        }
        memcpy(buf + 16 * n++, sqlite3_column_blob(q, 0), 16);
        if (n == CHUNK) {
            r = fn(arg, buf, n);
            n = 0;
        }
    }
    if (r == GROVE_OK && rc != SQLITE_DONE)
        r = sq_err(rc);
    if (r == GROVE_OK && n)
        r = fn(arg, buf, n);
    sqlite3_reset(q);
    r = finish(s, r);
    pthread_mutex_unlock(&s->lock);
    free(buf);
    return r;
}

static void sq_close(void *ctx)
{
    sq_store *s = ctx;
    for (int i = 0; i < ST_N; i++)
        sqlite3_finalize(s->st[i]);
    sqlite3_close(s->db);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static const grove_dgsp_store_ops sq_ops;

static int schema(sqlite3 *db, int create)
{
    const char *pragmas = "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; "
                          "PRAGMA foreign_keys=ON; PRAGMA secure_delete=ON;";
    /* The version first, before any pragma writes: a refused file is left as it was. */
    sqlite3_stmt *q = NULL;
    int have = sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'schema_version'", -1,
                                  &q, NULL) == SQLITE_OK;
    int version = -1;
    if (have && sqlite3_step(q) == SQLITE_ROW)
        version = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    if (version != -1 && version != SCHEMA_VERSION)
        return GROVE_ERR_UNSUPPORTED; /* a newer or unknown schema: refuse, change nothing */
    if (version == -1 && !create)
        return GROVE_ERR_NOT_FOUND;
    if (sqlite3_exec(db, pragmas, NULL, NULL, NULL) != SQLITE_OK)
        return GROVE_ERR_STORAGE;
    if (version == SCHEMA_VERSION)
        return GROVE_OK;
    const char *ddl =
        "BEGIN IMMEDIATE;"
        "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value BLOB NOT NULL);"
        "CREATE TABLE IF NOT EXISTS members(id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE,"
        " active INTEGER NOT NULL, ctr INTEGER NOT NULL);"
        "CREATE TABLE IF NOT EXISTS revoked(zeta BLOB PRIMARY KEY) WITHOUT ROWID;"
        "INSERT OR IGNORE INTO meta(key, value) VALUES('schema_version', 1);"
        "COMMIT;";
    if (sqlite3_exec(db, ddl, NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return GROVE_ERR_STORAGE;
    }
    return GROVE_OK;
}

/*
 * 1 if path is an SQLite database file (its 16-byte header), probed with a plain read-only open
 * so that a missing or empty file is refused without SQLite creating or initialising anything.
 * ":memory:" and URIs are left to SQLite.
 */
static int looks_like_sqlite(const char *path)
{
    if (strcmp(path, ":memory:") == 0 || strncmp(path, "file:", 5) == 0)
        return 1;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    char head[16];
    ssize_t k = read(fd, head, sizeof head);
    close(fd);
    return k == (ssize_t)sizeof head && memcmp(head, "SQLite format 3", 16) == 0;
}

grove_status grove_dgsp_store_sqlite_open(grove_dgsp_store **out, const char *path, bool create)
{
    if (path == NULL || out == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_dgsp_store *store = calloc(1, sizeof *store);
    sq_store *s = calloc(1, sizeof *s);
    if (store == NULL || s == NULL || pthread_mutex_init(&s->lock, NULL) != 0) {
        free(store);
        free(s);
        return GROVE_ERR_NOMEM;
    }
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
    int r = GROVE_OK;
    if (create && strcmp(path, ":memory:") != 0) {
        /* the member list is the manager's private data: create the file with mode 0600 */
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (fd >= 0)
            close(fd);
    }
    if (!create && !looks_like_sqlite(path))
        r = GROVE_ERR_NOT_FOUND; /* missing, empty or not SQLite: nothing is created */
    else if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK)
        r = create ? GROVE_ERR_STORAGE : GROVE_ERR_NOT_FOUND;
    if (r == GROVE_OK) {
        sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
        sqlite3_extended_result_codes(s->db, 0);
        r = schema(s->db, create);
    }
    for (int i = 0; i < ST_N && r == GROVE_OK; i++)
        if (sqlite3_prepare_v3(s->db, sql_text[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i],
                               NULL) != SQLITE_OK)
            r = GROVE_ERR_STORAGE;
    if (r != GROVE_OK) {
        sq_close(s);
        free(store);
        return r;
    }
    store->ops = &sq_ops;
    store->ctx = s;
    *out = store;
    return GROVE_OK;
}

static grove_status sq_meta_get(void *ctx, const char *key, uint8_t *val, size_t cap, size_t *len)
{
    sq_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *q = stmt(s, ST_META_GET);
    sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q), r;
    if (rc == SQLITE_ROW) {
        int l = sqlite3_column_bytes(q, 0);
        const void *b = sqlite3_column_blob(q, 0);
        if (l < 0 || (size_t)l > cap || (l > 0 && b == NULL)) {
            r = GROVE_ERR_STORAGE;
        } else {
            if (l)
                memcpy(val, b, (size_t)l);
            *len = (size_t)l;
            r = GROVE_OK;
        }
    } else {
        r = rc == SQLITE_DONE ? GROVE_ERR_NOT_FOUND : sq_err(rc);
    }
    sqlite3_reset(q);
    pthread_mutex_unlock(&s->lock);
    return r;
}

static grove_status sq_meta_set(void *ctx, const char *key, const uint8_t *val, size_t len)
{
    sq_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    int r = begin(s);
    if (r == GROVE_OK) {
        sqlite3_stmt *q = stmt(s, ST_META_SET);
        sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
        sqlite3_bind_blob(q, 2, val, (int)len, SQLITE_STATIC);
        int rc = sqlite3_step(q);
        sqlite3_reset(q);
        if (rc != SQLITE_DONE)
            r = sq_err(rc);
    }
    r = finish(s, r);
    pthread_mutex_unlock(&s->lock);
    return r;
}

/* Atomically increments an unsigned 64-bit counter kept in meta and returns the new value. */
static grove_status sq_meta_next(void *ctx, const char *key, uint64_t *value)
{
    sq_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    int r = begin(s);
    uint64_t v = 0;
    if (r == GROVE_OK) {
        sqlite3_stmt *q = stmt(s, ST_META_GET);
        sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
        int rc = sqlite3_step(q);
        if (rc == SQLITE_ROW && sqlite3_column_bytes(q, 0) == 8)
            v = grove_load64_be(sqlite3_column_blob(q, 0));
        else if (rc != SQLITE_DONE && rc != SQLITE_ROW)
            r = sq_err(rc);
        sqlite3_reset(q);
    }
    uint8_t b[8];
    grove_store64_be(b, ++v);
    if (r == GROVE_OK) {
        sqlite3_stmt *q = stmt(s, ST_META_SET);
        sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
        sqlite3_bind_blob(q, 2, b, 8, SQLITE_STATIC);
        int rc = sqlite3_step(q);
        sqlite3_reset(q);
        if (rc != SQLITE_DONE)
            r = sq_err(rc);
    }
    r = finish(s, r);
    if (r == GROVE_OK)
        *value = v;
    pthread_mutex_unlock(&s->lock);
    return r;
}

static int summary_locked(sq_store *s, grove_dgsp_store_summary *sum)
{
    int r = meta_u64(s, "generation", &sum->generation);
    if (r == GROVE_OK)
        r = meta_u64(s, "revocations_seq", &sum->revocations_seq);
    for (int k = 0; k < 2 && r == GROVE_OK; k++) {
        sqlite3_stmt *q = stmt(s, k == 0 ? ST_NEXT_ID : ST_CTR_MAX);
        int rc = sqlite3_step(q);
        if (rc == SQLITE_ROW)
            *(k == 0 ? &sum->members : &sum->ctr_max) = (uint64_t)sqlite3_column_int64(q, 0);
        else
            r = sq_err(rc);
        sqlite3_reset(q);
    }
    uint64_t raised = 0; /* counters a recovery raised, even with no active member left */
    if (r == GROVE_OK)
        r = meta_u64(s, "ctr_recovered", &raised);
    if (r == GROVE_OK && raised > sum->ctr_max)
        sum->ctr_max = raised;
    return r;
}

static grove_status sq_guard(void *ctx, uint64_t floor, grove_dgsp_store_summary *sum)
{
    sq_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    s->floor = floor;
    int r = exec1(s, ST_BEGIN_READ); /* one consistent snapshot */
    if (r == GROVE_OK)
        r = summary_locked(s, sum);
    if (!sqlite3_get_autocommit(s->db))
        exec1(s, r == GROVE_OK ? ST_COMMIT : ST_ROLLBACK);
    pthread_mutex_unlock(&s->lock);
    return r;
}

static grove_status sq_recover(void *ctx, const grove_dgsp_store_summary *hw, const char *prefix,
                               uint64_t *added, uint64_t *raised)
{
    sq_store *s = ctx;
    grove_dgsp_store_summary cur;
    uint64_t nadd = 0, nraise = 0;
    pthread_mutex_lock(&s->lock);
    uint64_t keep = s->floor;
    s->floor = 0; /* this transaction is the one allowed below the floor */
    int r = begin(s);
    s->floor = keep;
    if (r == GROVE_OK)
        r = summary_locked(s, &cur);
    for (uint64_t id = cur.members; r == GROVE_OK && id < hw->members; id++) {
        char name[GROVE_DGSP_MAX_USERNAME + 1];
        snprintf(name, sizeof name, "%s%llu", prefix, (unsigned long long)id);
        sqlite3_stmt *q = stmt(s, ST_INSERT);
        sqlite3_bind_int64(q, 1, (sqlite3_int64)id);
        sqlite3_bind_text(q, 2, name, -1, SQLITE_TRANSIENT);
        int rc = sqlite3_step(q);
        sqlite3_reset(q);
        r = rc == SQLITE_DONE ? GROVE_OK : rc == SQLITE_CONSTRAINT ? GROVE_ERR_EXISTS : sq_err(rc);
        nadd++;
    }
    if (r == GROVE_OK && hw->ctr_max > 0) {
        /* every member: one of them may be behind even if another is at the maximum */
        sqlite3_stmt *q = stmt(s, ST_RAISE);
        sqlite3_bind_int64(q, 1, (sqlite3_int64)hw->ctr_max);
        int rc = sqlite3_step(q);
        sqlite3_reset(q);
        r = rc == SQLITE_DONE ? GROVE_OK : sq_err(rc);
        nraise = (uint64_t)sqlite3_changes(s->db);
        if (r == GROVE_OK && hw->ctr_max > cur.ctr_max)
            r = meta_put_u64(s, "ctr_recovered", hw->ctr_max);
    }
    if (r == GROVE_OK && hw->revocations_seq > cur.revocations_seq)
        r = meta_put_u64(s, "revocations_seq", hw->revocations_seq);
    if (r == GROVE_OK && hw->generation >= cur.generation) /* begin() already added one */
        r = hw->generation == UINT64_MAX ? GROVE_ERR_OVERFLOW
                                         : meta_put_u64(s, "generation", hw->generation + 1);
    r = finish(s, r);
    pthread_mutex_unlock(&s->lock);
    if (r == GROVE_OK && added)
        *added = nadd;
    if (r == GROVE_OK && raised)
        *raised = nraise;
    return r;
}

static const char *sq_last_error(void *ctx)
{
    sq_store *s = ctx;
    return sqlite3_errmsg(s->db);
}

static const grove_dgsp_store_ops sq_ops = {
    .add_members = sq_add_members,
    .get_member = sq_get_member,
    .find_member = sq_find_member,
    .member_count = sq_member_count,
    .reserve = sq_reserve,
    .is_revoked = sq_is_revoked,
    .add_revoked = sq_add_revoked,
    .list_revoked = sq_list_revoked,
    .tx_begin = sq_tx_begin,
    .tx_end = sq_tx_end,
    .tx_get_member = sq_tx_get_member,
    .tx_deactivate = sq_tx_deactivate,
    .tx_add_revoked = sq_tx_add_revoked,
    .close = sq_close,
    .meta_get = sq_meta_get,
    .meta_set = sq_meta_set,
    .meta_next = sq_meta_next,
    .last_error = sq_last_error,
    .guard = sq_guard,
    .recover = sq_recover,
};

grove_status grove_dgsp_store_check(grove_dgsp_store *store, char *report, size_t cap)
{
    if (store == NULL || report == NULL || cap == 0)
        return GROVE_ERR_INVALID_ARG;
    report[0] = '\0';
    if (store->ops != &sq_ops)
        return GROVE_OK; /* the memory store has nothing on disk to check */
    sq_store *s = store->ctx;
    pthread_mutex_lock(&s->lock);
    int r = GROVE_OK;
    static const char *const checks[] = {
        "PRAGMA integrity_check",
        /* ids are 0..n-1 without gaps (members are never deleted) */
        "SELECT CASE WHEN COUNT(*) = 0 OR (MIN(id) = 0 AND MAX(id) = COUNT(*) - 1) THEN 'ok'"
        " ELSE 'member ids are not contiguous' END FROM members",
        "SELECT CASE WHEN COUNT(*) = 0 THEN 'ok' ELSE 'bad member rows' END FROM members"
        " WHERE active NOT IN (0, 1) OR length(username) = 0 OR typeof(ctr) <> 'integer'",
        "SELECT CASE WHEN COUNT(*) = 0 THEN 'ok' ELSE 'bad revocation entries' END FROM revoked"
        " WHERE typeof(zeta) <> 'blob' OR length(zeta) <> 16",
    };
    for (size_t i = 0; i < GROVE_ARRAY_LEN(checks) && r == GROVE_OK; i++) {
        sqlite3_stmt *q = NULL;
        if (sqlite3_prepare_v2(s->db, checks[i], -1, &q, NULL) != SQLITE_OK) {
            r = GROVE_ERR_STORAGE;
            break;
        }
        if (sqlite3_step(q) == SQLITE_ROW) {
            const char *t = (const char *)sqlite3_column_text(q, 0);
            if (t == NULL || strcmp(t, "ok") != 0) {
                snprintf(report, cap, "%s", t ? t : "check failed");
                r = GROVE_ERR_STORAGE;
            }
        } else {
            r = GROVE_ERR_STORAGE;
        }
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&s->lock);
    if (r == GROVE_OK)
        snprintf(report, cap, "ok");
    return r;
}
