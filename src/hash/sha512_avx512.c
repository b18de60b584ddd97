/* SHA-512: eight independent blocks at once with AVX-512 (native rotates, vpternlogq). */
#include "common/util.h"

#if GROVE_HAVE_X86_TARGETS && defined(__x86_64__)
#include <immintrin.h>

#include "hash/sha2_simd.h"

#define V __m512i
#define ADD(a, b) _mm512_add_epi64((a), (b))
#define XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define ROR(x, n) _mm512_ror_epi64((x), (n))
#define BSIG0(x) XOR3(ROR(x, 28), ROR(x, 34), ROR(x, 39))
#define BSIG1(x) XOR3(ROR(x, 14), ROR(x, 18), ROR(x, 41))
#define SSIG0(x) XOR3(ROR(x, 1), ROR(x, 8), _mm512_srli_epi64((x), 7))
#define SSIG1(x) XOR3(ROR(x, 19), ROR(x, 61), _mm512_srli_epi64((x), 6))
#define CH(e, f, g) _mm512_ternarylogic_epi64((e), (f), (g), 0xCA)
#define MAJ(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0xE8)

__attribute__((target("avx512f,avx512bw,avx512vl"))) void
grove_sha512_x8_avx512(uint64_t *st, const uint8_t *blocks)
{
    const V bswap = _mm512_set_epi64(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                     0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                     0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
                                     0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
    const V idx = _mm512_set_epi64(112, 96, 80, 64, 48, 32, 16, 0); /* lane j at word 16 j */
    V w[16], s[8];
    for (int t = 0; t < 16; t++)
        w[t] = _mm512_shuffle_epi8(_mm512_i64gather_epi64(idx, (const void *)(blocks + 8 * t), 8),
                                   bswap);
    for (int i = 0; i < 8; i++)
        s[i] = _mm512_loadu_si512((const void *)(st + 8 * i));
    V a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], hh = s[7];
    for (int i = 0; i < 80; i++) {
        if (i >= 16)
            w[i & 15] = ADD(ADD(SSIG1(w[(i - 2) & 15]), w[(i - 7) & 15]),
                            ADD(SSIG0(w[(i - 15) & 15]), w[i & 15]));
        V t1 = ADD(ADD(hh, BSIG1(e)),
                   ADD(CH(e, f, g), ADD(_mm512_set1_epi64((long long)grove_sha512_k[i]), w[i & 15])));
        V t2 = ADD(BSIG0(a), MAJ(a, b, c));
        hh = g;
        g = f;
        f = e;
        e = ADD(d, t1);
        d = c;
        c = b;
        b = a;
        a = ADD(t1, t2);
    }
    s[0] = ADD(s[0], a);
    s[1] = ADD(s[1], b);
    s[2] = ADD(s[2], c);
    s[3] = ADD(s[3], d);
    s[4] = ADD(s[4], e);
    s[5] = ADD(s[5], f);
    s[6] = ADD(s[6], g);
    s[7] = ADD(s[7], hh);
    for (int i = 0; i < 8; i++)
        _mm512_storeu_si512((void *)(st + 8 * i), s[i]);
}
#endif
