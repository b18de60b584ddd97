/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * provider/prov.h - the grove OpenSSL 3 provider: shared declarations.
 *
 * The provider is a thin layer over libgrove's public API (grove/slhdsa.h, grove/xmss.h,
 * grove/pkix.h). Each algorithm it offers is one row of gp_algs[]: its OpenSSL names (the
 * names OpenSSL 3.5 uses, then the short name and dotted OID), its OID and the grove set.
 * A key object (gp_key) is what the key manager, the signature code and the encoders and
 * decoders share: OpenSSL's EVP_PKEY holds it.
 */
#ifndef GROVE_PROVIDER_PROV_H
#define GROVE_PROVIDER_PROV_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

#include "grove/cross.h"
#include "grove/pkix.h"
#include "grove/slhdsa.h"
#include "grove/xmss.h"

typedef enum gp_family { GP_SLHDSA = 1, GP_XMSS, GP_XMSSMT, GP_CROSS } gp_family;

typedef struct gp_alg {
    const char *names; /* "LN:SN:OID", as OSSL_ALGORITHM wants them */
    const char *ln;    /* the long name, e.g. "SLH-DSA-SHA2-128s" */
    const char *sn;    /* the short name, e.g. "id-slh-dsa-sha2-128s" */
    const char *oid;   /* dotted */
    gp_family family;
    const char *set; /* SLH-DSA: the libgrove set name */
    const char *ph;  /* HashSLH-DSA: the pre-hash RFC 9909 assigns (NULL: pure SLH-DSA) */
} gp_alg;

/* The libgrove family of an XMSS or XMSS^MT algorithm. */
#define gp_xmss_family(alg)                                                                    \
    ((alg)->family == GP_XMSS ? GROVE_XMSS_FAMILY_XMSS : GROVE_XMSS_FAMILY_XMSSMT)

/* Every algorithm, in a fixed order: 12 SLH-DSA sets, XMSS, XMSS^MT, 12 HashSLH-DSA sets
 * (these have OIDs), then the 18 CROSS sets (experimental: no OIDs, offered only when the
 * provider's configuration says experimental-cross = 1). */
#define GP_NUM_SLHDSA 12
#define GP_FIRST_HASHSLHDSA 14
#define GP_NUM_OID_ALGS 26
#define GP_NUM_CROSS 18
#define GP_NUM_ALGS (GP_NUM_OID_ALGS + GP_NUM_CROSS)
#define GP_CROSS_PREFIX "EXPERIMENTAL-"
extern const gp_alg gp_algs[GP_NUM_ALGS];

/* The provider context: the core handle and the core functions the provider uses. */
typedef struct gp_provctx {
    const OSSL_CORE_HANDLE *handle;
    OSSL_FUNC_core_new_error_fn *new_error;
    OSSL_FUNC_core_set_error_debug_fn *set_error_debug;
    OSSL_FUNC_core_vset_error_fn *vset_error;
    OSSL_FUNC_BIO_read_ex_fn *bio_read_ex;
    OSSL_FUNC_BIO_write_ex_fn *bio_write_ex;
    int cross; /* the experimental CROSS algorithms are offered */
    OSSL_ALGORITHM *keymgmt, *signature, *encoder, *decoder; /* this instance's tables */
    OSSL_ALGORITHM store[2];
} gp_provctx;

/* Raise an OpenSSL error (reason GP_R_*) with a message, printed by the openssl command. */
#define GP_R_BAD_KEY 1
#define GP_R_UNSUPPORTED 2
#define GP_R_BAD_ARG 3
#define GP_R_LIBRARY 4
#define GP_R_NOMEM 5
void gp_raise_at(const gp_provctx *pc, const char *file, int line, const char *func, int reason,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#define gp_raise(pc, reason, ...) gp_raise_at(pc, __FILE__, __LINE__, __func__, reason, __VA_ARGS__)

/* Largest raw public key (XMSS: 4 + 2 * 64; CROSS: checked in prov.c) and secret key. */
#define GP_MAX_PK 256
#define GP_MAX_SK GROVE_SLHDSA_MAX_SK_BYTES

typedef struct gp_key {
    const gp_provctx *pc;
    const gp_alg *alg;
    const grove_slhdsa_params *slh; /* SLH-DSA only */
    grove_slhdsa_prehash ph;        /* HashSLH-DSA: its pre-hash; 0 for pure SLH-DSA */
    const grove_cross_params *cross; /* CROSS only */
    size_t pk_len;                  /* 0: no public key yet */
    uint8_t pk[GP_MAX_PK];
    size_t sk_len;
    uint8_t *sk; /* NULL: public key only; wiped on free */
    char *keyfile; /* XMSS loaded through grove-xmss:<path>: the grove key file that signs */
} gp_key;

gp_key *gp_key_new(const gp_provctx *pc, const gp_alg *alg);
void gp_key_free(gp_key *k);
/* Set the public key (checked for length and, for XMSS, its own set OID): 1 or 0 + error. */
int gp_key_set_pk(gp_key *k, const uint8_t *pk, size_t pk_len);
/* Set a secret key (SLH-DSA, CROSS); the public key it gives is recomputed and must match
 * any public key already set: 1 or 0. */
int gp_key_set_sk(gp_key *k, const uint8_t *sk, size_t sk_len);
/* The signature size (the largest, for XMSS of the key's set). */
size_t gp_key_sig_bytes(const gp_key *k);
unsigned gp_key_security_bits(const gp_key *k);
/* XMSS: sign through the key's grove key file (state saved first): 1, or 0 with an error. */
int gp_xmss_sign_keyfile(const gp_key *k, uint8_t *sig, size_t sig_len, const uint8_t *msg,
                         size_t msg_len);
/* The DER AlgorithmIdentifier of the key's algorithm (parameters absent). */
size_t gp_alg_id_der(const gp_alg *alg, uint8_t *out, size_t out_cap);

/* Dispatch tables (one per algorithm where OpenSSL gives no way to tell them apart). */
extern const OSSL_DISPATCH *const gp_keymgmt_fns[GP_NUM_ALGS];
extern const OSSL_DISPATCH *const gp_decoder_spki_fns[GP_NUM_ALGS];
extern const OSSL_DISPATCH *const gp_decoder_pkcs8_fns[GP_NUM_ALGS];
extern const OSSL_DISPATCH gp_signature_fns[];
extern const OSSL_DISPATCH gp_store_fns[];
extern const OSSL_DISPATCH gp_encoder_spki_der_fns[];
extern const OSSL_DISPATCH gp_encoder_spki_pem_fns[];
extern const OSSL_DISPATCH gp_encoder_pkcs8_der_fns[];
extern const OSSL_DISPATCH gp_encoder_pkcs8_pem_fns[];
extern const OSSL_DISPATCH gp_encoder_text_fns[];

/* The selection check shared by encoders and decoders: does `selection` ask for no more
 * than `mask` offers (private key > public key > parameters)? */
int gp_selection_ok(int selection, int mask);

/* The provider's init function (exported from grove.so as OSSL_provider_init; tests register
 * it as a built-in provider). */
OSSL_provider_init_fn gp_provider_init;

#endif
