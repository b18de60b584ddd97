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
#endif
