/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Mithril STM binary decoders on arbitrary bytes. Input: a selector byte, then the encoding of
 * (sel % 5) parameters, AVK, single signature, aggregate, closed registration. A decoder
 * either refuses (GROVE_ERR_ENCODING, or GROVE_ERR_INVALID_ARG for parameter values) or
 * returns an object whose re-encoding is exactly the input (the layouts are canonical); the
 * JSON writer's output of a decoded object must read back to the same binary encoding.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "grove/stm.h"

static void refused(int rc, int allow_invalid_arg)
{
    if (rc == GROVE_ERR_ENCODING || rc == GROVE_ERR_NOMEM ||
        (allow_invalid_arg && rc == GROVE_ERR_INVALID_ARG))
        return;
    abort();
}

static void params(const uint8_t *in, size_t len)
{
    grove_stm_params p, q;
    uint8_t out[GROVE_STM_PARAMS_BYTES];
    int rc = grove_stm_params_from_bytes(&p, in, len);
    if (rc != GROVE_OK) {
        refused(rc, 1);
        return;
    }
    if (grove_stm_params_check(&p) != GROVE_OK)
        abort();
    grove_stm_params_to_bytes(&p, out);
    if (len != sizeof out || memcmp(out, in, len) != 0)
        abort();
    char *j = NULL;
    if (grove_stm_params_to_json(&p, &j) != GROVE_OK)
        abort();
    if (grove_stm_params_from_json(&q, j, strlen(j)) != GROVE_OK ||
        memcmp(&q.m, &p.m, 8) != 0 || memcmp(&q.k, &p.k, 8) != 0 ||
        memcmp(&q.phi_f, &p.phi_f, 8) != 0)
        abort();
    free(j);
}

static void avk(const uint8_t *in, size_t len)
{
    grove_stm_avk a, b;
    uint8_t out[GROVE_STM_AVK_BYTES], out2[GROVE_STM_AVK_BYTES];
    int rc = grove_stm_avk_from_bytes(&a, in, len);
    if (rc != GROVE_OK) {
        refused(rc, 0);
        return;
    }
    grove_stm_avk_to_bytes(&a, out);
    if (len != sizeof out || memcmp(out, in, len) != 0)
        abort();
    char *j = NULL;
    if (grove_stm_avk_to_json(&a, &j) != GROVE_OK || grove_stm_avk_from_json(&b, j, strlen(j)))
        abort();
    grove_stm_avk_to_bytes(&b, out2);
    if (memcmp(out, out2, sizeof out) != 0)
        abort();
    free(j);
}

static void sig(const uint8_t *in, size_t len)
{
    grove_stm_sig s, t;
    int rc = grove_stm_sig_from_bytes(&s, in, len);
    if (rc != GROVE_OK) {
        refused(rc, 0);
        if (s.indexes != NULL || s.n_indexes != 0)
            abort();
        return;
    }
    size_t n = grove_stm_sig_encoded_bytes(&s);
    uint8_t *out = malloc(n ? n : 1);
    if (n != len || out == NULL || grove_stm_sig_to_bytes(&s, out, n, &n) != GROVE_OK ||
        memcmp(out, in, len) != 0)
        abort();
    char *j = NULL;
    if (grove_stm_sig_to_json(&s, &j) != GROVE_OK || grove_stm_sig_from_json(&t, j, strlen(j)))
        abort();
    if (grove_stm_sig_encoded_bytes(&t) != n ||
        grove_stm_sig_to_bytes(&t, out, n, &n) != GROVE_OK || memcmp(out, in, len) != 0)
        abort();
    free(j);
    free(out);
    grove_stm_sig_clear(&s);
    grove_stm_sig_clear(&t);
}

static void aggregate(const uint8_t *in, size_t len)
{
    grove_stm_aggregate *a = NULL, *b = NULL;
    int rc = grove_stm_aggregate_from_bytes(&a, in, len);
    if (rc != GROVE_OK) {
        refused(rc, 0);
        if (a != NULL)
            abort();
        return;
    }
    size_t n = grove_stm_aggregate_encoded_bytes(a);
    uint8_t *out = malloc(n ? n : 1);
    if (n != len || out == NULL || grove_stm_aggregate_to_bytes(a, out, n, &n) != GROVE_OK ||
        memcmp(out, in, len) != 0)
        abort();
    char *j = NULL;
    if (grove_stm_aggregate_to_json(a, &j) != GROVE_OK ||
        grove_stm_aggregate_from_json(&b, j, strlen(j)) != GROVE_OK)
        abort();
    if (grove_stm_aggregate_encoded_bytes(b) != n ||
        grove_stm_aggregate_to_bytes(b, out, n, &n) != GROVE_OK || memcmp(out, in, len) != 0)
        abort();
    free(j);
    free(out);
    grove_stm_aggregate_free(a);
    grove_stm_aggregate_free(b);
}

static void closed(const uint8_t *in, size_t len)
{
    grove_stm_closed *c = NULL;
    int rc = grove_stm_closed_from_bytes(&c, in, len);
    if (rc != GROVE_OK) {
        refused(rc, 0);
        if (c != NULL)
            abort();
        return;
    }
    size_t n = grove_stm_closed_encoded_bytes(c);
    uint8_t *out = malloc(n ? n : 1);
    if (n != len || out == NULL || grove_stm_closed_to_bytes(c, out, n, &n) != GROVE_OK ||
        memcmp(out, in, len) != 0)
        abort();
    /* every entry is found again at its own index */
    for (uint64_t i = 0; i < grove_stm_closed_count(c); i++) {
        uint8_t vk[GROVE_STM_VK_BYTES];
        uint64_t stake, idx;
        if (grove_stm_closed_entry(c, vk, &stake, i) != GROVE_OK ||
            grove_stm_closed_find(c, &idx, vk) != GROVE_OK || idx != i)
            abort();
    }
    free(out);
    grove_stm_closed_free(c);
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
    default: closed(in.p, in.left); break;
    }
    return 0;
}
