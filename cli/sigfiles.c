/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The files of the stateless signature commands (grove slhdsa, sphincs, cross): one reader,
 * writer and verifier over a scheme's sets (cli_sig_kind), so that each command file holds only
 * what its scheme does differently.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

size_t cli_sig_body_bytes(const cli_sig_kind *k, const void *set, const char *type)
{
    if (strcmp(type, CLI_T_PK) == 0)
        return k->pk_bytes(set);
    if (strcmp(type, CLI_T_SK) == 0)
        return k->sk_bytes(set);
    if (strcmp(type, CLI_T_SIG) == 0)
        return k->sig_bytes(set);
    return 0;
}

void cli_sig_key_id(const cli_sig_kind *k, const void *set, const uint8_t *pk,
                    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES])
{
    if (grove_envelope_key_id(id, k->scheme(set), k->name(set), pk, k->pk_bytes(set)) != GROVE_OK)
        memset(id, 0, GROVE_ENVELOPE_KEY_ID_BYTES);
}

int cli_sig_read(cli_ctx *c, const cli_sig_kind *k, const char *scheme, const char *path,
                 const char *type, int secret, cli_file *f, const void **set)
{
    int rc = cli_read_grove_file(c, path, scheme, type, k->file_max(), secret, f);
    if (rc)
        return rc;
    const grove_envelope *e = &f->env;
    *set = k->find(e->set, scheme);
    size_t want = *set ? cli_sig_body_bytes(k, *set, e->type) : 0;
    if (*set == NULL)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                      "%s: a grove %s %s of unknown set '%s'", path, e->scheme, e->type, e->set);
    else if (want == 0)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                      "%s: a %s %s is not a key or signature", path, e->scheme, e->type);
    else if (e->body_len != want)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                      "%s: a %s %s of %s has %zu bytes, this one has %zu", path, e->scheme,
                      e->type, e->set, want, e->body_len);
    else if (cli_opt_str(c, "params") != NULL) {
        const void *want_set = NULL;
        if ((rc = k->params_opt(c, scheme, &want_set)) == 0 && want_set != *set)
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                          "%s is a %s %s of set %s, but --params says %s", path, e->scheme,
                          e->type, e->set, k->name(want_set));
    }
    if (rc)
        cli_file_free(f);
    return rc;
}

int cli_sig_write(cli_ctx *c, const cli_sig_kind *k, const void *set, const char *type,
                  const uint8_t *id, const uint8_t *body, size_t len, const char *path,
                  unsigned flags)
{
    grove_envelope env;
    grove_status st = grove_envelope_init(&env, k->scheme(set), k->name(set), type, body, len);
    if (st != GROVE_OK)
        return cli_fail_status(c, st, "cannot describe the file");
    if (id != NULL) {
        memcpy(env.key_id, id, GROVE_ENVELOPE_KEY_ID_BYTES);
        env.has_key_id = true;
    }
    return cli_write_grove_file(c, path, &env, flags);
}

int cli_sig_verify(cli_ctx *c, const cli_sig_kind *k, const char *scheme, cli_sig_verify_fn fn,
                   void *arg)
{
    const char *pkpath = cli_require(c, "pk"), *sigpath = cli_require(c, "sig");
    const char *mpath = cli_require(c, "msg");
    if (pkpath == NULL || sigpath == NULL || mpath == NULL)
        return CLI_EXIT_USAGE;
    cli_file kf, sf;
    const void *p, *ps;
    int rc = cli_sig_read(c, k, scheme, pkpath, CLI_T_PK, 0, &kf, &p);
    if (rc)
        return rc;
    if ((rc = cli_sig_read(c, k, scheme, sigpath, CLI_T_SIG, 0, &sf, &ps)) != 0) {
        cli_file_free(&kf);
        return rc;
    }
    char hex[17];
    cli_out_str(c, "params", k->name(p));
    cli_out_key_id(c, kf.env.key_id, hex);
    uint8_t *msg = NULL;
    size_t mlen = 0;
    if (ps != p) /* a signature of another set cannot be one of this key: an input error */
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                      "%s is a signature of %s, %s is a key of %s", sigpath, k->name(ps), pkpath,
                      k->name(p));
    else if ((rc = cli_check_key_id(c, &kf, pkpath, &sf, sigpath)) != 0)
        cli_out_bool(c, "valid", 0);
    if (rc == 0)
        rc = cli_read_file(c, mpath, CLI_MAX_INPUT, &msg, &mlen);
    grove_status st = GROVE_ERR_INTERNAL;
    if (rc == 0)
        st = fn(arg, p, sf.env.body, sf.env.body_len, msg, mlen, kf.env.body);
    free(msg);
    cli_file_free(&kf);
    cli_file_free(&sf);
    if (rc)
        return rc;
    cli_out_bool(c, "valid", st == GROVE_OK);
    if (st == GROVE_ERR_VERIFY)
        return cli_fail(c, CLI_EXIT_INVALID, st, "signature INVALID");
    if (st != GROVE_OK) /* e.g. a public key with non-zero padding bits: malformed input */
        return cli_fail_status(c, st, "verification could not run");
    cli_say(c, "signature valid (key id %s)", hex);
    return 0;
}

int cli_sig_pick_object(cli_ctx *c, const char **path, const char **type)
{
    static const char *const opts[] = {"pk", "sk", "sig"};
    static const char *const types[] = {CLI_T_PK, CLI_T_SK, CLI_T_SIG};
    int found = 0;
    for (int i = 0; i < 3; i++)
        if (cli_opt_str(c, opts[i]) != NULL) {
            *path = cli_opt_str(c, opts[i]);
            *type = types[i];
            found++;
        }
    if (found != 1)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "give exactly one of --pk, --sk, --sig");
    return 0;
}

const char *cli_sig_type_words(const char *type)
{
    return strcmp(type, CLI_T_PK) == 0 ? "public key"
           : strcmp(type, CLI_T_SK) == 0 ? "secret key"
                                         : "signature";
}

unsigned cli_sig_out_flags(cli_ctx *c, int secret)
{
    if (!secret)
        return 0;
    return CLI_WRITE_SECRET | (cli_opt_flag(c, "force") ? 0u : (unsigned)CLI_WRITE_NO_REPLACE);
}

int cli_sig_check_out(cli_ctx *c, const char *out, const char *in, int secret)
{
    const char *const others[] = {in};
    int rc = cli_refuse_same_file(c, "--out", out, others, 1);
    if (rc == 0 && secret)
        rc = cli_refuse_existing_secret(c, "--out", out);
    return rc;
}

int cli_sig_read_raw(cli_ctx *c, const cli_sig_kind *k, const void *set, const char *path,
                     const char *type, uint8_t *body)
{
    size_t want = cli_sig_body_bytes(k, set, type), len = 0;
    uint8_t *in = NULL;
    int rc = cli_read_file(c, path, want + 1, &in, &len);
    if (rc)
        return rc;
    if (len == want)
        memcpy(body, in, want);
    else
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                      "%s: a raw %s %s has %zu bytes, the file has %s%zu", path, k->name(set),
                      type, want, len > want ? "more than " : "", len > want ? want : len);
    cli_free_secret(in, len);
    return rc;
}

int cli_sig_export_raw(cli_ctx *c, const cli_sig_kind *k, const char *scheme, const char *path,
                       const char *type, const char *out)
{
    int secret = strcmp(type, CLI_T_SK) == 0, rc;
    cli_file f;
    const void *p;
    if ((rc = cli_sig_read(c, k, scheme, path, type, secret, &f, &p)) != 0)
        return rc;
    size_t len = f.env.body_len;
    rc = cli_write_file_ex(c, out, f.env.body, len, cli_sig_out_flags(c, secret));
    cli_file_free(&f);
    if (rc)
        return rc;
    cli_out_str(c, "params", k->name(p));
    cli_out_str(c, "type", type);
    cli_out_str(c, "format", "raw");
    cli_out_u64(c, "bytes", len);
    cli_say(c, "%s %s exported to %s (raw, %zu bytes)", k->name(p), type,
            strcmp(out, "-") ? out : "standard output", len);
    return 0;
}
