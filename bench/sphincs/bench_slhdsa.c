/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SPHINCS+ / SLH-DSA: keygen, sign and verify for every parameter set (JSON).
 * `bench_slhdsa --count N SET OP` is the mode bench/compare.sh uses: it runs one warm OP
 * (keygen, sign or verify) on SET, then N more through bench_measured_op() (the function
 * callgrind's --toggle-collect counts), and prints the process CPU time per operation in the
 * format of the reference driver: "cpu_ns_per_op <ns>". */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "grove/slhdsa.h"

typedef struct {
    const grove_slhdsa_params *p;
    uint8_t seed[96], pk[64], sk[128], msg[32];
    uint8_t *sig;
} spx_bench;

static int setup(void *arg)
{
    spx_bench *b = arg;
    size_t n = grove_slhdsa_n(b->p);
    for (size_t i = 0; i < sizeof b->seed; i++)
        b->seed[i] = (uint8_t)(i * 7 + 1);
    memset(b->msg, 0x5a, sizeof b->msg);
    if (b->sig == NULL)
        b->sig = malloc(grove_slhdsa_sig_bytes(b->p));
    if (b->sig == NULL)
        return 1;
    if (grove_slhdsa_keygen_from_seed(b->p, b->pk, b->sk, b->seed, b->seed + n, b->seed + 2 * n))
        return 1;
    return grove_slhdsa_sign_internal(b->p, b->sig, b->msg, sizeof b->msg, b->sk, b->seed);
}

static int op_keygen(void *arg)
{
    spx_bench *b = arg;
    size_t n = grove_slhdsa_n(b->p);
    return grove_slhdsa_keygen_from_seed(b->p, b->pk, b->sk, b->seed, b->seed + n, b->seed + 2 * n);
}

static int op_sign(void *arg)
{
    spx_bench *b = arg;
    return grove_slhdsa_sign_internal(b->p, b->sig, b->msg, sizeof b->msg, b->sk, b->seed);
}

static int op_verify(void *arg)
{
    spx_bench *b = arg;
    return grove_slhdsa_verify_internal(b->p, b->sig, grove_slhdsa_sig_bytes(b->p), b->msg,
                                        sizeof b->msg, b->pk);
}

static int count_mode(const char *count, const char *set, const char *opname)
{
    char *end;
    long n = strtol(count, &end, 10);
    spx_bench b = {.p = grove_slhdsa_params_get(set)};
    bench_fn op = strcmp(opname, "keygen") == 0   ? op_keygen
                : strcmp(opname, "sign") == 0   ? op_sign
                : strcmp(opname, "verify") == 0 ? op_verify
                                                : NULL;
    if (*end != '\0' || n < 1 || n > 1000000 || b.p == NULL || op == NULL) {
        fprintf(stderr, "usage: bench_slhdsa --count N SET keygen|sign|verify\n");
        return 2;
    }
    double per = 0;
    int rc = setup(&b) || op(&b); /* the key, a signature, and one warm operation */
    if (rc == 0)
        rc = bench_count_calls(op, &b, n, &per);
    grove_wipe(b.sk, sizeof b.sk);
    grove_wipe(b.seed, sizeof b.seed);
    free(b.sig);
    if (rc != 0) {
        fprintf(stderr, "bench_slhdsa: %s %s failed\n", set, opname);
        return 1;
    }
    printf("cpu_ns_per_op %.0f\n", per);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--count") == 0)
        return count_mode(argv[2], argv[3], argv[4]);
    bench_suite s = {.name = "slhdsa"};
    static spx_bench ctx[12];
    size_t k = 0;
    for (size_t i = 0; grove_slhdsa_params_at(i); i++) {
        const grove_slhdsa_params *p = grove_slhdsa_params_at(i);
        if (grove_slhdsa_params_is_fips205(p))
            continue; /* the flavours cost the same; report under the round-3.1 names */
        ctx[k].p = p;
        const char *name = grove_slhdsa_params_name(p);
        bench_add(&s, name, "keygen", op_keygen, &ctx[k], setup);
        bench_add(&s, name, "sign", op_sign, &ctx[k], setup);
        bench_add(&s, name, "verify", op_verify, &ctx[k], setup);
        k++;
    }
    int rc = bench_main(&s, argc, argv);
    for (size_t i = 0; i < k; i++)
        free(ctx[i].sig);
    free(s.cases);
    return rc;
}
