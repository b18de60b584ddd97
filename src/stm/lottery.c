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
 * comparison that is not clear by that margin sends the ev to the exact GMP loop, so the
 * result always equals the exact rule's.
 */
#include <gmp.h>
#include <math.h>
#include <string.h>

#include "common/util.h"
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

int stm_lottery_exact(const stm_lottery *lot, const uint8_t ev[GROVE_STM_EV_BYTES])
{
    if (lot->mode == 1)
        return 1;
    mpz_t evz, tmp, divisor;
    mpq_t q, x, phi, term, err, bound;
    mpz_inits(evz, tmp, divisor, NULL);
    mpq_inits(q, x, phi, term, err, bound, NULL);

    mpz_import(evz, 64, -1, 1, 0, 0, ev); /* little-endian bytes */
    mpz_set_ui(tmp, 1);
    mpz_mul_2exp(tmp, tmp, 512);
    mpq_set_num(q, tmp);
    mpz_sub(tmp, tmp, evz);
    mpq_set_den(q, tmp);
    mpq_canonicalize(q);

    mpq_set_d(x, log(1.0 - lot->phi_f)); /* exact value of the binary64 number */
    mpq_t w;
    mpq_init(w);
    mpz_set_ui(tmp, 0);
    mpz_import(tmp, 1, 1, sizeof(uint64_t), 0, 0, &lot->stake);
    mpq_set_num(w, tmp);
    mpz_import(tmp, 1, 1, sizeof(uint64_t), 0, 0, &lot->total);
    mpq_set_den(w, tmp);
    mpq_canonicalize(w);
    mpq_mul(x, x, w);
    mpq_neg(x, x);
    mpq_clear(w);

    mpq_set(term, x);
    mpq_set_ui(phi, 1, 1);
    mpz_set_ui(divisor, 1);
    int won = 0;
    for (int it = 0; it < TAYLOR_BOUND; it++) {
        mpq_add(phi, phi, term);
        mpz_add_ui(divisor, divisor, 1);
        mpq_mul(term, term, x);
        mpz_mul(mpq_denref(term), mpq_denref(term), divisor);
        mpq_canonicalize(term);
        mpq_abs(err, term);
        mpz_mul_ui(mpq_numref(err), mpq_numref(err), 3);
        mpq_canonicalize(err);
        mpq_add(bound, phi, err);
        if (mpq_cmp(q, bound) > 0) {
            won = 0;
            break;
        }
        mpq_sub(bound, phi, err);
        if (mpq_cmp(q, bound) < 0) {
            won = 1;
            break;
        }
    }
    mpz_clears(evz, tmp, divisor, NULL);
    mpq_clears(q, x, phi, term, err, bound, NULL);
    return won;
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
    return stm_lottery_exact(lot, ev);
}

bool grove_stm_lottery_won(double phi_f, const uint8_t ev[GROVE_STM_EV_BYTES], uint64_t stake,
                           uint64_t total_stake)
{
    stm_lottery lot;
    if (!ev || stm_lottery_init(&lot, phi_f, stake, total_stake) != GROVE_OK)
        return false; /* no lottery exists for these arguments */
    return stm_lottery_decide(&lot, ev) == 1;
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
