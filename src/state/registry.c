/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The state registry (grove/state.h): one locked, checksummed, atomically replaced file per
 * entry. A record on disk is the scheme's text followed by one line
 *   "check <64 hex digits>\n"
 * the SHA-256 of "grove-registry-v1" || kind || NUL || id || the text.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/encoding.h"
#include "common/file.h"
#include "common/util.h"
#include "grove/state.h"
#include "hash/sha2.h"

#define CHECK_LABEL "grove-registry-v1"
#define CHECK_PREFIX "check "
#define CHECK_LINE (sizeof CHECK_PREFIX - 1 + 64 + 1)
#define KIND_MAX 32
/* Entries written by grove 0.1's XMSS command (high-water mark only, no checksum). */
#define LEGACY_XMSS "grove-xmss-state v1 "

struct grove_registry {
    char dir[PATH_MAX];
};

struct grove_registry_entry {
    int lockfd;
    char kind[KIND_MAX + 1];
    uint8_t id[GROVE_REGISTRY_MAX_ID_BYTES];
    size_t id_len;
    char path[PATH_MAX];
};

grove_status grove_registry_default_dir(char *out, size_t out_cap, size_t *out_len)
{
    if (out == NULL)
        return GROVE_ERR_INVALID_ARG;
    const char *d = getenv("GROVE_STATE_DIR"), *x = getenv("XDG_STATE_HOME"),
               *h = getenv("HOME");
    char path[PATH_MAX];
    int n;
    if (d != NULL && d[0] != '\0')
        n = snprintf(path, sizeof path, "%s", d);
    else if (x != NULL && x[0] == '/')
        n = snprintf(path, sizeof path, "%s/grove", x);
    else if (h != NULL && h[0] != '\0')
        n = snprintf(path, sizeof path, "%s/.local/state/grove", h);
    else
        return GROVE_ERR_STATE;
    if (n < 0 || (size_t)n >= sizeof path)
        return GROVE_ERR_INVALID_ARG; /* the variable names a path longer than PATH_MAX */
    if (out_len != NULL)
        *out_len = (size_t)n;
    if ((size_t)n >= out_cap)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    memcpy(out, path, (size_t)n + 1);
    return GROVE_OK;
}

grove_status grove_registry_open(grove_registry **out, const char *dir)
{
    if (out == NULL)
        return GROVE_ERR_INVALID_ARG;
    *out = NULL;
    grove_registry *r = calloc(1, sizeof *r);
    if (r == NULL)
        return GROVE_ERR_NOMEM;
    int rc = GROVE_OK;
    if (dir != NULL) {
        int n = snprintf(r->dir, sizeof r->dir, "%s", dir);
        if (n <= 0 || (size_t)n >= sizeof r->dir)
            rc = GROVE_ERR_INVALID_ARG;
    } else {
        rc = grove_registry_default_dir(r->dir, sizeof r->dir, NULL);
    }
    if (rc == GROVE_OK)
        rc = grove_file_mkdirs(r->dir, 0700, NULL, 0);
    if (rc != GROVE_OK) {
        free(r);
        return rc;
    }
    *out = r;
    return GROVE_OK;
}

const char *grove_registry_dir(const grove_registry *r)
{
    return r ? r->dir : NULL;
}

void grove_registry_close(grove_registry *r)
{
    free(r);
}

static int valid_kind(const char *k)
{
    size_t l = k ? strlen(k) : 0;
    if (l == 0 || l > KIND_MAX)
        return 0;
    for (size_t i = 0; i < l; i++)
        if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= '0' && k[i] <= '9') || k[i] == '-'))
            return 0;
    return 1;
}

static int entry_path(const grove_registry *r, const char *kind, const uint8_t *id,
                      size_t id_len, char *path, size_t cap, int mk)
{
    char hex[2 * GROVE_REGISTRY_MAX_ID_BYTES + 1], dir[PATH_MAX];
    grove_hex_encode(hex, id, id_len);
    int n = snprintf(dir, sizeof dir, "%s/%s", r->dir, kind);
    if (n < 0 || (size_t)n >= sizeof dir)
        return GROVE_ERR_INVALID_ARG;
    if (mk) {
        int rc = grove_file_mkdirs(dir, 0700, NULL, 0);
        if (rc != GROVE_OK)
            return rc;
    }
    n = snprintf(path, cap, "%s/%s", dir, hex);
    return n < 0 || (size_t)n + 8 >= cap ? GROVE_ERR_INVALID_ARG : GROVE_OK;
}

static int lock_entry(grove_registry *r, const char *kind, const uint8_t *id, size_t id_len,
                      int wait, grove_registry_entry **out)
{
    if (out == NULL)
        return GROVE_ERR_INVALID_ARG;
    *out = NULL;
    if (r == NULL || !valid_kind(kind) || id == NULL || id_len == 0 ||
        id_len > GROVE_REGISTRY_MAX_ID_BYTES)
        return GROVE_ERR_INVALID_ARG;
    grove_registry_entry *e = calloc(1, sizeof *e);
    if (e == NULL)
        return GROVE_ERR_NOMEM;
    e->lockfd = -1;
    memcpy(e->kind, kind, strlen(kind) + 1);
    memcpy(e->id, id, id_len);
    e->id_len = id_len;
    int rc = entry_path(r, kind, id, id_len, e->path, sizeof e->path, 1);
    if (rc == GROVE_OK) {
        char lock[PATH_MAX + 8];
        snprintf(lock, sizeof lock, "%s.lock", e->path);
        rc = wait ? grove_file_open_locked(lock, O_RDWR | O_CREAT, &e->lockfd, NULL, 0)
                  : grove_file_try_locked(lock, O_RDWR | O_CREAT, &e->lockfd, NULL, 0);
        if (rc == GROVE_OK)
            grove_file_remove_stale_temps(e->path);
    }
    if (rc != GROVE_OK) {
        free(e);
        return rc;
    }
    *out = e;
    return GROVE_OK;
}

grove_status grove_registry_lock(grove_registry *r, grove_registry_entry **out, const char *kind,
                                 const uint8_t *id, size_t id_len)
{
    return lock_entry(r, kind, id, id_len, 1, out);
}

grove_status grove_registry_try_lock(grove_registry *r, grove_registry_entry **out,
                                     const char *kind, const uint8_t *id, size_t id_len)
{
    return lock_entry(r, kind, id, id_len, 0, out);
}

static void checksum(const char *kind, const uint8_t *id, size_t id_len, const char *text,
                     size_t len, char hex[65])
{
    uint8_t d[32];
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)CHECK_LABEL, sizeof CHECK_LABEL - 1);
    grove_sha256_update(&c, (const uint8_t *)kind, strlen(kind) + 1);
    grove_sha256_update(&c, id, id_len);
    grove_sha256_update(&c, (const uint8_t *)text, len);
    grove_sha256_final(&c, d, sizeof d);
    grove_hex_encode(hex, d, sizeof d);
}

static int read_path(const char *path, const char *kind, const uint8_t *id, size_t id_len,
                     char **rec, size_t *len)
{
    if (rec == NULL)
        return GROVE_ERR_INVALID_ARG;
    *rec = NULL;
    if (len)
        *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? GROVE_ERR_NOT_FOUND : GROVE_ERR_IO;
    uint8_t *buf = NULL;
    size_t n = 0;
    int rc = grove_file_read_fd(fd, GROVE_REGISTRY_MAX_RECORD + CHECK_LINE, &buf, &n);
    close(fd);
    if (rc == GROVE_ERR_ENCODING)
        return GROVE_ERR_STATE;
    if (rc != GROVE_OK)
        return rc;
    size_t text = n;
    int legacy = n > sizeof LEGACY_XMSS - 1 && strcmp(kind, "xmss") == 0 &&
                 memcmp(buf, LEGACY_XMSS, sizeof LEGACY_XMSS - 1) == 0;
    if (!legacy) {
        char want[65];
        if (n < CHECK_LINE || buf[n - 1] != '\n' ||
            memcmp(buf + n - CHECK_LINE, CHECK_PREFIX, sizeof CHECK_PREFIX - 1) != 0 ||
            (n > CHECK_LINE && buf[n - CHECK_LINE - 1] != '\n')) {
            free(buf);
            return GROVE_ERR_STATE;
        }
        text = n - CHECK_LINE;
        checksum(kind, id, id_len, (const char *)buf, text, want);
        if (!grove_ct_memeq((const uint8_t *)want, buf + text + sizeof CHECK_PREFIX - 1, 64)) {
            free(buf);
            return GROVE_ERR_STATE;
        }
    }
    if (memchr(buf, '\0', text) != NULL) {
        free(buf);
        return GROVE_ERR_STATE;
    }
    char *s = malloc(text + 1);
    if (s == NULL) {
        free(buf);
        return GROVE_ERR_NOMEM;
    }
    memcpy(s, buf, text);
    s[text] = '\0';
    free(buf);
    *rec = s;
    if (len)
        *len = text;
    return GROVE_OK;
}

grove_status grove_registry_read(grove_registry_entry *e, char **rec, size_t *len)
{
    if (e == NULL)
        return GROVE_ERR_INVALID_ARG;
    return read_path(e->path, e->kind, e->id, e->id_len, rec, len);
}

grove_status grove_registry_peek(grove_registry *r, char **rec, size_t *len, const char *kind,
                                 const uint8_t *id, size_t id_len)
{
    if (rec != NULL)
        *rec = NULL;
    if (r == NULL || !valid_kind(kind) || id == NULL || id_len == 0 ||
        id_len > GROVE_REGISTRY_MAX_ID_BYTES)
        return GROVE_ERR_INVALID_ARG;
    char path[PATH_MAX];
    int rc = entry_path(r, kind, id, id_len, path, sizeof path, 0);
    return rc != GROVE_OK ? rc : read_path(path, kind, id, id_len, rec, len);
}

grove_status grove_registry_write(grove_registry_entry *e, const char *rec, size_t len)
{
    if (e == NULL || (rec == NULL && len > 0) || len > GROVE_REGISTRY_MAX_RECORD)
        return GROVE_ERR_INVALID_ARG;
    if ((len > 0 && rec[len - 1] != '\n') || memchr(rec, '\0', len) != NULL)
        return GROVE_ERR_INVALID_ARG; /* text lines only */
    char *buf = malloc(len + CHECK_LINE);
    if (buf == NULL)
        return GROVE_ERR_NOMEM;
    memcpy(buf, rec, len);
    char hex[65];
    checksum(e->kind, e->id, e->id_len, rec, len, hex);
    memcpy(buf + len, CHECK_PREFIX, sizeof CHECK_PREFIX - 1);
    memcpy(buf + len + sizeof CHECK_PREFIX - 1, hex, 64);
    buf[len + CHECK_LINE - 1] = '\n';
    int rc = grove_file_write_atomic(e->path, (const uint8_t *)buf, len + CHECK_LINE, 0600,
                                     GROVE_FILE_REPLACE, NULL, 0);
    free(buf);
    return rc;
}

const char *grove_registry_entry_path(const grove_registry_entry *e)
{
    return e ? e->path : NULL;
}

void grove_registry_unlock(grove_registry_entry *e)
{
    if (e == NULL)
        return;
    if (e->lockfd >= 0)
        close(e->lockfd);
    free(e);
}

/* The value of `key` on a line "key value" (the first such line), as a pointer and length. */
static int find_value(const char *rec, const char *key, const char **v, size_t *vl)
{
    if (rec == NULL || key == NULL)
        return GROVE_ERR_INVALID_ARG;
    size_t kl = strlen(key);
    for (const char *line = rec; *line;) {
        const char *nl = strchr(line, '\n');
        size_t ll = nl ? (size_t)(nl - line) : strlen(line);
        if (ll > kl && memcmp(line, key, kl) == 0 && line[kl] == ' ') {
            *v = line + kl + 1;
            *vl = ll - kl - 1;
            return GROVE_OK;
        }
        line += ll + (nl ? 1 : 0);
    }
    return GROVE_ERR_NOT_FOUND;
}

grove_status grove_record_u64(uint64_t *out, const char *rec, const char *key)
{
    const char *v;
    size_t vl;
    int rc = find_value(rec, key, &v, &vl);
    if (rc != GROVE_OK)
        return rc;
    if (vl == 0 || vl > 20 || (vl > 1 && v[0] == '0'))
        return GROVE_ERR_ENCODING;
    uint64_t x = 0;
    for (size_t i = 0; i < vl; i++) {
        if (v[i] < '0' || v[i] > '9')
            return GROVE_ERR_ENCODING;
        uint64_t d = (uint64_t)(v[i] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return GROVE_ERR_ENCODING;
        x = x * 10 + d;
    }
    if (out)
        *out = x;
    return GROVE_OK;
}

grove_status grove_record_str(char *out, size_t out_cap, const char *rec, const char *key)
{
    if (out == NULL)
        return GROVE_ERR_INVALID_ARG;
    const char *v;
    size_t vl;
    int rc = find_value(rec, key, &v, &vl);
    if (rc != GROVE_OK)
        return rc;
    if (vl + 1 > out_cap)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    memcpy(out, v, vl);
    out[vl] = '\0';
    return GROVE_OK;
}
