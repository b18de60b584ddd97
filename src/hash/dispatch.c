/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Picks the hash kernels once, from the CPU features (see dispatch.h). */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "grove/common.h"
#include "hash/dispatch.h"
#include "common/util.h"
#include "hash/keccak.h"
#include "hash/keccak_simd.h"
#include "hash/sha2_simd.h"
#include "hash/arm_kernels.h"

static struct grove_hash_kernels selected;
static pthread_once_t select_once = PTHREAD_ONCE_INIT;

static void select_kernels(void)
{
    struct grove_hash_kernels k = {
        .name = "portable",
        .sha256_compress = grove_sha256_compress_portable,
        .sha512_compress = grove_sha512_compress_portable,
        .keccakf1600 = grove_keccakf1600_portable,
        .keccakf1600_many = NULL,
        .keccak_xw = NULL,
        .keccak_w = 1,
        .shake_xw = NULL,
        .shake256_chains_x = NULL,
        .shake256_chains_w = 0,
        .sha256_chains_x = NULL,
        .sha256_chains_w = 0,
        /* portable C chains (one lane at a time; leaves the path if another kernel comes) */
        .sha256_chains_few = grove_sha256_chains_portable,
        .sha256_chains_few_w = 64,
        .sha256_blocks_few = NULL,
        .sha256_blocks_few_w = 0,
        .sha256_xw = NULL,
        .sha256_w = 1,
        .sha512_xw = NULL,
        .sha512_w = 1,
        .sha256_fused = NULL,
        .sha512_fused = NULL,
        .sha256_many = NULL,
        .sha512_many = NULL,
        .keccak_wide_min = 2,
        .sha256_wide_min = 2,
        .sha512_wide_min = 2,
        .sha256_chains_wide_min = 2,
        .sha256_blocks_wide_min = 2,
    };
    uint32_t f = grove_cpu_features();
#if GROVE_HAVE_X86_TARGETS
    if ((f & (GROVE_CPU_BMI1 | GROVE_CPU_BMI2)) == (GROVE_CPU_BMI1 | GROVE_CPU_BMI2)) {
        k.name = "portable-bmi";
        k.sha256_compress = grove_sha256_compress_bmi;
        k.sha512_compress = grove_sha512_compress_bmi;
        k.keccakf1600 = grove_keccakf1600_bmi;
        k.sha256_chains_few = grove_sha256_chains_bmi;
    }
#endif
#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
    const uint32_t avx512 = GROVE_CPU_AVX512F | GROVE_CPU_AVX512VL | GROVE_CPU_AVX512BW;
    if ((f & avx512) == avx512) {
        k.name = "avx512";
        k.keccak_xw = grove_keccakf1600_x8_avx512;
        k.keccak_w = 8;
        k.shake_xw = grove_shake_x8_avx512;
        k.shake256_chains_x = grove_shake256_chains_x8_avx512;
        k.shake256_chains_w = 8;
        k.sha256_xw = grove_sha256_x16_avx512;
        k.sha256_w = 16;
        k.sha512_xw = grove_sha512_x8_avx512;
        k.sha512_w = 8;
        k.sha256_fused = grove_sha256_many_x16_avx512;
        k.sha256_chains_x = grove_sha256_chains_x16_avx512;
        k.sha256_chains_w = 16;
        k.sha512_fused = grove_sha512_many_x8_avx512;
    } else if (f & GROVE_CPU_AVX2) {
        k.name = "avx2";
        k.keccak_xw = grove_keccakf1600_x4_avx2;
        k.keccak_w = 4;
        k.shake_xw = grove_shake_x4_avx2;
        k.shake256_chains_x = grove_shake256_chains_x4_avx2;
        k.shake256_chains_w = 4;
        k.sha256_xw = grove_sha256_x8_avx2;
        k.sha256_w = 8;
        k.sha512_xw = grove_sha512_x4_avx2;
        k.sha512_w = 4;
        k.sha256_fused = grove_sha256_many_x8_avx2;
        k.sha256_chains_x = grove_sha256_chains_x8_avx2;
        k.sha256_chains_w = 8;
        k.sha512_fused = grove_sha512_many_x4_avx2;
    }
    /*
     * SHA-NI: the single compressions, and the batches too small for the wide kernels (or, without
     * AVX-512, all one-block batches and chains) through kernels that interleave up to four
     * independent compressions: one sha256rnds2 chain alone waits on the instruction's latency.
     * Figures: `build/bin/bench_hash --filter sha256 --min-time 0.3` (CPU time per call, about
     * 20 ns of timer included; AMD EPYC family 26 model 2, Zen 5, 2 vCPUs, load average 14,
     * 2026-12-07), SPHINCS+ SHA2-128 layouts: 15 chain steps on x lanes (n = 16) and 38-byte
     * messages after a 64-byte prefix. (Earlier, on Zen 4: one WOTS+ chain compression 44 ns in
     * the AVX2 x8 chain kernel against 87 ns in single-lane SHA-NI.)
     */
    /* GROVE_CPU=<path>-shani1 (avx512-shani1, avx2-shani1): SHA-NI one compression at a time,
     * without the interleaved kernels below (the path before them, for comparisons). */
    const char *cap = getenv("GROVE_CPU");
    const int shani1 = cap != NULL && strstr(cap, "shani1") != NULL;
    if (f & GROVE_CPU_SHANI) {
        static char name[32];
        snprintf(name, sizeof name, "%s+sha-ni%s", k.name, shani1 ? "1" : "");
        k.name = name;
        k.sha256_compress = grove_sha256_compress_shani;
        k.sha256_wide_min = 5;
    }
    if ((f & GROVE_CPU_SHANI) && !shani1) {
        k.sha256_chains_few = grove_sha256_chains_x4_shani;
        k.sha256_chains_few_w = 4;
        k.sha256_blocks_few = grove_sha256_blocks_x4_shani;
        k.sha256_blocks_few_w = 4;
        if (k.sha256_chains_w == 16) {
            /* x16 chain call 3466 ns against SHA-NI x4 1342, x3 1093, x2 892, x1 741 ns: up to
             * 9 chains SHA-NI is cheaper (9 = 4 + 4 + 1: 3425 ns). x16 one-block messages
             * 351 ns against SHA-NI x4 110 ns: up to 12 messages SHA-NI. */
            k.sha256_chains_wide_min = 10;
            k.sha256_blocks_wide_min = 13;
        } else {
            /* AVX2 without AVX-512: SHA-NI x4 walks a chain step in 22 ns a lane, the AVX2 x8
             * kernel in 54 ns; one-block messages 27 ns against 69 ns. SHA-NI takes them all
             * (multi-block messages stay on the x8 kernel from 5 on). */
            k.sha256_chains_x = NULL;
            k.sha256_chains_w = 0;
            k.sha256_chains_wide_min = UINT_MAX;
            k.sha256_blocks_wide_min = UINT_MAX;
        }
    }
#endif
#if GROVE_HAVE_ARM_TARGETS
    /*
     * AArch64: two Keccak states per NEON vector (with the SHA-3 extension's EOR3/BCAX/XAR when
     * present), the SHA-2 and SHA-512 instructions for the single compressions. The thresholds
     * stay at the portable defaults: nothing could be timed on ARM hardware here
     * (docs/platforms.md).
     */
    if (f & GROVE_CPU_NEON) {
        int sha3 = (f & GROVE_CPU_ARM_SHA3) != 0;
        k.name = sha3 ? "neon-sha3" : "neon";
        k.keccak_xw = sha3 ? grove_keccakf1600_x2_neon_sha3 : grove_keccakf1600_x2_neon;
        k.keccak_w = 2;
        k.shake_xw = sha3 ? grove_shake_x2_neon_sha3 : grove_shake_x2_neon;
        k.shake256_chains_x = sha3 ? grove_shake256_chains_x2_neon_sha3
                                   : grove_shake256_chains_x2_neon;
        k.shake256_chains_w = 2;
    }
    /*
     * NEON multi-lane SHA-2 (4 SHA-256, 2 SHA-512 lanes) where the CPU lacks the matching
     * SHA-2 instructions. With them, the single-lane instruction kernels take every batch:
     * they need far fewer instructions per block (docs/platforms.md, qemu instruction counts;
     * unmeasured in time, no ARM hardware here).
     */
    if ((f & GROVE_CPU_NEON) && !(f & GROVE_CPU_ARM_SHA2)) {
        k.sha256_xw = grove_sha256_x4_neon;
        k.sha256_w = 4;
        k.sha256_fused = grove_sha256_many_x4_neon;
        k.sha256_chains_x = grove_sha256_chains_x4_neon;
        k.sha256_chains_w = 4;
    }
    if ((f & GROVE_CPU_NEON) && !(f & GROVE_CPU_ARM_SHA512)) {
        k.sha512_xw = grove_sha512_x2_neon;
        k.sha512_w = 2;
        k.sha512_fused = grove_sha512_many_x2_neon;
    }
    if ((f & GROVE_CPU_NEON) && (f & (GROVE_CPU_ARM_SHA2 | GROVE_CPU_ARM_SHA512))) {
        static char name[40];
        snprintf(name, sizeof name, "%s%s%s", k.name, (f & GROVE_CPU_ARM_SHA2) ? "+sha2" : "",
                 (f & GROVE_CPU_ARM_SHA512) ? "+sha512" : "");
        k.name = name;
        if (f & GROVE_CPU_ARM_SHA2)
            k.sha256_compress = grove_sha256_compress_armv8;
        if (f & GROVE_CPU_ARM_SHA512)
            k.sha512_compress = grove_sha512_compress_armv8;
    }
#endif
    /* The portable chain kernel only where the portable compression runs and no wide chain
     * kernel does (it would bypass SHA instructions, and the wide kernels take the chains). */
    if ((k.sha256_chains_few == grove_sha256_chains_portable
#if GROVE_HAVE_X86_TARGETS
         || k.sha256_chains_few == grove_sha256_chains_bmi
#endif
         ) &&
        (k.sha256_chains_x != NULL || (k.sha256_compress != grove_sha256_compress_portable
#if GROVE_HAVE_X86_TARGETS
                                       && k.sha256_compress != grove_sha256_compress_bmi
#endif
                                       ))) {
        k.sha256_chains_few = NULL;
        k.sha256_chains_few_w = 0;
    }
    (void)f;
    selected = k;
}

const struct grove_hash_kernels *grove_hash_kernels(void)
{
    pthread_once(&select_once, select_kernels);
    return &selected;
}

const char *grove_cpu_path(void)
{
    return grove_hash_kernels()->name;
}
