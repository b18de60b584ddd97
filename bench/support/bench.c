/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The benchmark driver (see bench.h): timing statistics, callgrind instruction counts, JSON. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "grove/common.h"

uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double bench_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

__attribute__((noinline)) int bench_measured_op(bench_fn op, void *ctx)
{
    return op(ctx);
}

int bench_count_calls(bench_fn op, void *ctx, long n, double *ns_per_call)
{
    int rc = 0;
    double t0 = bench_cpu_ns();
    for (long i = 0; rc == 0 && i < n; i++)
        rc = bench_measured_op(op, ctx);
    *ns_per_call = n > 0 ? (bench_cpu_ns() - t0) / (double)n : 0;
    return rc;
}

void bench_add(bench_suite *s, const char *set, const char *op, bench_fn fn, void *ctx,
               int (*setup)(void *ctx))
{
    if (s->ncases == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        bench_case *n = realloc(s->cases, cap * sizeof *n);
        if (n == NULL) {
            fprintf(stderr, "bench: out of memory\n");
            exit(2);
        }
        s->cases = n;
        s->cap = cap;
    }
    s->cases[s->ncases++] = (bench_case){set, op, fn, ctx, setup, NULL, 0};
}

/* The measured call (timed; counted between the markers of count_instructions). */
__attribute__((noinline)) int grove_bench_run_op(bench_fn fn, void *ctx);
__attribute__((noinline)) int grove_bench_run_op(bench_fn fn, void *ctx)
{
    int r = fn(ctx);
    __asm__ volatile("" ::: "memory");
    return r;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int bench_time(bench_fn fn, bench_fn prep, void *ctx, double min_time, unsigned iterations,
               bench_stats *st)
{
    size_t n = 0, cap = 64;
    uint64_t *t = malloc(cap * sizeof *t);
    int rc = t == NULL ? -1 : 0;
    uint64_t start = bench_now_ns();
    while (rc == 0) {
        if (prep != NULL && prep(ctx) != 0) {
            rc = -1;
            break;
        }
        uint64_t a = bench_now_ns();
        if (grove_bench_run_op(fn, ctx) != 0) {
            rc = -1;
            break;
        }
        uint64_t b = bench_now_ns();
        if (n == cap) {
            uint64_t *nt = realloc(t, 2 * cap * sizeof *t);
            if (nt == NULL) {
                rc = -1;
                break;
            }
            t = nt;
            cap *= 2;
        }
        t[n++] = b - a;
        if (iterations ? n >= iterations : n >= 3 && (double)(b - start) / 1e9 >= min_time)
            break;
        if (n >= 1000000)
            break;
    }
    if (rc == 0) {
        qsort(t, n, sizeof *t, cmp_u64);
        *st = (bench_stats){n, t[n / 2], t[0], t[n / 10], t[(n * 9) / 10], t[n - 1]};
    }
    free(t);
    return rc;
}

static void json_member(grove_json_buf *b, const char *key, uint64_t v)
{
    grove_json_buf_text(b, ", \"");
    grove_json_buf_text(b, key);
    grove_json_buf_text(b, "\": ");
    grove_json_buf_u64(b, v);
}

void bench_json_stats(grove_json_buf *b, const bench_stats *st)
{
    grove_json_buf_text(b, "\"iterations\": ");
    grove_json_buf_u64(b, st->iterations);
    json_member(b, "median_ns", st->median_ns);
    json_member(b, "min_ns", st->min_ns);
    json_member(b, "p10_ns", st->p10_ns);
    json_member(b, "p90_ns", st->p90_ns);
    json_member(b, "max_ns", st->max_ns);
}

static int matches(const bench_case *c, const char *filter)
{
    if (filter == NULL)
        return 1;
    char name[256];
    snprintf(name, sizeof name, "%s %s", c->set, c->op);
    return strstr(name, filter) != NULL;
}

/*
 * Count instructions of one case by re-running this program under callgrind: the child runs
 * the setup and one warm-up call (not counted), then `reps` calls between the markers below.
 * callgrind dumps (and zeroes) the counts of every thread on entering each marker, so the
 * second dump holds the calls alone, summed over all threads (the workers of a threaded
 * operation included; --zero-before would zero the calling thread only). The result is the warm
 * average per call.
 */
#define BENCH_COUNT_REPS 8 /* 2 for an operation taking over 5 ms, 1 with fixed iterations */
static volatile int bench_marker; /* different bodies: the two are never merged */
__attribute__((noinline)) void grove_bench_count_begin(void);
__attribute__((noinline)) void grove_bench_count_begin(void)
{
    bench_marker = 1;
}
__attribute__((noinline)) void grove_bench_count_end(void);
__attribute__((noinline)) void grove_bench_count_end(void)
{
    bench_marker = 2;
}

static long long count_instructions(const char *self, size_t index, int reps)
{
    char out[] = "/tmp/grove-bench-cg.XXXXXX";
    int fd = mkstemp(out);
    if (fd < 0)
        return -1;
    close(fd);
    char outopt[128], idx[32], repstr[32], dump[160];
    snprintf(outopt, sizeof outopt, "--callgrind-out-file=%s", out);
    snprintf(idx, sizeof idx, "%zu", index);
    snprintf(repstr, sizeof repstr, "%d", reps);
    snprintf(dump, sizeof dump, "%s.2", out); /* the dump at grove_bench_count_end */
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, 1);
            dup2(devnull, 2);
        }
        setenv("GROVE_BENCH_CHILD", "1", 1);
        execlp("valgrind", "valgrind", "--tool=callgrind", outopt,
               "--dump-before=grove_bench_count_begin", "--dump-before=grove_bench_count_end",
               self, "--run-case", idx, repstr, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    long long total = -1;
    FILE *f = fopen(dump, "r");
    if (f && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        char line[512];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "summary:", 8) == 0 || strncmp(line, "totals:", 7) == 0)
                total = atoll(strchr(line, ':') + 1);
    }
    if (f)
        fclose(f);
    unlink(out);
    unlink(dump);
    dump[strlen(dump) - 1] = '1'; /* setup and warm-up */
    unlink(dump);
    return total < 0 ? -1 : total / reps;
}

/* {"benchmark": name, "grove_version": .., "cpu_path": .., "results": [ */
static void print_header(const char *name)
{
    grove_json_buf b = GROVE_JSON_BUF_INIT;
    grove_json_buf_text(&b, "{\"benchmark\": ");
    grove_json_buf_string(&b, name, strlen(name));
    grove_json_buf_text(&b, ", \"grove_version\": ");
    grove_json_buf_string(&b, grove_version(), strlen(grove_version()));
    grove_json_buf_text(&b, ", \"cpu_path\": ");
    grove_json_buf_string(&b, grove_cpu_path(), strlen(grove_cpu_path()));
    grove_json_buf_text(&b, ", \"results\": [\n");
    fputs(b.oom ? "" : b.p, stdout);
    grove_json_buf_free(&b);
}

/* One element of "results": set, op, the statistics (if timed), instructions, extras. */
static void print_result(const bench_case *c, const bench_stats *st, int instructions,
                         long long ins, int reps, int first)
{
    grove_json_buf b = GROVE_JSON_BUF_INIT;
    grove_json_buf_text(&b, first ? "  {\"set\": " : ",\n  {\"set\": ");
    grove_json_buf_string(&b, c->set, strlen(c->set));
    grove_json_buf_text(&b, ", \"op\": ");
    grove_json_buf_string(&b, c->op, strlen(c->op));
    if (st != NULL && st->iterations > 0) {
        grove_json_buf_text(&b, ", ");
        bench_json_stats(&b, st);
    }
    if (instructions) {
        grove_json_buf_text(&b, ", \"instructions\": ");
        grove_json_buf_i64(&b, ins);
        grove_json_buf_text(&b, ", \"instructions_method\": ");
        grove_json_buf_text(&b, "\"callgrind, all threads, warm mean of ");
        grove_json_buf_u64(&b, (uint64_t)reps);
        grove_json_buf_text(&b, " calls after 1 uncounted call\"");
    }
    if (c->extra && c->extra[0]) {
        grove_json_buf_text(&b, ", ");
        grove_json_buf_text(&b, c->extra);
    }
    grove_json_buf_text(&b, "}");
    fputs(b.oom ? "" : b.p, stdout);
    fflush(stdout);
    grove_json_buf_free(&b);
}

int bench_main(bench_suite *s, int argc, char **argv)
{
    const char *filter = NULL;
    double min_time = 1.0;
    int instructions = 0, timing = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--run-case") == 0 && i + 2 < argc) {
            size_t idx = (size_t)strtoul(argv[i + 1], NULL, 10);
            int reps = atoi(argv[i + 2]);
            if (idx >= s->ncases || reps < 1)
                return 2;
            bench_case *c = &s->cases[idx];
            if (c->setup && c->setup(c->ctx) != 0)
                return 1;
            if (grove_bench_run_op(c->fn, c->ctx) != 0) /* warm-up, not counted */
                return 1;
            grove_bench_count_begin();
            for (int r = 0; r < reps; r++)
                if (grove_bench_run_op(c->fn, c->ctx) != 0)
                    return 1;
            grove_bench_count_end();
            return 0;
        } else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
            filter = argv[++i];
        } else if (strcmp(argv[i], "--min-time") == 0 && i + 1 < argc) {
            min_time = atof(argv[++i]);
        } else if (strcmp(argv[i], "--instructions") == 0) {
            instructions = 1;
        } else if (strcmp(argv[i], "--no-time") == 0) {
            timing = 0;
        } else {
            fprintf(stderr,
                    "usage: %s [--filter SUBSTR] [--min-time SEC] [--instructions] [--no-time]\n",
                    argv[0]);
            return 2;
        }
    }
    print_header(s->name);
    int first = 1, status = 0;
    for (size_t k = 0; k < s->ncases; k++) {
        bench_case *c = &s->cases[k];
        if (!matches(c, filter))
            continue;
        if (c->setup && c->setup(c->ctx) != 0) {
            fprintf(stderr, "bench: setup failed for %s %s\n", c->set, c->op);
            status = 1;
            continue;
        }
        bench_stats st = {0, 0, 0, 0, 0, 0};
        if (timing && bench_time(c->fn, NULL, c->ctx, min_time, c->iterations, &st) != 0) {
            fprintf(stderr, "bench: %s %s failed\n", c->set, c->op);
            status = 1;
            st.iterations = 0;
        }
        long long ins = -1;
        int reps = c->iterations ? 1 : BENCH_COUNT_REPS;
        if (instructions && reps > 1) { /* one more call, timed to choose the count */
            uint64_t t0 = bench_now_ns();
            if (grove_bench_run_op(c->fn, c->ctx) == 0 && bench_now_ns() - t0 > 5000000)
                reps = 2;
        }
        if (instructions) {
            char self[4096];
            ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
            if (sl > 0) {
                self[sl] = '\0';
                ins = count_instructions(self, k, reps);
            }
        }
        print_result(c, timing ? &st : NULL, instructions, ins, reps, first);
        first = 0;
    }
    printf("\n]}\n");
    return status;
}
