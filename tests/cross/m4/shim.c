/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * What the bare-metal build needs from grove's common and hash layers besides keccak.c and
 * mem.c: the kernel table (portable Keccak only; no threads, no CPU detection) and a
 * randombytes stand-in. The harness only uses the deterministic entry points; randomness here is
 * a fixed xorshift stream, which is fine for a test image and nothing else.
 */
#include <stddef.h>
#include <stdint.h>

#include "grove/common.h"
#include "hash/dispatch.h"
#include "hash/keccak.h"

const struct grove_hash_kernels *grove_hash_kernels(void)
{
    static const struct grove_hash_kernels k = {
        .name = "portable",
        .sha256_compress = NULL,
        .sha512_compress = NULL,
        .keccakf1600 = grove_keccakf1600_portable,
        .keccakf1600_many = NULL,
        .sha256_many = NULL,
        .sha512_many = NULL,
    };
    return &k;
}

grove_status grove_randombytes(uint8_t *buf, size_t len)
{
    static uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i < len; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        buf[i] = (uint8_t)x;
    }
    return GROVE_OK;
}
