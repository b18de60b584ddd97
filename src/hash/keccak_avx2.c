/* Keccak-f[1600] on 4 states at once with AVX2 (state interleaved as st[25][4]). */
#include "common/util.h"

#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
#include <immintrin.h>

#include "hash/keccak_round.h"
#include "hash/keccak_simd.h"

#define KT __m256i
#define KXOR(a, b) _mm256_xor_si256((a), (b))
#define KXOR5(a, b, c, d, e) KXOR(KXOR(KXOR(a, b), KXOR(c, d)), (e))
#define KROL(a, n) _mm256_or_si256(_mm256_slli_epi64((a), (n)), _mm256_srli_epi64((a), 64 - (n)))
#define KCHI(a, b, c) KXOR((a), _mm256_andnot_si256((b), (c)))
#define KRC(r) _mm256_set1_epi64x((long long)grove_keccak_rc[r])

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
#endif
