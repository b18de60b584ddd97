/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The JSON reader and writer: declared in grove/json.h (public: the grove command, STM and the
 * benchmarks use the one writer). */
#ifndef GROVE_COMMON_JSON_H
#define GROVE_COMMON_JSON_H

#include "grove/json.h"

#endif
