/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Mithril STM benchmarks with the seed README's parameters and party counts:
 *   k=25,  m=150,  300 parties     k=250, m=1523, 2000 parties     (phi_f = 0.2)
 * operations as mithril-stm's criterion benches: key registration (all parties' vk+PoP
 * checked, registration closed: Merkle tree), play all lotteries (one signer's signature: BLS
 * sign + m lotteries), aggregation (every lottery winner's signature), verification (of the
 * in-memory aggregate; "decode_verify" adds decoding the bytes with all point checks).
 * Sizes ("aggregate_bytes", "signatures") are printed with the aggregation case, also for the
 * seed's size benches k=445/m=2728 and k=554/m=3597 with 3000 parties ("size" cases).
 * Stakes are 1 + (random % 9999) as in upstream's benches (mithril-stm 0.11); keys from fixed
 * seeds. Threads: grove's default (one per online CPU) for registration and aggregation.
 *
 * `bench_stm --count N SET OP [THREADS]` is the CPU-time mode for comparisons with mithril-stm
 * (docs/stm.md): the set's setup, one warm call, then N calls of OP (key_registration,
 * play_all_lotteries, aggregation, verification, decode_verify) through bench_measured_op; it
 * prints "cpu_ns_per_op X" (process CPU time, every thread). OP "all" runs the five operations
 * in turn after one setup, each for at least N calls and 0.25 s of CPU time, printing
 * "OP cpu_ns_per_op X" per operation (what docs/stm.md's comparison runs). THREADS (default
 * 0 = one per online CPU) is what registration, aggregation and verification get
 * (grove_stm_aggregate_verify_threads: 1 = the calling thread only; from 2 on, verification
 * uses two; its CPU time is the sum over both).
 * GROVE_BLS_FORCE_MULX=1 selects the mulx/adx field where cpuid hides it (under valgrind).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bls12_381/fp.h"
#include "grove/stm.h"

typedef struct {
    const char *name;
    grove_stm_params params;
    size_t parties;
    int ready;
    uint8_t (*sk)[32];
    uint8_t *vkpop;
    uint64_t *stakes;
    grove_stm_closed *closed;
    grove_stm_avk avk;
    grove_stm_signer *signer; /* a party with a typical (median) stake */
    grove_stm_sig *sigs;
    size_t nsigs;
    grove_stm_aggregate *agg;
    uint8_t *agg_bytes;
    size_t agg_len;
    char extra[256];
} stm_set;

static const uint8_t msg[32] = "mithril certificate message 0001";

static unsigned bench_threads = 0; /* registration, aggregation and verification */

static uint64_t xs(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int set_setup(void *ctx)
{
    stm_set *S = ctx;
    if (S->ready)
        return S->ready < 0;
    S->ready = -1;
    size_t n = S->parties;
    S->sk = calloc(n, 32);
    S->vkpop = calloc(n, GROVE_STM_VKPOP_BYTES);
    S->stakes = calloc(n, sizeof *S->stakes);
    S->sigs = calloc(n, sizeof *S->sigs);
    if (!S->sk || !S->vkpop || !S->stakes || !S->sigs)
        return 1;
    uint64_t st = 0x9e3779b97f4a7c15ULL ^ n;
    for (size_t i = 0; i < n; i++) {
        uint8_t seed[32];
        for (int b = 0; b < 32; b += 8) {
            uint64_t v = xs(&st);
            memcpy(seed + b, &v, 8);
        }
        if (grove_stm_keygen(S->vkpop + GROVE_STM_VKPOP_BYTES * i, S->sk[i], seed) != GROVE_OK)
            return 1;
        S->stakes[i] = 1 + xs(&st) % 9999;
    }
    grove_stm_keyreg *reg;
    if (grove_stm_keyreg_new(&reg) != GROVE_OK ||
        grove_stm_keyreg_add_many(reg, NULL, S->stakes, S->vkpop, n, 0) != GROVE_OK ||
        grove_stm_keyreg_close(reg, &S->closed) != GROVE_OK)
        return 1;
    grove_stm_keyreg_free(reg);
    grove_stm_closed_avk(S->closed, &S->avk);
    /* the median-stake party plays the lotteries in the "play_all_lotteries" case */
    uint64_t median_index = n / 2; /* entries are ordered by stake */
    uint8_t vk[96];
    if (grove_stm_closed_entry(S->closed, vk, NULL, median_index) != GROVE_OK)
        return 1;
    for (size_t i = 0; i < n; i++) {
        grove_stm_signer *s;
        if (grove_stm_signer_new(&S->params, &s, S->sk[i], S->closed) != GROVE_OK)
            return 1;
        int rc = grove_stm_sign(s, &S->sigs[S->nsigs], msg, sizeof msg);
        if (rc == GROVE_OK)
            S->nsigs++;
        else if (rc != GROVE_ERR_LOTTERY_LOST)
            return 1;
        if (grove_stm_signer_index(s) == median_index)
            S->signer = s;
        else
            grove_stm_signer_free(s);
    }
    uint64_t have = 0;
    int rc = grove_stm_aggregate_new(&S->params, &S->agg, &have, S->sigs, S->nsigs, msg, sizeof msg,
                                     S->closed, 0);
    if (rc != GROVE_OK) {
        fprintf(stderr, "bench_stm %s: aggregation failed (%s, %llu indexes)\n", S->name,
                grove_strerror(rc), (unsigned long long)have);
        return 1;
    }
    S->agg_len = grove_stm_aggregate_encoded_bytes(S->agg);
    S->agg_bytes = malloc(S->agg_len);
    if (!S->agg_bytes ||
        grove_stm_aggregate_to_bytes(S->agg, S->agg_bytes, S->agg_len, &S->agg_len) != GROVE_OK)
        return 1;
    size_t sig1 = 0;
    for (size_t i = 0; i < S->nsigs; i++)
        sig1 += grove_stm_sig_encoded_bytes(&S->sigs[i]);
    snprintf(S->extra, sizeof S->extra,
             "\"parties\": %zu, \"k\": %llu, \"m\": %llu, \"phi_f\": 0.2, \"signatures\": %zu, "
             "\"selected\": %zu, \"aggregate_bytes\": %zu, \"single_signature_bytes_avg\": %zu",
             n, (unsigned long long)S->params.k, (unsigned long long)S->params.m, S->nsigs,
             grove_stm_aggregate_count(S->agg), S->agg_len, S->nsigs ? sig1 / S->nsigs : 0);
    S->ready = 1;
    return 0;
}

static int op_keyreg(void *ctx)
{
    stm_set *S = ctx;
    grove_stm_keyreg *reg;
    grove_stm_closed *c = NULL;
    int rc = grove_stm_keyreg_new(&reg);
    if (rc == GROVE_OK)
        rc = grove_stm_keyreg_add_many(reg, NULL, S->stakes, S->vkpop, S->parties,
                                       bench_threads);
    if (rc == GROVE_OK)
        rc = grove_stm_keyreg_close(reg, &c);
    grove_stm_closed_free(c);
    grove_stm_keyreg_free(reg);
    return rc != GROVE_OK;
}

static int op_lotteries(void *ctx)
{
    stm_set *S = ctx;
    grove_stm_sig sig;
    int rc = grove_stm_sign(S->signer, &sig, msg, sizeof msg);
    if (rc == GROVE_OK)
        grove_stm_sig_clear(&sig);
    return rc != GROVE_OK && rc != GROVE_ERR_LOTTERY_LOST;
}

static int op_aggregate(void *ctx)
{
    stm_set *S = ctx;
    grove_stm_aggregate *a = NULL;
    int rc = grove_stm_aggregate_new(&S->params, &a, NULL, S->sigs, S->nsigs, msg, sizeof msg,
                                     S->closed, bench_threads);
    grove_stm_aggregate_free(a);
    return rc != GROVE_OK;
}

static int op_verify(void *ctx)
{
    stm_set *S = ctx;
    return grove_stm_aggregate_verify_threads(&S->params, S->agg, msg, sizeof msg, &S->avk,
                                              bench_threads) != GROVE_OK;
}

static int op_decode_verify(void *ctx)
{
    stm_set *S = ctx;
    grove_stm_aggregate *a = NULL;
    int rc = grove_stm_aggregate_from_bytes(&a, S->agg_bytes, S->agg_len);
    if (rc == GROVE_OK)
        rc = grove_stm_aggregate_verify_threads(&S->params, a, msg, sizeof msg, &S->avk,
                                                bench_threads);
    grove_stm_aggregate_free(a);
    return rc != GROVE_OK;
}

static int op_size(void *ctx)
{
    (void)ctx;
    return 0;
}

static stm_set sets[] = {
    {.name = "k25_m150_n300", .params = {150, 25, 0.2}, .parties = 300},
    {.name = "k250_m1523_n2000", .params = {1523, 250, 0.2}, .parties = 2000},
    {.name = "k445_m2728_n3000", .params = {2728, 445, 0.2}, .parties = 3000},
    {.name = "k554_m3597_n3000", .params = {3597, 554, 0.2}, .parties = 3000},
};

static void sets_free(void);

/* --count N SET OP [THREADS]: see the top of this file */
static int count_mode(int argc, char **argv)
{
    static const struct {
        const char *name;
        bench_fn fn;
    } ops[] = {{"key_registration", op_keyreg}, {"play_all_lotteries", op_lotteries},
               {"aggregation", op_aggregate},   {"verification", op_verify},
               {"decode_verify", op_decode_verify}};
    char *end;
    long n = strtol(argv[2], &end, 10);
    int bad = *end != '\0' || n < 1 || n > 1000000;
    if (argc == 6) {
        char *tend;
        long t = strtol(argv[5], &tend, 10);
        bad |= *tend != '\0' || t < 0 || t > 256;
        bench_threads = bad ? 0 : (unsigned)t;
    }
    stm_set *S = NULL;
    for (size_t i = 0; i < 2; i++)
        if (strcmp(argv[3], sets[i].name) == 0)
            S = &sets[i];
    bench_fn op = NULL;
    int all = strcmp(argv[4], "all") == 0;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(argv[4], ops[i].name) == 0)
            op = ops[i].fn;
    if (bad || S == NULL || (op == NULL && !all)) {
        fprintf(stderr, "usage: bench_stm --count N k25_m150_n300|k250_m1523_n2000 "
                        "key_registration|play_all_lotteries|aggregation|verification|"
                        "decode_verify|all [THREADS]\n");
        return 2;
    }
    if (all) {
        int rc = set_setup(S);
        for (size_t i = 0; rc == 0 && i < sizeof ops / sizeof ops[0]; i++) {
            rc = ops[i].fn(S); /* warm */
            long calls = 0;
            double t0 = bench_cpu_ns(), t = t0;
            while (rc == 0 && (calls < n || t - t0 < 0.25e9)) {
                rc = bench_measured_op(ops[i].fn, S);
                calls++;
                t = bench_cpu_ns();
            }
            if (rc == 0)
                printf("%s cpu_ns_per_op %.0f\n", ops[i].name, (t - t0) / (double)calls);
        }
        sets_free();
        if (rc != 0)
            fprintf(stderr, "bench_stm: %s failed\n", argv[3]);
        return rc != 0;
    }
    double per = 0;
    int rc = set_setup(S) || op(S); /* the setup, then one warm call */
    if (rc == 0)
        rc = bench_count_calls(op, S, n, &per);
    sets_free();
    if (rc != 0) {
        fprintf(stderr, "bench_stm: %s %s failed\n", argv[3], argv[4]);
        return 1;
    }
    printf("cpu_ns_per_op %.0f\n", per);
    return 0;
}

int main(int argc, char **argv)
{
#if GROVE_BLS_MULX
    /* valgrind hides ADX from cpuid but executes adcx/adox: GROVE_BLS_FORCE_MULX=1 lets
     * callgrind count the mulx field (as bench_bls12_381). Only on a CPU with BMI2 and ADX. */
    if (getenv("GROVE_BLS_FORCE_MULX") != NULL)
        bls_fp_mulx_on = 1;
#endif
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "--count") == 0)
        return count_mode(argc, argv);
    bench_suite s = {.name = "stm"};
    for (size_t i = 0; i < 2; i++) {
        bench_add(&s, sets[i].name, "key_registration", op_keyreg, &sets[i], set_setup);
        bench_add(&s, sets[i].name, "play_all_lotteries", op_lotteries, &sets[i], set_setup);
        bench_add(&s, sets[i].name, "aggregation", op_aggregate, &sets[i], set_setup);
        s.cases[s.ncases - 1].extra = sets[i].extra;
        bench_add(&s, sets[i].name, "verification", op_verify, &sets[i], set_setup);
        bench_add(&s, sets[i].name, "decode_verify", op_decode_verify, &sets[i], set_setup);
    }
    for (size_t i = 2; i < 4; i++) {
        bench_add(&s, sets[i].name, "size", op_size, &sets[i], set_setup);
        s.cases[s.ncases - 1].extra = sets[i].extra;
    }
    int rc = bench_main(&s, argc, argv);
    free(s.cases);
    sets_free();
    return rc;
}

static void sets_free(void)
{
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        stm_set *S = &sets[i];
        for (size_t j = 0; j < S->nsigs; j++)
            grove_stm_sig_clear(&S->sigs[j]);
        free(S->sigs);
        free(S->sk);
        free(S->vkpop);
        free(S->stakes);
        free(S->agg_bytes);
        grove_stm_aggregate_free(S->agg);
        grove_stm_signer_free(S->signer);
        grove_stm_closed_free(S->closed);
    }
}
