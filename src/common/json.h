/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A small strict JSON reader (RFC 8259), internal: parses a whole text into a tree of nodes.
 *
 * Strict: exactly one value with optional whitespace around it; no comments, no trailing commas,
 * no leading zeros, no NaN/Infinity; strings must be valid UTF-8 without raw control characters;
 * \u escapes must pair surrogates; duplicate keys in an object are refused; nesting depth and
 * input size are bounded. Any violation is GROVE_ERR_ENCODING; GROVE_ERR_NOMEM if memory runs
 * out. Numbers keep their text; non-negative integers that fit in 64 bits are also available
 * as uint64_t (grove_json_u64), any number as a double (grove_json_double, correctly rounded).
 *
 * The tree is read-only after parsing; node pointers stay valid until grove_json_free.
 */
#ifndef GROVE_COMMON_JSON_H
#define GROVE_COMMON_JSON_H

#include <stddef.h>
#include <stdint.h>

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

/* Parses len bytes of in (need not be NUL-terminated). *doc is NULL on error. */
int grove_json_parse(grove_json_doc **doc, const char *in, size_t len);
void grove_json_free(grove_json_doc *doc);

const grove_json_node *grove_json_root(const grove_json_doc *doc);
/* First element/member of an array/object and the next sibling; NULL at the end. */
const grove_json_node *grove_json_first(const grove_json_doc *doc, const grove_json_node *n);
const grove_json_node *grove_json_next(const grove_json_doc *doc, const grove_json_node *n);
/* Member of an object with this key (keys are compared after unescaping), NULL if absent or
 * if n is not an object. */
const grove_json_node *grove_json_get(const grove_json_doc *doc, const grove_json_node *n,
                                      const char *key);
/* Decoded key of an object member and decoded value of a string node (not NUL-terminated). */
const char *grove_json_key(const grove_json_doc *doc, const grove_json_node *n, size_t *len);
const char *grove_json_str(const grove_json_doc *doc, const grove_json_node *n, size_t *len);
/* Number text as it appeared in the input. */
const char *grove_json_num_text(const grove_json_doc *doc, const grove_json_node *n,
                                size_t *len);
/* 0 and *v for a NUMBER node holding an integer in [0, 2^64 - 1], else -1. */
int grove_json_u64(const grove_json_node *n, uint64_t *v);
/* 0 and the correctly rounded binary64 value of a NUMBER node (finite), else -1. */
int grove_json_double(const grove_json_doc *doc, const grove_json_node *n, double *v);
/*
 * Compact re-serialisation of a node (no whitespace, members in input order, numbers as
 * written, strings re-escaped minimally); malloc'd, NUL-terminated, NULL on OOM. Used to
 * compare JSON texts modulo whitespace.
 */
char *grove_json_compact(const grove_json_doc *doc, const grove_json_node *n);

/*
 * The shortest decimal text of a finite double that reads back to the same value, in the
 * format of Rust's ryu / serde_json ("0.2", "1.0", "1e-7", "1.5e-5", "123.0"). out must hold
 * 32 bytes. Returns the length, or 0 if x is not finite.
 */
size_t grove_json_format_double(char out[32], double x);

/* A growing NUL-terminated string (JSON writers): start from {0}; on allocation failure `oom`
 * is set and further appends do nothing; the owner frees p. */
typedef struct grove_strbuf {
    char *p;
    size_t len, cap;
    int oom;
} grove_strbuf;
void grove_strbuf_put(grove_strbuf *b, const char *s, size_t n);

#endif
