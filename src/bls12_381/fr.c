/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Scalars mod r (see fr.h). */
#include "bls12_381/fr.h"

#include <string.h>

#include "bls12_381/constants.h"
#include "bls12_381/fp.h"

/* r = a - R_ORDER if a >= R_ORDER, for a < 2^256 given as 4 limbs plus a carry bit. */
static void fr_sub_if_ge(uint64_t r[4], const uint64_t a[4], uint64_t carry)
{
    uint64_t s[4], b = 0, m;
    for (int i = 0; i < 4; i++)
        s[i] = bls_sbb(a[i], BLS_R_ORDER[i], &b);
    /* keep a iff (carry:a) < r, i.e. borrow and no carry */
    m = (0 - b) & ~(0 - carry);
    for (int i = 0; i < 4; i++)
        r[i] = (a[i] & m) | (s[i] & ~m);
}

/* Montgomery product a * b / 2^256 mod r, a < r, b any 4 limbs; result < r. */
static void fr_mont_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t[5] = {0};
    for (int i = 0; i < 4; i++) {
        uint64_t c = 0;
        for (int j = 0; j < 4; j++)
            t[j] = bls_mac64(a[j], b[i], t[j], c, &c);
        t[4] += c;
        uint64_t m = t[0] * BLS_FR_N0;
        (void)bls_mac64(m, BLS_R_ORDER[0], t[0], 0, &c);
        for (int j = 1; j < 4; j++)
            t[j - 1] = bls_mac64(m, BLS_R_ORDER[j], t[j], c, &c);
        uint64_t cy = 0;
        t[3] = bls_adc(t[4], c, &cy);
        t[4] = cy;
    }
    fr_sub_if_ge(r, t, t[4]);
}

uint64_t fr_divrem_zabs(uint64_t q[2], const uint64_t k[2])
{
    const uint64_t d = BLS_Z_ABS;
    uint64_t rem = 0, q0 = 0, q1 = 0;
    for (int i = 127; i >= 0; i--) {
        /* rem < d < 2^64 before the shift, so the shifted value is (top:rem), below 2d */
        uint64_t top = rem >> 63;
        rem = (rem << 1) | ((k[i / 64] >> (i % 64)) & 1);
        uint64_t diff = rem - d;
        uint64_t borrow = ((~rem & d) | ((~rem | d) & diff)) >> 63;
        uint64_t ge = grove_value_barrier64(top | (borrow ^ 1)); /* (top:rem) >= d */
        uint64_t m = 0 - ge;
        rem = (diff & m) | (rem & ~m);
        q1 = (q1 << 1) | (q0 >> 63);
        q0 = (q0 << 1) | ge;
    }
    q[0] = q0;
    q[1] = q1;
    return rem;
}

void fr_load_be(uint64_t r[4], const uint8_t in[32])
{
    for (int i = 0; i < 4; i++)
        r[i] = grove_load64_be(in + 8 * (3 - i));
}

void fr_store_be(uint8_t out[32], const uint64_t a[4])
{
    for (int i = 0; i < 4; i++)
        grove_store64_be(out + 8 * (3 - i), a[i]);
}

void fr_from_bytes_wide(uint64_t r[4], const uint8_t *in, size_t len)
{
    uint8_t buf[64] = {0};
    uint64_t hi[4], lo[4];
    if (len > 64)
        len = 64;
    memcpy(buf + 64 - len, in, len);
    fr_load_be(hi, buf);
    fr_load_be(lo, buf + 32);
    /* lo < 2^256 < 3r: two conditional subtractions */
    fr_sub_if_ge(lo, lo, 0);
    fr_sub_if_ge(lo, lo, 0);
    /* hi * 2^256 mod r = mont(R^2, hi) */
    fr_mont_mul(hi, BLS_FR_R2, hi);
    uint64_t c = 0;
    for (int i = 0; i < 4; i++)
        r[i] = bls_adc(hi[i], lo[i], &c);
    fr_sub_if_ge(r, r, c);
    grove_wipe(buf, sizeof buf);
    grove_wipe(hi, sizeof hi);
    grove_wipe(lo, sizeof lo);
}

uint64_t fr_is_canonical_mask(const uint64_t a[4])
{
    uint64_t b = 0;
    for (int i = 0; i < 4; i++)
        (void)bls_sbb(a[i], BLS_R_ORDER[i], &b);
    return 0 - b;
}

uint64_t fr_is_zero_mask(const uint64_t a[4])
{
    return grove_ct_is_zero64(a[0] | a[1] | a[2] | a[3]);
}

/*
 * k = k1 z^2 + k0 with 0 <= k0 < z^2 (z^2 = 0xac45a401...00000000, 128 bits), for k < r so
 * k1 < 2^128: the split used by the two-dimensional (GLV) constant-time multiplications.
 * Barrett division: q = floor(k M / 2^256) with M = floor(2^256 / z^2) is at most 2 below the
 * quotient; two masked corrections fix it.
 */
void fr_split_z2(uint64_t k0[2], uint64_t k1[2], const uint64_t k[4])
{
    static const uint64_t M[3] = {0x63f6e522f6cfee2eULL, 0x7c6becf1e01faaddULL, 0x1ULL};
    static const uint64_t Z2[2] = {0x0000000100000000ULL, 0xac45a4010001a402ULL};
    uint64_t prod[7] = {0}, q[3], qz[5] = {0}, rem[3], t[3];
    /* prod = k * M */
    for (int i = 0; i < 4; i++) {
        uint64_t c = 0;
        for (int j = 0; j < 3; j++)
            prod[i + j] = bls_mac64(k[i], M[j], prod[i + j], c, &c);
        prod[i + 3] = c;
    }
    q[0] = prod[4];
    q[1] = prod[5];
    q[2] = prod[6];
    /* rem = k - q z^2 (low 3 limbs suffice: the true remainder is below 3 z^2 < 2^130) */
    for (int i = 0; i < 3; i++) {
        uint64_t c = 0;
        for (int j = 0; j < 2; j++)
            qz[i + j] = bls_mac64(q[i], Z2[j], qz[i + j], c, &c);
        qz[i + 2] += c;
    }
    uint64_t b = 0;
    for (int i = 0; i < 3; i++)
        rem[i] = bls_sbb(k[i], qz[i], &b);
    for (int round = 0; round < 2; round++) {
        b = 0;
        t[0] = bls_sbb(rem[0], Z2[0], &b);
        t[1] = bls_sbb(rem[1], Z2[1], &b);
        t[2] = bls_sbb(rem[2], 0, &b);
        uint64_t ge = b - 1; /* all ones iff rem >= z^2 */
        for (int i = 0; i < 3; i++)
            rem[i] = (t[i] & ge) | (rem[i] & ~ge);
        uint64_t c = ge & 1;
        q[0] = bls_adc(q[0], 0, &c);
        q[1] = bls_adc(q[1], 0, &c);
    }
    k0[0] = rem[0];
    k0[1] = rem[1];
    k1[0] = q[0];
    k1[1] = q[1];
    grove_wipe(prod, sizeof prod);
    grove_wipe(qz, sizeof qz);
    grove_wipe(rem, sizeof rem);
    grove_wipe(t, sizeof t);
    grove_wipe(q, sizeof q);
}
