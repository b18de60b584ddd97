/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * HKDF with SHA-256 (RFC 5869), on grove's HMAC. The _parts variants take the input keying
 * material / the info string as a list of pieces that are concatenated, so callers need not
 * allocate (IETF BLS KeyGen hashes IKM || 0x00 and info || I2OSP(L, 2)).
 */
#ifndef GROVE_HASH_HKDF_H
#define GROVE_HASH_HKDF_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const uint8_t *p;
    size_t len;
} grove_hkdf_part;

/* PRK = HMAC-SHA-256(salt, ikm_1 || ... || ikm_n). An empty salt means 32 zero bytes. */
void grove_hkdf_sha256_extract_parts(uint8_t prk[32], const uint8_t *salt, size_t salt_len,
                                     const grove_hkdf_part *ikm, size_t nparts);
/* OKM = the first okm_len bytes of T(1) || T(2) || ...; returns 0 if okm_len > 255 * 32. */
int grove_hkdf_sha256_expand_parts(uint8_t *okm, size_t okm_len, const uint8_t prk[32],
                                   const grove_hkdf_part *info, size_t nparts);

/*
 * A salt (an HMAC key) fixed in advance as the SHA-256 states after its key^ipad and key^opad
 * blocks: extract from it costs two compressions fewer (IETF BLS KeyGen's first salt).
 * grove_hkdf_sha256_salt_states computes them (tests check the precomputed constants).
 */
typedef struct {
    uint32_t inner[8], outer[8];
} grove_hkdf_salt_states;
void grove_hkdf_sha256_salt_states(grove_hkdf_salt_states *st, const uint8_t *salt,
                                   size_t salt_len);
void grove_hkdf_sha256_extract_parts_states(uint8_t prk[32], const grove_hkdf_salt_states *st,
                                            const grove_hkdf_part *ikm, size_t nparts);

void grove_hkdf_sha256_extract(uint8_t prk[32], const uint8_t *salt, size_t salt_len,
                               const uint8_t *ikm, size_t ikm_len);
int grove_hkdf_sha256_expand(uint8_t *okm, size_t okm_len, const uint8_t prk[32],
                             const uint8_t *info, size_t info_len);

#endif
