/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Mithril STM: the serde_json shapes of mithril-stm (spec section 9), both directions.
 *
 * Writers print exactly what serde_json's compact writer prints (byte arrays as arrays of
 * decimal numbers, no whitespace, fields in declaration order, f64 in ryu's shortest form).
 * Readers are strict: every field required, no unknown or duplicate keys, byte arrays of
 * exactly the right length with elements 0..255, integers in [0, 2^64 - 1] without fraction
 * or exponent, points validated (on the curve, in the subgroup, not the identity). Shape
 * errors are GROVE_ERR_ENCODING; parameter values out of range GROVE_ERR_INVALID_ARG.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/util.h"
#include "stm/stm_internal.h"

/* ---- writing ------------------------------------------------------------------------------ */

static void sig_json(grove_json_buf *b, const grove_stm_sig *sig)
{
    grove_json_buf_text(b, "{\"sigma\":");
    grove_json_buf_bytes(b, sig->sigma, GROVE_STM_SIGMA_BYTES);
    grove_json_buf_text(b, ",\"indexes\":");
    grove_json_buf_u64s(b, sig->indexes, sig->n_indexes);
    grove_json_buf_text(b, ",\"signer_index\":");
    grove_json_buf_u64(b, sig->signer_index);
    grove_json_buf_raw(b, "}", 1);
}

grove_status grove_stm_params_to_json(const grove_stm_params *params, char **out)
{
    if (out == NULL || params == NULL)
        return GROVE_ERR_INVALID_ARG;
    *out = NULL;
    char num[32];
    if (grove_json_format_double(num, params->phi_f) == 0)
        return GROVE_ERR_INVALID_ARG;
    grove_json_buf b = GROVE_JSON_BUF_INIT;
    grove_json_buf_text(&b, "{\"m\":");
    grove_json_buf_u64(&b, params->m);
    grove_json_buf_text(&b, ",\"k\":");
    grove_json_buf_u64(&b, params->k);
    grove_json_buf_text(&b, ",\"phi_f\":");
    grove_json_buf_text(&b, num);
    grove_json_buf_raw(&b, "}", 1);
    return grove_json_buf_take(&b, out);
}

grove_status grove_stm_sig_to_json(const grove_stm_sig *sig, char **out)
{
    if (out == NULL || sig == NULL || (sig->n_indexes && sig->indexes == NULL))
        return GROVE_ERR_INVALID_ARG;
    *out = NULL;
    grove_json_buf b = GROVE_JSON_BUF_INIT;
    sig_json(&b, sig);
    return grove_json_buf_take(&b, out);
}

grove_status grove_stm_avk_to_json(const grove_stm_avk *avk, char **out)
{
    if (out == NULL || avk == NULL)
        return GROVE_ERR_INVALID_ARG;
    *out = NULL;
    grove_json_buf b = GROVE_JSON_BUF_INIT;
    grove_json_buf_text(&b, "{\"mt_commitment\":{\"root\":");
    grove_json_buf_bytes(&b, avk->root, GROVE_STM_ROOT_BYTES);
    grove_json_buf_text(&b, ",\"nr_leaves\":");
    grove_json_buf_u64(&b, avk->nr_leaves);
    grove_json_buf_text(&b, ",\"hasher\":null},\"total_stake\":");
    grove_json_buf_u64(&b, avk->total_stake);
    grove_json_buf_raw(&b, "}", 1);
    return grove_json_buf_take(&b, out);
}

grove_status grove_stm_aggregate_to_json(const grove_stm_aggregate *agg, char **out)
{
    if (out == NULL || agg == NULL)
        return GROVE_ERR_INVALID_ARG;
    *out = NULL;
    grove_json_buf b = GROVE_JSON_BUF_INIT;
    grove_json_buf_text(&b, "{\"signatures\":[");
    for (size_t i = 0; i < agg->n; i++) {
        const uint8_t *e = agg->entries + i * GROVE_STM_ENTRY_BYTES;
        grove_json_buf_text(&b, i ? ",[" : "[");
        sig_json(&b, &agg->sigs[i]);
        grove_json_buf_text(&b, ",[");
        grove_json_buf_bytes(&b, e, GROVE_STM_VK_BYTES);
        grove_json_buf_raw(&b, ",", 1);
        grove_json_buf_u64(&b, grove_load64_be(e + GROVE_STM_VK_BYTES));
        grove_json_buf_text(&b, "]]");
    }
    grove_json_buf_text(&b, "],\"batch_proof\":{\"values\":[");
    for (size_t i = 0; i < agg->n_values; i++) {
        if (i)
            grove_json_buf_raw(&b, ",", 1);
        grove_json_buf_bytes(&b, agg->values + i * 32, 32);
    }
    grove_json_buf_text(&b, "],\"indices\":");
    grove_json_buf_u64s(&b, agg->indices, agg->n_indices);
    grove_json_buf_text(&b, ",\"hasher\":null}}");
    return grove_json_buf_take(&b, out);
}

/* ---- reading ------------------------------------------------------------------------------ */

/* The object has exactly these keys (each once: the parser refuses duplicates). */
static int only_keys(const grove_json_doc *d, const grove_json_node *obj, const char *const *keys,
                     size_t nkeys)
{
    if (obj == NULL || obj->type != GROVE_JSON_OBJECT || obj->count != nkeys)
        return -1;
    for (size_t i = 0; i < nkeys; i++)
        if (grove_json_get(d, obj, keys[i]) == NULL)
            return -1;
    return 0;
}

/* An array of exactly n numbers 0..255. */
static int get_bytes(const grove_json_doc *d, const grove_json_node *arr, uint8_t *out, size_t n)
{
    if (arr == NULL || arr->type != GROVE_JSON_ARRAY || arr->count != n)
        return -1;
    size_t i = 0;
    for (const grove_json_node *e = grove_json_first(d, arr); e; e = grove_json_next(d, e)) {
        uint64_t v;
        if (grove_json_u64(e, &v) != 0 || v > 255)
            return -1;
        out[i++] = (uint8_t)v;
    }
    return i == n ? 0 : -1;
}

/* An array of at most max u64; *out malloc'd (NULL when empty). */
static int get_u64s(const grove_json_doc *d, const grove_json_node *arr, uint64_t max,
                    uint64_t **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (arr == NULL || arr->type != GROVE_JSON_ARRAY || arr->count > max)
        return GROVE_ERR_ENCODING;
    if (arr->count == 0)
        return GROVE_OK;
    uint64_t *v = malloc((size_t)arr->count * sizeof *v);
    if (v == NULL)
        return GROVE_ERR_NOMEM;
    size_t i = 0;
    for (const grove_json_node *e = grove_json_first(d, arr); e; e = grove_json_next(d, e))
        if (grove_json_u64(e, &v[i++]) != 0) {
            free(v);
            return GROVE_ERR_ENCODING;
        }
    *out = v;
    *n = i;
    return GROVE_OK;
}

static int get_u64(const grove_json_doc *d, const grove_json_node *obj, const char *key,
                   uint64_t *v)
{
    return grove_json_u64(grove_json_get(d, obj, key), v);
}

static int is_null(const grove_json_node *n)
{
    return n != NULL && n->type == GROVE_JSON_NULL;
}

/* A single signature object into *sig (indexes malloc'd); sigma not validated here. */
static int read_sig(const grove_json_doc *d, const grove_json_node *obj, grove_stm_sig *sig)
{
    static const char *const keys[] = {"sigma", "indexes", "signer_index"};
    memset(sig, 0, sizeof *sig);
    if (only_keys(d, obj, keys, 3) != 0 ||
        get_bytes(d, grove_json_get(d, obj, "sigma"), sig->sigma, GROVE_STM_SIGMA_BYTES) != 0 ||
        get_u64(d, obj, "signer_index", &sig->signer_index) != 0)
        return GROVE_ERR_ENCODING;
    return get_u64s(d, grove_json_get(d, obj, "indexes"), STM_MAX_INDEXES, &sig->indexes,
                    &sig->n_indexes);
}

static int parse(grove_json_doc **doc, const char *in, size_t len)
{
    if (in == NULL)
        return GROVE_ERR_INVALID_ARG;
    return grove_json_parse(doc, in, len);
}

grove_status grove_stm_params_from_json(grove_stm_params *params, const char *in, size_t in_len)
{
    static const char *const keys[] = {"m", "k", "phi_f"};
    if (params == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_json_doc *d;
    int rc = parse(&d, in, in_len);
    if (rc != GROVE_OK)
        return rc;
    const grove_json_node *r = grove_json_root(d);
    grove_stm_params p;
    if (only_keys(d, r, keys, 3) != 0 || get_u64(d, r, "m", &p.m) != 0 ||
        get_u64(d, r, "k", &p.k) != 0 ||
        grove_json_double(d, grove_json_get(d, r, "phi_f"), &p.phi_f) != 0)
        rc = GROVE_ERR_ENCODING;
    grove_json_free(d);
    if (rc == GROVE_OK && (rc = grove_stm_params_check(&p)) == GROVE_OK)
        *params = p;
    return rc;
}

grove_status grove_stm_sig_from_json(grove_stm_sig *sig, const char *in, size_t in_len)
{
    if (sig == NULL)
        return GROVE_ERR_INVALID_ARG;
    memset(sig, 0, sizeof *sig);
    grove_json_doc *d;
    int rc = parse(&d, in, in_len);
    if (rc != GROVE_OK)
        return rc;
    grove_stm_sig s;
    rc = read_sig(d, grove_json_root(d), &s);
    grove_json_free(d);
    if (rc != GROVE_OK)
        return rc;
    grove_bls_g1 p;
    if (grove_bls_g1_from_bytes(&p, s.sigma, GROVE_STM_SIGMA_BYTES, GROVE_BLS_NO_INFINITY) !=
        GROVE_OK) {
        free(s.indexes);
        return GROVE_ERR_ENCODING;
    }
    *sig = s;
    return GROVE_OK;
}

grove_status grove_stm_avk_from_json(grove_stm_avk *avk, const char *in, size_t in_len)
{
    static const char *const keys[] = {"mt_commitment", "total_stake"};
    static const char *const mt_keys[] = {"root", "nr_leaves", "hasher"};
    if (avk == NULL)
        return GROVE_ERR_INVALID_ARG;
    grove_json_doc *d;
    int rc = parse(&d, in, in_len);
    if (rc != GROVE_OK)
        return rc;
    const grove_json_node *r = grove_json_root(d), *mt = grove_json_get(d, r, "mt_commitment");
    grove_stm_avk a;
    if (only_keys(d, r, keys, 2) != 0 || only_keys(d, mt, mt_keys, 3) != 0 ||
        get_bytes(d, grove_json_get(d, mt, "root"), a.root, GROVE_STM_ROOT_BYTES) != 0 ||
        get_u64(d, mt, "nr_leaves", &a.nr_leaves) != 0 ||
        !is_null(grove_json_get(d, mt, "hasher")) ||
        get_u64(d, r, "total_stake", &a.total_stake) != 0 || a.nr_leaves == 0 ||
        a.nr_leaves > GROVE_STM_MAX_PARTIES || a.total_stake == 0)
        rc = GROVE_ERR_ENCODING;
    grove_json_free(d);
    if (rc == GROVE_OK)
        *avk = a;
    return rc;
}

grove_status grove_stm_aggregate_from_json(grove_stm_aggregate **agg, const char *in, size_t in_len)
{
    return (grove_status)stm_aggregate_from_json_cached(agg, in, in_len, NULL);
}

int stm_aggregate_from_json_cached(grove_stm_aggregate **agg, const char *in, size_t in_len,
                                   stm_vk_cache *cache)
{
    static const char *const keys[] = {"signatures", "batch_proof"};
    static const char *const bp_keys[] = {"values", "indices", "hasher"};
    if (agg == NULL)
        return GROVE_ERR_INVALID_ARG;
    *agg = NULL;
    grove_json_doc *d;
    int rc = parse(&d, in, in_len);
    if (rc != GROVE_OK)
        return rc;
    const grove_json_node *r = grove_json_root(d);
    const grove_json_node *sl = grove_json_get(d, r, "signatures");
    const grove_json_node *bp = grove_json_get(d, r, "batch_proof");
    const grove_json_node *vl = grove_json_get(d, bp, "values");
    if (only_keys(d, r, keys, 2) != 0 || only_keys(d, bp, bp_keys, 3) != 0 ||
        !is_null(grove_json_get(d, bp, "hasher")) || sl->type != GROVE_JSON_ARRAY ||
        sl->count > STM_MAX_SIGS || vl->type != GROVE_JSON_ARRAY ||
        vl->count > STM_MAX_PATH_VALUES) {
        grove_json_free(d);
        return GROVE_ERR_ENCODING;
    }
    size_t n = sl->count, nv = vl->count, ni = 0, i = 0;
    grove_stm_sig *sigs = calloc(n ? n : 1, sizeof *sigs);
    uint8_t *entries = malloc(n ? n * GROVE_STM_ENTRY_BYTES : 1);
    uint8_t *values = malloc(nv ? nv * 32 : 1);
    uint64_t *indices = NULL;
    if (sigs == NULL || entries == NULL || values == NULL)
        rc = GROVE_ERR_NOMEM;
    /* [[sig, [[vk 96], stake]], ...] */
    for (const grove_json_node *e = grove_json_first(d, sl); e && rc == GROVE_OK;
         e = grove_json_next(d, e), i++) {
        const grove_json_node *s = grove_json_first(d, e), *ent = grove_json_next(d, s);
        const grove_json_node *vk = grove_json_first(d, ent), *st = grove_json_next(d, vk);
        uint8_t *out = entries + i * GROVE_STM_ENTRY_BYTES;
        uint64_t stake;
        if (e->type != GROVE_JSON_ARRAY || e->count != 2 || ent->type != GROVE_JSON_ARRAY ||
            ent->count != 2 || get_bytes(d, vk, out, GROVE_STM_VK_BYTES) != 0 ||
            grove_json_u64(st, &stake) != 0) {
            rc = GROVE_ERR_ENCODING;
            break;
        }
        grove_store64_be(out + GROVE_STM_VK_BYTES, stake);
        rc = read_sig(d, s, &sigs[i]);
    }
    i = 0;
    for (const grove_json_node *v = grove_json_first(d, vl); v && rc == GROVE_OK;
         v = grove_json_next(d, v), i++)
        if (get_bytes(d, v, values + i * 32, 32) != 0)
            rc = GROVE_ERR_ENCODING;
    if (rc == GROVE_OK)
        rc = get_u64s(d, grove_json_get(d, bp, "indices"), STM_MAX_SIGS, &indices, &ni);
    grove_json_free(d);
    if (rc == GROVE_OK)
        rc = stm_aggregate_assemble(agg, n, sigs, entries, nv, values, ni, indices, cache);
    for (i = 0; sigs != NULL && i < n; i++)
        free(sigs[i].indexes);
    free(sigs);
    free(entries);
    free(values);
    free(indices);
    if (rc != GROVE_OK)
        *agg = NULL;
    return rc;
}
