/* Hash kernels: one compression / permutation and 1 KiB messages, per algorithm. */
#include <stdlib.h>

#include "bench.h"
#include "hash/keccak.h"
#include "hash/sha2.h"

static uint8_t msg[1024];

static int op_sha256_block(void *ctx)
{
    grove_sha256_compress((uint32_t *)ctx, msg, 1);
    return 0;
}
static int op_sha512_block(void *ctx)
{
    grove_sha512_compress((uint64_t *)ctx, msg, 1);
    return 0;
}
static int op_keccakf(void *ctx)
{
    grove_keccakf1600((uint64_t *)ctx);
    return 0;
}
static int op_sha256_1k(void *ctx)
{
    grove_sha256((uint8_t *)ctx, msg, sizeof msg);
    return 0;
}
static int op_sha512_1k(void *ctx)
{
    grove_sha512((uint8_t *)ctx, msg, sizeof msg);
    return 0;
}
static int op_shake256_1k(void *ctx)
{
    grove_shake256((uint8_t *)ctx, 32, msg, sizeof msg);
    return 0;
}

int main(int argc, char **argv)
{
    static uint32_t s256[8];
    static uint64_t s512[8], keccak[25];
    static uint8_t out[64];
    bench_suite s = {.name = "hash"};
    bench_add(&s, "sha256", "compress", op_sha256_block, s256, NULL);
    bench_add(&s, "sha512", "compress", op_sha512_block, s512, NULL);
    bench_add(&s, "keccak-f1600", "permute", op_keccakf, keccak, NULL);
    bench_add(&s, "sha256", "1KiB", op_sha256_1k, out, NULL);
    bench_add(&s, "sha512", "1KiB", op_sha512_1k, out, NULL);
    bench_add(&s, "shake256", "1KiB", op_shake256_1k, out, NULL);
    int rc = bench_main(&s, argc, argv);
    free(s.cases);
    return rc;
}
