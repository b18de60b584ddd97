/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The generic signature API's contract, the same suite for every registry entry: the registry
 * (44 algorithms, unique names, lookup, sizes equal to the scheme's own), round trip, the empty
 * message, every part of the signature tampered (bits spread over its whole length), the
 * message and the public key tampered, wrong lengths, short buffers and NULL arguments; all
 * refusals with the one code the contract names. (Secrets left on the stack: test_wipe; secret-
 * dependent branches: ct_check, both through this API too.)
 * Usage: test_sig [name-substring]  (default: every algorithm)
 */
#include <stdlib.h>
#include <string.h>

#include "grove/grove.h"
#include "test.h"

static void registry(void)
{
    size_t n = grove_sig_alg_count();
    CHECK_EQ_INT(n, 12 + 12 + 18 + 2);
    for (size_t i = 0; i < n; i++) {
        const grove_sig_alg *a = grove_sig_alg_at(i);
        CHECK(a != NULL && grove_sig_alg_name(a) != NULL);
        CHECK(grove_sig_alg_get(grove_sig_alg_name(a)) == a);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(grove_sig_alg_name(grove_sig_alg_at(j)), grove_sig_alg_name(a)) != 0);
        CHECK(grove_sig_pk_bytes(a) > 0 && grove_sig_sk_bytes(a) > 0 && grove_sig_sig_bytes(a) > 0);
    }
    CHECK(grove_sig_alg_at(n) == NULL);
    CHECK(grove_sig_alg_get(NULL) == NULL);
    CHECK(grove_sig_alg_get("SLH-DSA-SHA2-128F") == NULL); /* exact names */
    CHECK(grove_sig_alg_get("nope") == NULL);
    CHECK(grove_sig_alg_name(NULL) == NULL);
    CHECK_EQ_INT(grove_sig_pk_bytes(NULL), 0);
    CHECK_EQ_INT(grove_sig_sig_bytes(NULL), 0);
    /* names as the scheme headers (and `grove <scheme> params`) spell them; sizes agree */
    const grove_slhdsa_params *sp = grove_slhdsa_params_get("SLH-DSA-SHAKE-256s");
    const grove_sig_alg *a = grove_sig_alg_get("SLH-DSA-SHAKE-256s");
    CHECK(a != NULL && sp != NULL);
    CHECK_EQ_INT(grove_sig_sig_bytes(a), grove_slhdsa_sig_bytes(sp));
    a = grove_sig_alg_get("sphincs-sha2-192f-simple");
    sp = grove_slhdsa_params_get("sphincs-sha2-192f-simple");
    CHECK(a != NULL && sp != NULL);
    CHECK_EQ_INT(grove_sig_pk_bytes(a), grove_slhdsa_pk_bytes(sp));
    const grove_cross_params *cp = grove_cross_params_get("CROSS-RSDPG-5-small");
    a = grove_sig_alg_get("CROSS-RSDPG-5-small");
    CHECK(a != NULL && cp != NULL);
    CHECK_EQ_INT(grove_sig_sig_bytes(a), grove_cross_sig_bytes(cp));
    CHECK_EQ_INT(grove_sig_sk_bytes(a), grove_cross_sk_bytes(cp));
    a = grove_sig_alg_get("BLS12-381-min-pk");
    CHECK(a != NULL);
    CHECK_EQ_INT(grove_sig_pk_bytes(a), 48);
    CHECK_EQ_INT(grove_sig_sig_bytes(a), 96);
}

static int tampered_fails(const grove_sig_alg *a, uint8_t *sig, size_t len, size_t bit,
                          const uint8_t *msg, size_t ml, const uint8_t *pk)
{
    sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    int rc = grove_sig_verify(a, sig, len, msg, ml, pk);
    sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    return rc == GROVE_ERR_VERIFY;
}

static void contract(const grove_sig_alg *a)
{
    const size_t pkb = grove_sig_pk_bytes(a), skb = grove_sig_sk_bytes(a);
    const size_t sb = grove_sig_sig_bytes(a);
    uint8_t *pk = malloc(pkb), *sk = malloc(skb), *sig = malloc(sb + 1), *sig2 = malloc(sb);
    uint8_t msg[33];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 7 + 1);
    int before = test_failures;
    CHECK_EQ_INT(grove_sig_keygen(a, pk, sk), GROVE_OK);
    size_t len = 99;
    CHECK_EQ_INT(grove_sig_sign(a, sig, sb, &len, msg, sizeof msg, sk), GROVE_OK);
    CHECK_EQ_INT(len, sb);
    CHECK_EQ_INT(grove_sig_verify(a, sig, len, msg, sizeof msg, pk), GROVE_OK);
    /* the empty message, as NULL or as a pointer */
    size_t l2 = 0;
    CHECK_EQ_INT(grove_sig_sign(a, sig2, sb, &l2, NULL, 0, sk), GROVE_OK);
    CHECK_EQ_INT(grove_sig_verify(a, sig2, l2, NULL, 0, pk), GROVE_OK);
    CHECK_EQ_INT(grove_sig_verify(a, sig2, l2, msg, 0, pk), GROVE_OK);
    CHECK_EQ_INT(grove_sig_verify(a, sig2, l2, msg, 1, pk), GROVE_ERR_VERIFY);
    /* every part of the signature: the first and last bits, then 61 bits spread over it */
    int tamper_ok = tampered_fails(a, sig, len, 0, msg, sizeof msg, pk) &&
                    tampered_fails(a, sig, len, 8 * len - 1, msg, sizeof msg, pk);
    for (size_t k = 1; k < 62; k++)
        tamper_ok &= tampered_fails(a, sig, len, (8 * len * k) / 62 + k % 8, msg, sizeof msg, pk);
    CHECK(tamper_ok);
    CHECK_EQ_INT(grove_sig_verify(a, sig, len, msg, sizeof msg, pk), GROVE_OK); /* restored */
    /* the message and the public key */
    msg[5] ^= 0x10;
    CHECK_EQ_INT(grove_sig_verify(a, sig, len, msg, sizeof msg, pk), GROVE_ERR_VERIFY);
    msg[5] ^= 0x10;
    CHECK_EQ_INT(grove_sig_verify(a, sig, len, msg, sizeof msg - 1, pk), GROVE_ERR_VERIFY);
    for (size_t b = 0; b < 8 * pkb; b += 8 * pkb / 5 + 3) {
        pk[b / 8] ^= (uint8_t)(1u << (b % 8));
        CHECK_EQ_INT(grove_sig_verify(a, sig, len, msg, sizeof msg, pk), GROVE_ERR_VERIFY);
        pk[b / 8] ^= (uint8_t)(1u << (b % 8));
    }
    /* another key pair's public key */
    uint8_t *pk2 = malloc(pkb), *sk2 = malloc(skb);
    CHECK_EQ_INT(grove_sig_keygen(a, pk2, sk2), GROVE_OK);
    CHECK(memcmp(pk, pk2, pkb) != 0);
    CHECK_EQ_INT(grove_sig_verify(a, sig, len, msg, sizeof msg, pk2), GROVE_ERR_VERIFY);
    /* wrong lengths: one rule, GROVE_ERR_VERIFY */
    sig[sb] = 0;
    CHECK_EQ_INT(grove_sig_verify(a, sig, len + 1, msg, sizeof msg, pk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_sig_verify(a, sig, len - 1, msg, sizeof msg, pk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_sig_verify(a, sig, 0, msg, sizeof msg, pk), GROVE_ERR_VERIFY);
    /* short buffer: nothing signed, length 0 */
    len = 7;
    CHECK_EQ_INT(grove_sig_sign(a, sig2, sb - 1, &len, msg, sizeof msg, sk),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(len, 0);
    /* NULL arguments */
    CHECK_EQ_INT(grove_sig_keygen(NULL, pk2, sk2), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_keygen(a, NULL, sk2), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_keygen(a, pk2, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_sign(a, NULL, sb, &len, msg, 1, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_sign(a, sig2, sb, NULL, msg, 1, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_sign(a, sig2, sb, &len, NULL, 1, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_sign(a, sig2, sb, &len, msg, 1, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_sign(NULL, sig2, sb, &len, msg, 1, sk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_verify(a, NULL, sb, msg, 1, pk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_verify(a, sig, sb, NULL, 1, pk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_verify(a, sig, sb, msg, 1, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_verify(NULL, sig, sb, msg, 1, pk), GROVE_ERR_INVALID_ARG);
    if (test_failures != before)
        fprintf(stderr, "  ^ in %s\n", grove_sig_alg_name(a));
    grove_wipe(sk, skb);
    grove_wipe(sk2, skb);
    free(pk);
    free(sk);
    free(pk2);
    free(sk2);
    free(sig);
    free(sig2);
}

int main(int argc, char **argv)
{
    registry();
    size_t ran = 0;
    for (size_t i = 0; i < grove_sig_alg_count(); i++) {
        const grove_sig_alg *a = grove_sig_alg_at(i);
        if (argc > 1 && strstr(grove_sig_alg_name(a), argv[1]) == NULL)
            continue;
        contract(a);
        ran++;
    }
    printf("contract suite run on %zu algorithms\n", ran);
    CHECK(ran > 0);
    return test_done();
}
