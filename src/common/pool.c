/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The library's one parallel-for (see pool.h for the contract).
 *
 * One process-wide set of persistent worker threads, created lazily and grown on demand, and
 * one job slot. A call that gets the slot publishes its job, wakes the workers, works on it
 * itself, then withdraws the job and waits only for the workers that joined it (a worker that
 * has not woken up yet never joins a finished job, so it holds nobody up). Worker threads idle
 * on a condition variable between calls.
 *
 * Locking: `mu` guards every field of `P` except the ones marked atomic. fn is never called with
 * `mu` held. The caller and the workers are ordered through `mu` (job published, worker joins,
 * worker leaves, caller sees active == 0), so results written by fn are visible to the caller
 * when grove_parallel_for returns.
 */
#include "common/pool.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

typedef struct {
    grove_pool_fn fn;
    void *arg;
    size_t count, chunk, nchunks;
    unsigned workers;    /* workers 1 .. workers-1 may join */
    _Atomic size_t next; /* the next chunk to take */
    _Atomic int err;     /* the first error, GROVE_OK until then */
} pool_run;

static struct {
    pthread_mutex_t mu;
    pthread_cond_t wake;  /* workers: a job was published (or shutdown) */
    pthread_cond_t left;  /* caller: the last joined worker left the job */
    pool_run *job;        /* the published job, NULL when none */
    unsigned long gen;    /* incremented for every published job */
    unsigned active;      /* workers inside the current job */
    unsigned nthreads;    /* created worker threads (indices 1 .. nthreads) */
    int busy;             /* a call owns the job slot */
    int shutdown;         /* workers exit (process exit / library unload) */
    pthread_t th[GROVE_POOL_MAX_THREADS];
} P = {.mu = PTHREAD_MUTEX_INITIALIZER,
       .wake = PTHREAD_COND_INITIALIZER,
       .left = PTHREAD_COND_INITIALIZER};

/* Set on worker threads, and on a calling thread while it works on its job: a call made from
 * inside fn runs inline on its thread (no deadlock, no second fan-out). */
static _Thread_local int in_pool;

static _Atomic int test_limit = -1;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

void grove_pool_test_limit_threads(int n)
{
    atomic_store(&test_limit, n < 0 ? -1 : n);
}

static size_t chunks_of(size_t count, size_t chunk)
{
    return count / chunk + (count % chunk != 0);
}

unsigned grove_pool_workers(unsigned threads, size_t count, size_t chunk)
{
    size_t nchunks = chunks_of(count, chunk ? chunk : 1);
    unsigned w = threads == GROVE_THREADS_AUTO ? grove_pool_cpus() : threads;
    if (w > GROVE_POOL_MAX_THREADS)
        w = GROVE_POOL_MAX_THREADS;
    if (w > nchunks)
        w = (unsigned)nchunks;
    return w ? w : 1;
}

unsigned grove_pool_cpus(void)
{
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    if (c < 1)
        return 1;
    return c > (long)GROVE_POOL_MAX_THREADS ? GROVE_POOL_MAX_THREADS : (unsigned)c;
}

unsigned grove_pool_threads(void)
{
    pthread_mutex_lock(&P.mu);
    unsigned n = P.nthreads;
    pthread_mutex_unlock(&P.mu);
    return n;
}

static void run_chunks(pool_run *r, unsigned worker)
{
    while (atomic_load_explicit(&r->err, memory_order_relaxed) == GROVE_OK) {
        size_t c = atomic_fetch_add(&r->next, 1);
        if (c >= r->nchunks)
            return;
        size_t begin = c * r->chunk;
        size_t end = r->count - begin > r->chunk ? begin + r->chunk : r->count;
        int rc = r->fn(r->arg, begin, end, worker);
        if (rc != GROVE_OK) {
            int none = GROVE_OK;
            atomic_compare_exchange_strong(&r->err, &none, rc);
            return;
        }
    }
}

static void *thread_main(void *p)
{
    const unsigned me = (unsigned)(uintptr_t)p;
    in_pool = 1;
    pthread_mutex_lock(&P.mu);
    unsigned long seen = P.gen;
    for (;;) {
        while (!P.shutdown && (P.job == NULL || P.gen == seen))
            pthread_cond_wait(&P.wake, &P.mu);
        if (P.shutdown)
            break;
        seen = P.gen;
        pool_run *r = P.job;
        if (me >= r->workers)
            continue; /* this job wants fewer workers */
        P.active++;
        pthread_mutex_unlock(&P.mu);
        run_chunks(r, me);
        pthread_mutex_lock(&P.mu);
        if (--P.active == 0)
            pthread_cond_signal(&P.left);
    }
    pthread_mutex_unlock(&P.mu);
    return NULL;
}

/* fork(): the child has only the forking thread. Holding `mu` across fork() means the child's
 * copy of the pool is consistent; the child then forgets the workers (they do not exist there)
 * and its first parallel call creates new ones. */
static void atfork_prepare(void)
{
    pthread_mutex_lock(&P.mu);
}

static void atfork_parent(void)
{
    pthread_mutex_unlock(&P.mu);
}

static void atfork_child(void)
{
    P.job = NULL;
    P.active = 0;
    P.nthreads = 0;
    P.busy = 0; /* a job of another parent thread is not the child's */
    P.shutdown = 0;
    /* the condition variables may record waiters (the parent's workers) that do not exist
     * here, and glibc's signal/broadcast can wait for such waiters: start them afresh */
    pthread_cond_init(&P.wake, NULL);
    pthread_cond_init(&P.left, NULL);
    pthread_mutex_unlock(&P.mu);
}

static void register_atfork(void)
{
    (void)pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

/* Process exit or unloading the shared library: idle workers exit and are joined, so that no
 * worker runs code of an unloaded library and leak checkers see no live threads. Workers of a
 * call still running (exit() from another thread, or from inside fn) are left alone. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((destructor)) static void pool_stop(void)
{
    pthread_mutex_lock(&P.mu);
    if (P.busy || P.nthreads == 0) {
        pthread_mutex_unlock(&P.mu);
        return;
    }
    P.shutdown = 1;
    P.busy = 1; /* a call made meanwhile (another thread) runs inline and leaves P.th alone */
    const unsigned n = P.nthreads;
    P.nthreads = 0;
    pthread_cond_broadcast(&P.wake);
    pthread_mutex_unlock(&P.mu);
    for (unsigned t = 0; t < n; t++)
        pthread_join(P.th[t], NULL);
    pthread_mutex_lock(&P.mu);
    P.shutdown = 0;
    P.busy = 0;
    pthread_mutex_unlock(&P.mu);
}
#endif

/* With `mu` held: grows the pool towards want - 1 threads; a thread that cannot be created is
 * no error (fewer workers take the chunks). Returns the workers a job may use (>= 1). */
static unsigned grow_locked(unsigned want)
{
    int limit = atomic_load(&test_limit);
    unsigned cap = want - 1;
    if (limit >= 0 && (unsigned)limit < cap)
        cap = (unsigned)limit;
    if (P.nthreads >= cap)
        return cap + 1;
    /* workers block every signal: the application's handlers run on its own threads */
    sigset_t all, old;
    sigfillset(&all);
    const int masked = pthread_sigmask(SIG_SETMASK, &all, &old) == 0;
    while (P.nthreads < cap) {
        unsigned idx = P.nthreads + 1;
        if (pthread_create(&P.th[P.nthreads], NULL, thread_main, (void *)(uintptr_t)idx) != 0)
            break;
        P.nthreads++;
    }
    if (masked)
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    return (P.nthreads < cap ? P.nthreads : cap) + 1;
}

int grove_parallel_for(unsigned threads, size_t count, size_t chunk, grove_pool_fn fn, void *arg)
{
    if (count == 0)
        return GROVE_OK;
    if (fn == NULL)
        return GROVE_ERR_INVALID_ARG;
    if (chunk == 0)
        chunk = 1;
    pool_run r = {.fn = fn, .arg = arg, .count = count, .chunk = chunk,
                  .nchunks = chunks_of(count, chunk), .workers = 1};
    /* the counter passes nchunks by at most one step per worker */
    if (r.nchunks > SIZE_MAX - GROVE_POOL_MAX_THREADS)
        return GROVE_ERR_OVERFLOW;
    atomic_init(&r.next, 0);
    atomic_init(&r.err, GROVE_OK);
    const unsigned nw = grove_pool_workers(threads, count, chunk);
    /* inline: one worker wanted, a call from inside fn, or the pool busy with another thread's
     * call (concurrent callers do not queue: the later ones run alone on their own thread) */
    int mine = 0;
    if (nw > 1 && !in_pool) {
        pthread_once(&atfork_once, register_atfork);
        pthread_mutex_lock(&P.mu);
        if (!P.busy) {
            P.busy = mine = 1;
            r.workers = grow_locked(nw);
            if (r.workers > 1) {
                P.job = &r;
                P.gen++;
                pthread_cond_broadcast(&P.wake);
            }
        }
        pthread_mutex_unlock(&P.mu);
    }
    const int outer = in_pool;
    in_pool = 1;
    run_chunks(&r, 0);
    in_pool = outer;
    if (mine) {
        pthread_mutex_lock(&P.mu);
        P.job = NULL; /* workers not yet inside never join it */
        while (P.active > 0)
            pthread_cond_wait(&P.left, &P.mu);
        P.busy = 0;
        pthread_mutex_unlock(&P.mu);
    }
    return atomic_load(&r.err);
}
