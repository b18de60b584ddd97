/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * SHA-256 on four independent blocks / messages / hash chains at once with AArch64 NEON (one
 * message per 32-bit lane of a 128-bit vector; Advanced SIMD only, every ARMv8-A core). For
 * CPUs without the SHA-2 instructions (dispatch.c; GROVE_CPU=neon forces it). The rounds and
 * the fused kernels are the shared multi-lane code (sha2_simd.h, sha2_fused.h); this file gives
 * them the NEON operations. Rotations are a shift and a shift-right-insert (SRI); Ch and Maj
 * are one bitwise select (BSL) each.
 */
#include "common/util.h"

#if GROVE_HAVE_ARM_TARGETS
#include <arm_neon.h>
#include <stddef.h>
#include <string.h>

#include "hash/arm_kernels.h"
#include "hash/sha2_k.h"
#include "hash/sha2_simd.h"

/* The round constants, each in all four lanes: one vector load per round. */
#define K4(k) {k, k, k, k},
static const uint32_t k256x4[64][4] __attribute__((aligned(16))) = {GROVE_SHA256_K_LIST(K4)};

#define V uint32x4_t
#define ADD(a, b) vaddq_u32((a), (b))
#define XOR(a, b) veorq_u32((a), (b))
#define ROR(x, n) vsriq_n_u32(vshlq_n_u32((x), 32 - (n)), (x), (n))
#define SHR(x, n) vshrq_n_u32((x), (n))
#define BSIG0(x) XOR(XOR(ROR(x, 2), ROR(x, 13)), ROR(x, 22))
#define BSIG1(x) XOR(XOR(ROR(x, 6), ROR(x, 11)), ROR(x, 25))
#define SSIG0(x) XOR(XOR(ROR(x, 7), ROR(x, 18)), SHR(x, 3))
#define SSIG1(x) XOR(XOR(ROR(x, 17), ROR(x, 19)), SHR(x, 10))
/* Ch: f where e is set, else g. Maj: where a and b differ c decides, else b (= a). */
#define CH(e, f, g) vbslq_u32((e), (f), (g))
/* (bc = b ^ c, which the shared rounds keep for a XOR-AND Maj, is not needed here: the
 * compiler drops it) */
#define MAJ(a, b, c, ab, bc) ((void)(bc), vbslq_u32((ab), (c), (b)))
#define KSPLAT(i) vld1q_u32(k256x4[i])

/* Four big-endian 32-bit words of each of four rows: r[j] (row j) becomes word t of every row
 * in r[t] (a 4x4 transpose). */
static inline void transpose4(V r[4])
{
    V t0 = vtrn1q_u32(r[0], r[1]), t1 = vtrn2q_u32(r[0], r[1]);
    V t2 = vtrn1q_u32(r[2], r[3]), t3 = vtrn2q_u32(r[2], r[3]);
    r[0] = vreinterpretq_u32_u64(
        vtrn1q_u64(vreinterpretq_u64_u32(t0), vreinterpretq_u64_u32(t2)));
    r[1] = vreinterpretq_u32_u64(
        vtrn1q_u64(vreinterpretq_u64_u32(t1), vreinterpretq_u64_u32(t3)));
    r[2] = vreinterpretq_u32_u64(
        vtrn2q_u64(vreinterpretq_u64_u32(t0), vreinterpretq_u64_u32(t2)));
    r[3] = vreinterpretq_u32_u64(
        vtrn2q_u64(vreinterpretq_u64_u32(t1), vreinterpretq_u64_u32(t3)));
}

/* One block per lane: st[8][4] (word t of lane j at st[4 t + j]), blocks[4][64]. */
void grove_sha256_x4_neon(uint32_t *st, const uint8_t *blocks)
{
    V w[16], s[8];
    for (int g = 0; g < 4; g++) { /* words 4 g .. 4 g + 3 */
        V r[4];
        for (int j = 0; j < 4; j++)
            r[j] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(blocks + 64 * j + 16 * g)));
        transpose4(r);
        for (int t = 0; t < 4; t++)
            w[4 * g + t] = r[t];
    }
    for (int i = 0; i < 8; i++)
        s[i] = vld1q_u32(st + 4 * i);
    GROVE_SHA2_ROUNDS(s, w, 64, 16);
    for (int i = 0; i < 8; i++)
        vst1q_u32(st + 4 * i, s[i]);
}

/* The word at p, in native byte order, through a register (message words may be secret: no
 * copy of them is left in a stack array). */
static inline uint32_t load32_ne(const uint8_t *p)
{
    uint32_t x;
    memcpy(&x, p, 4);
    return x;
}

/* The big-endian words at base + off[j] + pos of the four lanes (no gather instruction: four
 * scalar loads into the lanes, then one byte reversal). */
static inline V gather4_be(const uint8_t *base, const int32_t *off, size_t pos)
{
    const uint8_t *p = base + pos;
    V v = vdupq_n_u32(load32_ne(p + off[0]));
    v = vsetq_lane_u32(load32_ne(p + off[1]), v, 1);
    v = vsetq_lane_u32(load32_ne(p + off[2]), v, 2);
    v = vsetq_lane_u32(load32_ne(p + off[3]), v, 3);
    return vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(v)));
}

/* Shifts by a count known only at run time: USHL with a negative count shifts right. */
#define VSHL_VAR(a, n) vshlq_u32((a), vdupq_n_s32((int32_t)(n)))
#define VSHR_VAR(a, n) vshlq_u32((a), vdupq_n_s32(-(int32_t)(n)))

/* The fused kernels (sha2_fused.h): grove_sha256_many_x4_neon, grove_sha256_chains_x4_neon */
#define SHA2_TARGET
#define SHA2_W 4
#define SHA2_WB 4
#define SHA2_WORD uint32_t
#define SHA2_NR 64
/* The whole message schedule first, in a pass of its own (see GROVE_SHA2_ROUNDS_RANGE): the
 * chain kernel keeps its template, values and start states live (40 vectors, more than the 32
 * registers) and the ring form spills more. qemu instruction counts (docs/platforms.md; gathers
 * then through a stack array): chains 53.7k instead of 69.7k per 4 lanes x 15 steps, whole
 * messages 4.67k instead of 4.36k. */
#define SHA2_WN 64
#define VSET1(x) vdupq_n_u32((uint32_t)(x))
#define VZERO() vdupq_n_u32(0)
#define VOR(a, b) vorrq_u32((a), (b))
#define VSLL(a, n) VSHL_VAR((a), (n))
#define VSRL(a, n) VSHR_VAR((a), (n))
#define VLOADA(p) vld1q_u32((const uint32_t *)(const void *)(p))
#define VSTOREA(p, v) vst1q_u32((uint32_t *)(void *)(p), (v))
typedef const int32_t *neon_offsets; /* the 32-bit offsets of the lanes */
#define OFFT neon_offsets
#define OFFLOAD(p) (p)
#define VGATHER(base, off, pos) gather4_be((base), (off), (pos))
#define VMASK uint32x4_t
#define VGE(a, b) vcgeq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b))
#define VSELECT(m, a, b) vbslq_u32((m), (a), (b))
#define SHA2_FUSED_NAME grove_sha256_many_x4_neon
#define SHA2_CHAINS_NAME grove_sha256_chains_x4_neon
#include "hash/sha2_fused.h"
#endif
