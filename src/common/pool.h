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
 * thread included (grove/common.h, "Threads"). 1: everything runs on the calling thread, no
 * thread is created. GROVE_THREADS_AUTO (0): one per online CPU (grove_pool_cpus()).
 * n > 1: at most n - 1 threads are created, never more than GROVE_POOL_MAX_THREADS - 1 nor
 * more than there are chunks minus one. A thread that cannot be created is no error: its share
 * is done by the threads that exist (at worst by the caller alone), never lost.
 *
 * `worker` is 0 for the calling thread and 1, 2, ... for the created threads, always below
 * grove_pool_workers(threads, count, chunk): fn may keep per-worker scratch or partial results
 * in an array of that size (initialised by the caller, since a worker that could not be
 * created never runs). Results must be written by item index (or combined in an order-free
 * way) so that they never depend on the thread count or the order of the chunks.
 *
 * fn returns a grove_status. The first error (in time) is what grove_parallel_for returns;
 * after it no new chunk is started (chunks already running finish). No heap allocation is made
 * per item or per chunk; the threads are joined before grove_parallel_for returns.
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

/* Tests only: from now on, thread creation in grove_parallel_for fails after `n` threads were
 * created in a call (n < 0: no limit, the default). Not thread-safe against concurrent calls. */
void grove_pool_test_limit_threads(int n);

#endif
