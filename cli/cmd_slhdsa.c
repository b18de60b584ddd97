/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove slhdsa / grove sphincs: FIPS 205 SLH-DSA and SPHINCS+ round 3.1. Keys and signatures
 * are grove files (grove/envelope.h, scheme "SLH-DSA" or "SPHINCS+", the set's canonical name,
 * types PUBLIC KEY / SECRET KEY / SIGNATURE) whose bodies are the NIST API layouts (pk =
 * PK.seed || PK.root, sk = SK.seed || SK.prf || PK.seed || PK.root, sig = the signature).
 * export/import convert to and from those raw layouts and, for SLH-DSA keys, RFC 9909's
 * SubjectPublicKeyInfo and PKCS#8 (DER or PEM).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grove/hash.h"
#include "grove/pkix.h"
#include "grove/slhdsa.h"

#define DEFAULT_SET "shake-128f"
#define T_PK CLI_T_PK
#define T_SK CLI_T_SK
#define T_SIG CLI_T_SIG
/* Largest grove file of a scheme: an armored signature (base64 + line ends + header). */
#define FILE_MAX (2u * GROVE_SLHDSA_MAX_SIG_BYTES + 4096u)
#define PEM_MAX 4096u

static const char *scheme_name(int fips) { return fips ? "SLH-DSA" : "SPHINCS+"; }

/* Accepts the full names of the flavour, or a short "sha2-128f" / "SHAKE-256s" form. */
static const grove_slhdsa_params *lookup_name(const char *name, int fips)
{
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
    if (p != NULL && grove_slhdsa_params_is_fips205(p) != (fips != 0))
        return NULL;
    return p;
}

/* The set of --params, or the default when absent; NULL after a usage error. */
static const grove_slhdsa_params *lookup(cli_ctx *c, int fips)
{
    const char *name = cli_opt_str(c, "params");
    const grove_slhdsa_params *p = lookup_name(name ? name : DEFAULT_SET, fips);
    if (p == NULL)
        cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                 "unknown %s parameter set '%s' (e.g. %s; see 'grove %s params')",
                 scheme_name(fips), name,
                 fips ? "SLH-DSA-SHAKE-128f or shake-128f"
                      : "sphincs-shake-128f-simple or shake-128f",
                 fips ? "slhdsa" : "sphincs");
    return p;
}

/* The sets of both flavours for the shared file code (cli/sigfiles.c). */
static size_t file_max(void) { return FILE_MAX; }
static const char *set_scheme(const void *p)
{
    return scheme_name(grove_slhdsa_params_is_fips205(p));
}
static const char *set_name(const void *p) { return grove_slhdsa_params_name(p); }
static size_t set_pk_bytes(const void *p) { return grove_slhdsa_pk_bytes(p); }
static size_t set_sk_bytes(const void *p) { return grove_slhdsa_sk_bytes(p); }
static size_t set_sig_bytes(const void *p) { return grove_slhdsa_sig_bytes(p); }
static int is_fips(const char *scheme) { return strcmp(scheme, scheme_name(1)) == 0; }
static const void *set_find(const char *name, const char *scheme)
{
    const grove_slhdsa_params *p = grove_slhdsa_params_get(name);
    return p != NULL && grove_slhdsa_params_is_fips205(p) == (is_fips(scheme) != 0) ? p : NULL;
}
static int set_of_option(cli_ctx *c, const char *scheme, const void **set)
{
    *set = lookup(c, is_fips(scheme));
    return *set ? 0 : CLI_EXIT_USAGE;
}
static const cli_sig_kind KIND = {file_max,     set_scheme,    set_name, set_pk_bytes,
                                  set_sk_bytes, set_sig_bytes, set_find, set_of_option};

static void key_id(int fips, const grove_slhdsa_params *p, const uint8_t *pk,
                   uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES])
{
    (void)fips; /* the set says its flavour */
    cli_sig_key_id(&KIND, p, pk, id);
}

/*
 * Read a grove file of this scheme and type (NULL: any of ours) whose set is known and whose
 * body has the set's size; --params, if given, must name the file's set.
 */
static int read_obj(cli_ctx *c, int fips, const char *path, const char *type, int secret,
                    cli_file *f, const grove_slhdsa_params **p)
{
    const void *set = NULL;
    int rc = cli_sig_read(c, &KIND, scheme_name(fips), path, type, secret, f, &set);
    *p = set;
    return rc;
}

/* Write body as a grove file of set p and this type; id (may be NULL) is the key id. */
static int write_obj(cli_ctx *c, int fips, const grove_slhdsa_params *p, const char *type,
                     const uint8_t *id, const uint8_t *body, size_t len, const char *path,
                     unsigned flags)
{
    (void)fips;
    return cli_sig_write(c, &KIND, p, type, id, body, len, path, flags);
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
    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES];
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
    key_id(fips, p, pk, id);
    rc = write_obj(c, fips, p, T_SK, id, sk, 4 * n, skpath, CLI_WRITE_SECRET);
    grove_wipe(sk, sizeof sk);
    if (rc == 0)
        rc = write_obj(c, fips, p, T_PK, id, pk, 2 * n, pkpath, 0);
    if (rc)
        return rc;
    char hex[17];
    cli_out_str(c, "params", grove_slhdsa_params_name(p));
    cli_out_key_id(c, id, hex);
    cli_out_hex(c, "public_key", pk, 2 * n);
    cli_say(c, "%s key pair written: public key %s, secret key %s (mode 0600), key id %s",
            grove_slhdsa_params_name(p), pkpath, skpath, hex);
    return 0;
}

/* A pre-hash by any name grove/hash.h knows ("sha256", "SHA2-256", "shake128", ...). */
static grove_slhdsa_prehash prehash_of(const char *name, grove_hash_alg *alg_out)
{
    static const struct {
        grove_hash_alg alg;
        grove_slhdsa_prehash ph;
    } map[] = {
        {GROVE_HASH_SHA224, GROVE_PREHASH_SHA2_224},
        {GROVE_HASH_SHA256, GROVE_PREHASH_SHA2_256},
        {GROVE_HASH_SHA384, GROVE_PREHASH_SHA2_384},
        {GROVE_HASH_SHA512, GROVE_PREHASH_SHA2_512},
        {GROVE_HASH_SHA3_256, GROVE_PREHASH_SHA3_256},
        {GROVE_HASH_SHA3_512, GROVE_PREHASH_SHA3_512},
        {GROVE_HASH_SHAKE128, GROVE_PREHASH_SHAKE128},
        {GROVE_HASH_SHAKE256, GROVE_PREHASH_SHAKE256},
    };
    grove_hash_alg alg;
    if (name == NULL || grove_hash_alg_from_name(name, &alg) != GROVE_OK)
        return (grove_slhdsa_prehash)0;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].alg == alg) {
            if (alg_out != NULL)
                *alg_out = alg;
            return map[i].ph;
        }
    return (grove_slhdsa_prehash)0;
}

/* The canonical (grove/hash.h) name of a pre-hash. */
static const char *prehash_name(grove_slhdsa_prehash ph)
{
    static const char *const names[] = {"sha224",   "sha256",   "sha384",   "sha512",
                                        "sha3-256", "sha3-512", "shake128", "shake256"};
    grove_hash_alg alg = GROVE_HASH_SHA256;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (prehash_of(names[i], &alg) == ph)
            return grove_hash_alg_name(alg);
    return "none";
}

static int parse_prehash(cli_ctx *c, grove_slhdsa_prehash *ph)
{
    const char *phname = cli_opt_str(c, "prehash");
    *ph = (grove_slhdsa_prehash)0;
    if (phname != NULL && (*ph = prehash_of(phname, NULL)) == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "unknown pre-hash '%s' (sha224, sha256, sha384, sha512, sha3-256, "
                        "sha3-512, shake128, shake256)",
                        phname);
    return 0;
}

static int common_inputs(cli_ctx *c, uint8_t **ctx, size_t *ctxlen, grove_slhdsa_prehash *ph)
{
    *ctx = NULL;
    *ctxlen = 0;
    int rc = parse_prehash(c, ph);
    if (rc == 0)
        rc = cli_hex_opt(c, "ctx", 4096, ctx, ctxlen);
    if (rc == 0 && *ctxlen > GROVE_SLHDSA_MAX_CTX_BYTES) {
        free(*ctx);
        *ctx = NULL;
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--ctx: a context has at most 255 bytes (got %zu)",
                        *ctxlen);
    }
    return rc;
}

static grove_status verify_sig(const grove_slhdsa_params *p, int fips, grove_slhdsa_prehash ph,
                               const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                               size_t msglen, const uint8_t *ctx, size_t ctxlen, const uint8_t *pk)
{
    if (!fips)
        return grove_sphincs_verify(p, sig, sig_len, msg, msglen, pk);
    if (ph)
        return grove_hashslhdsa_verify(p, sig, sig_len, msg, msglen, ctx, ctxlen, ph, pk);
    return grove_slhdsa_verify(p, sig, sig_len, msg, msglen, ctx, ctxlen, pk);
}

/* Sign (the self-check verifies) in the flavour of the command. */
static grove_status sign_msg(const grove_slhdsa_params *p, int fips, grove_slhdsa_prehash ph,
                             bool hedged, uint8_t *sig, const uint8_t *msg, size_t msglen,
                             const uint8_t *ctx, size_t ctxlen, const uint8_t *sk)
{
    if (!fips)
        return grove_sphincs_sign(p, sig, msg, msglen, sk);
    if (ph)
        return grove_hashslhdsa_sign(p, sig, msg, msglen, ctx, ctxlen, ph, sk, hedged);
    return grove_slhdsa_sign(p, sig, msg, msglen, ctx, ctxlen, sk, hedged);
}

/* The secret key file's key id must be the id of the public key inside it. */
static int check_sk_id(cli_ctx *c, int fips, const grove_slhdsa_params *p, const char *path,
                       const cli_file *f)
{
    uint8_t id[GROVE_ENVELOPE_KEY_ID_BYTES];
    key_id(fips, p, f->env.body + 2 * grove_slhdsa_n(p), id);
    if (f->env.has_key_id && memcmp(id, f->env.key_id, sizeof id) == 0) /* public data */
        return 0;
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_ENCODING,
                    "%s: the key id of this secret key file is not the id of the public key it "
                    "holds; nothing signed",
                    path);
}

/* Sign msgpath with the key in kf; the signature (siglen bytes) goes to *sig. */
static int sign_with(cli_ctx *c, int fips, const grove_slhdsa_params *p, const cli_file *kf,
                     const char *skpath, const char *msgpath, uint8_t **sig)
{
    uint8_t *ctx = NULL, *msg = NULL;
    size_t ctxlen = 0, msglen = 0, siglen = grove_slhdsa_sig_bytes(p);
    size_t n = grove_slhdsa_n(p);
    grove_slhdsa_prehash ph = (grove_slhdsa_prehash)0;
    const uint8_t *sk = kf->env.body;
    int rc = fips ? common_inputs(c, &ctx, &ctxlen, &ph) : 0;
    if (rc == 0)
        rc = cli_read_file(c, msgpath, CLI_MAX_INPUT, &msg, &msglen);
    grove_status st = GROVE_ERR_NOMEM;
    if (rc == 0 && (*sig = malloc(siglen)) != NULL) {
        bool hedged = cli_opt_flag(c, "hedged") != 0;
        st = sign_msg(p, fips, ph, hedged, *sig, msg, msglen, ctx, ctxlen, sk);
        /* Self-check: never write a signature that does not verify with the signer's key. */
        if (st == GROVE_OK &&
            verify_sig(p, fips, ph, *sig, siglen, msg, msglen, ctx, ctxlen, sk + 2 * n) != GROVE_OK)
            rc = cli_fail_self_check(c, GROVE_ERR_VERIFY);
    }
    free(ctx);
    free(msg);
    if (rc == 0 && st == GROVE_ERR_INVALID_ARG) /* the top root is not the key's PK.root */
        rc = cli_fail(c, CLI_EXIT_USAGE, st,
                      "%s: the secret key is inconsistent (SK.seed and PK.seed do not give its "
                      "PK.root): corrupted, or not a key of %s; nothing signed",
                      skpath, grove_slhdsa_params_name(p));
    else if (rc == 0 && st != GROVE_OK)
        rc = cli_fail_status(c, st, "signing failed");
    if (rc == 0 && ph)
        cli_out_str(c, "prehash", prehash_name(ph));
    return rc;
}

static int sign(cli_ctx *c, int fips)
{
    const char *sigpath = cli_require(c, "sig"), *msgpath = cli_require(c, "msg");
    const char *skpath = cli_require(c, "sk");
    if (!sigpath || !msgpath || !skpath)
        return CLI_EXIT_USAGE;
    const char *const inputs[] = {skpath, msgpath};
    int rc = cli_refuse_same_file(c, "--sig", sigpath, inputs, 2);
    if (rc)
        return rc;
    /* The key (envelope check, set, key id) is checked before the message is read. */
    cli_file kf;
    const grove_slhdsa_params *p;
    if ((rc = read_obj(c, fips, skpath, T_SK, 1, &kf, &p)) != 0)
        return rc;
    uint8_t *sig = NULL, id[GROVE_ENVELOPE_KEY_ID_BYTES];
    memcpy(id, kf.env.key_id, sizeof id);
    size_t siglen = grove_slhdsa_sig_bytes(p);
    rc = check_sk_id(c, fips, p, skpath, &kf);
    if (rc == 0)
        rc = sign_with(c, fips, p, &kf, skpath, msgpath, &sig);
    cli_file_free(&kf);
    if (rc == 0)
        rc = write_obj(c, fips, p, T_SIG, id, sig, siglen, sigpath, 0);
    free(sig);
    if (rc)
        return rc;
    char hex[17];
    cli_out_str(c, "params", grove_slhdsa_params_name(p));
    cli_out_key_id(c, id, hex);
    cli_out_u64(c, "signature_bytes", siglen);
    if (strcmp(sigpath, "-") != 0)
        cli_say(c, "signature (%zu bytes, key id %s) written to %s", siglen, hex, sigpath);
    return 0;
}

/* What verify_fn needs besides the files and the message. */
typedef struct verify_args {
    int fips;
    grove_slhdsa_prehash ph;
    const uint8_t *ctx;
    size_t ctxlen;
} verify_args;

static grove_status verify_fn(void *arg, const void *set, const uint8_t *sig, size_t sig_len,
                              const uint8_t *msg, size_t msg_len, const uint8_t *pk)
{
    const verify_args *a = arg;
    return verify_sig(set, a->fips, a->ph, sig, sig_len, msg, msg_len, a->ctx, a->ctxlen, pk);
}

static int verify(cli_ctx *c, int fips)
{
    uint8_t *ctx = NULL;
    verify_args a = {fips, (grove_slhdsa_prehash)0, NULL, 0};
    int rc = fips ? common_inputs(c, &ctx, &a.ctxlen, &a.ph) : 0;
    if (rc)
        return rc;
    a.ctx = ctx;
    if (a.ph)
        cli_out_str(c, "prehash", prehash_name(a.ph));
    rc = cli_sig_verify(c, &KIND, scheme_name(fips), verify_fn, &a);
    free(ctx);
    return rc;
}

static int info(cli_ctx *c, int fips)
{
    const char *path = cli_require(c, "file");
    if (path == NULL)
        return CLI_EXIT_USAGE;
    cli_file f;
    const grove_slhdsa_params *p;
    int rc = read_obj(c, fips, path, NULL, 1, &f, &p);
    if (rc)
        return rc;
    cli_describe_file(c, path, &f);
    cli_out_u64(c, "n", grove_slhdsa_n(p));
    cli_out_u64(c, "pk_bytes", grove_slhdsa_pk_bytes(p));
    cli_out_u64(c, "sk_bytes", grove_slhdsa_sk_bytes(p));
    cli_out_u64(c, "sig_bytes", grove_slhdsa_sig_bytes(p));
    cli_say(c, "  %s: n = %zu, public key %zu bytes, secret key %zu bytes, signature %zu bytes",
            grove_slhdsa_params_name(p), grove_slhdsa_n(p), grove_slhdsa_pk_bytes(p),
            grove_slhdsa_sk_bytes(p), grove_slhdsa_sig_bytes(p));
    if (strcmp(f.env.type, T_PK) == 0) {
        cli_out_hex(c, "public_key", f.env.body, f.env.body_len);
    }
    cli_file_free(&f);
    return 0;
}

static int params_cmd(cli_ctx *c, int fips)
{
    const grove_slhdsa_params *dflt = lookup_name(DEFAULT_SET, fips);
    cli_out_str(c, "default", grove_slhdsa_params_name(dflt));
    cli_out_begin_array(c, "parameter_sets");
    for (size_t i = 0; i < grove_slhdsa_params_count(); i++) {
        const grove_slhdsa_params *p = grove_slhdsa_params_at(i);
        if (grove_slhdsa_params_is_fips205(p) != (fips != 0))
            continue;
        cli_say(c, "%-26s n=%-2zu pk=%-3zu sk=%-3zu sig=%-5zu%s", grove_slhdsa_params_name(p),
                grove_slhdsa_n(p), grove_slhdsa_pk_bytes(p), grove_slhdsa_sk_bytes(p),
                grove_slhdsa_sig_bytes(p), p == dflt ? "  (default)" : "");
        cli_out_begin_object(c, NULL);
        cli_out_str(c, "name", grove_slhdsa_params_name(p));
        cli_out_u64(c, "n", grove_slhdsa_n(p));
        cli_out_u64(c, "pk_bytes", grove_slhdsa_pk_bytes(p));
        cli_out_u64(c, "sk_bytes", grove_slhdsa_sk_bytes(p));
        cli_out_u64(c, "sig_bytes", grove_slhdsa_sig_bytes(p));
        cli_out_bool(c, "default", p == dflt);
        cli_out_end(c);
    }
    cli_out_end(c);
    return 0;
}

/* ---- export / import ---------------------------------------------------------------------- */

/* Exactly one of --pk, --sk, --sig: its path and the grove type it stands for. */
enum { FMT_RAW, FMT_DER, FMT_PEM };
static int pick_format(cli_ctx *c, int *fmt)
{
    const char *f = cli_require(c, "format");
    if (f == NULL)
        return CLI_EXIT_USAGE;
    if (strcmp(f, "raw") == 0)
        *fmt = FMT_RAW;
    else if (strcmp(f, "der") == 0)
        *fmt = FMT_DER;
    else if (strcmp(f, "pem") == 0)
        *fmt = FMT_PEM;
    else
        return cli_fail(c, CLI_EXIT_USAGE, 0, "unknown --format '%s' (raw, der or pem)", f);
    return 0;
}

/* der/pem: only SLH-DSA keys have a standard encoding (RFC 9909). */
static int standard_exists(cli_ctx *c, int fips, const char *type)
{
    if (!fips)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "no standard DER encoding exists for SPHINCS+ round 3.1 %ss (use "
                        "--format raw)",
                        cli_sig_type_words(type));
    if (strcmp(type, T_SIG) == 0)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                        "no standard DER encoding exists for SLH-DSA signatures (RFC 9909 carries "
                        "them as raw bytes: use --format raw)");
    return 0;
}

/* Encode body (a pk or sk of p) as DER, or PEM when pem; out has room for PEM_MAX bytes. */
static int encode_std(cli_ctx *c, const grove_slhdsa_params *p, grove_slhdsa_prehash ph,
                      int secret, int pem, const uint8_t *body, uint8_t *out, size_t *outlen)
{
    uint8_t der[GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES];
    size_t derlen = 0;
    grove_status st = secret ? grove_pkix_slhdsa_sk_to_der(p, ph, der, sizeof der, &derlen, body)
                             : grove_pkix_slhdsa_pk_to_der(p, ph, der, sizeof der, &derlen, body);
    if (st == GROVE_OK && pem)
        st = grove_pkix_pem_encode((char *)out, PEM_MAX, outlen,
                                   secret ? GROVE_PKIX_PEM_PRIVATE_KEY : GROVE_PKIX_PEM_PUBLIC_KEY,
                                   der, derlen);
    else if (st == GROVE_OK) {
        memcpy(out, der, derlen);
        *outlen = derlen;
    }
    grove_wipe(der, sizeof der);
    if (st == GROVE_ERR_UNSUPPORTED)
        return cli_fail(c, CLI_EXIT_USAGE, st,
                        "--prehash %s: RFC 9909 defines HashSLH-DSA %s with another pre-hash only",
                        prehash_name(ph), grove_slhdsa_params_name(p));
    return st == GROVE_OK ? 0 : cli_fail_status(c, st, "encoding failed");
}

static int export_cmd(cli_ctx *c, int fips)
{
    const char *path = NULL, *type = NULL, *out = cli_require(c, "out");
    int fmt = FMT_RAW, rc;
    if (out == NULL)
        return CLI_EXIT_USAGE;
    if ((rc = cli_sig_pick_object(c, &path, &type)) != 0 || (rc = pick_format(c, &fmt)) != 0)
        return rc;
    int secret = strcmp(type, T_SK) == 0;
    grove_slhdsa_prehash ph = (grove_slhdsa_prehash)0;
    if (fmt != FMT_RAW && (rc = standard_exists(c, fips, type)) != 0)
        return rc;
    if (fips && (rc = parse_prehash(c, &ph)) != 0)
        return rc;
    if (ph && fmt == FMT_RAW)
        return cli_fail(c, CLI_EXIT_USAGE, 0, "--prehash selects the OID of --format der/pem");
    if ((rc = cli_sig_check_out(c, out, path, secret)) != 0)
        return rc;
    if (fmt == FMT_RAW)
        return cli_sig_export_raw(c, &KIND, scheme_name(fips), path, type, out);
    cli_file f;
    const grove_slhdsa_params *p;
    if ((rc = read_obj(c, fips, path, type, secret, &f, &p)) != 0)
        return rc;
    uint8_t buf[PEM_MAX];
    size_t len = 0;
    if ((rc = encode_std(c, p, ph, secret, fmt == FMT_PEM, f.env.body, buf, &len)) == 0)
        rc = cli_write_file_ex(c, out, buf, len, cli_sig_out_flags(c, secret));
    grove_wipe(buf, sizeof buf);
    cli_file_free(&f);
    if (rc)
        return rc;
    cli_out_str(c, "params", grove_slhdsa_params_name(p));
    cli_out_str(c, "type", type);
    cli_out_str(c, "format", cli_opt_str(c, "format"));
    if (ph)
        cli_out_str(c, "prehash", prehash_name(ph));
    cli_out_u64(c, "bytes", len);
    cli_say(c, "%s %s exported to %s (%s, %zu bytes)", grove_slhdsa_params_name(p), type,
            strcmp(out, "-") ? out : "standard output", cli_opt_str(c, "format"), len);
    return 0;
}

/* Decode DER or PEM input (a pk or sk of any SLH-DSA set) into body: *p and *ph from the OID. */
static int decode_std(cli_ctx *c, const char *path, int secret, int pem, const uint8_t *in,
                      size_t inlen, const grove_slhdsa_params **p, grove_slhdsa_prehash *ph,
                      uint8_t *body, size_t *bodylen)
{
    uint8_t der[PEM_MAX];
    size_t derlen = inlen;
    grove_status st = GROVE_OK;
    if (pem)
        st = grove_pkix_pem_decode(der, sizeof der, &derlen,
                                   secret ? GROVE_PKIX_PEM_PRIVATE_KEY : GROVE_PKIX_PEM_PUBLIC_KEY,
                                   (const char *)in, inlen);
    else if (inlen <= sizeof der)
        memcpy(der, in, inlen);
    else
        st = GROVE_ERR_ENCODING;
    if (st == GROVE_OK)
        st = secret ? grove_pkix_slhdsa_sk_from_der(p, ph, body, GROVE_SLHDSA_MAX_SK_BYTES, bodylen,
                                                    der, derlen)
                    : grove_pkix_slhdsa_pk_from_der(p, ph, body, GROVE_SLHDSA_MAX_PK_BYTES, bodylen,
                                                    der, derlen);
    grove_wipe(der, sizeof der);
    if (st != GROVE_OK)
        return cli_fail(c, CLI_EXIT_USAGE, st, "%s is not an SLH-DSA %s in %s (RFC 9909)", path,
                        secret ? "private key" : "public key",
                        pem ? "PEM" : "DER");
    return 0;
}

/* Decode the input of import into body: raw needs --params; der/pem name the set. */
static int import_body(cli_ctx *c, int fips, const char *path, const char *type, int fmt,
                       const grove_slhdsa_params **p, grove_slhdsa_prehash *ph, uint8_t *body,
                       size_t *bodylen)
{
    int secret = strcmp(type, T_SK) == 0, rc;
    uint8_t *in = NULL;
    size_t inlen = 0;
    if (fmt == FMT_RAW) {
        if (cli_opt_str(c, "params") == NULL)
            return cli_fail(c, CLI_EXIT_USAGE, 0,
                            "import --format raw needs --params SET (raw files do not say)");
        if ((*p = lookup(c, fips)) == NULL)
            return CLI_EXIT_USAGE;
        *bodylen = cli_sig_body_bytes(&KIND, *p, type);
        return cli_sig_read_raw(c, &KIND, *p, path, type, body);
    }
    if ((rc = cli_read_file(c, path, PEM_MAX, &in, &inlen)) != 0)
        return rc;
    rc = decode_std(c, path, secret, fmt == FMT_PEM, in, inlen, p, ph, body, bodylen);
    cli_free_secret(in, inlen);
    if (rc == 0 && cli_opt_str(c, "params") != NULL) {
        const grove_slhdsa_params *want = lookup(c, fips);
        if (want == NULL)
            rc = CLI_EXIT_USAGE;
        else if (want != *p)
            rc = cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                          "%s holds a key of %s, but --params says %s", path,
                          grove_slhdsa_params_name(*p), grove_slhdsa_params_name(want));
    }
    return rc;
}

static int import_cmd(cli_ctx *c, int fips)
{
    const char *path = NULL, *type = NULL, *out = cli_require(c, "out");
    int fmt = FMT_RAW, rc;
    if (out == NULL)
        return CLI_EXIT_USAGE;
    if ((rc = cli_sig_pick_object(c, &path, &type)) != 0 || (rc = pick_format(c, &fmt)) != 0)
        return rc;
    int secret = strcmp(type, T_SK) == 0;
    if (fmt != FMT_RAW && (rc = standard_exists(c, fips, type)) != 0)
        return rc;
    if ((rc = cli_sig_check_out(c, out, path, secret)) != 0)
        return rc;
    const grove_slhdsa_params *p = NULL;
    grove_slhdsa_prehash ph = (grove_slhdsa_prehash)0;
    uint8_t body[GROVE_SLHDSA_MAX_SIG_BYTES], id[GROVE_ENVELOPE_KEY_ID_BYTES];
    size_t len = 0;
    rc = import_body(c, fips, path, type, fmt, &p, &ph, body, &len);
    /* The key id: of the public key, or of the public key inside a secret key (its second
     * half); a raw signature says nothing about its key and carries no key id. */
    int has_id = rc == 0 && strcmp(type, T_SIG) != 0;
    if (has_id)
        key_id(fips, p, secret ? body + 2 * grove_slhdsa_n(p) : body, id);
    if (rc == 0)
        rc = write_obj(c, fips, p, type, has_id ? id : NULL, body, len, out, cli_sig_out_flags(c, secret));
    grove_wipe(body, sizeof body);
    if (rc)
        return rc;
    char hex[17] = "none";
    cli_out_str(c, "params", grove_slhdsa_params_name(p));
    cli_out_str(c, "type", type);
    if (has_id)
        cli_out_key_id(c, id, hex);
    if (ph)
        cli_out_str(c, "prehash", prehash_name(ph));
    cli_say(c, "%s %s imported to %s%s%s", grove_slhdsa_params_name(p), type,
            strcmp(out, "-") ? out : "standard output", has_id ? ", key id " : "",
            has_id ? hex : "");
    if (ph)
        cli_say(c, "the key's OID is HashSLH-DSA with %s: sign and verify with --prehash %s "
                   "(grove files do not record it)",
                prehash_name(ph), prehash_name(ph));
    return 0;
}

static int slh_keygen(cli_ctx *c) { return keygen(c, 1); }
static int slh_sign(cli_ctx *c) { return sign(c, 1); }
static int slh_verify(cli_ctx *c) { return verify(c, 1); }
static int slh_info(cli_ctx *c) { return info(c, 1); }
static int slh_params(cli_ctx *c) { return params_cmd(c, 1); }
static int slh_export(cli_ctx *c) { return export_cmd(c, 1); }
static int slh_import(cli_ctx *c) { return import_cmd(c, 1); }
static int spx_keygen(cli_ctx *c) { return keygen(c, 0); }
static int spx_sign(cli_ctx *c) { return sign(c, 0); }
static int spx_verify(cli_ctx *c) { return verify(c, 0); }
static int spx_info(cli_ctx *c) { return info(c, 0); }
static int spx_params(cli_ctx *c) { return params_cmd(c, 0); }
static int spx_export(cli_ctx *c) { return export_cmd(c, 0); }
static int spx_import(cli_ctx *c) { return import_cmd(c, 0); }

#define CHECK_PARAMS_OPT                                                                          \
    {"params", "SET", "check that the files are of this set (the set comes from the files)", 0}
#define BINARY_OPT {"binary", NULL, "write the binary grove file instead of armored text", 0}
#define PREHASH_HELP                                                                              \
    "sha256, sha512, shake128, shake256, ... (grove hash names; aliases such as SHA2-256 "        \
    "accepted)"

static const cli_opt slh_keygen_opts[] = {
    {"params", "SET", "parameter set (default SLH-DSA-SHAKE-128f; short names such as "
                      "sha2-128s accepted; see 'params')", 0},
    {"pk", "FILE", "public key output ('-' for stdout)", 0},
    {"sk", "FILE", "secret key output (mode 0600; not replaced unless --force)", 0},
    {"force", NULL, "replace an existing --sk file", 0},
    {"seed", "HEX", "3n bytes SK.seed || SK.prf || PK.seed (deterministic keys, for tests)", 0},
    BINARY_OPT,
    {NULL, NULL, NULL, 0},
};
static const cli_opt spx_keygen_opts[] = {
    {"params", "SET", "parameter set (default sphincs-shake-128f-simple; short names such as "
                      "sha2-128s accepted; see 'params')", 0},
    {"pk", "FILE", "public key output ('-' for stdout)", 0},
    {"sk", "FILE", "secret key output (mode 0600; not replaced unless --force)", 0},
    {"force", NULL, "replace an existing --sk file", 0},
    {"seed", "HEX", "3n bytes SK.seed || SK.prf || PK.seed (deterministic keys, for tests)", 0},
    BINARY_OPT,
    {NULL, NULL, NULL, 0},
};
static const cli_opt slh_sign_opts[] = {
    {"sk", "FILE", "secret key (a grove SLH-DSA SECRET KEY file; raw keys: see import)", 0},
    {"msg", "FILE", "message ('-' for stdin)", 0},
    {"sig", "FILE", "signature output ('-' for stdout)", 0},
    CHECK_PARAMS_OPT,
    {"ctx", "HEX", "context string, at most 255 bytes (default empty); verify needs it too", 0},
    {"hedged", NULL, "hedged signing: fresh randomness (default deterministic)", 0},
    {"prehash", "NAME", "HashSLH-DSA with this pre-hash: " PREHASH_HELP "; verify needs it too", 0},
    BINARY_OPT,
    {NULL, NULL, NULL, 0},
};
static const cli_opt slh_verify_opts[] = {
    {"pk", "FILE", "public key (a grove SLH-DSA PUBLIC KEY file)", 0},
    {"msg", "FILE", "message ('-' for stdin)", 0},
    {"sig", "FILE", "signature", 0},
    CHECK_PARAMS_OPT,
    {"ctx", "HEX", "context string used when signing", 0},
    {"prehash", "NAME", "HashSLH-DSA pre-hash used when signing (not recorded in the signature)",
     0},
    {NULL, NULL, NULL, 0},
};
static const cli_opt spx_sign_opts[] = {
    {"sk", "FILE", "secret key (a grove SPHINCS+ SECRET KEY file; raw keys: see import)", 0},
    {"msg", "FILE", "message ('-' for stdin)", 0},
    {"sig", "FILE", "detached signature output ('-' for stdout)", 0},
    CHECK_PARAMS_OPT,
    BINARY_OPT,
    {NULL, NULL, NULL, 0},
};
static const cli_opt spx_verify_opts[] = {
    {"pk", "FILE", "public key (a grove SPHINCS+ PUBLIC KEY file)", 0},
    {"msg", "FILE", "message ('-' for stdin)", 0},
    {"sig", "FILE", "detached signature", 0},
    CHECK_PARAMS_OPT,
    {NULL, NULL, NULL, 0},
};
static const cli_opt info_opts[] = {
    {"file", "FILE", "the key or signature file ('-' for stdin; also a bare argument)", 1},
    {NULL, NULL, NULL, 0},
};
static const cli_opt slh_export_opts[] = {
    {"pk", "FILE", "export this public key", 0},
    {"sk", "FILE", "export this secret key", 0},
    {"sig", "FILE", "export this signature (raw only)", 0},
    {"format", "FMT", "raw (NIST API layout), der or pem (RFC 9909 SubjectPublicKeyInfo / "
                      "PKCS#8; keys only)", 0},
    {"out", "FILE", "output ('-' for stdout; a secret key: mode 0600, not replaced unless "
                    "--force)", 0},
    {"prehash", "NAME", "der/pem: the HashSLH-DSA OID with this pre-hash (RFC 9909 assigns one "
                        "per set)", 0},
    {"force", NULL, "replace an existing secret --out", 0},
    {NULL, NULL, NULL, 0},
};
static const cli_opt spx_export_opts[] = {
    {"pk", "FILE", "export this public key", 0},
    {"sk", "FILE", "export this secret key", 0},
    {"sig", "FILE", "export this signature", 0},
    {"format", "FMT", "raw (NIST API layout; round 3.1 has no standard DER/PEM encoding)", 0},
    {"out", "FILE", "output ('-' for stdout; a secret key: mode 0600, not replaced unless "
                    "--force)", 0},
    {"force", NULL, "replace an existing secret --out", 0},
    {NULL, NULL, NULL, 0},
};
static const cli_opt slh_import_opts[] = {
    {"format", "FMT", "raw (NIST API layout; needs --params), der or pem (RFC 9909 keys: the "
                      "OID names the set)", 0},
    {"params", "SET", "raw: the set of the input (required); der/pem: a check", 0},
    {"pk", "FILE", "import this public key ('-' for stdin)", 0},
    {"sk", "FILE", "import this secret key (its key id comes from the public key inside it)", 0},
    {"sig", "FILE", "import this raw signature (it carries no key id)", 0},
    {"out", "FILE", "the grove file to write ('-' for stdout; a secret key: mode 0600, not "
                    "replaced unless --force)", 0},
    BINARY_OPT,
    {"force", NULL, "replace an existing secret --out", 0},
    {NULL, NULL, NULL, 0},
};
static const cli_opt spx_import_opts[] = {
    {"format", "FMT", "raw (NIST API layout; needs --params)", 0},
    {"params", "SET", "the set of the raw input (required)", 0},
    {"pk", "FILE", "import this public key ('-' for stdin)", 0},
    {"sk", "FILE", "import this secret key (its key id comes from the public key inside it)", 0},
    {"sig", "FILE", "import this raw signature (it carries no key id)", 0},
    {"out", "FILE", "the grove file to write ('-' for stdout; a secret key: mode 0600, not "
                    "replaced unless --force)", 0},
    BINARY_OPT,
    {"force", NULL, "replace an existing secret --out", 0},
    {NULL, NULL, NULL, 0},
};
static const cli_opt no_opts[] = {{NULL, NULL, NULL, 0}};

static const cli_command slh_commands[] = {
    {"keygen", slh_keygen, "generate a key pair (default set SLH-DSA-SHAKE-128f)",
     slh_keygen_opts},
    {"sign", slh_sign, "sign a file (pure or pre-hash SLH-DSA)", slh_sign_opts},
    {"verify", slh_verify, "verify a signature (exit 0 valid, 1 invalid)", slh_verify_opts},
    {"info", slh_info, "describe a key or signature file", info_opts},
    {"params", slh_params, "list the parameter sets and sizes", no_opts},
    {"export", slh_export, "write a key or signature as raw bytes, DER or PEM", slh_export_opts},
    {"import", slh_import, "make a grove file from raw bytes, DER or PEM", slh_import_opts},
    {NULL, NULL, NULL, NULL},
};
static const cli_command spx_commands[] = {
    {"keygen", spx_keygen, "generate a key pair (default set sphincs-shake-128f-simple)",
     spx_keygen_opts},
    {"sign", spx_sign, "sign a file (detached, randomized as round 3.1)", spx_sign_opts},
    {"verify", spx_verify, "verify a detached signature (exit 0 valid, 1 invalid)",
     spx_verify_opts},
    {"info", spx_info, "describe a key or signature file", info_opts},
    {"params", spx_params, "list the parameter sets and sizes", no_opts},
    {"export", spx_export, "write a key or signature as raw bytes", spx_export_opts},
    {"import", spx_import, "make a grove file from raw bytes", spx_import_opts},
    {NULL, NULL, NULL, NULL},
};

const cli_scheme cli_scheme_slhdsa = {"slhdsa", "SLH-DSA, FIPS 205 (stateless hash-based)",
                                      slh_commands};
const cli_scheme cli_scheme_sphincs = {"sphincs", "SPHINCS+ round 3.1 \"simple\" (as in PQClean)",
                                       spx_commands};
