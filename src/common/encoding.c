/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Strict hex and base64 codecs. Not constant time: used for public data and file framing. */
#include "common/encoding.h"

static const char hex_digits[] = "0123456789abcdef";

void grove_hex_encode(char *out, const uint8_t *in, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = hex_digits[in[i] >> 4];
        out[2 * i + 1] = hex_digits[in[i] & 15];
    }
    out[2 * len] = '\0';
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

long grove_hex_decode(uint8_t *out, size_t outcap, const char *hex, size_t hexlen)
{
    if ((hexlen & 1) != 0 || hexlen / 2 > outcap || hexlen / 2 > (size_t)(~0UL >> 1))
        return -1;
    for (size_t i = 0; i < hexlen / 2; i++) {
        int hi = grove_hex_value(hex[2 * i]), lo = grove_hex_value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)((hi << 4) | lo);
    }
    return (long)(hexlen / 2);
}

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t grove_base64_encoded_len(size_t len)
{
    return (len + 2) / 3 * 4;
}

void grove_base64_encode(char *out, const uint8_t *in, size_t len)
{
    size_t o = 0, i = 0;
    for (; i + 3 <= len; i += 3) {
        uint32_t v = ((uint32_t)in[i] << 16) | ((uint32_t)in[i + 1] << 8) | in[i + 2];
        out[o++] = b64_alphabet[(v >> 18) & 63];
        out[o++] = b64_alphabet[(v >> 12) & 63];
        out[o++] = b64_alphabet[(v >> 6) & 63];
        out[o++] = b64_alphabet[v & 63];
    }
    if (len - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = b64_alphabet[(v >> 18) & 63];
        out[o++] = b64_alphabet[(v >> 12) & 63];
        out[o++] = '=';
        out[o++] = '=';
    } else if (len - i == 2) {
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

long grove_base64_decode(uint8_t *out, size_t outcap, const char *in, size_t inlen)
{
    if (inlen % 4 != 0)
        return -1;
    size_t o = 0;
    for (size_t i = 0; i < inlen; i += 4) {
        int last = (i + 4 == inlen);
        int v[4];
        int pad = 0;
        for (int j = 0; j < 4; j++) {
            char c = in[i + (size_t)j];
            if (c == '=') {
                /* '=' only in the last group, only in positions 2-3, and no data after it. */
                if (!last || j < 2)
                    return -1;
                pad++;
                v[j] = 0;
            } else {
                if (pad)
                    return -1;
                v[j] = b64_value(c);
                if (v[j] < 0)
                    return -1;
            }
        }
        uint32_t w = ((uint32_t)v[0] << 18) | ((uint32_t)v[1] << 12) | ((uint32_t)v[2] << 6) |
                     (uint32_t)v[3];
        size_t nbytes = (size_t)(3 - pad);
        if (pad == 2 && (w & 0xFFFF) != 0)
            return -1; /* non-canonical: unused bits set */
        if (pad == 1 && (w & 0xFF) != 0)
            return -1;
        if (o + nbytes > outcap)
            return -1;
        out[o++] = (uint8_t)(w >> 16);
        if (nbytes > 1)
            out[o++] = (uint8_t)(w >> 8);
        if (nbytes > 2)
            out[o++] = (uint8_t)w;
    }
    return (long)o;
}
