/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Stack bytes KeyGen wipes after it returns (grove_burn_stack_small / grove_burn_stack_bytes):
 * the deepest stack its secret computation uses on any CPU path plus BLS_BURN_MARGIN.
 * test_bls_sig paints the stack, runs KeyGen and fails if BLS_BURN_KEYGEN does not cover it.
 * Measured (gcc 12 -O3, x86-64): see the comment at grove_bls_keygen in bls.c.
 */
#ifndef GROVE_BLS12_381_BLS_BURN_H
#define GROVE_BLS12_381_BLS_BURN_H

#include "common/burn.h"

#define BLS_BURN_MARGIN 512
#define BLS_BURN_KEYGEN GROVE_BURN_STACK_SMALL

#endif
