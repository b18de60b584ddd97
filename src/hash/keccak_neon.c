/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Keccak-f[1600] on 2 states at once with AArch64 NEON (Advanced SIMD, every ARMv8-A core). */
#include "common/util.h"

#if GROVE_HAVE_ARM_TARGETS
#define KNAME(x) grove_##x##_neon
#define KXOR5(a, b, c, d, e) veorq_u64(veorq_u64(veorq_u64(a, b), veorq_u64(c, d)), (e))
#define KROL(a, n) vsriq_n_u64(vshlq_n_u64((a), (n)), (a), 64 - (n))
#define KCHI(a, b, c) veorq_u64((a), vbicq_u64((c), (b)))
#include "hash/keccak_neon_tmpl.h"
#endif
