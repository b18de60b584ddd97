/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The public incremental hash interface (grove/hash.h): a thin layer over the SHA-2 and
 * Keccak contexts of this folder. */
#include <string.h>

#include "grove/hash.h"
#include "hash/keccak.h"
#include "hash/sha2.h"

/* What lives inside grove_hash_ctx.opaque. */
typedef struct {
    uint32_t alg;
    union {
        grove_sha256_ctx sha256;
        grove_sha512_ctx sha512;
        grove_keccak_ctx keccak;
    } u;
} hash_state;

_Static_assert(sizeof(hash_state) <= sizeof(grove_hash_ctx), "grove_hash_ctx is too small");
_Static_assert(_Alignof(hash_state) <= _Alignof(grove_hash_ctx), "grove_hash_ctx alignment");

static const struct {
    grove_hash_alg alg;
    const char *name;
    size_t digest; /* 0: extendable output */
} algs[] = {
    {GROVE_HASH_SHA224, "sha224", 28},     {GROVE_HASH_SHA256, "sha256", 32},
    {GROVE_HASH_SHA384, "sha384", 48},     {GROVE_HASH_SHA512, "sha512", 64},
    {GROVE_HASH_SHA3_256, "sha3-256", 32}, {GROVE_HASH_SHA3_512, "sha3-512", 64},
    {GROVE_HASH_SHAKE128, "shake128", 0},  {GROVE_HASH_SHAKE256, "shake256", 0},
};
#define NALGS (sizeof algs / sizeof algs[0])

static size_t alg_index(grove_hash_alg alg)
{
    for (size_t i = 0; i < NALGS; i++)
        if (algs[i].alg == alg)
            return i;
    return NALGS;
}

size_t grove_hash_digest_bytes(grove_hash_alg alg)
{
    size_t i = alg_index(alg);
    return i < NALGS ? algs[i].digest : 0;
}

const char *grove_hash_alg_name(grove_hash_alg alg)
{
    size_t i = alg_index(alg);
    return i < NALGS ? algs[i].name : NULL;
}

/*
 * The spelling of a name that grove_hash_alg_from_name compares: lower case, with the common
 * alias forms folded onto grove's ("SHA-256", "SHA2-256", "sha2_256" -> "sha256"; "SHA3_256"
 * -> "sha3-256"; "SHAKE-128" -> "shake128"). 0, or -1 if the name is too long to be one.
 */
static int fold_name(const char *name, char out[16])
{
    char low[16];
    size_t n = strlen(name);
    if (n >= sizeof low)
        return -1;
    for (size_t i = 0; i <= n; i++) {
        char ch = name[i];
        low[i] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch == '_' ? '-' : ch);
    }
    const char *p = low;
    size_t o = 0;
    if (strncmp(p, "sha2-", 5) == 0 && strchr(p + 5, '-') == NULL) /* SHA2-256 */
        p += 5, memcpy(out, "sha", 3), o = 3;
    else if (strncmp(p, "sha-", 4) == 0) /* SHA-256 */
        p += 4, memcpy(out, "sha", 3), o = 3;
    else if (strncmp(p, "shake-", 6) == 0) /* SHAKE-128 */
        p += 6, memcpy(out, "shake", 5), o = 5;
    memcpy(out + o, p, strlen(p) + 1);
    return 0;
}

grove_status grove_hash_alg_from_name(const char *name, grove_hash_alg *alg)
{
    if (name == NULL || alg == NULL)
        return GROVE_ERR_INVALID_ARG;
    char folded[16];
    if (fold_name(name, folded) != 0)
        return GROVE_ERR_UNSUPPORTED;
    for (size_t i = 0; i < NALGS; i++)
        if (strcmp(folded, algs[i].name) == 0) {
            *alg = algs[i].alg;
            return GROVE_OK;
        }
    return GROVE_ERR_UNSUPPORTED;
}

grove_status grove_hash_init(grove_hash_ctx *ctx, grove_hash_alg alg)
{
    if (ctx == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (alg_index(alg) == NALGS)
        return GROVE_ERR_UNSUPPORTED;
    memset(ctx, 0, sizeof *ctx);
    hash_state *h = (hash_state *)ctx;
    h->alg = (uint32_t)alg;
    switch (alg) {
    case GROVE_HASH_SHA224: grove_sha224_init(&h->u.sha256); break;
    case GROVE_HASH_SHA256: grove_sha256_init(&h->u.sha256); break;
    case GROVE_HASH_SHA384: grove_sha384_init(&h->u.sha512); break;
    case GROVE_HASH_SHA512: grove_sha512_init(&h->u.sha512); break;
    case GROVE_HASH_SHA3_256: grove_sha3_256_init(&h->u.keccak); break;
    case GROVE_HASH_SHA3_512: grove_sha3_512_init(&h->u.keccak); break;
    case GROVE_HASH_SHAKE128: grove_shake128_init(&h->u.keccak); break;
    case GROVE_HASH_SHAKE256: grove_shake256_init(&h->u.keccak); break;
    }
    return GROVE_OK;
}

void grove_hash_update(grove_hash_ctx *ctx, const uint8_t *in, size_t in_len)
{
    hash_state *h = (hash_state *)ctx;
    if (ctx == NULL || in_len == 0)
        return;
    switch ((grove_hash_alg)h->alg) {
    case GROVE_HASH_SHA224:
    case GROVE_HASH_SHA256: grove_sha256_update(&h->u.sha256, in, in_len); break;
    case GROVE_HASH_SHA384:
    case GROVE_HASH_SHA512: grove_sha512_update(&h->u.sha512, in, in_len); break;
    case GROVE_HASH_SHA3_256:
    case GROVE_HASH_SHA3_512:
    case GROVE_HASH_SHAKE128:
    case GROVE_HASH_SHAKE256: grove_keccak_absorb(&h->u.keccak, in, in_len); break;
    default: break; /* not initialised, or finalised (wiped): grove_hash_final refuses it */
    }
}

grove_status grove_hash_final(grove_hash_ctx *ctx, uint8_t *out, size_t out_len)
{
    hash_state *h = (hash_state *)ctx;
    if (ctx == NULL || (out == NULL && out_len > 0))
        return GROVE_ERR_INVALID_ARG;
    grove_hash_alg alg = (grove_hash_alg)h->alg;
    size_t i = alg_index(alg);
    if (i == NALGS || (algs[i].digest != 0 && out_len != algs[i].digest))
        return GROVE_ERR_INVALID_ARG;
    switch (alg) {
    case GROVE_HASH_SHA224:
    case GROVE_HASH_SHA256: grove_sha256_final(&h->u.sha256, out, out_len); break;
    case GROVE_HASH_SHA384:
    case GROVE_HASH_SHA512: grove_sha512_final(&h->u.sha512, out, out_len); break;
    default: grove_keccak_squeeze(&h->u.keccak, out, out_len); break;
    }
    grove_wipe(ctx, sizeof *ctx);
    return GROVE_OK;
}

grove_status grove_hash(grove_hash_alg alg, uint8_t *out, size_t out_len, const uint8_t *in,
                        size_t in_len)
{
    if (in == NULL && in_len > 0)
        return GROVE_ERR_INVALID_ARG;
    grove_hash_ctx ctx;
    grove_status st = grove_hash_init(&ctx, alg);
    if (st != GROVE_OK)
        return st;
    grove_hash_update(&ctx, in, in_len);
    st = grove_hash_final(&ctx, out, out_len);
    grove_wipe(&ctx, sizeof ctx);
    return st;
}
