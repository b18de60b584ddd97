/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove stm: Mithril STM stake-based threshold multisignatures, file based.
 *
 *   params      check parameters (m, k, phi_f) and print them; writes nothing
 *   setup       write a parameters file
 *   keygen      secret key and public key (vk + proof of possession)
 *   register    close a registration from a parties file (one "STAKE VKPOP" per line)
 *   avk         the aggregate verification key of a closed registration
 *   sign        single signature (exit 1 if the signer won no lottery)
 *   verify-sig  check a single signature against the closed registration
 *   aggregate   clerk: aggregate single signatures (exit 1 if fewer than k indexes)
 *   verify      check an aggregate against the AVK (exit 1 if invalid)
 *   info        describe any STM file
 *   export      the body of an STM file: mithril's binary layout (raw), serde JSON (json) or
 *               mithril-stm's CBOR v1 (cbor)
 *   import      a raw, serde JSON or CBOR v1 object into an STM file (the format detected by
 *               the first byte unless --format is given)
 *
 * Every file is a grove envelope (grove/envelope.h) of scheme "STM", set "" and type
 * PARAMETERS, SECRET KEY, PUBLIC KEY, REGISTRATION, AGGREGATE KEY, SINGLE SIGNATURE or
 * AGGREGATE SIGNATURE; the body is the binary layout of grove/stm.h (mithril-stm's big-endian
 * layouts; the registration is grove's own "GRVSTMR1"). A party's files (keys, single
 * signatures) carry the key id of its vk, the registration, AVK and aggregates the key id of
 * the AVK. The parties file of `register` is plain text written by hand.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "grove/envelope.h"
#include "grove/io.h"
#include "grove/json.h"
#include "grove/stm.h"

#define STM "STM"
#define STM_SET ""
#define T_PARAMS "PARAMETERS"
#define T_SK "SECRET KEY"
#define T_PK "PUBLIC KEY"
#define T_REG "REGISTRATION"
#define T_AVK "AGGREGATE KEY"
#define T_SIG "SINGLE SIGNATURE"
#define T_AGG "AGGREGATE SIGNATURE"

#define PARAMS_IN_HELP "parameters file (grove STM PARAMETERS, written by setup)"
#define MSG_HELP "message ('-' for stdin; default stdin)"
#define BINARY_HELP "write the binary envelope instead of armored text"
/* `threads` as grove/common.h has it: the most threads at once, the calling one included. */
#define THREADS_HELP "threads at most, this one included (default 0: one per CPU; 1: no others)"
#define STM_MAX_FILE CLI_MAX_INPUT
/* Progress bars for registrations and aggregations larger than this. */
#define STM_PROGRESS_MIN 1000
#define REG_CHUNK 1024

static const cli_opt params_opts[] = {
    {"m", "N", "number of lottery indexes (1..2^32)", 0},
    {"k", "N", "quorum: indexes an aggregate needs (1..m)", 0},
    {"phi-f", "X", "win probability for the whole stake: (0, 0.95] or 1.0", 0},
    {NULL, NULL, NULL, 0},
};

static const cli_opt setup_opts[] = {
    {"m", "N", "number of lottery indexes (1..2^32)", 0},
    {"k", "N", "quorum: indexes an aggregate needs (1..m)", 0},
    {"phi-f", "X", "win probability for the whole stake: (0, 0.95] or 1.0", 0},
    {"out", "FILE", "parameters file output ('-' for stdout)", 0},
    {"binary", NULL, BINARY_HELP, 0},
    {NULL, NULL, NULL, 0},
};

static const cli_opt keygen_opts[] = {
    {"sk", "FILE", "secret key output (mode 0600; not replaced unless --force)", 0},
    {"pk", "FILE", "public key output: the verification key and its proof of possession", 0},
    {"seed", "HEX", "deterministic key from this 32-byte seed; default: random", 0},
    {"force", NULL, "replace an existing --sk file", 0},
    {"binary", NULL, BINARY_HELP, 0},
    {NULL, NULL, NULL, 0},
};

static const cli_opt register_opts[] = {
    {"parties", "FILE", "text, one party per line: STAKE VKPOP (VKPOP = 384 hex digits or a "
                        "public key file written by keygen; '#' comments)", 0},
    {"out", "FILE", "closed registration output", 0},
    {"avk", "FILE", "also write the aggregate verification key here", 0},
    {"threads", "N", THREADS_HELP, 0},
    {"binary", NULL, BINARY_HELP, 0},
    {NULL, NULL, NULL, 0},
};

static const cli_opt avk_opts[] = {
    {"closed", "FILE", "closed registration", 0},
    {"out", "FILE", "aggregate verification key output ('-' for stdout)", 0},
    {"binary", NULL, BINARY_HELP, 0},
    {NULL, NULL, NULL, 0},
};

static const cli_opt sign_opts[] = {
    {"params", "FILE", PARAMS_IN_HELP, 0},
    {"sk", "FILE", "secret key", 0},
    {"closed", "FILE", "closed registration (must contain this key)", 0},
    {"msg", "FILE", MSG_HELP, 0},
    {"sig", "FILE", "single signature output ('-' for stdout)", 0},
    {"binary", NULL, BINARY_HELP, 0},
    {NULL, NULL, NULL, 0},
};

static const cli_opt verify_sig_opts[] = {
    {"params", "FILE", PARAMS_IN_HELP, 0},
    {"closed", "FILE", "closed registration", 0},
    {"msg", "FILE", MSG_HELP, 0},
    {"sig", "FILE", "single signature", 0},
    {"pk", "FILE", "optional: the signer's public key (its key id must be the signature's)", 0},
    {NULL, NULL, NULL, 0},
};

static const cli_opt aggregate_opts[] = {
    {"params", "FILE", PARAMS_IN_HELP, 0},
    {"closed", "FILE", "closed registration", 0},
    {"msg", "FILE", MSG_HELP, 0},
    {"sig", "FILE", "a single signature; repeat for each signer", 0},
    {"sig-list", "FILE", "a file naming one signature file per line (adds to --sig)", 0},
    {"out", "FILE", "aggregate signature output ('-' for stdout)", 0},
    {"threads", "N", THREADS_HELP, 0},
    {"binary", NULL, BINARY_HELP, 0},
    {NULL, NULL, NULL, 0},
};

static const cli_opt verify_opts[] = {
    {"params", "FILE", PARAMS_IN_HELP, 0},
    {"avk", "FILE", "aggregate verification key (the group's public key, written by avk or "
                    "register --avk)", 0},
    {"msg", "FILE", MSG_HELP, 0},
    {"sig", "FILE", "aggregate signature", 0},
    {"threads", "N", THREADS_HELP, 0},
    {NULL, NULL, NULL, 0},
};

static const cli_opt info_opts[] = {
    {"file", "FILE", "any STM file ('-' for stdin)", 1},
    {NULL, NULL, NULL, 0},
};

static const cli_opt export_opts[] = {
    {"file", "FILE", "any STM file (the file says what it is)", 1},
    {"params", "FILE", "a parameters file", 0},
    {"pk", "FILE", "a public key", 0},
    {"sk", "FILE", "a secret key (the output gets mode 0600)", 0},
    {"sig", "FILE", "a single or aggregate signature", 0},
    {"avk", "FILE", "an aggregate verification key", 0},
    {"closed", "FILE", "a closed registration", 0},
    {"format", "FMT", "raw (the body: mithril's binary layout), json (serde_json shape) or "
                      "cbor (mithril-stm's CBOR v1 to_bytes); json and cbor: parameters, AVK, "
                      "single and aggregate signatures", 0},
    {"cbor-form", "VER", "with --format cbor, an aggregate's proof_bytes: 0.11 (an integer "
                         "array, mithril-stm 0.11.3's bytes; the default) or 0.12 (a byte "
                         "string, as 0.12.2 and later write)", 0},
    {"out", "FILE", "output ('-' for stdout; not for secret keys)", 0},
    {"force", NULL, "replace an existing --out file of a secret key", 0},
    {NULL, NULL, NULL, 0},
};

static const cli_opt import_opts[] = {
    {"params", "FILE", "parameters: 24 bytes, {\"m\",\"k\",\"phi_f\"} or CBOR", 0},
    {"pk", "FILE", "public key: vk || pop, 192 bytes (raw only)", 0},
    {"sk", "FILE", "secret key: 32 bytes, or mithril-stm's CBOR Initializer (its vk + PoP "
                   "must be the key's; its public key is derived from it)", 0},
    {"sig", "FILE", "single signature (needs --closed: the key id is its signer's)", 0},
    {"agg", "FILE", "aggregate signature (needs --avk: the key id is the AVK's)", 0},
    {"avk", "FILE", "aggregate verification key: 48 bytes or serde JSON; with --agg: the "
                    "grove AGGREGATE KEY file of the aggregate", 0},
    {"closed", "FILE", "closed registration (GRVSTMR1 bytes, raw only); with --sig: the "
                       "grove REGISTRATION file of the signature", 0},
    {"format", "FMT", "raw, json (serde_json shape) or cbor (mithril-stm's CBOR v1); default: "
                      "auto (a first byte 0x01 is CBOR, '{' JSON, anything else raw)", 0},
    {"out", "FILE", "grove file output ('-' for stdout; not for secret keys)", 0},
    {"force", NULL, "replace an existing --out file of a secret key", 0},
    {"binary", NULL, BINARY_HELP, 0},
    {NULL, NULL, NULL, 0},
};

/* ---- grove STM files ------------------------------------------------------------------- */

/* Largest file (armored) holding a body of at most body bytes. */
static size_t env_file_max(uint64_t body)
{
    uint64_t bin = body + 256, b64 = 4 * ((bin + 2) / 3);
    uint64_t all = b64 + 2 * (b64 / 64 + 1) + 512;
    return all > STM_MAX_FILE ? STM_MAX_FILE : (size_t)all;
}

/* The binary header's body length, given the first bytes of the binary form (0: unknown). */
static uint64_t bin_body_len(const uint8_t *b, size_t len, size_t *hdr)
{
    size_t p = 6;
    if (len < 7 || memcmp(b, "GRVE", 4) != 0)
        return 0;
    for (int i = 0; i < 3; i++) { /* scheme, set, type */
        if (p >= len)
            return 0;
        p += 1 + (size_t)b[p];
    }
    p += GROVE_ENVELOPE_KEY_ID_BYTES;
    if (p + 4 > len)
        return 0;
    *hdr = p + 4;
    return cli_load32_be(b + p);
}

/* For pipes and devices: the size an envelope's header announces (cli_read_file_hdr). */
static size_t env_limit(const uint8_t *h, size_t hl, void *arg)
{
    (void)arg;
    size_t hdr = 0;
    uint64_t body = bin_body_len(h, hl, &hdr);
    if (body != 0)
        return (size_t)(hdr + body + 32 > STM_MAX_FILE ? STM_MAX_FILE : hdr + body + 32);
    if (hl < 20 || memcmp(h, "-----BEGIN GROVE ", 17) != 0)
        return hl; /* not an envelope: the decoder refuses it */
    const uint8_t *nl = memchr(h, '\n', hl);
    char b64[256];
    size_t n = 0;
    for (const uint8_t *q = nl ? nl + 1 : h + hl; q < h + hl && n < 240; q++) {
        if (*q == '-' || *q == '=') /* the end line or the padding */
            break;
        if (*q != '\n' && *q != '\r')
            b64[n++] = (char)*q;
    }
    n -= n % 4;
    uint8_t bin[192];
    size_t got = 0;
    if (n == 0 || grove_base64_decode(bin, sizeof bin, &got, b64, n) != GROVE_OK ||
        (body = bin_body_len(bin, got, &hdr)) == 0)
        return hl;
    return env_file_max(body);
}

/*
 * Read an STM file of this type (NULL: any STM file) whose body has at most maxbody bytes.
 * Regular files go through cli_read_grove_file (which names a file of another type); pipes and
 * devices are read no further than their envelope header announces.
 */
static int stm_read(cli_ctx *c, const char *path, const char *type, uint64_t maxbody, int secret,
                    cli_file *f)
{
    struct stat sb;
    size_t max = env_file_max(maxbody);
    if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
        return cli_read_grove_file(c, path, STM, type, max, secret, f);
    memset(f, 0, sizeof *f);
    f->secret = secret;
    uint8_t *raw = NULL;
    size_t len = 0;
    int rc = cli_read_file_hdr(c, path, 300, env_limit, NULL, max, &raw, &len);
    if (rc)
        return rc;
    f->buf = malloc(len ? len : 1);
    f->cap = len ? len : 1;
    char err[200];
    grove_status st = f->buf == NULL ? GROVE_ERR_NOMEM
                                     : grove_envelope_decode(&f->env, f->buf, f->cap, raw, len,
                                                             err, sizeof err);
    cli_free_secret(raw, len);
    if (st == GROVE_OK)
        st = grove_envelope_expect(&f->env, STM, type, err, sizeof err);
    if (st != GROVE_OK) {
        cli_file_free(f);
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: %s", path,
                        st == GROVE_ERR_NOMEM ? "out of memory" : err);
    }
    return 0;
}

static int stm_read_opt(cli_ctx *c, const char *opt, const char *type, uint64_t maxbody,
                        int secret, cli_file *f)
{
    const char *path = cli_require(c, opt);
    if (path == NULL)
        return CLI_EXIT_USAGE;
    return stm_read(c, path, type, maxbody, secret, f);
}

/* Write an STM file; id (8 bytes) or NULL. */
static int stm_write(cli_ctx *c, const char *path, const char *type, const uint8_t *body,
                     size_t len, const uint8_t *id, unsigned flags)
{
    grove_envelope env;
    if (grove_envelope_init(&env, STM, STM_SET, type, body, len) != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INTERNAL, "cannot make the envelope");
    if (id != NULL) {
        memcpy(env.key_id, id, GROVE_ENVELOPE_KEY_ID_BYTES);
        env.has_key_id = true;
    }
    return cli_write_grove_file(c, path, &env, flags);
}

static void vk_id(uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES], const uint8_t *vk)
{
    if (grove_envelope_key_id(id, STM, STM_SET, vk, GROVE_STM_VK_BYTES) != GROVE_OK)
        memset(id, 0, GROVE_ENVELOPE_KEY_ID_BYTES);
}

static void avk_id(uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES], const grove_stm_avk *avk)
{
    uint8_t b[GROVE_STM_AVK_BYTES];
    grove_stm_avk_to_bytes(avk, b);
    if (grove_envelope_key_id(id, STM, STM_SET, b, sizeof b) != GROVE_OK)
        memset(id, 0, GROVE_ENVELOPE_KEY_ID_BYTES);
}

static void out_id(cli_ctx *c, const uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES], char hex[17])
{
    grove_envelope_key_id_hex(hex, id);
    cli_out_str(c, "key_id", hex);
}

static int get_threads(cli_ctx *c, unsigned *threads)
{
    uint64_t t;
    int rc = cli_opt_u64(c, "threads", 0, 1024, GROVE_THREADS_AUTO, &t);
    *threads = (unsigned)t;
    return rc;
}

static int read_msg(cli_ctx *c, uint8_t **msg, size_t *len)
{
    const char *p = cli_opt_str(c, "msg");
    return cli_read_file(c, p ? p : "-", CLI_MAX_INPUT, msg, len);
}

static void out_phi(cli_ctx *c, double phi)
{
    char num[32];
    if (grove_json_format_double(num, phi))
        cli_out_raw(c, "phi_f", num);
}

static int load_params(cli_ctx *c, grove_stm_params *p)
{
    cli_file f;
    int rc = stm_read_opt(c, "params", T_PARAMS, GROVE_STM_PARAMS_BYTES, 0, &f);
    if (rc)
        return rc;
    int st = grove_stm_params_from_bytes(p, f.env.body, f.env.body_len);
    cli_file_free(&f);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: not valid STM parameters (%s)",
                        cli_opt_str(c, "params"), grove_strerror(st));
    return 0;
}

/* The AVK file; f stays open for its key id (free it). */
static int load_avk(cli_ctx *c, grove_stm_avk *avk, cli_file *f)
{
    int rc = stm_read_opt(c, "avk", T_AVK, GROVE_STM_AVK_BYTES, 0, f);
    if (rc)
        return rc;
    int st = grove_stm_avk_from_bytes(avk, f->env.body, f->env.body_len);
    if (st != GROVE_OK) {
        cli_file_free(f);
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: not a valid aggregate verification key (%s)",
                        cli_opt_str(c, "avk"), grove_strerror(st));
    }
    return 0;
}

#define CLOSED_MAX_BODY (16 + GROVE_STM_MAX_PARTIES * GROVE_STM_ENTRY_BYTES)

static int load_closed(cli_ctx *c, grove_stm_closed **closed)
{
    cli_file f;
    int rc = stm_read_opt(c, "closed", T_REG, CLOSED_MAX_BODY, 0, &f);
    if (rc)
        return rc;
    int st = grove_stm_closed_from_bytes(closed, f.env.body, f.env.body_len);
    cli_file_free(&f);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: not a valid closed registration (%s)",
                        cli_opt_str(c, "closed"), grove_strerror(st));
    return 0;
}

/* Largest single signature for m lottery indexes: nr || m indexes || sigma || signer index. */
static uint64_t sig_body_max(const grove_stm_params *p)
{
    uint64_t m = p->m > GROVE_STM_MAX_M ? GROVE_STM_MAX_M : p->m;
    return 8 + 8 * m + GROVE_STM_SIGMA_BYTES + 8;
}

/* Largest aggregate for m indexes and L registered parties (binary layout in grove/stm.h). */
static uint64_t agg_body_max(const grove_stm_params *p, const grove_stm_avk *avk)
{
    uint64_t m = p->m > GROVE_STM_MAX_M ? GROVE_STM_MAX_M : p->m;
    uint64_t l = avk->nr_leaves > GROVE_STM_MAX_PARTIES ? GROVE_STM_MAX_PARTIES : avk->nr_leaves;
    /* per signature: 3 lengths, entry, nr, sigma, signer index; the batch path: at most 4L
     * node values and L indices; all the indexes together: at most m */
    return 1 + 8 + 16 + l * (24 + GROVE_STM_ENTRY_BYTES + 16 + GROVE_STM_SIGMA_BYTES + 4 * 32 + 8) +
           8 * m;
}

/* A single signature file (f stays open for its key id); decoding errors are exit 2. */
static int load_sig(cli_ctx *c, const char *path, const grove_stm_params *p, grove_stm_sig *sig,
                    cli_file *f)
{
    int rc = stm_read(c, path, T_SIG, sig_body_max(p), 0, f);
    if (rc)
        return rc;
    int st = grove_stm_sig_from_bytes(sig, f->env.body, f->env.body_len);
    if (st != GROVE_OK) {
        cli_file_free(f);
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: not a well-formed single signature (%s)",
                        path, grove_strerror(st));
    }
    return 0;
}

/* The secret key file: the key, its vk+pop and key id (checked against the file's). */
static int load_sk(cli_ctx *c, const char *path, uint8_t sk[GROVE_STM_SK_BYTES],
                   uint8_t vkpop[GROVE_STM_VKPOP_BYTES], uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES])
{
    cli_file f;
    int rc = stm_read(c, path, T_SK, GROVE_STM_SK_BYTES, 1, &f);
    if (rc)
        return rc;
    int st = f.env.body_len == GROVE_STM_SK_BYTES ? GROVE_OK : GROVE_ERR_ENCODING;
    if (st == GROVE_OK) {
        memcpy(sk, f.env.body, GROVE_STM_SK_BYTES);
        st = grove_stm_vkpop_from_sk(vkpop, sk);
    }
    int damaged = 0;
    if (st == GROVE_OK) {
        vk_id(id, vkpop);
        damaged = f.env.has_key_id && memcmp(id, f.env.key_id, GROVE_ENVELOPE_KEY_ID_BYTES) != 0;
    }
    cli_file_free(&f);
    if (st == GROVE_OK && !damaged)
        return 0;
    grove_wipe(sk, GROVE_STM_SK_BYTES);
    if (damaged)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s: the file's key id is not its key's: a damaged key file", path);
    return cli_fail(c, CLI_EXIT_USAGE, st,
                    "%s: not an STM secret key (32 bytes, not 0 and below r)", path);
}

/* Bytes or JSON text (a newline added) to a file. */
static int write_json_text(cli_ctx *c, const char *path, const char *json, unsigned flags)
{
    size_t l = strlen(json);
    char *t = malloc(l + 2);
    if (t == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    memcpy(t, json, l);
    t[l] = '\n';
    int rc = cli_write_file_ex(c, path, (const uint8_t *)t, l + 1, flags);
    free(t);
    return rc;
}

/* ---- params / setup -------------------------------------------------------------------- */

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

static int params_from_opts(cli_ctx *c, grove_stm_params *p)
{
    const char *m = cli_require(c, "m"), *k = cli_require(c, "k");
    const char *phi = cli_require(c, "phi-f");
    if (m == NULL || k == NULL || phi == NULL)
        return CLI_EXIT_USAGE;
    if (cli_parse_u64(m, &p->m) != 0 || cli_parse_u64(k, &p->k) != 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                        "--m and --k must be whole numbers");
    if (parse_double(phi, &p->phi_f) != 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                        "--phi-f must be a decimal number such as 0.2");
    int st = grove_stm_params_check(p);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st,
                        "invalid parameters: need 1 <= k <= m <= 2^32 and phi_f in "
                        "(0, 0.95] or exactly 1.0");
    return 0;
}

static void say_params(cli_ctx *c, const grove_stm_params *p)
{
    uint8_t bin[GROVE_STM_PARAMS_BYTES];
    grove_stm_params_to_bytes(p, bin);
    cli_out_u64(c, "m", p->m);
    cli_out_u64(c, "k", p->k);
    out_phi(c, p->phi_f);
    cli_out_hex(c, "bytes", bin, sizeof bin);
    char *j = NULL;
    if (grove_stm_params_to_json(p, &j) == GROVE_OK)
        cli_say(c, "parameters %s", j);
    free(j);
}

/* Without --m/--k/--phi-f: what STM parameters are and the sizes of its objects. */
static int cmd_params(cli_ctx *c)
{
    if (cli_opt_str(c, "m") || cli_opt_str(c, "k") || cli_opt_str(c, "phi-f")) {
        grove_stm_params p;
        int rc = params_from_opts(c, &p);
        if (rc == 0)
            say_params(c, &p);
        return rc;
    }
    cli_out_begin_array(c, "parameter_sets");
    cli_out_begin_object(c, NULL);
    cli_out_str(c, "name", "STM-BLS12-381");
    cli_out_bool(c, "default", 1);
    cli_out_u64(c, "pk_bytes", GROVE_STM_VKPOP_BYTES);
    cli_out_u64(c, "sk_bytes", GROVE_STM_SK_BYTES);
    cli_out_u64(c, "sig_bytes", 64 + 8); /* a single signature with one index */
    cli_out_u64(c, "avk_bytes", GROVE_STM_AVK_BYTES);
    cli_out_end(c);
    cli_out_end(c);
    cli_say(c, "STM-BLS12-381 (the only curve; default): public key (vk + pop) %d bytes, secret "
               "key %d, AVK %d, single signature 64 + 8 per lottery index",
            GROVE_STM_VKPOP_BYTES, GROVE_STM_SK_BYTES, GROVE_STM_AVK_BYTES);
    cli_say(c, "protocol parameters: m lottery indexes (1..2^32), quorum k (1..m), phi_f in "
               "(0, 0.95] or 1.0;");
    cli_say(c, "  check them with 'grove stm params --m M --k K --phi-f F', write them with "
               "'grove stm setup ... --out FILE'");
    return 0;
}

static int cmd_setup(cli_ctx *c)
{
    const char *out = cli_require(c, "out");
    if (out == NULL)
        return CLI_EXIT_USAGE;
    grove_stm_params p;
    int rc = params_from_opts(c, &p);
    if (rc)
        return rc;
    uint8_t bin[GROVE_STM_PARAMS_BYTES];
    grove_stm_params_to_bytes(&p, bin);
    if ((rc = stm_write(c, out, T_PARAMS, bin, sizeof bin, NULL, 0)) != 0)
        return rc;
    say_params(c, &p);
    if (strcmp(out, "-") != 0)
        cli_say(c, "written to %s", out);
    return 0;
}

/* ---- keygen ----------------------------------------------------------------------------- */

static int cmd_keygen(cli_ctx *c)
{
    const char *skpath = cli_require(c, "sk"), *pkpath = cli_require(c, "pk");
    if (skpath == NULL || pkpath == NULL)
        return CLI_EXIT_USAGE;
    const char *const others[] = {skpath};
    int rc = cli_refuse_same_file(c, "--pk", pkpath, others, 1);
    if (rc || (rc = cli_refuse_existing_secret(c, "--sk", skpath)) != 0)
        return rc;
    uint8_t sk[GROVE_STM_SK_BYTES], vkpop[GROVE_STM_VKPOP_BYTES], id[GROVE_ENVELOPE_KEY_ID_BYTES];
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
    vk_id(id, vkpop);
    rc = stm_write(c, skpath, T_SK, sk, sizeof sk, id, CLI_WRITE_SECRET);
    grove_wipe(sk, sizeof sk);
    if (rc || (rc = stm_write(c, pkpath, T_PK, vkpop, sizeof vkpop, id, 0)) != 0)
        return rc;
    char hex[17];
    out_id(c, id, hex);
    cli_out_hex(c, "vkpop", vkpop, sizeof vkpop);
    cli_say(c, "STM key %s written: secret key %s, public key (vk + pop) %s", hex, skpath,
            pkpath);
    return 0;
}

/* ---- register --------------------------------------------------------------------------- */

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

/* One VKPOP field: 384 hex digits, or an STM PUBLIC KEY file (relative to dir). */
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
    cli_file f;
    int rc = stm_read(c, path, T_PK, GROVE_STM_VKPOP_BYTES, 0, &f);
    if (rc)
        return rc;
    if (f.env.body_len != GROVE_STM_VKPOP_BYTES)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                      "parties line %zu: %s has %zu bytes of key, a vk+pop has 192", line, path,
                      f.env.body_len);
    else
        memcpy(out, f.env.body, GROVE_STM_VKPOP_BYTES);
    cli_file_free(&f);
    return rc;
}

typedef struct parties {
    size_t n, cap, *lines;
    uint64_t *stakes;
    uint8_t *vkpops;
} parties;

static void parties_free(parties *ps)
{
    free(ps->lines);
    free(ps->stakes);
    free(ps->vkpops);
    memset(ps, 0, sizeof *ps);
}

static int parties_grow(cli_ctx *c, parties *ps)
{
    size_t nc = ps->cap ? 2 * ps->cap : 64;
    if (nc > GROVE_STM_MAX_PARTIES)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_OVERFLOW, "too many parties");
    uint64_t *s2 = realloc(ps->stakes, nc * sizeof *s2);
    if (s2)
        ps->stakes = s2;
    size_t *l2 = realloc(ps->lines, nc * sizeof *l2);
    if (l2)
        ps->lines = l2;
    uint8_t *v2 = realloc(ps->vkpops, nc * GROVE_STM_VKPOP_BYTES);
    if (v2)
        ps->vkpops = v2;
    if (!s2 || !l2 || !v2)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    ps->cap = nc;
    return 0;
}

/* Parse the parties file's text. */
static int parse_parties(cli_ctx *c, const uint8_t *text, size_t tlen, const char *dir,
                         parties *ps)
{
    size_t line = 0;
    int rc = 0;
    for (size_t pos = 0; pos < tlen && rc == 0;) {
        size_t end = pos;
        while (end < tlen && text[end] != '\n')
            end++;
        line++;
        char buf[8192];
        size_t l = end - pos;
        if (l >= sizeof buf)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING, "parties line %zu is too long",
                            line);
        memcpy(buf, text + pos, l);
        buf[l] = '\0';
        pos = end + 1;
        if (memchr(buf, '\0', l) != NULL)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING, "parties line %zu: NUL byte",
                            line);
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *save = NULL, *f1 = strtok_r(buf, " \t\r", &save);
        if (f1 == NULL)
            continue; /* blank or comment */
        char *f2 = strtok_r(NULL, " \t\r", &save), *f3 = strtok_r(NULL, " \t\r", &save);
        uint64_t stake;
        if (f2 == NULL || f3 != NULL || cli_parse_u64(f1, &stake) != 0)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                            "parties line %zu: expected 'STAKE VKPOP' (stake a whole number)",
                            line);
        if (ps->n == ps->cap && (rc = parties_grow(c, ps)) != 0)
            return rc;
        if ((rc = party_vkpop(c, f2, dir, line, ps->vkpops + ps->n * GROVE_STM_VKPOP_BYTES)) != 0)
            return rc;
        ps->stakes[ps->n] = stake;
        ps->lines[ps->n] = line;
        ps->n++;
    }
    return rc;
}

/* Register every party (in chunks, with a progress bar for large files) and close. */
static int register_all(cli_ctx *c, const parties *ps, unsigned threads,
                        grove_stm_closed **closed)
{
    grove_stm_keyreg *reg = NULL;
    int st = grove_stm_keyreg_new(&reg), rc = 0;
    uint64_t total = ps->n > STM_PROGRESS_MIN ? ps->n : 0;
    size_t bad = 0, at = 0;
    for (; st == GROVE_OK && at < ps->n; at += REG_CHUNK) {
        size_t n = ps->n - at < REG_CHUNK ? ps->n - at : REG_CHUNK;
        cli_progress(c, "registering", at, total);
        st = grove_stm_keyreg_add_many(reg, &bad, ps->stakes + at,
                                       ps->vkpops + at * GROVE_STM_VKPOP_BYTES, n, threads);
        if (st != GROVE_OK)
            bad = bad < n ? at + bad : ps->n;
    }
    if (st == GROVE_OK) {
        cli_progress(c, "registering", ps->n, total);
        st = grove_stm_keyreg_close(reg, closed);
        if (st != GROVE_OK)
            rc = cli_fail(c, CLI_EXIT_USAGE, st, "cannot close the registration: %s",
                          st == GROVE_ERR_OVERFLOW      ? "the total stake exceeds 2^64 - 1"
                          : st == GROVE_ERR_INVALID_ARG ? "the total stake is 0"
                                                        : grove_strerror(st));
    } else if (reg != NULL && bad < ps->n) {
        if (total)
            fputc('\n', stderr);
        rc = cli_fail(c, CLI_EXIT_USAGE, st, "parties line %zu: %s", ps->lines[bad],
                      st == GROVE_ERR_EXISTS     ? "this key is already registered"
                      : st == GROVE_ERR_VERIFY   ? "bad proof of possession"
                      : st == GROVE_ERR_ENCODING ? "not a valid verification key"
                                                 : grove_strerror(st));
    } else {
        rc = cli_fail_status(c, st, "registration failed");
    }
    grove_stm_keyreg_free(reg);
    return rc;
}

/* Write the registration (and the AVK with --avk); both carry the AVK's key id. */
static int write_closed(cli_ctx *c, const char *out, const char *avkpath,
                        const grove_stm_closed *closed)
{
    grove_stm_avk avk;
    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES], avkb[GROVE_STM_AVK_BYTES];
    grove_stm_closed_avk(closed, &avk);
    avk_id(id, &avk);
    grove_stm_avk_to_bytes(&avk, avkb);
    size_t blen = grove_stm_closed_encoded_bytes(closed);
    uint8_t *bin = malloc(blen ? blen : 1);
    int st = bin == NULL ? GROVE_ERR_NOMEM : grove_stm_closed_to_bytes(closed, bin, blen, &blen);
    int rc = st != GROVE_OK ? cli_fail_status(c, st, "cannot encode the registration")
                            : stm_write(c, out, T_REG, bin, blen, id, 0);
    free(bin);
    if (rc == 0 && avkpath != NULL)
        rc = stm_write(c, avkpath, T_AVK, avkb, sizeof avkb, id, 0);
    if (rc)
        return rc;
    char hex[17], root[2 * GROVE_STM_ROOT_BYTES + 1];
    out_id(c, id, hex);
    cli_out_u64(c, "parties", grove_stm_closed_count(closed));
    cli_out_u64(c, "total_stake", grove_stm_closed_total_stake(closed));
    cli_out_hex(c, "root", avk.root, sizeof avk.root);
    grove_hex_encode(root, avk.root, sizeof avk.root);
    cli_say(c, "registration closed: %llu parties, total stake %llu, root %s, key id %s",
            (unsigned long long)grove_stm_closed_count(closed),
            (unsigned long long)grove_stm_closed_total_stake(closed), root, hex);
    return 0;
}

static int cmd_register(cli_ctx *c)
{
    const char *ppath = cli_require(c, "parties"), *out = cli_require(c, "out");
    if (ppath == NULL || out == NULL)
        return CLI_EXIT_USAGE;
    const char *avkpath = cli_opt_str(c, "avk");
    unsigned threads;
    int rc;
    if ((rc = get_threads(c, &threads)) != 0)
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
    parties ps;
    memset(&ps, 0, sizeof ps);
    grove_stm_closed *closed = NULL;
    if (dir == NULL)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    else
        rc = parse_parties(c, text, tlen, dir, &ps);
    if (rc == 0 && ps.n == 0)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG, "%s lists no party", ppath);
    if (rc == 0)
        rc = register_all(c, &ps, threads, &closed);
    if (rc == 0)
        rc = write_closed(c, out, avkpath, closed);
    grove_stm_closed_free(closed);
    parties_free(&ps);
    free(dir);
    free(text);
    return rc;
}

static int cmd_avk(cli_ctx *c)
{
    const char *out = cli_require(c, "out");
    if (out == NULL)
        return CLI_EXIT_USAGE;
    const char *const in[] = {cli_opt_str(c, "closed")};
    int rc;
    if ((rc = cli_refuse_same_file(c, "--out", out, in, 1)) != 0)
        return rc;
    grove_stm_closed *closed;
    if ((rc = load_closed(c, &closed)) != 0)
        return rc;
    grove_stm_avk avk;
    grove_stm_closed_avk(closed, &avk);
    grove_stm_closed_free(closed);
    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES], b[GROVE_STM_AVK_BYTES];
    avk_id(id, &avk);
    grove_stm_avk_to_bytes(&avk, b);
    if ((rc = stm_write(c, out, T_AVK, b, sizeof b, id, 0)) != 0)
        return rc;
    char hex[17];
    out_id(c, id, hex);
    cli_out_u64(c, "parties", avk.nr_leaves);
    cli_out_u64(c, "total_stake", avk.total_stake);
    if (strcmp(out, "-") != 0)
        cli_say(c, "aggregate verification key %s written to %s", hex, out);
    return 0;
}

/* ---- sign / verify-sig ------------------------------------------------------------------ */

static int write_sig(cli_ctx *c, const char *path, const grove_stm_sig *sig,
                     const uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES])
{
    size_t blen = grove_stm_sig_encoded_bytes(sig);
    uint8_t *bin = malloc(blen ? blen : 1);
    int st = bin == NULL ? GROVE_ERR_NOMEM : grove_stm_sig_to_bytes(sig, bin, blen, &blen);
    int rc = st == GROVE_OK ? stm_write(c, path, T_SIG, bin, blen, id, 0)
                            : cli_fail_status(c, st, "cannot encode the signature");
    free(bin);
    return rc;
}

/* Sign with a loaded key; writes the signature (exit 1: lottery lost). */
static int sign_with(cli_ctx *c, const grove_stm_params *p, const uint8_t *sk,
                     const uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES], const char *out)
{
    grove_stm_closed *closed = NULL;
    grove_stm_signer *signer = NULL;
    grove_stm_sig sig;
    memset(&sig, 0, sizeof sig);
    uint8_t *msg = NULL;
    size_t mlen;
    int rc, st;
    if ((rc = load_closed(c, &closed)) != 0 || (rc = read_msg(c, &msg, &mlen)) != 0)
        goto done;
    st = grove_stm_signer_new(p, &signer, sk, closed);
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
                      (unsigned long long)p->m);
        goto done;
    }
    if (st != GROVE_OK) {
        rc = cli_fail_status(c, st, "signing failed");
        goto done;
    }
    /* Self-check: never write a signature that does not verify against the registration. */
    if ((st = grove_stm_sig_verify(p, &sig, msg, mlen, closed)) != GROVE_OK) {
        rc = cli_fail_self_check(c, st);
        goto done;
    }
    if ((rc = write_sig(c, out, &sig, id)) != 0)
        goto done;
    cli_out_bool(c, "won", 1);
    cli_out_u64(c, "indexes", sig.n_indexes);
    char hex[17];
    out_id(c, id, hex);
    if (strcmp(out, "-") != 0)
        cli_say(c, "signer %llu (key id %s) won %zu of %llu lottery indexes; signature written "
                   "to %s",
                (unsigned long long)sig.signer_index, hex, sig.n_indexes,
                (unsigned long long)p->m, out);
done:
    grove_stm_sig_clear(&sig);
    grove_stm_signer_free(signer);
    grove_stm_closed_free(closed);
    free(msg);
    return rc;
}

static int cmd_sign(cli_ctx *c)
{
    const char *out = cli_require(c, "sig"), *skpath = cli_require(c, "sk");
    if (out == NULL || skpath == NULL)
        return CLI_EXIT_USAGE;
    const char *mpath = cli_opt_str(c, "msg");
    const char *const inputs[] = {cli_opt_str(c, "params"), skpath, cli_opt_str(c, "closed"),
                                  mpath ? mpath : "-"};
    int rc;
    grove_stm_params p;
    if ((rc = cli_refuse_same_file(c, "--sig", out, inputs, 4)) != 0 ||
        (rc = load_params(c, &p)) != 0)
        return rc;
    uint8_t sk[GROVE_STM_SK_BYTES], vkpop[GROVE_STM_VKPOP_BYTES], id[GROVE_ENVELOPE_KEY_ID_BYTES];
    /* The key is checked (envelope integrity, key id of its vk) before anything else. */
    if ((rc = load_sk(c, skpath, sk, vkpop, id)) != 0)
        return rc;
    rc = sign_with(c, &p, sk, id, out);
    grove_wipe(sk, sizeof sk);
    return rc;
}

/* Verdict for a well-formed signature or aggregate: "signature valid (key id X)" or INVALID. */
static int verdict(cli_ctx *c, int st, const char *hex)
{
    const char *why = NULL;
    switch (st) {
    case GROVE_OK:
        cli_out_bool(c, "valid", 1);
        cli_say(c, "signature valid (key id %s)", hex);
        return 0;
    case GROVE_ERR_VERIFY:
        why = "the BLS signature, a lottery index, the quorum or the Merkle path does not check";
        break;
    case GROVE_ERR_NOT_FOUND: why = "unknown signer index"; break;
    case GROVE_ERR_ENCODING:
        return cli_fail(c, CLI_EXIT_USAGE, st, "the signature is malformed");
    default: return cli_fail_status(c, st, "verification could not run");
    }
    cli_out_bool(c, "valid", 0);
    return cli_fail(c, CLI_EXIT_INVALID, st, "signature INVALID: %s", why);
}

/* The signature's key id must be that of the registered vk at its signer index. */
static int check_signer(cli_ctx *c, const grove_stm_closed *closed, const grove_stm_sig *sig,
                        const cli_file *sf, const char *sigpath, char hex[17])
{
    uint8_t vk[GROVE_STM_VK_BYTES], id[GROVE_ENVELOPE_KEY_ID_BYTES];
    uint64_t stake;
    if (grove_stm_closed_entry(closed, vk, &stake, sig->signer_index) != GROVE_OK) {
        cli_out_bool(c, "valid", 0);
        return cli_fail(c, CLI_EXIT_INVALID, GROVE_ERR_VERIFY,
                        "signature INVALID: signer index %llu is not in the registration",
                        (unsigned long long)sig->signer_index);
    }
    vk_id(id, vk);
    grove_envelope_key_id_hex(hex, id);
    if (sf->env.has_key_id && memcmp(sf->env.key_id, id, GROVE_ENVELOPE_KEY_ID_BYTES) != 0) {
        char sh[17];
        grove_envelope_key_id_hex(sh, sf->env.key_id);
        cli_out_bool(c, "valid", 0);
        return cli_fail(c, CLI_EXIT_INVALID, GROVE_ERR_VERIFY,
                        "signature INVALID: %s was made by key %s, signer %llu of the "
                        "registration is key %s",
                        sigpath, sh, (unsigned long long)sig->signer_index, hex);
    }
    cli_out_str(c, "key_id", hex);
    return 0;
}

static int cmd_verify_sig(cli_ctx *c)
{
    int rc;
    grove_stm_params p;
    const char *sigpath = cli_require(c, "sig"), *pkpath = cli_opt_str(c, "pk");
    if (sigpath == NULL)
        return CLI_EXIT_USAGE;
    if ((rc = load_params(c, &p)) != 0)
        return rc;
    grove_stm_closed *closed = NULL;
    uint8_t *msg = NULL;
    size_t mlen;
    grove_stm_sig sig;
    memset(&sig, 0, sizeof sig);
    cli_file sf, pf;
    memset(&sf, 0, sizeof sf);
    memset(&pf, 0, sizeof pf);
    char hex[17];
    if ((rc = load_sig(c, sigpath, &p, &sig, &sf)) != 0 ||
        (pkpath != NULL && (rc = stm_read(c, pkpath, T_PK, GROVE_STM_VKPOP_BYTES, 0, &pf)) != 0))
        goto done;
    if (pkpath != NULL && (rc = cli_check_key_id(c, &pf, pkpath, &sf, sigpath)) != 0) {
        cli_out_bool(c, "valid", 0);
        goto done;
    }
    if ((rc = load_closed(c, &closed)) != 0 || (rc = read_msg(c, &msg, &mlen)) != 0)
        goto done;
    cli_out_u64(c, "signer_index", sig.signer_index);
    cli_out_u64(c, "indexes", sig.n_indexes);
    if ((rc = check_signer(c, closed, &sig, &sf, sigpath, hex)) != 0)
        goto done;
    rc = verdict(c, grove_stm_sig_verify(&p, &sig, msg, mlen, closed), hex);
done:
    cli_file_free(&sf);
    cli_file_free(&pf);
    grove_stm_sig_clear(&sig);
    grove_stm_closed_free(closed);
    free(msg);
    return rc;
}

/* ---- aggregate / verify ----------------------------------------------------------------- */

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

/* Load every signature file (progress for large sets). */
static int load_sigs(cli_ctx *c, const grove_stm_params *p, char **paths, size_t n,
                     grove_stm_sig *sigs)
{
    uint64_t total = n > STM_PROGRESS_MIN ? n : 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 256 == 0)
            cli_progress(c, "reading signatures", i, total);
        cli_file f;
        int rc = load_sig(c, paths[i], p, &sigs[i], &f);
        cli_file_free(&f);
        if (rc) {
            if (total)
                fputc('\n', stderr);
            return rc;
        }
    }
    cli_progress(c, "reading signatures", n, total);
    return 0;
}

/* Encode and write the aggregate with the AVK's key id; report it. */
static int write_agg(cli_ctx *c, const char *out, const grove_stm_aggregate *agg,
                     const grove_stm_closed *closed, const grove_stm_params *p, size_t given)
{
    size_t blen = grove_stm_aggregate_encoded_bytes(agg);
    uint8_t *bin = malloc(blen ? blen : 1), id[GROVE_ENVELOPE_KEY_ID_BYTES];
    grove_stm_avk avk;
    grove_stm_closed_avk(closed, &avk);
    avk_id(id, &avk);
    int st = bin == NULL ? GROVE_ERR_NOMEM : grove_stm_aggregate_to_bytes(agg, bin, blen, &blen);
    int rc = st != GROVE_OK ? cli_fail_status(c, st, "cannot encode the aggregate")
                            : stm_write(c, out, T_AGG, bin, blen, id, 0);
    free(bin);
    if (rc)
        return rc;
    size_t used = grove_stm_aggregate_count(agg);
    uint64_t nidx = 0;
    for (size_t i = 0; i < used; i++) {
        const grove_stm_sig *s;
        uint8_t vk[GROVE_STM_VK_BYTES];
        uint64_t stake;
        if (grove_stm_aggregate_get(agg, &s, vk, &stake, i) == GROVE_OK)
            nidx += s->n_indexes;
    }
    char hex[17];
    out_id(c, id, hex);
    cli_out_u64(c, "signatures_given", given);
    cli_out_u64(c, "signatures_used", used);
    cli_out_u64(c, "indexes", nidx);
    cli_out_u64(c, "bytes", blen);
    if (strcmp(out, "-") != 0)
        cli_say(c, "aggregate of %zu signatures (%llu indexes, k = %llu; key id %s) written to %s",
                used, (unsigned long long)nidx, (unsigned long long)p->k, hex, out);
    return 0;
}

/* --out must be none of the inputs: parameters, registration, message, signatures, lists. */
static int agg_refuse_same(cli_ctx *c, const char *out, char **paths, size_t n)
{
    const char *const fixed[] = {cli_opt_str(c, "params"), cli_opt_str(c, "closed"),
                                 cli_opt_str(c, "msg") ? cli_opt_str(c, "msg") : "-"};
    const char *const *lists;
    size_t nl = cli_opt_all(c, "sig-list", &lists);
    int rc = cli_refuse_same_file(c, "--out", out, fixed, 3);
    if (rc == 0)
        rc = cli_refuse_same_file(c, "--out", out, lists, nl);
    if (rc == 0)
        rc = cli_refuse_same_file(c, "--out", out, (const char *const *)paths, n);
    return rc;
}

static int cmd_aggregate(cli_ctx *c)
{
    const char *out = cli_require(c, "out");
    if (out == NULL)
        return CLI_EXIT_USAGE;
    int rc;
    unsigned threads;
    grove_stm_params p;
    if ((rc = get_threads(c, &threads)) != 0 || (rc = load_params(c, &p)) != 0)
        return rc;
    char **paths = NULL;
    size_t n = 0, mlen;
    grove_stm_closed *closed = NULL;
    grove_stm_sig *sigs = NULL;
    grove_stm_aggregate *agg = NULL;
    uint8_t *msg = NULL;
    if ((rc = sig_paths(c, &paths, &n)) != 0)
        return rc;
    if ((rc = agg_refuse_same(c, out, paths, n)) != 0 || (rc = load_closed(c, &closed)) != 0 ||
        (rc = read_msg(c, &msg, &mlen)) != 0)
        goto done;
    if ((sigs = calloc(n, sizeof *sigs)) == NULL) {
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
        goto done;
    }
    if ((rc = load_sigs(c, &p, paths, n, sigs)) != 0)
        goto done;
    uint64_t have = 0, big = n > STM_PROGRESS_MIN;
    cli_progress(c, "aggregating", 0, big);
    int st = grove_stm_aggregate_new(&p, &agg, &have, sigs, n, msg, mlen, closed, threads);
    cli_progress(c, "aggregating", 1, big);
    if (st == GROVE_ERR_NOT_ENOUGH) {
        cli_out_u64(c, "indexes", have);
        cli_out_u64(c, "k", p.k);
        rc = cli_fail(c, CLI_EXIT_INVALID, st,
                      "not enough signatures: %llu distinct valid lottery indexes, k = %llu",
                      (unsigned long long)have, (unsigned long long)p.k);
    } else if (st != GROVE_OK) {
        rc = cli_fail_status(c, st, "aggregation failed");
    } else {
        rc = write_agg(c, out, agg, closed, &p, n);
    }
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
    return rc;
}

static int cmd_verify(cli_ctx *c)
{
    int rc;
    grove_stm_params p;
    grove_stm_avk avk;
    cli_file af, sf;
    const char *sigpath = cli_require(c, "sig");
    if (sigpath == NULL)
        return CLI_EXIT_USAGE;
    unsigned threads;
    if ((rc = get_threads(c, &threads)) != 0 || (rc = load_params(c, &p)) != 0 ||
        (rc = load_avk(c, &avk, &af)) != 0)
        return rc;
    if ((rc = stm_read(c, sigpath, T_AGG, agg_body_max(&p, &avk), 0, &sf)) != 0) {
        cli_file_free(&af);
        return rc;
    }
    char hex[17] = "";
    if (af.env.has_key_id)
        grove_envelope_key_id_hex(hex, af.env.key_id);
    cli_out_str(c, "key_id", hex);
    uint8_t *msg = NULL;
    size_t mlen;
    grove_stm_aggregate *agg = NULL;
    int st = GROVE_OK;
    if ((rc = cli_check_key_id(c, &af, cli_opt_str(c, "avk"), &sf, sigpath)) != 0)
        cli_out_bool(c, "valid", 0);
    else if ((rc = read_msg(c, &msg, &mlen)) == 0 &&
             (st = grove_stm_aggregate_from_bytes(&agg, sf.env.body, sf.env.body_len)) !=
                 GROVE_OK)
        /* A body that does not decode is an input error (exit 2), not an invalid aggregate. */
        rc = cli_fail(c, CLI_EXIT_USAGE, st, "%s: not a well-formed aggregate signature (%s)",
                      sigpath, grove_strerror(st));
    if (rc == 0) {
        cli_out_u64(c, "signatures", grove_stm_aggregate_count(agg));
        rc = verdict(c, grove_stm_aggregate_verify_threads(&p, agg, msg, mlen, &avk, threads),
                     hex);
    }
    grove_stm_aggregate_free(agg);
    cli_file_free(&af);
    cli_file_free(&sf);
    free(msg);
    return rc;
}

/* ---- info ------------------------------------------------------------------------------- */

static void info_body(cli_ctx *c, const grove_envelope *e)
{
    const char *t = e->type;
    grove_stm_params p;
    grove_stm_avk avk;
    grove_stm_sig sig;
    grove_stm_closed *closed = NULL;
    grove_stm_aggregate *agg = NULL;
    char root[2 * GROVE_STM_ROOT_BYTES + 1];
    if (strcmp(t, T_PARAMS) == 0 && grove_stm_params_from_bytes(&p, e->body, e->body_len) == 0) {
        say_params(c, &p);
    } else if (strcmp(t, T_PK) == 0 && e->body_len == GROVE_STM_VKPOP_BYTES) {
        cli_out_hex(c, "vk", e->body, GROVE_STM_VK_BYTES);
        cli_say(c, "  verification key (96 bytes) and proof of possession (96 bytes)");
    } else if (strcmp(t, T_SK) == 0) {
        cli_say(c, "  BLS12-381 secret key (%zu bytes)", e->body_len);
    } else if (strcmp(t, T_AVK) == 0 && grove_stm_avk_from_bytes(&avk, e->body, e->body_len) == 0) {
        grove_hex_encode(root, avk.root, sizeof avk.root);
        cli_out_u64(c, "parties", avk.nr_leaves);
        cli_out_u64(c, "total_stake", avk.total_stake);
        cli_out_str(c, "root", root);
        cli_say(c, "  %llu parties, total stake %llu, root %s", (unsigned long long)avk.nr_leaves,
                (unsigned long long)avk.total_stake, root);
    } else if (strcmp(t, T_REG) == 0 &&
               grove_stm_closed_from_bytes(&closed, e->body, e->body_len) == 0) {
        grove_stm_closed_root(closed, avk.root);
        grove_hex_encode(root, avk.root, sizeof avk.root);
        cli_out_u64(c, "parties", grove_stm_closed_count(closed));
        cli_out_u64(c, "total_stake", grove_stm_closed_total_stake(closed));
        cli_out_str(c, "root", root);
        cli_say(c, "  %llu parties, total stake %llu, root %s",
                (unsigned long long)grove_stm_closed_count(closed),
                (unsigned long long)grove_stm_closed_total_stake(closed), root);
    } else if (strcmp(t, T_SIG) == 0 && grove_stm_sig_from_bytes(&sig, e->body, e->body_len) == 0) {
        cli_out_u64(c, "signer_index", sig.signer_index);
        cli_out_u64(c, "indexes", sig.n_indexes);
        cli_say(c, "  signer %llu, %zu lottery indexes", (unsigned long long)sig.signer_index,
                sig.n_indexes);
        grove_stm_sig_clear(&sig);
    } else if (strcmp(t, T_AGG) == 0 &&
               grove_stm_aggregate_from_bytes(&agg, e->body, e->body_len) == 0) {
        cli_out_u64(c, "signatures", grove_stm_aggregate_count(agg));
        cli_say(c, "  %zu single signatures", grove_stm_aggregate_count(agg));
    } else {
        cli_warn(c, "the content does not decode as an STM %s", t);
    }
    grove_stm_closed_free(closed);
    grove_stm_aggregate_free(agg);
}

static int cmd_info(cli_ctx *c)
{
    const char *path = cli_require(c, "file");
    if (path == NULL)
        return CLI_EXIT_USAGE;
    cli_file f;
    int rc = stm_read(c, path, NULL, STM_MAX_FILE, 1, &f);
    if (rc)
        return rc;
    cli_describe_file(c, path, &f);
    info_body(c, &f.env);
    cli_file_free(&f);
    return 0;
}

/* ---- export / import -------------------------------------------------------------------- */

/* The serde JSON of a body, or NULL (*st says why: GROVE_ERR_UNSUPPORTED if it has none). */
static char *body_json(const grove_envelope *e, int *st)
{
    char *j = NULL;
    grove_stm_params p;
    grove_stm_avk avk;
    grove_stm_sig sig;
    grove_stm_aggregate *agg = NULL;
    if (strcmp(e->type, T_PARAMS) == 0) {
        if ((*st = grove_stm_params_from_bytes(&p, e->body, e->body_len)) == GROVE_OK)
            *st = grove_stm_params_to_json(&p, &j);
    } else if (strcmp(e->type, T_AVK) == 0) {
        if ((*st = grove_stm_avk_from_bytes(&avk, e->body, e->body_len)) == GROVE_OK)
            *st = grove_stm_avk_to_json(&avk, &j);
    } else if (strcmp(e->type, T_SIG) == 0) {
        if ((*st = grove_stm_sig_from_bytes(&sig, e->body, e->body_len)) == GROVE_OK)
            *st = grove_stm_sig_to_json(&sig, &j);
        grove_stm_sig_clear(&sig);
    } else if (strcmp(e->type, T_AGG) == 0) {
        if ((*st = grove_stm_aggregate_from_bytes(&agg, e->body, e->body_len)) == GROVE_OK)
            *st = grove_stm_aggregate_to_json(agg, &j);
        grove_stm_aggregate_free(agg);
    } else {
        *st = GROVE_ERR_UNSUPPORTED;
    }
    return j;
}

/* The encodings of STM objects outside grove's files; der and pem exist for no STM object. */
enum { FMT_RAW, FMT_JSON, FMT_CBOR, FMT_AUTO };
static const char *const fmt_names[] = {"raw", "json", "cbor", "auto"};

/* --format: raw, json or cbor; absent: FMT_AUTO if dflt_auto, else a usage error. */
static int get_format(cli_ctx *c, int *fmt, const char *what, int dflt_auto)
{
    const char *f = cli_opt_str(c, "format");
    if (f == NULL && dflt_auto) {
        *fmt = FMT_AUTO;
        return 0;
    }
    if (f == NULL && (f = cli_require(c, "format")) == NULL)
        return CLI_EXIT_USAGE;
    for (int i = FMT_RAW; i <= FMT_CBOR; i++)
        if (strcmp(f, fmt_names[i]) == 0) {
            *fmt = i;
            return 0;
        }
    if (strcmp(f, "der") == 0 || strcmp(f, "pem") == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "no standard DER encoding exists for STM %s (use raw, json or cbor)",
                        what);
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                    "--format must be raw, json or cbor");
}

/* The encoding of input bytes: 0x01 first is CBOR v1, '{' (after white space) JSON, anything
 * else the raw layout (which never starts with 0x01 or '{' for a valid object). */
static int detect_format(const uint8_t *in, size_t len)
{
    if (len > 0 && in[0] == 0x01)
        return FMT_CBOR;
    size_t i = 0;
    while (i < len && (in[i] == ' ' || in[i] == '\t' || in[i] == '\n' || in[i] == '\r'))
        i++;
    return i < len && in[i] == '{' ? FMT_JSON : FMT_RAW;
}

/* --cbor-form 0.11 (default) or 0.12. */
static int get_cbor_form(cli_ctx *c, grove_stm_cbor_form *form)
{
    const char *f = cli_opt_str(c, "cbor-form");
    *form = GROVE_STM_CBOR_0_11;
    if (f == NULL || strcmp(f, "0.11") == 0)
        return 0;
    if (strcmp(f, "0.12") == 0) {
        *form = GROVE_STM_CBOR_0_12;
        return 0;
    }
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED, "--cbor-form must be 0.11 or 0.12");
}

/* The CBOR v1 encoding of a body into a fresh buffer, or NULL (*st says why:
 * GROVE_ERR_UNSUPPORTED if the object has none). */
static uint8_t *body_cbor(const grove_envelope *e, grove_stm_cbor_form form, size_t *len, int *st)
{
    grove_stm_params p;
    grove_stm_avk avk;
    grove_stm_sig sig;
    grove_stm_aggregate *agg = NULL;
    uint8_t *out = NULL;
    size_t cap = 0;
    memset(&sig, 0, sizeof sig);
    for (int pass = 0; pass < 2; pass++) { /* the size, then the bytes */
        if (pass == 1 && (out = malloc(cap = *len)) == NULL) {
            *st = GROVE_ERR_NOMEM;
            break;
        }
        if (strcmp(e->type, T_PARAMS) == 0) {
            if ((*st = grove_stm_params_from_bytes(&p, e->body, e->body_len)) == GROVE_OK)
                *st = grove_stm_params_to_cbor(&p, out, cap, len);
        } else if (strcmp(e->type, T_AVK) == 0) {
            if ((*st = grove_stm_avk_from_bytes(&avk, e->body, e->body_len)) == GROVE_OK)
                *st = grove_stm_avk_to_cbor(&avk, out, cap, len);
        } else if (strcmp(e->type, T_SIG) == 0) {
            if ((*st = grove_stm_sig_from_bytes(&sig, e->body, e->body_len)) == GROVE_OK)
                *st = grove_stm_sig_to_cbor(&sig, out, cap, len);
            grove_stm_sig_clear(&sig);
        } else if (strcmp(e->type, T_AGG) == 0) {
            if ((*st = grove_stm_aggregate_from_bytes(&agg, e->body, e->body_len)) == GROVE_OK)
                *st = grove_stm_aggregate_to_cbor(agg, out, cap, len, form);
            grove_stm_aggregate_free(agg);
            agg = NULL;
        } else {
            *st = GROVE_ERR_UNSUPPORTED;
        }
        if (*st != (pass == 0 ? GROVE_ERR_BUFFER_TOO_SMALL : GROVE_OK))
            break;
    }
    if (*st != GROVE_OK) {
        free(out);
        out = NULL;
    }
    return out;
}

/* The serde JSON or the CBOR v1 of a body, written to out. */
static int export_encoded(cli_ctx *c, const char *in, const char *out, const grove_envelope *e,
                          int fmt, grove_stm_cbor_form form)
{
    int st = GROVE_OK, rc;
    size_t len = 0;
    char *j = NULL;
    uint8_t *b = NULL;
    if (fmt == FMT_JSON)
        j = body_json(e, &st);
    else
        b = body_cbor(e, form, &len, &st);
    if (j != NULL)
        rc = write_json_text(c, out, j, 0);
    else if (b != NULL)
        rc = cli_write_file_ex(c, out, b, len, 0);
    else if (st == GROVE_ERR_UNSUPPORTED)
        rc = cli_fail(c, CLI_EXIT_USAGE, st, "no %s form exists for an STM %s",
                      fmt == FMT_JSON ? "serde JSON" : "CBOR", e->type);
    else
        rc = cli_fail(c, CLI_EXIT_USAGE, st, "%s: the content does not decode (%s)", in,
                      grove_strerror(st));
    free(j);
    free(b);
    return rc;
}

static int cmd_export(cli_ctx *c)
{
    static const char *const names[] = {"file", "params", "pk", "sk", "sig", "avk", "closed"};
    static const char *const want[] = {NULL, T_PARAMS, T_PK, T_SK, NULL, T_AVK, T_REG};
    const char *in = NULL, *out = cli_require(c, "out");
    size_t which = 0, given = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (cli_opt_str(c, names[i]) != NULL)
            in = cli_opt_str(c, names[i]), which = i, given++;
    if (out == NULL)
        return CLI_EXIT_USAGE;
    if (given != 1)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                        "give exactly one file to export (FILE, --params, --pk, --sk, --sig, "
                        "--avk or --closed)");
    const char *const ins[] = {in};
    int rc, fmt = FMT_RAW;
    grove_stm_cbor_form form = GROVE_STM_CBOR_0_11;
    cli_file f;
    if ((rc = cli_refuse_same_file(c, "--out", out, ins, 1)) != 0 ||
        (rc = stm_read(c, in, want[which], STM_MAX_FILE, 1, &f)) != 0)
        return rc;
    int secret = strcmp(f.env.type, T_SK) == 0;
    if (strcmp(names[which], "sig") == 0 && strcmp(f.env.type, T_SIG) != 0 &&
        strcmp(f.env.type, T_AGG) != 0)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                      "%s is a grove STM %s, a SINGLE SIGNATURE or AGGREGATE SIGNATURE was "
                      "expected", in, f.env.type);
    else if ((rc = get_format(c, &fmt, f.env.type, 0)) != 0 ||
             (rc = get_cbor_form(c, &form)) != 0)
        ;
    else if (fmt != FMT_CBOR && cli_opt_str(c, "cbor-form") != NULL)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG, "--cbor-form needs --format cbor");
    else if (secret && (rc = cli_refuse_existing_secret(c, "--out", out)) != 0)
        ;
    else if (fmt == FMT_RAW)
        rc = cli_write_file_ex(c, out, f.env.body, f.env.body_len, secret ? CLI_WRITE_SECRET : 0);
    else
        rc = export_encoded(c, in, out, &f.env, fmt, form);
    if (rc == 0) {
        cli_out_str(c, "type", f.env.type);
        cli_out_str(c, "format", fmt_names[fmt]);
        if (fmt == FMT_CBOR && strcmp(f.env.type, T_AGG) == 0)
            cli_out_str(c, "cbor_form", form == GROVE_STM_CBOR_0_12 ? "0.12" : "0.11");
        if (strcmp(out, "-") != 0)
            cli_say(c, "STM %s exported to %s (%s)", f.env.type, out,
                    fmt == FMT_JSON ? "serde JSON" : fmt == FMT_CBOR ? "CBOR v1" : "raw");
    }
    cli_file_free(&f);
    return rc;
}

static const char *fmt_label(int fmt)
{
    return fmt == FMT_JSON ? "serde JSON" : fmt == FMT_CBOR ? "CBOR v1" : "raw";
}

/* An imported object, decoded to its canonical binary body and key id. */
typedef struct imported {
    const char *type;
    uint8_t *body;
    size_t len;
    int has_id, secret;
    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES];
} imported;

/* Key id of a single signature: the vk at its signer index in the --closed registration. */
static int import_sig_id(cli_ctx *c, const grove_stm_sig *sig, imported *im)
{
    grove_stm_closed *closed = NULL;
    uint8_t vk[GROVE_STM_VK_BYTES];
    uint64_t stake;
    if (cli_opt_str(c, "closed") == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                        "importing a single signature needs --closed (the registration it was "
                        "made in: it gives the signer's key id)");
    int rc = load_closed(c, &closed);
    if (rc)
        return rc;
    if (grove_stm_closed_entry(closed, vk, &stake, sig->signer_index) != GROVE_OK)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOT_FOUND,
                      "signer index %llu is not in the registration %s",
                      (unsigned long long)sig->signer_index, cli_opt_str(c, "closed"));
    else
        vk_id(im->id, vk), im->has_id = 1;
    grove_stm_closed_free(closed);
    return rc;
}

/* Decode raw bytes or JSON text of the object named by `what` into im. */
static int import_decode(cli_ctx *c, const char *what, int fmt, const uint8_t *in, size_t len,
                         imported *im)
{
    int st = GROVE_OK, rc = 0;
    size_t n = 0;
    if (strcmp(what, "params") == 0) {
        grove_stm_params p;
        st = fmt == FMT_JSON   ? grove_stm_params_from_json(&p, (const char *)in, len)
             : fmt == FMT_CBOR ? grove_stm_params_from_cbor(&p, in, len)
                               : grove_stm_params_from_bytes(&p, in, len);
        if (st == GROVE_OK && (im->body = malloc(GROVE_STM_PARAMS_BYTES)) != NULL)
            grove_stm_params_to_bytes(&p, im->body), im->len = GROVE_STM_PARAMS_BYTES;
        im->type = T_PARAMS;
    } else if (strcmp(what, "avk") == 0) {
        grove_stm_avk avk;
        st = fmt == FMT_JSON   ? grove_stm_avk_from_json(&avk, (const char *)in, len)
             : fmt == FMT_CBOR ? grove_stm_avk_from_cbor(&avk, in, len)
                               : grove_stm_avk_from_bytes(&avk, in, len);
        if (st == GROVE_OK && (im->body = malloc(GROVE_STM_AVK_BYTES)) != NULL) {
            grove_stm_avk_to_bytes(&avk, im->body), im->len = GROVE_STM_AVK_BYTES;
            avk_id(im->id, &avk), im->has_id = 1;
        }
        im->type = T_AVK;
    } else if (strcmp(what, "sig") == 0) {
        grove_stm_sig sig;
        memset(&sig, 0, sizeof sig);
        st = fmt == FMT_JSON   ? grove_stm_sig_from_json(&sig, (const char *)in, len)
             : fmt == FMT_CBOR ? grove_stm_sig_from_cbor(&sig, in, len)
                               : grove_stm_sig_from_bytes(&sig, in, len);
        if (st == GROVE_OK && (rc = import_sig_id(c, &sig, im)) == 0) {
            n = grove_stm_sig_encoded_bytes(&sig);
            if ((im->body = malloc(n ? n : 1)) != NULL)
                st = grove_stm_sig_to_bytes(&sig, im->body, n, &im->len);
        }
        grove_stm_sig_clear(&sig);
        im->type = T_SIG;
    } else {
        grove_stm_aggregate *agg = NULL;
        st = fmt == FMT_JSON   ? grove_stm_aggregate_from_json(&agg, (const char *)in, len)
             : fmt == FMT_CBOR ? grove_stm_aggregate_from_cbor(&agg, NULL, in, len)
                               : grove_stm_aggregate_from_bytes(&agg, in, len);
        if (st == GROVE_OK) {
            n = grove_stm_aggregate_encoded_bytes(agg);
            if ((im->body = malloc(n ? n : 1)) != NULL)
                st = grove_stm_aggregate_to_bytes(agg, im->body, n, &im->len);
        }
        grove_stm_aggregate_free(agg);
        im->type = T_AGG;
    }
    if (rc)
        return rc;
    if (st == GROVE_OK && im->body == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: not a valid %s STM %s (%s)",
                        cli_opt_str(c, what), fmt_label(fmt), im->type,
                        grove_strerror(st));
    return 0;
}

/* mithril-stm's CBOR Initializer as a secret key: its 32-byte key is the body. */
static int import_initializer(cli_ctx *c, const uint8_t *in, size_t len, imported *im)
{
    grove_stm_params p;
    uint64_t stake;
    uint8_t vkpop[GROVE_STM_VKPOP_BYTES];
    im->type = T_SK, im->secret = 1;
    if ((im->body = malloc(GROVE_STM_SK_BYTES)) == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    int st = grove_stm_initializer_from_cbor(&p, &stake, im->body, vkpop, in, len);
    if (st != GROVE_OK) {
        free(im->body);
        im->body = NULL;
        return cli_fail(c, CLI_EXIT_USAGE, st,
                        "%s: not a valid CBOR STM initializer (mithril-stm's Initializer: "
                        "stake, parameters, secret key and its vk + PoP) (%s)",
                        cli_opt_str(c, "sk"), grove_strerror(st));
    }
    im->len = GROVE_STM_SK_BYTES;
    vk_id(im->id, vkpop), im->has_id = 1;
    cli_out_u64(c, "stake", stake);
    cli_out_u64(c, "m", p.m);
    cli_out_u64(c, "k", p.k);
    out_phi(c, p.phi_f);
    return 0;
}

/* Raw-only objects: public key, secret key (or its CBOR initializer), registration. */
static int import_raw_only(cli_ctx *c, const char *what, int fmt, const uint8_t *in, size_t len,
                           imported *im)
{
    int st = GROVE_OK;
    uint8_t vkpop[GROVE_STM_VKPOP_BYTES];
    if (strcmp(what, "sk") == 0 && fmt == FMT_CBOR)
        return import_initializer(c, in, len, im);
    if (fmt != FMT_RAW)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "%s: no %s form exists for this STM object: import --%s with "
                        "--format raw", cli_opt_str(c, what), fmt_label(fmt), what);
    if (strcmp(what, "pk") == 0) {
        im->type = T_PK;
        st = len == GROVE_STM_VKPOP_BYTES ? GROVE_OK : GROVE_ERR_ENCODING;
        if (st == GROVE_OK)
            vk_id(im->id, in), im->has_id = 1;
    } else if (strcmp(what, "sk") == 0) {
        im->type = T_SK, im->secret = 1;
        st = len == GROVE_STM_SK_BYTES ? grove_stm_vkpop_from_sk(vkpop, in) : GROVE_ERR_ENCODING;
        if (st == GROVE_OK)
            vk_id(im->id, vkpop), im->has_id = 1;
        grove_wipe(vkpop, sizeof vkpop);
    } else {
        grove_stm_closed *closed = NULL;
        grove_stm_avk avk;
        im->type = T_REG;
        st = grove_stm_closed_from_bytes(&closed, in, len);
        if (st == GROVE_OK)
            grove_stm_closed_avk(closed, &avk), avk_id(im->id, &avk), im->has_id = 1;
        grove_stm_closed_free(closed);
    }
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s: not a valid raw STM %s (%s)",
                        cli_opt_str(c, what), im->type, grove_strerror(st));
    if ((im->body = malloc(len ? len : 1)) == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    memcpy(im->body, in, len);
    im->len = len;
    return 0;
}

static int raw_only_key(const char *what)
{
    return strcmp(what, "pk") == 0 || strcmp(what, "sk") == 0;
}

/* Which object is imported: one of params/pk/sk/sig/agg, else avk or closed. */
static const char *import_what(cli_ctx *c, int *given)
{
    static const char *const first[] = {"params", "pk", "sk", "sig", "agg"};
    const char *what = NULL;
    *given = 0;
    for (size_t i = 0; i < sizeof first / sizeof first[0]; i++)
        if (cli_opt_str(c, first[i]) != NULL)
            what = first[i], (*given)++;
    if (*given == 0) {
        if (cli_opt_str(c, "avk") != NULL)
            what = "avk", (*given)++;
        if (cli_opt_str(c, "closed") != NULL)
            what = "closed", (*given)++;
    }
    return what;
}

static int cmd_import(cli_ctx *c)
{
    int given, fmt, rc;
    const char *what = import_what(c, &given), *out = cli_require(c, "out");
    if (out == NULL)
        return CLI_EXIT_USAGE;
    if (given != 1)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                        "give exactly one object to import (--params, --pk, --sk, --sig, --agg, "
                        "--avk or --closed)");
    const char *in = cli_opt_str(c, what);
    const char *const ins[] = {in, cli_opt_str(c, "avk"), cli_opt_str(c, "closed")};
    static const char *const whats[][2] = {{"params", T_PARAMS}, {"pk", T_PK}, {"sk", T_SK},
                                           {"sig", T_SIG},       {"agg", T_AGG}, {"avk", T_AVK},
                                           {"closed", T_REG}};
    const char *tname = what;
    for (size_t i = 0; i < sizeof whats / sizeof whats[0]; i++)
        if (strcmp(whats[i][0], what) == 0)
            tname = whats[i][1];
    if ((rc = cli_refuse_same_file(c, "--out", out, ins, 3)) != 0 ||
        (rc = get_format(c, &fmt, tname, 1)) != 0)
        return rc;
    int raw_only = strcmp(what, "pk") == 0 || strcmp(what, "sk") == 0 ||
                   strcmp(what, "closed") == 0;
    int secret = strcmp(what, "sk") == 0;
    if (fmt == FMT_JSON && raw_only)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "no serde JSON form exists for this STM object: import --%s with "
                        "--format raw", what);
    if (fmt == FMT_CBOR && raw_only && !secret)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "no CBOR form exists for this STM object: import --%s with "
                        "--format raw", what);
    if (secret && (rc = cli_refuse_existing_secret(c, "--out", out)) != 0)
        return rc;
    uint8_t *buf = NULL;
    size_t len = 0;
    imported im;
    memset(&im, 0, sizeof im);
    /* Parameters, keys and AVKs are small (room for JSON whitespace); the rest as large as
     * their formats allow. */
    int small = strcmp(what, "params") == 0 || strcmp(what, "avk") == 0 || raw_only_key(what);
    size_t max = small ? (size_t)64 << 10 : fmt == FMT_JSON ? GROVE_JSON_MAX_INPUT : STM_MAX_FILE;
    if ((rc = cli_read_file(c, in, max, &buf, &len)) != 0)
        return rc;
    /* auto: by the first byte; a 32-byte secret key is raw whatever its first byte */
    if (fmt == FMT_AUTO)
        fmt = secret && len == GROVE_STM_SK_BYTES ? FMT_RAW : detect_format(buf, len);
    cli_file af;
    memset(&af, 0, sizeof af);
    if (strcmp(what, "agg") == 0) { /* the key id is the AVK's */
        grove_stm_avk avk;
        if ((rc = load_avk(c, &avk, &af)) == 0)
            avk_id(im.id, &avk), im.has_id = 1;
    }
    if (rc == 0)
        rc = raw_only ? import_raw_only(c, what, fmt, buf, len, &im)
                      : import_decode(c, what, fmt, buf, len, &im);
    if (rc == 0)
        rc = stm_write(c, out, im.type, im.body, im.len, im.has_id ? im.id : NULL,
                       secret ? CLI_WRITE_SECRET : 0);
    if (rc == 0) {
        char hex[17] = "";
        if (im.has_id)
            out_id(c, im.id, hex);
        cli_out_str(c, "type", im.type);
        cli_out_str(c, "format", fmt_names[fmt]);
        if (strcmp(out, "-") != 0)
            cli_say(c, "STM %s%s%s imported to %s (from %s)", im.type,
                    im.has_id ? ", key id " : "", hex, out, fmt_label(fmt));
    }
    cli_file_free(&af);
    cli_free_secret(buf, len);
    cli_free_secret(im.body, im.len);
    return rc;
}

static const cli_command stm_commands[] = {
    {"params", cmd_params,
     "print what STM parameters are and the object sizes; with --m --k --phi-f check and print "
     "them (writes nothing)",
     params_opts},
    {"setup", cmd_setup, "check parameters (m, k, phi_f) and write the parameters file",
     setup_opts},
    {"keygen", cmd_keygen, "generate a BLS key: secret key and public key (vk + pop)",
     keygen_opts},
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
    {"info", cmd_info, "describe an STM file (type, key id, contents)", info_opts},
    {"export", cmd_export,
     "write the body of an STM file: raw (mithril's binary layout), json (serde) or cbor "
     "(mithril-stm's CBOR v1)",
     export_opts},
    {"import", cmd_import, "make an STM file from a raw, serde JSON or CBOR v1 object",
     import_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_stm = {"stm", "Mithril STM stake-based threshold multisignatures",
                                   stm_commands};
