/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The strict JSON reader and the STM JSON readers on arbitrary text. Input: a selector byte,
 * then the text. (sel % 5) == 0: the generic reader; a parsed text's compact form must parse
 * again to the same compact form. 1..4: parameters, single signature, AVK, aggregate; a
 * reader either refuses (GROVE_ERR_ENCODING, or GROVE_ERR_INVALID_ARG for parameter values) or
 * gives an object whose JSON and binary encodings read back to the same encodings.
 */
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "fuzz.h"
#include "grove/stm.h"

static void refused(int rc, int allow_invalid_arg)
{
    if (rc == GROVE_ERR_ENCODING || rc == GROVE_ERR_NOMEM ||
        (allow_invalid_arg && rc == GROVE_ERR_INVALID_ARG))
        return;
    abort();
}

static void generic(const char *in, size_t len)
{
    grove_json_doc *d, *e;
    int rc = grove_json_parse(&d, in, len);
    if (rc != GROVE_OK) {
        refused(rc, 0);
        if (d != NULL)
            abort();
        return;
    }
    char *c = grove_json_compact(d, grove_json_root(d));
    if (c == NULL || grove_json_parse(&e, c, strlen(c)) != GROVE_OK)
        abort();
    char *c2 = grove_json_compact(e, grove_json_root(e));
    if (c2 == NULL || strcmp(c, c2) != 0)
        abort();
    /* numbers: the u64 view agrees with the text */
    const grove_json_node *r = grove_json_root(d);
    uint64_t v;
    double x;
    if (grove_json_u64(r, &v) == 0 && grove_json_double(d, r, &x) == 0 && v < (1ull << 53) &&
        x != (double)v)
        abort();
    free(c);
    free(c2);
    grove_json_free(d);
    grove_json_free(e);
}

static void params(const char *in, size_t len)
{
    grove_stm_params p, q;
    int rc = grove_stm_params_from_json(&p, in, len);
    if (rc != GROVE_OK) {
        refused(rc, 1);
        return;
    }
    char *j = NULL;
    uint8_t a[GROVE_STM_PARAMS_BYTES], b[GROVE_STM_PARAMS_BYTES];
    if (grove_stm_params_to_json(&p, &j) != GROVE_OK ||
        grove_stm_params_from_json(&q, j, strlen(j)) != GROVE_OK)
        abort();
    grove_stm_params_to_bytes(&p, a);
    grove_stm_params_to_bytes(&q, b);
    if (memcmp(a, b, sizeof a) != 0 || grove_stm_params_from_bytes(&q, a, sizeof a) != GROVE_OK)
        abort();
    free(j);
}

static void sig(const char *in, size_t len)
{
    grove_stm_sig s, t;
    int rc = grove_stm_sig_from_json(&s, in, len);
    if (rc != GROVE_OK) {
        refused(rc, 0);
        if (s.indexes != NULL || s.n_indexes != 0)
            abort();
        return;
    }
    char *j = NULL, *j2 = NULL;
    size_t n = grove_stm_sig_encoded_bytes(&s);
    uint8_t *bin = malloc(n);
    if (bin == NULL || grove_stm_sig_to_bytes(&s, bin, n, &n) != GROVE_OK ||
        grove_stm_sig_from_bytes(&t, bin, n) != GROVE_OK)
        abort();
    if (grove_stm_sig_to_json(&s, &j) != GROVE_OK || grove_stm_sig_to_json(&t, &j2) != GROVE_OK ||
        strcmp(j, j2) != 0)
        abort();
    free(j);
    free(j2);
    free(bin);
    grove_stm_sig_clear(&s);
    grove_stm_sig_clear(&t);
}

static void avk(const char *in, size_t len)
{
    grove_stm_avk a, b;
    int rc = grove_stm_avk_from_json(&a, in, len);
    if (rc != GROVE_OK) {
        refused(rc, 0);
        return;
    }
    uint8_t bin[GROVE_STM_AVK_BYTES];
    grove_stm_avk_to_bytes(&a, bin);
    if (grove_stm_avk_from_bytes(&b, bin, sizeof bin) != GROVE_OK ||
        memcmp(b.root, a.root, 32) != 0 || b.nr_leaves != a.nr_leaves ||
        b.total_stake != a.total_stake)
        abort();
}

static void aggregate(const char *in, size_t len)
{
    grove_stm_aggregate *a = NULL, *b = NULL;
    int rc = grove_stm_aggregate_from_json(&a, in, len);
    if (rc != GROVE_OK) {
        refused(rc, 0);
        if (a != NULL)
            abort();
        return;
    }
    size_t n = grove_stm_aggregate_encoded_bytes(a);
    uint8_t *bin = malloc(n ? n : 1);
    char *j = NULL, *j2 = NULL;
    if (bin == NULL || grove_stm_aggregate_to_bytes(a, bin, n, &n) != GROVE_OK ||
        grove_stm_aggregate_from_bytes(&b, bin, n) != GROVE_OK)
        abort();
    if (grove_stm_aggregate_to_json(a, &j) != GROVE_OK ||
        grove_stm_aggregate_to_json(b, &j2) != GROVE_OK || strcmp(j, j2) != 0)
        abort();
    free(j);
    free(j2);
    free(bin);
    grove_stm_aggregate_free(a);
    grove_stm_aggregate_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    unsigned sel = fuzz_byte(&in) % 5;
    const char *t = (const char *)in.p;
    switch (sel) {
    case 0: generic(t, in.left); break;
    case 1: params(t, in.left); break;
    case 2: sig(t, in.left); break;
    case 3: avk(t, in.left); break;
    default: aggregate(t, in.left); break;
    }
    return 0;
}
