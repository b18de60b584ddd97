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

/* The permutation on a state kept as an array of vectors (the sponge below XORs whole vectors
 * into it, so no scalar store is ever reloaded as a vector). */
__attribute__((target("avx2"))) static inline void permute_vec(KT *S)
{
    KECCAK_DECLARE_LANES(A);
    KECCAK_DECLARE_LANES(E);
#define VLOAD(v, i) v = S[i]
#define VSTORE(v, i) S[i] = v
    KECCAK_FOR_LANES(A, VLOAD);
    KECCAK_PERMUTE(A, E);
    KECCAK_FOR_LANES(A, VSTORE);
#undef VLOAD
#undef VSTORE
}

/*
 * SHAKE (any rate, domain byte 0x1F) of up to 4 equal-length messages: whole input words
 * are gathered straight from the 4 messages, the state never leaves vector form, and
 * outputs are written lane by lane at the end of each squeezed block.
 */
__attribute__((target("avx2"))) void grove_shake_x4_avx2(uint32_t rate, uint8_t *const out[],
                                                         size_t outlen,
                                                         const uint8_t *const in[], size_t inlen,
                                                         size_t lanes)
{
    KT A[25];
    uint64_t ptr[4] __attribute__((aligned(64)));
    uint64_t tmp[4] __attribute__((aligned(64)));
    const size_t rw = rate / 8;
    for (int i = 0; i < 25; i++)
        A[i] = _mm256_setzero_si256();
    for (size_t j = 0; j < 4; j++)
        ptr[j] = (uint64_t)(uintptr_t)in[j < lanes ? j : 0];
    const uint64_t *p = ptr;
    const KT base = _mm256_loadu_si256((const __m256i *)(const void *)p);
    size_t off = 0;
    for (; inlen - off >= rate; off += rate) {
        for (size_t l = 0; l < rw; l++) {
            KT addr = _mm256_add_epi64(base, _mm256_set1_epi64x((long long)(off + 8 * l)));
            A[l] = _mm256_xor_si256(A[l], _mm256_i64gather_epi64((const long long *)0, addr, 1));
        }
        permute_vec(A);
    }
    /* the last, partial block: whole words, then a partial word, then the padding */
    size_t rem = inlen - off, l = 0;
    for (; 8 * l + 8 <= rem; l++) {
        KT addr = _mm256_add_epi64(base, _mm256_set1_epi64x((long long)(off + 8 * l)));
        A[l] = _mm256_xor_si256(A[l], _mm256_i64gather_epi64((const long long *)0, addr, 1));
    }
    if (rem % 8) {
        for (size_t j = 0; j < 4; j++) {
            uint64_t v = 0;
            const uint8_t *q = in[j < lanes ? j : 0] + off + 8 * l;
            for (size_t b = 0; b < rem % 8; b++)
                v |= (uint64_t)q[b] << (8 * b);
            tmp[j] = v;
        }
        A[l] = _mm256_xor_si256(A[l], _mm256_load_si256((const __m256i *)(const void *)tmp));
    }
    A[rem / 8] = _mm256_xor_si256(A[rem / 8], _mm256_set1_epi64x((long long)((uint64_t)0x1F << (8 * (rem % 8)))));
    A[rw - 1] = _mm256_xor_si256(A[rw - 1], _mm256_set1_epi64x((long long)0x8000000000000000ULL));
    permute_vec(A);
    for (size_t o = 0; o < outlen;) {
        size_t take = outlen - o < rate ? outlen - o : rate;
        for (size_t w = 0; 8 * w < take; w++) {
            l = w;
            _mm256_storeu_si256((__m256i *)(void *)tmp, A[l]);
            size_t k = take - 8 * w < 8 ? take - 8 * w : 8;
            for (size_t j = 0; j < lanes; j++) {
                if (k == 8)
                    grove_store64_le(out[j] + o + 8 * w, tmp[j]);
                else
                    for (size_t b = 0; b < k; b++)
                        out[j][o + 8 * w + b] = (uint8_t)(tmp[j] >> (8 * b));
            }
        }
        o += take;
        if (o < outlen)
            permute_vec(A);
    }
    for (int i = 0; i < 25; i++)
        A[i] = _mm256_setzero_si256();
    grove_wipe(tmp, sizeof tmp);
}
#endif
