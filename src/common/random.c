/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Randomness from the kernel (getrandom), with EINTR retry and no fallback. */
#include <errno.h>
#include <sys/random.h>

#include "grove/common.h"

grove_status grove_randombytes(uint8_t *buf, size_t len)
{
    if (buf == NULL && len != 0)
        return GROVE_ERR_INVALID_ARG;
    while (len > 0) {
        size_t chunk = len > 33554431u ? 33554431u : len;
        ssize_t got = getrandom(buf, chunk, 0);
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
