/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Signed revocation lists (see grove/dgsp.h). */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "dgsp/dgsp_int.h"

#define RL_LABEL "grove-dgsp-revocations-v1"
#define RL_HEAD 24

size_t grove_dgsp_revocations_bytes(const grove_dgsp_cfg *cfg, uint64_t count)
{
    if (!dgsp_cfg_ok(cfg) || count > (SIZE_MAX - RL_HEAD - GROVE_SLHDSA_MAX_SIG_BYTES) / 16)
        return 0;
    return RL_HEAD + 16 * (size_t)count + grove_slhdsa_sig_bytes(cfg->spx);
}

static int cmp16(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

/* The message is label || body for round 3.1, and body with the label as context for FIPS. */
static int rl_sign(const grove_dgsp_cfg *cfg, const uint8_t *spx_sk, const uint8_t *body,
                   size_t len, uint8_t *sig)
{
    if (grove_slhdsa_params_is_fips205(cfg->spx))
        return grove_slhdsa_sign(cfg->spx, sig, body, len, (const uint8_t *)RL_LABEL,
                                 sizeof RL_LABEL - 1, spx_sk, 1);
    uint8_t *m = malloc(sizeof RL_LABEL - 1 + len);
    if (m == NULL)
        return GROVE_ERR_NOMEM;
    memcpy(m, RL_LABEL, sizeof RL_LABEL - 1);
    memcpy(m + sizeof RL_LABEL - 1, body, len);
    int r = grove_sphincs_sign(cfg->spx, sig, m, sizeof RL_LABEL - 1 + len, spx_sk);
    free(m);
    return r;
}

static int rl_verify(const grove_dgsp_cfg *cfg, const uint8_t *pk, const uint8_t *body, size_t len,
                     const uint8_t *sig)
{
    size_t sl = grove_slhdsa_sig_bytes(cfg->spx);
    if (grove_slhdsa_params_is_fips205(cfg->spx))
        return grove_slhdsa_verify(cfg->spx, sig, sl, body, len, (const uint8_t *)RL_LABEL,
                                   sizeof RL_LABEL - 1, pk);
    uint8_t *m = malloc(sizeof RL_LABEL - 1 + len);
    if (m == NULL)
        return GROVE_ERR_NOMEM;
    memcpy(m, RL_LABEL, sizeof RL_LABEL - 1);
    memcpy(m + sizeof RL_LABEL - 1, body, len);
    int r = grove_sphincs_verify(cfg->spx, sig, sl, m, sizeof RL_LABEL - 1 + len, pk);
    free(m);
    return r;
}

grove_status grove_dgsp_revocations_sign(const grove_dgsp_cfg *cfg, uint8_t *out, size_t out_cap,
                                         size_t *out_len, uint64_t seq, uint64_t time,
                                         const uint8_t *zetas, uint64_t count, const uint8_t *sk)
{
    if (!dgsp_cfg_ok(cfg) || sk == NULL || out == NULL || out_len == NULL ||
        (count && zetas == NULL) || grove_dgsp_revocations_bytes(cfg, count) == 0)
        return GROVE_ERR_INVALID_ARG;
    uint8_t *z = malloc(count ? 16 * (size_t)count : 1);
    if (z == NULL)
        return GROVE_ERR_NOMEM;
    if (count)
        memcpy(z, zetas, 16 * (size_t)count);
    qsort(z, (size_t)count, 16, cmp16);
    uint64_t k = 0; /* de-duplicate */
    for (uint64_t i = 0; i < count; i++)
        if (k == 0 || memcmp(z + 16 * (k - 1), z + 16 * i, 16) != 0)
            memmove(z + 16 * k++, z + 16 * i, 16);
    size_t body = RL_HEAD + 16 * (size_t)k;
    *out_len = body + grove_slhdsa_sig_bytes(cfg->spx);
    if (out_cap < *out_len) {
        free(z);
        return GROVE_ERR_BUFFER_TOO_SMALL;
    }
    grove_store64_be(out, seq);
    grove_store64_be(out + 8, time);
    grove_store64_be(out + 16, k);
    if (k)
        memcpy(out + RL_HEAD, z, 16 * (size_t)k);
    free(z);
    return (grove_status)rl_sign(cfg, sk + 2 * (size_t)cfg->n, out, body, out + body);
}

grove_status grove_dgsp_revocations_verify(const grove_dgsp_cfg *cfg, uint64_t *seq, uint64_t *time,
                                           const uint8_t **zetas, uint64_t *count,
                                           const uint8_t *rl, size_t rl_len, const uint8_t *pk)
{
    if (!dgsp_cfg_ok(cfg) || pk == NULL || rl == NULL)
        return GROVE_ERR_INVALID_ARG;
    /* grove/common.h: anything wrong in the list (length, order, signature) does not verify */
    size_t sl = grove_slhdsa_sig_bytes(cfg->spx), len = rl_len;
    if (len < RL_HEAD + sl)
        return GROVE_ERR_VERIFY;
    uint64_t k = grove_load64_be(rl + 16);
    if (k > (len - RL_HEAD - sl) / 16 || RL_HEAD + 16 * (size_t)k + sl != len)
        return GROVE_ERR_VERIFY;
    const uint8_t *z = rl + RL_HEAD;
    for (uint64_t i = 1; i < k; i++)
        if (memcmp(z + 16 * (i - 1), z + 16 * i, 16) >= 0)
            return GROVE_ERR_VERIFY; /* must be strictly ascending */
    size_t body = RL_HEAD + 16 * (size_t)k;
    int r = rl_verify(cfg, pk, rl, body, rl + body);
    if (r != GROVE_OK)
        return r == GROVE_ERR_NOMEM ? GROVE_ERR_NOMEM : GROVE_ERR_VERIFY;
    if (seq)
        *seq = grove_load64_be(rl);
    if (time)
        *time = grove_load64_be(rl + 8);
    if (zetas)
        *zetas = z;
    if (count)
        *count = k;
    return GROVE_OK;
}
