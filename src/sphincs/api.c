/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Public front ends: key generation, FIPS 205 (pure and pre-hash), SPHINCS+ round 3.1. */
#include <string.h>

#include "common/util.h"
#include "hash/keccak.h"
#include "hash/sha2.h"
#include "sphincs/spx.h"

/*
 * Stack wiped after key generation and signing (spx_burn, below): the kernels keep secret
 * words in registers and spill slots, and whether a later, deeper call overwrites them is luck
 * (the portable chain kernels of issue 19 made SK.seed show up 7 KiB below the caller on the
 * portable path). SPX_BURN bytes next to the caller's frame, in a frame of that size (so that
 * the callers' own stack-depth measurements, e.g. DGSP's, see only what is wiped); the cost is
 * about a microsecond, against at least tens of microseconds for the operation.
 */
#define SPX_BURN (30 * 1024)

static __attribute__((noinline)) void spx_burn(void)
{
    uint8_t buf[SPX_BURN];
    grove_wipe(buf, sizeof buf);
}

static int keygen_burned(const grove_slhdsa_params *p, uint8_t *pk, uint8_t *sk,
                         const uint8_t *sk_seed, const uint8_t *sk_prf, const uint8_t *pk_seed)
{
    int r = spx_keygen_internal(p, pk, sk, sk_seed, sk_prf, pk_seed);
    spx_burn();
    return r;
}

static int sign_burned(const grove_slhdsa_params *p, uint8_t *sig, const uint8_t *prefix,
                       size_t prefixlen, const uint8_t *msg, size_t msg_len, const uint8_t *sk,
                       const uint8_t *opt_rand)
{
    int r = spx_sign_internal(p, sig, prefix, prefixlen, msg, msg_len, sk, opt_rand);
    spx_burn();
    return r;
}

grove_status grove_slhdsa_keygen_from_seed(const grove_slhdsa_params *p, uint8_t *pk, uint8_t *sk,
                                           const uint8_t *sk_seed, const uint8_t *sk_prf,
                                           const uint8_t *pk_seed)
{
    if (p == NULL || pk == NULL || sk == NULL || sk_seed == NULL || sk_prf == NULL ||
        pk_seed == NULL)
        return GROVE_ERR_INVALID_ARG;
    return (grove_status)keygen_burned(p, pk, sk, sk_seed, sk_prf, pk_seed);
}

grove_status grove_slhdsa_keygen(const grove_slhdsa_params *p, uint8_t *pk, uint8_t *sk)
{
    if (p == NULL || pk == NULL || sk == NULL)
        return GROVE_ERR_INVALID_ARG;
    uint8_t seed[3 * SPX_MAX_N];
    const size_t n = p->n;
    grove_status r = grove_randombytes(seed, 3 * n);
    if (r == GROVE_OK)
        r = (grove_status)keygen_burned(p, pk, sk, seed, seed + n, seed + 2 * n);
    grove_wipe(seed, sizeof seed);
    return r;
}

grove_status grove_slhdsa_sign_internal(const grove_slhdsa_params *p, uint8_t *sig,
                                        const uint8_t *msg, size_t msg_len, const uint8_t *sk,
                                        const uint8_t *opt_rand)
{
    if (p == NULL || sig == NULL || sk == NULL || opt_rand == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    return (grove_status)sign_burned(p, sig, NULL, 0, msg, msg_len, sk, opt_rand);
}

grove_status grove_slhdsa_verify_internal(const grove_slhdsa_params *p, const uint8_t *sig,
                                          size_t sig_len, const uint8_t *msg, size_t msg_len,
                                          const uint8_t *pk)
{
    if (p == NULL || sig == NULL || pk == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    return (grove_status)spx_verify_internal(p, sig, sig_len, NULL, 0, msg, msg_len, pk);
}

/* ---- FIPS 205 external functions ---------------------------------------------------------- */

struct prehash_info {
    grove_slhdsa_prehash id;
    const char *name;
    uint8_t oid_last; /* OID 2.16.840.1.101.3.4.2.x */
    size_t outlen;
};

static const struct prehash_info prehashes[] = {
    {GROVE_PREHASH_SHA2_224, "SHA2-224", 0x04, 28},
    {GROVE_PREHASH_SHA2_256, "SHA2-256", 0x01, 32},
    {GROVE_PREHASH_SHA2_384, "SHA2-384", 0x02, 48},
    {GROVE_PREHASH_SHA2_512, "SHA2-512", 0x03, 64},
    {GROVE_PREHASH_SHA3_256, "SHA3-256", 0x08, 32},
    {GROVE_PREHASH_SHA3_512, "SHA3-512", 0x0A, 64},
    {GROVE_PREHASH_SHAKE128, "SHAKE-128", 0x0B, 32},
    {GROVE_PREHASH_SHAKE256, "SHAKE-256", 0x0C, 64},
};

grove_slhdsa_prehash grove_slhdsa_prehash_get(const char *name)
{
    if (name == NULL)
        return (grove_slhdsa_prehash)0;
    for (size_t i = 0; i < GROVE_ARRAY_LEN(prehashes); i++) {
        const char *pn = prehashes[i].name;
        /* accept "SHAKE-128" and "SHAKE128" */
        char alt[16];
        size_t k = 0;
        for (size_t j = 0; pn[j] && k + 1 < sizeof alt; j++)
            if (!(pn[j] == '-' && strncmp(pn, "SHAKE", 5) == 0))
                alt[k++] = pn[j];
        alt[k] = '\0';
        if (strcmp(name, pn) == 0 || strcmp(name, alt) == 0)
            return prehashes[i].id;
    }
    return (grove_slhdsa_prehash)0;
}

/* Builds the framing prefix; for pre-hash also hashes the message into the prefix. */
static grove_status frame(uint8_t *prefix, size_t *prefixlen, const uint8_t *ctx, size_t ctx_len,
                          grove_slhdsa_prehash ph, const uint8_t *msg, size_t msg_len)
{
    if (ctx_len > GROVE_SLHDSA_MAX_CTX_BYTES || (ctx == NULL && ctx_len))
        return GROVE_ERR_INVALID_ARG;
    size_t o = 0;
    prefix[o++] = ph ? 1 : 0;
    prefix[o++] = (uint8_t)ctx_len;
    if (ctx_len)
        memcpy(prefix + o, ctx, ctx_len);
    o += ctx_len;
    if (ph) {
        const struct prehash_info *pi = NULL;
        for (size_t i = 0; i < GROVE_ARRAY_LEN(prehashes); i++)
            if (prehashes[i].id == ph)
                pi = &prehashes[i];
        if (pi == NULL)
            return GROVE_ERR_INVALID_ARG; /* not a pre-hash function */
        static const uint8_t oid_head[10] = {0x06, 0x09, 0x60, 0x86, 0x48,
                                             0x01, 0x65, 0x03, 0x04, 0x02};
        memcpy(prefix + o, oid_head, sizeof oid_head);
        o += sizeof oid_head;
        prefix[o++] = pi->oid_last;
        uint8_t *d = prefix + o;
        switch (ph) {
        case GROVE_PREHASH_SHA2_224:
            grove_sha224(d, msg, msg_len);
            break;
        case GROVE_PREHASH_SHA2_256:
            grove_sha256(d, msg, msg_len);
            break;
        case GROVE_PREHASH_SHA2_384:
            grove_sha384(d, msg, msg_len);
            break;
        case GROVE_PREHASH_SHA2_512:
            grove_sha512(d, msg, msg_len);
            break;
        case GROVE_PREHASH_SHA3_256:
            grove_sha3_256(d, msg, msg_len);
            break;
        case GROVE_PREHASH_SHA3_512:
            grove_sha3_512(d, msg, msg_len);
            break;
        case GROVE_PREHASH_SHAKE128:
            grove_shake128(d, 32, msg, msg_len);
            break;
        case GROVE_PREHASH_SHAKE256:
            grove_shake256(d, 64, msg, msg_len);
            break;
        }
        o += pi->outlen;
    }
    *prefixlen = o;
    return GROVE_OK;
}

#define FRAME_MAX (2 + GROVE_SLHDSA_MAX_CTX_BYTES + 11 + 64)

static grove_status external_sign(const grove_slhdsa_params *p, uint8_t *sig, const uint8_t *msg,
                                  size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                                  grove_slhdsa_prehash ph, const uint8_t *sk, bool hedged)
{
    if (p == NULL || sig == NULL || sk == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    if (!p->fips205)
        return GROVE_ERR_UNSUPPORTED;
    uint8_t prefix[FRAME_MAX], opt_rand[SPX_MAX_N];
    size_t prefixlen;
    grove_status r = frame(prefix, &prefixlen, ctx, ctx_len, ph, msg, msg_len);
    if (r != GROVE_OK)
        return r;
    if (hedged) {
        r = grove_randombytes(opt_rand, p->n);
        if (r != GROVE_OK)
            return r;
    } else {
        memcpy(opt_rand, sk + 2 * p->n, p->n); /* PK.seed */
    }
    if (ph)
        r = (grove_status)sign_burned(p, sig, prefix, prefixlen, NULL, 0, sk, opt_rand);
    else
        r = (grove_status)sign_burned(p, sig, prefix, prefixlen, msg, msg_len, sk, opt_rand);
    grove_wipe(opt_rand, sizeof opt_rand);
    return r;
}

static grove_status external_verify(const grove_slhdsa_params *p, const uint8_t *sig,
                                    size_t sig_len, const uint8_t *msg, size_t msg_len,
                                    const uint8_t *ctx, size_t ctx_len, grove_slhdsa_prehash ph,
                                    const uint8_t *pk)
{
    if (p == NULL || sig == NULL || pk == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    if (!p->fips205)
        return GROVE_ERR_UNSUPPORTED;
    uint8_t prefix[FRAME_MAX];
    size_t prefixlen;
    grove_status r = frame(prefix, &prefixlen, ctx, ctx_len, ph, msg, msg_len);
    if (r != GROVE_OK)
        return r;
    if (ph)
        return (grove_status)spx_verify_internal(p, sig, sig_len, prefix, prefixlen, NULL, 0, pk);
    return (grove_status)spx_verify_internal(p, sig, sig_len, prefix, prefixlen, msg, msg_len, pk);
}

grove_status grove_slhdsa_sign(const grove_slhdsa_params *p, uint8_t *sig, const uint8_t *msg,
                               size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                               const uint8_t *sk, bool hedged)
{
    return external_sign(p, sig, msg, msg_len, ctx, ctx_len, (grove_slhdsa_prehash)0, sk, hedged);
}

grove_status grove_slhdsa_verify(const grove_slhdsa_params *p, const uint8_t *sig, size_t sig_len,
                                 const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                                 size_t ctx_len, const uint8_t *pk)
{
    return external_verify(p, sig, sig_len, msg, msg_len, ctx, ctx_len, (grove_slhdsa_prehash)0,
                           pk);
}

grove_status grove_hashslhdsa_sign(const grove_slhdsa_params *p, uint8_t *sig, const uint8_t *msg,
                                   size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                                   grove_slhdsa_prehash ph, const uint8_t *sk, bool hedged)
{
    if (ph == 0)
        return GROVE_ERR_INVALID_ARG;
    return external_sign(p, sig, msg, msg_len, ctx, ctx_len, ph, sk, hedged);
}

grove_status grove_hashslhdsa_verify(const grove_slhdsa_params *p, const uint8_t *sig,
                                     size_t sig_len, const uint8_t *msg, size_t msg_len,
                                     const uint8_t *ctx, size_t ctx_len, grove_slhdsa_prehash ph,
                                     const uint8_t *pk)
{
    if (ph == 0)
        return GROVE_ERR_INVALID_ARG;
    return external_verify(p, sig, sig_len, msg, msg_len, ctx, ctx_len, ph, pk);
}

/* ---- SPHINCS+ round 3.1 ------------------------------------------------------------------- */

grove_status grove_sphincs_sign(const grove_slhdsa_params *p, uint8_t *sig, const uint8_t *msg,
                                size_t msg_len, const uint8_t *sk)
{
    if (p == NULL || sig == NULL || sk == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    if (p->fips205)
        return GROVE_ERR_UNSUPPORTED;
    uint8_t optrand[SPX_MAX_N];
    grove_status r = grove_randombytes(optrand, p->n);
    if (r == GROVE_OK)
        r = (grove_status)sign_burned(p, sig, NULL, 0, msg, msg_len, sk, optrand);
    grove_wipe(optrand, sizeof optrand);
    return r;
}

grove_status grove_sphincs_verify(const grove_slhdsa_params *p, const uint8_t *sig, size_t sig_len,
                                  const uint8_t *msg, size_t msg_len, const uint8_t *pk)
{
    if (p == NULL || sig == NULL || pk == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    if (p->fips205)
        return GROVE_ERR_UNSUPPORTED;
    return (grove_status)spx_verify_internal(p, sig, sig_len, NULL, 0, msg, msg_len, pk);
}
