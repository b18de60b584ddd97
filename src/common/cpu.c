/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* CPU feature detection (x86 via cpuid/xgetbv, AArch64 via the hwcaps; others report none). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "grove/common.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static uint32_t detect(void)
{
    unsigned a, b, c, d;
    uint32_t f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    int osxsave = (c >> 27) & 1;
    int avx = (c >> 28) & 1;
    if ((c >> 25) & 1)
        f |= GROVE_CPU_AESNI;
    uint64_t xcr0 = osxsave ? read_xcr0() : 0;
    int ymm_ok = avx && (xcr0 & 0x6) == 0x6;
    int zmm_ok = ymm_ok && (xcr0 & 0xE0) == 0xE0;
    if (__get_cpuid_max(0, NULL) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if (ymm_ok && ((b >> 5) & 1))
            f |= GROVE_CPU_AVX2;
        if (zmm_ok && ((b >> 16) & 1))
            f |= GROVE_CPU_AVX512F;
        if (zmm_ok && ((b >> 31) & 1))
            f |= GROVE_CPU_AVX512VL;
        if (zmm_ok && ((b >> 30) & 1))
            f |= GROVE_CPU_AVX512BW;
        if ((b >> 29) & 1)
            f |= GROVE_CPU_SHANI;
        if ((b >> 3) & 1)
            f |= GROVE_CPU_BMI1;
        if ((b >> 8) & 1)
            f |= GROVE_CPU_BMI2;
        if ((b >> 19) & 1)
            f |= GROVE_CPU_ADX;
    }
    return f;
}
#elif defined(__aarch64__)
#if defined(__linux__) && defined(__has_include)
#if __has_include(<sys/auxv.h>)
#include <sys/auxv.h>
#define GROVE_HAVE_GETAUXVAL 1
#endif
#endif
/* The bits of AT_HWCAP on Linux/arm64 (arch/arm64/include/uapi/asm/hwcap.h). */
#define GROVE_HWCAP_ASIMD (1ul << 1)
#define GROVE_HWCAP_SHA2 (1ul << 6)
#define GROVE_HWCAP_SHA3 (1ul << 17)
#define GROVE_HWCAP_SHA512 (1ul << 21)

static uint32_t detect(void)
{
#if defined(GROVE_HAVE_GETAUXVAL)
    unsigned long hw = getauxval(AT_HWCAP);
    uint32_t f = 0;
    if (hw & GROVE_HWCAP_ASIMD) {
        f |= GROVE_CPU_NEON;
        if (hw & GROVE_HWCAP_SHA2)
            f |= GROVE_CPU_ARM_SHA2;
        if (hw & GROVE_HWCAP_SHA512)
            f |= GROVE_CPU_ARM_SHA512;
        if (hw & GROVE_HWCAP_SHA3)
            f |= GROVE_CPU_ARM_SHA3;
    }
    return f;
#else
    /* No getauxval (macOS, the BSDs): what the compiler was told the target has. Advanced
     * SIMD is part of every AArch64 ABI in use. */
    uint32_t f = GROVE_CPU_NEON;
#if defined(__ARM_FEATURE_SHA2)
    f |= GROVE_CPU_ARM_SHA2;
#endif
#if defined(__ARM_FEATURE_SHA512)
    f |= GROVE_CPU_ARM_SHA512;
#endif
#if defined(__ARM_FEATURE_SHA3)
    f |= GROVE_CPU_ARM_SHA3;
#endif
    return f;
#endif
}
#else
static uint32_t detect(void)
{
    return 0;
}
#endif

static uint32_t raw_features, capped_features;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

static void cpu_init(void)
{
    raw_features = detect();
    capped_features = raw_features;
    const char *cap = getenv("GROVE_CPU");
    if (cap != NULL) {
        if (strncmp(cap, "baseline", 8) == 0)
            capped_features = 0;
        else if (strncmp(cap, "portable", 8) == 0) /* the portable C kernels (BMI codegen kept) */
            capped_features &= (uint32_t)(GROVE_CPU_BMI1 | GROVE_CPU_BMI2);
        else if (strncmp(cap, "avx2", 4) == 0)
            capped_features &= ~(uint32_t)(GROVE_CPU_AVX512F | GROVE_CPU_AVX512VL | GROVE_CPU_AVX512BW);
        else if (strncmp(cap, "neon", 4) == 0)
            capped_features &= (uint32_t)GROVE_CPU_NEON;
        else if (strncmp(cap, "armv8-sha2", 10) == 0)
            capped_features &= (uint32_t)(GROVE_CPU_NEON | GROVE_CPU_ARM_SHA2);
        if (strstr(cap, "nosha") != NULL)
            capped_features &= ~(uint32_t)(GROVE_CPU_SHANI | GROVE_CPU_ARM_SHA2 | GROVE_CPU_ARM_SHA512);
    }
}

uint32_t grove_cpu_features(void)
{
    pthread_once(&cpu_once, cpu_init);
    return capped_features;
}

uint32_t grove_cpu_features_raw(void)
{
    pthread_once(&cpu_once, cpu_init);
    return raw_features;
}

