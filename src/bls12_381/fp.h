/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The base field Fp of BLS12-381, p = 0x1a0111ea...ffffaaab (381 bits).
 *
 * Elements are 6 little-endian 64-bit limbs in Montgomery form (a*R mod p, R = 2^384), always
 * fully reduced (< p). Every function here runs in time independent of the values, except the
 * ones whose name ends in _vartime.
 *
 * Three implementations of the products (fp_mul, fp_mul_wide, fp_redc) give the same results
 * (R = 2^384 whatever the word size), and the elements keep their 64-bit limbs on every path:
 *  - 64-bit limbs with unsigned __int128 products (product-scanning Montgomery multiplication
 *    with a three-word accumulator): the portable default;
 *  - 32-bit limbs with 64-bit products (fp_limb32.c), for compilers without unsigned __int128
 *    (32-bit targets, MSVC): chosen automatically, or forced with GROVE_BLS_LIMB32=1 (CMake
 *    option GROVE_BLS_LIMB32); the field then uses no 128-bit type at all;
 *  - x86-64 BMI2+ADX (mulx/adcx/adox, fp_x86.c), chosen once at run time from the CPU
 *    features (GROVE_CPU=portable or baseline keep the portable C); built on x86-64 ELF
 *    targets with GCC or clang unless GROVE_BLS_NO_ASM is defined.
 */
#ifndef GROVE_BLS12_381_FP_H
#define GROVE_BLS12_381_FP_H

#include <stddef.h>
#include <stdint.h>

#include "common/util.h"

#ifndef GROVE_BLS_LIMB32
#if defined(__SIZEOF_INT128__)
#define GROVE_BLS_LIMB32 0
#else
#define GROVE_BLS_LIMB32 1
#endif
#endif

/* the mulx code is built on every x86-64 ELF target; fp_mul uses it only with 64-bit limbs */
#if !defined(GROVE_BLS_NO_ASM) && defined(__x86_64__) && defined(__ELF__) &&                     \
    (defined(__GNUC__) || defined(__clang__))
#define GROVE_BLS_MULX_BUILT 1
#else
#define GROVE_BLS_MULX_BUILT 0
#endif
#if GROVE_BLS_MULX_BUILT && !GROVE_BLS_LIMB32
#define GROVE_BLS_MULX 1
#else
#define GROVE_BLS_MULX 0
#endif

#if defined(__SIZEOF_INT128__)
/* for code above the field that still uses it; the field needs it only when !GROVE_BLS_LIMB32 */
__extension__ typedef unsigned __int128 bls_u128;
#endif

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
#if GROVE_BLS_LIMB32
/*
 * Without a 128-bit type: carry and borrow out of a 64-bit addition/subtraction with a 0/1
 * carry in, from the top bits of the operands and the result (Hacker's Delight 2-13), no
 * comparison (compilers may branch on those on 32-bit targets).
 */
GROVE_INLINE uint64_t bls_carry64(uint64_t a, uint64_t b, uint64_t s)
{
    return ((a & b) | ((a | b) & ~s)) >> 63;
}
GROVE_INLINE uint64_t bls_borrow64(uint64_t a, uint64_t b, uint64_t d)
{
    return ((~a & b) | ((~a | b) & d)) >> 63;
}
/* Generic (slow-path) helpers with a 0/1 carry in a uint64_t. */
GROVE_INLINE uint64_t bls_adc(uint64_t a, uint64_t b, uint64_t *carry)
{
    uint64_t s = a + b + *carry;
    *carry = bls_carry64(a, b, s);
    return s;
}
GROVE_INLINE uint64_t bls_sbb(uint64_t a, uint64_t b, uint64_t *borrow)
{
    uint64_t d = a - b - *borrow;
    *borrow = bls_borrow64(a, b, d);
    return d;
}
#else
/* Generic (slow-path) helpers with a 0/1 carry in a uint64_t. */
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
#endif

/*
 * (hi, lo) = a b + c + d, which always fits in 128 bits: for code above the field that must
 * also build without unsigned __int128 (fr.c's Montgomery multiplication, for instance).
 */
GROVE_INLINE uint64_t bls_mac64(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t *hi)
{
#if GROVE_BLS_LIMB32
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10; /* < 3 * 2^32 */
    uint64_t lo = (mid << 32) | (uint32_t)p00, cy = 0;
    uint64_t h = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    lo = bls_adc(lo, c, &cy);
    h += cy;
    cy = 0;
    lo = bls_adc(lo, d, &cy);
    *hi = h + cy;
    return lo;
#else
    bls_u128 t = (bls_u128)a * b + c + d;
    *hi = (uint64_t)(t >> 64);
    return (uint64_t)t;
#endif
}

/*
 * Hot-path carry chains. In optimized x86-64 builds the compilers' _addcarry_u64 /
 * _subborrow_u64 intrinsics (baseline x86-64, no target options) give add/adc and sub/sbb
 * chains; elsewhere, and in unoptimized (debug, sanitizer) builds where the intrinsic chains
 * are several times slower, the same operations are written with unsigned __int128 - so the
 * sanitizer test run exercises the portable code - or, on the 32-bit-limb path, with the
 * carry formulas above.
 */
#if defined(__OPTIMIZE__) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !GROVE_BLS_LIMB32
#include <x86intrin.h>
typedef unsigned char bls_cy;
GROVE_INLINE bls_cy bls_addc(bls_cy c, uint64_t a, uint64_t b, uint64_t *r)
{
    unsigned long long o;
    c = _addcarry_u64(c, a, b, &o);
    *r = o;
    return c;
}
GROVE_INLINE bls_cy bls_subb(bls_cy c, uint64_t a, uint64_t b, uint64_t *r)
{
    unsigned long long o;
    c = _subborrow_u64(c, a, b, &o);
    *r = o;
    return c;
}
#elif !GROVE_BLS_LIMB32
typedef uint64_t bls_cy;
GROVE_INLINE bls_cy bls_addc(bls_cy c, uint64_t a, uint64_t b, uint64_t *r)
{
    bls_u128 t = (bls_u128)a + b + c;
    *r = (uint64_t)t;
    return (bls_cy)(t >> 64);
}
GROVE_INLINE bls_cy bls_subb(bls_cy c, uint64_t a, uint64_t b, uint64_t *r)
{
    bls_u128 t = (bls_u128)a - b - c;
    *r = (uint64_t)t;
    return (bls_cy)(t >> 127);
}
#else
typedef uint64_t bls_cy;
GROVE_INLINE bls_cy bls_addc(bls_cy c, uint64_t a, uint64_t b, uint64_t *r)
{
    uint64_t s = a + b + c;
    *r = s;
    return bls_carry64(a, b, s);
}
GROVE_INLINE bls_cy bls_subb(bls_cy c, uint64_t a, uint64_t b, uint64_t *r)
{
    uint64_t d = a - b - c;
    *r = d;
    return bls_borrow64(a, b, d);
}
#endif

/* ---- the three product kernels ------------------------------------------------------------ */
/* 32-bit limbs (fp_limb32.c; always built, so that the tests compare it on every target) */
void bls_fp_mul_limb32(fp *r, const fp *a, const fp *b);
void bls_fp_mul_wide_limb32(fp_wide *r, const fp *a, const fp *b);
void bls_fp_redc_limb32(fp *r, const fp_wide *t);
/*
 * mulx/adcx/adox (fp_x86.c). bls_fp_mul_mulx needs its FIRST operand below 2p (the second may
 * be any 6-limb value) besides a b < p R: every caller multiplies field elements or passes
 * the unreduced value second (fp.c's conversions).
 */
#if GROVE_BLS_MULX_BUILT
extern unsigned char bls_fp_mulx_on; /* set once at load time from the CPU features */
void bls_fp_mul_mulx(fp *r, const fp *a, const fp *b);
void bls_fp_mul_wide_mulx(fp_wide *r, const fp *a, const fp *b);
void bls_fp_redc_mulx(fp *r, const fp_wide *t);
#endif
#if GROVE_BLS_MULX
/*
 * With the mulx path built, fp_mul and friends call out of line on both paths: a branch
 * between a call and a large inlined body made the compilers allocate registers badly around
 * every multiplication (fp2_pow of the portable path took 50% more instructions).
 */
void bls_fp_mul_portable_call(fp *r, const fp *a, const fp *b);
void bls_fp_mul_wide_portable_call(fp_wide *r, const fp *a, const fp *b);
void bls_fp_redc_portable_call(fp *r, const fp_wide *t);
#endif
/* 1 if this CPU can run the mulx path (ignores GROVE_CPU); 0 where it is not built. */
int bls_fp_mulx_available(void);
/* "mulx-adx", "portable-64" or "portable-32": the path fp_mul takes in this process. */
const char *bls_fp_path(void);

#if !GROVE_BLS_LIMB32
/* (acc2:acc1:acc0) += x * y, the step of product-scanning multiplication. */
#define BLS_MULACC(x, y)                                                                    \
    do {                                                                                    \
        bls_u128 p_ = (bls_u128)(x) * (y);                                                  \
        bls_cy c_ = bls_addc(0, acc0, (uint64_t)p_, &acc0);                                 \
        c_ = bls_addc(c_, acc1, (uint64_t)(p_ >> 64), &acc1);                               \
        (void)bls_addc(c_, acc2, 0, &acc2);                                                 \
    } while (0)
/* shift the accumulator one word down */
#define BLS_ACC_SHIFT()                                                                     \
    do {                                                                                    \
        acc0 = acc1;                                                                        \
        acc1 = acc2;                                                                        \
        acc2 = 0;                                                                           \
    } while (0)
#endif /* !GROVE_BLS_LIMB32 */

/* r = t - p if t >= p else t, for t < 2p held in 6 limbs. */
GROVE_INLINE void fp_reduce_once(fp *r, uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3,
                                 uint64_t t4, uint64_t t5)
{
    uint64_t s0, s1, s2, s3, s4, s5, m;
    bls_cy b = 0;
    b = bls_subb(b, t0, BLS_P0, &s0);
    b = bls_subb(b, t1, BLS_P1, &s1);
    b = bls_subb(b, t2, BLS_P2, &s2);
    b = bls_subb(b, t3, BLS_P3, &s3);
    b = bls_subb(b, t4, BLS_P4, &s4);
    b = bls_subb(b, t5, BLS_P5, &s5);
    m = 0 - (uint64_t)b; /* all ones: t < p, keep t */
    r->l[0] = (t0 & m) | (s0 & ~m);
    r->l[1] = (t1 & m) | (s1 & ~m);
    r->l[2] = (t2 & m) | (s2 & ~m);
    r->l[3] = (t3 & m) | (s3 & ~m);
    r->l[4] = (t4 & m) | (s4 & ~m);
    r->l[5] = (t5 & m) | (s5 & ~m);
}

GROVE_INLINE void fp_add(fp *r, const fp *a, const fp *b)
{
    uint64_t t0, t1, t2, t3, t4, t5;
    bls_cy c = 0;
    c = bls_addc(c, a->l[0], b->l[0], &t0);
    c = bls_addc(c, a->l[1], b->l[1], &t1);
    c = bls_addc(c, a->l[2], b->l[2], &t2);
    c = bls_addc(c, a->l[3], b->l[3], &t3);
    c = bls_addc(c, a->l[4], b->l[4], &t4);
    (void)bls_addc(c, a->l[5], b->l[5], &t5);
    fp_reduce_once(r, t0, t1, t2, t3, t4, t5);
}

/* r = a + b without reduction (< 2p): only as an input of fp_mul / fp_mul_wide. */
GROVE_INLINE void fp_add_nr(fp *r, const fp *a, const fp *b)
{
    bls_cy c = 0;
    c = bls_addc(c, a->l[0], b->l[0], &r->l[0]);
    c = bls_addc(c, a->l[1], b->l[1], &r->l[1]);
    c = bls_addc(c, a->l[2], b->l[2], &r->l[2]);
    c = bls_addc(c, a->l[3], b->l[3], &r->l[3]);
    c = bls_addc(c, a->l[4], b->l[4], &r->l[4]);
    (void)bls_addc(c, a->l[5], b->l[5], &r->l[5]);
}

GROVE_INLINE void fp_dbl(fp *r, const fp *a)
{
    fp_add(r, a, a);
}

GROVE_INLINE void fp_sub(fp *r, const fp *a, const fp *b)
{
    uint64_t t0, t1, t2, t3, t4, t5, m;
    bls_cy br = 0, c = 0;
    br = bls_subb(br, a->l[0], b->l[0], &t0);
    br = bls_subb(br, a->l[1], b->l[1], &t1);
    br = bls_subb(br, a->l[2], b->l[2], &t2);
    br = bls_subb(br, a->l[3], b->l[3], &t3);
    br = bls_subb(br, a->l[4], b->l[4], &t4);
    br = bls_subb(br, a->l[5], b->l[5], &t5);
    m = 0 - (uint64_t)br; /* add p back if a < b */
    c = bls_addc(c, t0, BLS_P0 & m, &r->l[0]);
    c = bls_addc(c, t1, BLS_P1 & m, &r->l[1]);
    c = bls_addc(c, t2, BLS_P2 & m, &r->l[2]);
    c = bls_addc(c, t3, BLS_P3 & m, &r->l[3]);
    c = bls_addc(c, t4, BLS_P4 & m, &r->l[4]);
    (void)bls_addc(c, t5, BLS_P5 & m, &r->l[5]);
}

/* r = a - b + p without reduction (< 2p): only as an input of fp_mul / fp_mul_wide. */
GROVE_INLINE void fp_sub_nr(fp *r, const fp *a, const fp *b)
{
    uint64_t t0, t1, t2, t3, t4, t5;
    bls_cy c = 0, br = 0;
    c = bls_addc(c, a->l[0], BLS_P0, &t0);
    c = bls_addc(c, a->l[1], BLS_P1, &t1);
    c = bls_addc(c, a->l[2], BLS_P2, &t2);
    c = bls_addc(c, a->l[3], BLS_P3, &t3);
    c = bls_addc(c, a->l[4], BLS_P4, &t4);
    (void)bls_addc(c, a->l[5], BLS_P5, &t5);
    br = bls_subb(br, t0, b->l[0], &r->l[0]);
    br = bls_subb(br, t1, b->l[1], &r->l[1]);
    br = bls_subb(br, t2, b->l[2], &r->l[2]);
    br = bls_subb(br, t3, b->l[3], &r->l[3]);
    br = bls_subb(br, t4, b->l[4], &r->l[4]);
    (void)bls_subb(br, t5, b->l[5], &r->l[5]);
}

/* r = -a (0 stays 0). */
GROVE_INLINE void fp_neg(fp *r, const fp *a)
{
    uint64_t nz = a->l[0] | a->l[1] | a->l[2] | a->l[3] | a->l[4] | a->l[5];
    uint64_t m = 0 - ((nz | (0 - nz)) >> 63); /* all ones iff a != 0 */
    bls_cy br = 0;
    br = bls_subb(br, BLS_P0 & m, a->l[0], &r->l[0]);
    br = bls_subb(br, BLS_P1 & m, a->l[1], &r->l[1]);
    br = bls_subb(br, BLS_P2 & m, a->l[2], &r->l[2]);
    br = bls_subb(br, BLS_P3 & m, a->l[3], &r->l[3]);
    br = bls_subb(br, BLS_P4 & m, a->l[4], &r->l[4]);
    (void)bls_subb(br, BLS_P5 & m, a->l[5], &r->l[5]);
}

/* r = a / 2. */
GROVE_INLINE void fp_half(fp *r, const fp *a)
{
    uint64_t m = 0 - (a->l[0] & 1), t0, t1, t2, t3, t4, t5;
    bls_cy c = 0;
    c = bls_addc(c, a->l[0], BLS_P0 & m, &t0);
    c = bls_addc(c, a->l[1], BLS_P1 & m, &t1);
    c = bls_addc(c, a->l[2], BLS_P2 & m, &t2);
    c = bls_addc(c, a->l[3], BLS_P3 & m, &t3);
    c = bls_addc(c, a->l[4], BLS_P4 & m, &t4);
    (void)bls_addc(c, a->l[5], BLS_P5 & m, &t5);
    r->l[0] = (t0 >> 1) | (t1 << 63);
    r->l[1] = (t1 >> 1) | (t2 << 63);
    r->l[2] = (t2 >> 1) | (t3 << 63);
    r->l[3] = (t3 >> 1) | (t4 << 63);
    r->l[4] = (t4 >> 1) | (t5 << 63);
    r->l[5] = t5 >> 1;
}

/*
 * Montgomery multiplication in product-scanning form (Koc's FIPS): column k accumulates
 * a_i b_j and m_i p_j for i + j = k in a three-word accumulator; m_k is chosen to clear the
 * low word of column k < 6; columns 6..11 are the result.
 */
#define BLS_FIPS_COL(k)                                                                     \
    do {                                                                                    \
        BLS_FIPS_PAIRS_##k;                                                                 \
    } while (0)
#define BLS_AB(i, j) BLS_MULACC(a##i, b##j)
/* p's limbs from memory: the products then take a memory operand (no immediate loads) */
extern const uint64_t bls_p_limbs[6];
#define BLS_MP(i, j) BLS_MULACC(m##i, bls_p_limbs[j])
#define BLS_FIPS_PAIRS_0 BLS_AB(0, 0)
#define BLS_FIPS_PAIRS_1 BLS_AB(0, 1); BLS_MP(0, 1); BLS_AB(1, 0)
#define BLS_FIPS_PAIRS_2 BLS_AB(0, 2); BLS_MP(0, 2); BLS_AB(1, 1); BLS_MP(1, 1); BLS_AB(2, 0)
#define BLS_FIPS_PAIRS_3                                                                    \
    BLS_AB(0, 3); BLS_MP(0, 3); BLS_AB(1, 2); BLS_MP(1, 2); BLS_AB(2, 1); BLS_MP(2, 1);      \
    BLS_AB(3, 0)
#define BLS_FIPS_PAIRS_4                                                                    \
    BLS_AB(0, 4); BLS_MP(0, 4); BLS_AB(1, 3); BLS_MP(1, 3); BLS_AB(2, 2); BLS_MP(2, 2);      \
    BLS_AB(3, 1); BLS_MP(3, 1); BLS_AB(4, 0)
#define BLS_FIPS_PAIRS_5                                                                    \
    BLS_AB(0, 5); BLS_MP(0, 5); BLS_AB(1, 4); BLS_MP(1, 4); BLS_AB(2, 3); BLS_MP(2, 3);      \
    BLS_AB(3, 2); BLS_MP(3, 2); BLS_AB(4, 1); BLS_MP(4, 1); BLS_AB(5, 0)
#define BLS_FIPS_PAIRS_6                                                                    \
    BLS_AB(1, 5); BLS_MP(1, 5); BLS_AB(2, 4); BLS_MP(2, 4); BLS_AB(3, 3); BLS_MP(3, 3);      \
    BLS_AB(4, 2); BLS_MP(4, 2); BLS_AB(5, 1); BLS_MP(5, 1)
#define BLS_FIPS_PAIRS_7                                                                    \
    BLS_AB(2, 5); BLS_MP(2, 5); BLS_AB(3, 4); BLS_MP(3, 4); BLS_AB(4, 3); BLS_MP(4, 3);      \
    BLS_AB(5, 2); BLS_MP(5, 2)
#define BLS_FIPS_PAIRS_8                                                                    \
    BLS_AB(3, 5); BLS_MP(3, 5); BLS_AB(4, 4); BLS_MP(4, 4); BLS_AB(5, 3); BLS_MP(5, 3)
#define BLS_FIPS_PAIRS_9 BLS_AB(4, 5); BLS_MP(4, 5); BLS_AB(5, 4); BLS_MP(5, 4)
#define BLS_FIPS_PAIRS_10 BLS_AB(5, 5); BLS_MP(5, 5)
/* finish column k < 6: pick m_k, add m_k p_0, shift */
#define BLS_FIPS_M(k)                                                                       \
    do {                                                                                    \
        m##k = acc0 * BLS_P_N0;                                                             \
        BLS_MULACC(m##k, BLS_P0);                                                           \
        BLS_ACC_SHIFT();                                                                    \
    } while (0)

#if !GROVE_BLS_LIMB32
/*
 * r = a * b / R mod p whenever a b < p R: both operands < 2p (sums of two reduced elements,
 * a b < 4p^2 < pR), or one < p and the other any 6-limb value. The result is < p.
 */
GROVE_INLINE void fp_mul_portable(fp *r, const fp *a, const fp *b)
{
    const uint64_t a0 = a->l[0], a1 = a->l[1], a2 = a->l[2], a3 = a->l[3], a4 = a->l[4],
                   a5 = a->l[5];
    const uint64_t b0 = b->l[0], b1 = b->l[1], b2 = b->l[2], b3 = b->l[3], b4 = b->l[4],
                   b5 = b->l[5];
    uint64_t m0, m1, m2, m3, m4, m5, t0, t1, t2, t3, t4;
    uint64_t acc0 = 0, acc1 = 0, acc2 = 0;
    BLS_FIPS_COL(0);
    BLS_FIPS_M(0);
    BLS_FIPS_COL(1);
    BLS_FIPS_M(1);
    BLS_FIPS_COL(2);
    BLS_FIPS_M(2);
    BLS_FIPS_COL(3);
    BLS_FIPS_M(3);
    BLS_FIPS_COL(4);
    BLS_FIPS_M(4);
    BLS_FIPS_COL(5);
    BLS_FIPS_M(5);
    BLS_FIPS_COL(6);
    t0 = acc0;
    BLS_ACC_SHIFT();
    BLS_FIPS_COL(7);
    t1 = acc0;
    BLS_ACC_SHIFT();
    BLS_FIPS_COL(8);
    t2 = acc0;
    BLS_ACC_SHIFT();
    BLS_FIPS_COL(9);
    t3 = acc0;
    BLS_ACC_SHIFT();
    BLS_FIPS_COL(10);
    t4 = acc0;
    fp_reduce_once(r, t0, t1, t2, t3, t4, acc1);
}

#endif /* !GROVE_BLS_LIMB32 */

/*
 * r = a * b / R mod p whenever a b < p R: both operands < 2p (sums of two reduced elements,
 * a b < 4p^2 < pR), or the first < p and the second any 6-limb value. The result is < p.
 */
GROVE_INLINE void fp_mul(fp *r, const fp *a, const fp *b)
{
#if GROVE_BLS_MULX
    if (bls_fp_mulx_on)
        bls_fp_mul_mulx(r, a, b);
    else
        bls_fp_mul_portable_call(r, a, b);
#elif GROVE_BLS_LIMB32
    bls_fp_mul_limb32(r, a, b);
#else
    fp_mul_portable(r, a, b);
#endif
}

GROVE_INLINE void fp_sqr(fp *r, const fp *a)
{
    fp_mul(r, a, a);
}

/* ---- double-width values for lazy reduction ----------------------------------------------- */

#if !GROVE_BLS_LIMB32
/* add word w at the bottom of the accumulator */
#define BLS_ACC_ADDW(w)                                                                     \
    do {                                                                                    \
        bls_cy c_ = bls_addc(0, acc0, (w), &acc0);                                          \
        c_ = bls_addc(c_, acc1, 0, &acc1);                                                  \
        (void)bls_addc(c_, acc2, 0, &acc2);                                                 \
    } while (0)

/* r = a * b (12 limbs), any a, b < 2^384 (Comba). */
GROVE_INLINE void fp_mul_wide_portable(fp_wide *r, const fp *a, const fp *b)
{
    const uint64_t a0 = a->l[0], a1 = a->l[1], a2 = a->l[2], a3 = a->l[3], a4 = a->l[4],
                   a5 = a->l[5];
    const uint64_t b0 = b->l[0], b1 = b->l[1], b2 = b->l[2], b3 = b->l[3], b4 = b->l[4],
                   b5 = b->l[5];
    uint64_t acc0 = 0, acc1 = 0, acc2 = 0;
    BLS_AB(0, 0);
    r->l[0] = acc0;
    BLS_ACC_SHIFT();
    BLS_AB(0, 1); BLS_AB(1, 0);
    r->l[1] = acc0;
    BLS_ACC_SHIFT();
    BLS_AB(0, 2); BLS_AB(1, 1); BLS_AB(2, 0);
    r->l[2] = acc0;
    BLS_ACC_SHIFT();
    BLS_AB(0, 3); BLS_AB(1, 2); BLS_AB(2, 1); BLS_AB(3, 0);
    r->l[3] = acc0;
    BLS_ACC_SHIFT();
    BLS_AB(0, 4); BLS_AB(1, 3); BLS_AB(2, 2); BLS_AB(3, 1); BLS_AB(4, 0);
    r->l[4] = acc0;
    BLS_ACC_SHIFT();
    BLS_AB(0, 5); BLS_AB(1, 4); BLS_AB(2, 3); BLS_AB(3, 2); BLS_AB(4, 1); BLS_AB(5, 0);
    r->l[5] = acc0;
    BLS_ACC_SHIFT();
    BLS_AB(1, 5); BLS_AB(2, 4); BLS_AB(3, 3); BLS_AB(4, 2); BLS_AB(5, 1);
    r->l[6] = acc0;
    BLS_ACC_SHIFT();
    BLS_AB(2, 5); BLS_AB(3, 4); BLS_AB(4, 3); BLS_AB(5, 2);
    r->l[7] = acc0;
    BLS_ACC_SHIFT();
    BLS_AB(3, 5); BLS_AB(4, 4); BLS_AB(5, 3);
    r->l[8] = acc0;
    BLS_ACC_SHIFT();
    BLS_AB(4, 5); BLS_AB(5, 4);
    r->l[9] = acc0;
    BLS_ACC_SHIFT();
    BLS_AB(5, 5);
    r->l[10] = acc0;
    r->l[11] = acc1;
}

/* r = t / R mod p for t < p R (Montgomery reduction, product scanning); r < p. */
GROVE_INLINE void fp_redc_portable(fp *r, const fp_wide *t)
{
    uint64_t m0, m1, m2, m3, m4, m5, r0, r1, r2, r3, r4;
    uint64_t acc0 = t->l[0], acc1 = 0, acc2 = 0;
    BLS_FIPS_M(0);
    BLS_ACC_ADDW(t->l[1]);
    BLS_MP(0, 1);
    BLS_FIPS_M(1);
    BLS_ACC_ADDW(t->l[2]);
    BLS_MP(0, 2); BLS_MP(1, 1);
    BLS_FIPS_M(2);
    BLS_ACC_ADDW(t->l[3]);
    BLS_MP(0, 3); BLS_MP(1, 2); BLS_MP(2, 1);
    BLS_FIPS_M(3);
    BLS_ACC_ADDW(t->l[4]);
    BLS_MP(0, 4); BLS_MP(1, 3); BLS_MP(2, 2); BLS_MP(3, 1);
    BLS_FIPS_M(4);
    BLS_ACC_ADDW(t->l[5]);
    BLS_MP(0, 5); BLS_MP(1, 4); BLS_MP(2, 3); BLS_MP(3, 2); BLS_MP(4, 1);
    BLS_FIPS_M(5);
    BLS_ACC_ADDW(t->l[6]);
    BLS_MP(1, 5); BLS_MP(2, 4); BLS_MP(3, 3); BLS_MP(4, 2); BLS_MP(5, 1);
    r0 = acc0;
    BLS_ACC_SHIFT();
    BLS_ACC_ADDW(t->l[7]);
    BLS_MP(2, 5); BLS_MP(3, 4); BLS_MP(4, 3); BLS_MP(5, 2);
    r1 = acc0;
    BLS_ACC_SHIFT();
    BLS_ACC_ADDW(t->l[8]);
    BLS_MP(3, 5); BLS_MP(4, 4); BLS_MP(5, 3);
    r2 = acc0;
    BLS_ACC_SHIFT();
    BLS_ACC_ADDW(t->l[9]);
    BLS_MP(4, 5); BLS_MP(5, 4);
    r3 = acc0;
    BLS_ACC_SHIFT();
    BLS_ACC_ADDW(t->l[10]);
    BLS_MP(5, 5);
    r4 = acc0;
    BLS_ACC_SHIFT();
    BLS_ACC_ADDW(t->l[11]);
    fp_reduce_once(r, r0, r1, r2, r3, r4, acc0);
}

#endif /* !GROVE_BLS_LIMB32 */

/* r = a * b (12 limbs), any a, b < 2^384. */
GROVE_INLINE void fp_mul_wide(fp_wide *r, const fp *a, const fp *b)
{
#if GROVE_BLS_MULX
    if (bls_fp_mulx_on)
        bls_fp_mul_wide_mulx(r, a, b);
    else
        bls_fp_mul_wide_portable_call(r, a, b);
#elif GROVE_BLS_LIMB32
    bls_fp_mul_wide_limb32(r, a, b);
#else
    fp_mul_wide_portable(r, a, b);
#endif
}

/* r = t / R mod p for t < p R; r < p. */
GROVE_INLINE void fp_redc(fp *r, const fp_wide *t)
{
#if GROVE_BLS_MULX
    if (bls_fp_mulx_on)
        bls_fp_redc_mulx(r, t);
    else
        bls_fp_redc_portable_call(r, t);
#elif GROVE_BLS_LIMB32
    bls_fp_redc_limb32(r, t);
#else
    fp_redc_portable(r, t);
#endif
}

/* r = a + b (12 limbs, no reduction; the caller keeps the sum below 2^768). */
GROVE_INLINE void fp_wide_add(fp_wide *r, const fp_wide *a, const fp_wide *b)
{
    bls_cy c = 0;
    for (int i = 0; i < 12; i++)
        c = bls_addc(c, a->l[i], b->l[i], &r->l[i]);
}

/* r = a - b for a >= b. */
GROVE_INLINE void fp_wide_sub(fp_wide *r, const fp_wide *a, const fp_wide *b)
{
    bls_cy c = 0;
    for (int i = 0; i < 12; i++)
        c = bls_subb(c, a->l[i], b->l[i], &r->l[i]);
}

/* r = a + b mod p R for a, b < p R (subtracts p R when the sum reaches it); r < p R. */
GROVE_INLINE void fp_wide_add_mod(fp_wide *r, const fp_wide *a, const fp_wide *b)
{
    uint64_t t[12], u[6], m;
    bls_cy c = 0, br = 0;
    for (int i = 0; i < 12; i++)
        c = bls_addc(c, a->l[i], b->l[i], &t[i]);
    br = bls_subb(br, t[6], BLS_P0, &u[0]);
    br = bls_subb(br, t[7], BLS_P1, &u[1]);
    br = bls_subb(br, t[8], BLS_P2, &u[2]);
    br = bls_subb(br, t[9], BLS_P3, &u[3]);
    br = bls_subb(br, t[10], BLS_P4, &u[4]);
    br = bls_subb(br, t[11], BLS_P5, &u[5]);
    m = 0 - (uint64_t)br; /* all ones: the sum is below p R */
    for (int i = 0; i < 6; i++) {
        r->l[i] = t[i];
        r->l[6 + i] = (t[6 + i] & m) | (u[i] & ~m);
    }
}

/* r = a - b mod p R for a, b < p R (adds p R when a < b); r < p R. */
GROVE_INLINE void fp_wide_sub_mod(fp_wide *r, const fp_wide *a, const fp_wide *b)
{
    bls_cy c = 0;
    for (int i = 0; i < 12; i++)
        c = bls_subb(c, a->l[i], b->l[i], &r->l[i]);
    uint64_t m = 0 - (uint64_t)c;
    c = 0;
    c = bls_addc(c, r->l[6], BLS_P0 & m, &r->l[6]);
    c = bls_addc(c, r->l[7], BLS_P1 & m, &r->l[7]);
    c = bls_addc(c, r->l[8], BLS_P2 & m, &r->l[8]);
    c = bls_addc(c, r->l[9], BLS_P3 & m, &r->l[9]);
    c = bls_addc(c, r->l[10], BLS_P4 & m, &r->l[10]);
    (void)bls_addc(c, r->l[11], BLS_P5 & m, &r->l[11]);
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
#if GROVE_BLS_MULX
/* fp_inv with its inner loop in C instead of x86-64 assembly (for the tests): same results */
void bls_fp_inv_portable(fp *r, const fp *a);
#endif
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
