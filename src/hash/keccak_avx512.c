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

/* SHAKE of up to 8 equal-length messages, gathered straight from them (see keccak_simd.h). */
__attribute__((target("avx512f,avx512vl"))) void grove_shake_x8_avx512(uint32_t rate, uint8_t *const out[],
                                                         size_t outlen,
                                                         const uint8_t *const in[], size_t inlen,
                                                         size_t lanes)
{
    GROVE_KECCAK_SHAKE_XN(8, permute_vec, rate, out, outlen, in, inlen, lanes);
}

__attribute__((target("avx512f,avx512vl"))) void
grove_shake256_chains_x8_avx512(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                uint32_t start, unsigned steps, size_t count, const uint8_t *cap,
                                uint8_t *const capout[])
{
    const size_t hw = head / 8, nw = n / 8;
    uint64_t tmp[8] __attribute__((aligned(64)));
    KT H[17], val[4], S[25];
    /* head words: gathered once (most are equal across lanes; the counter is set per step) */
    for (size_t l = 0; l < hw; l++) {
        for (size_t j = 0; j < 8; j++)
            tmp[j] = grove_load64_le(lanes[j < count ? j : 0] + 8 * l);
        H[l] = _mm512_load_si512((const void *)tmp);
    }
    for (size_t l = 0; l < nw; l++) {
        for (size_t j = 0; j < 8; j++)
            tmp[j] = grove_load64_le(lanes[j < count ? j : 0] + head + 8 * l);
        val[l] = _mm512_load_si512((const void *)tmp);
    }
    const size_t cw = ctr_off / 8, csh = 8 * (ctr_off % 8);
    const uint64_t cmask = ~((uint64_t)0xFFFFFFFFu << csh);
    const KT pad = _mm512_set1_epi64((long long)((uint64_t)0x1F << (8 * ((head + n) % 8))));
    for (unsigned s = 0; s <= steps; s++) {
        if (cap != NULL) {
            int any = 0;
            for (size_t j = 0; j < count; j++)
                any |= cap[j] == start + s;
            if (any) {
                for (size_t l = 0; l < nw; l++) {
                    _mm512_store_si512((void *)tmp, val[l]);
                    for (size_t j = 0; j < count; j++)
                        if (cap[j] == start + s)
                            grove_store64_le(capout[j] + 8 * l, tmp[j]);
                }
            }
        }
        if (s == steps)
            break;
        uint32_t c = start + s;
        uint64_t cb = (uint64_t)(((c & 0xFFu) << 24) | ((c & 0xFF00u) << 8) | ((c >> 8) & 0xFF00u) |
                                 (c >> 24))
                      << csh;
        for (size_t l = 0; l < hw; l++)
            S[l] = H[l];
        S[cw] = _mm512_or_si512(_mm512_and_si512(H[cw], _mm512_set1_epi64((long long)cmask)),
                                _mm512_set1_epi64((long long)cb));
        for (size_t l = 0; l < nw; l++)
            S[hw + l] = val[l];
        for (size_t l = hw + nw; l < 25; l++)
            S[l] = _mm512_setzero_si512();
        S[(head + n) / 8] = KXOR(S[(head + n) / 8], pad);
        S[16] = KXOR(S[16], _mm512_set1_epi64((long long)0x8000000000000000ULL));
        permute_vec(S);
        for (size_t l = 0; l < nw; l++)
            val[l] = S[l];
    }
    /* write back the head (with the last counter) and the final values */
    for (size_t l = 0; l < nw; l++) {
        _mm512_store_si512((void *)tmp, val[l]);
        for (size_t j = 0; j < count; j++)
            grove_store64_le(lanes[j] + head + 8 * l, tmp[j]);
    }
    if (steps > 0)
        for (size_t j = 0; j < count; j++)
            grove_store32_be(lanes[j] + ctr_off, start + steps - 1);
    grove_wipe(tmp, sizeof tmp);
    for (size_t l = 0; l < 25; l++)
        S[l] = _mm512_setzero_si512();
    for (size_t l = 0; l < 4; l++)
        val[l] = _mm512_setzero_si512();
}
#endif
