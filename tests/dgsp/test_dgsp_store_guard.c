/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Restore protection of SQLite manager stores (grove_dgsp_store_set_registry): a restored copy
 * of group.db is refused (GROVE_ERR_STATE, nothing changes) by join, gen_cert, revoke and the
 * meta counters until grove_dgsp_store_recover raises it; after recovery no member id or zeta
 * is issued twice. Also: a store ahead of the registry (a crash between the two commits) is
 * accepted; an unprotected backend reports GROVE_ERR_UNSUPPORTED; an empty or missing file is
 * refused by sqlite_open without being changed; open verifies the signature first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dgsp/dgsp_int.h"
#include "grove/dgsp.h"
#include "test.h"

static char dir[256], db[300], bak[300];

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    CHECK(a != NULL && b != NULL);
    if (a == NULL || b == NULL)
        exit(1);
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, a)) > 0)
        CHECK(fwrite(buf, 1, k, b) == k);
    fclose(a);
    fclose(b);
}

static grove_dgsp_store *open_guarded(grove_registry *reg, const uint8_t *pk, size_t pl)
{
    grove_dgsp_store *s = NULL;
    CHECK_EQ_INT(grove_dgsp_store_sqlite_open(&s, db, 0), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_store_set_registry(s, reg, pk, pl, db), GROVE_OK);
    return s;
}

/* WOTS+ keys of a fresh CSR (the certificates are what matters here, not the seeds). */
static void csr(const grove_dgsp_cfg *cfg, size_t count, uint8_t *wpks)
{
    uint8_t seed_u[32], *seeds = malloc(count * cfg->n);
    CHECK_EQ_INT(grove_dgsp_keygen_user(cfg, seed_u), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_csr(cfg, wpks, seeds, count, seed_u), GROVE_OK);
    free(seeds);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/grove-test-guard-%d", (int)getpid());
    mkdir(dir, 0700);
    snprintf(db, sizeof db, "%s/group.db", dir);
    snprintf(bak, sizeof bak, "%s/backup.db", dir);
    char regdir[300];
    snprintf(regdir, sizeof regdir, "%s/state", dir);

    grove_dgsp_cfg cfg;
    CHECK_EQ_INT(grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get("sha2-128f"),
                                     GROVE_DGSP_FLAVOUR_R31, GROVE_DGSP_PROFILE_GROVE),
                 GROVE_OK);
    const size_t n = cfg.n, cb = grove_dgsp_cert_bytes(&cfg), pl = grove_dgsp_pk_bytes(&cfg);
    uint8_t pk[64], sk[192], cid0[32], cid1[32], wpks[4 * 32];
    uint8_t *certs = malloc(8 * cb);
    CHECK_EQ_INT(grove_dgsp_keygen_manager(&cfg, pk, sk), GROVE_OK);

    /* missing and empty files are refused and left as they were */
    grove_dgsp_store *s = NULL;
    CHECK_EQ_INT(grove_dgsp_store_sqlite_open(&s, db, 0), GROVE_ERR_NOT_FOUND);
    CHECK(access(db, F_OK) != 0);
    FILE *e = fopen(db, "wb");
    fclose(e);
    CHECK_EQ_INT(grove_dgsp_store_sqlite_open(&s, db, 0), GROVE_ERR_NOT_FOUND);
    struct stat sb;
    CHECK(stat(db, &sb) == 0 && sb.st_size == 0);
    unlink(db);

    /* the memory backend has no restore protection */
    grove_registry *reg = NULL;
    CHECK_EQ_INT(grove_registry_open(&reg, regdir), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_store_memory_open(&s), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_store_set_registry(s, reg, pk, pl, NULL), GROVE_ERR_UNSUPPORTED);
    grove_dgsp_store_close(s);

    CHECK_EQ_INT(grove_dgsp_store_sqlite_open(&s, db, 1), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_store_meta_set(s, "group_pk", pk, pl), GROVE_OK);
    grove_dgsp_store_close(s);

    s = open_guarded(reg, pk, pl);
    uint64_t id0, id1;
    CHECK_EQ_INT(grove_dgsp_join(&cfg, s, &id0, cid0, "alice", sk), GROVE_OK);
    grove_dgsp_store_close(s);
    copy_file(db, bak); /* the backup: alice, no certificates */

    s = open_guarded(reg, pk, pl);
    csr(&cfg, 4, wpks);
    CHECK_EQ_INT(grove_dgsp_gen_cert(&cfg, s, certs, wpks, 4, id0, cid0, sk, 1), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_join(&cfg, s, &id1, cid1, "bob", sk), GROVE_OK);
    CHECK_EQ_INT(id1, 1);
    grove_dgsp_store_close(s);

    /* restore the backup: every change is refused and changes nothing */
    copy_file(bak, db);
    char wal[320];
    snprintf(wal, sizeof wal, "%s-wal", db);
    unlink(wal);
    s = open_guarded(reg, pk, pl);
    uint64_t x;
    uint8_t cx[32];
    CHECK_EQ_INT(grove_dgsp_gen_cert(&cfg, s, certs + 4 * cb, wpks, 4, id0, cid0, sk, 1),
                 GROVE_ERR_STATE);
    CHECK(grove_dgsp_store_error(s) != NULL &&
          strstr(grove_dgsp_store_error(s), "restored") != NULL);
    CHECK_EQ_INT(grove_dgsp_join(&cfg, s, &x, cx, "carol", sk), GROVE_ERR_STATE);
    CHECK_EQ_INT(grove_dgsp_revoke(&cfg, s, NULL, &id0, 1, sk), GROVE_ERR_STATE);
    CHECK_EQ_INT(grove_dgsp_store_meta_next(s, &x, "revocations_seq"), GROVE_ERR_STATE);
    const char *one = "dave";
    CHECK_EQ_INT(grove_dgsp_store_add_members(s, &x, &one, 1), GROVE_ERR_STATE);
    /* the raw vtable is refused inside its own transaction too (the floor) */
    uint64_t first;
    CHECK_EQ_INT(s->ops->reserve(s->ctx, id0, 1, &first), GROVE_ERR_STATE);
    grove_dgsp_member m;
    CHECK_EQ_INT(s->ops->get_member(s->ctx, id0, &m), GROVE_OK);
    CHECK_EQ_INT(m.ctr, 0);
    uint64_t count = 0;
    CHECK_EQ_INT(s->ops->member_count(s->ctx, &count), GROVE_OK);
    CHECK_EQ_INT(count, 1);
    grove_dgsp_store_summary sum, rec;
    bool recorded = false;
    CHECK_EQ_INT(grove_dgsp_store_summary_get(s, &sum, &rec, &recorded), GROVE_OK);
    CHECK(recorded && sum.generation < rec.generation && rec.members == 2 && rec.ctr_max == 4);

    /* recovery raises the store: no id and no zeta is issued twice */
    uint64_t added = 0, raised = 0;
    CHECK_EQ_INT(grove_dgsp_store_recover(s, &added, &raised), GROVE_OK);
    CHECK_EQ_INT(added, 1);
    CHECK_EQ_INT(raised, 2); /* alice, and recovered-1 (its true counter is unknown) */
    CHECK_EQ_INT(s->ops->get_member(s->ctx, 1, &m), GROVE_OK);
    CHECK(strcmp(m.username, "recovered-1") == 0);
    CHECK_EQ_INT(grove_dgsp_join(&cfg, s, &x, cx, "carol", sk), GROVE_OK);
    CHECK_EQ_INT(x, 2);
    CHECK_EQ_INT(grove_dgsp_gen_cert(&cfg, s, certs + 4 * cb, wpks, 4, id0, cid0, sk, 1),
                 GROVE_OK);
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 4; j < 8; j++)
            CHECK(memcmp(certs + i * cb, certs + j * cb, 16) != 0); /* zetas */
    CHECK_EQ_INT(grove_dgsp_check_cert(&cfg, certs + 4 * cb, wpks, 4, id0, pk), GROVE_OK);
    /* bob's credential (id 1, joined after the backup) still gets certificates */
    CHECK_EQ_INT(grove_dgsp_gen_cert(&cfg, s, certs, wpks, 1, id1, cid1, sk, 1), GROVE_OK);
    grove_dgsp_store_close(s);

    /* a store ahead of the record (crash after the store's commit) is accepted */
    CHECK_EQ_INT(grove_dgsp_store_sqlite_open(&s, db, 0), GROVE_OK);
    CHECK_EQ_INT(s->ops->reserve(s->ctx, id0, 2, &first), GROVE_OK); /* no registry update */
    grove_dgsp_store_close(s);
    s = open_guarded(reg, pk, pl);
    CHECK_EQ_INT(grove_dgsp_gen_cert(&cfg, s, certs, wpks, 1, id0, cid0, sk, 1), GROVE_OK);
    grove_dgsp_store_close(s);

    /* open verifies the signature on the message before attributing it */
    uint8_t seed_u[32], ws[32], wpk[32], sig[GROVE_DGSP_MAX_SIG_BYTES], pi[32];
    const uint8_t msg[] = "signed", other[] = "never signed";
    CHECK_EQ_INT(grove_dgsp_keygen_user(&cfg, seed_u), GROVE_OK);
    CHECK_EQ_INT(grove_dgsp_csr(&cfg, wpk, ws, 1, seed_u), GROVE_OK);
    s = open_guarded(reg, pk, pl);
    CHECK_EQ_INT(grove_dgsp_gen_cert(&cfg, s, certs, wpk, 1, id0, cid0, sk, 1), GROVE_OK);
    CHECK_EQ_INT(dgsp_sign_raw(&cfg, msg, sizeof msg, seed_u, id0, ws, certs, sig, 0), GROVE_OK);
    size_t sl = grove_dgsp_sig_bytes(&cfg);
    char name[GROVE_DGSP_MAX_USERNAME + 1];
    CHECK_EQ_INT(grove_dgsp_open(&cfg, s, &x, name, pi, sig, sl, msg, sizeof msg, sk), GROVE_OK);
    CHECK(x == id0 && strcmp(name, "alice") == 0);
    CHECK_EQ_INT(grove_dgsp_open(&cfg, s, &x, name, pi, sig, sl, other, sizeof other, sk),
                 GROVE_ERR_VERIFY);
    grove_dgsp_store_close(s);
    (void)n;

    grove_registry_close(reg);
    free(certs);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return test_done();
}
