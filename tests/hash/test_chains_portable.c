/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The portable C chain kernels. SHA-256 (src/hash/sha256_chain_portable.h: in the SPHINCS+
 * layout, rounds 0..4 and the schedule terms of the fixed words once per chain, the padding
 * words folded), called directly in its plain and its BMI build whatever path the dispatcher
 * picked, against chains hashed step by step with whole SHA-256 calls: the three SPHINCS+
 * layouts (n = 16, 24, 32 after a 64-byte prefix) and odd ones (other heads, counters, no
 * prefix: the byte-wise fallback), random values and ADRS, counters near 2^16 and beyond,
 * captures, per-lane start positions (also together with captures), many lanes per call.
 * SHAKE256 (grove_shake256_chains_portable, keccak.c: the permutation inlined per n) in the
 * three SPHINCS+ layouts against step-by-step grove_shake256 calls, the same cases.
 */
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/util.h"
#include "hash/keccak.h"
#include "hash/sha2.h"
#include "sha256_chain_ref.h"
#include "test.h"

typedef void chain_fn(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                      uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                      uint8_t *const capout[], const uint32_t init[8], uint64_t pcount,
                      const uint8_t *begin);

#define MAXL 70

static void chains(uint64_t *rng, chain_fn *fn)
{
    /* head, counter offset, n: the SPHINCS+ layouts first (fast path), then odd ones */
    static const size_t lay[][3] = {{22, 18, 16}, {22, 18, 24}, {22, 18, 32}, {20, 16, 16},
                                    {17, 9, 12},  {13, 6, 20},  {30, 26, 24}, {22, 18, 12}};
    static const uint32_t starts[] = {0, 1, 240, 65530, 0xFFFFFF, 0x12345678};
    static const size_t counts[] = {1, 2, 3, 5, 64, MAXL};
    uint8_t pre[128];
    test_rand_bytes(rng, pre, sizeof pre);
    grove_sha256_ctx ctxs[3];
    grove_sha256_init(&ctxs[0]);
    ctxs[1] = ctxs[0];
    grove_sha256_update(&ctxs[1], pre, 64); /* the SPHINCS+ PK.seed block */
    ctxs[2] = ctxs[0];
    grove_sha256_update(&ctxs[2], pre, 128);
    static uint8_t mem[MAXL * 100], ref[MAXL][100];
    for (size_t li = 0; li < sizeof lay / sizeof lay[0]; li++) {
        const size_t head = lay[li][0], ctr = lay[li][1], n = lay[li][2];
        for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
            const size_t count = counts[ci];
            for (int mode = 0; mode < 3; mode++) { /* captures, start positions, both */
                uint8_t cap[MAXL], capout[MAXL][32], want[MAXL][32], begin[MAXL];
                uint8_t *lanes[MAXL], *co[MAXL];
                const int use_cap = mode != 1, use_begin = mode != 0;
                uint32_t start = use_begin ? (uint32_t)(test_rand_u64(rng) % 200)
                                           : starts[(li + ci) % 6];
                unsigned steps = (unsigned)(test_rand_u64(rng) % 16);
                for (size_t j = 0; j < count; j++) {
                    lanes[j] = mem + 100 * j + (j * 3) % 7; /* unaligned */
                    test_rand_bytes(rng, lanes[j], head + n);
                    memcpy(ref[j], lanes[j], head + n);
                    co[j] = capout[j];
                    cap[j] = (uint8_t)(start + test_rand_u64(rng) % (steps + 2));
                    begin[j] = (uint8_t)(start + test_rand_u64(rng) % (steps + 2));
                    memset(capout[j], 0, 32);
                    memset(want[j], 0, 32);
                }
                /* SPHINCS+ layouts mostly after the 64-byte prefix */
                const grove_sha256_ctx *p = &ctxs[li < 3 ? (ci % 3 == 2 ? 2 : 1) : ci % 3];
                fn(lanes, head, n, ctr, start, steps, count, use_cap ? cap : NULL,
                   use_cap ? co : NULL, p->s, p->count, use_begin ? begin : NULL);
                for (size_t j = 0; j < count; j++) {
                    uint32_t b = use_begin ? begin[j] : start;
                    /* cap and begin are one byte: compare as the kernel reads them */
                    test_sha256_chain_ref(ref[j], head, n, ctr, b, start, steps,
                                          use_cap ? cap[j] : 0xFFFFFFFFu, want[j], p);
                    CHECK_MEM(lanes[j], ref[j], head + n); /* value and last counter */
                    if (use_cap)
                        CHECK_MEM(capout[j], want[j], 32);
                }
            }
        }
    }
}

/* A broken fold must show: one flipped bit of the ADRS, the value or the counter changes the
 * chain's end, and the kernel agrees with the plain compression on a SPHINCS+ block. */
static void sensitivity(uint64_t *rng, chain_fn *fn)
{
    uint8_t pre[64], base[54], lane[54], out0[32];
    test_rand_bytes(rng, pre, sizeof pre);
    grove_sha256_ctx p;
    grove_sha256_init(&p);
    grove_sha256_update(&p, pre, 64);
    test_rand_bytes(rng, base, sizeof base);
    uint8_t *l[1] = {lane};
    memcpy(lane, base, 38);
    fn(l, 22, 16, 18, 0, 1, 1, NULL, NULL, p.s, 64, NULL);
    memcpy(out0, lane + 22, 16);
    /* the same step through the plain compression */
    uint8_t blk[64] = {0};
    uint32_t s[8];
    memcpy(blk, base, 38);
    grove_store32_be(blk + 18, 0);
    blk[38] = 0x80;
    grove_store64_be(blk + 56, (64 + 38) * 8);
    memcpy(s, p.s, sizeof s);
    grove_sha256_compress_portable(s, blk, 1);
    for (int k = 0; k < 4; k++)
        grove_store32_be(blk + 4 * k, s[k]);
    CHECK_MEM(out0, blk, 16);
    for (size_t bit = 0; bit < 8 * 38; bit += 5) {
        if (bit / 8 >= 18 && bit / 8 < 22)
            continue; /* the counter's bytes are the kernel's, not the lane's */
        memcpy(lane, base, 38);
        lane[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        fn(l, 22, 16, 18, 0, 1, 1, NULL, NULL, p.s, 64, NULL);
        CHECK(memcmp(lane + 22, out0, 16) != 0);
    }
    memcpy(lane, base, 38);
    fn(l, 22, 16, 18, 1, 1, 1, NULL, NULL, p.s, 64, NULL); /* counter 1 instead of 0 */
    CHECK(memcmp(lane + 22, out0, 16) != 0);
}

typedef void shake_chain_fn(uint8_t *const lanes[], size_t n, uint32_t start, unsigned steps,
                            size_t count, const uint8_t *cap, uint8_t *const capout[],
                            const uint8_t *begin);

static void shake_ref(uint8_t *buf, size_t n, uint32_t from, uint32_t start, unsigned steps,
                      uint32_t cap, uint8_t *want_cap)
{
    const size_t head = n + 32, ctr = n + 28;
    for (uint32_t pos = start; pos <= start + steps; pos++) {
        if (cap == pos)
            memcpy(want_cap, buf + head, n);
        if (pos == start + steps || pos < from)
            continue;
        grove_store32_be(buf + ctr, pos);
        uint8_t o[32];
        grove_shake256(o, n, buf, head + n);
        memcpy(buf + head, o, n);
    }
}

static void shake_chains(uint64_t *rng, shake_chain_fn *fn)
{
    static const uint32_t starts[] = {0, 1, 240, 65530, 0xFFFFFF, 0x12345678};
    static const size_t counts[] = {1, 2, 3, 9};
    uint8_t mem[9 * 120], ref[9][120];
    for (size_t n = 16; n <= 32; n += 8) {
        for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
            const size_t count = counts[ci], head = n + 32;
            for (int mode = 0; mode < 3; mode++) { /* captures, start positions, both */
                uint8_t cap[9], capout[9][32], want[9][32], begin[9];
                uint8_t *lanes[9], *co[9];
                const int use_cap = mode != 1, use_begin = mode != 0;
                uint32_t start = use_begin ? (uint32_t)(test_rand_u64(rng) % 200)
                                           : starts[(n / 8 + ci) % 6];
                unsigned steps = (unsigned)(test_rand_u64(rng) % 16);
                for (size_t j = 0; j < count; j++) {
                    lanes[j] = mem + 120 * j + (j * 5) % 7;
                    test_rand_bytes(rng, lanes[j], head + n);
                    memcpy(ref[j], lanes[j], head + n);
                    co[j] = capout[j];
                    cap[j] = (uint8_t)(start + test_rand_u64(rng) % (steps + 2));
                    begin[j] = (uint8_t)(start + test_rand_u64(rng) % (steps + 2));
                    memset(capout[j], 0, 32);
                    memset(want[j], 0, 32);
                }
                fn(lanes, n, start, steps, count, use_cap ? cap : NULL, use_cap ? co : NULL,
                   use_begin ? begin : NULL);
                for (size_t j = 0; j < count; j++) {
                    shake_ref(ref[j], n, use_begin ? begin[j] : start, start, steps,
                              use_cap ? cap[j] : 0xFFFFFFFFu, want[j]);
                    CHECK_MEM(lanes[j], ref[j], head + n);
                    if (use_cap)
                        CHECK_MEM(capout[j], want[j], 32);
                }
            }
        }
    }
}

int main(void)
{
    uint64_t rng = 1919;
    chains(&rng, grove_sha256_chains_portable);
    sensitivity(&rng, grove_sha256_chains_portable);
    shake_chains(&rng, grove_shake256_chains_portable);
#if GROVE_HAVE_X86_TARGETS
    const uint32_t bmi = GROVE_CPU_BMI1 | GROVE_CPU_BMI2;
    if ((grove_cpu_features_raw() & bmi) == bmi) {
        chains(&rng, grove_sha256_chains_bmi);
        sensitivity(&rng, grove_sha256_chains_bmi);
        shake_chains(&rng, grove_shake256_chains_bmi);
        printf("portable SHA-256 and SHAKE256 chain kernels checked (plain and BMI builds)\n");
        return test_done();
    }
#endif
    printf("portable SHA-256 and SHAKE256 chain kernels checked (plain build)\n");
    return test_done();
}
