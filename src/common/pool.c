/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The library's one parallel-for (see pool.h). */
#include "common/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

typedef struct {
    grove_pool_fn fn;
    void *arg;
    size_t count, chunk, nchunks;
    _Atomic size_t next; /* the next chunk to take */
    _Atomic int err;     /* the first error, GROVE_OK until then */
} pool_run;

typedef struct {
    pool_run *run;
    unsigned worker;
} pool_worker;

static _Atomic int test_limit = -1;

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
    pool_worker *w = p;
    run_chunks(w->run, w->worker);
    return NULL;
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
                  .nchunks = chunks_of(count, chunk)};
    /* the counter passes nchunks by at most one step per worker */
    if (r.nchunks > SIZE_MAX - GROVE_POOL_MAX_THREADS)
        return GROVE_ERR_OVERFLOW;
    atomic_init(&r.next, 0);
    atomic_init(&r.err, GROVE_OK);
    unsigned nw = grove_pool_workers(threads, count, chunk);
    pthread_t th[GROVE_POOL_MAX_THREADS];
    pool_worker ws[GROVE_POOL_MAX_THREADS];
    int limit = atomic_load(&test_limit);
    unsigned started = 0;
    for (unsigned t = 1; t < nw; t++) {
        if (limit >= 0 && started >= (unsigned)limit)
            break;
        ws[started] = (pool_worker){&r, started + 1};
        if (pthread_create(&th[started], NULL, thread_main, &ws[started]) != 0)
            break; /* fewer threads: the ones there are take the remaining chunks */
        started++;
    }
    run_chunks(&r, 0);
    for (unsigned t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    return atomic_load(&r.err);
}
