/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Strict hex and base64: decoding never overflows; whatever decodes re-encodes canonically. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/encoding.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    uint8_t *out = malloc(size + 1);
    char *re = malloc(2 * size + 8);
    if (out == NULL || re == NULL) {
        free(out);
        free(re);
        return 0;
    }
    size_t n;
    if (grove_hex_decode(out, size / 2, &n, s, size) == GROVE_OK) {
        grove_hex_encode(re, out, n);
        for (size_t i = 0; i < size; i++)
            if (tolower((unsigned char)s[i]) != re[i])
                abort();
    }
    if (grove_base64_decode(out, size, &n, s, size) == GROVE_OK) {
        grove_base64_encode(re, out, n);
        if (strlen(re) != size || memcmp(re, s, size) != 0)
            abort(); /* strict decoding accepts only the canonical encoding */
    }
    free(out);
    free(re);
    return 0;
}
