/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Armor: decoding arbitrary text never crashes; encode then decode gives the body back. */
#include <stdlib.h>
#include <string.h>

#include "common/armor.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char title[160], end[160], err[128];
    uint8_t *body = NULL;
    size_t bl = 0;
    if (grove_armor_decode((const char *)data, size, title, sizeof title, end, sizeof end, &body,
                           &bl, err, sizeof err) == 0)
        free(body);
    /* round trip with the input as the body */
    size_t tl;
    char *text = grove_armor_encode("GROVE FUZZ v1", "GROVE FUZZ", data, size, &tl);
    if (text != NULL) {
        if (grove_armor_decode(text, tl, title, sizeof title, end, sizeof end, &body, &bl, err,
                               sizeof err) != 0 ||
            bl != size || (size && memcmp(body, data, size) != 0) ||
            strcmp(title, "GROVE FUZZ v1") != 0)
            abort();
        free(body);
        free(text);
    }
    return 0;
}
