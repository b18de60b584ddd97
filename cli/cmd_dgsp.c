/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove dgsp: the whole DGSP life cycle from the shell.
 *
 * A group folder (--group DIR) holds manager.pub, manager.sk (mode 0600) and group.db (the
 * SQLite member list and revocation list). A member's wallet (--wallet W) is an SQLite file
 * holding the member's secrets and certificates. Files are grove envelopes (see "grove's DGSP
 * files" in grove/dgsp.h): armored by default, binary with --binary; the older DGSP armor is
 * still read. `grove dgsp export` and `import` convert the manager public key and signatures to
 * and from the original crate's raw layouts. A group is named by its key id (grove_dgsp_key_id:
 * of the set "<params>/<flavour>/<profile>" and the manager public key), printed by init, join,
 * csr, cert, sign, verify, judge and info, carried by every file the group's commands write;
 * a file of another group is refused (exit 2) naming both key ids.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "grove/dgsp.h"
#include "grove/io.h"
#include "grove/state.h"

#define MAX_FILE (256u << 20)
#define JOIN_CHUNK 10000
#define DEFAULT_PARAMS "shake-256f" /* the set of `manager init` without --params */

/* ---- helpers ----------------------------------------------------------------------------- */

static int same_cfg(const grove_dgsp_cfg *a, const grove_dgsp_cfg *b)
{
    return a->spx == b->spx && a->profile == b->profile;
}

static const char *cfg_desc(const grove_dgsp_cfg *cfg, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s %s %s", grove_dgsp_params_name(cfg->params),
             grove_dgsp_flavour_name(grove_dgsp_cfg_flavour(cfg)),
             grove_dgsp_profile_name(cfg->profile));
    return buf;
}

/* The key id of a group: of its manager public key (grove/envelope.h), as 16 hex digits. */
static const char *group_key_id(const grove_dgsp_cfg *cfg, const uint8_t *pk, char hex[17])
{
    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES];
    hex[0] = '\0';
    if (grove_dgsp_key_id(cfg, id, pk) == GROVE_OK)
        grove_envelope_key_id_hex(hex, id);
    return hex;
}

/* The form of the files written: armored, binary with --binary (as cli_write_grove_file). */
static grove_envelope_form out_form(cli_ctx *c)
{
    return cli_opt_flag(c, "binary") ? GROVE_ENVELOPE_BINARY : GROVE_ENVELOPE_ARMORED;
}

/*
 * A file of another group: exit 2 naming both key ids (the file's and the group's, of pk in
 * cfg) when the file carries one; else 0. what names the group's side (e.g. "G/manager.pub").
 */
static int check_group(cli_ctx *c, const char *path, const grove_dgsp_file_info *fi,
                       const grove_dgsp_cfg *cfg, const uint8_t *pk, const char *what)
{
    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES];
    if (!fi->has_key_id || grove_dgsp_key_id(cfg, id, pk) != GROVE_OK ||
        memcmp(id, fi->key_id, sizeof id) == 0)
        return 0;
    char a[17], b[17];
    grove_envelope_key_id_hex(a, fi->key_id);
    grove_envelope_key_id_hex(b, id);
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                    "%s is a DGSP %s of another group (key id %s), %s is the group with key id "
                    "%s",
                    path, grove_dgsp_file_type_name(fi->type), a, what, b);
}

/* The largest armored text of a type for any parameter set (reads are capped at it). */
static size_t obj_cap(grove_dgsp_file_type type, size_t count)
{
    static const char *const widest[] = {"shake-256f", "sha2-256f", "shake-256s"};
    size_t cap = 0;
    for (size_t i = 0; i < sizeof widest / sizeof widest[0]; i++) {
        grove_dgsp_cfg w;
        if (grove_dgsp_cfg_init(&w, grove_dgsp_params_get(widest[i]), GROVE_DGSP_FLAVOUR_R31,
                                GROVE_DGSP_PROFILE_GROVE) ==
            GROVE_OK) {
            size_t k = grove_dgsp_file_max_text(&w, type, count);
            cap = k > cap ? k : cap;
        }
    }
    return cap < MAX_FILE ? cap : MAX_FILE;
}

/*
 * Decode a DGSP file (grove_dgsp_file_decode, or _any_version when any_version) into a malloc'd
 * body (*body = NULL on failure; a secret key's body is the caller's to wipe).
 */
static grove_status decode_text(const uint8_t *data, size_t dl, grove_dgsp_file_type expect,
                                grove_dgsp_file_info *info, grove_dgsp_cfg *cfg, uint8_t **body,
                                size_t *len, int any_version, char *err, size_t errcap)
{
    *body = malloc(dl ? dl : 1); /* a body is shorter than its armored text */
    if (*body == NULL) {
        snprintf(err, errcap, "out of memory");
        return GROVE_ERR_NOMEM;
    }
    grove_status st =
        any_version ? grove_dgsp_file_decode_any_version(cfg, info, *body, dl, len, data, dl,
                                                         expect, err, errcap)
                    : grove_dgsp_file_decode(cfg, info, *body, dl, len, data, dl, expect, err,
                                             errcap);
    if (st != GROVE_OK) {
        cli_free_secret(*body, dl);
        *body = NULL;
    }
    return st;
}

/*
 * A file that is not a DGSP file of the expected type: say what it is when it is another grove
 * file (the envelope describes every grove file), or that a raw file goes through import.
 * Otherwise err keeps the DGSP decoder's sentence.
 */
static void not_dgsp_reason(const uint8_t *data, size_t dl, grove_dgsp_file_type type, char *err,
                            size_t cap)
{
    const char *want = type == GROVE_DGSP_FILE_ANY ? NULL : grove_dgsp_file_type_name(type);
    if (!grove_envelope_detect(data, dl)) {
        snprintf(err, cap, "not a grove file (a raw %s? `grove dgsp import --format raw` makes "
                           "a grove file of a raw public key or signature)",
                 want ? want : "file");
        return;
    }
    grove_envelope env;
    uint8_t *buf = malloc(dl ? dl : 1);
    if (buf != NULL && grove_envelope_decode(&env, buf, dl, data, dl, NULL, 0) == GROVE_OK &&
        strcmp(env.scheme, "DGSP") != 0 &&
        grove_envelope_expect(&env, "DGSP", want, err, cap) == GROVE_OK)
        snprintf(err, cap, "a grove %s file, not a DGSP file", env.scheme);
    if (buf != NULL)
        grove_wipe(buf, dl);
    free(buf);
}

/* A regular file larger than any object of the expected type: exit 2 naming what its first
 * line says it is (e.g. "GROVE DGSP SIGNATURE v1 ..."), if it says so; else 0. */
static int too_large_named(cli_ctx *c, const char *path, grove_dgsp_file_type type,
                           size_t maxbytes)
{
    struct stat sb;
    if (strcmp(path, "-") == 0 || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) ||
        (uint64_t)sb.st_size <= maxbytes)
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    char line[160];
    ssize_t k = fd >= 0 ? read(fd, line, sizeof line - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (k <= 16 || memcmp(line, "-----BEGIN ", 11) != 0)
        return 0;
    line[k] = '\0';
    char *end = strstr(line + 11, "-----");
    if (end == NULL)
        return 0;
    *end = '\0';
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING, "%s is a %s file, not a DGSP %s", path,
                    line + 11, grove_dgsp_file_type_name(type));
}

/* Read (at most maxbytes) and decode an armored file of the given type. */
static int load_obj_max(cli_ctx *c, const char *path, grove_dgsp_file_type type, size_t maxbytes,
                        grove_dgsp_cfg *cfg, uint8_t **body, size_t *len,
                        grove_dgsp_file_info *info)
{
    uint8_t *data;
    size_t dl;
    int rc = too_large_named(c, path, type, maxbytes);
    if (rc)
        return rc;
    rc = cli_read_file(c, path, maxbytes, &data, &dl);
    if (rc)
        return rc;
    char err[256];
    grove_status st = decode_text(data, dl, type, info, cfg, body, len, 0, err, sizeof err);
    if (st != GROVE_OK && st != GROVE_ERR_STATE)
        not_dgsp_reason(data, dl, type, err, sizeof err);
    cli_free_secret(data, dl);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: %s", path, err);
    return 0;
}

/* A file of the given type, read up to the largest size that type can have; info may be NULL. */
static int load_obj(cli_ctx *c, const char *path, grove_dgsp_file_type type, grove_dgsp_cfg *cfg,
                    uint8_t **body, size_t *len, grove_dgsp_file_info *info)
{
    return load_obj_max(c, path, type, obj_cap(type, GROVE_DGSP_MAX_BATCH), cfg, body, len, info);
}

/* Upper bound of a file whose body has at most body_max bytes (at most MAX_FILE). */
static size_t armored_cap(size_t body_max)
{
    if (body_max >= MAX_FILE)
        return MAX_FILE;
    body_max += GROVE_DGSP_FILE_HEAD_MAX + 32; /* the envelope's header and check */
    size_t b64 = (body_max + 2) / 3 * 4;
    size_t cap = b64 + b64 / 64 + 1 + 512; /* lines, BEGIN and END lines */
    return cap < MAX_FILE ? cap : MAX_FILE;
}

/* load_obj with the read capped at the largest file an object of that type can be. */
static int load_capped(cli_ctx *c, const char *path, grove_dgsp_file_type type, size_t body_max,
                       grove_dgsp_cfg *cfg, uint8_t **body, size_t *len,
                       grove_dgsp_file_info *info)
{
    return load_obj_max(c, path, type, armored_cap(body_max), cfg, body, len, info);
}

/* Write a DGSP file (armored, or binary with --binary) carrying the key id of pk (the manager
 * public key; NULL where it is not known: see grove_dgsp_file_envelope). */
static int save_obj(cli_ctx *c, const char *path, grove_dgsp_file_type type,
                    const grove_dgsp_cfg *cfg, const uint8_t *body, size_t len, const uint8_t *pk,
                    int secret)
{
    grove_envelope env;
    grove_status st = grove_dgsp_file_envelope(cfg, &env, type, body, len, pk);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st, "cannot encode the %s: %s",
                        grove_dgsp_file_type_name(type), grove_strerror(st));
    return cli_write_grove_file(c, path, &env, secret ? CLI_WRITE_SECRET : 0u);
}

/* The configuration named by --params/--flavour/--profile (for import and init). */
static int cfg_from_flags(cli_ctx *c, grove_dgsp_cfg *cfg, const char *dflt_params)
{
    const char *params = cli_opt_str(c, "params"), *fl = cli_opt_str(c, "flavour"),
               *pr = cli_opt_str(c, "profile");
    if (params == NULL)
        params = dflt_params;
    if (params == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--params is required with --format raw");
    grove_dgsp_flavour f = GROVE_DGSP_FLAVOUR_R31;
    grove_dgsp_profile p = GROVE_DGSP_PROFILE_GROVE;
    if (fl && grove_dgsp_flavour_from_name(&f, fl) != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--flavour must be r3.1 or fips205");
    if (pr && grove_dgsp_profile_from_name(&p, pr) != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--profile must be grove or dgsp-rs-0.1");
    const grove_dgsp_params *set = grove_dgsp_params_get(params);
    grove_status st = set ? grove_dgsp_cfg_init(cfg, set, f, p) : GROVE_ERR_UNSUPPORTED;
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st,
                        "unknown parameter set '%s' (shake-256f, sha2-128s, ... or "
                        "sphincs_shake_256f)",
                        params);
    return 0;
}

typedef struct {
    grove_dgsp_cfg cfg;
    uint8_t pk[GROVE_DGSP_MAX_PK_BYTES], sk[GROVE_DGSP_MAX_SK_BYTES];
    grove_dgsp_store *store;
    grove_registry *reg; /* restore protection of an SQLite store */
    char dir[4096];
    /* the group's files, which no output may overwrite (see group_files) */
    char f_pub[4200], f_sk[4200], f_db[4200], f_wal[4220], f_shm[4220];
} group;

static void group_close(group *g)
{
    grove_dgsp_store_close(g->store);
    g->store = NULL;
    grove_registry_close(g->reg);
    g->reg = NULL;
    grove_wipe(g->sk, sizeof g->sk);
}

/* The group's files, for cli_refuse_same_file. Returns the number of entries (5). */
static size_t group_files(const group *g, const char **out)
{
    out[0] = g->f_pub;
    out[1] = g->f_sk;
    out[2] = g->f_db;
    out[3] = g->f_wal;
    out[4] = g->f_shm;
    return 5;
}

/*
 * An output is checked before anything is reserved or changed: not one of the command's inputs
 * or state files, not an existing file unless --force, and in a folder we can write to.
 */
static int check_output(cli_ctx *c, const char *what, const char *out, const char *const *others,
                        size_t n)
{
    if (out == NULL || strcmp(out, "-") == 0)
        return 0;
    int rc = cli_refuse_same_file(c, what, out, others, n);
    if (rc)
        return rc;
    struct stat sb;
    if (stat(out, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                            "%s %s is a folder: give a file name", what, out);
        if (S_ISREG(sb.st_mode) && !cli_opt_flag(c, "force"))
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_EXISTS,
                            "%s %s already exists: nothing was changed (give --force to replace "
                            "it, or choose another name)",
                            what, out);
        if (!S_ISREG(sb.st_mode))
            return 0; /* a device or pipe is written in place */
    }
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", out);
    char *slash = strrchr(dir, '/');
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode) || access(dir, W_OK | X_OK) != 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO,
                        "%s %s cannot be written: the folder %s %s; nothing was changed", what,
                        out, dir,
                        errno == ENOENT ? "does not exist" : "is not a writable folder");
    return 0;
}

/* The store's own message for a refused change (restore protection), else the status text. */
static int fail_store(cli_ctx *c, const group *g, int st, const char *what)
{
    const char *m = g->store ? grove_dgsp_store_error(g->store) : NULL;
    if (st == GROVE_ERR_STATE && m != NULL)
        return cli_fail(c, CLI_EXIT_STATE, st, "%s: %s", what, m);
    return cli_fail_status(c, st, what);
}

static void path_in(char *out, size_t cap, const char *dir, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

/* The store named by --store (or $GROVE_STORE): a PostgreSQL connection string, or an SQLite
 * file. NULL: the group folder's group.db. */
static const char *store_spec(cli_ctx *c)
{
    const char *s = cli_opt_str(c, "store");
    if (s == NULL)
        s = getenv("GROVE_STORE");
    return (s && *s) ? s : NULL;
}

static int is_pg(const char *spec)
{
    return strncmp(spec, "postgresql://", 13) == 0 || strncmp(spec, "postgres://", 11) == 0 ||
           strstr(spec, "host=") != NULL || strstr(spec, "dbname=") != NULL;
}

static int open_store(cli_ctx *c, const char *spec, int create, grove_dgsp_store **out)
{
    char err[512] = "";
#if GROVE_HAVE_POSTGRES
    int st = is_pg(spec) ? grove_dgsp_store_postgres_open(out, spec, create, err, sizeof err)
                         : grove_dgsp_store_sqlite_open(out, spec, create);
#else
    if (is_pg(spec))
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "%s: this grove was built without the PostgreSQL store "
                        "(GROVE_WITH_POSTGRES=OFF)", spec);
    int st = grove_dgsp_store_sqlite_open(out, spec, create);
#endif
    if (st == GROVE_OK)
        return 0;
    if (err[0])
        return cli_fail(c, cli_exit_for_status(st), st, "store: %s", err);
    return cli_fail(c, cli_exit_for_status(st), st, "%s: cannot open the store: %s", spec,
                    grove_strerror(st));
}

static int group_open(cli_ctx *c, group *g, int need_sk)
{
    memset(g, 0, sizeof *g);
    const char *dir = cli_require(c, "group");
    if (dir == NULL)
        return CLI_EXIT_USAGE;
    snprintf(g->dir, sizeof g->dir, "%s", dir);
    char path[4200];
    uint8_t *body;
    size_t len;
    grove_dgsp_cfg skcfg;
    path_in(path, sizeof path, dir, "manager.pub");
    int rc = load_obj(c, path, GROVE_DGSP_FILE_PUBLIC_KEY, &g->cfg, &body, &len, NULL);
    if (rc)
        return rc;
    memcpy(g->pk, body, len);
    free(body);
    if (need_sk) {
        path_in(path, sizeof path, dir, "manager.sk");
        rc = load_obj(c, path, GROVE_DGSP_FILE_SECRET_KEY, &skcfg, &body, &len, NULL);
        if (rc)
            return rc;
        memcpy(g->sk, body, len);
        cli_free_secret(body, len);
        if (!same_cfg(&skcfg, &g->cfg) || memcmp(g->sk + 4 * g->cfg.n, g->pk, 2 * g->cfg.n) != 0) {
            group_close(g);
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_STATE,
                            "%s: manager.sk and manager.pub do not belong together", dir);
        }
    }
    path_in(path, sizeof path, dir, "group.db");
    const char *spec = store_spec(c);
    snprintf(g->f_db, sizeof g->f_db, "%s", spec && !is_pg(spec) ? spec : path);
    snprintf(g->f_wal, sizeof g->f_wal, "%s-wal", g->f_db);
    snprintf(g->f_shm, sizeof g->f_shm, "%s-shm", g->f_db);
    path_in(g->f_pub, sizeof g->f_pub, dir, "manager.pub");
    path_in(g->f_sk, sizeof g->f_sk, dir, "manager.sk");
    rc = open_store(c, spec ? spec : path, 0, &g->store);
    if (rc) {
        group_close(g);
        return rc;
    }
    /* the store belongs to this key */
    uint8_t spk[GROVE_DGSP_MAX_PK_BYTES];
    size_t spl = 0;
    int st = grove_dgsp_store_meta_get(g->store, spk, sizeof spk, &spl, "group_pk");
    if (st != GROVE_OK || spl != 2 * g->cfg.n || memcmp(spk, g->pk, spl) != 0) {
        group_close(g);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_STATE,
                        "the store %s does not belong to the group in %s", spec ? spec : path, dir);
    }
    if (spec && is_pg(spec))
        return 0; /* PostgreSQL: the shared database is the single source of truth */
    /* SQLite: what was issued from this store is recorded in the state registry, so that a
     * restored or copied group.db is refused instead of issuing ids or counters again. */
    st = grove_registry_open(&g->reg, cli_opt_str(c, "state-dir"));
    if (st == GROVE_OK)
        st = grove_dgsp_store_set_registry(g->store, g->reg, g->pk, 2 * g->cfg.n, g->f_db);
    if (st != GROVE_OK) {
        group_close(g);
        return cli_fail(c, CLI_EXIT_STATE, st,
                        "cannot open the state registry (%s): it records what this group's store "
                        "issued; give --state-dir DIR or set GROVE_STATE_DIR",
                        grove_strerror(st));
    }
    return 0;
}

static int fail_st(cli_ctx *c, int st, const char *what)
{
    return cli_fail_status(c, st, what);
}

/* ---- manager ------------------------------------------------------------------------------ */

static int cmd_manager_init(cli_ctx *c)
{
    const char *dir = cli_require(c, "group");
    if (dir == NULL)
        return CLI_EXIT_USAGE;
    grove_dgsp_cfg cfg;
    int rc = cfg_from_flags(c, &cfg, DEFAULT_PARAMS);
    if (rc)
        return rc;
    if (cfg.profile != GROVE_DGSP_PROFILE_GROVE)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INSECURE_PROFILE,
                        "groups are created in the grove profile only (dgsp-rs-0.1 is insecure)");
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot create %s: %s", dir,
                        strerror(errno));
    char p_sk[4200], p_pk[4200], p_db[4200];
    path_in(p_sk, sizeof p_sk, dir, "manager.sk");
    path_in(p_pk, sizeof p_pk, dir, "manager.pub");
    path_in(p_db, sizeof p_db, dir, "group.db");
    const char *spec = store_spec(c);
    if (access(p_sk, F_OK) == 0 || access(p_pk, F_OK) == 0 || (!spec && access(p_db, F_OK) == 0))
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_EXISTS,
                        "%s already holds a group (manager.sk, manager.pub or group.db)", dir);
    grove_dgsp_store *ext = NULL;
    if (spec) {
        /* an external store must not already belong to another group */
        int orc = open_store(c, spec, 1, &ext);
        if (orc)
            return orc;
        uint8_t tmp[GROVE_DGSP_MAX_PK_BYTES];
        size_t tl;
        if (grove_dgsp_store_meta_get(ext, tmp, sizeof tmp, &tl, "group_pk") == GROVE_OK) {
            grove_dgsp_store_close(ext);
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_EXISTS,
                            "the store %s already holds a group", spec);
        }
    }
    uint8_t pk[GROVE_DGSP_MAX_PK_BYTES], sk[GROVE_DGSP_MAX_SK_BYTES], *seed = NULL;
    size_t seedlen;
    rc = cli_hex_opt(c, "seed", 5 * 32 + 1, &seed, &seedlen);
    if (rc)
        return rc;
    int st;
    if (seed) {
        if (seedlen != 5 * (size_t)cfg.n) {
            cli_free_secret(seed, seedlen);
            return cli_fail(c, CLI_EXIT_USAGE, 0, "--seed must be %u bytes", 5 * cfg.n);
        }
        st = grove_dgsp_keygen_manager_from_seed(&cfg, pk, sk, seed);
        cli_free_secret(seed, seedlen);
    } else {
        st = grove_dgsp_keygen_manager(&cfg, pk, sk);
    }
    if (st != GROVE_OK)
        return fail_st(c, st, "key generation failed");
    /* The store comes last: a folder with group.db is a complete group. */
    rc = save_obj(c, p_sk, GROVE_DGSP_FILE_SECRET_KEY, &cfg, sk, grove_dgsp_sk_bytes(&cfg), pk, 1);
    grove_wipe(sk, sizeof sk);
    if (rc == 0)
        rc = save_obj(c, p_pk, GROVE_DGSP_FILE_PUBLIC_KEY, &cfg, pk, grove_dgsp_pk_bytes(&cfg), pk,
                      0);
    if (rc)
        return rc;
    grove_dgsp_store *store;
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.init.%ld", p_db, (long)getpid());
    if (ext) {
        store = ext;
        st = GROVE_OK;
    } else {
        st = grove_dgsp_store_sqlite_open(&store, tmp, 1);
    }
    if (st == GROVE_OK) {
        const char *params = grove_dgsp_params_name(cfg.params);
        const char *fl = grove_slhdsa_params_is_fips205(cfg.spx) ? "fips205" : "r3.1";
        st = grove_dgsp_store_meta_set(store, "params", (const uint8_t *)params, strlen(params));
        if (st == GROVE_OK)
            st = grove_dgsp_store_meta_set(store, "flavour", (const uint8_t *)fl, strlen(fl));
        /* the public key last: a store holding group_pk is a complete group */
        if (st == GROVE_OK)
            st = grove_dgsp_store_meta_set(store, "group_pk", pk, grove_dgsp_pk_bytes(&cfg));
        grove_dgsp_store_close(store);
    }
    if (st == GROVE_OK && !ext && rename(tmp, p_db) != 0)
        st = GROVE_ERR_IO;
    if (st != GROVE_OK) {
        if (!ext)
            unlink(tmp);
        return fail_st(c, st, "cannot create the group store");
    }
    char d[64], kid[17];
    group_key_id(&cfg, pk, kid);
    cli_out_str(c, "group", dir);
    cli_out_str(c, "params", grove_dgsp_params_name(cfg.params));
    cli_out_str(c, "key_id", kid);
    cli_out_hex(c, "public_key", pk, grove_dgsp_pk_bytes(&cfg));
    cli_say(c, "group created in %s (%s, key id %s): manager.pub, manager.sk (0600), %s", dir,
            cfg_desc(&cfg, d, sizeof d), kid, spec ? "members in the external store" : "group.db");
    return 0;
}

/* The credential file of member id in form (a secret of the member: wipe and free it). */
static char *credential_text(const group *g, uint64_t id, const char *username,
                             grove_envelope_form form, size_t *tl)
{
    const size_t n = g->cfg.n;
    uint8_t body[8 + 3 * 32 + 1 + GROVE_DGSP_MAX_USERNAME];
    size_t ul = strlen(username);
    cli_store64_be(body, id);
    if (grove_dgsp_credential(&g->cfg, body + 8, id, g->sk) != GROVE_OK)
        return NULL;
    memcpy(body + 8 + n, g->pk, 2 * n);
    body[8 + 3 * n] = (uint8_t)ul;
    memcpy(body + 9 + 3 * n, username, ul);
    size_t bl = 9 + 3 * n + ul;
    char *text = NULL;
    if (grove_dgsp_file_encode(&g->cfg, NULL, 0, tl, GROVE_DGSP_FILE_CREDENTIAL, body, bl, g->pk,
                               form) == GROVE_ERR_BUFFER_TOO_SMALL &&
        (text = malloc(*tl)) != NULL &&
        grove_dgsp_file_encode(&g->cfg, (uint8_t *)text, *tl, tl, GROVE_DGSP_FILE_CREDENTIAL, body,
                               bl, g->pk, form) != GROVE_OK) {
        free(text);
        text = NULL;
    }
    grove_wipe(body, sizeof body);
    return text;
}

/*
 * Batch credential file: written to a temporary file and renamed (a killed run never leaves a
 * partial credential); not fsynced one by one (one syncfs at the end of the batch).
 */
static int write_file_quick(const char *path, const char *text, size_t tl)
{
    char tmp[4500];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    int bad = cli_write_all(fd, (const uint8_t *)text, tl) != 0;
    bad |= close(fd) != 0;
    if (bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int write_credential(cli_ctx *c, const group *g, const char *path, uint64_t id,
                            const char *username, int durable)
{
    size_t tl;
    char *text = credential_text(g, id, username, out_form(c), &tl);
    if (text == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    int rc;
    if (durable) /* the credential is a secret of the member: mode 0600 */
        rc = cli_write_file(c, path, (const uint8_t *)text, tl, 1);
    else
        rc = write_file_quick(path, text, tl) != 0
                 ? cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot write %s: %s", path,
                            strerror(errno))
                 : 0;
    grove_wipe(text, tl);
    free(text);
    return rc;
}

static int write_file_quick_cred(const group *g, const char *path, uint64_t id, const char *user,
                                 grove_envelope_form form)
{
    size_t tl;
    char *text = credential_text(g, id, user, form, &tl);
    if (text == NULL)
        return -1;
    int r = write_file_quick(path, text, tl);
    cli_free_secret((uint8_t *)text, tl);
    return r;
}

/* 1 if path holds exactly the credential of (id, username) in form. */
static int credential_present(const group *g, const char *path, uint64_t id, const char *username,
                              grove_envelope_form form)
{
    size_t tl, fl = 0;
    char *text = credential_text(g, id, username, form, &tl);
    int fd = text ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
    uint8_t *data = NULL;
    int ok = fd >= 0 && cli_read_fd(fd, tl + 1, &data, &fl) == 0 && fl == tl &&
             memcmp(data, text, tl) == 0;
    if (fd >= 0)
        close(fd);
    cli_free_secret(data, fl);
    if (text)
        cli_free_secret((uint8_t *)text, tl);
    return ok;
}

/* Ids whose credential could not be written: the first few are named in the report. */
struct cred_failures {
    uint64_t count, first[16];
};

static void cred_failed(struct cred_failures *f, uint64_t id)
{
    if (f->count < 16)
        f->first[f->count] = id;
    f->count++;
}

/* Split a batch file into validated usernames (pointers into data). */
static int batch_names(cli_ctx *c, const char *file, char *text, size_t len, char ***out,
                       size_t *count_out)
{
    size_t cap = 1024, count = 0;
    char **names = malloc(cap * sizeof *names);
    for (size_t i = 0; i < len && names;) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        size_t e = j;
        if (e > i && text[e - 1] == '\r')
            e--;
        if (e > i) {
            if (count == cap) {
                char **nn = realloc(names, 2 * cap * sizeof *nn);
                if (nn == NULL) {
                    free(names);
                    names = NULL;
                    break;
                }
                names = nn;
                cap *= 2;
            }
            names[count] = text + i;
            text[e] = '\0';
            if (memchr(text + i, '\0', e - i) != NULL || !grove_dgsp_username_is_valid(text + i)) {
                free(names);
                return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                                "%s line %zu: invalid username (1-255 bytes of UTF-8, no "
                                "control characters)",
                                file, count + 1);
            }
            count++;
        }
        i = j + 1;
    }
    if (names == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    *out = names;
    *count_out = count;
    return 0;
}

/*
 * Batch join: one username per line; one transaction per chunk, recorded in the state registry
 * before its credentials are written. With --skip-existing (a resumed run) the credential file
 * of every member already present is checked and written again if missing or damaged: every
 * member ends with a credential, or the report names those that could not be written.
 */
static int join_batch(cli_ctx *c, group *g, const char *file, const char *outdir)
{
    uint8_t *data;
    size_t len, count = 0;
    int rc = cli_read_file(c, file, MAX_FILE, &data, &len);
    if (rc)
        return rc;
    char **names = NULL;
    rc = batch_names(c, file, (char *)data, len, &names, &count);
    if (rc) {
        free(data);
        return rc;
    }
    int skip = cli_opt_flag(c, "skip-existing");
    if (outdir && mkdir(outdir, 0700) != 0 && errno != EEXIST) {
        free(names);
        free(data);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot create %s: %s", outdir,
                        strerror(errno));
    }
    uint64_t *ids = malloc((count ? count : 1) * sizeof *ids);
    const char **chunk = malloc(JOIN_CHUNK * sizeof *chunk);
    uint64_t first_id = UINT64_MAX, joined = 0, skipped = 0, repaired = 0;
    struct cred_failures fail = {0, {0}};
    int st = ids && chunk ? GROVE_OK : GROVE_ERR_NOMEM;
    char path[4400];
    for (size_t i = 0; i < count && st == GROVE_OK; i += JOIN_CHUNK) {
        size_t k = 0;
        for (size_t j = i; j < count && j < i + JOIN_CHUNK && st == GROVE_OK; j++) {
            uint64_t existing;
            if (skip && g->store->ops->find_member(g->store->ctx, names[j], &existing) == GROVE_OK) {
                skipped++;
                if (outdir) {
                    snprintf(path, sizeof path, "%s/%llu.cred", outdir,
                             (unsigned long long)existing);
                    if (!credential_present(g, path, existing, names[j], out_form(c))) {
                        if (write_file_quick_cred(g, path, existing, names[j], out_form(c)) == 0)
                            repaired++;
                        else
                            cred_failed(&fail, existing);
                    }
                }
                continue;
            }
            chunk[k++] = names[j];
        }
        if (k == 0)
            continue;
        st = grove_dgsp_store_add_members(g->store, ids, chunk, k);
        if (st == GROVE_ERR_EXISTS)
            cli_fail(c, CLI_EXIT_USAGE, st,
                     "a username in lines %zu..%zu is already a member (or repeated); "
                     "members before this chunk were added (use --skip-existing to resume)",
                     i + 1, i + k);
        for (size_t j = 0; j < k && st == GROVE_OK; j++) {
            if (first_id == UINT64_MAX)
                first_id = ids[j];
            joined++;
            if (outdir) {
                snprintf(path, sizeof path, "%s/%llu.cred", outdir, (unsigned long long)ids[j]);
                if (write_file_quick_cred(g, path, ids[j], chunk[j], out_form(c)) != 0)
                    cred_failed(&fail, ids[j]);
            }
        }
        cli_progress(c, "joining", i + k + skipped, count);
    }
    if (outdir && (joined || repaired)) {
        int dfd = open(outdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
#if !defined(GROVE_SYS_SYNCFS) || GROVE_SYS_SYNCFS
            syncfs(dfd); /* one sync for all credential files */
#else
            sync(); /* no syncfs() (macOS, the BSDs): POSIX's sync of every file system */
#endif
            close(dfd);
        }
    }
    free(chunk);
    free(ids);
    free(names);
    free(data);
    if (st != GROVE_OK)
        rc = fail_store(c, g, st, "batch join stopped");
    if (fail.count) {
        char list[512] = "";
        size_t o = 0;
        for (uint64_t f = 0; f < fail.count && f < 16 && o < sizeof list - 24; f++)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%llu", f ? ", " : "",
                                  (unsigned long long)fail.first[f]);
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO,
                      "the credentials of %llu members could not be written to %s (ids %s%s): "
                      "they are members; run again with --skip-existing --out-dir %s, or use "
                      "`manager credential --id N`",
                      (unsigned long long)fail.count, outdir, list, fail.count > 16 ? ", ..." : "",
                      outdir);
    }
    if (rc)
        return rc;
    cli_out_u64(c, "joined", joined);
    cli_out_u64(c, "skipped", skipped);
    if (outdir)
        cli_out_u64(c, "credentials_repaired", repaired);
    if (joined)
        cli_out_u64(c, "first_id", first_id);
    cli_say(c, "%llu members joined%s%s, %llu already present%s", (unsigned long long)joined,
            outdir ? ", credentials in " : "", outdir ? outdir : "", (unsigned long long)skipped,
            repaired ? " (their missing credentials written again)" : "");
    return 0;
}

static int cmd_manager_join(cli_ctx *c)
{
    group g;
    int rc = group_open(c, &g, 1);
    if (rc)
        return rc;
    const char *user = cli_opt_str(c, "username"), *batch = cli_opt_str(c, "batch");
    if ((user == NULL) == (batch == NULL)) {
        group_close(&g);
        return cli_fail(c, CLI_EXIT_USAGE, 0, "give either --username NAME or --batch FILE");
    }
    if (batch) {
        rc = join_batch(c, &g, batch, cli_opt_str(c, "out-dir"));
        group_close(&g);
        return rc;
    }
    const char *out = cli_require(c, "out");
    if (out == NULL) {
        group_close(&g);
        return CLI_EXIT_USAGE;
    }
    if (!grove_dgsp_username_is_valid(user)) {
        group_close(&g);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                        "invalid username (1-255 bytes of UTF-8, no control characters)");
    }
    const char *others[8];
    size_t no = group_files(&g, others);
    others[no++] = batch;
    if (strcmp(out, "-") == 0)
        rc = cli_fail(c, CLI_EXIT_USAGE, 0, "refusing to write a credential (a secret) to stdout");
    else
        rc = check_output(c, "--out", out, others, no);
    if (rc) {
        group_close(&g);
        return rc;
    }
    uint64_t id;
    uint8_t cid_star[GROVE_DGSP_MAX_N];
    int st = grove_dgsp_join(&g.cfg, g.store, &id, cid_star, user, g.sk);
    grove_wipe(cid_star, sizeof cid_star);
    if (st == GROVE_ERR_EXISTS) {
        group_close(&g);
        return cli_fail(c, CLI_EXIT_USAGE, st, "username '%s' is already a member", user);
    }
    if (st != GROVE_OK) {
        rc = fail_store(c, &g, st, "join failed");
        group_close(&g);
        return rc;
    }
    rc = write_credential(c, &g, out, id, user, 1);
    group_close(&g);
    if (rc)
        return rc;
    cli_out_u64(c, "id", id);
    cli_out_str(c, "username", user);
    cli_say(c, "%s joined as member %llu; credential written to %s", user,
            (unsigned long long)id, out);
    return 0;
}

static int cmd_manager_credential(cli_ctx *c)
{
    group g;
    uint64_t id;
    int rc = group_open(c, &g, 1);
    if (rc)
        return rc;
    const char *out = cli_require(c, "out");
    if (out == NULL || cli_opt_u64(c, "id", 0, UINT64_MAX, 0, &id) != 0 || !cli_opt_str(c, "id")) {
        group_close(&g);
        return out ? cli_fail(c, CLI_EXIT_USAGE, 0, "missing required option --id") : CLI_EXIT_USAGE;
    }
    const char *others[8];
    size_t no = group_files(&g, others);
    rc = strcmp(out, "-") == 0
             ? cli_fail(c, CLI_EXIT_USAGE, 0, "refusing to write a credential (a secret) to stdout")
             : check_output(c, "--out", out, others, no);
    if (rc) {
        group_close(&g);
        return rc;
    }
    grove_dgsp_member m;
    int st = g.store->ops->get_member(g.store->ctx, id, &m);
    if (st != GROVE_OK) {
        group_close(&g);
        return fail_st(c, st, "no such member");
    }
    rc = write_credential(c, &g, out, id, m.username, 1);
    group_close(&g);
    if (rc == 0)
        cli_say(c, "credential of member %llu (%s) written to %s", (unsigned long long)id,
                m.username, out);
    return rc;
}

/*
 * A file written as it is produced (certificate batches of any size in bounded memory), armored
 * or binary: `<path>.tmp.<pid>.0` in the same folder, then fsync, rename and fsync of the
 * folder, so the output appears complete or not at all. "-" and devices are written in place.
 * The bytes are those of a binary envelope (grove_dgsp_file_stream_begin); armored, they are
 * base64 lines between the BEGIN and END lines.
 */
typedef struct {
    int fd, in_place, failed, binary;
    char tmp[4500];
    const char *path;
    uint8_t carry[48]; /* 48 bytes = one 64-character base64 line */
    size_t carried;
} armor_out;

static int aout_write(armor_out *o, const char *p, size_t len)
{
    if (!o->failed && cli_write_all(o->fd, (const uint8_t *)p, len) != 0)
        o->failed = errno ? errno : EIO;
    return o->failed ? -1 : 0;
}

static int aout_open(armor_out *o, const char *path, const char *title, int binary)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->binary = binary;
    struct stat sb;
    if (strcmp(path, "-") == 0) {
        o->fd = 1;
        o->in_place = 1;
    } else if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        o->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        o->in_place = 1;
    } else {
        snprintf(o->tmp, sizeof o->tmp, "%s.tmp.%ld.0", path, (long)getpid());
        o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    }
    if (o->fd < 0)
        return -1;
    if (binary)
        return 0;
    char line[256];
    int k = snprintf(line, sizeof line, "-----BEGIN %s-----\n", title);
    return aout_write(o, line, (size_t)k);
}

static int aout_body(armor_out *o, const uint8_t *p, size_t len)
{
    char enc[66];
    if (o->binary)
        return aout_write(o, (const char *)p, len);
    while (len > 0 && !o->failed) {
        size_t k = sizeof o->carry - o->carried < len ? sizeof o->carry - o->carried : len;
        memcpy(o->carry + o->carried, p, k);
        o->carried += k;
        p += k;
        len -= k;
        if (o->carried == sizeof o->carry) {
            grove_base64_encode(enc, o->carry, sizeof o->carry);
            enc[64] = '\n';
            aout_write(o, enc, 65);
            o->carried = 0;
        }
    }
    return o->failed ? -1 : 0;
}

static void aout_abort(armor_out *o)
{
    if (o->fd > 1)
        close(o->fd);
    if (!o->in_place && o->tmp[0])
        unlink(o->tmp);
    o->fd = -1;
}

static int aout_finish(armor_out *o, const char *end)
{
    char enc[66], line[128];
    if (o->carried) {
        grove_base64_encode(enc, o->carry, o->carried);
        size_t el = strlen(enc);
        enc[el] = '\n';
        aout_write(o, enc, el + 1);
    }
    if (!o->binary) {
        int k = snprintf(line, sizeof line, "-----END %s-----\n", end);
        aout_write(o, line, (size_t)k);
    }
    if (!o->in_place && !o->failed && fsync(o->fd) != 0)
        o->failed = errno;
    if (o->fd > 1 && close(o->fd) != 0 && !o->failed)
        o->failed = errno;
    o->fd = -1;
    if (!o->in_place && !o->failed) {
        if (rename(o->tmp, o->path) != 0) {
            o->failed = errno;
        } else {
            char dir[4500];
            snprintf(dir, sizeof dir, "%s", o->path);
            char *sl = strrchr(dir, '/');
            if (sl == NULL)
                snprintf(dir, sizeof dir, ".");
            else
                sl[sl == dir ? 1 : 0] = '\0';
            int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (dfd >= 0) {
                (void)fsync(dfd);
                close(dfd);
            }
        }
    }
    if (o->failed && !o->in_place && o->tmp[0])
        unlink(o->tmp);
    return o->failed ? -1 : 0;
}

#define CERT_CHUNK 256
#define DEFAULT_MAX_CERTS 1024

/* A progress bar (cli_progress) stopped before its end: finish its line. */
static void progress_break(const cli_ctx *c, int shown)
{
    if (shown && !c->json && isatty(2))
        fputc('\n', stderr);
}

/* Refused requests: the message for each status of gen_cert. */
static int cert_refused(cli_ctx *c, const group *g, int st, uint64_t id)
{
    if (st == GROVE_ERR_DENIED)
        return cli_fail(c, CLI_EXIT_USAGE, st,
                        "request refused: the credential cid* does not match member %llu",
                        (unsigned long long)id);
    if (st == GROVE_ERR_REVOKED)
        return cli_fail(c, CLI_EXIT_INVALID, st, "request refused: member %llu is revoked",
                        (unsigned long long)id);
    if (st == GROVE_ERR_NOT_FOUND)
        return cli_fail(c, CLI_EXIT_USAGE, st, "request refused: no member %llu",
                        (unsigned long long)id);
    if (st == GROVE_ERR_VERIFY)
        return cli_fail(c, CLI_EXIT_USAGE, st,
                        "a certificate just issued does not verify against manager.pub (a "
                        "damaged manager.sk or a hardware fault): nothing was written; its "
                        "counters are burned, none was released");
    return fail_store(c, g, st, "certificate issuing failed");
}

/*
 * Issue and write the certificates of a CSR in chunks of CERT_CHUNK: each chunk reserves its
 * counters (recorded in the state registry), is signed, checked against the group public key
 * and appended to the temporary output; the output is renamed into place only when complete.
 * A failure burns the counters of the chunks done so far and releases nothing.
 */
static int issue_certs(cli_ctx *c, group *g, uint64_t id, const uint8_t *cid_star,
                       const uint8_t *pks, uint32_t count, unsigned threads, const char *out)
{
    const size_t n = g->cfg.n, cb = grove_dgsp_cert_bytes(&g->cfg);
    size_t chunk = count < CERT_CHUNK ? count : CERT_CHUNK;
    uint8_t fhead[GROVE_DGSP_FILE_HEAD_MAX], check[32], head[12];
    size_t fhl = 0;
    grove_dgsp_file_stream fs;
    /* the file's envelope header (the group's key id) before anything is reserved */
    int st = grove_dgsp_file_stream_begin(&g->cfg, &fs, fhead, sizeof fhead, &fhl,
                                          GROVE_DGSP_FILE_CERTIFICATES,
                                          12 + (size_t)count * (n + cb), g->pk);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st,
                        "%u certificates do not fit in one grove file (at most %u MiB): nothing "
                        "was issued (split the request)",
                        count, (unsigned)(GROVE_ENVELOPE_MAX_BODY >> 20));
    uint8_t *certs = malloc(chunk * cb);
    if (certs == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    armor_out o;
    int rc = 0;
    if (strcmp(out, "-") != 0)
        grove_file_remove_stale_temps(out); /* left by killed runs (never released) */
    if (aout_open(&o, out, "GROVE DGSP CERTIFICATES", out_form(c) == GROVE_ENVELOPE_BINARY) != 0) {
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot write %s: %s", out,
                      strerror(errno));
        aout_abort(&o);
        free(certs);
        return rc;
    }
    aout_body(&o, fhead, fhl);
    cli_store64_be(head, id);
    cli_store32_be(head + 8, count);
    grove_dgsp_file_stream_update(&fs, head, sizeof head);
    aout_body(&o, head, sizeof head);
    for (size_t done = 0; done < count && st == GROVE_OK && !o.failed; done += chunk) {
        size_t k = count - done < chunk ? count - done : chunk;
        st = grove_dgsp_gen_cert(&g->cfg, g->store, certs, pks + done * n, k, id, cid_star, g->sk,
                                 threads);
        if (st == GROVE_OK) /* never release a certificate that does not verify */
            st = grove_dgsp_check_cert(&g->cfg, certs, pks + done * n, k, id, g->pk) == GROVE_OK
                     ? GROVE_OK
                     : GROVE_ERR_VERIFY;
        for (size_t i = 0; i < k && st == GROVE_OK; i++) {
            grove_dgsp_file_stream_update(&fs, pks + (done + i) * n, n);
            grove_dgsp_file_stream_update(&fs, certs + i * cb, cb);
            aout_body(&o, pks + (done + i) * n, n);
            aout_body(&o, certs + i * cb, cb);
        }
        if (st == GROVE_OK && count > CERT_CHUNK) /* a bar for batches of several chunks */
            cli_progress(c, "certifying", done + k, count);
    }
    free(certs);
    grove_status fst = grove_dgsp_file_stream_final(&fs, check);
    if (st != GROVE_OK) {
        progress_break(c, count > CERT_CHUNK);
        aout_abort(&o);
        return cert_refused(c, g, st, id);
    }
    if (fst != GROVE_OK) {
        aout_abort(&o);
        return cli_fail(c, CLI_EXIT_USAGE, fst, "cannot write %s: encoding failed (the "
                        "certificates were issued but not released: request them again)", out);
    }
    aout_body(&o, check, sizeof check);
    if (aout_finish(&o, "GROVE DGSP CERTIFICATES") != 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO,
                        "cannot write %s: %s (the certificates were issued but not released: "
                        "request them again)",
                        out, strerror(o.failed));
    return 0;
}

static int cmd_manager_cert(cli_ctx *c)
{
    group g;
    int rc = group_open(c, &g, 1);
    if (rc)
        return rc;
    const char *csr = cli_require(c, "csr"), *out = cli_require(c, "out");
    uint64_t threads, maxc;
    if (!csr || !out || cli_opt_u64(c, "threads", 0, 64, GROVE_THREADS_AUTO, &threads) ||
        cli_opt_u64(c, "max-certs", 1, GROVE_DGSP_MAX_BATCH, DEFAULT_MAX_CERTS, &maxc)) {
        group_close(&g);
        return CLI_EXIT_USAGE;
    }
    /* every output check before anything is read, reserved or written */
    const char *others[8];
    size_t no = group_files(&g, others);
    others[no++] = csr;
    rc = check_output(c, "--out", out, others, no);
    if (rc) {
        group_close(&g);
        return rc;
    }
    /* the CSR is read only up to the size of a request of --max-certs keys */
    uint8_t *data, *body = NULL;
    size_t dl, len = 0;
    rc = cli_read_file(c, csr, grove_dgsp_file_max_text(&g.cfg, GROVE_DGSP_FILE_CSR, (size_t)maxc),
                       &data, &dl);
    if (rc) {
        group_close(&g);
        return rc;
    }
    grove_dgsp_cfg ccfg;
    grove_dgsp_file_info fi;
    char err[256], a[64], b[64];
    grove_status st = decode_text(data, dl, GROVE_DGSP_FILE_CSR, &fi, &ccfg, &body, &len, 0, err,
                                  sizeof err);
    if (st != GROVE_OK)
        not_dgsp_reason(data, dl, GROVE_DGSP_FILE_CSR, err, sizeof err);
    free(data);
    if (st != GROVE_OK)
        rc = cli_fail(c, CLI_EXIT_USAGE, st, "%s: %s", csr, err);
    else if (!same_cfg(&ccfg, &g.cfg))
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED, "the CSR is for %s, the group is %s",
                      cfg_desc(&ccfg, a, sizeof a), cfg_desc(&g.cfg, b, sizeof b));
    else
        rc = check_group(c, csr, &fi, &g.cfg, g.pk, g.f_pub);
    const size_t n = g.cfg.n;
    uint32_t count = rc == 0 ? cli_load32_be(body + 8 + n) : 0;
    if (rc == 0 && count > maxc)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                      "the CSR asks for %u certificates, more than --max-certs %llu: nothing was "
                      "issued (split the request, or raise --max-certs)",
                      count, (unsigned long long)maxc);
    uint64_t id = rc == 0 ? cli_load64_be(body) : 0;
    if (rc == 0)
        rc = issue_certs(c, &g, id, body + 8, body + 12 + n, count, (unsigned)threads, out);
    free(body);
    group_close(&g);
    if (rc)
        return rc;
    char kid[17];
    group_key_id(&g.cfg, g.pk, kid);
    cli_out_u64(c, "id", id);
    cli_out_u64(c, "certificates", count);
    cli_out_str(c, "key_id", kid);
    cli_say(c, "%u certificates for member %llu written to %s (key id %s)", count,
            (unsigned long long)id, out, kid);
    return 0;
}

/* The signature for open, in the group's profile or --profile (`grove dgsp import` makes a
 * signature file of a raw crate signature). */
static int open_load_sig(cli_ctx *c, group *g, const char *sigp, uint8_t **sig, size_t *sl)
{
    const char *pr = cli_opt_str(c, "profile");
    if (pr) {
        if (grove_dgsp_profile_from_name(&g->cfg.profile, pr) != GROVE_OK)
            return cli_fail(c, CLI_EXIT_USAGE, 0, "--profile must be grove or dgsp-rs-0.1");
        /* (the profile is only used to read and open this signature) */
    }
    grove_dgsp_cfg scfg;
    grove_dgsp_file_info fi;
    int rc = load_capped(c, sigp, GROVE_DGSP_FILE_SIGNATURE, GROVE_DGSP_MAX_SIG_BYTES, &scfg, sig,
                         sl, &fi);
    if (rc == 0 && !same_cfg(&scfg, &g->cfg)) {
        char a[64], b[64];
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                      "the signature is for %s, the group is %s (give --profile for a "
                      "signature made in another profile)",
                      cfg_desc(&scfg, a, sizeof a), cfg_desc(&g->cfg, b, sizeof b));
    } else if (rc == 0) {
        rc = check_group(c, sigp, &fi, &g->cfg, g->pk, g->f_pub);
    }
    if (rc && *sig != NULL) {
        free(*sig);
        *sig = NULL;
    }
    return rc;
}

static int cmd_manager_open(cli_ctx *c)
{
    group g;
    int rc = group_open(c, &g, 1);
    if (rc)
        return rc;
    const char *msgp = cli_require(c, "msg"), *sigp = cli_require(c, "sig");
    const char *proof = cli_opt_str(c, "proof-out");
    if (!msgp || !sigp) {
        group_close(&g);
        return CLI_EXIT_USAGE;
    }
    const char *others[8];
    size_t no = group_files(&g, others);
    others[no++] = msgp;
    others[no++] = sigp;
    rc = check_output(c, "--proof-out", proof, others, no);
    uint8_t *sig = NULL, *msg = NULL;
    size_t sl = 0, ml = 0;
    if (rc == 0)
        rc = open_load_sig(c, &g, sigp, &sig, &sl);
    if (rc == 0)
        rc = cli_read_file(c, msgp, CLI_MAX_INPUT, &msg, &ml);
    if (rc) {
        free(sig);
        group_close(&g);
        return rc;
    }
    uint64_t id;
    char user[GROVE_DGSP_MAX_USERNAME + 1];
    uint8_t proofb[8 + GROVE_DGSP_MAX_N];
    /* the library verifies the signature on the message before opening it */
    int st = grove_dgsp_open(&g.cfg, g.store, &id, user, proofb + 8, sig, sl, msg, ml, g.sk);
    free(sig);
    free(msg);
    if (st == GROVE_OK && proof) {
        cli_store64_be(proofb, id);
        rc = save_obj(c, proof, GROVE_DGSP_FILE_PROOF, &g.cfg, proofb, 8 + g.cfg.n, g.pk, 0);
    }
    size_t n = g.cfg.n;
    group_close(&g);
    if (st == GROVE_ERR_VERIFY)
        return cli_fail(c, CLI_EXIT_INVALID, st,
                        "the signature is not a valid signature of this group on this message: "
                        "nothing to open");
    if (st == GROVE_ERR_NOT_FOUND)
        return cli_fail(c, CLI_EXIT_INVALID, st,
                        "the signature does not open to any member of this group");
    if (st != GROVE_OK)
        return fail_st(c, st, "open failed");
    if (rc)
        return rc;
    cli_out_u64(c, "id", id);
    cli_out_str(c, "username", user);
    cli_out_hex(c, "proof", proofb + 8, n);
    cli_say(c, "signed by member %llu (%s)%s%s", (unsigned long long)id, user,
            proof ? "; proof written to " : "", proof ? proof : "");
    return 0;
}

static int parse_ids(cli_ctx *c, uint64_t **ids, size_t *count)
{
    const char *const *vals;
    size_t k = cli_opt_all(c, "id", &vals);
    if (k == 0)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "give at least one --id N");
    *ids = malloc(k * sizeof **ids);
    if (*ids == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < k; i++) {
        if (cli_parse_u64(vals[i], &(*ids)[i]) != 0) {
            free(*ids);
            return cli_fail(c, CLI_EXIT_USAGE, 0, "--id '%s' is not a member id", vals[i]);
        }
    }
    *count = k;
    return 0;
}

static int cmd_manager_revoke(cli_ctx *c)
{
    group g;
    uint64_t *ids = NULL;
    size_t k = 0;
    int rc = parse_ids(c, &ids, &k);
    if (rc)
        return rc;
    rc = group_open(c, &g, 1);
    if (rc) {
        free(ids);
        return rc;
    }
    int st = grove_dgsp_revoke(&g.cfg, g.store, NULL, ids, k, g.sk);
    if (st != GROVE_OK && st != GROVE_ERR_NOT_FOUND)
        rc = fail_store(c, &g, st, "revocation failed (nobody was revoked)");
    group_close(&g);
    if (st == GROVE_ERR_NOT_FOUND) {
        free(ids);
        return cli_fail(c, CLI_EXIT_USAGE, st, "unknown member id in the list: nobody was revoked");
    }
    if (st != GROVE_OK) {
        free(ids);
        return rc;
    }
    cli_out_begin_array(c, "revoked");
    for (size_t i = 0; i < k; i++)
        cli_out_u64(c, NULL, ids[i]);
    cli_out_end(c);
    for (size_t i = 0; i < k; i += 16) { /* the whole list, 16 ids a line */
        char line[16 * 22] = "";
        for (size_t j = i, o = 0; j < k && j < i + 16; j++)
            o += (size_t)snprintf(line + o, sizeof line - o, "%s%llu", j > i ? ", " : "",
                                  (unsigned long long)ids[j]);
        cli_say(c, "%s%s", i == 0 ? "revoked: " : "         ", line);
    }
    free(ids);
    return 0;
}

struct zcollect {
    uint8_t *z;
    size_t n, cap;
};

static grove_status zcollect_fn(void *arg, const uint8_t *z, size_t count)
{
    struct zcollect *c = arg;
    if (c->n + count > c->cap) {
        size_t cap = c->cap ? c->cap : 1024;
        while (cap < c->n + count)
            cap *= 2;
        uint8_t *nz = realloc(c->z, 16 * cap);
        if (nz == NULL)
            return GROVE_ERR_NOMEM;
        c->z = nz;
        c->cap = cap;
    }
    memcpy(c->z + 16 * c->n, z, 16 * count);
    c->n += count;
    return GROVE_OK;
}

static int cmd_manager_export(cli_ctx *c)
{
    group g;
    int rc = group_open(c, &g, 1);
    if (rc)
        return rc;
    const char *out = cli_require(c, "out");
    const char *others[8];
    size_t no = group_files(&g, others);
    rc = out == NULL ? CLI_EXIT_USAGE : check_output(c, "--out", out, others, no);
    if (rc) {
        group_close(&g);
        return rc;
    }
    struct zcollect z = {NULL, 0, 0};
    uint64_t seq = 0;
    int st = g.store->ops->list_revoked(g.store->ctx, zcollect_fn, &z);
    if (st == GROVE_OK)
        st = grove_dgsp_store_meta_next(g.store, &seq, "revocations_seq");
    size_t len = grove_dgsp_revocations_bytes(&g.cfg, z.n);
    uint8_t *rl = st == GROVE_OK ? malloc(len) : NULL;
    if (st == GROVE_OK && rl == NULL)
        st = GROVE_ERR_NOMEM;
    uint64_t now = (uint64_t)time(NULL);
    if (st == GROVE_OK)
        st = grove_dgsp_revocations_sign(&g.cfg, rl, len, &len, seq, now, z.z, z.n, g.sk);
    if (st == GROVE_OK)
        rc = save_obj(c, out, GROVE_DGSP_FILE_REVOCATIONS, &g.cfg, rl, len, g.pk, 0);
    else
        rc = fail_store(c, &g, st, "export failed");
    group_close(&g);
    free(rl);
    free(z.z);
    if (st != GROVE_OK)
        return rc;
    if (rc)
        return rc;
    cli_out_u64(c, "sequence", seq);
    cli_out_u64(c, "time", now);
    cli_out_u64(c, "entries", z.n);
    cli_say(c, "revocation list #%llu with %zu entries signed and written to %s",
            (unsigned long long)seq, z.n, out);
    return 0;
}

static grove_status count_cb(void *arg, const uint8_t *z, size_t k)
{
    (void)z;
    *(uint64_t *)arg += k;
    return GROVE_OK;
}

static int cmd_manager_recover(cli_ctx *c)
{
    group g;
    int rc = group_open(c, &g, 0);
    if (rc)
        return rc;
    if (g.reg == NULL) {
        group_close(&g);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "recover applies to SQLite stores; a PostgreSQL store is the single "
                        "source of truth of its group (restore it with the database's tools)");
    }
    grove_dgsp_store_summary before, rec;
    bool recorded = false;
    uint64_t added = 0, raised = 0;
    int st = grove_dgsp_store_summary_get(g.store, &before, &rec, &recorded);
    if (st == GROVE_OK)
        st = grove_dgsp_store_recover(g.store, &added, &raised);
    if (st != GROVE_OK) {
        rc = fail_store(c, &g, st, "recovery failed (the store is unchanged)");
        group_close(&g);
        return rc;
    }
    group_close(&g);
    cli_out_u64(c, "members_added", added);
    cli_out_u64(c, "counters_raised", raised);
    cli_out_u64(c, "counter_floor", recorded ? rec.ctr_max : 0);
    if (!recorded) {
        cli_say(c, "the state registry has no record of this group: nothing to recover");
        return 0;
    }
    cli_say(c, "store raised to the state registry's record: %llu members added as "
               "recovered-<id>, %llu active members' counters raised to %llu.",
            (unsigned long long)added, (unsigned long long)raised,
            (unsigned long long)rec.ctr_max);
    cli_say(c, "Certificates issued after the backup are unknown to this store: they open to "
               "recovered-<id> names at best; repeat every revocation made after the backup.");
    return 0;
}

/* The checks a v1 manager.sk can still get; 0 or an exit code. */
static int check_legacy_sk(cli_ctx *c, const grove_dgsp_cfg *cfg, const uint8_t *pk,
                           const uint8_t *sk, grove_dgsp_store *store)
{
    const size_t n = cfg->n;
    uint8_t pk2[GROVE_DGSP_MAX_PK_BYTES], spx2[4 * GROVE_DGSP_MAX_N];
    /* the SPHINCS+ key: its public key copy, and PK.root recomputed from SK.seed and PK.seed */
    int st = grove_slhdsa_keygen_from_seed(cfg->spx, pk2, spx2, sk + 2 * n, sk + 3 * n, sk + 4 * n);
    int ok = st == GROVE_OK && memcmp(sk + 4 * n, pk, 2 * n) == 0 && memcmp(pk2, pk, 2 * n) == 0 &&
             memcmp(spx2, sk + 2 * n, 4 * n) == 0;
    grove_wipe(spx2, sizeof spx2);
    if (!ok)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_STATE,
                        "manager.sk is damaged: its SPHINCS+ key does not give manager.pub");
    /* hash_secret: a member's credential must be re-derived exactly */
    uint64_t members = 0;
    store->ops->member_count(store->ctx, &members);
    const char *credp = cli_opt_str(c, "credential");
    if (members > 0 && credp == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, 0,
                        "the group has members: give --credential FILE (any member's "
                        "credential) so that the key's hash secret can be checked");
    if (credp) {
        grove_dgsp_cfg ccfg;
        grove_dgsp_file_info fi;
        uint8_t *body = NULL, cid[GROVE_DGSP_MAX_N];
        size_t len = 0;
        int rc = load_obj(c, credp, GROVE_DGSP_FILE_CREDENTIAL, &ccfg, &body, &len, &fi);
        if (rc == 0)
            rc = check_group(c, credp, &fi, cfg, pk, "manager.pub");
        if (rc) {
            cli_free_secret(body, len);
            return rc;
        }
        ok = grove_dgsp_credential(cfg, cid, cli_load64_be(body), sk) == GROVE_OK &&
             grove_ct_equal(cid, body + 8, n);
        cli_free_secret(body, len);
        grove_wipe(cid, sizeof cid);
        if (!ok)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_STATE,
                            "manager.sk is damaged: it does not give the credential in %s", credp);
    }
    /* aes_key: issued zetas must decrypt to (member, counter) pairs the store issued */
    const char *sigp = cli_opt_str(c, "sig"), *msgp = cli_opt_str(c, "msg");
    grove_dgsp_store_summary sum;
    if (grove_dgsp_store_summary_get(store, &sum, NULL, NULL) != GROVE_OK || sum.ctr_max == 0)
        return 0; /* no certificate issued: the AES key was never used */
    if (sigp == NULL || msgp == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, 0,
                        "certificates were issued: give --sig FILE --msg FILE (a signature made "
                        "in this group) so that the key's AES key can be checked");
    uint8_t *sig = NULL, *msg;
    size_t sl = 0, ml;
    grove_dgsp_cfg scfg;
    grove_dgsp_file_info fi;
    int rc = load_obj(c, sigp, GROVE_DGSP_FILE_SIGNATURE, &scfg, &sig, &sl, &fi);
    if (rc == 0 && same_cfg(&scfg, cfg))
        rc = check_group(c, sigp, &fi, cfg, pk, "manager.pub");
    if (rc) {
        free(sig);
        return rc;
    }
    rc = cli_read_file(c, msgp, CLI_MAX_INPUT, &msg, &ml);
    if (rc) {
        free(sig);
        return rc;
    }
    uint64_t id = 0;
    char user[GROVE_DGSP_MAX_USERNAME + 1];
    uint8_t pi[GROVE_DGSP_MAX_N];
    st = same_cfg(&scfg, cfg) ? grove_dgsp_open(cfg, store, &id, user, pi, sig, sl, msg, ml, sk)
                              : GROVE_ERR_UNSUPPORTED;
    free(sig);
    free(msg);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_STATE,
                        "manager.sk could not be checked: the signature %s does not open to a "
                        "member with this key (%s); a damaged AES key gives exactly this",
                        sigp, grove_strerror(st));
    return 0;
}

/*
 * Rewrite a group's key files in the envelope: an older v1 manager.sk after the checks it can
 * still get (check_legacy_sk), an older v2 one (its own check passed), an older manager.pub.
 */
static int cmd_manager_upgrade_key(cli_ctx *c)
{
    const char *dir = cli_require(c, "group");
    if (dir == NULL)
        return CLI_EXIT_USAGE;
    char p_pk[4200], p_sk[4200], p_db[4200], err[512];
    path_in(p_pk, sizeof p_pk, dir, "manager.pub");
    path_in(p_sk, sizeof p_sk, dir, "manager.sk");
    path_in(p_db, sizeof p_db, dir, "group.db");
    grove_dgsp_cfg cfg, skcfg;
    grove_dgsp_file_info pinfo, skinfo;
    uint8_t *pkb, *data, *sk = NULL;
    size_t pl, dl, sklen = 0;
    int rc = load_obj(c, p_pk, GROVE_DGSP_FILE_PUBLIC_KEY, &cfg, &pkb, &pl, &pinfo);
    if (rc)
        return rc;
    rc = cli_read_file(c, p_sk, obj_cap(GROVE_DGSP_FILE_SECRET_KEY, 0), &data, &dl);
    if (rc == 0) {
        grove_status st = decode_text(data, dl, GROVE_DGSP_FILE_SECRET_KEY, &skinfo, &skcfg, &sk,
                                      &sklen, 1, err, sizeof err);
        cli_free_secret(data, dl);
        if (st != GROVE_OK)
            rc = cli_fail(c, CLI_EXIT_USAGE, st, "%s: %s", p_sk, err);
        else if (!same_cfg(&skcfg, &cfg) || memcmp(sk + 4 * cfg.n, pkb, 2 * cfg.n) != 0)
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_STATE,
                          "manager.sk and manager.pub do not belong together");
    }
    const int v1 = rc == 0 && skinfo.old_format && skinfo.version == 1;
    const int old_sk = rc == 0 && skinfo.old_format, old_pk = rc == 0 && pinfo.old_format;
    grove_dgsp_store *store = NULL;
    if (v1) {
        const char *spec = store_spec(c);
        rc = open_store(c, spec ? spec : p_db, 0, &store);
        if (rc == 0)
            rc = check_legacy_sk(c, &cfg, pkb, sk, store);
    }
    if (rc == 0 && old_sk)
        rc = save_obj(c, p_sk, GROVE_DGSP_FILE_SECRET_KEY, &cfg, sk, sklen, pkb, 1);
    if (rc == 0 && old_pk)
        rc = save_obj(c, p_pk, GROVE_DGSP_FILE_PUBLIC_KEY, &cfg, pkb, pl, pkb, 0);
    grove_dgsp_store_close(store);
    cli_free_secret(sk, sklen);
    char kid[17];
    group_key_id(&cfg, pkb, kid);
    free(pkb);
    if (rc)
        return rc;
    cli_out_str(c, "format", "envelope");
    cli_out_bool(c, "upgraded", old_sk || old_pk);
    cli_out_str(c, "key_id", kid);
    cli_say(c, "%s (key id %s)",
            v1       ? "manager.sk (format v1, no integrity check) checked and rewritten as a grove "
                       "file with its check"
            : old_sk ? "manager.sk rewritten as a grove file (its older check was correct)"
            : old_pk ? "manager.pub rewritten as a grove file; manager.sk was already one"
                     : "manager.sk and manager.pub are already grove files; their checks are "
                       "correct",
            kid);
    return 0;
}

static int cmd_manager_status(cli_ctx *c)
{
    group g;
    int rc = group_open(c, &g, 0);
    if (rc)
        return rc;
    char report[256], d[64];
    uint64_t members = 0, revoked = 0;
    int st = grove_dgsp_store_check(g.store, report, sizeof report);
    int st2 = g.store->ops->member_count(g.store->ctx, &members);
    int st3 = g.store->ops->list_revoked(g.store->ctx, count_cb, &revoked);
    const char *idopt = cli_opt_str(c, "id");
    grove_dgsp_member m;
    int st4 = GROVE_OK;
    uint64_t id = 0;
    if (idopt) {
        if (cli_parse_u64(idopt, &id) != 0) {
            group_close(&g);
            return cli_fail(c, CLI_EXIT_USAGE, 0, "--id must be a member id");
        }
        st4 = g.store->ops->get_member(g.store->ctx, id, &m);
    }
    grove_dgsp_store_summary sum, rec;
    bool recorded = false;
    int st5 = g.reg ? grove_dgsp_store_summary_get(g.store, &sum, &rec, &recorded) : GROVE_OK;
    const char *reg_state = g.reg == NULL ? "not used (shared database)"
                            : st5 != GROVE_OK ? "damaged or unreadable"
                            : !recorded ? "no record yet"
                            : (sum.generation < rec.generation || sum.members < rec.members ||
                               sum.ctr_max < rec.ctr_max ||
                               sum.revocations_seq < rec.revocations_seq)
                                ? "BEHIND: restored or copied store (see manager recover)"
                                : "ok";
    group_close(&g);
    cli_out_str(c, "params", cfg_desc(&g.cfg, d, sizeof d));
    cli_out_str(c, "check", report);
    cli_out_str(c, "registry", reg_state);
    if (recorded)
        cli_out_u64(c, "registry_generation", rec.generation);
    if (st2 == GROVE_OK)
        cli_out_u64(c, "members", members);
    if (st3 == GROVE_OK)
        cli_out_u64(c, "revoked_entries", revoked);
    if (idopt && st4 == GROVE_OK) {
        cli_out_u64(c, "id", m.id);
        cli_out_str(c, "username", m.username);
        cli_out_bool(c, "active", m.active);
        cli_out_u64(c, "counter", m.ctr);
    }
    if (st != GROVE_OK || st2 != GROVE_OK || st3 != GROVE_OK)
        return cli_fail(c, CLI_EXIT_STATE, GROVE_ERR_STORAGE, "the group store is inconsistent: %s",
                        report);
    if (idopt && st4 != GROVE_OK)
        return fail_st(c, st4, "no such member");
    cli_say(c, "group %s: %llu members, %llu revoked certificate entries; store check: %s; "
               "state registry: %s",
            d, (unsigned long long)members, (unsigned long long)revoked, report, reg_state);
    if (idopt)
        cli_say(c, "member %llu (%s): %s, %llu certificates issued", (unsigned long long)m.id,
                m.username, m.active ? "active" : "revoked", (unsigned long long)m.ctr);
    return 0;
}

/* ---- member ------------------------------------------------------------------------------- */

/* The state registry: --state-dir, else $GROVE_STATE_DIR, $XDG_STATE_HOME/grove, ~/.local/... */
static int state_registry_open(cli_ctx *c, grove_registry **reg)
{
    const char *dir = cli_opt_str(c, "state-dir");
    int st = grove_registry_open(reg, dir);
    if (st == GROVE_OK)
        return 0;
    if (dir == NULL && st == GROVE_ERR_STATE)
        return cli_fail(c, CLI_EXIT_STATE, st,
                        "no state registry folder: set --state-dir DIR or GROVE_STATE_DIR (the "
                        "registry records used certificates so that a restored copy of the "
                        "wallet cannot sign with them again)");
    return cli_fail(c, CLI_EXIT_STATE, st, "cannot open the state registry %s: %s",
                    dir ? dir : "(default folder)", grove_strerror(st));
}

/* Open --wallet; with reg != NULL also the state registry, attached to the wallet. */
static int wallet_open(cli_ctx *c, grove_dgsp_wallet **w, grove_registry **reg)
{
    const char *path = cli_require(c, "wallet");
    if (path == NULL)
        return CLI_EXIT_USAGE;
    int st = grove_dgsp_wallet_open(w, path);
    if (st == GROVE_ERR_NOT_FOUND)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: no such wallet", path);
    if (st != GROVE_OK)
        return cli_fail(c, cli_exit_for_status(st), st, "%s: cannot open the wallet: %s", path,
                        grove_strerror(st));
    if (reg == NULL)
        return 0;
    int rc = state_registry_open(c, reg);
    if (rc == 0 && (st = grove_dgsp_wallet_set_registry(*w, *reg)) != GROVE_OK) {
        rc = cli_fail(c, CLI_EXIT_STATE, st, "cannot use the state registry: %s",
                      grove_strerror(st));
        grove_registry_close(*reg);
        *reg = NULL;
    }
    if (rc) {
        grove_dgsp_wallet_close(*w);
        *w = NULL;
    }
    return rc;
}

static void wallet_close(grove_dgsp_wallet *w, grove_registry *reg)
{
    grove_dgsp_wallet_close(w);
    grove_registry_close(reg);
}

/* A failed wallet operation: the library's own sentence when it has one. */
static int wallet_fail(cli_ctx *c, grove_dgsp_wallet *w, int st, const char *what)
{
    const char *path = cli_opt_str(c, "wallet"), *why = grove_dgsp_wallet_last_error(w);
    uint64_t stale = 0;
    if (st == GROVE_ERR_STATE && grove_dgsp_wallet_registry_status(w, NULL, &stale) == GROVE_OK &&
        stale > 0)
        return cli_fail(c, CLI_EXIT_STATE, st, "%s: %s: %s. Run: grove dgsp member recover "
                                               "--wallet %s%s%s, then try again",
                        path, what, why, path, cli_opt_str(c, "state-dir") ? " --state-dir " : "",
                        cli_opt_str(c, "state-dir") ? cli_opt_str(c, "state-dir") : "");
    return cli_fail(c, cli_exit_for_status(st), st, "%s: %s: %s", path, what,
                    why[0] ? why : grove_strerror(st));
}

static int cmd_member_init(cli_ctx *c)
{
    const char *path = cli_require(c, "wallet"), *cred = cli_require(c, "credential");
    if (!path || !cred)
        return CLI_EXIT_USAGE;
    grove_dgsp_cfg cfg;
    uint8_t *body, *seed = NULL;
    size_t len, seedlen = 0;
    int rc = load_capped(c, cred, GROVE_DGSP_FILE_CREDENTIAL,
                         8 + 3 * GROVE_DGSP_MAX_N + 1 + GROVE_DGSP_MAX_USERNAME, &cfg, &body, &len,
                         NULL);
    if (rc)
        return rc;
    rc = cli_hex_opt(c, "seed", 33, &seed, &seedlen);
    if (rc == 0 && seed && seedlen != cfg.n)
        rc = cli_fail(c, CLI_EXIT_USAGE, 0, "--seed must be %u bytes", cfg.n);
    if (rc) {
        cli_free_secret(body, len);
        cli_free_secret(seed, seedlen);
        return rc;
    }
    const size_t n = cfg.n;
    uint64_t id = cli_load64_be(body);
    grove_dgsp_wallet *w;
    int st = grove_dgsp_wallet_create(&cfg, &w, path, seed, id, body + 8, body + 8 + n);
    char user[GROVE_DGSP_MAX_USERNAME + 1], kid[17];
    size_t ul = body[8 + 3 * n];
    memcpy(user, body + 9 + 3 * n, ul);
    user[ul] = '\0';
    group_key_id(&cfg, body + 8 + n, kid);
    cli_free_secret(body, len);
    cli_free_secret(seed, seedlen);
    if (st == GROVE_ERR_EXISTS)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s already exists", path);
    if (st != GROVE_OK)
        return fail_st(c, st, "cannot create the wallet");
    grove_dgsp_wallet_close(w);
    cli_out_u64(c, "id", id);
    cli_out_str(c, "username", user);
    cli_out_str(c, "key_id", kid);
    cli_say(c, "wallet %s created for member %llu (%s) of the group with key id %s", path,
            (unsigned long long)id, user, kid);
    return 0;
}

static int cmd_member_csr(cli_ctx *c)
{
    grove_dgsp_wallet *w;
    uint64_t count;
    const char *out = cli_require(c, "out");
    if (out == NULL || cli_opt_u64(c, "count", 1, GROVE_DGSP_MAX_BATCH, 8, &count))
        return CLI_EXIT_USAGE;
    const char *ins[] = {cli_opt_str(c, "wallet")};
    int rc = cli_refuse_same_file(c, "--out", out, ins, 1);
    if (rc)
        return rc;
    rc = wallet_open(c, &w, NULL);
    if (rc)
        return rc;
    const grove_dgsp_cfg *cfg = grove_dgsp_wallet_cfg(w);
    const size_t n = cfg->n;
    size_t len = 12 + n + (size_t)count * n;
    uint8_t *body = malloc(len);
    int st = body ? GROVE_OK : GROVE_ERR_NOMEM;
    uint64_t id = 0;
    if (st == GROVE_OK)
        st = grove_dgsp_wallet_credential(w, &id, body + 8);
    if (st == GROVE_OK)
        st = grove_dgsp_wallet_csr(w, body + 12 + n, (size_t)count);
    /* the group's key id, when the wallet holds the group public key (it always does when
     * made by `member init`) */
    uint8_t gpk[GROVE_DGSP_MAX_PK_BYTES];
    int has_pk = grove_dgsp_wallet_group_pk(w, gpk) == GROVE_OK;
    char kid[17] = "";
    if (has_pk)
        group_key_id(cfg, gpk, kid);
    if (st == GROVE_OK) {
        cli_store64_be(body, id);
        cli_store32_be(body + 8 + n, (uint32_t)count);
        rc = save_obj(c, out, GROVE_DGSP_FILE_CSR, cfg, body, len, has_pk ? gpk : NULL, 0);
    }
    if (st != GROVE_OK)
        rc = wallet_fail(c, w, st, "CSR failed");
    grove_dgsp_wallet_close(w);
    free(body);
    if (rc)
        return rc;
    cli_out_u64(c, "count", count);
    if (kid[0])
        cli_out_str(c, "key_id", kid);
    cli_say(c, "certificate request for %llu one-time keys written to %s%s%s%s",
            (unsigned long long)count, out, kid[0] ? " (key id " : "", kid, kid[0] ? ")" : "");
    return 0;
}

/* The manager public key for import-certs: --pk, else the one stored in the wallet. */
static int import_pub(cli_ctx *c, grove_dgsp_wallet *w, uint8_t *pk)
{
    const char *pubp = cli_opt_str(c, "pk");
    if (pubp == NULL) {
        if (grove_dgsp_wallet_group_pk(w, pk) != GROVE_OK)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOT_FOUND,
                            "no manager public key (give --pk manager.pub)");
        return 0;
    }
    grove_dgsp_cfg pcfg;
    uint8_t *pb;
    size_t pl;
    int rc = load_capped(c, pubp, GROVE_DGSP_FILE_PUBLIC_KEY, GROVE_DGSP_MAX_PK_BYTES, &pcfg, &pb,
                         &pl, NULL);
    if (rc)
        return rc;
    memcpy(pk, pb, pl);
    free(pb);
    if (!same_cfg(&pcfg, grove_dgsp_wallet_cfg(w)))
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "%s is not a public key of this wallet's parameters", pubp);
    return 0;
}

/*
 * A batch of several chunks, when a progress bar can be shown (stderr a terminal, no --json):
 * checked chunk by chunk with a bar before grove_dgsp_wallet_import (which checks every
 * certificate again, all or nothing, before the wallet changes).
 */
static grove_status check_certs_progress(cli_ctx *c, const grove_dgsp_cfg *cfg,
                                         const uint8_t *certs, const uint8_t *pks, uint32_t count,
                                         uint64_t id, const uint8_t *pk)
{
    const size_t n = cfg->n, cb = grove_dgsp_cert_bytes(cfg);
    if (count <= CERT_CHUNK || c->json || !isatty(2))
        return GROVE_OK;
    for (size_t done = 0; done < count; done += CERT_CHUNK) {
        size_t k = count - done < CERT_CHUNK ? count - done : CERT_CHUNK;
        grove_status st = grove_dgsp_check_cert(cfg, certs + done * cb, pks + done * n, k, id, pk);
        if (st != GROVE_OK) {
            progress_break(c, 1);
            return st;
        }
        cli_progress(c, "checking", done + k, count);
    }
    return GROVE_OK;
}

static int cmd_member_import(cli_ctx *c)
{
    grove_dgsp_wallet *w;
    const char *certsp = cli_require(c, "certs"), *wp = cli_require(c, "wallet");
    if (certsp == NULL || wp == NULL)
        return CLI_EXIT_USAGE;
    const char *ins[] = {certsp, cli_opt_str(c, "pk")};
    int rc = cli_refuse_same_file(c, "--wallet", wp, ins, 2);
    if (rc == 0)
        rc = wallet_open(c, &w, NULL);
    if (rc)
        return rc;
    const grove_dgsp_cfg *cfg = grove_dgsp_wallet_cfg(w);
    const size_t n = cfg->n, cb = grove_dgsp_cert_bytes(cfg);
    grove_dgsp_cfg ccfg;
    grove_dgsp_file_info fi;
    uint8_t *body, pk[GROVE_DGSP_MAX_PK_BYTES];
    size_t len;
    size_t body_max = MAX_FILE / (n + cb) > GROVE_DGSP_MAX_BATCH ? 12 + GROVE_DGSP_MAX_BATCH * (n + cb)
                                                            : MAX_FILE;
    rc = load_capped(c, certsp, GROVE_DGSP_FILE_CERTIFICATES, body_max, &ccfg, &body, &len, &fi);
    if (rc) {
        grove_dgsp_wallet_close(w);
        return rc;
    }
    uint64_t id = cli_load64_be(body);
    uint32_t count = cli_load32_be(body + 8);
    rc = import_pub(c, w, pk);
    if (rc == 0 && !same_cfg(&ccfg, cfg))
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                      "the certificates are not of this wallet's parameters");
    if (rc == 0)
        rc = check_group(c, certsp, &fi, cfg, pk,
                         cli_opt_str(c, "pk") ? cli_opt_str(c, "pk") : wp);
    if (rc == 0 && id != grove_dgsp_wallet_id(w))
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_DENIED,
                      "the certificates are for member %llu, this wallet is member %llu",
                      (unsigned long long)id, (unsigned long long)grove_dgsp_wallet_id(w));
    if (rc == 0) {
        uint8_t *pks = malloc((size_t)count * n), *certs = malloc((size_t)count * cb);
        int st = pks && certs ? GROVE_OK : GROVE_ERR_NOMEM;
        for (uint32_t i = 0; i < count && st == GROVE_OK; i++) {
            memcpy(pks + (size_t)i * n, body + 12 + i * (n + cb), n);
            memcpy(certs + (size_t)i * cb, body + 12 + i * (n + cb) + n, cb);
        }
        if (st == GROVE_OK)
            st = check_certs_progress(c, cfg, certs, pks, count, id, pk);
        if (st == GROVE_OK)
            st = grove_dgsp_wallet_import(w, certs, pks, count, pk);
        free(pks);
        free(certs);
        if (st == GROVE_ERR_VERIFY)
            rc = cli_fail(c, CLI_EXIT_INVALID, st,
                          "a certificate does not check against the manager key: none imported");
        else if (st == GROVE_ERR_NOT_FOUND)
            rc = cli_fail(c, CLI_EXIT_USAGE, st,
                          "a certificate is for a key this wallet did not request (or already "
                          "imported): none imported");
        else if (st != GROVE_OK)
            rc = wallet_fail(c, w, st, "import failed");
    }
    uint64_t ready = grove_dgsp_wallet_available(w);
    grove_dgsp_wallet_close(w);
    free(body);
    if (rc)
        return rc;
    cli_out_u64(c, "imported", count);
    cli_out_u64(c, "ready", ready);
    cli_say(c, "%u certificates checked and imported; %llu ready to sign", count,
            (unsigned long long)ready);
    return 0;
}

/* Sign with the wallet, then verify with the group key (into pk): 0 with *sig filled, else
 * exit code. */
static int sign_verified(cli_ctx *c, grove_dgsp_wallet *w, const uint8_t *msg, size_t ml,
                         uint8_t **sig, size_t *sl, uint8_t *pk)
{
    const grove_dgsp_cfg *cfg = grove_dgsp_wallet_cfg(w);
    if (grove_dgsp_wallet_group_pk(w, pk) != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOT_FOUND,
                        "%s holds no group public key to check signatures with: nothing signed",
                        cli_opt_str(c, "wallet"));
    *sl = grove_dgsp_sig_bytes(cfg);
    *sig = malloc(*sl);
    if (*sig == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    /* The certificate is recorded as used (registry, then wallet) before the signature exists
     * outside the library. */
    int st = grove_dgsp_wallet_sign(w, *sig, msg, ml);
    if (st == GROVE_ERR_EXHAUSTED)
        st = cli_fail(c, CLI_EXIT_STATE, st,
                      "no unused certificate left: request more (member csr, manager cert, "
                      "member import-certs)");
    else if (st != GROVE_OK)
        st = wallet_fail(c, w, st, "signing refused");
    else if (grove_dgsp_verify(cfg, *sig, *sl, msg, ml, pk, NULL) != GROVE_OK)
        st = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_VERIFY,
                      "the new signature does not verify with the group public key: nothing "
                      "written (its certificate stays used; check the wallet and this machine's "
                      "memory)");
    if (st) {
        free(*sig);
        *sig = NULL;
    }
    return st;
}

static int cmd_member_sign(cli_ctx *c)
{
    grove_dgsp_wallet *w;
    grove_registry *reg = NULL;
    const char *msgp = cli_require(c, "msg"), *out = cli_require(c, "sig");
    if (!msgp || !out)
        return CLI_EXIT_USAGE;
    const char *ins[] = {cli_opt_str(c, "wallet"), msgp};
    int rc = cli_refuse_same_file(c, "--sig", out, ins, 2);
    if (rc)
        return rc;
    uint8_t *msg, *sig = NULL;
    size_t ml, sl = 0;
    rc = cli_read_file(c, msgp, CLI_MAX_INPUT, &msg, &ml);
    if (rc)
        return rc;
    rc = wallet_open(c, &w, &reg);
    if (rc) {
        free(msg);
        return rc;
    }
    const grove_dgsp_cfg *cfg = grove_dgsp_wallet_cfg(w);
    uint8_t pk[GROVE_DGSP_MAX_PK_BYTES];
    char kid[17] = "";
    rc = sign_verified(c, w, msg, ml, &sig, &sl, pk);
    if (rc == 0)
        rc = save_obj(c, out, GROVE_DGSP_FILE_SIGNATURE, cfg, sig, sl, pk, 0);
    if (rc == 0)
        group_key_id(cfg, pk, kid);
    uint64_t ready = grove_dgsp_wallet_available(w);
    wallet_close(w, reg);
    free(sig);
    free(msg);
    if (rc)
        return rc;
    cli_out_u64(c, "certificates_left", ready);
    cli_out_str(c, "key_id", kid);
    cli_say(c, "signature written to %s (key id %s, %llu certificates left)", out, kid,
            (unsigned long long)ready);
    return 0;
}

static int cmd_member_recover(cli_ctx *c)
{
    grove_dgsp_wallet *w;
    grove_registry *reg = NULL;
    int rc = wallet_open(c, &w, &reg);
    if (rc)
        return rc;
    uint64_t marked = 0, ready = 0, used = 0, listed = 0;
    int st = grove_dgsp_wallet_recover(w, &marked);
    if (st == GROVE_OK)
        st = grove_dgsp_wallet_registry_status(w, &listed, NULL);
    if (st == GROVE_OK)
        st = grove_dgsp_wallet_counts(w, NULL, &ready, &used);
    if (st != GROVE_OK)
        rc = wallet_fail(c, w, st, "recovery failed");
    wallet_close(w, reg);
    if (rc)
        return rc;
    cli_out_u64(c, "marked_used", marked);
    cli_out_u64(c, "registry_used", listed);
    cli_out_u64(c, "ready", ready);
    cli_out_u64(c, "used", used);
    cli_say(c, "%llu certificate(s) the state registry lists as used are now marked used in the "
               "wallet; %llu ready to sign",
            (unsigned long long)marked, (unsigned long long)ready);
    return 0;
}

static int cmd_member_info(cli_ctx *c)
{
    grove_dgsp_wallet *w;
    grove_registry *reg = NULL;
    int rc = wallet_open(c, &w, NULL);
    if (rc)
        return rc;
    uint64_t p = 0, r = 0, u = 0, listed = 0, stale = 0;
    char d[64];
    grove_status st;
    st = grove_dgsp_wallet_counts(w, &p, &r, &u);
    if (st != GROVE_OK) {
        wallet_close(w, reg);
        return cli_fail(c, CLI_EXIT_USAGE, st, "cannot read the wallet: %s", grove_strerror(st));
    }
    cli_out_u64(c, "id", grove_dgsp_wallet_id(w));
    cli_out_str(c, "params", cfg_desc(grove_dgsp_wallet_cfg(w), d, sizeof d));
    cli_out_u64(c, "pending", p);
    cli_out_u64(c, "ready", r);
    cli_out_u64(c, "used", u);
    cli_out_bool(c, "damaged", grove_dgsp_wallet_is_damaged(w));
    /* info reports on the registry entry; it never writes it */
    st = grove_registry_open(&reg, cli_opt_str(c, "state-dir"));
    if (st == GROVE_OK)
        st = grove_dgsp_wallet_set_registry(w, reg);
    if (st == GROVE_OK)
        st = grove_dgsp_wallet_registry_status(w, &listed, &stale);
    cli_out_bool(c, "registry_checked", st == GROVE_OK);
    if (st == GROVE_OK) {
        cli_out_u64(c, "registry_used", listed);
        cli_out_u64(c, "stale", stale);
    }
    cli_say(c, "member %llu (%s): %llu certificates ready, %llu used, %llu requested",
            (unsigned long long)grove_dgsp_wallet_id(w), d, (unsigned long long)r,
            (unsigned long long)u, (unsigned long long)p);
    if (grove_dgsp_wallet_is_damaged(w))
        cli_say(c, "DAMAGED: %s", grove_dgsp_wallet_last_error(w));
    if (st != GROVE_OK)
        cli_say(c, "state registry not checked: %s",
                grove_dgsp_wallet_last_error(w)[0] ? grove_dgsp_wallet_last_error(w)
                                                   : grove_strerror(st));
    else if (stale)
        cli_say(c, "OLDER COPY: %llu unused certificate(s) here were already used (state "
                   "registry lists %llu); run grove dgsp member recover --wallet %s",
                (unsigned long long)stale, (unsigned long long)listed, cli_opt_str(c, "wallet"));
    wallet_close(w, reg);
    return 0;
}

/* ---- anyone ------------------------------------------------------------------------------- */

/* A raw file of exactly `want` bytes (read capped there): 0 or exit 2. */
static int load_raw_exact(cli_ctx *c, const char *path, const char *what, size_t want,
                          const grove_dgsp_cfg *cfg, uint8_t **buf)
{
    size_t len;
    *buf = NULL;
    int rc = cli_read_file(c, path, want + 1, buf, &len);
    if (rc == 0 && len != want) {
        int grove = grove_envelope_detect(*buf, len);
        free(*buf);
        *buf = NULL;
        rc = grove ? cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                              "%s is already a grove file: import takes the crate's raw layout",
                              path)
                   : cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                              "%s: a raw %s %s has %zu bytes, the file has %s%zu", path,
                              grove_dgsp_params_name(cfg->params), what, want,
                              len > want ? "more than " : "", len > want ? want : len);
    }
    return rc;
}

/* --params on verify/judge is a check against the public key's set (the files name it). */
static int check_params(cli_ctx *c, const char *path, const grove_dgsp_cfg *cfg)
{
    const char *want = cli_opt_str(c, "params");
    if (want == NULL || grove_dgsp_params_get(want) == cfg->params)
        return 0;
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                    "%s is a DGSP PUBLIC KEY of set %s, but --params says %s", path,
                    grove_dgsp_params_name(cfg->params), want);
}

/* Public key, signature and message for verify/judge. Every read is capped at the object's
 * own size; a file of the wrong type, encoding or length is exit 2 (raw crate files go
 * through `grove dgsp import`). */
static int load_pub_sig_msg(cli_ctx *c, grove_dgsp_cfg *cfg, uint8_t *pk, uint8_t **sig,
                            size_t *sl, uint8_t **msg, size_t *ml)
{
    const char *pubp = cli_require(c, "pk"), *sigp = cli_require(c, "sig"),
               *msgp = cli_require(c, "msg");
    if (!pubp || !sigp || !msgp)
        return CLI_EXIT_USAGE;
    uint8_t *pb;
    size_t pl;
    *sig = *msg = NULL;
    int rc = load_capped(c, pubp, GROVE_DGSP_FILE_PUBLIC_KEY, GROVE_DGSP_MAX_PK_BYTES, cfg, &pb,
                         &pl, NULL);
    if (rc)
        return rc;
    memcpy(pk, pb, pl);
    free(pb);
    rc = check_params(c, pubp, cfg);
    if (rc)
        return rc;
    grove_dgsp_cfg scfg;
    grove_dgsp_file_info fi;
    rc = load_capped(c, sigp, GROVE_DGSP_FILE_SIGNATURE, GROVE_DGSP_MAX_SIG_BYTES, &scfg, sig, sl,
                     &fi);
    if (rc)
        return rc;
    if (!same_cfg(&scfg, cfg)) {
        char a[64], b[64];
        free(*sig);
        *sig = NULL;
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "the signature is for %s, the public key for %s",
                        cfg_desc(&scfg, a, sizeof a), cfg_desc(cfg, b, sizeof b));
    }
    rc = check_group(c, sigp, &fi, cfg, pk, pubp);
    if (rc) {
        free(*sig);
        *sig = NULL;
        return rc;
    }
    rc = cli_read_file(c, msgp, CLI_MAX_INPUT, msg, ml);
    if (rc) {
        free(*sig);
        *sig = NULL;
    }
    return rc;
}

/* A memory store filled from a signed revocation list file. */
static int load_revocations(cli_ctx *c, const grove_dgsp_cfg *cfg, const uint8_t *pk,
                            const char *path, grove_dgsp_store **out)
{
    grove_dgsp_cfg rcfg;
    grove_dgsp_file_info fi;
    uint8_t *body;
    size_t len;
    int rc = load_obj(c, path, GROVE_DGSP_FILE_REVOCATIONS, &rcfg, &body, &len, &fi);
    if (rc)
        return rc;
    if (rcfg.spx != cfg->spx) {
        free(body);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "%s is not a revocation list of this group's parameters", path);
    }
    /* (a list is of the group, whatever profile its verifier reads signatures in) */
    grove_dgsp_cfg gcfg = *cfg;
    gcfg.profile = rcfg.profile;
    rc = check_group(c, path, &fi, &gcfg, pk, cli_opt_str(c, "pk") ? cli_opt_str(c, "pk") : "the group");
    if (rc) {
        free(body);
        return rc;
    }
    uint64_t seq, when, count;
    const uint8_t *z;
    int st = grove_dgsp_revocations_verify(cfg, &seq, &when, &z, &count, body, len, pk);
    if (st != GROVE_OK) {
        free(body);
        return cli_fail(c, CLI_EXIT_USAGE, st,
                        "%s: the revocation list is not signed by this group's manager (%s)",
                        path, grove_strerror(st));
    }
    st = grove_dgsp_store_memory_open(out);
    if (st == GROVE_OK)
        st = (*out)->ops->add_revoked((*out)->ctx, z, (size_t)count);
    free(body);
    if (st != GROVE_OK)
        return fail_st(c, st, "cannot load the revocation list");
    cli_out_u64(c, "revocations_sequence", seq);
    cli_out_u64(c, "revocations_time", when);
    return 0;
}

/* The revocation source of verify: --revocations, --revocation-store or none (*rl NULL). */
static int verify_revocations(cli_ctx *c, const grove_dgsp_cfg *cfg, const uint8_t *pk,
                              grove_dgsp_store **rl)
{
    const char *rlp = cli_opt_str(c, "revocations"), *rls = cli_opt_str(c, "revocation-store");
    *rl = NULL;
    if (rlp && rls)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "give --revocations or --revocation-store, not both");
    if (rlp)
        return load_revocations(c, cfg, pk, rlp, rl);
    if (rls == NULL)
        return 0;
    int rc = open_store(c, rls, 0, rl);
    uint8_t spk[GROVE_DGSP_MAX_PK_BYTES];
    size_t spl = 0;
    if (rc == 0 && (grove_dgsp_store_meta_get(*rl, spk, sizeof spk, &spl, "group_pk") != GROVE_OK ||
                    spl != grove_dgsp_pk_bytes(cfg) || memcmp(spk, pk, spl) != 0)) {
        grove_dgsp_store_close(*rl);
        *rl = NULL;
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_STATE,
                      "the revocation store does not belong to this group");
    }
    return rc;
}

static int cmd_verify(cli_ctx *c)
{
    grove_dgsp_cfg cfg;
    uint8_t pk[GROVE_DGSP_MAX_PK_BYTES], *sig, *msg;
    size_t sl, ml;
    int rc = load_pub_sig_msg(c, &cfg, pk, &sig, &sl, &msg, &ml);
    if (rc)
        return rc;
    grove_dgsp_store *rl = NULL;
    rc = verify_revocations(c, &cfg, pk, &rl);
    if (rc) {
        free(sig);
        free(msg);
        return rc;
    }
    const int checked = rl != NULL;
    int st = grove_dgsp_verify(&cfg, sig, sl, msg, ml, pk, rl);
    grove_dgsp_store_close(rl);
    free(sig);
    free(msg);
    char d[64], kid[17];
    group_key_id(&cfg, pk, kid);
    cli_out_str(c, "params", cfg_desc(&cfg, d, sizeof d));
    cli_out_str(c, "key_id", kid);
    cli_out_bool(c, "valid", st == GROVE_OK);
    /* "revoked" is only ever reported when a revocation list was consulted */
    cli_out_bool(c, "revocation_checked", checked);
    if (checked)
        cli_out_bool(c, "revoked", st == GROVE_ERR_REVOKED);
    if (st == GROVE_ERR_REVOKED)
        return cli_fail(c, CLI_EXIT_INVALID, st, "signature REVOKED (its certificate is in the "
                                                 "revocation list)");
    if (st == GROVE_ERR_VERIFY)
        return cli_fail(c, CLI_EXIT_INVALID, st, "signature INVALID");
    if (st != GROVE_OK)
        return fail_st(c, st, "verification could not run");
    if (!checked)
        fprintf(stderr, "grove: warning: revocation NOT checked: the signer may have been revoked "
                        "(give --revocations RL or --revocation-store STORE)\n");
    cli_say(c, "signature valid (key id %s), %s (%s)", kid,
            checked ? "not revoked" : "revocation not checked", d);
    return 0;
}

static int cmd_judge(cli_ctx *c)
{
    grove_dgsp_cfg cfg;
    uint8_t pk[GROVE_DGSP_MAX_PK_BYTES], *sig, *msg;
    size_t sl, ml;
    uint64_t id;
    const char *pp = cli_require(c, "proof");
    if (pp == NULL || !cli_opt_str(c, "id"))
        return pp ? cli_fail(c, CLI_EXIT_USAGE, 0, "missing required option --id") : CLI_EXIT_USAGE;
    if (cli_opt_u64(c, "id", 0, UINT64_MAX, 0, &id))
        return CLI_EXIT_USAGE;
    int rc = load_pub_sig_msg(c, &cfg, pk, &sig, &sl, &msg, &ml);
    if (rc)
        return rc;
    grove_dgsp_cfg pcfg;
    grove_dgsp_file_info fi;
    uint8_t *proof = NULL;
    size_t pl;
    rc = load_obj(c, pp, GROVE_DGSP_FILE_PROOF, &pcfg, &proof, &pl, &fi);
    if (rc == 0 && pcfg.spx != cfg.spx)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED, "the proof is for other parameters");
    if (rc == 0) {
        grove_dgsp_cfg gcfg = cfg;
        gcfg.profile = pcfg.profile;
        rc = check_group(c, pp, &fi, &gcfg, pk, cli_opt_str(c, "pk"));
    }
    if (rc) {
        free(proof);
        free(sig);
        free(msg);
        return rc;
    }
    uint64_t pid = cli_load64_be(proof);
    /* A judgement is about a valid signature: verify first, then the opening. */
    int vst = grove_dgsp_verify(&cfg, sig, sl, msg, ml, pk, NULL);
    int jst = pid == id ? grove_dgsp_judge(&cfg, sig, sl, msg, ml, id,
                                           proof + 8) : GROVE_ERR_VERIFY;
    free(sig);
    free(msg);
    free(proof);
    char kid[17];
    cli_out_str(c, "key_id", group_key_id(&cfg, pk, kid));
    cli_out_u64(c, "id", id);
    cli_out_bool(c, "signature_valid", vst == GROVE_OK);
    cli_out_bool(c, "confirmed", vst == GROVE_OK && jst == GROVE_OK);
    if (vst != GROVE_OK && vst != GROVE_ERR_VERIFY)
        return fail_st(c, vst, "verification could not run");
    if (vst != GROVE_OK)
        return cli_fail(c, CLI_EXIT_INVALID, GROVE_ERR_VERIFY,
                        "NOT confirmed: the signature itself is invalid");
    if (pid != id)
        return cli_fail(c, CLI_EXIT_INVALID, GROVE_ERR_VERIFY,
                        "NOT confirmed: the proof is for member %llu, not %llu",
                        (unsigned long long)pid, (unsigned long long)id);
    if (jst != GROVE_OK)
        return cli_fail(c, CLI_EXIT_INVALID, jst,
                        "NOT confirmed: the opening to member %llu is wrong",
                        (unsigned long long)id);
    cli_say(c, "confirmed: the signature was made by member %llu of the group with key id %s",
            (unsigned long long)id, kid);
    return 0;
}

/* ---- export / import: the crate's raw layouts -------------------------------------------- */

/* The object of export/import: exactly one of --pk (manager public key) and --sig. */
static int xfer_object(cli_ctx *c, const char **path, grove_dgsp_file_type *type)
{
    const char *pk = cli_opt_str(c, "pk"), *sig = cli_opt_str(c, "sig");
    if ((pk == NULL) == (sig == NULL))
        return cli_fail(c, CLI_EXIT_USAGE, 0,
                        "give one of --pk FILE (the manager public key) and --sig FILE");
    *path = pk ? pk : sig;
    *type = pk ? GROVE_DGSP_FILE_PUBLIC_KEY : GROVE_DGSP_FILE_SIGNATURE;
    return 0;
}

/* --format: raw is the crate's layout; DGSP objects have no DER/PEM encoding. */
static int xfer_format(cli_ctx *c, grove_dgsp_file_type type)
{
    const char *f = cli_require(c, "format");
    if (f == NULL)
        return CLI_EXIT_USAGE;
    if (strcmp(f, "raw") == 0)
        return 0;
    if (strcmp(f, "der") == 0 || strcmp(f, "pem") == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "no standard DER encoding exists for a DGSP %s (nor PEM): use --format "
                        "raw, the original crate's layout",
                        grove_dgsp_file_type_name(type));
    return cli_fail(c, CLI_EXIT_USAGE, 0, "--format must be raw, der or pem (not '%s')", f);
}

/* What export and import report. */
static void xfer_report(cli_ctx *c, grove_dgsp_file_type t, const grove_dgsp_cfg *cfg,
                        const uint8_t *body, size_t len, const char *in, const char *out)
{
    char d[64], kid[17] = "";
    if (t == GROVE_DGSP_FILE_PUBLIC_KEY)
        group_key_id(cfg, body, kid);
    cli_out_str(c, "type", grove_dgsp_file_type_name(t));
    cli_out_str(c, "params", cfg_desc(cfg, d, sizeof d));
    if (kid[0])
        cli_out_str(c, "key_id", kid);
    cli_out_str(c, "format", "raw");
    cli_out_u64(c, "bytes", len);
    cli_say(c, "%s: DGSP %s (%s%s%s, %zu bytes) written to %s", in, grove_dgsp_file_type_name(t),
            d, kid[0] ? ", key id " : "", kid, len, out);
}

static int cmd_export(cli_ctx *c)
{
    const char *in = NULL, *out = cli_require(c, "out");
    grove_dgsp_file_type t = GROVE_DGSP_FILE_PUBLIC_KEY;
    int rc = out ? xfer_object(c, &in, &t) : CLI_EXIT_USAGE;
    if (rc == 0)
        rc = xfer_format(c, t);
    const char *ins[] = {in};
    if (rc == 0)
        rc = check_output(c, "--out", out, ins, 1);
    if (rc)
        return rc;
    grove_dgsp_cfg cfg;
    uint8_t *body = NULL;
    size_t len;
    rc = load_capped(c, in, t,
                     t == GROVE_DGSP_FILE_PUBLIC_KEY ? GROVE_DGSP_MAX_PK_BYTES
                                                     : GROVE_DGSP_MAX_SIG_BYTES,
                     &cfg, &body, &len, NULL);
    if (rc == 0)
        rc = check_params(c, in, &cfg);
    if (rc == 0)
        rc = cli_write_file(c, out, body, len, 0);
    if (rc == 0)
        xfer_report(c, t, &cfg, body, len, in, out);
    free(body);
    return rc;
}

static int cmd_import(cli_ctx *c)
{
    const char *in = NULL, *out = cli_require(c, "out");
    grove_dgsp_file_type t = GROVE_DGSP_FILE_PUBLIC_KEY;
    int rc = out ? xfer_object(c, &in, &t) : CLI_EXIT_USAGE;
    if (rc == 0)
        rc = xfer_format(c, t);
    grove_dgsp_cfg cfg;
    if (rc == 0)
        rc = cfg_from_flags(c, &cfg, NULL);
    const char *ins[] = {in};
    if (rc == 0)
        rc = check_output(c, "--out", out, ins, 1);
    if (rc)
        return rc;
    int pk = t == GROVE_DGSP_FILE_PUBLIC_KEY;
    size_t len = pk ? grove_dgsp_pk_bytes(&cfg) : grove_dgsp_sig_bytes(&cfg);
    uint8_t *body = NULL;
    rc = load_raw_exact(c, in, pk ? "public key" : "signature", len, &cfg, &body);
    /* a raw signature says nothing of its group: its file carries no key id */
    if (rc == 0)
        rc = save_obj(c, out, t, &cfg, body, len, NULL, 0);
    if (rc == 0)
        xfer_report(c, t, &cfg, body, len, in, out);
    free(body);
    return rc;
}

/* The parameter sets (grove_dgsp_params_at), with the sizes of the default flavour. */
static int cmd_params(cli_ctx *c)
{
    cli_say(c, "%-11s %3s %4s %6s %6s", "name", "n", "pk", "cert", "sig");
    cli_out_begin_array(c, "parameter_sets");
    for (size_t i = 0; i < grove_dgsp_params_count(); i++) {
        const grove_dgsp_params *p = grove_dgsp_params_at(i);
        grove_dgsp_cfg cfg;
        if (grove_dgsp_cfg_init(&cfg, p, GROVE_DGSP_FLAVOUR_R31, GROVE_DGSP_PROFILE_GROVE) !=
            GROVE_OK)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INTERNAL, "parameter set %zu", i);
        const char *name = grove_dgsp_params_name(p);
        int dflt = strcmp(name, DEFAULT_PARAMS) == 0;
        cli_say(c, "%-11s %3u %4zu %6zu %6zu%s", name, cfg.n, grove_dgsp_pk_bytes(&cfg),
                grove_dgsp_cert_bytes(&cfg), grove_dgsp_sig_bytes(&cfg), dflt ? "  (default)" : "");
        cli_out_begin_object(c, NULL);
        cli_out_str(c, "name", name);
        cli_out_bool(c, "default", dflt);
        cli_out_u64(c, "n", cfg.n);
        cli_out_u64(c, "pk_bytes", grove_dgsp_pk_bytes(&cfg));
        cli_out_u64(c, "sk_bytes", grove_dgsp_sk_bytes(&cfg));
        cli_out_u64(c, "cert_bytes", grove_dgsp_cert_bytes(&cfg));
        cli_out_u64(c, "sig_bytes", grove_dgsp_sig_bytes(&cfg));
        cli_out_end(c);
    }
    cli_out_end(c);
    return 0;
}

/* info on an SQLite file: a member wallet or a group store. */
static int info_sqlite(cli_ctx *c, const char *path)
{
    char d[64];
    grove_dgsp_wallet *w;
    if (grove_dgsp_wallet_open(&w, path) == GROVE_OK) {
        uint64_t p = 0, r = 0, u = 0;
        grove_status cst = grove_dgsp_wallet_counts(w, &p, &r, &u);
        if (cst != GROVE_OK) {
            grove_dgsp_wallet_close(w);
            return cli_fail(c, CLI_EXIT_USAGE, cst, "%s: cannot read the wallet: %s", path,
                            grove_strerror(cst));
        }
        uint8_t gpk[GROVE_DGSP_MAX_PK_BYTES];
        char kid[17] = "";
        if (grove_dgsp_wallet_group_pk(w, gpk) == GROVE_OK)
            group_key_id(grove_dgsp_wallet_cfg(w), gpk, kid);
        cli_out_str(c, "file", path);
        cli_out_str(c, "scheme", "DGSP");
        cli_out_str(c, "type", "wallet");
        cli_out_str(c, "params", cfg_desc(grove_dgsp_wallet_cfg(w), d, sizeof d));
        if (kid[0])
            cli_out_str(c, "key_id", kid);
        cli_out_u64(c, "id", grove_dgsp_wallet_id(w));
        cli_out_u64(c, "ready", r);
        cli_out_u64(c, "used", u);
        cli_out_u64(c, "pending", p);
        cli_say(c, "DGSP member wallet (%s%s%s): member %llu, %llu ready, %llu used, %llu "
                   "pending",
                d, kid[0] ? ", group key id " : "", kid,
                (unsigned long long)grove_dgsp_wallet_id(w), (unsigned long long)r,
                (unsigned long long)u, (unsigned long long)p);
        grove_dgsp_wallet_close(w);
        return 0;
    }
    grove_dgsp_store *s;
    if (grove_dgsp_store_sqlite_open(&s, path, 0) == GROVE_OK) {
        uint64_t m = 0;
        s->ops->member_count(s->ctx, &m);
        grove_dgsp_store_close(s);
        cli_out_str(c, "type", "group store");
        cli_out_u64(c, "members", m);
        cli_say(c, "DGSP group store: %llu members", (unsigned long long)m);
        return 0;
    }
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                    "%s: an SQLite file, but not a grove wallet or group store", path);
}

/* What info says of each type beyond its header. */
static void info_details(cli_ctx *c, grove_dgsp_file_type t, const uint8_t *body, size_t bl,
                         size_t n)
{
    switch (t) {
    case GROVE_DGSP_FILE_CREDENTIAL: {
        char user[GROVE_DGSP_MAX_USERNAME + 1];
        size_t ul = body[8 + 3 * n];
        memcpy(user, body + 9 + 3 * n, ul);
        user[ul] = '\0';
        cli_out_u64(c, "id", cli_load64_be(body));
        cli_out_str(c, "username", user);
        cli_say(c, "member %llu (%s)", (unsigned long long)cli_load64_be(body), user);
        break;
    }
    case GROVE_DGSP_FILE_CSR:
        cli_out_u64(c, "id", cli_load64_be(body));
        cli_out_u64(c, "count", cli_load32_be(body + 8 + n));
        cli_say(c, "member %llu asks for %u certificates", (unsigned long long)cli_load64_be(body),
                cli_load32_be(body + 8 + n));
        break;
    case GROVE_DGSP_FILE_CERTIFICATES:
        cli_out_u64(c, "id", cli_load64_be(body));
        cli_out_u64(c, "count", cli_load32_be(body + 8));
        cli_say(c, "%u certificates for member %llu", cli_load32_be(body + 8),
                (unsigned long long)cli_load64_be(body));
        break;
    case GROVE_DGSP_FILE_REVOCATIONS:
        cli_out_u64(c, "sequence", cli_load64_be(body));
        cli_out_u64(c, "time", cli_load64_be(body + 8));
        cli_out_u64(c, "entries", cli_load64_be(body + 16));
        cli_say(c, "revocation list #%llu, %llu entries (signature not checked here; use "
                   "verify --revocations)",
                (unsigned long long)cli_load64_be(body),
                (unsigned long long)cli_load64_be(body + 16));
        break;
    case GROVE_DGSP_FILE_PROOF:
        cli_out_u64(c, "id", cli_load64_be(body));
        cli_say(c, "opening proof for member %llu", (unsigned long long)cli_load64_be(body));
        break;
    case GROVE_DGSP_FILE_PUBLIC_KEY:
        cli_out_hex(c, "public_key", body, bl);
        break;
    default:
        break;
    }
}

static int cmd_info(cli_ctx *c)
{
    const char *path = cli_require(c, "file");
    if (path == NULL)
        return CLI_EXIT_USAGE;
    /* The path is opened once (a FIFO or device can be read only once): a regular file
     * starting with the SQLite header is a wallet or a group store, anything else is read
     * from this descriptor. */
    int fd = strcmp(path, "-") == 0 ? dup(0) : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_IO, "cannot open %s: %s", path,
                        strerror(errno));
    struct stat sb;
    uint8_t head[16] = {0};
    int sqlite = 0;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
        sqlite = pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head &&
                 memcmp(head, "SQLite format 3", 16) == 0;
    }
    if (sqlite) {
        close(fd);
        return info_sqlite(c, path);
    }
    grove_dgsp_cfg cfg;
    grove_dgsp_file_info fi;
    uint8_t *data, *body;
    size_t dl, bl;
    char d[64];
    int rr = cli_read_fd(fd, MAX_FILE, &data, &dl), e = errno;
    close(fd);
    if (rr != 0)
        return cli_fail(c, CLI_EXIT_USAGE, e == EFBIG ? GROVE_ERR_ENCODING : GROVE_ERR_IO,
                        "cannot read %s: %s", path,
                        e == EFBIG ? "too large for a grove DGSP file" : strerror(e));
    if (dl >= 16 && memcmp(data, "SQLite format 3", 16) == 0) {
        cli_free_secret(data, dl);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s: SQLite data that is not a regular file (give the wallet or store by "
                        "its path)",
                        path);
    }
    char err[256];
    grove_status st =
        decode_text(data, dl, GROVE_DGSP_FILE_ANY, &fi, &cfg, &body, &bl, 1, err, sizeof err);
    if (st != GROVE_OK && st != GROVE_ERR_STATE)
        not_dgsp_reason(data, dl, GROVE_DGSP_FILE_ANY, err, sizeof err);
    cli_free_secret(data, dl);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: %s", path, err);
    const grove_dgsp_file_type t = fi.type;
    /* the group's key id: the file's; an older file's from the manager public key it holds */
    const uint8_t *gpk = t == GROVE_DGSP_FILE_PUBLIC_KEY   ? body
                         : t == GROVE_DGSP_FILE_SECRET_KEY ? body + 4 * cfg.n
                         : t == GROVE_DGSP_FILE_CREDENTIAL ? body + 8 + cfg.n
                                                           : NULL;
    char kid[17] = "", set[GROVE_ENVELOPE_SET_MAX + 1] = "";
    if (fi.has_key_id)
        grove_envelope_key_id_hex(kid, fi.key_id);
    else if (gpk != NULL)
        group_key_id(&cfg, gpk, kid);
    if (grove_dgsp_set_name(&cfg, set) != GROVE_OK)
        set[0] = '\0';
    const char *enc = fi.form == GROVE_ENVELOPE_BINARY  ? "binary"
                      : fi.form == GROVE_ENVELOPE_ARMORED ? "armored"
                                                          : "dgsp-armor";
    cli_out_str(c, "file", path);
    cli_out_str(c, "scheme", "DGSP");
    cli_out_str(c, "type", grove_dgsp_file_type_name(t));
    cli_out_int(c, "version", (long long)fi.version);
    cli_out_str(c, "encoding", enc);
    cli_out_bool(c, "old_format", fi.old_format);
    cli_out_str(c, "set", set);
    cli_out_str(c, "params", grove_dgsp_params_name(cfg.params));
    cli_out_str(c, "flavour", grove_dgsp_flavour_name(grove_dgsp_cfg_flavour(&cfg)));
    cli_out_str(c, "profile", grove_dgsp_profile_name(cfg.profile));
    if (kid[0])
        cli_out_str(c, "key_id", kid);
    cli_out_u64(c, "bytes", bl);
    char form[64];
    if (fi.old_format)
        snprintf(form, sizeof form, "older DGSP armor v%u", fi.version);
    else
        snprintf(form, sizeof form, "%s grove file v%u", enc, fi.version);
    cli_say(c, "%s: grove DGSP %s, %s, %s, %zu bytes%s%s", path, grove_dgsp_file_type_name(t),
            form, cfg_desc(&cfg, d, sizeof d), bl, kid[0] ? ", key id " : "", kid);
    if (fi.old_format)
        cli_say(c, "  written by an earlier grove (still read)%s",
                t == GROVE_DGSP_FILE_SECRET_KEY || t == GROVE_DGSP_FILE_PUBLIC_KEY
                    ? ": `grove dgsp manager upgrade-key` rewrites it as a grove file"
                    : "");
    if (t == GROVE_DGSP_FILE_SECRET_KEY)
        cli_say(c, "%s", !fi.old_format || fi.version >= 2
                             ? "integrity check: ok"
                             : "no integrity check (v1): run `grove dgsp manager upgrade-key`");
    info_details(c, t, body, bl, cfg.n);
    cli_free_secret(body, bl);
    return 0;
}

/* ---- command table ------------------------------------------------------------------------ */

#define GROUP_OPT {"group", "DIR", "group folder (manager.pub, manager.sk, group.db)"}, \
    {"store", "URL", "member store: postgresql://... or an SQLite file (default DIR/group.db; env GROVE_STORE)"}, \
    {"state-dir", "DIR", "state registry (default $GROVE_STATE_DIR, $XDG_STATE_HOME/grove, ~/.local/state/grove)"}
#define FORCE_OPT {"force", NULL, "replace an existing output file"}
#define WALLET_OPT {"wallet", "FILE", "member wallet"}
#define BINARY_OPT {"binary", NULL, "write the binary grove file instead of armored text"}

static const cli_opt init_opts[] = {
    GROUP_OPT,
    {"params", "NAME", "SPHINCS+ set: shake-256f (default), sha2-128f, shake-128s, ..."},
    {"flavour", "NAME", "r3.1 (default, crate-compatible certificates) or fips205"},
    {"profile", "NAME", "grove (only this one can be created)"},
    {"seed", "HEX", "5N bytes for deterministic keys (tests)"},
    BINARY_OPT,
    {NULL, NULL, NULL},
};
static const cli_opt join_opts[] = {
    GROUP_OPT,
    {"username", "NAME", "the new member's name"},
    {"out", "FILE", "credential output (with --username)"},
    {"batch", "FILE", "one username per line ('-' for stdin); one transaction per chunk"},
    {"out-dir", "DIR", "with --batch: write <id>.cred credentials here"},
    {"skip-existing", NULL, "with --batch: usernames already in the group are skipped (resume; "
                            "their missing or damaged credentials in --out-dir are written again)"},
    BINARY_OPT,
    FORCE_OPT,
    {NULL, NULL, NULL},
};
static const cli_opt cred_opts[] = {
    GROUP_OPT, {"id", "N", "member id"}, {"out", "FILE", "credential output"}, BINARY_OPT,
    FORCE_OPT, {NULL, NULL, NULL},
};
static const cli_opt cert_opts[] = {
    GROUP_OPT,
    {"csr", "FILE", "the member's certificate signing request"},
    {"out", "FILE", "certificates output ('-' for stdout)"},
    {"threads", "N", "most threads signing at once (1: this thread only; default 0: one per CPU)"},
    {"max-certs", "N", "largest request accepted (default 1024, at most 1048576)"},
    BINARY_OPT,
    FORCE_OPT,
    {NULL, NULL, NULL},
};
static const cli_opt open_opts[] = {
    GROUP_OPT,
    {"msg", "FILE", "the signed message"},
    {"sig", "FILE", "the signature"},
    {"proof-out", "FILE", "write the opening proof (for judge; '-' for stdout)"},
    {"profile", "NAME", "grove (default) or dgsp-rs-0.1 (a signature made by the crate, imported "
                        "with `grove dgsp import --format raw --profile dgsp-rs-0.1`)"},
    BINARY_OPT,
    FORCE_OPT,
    {NULL, NULL, NULL},
};
static const cli_opt revoke_opts[] = {
    GROUP_OPT, {"id", "N", "member id to revoke (repeatable; all or none)"}, {NULL, NULL, NULL},
};
static const cli_opt export_opts[] = {
    GROUP_OPT,
    {"out", "FILE", "signed revocation list output ('-' for stdout)"},
    BINARY_OPT,
    FORCE_OPT,
    {NULL, NULL, NULL},
};
static const cli_opt status_opts[] = {
    GROUP_OPT, {"id", "N", "also show this member"}, {NULL, NULL, NULL},
};
static const cli_opt mrecover_opts[] = {GROUP_OPT, {NULL, NULL, NULL}};
static const cli_opt upgrade_opts[] = {
    {"group", "DIR", "group folder"},
    {"store", "URL", "member store (default DIR/group.db)"},
    {"credential", "FILE", "a member's credential (checks the hash secret)"},
    {"sig", "FILE", "a signature made in the group (checks the AES key)"},
    {"msg", "FILE", "the message of --sig"},
    BINARY_OPT,
    {NULL, NULL, NULL},
};
static const cli_opt minit_opts[] = {
    WALLET_OPT,
    {"credential", "FILE", "the credential from manager join"},
    {"seed", "HEX", "the member's long-term seed (N bytes; default random)"},
    {NULL, NULL, NULL},
};
static const cli_opt csr_opts[] = {
    WALLET_OPT,
    {"count", "B", "number of certificates to request (default 8)"},
    {"out", "FILE", "CSR output ('-' for stdout)"},
    BINARY_OPT,
    {NULL, NULL, NULL},
};
static const cli_opt import_opts[] = {
    WALLET_OPT,
    {"certs", "FILE", "certificates from manager cert"},
    {"pk", "FILE", "manager public key (default: the one from the credential)"},
    {NULL, NULL, NULL},
};
#define STATE_DIR_OPT {"state-dir", "DIR", "state registry folder (default $GROVE_STATE_DIR, else " \
                                          "$XDG_STATE_HOME/grove, else ~/.local/state/grove)"}
static const cli_opt sign_opts[] = {
    WALLET_OPT,
    {"msg", "FILE", "message ('-' for stdin)"},
    {"sig", "FILE", "signature output ('-' for stdout)"},
    BINARY_OPT,
    STATE_DIR_OPT,
    {NULL, NULL, NULL},
};
static const cli_opt minfo_opts[] = {WALLET_OPT, STATE_DIR_OPT, {NULL, NULL, NULL}};
static const cli_opt wrecover_opts[] = {WALLET_OPT, STATE_DIR_OPT, {NULL, NULL, NULL}};
static const cli_opt verify_opts[] = {
    {"pk", "FILE", "manager public key (manager.pub)"},
    {"msg", "FILE", "message ('-' for stdin)"},
    {"sig", "FILE", "signature ('-' for stdin)"},
    {"revocations", "FILE", "signed revocation list (checked against the manager key)"},
    {"revocation-store", "URL", "read revocations from the group's store (postgresql://... or SQLite file)"},
    {"params", "NAME", "check that the key is of this parameter set (the files name it)"},
    {NULL, NULL, NULL},
};
static const cli_opt judge_opts[] = {
    {"pk", "FILE", "manager public key (manager.pub)"},
    {"msg", "FILE", "message ('-' for stdin)"},
    {"sig", "FILE", "signature"},
    {"id", "N", "the member the manager says signed"},
    {"proof", "FILE", "the manager's opening proof"},
    {"params", "NAME", "check that the key is of this parameter set (the files name it)"},
    {NULL, NULL, NULL},
};
static const cli_opt info_opts[] = {{"file", "FILE", "any grove DGSP file or wallet ('-' for stdin)", 1},
                                    {NULL, NULL, NULL}};
static const cli_opt export_raw_opts[] = {
    {"pk", "FILE", "a manager public key file (manager.pub)"},
    {"sig", "FILE", "a signature file"},
    {"format", "FMT", "raw: the original crate's layout (DGSP has no DER or PEM encoding)"},
    {"out", "FILE", "raw output ('-' for stdout)"},
    {"params", "NAME", "check that the file is of this parameter set"},
    FORCE_OPT,
    {NULL, NULL, NULL},
};
static const cli_opt import_raw_opts[] = {
    {"pk", "FILE", "a raw manager public key (2N bytes; '-' for stdin)"},
    {"sig", "FILE", "a raw signature ('-' for stdin)"},
    {"format", "FMT", "raw: the original crate's layout (DGSP has no DER or PEM encoding)"},
    {"params", "NAME", "the parameter set (required): shake-256f, sha2-128f, ... or sphincs_sha2_128f"},
    {"flavour", "NAME", "r3.1 (default) or fips205"},
    {"profile", "NAME", "grove (default) or dgsp-rs-0.1 (data made by the original crate)"},
    {"out", "FILE", "grove DGSP file output ('-' for stdout; armored unless --binary)"},
    BINARY_OPT,
    FORCE_OPT,
    {NULL, NULL, NULL},
};

static const cli_opt params_opts[] = {{NULL, NULL, NULL}};

static const cli_command dgsp_commands[] = {
    {"manager init", cmd_manager_init, "create a group folder: keys and member store", init_opts},
    {"manager join", cmd_manager_join, "admit members (one, or a batch file)", join_opts},
    {"manager credential", cmd_manager_credential, "re-issue a member's credential", cred_opts},
    {"manager cert", cmd_manager_cert, "issue certificates for a member's CSR", cert_opts},
    {"manager open", cmd_manager_open, "find who signed (prints id and username)", open_opts},
    {"manager revoke", cmd_manager_revoke, "revoke members and all their certificates",
     revoke_opts},
    {"manager export-revocations", cmd_manager_export, "write the signed revocation list",
     export_opts},
    {"manager status", cmd_manager_status, "group summary and store consistency check",
     status_opts},
    {"manager recover", cmd_manager_recover,
     "raise a restored (older) group.db to what was issued, so nothing is issued twice",
     mrecover_opts},
    {"manager upgrade-key", cmd_manager_upgrade_key,
     "rewrite an older manager.sk (a v1 one after checks) and manager.pub as grove files",
     upgrade_opts},
    {"member init", cmd_member_init, "create a wallet from a credential", minit_opts},
    {"member csr", cmd_member_csr, "request certificates for fresh one-time keys", csr_opts},
    {"member import-certs", cmd_member_import, "check and store issued certificates",
     import_opts},
    {"member sign", cmd_member_sign, "sign a message (each certificate signs once)", sign_opts},
    {"member info", cmd_member_info, "what the wallet holds", minfo_opts},
    {"member recover", cmd_member_recover,
     "bring an older copy of a wallet up to date with the state registry", wrecover_opts},
    {"verify", cmd_verify, "verify a group signature (exit 0 valid, 1 invalid or revoked)",
     verify_opts},
    {"judge", cmd_judge, "check the manager's opening (exit 0 confirmed, 1 not)", judge_opts},
    {"info", cmd_info, "describe any grove DGSP file (and the group's key id)", info_opts},
    {"export", cmd_export, "write a public key or signature in the crate's raw layout",
     export_raw_opts},
    {"import", cmd_import, "make a grove file of a raw public key or signature (--params)",
     import_raw_opts},
    {"params", cmd_params, "list the 12 parameter sets and their sizes", params_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_dgsp = {"dgsp", "DGSP group signatures (post-quantum, fully dynamic)",
                                    dgsp_commands};
