/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove-example-needs: GROVE_HAVE_STM */
/*
 * Mithril STM with grove: the example of the mithril-stm README in C. 32 parties with random
 * stakes register their keys; every party signs a message; anyone aggregates the signatures
 * and anyone holding the aggregate verification key verifies the aggregate - or learns that
 * not enough lottery indexes were won (k = 357 of m = 2642, phi_f = 0.2).
 */
#include <grove/grove.h>
#include <stdio.h>
#include <stdlib.h>

#define NPARTIES 32

int main(void)
{
    const grove_stm_params params = {.m = 2642, .k = 357, .phi_f = 0.2};
    static uint8_t sk[NPARTIES][GROVE_STM_SK_BYTES];
    static uint8_t vkpop[NPARTIES][GROVE_STM_VKPOP_BYTES];
    uint64_t stakes[NPARTIES];
    uint8_t msg[16], rnd[8];
    grove_stm_keyreg *reg = NULL;
    grove_stm_closed *closed = NULL;
    grove_stm_sig sigs[NPARTIES];
    size_t nsigs = 0;
    int rc = grove_randombytes(msg, sizeof msg);

    /* initialization: keys, registration (PoPs checked), closing */
    for (int i = 0; i < NPARTIES && rc == GROVE_OK; i++) {
        rc = grove_stm_keygen(vkpop[i], sk[i], NULL); /* NULL seed: fresh randomness */
        if (rc == GROVE_OK)
            rc = grove_randombytes(rnd, sizeof rnd);
        stakes[i] = 1 + (((uint64_t)rnd[0] << 8 | rnd[1]) % 9999);
    }
    if (rc == GROVE_OK)
        rc = grove_stm_keyreg_new(&reg);
    if (rc == GROVE_OK)
        rc = grove_stm_keyreg_add_many(reg, NULL, stakes, &vkpop[0][0], NPARTIES,
                                       GROVE_THREADS_AUTO);
    if (rc == GROVE_OK)
        rc = grove_stm_keyreg_close(reg, &closed);
    grove_stm_keyreg_free(reg);
    if (rc != GROVE_OK) {
        fprintf(stderr, "registration failed: %s\n", grove_strerror(rc));
        return 1;
    }

    /* operation: every party signs; losers of every lottery publish nothing */
    for (int i = 0; i < NPARTIES; i++) {
        grove_stm_signer *signer;
        rc = grove_stm_signer_new(&params, &signer, sk[i], closed);
        if (rc == GROVE_OK) {
            rc = grove_stm_sign(signer, &sigs[nsigs], msg, sizeof msg);
            grove_stm_signer_free(signer);
        }
        grove_wipe(sk[i], sizeof sk[i]);
        if (rc == GROVE_OK)
            nsigs++;
        else if (rc != GROVE_ERR_LOTTERY_LOST)
            fprintf(stderr, "party %d: %s\n", i, grove_strerror(rc));
    }

    /* every signature verifies on its own */
    for (size_t i = 0; i < nsigs; i++)
        if (grove_stm_sig_verify(&params, &sigs[i], msg, sizeof msg, closed) != GROVE_OK)
            fprintf(stderr, "signature %zu does not verify\n", i);

    /* aggregation by a clerk, verification with the aggregate verification key */
    grove_stm_avk avk;
    grove_stm_closed_avk(closed, &avk);
    grove_stm_aggregate *agg = NULL;
    uint64_t have = 0;
    rc = grove_stm_aggregate_new(&params, &agg, &have, sigs, nsigs, msg, sizeof msg, closed,
                                 GROVE_THREADS_AUTO);
    int status = 0;
    if (rc == GROVE_OK) {
        rc = grove_stm_aggregate_verify(&params, agg, msg, sizeof msg, &avk);
        printf("Aggregate ok: %zu signatures, %llu indexes, %zu bytes, verification: %s\n",
               grove_stm_aggregate_count(agg), (unsigned long long)have,
               grove_stm_aggregate_encoded_bytes(agg), grove_strerror(rc));
        status = rc != GROVE_OK;
    } else if (rc == GROVE_ERR_NOT_ENOUGH) {
        printf("Not enough signatures: %llu indexes of k = %llu\n", (unsigned long long)have,
               (unsigned long long)params.k);
        status = !(have < params.k);
    } else {
        fprintf(stderr, "aggregation failed: %s\n", grove_strerror(rc));
        status = 1;
    }
    grove_stm_aggregate_free(agg);
    for (size_t i = 0; i < nsigs; i++)
        grove_stm_sig_clear(&sigs[i]);
    grove_stm_closed_free(closed);
    return status;
}
