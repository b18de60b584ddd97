/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * bench_provider: the cost of going through OpenSSL. SLH-DSA sign and verify called directly
 * (libgrove) and through EVP_DigestSign/EVP_DigestVerify with grove.so loaded from
 * OPENSSL_MODULES (a fresh EVP_MD_CTX per call, as a program signing one file pays).
 *
 *   bench_provider [bench options]   the usual bench JSON (bench/support/bench.h)
 *   bench_provider --compare ROUNDS  CPU time of each pair alternated for ROUNDS rounds; prints
 *                                    the median of the per-round ratios EVP / libgrove
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "bench.h"
#include "grove/common.h"
#include "grove/slhdsa.h"

typedef struct bctx {
    const char *set;
    const grove_slhdsa_params *p;
    EVP_PKEY *pkey;
    uint8_t pk[GROVE_SLHDSA_MAX_PK_BYTES], sk[GROVE_SLHDSA_MAX_SK_BYTES];
    uint8_t *sig;
    size_t sig_len;
    uint8_t msg[1024];
} bctx;

static int lib_sign(void *v) {
    bctx *c = v;
    return grove_slhdsa_sign(c->p, c->sig, c->msg, sizeof c->msg, NULL, 0, c->sk, true) != GROVE_OK;
}
static int lib_verify(void *v) {
    bctx *c = v;
    return grove_slhdsa_verify(c->p, c->sig, c->sig_len, c->msg, sizeof c->msg, NULL, 0, c->pk) !=
           GROVE_OK;
}
static int evp_sign(void *v) {
    bctx *c = v;
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    size_t l = c->sig_len;
    int ok = m != NULL && EVP_DigestSignInit_ex(m, NULL, NULL, NULL, NULL, c->pkey, NULL) == 1 &&
             EVP_DigestSign(m, c->sig, &l, c->msg, sizeof c->msg) == 1 && l == c->sig_len;
    EVP_MD_CTX_free(m);
    return !ok;
}
static int evp_verify(void *v) {
    bctx *c = v;
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    int ok = m != NULL && EVP_DigestVerifyInit_ex(m, NULL, NULL, NULL, NULL, c->pkey, NULL) == 1 &&
             EVP_DigestVerify(m, c->sig, c->sig_len, c->msg, sizeof c->msg) == 1;
    EVP_MD_CTX_free(m);
    return !ok;
}

static int setup(bctx *c) {
    c->p = grove_slhdsa_params_get(c->set);
    if (c->p == NULL)
        return -1;
    EVP_PKEY_CTX *kc = EVP_PKEY_CTX_new_from_name(NULL, c->set, "provider=grove");
    if (kc == NULL || EVP_PKEY_keygen_init(kc) != 1 || EVP_PKEY_generate(kc, &c->pkey) != 1) {
        EVP_PKEY_CTX_free(kc);
        return -1;
    }
    EVP_PKEY_CTX_free(kc);
    size_t pl = 0, sl = 0;
    if (!EVP_PKEY_get_octet_string_param(c->pkey, "pub", c->pk, sizeof c->pk, &pl) ||
        !EVP_PKEY_get_octet_string_param(c->pkey, "priv", c->sk, sizeof c->sk, &sl))
        return -1;
    c->sig_len = grove_slhdsa_sig_bytes(c->p);
    c->sig = malloc(c->sig_len);
    memset(c->msg, 0xa5, sizeof c->msg);
    return c->sig == NULL || lib_sign(c) != 0 ? -1 : 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double cpu_of(bench_fn fn, void *ctx) {
    double t0 = bench_cpu_ns();
    if (fn(ctx) != 0)
        return -1;
    return bench_cpu_ns() - t0;
}

static int compare(bctx *cs, size_t n, long rounds) {
    static const char *ops[2] = {"sign", "verify"};
    bench_fn lib[2] = {lib_sign, lib_verify}, evp[2] = {evp_sign, evp_verify};
    double *ratio = malloc((size_t)rounds * sizeof *ratio), *tl = malloc((size_t)rounds * sizeof *tl);
    if (ratio == NULL || tl == NULL)
        return 1;
    printf("{\"benchmark\": \"provider-compare\", \"rounds\": %ld, \"results\": [", rounds);
    for (size_t i = 0; i < n; i++)
        for (int o = 0; o < 2; o++) {
            for (long r = 0; r < rounds; r++) {
                /* alternate which goes first, so drift hits both alike */
                double a, b;
                if (r % 2 == 0) {
                    a = cpu_of(lib[o], &cs[i]);
                    b = cpu_of(evp[o], &cs[i]);
                } else {
                    b = cpu_of(evp[o], &cs[i]);
                    a = cpu_of(lib[o], &cs[i]);
                }
                if (a <= 0 || b <= 0)
                    return 1;
                ratio[r] = b / a;
                tl[r] = a;
            }
            qsort(ratio, (size_t)rounds, sizeof *ratio, cmp_double);
            qsort(tl, (size_t)rounds, sizeof *tl, cmp_double);
            printf("%s{\"set\": \"%s\", \"op\": \"%s\", \"libgrove_median_cpu_ns\": %.0f, "
                   "\"evp_over_libgrove_median_ratio\": %.4f}",
                   i + (size_t)o ? ", " : "", cs[i].set, ops[o], tl[rounds / 2], ratio[rounds / 2]);
        }
    printf("]}\n");
    free(ratio);
    free(tl);
    return 0;
}

static void cleanup(bctx *cs, size_t n) {
    for (size_t i = 0; i < n; i++) {
        EVP_PKEY_free(cs[i].pkey);
        free(cs[i].sig);
        grove_wipe(cs[i].sk, sizeof cs[i].sk);
    }
}

int main(int argc, char **argv) {
    OSSL_PROVIDER *grove = OSSL_PROVIDER_load(NULL, "grove");
    OSSL_PROVIDER *dflt = OSSL_PROVIDER_load(NULL, "default");
    if (grove == NULL || dflt == NULL) {
        fprintf(stderr, "bench_provider: cannot load grove.so (set OPENSSL_MODULES)\n");
        ERR_print_errors_fp(stderr);
        return 1;
    }
    static bctx cs[2] = {{.set = "SLH-DSA-SHA2-128f"}, {.set = "SLH-DSA-SHAKE-128f"}};
    for (size_t i = 0; i < 2; i++)
        if (setup(&cs[i]) != 0) {
            fprintf(stderr, "bench_provider: setup of %s failed\n", cs[i].set);
            return 1;
        }
    int rc;
    if (argc == 3 && strcmp(argv[1], "--compare") == 0) {
        long rounds = strtol(argv[2], NULL, 10);
        rc = rounds < 1 || rounds > 100000 ? 2 : compare(cs, 2, rounds);
        cleanup(cs, 2);
        OSSL_PROVIDER_unload(grove);
        OSSL_PROVIDER_unload(dflt);
        return rc;
    }
    bench_suite s = {.name = "provider"};
    for (size_t i = 0; i < 2; i++) {
        bench_add(&s, cs[i].set, "sign libgrove", lib_sign, &cs[i], NULL);
        bench_add(&s, cs[i].set, "sign EVP grove.so", evp_sign, &cs[i], NULL);
        bench_add(&s, cs[i].set, "verify libgrove", lib_verify, &cs[i], NULL);
        bench_add(&s, cs[i].set, "verify EVP grove.so", evp_verify, &cs[i], NULL);
    }
    rc = bench_main(&s, argc, argv);
    free(s.cases);
    cleanup(cs, 2);
    OSSL_PROVIDER_unload(grove);
    OSSL_PROVIDER_unload(dflt);
    return rc;
}
