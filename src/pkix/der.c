/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Strict DER reading and writing (see der.h). */
#include <string.h>

#include "pkix/der.h"

void der_reader_init(der_reader *r, const uint8_t *buf, size_t len)
{
    r->buf = buf;
    r->len = len;
    r->pos = 0;
}

bool der_at_end(const der_reader *r)
{
    return r->pos == r->len;
}

uint8_t der_peek_tag(const der_reader *r)
{
    return der_at_end(r) ? 0 : r->buf[r->pos];
}

/* The length field at r->pos: short form, or long form with 1 or 2 bytes, minimal. */
static grove_status read_length(der_reader *r, size_t *len)
{
    if (der_at_end(r))
        return GROVE_ERR_ENCODING;
    uint8_t first = r->buf[r->pos++];
    if (first < 0x80) {
        *len = first;
        return GROVE_OK;
    }
    size_t nbytes = first & 0x7fu; /* 0x80 (indefinite, BER only) gives 0: refused */
    if (nbytes == 0 || nbytes > 2 || r->len - r->pos < nbytes)
        return GROVE_ERR_ENCODING;
    size_t value = 0;
    for (size_t i = 0; i < nbytes; i++)
        value = (value << 8) | r->buf[r->pos++];
    /* Minimal: the long form only from 128 on, and no leading zero byte. */
    if (value < 0x80 || (nbytes == 2 && value < 0x100))
        return GROVE_ERR_ENCODING;
    *len = value;
    return GROVE_OK;
}

grove_status der_read(der_reader *r, uint8_t tag, der_reader *content)
{
    if (der_at_end(r) || r->buf[r->pos] != tag)
        return GROVE_ERR_ENCODING;
    r->pos++;
    size_t len;
    grove_status st = read_length(r, &len);
    if (st != GROVE_OK)
        return st;
    if (len > r->len - r->pos)
        return GROVE_ERR_ENCODING;
    der_reader_init(content, r->buf + r->pos, len);
    r->pos += len;
    return GROVE_OK;
}

size_t der_tlv_bytes(size_t content_len)
{
    size_t header = content_len < 0x80 ? 2 : content_len < 0x100 ? 3 : 4;
    return header + content_len;
}

void der_put_header(der_writer *w, uint8_t tag, size_t content_len)
{
    w->buf[w->pos++] = tag;
    if (content_len < 0x80) {
        w->buf[w->pos++] = (uint8_t)content_len;
    } else if (content_len < 0x100) {
        w->buf[w->pos++] = 0x81;
        w->buf[w->pos++] = (uint8_t)content_len;
    } else {
        w->buf[w->pos++] = 0x82;
        w->buf[w->pos++] = (uint8_t)(content_len >> 8);
        w->buf[w->pos++] = (uint8_t)content_len;
    }
}

void der_put_bytes(der_writer *w, const uint8_t *bytes, size_t len)
{
    if (len > 0)
        memcpy(w->buf + w->pos, bytes, len);
    w->pos += len;
}
