/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * WOTS+ with w = 16 (FIPS 205 section 5), batched over all chains of several key pairs: the
 * chains are walked by the shared core (hashsig/wots.h) on SPHINCS+ lane buffers.
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "hash/keccak.h"
#include "sphincs/spx.h"

/* Key pairs processed together: count * len lanes hashed per call. */
#define WOTS_BATCH 8

/* The shared chain core (hashsig/wots.h) on lane buffers: value at lane + pre. */
typedef struct {
    const spx_ctx *c;
    uint8_t *const *lanes;
    int hash_follows; /* 1: the ADRS hash word is set to the chain position before each step */
    uint8_t **in, **out;
} spx_chains;

static void chains_step(void *arg, const uint32_t *lane, size_t count, uint32_t pos)
{
    spx_chains *s = arg;
    const size_t hash_off = s->c->hash_off;
    for (size_t k = 0; k < count; k++) {
        uint8_t *l = s->lanes[lane[k]];
        if (s->hash_follows)
            grove_store32_be(l + hash_off, pos);
        s->in[k] = l;
        s->out[k] = l + s->c->pre;
    }
    spx_thash_lanes(s->c, 1, s->in, s->out, count);
}

static uint8_t *chains_value(void *arg, size_t lane)
{
    spx_chains *s = arg;
    return s->lanes[lane] + s->c->pre;
}

/* Every chain from 0 to the end in one call of the hash layer's fused chain kernels. */
static void chains_walk_all(void *arg, size_t count, unsigned steps, const uint8_t *cap,
                            uint8_t *const capout[])
{
    spx_chains *s = arg;
    const spx_ctx *c = s->c;
    if (c->sha2)
        grove_sha256_chains(s->lanes, c->pre, c->n, c->hash_off, 0, steps, count, cap, capout,
                            &c->seeded256);
    else
        grove_shake256_chains(s->lanes, c->pre, c->n, c->hash_off, 0, steps, count, cap, capout);
}

/*
 * Every chain from its own position to the end (verification) in the fused chain kernels,
 * the lanes ordered by their first position so that each kernel call wastes few steps.
 */
static int chains_walk_from(const spx_chains *s, size_t count, const uint8_t *from,
                            unsigned last)
{
    const spx_ctx *c = s->c;
    uint8_t *sorted[SPX_CHAINS_MAX], begin[SPX_CHAINS_MAX];
    size_t first[17] = {0};
    if (count > SPX_CHAINS_MAX || last > 15)
        return 0;
    for (size_t i = 0; i < count; i++) {
        if (from[i] > last)
            return 0;
        first[from[i] + 1]++;
    }
    for (unsigned v = 1; v <= 16; v++)
        first[v] += first[v - 1];
    for (size_t i = 0; i < count; i++) {
        size_t at = first[from[i]]++;
        sorted[at] = s->lanes[i];
        begin[at] = from[i];
    }
    if (c->sha2)
        return grove_sha256_chains_from(sorted, c->pre, c->n, c->hash_off, begin, last, count,
                                        &c->seeded256);
    return grove_shake256_chains_from(sorted, c->pre, c->n, c->hash_off, begin, last, count);
}

void spx_chains_walk(const spx_ctx *c, uint8_t *const lanes[], size_t count, int hash_follows,
                     const uint8_t *from, const uint8_t *to, const uint8_t *cap,
                     uint8_t *const capout[])
{
    static const hs_chain_ops fused = {chains_step, chains_value, chains_walk_all};
    static const hs_chain_ops stepped = {chains_step, chains_value, NULL};
    uint8_t *in[SPX_CHAINS_MAX], *out[SPX_CHAINS_MAX];
    uint32_t idx[SPX_CHAINS_MAX];
    spx_chains s = {c, lanes, hash_follows, in, out};
    for (size_t done = 0; done < count; done += SPX_CHAINS_MAX) {
        size_t m = count - done < SPX_CHAINS_MAX ? count - done : SPX_CHAINS_MAX;
        s.lanes = lanes + done;
        /* verification: every chain from its own position to the end, fused if possible */
        if (hash_follows && from != NULL && to == NULL && cap == NULL &&
            chains_walk_from(&s, m, from + done, c->wots.w - 1))
            continue;
        hs_chains_walk(hash_follows ? &fused : &stepped, &s, c->n, c->wots.w, m,
                       from ? from + done : NULL, to ? to + done : NULL, cap ? cap + done : NULL,
                       capout ? capout + done : NULL, idx);
    }
}

static int gen_batch(const spx_ctx *c, const hs_adrs *base, uint32_t kp0, unsigned count,
                     uint8_t *pks, uint32_t sig_kp, const uint8_t *digits, uint8_t *sig)
{
    const unsigned n = c->n, len = c->wots.len;
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
    hs_adrs a = *base;
    for (unsigned j = 0; j < count; j++) {
        hs_adrs_set_type(&a, SPX_ADRS_WOTS_PRF);
        hs_adrs_set_keypair(&a, kp0 + j);
        for (unsigned i = 0; i < len; i++) {
            size_t l = (size_t)j * len + i;
            uint8_t *lane = lanes + l * lane_len;
            hs_adrs_set_chain(&a, i);
            spx_lane_init(c, lane, &a);
            memcpy(lane + c->pre, c->sk_seed, n);
            lp[l] = lane;
            op[l] = lane + c->pre;
        }
    }
    spx_thash_lanes(c, 1, lp, op, nl);

    /* Chains: 15 steps of F under (WOTS_HASH, key pair, chain i, hash j), in place. */
    for (unsigned j = 0; j < count; j++) {
        hs_adrs_set_type(&a, SPX_ADRS_WOTS_HASH);
        hs_adrs_set_keypair(&a, kp0 + j);
        for (unsigned i = 0; i < len; i++) {
            hs_adrs_set_chain(&a, i);
            spx_lane_init(c, lanes + ((size_t)j * len + i) * lane_len, &a);
        }
    }
    /* All chains walked together; those of the signing key pair hand over their values at
     * the signed digits on the way. */
    int capture = sig != NULL && sig_kp >= kp0 && sig_kp - kp0 < count;
    uint8_t cap[WOTS_BATCH * SPX_MAX_LEN];
    uint8_t *capout[WOTS_BATCH * SPX_MAX_LEN];
    memset(cap, HS_NO_CAPTURE, nl);
    if (capture) {
        size_t first = (size_t)(sig_kp - kp0) * len;
        for (unsigned i = 0; i < len; i++) {
            cap[first + i] = digits[i];
            capout[first + i] = sig + (size_t)i * n;
        }
    }
    spx_chains_walk(c, lp, nl, 1, NULL, NULL, capture ? cap : NULL, capture ? capout : NULL);

    /* Public keys: T_len over the chain ends under (WOTS_PK, key pair). */
    for (unsigned j = 0; j < count; j++) {
        uint8_t *pl = pk_lanes + j * pk_lane_len;
        hs_adrs_set_type(&a, SPX_ADRS_WOTS_PK);
        hs_adrs_set_keypair(&a, kp0 + j);
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

int spx_wots_gen_pks(const spx_ctx *c, const hs_adrs *base, uint32_t kp0, unsigned count,
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

int spx_wots_pk_from_sig(const spx_ctx *c, const hs_adrs *base, uint32_t kp,
                         const uint8_t *sig, const uint8_t *digits, uint8_t *pk)
{
    const unsigned n = c->n, len = c->wots.len;
    uint8_t lanes[SPX_MAX_LEN][SPX_MAX_PRE + SPX_MAX_N];
    uint8_t *lp[SPX_MAX_LEN];
    uint8_t pk_lane[SPX_MAX_PRE + SPX_MAX_LEN * SPX_MAX_N];
    hs_adrs a = *base;
    hs_adrs_set_type(&a, SPX_ADRS_WOTS_HASH);
    hs_adrs_set_keypair(&a, kp);
    for (unsigned i = 0; i < len; i++) {
        hs_adrs_set_chain(&a, i);
        spx_lane_init(c, lanes[i], &a);
        memcpy(lanes[i] + c->pre, sig + (size_t)i * n, n);
        lp[i] = lanes[i];
    }
    /* Chain i from position digits[i] to the end, all chains at one position together. */
    spx_chains_walk(c, lp, len, 1, digits, NULL, NULL, NULL);
    hs_adrs_set_type(&a, SPX_ADRS_WOTS_PK);
    hs_adrs_set_keypair(&a, kp);
    spx_lane_init(c, pk_lane, &a);
    for (unsigned i = 0; i < len; i++)
        memcpy(pk_lane + c->pre + (size_t)i * n, lanes[i] + c->pre, n);
    uint8_t *pl[1] = {pk_lane}, *po[1] = {pk};
    spx_thash_lanes(c, len, pl, po, 1);
    return GROVE_OK;
}
