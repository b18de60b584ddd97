/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Kinds "sphincs-kat" (../shared/vectors/sphincs) and "slhdsa" (../shared/vectors/slhdsa).
 *
 * sphincs-kat: files with "variants" (SHA-256 digests of the NIST PQCgenKAT_sign output per
 *   round-3.1 set): the first entry's digest is recomputed for every set; with --slow also the
 *   whole 100-entry .rsp ("full_rsp") and its header-less form ("liboqs_all"). Files with
 *   "entries" (explicit KAT entries): keys and signatures reproduced byte for byte.
 * slhdsa: ACVP keyGen / sigVer (internal), sigGen-from-sigVer (internal, explicit opt_rand) and
 *   the generated external-interface cases (pure / pre-hash, context, deterministic / hedged).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/encoding.h"
#include "drbg.h"
#include "grove/slhdsa.h"
#include "hash/sha2.h"
#include "kinds.h"

/* JSON booleans, or the strings "true"/"True"/"false"/"False". */
static int flex_bool(const json_t *obj, const char *key, int dflt)
{
    json_t *v = json_object_get(obj, key);
    if (json_is_boolean(v))
        return json_is_true(v);
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (strcmp(s, "true") == 0 || strcmp(s, "True") == 0)
            return 1;
        if (strcmp(s, "false") == 0 || strcmp(s, "False") == 0)
            return 0;
    }
    return dflt;
}

/* ---- round-3.1 KATs ------------------------------------------------------------------------ */

typedef struct {
    uint8_t pk[GROVE_SLHDSA_MAX_PK_BYTES], sk[GROVE_SLHDSA_MAX_SK_BYTES];
    uint8_t *sm;
    size_t smlen;
} kat_out;

/* One KAT entry: keypair and crypto_sign from a DRBG seeded with `seed`. */
static int kat_entry(const grove_slhdsa_params *p, const uint8_t seed[48], const uint8_t *msg,
                     size_t mlen, kat_out *o)
{
    kat_drbg d;
    size_t n = grove_slhdsa_n(p), siglen = grove_slhdsa_sig_bytes(p);
    uint8_t keyseed[3 * GROVE_SLHDSA_MAX_N], optrand[GROVE_SLHDSA_MAX_N];
    kat_drbg_init(&d, seed, NULL);
    kat_drbg_bytes(&d, keyseed, 3 * n);
    int r = grove_slhdsa_keygen_from_seed(p, o->pk, o->sk, keyseed, keyseed + n, keyseed + 2 * n);
    if (r != GROVE_OK)
        return r;
    kat_drbg_bytes(&d, optrand, n);
    o->smlen = siglen + mlen;
    o->sm = malloc(o->smlen);
    if (o->sm == NULL)
        return GROVE_ERR_NOMEM;
    r = grove_slhdsa_sign_internal(p, o->sm, msg, mlen, o->sk, optrand);
    memcpy(o->sm + siglen, msg, mlen);
    return r;
}

static void hash_hex_line(grove_sha256_ctx *h, const char *label, const uint8_t *p, size_t len)
{
    static const char hx[] = "0123456789ABCDEF";
    char buf[1024];
    grove_sha256_update(h, (const uint8_t *)label, strlen(label));
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        buf[o++] = hx[p[i] >> 4];
        buf[o++] = hx[p[i] & 15];
        if (o == sizeof buf) {
            grove_sha256_update(h, (const uint8_t *)buf, o);
            o = 0;
        }
    }
    buf[o++] = '\n';
    grove_sha256_update(h, (const uint8_t *)buf, o);
}

/* Append the text of one .rsp entry to the running digests. */
static void hash_entry(grove_sha256_ctx *const hs[], size_t nh, int count, const uint8_t seed[48],
                       const uint8_t *msg, size_t mlen, const kat_out *o,
                       const grove_slhdsa_params *p)
{
    char line[64];
    for (size_t i = 0; i < nh; i++) {
        grove_sha256_ctx *h = hs[i];
        snprintf(line, sizeof line, "count = %d\n", count);
        grove_sha256_update(h, (const uint8_t *)line, strlen(line));
        hash_hex_line(h, "seed = ", seed, 48);
        snprintf(line, sizeof line, "mlen = %zu\n", mlen);
        grove_sha256_update(h, (const uint8_t *)line, strlen(line));
        hash_hex_line(h, "msg = ", msg, mlen);
        hash_hex_line(h, "pk = ", o->pk, grove_slhdsa_pk_bytes(p));
        hash_hex_line(h, "sk = ", o->sk, grove_slhdsa_sk_bytes(p));
        snprintf(line, sizeof line, "smlen = %zu\n", o->smlen);
        grove_sha256_update(h, (const uint8_t *)line, strlen(line));
        hash_hex_line(h, "sm = ", o->sm, o->smlen);
    }
}

static int check_digest(grove_sha256_ctx *h, const char *want_hex)
{
    uint8_t d[32], want[32];
    size_t wl;
    grove_sha256_final(h, d, 32);
    return want_hex != NULL && strlen(want_hex) == 64 &&
           grove_hex_decode(want, 32, &wl, want_hex, 64) == GROVE_OK && memcmp(d, want, 32) == 0;
}

static void run_variant(const char *name, const json_t *v, vec_report *r)
{
    const grove_slhdsa_params *p = grove_slhdsa_params_get(name);
    if (p == NULL || grove_slhdsa_params_is_fips205(p)) {
        vec_fail(r, "%s: unknown round-3.1 parameter set", name);
        return;
    }
    const char *first = vec_str(v, "first_entry"), *full = vec_str(v, "full_rsp"),
               *all = vec_str(v, "liboqs_all");
    int entries = r->slow && (full || all) ? 100 : 1;
    uint8_t entropy[48], seed[48];
    for (int i = 0; i < 48; i++)
        entropy[i] = (uint8_t)i;
    kat_drbg master;
    kat_drbg_init(&master, entropy, NULL);
    grove_sha256_ctx h_first, h_full, h_all;
    grove_sha256_init(&h_first);
    grove_sha256_init(&h_full);
    grove_sha256_init(&h_all);
    grove_sha256_update(&h_full, (const uint8_t *)"# SPHINCS+\n\n", 12);
    int ok = 1;
    for (int i = 0; i < entries && ok; i++) {
        size_t mlen = 33 * (size_t)(i + 1);
        uint8_t *msg = malloc(mlen);
        kat_drbg_bytes(&master, seed, 48);
        kat_drbg_bytes(&master, msg, mlen);
        kat_out o = {0};
        if (kat_entry(p, seed, msg, mlen, &o) != GROVE_OK) {
            ok = 0;
        } else {
            grove_sha256_ctx *hs[3] = {&h_full, &h_all, &h_first};
            hash_entry(hs, i == 0 ? 3 : 2, i, seed, msg, mlen, &o, p);
            grove_sha256_update(&h_full, (const uint8_t *)"\n", 1);
            if (i + 1 < entries)
                grove_sha256_update(&h_all, (const uint8_t *)"\n", 1);
        }
        free(o.sm);
        free(msg);
    }
    if (!ok) {
        vec_fail(r, "%s: signing failed", name);
        return;
    }
    if (first)
        vec_check(r, check_digest(&h_first, first), "%s first_entry digest", name);
    if (entries == 100) {
        if (full)
            vec_check(r, check_digest(&h_full, full), "%s full_rsp digest (100 entries)", name);
        if (all)
            vec_check(r, check_digest(&h_all, all), "%s liboqs_all digest", name);
    }
}

static void run_entries(const json_t *root, vec_report *r)
{
    const char *scheme = vec_str(root, "scheme");
    char name[96];
    const char *s = scheme ? strstr(scheme, "sha") : NULL;
    if (s == NULL) {
        vec_fail(r, "cannot tell the parameter set from \"scheme\"");
        return;
    }
    size_t l = strcspn(s, " ");
    snprintf(name, sizeof name, "sphincs-%.*s", (int)l, s);
    const grove_slhdsa_params *p = grove_slhdsa_params_get(name);
    if (p == NULL) {
        vec_fail(r, "unknown parameter set %s", name);
        return;
    }
    size_t i;
    json_t *e;
    json_array_foreach(vec_array(root, "entries"), i, e)
    {
        uint8_t seed[48];
        size_t mlen = 0, pklen = 0, sklen = 0, siglen = 0;
        uint8_t *msg = vec_hex(e, "msg", &mlen), *pk = vec_hex(e, "pk", &pklen),
                *sk = vec_hex(e, "sk", &sklen), *sig = vec_hex(e, "sig", &siglen);
        kat_out o = {0};
        int ok = vec_hex_fixed(e, "seed", seed, 48) && msg && pk && sk && sig &&
                 kat_entry(p, seed, msg, mlen, &o) == GROVE_OK;
        ok = ok && pklen == grove_slhdsa_pk_bytes(p) && memcmp(pk, o.pk, pklen) == 0;
        ok = ok && sklen == grove_slhdsa_sk_bytes(p) && memcmp(sk, o.sk, sklen) == 0;
        ok = ok && siglen == grove_slhdsa_sig_bytes(p) && memcmp(sig, o.sm, siglen) == 0;
        ok = ok && grove_sphincs_verify(p, sig, siglen, msg, mlen, pk) == GROVE_OK;
        vec_check(r, ok, "%s entry %zu: keys and signature byte-exact, verifies", name, i);
        free(o.sm);
        free(msg);
        free(pk);
        free(sk);
        free(sig);
    }
}

int vec_kind_sphincs_kat(json_t *root, vec_report *r)
{
    json_t *variants = json_object_get(root, "variants");
    if (json_is_object(variants)) {
        const char *key;
        json_t *v;
        json_object_foreach(variants, key, v) run_variant(key, v, r);
        return 1;
    }
    if (json_is_array(json_object_get(root, "entries")) && vec_str(root, "scheme") &&
        strstr(vec_str(root, "scheme"), "SPHINCS+")) {
        run_entries(root, r);
        return 1;
    }
    return 0;
}

/* ---- FIPS 205 ------------------------------------------------------------------------------ */

static const grove_slhdsa_params *fips_set(const json_t *obj, vec_report *r)
{
    const char *name = vec_str(obj, "parameterSet");
    const grove_slhdsa_params *p = grove_slhdsa_params_get(name);
    if (p == NULL || !grove_slhdsa_params_is_fips205(p)) {
        vec_fail(r, "unknown FIPS 205 parameter set %s", name ? name : "(none)");
        return NULL;
    }
    return p;
}

static void acvp_keygen(const json_t *g, const grove_slhdsa_params *p, vec_report *r)
{
    size_t i, n = grove_slhdsa_n(p);
    json_t *t;
    json_array_foreach(vec_array(g, "tests"), i, t)
    {
        uint8_t s1[32], s2[32], s3[32], pk[64], sk[128], wpk[64], wsk[128];
        int ok = vec_hex_fixed(t, "skSeed", s1, n) && vec_hex_fixed(t, "skPrf", s2, n) &&
                 vec_hex_fixed(t, "pkSeed", s3, n) && vec_hex_fixed(t, "pk", wpk, 2 * n) &&
                 vec_hex_fixed(t, "sk", wsk, 4 * n) &&
                 grove_slhdsa_keygen_from_seed(p, pk, sk, s1, s2, s3) == GROVE_OK &&
                 memcmp(pk, wpk, 2 * n) == 0 && memcmp(sk, wsk, 4 * n) == 0;
        int ok2;
        vec_check(r, ok, "keyGen %s tcId %lld", grove_slhdsa_params_name(p), vec_int(t, "tcId", &ok2));
    }
}

static void acvp_sigver(const json_t *g, const grove_slhdsa_params *p, vec_report *r)
{
    size_t i;
    json_t *t;
    json_array_foreach(vec_array(g, "tests"), i, t)
    {
        size_t pkl = 0, ml = 0, sl = 0;
        uint8_t *pk = vec_hex(t, "pk", &pkl), *msg = vec_hex(t, "message", &ml),
                *sig = vec_hex(t, "signature", &sl);
        int want = flex_bool(t, "testPassed", -1), ok2;
        int ok = pk && msg && sig && pkl == grove_slhdsa_pk_bytes(p) && want >= 0;
        if (ok) {
            int st = grove_slhdsa_verify_internal(p, sig, sl, msg, ml, pk);
            ok = want ? st == GROVE_OK : st == GROVE_ERR_VERIFY;
        }
        vec_check(r, ok, "sigVer %s tcId %lld (%s)", grove_slhdsa_params_name(p),
                  vec_int(t, "tcId", &ok2), vec_str(t, "reason") ? vec_str(t, "reason") : "");
        free(pk);
        free(msg);
        free(sig);
    }
}

static void acvp_siggen(const json_t *t, size_t idx, vec_report *r)
{
    const grove_slhdsa_params *p = fips_set(t, r);
    if (p == NULL)
        return;
    size_t skl = 0, ml = 0, sl = 0, n = grove_slhdsa_n(p);
    uint8_t *sk = vec_hex(t, "sk", &skl), *msg = vec_hex(t, "message", &ml),
            *want = vec_hex(t, "signature", &sl);
    uint8_t opt[32];
    uint8_t *sig = malloc(grove_slhdsa_sig_bytes(p));
    int ok = sk && msg && want && sig && skl == 4 * n && sl == grove_slhdsa_sig_bytes(p) &&
             vec_hex_fixed(t, "additionalRandomness", opt, n) &&
             grove_slhdsa_sign_internal(p, sig, msg, ml, sk, opt) == GROVE_OK &&
             memcmp(sig, want, sl) == 0;
    vec_check(r, ok, "sigGen (internal) %s case %zu byte-exact", grove_slhdsa_params_name(p), idx);
    free(sk);
    free(msg);
    free(want);
    free(sig);
}

static void external_cases(const json_t *k, vec_report *r)
{
    const grove_slhdsa_params *p = fips_set(k, r);
    if (p == NULL)
        return;
    size_t n = grove_slhdsa_n(p), siglen = grove_slhdsa_sig_bytes(p);
    uint8_t seed[96], pk[64], sk[128], wpk[64];
    if (!vec_hex_fixed(k, "keySeed_skSeed_skPrf_pkSeed", seed, 3 * n) ||
        grove_slhdsa_keygen_from_seed(p, pk, sk, seed, seed + n, seed + 2 * n) != GROVE_OK ||
        !vec_hex_fixed(k, "pk", wpk, 2 * n) || memcmp(pk, wpk, 2 * n) != 0) {
        vec_fail(r, "%s: key from seed does not match", grove_slhdsa_params_name(p));
        return;
    }
    size_t i;
    json_t *t;
    json_array_foreach(vec_array(k, "tests"), i, t)
    {
        size_t ml = 0, cl = 0, sl = 0;
        uint8_t *msg = vec_hex(t, "message", &ml), *ctx = vec_hex(t, "context", &cl),
                *want = vec_hex(t, "signature", &sl);
        const char *mode = vec_str(t, "preHash");
        grove_slhdsa_prehash ph = (grove_slhdsa_prehash)0;
        int prehash = mode && strcmp(mode, "preHash") == 0;
        if (prehash)
            ph = grove_slhdsa_prehash_get(vec_str(t, "hashAlg"));
        int expect = flex_bool(t, "expect_verify", 1);
        int ok = msg && ctx && want && (!prehash || ph != 0);
        if (ok) {
            int st = prehash ? grove_hashslhdsa_verify(p, want, sl, msg, ml, ctx, cl, ph, pk)
                             : grove_slhdsa_verify(p, want, sl, msg, ml, ctx, cl, pk);
            ok = expect ? st == GROVE_OK : st == GROVE_ERR_VERIFY;
        }
        if (ok && expect) {
            /* Re-sign: deterministic, or hedged with the given additionalRandomness. */
            uint8_t *sig = malloc(siglen);
            uint8_t opt[32];
            int det = flex_bool(t, "deterministic", 1);
            if (!det && !vec_hex_fixed(t, "additionalRandomness", opt, n))
                ok = 0;
            if (ok && sig) {
                int st;
                if (det && !prehash) {
                    st = grove_slhdsa_sign(p, sig, msg, ml, ctx, cl, sk, 0);
                } else if (det) {
                    st = grove_hashslhdsa_sign(p, sig, msg, ml, ctx, cl, ph, sk, 0);
                } else {
                    /* Hedged with explicit randomness: frame by hand (FIPS 205 alg. 22/23). */
                    uint8_t pre[2 + 255 + 11 + 64], dig[64];
                    size_t pl = 0, dl = 0;
                    pre[pl++] = prehash ? 1 : 0;
                    pre[pl++] = (uint8_t)cl;
                    memcpy(pre + pl, ctx, cl);
                    pl += cl;
                    const uint8_t *body = msg;
                    size_t bl = ml;
                    if (prehash) {
                        static const uint8_t oid[10] = {0x06, 0x09, 0x60, 0x86, 0x48,
                                                        0x01, 0x65, 0x03, 0x04, 0x02};
                        memcpy(pre + pl, oid, 10);
                        pl += 10;
                        if (ph == GROVE_PREHASH_SHA2_256) {
                            pre[pl++] = 0x01;
                            grove_sha256(dig, msg, ml);
                            dl = 32;
                        } else {
                            pre[pl++] = 0x03;
                            grove_sha512(dig, msg, ml);
                            dl = 64;
                        }
                        body = dig;
                        bl = dl;
                    }
                    uint8_t *full = malloc(pl + bl + 1);
                    memcpy(full, pre, pl);
                    if (bl)
                        memcpy(full + pl, body, bl);
                    st = grove_slhdsa_sign_internal(p, sig, full, pl + bl, sk, opt);
                    free(full);
                }
                ok = st == GROVE_OK && sl == siglen && memcmp(sig, want, siglen) == 0;
            }
            free(sig);
        }
        int ok2;
        vec_check(r, ok, "external %s id %lld (%s%s%s)", grove_slhdsa_params_name(p),
                  vec_int(t, "id", &ok2), mode ? mode : "?", expect ? "" : ", must fail",
                  vec_str(t, "reason") ? "" : "");
        free(msg);
        free(ctx);
        free(want);
    }
}

int vec_kind_slhdsa(json_t *root, vec_report *r)
{
    const char *mode = vec_str(root, "mode");
    const char *alg = vec_str(root, "algorithm");
    if (alg == NULL || strcmp(alg, "SLH-DSA") != 0)
        return 0;
    size_t i;
    json_t *g;
    json_array_foreach(vec_array(root, "testGroups"), i, g)
    {
        const grove_slhdsa_params *p = fips_set(g, r);
        if (p == NULL)
            continue;
        if (mode && strcmp(mode, "keyGen") == 0)
            acvp_keygen(g, p, r);
        else if (mode && strcmp(mode, "sigVer") == 0)
            acvp_sigver(g, p, r);
        else
            vec_fail(r, "testGroups in unknown mode %s", mode ? mode : "(none)");
    }
    json_array_foreach(vec_array(root, "tests"), i, g) acvp_siggen(g, i, r);
    json_array_foreach(vec_array(root, "keys"), i, g) external_cases(g, r);
    return 1;
}
