/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Strict hex and base64 codecs. Not constant time: used for public data and file framing. */
#include "common/encoding.h"

static const char hex_digits[] = "0123456789abcdef";

void grove_hex_encode(char *out, const uint8_t *in, size_t in_len)
{
    for (size_t i = 0; i < in_len; i++) {
        out[2 * i] = hex_digits[in[i] >> 4];
        out[2 * i + 1] = hex_digits[in[i] & 15];
    }
    out[2 * in_len] = '\0';
}

int grove_hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

grove_status grove_hex_decode(uint8_t *out, size_t out_cap, size_t *out_len, const char *hex,
                              size_t hex_len)
{
    if (out_len == NULL || (hex == NULL && hex_len > 0))
        return GROVE_ERR_INVALID_ARG;
    if ((hex_len & 1) != 0)
        return GROVE_ERR_ENCODING;
    *out_len = hex_len / 2;
    if (hex_len / 2 > out_cap)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    if (out == NULL && hex_len > 0)
        return GROVE_ERR_INVALID_ARG;
    for (size_t i = 0; i < hex_len / 2; i++) {
        int hi = grove_hex_value(hex[2 * i]), lo = grove_hex_value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return GROVE_ERR_ENCODING;
        out[i] = (uint8_t)((hi << 4) | lo);
    }
    return GROVE_OK;
}

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t grove_base64_encoded_len(size_t in_len)
{
    return (in_len + 2) / 3 * 4;
}

void grove_base64_encode(char *out, const uint8_t *in, size_t in_len)
{
    size_t o = 0, i = 0;
    for (; i + 3 <= in_len; i += 3) {
        uint32_t v = ((uint32_t)in[i] << 16) | ((uint32_t)in[i + 1] << 8) | in[i + 2];
        out[o++] = b64_alphabet[(v >> 18) & 63];
        out[o++] = b64_alphabet[(v >> 12) & 63];
        out[o++] = b64_alphabet[(v >> 6) & 63];
        out[o++] = b64_alphabet[v & 63];
    }
    if (in_len - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = b64_alphabet[(v >> 18) & 63];
        out[o++] = b64_alphabet[(v >> 12) & 63];
        out[o++] = '=';
        out[o++] = '=';
    } else if (in_len - i == 2) {
        uint32_t v = ((uint32_t)in[i] << 16) | ((uint32_t)in[i + 1] << 8);
        out[o++] = b64_alphabet[(v >> 18) & 63];
        out[o++] = b64_alphabet[(v >> 12) & 63];
        out[o++] = b64_alphabet[(v >> 6) & 63];
        out[o++] = '=';
    }
    out[o] = '\0';
}

static int b64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* Decoded length of a base64 text whose length is a multiple of 4 (its padding counted). */
static size_t base64_decoded_len(const char *in, size_t in_len)
{
    size_t pad = 0;
    if (in_len >= 4 && in[in_len - 1] == '=')
        pad = in[in_len - 2] == '=' ? 2 : 1;
    return in_len / 4 * 3 - pad;
}

grove_status grove_base64_decode(uint8_t *out, size_t out_cap, size_t *out_len, const char *in,
                                 size_t in_len)
{
    if (out_len == NULL || (in == NULL && in_len > 0))
        return GROVE_ERR_INVALID_ARG;
    if (in_len % 4 != 0)
        return GROVE_ERR_ENCODING;
    *out_len = base64_decoded_len(in, in_len);
    if (*out_len > out_cap)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    if (out == NULL && in_len > 0)
        return GROVE_ERR_INVALID_ARG;
    size_t o = 0;
    for (size_t i = 0; i < in_len; i += 4) {
        int last = (i + 4 == in_len);
        int v[4];
        int pad = 0;
        for (int j = 0; j < 4; j++) {
            char c = in[i + (size_t)j];
            if (c == '=') {
                /* '=' only in the last group, only in positions 2-3, and no data after it. */
                if (!last || j < 2)
                    return GROVE_ERR_ENCODING;
                pad++;
                v[j] = 0;
            } else {
                if (pad)
                    return GROVE_ERR_ENCODING;
                v[j] = b64_value(c);
                if (v[j] < 0)
                    return GROVE_ERR_ENCODING;
            }
        }
        uint32_t w = ((uint32_t)v[0] << 18) | ((uint32_t)v[1] << 12) | ((uint32_t)v[2] << 6) |
                     (uint32_t)v[3];
        size_t nbytes = (size_t)(3 - pad);
        if (pad == 2 && (w & 0xFFFF) != 0)
            return GROVE_ERR_ENCODING; /* non-canonical: unused bits set */
        if (pad == 1 && (w & 0xFF) != 0)
            return GROVE_ERR_ENCODING;
        out[o++] = (uint8_t)(w >> 16);
        if (nbytes > 1)
            out[o++] = (uint8_t)(w >> 8);
        if (nbytes > 2)
            out[o++] = (uint8_t)w;
    }
    return GROVE_OK;
}
