/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/state.h - the state registry: a record, kept apart from the key files, of how far each
 * one-time key has been used, so that a restored backup, a copy or a concurrently used file of
 * an XMSS key, a DGSP wallet or a DGSP manager store is recognised and refused instead of
 * signing (or issuing) again with what was already used.
 *
 * The registry is a folder (mode 0700) holding one small file per entry,
 * `<dir>/<kind>/<id in hex>`, next to a lock file `<...>.lock`. An entry is locked exclusively
 * (flock) for as long as a command uses the key it describes, so concurrent processes take
 * turns. Writes are atomic and durable (temporary file, fsync, rename, fsync of the folder):
 * after a crash at any instant an entry holds either its old or its new record. Each record
 * carries a checksum; a damaged entry is reported (GROVE_ERR_STATE), never taken as absent.
 *
 * Default folder: $GROVE_STATE_DIR, else $XDG_STATE_HOME/grove, else $HOME/.local/state/grove.
 * The registry protects one machine (or whatever shares that folder): keep it out of the
 * backups you restore key files from, and see docs/xmss.md and docs/dgsp.md for recovery.
 *
 * Records are short text ("key value" lines) written by the schemes; the registry only stores,
 * checks and locks them.
 */
#ifndef GROVE_STATE_H
#define GROVE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "grove/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GROVE_REGISTRY_MAX_ID_BYTES 64
#define GROVE_REGISTRY_MAX_RECORD (1u << 24)

typedef struct grove_registry grove_registry;
typedef struct grove_registry_entry grove_registry_entry;

/*
 * The default folder (see above) into out, NUL-terminated; *out_len (may be NULL) receives its
 * length without the NUL, also with GROVE_ERR_BUFFER_TOO_SMALL (out_cap must exceed it).
 * GROVE_ERR_STATE if no variable names one.
 */
GROVE_API GROVE_MUST_USE grove_status grove_registry_default_dir(char *out, size_t out_cap,
                                                                 size_t *out_len);

/* Open (creating with mode 0700) the registry in `dir`, or in the default folder if NULL. */
GROVE_API GROVE_MUST_USE grove_status grove_registry_open(grove_registry **out, const char *dir);
GROVE_API const char *grove_registry_dir(const grove_registry *r);
GROVE_API void grove_registry_close(grove_registry *r);

/*
 * Lock the entry (kind, id): kind is 1..32 characters of [a-z0-9-], id 1..64 bytes. Waits
 * while another process or another entry object holds it. The entry may not exist yet.
 */
GROVE_API GROVE_MUST_USE grove_status grove_registry_lock(grove_registry *r,
                                                          grove_registry_entry **out,
                                                          const char *kind, const uint8_t *id,
                                                          size_t id_len);
/* Like grove_registry_lock but GROVE_ERR_STATE at once if the entry is locked elsewhere. */
GROVE_API GROVE_MUST_USE grove_status grove_registry_try_lock(grove_registry *r,
                                                              grove_registry_entry **out,
                                                              const char *kind, const uint8_t *id,
                                                              size_t id_len);

/*
 * The entry's record (malloc'd, NUL-terminated, *len without the NUL; free with free()).
 * GROVE_ERR_NOT_FOUND if the entry has no record yet, GROVE_ERR_STATE if it is damaged.
 */
GROVE_API GROVE_MUST_USE grove_status grove_registry_read(grove_registry_entry *e, char **rec,
                                                          size_t *len);

/* Replace the entry's record atomically and durably (len <= GROVE_REGISTRY_MAX_RECORD). */
GROVE_API GROVE_MUST_USE grove_status grove_registry_write(grove_registry_entry *e, const char *rec,
                                                           size_t len);

/* The entry's file (for messages). */
GROVE_API const char *grove_registry_entry_path(const grove_registry_entry *e);

/* Release the lock and free the entry (NULL is ignored). */
GROVE_API void grove_registry_unlock(grove_registry_entry *e);

/*
 * Read an entry without locking it (for reports such as `grove xmss info`): same results as
 * grove_registry_read.
 */
GROVE_API GROVE_MUST_USE grove_status grove_registry_peek(grove_registry *r, char **rec,
                                                          size_t *len, const char *kind,
                                                          const uint8_t *id, size_t id_len);

/*
 * Helpers for records of "key value" lines: the value of `key` as an unsigned decimal, or as
 * text (copied into out, NUL-terminated). GROVE_ERR_NOT_FOUND if the key is absent,
 * GROVE_ERR_ENCODING if the value is malformed or does not fit in 64 bits,
 * GROVE_ERR_BUFFER_TOO_SMALL if the text does not fit in out_cap bytes (nothing written).
 */
GROVE_API GROVE_MUST_USE grove_status grove_record_u64(uint64_t *v, const char *rec,
                                                       const char *key);
GROVE_API GROVE_MUST_USE grove_status grove_record_str(char *out, size_t out_cap, const char *rec,
                                                       const char *key);

#ifdef __cplusplus
}
#endif
#endif
