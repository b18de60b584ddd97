/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove stm: Mithril STM stake-based threshold multisignatures, file based.
 *
 *   params      check parameters (m, k, phi_f) and write them (binary 24 bytes or JSON)
 *   keygen      secret key (32 bytes, mode 0600) and vk+pop (192 bytes)
 *   register    close a registration from a parties file (one "STAKE VKPOP" per line)
 *   avk         the aggregate verification key of a closed registration
 *   sign        single signature (exit 1 if the signer won no lottery)
 *   verify-sig  check a single signature against the closed registration
 *   aggregate   clerk: aggregate single signatures (exit 1 if fewer than k indexes)
 *   verify      check an aggregate against the AVK (exit 1 if invalid)
 *
 * Parameters, AVKs, single signatures and aggregates are written in --format bin (grove's
 * native big-endian layouts, the default) or json (the serde_json shapes of mithril-stm); on
 * input the format is detected (JSON starts with '{' after optional whitespace). The closed
 * registration is grove's own binary file ("GRVSTMR1").
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "grove/io.h"
#include "grove/json.h"
#include "grove/stm.h"

#define FORMAT_HELP "bin (default; grove's binary layout) or json (serde_json shape)"
#define PARAMS_IN_HELP "parameters file (binary 24 bytes or JSON {\"m\",\"k\",\"phi_f\"})"
#define MSG_HELP "message ('-' for stdin; default stdin)"
/* `threads` as grove/common.h has it: the most threads at once, the calling one included. */
#define THREADS_HELP "threads at most, this one included (default 0: one per CPU; 1: no others)"
#define STM_MAX_FILE CLI_MAX_INPUT
/* Parameters and AVKs: 24 / 48 bytes in binary; JSON with generous room for whitespace. */
#define STM_MAX_SMALL_JSON ((size_t)64 << 10)
/* The set name bound into the secret key file's integrity check. */
#define STM_KEY_SET "STM-BLS12-381"

static const cli_opt params_opts[] = {
    {"m", "N", "number of lottery indexes (1..2^32)"},
    {"k", "N", "quorum: indexes an aggregate needs (1..m)"},
    {"phi-f", "X", "win probability for the whole stake: (0, 0.95] or 1.0"},
    {"in", "FILE", "read parameters from this file instead of --m/--k/--phi-f"},
    {"out", "FILE", "write the parameters here ('-' for stdout)"},
    {"format", "FMT", FORMAT_HELP},
    {NULL, NULL, NULL},
};

static const cli_opt keygen_opts[] = {
    {"sk", "FILE", "secret key output, 32 bytes + integrity trailer (mode 0600; not replaced "
                   "unless --force)"},
    {"vkpop", "FILE", "verification key + proof of possession output, 192 bytes"},
    {"seed", "HEX", "deterministic key from this 32-byte seed; default: random"},
    {"force", NULL, "replace an existing --sk file"},
    {NULL, NULL, NULL},
};

static const cli_opt register_opts[] = {
    {"parties", "FILE", "one party per line: STAKE VKPOP (VKPOP = 384 hex digits or a file "
                        "of 192 bytes; '#' comments)"},
    {"out", "FILE", "closed registration output (grove's binary file)"},
    {"avk", "FILE", "also write the aggregate verification key here"},
    {"format", "FMT", "format of --avk: " FORMAT_HELP},
    {"threads", "N", THREADS_HELP},
    {NULL, NULL, NULL},
};

static const cli_opt avk_opts[] = {
    {"closed", "FILE", "closed registration"},
    {"out", "FILE", "aggregate verification key output ('-' for stdout)"},
    {"format", "FMT", FORMAT_HELP},
    {NULL, NULL, NULL},
};

static const cli_opt sign_opts[] = {
    {"params", "FILE", PARAMS_IN_HELP},
    {"sk", "FILE", "secret key (as written by keygen, or raw 32 bytes: not checked)"},
    {"closed", "FILE", "closed registration (must contain this key)"},
    {"msg", "FILE", MSG_HELP},
    {"out", "FILE", "single signature output ('-' for stdout)"},
    {"format", "FMT", FORMAT_HELP},
    {NULL, NULL, NULL},
};

static const cli_opt verify_sig_opts[] = {
    {"params", "FILE", PARAMS_IN_HELP},
    {"closed", "FILE", "closed registration"},
    {"msg", "FILE", MSG_HELP},
    {"sig", "FILE", "single signature (binary or JSON)"},
    {NULL, NULL, NULL},
};

static const cli_opt aggregate_opts[] = {
    {"params", "FILE", PARAMS_IN_HELP},
    {"closed", "FILE", "closed registration"},
    {"msg", "FILE", MSG_HELP},
    {"sig", "FILE", "a single signature (binary or JSON); repeat for each signer"},
    {"sig-list", "FILE", "a file naming one signature file per line (adds to --sig)"},
    {"out", "FILE", "aggregate output ('-' for stdout)"},
    {"format", "FMT", FORMAT_HELP},
    {"threads", "N", THREADS_HELP},
    {NULL, NULL, NULL},
};

static const cli_opt verify_opts[] = {
    {"params", "FILE", PARAMS_IN_HELP},
    {"avk", "FILE", "aggregate verification key (binary 48 bytes or JSON)"},
    {"msg", "FILE", MSG_HELP},
    {"agg", "FILE", "aggregate signature (binary or JSON)"},
    {NULL, NULL, NULL},
};

/* ---- helpers ------------------------------------------------------------------------------ */

static int is_json(const uint8_t *b, size_t len)
{
    size_t i = 0;
    while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
        i++;
    return i < len && b[i] == '{';
}

/* --format: 0 binary, 1 JSON. */
static int get_format(cli_ctx *c, int *json)
{
    const char *f = cli_opt_str(c, "format");
    *json = 0;
    if (f == NULL || strcmp(f, "bin") == 0)
        return 0;
    if (strcmp(f, "json") == 0) {
        *json = 1;
        return 0;
    }
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED, "--format must be bin or json");
}

static int get_threads(cli_ctx *c, unsigned *threads)
{
    uint64_t t;
    int rc = cli_opt_u64(c, "threads", 0, 1024, GROVE_THREADS_AUTO, &t);
    *threads = (unsigned)t;
    return rc;
}

static int read_opt_file(cli_ctx *c, const char *opt, size_t max, uint8_t **buf, size_t *len)
{
    const char *path = cli_require(c, opt);
    if (path == NULL)
        return CLI_EXIT_USAGE;
    return cli_read_file(c, path, max, buf, len);
}

static int read_msg(cli_ctx *c, uint8_t **msg, size_t *len)
{
    const char *p = cli_opt_str(c, "msg");
    return cli_read_file(c, p ? p : "-", CLI_MAX_INPUT, msg, len);
}

/* Write binary or JSON text (a trailing newline is added to JSON). */
static int write_out(cli_ctx *c, const char *path, const uint8_t *bin, size_t binlen,
                     const char *json)
{
    if (json == NULL)
        return cli_write_file(c, path, bin, binlen, 0);
    size_t l = strlen(json);
    char *t = malloc(l + 2);
    if (t == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    memcpy(t, json, l);
    t[l] = '\n';
    int rc = cli_write_file(c, path, (const uint8_t *)t, l + 1, 0);
    free(t);
    return rc;
}

static void out_phi(cli_ctx *c, double phi)
{
    char num[32];
    if (grove_json_format_double(num, phi))
        cli_out_raw(c, "phi_f", num);
}

static int read_params(cli_ctx *c, const char *opt, grove_stm_params *p)
{
    uint8_t *b;
    size_t len;
    int rc = read_opt_file(c, opt, STM_MAX_SMALL_JSON, &b, &len);
    if (rc)
        return rc;
    int st = is_json(b, len) ? grove_stm_params_from_json(p, (const char *)b, len)
                             : grove_stm_params_from_bytes(p, b, len);
    free(b);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: not valid STM parameters (%s)",
                        cli_opt_str(c, opt), grove_strerror(st));
    return 0;
}

static int read_avk(cli_ctx *c, const char *opt, grove_stm_avk *avk)
{
    uint8_t *b;
    size_t len;
    int rc = read_opt_file(c, opt, STM_MAX_SMALL_JSON, &b, &len);
    if (rc)
        return rc;
    int st = is_json(b, len) ? grove_stm_avk_from_json(avk, (const char *)b, len)
                             : grove_stm_avk_from_bytes(avk, b, len);
    free(b);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: not a valid aggregate verification key (%s)",
                        cli_opt_str(c, opt), grove_strerror(st));
    return 0;
}

/* A closed registration is "GRVSTMR1" || n u64 || n entries: its header bounds its size. */
static size_t closed_limit(const uint8_t *hdr, size_t hdrlen, void *arg)
{
    (void)arg;
    uint64_t n = 0;
    for (size_t i = 8; i < 16 && i < hdrlen; i++)
        n = (n << 8) | hdr[i];
    if (hdrlen < 16 || memcmp(hdr, "GRVSTMR1", 8) != 0 || n > GROVE_STM_MAX_PARTIES)
        return hdrlen; /* not a closed registration: the decoder refuses it */
    return 16 + (size_t)n * GROVE_STM_ENTRY_BYTES;
}

static int read_closed(cli_ctx *c, grove_stm_closed **closed)
{
    uint8_t *b;
    size_t len;
    const char *path = cli_require(c, "closed");
    if (path == NULL)
        return CLI_EXIT_USAGE;
    int rc = cli_read_file_hdr(c, path, 16, closed_limit, NULL, STM_MAX_FILE, &b, &len);
    if (rc)
        return rc;
    int st = grove_stm_closed_from_bytes(closed, b, len);
    free(b);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: not a valid closed registration (%s)",
                        cli_opt_str(c, "closed"), grove_strerror(st));
    return 0;
}

/* The JSON form of an object whose binary form has at most bin bytes: at most 32 characters a
 * byte (numbers, separators, pretty-printing), capped by the JSON reader's limit. */
static size_t json_bound(uint64_t bin)
{
    uint64_t j = bin > GROVE_JSON_MAX_INPUT / 32 ? GROVE_JSON_MAX_INPUT : 32 * bin + 65536;
    if (j > GROVE_JSON_MAX_INPUT)
        j = GROVE_JSON_MAX_INPUT;
    return (size_t)(j > bin ? j : bin);
}

/* Largest single signature for m lottery indexes: nr || m indexes || sigma || signer index. */
static size_t sig_file_max(const grove_stm_params *p)
{
    uint64_t m = p->m > GROVE_STM_MAX_M ? GROVE_STM_MAX_M : p->m;
    return json_bound(8 + 8 * m + GROVE_STM_SIGMA_BYTES + 8);
}

/* Largest aggregate for m indexes and L registered parties (binary layout in grove/stm.h). */
static size_t agg_file_max(const grove_stm_params *p, const grove_stm_avk *avk)
{
    uint64_t m = p->m > GROVE_STM_MAX_M ? GROVE_STM_MAX_M : p->m;
    uint64_t l = avk->nr_leaves > GROVE_STM_MAX_PARTIES ? GROVE_STM_MAX_PARTIES : avk->nr_leaves;
    /* per signature: 3 lengths, entry, nr, sigma, signer index; the batch path: at most 4L
     * node values and L indices; all the indexes together: at most m */
    uint64_t bin = 1 + 8 + 16 + l * (24 + GROVE_STM_ENTRY_BYTES + 16 + GROVE_STM_SIGMA_BYTES +
                                     4 * 32 + 8) + 8 * m;
    size_t max = json_bound(bin);
    return max > STM_MAX_FILE ? STM_MAX_FILE : max;
}

/* A single signature file: GROVE status of decoding (the caller decides the exit code). */
static int load_sig(cli_ctx *c, const char *path, const grove_stm_params *p, grove_stm_sig *sig,
                    int *io_rc)
{
    uint8_t *b;
    size_t len;
    *io_rc = cli_read_file(c, path, sig_file_max(p), &b, &len);
    if (*io_rc)
        return GROVE_ERR_IO;
    int st = is_json(b, len) ? grove_stm_sig_from_json(sig, (const char *)b, len)
                             : grove_stm_sig_from_bytes(sig, b, len);
    free(b);
    return st;
}

static void out_avk(cli_ctx *c, const grove_stm_avk *avk)
{
    char *j = NULL;
    if (grove_stm_avk_to_json(avk, &j) == GROVE_OK)
        cli_out_raw(c, "avk", j);
    free(j);
}

/* Write an AVK in the requested format. */
static int write_avk(cli_ctx *c, const char *path, int json, const grove_stm_avk *avk)
{
    uint8_t bin[GROVE_STM_AVK_BYTES];
    char *j = NULL;
    if (json && grove_stm_avk_to_json(avk, &j) != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    grove_stm_avk_to_bytes(avk, bin);
    int rc = write_out(c, path, bin, sizeof bin, j);
    free(j);
    return rc;
}

/* ---- params ------------------------------------------------------------------------------- */

/* A decimal number (JSON grammar, correctly rounded). */
static int parse_double(const char *s, double *v)
{
    grove_json_doc *d;
    if (grove_json_parse(&d, s, strlen(s)) != GROVE_OK)
        return -1;
    int r = grove_json_root(d)->type == GROVE_JSON_NUMBER
                ? grove_json_double(d, grove_json_root(d), v)
                : -1;
    grove_json_free(d);
    return r;
}

static int cmd_params(cli_ctx *c)
{
    grove_stm_params p;
    int json, rc;
    if ((rc = get_format(c, &json)) != 0)
        return rc;
    if (cli_opt_str(c, "in") != NULL) {
        if (cli_opt_str(c, "m") || cli_opt_str(c, "k") || cli_opt_str(c, "phi-f"))
            return cli_fail(c, CLI_EXIT_USAGE, 0, "--in excludes --m, --k and --phi-f");
        if ((rc = read_params(c, "in", &p)) != 0)
            return rc;
    } else {
        const char *m = cli_require(c, "m"), *k = cli_require(c, "k");
        const char *phi = cli_require(c, "phi-f");
        if (m == NULL || k == NULL || phi == NULL)
            return CLI_EXIT_USAGE;
        if (cli_parse_u64(m, &p.m) != 0 || cli_parse_u64(k, &p.k) != 0)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                            "--m and --k must be whole numbers");
        if (parse_double(phi, &p.phi_f) != 0)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                            "--phi-f must be a decimal number such as 0.2");
        int st = grove_stm_params_check(&p);
        if (st != GROVE_OK)
            return cli_fail(c, CLI_EXIT_USAGE, st,
                            "invalid parameters: need 1 <= k <= m <= 2^32 and phi_f in "
                            "(0, 0.95] or exactly 1.0");
    }
    uint8_t bin[GROVE_STM_PARAMS_BYTES];
    char *j = NULL;
    grove_stm_params_to_bytes(&p, bin);
    if (grove_stm_params_to_json(&p, &j) != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    const char *out = cli_opt_str(c, "out");
    const char *const in[] = {cli_opt_str(c, "in")};
    if (out != NULL && ((rc = cli_refuse_same_file(c, "--out", out, in, 1)) != 0 ||
                        (rc = write_out(c, out, bin, sizeof bin, json ? j : NULL)) != 0)) {
        free(j);
        return rc;
    }
    cli_out_u64(c, "m", p.m);
    cli_out_u64(c, "k", p.k);
    out_phi(c, p.phi_f);
    cli_out_hex(c, "bytes", bin, sizeof bin);
    if (out == NULL || strcmp(out, "-") != 0)
        cli_say(c, "parameters %s", j);
    if (out != NULL && strcmp(out, "-") != 0)
        cli_say(c, "written to %s (%s)", out, json ? "JSON" : "24 bytes");
    free(j);
    return 0;
}

/* ---- keygen ------------------------------------------------------------------------------- */

static int cmd_keygen(cli_ctx *c)
{
    const char *skpath = cli_require(c, "sk"), *vkpath = cli_require(c, "vkpop");
    if (skpath == NULL || vkpath == NULL)
        return CLI_EXIT_USAGE;
    const char *const others[] = {skpath};
    int rc = cli_refuse_same_file(c, "--vkpop", vkpath, others, 1);
    if (rc || (rc = cli_refuse_existing_secret(c, "--sk", skpath)) != 0)
        return rc;
    uint8_t sk[GROVE_STM_SK_BYTES], vkpop[GROVE_STM_VKPOP_BYTES];
    uint8_t *seed = NULL;
    size_t seedlen = 0;
    rc = cli_hex_opt(c, "seed", GROVE_STM_SEED_BYTES, &seed, &seedlen);
    if (rc)
        return rc;
    if (seed != NULL && seedlen != GROVE_STM_SEED_BYTES) {
        cli_free_secret(seed, seedlen);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                        "--seed must be %d bytes (%d hex digits)", GROVE_STM_SEED_BYTES,
                        2 * GROVE_STM_SEED_BYTES);
    }
    int st = grove_stm_keygen(vkpop, sk, seed);
    if (seed != NULL)
        cli_free_secret(seed, seedlen);
    if (st != GROVE_OK) {
        grove_wipe(sk, sizeof sk);
        return cli_fail_status(c, st, "key generation failed");
    }
    rc = cli_write_secret_key(c, skpath, STM_KEY_SET, sk, sizeof sk, vkpop, sizeof vkpop);
    grove_wipe(sk, sizeof sk);
    if (rc)
        return rc;
    if ((rc = cli_write_file(c, vkpath, vkpop, sizeof vkpop, 0)) != 0)
        return rc;
    cli_out_hex(c, "vkpop", vkpop, sizeof vkpop);
    cli_say(c, "STM key written: secret key %s (32 bytes + integrity check), vk+pop %s (192 bytes)",
            skpath, vkpath);
    return 0;
}

/* ---- register ----------------------------------------------------------------------------- */

/* The folder part of a path ("." if none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *s = strrchr(path, '/');
    if (s == NULL || strcmp(path, "-") == 0)
        return strdup(".");
    size_t l = s == path ? 1 : (size_t)(s - path);
    char *d = malloc(l + 1);
    if (d != NULL) {
        memcpy(d, path, l);
        d[l] = '\0';
    }
    return d;
}

/* One VKPOP field: 384 hex digits, or a file of 192 bytes (relative to dir). */
static int party_vkpop(cli_ctx *c, const char *field, const char *dir, size_t line,
                       uint8_t out[GROVE_STM_VKPOP_BYTES])
{
    size_t fl = strlen(field), got;
    if (fl == 2 * GROVE_STM_VKPOP_BYTES &&
        grove_hex_decode(out, GROVE_STM_VKPOP_BYTES, &got, field, fl) == GROVE_OK)
        return 0;
    char path[4096];
    if (field[0] == '/')
        snprintf(path, sizeof path, "%s", field);
    else if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, field) >= sizeof path)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "parties line %zu: path too long", line);
    if (access(path, R_OK) != 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "parties line %zu: '%s' is neither 384 hex digits nor a readable file",
                        line, field);
    uint8_t *b;
    size_t len;
    int rc = cli_read_file(c, path, GROVE_STM_VKPOP_BYTES, &b, &len);
    if (rc)
        return rc;
    if (len != GROVE_STM_VKPOP_BYTES) {
        free(b);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "parties line %zu: %s has %zu bytes, a vk+pop has 192", line, path, len);
    }
    memcpy(out, b, GROVE_STM_VKPOP_BYTES);
    free(b);
    return 0;
}

static int cmd_register(cli_ctx *c)
{
    const char *ppath = cli_require(c, "parties"), *out = cli_require(c, "out");
    if (ppath == NULL || out == NULL)
        return CLI_EXIT_USAGE;
    const char *avkpath = cli_opt_str(c, "avk");
    int json, rc;
    unsigned threads;
    if ((rc = get_format(c, &json)) != 0 || (rc = get_threads(c, &threads)) != 0)
        return rc;
    const char *const for_out[] = {ppath, avkpath}, *const for_avk[] = {ppath, out};
    if ((rc = cli_refuse_same_file(c, "--out", out, for_out, 2)) != 0 ||
        (rc = cli_refuse_same_file(c, "--avk", avkpath, for_avk, 2)) != 0)
        return rc;
    uint8_t *text;
    size_t tlen;
    if ((rc = cli_read_file(c, ppath, STM_MAX_FILE, &text, &tlen)) != 0)
        return rc;
    char *dir = dir_of(ppath);
    size_t cap = 0, n = 0, line = 0, *lines = NULL;
    uint64_t *stakes = NULL;
    uint8_t *vkpops = NULL;
    grove_stm_keyreg *reg = NULL;
    grove_stm_closed *closed = NULL;
    uint8_t *bin = NULL;
    if (dir == NULL) {
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (size_t pos = 0; pos < tlen && rc == 0;) {
        size_t end = pos;
        while (end < tlen && text[end] != '\n')
            end++;
        line++;
        char buf[8192];
        size_t l = end - pos;
        if (l >= sizeof buf) {
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING, "parties line %zu is too long",
                          line);
            break;
        }
        memcpy(buf, text + pos, l);
        buf[l] = '\0';
        pos = end + 1;
        if (memchr(buf, '\0', l) != NULL) {
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING, "parties line %zu: NUL byte",
                          line);
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *save = NULL, *f1 = strtok_r(buf, " \t\r", &save);
        if (f1 == NULL)
            continue; /* blank or comment */
        char *f2 = strtok_r(NULL, " \t\r", &save), *f3 = strtok_r(NULL, " \t\r", &save);
        uint64_t stake;
        if (f2 == NULL || f3 != NULL || cli_parse_u64(f1, &stake) != 0) {
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                          "parties line %zu: expected 'STAKE VKPOP' (stake a whole number)",
                          line);
            break;
        }
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 64;
            if (nc > GROVE_STM_MAX_PARTIES) {
                rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_OVERFLOW, "too many parties");
                break;
            }
            uint64_t *s2 = realloc(stakes, nc * sizeof *s2);
            if (s2)
                stakes = s2;
            size_t *l2 = realloc(lines, nc * sizeof *l2);
            if (l2)
                lines = l2;
            uint8_t *v2 = realloc(vkpops, nc * GROVE_STM_VKPOP_BYTES);
            if (v2)
                vkpops = v2;
            if (!s2 || !l2 || !v2) {
                rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
                break;
            }
            cap = nc;
        }
        if ((rc = party_vkpop(c, f2, dir, line, vkpops + n * GROVE_STM_VKPOP_BYTES)) != 0)
            break;
        stakes[n] = stake;
        lines[n] = line;
        n++;
    }
    if (rc)
        goto done;
    if (n == 0) {
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG, "%s lists no party", ppath);
        goto done;
    }
    int st = grove_stm_keyreg_new(&reg);
    size_t bad = 0;
    if (st == GROVE_OK)
        st = grove_stm_keyreg_add_many(reg, &bad, stakes, vkpops, n, threads);
    if (st != GROVE_OK) {
        if (reg != NULL && bad < n)
            rc = cli_fail(c, CLI_EXIT_USAGE, st, "parties line %zu: %s", lines[bad],
                          st == GROVE_ERR_EXISTS   ? "this key is already registered"
                          : st == GROVE_ERR_VERIFY ? "bad proof of possession"
                          : st == GROVE_ERR_ENCODING
                              ? "not a valid verification key"
                              : grove_strerror(st));
        else
            rc = cli_fail_status(c, st, "registration failed");
        goto done;
    }
    if ((st = grove_stm_keyreg_close(reg, &closed)) != GROVE_OK) {
        rc = cli_fail(c, CLI_EXIT_USAGE, st, "cannot close the registration: %s",
                      st == GROVE_ERR_OVERFLOW    ? "the total stake exceeds 2^64 - 1"
                      : st == GROVE_ERR_INVALID_ARG ? "the total stake is 0"
                                                    : grove_strerror(st));
        goto done;
    }
    size_t blen = grove_stm_closed_encoded_bytes(closed);
    bin = malloc(blen ? blen : 1);
    if (bin == NULL || (st = grove_stm_closed_to_bytes(closed, bin, blen, &blen)) != GROVE_OK) {
        rc = cli_fail_status(c, bin == NULL ? GROVE_ERR_NOMEM : st, "cannot encode");
        goto done;
    }
    if ((rc = cli_write_file(c, out, bin, blen, 0)) != 0)
        goto done;
    grove_stm_avk avk;
    grove_stm_closed_avk(closed, &avk);
    if (avkpath != NULL && (rc = write_avk(c, avkpath, json, &avk)) != 0)
        goto done;
    cli_out_u64(c, "parties", grove_stm_closed_count(closed));
    cli_out_u64(c, "total_stake", grove_stm_closed_total_stake(closed));
    cli_out_hex(c, "root", avk.root, sizeof avk.root);
    out_avk(c, &avk);
    {
        char hex[2 * GROVE_STM_ROOT_BYTES + 1];
        grove_hex_encode(hex, avk.root, sizeof avk.root);
        cli_say(c, "registration closed: %llu parties, total stake %llu, root %s",
                (unsigned long long)grove_stm_closed_count(closed),
                (unsigned long long)grove_stm_closed_total_stake(closed), hex);
    }
done:
    free(bin);
    grove_stm_closed_free(closed);
    grove_stm_keyreg_free(reg);
    free(stakes);
    free(lines);
    free(vkpops);
    free(dir);
    free(text);
    return rc;
}

static int cmd_avk(cli_ctx *c)
{
    int json, rc;
    const char *out = cli_require(c, "out");
    if (out == NULL)
        return CLI_EXIT_USAGE;
    if ((rc = get_format(c, &json)) != 0)
        return rc;
    const char *const in[] = {cli_opt_str(c, "closed")};
    if ((rc = cli_refuse_same_file(c, "--out", out, in, 1)) != 0)
        return rc;
    grove_stm_closed *closed;
    if ((rc = read_closed(c, &closed)) != 0)
        return rc;
    grove_stm_avk avk;
    grove_stm_closed_avk(closed, &avk);
    grove_stm_closed_free(closed);
    if ((rc = write_avk(c, out, json, &avk)) != 0)
        return rc;
    out_avk(c, &avk);
    if (strcmp(out, "-") != 0)
        cli_say(c, "aggregate verification key written to %s", out);
    return 0;
}

/* ---- sign / verify-sig -------------------------------------------------------------------- */

static int write_sig(cli_ctx *c, const char *path, int json, const grove_stm_sig *sig)
{
    char *j = NULL;
    uint8_t *bin = NULL;
    size_t blen = grove_stm_sig_encoded_bytes(sig);
    int st = json ? grove_stm_sig_to_json(sig, &j)
                  : ((bin = malloc(blen ? blen : 1)) == NULL
                         ? GROVE_ERR_NOMEM
                         : grove_stm_sig_to_bytes(sig, bin, blen, &blen));
    int rc = st == GROVE_OK ? write_out(c, path, bin, blen, j)
                            : cli_fail_status(c, st, "cannot encode the signature");
    free(j);
    free(bin);
    return rc;
}

static int cmd_sign(cli_ctx *c)
{
    const char *out = cli_require(c, "out");
    if (out == NULL)
        return CLI_EXIT_USAGE;
    int json, rc;
    grove_stm_params p;
    if ((rc = get_format(c, &json)) != 0 || (rc = read_params(c, "params", &p)) != 0)
        return rc;
    const char *skpath = cli_require(c, "sk");
    if (skpath == NULL)
        return CLI_EXIT_USAGE;
    const char *mpath = cli_opt_str(c, "msg");
    const char *const inputs[] = {cli_opt_str(c, "params"), skpath, cli_opt_str(c, "closed"),
                                  mpath ? mpath : "-"};
    if ((rc = cli_refuse_same_file(c, "--out", out, inputs, 4)) != 0)
        return rc;
    uint8_t sk[GROVE_STM_SK_BYTES], vkpop[GROVE_STM_VKPOP_BYTES], trailer[CLI_SK_TRAILER_BYTES];
    uint8_t *msg = NULL;
    int sealed = 0;
    /* The key is checked (integrity trailer, bound to its vk+pop) before anything else. */
    if ((rc = cli_read_secret_key(c, skpath, sizeof sk, sk, trailer, &sealed)) != 0)
        return rc;
    int st = grove_stm_vkpop_from_sk(vkpop, sk);
    if (st != GROVE_OK)
        rc = cli_fail(c, CLI_EXIT_USAGE, st, "%s: not an STM secret key (0 or not below r)",
                      skpath);
    else
        rc = cli_check_secret_key(c, skpath, STM_KEY_SET, sk, sizeof sk, vkpop, sizeof vkpop,
                                  trailer, sealed);
    if (rc) {
        grove_wipe(sk, sizeof sk);
        return rc;
    }
    grove_stm_closed *closed = NULL;
    grove_stm_signer *signer = NULL;
    grove_stm_sig sig;
    memset(&sig, 0, sizeof sig);
    size_t mlen;
    if ((rc = read_closed(c, &closed)) != 0 || (rc = read_msg(c, &msg, &mlen)) != 0)
        goto done;
    st = grove_stm_signer_new(&p, &signer, sk, closed);
    if (st != GROVE_OK) {
        rc = st == GROVE_ERR_NOT_FOUND
                 ? cli_fail(c, CLI_EXIT_USAGE, st, "this key is not in the closed registration")
                 : cli_fail_status(c, st, "cannot make a signer");
        goto done;
    }
    st = grove_stm_sign(signer, &sig, msg, mlen);
    cli_out_u64(c, "signer_index", grove_stm_signer_index(signer));
    cli_out_u64(c, "stake", grove_stm_signer_stake(signer));
    if (st == GROVE_ERR_LOTTERY_LOST) {
        cli_out_bool(c, "won", 0);
        rc = cli_fail(c, CLI_EXIT_INVALID, st,
                      "lottery lost: this signer won none of the %llu lottery indexes for this "
                      "message (no signature written; not an input error)",
                      (unsigned long long)p.m);
        goto done;
    }
    if (st != GROVE_OK) {
        rc = cli_fail_status(c, st, "signing failed");
        goto done;
    }
    /* Self-check: never write a signature that does not verify against the registration. */
    if ((st = grove_stm_sig_verify(&p, &sig, msg, mlen, closed)) != GROVE_OK) {
        rc = cli_fail_self_check(c, st);
        goto done;
    }
    if ((rc = write_sig(c, out, json, &sig)) != 0)
        goto done;
    cli_out_bool(c, "won", 1);
    {
        char *j = NULL;
        if (grove_stm_sig_to_json(&sig, &j) == GROVE_OK)
            cli_out_raw(c, "signature", j);
        free(j);
    }
    if (strcmp(out, "-") != 0)
        cli_say(c, "signer %llu won %zu of %llu lottery indexes; signature written to %s",
                (unsigned long long)sig.signer_index, sig.n_indexes, (unsigned long long)p.m,
                out);
done:
    grove_stm_sig_clear(&sig);
    grove_stm_signer_free(signer);
    grove_stm_closed_free(closed);
    grove_wipe(sk, sizeof sk);
    free(msg);
    return rc;
}

/* Exit code and words for a verification status. */
static int verdict(cli_ctx *c, int st, const char *what)
{
    const char *why = NULL;
    switch (st) {
    case GROVE_OK:
        cli_out_bool(c, "valid", 1);
        cli_say(c, "%s is valid", what);
        return 0;
    case GROVE_ERR_VERIFY:
        why = "the BLS signature, a lottery index, the quorum or the Merkle path does not check";
        break;
    case GROVE_ERR_NOT_FOUND: why = "unknown signer index"; break;
    case GROVE_ERR_ENCODING:
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s is malformed (not a well-formed %s)", what,
                        what);
    default: return cli_fail_status(c, st, "verification could not run");
    }
    cli_out_bool(c, "valid", 0);
    return cli_fail(c, CLI_EXIT_INVALID, st, "%s is NOT valid: %s", what, why);
}

static int cmd_verify_sig(cli_ctx *c)
{
    int rc;
    grove_stm_params p;
    if ((rc = read_params(c, "params", &p)) != 0)
        return rc;
    const char *sigpath = cli_require(c, "sig");
    if (sigpath == NULL)
        return CLI_EXIT_USAGE;
    grove_stm_closed *closed = NULL;
    uint8_t *msg = NULL;
    size_t mlen;
    grove_stm_sig sig;
    memset(&sig, 0, sizeof sig);
    if ((rc = read_closed(c, &closed)) != 0 || (rc = read_msg(c, &msg, &mlen)) != 0)
        goto done;
    int io;
    int st = load_sig(c, sigpath, &p, &sig, &io);
    if (io) {
        rc = io;
        goto done;
    }
    /* A file that does not decode is an input error (exit 2), not an invalid signature. */
    if (st != GROVE_OK) {
        rc = cli_fail(c, CLI_EXIT_USAGE, st, "%s: not a well-formed single signature (%s)",
                      sigpath, grove_strerror(st));
        goto done;
    }
    st = grove_stm_sig_verify(&p, &sig, msg, mlen, closed);
    cli_out_u64(c, "signer_index", sig.signer_index);
    cli_out_u64(c, "indexes", sig.n_indexes);
    rc = verdict(c, st, "signature");
done:
    grove_stm_sig_clear(&sig);
    grove_stm_closed_free(closed);
    free(msg);
    return rc;
}

/* ---- aggregate / verify ------------------------------------------------------------------- */

/* Collect --sig values and the lines of --sig-list files (malloc'd array of malloc'd paths). */
static int sig_paths(cli_ctx *c, char ***paths, size_t *n)
{
    const char *const *vals;
    size_t nv = cli_opt_all(c, "sig", &vals), cap = nv + 16, k = 0;
    char **p = malloc(cap * sizeof *p);
    if (p == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < nv; i++)
        p[k++] = strdup(vals[i]);
    const char *const *lists;
    size_t nl = cli_opt_all(c, "sig-list", &lists);
    int rc = 0;
    for (size_t i = 0; i < nl && rc == 0; i++) {
        uint8_t *t;
        size_t tl;
        if ((rc = cli_read_file(c, lists[i], STM_MAX_FILE, &t, &tl)) != 0)
            break;
        char *dir = dir_of(lists[i]);
        for (size_t pos = 0; pos < tl && rc == 0;) {
            size_t end = pos;
            while (end < tl && t[end] != '\n')
                end++;
            size_t a = pos, b = end;
            pos = end + 1;
            while (a < b && isspace(t[a]))
                a++;
            while (b > a && isspace(t[b - 1]))
                b--;
            if (a == b || t[a] == '#')
                continue;
            if (k == cap) {
                char **q = cap > GROVE_STM_MAX_PARTIES ? NULL : realloc(p, 2 * cap * sizeof *p);
                if (q == NULL) {
                    rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "too many signatures");
                    break;
                }
                p = q;
                cap *= 2;
            }
            size_t dl = (t[a] == '/' || dir == NULL) ? 0 : strlen(dir) + 1;
            char *s = malloc(dl + (b - a) + 1);
            if (s == NULL) {
                rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
                break;
            }
            if (dl) {
                memcpy(s, dir, dl - 1);
                s[dl - 1] = '/';
            }
            memcpy(s + dl, t + a, b - a);
            s[dl + (b - a)] = '\0';
            p[k++] = s;
        }
        free(dir);
        free(t);
    }
    for (size_t i = 0; i < k && rc == 0; i++)
        if (p[i] == NULL)
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    if (rc == 0 && k == 0)
        rc = cli_fail(c, CLI_EXIT_USAGE, 0, "no signature given (--sig or --sig-list)");
    if (rc) {
        for (size_t i = 0; i < k; i++)
            free(p[i]);
        free(p);
        return rc;
    }
    *paths = p;
    *n = k;
    return 0;
}

static int cmd_aggregate(cli_ctx *c)
{
    const char *out = cli_require(c, "out");
    if (out == NULL)
        return CLI_EXIT_USAGE;
    int json, rc;
    unsigned threads;
    grove_stm_params p;
    if ((rc = get_format(c, &json)) != 0 || (rc = get_threads(c, &threads)) != 0 ||
        (rc = read_params(c, "params", &p)) != 0)
        return rc;
    char **paths = NULL;
    size_t n = 0;
    grove_stm_closed *closed = NULL;
    grove_stm_sig *sigs = NULL;
    grove_stm_aggregate *agg = NULL;
    uint8_t *msg = NULL, *bin = NULL;
    char *j = NULL;
    size_t mlen;
    if ((rc = sig_paths(c, &paths, &n)) != 0)
        return rc;
    {
        /* --out must be none of the inputs: parameters, registration, message, signatures
         * and the files listing them. */
        const char *const fixed[] = {cli_opt_str(c, "params"), cli_opt_str(c, "closed"),
                                     cli_opt_str(c, "msg") ? cli_opt_str(c, "msg") : "-"};
        const char *const *lists;
        size_t nl = cli_opt_all(c, "sig-list", &lists);
        if ((rc = cli_refuse_same_file(c, "--out", out, fixed, 3)) != 0 ||
            (rc = cli_refuse_same_file(c, "--out", out, lists, nl)) != 0 ||
            (rc = cli_refuse_same_file(c, "--out", out, (const char *const *)paths, n)) != 0)
            goto done;
    }
    if ((rc = read_closed(c, &closed)) != 0 || (rc = read_msg(c, &msg, &mlen)) != 0)
        goto done;
    sigs = calloc(n, sizeof *sigs);
    if (sigs == NULL) {
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        int io, st = load_sig(c, paths[i], &p, &sigs[i], &io);
        if (io) {
            rc = io;
            goto done;
        }
        if (st != GROVE_OK) {
            rc = cli_fail(c, CLI_EXIT_USAGE, st, "%s: not a valid single signature (%s)",
                          paths[i], grove_strerror(st));
            goto done;
        }
    }
    uint64_t have = 0;
    int st = grove_stm_aggregate_new(&p, &agg, &have, sigs, n, msg, mlen, closed, threads);
    if (st == GROVE_ERR_NOT_ENOUGH) {
        cli_out_u64(c, "indexes", have);
        cli_out_u64(c, "k", p.k);
        rc = cli_fail(c, CLI_EXIT_INVALID, st,
                      "not enough signatures: %llu distinct valid lottery indexes, k = %llu",
                      (unsigned long long)have, (unsigned long long)p.k);
        goto done;
    }
    if (st != GROVE_OK) {
        rc = cli_fail_status(c, st, "aggregation failed");
        goto done;
    }
    size_t blen = grove_stm_aggregate_encoded_bytes(agg);
    if (json)
        st = grove_stm_aggregate_to_json(agg, &j);
    else if ((bin = malloc(blen ? blen : 1)) == NULL)
        st = GROVE_ERR_NOMEM;
    else
        st = grove_stm_aggregate_to_bytes(agg, bin, blen, &blen);
    if (st != GROVE_OK) {
        rc = cli_fail_status(c, st, "cannot encode the aggregate");
        goto done;
    }
    if ((rc = write_out(c, out, bin, blen, j)) != 0)
        goto done;
    size_t used = grove_stm_aggregate_count(agg);
    uint64_t nidx = 0;
    for (size_t i = 0; i < used; i++) {
        const grove_stm_sig *s;
        uint8_t vk[GROVE_STM_VK_BYTES];
        uint64_t stake;
        if (grove_stm_aggregate_get(agg, &s, vk, &stake, i) == GROVE_OK)
            nidx += s->n_indexes;
    }
    cli_out_u64(c, "signatures_given", n);
    cli_out_u64(c, "signatures_used", used);
    cli_out_u64(c, "indexes", nidx);
    cli_out_u64(c, "bytes", blen);
    if (strcmp(out, "-") != 0)
        cli_say(c, "aggregate of %zu signatures (%llu indexes, k = %llu) written to %s", used,
                (unsigned long long)nidx, (unsigned long long)p.k, out);
done:
    for (size_t i = 0; sigs != NULL && i < n; i++)
        grove_stm_sig_clear(&sigs[i]);
    free(sigs);
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    grove_stm_aggregate_free(agg);
    grove_stm_closed_free(closed);
    free(msg);
    free(bin);
    free(j);
    return rc;
}

static int cmd_verify(cli_ctx *c)
{
    int rc;
    grove_stm_params p;
    grove_stm_avk avk;
    if ((rc = read_params(c, "params", &p)) != 0 || (rc = read_avk(c, "avk", &avk)) != 0)
        return rc;
    uint8_t *b = NULL, *msg = NULL;
    size_t len, mlen;
    if ((rc = read_opt_file(c, "agg", agg_file_max(&p, &avk), &b, &len)) != 0)
        return rc;
    if ((rc = read_msg(c, &msg, &mlen)) != 0) {
        free(b);
        return rc;
    }
    grove_stm_aggregate *agg = NULL;
    int st = is_json(b, len) ? grove_stm_aggregate_from_json(&agg, (const char *)b, len)
                             : grove_stm_aggregate_from_bytes(&agg, b, len);
    free(b);
    /* A file that does not decode is an input error (exit 2), not an invalid aggregate. */
    if (st != GROVE_OK) {
        free(msg);
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: not a well-formed aggregate signature (%s)",
                        cli_opt_str(c, "agg"), grove_strerror(st));
    }
    cli_out_u64(c, "signatures", grove_stm_aggregate_count(agg));
    st = grove_stm_aggregate_verify(&p, agg, msg, mlen, &avk);
    grove_stm_aggregate_free(agg);
    free(msg);
    return verdict(c, st, "aggregate signature");
}

static const cli_command stm_commands[] = {
    {"params", cmd_params, "check parameters (m, k, phi_f), print them, write them with --out",
     params_opts},
    {"keygen", cmd_keygen, "generate a BLS key: secret key and vk+pop", keygen_opts},
    {"register", cmd_register,
     "register the parties of a file and close the registration (signer order, Merkle root)",
     register_opts},
    {"avk", cmd_avk, "write the aggregate verification key of a closed registration", avk_opts},
    {"sign", cmd_sign,
     "single signature; exit 1 (no output written) if the signer won no lottery index",
     sign_opts},
    {"verify-sig", cmd_verify_sig, "verify a single signature (exit 1 if invalid)",
     verify_sig_opts},
    {"aggregate", cmd_aggregate,
     "aggregate single signatures; exit 1 if they cover fewer than k lottery indexes",
     aggregate_opts},
    {"verify", cmd_verify, "verify an aggregate signature (exit 1 if invalid)", verify_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_stm = {"stm", "Mithril STM stake-based threshold multisignatures",
                                   stm_commands};
