/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/io.h - encodings, a constant-time compare and durable files: the helpers grove's own
 * file formats (key files, state registry, armored files) are written with, for programs that
 * read, write or check those files themselves. Follows the contract in grove/common.h.
 *
 * Durable files: a file is replaced atomically (temporary file, fsync, rename, fsync of the
 * folder), so after a crash at any instant `path` holds either the old or the new content.
 * Locks are exclusive flock(2) locks that follow a replaced file. On failure the functions
 * taking `err` write one English sentence naming the path and the cause into it (if err is not
 * NULL and err_cap > 0; GROVE_FILE_ERR_CAP bytes are always enough).
 */
#ifndef GROVE_IO_H
#define GROVE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "grove/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- hex and base64 --------------------------------------------------------------------- */

/* Lower-case hex of in_len bytes into out, which holds 2 * in_len + 1 bytes (NUL-terminated). */
GROVE_API void grove_hex_encode(char *out, const uint8_t *in, size_t in_len);

/*
 * Decode exactly hex_len hex digits (either case; no separators, prefix or whitespace) into
 * out: *out_len = hex_len / 2. GROVE_ERR_ENCODING for an odd length or a non-hex character,
 * GROVE_ERR_BUFFER_TOO_SMALL (nothing written, *out_len = the length needed) if out_cap is
 * smaller than hex_len / 2.
 */
GROVE_API GROVE_MUST_USE grove_status grove_hex_decode(uint8_t *out, size_t out_cap,
                                                       size_t *out_len, const char *hex,
                                                       size_t hex_len);

/* Length of the standard padded base64 (RFC 4648) of in_len bytes, without the final NUL. */
GROVE_API size_t grove_base64_encoded_len(size_t in_len);

/* Standard padded base64 of in_len bytes into out (grove_base64_encoded_len(in_len) + 1 bytes,
 * NUL-terminated). */
GROVE_API void grove_base64_encode(char *out, const uint8_t *in, size_t in_len);

/*
 * Strict decode of standard padded base64: a length that is a multiple of 4, padding only at
 * the end, the unused bits of the last symbol zero, no whitespace; else GROVE_ERR_ENCODING.
 * GROVE_ERR_BUFFER_TOO_SMALL (nothing written, *out_len = the length needed) if the decoded
 * bytes do not fit in out_cap.
 */
GROVE_API GROVE_MUST_USE grove_status grove_base64_decode(uint8_t *out, size_t out_cap,
                                                          size_t *out_len, const char *in,
                                                          size_t in_len);

/* ---- constant time ---------------------------------------------------------------------- */

/* Whether the len bytes at a and b are equal; the time taken depends on len only. */
GROVE_API bool grove_ct_equal(const void *a, const void *b, size_t len);

/* ---- durable files ---------------------------------------------------------------------- */

#define GROVE_FILE_ERR_CAP 512 /* enough for every message the functions below write to err */

/* Flags of grove_file_write_atomic (combined with |). */
enum {
    GROVE_FILE_REPLACE = 0,    /* rename over an existing file                              */
    GROVE_FILE_NO_REPLACE = 1, /* fail with GROVE_ERR_EXISTS if the path exists              */
    GROVE_FILE_SECRET = 2      /* secret content: a temporary file left by a failure is
                                  overwritten with zeros before it is removed               */
};

/*
 * Write `path` atomically and durably: `<path>.tmp.<pid>.<n>` in the same folder (mode), fsync,
 * then rename over path (or link, with GROVE_FILE_NO_REPLACE: GROVE_ERR_EXISTS if path exists),
 * then fsync of the folder. Temporary files of killed writers of the same path are removed
 * first (grove_file_remove_stale_temps). GROVE_ERR_IO on any system error.
 */
GROVE_API GROVE_MUST_USE grove_status grove_file_write_atomic(const char *path,
                                                              const uint8_t *data,
                                                              size_t data_len, mode_t mode,
                                                              int flags, char *err,
                                                              size_t err_cap);

/*
 * grove_file_write_atomic, and the new file is locked (like grove_file_open_locked) before it
 * appears at `path`: *lock_fd receives its descriptor. A process holding the lock of the file
 * it replaces keeps holding the lock of what is at `path` (close the old descriptor
 * afterwards), so waiting processes never slip in between two writes.
 */
GROVE_API GROVE_MUST_USE grove_status grove_file_write_atomic_locked(
    const char *path, const uint8_t *data, size_t data_len, mode_t mode, int flags, int *lock_fd,
    char *err, size_t err_cap);

/*
 * Open `path` (open(2) flags; O_CREAT creates it with mode 0600) and take an exclusive flock on
 * the file that is at `path` once the lock is held (a file replaced while we waited is
 * reopened). *fd receives the descriptor; closing it releases the lock. GROVE_ERR_NOT_FOUND
 * if path does not exist (without O_CREAT), GROVE_ERR_IO on any other system error.
 */
GROVE_API GROVE_MUST_USE grove_status grove_file_open_locked(const char *path, int oflags,
                                                             int *fd, char *err, size_t err_cap);

/* grove_file_open_locked without waiting: GROVE_ERR_STATE if another process holds the lock. */
GROVE_API GROVE_MUST_USE grove_status grove_file_try_locked(const char *path, int oflags, int *fd,
                                                            char *err, size_t err_cap);

/*
 * Read all of fd into a fresh malloc'd buffer (*data, *data_len; the caller frees it) of at
 * most max_len bytes: GROVE_ERR_ENCODING if there is more, GROVE_ERR_NOMEM, or GROVE_ERR_IO
 * with read(2)'s errno left. Superseded buffers are wiped (the content may be secret).
 */
GROVE_API GROVE_MUST_USE grove_status grove_file_read_fd(int fd, size_t max_len, uint8_t **data,
                                                         size_t *data_len);

/* write(2) all of data, retrying on EINTR and short writes: GROVE_OK or GROVE_ERR_IO (errno). */
GROVE_API GROVE_MUST_USE grove_status grove_file_write_all(int fd, const uint8_t *data,
                                                           size_t data_len);

/* mkdir -p, with this mode for the folders it creates. */
GROVE_API GROVE_MUST_USE grove_status grove_file_mkdirs(const char *dir, mode_t mode, char *err,
                                                        size_t err_cap);

/*
 * Remove the `<path>.tmp.<pid>.*` files left by writers that no longer run (the pid is not
 * alive, a regular file owned by this user; overwritten with zeros first) and return how many
 * were removed. A live writer's temporary file is never touched.
 */
GROVE_API size_t grove_file_remove_stale_temps(const char *path);

#ifdef __cplusplus
}
#endif
#endif
