/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * STM JSON (the serde_json shapes of mithril-stm) and the strict JSON reader under it:
 * the vectors' JSON parses, re-encodes byte-identically (after removing whitespace) and agrees
 * with the binary encodings; hostile JSON is refused with GROVE_ERR_ENCODING.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "grove/stm.h"
#include "test.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static char *read_text(const char *dir, const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b == NULL || fread(b, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(b);
        return NULL;
    }
    fclose(f);
    b[n] = '\0';
    *len = (size_t)n;
    return b;
}

/* Compact text of a JSON text (NULL if it does not parse). */
static char *canon(const char *s)
{
    grove_json_doc *d;
    if (grove_json_parse(&d, s, strlen(s)) != GROVE_OK)
        return NULL;
    char *c = grove_json_compact(d, grove_json_root(d));
    grove_json_free(d);
    return c;
}

/* Compact text of the node at a path of object keys in a parsed file. */
static char *sub(const grove_json_doc *d, const char *k1, const char *k2)
{
    const grove_json_node *n = grove_json_get(d, grove_json_root(d), k1);
    if (n != NULL && k2 != NULL)
        n = grove_json_get(d, n, k2);
    return n ? grove_json_compact(d, n) : NULL;
}

static const char *str_at(const grove_json_doc *d, const char *k1, const char *k2)
{
    static char buf[1 << 16];
    const grove_json_node *n = grove_json_get(d, grove_json_root(d), k1);
    if (n != NULL && k2 != NULL)
        n = grove_json_get(d, n, k2);
    size_t l;
    const char *s = n ? grove_json_str(d, n, &l) : NULL;
    if (s == NULL || l >= sizeof buf)
        return "";
    memcpy(buf, s, l);
    buf[l] = '\0';
    return buf;
}

static uint64_t u64_at(const grove_json_doc *d, const char *k1, const char *k2)
{
    const grove_json_node *n = grove_json_get(d, grove_json_root(d), k1);
    if (n != NULL && k2 != NULL)
        n = grove_json_get(d, n, k2);
    uint64_t v = 0;
    CHECK(grove_json_u64(n, &v) == 0);
    return v;
}

/* s with the first occurrence of from replaced by to (malloc'd); the test fails if absent. */
static char *replace(const char *s, const char *from, const char *to)
{
    const char *p = strstr(s, from);
    CHECK(p != NULL);
    if (p == NULL)
        return strdup(s);
    size_t a = (size_t)(p - s), fl = strlen(from), tl = strlen(to), sl = strlen(s);
    char *o = malloc(sl - fl + tl + 1);
    memcpy(o, s, a);
    memcpy(o + a, to, tl);
    memcpy(o + a + tl, p + fl, sl - a - fl + 1);
    return o;
}

static int parses(const char *s)
{
    grove_json_doc *d;
    int rc = grove_json_parse(&d, s, strlen(s));
    grove_json_free(d);
    return rc;
}

/* ---- the generic reader ------------------------------------------------------------------- */

static void test_reader(void)
{
    static const char *good[] = {
        "0", " [ ] ", "{}", "\"\"", "null", "true", "false", "-0", "1.5e-3", "-12E+2",
        "{\"a\":[1,{\"b\":null}],\"c\":\"x\\u00e9\\ud83d\\ude00\\n\\/\"}",
        "18446744073709551615", "\t\r\n[1]\n", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"",
    };
    static const char *bad[] = {
        "", " ", "[", "]", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "01", "-",
        "1.", ".5", "1e", "+1", "NaN", "Infinity", "[1] x", "[1][2]", "\"abc", "\"\\x\"",
        "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\x01\"",
        "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "\"\xff\"", "\"\xe2\x82\"", "tru", "nul",
        "{\"a\":1,\"a\":2}", "{\"a\":1,\"\\u0061\":2}", "[1 2]", "/*c*/1", "'a'",
        ("{\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,"
         "\"k9\":9,\"k3\":10}"),
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        int rc = parses(good[i]);
        if (rc != GROVE_OK)
            fprintf(stderr, "should parse: %s\n", good[i]);
        CHECK_EQ_INT(rc, GROVE_OK);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = parses(bad[i]);
        if (rc != GROVE_ERR_ENCODING)
            fprintf(stderr, "should be refused: %s\n", bad[i]);
        CHECK_EQ_INT(rc, GROVE_ERR_ENCODING);
    }
    /* NUL inside the given length is not whitespace */
    grove_json_doc *d;
    CHECK_EQ_INT(grove_json_parse(&d, "1\0", 2), GROVE_ERR_ENCODING);
    CHECK(d == NULL);

    /* depth: 16 nested arrays pass, 17 are refused; same for objects */
    char deep[128];
    for (int depth = 15; depth <= 18; depth++) {
        size_t o = 0;
        for (int i = 0; i < depth; i++)
            deep[o++] = '[';
        for (int i = 0; i < depth; i++)
            deep[o++] = ']';
        deep[o] = '\0';
        CHECK_EQ_INT(parses(deep), depth <= GROVE_JSON_MAX_DEPTH ? GROVE_OK : GROVE_ERR_ENCODING);
    }
    char odeep[256] = "";
    for (int i = 0; i < 17; i++)
        strcat(odeep, "{\"a\":");
    strcat(odeep, "1");
    for (int i = 0; i < 17; i++)
        strcat(odeep, "}");
    CHECK_EQ_INT(parses(odeep), GROVE_ERR_ENCODING);
    /* a very deep text (would overflow a recursive reader without the bound) */
    size_t big = 1u << 20;
    char *b = malloc(big + 1);
    memset(b, '[', big);
    b[big] = '\0';
    CHECK_EQ_INT(parses(b), GROVE_ERR_ENCODING);
    free(b);
    CHECK_EQ_INT(grove_json_parse(&d, "1", GROVE_JSON_MAX_INPUT + 1), GROVE_ERR_ENCODING);

    /* integers: u64 range, fraction/exponent/sign are not integers */
    const char *txt = "[18446744073709551615,18446744073709551616,-1,1.0,1e2,0,"
                      "99999999999999999999999]";
    CHECK_EQ_INT(grove_json_parse(&d, txt, strlen(txt)), GROVE_OK);
    const grove_json_node *n = grove_json_first(d, grove_json_root(d));
    uint64_t v;
    CHECK(grove_json_u64(n, &v) == 0 && v == UINT64_MAX);
    int expect_u64[] = {0, 0, 0, 0, 1, 0};
    for (int i = 0; i < 6; i++) {
        n = grove_json_next(d, n);
        CHECK_EQ_INT(grove_json_u64(n, &v) == 0, expect_u64[i]);
    }
    double x;
    n = grove_json_next(d, grove_json_next(d, grove_json_next(d, grove_json_first(d, grove_json_root(d)))));
    CHECK(grove_json_double(d, n, &x) == 0 && x == 1.0);
    grove_json_free(d);

    /* keys are unescaped; compact output drops whitespace and keeps order */
    txt = " { \"b\" : 1 , \"\\u0061\" : [ true , null ] } ";
    CHECK_EQ_INT(grove_json_parse(&d, txt, strlen(txt)), GROVE_OK);
    CHECK(grove_json_get(d, grove_json_root(d), "a") != NULL);
    char *c = grove_json_compact(d, grove_json_root(d));
    CHECK(c != NULL && strcmp(c, "{\"b\":1,\"a\":[true,null]}") == 0);
    free(c);
    grove_json_free(d);
    CHECK_EQ_INT(grove_json_parse(&d, "1e999", 5), GROVE_OK);
    CHECK(grove_json_double(d, grove_json_root(d), &x) == GROVE_ERR_ENCODING); /* not finite */
    grove_json_free(d);
}

static void test_format_double(void)
{
    static const struct {
        double x;
        const char *s;
    } t[] = {
        {0.2, "0.2"},     {0.8, "0.8"},         {0.65, "0.65"},       {0.95, "0.95"},
        {1.0, "1.0"},     {0.5, "0.5"},         {0.0, "0.0"},         {123.0, "123.0"},
        {1e-5, "0.00001"}, {1.5e-5, "0.000015"}, {1e-6, "1e-6"},      {1.25e-7, "1.25e-7"},
        {1e16, "1e16"},   {1e15, "1000000000000000.0"}, {0.1 + 0.2, "0.30000000000000004"},
        {-0.5, "-0.5"},   {5e-324, "5e-324"},   {1.7976931348623157e308, "1.7976931348623157e308"},
        {12.5, "12.5"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char out[32];
        size_t l = grove_json_format_double(out, t[i].x);
        if (strcmp(out, t[i].s) != 0)
            fprintf(stderr, "format %.17g: got %s want %s\n", t[i].x, out, t[i].s);
        CHECK(l == strlen(t[i].s) && strcmp(out, t[i].s) == 0);
    }
    /* every short decimal in (0, 1] round-trips through the text */
    for (int i = 1; i <= 1000; i++) {
        double x = i / 1000.0, y;
        char out[32];
        grove_json_format_double(out, x);
        grove_json_doc *d;
        CHECK_EQ_INT(grove_json_parse(&d, out, strlen(out)), GROVE_OK);
        CHECK(grove_json_double(d, grove_json_root(d), &y) == 0 && y == x);
        grove_json_free(d);
    }
}

/* ---- parameters --------------------------------------------------------------------------- */

static void test_params(const char *dir)
{
    size_t len;
    char *file = read_text(dir, "parameters.json", &len);
    CHECK(file != NULL);
    if (file == NULL)
        return;
    grove_json_doc *d;
    CHECK_EQ_INT(grove_json_parse(&d, file, len), GROVE_OK);
    char *want = sub(d, "value", NULL);
    grove_stm_params p;
    CHECK_EQ_INT(grove_stm_params_from_json(&p, want, strlen(want)), GROVE_OK);
    CHECK(p.m == 20973 && p.k == 2422 && p.phi_f == 0.2);
    char *got = NULL;
    CHECK_EQ_INT(grove_stm_params_to_json(&p, &got), GROVE_OK);
    CHECK(got != NULL && strcmp(got, want) == 0);
    CHECK(strcmp(got, "{\"m\":20973,\"k\":2422,\"phi_f\":0.2}") == 0);
    /* the binary encoding of the same value */
    uint8_t bin[GROVE_STM_PARAMS_BYTES], wbin[GROVE_STM_PARAMS_BYTES];
    CHECK(test_unhex_into(wbin, sizeof wbin, str_at(d, "legacy_bytes", NULL)));
    grove_stm_params_to_bytes(&p, bin);
    CHECK_MEM(bin, wbin, sizeof bin);
    free(got);
    free(want);
    grove_json_free(d);
    free(file);

    /* whitespace, other key order, integer phi_f, exponents */
    const char *ws = " { \"phi_f\" : 1 , \"k\":1, \"m\" : 2 }\n";
    CHECK_EQ_INT(grove_stm_params_from_json(&p, ws, strlen(ws)), GROVE_OK);
    CHECK(p.m == 2 && p.k == 1 && p.phi_f == 1.0);
    CHECK_EQ_INT(grove_stm_params_to_json(&p, &got), GROVE_OK);
    CHECK(strcmp(got, "{\"m\":2,\"k\":1,\"phi_f\":1.0}") == 0);
    free(got);
    const char *e = "{\"m\":10,\"k\":5,\"phi_f\":2e-1}";
    CHECK_EQ_INT(grove_stm_params_from_json(&p, e, strlen(e)), GROVE_OK);
    CHECK(p.phi_f == 0.2);

    static const char *bad[] = {
        "{\"m\":10,\"k\":5}", "{\"m\":10,\"k\":5,\"phi_f\":0.2,\"x\":1}",
        "{\"m\":10,\"k\":5,\"phi_f\":\"0.2\"}", "{\"m\":-10,\"k\":5,\"phi_f\":0.2}",
        "{\"m\":10.0,\"k\":5,\"phi_f\":0.2}", "{\"m\":18446744073709551616,\"k\":5,\"phi_f\":0.2}",
        "{\"m\":10,\"k\":5,\"phi_f\":0.2,\"m\":10}", "[10,5,0.2]", "{\"m\":10,\"k\":5,\"phi_f\":null}",
        "{\"m\":10,\"k\":5,\"phi_f\":1e400}", "{\"m\":10,\"k\":5,\"phi_f\":0.2}x",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ_INT(grove_stm_params_from_json(&p, bad[i], strlen(bad[i])), GROVE_ERR_ENCODING);
    static const char *range[] = {
        "{\"m\":10,\"k\":5,\"phi_f\":0.96}", "{\"m\":10,\"k\":5,\"phi_f\":0}",
        "{\"m\":10,\"k\":11,\"phi_f\":0.2}", "{\"m\":0,\"k\":0,\"phi_f\":0.2}",
        "{\"m\":10,\"k\":5,\"phi_f\":-0.2}",
    };
    for (size_t i = 0; i < sizeof range / sizeof range[0]; i++)
        CHECK_EQ_INT(grove_stm_params_from_json(&p, range[i], strlen(range[i])),
                     GROVE_ERR_INVALID_ARG);
}

/* ---- single signature --------------------------------------------------------------------- */

static void test_sig(const char *dir)
{
    size_t len;
    char *file = read_text(dir, "single_signature_2party.json", &len);
    CHECK(file != NULL);
    if (file == NULL)
        return;
    grove_json_doc *d;
    CHECK_EQ_INT(grove_json_parse(&d, file, len), GROVE_OK);
    char *want = sub(d, "json", NULL);
    CHECK(want != NULL);
    grove_stm_sig sig;
    CHECK_EQ_INT(grove_stm_sig_from_json(&sig, want, strlen(want)), GROVE_OK);
    uint8_t sigma[48];
    CHECK(test_unhex_into(sigma, 48, str_at(d, "signature", "sigma")));
    CHECK_MEM(sig.sigma, sigma, 48);
    CHECK(sig.n_indexes == 4 && sig.indexes[0] == 1 && sig.indexes[1] == 4 &&
          sig.indexes[2] == 5 && sig.indexes[3] == 8);
    CHECK(sig.signer_index == u64_at(d, "signature", "signer_index"));
    char *got = NULL;
    CHECK_EQ_INT(grove_stm_sig_to_json(&sig, &got), GROVE_OK);
    CHECK(got != NULL && strcmp(got, want) == 0);
    free(got);

    /* JSON and binary describe the same object */
    size_t blen;
    uint8_t *legacy = test_unhex(str_at(d, "legacy_bytes", NULL), &blen);
    CHECK_EQ_INT(grove_stm_sig_encoded_bytes(&sig), blen);
    uint8_t *bin = malloc(blen);
    CHECK_EQ_INT(grove_stm_sig_to_bytes(&sig, bin, blen, &blen), GROVE_OK);
    CHECK_MEM(bin, legacy, blen);
    grove_stm_sig s2;
    CHECK_EQ_INT(grove_stm_sig_from_bytes(&s2, legacy, blen), GROVE_OK);
    CHECK_EQ_INT(grove_stm_sig_to_json(&s2, &got), GROVE_OK);
    CHECK(got != NULL && strcmp(got, want) == 0);
    free(got);
    grove_stm_sig_clear(&s2);
    free(bin);
    free(legacy);
    grove_stm_sig_clear(&sig);

    /* whitespace is allowed and changes nothing */
    char *spaced = replace(want, ",\"indexes\"", " ,\n \"indexes\" ");
    CHECK_EQ_INT(grove_stm_sig_from_json(&sig, spaced, strlen(spaced)), GROVE_OK);
    grove_stm_sig_clear(&sig);
    free(spaced);

    /* hostile variants */
    struct {
        const char *from, *to;
    } bad[] = {
        {"[149,157,", "[149,157,3,"},                 /* 49 sigma bytes                */
        {"[149,157,", "["},                           /* 47                            */
        {"[149,157,", "[149,256,"},                   /* byte > 255                    */
        {"[149,157,", "[149,-1,"},                    /* negative                      */
        {"[149,157,", "[149,157.0,"},                 /* not an integer                */
        {"[149,157,", "[149,\"157\","},               /* string                        */
        {"[149,157,", "[21,157,"},                    /* compression flag cleared      */
        {"[149,157,", "[159,255,"},                   /* x >= p                        */
        {"\"indexes\":[1,", "\"indexes\":[18446744073709551616,"},
        {"\"indexes\":[1,", "\"indexes\":[-1,"},
        {"\"indexes\":[1,", "\"indexes\":{\"a\":1,"},
        {"\"signer_index\":", "\"signer_index\":-"},
        {"\"signer_index\":", "\"x\":0,\"signer_index\":"},
        {"\"signer_index\":", "\"sigma\":[],\"signer_index\":"},
        {",\"signer_index\":1", ""},
        {"\"sigma\"", "\"Sigma\""},
        {"}", "}}"},
        {"}", "},"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *t = replace(want, bad[i].from, bad[i].to);
        int rc = grove_stm_sig_from_json(&sig, t, strlen(t));
        if (rc != GROVE_ERR_ENCODING)
            fprintf(stderr, "sig variant %zu accepted (%d)\n", i, rc);
        CHECK_EQ_INT(rc, GROVE_ERR_ENCODING);
        CHECK(sig.indexes == NULL && sig.n_indexes == 0);
        free(t);
    }
    /* the identity: 0xc0 then zeros */
    char ident[400] = "{\"sigma\":[192";
    for (int i = 1; i < 48; i++)
        strcat(ident, ",0");
    strcat(ident, "],\"indexes\":[1],\"signer_index\":0}");
    CHECK_EQ_INT(grove_stm_sig_from_json(&sig, ident, strlen(ident)), GROVE_ERR_ENCODING);
    free(want);
    grove_json_free(d);
    free(file);
}

/* ---- aggregate verification key ------------------------------------------------------------ */

static void test_avk(const char *dir)
{
    size_t len;
    char *file = read_text(dir, "aggregate_2party.json", &len);
    CHECK(file != NULL);
    if (file == NULL)
        return;
    grove_json_doc *d;
    CHECK_EQ_INT(grove_json_parse(&d, file, len), GROVE_OK);
    grove_stm_avk avk, a2;
    CHECK(test_unhex_into(avk.root, 32, str_at(d, "avk", "root")));
    avk.nr_leaves = u64_at(d, "avk", "nr_leaves");
    avk.total_stake = u64_at(d, "avk", "total_stake");
    char *got = NULL;
    CHECK_EQ_INT(grove_stm_avk_to_json(&avk, &got), GROVE_OK);
    /* the serde shape, written out by hand from the root bytes */
    char want[512] = "{\"mt_commitment\":{\"root\":[";
    for (int i = 0; i < 32; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%u", i ? "," : "",
                 avk.root[i]);
    strcat(want, "],\"nr_leaves\":2,\"hasher\":null},\"total_stake\":2}");
    CHECK(got != NULL && strcmp(got, want) == 0);
    CHECK_EQ_INT(grove_stm_avk_from_json(&a2, got, strlen(got)), GROVE_OK);
    CHECK(memcmp(&a2.root, avk.root, 32) == 0 && a2.nr_leaves == 2 && a2.total_stake == 2);
    /* binary agrees */
    uint8_t bin[GROVE_STM_AVK_BYTES], wbin[GROVE_STM_AVK_BYTES];
    CHECK(test_unhex_into(wbin, sizeof wbin, str_at(d, "avk", "legacy_bytes")));
    grove_stm_avk_to_bytes(&a2, bin);
    CHECK_MEM(bin, wbin, sizeof bin);

    struct {
        const char *from, *to;
    } bad[] = {
        {"\"hasher\":null", "\"hasher\":0"},
        {",\"hasher\":null", ""},
        {"\"nr_leaves\":2", "\"nr_leaves\":0"},
        {"\"nr_leaves\":2", "\"nr_leaves\":16777217"}, /* > GROVE_STM_MAX_PARTIES */
        {"\"total_stake\":2", "\"total_stake\":0"},
        {"\"total_stake\":2", "\"total_stake\":2,\"x\":null"},
        {"\"root\":[", "\"root\":[1,"},
        {"\"root\":[", "\"root\":[300,"},
        {"{\"mt_commitment\":", "{\"mt_commitment\":[],\"m\":"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *t = replace(got, bad[i].from, bad[i].to);
        int rc = grove_stm_avk_from_json(&a2, t, strlen(t));
        if (rc != GROVE_ERR_ENCODING)
            fprintf(stderr, "avk variant %zu accepted (%d)\n", i, rc);
        CHECK_EQ_INT(rc, GROVE_ERR_ENCODING);
        free(t);
    }
    free(got);
    grove_json_free(d);
    free(file);
}

/* ---- aggregates ---------------------------------------------------------------------------- */

static void aggregate_case(const char *dir, const char *name, const char *json_key,
                           const char *bytes_key, int verify)
{
    size_t len;
    char *file = read_text(dir, name, &len);
    CHECK(file != NULL);
    if (file == NULL)
        return;
    grove_json_doc *d;
    CHECK_EQ_INT(grove_json_parse(&d, file, len), GROVE_OK);
    char *want = sub(d, json_key, NULL);
    CHECK(want != NULL);
    grove_stm_aggregate *agg = NULL;
    CHECK_EQ_INT(grove_stm_aggregate_from_json(&agg, want, strlen(want)), GROVE_OK);
    if (agg == NULL)
        goto out;
    char *got = NULL;
    CHECK_EQ_INT(grove_stm_aggregate_to_json(agg, &got), GROVE_OK);
    CHECK(got != NULL && strcmp(got, want) == 0);
    char *cg = canon(got);
    CHECK(cg != NULL && strcmp(cg, want) == 0);
    free(cg);
    free(got);

    /* JSON and the binary layout describe the same aggregate */
    size_t blen;
    uint8_t *legacy = test_unhex(str_at(d, bytes_key, NULL), &blen);
    CHECK_EQ_INT(grove_stm_aggregate_encoded_bytes(agg), blen);
    uint8_t *bin = malloc(blen);
    CHECK_EQ_INT(grove_stm_aggregate_to_bytes(agg, bin, blen, &blen), GROVE_OK);
    CHECK_MEM(bin, legacy, blen);
    grove_stm_aggregate *a2 = NULL;
    CHECK_EQ_INT(grove_stm_aggregate_from_bytes(&a2, legacy, blen), GROVE_OK);
    if (a2 != NULL) {
        CHECK_EQ_INT(grove_stm_aggregate_to_json(a2, &got), GROVE_OK);
        CHECK(got != NULL && strcmp(got, want) == 0);
        free(got);
        grove_stm_aggregate_free(a2);
    }
    free(bin);
    free(legacy);

    if (verify) {
        grove_stm_params p;
        char *pj = sub(d, "params", NULL);
        CHECK_EQ_INT(grove_stm_params_from_json(&p, pj, strlen(pj)), GROVE_OK);
        free(pj);
        size_t alen, mlen;
        uint8_t *ab = test_unhex(verify == 1 ? str_at(d, "avk", "legacy_bytes")
                                             : str_at(d, "avk_legacy_bytes", NULL),
                                 &alen);
        grove_stm_avk avk;
        CHECK_EQ_INT(grove_stm_avk_from_bytes(&avk, ab, alen), GROVE_OK);
        uint8_t *msg = test_unhex(str_at(d, "message", NULL), &mlen);
        CHECK_EQ_INT(grove_stm_aggregate_verify(&p, agg, msg, mlen, &avk), GROVE_OK);
        free(ab);
        free(msg);
    }
    grove_stm_aggregate_free(agg);

    /* hostile variants of the vector's text */
    struct {
        const char *from, *to;
    } bad[] = {
        {"{\"sigma\":[", "{\"sigma\":[1,"},       /* 49 sigma bytes             */
        {"{\"sigma\":[", "{\"sigma\":[1000,"},    /* byte > 255 (and 49)        */
        {"],\"indexes\"", ",7],\"indexes\""},     /* 49 at the end              */
        {"{\"sigma\":[", "{\"sigma\":[21,"},      /* flag cleared (and 49)      */
        {"]],\"batch_proof\"", ",0]],\"batch_proof\""},     /* entry with 3 items */
        {"]],\"batch_proof\"", "],0],\"batch_proof\""},     /* 3 items per pair   */
        {",\"hasher\":null}}", "}}"},
        {",\"hasher\":null}}", ",\"hasher\":[]}}"},
        {"\"indices\":[", "\"indices\":[-1,"},
        {"\"indices\":[", "\"indices\":[\"0\","},
        {"\"values\":[", "\"values\":[[1,2,3],"},
        {"\"values\":[", "\"values\":[7,"},
        {"\"signatures\":[", "\"signatures\":[[],"},
        {"\"signatures\":[", "\"signatures\":[[{},[[],0]],"},
        {"\"signatures\":[", "\"signatures\":{\"a\":"},
        {"{\"signatures\"", "{\"batch_proof\":null,\"signatures\""},
        {"\"signer_index\":", "\"signer_index\":1.5,\"x\":"},
        {"}}", "}}}"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *t = replace(want, bad[i].from, bad[i].to);
        agg = NULL;
        int rc = grove_stm_aggregate_from_json(&agg, t, strlen(t));
        if (rc != GROVE_ERR_ENCODING)
            fprintf(stderr, "%s: aggregate variant %zu accepted (%d)\n", name, i, rc);
        CHECK_EQ_INT(rc, GROVE_ERR_ENCODING);
        CHECK(agg == NULL);
        grove_stm_aggregate_free(agg);
        free(t);
    }
    /* a vk that is not a point: first vk byte 0x80|0x1f... (x >= p) */
    {
        const char *p = strstr(want, "},[[");
        CHECK(p != NULL);
        if (p != NULL) {
            size_t at = (size_t)(p - want) + 4;
            const char *comma = strchr(want + at, ',');
            char *t = malloc(strlen(want) + 8);
            memcpy(t, want, at);
            strcpy(t + at, "159");
            strcat(t, comma);
            agg = NULL;
            CHECK_EQ_INT(grove_stm_aggregate_from_json(&agg, t, strlen(t)), GROVE_ERR_ENCODING);
            free(t);
        }
    }
out:
    free(want);
    grove_json_free(d);
    free(file);
}

int main(void)
{
    test_reader();
    test_format_double();
    const char *dir = test_vectors_dir("stm");
    test_params(dir);
    test_sig(dir);
    test_avk(dir);
    aggregate_case(dir, "aggregate_2party.json", "json", "legacy_bytes", 1);
    aggregate_case(dir, "aggregate_5party.json", "aggregate_json", "aggregate_legacy_bytes", 2);
    return test_done();
}
