/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * XMSS key files with the state registry (grove_xmss_keyfile_*): create, sign, the registry
 * record, a split of the whole key (distinct ids, no deadlock), a restored pre-split copy and a
 * restored older copy refused and fast-forwarded, an interrupted split completed at the next
 * open, a damaged entry refused, a grove 0.1 entry read and upgraded, a conflicting entry;
 * the key file in the envelope (grove_xmss_keyfile_encode / _decode, both forms kept over
 * reservations and splits, a bare file of an older grove read and upgraded to the binary form,
 * damaged, truncated and altered files refused with nothing reserved, grove_envelope_decode).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grove/envelope.h"
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
    CHECK_EQ_INT(grove_xmss_keyfile_create(a, reg, k, GROVE_ENVELOPE_ARMORED, err, sizeof err),
                 GROVE_OK);
    /* the same key again (a regenerated copy) is refused only once it was used */
    CHECK_EQ_INT(grove_xmss_keyfile_create(a, reg, k, GROVE_ENVELOPE_ARMORED, err, sizeof err),
                 GROVE_ERR_EXISTS);
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
    CHECK_EQ_INT(grove_xmss_keyfile_split(kf, &s, &e, 1024, part, GROVE_ENVELOPE_BINARY, &opts,
                                          err, sizeof err),
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
    CHECK_EQ_INT(grove_xmss_keyfile_split(kf, &s, &e, 100, part2, GROVE_ENVELOPE_ARMORED, &opts,
                                          err, sizeof err),
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
    CHECK_EQ_INT(grove_xmss_keyfile_create(b, NULL, k, GROVE_ENVELOPE_BINARY, err, sizeof err),
                 GROVE_OK);
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

/* The whole file at path (malloc'd; NULL if unreadable). */
static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    uint8_t *b = malloc(1u << 20);
    *len = b ? fread(b, 1, 1u << 20, f) : 0;
    fclose(f);
    return b;
}

static void spill(const char *path, const uint8_t *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f != NULL) {
        CHECK_EQ_INT(fwrite(b, 1, len, f), len);
        fclose(f);
    }
}

/* The form a key file at path has (read_info), -1 if it does not read. */
static int form_of(const char *path)
{
    grove_xmss_state_info info;
    char err[GROVE_XMSS_ERR_CAP];
    return grove_xmss_keyfile_read_info(&info, path, err, sizeof err) == GROVE_OK ? (int)info.form
                                                                                  : -1;
}

/* encode / decode of a state in memory: both forms, the bare state, damage of each kind. */
static void codec(grove_xmss_key *k)
{
    size_t sl = grove_xmss_key_state_bytes(k), len = 0;
    uint8_t *state = malloc(sl), *file = NULL, *buf = NULL;
    CHECK_EQ_INT(grove_xmss_key_export(k, state, sl, &len), GROVE_OK);
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES], kid[GROVE_ENVELOPE_KEY_ID_BYTES];
    CHECK_EQ_INT(grove_xmss_key_public_key(k, pk), GROVE_OK);
    const grove_xmss_params *p = grove_xmss_key_params(k);
    CHECK_EQ_INT(grove_envelope_key_id(kid, "XMSS", grove_xmss_params_name(p), pk,
                                       grove_xmss_pk_bytes(p)),
                 GROVE_OK);
    static const grove_envelope_form forms[] = {GROVE_ENVELOPE_ARMORED, GROVE_ENVELOPE_BINARY};
    for (int f = 0; f < 2; f++) {
        size_t need = 0, fl = 0, got = 0;
        CHECK_EQ_INT(grove_xmss_keyfile_encode(NULL, 0, &need, state, len, forms[f]),
                     GROVE_ERR_BUFFER_TOO_SMALL);
        CHECK(need <= grove_xmss_keyfile_max_bytes(p));
        file = malloc(need);
        buf = malloc(need);
        CHECK_EQ_INT(grove_xmss_keyfile_encode(file, need, &fl, state, len, forms[f]), GROVE_OK);
        CHECK(fl == need && grove_xmss_keyfile_detect(file, fl));
        const uint8_t *st = NULL;
        grove_xmss_state_info info;
        char err[200];
        CHECK_EQ_INT(grove_xmss_keyfile_decode(&st, &got, &info, buf, need, file, fl, err,
                                               sizeof err),
                     GROVE_OK);
        CHECK(got == len && st != NULL && memcmp(st, state, len) == 0 && info.form == forms[f]);
        /* grove_envelope_decode: a normal envelope of the key's set and key id, body = state */
        grove_envelope env;
        CHECK_EQ_INT(grove_envelope_decode(&env, buf, need, file, fl, err, sizeof err), GROVE_OK);
        CHECK(strcmp(env.scheme, "XMSS") == 0 && strcmp(env.type, "SECRET KEY") == 0 &&
              strcmp(env.set, grove_xmss_params_name(p)) == 0 && env.form == forms[f] &&
              env.has_key_id && memcmp(env.key_id, kid, sizeof kid) == 0 &&
              env.body_len == len && memcmp(env.body, state, len) == 0);
        /* truncated: malformed (ENCODING); damaged in place: an integrity failure (STATE) */
        CHECK_EQ_INT(grove_xmss_keyfile_decode(&st, &got, NULL, buf, need, file, fl - 3, err,
                                               sizeof err),
                     GROVE_ERR_ENCODING);
        CHECK(st == NULL && err[0] != '\0');
        memcpy(buf, file, fl);
        buf[forms[f] == GROVE_ENVELOPE_BINARY ? fl / 2 : fl / 2 + (buf[fl / 2] == '\n')] ^= 1;
        int r = grove_xmss_keyfile_decode(&st, &got, NULL, buf, need, buf, fl, err, sizeof err);
        CHECK(r == GROVE_ERR_STATE ||
              (forms[f] == GROVE_ENVELOPE_ARMORED && r == GROVE_ERR_ENCODING));
        CHECK(strstr(err, "integrity") != NULL || r == GROVE_ERR_ENCODING);
        CHECK_EQ_INT(grove_envelope_decode(&env, buf, need, file, fl - 5, err, sizeof err),
                     GROVE_ERR_ENCODING);
        free(file);
        free(buf);
    }
    /* the state itself is a bare key file */
    const uint8_t *st = NULL;
    size_t got = 0;
    grove_xmss_state_info info;
    buf = malloc(len);
    CHECK_EQ_INT(grove_xmss_keyfile_decode(&st, &got, &info, buf, len, state, len, NULL, 0),
                 GROVE_OK);
    CHECK(got == len && info.form == GROVE_ENVELOPE_XMSS_KEY_FILE);
    grove_envelope env;
    CHECK_EQ_INT(grove_envelope_decode(&env, buf, len, state, len, NULL, 0), GROVE_OK);
    CHECK(env.form == GROVE_ENVELOPE_XMSS_KEY_FILE && env.body_len == len &&
          memcmp(env.key_id, kid, sizeof kid) == 0);
    /* another grove file: named */
    grove_envelope pe;
    size_t pl = 0;
    uint8_t pf[512];
    char err[200];
    CHECK_EQ_INT(grove_envelope_init(&pe, "XMSS", grove_xmss_params_name(p), "PUBLIC KEY", pk,
                                     grove_xmss_pk_bytes(p)),
                 GROVE_OK);
    CHECK_EQ_INT(grove_envelope_encode(pf, sizeof pf, &pl, &pe, GROVE_ENVELOPE_ARMORED), GROVE_OK);
    CHECK(!grove_xmss_keyfile_detect(pf, pl));
    CHECK_EQ_INT(grove_xmss_keyfile_decode(&st, &got, NULL, buf, len, pf, pl, err, sizeof err),
                 GROVE_ERR_ENCODING);
    CHECK(strstr(err, "PUBLIC KEY") != NULL);
    CHECK_EQ_INT(
        grove_xmss_keyfile_encode(buf, len, &got, state, len, GROVE_ENVELOPE_XMSS_KEY_FILE),
        GROVE_ERR_INVALID_ARG);
    free(buf);
    grove_wipe(state, sl);
    free(state);
}

/* Key files in each form: kept over reservations and splits; a bare file upgraded; damage. */
static void forms(void)
{
    const grove_xmss_params *p = grove_xmss_params_get("XMSSMT-SHA2_20/4_256");
    grove_registry *reg = NULL;
    CHECK_EQ_INT(grove_registry_open(&reg, regdir), GROVE_OK);
    char fa[320], fb[320], fo[320], part[320], bad[320], err[GROVE_XMSS_ERR_CAP];
    path_of(fa, sizeof fa, "form-a");
    path_of(fb, sizeof fb, "form-b");
    path_of(fo, sizeof fo, "form-old");
    path_of(part, sizeof part, "form-part");
    path_of(bad, sizeof bad, "form-bad");
    grove_xmss_opts opts = {.threads = 2};
    grove_xmss_key *k = NULL;
    CHECK_EQ_INT(grove_xmss_keygen(p, &k, &opts), GROVE_OK);
    codec(k);
    CHECK_EQ_INT(grove_xmss_keyfile_create(fa, reg, k, GROVE_ENVELOPE_ARMORED, err, sizeof err),
                 GROVE_OK);
    CHECK_EQ_INT(grove_xmss_keyfile_create(fb, NULL, k, 7, err, sizeof err),
                 GROVE_ERR_INVALID_ARG);
    grove_xmss_key_free(k);
    CHECK_EQ_INT(grove_xmss_keygen(p, &k, &opts), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_keyfile_create(fb, reg, k, GROVE_ENVELOPE_BINARY, err, sizeof err),
                 GROVE_OK);
    grove_xmss_key_free(k);
    CHECK_EQ_INT(form_of(fa), GROVE_ENVELOPE_ARMORED);
    CHECK_EQ_INT(form_of(fb), GROVE_ENVELOPE_BINARY);
    /* signing and splitting keep each file's form; the part takes the form asked for */
    const char *paths[2] = {fa, fb};
    for (int i = 0; i < 2; i++) {
        grove_xmss_keyfile *kf = NULL;
        uint64_t idx = 9, s = 0, e = 0;
        CHECK_EQ_INT(open_kf(paths[i], reg, 0, &kf, err), GROVE_OK);
        CHECK_EQ_INT(sign_once(kf, &idx), GROVE_OK);
        CHECK_EQ_INT(idx, 0);
        CHECK_EQ_INT(form_of(paths[i]), i == 0 ? GROVE_ENVELOPE_ARMORED : GROVE_ENVELOPE_BINARY);
        unlink(part);
        grove_envelope_form pf = i == 0 ? GROVE_ENVELOPE_BINARY : GROVE_ENVELOPE_ARMORED;
        CHECK_EQ_INT(grove_xmss_keyfile_split(kf, &s, &e, 16, part, pf, &opts, err, sizeof err),
                     GROVE_OK);
        grove_xmss_state_info info;
        CHECK_EQ_INT(grove_xmss_keyfile_info(kf, &info), GROVE_OK);
        CHECK_EQ_INT(info.form, i == 0 ? GROVE_ENVELOPE_ARMORED : GROVE_ENVELOPE_BINARY);
        CHECK_EQ_INT(sign_once(kf, &idx), GROVE_OK);
        CHECK_EQ_INT(idx, 1);
        grove_xmss_keyfile_close(kf);
        CHECK_EQ_INT(form_of(paths[i]), i == 0 ? GROVE_ENVELOPE_ARMORED : GROVE_ENVELOPE_BINARY);
        CHECK_EQ_INT(form_of(part), pf);
        CHECK_EQ_INT(open_kf(part, reg, 0, &kf, err), GROVE_OK);
        CHECK_EQ_INT(sign_once(kf, &idx), GROVE_OK);
        CHECK(idx == s);
        grove_xmss_keyfile_close(kf);
        CHECK_EQ_INT(form_of(part), pf);
    }
    /* a bare file (the state alone, as an older grove wrote it): read, then upgraded to binary */
    CHECK_EQ_INT(grove_xmss_keygen(p, &k, &opts), GROVE_OK);
    size_t sl = grove_xmss_key_state_bytes(k), len = 0;
    uint8_t *state = malloc(sl);
    CHECK_EQ_INT(grove_xmss_key_export(k, state, sl, &len), GROVE_OK);
    spill(fo, state, len);
    CHECK_EQ_INT(form_of(fo), GROVE_ENVELOPE_XMSS_KEY_FILE);
    grove_xmss_keyfile *kf = NULL;
    uint64_t idx = 9;
    CHECK_EQ_INT(open_kf(fo, reg, 0, &kf, err), GROVE_OK);
    CHECK_EQ_INT(form_of(fo), GROVE_ENVELOPE_XMSS_KEY_FILE); /* opening alone writes nothing */
    CHECK_EQ_INT(sign_once(kf, &idx), GROVE_OK);
    CHECK_EQ_INT(idx, 0);
    grove_xmss_keyfile_close(kf);
    CHECK_EQ_INT(form_of(fo), GROVE_ENVELOPE_BINARY);
    CHECK_EQ_INT(open_kf(fo, reg, 0, &kf, err), GROVE_OK);
    CHECK_EQ_INT(sign_once(kf, &idx), GROVE_OK);
    CHECK_EQ_INT(idx, 1);
    grove_xmss_keyfile_close(kf);
    /* the bare copy from before the upgrade is stale */
    path_of(bad, sizeof bad, "form-old-copy");
    spill(bad, state, len);
    CHECK_EQ_INT(open_kf(bad, reg, 0, &kf, err), GROVE_ERR_STATE);
    CHECK(kf == NULL && strstr(err, "recover") != NULL);
    /* damaged and truncated key files: refused, the file and the entry untouched */
    uint8_t id[GROVE_XMSS_KEY_ID_BYTES];
    grove_xmss_key_id(k, id);
    size_t fl = 0;
    uint8_t *orig = slurp(fo, &fl);
    grove_xmss_record before, after;
    CHECK_EQ_INT(grove_xmss_record_read(reg, &before, id), GROVE_OK);
    static const size_t at[] = {0, 5, 30, 100, 5000};
    for (size_t i = 0; i < sizeof at / sizeof *at + 1; i++) {
        size_t n = fl;
        uint8_t *b = malloc(fl);
        memcpy(b, orig, fl);
        if (i < sizeof at / sizeof *at)
            b[at[i]] ^= 0x10;
        else
            n = fl - 100;
        spill(fo, b, n);
        CHECK(open_kf(fo, reg, 0, &kf, err) != GROVE_OK && kf == NULL && err[0] != '\0');
        size_t nl = 0;
        uint8_t *now = slurp(fo, &nl);
        CHECK(nl == n && memcmp(now, b, n) == 0);
        free(now);
        free(b);
    }
    CHECK_EQ_INT(grove_xmss_record_read(reg, &after, id), GROVE_OK);
    CHECK(after.high_water == before.high_water && after.high_water == 2);
    grove_xmss_record_free(&before);
    grove_xmss_record_free(&after);
    spill(fo, orig, fl);
    CHECK_EQ_INT(open_kf(fo, reg, 0, &kf, err), GROVE_OK);
    CHECK_EQ_INT(sign_once(kf, &idx), GROVE_OK);
    CHECK_EQ_INT(idx, 2);
    grove_xmss_keyfile_close(kf);
    free(orig);
    grove_wipe(state, sl);
    free(state);
    grove_xmss_key_free(k);
    grove_registry_close(reg);
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
    forms();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_done();
}
