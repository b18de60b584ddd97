/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Standard key encodings (grove/pkix.h): write an SLH-DSA key pair as PEM (SubjectPublicKeyInfo
 * and PKCS#8, RFC 9909), read both back, and sign and verify with the keys read.
 */
#include <grove/grove.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Key -> DER -> PEM text -> DER again: what a program writing and reading key files does. */
static grove_status pem_round_trip(uint8_t *der, size_t *der_len, const char *label, char *pem,
                                   size_t pem_cap)
{
    size_t pem_len = 0;
    grove_status rc = grove_pkix_pem_encode(pem, pem_cap, &pem_len, label, der, *der_len);
    if (rc == GROVE_OK)
        rc = grove_pkix_pem_decode(der, *der_len, der_len, label, pem, pem_len);
    return rc;
}

int main(void)
{
    const grove_slhdsa_params *p = grove_slhdsa_params_get("SLH-DSA-SHA2-128f"), *got = NULL;
    uint8_t pk[GROVE_SLHDSA_MAX_PK_BYTES], sk[GROVE_SLHDSA_MAX_SK_BYTES];
    uint8_t pk_der[GROVE_PKIX_SLHDSA_MAX_SPKI_BYTES], sk_der[GROVE_PKIX_SLHDSA_MAX_PKCS8_BYTES];
    uint8_t pk2[GROVE_SLHDSA_MAX_PK_BYTES], sk2[GROVE_SLHDSA_MAX_SK_BYTES];
    char pk_pem[256], sk_pem[512];
    size_t pk_der_len = 0, sk_der_len = 0, pk2_len = 0, sk2_len = 0;
    grove_slhdsa_prehash ph;
    uint8_t *sig = malloc(grove_slhdsa_sig_bytes(p));
    const char *msg = "release 2.0";
    grove_status rc = p != NULL && sig != NULL ? GROVE_OK : GROVE_ERR_NOMEM;

    if (rc == GROVE_OK)
        rc = grove_slhdsa_keygen(p, pk, sk);
    if (rc == GROVE_OK)
        rc = grove_pkix_slhdsa_pk_to_der(p, 0, pk_der, sizeof pk_der, &pk_der_len, pk);
    if (rc == GROVE_OK)
        rc = grove_pkix_slhdsa_sk_to_der(p, 0, sk_der, sizeof sk_der, &sk_der_len, sk);
    if (rc == GROVE_OK)
        rc = pem_round_trip(pk_der, &pk_der_len, GROVE_PKIX_PEM_PUBLIC_KEY, pk_pem, sizeof pk_pem);
    if (rc == GROVE_OK)
        rc = pem_round_trip(sk_der, &sk_der_len, GROVE_PKIX_PEM_PRIVATE_KEY, sk_pem, sizeof sk_pem);
    if (rc == GROVE_OK)
        printf("%s", pk_pem);
    if (rc == GROVE_OK)
        rc = grove_pkix_slhdsa_pk_from_der(&got, &ph, pk2, sizeof pk2, &pk2_len, pk_der, pk_der_len);
    if (rc == GROVE_OK && got != p)
        rc = GROVE_ERR_INTERNAL; /* the set must come back */
    if (rc == GROVE_OK)
        rc = grove_pkix_slhdsa_sk_from_der(&got, &ph, sk2, sizeof sk2, &sk2_len, sk_der, sk_der_len);
    if (rc == GROVE_OK)
        rc = grove_slhdsa_sign(got, sig, (const uint8_t *)msg, strlen(msg), NULL, 0, sk2, true);
    if (rc == GROVE_OK)
        rc = grove_slhdsa_verify(got, sig, grove_slhdsa_sig_bytes(got), (const uint8_t *)msg,
                                 strlen(msg), NULL, 0, pk2);
    printf("%s key pair through PEM and back: %s\n", grove_slhdsa_params_name(p),
           rc == GROVE_OK ? "signs and verifies" : grove_strerror(rc));
    grove_wipe(sk, sizeof sk);
    grove_wipe(sk2, sizeof sk2);
    grove_wipe(sk_der, sizeof sk_der);
    grove_wipe(sk_pem, sizeof sk_pem);
    free(sig);
    return rc == GROVE_OK && got == p ? 0 : 1; /* got: the set named by the private key */
}
