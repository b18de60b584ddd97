/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The STM lottery's exact loop (src/stm/lottery.c, own integers) against the same rule on GMP
 * rationals (mithril-stm's loop: Taylor series of exp(x) with error term 3 |next term|, at
 * most 1000 iterations, undecided = lost), which is the oracle here only. Inputs:
 *  - random (phi_f, stake, total, ev);
 *  - adversarial: for each (phi_f, stake, total), the ev where the decision changes, found by
 *    bisection on ev (q = 2^512 / (2^512 - ev) grows with ev), and its neighbours;
 *  - every phi_f, stake and total_stake of the shared stm and stm-cbor vectors (and the
 *    lottery rows' own ev), each with its boundary ev;
 *  - the worst case: the largest x (phi_f = 0.95, stake = total) on its boundary, and x = 2.626
 *    (the most iterations found by a scan over x, 123); every count must stay within 1000.
 * Without GMP for the target (cross builds) the test is skipped (exit 77).
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grove/io.h"
#include "grove/json.h"
#include "stm/lottery.h"
#include "test.h"

#if GROVE_TEST_HAVE_GMP
#include <gmp.h>

/* The exact rule on GMP rationals: 1 won, 0 lost (phi_f < 1 and stake > 0 here). */
static int oracle(const stm_lottery *lot, const uint8_t ev[64])
{
    mpz_t z, divisor;
    mpq_t q, x, w, phi, term, err, bound;
    mpz_inits(z, divisor, NULL);
    mpq_inits(q, x, w, phi, term, err, bound, NULL);
    mpz_import(z, 64, -1, 1, 0, 0, ev); /* ev: little-endian bytes */
    mpz_t two512;
    mpz_init(two512);
    mpz_setbit(two512, 512);
    mpq_set_num(q, two512);
    mpz_sub(two512, two512, z);
    mpq_set_den(q, two512);
    mpq_canonicalize(q);
    mpz_clear(two512);
    mpq_set_d(x, log(1.0 - lot->phi_f));
    mpz_import(z, 1, 1, sizeof lot->stake, 0, 0, &lot->stake);
    mpq_set_num(w, z);
    mpz_import(z, 1, 1, sizeof lot->total, 0, 0, &lot->total);
    mpq_set_den(w, z);
    mpq_canonicalize(w);
    mpq_mul(x, x, w);
    mpq_neg(x, x);
    mpq_set(term, x);
    mpq_set_ui(phi, 1, 1);
    mpz_set_ui(divisor, 1);
    int won = 0;
    for (int it = 0; it < 1000; it++) {
        mpq_add(phi, phi, term);
        mpz_add_ui(divisor, divisor, 1);
        mpq_mul(term, term, x);
        mpq_set_z(w, divisor);
        mpq_div(term, term, w);
        mpq_abs(err, term);
        mpq_set_ui(w, 3, 1);
        mpq_mul(err, err, w);
        mpq_add(bound, phi, err);
        if (mpq_cmp(q, bound) > 0)
            break;
        mpq_sub(bound, phi, err);
        if (mpq_cmp(q, bound) < 0) {
            won = 1;
            break;
        }
    }
    mpz_clears(z, divisor, NULL);
    mpq_clears(q, x, w, phi, term, err, bound, NULL);
    return won;
}

static uint64_t rng = 0x5eed1077e4ull;
static long compared;
static int max_iterations;

/* new loop == oracle for one ev; returns the decision */
static int compare(const stm_lottery *lot, const uint8_t ev[64])
{
    int it = 0;
    int got = stm_lottery_exact_iter(lot, ev, &it);
    int want = oracle(lot, ev);
    if (got != want) {
        fprintf(stderr, "phi_f %.17g stake %llu total %llu: got %d, GMP %d (%d iterations)\n",
                lot->phi_f, (unsigned long long)lot->stake, (unsigned long long)lot->total, got,
                want, it);
        CHECK(got == want);
    }
    CHECK(it >= 0 && it <= 1000);
    if (it > max_iterations)
        max_iterations = it;
    compared++;
    return got;
}

/* ev as a 512-bit little-endian number: ev += d (d = +1 or -1, wrapping) */
static void ev_step(uint8_t ev[64], int d)
{
    for (int i = 0; i < 64; i++) {
        uint8_t old = ev[i];
        ev[i] = (uint8_t)(ev[i] + d);
        if ((d > 0 && ev[i] != 0) || (d < 0 && old != 0))
            break;
    }
}

/*
 * The boundary: the largest ev the new loop says is won (ev = 0 won, ev = 2^512 - 1 lost),
 * by bisection with the new loop; then the oracle on it and around it. Returns the number of
 * iterations at the boundary.
 */
static int boundary(const stm_lottery *lot)
{
    uint8_t lo[64] = {0}, hi[64], mid[64];
    memset(hi, 0xff, 64);
    if (stm_lottery_exact(lot, lo) != 1 || stm_lottery_exact(lot, hi) != 0) {
        /* no boundary to find (e.g. x so small that ev = 0 is lost): the ends only */
        compare(lot, lo);
        compare(lot, hi);
        return 0;
    }
    for (int bit = 511; bit >= 0; bit--) {
        memcpy(mid, lo, 64);
        mid[bit / 8] = (uint8_t)(mid[bit / 8] | (1u << (bit % 8)));
        if (stm_lottery_exact(lot, mid) == 1)
            memcpy(lo, mid, 64); /* invariant: lo won */
    }
    int it = 0, it2 = 0;
    CHECK_EQ_INT(stm_lottery_exact_iter(lot, lo, &it), 1);
    CHECK_EQ_INT(compare(lot, lo), 1);
    uint8_t e[64];
    memcpy(e, lo, 64);
    ev_step(e, 1);
    CHECK_EQ_INT(stm_lottery_exact_iter(lot, e, &it2), 0);
    if (it2 > it)
        it = it2;
    CHECK_EQ_INT(compare(lot, e), 0);
    ev_step(e, 1);
    compare(lot, e);
    memcpy(e, lo, 64);
    ev_step(e, -1);
    compare(lot, e);
    return it;
}

static int lottery(stm_lottery *lot, double phi, uint64_t stake, uint64_t total)
{
    if (stm_lottery_init(lot, phi, stake, total) != GROVE_OK || lot->mode != 0)
        return 0;
    return 1;
}

static void test_random(void)
{
    const double phis[] = {0.2, 0.5, 0.65, 0.8, 0.95, 0.05, 1e-6, 0x1p-52, 0x1p-40};
    for (int t = 0; t < 400; t++) {
        double phi = t % 10 < 9 ? phis[t % 9]
                                : 0.95 * (double)(test_rand_u64(&rng) >> 11) * 0x1p-53 + 1e-9;
        uint64_t total = 1 + test_rand_u64(&rng) % (t % 3 == 0 ? 10 : UINT64_MAX - 1);
        uint64_t stake = 1 + test_rand_u64(&rng) % total;
        stm_lottery lot;
        if (!lottery(&lot, phi, stake, total))
            continue;
        uint8_t ev[64];
        test_rand_bytes(&rng, ev, 64);
        compare(&lot, ev);
        if (t % 6 == 0)
            boundary(&lot);
    }
    /* x = 0 (phi_f so small that 1 - phi_f rounds to 1): never won, ev = 0 included */
    stm_lottery lot;
    CHECK(lottery(&lot, 1e-300, 5, 7));
    uint8_t ev[64] = {0};
    CHECK_EQ_INT(compare(&lot, ev), 0);
    memset(ev, 0x80, 64);
    CHECK_EQ_INT(compare(&lot, ev), 0);
}

/* the largest x: phi_f = 0.95 with all the stake, for several totals */
static void test_worst_case(void)
{
    const uint64_t totals[] = {1, 2, 3, 1000003, UINT64_C(45000000000000000), UINT64_MAX};
    int worst = 0;
    for (size_t i = 0; i < sizeof totals / sizeof totals[0]; i++) {
        stm_lottery lot;
        CHECK(lottery(&lot, 0.95, totals[i], totals[i]));
        int it = boundary(&lot);
        if (it > worst)
            worst = it;
        CHECK(lottery(&lot, 0.95, totals[i] - totals[i] / 3, totals[i]));
        boundary(&lot);
    }
    printf("largest x (phi_f 0.95, stake = total): %d iterations at the decision boundary\n",
           worst);
    /* the most iterations found (tests/stm/test_stm_lottery.c's scan of stake/total = s/300 at
     * phi_f 0.95): x = 2.626, 123 iterations; above x ~ 2.68 the crate's first iterations
     * decide lost before e^x, below it the boundary is e^x and x^n/n! must fall below ~2^-512 */
    stm_lottery lot;
    CHECK(lottery(&lot, 0.95, 263, 300));
    int it = boundary(&lot);
    printf("phi_f 0.95, stake/total 263/300 (x = %.4f): %d iterations at the boundary\n", lot.x,
           it);
    CHECK(it > 100);
}

/* ---- the shared vectors ------------------------------------------------------------------- */

#define MAXV 64
typedef struct {
    double phi[MAXV];
    uint64_t stake[MAXV], total[MAXV];
    size_t nphi, nstake, ntotal;
} vec_values;

static void add_u64(uint64_t *a, size_t *n, uint64_t v)
{
    for (size_t i = 0; i < *n; i++)
        if (a[i] == v)
            return;
    if (*n < MAXV)
        a[(*n)++] = v;
}

static void add_phi(vec_values *v, double p)
{
    for (size_t i = 0; i < v->nphi; i++)
        if (v->phi[i] == p)
            return;
    if (v->nphi < MAXV)
        v->phi[v->nphi++] = p;
}

static long lottery_rows;

/* Every phi_f, stake, total_stake of a tree; the sum of the stakes of each array of parties
 * counts as a total too; objects with ev and won (lottery rows) are checked as they are. */
static void walk(const grove_json_doc *doc, const grove_json_node *n, vec_values *v)
{
    if (n->type == GROVE_JSON_ARRAY) {
        uint64_t sum = 0;
        int all = n->count > 0;
        for (const grove_json_node *c = grove_json_first(doc, n); c; c = grove_json_next(doc, c)) {
            const grove_json_node *s = grove_json_get(doc, c, "stake");
            uint64_t u;
            if (s && grove_json_u64(s, &u) == GROVE_OK && sum + u >= sum)
                sum += u;
            else
                all = 0;
            walk(doc, c, v);
        }
        if (all)
            add_u64(v->total, &v->ntotal, sum);
        return;
    }
    if (n->type != GROVE_JSON_OBJECT)
        return;
    const grove_json_node *p = grove_json_get(doc, n, "phi_f");
    const grove_json_node *s = grove_json_get(doc, n, "stake");
    const grove_json_node *t = grove_json_get(doc, n, "total_stake");
    const grove_json_node *e = grove_json_get(doc, n, "ev");
    double phi = 0;
    uint64_t stake = 0, total = 0;
    if (p && grove_json_double(doc, p, &phi) == GROVE_OK)
        add_phi(v, phi);
    if (s && grove_json_u64(s, &stake) == GROVE_OK)
        add_u64(v->stake, &v->nstake, stake);
    if (t && grove_json_u64(t, &total) == GROVE_OK)
        add_u64(v->total, &v->ntotal, total);
    size_t hl;
    const char *hex = e ? grove_json_str(doc, e, &hl) : NULL;
    stm_lottery lot;
    if (p && s && t && hex && hl == 128 && lottery(&lot, phi, stake, total)) {
        char buf[129];
        memcpy(buf, hex, 128);
        buf[128] = 0;
        uint8_t ev[64];
        CHECK(test_unhex_into(ev, 64, buf) == 1);
        const grove_json_node *w = grove_json_get(doc, n, "won");
        int got = compare(&lot, ev);
        if (w)
            CHECK_EQ_INT(got, w->type == GROVE_JSON_TRUE);
        lottery_rows++;
    }
    for (const grove_json_node *c = grove_json_first(doc, n); c; c = grove_json_next(doc, c))
        walk(doc, c, v);
}

static void test_vector_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    uint8_t *data = NULL;
    size_t len = 0;
    CHECK_EQ_INT(grove_file_read_fd(fd, (size_t)32 << 20, &data, &len), GROVE_OK);
    close(fd);
    grove_json_doc *doc = NULL;
    CHECK_EQ_INT(grove_json_parse(&doc, (const char *)data, len), GROVE_OK);
    if (!doc) {
        free(data);
        return;
    }
    vec_values v;
    memset(&v, 0, sizeof v);
    walk(doc, grove_json_root(doc), &v); /* numbers are read from the input text */
    grove_json_free(doc);
    free(data);
    long before = compared;
    for (size_t i = 0; i < v.nphi; i++)
        for (size_t j = 0; j < v.ntotal; j++)
            for (size_t k = 0; k < v.nstake; k++) {
                stm_lottery lot;
                if (lottery(&lot, v.phi[i], v.stake[k], v.total[j]))
                    boundary(&lot);
            }
    printf("%s: %zu phi_f, %zu stakes, %zu totals: %ld comparisons\n", path, v.nphi, v.nstake,
           v.ntotal, compared - before);
}

static void test_vectors(void)
{
    const char *sub[] = {"stm", "stm-cbor"};
    const char *files[][8] = {
        {"lottery.json", "aggregate_2party.json", "aggregate_5party.json", "parameters.json",
         "single_signature_2party.json", NULL},
        {"group_seed1_n5_k5_m50.json", "group_seed2_n8_k5_m50.json",
         "group_seed3_n12_k25_m150.json", NULL}};
    for (int d = 0; d < 2; d++) {
        const char *dir = test_vectors_dir(sub[d]);
        for (int f = 0; files[d][f]; f++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, files[d][f]);
            test_vector_file(path);
        }
    }
    CHECK(lottery_rows > 0);
}

int main(void)
{
    test_random();
    test_worst_case();
    test_vectors();
    printf("%ld comparisons with GMP, at most %d iterations\n", compared, max_iterations);
    return test_done();
}

#else
int main(void)
{
    printf("SKIP: no GMP for this target (the oracle of this test)\n");
    return TEST_SKIP;
}
#endif
