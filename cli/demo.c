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

/* Everything the story's steps share. */
typedef struct {
    cli_ctx *c;
    grove_dgsp_cfg cfg;
    char dir[32];
    uint8_t pk[GROVE_DGSP_MAX_PK_BYTES], sk[GROVE_DGSP_MAX_SK_BYTES];
    grove_dgsp_store *store, *published;
    person people[3];
    size_t cb, sb;
    uint8_t *certs, *sig_a, *sig_b;
    uint8_t wpks[2 * GROVE_DGSP_MAX_N];
} demo;

static const char *const msg_a = "Alice approves budget 2027", *const msg_b =
                                                                   "Bob approves the new office";

/* A step's outcome: GROVE_OK, a library status, or DEMO_WRONG when a check came out wrong (the
 * step has said what). */
#define DEMO_WRONG 1

static int verify_msg(demo *d, const uint8_t *sig, const char *msg, grove_dgsp_store *revoked)
{
    return grove_dgsp_verify(&d->cfg, sig, d->sb, (const uint8_t *)msg, strlen(msg), d->pk,
                             revoked);
}

static int remove_tree(const char *dir)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir); /* dir: mkdtemp's /tmp/grove-demo.XXXXXX */
    return system(cmd);
}

static int step_create_and_join(demo *d)
{
    cli_ctx *c = d->c;
    char path[96];
    int st;
    STEP("1. The group manager creates the group: a %s SPHINCS+ key and a member store (SQLite).",
         grove_dgsp_params_name(d->cfg.params));
    snprintf(path, sizeof path, "%s/group.db", d->dir);
    if ((st = grove_dgsp_keygen_manager(&d->cfg, d->pk, d->sk)) != GROVE_OK ||
        (st = grove_dgsp_store_sqlite_open(&d->store, path, 1)) != GROVE_OK)
        return st;
    STEP("   public key %zu bytes; signatures will be %zu bytes.", grove_dgsp_pk_bytes(&d->cfg),
         d->sb);
    STEP("2. Three people join; each receives an id and a credential, and keeps a wallet.");
    for (int i = 0; i < 3; i++) {
        person *p = &d->people[i];
        uint8_t cid_star[GROVE_DGSP_MAX_N];
        snprintf(path, sizeof path, "%s/%s.wallet", d->dir, p->name);
        if ((st = grove_dgsp_join(&d->cfg, d->store, &p->id, cid_star, p->name, d->sk)) !=
                GROVE_OK ||
            (st = grove_dgsp_wallet_create(&d->cfg, &p->w, path, NULL, p->id, cid_star, d->pk)) !=
                GROVE_OK)
            return st;
        STEP("   %-5s is member %llu", p->name, (unsigned long long)p->id);
    }
    return GROVE_OK;
}

static int step_certify_and_sign(demo *d)
{
    cli_ctx *c = d->c;
    int st;
    STEP("3. Each member requests 2 certificates for fresh one-time keys; the manager certifies");
    STEP("   them and each member checks the certificates before storing them.");
    for (int i = 0; i < 3; i++) {
        person *p = &d->people[i];
        uint8_t cid_star[GROVE_DGSP_MAX_N];
        uint64_t id;
        double t = now_ms();
        if ((st = grove_dgsp_wallet_csr(p->w, d->wpks, 2)) != GROVE_OK ||
            (st = grove_dgsp_wallet_credential(p->w, &id, cid_star)) != GROVE_OK ||
            (st = grove_dgsp_gen_cert(&d->cfg, d->store, d->certs, d->wpks, 2, id, cid_star, d->sk,
                                      2)) != GROVE_OK ||
            (st = grove_dgsp_wallet_import(p->w, d->certs, d->wpks, 2, d->pk)) != GROVE_OK)
            return st;
        STEP("   %-5s: 2 certificates issued and checked (%.0f ms)", p->name, now_ms() - t);
    }
    STEP("4. Alice and Bob sign. Each signature uses up one certificate.");
    if ((st = grove_dgsp_wallet_sign(d->people[0].w, d->sig_a, (const uint8_t *)msg_a,
                                     strlen(msg_a))) != GROVE_OK ||
        (st = grove_dgsp_wallet_sign(d->people[1].w, d->sig_b, (const uint8_t *)msg_b,
                                     strlen(msg_b))) != GROVE_OK)
        return st;
    STEP("   \"%s\" and \"%s\" are signed.", msg_a, msg_b);
    return GROVE_OK;
}

static int step_verify_open_judge(demo *d)
{
    cli_ctx *c = d->c;
    STEP("5. Anyone verifies with the group's public key: they learn a member signed, not which.");
    int va = verify_msg(d, d->sig_a, msg_a, d->store), vb = verify_msg(d, d->sig_b, msg_b, d->store);
    int vf = verify_msg(d, d->sig_a, msg_b, d->store);
    STEP("   first signature: %s; second: %s; first signature on the other text: %s",
         va == GROVE_OK ? "valid" : grove_strerror(va), vb == GROVE_OK ? "valid" : grove_strerror(vb),
         vf == GROVE_OK ? "valid (!)" : "rejected");
    if (va != GROVE_OK || vb != GROVE_OK || vf == GROVE_OK)
        return DEMO_WRONG;

    STEP("6. The manager opens the second signature, and a judge checks the opening.");
    uint64_t who;
    char user[GROVE_DGSP_MAX_USERNAME + 1];
    uint8_t pi[GROVE_DGSP_MAX_N];
    const uint8_t *m = (const uint8_t *)msg_b;
    int st = grove_dgsp_open(&d->cfg, d->store, &who, user, pi, d->sig_b, d->sb, m, strlen(msg_b),
                             d->sk);
    if (st != GROVE_OK)
        return st;
    int jd = grove_dgsp_judge(&d->cfg, d->sig_b, d->sb, m, strlen(msg_b), who, pi);
    int jw = grove_dgsp_judge(&d->cfg, d->sig_b, d->sb, m, strlen(msg_b), d->people[2].id, pi);
    STEP("   it was member %llu (%s); the judge %s the opening, and rejects blaming carol (%s).",
         (unsigned long long)who, user, jd == GROVE_OK ? "confirms" : "REJECTS",
         jw == GROVE_OK ? "accepted!" : "rejected");
    return jd != GROVE_OK || jw == GROVE_OK || who != d->people[1].id ? DEMO_WRONG : GROVE_OK;
}

static int step_revoke(demo *d)
{
    cli_ctx *c = d->c;
    STEP("7. The manager revokes Bob: his member entry and every certificate he was given.");
    int st = grove_dgsp_revoke(&d->cfg, d->store, NULL, &d->people[1].id, 1, d->sk);
    if (st != GROVE_OK)
        return st;
    int vb = verify_msg(d, d->sig_b, msg_b, d->store);
    STEP("   Bob's signature now: %s; Alice's is unaffected.",
         vb == GROVE_ERR_REVOKED ? "REVOKED" : grove_strerror(vb));
    uint8_t cs[GROVE_DGSP_MAX_N];
    uint64_t bid;
    if ((st = grove_dgsp_wallet_credential(d->people[1].w, &bid, cs)) != GROVE_OK)
        return st;
    int again = grove_dgsp_gen_cert(&d->cfg, d->store, d->certs, d->wpks, 1, bid, cs, d->sk, 1);
    STEP("   Bob asks for new certificates: %s.", again == GROVE_ERR_REVOKED ? "refused" : "ISSUED?!");
    return vb != GROVE_ERR_REVOKED || again != GROVE_ERR_REVOKED ? DEMO_WRONG : GROVE_OK;
}

static int step_publish(demo *d)
{
    cli_ctx *c = d->c;
    STEP("8. The manager publishes a signed revocation list; a verifier checks its signature");
    STEP("   against the group key before using it.");
    struct zlist zl = {{0}, 0};
    int st = d->store->ops->list_revoked(d->store->ctx, collect_zetas, &zl);
    if (st != GROVE_OK)
        return st;
    size_t rlen = grove_dgsp_revocations_bytes(&d->cfg, zl.n);
    uint8_t *rl = malloc(rlen);
    if (rl == NULL)
        return GROVE_ERR_NOMEM;
    const uint8_t *z;
    uint64_t cnt, seq;
    if ((st = grove_dgsp_revocations_sign(&d->cfg, rl, rlen, &rlen, 1, (uint64_t)time(NULL), zl.z,
                                          zl.n, d->sk)) != GROVE_OK ||
        (st = grove_dgsp_revocations_verify(&d->cfg, &seq, NULL, &z, &cnt, rl, rlen, d->pk)) !=
            GROVE_OK ||
        (st = grove_dgsp_store_memory_open(&d->published)) != GROVE_OK ||
        (st = d->published->ops->add_revoked(d->published->ctx, z, (size_t)cnt)) != GROVE_OK) {
        free(rl);
        return st;
    }
    rl[rlen / 2] ^= 1;
    int forged = grove_dgsp_revocations_verify(&d->cfg, NULL, NULL, NULL, NULL, rl, rlen, d->pk);
    free(rl);
    int va = verify_msg(d, d->sig_a, msg_a, d->published);
    int vb = verify_msg(d, d->sig_b, msg_b, d->published);
    STEP("   list #%llu with %llu entries, signature checked; with it: Alice %s, Bob %s.",
         (unsigned long long)seq, (unsigned long long)cnt, va == GROVE_OK ? "valid" : "INVALID",
         vb == GROVE_ERR_REVOKED ? "revoked" : "NOT REVOKED");
    STEP("   A tampered copy of the list is %s.", forged == GROVE_OK ? "ACCEPTED" : "rejected");
    return va != GROVE_OK || vb != GROVE_ERR_REVOKED || forged == GROVE_OK ? DEMO_WRONG : GROVE_OK;
}

int cli_demo(cli_ctx *c)
{
    static int (*const steps[])(demo *) = {step_create_and_join, step_certify_and_sign,
                                           step_verify_open_judge, step_revoke, step_publish};
    demo *d = calloc(1, sizeof *d);
    if (d == NULL)
        return cli_fail(c, CLI_EXIT_USAGE, GROVE_ERR_NOMEM, "out of memory");
    *d = (demo){.c = c, .dir = "/tmp/grove-demo.XXXXXX",
                .people = {{"alice", 0, NULL}, {"bob", 0, NULL}, {"carol", 0, NULL}}};
    int st = grove_dgsp_cfg_init(&d->cfg, grove_dgsp_params_get("shake-256f"),
                                 GROVE_DGSP_FLAVOUR_R31, GROVE_DGSP_PROFILE_GROVE);
    if (st != GROVE_OK || mkdtemp(d->dir) == NULL) {
        free(d);
        return cli_fail(c, CLI_EXIT_USAGE, st, "cannot prepare the demo");
    }
    d->cb = grove_dgsp_cert_bytes(&d->cfg), d->sb = grove_dgsp_sig_bytes(&d->cfg);
    d->certs = malloc(2 * d->cb), d->sig_a = malloc(d->sb), d->sig_b = malloc(d->sb);
    double t0 = now_ms();
    st = d->certs && d->sig_a && d->sig_b ? GROVE_OK : GROVE_ERR_NOMEM;

    STEP("grove %s - DGSP group signature demo (hash path: %s)", grove_version(), grove_cpu_path());
    STEP("Working folder: %s", d->dir);
    STEP("%s", "");
    for (size_t i = 0; st == GROVE_OK && i < sizeof steps / sizeof steps[0]; i++)
        st = steps[i](d);
    if (st == GROVE_OK) {
        STEP("%s", "");
        STEP("Done in %.1f s. The same steps from the shell: grove dgsp --help.",
             (now_ms() - t0) / 1e3);
        cli_out_bool(c, "demo_passed", 1);
    } else if (st != DEMO_WRONG) {
        cli_fail(c, cli_exit_for_status(st), st, "demo step failed: %s", grove_strerror(st));
    }
    for (int i = 0; i < 3; i++)
        grove_dgsp_wallet_close(d->people[i].w);
    grove_dgsp_store_close(d->store);
    grove_dgsp_store_close(d->published);
    grove_wipe(d->sk, sizeof d->sk);
    free(d->certs);
    free(d->sig_a);
    free(d->sig_b);
    remove_tree(d->dir);
    free(d);
    return st == GROVE_OK ? 0 : CLI_EXIT_USAGE;
}
#endif
