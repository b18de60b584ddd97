/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove cross: CROSS v2.2 signatures. Keys and signatures are grove files (grove/envelope.h,
 * scheme "CROSS", the set's canonical name, types PUBLIC KEY / SECRET KEY / SIGNATURE) whose
 * bodies are the NIST API / KAT layouts (the secret key is the keygen seed). export/import
 * convert to and from those raw layouts; CROSS has no standard DER/PEM encoding. --strategy
 * picks fast (default) or small-memory, which give identical results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grove/cross.h"

/* Largest public and secret keys of the 18 sets (checked against the library at run time). */
#define CROSS_MAX_PK 256
#define CROSS_MAX_SK 64
/*
 * The default set: category 1 with a signature (9,120 B) within 2% of the smallest
 * (RSDPG-1-small, 8,960 B) while signing and verifying faster, and the smallest public key.
 */
#define DEFAULT_SET "CROSS-RSDPG-1-balanced"
#define SCHEME "CROSS"
#define T_PK CLI_T_PK
#define T_SK CLI_T_SK
#define T_SIG CLI_T_SIG

#define STRATEGY_HELP "fast (default) or small-memory: identical outputs, less memory"

/* The largest signature of any set, and so the largest grove file (armored, with header). */
static size_t file_max(void)
{
    size_t m = 0;
    for (size_t i = 0; i < grove_cross_params_count(); i++)
        if (grove_cross_sig_bytes(grove_cross_params_at(i)) > m)
            m = grove_cross_sig_bytes(grove_cross_params_at(i));
    return 2 * m + 4096;
}

static int sizes_in_range(const grove_cross_params *p)
{
    return grove_cross_pk_bytes(p) <= CROSS_MAX_PK && grove_cross_sk_bytes(p) <= CROSS_MAX_SK;
}

/* The set of --params, or the default when absent. */
static int get_params(cli_ctx *c, const grove_cross_params **p)
{
    const char *name = cli_opt_str(c, "params");
    *p = grove_cross_params_get(name ? name : DEFAULT_SET);
    if (*p == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "unknown parameter set '%s' (see 'grove cross params')", name);
    if (!sizes_in_range(*p))
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED, "key sizes out of range");
    return 0;
}

static int get_strategy(cli_ctx *c, grove_cross_strategy *s)
{
    const char *name = cli_opt_str(c, "strategy");
    *s = GROVE_CROSS_FAST;
    if (name != NULL && grove_cross_strategy_get(s, name) != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "unknown strategy '%s' (fast or small-memory)", name);
    return 0;
}

/* The CROSS sets for the shared file code (cli/sigfiles.c). */
static const char *set_scheme(const void *p)
{
    (void)p;
    return SCHEME;
}
static const char *set_name(const void *p) { return grove_cross_params_name(p); }
static size_t set_pk_bytes(const void *p) { return grove_cross_pk_bytes(p); }
static size_t set_sk_bytes(const void *p) { return grove_cross_sk_bytes(p); }
static size_t set_sig_bytes(const void *p) { return grove_cross_sig_bytes(p); }
static const void *set_find(const char *name, const char *scheme)
{
    (void)scheme;
    const grove_cross_params *p = grove_cross_params_get(name);
    return p != NULL && sizes_in_range(p) ? p : NULL;
}
static int set_of_option(cli_ctx *c, const char *scheme, const void **set)
{
    (void)scheme;
    const grove_cross_params *p = NULL;
    int rc = get_params(c, &p);
    *set = p;
    return rc;
}
static const cli_sig_kind KIND = {file_max,     set_scheme,    set_name, set_pk_bytes,
                                  set_sk_bytes, set_sig_bytes, set_find, set_of_option};

static void key_id(const grove_cross_params *p, const uint8_t *pk,
                   uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES])
{
    cli_sig_key_id(&KIND, p, pk, id);
}

static int read_obj(cli_ctx *c, const char *path, const char *type, int secret, cli_file *f,
                    const grove_cross_params **p)
{
    const void *set = NULL;
    int rc = cli_sig_read(c, &KIND, SCHEME, path, type, secret, f, &set);
    *p = set;
    return rc;
}

static int write_obj(cli_ctx *c, const grove_cross_params *p, const char *type,
                     const uint8_t *id, const uint8_t *body, size_t len, const char *path,
                     unsigned flags)
{
    return cli_sig_write(c, &KIND, p, type, id, body, len, path, flags);
}

static int cmd_params(cli_ctx *c)
{
    const grove_cross_params *dflt = grove_cross_params_get(DEFAULT_SET);
    cli_out_str(c, "default", grove_cross_params_name(dflt));
    cli_out_begin_array(c, "parameter_sets");
    for (size_t i = 0; i < grove_cross_params_count(); i++) {
        const grove_cross_params *p = grove_cross_params_at(i);
        cli_say(c, "%-24s category %d  pk %4zu B  sk %2zu B  signature %6zu B%s",
                grove_cross_params_name(p), grove_cross_params_category(p), grove_cross_pk_bytes(p),
                grove_cross_sk_bytes(p), grove_cross_sig_bytes(p), p == dflt ? "  (default)" : "");
        cli_out_begin_object(c, NULL);
        cli_out_str(c, "name", grove_cross_params_name(p));
        cli_out_int(c, "category", grove_cross_params_category(p));
        cli_out_u64(c, "pk_bytes", grove_cross_pk_bytes(p));
        cli_out_u64(c, "sk_bytes", grove_cross_sk_bytes(p));
        cli_out_u64(c, "sig_bytes", grove_cross_sig_bytes(p));
        cli_out_bool(c, "default", p == dflt);
        cli_out_end(c);
    }
    cli_out_end(c);
    return 0;
}

static int cmd_keygen(cli_ctx *c)
{
    const grove_cross_params *p;
    int rc = get_params(c, &p);
    if (rc)
        return rc;
    const char *pkpath = cli_require(c, "pk"), *skpath = cli_require(c, "sk");
    if (pkpath == NULL || skpath == NULL)
        return CLI_EXIT_USAGE;
    const char *const others[] = {skpath};
    if ((rc = cli_refuse_same_file(c, "--pk", pkpath, others, 1)) != 0 ||
        (rc = cli_refuse_existing_secret(c, "--sk", skpath)) != 0)
        return rc;
    size_t pkl = grove_cross_pk_bytes(p), skl = grove_cross_sk_bytes(p);
    uint8_t pk[CROSS_MAX_PK], sk[CROSS_MAX_SK], id[GROVE_ENVELOPE_KEY_ID_BYTES];
    uint8_t *seed = NULL;
    size_t seedlen = 0;
    if ((rc = cli_hex_opt(c, "seed", 64, &seed, &seedlen)) != 0)
        return rc;
    grove_status st;
    if (seed != NULL) {
        if (seedlen != skl) {
            cli_free_secret(seed, seedlen);
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_INVALID_ARG,
                            "--seed must be %zu bytes for %s", skl, grove_cross_params_name(p));
        }
        st = grove_cross_keygen_from_seed(p, pk, sk, seed);
        cli_free_secret(seed, seedlen);
    } else {
        st = grove_cross_keygen(p, pk, sk);
    }
    if (st != GROVE_OK) {
        grove_wipe(sk, sizeof sk);
        return cli_fail_status(c, st, "key generation failed");
    }
    key_id(p, pk, id);
    rc = write_obj(c, p, T_SK, id, sk, skl, skpath, CLI_WRITE_SECRET);
    grove_wipe(sk, sizeof sk);
    if (rc || (rc = write_obj(c, p, T_PK, id, pk, pkl, pkpath, 0)) != 0)
        return rc;
    char hex[17];
    cli_out_str(c, "params", grove_cross_params_name(p));
    cli_out_key_id(c, id, hex);
    cli_out_hex(c, "public_key", pk, pkl);
    cli_say(c, "%s key pair written: public key %s (%zu bytes), secret key %s (%zu bytes, mode "
               "0600), key id %s",
            grove_cross_params_name(p), pkpath, pkl, skpath, skl, hex);
    return 0;
}

/* The public key of a secret key (a seed): key generation from it. */
static int derive_pk(cli_ctx *c, const grove_cross_params *p, const uint8_t *seed, uint8_t *pk)
{
    uint8_t sk2[CROSS_MAX_SK];
    grove_status st = grove_cross_keygen_from_seed(p, pk, sk2, seed);
    grove_wipe(sk2, sizeof sk2);
    return st == GROVE_OK ? 0 : cli_fail_status(c, st, "cannot derive the public key");
}

/* Sign the message with the key in kf (pk its derived public key); the signature to *sig. */
static int sign_with(cli_ctx *c, const grove_cross_params *p, grove_cross_strategy s,
                     const cli_file *kf, const uint8_t *pk, const char *mpath, uint8_t **sig)
{
    size_t sl = grove_cross_sig_bytes(p), mlen = 0;
    uint8_t *msg = NULL;
    grove_status st;
    int rc = cli_read_file(c, mpath, CLI_MAX_INPUT, &msg, &mlen);
    if (rc == 0 && (*sig = malloc(sl)) == NULL)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    if (rc == 0 && (st = grove_cross_sign(p, s, *sig, msg, mlen, kf->env.body)) != GROVE_OK)
        rc = cli_fail_status(c, st, "signing failed");
    /* Self-check: never write a signature that does not verify with the signer's key. */
    if (rc == 0 && (st = grove_cross_verify(p, s, *sig, sl, msg, mlen, pk)) != GROVE_OK)
        rc = cli_fail_self_check(c, st);
    free(msg);
    return rc;
}

static int cmd_sign(cli_ctx *c)
{
    grove_cross_strategy s;
    int rc = get_strategy(c, &s);
    if (rc)
        return rc;
    const char *sigpath = cli_require(c, "sig"), *skpath = cli_require(c, "sk");
    const char *mpath = cli_require(c, "msg");
    if (sigpath == NULL || skpath == NULL || mpath == NULL)
        return CLI_EXIT_USAGE;
    const char *const inputs[] = {skpath, mpath};
    if ((rc = cli_refuse_same_file(c, "--sig", sigpath, inputs, 2)) != 0)
        return rc;
    /* The key is checked (envelope, set, and its key id against the public key derived from
     * the seed) before the message is read or anything is signed. */
    cli_file kf;
    const grove_cross_params *p;
    if ((rc = read_obj(c, skpath, T_SK, 1, &kf, &p)) != 0)
        return rc;
    uint8_t pk[CROSS_MAX_PK], id[GROVE_ENVELOPE_KEY_ID_BYTES], *sig = NULL;
    size_t sl = grove_cross_sig_bytes(p);
    rc = derive_pk(c, p, kf.env.body, pk);
    if (rc == 0)
        key_id(p, pk, id);
    if (rc == 0 && (!kf.env.has_key_id || memcmp(id, kf.env.key_id, sizeof id) != 0))
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                      "%s: the key id of this secret key file is not the id of its public key; "
                      "nothing signed",
                      skpath);
    if (rc == 0)
        rc = sign_with(c, p, s, &kf, pk, mpath, &sig);
    cli_file_free(&kf);
    if (rc == 0)
        rc = write_obj(c, p, T_SIG, id, sig, sl, sigpath, 0);
    free(sig);
    if (rc)
        return rc;
    char hex[17];
    cli_out_str(c, "params", grove_cross_params_name(p));
    cli_out_str(c, "strategy", grove_cross_strategy_name(s));
    cli_out_key_id(c, id, hex);
    cli_out_u64(c, "signature_bytes", sl);
    if (strcmp(sigpath, "-") != 0)
        cli_say(c, "signature (%zu bytes, key id %s) written to %s", sl, hex, sigpath);
    return 0;
}

static grove_status verify_fn(void *arg, const void *set, const uint8_t *sig, size_t sig_len,
                              const uint8_t *msg, size_t msg_len, const uint8_t *pk)
{
    return grove_cross_verify(set, *(const grove_cross_strategy *)arg, sig, sig_len, msg,
                              msg_len, pk);
}

static int cmd_verify(cli_ctx *c)
{
    grove_cross_strategy s;
    int rc = get_strategy(c, &s);
    if (rc)
        return rc;
    cli_out_str(c, "strategy", grove_cross_strategy_name(s));
    return cli_sig_verify(c, &KIND, SCHEME, verify_fn, &s);
}

static int cmd_info(cli_ctx *c)
{
    const char *path = cli_require(c, "file");
    if (path == NULL)
        return CLI_EXIT_USAGE;
    cli_file f;
    const grove_cross_params *p;
    int rc = read_obj(c, path, NULL, 1, &f, &p);
    if (rc)
        return rc;
    cli_describe_file(c, path, &f);
    cli_out_int(c, "category", grove_cross_params_category(p));
    cli_out_u64(c, "pk_bytes", grove_cross_pk_bytes(p));
    cli_out_u64(c, "sk_bytes", grove_cross_sk_bytes(p));
    cli_out_u64(c, "sig_bytes", grove_cross_sig_bytes(p));
    cli_say(c, "  %s: category %d, public key %zu bytes, secret key %zu bytes, signature %zu "
               "bytes",
            grove_cross_params_name(p), grove_cross_params_category(p), grove_cross_pk_bytes(p),
            grove_cross_sk_bytes(p), grove_cross_sig_bytes(p));
    if (strcmp(f.env.type, T_PK) == 0)
        cli_out_hex(c, "public_key", f.env.body, f.env.body_len);
    cli_file_free(&f);
    return 0;
}

/* ---- export / import ---------------------------------------------------------------------- */

/* Exactly one of --pk, --sk, --sig; --format raw (der/pem: no standard encoding exists). */
static int pick_object(cli_ctx *c, const char **path, const char **type)
{
    int rc = cli_sig_pick_object(c, path, type);
    if (rc)
        return rc;
    const char *fmt = cli_require(c, "format");
    if (fmt == NULL)
        return CLI_EXIT_USAGE;
    if (strcmp(fmt, "der") == 0 || strcmp(fmt, "pem") == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "no standard DER encoding exists for CROSS %ss (use --format raw)",
                        cli_sig_type_words(*type));
    if (strcmp(fmt, "raw") != 0)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "unknown --format '%s' (raw, der or pem)", fmt);
    return 0;
}

static int cmd_export(cli_ctx *c)
{
    const char *path = NULL, *type = NULL, *out = cli_require(c, "out");
    if (out == NULL)
        return CLI_EXIT_USAGE;
    int rc = pick_object(c, &path, &type), secret = type && strcmp(type, T_SK) == 0;
    if (rc || (rc = cli_sig_check_out(c, out, path, secret)) != 0)
        return rc;
    return cli_sig_export_raw(c, &KIND, SCHEME, path, type, out);
}

static int cmd_import(cli_ctx *c)
{
    const char *path = NULL, *type = NULL, *out = cli_require(c, "out");
    if (out == NULL)
        return CLI_EXIT_USAGE;
    int rc = pick_object(c, &path, &type), secret = type && strcmp(type, T_SK) == 0;
    if (rc || (rc = cli_sig_check_out(c, out, path, secret)) != 0)
        return rc;
    if (cli_opt_str(c, "params") == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, 0,
                        "import --format raw needs --params SET (raw files do not say)");
    const grove_cross_params *p;
    if ((rc = get_params(c, &p)) != 0)
        return rc;
    size_t len = cli_sig_body_bytes(&KIND, p, type);
    uint8_t *body = malloc(len), pk[CROSS_MAX_PK], id[GROVE_ENVELOPE_KEY_ID_BYTES];
    if (body == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    rc = cli_sig_read_raw(c, &KIND, p, path, type, body);
    /* The key id: of the public key, or of the public key derived from the secret seed; a raw
     * signature says nothing about its key and carries no key id. */
    int has_id = rc == 0 && strcmp(type, T_SIG) != 0;
    if (has_id && secret && (rc = derive_pk(c, p, body, pk)) != 0)
        has_id = 0;
    if (has_id)
        key_id(p, secret ? pk : body, id);
    if (rc == 0)
        rc = write_obj(c, p, type, has_id ? id : NULL, body, len, out, cli_sig_out_flags(c, secret));
    cli_free_secret(body, len);
    if (rc)
        return rc;
    char hex[17] = "";
    cli_out_str(c, "params", grove_cross_params_name(p));
    cli_out_str(c, "type", type);
    if (has_id)
        cli_out_key_id(c, id, hex);
    cli_say(c, "%s %s imported to %s%s%s", grove_cross_params_name(p), type,
            strcmp(out, "-") ? out : "standard output", has_id ? ", key id " : "", hex);
    return 0;
}

#define BINARY_OPT {"binary", NULL, "write the binary grove file instead of armored text", 0}
#define CHECK_PARAMS_OPT                                                                          \
    {"params", "SET", "check that the files are of this set (the set comes from the files)", 0}

static const cli_opt params_opts[] = {{NULL, NULL, NULL, 0}};

static const cli_opt keygen_opts[] = {
    {"params", "SET", "parameter set (default " DEFAULT_SET "; see 'params')", 0},
    {"pk", "FILE", "public key output ('-' for stdout)", 0},
    {"sk", "FILE", "secret key output (mode 0600; not replaced unless --force)", 0},
    {"seed", "HEX", "deterministic key from this seed (2*lambda/8 bytes); default: random", 0},
    {"force", NULL, "replace an existing --sk file", 0},
    BINARY_OPT,
    {NULL, NULL, NULL, 0},
};

static const cli_opt sign_opts[] = {
    {"sk", "FILE", "secret key (a grove CROSS SECRET KEY file; raw seeds: see import)", 0},
    {"msg", "FILE", "message ('-' for stdin)", 0},
    {"sig", "FILE", "signature output ('-' for stdout)", 0},
    CHECK_PARAMS_OPT,
    {"strategy", "NAME", STRATEGY_HELP, 0},
    BINARY_OPT,
    {NULL, NULL, NULL, 0},
};

static const cli_opt verify_opts[] = {
    {"pk", "FILE", "public key (a grove CROSS PUBLIC KEY file)", 0},
    {"msg", "FILE", "message ('-' for stdin)", 0},
    {"sig", "FILE", "signature ('-' for stdin)", 0},
    CHECK_PARAMS_OPT,
    {"strategy", "NAME", STRATEGY_HELP, 0},
    {NULL, NULL, NULL, 0},
};

static const cli_opt info_opts[] = {
    {"file", "FILE", "the key or signature file ('-' for stdin; also a bare argument)", 1},
    {NULL, NULL, NULL, 0},
};

static const cli_opt export_opts[] = {
    {"pk", "FILE", "export this public key", 0},
    {"sk", "FILE", "export this secret key (the seed)", 0},
    {"sig", "FILE", "export this signature", 0},
    {"format", "FMT", "raw (NIST API / KAT layout; CROSS has no standard DER/PEM encoding)", 0},
    {"out", "FILE", "output ('-' for stdout; a secret key: mode 0600, not replaced unless "
                    "--force)", 0},
    {"force", NULL, "replace an existing secret --out", 0},
    {NULL, NULL, NULL, 0},
};

static const cli_opt import_opts[] = {
    {"format", "FMT", "raw (NIST API / KAT layout)", 0},
    {"params", "SET", "the set of the raw input (required)", 0},
    {"pk", "FILE", "import this public key ('-' for stdin)", 0},
    {"sk", "FILE", "import this secret key (the seed; its key id comes from the public key "
                   "derived from it)", 0},
    {"sig", "FILE", "import this raw signature (it carries no key id)", 0},
    {"out", "FILE", "the grove file to write ('-' for stdout; a secret key: mode 0600, not "
                    "replaced unless --force)", 0},
    BINARY_OPT,
    {"force", NULL, "replace an existing secret --out", 0},
    {NULL, NULL, NULL, 0},
};

static const cli_command cross_commands[] = {
    {"keygen", cmd_keygen, "generate a key pair (default set " DEFAULT_SET ")", keygen_opts},
    {"sign", cmd_sign, "sign a message", sign_opts},
    {"verify", cmd_verify, "verify a signature (exit 0 valid, 1 invalid)", verify_opts},
    {"info", cmd_info, "describe a key or signature file", info_opts},
    {"params", cmd_params, "list the 18 parameter sets and their sizes", params_opts},
    {"export", cmd_export, "write a key or signature as raw bytes", export_opts},
    {"import", cmd_import, "make a grove file from raw bytes", import_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_cross = {"cross", "CROSS v2.2 code-based signatures (18 sets)",
                                     cross_commands};
