/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The driver bench/compare.sh runs on the SPHINCS+ reference (github.com/sphincs/sphincsplus),
 * compiled with its sources outside this repository by bench/sphincs/build_ref.sh. It uses the
 * reference's api.h only. `driver keygen|sign|verify N` runs one warm
 * operation, then N more through measured_op(), and prints the process CPU time per op. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "api.h"

static unsigned char pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES], seed[CRYPTO_SEEDBYTES];
static unsigned char sig[CRYPTO_BYTES], msg[32];
static size_t siglen;
static int which;

static int one(void)
{
    if (which == 0) return crypto_sign_seed_keypair(pk, sk, seed);
    if (which == 1) return crypto_sign_signature(sig, &siglen, msg, sizeof msg, sk);
    return crypto_sign_verify(sig, siglen, msg, sizeof msg, pk);
}

__attribute__((noinline)) int measured_op(void);
__attribute__((noinline)) int measured_op(void) { return one(); }

static double cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: driver keygen|sign|verify N\n"); return 2; }
    which = !strcmp(argv[1], "keygen") ? 0 : !strcmp(argv[1], "sign") ? 1 : !strcmp(argv[1], "verify") ? 2 : -1;
    long n = atol(argv[2]);
    if (which < 0 || n < 1) return 2;
    for (size_t i = 0; i < sizeof seed; i++) seed[i] = (unsigned char)(i * 7 + 1);
    memset(msg, 0x5a, sizeof msg);
    if (crypto_sign_seed_keypair(pk, sk, seed) || crypto_sign_signature(sig, &siglen, msg, sizeof msg, sk))
        return 1;
    if (one()) return 1; /* warm */
    double t0 = cpu_ns();
    for (long i = 0; i < n; i++)
        if (measured_op()) return 1;
    printf("cpu_ns_per_op %.0f\n", (cpu_ns() - t0) / (double)n);
    return 0;
}
