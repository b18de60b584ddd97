/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove cross: CROSS v2.2 signatures. Keys and signatures are raw bytes in the sizes of the
 * parameter set (NIST format; the secret key is a seed). --params names the set for every
 * command; --strategy picks fast (default) or small-memory, which give identical results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grove/cross.h"

/* Largest public and secret keys of the 18 sets (checked against the library at run time). */
#define CROSS_MAX_PK 256
#define CROSS_MAX_SK 64

#define PARAMS_HELP "parameter set, e.g. CROSS-RSDP-1-fast or CROSS-RSDPG-5-small (see 'params')"
#define STRATEGY_HELP "fast (default) or small-memory: identical outputs, less memory"

static const cli_opt params_opts[] = {{NULL, NULL, NULL}};

static const cli_opt keygen_opts[] = {
    {"params", "NAME", PARAMS_HELP},
    {"pk", "FILE", "public key output ('-' for stdout)"},
    {"sk", "FILE", "secret key output (seed + integrity trailer, mode 0600; not replaced unless "
                   "--force)"},
    {"seed", "HEX", "deterministic key from this seed (2*lambda/8 bytes); default: random"},
    {"force", NULL, "replace an existing --sk file"},
    {NULL, NULL, NULL},
};

static const cli_opt sign_opts[] = {
    {"params", "NAME", PARAMS_HELP},
    {"sk", "FILE", "secret key (as written by keygen, or a raw seed: not checked)"},
    {"msg", "FILE", "message ('-' for stdin; default stdin)"},
    {"sig", "FILE", "signature output ('-' for stdout)"},
    {"strategy", "NAME", STRATEGY_HELP},
    {NULL, NULL, NULL},
};

static const cli_opt verify_opts[] = {
    {"params", "NAME", PARAMS_HELP},
    {"pk", "FILE", "public key"},
    {"msg", "FILE", "message ('-' for stdin; default stdin)"},
    {"sig", "FILE", "signature"},
    {"strategy", "NAME", STRATEGY_HELP},
    {NULL, NULL, NULL},
};

static int get_params(cli_ctx *c, const grove_cross_params **p)
{
    const char *name = cli_require(c, "params");
    if (name == NULL)
        return CLI_EXIT_USAGE;
    *p = grove_cross_params_get(name);
    if (*p == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "unknown parameter set '%s' (see 'grove cross params')", name);
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

/* Read a public file that must be exactly len bytes (never reads more than len + 1). */
static int read_exact(cli_ctx *c, const char *opt, size_t len, uint8_t **buf)
{
    const char *path = cli_require(c, opt);
    if (path == NULL)
        return CLI_EXIT_USAGE;
    size_t got;
    int rc = cli_read_file(c, path, len, buf, &got);
    if (rc)
        return rc;
    if (got != len) {
        free(*buf);
        *buf = NULL;
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s has %zu bytes, expected %zu for this parameter set", path, got, len);
    }
    return 0;
}

static int cmd_params(cli_ctx *c)
{
    cli_out_begin_array(c, "parameter_sets");
    for (size_t i = 0; i < grove_cross_params_count(); i++) {
        const grove_cross_params *p = grove_cross_params_at(i);
        cli_say(c, "%-24s category %d  pk %4zu B  sk %2zu B  signature %6zu B",
                grove_cross_params_name(p), grove_cross_params_category(p), grove_cross_pk_bytes(p),
                grove_cross_sk_bytes(p), grove_cross_sig_bytes(p));
        cli_out_begin_object(c, NULL);
        cli_out_str(c, "name", grove_cross_params_name(p));
        cli_out_int(c, "category", grove_cross_params_category(p));
        cli_out_u64(c, "pk_bytes", grove_cross_pk_bytes(p));
        cli_out_u64(c, "sk_bytes", grove_cross_sk_bytes(p));
        cli_out_u64(c, "sig_bytes", grove_cross_sig_bytes(p));
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
    uint8_t pk[CROSS_MAX_PK], sk[CROSS_MAX_SK];
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
    rc = cli_write_secret_key(c, skpath, grove_cross_params_name(p), sk, skl, pk, pkl);
    grove_wipe(sk, sizeof sk);
    if (rc)
        return rc;
    if ((rc = cli_write_file(c, pkpath, pk, pkl, 0)) != 0)
        return rc;
    cli_out_str(c, "params", grove_cross_params_name(p));
    cli_out_hex(c, "public_key", pk, pkl);
    cli_say(c, "%s key pair written: public key %s (%zu bytes), secret key %s (%zu bytes)",
            grove_cross_params_name(p), pkpath, pkl, skpath, skl);
    return 0;
}

static int cmd_sign(cli_ctx *c)
{
    const grove_cross_params *p;
    grove_cross_strategy s;
    int rc = get_params(c, &p);
    if (rc || (rc = get_strategy(c, &s)) != 0)
        return rc;
    const char *sigpath = cli_require(c, "sig"), *skpath = cli_require(c, "sk");
    if (sigpath == NULL || skpath == NULL)
        return CLI_EXIT_USAGE;
    const char *mpath = cli_opt_str(c, "msg");
    if (mpath == NULL)
        mpath = "-";
    const char *const inputs[] = {skpath, mpath};
    if ((rc = cli_refuse_same_file(c, "--sig", sigpath, inputs, 2)) != 0)
        return rc;
    size_t skl = grove_cross_sk_bytes(p), pkl = grove_cross_pk_bytes(p),
           sl = grove_cross_sig_bytes(p);
    if (skl > CROSS_MAX_SK || pkl > CROSS_MAX_PK)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED, "key sizes out of range");
    uint8_t sk[CROSS_MAX_SK], sk2[CROSS_MAX_SK], pk[CROSS_MAX_PK], trailer[CLI_SK_TRAILER_BYTES];
    uint8_t *msg = NULL, *sig = NULL;
    size_t mlen = 0;
    int sealed = 0, st = GROVE_OK;
    /* The secret key is a seed: its public key is derived (key generation) for the integrity
     * check and the self-check, before the message is read or anything is signed. */
    rc = cli_read_secret_key(c, skpath, skl, sk, trailer, &sealed);
    if (rc == 0 && (st = grove_cross_keygen_from_seed(p, pk, sk2, sk)) != GROVE_OK)
        rc = cli_fail_status(c, st, "cannot derive the public key");
    grove_wipe(sk2, sizeof sk2);
    if (rc == 0)
        rc = cli_check_secret_key(c, skpath, grove_cross_params_name(p), sk, skl, pk, pkl,
                                  trailer, sealed);
    if (rc == 0)
        rc = cli_read_file(c, mpath, CLI_MAX_INPUT, &msg, &mlen);
    if (rc == 0 && (sig = malloc(sl)) == NULL)
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    if (rc == 0 && (st = grove_cross_sign(p, s, sig, msg, mlen, sk)) != GROVE_OK)
        rc = cli_fail_status(c, st, "signing failed");
    grove_wipe(sk, sizeof sk);
    /* Self-check: never write a signature that does not verify with the signer's key. */
    if (rc == 0 && (st = grove_cross_verify(p, s, sig, sl, msg, mlen, pk)) != GROVE_OK) {
        grove_wipe(sig, sl);
        rc = cli_fail_self_check(c, st);
    }
    free(msg);
    if (rc == 0)
        rc = cli_write_file(c, sigpath, sig, sl, 0);
    free(sig);
    if (rc)
        return rc;
    cli_out_str(c, "params", grove_cross_params_name(p));
    cli_out_str(c, "strategy", grove_cross_strategy_name(s));
    cli_out_u64(c, "signature_bytes", sl);
    if (strcmp(sigpath, "-") != 0)
        cli_say(c, "signature written to %s (%zu bytes)", sigpath, sl);
    return 0;
}

static int cmd_verify(cli_ctx *c)
{
    const grove_cross_params *p;
    grove_cross_strategy s;
    int rc = get_params(c, &p);
    if (rc || (rc = get_strategy(c, &s)) != 0)
        return rc;
    const char *pkpath = cli_require(c, "pk"), *sigpath = cli_require(c, "sig");
    if (pkpath == NULL || sigpath == NULL)
        return CLI_EXIT_USAGE;
    size_t pkl = grove_cross_pk_bytes(p), sl = grove_cross_sig_bytes(p);
    uint8_t *pk = NULL, *sig = NULL, *msg = NULL;
    size_t siglen = 0, mlen = 0;
    if ((rc = read_exact(c, "pk", pkl, &pk)) != 0)
        return rc;
    /* At most one byte more than a signature of the set: a signature of the wrong size is
     * an input error (exit 2), not a well-formed signature that does not verify (exit 1). */
    if ((rc = cli_read_file(c, sigpath, sl + 1, &sig, &siglen)) != 0) {
        free(pk);
        return rc;
    }
    if (siglen != sl) {
        free(pk);
        free(sig);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s is not a signature of %s: it has %s%zu bytes, a signature has %zu",
                        sigpath, grove_cross_params_name(p), siglen > sl ? "more than " : "",
                        siglen > sl ? sl : siglen, sl);
    }
    const char *mpath = cli_opt_str(c, "msg");
    if ((rc = cli_read_file(c, mpath ? mpath : "-", CLI_MAX_INPUT, &msg, &mlen)) != 0) {
        free(pk);
        free(sig);
        return rc;
    }
    grove_status st = grove_cross_verify(p, s, sig, siglen, msg, mlen, pk);
    free(pk);
    free(sig);
    free(msg);
    cli_out_str(c, "params", grove_cross_params_name(p));
    cli_out_str(c, "strategy", grove_cross_strategy_name(s));
    if (st == GROVE_ERR_VERIFY) {
        cli_out_bool(c, "valid", 0);
        return cli_fail(c, CLI_EXIT_INVALID, st, "signature is NOT valid");
    }
    if (st != GROVE_OK)
        return cli_fail_status(c, st, "verification could not run");
    cli_out_bool(c, "valid", 1);
    cli_say(c, "signature is valid");
    return 0;
}

static const cli_command cross_commands[] = {
    {"params", cmd_params, "list the 18 parameter sets and their sizes", params_opts},
    {"keygen", cmd_keygen, "generate a key pair", keygen_opts},
    {"sign", cmd_sign, "sign a message", sign_opts},
    {"verify", cmd_verify, "verify a signature (exit 1 if invalid)", verify_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_cross = {"cross", "CROSS v2.2 code-based signatures (18 sets)",
                                     cross_commands};
