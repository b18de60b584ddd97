/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Kind "bls12381": BLS12-381 vectors (../shared/vectors/bls12381/README.md), recognized by
 * content:
 *  - expand_message files {"name": "expand_message_xmd"|"expand_message_xof", "hash", "tests"}:
 *    msg (ASCII), DST, len_in_bytes -> uniform_bytes (RFC 9380 appendix K);
 *  - hash-to-curve suite files {"ciphersuite": "BLS12381G{1,2}_XMD:SHA-256_SSWU_{RO,NU}_",
 *    "dst", "vectors"}: msg (ASCII) -> u, Q0/Q1 (or Q), P (RFC 9380 appendix J);
 *  - Ethereum-style BLS files {"dst", "sign"/"verify"/"aggregate"/"fast_aggregate_verify"/
 *    "aggregate_verify"/"batch_verify"/"deserialization_G1"/"deserialization_G2"/"hash_to_G2"/
 *    "eth_aggregate_pubkeys"/"eth_fast_aggregate_verify"}
 *    (min-pk unless "variant": "min-sig"); case inputs flat or under "input", hex with 0x;
 *  - Mithril min-sig empty-DST files {"keys", "signature", "hash_to_g1_empty_dst",
 *    "verify_cases"} (../shared/vectors/stm/bls_min_sig_empty_dst.json).
 */
#include <stdlib.h>
#include <string.h>

#include "bls12_381/constants.h"
#include "bls12_381/ec.h"
#include "bls12_381/hash_to_curve.h"
#include "common/encoding.h"
#include "grove/bls12_381.h"
#include "hash/keccak.h"
#include "kinds.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/* Decode hex with an optional 0x prefix into a fresh buffer; NULL if not a string or not hex. */
static uint8_t *hex0x(const json_t *v, size_t *len)
{
    const char *s = json_string_value(v);
    if (s != NULL && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    return vec_unhex(s, len);
}

/* Field of a case, looked up in its "input" object when there is one. */
static json_t *field(const json_t *c, const char *key)
{
    json_t *in = json_object_get(c, "input");
    if (json_is_object(in) && json_object_get(in, key) != NULL)
        return json_object_get(in, key);
    return json_object_get(c, key);
}

/* A field element "0x..." (48 bytes after left-padding) compared with x. */
static int fp_matches(const fp *x, const char *hex)
{
    uint8_t want[48] = {0}, got[48];
    if (hex == NULL)
        return 0;
    while (*hex == ' ')
        hex++;
    if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
        hex += 2;
    size_t hl = strlen(hex);
    while (hl > 0 && hex[hl - 1] == ' ')
        hl--;
    if (hl > 96 || hl == 0)
        return 0;
    char buf[97];
    memset(buf, '0', 96);
    memcpy(buf + 96 - hl, hex, hl);
    buf[96] = 0;
    size_t wl;
    if (grove_hex_decode(want, 48, &wl, buf, 96) != GROVE_OK)
        return 0;
    fp_to_bytes(got, x);
    return memcmp(got, want, 48) == 0;
}

/* "c0,c1" */
static int fp2_matches(const fp2 *x, const char *s)
{
    const char *comma = s ? strchr(s, ',') : NULL;
    char c0[200];
    if (comma == NULL || (size_t)(comma - s) >= sizeof c0)
        return 0;
    memcpy(c0, s, (size_t)(comma - s));
    c0[comma - s] = 0;
    return fp_matches(&x->c0, c0) && fp_matches(&x->c1, comma + 1);
}

static int g1_matches(const g1_p *p, const json_t *o)
{
    g1_a a;
    g1_to_affine_vartime(&a, p);
    return fp_matches(&a.x, vec_str(o, "x")) && fp_matches(&a.y, vec_str(o, "y"));
}

static int g2_matches(const g2_p *p, const json_t *o)
{
    g2_a a;
    g2_to_affine_vartime(&a, p);
    return fp2_matches(&a.x, vec_str(o, "x")) && fp2_matches(&a.y, vec_str(o, "y"));
}

/* ---- expand_message ----------------------------------------------------------------------- */

static void expand_xof(uint8_t *out, size_t len, const uint8_t *msg, size_t msg_len,
                       const uint8_t *dst, size_t dst_len, int shake256, size_t k)
{
    static const char oversize[] = "H2C-OVERSIZE-DST-";
    uint8_t dbuf[64], *buf;
    size_t dlen = dst_len, n;
    if (dst_len > 255) {
        size_t hl = (2 * k + 7) / 8;
        buf = malloc(sizeof oversize - 1 + dst_len);
        memcpy(buf, oversize, sizeof oversize - 1);
        memcpy(buf + sizeof oversize - 1, dst, dst_len);
        if (shake256)
            grove_shake256(dbuf, hl, buf, sizeof oversize - 1 + dst_len);
        else
            grove_shake128(dbuf, hl, buf, sizeof oversize - 1 + dst_len);
        free(buf);
        dst = dbuf;
        dlen = hl;
    }
    n = msg_len + 2 + dlen + 1;
    buf = malloc(n);
    memcpy(buf, msg, msg_len);
    buf[msg_len] = (uint8_t)(len >> 8);
    buf[msg_len + 1] = (uint8_t)len;
    memcpy(buf + msg_len + 2, dst, dlen);
    buf[msg_len + 2 + dlen] = (uint8_t)dlen;
    if (shake256)
        grove_shake256(out, len, buf, n);
    else
        grove_shake128(out, len, buf, n);
    free(buf);
}

static void run_expand(json_t *root, vec_report *r)
{
    const char *name = vec_str(root, "name"), *hash = vec_str(root, "hash");
    const char *dst = vec_str(root, "DST");
    int ok;
    long long k = vec_int(root, "k", &ok);
    int xof = strcmp(name, "expand_message_xof") == 0;
    int which = 0;
    if (hash == NULL || dst == NULL) {
        vec_fail(r, "expand_message file without hash or DST");
        return;
    }
    if (!xof && (strcmp(hash, "SHA256") == 0 || strcmp(hash, "sha256") == 0))
        which = BLS_XMD_SHA256;
    else if (!xof && (strcmp(hash, "SHA512") == 0 || strcmp(hash, "sha512") == 0))
        which = BLS_XMD_SHA512;
    else if (xof && (strcmp(hash, "SHAKE128") == 0 || strcmp(hash, "shake128") == 0))
        which = 128;
    else if (xof && (strcmp(hash, "SHAKE256") == 0 || strcmp(hash, "shake256") == 0))
        which = 256;
    else {
        vec_fail(r, "unsupported expander hash %s", hash);
        return;
    }
    if (!ok)
        k = which == 256 ? 256 : 128;
    size_t i;
    json_t *t;
    json_array_foreach(vec_array(root, "tests"), i, t)
    {
        const char *msg = vec_str(t, "msg"), *lstr = vec_str(t, "len_in_bytes");
        size_t wlen = 0;
        uint8_t *want = vec_hex(t, "uniform_bytes", &wlen);
        if (msg == NULL || lstr == NULL || want == NULL) {
            vec_fail(r, "expand case %zu: malformed", i);
            free(want);
            continue;
        }
        size_t len = (size_t)strtoul(lstr, NULL, 0);
        uint8_t *got = malloc(len ? len : 1);
        int done = 1;
        if (xof)
            expand_xof(got, len, (const uint8_t *)msg, strlen(msg), (const uint8_t *)dst,
                       strlen(dst), which == 256, (size_t)k);
        else if (which == BLS_XMD_SHA256)
            done = grove_bls_expand_message_xmd(got, len, (const uint8_t *)msg, strlen(msg),
                                                (const uint8_t *)dst, strlen(dst)) == GROVE_OK;
        else
            done = bls_expand_message_xmd(got, len, (const uint8_t *)msg, strlen(msg),
                                          (const uint8_t *)dst, strlen(dst), which);
        vec_check(r, done && len == wlen && memcmp(got, want, len) == 0,
                  "%s %s case %zu (msg '%.20s', len %zu)", name, hash, i, msg, len);
        free(got);
        free(want);
    }
}

/* ---- hash to curve suites ----------------------------------------------------------------- */

static void run_suite(json_t *root, vec_report *r, int g2, int ro)
{
    const char *dst = vec_str(root, "dst"), *suite = vec_str(root, "ciphersuite");
    size_t i;
    json_t *v;
    if (dst == NULL) {
        vec_fail(r, "%s: no dst", suite);
        return;
    }
    json_array_foreach(vec_array(root, "vectors"), i, v)
    {
        const char *msg = vec_str(v, "msg");
        json_t *uarr = json_object_get(v, "u");
        size_t count = ro ? 2 : 1;
        int ok = msg != NULL && json_is_array(uarr) && json_array_size(uarr) == count;
        if (!ok) {
            vec_fail(r, "%s vector %zu: malformed", suite, i);
            continue;
        }
        const uint8_t *m = (const uint8_t *)msg, *d = (const uint8_t *)dst;
        size_t ml = strlen(msg), dl = strlen(dst);
        if (!g2) {
            fp u[2];
            g1_p q[2], p;
            bls_hash_to_fp(u, count, m, ml, d, dl);
            for (size_t j = 0; j < count; j++) {
                ok &= fp_matches(&u[j], json_string_value(json_array_get(uarr, j)));
                bls_map_to_g1(&q[j], &u[j]);
            }
            if (ro) {
                ok &= g1_matches(&q[0], json_object_get(v, "Q0")) &&
                      g1_matches(&q[1], json_object_get(v, "Q1"));
                bls_hash_to_g1(&p, m, ml, d, dl);
            } else {
                ok &= g1_matches(&q[0], json_object_get(v, "Q"));
                bls_encode_to_g1(&p, m, ml, d, dl);
            }
            ok &= g1_matches(&p, json_object_get(v, "P"));
            /* and through the public API */
            grove_bls_g1 pub;
            uint8_t a[96], b[96];
            if (ro)
                grove_bls_g1_hash(&pub, m, ml, d, dl);
            else
                grove_bls_g1_encode(&pub, m, ml, d, dl);
            g1_serialize(a, &p);
            grove_bls_g1_to_bytes_uncompressed(&pub, b);
            ok &= memcmp(a, b, 96) == 0;
        } else {
            fp2 u[2];
            g2_p q[2], p;
            bls_hash_to_fp2(u, count, m, ml, d, dl);
            for (size_t j = 0; j < count; j++) {
                ok &= fp2_matches(&u[j], json_string_value(json_array_get(uarr, j)));
                bls_map_to_g2(&q[j], &u[j]);
            }
            if (ro) {
                ok &= g2_matches(&q[0], json_object_get(v, "Q0")) &&
                      g2_matches(&q[1], json_object_get(v, "Q1"));
                bls_hash_to_g2(&p, m, ml, d, dl);
            } else {
                ok &= g2_matches(&q[0], json_object_get(v, "Q"));
                bls_encode_to_g2(&p, m, ml, d, dl);
            }
            ok &= g2_matches(&p, json_object_get(v, "P"));
            grove_bls_g2 pub;
            uint8_t a[192], b[192];
            if (ro)
                grove_bls_g2_hash(&pub, m, ml, d, dl);
            else
                grove_bls_g2_encode(&pub, m, ml, d, dl);
            g2_serialize(a, &p);
            grove_bls_g2_to_bytes_uncompressed(&pub, b);
            ok &= memcmp(a, b, 192) == 0;
        }
        vec_check(r, ok, "%s vector %zu (msg '%.24s')", suite, i, msg);
    }
}

/* ---- Ethereum-style BLS ------------------------------------------------------------------- */

/* Concatenate an array of hex strings that must each be `each` bytes; returns count or -1. */
static long hex_array(const json_t *arr, size_t each, uint8_t **out)
{
    size_t i, n = json_array_size(arr);
    json_t *v;
    *out = malloc(n * each + 1);
    if (!json_is_array(arr) || *out == NULL)
        return -1;
    json_array_foreach(arr, i, v)
    {
        size_t l = 0;
        uint8_t *b = hex0x(v, &l);
        if (b == NULL || l != each) {
            free(b);
            return -1;
        }
        memcpy(*out + i * each, b, each);
        free(b);
    }
    return (long)n;
}

static int expect_bool(const json_t *c, int *want)
{
    json_t *o = json_object_get(c, "output");
    if (!json_is_boolean(o))
        return 0;
    *want = json_is_true(o);
    return 1;
}

static void run_eth(json_t *root, vec_report *r)
{
    const char *dsts = vec_str(root, "dst"), *vname = vec_str(root, "variant");
    const uint8_t *dst = (const uint8_t *)(dsts ? dsts : GROVE_BLS_DST_MIN_PK);
    size_t dl = strlen((const char *)dst), i;
    grove_bls_variant var = GROVE_BLS_MIN_PK;
    json_t *c;
    if (vname != NULL && (var = grove_bls_variant_get(vname)) == 0) {
        vec_fail(r, "unknown variant %s", vname);
        return;
    }
    size_t pkl = grove_bls_pk_bytes(var), sgl = grove_bls_sig_bytes(var);

    json_array_foreach(vec_array(root, "sign"), i, c)
    {
        const char *name = vec_str(c, "case");
        size_t kl = 0, ml = 0, ol = 0;
        uint8_t *k = hex0x(field(c, "privkey"), &kl), *m = hex0x(field(c, "message"), &ml);
        json_t *out = json_object_get(c, "output");
        uint8_t *want = json_is_null(out) ? NULL : hex0x(out, &ol), sig[96];
        grove_bls_sk sk;
        int rc = GROVE_ERR_INVALID_ARG;
        if (k != NULL && m != NULL && kl == 32 &&
            (rc = grove_bls_sk_from_bytes(&sk, k)) == GROVE_OK) {
            rc = grove_bls_sign(var, sig, m, ml, &sk, dst, dl);
            grove_bls_sk_wipe(&sk);
        }
        if (json_is_null(out))
            vec_check(r, rc != GROVE_OK, "sign %s: must fail", name);
        else
            vec_check(r, rc == GROVE_OK && want && ol == sgl && memcmp(sig, want, sgl) == 0,
                      "sign %s", name);
        free(k);
        free(m);
        free(want);
    }

    json_array_foreach(vec_array(root, "verify"), i, c)
    {
        const char *name = vec_str(c, "case");
        size_t pl = 0, ml = 0, sl = 0;
        uint8_t *p = hex0x(field(c, "pubkey"), &pl), *m = hex0x(field(c, "message"), &ml),
                *s = hex0x(field(c, "signature"), &sl);
        int want, got = 0;
        if (!expect_bool(c, &want)) {
            vec_fail(r, "verify %s: no boolean output", name);
        } else {
            if (p && m && s)
                got = grove_bls_verify(var, s, sl, m, ml, p, pl, dst, dl) == GROVE_OK;
            vec_check(r, got == want, "verify %s (want %d)", name, want);
        }
        free(p);
        free(m);
        free(s);
    }

    json_array_foreach(vec_array(root, "aggregate"), i, c)
    {
        const char *name = vec_str(c, "case");
        json_t *in = json_object_get(c, "input"), *out = json_object_get(c, "output");
        uint8_t *sigs = NULL, agg[96];
        size_t ol = 0;
        uint8_t *want = json_is_null(out) ? NULL : hex0x(out, &ol);
        long n = hex_array(in, sgl, &sigs);
        int rc =
            n > 0 ? grove_bls_aggregate_sigs(var, agg, sigs, (size_t)n) : GROVE_ERR_INVALID_ARG;
        if (json_is_null(out))
            vec_check(r, rc != GROVE_OK, "aggregate %s: must fail", name);
        else
            vec_check(r, rc == GROVE_OK && want && ol == sgl && memcmp(agg, want, sgl) == 0,
                      "aggregate %s", name);
        free(sigs);
        free(want);
    }

    /* altair: eth_aggregate_pubkeys (KeyValidate each, at least one) */
    json_array_foreach(vec_array(root, "eth_aggregate_pubkeys"), i, c)
    {
        const char *name = vec_str(c, "case");
        json_t *in = json_object_get(c, "input"), *out = json_object_get(c, "output");
        uint8_t *pks = NULL, agg[96];
        size_t ol = 0;
        uint8_t *want = json_is_null(out) ? NULL : hex0x(out, &ol);
        long n = hex_array(in, pkl, &pks);
        int rc = n > 0 ? grove_bls_aggregate_pks(var, agg, pks, (size_t)n) : GROVE_ERR_INVALID_ARG;
        if (json_is_null(out))
            vec_check(r, rc != GROVE_OK, "eth_aggregate_pubkeys %s: must fail", name);
        else
            vec_check(r, rc == GROVE_OK && want && ol == pkl && memcmp(agg, want, pkl) == 0,
                      "eth_aggregate_pubkeys %s", name);
        free(pks);
        free(want);
    }

    /* fast_aggregate_verify; eth_fast_aggregate_verify also accepts (no keys, identity sig) */
    const char *fav[2] = {"fast_aggregate_verify", "eth_fast_aggregate_verify"};
    for (int eth = 0; eth < 2; eth++) {
        json_array_foreach(vec_array(root, fav[eth]), i, c)
        {
            const char *name = vec_str(c, "case");
            uint8_t *pks = NULL;
            size_t ml = 0, sl = 0;
            uint8_t *m = hex0x(field(c, "message"), &ml), *s = hex0x(field(c, "signature"), &sl);
            long n = hex_array(field(c, "pubkeys"), pkl, &pks);
            int want, got = 0;
            if (!expect_bool(c, &want)) {
                vec_fail(r, "%s %s: no boolean output", fav[eth], name);
            } else {
                if (n > 0 && m && s)
                    got = grove_bls_fast_aggregate_verify(var, s, sl, m, ml, pks, (size_t)n, dst,
                                                          dl) == GROVE_OK;
                if (eth && n == 0 && s && sl == sgl && s[0] == 0xc0) {
                    int zero = 1;
                    for (size_t b = 1; b < sl; b++)
                        zero &= s[b] == 0;
                    got = zero;
                }
                vec_check(r, got == want, "%s %s (want %d)", fav[eth], name, want);
            }
            free(pks);
            free(m);
            free(s);
        }
    }

    const char *multi[2] = {"aggregate_verify", "batch_verify"};
    for (int kind = 0; kind < 2; kind++) {
        json_array_foreach(vec_array(root, multi[kind]), i, c)
        {
            const char *name = vec_str(c, "case");
            uint8_t *pks = NULL, *sigs = NULL, *s = NULL;
            json_t *marr = field(c, "messages");
            size_t nm = json_array_size(marr), sl = 0;
            long n = hex_array(field(c, "pubkeys"), pkl, &pks);
            uint8_t **msgs = calloc(nm + 1, sizeof *msgs);
            size_t *lens = calloc(nm + 1, sizeof *lens);
            int want, got = 0, good = json_is_array(marr) && n >= 0 && (size_t)n == nm;
            for (size_t j = 0; good && j < nm; j++)
                good = (msgs[j] = hex0x(json_array_get(marr, j), &lens[j])) != NULL;
            if (kind == 0)
                s = hex0x(field(c, "signature"), &sl);
            else
                good &= hex_array(field(c, "signatures"), sgl, &sigs) == n;
            if (!expect_bool(c, &want)) {
                vec_fail(r, "%s %s: no boolean output", multi[kind], name);
            } else {
                if (good && n > 0 && kind == 0 && s)
                    got = grove_bls_aggregate_verify(var, s, sl, (const uint8_t *const *)msgs, lens,
                                                     pks, (size_t)n, dst, dl) == GROVE_OK;
                if (good && n > 0 && kind == 1)
                    got = grove_bls_batch_verify(var, sigs, (const uint8_t *const *)msgs, lens, pks,
                                                 (size_t)n, dst, dl) == GROVE_OK;
                vec_check(r, got == want, "%s %s (want %d)", multi[kind], name, want);
            }
            for (size_t j = 0; j < nm; j++)
                free(msgs[j]);
            free(msgs);
            free(lens);
            free(pks);
            free(sigs);
            free(s);
        }
    }

    /* deserialization: plain decoding with the subgroup check (the identity is valid) */
    const char *deser[2] = {"deserialization_G1", "deserialization_G2"};
    for (int g = 0; g < 2; g++) {
        json_array_foreach(vec_array(root, deser[g]), i, c)
        {
            const char *name = vec_str(c, "case");
            size_t l = 0;
            json_t *v = field(c, g == 0 ? "pubkey" : "signature");
            if (v == NULL)
                v = field(c, g == 0 ? "signature" : "pubkey");
            uint8_t *b = hex0x(v, &l);
            int want, got = 0;
            if (!expect_bool(c, &want)) {
                vec_fail(r, "%s %s: no boolean output", deser[g], name);
            } else {
                if (b != NULL && g == 0) {
                    grove_bls_g1 p;
                    got = grove_bls_g1_from_bytes(&p, b, l, 0) == GROVE_OK;
                } else if (b != NULL) {
                    grove_bls_g2 p;
                    got = grove_bls_g2_from_bytes(&p, b, l, 0) == GROVE_OK;
                }
                vec_check(r, got == want, "%s %s (want %d)", deser[g], name, want);
            }
            free(b);
        }
    }

    json_array_foreach(vec_array(root, "hash_to_G2"), i, c)
    {
        const char *name = vec_str(c, "case"), *msg = json_string_value(field(c, "msg"));
        const char *hdst = "QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_";
        json_t *out = json_object_get(c, "output");
        g2_p p;
        if (msg == NULL || !json_is_object(out)) {
            vec_fail(r, "hash_to_G2 %s: malformed", name);
            continue;
        }
        if (vec_str(root, "hash_to_G2_dst"))
            hdst = vec_str(root, "hash_to_G2_dst");
        bls_hash_to_g2(&p, (const uint8_t *)msg, strlen(msg), (const uint8_t *)hdst,
                       strlen(hdst));
        vec_check(r, g2_matches(&p, out), "hash_to_G2 %s", name);
    }
}

/* ---- Mithril min-sig, empty DST ----------------------------------------------------------- */

static void run_mithril(json_t *root, vec_report *r)
{
    size_t i;
    json_t *c;
    const uint8_t pop_msg[3] = {'P', 'o', 'P'};
    json_array_foreach(vec_array(root, "keys"), i, c)
    {
        size_t il = 0;
        uint8_t *ikm = vec_hex(c, "ikm", &il), sk_want[32], vk_want[96], pop_want[96];
        uint8_t sk_b[32], vk[96], pop[96];
        grove_bls_sk sk;
        int ok = ikm != NULL && vec_hex_fixed(c, "sk", sk_want, 32) &&
                 vec_hex_fixed(c, "vk", vk_want, 96) && vec_hex_fixed(c, "pop", pop_want, 96);
        if (!ok) {
            vec_fail(r, "key %zu: malformed", i);
            free(ikm);
            continue;
        }
        ok = grove_bls_keygen(&sk, ikm, il, NULL, 0) == GROVE_OK;
        grove_bls_sk_to_bytes(&sk, sk_b);
        vec_check(r, ok && memcmp(sk_b, sk_want, 32) == 0, "key %zu: KeyGen(ikm) = sk", i);
        ok = grove_bls_sk_to_pk(GROVE_BLS_MIN_SIG, vk, &sk) == GROVE_OK;
        vec_check(r, ok && memcmp(vk, vk_want, 96) == 0, "key %zu: vk = sk * G2", i);
        ok = grove_bls_sign(GROVE_BLS_MIN_SIG, pop, pop_msg, 3, &sk, NULL, 0) == GROVE_OK &&
             grove_bls_sk_to_pk(GROVE_BLS_MIN_PK, pop + 48, &sk) == GROVE_OK;
        vec_check(r, ok && memcmp(pop, pop_want, 96) == 0,
                  "key %zu: pop = sign(\"PoP\") || sk * G1", i);
        /* the registration check: vk valid, k1 signs "PoP", e(G1, vk) == e(k2, G2) */
        grove_bls_g2 v, g2[2];
        grove_bls_g1 k1, k2, g1[2];
        ok = grove_bls_g2_from_bytes(&v, vk_want, 96, GROVE_BLS_NO_INFINITY) == GROVE_OK &&
             grove_bls_g1_from_bytes(&k1, pop_want, 48, GROVE_BLS_NO_INFINITY) == GROVE_OK &&
             grove_bls_g1_from_bytes(&k2, pop_want + 48, 48, GROVE_BLS_NO_INFINITY) == GROVE_OK;
        if (ok) {
            ok = grove_bls_verify_g1(&k1, pop_msg, 3, &v, NULL, 0) == GROVE_OK;
            grove_bls_g1_generator(&g1[0]);
            grove_bls_g1_neg(&g1[1], &k2);
            g2[0] = v;
            grove_bls_g2_generator(&g2[1]);
            ok &= grove_bls_pairing_check(g1, g2, 2) == GROVE_OK;
        }
        vec_check(r, ok, "key %zu: proof of possession verifies", i);
        grove_bls_sk_wipe(&sk);
        free(ikm);
    }

    json_t *s = json_object_get(root, "signature");
    if (json_is_object(s) && vec_str(s, "sigma")) {
        uint8_t skb[32], sigma_want[48], sigma[48];
        size_t ml = 0;
        uint8_t *msg = vec_hex(s, "msg", &ml);
        grove_bls_sk sk;
        int ok = msg && vec_hex_fixed(s, "sk", skb, 32) && vec_hex_fixed(s, "sigma", sigma_want, 48) &&
                 grove_bls_sk_from_bytes(&sk, skb) == GROVE_OK;
        if (ok) {
            ok = grove_bls_sign(GROVE_BLS_MIN_SIG, sigma, msg, ml, &sk, NULL, 0) == GROVE_OK &&
                 memcmp(sigma, sigma_want, 48) == 0;
            grove_bls_sk_wipe(&sk);
        }
        vec_check(r, ok, "signature: sign(sk, msg) with the empty DST");
        free(msg);
    }

    json_t *h = json_object_get(root, "hash_to_g1_empty_dst");
    json_t *hv = json_is_object(h) ? json_object_get(h, "vectors") : h;
    json_array_foreach(json_is_array(hv) ? hv : vec_array(root, "-"), i, c)
    {
        size_t ml = 0;
        uint8_t *msg = vec_hex(c, "msg", &ml), comp[48], want[48];
        g1_p p;
        int ok = msg != NULL || vec_str(c, "msg") != NULL;
        if (ok) {
            bls_hash_to_g1(&p, msg, ml, NULL, 0);
            g1_compress(comp, &p);
            ok = g1_matches(&p, c);
            if (vec_str(c, "compressed"))
                ok &= vec_hex_fixed(c, "compressed", want, 48) && memcmp(comp, want, 48) == 0;
        }
        vec_check(r, ok, "hash_to_g1 empty DST vector %zu", i);
        free(msg);
    }

    json_t *vc = json_object_get(root, "verify_cases");
    json_t *va = json_is_object(vc) ? json_object_get(vc, "cases") : vc;
    json_array_foreach(json_is_array(va) ? va : vec_array(root, "-"), i, c)
    {
        size_t vl = 0, ml = 0, sl = 0;
        uint8_t *vk = vec_hex(c, "vk", &vl), *msg = vec_hex(c, "msg", &ml),
                *sig = vec_hex(c, "sigma", &sl);
        json_t *e = json_object_get(c, "expect");
        int got = 0;
        grove_bls_g2 v;
        grove_bls_g1 sg;
        /* Mithril decoding: vk (96, compressed) and sigma (48) validated, infinity refused */
        if (vk && msg && sig && vl == 96 && sl == 48 &&
            grove_bls_g2_from_bytes(&v, vk, 96, GROVE_BLS_NO_INFINITY) == GROVE_OK &&
            grove_bls_g1_from_bytes(&sg, sig, 48, GROVE_BLS_NO_INFINITY) == GROVE_OK)
            got = grove_bls_verify_g1(&sg, msg, ml, &v, NULL, 0) == GROVE_OK;
        if (!json_is_boolean(e))
            vec_fail(r, "verify case %zu: no expect", i);
        else
            vec_check(r, got == json_is_true(e), "verify case %zu (%s)", i,
                      vec_str(c, "why") ? vec_str(c, "why") : "valid");
        free(vk);
        free(msg);
        free(sig);
    }
}

/* ---- dispatch ----------------------------------------------------------------------------- */

int vec_kind_bls12381(json_t *root, vec_report *r)
{
    const char *name = vec_str(root, "name"), *suite = vec_str(root, "ciphersuite");
    if (name && (strcmp(name, "expand_message_xmd") == 0 ||
                 strcmp(name, "expand_message_xof") == 0)) {
        run_expand(root, r);
        return 1;
    }
    if (suite) {
        static const struct {
            const char *name;
            int g2, ro;
        } suites[] = {{"BLS12381G1_XMD:SHA-256_SSWU_RO_", 0, 1},
                      {"BLS12381G1_XMD:SHA-256_SSWU_NU_", 0, 0},
                      {"BLS12381G2_XMD:SHA-256_SSWU_RO_", 1, 1},
                      {"BLS12381G2_XMD:SHA-256_SSWU_NU_", 1, 0}};
        for (size_t i = 0; i < GROVE_ARRAY_LEN(suites); i++)
            if (strcmp(suite, suites[i].name) == 0) {
                run_suite(root, r, suites[i].g2, suites[i].ro);
                return 1;
            }
        return 0;
    }
    if (json_object_get(root, "hash_to_g1_empty_dst") || json_object_get(root, "verify_cases")) {
        run_mithril(root, r);
        return 1;
    }
    static const char *eth[] = {"sign",
                                "verify",
                                "aggregate",
                                "fast_aggregate_verify",
                                "aggregate_verify",
                                "batch_verify",
                                "deserialization_G1",
                                "deserialization_G2",
                                "hash_to_G2",
                                "eth_aggregate_pubkeys",
                                "eth_fast_aggregate_verify"};
    for (size_t i = 0; i < GROVE_ARRAY_LEN(eth); i++)
        if (json_is_array(json_object_get(root, eth[i]))) {
            run_eth(root, r);
            return 1;
        }
    return 0;
}
