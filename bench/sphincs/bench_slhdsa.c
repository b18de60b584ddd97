/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SPHINCS+ / SLH-DSA: keygen, sign and verify for every parameter set (JSON). */
#include <stdlib.h>
#include <string.h>

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

int main(int argc, char **argv)
{
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
