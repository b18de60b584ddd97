/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Crash injection for the reliability drivers (LD_PRELOAD, test-only, never linked into
 * libgrove). With GROVE_CRASH_AT=N in the environment, the process kills itself with SIGKILL
 * just before its N-th durable step: a call to fsync, fdatasync, rename, renameat, link,
 * linkat, unlink or unlinkat (SQLite commits a rollback journal by deleting it). Steps 1..N-1
 * have happened, step N and everything after it have not. A driver runs an operation with N = 1, 2, 3, ... until it completes, so the operation is interrupted at every
 * point where its state on disk can change. GROVE_CRASH_LOG=FILE appends "N name" per step
 * (to see what a step is). Processes started by the command inherit the variable: set
 * GROVE_CRASH_PID_ONLY=1 to count only in the first process that loads the shim.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long crash_at = -1, steps;
static pid_t owner;

__attribute__((constructor)) static void shim_init(void)
{
    const char *v = getenv("GROVE_CRASH_AT");
    crash_at = v ? strtol(v, NULL, 10) : -1;
    owner = getpid();
}

static void step(const char *name)
{
    if (crash_at < 0)
        return;
    if (getenv("GROVE_CRASH_PID_ONLY") && getpid() != owner)
        return;
    steps++;
    const char *log = getenv("GROVE_CRASH_LOG");
    if (log != NULL) {
        FILE *f = fopen(log, "a");
        if (f != NULL) {
            fprintf(f, "%ld %s\n", steps, name);
            fclose(f);
        }
    }
    if (steps == crash_at)
        kill(getpid(), SIGKILL);
}

#define NEXT(fn) ((__typeof__(&fn))dlsym(RTLD_NEXT, #fn))

int fsync(int fd)
{
    step("fsync");
    return NEXT(fsync)(fd);
}

int fdatasync(int fd)
{
    step("fdatasync");
    return NEXT(fdatasync)(fd);
}

int rename(const char *a, const char *b)
{
    step("rename");
    return NEXT(rename)(a, b);
}

int renameat(int da, const char *a, int db, const char *b)
{
    step("renameat");
    return NEXT(renameat)(da, a, db, b);
}

int link(const char *a, const char *b)
{
    step("link");
    return NEXT(link)(a, b);
}

int linkat(int da, const char *a, int db, const char *b, int flags)
{
    step("linkat");
    return NEXT(linkat)(da, a, db, b, flags);
}

int unlink(const char *a)
{
    step("unlink");
    return NEXT(unlink)(a);
}

int unlinkat(int d, const char *a, int flags)
{
    step("unlinkat");
    return NEXT(unlinkat)(d, a, flags);
}
