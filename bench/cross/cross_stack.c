/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Peak stack of CROSS keygen, sign and verify, for every parameter set and both strategies,
 * printed as one JSON object. Each operation runs on its own stack (ucontext) that is painted
 * with a pattern beforehand; the deepest byte no longer holding the pattern gives the peak.
 * Keys, message and signature live outside that stack (as in pqm4's stack benchmark), so the
 * figure is what the operation itself needs. The two strategies' signatures are compared too.
 *
 *   bench_cross_stack [--filter SUBSTR] [--check-budget FILE]
 * With --check-budget, FILE lists "<set> <strategy> <op> <max bytes>" lines and the program
 * exits 1 if a figure exceeds its budget.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "cross/cross_internal.h"
#include "grove/cross.h"

#define STACK_BYTES (8u << 20)
#define PATTERN 0xA5

static ucontext_t main_ctx, op_ctx;
static uint8_t *stack_mem;

struct op_args {
    const grove_cross_params *p;
    grove_cross_strategy s;
    int op;
    uint8_t *pk, *sk, *sig, *msg;
    size_t mlen;
    int rc;
};
static struct op_args args;

static void run_op(void)
{
    struct op_args *a = &args;
    size_t sl = grove_cross_sig_bytes(a->p);
    static const uint8_t rnd[96] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    if (a->op == 0)
        a->rc = grove_cross_keygen_from_seed(a->p, a->pk, a->sk, rnd);
    else if (a->op == 1)
        a->rc = cross_sign_derand(a->p, a->s, a->sig, a->msg, a->mlen, a->sk, rnd + 8, rnd + 40,
                                  NULL, 0);
    else
        a->rc = grove_cross_verify(a->p, a->s, a->sig, sl, a->msg, a->mlen, a->pk);
}

static size_t measure(void)
{
    memset(stack_mem, PATTERN, STACK_BYTES);
    getcontext(&op_ctx);
    op_ctx.uc_stack.ss_sp = stack_mem;
    op_ctx.uc_stack.ss_size = STACK_BYTES;
    op_ctx.uc_link = &main_ctx;
    makecontext(&op_ctx, run_op, 0);
    swapcontext(&main_ctx, &op_ctx);
    size_t i = 0;
    while (i < STACK_BYTES && stack_mem[i] == PATTERN)
        i++;
    return STACK_BYTES - i;
}

struct budget {
    char set[40], strat[16], op[8];
    unsigned long max;
};

int main(int argc, char **argv)
{
    const char *filter = NULL, *budget_file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc)
            filter = argv[++i];
        else if (strcmp(argv[i], "--check-budget") == 0 && i + 1 < argc)
            budget_file = argv[++i];
        else if (strcmp(argv[i], "--min-time") == 0 && i + 1 < argc)
            i++; /* accepted for the bench smoke convention */
        else {
            fprintf(stderr, "usage: %s [--filter SUBSTR] [--check-budget FILE]\n", argv[0]);
            return 2;
        }
    }
    struct budget *bud = NULL;
    size_t nbud = 0;
    if (budget_file) {
        FILE *f = fopen(budget_file, "r");
        if (f == NULL) {
            fprintf(stderr, "cannot open %s\n", budget_file);
            return 2;
        }
        char line[256];
        bud = calloc(256, sizeof *bud);
        while (bud && nbud < 256 && fgets(line, sizeof line, f))
            if (line[0] != '#' && sscanf(line, "%39s %15s %7s %lu", bud[nbud].set,
                                         bud[nbud].strat, bud[nbud].op, &bud[nbud].max) == 4)
                nbud++;
        fclose(f);
    }
    stack_mem = malloc(STACK_BYTES);
    uint8_t pk[256], sk[64], msg[33];
    uint8_t *sig = malloc(80000), *sig2 = malloc(80000);
    if (stack_mem == NULL || sig == NULL || sig2 == NULL)
        return 2;
    memset(msg, 0x42, sizeof msg);
    /* one-time initialisation (hash kernel selection) outside the measurements */
    {
        const grove_cross_params *p0 = grove_cross_params_at(0);
        uint8_t seed[64] = {0};
        if (grove_cross_keygen_from_seed(p0, pk, sk, seed) != GROVE_OK)
            return 2;
    }
    static const char *ops[3] = {"keygen", "sign", "verify"};
    int failures = 0, first = 1;
    printf("{\"benchmark\": \"cross_stack\", \"unit\": \"bytes\", \"results\": [");
    for (size_t i = 0; i < grove_cross_params_count(); i++) {
        const grove_cross_params *p = grove_cross_params_at(i);
        const char *name = grove_cross_params_name(p);
        if (filter && strstr(name, filter) == NULL)
            continue;
        size_t sl = grove_cross_sig_bytes(p);
        for (int si = 0; si < 2; si++) {
            grove_cross_strategy s = si ? GROVE_CROSS_SMALL_MEMORY : GROVE_CROSS_FAST;
            for (int op = 0; op < 3; op++) {
                args = (struct op_args){p, s, op, pk, sk, si ? sig2 : sig, msg, sizeof msg, -1};
                size_t peak = measure();
                int ok = args.rc == GROVE_OK;
                if (op == 1 && si == 1)
                    ok = ok && memcmp(sig, sig2, sl) == 0;
                if (!ok)
                    failures++;
                const char *sn = grove_cross_strategy_name(s);
                printf("%s\n  {\"set\": \"%s\", \"strategy\": \"%s\", \"op\": \"%s\", "
                       "\"stack_bytes\": %zu, \"workspace_bytes\": %zu, \"ok\": %s}",
                       first ? "" : ",", name, sn, ops[op], peak,
                       op ? grove_cross_workspace_bytes(p, s, (grove_cross_op)op) : 0,
                       ok ? "true" : "false");
                first = 0;
                for (size_t b = 0; b < nbud; b++)
                    if (strcmp(bud[b].set, name) == 0 && strcmp(bud[b].strat, sn) == 0 &&
                        strcmp(bud[b].op, ops[op]) == 0 && peak > bud[b].max) {
                        fprintf(stderr, "over budget: %s %s %s: %zu > %lu\n", name, sn, ops[op],
                                peak, bud[b].max);
                        failures++;
                    }
            }
        }
    }
    printf("\n], \"failures\": %d}\n", failures);
    free(stack_mem);
    free(sig);
    free(sig2);
    free(bud);
    return failures ? 1 : 0;
}
