/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Hash kernels: one compression / permutation and 1 KiB messages, per algorithm. */
#include <stdlib.h>

#include "bench.h"
#include "hash/keccak.h"
#include "hash/keccak_simd.h"
#include "hash/sha2.h"
#include "hash/sha2_simd.h"
#include "hash/arm_kernels.h"
#include "common/util.h"
#include "common/cpu.h"

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

#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
static uint64_t wide_state[25 * 8];
static uint32_t st256[8 * 16];
static uint64_t st512[8 * 8];
static uint8_t blocks[16 * 128];
static int op_keccak_x4(void *ctx)
{
    (void)ctx;
    grove_keccakf1600_x4_avx2(wide_state);
    return 0;
}
static int op_keccak_x8(void *ctx)
{
    (void)ctx;
    grove_keccakf1600_x8_avx512(wide_state);
    return 0;
}
static int op_sha256_x8(void *ctx)
{
    (void)ctx;
    grove_sha256_x8_avx2(st256, blocks);
    return 0;
}
static int op_sha256_x16(void *ctx)
{
    (void)ctx;
    grove_sha256_x16_avx512(st256, blocks);
    return 0;
}
static int op_sha256_shani(void *ctx)
{
    grove_sha256_compress_shani((uint32_t *)ctx, msg, 1);
    return 0;
}
static int op_sha512_x4(void *ctx)
{
    (void)ctx;
    grove_sha512_x4_avx2(st512, blocks);
    return 0;
}
static int op_sha512_x8(void *ctx)
{
    (void)ctx;
    grove_sha512_x8_avx512(st512, blocks);
    return 0;
}
#endif

#if GROVE_HAVE_ARM_TARGETS
/* AArch64 kernels (GROVE_CPU_NEON, _ARM_SHA2, _ARM_SHA512, _ARM_SHA3). */
static int op_keccak_x2_neon(void *ctx)
{
    grove_keccakf1600_x2_neon((uint64_t *)ctx);
    return 0;
}
static int op_keccak_x2_sha3(void *ctx)
{
    grove_keccakf1600_x2_neon_sha3((uint64_t *)ctx);
    return 0;
}
static int op_sha256_armv8(void *ctx)
{
    grove_sha256_compress_armv8((uint32_t *)ctx, msg, 1);
    return 0;
}
static int op_sha512_armv8(void *ctx)
{
    grove_sha512_compress_armv8((uint64_t *)ctx, msg, 1);
    return 0;
}
#endif

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
    uint32_t f = grove_cpu_features_raw();
#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
    static uint32_t sni[8];
    if (f & GROVE_CPU_AVX2) {
        bench_add(&s, "keccak-f1600 x4 (avx2)", "permute", op_keccak_x4, NULL, NULL);
        bench_add(&s, "sha256 x8 (avx2)", "compress", op_sha256_x8, NULL, NULL);
        bench_add(&s, "sha512 x4 (avx2)", "compress", op_sha512_x4, NULL, NULL);
    }
    if ((f & (GROVE_CPU_AVX512F | GROVE_CPU_AVX512VL | GROVE_CPU_AVX512BW)) ==
        (GROVE_CPU_AVX512F | GROVE_CPU_AVX512VL | GROVE_CPU_AVX512BW)) {
        bench_add(&s, "keccak-f1600 x8 (avx512)", "permute", op_keccak_x8, NULL, NULL);
        bench_add(&s, "sha256 x16 (avx512)", "compress", op_sha256_x16, NULL, NULL);
        bench_add(&s, "sha512 x8 (avx512)", "compress", op_sha512_x8, NULL, NULL);
    }
    if (f & GROVE_CPU_SHANI)
        bench_add(&s, "sha256 (sha-ni)", "compress", op_sha256_shani, sni, NULL);
#endif
#if GROVE_HAVE_ARM_TARGETS
    static uint64_t x2[50];
    static uint32_t a256[8];
    static uint64_t a512[8];
    if (f & GROVE_CPU_NEON)
        bench_add(&s, "keccak-f1600 x2 (neon)", "permute", op_keccak_x2_neon, x2, NULL);
    if (f & GROVE_CPU_ARM_SHA3)
        bench_add(&s, "keccak-f1600 x2 (neon-sha3)", "permute", op_keccak_x2_sha3, x2, NULL);
    if (f & GROVE_CPU_ARM_SHA2)
        bench_add(&s, "sha256 (armv8 sha2)", "compress", op_sha256_armv8, a256, NULL);
    if (f & GROVE_CPU_ARM_SHA512)
        bench_add(&s, "sha512 (armv8 sha512)", "compress", op_sha512_armv8, a512, NULL);
#else
    (void)f;
#endif
    int rc = bench_main(&s, argc, argv);
    free(s.cases);
    return rc;
}
