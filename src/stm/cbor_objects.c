/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Mithril STM: mithril-stm's CBOR v1 encodings (`to_bytes` / `from_bytes` of the crate since
 * 0.11), both directions, on the strict CBOR subset of cbor.h.
 *
 * Every encoding is 0x01 || one CBOR item. Byte fields (Vec<u8>, [u8; N]) are arrays of
 * unsigned integers; fields holding another encoding ("*_bytes") carry that encoding with its
 * own 0x01 prefix, again as an array of integers, except the aggregate's proof_bytes, which
 * mithril-stm 0.12.2 and later write as a byte string (both are read). Writers produce exactly
 * the crate's bytes (map kinds and key order as serde writes them); readers accept definite or
 * indefinite maps and arrays and keys in any order, each key exactly once, no unknown keys, no
 * trailing bytes, and check every value as the binary readers do (points on the curve and in
 * their subgroup, parameter ranges, zero leaves or total stake refused).
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "stm/cbor.h"
#include "stm/stm_internal.h"

/* ---- parameters --------------------------------------------------------------------------- */

void stm_cbor_params_write(stm_cbor_buf *b, const grove_stm_params *p)
{
    stm_cbor_head(b, 5, 3);
    stm_cbor_text(b, "m");
    stm_cbor_uint(b, p->m);
    stm_cbor_text(b, "k");
    stm_cbor_uint(b, p->k);
    stm_cbor_text(b, "phi_f");
    stm_cbor_f64(b, p->phi_f);
}

/* STM_MAX_INDEXES as a size_t: 2^32 does not fit a 32-bit size_t (SIZE_MAX there). */
#define MAX_INDEXES_SIZE (STM_MAX_INDEXES > SIZE_MAX ? SIZE_MAX : (size_t)STM_MAX_INDEXES)

static int params_field(stm_cbor_in *c, size_t idx, void *arg)
{
    grove_stm_params *p = arg;
    return idx == 0   ? stm_cbor_read_uint(c, &p->m)
           : idx == 1 ? stm_cbor_read_uint(c, &p->k)
                      : stm_cbor_read_f64(c, &p->phi_f);
}

int stm_cbor_params_read(stm_cbor_in *c, grove_stm_params *p)
{
    static const char *const names[] = {"m", "k", "phi_f"};
    int rc = stm_cbor_read_struct(c, names, 3, params_field, p);
    if (rc == GROVE_OK && grove_stm_params_check(p) != GROVE_OK)
        rc = GROVE_ERR_ENCODING; /* a malformed parameter object, as the binary reader says */
    return rc;
}

grove_status grove_stm_params_to_cbor(const grove_stm_params *params, uint8_t *out,
                                      size_t out_cap, size_t *out_len)
{
    if (params == NULL || out_len == NULL || (out == NULL && out_cap))
        return GROVE_ERR_INVALID_ARG;
    if (grove_stm_params_check(params) != GROVE_OK)
        return GROVE_ERR_INVALID_ARG;
    stm_cbor_buf b = {0};
    stm_cbor_raw(&b, "\x01", 1);
    stm_cbor_params_write(&b, params);
    return (grove_status)stm_cbor_finish(&b, out, out_cap, out_len);
}

grove_status grove_stm_params_from_cbor(grove_stm_params *params, const uint8_t *in,
                                        size_t in_len)
{
    if (params == NULL || (in == NULL && in_len))
        return GROVE_ERR_INVALID_ARG;
    stm_cbor_in c;
    grove_stm_params p;
    int rc = stm_cbor_open(&c, in, in_len);
    if (rc == GROVE_OK)
        rc = stm_cbor_params_read(&c, &p);
    if (rc == GROVE_OK && !stm_cbor_done(&c))
        rc = GROVE_ERR_ENCODING;
    if (rc == GROVE_OK)
        *params = p;
    return (grove_status)rc;
}

/* ---- AVK ---------------------------------------------------------------------------------- */

grove_status grove_stm_avk_to_cbor(const grove_stm_avk *avk, uint8_t *out, size_t out_cap,
                                   size_t *out_len)
{
    if (avk == NULL || out_len == NULL || (out == NULL && out_cap))
        return GROVE_ERR_INVALID_ARG;
    stm_cbor_buf b = {0};
    stm_cbor_raw(&b, "\x01", 1);
    stm_cbor_head(&b, 5, 2);
    stm_cbor_text(&b, "mt_commitment");
    stm_cbor_head(&b, 5, 3);
    stm_cbor_text(&b, "root");
    stm_cbor_byte_array(&b, avk->root, GROVE_STM_ROOT_BYTES);
    stm_cbor_text(&b, "nr_leaves");
    stm_cbor_uint(&b, avk->nr_leaves);
    stm_cbor_text(&b, "hasher");
    stm_cbor_null(&b);
    stm_cbor_text(&b, "total_stake");
    stm_cbor_uint(&b, avk->total_stake);
    return (grove_status)stm_cbor_finish(&b, out, out_cap, out_len);
}

static int commitment_field(stm_cbor_in *c, size_t idx, void *arg)
{
    grove_stm_avk *a = arg;
    return idx == 0   ? stm_cbor_read_byte_array(c, a->root, GROVE_STM_ROOT_BYTES)
           : idx == 1 ? stm_cbor_read_uint(c, &a->nr_leaves)
                      : stm_cbor_read_null(c);
}

static int avk_field(stm_cbor_in *c, size_t idx, void *arg)
{
    static const char *const names[] = {"root", "nr_leaves", "hasher"};
    grove_stm_avk *a = arg;
    return idx == 0 ? stm_cbor_read_struct(c, names, 3, commitment_field, a)
                    : stm_cbor_read_uint(c, &a->total_stake);
}

grove_status grove_stm_avk_from_cbor(grove_stm_avk *avk, const uint8_t *in, size_t in_len)
{
    static const char *const names[] = {"mt_commitment", "total_stake"};
    if (avk == NULL || (in == NULL && in_len))
        return GROVE_ERR_INVALID_ARG;
    stm_cbor_in c;
    grove_stm_avk a;
    int rc = stm_cbor_open(&c, in, in_len);
    if (rc == GROVE_OK)
        rc = stm_cbor_read_struct(&c, names, 2, avk_field, &a);
    if (rc == GROVE_OK && !stm_cbor_done(&c))
        rc = GROVE_ERR_ENCODING;
    /* the binary reader's checks: zero leaves or zero total stake is no AVK */
    if (rc == GROVE_OK &&
        (a.nr_leaves == 0 || a.nr_leaves > GROVE_STM_MAX_PARTIES || a.total_stake == 0))
        rc = GROVE_ERR_ENCODING;
    if (rc == GROVE_OK)
        *avk = a;
    return (grove_status)rc;
}

/* ---- single signature --------------------------------------------------------------------- */

void stm_cbor_sig_write(stm_cbor_buf *b, const grove_stm_sig *s)
{
    stm_cbor_raw(b, "\x01", 1);
    stm_cbor_indef_map(b); /* serde(flatten) makes it an indefinite map */
    stm_cbor_text(b, "sigma");
    stm_cbor_byte_array(b, s->sigma, GROVE_STM_SIGMA_BYTES);
    stm_cbor_text(b, "indexes");
    stm_cbor_head(b, 4, s->n_indexes);
    for (size_t i = 0; i < s->n_indexes; i++)
        stm_cbor_uint(b, s->indexes[i]);
    stm_cbor_text(b, "signer_index");
    stm_cbor_uint(b, s->signer_index);
    stm_cbor_break(b);
}

static int sig_field(stm_cbor_in *c, size_t idx, void *arg)
{
    grove_stm_sig *t = arg;
    return idx == 0   ? stm_cbor_read_byte_array(c, t->sigma, GROVE_STM_SIGMA_BYTES)
           : idx == 1 ? stm_cbor_read_u64_list(c, &t->indexes, &t->n_indexes, MAX_INDEXES_SIZE)
                      : stm_cbor_read_uint(c, &t->signer_index);
}

int stm_cbor_sig_parse(stm_cbor_in *c, void *arg)
{
    static const char *const names[] = {"sigma", "indexes", "signer_index"};
    grove_stm_sig *sig = arg, t;
    memset(&t, 0, sizeof t);
    int rc = stm_cbor_read_struct(c, names, 3, sig_field, &t);
    if (rc != GROVE_OK) {
        free(t.indexes);
        return rc;
    }
    if (t.indexes == NULL && (t.indexes = malloc(sizeof *t.indexes)) == NULL)
        return GROVE_ERR_NOMEM;
    *sig = t;
    return GROVE_OK;
}

int stm_cbor_sig_read(stm_cbor_in *c, void *arg)
{
    grove_stm_sig *sig = arg, t;
    int rc = stm_cbor_sig_parse(c, &t);
    if (rc != GROVE_OK)
        return rc;
    grove_bls_g1 pt;
    if (grove_bls_g1_from_bytes(&pt, t.sigma, GROVE_STM_SIGMA_BYTES, GROVE_BLS_NO_INFINITY) !=
        GROVE_OK) {
        grove_stm_sig_clear(&t);
        return GROVE_ERR_ENCODING;
    }
    *sig = t;
    return GROVE_OK;
}

grove_status grove_stm_sig_to_cbor(const grove_stm_sig *sig, uint8_t *out, size_t out_cap,
                                   size_t *out_len)
{
    if (sig == NULL || out_len == NULL || (out == NULL && out_cap) ||
        (sig->n_indexes && sig->indexes == NULL))
        return GROVE_ERR_INVALID_ARG;
    stm_cbor_buf b = {0};
    stm_cbor_sig_write(&b, sig);
    return (grove_status)stm_cbor_finish(&b, out, out_cap, out_len);
}

grove_status grove_stm_sig_from_cbor(grove_stm_sig *sig, const uint8_t *in, size_t in_len)
{
    if (sig == NULL || (in == NULL && in_len))
        return GROVE_ERR_INVALID_ARG;
    memset(sig, 0, sizeof *sig);
    stm_cbor_in c;
    grove_stm_sig t;
    int rc = stm_cbor_open(&c, in, in_len);
    if (rc == GROVE_OK)
        rc = stm_cbor_sig_read(&c, &t);
    if (rc == GROVE_OK && !stm_cbor_done(&c)) {
        grove_stm_sig_clear(&t);
        rc = GROVE_ERR_ENCODING;
    }
    if (rc == GROVE_OK)
        *sig = t;
    return (grove_status)rc;
}
