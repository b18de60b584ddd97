/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove DGSP file decoding (every type) on arbitrary bytes. */
#include <stdlib.h>

#include "dgsp/files.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    grove_dgsp_cfg cfg;
    dgsp_file_type t;
    uint8_t *body;
    size_t bl;
    char err[256];
    for (int want = 0; want <= DGSP_FILE_TYPES; want++) {
        if (dgsp_file_decode(data, size, (dgsp_file_type)want, &t, &cfg, &body, &bl, err,
                             sizeof err) == GROVE_OK) {
            if (want != DGSP_FILE_TYPES && t != (dgsp_file_type)want)
                abort();
            /* a decoded body passes its own check again */
            if (dgsp_file_check_body(t, &cfg, body, bl, err, sizeof err) != GROVE_OK)
                abort();
            free(body);
        }
    }
    return 0;
}
