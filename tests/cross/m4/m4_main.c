/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * CROSS on a Cortex-M4 (QEMU mps2-an386): for each parameter set and strategy, keygen, sign and
 * verify of KAT count 0 with the stack painted beforehand; prints one line per set/strategy:
 *   RESULT <set> <strategy> keygen <bytes> sign <bytes> verify <bytes> kat <ok|FAIL>
 * "kat ok" means: the public key and signature equal the KAT's (FNV-1a-64 of both, computed on
 * the host from the vector file), verify accepts, and verify rejects a flipped byte.
 * Keys, message and signature are static (outside the measured stack), as in pqm4.
 * Sign and verify get their workspace (grove_cross_workspace_bytes) from a static buffer, as an
 * embedded caller of the *_ws functions would; the figures printed for them are the peak stack
 * plus that workspace, i.e. all the RAM the operation needs.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cross/cross_internal.h"
#include "grove/cross.h"

struct m4_kat {
    const char *name;
    uint8_t sk[64], rnd[96], msg[33];
    uint64_t fnv_pk, fnv_sig;
};
#include "kat_m4.h"

#define PAINT 0xA5A5A5A5u
extern uint32_t __stack_limit;

static uint8_t pk[256], sk[64], sig[80000];
static uint64_t ws_mem[(1u << 20) / 8]; /* >= the largest workspace (fast RSDP-5-small sign) */
static const grove_cross_params *cur_p;
static const struct m4_kat *cur_k;
static grove_cross_strategy cur_s;
static int cur_rc;

static uint64_t fnv(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static __attribute__((noinline)) void op_keygen(void)
{
    cur_rc = grove_cross_keygen_from_seed(cur_p, pk, sk, cur_k->sk);
}

static __attribute__((noinline)) void op_sign(void)
{
    size_t seed = grove_cross_sk_bytes(cur_p) / 2;
    cur_rc = cross_sign_derand(cur_p, cur_s, sig, cur_k->msg, sizeof cur_k->msg, sk,
                               cur_k->rnd, cur_k->rnd + seed, ws_mem, sizeof ws_mem);
}

static __attribute__((noinline)) void op_verify(void)
{
    cur_rc = grove_cross_verify_ws(cur_p, cur_s, sig, grove_cross_sig_bytes(cur_p), cur_k->msg,
                                   sizeof cur_k->msg, pk, ws_mem, sizeof ws_mem);
}

/* Paint from the stack limit up to just below the current frame, run op, find the deepest
 * overwritten word. */
static __attribute__((noinline)) uint32_t measure(void (*op)(void))
{
    uint32_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    volatile uint32_t *p = &__stack_limit;
    uint32_t top = sp - 64;
    while ((uint32_t)p < top)
        *p++ = PAINT;
    op();
    p = &__stack_limit;
    while ((uint32_t)p < top && *p == PAINT)
        p++;
    return sp - (uint32_t)p;
}

int main(void)
{
    int fails = 0;
    printf("M4 CROSS stack harness: %u sets\n", (unsigned)(sizeof m4_kats / sizeof m4_kats[0]));
    for (size_t i = 0; i < sizeof m4_kats / sizeof m4_kats[0]; i++) {
        cur_k = &m4_kats[i];
        cur_p = grove_cross_params_get(cur_k->name);
        if (cur_p == NULL) {
            printf("RESULT %s unknown\n", cur_k->name);
            fails++;
            continue;
        }
        size_t pkl = grove_cross_pk_bytes(cur_p), sl = grove_cross_sig_bytes(cur_p);
        for (int si = 0; si < 2; si++) {
            cur_s = si ? GROVE_CROSS_FAST : GROVE_CROSS_SMALL_MEMORY;
            memset(sig, 0, sizeof sig);
            uint32_t kg = measure(op_keygen);
            int ok = cur_rc == GROVE_OK && fnv(pk, pkl) == cur_k->fnv_pk;
            uint32_t sg = measure(op_sign) +
                          (uint32_t)grove_cross_workspace_bytes(cur_p, cur_s, GROVE_CROSS_OP_SIGN);
            ok = ok && cur_rc == GROVE_OK && fnv(sig, sl) == cur_k->fnv_sig;
            uint32_t vf = measure(op_verify) + (uint32_t)grove_cross_workspace_bytes(
                                                     cur_p, cur_s, GROVE_CROSS_OP_VERIFY);
            ok = ok && cur_rc == GROVE_OK;
            sig[sl / 2] ^= 0x10;
            op_verify();
            ok = ok && cur_rc == GROVE_ERR_VERIFY;
            sig[sl / 2] ^= 0x10;
            printf("RESULT %s %s keygen %lu sign %lu verify %lu kat %s\n", cur_k->name,
                   grove_cross_strategy_name(cur_s), (unsigned long)kg, (unsigned long)sg,
                   (unsigned long)vf, ok ? "ok" : "FAIL");
            if (!ok)
                fails++;
        }
    }
    printf("M4 done: %d failures\n", fails);
    return fails ? 1 : 0;
}
