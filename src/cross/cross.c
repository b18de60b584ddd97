/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * CROSS v2.2 key generation, signing and verification, in two strategies with identical
 * outputs:
 *  - fast: per-round data (round seeds, e', u', cmt_1) is kept in the workspace between the
 *    three passes over the rounds, and rounds are processed four at a time through the batch
 *    SHAKE interface;
 *  - small-memory: one round at a time; the round seeds are regenerated (seed tree walked depth
 *    first with a stack of log t seeds) and e', u' re-expanded in each pass, chall_1 is
 *    re-squeezed as a stream, and while signing the signature buffer holds cmt_0 (fast sets).
 * Both build the Merkle root and proof by walking the tree recursively over the leaves (no
 * stored tree); the public matrices are expanded once into the workspace.
 *
 * Passes of signing: (1) commitments cmt_0/cmt_1 of every round -> digest_cmt, chall_1;
 * (2) the first responses y -> digest_chall_2, chall_2; (3) path, proof and the responses of
 * the rounds with chall_2 = 0. sign_core and verify_core call one function per step of the
 * specification's algorithms (docs/cross.md, "Code map").
 *
 * The workspace (grove_cross_workspace_bytes) is the caller's (the *_ws entry points) or one
 * heap block per call; nothing of it is on the stack.
 */
#include <stdlib.h>
#include <string.h>

#include "common/ct.h"
#include "common/util.h"
#include "cross/cross_internal.h"
#include "cross/cross_prims.h"
#include "hash/keccak.h"

/* Independent SHAKE calls handed to the hash layer together: a full AVX-512 batch on x86;
 * four elsewhere (the Cortex-M4 stack budgets in tests/cross/m4 were recorded with four). */
#if GROVE_HAVE_X86_TARGETS
#define FAST_BATCH 8
#else
#define FAST_BATCH 4
#endif

/*
 * Small-memory strategy: rounds, commitments and Merkle nodes go to the hash layer SMALL_BATCH
 * at a time. On x86 hosts that fills the wide Keccak kernels (4 lanes AVX2, 8 lanes AVX-512)
 * for a few KB more workspace; elsewhere it stays at one, which keeps the Cortex-M4 figures
 * (tests/cross/m4/budgets.txt, below the paper's minimal-memory ones) where they are: the
 * portable Keccak gains nothing from batching.
 */
#if GROVE_HAVE_X86_TARGETS
#define SMALL_BATCH FAST_BATCH
#else
#define SMALL_BATCH 1
#endif

/* ---- workspace arena ------------------------------------------------------------------------ */
typedef struct arena {
    uint8_t *base; /* NULL: only measure */
    size_t used;
} arena;

static void *ar_take(arena *a, size_t n)
{
    size_t off = (a->used + 7u) & ~(size_t)7u;
    a->used = off + n;
    return a->base ? a->base + off : NULL;
}

/* ---- matrices and keys ---------------------------------------------------------------------- */

/* V^T (k rows of n-k, bytes for RSDP, uint16 for RSDP-G) and W (m rows of n-m) from seed_pk. */
static void expand_pk(const cross_ctx *c, const uint8_t *seed_pk, void *vt, uint8_t *wmat)
{
    grove_keccak_ctx x;
    cross_bitrd r;
    const grove_cross_params *p = c->p;
    cross_xof_start(c, &x, seed_pk, c->z.digest, (uint16_t)(3u * p->t + 2u));
    if (p->rsdpg) {
        cross_rd_xof(&r, &x, (p->bits_w + 7u) / 8u);
        cross_sample_fz(&r, wmat, c->m * (c->n - c->m), c->z.bz, c->z.z);
        cross_rd_finish(&r);
    }
    cross_rd_xof(&r, &x, (p->bits_v + 7u) / 8u);
    size_t cnt = c->k * (c->n - c->k);
    if (p->rsdpg) {
        cross_sample_fp(&r, (uint16_t *)vt, cnt, c->z.bp, c->z.p);
    } else {
        uint8_t *v8 = (uint8_t *)vt;
        for (size_t i = 0; i < cnt;) {
            uint32_t v = cross_rd_bits(&r, 7);
            if (v < 127u)
                v8[i++] = (uint8_t)v;
        }
    }
    cross_rd_finish(&r);
    grove_wipe(&x, sizeof x);
}

/* e (n exponents) from e_G (m) and W: e = (e_G W, e_G) over Z_127. */
static void expand_g(const cross_ctx *c, uint8_t *e, const uint8_t *eg, const uint8_t *wmat)
{
    size_t nm = c->n - c->m;
    uint32_t acc[128];
    memset(acc, 0, nm * sizeof acc[0]);
    for (size_t i = 0; i < c->m; i++) {
        const uint8_t *row = wmat + i * nm;
        uint32_t g = eg[i];
        for (size_t j = 0; j < nm; j++)
            acc[j] += g * row[j];
    }
    for (size_t j = 0; j < nm; j++)
        e[j] = (uint8_t)cross_mod127(acc[j]);
    memcpy(e + nm, eg, c->m);
    grove_wipe(acc, nm * sizeof acc[0]);
}

/* seed_sk -> seed_e || seed_pk */
static void expand_seed_sk(const cross_ctx *c, const uint8_t *sk, uint8_t *seeds)
{
    grove_keccak_ctx x;
    cross_xof_start(c, &x, sk, c->z.digest, (uint16_t)(3u * c->p->t + 1u));
    grove_keccak_squeeze(&x, seeds, 2 * c->z.digest);
    grove_wipe(&x, sizeof x);
}

/* The secret vector: e (n) and, for RSDP-G, e_G (m). */
static void expand_e(const cross_ctx *c, const uint8_t *seed_e, const uint8_t *wmat, uint8_t *e,
                     uint8_t *eg)
{
    grove_keccak_ctx x;
    cross_bitrd r;
    cross_xof_start(c, &x, seed_e, c->z.digest, (uint16_t)(3u * c->p->t + 3u));
    cross_rd_xof(&r, &x, c->xe);
    if (c->p->rsdpg) {
        cross_sample_fz(&r, eg, c->m, 7, 127);
        cross_rd_finish(&r);
        expand_g(c, e, eg, wmat);
    } else {
        cross_sample_fz(&r, e, c->n, 3, 7);
        cross_rd_finish(&r);
    }
    grove_wipe(&x, sizeof x);
    grove_wipe(&r, sizeof r);
}

/* out (n-k, reduced) = u H^T with H = [V | I]: out_j = u_{k+j} + sum_i u_i V^T[i][j]. */
static void mul_ht(const cross_ctx *c, uint16_t *out, const uint16_t *u, const void *vt)
{
    size_t nk = c->n - c->k;
    uint32_t acc[128];
    for (size_t j = 0; j < nk; j++)
        acc[j] = u[c->k + j];
    if (c->p->rsdpg) {
        const uint16_t *v = (const uint16_t *)vt;
        for (size_t i = 0; i < c->k; i++) {
            uint32_t ui = u[i];
            const uint16_t *row = v + i * nk;
            for (size_t j = 0; j < nk; j++)
                acc[j] += ui * row[j];
        }
        for (size_t j = 0; j < nk; j++)
            out[j] = (uint16_t)cross_mod509(acc[j]);
    } else {
        const uint8_t *v = (const uint8_t *)vt;
        for (size_t i = 0; i < c->k; i++) {
            uint32_t ui = u[i];
            const uint8_t *row = v + i * nk;
            for (size_t j = 0; j < nk; j++)
                acc[j] += ui * row[j];
        }
        for (size_t j = 0; j < nk; j++)
            out[j] = (uint16_t)cross_mod127(acc[j]);
    }
    grove_wipe(acc, nk * sizeof acc[0]);
}

/* ---- key generation (streaming, the same for both strategies) ------------------------------- */

/*
 * Matrices are streamed row by row from the CSPRNG and folded into the result at once, so the
 * only buffers are e (n bytes, with e_G at its tail for RSDP-G, later reused for the syndrome)
 * and one accumulator row: well under 2 KB of stack in total on a Cortex-M4.
 */
static int keygen_core(const cross_ctx *c, uint8_t *pk, const uint8_t *sk)
{
    const grove_cross_params *p = c->p;
    const int g = p->rsdpg;
    union {
        uint8_t e[256];
        uint16_t s[128];
    } u;
    uint8_t seed_pk[CROSS_MAX_DIGEST];
    uint32_t acc[104];
    grove_keccak_ctx x;
    cross_bitrd r;
    size_t nk = c->n - c->k, nm = c->n - c->m, d = c->z.digest;

    /* seed_sk -> seed_e || seed_pk; seed_e goes through u.e */
    cross_xof_start(c, &x, sk, d, (uint16_t)(3u * p->t + 1u));
    grove_keccak_squeeze(&x, u.e, d);
    grove_keccak_squeeze(&x, seed_pk, d);
    GROVE_DECLASSIFY(seed_pk, d); /* part of the public key */
    /* e, or e_G at the tail of e */
    cross_xof_start(c, &x, u.e, d, (uint16_t)(3u * p->t + 3u));
    cross_rd_xof(&r, &x, c->xe);
    uint8_t *eg = u.e + nm;
    if (g)
        cross_sample_fz(&r, eg, c->m, 7, 127);
    else
        cross_sample_fz(&r, u.e, c->n, 3, 7);
    cross_rd_finish(&r);
    /* matrices */
    cross_xof_start(c, &x, seed_pk, d, (uint16_t)(3u * p->t + 2u));
    if (g) {
        cross_rd_xof(&r, &x, (p->bits_w + 7u) / 8u);
        memset(acc, 0, nm * sizeof acc[0]);
        for (size_t i = 0; i < c->m; i++) {
            uint32_t gi = eg[i];
            for (size_t j = 0; j < nm;) {
                uint32_t v = cross_rd_bits(&r, 7);
                if (v < 127u)
                    acc[j++] += gi * v;
            }
        }
        cross_rd_finish(&r);
        for (size_t j = 0; j < nm; j++)
            u.e[j] = (uint8_t)cross_mod127(acc[j]);
    }
    cross_rd_xof(&r, &x, (p->bits_v + 7u) / 8u);
    for (size_t j = 0; j < nk; j++)
        acc[j] = cross_restr_val(g, u.e[c->k + j]);
    for (size_t i = 0; i < c->k; i++) {
        uint32_t ei = cross_restr_val(g, u.e[i]);
        for (size_t j = 0; j < nk;) {
            uint32_t v = cross_rd_bits(&r, c->z.bp);
            if (v < c->z.p)
                acc[j++] += ei * v;
        }
    }
    cross_rd_finish(&r);
    grove_wipe(u.e, sizeof u.e);
    for (size_t j = 0; j < nk; j++)
        u.s[j] = (uint16_t)cross_fp_red(g, acc[j]);
    memcpy(pk, seed_pk, d);
    cross_pack_fp(pk + d, u.s, nk, c->z.bp);
    grove_wipe(&u, sizeof u);
    grove_wipe(acc, sizeof acc);
    grove_wipe(&x, sizeof x);
    grove_wipe(&r, sizeof r);
    return GROVE_OK;
}

/* ---- per-round arithmetic ------------------------------------------------------------------- */

/* From the round's squeezed bytes: e'_G (RSDP-G), e' and u'. */
static void round_expand(const cross_ctx *c, const uint8_t *xo, const uint8_t *wmat,
                         uint8_t *ep, uint8_t *epg, uint16_t *up)
{
    if (c->p->rsdpg) {
        cross_sample_mem_fz(epg, c->m, xo, c->xe, 7, 127);
        expand_g(c, ep, epg, wmat);
    } else {
        cross_sample_mem_fz(ep, c->n, xo, c->xe, 3, 7);
    }
    cross_sample_mem_fp(up, c->n, xo + c->xe, c->xu, c->z.bp, c->z.p);
}

/* Exponent difference a - b mod z, fully reduced. */
static uint8_t fz_sub(int g, uint8_t a, uint8_t b)
{
    if (g)
        return (uint8_t)cross_mod127((uint32_t)a + 127u - b);
    return cross_mod7_small((uint32_t)a + 7u - b);
}

/*
 * The cmt_0 input of a signing round without salt/dsc: pack(s') || pack(v_bar or v_G_bar),
 * s' = (g^v_bar * u') H^T. tmp: n uint16 scratch; vb: n bytes scratch.
 */
static void round_cmt0_sign(const cross_ctx *c, uint8_t *out, const uint8_t *e,
                            const uint8_t *eg, const uint8_t *ep, const uint8_t *epg,
                            const uint16_t *up, const void *vt, uint16_t *tmp, uint8_t *vb)
{
    const int g = c->p->rsdpg;
    const size_t n = c->n; /* a local: the byte stores below cannot change it */
    uint16_t sp[128];
    if (g) {
        for (size_t j = 0; j < n; j++) {
            vb[j] = fz_sub(1, e[j], ep[j]);
            tmp[j] = (uint16_t)cross_mod509(cross_restr_val(1, vb[j]) * up[j]);
        }
    } else {
        /* 2^v * u' with v < 7, u' < 127: < 2^13 */
        for (size_t j = 0; j < n; j++) {
            vb[j] = fz_sub(0, e[j], ep[j]);
            tmp[j] = (uint16_t)cross_mod127_14((uint32_t)up[j] << vb[j]);
        }
    }
    mul_ht(c, sp, tmp, vt);
    cross_pack_fp(out, sp, c->n - c->k, c->z.bp);
    if (g) {
        for (size_t j = 0; j < c->m; j++)
            vb[j] = fz_sub(g, eg[j], epg[j]);
        cross_pack_fz(out + c->z.ps, vb, c->m, 7);
    } else {
        cross_pack_fz(out + c->z.ps, vb, c->n, 3);
    }
    grove_wipe(sp, sizeof sp);
}

/* y = u' + chall_1 * g^e' (n values, reduced) */
static void round_y(const cross_ctx *c, uint16_t *y, const uint8_t *ep, const uint16_t *up,
                    uint16_t ch)
{
    if (c->p->rsdpg) {
        for (size_t j = 0; j < c->n; j++)
            y[j] = (uint16_t)cross_mod509(up[j] + (uint32_t)ch * cross_restr_val(1, ep[j]));
    } else {
        /* u' + ch * 2^e' < 127 + 126 * 128 < 2^14 */
        for (size_t j = 0; j < c->n; j++)
            y[j] = (uint16_t)cross_mod127_14(up[j] + (((uint32_t)ch << ep[j])));
    }
}

/* v_bar (RSDP) or v_G_bar (RSDP-G) of a round, packed. */
static void round_pack_v(const cross_ctx *c, uint8_t *out, const uint8_t *e, const uint8_t *eg,
                         const uint8_t *ep, const uint8_t *epg, uint8_t *vb)
{
    const size_t n = c->n, m = c->m; /* locals: the byte stores below cannot change them */
    if (c->p->rsdpg) {
        for (size_t j = 0; j < m; j++)
            vb[j] = fz_sub(1, eg[j], epg[j]);
        cross_pack_fz(out, vb, m, 7);
    } else {
        for (size_t j = 0; j < n; j++)
            vb[j] = fz_sub(0, e[j], ep[j]);
        cross_pack_fz(out, vb, n, 3);
    }
}

/* ---- challenges ----------------------------------------------------------------------------- */

typedef struct ch1_stream {
    grove_keccak_ctx x;
    cross_bitrd r;
} ch1_stream;

static void ch1_start(const cross_ctx *c, ch1_stream *s, const uint8_t *digest_chall_1)
{
    cross_xof_start(c, &s->x, digest_chall_1, c->z.digest, (uint16_t)(3u * c->p->t - 1u));
    cross_rd_xof(&s->r, &s->x, (c->p->bits_chall1 + 7u) / 8u);
}

static void fixed_weight(const cross_ctx *c, uint8_t *ch2, const uint8_t *digest)
{
    grove_keccak_ctx x;
    cross_bitrd r;
    size_t t = c->t;
    cross_xof_start(c, &x, digest, c->z.digest, (uint16_t)(3u * t));
    cross_rd_xof(&r, &x, (c->p->bits_cwstr + 7u) / 8u);
    memset(ch2, 1, c->w);
    memset(ch2 + c->w, 0, t - c->w);
    for (size_t cur = 0; cur < t;) {
        uint32_t range = (uint32_t)(t - 1 - cur);
        unsigned nb = 0;
        for (uint32_t v = range; v; v >>= 1)
            nb++;
        if (nb == 0)
            nb = 1;
        uint32_t pos = cross_rd_bits(&r, nb);
        if (pos < t - cur) {
            uint8_t tmp = ch2[cur];
            ch2[cur] = ch2[cur + pos];
            ch2[cur + pos] = tmp;
            cur++;
        }
    }
    cross_rd_finish(&r);
}

/* ---- trees: published nodes ----------------------------------------------------------------- */

static int all_ones(const uint8_t *ch2, size_t first, size_t cnt)
{
    for (size_t i = 0; i < cnt; i++)
        if (ch2[first + i] != 1)
            return 0;
    return 1;
}

typedef struct pub_list {
    uint16_t *idx; /* ascending linear indices of the published nodes */
    size_t cnt, cap;
    int overflow;
} pub_list;

/*
 * The published nodes (seed path and Merkle proof): maximal subtrees whose leaves all have
 * chall_2 = 1. The path lists them in level order (ascending index), the proof in reverse.
 */
static void pub_collect(const cross_ctx *c, const uint8_t *ch2, const cross_tnode *n,
                        pub_list *pl)
{
    if (all_ones(ch2, n->first, n->cnt)) {
        if (pl->cnt < pl->cap)
            pl->idx[pl->cnt] = n->idx;
        else
            pl->overflow = 1;
        pl->cnt++;
        return;
    }
    if (n->cnt == 1)
        return;
    cross_tnode l, r;
    cross_tree_children(c, n, &l, &r);
    pub_collect(c, ch2, &l, pl);
    pub_collect(c, ch2, &r, pl);
}

static int pub_build(const cross_ctx *c, const uint8_t *ch2, pub_list *pl)
{
    cross_tnode root;
    cross_tree_root_node(c, &root);
    pl->cnt = 0;
    pl->overflow = 0;
    pub_collect(c, ch2, &root, pl);
    if (pl->overflow)
        return 0;
    /* insertion sort: the depth-first order is nearly sorted already */
    for (size_t i = 1; i < pl->cnt; i++) {
        uint16_t v = pl->idx[i];
        size_t j = i;
        while (j > 0 && pl->idx[j - 1] > v) {
            pl->idx[j] = pl->idx[j - 1];
            j--;
        }
        pl->idx[j] = v;
    }
    return 1;
}

/* Rank of idx among the published nodes, or -1. */
static long pub_rank(const pub_list *pl, uint16_t idx)
{
    size_t lo = 0, hi = pl->cnt;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pl->idx[mid] < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < pl->cnt && pl->idx[lo] == idx) ? (long)lo : -1;
}

/* ---- round seeds ---------------------------------------------------------------------------- */

typedef struct seed_item {
    cross_tnode n;
    uint8_t seeded;
    uint8_t seed[CROSS_MAX_SEED];
} seed_item;

/*
 * Yields round seeds in round order. Fast sets: the 4-way split of the root seed. Tree sets: a
 * depth-first walk of the seed tree. In verify mode the walk starts unseeded and takes the
 * seeds of published nodes from the path, so only rounds with chall_2 = 1 are yielded.
 */
typedef struct seed_iter {
    const cross_ctx *c;
    const uint8_t *salt;
    /* fast sets */
    grove_keccak_ctx q;
    uint8_t quarter[4 * CROSS_MAX_SEED];
    unsigned qi;
    size_t qleft;
    size_t round;
    /* tree sets */
    seed_item st[CROSS_MAX_LEVELS + 2];
    unsigned sp;
    const pub_list *pub;   /* published nodes: path in (verify) or out (sign) */
    const uint8_t *path_in;
    uint8_t *path_out;
    const uint8_t *prune;  /* chall_2: skip subtrees whose rounds all have chall_2 = 1 */
} seed_iter;

static void seed_iter_start(seed_iter *it, const cross_ctx *c, const uint8_t *root_seed,
                            const uint8_t *salt)
{
    it->c = c;
    it->salt = salt;
    it->round = 0;
    it->pub = NULL;
    it->path_in = NULL;
    it->path_out = NULL;
    it->prune = NULL;
    size_t sl = c->z.seed;
    if (c->p->corner == 0) {
        uint8_t in[CROSS_MAX_SEED + CROSS_MAX_DIGEST];
        memcpy(in, root_seed, sl);
        memcpy(in + sl, salt, c->z.digest);
        cross_xof_start(c, &it->q, in, sl + c->z.digest, 0);
        grove_keccak_squeeze(&it->q, it->quarter, 4 * sl);
        it->qi = 0;
        it->qleft = 0;
        grove_wipe(in, sizeof in);
    } else {
        it->sp = 1;
        cross_tree_root_node(c, &it->st[0].n);
        it->st[0].seeded = root_seed != NULL;
        if (root_seed)
            memcpy(it->st[0].seed, root_seed, sl);
    }
}

/* Next seed of a fast set (all rounds in order). */
static void quarter_next(seed_iter *it, uint8_t *seed)
{
    const cross_ctx *c = it->c;
    size_t sl = c->z.seed;
    while (it->qleft == 0) {
        uint8_t in[CROSS_MAX_SEED + CROSS_MAX_DIGEST];
        memcpy(in, it->quarter + it->qi * sl, sl);
        memcpy(in + sl, it->salt, c->z.digest);
        cross_xof_start(c, &it->q, in, sl + c->z.digest, (uint16_t)(it->qi + 1u));
        it->qleft = c->t / 4 + (it->qi < c->t % 4 ? 1u : 0u);
        it->qi++;
        grove_wipe(in, sizeof in);
    }
    grove_keccak_squeeze(&it->q, seed, sl);
    it->qleft--;
    it->round++;
}

/*
 * Next seeded leaf of a tree set: returns its round, or -1 when the walk is over. Nodes are
 * expanded with CSPRNG(seed || salt, dsc = node index) into the two children's seeds.
 */
static long tree_next(seed_iter *it, uint8_t *seed)
{
    const cross_ctx *c = it->c;
    size_t sl = c->z.seed;
    while (it->sp > 0) {
        seed_item *top = &it->st[--it->sp];
        cross_tnode n = top->n;
        int seeded = top->seeded;
        if (it->pub != NULL && n.idx != 0) {
            long rk = pub_rank(it->pub, n.idx);
            if (rk >= 0) {
                if (!seeded && it->path_in) {
                    memcpy(top->seed, it->path_in + (size_t)rk * sl, sl);
                    seeded = 1;
                } else if (seeded && it->path_out) {
                    memcpy(it->path_out + (size_t)rk * sl, top->seed, sl);
                }
            }
        }
        if (it->prune != NULL && all_ones(it->prune, n.first, n.cnt)) {
            grove_wipe(top->seed, sl); /* published (path written above) or below one */
            continue;
        }
        if (n.cnt == 1) {
            if (!seeded)
                continue;
            memcpy(seed, top->seed, sl);
            grove_wipe(top->seed, sl);
            return (long)n.first;
        }
        cross_tnode l, r;
        cross_tree_children(c, &n, &l, &r);
        seed_item *ri = &it->st[it->sp];     /* reuses the popped slot */
        seed_item *li = &it->st[it->sp + 1];
        if (seeded) {
            uint8_t in[CROSS_MAX_SEED + CROSS_MAX_DIGEST], out[2 * CROSS_MAX_SEED];
            grove_keccak_ctx x;
            memcpy(in, top->seed, sl);
            memcpy(in + sl, it->salt, c->z.digest);
            cross_xof_start(c, &x, in, sl + c->z.digest, n.idx);
            grove_keccak_squeeze(&x, out, 2 * sl);
            memcpy(li->seed, out, sl);
            memcpy(ri->seed, out + sl, sl);
            grove_wipe(in, sizeof in);
            grove_wipe(out, sizeof out);
            grove_wipe(&x, sizeof x);
        }
        ri->n = r;
        ri->seeded = (uint8_t)seeded;
        li->n = l;
        li->seeded = (uint8_t)seeded;
        it->sp += 2;
    }
    return -1;
}

static void seed_iter_wipe(seed_iter *it)
{
    grove_wipe(it, sizeof *it);
}

/* ---- Merkle tree ---------------------------------------------------------------------------- */

/*
 * The cmt_0 of every round while signing: rounds below split in the workspace, the others (in
 * small-memory mode) at the end of the signature buffer, which is free until the responses.
 */
typedef struct leaf_store {
    uint8_t *a, *b;
    size_t split, d;
} leaf_store;

static uint8_t *leaf_at(const leaf_store *ls, size_t i)
{
    return i < ls->split ? ls->a + i * ls->d : ls->b + (i - ls->split) * ls->d;
}

/* Root of the subtree n over the stored leaves (cmt_0 of every round). */
static void merkle_sub(const cross_ctx *c, const cross_tnode *n, const leaf_store *leaves,
                       uint8_t *out)
{
    size_t d = c->z.digest;
    if (n->cnt == 1) {
        memcpy(out, leaf_at(leaves, n->first), d);
        return;
    }
    uint8_t buf[2 * CROSS_MAX_DIGEST];
    cross_tnode l, r;
    cross_tree_children(c, n, &l, &r);
    merkle_sub(c, &l, leaves, buf);
    merkle_sub(c, &r, leaves, buf + d);
    cross_hash(c, out, buf, 2 * d, CROSS_HASH_DSC);
}

/* The proof (sign): the published nodes' values, in descending index order. */
static void merkle_proof(const cross_ctx *c, const cross_tnode *n, const leaf_store *leaves,
                         const pub_list *pl, uint8_t *proof)
{
    if (n->idx != 0) {
        long rk = pub_rank(pl, n->idx);
        if (rk >= 0) {
            merkle_sub(c, n, leaves, proof + (pl->cnt - 1 - (size_t)rk) * c->z.digest);
            return;
        }
    }
    if (n->cnt == 1)
        return;
    cross_tnode l, r;
    cross_tree_children(c, n, &l, &r);
    merkle_proof(c, &l, leaves, pl, proof);
    merkle_proof(c, &r, leaves, pl, proof);
}

/* Root (verify) from the known leaves (chall_2 = 0, in round order) and the proof. */
typedef struct vroot_ctx {
    const uint8_t *known;
    size_t next;
    const uint8_t *proof;
    const pub_list *pl;
} vroot_ctx;

static void merkle_verify_root(const cross_ctx *c, const cross_tnode *n, vroot_ctx *v,
                               uint8_t *out)
{
    size_t d = c->z.digest;
    if (n->idx != 0) {
        long rk = pub_rank(v->pl, n->idx);
        if (rk >= 0) {
            memcpy(out, v->proof + (v->pl->cnt - 1 - (size_t)rk) * d, d);
            return;
        }
    }
    if (n->cnt == 1) {
        memcpy(out, v->known + v->next * d, d);
        v->next++;
        return;
    }
    uint8_t buf[2 * CROSS_MAX_DIGEST];
    cross_tnode l, r;
    cross_tree_children(c, n, &l, &r);
    merkle_verify_root(c, &l, v, buf);
    merkle_verify_root(c, &r, v, buf + d);
    cross_hash(c, out, buf, 2 * d, CROSS_HASH_DSC);
}

/*
 * Batched Merkle nodes (small-memory on x86): the values of up to SMALL_BATCH nodes at once.
 * Known values (leaves, published nodes in verify) are copied; the children of the others
 * are computed in chunks of SMALL_BATCH by the same function one level down, straight into
 * the hash inputs, then those nodes hashed together. Each level of recursion owns
 * SMALL_BATCH hash inputs and 2 * SMALL_BATCH nodes of the scratch (merkle_scratch_bytes).
 */
typedef struct merkle_src {
    const leaf_store *ls;                /* sign: the cmt_0 of every round */
    const uint8_t *known, *ch2, *proof;  /* verify: cmt_0 of the chall_2 = 0 rounds, proof */
    const pub_list *pl;                  /* verify: the published nodes (NULL when signing) */
    uint8_t *scratch;
} merkle_src;

static size_t merkle_level_bytes(const cross_ctx *c)
{
    size_t in = SMALL_BATCH * ((2 * c->z.digest + 2 + 7) & ~(size_t)7);
    size_t nodes = (2 * SMALL_BATCH * sizeof(cross_tnode) + 7) & ~(size_t)7;
    return 3 * SMALL_BATCH * sizeof(uint8_t *) + in + nodes;
}

static size_t merkle_scratch_bytes(const cross_ctx *c)
{
    return SMALL_BATCH > 1 ? (size_t)c->levels * merkle_level_bytes(c) : 0;
}

/* A node's value without hashing (a leaf, or a published node in verify): 1 if copied. */
static int merkle_known(const cross_ctx *c, const merkle_src *m, const cross_tnode *n,
                        uint8_t *out)
{
    size_t d = c->z.digest;
    if (m->pl != NULL && n->idx != 0) {
        long rk = pub_rank(m->pl, n->idx);
        if (rk >= 0) {
            memcpy(out, m->proof + (m->pl->cnt - 1 - (size_t)rk) * d, d);
            return 1;
        }
    }
    if (n->cnt != 1)
        return 0;
    if (m->pl == NULL) {
        memcpy(out, leaf_at(m->ls, n->first), d);
    } else if (m->ch2[n->first] == 0) { /* always: published nodes cover the others */
        size_t k = 0;
        for (size_t i = 0; i < n->first; i++)
            k += m->ch2[i] == 0;
        memcpy(out, m->known + k * d, d);
    } else {
        memset(out, 0, d);
    }
    return 1;
}

static void merkle_many(const cross_ctx *c, const merkle_src *m, const cross_tnode *ns,
                        size_t cnt, uint8_t *const outs[], unsigned depth)
{
    const size_t d = c->z.digest, stride = (2 * d + 2 + 7) & ~(size_t)7;
    /* everything per level in the scratch: the recursion's stack frames stay small */
    uint8_t **in = (uint8_t **)(void *)(m->scratch + depth * merkle_level_bytes(c));
    uint8_t **ho = in + SMALL_BATCH, **co = ho + SMALL_BATCH;
    uint8_t *base = (uint8_t *)(co + SMALL_BATCH);
    cross_tnode *ch = (cross_tnode *)(void *)(base + SMALL_BATCH * stride);
    size_t nh = 0;
    for (size_t j = 0; j < cnt; j++) {
        if (merkle_known(c, m, &ns[j], outs[j]))
            continue;
        in[nh] = base + nh * stride;
        ho[nh] = outs[j];
        cross_tree_children(c, &ns[j], &ch[2 * nh], &ch[2 * nh + 1]);
        cross_put_dsc(in[nh] + 2 * d, CROSS_HASH_DSC);
        nh++;
    }
    for (size_t k = 0; k < 2 * nh; k += SMALL_BATCH) {
        size_t nc = 2 * nh - k < SMALL_BATCH ? 2 * nh - k : SMALL_BATCH;
        for (size_t j = 0; j < nc; j++)
            co[j] = in[(k + j) / 2] + ((k + j) % 2) * d;
        merkle_many(c, m, ch + k, nc, co, depth + 1);
    }
    cross_shake_many(c, ho, d, (const uint8_t *const *)in, 2 * d + 2, nh);
}

/* Sign: the proof's nodes (the published ones, descending index order) SMALL_BATCH at a time. */
typedef struct proof_acc {
    cross_tnode n[SMALL_BATCH];
    uint8_t *o[SMALL_BATCH];
    size_t cnt;
} proof_acc;

static void merkle_proof_many(const cross_ctx *c, const cross_tnode *n, const merkle_src *m,
                              const pub_list *pl, uint8_t *proof, proof_acc *acc)
{
    if (n->idx != 0) {
        long rk = pub_rank(pl, n->idx);
        if (rk >= 0) {
            acc->n[acc->cnt] = *n;
            acc->o[acc->cnt++] = proof + (pl->cnt - 1 - (size_t)rk) * c->z.digest;
            if (acc->cnt == SMALL_BATCH) {
                merkle_many(c, m, acc->n, acc->cnt, acc->o, 0);
                acc->cnt = 0;
            }
            return;
        }
    }
    if (n->cnt == 1)
        return;
    cross_tnode l, r;
    cross_tree_children(c, n, &l, &r);
    merkle_proof_many(c, &l, m, pl, proof, acc);
    merkle_proof_many(c, &r, m, pl, proof, acc);
}

/* Fast sets: d0 = H(H(group_1) || ... || H(group_4)) over the 4-way split of cmt_0. */
static size_t group_size(const cross_ctx *c, unsigned q)
{
    return c->t / 4 + (q < c->t % 4 ? 1u : 0u);
}

/* ---- fast strategy: whole trees, level by level through the batch SHAKE interface ---------- */

/* Every node of the tree in level order: tn[i].idx == i (breadth first is the linear order). */
static void tree_list(const cross_ctx *c, cross_tnode *tn)
{
    size_t tail = 1;
    cross_tree_root_node(c, &tn[0]);
    for (size_t i = 0; i < tail; i++)
        if (tn[i].cnt > 1) {
            cross_tree_children(c, &tn[i], &tn[tail], &tn[tail + 1]);
            tail += 2;
        }
}

/* Left child index of an internal node (the right one follows it). */
static size_t left_child(const cross_ctx *c, const cross_tnode *n)
{
    return (size_t)c->start[n->level + 1] + 2u * n->pos;
}

/*
 * Expand the seeds of the internal nodes of each level that are marked in `seeded` (NULL: all),
 * four at a time: children = CSPRNG(seed || salt, dsc = node index). Marks the children.
 */
static void tree_seeds_batched(const cross_ctx *c, const cross_tnode *tn, uint8_t *nodes,
                               uint8_t *seeded, const uint8_t *salt, uint8_t *const in[])
{
    size_t sl = c->z.seed, d = c->z.digest, inl = sl + d + 2;
    for (unsigned l = 0; l + 1 < c->levels; l++) {
        uint8_t *out[FAST_BATCH];
        size_t nb = 0;
        for (size_t idx = c->start[l]; idx < c->start[l + 1]; idx++) {
            if (tn[idx].cnt < 2 || (seeded && !seeded[idx]))
                continue;
            size_t lc = left_child(c, &tn[idx]);
            memcpy(in[nb], nodes + idx * sl, sl);
            memcpy(in[nb] + sl, salt, d);
            cross_put_dsc(in[nb] + sl + d, (uint16_t)idx);
            out[nb++] = nodes + lc * sl;
            if (seeded)
                seeded[lc] = seeded[lc + 1] = 1;
            if (nb == FAST_BATCH) {
                cross_shake_many(c, out, 2 * sl, (const uint8_t *const *)in, inl, nb);
                nb = 0;
            }
        }
        cross_shake_many(c, out, 2 * sl, (const uint8_t *const *)in, inl, nb);
    }
}

/*
 * Merkle nodes bottom-up, level by level, four at a time: every internal node whose two
 * children are available (avail NULL: all are) and that is not available itself.
 */
static void tree_merkle_batched(const cross_ctx *c, const cross_tnode *tn, uint8_t *mv,
                                uint8_t *avail, uint8_t *const in[])
{
    size_t d = c->z.digest;
    for (unsigned l = c->levels - 1; l-- > 0;) {
        uint8_t *out[FAST_BATCH];
        size_t nb = 0;
        for (size_t idx = c->start[l]; idx < c->start[l + 1]; idx++) {
            if (tn[idx].cnt < 2)
                continue;
            size_t lc = left_child(c, &tn[idx]);
            if (avail && (avail[idx] || !avail[lc] || !avail[lc + 1]))
                continue;
            memcpy(in[nb], mv + lc * d, 2 * d);
            cross_put_dsc(in[nb] + 2 * d, CROSS_HASH_DSC);
            out[nb++] = mv + idx * d;
            if (avail)
                avail[idx] = 1;
            if (nb == FAST_BATCH) {
                cross_shake_many(c, out, d, (const uint8_t *const *)in, 2 * d + 2, nb);
                nb = 0;
            }
        }
        cross_shake_many(c, out, d, (const uint8_t *const *)in, 2 * d + 2, nb);
    }
}

/* Fast sets, fast strategy: the four seed streams squeezed together (equal lengths). */
static void quarter_seeds_batched(const cross_ctx *c, const uint8_t *root_seed,
                                  const uint8_t *salt, uint8_t *seeds, uint8_t *scratch,
                                  uint8_t *const in[])
{
    size_t sl = c->z.seed, d = c->z.digest, inl = sl + d + 2;
    uint8_t quarter[4 * CROSS_MAX_SEED];
    grove_keccak_ctx x;
    memcpy(in[0], root_seed, sl);
    memcpy(in[0] + sl, salt, d);
    cross_xof_start(c, &x, in[0], sl + d, 0);
    grove_keccak_squeeze(&x, quarter, 4 * sl);
    size_t qmax = c->t / 4 + 1;
    uint8_t *out[4];
    for (unsigned q = 0; q < 4; q++) {
        memcpy(in[q], quarter + q * sl, sl);
        memcpy(in[q] + sl, salt, d);
        cross_put_dsc(in[q] + sl + d, (uint16_t)(q + 1));
        out[q] = scratch + q * qmax * sl;
    }
    cross_shake_many(c, out, qmax * sl, (const uint8_t *const *)in, inl, 4);
    size_t off = 0;
    for (unsigned q = 0; q < 4; q++) {
        size_t gs = group_size(c, q);
        memcpy(seeds + off * sl, out[q], gs * sl);
        off += gs;
    }
    grove_wipe(quarter, sizeof quarter);
    grove_wipe(&x, sizeof x);
    grove_wipe(scratch, 4 * qmax * sl);
    for (unsigned q = 0; q < 4; q++)
        grove_wipe(in[q], inl);
}

/* ---- batched seed-tree walk (small-memory on x86) ------------------------------------------ */

/* A consumer of round seeds, called in round order. */
typedef void (*seed_sink)(void *ctx, size_t round, const uint8_t *seed);

/* Per level of recursion 2 * SMALL_BATCH seeds, nodes and seeded flags; SMALL_BATCH CSPRNG
 * inputs shared by all levels. */
static size_t walk_level_bytes(const cross_ctx *c)
{
    return 2 * SMALL_BATCH * sizeof(uint8_t *) +
           ((2 * SMALL_BATCH * (c->z.seed + sizeof(cross_tnode) + 1) + 7) & ~(size_t)7);
}

static size_t walk_in_stride(const cross_ctx *c)
{
    return (c->z.seed + c->z.digest + 2 + 7) & ~(size_t)7;
}

static size_t walk_scratch_bytes(const cross_ctx *c)
{
    if (SMALL_BATCH == 1)
        return 0;
    return ((size_t)c->levels + 1) * walk_level_bytes(c) + SMALL_BATCH * walk_in_stride(c);
}

typedef struct tree_walk {
    const cross_ctx *c;
    const uint8_t *salt;
    uint8_t *scratch; /* walk_scratch_bytes */
    seed_sink sink;
    void *ctx;
    const pub_list *pub;    /* published nodes: seeds read from path_in (verify) or */
    const uint8_t *path_in; /* written to path_out (sign) */
    uint8_t *path_out;
    const uint8_t *prune; /* chall_2: skip subtrees whose rounds all have chall_2 = 1 */
} tree_walk;

/*
 * The nodes ns[0 .. cnt-1] (left to right, cnt <= SMALL_BATCH; seeds and seeded flags) walked
 * as tree_next does, with the same seeds handed on in the same order: leaves are kept, the
 * other nodes replaced by their children (the seeded ones expanded in one batch), and the
 * resulting list walked SMALL_BATCH nodes at a time one level down; a list of leaves only
 * goes to the sink (its seeded ones).
 */
static void tree_walk_many(const tree_walk *w, const cross_tnode *ns, const uint8_t *seeds,
                           const uint8_t *seeded, size_t cnt, unsigned depth)
{
    const cross_ctx *c = w->c;
    const size_t sl = c->z.seed, d = c->z.digest, inl = sl + d + 2;
    /* everything per level in the scratch: the recursion's stack frames stay small */
    uint8_t **in = (uint8_t **)(void *)(w->scratch + SMALL_BATCH * walk_in_stride(c) +
                                        depth * walk_level_bytes(c));
    uint8_t **out = in + SMALL_BATCH;
    uint8_t *nseeds = (uint8_t *)(out + SMALL_BATCH);
    cross_tnode *nn = (cross_tnode *)(void *)(nseeds + 2 * SMALL_BATCH * sl);
    uint8_t *nsd = (uint8_t *)(nn + 2 * SMALL_BATCH);
    size_t nx = 0, nh = 0, leaves = 1;
    for (size_t j = 0; j < cnt; j++) {
        const cross_tnode *n = &ns[j];
        const uint8_t *seed = seeds + j * sl;
        int sd = seeded[j];
        long rk = w->pub != NULL && n->idx != 0 ? pub_rank(w->pub, n->idx) : -1;
        if (rk >= 0 && !sd && w->path_in != NULL) {
            seed = w->path_in + (size_t)rk * sl;
            sd = 1;
        } else if (rk >= 0 && sd && w->path_out != NULL) {
            memcpy(w->path_out + (size_t)rk * sl, seed, sl);
        }
        if ((w->prune != NULL && all_ones(w->prune, n->first, n->cnt)) || (n->cnt == 1 && !sd))
            continue;
        nsd[nx] = nsd[nx + 1] = (uint8_t)sd;
        if (n->cnt == 1) {
            nn[nx] = *n;
            memcpy(nseeds + (nx++) * sl, seed, sl);
            continue;
        }
        leaves = 0;
        cross_tree_children(c, n, &nn[nx], &nn[nx + 1]);
        if (sd) {
            in[nh] = w->scratch + nh * walk_in_stride(c);
            memcpy(in[nh], seed, sl);
            memcpy(in[nh] + sl, w->salt, d);
            cross_put_dsc(in[nh] + sl + d, n->idx);
            out[nh++] = nseeds + nx * sl; /* left child's seed, then the right one's */
        }
        nx += 2;
    }
    cross_shake_many(c, out, 2 * sl, (const uint8_t *const *)in, inl, nh);
    if (leaves) {
        for (size_t j = 0; j < nx; j++)
            w->sink(w->ctx, nn[j].first, nseeds + j * sl);
    } else {
        for (size_t k = 0; k < nx; k += SMALL_BATCH)
            tree_walk_many(w, nn + k, nseeds + k * sl, nsd + k,
                           nx - k < SMALL_BATCH ? nx - k : SMALL_BATCH, depth + 1);
    }
    grove_wipe(nseeds, 2 * SMALL_BATCH * sl);
}

/* The seed walk and the Merkle recursion never run at the same time: one scratch for both. */
static uint8_t *tree_scratch(const cross_ctx *c, arena *a)
{
    size_t mb = merkle_scratch_bytes(c), wb = walk_scratch_bytes(c);
    size_t n = mb > wb ? mb : wb;
    return n > 0 ? (uint8_t *)ar_take(a, n) : NULL;
}

/* ---- signing -------------------------------------------------------------------------------- */

typedef struct sign_bufs {
    void *vt;
    uint8_t *wmat, *e, *eg, *ch2, *cmt0;
    uint16_t *ch1, *pub;
    /* fast caches (NULL in small-memory) */
    uint8_t *seeds, *nodes, *ep_c, *epg_c, *cmt1_c, *mvals, *hin[FAST_BATCH];
    cross_tnode *tn;
    uint16_t *up_c;
    /* per-slot buffers */
    uint8_t *sin[FAST_BATCH], *xo[FAST_BATCH], *c0in[FAST_BATCH], *c1in[FAST_BATCH];
    uint8_t *c1out[FAST_BATCH], *ep[FAST_BATCH], *epg[FAST_BATCH];
    uint16_t *up[FAST_BATCH];
    uint16_t *tmp;
    uint8_t *vb, *ybuf;
    uint8_t *mscratch; /* small-memory tree sets, x86: batched Merkle nodes */
    uint8_t *wscratch; /* small-memory tree sets, x86: batched seed-tree walk */
    size_t batch;
} sign_bufs;

/*
 * Small-memory signing borrows the signature buffer: the cmt_0 leaves of the tree sets that fit
 * in the response fields (written last) go there, and V^T (used in pass 1 only) goes to a field
 * that pass 1 does not touch: the responses y/v of the fast sets (whose cmt_0 fill the proof
 * and resp_1 fields), the path and proof of the tree sets.
 */
static size_t leaves_in_sig(const cross_ctx *c, int fast)
{
    if (fast || c->p->corner == 0)
        return 0;
    size_t fit = (c->z.sig - c->z.off_resp1) / c->z.digest;
    return fit < c->t ? fit : c->t;
}

static size_t vt_bytes(const cross_ctx *c)
{
    return c->k * (c->n - c->k) * (c->p->rsdpg ? 2u : 1u);
}

/* Offset and room of the V^T scratch field in the signature (0 room if none). */
static size_t vt_room(const cross_ctx *c, size_t *off)
{
    if (c->p->corner == 0) {
        *off = c->z.off_resp0;
        return c->z.sig - c->z.off_resp0;
    }
    *off = c->z.off_path;
    return c->z.off_resp1 - c->z.off_path;
}

static int vt_in_sig(const cross_ctx *c, int fast)
{
    size_t off;
    return !fast && vt_room(c, &off) >= vt_bytes(c) + 8;
}

static void sign_layout(const cross_ctx *c, int fast, arena *a, sign_bufs *b)
{
    size_t n = c->n, m = c->m, t = c->t, d = c->z.digest, sl = c->z.seed;
    int g = c->p->rsdpg;
    memset(b, 0, sizeof *b);
    b->batch = fast ? FAST_BATCH : SMALL_BATCH;
    b->vt = vt_in_sig(c, fast) ? NULL : ar_take(a, vt_bytes(c));
    b->wmat = g ? (uint8_t *)ar_take(a, m * (n - m)) : NULL;
    b->e = (uint8_t *)ar_take(a, n);
    b->eg = (uint8_t *)ar_take(a, m + 1);
    b->ch2 = (uint8_t *)ar_take(a, t);
    if (c->p->corner != 0) {
        b->cmt0 = (uint8_t *)ar_take(a, (t - leaves_in_sig(c, fast)) * d);
        b->pub = (uint16_t *)ar_take(a, c->p->nodes_to_store * sizeof(uint16_t));
        if (!fast)
            b->mscratch = b->wscratch = tree_scratch(c, a);
    }
    if (fast) {
        b->ch1 = (uint16_t *)ar_take(a, t * sizeof(uint16_t));
        b->seeds = (uint8_t *)ar_take(a, t * sl);
        if (c->p->corner != 0) {
            b->nodes = (uint8_t *)ar_take(a, (2 * t - 1) * sl);
            b->mvals = (uint8_t *)ar_take(a, (2 * t - 1) * d);
            b->tn = (cross_tnode *)ar_take(a, (2 * t - 1) * sizeof(cross_tnode));
        } else {
            b->nodes = (uint8_t *)ar_take(a, 4 * (t / 4 + 1) * sl); /* quarter streams */
        }
        for (size_t s = 0; s < FAST_BATCH; s++)
            b->hin[s] = (uint8_t *)ar_take(a, 2 * d + 2);
        b->ep_c = (uint8_t *)ar_take(a, t * n);
        if (g)
            b->epg_c = (uint8_t *)ar_take(a, t * m);
        b->up_c = (uint16_t *)ar_take(a, t * n * sizeof(uint16_t));
        b->cmt1_c = (uint8_t *)ar_take(a, t * d);
    }
    size_t inl = sl + d + 2;
    for (size_t s = 0; s < b->batch; s++) {
        b->sin[s] = (uint8_t *)ar_take(a, inl);
        b->c1in[s] = (uint8_t *)ar_take(a, inl);
        b->xo[s] = (uint8_t *)ar_take(a, c->xe + c->xu);
        b->c0in[s] = (uint8_t *)ar_take(a, c->z.ps + c->z.pv + d + 2);
        if (!fast)
            b->c1out[s] = (uint8_t *)ar_take(a, d);
        if (!fast && s == 0) { /* small-memory: e', u' used right after their expansion */
            b->ep[s] = (uint8_t *)ar_take(a, n);
            b->epg[s] = (uint8_t *)ar_take(a, m + 1);
            b->up[s] = (uint16_t *)ar_take(a, n * sizeof(uint16_t));
        }
    }
    b->tmp = (uint16_t *)ar_take(a, n * sizeof(uint16_t));
    b->vb = (uint8_t *)ar_take(a, n);
    b->ybuf = (uint8_t *)ar_take(a, c->z.py);
}

typedef struct sign_job {
    const cross_ctx *c;
    int fast;
    uint8_t *sig;
    const uint8_t *msg;
    size_t mlen;
    const uint8_t *sk, *root_seed, *salt;
} sign_job;

/* What the signing steps share: the job, the workspace buffers and the challenge state. */
typedef struct sign_state {
    const sign_job *j;
    const cross_ctx *c;
    int fast;
    uint8_t *sig;
    const uint8_t *salt;
    sign_bufs b;
    leaf_store ls;         /* cmt_0 of every round */
    uint8_t *seed_store;   /* small-memory tree sets: round seeds parked in the signature */
    seed_iter it;          /* small-memory: round seeds regenerated in each pass */
    ch1_stream cs;         /* chall_1, squeezed as a stream (small-memory) */
    pub_list pl;           /* published tree nodes (path and proof) */
    uint8_t seed[CROSS_MAX_SEED];
    uint8_t dch1[CROSS_MAX_DIGEST]; /* digest_chall_1 */
    /* rounds queued for the next batch (slots 0 .. nq-1), and where their results go */
    grove_keccak_ctx *d1, *hx; /* digest of all cmt_1 (pass 1), of all y (pass 2) */
    size_t nq, ch_next, r;     /* queued, chall_1 values drawn, responses written */
    size_t rnd[SMALL_BATCH]; /* small-memory responses: rounds and chall_1 values */
    uint16_t chs[SMALL_BATCH];
} sign_state;

/* e'_i, e'_G,i and u'_i of one round: pointers into the fast cache or the slot-0 buffers. */
typedef struct round_vecs {
    const uint8_t *ep, *epg;
    const uint16_t *up;
} round_vecs;

/* Next round seed (fast sets or trees, sign mode). */
static void next_seed(seed_iter *it, uint8_t *seed)
{
    if (it->c->p->corner == 0)
        quarter_next(it, seed);
    else
        (void)tree_next(it, seed);
}

/* The CSPRNG input of round i: seed_i || salt || dsc. */
static void round_inputs(const cross_ctx *c, const uint8_t *seed, const uint8_t *salt,
                         size_t i, uint8_t *sin)
{
    size_t sl = c->z.seed;
    memcpy(sin, seed, sl);
    memcpy(sin + sl, salt, c->z.digest);
    cross_put_dsc(sin + sl + c->z.digest, (uint16_t)(i + 2 * c->t - 1));
}

/* Small-memory: e'_i, e'_G,i, u'_i of slot s expanded into the slot-0 vectors. */
static void round_vecs_slot(sign_state *st, size_t s, round_vecs *rv)
{
    sign_bufs *b = &st->b;
    round_expand(st->c, b->xo[s], b->wmat, b->ep[0], b->epg[0], b->up[0]);
    rv->ep = b->ep[0];
    rv->epg = b->epg[0];
    rv->up = b->up[0];
}

/* The whole seed tree from the root seed, batched (tree sets, SMALL_BATCH > 1). */
static void tree_walk_run(sign_state *st, seed_sink sink, int responses)
{
    tree_walk w = {st->c, st->salt, st->b.wscratch, sink, st, NULL, NULL, NULL, NULL};
    if (responses) {
        w.pub = &st->pl;
        w.path_out = st->sig + st->c->z.off_path;
        w.prune = st->b.ch2; /* only rounds with chall_2 = 0 are handed on */
    }
    cross_tnode root;
    const uint8_t one = 1;
    cross_tree_root_node(st->c, &root);
    tree_walk_many(&w, &root, st->j->root_seed, &one, 1, 0);
    grove_wipe(st->b.wscratch, walk_scratch_bytes(st->c));
}

/* Small-memory tree sets: the batched walk on x86, one seed at a time elsewhere. */
static int tree_walk_batched(const sign_state *st)
{
    return !st->fast && SMALL_BATCH > 1 && st->c->p->corner != 0;
}

/* Fast strategy: e'_i, e'_G,i, u'_i as cached by the commitment step. */
static void round_vecs_cached(const sign_state *st, size_t i, round_vecs *rv)
{
    const cross_ctx *c = st->c;
    rv->ep = st->b.ep_c + i * c->n;
    rv->epg = c->p->rsdpg ? st->b.epg_c + i * c->m : NULL;
    rv->up = st->b.up_c + i * c->n;
}

/*
 * Key material (spec: Sign, lines 1-3): seed_sk -> seed_e || seed_pk, then V^T (and W) and the
 * secret e (and e_G). Also places the buffers that borrow the signature (small-memory) and
 * writes the salt.
 */
static void sign_keys(sign_state *st)
{
    const cross_ctx *c = st->c;
    const size_t t = c->t, d = c->z.digest;
    sign_bufs *b = &st->b;
    uint8_t seeds2[2 * CROSS_MAX_DIGEST];
    /*
     * Small-memory tree sets: when the path and proof fields hold V^T and all round seeds too,
     * the commitment step keeps the seeds there for the next pass (those fields are written
     * last).
     */
    st->seed_store = NULL;
    if (vt_in_sig(c, st->fast)) {
        size_t off, room = vt_room(c, &off);
        uintptr_t at = ((uintptr_t)(st->sig + off) + 7u) & ~(uintptr_t)7u;
        b->vt = (void *)at;
        size_t used = (size_t)(at - (uintptr_t)(st->sig + off)) + vt_bytes(c);
        if (c->p->corner != 0 && room - used >= t * c->z.seed)
            st->seed_store = (uint8_t *)b->vt + vt_bytes(c);
    }
    expand_seed_sk(c, st->j->sk, seeds2);
    GROVE_DECLASSIFY(seeds2 + d, d); /* seed_pk: part of the public key */
    expand_pk(c, seeds2 + d, b->vt, b->wmat);
    expand_e(c, seeds2, b->wmat, b->e, b->eg);
    grove_wipe(seeds2, sizeof seeds2);
    memcpy(st->sig, st->salt, d);
    st->ls.d = d;
    if (c->p->corner == 0) {
        st->ls.a = st->sig + c->z.off_proof;
        st->ls.b = NULL;
        st->ls.split = t;
    } else {
        size_t in_sig = leaves_in_sig(c, st->fast);
        st->ls.a = b->cmt0;
        st->ls.split = t - in_sig;
        st->ls.b = st->sig + c->z.sig - in_sig * d;
    }
}

/* Fast strategy: every round seed at once, batched (spec: Sign, lines 5-6, the seed tree or
 * the 4-way split of the root seed). */
static void sign_seeds_fast(sign_state *st)
{
    const cross_ctx *c = st->c;
    sign_bufs *b = &st->b;
    const size_t t = c->t, sl = c->z.seed;
    if (c->p->corner == 0) {
        quarter_seeds_batched(c, st->j->root_seed, st->salt, b->seeds, b->nodes, b->sin);
        return;
    }
    tree_list(c, b->tn);
    memcpy(b->nodes, st->j->root_seed, sl);
    tree_seeds_batched(c, b->tn, b->nodes, NULL, st->salt, b->sin);
    for (size_t idx = 0; idx < 2 * t - 1; idx++)
        if (b->tn[idx].cnt == 1)
            memcpy(b->seeds + (size_t)b->tn[idx].first * sl, b->nodes + idx * sl, sl);
}

/*
 * Commitments of the rounds i0 .. i0+nb-1, whose CSPRNG inputs seed || salt || dsc are in
 * slots 0 .. nb-1: e', u' -> cmt_0 = H(s' || v_bar || salt || dsc) into the leaf store,
 * cmt_1 = H(seed || salt || dsc) absorbed into d1 (the digest of all cmt_1).
 */
static void commit_batch(sign_state *st, size_t i0, size_t nb)
{
    const cross_ctx *c = st->c;
    sign_bufs *b = &st->b;
    const int fast = st->fast, g = c->p->rsdpg;
    const size_t t = c->t, n = c->n, m = c->m, d = c->z.digest;
    const size_t inl = c->z.seed + d + 2, c0l = c->z.ps + c->z.pv + d + 2;
    uint8_t *c0o[FAST_BATCH], *c1o[FAST_BATCH];
    for (size_t s = 0; s < nb; s++) {
        size_t i = i0 + s;
        memcpy(b->c1in[s], b->sin[s], inl);
        cross_put_dsc(b->c1in[s] + inl - 2, (uint16_t)(CROSS_HASH_DSC + i + 2 * t - 1));
        c0o[s] = leaf_at(&st->ls, i);
        c1o[s] = fast ? b->cmt1_c + i * d : b->c1out[s];
    }
    cross_shake_many(c, b->xo, c->xe + c->xu, (const uint8_t *const *)b->sin, inl, nb);
    for (size_t s = 0; s < nb; s++) {
        size_t i = i0 + s;
        /* fast: cached for the later passes; small-memory: used right away (slot 0) */
        uint8_t *ep = fast ? b->ep_c + i * n : b->ep[0];
        uint8_t *epg = fast ? (g ? b->epg_c + i * m : NULL) : b->epg[0];
        uint16_t *up = fast ? b->up_c + i * n : b->up[0];
        round_expand(c, b->xo[s], b->wmat, ep, epg, up);
        round_cmt0_sign(c, b->c0in[s], b->e, b->eg, ep, epg, up, b->vt, b->tmp, b->vb);
        memcpy(b->c0in[s] + c->z.ps + c->z.pv, st->salt, d);
        cross_put_dsc(b->c0in[s] + c0l - 2, (uint16_t)(CROSS_HASH_DSC + i + 2 * t - 1));
    }
    cross_shake_many(c, c0o, d, (const uint8_t *const *)b->c0in, c0l, nb);
    cross_shake_many(c, c1o, d, (const uint8_t *const *)b->c1in, inl, nb);
    for (size_t s = 0; s < nb; s++)
        grove_keccak_absorb(st->d1, c1o[s], d);
}

/* Pass 1 seed sink: park the seed (small-memory, when it fits) and queue the round. */
static void commit_sink(void *ctx, size_t i, const uint8_t *seed)
{
    sign_state *st = ctx;
    sign_bufs *b = &st->b;
    if (st->seed_store)
        memcpy(st->seed_store + i * st->c->z.seed, seed, st->c->z.seed);
    round_inputs(st->c, seed, st->salt, i, b->sin[st->nq++]);
    if (st->nq == b->batch) {
        commit_batch(st, i + 1 - st->nq, st->nq);
        st->nq = 0;
    }
}

/* Commitments of every round (spec: Sign, lines 7-16), `batch` rounds at a time. */
static void sign_commitments(sign_state *st, grove_keccak_ctx *d1)
{
    const cross_ctx *c = st->c;
    const size_t t = c->t, sl = c->z.seed;
    st->d1 = d1;
    st->nq = 0;
    if (tree_walk_batched(st)) {
        tree_walk_run(st, commit_sink, 0);
    } else {
        if (!st->fast)
            seed_iter_start(&st->it, c, st->j->root_seed, st->salt);
        for (size_t i = 0; i < t; i++) { /* commit_sink without its frame (Cortex-M4 stack) */
            if (st->fast)
                memcpy(st->seed, st->b.seeds + i * sl, sl);
            else
                next_seed(&st->it, st->seed);
            if (st->seed_store)
                memcpy(st->seed_store + i * sl, st->seed, sl);
            round_inputs(c, st->seed, st->salt, i, st->b.sin[st->nq++]);
            if (st->nq == st->b.batch) {
                commit_batch(st, i + 1 - st->nq, st->nq);
                st->nq = 0;
            }
        }
        seed_iter_wipe(&st->it);
    }
    commit_batch(st, t - st->nq, st->nq);
    st->nq = 0;
}

/*
 * digest_cmt = H(d0 || d1) (spec: Sign, lines 17-18): d0 is the Merkle root over cmt_0 (tree
 * sets) or the hash of the four group hashes (fast sets); d1 the digest of all cmt_1.
 */
static void sign_digest_cmt(sign_state *st, grove_keccak_ctx *d1)
{
    const cross_ctx *c = st->c;
    sign_bufs *b = &st->b;
    const size_t t = c->t, d = c->z.digest;
    uint8_t d01[2 * CROSS_MAX_DIGEST];
    if (c->p->corner == 0) {
        uint8_t grp[4 * CROSS_MAX_DIGEST];
        size_t off = 0;
        for (unsigned q = 0; q < 4; q++) {
            size_t gs = group_size(c, q);
            cross_hash(c, grp + q * d, leaf_at(&st->ls, off), gs * d, CROSS_HASH_DSC);
            off += gs;
        }
        cross_hash(c, d01, grp, 4 * d, CROSS_HASH_DSC);
    } else if (st->fast) {
        for (size_t idx = 0; idx < 2 * t - 1; idx++)
            if (b->tn[idx].cnt == 1)
                memcpy(b->mvals + idx * d, leaf_at(&st->ls, b->tn[idx].first), d);
        tree_merkle_batched(c, b->tn, b->mvals, NULL, b->hin);
        memcpy(d01, b->mvals, d);
    } else {
        cross_tnode root;
        cross_tree_root_node(c, &root);
        if (SMALL_BATCH > 1) {
            merkle_src m = {&st->ls, NULL, NULL, NULL, NULL, b->mscratch};
            uint8_t *o[1] = {d01};
            merkle_many(c, &m, &root, 1, o, 0);
        } else {
            merkle_sub(c, &root, &st->ls, d01);
        }
    }
    cross_absorb_dsc(d1, CROSS_HASH_DSC);
    grove_keccak_squeeze(d1, d01 + d, d);
    cross_hash(c, st->sig + d, d01, 2 * d, CROSS_HASH_DSC); /* digest_cmt */
    GROVE_DECLASSIFY(st->sig + d, d); /* digest_cmt is published in the signature */
}

/* digest_chall_1 = H(H(msg) || digest_cmt || salt) (spec: Sign, lines 19-20). */
static void challenge1_digest(const cross_ctx *c, uint8_t *dch1, const uint8_t *msg,
                              size_t mlen, const uint8_t *digest_cmt, const uint8_t *salt)
{
    size_t d = c->z.digest;
    uint8_t dch[3 * CROSS_MAX_DIGEST];
    cross_hash(c, dch, msg, mlen, CROSS_HASH_DSC);
    memcpy(dch + d, digest_cmt, d);
    memcpy(dch + 2 * d, salt, d);
    cross_hash(c, dch1, dch, 3 * d, CROSS_HASH_DSC);
    GROVE_DECLASSIFY(dch1, d); /* a hash of public values (message, digest_cmt, salt) */
    grove_wipe(dch, sizeof dch);
}

/*
 * chall_1 (spec: Sign, line 21): a stream of t nonzero field elements from digest_chall_1.
 * The fast strategy squeezes all of them now; small-memory squeezes them as its passes go.
 */
static void sign_challenge1(sign_state *st)
{
    const cross_ctx *c = st->c;
    challenge1_digest(c, st->dch1, st->j->msg, st->j->mlen, st->sig + c->z.digest, st->salt);
    ch1_start(c, &st->cs, st->dch1);
    if (st->fast)
        for (size_t i = 0; i < c->t; i++)
            st->b.ch1[i] = cross_sample_chall1(c, &st->cs.r);
}

/* Small-memory, pass 2: y of the queued rounds (slots 0 .. nq-1) into the digest of all y. */
static void y_batch(sign_state *st)
{
    const cross_ctx *c = st->c;
    sign_bufs *b = &st->b;
    cross_shake_many(c, b->xo, c->xe + c->xu, (const uint8_t *const *)b->sin,
                     c->z.seed + c->z.digest + 2, st->nq);
    for (size_t s = 0; s < st->nq; s++) {
        round_vecs rv;
        round_vecs_slot(st, s, &rv);
        round_y(c, b->tmp, rv.ep, rv.up, cross_sample_chall1(c, &st->cs.r));
        cross_pack_fp(b->ybuf, b->tmp, c->n, c->z.bp);
        grove_keccak_absorb(st->hx, b->ybuf, c->z.py);
    }
    st->nq = 0;
}

/* Pass 2 seed sink (small-memory): queue the round. */
static void y_sink(void *ctx, size_t i, const uint8_t *seed)
{
    sign_state *st = ctx;
    round_inputs(st->c, seed, st->salt, i, st->b.sin[st->nq++]);
    if (st->nq == st->b.batch)
        y_batch(st);
}

/* Small-memory, pass 2: every round's seed again (parked, walked or re-squeezed) -> y. */
static void sign_y_small(sign_state *st)
{
    const cross_ctx *c = st->c;
    const size_t t = c->t, sl = c->z.seed;
    st->nq = 0;
    if (st->seed_store) {
        for (size_t i = 0; i < t; i++)
            y_sink(st, i, st->seed_store + i * sl);
    } else if (tree_walk_batched(st)) {
        tree_walk_run(st, y_sink, 0);
    } else {
        seed_iter_start(&st->it, c, st->j->root_seed, st->salt);
        for (size_t i = 0; i < t; i++) {
            next_seed(&st->it, st->seed);
            y_sink(st, i, st->seed);
        }
        seed_iter_wipe(&st->it);
    }
    y_batch(st);
}

/*
 * First responses and chall_2 (spec: Sign, lines 22-28): y_i = u'_i + chall_1[i] g^e'_i for
 * every round, digest_chall_2 = H(y_1 || ... || y_t || digest_chall_1), and chall_2 the
 * fixed-weight string expanded from it.
 */
static void sign_challenge2(sign_state *st)
{
    const cross_ctx *c = st->c;
    sign_bufs *b = &st->b;
    const size_t t = c->t, d = c->z.digest;
    grove_keccak_ctx hx;
    cross_xof_init(c, &hx);
    st->hx = &hx;
    if (!st->fast) {
        sign_y_small(st);
    } else {
        for (size_t i = 0; i < t; i++) {
            round_vecs rv;
            round_vecs_cached(st, i, &rv);
            round_y(c, b->tmp, rv.ep, rv.up, b->ch1[i]);
            cross_pack_fp(b->ybuf, b->tmp, c->n, c->z.bp);
            grove_keccak_absorb(&hx, b->ybuf, c->z.py);
        }
    }
    grove_keccak_absorb(&hx, st->dch1, d);
    cross_absorb_dsc(&hx, CROSS_HASH_DSC);
    grove_keccak_squeeze(&hx, st->sig + 2 * d, d); /* digest_chall_2 */
    GROVE_DECLASSIFY(st->sig + 2 * d, d); /* published in the signature */
    fixed_weight(c, b->ch2, st->sig + 2 * d);
    st->hx = NULL;
    grove_wipe(&hx, sizeof hx);
}

/*
 * The Merkle proof and, for the fast strategy, the seed path (spec: Sign, lines 29-30):
 * tree sets publish the nodes covering the rounds with chall_2 = 1; fast sets publish those
 * rounds' cmt_0 (compacted in place in the proof field) and, later, their seeds.
 */
static int sign_proof(sign_state *st)
{
    const cross_ctx *c = st->c;
    sign_bufs *b = &st->b;
    const size_t t = c->t, d = c->z.digest, sl = c->z.seed;
    uint8_t *path = st->sig + c->z.off_path, *proof = st->sig + c->z.off_proof;
    pub_list *pl = &st->pl;
    if (c->p->corner == 0) {
        size_t q = 0;
        for (size_t i = 0; i < t; i++)
            if (b->ch2[i] == 1) {
                if (q != i)
                    memmove(proof + q * d, leaf_at(&st->ls, i), d);
                q++;
            }
        return GROVE_OK;
    }
    if (!pub_build(c, b->ch2, pl))
        return GROVE_ERR_INTERNAL; /* more published nodes than the format holds */
    memset(path, 0, c->z.path);
    memset(proof, 0, c->z.proof);
    if (st->fast) {
        for (size_t r = 0; r < pl->cnt; r++)
            memcpy(proof + (pl->cnt - 1 - r) * d, b->mvals + (size_t)pl->idx[r] * d, d);
        for (size_t r = 0; r < pl->cnt; r++)
            memcpy(path + r * sl, b->nodes + (size_t)pl->idx[r] * sl, sl);
    } else {
        cross_tnode root;
        cross_tree_root_node(c, &root);
        if (SMALL_BATCH > 1) {
            merkle_src m = {&st->ls, NULL, NULL, NULL, NULL, b->mscratch};
            proof_acc acc;
            acc.cnt = 0;
            merkle_proof_many(c, &root, &m, pl, proof, &acc);
            merkle_many(c, &m, acc.n, acc.cnt, acc.o, 0);
        } else {
            merkle_proof(c, &root, &st->ls, pl, proof);
        }
    }
    return GROVE_OK;
}

/*
 * Small-memory responses of the chall_2 = 0 rounds queued in slots 0 .. nq-1 (CSPRNG inputs in
 * b->sin, rounds in rnd, chall_1 values in chs), the first of them response number r: e', u'
 * and cmt_1 = resp_1 recomputed together, then resp_0 = (y, v_bar or v_G_bar).
 */
static void responses_batch(sign_state *st)
{
    const cross_ctx *c = st->c;
    sign_bufs *b = &st->b;
    const size_t t = c->t, d = c->z.digest, inl = c->z.seed + d + 2, nb = st->nq;
    uint8_t *c1o[FAST_BATCH];
    for (size_t s = 0; s < nb; s++) {
        memcpy(b->c1in[s], b->sin[s], inl);
        cross_put_dsc(b->c1in[s] + inl - 2, (uint16_t)(CROSS_HASH_DSC + st->rnd[s] + 2 * t - 1));
        c1o[s] = st->sig + c->z.off_resp1 + (st->r + s) * d;
    }
    cross_shake_many(c, b->xo, c->xe + c->xu, (const uint8_t *const *)b->sin, inl, nb);
    cross_shake_many(c, c1o, d, (const uint8_t *const *)b->c1in, inl, nb);
    for (size_t s = 0; s < nb; s++) {
        round_vecs rv;
        uint8_t *r0 = st->sig + c->z.off_resp0 + (st->r + s) * c->z.resp0;
        round_vecs_slot(st, s, &rv);
        round_y(c, b->tmp, rv.ep, rv.up, st->chs[s]);
        cross_pack_fp(r0, b->tmp, c->n, c->z.bp);
        round_pack_v(c, r0 + c->z.py, b->e, b->eg, rv.ep, rv.epg, b->vb);
    }
    st->r += nb;
    st->nq = 0;
}

/* Pass 3 seed sink (small-memory): a chall_2 = 0 round, queued with its chall_1 value (the
 * stream is drawn up to it). */
static void resp_sink(void *ctx, size_t i, const uint8_t *seed)
{
    sign_state *st = ctx;
    uint16_t ch = 0;
    while (st->ch_next <= i) {
        ch = cross_sample_chall1(st->c, &st->cs.r);
        st->ch_next++;
    }
    round_inputs(st->c, seed, st->salt, i, st->b.sin[st->nq]);
    st->rnd[st->nq] = i;
    st->chs[st->nq++] = ch;
    if (st->nq == st->b.batch)
        responses_batch(st);
}

/*
 * Responses (spec: Sign, lines 31-40), small-memory: the seed tree walked once more (only the
 * subtrees holding a chall_2 = 0 round; the published nodes' seeds go to the path on the way)
 * or the 4-way split re-squeezed (fast sets: the chall_2 = 1 seeds go to the path), and the
 * chall_2 = 0 rounds recomputed a batch at a time.
 */
static void sign_responses_small(sign_state *st)
{
    const cross_ctx *c = st->c;
    sign_bufs *b = &st->b;
    const size_t t = c->t, sl = c->z.seed;
    uint8_t *path = st->sig + c->z.off_path;
    ch1_start(c, &st->cs, st->dch1);
    st->nq = st->ch_next = st->r = 0;
    if (tree_walk_batched(st)) {
        tree_walk_run(st, resp_sink, 1);
    } else {
        seed_iter_start(&st->it, c, st->j->root_seed, st->salt);
        if (c->p->corner != 0) {
            st->it.pub = &st->pl;
            st->it.path_out = path;
            st->it.prune = b->ch2; /* only rounds with chall_2 = 0 are yielded */
            long i;
            while ((i = tree_next(&st->it, st->seed)) >= 0) /* to the end: the whole path */
                resp_sink(st, (size_t)i, st->seed);
        } else {
            size_t q = 0;
            for (size_t i = 0; i < t; i++) {
                next_seed(&st->it, st->seed);
                if (b->ch2[i] == 1)
                    memcpy(path + (q++) * sl, st->seed, sl);
                else
                    resp_sink(st, i, st->seed);
            }
        }
        seed_iter_wipe(&st->it);
    }
    responses_batch(st);
}

/*
 * Responses (spec: Sign, lines 31-40), fast strategy: for the rounds with chall_2 = 0,
 * resp_1 = cmt_1 and resp_0 = (y, v_bar or v_G_bar) from the cached round data; for the others
 * (fast sets) the round seed goes to the path.
 */
static void sign_responses(sign_state *st)
{
    const cross_ctx *c = st->c;
    sign_bufs *b = &st->b;
    const size_t t = c->t, d = c->z.digest, sl = c->z.seed;
    uint8_t *path = st->sig + c->z.off_path;
    uint8_t *resp1 = st->sig + c->z.off_resp1, *resp0 = st->sig + c->z.off_resp0;
    if (!st->fast) {
        sign_responses_small(st);
        return;
    }
    size_t r = 0, q = 0;
    for (size_t i = 0; i < t; i++) {
        if (b->ch2[i] == 1) {
            if (c->p->corner == 0)
                memcpy(path + (q++) * sl, b->seeds + i * sl, sl);
            continue;
        }
        round_vecs rv;
        round_vecs_cached(st, i, &rv);
        memcpy(resp1 + r * d, b->cmt1_c + i * d, d);
        uint8_t *r0 = resp0 + r * c->z.resp0;
        round_y(c, b->tmp, rv.ep, rv.up, b->ch1[i]);
        cross_pack_fp(r0, b->tmp, c->n, c->z.bp);
        round_pack_v(c, r0 + c->z.py, b->e, b->eg, rv.ep, rv.epg, b->vb);
        r++;
    }
}

/* Signing (spec: Algorithm Sign), step by step; wsbase holds the sign_layout buffers. */
static int sign_core(void *jv, uint8_t *wsbase)
{
    const sign_job *j = (const sign_job *)jv;
    sign_state st;
    grove_keccak_ctx d1;
    arena a = {wsbase, 0};
    memset(&st, 0, sizeof st);
    st.j = j;
    st.c = j->c;
    st.fast = j->fast;
    st.sig = j->sig;
    st.salt = j->salt;
    st.pl.cap = j->c->p->nodes_to_store;
    sign_layout(st.c, st.fast, &a, &st.b);
    st.pl.idx = st.b.pub;

    sign_keys(&st);
    if (st.fast)
        sign_seeds_fast(&st);
    cross_xof_init(st.c, &d1);
    sign_commitments(&st, &d1);
    sign_digest_cmt(&st, &d1);
    sign_challenge1(&st);
    sign_challenge2(&st);
    int rc = sign_proof(&st);
    if (rc == GROVE_OK)
        sign_responses(&st);
    grove_wipe(&st, sizeof st);
    grove_wipe(&d1, sizeof d1);
    return rc;
}

/* ---- verification --------------------------------------------------------------------------- */

typedef struct verify_bufs {
    void *vt;
    uint8_t *wmat, *ch2, *known;
    uint16_t *s, *ch1, *pub;
    uint8_t *sin[FAST_BATCH], *xo[FAST_BATCH], *c0in[FAST_BATCH], *c1in[FAST_BATCH];
    uint8_t *c0out[FAST_BATCH], *c1out[FAST_BATCH], *yb[FAST_BATCH];
    uint8_t *ep, *epg, *vb;
    uint16_t *up, *tmp, *y, *sp;
    /* fast strategy, tree sets: whole trees */
    cross_tnode *tn;
    uint8_t *nodes, *seeded, *mvals, *avail, *hin[FAST_BATCH];
    uint16_t *leafidx;
    uint8_t *mscratch; /* small-memory tree sets, x86: batched Merkle nodes */
    uint8_t *wscratch; /* small-memory tree sets, x86: batched seed-tree walk */
    size_t batch;
} verify_bufs;

static void verify_layout(const cross_ctx *c, int fast, arena *a, verify_bufs *b)
{
    size_t n = c->n, k = c->k, m = c->m, t = c->t, d = c->z.digest, sl = c->z.seed;
    int g = c->p->rsdpg;
    memset(b, 0, sizeof *b);
    b->batch = fast ? FAST_BATCH : SMALL_BATCH;
    b->vt = ar_take(a, k * (n - k) * (g ? 2u : 1u));
    b->wmat = g ? (uint8_t *)ar_take(a, m * (n - m)) : NULL;
    b->s = (uint16_t *)ar_take(a, (n - k) * sizeof(uint16_t));
    b->ch2 = (uint8_t *)ar_take(a, t);
    if (fast)
        b->ch1 = (uint16_t *)ar_take(a, t * sizeof(uint16_t));
    if (c->p->corner != 0) {
        if (fast) {
            size_t nn = 2 * t - 1;
            b->tn = (cross_tnode *)ar_take(a, nn * sizeof(cross_tnode));
            b->nodes = (uint8_t *)ar_take(a, nn * sl);
            b->seeded = (uint8_t *)ar_take(a, nn);
            b->mvals = (uint8_t *)ar_take(a, nn * d);
            b->avail = (uint8_t *)ar_take(a, nn);
            b->leafidx = (uint16_t *)ar_take(a, t * sizeof(uint16_t));
            for (size_t s = 0; s < FAST_BATCH; s++)
                b->hin[s] = (uint8_t *)ar_take(a, 2 * d + 2);
        } else {
            b->known = (uint8_t *)ar_take(a, (t - c->w) * d);
            b->mscratch = b->wscratch = tree_scratch(c, a);
        }
        b->pub = (uint16_t *)ar_take(a, c->p->nodes_to_store * sizeof(uint16_t));
    }
    size_t inl = sl + d + 2;
    for (size_t s = 0; s < b->batch; s++) {
        b->sin[s] = (uint8_t *)ar_take(a, inl);
        b->c1in[s] = (uint8_t *)ar_take(a, inl);
        b->xo[s] = (uint8_t *)ar_take(a, c->xe + c->xu);
        b->c0in[s] = (uint8_t *)ar_take(a, c->z.ps + c->z.pv + d + 2);
        b->c0out[s] = (uint8_t *)ar_take(a, d);
        b->c1out[s] = (uint8_t *)ar_take(a, d);
        b->yb[s] = (uint8_t *)ar_take(a, c->z.py);
    }
    b->ep = (uint8_t *)ar_take(a, n);
    b->epg = (uint8_t *)ar_take(a, m + 1);
    b->vb = (uint8_t *)ar_take(a, n);
    b->up = (uint16_t *)ar_take(a, n * sizeof(uint16_t));
    b->tmp = (uint16_t *)ar_take(a, n * sizeof(uint16_t));
    b->y = (uint16_t *)ar_take(a, n * sizeof(uint16_t));
    b->sp = (uint16_t *)ar_take(a, (n - k) * sizeof(uint16_t));
}

typedef struct verify_job {
    const cross_ctx *c;
    int fast;
    const uint8_t *sig, *msg, *pk;
    size_t mlen;
} verify_job;

/* The hash jobs of one batch of rounds, and where each round's y, cmt_1 and cmt_0 are. */
typedef struct verify_batch {
    uint8_t *ex_in[FAST_BATCH], *ex_out[FAST_BATCH]; /* seed -> e', u' (chall_2 = 1) */
    uint8_t *h1_in[FAST_BATCH], *h1_out[FAST_BATCH]; /* cmt_1 (chall_2 = 1) */
    uint8_t *h0_in[FAST_BATCH], *h0_out[FAST_BATCH]; /* cmt_0 (chall_2 = 0) */
    size_t nex, nh0;
    const uint8_t *yptr[FAST_BATCH], *c1ptr[FAST_BATCH], *c0ptr[FAST_BATCH];
    uint16_t chs[FAST_BATCH];
} verify_batch;

/* What the verification steps share. */
typedef struct verify_state {
    const cross_ctx *c;
    int fast;
    const uint8_t *sig, *salt, *path, *proof, *resp1, *resp0;
    verify_bufs b;
    pub_list pl;     /* published tree nodes (path and proof) */
    seed_iter it;    /* small-memory tree sets: seeds below the published nodes */
    ch1_stream cs;   /* chall_1, squeezed as a stream (small-memory) */
    uint8_t dch1[CROSS_MAX_DIGEST];
    /* running digests: y of every round, cmt_1 of every round, the current cmt_0 group */
    grove_keccak_ctx hx, d1, gx;
    size_t r, q, qp, known; /* responses, path seeds, proof entries, known leaves used */
    unsigned grp_i;         /* fast sets: current cmt_0 group and rounds left in it */
    size_t grp_left;
    uint8_t grp[4 * CROSS_MAX_DIGEST];
    /* the batch being queued: rounds i0 .. i0+nq-1; vi the next round to queue */
    verify_batch vb;
    size_t i0, nq, vi;
    int walk, bad; /* seeds from the batched walk; a malformed signature seen */
} verify_state;


/*
 * Public data and challenges (spec: Verify, lines 1-6): the syndrome s (range and padding
 * checked), V^T (and W) from seed_pk, digest_chall_1 and chall_1, chall_2 from
 * digest_chall_2. Returns 0 if the public key is malformed.
 */
static int verify_challenges(verify_state *st, const verify_job *j)
{
    const cross_ctx *c = st->c;
    verify_bufs *b = &st->b;
    const size_t d = c->z.digest;
    if (!cross_unpack_fp(b->s, j->pk + d, c->n - c->k, c->z.bp, c->z.p))
        return 0;
    expand_pk(c, j->pk, b->vt, b->wmat);
    challenge1_digest(c, st->dch1, j->msg, j->mlen, st->sig + d, st->salt);
    ch1_start(c, &st->cs, st->dch1);
    if (st->fast)
        for (size_t i = 0; i < c->t; i++)
            b->ch1[i] = cross_sample_chall1(c, &st->cs.r);
    fixed_weight(c, b->ch2, st->sig + 2 * d);
    return 1;
}

/*
 * Tree sets: the published nodes from chall_2 (spec: Verify, lines 7-8), the zero padding of
 * the path and proof fields, and the seeds below the published nodes (all at once for the fast
 * strategy; a seed-tree walk for small-memory). Returns 0 if the signature is malformed.
 */
static int verify_published(verify_state *st)
{
    const cross_ctx *c = st->c;
    verify_bufs *b = &st->b;
    const size_t t = c->t, d = c->z.digest, sl = c->z.seed;
    pub_list *pl = &st->pl;
    if (!pub_build(c, b->ch2, pl))
        return 0;
    uint8_t acc = 0;
    for (size_t i = pl->cnt * sl; i < c->z.path; i++)
        acc |= st->path[i];
    for (size_t i = pl->cnt * d; i < c->z.proof; i++)
        acc |= st->proof[i];
    if (acc != 0)
        return 0;
    if (!st->fast) {
        seed_iter_start(&st->it, c, NULL, st->salt);
        st->it.pub = pl;
        st->it.path_in = st->path;
        return 1;
    }
    size_t nn = 2 * t - 1;
    tree_list(c, b->tn);
    memset(b->seeded, 0, nn);
    memset(b->avail, 0, nn);
    for (size_t idx = 0; idx < nn; idx++)
        if (b->tn[idx].cnt == 1)
            b->leafidx[b->tn[idx].first] = (uint16_t)idx;
    for (size_t rr = 0; rr < pl->cnt; rr++) {
        size_t idx = pl->idx[rr];
        memcpy(b->nodes + idx * sl, st->path + rr * sl, sl);
        b->seeded[idx] = 1;
        memcpy(b->mvals + idx * d, st->proof + (pl->cnt - 1 - rr) * d, d);
        b->avail[idx] = 1;
    }
    tree_seeds_batched(c, b->tn, b->nodes, b->seeded, st->salt, b->sin);
    return 1;
}

/* The seed of round i with chall_2 = 1: from the path (fast sets) or the seed tree. */
static int verify_round_seed(verify_state *st, size_t i, uint8_t *seed)
{
    const cross_ctx *c = st->c;
    const size_t sl = c->z.seed;
    if (c->p->corner == 0) {
        memcpy(seed, st->path + (st->q++) * sl, sl);
        return 1;
    }
    if (st->fast) {
        size_t li = st->b.leafidx[i];
        if (!st->b.seeded[li]) /* cannot happen: published nodes cover these */
            return 0;
        memcpy(seed, st->b.nodes + li * sl, sl);
        return 1;
    }
    return tree_next(&st->it, seed) == (long)i; /* always: the walk covers these rounds */
}

/* Round i (slot s) with chall_2 = 1 (spec: Verify, lines 10-13): queue seed -> e', u' and
 * cmt_1 = H(seed || salt || dsc); y is computed once e', u' are known. */
static int verify_open_round(verify_state *st, verify_batch *vb, size_t s, size_t i,
                             const uint8_t *walked)
{
    const cross_ctx *c = st->c;
    verify_bufs *b = &st->b;
    const size_t d = c->z.digest, sl = c->z.seed;
    uint8_t seed[CROSS_MAX_SEED];
    if (walked != NULL)
        memcpy(seed, walked, sl);
    else if (st->walk || !verify_round_seed(st, i, seed))
        return 0; /* cannot happen: the published nodes cover these rounds */
    round_inputs(c, seed, st->salt, i, b->sin[s]);
    grove_wipe(seed, sizeof seed);
    memcpy(b->c1in[s], b->sin[s], sl + d + 2);
    cross_put_dsc(b->c1in[s] + sl + d, (uint16_t)(CROSS_HASH_DSC + i + 2 * c->t - 1));
    vb->ex_in[vb->nex] = b->sin[s];
    vb->ex_out[vb->nex] = b->xo[s];
    vb->h1_in[vb->nex] = b->c1in[s];
    vb->h1_out[vb->nex] = b->c1out[s];
    vb->nex++;
    vb->yptr[s] = b->yb[s];
    vb->c1ptr[s] = b->c1out[s];
    vb->c0ptr[s] = NULL;
    return 1;
}

/*
 * Round i (slot s) with chall_2 = 0 (spec: Verify, lines 14-20): y and v_bar from resp_0
 * (range and padding checked), s' = (g^v_bar * y) H^T - chall_1 s, and the cmt_0 input
 * s' || v_bar || salt || dsc queued; cmt_1 is resp_1. Returns 0 if resp_0 is malformed.
 */
static int verify_check_round(verify_state *st, verify_batch *vb, size_t s, size_t i)
{
    const cross_ctx *c = st->c;
    verify_bufs *b = &st->b;
    const int g = c->p->rsdpg;
    const size_t n = c->n, k = c->k, d = c->z.digest;
    const size_t c0l = c->z.ps + c->z.pv + d + 2;
    const uint8_t *r0 = st->resp0 + st->r * c->z.resp0;
    /* y in F_p with zero padding; v_bar (or v_G_bar) in Z_z with zero padding */
    if (!cross_unpack_fp(b->y, r0, n, c->z.bp, c->z.p) ||
        !cross_unpack_fz(b->vb, r0 + c->z.py, c->z.nv, c->z.bz, c->z.z))
        return 0;
    uint8_t *vfull = b->vb;
    if (g) {
        memcpy(b->epg, b->vb, c->m);
        expand_g(c, b->ep, b->epg, b->wmat);
        vfull = b->ep;
    }
    for (size_t jj = 0; jj < n; jj++)
        b->tmp[jj] = (uint16_t)cross_fp_red(g, cross_restr_val(g, vfull[jj]) * b->y[jj]);
    mul_ht(c, b->sp, b->tmp, b->vt);
    for (size_t jj = 0; jj < n - k; jj++)
        b->sp[jj] = (uint16_t)cross_fp_red(
            g, b->sp[jj] + c->z.p * c->z.p - (uint32_t)vb->chs[s] * b->s[jj]);
    cross_pack_fp(b->c0in[s], b->sp, n - k, c->z.bp);
    memcpy(b->c0in[s] + c->z.ps, r0 + c->z.py, c->z.pv);
    memcpy(b->c0in[s] + c->z.ps + c->z.pv, st->salt, d);
    cross_put_dsc(b->c0in[s] + c0l - 2, (uint16_t)(CROSS_HASH_DSC + i + 2 * c->t - 1));
    vb->h0_in[vb->nh0] = b->c0in[s];
    vb->h0_out[vb->nh0] = b->c0out[s];
    vb->nh0++;
    vb->yptr[s] = r0;
    vb->c1ptr[s] = st->resp1 + st->r * d;
    vb->c0ptr[s] = b->c0out[s];
    st->r++;
    return 1;
}

/*
 * After the batch's hashes: y of the chall_2 = 1 rounds (spec: Verify, line 12), y and cmt_1
 * into their running digests, and cmt_0 where d0 needs it: the current group (fast sets), the
 * known Merkle leaves (tree sets).
 */
static void verify_absorb_round(verify_state *st, const verify_batch *vb, size_t s, size_t i)
{
    const cross_ctx *c = st->c;
    verify_bufs *b = &st->b;
    const size_t d = c->z.digest;
    if (b->ch2[i] == 1) {
        round_expand(c, b->xo[s], b->wmat, b->ep, b->epg, b->up);
        round_y(c, b->tmp, b->ep, b->up, vb->chs[s]);
        cross_pack_fp(b->yb[s], b->tmp, c->n, c->z.bp);
    }
    grove_keccak_absorb(&st->hx, vb->yptr[s], c->z.py);
    grove_keccak_absorb(&st->d1, vb->c1ptr[s], d);
    if (c->p->corner == 0) {
        /* the proof holds the cmt_0 of the chall_2 = 1 rounds in round order */
        const uint8_t *leaf = b->ch2[i] == 1 ? st->proof + (st->qp++) * d : vb->c0ptr[s];
        grove_keccak_absorb(&st->gx, leaf, d);
        if (--st->grp_left == 0) {
            cross_absorb_dsc(&st->gx, CROSS_HASH_DSC);
            grove_keccak_squeeze(&st->gx, st->grp + st->grp_i * d, d);
            st->grp_i++;
            if (st->grp_i < 4) {
                cross_xof_init(c, &st->gx);
                st->grp_left = group_size(c, st->grp_i);
            }
        }
    } else if (b->ch2[i] == 0) {
        if (st->fast) {
            size_t li = b->leafidx[i];
            memcpy(b->mvals + li * d, vb->c0ptr[s], d);
            b->avail[li] = 1;
        } else {
            memcpy(b->known + (st->known++) * d, vb->c0ptr[s], d);
        }
    }
}

/* The queued rounds' hashes, then their y, cmt_1 and cmt_0 absorbed in round order. */
static void verify_flush(verify_state *st)
{
    const cross_ctx *c = st->c;
    verify_batch *vb = &st->vb;
    const size_t d = c->z.digest, inl = c->z.seed + d + 2, c0l = c->z.ps + c->z.pv + d + 2;
    if (st->bad || st->nq == 0)
        return;
    cross_shake_many(c, vb->ex_out, c->xe + c->xu, (const uint8_t *const *)vb->ex_in, inl,
                     vb->nex);
    cross_shake_many(c, vb->h1_out, d, (const uint8_t *const *)vb->h1_in, inl, vb->nex);
    cross_shake_many(c, vb->h0_out, d, (const uint8_t *const *)vb->h0_in, c0l, vb->nh0);
    for (size_t s = 0; s < st->nq; s++)
        verify_absorb_round(st, vb, s, st->i0 + s);
    st->nq = 0;
}

/* Round i (the next in order) queued: opened from its seed (walked, or NULL: fetched) or
 * checked against its responses; the batch is hashed when full. */
static void verify_queue(verify_state *st, size_t i, const uint8_t *seed)
{
    verify_bufs *b = &st->b;
    verify_batch *vb = &st->vb;
    if (st->bad)
        return;
    if (st->nq == 0) {
        vb->nex = vb->nh0 = 0;
        st->i0 = i;
    }
    size_t s = st->nq++;
    vb->chs[s] = st->fast ? b->ch1[i] : cross_sample_chall1(st->c, &st->cs.r);
    int ok = b->ch2[i] == 1 ? verify_open_round(st, vb, s, i, seed)
                            : verify_check_round(st, vb, s, i);
    if (!ok)
        st->bad = 1;
    else if (st->nq == b->batch)
        verify_flush(st);
}

/* Batched walk sink: the rounds before i (chall_2 = 0) are checked, round i opened. */
static void verify_sink(void *ctx, size_t i, const uint8_t *seed)
{
    verify_state *st = ctx;
    while (st->vi < i)
        verify_queue(st, st->vi++, NULL);
    if (st->vi == i)
        verify_queue(st, st->vi++, seed);
    else
        st->bad = 1; /* cannot happen: the walk yields rounds in order */
}

/* Every round, `batch` at a time: recompute what the signature does not carry. Returns 0 if
 * the signature is malformed. */
static int verify_rounds(verify_state *st)
{
    const cross_ctx *c = st->c;
    const size_t t = c->t;
    cross_xof_init(c, &st->hx);
    cross_xof_init(c, &st->d1);
    st->grp_left = group_size(c, 0);
    if (c->p->corner == 0)
        cross_xof_init(c, &st->gx);
    st->nq = st->vi = 0;
    st->bad = 0;
    st->walk = !st->fast && SMALL_BATCH > 1 && c->p->corner != 0;
    if (st->walk) {
        static const uint8_t zero_seed[CROSS_MAX_SEED];
        const uint8_t unseeded = 0;
        tree_walk w = {c, st->salt, st->b.wscratch, verify_sink, st, &st->pl, st->path, NULL, NULL};
        cross_tnode root;
        cross_tree_root_node(c, &root);
        tree_walk_many(&w, &root, zero_seed, &unseeded, 1, 0);
        grove_wipe(st->b.wscratch, walk_scratch_bytes(c));
    }
    while (st->vi < t)
        verify_queue(st, st->vi++, NULL);
    verify_flush(st);
    return !st->bad && st->r == t - c->w;
}

/*
 * d0 from the recomputed and published values, digest_cmt' = H(d0 || d1) and
 * digest_chall_2' = H(y_1 || ... || y_t || digest_chall_1), both compared with the signature's
 * (spec: Verify, lines 21-26). Returns 1 if both match.
 */
static int verify_digests(verify_state *st)
{
    const cross_ctx *c = st->c;
    verify_bufs *b = &st->b;
    const size_t d = c->z.digest;
    uint8_t d01[2 * CROSS_MAX_DIGEST], dcmt[CROSS_MAX_DIGEST], dch2[CROSS_MAX_DIGEST];
    int ok = 1;
    if (c->p->corner == 0) {
        cross_hash(c, d01, st->grp, 4 * d, CROSS_HASH_DSC);
    } else if (st->fast) {
        tree_merkle_batched(c, b->tn, b->mvals, b->avail, b->hin);
        ok = b->avail[0]; /* always: every leaf is known or under a published node */
        memcpy(d01, b->mvals, d);
    } else {
        cross_tnode root;
        cross_tree_root_node(c, &root);
        if (SMALL_BATCH > 1) {
            merkle_src m = {NULL, b->known, b->ch2, st->proof, &st->pl, b->mscratch};
            uint8_t *o[1] = {d01};
            merkle_many(c, &m, &root, 1, o, 0);
        } else {
            vroot_ctx vr = {b->known, 0, st->proof, &st->pl};
            merkle_verify_root(c, &root, &vr, d01);
        }
    }
    cross_absorb_dsc(&st->d1, CROSS_HASH_DSC);
    grove_keccak_squeeze(&st->d1, d01 + d, d);
    cross_hash(c, dcmt, d01, 2 * d, CROSS_HASH_DSC);
    grove_keccak_absorb(&st->hx, st->dch1, d);
    cross_absorb_dsc(&st->hx, CROSS_HASH_DSC);
    grove_keccak_squeeze(&st->hx, dch2, d);
    return ok & grove_ct_memeq(dcmt, st->sig + d, d) & grove_ct_memeq(dch2, st->sig + 2 * d, d);
}

/* Verification (spec: Algorithm Verify), step by step; wsbase holds the verify_layout
 * buffers. */
static int verify_core(void *jv, uint8_t *wsbase)
{
    const verify_job *j = (const verify_job *)jv;
    const cross_ctx *c = j->c;
    verify_state st;
    arena a = {wsbase, 0};
    memset(&st, 0, sizeof st);
    st.c = c;
    st.fast = j->fast;
    st.sig = j->sig;
    st.salt = j->sig;
    st.path = j->sig + c->z.off_path;
    st.proof = j->sig + c->z.off_proof;
    st.resp1 = j->sig + c->z.off_resp1;
    st.resp0 = j->sig + c->z.off_resp0;
    verify_layout(c, st.fast, &a, &st.b);
    st.pl.idx = st.b.pub;
    st.pl.cap = c->p->nodes_to_store;

    if (!verify_challenges(&st, j)) {
        grove_wipe(&st, sizeof st);
        return GROVE_ERR_ENCODING; /* the public key, not the signature, is malformed */
    }
    int ok = 1;
    if (c->p->corner != 0)
        ok = verify_published(&st);
    if (ok)
        ok = verify_rounds(&st);
    if (ok)
        ok = verify_digests(&st);
    grove_wipe(&st, sizeof st);
    return ok ? GROVE_OK : GROVE_ERR_VERIFY;
}

/* ---- workspace: the caller's or the heap ---------------------------------------------------- */

typedef int (*cross_ws_fn)(void *job, uint8_t *ws);

/*
 * Runs fn on a workspace of `need` bytes: the caller's ws (8-byte aligned, at least need
 * bytes), or, when ws is NULL, one heap block for this call. Wiped afterwards either way.
 */
static int cross_ws_run(cross_ws_fn fn, void *job, size_t need, void *ws, size_t ws_len)
{
    int rc;
    if (ws != NULL) {
        if (((uintptr_t)ws & 7u) != 0)
            return GROVE_ERR_INVALID_ARG;
        if (ws_len < need)
            return GROVE_ERR_BUFFER_TOO_SMALL;
        rc = fn(job, (uint8_t *)ws);
        grove_wipe(ws, need);
        return rc;
    }
    uint8_t *heap = (uint8_t *)malloc(need);
    if (heap == NULL)
        return GROVE_ERR_NOMEM;
    rc = fn(job, heap);
    grove_wipe(heap, need);
    free(heap);
    return rc;
}

/* ---- public entry points -------------------------------------------------------------------- */

static int strategy_ok(grove_cross_strategy s)
{
    return s == GROVE_CROSS_FAST || s == GROVE_CROSS_SMALL_MEMORY;
}

size_t grove_cross_workspace_bytes(const grove_cross_params *p, grove_cross_strategy s,
                                   grove_cross_op op)
{
    if (p == NULL || !strategy_ok(s))
        return 0;
    cross_ctx c;
    cross_ctx_init(&c, p);
    arena a = {NULL, 0};
    if (op == GROVE_CROSS_OP_SIGN) {
        sign_bufs b;
        sign_layout(&c, s == GROVE_CROSS_FAST, &a, &b);
    } else if (op == GROVE_CROSS_OP_VERIFY) {
        verify_bufs b;
        verify_layout(&c, s == GROVE_CROSS_FAST, &a, &b);
    } else {
        return 0;
    }
    return (a.used + 7u) & ~(size_t)7u;
}

grove_status grove_cross_keygen_from_seed(const grove_cross_params *p, uint8_t *pk, uint8_t *sk,
                                          const uint8_t *seed)
{
    if (p == NULL || pk == NULL || sk == NULL || seed == NULL)
        return GROVE_ERR_INVALID_ARG;
    cross_ctx c;
    cross_ctx_init(&c, p);
    if (sk != seed)
        memmove(sk, seed, c.z.sk);
    return (grove_status)keygen_core(&c, pk, sk);
}

grove_status grove_cross_keygen(const grove_cross_params *p, uint8_t *pk, uint8_t *sk)
{
    if (p == NULL || pk == NULL || sk == NULL)
        return GROVE_ERR_INVALID_ARG;
    cross_ctx c;
    cross_ctx_init(&c, p);
    grove_status rc = grove_randombytes(sk, c.z.sk);
    if (rc != GROVE_OK) {
        grove_wipe(sk, c.z.sk);
        return rc;
    }
    return (grove_status)keygen_core(&c, pk, sk);
}

int cross_sign_derand(const grove_cross_params *p, grove_cross_strategy s, uint8_t *sig,
                      const uint8_t *msg, size_t mlen, const uint8_t *sk,
                      const uint8_t *root_seed, const uint8_t *salt, void *ws, size_t ws_len)
{
    if (p == NULL || !strategy_ok(s) || sig == NULL || (msg == NULL && mlen != 0) ||
        sk == NULL || root_seed == NULL || salt == NULL)
        return GROVE_ERR_INVALID_ARG;
    cross_ctx c;
    cross_ctx_init(&c, p);
    sign_job j = {&c, s == GROVE_CROSS_FAST, sig, msg, mlen, sk, root_seed, salt};
    size_t need = grove_cross_workspace_bytes(p, s, GROVE_CROSS_OP_SIGN);
    int rc = cross_ws_run(sign_core, &j, need, ws, ws_len);
    if (rc != GROVE_OK)
        grove_wipe(sig, c.z.sig);
    return rc;
}

static grove_status sign_common(const grove_cross_params *p, grove_cross_strategy s, uint8_t *sig,
                                const uint8_t *msg, size_t msg_len, const uint8_t *sk, void *ws,
                                size_t ws_len)
{
    if (p == NULL || !strategy_ok(s) || sig == NULL || sk == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    cross_ctx c;
    cross_ctx_init(&c, p);
    uint8_t rnd[CROSS_MAX_SEED + CROSS_MAX_DIGEST];
    int rc = grove_randombytes(rnd, c.z.seed + c.z.digest);
    if (rc == GROVE_OK)
        rc = cross_sign_derand(p, s, sig, msg, msg_len, sk, rnd, rnd + c.z.seed, ws, ws_len);
    grove_wipe(rnd, sizeof rnd);
    return (grove_status)rc;
}

grove_status grove_cross_sign(const grove_cross_params *p, grove_cross_strategy s, uint8_t *sig,
                              const uint8_t *msg, size_t msg_len, const uint8_t *sk)
{
    return sign_common(p, s, sig, msg, msg_len, sk, NULL, 0);
}

grove_status grove_cross_sign_ws(const grove_cross_params *p, grove_cross_strategy s, uint8_t *sig,
                                 const uint8_t *msg, size_t msg_len, const uint8_t *sk, void *ws,
                                 size_t ws_len)
{
    if (ws == NULL)
        return GROVE_ERR_INVALID_ARG;
    return sign_common(p, s, sig, msg, msg_len, sk, ws, ws_len);
}

static grove_status verify_common(const grove_cross_params *p, grove_cross_strategy s,
                                  const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                                  size_t msg_len, const uint8_t *pk, void *ws, size_t ws_len)
{
    if (p == NULL || !strategy_ok(s) || sig == NULL || pk == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    cross_ctx c;
    cross_ctx_init(&c, p);
    if (sig_len != c.z.sig)
        return GROVE_ERR_VERIFY; /* one rule for every verify function (grove/common.h) */
    verify_job j = {&c, s == GROVE_CROSS_FAST, sig, msg, pk, msg_len};
    size_t need = grove_cross_workspace_bytes(p, s, GROVE_CROSS_OP_VERIFY);
    return (grove_status)cross_ws_run(verify_core, &j, need, ws, ws_len);
}

grove_status grove_cross_verify(const grove_cross_params *p, grove_cross_strategy s,
                                const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                                size_t msg_len, const uint8_t *pk)
{
    return verify_common(p, s, sig, sig_len, msg, msg_len, pk, NULL, 0);
}

grove_status grove_cross_verify_ws(const grove_cross_params *p, grove_cross_strategy s,
                                   const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                                   size_t msg_len, const uint8_t *pk, void *ws, size_t ws_len)
{
    if (ws == NULL)
        return GROVE_ERR_INVALID_ARG;
    return verify_common(p, s, sig, sig_len, msg, msg_len, pk, ws, ws_len);
}

grove_status grove_cross_sign_attached(const grove_cross_params *p, grove_cross_strategy s,
                                       uint8_t *sm, size_t sm_cap, size_t *sm_len,
                                       const uint8_t *msg, size_t msg_len, const uint8_t *sk)
{
    if (sm_len != NULL)
        *sm_len = 0;
    if (p == NULL || sm == NULL || sm_len == NULL || sk == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    size_t sb = grove_cross_sig_bytes(p);
    if (msg_len > SIZE_MAX - sb)
        return GROVE_ERR_OVERFLOW;
    if (sm_cap < msg_len + sb) {
        *sm_len = msg_len + sb;
        return GROVE_ERR_BUFFER_TOO_SMALL;
    }
    if (msg_len)
        memmove(sm, msg, msg_len);
    grove_status rc = grove_cross_sign(p, s, sm + msg_len, sm, msg_len, sk);
    if (rc == GROVE_OK)
        *sm_len = msg_len + sb;
    return rc;
}

grove_status grove_cross_open(const grove_cross_params *p, grove_cross_strategy s, uint8_t *msg,
                              size_t msg_cap, size_t *msg_len, const uint8_t *sm, size_t sm_len,
                              const uint8_t *pk)
{
    if (msg_len != NULL)
        *msg_len = 0;
    if (p == NULL || msg_len == NULL || sm == NULL || pk == NULL || (msg == NULL && msg_cap))
        return GROVE_ERR_INVALID_ARG;
    size_t sb = grove_cross_sig_bytes(p);
    if (sm_len < sb) /* checked before anything is parsed */
        return GROVE_ERR_VERIFY;
    size_t ml = sm_len - sb;
    if (msg_cap < ml) {
        *msg_len = ml;
        return GROVE_ERR_BUFFER_TOO_SMALL;
    }
    grove_status rc = grove_cross_verify(p, s, sm + ml, sb, sm, ml, pk);
    if (rc != GROVE_OK)
        return rc;
    if (ml)
        memmove(msg, sm, ml);
    *msg_len = ml;
    return GROVE_OK;
}
