/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Scalars modulo the group order r (255 bits), as 4 little-endian 64-bit limbs in plain
 * (not Montgomery) form. Constant time.
 */
#ifndef GROVE_BLS12_381_FR_H
#define GROVE_BLS12_381_FR_H

#include <stddef.h>
#include <stdint.h>

/* r = OS2IP(in[0..len)) mod r for len <= 64. */
void fr_from_bytes_wide(uint64_t r[4], const uint8_t *in, size_t len);
/* All-ones if a < r (canonical) else 0. */
uint64_t fr_is_canonical_mask(const uint64_t a[4]);
/* All-ones if a == 0 else 0. */
uint64_t fr_is_zero_mask(const uint64_t a[4]);
/* k = k1 z^2 + k0 with k0 < z^2 and, for k < r, k1 < 2^128 (constant time). */
void fr_split_z2(uint64_t k0[2], uint64_t k1[2], const uint64_t k[4]);
/*
 * k = q |z| + rem for a 128-bit k (q below 2^65 in q[0], q[1]): binary long division over a
 * fixed 128 steps with masks, constant time in k, 64-bit arithmetic only (no unsigned __int128).
 * Returns rem (< |z|).
 */
uint64_t fr_divrem_zabs(uint64_t q[2], const uint64_t k[2]);
/* Big-endian 32-byte conversions (no reduction). */
void fr_load_be(uint64_t r[4], const uint8_t in[32]);
void fr_store_be(uint8_t out[32], const uint64_t a[4]);

#endif
