/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Mithril STM CBOR v1 readers (mithril-stm's to_bytes) on arbitrary bytes. Input: a selector
 * byte, then the encoding of (sel % 5) parameters, AVK, single signature, aggregate,
 * initializer. A reader either refuses (GROVE_ERR_ENCODING or GROVE_ERR_NOMEM; nothing is
 * returned) or returns an object whose CBOR the writer reproduces: written, read again and
 * written again gives the same bytes (the aggregate also through its other form). Bytes a CBOR
 * reader accepts are never accepted by the legacy binary reader of the same object.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "grove/stm.h"

static void refused(int rc)
{
    if (rc != GROVE_ERR_ENCODING && rc != GROVE_ERR_NOMEM)
        abort();
}

/* What the writer wrote, read and written again: the same bytes. */
static void same(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    if (alen != blen || memcmp(a, b, alen) != 0)
        abort();
}

static void params(const uint8_t *in, size_t len)
{
    grove_stm_params p, q;
    uint8_t out[64], out2[64];
    size_t n, n2;
    int rc = grove_stm_params_from_cbor(&p, in, len);
    if (rc != GROVE_OK) {
        refused(rc);
        return;
    }
    if (grove_stm_params_from_bytes(&q, in, len) == GROVE_OK)
        abort();
    if (grove_stm_params_to_cbor(&p, out, sizeof out, &n) != GROVE_OK ||
        grove_stm_params_from_cbor(&q, out, n) != GROVE_OK ||
        grove_stm_params_to_cbor(&q, out2, sizeof out2, &n2) != GROVE_OK)
        abort();
    same(out, n, out2, n2);
}

static void avk(const uint8_t *in, size_t len)
{
    grove_stm_avk a, b;
    uint8_t out[256], out2[256];
    size_t n, n2;
    int rc = grove_stm_avk_from_cbor(&a, in, len);
    if (rc != GROVE_OK) {
        refused(rc);
        return;
    }
    if (grove_stm_avk_from_bytes(&b, in, len) == GROVE_OK)
        abort();
    if (grove_stm_avk_to_cbor(&a, out, sizeof out, &n) != GROVE_OK ||
        grove_stm_avk_from_cbor(&b, out, n) != GROVE_OK ||
        grove_stm_avk_to_cbor(&b, out2, sizeof out2, &n2) != GROVE_OK)
        abort();
    same(out, n, out2, n2);
}

static void sig(const uint8_t *in, size_t len)
{
    grove_stm_sig s, t;
    int rc = grove_stm_sig_from_cbor(&s, in, len);
    if (rc != GROVE_OK) {
        refused(rc);
        if (s.indexes != NULL || s.n_indexes != 0)
            abort();
        return;
    }
    if (grove_stm_sig_from_bytes(&t, in, len) == GROVE_OK)
        abort();
    size_t cap = 64 + 9 * s.n_indexes + 2 * 48, n, n2;
    uint8_t *out = malloc(cap), *out2 = malloc(cap);
    if (out == NULL || out2 == NULL || grove_stm_sig_to_cbor(&s, out, cap, &n) != GROVE_OK ||
        grove_stm_sig_from_cbor(&t, out, n) != GROVE_OK ||
        grove_stm_sig_to_cbor(&t, out2, cap, &n2) != GROVE_OK)
        abort();
    same(out, n, out2, n2);
    free(out);
    free(out2);
    grove_stm_sig_clear(&s);
    grove_stm_sig_clear(&t);
}

static void aggregate(const uint8_t *in, size_t len)
{
    grove_stm_aggregate *a = NULL, *b = NULL;
    grove_stm_cbor_form form;
    int rc = grove_stm_aggregate_from_cbor(&a, &form, in, len);
    if (rc != GROVE_OK) {
        refused(rc);
        if (a != NULL)
            abort();
        return;
    }
    if (grove_stm_aggregate_from_bytes(&b, in, len) == GROVE_OK)
        abort();
    size_t n = 0, n2 = 0;
    if (grove_stm_aggregate_to_cbor(a, NULL, 0, &n, form) != GROVE_ERR_BUFFER_TOO_SMALL)
        abort();
    uint8_t *out = malloc(n), *out2 = malloc(n);
    if (out == NULL || out2 == NULL || grove_stm_aggregate_to_cbor(a, out, n, &n, form) ||
        grove_stm_aggregate_from_cbor(&b, NULL, out, n) != GROVE_OK ||
        grove_stm_aggregate_to_cbor(b, out2, n, &n2, form) != GROVE_OK)
        abort();
    same(out, n, out2, n2);
    /* the other form reads back to the same aggregate */
    grove_stm_aggregate_free(b);
    b = NULL;
    grove_stm_cbor_form other = form == GROVE_STM_CBOR_0_11 ? GROVE_STM_CBOR_0_12
                                                            : GROVE_STM_CBOR_0_11;
    size_t m = 0;
    if (grove_stm_aggregate_to_cbor(a, NULL, 0, &m, other) != GROVE_ERR_BUFFER_TOO_SMALL)
        abort();
    uint8_t *o3 = malloc(m ? m : 1);
    if (o3 == NULL || grove_stm_aggregate_to_cbor(a, o3, m, &m, other) != GROVE_OK ||
        grove_stm_aggregate_from_cbor(&b, NULL, o3, m) != GROVE_OK ||
        grove_stm_aggregate_to_cbor(b, out2, n, &n2, form) != GROVE_OK)
        abort();
    same(out, n, out2, n2);
    free(o3);
    free(out);
    free(out2);
    grove_stm_aggregate_free(a);
    grove_stm_aggregate_free(b);
}

static void initializer(const uint8_t *in, size_t len)
{
    grove_stm_params p, q;
    uint64_t stake, stake2;
    uint8_t sk[GROVE_STM_SK_BYTES], sk2[GROVE_STM_SK_BYTES];
    uint8_t vkpop[GROVE_STM_VKPOP_BYTES], vkpop2[GROVE_STM_VKPOP_BYTES];
    uint8_t out[2048];
    size_t n;
    int rc = grove_stm_initializer_from_cbor(&p, &stake, sk, vkpop, in, len);
    if (rc != GROVE_OK) {
        refused(rc);
        return;
    }
    if (grove_stm_initializer_to_cbor(&p, out, sizeof out, &n, stake, sk) != GROVE_OK ||
        grove_stm_initializer_from_cbor(&q, &stake2, sk2, vkpop2, out, n) != GROVE_OK ||
        stake2 != stake || memcmp(sk, sk2, sizeof sk) != 0 ||
        memcmp(vkpop, vkpop2, sizeof vkpop) != 0)
        abort();
    grove_wipe(sk, sizeof sk);
    grove_wipe(sk2, sizeof sk2);
    grove_wipe(out, sizeof out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    unsigned sel = fuzz_byte(&in) % 5;
    switch (sel) {
    case 0: params(in.p, in.left); break;
    case 1: avk(in.p, in.left); break;
    case 2: sig(in.p, in.left); break;
    case 3: aggregate(in.p, in.left); break;
    default: initializer(in.p, in.left); break;
    }
    return 0;
}
