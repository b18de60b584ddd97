/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Keccak-f[1600] on 8 states at once with AVX-512 (state interleaved as st[25][8]): native
 * 64-bit rotates and three-input logic (vpternlogq) for theta and chi.
 */
#include "common/util.h"

#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
#include <immintrin.h>

#include "hash/keccak_round.h"
#include "hash/keccak_simd.h"

#define KT __m512i
#define KXOR(a, b) _mm512_xor_si512((a), (b))
/* 0x96: a ^ b ^ c */
#define KXOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define KXOR5(a, b, c, d, e) KXOR3(KXOR3(a, b, c), (d), (e))
#define KROL(a, n) _mm512_rol_epi64((a), (n))
/* 0xD2: a ^ (~b & c) */
#define KCHI(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0xD2)
#define KRC(r) _mm512_set1_epi64((long long)grove_keccak_rc[r])
#define KZERO() _mm512_setzero_si512()
#define KSET1(x) _mm512_set1_epi64((long long)(x))
#define KADD64(a, b) _mm512_add_epi64((a), (b))
#define KGATHER(addr) _mm512_i64gather_epi64((addr), NULL, 1)
#define KLOAD(p) _mm512_load_si512((const void *)(p))
#define KLOADU(p) _mm512_loadu_si512((const void *)(p))
#define KSTOREU(p, v) _mm512_storeu_si512((void *)(p), (v))

__attribute__((target("avx512f,avx512vl"))) void grove_keccakf1600_x8_avx512(uint64_t *st)
{
    KECCAK_DECLARE_LANES(A);
    KECCAK_DECLARE_LANES(E);
#define LOAD_LANE(v, i) v = _mm512_loadu_si512((const void *)(st + 8 * (i)))
#define STORE_LANE(v, i) _mm512_storeu_si512((void *)(st + 8 * (i)), v)
    KECCAK_FOR_LANES(A, LOAD_LANE);
    KECCAK_PERMUTE(A, E);
    KECCAK_FOR_LANES(A, STORE_LANE);
}

/* The permutation on a state kept as an array of vectors (see keccak_simd.h). */
__attribute__((target("avx512f,avx512vl"))) static inline void permute_vec(KT *S)
{
    GROVE_KECCAK_PERMUTE_VEC(S);
}

/* The same with only lanes 0-4 of the result (see keccak_simd.h). */
__attribute__((target("avx512f,avx512vl"))) static inline void permute_vec_row0(KT *S)
{
    GROVE_KECCAK_PERMUTE_VEC_ROW0(S);
}

/* SHAKE of up to 8 equal-length messages, gathered straight from them (see keccak_simd.h). */
__attribute__((target("avx512f,avx512vl"))) void grove_shake_x8_avx512(uint32_t rate, uint8_t *const out[],
                                                         size_t outlen,
                                                         const uint8_t *const in[], size_t inlen,
                                                         size_t lanes)
{
    GROVE_KECCAK_SHAKE_XN(8, permute_vec, permute_vec_row0, rate, out, outlen, in, inlen, lanes);
}

/* The fused chain kernel (keccak_chains.h): grove_shake256_chains_x8_avx512 */
#define KECCAK_TARGET __attribute__((target("avx512f,avx512vl")))
#define KECCAK_W 8
#define KAND(a, b) _mm512_and_si512((a), (b))
#define KOR(a, b) _mm512_or_si512((a), (b))
#define KLOADA(p) _mm512_load_si512((const void *)(p))
#define KSTOREA(p, v) _mm512_store_si512((void *)(p), (v))
#define KMASK __mmask8
#define KGE(a, b) _mm512_cmpge_epi64_mask((a), (b))
#define KSELECT(m, a, b) _mm512_mask_blend_epi64((m), (b), (a))
#define KECCAK_CHAINS_NAME grove_shake256_chains_x8_avx512
#include "hash/keccak_chains.h"
#endif
