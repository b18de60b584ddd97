/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* CROSS building blocks (see cross_prims.h). */
#include <string.h>

#include "cross/cross_prims.h"

static unsigned bitlen(uint32_t x)
{
    unsigned b = 0;
    while (x) {
        b++;
        x >>= 1;
    }
    return b;
}

/* Leaves of the left subtree of a node with cnt >= 2 leaves: the largest power of 2 < cnt. */
static uint16_t left_leaves(uint16_t cnt)
{
    return (uint16_t)(1u << (bitlen((uint32_t)cnt - 1u) - 1u));
}

static void count_levels(uint16_t cnt, unsigned level, uint16_t *npl, unsigned *depth)
{
    npl[level]++;
    if (level + 1 > *depth)
        *depth = level + 1;
    if (cnt > 1) {
        uint16_t l = left_leaves(cnt);
        count_levels(l, level + 1, npl, depth);
        count_levels((uint16_t)(cnt - l), level + 1, npl, depth);
    }
}

void cross_ctx_init(cross_ctx *c, const grove_cross_params *p)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    cross_sizes_of(p, &c->z);
    c->n = p->n;
    c->k = p->k;
    c->m = p->m;
    c->t = p->t;
    c->w = p->w;
    c->xe = (p->bits_e + 7u) / 8u;
    c->xu = (p->bits_n_fp + 7u) / 8u;
    if (p->corner != 0) {
        uint16_t npl[CROSS_MAX_LEVELS + 1] = {0};
        unsigned depth = 0;
        count_levels(p->t, 0, npl, &depth);
        c->levels = (uint8_t)depth;
        uint16_t s = 0;
        for (unsigned l = 0; l <= CROSS_MAX_LEVELS; l++) {
            c->start[l] = s;
            s = (uint16_t)(s + npl[l]);
        }
    }
}

/* ---- SHAKE ---------------------------------------------------------------------------------- */

void cross_xof_init(const cross_ctx *c, grove_keccak_ctx *x)
{
    if (c->p->category == 1)
        grove_shake128_init(x);
    else
        grove_shake256_init(x);
}

void cross_absorb_dsc(grove_keccak_ctx *x, uint16_t dsc)
{
    uint8_t b[2];
    cross_put_dsc(b, dsc);
    grove_keccak_absorb(x, b, 2);
}

void cross_xof_start(const cross_ctx *c, grove_keccak_ctx *x, const uint8_t *in, size_t len,
                     uint16_t dsc)
{
    cross_xof_init(c, x);
    grove_keccak_absorb(x, in, len);
    cross_absorb_dsc(x, dsc);
}

void cross_hash(const cross_ctx *c, uint8_t *out, const uint8_t *in, size_t len, uint16_t dsc)
{
    grove_keccak_ctx x;
    cross_xof_start(c, &x, in, len, dsc);
    grove_keccak_squeeze(&x, out, c->z.digest);
    grove_wipe(&x, sizeof x);
}

void cross_shake_many(const cross_ctx *c, uint8_t *const out[], size_t outlen,
                      const uint8_t *const in[], size_t inlen, size_t count)
{
    if (count == 0)
        return;
    if (c->p->category == 1)
        grove_shake128_many(out, outlen, in, inlen, count);
    else
        grove_shake256_many(out, outlen, in, inlen, count);
}

/* ---- bit reader ----------------------------------------------------------------------------- */

void cross_rd_xof(cross_bitrd *r, grove_keccak_ctx *x, size_t budget)
{
    r->left = budget;
    r->xof = x;
    r->cpos = r->clen = 0;
    r->nbits = 0;
    r->acc = 0;
}

void cross_rd_refill(cross_bitrd *r)
{
    while (r->nbits <= 56) {
        if (r->cpos == r->clen) {
            if (r->left == 0) {
                r->nbits += 8; /* zeros */
                continue;
            }
            size_t n = r->left < sizeof r->chunk ? r->left : sizeof r->chunk;
            grove_keccak_squeeze(r->xof, r->chunk, n);
            r->left -= n;
            r->clen = (uint8_t)n;
            r->cpos = 0;
        }
        r->acc |= (uint64_t)r->chunk[r->cpos++] << r->nbits;
        r->nbits += 8;
    }
}

void cross_rd_finish(cross_bitrd *r)
{
    while (r->left > 0) {
        size_t n = r->left < sizeof r->chunk ? r->left : sizeof r->chunk;
        grove_keccak_squeeze(r->xof, r->chunk, n);
        r->left -= n;
    }
    grove_wipe(r->chunk, sizeof r->chunk);
    r->acc = 0;
    r->nbits = 0;
}

/*
 * Samplers over a memory buffer (the round expansion): the candidate is stored at the next
 * free place unconditionally and the place kept only if it is in range.
 */
#define CROSS_SAMPLE_MEM_BODY(T)                                                            \
    uint64_t acc = 0;                                                                       \
    unsigned nb = 0;                                                                        \
    size_t pos = 0, placed = 0;                                                             \
    const uint32_t mask = (1u << bits) - 1u;                                                \
    while (placed < count) {                                                                \
        if (nb < bits) {                                                                    \
            if (len - pos >= 4) {                                                           \
                acc |= (uint64_t)grove_load32_le(buf + pos) << nb;                          \
                pos += 4;                                                                   \
            } else {                                                                        \
                uint32_t w = 0; /* zeros past the end */                                    \
                for (unsigned q = 0; q < 4 && pos < len; q++)                               \
                    w |= (uint32_t)buf[pos++] << (8 * q);                                   \
                acc |= (uint64_t)w << nb;                                                   \
            }                                                                               \
            nb += 32;                                                                       \
        }                                                                                   \
        uint32_t v = (uint32_t)acc & mask;                                                  \
        acc >>= bits;                                                                       \
        nb -= bits;                                                                         \
        out[placed] = (T)v;                                                                 \
        placed += (size_t)(v < bound);                                                      \
    }

void cross_sample_mem_fz(uint8_t *out, size_t count, const uint8_t *buf, size_t len,
                         unsigned bits, uint32_t bound)
{
    CROSS_SAMPLE_MEM_BODY(uint8_t)
}

void cross_sample_mem_fp(uint16_t *out, size_t count, const uint8_t *buf, size_t len,
                         unsigned bits, uint32_t bound)
{
    CROSS_SAMPLE_MEM_BODY(uint16_t)
}

void cross_sample_fz(cross_bitrd *r, uint8_t *out, size_t count, unsigned bits, uint32_t bound)
{
    size_t placed = 0;
    while (placed < count) {
        uint32_t v = cross_rd_bits(r, bits);
        if (v < bound)
            out[placed++] = (uint8_t)v;
    }
}

void cross_sample_fp(cross_bitrd *r, uint16_t *out, size_t count, unsigned bits, uint32_t bound)
{
    size_t placed = 0;
    while (placed < count) {
        uint32_t v = cross_rd_bits(r, bits);
        if (v < bound)
            out[placed++] = (uint16_t)v;
    }
}

uint16_t cross_sample_chall1(const cross_ctx *c, cross_bitrd *r)
{
    for (;;) {
        uint32_t v = cross_rd_bits(r, c->z.bp) + 1u;
        if (v < c->z.p)
            return (uint16_t)v;
    }
}

/* ---- packing -------------------------------------------------------------------------------- */

/* Bits are gathered in a 64-bit word and written 32 at a time, then the tail bytes. */
#define CROSS_PACK_BODY                                                                     \
    uint64_t acc = 0;                                                                       \
    unsigned nb = 0;                                                                        \
    size_t o = 0;                                                                           \
    for (size_t i = 0; i < count; i++) {                                                    \
        acc |= (uint64_t)in[i] << nb;                                                       \
        nb += bits;                                                                         \
        if (nb >= 32) {                                                                     \
            grove_store32_le(out + o, (uint32_t)acc);                                       \
            o += 4;                                                                         \
            acc >>= 32;                                                                     \
            nb -= 32;                                                                       \
        }                                                                                   \
    }                                                                                       \
    while (nb > 0) {                                                                        \
        out[o++] = (uint8_t)acc;                                                            \
        acc >>= 8;                                                                          \
        nb = nb > 8 ? nb - 8 : 0;                                                           \
    }

void cross_pack_fp(uint8_t *out, const uint16_t *in, size_t count, unsigned bits)
{
    CROSS_PACK_BODY
}

void cross_pack_fz(uint8_t *out, const uint8_t *in, size_t count, unsigned bits)
{
    CROSS_PACK_BODY
}

/*
 * Both unpackers read exactly ceil(count*bits/8) bytes and check the unused top bits of the
 * last byte (whatever the width, 3 bits included) and every value against bound.
 */
#define CROSS_UNPACK_BODY(T)                                                                \
    uint64_t acc = 0;                                                                       \
    uint32_t bad = 0, mask = (1u << bits) - 1u;                                             \
    unsigned nb = 0;                                                                        \
    size_t o = 0, len = (count * bits + 7) / 8;                                             \
    for (size_t i = 0; i < count; i++) {                                                    \
        if (nb < bits) {                                                                    \
            if (len - o >= 4) {                                                             \
                acc |= (uint64_t)grove_load32_le(in + o) << nb;                             \
                o += 4;                                                                     \
                nb += 32;                                                                   \
            } else {                                                                        \
                while (nb < bits) {                                                         \
                    acc |= (uint64_t)in[o++] << nb;                                         \
                    nb += 8;                                                                \
                }                                                                           \
            }                                                                               \
        }                                                                                   \
        uint32_t v = (uint32_t)acc & mask;                                                  \
        bad |= (uint32_t)(v >= bound);                                                      \
        out[i] = (T)v;                                                                      \
        acc >>= bits;                                                                       \
        nb -= bits;                                                                         \
    }                                                                                       \
    while (o < len) { /* only when count*bits < 8*len - 7: cannot happen, kept for safety */ \
        acc |= (uint64_t)in[o++] << nb;                                                     \
        nb += 8;                                                                            \
    }                                                                                       \
    bad |= (uint32_t)(acc != 0); /* the padding bits */                                     \
    return bad == 0;

int cross_unpack_fp(uint16_t *out, const uint8_t *in, size_t count, unsigned bits,
                    uint32_t bound)
{
    CROSS_UNPACK_BODY(uint16_t)
}

int cross_unpack_fz(uint8_t *out, const uint8_t *in, size_t count, unsigned bits,
                    uint32_t bound)
{
    CROSS_UNPACK_BODY(uint8_t)
}

/* ---- trees ---------------------------------------------------------------------------------- */

void cross_tree_root_node(const cross_ctx *c, cross_tnode *n)
{
    n->idx = 0;
    n->pos = 0;
    n->first = 0;
    n->cnt = (uint16_t)c->t;
    n->level = 0;
}

/*
 * The tree has t leaves; a node with cnt leaves has a left subtree with the largest power of
 * two below cnt leaves and a right subtree with the rest. Internal nodes come first in each
 * level, so the children of the node at position pos are at positions 2pos and 2pos+1 of the
 * next level. Leaves in depth-first order are the rounds 0..t-1.
 */
void cross_tree_children(const cross_ctx *c, const cross_tnode *n, cross_tnode *l,
                         cross_tnode *r)
{
    uint16_t lc = left_leaves(n->cnt);
    uint8_t lv = (uint8_t)(n->level + 1);
    l->level = r->level = lv;
    l->pos = (uint16_t)(2u * n->pos);
    r->pos = (uint16_t)(l->pos + 1u);
    l->idx = (uint16_t)(c->start[lv] + l->pos);
    r->idx = (uint16_t)(l->idx + 1u);
    l->first = n->first;
    l->cnt = lc;
    r->first = (uint16_t)(n->first + lc);
    r->cnt = (uint16_t)(n->cnt - lc);
}
