/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* WOTS+ with w = 16 (FIPS 205 section 5), batched over all chains of several key pairs. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "hash/keccak.h"
#include "sphincs/spx.h"

/* Key pairs processed together: count * len lanes hashed per call. */
#define WOTS_BATCH 8

void spx_wots_digits(unsigned n, const uint8_t *msg, uint8_t *digits)
{
    unsigned csum = 0;
    for (unsigned i = 0; i < n; i++) {
        digits[2 * i] = (uint8_t)(msg[i] >> 4);
        digits[2 * i + 1] = (uint8_t)(msg[i] & 15);
        csum += 30u - digits[2 * i] - digits[2 * i + 1];
    }
    csum <<= 4; /* (8 - (len2 * lg_w) % 8) % 8 = 4 */
    digits[2 * n] = (uint8_t)((csum >> 12) & 15);
    digits[2 * n + 1] = (uint8_t)((csum >> 8) & 15);
    digits[2 * n + 2] = (uint8_t)((csum >> 4) & 15);
}

static int gen_batch(const spx_ctx *c, const spx_adrs *base, uint32_t kp0, unsigned count,
                     uint8_t *pks, uint32_t sig_kp, const uint8_t *digits, uint8_t *sig)
{
    const unsigned n = c->n, len = 2 * n + 3;
    const size_t lane_len = c->pre + n, pk_lane_len = c->pre + (size_t)len * n;
    const size_t nl = (size_t)count * len;
    uint8_t *mem = malloc(nl * lane_len + count * pk_lane_len +
                          (nl + count) * 2 * sizeof(uint8_t *));
    if (mem == NULL)
        return GROVE_ERR_NOMEM;
    uint8_t *lanes = mem, *pk_lanes = mem + nl * lane_len;
    uint8_t **lp = (uint8_t **)(void *)(pk_lanes + count * pk_lane_len);
    uint8_t **op = lp + nl;
    uint8_t **pkl = op + nl, **pko = pkl + count;

    /* Secret chain starts: PRF under (WOTS_PRF, key pair, chain i, hash 0), in place. */
    spx_adrs a = *base;
    for (unsigned j = 0; j < count; j++) {
        for (unsigned i = 0; i < len; i++) {
            size_t l = (size_t)j * len + i;
            uint8_t *lane = lanes + l * lane_len;
            spx_adrs_set_type(&a, SPX_ADRS_WOTS_PRF);
            spx_adrs_set_keypair(&a, kp0 + j);
            spx_adrs_set_word2(&a, i);
            spx_lane_init(c, lane, &a);
            memcpy(lane + c->pre, c->sk_seed, n);
            lp[l] = lane;
            op[l] = lane + c->pre;
        }
    }
    spx_thash_lanes(c, 1, lp, op, nl);

    /* Chains: 15 steps of F under (WOTS_HASH, key pair, chain i, hash j), in place. */
    for (unsigned j = 0; j < count; j++) {
        for (unsigned i = 0; i < len; i++) {
            spx_adrs_set_type(&a, SPX_ADRS_WOTS_HASH);
            spx_adrs_set_keypair(&a, kp0 + j);
            spx_adrs_set_word2(&a, i);
            spx_lane_init(c, lanes + ((size_t)j * len + i) * lane_len, &a);
        }
    }
    int capture = sig != NULL && sig_kp >= kp0 && sig_kp - kp0 < count;
    /* The 15 steps of every chain in one fused walk: chain values stay in registers, and the
     * chains of the signing key pair hand over their values at the signed digits. */
    uint8_t cap[WOTS_BATCH * SPX_MAX_LEN];
    uint8_t *capout[WOTS_BATCH * SPX_MAX_LEN];
    memset(cap, 0xFF, nl);
    if (capture) {
        size_t first = (size_t)(sig_kp - kp0) * len;
        for (unsigned i = 0; i < len; i++) {
            cap[first + i] = digits[i];
            capout[first + i] = sig + (size_t)i * n;
        }
    }
    if (c->sha2)
        grove_sha256_chains(lp, c->pre, n, c->w3_off, 0, 15, nl, capture ? cap : NULL,
                            capture ? capout : NULL, &c->seeded256);
    else
        grove_shake256_chains(lp, c->pre, n, c->w3_off, 0, 15, nl, capture ? cap : NULL,
                              capture ? capout : NULL);

    /* Public keys: T_len over the chain ends under (WOTS_PK, key pair). */
    for (unsigned j = 0; j < count; j++) {
        uint8_t *pl = pk_lanes + j * pk_lane_len;
        spx_adrs_set_type(&a, SPX_ADRS_WOTS_PK);
        spx_adrs_set_keypair(&a, kp0 + j);
        spx_lane_init(c, pl, &a);
        for (unsigned i = 0; i < len; i++)
            memcpy(pl + c->pre + (size_t)i * n, lanes + ((size_t)j * len + i) * lane_len + c->pre,
                   n);
        pkl[j] = pl;
        pko[j] = pks + (size_t)j * n;
    }
    spx_thash_lanes(c, len, pkl, pko, count);

    grove_wipe(mem, nl * lane_len + count * pk_lane_len);
    free(mem);
    return GROVE_OK;
}

int spx_wots_gen_pks(const spx_ctx *c, const spx_adrs *base, uint32_t kp0, unsigned count,
                     uint8_t *pks, uint32_t sig_kp, const uint8_t *digits, uint8_t *sig)
{
    for (unsigned done = 0; done < count; done += WOTS_BATCH) {
        unsigned b = count - done < WOTS_BATCH ? count - done : WOTS_BATCH;
        int r = gen_batch(c, base, kp0 + done, b, pks + (size_t)done * c->n, sig_kp, digits, sig);
        if (r != GROVE_OK)
            return r;
    }
    return GROVE_OK;
}

int spx_wots_pk_from_sig(const spx_ctx *c, const spx_adrs *base, uint32_t kp,
                         const uint8_t *sig, const uint8_t *digits, uint8_t *pk)
{
    const unsigned n = c->n, len = 2 * n + 3;
    const size_t lane_len = c->pre + n;
    uint8_t lanes[SPX_MAX_LEN][SPX_MAX_PRE + SPX_MAX_N];
    uint8_t *lp[SPX_MAX_LEN], *op[SPX_MAX_LEN];
    uint8_t pk_lane[SPX_MAX_PRE + SPX_MAX_LEN * SPX_MAX_N];
    spx_adrs a = *base;
    spx_adrs_set_type(&a, SPX_ADRS_WOTS_HASH);
    spx_adrs_set_keypair(&a, kp);
    for (unsigned i = 0; i < len; i++) {
        spx_adrs_set_word2(&a, i);
        spx_lane_init(c, lanes[i], &a);
        memcpy(lanes[i] + c->pre, sig + (size_t)i * n, n);
    }
    /* Step position by position; chain i takes part from position digits[i] on. */
    for (unsigned step = 0; step < 15; step++) {
        size_t cnt = 0;
        for (unsigned i = 0; i < len; i++) {
            if (digits[i] <= step) {
                spx_lane_set_word3(c, lanes[i], step);
                lp[cnt] = lanes[i];
                op[cnt] = lanes[i] + c->pre;
                cnt++;
            }
        }
        if (cnt)
            spx_thash_lanes(c, 1, lp, op, cnt);
    }
    spx_adrs_set_type(&a, SPX_ADRS_WOTS_PK);
    spx_adrs_set_keypair(&a, kp);
    spx_lane_init(c, pk_lane, &a);
    for (unsigned i = 0; i < len; i++)
        memcpy(pk_lane + c->pre + (size_t)i * n, lanes[i] + c->pre, n);
    uint8_t *pl[1] = {pk_lane}, *po[1] = {pk};
    spx_thash_lanes(c, len, pl, po, 1);
    (void)lane_len;
    return GROVE_OK;
}
