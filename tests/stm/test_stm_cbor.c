/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * STM CBOR v1 (mithril-stm's to_bytes): round trips of every object on a real group (both
 * forms of the aggregate), the accepted variants (definite/indefinite containers, key order),
 * every refusal of the strict reader (heads, keys, types, values, trailing bytes, nested
 * envelopes), the 0.12.x value rules, the depth and length limits before allocation, and that
 * legacy bytes and CBOR are never taken for each other. The crate's own bytes are checked by
 * grove-vectors stm-cbor (ctest vectors_stm_cbor).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grove/stm.h"
#include "stm/cbor.h"
#include "test.h"

/* mithril-stm 0.11.3's Parameters::to_bytes of {m: 50, k: 5, phi_f: 0.2}. */
static const char PARAMS_HEX[] = "01a3616d1832616b05657068695f66fb3fc999999999999a";

static int params_hex(const char *hex, grove_stm_params *p)
{
    size_t len;
    uint8_t *b = test_unhex(hex, &len);
    int rc = grove_stm_params_from_cbor(p, b, len);
    free(b);
    return rc;
}

static void test_params(void)
{
    grove_stm_params p, q = {50, 5, 0.2};
    uint8_t out[64], want[24];
    size_t len = 0;
    CHECK_EQ_INT(params_hex(PARAMS_HEX, &p), GROVE_OK);
    CHECK(p.m == 50 && p.k == 5 && p.phi_f == 0.2);
    CHECK_EQ_INT(grove_stm_params_to_cbor(&q, out, sizeof out, &len), GROVE_OK);
    CHECK(test_unhex_into(want, sizeof want, PARAMS_HEX));
    CHECK_EQ_INT(len, 24);
    CHECK_MEM(out, want, 24);
    /* too small: nothing written, the size needed in out_len */
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(grove_stm_params_to_cbor(&q, out, 23, &len), GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(len, 24);
    CHECK_EQ_INT(out[0], 0xaa);
    /* accepted variants: keys in another order, an indefinite map, m as a 4-byte head */
    CHECK_EQ_INT(params_hex("01a3616b05616d1832657068695f66fb3fc999999999999a", &p), GROVE_OK);
    CHECK(p.m == 50 && p.k == 5);
    CHECK_EQ_INT(params_hex("01bf616d1832616b05657068695f66fb3fc999999999999aff", &p), GROVE_OK);
    CHECK_EQ_INT(params_hex("01a3616d1a00010000616b05657068695f66fb3fc999999999999a", &p),
                 GROVE_OK);
    CHECK(p.m == 65536);
    static const char *const bad[] = {
        "01a3616d1805616b05657068695f66fb3fc999999999999a",   /* m = 5 in a 1-byte head    */
        "01a3616d190032616b05657068695f66fb3fc999999999999a", /* m in a 2-byte head         */
        "01a2616d1832616b05",                                 /* phi_f missing              */
        "01a4616d1832616b05657068695f66fb3fc999999999999a616d01", /* m twice               */
        "01a4616d1832616b05657068695f66fb3fc999999999999a6178f6", /* unknown key "x"        */
        "01a3616d1832616b05657068695f66fa3e4ccccd",           /* phi_f as float32           */
        "01a3616d1832616b05657068695f6601",                   /* phi_f as an integer        */
        "01a3616d20616b05657068695f66fb3fc999999999999a",     /* m negative                 */
        "01a3616dc21832616b05657068695f66fb3fc999999999999a", /* a tag                      */
        "01a3616d1832616b05657068695f66fb3fc999999999999a00", /* a trailing byte            */
        "01a3616d1832616b05657068695f66fb3fc999999999999a01", /* a trailing 0x01            */
        "01a3616d1832616b05657068695f66fb0000000000000000",   /* phi_f = 0                  */
        "01a3616d1832616b05657068695f66fbbfc999999999999a",   /* phi_f = -0.2               */
        "01a3616d1832616b05657068695f66fb3ff0000000000001",   /* phi_f just above 1         */
        "01a3616d1832616b05657068695f66fb7ff8000000000000",   /* phi_f NaN                  */
        "01a3616d1832616b1833657068695f66fb3fc999999999999a", /* k = 51 > m                 */
        "01a3616d00616b00657068695f66fb3fc999999999999a",     /* m = 0                      */
        "01a37f616dff1832616b05657068695f66fb3fc999999999999a", /* indefinite text key      */
        "01a3616d1c616b05657068695f66fb3fc999999999999a",     /* reserved head 28           */
        "01bf616d1832616b05657068695f66fb3fc999999999999a",   /* indefinite map, no break   */
        "02a3616d1832616b05657068695f66fb3fc999999999999a",   /* version 2                  */
        "a3616d1832616b05657068695f66fb3fc999999999999a",     /* no version byte            */
        "01",
        "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = params_hex(bad[i], &p);
        if (rc != GROVE_ERR_ENCODING)
            fprintf(stderr, "accepted or wrong status %d: %s\n", rc, bad[i]);
        CHECK_EQ_INT(rc, GROVE_ERR_ENCODING);
    }
    /* phi_f = 1 (0.12.x: (0, 1]) is a parameter set */
    CHECK_EQ_INT(params_hex("01a3616d1832616b05657068695f66fb3ff0000000000000", &p), GROVE_OK);
    /* legacy bytes are not CBOR, and this 24-byte CBOR is no legacy parameter set */
    grove_stm_params_to_bytes(&q, want);
    CHECK_EQ_INT(grove_stm_params_from_cbor(&p, want, 24), GROVE_ERR_ENCODING);
    CHECK(test_unhex_into(want, sizeof want, PARAMS_HEX));
    CHECK_EQ_INT(grove_stm_params_from_bytes(&p, want, 24), GROVE_ERR_ENCODING);
    /* writing refuses parameters out of range */
    q.phi_f = 1.5;
    CHECK_EQ_INT(grove_stm_params_to_cbor(&q, out, sizeof out, &len), GROVE_ERR_INVALID_ARG);
}

/* ---- a real group ------------------------------------------------------------------------- */

#define NP 4
typedef struct group {
    grove_stm_params params;
    uint8_t sk[NP][GROVE_STM_SK_BYTES];
    grove_stm_closed *closed;
    grove_stm_avk avk;
    grove_stm_sig sigs[NP];
    size_t n_sigs;
    grove_stm_aggregate *agg;
} group;

static const uint8_t MSG[] = "epoch 42";

static void group_make(group *g)
{
    memset(g, 0, sizeof *g);
    g->params = (grove_stm_params){100, 5, 0.5};
    grove_stm_keyreg *reg = NULL;
    CHECK_EQ_INT(grove_stm_keyreg_new(&reg), GROVE_OK);
    for (int i = 0; i < NP; i++) {
        uint8_t seed[32], vkpop[GROVE_STM_VKPOP_BYTES];
        memset(seed, 0x30 + i, sizeof seed);
        CHECK_EQ_INT(grove_stm_keygen(vkpop, g->sk[i], seed), GROVE_OK);
        CHECK_EQ_INT(grove_stm_keyreg_add(reg, 100 + 50 * (uint64_t)i, vkpop), GROVE_OK);
    }
    CHECK_EQ_INT(grove_stm_keyreg_close(reg, &g->closed), GROVE_OK);
    grove_stm_keyreg_free(reg);
    grove_stm_closed_avk(g->closed, &g->avk);
    for (int i = 0; i < NP; i++) {
        grove_stm_signer *s = NULL;
        CHECK_EQ_INT(grove_stm_signer_new(&g->params, &s, g->sk[i], g->closed), GROVE_OK);
        if (grove_stm_sign(s, &g->sigs[g->n_sigs], MSG, sizeof MSG) == GROVE_OK)
            g->n_sigs++;
        grove_stm_signer_free(s);
    }
    CHECK_EQ_INT(grove_stm_aggregate_new(&g->params, &g->agg, NULL, g->sigs, g->n_sigs, MSG,
                                         sizeof MSG, g->closed, 1),
                 GROVE_OK);
}

static void group_free(group *g)
{
    for (size_t i = 0; i < g->n_sigs; i++)
        grove_stm_sig_clear(&g->sigs[i]);
    grove_stm_aggregate_free(g->agg);
    grove_stm_closed_free(g->closed);
    grove_wipe(g->sk, sizeof g->sk);
}

static void test_avk(const group *g)
{
    uint8_t out[256], legacy[GROVE_STM_AVK_BYTES];
    size_t len;
    grove_stm_avk a;
    CHECK_EQ_INT(grove_stm_avk_to_cbor(&g->avk, out, sizeof out, &len), GROVE_OK);
    CHECK_EQ_INT(grove_stm_avk_from_cbor(&a, out, len), GROVE_OK);
    CHECK(memcmp(&a.root, g->avk.root, 32) == 0 && a.nr_leaves == g->avk.nr_leaves &&
          a.total_stake == g->avk.total_stake);
    /* legacy and CBOR are never taken for each other */
    grove_stm_avk_to_bytes(&g->avk, legacy);
    CHECK_EQ_INT(grove_stm_avk_from_cbor(&a, legacy, sizeof legacy), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_stm_avk_from_bytes(&a, out, len), GROVE_ERR_ENCODING);
    /* zero total stake and zero leaves are refused (0.12.x: ZeroTotalStake) */
    grove_stm_avk z = g->avk;
    z.total_stake = 0;
    CHECK_EQ_INT(grove_stm_avk_to_cbor(&z, out, sizeof out, &len), GROVE_OK);
    CHECK_EQ_INT(grove_stm_avk_from_cbor(&a, out, len), GROVE_ERR_ENCODING);
    z = g->avk;
    z.nr_leaves = 0;
    CHECK_EQ_INT(grove_stm_avk_to_cbor(&z, out, sizeof out, &len), GROVE_OK);
    CHECK_EQ_INT(grove_stm_avk_from_cbor(&a, out, len), GROVE_ERR_ENCODING);
    /* hasher must be null; a root of 31 bytes is refused */
    CHECK_EQ_INT(grove_stm_avk_to_cbor(&g->avk, out, sizeof out, &len), GROVE_OK);
    for (size_t i = 0; i + 7 < len; i++)
        if (memcmp(out + i, "\x66hasher\xf6", 8) == 0)
            out[i + 7] = 0xf5; /* true */
    CHECK_EQ_INT(grove_stm_avk_from_cbor(&a, out, len), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_stm_avk_to_cbor(&g->avk, out, sizeof out, &len), GROVE_OK);
    for (size_t i = 0; i + 6 < len; i++)
        if (memcmp(out + i, "\x64root\x98\x20", 7) == 0)
            out[i + 6] = 0x1f;
    CHECK_EQ_INT(grove_stm_avk_from_cbor(&a, out, len), GROVE_ERR_ENCODING);
}

static void test_sig(const group *g)
{
    const grove_stm_sig *s = &g->sigs[0];
    uint8_t out[4096], again[4096];
    size_t len, len2;
    grove_stm_sig t;
    CHECK_EQ_INT(grove_stm_sig_to_cbor(s, out, sizeof out, &len), GROVE_OK);
    CHECK_EQ_INT(out[1], 0xbf); /* an indefinite map, as serde(flatten) writes it */
    CHECK_EQ_INT(out[len - 1], 0xff);
    CHECK_EQ_INT(grove_stm_sig_from_cbor(&t, out, len), GROVE_OK);
    CHECK(t.n_indexes == s->n_indexes && t.signer_index == s->signer_index &&
          memcmp(t.sigma, s->sigma, 48) == 0 &&
          memcmp(t.indexes, s->indexes, 8 * s->n_indexes) == 0);
    CHECK_EQ_INT(grove_stm_sig_verify(&g->params, &t, MSG, sizeof MSG, g->closed), GROVE_OK);
    grove_stm_sig_clear(&t);
    /* a definite map is read too and written back as the crate writes it */
    memcpy(again, out, len);
    again[1] = 0xa3;
    CHECK_EQ_INT(grove_stm_sig_from_cbor(&t, again, len - 1), GROVE_OK);
    CHECK_EQ_INT(grove_stm_sig_to_cbor(&t, again, sizeof again, &len2), GROVE_OK);
    CHECK(len2 == len && memcmp(again, out, len) == 0);
    grove_stm_sig_clear(&t);
    /* an indefinite sigma array (0x9f ... 0xff) is read */
    memcpy(again, out, len);
    CHECK(memcmp(out + 8, "\x98\x30", 2) == 0); /* 01 bf 65 "sigma" 98 30 */
    memmove(again + 9, out + 10, len - 10);
    again[8] = 0x9f;
    size_t end = 9;
    for (int i = 0; i < 48; i++)
        end += again[end] == 0x18 ? 2 : 1;
    memmove(again + end + 1, again + end, len - 1 - end);
    again[end] = 0xff;
    CHECK_EQ_INT(grove_stm_sig_from_cbor(&t, again, len), GROVE_OK);
    CHECK(memcmp(t.sigma, s->sigma, 48) == 0);
    grove_stm_sig_clear(&t);
    /* a sigma that is not a G1 point, a short sigma, a trailing byte: refused, nothing kept */
    memcpy(again, out, len);
    CHECK_EQ_INT(again[10], 0x18); /* a compressed point's first byte is >= 0x80 */
    again[11] = 0x20;              /* no compression flag: not a point encoding   */
    memset(&t, 0x55, sizeof t);
    int rc = grove_stm_sig_from_cbor(&t, again, len);
    CHECK(rc == GROVE_ERR_ENCODING && t.indexes == NULL && t.n_indexes == 0);
    memcpy(again, out, len);
    again[9] = 0x2f;
    CHECK_EQ_INT(grove_stm_sig_from_cbor(&t, again, len), GROVE_ERR_ENCODING);
    memcpy(again, out, len);
    again[len] = 0x00;
    CHECK_EQ_INT(grove_stm_sig_from_cbor(&t, again, len + 1), GROVE_ERR_ENCODING);
    /* legacy bytes are not read as CBOR, nor CBOR as legacy bytes */
    CHECK_EQ_INT(grove_stm_sig_to_bytes(s, again, sizeof again, &len2), GROVE_OK);
    CHECK_EQ_INT(grove_stm_sig_from_cbor(&t, again, len2), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_stm_sig_from_bytes(&t, out, len), GROVE_ERR_ENCODING);
}

/* Finds the first occurrence of key (a CBOR text head and its bytes) in b; -1 if none. */
static long find(const uint8_t *b, size_t len, const char *key, size_t klen)
{
    for (size_t i = 0; i + klen <= len; i++)
        if (memcmp(b + i, key, klen) == 0)
            return (long)i;
    return -1;
}

static void test_aggregate(const group *g)
{
    size_t cap = 1 << 16, len11, len12, len;
    uint8_t *a11 = malloc(cap), *a12 = malloc(cap), *b = malloc(cap);
    grove_stm_aggregate *x = NULL;
    grove_stm_cbor_form form;
    CHECK(a11 && a12 && b);
    CHECK_EQ_INT(grove_stm_aggregate_to_cbor(g->agg, a11, cap, &len11, GROVE_STM_CBOR_0_11),
                 GROVE_OK);
    CHECK_EQ_INT(grove_stm_aggregate_to_cbor(g->agg, a12, cap, &len12, GROVE_STM_CBOR_0_12),
                 GROVE_OK);
    CHECK(len12 < len11); /* a byte string: one byte per byte */
    CHECK_EQ_INT(grove_stm_aggregate_to_cbor(g->agg, a11, cap, &len, (grove_stm_cbor_form)2),
                 GROVE_ERR_INVALID_ARG);
    /* both forms read back to the same aggregate, which verifies */
    for (int f = 0; f < 2; f++) {
        CHECK_EQ_INT(grove_stm_aggregate_from_cbor(&x, &form, f ? a12 : a11, f ? len12 : len11),
                     GROVE_OK);
        CHECK_EQ_INT(form, f ? GROVE_STM_CBOR_0_12 : GROVE_STM_CBOR_0_11);
        CHECK_EQ_INT(grove_stm_aggregate_verify(&g->params, x, MSG, sizeof MSG, &g->avk),
                     GROVE_OK);
        CHECK_EQ_INT(grove_stm_aggregate_to_cbor(x, b, cap, &len, GROVE_STM_CBOR_0_11), GROVE_OK);
        CHECK(len == len11 && memcmp(b, a11, len) == 0);
        grove_stm_aggregate_free(x);
        x = NULL;
    }
    /* too small: the size needed */
    CHECK_EQ_INT(grove_stm_aggregate_to_cbor(g->agg, b, len11 - 1, &len, GROVE_STM_CBOR_0_11),
                 GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(len, len11);
    /* signature_type 1 (no other proof system exists here) */
    memcpy(b, a12, len12);
    long t = find(b, len12, "\x6esignature_type\x00", 16);
    CHECK(t > 0);
    b[t + 15] = 0x01;
    CHECK_EQ_INT(grove_stm_aggregate_from_cbor(&x, NULL, b, len12), GROVE_ERR_ENCODING);
    CHECK(x == NULL);
    /* the nested proof without its 0x01 prefix, or with 0x02 */
    memcpy(b, a12, len12);
    long pb = find(b, len12, "\x6bproof_bytes", 12);
    CHECK(pb > 0);
    size_t body = (size_t)pb + 12 + (b[pb + 12] == 0x59 ? 3 : 2);
    CHECK_EQ_INT(b[body], 0x01);
    b[body] = 0x02;
    CHECK_EQ_INT(grove_stm_aggregate_from_cbor(&x, NULL, b, len12), GROVE_ERR_ENCODING);
    /* every truncation and every single-byte flip of the 0.12 form: refused or a re-encoding
     * of exactly those bytes (no crash, nothing leaked: the ASan build checks) */
    for (size_t n = 0; n < len12; n += 7)
        CHECK_EQ_INT(grove_stm_aggregate_from_cbor(&x, NULL, a12, n), GROVE_ERR_ENCODING);
    for (size_t i = 0; i < len12; i += 3) {
        memcpy(b, a12, len12);
        b[i] ^= 0xff;
        int rc = grove_stm_aggregate_from_cbor(&x, &form, b, len12);
        CHECK(rc == GROVE_ERR_ENCODING || rc == GROVE_OK);
        if (rc == GROVE_OK) {
            uint8_t *c = malloc(cap);
            CHECK(c && grove_stm_aggregate_to_cbor(x, c, cap, &len, form) == GROVE_OK &&
                  len == len12 && memcmp(c, b, len) == 0);
            free(c);
            grove_stm_aggregate_free(x);
            x = NULL;
        }
    }
    /* legacy bytes (first byte 0x00) are no CBOR; CBOR is no legacy aggregate */
    CHECK_EQ_INT(grove_stm_aggregate_to_bytes(g->agg, b, cap, &len), GROVE_OK);
    CHECK_EQ_INT(b[0], 0x00);
    CHECK_EQ_INT(grove_stm_aggregate_from_cbor(&x, NULL, b, len), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_stm_aggregate_from_bytes(&x, a11, len11), GROVE_ERR_ENCODING);
    CHECK(x == NULL);
    free(a11);
    free(a12);
    free(b);
}

static void test_initializer(const group *g)
{
    uint8_t out[1024], sk[32], vkpop[GROVE_STM_VKPOP_BYTES], want[GROVE_STM_VKPOP_BYTES];
    uint8_t other[1024];
    size_t len, len2;
    grove_stm_params p;
    uint64_t stake;
    CHECK_EQ_INT(grove_stm_initializer_to_cbor(&g->params, out, sizeof out, &len, 777, g->sk[1]),
                 GROVE_OK);
    CHECK_EQ_INT(grove_stm_initializer_from_cbor(&p, &stake, sk, vkpop, out, len), GROVE_OK);
    CHECK_EQ_INT(grove_stm_vkpop_from_sk(want, g->sk[1]), GROVE_OK);
    CHECK(stake == 777 && p.m == g->params.m && p.k == g->params.k &&
          p.phi_f == g->params.phi_f && memcmp(sk, g->sk[1], 32) == 0 &&
          memcmp(vkpop, want, sizeof want) == 0);
    /* another key's vk + PoP under this secret key: refused, outputs untouched */
    stm_cbor_buf b = {0};
    stm_cbor_raw(&b, "\x01", 1);
    stm_cbor_head(&b, 5, 4);
    stm_cbor_text(&b, "stake");
    stm_cbor_uint(&b, 777);
    stm_cbor_text(&b, "params");
    stm_cbor_params_write(&b, &g->params);
    stm_cbor_text(&b, "sk");
    stm_cbor_byte_array(&b, g->sk[1], 32);
    stm_cbor_text(&b, "pk");
    stm_cbor_head(&b, 5, 2);
    CHECK_EQ_INT(grove_stm_vkpop_from_sk(want, g->sk[2]), GROVE_OK);
    stm_cbor_text(&b, "vk");
    stm_cbor_byte_array(&b, want, 96);
    stm_cbor_text(&b, "pop");
    stm_cbor_byte_array(&b, want + 96, 96);
    CHECK_EQ_INT(stm_cbor_finish(&b, out, sizeof out, &len), GROVE_OK);
    memset(sk, 0x77, sizeof sk);
    int rc = grove_stm_initializer_from_cbor(&p, &stake, sk, vkpop, out, len);
    CHECK_EQ_INT(rc, GROVE_ERR_ENCODING);
    CHECK(sk[0] == 0x77 && sk[31] == 0x77);
    /* the same with the right vk + PoP is read (the builder above is the crate's shape) */
    CHECK_EQ_INT(grove_stm_initializer_to_cbor(&g->params, other, sizeof other, &len2, 777,
                                               g->sk[1]), GROVE_OK);
    CHECK_EQ_INT(grove_stm_initializer_from_cbor(&p, &stake, sk, vkpop, other, len2), GROVE_OK);
    /* a bad secret key (0) is refused when writing */
    uint8_t zero[32] = {0};
    CHECK(grove_stm_initializer_to_cbor(&g->params, out, sizeof out, &len, 1, zero) != GROVE_OK);
    grove_wipe(out, sizeof out);
    grove_wipe(other, sizeof other);
    grove_wipe(sk, sizeof sk);
}

/* ---- an aggregate built by hand, in variants ---------------------------------------------- */

enum {
    V_CRATE,        /* the crate's 0.11.3 shape: must equal grove's writer              */
    V_LOOSE,        /* indefinite maps and arrays, keys reversed: read, same aggregate   */
    V_INNER_BSTR,   /* an inner nested field (signature_bytes) as a byte string: refused */
    V_NO_PREFIX,    /* a nested single signature without its 0x01: refused              */
    V_NO_ENTRY,     /* a signature without its registration entry: refused              */
    V_NO_SIGS,      /* an empty signature list: refused                                 */
    V_HASHER,       /* the batch proof's hasher not null: refused                       */
    V_COUNT
};

static uint64_t be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static void map_open(stm_cbor_buf *b, size_t n, int loose)
{
    if (loose)
        stm_cbor_indef_map(b);
    else
        stm_cbor_head(b, 5, n);
}

static void byte_arr(stm_cbor_buf *b, const uint8_t *p, size_t n, int loose)
{
    if (!loose) {
        stm_cbor_byte_array(b, p, n);
        return;
    }
    stm_cbor_raw(b, "\x9f", 1);
    for (size_t i = 0; i < n; i++)
        stm_cbor_uint(b, p[i]);
    stm_cbor_break(b);
}

static void nest(stm_cbor_buf *b, stm_cbor_buf *in, int bstr, int loose)
{
    if (bstr)
        stm_cbor_bstr(b, in->p, in->len);
    else
        byte_arr(b, in->p, in->len, loose);
    stm_cbor_buf_free(in);
}

static void sig_reg(stm_cbor_buf *b, const group *g, size_t i, int v)
{
    const grove_stm_sig *s;
    uint8_t vk[GROVE_STM_VK_BYTES];
    uint64_t stake;
    int loose = v == V_LOOSE;
    CHECK_EQ_INT(grove_stm_aggregate_get(g->agg, &s, vk, &stake, i), GROVE_OK);
    stm_cbor_buf sig = {0}, entry = {0}, one = {0};
    if (v != V_NO_PREFIX)
        stm_cbor_raw(&sig, "\x01", 1);
    stm_cbor_indef_map(&sig);
    stm_cbor_text(&sig, "sigma");
    byte_arr(&sig, s->sigma, 48, loose);
    stm_cbor_text(&sig, "indexes");
    stm_cbor_head(&sig, 4, s->n_indexes);
    for (size_t k = 0; k < s->n_indexes; k++)
        stm_cbor_uint(&sig, s->indexes[k]);
    stm_cbor_text(&sig, "signer_index");
    stm_cbor_uint(&sig, s->signer_index);
    stm_cbor_break(&sig);
    stm_cbor_raw(&entry, "\x01", 1);
    map_open(&entry, 2, loose);
    stm_cbor_text(&entry, "verification_key_bytes");
    byte_arr(&entry, vk, 96, loose);
    stm_cbor_text(&entry, "stake");
    stm_cbor_uint(&entry, stake);
    if (loose)
        stm_cbor_break(&entry);
    stm_cbor_raw(&one, "\x01", 1);
    map_open(&one, v == V_NO_ENTRY ? 1 : 2, loose);
    if (loose) { /* keys reversed */
        stm_cbor_text(&one, "registration_entry_bytes");
        nest(&one, &entry, 0, 1);
        stm_cbor_text(&one, "signature_bytes");
        nest(&one, &sig, 0, 1);
        stm_cbor_break(&one);
    } else {
        stm_cbor_text(&one, "signature_bytes");
        nest(&one, &sig, v == V_INNER_BSTR, 0);
        if (v != V_NO_ENTRY) {
            stm_cbor_text(&one, "registration_entry_bytes");
            nest(&one, &entry, 0, 0);
        }
        stm_cbor_buf_free(&entry);
    }
    nest(b, &one, 0, loose);
}

/* The batch path from the legacy encoding (after the signatures). */
static void batch(stm_cbor_buf *b, const group *g, int v)
{
    size_t cap = 1 << 16, len, pos = 9;
    uint8_t *leg = malloc(cap);
    CHECK(leg && grove_stm_aggregate_to_bytes(g->agg, leg, cap, &len) == GROVE_OK);
    for (uint64_t i = 0; i < be64(leg + 1); i++)
        pos += 8 + (size_t)be64(leg + pos);
    uint64_t nv = be64(leg + pos), ni = be64(leg + pos + 8);
    pos += 16;
    int loose = v == V_LOOSE;
    stm_cbor_raw(b, "\x01", 1);
    map_open(b, 3, loose);
    if (loose) {
        stm_cbor_text(b, "hasher");
        stm_cbor_null(b);
    }
    stm_cbor_text(b, "values");
    if (loose)
        stm_cbor_raw(b, "\x9f", 1);
    else
        stm_cbor_head(b, 4, nv);
    for (uint64_t i = 0; i < nv; i++)
        byte_arr(b, leg + pos + 32 * i, 32, loose);
    if (loose)
        stm_cbor_break(b);
    pos += 32 * (size_t)nv;
    stm_cbor_text(b, "indices");
    stm_cbor_head(b, 4, ni);
    for (uint64_t i = 0; i < ni; i++)
        stm_cbor_uint(b, be64(leg + pos + 8 * i));
    if (loose) {
        stm_cbor_break(b);
    } else {
        stm_cbor_text(b, "hasher");
        if (v == V_HASHER)
            stm_cbor_uint(b, 0);
        else
            stm_cbor_null(b);
    }
    free(leg);
}

static void build_agg(stm_cbor_buf *b, const group *g, int v)
{
    int loose = v == V_LOOSE;
    size_t n = v == V_NO_SIGS ? 0 : grove_stm_aggregate_count(g->agg);
    stm_cbor_buf proof = {0}, bp = {0};
    stm_cbor_raw(&proof, "\x01", 1);
    map_open(&proof, 2, loose);
    stm_cbor_text(&proof, "signature_bytes");
    if (loose)
        stm_cbor_raw(&proof, "\x9f", 1);
    else
        stm_cbor_head(&proof, 4, n);
    for (size_t i = 0; i < n; i++)
        sig_reg(&proof, g, i, v);
    if (loose)
        stm_cbor_break(&proof);
    stm_cbor_text(&proof, "batch_proof_bytes");
    batch(&bp, g, v);
    nest(&proof, &bp, 0, loose);
    if (loose)
        stm_cbor_break(&proof);
    stm_cbor_raw(b, "\x01", 1);
    map_open(b, 2, loose);
    if (loose) {
        stm_cbor_text(b, "proof_bytes");
        nest(b, &proof, 0, 1);
        stm_cbor_text(b, "signature_type");
        stm_cbor_uint(b, 0);
        stm_cbor_break(b);
    } else {
        stm_cbor_text(b, "signature_type");
        stm_cbor_uint(b, 0);
        stm_cbor_text(b, "proof_bytes");
        nest(b, &proof, 0, 0);
    }
}

static void test_aggregate_variants(const group *g)
{
    size_t cap = 1 << 17, len, glen;
    uint8_t *out = malloc(cap), *mine = malloc(cap);
    CHECK(out && mine);
    CHECK_EQ_INT(grove_stm_aggregate_to_cbor(g->agg, mine, cap, &glen, GROVE_STM_CBOR_0_11),
                 GROVE_OK);
    for (int v = 0; v < V_COUNT; v++) {
        stm_cbor_buf b = {0};
        grove_stm_aggregate *x = NULL;
        build_agg(&b, g, v);
        CHECK_EQ_INT(stm_cbor_finish(&b, out, cap, &len), GROVE_OK);
        int rc = grove_stm_aggregate_from_cbor(&x, NULL, out, len);
        if (v == V_CRATE)
            CHECK(len == glen && memcmp(out, mine, len) == 0);
        if (v == V_CRATE || v == V_LOOSE) {
            size_t l2 = 0;
            CHECK_EQ_INT(rc, GROVE_OK);
            CHECK(rc == GROVE_OK &&
                  grove_stm_aggregate_to_cbor(x, out, cap, &l2, GROVE_STM_CBOR_0_11) == GROVE_OK &&
                  l2 == glen && memcmp(out, mine, glen) == 0);
        } else {
            if (rc != GROVE_ERR_ENCODING)
                fprintf(stderr, "aggregate variant %d: status %d\n", v, rc);
            CHECK_EQ_INT(rc, GROVE_ERR_ENCODING);
            CHECK(x == NULL);
        }
        grove_stm_aggregate_free(x);
    }
    free(out);
    free(mine);
}

/* ---- the reader's limits ------------------------------------------------------------------ */

static int read_list(const char *hex, size_t max, size_t *n)
{
    size_t len;
    uint8_t *b = test_unhex(hex, &len);
    stm_cbor_in c;
    uint64_t *v = NULL;
    int rc = stm_cbor_open(&c, b, len);
    if (rc == GROVE_OK)
        rc = stm_cbor_read_u64_list(&c, &v, n, max);
    if (rc == GROVE_OK && !stm_cbor_done(&c))
        rc = GROVE_ERR_ENCODING;
    free(v);
    free(b);
    return rc;
}

static void test_limits(void)
{
    /* depth: 8 nested arrays open, the ninth is refused */
    uint8_t d[16] = {0x01};
    memset(d + 1, 0x81, 9);
    stm_cbor_in c;
    size_t count;
    CHECK_EQ_INT(stm_cbor_open(&c, d, 11), GROVE_OK);
    for (int i = 0; i < STM_CBOR_MAX_DEPTH; i++)
        CHECK_EQ_INT(stm_cbor_open_array(&c, &count, 16), GROVE_OK);
    CHECK_EQ_INT(stm_cbor_open_array(&c, &count, 16), GROVE_ERR_ENCODING);
    /* input size: refused before anything is read */
    CHECK_EQ_INT(stm_cbor_open(&c, d, (size_t)STM_CBOR_MAX_INPUT + 1), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(stm_cbor_open(&c, d, 1), GROVE_ERR_ENCODING);
    /* counts: more elements than bytes left, or than the maximum, before allocation */
    size_t n = 0;
    CHECK_EQ_INT(read_list("019affffffff00", 1u << 30, &n), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(read_list("019b000000010000000000", SIZE_MAX, &n), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(read_list("0183010203", 2, &n), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(read_list("0183010203", 3, &n), GROVE_OK);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(read_list("019f010203ff", 3, &n), GROVE_OK);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(read_list("019f01020304ff", 3, &n), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(read_list("019f010203", 8, &n), GROVE_ERR_ENCODING); /* no break */
    CHECK_EQ_INT(read_list("0180", 8, &n), GROVE_OK);
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(read_list("01811b0000000100000000", 8, &n), GROVE_OK);
    CHECK_EQ_INT(read_list("01811b00000000ffffffff", 8, &n), GROVE_ERR_ENCODING); /* long */
    CHECK_EQ_INT(read_list("01812001", 8, &n), GROVE_ERR_ENCODING);  /* negative */
    CHECK_EQ_INT(read_list("0181f6", 8, &n), GROVE_ERR_ENCODING);    /* null      */
    CHECK_EQ_INT(read_list("0181ff", 8, &n), GROVE_ERR_ENCODING);    /* a stray break */
    /* byte strings: the length is checked against the bytes left */
    size_t len;
    uint8_t *b = test_unhex("015a7fffffff00", &len), *out = NULL;
    int was = 0;
    CHECK_EQ_INT(stm_cbor_open(&c, b, len), GROVE_OK);
    CHECK_EQ_INT(stm_cbor_read_bytes(&c, &out, &n, SIZE_MAX, 1, &was), GROVE_ERR_ENCODING);
    CHECK(out == NULL);
    free(b);
    b = test_unhex("01430102ff", &len);
    CHECK_EQ_INT(stm_cbor_open(&c, b, len), GROVE_OK);
    CHECK_EQ_INT(stm_cbor_read_bytes(&c, &out, &n, 8, 0, &was), GROVE_ERR_ENCODING); /* not allowed */
    CHECK_EQ_INT(stm_cbor_open(&c, b, len), GROVE_OK);
    CHECK_EQ_INT(stm_cbor_read_bytes(&c, &out, &n, 8, 1, &was), GROVE_OK);
    CHECK(n == 3 && was == 1 && out[2] == 0xff);
    free(out);
    free(b);
    b = test_unhex("015f4101ff", &len); /* an indefinite byte string */
    CHECK_EQ_INT(stm_cbor_open(&c, b, len), GROVE_OK);
    CHECK_EQ_INT(stm_cbor_read_bytes(&c, &out, &n, 8, 1, &was), GROVE_ERR_ENCODING);
    free(b);
    /* a signature claiming 2^32 - 1 indexes in a short input: refused, nothing allocated */
    b = test_unhex("01bf67696e64657865739affffffff0102ff", &len);
    grove_stm_sig s;
    CHECK_EQ_INT(grove_stm_sig_from_cbor(&s, b, len), GROVE_ERR_ENCODING);
    free(b);
}

int main(void)
{
    group g;
    test_params();
    test_limits();
    group_make(&g);
    CHECK(g.n_sigs >= 2);
    test_avk(&g);
    test_sig(&g);
    test_aggregate(&g);
    test_aggregate_variants(&g);
    test_initializer(&g);
    group_free(&g);
    return test_done();
}
