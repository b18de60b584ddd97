/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * STM parameters, signers, single signatures (spec sections 2, 5, 9).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/ct.h"
#include "common/util.h"
#include "stm/stm_internal.h"

/* ---- parameters ----------------------------------------------------------------------------- */

grove_status grove_stm_params_check(const grove_stm_params *p)
{
    if (!p || p->m == 0 || p->m > GROVE_STM_MAX_M || p->k == 0 || p->k > p->m)
        return GROVE_ERR_INVALID_ARG;
    if (!(p->phi_f > 0.0 && p->phi_f <= 0.95) && p->phi_f != 1.0)
        return GROVE_ERR_INVALID_ARG;
    return GROVE_OK;
}

void grove_stm_params_to_bytes(const grove_stm_params *p, uint8_t out[GROVE_STM_PARAMS_BYTES])
{
    uint64_t bits;
    memcpy(&bits, &p->phi_f, 8);
    grove_store64_be(out, p->m);
    grove_store64_be(out + 8, p->k);
    grove_store64_be(out + 16, bits);
}

grove_status grove_stm_params_from_bytes(grove_stm_params *p, const uint8_t *in, size_t in_len)
{
    if (!p || !in)
        return GROVE_ERR_INVALID_ARG;
    if (in_len != GROVE_STM_PARAMS_BYTES)
        return GROVE_ERR_ENCODING;
    grove_stm_params q;
    uint64_t bits = grove_load64_be(in + 16);
    q.m = grove_load64_be(in);
    q.k = grove_load64_be(in + 8);
    memcpy(&q.phi_f, &bits, 8);
    if (grove_stm_params_check(&q) != GROVE_OK)
        return GROVE_ERR_ENCODING; /* a malformed parameter object */
    *p = q;
    return GROVE_OK;
}

/* ---- AVK ------------------------------------------------------------------------------------ */

void grove_stm_avk_to_bytes(const grove_stm_avk *avk, uint8_t out[GROVE_STM_AVK_BYTES])
{
    grove_store64_be(out, avk->nr_leaves);
    memcpy(out + 8, avk->root, 32);
    grove_store64_be(out + 40, avk->total_stake);
}

grove_status grove_stm_avk_from_bytes(grove_stm_avk *avk, const uint8_t *in, size_t in_len)
{
    if (!avk || !in)
        return GROVE_ERR_INVALID_ARG;
    if (in_len != GROVE_STM_AVK_BYTES)
        return GROVE_ERR_ENCODING;
    grove_stm_avk a;
    a.nr_leaves = grove_load64_be(in);
    memcpy(a.root, in + 8, 32);
    a.total_stake = grove_load64_be(in + 40);
    if (a.nr_leaves == 0 || a.nr_leaves > GROVE_STM_MAX_PARTIES || a.total_stake == 0)
        return GROVE_ERR_ENCODING;
    *avk = a;
    return GROVE_OK;
}

/* ---- single signatures: memory and encoding ------------------------------------------------- */

void grove_stm_sig_clear(grove_stm_sig *sig)
{
    if (!sig)
        return;
    free(sig->indexes);
    memset(sig, 0, sizeof *sig);
}

/* More indexes than a signature may hold (a size_t count: on 32-bit targets it never is). */
static int too_many_indexes(uint64_t n)
{
    return n > STM_MAX_INDEXES;
}

grove_status grove_stm_sig_copy(grove_stm_sig *dst, const grove_stm_sig *src)
{
    if (!dst || !src || (src->n_indexes && !src->indexes) || too_many_indexes(src->n_indexes))
        return GROVE_ERR_INVALID_ARG;
    grove_stm_sig t = *src;
    t.indexes = NULL;
    if (src->n_indexes) {
        t.indexes = malloc(src->n_indexes * sizeof *t.indexes);
        if (!t.indexes)
            return GROVE_ERR_NOMEM;
        memcpy(t.indexes, src->indexes, src->n_indexes * sizeof *t.indexes);
    }
    *dst = t;
    return GROVE_OK;
}

size_t grove_stm_sig_encoded_bytes(const grove_stm_sig *sig)
{
    return sig ? 8 + 8 * sig->n_indexes + GROVE_STM_SIGMA_BYTES + 8 : 0;
}

grove_status grove_stm_sig_to_bytes(const grove_stm_sig *sig, uint8_t *out, size_t out_cap,
                                    size_t *out_len)
{
    if (!sig || !out_len || (sig->n_indexes && !sig->indexes) || too_many_indexes(sig->n_indexes) ||
        (!out && out_cap))
        return GROVE_ERR_INVALID_ARG;
    *out_len = grove_stm_sig_encoded_bytes(sig);
    if (out_cap < *out_len)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    grove_store64_be(out, sig->n_indexes);
    out += 8;
    for (size_t i = 0; i < sig->n_indexes; i++, out += 8)
        grove_store64_be(out, sig->indexes[i]);
    memcpy(out, sig->sigma, GROVE_STM_SIGMA_BYTES);
    grove_store64_be(out + GROVE_STM_SIGMA_BYTES, sig->signer_index);
    return GROVE_OK;
}

int stm_sig_parse(grove_stm_sig *sig, const uint8_t *in, size_t in_len)
{
    size_t len = in_len;
    memset(sig, 0, sizeof *sig);
    if (len < 8 + GROVE_STM_SIGMA_BYTES + 8)
        return GROVE_ERR_ENCODING;
    uint64_t n = grove_load64_be(in);
    if (n > STM_MAX_INDEXES || n != (len - 64) / 8 || (len - 64) % 8 != 0)
        return GROVE_ERR_ENCODING;
    const uint8_t *sg = in + 8 + 8 * n;
    grove_stm_sig t;
    t.indexes = malloc((size_t)(n ? n : 1) * sizeof *t.indexes);
    if (!t.indexes)
        return GROVE_ERR_NOMEM;
    t.n_indexes = (size_t)n;
    for (size_t i = 0; i < n; i++)
        t.indexes[i] = grove_load64_be(in + 8 + 8 * i);
    memcpy(t.sigma, sg, GROVE_STM_SIGMA_BYTES);
    t.signer_index = grove_load64_be(sg + GROVE_STM_SIGMA_BYTES);
    *sig = t;
    return GROVE_OK;
}

grove_status grove_stm_sig_from_bytes(grove_stm_sig *sig, const uint8_t *in, size_t in_len)
{
    if (!sig || (!in && in_len))
        return GROVE_ERR_INVALID_ARG;
    grove_stm_sig t;
    int rc = stm_sig_parse(&t, in, in_len);
    if (rc != GROVE_OK) {
        memset(sig, 0, sizeof *sig);
        return (grove_status)rc;
    }
    grove_bls_g1 pt;
    if (grove_bls_g1_from_bytes(&pt, t.sigma, GROVE_STM_SIGMA_BYTES, GROVE_BLS_NO_INFINITY) !=
        GROVE_OK) {
        grove_stm_sig_clear(&t);
        memset(sig, 0, sizeof *sig);
        return GROVE_ERR_ENCODING;
    }
    *sig = t;
    return GROVE_OK;
}

/* ---- signer ---------------------------------------------------------------------------------- */

struct grove_stm_signer {
    grove_bls_sk sk;
    grove_stm_params params;
    uint64_t index, stake, total;
    uint8_t root[GROVE_STM_ROOT_BYTES];
    stm_lottery lot;
};

grove_status grove_stm_signer_new(const grove_stm_params *params, grove_stm_signer **signer,
                                  const uint8_t sk[GROVE_STM_SK_BYTES],
                                  const grove_stm_closed *closed)
{
    if (!signer || !params || !sk || !closed)
        return GROVE_ERR_INVALID_ARG;
    *signer = NULL;
    grove_status rc = grove_stm_params_check(params);
    if (rc != GROVE_OK)
        return rc;
    grove_stm_signer *s = calloc(1, sizeof *s);
    if (!s)
        return GROVE_ERR_NOMEM;
    uint8_t vk[GROVE_STM_VK_BYTES];
    grove_bls_g2 g2, v;
    if ((rc = grove_bls_sk_from_bytes(&s->sk, sk)) != GROVE_OK)
        goto fail;
    grove_bls_g2_generator(&g2);
    grove_bls_g2_mul_sk(&v, &g2, &s->sk);
    GROVE_DECLASSIFY(&v, sizeof v); /* the public key (affine), looked up in the registration */
    grove_bls_g2_to_bytes(&v, vk);
    if ((rc = grove_stm_closed_find(closed, &s->index, vk)) != GROVE_OK)
        goto fail;
    s->params = *params;
    s->total = closed->total;
    if ((rc = grove_stm_closed_entry(closed, NULL, &s->stake, s->index)) != GROVE_OK)
        goto fail;
    memcpy(s->root, closed->root, 32);
    if ((rc = stm_lottery_init(&s->lot, params->phi_f, s->stake, s->total)) != GROVE_OK)
        goto fail;
    *signer = s;
    grove_burn_stack();
    return GROVE_OK;
fail:
    grove_stm_signer_free(s);
    grove_burn_stack();
    return rc;
}

void grove_stm_signer_free(grove_stm_signer *s)
{
    if (!s)
        return;
    grove_wipe(s, sizeof *s);
    free(s);
}

uint64_t grove_stm_signer_index(const grove_stm_signer *s)
{
    return s ? s->index : 0;
}

uint64_t grove_stm_signer_stake(const grove_stm_signer *s)
{
    return s ? s->stake : 0;
}

uint8_t *stm_with_root(const uint8_t *msg, size_t len, const uint8_t root[32],
                       grove_blake2b_ctx *pre)
{
    if (len > SIZE_MAX - 32)
        return NULL;
    uint8_t *m = malloc(len + 32);
    if (!m)
        return NULL;
    if (len)
        memcpy(m, msg, len);
    memcpy(m + len, root, 32);
    stm_ev_prefix(pre, m, len + 32);
    return m;
}

grove_status grove_stm_sign(const grove_stm_signer *s, grove_stm_sig *sig, const uint8_t *msg,
                            size_t msg_len)
{
    if (!s || !sig || (!msg && msg_len))
        return GROVE_ERR_INVALID_ARG;
    memset(sig, 0, sizeof *sig);
    grove_blake2b_ctx pre;
    uint8_t *mr = stm_with_root(msg, msg_len, s->root, &pre);
    if (!mr)
        return GROVE_ERR_NOMEM;
    grove_bls_g1 sp;
    uint8_t sigma[GROVE_STM_SIGMA_BYTES];
    grove_status rc = grove_bls_sign_g1(&sp, mr, msg_len + 32, &s->sk, NULL, 0);
    if (rc == GROVE_OK)
        grove_bls_g1_to_bytes(&sp, sigma);
    grove_wipe(&sp, sizeof sp);
    grove_burn_stack();
    GROVE_DECLASSIFY(sigma, sizeof sigma); /* sigma is published with the signature */
    if (rc != GROVE_OK) {
        free(mr);
        return rc;
    }
    /* sigma is published from here on: the lottery works on public data only */
    free(mr);
    size_t cap = 16, n = 0;
    uint64_t *idx = malloc(cap * sizeof *idx);
    if (!idx)
        return GROVE_ERR_NOMEM;
    for (uint64_t i = 0; i < s->params.m; i++) {
        uint8_t ev[GROVE_STM_EV_BYTES];
        stm_ev(ev, &pre, i, sigma);
        int won = stm_lottery_decide(&s->lot, ev);
        if (won < 0) {
            free(idx);
            return (grove_status)won;
        }
        if (!won)
            continue;
        if (n == cap) {
            uint64_t *t = realloc(idx, 2 * cap * sizeof *idx);
            if (!t) {
                free(idx);
                return GROVE_ERR_NOMEM;
            }
            idx = t;
            cap *= 2;
        }
        idx[n++] = i;
    }
    if (n == 0) {
        free(idx);
        return GROVE_ERR_LOTTERY_LOST;
    }
    memcpy(sig->sigma, sigma, sizeof sigma);
    sig->signer_index = s->index;
    sig->n_indexes = n;
    sig->indexes = idx;
    return GROVE_OK;
}

/* ---- single-signature verification ---------------------------------------------------------- */

int stm_sig_check_lottery(const grove_stm_sig *sig, const grove_stm_params *params,
                          uint64_t stake, uint64_t total, const grove_blake2b_ctx *pre)
{
    stm_lottery lot;
    if (sig->n_indexes == 0)
        return GROVE_OK; /* vacuous (an aggregate then counts no index for it) */
    if (!sig->indexes)
        return GROVE_ERR_INVALID_ARG;
    if (stm_lottery_init(&lot, params->phi_f, stake, total) != GROVE_OK)
        return GROVE_ERR_LOTTERY_LOST;
    for (size_t i = 0; i < sig->n_indexes; i++) {
        uint64_t x = sig->indexes[i];
        if (x >= params->m || (i > 0 && x <= sig->indexes[i - 1]))
            return GROVE_ERR_LOTTERY_LOST;
        uint8_t ev[GROVE_STM_EV_BYTES];
        stm_ev(ev, pre, x, sig->sigma);
        int won = stm_lottery_decide(&lot, ev);
        if (won < 0)
            return (grove_status)won; /* out of memory: no verdict */
        if (!won)
            return GROVE_ERR_LOTTERY_LOST;
    }
    return GROVE_OK;
}

grove_status stm_verdict(grove_status reason)
{
    switch (reason) {
    case GROVE_ERR_LOTTERY_LOST:
    case GROVE_ERR_EXISTS:
    case GROVE_ERR_NOT_ENOUGH:
        return GROVE_ERR_VERIFY; /* reasons a well-formed signature does not verify */
    default:
        return reason;
    }
}

grove_status grove_stm_sig_verify_entry(const grove_stm_params *params, const grove_stm_sig *sig,
                                        const uint8_t *msg, size_t msg_len,
                                        const uint8_t vk[GROVE_STM_VK_BYTES], uint64_t stake,
                                        const grove_stm_avk *avk)
{
    return stm_verdict(stm_sig_verify_reason(params, sig, msg, msg_len, vk, stake, avk));
}

grove_status stm_sig_verify_reason(const grove_stm_params *params, const grove_stm_sig *sig,
                                   const uint8_t *msg, size_t msg_len,
                                   const uint8_t vk[GROVE_STM_VK_BYTES], uint64_t stake,
                                   const grove_stm_avk *avk)
{
    if (!sig || !params || !vk || !avk || (!msg && msg_len))
        return GROVE_ERR_INVALID_ARG;
    grove_status rc = grove_stm_params_check(params);
    if (rc != GROVE_OK)
        return rc;
    grove_bls_g2 v;
    grove_bls_g1 s;
    if (grove_bls_g2_from_bytes(&v, vk, 96, GROVE_BLS_NO_INFINITY) != GROVE_OK)
        return GROVE_ERR_ENCODING; /* the verification key: a configuration error */
    if (sig->n_indexes == 0)
        return GROVE_ERR_LOTTERY_LOST;
    if (grove_bls_g1_from_bytes(&s, sig->sigma, 48, GROVE_BLS_NO_INFINITY) != GROVE_OK)
        return GROVE_ERR_VERIFY; /* a malformed signature does not verify */
    grove_blake2b_ctx pre;
    uint8_t *mr = stm_with_root(msg, msg_len, avk->root, &pre);
    if (!mr)
        return GROVE_ERR_NOMEM;
    rc = stm_sig_check_lottery(sig, params, stake, avk->total_stake, &pre);
    if (rc == GROVE_OK)
        rc = grove_bls_verify_g1(&s, mr, msg_len + 32, &v, NULL, 0);
    free(mr);
    return rc;
}

grove_status grove_stm_sig_verify(const grove_stm_params *params, const grove_stm_sig *sig,
                                  const uint8_t *msg, size_t msg_len,
                                  const grove_stm_closed *closed)
{
    if (!sig || !closed)
        return GROVE_ERR_INVALID_ARG;
    uint8_t vk[96];
    uint64_t stake;
    if (grove_stm_closed_entry(closed, vk, &stake, sig->signer_index) != GROVE_OK)
        return GROVE_ERR_VERIFY;
    grove_stm_avk avk;
    grove_stm_closed_avk(closed, &avk);
    return grove_stm_sig_verify_entry(params, sig, msg, msg_len, vk, stake, &avk);
}
