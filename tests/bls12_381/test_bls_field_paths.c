/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * BLS12-381 Fp: the implementations of the products give identical results. The 32-bit-limb
 * code (always built), the 64-bit portable code (where unsigned __int128 exists) and the
 * x86-64 mulx/adcx/adox code (where the CPU has BMI2 and ADX) are run on the same random and
 * edge-case operands - 0, 1, p-1, p, 2p-1, words of all ones, 2^384-1 as the unreduced second
 * operand, t = pR-1 for the reduction - for the Montgomery product, the 768-bit product and
 * the Montgomery reduction; results are checked against each other, against an independent
 * identity (mul == redc(mul_wide)) and against known answers (R^2 * 1 = R mod p, 1 * 1 = R^-1).
 * No GMP: this test also runs on 32-bit targets.
 */
#include <stdio.h>
#include <string.h>

#include "bls12_381/constants.h"
#include "bls12_381/fp.h"
#include "test.h"

static uint64_t rng = 0xf1e1d5eedULL;

typedef void (*mul_fn)(fp *, const fp *, const fp *);
typedef void (*wide_fn)(fp_wide *, const fp *, const fp *);
typedef void (*redc_fn)(fp *, const fp_wide *);

static struct path {
    const char *name;
    mul_fn mul;
    wide_fn wide;
    redc_fn redc;
} paths[3];
static int npaths;

#if !GROVE_BLS_LIMB32
static void mul64(fp *r, const fp *a, const fp *b)
{
    fp_mul_portable(r, a, b);
}
static void wide64(fp_wide *r, const fp *a, const fp *b)
{
    fp_mul_wide_portable(r, a, b);
}
static void redc64(fp *r, const fp_wide *t)
{
    fp_redc_portable(r, t);
}
#endif

/* p * k for k = 1, 2 as limbs (k p < 2^384) */
static void p_times(fp *r, unsigned k)
{
    uint64_t c = 0;
    *r = BLS_FP_P;
    if (k == 2)
        for (int i = 0; i < 6; i++)
            r->l[i] = bls_adc(BLS_FP_P.l[i], BLS_FP_P.l[i], &c);
}

/* r = a - 1 (a > 0) */
static void minus_one(fp *r, const fp *a)
{
    uint64_t b = 0;
    r->l[0] = bls_sbb(a->l[0], 1, &b);
    for (int i = 1; i < 6; i++)
        r->l[i] = bls_sbb(a->l[i], 0, &b);
}

/* 1 iff a < b as integers */
static int less(const fp *a, const fp *b)
{
    uint64_t br = 0;
    for (int i = 0; i < 6; i++)
        (void)bls_sbb(a->l[i], b->l[i], &br);
    return (int)br;
}

/* random value below bound (rejection on the top limb's bit length) */
static void rand_below(fp *r, const fp *bound)
{
    do {
        test_rand_bytes(&rng, (uint8_t *)r->l, sizeof r->l);
        r->l[5] &= 0x3fffffffffffffffULL;
    } while (!less(r, bound));
}

#define NEDGE 12
static fp edge[NEDGE];

static void make_edges(void)
{
    fp p, p2;
    p_times(&p, 1);
    p_times(&p2, 2);
    memset(edge, 0, sizeof edge);
    edge[1].l[0] = 1;                 /* 1 (plain) */
    edge[2] = BLS_FP_ONE;             /* R mod p */
    minus_one(&edge[3], &p);          /* p - 1 */
    edge[4] = p;                      /* p (unreduced) */
    minus_one(&edge[5], &p2);         /* 2p - 1 */
    for (int i = 0; i < 6; i++)       /* alternating all-ones words below p */
        edge[6].l[i] = (i & 1) ? 0 : UINT64_MAX;
    edge[6].l[5] = 0x0a0111ea397fe69aULL;
    edge[7].l[0] = UINT64_MAX;        /* 2^64 - 1 */
    edge[8] = BLS_FP_R2;              /* R^2 mod p */
    edge[9].l[5] = 0x1a0111ea397fe69aULL; /* top limb of p alone */
    for (int i = 0; i < 5; i++)       /* p - 1 with its low words all ones (still < p?) */
        edge[10].l[i] = UINT64_MAX;
    edge[10].l[5] = 0x1a0111ea397fe699ULL;
    edge[11] = p;                     /* p + 1 */
    edge[11].l[0] += 1;
}

static void check_mul(const fp *a, const fp *b)
{
    fp r[3], viaw;
    fp_wide w[3];
    for (int i = 0; i < npaths; i++) {
        paths[i].mul(&r[i], a, b);
        paths[i].wide(&w[i], a, b);
    }
    for (int i = 1; i < npaths; i++) {
        CHECK_MEM((const uint8_t *)r[i].l, (const uint8_t *)r[0].l, sizeof r[0].l);
        CHECK_MEM((const uint8_t *)w[i].l, (const uint8_t *)w[0].l, sizeof w[0].l);
    }
    CHECK(less(&r[0], &BLS_FP_P));
    /* a b < p R here, so the wide product reduces to the Montgomery product on every path */
    for (int i = 0; i < npaths; i++) {
        paths[i].redc(&viaw, &w[0]);
        CHECK_MEM((const uint8_t *)viaw.l, (const uint8_t *)r[0].l, sizeof viaw.l);
    }
}

static void check_redc(const fp_wide *t)
{
    fp r[3];
    for (int i = 0; i < npaths; i++)
        paths[i].redc(&r[i], t);
    for (int i = 1; i < npaths; i++)
        CHECK_MEM((const uint8_t *)r[i].l, (const uint8_t *)r[0].l, sizeof r[0].l);
    CHECK(less(&r[0], &BLS_FP_P));
}

int main(void)
{
    paths[npaths++] = (struct path){"portable-32", bls_fp_mul_limb32, bls_fp_mul_wide_limb32,
                                    bls_fp_redc_limb32};
#if !GROVE_BLS_LIMB32
    paths[npaths++] = (struct path){"portable-64", mul64, wide64, redc64};
#endif
#if GROVE_BLS_MULX_BUILT
    if (bls_fp_mulx_available())
        paths[npaths++] = (struct path){"mulx-adx", bls_fp_mul_mulx, bls_fp_mul_wide_mulx,
                                        bls_fp_redc_mulx};
#endif
    printf("paths:");
    for (int i = 0; i < npaths; i++)
        printf(" %s", paths[i].name);
    printf("; fp_mul uses %s\n", bls_fp_path());
    make_edges();
    fp p, p2, r;
    p_times(&p, 1);
    p_times(&p2, 2);

    /* known answers on every path: R^2 * 1 / R = R mod p; (R mod p) * 1 / R = 1 */
    for (int i = 0; i < npaths; i++) {
        paths[i].mul(&r, &BLS_FP_R2, &edge[1]);
        CHECK_MEM((const uint8_t *)r.l, (const uint8_t *)BLS_FP_ONE.l, sizeof r.l);
        paths[i].mul(&r, &BLS_FP_ONE, &edge[1]);
        CHECK(r.l[0] == 1 && (r.l[1] | r.l[2] | r.l[3] | r.l[4] | r.l[5]) == 0);
        /* p * x = 0 and (p - 1)^2 = R^-1 * 1 (mod p) = from_mont(from_mont(1)) */
        paths[i].mul(&r, &p, &edge[3]);
        CHECK(fp_is_zero(&r));
    }
    /* bls_mac64 (the 128-bit-free helper for code above the field): all-ones extremes and
     * random words against the 32-bit-limb product */
    {
        uint64_t hi, lo = bls_mac64(UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, &hi);
        CHECK(lo == UINT64_MAX && hi == UINT64_MAX);
        for (int k = 0; k < 10000; k++) {
            fp x, y;
            fp_wide w;
            uint64_t v[4];
            test_rand_bytes(&rng, (uint8_t *)v, sizeof v);
            memset(&x, 0, sizeof x);
            memset(&y, 0, sizeof y);
            x.l[0] = v[0];
            y.l[0] = v[1];
            bls_fp_mul_wide_limb32(&w, &x, &y);
            uint64_t c = 0, want_lo = bls_adc(w.l[0], v[2], &c), want_hi = w.l[1] + c;
            c = 0;
            want_lo = bls_adc(want_lo, v[3], &c);
            want_hi += c;
            lo = bls_mac64(v[0], v[1], v[2], v[3], &hi);
            CHECK(lo == want_lo && hi == want_hi);
        }
    }
    /* the dispatched fp_mul, whatever path it took, agrees too */
    fp_mul(&r, &BLS_FP_R2, &edge[1]);
    CHECK(fp_eq(&r, &BLS_FP_ONE));

    /* edge cases: both operands < 2p (incl. p, 2p-1) */
    for (int i = 0; i < NEDGE; i++)
        for (int j = 0; j < NEDGE; j++)
            check_mul(&edge[i], &edge[j]);
    /* first operand < p, second any 6-limb value (fp.c's conversions) */
    fp any;
    memset(&any, 0xff, sizeof any);
    for (int i = 0; i < NEDGE; i++)
        if (less(&edge[i], &p))
            check_mul(&edge[i], &any);
    for (int k = 0; k < 2000; k++) {
        fp a, b;
        rand_below(&a, &p);
        test_rand_bytes(&rng, (uint8_t *)b.l, sizeof b.l);
        check_mul(&a, &b);
    }
    /* random operands below p and below 2p; squares */
    for (int k = 0; k < 20000; k++) {
        fp a, b;
        rand_below(&a, (k & 1) ? &p2 : &p);
        rand_below(&b, (k & 2) ? &p2 : &p);
        check_mul(&a, &b);
        check_mul(&a, &a);
        check_mul(&a, &edge[k % NEDGE]);
    }
    /* reductions: t = pR - 1, t = 0, t with the high half p - 1 and random low halves */
    fp_wide t;
    memset(&t, 0, sizeof t);
    check_redc(&t);
    memset(&t, 0xff, 6 * sizeof(uint64_t));
    minus_one((fp *)&t.l[6], &p);
    check_redc(&t); /* p R - 1 */
    for (int k = 0; k < 20000; k++) {
        fp hi;
        test_rand_bytes(&rng, (uint8_t *)t.l, 6 * sizeof(uint64_t));
        rand_below(&hi, &p);
        memcpy(&t.l[6], hi.l, sizeof hi.l);
        check_redc(&t);
    }
    /* chained: a long run of dependent products stays identical (catches a rare carry) */
    fp x[3];
    for (int i = 0; i < npaths; i++)
        x[i] = edge[6];
    for (int k = 0; k < 100000; k++) {
        for (int i = 0; i < npaths; i++)
            paths[i].mul(&x[i], &x[i], (k & 1) ? &x[i] : &edge[5]);
        if (k % 1000 == 0)
            for (int i = 1; i < npaths; i++)
                CHECK_MEM((const uint8_t *)x[i].l, (const uint8_t *)x[0].l, sizeof x[0].l);
    }
    for (int i = 1; i < npaths; i++)
        CHECK_MEM((const uint8_t *)x[i].l, (const uint8_t *)x[0].l, sizeof x[0].l);
    return test_done();
}
