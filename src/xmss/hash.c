/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* XMSS hashing: F, H, PRF, PRF_keygen and H_msg on lanes, with precomputed prefix states. */
#include <stdatomic.h>
#include <string.h>

#include "common/util.h"
#include "xmss/xmss_int.h"

static _Atomic uint64_t hash_counter;

uint64_t xmss_hash_counter(void)
{
    return atomic_load_explicit(&hash_counter, memory_order_relaxed);
}

static void count(uint64_t v)
{
    atomic_fetch_add_explicit(&hash_counter, v, memory_order_relaxed);
}

void xmss_hash_count(uint64_t calls)
{
    count(calls);
}

void xmss_adrs_init(hs_adrs *a, uint32_t layer, uint64_t tree, uint32_t type)
{
    hs_adrs_init(a, HS_ADRS_XMSS);
    hs_adrs_set_layer(a, layer);
    hs_adrs_set_tree(a, tree);
    hs_adrs_set_type(a, type);
}

void xmss_adrs_node(hs_adrs *a, uint32_t layer, uint64_t tree, uint32_t height, uint32_t index)
{
    xmss_adrs_init(a, layer, tree, XMSS_ADRS_TREE);
    hs_adrs_set_tree_height(a, height);
    hs_adrs_set_tree_index(a, index);
}

static void to_byte(uint8_t *out, unsigned pad, uint32_t x)
{
    memset(out, 0, pad);
    grove_store32_be(out + pad - 4, x);
}

void xmss_hash_init(xmss_hash *x, const grove_xmss_params *p, const uint8_t *pub_seed,
                    const uint8_t *sk_seed)
{
    memset(x, 0, sizeof *x);
    x->p = p;
    x->n = p->n;
    x->pad = p->pad;
    x->kind = p->hash;
    x->has_sk = sk_seed != NULL;
    hs_wots_dims_init(&x->wots, p->n, 4);
    memcpy(x->pub_seed, pub_seed, p->n);
    to_byte(x->prf_head, x->pad, 3);
    memcpy(x->prf_head + x->pad, pub_seed, x->n);
    to_byte(x->kg_head, x->pad, 4);
    if (sk_seed != NULL)
        memcpy(x->kg_head + x->pad, sk_seed, x->n);
    /* The prefix is one whole block for SHA-256 / n = 32 and SHA-512 / n = 64. */
    x->midstate = (x->kind == XMSS_SHA256 && x->pad + x->n == 64) ||
                  (x->kind == XMSS_SHA512 && x->pad + x->n == 128);
    if (x->midstate) {
        x->prf_pre = x->kg_pre = 0;
        if (x->kind == XMSS_SHA256) {
            grove_sha256_init(&x->prf256);
            grove_sha256_update(&x->prf256, x->prf_head, 64);
            grove_sha256_init(&x->kg256);
            grove_sha256_update(&x->kg256, x->kg_head, 64);
        } else {
            grove_sha512_init(&x->prf512);
            grove_sha512_update(&x->prf512, x->prf_head, 128);
            grove_sha512_init(&x->kg512);
            grove_sha512_update(&x->kg512, x->kg_head, 128);
        }
    } else {
        x->prf_pre = x->kg_pre = x->pad + x->n;
    }
    x->x256 = xmss_x256_usable(x);
}

void xmss_hash_wipe(xmss_hash *x)
{
    grove_wipe(x, sizeof *x);
}

size_t xmss_prf_lane_len(const xmss_hash *x)
{
    return x->prf_pre + 32;
}
size_t xmss_kg_lane_len(const xmss_hash *x)
{
    return x->kg_pre + x->n + 32;
}
size_t xmss_f_lane_len(const xmss_hash *x)
{
    return x->pad + 2 * (size_t)x->n;
}
size_t xmss_h_lane_len(const xmss_hash *x)
{
    return x->pad + 3 * (size_t)x->n;
}

void xmss_prf_lane_head(const xmss_hash *x, uint8_t *lane)
{
    memcpy(lane, x->prf_head, x->prf_pre);
}
void xmss_kg_lane_head(const xmss_hash *x, uint8_t *lane)
{
    memcpy(lane, x->kg_head, x->kg_pre);
    memcpy(lane + x->kg_pre, x->pub_seed, x->n);
}
void xmss_f_lane_head(const xmss_hash *x, uint8_t *lane)
{
    to_byte(lane, x->pad, 0);
}
void xmss_h_lane_head(const xmss_hash *x, uint8_t *lane)
{
    to_byte(lane, x->pad, 1);
}

/* Compression calls for one message of inlen bytes after `pre` already-compressed bytes. */
static uint64_t blocks(unsigned kind, size_t pre, size_t inlen)
{
    switch (kind) {
    case XMSS_SHA256:
        return (pre + inlen + 9 + 63) / 64 - pre / 64;
    case XMSS_SHA512:
        return (pre + inlen + 17 + 127) / 128 - pre / 128;
    case XMSS_SHAKE128:
        return inlen / GROVE_SHAKE128_RATE + 1;
    default:
        return inlen / GROVE_SHAKE256_RATE + 1;
    }
}

/* One batch: prefix (SHA-2 midstate) or none, lanes of inlen bytes. */
static void hash_lanes(const xmss_hash *x, const grove_sha256_ctx *p256,
                       const grove_sha512_ctx *p512, uint8_t *const out[], uint8_t *const lanes[],
                       size_t inlen, size_t cnt)
{
    if (cnt == 0)
        return;
    const uint8_t *const *in = (const uint8_t *const *)lanes;
    size_t pre = 0;
    switch (x->kind) {
    case XMSS_SHA256:
        pre = p256 ? 64 : 0;
        grove_sha256_many(out, x->n, p256, in, inlen, cnt);
        break;
    case XMSS_SHA512:
        pre = p512 ? 128 : 0;
        grove_sha512_many(out, x->n, p512, in, inlen, cnt);
        break;
    case XMSS_SHAKE128:
        grove_shake128_many(out, x->n, in, inlen, cnt);
        break;
    default:
        grove_shake256_many(out, x->n, in, inlen, cnt);
        break;
    }
    count(blocks(x->kind, pre, inlen) * cnt);
}

void xmss_prf_many(const xmss_hash *x, uint8_t *const out[], uint8_t *const lanes[], size_t cnt)
{
    hash_lanes(x, x->midstate ? &x->prf256 : NULL, x->midstate ? &x->prf512 : NULL, out, lanes,
               xmss_prf_lane_len(x), cnt);
}

void xmss_kg_many(const xmss_hash *x, uint8_t *const out[], uint8_t *const lanes[], size_t cnt)
{
    hash_lanes(x, x->midstate ? &x->kg256 : NULL, x->midstate ? &x->kg512 : NULL, out, lanes,
               xmss_kg_lane_len(x), cnt);
}

void xmss_f_many(const xmss_hash *x, uint8_t *const out[], uint8_t *const lanes[], size_t cnt)
{
    hash_lanes(x, NULL, NULL, out, lanes, xmss_f_lane_len(x), cnt);
}

void xmss_h_many(const xmss_hash *x, uint8_t *const out[], uint8_t *const lanes[], size_t cnt)
{
    hash_lanes(x, NULL, NULL, out, lanes, xmss_h_lane_len(x), cnt);
}

void xmss_prf_keyed(const xmss_hash *x, uint8_t *out, const uint8_t *key, const uint8_t m[32])
{
    uint8_t lane[XMSS_MAX_PAD + XMSS_MAX_N + 32];
    uint8_t *lp[1] = {lane}, *op[1] = {out};
    to_byte(lane, x->pad, 3);
    memcpy(lane + x->pad, key, x->n);
    memcpy(lane + x->pad + x->n, m, 32);
    hash_lanes(x, NULL, NULL, op, lp, x->pad + x->n + 32, 1);
    grove_wipe(lane, sizeof lane);
}

void xmss_hmsg_init(const xmss_hash *x, xmss_hmsg *h, const uint8_t *r, const uint8_t *root,
                    uint64_t idx)
{
    uint8_t head[XMSS_MAX_PAD + 3 * XMSS_MAX_N];
    unsigned n = x->n, pad = x->pad;
    to_byte(head, pad, 2);
    memcpy(head + pad, r, n);
    memcpy(head + pad + n, root, n);
    memset(head + pad + 2 * n, 0, n);
    grove_store64_be(head + pad + 3 * n - 8, idx);
    h->kind = x->kind;
    h->n = n;
    switch (x->kind) {
    case XMSS_SHA256:
        grove_sha256_init(&h->u.s256);
        grove_sha256_update(&h->u.s256, head, pad + 3 * (size_t)n);
        break;
    case XMSS_SHA512:
        grove_sha512_init(&h->u.s512);
        grove_sha512_update(&h->u.s512, head, pad + 3 * (size_t)n);
        break;
    case XMSS_SHAKE128:
        grove_shake128_init(&h->u.k);
        grove_keccak_absorb(&h->u.k, head, pad + 3 * (size_t)n);
        break;
    default:
        grove_shake256_init(&h->u.k);
        grove_keccak_absorb(&h->u.k, head, pad + 3 * (size_t)n);
        break;
    }
    grove_wipe(head, sizeof head);
}

void xmss_hmsg_update(xmss_hmsg *h, const uint8_t *m, size_t len)
{
    if (len == 0)
        return;
    switch (h->kind) {
    case XMSS_SHA256:
        grove_sha256_update(&h->u.s256, m, len);
        break;
    case XMSS_SHA512:
        grove_sha512_update(&h->u.s512, m, len);
        break;
    default:
        grove_keccak_absorb(&h->u.k, m, len);
        break;
    }
}

void xmss_hmsg_final(xmss_hmsg *h, uint8_t *out)
{
    switch (h->kind) {
    case XMSS_SHA256:
        count(blocks(XMSS_SHA256, 0, (size_t)h->u.s256.count));
        grove_sha256_final(&h->u.s256, out, h->n);
        break;
    case XMSS_SHA512:
        count(blocks(XMSS_SHA512, 0, (size_t)h->u.s512.count));
        grove_sha512_final(&h->u.s512, out, h->n);
        break;
    default:
        grove_keccak_squeeze(&h->u.k, out, h->n);
        break;
    }
    grove_wipe(h, sizeof *h);
}
