/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Strict hex and base64 codecs (internal; used by the CLI, the vector runner and file armor). */
#ifndef GROVE_COMMON_ENCODING_H
#define GROVE_COMMON_ENCODING_H

#include <stddef.h>
#include <stdint.h>

/* Lower-case hex of len bytes into out (2*len+1 bytes including the final NUL). */
void grove_hex_encode(char *out, const uint8_t *in, size_t len);

/*
 * Decode exactly hexlen hex digits (either case, no separators, no prefix) into out.
 * Returns the number of bytes written, or -1 on an odd length, a non-hex character, or if
 * more than outcap bytes would be written.
 */
long grove_hex_decode(uint8_t *out, size_t outcap, const char *hex, size_t hexlen);

/* Length of the standard base64 (RFC 4648, padded) encoding of len bytes, without NUL. */
size_t grove_base64_encoded_len(size_t len);

/* Standard padded base64 of len bytes into out (grove_base64_encoded_len(len)+1 bytes). */
void grove_base64_encode(char *out, const uint8_t *in, size_t len);

/*
 * Strict decode of standard padded base64: the length must be a multiple of 4, padding only at
 * the end, unused bits of the last symbol zero, no whitespace. Returns the number of bytes
 * written or -1 on any error (including more than outcap bytes).
 */
long grove_base64_decode(uint8_t *out, size_t outcap, const char *in, size_t inlen);

/* Value 0..15 of one hex digit (either case), -1 for any other character. */
int grove_hex_value(char c);

#endif
