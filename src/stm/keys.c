/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * STM keys, key registration and the closed registration (spec sections 3, 4, 6).
 *
 * PoP check of party i (vk_i in G2; k1_i, k2_i in G1; H = hash_to_G1("PoP", empty DST)):
 *   e(G1, vk_i) == e(k2_i, G2)   and   e(H, vk_i) == e(k1_i, G2).
 * Many parties are checked at once with random 128-bit weights r_i and rho:
 *   e(G1 + rho*H, sum r_i vk_i) == e(sum r_i k2_i + rho * sum r_i k1_i, G2),
 * which fails except with probability about 2^-127 if any single check fails. Every point is
 * decoded with its subgroup check first (the bulk of the cost, spread over threads). When the
 * batch check fails, parties are checked one by one to name the offender.
 */
#include <stdlib.h>
#include <string.h>

#include "common/ct.h"
#include "common/util.h"
#include "stm/stm_internal.h"

static const uint8_t pop_msg[3] = {'P', 'o', 'P'};

/* ---- keys ---------------------------------------------------------------------------------- */

static grove_status vkpop_of(uint8_t vkpop[GROVE_STM_VKPOP_BYTES], const grove_bls_sk *sk)
{
    grove_bls_g1 k1, k2, g1;
    grove_bls_g2 vk, g2;
    grove_status rc;
    grove_bls_g2_generator(&g2);
    grove_bls_g2_mul_sk(&vk, &g2, sk);
    if ((rc = grove_bls_sign_g1(&k1, pop_msg, sizeof pop_msg, sk, NULL, 0)) != GROVE_OK)
        return rc;
    grove_bls_g1_generator(&g1);
    grove_bls_g1_mul_sk(&k2, &g1, sk);
    /* vk, k1 and k2 are published (the vk+PoP); mul_sk returns them in affine form */
    GROVE_DECLASSIFY(&vk, sizeof vk);
    GROVE_DECLASSIFY(&k1, sizeof k1);
    GROVE_DECLASSIFY(&k2, sizeof k2);
    grove_bls_g2_to_bytes(&vk, vkpop);
    grove_bls_g1_to_bytes(&k1, vkpop + 96);
    grove_bls_g1_to_bytes(&k2, vkpop + 144);
    grove_wipe(&k2, sizeof k2); /* k2 and k1 are public, but intermediate copies are not kept */
    return GROVE_OK;
}

grove_status grove_stm_vkpop_from_sk(uint8_t vkpop[GROVE_STM_VKPOP_BYTES],
                                     const uint8_t sk[GROVE_STM_SK_BYTES])
{
    if (!vkpop || !sk)
        return GROVE_ERR_INVALID_ARG;
    grove_bls_sk s;
    grove_status rc = grove_bls_sk_from_bytes(&s, sk);
    if (rc == GROVE_OK)
        rc = vkpop_of(vkpop, &s);
    grove_bls_sk_wipe(&s);
    grove_burn_stack();
    return rc;
}

grove_status grove_stm_keygen(uint8_t vkpop[GROVE_STM_VKPOP_BYTES], uint8_t sk[GROVE_STM_SK_BYTES],
                              const uint8_t seed[GROVE_STM_SEED_BYTES])
{
    if (!sk || !vkpop)
        return GROVE_ERR_INVALID_ARG;
    uint8_t ikm[GROVE_STM_SEED_BYTES];
    grove_bls_sk s;
    grove_status rc = GROVE_OK;
    if (seed)
        memcpy(ikm, seed, sizeof ikm);
    else
        rc = grove_randombytes(ikm, sizeof ikm);
    if (rc == GROVE_OK)
        rc = grove_bls_keygen(&s, ikm, sizeof ikm, NULL, 0);
    if (rc == GROVE_OK)
        rc = vkpop_of(vkpop, &s);
    if (rc == GROVE_OK)
        grove_bls_sk_to_bytes(&s, sk);
    grove_bls_sk_wipe(&s);
    grove_wipe(ikm, sizeof ikm);
    grove_burn_stack();
    return rc;
}

/* ---- PoP checks ---------------------------------------------------------------------------- */

typedef struct {
    grove_bls_g2 vk;
    grove_bls_g1 k1, k2;
} pop_pts;

static grove_status decode_vk(grove_bls_g2 *vk, const uint8_t *in)
{
    return grove_bls_g2_from_bytes(vk, in, GROVE_STM_VK_BYTES, GROVE_BLS_NO_INFINITY);
}

/* A malformed vk is GROVE_ERR_ENCODING (a bad key); a malformed PoP is GROVE_ERR_VERIFY (a
 * proof that does not verify), as grove/common.h has it. */
static grove_status decode_vkpop(pop_pts *p, const uint8_t vkpop[GROVE_STM_VKPOP_BYTES])
{
    if (decode_vk(&p->vk, vkpop) != GROVE_OK)
        return GROVE_ERR_ENCODING;
    if (grove_bls_g1_from_bytes(&p->k1, vkpop + 96, 48, GROVE_BLS_NO_INFINITY) != GROVE_OK ||
        grove_bls_g1_from_bytes(&p->k2, vkpop + 144, 48, GROVE_BLS_NO_INFINITY) != GROVE_OK)
        return GROVE_ERR_VERIFY;
    return GROVE_OK;
}

typedef struct {
    const uint8_t *vkpops;
    pop_pts *pts;
    int *status;
    const uint8_t *w; /* 16-byte weights */
    grove_bls_g2 *v;  /* per-worker partial sums */
    grove_bls_g1 *s1, *s2;
} pop_job;

/* Decodes the PoPs [begin, end) (status[i] each) and, if all decode, adds their weighted sums
 * to the worker's partial sums. Fails only for want of memory. */
static int pop_chunk(void *arg, size_t begin, size_t end, unsigned worker)
{
    pop_job *j = arg;
    int ok = 1;
    for (size_t i = begin; i < end; i++) {
        j->status[i] = decode_vkpop(&j->pts[i], j->vkpops + GROVE_STM_VKPOP_BYTES * i);
        if (j->status[i] != GROVE_OK)
            ok = 0;
    }
    if (!ok || end == begin)
        return GROVE_OK;
    size_t n = end - begin;
    grove_bls_g2 *vk = malloc(n * sizeof *vk);
    grove_bls_g1 *k = malloc(2 * n * sizeof *k);
    int rc = GROVE_ERR_NOMEM;
    if (vk && k) {
        for (size_t i = 0; i < n; i++) {
            vk[i] = j->pts[begin + i].vk;
            k[i] = j->pts[begin + i].k1;
            k[n + i] = j->pts[begin + i].k2;
        }
        const uint8_t *w = j->w + 16 * begin;
        grove_bls_g2 v;
        grove_bls_g1 s1, s2;
        if (grove_bls_g2_msm(&v, vk, w, 16, n) == GROVE_OK &&
            grove_bls_g1_msm(&s1, k, w, 16, n) == GROVE_OK &&
            grove_bls_g1_msm(&s2, k + n, w, 16, n) == GROVE_OK) {
            grove_bls_g2_add(&j->v[worker], &j->v[worker], &v);
            grove_bls_g1_add(&j->s1[worker], &j->s1[worker], &s1);
            grove_bls_g1_add(&j->s2[worker], &j->s2[worker], &s2);
            rc = GROVE_OK;
        }
    }
    free(vk);
    free(k);
    return rc;
}

/* One combined check over sums V = sum r_i vk_i, S1 = sum r_i k1_i, S2 = sum r_i k2_i. */
static int pop_final(const grove_bls_g2 *v, const grove_bls_g1 *s1, const grove_bls_g1 *s2)
{
    uint8_t rho[16];
    grove_bls_g1 h, a, b, p[2];
    grove_bls_g2 q[2];
    int rc = grove_randombytes(rho, sizeof rho);
    if (rc != GROVE_OK)
        return rc;
    rho[0] |= 1;
    grove_bls_g1_hash(&h, pop_msg, sizeof pop_msg, NULL, 0);
    if ((rc = grove_bls_g1_mul(&a, &h, rho, 16)) != GROVE_OK)
        return rc;
    grove_bls_g1_generator(&h);
    grove_bls_g1_add(&p[0], &a, &h); /* G1 + rho H */
    if ((rc = grove_bls_g1_mul(&b, s1, rho, 16)) != GROVE_OK)
        return rc;
    grove_bls_g1_add(&b, &b, s2); /* S2 + rho S1 */
    grove_bls_g1_neg(&p[1], &b);
    q[0] = *v;
    grove_bls_g2_generator(&q[1]);
    return grove_bls_pairing_check(p, q, 2);
}

/* Checks n PoPs; status[i] gets each party's result. Returns GROVE_OK iff all pass. */
static int pop_check_many(size_t n, const uint8_t *vkpops, pop_pts *pts, int *status,
                          unsigned threads)
{
    const unsigned nt = threads;
    const size_t chunk = stm_chunk(n, nt);
    const unsigned nw = grove_pool_workers(nt, n, chunk);
    pop_job j = {.vkpops = vkpops, .pts = pts, .status = status};
    uint8_t *w = malloc(16 * n);
    grove_bls_g2 *v = malloc(nw * sizeof *v);
    grove_bls_g1 *s1 = malloc(nw * sizeof *s1), *s2 = malloc(nw * sizeof *s2);
    int rc = GROVE_OK;
    if (!w || !v || !s1 || !s2) {
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    if ((rc = grove_randombytes(w, 16 * n)) != GROVE_OK)
        goto out;
    for (size_t i = 0; i < n; i++)
        w[16 * i] |= 1;
    j.w = w;
    j.v = v;
    j.s1 = s1;
    j.s2 = s2;
    for (unsigned t = 0; t < nw; t++) {
        grove_bls_g2_identity(&v[t]);
        grove_bls_g1_identity(&s1[t]);
        grove_bls_g1_identity(&s2[t]);
    }
    /* on failure, parties after the failed chunk may be undecoded: no per-party verdict then */
    if ((rc = grove_parallel_for(nt, n, chunk, pop_chunk, &j)) != GROVE_OK)
        goto out;
    int all_decoded = 1;
    for (size_t i = 0; i < n; i++)
        if (status[i] != GROVE_OK)
            all_decoded = 0;
    if (all_decoded) {
        for (unsigned t = 1; t < nw; t++) {
            grove_bls_g2_add(&v[0], &v[0], &v[t]);
            grove_bls_g1_add(&s1[0], &s1[0], &s1[t]);
            grove_bls_g1_add(&s2[0], &s2[0], &s2[t]);
        }
        rc = pop_final(&v[0], &s1[0], &s2[0]);
        if (rc == GROVE_OK || rc != GROVE_ERR_VERIFY)
            goto out;
    }
    /* name the offenders: check every decoded party alone */
    rc = GROVE_ERR_VERIFY;
    for (size_t i = 0; i < n; i++) {
        if (status[i] != GROVE_OK)
            continue;
        grove_bls_g1 a1, a2;
        grove_bls_g2 a0;
        a0 = pts[i].vk;
        a1 = pts[i].k1;
        a2 = pts[i].k2;
        int r = pop_final(&a0, &a1, &a2);
        status[i] = r == GROVE_OK ? GROVE_OK : GROVE_ERR_VERIFY;
    }
    rc = GROVE_OK;
    for (size_t i = 0; i < n; i++)
        if (status[i] != GROVE_OK) {
            rc = status[i];
            break;
        }
out:
    free(w);
    free(v);
    free(s1);
    free(s2);
    return rc;
}

grove_status grove_stm_vkpop_check(const uint8_t vkpop[GROVE_STM_VKPOP_BYTES])
{
    if (!vkpop)
        return GROVE_ERR_INVALID_ARG;
    pop_pts p;
    int status;
    return pop_check_many(1, vkpop, &p, &status, 1);
}

/* ---- key registration ---------------------------------------------------------------------- */

struct grove_stm_keyreg {
    size_t n, cap;
    uint64_t *stakes;
    uint8_t *vks;      /* n * 96 */
    grove_bls_g2 *pts; /* decoded vks */
    uint32_t *slots;   /* hash set of vks: party index + 1, 0 = empty */
    size_t nslots;     /* power of two, >= 2 n */
};

static size_t vk_slot(const uint8_t *vk, size_t nslots)
{
    /* compressed x-coordinate bytes are uniformly distributed */
    return (size_t)(grove_load64_le(vk + 8) & (nslots - 1));
}

static int keyreg_find(const grove_stm_keyreg *r, const uint8_t *vk)
{
    if (r->nslots == 0)
        return 0;
    for (size_t s = vk_slot(vk, r->nslots);; s = (s + 1) & (r->nslots - 1)) {
        uint32_t v = r->slots[s];
        if (v == 0)
            return 0;
        if (memcmp(r->vks + 96 * (size_t)(v - 1), vk, 96) == 0)
            return 1;
    }
}

static void keyreg_insert(grove_stm_keyreg *r, size_t idx)
{
    const uint8_t *vk = r->vks + 96 * idx;
    size_t s = vk_slot(vk, r->nslots);
    while (r->slots[s] != 0)
        s = (s + 1) & (r->nslots - 1);
    r->slots[s] = (uint32_t)(idx + 1);
}

static int keyreg_reserve(grove_stm_keyreg *r, size_t need)
{
    if (need > r->cap) {
        size_t cap = r->cap ? r->cap : 16;
        while (cap < need)
            cap *= 2;
        uint64_t *st = realloc(r->stakes, cap * sizeof *st);
        if (!st)
            return GROVE_ERR_NOMEM;
        r->stakes = st;
        uint8_t *vk = realloc(r->vks, cap * 96);
        if (!vk)
            return GROVE_ERR_NOMEM;
        r->vks = vk;
        grove_bls_g2 *p = realloc(r->pts, cap * sizeof *p);
        if (!p)
            return GROVE_ERR_NOMEM;
        r->pts = p;
        r->cap = cap;
    }
    if (2 * need > r->nslots) {
        size_t ns = r->nslots ? r->nslots : 32;
        while (ns < 2 * need)
            ns *= 2;
        uint32_t *sl = calloc(ns, sizeof *sl);
        if (!sl)
            return GROVE_ERR_NOMEM;
        free(r->slots);
        r->slots = sl;
        r->nslots = ns;
        for (size_t i = 0; i < r->n; i++)
            keyreg_insert(r, i);
    }
    return GROVE_OK;
}

grove_status grove_stm_keyreg_new(grove_stm_keyreg **reg)
{
    if (!reg)
        return GROVE_ERR_INVALID_ARG;
    *reg = calloc(1, sizeof **reg);
    return *reg ? GROVE_OK : GROVE_ERR_NOMEM;
}

void grove_stm_keyreg_free(grove_stm_keyreg *reg)
{
    if (!reg)
        return;
    free(reg->stakes);
    free(reg->vks);
    free(reg->pts);
    free(reg->slots);
    free(reg);
}

size_t grove_stm_keyreg_count(const grove_stm_keyreg *reg)
{
    return reg ? reg->n : 0;
}

static int cmp_vk_idx(const void *a, const void *b, void *ctx)
{
    const uint8_t *vks = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int c = memcmp(vks + GROVE_STM_VKPOP_BYTES * i, vks + GROVE_STM_VKPOP_BYTES * j, 96);
    if (c)
        return c;
    return i < j ? -1 : i > j;
}

grove_status grove_stm_keyreg_add_many(grove_stm_keyreg *reg, size_t *bad, const uint64_t *stakes,
                                       const uint8_t *vkpops, size_t n, unsigned threads)
{
    if (bad)
        *bad = 0;
    if (!reg || (n && (!stakes || !vkpops)))
        return GROVE_ERR_INVALID_ARG;
    if (n == 0)
        return GROVE_OK;
    if (n > GROVE_STM_MAX_PARTIES || reg->n + n > GROVE_STM_MAX_PARTIES)
        return GROVE_ERR_OVERFLOW;
    int rc;
    pop_pts *pts = malloc(n * sizeof *pts);
    int *status = malloc(n * sizeof *status);
    size_t *ord = malloc(n * sizeof *ord), *tmp = malloc(n * sizeof *tmp);
    if (!pts || !status || !ord || !tmp) {
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    /* duplicates: against the registry, then within the batch (the later one is the culprit) */
    for (size_t i = 0; i < n; i++) {
        status[i] = GROVE_OK;
        if (keyreg_find(reg, vkpops + GROVE_STM_VKPOP_BYTES * i))
            status[i] = GROVE_ERR_EXISTS;
        ord[i] = i;
    }
    stm_sort_idx(ord, tmp, n, cmp_vk_idx, (void *)vkpops);
    for (size_t i = 1; i < n; i++)
        if (memcmp(vkpops + GROVE_STM_VKPOP_BYTES * ord[i],
                   vkpops + GROVE_STM_VKPOP_BYTES * ord[i - 1], 96) == 0)
            status[ord[i]] = GROVE_ERR_EXISTS;
    for (size_t i = 0; i < n; i++)
        if (status[i] != GROVE_OK) {
            if (bad)
                *bad = i;
            rc = status[i];
            goto out;
        }
    rc = pop_check_many(n, vkpops, pts, status, threads);
    if (rc != GROVE_OK) {
        for (size_t i = 0; i < n; i++)
            if (status[i] != GROVE_OK) {
                if (bad)
                    *bad = i;
                rc = status[i];
                break;
            }
        goto out;
    }
    if ((rc = keyreg_reserve(reg, reg->n + n)) != GROVE_OK)
        goto out;
    for (size_t i = 0; i < n; i++) {
        size_t at = reg->n;
        reg->stakes[at] = stakes[i];
        memcpy(reg->vks + 96 * at, vkpops + GROVE_STM_VKPOP_BYTES * i, 96);
        reg->pts[at] = pts[i].vk;
        reg->n++;
        keyreg_insert(reg, at);
    }
out:
    free(pts);
    free(status);
    free(ord);
    free(tmp);
    return rc;
}

grove_status grove_stm_keyreg_add(grove_stm_keyreg *reg, uint64_t stake,
                                  const uint8_t vkpop[GROVE_STM_VKPOP_BYTES])
{
    return grove_stm_keyreg_add_many(reg, NULL, &stake, vkpop, 1, 1);
}

/* ---- closing --------------------------------------------------------------------------------- */

static int cmp_entry_idx(const void *a, const void *b, void *ctx)
{
    const grove_stm_keyreg *r = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (r->stakes[i] != r->stakes[j])
        return r->stakes[i] < r->stakes[j] ? -1 : 1;
    return memcmp(r->vks + 96 * i, r->vks + 96 * j, 96);
}

static int closed_finish(grove_stm_closed *c)
{
    c->nodes = stm_merkle_nodes(c->n);
    c->tree = malloc((size_t)c->nodes * 32);
    if (!c->tree)
        return GROVE_ERR_NOMEM;
    stm_merkle_build(c->tree, c->entries, c->n);
    memcpy(c->root, c->tree, 32);
    return GROVE_OK;
}

static grove_stm_closed *closed_alloc(uint64_t n)
{
    grove_stm_closed *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->n = n;
    c->entries = malloc((size_t)n * GROVE_STM_ENTRY_BYTES);
    c->vks = malloc((size_t)n * sizeof *c->vks);
    if (!c->entries || !c->vks) {
        grove_stm_closed_free(c);
        return NULL;
    }
    return c;
}

grove_status grove_stm_keyreg_close(const grove_stm_keyreg *reg, grove_stm_closed **closed)
{
    if (!reg || !closed)
        return GROVE_ERR_INVALID_ARG;
    *closed = NULL;
    if (reg->n == 0)
        return GROVE_ERR_INVALID_ARG;
    uint64_t total = 0;
    for (size_t i = 0; i < reg->n; i++) {
        if (total + reg->stakes[i] < total)
            return GROVE_ERR_OVERFLOW;
        total += reg->stakes[i];
    }
    if (total == 0)
        return GROVE_ERR_INVALID_ARG;
    size_t *ord = malloc(reg->n * sizeof *ord), *tmp = malloc(reg->n * sizeof *tmp);
    grove_stm_closed *c = closed_alloc(reg->n);
    int rc = GROVE_OK;
    if (!ord || !tmp || !c) {
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < reg->n; i++)
        ord[i] = i;
    stm_sort_idx(ord, tmp, reg->n, cmp_entry_idx, (void *)reg);
    c->total = total;
    for (size_t i = 0; i < reg->n; i++) {
        uint8_t *e = c->entries + GROVE_STM_ENTRY_BYTES * i;
        memcpy(e, reg->vks + 96 * ord[i], 96);
        grove_store64_be(e + 96, reg->stakes[ord[i]]);
        c->vks[i] = reg->pts[ord[i]];
    }
    rc = closed_finish(c);
out:
    free(ord);
    free(tmp);
    if (rc != GROVE_OK) {
        grove_stm_closed_free(c);
        c = NULL;
    }
    *closed = c;
    return rc;
}

void grove_stm_closed_free(grove_stm_closed *c)
{
    if (!c)
        return;
    free(c->entries);
    free(c->vks);
    free(c->tree);
    free(c);
}

uint64_t grove_stm_closed_count(const grove_stm_closed *c)
{
    return c ? c->n : 0;
}

uint64_t grove_stm_closed_total_stake(const grove_stm_closed *c)
{
    return c ? c->total : 0;
}

void grove_stm_closed_root(const grove_stm_closed *c, uint8_t root[GROVE_STM_ROOT_BYTES])
{
    if (c && root)
        memcpy(root, c->root, 32);
}

grove_status grove_stm_closed_entry(const grove_stm_closed *c, uint8_t vk[GROVE_STM_VK_BYTES],
                                    uint64_t *stake, uint64_t index)
{
    if (!c)
        return GROVE_ERR_INVALID_ARG;
    if (index >= c->n)
        return GROVE_ERR_NOT_FOUND;
    const uint8_t *e = c->entries + GROVE_STM_ENTRY_BYTES * index;
    if (vk)
        memcpy(vk, e, 96);
    if (stake)
        *stake = grove_load64_be(e + 96);
    return GROVE_OK;
}

grove_status grove_stm_closed_find(const grove_stm_closed *c, uint64_t *index,
                                   const uint8_t vk[GROVE_STM_VK_BYTES])
{
    if (!c || !vk)
        return GROVE_ERR_INVALID_ARG;
    for (uint64_t i = 0; i < c->n; i++)
        if (memcmp(c->entries + GROVE_STM_ENTRY_BYTES * i, vk, 96) == 0) {
            if (index)
                *index = i;
            return GROVE_OK;
        }
    return GROVE_ERR_NOT_FOUND;
}

void grove_stm_closed_avk(const grove_stm_closed *c, grove_stm_avk *avk)
{
    if (!c || !avk)
        return;
    memcpy(avk->root, c->root, 32);
    avk->nr_leaves = c->n;
    avk->total_stake = c->total;
}

static const uint8_t closed_magic[8] = {'G', 'R', 'V', 'S', 'T', 'M', 'R', '1'};

size_t grove_stm_closed_encoded_bytes(const grove_stm_closed *c)
{
    return c ? 16 + (size_t)c->n * GROVE_STM_ENTRY_BYTES : 0;
}

grove_status grove_stm_closed_to_bytes(const grove_stm_closed *c, uint8_t *out, size_t out_cap,
                                       size_t *out_len)
{
    if (!c || !out_len || (!out && out_cap))
        return GROVE_ERR_INVALID_ARG;
    *out_len = grove_stm_closed_encoded_bytes(c);
    if (out_cap < *out_len)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    memcpy(out, closed_magic, 8);
    grove_store64_be(out + 8, c->n);
    memcpy(out + 16, c->entries, (size_t)c->n * GROVE_STM_ENTRY_BYTES);
    return GROVE_OK;
}

typedef struct {
    const uint8_t *entries;
    grove_bls_g2 *vks;
} vk_job;

static int vk_chunk(void *arg, size_t begin, size_t end, unsigned worker)
{
    vk_job *j = arg;
    (void)worker;
    for (size_t i = begin; i < end; i++)
        if (decode_vk(&j->vks[i], j->entries + GROVE_STM_ENTRY_BYTES * i) != GROVE_OK)
            return GROVE_ERR_ENCODING;
    return GROVE_OK;
}

grove_status grove_stm_closed_from_bytes(grove_stm_closed **closed, const uint8_t *in,
                                         size_t in_len)
{
    size_t len = in_len;
    if (!closed || (!in && len))
        return GROVE_ERR_INVALID_ARG;
    *closed = NULL;
    if (len < 16 || memcmp(in, closed_magic, 8) != 0)
        return GROVE_ERR_ENCODING;
    uint64_t n = grove_load64_be(in + 8);
    if (n == 0 || n > GROVE_STM_MAX_PARTIES || (len - 16) / GROVE_STM_ENTRY_BYTES != n ||
        (len - 16) % GROVE_STM_ENTRY_BYTES != 0)
        return GROVE_ERR_ENCODING;
    const uint8_t *e = in + 16;
    uint64_t total = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t s = grove_load64_be(e + GROVE_STM_ENTRY_BYTES * i + 96);
        if (total + s < total)
            return GROVE_ERR_ENCODING;
        total += s;
        if (i > 0) {
            const uint8_t *p = e + GROVE_STM_ENTRY_BYTES * (i - 1), *q = p + GROVE_STM_ENTRY_BYTES;
            uint64_t ps = grove_load64_be(p + 96);
            if (ps > s || (ps == s && memcmp(p, q, 96) >= 0))
                return GROVE_ERR_ENCODING; /* not in registration order, or a duplicate */
        }
    }
    if (total == 0)
        return GROVE_ERR_ENCODING;
    grove_stm_closed *c = closed_alloc(n);
    if (!c)
        return GROVE_ERR_NOMEM;
    memcpy(c->entries, e, (size_t)n * GROVE_STM_ENTRY_BYTES);
    c->total = total;
    const unsigned nt = GROVE_THREADS_AUTO;
    vk_job j = {c->entries, c->vks};
    int rc = grove_parallel_for(nt, (size_t)n, stm_chunk((size_t)n, nt), vk_chunk, &j);
    if (rc == GROVE_OK)
        rc = closed_finish(c);
    if (rc != GROVE_OK) {
        grove_stm_closed_free(c);
        return rc;
    }
    *closed = c;
    return GROVE_OK;
}
