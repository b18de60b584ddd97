/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The STM lottery's exact rule with its iteration count (lottery.c), for tests and the
 * worst-case measurement. stm_internal.h declares the rest of the lottery.
 */
#ifndef GROVE_STM_LOTTERY_H
#define GROVE_STM_LOTTERY_H

#include "stm/stm_internal.h"

/*
 * mithril-stm's exact loop (Taylor series of exp(x) against q = 2^512 / (2^512 - ev), error
 * term 3 |next term|, at most 1000 iterations; undecided is lost) on exact integers: 1 won,
 * 0 lost, GROVE_ERR_NOMEM if its working memory cannot be allocated (seven numbers, each at
 * most 30 + n (len(X) + 2) 32-bit limbs after n iterations, len(X) <= 6 for phi_f >= 2^-54:
 * under 0.5 MB at the bound of 1000; the most iterations found at a decision boundary is 123,
 * tests/stm/test_stm_lottery.c). *iterations (may be NULL): the iterations run (0 when no
 * loop is needed: phi_f = 1, stake 0, x = 0).
 */
int stm_lottery_exact_iter(const stm_lottery *lot, const uint8_t ev[GROVE_STM_EV_BYTES],
                           int *iterations);

#endif
