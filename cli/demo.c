/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove demo: a complete DGSP group life on the embedded default (shake-256f, SPHINCS+ round
 * 3.1, grove profile), with SQLite files in a temporary folder, told in plain words.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "grove/config.h"

int cli_demo(cli_ctx *c);

#if !(GROVE_HAVE_DGSP && GROVE_HAVE_SQLITE)
int cli_demo(cli_ctx *c)
{
    return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_UNSUPPORTED,
                    "the demo tells a DGSP group life: this grove was built without DGSP "
                    "(GROVE_WITH_DGSP / GROVE_WITH_SQLITE off)");
}
#else
#include "grove/dgsp.h"

struct zlist {
    uint8_t z[16 * 64];
    size_t n;
};

static grove_status collect_zetas(void *arg, const uint8_t *z, size_t k)
{
    struct zlist *l = arg;
    if (l->n + k > 64)
        return GROVE_ERR_NOMEM;
    memcpy(l->z + 16 * l->n, z, 16 * k);
    l->n += k;
    return GROVE_OK;
}

#define STEP(...)                                                                           \
    do {                                                                                    \
        cli_say(c, __VA_ARGS__);                                                            \
        fflush(stdout);                                                                     \
    } while (0)

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

typedef struct {
    const char *name;
    uint64_t id;
    grove_dgsp_wallet *w;
} person;

static int rm_rf(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

int cli_demo(cli_ctx *c)
{
    const char *params = "shake-256f";
    grove_dgsp_cfg cfg;
    char dir[] = "/tmp/grove-demo.XXXXXX", path[4200];
    int st = grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get(params), GROVE_DGSP_FLAVOUR_R31,
                                 GROVE_DGSP_PROFILE_GROVE);
    if (st != GROVE_OK || mkdtemp(dir) == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, st, "cannot prepare the demo");
    const size_t n = cfg.n, cb = grove_dgsp_cert_bytes(&cfg), sb = grove_dgsp_sig_bytes(&cfg);
    uint8_t pk[GROVE_DGSP_MAX_PK_BYTES], sk[GROVE_DGSP_MAX_SK_BYTES];
    grove_dgsp_store *store = NULL, *published = NULL;
    person people[3] = {{"alice", 0, NULL}, {"bob", 0, NULL}, {"carol", 0, NULL}};
    uint8_t *certs = malloc(2 * cb), *sig_a = malloc(sb), *sig_b = malloc(sb), *rl = NULL;
    uint8_t wpks[2 * GROVE_DGSP_MAX_N];
    const char *msg_a = "Alice approves budget 2027", *msg_b = "Bob approves the new office";
    double t0 = now_ms();
    int ok = 0;
    if (certs == NULL || sig_a == NULL || sig_b == NULL)
        goto out;

    STEP("grove %s - DGSP group signature demo (hash path: %s)", grove_version(), grove_cpu_path());
    STEP("Working folder: %s", dir);
    STEP("%s", "");
    STEP("1. The group manager creates the group: a %s SPHINCS+ key and a member store (SQLite).",
         params);
    snprintf(path, sizeof path, "%s/group.db", dir);
    if ((st = grove_dgsp_keygen_manager(&cfg, pk, sk)) != GROVE_OK ||
        (st = grove_dgsp_store_sqlite_open(&store, path, 1)) != GROVE_OK)
        goto fail;
    STEP("   public key %zu bytes; signatures will be %zu bytes.", grove_dgsp_pk_bytes(&cfg), sb);

    STEP("2. Three people join; each receives an id and a credential, and keeps a wallet.");
    for (int i = 0; i < 3; i++) {
        person *p = &people[i];
        uint8_t cid_star[GROVE_DGSP_MAX_N];
        snprintf(path, sizeof path, "%s/%s.wallet", dir, p->name);
        if ((st = grove_dgsp_join(&cfg, store, &p->id, cid_star, p->name, sk)) != GROVE_OK ||
            (st = grove_dgsp_wallet_create(&cfg, &p->w, path, NULL, p->id, cid_star, pk)) !=
                GROVE_OK)
            goto fail;
        STEP("   %-5s is member %llu", p->name, (unsigned long long)p->id);
    }

    STEP("3. Each member requests 2 certificates for fresh one-time keys; the manager certifies");
    STEP("   them and each member checks the certificates before storing them.");
    for (int i = 0; i < 3; i++) {
        person *p = &people[i];
        uint8_t cid_star[GROVE_DGSP_MAX_N];
        uint64_t id;
        double t = now_ms();
        if ((st = grove_dgsp_wallet_csr(p->w, wpks, 2)) != GROVE_OK ||
            (st = grove_dgsp_wallet_credential(p->w, &id, cid_star)) != GROVE_OK ||
            (st = grove_dgsp_gen_cert(&cfg, store, certs, wpks, 2, id, cid_star, sk, 2)) !=
                GROVE_OK ||
            (st = grove_dgsp_wallet_import(p->w, certs, wpks, 2, pk)) != GROVE_OK)
            goto fail;
        STEP("   %-5s: 2 certificates issued and checked (%.0f ms)", p->name, now_ms() - t);
    }

    STEP("4. Alice and Bob sign. Each signature uses up one certificate.");
    if ((st = grove_dgsp_wallet_sign(people[0].w, sig_a, (const uint8_t *)msg_a, strlen(msg_a))) !=
            GROVE_OK ||
        (st = grove_dgsp_wallet_sign(people[1].w, sig_b, (const uint8_t *)msg_b, strlen(msg_b))) !=
            GROVE_OK)
        goto fail;
    STEP("   \"%s\" and \"%s\" are signed.", msg_a, msg_b);

    STEP("5. Anyone verifies with the group's public key: they learn a member signed, not which.");
    int va = grove_dgsp_verify(&cfg, sig_a, sb, (const uint8_t *)msg_a, strlen(msg_a), pk, store);
    int vb = grove_dgsp_verify(&cfg, sig_b, sb, (const uint8_t *)msg_b, strlen(msg_b), pk, store);
    int vf = grove_dgsp_verify(&cfg, sig_a, sb, (const uint8_t *)msg_b, strlen(msg_b), pk, store);
    STEP("   first signature: %s; second: %s; first signature on the other text: %s",
         va == GROVE_OK ? "valid" : grove_strerror(va), vb == GROVE_OK ? "valid" : grove_strerror(vb),
         vf == GROVE_OK ? "valid (!)" : "rejected");
    if (va != GROVE_OK || vb != GROVE_OK || vf == GROVE_OK)
        goto fail_quiet;

    STEP("6. The manager opens the second signature, and a judge checks the opening.");
    uint64_t who;
    char user[GROVE_DGSP_MAX_USERNAME + 1];
    uint8_t pi[GROVE_DGSP_MAX_N];
    if ((st = grove_dgsp_open(&cfg, store, &who, user, pi, sig_b, sb, (const uint8_t *)msg_b,
                              strlen(msg_b), sk)) != GROVE_OK)
        goto fail;
    int jd = grove_dgsp_judge(&cfg, sig_b, sb, (const uint8_t *)msg_b, strlen(msg_b), who, pi);
    int jw = grove_dgsp_judge(&cfg, sig_b, sb, (const uint8_t *)msg_b, strlen(msg_b), people[2].id,
                              pi);
    STEP("   it was member %llu (%s); the judge %s the opening, and rejects blaming carol (%s).",
         (unsigned long long)who, user, jd == GROVE_OK ? "confirms" : "REJECTS",
         jw == GROVE_OK ? "accepted!" : "rejected");
    if (jd != GROVE_OK || jw == GROVE_OK || who != people[1].id)
        goto fail_quiet;

    STEP("7. The manager revokes Bob: his member entry and every certificate he was given.");
    if ((st = grove_dgsp_revoke(&cfg, store, NULL, &people[1].id, 1, sk)) != GROVE_OK)
        goto fail;
    vb = grove_dgsp_verify(&cfg, sig_b, sb, (const uint8_t *)msg_b, strlen(msg_b), pk, store);
    STEP("   Bob's signature now: %s; Alice's is unaffected.",
         vb == GROVE_ERR_REVOKED ? "REVOKED" : grove_strerror(vb));
    uint8_t cs[GROVE_DGSP_MAX_N];
    uint64_t bid;
    if ((st = grove_dgsp_wallet_credential(people[1].w, &bid, cs)) != GROVE_OK)
        goto fail;
    int again = grove_dgsp_gen_cert(&cfg, store, certs, wpks, 1, bid, cs, sk, 1);
    STEP("   Bob asks for new certificates: %s.", again == GROVE_ERR_REVOKED ? "refused" : "ISSUED?!");
    if (vb != GROVE_ERR_REVOKED || again != GROVE_ERR_REVOKED)
        goto fail_quiet;

    STEP("8. The manager publishes a signed revocation list; a verifier checks its signature");
    STEP("   against the group key before using it.");
    struct zlist zl = {{0}, 0};
    if ((st = store->ops->list_revoked(store->ctx, collect_zetas, &zl)) != GROVE_OK)
        goto fail;
    size_t rlen = grove_dgsp_revocations_bytes(&cfg, zl.n);
    if ((rl = malloc(rlen)) == NULL ||
        (st = grove_dgsp_revocations_sign(&cfg, rl, rlen, &rlen, 1, (uint64_t)time(NULL), zl.z,
                                          zl.n, sk)) != GROVE_OK)
        goto fail;
    const uint8_t *z;
    uint64_t cnt, seq;
    if ((st = grove_dgsp_revocations_verify(&cfg, &seq, NULL, &z, &cnt, rl, rlen,
                                            pk)) != GROVE_OK ||
        (st = grove_dgsp_store_memory_open(&published)) != GROVE_OK ||
        (st = published->ops->add_revoked(published->ctx, z, (size_t)cnt)) != GROVE_OK)
        goto fail;
    rl[rlen / 2] ^= 1;
    int forged = grove_dgsp_revocations_verify(&cfg, NULL, NULL, NULL, NULL, rl, rlen, pk);
    va = grove_dgsp_verify(&cfg, sig_a, sb, (const uint8_t *)msg_a, strlen(msg_a), pk, published);
    vb = grove_dgsp_verify(&cfg, sig_b, sb, (const uint8_t *)msg_b, strlen(msg_b), pk, published);
    STEP("   list #%llu with %llu entries, signature checked; with it: Alice %s, Bob %s.",
         (unsigned long long)seq, (unsigned long long)cnt, va == GROVE_OK ? "valid" : "INVALID",
         vb == GROVE_ERR_REVOKED ? "revoked" : "NOT REVOKED");
    STEP("   A tampered copy of the list is %s.", forged == GROVE_OK ? "ACCEPTED" : "rejected");
    if (va != GROVE_OK || vb != GROVE_ERR_REVOKED || forged == GROVE_OK)
        goto fail_quiet;
    STEP("%s", "");
    STEP("Done in %.1f s. The same steps from the shell: grove dgsp --help.", (now_ms() - t0) / 1e3);
    cli_out_bool(c, "demo_passed", 1);
    ok = 1;
    goto out;

fail:
    cli_fail(c, cli_exit_for_status(st), st, "demo step failed: %s", grove_strerror(st));
fail_quiet:
    ok = 0;
out:
    for (int i = 0; i < 3; i++)
        grove_dgsp_wallet_close(people[i].w);
    grove_dgsp_store_close(store);
    grove_dgsp_store_close(published);
    grove_wipe(sk, sizeof sk);
    free(certs);
    free(sig_a);
    free(sig_b);
    free(rl);
    rm_rf(dir);
    (void)n;
    return ok ? 0 : CLI_EXIT_USAGE;
}
#endif
