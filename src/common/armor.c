/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* ASCII armor (see armor.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/armor.h"
#include "common/encoding.h"
#include "common/util.h"

#define LINE 64

char *grove_armor_encode(const char *title, const char *end_title, const uint8_t *body,
                         size_t len, size_t *outlen)
{
    size_t b64 = grove_base64_encoded_len(len);
    size_t cap = strlen(title) + strlen(end_title) + 40 + b64 + b64 / LINE + 2;
    char *out = malloc(cap), *enc = malloc(b64 + 1);
    if (out == NULL || enc == NULL) {
        free(out);
        free(enc);
        return NULL;
    }
    grove_base64_encode(enc, body, len);
    size_t o = (size_t)snprintf(out, cap, "-----BEGIN %s-----\n", title);
    for (size_t i = 0; i < b64; i += LINE) {
        size_t k = b64 - i < LINE ? b64 - i : LINE;
        memcpy(out + o, enc + i, k);
        o += k;
        out[o++] = '\n';
    }
    o += (size_t)snprintf(out + o, cap - o, "-----END %s-----\n", end_title);
    grove_wipe(enc, b64 + 1); /* the body may be a secret key */
    free(enc);
    if (outlen)
        *outlen = o;
    return out;
}

int grove_armor_detect(const uint8_t *data, size_t len)
{
    return len >= 11 && memcmp(data, "-----BEGIN ", 11) == 0;
}

/* Next line of text[*pos..len): sets line and its length (without the newline); 0 at the end. */
static int next_line(const char *text, size_t len, size_t *pos, const char **line, size_t *ll)
{
    if (*pos >= len)
        return 0;
    const char *s = text + *pos;
    const char *nl = memchr(s, '\n', len - *pos);
    size_t l = nl ? (size_t)(nl - s) : len - *pos;
    *line = s;
    *ll = l;
    *pos += l + (nl ? 1 : 0);
    return 1;
}

static int frame(const char *line, size_t ll, const char *pre, char *title, size_t cap)
{
    size_t pl = strlen(pre);
    if (ll < pl + 5 || memcmp(line, pre, pl) != 0 || memcmp(line + ll - 5, "-----", 5) != 0)
        return -1;
    size_t tl = ll - pl - 5;
    if (tl == 0 || tl >= cap)
        return -1;
    for (size_t i = 0; i < tl; i++)
        if (line[pl + i] < 0x20 || line[pl + i] > 0x7e)
            return -1;
    memcpy(title, line + pl, tl);
    title[tl] = '\0';
    return 0;
}

int grove_armor_decode(const char *text, size_t len, char *title, size_t titlecap, char *end_title,
                       size_t endcap, uint8_t **body, size_t *bodylen, char *err, size_t errcap)
{
    size_t pos = 0, ll;
    const char *line;
    *body = NULL;
    if (memchr(text, '\0', len) != NULL) {
        snprintf(err, errcap, "binary data where armored text was expected");
        return -1;
    }
    if (!next_line(text, len, &pos, &line, &ll) ||
        frame(line, ll, "-----BEGIN ", title, titlecap) != 0) {
        snprintf(err, errcap, "not a grove armored file (bad BEGIN line)");
        return -1;
    }
    char *b64 = malloc(len + 1);
    if (b64 == NULL) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    size_t bl = 0;
    int ended = 0, short_seen = 0;
    while (next_line(text, len, &pos, &line, &ll)) {
        if (ll >= 9 && memcmp(line, "-----END ", 9) == 0) {
            if (frame(line, ll, "-----END ", end_title, endcap) != 0) {
                snprintf(err, errcap, "bad END line");
                grove_wipe(b64, len + 1);
                free(b64);
                return -1;
            }
            ended = 1;
            break;
        }
        if (ll == 0 || ll > LINE || short_seen) {
            snprintf(err, errcap, "bad line length in the base64 body");
            grove_wipe(b64, len + 1);
            free(b64);
            return -1;
        }
        if (ll < LINE)
            short_seen = 1; /* only the last body line may be short */
        memcpy(b64 + bl, line, ll);
        bl += ll;
    }
    /* Nothing but an optional final newline after the END line. */
    if (!ended || pos != len) {
        snprintf(err, errcap, ended ? "data after the END line" : "missing END line");
        grove_wipe(b64, len + 1);
        free(b64);
        return -1;
    }
    uint8_t *out = malloc(bl / 4 * 3 + 1);
    size_t n = 0;
    int bad = out == NULL || grove_base64_decode(out, bl / 4 * 3 + 1, &n, b64, bl) != GROVE_OK;
    grove_wipe(b64, len + 1);
    free(b64);
    if (bad) {
        if (out != NULL)
            grove_wipe(out, bl / 4 * 3 + 1);
        free(out);
        snprintf(err, errcap, "bad base64 in the body");
        return -1;
    }
    *body = out;
    *bodylen = n;
    return 0;
}
