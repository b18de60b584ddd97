/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Picks the hash kernels once, from the CPU features (see dispatch.h). */
#include <pthread.h>
#include <stdio.h>

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
    };
    uint32_t f = grove_cpu_features();
#if GROVE_HAVE_X86_TARGETS
    if ((f & (GROVE_CPU_BMI1 | GROVE_CPU_BMI2)) == (GROVE_CPU_BMI1 | GROVE_CPU_BMI2)) {
        k.name = "portable-bmi";
        k.sha256_compress = grove_sha256_compress_bmi;
        k.sha512_compress = grove_sha512_compress_bmi;
        k.keccakf1600 = grove_keccakf1600_bmi;
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
     * SHA-NI: the single compressions (one-off hashes, long messages). The batches (F chains,
     * PRF/FORS leaves, tree nodes) stay on the multi-lane kernels, also without AVX-512: on an
     * AMD EPYC (Zen 4, family 25 model 17; 2 vCPUs under load, CPU time, medians of 5
     * alternated runs, 2026-12-02) one SHA-256 compression of a WOTS+ chain took 44.4 ns in the
     * AVX2 x8 chain kernel (everything included), against 86.5 ns for single-lane SHA-NI (one
     * dependent sha256rnds2 chain: latency-bound) and 50.7 ns for two messages interleaved
     * through sha256rnds2 (the rounds alone, without building the blocks). By instructions
     * SHA-NI would win (about 110 per block against 410 per lane for AVX2), which is why
     * callgrind figures cannot decide this (valgrind cannot run SHA-NI anyway). Four
     * interleaved messages came to 34 ns for the rounds alone: a possible later kernel.
     */
    if (f & GROVE_CPU_SHANI) {
        static char name[32];
        snprintf(name, sizeof name, "%s+sha-ni", k.name);
        k.name = name;
        k.sha256_compress = grove_sha256_compress_shani;
        k.sha256_wide_min = 5;
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
