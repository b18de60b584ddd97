/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Fp: exponentiation, inversion, square roots, conversions (see fp.h). */
#include "bls12_381/fp.h"

#include <string.h>

#include "bls12_381/constants.h"
#include "bls12_381/fp2.h"

const fp BLS_FP_P = {{BLS_P0, BLS_P1, BLS_P2, BLS_P3, BLS_P4, BLS_P5}};
const uint64_t bls_p_limbs[6] = {BLS_P0, BLS_P1, BLS_P2, BLS_P3, BLS_P4, BLS_P5};

#if GROVE_BLS_MULX
void bls_fp_mul_portable_call(fp *r, const fp *a, const fp *b)
{
    fp_mul_portable(r, a, b);
}

void bls_fp_mul_wide_portable_call(fp_wide *r, const fp *a, const fp *b)
{
    fp_mul_wide_portable(r, a, b);
}

void bls_fp_redc_portable_call(fp *r, const fp_wide *t)
{
    fp_redc_portable(r, t);
}
#endif

/*
 * Sliding windows of up to 5 bits over the exponent, which is public: the sequence of
 * squarings and multiplications and the table indices depend on e only, so the time does not
 * depend on the base (which may be secret). A table of the 16 odd powers a, a^3, .., a^31; for
 * a 381-bit exponent about 64 multiplications where fixed 4-bit windows need 95.
 */
static unsigned pow_bit(const uint64_t *e, size_t j)
{
    return (unsigned)(e[j / 64] >> (j % 64)) & 1;
}

/* the next window at or below bit j (e's bit j set): its lowest bit and its value (odd) */
static size_t pow_window(const uint64_t *e, size_t j, unsigned *w)
{
    size_t lo = j >= 4 ? j - 4 : 0;
    while (!pow_bit(e, lo))
        lo++;
    *w = 0;
    for (size_t b = j + 1; b-- > lo;)
        *w = (*w << 1) | pow_bit(e, b);
    return lo;
}

void fp_pow(fp *r, const fp *a, const uint64_t *e, size_t nlimbs)
{
    fp tab[16], a2, acc = BLS_FP_ONE;
    int started = 0;
    fp_sqr(&a2, a);
    tab[0] = *a;
    for (int i = 1; i < 16; i++)
        fp_mul(&tab[i], &tab[i - 1], &a2);
    for (size_t j = 64 * nlimbs; j-- > 0;) {
        unsigned w;
        if (!pow_bit(e, j)) {
            if (started)
                fp_sqr(&acc, &acc);
            continue;
        }
        size_t lo = pow_window(e, j, &w);
        if (started) {
            for (size_t b = lo; b <= j; b++)
                fp_sqr(&acc, &acc);
            fp_mul(&acc, &acc, &tab[w >> 1]);
        } else {
            acc = tab[w >> 1];
            started = 1;
        }
        j = lo; /* the loop's decrement moves below the window */
    }
    *r = acc;
    grove_wipe(tab, sizeof tab);
    grove_wipe(&a2, sizeof a2);
    grove_wipe(&acc, sizeof acc);
}

void fp2_pow(fp2 *r, const fp2 *a, const uint64_t *e, size_t nlimbs)
{
    fp2 tab[16], a2, acc = BLS_FP2_ONE;
    int started = 0;
    fp2_sqr(&a2, a);
    tab[0] = *a;
    for (int i = 1; i < 16; i++)
        fp2_mul(&tab[i], &tab[i - 1], &a2);
    for (size_t j = 64 * nlimbs; j-- > 0;) {
        unsigned w;
        if (!pow_bit(e, j)) {
            if (started)
                fp2_sqr(&acc, &acc);
            continue;
        }
        size_t lo = pow_window(e, j, &w);
        if (started) {
            for (size_t b = lo; b <= j; b++)
                fp2_sqr(&acc, &acc);
            fp2_mul(&acc, &acc, &tab[w >> 1]);
        } else {
            acc = tab[w >> 1];
            started = 1;
        }
        j = lo;
    }
    *r = acc;
    grove_wipe(tab, sizeof tab);
    grove_wipe(&a2, sizeof a2);
    grove_wipe(&acc, sizeof acc);
}

#if !GROVE_BLS_LIMB32
/* ---- inversion: Bernstein-Yang "safegcd" with batches of 62 divsteps ---------------------- */
/*
 * Numbers are held in signed 62-bit limbs (7 limbs, value = sum v[i] 2^(62 i), limbs 0..5 in
 * [0, 2^62), the top limb signed). Each batch runs 62 divsteps on the low 64 bits of f and g,
 * giving a matrix (u v; q r) with 2^62 (f', g') = (u f + v g, q f + r g); the same matrix
 * updates the coefficients (d, e), kept in [0, p), with an exact division by 2^62 mod p.
 * Invariants f == d x, g == e x (mod p); from (f, g) = (p, x), (d, e) = (0, 1) the loop ends
 * with g = 0, f = +-1, so x^-1 = +-d. For 381-bit inputs 1101 divsteps always suffice
 * (Bernstein and Yang, theorem 11.2), hence 18 batches in constant time.
 */
__extension__ typedef __int128 bls_i128;

#define M62 (UINT64_MAX >> 2)
#define P_INV62 0x360c000300030003ULL /* p^-1 mod 2^62 */

typedef struct {
    int64_t v[7];
} s62;

static const s62 P62 = {{0x39feffffffffaaabLL, 0x3aaffffac54ffffeLL, 0x330d2a0f6b0f6241LL,
                         0x1dd2e13ce144afd9LL, 0x1ba7b6434bacd764LL, 0x0447a8e5ff9a692cLL,
                         0x1a0LL}};

static void to_s62(s62 *r, const uint64_t a[6])
{
    for (int i = 0; i < 7; i++) {
        int bit = 62 * i, w = bit / 64, sh = bit % 64;
        uint64_t x = a[w] >> sh;
        if (sh > 2 && w + 1 < 6)
            x |= a[w + 1] << (64 - sh);
        r->v[i] = (int64_t)(x & M62);
    }
}

static void from_s62(uint64_t r[6], const s62 *a)
{
    /* a in [0, p): limbs are all non-negative */
    for (int w = 0; w < 6; w++) {
        int bit = 64 * w, i = bit / 62, sh = bit % 62;
        /* sh <= 10 for w < 6: two limbs always cover the 64 bits */
        r[w] = ((uint64_t)a->v[i] >> sh) | ((uint64_t)a->v[i + 1] << (62 - sh));
    }
}

/*
 * 62 constant-time divsteps on the low bits of f and g; returns the new delta. One step, with
 * c1 = (delta > 0) and c2 = (g odd) as masks: g += (c1 ? -f : f) when g is odd (the rows
 * likewise); when both hold, f += g (the new g) turns f into the old g, which is the swap
 * (delta, f, g) -> (-delta, g, (g - f) / 2); then g is halved and f's row doubled. About 24
 * instructions a step against 40 for the swap by masks.
 */
static int64_t divsteps62(int64_t delta, uint64_t f, uint64_t g, int64_t t[4])
{
    uint64_t u = 1, v = 0, q = 0, r = 1, c1, c2, d = (uint64_t)delta;
    for (int i = 0; i < 62; i++) {
        c1 = (uint64_t)((int64_t)(0 - d) >> 63); /* delta > 0 (delta is never -2^63) */
        c2 = 0 - (g & 1);
        g += ((f ^ c1) - c1) & c2;
        q += ((u ^ c1) - c1) & c2;
        r += ((v ^ c1) - c1) & c2;
        c1 &= c2;
        d = (d ^ c1) - c1 + 1;
        f += g & c1;
        u += q & c1;
        v += r & c1;
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    t[0] = (int64_t)u;
    t[1] = (int64_t)v;
    t[2] = (int64_t)q;
    t[3] = (int64_t)r;
    return (int64_t)d;
}

static void update_fg(s62 *f, s62 *g, const int64_t t[4])
{
    bls_i128 cf, cg;
    cf = (bls_i128)t[0] * f->v[0] + (bls_i128)t[1] * g->v[0];
    cg = (bls_i128)t[2] * f->v[0] + (bls_i128)t[3] * g->v[0];
    cf >>= 62; /* the low 62 bits are zero */
    cg >>= 62;
    for (int i = 1; i < 7; i++) {
        cf += (bls_i128)t[0] * f->v[i] + (bls_i128)t[1] * g->v[i];
        cg += (bls_i128)t[2] * f->v[i] + (bls_i128)t[3] * g->v[i];
        f->v[i - 1] = (int64_t)((uint64_t)cf & M62);
        g->v[i - 1] = (int64_t)((uint64_t)cg & M62);
        cf >>= 62;
        cg >>= 62;
    }
    f->v[6] = (int64_t)cf;
    g->v[6] = (int64_t)cg;
}

/* x in (-p, 2p) -> [0, p), constant time */
static void s62_normalize(s62 *x)
{
    int64_t m = x->v[6] >> 63; /* negative: add p */
    int64_t c = 0;
    for (int i = 0; i < 7; i++) {
        c += x->v[i] + (P62.v[i] & m);
        x->v[i] = i < 6 ? (int64_t)((uint64_t)c & M62) : c;
        c >>= 62;
    }
    /* subtract p if x >= p */
    s62 y;
    c = 0;
    for (int i = 0; i < 7; i++) {
        c += x->v[i] - P62.v[i];
        y.v[i] = i < 6 ? (int64_t)((uint64_t)c & M62) : c;
        c >>= 62;
    }
    m = ~(y.v[6] >> 63); /* y >= 0 */
    for (int i = 0; i < 7; i++)
        x->v[i] ^= (x->v[i] ^ y.v[i]) & m;
}

/* (d, e) = ((u d + v e) / 2^62, (q d + r e) / 2^62) mod p, d and e in [0, p) on both sides */
static void update_de(s62 *d, s62 *e, const int64_t t[4])
{
    uint64_t md, me;
    bls_i128 cd, ce;
    md = (0 - ((uint64_t)t[0] * (uint64_t)d->v[0] + (uint64_t)t[1] * (uint64_t)e->v[0]) *
                  P_INV62) & M62;
    me = (0 - ((uint64_t)t[2] * (uint64_t)d->v[0] + (uint64_t)t[3] * (uint64_t)e->v[0]) *
                  P_INV62) & M62;
    cd = (bls_i128)t[0] * d->v[0] + (bls_i128)t[1] * e->v[0] + (bls_i128)md * P62.v[0];
    ce = (bls_i128)t[2] * d->v[0] + (bls_i128)t[3] * e->v[0] + (bls_i128)me * P62.v[0];
    cd >>= 62;
    ce >>= 62;
    for (int i = 1; i < 7; i++) {
        cd += (bls_i128)t[0] * d->v[i] + (bls_i128)t[1] * e->v[i] + (bls_i128)md * P62.v[i];
        ce += (bls_i128)t[2] * d->v[i] + (bls_i128)t[3] * e->v[i] + (bls_i128)me * P62.v[i];
        d->v[i - 1] = (int64_t)((uint64_t)cd & M62);
        e->v[i - 1] = (int64_t)((uint64_t)ce & M62);
        cd >>= 62;
        ce >>= 62;
    }
    d->v[6] = (int64_t)cd;
    e->v[6] = (int64_t)ce;
    s62_normalize(d);
    s62_normalize(e);
}

static int s62_is_zero(const s62 *x)
{
    int64_t acc = 0;
    for (int i = 0; i < 7; i++)
        acc |= x->v[i];
    return acc == 0;
}

/* r = 1/a; vartime stops as soon as g = 0, otherwise all 18 batches run */
static void fp_inv_safegcd(fp *r, const fp *a, int vartime)
{
    s62 f = P62, g, d = {{0}}, e = {{1}};
    int64_t delta = 1, t[4];
    uint64_t out[6];
    to_s62(&g, a->l);
    for (int i = 0; i < 18; i++) {
        if (vartime && s62_is_zero(&g))
            break;
        delta = divsteps62(delta, (uint64_t)f.v[0] | ((uint64_t)f.v[1] << 62),
                           (uint64_t)g.v[0] | ((uint64_t)g.v[1] << 62), t);
        update_fg(&f, &g, t);
        update_de(&d, &e, t);
    }
    /* f = +-1: negate d when f is negative */
    uint64_t neg = (uint64_t)(f.v[6] >> 63);
    from_s62(out, &d);
    fp x;
    memcpy(x.l, out, sizeof out);
    fp y;
    fp_neg(&y, &x);
    fp_cmov(&x, &y, neg);
    /* x = (aR)^-1 = a^-1 R^-1; times R^3 / R gives a^-1 R */
    fp_mul(r, &x, &BLS_FP_R3);
    grove_wipe(&d, sizeof d);
    grove_wipe(&e, sizeof e);
    grove_wipe(&f, sizeof f);
    grove_wipe(&g, sizeof g);
    grove_wipe(&x, sizeof x);
}

void fp_inv(fp *r, const fp *a)
{
    fp_inv_safegcd(r, a, 0);
}

void fp_inv_vartime(fp *r, const fp *a)
{
    fp_inv_safegcd(r, a, 1);
}
#else
/*
 * 32-bit-limb path (no 128-bit type for safegcd's products): Fermat, a^(p-2), in constant time
 * for both forms. Slower (about 450 multiplications) but the same result.
 */
void fp_inv(fp *r, const fp *a)
{
    fp_pow(r, a, BLS_EXP_P_MINUS_2, 6);
}

void fp_inv_vartime(fp *r, const fp *a)
{
    fp_pow(r, a, BLS_EXP_P_MINUS_2, 6);
}
#endif

int fp_sqrt(fp *r, const fp *a)
{
    fp s, t;
    fp_pow(&s, a, BLS_EXP_P_PLUS_1_DIV_4, 6);
    fp_sqr(&t, &s);
    *r = s;
    return fp_eq(&t, a);
}

int fp_is_square(const fp *a)
{
    fp t;
    fp_pow(&t, a, BLS_EXP_P_MINUS_1_DIV_2, 6);
    /* a^((p-1)/2) is 1 for nonzero squares, 0 for 0, -1 otherwise */
    return (int)((fp_eq_mask(&t, &BLS_FP_ONE) | fp_is_zero_mask(&t)) & 1);
}

void fp_to_mont(fp *r, const fp *a)
{
    fp_mul(r, &BLS_FP_R2, a);
}

void fp_from_mont(fp *r, const fp *a)
{
    static const fp one_plain = {{1, 0, 0, 0, 0, 0}};
    fp_mul(r, a, &one_plain);
}

void fp_from_u64(fp *r, uint64_t v)
{
    fp t = {{v, 0, 0, 0, 0, 0}};
    fp_to_mont(r, &t);
}

static void load48(fp *r, const uint8_t in[48])
{
    for (int i = 0; i < 6; i++)
        r->l[i] = grove_load64_be(in + 8 * (5 - i));
}

int fp_from_bytes(fp *r, const uint8_t in[48])
{
    fp t;
    uint64_t b = 0;
    load48(&t, in);
    for (int i = 0; i < 6; i++)
        (void)bls_sbb(t.l[i], BLS_FP_P.l[i], &b);
    if (!b)
        return 0; /* t >= p */
    fp_to_mont(r, &t);
    return 1;
}

void fp_to_bytes(uint8_t out[48], const fp *a)
{
    fp t;
    fp_from_mont(&t, a);
    for (int i = 0; i < 6; i++)
        grove_store64_be(out + 8 * (5 - i), t.l[i]);
}

void fp_from_bytes_wide(fp *r, const uint8_t *in, size_t len)
{
    uint8_t buf[96] = {0};
    fp hi, lo;
    if (len > 96)
        len = 96;
    memcpy(buf + 96 - len, in, len);
    load48(&hi, buf);
    load48(&lo, buf + 48);
    /* (hi * 2^384 + lo) * R = hi * R^2 + lo * R; fp_mul accepts any 6-limb second operand */
    fp_mul(&hi, &BLS_FP_R3, &hi);
    fp_mul(&lo, &BLS_FP_R2, &lo);
    fp_add(r, &hi, &lo);
    grove_wipe(buf, sizeof buf);
}

int fp_sgn0(const fp *a)
{
    fp t;
    fp_from_mont(&t, a);
    return (int)(t.l[0] & 1);
}

int fp_is_lexicographically_largest(const fp *a)
{
    fp t;
    uint64_t b = 0;
    fp_from_mont(&t, a);
    /* (p-1)/2 - t borrows iff t > (p-1)/2 */
    for (int i = 0; i < 6; i++)
        (void)bls_sbb(BLS_EXP_P_MINUS_1_DIV_2[i], t.l[i], &b);
    return (int)b;
}
