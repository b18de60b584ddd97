/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * One parallel-for for the whole library (XMSS tree building, DGSP certificates, STM).
 *
 * grove_parallel_for(threads, count, chunk, fn, arg) cuts [0, count) into consecutive chunks of
 * `chunk` items (the last one may be shorter) and calls fn(arg, begin, end, worker) once for
 * every chunk. Workers take the next chunk from an atomic counter (dynamic scheduling: a
 * descheduled thread holds up only the chunk it is working on), and the calling thread is
 * worker 0 and works too.
 *
 * `threads` means the same for every caller: the most threads working at once, the calling
 * thread included (grove/common.h, "Threads"). 1: everything runs on the calling thread and the
 * pool is not touched. GROVE_THREADS_AUTO (0): one per online CPU (grove_pool_cpus()).
 * n > 1: at most n - 1 pool threads help, never more than GROVE_POOL_MAX_THREADS - 1 nor more
 * than there are chunks minus one.
 *
 * The pool threads are persistent: created on first use, grown when a call wants more than
 * exist (never beyond what a call wants), reused by later calls, idle on a condition variable
 * in between. A thread that cannot be created is no error: its share is done by the threads
 * that exist (at worst by the caller alone), never lost. The caller waits only for the workers
 * that actually took part: one that was descheduled before joining holds nobody up.
 *
 * Nesting and concurrency: a call made from inside fn (on any worker) runs inline on that
 * thread, as worker 0, with no new fan-out. Calls from several application threads at once do
 * not queue: the first one gets the pool, the others run alone on their own thread (correct
 * results either way, see below). After fork() the child has no pool threads (pthread_atfork)
 * and creates its own on first use. At process exit (or when the shared library is unloaded)
 * idle pool threads are stopped and joined by a destructor.
 *
 * `worker` is 0 for the calling thread and 1, 2, ... for the pool threads, always below
 * grove_pool_workers(threads, count, chunk): fn may keep per-worker scratch or partial results
 * in an array of that size (initialised by the caller, since a worker may never run). Results
 * must be written by item index (or combined in an order-free way) so that they never depend
 * on the thread count or the order of the chunks.
 *
 * fn returns a grove_status. The first error (in time) is what grove_parallel_for returns;
 * after it no new chunk is started (chunks already running finish). No heap allocation is made
 * per call, item or chunk; every chunk has finished when grove_parallel_for returns.
 */
#ifndef GROVE_COMMON_POOL_H
#define GROVE_COMMON_POOL_H

#include <stddef.h>

#include "grove/common.h"

#define GROVE_POOL_MAX_THREADS 256u

typedef int (*grove_pool_fn)(void *arg, size_t begin, size_t end, unsigned worker);

/* Runs fn over [0, count) as described above. chunk 0 counts as 1. GROVE_OK, the first error
 * fn returned, or GROVE_ERR_INVALID_ARG (fn NULL with count > 0). */
int grove_parallel_for(unsigned threads, size_t count, size_t chunk, grove_pool_fn fn, void *arg);

/* The number of workers grove_parallel_for may use for these arguments (at least 1): every
 * `worker` passed to fn is below it. */
unsigned grove_pool_workers(unsigned threads, size_t count, size_t chunk);

/* Online CPUs (at least 1, at most GROVE_POOL_MAX_THREADS): what GROVE_THREADS_AUTO means. */
unsigned grove_pool_cpus(void);

/* The number of pool threads that exist now (0 before the first parallel call). */
unsigned grove_pool_threads(void);

/* Tests only: from now on, a call uses at most `n` pool threads and the pool does not grow
 * beyond `n` threads (as if thread creation failed there); n < 0: no limit, the default. */
void grove_pool_test_limit_threads(int n);

#endif
