/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * XMSS / XMSS^MT verification of arbitrary public keys and signatures. Input: a byte choosing
 * the family (bit 0), the public key (2-byte length), the message (2-byte length), then the
 * signature (the rest). The signature's index field is read with grove_xmss_sig_index too,
 * and grove_sig_stfl_verify (grove/sig.h) must give the same answer.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "grove/sig.h"
#include "grove/xmss.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    grove_xmss_family fam =
        (fuzz_byte(&in) & 1) ? GROVE_XMSS_FAMILY_XMSSMT : GROVE_XMSS_FAMILY_XMSS;
    const uint8_t *pk, *msg;
    size_t pl = fuzz_len(&in, 200);
    if (!fuzz_take(&in, pl, &pk))
        return 0;
    size_t ml = fuzz_len(&in, in.left);
    if (!fuzz_take(&in, ml, &msg))
        return 0;
    int r = grove_xmss_verify(fam, in.p, in.left, msg, ml, pk, pl);
    if (r != GROVE_OK && r != GROVE_ERR_VERIFY && r != GROVE_ERR_ENCODING &&
        r != GROVE_ERR_UNSUPPORTED)
        abort();
    const grove_xmss_params *p = NULL;
    int rp = grove_xmss_pk_params(fam, &p, pk, pl);
    if ((rp == GROVE_OK) != (p != NULL))
        abort();
    if (r == GROVE_OK && (rp != GROVE_OK || in.left != grove_xmss_sig_bytes(p)))
        abort();
    /* with a well-formed public key, every bad signature is GROVE_ERR_VERIFY (grove/common.h) */
    if (rp == GROVE_OK && r != GROVE_OK && r != GROVE_ERR_VERIFY)
        abort();
    /* the generic stateful API answers alike */
    if (p != NULL) {
        const grove_sig_stfl_alg *a = grove_sig_stfl_alg_get(grove_xmss_params_name(p));
        if (a == NULL || grove_sig_stfl_verify(a, in.p, in.left, msg, ml, pk) != r)
            abort();
    }
    if (p != NULL) {
        uint64_t idx = 0;
        int ri = grove_xmss_sig_index(p, &idx, in.p, in.left);
        if (ri == GROVE_OK && r == GROVE_OK && idx >= grove_xmss_total_signatures(p))
            abort(); /* a valid signature's index is in range */
    }
    return 0;
}
