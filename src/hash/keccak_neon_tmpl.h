/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Template (no include guard) of the AArch64 2-state Keccak kernels: Keccak-f[1600] on two
 * interleaved states (st[25][2]), SHAKE of up to two messages and the fused SHAKE256 chains,
 * built from keccak_round.h with one 128-bit vector per lane pair. The includer defines
 * KXOR5, KROL, KCHI (plain NEON, or the SHA-3 extension's EOR3/BCAX) and KNAME(x), the
 * kernel name for suffix x, and may define KECCAK_ROUND_OVERRIDE, a round to use instead of
 * keccak_round.h's (same arguments). Little-endian only (GROVE_HAVE_ARM_TARGETS).
 */
#include <arm_neon.h>
#include <string.h>

#include "hash/keccak_round.h"
#ifdef KECCAK_ROUND_OVERRIDE /* the SHA-3 extension's round (keccak_neon_sha3.c) */
#undef KECCAK_ROUND
#define KECCAK_ROUND KECCAK_ROUND_OVERRIDE
#endif
#include "hash/keccak_simd.h"
#include "hash/arm_kernels.h"

#define KT uint64x2_t
#define KXOR(a, b) veorq_u64((a), (b))
#define KRC(r) vdupq_n_u64(grove_keccak_rc[r])
#define KZERO() vdupq_n_u64(0)
#define KSET1(x) vdupq_n_u64((uint64_t)(x))
#define KADD64(a, b) vaddq_u64((a), (b))
#define KLOAD(p) vld1q_u64((const uint64_t *)(const void *)(p))
#define KLOADU(p) vreinterpretq_u64_u8(vld1q_u8((const uint8_t *)(const void *)(p)))
#define KSTOREU(p, v) vst1q_u8((uint8_t *)(void *)(p), vreinterpretq_u8_u64(v))

/* The 64-bit little-endian words at the two byte addresses held in addr (unaligned). */
static inline uint64x2_t kgather2(uint64x2_t addr)
{
    uint64_t w[2];
    memcpy(&w[0], (const void *)(uintptr_t)vgetq_lane_u64(addr, 0), 8);
    memcpy(&w[1], (const void *)(uintptr_t)vgetq_lane_u64(addr, 1), 8);
    return vld1q_u64(w);
}
#define KGATHER(addr) kgather2(addr)

void KNAME(keccakf1600_x2)(uint64_t *st)
{
    KECCAK_DECLARE_LANES(A);
    KECCAK_DECLARE_LANES(E);
#define LOAD_LANE(v, i) v = vld1q_u64(st + 2 * (i))
#define STORE_LANE(v, i) vst1q_u64(st + 2 * (i), v)
    KECCAK_FOR_LANES(A, LOAD_LANE);
    KECCAK_PERMUTE(A, E);
    KECCAK_FOR_LANES(A, STORE_LANE);
#undef LOAD_LANE
#undef STORE_LANE
}

/* The permutation on a state kept as an array of vectors (see keccak_simd.h). */
static inline void permute_vec(KT *S)
{
    GROVE_KECCAK_PERMUTE_VEC(S);
}

/* The same with only lanes 0-4 of the result (see keccak_simd.h). */
static inline void permute_vec_row0(KT *S)
{
    GROVE_KECCAK_PERMUTE_VEC_ROW0(S);
}

void KNAME(shake_x2)(uint32_t rate, uint8_t *const out[], size_t outlen,
                     const uint8_t *const in[], size_t inlen, size_t lanes)
{
    GROVE_KECCAK_SHAKE_XN(2, permute_vec, permute_vec_row0, rate, out, outlen, in, inlen, lanes);
}

/* The fused chain kernel (keccak_chains.h). */
#define KECCAK_TARGET
#define KECCAK_W 2
#define KAND(a, b) vandq_u64((a), (b))
#define KOR(a, b) vorrq_u64((a), (b))
#define KLOADA(p) vld1q_u64((const uint64_t *)(const void *)(p))
#define KSTOREA(p, v) vst1q_u64((uint64_t *)(void *)(p), (v))
#define KMASK uint64x2_t
#define KGE(a, b) vcgeq_s64(vreinterpretq_s64_u64(a), vreinterpretq_s64_u64(b))
#define KSELECT(m, a, b) vbslq_u64((m), (a), (b))
#define KECCAK_CHAINS_NAME KNAME(shake256_chains_x2)
#include "hash/keccak_chains.h"
