/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Keccak-f[1600] on 4 states at once with AVX2 (state interleaved as st[25][4]). */
#include "common/util.h"

#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
#include <immintrin.h>

#include "hash/keccak_round.h"
#include "hash/keccak_simd.h"

#define KT __m256i
#define KXOR(a, b) _mm256_xor_si256((a), (b))
#define KXOR5(a, b, c, d, e) KXOR(KXOR(KXOR(a, b), KXOR(c, d)), (e))
/* rotations by whole bytes (8 and 56, in rho) are one byte shuffle instead of three operations */
#define KROL8_ _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2, \
                                3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14)
#define KROL56_ _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, \
                                 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8)
#define KROL(a, n)                                                                               \
    ((n) == 8    ? _mm256_shuffle_epi8((a), KROL8_)                                             \
     : (n) == 56 ? _mm256_shuffle_epi8((a), KROL56_)                                            \
                 : _mm256_or_si256(_mm256_slli_epi64((a), (n)), _mm256_srli_epi64((a), 64 - (n))))
#define KCHI(a, b, c) KXOR((a), _mm256_andnot_si256((b), (c)))
#define KRC(r) _mm256_set1_epi64x((long long)grove_keccak_rc[r])
#define KZERO() _mm256_setzero_si256()
#define KSET1(x) _mm256_set1_epi64x((long long)(x))
#define KADD64(a, b) _mm256_add_epi64((a), (b))
#define KGATHER(addr) _mm256_i64gather_epi64((const long long *)0, (addr), 1)
#define KLOAD(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define KLOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define KSTOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))

__attribute__((target("avx2"))) void grove_keccakf1600_x4_avx2(uint64_t *st)
{
    KECCAK_DECLARE_LANES(A);
    KECCAK_DECLARE_LANES(E);
#define LOAD_LANE(v, i) v = _mm256_loadu_si256((const __m256i *)(void *)(st + 4 * (i)))
#define STORE_LANE(v, i) _mm256_storeu_si256((__m256i *)(void *)(st + 4 * (i)), v)
    KECCAK_FOR_LANES(A, LOAD_LANE);
    KECCAK_PERMUTE(A, E);
    KECCAK_FOR_LANES(A, STORE_LANE);
}

/* The permutation on a state kept as an array of vectors (see keccak_simd.h). */
__attribute__((target("avx2"))) static inline void permute_vec(KT *S)
{
    GROVE_KECCAK_PERMUTE_VEC(S);
}

/* The same with only lanes 0-4 of the result (see keccak_simd.h). */
__attribute__((target("avx2"))) static inline void permute_vec_row0(KT *S)
{
    GROVE_KECCAK_PERMUTE_VEC_ROW0(S);
}

/* SHAKE of up to 4 equal-length messages, gathered straight from them (see keccak_simd.h). */
__attribute__((target("avx2"))) void grove_shake_x4_avx2(uint32_t rate, uint8_t *const out[],
                                                         size_t outlen,
                                                         const uint8_t *const in[], size_t inlen,
                                                         size_t lanes)
{
    GROVE_KECCAK_SHAKE_XN(4, permute_vec, permute_vec_row0, rate, out, outlen, in, inlen, lanes);
}

/* The fused chain kernel (keccak_chains.h): grove_shake256_chains_x4_avx2 */
#define KECCAK_TARGET __attribute__((target("avx2")))
#define KECCAK_W 4
#define KAND(a, b) _mm256_and_si256((a), (b))
#define KOR(a, b) _mm256_or_si256((a), (b))
#define KLOADA(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define KSTOREA(p, v) _mm256_store_si256((__m256i *)(void *)(p), (v))
#define KMASK __m256i
#define KGE(a, b) _mm256_cmpgt_epi64(_mm256_add_epi64((a), _mm256_set1_epi64x(1)), (b))
#define KSELECT(m, a, b) _mm256_blendv_epi8((b), (a), (m))
#define KECCAK_CHAINS_NAME grove_shake256_chains_x4_avx2
#include "hash/keccak_chains.h"
#endif
