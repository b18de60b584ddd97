/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove-vectors: shared machinery for the test-vector kinds. A kind looks at one parsed JSON
 * file, says whether it recognizes it (by content, never by file name), and reports one
 * pass or fail per case. Sections a file lacks are simply empty.
 */
#ifndef GROVE_VECTORS_RUNNER_H
#define GROVE_VECTORS_RUNNER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

typedef struct vec_report {
    const char *file;
    long passed;
    long failed;
    int slow;    /* --slow: run the long checks too (full KAT files, all entries) */
    int verbose; /* -v: print passing cases too */
} vec_report;

/* Record one case. `fmt` names the case (and, for failures, the reason). */
void vec_pass(vec_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vec_fail(vec_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Record a case by outcome: ok != 0 passes. */
void vec_check(vec_report *r, int ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- JSON field access (all tolerate a missing object and return NULL / 0) ---------------- */
const char *vec_str(const json_t *obj, const char *key);
/* Integer field given as a JSON number or a decimal string; *ok = 0 if absent or malformed. */
long long vec_int(const json_t *obj, const char *key, int *ok);
/* Unsigned 64-bit field (number or decimal string). */
uint64_t vec_u64(const json_t *obj, const char *key, int *ok);
int vec_bool(const json_t *obj, const char *key, int dflt);
/* Hex field decoded into a fresh malloc'd buffer (NULL if absent or not hex); *len set. */
uint8_t *vec_hex(const json_t *obj, const char *key, size_t *len);
/* Hex text (no prefix) decoded into a fresh malloc'd buffer; NULL if s is NULL or not hex. */
uint8_t *vec_unhex(const char *s, size_t *len);
/* Hex field of exactly len bytes into out; returns 1 on success. */
int vec_hex_fixed(const json_t *obj, const char *key, uint8_t *out, size_t len);
/* The array field, or an empty static array when absent. */
json_t *vec_array(const json_t *obj, const char *key);

/* Hex string of a buffer (static ring of buffers, for messages). */
const char *vec_tohex(const uint8_t *p, size_t len);

/* A kind: returns 1 if it recognized the file (and ran its cases), 0 if not. */
typedef int (*vec_kind_fn)(json_t *root, vec_report *r);

#endif
