/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Durable files: atomic replacement (temporary file, fsync, rename, fsync of the folder),
 * exclusive locks that follow a replaced file, mkdir -p, and removal of the temporary files a
 * killed writer left behind. Every function returns a grove_status; on failure `err` (if not
 * NULL) receives one English sentence naming the path and the cause.
 */
#ifndef GROVE_COMMON_FILE_H
#define GROVE_COMMON_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "grove/common.h"

#define GROVE_FILE_ERR_CAP 512

enum {
    GROVE_FILE_REPLACE = 0,    /* rename over an existing file */
    GROVE_FILE_NO_REPLACE = 1, /* fail with GROVE_ERR_EXISTS if the path exists */
    GROVE_FILE_SECRET = 2,     /* the content is secret: a temporary file left by a failure
                                  is overwritten with zeros before it is removed */
};

/*
 * Write `path` atomically and durably: `<path>.tmp.<pid>.<n>` in the same folder (mode), fsync,
 * then rename over path (or link, with GROVE_FILE_NO_REPLACE), then fsync of the folder. Either
 * the old or the new content is at `path` after a crash at any instant. Temporary files of
 * killed writers of the same path are removed first (grove_file_remove_stale_temps).
 */
int grove_file_write_atomic(const char *path, const uint8_t *buf, size_t len, mode_t mode,
                            int flags, char *err, size_t errcap);

/*
 * grove_file_write_atomic, and the new file is locked (flock, like grove_file_open_locked)
 * before it appears at `path`: *lockfd receives its descriptor. A process holding the lock of
 * the file it replaces keeps holding the lock of what is at `path` (close the old descriptor
 * afterwards), so waiters never slip in between two writes.
 */
int grove_file_write_atomic_locked(const char *path, const uint8_t *buf, size_t len, mode_t mode,
                                   int flags, int *lockfd, char *err, size_t errcap);

/*
 * Open `path` (open(2) flags; O_CREAT creates it with mode 0600) and take an exclusive flock on
 * the file that is at `path` once the lock is held (a file replaced while we waited is
 * reopened). *fd receives the descriptor; closing it releases the lock.
 */
int grove_file_open_locked(const char *path, int oflags, int *fd, char *err, size_t errcap);

/* Like grove_file_open_locked without waiting: GROVE_ERR_STATE if another process holds it. */
int grove_file_try_locked(const char *path, int oflags, int *fd, char *err, size_t errcap);

/* Read all of fd (at most maxlen bytes; GROVE_ERR_ENCODING if larger) into a fresh buffer;
 * GROVE_ERR_IO leaves read(2)'s errno. Superseded buffers are wiped (the input may be secret). */
int grove_file_read_fd(int fd, size_t maxlen, uint8_t **buf, size_t *len);

/* mkdir -p with the given mode for the folders it creates. */
int grove_file_mkdirs(const char *dir, mode_t mode, char *err, size_t errcap);

/* write(2) all of buf, retrying on EINTR and short writes: GROVE_OK or GROVE_ERR_IO (errno set). */
int grove_file_write_all(int fd, const uint8_t *buf, size_t len);

/* Format one message into err[0..cap) (nothing if err is NULL or cap is 0). */
void grove_errf(char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The folder of a path ("." when it has none). */
void grove_file_dirname(const char *path, char *out, size_t cap);

/*
 * Remove `<path>.tmp.<pid>.*` files left by writers that no longer run (the pid is not alive
 * and the file is a regular file owned by this user); returns how many were removed. Safe to
 * call while other processes write `path`: a live writer's temporary file is never touched.
 */
size_t grove_file_remove_stale_temps(const char *path);

#endif
