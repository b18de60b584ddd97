/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * WOTS+ (w = 16), L-trees and node hashes, all on batches of lanes: every chain of one or more
 * key pairs advances one step per hash-layer call, and all node hashes of one tree level go
 * in one call.
 */
#include <stdlib.h>
#include <string.h>

#include "common/ct.h"
#include "common/util.h"
#include "xmss/xmss_int.h"

int xmss_lanes_alloc(xmss_lanes *w, const xmss_hash *x, size_t cap)
{
    memset(w, 0, sizeof *w);
    size_t n = x->n;
    size_t plen = xmss_prf_lane_len(x), klen = xmss_kg_lane_len(x);
    w->cap = cap;
    w->flen = xmss_f_lane_len(x);
    w->plen = plen > klen ? plen : klen;
    w->hlen = xmss_h_lane_len(x);
    /* keep every area 8-byte aligned */
#define AL(v) (((v) + 7) & ~(size_t)7)
    size_t sz_f = AL(cap * w->flen), sz_p = AL(3 * cap * w->plen), sz_h = AL(cap * w->hlen);
    size_t sz_m = AL(2 * cap * n), sz_n = AL(cap * n), sz_a = cap * sizeof(hs_adrs);
    size_t sz_ptr = 3 * cap * sizeof(uint8_t *), sz_act = cap * sizeof(uint32_t);
    size_t sz_p1 = cap * sizeof(uint8_t *);
#undef AL
    w->memlen = sz_f + sz_p + sz_h + sz_m + sz_n + sz_a + 2 * sz_ptr + 3 * sz_p1 + sz_act;
    uint8_t *m = malloc(w->memlen);
    if (m == NULL)
        return GROVE_ERR_NOMEM;
    w->mem = m;
    w->pin = (uint8_t **)(void *)m;
    w->pout = (uint8_t **)(void *)(m + sz_ptr);
    m += 2 * sz_ptr;
    w->o = (uint8_t **)(void *)m;
    w->l = (const uint8_t **)(void *)(m + sz_p1);
    w->r = (const uint8_t **)(void *)(m + 2 * sz_p1);
    m += 3 * sz_p1;
    w->f = m;
    m += sz_f;
    w->prf = m;
    m += sz_p;
    w->h = m;
    m += sz_h;
    w->mask = m;
    m += sz_m;
    w->nodes = m;
    m += sz_n;
    w->act = (uint32_t *)(void *)m;
    m += sz_act;
    w->adrs = (hs_adrs *)(void *)m;
    for (size_t i = 0; i < cap; i++) {
        xmss_f_lane_head(x, w->f + i * w->flen);
        xmss_h_lane_head(x, w->h + i * w->hlen);
    }
    return GROVE_OK;
}

void xmss_lanes_free(xmss_lanes *w)
{
    if (w->mem != NULL) {
        grove_wipe(w->mem, w->memlen);
        free(w->mem);
    }
    memset(w, 0, sizeof *w);
}

/* Value slot (the chain's current value) of F lane i. */
static uint8_t *fval(const xmss_hash *x, xmss_lanes *w, size_t i)
{
    return w->f + i * w->flen + x->pad + x->n;
}

/* Chain starts (PRF_keygen) of `count` chains; chain c uses the OTS address w->adrs[c]. */
static void chain_starts(const xmss_hash *x, xmss_lanes *w, size_t cnt)
{
    for (size_t c = 0; c < cnt; c++) {
        uint8_t *lane = w->prf + c * w->plen;
        xmss_kg_lane_head(x, lane);
        memcpy(lane + x->kg_pre + x->n, w->adrs[c].b, 32);
        w->pin[c] = lane;
        w->pout[c] = fval(x, w, c);
    }
    xmss_kg_many(x, w->pout, w->pin, cnt);
}

/* The shared chain core (hashsig/wots.h) on XMSS lanes: chain c is F lane c, stepped as
 * F(KEY, value ^ BM) with KEY and BM from its two PRF lanes (keyAndMask 0 and 1). */
typedef struct {
    const xmss_hash *x;
    xmss_lanes *w;
} xmss_chains;

static void chains_step(void *arg, const uint32_t *lane, size_t a, uint32_t pos)
{
    const xmss_chains *ch = arg;
    const xmss_hash *x = ch->x;
    xmss_lanes *w = ch->w;
    const unsigned n = x->n, pad = x->pad, hash = x->prf_pre + hs_adrs_hash_off(HS_ADRS_XMSS);
    for (size_t k = 0; k < a; k++) {
        size_t c = lane[k];
        uint8_t *l0 = w->prf + 2 * c * w->plen, *l1 = l0 + w->plen;
        grove_store32_be(l0 + hash, pos);
        grove_store32_be(l1 + hash, pos);
        w->pin[2 * k] = l0;
        w->pin[2 * k + 1] = l1;
        w->pout[2 * k] = w->f + c * w->flen + pad;
        w->pout[2 * k + 1] = w->mask + k * n;
    }
    xmss_prf_many(x, w->pout, w->pin, 2 * a);
    for (size_t k = 0; k < a; k++) {
        size_t c = lane[k];
        uint8_t *v = fval(x, w, c);
        const uint8_t *mk = w->mask + k * n;
        for (unsigned i = 0; i < n; i++)
            v[i] ^= mk[i];
        w->pin[k] = w->f + c * w->flen;
        w->pout[k] = v;
    }
    xmss_f_many(x, w->pout, w->pin, a);
}

static uint8_t *chains_value(void *arg, size_t lane)
{
    const xmss_chains *ch = arg;
    return fval(ch->x, ch->w, lane);
}

/*
 * Advance chain c (value in F lane c, address w->adrs[c]) from position from[c] to to[c];
 * from / to NULL mean 0 / 15.
 */
static void chains(const xmss_hash *x, xmss_lanes *w, size_t cnt, const uint8_t *from,
                   const uint8_t *to)
{
    static const hs_chain_ops ops = {chains_step, chains_value, NULL};
    const unsigned pre = x->prf_pre;
    for (size_t c = 0; c < cnt; c++) {
        uint8_t *l0 = w->prf + 2 * c * w->plen, *l1 = l0 + w->plen;
        hs_adrs a = w->adrs[c];
        xmss_prf_lane_head(x, l0);
        xmss_prf_lane_head(x, l1);
        hs_adrs_set_key_and_mask(&a, 0);
        memcpy(l0 + pre, a.b, 32);
        hs_adrs_set_key_and_mask(&a, 1);
        memcpy(l1 + pre, a.b, 32);
    }
    xmss_chains ch = {x, w};
    hs_chains_walk(&ops, &ch, x->n, x->wots.w, cnt, from, to, NULL, NULL, w->act);
}

void xmss_nodes(const xmss_hash *x, xmss_lanes *w, size_t cnt, uint8_t *const out[],
                const uint8_t *const left[], const uint8_t *const right[], const hs_adrs *adrs)
{
    if (x->x256) {
        xmss_x256_nodes(x, cnt, out, left, right, adrs);
        return;
    }
    const unsigned n = x->n, pad = x->pad, pre = x->prf_pre;
    for (size_t k = 0; k < cnt; k++) {
        hs_adrs a = adrs[k];
        for (unsigned km = 0; km < 3; km++) {
            uint8_t *l = w->prf + (3 * k + km) * w->plen;
            xmss_prf_lane_head(x, l);
            hs_adrs_set_key_and_mask(&a, km);
            memcpy(l + pre, a.b, 32);
            w->pin[3 * k + km] = l;
        }
        w->pout[3 * k] = w->h + k * w->hlen + pad;
        w->pout[3 * k + 1] = w->mask + 2 * k * n;
        w->pout[3 * k + 2] = w->mask + (2 * k + 1) * n;
    }
    xmss_prf_many(x, w->pout, w->pin, 3 * cnt);
    for (size_t k = 0; k < cnt; k++) {
        uint8_t *hl = w->h + k * w->hlen + pad + n;
        const uint8_t *m0 = w->mask + 2 * k * n, *m1 = m0 + n;
        for (unsigned i = 0; i < n; i++) {
            hl[i] = left[k][i] ^ m0[i];
            hl[n + i] = right[k][i] ^ m1[i];
        }
        w->pin[k] = w->h + k * w->hlen;
    }
    xmss_h_many(x, out, w->pin, cnt);
}

void xmss_tree_node(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree,
                    uint32_t height, uint32_t index, const uint8_t *left, const uint8_t *right,
                    uint8_t *out)
{
    hs_adrs a;
    uint8_t *o[1] = {out};
    const uint8_t *l[1] = {left}, *r[1] = {right};
    xmss_adrs_node(&a, layer, tree, height, index);
    xmss_nodes(x, w, 1, o, l, r, &a);
}

/*
 * L-trees of `cnt` key pairs whose chain ends (len each) are in w->nodes; leaf indices
 * leaf0 + b; out: cnt * n.
 */
static void ltrees(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree, uint32_t leaf0,
                   unsigned cnt, uint8_t *out)
{
    const unsigned n = x->n, len = x->p->len;
    uint8_t **o = w->o;
    const uint8_t **lf = w->l, **rt = w->r;
    unsigned m = len;
    for (unsigned level = 0; m > 1; level++) {
        unsigned pairs = m / 2;
        size_t k = 0;
        for (unsigned b = 0; b < cnt; b++) {
            uint8_t *nd = w->nodes + (size_t)b * len * n;
            for (unsigned i = 0; i < pairs; i++) {
                hs_adrs *a = &w->adrs[k];
                xmss_adrs_init(a, layer, tree, XMSS_ADRS_LTREE);
                hs_adrs_set_keypair(a, leaf0 + b);
                hs_adrs_set_tree_height(a, level);
                hs_adrs_set_tree_index(a, i);
                o[k] = nd + (size_t)i * n;
                lf[k] = nd + (size_t)(2 * i) * n;
                rt[k] = nd + (size_t)(2 * i + 1) * n;
                k++;
            }
        }
        xmss_nodes(x, w, k, o, lf, rt, w->adrs);
        if (m & 1)
            for (unsigned b = 0; b < cnt; b++) {
                uint8_t *nd = w->nodes + (size_t)b * len * n;
                memmove(nd + (size_t)pairs * n, nd + (size_t)(m - 1) * n, n);
            }
        m = pairs + (m & 1);
    }
    for (unsigned b = 0; b < cnt; b++)
        memcpy(out + (size_t)b * n, w->nodes + (size_t)b * len * n, n);
}

static void ots_addresses(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree,
                          uint32_t leaf0, unsigned cnt)
{
    const unsigned len = x->p->len;
    for (unsigned b = 0; b < cnt; b++)
        for (unsigned i = 0; i < len; i++) {
            hs_adrs *a = &w->adrs[(size_t)b * len + i];
            xmss_adrs_init(a, layer, tree, XMSS_ADRS_OTS);
            hs_adrs_set_keypair(a, leaf0 + b);
            hs_adrs_set_chain(a, i);
        }
}

/* Full chains of cnt key pairs: the cnt * len chain ends into pk (n bytes each, in order). */
static void full_chains(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree,
                        uint32_t leaf0, unsigned cnt, uint8_t *pk)
{
    const unsigned n = x->n;
    size_t nc = (size_t)cnt * x->p->len;
    ots_addresses(x, w, layer, tree, leaf0, cnt);
    if (x->x256) {
        for (size_t c = 0; c < nc; c++)
            w->o[c] = pk + c * n;
        xmss_x256_chains(x, w->adrs, nc, w->o);
        return;
    }
    chain_starts(x, w, nc);
    chains(x, w, nc, NULL, NULL);
    for (size_t c = 0; c < nc; c++)
        memcpy(pk + c * n, fval(x, w, c), n);
}

void xmss_leaves(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree, uint32_t leaf0,
                 unsigned cnt, uint8_t *out)
{
    full_chains(x, w, layer, tree, leaf0, cnt, w->nodes);
    ltrees(x, w, layer, tree, leaf0, cnt, out);
}

void xmss_wots_pk(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree, uint32_t leaf,
                  uint8_t *pk)
{
    full_chains(x, w, layer, tree, leaf, 1, pk);
}

void xmss_wots_sk0(const xmss_hash *x, uint32_t layer, uint64_t tree, uint32_t leaf, uint8_t *out)
{
    uint8_t lane[XMSS_MAX_PAD + 2 * XMSS_MAX_N + 32];
    uint8_t *lp[1] = {lane}, *op[1] = {out};
    hs_adrs a;
    xmss_adrs_init(&a, layer, tree, XMSS_ADRS_OTS);
    hs_adrs_set_keypair(&a, leaf);
    xmss_kg_lane_head(x, lane);
    memcpy(lane + x->kg_pre + x->n, a.b, 32);
    xmss_kg_many(x, op, lp, 1);
    grove_wipe(lane, sizeof lane);
}

void xmss_wots_sign(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree, uint32_t leaf,
                    const uint8_t *m, uint8_t *sig)
{
    const unsigned n = x->n, len = x->p->len;
    uint8_t digits[HS_WOTS_MAX_LEN];
    /* WOTS+ signs public values: a message digest (its randomizer r is in the signature) or a
     * subtree root (recomputed by every verifier); the chain lengths reveal them by design. */
    GROVE_DECLASSIFY(m, n);
    hs_wots_digits(&x->wots, m, digits);
    ots_addresses(x, w, layer, tree, leaf, 1);
    chain_starts(x, w, len);
    chains(x, w, len, NULL, digits);
    for (unsigned c = 0; c < len; c++)
        memcpy(sig + (size_t)c * n, fval(x, w, c), n);
}

void xmss_wots_leaf_from_sig(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree,
                             uint32_t leaf, const uint8_t *m, const uint8_t *sig, uint8_t *out)
{
    const unsigned n = x->n, len = x->p->len;
    uint8_t digits[HS_WOTS_MAX_LEN];
    hs_wots_digits(&x->wots, m, digits);
    ots_addresses(x, w, layer, tree, leaf, 1);
    for (unsigned c = 0; c < len; c++)
        memcpy(fval(x, w, c), sig + (size_t)c * n, n);
    chains(x, w, len, digits, NULL);
    for (unsigned c = 0; c < len; c++)
        memcpy(w->nodes + (size_t)c * n, fval(x, w, c), n);
    ltrees(x, w, layer, tree, leaf, 1, out);
}
