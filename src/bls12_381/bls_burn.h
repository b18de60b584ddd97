/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Stack bytes KeyGen wipes after it returns (BLS_BURN_KEYGEN_STACK): at least the deepest stack
 * its secret computation uses on any CPU path plus BLS_BURN_MARGIN. test_bls_sig paints the
 * stack, runs KeyGen's pieces and fails if BLS_BURN_KEYGEN does not cover them. Measured
 * 2026-12-07 (x86-64, Release gcc 12 -O3): the pieces 592 bytes (SHA-NI) / 792 (portable),
 * the whole call 1.3 KiB; clang ASan+UBSan: the pieces 3.0 KiB.
 */
#ifndef GROVE_BLS12_381_BLS_BURN_H
#define GROVE_BLS12_381_BLS_BURN_H

#include "common/burn.h"

#define BLS_BURN_MARGIN 512

/* AddressSanitizer's frames carry redzones (KeyGen's pieces: about 3 KiB instead of 1 KiB) */
#if defined(__SANITIZE_ADDRESS__)
#define BLS_BURN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BLS_BURN_ASAN 1
#endif
#endif

#ifdef BLS_BURN_ASAN
#define BLS_BURN_KEYGEN (8 * 1024)
#define BLS_BURN_KEYGEN_STACK() grove_burn_stack_bytes(BLS_BURN_KEYGEN)
#else
#define BLS_BURN_KEYGEN GROVE_BURN_STACK_SMALL
#define BLS_BURN_KEYGEN_STACK() grove_burn_stack_small()
#endif

#endif
