/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The integrity trailer of the grove command's secret-key files (grove/sig.h). */
#include <string.h>

#include "common/util.h"
#include "grove/hash.h"
#include "grove/sig.h"

static const uint8_t sk_magic[8] = {'G', 'R', 'V', 'S', 'K', 'C', 'K', '1'};
static const char sk_label[] = "grove secret key file integrity check v1";

static void put_field(grove_hash_ctx *h, const uint8_t *p, size_t len)
{
    uint8_t l[4];
    grove_store32_be(l, (uint32_t)len);
    grove_hash_update(h, l, sizeof l);
    grove_hash_update(h, p, len);
}

grove_status grove_sk_trailer(uint8_t out[GROVE_SK_TRAILER_BYTES], const char *set,
                              const uint8_t *sk, size_t sk_len, const uint8_t *pk, size_t pk_len)
{
    if (out == NULL || set == NULL || sk == NULL || (pk == NULL && pk_len) ||
        sk_len > UINT32_MAX || pk_len > UINT32_MAX || strlen(set) > UINT32_MAX)
        return GROVE_ERR_INVALID_ARG;
    grove_hash_ctx h;
    grove_status st = grove_hash_init(&h, GROVE_HASH_SHA256);
    if (st == GROVE_OK) {
        grove_hash_update(&h, (const uint8_t *)sk_label, sizeof sk_label - 1);
        put_field(&h, (const uint8_t *)set, strlen(set));
        put_field(&h, sk, sk_len);
        put_field(&h, pk, pk_len);
        memcpy(out, sk_magic, sizeof sk_magic);
        st = grove_hash_final(&h, out + sizeof sk_magic, 32);
    }
    grove_wipe(&h, sizeof h);
    return st;
}

grove_status grove_sk_trailer_check(const uint8_t trailer[GROVE_SK_TRAILER_BYTES],
                                    const char *set, const uint8_t *sk, size_t sk_len,
                                    const uint8_t *pk, size_t pk_len)
{
    if (trailer == NULL)
        return GROVE_ERR_INVALID_ARG;
    uint8_t want[GROVE_SK_TRAILER_BYTES];
    grove_status st = grove_sk_trailer(want, set, sk, sk_len, pk, pk_len);
    if (st == GROVE_OK && !grove_ct_memeq(want, trailer, sizeof want))
        st = GROVE_ERR_ENCODING;
    grove_wipe(want, sizeof want);
    return st;
}
