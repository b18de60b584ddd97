/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* NIST AES-256-CTR DRBG as used by PQCgenKAT (SP 800-90A CTR_DRBG without df). */
#include <stdlib.h>
#include <string.h>

#include "drbg.h"
#if GROVE_TEST_HAVE_OPENSSL
#include <openssl/evp.h>

static void aes256_ecb_block(const uint8_t key[32], const uint8_t in[16], uint8_t out[16])
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int len = 0;
    if (ctx == NULL || EVP_EncryptInit_ex(ctx, EVP_aes_256_ecb(), NULL, key, NULL) != 1 ||
        EVP_CIPHER_CTX_set_padding(ctx, 0) != 1 || EVP_EncryptUpdate(ctx, out, &len, in, 16) != 1 ||
        len != 16)
        abort(); /* test-only code: an OpenSSL failure cannot be recovered from */
    EVP_CIPHER_CTX_free(ctx);
}
#else
/* No OpenSSL for this target (cross and -m32 builds): tests/port/aes256.c. */
#include "aes256.h"

static void aes256_ecb_block(const uint8_t key[32], const uint8_t in[16], uint8_t out[16])
{
    test_aes256_encrypt(key, in, out);
}
#endif

static void increment_v(uint8_t v[16])
{
    for (int j = 15; j >= 0; j--) {
        if (++v[j] != 0)
            break;
    }
}

static void drbg_update(kat_drbg *d, const uint8_t *provided)
{
    uint8_t temp[48];
    for (int i = 0; i < 3; i++) {
        increment_v(d->v);
        aes256_ecb_block(d->key, d->v, temp + 16 * i);
    }
    if (provided != NULL)
        for (int i = 0; i < 48; i++)
            temp[i] ^= provided[i];
    memcpy(d->key, temp, 32);
    memcpy(d->v, temp + 32, 16);
}

void kat_drbg_init(kat_drbg *d, const uint8_t entropy[48], const uint8_t *personalization)
{
    uint8_t seed[48];
    memcpy(seed, entropy, 48);
    if (personalization != NULL)
        for (int i = 0; i < 48; i++)
            seed[i] ^= personalization[i];
    memset(d->key, 0, sizeof d->key);
    memset(d->v, 0, sizeof d->v);
    drbg_update(d, seed);
    d->reseed_counter = 1;
}

void kat_drbg_bytes(kat_drbg *d, uint8_t *out, size_t len)
{
    uint8_t block[16];
    while (len > 0) {
        increment_v(d->v);
        aes256_ecb_block(d->key, d->v, block);
        size_t take = len < 16 ? len : 16;
        memcpy(out, block, take);
        out += take;
        len -= take;
    }
    drbg_update(d, NULL);
    d->reseed_counter++;
}
