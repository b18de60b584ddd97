/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Strict hex and base64 codecs: declared in grove/io.h; below, the internal helper. */
#ifndef GROVE_COMMON_ENCODING_H
#define GROVE_COMMON_ENCODING_H

#include "grove/io.h"

/* Value 0..15 of one hex digit (either case), -1 for any other character. */
int grove_hex_value(char c);

#endif
