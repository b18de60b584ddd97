/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* BLAKE2b per RFC 7693 section 3 (written from the RFC's description). */
#include "hash/blake2b.h"

#include <string.h>

#include "common/util.h"

static const uint64_t blake2b_iv[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

static const uint8_t blake2b_sigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

GROVE_INLINE uint64_t rotr64(uint64_t x, unsigned n)
{
    return (x >> n) | (x << (64 - n));
}

#define B2B_G(a, b, c, d, x, y)                                                                  \
    do {                                                                                         \
        v[a] = v[a] + v[b] + (x);                                                                \
        v[d] = rotr64(v[d] ^ v[a], 32);                                                          \
        v[c] = v[c] + v[d];                                                                      \
        v[b] = rotr64(v[b] ^ v[c], 24);                                                          \
        v[a] = v[a] + v[b] + (y);                                                                \
        v[d] = rotr64(v[d] ^ v[a], 16);                                                          \
        v[c] = v[c] + v[d];                                                                      \
        v[b] = rotr64(v[b] ^ v[c], 63);                                                          \
    } while (0)

static void blake2b_compress(grove_blake2b_ctx *c, const uint8_t block[128], int last)
{
    uint64_t v[16], m[16];
    for (int i = 0; i < 16; i++)
        m[i] = grove_load64_le(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = c->h[i];
        v[i + 8] = blake2b_iv[i];
    }
    v[12] ^= c->t[0];
    v[13] ^= c->t[1];
    if (last)
        v[14] = ~v[14];
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = blake2b_sigma[r];
        B2B_G(0, 4, 8, 12, m[s[0]], m[s[1]]);
        B2B_G(1, 5, 9, 13, m[s[2]], m[s[3]]);
        B2B_G(2, 6, 10, 14, m[s[4]], m[s[5]]);
        B2B_G(3, 7, 11, 15, m[s[6]], m[s[7]]);
        B2B_G(0, 5, 10, 15, m[s[8]], m[s[9]]);
        B2B_G(1, 6, 11, 12, m[s[10]], m[s[11]]);
        B2B_G(2, 7, 8, 13, m[s[12]], m[s[13]]);
        B2B_G(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++)
        c->h[i] ^= v[i] ^ v[i + 8];
}

static void counter_add(grove_blake2b_ctx *c, uint64_t n)
{
    c->t[0] += n;
    if (c->t[0] < n)
        c->t[1]++;
}

void grove_blake2b_init(grove_blake2b_ctx *c, size_t outlen)
{
    if (outlen < 1)
        outlen = 1;
    if (outlen > 64)
        outlen = 64;
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 8; i++)
        c->h[i] = blake2b_iv[i];
    /* parameter block: digest length, key length 0, fanout 1, depth 1 */
    c->h[0] ^= 0x01010000ULL ^ (uint64_t)outlen;
    c->outlen = outlen;
}

void grove_blake2b_init_key(grove_blake2b_ctx *c, size_t outlen, const uint8_t *key,
                            size_t keylen)
{
    if (keylen > 64)
        keylen = 64;
    grove_blake2b_init(c, outlen);
    if (keylen == 0 || key == NULL)
        return;
    c->h[0] ^= (uint64_t)keylen << 8;
    memcpy(c->buf, key, keylen); /* the key block: key padded with zeros to 128 bytes */
    c->buflen = 128;
}

void grove_blake2b_update(grove_blake2b_ctx *c, const void *in_, size_t len)
{
    const uint8_t *in = in_;
    if (len == 0)
        return;
    size_t fill = 128 - c->buflen;
    if (len > fill) {
        /* complete and compress the buffered block: more input follows, so it is not last */
        memcpy(c->buf + c->buflen, in, fill);
        counter_add(c, 128);
        blake2b_compress(c, c->buf, 0);
        c->buflen = 0;
        in += fill;
        len -= fill;
        while (len > 128) {
            counter_add(c, 128);
            blake2b_compress(c, in, 0);
            in += 128;
            len -= 128;
        }
    }
    memcpy(c->buf + c->buflen, in, len);
    c->buflen += len;
}

void grove_blake2b_final(grove_blake2b_ctx *c, uint8_t *out)
{
    uint8_t full[64];
    counter_add(c, c->buflen);
    memset(c->buf + c->buflen, 0, 128 - c->buflen);
    blake2b_compress(c, c->buf, 1);
    for (int i = 0; i < 8; i++)
        grove_store64_le(full + 8 * i, c->h[i]);
    memcpy(out, full, c->outlen);
    grove_wipe(full, sizeof full);
    grove_wipe(c, sizeof *c);
}

void grove_blake2b(uint8_t *out, size_t outlen, const void *in, size_t len)
{
    grove_blake2b_ctx c;
    grove_blake2b_init(&c, outlen);
    grove_blake2b_update(&c, in, len);
    grove_blake2b_final(&c, out);
}
