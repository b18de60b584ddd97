/* SPDX-License-Identifier: MIT OR Apache-2.0 */

#include "hash/dispatch.h"
/*
 * Template (no include guard: included once per kernel file) of the fused SHAKE256 chain kernel
 * (see grove_shake256_chains), written once for every vector width. The including file defines
 * KT, KXOR, KZERO, KSET1 (keccak_simd.h) and:
 *   KECCAK_TARGET     the function attribute selecting the instruction set
 *   KECCAK_W          lanes per vector (64-bit words)
 *   KAND(a, b), KOR(a, b)       bitwise and / or
 *   KLOADA(p), KSTOREA(p, v)    aligned load / store of KECCAK_W words
 *   KMASK, KGE(a, b), KSELECT(m, a, b)  a lane mask type, the lanes with a >= b (signed), a
 *                               where m else b
 *   permute_vec(S)    the permutation on 25 vectors S
 *   KECCAK_CHAINS_NAME          the name of the kernel
 * The chain values and the heads stay in registers between the steps.
 */

/* Write the values of the lanes (j < count) whose capture position is pos, if any. */
KECCAK_TARGET static inline void keccak_chains_capture(const KT val[4], size_t nw, size_t count,
                                                       const uint8_t *cap,
                                                       uint8_t *const capout[], uint32_t pos)
{
    int any = 0;
    for (size_t j = 0; j < count; j++)
        any |= cap[j] == pos;
    if (!any)
        return;
    uint64_t tmp[KECCAK_W] __attribute__((aligned(64)));
    for (size_t l = 0; l < nw; l++) {
        KSTOREA(tmp, val[l]);
        for (size_t j = 0; j < count; j++)
            if (cap[j] == pos)
                grove_store64_le(capout[j] + 8 * l, tmp[j]);
    }
    grove_wipe(tmp, sizeof tmp);
}

/* Words [from, from + nwords) of the lanes (lane 0 standing in for j >= count) into v. */
KECCAK_TARGET static inline void keccak_chains_gather(KT *v, uint8_t *const lanes[], size_t from,
                                                      size_t nwords, size_t count)
{
    uint64_t tmp[KECCAK_W] __attribute__((aligned(64)));
    for (size_t l = 0; l < nwords; l++) {
        for (size_t j = 0; j < KECCAK_W; j++)
            tmp[j] = grove_load64_le(lanes[j < count ? j : 0] + from + 8 * l);
        v[l] = KLOADA(tmp);
    }
    grove_wipe(tmp, sizeof tmp);
}

/* begin != NULL: lane j takes only the steps at positions begin[j] and later. Inlined into a
 * copy per SPHINCS+ layout (below), so that head, n and ctr_off are constants: the state is
 * then built in registers and the lanes that are zero in every step fold out of round 0. */
KECCAK_TARGET static inline __attribute__((always_inline)) void
keccak_chains_body(uint8_t *const lanes[], size_t head, size_t n, size_t ctr_off, uint32_t start,
                   unsigned steps, size_t count, const uint8_t *cap, uint8_t *const capout[],
                   const uint8_t *begin)
{
    const size_t hw = head / 8, nw = n / 8;
    KT H[17], val[4], S[25], bv = KZERO();
    /* head words: gathered once (most are equal across lanes; the counter is set per step) */
    keccak_chains_gather(H, lanes, 0, hw, count);
    keccak_chains_gather(val, lanes, head, nw, count);
    const size_t cw = ctr_off / 8, csh = 8 * (ctr_off % 8);
    const uint64_t cmask = ~((uint64_t)0xFFFFFFFFu << csh);
    const KT pad = KSET1((uint64_t)0x1F << (8 * ((head + n) % 8)));
    if (begin != NULL) {
        uint64_t b[KECCAK_W] __attribute__((aligned(64)));
        for (size_t j = 0; j < KECCAK_W; j++)
            b[j] = begin[j < count ? j : 0];
        bv = KLOADA(b);
    }
    for (unsigned s = 0; s <= steps; s++) {
        if (cap != NULL)
            keccak_chains_capture(val, nw, count, cap, capout, start + s);
        if (s == steps)
            break;
        uint32_t c = start + s;
        uint64_t cb = (uint64_t)(((c & 0xFFu) << 24) | ((c & 0xFF00u) << 8) | ((c >> 8) & 0xFF00u) |
                                 (c >> 24))
                      << csh;
        for (size_t l = 0; l < hw; l++)
            S[l] = H[l];
        S[cw] = KOR(KAND(H[cw], KSET1(cmask)), KSET1(cb));
        for (size_t l = 0; l < nw; l++)
            S[hw + l] = val[l];
        for (size_t l = hw + nw; l < 25; l++)
            S[l] = KZERO();
        S[(head + n) / 8] = KXOR(S[(head + n) / 8], pad);
        S[16] = KXOR(S[16], KSET1(0x8000000000000000ULL));
        permute_vec_row0(S); /* the value is in lanes 0 .. nw - 1 < 5 */
        if (begin != NULL) { /* lanes before their first position keep their value */
            KMASK m = KGE(KSET1(c), bv);
            for (size_t l = 0; l < nw; l++)
                val[l] = KSELECT(m, S[l], val[l]);
        } else {
            for (size_t l = 0; l < nw; l++)
                val[l] = S[l];
        }
    }
    /* write back the head (with the last counter) and the final values */
    uint64_t tmp[KECCAK_W] __attribute__((aligned(64)));
    for (size_t l = 0; l < nw; l++) {
        KSTOREA(tmp, val[l]);
        for (size_t j = 0; j < count; j++)
            grove_store64_le(lanes[j] + head + 8 * l, tmp[j]);
    }
    grove_chains_last_counter(lanes, count, ctr_off, start, steps, begin);
    grove_wipe(tmp, sizeof tmp);
    for (size_t l = 0; l < 25; l++)
        S[l] = KZERO();
    for (size_t l = 0; l < 4; l++)
        val[l] = KZERO();
}

KECCAK_TARGET void KECCAK_CHAINS_NAME(uint8_t *const lanes[], size_t head, size_t n,
                                      size_t ctr_off, uint32_t start, unsigned steps,
                                      size_t count, const uint8_t *cap, uint8_t *const capout[],
                                      const uint8_t *begin)
{
    /* SPHINCS+: PK.seed (n bytes) || ADRS (32, the hash address at its byte 28) || value */
    if (head == n + 32 && ctr_off == n + 28) {
        if (n == 16)
            keccak_chains_body(lanes, 48, 16, 44, start, steps, count, cap, capout, begin);
        else if (n == 24)
            keccak_chains_body(lanes, 56, 24, 52, start, steps, count, cap, capout, begin);
        else if (n == 32)
            keccak_chains_body(lanes, 64, 32, 60, start, steps, count, cap, capout, begin);
        else
            keccak_chains_body(lanes, head, n, ctr_off, start, steps, count, cap, capout, begin);
        return;
    }
    keccak_chains_body(lanes, head, n, ctr_off, start, steps, count, cap, capout, begin);
}
