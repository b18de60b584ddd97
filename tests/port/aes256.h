/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* AES-256 block encryption for the test DRBG where OpenSSL is absent (see aes256.c). */
#ifndef GROVE_TEST_AES256_H
#define GROVE_TEST_AES256_H

#include <stdint.h>

void test_aes256_encrypt(const uint8_t key[32], const uint8_t in[16], uint8_t out[16]);

#endif
