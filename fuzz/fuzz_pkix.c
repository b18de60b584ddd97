/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/pkix.h decoders on arbitrary bytes: they never read out of bounds, and whatever they
 * accept re-encodes to the same bytes (DER is unique; PEM is read in its strict form only).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "grove/pkix.h"

/* A PKCS#8 of version 1 re-encodes as version 0: compare with the version byte cleared. */
static int same_pkcs8(const uint8_t *der, size_t len, const uint8_t *again, size_t again_len)
{
    uint8_t copy[GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES];
    if (len != again_len || len > sizeof copy)
        return 0;
    memcpy(copy, der, len);
    size_t version = (copy[1] == 0x81 ? 3 : 2) + 2; /* SEQUENCE header, then 02 01 <v> */
    copy[version] = 0;
    return memcmp(copy, again, len) == 0;
}

static void slhdsa(const uint8_t *data, size_t size)
{
    uint8_t key[GROVE_SLHDSA_MAX_SK_BYTES], again[GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES];
    size_t key_len, again_len;
    const grove_slhdsa_params *p;
    grove_slhdsa_prehash ph;
    if (grove_pkix_slhdsa_pk_from_der(&p, &ph, key, sizeof key, &key_len, data, size) ==
        GROVE_OK) {
        if (grove_pkix_slhdsa_pk_to_der(p, ph, again, sizeof again, &again_len, key) != GROVE_OK ||
            again_len != size || memcmp(again, data, size) != 0)
            abort();
    }
    /* A version-1 PKCS#8 carrying a public key is longer than what the encoder writes. */
    if (grove_pkix_slhdsa_sk_from_der(&p, &ph, key, sizeof key, &key_len, data, size) ==
            GROVE_OK &&
        size <= GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES) {
        if (grove_pkix_slhdsa_sk_to_der(p, ph, again, sizeof again, &again_len, key) != GROVE_OK ||
            (again_len == size && !same_pkcs8(data, size, again, again_len)))
            abort();
    }
}

static void xmss(const uint8_t *data, size_t size)
{
    uint8_t key[GROVE_XMSS_MAX_PK_BYTES], again[GROVE_PKIX_XMSS_MAX_SPKI_BYTES];
    size_t key_len, again_len;
    grove_xmss_family family;
    if (grove_pkix_xmss_pk_from_der(&family, key, sizeof key, &key_len, data, size) != GROVE_OK)
        return;
    if (grove_pkix_xmss_pk_to_der(family, again, sizeof again, &again_len, key, key_len) !=
            GROVE_OK ||
        again_len != size || memcmp(again, data, size) != 0)
        abort();
}

static void pem(const uint8_t *data, size_t size)
{
    size_t der_len = 0, text_len = 0;
    uint8_t *der = malloc(size + 1);
    char *text = malloc(2 * size + 128);
    if (der == NULL || text == NULL)
        goto out;
    if (grove_pkix_pem_decode(der, size, &der_len, "PUBLIC KEY", (const char *)data, size) !=
        GROVE_OK)
        goto out;
    if (grove_pkix_pem_encode(text, 2 * size + 128, &text_len, "PUBLIC KEY", der, der_len) !=
        GROVE_OK)
        abort();
    /* The encoder's form (LF line ends, a final LF) is one of the accepted ones. */
    if (text_len == size && memcmp(text, data, size) != 0 && memchr(data, '\r', size) == NULL)
        abort();
out:
    free(der);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    slhdsa(data, size);
    xmss(data, size);
    pem(data, size);
    return 0;
}
