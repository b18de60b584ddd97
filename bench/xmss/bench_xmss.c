/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * XMSS / XMSS^MT benchmark (JSON). Per set: one leaf (WOTS+ key and L-tree), key generation on
 * 1 and 2 threads, signing (each op is the next signature of one key, so the median and the
 * mean cover consecutive indices; "sign" reserves 1024 indices per state write, "sign+persist"
 * writes the whole key state through the callback before every signature), verification.
 * Every result carries the hash compression-function calls it makes ("compressions": SHA-2
 * blocks or Keccak-f permutations, counted by the XMSS hash layer); key generation also its
 * mean process CPU time over all threads ("cpu_ns").
 * --big adds XMSS-SHA2_16_256 and XMSS-SHA2_20_256 key generation (minutes; one run each).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "grove/xmss.h"
#include "xmss/xmss_int.h"

typedef struct {
    const grove_xmss_params *p;
    unsigned threads;
    int persist_each; /* sign: batch 1 and a full state copy per signature */
    grove_xmss_key *key;
    uint8_t seed[3 * XMSS_MAX_N], pk[GROVE_XMSS_MAX_PK_BYTES], msg[64];
    uint8_t *sig, *state;
    size_t state_cap;
    uint64_t nsig;
    uint64_t leaves, comp;              /* keygen: per key */
    double cpu_total, cpu_runs;         /* keygen: process CPU time of the timed runs */
    char extra[256];
} xb;

static grove_status persist(void *arg, const uint8_t *state, size_t len)
{
    xb *b = arg;
    if (!b->persist_each)
        return GROVE_OK;
    if (len > b->state_cap) {
        free(b->state);
        b->state = malloc(len);
        b->state_cap = b->state ? len : 0;
        if (b->state == NULL)
            return GROVE_ERR_STORAGE;
    }
    memcpy(b->state, state, len); /* what a caller would write to its storage */
    return GROVE_OK;
}

static int new_key(xb *b)
{
    const unsigned n = grove_xmss_params_n(b->p);
    grove_xmss_key_free(b->key);
    b->key = NULL;
    xmss_registry_reset(); /* the benchmark recreates the same key on purpose */
    grove_xmss_opts o = {.threads = 2};
    if (grove_xmss_keygen_from_seed(b->p, &b->key, b->seed, b->seed + n, b->seed + 2 * n, &o))
        return 1;
    if (grove_xmss_key_public_key(b->key, b->pk) != GROVE_OK ||
        grove_xmss_key_set_persist(b->key, persist, b) != GROVE_OK ||
        grove_xmss_key_set_batch(b->key, b->persist_each ? 1 : 1024) != GROVE_OK)
        return 1;
    return 0;
}

static void init(xb *b)
{
    for (size_t i = 0; i < sizeof b->seed; i++)
        b->seed[i] = (uint8_t)(i * 13 + 5);
    memset(b->msg, 0x5a, sizeof b->msg);
    if (b->sig == NULL)
        b->sig = malloc(grove_xmss_sig_bytes(b->p));
}

/* CPU time of the whole process (every thread), in ns. */
static void keygen_extra(xb *b)
{
    snprintf(b->extra, sizeof b->extra,
             "\"threads\": %u, \"leaves\": %llu, \"compressions\": %llu, \"cpu_ns\": %.0f",
             b->threads, (unsigned long long)b->leaves, (unsigned long long)b->comp,
             b->cpu_runs > 0 ? b->cpu_total / b->cpu_runs : 0.0);
}

/* The mean CPU time (all threads) per key goes with the result: on a shared machine the wall
 * time of a 2-thread run says little, its CPU time / 2 is the unloaded estimate. */
static int op_keygen(void *arg)
{
    xb *b = arg;
    const unsigned n = grove_xmss_params_n(b->p);
    grove_xmss_opts o = {.threads = b->threads};
    grove_xmss_key *k = NULL;
    double c0 = bench_cpu_ns();
    int rc = grove_xmss_keygen_from_seed(b->p, &k, b->seed, b->seed + n, b->seed + 2 * n, &o);
    grove_xmss_key_free(k);
    b->cpu_total += bench_cpu_ns() - c0;
    b->cpu_runs += 1;
    keygen_extra(b);
    return rc;
}

static int setup_keygen(void *arg)
{
    xb *b = arg;
    init(b);
    const grove_xmss_params *p = b->p;
    uint64_t leaves = (uint64_t)p->d << p->hp;
    uint64_t comp = 0;
    if (p->hp <= 10) {
        /* count one whole keygen */
        uint64_t c0 = xmss_hash_counter();
        op_keygen(b);
        comp = xmss_hash_counter() - c0;
    } else if (p->d == 1) {
        /* big single trees, exactly: 2^h leaves and 2^h - 1 nodes of fixed cost */
        xmss_hash x;
        xmss_lanes w;
        uint8_t out[XMSS_MAX_N];
        xmss_hash_init(&x, p, b->seed + 2 * p->n, b->seed);
        if (xmss_lanes_alloc(&w, &x, p->len))
            return 1;
        uint64_t c0 = xmss_hash_counter();
        xmss_leaves(&x, &w, 0, 0, 0, 1, out);
        uint64_t c1 = xmss_hash_counter();
        xmss_tree_node(&x, &w, 0, 0, 0, 0, out, out, out);
        uint64_t c2 = xmss_hash_counter();
        comp = (c1 - c0) * leaves + (c2 - c1) * (leaves - 1);
        xmss_lanes_free(&w);
        xmss_hash_wipe(&x);
    }
    b->leaves = leaves;
    b->comp = comp;
    b->cpu_total = b->cpu_runs = 0; /* the counting run above is not timed */
    keygen_extra(b);
    return 0;
}

static int op_leaf(void *arg)
{
    xb *b = arg;
    xmss_hash x;
    xmss_lanes w;
    uint8_t out[XMSS_MAX_N];
    const unsigned n = b->p->n;
    xmss_hash_init(&x, b->p, b->seed + 2 * n, b->seed);
    if (xmss_lanes_alloc(&w, &x, b->p->len))
        return 1;
    xmss_leaves(&x, &w, 0, 0, (uint32_t)(b->nsig++ & 1023), 1, out);
    xmss_lanes_free(&w);
    xmss_hash_wipe(&x);
    return 0;
}

static int setup_leaf(void *arg)
{
    xb *b = arg;
    init(b);
    uint64_t c0 = xmss_hash_counter();
    op_leaf(b);
    snprintf(b->extra, sizeof b->extra, "\"compressions\": %llu",
             (unsigned long long)(xmss_hash_counter() - c0));
    return 0;
}

static int op_sign(void *arg)
{
    xb *b = arg;
    if (grove_xmss_key_remaining(b->key) == 0 && new_key(b))
        return 1;
    b->msg[0] = (uint8_t)b->nsig++;
    return grove_xmss_key_sign(b->key, b->sig, NULL, b->msg, sizeof b->msg);
}

static int setup_sign(void *arg)
{
    xb *b = arg;
    init(b);
    if (b->key == NULL && new_key(b))
        return 1;
    /* average compressions over 64 consecutive signatures */
    uint64_t c0 = xmss_hash_counter();
    for (int i = 0; i < 64; i++)
        if (op_sign(b))
            return 1;
    snprintf(b->extra, sizeof b->extra,
             "\"compressions\": %.0f, \"state_bytes\": %zu, \"batch\": %u",
             (double)(xmss_hash_counter() - c0) / 64, grove_xmss_key_state_bytes(b->key),
             b->persist_each ? 1 : 1024);
    return 0;
}

/* A whole run of consecutive signatures from a fresh copy of the key (loaded from its state). */
static int op_sign_run(void *arg)
{
    xb *b = arg;
    grove_xmss_key *k = NULL;
    xmss_registry_reset();
    if (grove_xmss_key_load(&k, b->state, b->state_cap, NULL))
        return 1;
    int rc = grove_xmss_key_set_persist(k, persist, b) != GROVE_OK ||
             grove_xmss_key_set_batch(k, 1024) != GROVE_OK;
    for (uint64_t i = 0; i < b->nsig && rc == 0; i++) {
        b->msg[0] = (uint8_t)i;
        rc = grove_xmss_key_sign(k, b->sig, NULL, b->msg, sizeof b->msg);
    }
    grove_xmss_key_free(k);
    return rc;
}

static int setup_sign_run(void *arg)
{
    xb *b = arg;
    init(b);
    if (new_key(b))
        return 1;
    b->state_cap = grove_xmss_key_state_bytes(b->key);
    b->state = malloc(b->state_cap);
    if (b->state == NULL || grove_xmss_key_export(b->key, b->state, b->state_cap, &b->state_cap))
        return 1;
    b->persist_each = 0;
    b->nsig = b->p->mt ? (uint64_t)2 << b->p->hp : (uint64_t)1 << b->p->h;
    uint64_t c0 = xmss_hash_counter();
    if (op_sign_run(b))
        return 1;
    snprintf(b->extra, sizeof b->extra,
             "\"signatures\": %llu, \"compressions_per_signature\": %.0f",
             (unsigned long long)b->nsig, (double)(xmss_hash_counter() - c0) / (double)b->nsig);
    return 0;
}

static int op_verify(void *arg)
{
    xb *b = arg;
    return grove_xmss_verify(grove_xmss_params_family(b->p), b->sig, grove_xmss_sig_bytes(b->p),
                             b->msg, sizeof b->msg, b->pk, grove_xmss_pk_bytes(b->p));
}

static int setup_verify(void *arg)
{
    xb *b = arg;
    init(b);
    if (new_key(b) || grove_xmss_key_sign(b->key, b->sig, NULL, b->msg, sizeof b->msg))
        return 1;
    uint64_t c0 = xmss_hash_counter();
    if (op_verify(b))
        return 1;
    snprintf(b->extra, sizeof b->extra, "\"compressions\": %llu",
             (unsigned long long)(xmss_hash_counter() - c0));
    return 0;
}

static xb *ctx_new(const char *set, unsigned threads, int persist_each)
{
    xb *b = calloc(1, sizeof *b);
    if (b == NULL)
        exit(2);
    b->p = grove_xmss_params_get(set);
    b->threads = threads;
    b->persist_each = persist_each;
    return b;
}

static xb *all_ctx[64];
static size_t nctx;

static void add(bench_suite *s, const char *set, const char *op, bench_fn fn, int (*setup)(void *),
                unsigned threads, int persist_each, unsigned iterations)
{
    xb *b = ctx_new(set, threads, persist_each);
    if (nctx < sizeof all_ctx / sizeof all_ctx[0])
        all_ctx[nctx++] = b;
    bench_add(s, set, op, fn, b, setup);
    s->cases[s->ncases - 1].extra = b->extra;
    s->cases[s->ncases - 1].iterations = iterations;
}

int main(int argc, char **argv)
{
    int big = 0, n = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--big") == 0)
            big = 1;
        else
            argv[n++] = argv[i];
    }
    argc = n;
    bench_suite s = {.name = "xmss"};
    static const char *const sets[] = {"XMSS-SHA2_10_256", "XMSS-SHA2_10_192",
                                       "XMSS-SHAKE_10_256", "XMSS-SHAKE256_10_256",
                                       "XMSS-SHA2_10_512"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        add(&s, sets[i], "leaf", op_leaf, setup_leaf, 1, 0, 0);
        add(&s, sets[i], "keygen", op_keygen, setup_keygen, 1, 0, i == 0 ? 0 : 3);
        if (i == 0)
            add(&s, sets[i], "keygen-2t", op_keygen, setup_keygen, 2, 0, 0);
        add(&s, sets[i], "sign", op_sign, setup_sign, 1, 0, 0);
        if (i == 0) {
            add(&s, sets[i], "sign+persist", op_sign, setup_sign, 1, 1, 0);
            add(&s, sets[i], "sign-1024", op_sign_run, setup_sign_run, 1, 0, 3);
        }
        add(&s, sets[i], "verify", op_verify, setup_verify, 1, 0, 0);
    }
    add(&s, "XMSSMT-SHA2_20/2_256", "keygen", op_keygen, setup_keygen, 1, 0, 3);
    add(&s, "XMSSMT-SHA2_20/2_256", "keygen-2t", op_keygen, setup_keygen, 2, 0, 3);
    add(&s, "XMSSMT-SHA2_20/2_256", "sign", op_sign, setup_sign, 1, 0, 0);
    add(&s, "XMSSMT-SHA2_20/2_256", "sign+persist", op_sign, setup_sign, 1, 1, 0);
    add(&s, "XMSSMT-SHA2_20/2_256", "sign-2048", op_sign_run, setup_sign_run, 1, 0, 3);
    add(&s, "XMSSMT-SHA2_20/2_256", "verify", op_verify, setup_verify, 1, 0, 0);
    add(&s, "XMSSMT-SHA2_60/6_256", "keygen-2t", op_keygen, setup_keygen, 2, 0, 1);
    add(&s, "XMSSMT-SHA2_60/6_256", "sign", op_sign, setup_sign, 1, 0, 0);
    add(&s, "XMSSMT-SHA2_60/6_256", "verify", op_verify, setup_verify, 1, 0, 0);
    if (big) {
        add(&s, "XMSS-SHA2_16_256", "keygen", op_keygen, setup_keygen, 1, 0, 1);
        add(&s, "XMSS-SHA2_16_256", "keygen-2t", op_keygen, setup_keygen, 2, 0, 1);
        add(&s, "XMSS-SHA2_20_256", "keygen-2t", op_keygen, setup_keygen, 2, 0, 1);
    }
    int rc = bench_main(&s, argc, argv);
    for (size_t i = 0; i < nctx; i++) {
        grove_xmss_key_free(all_ctx[i]->key);
        free(all_ctx[i]->sig);
        free(all_ctx[i]->state);
        free(all_ctx[i]);
    }
    free(s.cases);
    return rc;
}
