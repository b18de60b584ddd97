/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The node cache ("cached subtrees" traversal).
 *
 * Every tree (one per layer) is cut into levels of heights [lo, hi). For the subtree of each
 * level that contains the current leaf, the cache keeps all its nodes at heights lo..hi-1, so
 * an authentication path is a set of lookups. The next subtree of every level is built while
 * the current one is in use, one leaf each time the layer's leaf index moves (treehash with a
 * stack); it is complete exactly when the current one is used up, and then they swap. The top
 * level's "next subtree" is the next tree of the layer. The top level of the top layer never
 * changes. Per signature this costs at most one leaf per level of each layer whose leaf index
 * moves (XMSS with h <= 10: none at all).
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "xmss/xmss_int.h"

unsigned xmss_levels(unsigned hp, unsigned level_max, unsigned *lo, unsigned *hi)
{
    if (level_max == 0)
        level_max = 10;
    unsigned L = (hp + level_max - 1) / level_max;
    if (L == 0)
        L = 1;
    if (L > XMSS_MAX_LEVELS)
        L = XMSS_MAX_LEVELS;
    unsigned base = hp / L, extra = hp % L, h = 0;
    for (unsigned i = 0; i < L; i++) {
        unsigned b = base + (i >= L - extra ? 1 : 0);
        lo[i] = h;
        h += b;
        hi[i] = h;
    }
    return L;
}

/* Offset (in nodes) of height u inside a level's node array. */
static size_t off(const xmss_level *L, unsigned u)
{
    return ((size_t)2 << (L->hi - L->lo)) - ((size_t)2 << (L->hi - u));
}

static size_t level_bytes(const xmss_level *L, unsigned n)
{
    size_t b = L->nnodes * n;
    if (L->has_next)
        b += L->nnodes * n + (size_t)(L->hi + 1) * n;
    return b;
}

static void layout(xmss_trav *t, const grove_xmss_params *p)
{
    memset(t, 0, sizeof *t);
    t->p = p;
    t->d = p->d;
    for (unsigned j = 0; j < p->d; j++) {
        unsigned lo[XMSS_MAX_LEVELS], hi[XMSS_MAX_LEVELS];
        xmss_layer *ly = &t->ly[j];
        ly->nlevels = xmss_levels(p->hp, p->level_max, lo, hi);
        for (unsigned i = 0; i < ly->nlevels; i++) {
            xmss_level *L = &ly->lv[i];
            L->lo = lo[i];
            L->hi = hi[i];
            L->top = hi[i] == p->hp;
            L->has_next = !(L->top && j == p->d - 1u);
            L->nnodes = ((size_t)2 << (hi[i] - lo[i])) - 2;
        }
    }
}

int xmss_trav_alloc(xmss_trav *t, const grove_xmss_params *p)
{
    layout(t, p);
    const unsigned n = p->n;
    size_t total = 0;
    for (unsigned j = 0; j < t->d; j++) {
        total += n + (j ? (size_t)p->len * n : 0);
        for (unsigned i = 0; i < t->ly[j].nlevels; i++)
            total += level_bytes(&t->ly[j].lv[i], n);
    }
    t->mem = calloc(1, total);
    if (t->mem == NULL)
        return GROVE_ERR_NOMEM;
    t->memlen = total;
    uint8_t *m = t->mem;
    for (unsigned j = 0; j < t->d; j++) {
        xmss_layer *ly = &t->ly[j];
        ly->root = m;
        m += n;
        if (j) {
            ly->wots_sig = m;
            m += (size_t)p->len * n;
        }
        for (unsigned i = 0; i < ly->nlevels; i++) {
            xmss_level *L = &ly->lv[i];
            L->cur = m;
            m += L->nnodes * n;
            if (L->has_next) {
                L->nxt = m;
                m += L->nnodes * n;
                L->stack = m;
                m += (size_t)(L->hi + 1) * n;
            }
        }
    }
    return GROVE_OK;
}

void xmss_trav_free(xmss_trav *t)
{
    if (t->mem != NULL) {
        grove_wipe(t->mem, t->memlen);
        free(t->mem);
    }
    memset(t, 0, sizeof *t);
}

/* Whether level L of layer j builds a next subtree now (it exists and starts in range). */
static int next_ok(const xmss_trav *t, unsigned j, const xmss_level *L)
{
    const grove_xmss_params *p = t->p;
    unsigned sh = p->hp * j;
    uint64_t nsub = (uint64_t)1 << (p->h - sh - L->hi);
    if (!L->has_next || L->cur_idx + 1 >= nsub)
        return 0;
    return ((L->cur_idx + 1) << (L->hi + sh)) < t->range_end;
}

static unsigned popcount64(uint64_t v)
{
    unsigned c = 0;
    for (; v; v &= v - 1)
        c++;
    return c;
}

/* ---- positioning the cache at any index ------------------------------------------------------ */

typedef struct {
    xmss_trav *t;
    uint8_t fill_cur[XMSS_MAX_D][XMSS_MAX_LEVELS];
    uint8_t fill_nxt[XMSS_MAX_D][XMSS_MAX_LEVELS];
} init_rec;

static void record(void *arg, unsigned layer, unsigned height, uint64_t g, const uint8_t *node)
{
    init_rec *r = arg;
    xmss_layer *ly = &r->t->ly[layer];
    const unsigned n = r->t->p->n;
    for (unsigned i = 0; i < ly->nlevels; i++) {
        xmss_level *L = &ly->lv[i];
        if (height >= L->hi)
            continue;
        uint64_t sub = g >> (L->hi - height);
        if (height >= L->lo) {
            size_t pos = off(L, height) + (size_t)(g & (((uint64_t)1 << (L->hi - height)) - 1));
            if (r->fill_cur[layer][i] && sub == L->cur_idx)
                memcpy(L->cur + pos * n, node, n);
            if (r->fill_nxt[layer][i] && sub == L->cur_idx + 1 &&
                ((g + 1) << height) <= ((L->cur_idx + 1) << L->hi) + L->nxt_done)
                memcpy(L->nxt + pos * n, node, n);
        }
        if (r->fill_nxt[layer][i] && sub == L->cur_idx + 1 && ((L->nxt_done >> height) & 1)) {
            uint64_t start = (L->nxt_done >> (height + 1)) << (height + 1);
            if ((g << height) == ((L->cur_idx + 1) << L->hi) + start) {
                unsigned slot = popcount64(L->nxt_done >> (height + 1));
                memcpy(L->stack + (size_t)slot * n, node, n);
                L->stack_h[slot] = (uint8_t)height;
            }
        }
    }
}

static int contained(const xmss_job *jobs, size_t nj, unsigned layer, unsigned height, uint64_t g)
{
    for (size_t k = 0; k < nj; k++)
        if (jobs[k].layer == layer && jobs[k].height >= height &&
            (g >> (jobs[k].height - height)) == jobs[k].gidx)
            return 1;
    return 0;
}

int xmss_trav_init(xmss_trav *t, const xmss_hash *x, uint64_t pos, uint64_t range_end,
                   const xmss_trav *src, const grove_xmss_opts *opts)
{
    const grove_xmss_params *p = t->p;
    const unsigned n = p->n, hp = p->hp;
    if (src != NULL && (src->p != p || src->pos >= src->range_end))
        src = NULL;
    t->pos = pos;
    t->range_end = range_end;
    init_rec rc;
    memset(&rc, 0, sizeof rc);
    rc.t = t;
    size_t maxjobs = (size_t)t->d * (1 + (size_t)XMSS_MAX_LEVELS * (XMSS_MAX_HP + 1));
    xmss_job *jobs = calloc(maxjobs, sizeof *jobs);
    xmss_job *cand = calloc(maxjobs, sizeof *cand);
    if (jobs == NULL || cand == NULL) {
        free(jobs);
        free(cand);
        return GROVE_ERR_NOMEM;
    }
    size_t nj = 0, nc = 0;
    for (unsigned j = 0; j < t->d; j++) {
        xmss_layer *ly = &t->ly[j];
        const xmss_layer *sl = src ? &src->ly[j] : NULL;
        uint64_t g = pos >> (hp * j);
        int cur_missing = 0;
        for (unsigned i = 0; i < ly->nlevels; i++) {
            xmss_level *L = &ly->lv[i];
            const xmss_level *S = sl ? &sl->lv[i] : NULL;
            L->cur_idx = g >> L->hi;
            int ok = next_ok(t, j, L);
            L->nxt_done = ok ? g & (((uint64_t)1 << L->hi) - 1) : 0;
            L->stack_len = popcount64(L->nxt_done);
            if (S && S->cur_idx == L->cur_idx)
                memcpy(L->cur, S->cur, L->nnodes * n);
            else
                cur_missing = 1;
            if (!ok || L->nxt_done == 0)
                continue;
            if (S && S->cur_idx == L->cur_idx && S->nxt_done == L->nxt_done && next_ok(src, j, S)) {
                memcpy(L->nxt, S->nxt, L->nnodes * n);
                memcpy(L->stack, S->stack, (size_t)(L->hi + 1) * n);
                memcpy(L->stack_h, S->stack_h, sizeof L->stack_h);
                continue;
            }
            rc.fill_nxt[j][i] = 1;
            uint64_t base = (L->cur_idx + 1) << L->hi;
            for (int b = (int)L->hi - 1; b >= 0; b--) {
                if (!((L->nxt_done >> b) & 1))
                    continue;
                uint64_t start = (L->nxt_done >> (b + 1)) << (b + 1);
                cand[nc].layer = j;
                cand[nc].height = (unsigned)b;
                cand[nc].gidx = (base + start) >> b;
                nc++;
            }
        }
        if (cur_missing) {
            for (unsigned i = 0; i < ly->nlevels; i++)
                rc.fill_cur[j][i] = 1;
            jobs[nj].layer = j;
            jobs[nj].height = hp;
            jobs[nj].gidx = g >> hp;
            jobs[nj].root = ly->root;
            nj++;
        } else {
            memcpy(ly->root, sl->root, n);
        }
    }
    /* larger blocks first, so smaller ones inside them are not computed twice */
    for (unsigned hgt = hp + 1; hgt-- > 0;)
        for (size_t k = 0; k < nc; k++)
            if (cand[k].height == hgt &&
                !contained(jobs, nj, cand[k].layer, cand[k].height, cand[k].gidx))
                jobs[nj++] = cand[k];
    int r = xmss_build(x, jobs, nj, record, &rc, opts);
    free(jobs);
    free(cand);
    if (r != GROVE_OK)
        return r;
    /* WOTS+ signatures of the roots by the layers above */
    if (t->d > 1) {
        xmss_lanes w;
        r = xmss_lanes_alloc(&w, x, p->len);
        if (r != GROVE_OK)
            return r;
        for (unsigned j = 1; j < t->d; j++) {
            uint64_t gl = pos >> (hp * j);
            xmss_wots_sign(x, &w, j, gl >> hp, (uint32_t)(gl & ((1u << hp) - 1)), t->ly[j - 1].root,
                           t->ly[j].wots_sig);
        }
        xmss_lanes_free(&w);
    }
    return GROVE_OK;
}

/* ---- one step ------------------------------------------------------------------------------- */

/* One more leaf of the next subtree of level L of layer j. */
static void grow(xmss_trav *t, const xmss_hash *x, xmss_lanes *w, unsigned j, xmss_level *L)
{
    const unsigned n = x->n, hp = t->p->hp;
    const uint32_t mask = (uint32_t)((1u << hp) - 1);
    uint64_t gl = ((L->cur_idx + 1) << L->hi) + L->nxt_done;
    uint64_t tree = gl >> hp;
    uint8_t *top = L->stack + (size_t)L->stack_len * n;
    xmss_leaves(x, w, j, tree, (uint32_t)(gl & mask), 1, top);
    L->stack_h[L->stack_len++] = 0;
    if (L->lo == 0)
        memcpy(L->nxt + (off(L, 0) + (size_t)(gl & ((1u << L->hi) - 1))) * n, top, n);
    while (L->stack_len >= 2 && L->stack_h[L->stack_len - 1] == L->stack_h[L->stack_len - 2]) {
        unsigned u = L->stack_h[L->stack_len - 1];
        uint64_t pg = gl >> (u + 1);
        uint8_t *l = L->stack + (size_t)(L->stack_len - 2) * n;
        xmss_tree_node(x, w, j, tree, u, (uint32_t)(pg & (mask >> (u + 1))), l, l + n, l);
        L->stack_len--;
        L->stack_h[L->stack_len - 1] = (uint8_t)(u + 1);
        if (u + 1 >= L->lo && u + 1 < L->hi)
            memcpy(L->nxt + (off(L, u + 1) + (size_t)(pg & ((1u << (L->hi - u - 1)) - 1))) * n, l,
                   n);
    }
    L->nxt_done++;
}

void xmss_trav_step(xmss_trav *t, const xmss_hash *x, xmss_lanes *w)
{
    const grove_xmss_params *p = t->p;
    const unsigned hp = p->hp, n = p->n;
    uint64_t old = t->pos, nw = old + 1;
    t->pos = nw;
    if (nw >= t->range_end)
        return;
    for (unsigned j = 0; j < t->d; j++) {
        if (j > 0 && (nw & (((uint64_t)1 << (hp * j)) - 1)) != 0)
            break;
        xmss_layer *ly = &t->ly[j];
        uint64_t g = old >> (hp * j);
        for (unsigned i = 0; i < ly->nlevels; i++) {
            xmss_level *L = &ly->lv[i];
            uint64_t last = ((uint64_t)1 << L->hi) - 1;
            int ok = next_ok(t, j, L);
            if (ok)
                grow(t, x, w, j, L);
            if ((g & last) == last && ok) {
                uint8_t *tmp = L->cur;
                L->cur = L->nxt;
                L->nxt = tmp;
                L->cur_idx++;
                if (L->top)
                    memcpy(ly->root, L->stack, n);
                L->nxt_done = 0;
                L->stack_len = 0;
            }
        }
        if (j > 0) {
            uint64_t gl = nw >> (hp * j);
            xmss_wots_sign(x, w, j, gl >> hp, (uint32_t)(gl & ((1u << hp) - 1)), t->ly[j - 1].root,
                           ly->wots_sig);
        }
    }
}

void xmss_trav_auth(const xmss_trav *t, unsigned j, uint8_t *auth)
{
    const unsigned n = t->p->n, hp = t->p->hp;
    const xmss_layer *ly = &t->ly[j];
    uint64_t leaf = (t->pos >> (hp * j)) & ((1u << hp) - 1);
    unsigned i = 0;
    for (unsigned u = 0; u < hp; u++) {
        while (u >= ly->lv[i].hi)
            i++;
        const xmss_level *L = &ly->lv[i];
        size_t sib = (size_t)(((leaf >> u) ^ 1) & ((1u << (L->hi - u)) - 1));
        memcpy(auth + (size_t)u * n, L->cur + (off(L, u) + sib) * n, n);
    }
}

/* ---- serialization --------------------------------------------------------------------------- */

size_t xmss_trav_bytes(const grove_xmss_params *p)
{
    xmss_trav t;
    layout(&t, p);
    const unsigned n = p->n;
    size_t total = 0;
    for (unsigned j = 0; j < t.d; j++) {
        total += n + (j ? (size_t)p->len * n : 0);
        for (unsigned i = 0; i < t.ly[j].nlevels; i++) {
            const xmss_level *L = &t.ly[j].lv[i];
            total += 8 + L->nnodes * n;
            if (L->has_next)
                total += 8 + 1 + (L->hi + 1) + (size_t)(L->hi + 1) * n + L->nnodes * n;
        }
    }
    return total;
}

void xmss_trav_save(const xmss_trav *t, uint8_t *out)
{
    const grove_xmss_params *p = t->p;
    const unsigned n = p->n;
    for (unsigned j = 0; j < t->d; j++) {
        const xmss_layer *ly = &t->ly[j];
        memcpy(out, ly->root, n);
        out += n;
        if (j) {
            memcpy(out, ly->wots_sig, (size_t)p->len * n);
            out += (size_t)p->len * n;
        }
        for (unsigned i = 0; i < ly->nlevels; i++) {
            const xmss_level *L = &ly->lv[i];
            grove_store64_be(out, L->cur_idx);
            out += 8;
            memcpy(out, L->cur, L->nnodes * n);
            out += L->nnodes * n;
            if (!L->has_next)
                continue;
            grove_store64_be(out, L->nxt_done);
            out += 8;
            *out++ = (uint8_t)L->stack_len;
            memset(out, 0, L->hi + 1);
            memcpy(out, L->stack_h, L->stack_len);
            out += L->hi + 1;
            memset(out, 0, (size_t)(L->hi + 1) * n);
            memcpy(out, L->stack, (size_t)L->stack_len * n);
            out += (size_t)(L->hi + 1) * n;
            memcpy(out, L->nxt, L->nnodes * n);
            out += L->nnodes * n;
        }
    }
}

int xmss_trav_load(xmss_trav *t, const uint8_t *in, uint64_t pos, uint64_t range_end)
{
    const grove_xmss_params *p = t->p;
    const unsigned n = p->n, hp = p->hp;
    if (pos >= range_end)
        return GROVE_ERR_STATE;
    t->pos = pos;
    t->range_end = range_end;
    for (unsigned j = 0; j < t->d; j++) {
        xmss_layer *ly = &t->ly[j];
        uint64_t g = pos >> (hp * j);
        memcpy(ly->root, in, n);
        in += n;
        if (j) {
            memcpy(ly->wots_sig, in, (size_t)p->len * n);
            in += (size_t)p->len * n;
        }
        for (unsigned i = 0; i < ly->nlevels; i++) {
            xmss_level *L = &ly->lv[i];
            L->cur_idx = grove_load64_be(in);
            in += 8;
            if (L->cur_idx != g >> L->hi)
                return GROVE_ERR_STATE;
            memcpy(L->cur, in, L->nnodes * n);
            in += L->nnodes * n;
            L->nxt_done = 0;
            L->stack_len = 0;
            if (!L->has_next)
                continue;
            uint64_t done = grove_load64_be(in);
            in += 8;
            unsigned sl = *in++;
            uint64_t want = g & (((uint64_t)1 << L->hi) - 1);
            /* a next subtree out of range (after a split) may have stopped growing */
            if (next_ok(t, j, L) ? done != want : done > want)
                return GROVE_ERR_STATE;
            if (sl != popcount64(done))
                return GROVE_ERR_STATE;
            unsigned k = 0;
            for (int b = (int)L->hi - 1; b >= 0; b--)
                if ((done >> b) & 1) {
                    if (in[k] != b)
                        return GROVE_ERR_STATE;
                    L->stack_h[k++] = (uint8_t)b;
                }
            for (unsigned q = sl; q <= L->hi; q++)
                if (in[q] != 0)
                    return GROVE_ERR_STATE;
            in += L->hi + 1;
            memcpy(L->stack, in, (size_t)(L->hi + 1) * n);
            in += (size_t)(L->hi + 1) * n;
            memcpy(L->nxt, in, L->nnodes * n);
            in += L->nnodes * n;
            L->nxt_done = done;
            L->stack_len = sl;
        }
    }
    return GROVE_OK;
}
