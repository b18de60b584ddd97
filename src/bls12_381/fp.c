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

/* ---- inversion: Pornin's optimised binary GCD, constant time ----------------------------- */
/*
 * T. Pornin, "Optimized Binary GCD for Modular Inversion", ePrint 2020/972, written here from
 * the paper's description. State: a, b >= 0 (b always odd), starting at (x, p), and u, v with
 * a 2^(31 j) == u x, b 2^(31 j) == v x (mod p) after j outer iterations (u, v start at 1, 0).
 *
 * One binary-GCD iteration: if a is odd, swap (a, b) when a < b, then a -= b; then a /= 2.
 * Each iteration lowers len(a) + len(b) by at least one until a = 0, b = gcd = 1, so from
 * len(x) + len(p) <= 2 * 381 at most 2 * 381 - 1 = 761 iterations are needed (once a = 0 an
 * extra iteration only halves 0, which keeps b = 1).
 *
 * The iterations run 31 at a time on 64-bit approximations of a and b: with n the larger bit
 * length (n >= 64), a~ = the top 33 bits of a (bits n-33 .. n-1) above a's low 31 bits, exact
 * when n <= 64. The low bits make the parities exact for 31 iterations; the top bits drive the
 * comparisons, and may get one wrong when the tops are close, which can make a new a or b
 * negative (it is negated, with its factors) but, as Pornin proves (section 3 of the paper),
 * still leaves every outer iteration of k - 1 = 31 inner ones lowering len(a) + len(b) by at
 * least 31, as the exact algorithm does; so 25 outer iterations (775 >= 761) always suffice.
 * The inner iterations collect the factors with a~ 2^31 = f0 a + g0 b, b~ 2^31 = f1 a + g1 b;
 * by induction every factor is in [-2^i + 1, 2^i] after i iterations and |f| + |g| <= 2^i,
 * so after 31 they fit two to a 64-bit word (f + 2^32 g, read back with a bias of 2^31 - 1)
 * and the full-width products below cannot overflow. The factors then update a and b exactly
 * (a division by 2^31; a and b shrink to fewer limbs on a fixed schedule, see fp_inv). With
 * 64-bit limbs the factor matrices of two consecutive outer iterations are multiplied (entries
 * up to 2^62, see inv_pair) and applied to u and v once per pair, modulo p with a Montgomery
 * division by 2^64, kept in (-2p, 2p) and reduced once at the end (see inv_lin_mod): 13
 * divisions (12 pairs and the 25th iteration alone). The 32-bit-limb code (its products need
 * factors of 31 bits) updates u and v after every outer iteration: 25 divisions. At the end
 * b = 1 and v = x^-1 2^(31 * 25 - 64 D) mod p (D divisions); one multiplication by a
 * precomputed constant corrects that and the Montgomery factors. x = 0 stays at a = 0, b = p,
 * v = 0 and gives 0. Every iteration count is fixed and no branch or index depends on x. On
 * x86-64 (64-bit limbs) the inner iterations are inline assembly (inv_inner_asm), the same
 * operations as the C loop (inv_inner_c, kept for the other targets and for the tests).
 */
#define INV_OUTER 25
#define INV_INNER 31

#if GROVE_BLS_LIMB32
/* 25 Montgomery divisions: 2^(64 * 25 - 31 * 25) R^3 mod p; R^3 / R turns (aR)^-1 into a^-1 R */
static const fp INV_FIX = {{0xc75b87eae4c078aeULL, 0x5a053a5001d63318ULL, 0x7afc9aa5647bc96aULL,
                            0x523ec3bd5b17b648ULL, 0x5f8a543218152dc6ULL, 0x03d6ad095ef691c4ULL}};
#else
/* 13 Montgomery divisions (12 pairs and one single step): 2^(64 * 13 - 31 * 25) R^3 mod p */
static const fp INV_FIX = {{0x24b2f5118ba445bfULL, 0x6e0b4c488594b629ULL, 0xe3b0f8c44f0e68a8ULL,
                            0x9ddac766ab5d475cULL, 0xb2be383974877c76ULL, 0x16e5e3b55a4bd6baULL}};
#endif

/* all ones when x != 0 */
static uint64_t inv_nz_mask(uint64_t x)
{
    return 0 - ((x | (0 - x)) >> 63);
}

/* all ones when a < b; no comparison operator (compilers may branch on it on 32-bit targets) */
static uint64_t inv_lt_mask(uint64_t a, uint64_t b)
{
#if !GROVE_BLS_LIMB32 && (defined(__GNUC__) || defined(__clang__))
    uint64_t d;
    return 0 - (uint64_t)__builtin_sub_overflow(a, b, &d); /* the borrow: sub, sbb */
#elif !GROVE_BLS_LIMB32
    return (uint64_t)(((bls_u128)a - b) >> 64);
#else
    return 0 - (((~a & b) | ((~a | b) & (a - b))) >> 63);
#endif
}

/* leading zero bits of x != 0, constant time */
static unsigned inv_clz(uint64_t x)
{
#if (defined(__x86_64__) || defined(__aarch64__)) && (defined(__GNUC__) || defined(__clang__))
    /* one instruction with a fixed latency (bsr/lzcnt, clz), no branch for x != 0 */
    return (unsigned)__builtin_clzll(x);
#else
    unsigned n = 0, z;
    z = (unsigned)(((x >> 32) - 1) >> 63) << 5;
    n += z;
    x <<= z;
    z = (unsigned)(((x >> 48) - 1) >> 63) << 4;
    n += z;
    x <<= z;
    z = (unsigned)(((x >> 56) - 1) >> 63) << 3;
    n += z;
    x <<= z;
    z = (unsigned)(((x >> 60) - 1) >> 63) << 2;
    n += z;
    x <<= z;
    z = (unsigned)(((x >> 62) - 1) >> 63) << 1;
    n += z;
    x <<= z;
    n += (unsigned)(((x >> 63) - 1) >> 63);
    return n;
#endif
}

/* the 64-bit approximations of a and b (see above), a and b of n limbs (n public) */
GROVE_INLINE void inv_approx(uint64_t *ax, uint64_t *bx, const uint64_t a[6], const uint64_t b[6],
                             int n)
{
    uint64_t ah = 0, al = 0, bh = 0, bl = 0, big = 0;
    for (int i = 1; i < n; i++) {
        uint64_t m = inv_nz_mask(a[i] | b[i]);
        ah ^= (ah ^ a[i]) & m;
        al ^= (al ^ a[i - 1]) & m;
        bh ^= (bh ^ b[i]) & m;
        bl ^= (bl ^ b[i - 1]) & m;
        big |= m;
    }
    if (n == 1) { /* public: a and b are exact */
        *ax = a[0];
        *bx = b[0];
        return;
    }
    unsigned s = inv_clz(ah | bh | 1); /* ah | bh != 0 when big */
    uint64_t at = (ah << s) | ((al >> 1) >> (63 - s));
    uint64_t bt = (bh << s) | ((bl >> 1) >> (63 - s));
    const uint64_t lo = 0x7fffffffULL;
    at = (at & ~lo) | (a[0] & lo);
    bt = (bt & ~lo) | (b[0] & lo);
    *ax = a[0] ^ ((a[0] ^ at) & big);
    *bx = b[0] ^ ((b[0] ^ bt) & big);
}

/* the factors packed as pa = f0 + 2^32 g0, pb = f1 + 2^32 g1 (modulo 2^64) -> fg */
GROVE_INLINE void inv_unpack(uint64_t pa, uint64_t pb, int64_t fg[4])
{
    /* each factor is in [-2^31 + 1, 2^31]: with the bias both halves are in [0, 2^32) */
    const uint64_t bias = 0x7fffffffULL | (0x7fffffffULL << 32);
    pa += bias;
    pb += bias;
    fg[0] = (int64_t)(pa & 0xffffffffULL) - 0x7fffffff;
    fg[1] = (int64_t)(pa >> 32) - 0x7fffffff;
    fg[2] = (int64_t)(pb & 0xffffffffULL) - 0x7fffffff;
    fg[3] = (int64_t)(pb >> 32) - 0x7fffffff;
}

/* 31 iterations on the approximations; the factors packed as f + 2^32 g, modulo 2^64 */
GROVE_INLINE void inv_inner_c(uint64_t a, uint64_t b, int64_t fg[4])
{
    uint64_t pa = 1, pb = (uint64_t)1 << 32;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 31
#elif defined(__clang__)
#pragma clang loop unroll(full)
#endif
    for (int i = 0; i < INV_INNER; i++) {
        uint64_t odd = 0 - (a & 1);
        uint64_t sw = odd & inv_lt_mask(a, b);
        uint64_t t = (a ^ b) & sw;
        a ^= t;
        b ^= t;
        t = (pa ^ pb) & sw;
        pa ^= t;
        pb ^= t;
        a -= b & odd;
        pa -= pb & odd;
        a >>= 1;
        pb <<= 1;
    }
    inv_unpack(pa, pb, fg);
}

#if GROVE_BLS_MULX
/*
 * The same 31 iterations in x86-64 assembly (baseline instructions: cmov), arranged for a
 * short dependency chain rather than few instructions: the time of the whole inverse is
 * dominated by these 775 serial iterations. One iteration computes every candidate from a, b,
 * pa, pb at once and then selects twice:
 *   x = a - b (its borrow says a < b), y = b - a, r = pa - pb, q = pb - pa
 *   a < b:  x = y, r = q, and the new b, pb are a, pa (else b, pb)
 *   a odd:  a = x, pa = r, b and pb take the values above (a even: all four unchanged)
 * then a = a / 2, pb = 2 pb: exactly the C loop above (the same values modulo 2^64, so the
 * same factors). Along a the chain is sub, cmovc, cmovnz, shr (four single-cycle
 * instructions) where the compare-then-subtract form needs six or seven; the factors are off
 * that chain. No branch and no memory access depends on a or b.
 */
#define INV_STEP_ASM                                                                           \
    "movq %[b], %[y]\n\t"                                                                       \
    "subq %[a], %[y]\n\t"                                                                       \
    "movq %[pb], %[q]\n\t"                                                                      \
    "subq %[pa], %[q]\n\t"                                                                      \
    "movq %[pa], %[r]\n\t"                                                                      \
    "subq %[pb], %[r]\n\t"                                                                      \
    "movq %[b], %[bc]\n\t"                                                                      \
    "movq %[pb], %[pbc]\n\t"                                                                    \
    "movq %[a], %[x]\n\t"                                                                       \
    "subq %[b], %[x]\n\t"                                                                       \
    "cmovcq %[y], %[x]\n\t"                                                                     \
    "cmovcq %[q], %[r]\n\t"                                                                     \
    "cmovcq %[a], %[bc]\n\t"                                                                    \
    "cmovcq %[pa], %[pbc]\n\t"                                                                  \
    "testq $1, %[a]\n\t"                                                                        \
    "cmovnzq %[x], %[a]\n\t"                                                                    \
    "cmovnzq %[r], %[pa]\n\t"                                                                   \
    "cmovnzq %[bc], %[b]\n\t"                                                                   \
    "cmovnzq %[pbc], %[pb]\n\t"                                                                 \
    "shrq %[a]\n\t"                                                                             \
    "addq %[pb], %[pb]\n\t"
#define INV_STEP2_ASM INV_STEP_ASM INV_STEP_ASM
#define INV_STEP8_ASM INV_STEP2_ASM INV_STEP2_ASM INV_STEP2_ASM INV_STEP2_ASM

/* the assembly text is longer than the 4095 characters C99 promises for a string literal;
 * GCC and clang (the only compilers that build it) take any length */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings"
/* one copy, called 25 times: inlined at every call site, the 2.6 kB of the 31 iterations
 * made fp_inv's code ~30 kB, and the inverse took 1.27x the time it takes with the calls */
static __attribute__((noinline)) void inv_inner_asm(uint64_t a, uint64_t b, int64_t fg[4])
{
    uint64_t pa = 1, pb = (uint64_t)1 << 32, x, y, q, r, bc, pbc;
    /* 31 = 3 * 8 + 3 * 2 + 1 iterations */
    __asm__(INV_STEP8_ASM INV_STEP8_ASM INV_STEP8_ASM INV_STEP2_ASM INV_STEP2_ASM INV_STEP2_ASM
                INV_STEP_ASM
            : [a] "+&r"(a), [b] "+&r"(b), [pa] "+&r"(pa), [pb] "+&r"(pb), [x] "=&r"(x),
              [y] "=&r"(y), [q] "=&r"(q), [r] "=&r"(r), [bc] "=&r"(bc), [pbc] "=&r"(pbc)
            :
            : "cc");
    (void)a;
    (void)b;
    inv_unpack(pa, pb, fg);
}
#pragma GCC diagnostic pop
#define INV_INNER_ASM(a, b, fg) inv_inner_asm(a, b, fg)
#else
#define INV_INNER_ASM(a, b, fg) inv_inner_c(a, b, fg)
#endif

/*
 * r = x f + y g as n + 1 limbs in two's complement, for x, y n limbs in two's complement
 * (|x|, |y| < 2^(64 n - 1)) and |f| + |g| <= 2^62 (64-bit limbs) or <= 2^31 (32-bit limbs).
 */
GROVE_INLINE void inv_lin(uint64_t r[7], const uint64_t x[6], const uint64_t y[6], int64_t f,
                          int64_t g, int n)
{
#if !GROVE_BLS_LIMB32
    /* |x_i f + y_i g + c| < 2^64 (|f| + |g|) + 2^63 <= 2^126 + 2^63 */
    __extension__ typedef __int128 i128;
    i128 c = 0;
    for (int i = 0; i < n - 1; i++) {
        c += (i128)x[i] * f + (i128)y[i] * g;
        r[i] = (uint64_t)c;
        c >>= 64;
    }
    c += (i128)(int64_t)x[n - 1] * f + (i128)(int64_t)y[n - 1] * g;
    r[n - 1] = (uint64_t)c;
    r[n] = (uint64_t)(int64_t)(c >> 64);
#else
    /* 32-bit halves: |x_j f + y_j g + carry| < 2^63 since |f| + |g| <= 2^31 */
    int64_t c = 0;
    for (int i = 0; i < n; i++) {
        uint64_t lo, hi;
        int64_t xh = i < n - 1 ? (int64_t)(x[i] >> 32) : (int64_t)x[i] >> 32;
        int64_t yh = i < n - 1 ? (int64_t)(y[i] >> 32) : (int64_t)y[i] >> 32;
        c += (int64_t)(x[i] & 0xffffffffULL) * f + (int64_t)(y[i] & 0xffffffffULL) * g;
        lo = (uint64_t)c & 0xffffffffULL;
        c >>= 32;
        c += xh * f + yh * g;
        hi = (uint64_t)c;
        c >>= 32;
        r[i] = lo | (hi << 32);
    }
    r[n] = (uint64_t)c;
#endif
}

/*
 * (a, b) = |(f0 a + g0 b) / 2^31|, |(f1 a + g1 b) / 2^31|, negating the factors to match;
 * a and b of n limbs, and the results fit in n limbs (they are at most max(a, b)).
 */
GROVE_INLINE void inv_update_ab(uint64_t a[6], uint64_t b[6], int64_t fg[4], int n)
{
    uint64_t ra[7], rb[7];
    inv_lin(ra, a, b, fg[0], fg[1], n);
    inv_lin(rb, a, b, fg[2], fg[3], n);
    uint64_t na = 0 - (ra[n] >> 63), nb = 0 - (rb[n] >> 63), ca = na & 1, cb = nb & 1;
    for (int i = 0; i < n; i++) {
        /* the low 31 bits are zero */
        a[i] = bls_adc(((ra[i] >> 31) | (ra[i + 1] << 33)) ^ na, 0, &ca);
        b[i] = bls_adc(((rb[i] >> 31) | (rb[i + 1] << 33)) ^ nb, 0, &cb);
    }
    fg[0] = (fg[0] ^ (int64_t)na) - (int64_t)na;
    fg[1] = (fg[1] ^ (int64_t)na) - (int64_t)na;
    fg[2] = (fg[2] ^ (int64_t)nb) - (int64_t)nb;
    fg[3] = (fg[3] ^ (int64_t)nb) - (int64_t)nb;
}

/*
 * r = (x f + y g) / 2^64 mod p, lazily reduced: x, y, r in two's complement and in (-2p, 2p).
 * With |x|, |y| < 2p and |f| + |g| <= 2^62, |x f + y g| < 2^63 p, and adding m p (m < 2^64)
 * that clears the low limb leaves (x f + y g + m p) / 2^64 in (-p / 2, 3p / 2).
 */
GROVE_INLINE void inv_lin_mod(uint64_t r[6], const uint64_t x[6], const uint64_t y[6], int64_t f,
                              int64_t g)
{
    uint64_t s[7], m, cy = 0, hi;
    inv_lin(s, x, y, f, g, 6);
    m = s[0] * BLS_P_N0;
    for (int i = 0; i < 6; i++) {
        s[i] = bls_mac64(m, bls_p_limbs[i], s[i], cy, &hi);
        cy = hi;
    }
    s[6] += cy;
    memcpy(r, s + 1, 6 * sizeof(uint64_t));
}

/*
 * The secrets of the outer iterations (factors, the new u) in one place, wiped once by
 * inv_core rather than after every iteration (the wipes cost more than 3 % of the time).
 */
typedef struct {
    int64_t x[4], y[4], m[4];
    uint64_t nu[6];
} inv_scratch;

/* (u, v) = (f0 u + g0 v, f1 u + g1 v) / 2^64 mod p; nu is scratch */
GROVE_INLINE void inv_update_uv(uint64_t u[6], uint64_t v[6], const int64_t fg[4], uint64_t nu[6])
{
    inv_lin_mod(nu, u, v, fg[0], fg[1]);
    inv_lin_mod(v, u, v, fg[2], fg[3]);
    memcpy(u, nu, 6 * sizeof(uint64_t));
}

/*
 * one outer iteration on a and b of n limbs; fg gets its (sign-corrected) factors. asm (a
 * constant) selects the inner loop: the assembly where it is built, or the C.
 */
GROVE_INLINE void inv_step(uint64_t a[6], uint64_t b[6], int64_t fg[4], int n, int asm_)
{
    uint64_t ax, bx;
    inv_approx(&ax, &bx, a, b, n);
    if (asm_)
        INV_INNER_ASM(ax, bx, fg);
    else
        inv_inner_c(ax, bx, fg);
    inv_update_ab(a, b, fg, n);
}

#if !GROVE_BLS_LIMB32
/*
 * Two outer iterations (on n0 then n1 limbs), their factors composed into one matrix for u
 * and v: with (a', b') = M (a, b) / 2^31 and (a'', b'') = M' (a', b') / 2^31, (a'', b'') =
 * M' M (a, b) / 2^62, and each entry of M' M is a sum of two products of factors; every row of
 * M and M' has |f| + |g| <= 2^31, so every row of M' M has |f| + |g| <= 2^62.
 */
GROVE_INLINE void inv_pair(uint64_t a[6], uint64_t b[6], uint64_t u[6], uint64_t v[6], int n0,
                           int n1, int asm_, inv_scratch *s)
{
    int64_t *x = s->x, *y = s->y, *m = s->m;
    inv_step(a, b, x, n0, asm_);
    inv_step(a, b, y, n1, asm_);
    m[0] = y[0] * x[0] + y[1] * x[2];
    m[1] = y[0] * x[1] + y[1] * x[3];
    m[2] = y[2] * x[0] + y[3] * x[2];
    m[3] = y[2] * x[1] + y[3] * x[3];
    inv_update_uv(u, v, m, s->nu);
}
#else
/* 32-bit limbs: the products of inv_lin need |f| + |g| <= 2^31, so u and v follow each step */
static void inv_pair(uint64_t a[6], uint64_t b[6], uint64_t u[6], uint64_t v[6], int n0, int n1,
                     int asm_, inv_scratch *s)
{
    inv_step(a, b, s->x, n0, asm_);
    inv_update_uv(u, v, s->x, s->nu);
    inv_step(a, b, s->x, n1, asm_);
    inv_update_uv(u, v, s->x, s->nu);
}
#endif

/* x in (-p, 2p) in two's complement -> [0, p) */
static void inv_normalize(uint64_t x[6])
{
    uint64_t d[6], neg = 0 - (x[5] >> 63), cy = 0, bw = 0, m;
    for (int i = 0; i < 6; i++)
        x[i] = bls_adc(x[i], bls_p_limbs[i] & neg, &cy);
    for (int i = 0; i < 6; i++)
        d[i] = bls_sbb(x[i], bls_p_limbs[i], &bw);
    m = bw - 1; /* all ones: x >= p */
    for (int i = 0; i < 6; i++)
        x[i] ^= (x[i] ^ d[i]) & m;
}

/*
 * The limb counts of a and b: before outer iteration j, len(a) + len(b) <= 765 - 31 j
 * (len(x) <= 384, len(p) = 381, and each outer iteration lowers the sum by 31 at least; see
 * above), so a and b (b >= 1, a >= 0) fit in L = 765 - 31 j bits, and in n limbs as long as
 * L <= 64 n - 1 (inv_lin reads the top limb as signed): 6 limbs up to j = 14 (L = 331),
 * 5 at j = 15, 16 (300, 269), 4 at 17, 18 (238, 207), 3 at 19, 20 (176, 145), 2 at 21, 22
 * (114, 83), 1 at 23, 24 (52, 21). The limbs above n are zero and are not read or written.
 * The schedule is fixed, so it depends on nothing secret.
 */
GROVE_INLINE void inv_core(fp *r, const fp *x, int asm_)
{
    uint64_t a[6], b[6], u[6] = {1, 0, 0, 0, 0, 0}, v[6] = {0};
    int64_t fg[4];
    inv_scratch s;
    memcpy(a, x->l, sizeof a);
    memcpy(b, bls_p_limbs, sizeof b);
    for (int j = 0; j < 14; j += 2)
        inv_pair(a, b, u, v, 6, 6, asm_, &s);
    inv_pair(a, b, u, v, 6, 5, asm_, &s); /* j = 14, 15 */
    inv_pair(a, b, u, v, 5, 4, asm_, &s);
    inv_pair(a, b, u, v, 4, 3, asm_, &s);
    inv_pair(a, b, u, v, 3, 2, asm_, &s);
    inv_pair(a, b, u, v, 2, 1, asm_, &s);
    inv_step(a, b, fg, 1, asm_); /* j = 24: the 25th */
    inv_update_uv(u, v, fg, s.nu);
    fp t;
    inv_normalize(v);
    memcpy(t.l, v, sizeof v);
    fp_mul(r, &t, &INV_FIX);
    grove_wipe(a, sizeof a);
    grove_wipe(b, sizeof b);
    grove_wipe(u, sizeof u);
    grove_wipe(v, sizeof v);
    grove_wipe(fg, sizeof fg);
    grove_wipe(&s, sizeof s);
    grove_wipe(&t, sizeof t);
}

void fp_inv(fp *r, const fp *x)
{
    inv_core(r, x, 1);
}

#if GROVE_BLS_MULX
void bls_fp_inv_portable(fp *r, const fp *x)
{
    inv_core(r, x, 0);
}
#endif

/* the constant-time inverse is no slower than an early exit would make a variable-time one */
void fp_inv_vartime(fp *r, const fp *a)
{
    fp_inv(r, a);
}

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
