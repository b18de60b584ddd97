/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * CPU feature detection, done once. The environment variable GROVE_CPU caps what is used:
 *   GROVE_CPU=portable  the portable C kernels only: no SIMD, no SHA-NI (the C kernels may
 *                       still run as their BMI1/BMI2-compiled copies, the same source)
 *   GROVE_CPU=baseline  the portable C kernels compiled for baseline x86-64 (no BMI either)
 *   GROVE_CPU=avx2      at most AVX2 (+ SHA-NI, AES-NI, BMI2/ADX)
 *   GROVE_CPU=avx512    everything the machine has (same as unset)
 * A "-nosha" suffix (e.g. GROVE_CPU=avx2-nosha) also leaves SHA-NI out: valgrind cannot run it.
 * On AArch64 (features from getauxval(AT_HWCAP)):
 *   GROVE_CPU=portable      the portable C kernels only
 *   GROVE_CPU=neon          Advanced SIMD only (2-state Keccak), no SHA/SHA-3 instructions
 *   GROVE_CPU=armv8-sha2    NEON and the SHA-256 instructions (an ARMv8.0 crypto core)
 *   GROVE_CPU=armv8-crypto  everything the machine has (same as unset)
 * ("-nosha" leaves the SHA-256/SHA-512 instructions out there too.)
 * A value naming a feature the machine lacks never enables it.
 */
#ifndef GROVE_COMMON_CPU_H
#define GROVE_COMMON_CPU_H

#include <stdint.h>

enum {
    GROVE_CPU_AVX2 = 1u << 0,
    GROVE_CPU_AVX512F = 1u << 1,
    GROVE_CPU_AVX512VL = 1u << 2,
    GROVE_CPU_SHANI = 1u << 3,
    GROVE_CPU_AESNI = 1u << 4,
    GROVE_CPU_BMI2 = 1u << 5,
    GROVE_CPU_ADX = 1u << 6,
    GROVE_CPU_BMI1 = 1u << 7,
    GROVE_CPU_AVX512BW = 1u << 8,
    /* AArch64 */
    GROVE_CPU_NEON = 1u << 9,        /* Advanced SIMD (HWCAP_ASIMD)            */
    GROVE_CPU_ARM_SHA2 = 1u << 10,   /* SHA256H etc. (HWCAP_SHA2)              */
    GROVE_CPU_ARM_SHA512 = 1u << 11, /* SHA512H etc. (HWCAP_SHA512)            */
    GROVE_CPU_ARM_SHA3 = 1u << 12,   /* EOR3, RAX1, XAR, BCAX (HWCAP_SHA3)     */
};

/* Features usable by grove on this machine after the GROVE_CPU cap (bit set of GROVE_CPU_*). */
uint32_t grove_cpu_features(void);

/* Features the hardware and OS support, ignoring GROVE_CPU. */
uint32_t grove_cpu_features_raw(void);

#endif
