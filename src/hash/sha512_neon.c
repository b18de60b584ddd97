/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SHA-512 on two independent blocks / messages at once with AArch64 NEON (one message per 64-bit
 * lane of a 128-bit vector; Advanced SIMD only, every ARMv8-A core). For CPUs without the
 * SHA-512 instructions (dispatch.c). The rounds and the fused kernel are the shared multi-lane
 * code (sha2_simd.h, sha2_fused.h); this file gives them the NEON operations.
 */
#include "common/util.h"

#if GROVE_HAVE_ARM_TARGETS
#include <arm_neon.h>
#include <stddef.h>
#include <string.h>

#include "hash/arm_kernels.h"
#include "hash/sha2_k.h"
#include "hash/sha2_simd.h"

/* The round constants, each in both lanes: one vector load per round. */
#define K2(k) {k, k},
static const uint64_t k512x2[80][2] __attribute__((aligned(16))) = {GROVE_SHA512_K_LIST(K2)};

/* Rotation of each 64-bit lane right by one byte: a table lookup (one instruction). */
static const uint8_t ror8_idx[16] __attribute__((aligned(16))) = {1, 2,  3,  4,  5,  6,  7,  0,
                                                                  9, 10, 11, 12, 13, 14, 15, 8};

#define V uint64x2_t
#define ADD(a, b) vaddq_u64((a), (b))
#define XOR(a, b) veorq_u64((a), (b))
#define ROR(x, n)                                                                              \
    ((n) == 8 ? vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(x), vld1q_u8(ror8_idx))) \
              : vsriq_n_u64(vshlq_n_u64((x), 64 - (n)), (x), (n)))
#define BSIG0(x) XOR(XOR(ROR(x, 28), ROR(x, 34)), ROR(x, 39))
#define BSIG1(x) XOR(XOR(ROR(x, 14), ROR(x, 18)), ROR(x, 41))
#define SSIG0(x) XOR(XOR(ROR(x, 1), ROR(x, 8)), vshrq_n_u64((x), 7))
#define SSIG1(x) XOR(XOR(ROR(x, 19), ROR(x, 61)), vshrq_n_u64((x), 6))
#define CH(e, f, g) vbslq_u64((e), (f), (g))
/* (bc = b ^ c, which the shared rounds keep for a XOR-AND Maj, is not needed here: the
 * compiler drops it) */
#define MAJ(a, b, c, ab, bc) ((void)(bc), vbslq_u64((ab), (c), (b)))
#define KSPLAT(i) vld1q_u64(k512x2[i])

/* One block per lane: st[8][2] (word t of lane j at st[2 t + j]), blocks[2][128]. */
void grove_sha512_x2_neon(uint64_t *st, const uint8_t *blocks)
{
    V w[16], s[8];
    for (int g = 0; g < 8; g++) { /* words 2 g, 2 g + 1 of both lanes: a 2x2 transpose */
        V r0 = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(blocks + 16 * g)));
        V r1 = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(blocks + 128 + 16 * g)));
        w[2 * g] = vtrn1q_u64(r0, r1);
        w[2 * g + 1] = vtrn2q_u64(r0, r1);
    }
    for (int i = 0; i < 8; i++)
        s[i] = vld1q_u64(st + 2 * i);
    GROVE_SHA2_ROUNDS(s, w, 80, 16);
    for (int i = 0; i < 8; i++)
        vst1q_u64(st + 2 * i, s[i]);
}

/* The 64-bit word at p, in native byte order, through a register (no stack copy). */
static inline uint64_t load64_ne(const uint8_t *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

/* The big-endian 64-bit words at base + off[j] + pos of the two lanes. */
static inline V gather2_be(const uint8_t *base, const int32_t *off, size_t pos)
{
    const uint8_t *p = base + pos;
    V v = vdupq_n_u64(load64_ne(p + off[0]));
    v = vsetq_lane_u64(load64_ne(p + off[1]), v, 1);
    return vreinterpretq_u64_u8(vrev64q_u8(vreinterpretq_u8_u64(v)));
}

/* The fused kernel (sha2_fused.h): grove_sha512_many_x2_neon */
#define SHA2_TARGET
#define SHA2_W 2
#define SHA2_WB 8
#define SHA2_WORD uint64_t
#define SHA2_NR 80
#define SHA2_WN 16 /* 32 vector registers: the message schedule as a ring */
#define VSET1(x) vdupq_n_u64((uint64_t)(x))
#define VZERO() vdupq_n_u64(0)
#define VOR(a, b) vorrq_u64((a), (b))
/* shifts by a count known only at run time: USHL with a negative count shifts right */
#define VSLL(a, n) vshlq_u64((a), vdupq_n_s64((int64_t)(n)))
#define VSRL(a, n) vshlq_u64((a), vdupq_n_s64(-(int64_t)(n)))
#define VLOADA(p) vld1q_u64((const uint64_t *)(const void *)(p))
#define VSTOREA(p, v) vst1q_u64((uint64_t *)(void *)(p), (v))
typedef const int32_t *neon_offsets; /* the 32-bit offsets of the lanes */
#define OFFT neon_offsets
#define OFFLOAD(p) (p)
#define VGATHER(base, off, pos) gather2_be((base), (off), (pos))
#define SHA2_FUSED_NAME grove_sha512_many_x2_neon
#include "hash/sha2_fused.h"
#endif
