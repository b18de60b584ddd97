/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The benchmark driver shared by the bench programs (bench/) and `grove bench` (cli/): one
 * timing loop and one set of statistics (bench_time), one JSON shape of a result
 * (bench_json_stats), written with the library's JSON writer (grove/json.h). Uses the public
 * API only; the program linking it brings the library.
 *
 * A bench program is a list of cases (set, operation, function, context). bench_main() runs
 * each case repeatedly and prints one JSON object:
 *   {"benchmark": ..., "grove_version": ..., "cpu_path": ..., "results": [{"set", "op",
 *    "iterations", "median_ns", "min_ns", "p10_ns", "p90_ns", "max_ns", "instructions"}...]}
 * Options every bench program accepts:
 *   --filter SUBSTR    only cases whose "set op" contains SUBSTR
 *   --min-time SEC     time budget per case (default 1.0; each case runs at least 3 times)
 *   --instructions     also count instructions per operation with valgrind's callgrind
 *                      (re-runs this program under valgrind, one case at a time)
 *   --no-time          skip the timing runs (with --instructions: counts only)
 * Instruction counts ("instructions", per call) come from callgrind: after the setup and one
 * uncounted warm-up call, the mean of 8 calls (2 if a call takes over 5 ms, 1 for cases with
 * fixed `iterations`), counting
 * every thread (callgrind --dump-before markers around the calls), never setup;
 * "instructions_method" says so in each result.
 */
#ifndef GROVE_BENCH_H
#define GROVE_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "grove/json.h"

typedef int (*bench_fn)(void *ctx);

/* ---- the timing loop (bench programs and grove bench) -------------------------------------- */

typedef struct bench_stats {
    size_t iterations;
    uint64_t median_ns, min_ns, p10_ns, p90_ns, max_ns;
} bench_stats;

/*
 * Call fn(ctx) repeatedly, timing each call: prep(ctx) (may be NULL; not timed) runs before
 * each call. Stops after exactly `iterations` calls if it is not 0, else once min_time seconds
 * have passed and fn ran at least 3 times (at most 1000000 calls). Returns 0 with *st filled,
 * or -1 if fn or prep failed (returned non-zero) or memory ran out.
 */
int bench_time(bench_fn fn, bench_fn prep, void *ctx, double min_time, unsigned iterations,
               bench_stats *st);

/* Append the statistics as JSON members: `"iterations": n, "median_ns": .., "min_ns": ..,
 * "p10_ns": .., "p90_ns": .., "max_ns": ..`. */
void bench_json_stats(grove_json_buf *b, const bench_stats *st);

/* Wall clock in nanoseconds (monotonic). */
uint64_t bench_now_ns(void);
/* Process CPU time in nanoseconds, every thread (CLOCK_PROCESS_CPUTIME_ID). */
double bench_cpu_ns(void);
/*
 * The `--count N` mode of the bench programs (bench/compare.sh): op(ctx) n times, each call
 * through bench_measured_op (never inlined: callgrind's --toggle-collect counts it by name).
 * Returns 0 with the process CPU time per call in *ns_per_call, or the first failing call's
 * non-zero result.
 */
int bench_measured_op(bench_fn op, void *ctx);
int bench_count_calls(bench_fn op, void *ctx, long n, double *ns_per_call);

/* ---- bench programs ------------------------------------------------------------------------ */

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

#endif
