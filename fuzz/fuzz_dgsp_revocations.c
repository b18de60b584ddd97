/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Signed revocation lists: input = set byte, manager public key (2N), the list (any length). */
#include <stdlib.h>

#include "fuzz.h"
#include "grove/dgsp.h"

static const char *const sets[] = {"shake-128f", "sha2-128f", "shake-256f", "sha2-256f"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    unsigned sel = fuzz_byte(&in);
    grove_dgsp_cfg cfg;
    if (grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get(sets[sel % 4]),
                            (sel & 4) ? GROVE_DGSP_FLAVOUR_FIPS205 : GROVE_DGSP_FLAVOUR_R31,
                            GROVE_DGSP_PROFILE_GROVE))
        return 0;
    const uint8_t *pk;
    if (!fuzz_take(&in, 2 * cfg.n, &pk))
        return 0;
    uint64_t seq, t, count;
    const uint8_t *z;
    int r = grove_dgsp_revocations_verify(&cfg, &seq, &t, &z, &count, in.p, in.left, pk);
    if (r == GROVE_OK && (z < in.p || 24 + 16 * count > in.left))
        abort();
    if (r != GROVE_OK && r != GROVE_ERR_VERIFY) /* grove/common.h: no ENCODING from verify */
        abort();
    return 0;
}
