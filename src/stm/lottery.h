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
 * 0 lost, GROVE_ERR_NOMEM if its working memory (grown as the iterations need it, at most
 * about 1.7 MB for 1000 iterations) cannot be allocated. *iterations (may be NULL): the
 * iterations run (0 when no loop is needed: phi_f = 1, stake 0, x = 0).
 */
int stm_lottery_exact_iter(const stm_lottery *lot, const uint8_t ev[GROVE_STM_EV_BYTES],
                           int *iterations);

#endif
