/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * XMSS / XMSS^MT: the parameter table; a whole XMSS-SHA2_10_256 key signed to exhaustion with
 * every signature verified and compared with a from-scratch recomputation (an oracle that
 * builds whole trees and never uses the node cache); the node cache on small non-standard
 * parameters with many cache levels (every index signed, exported and reloaded at random
 * points, batch reservation, key splits); the state rules (no callback, failing callback,
 * exhaustion, monotonic high-water mark, concurrent signers); streaming signatures; strict
 * verification; corrupted and truncated key states; re-sealed key states (seeds, counters or
 * cached nodes rewritten, key id and tag recomputed) refused at load, honest ones signing validly.
 * "all" as first argument: every parameter set with tree height <= 16 (label slow).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "grove/xmss.h"
#include "hash/dispatch.h"
#include "test.h"
#include "xmss/xmss_int.h"

/* ---- helpers ------------------------------------------------------------------------------ */
#include <time.h>
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static grove_xmss_params mkp(const char *name, uint32_t oid, unsigned mt, unsigned hash,
                             unsigned n, unsigned h, unsigned d, unsigned level_max)
{
    grove_xmss_params p;
    memset(&p, 0, sizeof p);
    p.name = name;
    p.hash_name = "test";
    p.oid = oid;
    p.mt = (uint8_t)mt;
    p.hash = (uint8_t)hash;
    p.n = (uint8_t)n;
    p.pad = (uint8_t)(n == 24 ? 4 : n);
    p.h = (uint8_t)h;
    p.d = (uint8_t)d;
    p.hp = (uint8_t)(h / d);
    p.len = (uint8_t)(2 * n + 3);
    p.idx_bytes = (uint8_t)(mt ? (h + 7) / 8 : 4);
    p.level_max = (uint8_t)level_max;
    p.sig_bytes = p.idx_bytes + n + (d * p.len + h) * n;
    p.pk_bytes = 4 + 2 * n;
    return p;
}

/* An in-memory "file": keeps the last state and checks that the high-water mark only grows. */
typedef struct {
    uint8_t *buf;
    size_t len;
    long calls;
    int fail; /* > 0: fail that many times */
    uint64_t last_hw;
    int backwards; /* set if a state ever moved the high-water mark back */
    const grove_xmss_params *force;
} store;

static grove_status store_persist(void *arg, const uint8_t *s, size_t len)
{
    store *st = arg;
    if (st->fail > 0) {
        st->fail--;
        return GROVE_ERR_STORAGE;
    }
    uint8_t *b = malloc(len);
    if (b == NULL)
        return GROVE_ERR_STORAGE;
    memcpy(b, s, len);
    free(st->buf);
    st->buf = b;
    st->len = len;
    st->calls++;
    uint64_t hw = grove_load64_be(s + 24);
    if (st->calls > 1 && hw < st->last_hw)
        st->backwards = 1;
    st->last_hw = hw;
    return GROVE_OK;
}

static void store_free(store *st)
{
    free(st->buf);
    memset(st, 0, sizeof *st);
}

/* The oracle: signatures from whole trees, computed from scratch (no node cache). */
typedef struct {
    const grove_xmss_params *p;
    xmss_hash x;
    xmss_lanes w;
    uint8_t sk_prf[XMSS_MAX_N], root[XMSS_MAX_N];
    uint8_t *nodes[XMSS_MAX_D]; /* per layer: the tree last built, all heights */
    uint64_t built[XMSS_MAX_D];
} oracle;

static void oracle_init(oracle *o, const grove_xmss_params *p, const uint8_t *seed)
{
    memset(o, 0, sizeof *o);
    o->p = p;
    xmss_hash_init(&o->x, p, seed + 2 * p->n, seed);
    xmss_lanes_alloc(&o->w, &o->x, (size_t)XMSS_LEAF_BATCH * p->len);
    memcpy(o->sk_prf, seed + p->n, p->n);
    for (unsigned j = 0; j < p->d; j++) {
        o->nodes[j] = malloc(((size_t)2 << p->hp) * p->n);
        o->built[j] = ~(uint64_t)0;
    }
}

static void oracle_free(oracle *o)
{
    for (unsigned j = 0; j < o->p->d; j++)
        free(o->nodes[j]);
    xmss_lanes_free(&o->w);
    xmss_hash_wipe(&o->x);
}

/* node (height u, index i) of the tree at nodes: heights stored one after the other */
static uint8_t *onode(const oracle *o, unsigned j, unsigned u, uint64_t i)
{
    size_t offs = 0;
    for (unsigned v = 0; v < u; v++)
        offs += (size_t)1 << (o->p->hp - v);
    return o->nodes[j] + (offs + i) * o->p->n;
}

static void oracle_tree(oracle *o, unsigned j, uint64_t tree)
{
    if (o->built[j] == tree)
        return;
    const unsigned hp = o->p->hp;
    uint64_t leaves = (uint64_t)1 << hp;
    for (uint64_t i = 0; i < leaves; i += XMSS_LEAF_BATCH) {
        unsigned c = leaves - i < XMSS_LEAF_BATCH ? (unsigned)(leaves - i) : XMSS_LEAF_BATCH;
        xmss_leaves(&o->x, &o->w, j, tree, (uint32_t)i, c, onode(o, j, 0, i));
    }
    for (unsigned u = 0; u < hp; u++)
        for (uint64_t i = 0; i < ((uint64_t)1 << (hp - u - 1)); i++)
            xmss_tree_node(&o->x, &o->w, j, tree, u, (uint32_t)i, onode(o, j, u, 2 * i),
                           onode(o, j, u, 2 * i + 1), onode(o, j, u + 1, i));
    o->built[j] = tree;
}

static void oracle_root(oracle *o)
{
    oracle_tree(o, o->p->d - 1, 0);
    memcpy(o->root, onode(o, o->p->d - 1, o->p->hp, 0), o->p->n);
}

static void oracle_sign(oracle *o, uint64_t idx, const uint8_t *msg, size_t mlen, uint8_t *sig)
{
    const grove_xmss_params *p = o->p;
    const unsigned n = p->n, hp = p->hp;
    uint8_t m32[32], node[XMSS_MAX_N];
    memset(m32, 0, sizeof m32);
    grove_store64_be(m32 + 24, idx);
    grove_store_be_n(sig, p->idx_bytes, idx);
    uint8_t *r = sig + p->idx_bytes;
    xmss_prf_keyed(&o->x, r, o->sk_prf, m32);
    xmss_hmsg hm;
    xmss_hmsg_init(&o->x, &hm, r, o->root, idx);
    xmss_hmsg_update(&hm, msg, mlen);
    xmss_hmsg_final(&hm, node);
    uint8_t *s = r + n;
    uint64_t i = idx;
    for (unsigned j = 0; j < p->d; j++) {
        uint64_t tree = i >> hp;
        uint32_t leaf = (uint32_t)(i & ((1u << hp) - 1));
        oracle_tree(o, j, tree);
        xmss_wots_sign(&o->x, &o->w, j, tree, leaf, node, s);
        s += (size_t)p->len * n;
        for (unsigned u = 0; u < hp; u++, s += n)
            memcpy(s, onode(o, j, u, (leaf >> u) ^ 1), n);
        memcpy(node, onode(o, j, hp, 0), n);
        i = tree;
    }
}

static void seed_bytes(uint8_t *seed, size_t len, uint8_t base)
{
    for (size_t i = 0; i < len; i++)
        seed[i] = (uint8_t)(base + 3 * i);
}

/* ---- parameter table -------------------------------------------------------------------- */

static void params_table(void)
{
    static const unsigned mt_sig256[8] = {4963, 9251, 5605, 9893, 18469, 8392, 14824, 27688};
    static const unsigned mt_sig192[8] = {2955, 5403, 3437, 5885, 10781, 5144, 8816, 16160};
    size_t count = 0;
    while (grove_xmss_params_at(count))
        count++;
    CHECK_EQ_INT(count, 77);
    size_t nx = 0, nmt = 0;
    for (size_t i = 0; i < count; i++) {
        const grove_xmss_params *p = grove_xmss_params_at(i);
        const char *name = grove_xmss_params_name(p);
        CHECK(grove_xmss_params_get(name) == p);
        CHECK(grove_xmss_params_from_oid(grove_xmss_params_family(p), grove_xmss_params_oid(p)) ==
              p);
        for (size_t k = 0; k < i; k++)
            CHECK(strcmp(name, grove_xmss_params_name(grove_xmss_params_at(k))) != 0);
        unsigned n = grove_xmss_params_n(p), h = grove_xmss_params_height(p);
        unsigned d = grove_xmss_params_layers(p);
        CHECK_EQ_INT(grove_xmss_params_wots_len(p), 2 * n + 3);
        CHECK_EQ_INT(grove_xmss_pk_bytes(p), 4 + 2 * n);
        CHECK_EQ_INT(grove_xmss_params_tree_height(p) * d, h);
        CHECK_EQ_INT(grove_xmss_total_signatures(p), (uint64_t)1 << h);
        if (grove_xmss_params_family(p) == GROVE_XMSS_FAMILY_XMSS) {
            nx++;
            CHECK_EQ_INT(grove_xmss_index_bytes(p), 4);
            CHECK_EQ_INT(grove_xmss_params_oid(p), nx);
            CHECK(strncmp(name, "XMSS-", 5) == 0);
        } else {
            nmt++;
            CHECK_EQ_INT(grove_xmss_index_bytes(p), (h + 7) / 8);
            CHECK_EQ_INT(grove_xmss_params_oid(p), nmt);
            CHECK(strncmp(name, "XMSSMT-", 7) == 0);
            if (n == 32)
                CHECK_EQ_INT(grove_xmss_sig_bytes(p), mt_sig256[(nmt - 1) % 8]);
            if (n == 24)
                CHECK_EQ_INT(grove_xmss_sig_bytes(p), mt_sig192[(nmt - 1) % 8]);
        }
        /* SP 800-208 approves SHA-256, SHA-256/192 and the SHAKE256 sets with n = 24 or 32 */
        const char *hn = grove_xmss_params_hash(p);
        int approved = strcmp(hn, "SHA2-256") == 0 || strcmp(hn, "SHA2-256/192") == 0 ||
                       (strcmp(hn, "SHAKE256") == 0 && n != 64);
        CHECK_EQ_INT(grove_xmss_params_sp800_208(p), approved);
    }
    CHECK_EQ_INT(nx, 21);
    CHECK_EQ_INT(nmt, 56);
    static const struct {
        const char *name;
        const char *hash;
        unsigned n, h, d;
        size_t sig;
    } spot[] = {
        {"XMSS-SHA2_10_256", "SHA2-256", 32, 10, 1, 2500},
        {"XMSS-SHA2_20_512", "SHA2-512", 64, 20, 1, 9732},
        {"XMSS-SHAKE_16_256", "SHAKE128", 32, 16, 1, 2692},
        {"XMSS-SHAKE_10_512", "SHAKE256", 64, 10, 1, 9092},
        {"XMSS-SHA2_16_192", "SHA2-256/192", 24, 16, 1, 1636},
        {"XMSS-SHAKE256_20_256", "SHAKE256", 32, 20, 1, 2820},
        {"XMSS-SHAKE256_10_192", "SHAKE256", 24, 10, 1, 1492},
        {"XMSSMT-SHA2_60/12_512", "SHA2-512", 64, 60, 12, 104520},
        {"XMSSMT-SHAKE_20/2_256", "SHAKE128", 32, 20, 2, 4963},
        {"XMSSMT-SHAKE256_40/8_192", "SHAKE256", 24, 40, 8, 10781},
    };
    for (size_t i = 0; i < sizeof spot / sizeof spot[0]; i++) {
        const grove_xmss_params *p = grove_xmss_params_get(spot[i].name);
        CHECK(p != NULL);
        if (!p)
            continue;
        CHECK(strcmp(grove_xmss_params_hash(p), spot[i].hash) == 0);
        CHECK_EQ_INT(grove_xmss_params_n(p), spot[i].n);
        CHECK_EQ_INT(grove_xmss_params_height(p), spot[i].h);
        CHECK_EQ_INT(grove_xmss_params_layers(p), spot[i].d);
        CHECK_EQ_INT(grove_xmss_sig_bytes(p), spot[i].sig);
    }
    size_t maxsig = 0, maxpk = 0;
    for (size_t i = 0; i < count; i++) {
        const grove_xmss_params *p = grove_xmss_params_at(i);
        maxsig = grove_xmss_sig_bytes(p) > maxsig ? grove_xmss_sig_bytes(p) : maxsig;
        maxpk = grove_xmss_pk_bytes(p) > maxpk ? grove_xmss_pk_bytes(p) : maxpk;
    }
    CHECK_EQ_INT(maxsig, GROVE_XMSS_MAX_SIG_BYTES);
    CHECK_EQ_INT(maxpk, GROVE_XMSS_MAX_PK_BYTES);
    /* the two OID spaces overlap numerically */
    CHECK(grove_xmss_params_from_oid(GROVE_XMSS_FAMILY_XMSS, 1) ==
          grove_xmss_params_get("XMSS-SHA2_10_256"));
    CHECK(grove_xmss_params_from_oid(GROVE_XMSS_FAMILY_XMSSMT, 1) ==
          grove_xmss_params_get("XMSSMT-SHA2_20/2_256"));
    CHECK(grove_xmss_params_from_oid(GROVE_XMSS_FAMILY_XMSS, 0x16) == NULL);
    CHECK(grove_xmss_params_from_oid(GROVE_XMSS_FAMILY_XMSSMT, 0x39) == NULL);
    CHECK(grove_xmss_params_from_oid(GROVE_XMSS_FAMILY_XMSS, 0) == NULL);
    /* lenient names: case, and '-' for the '/' of XMSS^MT */
    CHECK(grove_xmss_params_get("xmssmt-sha2_20-2_256") ==
          grove_xmss_params_get("XMSSMT-SHA2_20/2_256"));
    CHECK(grove_xmss_params_get("xmss-shake256_10_192") != NULL);
    CHECK(grove_xmss_params_get("XMSS-SHA2_10-256") == NULL);
    CHECK(grove_xmss_params_get("XMSS-SHA2_12_256") == NULL);
    CHECK(grove_xmss_params_get("") == NULL);
    CHECK(grove_xmss_params_get(NULL) == NULL);
}

/* ---- a whole XMSS-SHA2_10_256 key ------------------------------------------------------------- */

static void exhaust_sha2_10_256(void)
{
    const grove_xmss_params *p = grove_xmss_params_get("XMSS-SHA2_10_256");
    const size_t sl = grove_xmss_sig_bytes(p);
    uint8_t seed[96], pk[GROVE_XMSS_MAX_PK_BYTES], msg[40];
    seed_bytes(seed, sizeof seed, 0x21);
    grove_xmss_opts opts = {.threads = 2};
    grove_xmss_key *key = NULL;
    CHECK_EQ_INT(grove_xmss_keygen_from_seed(p, &key, seed, seed + 32, seed + 64, &opts), GROVE_OK);
    if (key == NULL)
        return;
    CHECK_EQ_INT(grove_xmss_key_public_key(key, pk), GROVE_OK);
    oracle o;
    oracle_init(&o, p, seed);
    oracle_root(&o);
    CHECK_MEM(pk + 4, o.root, 32);
    uint8_t *sig = malloc(sl), *want = malloc(sl);
    /* no callback: refuses */
    CHECK_EQ_INT(grove_xmss_key_sign(key, sig, NULL, msg, sizeof msg), GROVE_ERR_STATE);
    store st = {0};
    CHECK_EQ_INT(grove_xmss_key_set_persist(key, store_persist, &st), GROVE_OK);
    int all_equal = 1, all_verify = 1, idx_ok = 1;
    for (uint64_t i = 0; i < 1024; i++) {
        memset(msg, (int)(i & 0xff), sizeof msg);
        grove_store64_be(msg, i * 0x9e3779b97f4a7c15ull);
        uint64_t used = ~(uint64_t)0;
        CHECK_EQ_INT(grove_xmss_key_remaining(key), 1024 - i);
        int rc = grove_xmss_key_sign(key, sig, &used, msg, sizeof msg);
        if (rc != GROVE_OK || used != i)
            idx_ok = 0;
        oracle_sign(&o, i, msg, sizeof msg, want);
        if (memcmp(sig, want, sl) != 0)
            all_equal = 0;
        if (grove_xmss_verify(GROVE_XMSS_FAMILY_XMSS, sig, sl, msg, sizeof msg, pk, p->pk_bytes) !=
            GROVE_OK)
            all_verify = 0;
    }
    CHECK(idx_ok);
    CHECK(all_equal);
    CHECK(all_verify);
    CHECK_EQ_INT(st.calls, 1024);
    CHECK(!st.backwards);
    /* exhausted: explicit status, nothing left, and the last state holds no secret */
    CHECK_EQ_INT(grove_xmss_key_remaining(key), 0);
    CHECK_EQ_INT(grove_xmss_key_sign(key, sig, NULL, msg, sizeof msg), GROVE_ERR_EXHAUSTED);
    int zeroed = 1;
    for (size_t i = 0; i < sl; i++)
        zeroed &= sig[i] == 0;
    CHECK(zeroed); /* the output is zeroed when signing is refused */
    grove_xmss_state_info info;
    CHECK_EQ_INT(grove_xmss_state_info_get(&info, st.buf, st.len), GROVE_OK);
    CHECK(info.exhausted && info.high_water == 1024 && info.remaining == 0);
    int zero = 1;
    for (size_t i = 72; i < 72 + 64; i++)
        zero &= st.buf[i] == 0;
    CHECK(zero);
    grove_xmss_key *again = NULL;
    CHECK_EQ_INT(grove_xmss_key_load(&again, st.buf, st.len, NULL), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_key_remaining(again), 0);
    CHECK_EQ_INT(grove_xmss_key_set_persist(again, store_persist, &st), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_key_sign(again, sig, NULL, msg, sizeof msg), GROVE_ERR_EXHAUSTED);
    grove_xmss_key_free(again);
    store_free(&st);
    oracle_free(&o);
    free(sig);
    free(want);
    grove_xmss_key_free(key);
}

/* ---- the node cache on small parameters ------------------------------------------------------ */

static uint64_t rnd_state = 0x1234567;

/*
 * Sign every index of a key with small parameters through the key object, with exports and
 * reloads, batch reservations and splits at random points; every signature must equal the
 * oracle's at its index and verify; no index may be used twice.
 */
static void cache_walk(const grove_xmss_params *p, int mode)
{
    const unsigned n = p->n;
    const uint64_t total = (uint64_t)1 << p->h;
    const size_t sl = p->sig_bytes;
    uint8_t seed[3 * XMSS_MAX_N], msg[17];
    seed_bytes(seed, sizeof seed, (uint8_t)(p->h * 7 + p->d));
    grove_xmss_opts opts = {.threads = (unsigned)(1 + (mode & 1))};
    grove_xmss_key *key = NULL;
    xmss_registry_reset(); /* the same key is walked in several modes */
    CHECK_EQ_INT(grove_xmss_keygen_from_seed(p, &key, seed, seed + n, seed + 2 * n, &opts),
                 GROVE_OK);
    if (key == NULL)
        return;
    oracle o;
    oracle_init(&o, p, seed);
    oracle_root(&o);
    uint8_t pk[GROVE_XMSS_MAX_PK_BYTES];
    CHECK_EQ_INT(grove_xmss_key_public_key(key, pk), GROVE_OK);
    CHECK_MEM(pk + 4, o.root, n);
    uint8_t *sig = malloc(sl), *want = malloc(sl), *used = calloc((size_t)total, 1);
    store st = {0};
    CHECK_EQ_INT(grove_xmss_key_set_persist(key, store_persist, &st), GROVE_OK);
    /* a queue of keys (splits add more) */
    grove_xmss_key *keys[64];
    store stores[64];
    memset(stores, 0, sizeof stores);
    size_t nkeys = 1;
    keys[0] = key;
    stores[0] = st;
    CHECK_EQ_INT(grove_xmss_key_set_persist(key, store_persist, &stores[0]), GROVE_OK);
    int equal = 1, verify = 1, twice = 0, count_ok = 1;
    uint64_t signed_n = 0;
    for (size_t kq = 0; kq < nkeys; kq++) {
        grove_xmss_key *k = keys[kq];
        for (;;) {
            uint64_t r = test_rand_u64(&rnd_state);
            if ((mode & 2) && r % 37 == 0 && grove_xmss_key_remaining(k) > 0) {
                /* export and reload: signing resumes at the high-water mark */
                size_t cap = grove_xmss_key_state_bytes(k), len = 0;
                uint8_t *b = malloc(cap);
                CHECK_EQ_INT(grove_xmss_key_export(k, b, cap, &len), GROVE_OK);
                uint64_t hw = grove_load64_be(b + 24);
                grove_xmss_key *k2 = NULL;
                CHECK_EQ_INT(xmss_key_load_params(p, b, len, &opts, &k2), GROVE_OK);
                free(b);
                if (k2 == NULL)
                    break;
                CHECK_EQ_INT(grove_xmss_key_index(k2), hw);
                grove_xmss_key_free(k);
                k = keys[kq] = k2;
                CHECK_EQ_INT(grove_xmss_key_set_persist(k, store_persist, &stores[kq]), GROVE_OK);
            }
            if ((mode & 4) && r % 53 == 1)
                CHECK_EQ_INT(grove_xmss_key_set_batch(k, (uint32_t)(1 + r % 9)), GROVE_OK);
            if ((mode & 8) && r % 41 == 2 && nkeys < 64 && grove_xmss_key_remaining(k) > 2) {
                uint64_t cnt = 1 + (r >> 20) % (grove_xmss_key_remaining(k) - 1);
                grove_xmss_key *nk = NULL;
                int rc = grove_xmss_key_split(k, &nk, cnt, &opts);
                if (rc == GROVE_OK) {
                    keys[nkeys] = nk;
                    CHECK_EQ_INT(grove_xmss_key_set_persist(nk, store_persist, &stores[nkeys]),
                                 GROVE_OK);
                    nkeys++;
                } else if (rc != GROVE_ERR_EXHAUSTED) {
                    CHECK_EQ_INT(rc, GROVE_OK);
                }
            }
            uint64_t idx = 0;
            memset(msg, (int)r, sizeof msg);
            int rc = grove_xmss_key_sign(k, sig, &idx, msg, sizeof msg);
            if (rc == GROVE_ERR_EXHAUSTED)
                break;
            CHECK_EQ_INT(rc, GROVE_OK);
            if (rc != GROVE_OK || idx >= total)
                break;
            signed_n++;
            if (used[idx])
                twice = 1;
            used[idx] = 1;
            oracle_sign(&o, idx, msg, sizeof msg, want);
            if (memcmp(sig, want, sl) != 0)
                equal = 0;
            if (xmss_verify_internal(p, o.root, seed + 2 * n, msg, sizeof msg, sig, sl) != GROVE_OK)
                verify = 0;
        }
    }
    if (!(mode & 14))
        count_ok = signed_n == total;
    CHECK(equal);
    CHECK(verify);
    CHECK(!twice);
    CHECK(count_ok);
    for (size_t i = 0; i < nkeys; i++) {
        CHECK(!stores[i].backwards);
        store_free(&stores[i]);
        grove_xmss_key_free(keys[i]);
    }
    oracle_free(&o);
    free(sig);
    free(want);
    free(used);
}

static void cache_small(void)
{
    /* trees cut into several cache levels; layers of 1..4 */
    static const struct {
        unsigned mt, hash, n, h, d, lmax;
    } shapes[] = {
        {0, XMSS_SHA256, 32, 7, 1, 3},   /* levels 2, 2, 3 */
        {0, XMSS_SHAKE128, 32, 6, 1, 1}, /* six levels of one */
        {0, XMSS_SHA256, 24, 5, 1, 2},   /* levels 1, 2, 2 */
        {1, XMSS_SHA256, 32, 6, 2, 2},   /* two layers of levels 1, 2 */
        {1, XMSS_SHA256, 24, 6, 3, 1},   /* three layers of levels 1, 1 */
        {1, XMSS_SHAKE256, 24, 4, 4, 1}, /* four layers of trees of two leaves */
        {1, XMSS_SHA512, 64, 4, 2, 1},   /* levels 1, 1 */
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        grove_xmss_params p = mkp("TEST", 0xfff00000u + (uint32_t)i, shapes[i].mt, shapes[i].hash,
                                  shapes[i].n, shapes[i].h, shapes[i].d, shapes[i].lmax);
        double t0 = now();
        cache_walk(&p, 0);
        cache_walk(&p, 1 | 2 | 4 | 8);
        fprintf(stderr, "    shape %zu: %.2f s\n", i, now() - t0);
    }
}

/* ---- the state rules -------------------------------------------------------------------------- */

static grove_xmss_key *small_key(grove_xmss_params *p, uint8_t *seed, uint8_t base)
{
    *p = mkp("TEST", 0xfff10000u, 1, XMSS_SHA256, 32, 8, 2, 2);
    seed_bytes(seed, 96, base);
    grove_xmss_key *k = NULL;
    CHECK_EQ_INT(grove_xmss_keygen_from_seed(p, &k, seed, seed + 32, seed + 64, NULL), GROVE_OK);
    return k;
}

static void state_rules(void)
{
    grove_xmss_params p;
    uint8_t seed[96], msg[3] = {1, 2, 3}, pk[68];
    grove_xmss_key *k = small_key(&p, seed, 7);
    if (k == NULL)
        return;
    CHECK_EQ_INT(grove_xmss_key_public_key(k, pk), GROVE_OK);
    uint8_t *sig = malloc(p.sig_bytes);
    store st = {0};
    uint64_t idx = 99;
    CHECK_EQ_INT(grove_xmss_key_sign(k, sig, &idx, msg, 3), GROVE_ERR_STATE);
    CHECK_EQ_INT(grove_xmss_key_index(k), 0);
    CHECK_EQ_INT(grove_xmss_key_set_persist(k, store_persist, &st), GROVE_OK);
    /* a failing callback: nothing signed, the buffer zeroed, the index never used */
    memset(sig, 0xaa, p.sig_bytes);
    st.fail = 1;
    CHECK_EQ_INT(grove_xmss_key_sign(k, sig, &idx, msg, 3), GROVE_ERR_STORAGE);
    int zero = 1;
    for (size_t i = 0; i < p.sig_bytes; i++)
        zero &= sig[i] == 0;
    CHECK(zero);
    CHECK_EQ_INT(st.calls, 0);
    CHECK_EQ_INT(grove_xmss_key_sign(k, sig, &idx, msg, 3), GROVE_OK);
    CHECK_EQ_INT(idx, 1); /* index 0 burned by the failure */
    CHECK_EQ_INT(st.calls, 1);
    CHECK_EQ_INT(grove_load64_be(st.buf + 24), 2); /* high-water mark persisted before signing */
    CHECK_EQ_INT(xmss_verify_internal(&p, pk + 4, pk + 36, msg, 3, sig, p.sig_bytes), GROVE_OK);
    /* batch reservation: one callback per 5 signatures; reloading burns the unused ones */
    CHECK_EQ_INT(grove_xmss_key_set_batch(k, 5), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_key_set_batch(k, 0), GROVE_ERR_INVALID_ARG);
    for (int i = 0; i < 7; i++)
        CHECK_EQ_INT(grove_xmss_key_sign(k, sig, &idx, msg, 3), GROVE_OK);
    CHECK_EQ_INT(idx, 8);
    CHECK_EQ_INT(st.calls, 3);
    CHECK_EQ_INT(grove_load64_be(st.buf + 24), 12);
    /* a second object of the same key (a reload) resumes at the high-water mark; the first
       may finish its own reservation but not reserve below the second's */
    grove_xmss_key *k2 = NULL;
    CHECK_EQ_INT(xmss_key_load_params(&p, st.buf, st.len, NULL, &k2), GROVE_OK);
    if (k2 == NULL)
        return;
    CHECK_EQ_INT(grove_xmss_key_index(k2), 12);
    CHECK_EQ_INT(grove_xmss_key_set_persist(k2, store_persist, &st), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_key_sign(k2, sig, &idx, msg, 3), GROVE_OK);
    CHECK_EQ_INT(idx, 12);
    CHECK_EQ_INT(xmss_verify_internal(&p, pk + 4, pk + 36, msg, 3, sig, p.sig_bytes), GROVE_OK);
    for (int i = 0; i < 3; i++)
        CHECK_EQ_INT(grove_xmss_key_sign(k, sig, &idx, msg, 3), GROVE_OK);
    CHECK_EQ_INT(idx, 11);
    CHECK_EQ_INT(grove_xmss_key_sign(k, sig, &idx, msg, 3), GROVE_ERR_STATE);
    grove_xmss_key *nk = NULL;
    CHECK_EQ_INT(grove_xmss_key_split(k, &nk, 10, NULL), GROVE_ERR_STATE);
    size_t el = grove_xmss_key_state_bytes(k), elen = 0;
    uint8_t *eb = malloc(el + 32);
    CHECK_EQ_INT(grove_xmss_key_export(k, eb, el + 32, &elen), GROVE_OK);
    CHECK_EQ_INT(grove_load64_be(eb + 24), 13); /* an export never rolls the mark back */
    free(eb);
    grove_xmss_key_free(k);
    k = k2;
    /* split: errors, then a disjoint range */
    CHECK_EQ_INT(grove_xmss_key_split(k, &nk, 0, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_xmss_key_split(k, &nk, 245, NULL), GROVE_ERR_EXHAUSTED);
    st.fail = 1;
    CHECK_EQ_INT(grove_xmss_key_split(k, &nk, 100, NULL), GROVE_ERR_STORAGE);
    CHECK(nk == NULL);
    uint64_t s0, e0;
    grove_xmss_key_range(k, &s0, &e0);
    CHECK(s0 == 0 && e0 == 256);
    CHECK_EQ_INT(grove_xmss_key_split(k, &nk, 100, NULL), GROVE_OK);
    grove_xmss_key_range(k, &s0, &e0);
    CHECK(s0 == 0 && e0 == 156);
    CHECK_EQ_INT(grove_load64_be(st.buf + 40), 156); /* the shrink was persisted */
    if (nk) {
        uint64_t s1, e1;
        grove_xmss_key_range(nk, &s1, &e1);
        CHECK(s1 == 156 && e1 == 256);
        CHECK_EQ_INT(grove_xmss_key_index(nk), 156);
        uint8_t id0[16], id1[16];
        grove_xmss_key_id(k, id0);
        grove_xmss_key_id(nk, id1);
        CHECK(memcmp(id0, id1, 16) != 0);
        CHECK_EQ_INT(grove_xmss_key_sign(nk, sig, &idx, msg, 3), GROVE_ERR_STATE);
        store st2 = {0};
        CHECK_EQ_INT(grove_xmss_key_set_persist(nk, store_persist, &st2), GROVE_OK);
        CHECK_EQ_INT(grove_xmss_key_sign(nk, sig, &idx, msg, 3), GROVE_OK);
        CHECK_EQ_INT(idx, 156);
        CHECK_EQ_INT(xmss_verify_internal(&p, pk + 4, pk + 36, msg, 3, sig, p.sig_bytes), GROVE_OK);
        store_free(&st2);
        grove_xmss_key_free(nk);
    }
    CHECK(!st.backwards);
    /* sign the rest of the original range: it stops exactly at the split point */
    uint64_t last = 0;
    int rc;
    while ((rc = grove_xmss_key_sign(k, sig, &idx, msg, 3)) == GROVE_OK)
        last = idx;
    CHECK_EQ_INT(rc, GROVE_ERR_EXHAUSTED);
    CHECK_EQ_INT(last, 155);
    CHECK_EQ_INT(xmss_verify_internal(&p, pk + 4, pk + 36, msg, 3, sig, p.sig_bytes),
                 GROVE_ERR_VERIFY);
    store_free(&st);
    free(sig);
    grove_xmss_key_free(k);
}

/* Several threads on one key object: every index used once, every signature valid. */
typedef struct {
    grove_xmss_key *k;
    const grove_xmss_params *p;
    uint64_t idx[40];
    int ok;
} thr_arg;

static void *signer(void *arg)
{
    thr_arg *a = arg;
    uint8_t *sig = malloc(a->p->sig_bytes), pk[68];
    CHECK_EQ_INT(grove_xmss_key_public_key(a->k, pk), GROVE_OK);
    a->ok = sig != NULL;
    for (int i = 0; i < 40 && a->ok; i++) {
        uint8_t msg[8];
        memset(msg, i, sizeof msg);
        if (grove_xmss_key_sign(a->k, sig, &a->idx[i], msg, sizeof msg) != GROVE_OK ||
            xmss_verify_internal(a->p, pk + 4, pk + 36, msg, sizeof msg, sig, a->p->sig_bytes) !=
                GROVE_OK)
            a->ok = 0;
    }
    free(sig);
    return NULL;
}

static void concurrent_signers(void)
{
    grove_xmss_params p;
    uint8_t seed[96];
    grove_xmss_key *k = small_key(&p, seed, 8);
    if (k == NULL)
        return;
    store st = {0};
    CHECK_EQ_INT(grove_xmss_key_set_persist(k, store_persist, &st), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_key_set_batch(k, 3), GROVE_OK);
    thr_arg a[4];
    pthread_t th[4];
    for (int t = 0; t < 4; t++) {
        a[t].k = k;
        a[t].p = &p;
        pthread_create(&th[t], NULL, signer, &a[t]);
    }
    uint8_t seen[256] = {0};
    int dup = 0, ok = 1;
    for (int t = 0; t < 4; t++) {
        pthread_join(th[t], NULL);
        ok &= a[t].ok;
        for (int i = 0; i < 40; i++) {
            dup |= seen[a[t].idx[i] & 255];
            seen[a[t].idx[i] & 255] = 1;
        }
    }
    CHECK(ok);
    CHECK(!dup);
    CHECK_EQ_INT(grove_xmss_key_index(k), 160);
    CHECK(!st.backwards);
    store_free(&st);
    grove_xmss_key_free(k);
}

/* ---- streaming, random keys, thread counts ------------------------------------------------------ */

static void streaming_and_threads(void)
{
    const grove_xmss_params *p = grove_xmss_params_get("XMSSMT-SHA2_20/4_256");
    uint8_t seed[96], msg[1000];
    seed_bytes(seed, sizeof seed, 99);
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 31);
    grove_xmss_opts o1 = {.threads = 1}, o3 = {.threads = 3};
    grove_xmss_key *a = NULL, *b = NULL;
    CHECK_EQ_INT(grove_xmss_keygen_from_seed(p, &a, seed, seed + 32, seed + 64, &o1), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_keygen_from_seed(p, &b, seed, seed + 32, seed + 64, &o3), GROVE_OK);
    if (!a || !b)
        return;
    /* same seeds, any thread count: the same key state byte for byte */
    size_t la = grove_xmss_key_state_bytes(a), lb = grove_xmss_key_state_bytes(b);
    uint8_t *sa = malloc(la), *sb = malloc(lb);
    CHECK_EQ_INT(grove_xmss_key_export(a, sa, la, &la), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_key_export(b, sb, lb, &lb), GROVE_OK);
    CHECK(la == lb && memcmp(sa, sb, la) == 0);
    CHECK_EQ_INT(grove_xmss_key_export(a, sa, la - 1, &la), GROVE_ERR_BUFFER_TOO_SMALL);
    store s1 = {0}, s2 = {0};
    grove_xmss_key_free(a); /* one live object per key */
    a = NULL;
    CHECK_EQ_INT(grove_xmss_key_set_persist(b, store_persist, &s2), GROVE_OK);
    size_t sl = grove_xmss_sig_bytes(p);
    uint8_t *x = malloc(sl), *y = malloc(sl), pk[68];
    CHECK_EQ_INT(grove_xmss_key_public_key(b, pk), GROVE_OK);
    oracle o;
    oracle_init(&o, p, seed);
    oracle_root(&o);
    int same = 1;
    for (int round = 0; round < 40; round++) {
        uint64_t i2;
        grove_xmss_sign_ctx *c = NULL;
        CHECK_EQ_INT(grove_xmss_key_sign_begin(b, &c, &i2), GROVE_OK);
        size_t step = 7 + (size_t)round;
        for (size_t off = 0; off < sizeof msg; off += step)
            CHECK_EQ_INT(grove_xmss_sign_update(c, msg + off,
                                                sizeof msg - off < step ? sizeof msg - off : step),
                         GROVE_OK);
        CHECK_EQ_INT(grove_xmss_sign_finish(c, y), GROVE_OK);
        oracle_sign(&o, i2, msg, sizeof msg, x);
        same &= i2 == (uint64_t)round && memcmp(x, y, sl) == 0;
    }
    CHECK(same);
    oracle_free(&o);
    /* an aborted context burns its index */
    grove_xmss_sign_ctx *c = NULL;
    uint64_t ia, ib;
    CHECK_EQ_INT(grove_xmss_key_sign_begin(b, &c, &ia), GROVE_OK);
    grove_xmss_sign_abort(c);
    CHECK_EQ_INT(grove_xmss_key_sign(b, y, &ib, msg, 1), GROVE_OK);
    CHECK_EQ_INT(ib, ia + 1);
    /* random keys differ */
    grove_xmss_key *r1 = NULL, *r2 = NULL;
    uint8_t pk1[68], pk2[68];
    CHECK_EQ_INT(grove_xmss_keygen(p, &r1, NULL), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_keygen(p, &r2, &o3), GROVE_OK);
    if (r1 && r2) {
        CHECK_EQ_INT(grove_xmss_key_public_key(r1, pk1), GROVE_OK);
        CHECK_EQ_INT(grove_xmss_key_public_key(r2, pk2), GROVE_OK);
        CHECK(memcmp(pk1, pk2, 68) != 0);
        CHECK_EQ_INT(grove_xmss_key_set_persist(r1, store_persist, &s1), GROVE_OK);
        CHECK_EQ_INT(grove_xmss_key_sign(r1, x, NULL, msg, 5), GROVE_OK);
        CHECK_EQ_INT(grove_xmss_verify(GROVE_XMSS_FAMILY_XMSSMT, x, sl, msg, 5, pk1, 68), GROVE_OK);
        CHECK_EQ_INT(grove_xmss_verify(GROVE_XMSS_FAMILY_XMSSMT, x, sl, msg, 5, pk2, 68),
                     GROVE_ERR_VERIFY);
    }
    grove_xmss_key_free(r1);
    grove_xmss_key_free(r2);
    CHECK_EQ_INT(grove_xmss_keygen(NULL, &r1, NULL), GROVE_ERR_INVALID_ARG);
    store_free(&s1);
    store_free(&s2);
    free(sa);
    free(sb);
    free(x);
    free(y);
    grove_xmss_key_free(a);
    grove_xmss_key_free(b);
}

/* ---- strict verification ------------------------------------------------------------------------ */

static void verify_strict(void)
{
    const grove_xmss_params *p = grove_xmss_params_get("XMSS-SHAKE256_10_192");
    uint8_t seed[72], pk[52], msg[5] = "hello";
    seed_bytes(seed, sizeof seed, 5);
    grove_xmss_key *k = NULL;
    CHECK_EQ_INT(grove_xmss_keygen_from_seed(p, &k, seed, seed + 24, seed + 48, NULL), GROVE_OK);
    if (!k)
        return;
    store st = {0};
    CHECK_EQ_INT(grove_xmss_key_set_persist(k, store_persist, &st), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_key_public_key(k, pk), GROVE_OK);
    size_t sl = grove_xmss_sig_bytes(p);
    uint8_t *sig = malloc(sl + 1), *t = malloc(sl + 1);
    CHECK_EQ_INT(grove_xmss_key_sign(k, sig, NULL, msg, 5), GROVE_OK);
    const grove_xmss_family X = GROVE_XMSS_FAMILY_XMSS;
    CHECK_EQ_INT(grove_xmss_verify(X, sig, sl, msg, 5, pk, 52), GROVE_OK);
    sig[sl] = 0;
    CHECK_EQ_INT(grove_xmss_verify(X, sig, sl + 1, msg, 5, pk, 52),
                 GROVE_ERR_VERIFY); /* trailing */
    CHECK_EQ_INT(grove_xmss_verify(X, sig, sl - 1, msg, 5, pk, 52), GROVE_ERR_VERIFY); /* short */
    CHECK_EQ_INT(grove_xmss_verify(X, sig, 0, msg, 5, pk, 52), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_xmss_verify(X, sig, sl, msg, 4, pk, 52), GROVE_ERR_VERIFY);
    CHECK_EQ_INT(grove_xmss_verify(X, sig, sl, msg, 5, pk, 51), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_xmss_verify(X, sig, sl, msg, 5, pk, 3), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_xmss_verify(GROVE_XMSS_FAMILY_XMSSMT, sig, sl, msg, 5, pk, 52),
                 GROVE_ERR_ENCODING); /* OID 0x13 in the XMSS^MT space is a 32-byte set */
    CHECK_EQ_INT(grove_xmss_verify((grove_xmss_family)7, sig, sl, msg, 5, pk, 52),
                 GROVE_ERR_INVALID_ARG);
    memcpy(t, pk, 52);
    grove_store32_be(t, 0x99);
    CHECK_EQ_INT(grove_xmss_verify(X, sig, sl, msg, 5, t, 52), GROVE_ERR_UNSUPPORTED);
    grove_store32_be(t, 0x10); /* another set's OID */
    CHECK_EQ_INT(grove_xmss_verify(X, sig, sl, msg, 5, t, 52), GROVE_ERR_ENCODING);
    /* index out of range (the 4-byte field of h = 10) and every part of the signature */
    memcpy(t, sig, sl);
    grove_store32_be(t, 1024);
    CHECK_EQ_INT(grove_xmss_verify(X, t, sl, msg, 5, pk, 52), GROVE_ERR_VERIFY);
    grove_store32_be(t, 0x80000000u);
    CHECK_EQ_INT(grove_xmss_verify(X, t, sl, msg, 5, pk, 52), GROVE_ERR_VERIFY);
    int all = 1;
    for (size_t pos = 0; pos < sl; pos += 1 + pos / 3) {
        memcpy(t, sig, sl);
        t[pos] ^= (uint8_t)(1u << (pos % 8));
        all &= grove_xmss_verify(X, t, sl, msg, 5, pk, 52) == GROVE_ERR_VERIFY;
    }
    CHECK(all);
    for (size_t pos = 4; pos < 52; pos += 5) {
        memcpy(t, pk, 52);
        t[pos] ^= 0x40;
        CHECK_EQ_INT(grove_xmss_verify(X, sig, sl, msg, 5, t, 52), GROVE_ERR_VERIFY);
    }
    uint64_t i = 0;
    CHECK_EQ_INT(grove_xmss_sig_index(p, &i, sig, sl), GROVE_OK);
    CHECK_EQ_INT(i, 0);
    CHECK_EQ_INT(grove_xmss_sig_index(p, &i, sig, sl + 1), GROVE_ERR_ENCODING);
    const grove_xmss_params *q = NULL;
    CHECK_EQ_INT(grove_xmss_pk_params(X, &q, pk, 52), GROVE_OK);
    CHECK(q == p);
    store_free(&st);
    free(sig);
    free(t);
    grove_xmss_key_free(k);
}

/*
 * The rules of grove/common.h that XMSS adds to: the set count, bool predicates, the size needed
 * on a short export buffer, NULL inputs, and threads = GROVE_THREADS_AUTO giving the same key.
 */
static void contract(void)
{
    CHECK_EQ_INT(grove_xmss_params_count(), 77);
    CHECK(grove_xmss_params_at(grove_xmss_params_count()) == NULL);
    CHECK(grove_xmss_params_sp800_208(grove_xmss_params_get("XMSS-SHA2_10_256")) == true);
    CHECK(grove_xmss_params_sp800_208(grove_xmss_params_get("XMSS-SHA2_10_512")) == false);
    CHECK(grove_xmss_params_sp800_208(NULL) == false);
    CHECK_EQ_INT(grove_xmss_pk_bytes(NULL), 0);
    CHECK_EQ_INT(grove_xmss_sig_bytes(NULL), 0);

    const grove_xmss_params *p = grove_xmss_params_get("XMSSMT-SHA2_20/4_256");
    uint8_t seed[96], pk_auto[68], pk_one[68], msg[3] = {1, 2, 3};
    seed_bytes(seed, sizeof seed, 9);
    grove_xmss_opts auto_opts = {.threads = GROVE_THREADS_AUTO}, one = {.threads = 1};
    grove_xmss_key *k = NULL, *l = NULL;
    CHECK_EQ_INT(grove_xmss_keygen_from_seed(p, &k, seed, seed + 32, seed + 64, &auto_opts),
                 GROVE_OK);
    CHECK_EQ_INT(grove_xmss_keygen_from_seed(p, &l, seed, seed + 32, seed + 64, &one), GROVE_OK);
    if (k == NULL || l == NULL) {
        grove_xmss_key_free(k);
        grove_xmss_key_free(l);
        return;
    }
    CHECK_EQ_INT(grove_xmss_key_public_key(k, pk_auto), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_key_public_key(l, pk_one), GROVE_OK);
    CHECK_MEM(pk_auto, pk_one, sizeof pk_one);

    /* a short export buffer: BUFFER_TOO_SMALL and the size needed, nothing written */
    size_t need = grove_xmss_key_state_bytes(k), got = 0;
    uint8_t *buf = malloc(need);
    memset(buf, 0xa5, need);
    CHECK_EQ_INT(grove_xmss_key_export(k, buf, need - 1, &got), GROVE_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(got, need);
    CHECK_EQ_INT(buf[0], 0xa5);
    CHECK_EQ_INT(grove_xmss_key_export(k, buf, need, &got), GROVE_OK);
    CHECK_EQ_INT(got, need);
    grove_xmss_state_info info;
    CHECK_EQ_INT(grove_xmss_state_info_get(&info, buf, got), GROVE_OK);
    CHECK(info.exhausted == false && info.has_parent == false && info.params == p);
    grove_wipe(buf, need);
    free(buf);

    /* NULL inputs are INVALID_ARG, also for verify (a NULL signature is not a forgery) */
    size_t sl = grove_xmss_sig_bytes(p);
    uint8_t *sig = calloc(1, sl);
    const grove_xmss_family F = GROVE_XMSS_FAMILY_XMSSMT;
    CHECK_EQ_INT(grove_xmss_verify(F, NULL, sl, msg, 3, pk_one, 68), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_xmss_verify(F, sig, sl, NULL, 3, pk_one, 68), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_xmss_verify(F, sig, sl, msg, 3, NULL, 68), GROVE_ERR_ENCODING);
    CHECK_EQ_INT(grove_xmss_key_sign(k, NULL, NULL, msg, 3), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_xmss_key_sign(k, sig, NULL, NULL, 3), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_xmss_key_set_batch(k, 0), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_xmss_key_set_persist(NULL, store_persist, NULL), GROVE_ERR_INVALID_ARG);
    CHECK_EQ_INT(grove_xmss_keygen(p, NULL, NULL), GROVE_ERR_INVALID_ARG);
    CHECK(grove_xmss_keyfile_changed(NULL) == false);
    free(sig);
    grove_xmss_key_free(k);
    grove_xmss_key_free(l);
}

/* ---- corrupted key states ------------------------------------------------------------------------ */

static void corrupted_states(void)
{
    const grove_xmss_params *p = grove_xmss_params_get("XMSSMT-SHA2_20/4_256");
    uint8_t seed[96], msg[1] = {0};
    seed_bytes(seed, sizeof seed, 42);
    grove_xmss_key *k = NULL;
    CHECK_EQ_INT(grove_xmss_keygen_from_seed(p, &k, seed, seed + 32, seed + 64, NULL), GROVE_OK);
    if (!k)
        return;
    store st = {0};
    CHECK_EQ_INT(grove_xmss_key_set_persist(k, store_persist, &st), GROVE_OK);
    uint8_t *sig = malloc(grove_xmss_sig_bytes(p));
    for (int i = 0; i < 35; i++)
        CHECK_EQ_INT(grove_xmss_key_sign(k, sig, NULL, msg, 1), GROVE_OK);
    size_t len = st.len;
    uint8_t *good = malloc(len), *bad = malloc(len + 1);
    memcpy(good, st.buf, len);
    grove_xmss_key *l = NULL;
    grove_xmss_state_info info;
    CHECK_EQ_INT(grove_xmss_state_info_get(&info, good, len), GROVE_OK);
    CHECK(info.params == p && info.index == 35 && info.high_water == 35 &&
          info.range_end == 1u << 20);
    CHECK_EQ_INT(grove_xmss_key_load(&l, good, len, NULL), GROVE_OK);
    grove_xmss_key_free(l);
    /* every header byte, and bytes spread over the seeds and the cache */
    int all = 1;
    for (size_t pos = 0; pos < len; pos += pos < 200 ? 1 : 1 + pos / 50) {
        memcpy(bad, good, len);
        bad[pos] ^= 0x10;
        l = NULL;
        int rc = grove_xmss_key_load(&l, bad, len, NULL);
        int ri = grove_xmss_state_info_get(&info, bad, len);
        if (rc == GROVE_OK || l != NULL || ri == GROVE_OK)
            all = 0;
        grove_xmss_key_free(l);
    }
    CHECK(all);
    /* truncated anywhere, extended by a byte */
    all = 1;
    for (size_t cut = 0; cut < len; cut += 1 + cut / 20) {
        l = NULL;
        all &= grove_xmss_key_load(&l, good, cut, NULL) == GROVE_ERR_ENCODING && l == NULL;
    }
    CHECK(all);
    memcpy(bad, good, len);
    bad[len] = 0;
    CHECK_EQ_INT(grove_xmss_key_load(&l, bad, len + 1, NULL), GROVE_ERR_ENCODING);
    /* a consistent-looking state with inconsistent counters (tag recomputed) is refused */
    memcpy(bad, good, len);
    grove_store64_be(bad + 16, 36); /* index above the high-water mark */
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)"GROVE-XMSS-PRIVATE-KEY-v1", 25);
    grove_sha256_update(&c, bad, len - 32);
    grove_sha256_final(&c, bad + len - 32, 32);
    CHECK_EQ_INT(grove_xmss_key_load(&l, bad, len, NULL), GROVE_ERR_STATE);
    /* a cache that does not match the index: moved index, recomputed tag */
    memcpy(bad, good, len);
    grove_store64_be(bad + 16, 40);
    grove_store64_be(bad + 24, 40);
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)"GROVE-XMSS-PRIVATE-KEY-v1", 25);
    grove_sha256_update(&c, bad, len - 32);
    grove_sha256_final(&c, bad + len - 32, 32);
    CHECK_EQ_INT(grove_xmss_key_load(&l, bad, len, NULL), GROVE_ERR_STATE);
    /* unknown version / OID */
    memcpy(bad, good, len);
    bad[9] = 3;
    CHECK_EQ_INT(grove_xmss_key_load(&l, bad, len, NULL), GROVE_ERR_UNSUPPORTED);
    CHECK_EQ_INT(grove_xmss_key_load(&l, NULL, len, NULL), GROVE_ERR_INVALID_ARG);
    store_free(&st);
    free(good);
    free(bad);
    free(sig);
    grove_xmss_key_free(k);
}

/* ---- re-sealed states: counters or secrets rewritten, key id and tag recomputed ----------------- */

/* Recompute the key id and the tag of a state, as an editor of the file (or fuzz_xmss_state) would. */
static void reseal_state(uint8_t *s, size_t len, const grove_xmss_params *p)
{
    const unsigned n = p->n;
    uint8_t b[32];
    grove_sha256_ctx c;
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)"grove-xmss-key-id-v1", 20);
    grove_sha256_update(&c, s + 10, 1);
    grove_sha256_update(&c, s + 12, 4);
    grove_sha256_update(&c, s + 72 + 3 * n, n); /* root */
    grove_sha256_update(&c, s + 72 + 2 * n, n); /* PUB_SEED */
    grove_sha256_update(&c, s + 32, 8);         /* range start */
    grove_sha256_final(&c, b, 32);
    memcpy(s + 48, b, GROVE_XMSS_KEY_ID_BYTES);
    grove_sha256_init(&c);
    grove_sha256_update(&c, (const uint8_t *)"GROVE-XMSS-PRIVATE-KEY-v1", 25);
    grove_sha256_update(&c, s, len - 32);
    grove_sha256_final(&c, s + len - 32, 32);
}

/*
 * Move a state's index and high-water mark to pos and rewrite the cache's per-level counters
 * (subtree index, next-subtree progress, stack heights) to what the loader expects at pos,
 * leaving every cached node as it was: a cache of one index presented as one of another.
 * Returns the offset of layer 0's first level's current nodes.
 */
static size_t move_state(uint8_t *s, const grove_xmss_params *p, uint64_t pos)
{
    const unsigned n = p->n, hp = p->hp;
    uint64_t end = grove_load64_be(s + 40);
    grove_store64_be(s + 16, pos);
    grove_store64_be(s + 24, pos);
    size_t o = 72 + 4 * (size_t)n, first = 0;
    for (unsigned j = 0; j < p->d; j++) {
        unsigned lo[XMSS_MAX_LEVELS], hi[XMSS_MAX_LEVELS];
        unsigned nl = xmss_levels(hp, p->level_max, lo, hi);
        uint64_t g = pos >> (hp * j);
        o += n + (j ? (size_t)p->len * n : 0);
        for (unsigned i = 0; i < nl; i++) {
            size_t nnodes = ((size_t)2 << (hi[i] - lo[i])) - 2;
            uint64_t cur = g >> hi[i];
            grove_store64_be(s + o, cur);
            o += 8;
            if (j == 0 && i == 0)
                first = o;
            o += nnodes * n;
            if (hi[i] == hp && j == p->d - 1u)
                continue; /* the top level of the top layer has no next subtree */
            uint64_t nsub = (uint64_t)1 << (p->h - hp * j - hi[i]);
            int ok = cur + 1 < nsub && ((cur + 1) << (hi[i] + hp * j)) < end;
            uint64_t done = ok ? g & (((uint64_t)1 << hi[i]) - 1) : 0;
            grove_store64_be(s + o, done);
            o += 8;
            unsigned k = 0;
            uint8_t *sh = s + o + 1;
            memset(sh, 0, hi[i] + 1);
            for (int b = (int)hi[i] - 1; b >= 0; b--)
                if ((done >> b) & 1)
                    sh[k++] = (uint8_t)b;
            s[o] = (uint8_t)k;
            o += 1 + (hi[i] + 1) + (size_t)(hi[i] + 1) * n + nnodes * n;
        }
    }
    return first;
}

/* Load a state (parameters forced), sign once and verify; returns the load's status. */
static int load_sign_verify(const grove_xmss_params *p, const uint8_t *s, size_t len,
                            uint64_t want_idx)
{
    grove_xmss_key *k = NULL;
    xmss_registry_reset(); /* the same key is loaded from several states */
    int rc = xmss_key_load_params(p, s, len, NULL, &k);
    if (rc != GROVE_OK) {
        CHECK(k == NULL);
        return rc;
    }
    store st = {0};
    uint8_t *sig = malloc(p->sig_bytes), msg[2] = {7, 9};
    uint64_t idx = 0;
    CHECK_EQ_INT(grove_xmss_key_set_persist(k, store_persist, &st), GROVE_OK);
    CHECK_EQ_INT(grove_xmss_key_sign(k, sig, &idx, msg, 2), GROVE_OK);
    CHECK(idx == want_idx);
    CHECK_EQ_INT(xmss_verify_internal(p, s + 72 + 3 * p->n, s + 72 + 2 * p->n, msg, 2, sig,
                                      p->sig_bytes),
                 GROVE_OK);
    free(sig);
    store_free(&st);
    grove_xmss_key_free(k);
    return GROVE_OK;
}

/* A copy of a state. */
static uint8_t *dup_state(const uint8_t *s, size_t len)
{
    uint8_t *b = malloc(len);
    if (b != NULL)
        memcpy(b, s, len);
    return b;
}

/* A fresh key (seeds from base) with its state at index 0 exported into *s0. */
static grove_xmss_key *fresh_key(const grove_xmss_params *p, uint8_t base, store *st, uint8_t **s0,
                                 size_t *len0)
{
    uint8_t seed[3 * XMSS_MAX_N];
    seed_bytes(seed, sizeof seed, base);
    grove_xmss_key *k = NULL;
    *s0 = NULL;
    xmss_registry_reset();
    CHECK_EQ_INT(grove_xmss_keygen_from_seed(p, &k, seed, seed + p->n, seed + 2 * p->n, NULL),
                 GROVE_OK);
    if (k == NULL)
        return NULL;
    CHECK_EQ_INT(grove_xmss_key_set_persist(k, store_persist, st), GROVE_OK);
    size_t cap = grove_xmss_key_state_bytes(k);
    *s0 = malloc(cap);
    CHECK_EQ_INT(grove_xmss_key_export(k, *s0, cap, len0), GROVE_OK);
    return k;
}

/* Sign with k until its index is `to` (the registry forgets other objects of the key first). */
static void sign_to(grove_xmss_key *k, uint64_t to)
{
    const grove_xmss_params *p = grove_xmss_key_params(k);
    uint8_t *sig = malloc(p->sig_bytes), msg[1] = {0};
    xmss_registry_reset();
    while (grove_xmss_key_index(k) < to)
        CHECK_EQ_INT(grove_xmss_key_sign(k, sig, NULL, msg, 1), GROVE_OK);
    free(sig);
}

static void resealed_states(void)
{
    const grove_xmss_params *std[2] = {grove_xmss_params_get("XMSS-SHA2_10_256"),
                                       grove_xmss_params_get("XMSSMT-SHA2_20/4_256")};
    for (int s = 0; s < 2; s++) {
        const grove_xmss_params *p = std[s];
        const unsigned n = p->n;
        const uint64_t total = (uint64_t)1 << p->h;
        /* honest states of one key after 0, 1 and 33 signatures load and sign validly at their
         * high-water mark */
        store st = {0};
        uint8_t *s0 = NULL;
        size_t len = 0;
        grove_xmss_key *k = fresh_key(p, 5, &st, &s0, &len);
        if (k == NULL)
            continue;
        CHECK_EQ_INT(load_sign_verify(p, s0, len, 0), GROVE_OK);
        sign_to(k, 1);
        CHECK(st.len == len && grove_load64_be(st.buf + 24) == 1);
        CHECK_EQ_INT(load_sign_verify(p, st.buf, st.len, 1), GROVE_OK);
        sign_to(k, 33);
        CHECK(st.len == len && grove_load64_be(st.buf + 24) == 33);
        uint8_t *at33 = dup_state(st.buf, st.len);
        CHECK_EQ_INT(load_sign_verify(p, at33, len, 33), GROVE_OK);
        /* a batch reservation: the state saved at index 34 reserves up to 34 + 39 (XMSS) or
         * 34 + 199 (XMSS^MT, more than its 128 steps: the cache is rebuilt there); loading moves
         * the cache to the high-water mark */
        uint32_t batch = s ? 200 : 40;
        CHECK_EQ_INT(grove_xmss_key_set_batch(k, batch), GROVE_OK);
        sign_to(k, 34);
        CHECK(grove_load64_be(st.buf + 16) == 34 && grove_load64_be(st.buf + 24) == 33 + batch);
        CHECK_EQ_INT(load_sign_verify(p, st.buf, st.len, 33 + batch), GROVE_OK);
        /* after a split, both halves */
        grove_xmss_key *nk = NULL;
        store s2 = {0};
        uint64_t cnt = s ? 100000 : 300;
        xmss_registry_reset();
        CHECK_EQ_INT(grove_xmss_key_split(k, &nk, cnt, NULL), GROVE_OK);
        CHECK(grove_load64_be(st.buf + 40) == total - cnt);
        CHECK_EQ_INT(load_sign_verify(p, st.buf, st.len, 33 + batch), GROVE_OK);
        if (nk != NULL) {
            CHECK_EQ_INT(grove_xmss_key_set_persist(nk, store_persist, &s2), GROVE_OK);
            sign_to(nk, total - cnt + 1);
            CHECK_EQ_INT(load_sign_verify(p, s2.buf, s2.len, total - cnt + 1), GROVE_OK);
        }
        store_free(&s2);
        grove_xmss_key_free(nk);
        grove_xmss_key_free(k);
        store_free(&st);
        /* re-sealed states of index 33 */
        uint8_t *bad = malloc(len);
        size_t cache0 = 72 + 4 * (size_t)n + n + 8; /* layer 0's root, then its first level */
        /* SK_SEED changed: the cache is someone else's */
        memcpy(bad, at33, len);
        bad[72] ^= 1;
        reseal_state(bad, len, p);
        CHECK_EQ_INT(load_sign_verify(p, bad, len, 33), GROVE_ERR_STATE);
        /* one node of the bottom authentication path of index 33 (leaf 32, or 0 in tree 1) */
        memcpy(bad, at33, len);
        bad[cache0 + (s ? 0 : 32) * n] ^= 1;
        reseal_state(bad, len, p);
        CHECK_EQ_INT(load_sign_verify(p, bad, len, 33), GROVE_ERR_STATE);
        /* its node of height 2 (as in fuzz/regressions/fuzz_xmss_state/resealed-index33-cache0);
         * heights are stored one after the other: height 2 starts at 48 (hp 5), 1536 (hp 10) */
        memcpy(bad, at33, len);
        bad[cache0 + (s ? 48 + 1 : 1536 + 9) * n + 5] ^= 0x40;
        reseal_state(bad, len, p);
        CHECK_EQ_INT(load_sign_verify(p, bad, len, 33), GROVE_ERR_STATE);
        if (s == 0) {
            /* the whole tree is one cached level: the cache of index 0 is the cache of index
             * 33 too, so moving the counters over it skips indices but signs validly */
            move_state(s0, p, 33);
            reseal_state(s0, len, p);
            CHECK_EQ_INT(load_sign_verify(p, s0, len, 33), GROVE_OK);
        }
        free(bad);
        free(at33);
        free(s0);
    }
    /* several cached levels: the cache of index 0 presented as the cache of a later index
     * (counters moved, key id and tag recomputed) keeps the top nodes and upper layers right
     * but not the bottom authentication path, and is refused */
    static const struct {
        unsigned mt, h, d, lmax;
        uint64_t pos;
    } shapes[] = {
        {0, 7, 1, 3, 33},  /* levels 2, 2, 3 */
        {0, 10, 1, 5, 33}, /* levels 5, 5 */
        {1, 8, 2, 2, 9},   /* two layers of levels 2, 2: index 9 is in the first layer-0 tree */
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        grove_xmss_params q = mkp("TEST", 0xfff20000u + (uint32_t)i, shapes[i].mt, XMSS_SHA256,
                                  32, shapes[i].h, shapes[i].d, shapes[i].lmax);
        store st = {0};
        uint8_t *s0 = NULL;
        size_t len = 0;
        grove_xmss_key *k = fresh_key(&q, 9, &st, &s0, &len);
        if (k == NULL)
            continue;
        move_state(s0, &q, shapes[i].pos);
        reseal_state(s0, len, &q);
        CHECK_EQ_INT(load_sign_verify(&q, s0, len, shapes[i].pos), GROVE_ERR_STATE);
        /* the honest state of that index loads and signs validly */
        sign_to(k, shapes[i].pos);
        CHECK_EQ_INT(load_sign_verify(&q, st.buf, st.len, shapes[i].pos), GROVE_OK);
        free(s0);
        store_free(&st);
        grove_xmss_key_free(k);
    }
}

/* ---- every parameter set ------------------------------------------------------------------------- */

/*
 * grove_xmss_sign_finish_checked: a cached node that the load check cannot see (leaf 32 of a
 * state at index 32: index 32's own leaf is recomputed, index 33's authentication path uses the
 * cached one) makes the second signature invalid; the checked finish refuses it and zeroes the
 * output, the unchecked one returns it (and it does not verify).
 */
static void checked_finish(void)
{
    const grove_xmss_params *p = grove_xmss_params_get("XMSS-SHA2_10_256");
    const unsigned n = p->n;
    store st = {0};
    uint8_t *s0 = NULL, msg[3] = {1, 2, 3}, pk[GROVE_XMSS_MAX_PK_BYTES];
    size_t len = 0;
    grove_xmss_key *k = fresh_key(p, 9, &st, &s0, &len);
    if (k == NULL)
        return;
    CHECK_EQ_INT(grove_xmss_key_public_key(k, pk), GROVE_OK);
    sign_to(k, 32);
    uint8_t *bad = dup_state(st.buf, st.len);
    size_t cache0 = 72 + 4 * (size_t)n + n + 8;
    bad[cache0 + 32 * n] ^= 1;
    reseal_state(bad, len, p);
    uint8_t *sig = malloc(p->sig_bytes);
    for (int checked = 1; checked >= 0; checked--) {
        grove_xmss_key *l = NULL;
        store s2 = {0};
        xmss_registry_reset();
        CHECK_EQ_INT(grove_xmss_key_load(&l, bad, len, NULL), GROVE_OK);
        if (l == NULL)
            break;
        CHECK_EQ_INT(grove_xmss_key_set_persist(l, store_persist, &s2), GROVE_OK);
        grove_xmss_sign_ctx *c = NULL;
        uint64_t idx = 0;
        CHECK_EQ_INT(grove_xmss_key_sign_begin(l, &c, &idx), GROVE_OK);
        CHECK_EQ_INT(grove_xmss_sign_update(c, msg, 3), GROVE_OK);
        CHECK_EQ_INT(grove_xmss_sign_finish_checked(c, sig), GROVE_OK);
        CHECK(idx == 32 && grove_xmss_verify(GROVE_XMSS_FAMILY_XMSS, sig, p->sig_bytes, msg, 3, pk,
                                             p->pk_bytes) == GROVE_OK);
        CHECK_EQ_INT(grove_xmss_key_sign_begin(l, &c, &idx), GROVE_OK);
        CHECK_EQ_INT(grove_xmss_sign_update(c, msg, 3), GROVE_OK);
        memset(sig, 0xa5, p->sig_bytes);
        if (checked) {
            CHECK_EQ_INT(grove_xmss_sign_finish_checked(c, sig), GROVE_ERR_INTERNAL);
            int zero = 1;
            for (size_t i = 0; i < p->sig_bytes; i++)
                zero &= sig[i] == 0;
            CHECK(zero);
        } else {
            CHECK_EQ_INT(grove_xmss_sign_finish(c, sig), GROVE_OK);
            CHECK_EQ_INT(grove_xmss_verify(GROVE_XMSS_FAMILY_XMSS, sig, p->sig_bytes, msg, 3, pk,
                                           p->pk_bytes),
                         GROVE_ERR_VERIFY);
        }
        CHECK_EQ_INT(idx, 33);
        CHECK_EQ_INT(grove_load64_be(s2.buf + 24), 34); /* the index stays used */
        store_free(&s2);
        grove_xmss_key_free(l);
    }
    free(sig);
    free(bad);
    free(s0);
    store_free(&st);
    grove_xmss_key_free(k);
}

/* Every single-bit change of a (small) key state is refused by the integrity check. */
static void every_bit(void)
{
    grove_xmss_params p = mkp("T", 0x77, 1, XMSS_SHA256, 32, 4, 2, 2);
    uint8_t seed[96];
    seed_bytes(seed, sizeof seed, 77);
    grove_xmss_key *k = NULL;
    xmss_registry_reset();
    CHECK_EQ_INT(grove_xmss_keygen_from_seed(&p, &k, seed, seed + 32, seed + 64, NULL), GROVE_OK);
    if (k == NULL)
        return;
    store st = {0};
    CHECK_EQ_INT(grove_xmss_key_set_persist(k, store_persist, &st), GROVE_OK);
    sign_to(k, 3);
    size_t len = st.len;
    uint8_t *b = dup_state(st.buf, len);
    int all = 1;
    for (size_t i = 0; i < len * 8; i++) {
        b[i / 8] ^= (uint8_t)(1u << (i % 8));
        grove_xmss_key *l = NULL;
        all &= xmss_key_load_params(&p, b, len, NULL, &l) != GROVE_OK && l == NULL;
        b[i / 8] ^= (uint8_t)(1u << (i % 8));
    }
    CHECK(all);
    grove_xmss_key *l = NULL;
    xmss_registry_reset();
    CHECK_EQ_INT(xmss_key_load_params(&p, b, len, NULL, &l), GROVE_OK);
    grove_xmss_key_free(l);
    fprintf(stderr, "    %zu single-bit changes of a %zu-byte state refused\n", len * 8, len);
    free(b);
    store_free(&st);
    grove_xmss_key_free(k);
}

static void all_sets(unsigned max_hp, int quick)
{
    for (size_t i = 0; grove_xmss_params_at(i); i++) {
        const grove_xmss_params *p = grove_xmss_params_at(i);
        /* quick: every hash family at 20/4, the deeper shapes for SHA2-256 only */
        if (p->hp > max_hp || (quick && p->d != 4 && !(p->hash == XMSS_SHA256 && p->n == 32)))
            continue;
        uint8_t seed[192], msg[2] = {7, 8}, pk[132];
        seed_bytes(seed, sizeof seed, (uint8_t)i);
        grove_xmss_opts o = {.threads = 2};
        grove_xmss_key *k = NULL;
        unsigned n = p->n;
        CHECK_EQ_INT(grove_xmss_keygen_from_seed(p, &k, seed, seed + n, seed + 2 * n, &o),
                     GROVE_OK);
        if (!k)
            continue;
        store st = {0};
        CHECK_EQ_INT(grove_xmss_key_set_persist(k, store_persist, &st), GROVE_OK);
        CHECK_EQ_INT(grove_xmss_key_public_key(k, pk), GROVE_OK);
        size_t sl = grove_xmss_sig_bytes(p);
        uint8_t *sig = malloc(sl);
        int ok = 1;
        /* cross the first subtree boundary of the bottom level */
        uint64_t nsig = p->hp > 10 ? ((uint64_t)1 << (p->hp / 2)) + 2 : 3;
        if (p->hp <= 5)
            nsig = 34;
        for (uint64_t s = 0; s < nsig; s++) {
            uint64_t idx;
            ok &= grove_xmss_key_sign(k, sig, &idx, msg, 2) == GROVE_OK && idx == s;
            ok &= grove_xmss_verify(grove_xmss_params_family(p), sig, sl, msg, 2, pk,
                                    p->pk_bytes) == GROVE_OK;
        }
        msg[0] ^= 1;
        ok &= grove_xmss_verify(grove_xmss_params_family(p), sig, sl, msg, 2, pk, p->pk_bytes) ==
              GROVE_ERR_VERIFY;
        /* reload from the persisted state and go on */
        grove_xmss_key *l = NULL;
        ok &= grove_xmss_key_load(&l, st.buf, st.len, &o) == GROVE_OK;
        if (l) {
            CHECK_EQ_INT(grove_xmss_key_set_persist(l, store_persist, &st), GROVE_OK);
            uint64_t idx;
            ok &= grove_xmss_key_sign(l, sig, &idx, msg, 2) == GROVE_OK && idx == nsig;
            ok &= grove_xmss_verify(grove_xmss_params_family(p), sig, sl, msg, 2, pk,
                                    p->pk_bytes) == GROVE_OK;
            grove_xmss_key_free(l);
        }
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  set %s failed\n", p->name);
        store_free(&st);
        free(sig);
        grove_xmss_key_free(k);
    }
}

/*
 * The multi-lane SHA-256 path (sha256x.c) against the lane-by-lane one (x256 = 0) on every
 * group shape: whole groups of 8 or 16, partial ones, and groups of at most W / 4 lanes that go
 * through the single-block kernel; chains (leaves, WOTS+ public keys) and node hashes (with
 * outputs over their inputs). The ctest twins run it with GROVE_CPU=avx2 (8 lanes) and
 * portable (no multi-lane kernel: the path must be off).
 */
static void x256_matches_lanes(void)
{
    const grove_xmss_params *p = grove_xmss_params_get("XMSS-SHA2_10_256");
    const char *cpu = getenv("GROVE_CPU");
    uint8_t seed[96];
    seed_bytes(seed, sizeof seed, 0x5a);
    xmss_hash x, y;
    xmss_hash_init(&x, p, seed + 64, seed);
    y = x;
    y.x256 = 0;
    CHECK_EQ_INT(x.x256, grove_hash_kernels()->sha256_xw != NULL);
    if (cpu != NULL && strcmp(cpu, "portable") == 0)
        CHECK(!x.x256);
    if (!x.x256)
        return;
    fprintf(stderr, "  x256: %u lanes (%s)\n", grove_hash_kernels()->sha256_w, grove_cpu_path());
    xmss_lanes wx, wy;
    const size_t len = p->len, n = p->n;
    CHECK_EQ_INT(xmss_lanes_alloc(&wx, &x, (size_t)XMSS_LEAF_BATCH * len), GROVE_OK);
    CHECK_EQ_INT(xmss_lanes_alloc(&wy, &y, (size_t)XMSS_LEAF_BATCH * len), GROVE_OK);
    uint8_t *a = malloc(XMSS_LEAF_BATCH * len * n), *b = malloc(XMSS_LEAF_BATCH * len * n);
    static const unsigned leaves[] = {1, 2, 3, 5, 8, 16};
    for (size_t i = 0; i < sizeof leaves / sizeof leaves[0]; i++) {
        uint64_t c0 = xmss_hash_counter();
        xmss_leaves(&x, &wx, 1, 3, 100 + leaves[i], leaves[i], a);
        uint64_t c1 = xmss_hash_counter();
        xmss_leaves(&y, &wy, 1, 3, 100 + leaves[i], leaves[i], b);
        CHECK_MEM(a, b, leaves[i] * n);
        CHECK_EQ_INT(c1 - c0, xmss_hash_counter() - c1); /* the same compressions counted */
    }
    xmss_wots_pk(&x, &wx, 0, 9, 77, a);
    xmss_wots_pk(&y, &wy, 0, 9, 77, b);
    CHECK_MEM(a, b, len * n);
    /* node hashes, 1 .. 40 at once, output over the left input */
    uint64_t rs = 99;
    uint8_t *l = malloc(40 * n), *r = malloc(40 * n), *l2 = malloc(40 * n);
    uint8_t *o1[40], *o2[40];
    const uint8_t *lp[40], *rp[40], *lp2[40];
    hs_adrs ad[40];
    for (size_t cnt = 1; cnt <= 40; cnt++) {
        test_rand_bytes(&rs, l, 40 * n);
        test_rand_bytes(&rs, r, 40 * n);
        memcpy(l2, l, 40 * n);
        for (size_t k = 0; k < cnt; k++) {
            xmss_adrs_node(&ad[k], (uint32_t)k, 5 + k, (uint32_t)(k % 7), (uint32_t)(3 * k));
            o1[k] = l + k * n;
            lp[k] = l + k * n;
            o2[k] = a + k * n;
            lp2[k] = l2 + k * n;
            rp[k] = r + k * n;
        }
        xmss_nodes(&x, &wx, cnt, o1, lp, rp, ad);
        xmss_nodes(&y, &wy, cnt, o2, lp2, rp, ad);
        CHECK_MEM(l, a, cnt * n);
    }
    free(l);
    free(r);
    free(l2);
    free(a);
    free(b);
    xmss_lanes_free(&wx);
    xmss_lanes_free(&wy);
    xmss_hash_wipe(&x);
    xmss_hash_wipe(&y);
}

#define RUN(f)                                                                               \
    do {                                                                                     \
        double t0_ = now();                                                                  \
        f;                                                                                   \
        fprintf(stderr, "  %-28s %.2f s\n", #f, now() - t0_);                                \
    } while (0)

int main(int argc, char **argv)
{
    int all = argc > 1 && strcmp(argv[1], "all") == 0;
    if (argc > 1 && strcmp(argv[1], "x256") == 0) { /* the GROVE_CPU twins */
        RUN(x256_matches_lanes());
        return test_done();
    }
    RUN(params_table());
    RUN(x256_matches_lanes());
    if (all) {
        RUN(all_sets(16, 0));
        return test_done();
    }
    RUN(contract());
    RUN(verify_strict());
    RUN(state_rules());
    RUN(concurrent_signers());
    RUN(corrupted_states());
    RUN(resealed_states());
    RUN(streaming_and_threads());
    RUN(checked_finish());
    RUN(every_bit());
    RUN(cache_small());
    RUN(exhaust_sha2_10_256());
    RUN(all_sets(5, 1));
    return test_done();
}
