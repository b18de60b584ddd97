/* Internal extras of the SQLite store: a small key/value table for the group's own data. */
#ifndef GROVE_DGSP_SQLITE_STORE_H
#define GROVE_DGSP_SQLITE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "grove/dgsp.h"

int dgsp_sqlite_meta_get(grove_dgsp_store *store, const char *key, uint8_t *val, size_t cap,
                         size_t *len);
int dgsp_sqlite_meta_set(grove_dgsp_store *store, const char *key, const uint8_t *val, size_t len);
int dgsp_sqlite_meta_next(grove_dgsp_store *store, const char *key, uint64_t *value);

#endif
