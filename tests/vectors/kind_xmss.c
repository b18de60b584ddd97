/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Kind "xmss": XMSS / XMSS^MT known answers (../shared/vectors/xmss, schema xmss-vectors-v1).
 * Per file: the parameter set by name (family, OID and every size checked), the WOTS+ and L-tree
 * intermediates of leaf 0, the key pair from the seeds (SP 800-208 PRF_keygen), every signature
 * reproduced byte for byte at its index through the stateful key object (the key is split to
 * reach an index, which also checks that a split key's cache is right), r and the message hash,
 * every valid signature verified, the key exhausted after the last index, and every negative
 * case rejected.
 */
#include <stdlib.h>
#include <string.h>

#include "grove/xmss.h"
#include "kinds.h"
#include "xmss/xmss_int.h"

static grove_status persist_ok(void *arg, const uint8_t *state, size_t len)
{
    (void)state;
    (void)len;
    (*(long *)arg)++;
    return GROVE_OK;
}

static void check_params(const json_t *root, const grove_xmss_params *p, vec_report *r,
                         const char *name)
{
    const json_t *pp = json_object_get(root, "params");
    int ok = 1, o;
    const char *fam = vec_str(root, "family"), *oid = vec_str(root, "oid");
    ok &= fam != NULL && (strcmp(fam, "XMSSMT") == 0) == (grove_xmss_params_family(p) == 1);
    ok &= oid != NULL && strtoul(oid, NULL, 16) == grove_xmss_params_oid(p);
    ok &= vec_int(pp, "n", &o) == grove_xmss_params_n(p) && o;
    ok &= vec_int(pp, "h", &o) == grove_xmss_params_height(p) && o;
    ok &= vec_int(pp, "d", &o) == grove_xmss_params_layers(p) && o;
    ok &= vec_int(pp, "tree_height", &o) == grove_xmss_params_tree_height(p) && o;
    ok &= vec_int(pp, "len", &o) == grove_xmss_params_wots_len(p) && o;
    ok &= vec_int(pp, "w", &o) == 16 && o;
    ok &= vec_int(pp, "padding_len", &o) == p->pad && o;
    ok &= vec_int(pp, "index_bytes", &o) == (long long)grove_xmss_index_bytes(p) && o;
    ok &= vec_int(pp, "sig_bytes", &o) == (long long)grove_xmss_sig_bytes(p) && o;
    ok &= vec_int(pp, "pk_bytes", &o) == (long long)grove_xmss_pk_bytes(p) && o;
    const char *hash = vec_str(pp, "hash");
    size_t hl = strlen(grove_xmss_params_hash(p)); /* the file may add words after the name */
    ok &= hash != NULL && strncmp(hash, grove_xmss_params_hash(p), hl) == 0 &&
          (hash[hl] == '\0' || hash[hl] == ' ');
    ok &= grove_xmss_params_from_oid(grove_xmss_params_family(p), grove_xmss_params_oid(p)) == p;
    vec_check(r, ok, "%s: parameters (family, OID, hash, sizes)", name);
}

static void check_intermediate(const json_t *root, const grove_xmss_params *p, const uint8_t *seed,
                               vec_report *r, const char *name)
{
    const json_t *im = json_object_get(root, "intermediate");
    if (im == NULL)
        return;
    const unsigned n = p->n, len = p->len;
    xmss_hash x;
    xmss_lanes w;
    xmss_hash_init(&x, p, seed + 2 * n, seed);
    if (xmss_lanes_alloc(&w, &x, len) != GROVE_OK) {
        vec_fail(r, "%s: out of memory", name);
        return;
    }
    uint8_t sk0[XMSS_MAX_N], want[XMSS_MAX_N], leaf[XMSS_MAX_N];
    uint8_t *pk = malloc((size_t)len * n), *wpk = malloc((size_t)len * n);
    xmss_wots_sk0(&x, 0, 0, 0, sk0);
    vec_check(r, vec_hex_fixed(im, "wots_sk_chain0", want, n) && memcmp(sk0, want, n) == 0,
              "%s: PRF_keygen chain start of leaf 0", name);
    if (pk && wpk) {
        xmss_wots_pk(&x, &w, 0, 0, 0, pk);
        vec_check(r, vec_hex_fixed(im, "wots_pk", wpk, (size_t)len * n) &&
                         memcmp(pk, wpk, (size_t)len * n) == 0,
                  "%s: WOTS+ public key of leaf 0", name);
    }
    xmss_leaves(&x, &w, 0, 0, 0, 1, leaf);
    vec_check(r, vec_hex_fixed(im, "leaf0_ltree_output", want, n) && memcmp(leaf, want, n) == 0,
              "%s: L-tree output of leaf 0", name);
    free(pk);
    free(wpk);
    xmss_lanes_free(&w);
    xmss_hash_wipe(&x);
}

int vec_kind_xmss(json_t *root, vec_report *r)
{
    const char *schema = vec_str(root, "schema");
    if (schema == NULL || strcmp(schema, "xmss-vectors-v1") != 0)
        return 0;
    const char *name = vec_str(root, "param_set");
    const grove_xmss_params *p = grove_xmss_params_get(name);
    if (p == NULL) {
        vec_fail(r, "unknown parameter set %s", name ? name : "(none)");
        return 1;
    }
    const unsigned n = p->n;
    const size_t siglen = grove_xmss_sig_bytes(p), pklen = grove_xmss_pk_bytes(p);
    check_params(root, p, r, name);

    const json_t *ks = json_object_get(root, "key_seed");
    uint8_t seed[3 * XMSS_MAX_N], pk[GROVE_XMSS_MAX_PK_BYTES], want_pk[GROVE_XMSS_MAX_PK_BYTES];
    if (!vec_hex_fixed(ks, "sk_seed", seed, n) || !vec_hex_fixed(ks, "sk_prf", seed + n, n) ||
        !vec_hex_fixed(ks, "pub_seed", seed + 2 * n, n)) {
        vec_fail(r, "%s: bad key_seed", name);
        return 1;
    }
    check_intermediate(root, p, seed, r, name);

    grove_xmss_opts opts = {.threads = 2};
    grove_xmss_key *key = NULL;
    long persists = 0;
    int rc = grove_xmss_keygen_from_seed(p, &key, seed, seed + n, seed + 2 * n, &opts);
    if (rc != GROVE_OK) {
        vec_fail(r, "%s: keygen: %s", name, grove_strerror(rc));
        return 1;
    }
    int pk_ok = grove_xmss_key_public_key(key, pk) == GROVE_OK &&
                vec_hex_fixed(root, "pk", want_pk, pklen) && memcmp(pk, want_pk, pklen) == 0;
    vec_check(r, pk_ok, "%s: public key from the seeds", name);
    uint8_t want_root[XMSS_MAX_N];
    vec_check(r, vec_hex_fixed(root, "root", want_root, n) && memcmp(pk + 4, want_root, n) == 0,
              "%s: root", name);
    vec_check(r, grove_xmss_key_set_persist(key, persist_ok, &persists) == GROVE_OK,
              "%s: persistence callback set", name);

    uint8_t *sig = malloc(siglen), *want = malloc(siglen + 1);
    xmss_hash x;
    xmss_hash_init(&x, p, seed + 2 * n, NULL);
    /* in index order: one key object walks forward (a second object of the same key would be
       refused by the in-process registry, as it should) */
    json_t *sigs = vec_array(root, "signatures");
    size_t nsig = json_array_size(sigs), *order = calloc(nsig + 1, sizeof *order);
    for (size_t a = 0; a < nsig; a++)
        order[a] = a;
    for (size_t a = 1; a < nsig; a++)
        for (size_t b = a; b > 0; b--) {
            int o1, o2;
            if (vec_u64(json_array_get(sigs, order[b - 1]), "idx", &o1) <=
                vec_u64(json_array_get(sigs, order[b]), "idx", &o2))
                break;
            size_t t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    size_t i;
    json_t *e;
    for (size_t q = 0; q < nsig; q++) {
        i = order[q];
        e = json_array_get(sigs, i);
        int ok;
        uint64_t idx = vec_u64(e, "idx", &ok);
        size_t mlen = 0, wl = 0;
        uint8_t *msg = vec_hex(e, "msg", &mlen);
        uint8_t *ws = vec_hex(e, "sig", &wl);
        if (!ok || msg == NULL || ws == NULL || wl != siglen || sig == NULL || want == NULL) {
            vec_fail(r, "%s: signature entry %zu malformed", name, i);
            free(msg);
            free(ws);
            continue;
        }
        uint64_t at = grove_xmss_key_index(key), end;
        grove_xmss_key_range(key, NULL, &end);
        if (idx < at || idx >= end) {
            vec_fail(r, "%s: index %llu twice or out of range", name, (unsigned long long)idx);
            free(msg);
            free(ws);
            continue;
        }
        if (idx > at) {
            grove_xmss_key *nk = NULL;
            rc = grove_xmss_key_split(key, &nk, end - idx, &opts);
            if (rc == GROVE_OK) {
                grove_xmss_key_free(key);
                key = nk;
                vec_check(r, grove_xmss_key_set_persist(key, persist_ok, &persists) == GROVE_OK,
                          "%s: persistence callback of a part set", name);
            } else {
                vec_fail(r, "%s: split at %llu: %s", name, (unsigned long long)idx,
                         grove_strerror(rc));
            }
        }
        uint64_t used = ~(uint64_t)0;
        rc = key ? grove_xmss_key_sign(key, sig, &used, msg, mlen) : GROVE_ERR_INTERNAL;
        vec_check(r, rc == GROVE_OK && used == idx && memcmp(sig, ws, siglen) == 0,
                  "%s: signature at index %llu reproduced", name, (unsigned long long)idx);
        uint8_t rr[XMSS_MAX_N], mh[XMSS_MAX_N], wm[XMSS_MAX_N];
        vec_check(r, vec_hex_fixed(e, "r", rr, n) && memcmp(rr, ws + p->idx_bytes, n) == 0,
                  "%s: r at index %llu", name, (unsigned long long)idx);
        xmss_hmsg hm;
        xmss_hmsg_init(&x, &hm, ws + p->idx_bytes, want_root, idx);
        xmss_hmsg_update(&hm, msg, mlen);
        xmss_hmsg_final(&hm, mh);
        vec_check(r, vec_hex_fixed(e, "msg_hash", wm, n) && memcmp(mh, wm, n) == 0,
                  "%s: H_msg at index %llu", name, (unsigned long long)idx);
        rc = grove_xmss_verify(grove_xmss_params_family(p), ws, wl, msg, mlen, want_pk, pklen);
        vec_check(r, rc == GROVE_OK, "%s: valid signature at index %llu verifies (%s)", name,
                  (unsigned long long)idx, grove_strerror(rc));
        if (idx == grove_xmss_total_signatures(p) - 1) {
            rc = grove_xmss_key_sign(key, sig, &used, msg, mlen);
            vec_check(r, rc == GROVE_ERR_EXHAUSTED && grove_xmss_key_remaining(key) == 0,
                      "%s: key exhausted after the last leaf (%s)", name, grove_strerror(rc));
        }
        free(msg);
        free(ws);
    }
    free(order);
    json_array_foreach(vec_array(root, "negative"), i, e)
    {
        size_t mlen = 0, sl = 0, tl = 0;
        uint8_t *msg = vec_hex(e, "msg", &mlen), *s = vec_hex(e, "sig", &sl);
        uint8_t *tpk = vec_hex(e, "pk", &tl);
        const char *desc = vec_str(e, "desc");
        const uint8_t *usepk = tpk ? tpk : want_pk;
        size_t uselen = tpk ? tl : pklen;
        rc = msg && s
                 ? grove_xmss_verify(grove_xmss_params_family(p), s, sl, msg, mlen, usepk, uselen)
                 : GROVE_OK;
        vec_check(r, rc != GROVE_OK && msg && s, "%s: rejected: %s (%s)", name,
                  desc ? desc : "?", grove_strerror(rc));
        free(msg);
        free(s);
        free(tpk);
    }
    vec_check(r, persists > 0, "%s: every signature went through the persistence callback", name);
    xmss_hash_wipe(&x);
    free(sig);
    free(want);
    grove_xmss_key_free(key);
    return 1;
}
