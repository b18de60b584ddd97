/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Wiping and constant-time memory primitives. */
#include <string.h>

#include "common/burn.h"
#include "common/util.h"
#include "grove/io.h"

/*
 * Zeroing the optimizer may not remove: explicit_bzero where the C library has it (glibc 2.25+,
 * musl, the BSDs; a CMake build knows from check_symbol_exists, GROVE_SYS_EXPLICIT_BZERO, a
 * build without CMake goes by the C library's name), else memset followed by an empty asm that
 * claims to read the memory (gcc and clang), else memset called through a volatile function
 * pointer. GROVE_PORTABLE_WIPE forces the memset + asm fallback and GROVE_WIPE_VOLATILE_FN the
 * last one (tests/port/run.sh builds both, to test them on Linux too).
 */
#if defined(GROVE_PORTABLE_WIPE) || defined(GROVE_WIPE_VOLATILE_FN)
#define GROVE_WIPE_EXPLICIT_BZERO 0
#elif defined(GROVE_SYS_EXPLICIT_BZERO)
#define GROVE_WIPE_EXPLICIT_BZERO GROVE_SYS_EXPLICIT_BZERO
#elif defined(__GLIBC__) || defined(__FreeBSD__) || defined(__OpenBSD__) ||                   \
    defined(__NetBSD__) || defined(__DragonFly__)
#define GROVE_WIPE_EXPLICIT_BZERO 1
#else
#define GROVE_WIPE_EXPLICIT_BZERO 0
#endif

static void wipe_bytes(void *p, size_t len)
{
#if GROVE_WIPE_EXPLICIT_BZERO
    explicit_bzero(p, len);
#elif (defined(__GNUC__) || defined(__clang__)) && !defined(GROVE_WIPE_VOLATILE_FN)
    memset(p, 0, len);
    __asm__ volatile("" : : "r"(p) : "memory");
#else
    static void *(*const volatile memset_v)(void *, int, size_t) = memset;
    memset_v(p, 0, len);
#endif
}

void grove_wipe(void *p, size_t len)
{
    if (p == NULL || len == 0)
        return;
    wipe_bytes(p, len);
}

/*
 * One frame of GROVE_BURN_STACK_MAX; only its top `bytes` (those next to the caller's frame,
 * where the frames of the caller's last callees were) are wiped, in 1 KiB pieces: the C
 * library's memset switches to `rep stosb` above ~2 KiB, which valgrind counts as one
 * instruction per byte and which is no faster at these sizes.
 */
__attribute__((noinline)) void grove_burn_stack_bytes(size_t bytes)
{
    uint8_t buf[GROVE_BURN_STACK_MAX];
    if (bytes > sizeof buf)
        bytes = sizeof buf;
    uint8_t *p = buf + sizeof buf - bytes;
    for (size_t off = 0; off < bytes; off += 1024)
        wipe_bytes(p + off, bytes - off < 1024 ? bytes - off : 1024);
    __asm__ volatile("" : : "r"(buf) : "memory");
}

__attribute__((noinline)) void grove_burn_stack_small(void)
{
    uint8_t buf[GROVE_BURN_STACK_SMALL];
    wipe_bytes(buf, sizeof buf);
    __asm__ volatile("" : : "r"(buf) : "memory");
}

__attribute__((noinline)) void grove_burn_stack(void)
{
    uint8_t buf[GROVE_BURN_STACK_BYTES];
    for (size_t off = 0; off < sizeof buf; off += 1024)
        wipe_bytes(buf + off, 1024);
    __asm__ volatile("" : : "r"(buf) : "memory");
}

int grove_ct_memeq(const void *a, const void *b, size_t len)
{
    const volatile uint8_t *x = (const volatile uint8_t *)a;
    const volatile uint8_t *y = (const volatile uint8_t *)b;
    uint8_t acc = 0;
    for (size_t i = 0; i < len; i++)
        acc |= (uint8_t)(x[i] ^ y[i]);
    uint64_t m = grove_value_barrier64(acc);
    return (int)(1 & ((m - 1) >> 63));
}

bool grove_ct_equal(const void *a, const void *b, size_t len)
{
    return grove_ct_memeq(a, b, len) == 1;
}

void grove_ct_cmov(void *dst, const void *src, size_t len, unsigned cond)
{
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    uint8_t mask = (uint8_t)(0 - (uint8_t)grove_value_barrier64(cond & 1u));
    for (size_t i = 0; i < len; i++)
        d[i] ^= (uint8_t)(mask & (d[i] ^ s[i]));
}
