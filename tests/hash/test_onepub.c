/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove_sha256_many_pub16 / grove_sha512_many_pub16 (on the portable paths: the folded one-block
 * kernels of src/hash/sha2_onepub_portable.h, which run the rounds of the first 16 bytes once per
 * run of equal heads) against messages hashed one by one with the context functions: the
 * SPHINCS+ lengths (SHA-256 38/46/54 after a 64-byte prefix, SHA-512 70/86 after 128), heads all
 * equal, alternating, differing in one byte from the previous message (a stale shared state would
 * show), random; outputs written over the message's own data; truncated outputs (to 4 bytes: the fallback); and lengths and
 * prefixes the kernels do not take (the fallback). Registered for GROVE_CPU=portable (BMI build on
 * x86) and baseline (plain build) as well as the default path.
 */
#include <stdio.h>
#include <string.h>

#include "hash/sha2.h"
#include "test.h"

#define MAXC 40
#define MAXL 120

static void fill(uint64_t *rng, uint8_t msgs[][MAXL], size_t count, size_t len, int mode)
{
    for (size_t i = 0; i < count; i++) {
        test_rand_bytes(rng, msgs[i], len);
        if (i == 0 || mode == 3)
            continue;
        if (mode == 0) /* all heads equal */
            memcpy(msgs[i], msgs[0], 16);
        else if (mode == 1) /* alternating heads */
            memcpy(msgs[i], msgs[i % 2], 16);
        else { /* the previous head with one byte changed */
            memcpy(msgs[i], msgs[i - 1], 16);
            msgs[i][test_rand_u64(rng) % 16] ^= (uint8_t)(1u << (test_rand_u64(rng) % 8));
        }
    }
}

static void check256(uint64_t *rng, const grove_sha256_ctx *pre, size_t len, size_t outlen,
                     size_t count, int mode, int inplace)
{
    static uint8_t msgs[MAXC][MAXL], want[MAXC][32], got[MAXC][32];
    uint8_t *out[MAXC];
    const uint8_t *in[MAXC];
    fill(rng, msgs, count, len, mode);
    for (size_t i = 0; i < count; i++) {
        grove_sha256_ctx c = *pre;
        grove_sha256_update(&c, msgs[i], len);
        grove_sha256_final(&c, want[i], outlen);
        in[i] = msgs[i];
        out[i] = inplace ? msgs[i] + 22 : got[i];
    }
    grove_sha256_many_pub16(out, outlen, pre, in, len, count);
    for (size_t i = 0; i < count; i++)
        CHECK_MEM(out[i], want[i], outlen);
}

static void check512(uint64_t *rng, const grove_sha512_ctx *pre, size_t len, size_t outlen,
                     size_t count, int mode, int inplace)
{
    static uint8_t msgs[MAXC][MAXL], want[MAXC][64], got[MAXC][64];
    uint8_t *out[MAXC];
    const uint8_t *in[MAXC];
    fill(rng, msgs, count, len, mode);
    for (size_t i = 0; i < count; i++) {
        grove_sha512_ctx c = *pre;
        grove_sha512_update(&c, msgs[i], len);
        grove_sha512_final(&c, want[i], outlen);
        in[i] = msgs[i];
        out[i] = inplace ? msgs[i] + 22 : got[i];
    }
    grove_sha512_many_pub16(out, outlen, pre, in, len, count);
    for (size_t i = 0; i < count; i++)
        CHECK_MEM(out[i], want[i], outlen);
}

int main(void)
{
    uint64_t rng = 2026;
    static const size_t counts[] = {1, 2, 3, 7, 33, MAXC};
    uint8_t block[128];
    test_rand_bytes(&rng, block, sizeof block);
    grove_sha256_ctx p256, p256_none, p256_odd;
    grove_sha256_init(&p256);
    grove_sha256_update(&p256, block, 64);
    grove_sha256_init(&p256_none);
    grove_sha256_init(&p256_odd);
    grove_sha256_update(&p256_odd, block, 70);
    grove_sha512_ctx p512, p512_none;
    grove_sha512_init(&p512);
    grove_sha512_update(&p512, block, 128);
    grove_sha512_init(&p512_none);

    static const size_t l256[] = {38, 46, 54, 30, 55, 100};  /* the kernel's, then others */
    static const size_t o256[] = {16, 24, 32, 32, 20, 32};
    static const size_t l512[] = {70, 86, 54, 110, 118};
    static const size_t o512[] = {24, 32, 16, 64, 48};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (int mode = 0; mode < 4; mode++)
            for (int inplace = 0; inplace < 2; inplace++) {
                for (size_t l = 0; l < sizeof l256 / sizeof l256[0]; l++) {
                    check256(&rng, &p256, l256[l], o256[l], counts[c], mode, inplace);
                    check256(&rng, &p256, l256[l], 32, counts[c], mode, inplace);
                    check256(&rng, &p256, l256[l], 4, counts[c], mode, inplace);
                }
                check256(&rng, &p256_none, 38, 16, counts[c], mode, inplace);
                check256(&rng, &p256_odd, 54, 32, counts[c], mode, inplace);
                for (size_t l = 0; l < sizeof l512 / sizeof l512[0]; l++) {
                    check512(&rng, &p512, l512[l], o512[l], counts[c], mode, inplace);
                    check512(&rng, &p512, l512[l], 64, counts[c], mode, inplace);
                    check512(&rng, &p512, l512[l], 8, counts[c], mode, inplace);
                }
                check512(&rng, &p512_none, 86, 32, counts[c], mode, inplace);
            }
    printf("pub16 one-block SHA-256/SHA-512 batches checked against the context functions\n");
    return test_done();
}
