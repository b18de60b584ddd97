/*
 * grove xmss: XMSS / XMSS^MT key generation, signing with a stateful key file, verification,
 * information and key split.
 *
 * Files: public keys and signatures are the raw RFC 8391 byte strings; the private key is
 * grove's versioned private-key format (grove/xmss.h), created with mode 0600.
 *
 * State safety of `sign` and `split`:
 *   1. the key file is opened and locked with flock (and reopened if another signer replaced it
 *      meanwhile), so signers on one file take turns;
 *   2. the state registry (one small file per key id in the state folder, locked too) records
 *      the highest index ever reserved for the key on this machine; a key file whose
 *      high-water mark is below it was restored from an old copy, or is a copy used
 *      elsewhere: it is refused;
 *   3. the next index is reserved by writing the new key state (temporary file, fsync, rename,
 *      fsync of the folder), then the registry, and only then is the signature computed and
 *      written. A crash after step 3 burns the index; no index is ever used twice.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "common/encoding.h"
#include "grove/xmss.h"

#define DEFAULT_SET "XMSS-SHA2_10_256"
#define MAX_STATE_FILE (256u << 20)
#define MAX_SIG_FILE (GROVE_XMSS_MAX_SIG_BYTES + 16)
#define REG_MAGIC "grove-xmss-state v1"

/* ---- small helpers ---------------------------------------------------------------------- */

/* snprintf without truncation warnings; returns -1 if the text did not fit. */
static int fmt(char *out, size_t cap, const char *f, ...) __attribute__((format(printf, 3, 4)));
static int fmt(char *out, size_t cap, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(out, cap, f, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static const grove_xmss_params *lookup(cli_ctx *c, const char *dflt)
{
    const char *name = cli_opt_str(c, "params");
    if (name == NULL)
        name = dflt;
    if (name == NULL)
        return NULL;
    const grove_xmss_params *p = grove_xmss_params_get(name);
    if (p == NULL)
        cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                 "unknown XMSS parameter set '%s' (see 'grove xmss params'; e.g. "
                 "XMSS-SHA2_10_256, XMSSMT-SHA2_20/2_256)",
                 name);
    return p;
}

static unsigned default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

static int threads_opt(cli_ctx *c, unsigned *out)
{
    uint64_t t;
    if (cli_opt_u64(c, "threads", 1, 256, default_threads(), &t))
        return CLI_EXIT_USAGE;
    *out = (unsigned)t;
    return 0;
}

typedef struct {
    cli_ctx *c;
    const char *what;
    int last;
} progress_state;

static void progress_cb(void *arg, uint64_t done, uint64_t total)
{
    progress_state *ps = arg;
    int permille = total ? (int)(done * 1000 / total) : 1000;
    if (permille == ps->last)
        return;
    ps->last = permille;
    cli_progress(ps->c, ps->what, done, total);
}

/* The folder of a path (into out). */
static void dir_of(const char *path, char *out, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        fmt(out, cap, ".");
    else if (slash == path)
        fmt(out, cap, "/");
    else
        fmt(out, cap, "%.*s", (int)(slash - path), path);
}

/*
 * Write a file atomically and durably: temporary file in the same folder, fsync, then rename
 * over `path` (or, with no_replace, link it to `path`, failing if path exists), then fsync of
 * the folder. Every failure is reported (err).
 */
static int write_atomic(const char *path, const uint8_t *buf, size_t len, mode_t mode,
                        int no_replace, char *err, size_t errcap)
{
    static unsigned counter;
    char tmp[PATH_MAX], dir[PATH_MAX];
    if (fmt(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(), counter++) != 0) {
        fmt(err, errcap, "%s: path too long", path);
        return -1;
    }
    dir_of(path, dir, sizeof dir);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) {
        fmt(err, errcap, "cannot create %s: %s", tmp, strerror(errno));
        return -1;
    }
    if (cli_write_all(fd, buf, len) != 0 || fsync(fd) != 0) {
        fmt(err, errcap, "cannot write %s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        return -1;
    }
    if (close(fd) != 0) {
        fmt(err, errcap, "cannot write %s: %s", tmp, strerror(errno));
        unlink(tmp);
        return -1;
    }
    if (no_replace) {
        if (link(tmp, path) != 0) {
            int e = errno;
            unlink(tmp);
            fmt(err, errcap, e == EEXIST ? "%s already exists (refusing to overwrite it)"
                                              : "cannot create %s: %s",
                     path, strerror(e));
            return -1;
        }
        unlink(tmp);
    } else if (rename(tmp, path) != 0) {
        fmt(err, errcap, "cannot replace %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0 || fsync(dfd) != 0) {
        fmt(err, errcap, "cannot sync folder %s: %s", dir, strerror(errno));
        if (dfd >= 0)
            close(dfd);
        return -1;
    }
    close(dfd);
    return 0;
}

/* Open a file and take an exclusive flock on the inode that is at `path` at that moment. */
static int open_locked(const char *path, int flags, int *out, char *err, size_t errcap)
{
    for (int tries = 0; tries < 1000; tries++) {
        int fd = open(path, flags | O_CLOEXEC, 0600);
        if (fd < 0) {
            fmt(err, errcap, "cannot open %s: %s", path, strerror(errno));
            return -1;
        }
        while (flock(fd, LOCK_EX) != 0) {
            if (errno != EINTR) {
                fmt(err, errcap, "cannot lock %s: %s", path, strerror(errno));
                close(fd);
                return -1;
            }
        }
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            *out = fd;
            return 0;
        }
        close(fd); /* replaced by the signer we waited for: lock the new file */
    }
    fmt(err, errcap, "cannot lock %s: it keeps being replaced", path);
    return -1;
}

static const char *state_error(int st)
{
    switch (st) {
    case GROVE_ERR_ENCODING:
        return "not a grove XMSS private key, or truncated";
    case GROVE_ERR_UNSUPPORTED:
        return "unsupported private-key format version or unknown parameter set";
    case GROVE_ERR_STATE:
        return "integrity check failed: the key file is corrupted or was torn by an "
               "interrupted write";
    default:
        return grove_strerror(st);
    }
}

/* ---- the state registry --------------------------------------------------------------------- */

typedef struct {
    int enabled;
    int lockfd;
    int present; /* an entry exists */
    uint64_t mark;
    char path[PATH_MAX];
} registry;

static int registry_dir(cli_ctx *c, char *out, size_t cap)
{
    const char *d = cli_opt_str(c, "state-dir");
    if (d == NULL)
        d = getenv("GROVE_XMSS_STATE_DIR");
    if (d != NULL) {
        fmt(out, cap, "%s", d);
    } else if (getenv("XDG_STATE_HOME") && getenv("XDG_STATE_HOME")[0] == '/') {
        fmt(out, cap, "%s/grove/xmss", getenv("XDG_STATE_HOME"));
    } else if (getenv("HOME") && getenv("HOME")[0]) {
        fmt(out, cap, "%s/.local/state/grove/xmss", getenv("HOME"));
    } else {
        return cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_STATE,
                        "no state folder: set --state-dir or GROVE_XMSS_STATE_DIR (or use "
                        "--no-registry at your own risk)");
    }
    /* mkdir -p, mode 0700 */
    char tmp[PATH_MAX];
    fmt(tmp, sizeof tmp, "%s", out);
    for (char *s = tmp + 1; *s; s++) {
        if (*s == '/') {
            *s = '\0';
            if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
                return cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_IO, "cannot create %s: %s", tmp,
                                strerror(errno));
            *s = '/';
        }
    }
    if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
        return cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_IO, "cannot create %s: %s", tmp,
                        strerror(errno));
    return 0;
}

/* Lock and read the registry entry of a key id. */
static int registry_open(cli_ctx *c, registry *r, const uint8_t *id)
{
    memset(r, 0, sizeof *r);
    r->lockfd = -1;
    if (cli_opt_flag(c, "no-registry")) {
        fprintf(stderr, "grove: warning: --no-registry: a restored or copied key file will not "
                        "be detected\n");
        return 0;
    }
    char dir[PATH_MAX], hex[2 * GROVE_XMSS_KEY_ID_BYTES + 1], lock[PATH_MAX + 8], err[512];
    int rc = registry_dir(c, dir, sizeof dir);
    if (rc)
        return rc;
    grove_hex_encode(hex, id, GROVE_XMSS_KEY_ID_BYTES);
    if (fmt(r->path, sizeof r->path, "%s/%s", dir, hex) != 0 ||
        fmt(lock, sizeof lock, "%s.lock", r->path) != 0)
        return cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_IO, "state folder path too long: %s", dir);
    if (open_locked(lock, O_RDWR | O_CREAT, &r->lockfd, err, sizeof err) != 0)
        return cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_IO, "state registry: %s", err);
    r->enabled = 1;
    int fd = open(r->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        return cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_IO, "cannot read %s: %s", r->path,
                        strerror(errno));
    }
    char line[256];
    ssize_t n = read(fd, line, sizeof line - 1);
    close(fd);
    char want_id[2 * GROVE_XMSS_KEY_ID_BYTES + 1];
    unsigned long long mark;
    if (n > 0) {
        line[n] = '\0';
        if (sscanf(line, REG_MAGIC " %32s %llu", want_id, &mark) == 2 &&
            strcmp(want_id, hex) == 0) {
            r->present = 1;
            r->mark = mark;
            return 0;
        }
    }
    return cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_STATE,
                    "the state registry entry %s is damaged; refusing to sign until it is "
                    "repaired (it records the highest index used by this key)",
                    r->path);
}

static int registry_write(registry *r, const uint8_t *id, uint64_t mark, char *err, size_t errcap)
{
    if (!r->enabled)
        return 0;
    char hex[2 * GROVE_XMSS_KEY_ID_BYTES + 1], line[256];
    grove_hex_encode(hex, id, GROVE_XMSS_KEY_ID_BYTES);
    fmt(line, sizeof line, REG_MAGIC " %s %llu\n", hex, (unsigned long long)mark);
    size_t l = strlen(line);
    if (write_atomic(r->path, (const uint8_t *)line, l, 0600, 0, err, errcap) != 0)
        return -1;
    r->present = 1;
    r->mark = mark;
    return 0;
}

static void registry_close(registry *r)
{
    if (r->lockfd >= 0)
        close(r->lockfd);
    r->lockfd = -1;
}

/* ---- the persistence callback ------------------------------------------------------------------ */

typedef struct {
    const char *path;
    registry *reg;
    int calls;
    char err[512];
} persist_ctx;

static int persist_cb(void *arg, const uint8_t *state, size_t len)
{
    persist_ctx *pc = arg;
    if (pc->calls++ > 0) {
        /* after the rename this process no longer holds the lock of the file at `path` */
        fmt(pc->err, sizeof pc->err, "internal: a second state write in one command");
        return -1;
    }
    if (write_atomic(pc->path, state, len, 0600, 0, pc->err, sizeof pc->err) != 0)
        return -1;
    grove_xmss_state_info info;
    if (grove_xmss_state_info_get(state, len, &info) != GROVE_OK) {
        fmt(pc->err, sizeof pc->err, "internal: unreadable state");
        return -1;
    }
    return registry_write(pc->reg, info.key_id, info.high_water, pc->err, sizeof pc->err);
}

/* Lock, read and check a key file, lock its registry entry, and load the key. */
typedef struct {
    int fd;
    registry reg;
    grove_xmss_state_info info;
    grove_xmss_key *key;
    persist_ctx pc;
} locked_key;

static void unlock_key(locked_key *lk)
{
    grove_xmss_key_free(lk->key);
    lk->key = NULL;
    registry_close(&lk->reg);
    if (lk->fd >= 0)
        close(lk->fd);
    lk->fd = -1;
}

static int lock_key(cli_ctx *c, const char *path, unsigned threads, locked_key *lk)
{
    memset(lk, 0, sizeof *lk);
    lk->fd = -1;
    lk->reg.lockfd = -1;
    char err[512];
    if (open_locked(path, O_RDONLY, &lk->fd, err, sizeof err) != 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "%s", err);
    uint8_t *buf = NULL;
    size_t len = 0;
    if (cli_read_fd(lk->fd, MAX_STATE_FILE, &buf, &len) != 0) {
        int rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot read %s: %s", path,
                          strerror(errno));
        unlock_key(lk);
        return rc;
    }
    int st = grove_xmss_state_info_get(buf, len, &lk->info);
    if (st != GROVE_OK) {
        cli_free_secret(buf, len);
        int rc = cli_fail(c, cli_exit_for_status(st), st, "%s: %s", path, state_error(st));
        unlock_key(lk);
        return rc;
    }
    int rc = registry_open(c, &lk->reg, lk->info.key_id);
    if (rc == 0 && lk->reg.present && lk->reg.mark > lk->info.high_water)
        rc = cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_STATE,
                      "%s is older than this key's recorded state (its high-water mark is %llu, "
                      "every index below %llu has been reserved): it was restored from an old copy, "
                      "or another copy of the key has been used. Refusing to sign: that would "
                      "reuse one-time keys.",
                      path, (unsigned long long)lk->info.high_water,
                      (unsigned long long)lk->reg.mark);
    if (rc == 0) {
        grove_xmss_opts opts = {.threads = threads};
        st = grove_xmss_key_load(buf, len, &opts, &lk->key);
        if (st != GROVE_OK)
            rc = cli_fail(c, cli_exit_for_status(st), st, "%s: %s", path, state_error(st));
    }
    cli_free_secret(buf, len);
    if (rc) {
        unlock_key(lk);
        return rc;
    }
    lk->pc.path = path;
    lk->pc.reg = &lk->reg;
    grove_xmss_key_set_persist(lk->key, persist_cb, &lk->pc);
    return 0;
}

static void out_key_info(cli_ctx *c, const grove_xmss_state_info *info)
{
    const grove_xmss_params *p = info->params;
    cli_out_str(c, "params", grove_xmss_params_name(p));
    cli_out_str(c, "family", grove_xmss_params_family(p) ? "XMSSMT" : "XMSS");
    cli_out_u64(c, "oid", grove_xmss_params_oid(p));
    cli_out_hex(c, "key_id", info->key_id, GROVE_XMSS_KEY_ID_BYTES);
    cli_out_u64(c, "index", info->index);
    cli_out_u64(c, "high_water", info->high_water);
    cli_out_u64(c, "range_start", info->range_start);
    cli_out_u64(c, "range_end", info->range_end);
    cli_out_u64(c, "remaining", info->remaining);
    cli_out_bool(c, "exhausted", info->exhausted);
    cli_out_hex(c, "public_key", info->pk, info->pk_bytes);
}

/* ---- keygen -------------------------------------------------------------------------------------- */

static int cmd_keygen(cli_ctx *c)
{
    const grove_xmss_params *p = lookup(c, DEFAULT_SET);
    if (p == NULL)
        return CLI_EXIT_USAGE;
    const char *keypath = cli_require(c, "key"), *pubpath = cli_require(c, "pub");
    if (!keypath || !pubpath)
        return CLI_EXIT_USAGE;
    unsigned threads;
    if (threads_opt(c, &threads))
        return CLI_EXIT_USAGE;
    struct stat sb;
    if (lstat(keypath, &sb) == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_EXISTS,
                        "%s already exists: refusing to overwrite a stateful key file", keypath);
    const unsigned n = grove_xmss_params_n(p);
    uint8_t *seed = NULL;
    size_t seedlen = 0;
    int rc = cli_hex_opt(c, "seed", 3 * n + 1, &seed, &seedlen);
    if (rc)
        return rc;
    if (seed != NULL && seedlen != 3 * n) {
        cli_free_secret(seed, seedlen);
        return cli_fail(c, CLI_EXIT_USAGE, 0,
                        "--seed must be %u bytes (SK_SEED || SK_PRF || PUB_SEED) for %s", 3 * n,
                        grove_xmss_params_name(p));
    }
    progress_state ps = {c, "keygen", -1};
    grove_xmss_opts opts = {.threads = threads, .progress = progress_cb, .progress_arg = &ps};
    grove_xmss_key *key = NULL;
    int st = seed ? grove_xmss_keygen_from_seed(p, seed, seed + n, seed + 2 * n, &opts, &key)
                  : grove_xmss_keygen(p, &opts, &key);
    cli_free_secret(seed, seedlen);
    if (st != GROVE_OK)
        return cli_fail_status(c, st, "key generation failed");
    size_t cap = grove_xmss_key_state_bytes(key), len = 0;
    uint8_t *state = malloc(cap), pk[GROVE_XMSS_MAX_PK_BYTES], id[GROVE_XMSS_KEY_ID_BYTES];
    if (state == NULL) {
        grove_xmss_key_free(key);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    }
    grove_xmss_key_export(key, state, cap, &len);
    grove_xmss_key_public_key(key, pk);
    grove_xmss_key_id(key, id);
    uint64_t total = grove_xmss_total_signatures(p);
    grove_xmss_key_free(key);
    registry reg;
    char err[512];
    rc = registry_open(c, &reg, id);
    if (rc == 0 && reg.present && reg.mark > 0)
        rc = cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_STATE,
                      "this key (same seeds) has already signed on this machine, up to index "
                      "%llu: a regenerated copy would reuse one-time keys",
                      (unsigned long long)reg.mark);
    if (rc == 0 && write_atomic(keypath, state, len, 0600, 1, err, sizeof err) != 0)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "%s", err);
    if (rc == 0 && !reg.present && registry_write(&reg, id, 0, err, sizeof err) != 0)
        rc = cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_IO, "state registry: %s", err);
    registry_close(&reg);
    cli_free_secret(state, len);
    if (rc == 0)
        rc = cli_write_file(c, pubpath, pk, grove_xmss_pk_bytes(p), 0);
    if (rc)
        return rc;
    cli_out_str(c, "params", grove_xmss_params_name(p));
    cli_out_str(c, "family", grove_xmss_params_family(p) ? "XMSSMT" : "XMSS");
    cli_out_u64(c, "oid", grove_xmss_params_oid(p));
    cli_out_hex(c, "public_key", pk, grove_xmss_pk_bytes(p));
    cli_out_hex(c, "key_id", id, GROVE_XMSS_KEY_ID_BYTES);
    cli_out_u64(c, "signatures", total);
    cli_say(c, "%s key pair: public key %s, private key %s (mode 0600), %llu signatures.",
            grove_xmss_params_name(p), pubpath, keypath, (unsigned long long)total);
    cli_say(c, "The private key is stateful: never copy it or restore it from a backup; use "
               "'grove xmss split' to share the index range with another signer.");
    return 0;
}

/* ---- sign ------------------------------------------------------------------------------------------ */

static int cmd_sign(cli_ctx *c)
{
    const char *keypath = cli_require(c, "key"), *msgpath = cli_require(c, "msg");
    const char *outpath = cli_require(c, "out");
    if (!keypath || !msgpath || !outpath)
        return CLI_EXIT_USAGE;
    unsigned threads;
    if (threads_opt(c, &threads))
        return CLI_EXIT_USAGE;
    /* open the message before an index is reserved */
    int mfd = strcmp(msgpath, "-") == 0 ? 0 : open(msgpath, O_RDONLY | O_CLOEXEC);
    if (mfd < 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot open %s: %s", msgpath,
                        strerror(errno));
    locked_key lk;
    int rc = lock_key(c, keypath, threads, &lk);
    if (rc) {
        if (mfd > 0)
            close(mfd);
        return rc;
    }
    const grove_xmss_params *p = lk.info.params;
    uint8_t *sig = malloc(grove_xmss_sig_bytes(p)), *chunk = malloc(1u << 16);
    grove_xmss_sign_ctx *sc = NULL;
    uint64_t idx = 0;
    int st = sig && chunk ? grove_xmss_key_sign_begin(lk.key, &sc, &idx) : GROVE_ERR_NOMEM;
    if (st == GROVE_ERR_EXHAUSTED) {
        rc = cli_fail(c, CLI_EXIT_STATE, st,
                      "%s is exhausted: all %llu signatures of its range have been used", keypath,
                      (unsigned long long)(lk.info.range_end - lk.info.range_start));
    } else if (st == GROVE_ERR_STORAGE) {
        rc = cli_fail(c, CLI_EXIT_STATE, st, "could not reserve an index (nothing signed): %s",
                      lk.pc.err);
    } else if (st != GROVE_OK) {
        rc = cli_fail_status(c, st, "signing failed");
    }
    /* the index is reserved durably: hash the message, then sign */
    while (rc == 0) {
        ssize_t r = read(mfd, chunk, 1u << 16);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot read %s: %s (index %llu is "
                          "now used up)", msgpath, strerror(errno), (unsigned long long)idx);
            break;
        }
        if (r == 0)
            break;
        grove_xmss_sign_update(sc, chunk, (size_t)r);
    }
    if (rc == 0) {
        st = grove_xmss_sign_finish(sc, sig);
        sc = NULL;
        if (st != GROVE_OK)
            rc = cli_fail_status(c, st, "signing failed");
    }
    grove_xmss_sign_abort(sc);
    uint64_t remaining = lk.key ? grove_xmss_key_remaining(lk.key) : 0;
    if (rc == 0)
        rc = cli_write_file(c, outpath, sig, grove_xmss_sig_bytes(p), 0);
    unlock_key(&lk);
    if (mfd > 0)
        close(mfd);
    free(sig);
    free(chunk);
    if (rc)
        return rc;
    cli_out_str(c, "params", grove_xmss_params_name(p));
    cli_out_u64(c, "index", idx);
    cli_out_u64(c, "remaining", remaining);
    if (strcmp(outpath, "-") != 0)
        cli_say(c, "signed with index %llu (%llu signatures left): %s", (unsigned long long)idx,
                (unsigned long long)remaining, outpath);
    if (remaining == 0 && strcmp(outpath, "-") != 0)
        cli_say(c, "the key is now exhausted");
    return 0;
}

/* ---- verify ---------------------------------------------------------------------------------------- */

static int family_opt(cli_ctx *c, int *family)
{
    const char *f = cli_opt_str(c, "family");
    *family = -1;
    if (f == NULL) {
        const char *name = cli_opt_str(c, "params");
        if (name != NULL) {
            const grove_xmss_params *p = lookup(c, NULL);
            if (p == NULL)
                return CLI_EXIT_USAGE;
            *family = (int)grove_xmss_params_family(p);
        }
        return 0;
    }
    if (strcasecmp(f, "xmss") == 0)
        *family = GROVE_XMSS_FAMILY_XMSS;
    else if (strcasecmp(f, "xmssmt") == 0 || strcasecmp(f, "xmss^mt") == 0)
        *family = GROVE_XMSS_FAMILY_XMSSMT;
    else
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--family must be xmss or xmssmt");
    return 0;
}

/* The family of a raw public key: given, or the one whose signature size matches. */
static int pick_family(const uint8_t *pk, size_t pklen, size_t siglen, int family)
{
    if (family >= 0)
        return family;
    int found = -1;
    for (int f = 0; f < 2; f++) {
        const grove_xmss_params *p;
        if (grove_xmss_pk_params((grove_xmss_family)f, pk, pklen, &p) == GROVE_OK) {
            if (siglen == grove_xmss_sig_bytes(p))
                return f;
            if (found < 0)
                found = f;
        }
    }
    return found < 0 ? GROVE_XMSS_FAMILY_XMSS : found;
}

static int cmd_verify(cli_ctx *c)
{
    const char *pubpath = cli_require(c, "pub"), *msgpath = cli_require(c, "msg");
    const char *sigpath = cli_require(c, "sig");
    if (!pubpath || !msgpath || !sigpath)
        return CLI_EXIT_USAGE;
    int family;
    int rc = family_opt(c, &family);
    if (rc)
        return rc;
    uint8_t *pk = NULL, *sig = NULL, *msg = NULL;
    size_t pklen = 0, siglen = 0, msglen = 0;
    rc = cli_read_file(c, pubpath, GROVE_XMSS_MAX_PK_BYTES, &pk, &pklen);
    if (rc == 0)
        rc = cli_read_file(c, sigpath, MAX_SIG_FILE, &sig, &siglen);
    if (rc == 0)
        rc = cli_read_file(c, msgpath, CLI_MAX_INPUT, &msg, &msglen);
    if (rc == 0) {
        family = pick_family(pk, pklen, siglen, family);
        const grove_xmss_params *p = NULL;
        int st = grove_xmss_pk_params((grove_xmss_family)family, pk, pklen, &p);
        if (st != GROVE_OK) {
            rc = cli_fail(c, CLI_EXIT_USAGE, st, "%s: %s", pubpath,
                          st == GROVE_ERR_UNSUPPORTED
                              ? "unknown OID (not a registered XMSS or XMSS^MT parameter set)"
                              : "not an XMSS public key of this parameter set (wrong length)");
        } else {
            st = grove_xmss_verify((grove_xmss_family)family, pk, pklen, msg, msglen, sig, siglen);
            cli_out_str(c, "params", grove_xmss_params_name(p));
            cli_out_bool(c, "valid", st == GROVE_OK);
            if (st == GROVE_OK) {
                uint64_t idx = 0;
                grove_xmss_sig_index(p, sig, siglen, &idx);
                cli_out_u64(c, "index", idx);
                cli_say(c, "valid %s signature (index %llu)", grove_xmss_params_name(p),
                        (unsigned long long)idx);
            } else if (siglen != grove_xmss_sig_bytes(p)) {
                rc = cli_fail(c, CLI_EXIT_INVALID, GROVE_ERR_VERIFY,
                              "invalid signature: %zu bytes, a %s signature has %zu", siglen,
                              grove_xmss_params_name(p), grove_xmss_sig_bytes(p));
            } else {
                rc = cli_fail_status(c, st, "invalid signature");
            }
        }
    }
    free(pk);
    free(sig);
    free(msg);
    return rc;
}

/* ---- info ------------------------------------------------------------------------------------------ */

static int cmd_info(cli_ctx *c)
{
    const char *keypath = cli_opt_str(c, "key"), *pubpath = cli_opt_str(c, "pub");
    const char *sigpath = cli_opt_str(c, "sig");
    if (!keypath && !pubpath && !sigpath)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "give --key FILE, --pub FILE or --sig FILE");
    int rc = 0;
    if (keypath) {
        uint8_t *buf = NULL;
        size_t len = 0;
        rc = cli_read_file(c, keypath, MAX_STATE_FILE, &buf, &len);
        if (rc)
            return rc;
        grove_xmss_state_info info;
        int st = grove_xmss_state_info_get(buf, len, &info);
        cli_free_secret(buf, len);
        if (st != GROVE_OK)
            return cli_fail(c, cli_exit_for_status(st), st, "%s: %s", keypath, state_error(st));
        out_key_info(c, &info);
        cli_out_bool(c, "sp800_208_approved_set", grove_xmss_params_sp800_208(info.params));
        /* the registry, read without waiting for its lock */
        char dir[PATH_MAX], hex[2 * GROVE_XMSS_KEY_ID_BYTES + 1], path[PATH_MAX + 40], line[256];
        grove_hex_encode(hex, info.key_id, GROVE_XMSS_KEY_ID_BYTES);
        const char *sd = cli_opt_str(c, "state-dir") ? cli_opt_str(c, "state-dir")
                                                     : getenv("GROVE_XMSS_STATE_DIR");
        int have_dir = 1;
        if (sd)
            fmt(dir, sizeof dir, "%s", sd);
        else if (getenv("XDG_STATE_HOME") && getenv("XDG_STATE_HOME")[0] == '/')
            fmt(dir, sizeof dir, "%s/grove/xmss", getenv("XDG_STATE_HOME"));
        else if (getenv("HOME"))
            fmt(dir, sizeof dir, "%s/.local/state/grove/xmss", getenv("HOME"));
        else
            have_dir = 0;
        unsigned long long mark = 0;
        char idstr[64];
        int known = 0;
        if (have_dir) {
            FILE *f = fmt(path, sizeof path, "%s/%s", dir, hex) == 0 ? fopen(path, "r") : NULL;
            if (f) {
                known = fgets(line, sizeof line, f) &&
                        sscanf(line, REG_MAGIC " %32s %llu", idstr, &mark) == 2;
                fclose(f);
            }
        }
        if (known)
            cli_out_u64(c, "registry_high_water", mark);
        const char *fam = grove_xmss_params_family(info.params) ? "XMSS^MT" : "XMSS";
        cli_say(c, "%s private key, %s (OID 0x%08x), key id %s", fam,
                grove_xmss_params_name(info.params), grove_xmss_params_oid(info.params), hex);
        cli_say(c, "  index range      [%llu, %llu)", (unsigned long long)info.range_start,
                (unsigned long long)info.range_end);
        cli_say(c, "  next index       %llu%s", (unsigned long long)info.high_water,
                info.high_water > info.index ? " (reserved but possibly unused indices skipped)"
                                             : "");
        cli_say(c, "  remaining        %llu signatures%s", (unsigned long long)info.remaining,
                info.exhausted ? " (exhausted; secret seeds erased)" : "");
        if (known)
            cli_say(c, "  registry         high-water mark recorded on this machine: %llu%s", mark,
                    mark > info.high_water ? "  <-- THIS FILE IS STALE: do not sign with it" : "");
        else
            cli_say(c, "  registry         no entry on this machine");
        if (known && mark > info.high_water)
            rc = CLI_EXIT_STATE;
    }
    if (pubpath || sigpath) {
        int family;
        rc = family_opt(c, &family);
        if (rc)
            return rc;
        uint8_t *pk = NULL, *sig = NULL;
        size_t pklen = 0, siglen = 0;
        if (pubpath)
            rc = cli_read_file(c, pubpath, GROVE_XMSS_MAX_PK_BYTES, &pk, &pklen);
        if (rc == 0 && sigpath)
            rc = cli_read_file(c, sigpath, MAX_SIG_FILE, &sig, &siglen);
        const grove_xmss_params *p = NULL;
        if (rc == 0 && pk) {
            family = pick_family(pk, pklen, siglen, family);
            int st = grove_xmss_pk_params((grove_xmss_family)family, pk, pklen, &p);
            if (st != GROVE_OK)
                rc = cli_fail(c, CLI_EXIT_USAGE, st, "%s: not an XMSS public key (%s)", pubpath,
                              grove_strerror(st));
            else {
                if (!keypath) {
                    cli_out_str(c, "params", grove_xmss_params_name(p));
                    cli_out_hex(c, "public_key", pk, pklen);
                }
                cli_say(c, "public key: %s (OID 0x%08x)", grove_xmss_params_name(p),
                        grove_xmss_params_oid(p));
            }
        } else if (rc == 0 && sig) {
            p = lookup(c, NULL);
            if (p == NULL)
                rc = cli_fail(c, CLI_EXIT_USAGE, 0,
                              "a signature does not name its parameter set: add --pub or --params");
        }
        if (rc == 0 && sig) {
            uint64_t idx;
            int st = grove_xmss_sig_index(p, sig, siglen, &idx);
            if (st != GROVE_OK) {
                rc = cli_fail(c, CLI_EXIT_INVALID, st, "%s: %zu bytes, a %s signature has %zu",
                              sigpath, siglen, grove_xmss_params_name(p), grove_xmss_sig_bytes(p));
            } else {
                cli_out_u64(c, "signature_index", idx);
                cli_say(c, "signature: %s, index %llu", grove_xmss_params_name(p),
                        (unsigned long long)idx);
            }
        }
        free(pk);
        free(sig);
    }
    return rc;
}

/* ---- split ------------------------------------------------------------------------------------------ */

static int cmd_split(cli_ctx *c)
{
    const char *keypath = cli_require(c, "key"), *outpath = cli_require(c, "out");
    if (!keypath || !outpath)
        return CLI_EXIT_USAGE;
    uint64_t count;
    if (cli_opt_u64(c, "count", 1, (uint64_t)1 << 60, 0, &count))
        return CLI_EXIT_USAGE;
    if (!cli_opt_str(c, "count"))
        return cli_fail(c, CLI_EXIT_USAGE, 0, "missing required option --count");
    unsigned threads;
    if (threads_opt(c, &threads))
        return CLI_EXIT_USAGE;
    struct stat sb;
    if (lstat(outpath, &sb) == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_EXISTS, "%s already exists", outpath);
    locked_key lk;
    int rc = lock_key(c, keypath, threads, &lk);
    if (rc)
        return rc;
    progress_state ps = {c, "split", -1};
    grove_xmss_opts opts = {.threads = threads, .progress = progress_cb, .progress_arg = &ps};
    grove_xmss_key *nk = NULL;
    int st = grove_xmss_key_split(lk.key, count, &opts, &nk);
    if (st == GROVE_ERR_EXHAUSTED) {
        rc = cli_fail(c, CLI_EXIT_STATE, st, "%s has only %llu unused indices (asked for %llu)",
                      keypath, (unsigned long long)grove_xmss_key_remaining(lk.key),
                      (unsigned long long)count);
    } else if (st == GROVE_ERR_STORAGE) {
        rc = cli_fail(c, CLI_EXIT_STATE, st, "could not shorten %s (nothing changed): %s",
                      keypath, lk.pc.err);
    } else if (st != GROVE_OK) {
        rc = cli_fail_status(c, st, "split failed");
    }
    uint64_t s = 0, e = 0, os = 0, oe = 0;
    if (rc == 0) {
        /* the original key no longer covers [s, e): now hand it to the new file */
        grove_xmss_key_range(nk, &s, &e);
        grove_xmss_key_range(lk.key, &os, &oe);
        size_t cap = grove_xmss_key_state_bytes(nk), len = 0;
        uint8_t *state = malloc(cap), id[GROVE_XMSS_KEY_ID_BYTES];
        char err[512];
        grove_xmss_key_id(nk, id);
        registry nreg;
        nreg.lockfd = -1;
        if (state == NULL || grove_xmss_key_export(nk, state, cap, &len) != GROVE_OK) {
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
        } else if ((rc = registry_open(c, &nreg, id)) == 0) {
            if (write_atomic(outpath, state, len, 0600, 1, err, sizeof err) != 0)
                rc = cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_IO,
                              "%s; indices [%llu, %llu) now belong to no key (they are lost, "
                              "never reused)",
                              err, (unsigned long long)s, (unsigned long long)e);
            else if (nreg.mark <= s && registry_write(&nreg, id, s, err, sizeof err) != 0)
                rc = cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_IO, "state registry: %s", err);
        }
        registry_close(&nreg);
        cli_free_secret(state, len);
    }
    grove_xmss_key_free(nk);
    unlock_key(&lk);
    if (rc)
        return rc;
    cli_out_u64(c, "new_range_start", s);
    cli_out_u64(c, "new_range_end", e);
    cli_out_u64(c, "range_start", os);
    cli_out_u64(c, "range_end", oe);
    cli_say(c, "%s now signs indices [%llu, %llu); %s signs [%llu, %llu).", keypath,
            (unsigned long long)os, (unsigned long long)oe, outpath, (unsigned long long)s,
            (unsigned long long)e);
    return 0;
}

/* ---- params ----------------------------------------------------------------------------------------- */

static int cmd_params(cli_ctx *c)
{
    size_t cap = 64 * 1024, o = 0;
    char *list = malloc(cap);
    if (list == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    o += (size_t)snprintf(list + o, cap - o, "[");
    cli_say(c, "%-26s %-7s %-4s %-13s %3s %3s %3s %7s %4s %s", "name", "family", "oid", "hash", "n",
            "h", "d", "sig", "pk", "SP 800-208");
    for (size_t i = 0; grove_xmss_params_at(i); i++) {
        const grove_xmss_params *p = grove_xmss_params_at(i);
        const char *fam = grove_xmss_params_family(p) ? "XMSSMT" : "XMSS";
        cli_say(c, "%-26s %-7s 0x%02x %-13s %3u %3u %3u %7zu %4zu %s", grove_xmss_params_name(p),
                fam, grove_xmss_params_oid(p), grove_xmss_params_hash(p), grove_xmss_params_n(p),
                grove_xmss_params_height(p), grove_xmss_params_layers(p), grove_xmss_sig_bytes(p),
                grove_xmss_pk_bytes(p), grove_xmss_params_sp800_208(p) ? "approved" : "-");
        o += (size_t)snprintf(list + o, cap - o,
                              "%s{\"name\": \"%s\", \"family\": \"%s\", \"oid\": %u, \"hash\": "
                              "\"%s\", \"n\": %u, \"h\": %u, \"d\": %u, \"sig_bytes\": %zu, "
                              "\"pk_bytes\": %zu, \"sp800_208\": %s}",
                              i ? ", " : "", grove_xmss_params_name(p), fam,
                              grove_xmss_params_oid(p), grove_xmss_params_hash(p),
                              grove_xmss_params_n(p), grove_xmss_params_height(p),
                              grove_xmss_params_layers(p), grove_xmss_sig_bytes(p),
                              grove_xmss_pk_bytes(p),
                              grove_xmss_params_sp800_208(p) ? "true" : "false");
    }
    snprintf(list + o, cap - o, "]");
    cli_out_raw(c, "parameter_sets", list);
    free(list);
    return 0;
}

/* ---- the command table -------------------------------------------------------------------------------- */

#define STATE_OPTS                                                                             \
    {"state-dir", "DIR", "state registry folder (default $GROVE_XMSS_STATE_DIR, else "        \
                         "~/.local/state/grove/xmss)"},                                         \
    {"no-registry", NULL, "do not use the state registry (restored or copied key files are "  \
                          "then not detected)"}

static const cli_opt keygen_opts[] = {
    {"params", "NAME", "parameter set (default " DEFAULT_SET "; see 'grove xmss params')"},
    {"key", "FILE", "private key output (grove format, mode 0600; must not exist)"},
    {"pub", "FILE", "public key output (raw RFC 8391: OID || root || PUB_SEED)"},
    {"seed", "HEX", "3n bytes SK_SEED || SK_PRF || PUB_SEED (deterministic keys, for tests)"},
    {"threads", "N", "threads for key generation (default: all CPUs)"},
    STATE_OPTS,
    {NULL, NULL, NULL},
};
static const cli_opt sign_opts[] = {
    {"key", "FILE", "private key (updated in place before the signature is written)"},
    {"msg", "FILE", "message ('-' for stdin; read after the index is reserved)"},
    {"out", "FILE", "signature output (raw RFC 8391; '-' for stdout)"},
    {"threads", "N", "threads if the key's node cache must be rebuilt (default: all CPUs)"},
    STATE_OPTS,
    {NULL, NULL, NULL},
};
static const cli_opt verify_opts[] = {
    {"pub", "FILE", "public key (raw)"},
    {"msg", "FILE", "message ('-' for stdin)"},
    {"sig", "FILE", "signature (raw)"},
    {"family", "F", "xmss or xmssmt (default: from the signature size)"},
    {"params", "NAME", "expected parameter set (sets the family)"},
    {NULL, NULL, NULL},
};
static const cli_opt info_opts[] = {
    {"key", "FILE", "a private key: parameters, index, high-water mark, range, remaining"},
    {"pub", "FILE", "a public key"},
    {"sig", "FILE", "a signature: its index (needs --pub or --params)"},
    {"family", "F", "xmss or xmssmt, for a public key"},
    {"params", "NAME", "parameter set of a signature given alone"},
    {"state-dir", "DIR", "state registry folder to report on"},
    {NULL, NULL, NULL},
};
static const cli_opt split_opts[] = {
    {"key", "FILE", "private key to take the indices from (keeps the lower part)"},
    {"out", "FILE", "new private key holding the last COUNT indices (must not exist)"},
    {"count", "COUNT", "number of indices to hand over"},
    {"threads", "N", "threads for building the new key's node cache (default: all CPUs)"},
    STATE_OPTS,
    {NULL, NULL, NULL},
};
static const cli_opt no_opts[] = {{NULL, NULL, NULL}};

static const cli_command xmss_commands[] = {
    {"keygen", cmd_keygen, "generate a key pair (progress bar on a terminal)", keygen_opts},
    {"sign", cmd_sign, "sign a file with a stateful private key (locks it, reserves the index "
                       "durably first)", sign_opts},
    {"verify", cmd_verify, "verify a signature (exit 0 valid, 1 invalid)", verify_opts},
    {"info", cmd_info, "describe a private key, public key or signature", info_opts},
    {"split", cmd_split, "move the last COUNT indices of a private key to a new key file",
     split_opts},
    {"params", cmd_params, "list the 77 parameter sets", no_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_xmss = {"xmss", "XMSS / XMSS^MT, RFC 8391 and SP 800-208 (stateful)",
                                    xmss_commands};
