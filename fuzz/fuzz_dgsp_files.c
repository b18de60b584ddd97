/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove DGSP file decoding (every type; the envelope in both forms and the older armor) on
 * arbitrary bytes, through the public API: what decodes encodes again, in both forms, with the
 * same key id, and reads back the same. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "grove/dgsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *body = malloc(size ? size : 1), *again = malloc(size ? size : 1);
    uint8_t *text = NULL;
    if (body == NULL || again == NULL)
        abort();
    for (int want = 0; want <= GROVE_DGSP_FILE_ANY; want++) {
        grove_dgsp_cfg cfg, cfg2;
        grove_dgsp_file_info fi, fi2;
        size_t bl = 0, bl2 = 0, tl = 0;
        char err[256];
        if (grove_dgsp_file_decode(&cfg, &fi, body, size, &bl, data, size,
                                   (grove_dgsp_file_type)want, err, sizeof err) != GROVE_OK)
            continue;
        const grove_dgsp_file_type t = fi.type;
        if ((want != GROVE_DGSP_FILE_ANY && t != (grove_dgsp_file_type)want) ||
            (fi.old_format && fi.has_key_id))
            abort();
        /* a PUBLIC KEY, SECRET KEY or CREDENTIAL gets the key id of the key it holds; another
         * type keeps no key id (a key id of a group whose public key is not known is dropped) */
        const int holds_pk = t == GROVE_DGSP_FILE_PUBLIC_KEY || t == GROVE_DGSP_FILE_SECRET_KEY ||
                             t == GROVE_DGSP_FILE_CREDENTIAL;
        for (int form = 0; form < 2; form++) {
            grove_envelope_form f = form ? GROVE_ENVELOPE_BINARY : GROVE_ENVELOPE_ARMORED;
            if (grove_dgsp_file_encode(&cfg, NULL, 0, &tl, t, body, bl, NULL, f) !=
                GROVE_ERR_BUFFER_TOO_SMALL)
                abort();
            text = malloc(tl);
            if (text == NULL ||
                grove_dgsp_file_encode(&cfg, text, tl, &tl, t, body, bl, NULL, f) != GROVE_OK)
                abort();
            if (tl > 2 * size + 4096 || /* armored from binary: 4/3 of it */
                grove_dgsp_file_decode(&cfg2, &fi2, again, size, &bl2, text, tl, t, err,
                                       sizeof err) != GROVE_OK ||
                fi2.type != t || bl2 != bl || memcmp(again, body, bl) != 0 ||
                cfg2.spx != cfg.spx || cfg2.profile != cfg.profile || fi2.old_format ||
                fi2.has_key_id != holds_pk ||
                (holds_pk && fi.has_key_id && memcmp(fi.key_id, fi2.key_id, 8) != 0))
                abort();
            free(text);
            text = NULL;
        }
    }
    free(body);
    free(again);
    return 0;
}
