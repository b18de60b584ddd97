/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The state registry and durable files: records round trip with their checksum, a damaged or
 * truncated entry is refused (never read as absent), locks exclude other processes, a record
 * is either the old or the new one after a writer is killed, stale temporary files of dead
 * writers are removed and live ones kept, record helpers are strict.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/file.h"
#include "grove/state.h"
#include "test.h"

static char dir[256];

static void write_raw(const char *path, const char *s)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(s, f);
        fclose(f);
    }
}

static void round_trip(void)
{
    grove_registry *r = NULL;
    CHECK_EQ_INT(grove_registry_open(&r, dir), GROVE_OK);
    const uint8_t id[4] = {1, 2, 3, 4};
    grove_registry_entry *e = NULL;
    CHECK_EQ_INT(grove_registry_lock(r, &e, "bad/kind", id, 4), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_registry_lock(r, &e, "test", id, 0), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_registry_lock(r, &e, "test", id, 4), GROVE_OK);
    char *rec = NULL;
    size_t len = 0;
    CHECK_EQ_INT(grove_registry_read(e, &rec, &len), GROVE_ERR_NOT_FOUND);
    CHECK_EQ_INT(grove_registry_write(e, "hw 5\n", 5), GROVE_OK);
    CHECK_EQ_INT(grove_registry_write(e, "no newline", 10), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_registry_read(e, &rec, &len), GROVE_OK);
    CHECK(rec != NULL && len == 5 && strcmp(rec, "hw 5\n") == 0);
    free(rec);
    CHECK_EQ_INT(grove_registry_write(e, "hw 7\nname abc\n", 14), GROVE_OK);
    CHECK_EQ_INT(grove_registry_read(e, &rec, &len), GROVE_OK);
    uint64_t v = 0;
    char s[8];
    CHECK_EQ_INT(grove_record_u64(&v, rec, "hw"), GROVE_OK);
    CHECK_EQ_INT(v, 7);
    CHECK_EQ_INT(grove_record_str(s, sizeof s, rec, "name"), GROVE_OK);
    CHECK(strcmp(s, "abc") == 0);
    CHECK_EQ_INT(grove_record_str(s, 3, rec, "name"), GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(grove_record_u64(&v, rec, "missing"), GROVE_ERR_NOT_FOUND);
    CHECK_EQ_INT(grove_record_u64(&v, rec, "name"), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_record_u64(&v, "x 007\n", "x"), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_record_u64(&v, "x 18446744073709551616\n", "x"), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_record_u64(&v, "x 18446744073709551615\n", "x"), GROVE_OK);
    free(rec);
    /* peek sees the same record without the lock */
    CHECK_EQ_INT(grove_registry_peek(r, &rec, &len, "test", id, 4), GROVE_OK);
    CHECK(rec != NULL && strcmp(rec, "hw 7\nname abc\n") == 0);
    free(rec);
    /* a checksum binds the record to its kind and id: the same bytes under another id fail */
    char path[512];
    snprintf(path, sizeof path, "%s", grove_registry_entry_path(e));
    FILE *f = fopen(path, "r");
    char body[512] = {0};
    size_t bl = f ? fread(body, 1, sizeof body - 1, f) : 0;
    if (f)
        fclose(f);
    CHECK(bl > 0);
    const uint8_t id2[4] = {1, 2, 3, 5};
    grove_registry_entry *e2 = NULL;
    CHECK_EQ_INT(grove_registry_lock(r, &e2, "test", id2, 4), GROVE_OK);
    write_raw(grove_registry_entry_path(e2), body);
    CHECK_EQ_INT(grove_registry_read(e2, &rec, &len), GROVE_ERR_STATE);
    /* damaged: one changed digit, a truncated file, an empty file */
    body[3] ^= 1;
    write_raw(path, body);
    CHECK_EQ_INT(grove_registry_read(e, &rec, &len), GROVE_ERR_STATE);
    body[3] ^= 1;
    body[bl - 10] = '\0';
    write_raw(path, body);
    CHECK_EQ_INT(grove_registry_read(e, &rec, &len), GROVE_ERR_STATE);
    write_raw(path, "");
    CHECK_EQ_INT(grove_registry_read(e, &rec, &len), GROVE_ERR_STATE);
    grove_registry_unlock(e2);
    grove_registry_unlock(e);
    grove_registry_close(r);
}

/* Another process cannot take a held lock; it gets it once released. */
static void locks(void)
{
    grove_registry *r = NULL;
    CHECK_EQ_INT(grove_registry_open(&r, dir), GROVE_OK);
    const uint8_t id[2] = {9, 9};
    grove_registry_entry *e = NULL;
    CHECK_EQ_INT(grove_registry_lock(r, &e, "test", id, 2), GROVE_OK);
    pid_t pid = fork();
    if (pid == 0) {
        grove_registry_entry *o = NULL;
        int a = grove_registry_try_lock(r, &o, "test", id, 2);
        _exit(a == GROVE_ERR_STATE ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    grove_registry_unlock(e);
    pid = fork();
    if (pid == 0) {
        grove_registry_entry *o = NULL;
        int a = grove_registry_try_lock(r, &o, "test", id, 2);
        _exit(a == GROVE_OK ? 0 : 1);
    }
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    /* concurrent increments under the lock: none lost */
    enum { KIDS = 4, EACH = 25 };
    for (int k = 0; k < KIDS; k++) {
        if (fork() == 0) {
            for (int i = 0; i < EACH; i++) {
                grove_registry_entry *o = NULL;
                if (grove_registry_lock(r, &o, "count", id, 2) != GROVE_OK)
                    _exit(1);
                char *rec = NULL;
                uint64_t v = 0;
                int rc = grove_registry_read(o, &rec, NULL);
                if (rc == GROVE_OK ? grove_record_u64(&v, rec, "n") != GROVE_OK
                                   : rc != GROVE_ERR_NOT_FOUND)
                    _exit(1);
                free(rec);
                char line[64];
                int l = snprintf(line, sizeof line, "n %llu\n", (unsigned long long)v + 1);
                if (grove_registry_write(o, line, (size_t)l) != GROVE_OK)
                    _exit(1);
                grove_registry_unlock(o);
            }
            _exit(0);
        }
    }
    for (int k = 0; k < KIDS; k++) {
        wait(&st);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    char *rec = NULL;
    uint64_t v = 0;
    CHECK_EQ_INT(grove_registry_peek(r, &rec, NULL, "count", id, 2), GROVE_OK);
    CHECK_EQ_INT(grove_record_u64(&v, rec, "n"), GROVE_OK);
    CHECK_EQ_INT(v, KIDS * EACH);
    free(rec);
    grove_registry_close(r);
}

/* A writer killed at random instants: the record is always the old or the new one. */
static void killed_writers(void)
{
    grove_registry *r = NULL;
    CHECK_EQ_INT(grove_registry_open(&r, dir), GROVE_OK);
    const uint8_t id[1] = {7};
    int bad = 0;
    for (int round = 0; round < 40; round++) {
        pid_t pid = fork();
        if (pid == 0) {
            grove_registry_entry *o = NULL;
            if (grove_registry_lock(r, &o, "kill", id, 1) != GROVE_OK)
                _exit(1);
            for (unsigned i = 0;; i++) {
                char line[64];
                int l = snprintf(line, sizeof line, "n %u\n", i);
                if (grove_registry_write(o, line, (size_t)l) != GROVE_OK)
                    _exit(1);
            }
        }
        usleep((useconds_t)(200 + (round * 997) % 3000));
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        char *rec = NULL;
        int rc = grove_registry_peek(r, &rec, NULL, "kill", id, 1);
        if (rc != GROVE_OK && rc != GROVE_ERR_NOT_FOUND)
            bad++;
        free(rec);
    }
    CHECK_EQ_INT(bad, 0);
    /* the temporary files of the killed writers are removed on the next lock */
    grove_registry_entry *e = NULL;
    CHECK_EQ_INT(grove_registry_lock(r, &e, "kill", id, 1), GROVE_OK);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls %s/kill | grep -c tmp > /dev/null", dir);
    CHECK(system(cmd) != 0); /* grep finds none */
    grove_registry_unlock(e);
    grove_registry_close(r);
}

static void stale_temps(void)
{
    char path[300], t1[400], t2[400], t3[400];
    snprintf(path, sizeof path, "%s/file", dir);
    /* a dead pid (a reaped child), this process (alive), and a name that is not ours */
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    waitpid(pid, NULL, 0);
    snprintf(t1, sizeof t1, "%s.tmp.%ld.3", path, (long)pid);
    snprintf(t2, sizeof t2, "%s.tmp.%ld.0", path, (long)getppid());
    snprintf(t3, sizeof t3, "%s.tmpx.%ld", path, (long)pid);
    write_raw(t1, "secret");
    write_raw(t2, "live");
    write_raw(t3, "other");
    CHECK_EQ_INT(grove_file_remove_stale_temps(path), 1);
    struct stat sb;
    CHECK(stat(t1, &sb) != 0);
    CHECK(stat(t2, &sb) == 0);
    CHECK(stat(t3, &sb) == 0);
    unlink(t2);
    unlink(t3);
    /* atomic writes: no-replace refuses an existing file */
    CHECK_EQ_INT(grove_file_write_atomic(path, (const uint8_t *)"a", 1, 0600, GROVE_FILE_NO_REPLACE,
                                         NULL, 0),
                 GROVE_OK);
    char err[GROVE_FILE_ERR_CAP];
    CHECK_EQ_INT(grove_file_write_atomic(path, (const uint8_t *)"b", 1, 0600, GROVE_FILE_NO_REPLACE,
                                         err, sizeof err),
                 GROVE_ERR_EXISTS);
    CHECK(strstr(err, "already exists") != NULL);
    CHECK_EQ_INT(grove_file_write_atomic(path, (const uint8_t *)"c", 1, 0600, GROVE_FILE_REPLACE,
                                         NULL, 0),
                 GROVE_OK);
}

static void default_dir(void)
{
    char out[512];
    size_t len = 0;
    setenv("GROVE_STATE_DIR", "/x/y", 1);
    CHECK_EQ_INT(grove_registry_default_dir(out, sizeof out, &len), GROVE_OK);
    CHECK(strcmp(out, "/x/y") == 0 && len == 4);
    /* too small: the length needed, nothing written */
    strcpy(out, "untouched");
    CHECK_EQ_INT(grove_registry_default_dir(out, 4, &len), GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 4 && strcmp(out, "untouched") == 0);
    unsetenv("GROVE_STATE_DIR");
    setenv("XDG_STATE_HOME", "/s", 1);
    CHECK_EQ_INT(grove_registry_default_dir(out, sizeof out, NULL), GROVE_OK);
    CHECK(strcmp(out, "/s/grove") == 0);
    unsetenv("XDG_STATE_HOME");
    setenv("HOME", "/h", 1);
    CHECK_EQ_INT(grove_registry_default_dir(out, sizeof out, &len), GROVE_OK);
    CHECK(strcmp(out, "/h/.local/state/grove") == 0);
    unsetenv("HOME");
    CHECK_EQ_INT(grove_registry_default_dir(out, sizeof out, &len), GROVE_ERR_STATE);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/grove-test-registry.XXXXXX");
    if (mkdtemp(dir) == NULL)
        return 1;
    round_trip();
    locks();
    killed_writers();
    stale_temps();
    default_dir();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_done();
}
