/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Kind "dgsp": the DGSP interoperability vectors (../shared/vectors/dgsp, profile dgsp-rs-0.1,
 * made by the original crate; ../shared/vectors/dgsp-grove, profile grove). The whole group
 * history of a file is replayed through grove's public API on an in-memory store: joins,
 * certificate batches (same counters, zeta and pi; grove's own certificates check), every
 * signature verified, opened, judged and reproduced byte for byte, tampered and negative cases
 * rejected, and the revocation (list entries and verdicts afterwards).
 */
#include <stdlib.h>
#include <string.h>

#include "dgsp/dgsp_int.h"
#include "grove/dgsp.h"
#include "kinds.h"


typedef struct {
    grove_dgsp_cfg cfg;
    size_t n, cert_bytes, sig_bytes;
    uint8_t pk[64], sk[192];
    grove_dgsp_store *store;
    vec_report *r;
    const char *label;
} dgsp_run;

static const json_t *find_batch_entry(const json_t *root, long long batch, long long idx)
{
    size_t i;
    json_t *b;
    json_array_foreach(vec_array(root, "batches"), i, b)
    {
        int ok;
        if (vec_int(b, "batch", &ok) != batch || !ok)
            continue;
        size_t j;
        json_t *e;
        json_array_foreach(vec_array(b, "entries"), j, e)
        {
            if (vec_int(e, "index", &ok) == idx && ok)
                return e;
        }
    }
    return NULL;
}

static const json_t *find_user(const json_t *root, uint64_t id)
{
    size_t i;
    json_t *u;
    json_array_foreach(vec_array(root, "users"), i, u)
    {
        int ok;
        if (vec_u64(u, "id", &ok) == id && ok)
            return u;
    }
    return NULL;
}

static void check_setup(const json_t *root, dgsp_run *d)
{
    vec_report *r = d->r;
    const json_t *sizes = json_object_get(root, "sizes");
    int ok;
    if (sizes) {
        vec_check(r,
                  (size_t)vec_int(sizes, "n", &ok) == d->n &&
                      (size_t)vec_int(sizes, "signature", &ok) == d->sig_bytes &&
                      (size_t)vec_int(sizes, "cert", &ok) == d->cert_bytes &&
                      (size_t)vec_int(sizes, "manager_sk", &ok) == grove_dgsp_sk_bytes(&d->cfg),
                  "%s sizes", d->label);
    }
    const json_t *m = json_object_get(root, "manager");
    const json_t *f = json_object_get(m, "sk_fields");
    uint8_t hs[32], ak[32], spx[128];
    ok = vec_hex_fixed(m, "pk", d->pk, 2 * d->n) && vec_hex_fixed(m, "sk", d->sk, 6 * d->n);
    if (f)
        ok = ok && vec_hex_fixed(f, "hash_secret", hs, d->n) && vec_hex_fixed(f, "aes_key", ak, d->n) &&
             vec_hex_fixed(f, "spx_sk", spx, 4 * d->n) && memcmp(d->sk, hs, d->n) == 0 &&
             memcmp(d->sk + d->n, ak, d->n) == 0 && memcmp(d->sk + 2 * d->n, spx, 4 * d->n) == 0;
    ok = ok && memcmp(d->sk + 4 * d->n, d->pk, 2 * d->n) == 0;
    vec_check(r, ok, "%s manager key layout", d->label);

    /* Join every user in id order; credentials must match. */
    uint64_t count = 0;
    while (find_user(root, count))
        count++;
    for (uint64_t id = 0; id < count; id++) {
        const json_t *u = find_user(root, id);
        const char *name = vec_str(u, "username");
        uint8_t want[32], got[32];
        uint64_t gid = UINT64_MAX;
        int st = grove_dgsp_join(&d->cfg, d->store, &gid, got, name, d->sk);
        vec_check(r,
                  st == GROVE_OK && gid == id && vec_hex_fixed(u, "cid_star", want, d->n) &&
                      memcmp(got, want, d->n) == 0,
                  "%s join %s -> id %llu, cid*", d->label, name ? name : "?", (unsigned long long)id);
    }
    const json_t *dup = json_object_get(root, "duplicate_join_rejected");
    if (dup) {
        uint64_t gid;
        uint8_t cs[32];
        int st = grove_dgsp_join(&d->cfg, d->store, &gid, cs, vec_str(dup, "username"), d->sk);
        uint64_t after = 0;
        d->store->ops->member_count(d->store->ctx, &after);
        vec_check(r, st == GROVE_ERR_EXISTS && after == count, "%s duplicate join rejected",
                  d->label);
    }
}

static void check_batches(const json_t *root, dgsp_run *d)
{
    vec_report *r = d->r;
    const size_t n = d->n;
    size_t bi;
    json_t *b;
    json_array_foreach(vec_array(root, "batches"), bi, b)
    {
        int ok;
        uint64_t id = vec_u64(b, "user_id", &ok);
        const json_t *u = find_user(root, id);
        uint8_t cid_star[32], seed_u[32];
        json_t *entries = vec_array(b, "entries");
        size_t cnt = json_array_size(entries);
        uint8_t *pks = malloc(cnt * n + 1), *certs = malloc(cnt * d->cert_bytes + 1);
        uint8_t *mine = malloc(cnt * d->cert_bytes + 1);
        int good = u && vec_hex_fixed(u, "cid_star", cid_star, n) &&
                   vec_hex_fixed(u, "seed_user", seed_u, n) && pks && certs && mine;
        size_t ei;
        json_t *e;
        json_array_foreach(entries, ei, e)
        {
            uint8_t seed[32], wpk[32], wrand[32], zeta[16];
            int eok = good && vec_hex_fixed(e, "wots_seed", seed, n) &&
                      vec_hex_fixed(e, "wots_pk", pks + ei * n, n) &&
                      vec_hex_fixed(e, "wots_rand", wrand, n) &&
                      vec_hex_fixed(e, "cert", certs + ei * d->cert_bytes, d->cert_bytes);
            /* CSR from the seeds, in the file's profile */
            eok = eok && dgsp_csr_from_seeds(&d->cfg, seed_u, 1, seed, wpk) == GROVE_OK &&
                  memcmp(wpk, pks + ei * n, n) == 0;
            uint8_t h[32];
            dgsp_hash(&d->cfg, h, seed, n, NULL, 0, NULL, 0);
            eok = eok && memcmp(h, wrand, n) == 0;
            /* zeta of (id, ctr) */
            uint64_t ctr = vec_u64(e, "ctr", &ok);
            eok = eok && ok && dgsp_zetas(&d->cfg, d->sk + n, id, ctr, 1, zeta) == GROVE_OK &&
                  memcmp(zeta, certs + ei * d->cert_bytes, 16) == 0;
            eok = eok && grove_dgsp_check_cert(&d->cfg, certs + ei * d->cert_bytes, pks + ei * n, 1,
                                               id, d->pk) == GROVE_OK;
            /* the same certificate under another id must not check */
            eok = eok && grove_dgsp_check_cert(&d->cfg, certs + ei * d->cert_bytes, pks + ei * n, 1,
                                               id ^ 1, d->pk) == GROVE_ERR_VERIFY;
            vec_check(r, eok, "%s batch %zu entry %zu: CSR, zeta, check_cert", d->label, bi, ei);
        }
        /* grove issues the same batch: counters as the crate's, same zeta and pi, valid certs */
        if (good) {
            grove_dgsp_member before;
            int st = d->store->ops->get_member(d->store->ctx, id, &before);
            st = st == GROVE_OK ? grove_dgsp_gen_cert(&d->cfg, d->store, mine, pks, cnt, id,
                                                      cid_star, d->sk, 2)
                                : st;
            grove_dgsp_member after;
            int gok = st == GROVE_OK &&
                      d->store->ops->get_member(d->store->ctx, id, &after) == GROVE_OK &&
                      before.ctr == vec_u64(b, "ctr_before", &ok) &&
                      after.ctr == vec_u64(b, "ctr_after", &ok) &&
                      grove_dgsp_check_cert(&d->cfg, mine, pks, cnt, id, d->pk) == GROVE_OK;
            for (size_t i = 0; gok && i < cnt; i++)
                gok = memcmp(mine + i * d->cert_bytes, certs + i * d->cert_bytes, 16 + n) == 0;
            vec_check(r, gok, "%s batch %zu: grove gen_cert (counters %llu..%llu, zeta, pi)",
                      d->label, bi, (unsigned long long)before.ctr,
                      (unsigned long long)vec_u64(b, "ctr_after", &ok));
        }
        free(pks);
        free(certs);
        free(mine);
    }
    const json_t *bad = json_object_get(root, "invalid_cert_request");
    if (bad) {
        int ok;
        uint8_t cs[32], wpk[32], cert[GROVE_DGSP_MAX_CERT_BYTES];
        uint64_t id = vec_u64(bad, "user_id", &ok);
        grove_dgsp_member before, after;
        d->store->ops->get_member(d->store->ctx, id, &before);
        int st = vec_hex_fixed(bad, "cid_star", cs, n) && vec_hex_fixed(bad, "wots_pk", wpk, n)
                     ? grove_dgsp_gen_cert(&d->cfg, d->store, cert, wpk, 1, id, cs, d->sk, 1)
                     : GROVE_OK;
        d->store->ops->get_member(d->store->ctx, id, &after);
        vec_check(r, st == GROVE_ERR_DENIED && before.ctr == after.ctr,
                  "%s invalid certificate request refused", d->label);
    }
}

static int verify_hex(dgsp_run *d, const uint8_t *sig, size_t siglen, const json_t *msg_obj,
                      const char *key, grove_dgsp_store *rl)
{
    size_t ml = 0;
    uint8_t *m = vec_hex(msg_obj, key, &ml);
    if (m == NULL)
        return GROVE_ERR_ENCODING;
    int st = grove_dgsp_verify(&d->cfg, sig, siglen, m, ml, d->pk, rl);
    free(m);
    return st;
}

static void check_signatures(const json_t *root, dgsp_run *d, uint8_t **sigs, size_t *nsigs)
{
    vec_report *r = d->r;
    const size_t n = d->n;
    size_t si;
    json_t *s;
    json_t *arr = vec_array(root, "signatures");
    *nsigs = json_array_size(arr);
    json_array_foreach(arr, si, s)
    {
        int ok;
        size_t ml = 0, sl = 0;
        uint8_t *msg = vec_hex(s, "message", &ml), *sig = vec_hex(s, "signature", &sl);
        sigs[si] = sig;
        if (msg == NULL || sig == NULL || sl != d->sig_bytes) {
            vec_fail(r, "%s signature %zu: malformed entry", d->label, si);
            free(msg);
            continue;
        }
        vec_check(r, grove_dgsp_verify(&d->cfg, sig, sl, msg, ml, d->pk, d->store) == GROVE_OK,
                  "%s signature %zu verifies", d->label, si);
        /* the other profile rejects it */
        grove_dgsp_cfg other = d->cfg;
        other.profile = other.profile == GROVE_DGSP_PROFILE_GROVE ? GROVE_DGSP_PROFILE_DGSP_RS_0_1
                                                                  : GROVE_DGSP_PROFILE_GROVE;
        vec_check(r, grove_dgsp_verify(&other, sig, sl, msg, ml, d->pk, NULL) == GROVE_ERR_VERIFY,
                  "%s signature %zu rejected in the other profile", d->label, si);
        /* open */
        const json_t *oe = json_object_get(s, "open_expected");
        uint64_t id = 0;
        char uname[GROVE_DGSP_MAX_USERNAME + 1];
        uint8_t pi[32], want_pi[32];
        int st = grove_dgsp_open(&d->cfg, d->store, &id, uname, pi, sig, sl, msg, ml, d->sk);
        const char *wname = vec_str(oe, "username");
        vec_check(r,
                  st == GROVE_OK && id == vec_u64(oe, "id", &ok) && wname &&
                      strcmp(uname, wname) == 0 && vec_hex_fixed(oe, "pi", want_pi, n) &&
                      memcmp(pi, want_pi, n) == 0,
                  "%s signature %zu opens to (id, username, pi)", d->label, si);
        vec_check(r, grove_dgsp_judge(&d->cfg, sig, sl, msg, ml, id, pi) == GROVE_OK,
                  "%s signature %zu judged", d->label, si);
        size_t ji;
        json_t *jn;
        json_array_foreach(vec_array(s, "judge_negative"), ji, jn)
        {
            uint8_t npi[32];
            int jok = vec_hex_fixed(jn, "pi", npi, n) &&
                      grove_dgsp_judge(&d->cfg, sig, sl, msg, ml, vec_u64(jn, "id", &ok), npi) ==
                          GROVE_ERR_VERIFY;
            vec_check(r, jok, "%s signature %zu judge negative %zu rejected", d->label, si, ji);
        }
        const json_t *wm = json_object_get(s, "wrong_message");
        if (wm)
            vec_check(r, verify_hex(d, sig, sl, wm, "message", NULL) == GROVE_ERR_VERIFY,
                      "%s signature %zu on a wrong message rejected", d->label, si);
        /* reproduce the signature byte for byte */
        const json_t *e =
            find_batch_entry(root, vec_int(s, "batch", &ok), vec_int(s, "cert_index", &ok));
        uint8_t seed_u[32], wseed[32], cert[GROVE_DGSP_MAX_CERT_BYTES];
        uint8_t *mine = malloc(d->sig_bytes);
        uint64_t signer = vec_u64(s, "signer_id", &ok);
        const json_t *u = find_user(root, signer);
        uint8_t cid_star[32];
        int rok = e && u && mine && vec_hex_fixed(s, "seed_user_of_signer", seed_u, n) &&
                  vec_hex_fixed(e, "wots_seed", wseed, n) &&
                  vec_hex_fixed(e, "cert", cert, d->cert_bytes) &&
                  vec_hex_fixed(u, "cid_star", cid_star, n);
        if (rok && d->cfg.profile == GROVE_DGSP_PROFILE_GROVE) {
            /* through the public API: a wallet holding this one certificate */
            grove_dgsp_wallet *w = NULL;
            rok = grove_dgsp_wallet_memory_open(&d->cfg, &w, seed_u, signer,
                                                cid_star) == GROVE_OK &&
                  grove_dgsp_wallet_add(w, wseed, cert) == GROVE_OK &&
                  grove_dgsp_wallet_sign(w, mine, msg, ml) == GROVE_OK &&
                  memcmp(mine, sig, sl) == 0 &&
                  grove_dgsp_wallet_sign(w, mine, msg, ml) == GROVE_ERR_EXHAUSTED;
            grove_dgsp_wallet_close(w);
        } else if (rok) {
            /* the compat profile never signs through the public API */
            grove_dgsp_wallet *w = NULL;
            rok = grove_dgsp_wallet_memory_open(&d->cfg, &w, seed_u, signer,
                                                cid_star) == GROVE_OK &&
                  grove_dgsp_wallet_add(w, wseed, cert) == GROVE_OK &&
                  grove_dgsp_wallet_sign(w, mine, msg, ml) == GROVE_ERR_INSECURE_PROFILE;
            grove_dgsp_wallet_close(w);
            rok = rok &&
                  dgsp_sign_raw(&d->cfg, msg, ml, seed_u, signer, wseed, cert, mine, 1) == GROVE_OK &&
                  memcmp(mine, sig, sl) == 0;
        }
        vec_check(r, rok, "%s signature %zu reproduced byte for byte", d->label, si);
        free(mine);
        free(msg);
    }
    size_t ti;
    json_t *t;
    json_array_foreach(vec_array(root, "tampered_signatures"), ti, t)
    {
        size_t sl = 0;
        uint8_t *sig = vec_hex(t, "signature", &sl);
        int st = sig ? verify_hex(d, sig, sl, t, "message", d->store) : GROVE_OK;
        vec_check(r, st == GROVE_ERR_VERIFY, "%s tampered signature %zu (%s) rejected", d->label,
                  ti, vec_str(t, "tampered_field") ? vec_str(t, "tampered_field") : "?");
        free(sig);
    }
}

struct collect {
    uint8_t *buf;
    size_t n, cap;
};

static grove_status collect_fn(void *arg, const uint8_t *z, size_t count)
{
    struct collect *c = arg;
    if (c->n + count > c->cap)
        return GROVE_ERR_NOMEM;
    memcpy(c->buf + 16 * c->n, z, 16 * count);
    c->n += count;
    return GROVE_OK;
}

static int cmp16(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

static void check_revocation(const json_t *root, dgsp_run *d, uint8_t **sigs, size_t nsigs)
{
    vec_report *r = d->r;
    const json_t *rv = json_object_get(root, "revocation");
    if (rv == NULL)
        return;
    int ok;
    uint64_t id = vec_u64(rv, "revoked_user_id", &ok);
    int st = grove_dgsp_revoke(&d->cfg, d->store, NULL, &id, 1, d->sk);
    json_t *entries = vec_array(rv, "revoked_list_entries");
    size_t want_n = json_array_size(entries);
    struct collect c = {malloc(16 * (want_n + 64)), 0, want_n + 64};
    uint8_t *want = malloc(16 * want_n + 1);
    int lok = st == GROVE_OK && c.buf && want &&
              d->store->ops->list_revoked(d->store->ctx, collect_fn, &c) == GROVE_OK &&
              c.n == want_n && want_n == (size_t)vec_int(rv, "ctr_at_revocation", &ok);
    for (size_t i = 0; lok && i < want_n; i++) {
        const char *h = json_string_value(json_array_get(entries, i));
        json_t *tmp = json_pack("{ss}", "z", h ? h : "");
        lok = vec_hex_fixed(tmp, "z", want + 16 * i, 16);
        json_decref(tmp);
    }
    if (lok) {
        qsort(want, want_n, 16, cmp16);
        lok = memcmp(want, c.buf, 16 * want_n) == 0;
    }
    vec_check(r, lok, "%s revocation list entries of member %llu", d->label,
              (unsigned long long)id);
    free(c.buf);
    free(want);
    size_t vi;
    json_t *v;
    json_array_foreach(vec_array(rv, "verify_after_revocation"), vi, v)
    {
        long long k = vec_int(v, "signature", &ok);
        const json_t *s = json_array_get(vec_array(root, "signatures"), (size_t)k);
        const char *exp = vec_str(v, "expected");
        const char *err = vec_str(v, "crate_error");
        if (!ok || k < 0 || (size_t)k >= nsigs || sigs[k] == NULL || exp == NULL) {
            vec_fail(r, "%s verify_after_revocation %zu: malformed", d->label, vi);
            continue;
        }
        int vst = verify_hex(d, sigs[k], d->sig_bytes, s, "message", d->store);
        int want_st = strcmp(exp, "valid") == 0                 ? GROVE_OK
                      : (err && strcmp(err, "revoked") == 0) ? GROVE_ERR_REVOKED
                                                              : GROVE_ERR_VERIFY;
        vec_check(r, vst == want_st, "%s after revocation, signature %lld is %s", d->label, k, exp);
    }
    uint8_t cs[32], cert[GROVE_DGSP_MAX_CERT_BYTES], wpk[32] = {0};
    const json_t *u = find_user(root, id);
    if (u && vec_hex_fixed(u, "cid_star", cs, d->n))
        vec_check(r,
                  grove_dgsp_gen_cert(&d->cfg, d->store, cert, wpk, 1, id, cs, d->sk, 1) ==
                      GROVE_ERR_REVOKED,
                  "%s gen_cert after revocation refused", d->label);
}

int vec_kind_dgsp(json_t *root, vec_report *r)
{
    const char *scheme = vec_str(root, "scheme"), *prof = vec_str(root, "profile");
    const char *set = vec_str(root, "param_set");
    if (scheme == NULL || strcmp(scheme, "DGSP") != 0)
        return 0;
    dgsp_run d;
    memset(&d, 0, sizeof d);
    d.r = r;
    d.label = set ? set : "?";
    grove_dgsp_profile profile;
    if (grove_dgsp_profile_from_name(&profile, prof) != GROVE_OK ||
        grove_dgsp_params_get(set) == NULL ||
        grove_dgsp_cfg_init(&d.cfg, grove_dgsp_params_get(set), GROVE_DGSP_FLAVOUR_R31, profile) !=
            GROVE_OK) {
        vec_fail(r, "unknown profile or parameter set (%s, %s)", prof ? prof : "none", d.label);
        return 1;
    }
    d.n = d.cfg.n;
    d.cert_bytes = grove_dgsp_cert_bytes(&d.cfg);
    d.sig_bytes = grove_dgsp_sig_bytes(&d.cfg);
    if (grove_dgsp_store_memory_open(&d.store) != GROVE_OK) {
        vec_fail(r, "cannot open a store");
        return 1;
    }
    check_setup(root, &d);
    check_batches(root, &d);
    size_t nsigs = 0;
    uint8_t *sigs[64] = {0};
    if (json_array_size(vec_array(root, "signatures")) > 64) {
        vec_fail(r, "%s: more than 64 signatures in one file", d.label);
    } else {
        check_signatures(root, &d, sigs, &nsigs);
        check_revocation(root, &d, sigs, nsigs);
    }
    for (size_t i = 0; i < nsigs; i++)
        free(sigs[i]);
    grove_dgsp_store_close(d.store);
    return 1;
}
