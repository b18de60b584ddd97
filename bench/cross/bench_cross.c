/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * CROSS speed: keygen, sign and verify of every parameter set in both strategies (33-byte
 * message, as the reference figures). Set names are "<set>:<strategy>", e.g.
 * "CROSS-RSDP-1-fast:small-memory"; use --filter to pick, --instructions for callgrind counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "grove/cross.h"

typedef struct cross_case {
    const grove_cross_params *p;
    grove_cross_strategy s;
    uint8_t pk[256], sk[64], msg[33];
    uint8_t *sig;
} cross_case;

static int setup_keys(void *v)
{
    cross_case *c = v;
    memset(c->msg, 0x33, sizeof c->msg);
    return grove_cross_keygen(c->p, c->pk, c->sk);
}

static int setup_sig(void *v)
{
    cross_case *c = v;
    int rc = setup_keys(c);
    if (rc == 0)
        rc = grove_cross_sign(c->p, c->s, c->sig, c->msg, sizeof c->msg, c->sk);
    return rc;
}

static int op_keygen(void *v)
{
    cross_case *c = v;
    return grove_cross_keygen(c->p, c->pk, c->sk);
}

static int op_sign(void *v)
{
    cross_case *c = v;
    return grove_cross_sign(c->p, c->s, c->sig, c->msg, sizeof c->msg, c->sk);
}

static int op_verify(void *v)
{
    cross_case *c = v;
    return grove_cross_verify(c->p, c->s, c->sig, grove_cross_sig_bytes(c->p), c->msg,
                              sizeof c->msg, c->pk);
}

int main(int argc, char **argv)
{
    bench_suite s = {.name = "cross"};
    size_t n = grove_cross_params_count();
    cross_case *cases = calloc(2 * 3 * n, sizeof *cases);
    char **names = calloc(2 * n, sizeof *names);
    if (cases == NULL || names == NULL)
        return 2;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        for (int si = 0; si < 2; si++) {
            grove_cross_strategy st = si ? GROVE_CROSS_SMALL_MEMORY : GROVE_CROSS_FAST;
            const grove_cross_params *p = grove_cross_params_at(i);
            char *nm = malloc(64);
            if (nm == NULL)
                return 2;
            snprintf(nm, 64, "%s:%s", grove_cross_params_name(p), grove_cross_strategy_name(st));
            names[2 * i + (size_t)si] = nm;
            for (int op = 0; op < 3; op++) {
                cross_case *c = &cases[k++];
                c->p = p;
                c->s = st;
                c->sig = malloc(grove_cross_sig_bytes(p));
                if (c->sig == NULL)
                    return 2;
                if (op == 0)
                    bench_add(&s, nm, "keygen", op_keygen, c, setup_keys);
                else if (op == 1)
                    bench_add(&s, nm, "sign", op_sign, c, setup_keys);
                else
                    bench_add(&s, nm, "verify", op_verify, c, setup_sig);
            }
        }
    }
    int rc = bench_main(&s, argc, argv);
    for (size_t i = 0; i < k; i++)
        free(cases[i].sig);
    for (size_t i = 0; i < 2 * n; i++)
        free(names[i]);
    free(cases);
    free(names);
    free(s.cases);
    return rc;
}
