/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Fp products with 32-bit limbs and 64-bit products (no unsigned __int128): the path for
 * 32-bit targets and MSVC, and the reference the other paths are tested against (see fp.h).
 *
 * An element's six 64-bit limbs are read as twelve 32-bit words (word 2i is the low half of
 * limb i). Montgomery multiplication is operand scanning (CIOS) with R = 2^384 as on the
 * 64-bit paths, so the Montgomery forms, and therefore every result, are the same. Each step
 * x*y + t + c of 32-bit words fits in 64 bits. No branch or memory index depends on a value.
 */
#include "bls12_381/fp.h"

#define W 12 /* 32-bit words of an element */

static const uint32_t P32[W] = {0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu,
                                0xf6b0f624u, 0x6730d2a0u, 0xf38512bfu, 0x64774b84u,
                                0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau};
#define N0_32 0xfffcfffdu /* -p^-1 mod 2^32: the low half of BLS_P_N0 */

static void split(uint32_t w[W], const uint64_t l[6])
{
    for (int i = 0; i < 6; i++) {
        w[2 * i] = (uint32_t)l[i];
        w[2 * i + 1] = (uint32_t)(l[i] >> 32);
    }
}

/* r = t - p if t >= p else t, for t < 2p in twelve words; packs into 64-bit limbs. */
static void final_sub(uint64_t r[6], const uint32_t t[W])
{
    uint32_t d[W], borrow = 0, keep;
    for (int j = 0; j < W; j++) {
        uint64_t x = (uint64_t)t[j] - P32[j] - borrow;
        d[j] = (uint32_t)x;
        borrow = (uint32_t)(x >> 63);
    }
    keep = 0u - borrow; /* all ones: t < p */
    for (int i = 0; i < 6; i++) {
        uint32_t lo = (t[2 * i] & keep) | (d[2 * i] & ~keep);
        uint32_t hi = (t[2 * i + 1] & keep) | (d[2 * i + 1] & ~keep);
        r[i] = (uint64_t)lo | ((uint64_t)hi << 32);
    }
}

/* One reduction row on a 13-word accumulator: t += m p with m = t0 * N0_32, then t >>= 32. */
static void red_row(uint32_t t[W + 1])
{
    uint32_t m = t[0] * N0_32;
    uint64_t uv = (uint64_t)m * P32[0] + t[0];
    uint32_t c = (uint32_t)(uv >> 32);
    for (int j = 1; j < W; j++) {
        uv = (uint64_t)m * P32[j] + t[j] + c;
        t[j - 1] = (uint32_t)uv;
        c = (uint32_t)(uv >> 32);
    }
    uv = (uint64_t)t[W] + c;
    t[W - 1] = (uint32_t)uv;
    t[W] = (uint32_t)(uv >> 32);
}

void bls_fp_mul_limb32(fp *r, const fp *a, const fp *b)
{
    uint32_t x[W], y[W], t[W + 1] = {0};
    split(x, a->l);
    split(y, b->l);
    for (int i = 0; i < W; i++) {
        /* t += x * y_i (t < 2^416 before the shift: 13 words and a carry) */
        uint32_t c = 0;
        for (int j = 0; j < W; j++) {
            uint64_t uv = (uint64_t)x[j] * y[i] + t[j] + c;
            t[j] = (uint32_t)uv;
            c = (uint32_t)(uv >> 32);
        }
        uint64_t top = (uint64_t)t[W] + c;
        /* reduction: the carry word above t[W] re-enters as the new top */
        uint32_t m = t[0] * N0_32;
        uint64_t uv = (uint64_t)m * P32[0] + t[0];
        c = (uint32_t)(uv >> 32);
        for (int j = 1; j < W; j++) {
            uv = (uint64_t)m * P32[j] + t[j] + c;
            t[j - 1] = (uint32_t)uv;
            c = (uint32_t)(uv >> 32);
        }
        uv = (uint64_t)(uint32_t)top + c;
        t[W - 1] = (uint32_t)uv;
        t[W] = (uint32_t)(top >> 32) + (uint32_t)(uv >> 32);
    }
    /* a b < p R: t < 2p, so t[W] = 0 */
    final_sub(r->l, t);
    grove_wipe(x, sizeof x);
    grove_wipe(y, sizeof y);
    grove_wipe(t, sizeof t);
}

void bls_fp_mul_wide_limb32(fp_wide *r, const fp *a, const fp *b)
{
    uint32_t x[W], y[W], t[2 * W] = {0};
    split(x, a->l);
    split(y, b->l);
    for (int i = 0; i < W; i++) {
        uint32_t c = 0;
        for (int j = 0; j < W; j++) {
            uint64_t uv = (uint64_t)x[j] * y[i] + t[i + j] + c;
            t[i + j] = (uint32_t)uv;
            c = (uint32_t)(uv >> 32);
        }
        t[i + W] = c;
    }
    for (int i = 0; i < 12; i++)
        r->l[i] = (uint64_t)t[2 * i] | ((uint64_t)t[2 * i + 1] << 32);
    grove_wipe(x, sizeof x);
    grove_wipe(y, sizeof y);
    grove_wipe(t, sizeof t);
}

void bls_fp_redc_limb32(fp *r, const fp_wide *t)
{
    /* (t_lo + M p) / R <= p for the low half, then the high half (< p) is added: < 2p */
    uint32_t acc[W + 1], hi[W];
    split(acc, t->l);
    split(hi, t->l + 6);
    acc[W] = 0;
    for (int i = 0; i < W; i++)
        red_row(acc);
    uint32_t c = 0;
    for (int j = 0; j < W; j++) {
        uint64_t uv = (uint64_t)acc[j] + hi[j] + c;
        acc[j] = (uint32_t)uv;
        c = (uint32_t)(uv >> 32);
    }
    final_sub(r->l, acc);
    grove_wipe(acc, sizeof acc);
    grove_wipe(hi, sizeof hi);
}
