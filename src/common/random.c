/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Randomness from the operating system, with EINTR retry and no user-space generator:
 *  - getrandom() where the C library has it (Linux; blocks until the kernel pool is seeded,
 *    never reads a file);
 *  - else getentropy(), at most 256 bytes per call (macOS, the BSDs, illumos; glibc 2.25+ has
 *    it too, so GROVE_RANDOM_GETENTROPY, which forces it, tests this path on Linux);
 *  - else a compile-time error rather than a silent weak source.
 * A CMake build knows which exist (check_symbol_exists in CMakeLists.txt: GROVE_SYS_GETRANDOM,
 * GROVE_SYS_GETENTROPY_UNISTD, GROVE_SYS_GETENTROPY_RANDOM_H); a build without it (tests/port/
 * run.sh part 1 compiles the files straight) goes by the system's name.
 */
#include <errno.h>
#include <sys/types.h>

#include "grove/common.h"

#if defined(GROVE_RANDOM_GETENTROPY)
#define GROVE_RNG_GETRANDOM 0
#elif defined(GROVE_SYS_GETRANDOM)
#define GROVE_RNG_GETRANDOM GROVE_SYS_GETRANDOM
#elif defined(__linux__)
#define GROVE_RNG_GETRANDOM 1
#else
#define GROVE_RNG_GETRANDOM 0
#endif

#if GROVE_RNG_GETRANDOM
#include <sys/random.h>

static ssize_t os_random(uint8_t *buf, size_t len)
{
    size_t chunk = len > 33554431u ? 33554431u : len;
    return getrandom(buf, chunk, 0);
}
#else
#if defined(GROVE_SYS_GETENTROPY_UNISTD)
#if !GROVE_SYS_GETENTROPY_UNISTD && !GROVE_SYS_GETENTROPY_RANDOM_H
#error "grove_randombytes: no getrandom() or getentropy() on this system"
#endif
#elif !(defined(__linux__) || defined(__APPLE__) || defined(__FreeBSD__) ||                    \
        defined(__OpenBSD__) || defined(__NetBSD__) || defined(__DragonFly__) || defined(__sun))
#error "grove_randombytes: no getrandom() or getentropy() known for this system"
#endif
#include <unistd.h>
#if (defined(GROVE_SYS_GETENTROPY_RANDOM_H) && GROVE_SYS_GETENTROPY_RANDOM_H &&                \
     !GROVE_SYS_GETENTROPY_UNISTD) ||                                                          \
    (!defined(GROVE_SYS_GETENTROPY_RANDOM_H) && defined(__APPLE__))
#include <sys/random.h>
#endif

static ssize_t os_random(uint8_t *buf, size_t len)
{
    size_t chunk = len > 256u ? 256u : len;
    if (getentropy(buf, chunk) != 0)
        return -1;
    return (ssize_t)chunk;
}
#endif

grove_status grove_randombytes(uint8_t *buf, size_t len)
{
    if (buf == NULL && len != 0)
        return GROVE_ERR_INVALID_ARG;
    while (len > 0) {
        ssize_t got = os_random(buf, len);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return GROVE_ERR_RNG;
        }
        if (got == 0)
            return GROVE_ERR_RNG;
        buf += (size_t)got;
        len -= (size_t)got;
    }
    return GROVE_OK;
}
