/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Constant-time checking hooks (internal). In a build with -DGROVE_CT_CHECK (tests/ct), secret
 * inputs are marked undefined for valgrind's memcheck, which then reports every branch and
 * memory index that depends on them. GROVE_DECLASSIFY marks a value the algorithm publishes
 * (a signature, a public key, an output) as no longer secret. In normal builds both are no-ops.
 */
#ifndef GROVE_COMMON_CT_H
#define GROVE_COMMON_CT_H

#ifdef GROVE_CT_CHECK
#include <valgrind/memcheck.h>
#define GROVE_SECRET(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define GROVE_DECLASSIFY(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#else
#define GROVE_SECRET(p, n) ((void)0)
#define GROVE_DECLASSIFY(p, n) ((void)0)
#endif

#endif
