/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Benchmark support shared by every bench program.
 *
 * A benchmark is a list of cases (set, operation, function, context). bench_main() runs each
 * case repeatedly and prints one JSON object:
 *   {"benchmark": ..., "cpu_path": ..., "results": [{"set", "op", "iterations", "median_ns",
 *    "min_ns", "p10_ns", "p90_ns", "max_ns", "instructions"}...]}
 * Options every bench program accepts:
 *   --filter SUBSTR    only cases whose "set op" contains SUBSTR
 *   --min-time SEC     time budget per case (default 1.0; each case runs at least 3 times)
 *   --instructions     also count instructions per operation with valgrind's callgrind
 *                      (re-runs this program under valgrind, one case at a time)
 *   --no-time          skip the timing runs (with --instructions: counts only)
 * Instruction counts come from `valgrind --tool=callgrind --toggle-collect=grove_bench_run_op`,
 * so only the operation itself is counted, never setup.
 */
#ifndef GROVE_BENCH_H
#define GROVE_BENCH_H

#include <stddef.h>
#include <stdint.h>

typedef int (*bench_fn)(void *ctx);

typedef struct bench_case {
    const char *set; /* parameter set name */
    const char *op;  /* operation name */
    bench_fn fn;     /* one operation; returns 0 on success */
    void *ctx;
    /* Optional: called once before the timing/counting loop (setup not measured). */
    int (*setup)(void *ctx);
    /* Optional: extra JSON members printed in the case's result (e.g. "\"x\": 1"); may be
       filled in by setup. */
    const char *extra;
    /* Optional: run exactly this many timed iterations (long operations); 0: the default. */
    unsigned iterations;
} bench_case;

typedef struct bench_suite {
    const char *name;
    bench_case *cases;
    size_t ncases;
    size_t cap;
} bench_suite;

void bench_add(bench_suite *s, const char *set, const char *op, bench_fn fn, void *ctx,
               int (*setup)(void *ctx));
int bench_main(bench_suite *s, int argc, char **argv);

/* Wall clock in nanoseconds (monotonic). */
uint64_t bench_now_ns(void);

#endif
