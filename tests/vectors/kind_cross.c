/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Kind "cross": CROSS v2.2 known answers (../shared/vectors/cross/, schema in its README).
 * A file is recognised by a "variant" naming a CROSS set together with "entries" and
 * "kat_sha256". For each entry, in both strategies: keygen and sign from the NIST DRBG seeded
 * with "seed" must give pk, sk and sm exactly; open must return the message; a flipped byte in
 * the signature and a truncated sm must be rejected. With --slow the whole upstream .rsp file
 * is regenerated (100 entries) in both strategies and its SHA-256 compared with "kat_sha256".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cross/cross_internal.h"
#include "drbg.h"
#include "hash/sha2.h"
#include "kinds.h"

static const grove_cross_strategy strategies[2] = {GROVE_CROSS_FAST, GROVE_CROSS_SMALL_MEMORY};

/* Keygen + sign for one DRBG seed, as the upstream KAT generator does. */
static int kat_run(const grove_cross_params *p, grove_cross_strategy s, const uint8_t seed[48],
                   const uint8_t *msg, size_t mlen, uint8_t *pk, uint8_t *sk, uint8_t *sm)
{
    kat_drbg d;
    uint8_t skseed[64], rnd[96];
    size_t skl = grove_cross_sk_bytes(p), sl = skl / 2;
    kat_drbg_init(&d, seed, NULL);
    kat_drbg_bytes(&d, skseed, skl);
    int rc = grove_cross_keygen_from_seed(p, pk, sk, skseed);
    if (rc != GROVE_OK)
        return rc;
    kat_drbg_bytes(&d, rnd, sl);      /* root seed */
    kat_drbg_bytes(&d, rnd + sl, skl); /* salt */
    memcpy(sm, msg, mlen);
    return cross_sign_derand(p, s, sm + mlen, msg, mlen, sk, rnd, rnd + sl, NULL, 0);
}

/* ---- the .rsp text, hashed as it is produced ------------------------------------------------ */
static void rsp_line(grove_sha256_ctx *h, const char *s)
{
    grove_sha256_update(h, (const uint8_t *)s, strlen(s));
}

static void rsp_hex(grove_sha256_ctx *h, const char *label, const uint8_t *p, size_t len)
{
    static const char hx[] = "0123456789ABCDEF";
    char buf[256];
    rsp_line(h, label);
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        buf[o++] = hx[p[i] >> 4];
        buf[o++] = hx[p[i] & 15];
        if (o == sizeof buf) {
            grove_sha256_update(h, (const uint8_t *)buf, o);
            o = 0;
        }
    }
    if (len == 0)
        buf[o++] = '0', buf[o++] = '0';
    buf[o++] = '\n';
    grove_sha256_update(h, (const uint8_t *)buf, o);
}

static int full_rsp(const grove_cross_params *p, grove_cross_strategy s, uint8_t out[32])
{
    size_t pkl = grove_cross_pk_bytes(p), skl = grove_cross_sk_bytes(p);
    size_t sb = grove_cross_sig_bytes(p);
    uint8_t entropy[48], seeds[100][48];
    uint8_t *msgs = malloc(33 * 5050), *sm = malloc(33 * 100 + sb), *m1 = malloc(33 * 100 + sb);
    uint8_t pk[256], sk[64];
    kat_drbg d;
    grove_sha256_ctx h;
    int ok = msgs && sm && m1;
    for (int i = 0; i < 48; i++)
        entropy[i] = (uint8_t)i;
    kat_drbg_init(&d, entropy, NULL);
    size_t moff[100];
    size_t off = 0;
    for (int i = 0; ok && i < 100; i++) {
        kat_drbg_bytes(&d, seeds[i], 48);
        moff[i] = off;
        kat_drbg_bytes(&d, msgs + off, 33 * (size_t)(i + 1));
        off += 33 * (size_t)(i + 1);
    }
    grove_sha256_init(&h);
    rsp_line(&h, "# CROSS\n\n");
    for (int i = 0; ok && i < 100; i++) {
        char line[64];
        size_t mlen = 33 * (size_t)(i + 1);
        const uint8_t *msg = msgs + moff[i];
        snprintf(line, sizeof line, "count = %d\n", i);
        rsp_line(&h, line);
        rsp_hex(&h, "seed = ", seeds[i], 48);
        snprintf(line, sizeof line, "mlen = %zu\n", mlen);
        rsp_line(&h, line);
        rsp_hex(&h, "msg = ", msg, mlen);
        if (kat_run(p, s, seeds[i], msg, mlen, pk, sk, sm) != GROVE_OK) {
            ok = 0;
            break;
        }
        rsp_hex(&h, "pk = ", pk, pkl);
        rsp_hex(&h, "sk = ", sk, skl);
        snprintf(line, sizeof line, "smlen = %zu\n", mlen + sb);
        rsp_line(&h, line);
        rsp_hex(&h, "sm = ", sm, mlen + sb);
        rsp_line(&h, "\n");
        size_t ml1 = 0;
        if (grove_cross_open(p, s, m1, mlen + sb, &ml1, sm, mlen + sb, pk) != GROVE_OK ||
            ml1 != mlen || memcmp(m1, msg, mlen) != 0)
            ok = 0;
    }
    grove_sha256_final(&h, out, 32);
    free(msgs);
    free(sm);
    free(m1);
    return ok;
}

int vec_kind_cross(json_t *root, vec_report *r)
{
    const char *variant = vec_str(root, "variant");
    json_t *entries = json_object_get(root, "entries");
    if (variant == NULL || strncmp(variant, "cross-", 6) != 0 || !json_is_array(entries) ||
        vec_str(root, "kat_sha256") == NULL)
        return 0;
    const grove_cross_params *p = grove_cross_params_get(variant);
    if (p == NULL) {
        vec_fail(r, "unknown parameter set %s", variant);
        return 1;
    }
    json_t *aliases = vec_array(root, "aliases"), *al;
    size_t ai;
    json_array_foreach(aliases, ai, al)
    {
        const char *a = json_string_value(al);
        vec_check(r, a != NULL && grove_cross_params_get(a) == p, "%s: alias %s", variant,
                  a ? a : "?");
    }
    json_t *sizes = json_object_get(root, "sizes_bytes");
    int okp, oks, okg;
    long long pkb = vec_int(sizes, "public_key", &okp), skb = vec_int(sizes, "secret_key", &oks),
              sgb = vec_int(sizes, "signature", &okg);
    vec_check(r,
              okp && oks && okg && (size_t)pkb == grove_cross_pk_bytes(p) &&
                  (size_t)skb == grove_cross_sk_bytes(p) && (size_t)sgb == grove_cross_sig_bytes(p),
              "%s: sizes", variant);
    size_t pkl = grove_cross_pk_bytes(p), skl = grove_cross_sk_bytes(p);
    size_t sb = grove_cross_sig_bytes(p);
    size_t i;
    json_t *e;
    json_array_foreach(entries, i, e)
    {
        int okc;
        long long count = vec_int(e, "count", &okc);
        uint8_t seed[48], pk_want[256], sk_want[64];
        size_t mlen = 0, smlen = 0;
        uint8_t *msg = vec_hex(e, "msg", &mlen), *sm_want = vec_hex(e, "sm", &smlen);
        if (!okc || !vec_hex_fixed(e, "seed", seed, 48) || msg == NULL || sm_want == NULL ||
            pkl > sizeof pk_want || !vec_hex_fixed(e, "pk", pk_want, pkl) ||
            !vec_hex_fixed(e, "sk", sk_want, skl) || smlen != mlen + sb) {
            vec_fail(r, "%s entry %zu: malformed", variant, i);
            free(msg);
            free(sm_want);
            continue;
        }
        uint8_t *sm = malloc(smlen), *m1 = malloc(smlen + 1);
        for (int si = 0; si < 2 && sm && m1; si++) {
            grove_cross_strategy s = strategies[si];
            const char *sn = grove_cross_strategy_name(s);
            uint8_t pk[256], sk[64];
            int rc = kat_run(p, s, seed, msg, mlen, pk, sk, sm);
            vec_check(r, rc == GROVE_OK && memcmp(pk, pk_want, pkl) == 0,
                      "%s count %lld %s: pk", variant, count, sn);
            vec_check(r, rc == GROVE_OK && memcmp(sk, sk_want, skl) == 0,
                      "%s count %lld %s: sk", variant, count, sn);
            vec_check(r, rc == GROVE_OK && memcmp(sm, sm_want, smlen) == 0,
                      "%s count %lld %s: sm", variant, count, sn);
            size_t ml1 = 0;
            rc = grove_cross_open(p, s, m1, smlen, &ml1, sm_want, smlen, pk_want);
            vec_check(r, rc == GROVE_OK && ml1 == mlen && memcmp(m1, msg, mlen) == 0,
                      "%s count %lld %s: open", variant, count, sn);
            /* a flipped byte anywhere in the signature part (a few spread positions) */
            int rejected = 1;
            for (size_t k = 0; k < 7; k++) {
                size_t pos = mlen + (k * (sb - 1)) / 6;
                memcpy(sm, sm_want, smlen);
                sm[pos] ^= (uint8_t)(1u << (k & 7));
                if (grove_cross_open(p, s, m1, smlen, &ml1, sm, smlen, pk_want) != GROVE_ERR_VERIFY)
                    rejected = 0;
            }
            vec_check(r, rejected, "%s count %lld %s: flipped signature bytes rejected", variant,
                      count, sn);
            rc = grove_cross_open(p, s, m1, smlen, &ml1, sm_want, sb - 1, pk_want);
            vec_check(r, rc == GROVE_ERR_VERIFY && ml1 == 0,
                      "%s count %lld %s: truncated sm rejected", variant, count, sn);
        }
        free(sm);
        free(m1);
        free(msg);
        free(sm_want);
    }
    if (r->slow) {
        const char *want = vec_str(root, "kat_sha256");
        for (int si = 0; si < 2; si++) {
            uint8_t dg[32];
            int ok = full_rsp(p, strategies[si], dg);
            vec_check(r, ok && want != NULL && strcmp(vec_tohex(dg, 32), want) == 0,
                      "%s %s: full KAT file (100 entries) SHA-256", variant,
                      grove_cross_strategy_name(strategies[si]));
        }
    }
    return 1;
}
