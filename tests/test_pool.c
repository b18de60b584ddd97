/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The parallel-for (src/common/pool.c): coverage, errors, thread-creation failure, dynamic
 * scheduling, and results independent of the thread count. */
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/pool.h"
#include "test.h"

#define MAX_COUNT 1000

/* ---- every index exactly once ---------------------------------------------------------------- */
typedef struct {
    _Atomic int hits[MAX_COUNT];
    size_t count, chunk;
    unsigned workers;
    _Atomic int bad; /* a chunk out of shape, or a worker out of range */
} cover_ctx;

static int cover_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    cover_ctx *c = arg;
    if (begin >= end || end > c->count || begin % c->chunk != 0 ||
        (end - begin != c->chunk && end != c->count) || worker >= c->workers)
        atomic_store(&c->bad, 1);
    for (size_t i = begin; i < end && i < MAX_COUNT; i++)
        atomic_fetch_add(&c->hits[i], 1);
    return GROVE_OK;
}

/* Runs count items and checks every one ran once; returns 1 iff so. */
static int cover_once(cover_ctx *c, unsigned threads, size_t count, size_t chunk)
{
    for (size_t i = 0; i < MAX_COUNT; i++)
        atomic_init(&c->hits[i], 0);
    atomic_init(&c->bad, 0);
    c->count = count;
    c->chunk = chunk ? chunk : 1;
    c->workers = grove_pool_workers(threads, count, chunk);
    int ok = grove_parallel_for(threads, count, chunk, cover_fn, c) == GROVE_OK;
    ok &= atomic_load(&c->bad) == 0;
    for (size_t i = 0; i < MAX_COUNT; i++)
        ok &= atomic_load(&c->hits[i]) == (i < count ? 1 : 0);
    return ok;
}

static void coverage(void)
{
    static cover_ctx c;
    int failures = 0;
    for (size_t count = 0; count <= MAX_COUNT; count++)
        for (unsigned threads = 0; threads <= 8; threads++) {
            size_t chunk = count % 4 == 0 ? 1 : (count % 4 == 1 ? 7 : count % 4 == 2 ? 0 : 64);
            if (!cover_once(&c, threads, count, chunk)) {
                if (failures++ < 5)
                    fprintf(stderr, "coverage: count %zu threads %u chunk %zu\n", count, threads,
                            chunk);
            }
        }
    CHECK_EQ_INT(failures, 0);
    CHECK(cover_once(&c, UINT_MAX, MAX_COUNT, 1)); /* bounded: at most GROVE_POOL_MAX_THREADS */
    CHECK(cover_once(&c, 300, MAX_COUNT, 3));
}

static void workers(void)
{
    /* GROVE_THREADS_AUTO: one per online CPU (bounded by the chunks) */
    CHECK_EQ_INT(grove_pool_workers(GROVE_THREADS_AUTO, 100000, 1), grove_pool_cpus());
    CHECK_EQ_INT(grove_pool_workers(GROVE_THREADS_AUTO, 1, 1), 1);
    CHECK_EQ_INT(grove_pool_workers(1, 100, 1), 1);
    CHECK_EQ_INT(grove_pool_workers(4, 100, 1), 4);
    CHECK_EQ_INT(grove_pool_workers(8, 3, 1), 3);
    CHECK_EQ_INT(grove_pool_workers(8, 10, 4), 3); /* three chunks */
    CHECK_EQ_INT(grove_pool_workers(8, 0, 1), 1);
    CHECK_EQ_INT(grove_pool_workers(UINT_MAX, 100000, 1), GROVE_POOL_MAX_THREADS);
    CHECK(grove_pool_cpus() >= 1 && grove_pool_cpus() <= GROVE_POOL_MAX_THREADS);
    CHECK_EQ_INT(grove_parallel_for(4, 0, 1, NULL, NULL), GROVE_OK);
    CHECK_EQ_INT(grove_parallel_for(4, 5, 1, NULL, NULL), GROVE_ERR_INVALID_ARG);
}

/* ---- deterministic results ------------------------------------------------------------------- */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

typedef struct {
    uint64_t *out;
    uint64_t sums[GROVE_POOL_MAX_THREADS]; /* per-worker partial sums, combined by addition */
} det_ctx;

static int det_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    det_ctx *d = arg;
    for (size_t i = begin; i < end; i++) {
        uint64_t v = (uint64_t)i;
        for (int r = 0; r < 50; r++)
            v = mix(v + (uint64_t)r);
        d->out[i] = v;
        d->sums[worker] += v;
    }
    return GROVE_OK;
}

static void deterministic(void)
{
    const size_t n = 5000;
    uint64_t *want = calloc(n, sizeof *want), *got = calloc(n, sizeof *got);
    CHECK(want != NULL && got != NULL);
    if (want == NULL || got == NULL)
        goto out;
    static det_ctx d;
    memset(&d, 0, sizeof d);
    d.out = want;
    CHECK_EQ_INT(grove_parallel_for(1, n, 1, det_fn, &d), GROVE_OK);
    const uint64_t want_sum = d.sums[0];
    for (unsigned threads = 1; threads <= 8; threads++)
        for (size_t chunk = 1; chunk <= 100; chunk *= 10) {
            memset(&d, 0, sizeof d);
            memset(got, 0, n * sizeof *got);
            d.out = got;
            CHECK_EQ_INT(grove_parallel_for(threads, n, chunk, det_fn, &d), GROVE_OK);
            CHECK_MEM(got, want, n * sizeof *got);
            uint64_t sum = 0;
            for (unsigned t = 0; t < GROVE_POOL_MAX_THREADS; t++)
                sum += d.sums[t];
            CHECK(sum == want_sum);
        }
out:
    free(want);
    free(got);
}

/* ---- errors ------------------------------------------------------------------------------- */
typedef struct {
    size_t fail_at, fail_at2;
    _Atomic size_t ran;
} err_ctx;

static int err_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    err_ctx *e = arg;
    (void)worker;
    for (size_t i = begin; i < end; i++) {
        atomic_fetch_add(&e->ran, 1);
        if (i == e->fail_at)
            return GROVE_ERR_IO;
        if (i == e->fail_at2)
            return GROVE_ERR_STATE;
    }
    return GROVE_OK;
}

static void errors(void)
{
    for (unsigned threads = 0; threads <= 8; threads++)
        for (size_t at = 0; at < 200; at += 37) {
            err_ctx e = {.fail_at = at, .fail_at2 = SIZE_MAX};
            atomic_init(&e.ran, 0);
            CHECK_EQ_INT(grove_parallel_for(threads, 200, 1, err_fn, &e), GROVE_ERR_IO);
            CHECK(atomic_load(&e.ran) >= 1);
        }
    /* on the calling thread alone: the first error wins and no chunk starts after it */
    err_ctx e = {.fail_at = 10, .fail_at2 = 20};
    atomic_init(&e.ran, 0);
    CHECK_EQ_INT(grove_parallel_for(1, 100, 1, err_fn, &e), GROVE_ERR_IO);
    CHECK_EQ_INT(atomic_load(&e.ran), 11);
    /* two failing items, several threads: one of the two errors, never GROVE_OK */
    for (unsigned threads = 2; threads <= 8; threads++) {
        err_ctx e2 = {.fail_at = 50, .fail_at2 = 51};
        atomic_init(&e2.ran, 0);
        int rc = grove_parallel_for(threads, 100, 1, err_fn, &e2);
        CHECK(rc == GROVE_ERR_IO || rc == GROVE_ERR_STATE);
    }
}

/* ---- threads that cannot be created --------------------------------------------------------- */
static void creation_failure(void)
{
    static cover_ctx c;
    for (int limit = 0; limit <= 3; limit++) {
        grove_pool_test_limit_threads(limit);
        for (unsigned threads = 0; threads <= 8; threads++)
            CHECK(cover_once(&c, threads, 777, 5));
    }
    grove_pool_test_limit_threads(-1);
}

/* ---- dynamic scheduling: one stalled worker does not hold up the others --------------------- */
typedef struct {
    size_t count;
    _Atomic size_t done;
    _Atomic int helper_started; /* a created worker took a chunk */
    _Atomic int stalled_ok;     /* the stalled worker saw all the others' items done */
} stall_ctx;

static void nap(void)
{
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
}

static int stall_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    stall_ctx *s = arg;
    if (worker == 0 && begin == 0) {
        /* let a created worker take a chunk first (at most ~5 s) */
        for (int i = 0; i < 5000 && !atomic_load(&s->helper_started); i++)
            nap();
    }
    if (worker != 0 && !atomic_exchange(&s->helper_started, 1)) {
        /* this worker stalls until every other item is done (at most ~10 s) */
        size_t others = s->count - (end - begin);
        for (int i = 0; i < 10000 && atomic_load(&s->done) < others; i++)
            nap();
        atomic_store(&s->stalled_ok, atomic_load(&s->done) == others);
    }
    atomic_fetch_add(&s->done, end - begin);
    return GROVE_OK;
}

static void dynamic_scheduling(void)
{
    stall_ctx s = {.count = 200};
    atomic_init(&s.done, 0);
    atomic_init(&s.helper_started, 0);
    atomic_init(&s.stalled_ok, 0);
    CHECK_EQ_INT(grove_parallel_for(2, s.count, 1, stall_fn, &s), GROVE_OK);
    CHECK_EQ_INT(atomic_load(&s.done), s.count);
    CHECK(atomic_load(&s.helper_started));
    CHECK(atomic_load(&s.stalled_ok)); /* the caller did the stalled worker's share */
}

int main(void)
{
    workers();
    coverage();
    deterministic();
    errors();
    creation_failure();
    dynamic_scheduling();
    return test_done();
}
