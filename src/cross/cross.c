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
 * the rounds with chall_2 = 0.
 */
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

#if defined(__GNUC__) || defined(__clang__)
#define CROSS_NOINLINE __attribute__((noinline))
#else
#define CROSS_NOINLINE
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
    uint16_t sp[128];
    if (g) {
        for (size_t j = 0; j < c->n; j++) {
            vb[j] = fz_sub(1, e[j], ep[j]);
            tmp[j] = (uint16_t)cross_mod509(cross_restr_val(1, vb[j]) * up[j]);
        }
    } else {
        /* 2^v * u' with v < 7, u' < 127: < 2^13 */
        for (size_t j = 0; j < c->n; j++) {
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
    if (c->p->rsdpg) {
        for (size_t j = 0; j < c->m; j++)
            vb[j] = fz_sub(1, eg[j], epg[j]);
        cross_pack_fz(out, vb, c->m, 7);
    } else {
        for (size_t j = 0; j < c->n; j++)
            vb[j] = fz_sub(0, e[j], ep[j]);
        cross_pack_fz(out, vb, c->n, 3);
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
    b->batch = fast ? FAST_BATCH : 1;
    b->vt = vt_in_sig(c, fast) ? NULL : ar_take(a, vt_bytes(c));
    b->wmat = g ? (uint8_t *)ar_take(a, m * (n - m)) : NULL;
    b->e = (uint8_t *)ar_take(a, n);
    b->eg = (uint8_t *)ar_take(a, m + 1);
    b->ch2 = (uint8_t *)ar_take(a, t);
    if (c->p->corner != 0) {
        b->cmt0 = (uint8_t *)ar_take(a, (t - leaves_in_sig(c, fast)) * d);
        b->pub = (uint16_t *)ar_take(a, c->p->nodes_to_store * sizeof(uint16_t));
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
        if (!fast) {
            b->c1out[s] = (uint8_t *)ar_take(a, d);
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

/* Next round seed (fast sets or trees, sign mode). */
static void next_seed(seed_iter *it, uint8_t *seed)
{
    if (it->c->p->corner == 0)
        quarter_next(it, seed);
    else
        (void)tree_next(it, seed);
}

/* Round i's e', e'_G, u' into the slot pointers (computes or points into the fast cache). */
static void round_inputs(const cross_ctx *c, const uint8_t *seed, const uint8_t *salt,
                         size_t i, uint8_t *sin)
{
    size_t sl = c->z.seed;
    memcpy(sin, seed, sl);
    memcpy(sin + sl, salt, c->z.digest);
    cross_put_dsc(sin + sl + c->z.digest, (uint16_t)(i + 2 * c->t - 1));
}

static int sign_core(void *jv, uint8_t *wsbase)
{
    sign_job *j = (sign_job *)jv;
    const cross_ctx *c = j->c;
    const grove_cross_params *p = c->p;
    const int fast = j->fast, g = p->rsdpg;
    const size_t t = c->t, n = c->n, m = c->m, d = c->z.digest, sl = c->z.seed;
    const size_t inl = sl + d + 2, c0l = c->z.ps + c->z.pv + d + 2;
    uint8_t *sig = j->sig;
    arena a = {wsbase, 0};
    sign_bufs b;
    sign_layout(c, fast, &a, &b);
    uint8_t seeds2[2 * CROSS_MAX_DIGEST];
    uint8_t d01[2 * CROSS_MAX_DIGEST], dch[3 * CROSS_MAX_DIGEST], dch1[CROSS_MAX_DIGEST];
    uint8_t seed[CROSS_MAX_SEED];
    grove_keccak_ctx hx;
    seed_iter it;
    ch1_stream cs;
    int rc = GROVE_OK;

    /* keys */
    /*
     * Small-memory tree sets: when the path and proof fields hold V^T and all round seeds too,
     * pass 1 keeps the seeds there for pass 2 (those fields are written in pass 3 only).
     */
    uint8_t *seed_store = NULL;
    if (vt_in_sig(c, fast)) {
        size_t off, room = vt_room(c, &off);
        uintptr_t at = ((uintptr_t)(sig + off) + 7u) & ~(uintptr_t)7u;
        b.vt = (void *)at;
        size_t used = (size_t)(at - (uintptr_t)(sig + off)) + vt_bytes(c);
        if (p->corner != 0 && room - used >= t * sl)
            seed_store = (uint8_t *)b.vt + vt_bytes(c);
    }
    expand_seed_sk(c, j->sk, seeds2);
    GROVE_DECLASSIFY(seeds2 + d, d); /* seed_pk: part of the public key */
    expand_pk(c, seeds2 + d, b.vt, b.wmat);
    expand_e(c, seeds2, b.wmat, b.e, b.eg);
    const uint8_t *salt = j->salt;
    memcpy(sig, salt, d);
    leaf_store ls;
    ls.d = d;
    if (p->corner == 0) {
        ls.a = sig + c->z.off_proof;
        ls.b = NULL;
        ls.split = t;
    } else {
        size_t in_sig = leaves_in_sig(c, fast);
        ls.a = b.cmt0;
        ls.split = t - in_sig;
        ls.b = sig + c->z.sig - in_sig * d;
    }

    /* pass 1: commitments */
    grove_keccak_ctx d1;
    cross_xof_init(c, &d1);
    if (fast) {
        /* every round seed at once, batched */
        if (p->corner == 0) {
            quarter_seeds_batched(c, j->root_seed, salt, b.seeds, b.nodes, b.sin);
        } else {
            tree_list(c, b.tn);
            memcpy(b.nodes, j->root_seed, sl);
            tree_seeds_batched(c, b.tn, b.nodes, NULL, salt, b.sin);
            for (size_t idx = 0; idx < 2 * t - 1; idx++)
                if (b.tn[idx].cnt == 1)
                    memcpy(b.seeds + (size_t)b.tn[idx].first * sl, b.nodes + idx * sl, sl);
        }
    } else {
        seed_iter_start(&it, c, j->root_seed, salt);
    }
    for (size_t i0 = 0; i0 < t; i0 += b.batch) {
        size_t nb = t - i0 < b.batch ? t - i0 : b.batch;
        uint8_t *c0o[FAST_BATCH], *c1o[FAST_BATCH], *ep[FAST_BATCH], *epg[FAST_BATCH];
        uint16_t *up[FAST_BATCH];
        for (size_t s = 0; s < nb; s++) {
            size_t i = i0 + s;
            if (fast) {
                memcpy(seed, b.seeds + i * sl, sl);
            } else {
                next_seed(&it, seed);
                if (seed_store)
                    memcpy(seed_store + i * sl, seed, sl);
            }
            round_inputs(c, seed, salt, i, b.sin[s]);
            memcpy(b.c1in[s], b.sin[s], inl);
            cross_put_dsc(b.c1in[s] + sl + d, (uint16_t)(CROSS_HASH_DSC + i + 2 * t - 1));
            c0o[s] = leaf_at(&ls, i);
            c1o[s] = fast ? b.cmt1_c + i * d : b.c1out[s];
            ep[s] = fast ? b.ep_c + i * n : b.ep[s];
            epg[s] = fast ? (g ? b.epg_c + i * m : NULL) : b.epg[s];
            up[s] = fast ? b.up_c + i * n : b.up[s];
        }
        cross_shake_many(c, b.xo, c->xe + c->xu, (const uint8_t *const *)b.sin, inl, nb);
        for (size_t s = 0; s < nb; s++) {
            size_t i = i0 + s;
            round_expand(c, b.xo[s], b.wmat, ep[s], epg[s], up[s]);
            round_cmt0_sign(c, b.c0in[s], b.e, b.eg, ep[s], epg[s], up[s], b.vt, b.tmp, b.vb);
            memcpy(b.c0in[s] + c->z.ps + c->z.pv, salt, d);
            cross_put_dsc(b.c0in[s] + c0l - 2, (uint16_t)(CROSS_HASH_DSC + i + 2 * t - 1));
        }
        cross_shake_many(c, c0o, d, (const uint8_t *const *)b.c0in, c0l, nb);
        cross_shake_many(c, c1o, d, (const uint8_t *const *)b.c1in, inl, nb);
        for (size_t s = 0; s < nb; s++)
            grove_keccak_absorb(&d1, c1o[s], d);
    }
    seed_iter_wipe(&it);
    /* d0 */
    if (p->corner == 0) {
        uint8_t grp[4 * CROSS_MAX_DIGEST];
        size_t off = 0;
        for (unsigned q = 0; q < 4; q++) {
            size_t gs = group_size(c, q);
            cross_hash(c, grp + q * d, leaf_at(&ls, off), gs * d, CROSS_HASH_DSC);
            off += gs;
        }
        cross_hash(c, d01, grp, 4 * d, CROSS_HASH_DSC);
    } else if (fast) {
        for (size_t idx = 0; idx < 2 * t - 1; idx++)
            if (b.tn[idx].cnt == 1)
                memcpy(b.mvals + idx * d, leaf_at(&ls, b.tn[idx].first), d);
        tree_merkle_batched(c, b.tn, b.mvals, NULL, b.hin);
        memcpy(d01, b.mvals, d);
    } else {
        cross_tnode root;
        cross_tree_root_node(c, &root);
        merkle_sub(c, &root, &ls, d01);
    }
    cross_absorb_dsc(&d1, CROSS_HASH_DSC);
    grove_keccak_squeeze(&d1, d01 + d, d);
    cross_hash(c, sig + d, d01, 2 * d, CROSS_HASH_DSC); /* digest_cmt */
    GROVE_DECLASSIFY(sig + d, d); /* digest_cmt is published in the signature */
    /* chall_1 */
    cross_hash(c, dch, j->msg, j->mlen, CROSS_HASH_DSC);
    memcpy(dch + d, sig + d, d);
    memcpy(dch + 2 * d, salt, d);
    cross_hash(c, dch1, dch, 3 * d, CROSS_HASH_DSC);
    GROVE_DECLASSIFY(dch1, d); /* a hash of public values (message, digest_cmt, salt) */
    ch1_start(c, &cs, dch1);
    if (fast)
        for (size_t i = 0; i < t; i++)
            b.ch1[i] = cross_sample_chall1(c, &cs.r);

    /* pass 2: y -> digest_chall_2 */
    cross_xof_init(c, &hx);
    if (!fast && !seed_store)
        seed_iter_start(&it, c, j->root_seed, salt);
    for (size_t i = 0; i < t; i++) {
        const uint8_t *ep;
        const uint16_t *up;
        uint16_t ch;
        if (fast) {
            ep = b.ep_c + i * n;
            up = b.up_c + i * n;
            ch = b.ch1[i];
        } else {
            if (seed_store)
                memcpy(seed, seed_store + i * sl, sl);
            else
                next_seed(&it, seed);
            round_inputs(c, seed, salt, i, b.sin[0]);
            cross_shake_many(c, b.xo, c->xe + c->xu, (const uint8_t *const *)b.sin, inl, 1);
            round_expand(c, b.xo[0], b.wmat, b.ep[0], b.epg[0], b.up[0]);
            ep = b.ep[0];
            up = b.up[0];
            ch = cross_sample_chall1(c, &cs.r);
        }
        round_y(c, b.tmp, ep, up, ch);
        cross_pack_fp(b.ybuf, b.tmp, n, c->z.bp);
        grove_keccak_absorb(&hx, b.ybuf, c->z.py);
    }
    grove_keccak_absorb(&hx, dch1, d);
    cross_absorb_dsc(&hx, CROSS_HASH_DSC);
    grove_keccak_squeeze(&hx, sig + 2 * d, d); /* digest_chall_2 */
    GROVE_DECLASSIFY(sig + 2 * d, d); /* published in the signature */
    fixed_weight(c, b.ch2, sig + 2 * d);

    /* pass 3: path, proof, responses */
    uint8_t *path = sig + c->z.off_path, *proof = sig + c->z.off_proof;
    uint8_t *resp1 = sig + c->z.off_resp1, *resp0 = sig + c->z.off_resp0;
    pub_list pl = {b.pub, 0, p->nodes_to_store, 0};
    if (p->corner == 0) {
        /* proof = cmt_0 of the rounds with chall_2 = 1, compacted in place */
        size_t q = 0;
        for (size_t i = 0; i < t; i++)
            if (b.ch2[i] == 1) {
                if (q != i)
                    memmove(proof + q * d, leaf_at(&ls, i), d);
                q++;
            }
    } else {
        if (!pub_build(c, b.ch2, &pl)) {
            rc = GROVE_ERR_INTERNAL; /* more published nodes than the format holds */
            goto out;
        }
        memset(path, 0, c->z.path);
        memset(proof, 0, c->z.proof);
        if (fast) {
            for (size_t r = 0; r < pl.cnt; r++)
                memcpy(proof + (pl.cnt - 1 - r) * d, b.mvals + (size_t)pl.idx[r] * d, d);
        } else {
            cross_tnode root;
            cross_tree_root_node(c, &root);
            merkle_proof(c, &root, &ls, &pl, proof);
        }
    }
    if (fast && p->corner != 0) {
        for (size_t r = 0; r < pl.cnt; r++)
            memcpy(path + r * sl, b.nodes + (size_t)pl.idx[r] * sl, sl);
    }
    if (!fast) {
        seed_iter_start(&it, c, j->root_seed, salt);
        if (p->corner != 0) {
            it.pub = &pl;
            it.path_out = path;
            it.prune = b.ch2; /* only rounds with chall_2 = 0 are yielded */
        }
        ch1_start(c, &cs, dch1);
    }
    size_t r = 0, q = 0;
    for (size_t i = 0; i < t; i++) {
        uint16_t ch = fast ? b.ch1[i] : cross_sample_chall1(c, &cs.r);
        if (fast)
            memcpy(seed, b.seeds + i * sl, sl);
        else if (p->corner == 0 || b.ch2[i] == 0)
            next_seed(&it, seed);
        if (b.ch2[i] == 1) {
            if (p->corner == 0)
                memcpy(path + (q++) * sl, seed, sl);
            continue;
        }
        const uint8_t *ep, *epg;
        const uint16_t *up;
        if (fast) {
            ep = b.ep_c + i * n;
            epg = g ? b.epg_c + i * m : NULL;
            up = b.up_c + i * n;
            memcpy(resp1 + r * d, b.cmt1_c + i * d, d);
        } else {
            round_inputs(c, seed, salt, i, b.sin[0]);
            cross_shake_many(c, b.xo, c->xe + c->xu, (const uint8_t *const *)b.sin, inl, 1);
            round_expand(c, b.xo[0], b.wmat, b.ep[0], b.epg[0], b.up[0]);
            ep = b.ep[0];
            epg = b.epg[0];
            up = b.up[0];
            cross_put_dsc(b.sin[0] + sl + d, (uint16_t)(CROSS_HASH_DSC + i + 2 * t - 1));
            cross_hash(c, resp1 + r * d, b.sin[0], sl + d, (uint16_t)(CROSS_HASH_DSC + i + 2 * t - 1));
        }
        uint8_t *r0 = resp0 + r * c->z.resp0;
        round_y(c, b.tmp, ep, up, ch);
        cross_pack_fp(r0, b.tmp, n, c->z.bp);
        round_pack_v(c, r0 + c->z.py, b.e, b.eg, ep, epg, b.vb);
        r++;
    }
    if (!fast && p->corner != 0)
        while (tree_next(&it, seed) >= 0) /* the published nodes right of the last response */
            ;
out:
    seed_iter_wipe(&it);
    grove_wipe(&cs, sizeof cs);
    grove_wipe(&d1, sizeof d1);
    grove_wipe(&hx, sizeof hx);
    grove_wipe(seeds2, sizeof seeds2);
    grove_wipe(seed, sizeof seed);
    grove_wipe(dch, sizeof dch);
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
    size_t batch;
} verify_bufs;

static void verify_layout(const cross_ctx *c, int fast, arena *a, verify_bufs *b)
{
    size_t n = c->n, k = c->k, m = c->m, t = c->t, d = c->z.digest, sl = c->z.seed;
    int g = c->p->rsdpg;
    memset(b, 0, sizeof *b);
    b->batch = fast ? FAST_BATCH : 1;
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

static int verify_core(void *jv, uint8_t *wsbase)
{
    verify_job *j = (verify_job *)jv;
    const cross_ctx *c = j->c;
    const grove_cross_params *p = c->p;
    const int fast = j->fast, g = p->rsdpg;
    const size_t t = c->t, n = c->n, k = c->k, d = c->z.digest, sl = c->z.seed;
    const size_t inl = sl + d + 2, c0l = c->z.ps + c->z.pv + d + 2;
    const uint8_t *sig = j->sig;
    arena a = {wsbase, 0};
    verify_bufs b;
    verify_layout(c, fast, &a, &b);
    uint8_t dch[3 * CROSS_MAX_DIGEST], dch1[CROSS_MAX_DIGEST], d01[2 * CROSS_MAX_DIGEST];
    uint8_t dcmt[CROSS_MAX_DIGEST], dch2[CROSS_MAX_DIGEST], grp[4 * CROSS_MAX_DIGEST];
    grove_keccak_ctx hx, d1, gx;
    seed_iter it;
    ch1_stream cs;
    int ok = 1;

    /* public key: syndrome padding and range */
    if (!cross_unpack_fp(b.s, j->pk + d, n - k, c->z.bp, c->z.p))
        return GROVE_ERR_VERIFY;
    expand_pk(c, j->pk, b.vt, b.wmat);
    const uint8_t *salt = sig;
    cross_hash(c, dch, j->msg, j->mlen, CROSS_HASH_DSC);
    memcpy(dch + d, sig + d, d);
    memcpy(dch + 2 * d, salt, d);
    cross_hash(c, dch1, dch, 3 * d, CROSS_HASH_DSC);
    GROVE_DECLASSIFY(dch1, d); /* a hash of public values (message, digest_cmt, salt) */
    ch1_start(c, &cs, dch1);
    if (fast)
        for (size_t i = 0; i < t; i++)
            b.ch1[i] = cross_sample_chall1(c, &cs.r);
    fixed_weight(c, b.ch2, sig + 2 * d);

    const uint8_t *path = sig + c->z.off_path, *proof = sig + c->z.off_proof;
    const uint8_t *resp1 = sig + c->z.off_resp1, *resp0 = sig + c->z.off_resp0;
    pub_list pl = {b.pub, 0, p->nodes_to_store, 0};
    if (p->corner != 0) {
        if (!pub_build(c, b.ch2, &pl))
            return GROVE_ERR_VERIFY;
        /* the unused tail of the path and of the proof must be zero */
        uint8_t acc = 0;
        for (size_t i = pl.cnt * sl; i < c->z.path; i++)
            acc |= path[i];
        for (size_t i = pl.cnt * d; i < c->z.proof; i++)
            acc |= proof[i];
        if (acc != 0)
            return GROVE_ERR_VERIFY;
        if (fast) {
            /* the seeds below the published nodes, level by level; the leaves' indices */
            size_t nn = 2 * t - 1;
            tree_list(c, b.tn);
            memset(b.seeded, 0, nn);
            memset(b.avail, 0, nn);
            for (size_t idx = 0; idx < nn; idx++)
                if (b.tn[idx].cnt == 1)
                    b.leafidx[b.tn[idx].first] = (uint16_t)idx;
            for (size_t rr = 0; rr < pl.cnt; rr++) {
                size_t idx = pl.idx[rr];
                memcpy(b.nodes + idx * sl, path + rr * sl, sl);
                b.seeded[idx] = 1;
                memcpy(b.mvals + idx * d, proof + (pl.cnt - 1 - rr) * d, d);
                b.avail[idx] = 1;
            }
            tree_seeds_batched(c, b.tn, b.nodes, b.seeded, salt, b.sin);
        } else {
            seed_iter_start(&it, c, NULL, salt);
            it.pub = &pl;
            it.path_in = path;
        }
    }

    cross_xof_init(c, &hx);
    cross_xof_init(c, &d1);
    size_t r = 0, q = 0, qp = 0, known = 0;
    unsigned grp_i = 0;
    size_t grp_left = group_size(c, 0);
    if (p->corner == 0)
        cross_xof_init(c, &gx);
    for (size_t i0 = 0; i0 < t && ok; i0 += b.batch) {
        size_t nb = t - i0 < b.batch ? t - i0 : b.batch;
        uint8_t *ex_in[FAST_BATCH], *ex_out[FAST_BATCH], *h1_in[FAST_BATCH], *h1_out[FAST_BATCH];
        uint8_t *h0_in[FAST_BATCH], *h0_out[FAST_BATCH];
        size_t nex = 0, nh0 = 0;
        const uint8_t *yptr[FAST_BATCH], *c1ptr[FAST_BATCH], *c0ptr[FAST_BATCH];
        uint16_t chs[FAST_BATCH];
        for (size_t s = 0; s < nb; s++) {
            size_t i = i0 + s;
            chs[s] = fast ? b.ch1[i] : cross_sample_chall1(c, &cs.r);
            if (b.ch2[i] == 1) {
                uint8_t seed[CROSS_MAX_SEED];
                if (p->corner == 0) {
                    memcpy(seed, path + (q++) * sl, sl);
                } else if (fast) {
                    size_t li = b.leafidx[i];
                    if (!b.seeded[li]) { /* cannot happen: published nodes cover these */
                        ok = 0;
                        break;
                    }
                    memcpy(seed, b.nodes + li * sl, sl);
                } else {
                    long rr = tree_next(&it, seed);
                    if (rr != (long)i) { /* cannot happen: the walk covers these rounds */
                        ok = 0;
                        break;
                    }
                }
                round_inputs(c, seed, salt, i, b.sin[s]);
                memcpy(b.c1in[s], b.sin[s], inl);
                cross_put_dsc(b.c1in[s] + sl + d, (uint16_t)(CROSS_HASH_DSC + i + 2 * t - 1));
                ex_in[nex] = b.sin[s];
                ex_out[nex] = b.xo[s];
                h1_in[nex] = b.c1in[s];
                h1_out[nex] = b.c1out[s];
                nex++;
                yptr[s] = b.yb[s];
                c1ptr[s] = b.c1out[s];
                c0ptr[s] = NULL;
            } else {
                const uint8_t *r0 = resp0 + r * c->z.resp0;
                /* y in F_p with zero padding; v_bar (or v_G_bar) in Z_z with zero padding */
                if (!cross_unpack_fp(b.y, r0, n, c->z.bp, c->z.p) ||
                    !cross_unpack_fz(b.vb, r0 + c->z.py, c->z.nv, c->z.bz, c->z.z)) {
                    ok = 0;
                    break;
                }
                uint8_t *vfull = b.vb;
                if (g) {
                    memcpy(b.epg, b.vb, c->m);
                    expand_g(c, b.ep, b.epg, b.wmat);
                    vfull = b.ep;
                }
                for (size_t jj = 0; jj < n; jj++)
                    b.tmp[jj] = (uint16_t)cross_fp_red(g, cross_restr_val(g, vfull[jj]) * b.y[jj]);
                mul_ht(c, b.sp, b.tmp, b.vt);
                for (size_t jj = 0; jj < n - k; jj++)
                    b.sp[jj] = (uint16_t)cross_fp_red(
                        g, b.sp[jj] + c->z.p * c->z.p - (uint32_t)chs[s] * b.s[jj]);
                cross_pack_fp(b.c0in[s], b.sp, n - k, c->z.bp);
                memcpy(b.c0in[s] + c->z.ps, r0 + c->z.py, c->z.pv);
                memcpy(b.c0in[s] + c->z.ps + c->z.pv, salt, d);
                cross_put_dsc(b.c0in[s] + c0l - 2, (uint16_t)(CROSS_HASH_DSC + i + 2 * t - 1));
                h0_in[nh0] = b.c0in[s];
                h0_out[nh0] = b.c0out[s];
                nh0++;
                yptr[s] = r0;
                c1ptr[s] = resp1 + r * d;
                c0ptr[s] = b.c0out[s];
                r++;
            }
        }
        if (!ok)
            break;
        cross_shake_many(c, ex_out, c->xe + c->xu, (const uint8_t *const *)ex_in, inl, nex);
        cross_shake_many(c, h1_out, d, (const uint8_t *const *)h1_in, inl, nex);
        cross_shake_many(c, h0_out, d, (const uint8_t *const *)h0_in, c0l, nh0);
        for (size_t s = 0; s < nb; s++) {
            size_t i = i0 + s;
            if (b.ch2[i] == 1) {
                round_expand(c, b.xo[s], b.wmat, b.ep, b.epg, b.up);
                round_y(c, b.tmp, b.ep, b.up, chs[s]);
                cross_pack_fp(b.yb[s], b.tmp, n, c->z.bp);
            }
            grove_keccak_absorb(&hx, yptr[s], c->z.py);
            grove_keccak_absorb(&d1, c1ptr[s], d);
            if (p->corner == 0) {
                /* the proof holds the cmt_0 of the chall_2 = 1 rounds in round order */
                const uint8_t *leaf = b.ch2[i] == 1 ? proof + (qp++) * d : c0ptr[s];
                grove_keccak_absorb(&gx, leaf, d);
                if (--grp_left == 0) {
                    cross_absorb_dsc(&gx, CROSS_HASH_DSC);
                    grove_keccak_squeeze(&gx, grp + grp_i * d, d);
                    grp_i++;
                    if (grp_i < 4) {
                        cross_xof_init(c, &gx);
                        grp_left = group_size(c, grp_i);
                    }
                }
            } else if (b.ch2[i] == 0) {
                if (fast) {
                    size_t li = b.leafidx[i];
                    memcpy(b.mvals + li * d, c0ptr[s], d);
                    b.avail[li] = 1;
                } else {
                    memcpy(b.known + (known++) * d, c0ptr[s], d);
                }
            }
        }
    }
    if (ok && r != t - c->w)
        ok = 0;
    if (ok) {
        if (p->corner == 0) {
            cross_hash(c, d01, grp, 4 * d, CROSS_HASH_DSC);
        } else if (fast) {
            tree_merkle_batched(c, b.tn, b.mvals, b.avail, b.hin);
            ok = b.avail[0]; /* always: every leaf is known or under a published node */
            memcpy(d01, b.mvals, d);
        } else {
            cross_tnode root;
            vroot_ctx vr = {b.known, 0, proof, &pl};
            cross_tree_root_node(c, &root);
            merkle_verify_root(c, &root, &vr, d01);
        }
        cross_absorb_dsc(&d1, CROSS_HASH_DSC);
        grove_keccak_squeeze(&d1, d01 + d, d);
        cross_hash(c, dcmt, d01, 2 * d, CROSS_HASH_DSC);
        grove_keccak_absorb(&hx, dch1, d);
        cross_absorb_dsc(&hx, CROSS_HASH_DSC);
        grove_keccak_squeeze(&hx, dch2, d);
        ok = ok & grove_ct_memeq(dcmt, sig + d, d) & grove_ct_memeq(dch2, sig + 2 * d, d);
    }
    if (p->corner != 0 && !fast)
        seed_iter_wipe(&it);
    grove_wipe(&cs, sizeof cs);
    return ok ? GROVE_OK : GROVE_ERR_VERIFY;
}

/* ---- workspace on the stack: size classes ---------------------------------------------------- */

/*
 * No VLAs and no heap: sign and verify run with their workspace in a stack array of the
 * smallest of these sizes (steps of about 6%) that holds what the parameter set needs.
 */
#define CROSS_WS_CLASSES(X)                                                                    \
    X(1024) X(1152) X(1280) X(1408) X(1536) X(1664) X(1792) X(1920) X(2048) X(2176) X(2304)    \
    X(2560) X(2816) X(3072) X(3328) X(3584) X(3840) X(4096) X(4352) X(4736) X(5120) X(5504)    \
    X(5888) X(6272) X(6656) X(7168) X(7680) X(8192) X(8704) X(9344) X(9984) X(10624)           \
    X(11264) X(12032) X(12800) X(13696) X(14592) X(15616) X(16640) X(17792) X(18944)           \
    X(20224) X(21504) X(22912) X(24320) X(25856) X(27392) X(29184) X(30976) X(33024)           \
    X(35072) X(37376) X(39680) X(42240) X(44800) X(47616) X(50432) X(53632) X(56832)           \
    X(60416) X(64000) X(68096) X(72192) X(76800) X(81408) X(86528) X(91648) X(97408)           \
    X(103168) X(109696) X(116224) X(123520) X(130816) X(139008) X(147200) X(156416)            \
    X(165632) X(176000) X(186368) X(198016) X(209664) X(222848) X(236032) X(250880)            \
    X(265728) X(282368) X(299008) X(317696) X(336384) X(357504) X(378624) X(402304)            \
    X(425984) X(452608) X(479232) X(509184) X(539136) X(572928) X(606720) X(644736)            \
    X(682752) X(725504) X(768256) X(816384) X(864512) X(918656) X(972800) X(1033600)           \
    X(1094400) X(1162880) X(1231360) X(1308416) X(1385472) X(1472128) X(1558784) X(1656320)    \
    X(1753856) X(1863552) X(1973248) X(2035200) X(2097152)

typedef int (*cross_ws_fn)(void *job, uint8_t *ws);

#define CROSS_DEF_CLASS(N)                                                                   \
    static CROSS_NOINLINE int cross_ws_run_##N(cross_ws_fn fn, void *job, size_t need)       \
    {                                                                                        \
        uint64_t ws[(N) / 8];                                                                \
        int rc = fn(job, (uint8_t *)ws);                                                     \
        grove_wipe(ws, need);                                                                \
        return rc;                                                                           \
    }
CROSS_WS_CLASSES(CROSS_DEF_CLASS)
#undef CROSS_DEF_CLASS

static int cross_ws_run(cross_ws_fn fn, void *job, size_t need)
{
#define CROSS_TRY_CLASS(N)                                                                   \
    if (need <= (N))                                                                         \
        return cross_ws_run_##N(fn, job, need);
    CROSS_WS_CLASSES(CROSS_TRY_CLASS)
#undef CROSS_TRY_CLASS
    return GROVE_ERR_NOMEM;
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

int grove_cross_keygen_from_seed(const grove_cross_params *p, uint8_t *pk, size_t pk_cap,
                                 uint8_t *sk, size_t sk_cap, const uint8_t *seed,
                                 size_t seed_len)
{
    if (p == NULL || pk == NULL || sk == NULL || seed == NULL)
        return GROVE_ERR_INVALID_ARG;
    cross_ctx c;
    cross_ctx_init(&c, p);
    if (seed_len != c.z.sk)
        return GROVE_ERR_INVALID_ARG;
    if (pk_cap < c.z.pk || sk_cap < c.z.sk)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    if (sk != seed)
        memmove(sk, seed, c.z.sk);
    return keygen_core(&c, pk, sk);
}

int grove_cross_keygen(const grove_cross_params *p, uint8_t *pk, size_t pk_cap, uint8_t *sk,
                       size_t sk_cap)
{
    if (p == NULL || pk == NULL || sk == NULL)
        return GROVE_ERR_INVALID_ARG;
    cross_ctx c;
    cross_ctx_init(&c, p);
    if (pk_cap < c.z.pk || sk_cap < c.z.sk)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    int rc = grove_randombytes(sk, c.z.sk);
    if (rc != GROVE_OK) {
        grove_wipe(sk, c.z.sk);
        return rc;
    }
    return keygen_core(&c, pk, sk);
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
    int rc;
    if (ws != NULL) {
        if (((uintptr_t)ws & 7u) != 0)
            return GROVE_ERR_INVALID_ARG;
        if (ws_len < need)
            return GROVE_ERR_BUFFER_TOO_SMALL;
        rc = sign_core(&j, (uint8_t *)ws);
        grove_wipe(ws, need);
    } else {
        rc = cross_ws_run(sign_core, &j, need);
    }
    if (rc != GROVE_OK)
        grove_wipe(sig, c.z.sig);
    return rc;
}

static int sign_common(const grove_cross_params *p, grove_cross_strategy s, uint8_t *sig,
                       size_t sig_cap, const uint8_t *msg, size_t msg_len, const uint8_t *sk,
                       size_t sk_len, void *ws, size_t ws_len)
{
    if (p == NULL || !strategy_ok(s) || sig == NULL || sk == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    cross_ctx c;
    cross_ctx_init(&c, p);
    if (sk_len != c.z.sk)
        return GROVE_ERR_INVALID_ARG;
    if (sig_cap < c.z.sig)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    uint8_t rnd[CROSS_MAX_SEED + CROSS_MAX_DIGEST];
    int rc = grove_randombytes(rnd, c.z.seed + c.z.digest);
    if (rc == GROVE_OK)
        rc = cross_sign_derand(p, s, sig, msg, msg_len, sk, rnd, rnd + c.z.seed, ws, ws_len);
    grove_wipe(rnd, sizeof rnd);
    return rc;
}

int grove_cross_sign(const grove_cross_params *p, grove_cross_strategy s, uint8_t *sig,
                     size_t sig_cap, const uint8_t *msg, size_t msg_len, const uint8_t *sk,
                     size_t sk_len)
{
    return sign_common(p, s, sig, sig_cap, msg, msg_len, sk, sk_len, NULL, 0);
}

int grove_cross_sign_ws(const grove_cross_params *p, grove_cross_strategy s, uint8_t *sig,
                        size_t sig_cap, const uint8_t *msg, size_t msg_len, const uint8_t *sk,
                        size_t sk_len, void *ws, size_t ws_len)
{
    if (ws == NULL)
        return GROVE_ERR_INVALID_ARG;
    return sign_common(p, s, sig, sig_cap, msg, msg_len, sk, sk_len, ws, ws_len);
}

static int verify_common(const grove_cross_params *p, grove_cross_strategy s,
                         const uint8_t *sig, size_t sig_len, const uint8_t *msg, size_t msg_len,
                         const uint8_t *pk, size_t pk_len, void *ws, size_t ws_len)
{
    if (p == NULL || !strategy_ok(s) || sig == NULL || pk == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    cross_ctx c;
    cross_ctx_init(&c, p);
    if (sig_len != c.z.sig || pk_len != c.z.pk)
        return GROVE_ERR_ENCODING;
    verify_job j = {&c, s == GROVE_CROSS_FAST, sig, msg, pk, msg_len};
    size_t need = grove_cross_workspace_bytes(p, s, GROVE_CROSS_OP_VERIFY);
    if (ws != NULL) {
        if (((uintptr_t)ws & 7u) != 0)
            return GROVE_ERR_INVALID_ARG;
        if (ws_len < need)
            return GROVE_ERR_BUFFER_TOO_SMALL;
        int rc = verify_core(&j, (uint8_t *)ws);
        grove_wipe(ws, need);
        return rc;
    }
    return cross_ws_run(verify_core, &j, need);
}

int grove_cross_verify(const grove_cross_params *p, grove_cross_strategy s, const uint8_t *sig,
                       size_t sig_len, const uint8_t *msg, size_t msg_len, const uint8_t *pk,
                       size_t pk_len)
{
    return verify_common(p, s, sig, sig_len, msg, msg_len, pk, pk_len, NULL, 0);
}

int grove_cross_verify_ws(const grove_cross_params *p, grove_cross_strategy s,
                          const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                          size_t msg_len, const uint8_t *pk, size_t pk_len, void *ws,
                          size_t ws_len)
{
    if (ws == NULL)
        return GROVE_ERR_INVALID_ARG;
    return verify_common(p, s, sig, sig_len, msg, msg_len, pk, pk_len, ws, ws_len);
}

int grove_cross_sign_attached(const grove_cross_params *p, grove_cross_strategy s, uint8_t *sm,
                              size_t sm_cap, size_t *sm_len, const uint8_t *msg,
                              size_t msg_len, const uint8_t *sk, size_t sk_len)
{
    if (p == NULL || sm == NULL || sm_len == NULL || (msg == NULL && msg_len))
        return GROVE_ERR_INVALID_ARG;
    size_t sb = grove_cross_signature_bytes(p);
    *sm_len = 0;
    if (msg_len > SIZE_MAX - sb)
        return GROVE_ERR_OVERFLOW;
    if (sm_cap < msg_len + sb)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    if (msg_len)
        memmove(sm, msg, msg_len);
    int rc = grove_cross_sign(p, s, sm + msg_len, sb, sm, msg_len, sk, sk_len);
    if (rc == GROVE_OK)
        *sm_len = msg_len + sb;
    return rc;
}

int grove_cross_open(const grove_cross_params *p, grove_cross_strategy s, uint8_t *msg,
                     size_t msg_cap, size_t *msg_len, const uint8_t *sm, size_t sm_len,
                     const uint8_t *pk, size_t pk_len)
{
    if (p == NULL || msg_len == NULL || sm == NULL || (msg == NULL && msg_cap))
        return GROVE_ERR_INVALID_ARG;
    size_t sb = grove_cross_signature_bytes(p);
    *msg_len = 0;
    if (sm_len < sb) /* checked before anything is parsed */
        return GROVE_ERR_VERIFY;
    size_t ml = sm_len - sb;
    if (msg_cap < ml)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    int rc = grove_cross_verify(p, s, sm + ml, sb, sm, ml, pk, pk_len);
    if (rc != GROVE_OK) {
        if (msg != NULL && msg_cap)
            memset(msg, 0, ml);
        return rc;
    }
    if (ml)
        memmove(msg, sm, ml);
    *msg_len = ml;
    return GROVE_OK;
}
