/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * XMSS key files with the state registry (grove_xmss_keyfile_*): create, sign, the registry
 * record, a split of the whole key (distinct ids, no deadlock), a restored pre-split copy and a
 * restored older copy refused and fast-forwarded, an interrupted split completed at the next
 * open, a damaged entry refused, a grove 0.1 entry read and upgraded, a conflicting entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grove/state.h"
#include "grove/xmss.h"
#include "test.h"

static char dir[256], regdir[300];

static void path_of(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}


static int sign_once(grove_xmss_keyfile *kf, uint64_t *idx)
{
    grove_xmss_key *k = grove_xmss_keyfile_key(kf);
    const grove_xmss_params *p = grove_xmss_key_params(k);
    uint8_t *sig = malloc(grove_xmss_sig_bytes(p)), msg[4] = {1, 2, 3, 4};
    int rc = grove_xmss_key_sign(k, sig, idx, msg, sizeof msg);
    free(sig);
    return rc;
}

static int open_kf(const char *path, grove_registry *reg, unsigned flags, grove_xmss_keyfile **kf,
                   char *err)
{
    return grove_xmss_keyfile_open(kf, path, reg, flags, NULL, err, GROVE_XMSS_ERR_CAP);
}

static void entry_write(grove_registry *reg, const uint8_t *id, const char *text)
{
    grove_registry_entry *e = NULL;
    CHECK_EQ_INT(grove_registry_lock(reg, &e, "xmss", id, GROVE_XMSS_KEY_ID_BYTES), GROVE_OK);
    CHECK_EQ_INT(grove_registry_write(e, text, strlen(text)), GROVE_OK);
    grove_registry_unlock(e);
}

static void scenario(void)
{
    const grove_xmss_params *p = grove_xmss_params_get("XMSS-SHA2_10_256");
    grove_registry *reg = NULL;
    CHECK_EQ_INT(grove_registry_open(&reg, regdir), GROVE_OK);
    char a[320], a_old[320], part[320], part2[320], err[GROVE_XMSS_ERR_CAP];
    path_of(a, sizeof a, "a");
    path_of(a_old, sizeof a_old, "a.old");
    path_of(part, sizeof part, "part");
    path_of(part2, sizeof part2, "part2");
    grove_xmss_opts opts = {.threads = 2};
    grove_xmss_key *k = NULL;
    CHECK_EQ_INT(grove_xmss_keygen(p, &k, &opts), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_keyfile_create(a, reg, k, GROVE_ENVELOPE_ARMORED, err, sizeof err), GROVE_OK);
    /* the same key again (a regenerated copy) is refused only once it was used */
    CHECK_EQ_INT(grove_xmss_keyfile_create(a, reg, k, GROVE_ENVELOPE_ARMORED, err, sizeof err), GROVE_ERR_EXISTS);
    uint8_t id[GROVE_XMSS_KEY_ID_BYTES];
    grove_xmss_key_id(k, id);
    grove_xmss_record rec;
    CHECK_EQ_INT(grove_xmss_record_read(reg, &rec, id), GROVE_OK);
    CHECK(rec.params == p && rec.range_end == 1024 && rec.high_water == 0 && !rec.legacy);
    grove_xmss_record_free(&rec);
    CHECK_EQ_INT(test_copy_file(a, a_old), 0);

    /* split of the whole key: the part has its own id; the source is exhausted */
    grove_xmss_keyfile *kf = NULL;
    CHECK_EQ_INT(open_kf(a, reg, 0, &kf, err), GROVE_OK);
    uint64_t s = 1, e = 0;
    CHECK_EQ_INT(grove_xmss_keyfile_split(kf, &s, &e, 1024, part, GROVE_ENVELOPE_BINARY, &opts, err, sizeof err),
                 GROVE_OK);
    CHECK(s == 0 && e == 1024);
    uint64_t idx = 0;
    CHECK_EQ_INT(sign_once(kf, &idx), GROVE_ERR_EXHAUSTED);
    grove_xmss_keyfile_close(kf);
    grove_xmss_state_info ia, ip;
    CHECK_EQ_INT(grove_xmss_keyfile_read_info(&ia, a, err, sizeof err), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_keyfile_read_info(&ip, part, err, sizeof err), GROVE_OK);
    CHECK(ia.range_end == 0 && ia.generation == 1 && ia.exhausted);
    CHECK(ip.has_parent && memcmp(ip.parent_id, id, sizeof id) == 0 && ip.birth == 1);
    CHECK(memcmp(ia.key_id, ip.key_id, sizeof id) != 0);
    CHECK_EQ_INT(grove_xmss_record_read(reg, &rec, id), GROVE_OK);
    CHECK(rec.nsplits == 1 && rec.splits[0].start == 0 && rec.splits[0].end == 1024 &&
          memcmp(rec.splits[0].child_id, ip.key_id, sizeof id) == 0 && !rec.pending &&
          rec.generation == 1 && rec.range_end == 0);
    grove_xmss_record_free(&rec);

    /* the pre-split copy: stale, refused, then fast-forwarded to [0, 0) */
    CHECK_EQ_INT(open_kf(a_old, reg, 0, &kf, err), GROVE_ERR_STATE);
    CHECK(kf == NULL && strstr(err, "before a split") != NULL);
    CHECK_EQ_INT(grove_xmss_keyfile_read_info(&ia, a_old, err, sizeof err), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_record_read(reg, &rec, id), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_file_check(&ia, &rec, err, sizeof err), GROVE_XMSS_FILE_STALE);
    grove_xmss_record_free(&rec);
    CHECK_EQ_INT(open_kf(a_old, reg, GROVE_XMSS_KEYFILE_RECOVER, &kf, err), GROVE_OK);
    CHECK(grove_xmss_keyfile_changed(kf));
    CHECK_EQ_INT(sign_once(kf, &idx), GROVE_ERR_EXHAUSTED);
    grove_xmss_keyfile_close(kf);

    /* the part signs; an older copy of it is refused and recovered past the mark */
    char part_old[320];
    path_of(part_old, sizeof part_old, "part.old");
    CHECK_EQ_INT(test_copy_file(part, part_old), 0);
    CHECK_EQ_INT(open_kf(part, reg, 0, &kf, err), GROVE_OK);
    CHECK_EQ_INT(sign_once(kf, &idx), GROVE_OK);
    CHECK_EQ_INT(idx, 0);
    CHECK_EQ_INT(sign_once(kf, &idx), GROVE_OK); /* two writes in one open: the lock is kept */
    CHECK_EQ_INT(idx, 1);
    grove_xmss_keyfile_close(kf);
    CHECK_EQ_INT(open_kf(part_old, reg, 0, &kf, err), GROVE_ERR_STATE);
    CHECK_EQ_INT(open_kf(part_old, reg, GROVE_XMSS_KEYFILE_RECOVER, &kf, err), GROVE_OK);
    CHECK_EQ_INT(sign_once(kf, &idx), GROVE_OK);
    CHECK_EQ_INT(idx, 2);
    grove_xmss_keyfile_close(kf);
    /* the file that was current before is now behind the recovered copy: stale too */
    CHECK_EQ_INT(open_kf(part, reg, 0, &kf, err), GROVE_ERR_STATE);
    CHECK_EQ_INT(rename(part_old, part), 0);

    /* an interrupted split: the source file as it was before, the entry marked pending */
    char pre[320];
    path_of(pre, sizeof pre, "part.pre");
    CHECK_EQ_INT(test_copy_file(part, pre), 0);
    CHECK_EQ_INT(open_kf(part, reg, 0, &kf, err), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_keyfile_split(kf, &s, &e, 100, part2, GROVE_ENVELOPE_ARMORED, &opts, err, sizeof err),
                 GROVE_OK);
    CHECK(s == 924 && e == 1024);
    grove_xmss_keyfile_close(kf);
    CHECK_EQ_INT(grove_xmss_record_read(reg, &rec, ip.key_id), GROVE_OK);
    char text[2048];
    char child[2 * GROVE_XMSS_KEY_ID_BYTES + 1];
    for (int i = 0; i < GROVE_XMSS_KEY_ID_BYTES; i++)
        snprintf(child + 2 * i, 3, "%02x", rec.splits[0].child_id[i]);
    char parent[2 * GROVE_XMSS_KEY_ID_BYTES + 1];
    for (int i = 0; i < GROVE_XMSS_KEY_ID_BYTES; i++)
        snprintf(parent + 2 * i, 3, "%02x", id[i]);
    grove_xmss_record_free(&rec);
    char real[300], hexpath[700];
    CHECK(realpath(part2, real) != NULL);
    for (size_t i = 0; i < strlen(real) && i < 340; i++)
        snprintf(hexpath + 2 * i, 3, "%02x", (unsigned char)real[i]);
    snprintf(text, sizeof text,
             "grove-xmss-key 2\nparams XMSS-SHA2_10_256\nstart 0\nend 924\nhigh-water 3\n"
             "generation 1\nparent %s\nsplit 1 924 1024 %s\npending %s\n",
             parent, child, hexpath);
    entry_write(reg, ip.key_id, text);
    CHECK_EQ_INT(test_copy_file(pre, part), 0);
    CHECK_EQ_INT(grove_xmss_keyfile_read_info(&ia, part, err, sizeof err), GROVE_OK);
    CHECK(ia.range_end == 1024 && ia.generation == 0);
    CHECK_EQ_INT(open_kf(part, reg, 0, &kf, err), GROVE_OK); /* the part exists: completed */
    CHECK(grove_xmss_keyfile_changed(kf));
    CHECK_EQ_INT(grove_xmss_keyfile_info(kf, &ia), GROVE_OK);
    CHECK(ia.range_end == 924 && ia.generation == 1 && ia.high_water == 3);
    grove_xmss_keyfile_close(kf);
    CHECK_EQ_INT(grove_xmss_record_read(reg, &rec, ip.key_id), GROVE_OK);
    CHECK(!rec.pending && rec.range_end == 924);
    grove_xmss_record_free(&rec);
    /* the same interruption with no part file at the recorded path: rolled back, and the
     * part's (unused) entry is marked used up, so the part file that does exist is refused */
    snprintf(text, sizeof text,
             "grove-xmss-key 2\nparams XMSS-SHA2_10_256\nstart 0\nend 924\nhigh-water 3\n"
             "generation 1\nparent %s\nsplit 1 924 1024 %s\npending 2f6e6f2f73756368\n",
             parent, child);
    entry_write(reg, ip.key_id, text);
    CHECK_EQ_INT(test_copy_file(pre, part), 0);
    CHECK_EQ_INT(open_kf(part, reg, 0, &kf, err), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_keyfile_info(kf, &ia), GROVE_OK);
    CHECK(ia.range_end == 1024 && ia.generation == 1 && ia.high_water == 3);
    grove_xmss_keyfile_close(kf);
    CHECK_EQ_INT(open_kf(part2, reg, 0, &kf, err), GROVE_ERR_STATE);
    CHECK_EQ_INT(open_kf(part2, reg, GROVE_XMSS_KEYFILE_RECOVER, &kf, err), GROVE_OK);
    CHECK_EQ_INT(sign_once(kf, &idx), GROVE_ERR_EXHAUSTED);
    grove_xmss_keyfile_close(kf);

    /* a damaged entry is refused, never taken as absent */
    char ep[600];
    snprintf(ep, sizeof ep, "%s/xmss/", regdir);
    for (int i = 0; i < GROVE_XMSS_KEY_ID_BYTES; i++)
        snprintf(ep + strlen(ep), 3, "%02x", ip.key_id[i]);
    FILE *f = fopen(ep, "r+b");
    CHECK(f != NULL);
    if (f) {
        fseek(f, 20, SEEK_SET);
        fputc('9', f);
        fclose(f);
    }
    CHECK_EQ_INT(open_kf(part, reg, 0, &kf, err), GROVE_ERR_STATE);
    CHECK(strstr(err, "damaged") != NULL);
    grove_registry_close(reg);
    grove_xmss_key_free(k);
}

static void legacy_and_conflict(void)
{
    const grove_xmss_params *p = grove_xmss_params_get("XMSS-SHA2_10_192");
    grove_registry *reg = NULL;
    CHECK_EQ_INT(grove_registry_open(&reg, regdir), GROVE_OK);
    char b[320], err[GROVE_XMSS_ERR_CAP];
    path_of(b, sizeof b, "b");
    grove_xmss_opts opts = {.threads = 2};
    grove_xmss_key *k = NULL;
    CHECK_EQ_INT(grove_xmss_keygen(p, &k, &opts), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_keyfile_create(b, NULL, k, GROVE_ENVELOPE_BINARY, err, sizeof err), GROVE_OK);
    uint8_t id[GROVE_XMSS_KEY_ID_BYTES];
    grove_xmss_key_id(k, id);
    char hex[2 * GROVE_XMSS_KEY_ID_BYTES + 1], text[256], ep[600];
    for (int i = 0; i < GROVE_XMSS_KEY_ID_BYTES; i++)
        snprintf(hex + 2 * i, 3, "%02x", id[i]);
    /* grove 0.1 wrote "grove-xmss-state v1 <id> <mark>" with no checksum */
    snprintf(ep, sizeof ep, "%s/xmss", regdir);
    mkdir(ep, 0700);
    snprintf(ep, sizeof ep, "%s/xmss/%s", regdir, hex);
    snprintf(text, sizeof text, "grove-xmss-state v1 %s 5\n", hex);
    FILE *f = fopen(ep, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    grove_xmss_keyfile *kf = NULL;
    CHECK_EQ_INT(open_kf(b, reg, 0, &kf, err), GROVE_ERR_STATE); /* mark 0 < 5 */
    CHECK(strstr(err, "recover") != NULL);
    CHECK_EQ_INT(open_kf(b, reg, GROVE_XMSS_KEYFILE_RECOVER, &kf, err), GROVE_OK);
    uint64_t idx = 0;
    CHECK_EQ_INT(sign_once(kf, &idx), GROVE_OK);
    CHECK_EQ_INT(idx, 5);
    grove_xmss_keyfile_close(kf);
    grove_xmss_record rec;
    CHECK_EQ_INT(grove_xmss_record_read(reg, &rec, id), GROVE_OK);
    CHECK(!rec.legacy && rec.high_water == 6 && rec.range_end == 1024 && rec.params == p);
    grove_xmss_record_free(&rec);
    /* an entry of another range start under this id: refused even with recovery */
    snprintf(text, sizeof text,
             "grove-xmss-key 2\nparams XMSS-SHA2_10_192\nstart 7\nend 1024\nhigh-water 7\n"
             "generation 0\n");
    entry_write(reg, id, text);
    CHECK_EQ_INT(open_kf(b, reg, GROVE_XMSS_KEYFILE_RECOVER, &kf, err), GROVE_ERR_STATE);
    CHECK(strstr(err, "not the same key") != NULL);
    /* malformed records are damaged entries */
    static const char *const bad[] = {
        "grove-xmss-key 2\nparams XMSS-SHA2_10_192\nstart 0\nend 1024\nhigh-water 2000\ngeneration "
        "0\n",
        "grove-xmss-key 2\nparams NOPE\nstart 0\nend 1024\nhigh-water 0\ngeneration 0\n",
        "grove-xmss-key 2\nparams XMSS-SHA2_10_192\nstart 0\nend 1024\nhigh-water 0\n",
        "grove-xmss-key 2\nparams XMSS-SHA2_10_192\nstart 0\nend 1024\nhigh-water 0\ngeneration "
        "0\nsplit 0 1 2 zz\n",
        "grove-xmss-key 2\nparams XMSS-SHA2_10_192\nstart 0\nend 1024\nhigh-water 0\ngeneration "
        "0\nend 5\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        entry_write(reg, id, bad[i]);
        CHECK_EQ_INT(open_kf(b, reg, GROVE_XMSS_KEYFILE_RECOVER, &kf, err), GROVE_ERR_STATE);
    }
    grove_registry_close(reg);
    grove_xmss_key_free(k);
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/grove-xmss-kf-XXXXXX", t && t[0] ? t : "/tmp");
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(regdir, sizeof regdir, "%s/state", dir);
    scenario();
    legacy_and_conflict();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_done();
}
