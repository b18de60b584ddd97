/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Wiping the stack a secret computation used (see grove_burn_stack in common/util.h).
 * grove_burn_stack_bytes(bytes) zeroes the `bytes` of stack next to the caller's frame (at most
 * GROVE_BURN_STACK_MAX), where the frames of the caller's callees were: a call site passes the
 * deepest stack its secret computation uses (measured by test_wipe on every CPU path) plus a
 * margin, so the cost follows what was used.
 */
#ifndef GROVE_COMMON_BURN_H
#define GROVE_COMMON_BURN_H

#include <stddef.h>

#define GROVE_BURN_STACK_MAX (64 * 1024)
void grove_burn_stack_bytes(size_t bytes);

/* The same for small frames (a hash kernel's spills): GROVE_BURN_STACK_SMALL bytes, in a frame of
 * that size only (grove_burn_stack_bytes' 64 KiB frame is probed page by page). */
#define GROVE_BURN_STACK_SMALL 2048
void grove_burn_stack_small(void);

#endif
