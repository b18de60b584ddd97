/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Randomness from the operating system, with EINTR retry and no user-space generator:
 *  - Linux: getrandom() (blocks until the kernel pool is seeded, never reads a file);
 *  - macOS and the BSDs (or GROVE_RANDOM_GETENTROPY, which tests/port/run.sh uses to test this
 *    path on Linux too): getentropy(), at most 256 bytes per call;
 *  - any other system: a compile-time error rather than a silent weak source.
 */
#include <errno.h>
#include <sys/types.h>

#include "grove/common.h"

#if defined(__linux__) && !defined(GROVE_RANDOM_GETENTROPY)
#include <sys/random.h>

static ssize_t os_random(uint8_t *buf, size_t len)
{
    size_t chunk = len > 33554431u ? 33554431u : len;
    return getrandom(buf, chunk, 0);
}
#elif defined(__linux__) || defined(__APPLE__) || defined(__FreeBSD__) ||                      \
    defined(__OpenBSD__) || defined(__NetBSD__) || defined(__DragonFly__) || defined(__sun)
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/random.h>
#endif

static ssize_t os_random(uint8_t *buf, size_t len)
{
    size_t chunk = len > 256u ? 256u : len;
    if (getentropy(buf, chunk) != 0)
        return -1;
    return (ssize_t)chunk;
}
#else
#error "grove_randombytes: no getrandom() or getentropy() known for this system"
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
