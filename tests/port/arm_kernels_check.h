/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Included by tests/test_hash.c on every target but x86-64: simd_kernels() calls the AArch64
 * kernels the CPU reports (common/cpu.h) directly and compares them with the portable code on
 * random states and messages: Keccak-f[1600] x2 (NEON, SHA-3 extension), SHAKE128/256 x2 of
 * one and two messages (block boundaries, several squeezed blocks), SHA-256 and SHA-512
 * compressions of 1..3 blocks. It prints which kernels ran ("ARM kernels checked: ...");
 * tests/port/run.sh requires all four names under qemu -cpu max and exactly neon and sha2
 * under -cpu cortex-a53. Elsewhere (s390x, i686) there is nothing to compare and it says so.
 */
#ifndef GROVE_TEST_ARM_KERNELS_CHECK_H
#define GROVE_TEST_ARM_KERNELS_CHECK_H

#if GROVE_HAVE_ARM_TARGETS
typedef void (*arm_keccak_x2_fn)(uint64_t *st);
typedef void (*arm_shake_x2_fn)(uint32_t rate, uint8_t *const out[], size_t outlen,
                                const uint8_t *const in[], size_t inlen, size_t lanes);

static void arm_check_keccak(arm_keccak_x2_fn perm, arm_shake_x2_fn shake, uint64_t *rng)
{
    for (int t = 0; t < 20; t++) {
        uint64_t st[50], r0[25], r1[25];
        test_rand_bytes(rng, (uint8_t *)st, sizeof st);
        for (int l = 0; l < 25; l++) {
            r0[l] = st[2 * l];
            r1[l] = st[2 * l + 1];
        }
        perm(st);
        grove_keccakf1600_portable(r0);
        grove_keccakf1600_portable(r1);
        for (int l = 0; l < 25; l++) {
            CHECK(st[2 * l] == r0[l]);
            CHECK(st[2 * l + 1] == r1[l]);
        }
    }
    static const size_t lens[] = {0, 1, 7, 8, 135, 136, 137, 167, 168, 169, 300, 1000};
    static const size_t outs[] = {1, 16, 33, 136, 168, 200, 500};
    uint8_t in0[1000], in1[1000], o0[500], o1[500], ref[500];
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t len = lens[li], outlen = outs[li % (sizeof outs / sizeof outs[0])];
        test_rand_bytes(rng, in0, len);
        test_rand_bytes(rng, in1, len);
        const uint8_t *ip[2] = {in0, in1};
        uint8_t *op[2] = {o0, o1};
        for (size_t lanes = 1; lanes <= 2; lanes++) {
            for (int which = 0; which < 2; which++) {
                memset(o1, 0xA5, sizeof o1);
                shake(which ? GROVE_SHAKE256_RATE : GROVE_SHAKE128_RATE, op, outlen, ip, len,
                      lanes);
                for (size_t j = 0; j < lanes; j++) {
                    if (which)
                        grove_shake256(ref, outlen, ip[j], len);
                    else
                        grove_shake128(ref, outlen, ip[j], len);
                    CHECK_MEM(op[j], ref, outlen);
                }
                if (lanes == 1) /* one lane writes only out[0] */
                    for (size_t b = 0; b < sizeof o1; b++)
                        CHECK(o1[b] == 0xA5);
            }
        }
    }
}

static void arm_check_sha2(uint32_t f, uint64_t *rng)
{
    for (int t = 0; t < 30; t++) {
        uint8_t blocks[3 * 128];
        uint32_t a[8], b[8];
        uint64_t c[8], d[8];
        size_t nb = 1 + (size_t)t % 3;
        test_rand_bytes(rng, blocks, sizeof blocks);
        test_rand_bytes(rng, (uint8_t *)a, sizeof a);
        test_rand_bytes(rng, (uint8_t *)c, sizeof c);
        memcpy(b, a, sizeof a);
        memcpy(d, c, sizeof c);
        if (f & GROVE_CPU_ARM_SHA2) {
            grove_sha256_compress_armv8(a, blocks, nb);
            grove_sha256_compress_portable(b, blocks, nb);
            CHECK_MEM(a, b, sizeof a);
        }
        if (f & GROVE_CPU_ARM_SHA512) {
            grove_sha512_compress_armv8(c, blocks, nb);
            grove_sha512_compress_portable(d, blocks, nb);
            CHECK_MEM(c, d, sizeof c);
        }
    }
}

static void simd_kernels(void)
{
    uint32_t f = grove_cpu_features_raw();
    uint64_t rng = 4242;
    printf("ARM kernels checked:");
    if (f & GROVE_CPU_NEON) {
        arm_check_keccak(grove_keccakf1600_x2_neon, grove_shake_x2_neon, &rng);
        printf(" neon");
    }
    if ((f & GROVE_CPU_NEON) && (f & GROVE_CPU_ARM_SHA3)) {
        arm_check_keccak(grove_keccakf1600_x2_neon_sha3, grove_shake_x2_neon_sha3, &rng);
        printf(" sha3");
    }
    arm_check_sha2(f, &rng);
    if (f & GROVE_CPU_ARM_SHA2)
        printf(" sha2");
    if (f & GROVE_CPU_ARM_SHA512)
        printf(" sha512");
    printf(" (cpu features %#x)\n", f);
}
#else
static void simd_kernels(void)
{
    printf("no SIMD hash kernels on this target\n");
}
#endif

#endif
