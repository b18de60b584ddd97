/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Durable files: the public functions are declared in grove/io.h (atomic replacement, locks,
 * reading with a cap, mkdir -p, removal of stale temporary files); below, the internal helpers
 * that go with them.
 */
#ifndef GROVE_COMMON_FILE_H
#define GROVE_COMMON_FILE_H

#include <stddef.h>

#include "grove/io.h"

/* Format one message into err[0..cap) (nothing if err is NULL or cap is 0). */
void grove_errf(char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The folder of a path ("." when it has none). */
void grove_file_dirname(const char *path, char *out, size_t cap);

#endif
