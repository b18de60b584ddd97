/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PostgreSQL DGSP store (libpq): several manager processes or machines serve one group.
 *
 * Schema (created on first use with create = 1; version in grove_meta 'schema_version'):
 *   grove_meta(key text PRIMARY KEY, value bytea)
 *   grove_state(one boolean PRIMARY KEY, next_id bigint)          the next member id
 *   grove_members(id bigint PRIMARY KEY, username text UNIQUE, active boolean,
 *                 ctr numeric(20,0) CHECK (0 <= ctr <= 2^64 - 1))
 *   grove_revoked(zeta bytea PRIMARY KEY)
 * Counter reservation is a single UPDATE ... RETURNING with an overflow guard, committed before
 * the caller signs anything. Joins take the next ids by updating the grove_state row (which
 * serialises concurrent joins) and load usernames with COPY; a revocation is one transaction.
 */
#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/encoding.h"
#include "common/util.h"
#include "grove/dgsp.h"

#define SCHEMA_VERSION "1"
#define U64_MAX_TEXT "18446744073709551615"

typedef struct {
    PGconn *conn;
    pthread_mutex_t lock;
    char err[512];
} pg_store;

static void set_err(pg_store *s, const char *what, const PGresult *res)
{
    const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(s->conn);
    snprintf(s->err, sizeof s->err, "%s: %s", what, msg && *msg ? msg : "unknown error");
    size_t l = strlen(s->err);
    while (l && (s->err[l - 1] == '\n' || s->err[l - 1] == ' '))
        s->err[--l] = '\0';
}

/* Reconnect once if the server went away (e.g. a restart). */
static int ensure_conn(pg_store *s)
{
    if (PQstatus(s->conn) == CONNECTION_OK)
        return GROVE_OK;
    PQreset(s->conn);
    if (PQstatus(s->conn) == CONNECTION_OK)
        return GROVE_OK;
    set_err(s, "connection lost", NULL);
    return GROVE_ERR_STORAGE;
}

static int map_err(const PGresult *res)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    if (state && strcmp(state, "23505") == 0)
        return GROVE_ERR_EXISTS;
    return GROVE_ERR_STORAGE;
}

/* Run a command (no rows expected); returns a status. */
static int cmd(pg_store *s, const char *sql, int n, const char *const *vals, const int *lens,
               const int *fmts)
{
    PGresult *r = PQexecParams(s->conn, sql, n, NULL, vals, lens, fmts, 0);
    int st = PQresultStatus(r) == PGRES_COMMAND_OK ? GROVE_OK : map_err(r);
    if (st != GROVE_OK)
        set_err(s, "query failed", r);
    PQclear(r);
    return st;
}

static PGresult *query(pg_store *s, const char *sql, int n, const char *const *vals,
                       const int *lens, const int *fmts, int binary)
{
    PGresult *r = PQexecParams(s->conn, sql, n, NULL, vals, lens, fmts, binary);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        set_err(s, "query failed", r);
        PQclear(r);
        return NULL;
    }
    return r;
}

static int begin(pg_store *s)
{
    int r = ensure_conn(s);
    return r == GROVE_OK ? cmd(s, "BEGIN", 0, NULL, NULL, NULL) : r;
}

static int finish(pg_store *s, int r)
{
    if (r == GROVE_OK)
        r = cmd(s, "COMMIT", 0, NULL, NULL, NULL);
    else
        cmd(s, "ROLLBACK", 0, NULL, NULL, NULL);
    return r;
}

static int parse_u64(const char *t, uint64_t *v)
{
    char *end;
    if (t == NULL || *t < '0' || *t > '9')
        return -1;
    unsigned long long x = strtoull(t, &end, 10);
    if (*end != '\0')
        return -1;
    *v = (uint64_t)x;
    return 0;
}

/* COPY text format: escape backslash and the control characters COPY gives meaning to. */
static size_t copy_escape(char *out, const char *in)
{
    size_t o = 0;
    for (; *in; in++) {
        if (*in == '\\' || *in == '\t' || *in == '\n' || *in == '\r') {
            out[o++] = '\\';
            out[o++] = *in == '\t' ? 't' : *in == '\n' ? 'n' : *in == '\r' ? 'r' : '\\';
        } else {
            out[o++] = *in;
        }
    }
    return o;
}

static int copy_end(pg_store *s, int ok)
{
    if (PQputCopyEnd(s->conn, ok ? NULL : "aborted") != 1) {
        set_err(s, "COPY failed", NULL);
        return GROVE_ERR_STORAGE;
    }
    PGresult *r;
    int st = GROVE_OK;
    while ((r = PQgetResult(s->conn)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK) {
            st = map_err(r);
            set_err(s, "COPY failed", r);
        }
        PQclear(r);
    }
    return ok ? st : GROVE_ERR_STORAGE;
}

static grove_status pg_add_members(void *ctx, const char *const *usernames, size_t count,
                                   uint64_t *ids)
{
    pg_store *s = ctx;
    if (count == 0)
        return GROVE_OK;
    pthread_mutex_lock(&s->lock);
    int st = begin(s);
    uint64_t first = 0;
    if (st == GROVE_OK) {
        char n[32];
        snprintf(n, sizeof n, "%zu", count);
        const char *v[1] = {n};
        PGresult *r = query(s,
                            "UPDATE grove_state SET next_id = next_id + $1::bigint RETURNING "
                            "next_id - $1::bigint",
                            1, v, NULL, NULL, 0);
        if (r == NULL || PQntuples(r) != 1 || parse_u64(PQgetvalue(r, 0, 0), &first) != 0)
            st = GROVE_ERR_STORAGE;
        PQclear(r);
    }
    if (st == GROVE_OK) {
        PGresult *r = PQexec(s->conn, "COPY grove_members(id, username, active, ctr) FROM STDIN");
        if (PQresultStatus(r) != PGRES_COPY_IN) {
            set_err(s, "COPY failed", r);
            st = GROVE_ERR_STORAGE;
        }
        PQclear(r);
    }
    if (st == GROVE_OK) {
        char *line = malloc(2 * GROVE_DGSP_MAX_USERNAME + 64);
        int ok = line != NULL;
        for (size_t i = 0; i < count && ok; i++) {
            if (strlen(usernames[i]) > GROVE_DGSP_MAX_USERNAME) {
                ok = 0;
                break;
            }
            size_t o = (size_t)snprintf(line, 32, "%llu\t", (unsigned long long)(first + i));
            o += copy_escape(line + o, usernames[i]);
            memcpy(line + o, "\tt\t0\n", 5);
            ok = PQputCopyData(s->conn, line, (int)(o + 5)) == 1;
        }
        free(line);
        st = copy_end(s, ok);
    }
    st = finish(s, st);
    if (st == GROVE_OK && ids)
        for (size_t i = 0; i < count; i++)
            ids[i] = first + i;
    pthread_mutex_unlock(&s->lock);
    return st;
}

static int get_locked(pg_store *s, uint64_t id, grove_dgsp_member *out, int for_update)
{
    char idt[32];
    snprintf(idt, sizeof idt, "%llu", (unsigned long long)id);
    const char *v[1] = {idt};
    if (id > INT64_MAX)
        return GROVE_ERR_NOT_FOUND;
    PGresult *r = query(s,
                        for_update ? "SELECT username, active, ctr::text FROM grove_members WHERE "
                                     "id = $1::bigint FOR UPDATE"
                                   : "SELECT username, active, ctr::text FROM grove_members WHERE "
                                     "id = $1::bigint",
                        1, v, NULL, NULL, 0);
    if (r == NULL)
        return GROVE_ERR_STORAGE;
    int st = GROVE_ERR_NOT_FOUND;
    if (PQntuples(r) == 1) {
        const char *u = PQgetvalue(r, 0, 0);
        size_t ul = strlen(u);
        st = GROVE_ERR_STORAGE;
        if (ul > 0 && ul <= GROVE_DGSP_MAX_USERNAME &&
            parse_u64(PQgetvalue(r, 0, 2), &out->ctr) == 0) {
            out->id = id;
            out->active = strcmp(PQgetvalue(r, 0, 1), "t") == 0;
            out->username_len = ul;
            memcpy(out->username, u, ul + 1);
            st = GROVE_OK;
        }
    }
    PQclear(r);
    return st;
}

static grove_status pg_get_member(void *ctx, uint64_t id, grove_dgsp_member *out)
{
    pg_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    int st = ensure_conn(s);
    if (st == GROVE_OK)
        st = get_locked(s, id, out, 0);
    pthread_mutex_unlock(&s->lock);
    return st;
}

static grove_status pg_find_member(void *ctx, const char *username, uint64_t *id)
{
    pg_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    int st = ensure_conn(s);
    const char *v[1] = {username};
    PGresult *r = st == GROVE_OK ? query(s, "SELECT id FROM grove_members WHERE username = $1", 1,
                                         v, NULL, NULL, 0)
                                 : NULL;
    if (st == GROVE_OK)
        st = r == NULL ? GROVE_ERR_STORAGE
                       : PQntuples(r) != 1 ? GROVE_ERR_NOT_FOUND
                       : parse_u64(PQgetvalue(r, 0, 0), id) != 0 ? GROVE_ERR_STORAGE
                                                                  : GROVE_OK;
    PQclear(r);
    pthread_mutex_unlock(&s->lock);
    return st;
}

static grove_status pg_member_count(void *ctx, uint64_t *count)
{
    pg_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    int st = ensure_conn(s);
    PGresult *r = st == GROVE_OK ? query(s, "SELECT next_id FROM grove_state", 0, NULL, NULL, NULL, 0)
                                 : NULL;
    if (st == GROVE_OK)
        st = r && PQntuples(r) == 1 && parse_u64(PQgetvalue(r, 0, 0), count) == 0
                 ? GROVE_OK
                 : GROVE_ERR_STORAGE;
    PQclear(r);
    pthread_mutex_unlock(&s->lock);
    return st;
}

static grove_status pg_reserve(void *ctx, uint64_t id, uint64_t count, uint64_t *first)
{
    pg_store *s = ctx;
    char idt[32], cnt[32];
    if (id > INT64_MAX)
        return GROVE_ERR_NOT_FOUND;
    snprintf(idt, sizeof idt, "%llu", (unsigned long long)id);
    snprintf(cnt, sizeof cnt, "%llu", (unsigned long long)count);
    const char *v[2] = {idt, cnt};
    pthread_mutex_lock(&s->lock);
    int st = ensure_conn(s);
    PGresult *r = NULL;
    if (st == GROVE_OK)
        /* one atomic statement (autocommit: committed before this returns) */
        r = query(s,
                  "UPDATE grove_members SET ctr = ctr + $2::numeric WHERE id = $1::bigint AND "
                  "active AND ctr + $2::numeric <= " U64_MAX_TEXT " RETURNING (ctr - $2::numeric)::text",
                  2, v, NULL, NULL, 0);
    if (st == GROVE_OK && r == NULL)
        st = GROVE_ERR_STORAGE;
    if (st == GROVE_OK && PQntuples(r) == 1) {
        st = parse_u64(PQgetvalue(r, 0, 0), first) == 0 ? GROVE_OK : GROVE_ERR_STORAGE;
    } else if (st == GROVE_OK) {
        /* nothing reserved: tell why */
        grove_dgsp_member m;
        st = get_locked(s, id, &m, 0);
        if (st == GROVE_OK)
            st = !m.active ? GROVE_ERR_REVOKED : GROVE_ERR_OVERFLOW;
    }
    PQclear(r);
    pthread_mutex_unlock(&s->lock);
    return st;
}

/* COPY zetas into grove_revoked (within the caller's transaction). */
static int copy_zetas(pg_store *s, const uint8_t *z, size_t count)
{
    PGresult *r = PQexec(s->conn, "COPY grove_revoked(zeta) FROM STDIN");
    int st = PQresultStatus(r) == PGRES_COPY_IN ? GROVE_OK : GROVE_ERR_STORAGE;
    if (st != GROVE_OK)
        set_err(s, "COPY failed", r);
    PQclear(r);
    if (st != GROVE_OK)
        return st;
    char line[40];
    int ok = 1;
    for (size_t i = 0; i < count && ok; i++) {
        memcpy(line, "\\\\x", 3);
        grove_hex_encode(line + 3, z + 16 * i, 16);
        line[35] = '\n';
        ok = PQputCopyData(s->conn, line, 36) == 1;
    }
    return copy_end(s, ok);
}

/* Transactions: the lock and one PostgreSQL transaction from tx_begin to tx_end; the
 * members read are locked (FOR UPDATE) against other managers until the end. */
static grove_status pg_tx_begin(void *ctx)
{
    pg_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    grove_status r = (grove_status)begin(s);
    if (r != GROVE_OK)
        pthread_mutex_unlock(&s->lock);
    return r;
}

static grove_status pg_tx_end(void *ctx, grove_status status)
{
    pg_store *s = ctx;
    grove_status r = (grove_status)finish(s, status);
    pthread_mutex_unlock(&s->lock);
    return r;
}

static grove_status pg_tx_get_member(void *ctx, uint64_t id, grove_dgsp_member *out)
{
    return (grove_status)get_locked(ctx, id, out, 1);
}

static grove_status pg_tx_deactivate(void *ctx, uint64_t id)
{
    char idt[32];
    snprintf(idt, sizeof idt, "%llu", (unsigned long long)id);
    const char *v[1] = {idt};
    return (grove_status)cmd(ctx, "UPDATE grove_members SET active = false WHERE id = $1::bigint",
                             1, v, NULL, NULL);
}

static grove_status pg_tx_add_revoked(void *ctx, const uint8_t *zetas, size_t count)
{
    return (grove_status)copy_zetas(ctx, zetas, count);
}

static grove_status pg_is_revoked(void *ctx, const uint8_t zeta[16], bool *present)
{
    pg_store *s = ctx;
    const char *v[1] = {(const char *)zeta};
    const int lens[1] = {16}, fmts[1] = {1};
    pthread_mutex_lock(&s->lock);
    int st = ensure_conn(s);
    PGresult *r = st == GROVE_OK
                      ? query(s, "SELECT 1 FROM grove_revoked WHERE zeta = $1", 1, v, lens, fmts, 0)
                      : NULL;
    if (st == GROVE_OK && r == NULL)
        st = GROVE_ERR_STORAGE;
    if (st == GROVE_OK)
        *present = PQntuples(r) > 0;
    PQclear(r);
    pthread_mutex_unlock(&s->lock);
    return st;
}

static grove_status pg_add_revoked(void *ctx, const uint8_t *zetas, size_t count)
{
    pg_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    int st = begin(s);
    /* via a temporary table, so zetas already present are skipped */
    if (st == GROVE_OK)
        st = cmd(s, "CREATE TEMP TABLE grove_import(zeta bytea) ON COMMIT DROP", 0, NULL, NULL,
                 NULL);
    if (st == GROVE_OK) {
        PGresult *r = PQexec(s->conn, "COPY grove_import(zeta) FROM STDIN");
        st = PQresultStatus(r) == PGRES_COPY_IN ? GROVE_OK : GROVE_ERR_STORAGE;
        PQclear(r);
        char line[40];
        int ok = st == GROVE_OK;
        for (size_t i = 0; i < count && ok; i++) {
            memcpy(line, "\\\\x", 3);
            grove_hex_encode(line + 3, zetas + 16 * i, 16);
            line[35] = '\n';
            ok = PQputCopyData(s->conn, line, 36) == 1;
        }
        if (st == GROVE_OK)
            st = copy_end(s, ok);
    }
    if (st == GROVE_OK)
        st = cmd(s,
                 "INSERT INTO grove_revoked(zeta) SELECT DISTINCT zeta FROM grove_import ON "
                 "CONFLICT DO NOTHING",
                 0, NULL, NULL, NULL);
    st = finish(s, st);
    pthread_mutex_unlock(&s->lock);
    return st;
}

static grove_status pg_list_revoked(void *ctx, grove_status (*fn)(void *, const uint8_t *, size_t),
                                    void *arg)
{
    pg_store *s = ctx;
    enum { CHUNK = 4096 };
    uint8_t *buf = malloc(16 * CHUNK);
    if (buf == NULL)
        return GROVE_ERR_NOMEM;
    pthread_mutex_lock(&s->lock);
    int st = begin(s);
    if (st == GROVE_OK)
        st = cmd(s, "DECLARE grove_rl NO SCROLL CURSOR FOR SELECT zeta FROM grove_revoked ORDER BY zeta",
                 0, NULL, NULL, NULL);
    while (st == GROVE_OK) {
        PGresult *r = query(s, "FETCH 4096 FROM grove_rl", 0, NULL, NULL, NULL, 1);
        if (r == NULL) {
            st = GROVE_ERR_STORAGE;
            break;
        }
        int rows = PQntuples(r);
        for (int i = 0; i < rows && st == GROVE_OK; i++) {
            if (PQgetlength(r, i, 0) != 16)
                st = GROVE_ERR_STORAGE;
            else
                memcpy(buf + 16 * (size_t)i, PQgetvalue(r, i, 0), 16);
        }
        PQclear(r);
        if (st == GROVE_OK && rows > 0)
            st = fn(arg, buf, (size_t)rows);
        if (rows < CHUNK)
            break;
    }
    st = finish(s, st);
    pthread_mutex_unlock(&s->lock);
    free(buf);
    return st;
}

static grove_status pg_meta_get(void *ctx, const char *key, uint8_t *val, size_t cap, size_t *len)
{
    pg_store *s = ctx;
    const char *v[1] = {key};
    pthread_mutex_lock(&s->lock);
    int st = ensure_conn(s);
    PGresult *r = st == GROVE_OK
                      ? query(s, "SELECT value FROM grove_meta WHERE key = $1", 1, v, NULL, NULL, 1)
                      : NULL;
    if (st == GROVE_OK && r == NULL)
        st = GROVE_ERR_STORAGE;
    if (st == GROVE_OK) {
        if (PQntuples(r) != 1) {
            st = GROVE_ERR_NOT_FOUND;
        } else {
            size_t l = (size_t)PQgetlength(r, 0, 0);
            if (l > cap) {
                st = GROVE_ERR_BUFFER_TOO_SMALL;
            } else {
                if (l)
                    memcpy(val, PQgetvalue(r, 0, 0), l);
                *len = l;
            }
        }
    }
    PQclear(r);
    pthread_mutex_unlock(&s->lock);
    return st;
}

static grove_status pg_meta_set(void *ctx, const char *key, const uint8_t *val, size_t len)
{
    pg_store *s = ctx;
    const char *v[2] = {key, (const char *)val};
    const int lens[2] = {0, (int)len}, fmts[2] = {0, 1};
    pthread_mutex_lock(&s->lock);
    int st = ensure_conn(s);
    if (st == GROVE_OK)
        st = cmd(s,
                 "INSERT INTO grove_meta(key, value) VALUES($1, $2) ON CONFLICT (key) DO UPDATE "
                 "SET value = excluded.value",
                 2, v, lens, fmts);
    pthread_mutex_unlock(&s->lock);
    return st;
}

static grove_status pg_meta_next(void *ctx, const char *key, uint64_t *value)
{
    pg_store *s = ctx;
    pthread_mutex_lock(&s->lock);
    int st = begin(s);
    uint64_t v = 0;
    const char *p[1] = {key};
    if (st == GROVE_OK) {
        PGresult *r = query(s, "SELECT value FROM grove_meta WHERE key = $1 FOR UPDATE", 1, p, NULL,
                            NULL, 1);
        if (r == NULL)
            st = GROVE_ERR_STORAGE;
        else if (PQntuples(r) == 1 && PQgetlength(r, 0, 0) == 8)
            v = grove_load64_be((const uint8_t *)PQgetvalue(r, 0, 0));
        PQclear(r);
    }
    uint8_t b[8];
    grove_store64_be(b, ++v);
    if (st == GROVE_OK) {
        const char *vals[2] = {key, (const char *)b};
        const int lens[2] = {0, 8}, fmts[2] = {0, 1};
        st = cmd(s,
                 "INSERT INTO grove_meta(key, value) VALUES($1, $2) ON CONFLICT (key) DO UPDATE "
                 "SET value = excluded.value",
                 2, vals, lens, fmts);
    }
    st = finish(s, st);
    if (st == GROVE_OK)
        *value = v;
    pthread_mutex_unlock(&s->lock);
    return st;
}

static const char *pg_last_error(void *ctx)
{
    pg_store *s = ctx;
    return s->err[0] ? s->err : NULL;
}

static void pg_close(void *ctx)
{
    pg_store *s = ctx;
    PQfinish(s->conn);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static const grove_dgsp_store_ops pg_ops = {
    .add_members = pg_add_members,
    .get_member = pg_get_member,
    .find_member = pg_find_member,
    .member_count = pg_member_count,
    .reserve = pg_reserve,
    .is_revoked = pg_is_revoked,
    .add_revoked = pg_add_revoked,
    .list_revoked = pg_list_revoked,
    .tx_begin = pg_tx_begin,
    .tx_end = pg_tx_end,
    .tx_get_member = pg_tx_get_member,
    .tx_deactivate = pg_tx_deactivate,
    .tx_add_revoked = pg_tx_add_revoked,
    .close = pg_close,
    .meta_get = pg_meta_get,
    .meta_set = pg_meta_set,
    .meta_next = pg_meta_next,
    .last_error = pg_last_error,
    /* no restore protection (guard, recover): the database, shared by the manager nodes, is
     * the single source of truth; its backups and restores are the DBA's (docs/dgsp.md) */
};

static int migrate(pg_store *s, int create)
{
    PGresult *r = PQexec(s->conn, "SELECT convert_from(value, 'UTF8') FROM grove_meta WHERE key = "
                                  "'schema_version'");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        if (state == NULL || strcmp(state, "42P01") != 0) { /* not "no such table": report */
            set_err(s, "cannot read the grove schema", r);
            PQclear(r);
            return GROVE_ERR_STORAGE;
        }
    }
    int have = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
    char ver[16] = "";
    if (have)
        snprintf(ver, sizeof ver, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    if (have)
        return strcmp(ver, SCHEMA_VERSION) == 0 ? GROVE_OK : GROVE_ERR_UNSUPPORTED;
    if (!create) {
        snprintf(s->err, sizeof s->err, "no grove DGSP store in this database");
        return GROVE_ERR_NOT_FOUND;
    }
    /* one transaction; concurrent first uses serialise on an advisory lock */
    const char *ddl =
        "BEGIN;"
        "SELECT pg_advisory_xact_lock(7428191);"
        "CREATE TABLE IF NOT EXISTS grove_meta(key text PRIMARY KEY, value bytea NOT NULL);"
        "CREATE TABLE IF NOT EXISTS grove_state(one boolean PRIMARY KEY DEFAULT true CHECK (one),"
        " next_id bigint NOT NULL CHECK (next_id >= 0));"
        "INSERT INTO grove_state(one, next_id) VALUES (true, 0) ON CONFLICT DO NOTHING;"
        "CREATE TABLE IF NOT EXISTS grove_members(id bigint PRIMARY KEY CHECK (id >= 0),"
        " username text NOT NULL UNIQUE, active boolean NOT NULL,"
        " ctr numeric(20,0) NOT NULL CHECK (ctr >= 0 AND ctr <= " U64_MAX_TEXT "));"
        "CREATE TABLE IF NOT EXISTS grove_revoked(zeta bytea PRIMARY KEY"
        " CHECK (octet_length(zeta) = 16));"
        "INSERT INTO grove_meta(key, value) VALUES ('schema_version', convert_to('" SCHEMA_VERSION
        "', 'UTF8')) ON CONFLICT DO NOTHING;"
        "COMMIT;";
    r = PQexec(s->conn, ddl);
    int st = PQresultStatus(r) == PGRES_COMMAND_OK ? GROVE_OK : GROVE_ERR_STORAGE;
    if (st != GROVE_OK)
        set_err(s, "cannot create the grove schema", r);
    PQclear(r);
    if (st != GROVE_OK)
        PQexec(s->conn, "ROLLBACK");
    return st;
}

grove_status grove_dgsp_store_postgres_open(grove_dgsp_store **out, const char *conninfo,
                                            bool create, char *err, size_t errcap)
{
    if (conninfo == NULL || out == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_dgsp_store *store = calloc(1, sizeof *store);
    pg_store *s = calloc(1, sizeof *s);
    if (store == NULL || s == NULL || pthread_mutex_init(&s->lock, NULL) != 0) {
        free(store);
        free(s);
        return GROVE_ERR_NOMEM;
    }
    /* conninfo_parse first: a malformed string gets libpq's own explanation */
    char *perr = NULL;
    PQconninfoOption *opts = PQconninfoParse(conninfo, &perr);
    int st = GROVE_OK;
    if (opts == NULL) {
        if (err)
            snprintf(err, errcap, "bad connection string: %s", perr ? perr : "cannot parse");
        PQfreemem(perr);
        st = GROVE_ERR_INVALID_ARG;
    }
    PQconninfoFree(opts);
    if (st == GROVE_OK) {
        s->conn = PQconnectdb(conninfo);
        if (PQstatus(s->conn) != CONNECTION_OK) {
            set_err(s, "cannot connect", NULL);
            st = GROVE_ERR_STORAGE;
        }
    }
    if (st == GROVE_OK) {
        PQclear(PQexec(s->conn, "SET client_min_messages = warning"));
        st = migrate(s, create);
    }
    if (st != GROVE_OK) {
        if (err && s->err[0])
            snprintf(err, errcap, "%s", s->err);
        if (s->conn)
            PQfinish(s->conn);
        pthread_mutex_destroy(&s->lock);
        free(s);
        free(store);
        return st;
    }
    store->ops = &pg_ops;
    store->ctx = s;
    *out = store;
    return GROVE_OK;
}
