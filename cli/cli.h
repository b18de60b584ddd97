/*
 * The grove command: shared option parsing, file I/O and output helpers.
 *
 * Exit codes (DEVELOPERS.md): 0 success/valid, 1 signature invalid or revoked, 2 usage/input/IO
 * error, 3 key exhausted or state error. With --json every command prints exactly one JSON
 * object on stdout, also on failure ({"ok": false, "error": ..., "status": ...}).
 */
#ifndef GROVE_CLI_H
#define GROVE_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "grove/common.h"

enum { CLI_EXIT_OK = 0, CLI_EXIT_INVALID = 1, CLI_EXIT_USAGE = 2, CLI_EXIT_STATE = 3 };

#define CLI_MAX_OPTS 40
#define CLI_MAX_REPEAT 256
/* Inputs read from files are bounded before any allocation. */
#define CLI_MAX_INPUT (1u << 30)

typedef struct cli_opt {
    const char *name;  /* without the leading "--" */
    const char *arg;   /* NULL for a flag, else the value's placeholder, e.g. "FILE" */
    const char *help;
} cli_opt;

typedef struct cli_ctx cli_ctx;
typedef int (*cli_cmd_fn)(cli_ctx *c);

typedef struct cli_command {
    const char *name; /* one or two words, e.g. "sign" or "manager init" */
    cli_cmd_fn fn;
    const char *summary;
    const cli_opt *opts; /* terminated by {NULL} */
} cli_command;

typedef struct cli_scheme {
    const char *name;
    const char *summary;
    const cli_command *commands; /* terminated by {NULL} */
} cli_scheme;

struct cli_ctx {
    int json;
    const cli_scheme *scheme;
    const cli_command *cmd;
    const char *values[CLI_MAX_OPTS];
    int present[CLI_MAX_OPTS];
    const char *repeat[CLI_MAX_OPTS][CLI_MAX_REPEAT];
    size_t nrepeat[CLI_MAX_OPTS];
    /* JSON output under construction */
    char *out;
    size_t outlen, outcap;
    int nfields;
    int has_error;
};

/* ---- options ---------------------------------------------------------------------------- */
const char *cli_opt_str(cli_ctx *c, const char *name);
int cli_opt_flag(cli_ctx *c, const char *name);
/* All values of a repeatable option, in order. */
size_t cli_opt_all(cli_ctx *c, const char *name, const char *const **vals);
/* Parse a decimal option into [min, max]; absent -> dflt. Returns 0 or prints a usage error. */
int cli_opt_u64(cli_ctx *c, const char *name, uint64_t min, uint64_t max, uint64_t dflt,
                uint64_t *out);
/* A required option: returns its value or records a usage error and returns NULL. */
const char *cli_require(cli_ctx *c, const char *name);
/* Parse a decimal string strictly. */
int cli_parse_u64(const char *s, uint64_t *out);

/* ---- errors and output ------------------------------------------------------------------ */
/* Record an error message (and the library status, 0 if none); returns exit_code. */
int cli_fail(cli_ctx *c, int exit_code, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Map a library status to an exit code: verify/revoked -> 1, exhausted/state -> 3, else 2. */
int cli_exit_for_status(int status);
int cli_fail_status(cli_ctx *c, int status, const char *what);

void cli_out_str(cli_ctx *c, const char *key, const char *val);
void cli_out_int(cli_ctx *c, const char *key, long long val);
void cli_out_u64(cli_ctx *c, const char *key, uint64_t val);
void cli_out_bool(cli_ctx *c, const char *key, int val);
void cli_out_hex(cli_ctx *c, const char *key, const uint8_t *p, size_t len);
/* A raw JSON value (already valid JSON text). */
void cli_out_raw(cli_ctx *c, const char *key, const char *json);
/* Human-readable line on stdout (suppressed with --json). */
void cli_say(cli_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* JSON string escaping into a fresh malloc'd buffer. */
char *cli_json_escape(const char *s);

/* ---- files ------------------------------------------------------------------------------ */
/* Read a whole file ("-" = stdin) of at most maxlen bytes. Returns 0 or an exit code. */
int cli_read_file(cli_ctx *c, const char *path, size_t maxlen, uint8_t **buf, size_t *len);
/* Read all of fd (at most maxlen bytes) into a fresh buffer; 0, or -1 with errno (EFBIG: too
 * large). Superseded buffers are wiped. */
int cli_read_fd(int fd, size_t maxlen, uint8_t **buf, size_t *len);
/*
 * Write a file ("-" = stdout) atomically: temp file in the same folder, fsync, rename, fsync of
 * the folder. secret != 0 creates it with mode 0600 (and refuses "-"). Returns 0 or exit code.
 */
int cli_write_file(cli_ctx *c, const char *path, const uint8_t *buf, size_t len, int secret);
/* write(2) all of buf, retrying on EINTR and short writes; 0 or -1 (errno set). */
int cli_write_all(int fd, const uint8_t *p, size_t len);
/* Free a buffer that held secrets (wiped first). */
void cli_free_secret(uint8_t *buf, size_t len);
/*
 * Refuse (exit 2) an output path that is the same file (device and inode) as one of `others`
 * (the command's inputs and state files); NULL entries, "-" and outputs that do not exist yet
 * are skipped. `what` names the output option in the message (e.g. "--out"). Returns 0 or the
 * exit code. Call it before anything is reserved or written.
 */
int cli_refuse_same_file(cli_ctx *c, const char *what, const char *out, const char *const *others,
                         size_t n);
/* Parse hex from an option value into a fresh buffer of at most maxlen bytes. */
int cli_hex_opt(cli_ctx *c, const char *name, size_t maxlen, uint8_t **buf, size_t *len);

/* Progress bar on stderr, only when stderr is a terminal and --json is off. */
void cli_progress(cli_ctx *c, const char *what, uint64_t done, uint64_t total);

#endif
