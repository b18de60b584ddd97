/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove DGSP file decoding (every type) on arbitrary bytes, through the public API. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "grove/dgsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *body = malloc(size ? size : 1), *again = malloc(size ? size : 1);
    char *text = NULL;
    if (body == NULL || again == NULL)
        abort();
    for (int want = 0; want <= GROVE_DGSP_FILE_ANY; want++) {
        grove_dgsp_cfg cfg, cfg2;
        grove_dgsp_file_type t, t2;
        size_t bl = 0, bl2 = 0, tl = 0;
        char err[256];
        if (grove_dgsp_file_decode(&cfg, &t, body, size, &bl, (const char *)data, size,
                                   (grove_dgsp_file_type)want, err, sizeof err) != GROVE_OK)
            continue;
        if (want != GROVE_DGSP_FILE_ANY && t != (grove_dgsp_file_type)want)
            abort();
        /* a decoded body armors again and reads back the same */
        if (grove_dgsp_file_encode(&cfg, NULL, 0, &tl, t, body, bl) != GROVE_ERR_BUFFER_TOO_SMALL)
            abort();
        text = malloc(tl);
        if (text == NULL || grove_dgsp_file_encode(&cfg, text, tl, &tl, t, body, bl) != GROVE_OK)
            abort();
        if (tl > size + 4096 ||
            grove_dgsp_file_decode(&cfg2, &t2, again, size, &bl2, text, tl, t, err, sizeof err) !=
                GROVE_OK ||
            t2 != t || bl2 != bl || memcmp(again, body, bl) != 0 || cfg2.spx != cfg.spx ||
            cfg2.profile != cfg.profile)
            abort();
        free(text);
        text = NULL;
    }
    free(body);
    free(again);
    return 0;
}
