/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The Merkle tree over registrations (spec section 6): Blake2b-256, heap layout of
 * N = n + p - 1 nodes (p = next power of two >= n), leaf i at p - 1 + i, node j = H(2j+1 ||
 * 2j+2) with any child index >= N replaced by Z = H(0x00); batch paths for sorted leaf sets.
 * Also the thread-count helpers of the STM code (the work itself: grove_parallel_for).
 */
#include <stdlib.h>
#include <string.h>

#include "common/pool.h"
#include "common/util.h"
#include "stm/stm_internal.h"

static uint64_t next_pow2(uint64_t n)
{
    uint64_t p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

uint64_t stm_merkle_nodes(uint64_t n)
{
    return n + next_pow2(n) - 1;
}

void stm_leaf_hash(uint8_t out[32], const uint8_t entry[GROVE_STM_ENTRY_BYTES])
{
    grove_blake2b(out, 32, entry, GROVE_STM_ENTRY_BYTES);
}

static void zero_hash(uint8_t z[32])
{
    const uint8_t zero = 0;
    grove_blake2b(z, 32, &zero, 1);
}

static void node_hash(uint8_t out[32], const uint8_t *left, const uint8_t *right)
{
    grove_blake2b_ctx c;
    grove_blake2b_init(&c, 32);
    grove_blake2b_update(&c, left, 32);
    grove_blake2b_update(&c, right, 32);
    grove_blake2b_final(&c, out);
}

void stm_merkle_build(uint8_t *tree, const uint8_t *entries, uint64_t n)
{
    uint64_t p = next_pow2(n), total = n + p - 1;
    uint8_t z[32];
    zero_hash(z);
    for (uint64_t i = 0; i < n; i++)
        stm_leaf_hash(tree + 32 * (p - 1 + i), entries + GROVE_STM_ENTRY_BYTES * i);
    for (uint64_t j = p - 1; j-- > 0;) {
        uint64_t l = 2 * j + 1, r = 2 * j + 2;
        node_hash(tree + 32 * j, l < total ? tree + 32 * l : z, r < total ? tree + 32 * r : z);
    }
}

grove_status grove_stm_merkle_root(uint8_t root[GROVE_STM_ROOT_BYTES], const uint8_t *entries,
                                   size_t n)
{
    if (!root || !entries || n == 0 || n > GROVE_STM_MAX_PARTIES)
        return GROVE_ERR_INVALID_ARG;
    uint64_t nodes = stm_merkle_nodes(n);
    uint8_t *tree = malloc((size_t)nodes * 32);
    if (!tree)
        return GROVE_ERR_NOMEM;
    stm_merkle_build(tree, entries, n);
    memcpy(root, tree, 32);
    free(tree);
    return GROVE_OK;
}

static uint64_t parent(uint64_t i)
{
    return (i - 1) / 2;
}
static uint64_t sibling(uint64_t i)
{
    return (i & 1) ? i + 1 : i - 1;
}

int stm_merkle_batch_path(const uint8_t *tree, uint64_t n, const uint64_t *idx, size_t count,
                          uint8_t **values, size_t *n_values)
{
    *values = NULL;
    *n_values = 0;
    if (count == 0)
        return GROVE_ERR_INVALID_ARG;
    uint64_t p = next_pow2(n), total = n + p - 1;
    for (size_t i = 0; i < count; i++)
        if (idx[i] >= n || (i > 0 && idx[i] <= idx[i - 1]))
            return GROVE_ERR_INVALID_ARG;
    /* at most one value per member per level */
    unsigned levels = 0;
    while ((UINT64_C(1) << levels) < p)
        levels++;
    size_t cap = count * (levels ? levels : 1);
    uint64_t *cur = malloc(count * sizeof *cur);
    uint8_t *out = malloc(cap * 32);
    if (!cur || !out) {
        free(cur);
        free(out);
        return GROVE_ERR_NOMEM;
    }
    for (size_t i = 0; i < count; i++)
        cur[i] = p - 1 + idx[i];
    size_t len = count, nv = 0;
    while (cur[0] > 0) {
        size_t nlen = 0;
        for (size_t i = 0; i < len; i++) {
            uint64_t sib = sibling(cur[i]);
            uint64_t par = parent(cur[i]);
            if (i + 1 < len && cur[i + 1] == sib)
                i++;
            else if (sib < total)
                memcpy(out + 32 * nv++, tree + 32 * sib, 32);
            cur[nlen++] = par;
        }
        len = nlen;
    }
    free(cur);
    *values = out;
    *n_values = nv;
    return GROVE_OK;
}

int stm_merkle_batch_verify(const uint8_t root[32], uint64_t n_leaves, const uint8_t *entries,
                            const uint64_t *idx, size_t count, const uint8_t *values,
                            size_t n_values)
{
    if (count == 0 || n_leaves == 0 || n_leaves > GROVE_STM_MAX_PARTIES)
        return 0;
    uint64_t p = next_pow2(n_leaves), total = n_leaves + p - 1;
    for (size_t i = 0; i < count; i++)
        if (idx[i] >= n_leaves || (i > 0 && idx[i] <= idx[i - 1]))
            return 0;
    uint64_t *cur = malloc(count * sizeof *cur);
    uint8_t *h = malloc(count * 32);
    if (!cur || !h) {
        free(cur);
        free(h);
        return 0;
    }
    uint8_t z[32];
    zero_hash(z);
    for (size_t i = 0; i < count; i++) {
        cur[i] = p - 1 + idx[i];
        stm_leaf_hash(h + 32 * i, entries + GROVE_STM_ENTRY_BYTES * i);
    }
    size_t len = count, used = 0;
    int ok = 1;
    while (ok && cur[0] > 0) {
        size_t nlen = 0;
        for (size_t i = 0; i < len; i++) {
            uint8_t out[32];
            if ((cur[i] & 1) == 0) { /* right child: the left sibling comes from the path */
                if (used >= n_values) {
                    ok = 0;
                    break;
                }
                node_hash(out, values + 32 * used++, h + 32 * i);
            } else {
                uint64_t sib = sibling(cur[i]);
                if (i + 1 < len && cur[i + 1] == sib) {
                    node_hash(out, h + 32 * i, h + 32 * (i + 1));
                    cur[i + 1] = cur[i]; /* keep parent() below right */
                    i++;
                } else if (sib < total) {
                    if (used >= n_values) {
                        ok = 0;
                        break;
                    }
                    node_hash(out, h + 32 * i, values + 32 * used++);
                } else {
                    node_hash(out, h + 32 * i, z);
                }
            }
            memcpy(h + 32 * nlen, out, 32);
            cur[nlen++] = parent(cur[i]);
        }
        len = nlen;
    }
    if (ok)
        ok = len == 1 && used == n_values && grove_ct_memeq(h, root, 32);
    free(cur);
    free(h);
    return ok;
}

/* ---- sorting ------------------------------------------------------------------------------ */
void stm_sort_idx(size_t *a, size_t *tmp, size_t n,
                  int (*cmp)(const void *, const void *, void *), void *ctx)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    stm_sort_idx(a, tmp, h, cmp, ctx);
    stm_sort_idx(a + h, tmp, n - h, cmp, ctx);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cmp(&a[j], &a[i], ctx) < 0 ? a[j++] : a[i++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

/* ---- threads ------------------------------------------------------------------------------ */
size_t stm_chunk(size_t n, unsigned threads)
{
    /* the pool says what `threads` means (GROVE_THREADS_AUTO included) */
    const unsigned workers = grove_pool_workers(threads, n, 1);
    if (workers <= 1)
        return n; /* one thread: one chunk, the partial sums' MSMs as large as can be */
    size_t parts = (size_t)workers * 4;
    return n / parts + (n % parts != 0);
}
