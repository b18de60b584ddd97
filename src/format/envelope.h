/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The envelope codec for library code below src/sig (the schemes' own file formats use it):
 * the public grove/envelope.h functions are all implemented in src/format/envelope.c except
 * grove_envelope_decode (src/sig/envelope.c), which adds the XMSS key file.
 */
#ifndef GROVE_FORMAT_ENVELOPE_H
#define GROVE_FORMAT_ENVELOPE_H

#include "grove/envelope.h"

/*
 * grove_envelope_decode without the description of XMSS private-key files ("GRVXMSSK"), which
 * it refuses as "not a grove file". Everything else (the binary and armored envelope, DGSP's
 * older armor) as grove_envelope_decode.
 */
grove_status grove_envelope_decode_plain(grove_envelope *env, uint8_t *buf, size_t buf_cap,
                                         const uint8_t *in, size_t in_len, char *err,
                                         size_t err_cap);

/* True if in starts with the XMSS private-key file magic "GRVXMSSK". */
bool grove_envelope_is_xmss_key_file(const uint8_t *in, size_t in_len);

#endif
