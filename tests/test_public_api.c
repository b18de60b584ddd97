/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The public helper headers: grove/hash.h (incremental and one-shot digests), grove/json.h's
 * writer, grove/io.h's constant-time compare. Only public headers are included.
 */
#include <stdlib.h>
#include <string.h>

#include "grove/hash.h"
#include "grove/io.h"
#include "grove/json.h"
#include "grove/sig.h"
#include "test.h"

static const uint8_t abc[3] = {'a', 'b', 'c'};

static void hash_known_answers(void)
{
    uint8_t d[64], want[64];
    grove_sha256(d, abc, 3);
    CHECK(test_unhex_into(want, 32,
                          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    CHECK_MEM(d, want, 32);
    CHECK_EQ_INT(grove_hash(GROVE_HASH_SHA256, d, 32, abc, 3), GROVE_OK);
    CHECK_MEM(d, want, 32);
    CHECK(test_unhex_into(want, 32,
                          "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"));
    CHECK_EQ_INT(grove_hash(GROVE_HASH_SHA3_256, d, 32, abc, 3), GROVE_OK);
    CHECK_MEM(d, want, 32);
    CHECK(test_unhex_into(want, 32,
                          "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"));
    CHECK_EQ_INT(grove_hash(GROVE_HASH_SHAKE128, d, 32, NULL, 0), GROVE_OK);
    CHECK_MEM(d, want, 32);
}

/* Every algorithm: input in uneven pieces gives the one-shot digest. */
static void hash_incremental(void)
{
    uint8_t msg[1000];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 7 + 1);
    for (int a = GROVE_HASH_SHA224; a <= GROVE_HASH_SHAKE256; a++) {
        grove_hash_alg alg = (grove_hash_alg)a;
        size_t dl = grove_hash_digest_bytes(alg) ? grove_hash_digest_bytes(alg) : 100;
        uint8_t one[100], inc[100];
        CHECK_EQ_INT(grove_hash(alg, one, dl, msg, sizeof msg), GROVE_OK);
        grove_hash_ctx ctx;
        CHECK_EQ_INT(grove_hash_init(&ctx, alg), GROVE_OK);
        for (size_t off = 0, step = 1; off < sizeof msg; off += step, step = step * 3 + 1)
            grove_hash_update(&ctx, msg + off, step < sizeof msg - off ? step : sizeof msg - off);
        CHECK_EQ_INT(grove_hash_final(&ctx, inc, dl), GROVE_OK);
        CHECK_MEM(inc, one, dl);
        /* the name round-trips */
        grove_hash_alg back;
        CHECK(grove_hash_alg_name(alg) != NULL);
        CHECK_EQ_INT(grove_hash_alg_from_name(grove_hash_alg_name(alg), &back), GROVE_OK);
        CHECK_EQ_INT(back, alg);
    }
    /* one-shot named functions agree with grove_hash */
    uint8_t a[64], b[64];
    grove_sha512(a, msg, 77);
    CHECK_EQ_INT(grove_hash(GROVE_HASH_SHA512, b, 64, msg, 77), GROVE_OK);
    CHECK_MEM(a, b, 64);
    grove_shake256(a, 50, msg, 77);
    CHECK_EQ_INT(grove_hash(GROVE_HASH_SHAKE256, b, 50, msg, 77), GROVE_OK);
    CHECK_MEM(a, b, 50);
}

static void hash_refusals(void)
{
    grove_hash_ctx ctx;
    uint8_t d[64];
    grove_hash_alg alg;
    CHECK_EQ_INT(grove_hash_init(&ctx, (grove_hash_alg)99), GROVE_ERR_UNSUPPORTED);
    CHECK_EQ_INT(grove_hash_init(NULL, GROVE_HASH_SHA256), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_hash_alg_from_name("md5", &alg), GROVE_ERR_UNSUPPORTED);
    /* the common aliases of one name, in any case */
    static const struct {
        const char *name;
        grove_hash_alg alg;
    } aliases[] = {
        {"SHA-256", GROVE_HASH_SHA256},     {"sha-256", GROVE_HASH_SHA256},
        {"SHA2-256", GROVE_HASH_SHA256},    {"sha2_224", GROVE_HASH_SHA224},
        {"SHA384", GROVE_HASH_SHA384},      {"SHA-512", GROVE_HASH_SHA512},
        {"SHA3-256", GROVE_HASH_SHA3_256},  {"sha3_512", GROVE_HASH_SHA3_512},
        {"SHAKE128", GROVE_HASH_SHAKE128},  {"shake-256", GROVE_HASH_SHAKE256},
    };
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        alg = (grove_hash_alg)0;
        CHECK_EQ_INT(grove_hash_alg_from_name(aliases[i].name, &alg), GROVE_OK);
        CHECK_EQ_INT(alg, aliases[i].alg);
    }
    CHECK_EQ_INT(grove_hash_alg_from_name("sha2-", &alg), GROVE_ERR_UNSUPPORTED);
    CHECK_EQ_INT(grove_hash_alg_from_name("sha2-3-256", &alg), GROVE_ERR_UNSUPPORTED);
    CHECK_EQ_INT(grove_hash_alg_from_name("sha3-384", &alg), GROVE_ERR_UNSUPPORTED);
    CHECK_EQ_INT(grove_hash_alg_from_name("sha256sha256sha256", &alg), GROVE_ERR_UNSUPPORTED);
    CHECK(grove_hash_alg_name((grove_hash_alg)0) == NULL);
    CHECK_EQ_INT(grove_hash_digest_bytes(GROVE_HASH_SHAKE128), 0);
    CHECK_EQ_INT(grove_hash_digest_bytes(GROVE_HASH_SHA384), 48);
    /* a fixed-length digest into a wrong length: refused, nothing written */
    memset(d, 0x5a, sizeof d);
    CHECK_EQ_INT(grove_hash_init(&ctx, GROVE_HASH_SHA256), GROVE_OK);
    CHECK_EQ_INT(grove_hash_final(&ctx, d, 31), GROVE_ERR_INVALID_ARG);
    CHECK(d[0] == 0x5a);
    CHECK_EQ_INT(grove_hash(GROVE_HASH_SHA3_512, d, 32, abc, 3), GROVE_ERR_INVALID_ARG);
    /* a finalised context is wiped: updating it does nothing, finalising it again fails */
    CHECK_EQ_INT(grove_hash_init(&ctx, GROVE_HASH_SHAKE256), GROVE_OK);
    CHECK_EQ_INT(grove_hash_final(&ctx, d, 64), GROVE_OK);
    grove_hash_update(&ctx, abc, 3);
    CHECK_EQ_INT(grove_hash_final(&ctx, d, 64), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_hash(GROVE_HASH_SHA256, d, 32, NULL, 5), GROVE_ERR_INVALID_ARG);
}

static void json_writer(void)
{
    grove_json_buf b = GROVE_JSON_BUF_INIT;
    static const uint8_t bytes[3] = {0, 7, 255};
    static const uint64_t nums[2] = {1, UINT64_MAX};
    grove_json_buf_text(&b, "{\"s\": ");
    grove_json_buf_string(&b, "a\"b\\c\n\x01", 7);
    grove_json_buf_text(&b, ", \"h\": ");
    grove_json_buf_hex(&b, bytes, 3);
    grove_json_buf_text(&b, ", \"n\": [");
    grove_json_buf_u64(&b, 0);
    grove_json_buf_raw(&b, ",", 1);
    grove_json_buf_i64(&b, INT64_MIN);
    grove_json_buf_raw(&b, ",", 1);
    grove_json_buf_double(&b, 0.2);
    grove_json_buf_raw(&b, ",", 1);
    grove_json_buf_double(&b, 1.0 / 0.0);
    grove_json_buf_text(&b, "], \"b\": ");
    grove_json_buf_bytes(&b, bytes, 3);
    grove_json_buf_text(&b, ", \"u\": ");
    grove_json_buf_u64s(&b, nums, 2);
    grove_json_buf_text(&b, "}");
    char *out = NULL;
    CHECK_EQ_INT(grove_json_buf_take(&b, &out), GROVE_OK);
    CHECK(b.p == NULL && b.len == 0);
    const char *want = "{\"s\": \"a\\\"b\\\\c\\u000a\\u0001\", \"h\": \"0007ff\", \"n\": "
                       "[0,-9223372036854775808,0.2,null], \"b\": [0,7,255], \"u\": "
                       "[1,18446744073709551615]}";
    CHECK(out != NULL && strcmp(out, want) == 0);
    /* what it wrote reads back */
    grove_json_doc *doc = NULL;
    CHECK_EQ_INT(grove_json_parse(&doc, out, strlen(out)), GROVE_OK);
    uint64_t v = 0;
    const grove_json_node *u = grove_json_get(doc, grove_json_root(doc), "u");
    CHECK_EQ_INT(grove_json_u64(grove_json_next(doc, grove_json_first(doc, u)), &v), GROVE_OK);
    CHECK(v == UINT64_MAX);
    grove_json_free(doc);
    free(out);
    /* an empty writer hands over "", a failed one GROVE_ERR_NOMEM and nothing */
    CHECK_EQ_INT(grove_json_buf_take(&b, &out), GROVE_OK);
    CHECK(out != NULL && out[0] == '\0');
    free(out);
    grove_json_buf_text(&b, "x");
    b.oom = true;
    CHECK_EQ_INT(grove_json_buf_take(&b, &out), GROVE_ERR_NOMEM);
    CHECK(out == NULL && b.p == NULL);
    grove_json_buf_free(&b);
}

static void ct_equal(void)
{
    uint8_t a[33], b[33];
    memset(a, 3, sizeof a);
    memcpy(b, a, sizeof b);
    CHECK(grove_ct_equal(a, b, sizeof a));
    b[32] ^= 0x80;
    CHECK(!grove_ct_equal(a, b, sizeof a));
    CHECK(grove_ct_equal(a, b, 32));
    CHECK(grove_ct_equal(a, b, 0));
}

int main(void)
{
    hash_known_answers();
    hash_incremental();
    hash_refusals();
    json_writer();
    ct_equal();
    return test_done();
}
