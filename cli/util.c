/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Shared helpers of the grove command: options, output, files. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "grove/io.h"

/* ---- standard descriptors ---------------------------------------------------------------- */

static int std_closed[3]; /* fds 0-2 that were closed when grove started */

void cli_guard_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        /* open() returns the lowest free descriptor: fd itself, as the lower ones are open. */
        int n = open("/dev/null", (fd == 0 ? O_RDONLY : O_WRONLY) | O_NOCTTY);
        if (n != fd)
            _exit(CLI_EXIT_USAGE); /* cannot make it safe: no file may land on 0-2 */
        std_closed[fd] = 1;
    }
}

int cli_std_was_closed(int fd)
{
    return fd >= 0 && fd <= 2 && std_closed[fd];
}

static int opt_index(cli_ctx *c, const char *name)
{
    for (int i = 0; c->cmd->opts && c->cmd->opts[i].name; i++)
        if (strcmp(c->cmd->opts[i].name, name) == 0)
            return i;
    return -1;
}

const char *cli_opt_str(cli_ctx *c, const char *name)
{
    int i = opt_index(c, name);
    return (i >= 0 && c->present[i]) ? c->values[i] : NULL;
}

int cli_opt_flag(cli_ctx *c, const char *name)
{
    int i = opt_index(c, name);
    return i >= 0 && c->present[i];
}

size_t cli_opt_all(cli_ctx *c, const char *name, const char *const **vals)
{
    int i = opt_index(c, name);
    if (i < 0) {
        *vals = NULL;
        return 0;
    }
    *vals = c->repeat[i];
    return c->nrepeat[i];
}

int cli_parse_u64(const char *s, uint64_t *out)
{
    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int cli_opt_u64(cli_ctx *c, const char *name, uint64_t min, uint64_t max, uint64_t dflt,
                uint64_t *out)
{
    const char *s = cli_opt_str(c, name);
    if (s == NULL) {
        *out = dflt;
        return 0;
    }
    uint64_t v;
    if (cli_parse_u64(s, &v) != 0 || v < min || v > max)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--%s must be a whole number from %llu to %llu",
                        name, (unsigned long long)min, (unsigned long long)max);
    *out = v;
    return 0;
}

const char *cli_require(cli_ctx *c, const char *name)
{
    const char *s = cli_opt_str(c, name);
    if (s == NULL)
        cli_fail(c, CLI_EXIT_USAGE, 0, "missing required option --%s", name);
    return s;
}

/* ---- output ----------------------------------------------------------------------------- */

/* `"key": ` (nothing for an array element) after a ", " unless it comes first. */
static void out_key(cli_ctx *c, const char *key)
{
    if (c->nfields[c->depth]++)
        grove_json_buf_raw(&c->out, ", ", 2);
    if (key == NULL)
        return;
    grove_json_buf_string(&c->out, key, strlen(key));
    grove_json_buf_raw(&c->out, ": ", 2);
}

static void out_open(cli_ctx *c, const char *key, char open, char close)
{
    if (c->depth + 1 >= CLI_JSON_DEPTH) {
        c->out.oom = true; /* a bug in the command: its output is dropped, not malformed */
        return;
    }
    out_key(c, key);
    grove_json_buf_raw(&c->out, &open, 1);
    c->closer[++c->depth] = close;
    c->nfields[c->depth] = 0;
}

void cli_out_begin_array(cli_ctx *c, const char *key)
{
    out_open(c, key, '[', ']');
}

void cli_out_begin_object(cli_ctx *c, const char *key)
{
    out_open(c, key, '{', '}');
}

void cli_out_end(cli_ctx *c)
{
    if (c->depth == 0)
        return;
    grove_json_buf_raw(&c->out, &c->closer[c->depth], 1);
    c->depth--;
}

void cli_out_raw(cli_ctx *c, const char *key, const char *json)
{
    out_key(c, key);
    grove_json_buf_text(&c->out, json);
}

void cli_out_str(cli_ctx *c, const char *key, const char *val)
{
    out_key(c, key);
    grove_json_buf_string(&c->out, val ? val : "", val ? strlen(val) : 0);
}

void cli_out_int(cli_ctx *c, const char *key, long long val)
{
    out_key(c, key);
    grove_json_buf_i64(&c->out, (int64_t)val);
}

void cli_out_u64(cli_ctx *c, const char *key, uint64_t val)
{
    out_key(c, key);
    grove_json_buf_u64(&c->out, val);
}

void cli_out_bool(cli_ctx *c, const char *key, int val)
{
    cli_out_raw(c, key, val ? "true" : "false");
}

void cli_out_hex(cli_ctx *c, const char *key, const uint8_t *p, size_t len)
{
    out_key(c, key);
    grove_json_buf_hex(&c->out, p, len);
}

FILE *cli_text_stream(const cli_ctx *c)
{
    return c->stdout_data ? stderr : stdout;
}

void cli_say(cli_ctx *c, const char *fmt, ...)
{
    if (c->json)
        return;
    FILE *f = cli_text_stream(c);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
}

void cli_warn(cli_ctx *c, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->json) {
        if (!c->has_warning)
            cli_out_str(c, "warning", msg);
        c->has_warning = 1;
    } else {
        fprintf(stderr, "grove: warning: %s\n", msg);
    }
}

int cli_fail(cli_ctx *c, int exit_code, int status, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->has_error)
        return exit_code; /* keep the first (most specific) error */
    c->has_error = 1;
    if (c->json) {
        while (c->depth > 0) /* the error members belong to the top-level object */
            cli_out_end(c);
        cli_out_bool(c, "ok", 0);
        cli_out_str(c, "error", msg);
        cli_out_str(c, "status", status ? grove_status_name(status) : "usage_or_input");
    } else {
        fprintf(stderr, "grove: %s\n", msg);
    }
    return exit_code;
}

int cli_exit_for_status(int status)
{
    switch (status) {
    case GROVE_OK:
        return CLI_EXIT_OK;
    case GROVE_ERR_VERIFY:
    case GROVE_ERR_REVOKED:
        return CLI_EXIT_INVALID;
    case GROVE_ERR_EXHAUSTED:
    case GROVE_ERR_STATE:
        return CLI_EXIT_STATE;
    default:
        return CLI_EXIT_USAGE;
    }
}

int cli_fail_status(cli_ctx *c, int status, const char *what)
{
    return cli_fail(c, cli_exit_for_status(status), status, "%s: %s", what,
                    grove_strerror(status));
}

/* ---- files ------------------------------------------------------------------------------ */

int cli_read_fd(int fd, size_t maxlen, uint8_t **buf, size_t *len)
{
    grove_status st = grove_file_read_fd(fd, maxlen, buf, len);
    if (st == GROVE_OK)
        return 0;
    if (st == GROVE_ERR_ENCODING)
        errno = EFBIG;
    else if (st == GROVE_ERR_NOMEM)
        errno = ENOMEM;
    return -1; /* GROVE_ERR_IO: errno from read(2) */
}

int cli_read_file(cli_ctx *c, const char *path, size_t maxlen, uint8_t **buf, size_t *len)
{
    int is_stdin = strcmp(path, "-") == 0;
    if (is_stdin && cli_std_was_closed(0))
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO,
                        "cannot read '-': standard input was closed when grove started");
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot open %s: %s", path,
                        strerror(errno));
    int r = cli_read_fd(fd, maxlen, buf, len), e = errno;
    if (!is_stdin)
        close(fd);
    if (r == 0)
        return 0;
    if (e == EFBIG)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s is too large (more than %zu bytes)", path, maxlen);
    if (e == ENOMEM)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot read %s: %s", path, strerror(e));
}

int cli_read_file_hdr(cli_ctx *c, const char *path, size_t hdrlen,
                      size_t (*limit)(const uint8_t *hdr, size_t hdrlen, void *arg), void *arg,
                      size_t maxlen, uint8_t **buf, size_t *len)
{
    int is_stdin = strcmp(path, "-") == 0;
    if (is_stdin && cli_std_was_closed(0))
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO,
                        "cannot read '-': standard input was closed when grove started");
    if (hdrlen > maxlen || hdrlen > 4096)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG, "bad header length");
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot open %s: %s", path,
                        strerror(errno));
    uint8_t hdr[4096], *rest = NULL;
    size_t got = 0, restlen = 0, lim = 0;
    int e = 0;
    while (got < hdrlen) {
        ssize_t r = read(fd, hdr + got, hdrlen - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            e = errno;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (e == 0 && got == hdrlen) {
        /* The header tells the largest size this object can have. */
        lim = limit(hdr, hdrlen, arg);
        if (lim > maxlen)
            lim = maxlen;
        if (lim < hdrlen)
            lim = hdrlen;
        if (cli_read_fd(fd, lim - hdrlen, &rest, &restlen) != 0)
            e = errno;
    }
    if (!is_stdin)
        close(fd);
    uint8_t *b = e ? NULL : malloc(got + restlen + 1);
    if (b != NULL) {
        memcpy(b, hdr, got);
        if (restlen)
            memcpy(b + got, rest, restlen);
    }
    cli_free_secret(rest, restlen);
    grove_wipe(hdr, sizeof hdr);
    if (e == EFBIG)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s is too large (more than %zu bytes, the most its header allows)", path,
                        lim);
    if (e == 0 && b == NULL)
        e = ENOMEM;
    if (e == ENOMEM)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    if (e)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot read %s: %s", path, strerror(e));
    *buf = b;
    *len = got + restlen;
    return 0;
}

int cli_write_all(int fd, const uint8_t *p, size_t len)
{
    return grove_file_write_all(fd, p, len) == GROVE_OK ? 0 : -1;
}

int cli_write_file(cli_ctx *c, const char *path, const uint8_t *buf, size_t len, int secret)
{
    return cli_write_file_ex(c, path, buf, len, secret ? CLI_WRITE_SECRET : 0);
}

int cli_write_file_ex(cli_ctx *c, const char *path, const uint8_t *buf, size_t len,
                      unsigned flags)
{
    int secret = (flags & CLI_WRITE_SECRET) != 0;
    if (strcmp(path, "-") == 0) {
        if (secret)
            return cli_fail(c, CLI_EXIT_USAGE, 0, "refusing to write a secret key to stdout");
        if (cli_std_was_closed(1))
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO,
                            "cannot write '-': standard output was closed when grove started");
        /* From now on stdout carries data: text and JSON go to stderr. */
        c->stdout_data = 1;
        fflush(stdout);
        if (cli_write_all(1, buf, len) != 0)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot write to stdout: %s",
                            strerror(errno));
        return 0;
    }
    /* An existing device or pipe (/dev/null, /dev/stdout, a FIFO) is written in place: the
     * temporary-file-and-rename below would replace the device node itself. */
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        if (!S_ISCHR(sb.st_mode) && !S_ISFIFO(sb.st_mode))
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "%s is not a regular file", path);
        if (secret)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                            "refusing to write a secret key to the device %s", path);
        if (flags & CLI_WRITE_NO_REPLACE)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_EXISTS,
                            "%s exists: refusing to overwrite it", path);
        int dfd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (dfd < 0 || cli_write_all(dfd, buf, len) != 0) {
            int e = errno;
            if (dfd >= 0)
                close(dfd);
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot write %s: %s", path,
                            strerror(e));
        }
        if (close(dfd) != 0)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot write %s: %s", path,
                            strerror(errno));
        return 0;
    }
    /* temporary file, fsync, rename (or link: never replace), fsync of the folder; temporary
     * files of killed writers of this path are wiped and removed first */
    char err[GROVE_FILE_ERR_CAP];
    grove_status st = grove_file_write_atomic(
        path, buf, len, secret ? 0600 : 0644,
        ((flags & CLI_WRITE_NO_REPLACE) ? GROVE_FILE_NO_REPLACE : GROVE_FILE_REPLACE) |
            (secret ? GROVE_FILE_SECRET : 0),
        err, sizeof err);
    if (st == GROVE_ERR_EXISTS)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s exists: refusing to overwrite it", path);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s", err);
    return 0;
}

int cli_refuse_existing_secret(cli_ctx *c, const char *opt, const char *path)
{
    struct stat sb;
    if (path == NULL || cli_opt_flag(c, "force") || lstat(path, &sb) != 0)
        return 0;
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_EXISTS,
                    "%s %s exists: refusing to overwrite a secret key file (--force replaces it)",
                    opt, path);
}

/* realpath() of the folder of a path that need not exist, then "/" and its last component. */
static char *canonical_path(const char *path)
{
    char *dcopy = strdup(path), *bcopy = strdup(path), *res = NULL;
    if (dcopy != NULL && bcopy != NULL) {
        char *dir = realpath(dirname(dcopy), NULL);
        const char *base = basename(bcopy);
        if (dir != NULL && (res = malloc(strlen(dir) + strlen(base) + 2)) != NULL)
            sprintf(res, "%s/%s", dir, base);
        free(dir);
    }
    free(dcopy);
    free(bcopy);
    return res;
}

int cli_refuse_same_file(cli_ctx *c, const char *what, const char *out, const char *const *others,
                         size_t n)
{
    struct stat so, si;
    if (out == NULL || strcmp(out, "-") == 0)
        return 0;
    int exists = stat(out, &so) == 0;
    if (exists && !S_ISREG(so.st_mode))
        return 0;
    char *cout = exists ? NULL : canonical_path(out);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (others[i] == NULL || strcmp(others[i], "-") == 0)
            continue;
        int same;
        if (exists) {
            same = stat(others[i], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino;
        } else {
            /* Two outputs that do not exist yet, named differently, may still be one path. */
            char *co = lstat(others[i], &si) == 0 ? NULL : canonical_path(others[i]);
            same = (cout != NULL && co != NULL && strcmp(cout, co) == 0) ||
                   strcmp(out, others[i]) == 0;
            free(co);
        }
        if (same)
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                          "%s %s is the same file as %s, which this command reads, writes or "
                          "keeps state in: refusing to overwrite it",
                          what, out, others[i]);
    }
    free(cout);
    return rc;
}

void cli_free_secret(uint8_t *buf, size_t len)
{
    if (buf == NULL)
        return;
    grove_wipe(buf, len);
    free(buf);
}

int cli_hex_opt(cli_ctx *c, const char *name, size_t maxlen, uint8_t **buf, size_t *len)
{
    const char *s = cli_opt_str(c, name);
    *buf = NULL;
    *len = 0;
    if (s == NULL)
        return 0;
    size_t hl = strlen(s);
    if (hl / 2 > maxlen)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--%s: at most %zu bytes", name, maxlen);
    uint8_t *b = malloc(hl / 2 + 1);
    if (b == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    size_t n;
    if (grove_hex_decode(b, hl / 2 + 1, &n, s, hl) != GROVE_OK) {
        free(b);
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--%s: not a hex string", name);
    }
    *buf = b;
    *len = n;
    return 0;
}

static uint64_t progress_now_ns(void);

void cli_progress(cli_ctx *c, const char *what, uint64_t done, uint64_t total)
{
    if (c->json || total == 0 || !isatty(2))
        return;
    /* The time left is estimated from the rate since this bar started. */
    if (c->progress_what != what || c->progress_start_ns == 0) {
        c->progress_what = what;
        c->progress_start_ns = progress_now_ns();
        c->progress_first = done;
    }
    char eta[32];
    cli_progress_eta(eta, sizeof eta, progress_now_ns() - c->progress_start_ns,
                     done - c->progress_first, total - c->progress_first);
    int width = 40;
    int filled = (int)((double)done / (double)total * width);
    fprintf(stderr, "\r%s [", what);
    for (int i = 0; i < width; i++)
        fputc(i < filled ? '#' : '.', stderr);
    fprintf(stderr, "] %llu/%llu", (unsigned long long)done, (unsigned long long)total);
    if (done >= total) {
        fputs("\033[K\n", stderr);
        c->progress_what = NULL;
    } else {
        fprintf(stderr, " ETA %s\033[K", eta);
    }
    fflush(stderr);
}

/* ---- one-line progress with ETA ------------------------------------------------------------ */

static uint64_t progress_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void cli_progress_eta(char *out, size_t cap, uint64_t elapsed_ns, uint64_t done, uint64_t total)
{
    if (done == 0 || done > total) {
        snprintf(out, cap, "?");
        return;
    }
    double left = (double)elapsed_ns / 1e9 / (double)done * (double)(total - done);
    unsigned long long s = (unsigned long long)(left + 0.5);
    if (s >= 3600)
        snprintf(out, cap, "%llu:%02llu:%02llu", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(out, cap, "%llu:%02llu", s / 60, s % 60);
}

void cli_progress_begin(cli_ctx *c, cli_progress_line *p, const char *what)
{
    p->on = !c->json && isatty(2);
    p->start_ns = progress_now_ns();
    p->what = what;
}

void cli_progress_step(cli_progress_line *p, uint64_t done, uint64_t total, const char *label)
{
    if (!p->on)
        return;
    char eta[32];
    cli_progress_eta(eta, sizeof eta, progress_now_ns() - p->start_ns, done, total);
    /* \033[K erases what a longer previous line left behind */
    fprintf(stderr, "\r%s: %llu/%llu %s ... ETA %s\033[K", p->what, (unsigned long long)done,
            (unsigned long long)total, label, eta);
    fflush(stderr);
}

void cli_progress_clear(cli_progress_line *p)
{
    if (!p->on)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
}

void cli_progress_end(cli_progress_line *p)
{
    if (!p->on)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->on = 0;
}
