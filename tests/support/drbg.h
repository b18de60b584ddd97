/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The NIST AES-256-CTR DRBG of PQCgenKAT (randombytes_init / randombytes, no derivation
 * function, no reseeding). For known-answer tests only: it is linked into test programs and
 * the vector runner, never into libgrove.
 */
#ifndef GROVE_TEST_DRBG_H
#define GROVE_TEST_DRBG_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint8_t key[32];
    uint8_t v[16];
    uint64_t reseed_counter;
} kat_drbg;

/* entropy: 48 bytes; personalization: 48 bytes or NULL. */
void kat_drbg_init(kat_drbg *d, const uint8_t entropy[48], const uint8_t *personalization);
void kat_drbg_bytes(kat_drbg *d, uint8_t *out, size_t len);

#endif
