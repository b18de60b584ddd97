/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* WOTS+ digits, checksum and the chain walk over lanes (see wots.h). */
#include <string.h>

#include "hashsig/wots.h"

void hs_wots_dims_init(hs_wots_dims *d, unsigned n, unsigned lg_w)
{
    d->n = n;
    d->lg_w = lg_w;
    d->w = 1u << lg_w;
    d->len1 = 8 * n / lg_w;
    unsigned max_sum = d->len1 * (d->w - 1), log2 = 0;
    while ((max_sum >> log2) > 1)
        log2++;
    d->len2 = log2 / lg_w + 1; /* floor(floor(log2 x) / lg_w) = floor(log2(x) / lg_w) */
    d->len = d->len1 + d->len2;
}

/* base_w (RFC 8391 2.6): out_len digits of lg_w bits each, most significant bits first. */
static void base_w(uint8_t *out, size_t out_len, const uint8_t *in, unsigned lg_w)
{
    if (lg_w == 4) { /* w = 16, every scheme's: two nibbles per byte */
        for (size_t i = 0; i < out_len; i++)
            out[i] = (uint8_t)(i % 2 ? in[i / 2] & 15 : in[i / 2] >> 4);
        return;
    }
    const unsigned mask = (1u << lg_w) - 1;
    unsigned bits = 0, total = 0;
    for (size_t i = 0; i < out_len; i++) {
        if (bits == 0) {
            total = *in++;
            bits = 8;
        }
        bits -= lg_w;
        out[i] = (uint8_t)((total >> bits) & mask);
    }
}

void hs_wots_digits(const hs_wots_dims *d, const uint8_t *msg, uint8_t *digits)
{
    base_w(digits, d->len1, msg, d->lg_w);
    uint32_t csum = 0;
    for (unsigned i = 0; i < d->len1; i++)
        csum += d->w - 1 - digits[i];
    unsigned csum_bits = d->len2 * d->lg_w;
    csum <<= (8 - csum_bits % 8) % 8;
    uint8_t bytes[4];
    unsigned nbytes = (csum_bits + 7) / 8;
    for (unsigned i = 0; i < nbytes; i++)
        bytes[i] = (uint8_t)(csum >> (8 * (nbytes - 1 - i)));
    base_w(digits + d->len1, d->len2, bytes, d->lg_w);
}

/* Copy out the value of every lane that captures at pos and walks through pos. */
static void capture_at(const hs_chain_ops *ops, void *ctx, unsigned n, size_t count,
                       const uint8_t *from, const uint8_t *to, unsigned w, const uint8_t *cap,
                       uint8_t *const capout[], unsigned pos)
{
    for (size_t i = 0; i < count; i++) {
        unsigned b = from ? from[i] : 0, e = to ? to[i] : w - 1;
        if (cap[i] == pos && b <= pos && pos <= e)
            memcpy(capout[i], ops->value(ctx, i), n);
    }
}

/* The lanes walking at position pos when both ends vary per lane (or neither does). */
static size_t scan_lanes(size_t count, const uint8_t *from, const uint8_t *to, unsigned w,
                         unsigned pos, uint32_t *idx)
{
    size_t a = 0;
    for (size_t i = 0; i < count; i++) {
        unsigned b = from ? from[i] : 0, e = to ? to[i] : w - 1;
        if (b <= pos && pos < e)
            idx[a++] = (uint32_t)i;
    }
    return a;
}

/* Counting sort of the lanes by key[lane] (< w), ascending or descending. */
static void order_lanes(const uint8_t *key, size_t count, unsigned w, int descending,
                        uint32_t *idx)
{
    size_t first[257];
    memset(first, 0, (w + 1) * sizeof first[0]);
    for (size_t i = 0; i < count; i++)
        first[(descending ? w - 1 - key[i] : key[i]) + 1]++;
    for (unsigned v = 1; v <= w; v++)
        first[v] += first[v - 1];
    for (size_t i = 0; i < count; i++)
        idx[first[descending ? w - 1 - key[i] : key[i]]++] = (uint32_t)i;
}

void hs_chains_walk(const hs_chain_ops *ops, void *ctx, unsigned n, unsigned w, size_t count,
                    const uint8_t *from, const uint8_t *to, const uint8_t *cap,
                    uint8_t *const capout[], uint32_t *idx)
{
    if (count == 0)
        return;
    if (ops->walk_all != NULL && from == NULL && to == NULL) {
        ops->walk_all(ctx, count, w - 1, cap, capout);
        return;
    }
    /*
     * Verification (from only) and signing (to only): with the lanes ordered by that one end,
     * the lanes walking at any position are a prefix of idx, found without a scan.
     */
    unsigned lo = 0, hi = w - 1;
    int one_end = (from == NULL) != (to == NULL);
    if (one_end) {
        order_lanes(from ? from : to, count, w, from == NULL, idx);
        if (from)
            lo = from[idx[0]]; /* the smallest start */
        else
            hi = to[idx[0]]; /* the largest end */
    } else {
        lo = w - 1, hi = 0;
        for (size_t i = 0; i < count; i++) {
            unsigned b = from ? from[i] : 0, e = to ? to[i] : w - 1;
            lo = b < lo ? b : lo;
            hi = e > hi ? e : hi;
        }
    }
    size_t active = from ? 0 : count;
    for (unsigned pos = lo; pos <= hi; pos++) {
        if (cap != NULL)
            capture_at(ops, ctx, n, count, from, to, w, cap, capout, pos);
        if (pos == hi)
            break;
        if (!one_end)
            active = scan_lanes(count, from, to, w, pos, idx);
        else if (from != NULL)
            while (active < count && from[idx[active]] <= pos)
                active++;
        else
            while (active > 0 && to[idx[active - 1]] <= pos)
                active--;
        if (active > 0)
            ops->step(ctx, idx, active, pos);
    }
}
