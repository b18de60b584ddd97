/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Building subtrees: treehash over batches of XMSS_LEAF_BATCH leaves, split into chunks of at
 * most 2^CHUNK_H leaves that the workers of grove_parallel_for (common/pool.h) take one at a
 * time; the levels above the chunks are then hashed a whole level per call. Every node is
 * handed to the record callback.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/pool.h"
#include "common/util.h"
#include "xmss/xmss_int.h"

#define CHUNK_H 6

typedef struct {
    unsigned layer, height;
    uint64_t gidx;
    uint8_t *root;
} chunk;

typedef struct {
    const xmss_hash *x;
    xmss_record_fn record;
    void *rarg;
    chunk *chunks;
    size_t nchunks;
    const grove_xmss_opts *opts;
    uint64_t total;
    xmss_lanes *lanes; /* one per pool worker */
    _Atomic uint64_t done;
} build_ctx;

static void rec(build_ctx *b, unsigned layer, unsigned height, uint64_t gidx, const uint8_t *node)
{
    if (b->record)
        b->record(b->rarg, layer, height, gidx, node);
}

/* Root of the subtree (layer, height c, gidx k); every node recorded. */
static void subtree(build_ctx *b, xmss_lanes *w, const chunk *ch)
{
    const xmss_hash *x = b->x;
    const unsigned n = x->n, hp = x->p->hp, c = ch->height, layer = ch->layer;
    const uint64_t first = ch->gidx << c, tree = first >> hp;
    const uint32_t mask = (uint32_t)(((uint64_t)1 << hp) - 1);
    const unsigned bsz = (1u << c) < XMSS_LEAF_BATCH ? (1u << c) : XMSS_LEAF_BATCH;
    uint8_t buf[XMSS_LEAF_BATCH * XMSS_MAX_N];
    uint8_t stack[(CHUNK_H + 2) * XMSS_MAX_N];
    unsigned sh[CHUNK_H + 2];
    uint64_t sg[CHUNK_H + 2];
    unsigned sl = 0;
    for (uint64_t off = 0; off < ((uint64_t)1 << c); off += bsz) {
        const uint64_t gl = first + off;
        const uint32_t lt = (uint32_t)(gl & mask);
        xmss_leaves(x, w, layer, tree, lt, bsz, buf);
        for (unsigned i = 0; i < bsz; i++)
            rec(b, layer, 0, gl + i, buf + (size_t)i * n);
        unsigned m = bsz, u = 0;
        while (m > 1) {
            for (unsigned k = 0; k < m / 2; k++) {
                xmss_adrs_node(&w->adrs[k], layer, tree, u, (lt >> (u + 1)) + k);
                w->o[k] = buf + (size_t)k * n;
                w->l[k] = buf + (size_t)(2 * k) * n;
                w->r[k] = buf + (size_t)(2 * k + 1) * n;
            }
            xmss_nodes(x, w, m / 2, w->o, w->l, w->r, w->adrs);
            u++;
            m /= 2;
            for (unsigned k = 0; k < m; k++)
                rec(b, layer, u, (gl >> u) + k, buf + (size_t)k * n);
        }
        memcpy(stack + (size_t)sl * n, buf, n);
        sh[sl] = u;
        sg[sl] = gl >> u;
        sl++;
        while (sl >= 2 && sh[sl - 1] == sh[sl - 2]) {
            unsigned t = sh[sl - 1];
            uint64_t pg = sg[sl - 1] >> 1;
            uint8_t *l = stack + (size_t)(sl - 2) * n;
            xmss_tree_node(x, w, layer, tree, t, (uint32_t)(pg & (mask >> (t + 1))), l, l + n, l);
            sl--;
            sh[sl - 1] = t + 1;
            sg[sl - 1] = pg;
            rec(b, layer, t + 1, pg, l);
        }
    }
    memcpy(ch->root, stack, n);
}

static void progress(build_ctx *b)
{
    if (b->opts && b->opts->progress)
        b->opts->progress(b->opts->progress_arg, atomic_load(&b->done), b->total);
}

/* One chunk on worker `worker`, whose lanes are allocated on its first chunk. */
static int build_chunk(void *arg, size_t begin, size_t end, unsigned worker)
{
    build_ctx *b = arg;
    xmss_lanes *w = &b->lanes[worker];
    if (w->mem == NULL &&
        xmss_lanes_alloc(w, b->x, (size_t)XMSS_LEAF_BATCH * b->x->p->len) != GROVE_OK)
        return GROVE_ERR_NOMEM;
    for (size_t i = begin; i < end; i++) {
        subtree(b, w, &b->chunks[i]);
        atomic_fetch_add(&b->done, (uint64_t)1 << b->chunks[i].height);
        if (worker == 0) /* the calling thread reports progress */
            progress(b);
    }
    return GROVE_OK;
}

int xmss_build(const xmss_hash *x, const xmss_job *jobs, size_t njobs, xmss_record_fn record,
               void *rarg, const grove_xmss_opts *opts)
{
    const unsigned n = x->n;
    size_t nchunks = 0;
    uint64_t total = 0;
    for (size_t j = 0; j < njobs; j++) {
        unsigned c = jobs[j].height < CHUNK_H ? jobs[j].height : CHUNK_H;
        nchunks += (size_t)1 << (jobs[j].height - c);
        total += (uint64_t)1 << jobs[j].height;
    }
    if (nchunks == 0)
        return GROVE_OK;
    chunk *chunks = calloc(nchunks, sizeof *chunks);
    uint8_t *roots = malloc(nchunks * n);
    if (chunks == NULL || roots == NULL) {
        free(chunks);
        free(roots);
        return GROVE_ERR_NOMEM;
    }
    size_t k = 0;
    for (size_t j = 0; j < njobs; j++) {
        unsigned c = jobs[j].height < CHUNK_H ? jobs[j].height : CHUNK_H;
        for (uint64_t i = 0; i < ((uint64_t)1 << (jobs[j].height - c)); i++, k++) {
            chunks[k].layer = jobs[j].layer;
            chunks[k].height = c;
            chunks[k].gidx = (jobs[j].gidx << (jobs[j].height - c)) + i;
            chunks[k].root = roots + k * n;
        }
    }
    const unsigned nt = opts ? opts->threads : 0;
    const unsigned nw = grove_pool_workers(nt, nchunks, 1);
    build_ctx b = {.x = x, .record = record, .rarg = rarg, .chunks = chunks, .nchunks = nchunks,
                   .opts = opts, .total = total, .lanes = calloc(nw, sizeof(xmss_lanes))};
    atomic_init(&b.done, 0);
    int rc = b.lanes == NULL ? GROVE_ERR_NOMEM
                             : grove_parallel_for(nt, nchunks, 1, build_chunk, &b);
    for (unsigned t = 0; b.lanes != NULL && t < nw; t++)
        xmss_lanes_free(&b.lanes[t]);
    free(b.lanes);

    /* the levels above the chunks, one whole level per batch of calls */
    xmss_lanes w = {0};
    if (rc == 0 && xmss_lanes_alloc(&w, x, (size_t)XMSS_LEAF_BATCH * x->p->len) != GROVE_OK)
        rc = GROVE_ERR_NOMEM;
    k = 0;
    for (size_t j = 0; rc == 0 && j < njobs; j++) {
        const unsigned hp = x->p->hp, layer = jobs[j].layer;
        unsigned c = jobs[j].height < CHUNK_H ? jobs[j].height : CHUNK_H;
        uint8_t *lvl = roots + k * n;
        uint64_t m = (uint64_t)1 << (jobs[j].height - c);
        k += (size_t)m;
        uint64_t g0 = jobs[j].gidx << (jobs[j].height - c); /* gidx of lvl[0] at height u */
        for (unsigned u = c; u < jobs[j].height; u++) {
            uint64_t half = m / 2;
            for (uint64_t s = 0; s < half; s += w.cap) {
                size_t cnt = half - s < w.cap ? (size_t)(half - s) : w.cap;
                for (size_t q = 0; q < cnt; q++) {
                    uint64_t pg = (g0 >> 1) + s + q;
                    uint64_t tree = pg >> (hp - u - 1);
                    uint32_t idx = (uint32_t)(pg & ((((uint64_t)1) << (hp - u - 1)) - 1));
                    xmss_adrs_node(&w.adrs[q], layer, tree, u, idx);
                    w.o[q] = lvl + (size_t)(s + q) * n;
                    w.l[q] = lvl + (size_t)(2 * (s + q)) * n;
                    w.r[q] = lvl + (size_t)(2 * (s + q) + 1) * n;
                }
                xmss_nodes(x, &w, cnt, w.o, w.l, w.r, w.adrs);
                for (size_t q = 0; q < cnt; q++)
                    rec(&b, layer, u + 1, (g0 >> 1) + s + q, lvl + (size_t)(s + q) * n);
            }
            m = half;
            g0 >>= 1;
        }
        if (jobs[j].root)
            memcpy(jobs[j].root, lvl, n);
    }
    if (rc == 0) {
        xmss_lanes_free(&w);
        progress(&b);
    }
    free(chunks);
    free(roots);
    return rc;
}
