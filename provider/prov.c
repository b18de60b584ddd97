/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * provider/prov.c - the grove OpenSSL 3 provider: entry point, algorithm tables, OIDs,
 * errors and the key object.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "grove/common.h"
#include "prov.h"

/* RFC 9909 (id-slh-dsa-*: 2.16.840.1.101.3.4.3.20-31) and RFC 9802 (id-alg-xmss*-hashsig). */
#define SLH(ln, sn, arc)                                                                       \
    {ln ":" sn ":2.16.840.1.101.3.4.3." #arc, ln, sn, "2.16.840.1.101.3.4.3." #arc, GP_SLHDSA, ln, \
     NULL}
/* HashSLH-DSA (RFC 9909 id-hash-slh-dsa-*-with-*: .35-.46), named after RFC 9909's identifiers. */
#define HSLH(set, lnset, ph, lnph, groveph, arc)                                               \
    {"HASH-" set "-WITH-" lnph ":id-hash-" lnset "-with-" ph ":2.16.840.1.101.3.4.3." #arc,   \
     "HASH-" set "-WITH-" lnph, "id-hash-" lnset "-with-" ph, "2.16.840.1.101.3.4.3." #arc,   \
     GP_SLHDSA, set, groveph}
#define CROSS(set) {GP_CROSS_PREFIX set, GP_CROSS_PREFIX set, NULL, NULL, GP_CROSS, NULL, NULL}
const gp_alg gp_algs[GP_NUM_ALGS] = {
    SLH("SLH-DSA-SHA2-128s", "id-slh-dsa-sha2-128s", 20),
    SLH("SLH-DSA-SHA2-128f", "id-slh-dsa-sha2-128f", 21),
    SLH("SLH-DSA-SHA2-192s", "id-slh-dsa-sha2-192s", 22),
    SLH("SLH-DSA-SHA2-192f", "id-slh-dsa-sha2-192f", 23),
    SLH("SLH-DSA-SHA2-256s", "id-slh-dsa-sha2-256s", 24),
    SLH("SLH-DSA-SHA2-256f", "id-slh-dsa-sha2-256f", 25),
    SLH("SLH-DSA-SHAKE-128s", "id-slh-dsa-shake-128s", 26),
    SLH("SLH-DSA-SHAKE-128f", "id-slh-dsa-shake-128f", 27),
    SLH("SLH-DSA-SHAKE-192s", "id-slh-dsa-shake-192s", 28),
    SLH("SLH-DSA-SHAKE-192f", "id-slh-dsa-shake-192f", 29),
    SLH("SLH-DSA-SHAKE-256s", "id-slh-dsa-shake-256s", 30),
    SLH("SLH-DSA-SHAKE-256f", "id-slh-dsa-shake-256f", 31),
    {"XMSS:id-alg-xmss-hashsig:1.3.6.1.5.5.7.6.34", "XMSS", "id-alg-xmss-hashsig",
     "1.3.6.1.5.5.7.6.34", GP_XMSS, NULL, NULL},
    {"XMSSMT:id-alg-xmssmt-hashsig:1.3.6.1.5.5.7.6.35", "XMSSMT", "id-alg-xmssmt-hashsig",
     "1.3.6.1.5.5.7.6.35", GP_XMSSMT, NULL, NULL},
    HSLH("SLH-DSA-SHA2-128s", "slh-dsa-sha2-128s", "sha256", "SHA256", "SHA2-256", 35),
    HSLH("SLH-DSA-SHA2-128f", "slh-dsa-sha2-128f", "sha256", "SHA256", "SHA2-256", 36),
    HSLH("SLH-DSA-SHA2-192s", "slh-dsa-sha2-192s", "sha512", "SHA512", "SHA2-512", 37),
    HSLH("SLH-DSA-SHA2-192f", "slh-dsa-sha2-192f", "sha512", "SHA512", "SHA2-512", 38),
    HSLH("SLH-DSA-SHA2-256s", "slh-dsa-sha2-256s", "sha512", "SHA512", "SHA2-512", 39),
    HSLH("SLH-DSA-SHA2-256f", "slh-dsa-sha2-256f", "sha512", "SHA512", "SHA2-512", 40),
    HSLH("SLH-DSA-SHAKE-128s", "slh-dsa-shake-128s", "shake128", "SHAKE128", "SHAKE128", 41),
    HSLH("SLH-DSA-SHAKE-128f", "slh-dsa-shake-128f", "shake128", "SHAKE128", "SHAKE128", 42),
    HSLH("SLH-DSA-SHAKE-192s", "slh-dsa-shake-192s", "shake256", "SHAKE256", "SHAKE256", 43),
    HSLH("SLH-DSA-SHAKE-192f", "slh-dsa-shake-192f", "shake256", "SHAKE256", "SHAKE256", 44),
    HSLH("SLH-DSA-SHAKE-256s", "slh-dsa-shake-256s", "shake256", "SHAKE256", "SHAKE256", 45),
    HSLH("SLH-DSA-SHAKE-256f", "slh-dsa-shake-256f", "shake256", "SHAKE256", "SHAKE256", 46),
    /* CROSS has no OIDs: experimental names only, no X.509/PKCS#8 encodings. */
    CROSS("CROSS-RSDP-1-fast"),
    CROSS("CROSS-RSDP-1-balanced"),
    CROSS("CROSS-RSDP-1-small"),
    CROSS("CROSS-RSDP-3-fast"),
    CROSS("CROSS-RSDP-3-balanced"),
    CROSS("CROSS-RSDP-3-small"),
    CROSS("CROSS-RSDP-5-fast"),
    CROSS("CROSS-RSDP-5-balanced"),
    CROSS("CROSS-RSDP-5-small"),
    CROSS("CROSS-RSDPG-1-fast"),
    CROSS("CROSS-RSDPG-1-balanced"),
    CROSS("CROSS-RSDPG-1-small"),
    CROSS("CROSS-RSDPG-3-fast"),
    CROSS("CROSS-RSDPG-3-balanced"),
    CROSS("CROSS-RSDPG-3-small"),
    CROSS("CROSS-RSDPG-5-fast"),
    CROSS("CROSS-RSDPG-5-balanced"),
    CROSS("CROSS-RSDPG-5-small"),
};

size_t gp_alg_id_der(const gp_alg *alg, uint8_t *out, size_t out_cap) {
    static const uint8_t slh[] = {0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48,
                                  0x01, 0x65, 0x03, 0x04, 0x03, 0x00};
    static const uint8_t xmss[] = {0x30, 0x0a, 0x06, 0x08, 0x2b, 0x06,
                                   0x01, 0x05, 0x05, 0x07, 0x06, 0x00};
    size_t idx = (size_t)(alg - gp_algs);
    if (alg->family == GP_CROSS)
        return 0; /* no OID */
    if (alg->family == GP_SLHDSA) {
        if (out_cap < sizeof slh)
            return 0;
        memcpy(out, slh, sizeof slh);
        out[sizeof slh - 1] =
            (uint8_t)(alg->ph != NULL ? 35 + idx - GP_FIRST_HASHSLHDSA : 20 + idx);
        return sizeof slh;
    }
    if (out_cap < sizeof xmss)
        return 0;
    memcpy(out, xmss, sizeof xmss);
    out[sizeof xmss - 1] = alg->family == GP_XMSS ? 34 : 35;
    return sizeof xmss;
}

/* ---- errors ------------------------------------------------------------------------------ */

static const OSSL_ITEM gp_reasons[] = {
    {GP_R_BAD_KEY, "bad key"},
    {GP_R_UNSUPPORTED, "unsupported"},
    {GP_R_BAD_ARG, "bad argument"},
    {GP_R_LIBRARY, "library error"},
    {GP_R_NOMEM, "out of memory"},
    {0, NULL},
};

void gp_raise_at(const gp_provctx *pc, const char *file, int line, const char *func, int reason,
                 const char *fmt, ...) {
    if (pc == NULL || pc->new_error == NULL || pc->vset_error == NULL)
        return;
    pc->new_error(pc->handle);
    if (pc->set_error_debug != NULL)
        pc->set_error_debug(pc->handle, file, line, func);
    va_list ap;
    va_start(ap, fmt);
    pc->vset_error(pc->handle, (uint32_t)reason, fmt, ap);
    va_end(ap);
}

/* ---- keys -------------------------------------------------------------------------------- */

gp_key *gp_key_new(const gp_provctx *pc, const gp_alg *alg) {
    gp_key *k = calloc(1, sizeof *k);
    if (k == NULL) {
        gp_raise(pc, GP_R_NOMEM, "allocating a key");
        return NULL;
    }
    k->pc = pc;
    k->alg = alg;
    int known = 1;
    if (alg->family == GP_SLHDSA) {
        k->slh = grove_slhdsa_params_get(alg->set);
        k->ph = alg->ph != NULL ? grove_slhdsa_prehash_get(alg->ph) : 0;
        known = k->slh != NULL && (alg->ph == NULL || k->ph != 0);
    } else if (alg->family == GP_CROSS) {
        k->cross = grove_cross_params_get(alg->ln + strlen(GP_CROSS_PREFIX));
        known = k->cross != NULL && grove_cross_pk_bytes(k->cross) <= GP_MAX_PK &&
                grove_cross_sk_bytes(k->cross) <= GP_MAX_SK;
    }
    if (!known) {
        gp_raise(pc, GP_R_LIBRARY, "libgrove does not know %s", alg->ln);
        free(k);
        return NULL;
    }
    return k;
}

void gp_key_free(gp_key *k) {
    if (k == NULL)
        return;
    free(k->keyfile);
    if (k->sk != NULL) {
        grove_wipe(k->sk, k->sk_len);
        free(k->sk);
    }
    free(k);
}

int gp_key_set_pk(gp_key *k, const uint8_t *pk, size_t pk_len) {
    if (k->alg->family == GP_SLHDSA) {
        if (pk_len != grove_slhdsa_pk_bytes(k->slh)) {
            gp_raise(k->pc, GP_R_BAD_KEY, "%s public key must be %zu bytes, not %zu", k->alg->ln,
                     grove_slhdsa_pk_bytes(k->slh), pk_len);
            return 0;
        }
        if (k->sk != NULL && CRYPTO_memcmp(k->sk + k->sk_len - pk_len, pk, pk_len) != 0) {
            gp_raise(k->pc, GP_R_BAD_KEY, "%s public key does not match the secret key",
                     k->alg->ln);
            return 0;
        }
    } else if (k->alg->family == GP_CROSS) {
        if (pk_len != grove_cross_pk_bytes(k->cross)) {
            gp_raise(k->pc, GP_R_BAD_KEY, "%s public key must be %zu bytes, not %zu", k->alg->ln,
                     grove_cross_pk_bytes(k->cross), pk_len);
            return 0;
        }
        if (k->sk != NULL && memcmp(k->pk, pk, pk_len) != 0) {
            gp_raise(k->pc, GP_R_BAD_KEY, "%s public key does not match the secret key",
                     k->alg->ln);
            return 0;
        }
    } else {
        const grove_xmss_params *xp = NULL;
        grove_xmss_family fam = gp_xmss_family(k->alg);
        grove_status st = pk_len > GP_MAX_PK ? GROVE_ERR_ENCODING
                                             : grove_xmss_pk_params(fam, &xp, pk, pk_len);
        if (st != GROVE_OK) {
            gp_raise(k->pc, GP_R_BAD_KEY, "%s public key (%zu bytes) refused: %s", k->alg->ln,
                     pk_len, grove_strerror(st));
            return 0;
        }
    }
    memcpy(k->pk, pk, pk_len);
    k->pk_len = pk_len;
    return 1;
}

static int gp_key_keep_sk(gp_key *k, const uint8_t *sk, size_t sk_len) {
    uint8_t *copy = malloc(sk_len);
    if (copy == NULL) {
        gp_raise(k->pc, GP_R_NOMEM, "allocating a secret key");
        return 0;
    }
    memcpy(copy, sk, sk_len);
    if (k->sk != NULL) {
        grove_wipe(k->sk, k->sk_len);
        free(k->sk);
    }
    k->sk = copy;
    k->sk_len = sk_len;
    return 1;
}

/* CROSS: the secret key is a seed; the public key is what it gives. */
static int gp_key_set_cross_sk(gp_key *k, const uint8_t *sk, size_t sk_len) {
    size_t want = grove_cross_sk_bytes(k->cross), pkb = grove_cross_pk_bytes(k->cross);
    if (sk_len != want) {
        gp_raise(k->pc, GP_R_BAD_KEY, "%s secret key must be %zu bytes, not %zu", k->alg->ln,
                 want, sk_len);
        return 0;
    }
    uint8_t pk2[GP_MAX_PK], sk2[GP_MAX_SK];
    grove_status st = grove_cross_keygen_from_seed(k->cross, pk2, sk2, sk);
    grove_wipe(sk2, sizeof sk2);
    if (st != GROVE_OK) {
        gp_raise(k->pc, GP_R_LIBRARY, "%s: %s", k->alg->ln, grove_strerror(st));
        return 0;
    }
    if (k->pk_len != 0 && memcmp(k->pk, pk2, pkb) != 0) {
        gp_raise(k->pc, GP_R_BAD_KEY, "%s secret key does not match the public key", k->alg->ln);
        return 0;
    }
    if (!gp_key_keep_sk(k, sk, sk_len))
        return 0;
    memcpy(k->pk, pk2, pkb);
    k->pk_len = pkb;
    return 1;
}

int gp_key_set_sk(gp_key *k, const uint8_t *sk, size_t sk_len) {
    if (k->alg->family == GP_CROSS)
        return gp_key_set_cross_sk(k, sk, sk_len);
    if (k->alg->family != GP_SLHDSA) {
        gp_raise(k->pc, GP_R_UNSUPPORTED,
                 "%s secret keys live in grove's stateful key files, not in OpenSSL",
                 k->alg->ln);
        return 0;
    }
    size_t n = grove_slhdsa_n(k->slh), want = grove_slhdsa_sk_bytes(k->slh);
    if (sk_len != want) {
        gp_raise(k->pc, GP_R_BAD_KEY, "%s secret key must be %zu bytes, not %zu", k->alg->ln,
                 want, sk_len);
        return 0;
    }
    /* The public half (PK.seed || PK.root) must be what the seeds give: recompute the root. */
    uint8_t pk2[GROVE_SLHDSA_MAX_PK_BYTES], sk2[GROVE_SLHDSA_MAX_SK_BYTES];
    grove_status st = grove_slhdsa_keygen_from_seed(k->slh, pk2, sk2, sk, sk + n, sk + 2 * n);
    int ok = st == GROVE_OK && CRYPTO_memcmp(pk2, sk + 2 * n, 2 * n) == 0;
    grove_wipe(sk2, sizeof sk2);
    if (!ok) {
        gp_raise(k->pc, GP_R_BAD_KEY,
                 "%s secret key is inconsistent: its PK.root is not the one its seeds give",
                 k->alg->ln);
        return 0;
    }
    if (k->pk_len != 0 && CRYPTO_memcmp(k->pk, pk2, 2 * n) != 0) {
        gp_raise(k->pc, GP_R_BAD_KEY, "%s secret key does not match the public key", k->alg->ln);
        return 0;
    }
    if (!gp_key_keep_sk(k, sk, sk_len))
        return 0;
    memcpy(k->pk, pk2, 2 * n);
    k->pk_len = 2 * n;
    return 1;
}

size_t gp_key_sig_bytes(const gp_key *k) {
    if (k->alg->family == GP_SLHDSA)
        return grove_slhdsa_sig_bytes(k->slh);
    if (k->alg->family == GP_CROSS)
        return grove_cross_sig_bytes(k->cross);
    const grove_xmss_params *xp = NULL;
    grove_xmss_family fam = gp_xmss_family(k->alg);
    if (k->pk_len != 0 && grove_xmss_pk_params(fam, &xp, k->pk, k->pk_len) == GROVE_OK)
        return grove_xmss_sig_bytes(xp);
    return 0;
}

unsigned gp_key_security_bits(const gp_key *k) {
    if (k->alg->family == GP_SLHDSA)
        return (unsigned)(8 * grove_slhdsa_n(k->slh));
    if (k->alg->family == GP_CROSS) /* NIST categories 1, 3, 5 */
        return (unsigned)(96 + 32 * grove_cross_params_category(k->cross));
    const grove_xmss_params *xp = NULL;
    grove_xmss_family fam = gp_xmss_family(k->alg);
    if (k->pk_len != 0 && grove_xmss_pk_params(fam, &xp, k->pk, k->pk_len) == GROVE_OK)
        return 8 * grove_xmss_params_n(xp); /* classical bits, as OpenSSL counts them */
    return 0;
}

int gp_selection_ok(int selection, int mask) {
    static const int levels[] = {OSSL_KEYMGMT_SELECT_PRIVATE_KEY, OSSL_KEYMGMT_SELECT_PUBLIC_KEY,
                                 OSSL_KEYMGMT_SELECT_ALL_PARAMETERS};
    if (selection == 0)
        return 1;
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (selection & levels[i])
            return (mask & levels[i]) != 0;
    return 0;
}

/* ---- the provider ------------------------------------------------------------------------ */

#define PROPS "provider=grove"

static void gp_tables_free(gp_provctx *pc) {
    free(pc->keymgmt);
    free(pc->signature);
    free(pc->encoder);
    free(pc->decoder);
}

/* This instance's algorithm tables (CROSS only when enabled): 1, or 0 if out of memory. */
static int gp_tables_build(gp_provctx *pc) {
    const size_t nalg = pc->cross ? GP_NUM_ALGS : GP_NUM_OID_ALGS;
    pc->keymgmt = calloc(nalg + 1, sizeof(OSSL_ALGORITHM));
    pc->signature = calloc(nalg + 1, sizeof(OSSL_ALGORITHM));
    pc->encoder = calloc(5 * nalg + 1, sizeof(OSSL_ALGORITHM));
    pc->decoder = calloc(2 * nalg + 1, sizeof(OSSL_ALGORITHM));
    if (pc->keymgmt == NULL || pc->signature == NULL || pc->encoder == NULL ||
        pc->decoder == NULL)
        return 0;
    size_t e = 0, d = 0;
    for (size_t i = 0; i < nalg; i++) {
        const char *nm = gp_algs[i].names;
        const gp_family fam = gp_algs[i].family;
        pc->keymgmt[i] = (OSSL_ALGORITHM){nm, PROPS, gp_keymgmt_fns[i], "grove key manager"};
        pc->signature[i] = (OSSL_ALGORITHM){
            nm, PROPS, gp_signature_fns,
            fam == GP_SLHDSA ? (gp_algs[i].ph ? "grove HashSLH-DSA (FIPS 205, pre-hash)"
                                              : "grove SLH-DSA (FIPS 205, pure)")
            : fam == GP_CROSS
                ? "grove CROSS v2.2 (EXPERIMENTAL: no OID, no X.509/PKCS#8 encoding)"
                : "grove XMSS/XMSS^MT (RFC 8391, verification only)"};
        pc->encoder[e++] = (OSSL_ALGORITHM){nm, PROPS ",output=text", gp_encoder_text_fns, NULL};
        if (fam == GP_CROSS)
            continue;
        pc->encoder[e++] = (OSSL_ALGORITHM){
            nm, PROPS ",output=der,structure=SubjectPublicKeyInfo", gp_encoder_spki_der_fns, NULL};
        pc->encoder[e++] = (OSSL_ALGORITHM){
            nm, PROPS ",output=pem,structure=SubjectPublicKeyInfo", gp_encoder_spki_pem_fns, NULL};
        pc->decoder[d++] = (OSSL_ALGORITHM){
            nm, PROPS ",input=der,structure=SubjectPublicKeyInfo", gp_decoder_spki_fns[i], NULL};
        if (fam == GP_SLHDSA) {
            pc->encoder[e++] = (OSSL_ALGORITHM){
                nm, PROPS ",output=der,structure=PrivateKeyInfo", gp_encoder_pkcs8_der_fns, NULL};
            pc->encoder[e++] = (OSSL_ALGORITHM){
                nm, PROPS ",output=pem,structure=PrivateKeyInfo", gp_encoder_pkcs8_pem_fns, NULL};
            pc->decoder[d++] = (OSSL_ALGORITHM){
                nm, PROPS ",input=der,structure=PrivateKeyInfo", gp_decoder_pkcs8_fns[i], NULL};
        }
    }
    pc->store[0] = (OSSL_ALGORITHM){"grove-xmss", PROPS, gp_store_fns,
                                    "grove XMSS key files (grove-xmss:<path>)"};
    pc->store[1] = (OSSL_ALGORITHM){NULL, NULL, NULL, NULL};
    return 1; /* calloc left each table's end marker */
}

static const OSSL_ALGORITHM *gp_query(void *provctx, int op, int *no_cache) {
    const gp_provctx *pc = provctx;
    *no_cache = 0;
    switch (op) {
    case OSSL_OP_KEYMGMT:
        return pc->keymgmt;
    case OSSL_OP_SIGNATURE:
        return pc->signature;
    case OSSL_OP_ENCODER:
        return pc->encoder;
    case OSSL_OP_DECODER:
        return pc->decoder;
    case OSSL_OP_STORE:
        return pc->store;
    default:
        return NULL;
    }
}

static const OSSL_PARAM *gp_gettable_params(void *provctx) {
    static const OSSL_PARAM t[] = {
        OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
        OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
        OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
        OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
        OSSL_PARAM_END};
    (void)provctx;
    return t;
}

static int gp_get_params(void *provctx, OSSL_PARAM params[]) {
    (void)provctx;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(p, "grove post-quantum signatures provider"))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(p, grove_version()))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(p, grove_cpu_path()))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != NULL &&
        !OSSL_PARAM_set_int(p, 1))
        return 0;
    return 1;
}

static const OSSL_ITEM *gp_reason_strings(void *provctx) {
    (void)provctx;
    return gp_reasons;
}

static void gp_teardown(void *provctx) {
    gp_tables_free(provctx);
    free(provctx);
}

static const OSSL_DISPATCH gp_provider_fns[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))gp_teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))gp_gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))gp_get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))gp_query},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))gp_reason_strings},
    {0, NULL}};

int gp_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                     const OSSL_DISPATCH **out, void **provctx) {
    OSSL_FUNC_core_obj_create_fn *obj_create = NULL;
    OSSL_FUNC_core_obj_add_sigid_fn *obj_add_sigid = NULL;
    OSSL_FUNC_core_get_params_fn *get_params = NULL;
    gp_provctx *pc = calloc(1, sizeof *pc);
    if (pc == NULL)
        return 0;
    pc->handle = handle;
    for (; in != NULL && in->function_id != 0; in++) {
        switch (in->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR:
            pc->new_error = OSSL_FUNC_core_new_error(in);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            pc->set_error_debug = OSSL_FUNC_core_set_error_debug(in);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            pc->vset_error = OSSL_FUNC_core_vset_error(in);
            break;
        case OSSL_FUNC_BIO_READ_EX:
            pc->bio_read_ex = OSSL_FUNC_BIO_read_ex(in);
            break;
        case OSSL_FUNC_BIO_WRITE_EX:
            pc->bio_write_ex = OSSL_FUNC_BIO_write_ex(in);
            break;
        case OSSL_FUNC_CORE_OBJ_CREATE:
            obj_create = OSSL_FUNC_core_obj_create(in);
            break;
        case OSSL_FUNC_CORE_OBJ_ADD_SIGID:
            obj_add_sigid = OSSL_FUNC_core_obj_add_sigid(in);
            break;
        case OSSL_FUNC_CORE_GET_PARAMS:
            get_params = OSSL_FUNC_core_get_params(in);
            break;
        default:
            break;
        }
    }
    if (obj_create == NULL || obj_add_sigid == NULL || pc->bio_read_ex == NULL ||
        pc->bio_write_ex == NULL) {
        free(pc);
        return 0;
    }
    /* OpenSSL before 3.5 knows none of these OIDs: register them, and each as a signature
     * algorithm whose key type is itself with no separate digest (X.509 needs both). */
    for (size_t i = 0; i < GP_NUM_OID_ALGS; i++) {
        if (!obj_create(handle, gp_algs[i].oid, gp_algs[i].sn, gp_algs[i].ln) ||
            !obj_add_sigid(handle, gp_algs[i].sn, "", gp_algs[i].sn)) {
            free(pc);
            return 0;
        }
    }
    /* The provider's configuration section: experimental-cross = 1 offers CROSS. */
    char *cross = NULL;
    OSSL_PARAM cp[] = {OSSL_PARAM_utf8_ptr("experimental-cross", &cross, 0), OSSL_PARAM_END};
    if (get_params != NULL && get_params(handle, cp) && cross != NULL)
        pc->cross = strcmp(cross, "1") == 0 || strcmp(cross, "yes") == 0;
    if (!gp_tables_build(pc)) {
        gp_tables_free(pc);
        free(pc);
        return 0;
    }
    *out = gp_provider_fns;
    *provctx = pc;
    return 1;
}

/* The exported entry point of grove.so (the only symbol the module exports). */
OSSL_provider_init_fn OSSL_provider_init __attribute__((visibility("default")));
int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx) {
    return gp_provider_init(handle, in, out, provctx);
}
