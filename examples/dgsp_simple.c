/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* grove-example-needs: GROVE_HAVE_DGSP */
/*
 * DGSP walk-through (the seed document's "Basic Usage"): manager setup, a member joins, makes a
 * user seed and a certificate signing request, the manager issues certificates, the member
 * checks them and signs; anyone verifies; the manager opens the signature and a judge checks
 * the opening; finally the member is revoked and the signature no longer verifies.
 */
#include <grove/grove.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRY(call)                                                                           \
    do {                                                                                    \
        int rc_ = (call);                                                                   \
        if (rc_ != GROVE_OK) {                                                              \
            fprintf(stderr, "%s failed: %s\n", #call, grove_strerror(rc_));                \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

int main(void)
{
    grove_dgsp_cfg cfg;
    TRY(grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get("shake-128f"), GROVE_DGSP_FLAVOUR_R31,
                            GROVE_DGSP_PROFILE_GROVE));

    /* Manager setup: keys, member list and revocation list (in memory here). */
    uint8_t pkm[GROVE_DGSP_MAX_PK_BYTES], skm[GROVE_DGSP_MAX_SK_BYTES];
    grove_dgsp_store *store;
    TRY(grove_dgsp_keygen_manager(&cfg, pkm, skm));
    TRY(grove_dgsp_store_memory_open(&store));

    /* A user joins and receives (id, cid*); the user makes a private seed. */
    uint64_t id;
    uint8_t cid_star[GROVE_DGSP_MAX_N], seed_u[GROVE_DGSP_MAX_N];
    TRY(grove_dgsp_join(&cfg, store, &id, cid_star, "alice", skm));
    TRY(grove_dgsp_keygen_user(&cfg, seed_u));

    /* CSR for a batch of certificates; the manager certifies; the user checks. */
    enum { BATCH = 8 };
    uint8_t wots_pks[BATCH * GROVE_DGSP_MAX_N], wots_seeds[BATCH * GROVE_DGSP_MAX_N];
    uint8_t *certs = malloc(BATCH * grove_dgsp_cert_bytes(&cfg));
    uint8_t *sig = malloc(grove_dgsp_sig_bytes(&cfg));
    if (certs == NULL || sig == NULL)
        return 1;
    TRY(grove_dgsp_csr(&cfg, wots_pks, wots_seeds, BATCH, seed_u));
    TRY(grove_dgsp_gen_cert(&cfg, store, certs, wots_pks, BATCH, id, cid_star, skm, 2));
    TRY(grove_dgsp_check_cert(&cfg, certs, wots_pks, BATCH, id, pkm));

    /* The wallet keeps the certificates and makes sure each signs once. */
    grove_dgsp_wallet *wallet;
    TRY(grove_dgsp_wallet_memory_open(&cfg, &wallet, seed_u, id, cid_star));
    for (size_t i = 0; i < BATCH; i++)
        TRY(grove_dgsp_wallet_add(wallet, wots_seeds + i * cfg.n,
                                  certs + i * grove_dgsp_cert_bytes(&cfg)));
    grove_wipe(wots_seeds, sizeof wots_seeds);
    grove_wipe(seed_u, sizeof seed_u);

    const char *message = "Hello, DGSP!";
    TRY(grove_dgsp_wallet_sign(wallet, sig, (const uint8_t *)message, strlen(message)));

    /* Anyone verifies with the manager public key and the revocation list. */
    TRY(grove_dgsp_verify(&cfg, sig, grove_dgsp_sig_bytes(&cfg), (const uint8_t *)message,
                          strlen(message), pkm, store));
    printf("signature of %zu bytes verifies\n", grove_dgsp_sig_bytes(&cfg));

    /* The manager opens it; a judge checks the opening. */
    uint64_t signer;
    char username[GROVE_DGSP_MAX_USERNAME + 1];
    uint8_t pi[GROVE_DGSP_MAX_N];
    TRY(grove_dgsp_open(&cfg, store, &signer, username, pi, sig, grove_dgsp_sig_bytes(&cfg),
                        (const uint8_t *)message, strlen(message), skm));
    TRY(grove_dgsp_judge(&cfg, sig, grove_dgsp_sig_bytes(&cfg), (const uint8_t *)message,
                         strlen(message), signer, pi));
    printf("opened to member %llu (%s); the judge confirms\n", (unsigned long long)signer, username);

    /* Revocation: the member and every certificate issued to them. */
    TRY(grove_dgsp_revoke(&cfg, store, NULL, &signer, 1, skm));
    int rc = grove_dgsp_verify(&cfg, sig, grove_dgsp_sig_bytes(&cfg), (const uint8_t *)message,
                               strlen(message), pkm, store);
    printf("after revocation: %s\n", grove_strerror(rc));

    grove_dgsp_wallet_close(wallet);
    grove_dgsp_store_close(store);
    grove_wipe(skm, sizeof skm);
    free(certs);
    free(sig);
    return rc == GROVE_ERR_REVOKED ? 0 : 1;
}
