/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/json.h - the one JSON reader and writer of grove (the JSON forms of STM objects, the
 * --json output of the grove command, the benchmark reports). Follows grove/common.h.
 *
 * Reader: a strict RFC 8259 parser into a read-only tree. Exactly one value with optional
 * whitespace around it; no comments, trailing commas, leading zeros, NaN or Infinity; strings
 * valid UTF-8 without raw control characters, \u escapes with paired surrogates; no duplicate
 * keys; nesting and input size bounded. Any violation is GROVE_ERR_ENCODING. Numbers keep
 * their text; non-negative integers below 2^64 are also read as uint64_t, any number as a
 * correctly rounded double. Node pointers stay valid until grove_json_free.
 *
 * Writer: a growing NUL-terminated text (grove_json_buf) with appenders for JSON values. On
 * allocation failure `oom` is set and further appends do nothing; grove_json_buf_take then
 * reports GROVE_ERR_NOMEM. The caller writes the punctuation ({, ", ", ...) with _raw.
 */
#ifndef GROVE_JSON_H
#define GROVE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grove/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- reading ------------------------------------------------------------------------------ */

#define GROVE_JSON_MAX_DEPTH 16                  /* arrays/objects nested at most this deep */
#define GROVE_JSON_MAX_INPUT ((size_t)64 << 20) /* 64 MiB                                  */

typedef enum grove_json_type {
    GROVE_JSON_NULL = 0,
    GROVE_JSON_FALSE,
    GROVE_JSON_TRUE,
    GROVE_JSON_NUMBER,
    GROVE_JSON_STRING,
    GROVE_JSON_ARRAY,
    GROVE_JSON_OBJECT
} grove_json_type;

typedef struct grove_json_node {
    uint32_t type;    /* grove_json_type                                              */
    uint32_t is_u64;  /* NUMBER: 1 if the text is a non-negative integer < 2^64         */
    uint32_t next;    /* index of the next sibling in its array/object, 0 if last       */
    uint32_t child;   /* ARRAY/OBJECT: index of the first element/member, 0 if empty   */
    uint32_t count;   /* ARRAY/OBJECT: elements/members; STRING: decoded length         */
    uint32_t off;     /* NUMBER: offset of its text in the input; STRING: in the arena  */
    uint32_t len;     /* NUMBER: length of its text                                     */
    uint32_t key;     /* object members: offset of the decoded key in the arena         */
    uint32_t key_len; /* object members: length of the key                              */
    uint64_t u64;     /* NUMBER with is_u64                                             */
} grove_json_node;

typedef struct grove_json_doc grove_json_doc;

/* Parse in_len bytes of in (need not be NUL-terminated): GROVE_OK and *doc, or
 * GROVE_ERR_ENCODING / GROVE_ERR_NOMEM and *doc = NULL. */
GROVE_API GROVE_MUST_USE grove_status grove_json_parse(grove_json_doc **doc, const char *in,
                                                       size_t in_len);
GROVE_API void grove_json_free(grove_json_doc *doc);

GROVE_API const grove_json_node *grove_json_root(const grove_json_doc *doc);
/* First element/member of an array/object and the next sibling; NULL at the end. */
GROVE_API const grove_json_node *grove_json_first(const grove_json_doc *doc,
                                                  const grove_json_node *n);
GROVE_API const grove_json_node *grove_json_next(const grove_json_doc *doc,
                                                 const grove_json_node *n);
/* Member of an object with this key (compared after unescaping); NULL if absent or if n is
 * not an object. */
GROVE_API const grove_json_node *grove_json_get(const grove_json_doc *doc,
                                                const grove_json_node *n, const char *key);
/* Decoded key of an object member, decoded value of a string (not NUL-terminated). */
GROVE_API const char *grove_json_key(const grove_json_doc *doc, const grove_json_node *n,
                                     size_t *len);
GROVE_API const char *grove_json_str(const grove_json_doc *doc, const grove_json_node *n,
                                     size_t *len);
/* Number text as it appeared in the input. */
GROVE_API const char *grove_json_num_text(const grove_json_doc *doc, const grove_json_node *n,
                                          size_t *len);
/* *v for a NUMBER holding an integer in [0, 2^64 - 1]; else GROVE_ERR_ENCODING. */
GROVE_API GROVE_MUST_USE grove_status grove_json_u64(const grove_json_node *n, uint64_t *v);
/* *v = the correctly rounded binary64 value of a NUMBER (finite); else GROVE_ERR_ENCODING. */
GROVE_API GROVE_MUST_USE grove_status grove_json_double(const grove_json_doc *doc,
                                                        const grove_json_node *n, double *v);
/* Compact re-serialisation of a node (no whitespace, members in input order, numbers as
 * written, strings re-escaped minimally): malloc'd, NUL-terminated, NULL on OOM. */
GROVE_API char *grove_json_compact(const grove_json_doc *doc, const grove_json_node *n);

/* ---- writing ------------------------------------------------------------------------------ */

/*
 * The shortest decimal text of a finite double that reads back to the same value, in the
 * format of Rust's ryu / serde_json ("0.2", "1.0", "1e-7", "1.5e-5", "123.0"); out holds 32
 * bytes. Returns the length, or 0 if x is not finite.
 */
GROVE_API size_t grove_json_format_double(char out[32], double x);

typedef struct grove_json_buf {
    char *p;         /* the text, NUL-terminated (NULL while empty)    */
    size_t len, cap; /* its length and the allocated size             */
    bool oom;        /* an allocation failed: the text is incomplete  */
} grove_json_buf;
#define GROVE_JSON_BUF_INIT {NULL, 0, 0, false}

/* Append text_len bytes of JSON text as they are (punctuation, a value formatted elsewhere). */
GROVE_API void grove_json_buf_raw(grove_json_buf *b, const char *text, size_t text_len);
/* Append a NUL-terminated piece of JSON text as it is. */
GROVE_API void grove_json_buf_text(grove_json_buf *b, const char *text);
/* Append s_len bytes as a JSON string: quoted, '"' and '\' escaped, control characters \u00XX. */
GROVE_API void grove_json_buf_string(grove_json_buf *b, const char *s, size_t s_len);
/* Append bytes as a string of lower-case hex digits. */
GROVE_API void grove_json_buf_hex(grove_json_buf *b, const uint8_t *data, size_t data_len);
GROVE_API void grove_json_buf_u64(grove_json_buf *b, uint64_t v);
GROVE_API void grove_json_buf_i64(grove_json_buf *b, int64_t v);
/* grove_json_format_double's text; null if x is not finite. */
GROVE_API void grove_json_buf_double(grove_json_buf *b, double x);
/* Compact arrays of numbers: "[1,2,3]". */
GROVE_API void grove_json_buf_bytes(grove_json_buf *b, const uint8_t *data, size_t data_len);
GROVE_API void grove_json_buf_u64s(grove_json_buf *b, const uint64_t *v, size_t v_len);
/* Hand the text over (*out, the caller frees it; "" if nothing was written) and reset b:
 * GROVE_OK, or GROVE_ERR_NOMEM (b freed, *out = NULL) if an append failed. */
GROVE_API GROVE_MUST_USE grove_status grove_json_buf_take(grove_json_buf *b, char **out);
/* Free the text and reset b (accepts a reset or never used b). */
GROVE_API void grove_json_buf_free(grove_json_buf *b);

#ifdef __cplusplus
}
#endif
#endif
