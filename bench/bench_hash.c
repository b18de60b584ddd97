/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Hash kernels: one compression / permutation and 1 KiB messages, per algorithm. */
#include <stdlib.h>
#include <string.h>

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

/*
 * The fused SHA-256 chain kernels on the SPHINCS+ layout of SHA2-128 (22-byte ADRS, counter at
 * byte 18, n = 16, after a 64-byte PK.seed block): one call walks `lanes` chains 15 steps, so
 * the per-lane cost of one chain step is the time / (15 lanes).
 */
typedef void (*chains_fn)(uint8_t *const[], size_t, size_t, size_t, uint32_t, unsigned, size_t,
                          const uint8_t *, uint8_t *const[], const uint32_t[8], uint64_t,
                          const uint8_t *);
typedef struct {
    chains_fn fn;
    size_t lanes;
} chains_case;
static uint8_t chain_mem[16][64];
static uint8_t *chain_lanes[16];
static int op_sha256_chains(void *ctx)
{
    const chains_case *c = ctx;
    static const uint32_t init[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    c->fn(chain_lanes, 22, 16, 18, 0, 15, c->lanes, NULL, NULL, init, 64, NULL);
    return 0;
}

/* One-block messages (38 bytes after a 64-byte prefix: SPHINCS+ SHA2-128 F) on `lanes` lanes,
 * through the fused many-message kernels or the interleaved SHA-NI blocks. */
typedef struct {
    int (*fused)(uint8_t *const[], size_t, const uint32_t[8], uint64_t, const uint8_t *const[],
                 size_t, size_t);
    size_t lanes;
} many_case;
static int op_sha256_many(void *ctx)
{
    const many_case *c = ctx;
    static const uint32_t init[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    if (c->fused != NULL) {
        c->fused(chain_lanes, 16, init, 64, (const uint8_t *const *)chain_lanes, 38, c->lanes);
    } else {
        uint32_t st[4][8];
        uint32_t *sp[4] = {st[0], st[1], st[2], st[3]};
        for (size_t j = 0; j < c->lanes; j++)
            memcpy(st[j], init, sizeof st[j]);
        grove_sha256_blocks_x4_shani(sp, (const uint8_t *const *)chain_lanes, c->lanes);
        for (size_t j = 0; j < c->lanes; j++)
            for (int t = 0; t < 4; t++)
                grove_store32_be(chain_lanes[j] + 4 * t, st[j][t]);
    }
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
    for (size_t j = 0; j < 16; j++)
        chain_lanes[j] = chain_mem[j];
    static chains_case cc[] = {
        {grove_sha256_chains_x16_avx512, 16}, {grove_sha256_chains_x8_avx2, 8},
        {grove_sha256_chains_x4_shani, 1},    {grove_sha256_chains_x4_shani, 2},
        {grove_sha256_chains_x4_shani, 3},    {grove_sha256_chains_x4_shani, 4},
    };
    static const char *const cname[] = {
        "sha256 chains x16 (avx512)", "sha256 chains x8 (avx2)",  "sha256 chains x1 (sha-ni)",
        "sha256 chains x2 (sha-ni)",  "sha256 chains x3 (sha-ni)", "sha256 chains x4 (sha-ni)",
    };
    const int have_avx512 = (f & (GROVE_CPU_AVX512F | GROVE_CPU_AVX512VL | GROVE_CPU_AVX512BW)) ==
                            (GROVE_CPU_AVX512F | GROVE_CPU_AVX512VL | GROVE_CPU_AVX512BW);
    for (size_t i = 0; i < sizeof cc / sizeof cc[0]; i++) {
        int ok = i == 0 ? have_avx512 : i == 1 ? (f & GROVE_CPU_AVX2) != 0
                                               : (f & GROVE_CPU_SHANI) != 0;
        if (ok)
            bench_add(&s, cname[i], "15 steps n=16", op_sha256_chains, &cc[i], NULL);
    }
    static many_case mc[] = {
        {grove_sha256_many_x16_avx512, 16}, {grove_sha256_many_x8_avx2, 8}, {NULL, 1},
        {NULL, 2}, {NULL, 3}, {NULL, 4},
    };
    static const char *const mname[] = {
        "sha256 many x16 (avx512)", "sha256 many x8 (avx2)",  "sha256 blocks x1 (sha-ni)",
        "sha256 blocks x2 (sha-ni)", "sha256 blocks x3 (sha-ni)", "sha256 blocks x4 (sha-ni)",
    };
    for (size_t i = 0; i < sizeof mc / sizeof mc[0]; i++) {
        int ok = i == 0 ? have_avx512 : i == 1 ? (f & GROVE_CPU_AVX2) != 0
                                               : (f & GROVE_CPU_SHANI) != 0;
        if (ok)
            bench_add(&s, mname[i], "38-byte messages", op_sha256_many, &mc[i], NULL);
    }
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
