/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Fp inversion (Pornin's binary GCD, src/bls12_381/fp.c) against Fermat, fp_pow(x, p - 2), and
 * x * x^-1 == 1: 0 (gives 0), 1, p - 1, powers of two and small integers (long and short runs
 * of the GCD), values next to p and to p / 2^k (close top words, where the approximations can
 * choose a wrong swap), and thousands of random elements; Fp2 inversion on top. Built for the
 * 64-bit path and again for the 32-bit-limb path (test_bls_fp_inv_limb32): both must match
 * the same oracle, so their results are identical. The edge values are also given to fp_inv as
 * raw limbs (not through fp_to_mont), so that the GCD itself runs on them, and on x86-64 the
 * assembly inner loop is checked against the C one (bls_fp_inv_portable) on every input.
 */
#include <string.h>

#include "bls12_381/constants.h"
#include "bls12_381/fp2.h"
#include "test.h"

static uint64_t rng = 0x1f0e5eedULL;
static unsigned checked;

/* fp_inv against the C inner loop where the assembly one is built */
static void check_paths(const fp *x, const fp *r)
{
#if GROVE_BLS_MULX
    fp w;
    bls_fp_inv_portable(&w, x);
    CHECK(fp_eq(&w, r));
    CHECK(memcmp(w.l, r->l, sizeof w.l) == 0);
#else
    (void)x;
    (void)r;
#endif
}

/* x given as a plain integer (reduced modulo p by fp_to_mont: p itself, p + 1 occur) */
static void check_plain(const uint64_t plain[6])
{
    fp t, x, r, w, one = BLS_FP_ONE;
    uint64_t bw = 0;
    memcpy(t.l, plain, sizeof t.l);
    for (int i = 0; i < 6; i++)
        (void)bls_sbb(t.l[i], bls_p_limbs[i], &bw);
    if (bw) {
        /* t < p: the raw limbs as the GCD's input (t^-1 in Montgomery terms is t^(p - 2)) */
        fp_inv(&r, &t);
        fp_pow(&w, &t, BLS_EXP_P_MINUS_2, 6);
        CHECK(fp_eq(&r, &w));
        check_paths(&t, &r);
        if (!fp_is_zero(&t)) {
            fp_mul(&w, &r, &t);
            CHECK(fp_eq(&w, &one));
        }
    }
    fp_to_mont(&x, &t);
    fp_inv(&r, &x);
    fp_pow(&w, &x, BLS_EXP_P_MINUS_2, 6);
    CHECK(fp_eq(&r, &w));
    check_paths(&x, &r);
    fp_inv_vartime(&w, &x);
    CHECK(fp_eq(&r, &w));
    if (!fp_is_zero(&x)) {
        fp_mul(&w, &r, &x);
        CHECK(fp_eq(&w, &one));
    }
    checked++;
}

/* p - d for a small d, and p >> k, (p >> k) +- 1 */
static void edge_cases(void)
{
    uint64_t v[6], b;
    memset(v, 0, sizeof v);
    check_plain(v); /* 0 */
    for (uint64_t s = 1; s <= 2000; s++) {
        memset(v, 0, sizeof v);
        v[0] = s;
        check_plain(v);
        b = 0;
        for (int i = 0; i < 6; i++)
            v[i] = bls_sbb(bls_p_limbs[i], i == 0 ? s : 0, &b);
        check_plain(v); /* p - s */
    }
    for (int k = 0; k < 381; k++) {
        memset(v, 0, sizeof v);
        v[k / 64] = (uint64_t)1 << (k % 64);
        check_plain(v); /* 2^k */
        for (int i = 0; i < 6; i++) {
            int lo = 64 * i;
            v[i] = lo + 64 <= k ? UINT64_MAX : lo >= k ? 0 : (((uint64_t)1 << (k - lo)) - 1);
        }
        check_plain(v); /* 2^k - 1 */
        for (int i = 0; i < 6; i++) {
            int sh = k % 64, w = k / 64;
            uint64_t lo = i + w < 6 ? bls_p_limbs[i + w] : 0;
            uint64_t hi = i + w + 1 < 6 ? bls_p_limbs[i + w + 1] : 0;
            v[i] = sh ? (lo >> sh) | (hi << (64 - sh)) : lo;
        }
        check_plain(v); /* p >> k */
        b = 0;
        uint64_t c = 0, u[6];
        for (int i = 0; i < 6; i++)
            u[i] = bls_adc(v[i], i == 0 ? 1 : 0, &c);
        check_plain(u); /* (p >> k) + 1 */
        if (k > 0) {
            for (int i = 0; i < 6; i++)
                u[i] = bls_sbb(v[i], i == 0 ? 1 : 0, &b);
            check_plain(u); /* (p >> k) - 1 */
        }
    }
}

static void random_elements(void)
{
    fp x, r, w, one = BLS_FP_ONE;
    uint8_t buf[64];
    for (int i = 0; i < 4000; i++) {
        test_rand_bytes(&rng, buf, sizeof buf);
        fp_from_bytes_wide(&x, buf, sizeof buf);
        fp_inv(&r, &x);
        check_paths(&x, &r);
        fp_mul(&w, &r, &x);
        CHECK(fp_eq(&w, &one));
        if (i % 8 == 0) {
            fp_pow(&w, &x, BLS_EXP_P_MINUS_2, 6);
            CHECK(fp_eq(&r, &w));
        }
        /* the inverse of the inverse */
        fp_inv(&w, &r);
        CHECK(fp_eq(&w, &x));
        checked++;
    }
    /* random elements with only their low or high limbs set */
    for (int i = 0; i < 600; i++) {
        uint64_t v[6] = {0};
        int n = 1 + i % 6;
        for (int j = 0; j < n; j++)
            v[i % 2 ? 5 - j : j] = test_rand_u64(&rng);
        v[5] &= 0x0fffffffffffffffULL; /* < p */
        check_plain(v);
    }
}

static void fp2_inverse(void)
{
    fp2 a, r, w, one = BLS_FP2_ONE, zero;
    uint8_t buf[64];
    memset(&zero, 0, sizeof zero);
    fp2_inv(&r, &zero);
    CHECK(fp2_eq(&r, &zero));
    for (int i = 0; i < 300; i++) {
        test_rand_bytes(&rng, buf, sizeof buf);
        fp_from_bytes_wide(&a.c0, buf, sizeof buf);
        test_rand_bytes(&rng, buf, sizeof buf);
        fp_from_bytes_wide(&a.c1, buf, sizeof buf);
        if (i % 3 == 0)
            memset(&a.c1, 0, sizeof a.c1);
        fp2_inv(&r, &a);
        fp2_mul(&w, &r, &a);
        CHECK(fp2_eq(&w, &one));
        fp2_inv_vartime(&w, &a);
        CHECK(fp2_eq(&w, &r));
    }
}

int main(void)
{
    fp x, r;
    /* 0 gives 0 (the contract callers rely on), 1 gives 1, -1 gives -1 */
    memset(&x, 0, sizeof x);
    fp_inv(&r, &x);
    CHECK(fp_is_zero(&r));
    x = BLS_FP_ONE;
    fp_inv(&r, &x);
    CHECK(fp_eq(&r, &x));
    fp_neg(&x, &x);
    fp_inv(&r, &x);
    CHECK(fp_eq(&r, &x));
    edge_cases();
    random_elements();
    fp2_inverse();
    CHECK(checked > 9000);
#if GROVE_BLS_MULX
    printf("fp_inv: assembly inner loop checked against the C one\n");
#endif
    return test_done();
}
