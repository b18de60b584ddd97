/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Merkle trees: root and authentication path with batched leaves and batched levels. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sphincs/spx.h"

/* Leaves computed per chunk: 2^CHUNK_HEIGHT (or the whole tree if smaller). */
#define CHUNK_HEIGHT 5

/*
 * Reduce `count` (a power of two) nodes at height z0, the first being node g0 of its level,
 * to one node at nodes[0]. Captures the authentication node of `leaf` at each height passed.
 * lanes: scratch for count/2 lanes of pre + 2n bytes.
 */
static void reduce(const spx_ctx *c, uint8_t *nodes, size_t count, unsigned z0, uint64_t g0,
                   const hs_adrs *node_base, uint32_t index_offset, uint32_t leaf,
                   uint8_t *auth, uint8_t *lanes, uint8_t **lp, uint8_t **op)
{
    const unsigned n = c->n;
    const size_t lane_len = c->pre + 2 * (size_t)n;
    unsigned z = z0;
    hs_adrs a = *node_base;
    while (count > 1) {
        if (auth) {
            uint64_t sib = ((uint64_t)leaf >> z) ^ 1;
            if (sib >= g0 && sib < g0 + count)
                memcpy(auth + (size_t)z * n, nodes + (sib - g0) * n, n);
        }
        size_t half = count / 2;
        hs_adrs_set_tree_height(&a, z + 1);
        for (size_t i = 0; i < half; i++) {
            uint8_t *lane = lanes + i * lane_len;
            hs_adrs_set_tree_index(&a, (uint32_t)((index_offset >> (z + 1)) + (g0 / 2) + i));
            spx_lane_init(c, lane, &a);
            memcpy(lane + c->pre, nodes + 2 * i * n, 2 * (size_t)n);
            lp[i] = lane;
            op[i] = nodes + i * n; /* written after the lane was filled: safe in place */
        }
        spx_thash_lanes(c, 2, lp, op, half);
        count = half;
        g0 /= 2;
        z++;
    }
}

int spx_merkle_tree(const spx_ctx *c, unsigned height, spx_leaf_fn leaf_fn, void *arg,
                    const hs_adrs *node_base, uint32_t index_offset, uint32_t leaf,
                    uint8_t *root, uint8_t *auth)
{
    const unsigned n = c->n;
    unsigned ch = height < CHUNK_HEIGHT ? height : CHUNK_HEIGHT;
    size_t chunk = (size_t)1 << ch, nchunks = (size_t)1 << (height - ch);
    size_t maxlanes = chunk > nchunks ? chunk : nchunks;
    size_t lane_len = c->pre + 2 * (size_t)n;
    size_t bytes = chunk * n + nchunks * n + maxlanes * lane_len + 2 * maxlanes * sizeof(uint8_t *);
    uint8_t *mem = malloc(bytes);
    if (mem == NULL)
        return GROVE_ERR_NOMEM;
    uint8_t *nodes = mem, *tops = nodes + chunk * n, *lanes = tops + nchunks * n;
    uint8_t **lp = (uint8_t **)(void *)(lanes + maxlanes * lane_len), **op = lp + maxlanes;
    int r = GROVE_OK;
    for (size_t j = 0; j < nchunks; j++) {
        r = leaf_fn(arg, (uint32_t)(j * chunk), (unsigned)chunk, nodes);
        if (r != GROVE_OK)
            goto out;
        reduce(c, nodes, chunk, 0, j * chunk, node_base, index_offset, leaf, auth, lanes, lp, op);
        memcpy(tops + j * n, nodes, n);
    }
    reduce(c, tops, nchunks, ch, 0, node_base, index_offset, leaf, auth, lanes, lp, op);
    memcpy(root, tops, n);
out:
    grove_wipe(mem, bytes);
    free(mem);
    return r;
}

void spx_merkle_root_from_auth(const spx_ctx *c, unsigned height, const hs_adrs *node_base,
                               uint32_t index_offset, uint32_t leaf, const uint8_t *leaf_node,
                               const uint8_t *auth, uint8_t *root)
{
    const unsigned n = c->n;
    uint8_t buf[2 * SPX_MAX_N];
    hs_adrs a = *node_base;
    memcpy(buf, leaf_node, n);
    uint32_t idx = index_offset + leaf;
    for (unsigned z = 0; z < height; z++) {
        hs_adrs_set_tree_height(&a, z + 1);
        hs_adrs_set_tree_index(&a, idx >> (z + 1));
        if (((idx >> z) & 1) == 0) {
            memcpy(buf + n, auth + (size_t)z * n, n);
        } else {
            memmove(buf + n, buf, n);
            memcpy(buf, auth + (size_t)z * n, n);
        }
        spx_thash(c, buf, &a, buf, 2);
    }
    memcpy(root, buf, n);
}
