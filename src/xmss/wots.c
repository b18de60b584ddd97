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
    size_t sz_m = AL(2 * cap * n), sz_n = AL(cap * n), sz_a = cap * 32;
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
    w->adrs = m;
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

void xmss_wots_digits(unsigned n, unsigned len, const uint8_t *msg, uint8_t *digits)
{
    unsigned csum = 0;
    for (unsigned i = 0; i < n; i++) {
        digits[2 * i] = (uint8_t)(msg[i] >> 4);
        digits[2 * i + 1] = (uint8_t)(msg[i] & 15);
        csum += 30u - digits[2 * i] - digits[2 * i + 1];
    }
    /* len2 = 3 digits: csum << 4 as two bytes, the top three nibbles */
    csum <<= 4;
    digits[2 * n] = (uint8_t)((csum >> 12) & 15);
    digits[2 * n + 1] = (uint8_t)((csum >> 8) & 15);
    digits[2 * n + 2] = (uint8_t)((csum >> 4) & 15);
    (void)len;
}

/* Value slot (the chain's current value) of F lane i. */
static uint8_t *fval(const xmss_hash *x, xmss_lanes *w, size_t i)
{
    return w->f + i * w->flen + x->pad + x->n;
}

/* Chain starts (PRF_keygen) of `count` chains; chain c uses the OTS address at w->adrs + 32c. */
static void chain_starts(const xmss_hash *x, xmss_lanes *w, size_t cnt)
{
    for (size_t c = 0; c < cnt; c++) {
        uint8_t *lane = w->prf + c * w->plen;
        xmss_kg_lane_head(x, lane);
        memcpy(lane + x->kg_pre + x->n, w->adrs + 32 * c, 32);
        w->pin[c] = lane;
        w->pout[c] = fval(x, w, c);
    }
    xmss_kg_many(x, w->pout, w->pin, cnt);
}

/*
 * Advance chain c (value in F lane c, address at w->adrs + 32c) through the steps
 * [start[c], stop[c]); start/stop NULL mean 0 / 15.
 */
static void chains(const xmss_hash *x, xmss_lanes *w, size_t cnt, const uint8_t *start,
                   const uint8_t *stop)
{
    const unsigned n = x->n, pad = x->pad, pre = x->prf_pre;
    /* two PRF lanes per chain: keyAndMask 0 (key) and 1 (mask) */
    for (size_t c = 0; c < cnt; c++) {
        uint8_t *l0 = w->prf + 2 * c * w->plen, *l1 = l0 + w->plen;
        xmss_prf_lane_head(x, l0);
        memcpy(l0 + pre, w->adrs + 32 * c, 32);
        xmss_adrs_word(l0 + pre, 7, 0);
        xmss_prf_lane_head(x, l1);
        memcpy(l1 + pre, w->adrs + 32 * c, 32);
        xmss_adrs_word(l1 + pre, 7, 1);
    }
    for (unsigned s = 0; s < 15; s++) {
        size_t a = 0;
        for (size_t c = 0; c < cnt; c++) {
            unsigned b = start ? start[c] : 0, e = stop ? stop[c] : 15;
            if (b <= s && s < e)
                w->act[a++] = (uint32_t)c;
        }
        if (a == 0)
            continue;
        for (size_t k = 0; k < a; k++) {
            size_t c = w->act[k];
            uint8_t *l0 = w->prf + 2 * c * w->plen, *l1 = l0 + w->plen;
            xmss_adrs_word(l0 + pre, 6, s);
            xmss_adrs_word(l1 + pre, 6, s);
            w->pin[2 * k] = l0;
            w->pin[2 * k + 1] = l1;
            w->pout[2 * k] = w->f + c * w->flen + pad;
            w->pout[2 * k + 1] = w->mask + k * n;
        }
        xmss_prf_many(x, w->pout, w->pin, 2 * a);
        for (size_t k = 0; k < a; k++) {
            size_t c = w->act[k];
            uint8_t *v = fval(x, w, c);
            const uint8_t *mk = w->mask + k * n;
            for (unsigned i = 0; i < n; i++)
                v[i] ^= mk[i];
            w->pin[k] = w->f + c * w->flen;
            w->pout[k] = v;
        }
        xmss_f_many(x, w->pout, w->pin, a);
    }
}

void xmss_nodes(const xmss_hash *x, xmss_lanes *w, size_t cnt, uint8_t *const out[],
                const uint8_t *const left[], const uint8_t *const right[], const uint8_t *adrs)
{
    const unsigned n = x->n, pad = x->pad, pre = x->prf_pre;
    for (size_t k = 0; k < cnt; k++) {
        for (unsigned km = 0; km < 3; km++) {
            uint8_t *l = w->prf + (3 * k + km) * w->plen;
            xmss_prf_lane_head(x, l);
            memcpy(l + pre, adrs + 32 * k, 32);
            xmss_adrs_word(l + pre, 7, km);
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
    uint8_t a[32];
    uint8_t *o[1] = {out};
    const uint8_t *l[1] = {left}, *r[1] = {right};
    xmss_adrs(a, layer, tree, XMSS_ADRS_TREE, 0, height, index, 0);
    xmss_nodes(x, w, 1, o, l, r, a);
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
                xmss_adrs(w->adrs + 32 * k, layer, tree, XMSS_ADRS_LTREE, leaf0 + b, level, i, 0);
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
        for (unsigned i = 0; i < len; i++)
            xmss_adrs(w->adrs + 32 * ((size_t)b * len + i), layer, tree, XMSS_ADRS_OTS, leaf0 + b, i,
                      0, 0);
}

/* Full chains of cnt key pairs: chain ends left in the F lanes. */
static void full_chains(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree,
                        uint32_t leaf0, unsigned cnt)
{
    size_t nc = (size_t)cnt * x->p->len;
    ots_addresses(x, w, layer, tree, leaf0, cnt);
    chain_starts(x, w, nc);
    chains(x, w, nc, NULL, NULL);
}

void xmss_leaves(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree, uint32_t leaf0,
                 unsigned cnt, uint8_t *out)
{
    const unsigned n = x->n;
    size_t nc = (size_t)cnt * x->p->len;
    full_chains(x, w, layer, tree, leaf0, cnt);
    for (size_t c = 0; c < nc; c++)
        memcpy(w->nodes + c * n, fval(x, w, c), n);
    ltrees(x, w, layer, tree, leaf0, cnt, out);
}

void xmss_wots_pk(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree, uint32_t leaf,
                  uint8_t *pk)
{
    full_chains(x, w, layer, tree, leaf, 1);
    for (unsigned c = 0; c < x->p->len; c++)
        memcpy(pk + (size_t)c * x->n, fval(x, w, c), x->n);
}

void xmss_wots_sk0(const xmss_hash *x, uint32_t layer, uint64_t tree, uint32_t leaf, uint8_t *out)
{
    uint8_t lane[XMSS_MAX_PAD + 2 * XMSS_MAX_N + 32];
    uint8_t *lp[1] = {lane}, *op[1] = {out};
    xmss_kg_lane_head(x, lane);
    xmss_adrs(lane + x->kg_pre + x->n, layer, tree, XMSS_ADRS_OTS, leaf, 0, 0, 0);
    xmss_kg_many(x, op, lp, 1);
    grove_wipe(lane, sizeof lane);
}

void xmss_wots_sign(const xmss_hash *x, xmss_lanes *w, uint32_t layer, uint64_t tree, uint32_t leaf,
                    const uint8_t *m, uint8_t *sig)
{
    const unsigned n = x->n, len = x->p->len;
    uint8_t digits[XMSS_MAX_LEN];
    /* WOTS+ signs public values: a message digest (its randomizer r is in the signature) or a
     * subtree root (recomputed by every verifier); the chain lengths reveal them by design. */
    GROVE_DECLASSIFY(m, n);
    xmss_wots_digits(n, len, m, digits);
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
    uint8_t digits[XMSS_MAX_LEN];
    xmss_wots_digits(n, len, m, digits);
    ots_addresses(x, w, layer, tree, leaf, 1);
    for (unsigned c = 0; c < len; c++)
        memcpy(fval(x, w, c), sig + (size_t)c * n, n);
    chains(x, w, len, digits, NULL);
    for (unsigned c = 0; c < len; c++)
        memcpy(w->nodes + (size_t)c * n, fval(x, w, c), n);
    ltrees(x, w, layer, tree, leaf, 1, out);
}
