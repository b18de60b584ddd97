/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * CROSS building blocks shared by keygen, sign and verify: SHAKE with domain separation, the
 * constant-squeeze bit reader and samplers, F_p / F_z arithmetic, packing, and the shape of
 * the (unbalanced) seed and Merkle trees.
 */
#ifndef GROVE_CROSS_PRIMS_H
#define GROVE_CROSS_PRIMS_H

#include <stddef.h>
#include <stdint.h>

#include "common/util.h"
#include "cross/cross_internal.h"
#include "hash/keccak.h"

#define CROSS_HASH_DSC 0x8000u

/* Everything an operation needs to know about its parameter set. */
typedef struct cross_ctx {
    const grove_cross_params *p;
    cross_sizes z;
    size_t n, k, m, t, w;
    size_t xe, xu;          /* bytes squeezed for e' (or e'_G) and for u' per round */
    uint8_t levels;         /* number of tree levels (root = level 0) */
    uint16_t start[CROSS_MAX_LEVELS + 1]; /* linear index of the first node of each level */
} cross_ctx;

void cross_ctx_init(cross_ctx *c, const grove_cross_params *p);

/* ---- SHAKE ---------------------------------------------------------------------------------- */
void cross_xof_init(const cross_ctx *c, grove_keccak_ctx *x);
void cross_absorb_dsc(grove_keccak_ctx *x, uint16_t dsc);
/* x = SHAKE(in || le16(dsc)), ready to squeeze */
void cross_xof_start(const cross_ctx *c, grove_keccak_ctx *x, const uint8_t *in, size_t len,
                     uint16_t dsc);
/* out (2*lambda/8 bytes) = SHAKE(in || le16(dsc)) */
void cross_hash(const cross_ctx *c, uint8_t *out, const uint8_t *in, size_t len, uint16_t dsc);
/* Batch: out[i] = SHAKE(in[i][0..inlen)) (the inputs already end with their dsc). */
void cross_shake_many(const cross_ctx *c, uint8_t *const out[], size_t outlen,
                      const uint8_t *const in[], size_t inlen, size_t count);
GROVE_INLINE void cross_put_dsc(uint8_t *p, uint16_t dsc)
{
    p[0] = (uint8_t)dsc;
    p[1] = (uint8_t)(dsc >> 8);
}

/* ---- bit reader over a SHAKE state with a fixed byte budget (zeros past it) ------------------ */
typedef struct cross_bitrd {
    size_t left; /* bytes of the budget not yet read */
    grove_keccak_ctx *xof;
    uint8_t chunk[32];
    uint8_t cpos, clen;
    unsigned nbits;
    uint64_t acc;
} cross_bitrd;

void cross_rd_xof(cross_bitrd *r, grove_keccak_ctx *x, size_t budget);
/* Top up the bit buffer to at least 57 bits (zeros past the budget). */
void cross_rd_refill(cross_bitrd *r);
GROVE_INLINE uint32_t cross_rd_bits(cross_bitrd *r, unsigned nb)
{
    if (r->nbits < nb)
        cross_rd_refill(r);
    uint32_t v = (uint32_t)(r->acc & ((1u << nb) - 1u));
    r->acc >>= nb;
    r->nbits -= nb;
    return v;
}
/* Squeeze (and drop) what is left of the budget, so the next sampler starts where it must. */
void cross_rd_finish(cross_bitrd *r);

/* Rejection samplers (b-bit candidates, kept if < bound). */
void cross_sample_fz(cross_bitrd *r, uint8_t *out, size_t count, unsigned bits, uint32_t bound);
void cross_sample_fp(cross_bitrd *r, uint16_t *out, size_t count, unsigned bits, uint32_t bound);
/* The same over a buffer of len bytes (reads as zeros past its end). */
void cross_sample_mem_fz(uint8_t *out, size_t count, const uint8_t *buf, size_t len,
                         unsigned bits, uint32_t bound);
void cross_sample_mem_fp(uint16_t *out, size_t count, const uint8_t *buf, size_t len,
                         unsigned bits, uint32_t bound);
/* One element of chall_1, in [1, p-1]. */
uint16_t cross_sample_chall1(const cross_ctx *c, cross_bitrd *r);

/* ---- arithmetic ----------------------------------------------------------------------------- */
/* x mod 127 for x < 2^28, fully reduced */
GROVE_INLINE uint32_t cross_mod127(uint32_t x)
{
    x = (x & 127u) + (x >> 7);
    x = (x & 127u) + (x >> 7);
    x = (x & 127u) + (x >> 7);
    x = (x & 127u) + (x >> 7);
    return (x + ((x + 1u) >> 7)) & 127u;
}
/* x mod 127 for x < 2^14, fully reduced */
GROVE_INLINE uint32_t cross_mod127_14(uint32_t x)
{
    x = (x & 127u) + (x >> 7);
    x = (x & 127u) + (x >> 7);
    return (x + ((x + 1u) >> 7)) & 127u;
}
/* x mod 509 for any 32-bit x (Barrett) */
GROVE_INLINE uint32_t cross_mod509(uint32_t x)
{
    return x - (uint32_t)(((uint64_t)x * 2160140723u) >> 40) * 509u;
}
/* x mod 7 for x < 14 */
GROVE_INLINE uint8_t cross_mod7_small(uint32_t x)
{
    uint32_t r = x - 7u;
    r += 7u & (0u - (r >> 31));
    return (uint8_t)r;
}
/* g^x in F_p for an exponent x in [0, z] (constant time) */
GROVE_INLINE uint32_t cross_restr_val(int rsdpg, uint32_t x)
{
    if (!rsdpg)
        return (uint32_t)(0x0140201008040201ULL >> (8u * x)) & 0xFFu;
    /* 16^(2^i) mod 509 for i = 0..6 */
    static const uint16_t sq[7] = {16, 256, 384, 355, 302, 93, 505};
    uint32_t r = 1;
    for (unsigned i = 0; i < 7; i++) {
        uint32_t bit = (x >> i) & 1u;
        uint32_t f = ((0u - bit) & sq[i]) | ((bit - 1u) & 1u);
        r = cross_mod509(r * f);
    }
    return r;
}
GROVE_INLINE uint32_t cross_fp_red(int rsdpg, uint32_t x)
{
    return rsdpg ? cross_mod509(x) : cross_mod127(x);
}

/* ---- packing (LSB-first bit streams) -------------------------------------------------------- */
void cross_pack_fp(uint8_t *out, const uint16_t *in, size_t count, unsigned bits);
void cross_pack_fz(uint8_t *out, const uint8_t *in, size_t count, unsigned bits);
/* Unpack; returns 1 iff the padding bits are zero and every value is < bound. */
int cross_unpack_fp(uint16_t *out, const uint8_t *in, size_t count, unsigned bits,
                    uint32_t bound);
int cross_unpack_fz(uint8_t *out, const uint8_t *in, size_t count, unsigned bits,
                    uint32_t bound);

/* ---- trees ---------------------------------------------------------------------------------- */
typedef struct cross_tnode {
    uint16_t idx;   /* linear index (level order, root = 0) */
    uint16_t pos;   /* position inside its level */
    uint16_t first; /* first round (leaf) below it */
    uint16_t cnt;   /* number of leaves below it */
    uint8_t level;
} cross_tnode;

void cross_tree_root_node(const cross_ctx *c, cross_tnode *n);
void cross_tree_children(const cross_ctx *c, const cross_tnode *n, cross_tnode *l,
                         cross_tnode *r);

#endif
