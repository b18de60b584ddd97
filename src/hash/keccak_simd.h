/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Multi-state Keccak-f[1600] kernels (internal). State layout: st[25][W] (lane i of state j at
 * st[W * i + j]). */
#ifndef GROVE_HASH_KECCAK_SIMD_H
#define GROVE_HASH_KECCAK_SIMD_H

#include <stddef.h>
#include <stdint.h>

void grove_keccakf1600_x4_avx2(uint64_t *st);   /* W = 4 */
void grove_keccakf1600_x8_avx512(uint64_t *st); /* W = 8 */

/* SHAKE of up to W equal-length messages in one pass (lanes <= W; rate in bytes). */
void grove_shake_x4_avx2(uint32_t rate, uint8_t *const out[], size_t outlen,
                         const uint8_t *const in[], size_t inlen, size_t lanes);
void grove_shake_x8_avx512(uint32_t rate, uint8_t *const out[], size_t outlen,
                           const uint8_t *const in[], size_t inlen, size_t lanes);

/* grove_shake256_chains on up to 8 (AVX-512) or 4 (AVX2) lanes; the chain values stay in
 * registers. begin != NULL: lane j takes the steps at positions begin[j] and later only. */
void grove_shake256_chains_x8_avx512(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                     uint32_t start, unsigned steps, size_t count,
                                     const uint8_t *cap, uint8_t *const capout[],
                                     const uint8_t *begin);
void grove_shake256_chains_x4_avx2(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off,
                                   uint32_t start, unsigned steps, size_t count,
                                   const uint8_t *cap, uint8_t *const capout[],
                                   const uint8_t *begin);

/*
 * For the kernels (with keccak_round.h and its KT, KXOR, ... defined): the permutation on a
 * state kept as an array of 25 vectors S (the sponge below XORs whole vectors into it, so no
 * scalar store is ever reloaded as a vector).
 */
#define GROVE_KECCAK_VLOAD_(v, i) v = grove_kv_[i]
#define GROVE_KECCAK_VSTORE_(v, i) grove_kv_[i] = v
#define GROVE_KECCAK_PERMUTE_VEC(S)                                                         \
    do {                                                                                    \
        KT *const grove_kv_ = (S);                                                          \
        KECCAK_DECLARE_LANES(A);                                                            \
        KECCAK_DECLARE_LANES(E);                                                            \
        KECCAK_FOR_LANES(A, GROVE_KECCAK_VLOAD_);                                           \
        KECCAK_PERMUTE(A, E);                                                               \
        KECCAK_FOR_LANES(A, GROVE_KECCAK_VSTORE_);                                          \
    } while (0)

/* The same with only the first 40 bytes (lanes 0-4) of the result valid in S. */
#define GROVE_KECCAK_PERMUTE_VEC_ROW0(S)                                                    \
    do {                                                                                    \
        KT *const grove_kv_ = (S);                                                          \
        KECCAK_DECLARE_LANES(A);                                                            \
        KECCAK_DECLARE_LANES(E);                                                            \
        KECCAK_FOR_LANES(A, GROVE_KECCAK_VLOAD_);                                           \
        KECCAK_PERMUTE_ROW0(A, E);                                                          \
        grove_kv_[0] = Aba;                                                                 \
        grove_kv_[1] = Abe;                                                                 \
        grove_kv_[2] = Abi;                                                                 \
        grove_kv_[3] = Abo;                                                                 \
        grove_kv_[4] = Abu;                                                                 \
    } while (0)

/*
 * For the kernels: the body of grove_shake_xW_* (see above), written once. SHAKE (any rate,
 * domain byte 0x1F) of up to W equal-length messages: whole input words are gathered straight
 * from the W messages, the state never leaves vector form, and outputs are written lane by lane
 * at the end of each squeezed block. PERMUTE(S) permutes 25 vectors S, PERMUTE_ROW0(S) the same
 * with only lanes 0-4 of the result (used when outlen <= 40); the kernel defines,
 * besides KT and KXOR:
 *   KZERO()        the all-zero vector
 *   KSET1(x)       the 64-bit value x in every lane
 *   KADD64(a, b)   lane-wise 64-bit addition
 *   KGATHER(addr)  the 64-bit words at the byte addresses held in the lanes of addr
 *   KLOAD(p), KLOADU(p), KSTOREU(p, v)  aligned load, unaligned load, unaligned store at p
 */
#define GROVE_KECCAK_SHAKE_XN(W, PERMUTE, PERMUTE_ROW0, rate, out, outlen, in, inlen, lanes)                \
    do {                                                                                    \
        KT A[25];                                                                           \
        uint64_t ptr[W] __attribute__((aligned(64)));                                       \
        uint64_t tmp[W] __attribute__((aligned(64)));                                       \
        const size_t rw = (rate) / 8;                                                       \
        for (int i = 0; i < 25; i++)                                                        \
            A[i] = KZERO();                                                                 \
        for (size_t j = 0; j < (W); j++)                                                    \
            ptr[j] = (uint64_t)(uintptr_t)(in)[j < (lanes) ? j : 0];                        \
        const KT base = KLOADU(ptr);                                                        \
        size_t off = 0;                                                                     \
        for (; (inlen) - off >= (rate); off += (rate)) {                                    \
            for (size_t l = 0; l < rw; l++) {                                               \
                KT addr = KADD64(base, KSET1(off + 8 * l));                                 \
                A[l] = KXOR(A[l], KGATHER(addr));                                           \
            }                                                                               \
            PERMUTE(A);                                                                     \
        }                                                                                   \
        /* the last, partial block: whole words, then a partial word, then the padding */  \
        size_t rem = (inlen) - off, l = 0;                                                  \
        for (; 8 * l + 8 <= rem; l++) {                                                     \
            KT addr = KADD64(base, KSET1(off + 8 * l));                                     \
            A[l] = KXOR(A[l], KGATHER(addr));                                               \
        }                                                                                   \
        if (rem % 8) {                                                                      \
            for (size_t j = 0; j < (W); j++) {                                              \
                uint64_t v = 0;                                                             \
                const uint8_t *q = (in)[j < (lanes) ? j : 0] + off + 8 * l;                 \
                for (size_t b = 0; b < rem % 8; b++)                                        \
                    v |= (uint64_t)q[b] << (8 * b);                                         \
                tmp[j] = v;                                                                 \
            }                                                                               \
            A[l] = KXOR(A[l], KLOAD(tmp));                                                  \
        }                                                                                   \
        A[rem / 8] = KXOR(A[rem / 8], KSET1((uint64_t)0x1F << (8 * (rem % 8))));            \
        A[rw - 1] = KXOR(A[rw - 1], KSET1(0x8000000000000000ULL));                          \
        if ((outlen) <= 40) /* one row of output: the last round computes that row only */ \
            PERMUTE_ROW0(A);                                                                \
        else                                                                                \
            PERMUTE(A);                                                                     \
        for (size_t o = 0; o < (outlen);) {                                                 \
            size_t take = (outlen) - o < (rate) ? (outlen) - o : (rate);                    \
            for (size_t w = 0; 8 * w < take; w++) {                                         \
                KSTOREU(tmp, A[w]);                                                         \
                size_t k = take - 8 * w < 8 ? take - 8 * w : 8;                             \
                for (size_t j = 0; j < (lanes); j++) {                                      \
                    if (k == 8)                                                             \
                        grove_store64_le((out)[j] + o + 8 * w, tmp[j]);                     \
                    else                                                                    \
                        for (size_t b = 0; b < k; b++)                                      \
                            (out)[j][o + 8 * w + b] = (uint8_t)(tmp[j] >> (8 * b));         \
                }                                                                           \
            }                                                                               \
            o += take;                                                                      \
            if (o < (outlen))                                                               \
                PERMUTE(A);                                                                 \
        }                                                                                   \
        for (int i = 0; i < 25; i++)                                                        \
            A[i] = KZERO();                                                                 \
        grove_wipe(tmp, sizeof tmp);                                                        \
    } while (0)

#endif
