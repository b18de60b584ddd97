/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * PEM (RFC 7468, strict form; see grove/pkix.h). The base64 body is decoded line by line:
 * once into a wiped scratch line to check it and find its length, then straight into the
 * caller's buffer, so a private key leaves no copy behind.
 */
#include <string.h>

#include "grove/io.h"
#include "grove/pkix.h"

#define LINE 64          /* base64 characters per full line */
#define MAX_LABEL 64     /* our limit on a label's length */
#define DASHES "-----"

/* 1..MAX_LABEL printable ASCII characters, no '-' at either end (RFC 7468 labels). */
static bool label_ok(const char *label)
{
    size_t n = strnlen(label, MAX_LABEL + 1);
    if (n == 0 || n > MAX_LABEL || label[0] == '-' || label[n - 1] == '-')
        return false;
    for (size_t i = 0; i < n; i++)
        if (label[i] < 0x20 || label[i] > 0x7e)
            return false;
    return true;
}

/* Write "-----<word> <label>-----\n" at out; returns its length. */
static size_t put_frame(char *out, const char *word, const char *label)
{
    size_t d = sizeof DASHES - 1, w = strlen(word), l = strlen(label), o = 0;
    memcpy(out + o, DASHES, d);
    o += d;
    memcpy(out + o, word, w);
    o += w;
    out[o++] = ' ';
    memcpy(out + o, label, l);
    o += l;
    memcpy(out + o, DASHES, d);
    o += d;
    out[o++] = '\n';
    return o;
}

grove_status grove_pkix_pem_encode(char *out, size_t out_cap, size_t *out_len, const char *label,
                                   const uint8_t *der, size_t der_len)
{
    if (out_len == NULL || label == NULL || (der == NULL && der_len > 0) ||
        (out == NULL && out_cap > 0) || !label_ok(label))
        return GROVE_ERR_INVALID_ARG;
    if (der_len > (SIZE_MAX / 2) / 4 * 3)
        return GROVE_ERR_OVERFLOW;
    size_t b64 = grove_base64_encoded_len(der_len);
    size_t frame = strlen(label) + sizeof DASHES - 1 + 1; /* label, dashes, line end */
    size_t total = (sizeof "-----BEGIN " - 1 + frame) + (sizeof "-----END " - 1 + frame) + b64 +
                   (b64 + LINE - 1) / LINE;
    *out_len = total;
    if (total + 1 > out_cap)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    size_t o = 0;
    o += put_frame(out, "BEGIN", label);
    /* Encode 48 bytes (one line) at a time straight into out: no copy of the data. */
    for (size_t i = 0; i < der_len; i += LINE / 4 * 3) {
        size_t k = der_len - i < LINE / 4 * 3 ? der_len - i : LINE / 4 * 3;
        grove_base64_encode(out + o, der + i, k);
        o += grove_base64_encoded_len(k);
        out[o++] = '\n';
    }
    o += put_frame(out + o, "END", label);
    out[o] = '\0';
    return o == total ? GROVE_OK : GROVE_ERR_INTERNAL;
}

/* The next line of pem[*pos, len): *line, *line_len without its "\n" or "\r\n"; false at end. */
static bool next_line(const char *pem, size_t len, size_t *pos, const char **line,
                      size_t *line_len)
{
    if (*pos >= len)
        return false;
    const char *s = pem + *pos;
    const char *nl = memchr(s, '\n', len - *pos);
    size_t n = nl != NULL ? (size_t)(nl - s) : len - *pos;
    *pos += n + (nl != NULL);
    if (n > 0 && s[n - 1] == '\r')
        n--;
    *line = s;
    *line_len = n;
    return true;
}

/* Is line "-----<word> <label>-----"? */
static bool frame_is(const char *line, size_t n, const char *word, const char *label)
{
    size_t w = strlen(word), l = strlen(label), d = sizeof DASHES - 1;
    return n == d + w + 1 + l + d && memcmp(line, DASHES, d) == 0 &&
           memcmp(line + d, word, w) == 0 && line[d + w] == ' ' &&
           memcmp(line + d + w + 1, label, l) == 0 && memcmp(line + n - d, DASHES, d) == 0;
}

/*
 * Walk the body lines after BEGIN, decoding each into out (out == NULL: into a scratch line
 * that is wiped, to check every character and add up the length; else the caller checked the
 * room). *decoded: the bytes the body decodes to.
 */
static grove_status walk_body(const char *pem, size_t len, size_t pos, const char *label,
                              uint8_t *out, size_t *decoded)
{
    uint8_t scratch[LINE / 4 * 3];
    const char *line;
    size_t n, total = 0;
    bool last_seen = false; /* a line shorter than LINE (or padded) ends the body */
    grove_status st = GROVE_ERR_ENCODING; /* until the END line is found */
    while (next_line(pem, len, &pos, &line, &n)) {
        if (frame_is(line, n, "END", label)) {
            st = pos == len ? GROVE_OK : GROVE_ERR_ENCODING; /* only a line end after END */
            break;
        }
        if (n == 0 || n > LINE || n % 4 != 0 || last_seen)
            break;
        last_seen = n < LINE || line[n - 1] == '=';
        size_t got = 0;
        uint8_t *to = out != NULL ? out + total : scratch;
        if (grove_base64_decode(to, n / 4 * 3, &got, line, n) != GROVE_OK)
            break;
        total += got;
    }
    grove_wipe(scratch, sizeof scratch);
    *decoded = total;
    return st;
}

grove_status grove_pkix_pem_decode(uint8_t *der, size_t der_cap, size_t *der_len,
                                   const char *label, const char *pem, size_t pem_len)
{
    if (der_len == NULL || label == NULL || pem == NULL || (der == NULL && der_cap > 0) ||
        !label_ok(label))
        return GROVE_ERR_INVALID_ARG;
    size_t pos = 0, n, need = 0;
    const char *line;
    if (!next_line(pem, pem_len, &pos, &line, &n) || !frame_is(line, n, "BEGIN", label))
        return GROVE_ERR_ENCODING;
    grove_status st = walk_body(pem, pem_len, pos, label, NULL, &need);
    if (st != GROVE_OK)
        return st;
    *der_len = need;
    if (need > der_cap)
        return GROVE_ERR_BUFFER_TOO_SMALL;
    return walk_body(pem, pem_len, pos, label, der, &need); /* checked: cannot fail */
}
