/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SLH-DSA / SPHINCS+ verification of arbitrary signatures. Input: a byte choosing one of the 24
 * descriptors and the interface, the public key (2n), a context (1-byte length), a message
 * (2-byte length), then the signature (any length).
 */
#include <stdlib.h>

#include "fuzz.h"
#include "grove/slhdsa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    unsigned sel = fuzz_byte(&in);
    const grove_slhdsa_params *p = grove_slhdsa_params_at(sel % grove_slhdsa_params_count());
    const uint8_t *pk, *ctx, *msg;
    if (p == NULL || !fuzz_take(&in, grove_slhdsa_pk_bytes(p), &pk))
        return 0;
    size_t cl = fuzz_byte(&in);
    if (!fuzz_take(&in, cl, &ctx))
        return 0;
    size_t ml = fuzz_len(&in, in.left);
    if (!fuzz_take(&in, ml, &msg))
        return 0;
    grove_status r;
    if (!grove_slhdsa_params_is_fips205(p))
        r = grove_sphincs_verify(p, in.p, in.left, msg, ml, pk);
    else if (sel & 0x80)
        r = grove_hashslhdsa_verify(p, in.p, in.left, msg, ml, ctx, cl,
                                    (grove_slhdsa_prehash)(1 + (sel >> 5) % 4), pk);
    else
        r = grove_slhdsa_verify(p, in.p, in.left, msg, ml, ctx, cl, pk);
    if (r != GROVE_OK && r != GROVE_ERR_VERIFY)
        abort();
    if (r == GROVE_OK && in.left != grove_slhdsa_sig_bytes(p))
        abort();
    r = grove_slhdsa_verify_internal(p, in.p, in.left, msg, ml, pk);
    if (r != GROVE_OK && r != GROVE_ERR_VERIFY)
        abort();
    return 0;
}
