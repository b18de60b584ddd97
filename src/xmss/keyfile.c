/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * XMSS key files with the state registry (grove/xmss.h, "key files and the state registry"):
 * locking, the registry record of a key, the check of a file against it, persist-before-release
 * signing, the crash-safe split protocol, fast-forward recovery and key-file creation.
 * The file's bytes (the envelope around the state, or a bare state of an older grove) are
 * wrapped and unwrapped by file.c only; every rewrite keeps the form the file was opened in
 * (a bare file is rewritten as the binary envelope).
 *
 * Registry record (kind "xmss", id = key id), text lines:
 *   grove-xmss-key 2
 *   params <set name>
 *   start <range start>           end <range end>   (one line each)
 *   high-water <mark>
 *   generation <splits made>
 *   parent <hex id>               (split parts only)
 *   split <generation> <start> <end> <child id hex>   (one per split given away, oldest first)
 *   pending <hex of the part's absolute path>   (while a split is in progress)
 * grove 0.1 entries ("grove-xmss-state v1 <id hex> <mark>") are read as a high-water mark of
 * unknown range and upgraded at the next write.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/encoding.h"
#include "common/file.h"
#include "common/util.h"
#include "xmss/xmss_int.h"

#define KIND "xmss"
#define REC_MAGIC "grove-xmss-key 2"
#define LEGACY_MAGIC "grove-xmss-state v1 "
#define ID_HEX (2 * GROVE_XMSS_KEY_ID_BYTES)

struct grove_xmss_keyfile {
    char path[PATH_MAX];
    int fd; /* holds the flock of the file at path */
    grove_registry *reg;
    grove_registry_entry *entry; /* NULL without a registry */
    grove_xmss_record rec;       /* the entry as last read or written */
    int have_rec;
    grove_xmss_key *key;
    grove_xmss_state_info info; /* the file as last read or written */
    grove_envelope_form form;   /* the form every rewrite writes: the file's (bare: binary) */
    int changed;
    char err[GROVE_XMSS_ERR_CAP];
};


static unsigned long long ull(uint64_t v)
{
    return (unsigned long long)v;
}

/* ---- the record ---------------------------------------------------------------------------- */

void grove_xmss_record_free(grove_xmss_record *r)
{
    if (r == NULL)
        return;
    free(r->splits);
    free(r->pending_path);
    memset(r, 0, sizeof *r);
}

static int parse_u64(const char *s, size_t len, uint64_t *v)
{
    if (len == 0 || len > 20 || (len > 1 && s[0] == '0'))
        return -1;
    uint64_t x = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        uint64_t d = (uint64_t)(s[i] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

/* Split a line into at most 5 space-separated words; returns the count (-1 if more). */
static int words(const char *line, size_t len, const char **w, size_t *wl)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        if (n == 5)
            return -1;
        size_t j = i;
        while (j < len && line[j] != ' ')
            j++;
        w[n] = line + i;
        wl[n++] = j - i;
        i = j + 1;
        if (j < len && i == len)
            return -1; /* trailing space */
    }
    return n;
}

static int word_is(const char *w, size_t wl, const char *s)
{
    return wl == strlen(s) && memcmp(w, s, wl) == 0;
}

static int parse_line(grove_xmss_record *r, const char **w, size_t *wl, int nw, unsigned *seen)
{
    size_t got; /* bytes a hex field decoded to */
    uint64_t v[4];
    if (nw == 2 && word_is(w[0], wl[0], "params")) {
        char name[64];
        if (wl[1] >= sizeof name || (*seen & 1))
            return -1;
        memcpy(name, w[1], wl[1]);
        name[wl[1]] = '\0';
        r->params = grove_xmss_params_get(name);
        *seen |= 1;
        return r->params ? 0 : -1;
    }
    if (nw == 2 && word_is(w[0], wl[0], "pending") && r->pending_path == NULL && wl[1] % 2 == 0 &&
        wl[1] > 0 && wl[1] < 2 * (size_t)PATH_MAX) {
        r->pending_path = calloc(wl[1] / 2 + 1, 1);
        if (r->pending_path == NULL ||
            grove_hex_decode((uint8_t *)r->pending_path, wl[1] / 2, &got, w[1], wl[1]) != GROVE_OK ||
            memchr(r->pending_path, '\0', wl[1] / 2) != NULL)
            return -1;
        r->pending = true;
        return 0;
    }
    static const char *const nums[] = {"start", "end", "high-water", "generation"};
    for (unsigned i = 0; i < 4; i++) {
        if (nw == 2 && word_is(w[0], wl[0], nums[i])) {
            if ((*seen & (2u << i)) || parse_u64(w[1], wl[1], &v[0]) != 0)
                return -1;
            *seen |= 2u << i;
            if (i == 0)
                r->range_start = v[0];
            else if (i == 1)
                r->range_end = v[0];
            else if (i == 2)
                r->high_water = v[0];
            else if (i == 3 && v[0] <= UINT32_MAX)
                r->generation = (uint32_t)v[0];
            else
                return -1;
            return 0;
        }
    }
    if (nw == 2 && word_is(w[0], wl[0], "parent") && wl[1] == ID_HEX && !r->has_parent) {
        r->has_parent = true;
        return grove_hex_decode(r->parent_id, GROVE_XMSS_KEY_ID_BYTES, &got, w[1], wl[1]) ==
                       GROVE_OK
                   ? 0
                   : -1;
    }
    if (nw == 5 && word_is(w[0], wl[0], "split") && wl[4] == ID_HEX) {
        grove_xmss_split_rec *sp = &r->splits[r->nsplits];
        if (parse_u64(w[1], wl[1], &v[0]) || parse_u64(w[2], wl[2], &v[1]) ||
            parse_u64(w[3], wl[3], &v[2]) || v[0] == 0 || v[0] > UINT32_MAX || v[1] >= v[2])
            return -1;
        if (grove_hex_decode(sp->child_id, GROVE_XMSS_KEY_ID_BYTES, &got, w[4], wl[4]) !=
            GROVE_OK)
            return -1;
        sp->generation = (uint32_t)v[0];
        sp->start = v[1];
        sp->end = v[2];
        r->nsplits++;
        return 0;
    }
    return -1;
}

/* Parse a record's text; GROVE_ERR_STATE if it is not a well-formed XMSS record. */
static grove_status record_parse(const char *text, size_t len, const uint8_t *id,
                                 grove_xmss_record *r)
{
    memset(r, 0, sizeof *r);
    if (len > strlen(LEGACY_MAGIC) && memcmp(text, LEGACY_MAGIC, strlen(LEGACY_MAGIC)) == 0) {
        char hex[ID_HEX + 1];
        const char *p = text + strlen(LEGACY_MAGIC);
        grove_hex_encode(hex, id, GROVE_XMSS_KEY_ID_BYTES);
        size_t rest = len - strlen(LEGACY_MAGIC);
        while (rest > 0 && (p[rest - 1] == '\n' || p[rest - 1] == ' '))
            rest--;
        if (rest < ID_HEX + 2 || memcmp(p, hex, ID_HEX) != 0 || p[ID_HEX] != ' ' ||
            parse_u64(p + ID_HEX + 1, rest - ID_HEX - 1, &r->high_water) != 0)
            return GROVE_ERR_STATE;
        r->legacy = true;
        return GROVE_OK;
    }
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    r->splits = calloc(lines + 1, sizeof *r->splits);
    if (r->splits == NULL)
        return GROVE_ERR_NOMEM;
    size_t ml = strlen(REC_MAGIC);
    grove_status rc = len > ml && memcmp(text, REC_MAGIC, ml) == 0 && text[ml] == '\n' ? GROVE_OK
                                                                              : GROVE_ERR_STATE;
    unsigned seen = 0;
    for (size_t i = ml + 1; rc == GROVE_OK && i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t ll = nl ? (size_t)(nl - (text + i)) : len - i;
        const char *w[5];
        size_t wl[5];
        int nw = words(text + i, ll, w, wl);
        if (nw < 2 || parse_line(r, w, wl, nw, &seen) != 0)
            rc = GROVE_ERR_STATE;
        i += ll + 1;
    }
    /* params, start, end, high-water and generation are required, in a consistent order */
    if (rc == GROVE_OK &&
        ((seen & 0x1f) != 0x1f || r->range_start > r->high_water ||
         r->high_water > r->range_end || r->range_end > grove_xmss_total_signatures(r->params)))
        rc = GROVE_ERR_STATE;
    if (rc != GROVE_OK)
        grove_xmss_record_free(r);
    return rc;
}

/* The record's text (malloc'd). */
static char *record_format(const grove_xmss_record *r, size_t *len)
{
    size_t cap = 400 + r->nsplits * (40 + 3 * 21 + ID_HEX) +
                 (r->pending_path ? 2 * strlen(r->pending_path) : 0);
    char *b = malloc(cap);
    if (b == NULL)
        return NULL;
    size_t o = (size_t)snprintf(b, cap,
                                REC_MAGIC "\nparams %s\nstart %llu\nend %llu\nhigh-water %llu\n"
                                          "generation %llu\n",
                                grove_xmss_params_name(r->params), ull(r->range_start),
                                ull(r->range_end), ull(r->high_water), ull(r->generation));
    char hex[ID_HEX + 1];
    if (r->has_parent) {
        grove_hex_encode(hex, r->parent_id, GROVE_XMSS_KEY_ID_BYTES);
        o += (size_t)snprintf(b + o, cap - o, "parent %s\n", hex);
    }
    for (size_t i = 0; i < r->nsplits; i++) {
        const grove_xmss_split_rec *sp = &r->splits[i];
        grove_hex_encode(hex, sp->child_id, GROVE_XMSS_KEY_ID_BYTES);
        o += (size_t)snprintf(b + o, cap - o, "split %llu %llu %llu %s\n", ull(sp->generation),
                              ull(sp->start), ull(sp->end), hex);
    }
    if (r->pending && r->pending_path != NULL) {
        o += (size_t)snprintf(b + o, cap - o, "pending ");
        grove_hex_encode(b + o, (const uint8_t *)r->pending_path, strlen(r->pending_path));
        o += 2 * strlen(r->pending_path);
        b[o++] = '\n';
    }
    *len = o;
    return b;
}

grove_status grove_xmss_record_read(grove_registry *reg, grove_xmss_record *rec,
                                    const uint8_t id[GROVE_XMSS_KEY_ID_BYTES])
{
    if (rec == NULL)
        return GROVE_ERR_INVALID_ARG;
    memset(rec, 0, sizeof *rec);
    if (reg == NULL || id == NULL)
        return GROVE_ERR_INVALID_ARG;
    char *text = NULL;
    size_t len = 0;
    grove_status rc = grove_registry_peek(reg, &text, &len, KIND, id, GROVE_XMSS_KEY_ID_BYTES);
    if (rc == GROVE_OK)
        rc = record_parse(text, len, id, rec);
    free(text);
    return rc;
}

static void clear_pending(grove_xmss_record *r)
{
    r->pending = false;
    free(r->pending_path);
    r->pending_path = NULL;
}

/* The record of a file's state (no splits, not pending). */
static void record_from_info(grove_xmss_record *r, const grove_xmss_state_info *f)
{
    r->legacy = false;
    r->params = f->params;
    r->range_start = f->range_start;
    r->range_end = f->range_end;
    r->high_water = f->high_water;
    r->generation = f->generation;
    r->has_parent = f->has_parent;
    memcpy(r->parent_id, f->parent_id, GROVE_XMSS_KEY_ID_BYTES);
}

/* ---- the check of a file against its entry --------------------------------------------------- */

static const char *recover_hint = "run 'grove xmss recover --sk FILE' to bring it forward to the "
                                  "registry (it then signs from the registry's high-water mark)";

grove_xmss_file_verdict grove_xmss_file_check(const grove_xmss_state_info *f,
                                              const grove_xmss_record *r, char *why, size_t cap)
{
    grove_errf(why, cap, "the file agrees with the state registry");
    if (r == NULL) {
        grove_errf(why, cap, "the state registry has no entry for this key (first use on this machine, "
                      "or the registry was lost)");
        return GROVE_XMSS_FILE_UNREGISTERED;
    }
    if (r->legacy) {
        if (f->high_water >= r->high_water)
            return GROVE_XMSS_FILE_CURRENT;
        grove_errf(why, cap, "its high-water mark is %llu but the registry records %llu: it is an old "
                      "copy (restored backup, or another copy signed since); %s",
            ull(f->high_water), ull(r->high_water), recover_hint);
        return GROVE_XMSS_FILE_STALE;
    }
    if (r->params != f->params || r->range_start != f->range_start) {
        grove_errf(why, cap, "the registry entry describes %s with range start %llu, the file %s with "
                      "range start %llu: they are not the same key; refusing for good",
            grove_xmss_params_name(r->params), ull(r->range_start),
            grove_xmss_params_name(f->params), ull(f->range_start));
        return GROVE_XMSS_FILE_CONFLICT;
    }
    const grove_xmss_split_rec *last = r->nsplits ? &r->splits[r->nsplits - 1] : NULL;
    if (r->pending && last != NULL && f->generation + 1 == r->generation &&
        f->range_end == last->end && f->high_water >= r->high_water && last->start == r->range_end) {
        grove_errf(why, cap, "a split of [%llu, %llu) was interrupted before this file was shortened: "
                      "the next use completes it (the file keeps [%llu, %llu))",
            ull(last->start), ull(last->end), ull(f->range_start), ull(last->start));
        return GROVE_XMSS_FILE_SPLIT_PENDING;
    }
    int ahead = f->high_water >= r->high_water && f->range_end <= r->range_end &&
                f->generation >= r->generation &&
                (f->generation != r->generation || f->range_end == r->range_end);
    if (ahead)
        return GROVE_XMSS_FILE_CURRENT;
    if (f->generation < r->generation || f->range_end > r->range_end)
        grove_errf(why, cap, "the file holds range [%llu, %llu) at split generation %llu, but the "
                      "registry records [%llu, %llu) at generation %llu (high-water mark %llu): "
                      "it is a copy from before a split, and indices from %llu on belong to a "
                      "split part; %s",
            ull(f->range_start), ull(f->range_end), ull(f->generation), ull(r->range_start),
            ull(r->range_end), ull(r->generation), ull(r->high_water), ull(r->range_end),
            recover_hint);
    else
        grove_errf(why, cap, "its high-water mark is %llu but the registry records %llu (every index "
                      "below it may have signed): it is an old copy (restored backup, or another "
                      "copy signed since); %s",
            ull(f->high_water), ull(r->high_water), recover_hint);
    return GROVE_XMSS_FILE_STALE;
}

/* ---- files ----------------------------------------------------------------------------------- */

static void state_error(int st, const char *path, const char *why, char *err, size_t cap);

/*
 * Read a key file and decode it in place (grove_xmss_keyfile_decode): the read is capped at the
 * largest key file of the set and form its first bytes name. *buf (buf_len bytes, to wipe and
 * free) holds the state at *state; info receives what it says.
 */
static grove_status read_state(int fd, const char *path, uint8_t **buf, size_t *buf_len,
                               const uint8_t **state, size_t *state_len,
                               grove_xmss_state_info *info, char *err, size_t cap)
{
    uint8_t h[512];
    ssize_t r;
    do {
        r = pread(fd, h, sizeof h, 0);
    } while (r < 0 && errno == EINTR);
    size_t max = r > 0 ? xmss_file_read_cap(h, (size_t)r) : 0;
    if (max == 0)
        max = 4096; /* not a key file of a known set: enough to say why */
    *buf = NULL;
    *buf_len = 0;
    grove_status rc = grove_file_read_fd(fd, max, buf, buf_len);
    if (rc == GROVE_ERR_ENCODING)
        grove_errf(err, cap, "%s is larger than any key file of its parameter set (%zu bytes): not a "
                      "grove XMSS private key",
            path, max);
    else if (rc != GROVE_OK)
        grove_errf(err, cap, "cannot read %s: %s", path, rc == GROVE_ERR_IO ? strerror(errno) : grove_strerror(rc));
    if (rc != GROVE_OK)
        return rc;
    char why[200] = "";
    rc = grove_xmss_keyfile_decode(state, state_len, info, *buf, *buf_len, *buf, *buf_len, why,
                                   sizeof why);
    if (rc != GROVE_OK) {
        state_error(rc, path, why, err, cap);
        grove_wipe(*buf, *buf_len);
        free(*buf);
        *buf = NULL;
        *buf_len = 0;
    }
    return rc;
}

static void state_error(int st, const char *path, const char *why, char *err, size_t cap)
{
    switch (st) {
    case GROVE_ERR_ENCODING:
        grove_errf(err, cap, "%s: not a grove XMSS private key, or truncated (%s)", path, why);
        break;
    case GROVE_ERR_UNSUPPORTED:
        grove_errf(err, cap, "%s: unsupported private-key format version or unknown parameter set",
            path);
        break;
    case GROVE_ERR_STATE:
        grove_errf(err, cap, "%s: integrity check failed: the key file is corrupted or was altered "
                      "(%s; nothing was reserved or signed; restore it from where it was split "
                      "off, never from an older copy)",
            path, why);
        break;
    default:
        grove_errf(err, cap, "%s: %s", path, grove_strerror(st));
    }
}

static grove_status write_record(grove_xmss_keyfile *kf, char *err, size_t cap)
{
    if (kf->entry == NULL)
        return GROVE_OK;
    size_t len = 0;
    char *text = record_format(&kf->rec, &len);
    grove_status rc = text ? grove_registry_write(kf->entry, text, len) : GROVE_ERR_NOMEM;
    free(text);
    if (rc != GROVE_OK)
        grove_errf(err, cap, "cannot write the state registry entry %s: %s",
            grove_registry_entry_path(kf->entry), grove_strerror(rc));
    return rc;
}

/* The key file of a state in form (malloc'd into *out, *out_len bytes: wipe and free it). */
static grove_status encode_file(const uint8_t *state, size_t len, grove_envelope_form form,
                                uint8_t **out, size_t *out_len)
{
    size_t need = 0;
    *out = NULL;
    grove_status rc = grove_xmss_keyfile_encode(NULL, 0, &need, state, len, form);
    if (rc != GROVE_ERR_BUFFER_TOO_SMALL)
        return rc == GROVE_OK ? GROVE_ERR_INTERNAL : rc;
    *out = malloc(need);
    if (*out == NULL)
        return GROVE_ERR_NOMEM;
    rc = grove_xmss_keyfile_encode(*out, need, out_len, state, len, form);
    if (rc != GROVE_OK) {
        grove_wipe(*out, need);
        free(*out);
        *out = NULL;
    }
    return rc;
}

/*
 * Write a new state to the key file (atomically, keeping the lock), then the registry entry
 * (high-water mark, range end and generation from the state; a pending split the file now
 * reflects is cleared).
 */
static grove_status store_state(grove_xmss_keyfile *kf, const uint8_t *state, size_t len, char *err,
                                size_t cap)
{
    grove_xmss_state_info info;
    if (grove_xmss_state_info_get(&info, state, len) != GROVE_OK) {
        grove_errf(err, cap, "internal error: the key produced an unreadable state");
        return GROVE_ERR_INTERNAL;
    }
    int fd = -1;
    char ferr[GROVE_FILE_ERR_CAP];
    uint8_t *file = NULL;
    size_t flen = 0;
    grove_status rc = encode_file(state, len, kf->form, &file, &flen);
    if (rc != GROVE_OK) {
        grove_errf(err, cap, "cannot encode the key file: %s", grove_strerror(rc));
        return rc;
    }
    rc = grove_file_write_atomic_locked(kf->path, file, flen, 0600, GROVE_FILE_REPLACE, &fd, ferr,
                                        sizeof ferr);
    grove_wipe(file, flen);
    free(file);
    if (rc != GROVE_OK) {
        grove_errf(err, cap, "%s", ferr);
        return rc;
    }
    close(kf->fd);
    kf->fd = fd;
    kf->info = info;
    kf->info.form = kf->form;
    if (kf->entry == NULL)
        return GROVE_OK;
    if (kf->rec.pending && info.generation >= kf->rec.generation &&
        info.range_end <= kf->rec.range_end)
        clear_pending(&kf->rec);
    grove_xmss_split_rec *keep = kf->rec.splits;
    size_t nkeep = kf->rec.nsplits;
    record_from_info(&kf->rec, &info);
    kf->rec.splits = keep;
    kf->rec.nsplits = nkeep;
    kf->have_rec = 1;
    return write_record(kf, err, cap);
}

static grove_status kf_persist(void *arg, const uint8_t *state, size_t len)
{
    grove_xmss_keyfile *kf = arg;
    return store_state(kf, state, len, kf->err, sizeof kf->err);
}

/* Replace the key object by one loaded from state. */
static grove_status reload(grove_xmss_keyfile *kf, const uint8_t *state, size_t len,
                           const grove_xmss_opts *opts)
{
    grove_xmss_key *k = NULL;
    grove_status rc = grove_xmss_key_load(&k, state, len, opts);
    if (rc != GROVE_OK)
        return rc;
    grove_xmss_key_free(kf->key);
    kf->key = k;
    return grove_xmss_key_set_persist(k, kf_persist, kf);
}

/* Rewrite the file as the key's state at (high-water mark, range end, generation), durably,
 * and reload the key from it. */
static grove_status rewrite_at(grove_xmss_keyfile *kf, uint64_t hw, uint64_t end, uint32_t gen,
                               const grove_xmss_opts *opts, char *err, size_t cap)
{
    uint8_t *state = NULL;
    size_t len = 0;
    grove_status rc = xmss_key_state_at(kf->key, hw, end, gen, &state, &len);
    if (rc == GROVE_OK)
        rc = store_state(kf, state, len, err, cap);
    if (rc == GROVE_OK)
        rc = reload(kf, state, len, opts);
    if (state != NULL) {
        grove_wipe(state, len);
        free(state);
    }
    return rc;
}

/*
 * Bring the file forward to the entry: high-water mark max, range end min, generation max (an
 * interrupted split is completed this way). The key is reloaded from the new state.
 */
static grove_status fast_forward(grove_xmss_keyfile *kf, const grove_xmss_opts *opts, char *err,
                                 size_t cap)
{
    const grove_xmss_record *r = &kf->rec;
    uint64_t end = kf->info.range_end;
    uint32_t gen = kf->info.generation;
    if (!r->legacy) {
        if (r->range_end < end)
            end = r->range_end;
        if (r->generation > gen)
            gen = r->generation;
    }
    grove_status rc = rewrite_at(kf, r->high_water, end, gen, opts, err, cap);
    if (rc == GROVE_OK)
        kf->changed = 1;
    return rc;
}

/* A valid key file of the given id at path. */
static int part_file_ok(const char *path, const uint8_t *id)
{
    grove_xmss_state_info info;
    return path != NULL && grove_xmss_keyfile_read_info(&info, path, NULL, 0) == GROVE_OK &&
           memcmp(info.key_id, id, GROVE_XMSS_KEY_ID_BYTES) == 0;
}

/*
 * An interrupted split (see the top of this file): complete it, or roll it back when the part
 * never came to exist (its entry is then marked used up).
 */
static grove_status resolve_pending(grove_xmss_keyfile *kf, const grove_xmss_opts *opts, char *err,
                                    size_t cap)
{
    grove_xmss_record *r = &kf->rec;
    grove_xmss_split_rec last = r->splits[r->nsplits - 1];
    grove_registry_entry *e = NULL;
    grove_status rc =
        grove_registry_lock(kf->reg, &e, KIND, last.child_id, GROVE_XMSS_KEY_ID_BYTES);
    if (rc != GROVE_OK) {
        grove_errf(err, cap, "cannot lock the state registry entry of the part of an interrupted "
                      "split of %s: %s", kf->path, grove_strerror(rc));
        return GROVE_ERR_STATE;
    }
    char *text = NULL;
    size_t len = 0;
    grove_xmss_record child;
    memset(&child, 0, sizeof child);
    int rr = grove_registry_read(e, &text, &len);
    if (rr == GROVE_OK)
        rr = record_parse(text, len, last.child_id, &child);
    free(text);
    int complete = rr != GROVE_ERR_NOT_FOUND &&
                   (rr != GROVE_OK || child.legacy || child.high_water > child.range_start ||
                    part_file_ok(r->pending_path, last.child_id));
    if (!complete && rr == GROVE_OK) {
        /* the part never existed: no file of its id may ever sign */
        child.high_water = child.range_end;
        text = record_format(&child, &len);
        rc = text ? grove_registry_write(e, text, len) : GROVE_ERR_NOMEM;
        free(text);
    }
    grove_xmss_record_free(&child);
    grove_registry_unlock(e);
    if (rc != GROVE_OK) {
        grove_errf(err, cap, "cannot write the state registry entry of an abandoned split part: %s",
            grove_strerror(rc));
        return rc;
    }
    if (!complete) {
        /* roll back: the source keeps the range (its generation stays counted) */
        r->nsplits--;
        r->range_end = last.end;
        clear_pending(r);
    }
    return fast_forward(kf, opts, err, cap);
}

/* Lock the entry and read it (absent: no record). */
static grove_status lock_entry(grove_xmss_keyfile *kf, char *err, size_t cap)
{
    grove_status rc =
        grove_registry_lock(kf->reg, &kf->entry, KIND, kf->info.key_id, GROVE_XMSS_KEY_ID_BYTES);
    if (rc != GROVE_OK) {
        grove_errf(err, cap, "cannot lock the state registry entry of %s in %s: %s", kf->path,
            grove_registry_dir(kf->reg), grove_strerror(rc));
        return GROVE_ERR_STATE;
    }
    char *text = NULL;
    size_t len = 0;
    rc = grove_registry_read(kf->entry, &text, &len);
    if (rc == GROVE_OK)
        rc = record_parse(text, len, kf->info.key_id, &kf->rec);
    free(text);
    if (rc == GROVE_OK) {
        kf->have_rec = 1;
    } else if (rc == GROVE_ERR_NOT_FOUND) {
        rc = GROVE_OK;
    } else {
        grove_errf(err, cap, "the state registry entry %s is damaged (%s): refusing to use %s until it "
                      "is repaired or removed, since it records which indices this key used",
            grove_registry_entry_path(kf->entry), grove_strerror(rc), kf->path);
        rc = GROVE_ERR_STATE;
    }
    return rc;
}

/* Check the file against its entry; complete / fast-forward / refuse / bring the entry along. */
static grove_status reconcile(grove_xmss_keyfile *kf, unsigned flags, const grove_xmss_opts *opts,
                              char *err, size_t cap)
{
    char why[GROVE_XMSS_ERR_CAP - 64];
    grove_xmss_file_verdict v =
        grove_xmss_file_check(&kf->info, kf->have_rec ? &kf->rec : NULL, why, sizeof why);
    switch (v) {
    case GROVE_XMSS_FILE_CONFLICT:
        grove_errf(err, cap, "%s: %s", kf->path, why);
        return GROVE_ERR_STATE;
    case GROVE_XMSS_FILE_STALE:
        if (!(flags & GROVE_XMSS_KEYFILE_RECOVER)) {
            grove_errf(err, cap, "%s refused: %s", kf->path, why);
            return GROVE_ERR_STATE;
        }
        return fast_forward(kf, opts, err, cap);
    case GROVE_XMSS_FILE_SPLIT_PENDING:
        return resolve_pending(kf, opts, err, cap);
    case GROVE_XMSS_FILE_UNREGISTERED:
        record_from_info(&kf->rec, &kf->info);
        kf->have_rec = 1;
        return write_record(kf, err, cap);
    case GROVE_XMSS_FILE_CURRENT:
    default:
        break;
    }
    const grove_xmss_record *r = &kf->rec;
    if (r->legacy || r->pending || r->high_water != kf->info.high_water ||
        r->range_end != kf->info.range_end || r->generation != kf->info.generation) {
        /* the entry catches up with a file that is ahead (or is upgraded) */
        if (r->legacy) {
            grove_xmss_record_free(&kf->rec);
            kf->rec.splits = NULL;
        }
        clear_pending(&kf->rec);
        grove_xmss_split_rec *keep = kf->rec.splits;
        size_t nkeep = kf->rec.nsplits;
        record_from_info(&kf->rec, &kf->info);
        kf->rec.splits = keep;
        kf->rec.nsplits = nkeep;
        return write_record(kf, err, cap);
    }
    return GROVE_OK;
}

void grove_xmss_keyfile_close(grove_xmss_keyfile *kf)
{
    if (kf == NULL)
        return;
    grove_xmss_key_free(kf->key);
    grove_registry_unlock(kf->entry);
    grove_xmss_record_free(&kf->rec);
    if (kf->fd >= 0)
        close(kf->fd);
    free(kf);
}

grove_status grove_xmss_keyfile_open(grove_xmss_keyfile **out, const char *path,
                                     grove_registry *reg, unsigned flags,
                                     const grove_xmss_opts *opts, char *err, size_t err_cap)
{
    if (out != NULL)
        *out = NULL;
    if (path == NULL || out == NULL || (flags & ~(unsigned)GROVE_XMSS_KEYFILE_RECOVER))
        return GROVE_ERR_INVALID_ARG;
    grove_xmss_keyfile *kf = calloc(1, sizeof *kf);
    if (kf == NULL)
        return GROVE_ERR_NOMEM;
    kf->fd = -1;
    kf->reg = reg;
    int n = snprintf(kf->path, sizeof kf->path, "%s", path);
    grove_status rc = n <= 0 || (size_t)n >= sizeof kf->path ? GROVE_ERR_INVALID_ARG : GROVE_OK;
    char ferr[GROVE_FILE_ERR_CAP];
    if (rc == GROVE_OK) {
        rc = grove_file_open_locked(path, O_RDONLY, &kf->fd, ferr, sizeof ferr);
        if (rc != GROVE_OK) {
            grove_errf(err, err_cap, "%s", ferr);
            rc = GROVE_ERR_IO;
        }
    }
    uint8_t *buf = NULL;
    size_t len = 0, slen = 0;
    const uint8_t *state = NULL;
    if (rc == GROVE_OK) {
        /* temporary files of killed writers hold the seeds: remove them (we hold the lock) */
        grove_file_remove_stale_temps(path);
        rc = read_state(kf->fd, path, &buf, &len, &state, &slen, &kf->info, err, err_cap);
    }
    /* every rewrite keeps the file's form; a bare file of an older grove becomes binary */
    kf->form = kf->info.form == GROVE_ENVELOPE_ARMORED ? GROVE_ENVELOPE_ARMORED
                                                       : GROVE_ENVELOPE_BINARY;
    if (rc == GROVE_OK && reg != NULL)
        rc = lock_entry(kf, err, err_cap);
    if (rc == GROVE_OK) {
        rc = grove_xmss_key_load(&kf->key, state, slen, opts);
        if (rc != GROVE_OK)
            state_error(rc, path, "the key state does not load", err, err_cap);
        else
            rc = grove_xmss_key_set_persist(kf->key, kf_persist, kf);
    }
    if (buf != NULL) {
        grove_wipe(buf, len);
        free(buf);
    }
    if (rc == GROVE_OK && reg != NULL)
        rc = reconcile(kf, flags, opts, err, err_cap);
    if (rc != GROVE_OK) {
        grove_xmss_keyfile_close(kf);
        return rc;
    }
    *out = kf;
    return GROVE_OK;
}

grove_xmss_key *grove_xmss_keyfile_key(grove_xmss_keyfile *kf)
{
    return kf ? kf->key : NULL;
}

grove_status grove_xmss_keyfile_info(grove_xmss_keyfile *kf, grove_xmss_state_info *info)
{
    if (kf == NULL || info == NULL)
        return GROVE_ERR_INVALID_ARG;
    *info = kf->info;
    return GROVE_OK;
}

bool grove_xmss_keyfile_changed(const grove_xmss_keyfile *kf)
{
    return kf != NULL && kf->changed;
}

const char *grove_xmss_keyfile_entry_path(const grove_xmss_keyfile *kf)
{
    return kf && kf->entry ? grove_registry_entry_path(kf->entry) : NULL;
}

const char *grove_xmss_keyfile_error(const grove_xmss_keyfile *kf)
{
    return kf ? kf->err : "";
}

/* ---- split ----------------------------------------------------------------------------------- */

/* Register a new part: its entry must not exist yet. */
static grove_status register_part(grove_registry *reg, grove_xmss_key *part, const uint8_t *parent,
                                  char *err, size_t cap)
{
    grove_xmss_record r;
    memset(&r, 0, sizeof r);
    r.params = grove_xmss_key_params(part);
    grove_xmss_key_range(part, &r.range_start, &r.range_end);
    r.high_water = r.range_start;
    r.has_parent = true;
    memcpy(r.parent_id, parent, GROVE_XMSS_KEY_ID_BYTES);
    uint8_t id[GROVE_XMSS_KEY_ID_BYTES];
    grove_xmss_key_id(part, id);
    grove_registry_entry *e = NULL;
    grove_status rc = grove_registry_lock(reg, &e, KIND, id, sizeof id);
    char *text = NULL;
    size_t len = 0;
    if (rc == GROVE_OK) {
        rc = grove_registry_read(e, &text, &len);
        free(text);
        text = NULL;
        if (rc == GROVE_OK || rc == GROVE_ERR_STATE) {
            grove_errf(err, cap, "the new part's registry entry %s already exists",
                grove_registry_entry_path(e));
            rc = GROVE_ERR_STATE;
        } else if (rc == GROVE_ERR_NOT_FOUND) {
            text = record_format(&r, &len);
            rc = text ? grove_registry_write(e, text, len) : GROVE_ERR_NOMEM;
            free(text);
            if (rc != GROVE_OK)
                grove_errf(err, cap, "cannot write the state registry entry %s: %s",
                    grove_registry_entry_path(e), grove_strerror(rc));
        }
    } else {
        grove_errf(err, cap, "cannot lock a state registry entry in %s: %s", grove_registry_dir(reg),
            grove_strerror(rc));
    }
    grove_registry_unlock(e);
    return rc;
}

/* Write the part's file (must not exist). */
static grove_status write_part(grove_xmss_key *part, const char *out_path,
                               grove_envelope_form form, char *err, size_t cap)
{
    size_t sl = grove_xmss_key_state_bytes(part), len = 0, flen = 0;
    uint8_t *state = malloc(sl), *file = NULL;
    if (state == NULL)
        return GROVE_ERR_NOMEM;
    char ferr[GROVE_FILE_ERR_CAP];
    grove_status rc = grove_xmss_key_export(part, state, sl, &len);
    if (rc == GROVE_OK)
        rc = encode_file(state, len, form, &file, &flen);
    if (rc == GROVE_OK) {
        rc = grove_file_write_atomic(out_path, file, flen, 0600, GROVE_FILE_NO_REPLACE, ferr,
                                     sizeof ferr);
        if (rc != GROVE_OK)
            grove_errf(err, cap, "%s", ferr);
    } else {
        grove_errf(err, cap, "cannot encode the new key file: %s", grove_strerror(rc));
    }
    if (file != NULL) {
        grove_wipe(file, flen);
        free(file);
    }
    grove_wipe(state, sl);
    free(state);
    return rc;
}

/* Shrink the source file to [start, s) at generation gen (its key is reloaded). */
static grove_status shrink_source(grove_xmss_keyfile *kf, uint64_t s, uint32_t gen,
                                  const grove_xmss_opts *opts, char *err, size_t cap)
{
    return rewrite_at(kf, 0, s, gen, opts, err, cap);
}

/* Record the split in the source's entry, marked pending (range end s, generation + 1). */
static grove_status record_split(grove_xmss_keyfile *kf, grove_xmss_key *part, const char *out_path,
                                 char *err, size_t cap)
{
    grove_xmss_record *r = &kf->rec;
    char dir[PATH_MAX], real[PATH_MAX];
    grove_file_dirname(out_path, dir, sizeof dir);
    const char *base = strrchr(out_path, '/');
    base = base ? base + 1 : out_path;
    if (realpath(dir, real) == NULL) {
        grove_errf(err, cap, "cannot resolve the folder of %s: %s (nothing changed)", out_path,
            strerror(errno));
        return GROVE_ERR_IO;
    }
    size_t need = strlen(real) + strlen(base) + 2;
    char *abs = malloc(need);
    if (abs == NULL)
        return GROVE_ERR_NOMEM;
    snprintf(abs, need, "%s/%s", strcmp(real, "/") == 0 ? "" : real, base);
    clear_pending(r);
    r->pending_path = abs;
    grove_xmss_split_rec *ns = realloc(r->splits, (r->nsplits + 1) * sizeof *ns);
    if (ns == NULL)
        return GROVE_ERR_NOMEM;
    r->splits = ns;
    grove_xmss_split_rec *sp = &ns[r->nsplits];
    grove_xmss_key_range(part, &sp->start, &sp->end);
    grove_xmss_key_id(part, sp->child_id);
    sp->generation = kf->info.generation + 1;
    r->nsplits++;
    r->range_end = sp->start;
    r->generation = sp->generation;
    if (r->high_water > r->range_end)
        r->high_water = r->range_end;
    r->pending = true;
    return write_record(kf, err, cap);
}

grove_status grove_xmss_keyfile_split(grove_xmss_keyfile *kf, uint64_t *start, uint64_t *end,
                                      uint64_t count, const char *out_path,
                                      grove_envelope_form form, const grove_xmss_opts *opts,
                                      char *err, size_t err_cap)
{
    if (kf == NULL || out_path == NULL || count == 0 ||
        (form != GROVE_ENVELOPE_ARMORED && form != GROVE_ENVELOPE_BINARY))
        return GROVE_ERR_INVALID_ARG;
    struct stat sb;
    char dir[PATH_MAX];
    grove_file_dirname(out_path, dir, sizeof dir);
    if (lstat(out_path, &sb) == 0) {
        grove_errf(err, err_cap, "%s already exists: refusing to overwrite it", out_path);
        return GROVE_ERR_EXISTS;
    }
    if (access(dir, W_OK) != 0) {
        grove_errf(err, err_cap, "cannot create %s: %s (nothing changed)", out_path, strerror(errno));
        return GROVE_ERR_IO;
    }
    grove_xmss_key *part = NULL;
    grove_status rc = xmss_key_split_make(kf->key, count, opts, &part);
    if (rc == GROVE_ERR_EXHAUSTED)
        grove_errf(err, err_cap, "%s has only %llu unused indices (asked for %llu)", kf->path,
            ull(grove_xmss_key_remaining(kf->key)), ull(count));
    else if (rc != GROVE_OK)
        grove_errf(err, err_cap, "split failed: %s", grove_strerror(rc));
    if (rc != GROVE_OK)
        return rc;
    uint64_t s, e;
    grove_xmss_key_range(part, &s, &e);
    uint32_t gen = kf->info.generation + 1;
    int lost = 0;
    if (kf->entry != NULL) {
        /* the split is recorded (pending) first: an interruption is resolved at the next open */
        rc = record_split(kf, part, out_path, err, err_cap);
        int recorded = rc == GROVE_OK;
        if (rc == GROVE_OK)
            rc = register_part(kf->reg, part, kf->info.key_id, err, err_cap);
        if (rc == GROVE_OK)
            rc = write_part(part, out_path, form, err, err_cap);
        if (rc == GROVE_OK) {
            rc = shrink_source(kf, s, gen, opts, err, err_cap);
            if (rc != GROVE_OK) {
                size_t l = err ? strlen(err) : 0;
                if (err != NULL && l < err_cap)
                    grove_errf(err + l, err_cap - l, " (the split is recorded; the next use of %s "
                                             "completes it)", kf->path);
            }
        } else if (recorded) {
            /* the part does not exist: roll the split back (nothing is lost) */
            char e2[GROVE_XMSS_ERR_CAP];
            if (resolve_pending(kf, opts, e2, sizeof e2) != GROVE_OK) {
                size_t l = err ? strlen(err) : 0;
                if (err != NULL && l < err_cap)
                    grove_errf(err + l, err_cap - l, "; %s", e2);
            }
        }
    } else {
        rc = shrink_source(kf, s, gen, opts, err, err_cap);
        if (rc == GROVE_OK) {
            lost = 1;
            rc = write_part(part, out_path, form, err, err_cap);
        }
    }
    if (rc != GROVE_OK && lost) {
        size_t l = err ? strlen(err) : 0;
        if (err != NULL && l < err_cap)
            grove_errf(err + l, err_cap - l, "; indices [%llu, %llu) now belong to no file (lost, never "
                                     "reused)",
                ull(s), ull(e));
    }
    grove_xmss_key_free(part);
    if (rc == GROVE_OK) {
        if (start)
            *start = s;
        if (end)
            *end = e;
    }
    return rc;
}

/* ---- creation ---------------------------------------------------------------------------------- */

grove_status grove_xmss_keyfile_create(const char *path, grove_registry *reg, grove_xmss_key *key,
                                       grove_envelope_form form, char *err, size_t err_cap)
{
    if (path == NULL || key == NULL ||
        (form != GROVE_ENVELOPE_ARMORED && form != GROVE_ENVELOPE_BINARY))
        return GROVE_ERR_INVALID_ARG;
    size_t cap = grove_xmss_key_state_bytes(key), len = 0;
    uint8_t *state = malloc(cap);
    if (state == NULL)
        return GROVE_ERR_NOMEM;
    grove_status rc = grove_xmss_key_export(key, state, cap, &len);
    grove_xmss_state_info info;
    if (rc == GROVE_OK)
        rc = grove_xmss_state_info_get(&info, state, len);
    grove_registry_entry *e = NULL;
    grove_xmss_record r;
    memset(&r, 0, sizeof r);
    int have = 0;
    if (rc == GROVE_OK && reg != NULL) {
        rc = grove_registry_lock(reg, &e, KIND, info.key_id, GROVE_XMSS_KEY_ID_BYTES);
        char *text = NULL;
        size_t tl = 0;
        int rr = rc == GROVE_OK ? grove_registry_read(e, &text, &tl) : rc;
        if (rr == GROVE_OK)
            rr = record_parse(text, tl, info.key_id, &r);
        free(text);
        have = rr == GROVE_OK;
        if (rc != GROVE_OK) {
            grove_errf(err, err_cap, "cannot lock the state registry entry in %s: %s",
                grove_registry_dir(reg), grove_strerror(rc));
        } else if (rr != GROVE_OK && rr != GROVE_ERR_NOT_FOUND) {
            grove_errf(err, err_cap, "the state registry entry %s is damaged: refusing to create a key "
                             "file for it", grove_registry_entry_path(e));
            rc = GROVE_ERR_STATE;
        } else if (have && (r.high_water > info.high_water || r.generation > 0 ||
                            (!r.legacy && r.range_end != info.range_end))) {
            grove_errf(err, err_cap, "this key (same seeds) has already been used on this machine "
                             "(registry high-water mark %llu, %llu splits): a regenerated copy "
                             "would reuse one-time keys",
                ull(r.high_water), ull(r.generation));
            rc = GROVE_ERR_STATE;
        }
    }
    char ferr[GROVE_FILE_ERR_CAP];
    uint8_t *file = NULL;
    size_t flen = 0;
    if (rc == GROVE_OK) {
        rc = encode_file(state, len, form, &file, &flen);
        if (rc != GROVE_OK)
            grove_errf(err, err_cap, "cannot encode the key file: %s", grove_strerror(rc));
    }
    if (rc == GROVE_OK) {
        grove_file_remove_stale_temps(path);
        rc = grove_file_write_atomic(path, file, flen, 0600, GROVE_FILE_NO_REPLACE, ferr,
                                     sizeof ferr);
        if (rc != GROVE_OK)
            grove_errf(err, err_cap, "%s", ferr);
    }
    if (file != NULL) {
        grove_wipe(file, flen);
        free(file);
    }
    if (rc == GROVE_OK && e != NULL && (!have || r.legacy)) {
        grove_xmss_record_free(&r);
        record_from_info(&r, &info);
        size_t tl = 0;
        char *text = record_format(&r, &tl);
        rc = text ? grove_registry_write(e, text, tl) : GROVE_ERR_NOMEM;
        free(text);
        if (rc != GROVE_OK)
            grove_errf(err, err_cap, "cannot write the state registry entry %s: %s",
                grove_registry_entry_path(e), grove_strerror(rc));
    }
    grove_xmss_record_free(&r);
    grove_registry_unlock(e);
    grove_wipe(state, cap);
    free(state);
    return rc;
}

/* ---- reading a key file without using it ------------------------------------------------------ */

grove_status grove_xmss_keyfile_read_info(grove_xmss_state_info *info, const char *path, char *err,
                                          size_t err_cap)
{
    if (path == NULL || info == NULL)
        return GROVE_ERR_INVALID_ARG;
    memset(info, 0, sizeof *info);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        grove_errf(err, err_cap, "cannot open %s: %s", path, strerror(errno));
        return GROVE_ERR_IO;
    }
    uint8_t *buf = NULL;
    size_t len = 0, slen = 0;
    const uint8_t *state = NULL;
    grove_status rc = read_state(fd, path, &buf, &len, &state, &slen, info, err, err_cap);
    close(fd);
    if (buf != NULL) {
        grove_wipe(buf, len);
        free(buf);
    }
    return rc;
}
