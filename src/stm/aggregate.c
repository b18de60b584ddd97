/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * STM clerk and aggregate verification (spec sections 3, 7, 8, 9).
 *
 * Aggregation: every submitted signature is checked (signer index known, sigma a valid point,
 * indexes ascending, < m and won, BLS signature valid: one randomized batch pairing check over
 * all of them, one by one only if the batch fails). Exact repeats of a (signer, sigma) pair and
 * further signatures of a signer already seen are dropped (upstream would let identical
 * repeats cancel each other's indexes). Each lottery index goes to the claimant with the
 * byte-wise smallest sigma (the first one among equals); signatures are then taken in order of
 * their smallest owned index until k indexes are covered, keep all their owned indexes, are
 * sorted by signer index and get one batch Merkle path.
 *
 * Verification order (as upstream): index bound and lottery, index uniqueness, quorum, batch
 * path (grove also requires signer_index == path index), then one BLS check of the aggregate
 * randomized with Blake2b-128 scalars.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bls12_381/ec.h"
#include "common/util.h"
#include "stm/stm_internal.h"

/* ---- object -------------------------------------------------------------------------------- */

void grove_stm_aggregate_free(grove_stm_aggregate *a)
{
    if (!a)
        return;
    if (a->sigs)
        for (size_t i = 0; i < a->n; i++)
            grove_stm_sig_clear(&a->sigs[i]);
    free(a->sigs);
    free(a->entries);
    free(a->sigmas);
    free(a->vks);
    free(a->values);
    free(a->indices);
    free(a);
}

/* ---- decoded verification keys, shared across aggregates (stm_internal.h) ---------------- */

#define VK_CACHE_SLOTS 8192u /* a power of two; at most half of them are filled */

struct stm_vk_cache {
    size_t used;
    uint8_t (*bytes)[GROVE_STM_VK_BYTES]; /* slot's vk bytes; all-zero = empty (never a vk) */
    grove_bls_g2 *pts;
};

stm_vk_cache *stm_vk_cache_new(void)
{
    stm_vk_cache *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->bytes = calloc(VK_CACHE_SLOTS, sizeof *c->bytes);
    c->pts = malloc(VK_CACHE_SLOTS * sizeof *c->pts);
    if (c->bytes == NULL || c->pts == NULL) {
        stm_vk_cache_free(c);
        return NULL;
    }
    return c;
}

void stm_vk_cache_free(stm_vk_cache *c)
{
    if (c == NULL)
        return;
    free(c->bytes);
    free(c->pts);
    free(c);
}

/* The slot holding vk, or the empty slot where it would go (linear probing). Public data: the
 * start is taken from the vk's bytes, which an attacker may choose; probing stays bounded
 * because the table is never more than half full. */
static size_t vk_slot(const stm_vk_cache *c, const uint8_t *vk)
{
    static const uint8_t zero[GROVE_STM_VK_BYTES];
    size_t h = (size_t)grove_load64_be(vk + 40) & (VK_CACHE_SLOTS - 1);
    while (memcmp(c->bytes[h], vk, GROVE_STM_VK_BYTES) != 0 &&
           memcmp(c->bytes[h], zero, GROVE_STM_VK_BYTES) != 0)
        h = (h + 1) & (VK_CACHE_SLOTS - 1);
    return h;
}

/*
 * Decoding an aggregate's points. Every sigma is decompressed and checked in full (curve,
 * subgroup, not the identity): its bytes choose the lottery outcomes, and a sigma with a
 * component outside G1 would pass the pairing check (the pairing with a G2 point kills every
 * component of order prime to r) while its bytes won other indexes.
 *
 * A signer's vk is decompressed and checked on the curve (and not the identity) but NOT tested
 * for the subgroup, which costs about two thirds of a G2 decoding (535k of 841k instructions,
 * mulx field, callgrind). Why that is sound: an aggregate is only ever used after
 * verify_structure() checked its batch Merkle path against the AVK, and that path binds each
 * registration entry (vk bytes || stake) to the AVK's root (Blake2b-256, collision resistant).
 * The AVK is trusted input (docs/stm.md, as upstream): it is the root of a closed registration,
 * and registration (grove's grove_stm_keyreg_add, and upstream's, which takes the key through
 * blst's key_validate) decodes every vk with its subgroup check before its entry enters the
 * tree. So an entry whose path verifies carries a vk that was checked in G2 when it was
 * registered; an entry whose path does not verify is refused before its point is used (the
 * MSM's psi split, which needs points of G2, runs after the path check). Whoever can build an
 * AVK over an unchecked key can equally register a key of his own: nothing is lost against
 * such a party. The clerk (aggregate_new) takes its points from the closed registration, which
 * checked them. stm_randomized_sum() is internal (the vector test, on the crate's honest
 * aggregates).
 */
typedef struct {
    grove_stm_aggregate *a;
    const stm_vk_cache *cache; /* read only while the workers run */
} dec_job;

static int dec_chunk(void *arg, size_t begin, size_t end, unsigned worker)
{
    dec_job *j = arg;
    grove_stm_aggregate *a = j->a;
    (void)worker;
    for (size_t i = begin; i < end; i++) {
        const uint8_t *vk = a->entries + GROVE_STM_ENTRY_BYTES * i;
        if (grove_bls_g1_from_bytes(&a->sigmas[i], a->sigs[i].sigma, 48,
                                    GROVE_BLS_NO_INFINITY) != GROVE_OK)
            return GROVE_ERR_ENCODING;
        if (j->cache != NULL) {
            size_t h = vk_slot(j->cache, vk);
            if (memcmp(j->cache->bytes[h], vk, GROVE_STM_VK_BYTES) == 0) {
                a->vks[i] = j->cache->pts[h]; /* decoded before */
                continue;
            }
        }
        /* curve and encoding checked here, the subgroup by the Merkle path (see above) */
        if (grove_bls_g2_from_bytes(&a->vks[i], vk, 96,
                                    GROVE_BLS_NO_INFINITY | GROVE_BLS_NO_SUBGROUP_CHECK) !=
            GROVE_OK)
            return GROVE_ERR_ENCODING;
    }
    return GROVE_OK;
}

/* After a successful decoding: remember the aggregate's keys (while the table is half empty). */
static void vk_cache_add(stm_vk_cache *c, const grove_stm_aggregate *a)
{
    for (size_t i = 0; i < a->n && c->used < VK_CACHE_SLOTS / 2; i++) {
        const uint8_t *vk = a->entries + GROVE_STM_ENTRY_BYTES * i;
        size_t h = vk_slot(c, vk);
        if (memcmp(c->bytes[h], vk, GROVE_STM_VK_BYTES) != 0) {
            memcpy(c->bytes[h], vk, GROVE_STM_VK_BYTES);
            c->pts[h] = a->vks[i];
            c->used++;
        }
    }
}

static grove_stm_aggregate *agg_alloc(size_t n, size_t n_values, size_t n_indices)
{
    grove_stm_aggregate *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->sigs = calloc(n ? n : 1, sizeof *a->sigs);
    a->entries = malloc((n ? n : 1) * GROVE_STM_ENTRY_BYTES);
    a->sigmas = malloc((n ? n : 1) * sizeof *a->sigmas);
    a->vks = malloc((n ? n : 1) * sizeof *a->vks);
    a->values = malloc((n_values ? n_values : 1) * 32);
    a->indices = malloc((n_indices ? n_indices : 1) * sizeof *a->indices);
    if (!a->sigs || !a->entries || !a->sigmas || !a->vks || !a->values || !a->indices) {
        grove_stm_aggregate_free(a);
        return NULL;
    }
    a->n = n;
    a->n_values = n_values;
    a->n_indices = n_indices;
    return a;
}

int stm_aggregate_assemble(grove_stm_aggregate **out, size_t n, const grove_stm_sig *sigs,
                           const uint8_t *entries, size_t n_values, const uint8_t *values,
                           size_t n_indices, const uint64_t *indices, stm_vk_cache *cache)
{
    *out = NULL;
    if (n == 0 || n > STM_MAX_SIGS || n_values > STM_MAX_PATH_VALUES || n_indices > STM_MAX_SIGS)
        return GROVE_ERR_ENCODING;
    grove_stm_aggregate *a = agg_alloc(n, n_values, n_indices);
    if (!a)
        return GROVE_ERR_NOMEM;
    int rc = GROVE_OK;
    for (size_t i = 0; i < n && rc == GROVE_OK; i++)
        rc = grove_stm_sig_copy(&a->sigs[i], &sigs[i]);
    if (rc != GROVE_OK) {
        grove_stm_aggregate_free(a);
        return rc == GROVE_ERR_INVALID_ARG ? GROVE_ERR_ENCODING : rc;
    }
    memcpy(a->entries, entries, n * GROVE_STM_ENTRY_BYTES);
    if (n_values)
        memcpy(a->values, values, n_values * 32);
    if (n_indices)
        memcpy(a->indices, indices, n_indices * sizeof *indices);
    const unsigned nt = GROVE_THREADS_AUTO;
    dec_job job = {a, cache};
    rc = grove_parallel_for(nt, n, stm_chunk(n, nt), dec_chunk, &job);
    if (rc != GROVE_OK) {
        grove_stm_aggregate_free(a);
        return rc;
    }
    if (cache != NULL)
        vk_cache_add(cache, a);
    *out = a;
    return GROVE_OK;
}

size_t grove_stm_aggregate_count(const grove_stm_aggregate *a)
{
    return a ? a->n : 0;
}

grove_status grove_stm_aggregate_get(const grove_stm_aggregate *a, const grove_stm_sig **sig,
                                     uint8_t vk[GROVE_STM_VK_BYTES], uint64_t *stake, size_t i)
{
    if (!a)
        return GROVE_ERR_INVALID_ARG;
    if (i >= a->n)
        return GROVE_ERR_NOT_FOUND;
    if (sig)
        *sig = &a->sigs[i];
    if (vk)
        memcpy(vk, a->entries + GROVE_STM_ENTRY_BYTES * i, 96);
    if (stake)
        *stake = grove_load64_be(a->entries + GROVE_STM_ENTRY_BYTES * i + 96);
    return GROVE_OK;
}

/* ---- binary encoding ------------------------------------------------------------------------ */

size_t grove_stm_aggregate_encoded_bytes(const grove_stm_aggregate *a)
{
    if (!a)
        return 0;
    size_t len = 1 + 8;
    for (size_t i = 0; i < a->n; i++)
        len += 8 + 8 + GROVE_STM_ENTRY_BYTES + 8 + grove_stm_sig_encoded_bytes(&a->sigs[i]);
    return len + 16 + 32 * a->n_values + 8 * a->n_indices;
}

grove_status grove_stm_aggregate_to_bytes(const grove_stm_aggregate *a, uint8_t *out,
                                          size_t out_cap, size_t *out_len)
{
    if (!a || !out_len || (!out && out_cap))
        return GROVE_ERR_INVALID_ARG;
    *out_len = grove_stm_aggregate_encoded_bytes(a);
    if (out_cap < *out_len)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    uint8_t *p = out;
    *p++ = 0x00; /* Concatenation */
    grove_store64_be(p, a->n);
    p += 8;
    for (size_t i = 0; i < a->n; i++) {
        size_t sl = grove_stm_sig_encoded_bytes(&a->sigs[i]), written;
        grove_store64_be(p, 8 + GROVE_STM_ENTRY_BYTES + 8 + sl);
        grove_store64_be(p + 8, GROVE_STM_ENTRY_BYTES);
        memcpy(p + 16, a->entries + GROVE_STM_ENTRY_BYTES * i, GROVE_STM_ENTRY_BYTES);
        p += 16 + GROVE_STM_ENTRY_BYTES;
        grove_store64_be(p, sl);
        grove_status rc = grove_stm_sig_to_bytes(&a->sigs[i], p + 8, sl, &written);
        if (rc != GROVE_OK)
            return rc;
        p += 8 + sl;
    }
    grove_store64_be(p, a->n_values);
    grove_store64_be(p + 8, a->n_indices);
    p += 16;
    if (a->n_values)
        memcpy(p, a->values, 32 * a->n_values);
    p += 32 * a->n_values;
    for (size_t i = 0; i < a->n_indices; i++, p += 8)
        grove_store64_be(p, a->indices[i]);
    return GROVE_OK;
}

/* Reads a u64 length/count at *pos, advancing; 0 if fewer than 8 bytes remain. */
static int rd64(const uint8_t *in, size_t len, size_t *pos, uint64_t *v)
{
    if (len - *pos < 8)
        return 0;
    *v = grove_load64_be(in + *pos);
    *pos += 8;
    return 1;
}

grove_status grove_stm_aggregate_from_bytes(grove_stm_aggregate **out, const uint8_t *in,
                                            size_t in_len)
{
    return (grove_status)stm_aggregate_from_bytes_cached(out, in, in_len, NULL);
}

int stm_aggregate_from_bytes_cached(grove_stm_aggregate **out, const uint8_t *in, size_t in_len,
                                    stm_vk_cache *cache)
{
    size_t len = in_len;
    if (!out || (!in && len))
        return GROVE_ERR_INVALID_ARG;
    *out = NULL;
    size_t pos = 1;
    uint64_t n;
    if (len < 1 + 8 || in[0] != 0x00 || !rd64(in, len, &pos, &n))
        return GROVE_ERR_ENCODING;
    /* each signature takes at least 8 + 8 + 104 + 8 + 64 bytes */
    if (n == 0 || n > STM_MAX_SIGS || n > (len - pos) / 192)
        return GROVE_ERR_ENCODING;
    grove_stm_sig *sigs = calloc((size_t)n, sizeof *sigs);
    uint8_t *entries = malloc((size_t)n * GROVE_STM_ENTRY_BYTES);
    uint64_t *indices = NULL;
    int rc = GROVE_ERR_ENCODING;
    if (!sigs || !entries) {
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t total, el, sl;
        if (!rd64(in, len, &pos, &total) || total > len - pos || total < 8 + 104 + 8 ||
            !rd64(in, len, &pos, &el) || el != GROVE_STM_ENTRY_BYTES ||
            len - pos < GROVE_STM_ENTRY_BYTES)
            goto out;
        memcpy(entries + GROVE_STM_ENTRY_BYTES * i, in + pos, GROVE_STM_ENTRY_BYTES);
        pos += GROVE_STM_ENTRY_BYTES;
        if (!rd64(in, len, &pos, &sl) || sl > len - pos || total != 8 + 104 + 8 + sl)
            goto out;
        int r = stm_sig_parse(&sigs[i], in + pos, (size_t)sl); /* sigma: decoded once, below */
        if (r != GROVE_OK) {
            rc = r;
            goto out;
        }
        pos += (size_t)sl;
    }
    uint64_t nv, ni;
    if (!rd64(in, len, &pos, &nv) || !rd64(in, len, &pos, &ni) || nv > STM_MAX_PATH_VALUES ||
        ni > STM_MAX_SIGS || nv > (len - pos) / 32 || len - pos != 32 * nv + 8 * ni)
        goto out;
    const uint8_t *values = in + pos;
    pos += 32 * (size_t)nv;
    indices = malloc((size_t)(ni ? ni : 1) * sizeof *indices);
    if (!indices) {
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < ni; i++, pos += 8)
        indices[i] = grove_load64_be(in + pos);
    rc = stm_aggregate_assemble(out, (size_t)n, sigs, entries, (size_t)nv, values, (size_t)ni,
                                indices, cache);
out:
    if (sigs)
        for (size_t i = 0; i < n; i++)
            grove_stm_sig_clear(&sigs[i]);
    free(sigs);
    free(entries);
    free(indices);
    return rc;
}

/* ---- randomized aggregate (spec section 3) ---------------------------------------------------- */

/* Blake2b-128 scalars t_i of an aggregate (spec section 3); t: 16 * n bytes. */
static void agg_scalars(uint8_t *t, const grove_stm_aggregate *a)
{
    grove_blake2b_ctx base;
    grove_blake2b_init(&base, 16);
    for (size_t i = 0; i < a->n; i++)
        grove_blake2b_update(&base, a->sigs[i].sigma, 48);
    for (size_t i = 0; i < a->n; i++) {
        grove_blake2b_ctx c = base;
        uint8_t be[8];
        grove_store64_be(be, (uint64_t)i);
        grove_blake2b_update(&c, be, 8);
        grove_blake2b_final(&c, t + 16 * i);
    }
}

/*
 * The two multi-scalar multiplications, as two tasks for two threads of about equal cost: the
 * G2 MSM is cut by its windows (bls12_381/ec.h, msm_part: every window's buckets are summed
 * once, where cutting the points would sum them in both halves, +14% of the G2 MSM's
 * instructions at 228 points), task 0 = its first 70% of windows, task 1 = the rest plus the
 * whole G1 sum and H(msg') (a G1 point costs about 0.4 G2 points). The G2 MSM's preparation
 * (affine points, endomorphism split, digits) is done once, before the tasks, which read it
 * with a work block each. On one thread, one part takes every window. The opaque public points
 * hold the internal ones byte for byte (as in bls.c).
 */
typedef struct {
    const grove_stm_aggregate *a;
    const uint8_t *t;
    size_t split;
    unsigned char *prep, *work[2];
    g2_p v[2];
    grove_bls_g1 s, h;
    const uint8_t *mr;
    size_t mr_len;
    int g1_rc;
} rsum_job;

static void rsum_g1(rsum_job *j)
{
    int rc = grove_bls_g1_msm(&j->s, j->a->sigmas, j->t, 16, j->a->n);
    if (rc != GROVE_OK)
        j->g1_rc = rc;
    if (j->mr)
        grove_bls_g1_hash(&j->h, j->mr, j->mr_len, NULL, 0);
}

static int rsum_task(void *arg, size_t begin, size_t end, unsigned worker)
{
    rsum_job *j = arg;
    const grove_stm_aggregate *a = j->a;
    (void)worker;
    for (size_t task = begin; task < end; task++) {
        size_t lo = task == 0 ? 0 : j->split, hi = task == 0 ? j->split : SIZE_MAX;
        g2_msm_part_prepared_vartime(&j->v[task], j->prep, a->vks, j->t, 16, a->n, lo, hi,
                                     j->work[task]);
        if (task == 1)
            rsum_g1(j);
    }
    return GROVE_OK;
}

/*
 * avk_pt = sum t_i vk_i, asig = sum t_i sigma_i (the pair itself for n = 1); with mr, also
 * h = H(mr) (empty DST). Uses up to two of `threads` (grove/common.h) from 16 points on.
 */
static int rsum(grove_bls_g2 *avk_pt, grove_bls_g1 *asig, grove_bls_g1 *h,
                const grove_stm_aggregate *a, const uint8_t *mr, size_t mr_len,
                unsigned threads)
{
    if (a->n == 1) {
        *avk_pt = a->vks[0];
        *asig = a->sigmas[0];
        if (mr)
            grove_bls_g1_hash(h, mr, mr_len, NULL, 0);
        return GROVE_OK;
    }
    if (a->n < 16)
        threads = 1;
    unsigned parts = grove_pool_workers(threads, 2, 1) > 1 ? 2 : 1;
    size_t pb = g2_msm_prep_bytes(a->n, 16), wb = g2_msm_work_bytes(a->n, 16);
    uint8_t *t = malloc(16 * a->n);
    unsigned char *blk = malloc(pb + parts * wb + 1);
    if (!t || !blk) {
        free(t);
        free(blk);
        return GROVE_ERR_NOMEM;
    }
    agg_scalars(t, a);
    size_t nwin = g2_msm_windows(a->n, 16);
    rsum_job j = {.a = a, .t = t, .split = parts == 2 ? (nwin * 7 + 5) / 10 : SIZE_MAX,
                  .prep = blk, .mr = mr, .mr_len = mr_len, .g1_rc = GROVE_OK};
    j.work[0] = blk + pb;
    j.work[1] = blk + pb + (parts - 1) * wb;
    g2_msm_prepare_vartime(j.prep, a->vks, t, 16, a->n);
    int rc;
    if (parts == 2) {
        rc = grove_parallel_for(threads, 2, 1, rsum_task, &j);
    } else {
        g2_msm_part_prepared_vartime(&j.v[0], j.prep, a->vks, t, 16, a->n, 0, SIZE_MAX,
                                     j.work[0]);
        g2_set_inf(&j.v[1]);
        rsum_g1(&j);
        rc = GROVE_OK;
    }
    free(t);
    free(blk);
    if (rc != GROVE_OK)
        return GROVE_ERR_NOMEM;
    if (j.g1_rc != GROVE_OK)
        return j.g1_rc;
    g2_p sum;
    g2_add_vartime(&sum, &j.v[0], &j.v[1]);
    memcpy(avk_pt->opaque, &sum, sizeof sum);
    *asig = j.s;
    if (mr)
        *h = j.h;
    return GROVE_OK;
}

int stm_randomized_sum(grove_bls_g2 *avk_pt, grove_bls_g1 *asig, const grove_stm_aggregate *a)
{
    return rsum(avk_pt, asig, NULL, a, NULL, 0, GROVE_THREADS_AUTO);
}

/* e(asig, G2) == e(H(msg'), avk) for the randomized aggregate; identities are refused. */
static int rsum_verify(const grove_stm_aggregate *a, const uint8_t *mr, size_t mr_len,
                       unsigned threads)
{
    grove_bls_g1 p[2];
    grove_bls_g2 q[2];
    int rc = rsum(&q[1], &p[0], &p[1], a, mr, mr_len, threads);
    if (rc != GROVE_OK)
        return rc;
    if (grove_bls_g1_is_identity(&p[0]) || grove_bls_g2_is_identity(&q[1]))
        return GROVE_ERR_VERIFY;
    grove_bls_g1_neg(&p[1], &p[1]);
    grove_bls_g2_generator(&q[0]);
    return grove_bls_pairing_check(p, q, 2);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Every check except the final pairing; on success *mr is msg || root (caller frees). */
static int verify_structure(const grove_stm_aggregate *a, const grove_stm_params *params,
                            const grove_stm_avk *avk, const uint8_t *msg, size_t msg_len,
                            uint8_t **mr_out)
{
    *mr_out = NULL;
    int rc = grove_stm_params_check(params);
    if (rc != GROVE_OK)
        return rc;
    if (a->n == 0)
        return GROVE_ERR_VERIFY;
    grove_blake2b_ctx pre;
    uint8_t *mr = stm_with_root(msg, msg_len, avk->root, &pre);
    if (!mr)
        return GROVE_ERR_NOMEM;

    size_t total = 0;
    for (size_t i = 0; i < a->n; i++) {
        uint64_t stake = grove_load64_be(a->entries + GROVE_STM_ENTRY_BYTES * i + 96);
        rc = stm_sig_check_lottery(&a->sigs[i], params, stake, avk->total_stake, &pre);
        if (rc != GROVE_OK)
            goto fail;
        total += a->sigs[i].n_indexes;
    }
    uint64_t *all = malloc((total ? total : 1) * sizeof *all);
    if (!all) {
        rc = GROVE_ERR_NOMEM;
        goto fail;
    }
    for (size_t i = 0, k = 0; i < a->n; i++)
        for (size_t j = 0; j < a->sigs[i].n_indexes; j++)
            all[k++] = a->sigs[i].indexes[j];
    qsort(all, total, sizeof *all, cmp_u64);
    rc = GROVE_OK;
    for (size_t i = 1; i < total; i++)
        if (all[i] == all[i - 1])
            rc = GROVE_ERR_EXISTS;
    free(all);
    if (rc != GROVE_OK)
        goto fail;
    if ((uint64_t)total < params->k) {
        rc = GROVE_ERR_NOT_ENOUGH;
        goto fail;
    }
    rc = GROVE_ERR_VERIFY;
    if (a->n_indices != a->n)
        goto fail;
    for (size_t i = 0; i < a->n; i++)
        if (a->sigs[i].signer_index != a->indices[i])
            goto fail;
    if (!stm_merkle_batch_verify(avk->root, avk->nr_leaves, a->entries, a->indices, a->n,
                                 a->values, a->n_values))
        goto fail;
    *mr_out = mr;
    return GROVE_OK;
fail:
    free(mr);
    return rc;
}

grove_status grove_stm_aggregate_verify(const grove_stm_params *params,
                                        const grove_stm_aggregate *a, const uint8_t *msg,
                                        size_t msg_len, const grove_stm_avk *avk)
{
    return stm_verdict(
        stm_aggregate_verify_reason_threads(params, a, msg, msg_len, avk, GROVE_THREADS_AUTO));
}

grove_status grove_stm_aggregate_verify_threads(const grove_stm_params *params,
                                                const grove_stm_aggregate *a, const uint8_t *msg,
                                                size_t msg_len, const grove_stm_avk *avk,
                                                unsigned threads)
{
    return stm_verdict(stm_aggregate_verify_reason_threads(params, a, msg, msg_len, avk, threads));
}

grove_status stm_aggregate_verify_reason(const grove_stm_params *params,
                                         const grove_stm_aggregate *a, const uint8_t *msg,
                                         size_t msg_len, const grove_stm_avk *avk)
{
    return stm_aggregate_verify_reason_threads(params, a, msg, msg_len, avk, GROVE_THREADS_AUTO);
}

grove_status stm_aggregate_verify_reason_threads(const grove_stm_params *params,
                                                 const grove_stm_aggregate *a, const uint8_t *msg,
                                                 size_t msg_len, const grove_stm_avk *avk,
                                                 unsigned threads)
{
    if (!a || !params || !avk || (!msg && msg_len))
        return GROVE_ERR_INVALID_ARG;
    uint8_t *mr;
    int rc = verify_structure(a, params, avk, msg, msg_len, &mr);
    if (rc != GROVE_OK)
        return rc;
    rc = rsum_verify(a, mr, msg_len + 32, threads);
    free(mr);
    return rc;
}

grove_status grove_stm_aggregate_verify_batch(const grove_stm_params *params,
                                              const grove_stm_aggregate *const *aggs,
                                              const uint8_t *const *msgs, const size_t *msg_lens,
                                              const grove_stm_avk *avks, size_t n)
{
    if (!aggs || !params || !avks || !msgs || !msg_lens || n == 0 || n > STM_MAX_SIGS)
        return GROVE_ERR_INVALID_ARG;
    for (size_t i = 0; i < n; i++)
        if (!aggs[i] || (!msgs[i] && msg_lens[i]))
            return GROVE_ERR_INVALID_ARG;
    /*
     * On the points, never through bytes (a round trip would decompress and subgroup-check
     * every summed key again): with h_i = H(msg_i || root_i) and the randomized sums
     * (v_i, s_i) of each aggregate, and fresh 128-bit weights w_i,
     *   prod e(w_i h_i, v_i) * e(-sum w_i s_i, G2) == 1,
     * which holds for all i at once unless one e(s_i, G2) != e(h_i, v_i) (probability 2^-127).
     */
    grove_bls_g1 *p = malloc((n + 1) * sizeof *p), *s = malloc(n * sizeof *s);
    grove_bls_g2 *q = malloc((n + 1) * sizeof *q);
    uint8_t *w = malloc(16 * n);
    int rc = GROVE_OK;
    if (!p || !s || !q || !w) {
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    if ((rc = grove_randombytes(w, 16 * n)) != GROVE_OK)
        goto out;
    for (size_t i = 0; i < n; i++)
        w[16 * i] |= 1; /* nonzero weights */
    for (size_t i = 0; i < n && rc == GROVE_OK; i++) {
        uint8_t *mr = NULL;
        rc = verify_structure(aggs[i], &params[i], &avks[i], msgs[i], msg_lens[i], &mr);
        grove_bls_g1 h;
        if (rc == GROVE_OK)
            rc = rsum(&q[i], &s[i], &h, aggs[i], mr, msg_lens[i] + 32, GROVE_THREADS_AUTO);
        free(mr);
        if (rc == GROVE_OK && (grove_bls_g2_is_identity(&q[i]) || grove_bls_g1_is_identity(&s[i])))
            rc = GROVE_ERR_VERIFY;
        if (rc == GROVE_OK)
            rc = grove_bls_g1_mul(&p[i], &h, w + 16 * i, 16);
    }
    if (rc == GROVE_OK)
        rc = grove_bls_g1_msm(&p[n], s, w, 16, n);
    if (rc == GROVE_OK) {
        grove_bls_g1_neg(&p[n], &p[n]);
        grove_bls_g2_generator(&q[n]);
        rc = grove_bls_pairing_check(p, q, n + 1);
    }
    rc = stm_verdict(rc);
out:
    free(p);
    free(s);
    free(q);
    free(w);
    return rc;
}

/* ---- clerk ----------------------------------------------------------------------------------- */

typedef struct {
    const grove_stm_params *params;
    const grove_stm_closed *closed;
    const grove_stm_sig *sigs;
    const grove_blake2b_ctx *pre;
    const uint8_t *mr;
    size_t mr_len;
    int *valid;          /* per signature: 1 passes every check but the pairing        */
    grove_bls_g1 *pts;   /* decoded sigmas                                             */
    const uint8_t *w;    /* 16-byte random weights                                     */
    int pass;            /* 0: checks and partial sums; 1: one-by-one pairing checks   */
} clerk_job;

/* Pass 0: the checks of [begin, end) (valid[i], pts[i]). Pass 1: one pairing check per
 * signature still valid. */
static int clerk_chunk(void *arg, size_t begin, size_t end, unsigned worker)
{
    clerk_job *j = arg;
    (void)worker;
    if (j->pass == 1) {
        for (size_t i = begin; i < end; i++)
            if (j->valid[i] &&
                grove_bls_verify_g1(&j->pts[i], j->mr, j->mr_len,
                                    &j->closed->vks[j->sigs[i].signer_index], NULL, 0) != GROVE_OK)
                j->valid[i] = 0;
        return GROVE_OK;
    }
    for (size_t i = begin; i < end; i++) {
        const grove_stm_sig *s = &j->sigs[i];
        int ok = s->signer_index < j->closed->n && s->n_indexes > 0 && s->indexes &&
                 grove_bls_g1_from_bytes(&j->pts[i], s->sigma, 48, GROVE_BLS_NO_INFINITY) ==
                     GROVE_OK;
        if (ok) {
            uint64_t stake = grove_load64_be(j->closed->entries +
                                             GROVE_STM_ENTRY_BYTES * s->signer_index + 96);
            int rc = stm_sig_check_lottery(s, j->params, stake, j->closed->total, j->pre);
            if (rc == GROVE_ERR_NOMEM)
                return rc; /* no verdict without memory: the aggregation fails */
            ok = rc == GROVE_OK;
        }
        j->valid[i] = ok;
    }
    return GROVE_OK;
}

/* sum w_i sigma_i and sum w_i vk_i over the valid signatures, in one chunk per thread (an MSM
 * costs about 128 doublings whatever its size: few large ones are cheapest). */
typedef struct {
    const grove_bls_g1 *sp;
    const grove_bls_g2 *vp;
    const uint8_t *w;
    size_t chunk;
    grove_bls_g1 *ps; /* one per chunk */
    grove_bls_g2 *pv;
} wsum_job;

static int wsum_chunk(void *arg, size_t begin, size_t end, unsigned worker)
{
    wsum_job *j = arg;
    const size_t c = begin / j->chunk;
    (void)worker;
    if (grove_bls_g1_msm(&j->ps[c], j->sp + begin, j->w + 16 * begin, 16, end - begin) !=
            GROVE_OK ||
        grove_bls_g2_msm(&j->pv[c], j->vp + begin, j->w + 16 * begin, 16, end - begin) !=
            GROVE_OK)
        return GROVE_ERR_NOMEM;
    return GROVE_OK;
}

static int clerk_sums(const clerk_job *j, size_t n, unsigned nt, grove_bls_g1 *s, grove_bls_g2 *v)
{
    grove_bls_g1_identity(s);
    grove_bls_g2_identity(v);
    size_t cnt = 0;
    for (size_t i = 0; i < n; i++)
        cnt += (size_t)(j->valid[i] != 0);
    if (cnt == 0)
        return GROVE_OK;
    const unsigned parts = grove_pool_workers(nt, cnt, 1);
    wsum_job q = {.chunk = cnt / parts + (cnt % parts != 0)};
    grove_bls_g1 *sp = malloc(cnt * sizeof *sp), *ps = malloc(parts * sizeof *ps);
    grove_bls_g2 *vp = malloc(cnt * sizeof *vp), *pv = malloc(parts * sizeof *pv);
    uint8_t *w = malloc(16 * cnt);
    int rc = GROVE_ERR_NOMEM;
    if (sp && ps && vp && pv && w) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (j->valid[i]) {
                sp[k] = j->pts[i];
                vp[k] = j->closed->vks[j->sigs[i].signer_index];
                memcpy(w + 16 * k, j->w + 16 * i, 16);
                k++;
            }
        q.sp = sp;
        q.vp = vp;
        q.w = w;
        q.ps = ps;
        q.pv = pv;
        rc = grove_parallel_for(nt, cnt, q.chunk, wsum_chunk, &q);
        for (size_t c = 0; rc == GROVE_OK && c * q.chunk < cnt; c++) {
            grove_bls_g1_add(s, s, &ps[c]);
            grove_bls_g2_add(v, v, &pv[c]);
        }
    }
    free(sp);
    free(ps);
    free(vp);
    free(pv);
    free(w);
    return rc;
}

typedef struct {
    uint64_t index;
    size_t pos;          /* signature position in the input */
    const uint8_t *sigma; /* that signature's sigma           */
} claim;

static int cmp_claim(const void *x, const void *y)
{
    const claim *a = x, *b = y;
    if (a->index != b->index)
        return a->index < b->index ? -1 : 1;
    int c = memcmp(a->sigma, b->sigma, 48);
    if (c)
        return c;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static int cmp_pos_by_signer(const void *x, const void *y, void *ctx)
{
    const grove_stm_sig *sigs = ctx;
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    uint64_t sa = sigs[a].signer_index, sb = sigs[b].signer_index;
    if (sa != sb)
        return sa < sb ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Positions ordered by (signer index, position); GROVE_ERR_NOMEM without scratch memory. */
static int sort_by_signer(size_t *p, size_t n, const grove_stm_sig *sigs)
{
    size_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return GROVE_ERR_NOMEM;
    stm_sort_idx(p, tmp, n, cmp_pos_by_signer, (void *)sigs);
    free(tmp);
    return GROVE_OK;
}

grove_status grove_stm_aggregate_new(const grove_stm_params *params, grove_stm_aggregate **out,
                                     uint64_t *have, const grove_stm_sig *sigs, size_t n,
                                     const uint8_t *msg, size_t msg_len,
                                     const grove_stm_closed *closed, unsigned threads)
{
    if (have)
        *have = 0;
    if (!out || !params || !closed || (!sigs && n) || (!msg && msg_len) || n > STM_MAX_SIGS)
        return GROVE_ERR_INVALID_ARG;
    *out = NULL;
    int rc = grove_stm_params_check(params);
    if (rc != GROVE_OK)
        return rc;
    if (n == 0)
        return GROVE_ERR_NOT_ENOUGH;
    const unsigned nt = threads;
    const size_t chunk = stm_chunk(n, nt);
    grove_blake2b_ctx pre;
    uint8_t *mr = stm_with_root(msg, msg_len, closed->root, &pre), *w = malloc(16 * n);
    int *valid = calloc(n, sizeof *valid);
    grove_bls_g1 *pts = malloc(n * sizeof *pts);
    size_t *sel = NULL, *owned = NULL;
    claim *cl = NULL;
    uint64_t *idx = NULL;
    uint8_t *values = NULL, *entries = NULL;
    grove_stm_sig *outsigs = NULL;
    size_t nsel = 0;
    if (!mr || !w || !valid || !pts) {
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    if ((rc = grove_randombytes(w, 16 * n)) != GROVE_OK)
        goto out;
    for (size_t i = 0; i < n; i++)
        w[16 * i] |= 1;

    /* 1. checks, partial sums, one batch pairing check */
    clerk_job j = {params, closed, sigs, &pre, mr, msg_len + 32, valid, pts, w, 0};
    if ((rc = grove_parallel_for(nt, n, chunk, clerk_chunk, &j)) != GROVE_OK)
        goto out;
    {
        grove_bls_g1 p[2];
        grove_bls_g2 q[2];
        if ((rc = clerk_sums(&j, n, nt, &p[0], &q[1])) != GROVE_OK)
            goto out;
        grove_bls_g1_hash(&p[1], mr, msg_len + 32, NULL, 0);
        grove_bls_g1_neg(&p[1], &p[1]);
        grove_bls_g2_generator(&q[0]);
        if (grove_bls_pairing_check(p, q, 2) != GROVE_OK) {
            j.pass = 1;
            (void)grove_parallel_for(nt, n, chunk, clerk_chunk, &j); /* pass 1 cannot fail */
        }
    }
    /* 2. one signature per signer (the first valid one) */
    {
        size_t *ord = malloc(n * sizeof *ord);
        if (!ord) {
            rc = GROVE_ERR_NOMEM;
            goto out;
        }
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (valid[i])
                ord[m++] = i;
        if (sort_by_signer(ord, m, sigs) != GROVE_OK) {
            free(ord);
            rc = GROVE_ERR_NOMEM;
            goto out;
        }
        for (size_t i = 1; i < m; i++)
            if (sigs[ord[i]].signer_index == sigs[ord[i - 1]].signer_index)
                valid[ord[i]] = 0;
        free(ord);
    }
    /* 3. claims: owner of an index = smallest sigma, first among equals */
    size_t nclaims = 0;
    for (size_t i = 0; i < n; i++)
        if (valid[i])
            nclaims += sigs[i].n_indexes;
    cl = malloc((nclaims ? nclaims : 1) * sizeof *cl);
    owned = calloc(n, sizeof *owned);
    sel = malloc(n * sizeof *sel);
    if (!cl || !owned || !sel) {
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0, k = 0; i < n; i++)
        if (valid[i])
            for (size_t x = 0; x < sigs[i].n_indexes; x++)
                cl[k++] = (claim){sigs[i].indexes[x], i, sigs[i].sigma};
    qsort(cl, nclaims, sizeof *cl, cmp_claim);
    /* 4. selection in order of owned indexes */
    uint64_t count = 0;
    int *taken = calloc(n, sizeof *taken);
    if (!taken) {
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    for (size_t c = 0; c < nclaims; c++)
        if (c == 0 || cl[c].index != cl[c - 1].index)
            owned[cl[c].pos]++;
    int reached = 0;
    for (size_t c = 0; c < nclaims && !reached; c++) {
        if (c > 0 && cl[c].index == cl[c - 1].index)
            continue;
        size_t o = cl[c].pos;
        if (taken[o])
            continue;
        taken[o] = 1;
        sel[nsel++] = o;
        count += owned[o];
        if (count >= params->k)
            reached = 1;
    }
    if (!reached) {
        free(taken);
        uint64_t distinct = 0;
        for (size_t c = 0; c < nclaims; c++)
            if (c == 0 || cl[c].index != cl[c - 1].index)
                distinct++;
        if (have)
            *have = distinct;
        rc = GROVE_ERR_NOT_ENOUGH;
        goto out;
    }
    if (have)
        *have = count;
    /* 5. selected signatures with their owned indexes, by signer index, and the batch path */
    if (sort_by_signer(sel, nsel, sigs) != GROVE_OK) {
        free(taken);
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    outsigs = calloc(nsel, sizeof *outsigs);
    entries = malloc(nsel * GROVE_STM_ENTRY_BYTES);
    idx = malloc(nsel * sizeof *idx);
    if (!outsigs || !entries || !idx) {
        free(taken);
        rc = GROVE_ERR_NOMEM;
        goto out;
    }
    for (size_t s = 0; s < nsel; s++) {
        size_t o = sel[s];
        outsigs[s] = sigs[o];
        outsigs[s].indexes = malloc(owned[o] * sizeof(uint64_t));
        outsigs[s].n_indexes = 0;
        if (!outsigs[s].indexes) {
            free(taken);
            rc = GROVE_ERR_NOMEM;
            goto out;
        }
        idx[s] = sigs[o].signer_index;
        memcpy(entries + GROVE_STM_ENTRY_BYTES * s,
               closed->entries + GROVE_STM_ENTRY_BYTES * sigs[o].signer_index,
               GROVE_STM_ENTRY_BYTES);
        taken[o] = (int)s + 1; /* position in the output, for the next loop */
    }
    for (size_t c = 0; c < nclaims; c++) /* claims are in ascending index order */
        if ((c == 0 || cl[c].index != cl[c - 1].index) && taken[cl[c].pos] > 0) {
            grove_stm_sig *d = &outsigs[taken[cl[c].pos] - 1];
            d->indexes[d->n_indexes++] = cl[c].index;
        }
    free(taken);
    size_t nv;
    if ((rc = stm_merkle_batch_path(closed->tree, closed->n, idx, nsel, &values, &nv)) !=
        GROVE_OK)
        goto out;
    {
        grove_stm_aggregate *a = agg_alloc(nsel, nv, nsel);
        if (!a) {
            rc = GROVE_ERR_NOMEM;
            goto out;
        }
        for (size_t s = 0; s < nsel; s++) {
            a->sigs[s] = outsigs[s];
            outsigs[s].indexes = NULL;
            a->sigmas[s] = pts[sel[s]];
            a->vks[s] = closed->vks[idx[s]];
        }
        memcpy(a->entries, entries, nsel * GROVE_STM_ENTRY_BYTES);
        if (nv)
            memcpy(a->values, values, nv * 32);
        memcpy(a->indices, idx, nsel * sizeof *idx);
        *out = a;
    }
out:
    if (outsigs)
        for (size_t s = 0; s < nsel; s++)
            free(outsigs[s].indexes);
    free(outsigs);
    free(entries);
    free(idx);
    free(values);
    free(cl);
    free(owned);
    free(sel);
    free(mr);
    free(w);
    free(valid);
    free(pts);
    return rc;
}
