/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove hash: message digests with grove's own hash layer.
 *
 * `grove hash ALG [FILE]...` works like coreutils' sha256sum: the same output lines (plain or
 * --tag, names with a newline, carriage return or backslash escaped; -z: NUL-terminated, not
 * escaped), the same -c/--check of a sums file with the same messages, and the coreutils exit
 * codes (0 all good, 1 a file that could not be read or a checksum that does not match; 2 for
 * a usage error, as in grove). With --json it prints one object instead: the algorithm and per
 * file its digest or error; with -c per file whether it matched, and the counts.
 * `grove hash digest --alg ALG` prints one digest (with --json).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "grove/hash.h"
#include "grove/io.h"
#include "schemes.h"

static const cli_opt digest_opts[] = {
    {"alg", "NAME", "sha224, sha256, sha384, sha512, sha3-256, sha3-512, shake128, shake256", 0},
    {"msg", "FILE", "input file ('-' for stdin; default stdin)", 0},
    {"len", "BYTES", "output length for shake128/shake256 (default 32 / 64, at most 1024)", 0},
    {NULL, NULL, NULL, 0},
};

static int cmd_digest(cli_ctx *c)
{
    const char *name = cli_require(c, "alg");
    if (name == NULL)
        return CLI_EXIT_USAGE;
    grove_hash_alg alg;
    if (grove_hash_alg_from_name(name, &alg) != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED, "unknown algorithm '%s'", name);
    /* digest_bytes is 0 for the extendable-output functions: their length is --len */
    size_t olen = grove_hash_digest_bytes(alg);
    uint64_t xlen;
    if (cli_opt_u64(c, "len", 1, 1024, alg == GROVE_HASH_SHAKE128 ? 32 : 64, &xlen) != 0)
        return CLI_EXIT_USAGE;
    if (olen != 0 && cli_opt_str(c, "len") != NULL)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--len applies only to shake128/shake256");
    if (olen == 0)
        olen = (size_t)xlen;
    const char *path = cli_opt_str(c, "msg");
    uint8_t *msg, out[1024];
    size_t mlen;
    int rc = cli_read_file(c, path ? path : "-", CLI_MAX_INPUT, &msg, &mlen);
    if (rc)
        return rc;
    grove_status st = grove_hash(alg, out, olen, msg, mlen);
    free(msg);
    if (st != GROVE_OK)
        return cli_fail_status(c, st, "hash");
    char hex[2 * sizeof out + 1];
    grove_hex_encode(hex, out, olen);
    cli_out_str(c, "alg", name);
    cli_out_str(c, "digest", hex);
    cli_say(c, "%s", hex);
    return 0;
}

static const cli_command hash_commands[] = {
    {"digest", cmd_digest, "hash a file with grove's SHA-2 / SHA-3 / SHAKE code", digest_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_hash = {
    "hash", "SHA-2, SHA-3 and SHAKE digests; 'grove hash ALG [FILE]...' works like sha256sum",
    hash_commands};

/* ---- grove hash ALG [FILE]...: sha256sum and friends ------------------------------------ */

#define SUM_MAX_XOF 1024    /* the longest SHAKE output (bytes) */
#define SUM_CHUNK 65536     /* files are hashed in chunks of this size */
#define SUM_MAX_LINE 16384  /* a longer line of a sums file is malformed */

typedef struct {
    cli_ctx *c;       /* c->json: one JSON object instead of the lines and messages */
    grove_hash_alg alg;
    char tag[16];     /* the algorithm as --tag lines name it: "SHA256", "SHA3-256", ... */
    size_t out_len;   /* digest bytes */
    bool length_set;  /* --length given (SHAKE) */
    bool tag_style, binary, check, warn, strict, ignore_missing, zero;
    int report;       /* in --check: 0 every line, 1 --quiet (failures only), 2 --status */
} sum_opts;

typedef struct {
    unsigned long long malformed, unreadable, mismatched, matched;
    bool formatted, compared; /* a well-formed line seen; a file compared */
} check_counts;

/* The options of grove hash ALG: its --help and grove(1) (cli/man.c) print this table. */
static const cli_opt sum_opt_table[] = {
    {"check", NULL, "read checksums from the FILEs and check them (also -c)", 0},
    {"tag", NULL, "print BSD-style lines: SHA256 (FILE) = HEX", 0},
    {"zero", NULL, "end each output line with NUL, not newline, and do not escape file names "
                   "(also -z; not with --check)", 0},
    {"binary", NULL, "mark the lines with '*', no other effect (also -b)", 0},
    {"text", NULL, "the default line marker, no other effect (also -t)", 0},
    {"length", "BYTES", "SHAKE output length, 1 to 1024 (default 32 for shake128, 64 for "
                        "shake256; in --check, without it, the length of each line)", 0},
    {"ignore-missing", NULL, "when checking: do not fail or report status for missing files", 0},
    {"quiet", NULL, "when checking: do not print OK for each successfully verified file", 0},
    {"status", NULL, "when checking: print nothing, the exit code shows success", 0},
    {"strict", NULL, "when checking: exit 1 for improperly formatted checksum lines", 0},
    {"warn", NULL, "when checking: warn about improperly formatted checksum lines (also -w)", 0},
    {NULL, NULL, NULL, 0},
};

const cli_command cli_hash_sum_command = {
    "ALG", NULL,
    "print or check message digests like coreutils' sha256sum (ALG: sha224, sha256, sha384, "
    "sha512, sha3-256, sha3-512, shake128, shake256, or an alias such as SHA-256); with no "
    "FILE, or when FILE is -, read standard input. With --json one object: {\"algorithm\", "
    "\"files\": [{\"file\", \"digest\" or \"error\"}...]}; with --check each file's "
    "\"ok\", a sums file that cannot be used as {\"sums_file\", \"error\"}, and the counts "
    "\"matched\", \"mismatched\", \"unreadable\", \"malformed\". Exit codes follow "
    "coreutils, not grove's table: 0 all files read and every checksum matched, 1 a file could "
    "not be read, a checksum did not match or (--check) no line was well formed; 2 a usage "
    "error.",
    sum_opt_table};

static void sum_help(FILE *f)
{
    fprintf(f, "usage: grove hash ALG [OPTION]... [FILE]...\n%s\n\noptions:\n",
            cli_hash_sum_command.summary);
    for (const cli_opt *o = sum_opt_table; o->name; o++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(f, "  %-26s %s\n", left, o->help);
    }
    fprintf(f, "  %-26s %s\n", "--json", "print exactly one JSON object");
}

/* The name as coreutils quotes it in messages: in shell quotes when it holds a character the
 * shell (or the "NAME: message" form) would read specially; control characters stay raw. */
static void put_quoted(FILE *f, const char *name)
{
    bool plain = name[0] != '\0';
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              strchr("%+,-./@_]{}", *p) != NULL || (p != name && (*p == '~' || *p == '#'))))
            plain = false;
    if (plain) {
        fputs(name, f);
        return;
    }
    bool has_quote = strchr(name, '\'') != NULL;
    fputc(has_quote ? '"' : '\'', f);
    for (const char *p = name; *p; p++) {
        if (has_quote && strchr("\"$`\\", *p) != NULL)
            fputc('\\', f);
        fputc(*p, f);
    }
    fputc(has_quote ? '"' : '\'', f);
}

/* "grove hash: NAME: MESSAGE" on stderr (stdout first, so the two interleave in order); with
 * --json nothing (the object carries the error). */
static void sum_error(const sum_opts *o, const char *name, const char *msg)
{
    if (o->c->json)
        return;
    fflush(stdout);
    fputs("grove hash: ", stderr);
    if (name != NULL) {
        put_quoted(stderr, name);
        fputs(": ", stderr);
    }
    fprintf(stderr, "%s\n", msg);
}

/* A file name in an output line; escape: newline, carriage return and backslash as \n \r \\. */
static void put_name(const char *name, bool escape)
{
    for (const char *p = name; *p; p++) {
        if (escape && (*p == '\n' || *p == '\r' || *p == '\\')) {
            putchar('\\');
            putchar(*p == '\n' ? 'n' : *p == '\r' ? 'r' : '\\');
        } else {
            putchar(*p);
        }
    }
}

/* Hash the file at path ("-": standard input) in chunks into out: 0, or an errno value. */
static int hash_path(const sum_opts *o, const char *path, size_t out_len, uint8_t *out)
{
    bool is_stdin = strcmp(path, "-") == 0;
    if (is_stdin && cli_std_was_closed(0))
        return EBADF;
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return errno;
    grove_hash_ctx ctx;
    int err = 0;
    if (grove_hash_init(&ctx, o->alg) != GROVE_OK) {
        err = EINVAL;
    } else {
        static uint8_t buf[SUM_CHUNK];
        for (;;) {
            ssize_t n = read(fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                err = errno;
                break;
            }
            if (n == 0)
                break;
            grove_hash_update(&ctx, buf, (size_t)n);
        }
        grove_status st = grove_hash_final(&ctx, out, out_len); /* also wipes ctx */
        if (err == 0 && st != GROVE_OK)
            err = EINVAL;
    }
    if (!is_stdin)
        close(fd);
    return err;
}

/* One file's digest as a JSON element of "files": {"file", "digest"} or {"file", "error"}. */
static void json_file(cli_ctx *c, const char *name, const char *digest, const char *error)
{
    cli_out_begin_object(c, NULL);
    cli_out_str(c, "file", name);
    if (digest != NULL)
        cli_out_str(c, "digest", digest);
    if (error != NULL)
        cli_out_str(c, "error", error);
    cli_out_end(c);
}

/* The sum line of one file: plain or --tag; names escaped unless -z, which ends it with NUL. */
static void sum_line(const sum_opts *o, const char *name, const char *hex)
{
    bool escape = !o->zero && strpbrk(name, "\\\n\r") != NULL;
    if (escape)
        putchar('\\');
    if (o->tag_style) {
        printf("%s (", o->tag);
        put_name(name, escape);
        printf(") = %s", hex);
    } else {
        printf("%s %c", hex, o->binary ? '*' : ' ');
        put_name(name, escape);
    }
    putchar(o->zero ? '\0' : '\n');
}

/* Print the sum line of each file (--json: an element of "files"); 0 if all were read, else 1. */
static int sum_files(const sum_opts *o, char **files, int n)
{
    static char *const stdin_only[] = {"-"};
    if (n == 0)
        files = (char **)stdin_only, n = 1;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        uint8_t digest[SUM_MAX_XOF];
        int err = hash_path(o, files[i], o->out_len, digest);
        if (err != 0) {
            sum_error(o, files[i], strerror(err));
            if (o->c->json)
                json_file(o->c, files[i], NULL, strerror(err));
            rc = 1;
            continue;
        }
        char hex[2 * SUM_MAX_XOF + 1];
        grove_hex_encode(hex, digest, o->out_len);
        if (o->c->json)
            json_file(o->c, files[i], hex, NULL);
        else
            sum_line(o, files[i], hex);
    }
    return rc;
}

/* Undo the escapes of a sums-file name in place (\n, \r, \\); false for any other escape. */
static bool unescape_name(char *s)
{
    char *d = s;
    for (const char *p = s; *p; p++) {
        if (*p != '\\') {
            *d++ = *p;
            continue;
        }
        p++;
        if (*p == 'n')
            *d++ = '\n';
        else if (*p == 'r')
            *d++ = '\r';
        else if (*p == '\\')
            *d++ = '\\';
        else
            return false; /* also a backslash at the end */
    }
    *d = '\0';
    return true;
}

static size_t hex_run(const char *s)
{
    size_t n = 0;
    while ((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f') ||
           (s[n] >= 'A' && s[n] <= 'F'))
        n++;
    return n;
}

/* A digest of n hex digits fits: the algorithm's length, or for SHAKE without --length any
 * whole number of bytes up to SUM_MAX_XOF. */
static bool hex_len_ok(const sum_opts *o, size_t n)
{
    if (grove_hash_digest_bytes(o->alg) != 0 || o->length_set)
        return n == 2 * o->out_len;
    return n >= 2 && n <= 2 * SUM_MAX_XOF && n % 2 == 0;
}

/* The rest of a --tag line after "SHA256 (": "NAME) = HEX" (NAME ends at the last ')'). */
static bool parse_tagged(const sum_opts *o, char *s, bool escaped, char **hex, char **name)
{
    char *close = strrchr(s, ')');
    if (close == NULL)
        return false;
    *close = '\0';
    if (escaped && !unescape_name(s))
        return false;
    char *p = close + 1;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p++ != '=')
        return false;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t n = hex_run(p);
    if (p[n] != '\0' || !hex_len_ok(o, n))
        return false;
    *hex = p;
    *name = s;
    return true;
}

/*
 * One line of a sums file, as coreutils reads it: "HEX  NAME", "HEX *NAME", "TAG (NAME) = HEX",
 * or "HEX NAME" (BSD reversed: then all lines of the file must be so; *reversed tracks it: -1
 * unknown, 0 no, 1 yes). A leading backslash marks an escaped name.
 */
static bool parse_line(const sum_opts *o, char *s, int *reversed, char **hex, char **name)
{
    while (*s == ' ' || *s == '\t')
        s++;
    bool escaped = *s == '\\';
    s += escaped;
    size_t tag_len = strlen(o->tag);
    if (strncmp(s, o->tag, tag_len) == 0) {
        s += tag_len;
        s += *s == ' ';
        return *s == '(' && parse_tagged(o, s + 1, escaped, hex, name);
    }
    size_t n = hex_run(s);
    if (!hex_len_ok(o, n) || (s[n] != ' ' && s[n] != '\t') || strlen(s + n) < 2)
        return false;
    s[n] = '\0';
    *hex = s;
    char *p = s + n + 1;
    if (p[1] == '\0' || (*p != ' ' && *p != '*')) {
        if (*reversed == 0)
            return false; /* no mixing of the two forms */
        *reversed = 1;
    } else if (*reversed != 1) {
        *reversed = 0;
        p++;
    }
    if (escaped && !unescape_name(p))
        return false;
    *name = p;
    return true;
}

/* "grove hash: WARNING: N thing(s) ..." on stderr unless N is 0 (or --json). */
static void warn_count(const sum_opts *o, unsigned long long n, const char *one, const char *many)
{
    if (n == 0 || o->c->json)
        return;
    fflush(stdout);
    fprintf(stderr, "grove hash: WARNING: %llu %s\n", n, n == 1 ? one : many);
}

/* Check the file named by one well-formed line and count the outcome. */
static void check_one(const sum_opts *o, const char *hex, const char *name, check_counts *k)
{
    uint8_t want[SUM_MAX_XOF], got[SUM_MAX_XOF];
    size_t len;
    if (grove_hex_decode(want, sizeof want, &len, hex, strlen(hex)) != GROVE_OK)
        len = 0; /* cannot happen: parse_line checked the digits */
    k->formatted = true;
    int err = len == 0 ? EINVAL : hash_path(o, name, len, got);
    if (err == ENOENT && o->ignore_missing)
        return;
    bool escape = o->report < 2 && strchr(name, '\n') != NULL;
    if (o->c->json) {
        cli_out_begin_object(o->c, NULL);
        cli_out_str(o->c, "file", name);
    }
    if (err != 0) {
        sum_error(o, name, strerror(err));
        k->unreadable++;
        if (o->c->json) {
            cli_out_bool(o->c, "ok", 0);
            cli_out_str(o->c, "error", strerror(err));
            cli_out_end(o->c);
            return;
        }
        if (o->report < 2) {
            if (escape)
                putchar('\\');
            put_name(name, escape);
            fputs(": FAILED open or read\n", stdout);
        }
        return;
    }
    k->compared = true;
    bool match = memcmp(want, got, len) == 0; /* public digests: no need for constant time */
    k->mismatched += !match;
    k->matched += match;
    if (o->c->json) {
        cli_out_bool(o->c, "ok", match);
        cli_out_end(o->c);
        return;
    }
    if (o->report == 2 || (match && o->report == 1))
        return;
    if (escape)
        putchar('\\');
    put_name(name, escape);
    fputs(match ? ": OK\n" : ": FAILED\n", stdout);
}

enum { LINE_OK, LINE_BAD, LINE_EOF };

/* The next line of f without its newline (and a carriage return before it). LINE_BAD: longer
 * than the buffer (read to its end) or holding a NUL byte. */
static int read_line(FILE *f, char *buf, size_t cap, size_t *len)
{
    size_t n = 0;
    int ch;
    bool any = false, bad = false;
    while ((ch = getc(f)) != EOF) {
        any = true;
        if (ch == '\n')
            break;
        bad |= ch == '\0';
        if (n + 1 < cap)
            buf[n++] = (char)ch;
        else
            bad = true;
    }
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    buf[n] = '\0';
    *len = n;
    return !any ? LINE_EOF : bad ? LINE_BAD : LINE_OK;
}

/* A sums file that cannot be used, as an element of "files" with --json. */
static void json_sums_error(const sum_opts *o, const char *label, const char *msg)
{
    if (!o->c->json)
        return;
    cli_out_begin_object(o->c, NULL);
    cli_out_str(o->c, "sums_file", label);
    cli_out_str(o->c, "error", msg);
    cli_out_end(o->c);
}

/* Check every line of one sums file ("-": standard input), adding to the totals; 0 if all is
 * well, else 1. */
static int check_list(const sum_opts *o, const char *path, check_counts *total)
{
    bool is_stdin = strcmp(path, "-") == 0;
    const char *label = is_stdin ? "standard input" : path;
    FILE *f = is_stdin ? (cli_std_was_closed(0) ? NULL : stdin) : fopen(path, "r");
    if (f == NULL) {
        const char *msg = strerror(is_stdin ? EBADF : errno);
        sum_error(o, path, msg);
        json_sums_error(o, path, msg);
        return 1;
    }
    static char line[SUM_MAX_LINE];
    check_counts k = {0, 0, 0, 0, false, false};
    int reversed = -1;
    size_t len;
    int r;
    for (unsigned long long no = 1; (r = read_line(f, line, sizeof line, &len)) != LINE_EOF; no++) {
        char *hex, *name;
        if (line[0] == '#' || (r == LINE_OK && len == 0))
            continue; /* comments and empty lines */
        if (r == LINE_OK && parse_line(o, line, &reversed, &hex, &name) &&
            !(is_stdin && strcmp(name, "-") == 0)) {
            check_one(o, hex, name, &k);
            continue;
        }
        k.malformed++;
        if (o->warn && !o->c->json) {
            fflush(stdout);
            fputs("grove hash: ", stderr);
            put_quoted(stderr, label);
            fprintf(stderr, ": %llu: improperly formatted %s checksum line\n", no, o->tag);
        }
    }
    int read_err = ferror(f) ? errno : 0;
    if (!is_stdin)
        fclose(f);
    total->malformed += k.malformed, total->unreadable += k.unreadable;
    total->mismatched += k.mismatched, total->matched += k.matched;
    if (read_err != 0) {
        sum_error(o, label, strerror(read_err));
        json_sums_error(o, label, strerror(read_err));
        return 1;
    }
    if (!k.formatted) {
        sum_error(o, label, "no properly formatted checksum lines found");
        json_sums_error(o, label, "no properly formatted checksum lines found");
        return 1;
    }
    if (o->report < 2) {
        warn_count(o, k.malformed, "line is improperly formatted",
                   "lines are improperly formatted");
        warn_count(o, k.unreadable, "listed file could not be read",
                   "listed files could not be read");
        warn_count(o, k.mismatched, "computed checksum did NOT match",
                   "computed checksums did NOT match");
    }
    if (o->ignore_missing && !k.compared) {
        sum_error(o, label, "no file was verified");
        json_sums_error(o, label, "no file was verified");
    }
    bool ok = k.compared && k.unreadable == 0 && k.mismatched == 0 && !(o->strict && k.malformed);
    return ok ? 0 : 1;
}

/* A usage error of grove hash ALG: message, hint, exit 2 (--json: the object says it). */
static int sum_usage_error(const sum_opts *o, const char *what, const char *arg)
{
    if (o->c->json)
        return cli_fail(o->c, CLI_EXIT_USAGE, 0, "%s%s%s", what, arg ? " " : "", arg ? arg : "");
    fprintf(stderr, "grove hash: %s%s%s\nTry 'grove hash ALG --help' for more information.\n",
            what, arg ? " " : "", arg ? arg : "");
    return CLI_EXIT_USAGE;
}

/* One option without a value; *check_only is set for those of --check only. 0 or exit 2. */
static int sum_option(sum_opts *o, const char *opt, bool *check_only)
{
    if (strcmp(opt, "-c") == 0 || strcmp(opt, "--check") == 0)
        o->check = true;
    else if (strcmp(opt, "-b") == 0 || strcmp(opt, "--binary") == 0)
        o->binary = true;
    else if (strcmp(opt, "-t") == 0 || strcmp(opt, "--text") == 0)
        o->binary = false;
    else if (strcmp(opt, "--tag") == 0)
        o->tag_style = true;
    else if (strcmp(opt, "-z") == 0 || strcmp(opt, "--zero") == 0)
        o->zero = true;
    else if (strcmp(opt, "-w") == 0 || strcmp(opt, "--warn") == 0)
        o->warn = true, o->report = 0, *check_only = true;
    else if (strcmp(opt, "--quiet") == 0)
        o->warn = false, o->report = 1, *check_only = true;
    else if (strcmp(opt, "--status") == 0)
        o->warn = false, o->report = 2, *check_only = true;
    else if (strcmp(opt, "--strict") == 0)
        o->strict = true, *check_only = true;
    else if (strcmp(opt, "--ignore-missing") == 0)
        o->ignore_missing = true, *check_only = true;
    else
        return sum_usage_error(o, "unknown option", opt);
    return 0;
}

/* --length BYTES: SHAKE only, 1 to SUM_MAX_XOF. */
static int sum_length(sum_opts *o, const char *val)
{
    uint64_t v;
    if (grove_hash_digest_bytes(o->alg) != 0)
        return sum_usage_error(o, "--length applies only to shake128 and shake256", NULL);
    if (val == NULL || cli_parse_u64(val, &v) != 0 || v < 1 || v > SUM_MAX_XOF)
        return sum_usage_error(o, "--length takes a number of bytes from 1 to 1024, not",
                               val ? val : "nothing");
    o->out_len = (size_t)v;
    o->length_set = true;
    return 0;
}

/* Parse the options of grove hash ALG; the file operands are moved to the front of argv
 * (*nfiles of them). 0, -1 after --help, or exit 2. */
static int sum_parse(sum_opts *o, int argc, char **argv, int *nfiles)
{
    bool check_only = false, operands_only = false;
    int n = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (operands_only || a[0] != '-' || a[1] == '\0') {
            argv[n++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            operands_only = true;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            sum_help(stdout);
            return -1;
        } else if (strcmp(a, "--length") == 0) {
            rc = sum_length(o, i + 1 < argc ? argv[++i] : NULL);
        } else if (strncmp(a, "--length=", 9) == 0) {
            rc = sum_length(o, a + 9);
        } else if (a[1] != '-') { /* short options, maybe grouped: -cw */
            for (const char *p = a + 1; *p && rc == 0; p++) {
                char one[3] = {'-', *p, '\0'};
                rc = sum_option(o, one, &check_only);
            }
        } else {
            rc = sum_option(o, a, &check_only);
        }
        if (rc != 0)
            return rc;
    }
    *nfiles = n;
    if (o->check && o->tag_style)
        return sum_usage_error(o, "the --tag option is meaningless when verifying checksums", NULL);
    if (o->check && o->zero)
        return sum_usage_error(o, "the --zero option is not supported when verifying checksums",
                               NULL);
    if (!o->check && check_only)
        return sum_usage_error(o, "--warn, --quiet, --status, --strict and --ignore-missing are "
                               "meaningful only when verifying checksums (-c)",
                               NULL);
    return 0;
}

int cli_hash_sum(cli_ctx *c, int argc, char **argv)
{
    sum_opts o = {0};
    if (argc < 1 || grove_hash_alg_from_name(argv[0], &o.alg) != GROVE_OK)
        return -1; /* not an algorithm: a grove hash command such as digest */
    c->cmd = &cli_hash_sum_command;
    o.c = c;
    const char *canon = grove_hash_alg_name(o.alg);
    size_t i;
    for (i = 0; canon[i] != '\0' && i + 1 < sizeof o.tag; i++)
        o.tag[i] = (char)(canon[i] >= 'a' && canon[i] <= 'z' ? canon[i] - 'a' + 'A' : canon[i]);
    o.tag[i] = '\0';
    o.out_len = grove_hash_digest_bytes(o.alg);
    if (o.out_len == 0)
        o.out_len = o.alg == GROVE_HASH_SHAKE128 ? 32 : 64;
    int nfiles = 0;
    int rc = sum_parse(&o, argc - 1, argv + 1, &nfiles);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    char **files = argv + 1;
    cli_out_str(c, "algorithm", canon);
    cli_out_begin_array(c, "files");
    check_counts total = {0, 0, 0, 0, false, false};
    if (o.check) {
        if (nfiles == 0)
            rc = check_list(&o, "-", &total);
        for (int f = 0; f < nfiles; f++)
            rc |= check_list(&o, files[f], &total);
    } else {
        rc = sum_files(&o, files, nfiles);
    }
    cli_out_end(c);
    if (o.check) {
        cli_out_u64(c, "matched", total.matched);
        cli_out_u64(c, "mismatched", total.mismatched);
        cli_out_u64(c, "unreadable", total.unreadable);
        cli_out_u64(c, "malformed", total.malformed);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "grove hash: write error: %s\n", strerror(errno));
        rc = 1;
    }
    return rc;
}
