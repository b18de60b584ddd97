/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The STM lottery (spec section 5): ev = Blake2b-512("map" || msg' || index LE || sigma), won
 * iff ev / 2^512 < 1 - (1 - phi_f)^(stake/total), decided exactly as mithril-stm's default
 * backend does: q = 2^512 / (2^512 - ev) against exp(x), x = -(stake/total) * c with
 * c = ln(1 - phi_f) (the binary64 value, then exact), by a Taylor loop with error term
 * 3 * |next term| for at most 1000 iterations; undecided means lost.
 *
 * Speed: the same loop is first run in binary64 with a relative safety margin of 2^-30
 * (rounding errors stay below 2^-40 for 1000 iterations of sums of positive terms); a
 * comparison that is not clear by that margin sends the ev to the exact loop (integers of
 * this file, no GMP), so the result always equals the exact rule's.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "stm/lottery.h"
#include "stm/stm_internal.h"

#define TAYLOR_BOUND 1000

int stm_lottery_init(stm_lottery *lot, double phi_f, uint64_t stake, uint64_t total)
{
    memset(lot, 0, sizeof *lot);
    if (total == 0 || stake > total || !(phi_f > 0.0) || phi_f > 1.0)
        return GROVE_ERR_INVALID_ARG;
    lot->phi_f = phi_f;
    lot->stake = stake;
    lot->total = total;
    if (fabs(phi_f - 1.0) < 0x1p-52) {
        lot->mode = 1;
        return GROVE_OK;
    }
    if (!(phi_f <= 0.95))
        return GROVE_ERR_INVALID_ARG;
    if (stake == 0) {
        lot->mode = 2;
        return GROVE_OK;
    }
    double c = log(1.0 - phi_f);
    lot->x = -((double)stake / (double)total) * c;
    return GROVE_OK;
}

/* q = 2^512 / (2^512 - ev) in binary64 (relative error below 2^-50); 1 for ev = 0. */
static double q_approx(const uint8_t ev[64])
{
    uint64_t d[8];
    unsigned carry = 1;
    int zero = 1;
    for (int i = 0; i < 8; i++) {
        uint64_t limb = grove_load64_le(ev + 8 * i);
        if (limb)
            zero = 0;
        uint64_t v = ~limb + carry;
        carry = (carry && v == 0) ? 1 : 0;
        d[i] = v;
    }
    if (zero)
        return 1.0;
    int top = 7;
    while (top > 0 && d[top] == 0)
        top--;
    double dd = (double)d[top];
    if (top > 0)
        dd += ldexp((double)d[top - 1], -64);
    /* D = dd * 2^(64 top); q = 2^512 / D */
    return ldexp(1.0 / dd, 512 - 64 * top);
}

/* The Taylor loop in binary64: 1 won, 0 lost, -1 too close to call. */
static int decide_fast(double x, double q)
{
    double phi = 1.0, term = x, divisor = 1.0;
    for (int it = 0; it < TAYLOR_BOUND; it++) {
        phi += term;
        divisor += 1.0;
        term = term * x / divisor;
        double err = 3.0 * term;
        double hi = phi + err, lo = phi - err;
        double tol = 0x1p-30 * (phi + err + q);
        if (q > hi + tol)
            return 0;
        if (q >= hi - tol)
            return -1;
        if (q < lo - tol)
            return 1;
        if (q <= lo + tol)
            return -1;
    }
    return 0; /* undecided by a clear margin at every step: the exact loop is undecided too */
}

/*
 * The exact rule without GMP. With x = N / X (N = M * stake, X = total * 2^k for the binary64
 * c = -M * 2^-k) and q = 2^512 / D (D = 2^512 - ev), iteration n compares, over the common
 * denominator S_n = (n+1)! X^(n+1):
 *   phi_n * S_n * D  = U_n,   3 * term * S_n * D = 3 * D * N^(n+1) = V_n,   q * S_n * D = 2^512 S_n
 * lost iff 2^512 S_n > U_n + V_n, won iff 2^512 S_n < U_n - V_n. Kept from one iteration to the
 * next: L = S_(n-1), P = U_(n-1) + D N^n (= D phi_n S_(n-1)), E = D N^n; with T = (n+1) X,
 * S_n = T L, U_n = T P, V_n = 3 E N. Only products by small numbers (T, N), additions,
 * subtractions and comparisons: no division, no gcd.
 *
 * Numbers: little-endian arrays of 32-bit limbs (no __int128 needed), normalized (no leading
 * zero limb; length 0 is zero). Each iteration adds at most len(T) + 1 limbs to a number;
 * 1000 iterations with the largest X (c's exponent bounded by binary64's) stay below 64k limbs.
 */
typedef struct {
    uint32_t *d;
    size_t n;
} bn;

static void bn_norm(bn *a)
{
    while (a->n > 0 && a->d[a->n - 1] == 0)
        a->n--;
}

/* r = a * b (r distinct from a and b; room for a.n + b.n limbs). */
static void bn_mul(bn *r, const bn *a, const bn *b)
{
    if (a->n == 0 || b->n == 0) {
        r->n = 0;
        return;
    }
    memset(r->d, 0, (a->n + b->n) * sizeof(uint32_t));
    for (size_t j = 0; j < b->n; j++) {
        uint64_t carry = 0, bj = b->d[j];
        for (size_t i = 0; i < a->n; i++) {
            uint64_t t = (uint64_t)a->d[i] * bj + r->d[i + j] + carry;
            r->d[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        r->d[a->n + j] = (uint32_t)carry;
    }
    r->n = a->n + b->n;
    bn_norm(r);
}

/* a *= w in place (room for a.n + 1 limbs). */
static void bn_mul_word(bn *a, uint32_t w)
{
    uint64_t carry = 0;
    for (size_t i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->d[i] * w + carry;
        a->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    a->d[a->n++] = (uint32_t)carry;
    bn_norm(a);
}

/* r = a + b (r may be a or b; room for max(a.n, b.n) + 1 limbs). */
static void bn_add(bn *r, const bn *a, const bn *b)
{
    if (a->n < b->n) {
        const bn *t = a;
        a = b;
        b = t;
    }
    uint64_t carry = 0;
    size_t an = a->n, bnn = b->n;
    for (size_t i = 0; i < an; i++) {
        uint64_t t = (uint64_t)a->d[i] + (i < bnn ? b->d[i] : 0) + carry;
        r->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    r->d[an] = (uint32_t)carry;
    r->n = an + 1;
    bn_norm(r);
}

/* r = a - b for a >= b (r may be a). */
static void bn_sub(bn *r, const bn *a, const bn *b)
{
    uint64_t borrow = 0;
    for (size_t i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;
        r->d[i] = (uint32_t)t;
        borrow = (t >> 32) & 1;
    }
    r->n = a->n;
    bn_norm(r);
}

/* Sign of a * 2^(32 s) - b. */
static int bn_cmp_shifted(const bn *a, size_t s, const bn *b)
{
    size_t an = a->n == 0 ? 0 : a->n + s;
    if (an != b->n)
        return an > b->n ? 1 : -1;
    for (size_t i = an; i-- > 0;) {
        uint32_t ai = i >= s ? a->d[i - s] : 0;
        if (ai != b->d[i])
            return ai > b->d[i] ? 1 : -1;
    }
    return 0;
}

/* bn from a uint64_t shifted left by sh bits (d has room for 3 + sh / 32 limbs). */
static void bn_set_u64_shl(bn *a, uint64_t v, unsigned sh)
{
    size_t w = sh / 32;
    unsigned b = sh % 32;
    memset(a->d, 0, (w + 3) * sizeof(uint32_t));
    uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
    a->d[w] = lo << b;
    a->d[w + 1] = (uint32_t)(((uint64_t)hi << b) | (b ? (uint64_t)lo >> (32 - b) : 0));
    a->d[w + 2] = b ? (uint32_t)((uint64_t)hi >> (32 - b)) : 0;
    a->n = w + 3;
    bn_norm(a);
}

/* Largest k of the binary64 c = -M * 2^-k (|c| >= 2^-1074): X = total * 2^k has <= 38 limbs. */
#define LOT_MAX_K 1150u
#define LOT_X_LIMBS (3 + LOT_MAX_K / 32)

int stm_lottery_exact_iter(const stm_lottery *lot, const uint8_t ev[GROVE_STM_EV_BYTES],
                           int *iterations)
{
    int dummy;
    if (!iterations)
        iterations = &dummy;
    *iterations = 0;
    if (lot->mode == 1)
        return 1;
    if (lot->mode == 2)
        return 0;
    double c = log(1.0 - lot->phi_f); /* the binary64 value, then exact, as mpq_set_d */
    if (!(c < 0.0) || !isfinite(c))
        return 0; /* x = 0: phi stays 1, err 0; q >= 1 is never below: lost or undecided */
    int e;
    double f = frexp(-c, &e); /* -c = f 2^e, f in [0.5, 1) */
    uint64_t m = (uint64_t)ldexp(f, 53);
    int k = 53 - e;
    while ((m & 1) == 0 && k > 0) {
        m >>= 1;
        k--;
    }
    if (k < 0 || (unsigned)k > LOT_MAX_K)
        return 0; /* |c| < 1 for phi_f <= 0.95, so k >= 0; binary64 bounds k by 1127 */

    uint32_t nbuf[4], xbuf[LOT_X_LIMBS], tbuf[LOT_X_LIMBS + 1], dbuf[17];
    bn N = {nbuf, 0}, X = {xbuf, 0}, T = {tbuf, 0}, D = {dbuf, 0};
    /* N = m * stake (m < 2^53) */
    bn ms = {tbuf, 0};
    bn_set_u64_shl(&ms, m, 0);
    bn st = {xbuf, 0};
    bn_set_u64_shl(&st, lot->stake, 0);
    bn_mul(&N, &ms, &st);
    bn_set_u64_shl(&X, lot->total, (unsigned)k);
    /* D = 2^512 - ev */
    {
        uint64_t borrow = 0;
        for (int i = 0; i < 16; i++) {
            uint32_t w = (uint32_t)ev[4 * i] | (uint32_t)ev[4 * i + 1] << 8 |
                         (uint32_t)ev[4 * i + 2] << 16 | (uint32_t)ev[4 * i + 3] << 24;
            uint64_t t = 0 - (uint64_t)w - borrow;
            dbuf[i] = (uint32_t)t;
            borrow = (t >> 32) & 1;
        }
        dbuf[16] = (uint32_t)(1 - borrow);
        D.n = 17;
        bn_norm(&D);
    }
    if (N.n == 0)
        return 0;

    /* seven numbers in one allocation, grown (doubled) as the iterations need */
    size_t cap = 0;
    uint32_t *mem = NULL;
    bn L, P, E, S, U, V, W;
    int result = 0;
    for (int it = 0; it < TAYLOR_BOUND; it++) {
        /* T = (n + 1) X for n = it + 1 */
        memcpy(T.d, X.d, X.n * sizeof(uint32_t));
        T.n = X.n;
        bn_mul_word(&T, (uint32_t)(it + 2));
        size_t need = 2 * (D.n + X.n + N.n) + 24;
        if (it > 0) {
            size_t big = L.n > P.n ? L.n : P.n;
            big = big > E.n ? big : E.n;
            need = big + T.n + N.n + 2;
        }
        if (need > cap) {
            size_t ncap = cap * 2 > need ? cap * 2 : need;
            if (ncap > SIZE_MAX / (7 * sizeof(uint32_t))) {
                result = GROVE_ERR_NOMEM;
                break;
            }
            uint32_t *nm = malloc(7 * ncap * sizeof(uint32_t));
            if (!nm) {
                result = GROVE_ERR_NOMEM;
                break;
            }
            bn *all[7] = {&L, &P, &E, &S, &U, &V, &W};
            for (size_t i = 0; i < 7; i++) {
                uint32_t *dst = nm + i * ncap;
                if (it > 0)
                    memcpy(dst, all[i]->d, all[i]->n * sizeof(uint32_t));
                all[i]->d = dst;
                if (it == 0)
                    all[i]->n = 0;
            }
            free(mem);
            mem = nm;
            cap = ncap;
        }
        if (it == 0) {
            /* n = 1: L = S_0 = X, E = D N, P = D (X + N) = D phi_1 S_0 */
            memcpy(L.d, X.d, X.n * sizeof(uint32_t));
            L.n = X.n;
            bn_mul(&E, &D, &N);
            bn_add(&W, &X, &N);
            bn_mul(&P, &D, &W);
        }
        bn_mul(&S, &T, &L); /* S_n */
        bn_mul(&U, &T, &P); /* D phi_n S_n */
        bn_mul(&V, &E, &N); /* D N^(n+1) */
        bn tmp = E;
        E = V;
        V = tmp;
        memcpy(V.d, E.d, E.n * sizeof(uint32_t));
        V.n = E.n;
        bn_mul_word(&V, 3);  /* 3 term S_n D */
        bn_add(&W, &U, &V);
        if (bn_cmp_shifted(&S, 16, &W) > 0) { /* q > phi + err */
            *iterations = it + 1;
            result = 0;
            break;
        }
        if (bn_cmp_shifted(&U, 0, &V) > 0) {
            bn_sub(&W, &U, &V);
            if (bn_cmp_shifted(&S, 16, &W) < 0) { /* q < phi - err */
                *iterations = it + 1;
                result = 1;
                break;
            }
        }
        *iterations = it + 1;
        /* next: L = S_n, P = U_n + D N^(n+1) */
        tmp = L;
        L = S;
        S = tmp;
        bn_add(&W, &U, &E);
        tmp = P;
        P = W;
        W = tmp;
    }
    free(mem);
    return result;
}

int stm_lottery_exact(const stm_lottery *lot, const uint8_t ev[GROVE_STM_EV_BYTES])
{
    return stm_lottery_exact_iter(lot, ev, NULL);
}

int stm_lottery_decide(const stm_lottery *lot, const uint8_t ev[GROVE_STM_EV_BYTES])
{
    if (lot->mode == 1)
        return 1;
    if (lot->mode == 2)
        return 0;
    int r = decide_fast(lot->x, q_approx(ev));
    if (r >= 0)
        return r;
    /* out of memory is reported, never taken for a result: a verdict must not depend on
     * whether the exact loop got its memory */
    return stm_lottery_exact(lot, ev);
}

bool grove_stm_lottery_won(double phi_f, const uint8_t ev[GROVE_STM_EV_BYTES], uint64_t stake,
                           uint64_t total_stake)
{
    stm_lottery lot;
    if (!ev || stm_lottery_init(&lot, phi_f, stake, total_stake) != GROVE_OK)
        return false; /* no lottery exists for these arguments */
    return stm_lottery_decide(&lot, ev) == 1; /* documented: false also when out of memory */
}

void stm_ev_prefix(grove_blake2b_ctx *c, const uint8_t *msg_with_root, size_t len)
{
    grove_blake2b_init(c, 64);
    grove_blake2b_update(c, "map", 3);
    grove_blake2b_update(c, msg_with_root, len);
}

void stm_ev(uint8_t ev[GROVE_STM_EV_BYTES], const grove_blake2b_ctx *prefix, uint64_t index,
            const uint8_t sigma[GROVE_STM_SIGMA_BYTES])
{
    grove_blake2b_ctx c = *prefix;
    uint8_t le[8];
    grove_store64_le(le, index);
    grove_blake2b_update(&c, le, 8);
    grove_blake2b_update(&c, sigma, GROVE_STM_SIGMA_BYTES);
    grove_blake2b_final(&c, ev);
}

void grove_stm_lottery_ev(uint8_t ev[GROVE_STM_EV_BYTES], const uint8_t *msg_with_root,
                          size_t msg_with_root_len, uint64_t index,
                          const uint8_t sigma[GROVE_STM_SIGMA_BYTES])
{
    grove_blake2b_ctx c;
    stm_ev_prefix(&c, msg_with_root, msg_with_root_len);
    stm_ev(ev, &c, index, sigma);
}
