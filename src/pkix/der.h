/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A strict, small DER reader and writer for the key encodings of grove/pkix.h.
 *
 * Only what those structures need: single-byte tags, definite lengths below 2^16. The reader
 * refuses BER (indefinite or non-minimal lengths) and checks every length against the bytes
 * left before anything is read. The writer writes into a caller buffer whose size was checked
 * beforehand (der_tlv_bytes), so it cannot fail.
 */
#ifndef GROVE_PKIX_DER_H
#define GROVE_PKIX_DER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grove/common.h"

#define DER_INTEGER 0x02
#define DER_BIT_STRING 0x03
#define DER_OCTET_STRING 0x04
#define DER_OID 0x06
#define DER_SEQUENCE 0x30
#define DER_CONTEXT_0_CONSTRUCTED 0xa0 /* [0] IMPLICIT, constructed (PKCS#8 attributes) */
#define DER_CONTEXT_1_PRIMITIVE 0x81   /* [1] IMPLICIT BIT STRING (PKCS#8 publicKey) */

/* The largest content length handled (long form with at most two length bytes). */
#define DER_MAX_LEN 0xffffu

/* The unread part of a DER value: bytes [pos, len) of buf. */
typedef struct der_reader {
    const uint8_t *buf;
    size_t len;
    size_t pos;
} der_reader;

void der_reader_init(der_reader *r, const uint8_t *buf, size_t len);
bool der_at_end(const der_reader *r);
/* The tag of the next element (0 at the end). */
uint8_t der_peek_tag(const der_reader *r);
/*
 * Read the next element, which must have tag `tag`: *content reads its contents. GROVE_OK or
 * GROVE_ERR_ENCODING (another tag, a bad or non-minimal length, contents past the end).
 */
grove_status der_read(der_reader *r, uint8_t tag, der_reader *content);

/* The bytes of a TLV with content_len bytes of contents (content_len <= DER_MAX_LEN). */
size_t der_tlv_bytes(size_t content_len);

/* Appends to buf[pos...]; the caller has checked the room (der_tlv_bytes). */
typedef struct der_writer {
    uint8_t *buf;
    size_t pos;
} der_writer;

/* Tag and length of an element whose content_len bytes of contents follow. */
void der_put_header(der_writer *w, uint8_t tag, size_t content_len);
void der_put_bytes(der_writer *w, const uint8_t *bytes, size_t len);

#endif
