/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Mithril certificate chains: the real devnet chain of the shared vectors (43 certificates,
 * epochs 15-25) verifies as a whole and one certificate at a time; mutations of it fail with
 * the rule named (the mutated certificate's own rule, PREVIOUS_INVALID for its descendants,
 * every other certificate still valid); hostile inputs are refused cleanly.
 *
 * Mutations are made with jansson (an independent JSON library) on the parsed chain. "Rehashed"
 * mutations recompute the mutated certificate's hash and the hashes of its descendants (whose
 * previous_hash changes), so that a rule after the hash check is reached.
 */
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grove/io.h"
#include "grove/mithril.h"
#include "mithril/mithril_internal.h"
#include "test.h"

static json_t *g_map;   /* the real chain: hash -> certificate */
static uint8_t g_gvk[32];
static const char *g_genesis; /* hash of the genesis certificate */

/* ---- helpers ------------------------------------------------------------------------------ */

/* The whole file, NUL-terminated (the library's grove_file_read_fd does the reading). */
static char *read_all(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    uint8_t *data = NULL;
    size_t n = 0;
    grove_status rc = grove_file_read_fd(fd, (size_t)64 << 20, &data, &n);
    close(fd);
    char *b = rc == GROVE_OK ? realloc(data, n + 1) : NULL;
    if (b == NULL) {
        free(data);
        return NULL;
    }
    b[n] = '\0';
    *len = n;
    return b;
}

/* The hash grove computes for a certificate (json), into out[65]; false if it does not decode. */
static bool computed_hash(const json_t *cert, char out[65])
{
    char *t = json_dumps(cert, JSON_COMPACT);
    grove_mithril_cert *c = NULL;
    bool ok = t != NULL && grove_mithril_cert_from_json(&c, t, strlen(t)) == GROVE_OK &&
              c->decode_rule == GROVE_MITHRIL_OK;
    if (ok)
        memcpy(out, c->computed_hash, 65);
    grove_mithril_cert_free(c);
    free(t);
    return ok;
}

/* Give the certificate at key its computed hash (a new map key) and do the same for its
 * descendants, whose previous_hash is updated. */
static void rehash(json_t *map, const char *key_in)
{
    char key[128], h[65];
    snprintf(key, sizeof key, "%s", key_in);
    json_t *cert = json_object_get(map, key);
    if (cert == NULL || !computed_hash(cert, h)) {
        test_fail(__FILE__, __LINE__, "rehash: the certificate does not decode");
        return;
    }
    json_incref(cert);
    json_object_set_new(cert, "hash", json_string(h));
    json_object_del(map, key);
    json_object_set(map, h, cert);
    json_decref(cert);
    char *children[64];
    size_t nc = 0;
    const char *k;
    json_t *v;
    json_object_foreach(map, k, v)
    {
        const char *p = json_string_value(json_object_get(v, "previous_hash"));
        if (p != NULL && strcmp(p, key) == 0 && nc < 64)
            children[nc++] = strdup(k);
    }
    for (size_t i = 0; i < nc; i++) {
        json_object_set_new(json_object_get(map, children[i]), "previous_hash", json_string(h));
        rehash(map, children[i]);
        free(children[i]);
    }
}

/* The JSON inside a hex field (multi_signature, AVK), and writing it back. */
static json_t *hexjson_get(const json_t *cert, const char *field)
{
    const char *s = json_string_value(json_object_get(cert, field));
    size_t n = strlen(s), l;
    uint8_t *b = malloc(n / 2 + 1);
    json_t *j = NULL;
    if (grove_hex_decode(b, n / 2 + 1, &l, s, n) == GROVE_OK)
        j = json_loadb((const char *)b, l, 0, NULL);
    free(b);
    return j;
}

static void hexjson_set(json_t *cert, const char *field, const json_t *j)
{
    char *t = json_dumps(j, JSON_COMPACT);
    size_t n = strlen(t);
    char *hex = malloc(2 * n + 1);
    grove_hex_encode(hex, (const uint8_t *)t, n);
    json_object_set_new(cert, field, json_string(hex));
    free(hex);
    free(t);
}

/* A certificate of the map with at least one child, at the given epoch, not genesis. */
static const char *pick(const json_t *map, uint64_t epoch)
{
    const char *k, *k2;
    json_t *v, *v2;
    json_object_foreach((json_t *)map, k, v)
    {
        if (json_integer_value(json_object_get(v, "epoch")) != (json_int_t)epoch ||
            strcmp(k, g_genesis) == 0)
            continue;
        json_object_foreach((json_t *)map, k2, v2)
        {
            const char *p = json_string_value(json_object_get(v2, "previous_hash"));
            if (p != NULL && strcmp(p, k) == 0)
                return k;
        }
    }
    return NULL;
}

/* Is cert (key) a descendant of target in map (through previous_hash)? depth 1 = child. */
static int depth_below(const json_t *map, const char *key, const char *target)
{
    int d = 0;
    for (int guard = 0; guard < 100; guard++) {
        const json_t *c = json_object_get(map, key);
        const char *p = c ? json_string_value(json_object_get(c, "previous_hash")) : NULL;
        if (p == NULL || *p == '\0')
            return 0;
        d++;
        if (strcmp(p, target) == 0)
            return d;
        key = p;
    }
    return 0;
}

/*
 * Verify the chain `map` (as a map by hash): target (if in the map) breaks rule want, its
 * children child_rule, its deeper descendants PREVIOUS_INVALID, every other certificate holds.
 */
static void expect_chain(const char *what, const json_t *map, const char *target,
                         grove_mithril_rule want, grove_mithril_rule child_rule,
                         const uint8_t *gvk)
{
    char *t = json_dumps(map, JSON_COMPACT);
    grove_mithril_chain *ch = NULL;
    CHECK_EQ_INT(grove_mithril_chain_from_json(&ch, t, strlen(t)), GROVE_OK);
    free(t);
    if (ch == NULL)
        return;
    CHECK_EQ_INT(grove_mithril_chain_verify(ch, gvk), GROVE_ERR_VERIFY);
    size_t bad = 0;
    for (size_t i = 0; i < grove_mithril_chain_count(ch); i++) {
        const char *h = grove_mithril_cert_hash(grove_mithril_chain_cert(ch, i));
        grove_mithril_rule r, w;
        const char *d;
        CHECK_EQ_INT(grove_mithril_chain_result(ch, i, &r, &d), GROVE_OK);
        int dep = depth_below(map, h, target);
        w = strcmp(h, target) == 0 ? want
            : dep == 1             ? child_rule
            : dep > 1              ? GROVE_MITHRIL_PREVIOUS_INVALID
                                   : GROVE_MITHRIL_OK;
        /* children expected to break AVK may be of the next epoch, whose AVK comes from the
         * unchanged next_aggregate_verification_key: they are then only below an invalid one */
        if (dep == 1 && child_rule == GROVE_MITHRIL_AVK && r == GROVE_MITHRIL_PREVIOUS_INVALID)
            w = r;
        if (r != w) {
            fprintf(stderr, "%s: %s is %s, expected %s\n", what, h, grove_mithril_rule_name(r),
                    grove_mithril_rule_name(w));
            bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    grove_mithril_chain_free(ch);
}

/* ---- the real chain ----------------------------------------------------------------------- */

static void test_real_chain(const char *text, size_t len)
{
    grove_mithril_chain *ch = NULL;
    CHECK_EQ_INT(grove_mithril_chain_from_json(&ch, text, len), GROVE_OK);
    CHECK_EQ_INT(grove_mithril_chain_count(ch), 43);
    CHECK_EQ_INT(grove_mithril_chain_verify(ch, g_gvk), GROVE_OK);
    size_t genesis = 0;
    for (size_t i = 0; i < grove_mithril_chain_count(ch); i++) {
        grove_mithril_rule r = GROVE_MITHRIL_DECODE;
        CHECK_EQ_INT(grove_mithril_chain_result(ch, i, &r, NULL), GROVE_OK);
        CHECK_EQ_INT(r, GROVE_MITHRIL_OK);
        genesis += grove_mithril_cert_is_genesis(grove_mithril_chain_cert(ch, i));
    }
    CHECK_EQ_INT(genesis, 1);
    grove_mithril_rule r;
    CHECK_EQ_INT(grove_mithril_chain_result(ch, 43, &r, NULL), GROVE_ERR_NOT_FOUND);
    grove_mithril_chain_free(ch);

    /* the same certificates as an array, and one certificate alone (its predecessor missing) */
    json_t *arr = json_array();
    const char *k;
    json_t *v;
    json_object_foreach(g_map, k, v)
    json_array_append(arr, v);
    char *t = json_dumps(arr, JSON_COMPACT);
    CHECK_EQ_INT(grove_mithril_chain_from_json(&ch, t, strlen(t)), GROVE_OK);
    CHECK_EQ_INT(grove_mithril_chain_verify(ch, g_gvk), GROVE_OK);
    grove_mithril_chain_free(ch);
    free(t);
    /* a certificate twice in an array: the second is a duplicate */
    json_array_append(arr, json_array_get(arr, 3));
    t = json_dumps(arr, JSON_COMPACT);
    CHECK_EQ_INT(grove_mithril_chain_from_json(&ch, t, strlen(t)), GROVE_OK);
    CHECK_EQ_INT(grove_mithril_chain_verify(ch, g_gvk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_mithril_chain_result(ch, 43, &r, NULL), GROVE_OK);
    CHECK_EQ_INT(r, GROVE_MITHRIL_DUPLICATE);
    CHECK_EQ_INT(grove_mithril_chain_result(ch, 3, &r, NULL), GROVE_OK);
    CHECK_EQ_INT(r, GROVE_MITHRIL_OK);
    grove_mithril_chain_free(ch);
    free(t);
    json_decref(arr);

    /* one standard certificate alone: previous missing */
    const char *one = pick(g_map, 20);
    t = json_dumps(json_object_get(g_map, one), JSON_COMPACT);
    CHECK_EQ_INT(grove_mithril_chain_from_json(&ch, t, strlen(t)), GROVE_OK);
    CHECK_EQ_INT(grove_mithril_chain_count(ch), 1);
    CHECK_EQ_INT(grove_mithril_chain_verify(ch, g_gvk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_mithril_chain_result(ch, 0, &r, NULL), GROVE_OK);
    CHECK_EQ_INT(r, GROVE_MITHRIL_PREVIOUS_MISSING);
    grove_mithril_chain_free(ch);
    free(t);
}

/* One certificate at a time, as a light client: every certificate against its predecessor. */
static grove_mithril_cert *load_one(const json_t *map, const char *key)
{
    char *t = json_dumps(json_object_get(map, key), JSON_COMPACT);
    grove_mithril_cert *c = NULL;
    CHECK_EQ_INT(grove_mithril_cert_from_json(&c, t, strlen(t)), GROVE_OK);
    free(t);
    return c;
}

static void test_incremental(void)
{
    const char *k;
    json_t *v;
    size_t ok = 0;
    json_object_foreach(g_map, k, v)
    {
        grove_mithril_cert *c = load_one(g_map, k), *p = NULL;
        const char *ph = grove_mithril_cert_previous_hash(c);
        if (!grove_mithril_cert_is_genesis(c))
            p = load_one(g_map, ph);
        grove_mithril_rule r = GROVE_MITHRIL_DECODE;
        const char *d;
        ok += grove_mithril_cert_verify(c, &r, &d, p, g_gvk) == GROVE_OK && r == GROVE_MITHRIL_OK;
        grove_mithril_cert_free(c);
        grove_mithril_cert_free(p);
    }
    CHECK_EQ_INT(ok, 43);

    /* the link rules, each alone: a certificate of epoch 23 against altered predecessors */
    const char *key = pick(g_map, 23);
    grove_mithril_cert *c = load_one(g_map, key);
    grove_mithril_cert *p = load_one(g_map, grove_mithril_cert_previous_hash(c));
    grove_mithril_rule r;
    const char *d;
    CHECK_EQ_INT(grove_mithril_cert_verify(c, &r, &d, p, g_gvk), GROVE_OK);
    CHECK_EQ_INT(grove_mithril_cert_verify(c, &r, &d, NULL, g_gvk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(r, GROVE_MITHRIL_PREVIOUS_MISSING);
    bool same_epoch = grove_mithril_cert_epoch(p) == grove_mithril_cert_epoch(c);
    /* the predecessor's signed next AVK (or its AVK in the same epoch) altered */
    if (same_epoch)
        p->avk.root[0] ^= 1;
    else
        p->next_avk.root[0] ^= 1;
    CHECK_EQ_INT(grove_mithril_cert_verify(c, &r, &d, p, g_gvk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(r, GROVE_MITHRIL_AVK);
    if (same_epoch)
        p->avk.root[0] ^= 1;
    else
        p->next_avk.root[0] ^= 1;
    /* its next parameters (or parameters) altered */
    if (same_epoch)
        p->params.phi_fixed ^= 1;
    else
        p->next_params[0] = p->next_params[0] == '0' ? '1' : '0';
    CHECK_EQ_INT(grove_mithril_cert_verify(c, &r, &d, p, g_gvk), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(r, GROVE_MITHRIL_PARAMETERS);
    grove_mithril_cert_free(p);
    /* a predecessor that is not the one named by previous_hash: PREVIOUS_HASH; two epochs
     * away: MISSING_EPOCH */
    const char *kk;
    json_t *vv;
    bool saw_prev_hash = false, saw_gap = false;
    json_object_foreach(g_map, kk, vv)
    {
        if (strcmp(kk, grove_mithril_cert_previous_hash(c)) == 0)
            continue;
        json_int_t e = json_integer_value(json_object_get(vv, "epoch"));
        grove_mithril_cert *q = load_one(g_map, kk);
        CHECK_EQ_INT(grove_mithril_cert_verify(c, &r, &d, q, g_gvk), GROVE_ERR_VERIFY);
        if (e + 1 >= (json_int_t)grove_mithril_cert_epoch(c) &&
            e <= (json_int_t)grove_mithril_cert_epoch(c) + 1) {
            CHECK_EQ_INT(r, GROVE_MITHRIL_PREVIOUS_HASH);
            saw_prev_hash = true;
        } else {
            CHECK_EQ_INT(r, GROVE_MITHRIL_MISSING_EPOCH);
            saw_gap = true;
        }
        grove_mithril_cert_free(q);
    }
    CHECK(saw_prev_hash && saw_gap);
    /* invalid arguments */
    CHECK_EQ_INT(grove_mithril_cert_verify(NULL, &r, &d, NULL, g_gvk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_mithril_cert_verify(c, NULL, &d, NULL, g_gvk), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_mithril_cert_verify(c, &r, &d, NULL, NULL), GROVE_ERR_INVALID_ARG);
    grove_mithril_cert_free(c);
}

/* ---- mutations of the chain --------------------------------------------------------------- */

static void test_mutations(void)
{
    const char *target0 = pick(g_map, 23);
    char target[65];
    snprintf(target, sizeof target, "%s", target0);
    json_t *m;
    json_t *c;

    /* a flipped byte of the multi-signature: the hash no longer matches */
    m = json_deep_copy(g_map);
    c = json_object_get(m, target);
    {
        const char *s = json_string_value(json_object_get(c, "multi_signature"));
        char *t = strdup(s);
        /* the last digit of the last signer's stake: hex of ...1]]],"batch_proof" */
        char *at = strstr(t, "5d5d5d2c2262617463685f70726f6f6622");
        CHECK(at != NULL && at - t > 2);
        if (at != NULL)
            at[-1] = (char)(at[-1] ^ 1);
        json_object_set_new(c, "multi_signature", json_string(t));
        free(t);
    }
    expect_chain("flipped multi-signature byte", m, target, GROVE_MITHRIL_HASH,
                 GROVE_MITHRIL_PREVIOUS_INVALID, g_gvk);
    json_decref(m);

    /* the multi-signature altered (a signer's stake) and the hashes recomputed */
    m = json_deep_copy(g_map);
    c = json_object_get(m, target);
    {
        json_t *ms = hexjson_get(c, "multi_signature");
        json_t *entry = json_array_get(json_array_get(json_object_get(ms, "signatures"), 0), 1);
        json_t *stake = json_array_get(entry, 1);
        json_array_set_new(entry, 1, json_integer(json_integer_value(stake) + 1));
        hexjson_set(c, "multi_signature", ms);
        json_decref(ms);
    }
    rehash(m, target);
    {
        char h[65];
        CHECK(computed_hash(c, h));
        expect_chain("multi-signature stake, rehashed", m, h, GROVE_MITHRIL_MULTI_SIGNATURE,
                     GROVE_MITHRIL_PREVIOUS_INVALID, g_gvk);
    }
    json_decref(m);

    /* a protocol-message part changed: hash; rehashed: signed message */
    m = json_deep_copy(g_map);
    c = json_object_get(m, target);
    json_object_set_new(json_object_get(json_object_get(c, "protocol_message"), "message_parts"),
                        "current_epoch", json_string("22"));
    expect_chain("message part", m, target, GROVE_MITHRIL_HASH, GROVE_MITHRIL_PREVIOUS_INVALID,
                 g_gvk);
    rehash(m, target);
    {
        char h[65];
        CHECK(computed_hash(c, h));
        expect_chain("message part, rehashed", m, h, GROVE_MITHRIL_SIGNED_MESSAGE,
                     GROVE_MITHRIL_PREVIOUS_INVALID, g_gvk);
    }
    json_decref(m);

    /* previous_hash changed: hash; rehashed: its predecessor is missing */
    m = json_deep_copy(g_map);
    c = json_object_get(m, target);
    json_object_set_new(c, "previous_hash", json_string("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"));
    expect_chain("previous_hash", m, target, GROVE_MITHRIL_HASH, GROVE_MITHRIL_PREVIOUS_INVALID,
                 g_gvk);
    rehash(m, target);
    {
        char h[65];
        CHECK(computed_hash(c, h));
        expect_chain("previous_hash, rehashed", m, h, GROVE_MITHRIL_PREVIOUS_MISSING,
                     GROVE_MITHRIL_PREVIOUS_INVALID, g_gvk);
    }
    json_decref(m);

    /* the AVK swapped for another epoch's (rehashed): the multi-signature fails */
    m = json_deep_copy(g_map);
    c = json_object_get(m, target);
    json_object_set(c, "aggregate_verification_key",
                    json_object_get(json_object_get(m, g_genesis), "aggregate_verification_key"));
    rehash(m, target);
    {
        char h[65];
        CHECK(computed_hash(c, h));
        /* (its children of the same epoch: their AVK is not their predecessor's) */
        expect_chain("swapped AVK", m, h, GROVE_MITHRIL_MULTI_SIGNATURE, GROVE_MITHRIL_AVK, g_gvk);
    }
    json_decref(m);

    /* the epoch changed: hash; rehashed: the signed current_epoch differs */
    m = json_deep_copy(g_map);
    c = json_object_get(m, target);
    json_object_set_new(c, "epoch", json_integer(24));
    /* (its children, of epoch 23, now follow a certificate of another epoch: their AVK is not
     * the one it signed as next) */
    expect_chain("epoch", m, target, GROVE_MITHRIL_HASH, GROVE_MITHRIL_AVK, g_gvk);
    rehash(m, target);
    {
        char h[65];
        CHECK(computed_hash(c, h));
        expect_chain("epoch, rehashed", m, h, GROVE_MITHRIL_EPOCH, GROVE_MITHRIL_AVK, g_gvk);
    }
    json_decref(m);

    /* the signed entity type changed: hash */
    m = json_deep_copy(g_map);
    c = json_object_get(m, target);
    {
        json_t *se = json_object_get(c, "signed_entity_type");
        const char *k;
        json_t *v;
        json_object_foreach(se, k, v)
        {
            if (json_is_integer(v))
                json_object_set_new(se, k, json_integer(json_integer_value(v) + 1));
            else if (json_is_array(v))
                json_array_set_new(v, 1, json_integer(json_integer_value(json_array_get(v, 1)) + 1));
            else
                json_object_set_new(v, "immutable_file_number", json_integer(999));
        }
    }
    expect_chain("signed_entity_type", m, target, GROVE_MITHRIL_HASH,
                 GROVE_MITHRIL_PREVIOUS_INVALID, g_gvk);
    json_decref(m);

    /* a map key that is not the certificate's hash */
    m = json_deep_copy(g_map);
    c = json_object_get(m, target);
    json_incref(c);
    json_object_del(m, target);
    json_object_set_new(m, "not-the-hash", c);
    {
        char *t = json_dumps(m, JSON_COMPACT);
        grove_mithril_chain *ch = NULL;
        CHECK_EQ_INT(grove_mithril_chain_from_json(&ch, t, strlen(t)), GROVE_OK);
        CHECK_EQ_INT(grove_mithril_chain_verify(ch, g_gvk), GROVE_ERR_VERIFY);
        size_t dup = 0;
        for (size_t i = 0; i < grove_mithril_chain_count(ch); i++) {
            grove_mithril_rule r;
            CHECK_EQ_INT(grove_mithril_chain_result(ch, i, &r, NULL), GROVE_OK);
            dup += r == GROVE_MITHRIL_DUPLICATE;
        }
        CHECK_EQ_INT(dup, 1);
        grove_mithril_chain_free(ch);
        free(t);
    }
    json_decref(m);

    /* a wrong genesis key: the genesis certificate fails, every other one through it */
    uint8_t wrong[32];
    memcpy(wrong, g_gvk, 32);
    wrong[0] ^= 1;
    expect_chain("wrong genesis key", g_map, g_genesis, GROVE_MITHRIL_GENESIS_SIGNATURE,
                 GROVE_MITHRIL_PREVIOUS_INVALID, wrong);
}

/* The removed-certificate case needs the chain without it but the tree with it. */
static void test_removed(void)
{
    const char *t0 = pick(g_map, 20);
    char target[65];
    snprintf(target, sizeof target, "%s", t0);
    json_t *m = json_deep_copy(g_map);
    json_object_del(m, target);
    char *t = json_dumps(m, JSON_COMPACT);
    grove_mithril_chain *ch = NULL;
    CHECK_EQ_INT(grove_mithril_chain_from_json(&ch, t, strlen(t)), GROVE_OK);
    free(t);
    CHECK_EQ_INT(grove_mithril_chain_count(ch), 42);
    CHECK_EQ_INT(grove_mithril_chain_verify(ch, g_gvk), GROVE_ERR_VERIFY);
    size_t bad = 0, missing = 0;
    for (size_t i = 0; i < grove_mithril_chain_count(ch); i++) {
        const char *h = grove_mithril_cert_hash(grove_mithril_chain_cert(ch, i));
        int dep = depth_below(g_map, h, target);
        grove_mithril_rule r, w = dep == 1   ? GROVE_MITHRIL_PREVIOUS_MISSING
                                  : dep > 1 ? GROVE_MITHRIL_PREVIOUS_INVALID
                                            : GROVE_MITHRIL_OK;
        CHECK_EQ_INT(grove_mithril_chain_result(ch, i, &r, NULL), GROVE_OK);
        bad += r != w;
        missing += r == GROVE_MITHRIL_PREVIOUS_MISSING;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(missing >= 1);
    grove_mithril_chain_free(ch);
    json_decref(m);
}

/* ---- hostile inputs ----------------------------------------------------------------------- */

/* One certificate with field `field` replaced by JSON `value` (NULL: removed): rule. */
static grove_mithril_rule one_field(const char *field, const char *value)
{
    json_t *c = json_deep_copy(json_object_get(g_map, pick(g_map, 23)));
    /* the value is put in as text, so that numbers jansson cannot hold go in too */
    if (value == NULL)
        json_object_del(c, field);
    else
        json_object_set_new(c, field, json_string("@@VALUE@@"));
    char *t0 = json_dumps(c, JSON_COMPACT);
    json_decref(c);
    char *t = t0;
    const char *at = value != NULL ? strstr(t0, "\"@@VALUE@@\"") : NULL;
    if (at != NULL) {
        size_t pre = (size_t)(at - t0), vl = strlen(value), rest = strlen(at + 11);
        t = malloc(pre + vl + rest + 1);
        memcpy(t, t0, pre);
        memcpy(t + pre, value, vl);
        memcpy(t + pre + vl, at + 11, rest + 1);
        free(t0);
    }
    grove_mithril_cert *cert = NULL;
    grove_mithril_rule r = GROVE_MITHRIL_OK;
    const char *d;
    if (grove_mithril_cert_from_json(&cert, t, strlen(t)) != GROVE_OK)
        r = (grove_mithril_rule)99;
    else if (grove_mithril_cert_verify(cert, &r, &d, NULL, g_gvk) == GROVE_OK)
        r = GROVE_MITHRIL_OK;
    grove_mithril_cert_free(cert);
    free(t);
    return r;
}

static void test_hostile(const char *text, size_t len)
{
    grove_mithril_chain *ch = NULL;
    /* truncated JSON, not JSON, not certificates */
    for (size_t cut = 1; cut < len; cut += len / 7) {
        CHECK_EQ_INT(grove_mithril_chain_from_json(&ch, text, cut), GROVE_ERR_ENCODING);
        CHECK(ch == NULL);
    }
    static const char *const not_certs[] = {"", "42", "\"x\"", "[1,2]", "{\"a\":1}", "[{}, 3]",
                                            "null", "{\"hash\": 1, \"b\": 2}"};
    for (size_t i = 0; i < sizeof not_certs / sizeof not_certs[0]; i++) {
        CHECK_EQ_INT(grove_mithril_chain_from_json(&ch, not_certs[i], strlen(not_certs[i])),
                     GROVE_ERR_ENCODING);
        CHECK(ch == NULL);
    }
    grove_mithril_cert *c = NULL;
    CHECK_EQ_INT(grove_mithril_cert_from_json(&c, "[]", 2), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_mithril_cert_from_json(&c, "{\"hash\":", 8), GROVE_ERR_ENCODING);
    /* an empty array: nothing to verify */
    CHECK_EQ_INT(grove_mithril_chain_from_json(&ch, "[]", 2), GROVE_OK);
    CHECK_EQ_INT(grove_mithril_chain_count(ch), 0);
    CHECK_EQ_INT(grove_mithril_chain_verify(ch, g_gvk), GROVE_OK);
    grove_mithril_chain_free(ch);
    /* an object that is no certificate inside an array: invalid, named */
    CHECK_EQ_INT(grove_mithril_chain_from_json(&ch, "[{\"x\":1}]", 9), GROVE_OK);
    CHECK_EQ_INT(grove_mithril_chain_verify(ch, g_gvk), GROVE_ERR_VERIFY);
    grove_mithril_rule r;
    const char *d;
    CHECK_EQ_INT(grove_mithril_chain_result(ch, 0, &r, &d), GROVE_OK);
    CHECK_EQ_INT(r, GROVE_MITHRIL_DECODE);
    CHECK(d != NULL);
    grove_mithril_chain_free(ch);

    /* fields that do not decode */
    CHECK_EQ_INT(one_field("epoch", "18446744073709551616"), GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("epoch", "1e30"), GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("epoch", "-1"), GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("epoch", "\"23\""), GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("epoch", NULL), GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("hash", NULL), GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("multi_signature", "\"zz\""), GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("multi_signature", "\"7b7d\""), GROVE_MITHRIL_DECODE); /* {} */
    CHECK_EQ_INT(one_field("multi_signature", "\"abc\""), GROVE_MITHRIL_DECODE);  /* odd */
    CHECK_EQ_INT(one_field("aggregate_verification_key", "\"00\""), GROVE_MITHRIL_DECODE);
    /* 47 bytes: one short of the binary AVK */
    CHECK_EQ_INT(one_field("aggregate_verification_key",
                           "\"0000000000000002000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f00000000000000\""),
                 GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("genesis_signature", "\"00ff\""), GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("genesis_signature", "\"xyz0\""), GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("signed_entity_type", "{\"Unknown\": 3}"), GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("signed_entity_type", "{\"CardanoTransactions\": [1]}"),
                 GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("metadata", "{}"), GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("protocol_message", "{\"message_parts\": {\"bogus\": \"1\"}}"),
                 GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("protocol_message", "{\"message_parts\": {}, \"hash_scheme\": \"rigid\"}"),
                 GROVE_MITHRIL_DECODE);
    CHECK_EQ_INT(one_field("ancillary_verifier_data", "\"00\""), GROVE_MITHRIL_UNSUPPORTED);
    /* a timestamp that is no RFC 3339 time, parameters out of range */
    {
        json_t *cc = json_deep_copy(json_object_get(g_map, pick(g_map, 23)));
        json_t *md = json_object_get(cc, "metadata");
        json_object_set_new(md, "sealed_at", json_string("2026-02-30T00:00:00Z"));
        char *t = json_dumps(md, JSON_COMPACT);
        CHECK_EQ_INT(one_field("metadata", t), GROVE_MITHRIL_DECODE);
        free(t);
        json_object_set_new(md, "sealed_at", json_string("2026-05-21T14:42:19.455974924+00:00"));
        json_object_set_new(json_object_get(md, "parameters"), "phi_f", json_real(-0.5));
        t = json_dumps(md, JSON_COMPACT);
        CHECK_EQ_INT(one_field("metadata", t), GROVE_MITHRIL_DECODE);
        free(t);
        json_decref(cc);
    }
    /* the same timestamp with an explicit +00:00 offset hashes the same: the certificate holds
     * up to its links (no predecessor given here) */
    {
        json_t *cc = json_deep_copy(json_object_get(g_map, pick(g_map, 23)));
        json_t *md = json_object_get(cc, "metadata");
        char s[64], buf[96];
        snprintf(s, sizeof s, "%s", json_string_value(json_object_get(md, "sealed_at")));
        snprintf(buf, sizeof buf, "%.*s+00:00", (int)strlen(s) - 1, s);
        json_object_set_new(md, "sealed_at", json_string(buf));
        char *t = json_dumps(md, JSON_COMPACT);
        CHECK_EQ_INT(one_field("metadata", t), GROVE_MITHRIL_PREVIOUS_MISSING);
        free(t);
        /* two hours later at +02:00 is the same instant; at -02:00 it is not */
        int hour = (s[11] - '0') * 10 + (s[12] - '0');
        CHECK(hour < 22);
        snprintf(buf, sizeof buf, "%.11s%02d%.*s+02:00", s, hour + 2, (int)strlen(s) - 14, s + 13);
        json_object_set_new(md, "sealed_at", json_string(buf));
        t = json_dumps(md, JSON_COMPACT);
        CHECK_EQ_INT(one_field("metadata", t), GROVE_MITHRIL_PREVIOUS_MISSING);
        free(t);
        buf[strlen(buf) - 6] = '-';
        json_object_set_new(md, "sealed_at", json_string(buf));
        t = json_dumps(md, JSON_COMPACT);
        CHECK_EQ_INT(one_field("metadata", t), GROVE_MITHRIL_HASH);
        free(t);
        json_decref(cc);
    }
    /* genesis keys */
    uint8_t vk[32];
    CHECK_EQ_INT(grove_mithril_genesis_key_from_text(vk, "", 0), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_mithril_genesis_key_from_text(vk, "5b31", 4), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_mithril_genesis_key_from_text(vk, "zz", 2), GROVE_ERR_ENCODING);
    char hex[65];
    grove_hex_encode(hex, g_gvk, 32);
    CHECK_EQ_INT(grove_mithril_genesis_key_from_text(vk, hex, 64), GROVE_OK);
    CHECK_MEM(vk, g_gvk, 32);
    CHECK_EQ_INT(grove_mithril_genesis_key_from_text(vk, hex, 62), GROVE_ERR_ENCODING);
    CHECK(strcmp(grove_mithril_rule_name(GROVE_MITHRIL_AVK), "avk") == 0);
    CHECK(strcmp(grove_mithril_rule_name((grove_mithril_rule)1000), "unknown") == 0);
}

int main(void)
{
    const char *dir = test_vectors_dir("mithril-chain");
    char path[4096];
    size_t len, klen;
    snprintf(path, sizeof path, "%s/certificates.json", dir);
    char *text = read_all(path, &len);
    snprintf(path, sizeof path, "%s/genesis.vkey", dir);
    char *key = read_all(path, &klen);
    CHECK(text != NULL && key != NULL);
    if (text == NULL || key == NULL)
        return test_done();
    CHECK_EQ_INT(grove_mithril_genesis_key_from_text(g_gvk, key, klen), GROVE_OK);
    g_map = json_loadb(text, len, 0, NULL);
    CHECK(g_map != NULL);
    const char *k;
    json_t *v;
    json_object_foreach(g_map, k, v)
    {
        if (json_string_length(json_object_get(v, "genesis_signature")) > 0)
            g_genesis = k;
    }
    CHECK(g_genesis != NULL);
    test_real_chain(text, len);
    test_incremental();
    test_mutations();
    test_removed();
    test_hostile(text, len);
    json_decref(g_map);
    free(text);
    free(key);
    return test_done();
}
