/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove xmss: XMSS / XMSS^MT key generation, signing with a stateful key file, verification,
 * information, key split and recovery of a stale key file.
 *
 * Files: public keys and signatures are grove envelopes (grove/envelope.h: scheme "XMSS", the
 * parameter set, the key id of the public key) around the raw RFC 8391 byte strings, armored by
 * default, binary with --binary; `export` / `import` convert them to and from the raw bytes and
 * (public keys) the SubjectPublicKeyInfo of RFC 9802. The private key file is an envelope too
 * (type "SECRET KEY", body = grove's durable, versioned key state; grove/xmss.h "KEY FILE"),
 * armored or binary like the others, created with mode 0600, rewritten in the form it has, and
 * never exported; bare key files of older versions ("GRVXMSSK") are still read.
 *
 * State safety lives in the library (grove_xmss_keyfile_*, grove/xmss.h): the key file and its
 * entry in the state registry (grove/state.h, kind "xmss") are locked while a command uses
 * them, a file that disagrees with its entry (restored backup, pre-split copy, overtaken copy)
 * is refused (exit 3) until `grove xmss recover` brings it forward, and every index is reserved
 * in the file and then in the registry before its signature exists. This file only parses
 * options, reads and writes the public files and prints.
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
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "grove/io.h"
#include "grove/pkix.h"
#include "grove/xmss.h"

#define DEFAULT_SET "XMSS-SHA2_10_256"
#define SCHEME "XMSS"
#define T_PK "PUBLIC KEY"
#define T_SIG "SIGNATURE"
/* Largest public key / signature files: the armored envelope of the largest body. */
#define PK_FILE_MAX 4096
#define SIG_FILE_MAX ((size_t)GROVE_XMSS_MAX_SIG_BYTES * 3 / 2 + 4096)

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

#define KEY_ID_HEX (2 * GROVE_XMSS_KEY_ID_BYTES + 1)

/* A key id in lower-case hex (NUL-terminated), for messages. */
static void key_id_hex(char out[KEY_ID_HEX], const uint8_t id[GROVE_XMSS_KEY_ID_BYTES])
{
    grove_hex_encode(out, id, GROVE_XMSS_KEY_ID_BYTES);
}

/* --threads N: at most N threads, the calling one included; 0 (the default) = one per CPU. */
static int threads_opt(cli_ctx *c, unsigned *out)
{
    uint64_t t;
    if (cli_opt_u64(c, "threads", 0, 256, GROVE_THREADS_AUTO, &t))
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

/* ---- the state registry ------------------------------------------------------------------ */

/* 1 if the folder holds grove 0.1 registry entries directly (files named by 32 hex digits). */
static int has_legacy_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0;
    int found = 0;
    struct dirent *de;
    while (!found && (de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l != 2 * GROVE_XMSS_KEY_ID_BYTES)
            continue;
        found = 1;
        for (size_t i = 0; i < l; i++)
            if (!isxdigit((unsigned char)de->d_name[i]))
                found = 0;
    }
    closedir(d);
    return found;
}

/* The last component of a path, without trailing slashes, is "xmss". */
static int names_xmss_folder(const char *dir, char *parent, size_t cap)
{
    char tmp[PATH_MAX];
    if (fmt(tmp, sizeof tmp, "%s", dir) != 0)
        return 0;
    size_t l = strlen(tmp);
    while (l > 1 && tmp[l - 1] == '/')
        tmp[--l] = '\0';
    const char *slash = strrchr(tmp, '/');
    const char *base = slash ? slash + 1 : tmp;
    if (strcmp(base, "xmss") != 0)
        return 0;
    if (slash == NULL)
        fmt(parent, cap, ".");
    else if (slash == tmp)
        fmt(parent, cap, "/");
    else
        fmt(parent, cap, "%.*s", (int)(slash - tmp), tmp);
    return 1;
}

/*
 * The registry root: --state-dir (the root; or, as in grove 0.1, a folder named xmss: its
 * parent), else $GROVE_XMSS_STATE_DIR (grove 0.1's variable: it named the xmss folder itself,
 * so its parent is the root; any other name is refused), else the registry's default.
 * *root = "" selects the default.
 */
static int registry_root(cli_ctx *c, char *root, size_t cap)
{
    root[0] = '\0';
    const char *sd = cli_opt_str(c, "state-dir");
    const char *env = getenv("GROVE_XMSS_STATE_DIR");
    if (sd != NULL) {
        if (!names_xmss_folder(sd, root, cap))
            fmt(root, cap, "%s", sd);
        if (strcmp(root, sd) == 0 && has_legacy_entries(sd))
            return cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_STATE,
                            "--state-dir %s holds XMSS registry entries of grove 0.1 directly; "
                            "they now live in %s/xmss/: move them there (mkdir -p %s/xmss && mv "
                            "%s/[0-9a-f]* %s/xmss/) so that used indices stay protected",
                            sd, sd, sd, sd, sd);
        return 0;
    }
    if (env != NULL && env[0] != '\0') {
        if (!names_xmss_folder(env, root, cap))
            return cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_STATE,
                            "GROVE_XMSS_STATE_DIR=%s: XMSS entries now live in the 'xmss' folder "
                            "of the shared state registry; set GROVE_STATE_DIR to the registry "
                            "folder instead (and move the entries of %s into its xmss/ folder), "
                            "or point GROVE_XMSS_STATE_DIR at a folder named xmss",
                            env, env);
    }
    return 0;
}

/* Open the registry (NULL with --no-registry, after a warning). */
static int open_registry(cli_ctx *c, grove_registry **reg)
{
    *reg = NULL;
    if (cli_opt_flag(c, "no-registry")) {
        fprintf(stderr, "grove: warning: --no-registry: a restored or copied key file will not "
                        "be detected\n");
        return 0;
    }
    char root[PATH_MAX];
    int rc = registry_root(c, root, sizeof root);
    if (rc)
        return rc;
    int st = grove_registry_open(reg, root[0] ? root : NULL);
    if (st == GROVE_ERR_STATE)
        return cli_fail(c, CLI_EXIT_STATE, st,
                        "no state folder: set GROVE_STATE_DIR or --state-dir (or use "
                        "--no-registry at your own risk)");
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_STATE, st, "cannot open the state registry %s: %s",
                        root[0] ? root : "(default)", grove_strerror(st));
    return 0;
}

static int keyfile_fail(cli_ctx *c, int st, const char *err)
{
    int code = st == GROVE_ERR_STATE || st == GROVE_ERR_EXHAUSTED ? CLI_EXIT_STATE : CLI_EXIT_USAGE;
    return cli_fail(c, code, st, "%s", err[0] ? err : grove_strerror(st));
}

/* Open and lock a key file with its registry entry (reg may be NULL). */
static int open_key(cli_ctx *c, const char *path, grove_registry *reg, unsigned flags,
                    unsigned threads, grove_xmss_keyfile **kf)
{
    char err[GROVE_XMSS_ERR_CAP] = "";
    grove_xmss_opts opts = {.threads = threads};
    int st = grove_xmss_keyfile_open(kf, path, reg, flags, &opts, err, sizeof err);
    return st == GROVE_OK ? 0 : keyfile_fail(c, st, err);
}

/* Two paths name the same file, existing or not (folder resolved, same last component). */
static int same_path(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char da[PATH_MAX], db[PATH_MAX], ra[PATH_MAX], rb[PATH_MAX];
    const char *ba = strrchr(a, '/'), *bb = strrchr(b, '/');
    fmt(da, sizeof da, "%.*s", ba ? (int)(ba - a) + (ba == a) : 1, ba ? a : ".");
    fmt(db, sizeof db, "%.*s", bb ? (int)(bb - b) + (bb == b) : 1, bb ? b : ".");
    if (realpath(da, ra) == NULL || realpath(db, rb) == NULL)
        return strcmp(a, b) == 0;
    return strcmp(ra, rb) == 0 && strcmp(ba ? ba + 1 : a, bb ? bb + 1 : b) == 0;
}


static const char *family_name(int f)
{
    return f == GROVE_XMSS_FAMILY_XMSSMT ? "XMSS^MT" : "XMSS";
}

/* ---- grove files: public keys and signatures in the envelope ----------------------------- */

/* The envelope key id of a public key of set p. */
static int env_key_id(cli_ctx *c, const grove_xmss_params *p, const uint8_t *pk,
                      uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES])
{
    int st = grove_envelope_key_id(id, SCHEME, grove_xmss_params_name(p), pk,
                                   grove_xmss_pk_bytes(p));
    return st == GROVE_OK ? 0 : cli_fail_status(c, st, "computing the key id");
}

/* Write an XMSS envelope of set p and type; id: the key id (NULL: none). */
static int write_env(cli_ctx *c, const char *path, const grove_xmss_params *p, const char *type,
                     const uint8_t *body, size_t len, const uint8_t *id)
{
    grove_envelope env;
    int st = grove_envelope_init(&env, SCHEME, grove_xmss_params_name(p), type, body, len);
    if (st != GROVE_OK)
        return cli_fail_status(c, st, "encoding the file");
    if (id != NULL) {
        memcpy(env.key_id, id, GROVE_ENVELOPE_KEY_ID_BYTES);
        env.has_key_id = true;
    }
    return cli_write_grove_file(c, path, &env, 0);
}

static int write_pk(cli_ctx *c, const char *path, const grove_xmss_params *p, const uint8_t *pk)
{
    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES];
    int rc = env_key_id(c, p, pk, id);
    return rc ? rc : write_env(c, path, p, T_PK, pk, grove_xmss_pk_bytes(p), id);
}

/* The parameter set an envelope names (exit 2 if it is no XMSS set). */
static int env_params(cli_ctx *c, const char *path, const cli_file *f,
                      const grove_xmss_params **p)
{
    *p = grove_xmss_params_get(f->env.set);
    if (*p == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "%s: unknown XMSS parameter set '%s'", path, f->env.set);
    return 0;
}

/* The first bytes of path (not "-"); the number read, 0 if none. */
static size_t peek(const char *path, uint8_t *h, size_t cap)
{
    if (strcmp(path, "-") == 0)
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, h, cap);
    close(fd);
    return n > 0 ? (size_t)n : 0;
}

/* 1 if path starts like an XMSS private-key file (either envelope form, or bare). */
static int is_key_file(const char *path)
{
    uint8_t h[128];
    size_t n = peek(path, h, sizeof h);
    return n > 0 && grove_xmss_keyfile_detect(h, n);
}

/* 1 if path ("-": stdin) starts like a grove envelope other than an XMSS private-key file. */
static int is_envelope(const char *path)
{
    uint8_t h[128];
    if (strcmp(path, "-") == 0)
        return 1;
    size_t n = peek(path, h, sizeof h);
    return n > 0 && !grove_xmss_keyfile_detect(h, n) && grove_envelope_detect(h, n);
}

/* The form of the key files a command writes: --binary, else armored text. */
static grove_envelope_form key_form(cli_ctx *c)
{
    return cli_opt_flag(c, "binary") ? GROVE_ENVELOPE_BINARY : GROVE_ENVELOPE_ARMORED;
}

/* Read an XMSS grove file of this type; the private key file (large) is named, not read. */
static int read_xmss_file(cli_ctx *c, const char *path, const char *type, size_t maxlen,
                          cli_file *f)
{
    if (is_key_file(path))
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s: this is a grove XMSS SECRET KEY (the stateful private key file), "
                        "a XMSS %s was expected",
                        path, type);
    return cli_read_grove_file(c, path, SCHEME, type, maxlen, 0, f);
}

/* A public key file read: its set, a body that is a key of that set, its key id. */
static int check_pk(cli_ctx *c, const char *path, cli_file *f, const grove_xmss_params **p)
{
    int rc = env_params(c, path, f, p);
    const grove_xmss_params *q = NULL;
    if (rc == 0 && (grove_xmss_pk_params(grove_xmss_params_family(*p), &q, f->env.body,
                                         f->env.body_len) != GROVE_OK ||
                    q != *p))
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                      "%s: its content is not a %s public key (OID or length)", path,
                      grove_xmss_params_name(*p));
    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES];
    if (rc == 0)
        rc = env_key_id(c, *p, f->env.body, id);
    if (rc == 0 && f->env.has_key_id && memcmp(id, f->env.key_id, sizeof id) != 0)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                      "%s: its key id is not the id of the public key it holds", path);
    if (rc == 0 && !f->env.has_key_id) {
        memcpy(f->env.key_id, id, sizeof id);
        f->env.has_key_id = true;
    }
    return rc;
}

static int read_pk(cli_ctx *c, const char *path, cli_file *f, const grove_xmss_params **p)
{
    int rc = read_xmss_file(c, path, T_PK, PK_FILE_MAX, f);
    if (rc == 0)
        rc = check_pk(c, path, f, p);
    if (rc)
        cli_file_free(f);
    return rc;
}

static int sig_length_error(cli_ctx *c, const char *sigpath, size_t siglen,
                            const grove_xmss_params *p)
{
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                    "%s is not a %s signature: it has %zu bytes, a %s signature has %zu", sigpath,
                    grove_xmss_params_name(p), siglen, grove_xmss_params_name(p),
                    grove_xmss_sig_bytes(p));
}

/* A signature file read: its set and a body of that set's signature length. */
static int check_sig(cli_ctx *c, const char *path, cli_file *f, const grove_xmss_params **p)
{
    int rc = env_params(c, path, f, p);
    if (rc == 0 && f->env.body_len != grove_xmss_sig_bytes(*p))
        rc = sig_length_error(c, path, f->env.body_len, *p);
    return rc;
}

static int read_sig(cli_ctx *c, const char *path, cli_file *f, const grove_xmss_params **p)
{
    int rc = read_xmss_file(c, path, T_SIG, SIG_FILE_MAX, f);
    if (rc == 0)
        rc = check_sig(c, path, f, p);
    if (rc)
        cli_file_free(f);
    return rc;
}

/* --params given on sign: a check against the key file's set (exit 2 on a mismatch). */
static int check_key_params(cli_ctx *c, const char *keypath, const grove_xmss_params *p)
{
    const char *want = cli_opt_str(c, "params");
    if (want == NULL || strcasecmp(want, grove_xmss_params_name(p)) == 0)
        return 0;
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                    "%s is an XMSS private key of set %s, but --params says %s", keypath,
                    grove_xmss_params_name(p), want);
}

/* key_id NULL: params and key id already written (cli_describe_file). */
static void out_key_info(cli_ctx *c, const grove_xmss_state_info *info, const char *key_id)
{
    const grove_xmss_params *p = info->params;
    if (key_id != NULL)
        cli_out_str(c, "params", grove_xmss_params_name(p));
    cli_out_str(c, "family", grove_xmss_params_family(p) ? "XMSSMT" : "XMSS");
    cli_out_u64(c, "oid", grove_xmss_params_oid(p));
    if (key_id != NULL)
        cli_out_str(c, "key_id", key_id);
    cli_out_hex(c, "state_id", info->key_id, GROVE_XMSS_KEY_ID_BYTES);
    cli_out_u64(c, "index", info->index);
    cli_out_u64(c, "high_water", info->high_water);
    cli_out_u64(c, "range_start", info->range_start);
    cli_out_u64(c, "range_end", info->range_end);
    cli_out_u64(c, "remaining", info->remaining);
    cli_out_bool(c, "exhausted", info->exhausted);
    cli_out_u64(c, "generation", info->generation);
    if (info->has_parent)
        cli_out_hex(c, "parent_state_id", info->parent_id, GROVE_XMSS_KEY_ID_BYTES);
    cli_out_hex(c, "public_key", info->pk, info->pk_bytes);
}

/* The envelope key id of a key file's public key, as hex. */
static int info_key_id(cli_ctx *c, const grove_xmss_state_info *info, char hex[17])
{
    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES];
    int rc = env_key_id(c, info->params, info->pk, id);
    if (rc == 0)
        grove_envelope_key_id_hex(hex, id);
    return rc;
}

/* ---- keygen -------------------------------------------------------------------------------------- */

static int cmd_keygen(cli_ctx *c)
{
    const grove_xmss_params *p = lookup(c, DEFAULT_SET);
    if (p == NULL)
        return CLI_EXIT_USAGE;
    const char *keypath = cli_require(c, "sk"), *pubpath = cli_require(c, "pk");
    if (!keypath || !pubpath)
        return CLI_EXIT_USAGE;
    unsigned threads;
    if (threads_opt(c, &threads))
        return CLI_EXIT_USAGE;
    struct stat sb;
    if (lstat(keypath, &sb) == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_EXISTS,
                        "%s already exists: refusing to overwrite a stateful key file", keypath);
    if (same_path(keypath, pubpath))
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                        "--pk %s is the same file as --sk: the public key would replace the "
                        "private key; give two different files",
                        pubpath);
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
    grove_registry *reg = NULL;
    rc = open_registry(c, &reg);
    if (rc) {
        cli_free_secret(seed, seedlen);
        return rc;
    }
    progress_state ps = {c, "keygen", -1};
    grove_xmss_opts opts = {.threads = threads, .progress = progress_cb, .progress_arg = &ps};
    grove_xmss_key *key = NULL;
    int st = seed ? grove_xmss_keygen_from_seed(p, &key, seed, seed + n, seed + 2 * n, &opts)
                  : grove_xmss_keygen(p, &key, &opts);
    cli_free_secret(seed, seedlen);
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES], id[GROVE_ENVELOPE_KEY_ID_BYTES];
    char err[GROVE_XMSS_ERR_CAP] = "";
    if (st == GROVE_OK)
        st = grove_xmss_key_public_key(key, pk);
    if (st != GROVE_OK) {
        rc = cli_fail_status(c, st, "key generation failed");
    } else {
        st = grove_xmss_keyfile_create(keypath, reg, key, key_form(c), err, sizeof err);
        if (st != GROVE_OK)
            rc = keyfile_fail(c, st, err);
    }
    grove_xmss_key_free(key);
    grove_registry_close(reg);
    if (rc == 0)
        rc = env_key_id(c, p, pk, id);
    if (rc == 0)
        rc = write_env(c, pubpath, p, T_PK, pk, grove_xmss_pk_bytes(p), id);
    if (rc)
        return rc;
    char hex[17];
    grove_envelope_key_id_hex(hex, id);
    uint64_t total = grove_xmss_total_signatures(p);
    cli_out_str(c, "params", grove_xmss_params_name(p));
    cli_out_str(c, "family", grove_xmss_params_family(p) ? "XMSSMT" : "XMSS");
    cli_out_u64(c, "oid", grove_xmss_params_oid(p));
    cli_out_hex(c, "public_key", pk, grove_xmss_pk_bytes(p));
    cli_out_str(c, "key_id", hex);
    cli_out_u64(c, "signatures", total);
    cli_say(c, "%s key pair, key id %s: public key %s, private key %s (mode 0600), %llu "
               "signatures.",
            grove_xmss_params_name(p), hex, pubpath, keypath, (unsigned long long)total);
    cli_say(c, "The private key is stateful: never copy it or restore it from a backup; use "
               "'grove xmss split' to share the index range with another signer (docs/xmss.md).");
    return 0;
}

/* ---- families and parameter sets of raw public keys ---------------------------------------- */

/* --family / --params: the family (-1 if neither) and the pinned set (NULL if none). */
static int family_opt(cli_ctx *c, int *family, const grove_xmss_params **pin)
{
    const char *f = cli_opt_str(c, "family");
    *family = -1;
    *pin = NULL;
    if (cli_opt_str(c, "params") != NULL) {
        *pin = lookup(c, NULL);
        if (*pin == NULL)
            return CLI_EXIT_USAGE;
        *family = (int)grove_xmss_params_family(*pin);
    }
    if (f == NULL)
        return 0;
    int want;
    if (strcasecmp(f, "xmss") == 0)
        want = GROVE_XMSS_FAMILY_XMSS;
    else if (strcasecmp(f, "xmssmt") == 0 || strcasecmp(f, "xmss^mt") == 0)
        want = GROVE_XMSS_FAMILY_XMSSMT;
    else
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--family must be xmss or xmssmt");
    if (*pin != NULL && want != *family)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--family %s contradicts --params %s (an %s set)",
                        f, grove_xmss_params_name(*pin), family_name(*family));
    *family = want;
    return 0;
}

/*
 * The parameter set of a raw public key. The family comes from --family/--params; else from
 * the bytes: the families in which the key parses, narrowed by the signature length (siglen,
 * 0 if none); if both remain, the bytes cannot tell and the user is asked. --params pins the
 * exact set. Returns 0 or an exit code (2).
 */
static int pk_params(cli_ctx *c, const char *pubpath, const uint8_t *pk, size_t pklen,
                     size_t siglen, int family, const grove_xmss_params *pin,
                     const grove_xmss_params **out)
{
    const grove_xmss_params *cand[2] = {NULL, NULL};
    int ncand = 0, st = GROVE_ERR_ENCODING;
    for (int f = 0; f < 2; f++) {
        if (family >= 0 && f != family)
            continue;
        int r = grove_xmss_pk_params((grove_xmss_family)f, &cand[f], pk, pklen);
        if (r == GROVE_OK)
            ncand++;
        else if (r == GROVE_ERR_UNSUPPORTED || st != GROVE_ERR_UNSUPPORTED)
            st = r;
    }
    uint32_t oid = pklen >= 4 ? ((uint32_t)pk[0] << 24 | (uint32_t)pk[1] << 16 |
                                 (uint32_t)pk[2] << 8 | pk[3])
                              : 0;
    if (ncand == 0)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: not an %s public key (%s)", pubpath,
                        family >= 0 ? family_name(family) : "XMSS or XMSS^MT",
                        st == GROVE_ERR_UNSUPPORTED
                            ? "unknown OID"
                            : "its length fits no parameter set with its OID");
    if (ncand == 2 && siglen > 0) {
        int m0 = grove_xmss_sig_bytes(cand[0]) == siglen,
            m1 = grove_xmss_sig_bytes(cand[1]) == siglen;
        if (m0 != m1)
            cand[m0 ? 1 : 0] = NULL, ncand = 1;
    }
    if (ncand == 2)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s: OID 0x%08x is %s in the XMSS family and %s in the XMSS^MT family, "
                        "and the bytes cannot tell which: give --family xmss or --family xmssmt "
                        "(or --params NAME)",
                        pubpath, oid, grove_xmss_params_name(cand[0]),
                        grove_xmss_params_name(cand[1]));
    const grove_xmss_params *p = cand[0] ? cand[0] : cand[1];
    if (pin != NULL && p != pin)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s is a %s public key (OID 0x%08x), not %s as --params asks", pubpath,
                        grove_xmss_params_name(p), oid, grove_xmss_params_name(pin));
    *out = p;
    return 0;
}



/* A grove envelope given where a private key file is expected: exit 2 naming what it is. */
static int refuse_envelope_as_key(cli_ctx *c, const char *opt, const char *path)
{
    if (!is_envelope(path))
        return 0;
    cli_file f;
    int rc = cli_read_grove_file(c, path, NULL, NULL, SIG_FILE_MAX, 0, &f);
    if (rc)
        return rc;
    rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                  "%s is a grove %s %s%s%s, %s needs an XMSS private key file", path,
                  f.env.scheme, f.env.type, f.env.set[0] ? " of set " : "", f.env.set, opt);
    cli_file_free(&f);
    return rc;
}


/* ---- sign ------------------------------------------------------------------------------------------ */

/* Hash the message (fd) into the context; 0 or an exit code. */
static int hash_message(cli_ctx *c, int mfd, const char *msgpath, grove_xmss_sign_ctx *sc,
                        uint64_t idx)
{
    uint8_t *chunk = malloc(1u << 16);
    if (chunk == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory (index %llu is now "
                        "used up)", (unsigned long long)idx);
    int rc = 0;
    for (;;) {
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
        int st = grove_xmss_sign_update(sc, chunk, (size_t)r);
        if (st != GROVE_OK) {
            rc = cli_fail_status(c, st, "hashing the message failed");
            break;
        }
    }
    free(chunk);
    return rc;
}

/* Reserve an index, hash the message, sign and verify the signature; 0 or an exit code. */
static int sign_checked(cli_ctx *c, grove_xmss_keyfile *kf, const char *keypath, int mfd,
                        const char *msgpath, uint8_t *sig, uint64_t *idx)
{
    grove_xmss_sign_ctx *sc = NULL;
    grove_xmss_state_info info;
    int st = grove_xmss_keyfile_info(kf, &info);
    if (st != GROVE_OK)
        return cli_fail_status(c, st, "reading the key file's state failed");
    st = grove_xmss_key_sign_begin(grove_xmss_keyfile_key(kf), &sc, idx);
    if (st == GROVE_ERR_EXHAUSTED)
        return cli_fail(c, CLI_EXIT_STATE, st,
                        "%s is exhausted: every index of its range [%llu, %llu) has been used; "
                        "sign with another key (or a part split off earlier)",
                        keypath, (unsigned long long)info.range_start,
                        (unsigned long long)info.range_end);
    if (st == GROVE_ERR_STORAGE)
        return cli_fail(c, CLI_EXIT_STATE, st, "could not reserve an index (nothing signed): %s",
                        grove_xmss_keyfile_error(kf));
    if (st != GROVE_OK)
        return cli_fail_status(c, st, "signing failed");
    /* the index is reserved durably: hash the message, then sign */
    int rc = hash_message(c, mfd, msgpath, sc, *idx);
    if (rc) {
        grove_xmss_sign_abort(sc);
        return rc;
    }
    st = grove_xmss_sign_finish_checked(sc, sig);
    if (st == GROVE_ERR_INTERNAL)
        return cli_fail(c, CLI_EXIT_USAGE, st,
                        "the signature made with index %llu does not verify with the key's "
                        "public key (a fault in the signer or a damaged key cache): nothing was "
                        "written and the index is used up; check the machine and the key file",
                        (unsigned long long)*idx);
    if (st != GROVE_OK)
        return cli_fail_status(c, st, "signing failed");
    return 0;
}


static int cmd_sign(cli_ctx *c)
{
    const char *keypath = cli_require(c, "sk"), *msgpath = cli_require(c, "msg");
    const char *outpath = cli_require(c, "sig");
    if (!keypath || !msgpath || !outpath)
        return CLI_EXIT_USAGE;
    unsigned threads;
    if (threads_opt(c, &threads))
        return CLI_EXIT_USAGE;
    int from_stdin = strcmp(msgpath, "-") == 0;
    /* closed when grove started (then reopened on /dev/null by main): refuse before an index
     * is reserved rather than sign an empty message nobody gave */
    if (from_stdin && (cli_std_was_closed(0) || fcntl(0, F_GETFD) < 0))
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO,
                        "--msg -: standard input is closed; give the message on stdin or as a "
                        "file");
    const char *ins[] = {keypath, msgpath};
    if (cli_refuse_same_file(c, "--sig", outpath, ins, 2))
        return CLI_EXIT_USAGE;
    /* open the message before an index is reserved */
    int mfd = from_stdin ? 0 : open(msgpath, O_RDONLY | O_CLOEXEC);
    if (mfd < 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot open %s: %s", msgpath,
                        strerror(errno));
    grove_registry *reg = NULL;
    grove_xmss_keyfile *kf = NULL;
    int rc = refuse_envelope_as_key(c, "--sk", keypath);
    if (rc == 0)
        rc = open_registry(c, &reg);
    if (rc == 0)
        rc = open_key(c, keypath, reg, 0, threads, &kf);
    if (rc == 0) {
        /* the registry entry too (checked once the key, hence its entry, is known) */
        const char *state[] = {keypath, msgpath, grove_xmss_keyfile_entry_path(kf)};
        rc = cli_refuse_same_file(c, "--sig", outpath, state, 3);
    }
    const grove_xmss_params *p = kf ? grove_xmss_key_params(grove_xmss_keyfile_key(kf)) : NULL;
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES], id[GROVE_ENVELOPE_KEY_ID_BYTES];
    /* --params and the key id are settled before an index is reserved */
    if (rc == 0)
        rc = check_key_params(c, keypath, p);
    if (rc == 0 && grove_xmss_key_public_key(grove_xmss_keyfile_key(kf), pk) != GROVE_OK)
        rc = cli_fail_status(c, GROVE_ERR_INTERNAL, "reading the key's public key failed");
    if (rc == 0)
        rc = env_key_id(c, p, pk, id);
    uint8_t *sig = rc == 0 ? malloc(grove_xmss_sig_bytes(p)) : NULL;
    uint64_t idx = 0, remaining = 0;
    if (rc == 0 && sig == NULL)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    if (rc == 0)
        rc = sign_checked(c, kf, keypath, mfd, msgpath, sig, &idx);
    if (kf)
        remaining = grove_xmss_key_remaining(grove_xmss_keyfile_key(kf));
    if (rc == 0)
        rc = write_env(c, outpath, p, T_SIG, sig, grove_xmss_sig_bytes(p), id);
    grove_xmss_keyfile_close(kf);
    grove_registry_close(reg);
    if (!from_stdin)
        close(mfd);
    free(sig);
    if (rc)
        return rc;
    char hex[17];
    grove_envelope_key_id_hex(hex, id);
    cli_out_str(c, "params", grove_xmss_params_name(p));
    cli_out_str(c, "key_id", hex);
    cli_out_u64(c, "index", idx);
    cli_out_u64(c, "remaining", remaining);
    cli_say(c, "signed with index %llu (%llu signatures left): %s", (unsigned long long)idx,
            (unsigned long long)remaining, outpath);
    if (remaining == 0)
        cli_say(c, "the key is now exhausted");
    return 0;
}

/* ---- verify ---------------------------------------------------------------------------------------- */

static int cmd_verify(cli_ctx *c)
{
    const char *pubpath = cli_require(c, "pk"), *msgpath = cli_require(c, "msg");
    const char *sigpath = cli_require(c, "sig");
    if (!pubpath || !msgpath || !sigpath)
        return CLI_EXIT_USAGE;
    const grove_xmss_params *p = NULL, *ps = NULL;
    cli_file pk = {0}, sig = {0};
    uint8_t *msg = NULL;
    size_t msglen = 0;
    int rc = read_pk(c, pubpath, &pk, &p);
    if (rc == 0)
        rc = cli_check_params(c, pubpath, &pk.env);
    if (rc == 0)
        rc = read_sig(c, sigpath, &sig, &ps);
    if (rc == 0)
        rc = cli_check_params(c, sigpath, &sig.env);
    if (rc == 0 && ps != p)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                      "%s is a signature of set %s, %s a public key of set %s", sigpath,
                      grove_xmss_params_name(ps), pubpath, grove_xmss_params_name(p));
    if (rc == 0)
        rc = cli_check_key_id(c, &pk, pubpath, &sig, sigpath);
    if (rc == 0)
        rc = cli_read_file(c, msgpath, CLI_MAX_INPUT, &msg, &msglen);
    if (rc == 0) {
        int st = grove_xmss_verify(grove_xmss_params_family(p), sig.env.body, sig.env.body_len,
                                   msg, msglen, pk.env.body, pk.env.body_len);
        char hex[17];
        grove_envelope_key_id_hex(hex, pk.env.key_id);
        uint64_t idx = 0;
        if (grove_xmss_sig_index(p, &idx, sig.env.body, sig.env.body_len) != GROVE_OK &&
            st == GROVE_OK)
            st = GROVE_ERR_INTERNAL; /* a verified signature has the set's length */
        cli_out_str(c, "params", grove_xmss_params_name(p));
        cli_out_str(c, "key_id", hex);
        cli_out_bool(c, "valid", st == GROVE_OK);
        cli_out_u64(c, "index", idx);
        if (st == GROVE_OK)
            cli_say(c, "signature valid (key id %s)", hex);
        else
            rc = cli_fail(c, cli_exit_for_status(st), st,
                          "signature INVALID: it does not verify for this message and key id "
                          "%s (%s, index %llu)",
                          hex, grove_xmss_params_name(p), (unsigned long long)idx);
    }
    cli_file_free(&pk);
    cli_file_free(&sig);
    free(msg);
    return rc;
}

/* ---- info ------------------------------------------------------------------------------------------ */

/* The registry's view of a key file; returns 0, or exit 3 for a stale / conflicting file. */
static int info_registry(cli_ctx *c, const char *keypath, const grove_xmss_state_info *info)
{
    if (cli_opt_flag(c, "no-registry"))
        return 0;
    grove_registry *reg = NULL;
    char root[PATH_MAX];
    int rc = registry_root(c, root, sizeof root);
    if (rc)
        return rc;
    int st = grove_registry_open(&reg, root[0] ? root : NULL);
    if (st != GROVE_OK) {
        cli_say(c, "  registry         unavailable (%s)", grove_strerror(st));
        return 0;
    }
    grove_xmss_record rec;
    st = grove_xmss_record_read(reg, &rec, info->key_id);
    grove_registry_close(reg);
    if (st != GROVE_OK && st != GROVE_ERR_NOT_FOUND) {
        cli_out_str(c, "registry", "damaged");
        return cli_fail(c, CLI_EXIT_STATE, st,
                        "the state registry entry of %s is damaged: the key cannot be used until "
                        "it is repaired or removed",
                        keypath);
    }
    char why[GROVE_XMSS_ERR_CAP];
    grove_xmss_file_verdict v =
        grove_xmss_file_check(info, st == GROVE_OK ? &rec : NULL, why, sizeof why);
    static const char *const names[] = {"current", "unregistered", "split_pending", "stale",
                                        "conflict"};
    cli_out_str(c, "registry", names[v]);
    if (st == GROVE_OK) {
        cli_out_u64(c, "registry_high_water", rec.high_water);
        if (!rec.legacy) {
            cli_out_u64(c, "registry_range_end", rec.range_end);
            cli_out_u64(c, "registry_generation", rec.generation);
            cli_out_u64(c, "registry_splits", rec.nsplits);
        }
        cli_say(c, "  registry         high-water mark %llu%s", (unsigned long long)rec.high_water,
                rec.legacy ? " (grove 0.1 entry: range unknown)" : "");
        if (!rec.legacy)
            cli_say(c, "                   range [%llu, %llu), split generation %u%s",
                    (unsigned long long)rec.range_start, (unsigned long long)rec.range_end,
                    rec.generation, rec.pending ? ", a split in progress" : "");
        for (size_t i = 0; i < rec.nsplits; i++) {
            char hex[KEY_ID_HEX];
            key_id_hex(hex, rec.splits[i].child_id);
            cli_say(c, "  split %-10u [%llu, %llu) to state id %s", rec.splits[i].generation,
                    (unsigned long long)rec.splits[i].start,
                    (unsigned long long)rec.splits[i].end, hex);
        }
    }
    grove_xmss_record_free(&rec);
    if (v == GROVE_XMSS_FILE_STALE || v == GROVE_XMSS_FILE_CONFLICT) {
        cli_say(c, "  THIS FILE IS %s: do not sign with it",
                v == GROVE_XMSS_FILE_STALE ? "STALE" : "NOT THIS KEY'S");
        return cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_STATE, "%s: %s", keypath, why);
    }
    cli_say(c, "  state            %s", why);
    return 0;
}


static int info_key(cli_ctx *c, const char *keypath)
{
    grove_xmss_state_info info;
    char err[GROVE_XMSS_ERR_CAP] = "";
    int st = grove_xmss_keyfile_read_info(&info, keypath, err, sizeof err);
    if (st != GROVE_OK)
        return keyfile_fail(c, st, err);
    char id[17];
    int rc = info_key_id(c, &info, id);
    if (rc)
        return rc;
    /* what every grove file says (grove info), then the key's state */
    cli_file f;
    rc = cli_read_grove_file(c, keypath, SCHEME, "SECRET KEY", CLI_MAX_INPUT, 1, &f);
    if (rc)
        return rc;
    cli_describe_file(c, keypath, &f);
    cli_file_free(&f);
    if (info.form == GROVE_ENVELOPE_XMSS_KEY_FILE)
        cli_say(c, "  a bare key file of an older grove: its next use (sign, split, recover) "
                   "rewrites it as a binary grove envelope");
    out_key_info(c, &info, NULL);
    cli_out_bool(c, "sp800_208_approved_set", grove_xmss_params_sp800_208(info.params));
    char hex[KEY_ID_HEX];
    key_id_hex(hex, info.key_id);
    const char *fam = family_name((int)grove_xmss_params_family(info.params));
    cli_say(c, "  %s private key (stateful), OID 0x%08x", fam, grove_xmss_params_oid(info.params));
    cli_say(c, "  state id         %s (its state registry entry)", hex);
    cli_say(c, "  index range      [%llu, %llu), split generation %u%s",
            (unsigned long long)info.range_start, (unsigned long long)info.range_end,
            info.generation, info.has_parent ? " (a split part)" : "");
    cli_say(c, "  next index       %llu%s", (unsigned long long)info.high_water,
            info.high_water > info.index ? " (reserved but possibly unused indices skipped)" : "");
    cli_say(c, "  remaining        %llu signatures%s", (unsigned long long)info.remaining,
            info.exhausted ? " (exhausted; secret seeds erased)" : "");
    return info_registry(c, keypath, &info);
}

/* info on an envelope: a public key or a signature. */
static int info_env(cli_ctx *c, const char *path)
{
    cli_file f;
    int rc = cli_read_grove_file(c, path, SCHEME, NULL, SIG_FILE_MAX, 0, &f);
    if (rc)
        return rc;
    const grove_xmss_params *p = NULL;
    int is_pk = strcmp(f.env.type, T_PK) == 0, is_sig = strcmp(f.env.type, T_SIG) == 0;
    if (is_pk)
        rc = check_pk(c, path, &f, &p);
    else if (is_sig)
        rc = check_sig(c, path, &f, &p);
    else
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                      "%s is a grove XMSS %s: not a file grove xmss knows", path, f.env.type);
    if (rc == 0) {
        cli_describe_file(c, path, &f);
        cli_out_str(c, "family", grove_xmss_params_family(p) ? "XMSSMT" : "XMSS");
        cli_out_u64(c, "oid", grove_xmss_params_oid(p));
        cli_out_u64(c, "pk_bytes", grove_xmss_pk_bytes(p));
        cli_out_u64(c, "sig_bytes", grove_xmss_sig_bytes(p));
        cli_say(c, "  %s family, OID 0x%08x; public key %zu bytes, signature %zu bytes",
                family_name((int)grove_xmss_params_family(p)), grove_xmss_params_oid(p),
                grove_xmss_pk_bytes(p), grove_xmss_sig_bytes(p));
    }
    if (rc == 0 && is_pk) {
        cli_out_hex(c, "public_key", f.env.body, f.env.body_len);
        cli_out_u64(c, "signatures", grove_xmss_total_signatures(p));
        cli_say(c, "  %llu signatures in all (indices [0, %llu))",
                (unsigned long long)grove_xmss_total_signatures(p),
                (unsigned long long)grove_xmss_total_signatures(p));
    } else if (rc == 0) {
        uint64_t idx = 0;
        if (grove_xmss_sig_index(p, &idx, f.env.body, f.env.body_len) != GROVE_OK)
            rc = sig_length_error(c, path, f.env.body_len, p);
        else {
            cli_out_u64(c, "signature_index", idx);
            cli_say(c, "  signature index  %llu", (unsigned long long)idx);
        }
    }
    cli_file_free(&f);
    return rc;
}

static int cmd_info(cli_ctx *c)
{
    const char *path = cli_require(c, "file");
    if (path == NULL)
        return CLI_EXIT_USAGE;
    return is_envelope(path) ? info_env(c, path) : info_key(c, path);
}

/* ---- export and import ------------------------------------------------------------------------- */

enum { FMT_RAW, FMT_DER, FMT_PEM };

static int format_opt(cli_ctx *c, int *fmt_out)
{
    const char *f = cli_require(c, "format");
    if (f == NULL)
        return CLI_EXIT_USAGE;
    if (strcasecmp(f, "raw") == 0)
        *fmt_out = FMT_RAW;
    else if (strcasecmp(f, "der") == 0)
        *fmt_out = FMT_DER;
    else if (strcasecmp(f, "pem") == 0)
        *fmt_out = FMT_PEM;
    else
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--format must be raw, der or pem (not '%s')", f);
    return 0;
}

/*
 * The object: --sk, --sig or --pk; *which = 'k', 's' or 'p'. import of a raw signature may give
 * --pk besides --sig (pk_with_sig): the public key the signature belongs to.
 */
static int object_opt(cli_ctx *c, int pk_with_sig, int *which, const char **path)
{
    const char *pk = cli_opt_str(c, "pk"), *sig = cli_opt_str(c, "sig"), *sk = cli_opt_str(c, "sk");
    int n = (pk != NULL && !(pk_with_sig && sig != NULL)) + (sig != NULL) + (sk != NULL);
    if (n != 1)
        return cli_fail(c, CLI_EXIT_USAGE, 0,
                        "give one of --pk FILE, --sig FILE%s or --sk FILE",
                        pk_with_sig ? " (with the --pk it belongs to)" : "");
    *which = sk ? 'k' : sig ? 's' : 'p';
    *path = sk ? sk : sig ? sig : pk;
    return 0;
}

static int refuse_secret_key(cli_ctx *c, const char *verb)
{
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                    "an XMSS private key is not %s: it is stateful, and a copy in another file "
                    "could sign an index a second time (a forgery risk). To let another signer "
                    "sign, give it a part of the index range with 'grove xmss split'",
                    verb);
}

static int no_standard_sig_encoding(cli_ctx *c)
{
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                    "no standard DER encoding exists for XMSS signatures: use --format raw (the "
                    "RFC 8391 layout)");
}

/* A public key as SPKI DER (der of GROVE_PKIX_XMSS_MAX_SPKI_BYTES) or PEM; writes out. */
static int export_pk_std(cli_ctx *c, const char *out, const grove_xmss_params *p,
                         const uint8_t *pk, int fmt_)
{
    uint8_t der[GROVE_PKIX_XMSS_MAX_SPKI_BYTES];
    char pem[512];
    size_t dlen = 0, plen = 0;
    int st = grove_pkix_xmss_pk_to_der(grove_xmss_params_family(p), der, sizeof der, &dlen, pk,
                                       grove_xmss_pk_bytes(p));
    if (st == GROVE_OK && fmt_ == FMT_PEM)
        st = grove_pkix_pem_encode(pem, sizeof pem, &plen, GROVE_PKIX_PEM_PUBLIC_KEY, der, dlen);
    if (st != GROVE_OK)
        return cli_fail_status(c, st, "encoding the public key");
    return fmt_ == FMT_PEM ? cli_write_file(c, out, (const uint8_t *)pem, plen, 0)
                           : cli_write_file(c, out, der, dlen, 0);
}

static int cmd_export(cli_ctx *c)
{
    int fmt_ = FMT_RAW, which = 0;
    const char *in = NULL, *out = NULL;
    int rc = object_opt(c, 0, &which, &in);
    if (rc)
        return rc;
    if (which == 'k')
        return refuse_secret_key(c, "exported");
    if (format_opt(c, &fmt_))
        return CLI_EXIT_USAGE;
    if ((out = cli_require(c, "out")) == NULL)
        return CLI_EXIT_USAGE;
    if (which == 's' && fmt_ != FMT_RAW)
        return no_standard_sig_encoding(c);
    const char *ins[] = {in};
    if (cli_refuse_same_file(c, "--out", out, ins, 1))
        return CLI_EXIT_USAGE;
    cli_file f;
    const grove_xmss_params *p = NULL;
    rc = which == 'p' ? read_pk(c, in, &f, &p) : read_sig(c, in, &f, &p);
    if (rc)
        return rc;
    if (fmt_ == FMT_RAW)
        rc = cli_write_file(c, out, f.env.body, f.env.body_len, 0);
    else
        rc = export_pk_std(c, out, p, f.env.body, fmt_);
    if (rc == 0) {
        char hex[17];
        grove_envelope_key_id_hex(hex, f.env.key_id);
        cli_out_str(c, "params", grove_xmss_params_name(p));
        cli_out_str(c, "type", f.env.type);
        if (f.env.has_key_id)
            cli_out_str(c, "key_id", hex);
        cli_out_str(c, "format", cli_opt_str(c, "format"));
        cli_say(c, "%s: XMSS %s of set %s exported as %s", out, f.env.type,
                grove_xmss_params_name(p), fmt_ == FMT_RAW ? "raw RFC 8391 bytes"
                                           : fmt_ == FMT_DER ? "SubjectPublicKeyInfo (DER)"
                                                             : "SubjectPublicKeyInfo (PEM)");
    }
    cli_file_free(&f);
    return rc;
}

/* Import a public key (raw RFC 8391, or SPKI DER/PEM per RFC 9802). */
static int import_pk(cli_ctx *c, const char *in, const char *out, int fmt_)
{
    int family;
    const grove_xmss_params *pin = NULL, *p = NULL;
    int rc = family_opt(c, &family, &pin);
    if (rc)
        return rc;
    uint8_t *buf = NULL, pk[GROVE_XMSS_MAX_PK_BYTES], der[1024];
    size_t len = 0, pklen = 0, dlen = 0;
    rc = cli_read_file(c, in, fmt_ == FMT_RAW ? GROVE_XMSS_MAX_PK_BYTES : sizeof der * 2, &buf,
                       &len);
    if (rc)
        return rc;
    if (fmt_ == FMT_RAW) {
        pklen = len;
        memcpy(pk, buf, len);
    } else {
        int st = GROVE_OK;
        grove_xmss_family fam = GROVE_XMSS_FAMILY_XMSS;
        if (fmt_ == FMT_PEM)
            st = grove_pkix_pem_decode(der, sizeof der, &dlen, GROVE_PKIX_PEM_PUBLIC_KEY,
                                       (const char *)buf, len);
        else if (len <= sizeof der)
            memcpy(der, buf, dlen = len);
        else
            st = GROVE_ERR_ENCODING;
        if (st == GROVE_OK)
            st = grove_pkix_xmss_pk_from_der(&fam, pk, sizeof pk, &pklen, der, dlen);
        if (st != GROVE_OK)
            rc = cli_fail(c, CLI_EXIT_USAGE, st,
                          "%s is not an XMSS or XMSS^MT SubjectPublicKeyInfo (RFC 9802) in %s: %s",
                          in, fmt_ == FMT_PEM ? "PEM" : "DER", grove_strerror(st));
        else if (family >= 0 && (int)fam != family)
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                          "%s is an %s public key, not %s as --params/--family say", in,
                          family_name((int)fam), family_name(family));
        family = (int)fam;
    }
    free(buf);
    if (rc == 0)
        rc = pk_params(c, in, pk, pklen, 0, family, pin, &p);
    if (rc == 0)
        rc = write_pk(c, out, p, pk);
    if (rc == 0) {
        uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES];
        char hex[17];
        if (env_key_id(c, p, pk, id) == 0) {
            grove_envelope_key_id_hex(hex, id);
            cli_out_str(c, "params", grove_xmss_params_name(p));
            cli_out_str(c, "key_id", hex);
            cli_say(c, "%s: grove XMSS PUBLIC KEY, set %s, key id %s", out,
                    grove_xmss_params_name(p), hex);
        }
    }
    return rc;
}

/* Import a raw RFC 8391 signature; its set from --params or --pk (which gives its key id too). */
static int import_sig(cli_ctx *c, const char *in, const char *out)
{
    const char *pkpath = cli_opt_str(c, "pk");
    const grove_xmss_params *p = NULL;
    cli_file pk = {0};
    int rc = 0;
    if (pkpath != NULL) {
        rc = read_pk(c, pkpath, &pk, &p);
        if (rc == 0)
            rc = cli_check_params(c, pkpath, &pk.env);
    } else if (cli_opt_str(c, "params") != NULL) {
        p = lookup(c, NULL);
        rc = p ? 0 : CLI_EXIT_USAGE;
    } else {
        rc = cli_fail(c, CLI_EXIT_USAGE, 0,
                      "a raw XMSS signature does not name its parameter set: give --params SET "
                      "or --pk FILE (the public key, which also gives the key id)");
    }
    uint8_t *sig = NULL;
    size_t len = 0;
    if (rc == 0)
        rc = cli_read_file(c, in, grove_xmss_sig_bytes(p), &sig, &len);
    if (rc == 0 && len != grove_xmss_sig_bytes(p))
        rc = sig_length_error(c, in, len, p);
    if (rc == 0)
        rc = write_env(c, out, p, T_SIG, sig, len, pkpath ? pk.env.key_id : NULL);
    if (rc == 0) {
        uint64_t idx = 0;
        if (grove_xmss_sig_index(p, &idx, sig, len) != GROVE_OK)
            idx = 0;
        cli_out_str(c, "params", grove_xmss_params_name(p));
        cli_out_u64(c, "signature_index", idx);
        cli_say(c, "%s: grove XMSS SIGNATURE, set %s, index %llu%s", out,
                grove_xmss_params_name(p), (unsigned long long)idx,
                pkpath ? "" : " (no key id: give --pk to record it)");
    }
    free(sig);
    cli_file_free(&pk);
    return rc;
}

static int cmd_import(cli_ctx *c)
{
    int fmt_ = FMT_RAW, which = 0;
    const char *in = NULL, *out = NULL;
    int rc = object_opt(c, 1, &which, &in);
    if (rc)
        return rc;
    if (which == 'k')
        return refuse_secret_key(c, "imported");
    if (format_opt(c, &fmt_))
        return CLI_EXIT_USAGE;
    if ((out = cli_require(c, "out")) == NULL)
        return CLI_EXIT_USAGE;
    if (which == 's' && fmt_ != FMT_RAW)
        return no_standard_sig_encoding(c);
    const char *ins[] = {in, cli_opt_str(c, "pk")};
    if (cli_refuse_same_file(c, "--out", out, ins, 2))
        return CLI_EXIT_USAGE;
    return which == 'p' ? import_pk(c, in, out, fmt_) : import_sig(c, in, out);
}

/* ---- split ------------------------------------------------------------------------------------------ */

static int cmd_split(cli_ctx *c)
{
    const char *keypath = cli_require(c, "sk"), *outpath = cli_require(c, "out");
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
    const char *ins[] = {keypath};
    if (cli_refuse_same_file(c, "--out", outpath, ins, 1))
        return CLI_EXIT_USAGE;
    if (same_path(keypath, outpath))
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                        "--out %s is the same file as --sk: give a new file for the part",
                        outpath);
    struct stat sb;
    if (lstat(outpath, &sb) == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_EXISTS,
                        "%s already exists: refusing to overwrite it (give a new file)", outpath);
    grove_registry *reg = NULL;
    grove_xmss_keyfile *kf = NULL;
    int rc = refuse_envelope_as_key(c, "--sk", keypath);
    if (rc == 0)
        rc = open_registry(c, &reg);
    if (rc == 0)
        rc = open_key(c, keypath, reg, 0, threads, &kf);
    uint64_t s = 0, e = 0;
    if (rc == 0) {
        progress_state ps = {c, "split", -1};
        grove_xmss_opts opts = {.threads = threads, .progress = progress_cb, .progress_arg = &ps};
        char err[GROVE_XMSS_ERR_CAP] = "";
        int st = grove_xmss_keyfile_split(kf, &s, &e, count, outpath, key_form(c), &opts, err,
                                          sizeof err);
        if (st != GROVE_OK)
            rc = keyfile_fail(
                c, st == GROVE_ERR_IO || st == GROVE_ERR_EXISTS ? GROVE_ERR_STATE : st, err);
    }
    grove_xmss_state_info info;
    if (rc == 0 && grove_xmss_keyfile_info(kf, &info) != GROVE_OK)
        rc = cli_fail_status(c, GROVE_ERR_INTERNAL, "reading the key file's state failed");
    grove_xmss_keyfile_close(kf);
    grove_registry_close(reg);
    if (rc)
        return rc;
    cli_out_u64(c, "new_range_start", s);
    cli_out_u64(c, "new_range_end", e);
    cli_out_u64(c, "range_start", info.range_start);
    cli_out_u64(c, "range_end", info.range_end);
    cli_out_u64(c, "generation", info.generation);
    cli_say(c, "%s now signs indices [%llu, %llu); %s signs [%llu, %llu).", keypath,
            (unsigned long long)info.range_start, (unsigned long long)info.range_end, outpath,
            (unsigned long long)s, (unsigned long long)e);
    return 0;
}

/* ---- recover ------------------------------------------------------------------------------------------ */

static int cmd_recover(cli_ctx *c)
{
    const char *keypath = cli_require(c, "sk");
    if (!keypath)
        return CLI_EXIT_USAGE;
    unsigned threads;
    if (threads_opt(c, &threads))
        return CLI_EXIT_USAGE;
    if (cli_opt_flag(c, "no-registry"))
        return cli_fail(c, CLI_EXIT_USAGE, 0,
                        "recover brings a key file forward to its state registry entry: it "
                        "cannot run with --no-registry");
    grove_xmss_state_info before, after;
    char err[GROVE_XMSS_ERR_CAP] = "";
    if (refuse_envelope_as_key(c, "--sk", keypath))
        return CLI_EXIT_USAGE;
    int st = grove_xmss_keyfile_read_info(&before, keypath, err, sizeof err);
    if (st != GROVE_OK)
        return keyfile_fail(c, st, err);
    grove_registry *reg = NULL;
    grove_xmss_keyfile *kf = NULL;
    int rc = open_registry(c, &reg);
    if (rc == 0)
        rc = open_key(c, keypath, reg, GROVE_XMSS_KEYFILE_RECOVER, threads, &kf);
    int changed = kf ? grove_xmss_keyfile_changed(kf) : 0;
    if (rc == 0 && grove_xmss_keyfile_info(kf, &after) != GROVE_OK)
        rc = cli_fail_status(c, GROVE_ERR_INTERNAL, "reading the key file's state failed");
    grove_xmss_keyfile_close(kf);
    grove_registry_close(reg);
    if (rc)
        return rc;
    char id[17];
    if (info_key_id(c, &after, id))
        return CLI_EXIT_USAGE;
    cli_out_bool(c, "changed", changed);
    out_key_info(c, &after, id);
    if (!changed) {
        cli_say(c, "%s already agrees with the state registry: nothing to do", keypath);
        return 0;
    }
    cli_say(c, "%s brought forward to the state registry:", keypath);
    cli_say(c, "  high-water mark  %llu -> %llu", (unsigned long long)before.high_water,
            (unsigned long long)after.high_water);
    cli_say(c, "  range            [%llu, %llu) -> [%llu, %llu)",
            (unsigned long long)before.range_start, (unsigned long long)before.range_end,
            (unsigned long long)after.range_start, (unsigned long long)after.range_end);
    cli_say(c, "  split generation %u -> %u", before.generation, after.generation);
    cli_say(c, "  remaining        %llu signatures", (unsigned long long)after.remaining);
    return 0;
}

/* ---- params ----------------------------------------------------------------------------------------- */

static int cmd_params(cli_ctx *c)
{
    cli_say(c, "%-26s %-7s %-4s %-13s %3s %3s %3s %7s %4s %s", "name", "family", "oid", "hash", "n",
            "h", "d", "sig", "pk", "SP 800-208");
    cli_out_begin_array(c, "parameter_sets");
    for (size_t i = 0; i < grove_xmss_params_count(); i++) {
        const grove_xmss_params *p = grove_xmss_params_at(i);
        const char *fam = grove_xmss_params_family(p) ? "XMSSMT" : "XMSS";
        int dflt = strcmp(grove_xmss_params_name(p), DEFAULT_SET) == 0;
        cli_say(c, "%-26s %-7s 0x%02x %-13s %3u %3u %3u %7zu %4zu %s%s", grove_xmss_params_name(p),
                fam, grove_xmss_params_oid(p), grove_xmss_params_hash(p), grove_xmss_params_n(p),
                grove_xmss_params_height(p), grove_xmss_params_layers(p), grove_xmss_sig_bytes(p),
                grove_xmss_pk_bytes(p), grove_xmss_params_sp800_208(p) ? "approved" : "-",
                dflt ? "  (default)" : "");
        cli_out_begin_object(c, NULL);
        cli_out_str(c, "name", grove_xmss_params_name(p));
        cli_out_str(c, "family", fam);
        cli_out_u64(c, "oid", grove_xmss_params_oid(p));
        cli_out_str(c, "hash", grove_xmss_params_hash(p));
        cli_out_u64(c, "n", grove_xmss_params_n(p));
        cli_out_u64(c, "h", grove_xmss_params_height(p));
        cli_out_u64(c, "d", grove_xmss_params_layers(p));
        cli_out_u64(c, "sig_bytes", grove_xmss_sig_bytes(p));
        cli_out_u64(c, "pk_bytes", grove_xmss_pk_bytes(p));
        cli_out_bool(c, "sp800_208", grove_xmss_params_sp800_208(p));
        cli_out_bool(c, "default", dflt);
        cli_out_end(c);
    }
    cli_out_end(c);
    cli_out_str(c, "default", DEFAULT_SET);
    return 0;
}

/* ---- the command table -------------------------------------------------------------------------------- */

#define STATE_OPTS                                                                             \
    {"state-dir", "DIR", "state registry folder (default $GROVE_STATE_DIR, else "             \
                         "~/.local/state/grove; XMSS entries are in its xmss/ folder)"},        \
    {"no-registry", NULL, "do not use the state registry (restored or copied key files are "  \
                          "then not detected)"}

static const cli_opt keygen_opts[] = {
    {"params", "SET", "parameter set (default " DEFAULT_SET "; see 'grove xmss params')"},
    {"pk", "FILE", "public key output (grove file: the RFC 8391 key OID || root || PUB_SEED)"},
    {"sk", "FILE", "private key output (grove's stateful key file, mode 0600; never "
                   "overwritten: must not exist)"},
    {"seed", "HEX", "3n bytes SK_SEED || SK_PRF || PUB_SEED (deterministic keys, for tests)"},
    {"threads", "N", "threads for key generation (default 0: one per CPU)"},
    {"binary", NULL, "write the public and private key files in the binary envelope (default: "
                     "armored text; the key file keeps its form when it is rewritten)"},
    STATE_OPTS,
    {NULL, NULL, NULL},
};
static const cli_opt sign_opts[] = {
    {"sk", "FILE", "private key file (updated in place before the signature is written)"},
    {"msg", "FILE", "message ('-' for stdin; read after the index is reserved)"},
    {"sig", "FILE", "signature output ('-' for stdout)"},
    {"params", "SET", "check that the key is of this set (it comes from the key file)"},
    {"binary", NULL, "write the signature in the binary envelope (default: armored text)"},
    {"threads", "N", "threads if the key's node cache must be rebuilt (default 0: one per CPU)"},
    STATE_OPTS,
    {NULL, NULL, NULL},
};
static const cli_opt verify_opts[] = {
    {"pk", "FILE", "public key (grove file)"},
    {"msg", "FILE", "message ('-' for stdin)"},
    {"sig", "FILE", "signature (grove file)"},
    {"params", "SET", "check that the key and signature are of this set (they say which)"},
    {NULL, NULL, NULL},
};
static const cli_opt info_opts[] = {
    {"file", "FILE", "a private key file (parameters, key id, range, high-water mark, the "
                     "registry's view), a public key or a signature (its index and key id)", 1},
    STATE_OPTS,
    {NULL, NULL, NULL},
};
static const cli_opt export_opts[] = {
    {"pk", "FILE", "a public key to export (raw RFC 8391 bytes, or SPKI per RFC 9802 as der/pem)"},
    {"sig", "FILE", "a signature to export (raw RFC 8391 bytes only)"},
    {"sk", "FILE", "refused: a stateful private key is never copied (use 'grove xmss split')"},
    {"format", "FMT", "raw, der or pem (der and pem: public keys only)"},
    {"out", "FILE", "output file ('-' for stdout)"},
    {NULL, NULL, NULL},
};
static const cli_opt import_opts[] = {
    {"format", "FMT", "raw (RFC 8391 bytes), der or pem (SPKI per RFC 9802; public keys only)"},
    {"pk", "FILE", "a public key to import; with --sig: the grove public key the signature "
                   "belongs to (gives its set and key id)"},
    {"sig", "FILE", "a raw signature to import (needs --params SET or --pk FILE: it carries no "
                    "OID)"},
    {"sk", "FILE", "refused: a stateful private key is never copied (use 'grove xmss split')"},
    {"params", "SET", "the parameter set (a raw signature; or a check of a public key's OID)"},
    {"family", "F", "xmss or xmssmt: for a raw public key whose OID both families use (or give "
                    "--params)"},
    {"out", "FILE", "the grove file to write ('-' for stdout)"},
    {"binary", NULL, "write the binary envelope (default: armored text)"},
    {NULL, NULL, NULL},
};
static const cli_opt recover_opts[] = {
    {"sk", "FILE", "a key file the state registry refuses as stale (restored or pre-split copy)"},
    {"threads", "N", "threads if the key's node cache must be rebuilt (default 0: one per CPU)"},
    STATE_OPTS,
    {NULL, NULL, NULL},
};
static const cli_opt split_opts[] = {
    {"sk", "FILE", "private key to take the indices from (keeps the lower part)"},
    {"out", "FILE", "new private key holding the last COUNT indices (must not exist)"},
    {"count", "COUNT", "number of indices to hand over"},
    {"threads", "N", "threads for building the new key's node cache (default 0: one per CPU)"},
    {"binary", NULL, "write the new key file in the binary envelope (default: armored text; "
                     "the source keeps its form)"},
    STATE_OPTS,
    {NULL, NULL, NULL},
};
static const cli_opt no_opts[] = {{NULL, NULL, NULL}};

static const cli_command xmss_commands[] = {
    {"keygen", cmd_keygen, "generate a key pair (progress bar on a terminal)", keygen_opts},
    {"sign", cmd_sign, "sign a file with a stateful private key (locks it, reserves the index "
                       "durably first)", sign_opts},
    {"verify", cmd_verify, "verify a signature (exit 0 valid, 1 invalid)", verify_opts},
    {"info", cmd_info, "describe a private key file, public key or signature", info_opts},
    {"export", cmd_export, "write a public key or signature as raw RFC 8391 bytes, or a public "
                           "key as SubjectPublicKeyInfo (RFC 9802, der or pem)", export_opts},
    {"import", cmd_import, "make a grove file of a raw RFC 8391 public key or signature, or of an "
                           "RFC 9802 SubjectPublicKeyInfo", import_opts},
    {"split", cmd_split, "move the last COUNT indices of a private key to a new key file",
     split_opts},
    {"recover", cmd_recover, "bring a stale key file forward to the state registry (high-water "
                             "mark up, range end down; never back)", recover_opts},
    {"params", cmd_params, "list the 77 parameter sets (default " DEFAULT_SET ")", no_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_xmss = {"xmss", "XMSS / XMSS^MT, RFC 8391 and SP 800-208 (stateful)",
                                    xmss_commands};
