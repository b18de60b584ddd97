/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Internal helpers shared by every area: endian loads/stores, constant-time primitives,
 * wiping. Header-only so the compiler can inline them in hot loops.
 */
#ifndef GROVE_COMMON_UTIL_H
#define GROVE_COMMON_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "grove/common.h"

#if defined(__GNUC__) || defined(__clang__)
#define GROVE_INLINE static inline __attribute__((always_inline))
#define GROVE_UNUSED __attribute__((unused))
#define GROVE_ALIGN(x) __attribute__((aligned(x)))
#else
#define GROVE_INLINE static inline
#define GROVE_UNUSED
#define GROVE_ALIGN(x)
#endif

/* 1 where functions may be compiled for x86 extensions with target attributes. */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define GROVE_HAVE_X86_TARGETS 1
#else
#define GROVE_HAVE_X86_TARGETS 0
#endif

/* 1 where the AArch64 kernels (NEON, SHA-2/SHA-3 extensions) are built: little-endian AArch64
 * with gcc or clang (the kernel files get their -march per file, src/CMakeLists.txt). */
#if defined(__aarch64__) && defined(__AARCH64EL__) && (defined(__GNUC__) || defined(__clang__))
#define GROVE_HAVE_ARM_TARGETS 1
#else
#define GROVE_HAVE_ARM_TARGETS 0
#endif

#define GROVE_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- big-/little-endian loads and stores ------------------------------------------------ */
GROVE_INLINE uint32_t grove_load32_be(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}
GROVE_INLINE uint64_t grove_load64_be(const uint8_t *p)
{
    return ((uint64_t)grove_load32_be(p) << 32) | grove_load32_be(p + 4);
}
GROVE_INLINE void grove_store32_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}
GROVE_INLINE void grove_store64_be(uint8_t *p, uint64_t v)
{
    grove_store32_be(p, (uint32_t)(v >> 32));
    grove_store32_be(p + 4, (uint32_t)v);
}
GROVE_INLINE uint32_t grove_load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
GROVE_INLINE uint64_t grove_load64_le(const uint8_t *p)
{
    return (uint64_t)grove_load32_le(p) | ((uint64_t)grove_load32_le(p + 4) << 32);
}
GROVE_INLINE void grove_store32_le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
GROVE_INLINE void grove_store64_le(uint8_t *p, uint64_t v)
{
    grove_store32_le(p, (uint32_t)v);
    grove_store32_le(p + 4, (uint32_t)(v >> 32));
}
/* Big-endian store of the low `len` bytes of v (len <= 8). */
GROVE_INLINE void grove_store_be_n(uint8_t *p, size_t len, uint64_t v)
{
    for (size_t i = len; i > 0; i--) {
        p[i - 1] = (uint8_t)v;
        v >>= 8;
    }
}
GROVE_INLINE uint64_t grove_load_be_n(const uint8_t *p, size_t len)
{
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++)
        v = (v << 8) | p[i];
    return v;
}

/* ---- constant time ------------------------------------------------------------------------ */
/* Returns 1 if the len bytes at a and b are equal, 0 otherwise; time depends only on len. */
int grove_ct_memeq(const void *a, const void *b, size_t len);
/*
 * Zero GROVE_BURN_STACK_BYTES of the stack below the caller's frame: called by secret-key API
 * functions after their work, so that register spills and temporaries of the kernels they used
 * (hash schedules, SIMD spills) do not outlive the call. Their own buffers are wiped explicitly.
 */
#define GROVE_BURN_STACK_BYTES (32 * 1024)
void grove_burn_stack(void);

/* All-ones mask (0xFF..) if x == 0, else 0; branch-free. */
GROVE_INLINE uint64_t grove_ct_is_zero64(uint64_t x)
{
    return ((x | (0 - x)) >> 63) - 1;
}

/* dst = cond ? src : dst for a 0/1 cond, without a branch on cond. */
void grove_ct_cmov(void *dst, const void *src, size_t len, unsigned cond);

/* Opaque value barrier so the compiler cannot turn masks back into branches. */
GROVE_INLINE uint64_t grove_value_barrier64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(v));
#endif
    return v;
}

#endif
