/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * CROSS verification of arbitrary signatures, by both strategies, which must agree. Input: a
 * byte choosing one of the 18 parameter sets, the public key (its size), the message (2-byte
 * length), then the signature (the rest). The attached form (msg || sig) is opened too.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "grove/cross.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    const grove_cross_params *p = grove_cross_params_at(fuzz_byte(&in) % grove_cross_params_count());
    const uint8_t *pk, *msg;
    size_t pkb = grove_cross_pk_bytes(p);
    if (!fuzz_take(&in, pkb, &pk))
        return 0;
    size_t ml = fuzz_len(&in, in.left);
    if (!fuzz_take(&in, ml, &msg))
        return 0;
    int rf = grove_cross_verify(p, GROVE_CROSS_FAST, in.p, in.left, msg, ml, pk);
    int rs = grove_cross_verify(p, GROVE_CROSS_SMALL_MEMORY, in.p, in.left, msg, ml, pk);
    if (rf != rs || (rf != GROVE_OK && rf != GROVE_ERR_VERIFY && rf != GROVE_ERR_ENCODING))
        abort();
    /* a signature of the wrong length is a failed verification (checked before the key) */
    if (in.left != grove_cross_sig_bytes(p) && rf != GROVE_ERR_VERIFY)
        abort();
    /* attached: sm = msg || sig */
    size_t sml = ml + in.left, outl = 1;
    uint8_t *sm = malloc(sml + 1), *out = malloc(sml + 1);
    if (sm == NULL || out == NULL)
        abort();
    memcpy(sm, msg, ml);
    memcpy(sm + ml, in.p, in.left);
    int ro = grove_cross_open(p, GROVE_CROSS_FAST, out, sml, &outl, sm, sml, pk);
    if (ro != GROVE_OK && (ro != GROVE_ERR_VERIFY && ro != GROVE_ERR_ENCODING))
        abort();
    if (ro != GROVE_OK && outl != 0)
        abort(); /* a failed open gives no message */
    /* with the split of the detached call, open and verify agree */
    if (in.left == grove_cross_sig_bytes(p) &&
        ((ro == GROVE_OK) != (rf == GROVE_OK) ||
         (ro == GROVE_OK && (outl != ml || memcmp(out, msg, ml)))))
        abort();
    free(sm);
    free(out);
    return 0;
}
