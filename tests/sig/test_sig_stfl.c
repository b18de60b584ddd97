/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The generic stateful API (grove_sig_stfl_*, grove/sig.h) against the contract: the list of
 * algorithms, a round trip for one XMSS and one XMSS^MT set that grove_xmss_verify agrees with,
 * tampered / wrong-length signatures (GROVE_ERR_VERIFY), public keys of another set
 * (GROVE_ERR_ENCODING), NULL arguments, a short output buffer that uses no index, exhaustion
 * after the last index, and a restored copy of a key file refused (GROVE_ERR_STATE).
 * The crash-injection and CLI-agreement checks are in stfl_crash.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grove/sig.h"
#include "grove/state.h"
#include "grove/xmss.h"
#include "test.h"

static char dir[256], regdir[300];

static void path_of(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}


static void listing(void)
{
    size_t n = grove_sig_stfl_alg_count(), xmss = 0, mt = 0;
    CHECK_EQ_INT(n, grove_xmss_params_count());
    CHECK_EQ_INT(n, 77);
    for (size_t i = 0; i < n; i++) {
        const grove_sig_stfl_alg *a = grove_sig_stfl_alg_at(i);
        const char *name = grove_sig_stfl_alg_name(a);
        CHECK(a != NULL && name != NULL);
        if (a == NULL || name == NULL)
            continue;
        /* the names `grove xmss params` prints, each naming its own algorithm */
        CHECK(strcmp(name, grove_xmss_params_name(grove_xmss_params_at(i))) == 0);
        CHECK(grove_sig_stfl_alg_get(name) == a);
        const grove_xmss_params *p = grove_xmss_params_get(name);
        CHECK_EQ_INT(grove_sig_stfl_pk_bytes(a), grove_xmss_pk_bytes(p));
        CHECK_EQ_INT(grove_sig_stfl_sig_bytes(a), grove_xmss_sig_bytes(p));
        xmss += strncmp(name, "XMSS-", 5) == 0;
        mt += strncmp(name, "XMSSMT-", 7) == 0;
    }
    CHECK_EQ_INT(xmss, 21);
    CHECK_EQ_INT(mt, 56);
    CHECK(grove_sig_stfl_alg_at(n) == NULL);
    CHECK(grove_sig_stfl_alg_get("XMSS-NOPE") == NULL);
    CHECK(grove_sig_stfl_alg_get(NULL) == NULL);
    CHECK(grove_sig_stfl_alg_get("SLH-DSA-SHA2-128f") == NULL); /* stateless: grove_sig_alg_get */
    CHECK(grove_sig_stfl_alg_name(NULL) == NULL);
    CHECK_EQ_INT(grove_sig_stfl_pk_bytes(NULL), 0);
    CHECK_EQ_INT(grove_sig_stfl_sig_bytes(NULL), 0);
}

/* Every way a signature can be wrong is GROVE_ERR_VERIFY; a foreign public key is ENCODING. */
static void bad_signatures(const grove_sig_stfl_alg *a, const uint8_t *sig, size_t sig_len,
                           const uint8_t *msg, size_t msg_len, const uint8_t *pk)
{
    uint8_t *s = malloc(sig_len + 1);
    memcpy(s, sig, sig_len);
    s[sig_len] = 0;
    CHECK_EQ_INT(grove_sig_stfl_verify(a, s, sig_len, msg, msg_len, pk), GROVE_OK);
    CHECK_EQ_INT(grove_sig_stfl_verify(a, s, sig_len - 1, msg, msg_len, pk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_sig_stfl_verify(a, s, sig_len + 1, msg, msg_len, pk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_sig_stfl_verify(a, s, 0, msg, msg_len, pk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_sig_stfl_verify(a, s, sig_len, msg, msg_len - 1, pk), GROVE_ERR_VERIFY);
    for (size_t at = 0; at < sig_len; at += sig_len / 7 + 1) {
        s[at] ^= 0x10;
        CHECK_EQ_INT(grove_sig_stfl_verify(a, s, sig_len, msg, msg_len, pk), GROVE_ERR_VERIFY);
        s[at] ^= 0x10;
    }
    memset(s, 0xff, 4); /* index field past 2^h (or a wrong one) */
    CHECK_EQ_INT(grove_sig_stfl_verify(a, s, sig_len, msg, msg_len, pk), GROVE_ERR_VERIFY);
    free(s);
    /* the public key of another set (another OID, same length) or an unknown OID */
    size_t pk_len = grove_sig_stfl_pk_bytes(a);
    uint8_t *q = malloc(pk_len);
    memcpy(q, pk, pk_len);
    q[3] ^= 3;
    CHECK_EQ_INT(grove_sig_stfl_verify(a, sig, sig_len, msg, msg_len, q), GROVE_ERR_ENCODING);
    memset(q, 0xee, 4);
    CHECK_EQ_INT(grove_sig_stfl_verify(a, sig, sig_len, msg, msg_len, q), GROVE_ERR_ENCODING);
    free(q);
}

/* keygen, two signatures that both APIs verify, bad signatures, a short buffer. */
static void round_trip(const char *name, const char *file)
{
    const grove_sig_stfl_alg *a = grove_sig_stfl_alg_get(name);
    CHECK(a != NULL);
    if (a == NULL)
        return;
    char path[400];
    path_of(path, sizeof path, file);
    grove_registry *reg = NULL;
    CHECK_EQ_INT(grove_registry_open(&reg, regdir), GROVE_OK);
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES];
    CHECK_EQ_INT(grove_sig_stfl_keygen(a, pk, path, reg), GROVE_OK);
    CHECK(grove_sig_stfl_keygen(a, pk, path, reg) != GROVE_OK); /* never overwrites a key */
    char backup[410];
    snprintf(backup, sizeof backup, "%s.backup", path);
    CHECK_EQ_INT(test_copy_file(path, backup), 0);

    grove_sig_stfl_key *k = NULL;
    CHECK_EQ_INT(grove_sig_stfl_key_open(&k, path, reg), GROVE_OK);
    CHECK(grove_sig_stfl_key_alg(k) == a);
    const grove_xmss_params *p = grove_xmss_params_get(name);
    uint64_t total = grove_xmss_total_signatures(p);
    CHECK_EQ_INT(grove_sig_stfl_remaining(k), total);

    size_t need = grove_sig_stfl_sig_bytes(a), sig_len = 0;
    uint8_t *sig = malloc(need), msg[33];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 7 + 1);
    /* a short buffer: told the size, and no index is used */
    CHECK_EQ_INT(grove_sig_stfl_sign(k, sig, need - 1, &sig_len, msg, sizeof msg),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(sig_len, need);
    CHECK_EQ_INT(grove_sig_stfl_remaining(k), total);

    for (uint64_t want = 0; want < 2; want++) {
        msg[0] = (uint8_t)want;
        CHECK_EQ_INT(grove_sig_stfl_sign(k, sig, need, &sig_len, msg, sizeof msg), GROVE_OK);
        CHECK_EQ_INT(sig_len, need);
        CHECK_EQ_INT(grove_sig_stfl_verify(a, sig, sig_len, msg, sizeof msg, pk), GROVE_OK);
        /* the scheme API agrees: same signature, same index */
        CHECK_EQ_INT(grove_xmss_verify(grove_xmss_params_family(p), sig, sig_len, msg, sizeof msg,
                                       pk, grove_xmss_pk_bytes(p)),
                     GROVE_OK);
        uint64_t idx = ~(uint64_t)0;
        CHECK_EQ_INT(grove_xmss_sig_index(p, &idx, sig, sig_len), GROVE_OK);
        CHECK_EQ_INT(idx, want);
        CHECK_EQ_INT(grove_sig_stfl_remaining(k), total - want - 1);
    }
    bad_signatures(a, sig, sig_len, msg, sizeof msg, pk);
    grove_sig_stfl_key_close(k);

    /* the backup taken before those signatures, put back: refused (GROVE_ERR_STATE) */
    char used[420];
    snprintf(used, sizeof used, "%s.used", path);
    CHECK_EQ_INT(test_copy_file(path, used), 0);
    CHECK_EQ_INT(test_copy_file(backup, path), 0);
    CHECK_EQ_INT(grove_sig_stfl_key_open(&k, path, reg), GROVE_ERR_STATE);
    CHECK(k == NULL);
    CHECK_EQ_INT(test_copy_file(used, path), 0);

    /* what the generic API wrote is an ordinary key file, its use recorded */
    grove_xmss_state_info info;
    CHECK_EQ_INT(grove_xmss_keyfile_read_info(&info, path, NULL, 0), GROVE_OK);
    CHECK(info.params == p && info.high_water == 2);
    free(sig);
    grove_registry_close(reg);
}

static void null_args(void)
{
    const grove_sig_stfl_alg *a = grove_sig_stfl_alg_get("XMSS-SHA2_10_256");
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES] = {0}, sig[8] = {0}, msg[1] = {0};
    size_t sig_len = 0;
    char path[400];
    path_of(path, sizeof path, "never");
    grove_sig_stfl_key *k = (grove_sig_stfl_key *)1;
    CHECK_EQ_INT(grove_sig_stfl_keygen(NULL, pk, path, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_stfl_keygen(a, NULL, path, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_stfl_keygen(a, pk, NULL, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_stfl_key_open(NULL, path, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_stfl_key_open(&k, NULL, NULL), GROVE_ERR_INVALID_ARG);
    CHECK(k == NULL);
    CHECK_EQ_INT(grove_sig_stfl_key_open(&k, path, NULL), GROVE_ERR_IO); /* no such file */
    CHECK_EQ_INT(grove_sig_stfl_sign(NULL, sig, sizeof sig, &sig_len, msg, 1),
                 GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_stfl_verify(NULL, sig, sizeof sig, msg, 1, pk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_stfl_verify(a, NULL, 0, msg, 1, pk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_stfl_verify(a, sig, sizeof sig, NULL, 1, pk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_stfl_verify(a, sig, sizeof sig, msg, 1, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_sig_stfl_remaining(NULL), 0);
    CHECK(grove_sig_stfl_key_alg(NULL) == NULL);
    grove_sig_stfl_key_close(NULL);
}

/*
 * A key file with two indices (the last two of a key, split off through grove/xmss.h): two
 * signatures, then GROVE_ERR_EXHAUSTED; and a restored copy of a key file is refused.
 */
static void exhausted_and_restored(void)
{
    const grove_sig_stfl_alg *a = grove_sig_stfl_alg_get("XMSS-SHA2_10_256");
    char path[400], part[400], copy[400];
    path_of(path, sizeof path, "whole");
    path_of(part, sizeof part, "part");
    path_of(copy, sizeof copy, "whole.backup");
    grove_registry *reg = NULL;
    CHECK_EQ_INT(grove_registry_open(&reg, regdir), GROVE_OK);
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES], msg[3] = {'a', 'b', 'c'};
    CHECK_EQ_INT(grove_sig_stfl_keygen(a, pk, path, reg), GROVE_OK);
    CHECK_EQ_INT(test_copy_file(path, copy), 0);

    grove_xmss_keyfile *kf = NULL;
    CHECK_EQ_INT(grove_xmss_keyfile_open(&kf, path, reg, 0, NULL, NULL, 0), GROVE_OK);
    uint64_t s = 0, e = 0;
    CHECK_EQ_INT(
        grove_xmss_keyfile_split(kf, &s, &e, 2, part, GROVE_ENVELOPE_ARMORED, NULL, NULL, 0),
        GROVE_OK);
    CHECK(s == 1022 && e == 1024);
    grove_xmss_keyfile_close(kf);

    grove_sig_stfl_key *k = NULL;
    CHECK_EQ_INT(grove_sig_stfl_key_open(&k, part, reg), GROVE_OK);
    CHECK_EQ_INT(grove_sig_stfl_remaining(k), 2);
    size_t need = grove_sig_stfl_sig_bytes(a), sig_len = 0;
    uint8_t *sig = malloc(need);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_INT(grove_sig_stfl_sign(k, sig, need, &sig_len, msg, sizeof msg), GROVE_OK);
        CHECK_EQ_INT(grove_sig_stfl_verify(a, sig, sig_len, msg, sizeof msg, pk), GROVE_OK);
    }
    CHECK_EQ_INT(grove_sig_stfl_remaining(k), 0);
    CHECK_EQ_INT(grove_sig_stfl_sign(k, sig, need, &sig_len, msg, sizeof msg),
                 GROVE_ERR_EXHAUSTED);
    CHECK_EQ_INT(sig_len, 0);
    grove_sig_stfl_key_close(k);
    /* still exhausted when opened again */
    CHECK_EQ_INT(grove_sig_stfl_key_open(&k, part, reg), GROVE_OK);
    CHECK_EQ_INT(grove_sig_stfl_sign(k, sig, need, &sig_len, msg, sizeof msg),
                 GROVE_ERR_EXHAUSTED);
    grove_sig_stfl_key_close(k);

    /* sign once with the whole key, then put its pre-split, unused backup back */
    CHECK_EQ_INT(grove_sig_stfl_key_open(&k, path, reg), GROVE_OK);
    CHECK_EQ_INT(grove_sig_stfl_sign(k, sig, need, &sig_len, msg, sizeof msg), GROVE_OK);
    grove_sig_stfl_key_close(k);
    CHECK_EQ_INT(test_copy_file(copy, path), 0);
    k = (grove_sig_stfl_key *)1;
    CHECK_EQ_INT(grove_sig_stfl_key_open(&k, path, reg), GROVE_ERR_STATE);
    CHECK(k == NULL);
    free(sig);
    grove_registry_close(reg);
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/grove-sig-stfl-XXXXXX", t && t[0] ? t : "/tmp");
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(regdir, sizeof regdir, "%s/state", dir);
    listing();
    null_args();
    round_trip("XMSS-SHA2_10_256", "xmss.key");
    round_trip("XMSSMT-SHA2_20/4_256", "xmssmt.key");
    round_trip("XMSSMT-SHAKE256_20/4_192", "xmssmt192.key");
    exhausted_and_restored();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_done();
}
