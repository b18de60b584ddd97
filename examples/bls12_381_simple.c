/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * BLS signatures on BLS12-381 with grove (min-sig, as Mithril: 48-byte signatures, 96-byte
 * public keys): key generation, signing, verification, and aggregation of three signatures on
 * the same message checked with one fast-aggregate verification.
 */
#include <grove/grove.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    const grove_bls_variant v = GROVE_BLS_MIN_SIG;
    const uint8_t *dst = (const uint8_t *)GROVE_BLS_DST_MIN_SIG;
    const size_t dst_len = strlen(GROVE_BLS_DST_MIN_SIG);
    const uint8_t msg[] = "certificate for epoch 42";
    grove_bls_sk sk[3];
    uint8_t pks[3 * GROVE_BLS_G2_BYTES], sigs[3 * GROVE_BLS_G1_BYTES], agg[GROVE_BLS_G1_BYTES];
    int rc = GROVE_OK;

    for (int i = 0; i < 3 && rc == GROVE_OK; i++) {
        rc = grove_bls_sk_generate(&sk[i]); /* IETF KeyGen from 32 random bytes */
        if (rc == GROVE_OK)
            rc = grove_bls_sk_to_pk(v, pks + i * GROVE_BLS_G2_BYTES, &sk[i]);
        if (rc == GROVE_OK)
            rc = grove_bls_sign(v, sigs + i * GROVE_BLS_G1_BYTES, msg, sizeof msg - 1, &sk[i], dst,
                                dst_len);
    }
    for (int i = 0; i < 3; i++)
        grove_bls_sk_wipe(&sk[i]);
    if (rc != GROVE_OK) {
        fprintf(stderr, "key generation or signing failed: %s\n", grove_strerror(rc));
        return 1;
    }

    rc = grove_bls_verify(v, sigs, GROVE_BLS_G1_BYTES, msg, sizeof msg - 1, pks, GROVE_BLS_G2_BYTES,
                          dst, dst_len);
    printf("signature 0: %s\n", rc == GROVE_OK ? "valid" : grove_strerror(rc));
    if (rc != GROVE_OK)
        return 1;

    rc = grove_bls_aggregate_sigs(v, agg, sigs, 3);
    if (rc == GROVE_OK)
        rc = grove_bls_fast_aggregate_verify(v, agg, sizeof agg, msg, sizeof msg - 1, pks, 3, dst,
                                             dst_len);
    printf("aggregate of 3: %s\n", rc == GROVE_OK ? "valid" : grove_strerror(rc));
    if (rc != GROVE_OK)
        return 1;

    /* a different message must not verify */
    rc = grove_bls_fast_aggregate_verify(v, agg, sizeof agg, msg, sizeof msg - 2, pks, 3, dst,
                                         dst_len);
    printf("aggregate on another message: %s\n", rc == GROVE_OK ? "valid" : "rejected");
    return rc == GROVE_ERR_VERIFY ? 0 : 1;
}
