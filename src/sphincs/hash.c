/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Lane buffers (the ADRS serialised, compressed for SHA-2) and the tweakable hash functions. */
#include <string.h>

#include "common/util.h"
#include "sphincs/spx.h"

void spx_ctx_init(spx_ctx *c, unsigned n, unsigned sha2, unsigned hsha512, const uint8_t *pk_seed,
                  const uint8_t *sk_seed)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->sha2 = sha2;
    c->hsha512 = sha2 && hsha512;
    hs_wots_dims_init(&c->wots, n, 4);
    memcpy(c->pk_seed, pk_seed, n);
    if (sk_seed)
        memcpy(c->sk_seed, sk_seed, n);
    if (sha2) {
        uint8_t block[128];
        memset(block, 0, sizeof block);
        memcpy(block, pk_seed, n);
        grove_sha256_init(&c->seeded256);
        grove_sha256_update(&c->seeded256, block, 64);
        if (c->hsha512) {
            grove_sha512_init(&c->seeded512);
            grove_sha512_update(&c->seeded512, block, 128);
        }
        c->pre = 22;
        c->adrs_off = 0;
        c->hash_off = 18;
    } else {
        c->pre = n + 32;
        c->adrs_off = n;
        c->hash_off = n + hs_adrs_hash_off(HS_ADRS_SPHINCS);
    }
}

void spx_ctx_wipe(spx_ctx *c)
{
    grove_wipe(c, sizeof *c);
}

void spx_lane_init(const spx_ctx *c, uint8_t *lane, const hs_adrs *a)
{
    if (c->sha2) {
        lane[0] = a->b[3];
        memcpy(lane + 1, a->b + 8, 8);
        lane[9] = a->b[19];
        memcpy(lane + 10, a->b + 20, 12);
    } else {
        memcpy(lane, c->pk_seed, c->n);
        memcpy(lane + c->n, a->b, 32);
    }
}

void spx_thash_lanes(const spx_ctx *c, unsigned nblocks, uint8_t *const lanes[],
                     uint8_t *const out[], size_t count)
{
    size_t inlen = c->pre + (size_t)nblocks * c->n;
    const uint8_t *const *in = (const uint8_t *const *)lanes;
    if (!c->sha2)
        grove_shake256_many(out, c->n, in, inlen, count);
    else if (nblocks > 1 && c->hsha512)
        grove_sha512_many_pub16(out, c->n, &c->seeded512, in, inlen, count);
    else
        grove_sha256_many_pub16(out, c->n, &c->seeded256, in, inlen, count);
}

void spx_thash(const spx_ctx *c, uint8_t *out, const hs_adrs *a, const uint8_t *data,
               unsigned nblocks)
{
    uint8_t head[SPX_MAX_PRE];
    size_t dlen = (size_t)nblocks * c->n;
    if (c->sha2 && nblocks <= 2) {
        /* F, PRF, H: one lane through the batch path (the folded one-block kernels) */
        uint8_t lane[SPX_MAX_PRE + 2 * SPX_MAX_N];
        uint8_t *lp[1] = {lane}, *op[1] = {out};
        spx_lane_init(c, lane, a);
        memcpy(lane + c->pre, data, dlen);
        spx_thash_lanes(c, nblocks, lp, op, 1);
        grove_wipe(lane, sizeof lane);
        return;
    }
    spx_lane_init(c, head, a);
    if (!c->sha2) {
        grove_keccak_ctx k;
        grove_shake256_init(&k);
        grove_keccak_absorb(&k, head, c->pre);
        grove_keccak_absorb(&k, data, dlen);
        grove_keccak_squeeze(&k, out, c->n);
        grove_wipe(&k, sizeof k);
    } else if (nblocks > 1 && c->hsha512) {
        grove_sha512_ctx s = c->seeded512;
        grove_sha512_update(&s, head, c->pre);
        grove_sha512_update(&s, data, dlen);
        grove_sha512_final(&s, out, c->n);
    } else {
        grove_sha256_ctx s = c->seeded256;
        grove_sha256_update(&s, head, c->pre);
        grove_sha256_update(&s, data, dlen);
        grove_sha256_final(&s, out, c->n);
    }
}
