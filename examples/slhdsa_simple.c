/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SLH-DSA (FIPS 205) in a few lines: generate a key pair, sign a message with a context string,
 * verify it, and see a modified message rejected.
 */
#include <grove/grove.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const grove_slhdsa_params *p = grove_slhdsa_params_get("SLH-DSA-SHAKE-128f");
    uint8_t pk[GROVE_SLHDSA_MAX_PK_BYTES], sk[GROVE_SLHDSA_MAX_SK_BYTES];
    uint8_t *sig = malloc(grove_slhdsa_sig_bytes(p));
    const char *msg = "firmware image 1.2.3";
    const uint8_t ctx[] = "example";
    grove_status rc;

    if (p == NULL || sig == NULL)
        return 1;
    if ((rc = grove_slhdsa_keygen(p, pk, sk)) != GROVE_OK ||
        (rc = grove_slhdsa_sign(p, sig, (const uint8_t *)msg, strlen(msg), ctx, sizeof ctx - 1, sk,
                                /*hedged=*/true)) != GROVE_OK) {
        fprintf(stderr, "error: %s\n", grove_strerror(rc));
        grove_wipe(sk, sizeof sk);
        free(sig);
        return 1;
    }
    grove_wipe(sk, sizeof sk);

    rc = grove_slhdsa_verify(p, sig, grove_slhdsa_sig_bytes(p), (const uint8_t *)msg, strlen(msg),
                             ctx, sizeof ctx - 1, pk);
    printf("%s: %zu-byte signature %s\n", grove_slhdsa_params_name(p), grove_slhdsa_sig_bytes(p),
           rc == GROVE_OK ? "verifies" : grove_strerror(rc));
    int ok = rc == GROVE_OK;

    const char *other = "firmware image 1.2.4";
    rc = grove_slhdsa_verify(p, sig, grove_slhdsa_sig_bytes(p), (const uint8_t *)other,
                             strlen(other), ctx, sizeof ctx - 1, pk);
    printf("modified message: %s\n", grove_strerror(rc));
    ok = ok && rc == GROVE_ERR_VERIFY;
    free(sig);
    return ok ? 0 : 1;
}
