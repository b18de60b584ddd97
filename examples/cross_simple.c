/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * CROSS in a few lines: pick a parameter set by name, make a key pair, sign a message in the
 * small-memory strategy, verify it in the fast one (the two are interchangeable), and see a
 * modified message rejected. Buffers come from the library's size queries.
 */
#include <grove/grove.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const grove_cross_params *p = grove_cross_params_get("CROSS-RSDPG-1-small");
    if (p == NULL)
        return 1;
    size_t pk_len = grove_cross_pk_bytes(p), sk_len = grove_cross_sk_bytes(p);
    size_t sig_len = grove_cross_sig_bytes(p);
    uint8_t *pk = malloc(pk_len), *sk = malloc(sk_len), *sig = malloc(sig_len);
    const char *msg = "attack at dawn";
    int rc = 1;
    if (pk == NULL || sk == NULL || sig == NULL)
        goto done;
    if (grove_cross_keygen(p, pk, sk) != GROVE_OK)
        goto done;
    grove_status st =
        grove_cross_sign(p, GROVE_CROSS_SMALL_MEMORY, sig, (const uint8_t *)msg, strlen(msg), sk);
    if (st != GROVE_OK) {
        fprintf(stderr, "sign: %s\n", grove_strerror(st));
        goto done;
    }
    st = grove_cross_verify(p, GROVE_CROSS_FAST, sig, sig_len, (const uint8_t *)msg, strlen(msg),
                            pk);
    printf("%s: public key %zu B, signature %zu B, verify: %s\n", grove_cross_params_name(p),
           pk_len, sig_len, grove_strerror(st));
    if (st != GROVE_OK)
        goto done;
    st = grove_cross_verify(p, GROVE_CROSS_FAST, sig, sig_len, (const uint8_t *)"attack at dusk",
                            14, pk);
    printf("other message: %s\n", grove_strerror(st));
    rc = st == GROVE_ERR_VERIFY ? 0 : 1;
done:
    if (sk != NULL)
        grove_wipe(sk, sk_len);
    free(pk);
    free(sk);
    free(sig);
    return rc;
}
