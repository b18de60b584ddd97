/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove slhdsa / grove sphincs: FIPS 205 SLH-DSA and SPHINCS+ round 3.1 on raw binary files. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grove/slhdsa.h"

#define DEFAULT_SET "shake-128f"

/* Accepts the full names of the flavour, or a short "sha2-128f" / "SHAKE-256s" form. */
static const grove_slhdsa_params *lookup(cli_ctx *c, int fips)
{
    const char *name = cli_opt_str(c, "params");
    if (name == NULL)
        name = DEFAULT_SET;
    const grove_slhdsa_params *p = grove_slhdsa_params_get(name);
    if (p == NULL) {
        char full[64], low[32];
        size_t i;
        for (i = 0; name[i] && i + 1 < sizeof low; i++)
            low[i] = (char)tolower((unsigned char)name[i]);
        low[i] = '\0';
        if (fips) {
            char up[32];
            for (i = 0; low[i]; i++)
                up[i] = (char)toupper((unsigned char)low[i]);
            up[i] = '\0';
            if (i > 0)
                up[i - 1] = low[i - 1]; /* the trailing s/f stays lower case */
            snprintf(full, sizeof full, "SLH-DSA-%s", up);
        } else {
            snprintf(full, sizeof full, "sphincs-%s-simple", low);
        }
        p = grove_slhdsa_params_get(full);
    }
    if (p == NULL || grove_slhdsa_params_is_fips205(p) != (fips != 0)) {
        cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                 "unknown %s parameter set '%s' (e.g. %s)", fips ? "SLH-DSA" : "SPHINCS+", name,
                 fips ? "SLH-DSA-SHAKE-128f or shake-128f" : "sphincs-shake-128f-simple or shake-128f");
        return NULL;
    }
    return p;
}

/* Read a key file of exactly `want` bytes. */
static int read_key(cli_ctx *c, const char *opt, size_t want, uint8_t *out, int secret)
{
    const char *path = cli_require(c, opt);
    if (path == NULL)
        return CLI_EXIT_USAGE;
    uint8_t *buf;
    size_t len;
    int rc = cli_read_file(c, path, want + 1, &buf, &len);
    if (rc)
        return rc;
    if (len != want) {
        cli_free_secret(buf, len);
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                        "%s: a %s of this parameter set has %zu bytes, the file has %zu", path,
                        secret ? "secret key" : "public key", want, len);
    }
    memcpy(out, buf, want);
    cli_free_secret(buf, len);
    return 0;
}

static int keygen(cli_ctx *c, int fips)
{
    const grove_slhdsa_params *p = lookup(c, fips);
    if (p == NULL)
        return CLI_EXIT_USAGE;
    const char *pkpath = cli_require(c, "pk"), *skpath = cli_require(c, "sk");
    if (!pkpath || !skpath)
        return CLI_EXIT_USAGE;
    const char *const others[] = {skpath};
    int rc = cli_refuse_same_file(c, "--pk", pkpath, others, 1);
    if (rc || (rc = cli_refuse_existing_secret(c, "--sk", skpath)) != 0)
        return rc;
    size_t n = grove_slhdsa_n(p);
    uint8_t pk[GROVE_SLHDSA_MAX_PK_BYTES], sk[GROVE_SLHDSA_MAX_SK_BYTES], *seed = NULL;
    size_t seedlen = 0;
    rc = cli_hex_opt(c, "seed", 3 * n + 1, &seed, &seedlen);
    if (rc)
        return rc;
    grove_status st;
    if (seed != NULL) {
        if (seedlen != 3 * n) {
            cli_free_secret(seed, seedlen);
            return cli_fail(c, CLI_EXIT_USAGE, 0,
                            "--seed must be %zu bytes (SK.seed || SK.prf || PK.seed) for %s", 3 * n,
                            grove_slhdsa_params_name(p));
        }
        st = grove_slhdsa_keygen_from_seed(p, pk, sk, seed, seed + n, seed + 2 * n);
        cli_free_secret(seed, seedlen);
    } else {
        st = grove_slhdsa_keygen(p, pk, sk);
    }
    if (st != GROVE_OK) {
        grove_wipe(sk, sizeof sk);
        return cli_fail_status(c, st, "key generation failed");
    }
    rc = cli_write_secret_key(c, skpath, grove_slhdsa_params_name(p), sk, 4 * n, pk, 2 * n);
    grove_wipe(sk, sizeof sk);
    if (rc == 0)
        rc = cli_write_file(c, pkpath, pk, 2 * n, 0);
    if (rc)
        return rc;
    cli_out_str(c, "params", grove_slhdsa_params_name(p));
    cli_out_hex(c, "public_key", pk, 2 * n);
    cli_say(c, "%s key pair written: public key %s, secret key %s (mode 0600, with integrity check)",
            grove_slhdsa_params_name(p), pkpath, skpath);
    return 0;
}

static int common_inputs(cli_ctx *c, int fips, uint8_t **ctx, size_t *ctxlen,
                         grove_slhdsa_prehash *ph)
{
    *ctx = NULL;
    *ctxlen = 0;
    *ph = (grove_slhdsa_prehash)0;
    if (!fips && (cli_opt_str(c, "ctx") || cli_opt_str(c, "prehash") || cli_opt_flag(c, "hedged")))
        return cli_fail(c, CLI_EXIT_USAGE, 0,
                        "--ctx, --prehash and --hedged are FIPS 205 options (use grove slhdsa)");
    const char *phname = cli_opt_str(c, "prehash");
    if (phname != NULL) {
        *ph = grove_slhdsa_prehash_get(phname);
        if (*ph == 0)
            return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                            "unknown pre-hash '%s' (SHA2-224/256/384/512, SHA3-256/512, "
                            "SHAKE128, SHAKE256)",
                            phname);
    }
    int rc = cli_hex_opt(c, "ctx", 4096, ctx, ctxlen);
    if (rc == 0 && *ctxlen > GROVE_SLHDSA_MAX_CTX_BYTES) {
        free(*ctx);
        *ctx = NULL;
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--ctx: a context has at most 255 bytes (got %zu)",
                        *ctxlen);
    }
    return rc;
}

/* Sign or verify (sig_len = length to verify, or 0 to sign) in the flavour of the command. */
static grove_status sign_or_verify(const grove_slhdsa_params *p, int fips, grove_slhdsa_prehash ph,
                                   bool hedged, uint8_t *sig, size_t sig_len, const uint8_t *msg,
                                   size_t msglen, const uint8_t *ctx, size_t ctxlen,
                                   const uint8_t *key)
{
    if (sig_len == 0) {
        if (!fips)
            return grove_sphincs_sign(p, sig, msg, msglen, key);
        if (ph)
            return grove_hashslhdsa_sign(p, sig, msg, msglen, ctx, ctxlen, ph, key, hedged);
        return grove_slhdsa_sign(p, sig, msg, msglen, ctx, ctxlen, key, hedged);
    }
    if (!fips)
        return grove_sphincs_verify(p, sig, sig_len, msg, msglen, key);
    if (ph)
        return grove_hashslhdsa_verify(p, sig, sig_len, msg, msglen, ctx, ctxlen, ph, key);
    return grove_slhdsa_verify(p, sig, sig_len, msg, msglen, ctx, ctxlen, key);
}

static int sign(cli_ctx *c, int fips)
{
    const grove_slhdsa_params *p = lookup(c, fips);
    if (p == NULL)
        return CLI_EXIT_USAGE;
    uint8_t *ctx, *msg = NULL, *sig = NULL;
    size_t ctxlen, msglen = 0;
    grove_slhdsa_prehash ph;
    int rc = common_inputs(c, fips, &ctx, &ctxlen, &ph);
    if (rc)
        return rc;
    const char *sigpath = cli_require(c, "sig"), *msgpath = cli_require(c, "msg");
    const char *skpath = cli_require(c, "sk");
    uint8_t sk[GROVE_SLHDSA_MAX_SK_BYTES], trailer[CLI_SK_TRAILER_BYTES];
    int sealed = 0;
    size_t n = grove_slhdsa_n(p), siglen = grove_slhdsa_sig_bytes(p);
    const char *const inputs[] = {skpath, msgpath};
    if (!sigpath || !msgpath || !skpath) {
        free(ctx);
        return CLI_EXIT_USAGE;
    }
    if ((rc = cli_refuse_same_file(c, "--sig", sigpath, inputs, 2)) != 0) {
        free(ctx);
        return rc;
    }
    /* The key is checked (integrity trailer, bound to the public key PK.seed || PK.root at its
     * end) before the message is read or anything is signed. */
    rc = cli_read_secret_key(c, skpath, 4 * n, sk, trailer, &sealed);
    if (rc == 0)
        rc = cli_check_secret_key(c, skpath, grove_slhdsa_params_name(p), sk, 4 * n, sk + 2 * n,
                                  2 * n, trailer, sealed);
    if (rc == 0)
        rc = cli_read_file(c, msgpath, CLI_MAX_INPUT, &msg, &msglen);
    grove_status st = GROVE_ERR_NOMEM;
    if (rc == 0 && (sig = malloc(siglen)) != NULL) {
        bool hedged = cli_opt_flag(c, "hedged") != 0;
        st = sign_or_verify(p, fips, ph, hedged, sig, 0, msg, msglen, ctx, ctxlen, sk);
        /* Self-check: never write a signature that does not verify with the signer's key. */
        if (st == GROVE_OK &&
            sign_or_verify(p, fips, ph, hedged, sig, siglen, msg, msglen, ctx, ctxlen,
                           sk + 2 * n) != GROVE_OK) {
            grove_wipe(sig, siglen);
            rc = cli_fail_self_check(c, GROVE_ERR_VERIFY);
        }
    }
    grove_wipe(sk, sizeof sk);
    free(ctx);
    free(msg);
    if (rc == 0 && st == GROVE_ERR_INVALID_ARG) /* the top root is not the key's PK.root */
        rc = cli_fail(c, CLI_EXIT_USAGE, st,
                      "%s: the secret key is inconsistent (SK.seed and PK.seed do not give its "
                      "PK.root): corrupted, or not a key of %s; nothing signed",
                      skpath, grove_slhdsa_params_name(p));
    else if (rc == 0 && st != GROVE_OK)
        rc = cli_fail_status(c, st, "signing failed");
    if (rc == 0)
        rc = cli_write_file(c, sigpath, sig, siglen, 0);
    free(sig);
    if (rc)
        return rc;
    cli_out_str(c, "params", grove_slhdsa_params_name(p));
    cli_out_u64(c, "signature_bytes", siglen);
    if (strcmp(sigpath, "-") != 0)
        cli_say(c, "signature (%zu bytes) written to %s", siglen, sigpath);
    return 0;
}

static int verify(cli_ctx *c, int fips)
{
    const grove_slhdsa_params *p = lookup(c, fips);
    if (p == NULL)
        return CLI_EXIT_USAGE;
    uint8_t *ctx, *msg = NULL, *sig = NULL;
    size_t ctxlen, msglen, siglen;
    grove_slhdsa_prehash ph;
    int rc = common_inputs(c, fips, &ctx, &ctxlen, &ph);
    if (rc)
        return rc;
    const char *sigpath = cli_require(c, "sig"), *msgpath = cli_require(c, "msg");
    uint8_t pk[GROVE_SLHDSA_MAX_PK_BYTES];
    if (!sigpath || !msgpath) {
        free(ctx);
        return CLI_EXIT_USAGE;
    }
    rc = read_key(c, "pk", grove_slhdsa_pk_bytes(p), pk, 0);
    /* At most one byte more than a signature of the set: a wrong length is an input error
     * (exit 2), as opposed to a well-formed signature that does not verify (exit 1). */
    size_t want = grove_slhdsa_sig_bytes(p);
    if (rc == 0 && (rc = cli_read_file(c, sigpath, want + 1, &sig, &siglen)) == 0 &&
        siglen != want) {
        rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                      "%s is not a signature of %s: it has %s%zu bytes, a signature has %zu",
                      sigpath, grove_slhdsa_params_name(p), siglen > want ? "more than " : "",
                      siglen > want ? want : siglen, want);
        free(sig);
        sig = NULL;
    }
    if (rc == 0)
        rc = cli_read_file(c, msgpath, CLI_MAX_INPUT, &msg, &msglen);
    if (rc) {
        free(ctx);
        free(sig);
        return rc;
    }
    grove_status st;
    if (!fips)
        st = grove_sphincs_verify(p, sig, siglen, msg, msglen, pk);
    else if (ph)
        st = grove_hashslhdsa_verify(p, sig, siglen, msg, msglen, ctx, ctxlen, ph, pk);
    else
        st = grove_slhdsa_verify(p, sig, siglen, msg, msglen, ctx, ctxlen, pk);
    free(ctx);
    free(msg);
    free(sig);
    cli_out_str(c, "params", grove_slhdsa_params_name(p));
    cli_out_bool(c, "valid", st == GROVE_OK);
    if (st == GROVE_ERR_VERIFY)
        return cli_fail(c, CLI_EXIT_INVALID, st, "signature INVALID");
    if (st != GROVE_OK)
        return cli_fail_status(c, st, "verification could not run");
    cli_say(c, "signature valid");
    return 0;
}

static int params_cmd(cli_ctx *c, int fips)
{
    cli_out_begin_array(c, "parameter_sets");
    for (size_t i = 0; i < grove_slhdsa_params_count(); i++) {
        const grove_slhdsa_params *p = grove_slhdsa_params_at(i);
        if (grove_slhdsa_params_is_fips205(p) != (fips != 0))
            continue;
        cli_say(c, "%-26s n=%-2zu pk=%-3zu sk=%-3zu sig=%zu", grove_slhdsa_params_name(p),
                grove_slhdsa_n(p), grove_slhdsa_pk_bytes(p), grove_slhdsa_sk_bytes(p),
                grove_slhdsa_sig_bytes(p));
        cli_out_begin_object(c, NULL);
        cli_out_str(c, "name", grove_slhdsa_params_name(p));
        cli_out_u64(c, "n", grove_slhdsa_n(p));
        cli_out_u64(c, "pk_bytes", grove_slhdsa_pk_bytes(p));
        cli_out_u64(c, "sk_bytes", grove_slhdsa_sk_bytes(p));
        cli_out_u64(c, "sig_bytes", grove_slhdsa_sig_bytes(p));
        cli_out_end(c);
    }
    cli_out_end(c);
    return 0;
}

static int slh_keygen(cli_ctx *c) { return keygen(c, 1); }
static int slh_sign(cli_ctx *c) { return sign(c, 1); }
static int slh_verify(cli_ctx *c) { return verify(c, 1); }
static int slh_params(cli_ctx *c) { return params_cmd(c, 1); }
static int spx_keygen(cli_ctx *c) { return keygen(c, 0); }
static int spx_sign(cli_ctx *c) { return sign(c, 0); }
static int spx_verify(cli_ctx *c) { return verify(c, 0); }
static int spx_params(cli_ctx *c) { return params_cmd(c, 0); }

#define PARAMS_OPT {"params", "NAME", "parameter set (default " DEFAULT_SET ")"}

static const cli_opt keygen_opts[] = {
    PARAMS_OPT,
    {"pk", "FILE", "public key output (raw, 2n bytes)"},
    {"sk", "FILE", "secret key output (4n bytes + integrity trailer, mode 0600; not replaced "
                   "unless --force)"},
    {"force", NULL, "replace an existing --sk file"},
    {"seed", "HEX", "3n bytes SK.seed || SK.prf || PK.seed (deterministic keys, for tests)"},
    {NULL, NULL, NULL},
};
static const cli_opt slh_sign_opts[] = {
    PARAMS_OPT,
    {"sk", "FILE", "secret key (as written by keygen, or raw 4n bytes: not checked)"},
    {"msg", "FILE", "message ('-' for stdin)"},
    {"sig", "FILE", "signature output ('-' for stdout)"},
    {"ctx", "HEX", "context string, at most 255 bytes (default empty)"},
    {"hedged", NULL, "hedged signing: fresh randomness (default deterministic)"},
    {"prehash", "NAME", "HashSLH-DSA with this pre-hash (SHA2-256, SHA2-512, SHAKE128, ...)"},
    {NULL, NULL, NULL},
};
static const cli_opt slh_verify_opts[] = {
    PARAMS_OPT,
    {"pk", "FILE", "public key (raw)"},
    {"msg", "FILE", "message ('-' for stdin)"},
    {"sig", "FILE", "signature"},
    {"ctx", "HEX", "context string used when signing"},
    {"prehash", "NAME", "HashSLH-DSA pre-hash used when signing"},
    {NULL, NULL, NULL},
};
static const cli_opt spx_sign_opts[] = {
    PARAMS_OPT,
    {"sk", "FILE", "secret key (as written by keygen, or raw 4n bytes: not checked)"},
    {"msg", "FILE", "message ('-' for stdin)"},
    {"sig", "FILE", "detached signature output ('-' for stdout)"},
    {NULL, NULL, NULL},
};
static const cli_opt spx_verify_opts[] = {
    PARAMS_OPT,
    {"pk", "FILE", "public key (raw)"},
    {"msg", "FILE", "message ('-' for stdin)"},
    {"sig", "FILE", "detached signature"},
    {NULL, NULL, NULL},
};
static const cli_opt no_opts[] = {{NULL, NULL, NULL}};

static const cli_command slh_commands[] = {
    {"keygen", slh_keygen, "generate a key pair", keygen_opts},
    {"sign", slh_sign, "sign a file (pure or pre-hash SLH-DSA)", slh_sign_opts},
    {"verify", slh_verify, "verify a signature (exit 0 valid, 1 invalid)", slh_verify_opts},
    {"params", slh_params, "list the parameter sets and sizes", no_opts},
    {NULL, NULL, NULL, NULL},
};
static const cli_command spx_commands[] = {
    {"keygen", spx_keygen, "generate a key pair", keygen_opts},
    {"sign", spx_sign, "sign a file (detached, randomized as round 3.1)", spx_sign_opts},
    {"verify", spx_verify, "verify a detached signature (exit 0 valid, 1 invalid)", spx_verify_opts},
    {"params", spx_params, "list the parameter sets and sizes", no_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_slhdsa = {"slhdsa", "SLH-DSA, FIPS 205 (stateless hash-based)", slh_commands};
const cli_scheme cli_scheme_sphincs = {"sphincs", "SPHINCS+ round 3.1 \"simple\" (as in PQClean)",
                                       spx_commands};
