/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * ASCII armor for grove files:
 *   -----BEGIN <TITLE>-----
 *   <standard base64, 64 characters per line>
 *   -----END <TITLE-TYPE>-----
 * The BEGIN title carries the object type and its attributes (e.g. "GROVE DGSP SIGNATURE v1
 * shake-256f r3.1 grove"); the END line repeats the leading words given to the encoder as
 * `end_title`. Decoding is strict: exact framing, line lengths, base64 alphabet and padding.
 */
#ifndef GROVE_COMMON_ARMOR_H
#define GROVE_COMMON_ARMOR_H

#include <stddef.h>
#include <stdint.h>

/* Returns a malloc'd NUL-terminated text, or NULL on allocation failure. */
char *grove_armor_encode(const char *title, const char *end_title, const uint8_t *body,
                         size_t len, size_t *outlen);

/*
 * Decode. title receives the BEGIN title (NUL-terminated, at most titlecap - 1 characters),
 * end_title the END title; *body a malloc'd buffer. Returns 0, or -1 with a message in err.
 */
int grove_armor_decode(const char *text, size_t len, char *title, size_t titlecap, char *end_title,
                       size_t endcap, uint8_t **body, size_t *bodylen, char *err, size_t errcap);

/* 1 if the data looks like armor (starts with "-----BEGIN "). */
int grove_armor_detect(const uint8_t *data, size_t len);

#endif
