/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The tests' reference for a SHA-256 hash chain in a lane buffer (head || value, the counter at
 * ctr): one lane, step by step with whole SHA-256 calls after the prefix state. Positions below
 * `from` are skipped (a lane that starts later); the value at position `cap` is copied to
 * want_cap. Shared by the chain-kernel tests (portable and NEON).
 */
#ifndef GROVE_TEST_SHA256_CHAIN_REF_H
#define GROVE_TEST_SHA256_CHAIN_REF_H

#include <string.h>

#include "common/util.h"
#include "hash/sha2.h"

static inline void test_sha256_chain_ref(uint8_t *buf, size_t head, size_t n, size_t ctr,
                                         uint32_t from, uint32_t start, unsigned steps,
                                         uint32_t cap, uint8_t *want_cap,
                                         const grove_sha256_ctx *prefix)
{
    for (uint32_t pos = start; pos <= start + steps; pos++) {
        if (cap == pos)
            memcpy(want_cap, buf + head, n);
        if (pos == start + steps || pos < from)
            continue;
        grove_store32_be(buf + ctr, pos);
        grove_sha256_ctx c = *prefix;
        uint8_t o[32];
        grove_sha256_update(&c, buf, head + n);
        grove_sha256_final(&c, o, 32);
        memcpy(buf + head, o, n);
    }
}

#endif
