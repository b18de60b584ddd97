/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * BLS12-381 point decoding and signature verification on arbitrary bytes. Input: a selector
 * byte, then the bytes. G1/G2 decoding (compressed and uncompressed sizes, with and without the
 * identity allowed) must either fail with GROVE_ERR_ENCODING or give a point in the group whose
 * re-encoding is the input (encodings are canonical). The rest exercises verification of a
 * (public key, signature) pair in both variants: only GROVE_OK / VERIFY / ENCODING may come out.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "grove/bls12_381.h"

static void g1(const uint8_t *in, size_t len, unsigned flags)
{
    grove_bls_g1 p;
    uint8_t out[96];
    int r = grove_bls_g1_from_bytes(&p, in, len, flags);
    if (r != GROVE_OK) {
        if (r != GROVE_ERR_ENCODING)
            abort();
        return;
    }
    if (len == GROVE_BLS_G1_BYTES)
        grove_bls_g1_to_bytes(&p, out);
    else
        grove_bls_g1_to_bytes_uncompressed(&p, out);
    if (!grove_bls_g1_in_group(&p) || memcmp(out, in, len) != 0)
        abort();
    if ((flags & GROVE_BLS_NO_INFINITY) && grove_bls_g1_is_identity(&p))
        abort();
}

static void g2(const uint8_t *in, size_t len, unsigned flags)
{
    grove_bls_g2 p;
    uint8_t out[192];
    int r = grove_bls_g2_from_bytes(&p, in, len, flags);
    if (r != GROVE_OK) {
        if (r != GROVE_ERR_ENCODING)
            abort();
        return;
    }
    if (len == GROVE_BLS_G2_BYTES)
        grove_bls_g2_to_bytes(&p, out);
    else
        grove_bls_g2_to_bytes_uncompressed(&p, out);
    if (!grove_bls_g2_in_group(&p) || memcmp(out, in, len) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    unsigned sel = fuzz_byte(&in);
    static const size_t g1len[] = {48, 96}, g2len[] = {96, 192};
    const uint8_t *b;
    unsigned flags = (sel & 4) ? GROVE_BLS_NO_INFINITY : 0;
    if ((sel & 3) == 0 && fuzz_take(&in, g1len[(sel >> 3) & 1], &b))
        g1(b, g1len[(sel >> 3) & 1], flags);
    else if ((sel & 3) == 1 && fuzz_take(&in, g2len[(sel >> 3) & 1], &b))
        g2(b, g2len[(sel >> 3) & 1], flags);
    else if ((sel & 3) >= 2) {
        grove_bls_variant v = (sel & 3) == 2 ? GROVE_BLS_MIN_SIG : GROVE_BLS_MIN_PK;
        size_t pkl = v == GROVE_BLS_MIN_SIG ? 96 : 48, sgl = v == GROVE_BLS_MIN_SIG ? 48 : 96;
        const uint8_t *pk, *sig;
        if (!fuzz_take(&in, pkl, &pk) || !fuzz_take(&in, sgl, &sig))
            return 0;
        const char *dst = v == GROVE_BLS_MIN_SIG ? GROVE_BLS_DST_MIN_SIG : GROVE_BLS_DST_MIN_PK;
        int r = grove_bls_verify(v, sig, sgl, in.p, in.left, pk, pkl, (const uint8_t *)dst,
                                 strlen(dst));
        if (r != GROVE_OK && r != GROVE_ERR_VERIFY && r != GROVE_ERR_ENCODING)
            abort();
    }
    return 0;
}
