/*
 * The base field Fp of BLS12-381, p = 0x1a0111ea...ffffaaab (381 bits).
 *
 * Elements are 6 little-endian 64-bit limbs in Montgomery form (a*R mod p, R = 2^384), always
 * fully reduced (< p). Every function here runs in time independent of the values, except the
 * ones whose name ends in _vartime. Products use unsigned __int128.
 *
 * Multiplication is the "no final carry" variant of CIOS Montgomery multiplication: since the
 * top limb of p is below 2^63 - 1, the running value never needs a seventh limb.
 */
#ifndef GROVE_BLS12_381_FP_H
#define GROVE_BLS12_381_FP_H

#include <stddef.h>
#include <stdint.h>

#include "common/util.h"

__extension__ typedef unsigned __int128 bls_u128;

typedef struct {
    uint64_t l[6];
} fp;

/* Double-width value (up to 12 limbs) for lazily reduced sums of products. */
typedef struct {
    uint64_t l[12];
} fp_wide;

#define BLS_P0 0xb9feffffffffaaabULL
#define BLS_P1 0x1eabfffeb153ffffULL
#define BLS_P2 0x6730d2a0f6b0f624ULL
#define BLS_P3 0x64774b84f38512bfULL
#define BLS_P4 0x4b1ba7b6434bacd7ULL
#define BLS_P5 0x1a0111ea397fe69aULL
#define BLS_P_N0 0x89f3fffcfffcfffdULL /* -p^-1 mod 2^64 */

extern const fp BLS_FP_P; /* p itself (not a field element; for comparisons) */

/* ---- carry helpers ------------------------------------------------------------------------ */
GROVE_INLINE uint64_t bls_adc(uint64_t a, uint64_t b, uint64_t *carry)
{
    bls_u128 t = (bls_u128)a + b + *carry;
    *carry = (uint64_t)(t >> 64);
    return (uint64_t)t;
}
GROVE_INLINE uint64_t bls_sbb(uint64_t a, uint64_t b, uint64_t *borrow)
{
    bls_u128 t = (bls_u128)a - b - *borrow;
    *borrow = (uint64_t)(t >> 127);
    return (uint64_t)t;
}

/* r = t - p if t >= p else t, for t < 2p held in 6 limbs. */
GROVE_INLINE void fp_reduce_once(fp *r, uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3,
                                 uint64_t t4, uint64_t t5)
{
    uint64_t b = 0, s0, s1, s2, s3, s4, s5, m;
    s0 = bls_sbb(t0, BLS_P0, &b);
    s1 = bls_sbb(t1, BLS_P1, &b);
    s2 = bls_sbb(t2, BLS_P2, &b);
    s3 = bls_sbb(t3, BLS_P3, &b);
    s4 = bls_sbb(t4, BLS_P4, &b);
    s5 = bls_sbb(t5, BLS_P5, &b);
    m = 0 - b; /* all ones: t < p, keep t */
    r->l[0] = (t0 & m) | (s0 & ~m);
    r->l[1] = (t1 & m) | (s1 & ~m);
    r->l[2] = (t2 & m) | (s2 & ~m);
    r->l[3] = (t3 & m) | (s3 & ~m);
    r->l[4] = (t4 & m) | (s4 & ~m);
    r->l[5] = (t5 & m) | (s5 & ~m);
}

GROVE_INLINE void fp_add(fp *r, const fp *a, const fp *b)
{
    uint64_t c = 0, t0, t1, t2, t3, t4, t5;
    t0 = bls_adc(a->l[0], b->l[0], &c);
    t1 = bls_adc(a->l[1], b->l[1], &c);
    t2 = bls_adc(a->l[2], b->l[2], &c);
    t3 = bls_adc(a->l[3], b->l[3], &c);
    t4 = bls_adc(a->l[4], b->l[4], &c);
    t5 = bls_adc(a->l[5], b->l[5], &c);
    fp_reduce_once(r, t0, t1, t2, t3, t4, t5);
}

GROVE_INLINE void fp_dbl(fp *r, const fp *a)
{
    fp_add(r, a, a);
}

GROVE_INLINE void fp_sub(fp *r, const fp *a, const fp *b)
{
    uint64_t br = 0, c = 0, t0, t1, t2, t3, t4, t5, m;
    t0 = bls_sbb(a->l[0], b->l[0], &br);
    t1 = bls_sbb(a->l[1], b->l[1], &br);
    t2 = bls_sbb(a->l[2], b->l[2], &br);
    t3 = bls_sbb(a->l[3], b->l[3], &br);
    t4 = bls_sbb(a->l[4], b->l[4], &br);
    t5 = bls_sbb(a->l[5], b->l[5], &br);
    m = 0 - br; /* add p back if a < b */
    r->l[0] = bls_adc(t0, BLS_P0 & m, &c);
    r->l[1] = bls_adc(t1, BLS_P1 & m, &c);
    r->l[2] = bls_adc(t2, BLS_P2 & m, &c);
    r->l[3] = bls_adc(t3, BLS_P3 & m, &c);
    r->l[4] = bls_adc(t4, BLS_P4 & m, &c);
    r->l[5] = bls_adc(t5, BLS_P5 & m, &c);
}

/* r = -a (0 stays 0). */
GROVE_INLINE void fp_neg(fp *r, const fp *a)
{
    uint64_t br = 0, nz = a->l[0] | a->l[1] | a->l[2] | a->l[3] | a->l[4] | a->l[5];
    uint64_t m = 0 - ((nz | (0 - nz)) >> 63); /* all ones iff a != 0 */
    r->l[0] = bls_sbb(BLS_P0 & m, a->l[0], &br);
    r->l[1] = bls_sbb(BLS_P1 & m, a->l[1], &br);
    r->l[2] = bls_sbb(BLS_P2 & m, a->l[2], &br);
    r->l[3] = bls_sbb(BLS_P3 & m, a->l[3], &br);
    r->l[4] = bls_sbb(BLS_P4 & m, a->l[4], &br);
    r->l[5] = bls_sbb(BLS_P5 & m, a->l[5], &br);
}

/* r = a / 2. */
GROVE_INLINE void fp_half(fp *r, const fp *a)
{
    uint64_t m = 0 - (a->l[0] & 1), c = 0, t0, t1, t2, t3, t4, t5;
    t0 = bls_adc(a->l[0], BLS_P0 & m, &c);
    t1 = bls_adc(a->l[1], BLS_P1 & m, &c);
    t2 = bls_adc(a->l[2], BLS_P2 & m, &c);
    t3 = bls_adc(a->l[3], BLS_P3 & m, &c);
    t4 = bls_adc(a->l[4], BLS_P4 & m, &c);
    t5 = bls_adc(a->l[5], BLS_P5 & m, &c);
    r->l[0] = (t0 >> 1) | (t1 << 63);
    r->l[1] = (t1 >> 1) | (t2 << 63);
    r->l[2] = (t2 >> 1) | (t3 << 63);
    r->l[3] = (t3 >> 1) | (t4 << 63);
    r->l[4] = (t4 >> 1) | (t5 << 63);
    r->l[5] = t5 >> 1;
}

/* One CIOS round without the final carry word: t = (t + a*bi + m*p) / 2^64. */
#define BLS_FP_MUL_ROUND(bi)                                                                \
    do {                                                                                    \
        uint64_t A_, C_, m_;                                                                \
        bls_u128 uv_;                                                                       \
        uv_ = (bls_u128)a0 * (bi) + t0;                                                     \
        t0 = (uint64_t)uv_;                                                                 \
        A_ = (uint64_t)(uv_ >> 64);                                                         \
        m_ = t0 * BLS_P_N0;                                                                 \
        uv_ = (bls_u128)m_ * BLS_P0 + t0;                                                   \
        C_ = (uint64_t)(uv_ >> 64);                                                         \
        uv_ = (bls_u128)a1 * (bi) + t1 + A_;                                                \
        t1 = (uint64_t)uv_;                                                                 \
        A_ = (uint64_t)(uv_ >> 64);                                                         \
        uv_ = (bls_u128)m_ * BLS_P1 + t1 + C_;                                              \
        t0 = (uint64_t)uv_;                                                                 \
        C_ = (uint64_t)(uv_ >> 64);                                                         \
        uv_ = (bls_u128)a2 * (bi) + t2 + A_;                                                \
        t2 = (uint64_t)uv_;                                                                 \
        A_ = (uint64_t)(uv_ >> 64);                                                         \
        uv_ = (bls_u128)m_ * BLS_P2 + t2 + C_;                                              \
        t1 = (uint64_t)uv_;                                                                 \
        C_ = (uint64_t)(uv_ >> 64);                                                         \
        uv_ = (bls_u128)a3 * (bi) + t3 + A_;                                                \
        t3 = (uint64_t)uv_;                                                                 \
        A_ = (uint64_t)(uv_ >> 64);                                                         \
        uv_ = (bls_u128)m_ * BLS_P3 + t3 + C_;                                              \
        t2 = (uint64_t)uv_;                                                                 \
        C_ = (uint64_t)(uv_ >> 64);                                                         \
        uv_ = (bls_u128)a4 * (bi) + t4 + A_;                                                \
        t4 = (uint64_t)uv_;                                                                 \
        A_ = (uint64_t)(uv_ >> 64);                                                         \
        uv_ = (bls_u128)m_ * BLS_P4 + t4 + C_;                                              \
        t3 = (uint64_t)uv_;                                                                 \
        C_ = (uint64_t)(uv_ >> 64);                                                         \
        uv_ = (bls_u128)a5 * (bi) + t5 + A_;                                                \
        t5 = (uint64_t)uv_;                                                                 \
        A_ = (uint64_t)(uv_ >> 64);                                                         \
        uv_ = (bls_u128)m_ * BLS_P5 + t5 + C_;                                              \
        t4 = (uint64_t)uv_;                                                                 \
        C_ = (uint64_t)(uv_ >> 64);                                                         \
        t5 = C_ + A_;                                                                       \
    } while (0)

/*
 * r = a * b / R mod p. a must be < p; b may be any 6-limb value (the running sum stays < 2p
 * because only a is multiplied in full). The result is < p.
 */
GROVE_INLINE void fp_mul(fp *r, const fp *a, const fp *b)
{
    const uint64_t a0 = a->l[0], a1 = a->l[1], a2 = a->l[2], a3 = a->l[3], a4 = a->l[4],
                   a5 = a->l[5];
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0;
    BLS_FP_MUL_ROUND(b->l[0]);
    BLS_FP_MUL_ROUND(b->l[1]);
    BLS_FP_MUL_ROUND(b->l[2]);
    BLS_FP_MUL_ROUND(b->l[3]);
    BLS_FP_MUL_ROUND(b->l[4]);
    BLS_FP_MUL_ROUND(b->l[5]);
    fp_reduce_once(r, t0, t1, t2, t3, t4, t5);
}

GROVE_INLINE void fp_sqr(fp *r, const fp *a)
{
    fp_mul(r, a, a);
}

/* ---- small helpers ------------------------------------------------------------------------ */
GROVE_INLINE void fp_set_zero(fp *r)
{
    memset(r, 0, sizeof *r);
}

/* All-ones if a == 0 else 0. */
GROVE_INLINE uint64_t fp_is_zero_mask(const fp *a)
{
    return grove_ct_is_zero64(a->l[0] | a->l[1] | a->l[2] | a->l[3] | a->l[4] | a->l[5]);
}
/* All-ones if a == b else 0. */
GROVE_INLINE uint64_t fp_eq_mask(const fp *a, const fp *b)
{
    return grove_ct_is_zero64((a->l[0] ^ b->l[0]) | (a->l[1] ^ b->l[1]) | (a->l[2] ^ b->l[2]) |
                              (a->l[3] ^ b->l[3]) | (a->l[4] ^ b->l[4]) | (a->l[5] ^ b->l[5]));
}
GROVE_INLINE int fp_is_zero(const fp *a)
{
    return (int)(fp_is_zero_mask(a) & 1);
}
GROVE_INLINE int fp_eq(const fp *a, const fp *b)
{
    return (int)(fp_eq_mask(a, b) & 1);
}

/* r = mask ? a : r, for mask all-ones or zero. */
GROVE_INLINE void fp_cmov(fp *r, const fp *a, uint64_t mask)
{
    for (int i = 0; i < 6; i++)
        r->l[i] ^= mask & (r->l[i] ^ a->l[i]);
}

/* r = 3a, 4a, 8a. */
GROVE_INLINE void fp_mul3(fp *r, const fp *a)
{
    fp t;
    fp_add(&t, a, a);
    fp_add(r, &t, a);
}
GROVE_INLINE void fp_mul4(fp *r, const fp *a)
{
    fp_add(r, a, a);
    fp_add(r, r, r);
}
GROVE_INLINE void fp_mul8(fp *r, const fp *a)
{
    fp_add(r, a, a);
    fp_add(r, r, r);
    fp_add(r, r, r);
}

/* ---- out-of-line (fp.c) ------------------------------------------------------------------ */

/* r = a^e for a public exponent of nlimbs little-endian 64-bit limbs (time depends on e only). */
void fp_pow(fp *r, const fp *a, const uint64_t *e, size_t nlimbs);
/* r = 1/a (0 gives 0). Constant time. */
void fp_inv(fp *r, const fp *a);
/* Same result, faster, time depends on a: only for public values. */
void fp_inv_vartime(fp *r, const fp *a);
/* r = sqrt(a) if a is a square (returns 1), else returns 0 and r is unspecified. Constant time. */
int fp_sqrt(fp *r, const fp *a);
/* 1 if a is a nonzero square or zero, 0 otherwise. Constant time. */
int fp_is_square(const fp *a);
/* Montgomery form <-> plain integer limbs. */
void fp_to_mont(fp *r, const fp *a);
void fp_from_mont(fp *r, const fp *a);
void fp_from_u64(fp *r, uint64_t v);
/* Big-endian 48 bytes. from_bytes returns 0 if the integer is >= p (r untouched then). */
int fp_from_bytes(fp *r, const uint8_t in[48]);
void fp_to_bytes(uint8_t out[48], const fp *a);
/* r = OS2IP(in[0..len)) mod p for len <= 96 (hash_to_field uses 64). Constant time. */
void fp_from_bytes_wide(fp *r, const uint8_t *in, size_t len);
/* sgn0 (RFC 9380): parity of the canonical integer. */
int fp_sgn0(const fp *a);
/* 1 if the canonical integer of a is > (p-1)/2 ("lexicographically largest", ZCash sort bit). */
int fp_is_lexicographically_largest(const fp *a);

#endif
