/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Mithril STM: the CBOR v1 aggregate signature (AggregateSignature::to_bytes, concatenation
 * proof) and the initializer (Initializer::to_bytes: stake, parameters, secret key, vk + PoP).
 *
 *   aggregate   {"signature_type": 0, "proof_bytes": proof}
 *   proof       {"signature_bytes": [sig_reg, ...], "batch_proof_bytes": batch}
 *   sig_reg     {"signature_bytes": single signature, "registration_entry_bytes": entry}
 *   entry       {"verification_key_bytes": [96 uints], "stake": n}
 *   batch       {"values": [[32 uints], ...], "indices": [n, ...], "hasher": null}
 * Every nested object is its own 0x01-prefixed encoding held in an array of uints; proof_bytes
 * is such an array in 0.11.3 and a byte string from 0.12.2 on (grove_stm_cbor_form).
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "stm/cbor.h"
#include "stm/stm_internal.h"

/* ---- writing ------------------------------------------------------------------------------ */

static void entry_write(stm_cbor_buf *b, const uint8_t entry[GROVE_STM_ENTRY_BYTES])
{
    stm_cbor_raw(b, "\x01", 1);
    stm_cbor_head(b, 5, 2);
    stm_cbor_text(b, "verification_key_bytes");
    stm_cbor_byte_array(b, entry, GROVE_STM_VK_BYTES);
    stm_cbor_text(b, "stake");
    stm_cbor_uint(b, grove_load64_be(entry + GROVE_STM_VK_BYTES));
}

static void batch_write(stm_cbor_buf *b, const grove_stm_aggregate *a)
{
    stm_cbor_raw(b, "\x01", 1);
    stm_cbor_head(b, 5, 3);
    stm_cbor_text(b, "values");
    stm_cbor_head(b, 4, a->n_values);
    for (size_t i = 0; i < a->n_values; i++)
        stm_cbor_byte_array(b, a->values + 32 * i, 32);
    stm_cbor_text(b, "indices");
    stm_cbor_head(b, 4, a->n_indices);
    for (size_t i = 0; i < a->n_indices; i++)
        stm_cbor_uint(b, a->indices[i]);
    stm_cbor_text(b, "hasher");
    stm_cbor_null(b);
}

static void proof_write(stm_cbor_buf *b, const grove_stm_aggregate *a)
{
    stm_cbor_raw(b, "\x01", 1);
    stm_cbor_head(b, 5, 2);
    stm_cbor_text(b, "signature_bytes");
    stm_cbor_head(b, 4, a->n);
    for (size_t i = 0; i < a->n && !b->err; i++) {
        stm_cbor_buf one = {0}, sig = {0}, entry = {0};
        stm_cbor_raw(&one, "\x01", 1);
        stm_cbor_head(&one, 5, 2);
        stm_cbor_text(&one, "signature_bytes");
        stm_cbor_sig_write(&sig, &a->sigs[i]);
        stm_cbor_put_nested(&one, &sig, 0);
        stm_cbor_text(&one, "registration_entry_bytes");
        entry_write(&entry, a->entries + GROVE_STM_ENTRY_BYTES * i);
        stm_cbor_put_nested(&one, &entry, 0);
        stm_cbor_put_nested(b, &one, 0);
    }
    stm_cbor_buf batch = {0};
    stm_cbor_text(b, "batch_proof_bytes");
    batch_write(&batch, a);
    stm_cbor_put_nested(b, &batch, 0);
}

grove_status grove_stm_aggregate_to_cbor(const grove_stm_aggregate *agg, uint8_t *out,
                                         size_t out_cap, size_t *out_len,
                                         grove_stm_cbor_form form)
{
    if (agg == NULL || out_len == NULL || (out == NULL && out_cap) ||
        (form != GROVE_STM_CBOR_0_11 && form != GROVE_STM_CBOR_0_12))
        return GROVE_ERR_INVALID_ARG;
    stm_cbor_buf b = {0}, proof = {0};
    stm_cbor_raw(&b, "\x01", 1);
    stm_cbor_head(&b, 5, 2);
    stm_cbor_text(&b, "signature_type");
    stm_cbor_uint(&b, 0); /* Concatenation */
    stm_cbor_text(&b, "proof_bytes");
    proof_write(&proof, agg);
    stm_cbor_put_nested(&b, &proof, form == GROVE_STM_CBOR_0_12);
    return (grove_status)stm_cbor_finish(&b, out, out_cap, out_len);
}

/* ---- reading ------------------------------------------------------------------------------ */

/* The parts of an aggregate while they are read (stm_aggregate_assemble takes them). */
typedef struct agg_parts {
    size_t n, cap;
    grove_stm_sig *sigs;
    uint8_t *entries;
    size_t n_values;
    uint8_t *values;
    size_t n_indices;
    uint64_t *indices;
} agg_parts;

static void parts_free(agg_parts *p)
{
    for (size_t i = 0; i < p->n; i++)
        grove_stm_sig_clear(&p->sigs[i]);
    free(p->sigs);
    free(p->entries);
    free(p->values);
    free(p->indices);
}

typedef struct {
    uint8_t *entry;
    uint64_t stake;
} entry_ctx;

static int entry_field(stm_cbor_in *c, size_t idx, void *arg)
{
    entry_ctx *e = arg;
    return idx == 0 ? stm_cbor_read_byte_array(c, e->entry, GROVE_STM_VK_BYTES)
                    : stm_cbor_read_uint(c, &e->stake);
}

static int entry_read(stm_cbor_in *c, void *arg)
{
    static const char *const names[] = {"verification_key_bytes", "stake"};
    entry_ctx e = {arg, 0};
    int rc = stm_cbor_read_struct(c, names, 2, entry_field, &e);
    grove_store64_be(e.entry + GROVE_STM_VK_BYTES, e.stake);
    return rc;
}

/* One {"signature_bytes", "registration_entry_bytes"}: appended to the parts. */
typedef struct {
    agg_parts *p;
    size_t i; /* the part being read */
} sig_reg_ctx;

static int sig_reg_field(stm_cbor_in *c, size_t idx, void *arg)
{
    sig_reg_ctx *s = arg;
    agg_parts *p = s->p;
    if (idx != 0)
        return stm_cbor_nested(c, 0, NULL, entry_read, p->entries + GROVE_STM_ENTRY_BYTES * s->i);
    int rc = stm_cbor_nested(c, 0, NULL, stm_cbor_sig_parse, &p->sigs[s->i]);
    if (p->sigs[s->i].indexes != NULL)
        p->n++; /* decoded (even if trailing bytes follow): the parts own it now */
    return rc;
}

static int sig_reg_read(stm_cbor_in *c, void *arg)
{
    static const char *const names[] = {"signature_bytes", "registration_entry_bytes"};
    sig_reg_ctx s = {arg, ((agg_parts *)arg)->n};
    return stm_cbor_read_struct(c, names, 2, sig_reg_field, &s);
}

/* Room for one more signature: grows the arrays, at most STM_MAX_SIGS. */
static int parts_grow(agg_parts *p)
{
    if (p->n < p->cap)
        return GROVE_OK;
    if (p->cap >= STM_MAX_SIGS)
        return GROVE_ERR_ENCODING;
    size_t cap = p->cap ? 2 * p->cap : 16;
    grove_stm_sig *s = realloc(p->sigs, cap * sizeof *s);
    if (s == NULL)
        return GROVE_ERR_NOMEM;
    p->sigs = s;
    memset(s + p->n, 0, (cap - p->n) * sizeof *s);
    uint8_t *e = realloc(p->entries, cap * GROVE_STM_ENTRY_BYTES);
    if (e == NULL)
        return GROVE_ERR_NOMEM;
    p->entries = e, p->cap = cap;
    return GROVE_OK;
}

static int values_read(stm_cbor_in *c, agg_parts *p)
{
    size_t left, cap = 0;
    /* each value takes at least 34 bytes (0x98 0x20 and 32 one-byte uints) */
    int rc = stm_cbor_open_array(c, &left, STM_MAX_PATH_VALUES), more = 0;
    while (rc == GROVE_OK && (more = stm_cbor_more(c, &left)) == 1) {
        if (p->n_values == cap) {
            if (cap >= STM_MAX_PATH_VALUES || (cap + 1) * 34 > c->len)
                return GROVE_ERR_ENCODING;
            cap = cap ? 2 * cap : 16;
            uint8_t *v = realloc(p->values, 32 * cap);
            if (v == NULL)
                return GROVE_ERR_NOMEM;
            p->values = v;
        }
        rc = stm_cbor_read_byte_array(c, p->values + 32 * p->n_values, 32);
        if (rc == GROVE_OK)
            p->n_values++;
    }
    return rc != GROVE_OK ? rc : more == 0 ? GROVE_OK : GROVE_ERR_ENCODING;
}

static int batch_field(stm_cbor_in *c, size_t idx, void *arg)
{
    agg_parts *p = arg;
    return idx == 0   ? values_read(c, p)
           : idx == 1 ? stm_cbor_read_u64_list(c, &p->indices, &p->n_indices, STM_MAX_SIGS)
                      : stm_cbor_read_null(c);
}

static int batch_read(stm_cbor_in *c, void *arg)
{
    static const char *const names[] = {"values", "indices", "hasher"};
    return stm_cbor_read_struct(c, names, 3, batch_field, arg);
}

static int sigs_read(stm_cbor_in *c, agg_parts *p)
{
    size_t left;
    int rc = stm_cbor_open_array(c, &left, STM_MAX_SIGS), more = 0;
    while (rc == GROVE_OK && (more = stm_cbor_more(c, &left)) == 1) {
        if ((rc = parts_grow(p)) == GROVE_OK)
            rc = stm_cbor_nested(c, 0, NULL, sig_reg_read, p);
    }
    return rc != GROVE_OK ? rc : more == 0 ? GROVE_OK : GROVE_ERR_ENCODING;
}

static int proof_field(stm_cbor_in *c, size_t idx, void *arg)
{
    return idx == 0 ? sigs_read(c, arg) : stm_cbor_nested(c, 0, NULL, batch_read, arg);
}

static int proof_read(stm_cbor_in *c, void *arg)
{
    static const char *const names[] = {"signature_bytes", "batch_proof_bytes"};
    agg_parts *p = arg;
    int rc = stm_cbor_read_struct(c, names, 2, proof_field, p);
    if (rc == GROVE_OK && p->n == 0)
        rc = GROVE_ERR_ENCODING;
    return rc;
}

typedef struct {
    agg_parts *p;
    int *bstr;
} aggregate_ctx;

static int aggregate_field(stm_cbor_in *c, size_t idx, void *arg)
{
    aggregate_ctx *a = arg;
    if (idx != 0)
        return stm_cbor_nested(c, 1, a->bstr, proof_read, a->p);
    uint64_t type = 0;
    int rc = stm_cbor_read_uint(c, &type);
    return rc == GROVE_OK && type != 0 ? GROVE_ERR_ENCODING /* only the concatenation proof */
                                       : rc;
}

static int aggregate_read(stm_cbor_in *c, agg_parts *p, int *bstr)
{
    static const char *const names[] = {"signature_type", "proof_bytes"};
    aggregate_ctx a = {p, bstr};
    int rc = stm_cbor_read_struct(c, names, 2, aggregate_field, &a);
    if (rc == GROVE_OK && !stm_cbor_done(c))
        rc = GROVE_ERR_ENCODING;
    return rc;
}

grove_status grove_stm_aggregate_from_cbor(grove_stm_aggregate **agg, grove_stm_cbor_form *form,
                                           const uint8_t *in, size_t in_len)
{
    return (grove_status)stm_aggregate_from_cbor_cached(agg, form, in, in_len, NULL);
}

int stm_aggregate_from_cbor_cached(grove_stm_aggregate **agg, grove_stm_cbor_form *form,
                                   const uint8_t *in, size_t in_len, stm_vk_cache *cache)
{
    if (agg == NULL || (in == NULL && in_len))
        return GROVE_ERR_INVALID_ARG;
    *agg = NULL;
    agg_parts p;
    memset(&p, 0, sizeof p);
    stm_cbor_in c;
    int bstr = 0;
    int rc = stm_cbor_open(&c, in, in_len);
    if (rc == GROVE_OK)
        rc = aggregate_read(&c, &p, &bstr);
    if (rc == GROVE_OK)
        rc = stm_aggregate_assemble(agg, p.n, p.sigs, p.entries, p.n_values, p.values,
                                    p.n_indices, p.indices, cache);
    if (rc == GROVE_OK && form != NULL)
        *form = bstr ? GROVE_STM_CBOR_0_12 : GROVE_STM_CBOR_0_11;
    parts_free(&p);
    return rc;
}

/* ---- initializer -------------------------------------------------------------------------- */

grove_status grove_stm_initializer_to_cbor(const grove_stm_params *params, uint8_t *out,
                                           size_t out_cap, size_t *out_len, uint64_t stake,
                                           const uint8_t sk[GROVE_STM_SK_BYTES])
{
    if (params == NULL || out_len == NULL || (out == NULL && out_cap) || sk == NULL ||
        grove_stm_params_check(params) != GROVE_OK)
        return GROVE_ERR_INVALID_ARG;
    uint8_t vkpop[GROVE_STM_VKPOP_BYTES];
    grove_status rc = grove_stm_vkpop_from_sk(vkpop, sk);
    if (rc != GROVE_OK)
        return rc;
    stm_cbor_buf b = {0};
    stm_cbor_raw(&b, "\x01", 1);
    stm_cbor_head(&b, 5, 4);
    stm_cbor_text(&b, "stake");
    stm_cbor_uint(&b, stake);
    stm_cbor_text(&b, "params");
    stm_cbor_params_write(&b, params);
    stm_cbor_text(&b, "sk");
    stm_cbor_byte_array(&b, sk, GROVE_STM_SK_BYTES);
    stm_cbor_text(&b, "pk");
    stm_cbor_head(&b, 5, 2);
    stm_cbor_text(&b, "vk");
    stm_cbor_byte_array(&b, vkpop, GROVE_STM_VK_BYTES);
    stm_cbor_text(&b, "pop");
    stm_cbor_byte_array(&b, vkpop + GROVE_STM_VK_BYTES, GROVE_STM_POP_BYTES);
    return (grove_status)stm_cbor_finish(&b, out, out_cap, out_len); /* wipes b */
}

static int vkpop_field(stm_cbor_in *c, size_t idx, void *arg)
{
    uint8_t *vkpop = arg;
    return idx == 0 ? stm_cbor_read_byte_array(c, vkpop, GROVE_STM_VK_BYTES)
                    : stm_cbor_read_byte_array(c, vkpop + GROVE_STM_VK_BYTES, GROVE_STM_POP_BYTES);
}

/* The initializer's fields into the temporaries (sk and vkpop are wiped by the caller). */
typedef struct {
    grove_stm_params *p;
    uint64_t *stake;
    uint8_t *sk, *vkpop;
} initializer_ctx;

static int initializer_field(stm_cbor_in *c, size_t idx, void *arg)
{
    static const char *const vkpop_names[] = {"vk", "pop"};
    initializer_ctx *in = arg;
    return idx == 0   ? stm_cbor_read_uint(c, in->stake)
           : idx == 1 ? stm_cbor_params_read(c, in->p)
           : idx == 2 ? stm_cbor_read_byte_array(c, in->sk, GROVE_STM_SK_BYTES)
                      : stm_cbor_read_struct(c, vkpop_names, 2, vkpop_field, in->vkpop);
}

static int initializer_read(stm_cbor_in *c, grove_stm_params *p, uint64_t *stake, uint8_t *sk,
                            uint8_t *vkpop)
{
    static const char *const names[] = {"stake", "params", "sk", "pk"};
    initializer_ctx in = {p, stake, sk, vkpop};
    int rc = stm_cbor_read_struct(c, names, 4, initializer_field, &in);
    if (rc == GROVE_OK && !stm_cbor_done(c))
        rc = GROVE_ERR_ENCODING;
    return rc;
}

grove_status grove_stm_initializer_from_cbor(grove_stm_params *params, uint64_t *stake,
                                             uint8_t sk[GROVE_STM_SK_BYTES],
                                             uint8_t vkpop[GROVE_STM_VKPOP_BYTES],
                                             const uint8_t *in, size_t in_len)
{
    if (params == NULL || stake == NULL || sk == NULL || vkpop == NULL || (in == NULL && in_len))
        return GROVE_ERR_INVALID_ARG;
    grove_stm_params p;
    uint64_t st = 0;
    uint8_t s[GROVE_STM_SK_BYTES], v[GROVE_STM_VKPOP_BYTES], want[GROVE_STM_VKPOP_BYTES];
    stm_cbor_in c;
    int rc = stm_cbor_open(&c, in, in_len);
    if (rc == GROVE_OK)
        rc = initializer_read(&c, &p, &st, s, v);
    /* the key pair must be one: the vk and PoP are those of the secret key */
    if (rc == GROVE_OK && grove_stm_vkpop_from_sk(want, s) != GROVE_OK)
        rc = GROVE_ERR_ENCODING;
    if (rc == GROVE_OK && !grove_ct_memeq(want, v, sizeof v))
        rc = GROVE_ERR_ENCODING;
    if (rc == GROVE_OK) {
        *params = p, *stake = st;
        memcpy(sk, s, sizeof s);
        memcpy(vkpop, v, sizeof v);
    }
    grove_wipe(s, sizeof s);
    grove_wipe(v, sizeof v);
    grove_wipe(want, sizeof want);
    return (grove_status)rc;
}
