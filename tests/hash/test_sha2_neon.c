/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The AArch64 NEON multi-lane SHA-2 kernels (src/hash/sha256_neon.c, sha512_neon.c), called
 * directly whatever path the dispatcher picked, against the portable code: the 4-lane SHA-256
 * and 2-lane SHA-512 block compressions on random states, the whole-message kernels for every
 * lane count, message lengths across the block and padding boundaries, prefix states, digests
 * cut at any byte (nothing written past them), scattered unaligned inputs, and the SHA-256
 * chain kernel (SPHINCS+ layouts and odd ones, captures, per-lane start positions). Skips (77)
 * on targets without the NEON kernels; tests/port/run.sh runs it under qemu-aarch64.
 */
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/util.h"
#include "hash/arm_kernels.h"
#include "hash/sha2.h"
#include "hash/sha2_simd.h"
#include "sha256_chain_ref.h"
#include "test.h"

#if GROVE_HAVE_ARM_TARGETS
static void blocks_x4_x2(uint64_t *rng)
{
    for (int t = 0; t < 40; t++) {
        uint8_t blocks[4 * 128];
        uint32_t s256[8 * 4], r256[4][8];
        uint64_t s512[8 * 2], r512[2][8];
        test_rand_bytes(rng, blocks, sizeof blocks);
        test_rand_bytes(rng, (uint8_t *)s256, sizeof s256);
        test_rand_bytes(rng, (uint8_t *)s512, sizeof s512);
        for (int j = 0; j < 4; j++) {
            for (int i = 0; i < 8; i++)
                r256[j][i] = s256[4 * i + j];
            grove_sha256_compress_portable(r256[j], blocks + 64 * j, 1);
        }
        for (int j = 0; j < 2; j++) {
            for (int i = 0; i < 8; i++)
                r512[j][i] = s512[2 * i + j];
            grove_sha512_compress_portable(r512[j], blocks + 128 * j, 1);
        }
        grove_sha256_x4_neon(s256, blocks);
        grove_sha512_x2_neon(s512, blocks);
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 8; i++)
                CHECK(s256[4 * i + j] == r256[j][i]);
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 8; i++)
                CHECK(s512[2 * i + j] == r512[j][i]);
    }
}

static void many(uint64_t *rng)
{
    enum { STRIDE = 700 };
    uint8_t *in = malloc(4 * STRIDE + 16);
    CHECK(in != NULL);
    if (in == NULL)
        return;
    test_rand_bytes(rng, in, 4 * STRIDE + 16);
    static const size_t lens[] = {0,   1,   3,   4,   7,   8,   31,  32,  47,  54,  55,  56,
                                  63,  64,  65,  100, 111, 112, 119, 127, 128, 129, 200, 239,
                                  240, 255, 256, 257, 300, 383, 384, 385, 511, 600};
    uint8_t pre[128];
    test_rand_bytes(rng, pre, sizeof pre);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t len = lens[li];
        const uint8_t *ip[4];
        uint8_t out[4][80], ref[64];
        uint8_t *op[4];
        for (size_t j = 0; j < 4; j++) {
            ip[j] = in + STRIDE * j + (j * 5) % 7; /* unaligned, scattered */
            op[j] = out[j];
        }
        for (size_t lanes = 1; lanes <= 4; lanes++) {
            int seeded = (li + lanes) % 2 == 0;
            grove_sha256_ctx p256;
            grove_sha256_init(&p256);
            if (seeded)
                grove_sha256_update(&p256, pre, 64);
            size_t ol = 17 + (len + lanes) % 16; /* digests cut at any byte */
            memset(out, 0xA5, sizeof out);
            int r = grove_sha256_many_x4_neon(op, ol, p256.s, seeded ? 64 : 0, ip, len, lanes);
            CHECK(r == (len >= 4)); /* shorter than a word: refused, the caller falls back */
            for (size_t j = 0; r && j < lanes; j++) {
                grove_sha256_ctx c = p256;
                grove_sha256_update(&c, ip[j], len);
                grove_sha256_final(&c, ref, 32);
                CHECK_MEM(out[j], ref, ol);
                CHECK(out[j][ol] == 0xA5); /* nothing written past outlen */
            }
            for (size_t j = lanes; j < 4; j++) /* lanes not asked for: untouched */
                CHECK(out[j][0] == 0xA5);
            if (lanes > 2)
                continue;
            grove_sha512_ctx p512;
            grove_sha512_init(&p512);
            if (seeded)
                grove_sha512_update(&p512, pre, 128);
            ol = 33 + (len + lanes) % 31;
            memset(out, 0xA5, sizeof out);
            r = grove_sha512_many_x2_neon(op, ol, p512.s, seeded ? 128 : 0, ip, len, lanes);
            CHECK(r == (len >= 8));
            for (size_t j = 0; r && j < lanes; j++) {
                grove_sha512_ctx c = p512;
                grove_sha512_update(&c, ip[j], len);
                grove_sha512_final(&c, ref, 64);
                CHECK_MEM(out[j], ref, ol);
                CHECK(out[j][ol] == 0xA5);
            }
            for (size_t j = lanes; j < 4; j++)
                CHECK(out[j][0] == 0xA5);
        }
    }
    free(in);
}

static void chains(uint64_t *rng)
{
    /* head, counter offset, n: the SPHINCS+ layouts (first four rounds hoisted) and odd ones */
    static const size_t lay[][3] = {{22, 18, 16}, {22, 18, 24}, {22, 18, 32}, {20, 16, 16},
                                    {17, 9, 12},  {13, 6, 20},  {30, 26, 24}};
    static const uint32_t starts[] = {0, 1, 250, 0xFFFFFF, 0x12345678};
    uint8_t pre[64];
    test_rand_bytes(rng, pre, sizeof pre);
    grove_sha256_ctx fresh, seeded;
    grove_sha256_init(&fresh);
    seeded = fresh;
    grove_sha256_update(&seeded, pre, 64);
    for (size_t li = 0; li < sizeof lay / sizeof lay[0]; li++) {
        size_t head = lay[li][0], ctr = lay[li][1], n = lay[li][2];
        for (size_t count = 1; count <= 4; count++) {
            for (int from = 0; from < 2; from++) {
                uint8_t mem[4 * 100], ref[4][100], cap[4], capout[4][32], want[4][32];
                uint8_t begin[4];
                uint8_t *lanes[4], *co[4];
                /* per-lane start positions take counters below 256 (one byte each) */
                uint32_t start = from ? 3 : starts[(li + count) % 5];
                unsigned steps = 1 + (unsigned)(test_rand_u64(rng) % 15);
                for (size_t j = 0; j < count; j++) {
                    lanes[j] = mem + 100 * j + (j * 3) % 7; /* unaligned */
                    test_rand_bytes(rng, lanes[j], head + n);
                    memcpy(ref[j], lanes[j], head + n);
                    co[j] = capout[j];
                    cap[j] = (uint8_t)(start + test_rand_u64(rng) % (steps + 2));
                    begin[j] = (uint8_t)(start + test_rand_u64(rng) % (steps + 1));
                    memset(capout[j], 0, 32);
                    memset(want[j], 0, 32);
                }
                const grove_sha256_ctx *p = count % 2 ? &fresh : &seeded;
                if (from)
                    grove_sha256_chains_x4_neon(lanes, head, n, ctr, start, steps, count, NULL,
                                                NULL, p->s, p->count, begin);
                else
                    grove_sha256_chains_x4_neon(lanes, head, n, ctr, start, steps, count, cap,
                                                co, p->s, p->count, NULL);
                for (size_t j = 0; j < count; j++) {
                    uint32_t b = from ? begin[j] : start;
                    test_sha256_chain_ref(ref[j], head, n, ctr, b, start, steps, from ? 0 : cap[j],
                              want[j], p);
                    CHECK_MEM(lanes[j], ref[j], head + n); /* value and last counter */
                    if (!from)
                        CHECK_MEM(capout[j], want[j], 32);
                }
            }
        }
    }
}
#endif

int main(void)
{
#if GROVE_HAVE_ARM_TARGETS
    uint64_t rng = 2121;
    if (!(grove_cpu_features_raw() & GROVE_CPU_NEON)) {
        printf("no Advanced SIMD: nothing to check\n");
        return 77;
    }
    blocks_x4_x2(&rng);
    many(&rng);
    chains(&rng);
    printf("NEON SHA-2 kernels checked: sha256 x4 (blocks, messages, chains), sha512 x2\n");
    return test_done();
#else
    printf("no NEON SHA-2 kernels on this target\n");
    return 77;
#endif
}
