/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The parallel-for (src/common/pool.c): coverage, errors, thread-creation failure, dynamic
 * scheduling, results independent of the thread count, and the persistent pool: threads == 1
 * never touches it, threads are reused and grown only as needed, nested calls run inline,
 * concurrent callers, fork() with and without a call in flight. */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
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


static int nest_err_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    (void)begin;
    (void)end;
    return grove_parallel_for(4, 10, 1, err_fn, arg);
}

/* ---- threads == 1 (or one chunk) never touches the pool ------------------------------------- */
typedef struct {
    pthread_t caller;
    _Atomic int elsewhere; /* a chunk ran on another thread */
    _Atomic size_t items;
} where_ctx;

static int where_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    where_ctx *w = arg;
    (void)worker;
    if (!pthread_equal(pthread_self(), w->caller))
        atomic_store(&w->elsewhere, 1);
    atomic_fetch_add(&w->items, end - begin);
    return GROVE_OK;
}

static void where_init(where_ctx *w)
{
    w->caller = pthread_self();
    atomic_init(&w->elsewhere, 0);
    atomic_init(&w->items, 0);
}

/* Must run before anything else in this process uses the pool. */
static void single_untouched(void)
{
    where_ctx w;
    CHECK_EQ_INT(grove_pool_threads(), 0);
    where_init(&w);
    CHECK_EQ_INT(grove_parallel_for(1, 1000, 1, where_fn, &w), GROVE_OK);
    CHECK_EQ_INT(grove_parallel_for(8, 5, 10, where_fn, &w), GROVE_OK); /* one chunk */
    CHECK_EQ_INT(grove_parallel_for(GROVE_THREADS_AUTO, 1, 1, where_fn, &w), GROVE_OK);
    CHECK_EQ_INT(atomic_load(&w.items), 1006);
    CHECK_EQ_INT(atomic_load(&w.elsewhere), 0);
    CHECK_EQ_INT(grove_pool_threads(), 0);
}

/* ---- persistent threads: reused, grown only as far as a call wants -------------------------- */
static _Atomic int next_tag;
static _Thread_local int my_tag; /* 0 in every new thread */

typedef struct {
    _Atomic int seen[1024]; /* tags that ran a chunk */
    unsigned workers;
    _Atomic int bad;
    _Atomic int unmasked; /* a pool thread would take SIGINT */
    _Atomic int pool_ran; /* a pool thread ran a chunk */
} tag_ctx;

static int tag_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    tag_ctx *t = arg;
    (void)begin;
    (void)end;
    if (my_tag == 0)
        my_tag = atomic_fetch_add(&next_tag, 1) + 1;
    if (my_tag < 1024)
        atomic_store(&t->seen[my_tag], 1);
    else
        atomic_store(&t->bad, 1);
    if (worker >= t->workers)
        atomic_store(&t->bad, 1);
    if (worker != 0) {
        sigset_t cur;
        atomic_store(&t->pool_ran, 1);
        if (pthread_sigmask(SIG_SETMASK, NULL, &cur) != 0 || !sigismember(&cur, SIGINT))
            atomic_store(&t->unmasked, 1);
    }
    /* a little work, so that the pool threads get a share */
    volatile uint64_t x = begin;
    for (int i = 0; i < 2000; i++)
        x = x * 6364136223846793005ULL + 1;
    return GROVE_OK;
}

static int tags_seen(tag_ctx *t)
{
    int n = 0;
    for (int i = 0; i < 1024; i++)
        n += atomic_load(&t->seen[i]);
    return n;
}

static void persistent(void)
{
    static tag_ctx t;
    memset(&t, 0, sizeof t);
    t.workers = 4;
    CHECK_EQ_INT(grove_parallel_for(4, 400, 1, tag_fn, &t), GROVE_OK);
    CHECK_EQ_INT(grove_pool_threads(), 3);
    /* 300 more calls: with threads created per call, every call would bring new tags */
    for (int i = 0; i < 300; i++) {
        t.workers = (unsigned)(2 + i % 3);
        CHECK_EQ_INT(grove_parallel_for(t.workers, 400, 1, tag_fn, &t), GROVE_OK);
    }
    CHECK_EQ_INT(grove_pool_threads(), 3); /* no call wanted more than 4 workers */
    CHECK(tags_seen(&t) <= 4);             /* the caller and the same three threads */
    CHECK(tags_seen(&t) >= 2);             /* and the pool did take part */
    CHECK_EQ_INT(atomic_load(&t.bad), 0);
    CHECK(atomic_load(&t.pool_ran));
    CHECK_EQ_INT(atomic_load(&t.unmasked), 0); /* signals go to the application's threads */
    /* fewer chunks than threads asked for: the pool does not grow */
    t.workers = 3;
    CHECK_EQ_INT(grove_parallel_for(16, 3, 1, tag_fn, &t), GROVE_OK);
    CHECK_EQ_INT(grove_pool_threads(), 3);
    /* more wanted: grown by exactly the difference */
    t.workers = 6;
    CHECK_EQ_INT(grove_parallel_for(6, 400, 1, tag_fn, &t), GROVE_OK);
    CHECK_EQ_INT(grove_pool_threads(), 5);
    CHECK_EQ_INT(atomic_load(&t.bad), 0);
}

/* ---- nested calls run inline on the thread that makes them ---------------------------------- */
typedef struct {
    uint64_t out[64][64];
    _Atomic int off_thread; /* an inner chunk ran on another thread than its outer chunk */
    _Atomic int inner_worker; /* an inner chunk saw worker != 0 */
} nest_ctx;

typedef struct {
    nest_ctx *n;
    size_t row;
    pthread_t outer;
} nest_inner;

static int inner_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    nest_inner *in = arg;
    if (!pthread_equal(pthread_self(), in->outer))
        atomic_store(&in->n->off_thread, 1);
    if (worker != 0)
        atomic_store(&in->n->inner_worker, 1);
    for (size_t i = begin; i < end; i++)
        in->n->out[in->row][i] = mix(in->row * 64 + i);
    return GROVE_OK;
}

static int outer_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    for (size_t r = begin; r < end; r++) {
        nest_inner in = {.n = arg, .row = r, .outer = pthread_self()};
        int rc = grove_parallel_for(4, 64, 1, inner_fn, &in);
        if (rc != GROVE_OK)
            return rc;
    }
    return GROVE_OK;
}

static void nested(void)
{
    static nest_ctx n;
    for (unsigned threads = 2; threads <= 4; threads++) {
        memset(&n, 0, sizeof n);
        CHECK_EQ_INT(grove_parallel_for(threads, 64, 1, outer_fn, &n), GROVE_OK);
        CHECK_EQ_INT(atomic_load(&n.off_thread), 0);
        CHECK_EQ_INT(atomic_load(&n.inner_worker), 0);
        int wrong = 0;
        for (size_t r = 0; r < 64; r++)
            for (size_t i = 0; i < 64; i++)
                wrong += n.out[r][i] != mix(r * 64 + i);
        CHECK_EQ_INT(wrong, 0);
    }
    /* an inner error comes out of the outer call */
    err_ctx e = {.fail_at = 5, .fail_at2 = SIZE_MAX};
    atomic_init(&e.ran, 0);
    CHECK_EQ_INT(grove_parallel_for(3, 4, 1, nest_err_fn, &e), GROVE_ERR_IO);
}

/* ---- concurrent calls from several application threads ------------------------------------- */
#define APP_THREADS 4
#define APP_ITEMS 3000

typedef struct {
    unsigned id;
    uint64_t out[APP_ITEMS];
    unsigned workers;
    _Atomic int bad;
    int ok;
} app_ctx;

static int app_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    app_ctx *a = arg;
    if (worker >= a->workers)
        atomic_store(&a->bad, 1);
    for (size_t i = begin; i < end; i++)
        a->out[i] = mix(((uint64_t)a->id << 32) ^ i);
    return GROVE_OK;
}

static void *app_main(void *p)
{
    app_ctx *a = p;
    a->ok = 1;
    for (int round = 0; round < 40; round++) {
        memset(a->out, 0, sizeof a->out);
        unsigned threads = (unsigned)(2 + (round + (int)a->id) % 3);
        a->workers = grove_pool_workers(threads, APP_ITEMS, 7);
        if (grove_parallel_for(threads, APP_ITEMS, 7, app_fn, a) != GROVE_OK)
            a->ok = 0;
        for (size_t i = 0; i < APP_ITEMS; i++)
            if (a->out[i] != mix(((uint64_t)a->id << 32) ^ i))
                a->ok = 0;
    }
    if (atomic_load(&a->bad))
        a->ok = 0;
    return NULL;
}

static void concurrent(void)
{
    static app_ctx apps[APP_THREADS];
    pthread_t th[APP_THREADS];
    int started[APP_THREADS] = {0};
    for (unsigned i = 0; i < APP_THREADS; i++) {
        memset(&apps[i], 0, sizeof apps[i]);
        apps[i].id = i + 1;
        started[i] = pthread_create(&th[i], NULL, app_main, &apps[i]) == 0;
        CHECK(started[i]);
    }
    for (unsigned i = 0; i < APP_THREADS; i++)
        if (started[i]) {
            pthread_join(th[i], NULL);
            CHECK(apps[i].ok);
        }
}

/* ---- the first error wins and the remaining chunks are skipped (several threads) ------------ */
typedef struct {
    _Atomic int failed;
    _Atomic size_t ran;
} skip_ctx;

static int skip_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    skip_ctx *s = arg;
    (void)end;
    (void)worker;
    atomic_fetch_add(&s->ran, 1);
    if (begin == 0) {
        atomic_store(&s->failed, 1);
        return GROVE_ERR_STATE;
    }
    /* until item 0 failed, the others wait (at most ~5 s), then each takes 0.1 ms */
    for (int i = 0; i < 5000 && !atomic_load(&s->failed); i++)
        nap();
    struct timespec ts = {0, 100000};
    nanosleep(&ts, NULL);
    return GROVE_OK;
}

static void error_skips(void)
{
    skip_ctx s;
    atomic_init(&s.failed, 0);
    atomic_init(&s.ran, 0);
    CHECK_EQ_INT(grove_parallel_for(3, 100000, 1, skip_fn, &s), GROVE_ERR_STATE);
    /* all 100000 would take >= 3 s on two helpers; after the error only the running ones end */
    CHECK(atomic_load(&s.ran) < 1000);
}

/* ---- fork(): the child has no pool threads and builds its own --------------------------------- */
typedef struct {
    _Atomic int in_call; /* the application thread's call is running */
    _Atomic int release;
} hold_ctx;

static int hold_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    hold_ctx *h = arg;
    (void)begin;
    (void)end;
    (void)worker;
    atomic_store(&h->in_call, 1);
    for (int i = 0; i < 10000 && !atomic_load(&h->release); i++)
        nap();
    return GROVE_OK;
}

static void *hold_main(void *p)
{
    (void)grove_parallel_for(2, 4, 1, hold_fn, p);
    return NULL;
}

/* In the child: the pool starts empty, works, and grows. Exit status 0 iff all held. */
static int child_checks(void)
{
    static cover_ctx c;
    if (grove_pool_threads() != 0)
        return 1;
    if (!cover_once(&c, 4, 500, 3))
        return 2;
    if (grove_pool_threads() != 3)
        return 3;
    if (!cover_once(&c, 2, 500, 1))
        return 4;
    return 0;
}

static int fork_and_check(void)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        _exit(child_checks());
    int st = 0;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return -2;
    return WEXITSTATUS(st);
}

static void after_fork(void)
{
    CHECK(grove_pool_threads() > 0); /* the parent has a pool that the child must not inherit */
    CHECK_EQ_INT(fork_and_check(), 0);
    /* fork while another thread of the parent is inside a parallel call */
    hold_ctx h;
    atomic_init(&h.in_call, 0);
    atomic_init(&h.release, 0);
    pthread_t th;
    int started = pthread_create(&th, NULL, hold_main, &h) == 0;
    CHECK(started);
    if (!started)
        return;
    for (int i = 0; i < 5000 && !atomic_load(&h.in_call); i++)
        nap();
    CHECK(atomic_load(&h.in_call));
    CHECK_EQ_INT(fork_and_check(), 0);
    atomic_store(&h.release, 1);
    pthread_join(th, NULL);
    /* and the parent's pool still works */
    static cover_ctx c;
    CHECK(cover_once(&c, 4, 1000, 1));
}

/* ---- a limited pool: the caller alone, or fewer workers --------------------------------- */
typedef struct {
    pthread_t caller;
    unsigned max_worker;
    _Atomic int elsewhere;
    _Atomic unsigned top; /* highest worker index seen */
} limit_ctx;

static int limit_fn(void *arg, size_t begin, size_t end, unsigned worker)
{
    limit_ctx *l = arg;
    (void)begin;
    (void)end;
    if (!pthread_equal(pthread_self(), l->caller))
        atomic_store(&l->elsewhere, 1);
    unsigned top = atomic_load(&l->top);
    while (worker > top && !atomic_compare_exchange_weak(&l->top, &top, worker))
        ;
    return GROVE_OK;
}

static void limited(void)
{
    limit_ctx l = {.caller = pthread_self()};
    atomic_init(&l.elsewhere, 0);
    atomic_init(&l.top, 0);
    grove_pool_test_limit_threads(0);
    CHECK_EQ_INT(grove_parallel_for(8, 2000, 1, limit_fn, &l), GROVE_OK);
    CHECK_EQ_INT(atomic_load(&l.elsewhere), 0); /* the caller alone */
    grove_pool_test_limit_threads(1);
    for (int i = 0; i < 50; i++)
        CHECK_EQ_INT(grove_parallel_for(8, 200, 1, limit_fn, &l), GROVE_OK);
    CHECK(atomic_load(&l.top) <= 1); /* never worker 2 or above */
    grove_pool_test_limit_threads(-1);
}

/* `--no-fork`: skip the fork cases (qemu-user aborts in the child of a multi-threaded process,
 * a limitation of the emulator; tests/CMakeLists.txt passes it when cross compiling). */
int main(int argc, char **argv)
{
    const int no_fork = argc > 1 && strcmp(argv[1], "--no-fork") == 0;
    single_untouched(); /* first: before anything starts the pool */
    persistent();
    workers();
    coverage();
    deterministic();
    errors();
    creation_failure();
    dynamic_scheduling();
    nested();
    concurrent();
    error_skips();
    limited();
    if (!no_fork)
        after_fork();
    return test_done();
}
