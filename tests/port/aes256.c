/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * AES-256 block encryption (FIPS 197) for the test DRBG (tests/support/drbg.c) in builds
 * without OpenSSL for their target (the cross and -m32 builds of tests/port). Test code only:
 * byte-wise and table-driven (not constant time); it only expands public KAT seeds. Checked by
 * test_drbg against the PQCgenKAT outputs and by the SPHINCS+ and CROSS KAT vectors.
 */
#include <stdint.h>
#include <string.h>

#include "aes256.h"

static uint8_t xtime(uint8_t a)
{
    return (uint8_t)((a << 1) ^ ((a >> 7) * 0x1b));
}

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++) {
        if (b & 1)
            r ^= a;
        a = xtime(a);
        b >>= 1;
    }
    return r;
}

static uint8_t rotl8(uint8_t x, int s)
{
    return (uint8_t)((x << s) | (x >> (8 - s)));
}

/* The S-box from its definition: inversion in GF(2^8), then the affine map. */
static uint8_t sbox(uint8_t x)
{
    uint8_t inv = 1, p = x;
    for (int e = 254; e > 0; e >>= 1) { /* x^254 = x^-1 (0 -> 0) */
        if (e & 1)
            inv = gf_mul(inv, p);
        p = gf_mul(p, p);
    }
    if (x == 0)
        inv = 0;
    return (uint8_t)(inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63);
}

void test_aes256_encrypt(const uint8_t key[32], const uint8_t in[16], uint8_t out[16])
{
    uint8_t sb[256], rk[240], s[16], t[16];
    for (int i = 0; i < 256; i++)
        sb[i] = sbox((uint8_t)i);
    memcpy(rk, key, 32);
    uint8_t rcon = 1;
    for (int i = 8; i < 60; i++) {
        uint8_t w[4];
        memcpy(w, rk + 4 * (i - 1), 4);
        if (i % 8 == 0) {
            uint8_t w0 = w[0];
            w[0] = (uint8_t)(sb[w[1]] ^ rcon);
            w[1] = sb[w[2]];
            w[2] = sb[w[3]];
            w[3] = sb[w0];
            rcon = xtime(rcon);
        } else if (i % 8 == 4) {
            for (int j = 0; j < 4; j++)
                w[j] = sb[w[j]];
        }
        for (int j = 0; j < 4; j++)
            rk[4 * i + j] = (uint8_t)(rk[4 * (i - 8) + j] ^ w[j]);
    }
    for (int i = 0; i < 16; i++)
        s[i] = (uint8_t)(in[i] ^ rk[i]);
    for (int round = 1; round <= 14; round++) {
        /* SubBytes and ShiftRows: byte r of column c comes from column c + r. */
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                t[4 * c + r] = sb[s[4 * ((c + r) % 4) + r]];
        if (round < 14) { /* MixColumns */
            for (int c = 0; c < 4; c++) {
                uint8_t *a = t + 4 * c, a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
                uint8_t all = (uint8_t)(a0 ^ a1 ^ a2 ^ a3);
                a[0] = (uint8_t)(a0 ^ all ^ xtime((uint8_t)(a0 ^ a1)));
                a[1] = (uint8_t)(a1 ^ all ^ xtime((uint8_t)(a1 ^ a2)));
                a[2] = (uint8_t)(a2 ^ all ^ xtime((uint8_t)(a2 ^ a3)));
                a[3] = (uint8_t)(a3 ^ all ^ xtime((uint8_t)(a3 ^ a0)));
            }
        }
        for (int i = 0; i < 16; i++)
            s[i] = (uint8_t)(t[i] ^ rk[16 * round + i]);
    }
    memcpy(out, s, 16);
}
