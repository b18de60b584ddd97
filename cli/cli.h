/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The grove command: shared option parsing, file I/O and output helpers.
 *
 * Exit codes (DEVELOPERS.md): 0 success/valid, 1 signature invalid or revoked, 2 usage/input/IO
 * error, 3 key exhausted or state error. With --json every command prints exactly one JSON
 * object, also on failure ({"ok": false, "error": ..., "status": ...}): on stdout, or on stderr
 * when stdout carries data (an output given as "-"; see stdout_data below).
 */
#ifndef GROVE_CLI_H
#define GROVE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "grove/common.h"
#include "grove/envelope.h"
#include "grove/json.h"
#include "grove/sig.h"

/* Big-endian integers in the DGSP file bodies the CLI assembles (ids, counts). */
static inline uint32_t cli_load32_be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint64_t cli_load64_be(const uint8_t *p)
{
    return (uint64_t)cli_load32_be(p) << 32 | cli_load32_be(p + 4);
}
static inline void cli_store32_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}
static inline void cli_store64_be(uint8_t *p, uint64_t v)
{
    cli_store32_be(p, (uint32_t)(v >> 32)), cli_store32_be(p + 4, (uint32_t)v);
}

enum { CLI_EXIT_OK = 0, CLI_EXIT_INVALID = 1, CLI_EXIT_USAGE = 2, CLI_EXIT_STATE = 3 };

#define CLI_MAX_OPTS 40
#define CLI_MAX_REPEAT 256
#define CLI_JSON_DEPTH 8 /* --json output: nesting below the top-level object */
/* Inputs read from files are bounded before any allocation. */
#define CLI_MAX_INPUT (1u << 30)

typedef struct cli_opt {
    const char *name;  /* without the leading "--" */
    const char *arg;   /* NULL for a flag, else the value's placeholder, e.g. "FILE" */
    const char *help;
    int positional;    /* 1: a bare argument sets this option (`grove xmss info FILE`); at most
                          one such option per command */
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
    /* JSON output under construction: the members of the one object --json prints */
    grove_json_buf out;
    int depth;                      /* open arrays/objects inside the top-level object      */
    int nfields[CLI_JSON_DEPTH];    /* members (elements) written at each depth so far      */
    char closer[CLI_JSON_DEPTH];    /* ']' or '}' for each open array/object                */
    int has_error;
    int has_warning;
    /*
     * Set when stdout carries data: before the command runs, when an option whose help text
     * mentions "stdout" is given "-"; and by cli_write_file("-"). Human text (cli_say) and the
     * JSON object then go to stderr, so that stdout is exactly the data.
     */
    int stdout_data;
    /* The progress bar being drawn (cli_progress): its label, start time and first count. */
    const char *progress_what;
    uint64_t progress_start_ns;
    uint64_t progress_first;
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
/*
 * Nested values: cli_out_begin_array(c, "sets") starts `"sets": [`, cli_out_begin_object(c,
 * NULL) an object element of it (a key names a member instead), cli_out_end closes the
 * innermost one. The cli_out_* calls between them write members of the open object. Elements
 * and members are separated by ", " as at the top level.
 */
void cli_out_begin_array(cli_ctx *c, const char *key);
void cli_out_begin_object(cli_ctx *c, const char *key);
void cli_out_end(cli_ctx *c);
/* Human-readable line on stdout, or stderr when stdout carries data (suppressed with --json). */
void cli_say(cli_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Where human text goes: stdout, or stderr when stdout carries data (c->stdout_data). */
FILE *cli_text_stream(const cli_ctx *c);
/* A warning: "grove: warning: ..." on stderr; with --json a "warning" field (the first one). */
void cli_warn(cli_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- files ------------------------------------------------------------------------------ */
/* Read a whole file ("-" = stdin) of at most maxlen bytes. Returns 0 or an exit code. */
int cli_read_file(cli_ctx *c, const char *path, size_t maxlen, uint8_t **buf, size_t *len);
/*
 * Read a file whose header tells its largest size: the first hdrlen (<= 4096) bytes, then at
 * most limit(hdr) - hdrlen more (and never past maxlen); longer is exit 2 ("too large"). A file
 * shorter than its header is returned as it is (the decoder refuses it). For pipes and devices
 * this bounds memory by the object's own size.
 */
int cli_read_file_hdr(cli_ctx *c, const char *path, size_t hdrlen,
                      size_t (*limit)(const uint8_t *hdr, size_t hdrlen, void *arg), void *arg,
                      size_t maxlen, uint8_t **buf, size_t *len);
/* Read all of fd (at most maxlen bytes) into a fresh buffer; 0, or -1 with errno (EFBIG: too
 * large). Superseded buffers are wiped. */
int cli_read_fd(int fd, size_t maxlen, uint8_t **buf, size_t *len);
/*
 * Write a file ("-" = stdout) atomically: temp file <path>.tmp.<pid>.<n> (unique per call) in
 * the same folder, fsync, rename, fsync of the folder; stale temporary files of killed writers
 * of the same path are removed first (grove_file_remove_stale_temps). secret != 0 creates it
 * with mode 0600 (and refuses "-" and devices). "-" marks stdout as carrying data
 * (c->stdout_data) and is refused if stdout was closed when grove started. Returns 0 or exit
 * code.
 */
int cli_write_file(cli_ctx *c, const char *path, const uint8_t *buf, size_t len, int secret);
/* cli_write_file with flags: CLI_WRITE_SECRET as secret != 0 above; CLI_WRITE_NO_REPLACE never
 * replaces an existing path (link(2) of the temporary file: exit 2 naming the file if it
 * exists, even if it appeared while we wrote). */
enum { CLI_WRITE_SECRET = 1u, CLI_WRITE_NO_REPLACE = 2u };
int cli_write_file_ex(cli_ctx *c, const char *path, const uint8_t *buf, size_t len,
                      unsigned flags);
/* Before writing a secret file: exit 2 naming it (opt is the option, e.g. "--sk") if path
 * exists and the command's --force flag is not given; else 0. */
int cli_refuse_existing_secret(cli_ctx *c, const char *opt, const char *path);
/* write(2) all of buf, retrying on EINTR and short writes; 0 or -1 (errno set). */
int cli_write_all(int fd, const uint8_t *p, size_t len);
/* Free a buffer that held secrets (wiped first). */
void cli_free_secret(uint8_t *buf, size_t len);
/*
 * Refuse (exit 2) an output path that is the same file (device and inode) as one of `others`
 * (the command's inputs, state files and other outputs); NULL entries and "-" are skipped. An
 * output that does not exist yet is compared by path (realpath of its folder + last component)
 * with the entries that do not exist either (two outputs of one command naming one path).
 * `what` names the output option in the message (e.g. "--out"). Returns 0 or the exit code.
 * Call it before anything is reserved or written.
 */
int cli_refuse_same_file(cli_ctx *c, const char *what, const char *out, const char *const *others,
                         size_t n);
/* Parse hex from an option value into a fresh buffer of at most maxlen bytes. */
int cli_hex_opt(cli_ctx *c, const char *name, size_t maxlen, uint8_t **buf, size_t *len);

/* The signature just made does not verify with the signer's public key: exit 2, nothing is
 * written (cli/files.c). */
int cli_fail_self_check(cli_ctx *c, int status);

/* ---- grove files (cli/files.c): the envelope of grove/envelope.h ------------------------ */
/*
 * Every key, signature and other object the grove command writes is an envelope: armored text
 * by default, binary with the command's --binary flag. Sign and verify take the parameter set
 * from the files; --params is only a check (cli_check_params).
 */
typedef struct cli_file {
    grove_envelope env; /* env.body points into buf */
    uint8_t *buf;
    size_t cap;
    int secret; /* buf is wiped by cli_file_free */
} cli_file;
/*
 * Read path ("-" = stdin; at most maxlen bytes) as a grove file of this scheme and type (NULL:
 * any). A raw, malformed, damaged file, or one of another scheme or type, is exit 2 with a
 * message naming what the file is. Returns 0 or the exit code; free f with cli_file_free.
 */
int cli_read_grove_file(cli_ctx *c, const char *path, const char *scheme, const char *type,
                        size_t maxlen, int secret, cli_file *f);
void cli_file_free(cli_file *f);
/* Encode env (armored, or binary when --binary is given) and write it (cli_write_file_ex). */
int cli_write_grove_file(cli_ctx *c, const char *path, const grove_envelope *env, unsigned flags);
/* --params given and not the file's set (case-insensitive): exit 2 naming both; else 0. */
int cli_check_params(cli_ctx *c, const char *path, const grove_envelope *env);
/* Both files carry key ids and they differ: "signature INVALID: SIG was made by key X, PK is
 * key Y", exit 1; else 0. */
int cli_check_key_id(cli_ctx *c, const cli_file *pk, const char *pkpath, const cli_file *sig,
                     const char *sigpath);
/* Describe a grove file: scheme, set, type, key id, encoding (text and --json fields). */
void cli_describe_file(cli_ctx *c, const char *path, const cli_file *f);
/* A key id as 16 hex digits into hex, and as the "key_id" member of the --json object. */
void cli_out_key_id(cli_ctx *c, const uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES],
                    char hex[2 * GROVE_ENVELOPE_KEY_ID_BYTES + 1]);
/* `grove info FILE`: describe any grove file. */
int cli_info_any(cli_ctx *c);

/* ---- stateless signature files (cli/sigfiles.c): grove slhdsa, sphincs, cross ------------- */
#define CLI_T_PK "PUBLIC KEY"
#define CLI_T_SK "SECRET KEY"
#define CLI_T_SIG "SIGNATURE"
/* A scheme's parameter sets as the shared commands see them (set: the scheme's params type). */
typedef struct cli_sig_kind {
    size_t (*file_max)(void);                   /* largest grove file of the scheme */
    const char *(*scheme)(const void *set);     /* the envelope scheme of a set's files */
    const char *(*name)(const void *set);       /* the set's canonical name */
    size_t (*pk_bytes)(const void *set);
    size_t (*sk_bytes)(const void *set);
    size_t (*sig_bytes)(const void *set);
    /* The set a file names, if it is one of scheme's that the command handles; else NULL. */
    const void *(*find)(const char *set_name, const char *scheme);
    /* The set --params names (0), or the exit code after saying why not. */
    int (*params_opt)(cli_ctx *c, const char *scheme, const void **set);
} cli_sig_kind;
/* The body size of an object of this type (CLI_T_*) in set; 0 for any other type. */
size_t cli_sig_body_bytes(const cli_sig_kind *k, const void *set, const char *type);
/* The key id of a public key of set (zeros if it cannot be computed). */
void cli_sig_key_id(const cli_sig_kind *k, const void *set, const uint8_t *pk,
                    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES]);
/* Read a grove file of scheme and type (NULL: any) whose set is known and whose body has the
 * set's size; --params, if given, must name the file's set. 0 or the exit code (f freed). */
int cli_sig_read(cli_ctx *c, const cli_sig_kind *k, const char *scheme, const char *path,
                 const char *type, int secret, cli_file *f, const void **set);
/* Write body as a grove file of set and type; id (may be NULL) is the key id. */
int cli_sig_write(cli_ctx *c, const cli_sig_kind *k, const void *set, const char *type,
                  const uint8_t *id, const uint8_t *body, size_t len, const char *path,
                  unsigned flags);
/* `verify --pk --sig --msg`: both files read and matched (set, key id) before the message is
 * read; fn verifies. Exit 0 valid, 1 invalid, 2 input error. */
typedef grove_status (*cli_sig_verify_fn)(void *arg, const void *set, const uint8_t *sig,
                                          size_t sig_len, const uint8_t *msg, size_t msg_len,
                                          const uint8_t *pk);
int cli_sig_verify(cli_ctx *c, const cli_sig_kind *k, const char *scheme, cli_sig_verify_fn fn,
                   void *arg);
/* export / import: exactly one of --pk, --sk, --sig (its path and CLI_T_* type). */
int cli_sig_pick_object(cli_ctx *c, const char **path, const char **type);
/* "public key", "secret key" or "signature", for messages. */
const char *cli_sig_type_words(const char *type);
/* The write flags of an output: a secret one is mode 0600 and replaced only with --force. */
unsigned cli_sig_out_flags(cli_ctx *c, int secret);
/* Refuse --out that is the input, or an existing secret --out. */
int cli_sig_check_out(cli_ctx *c, const char *out, const char *in, int secret);
/* Read a raw import input of exactly the size of this type in set into body. */
int cli_sig_read_raw(cli_ctx *c, const cli_sig_kind *k, const void *set, const char *path,
                     const char *type, uint8_t *body);
/* `export --format raw`: the body of a grove file of scheme to out. */
int cli_sig_export_raw(cli_ctx *c, const cli_sig_kind *k, const char *scheme, const char *path,
                       const char *type, const char *out);

/* ---- standard descriptors ---------------------------------------------------------------- */
/* At startup (main, before any file is opened): open /dev/null on each of fds 0-2 that is
 * closed, so no file ever lands there; exits 2 if that is impossible. */
void cli_guard_std_fds(void);
/* Whether fd (0-2) was closed at startup: reading "-" / writing "-" is then refused. */
int cli_std_was_closed(int fd);

/* grove hash ALG [FILE]... (cli/cmd_hash.c): its options, for --help and grove(1). */
extern const cli_command cli_hash_sum_command;

/* Progress bar on stderr with the time left ("ETA m:ss"), only when stderr is a terminal and
 * --json is off; ends with a newline at done == total. */
void cli_progress(cli_ctx *c, const char *what, uint64_t done, uint64_t total);

/*
 * A one-line status with an estimated time left, for long runs of steps (grove bench): only
 * when stderr is a terminal and --json is off; otherwise every call does nothing.
 * cli_progress_step prints "<what>: <done>/<total> <label> ... ETA m:ss" on one line, rewritten
 * in place (\r); the ETA is the mean time of the steps done so far times the steps left (no
 * ETA before the first step is done). cli_progress_end erases the line and stops.
 */
typedef struct cli_progress_line {
    int on;
    uint64_t start_ns;
    const char *what;
} cli_progress_line;
void cli_progress_begin(cli_ctx *c, cli_progress_line *p, const char *what);
void cli_progress_step(cli_progress_line *p, uint64_t done, uint64_t total, const char *label);
void cli_progress_end(cli_progress_line *p);
/* Erase the line for now (before other output to the terminal); the next step prints it again. */
void cli_progress_clear(cli_progress_line *p);
/* The ETA text of cli_progress_step: "m:ss" (or "h:mm:ss"), "?" when it cannot be estimated
 * (done == 0). elapsed_ns: the time the done steps took. */
void cli_progress_eta(char *out, size_t cap, uint64_t elapsed_ns, uint64_t done, uint64_t total);

#endif
