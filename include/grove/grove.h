/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * grove/grove.h - umbrella header for libgrove.
 *
 * libgrove offers post-quantum signatures (SPHINCS+/SLH-DSA, XMSS, CROSS), the DGSP group
 * signature and Mithril STM threshold multisignatures, and the hash functions, encodings,
 * durable files and JSON they are built with. Include this header, or the header of one area.
 * Link with `pkg-config --libs grove`.
 */
#ifndef GROVE_GROVE_H
#define GROVE_GROVE_H

#include "grove/config.h"
#include "grove/common.h"
#include "grove/hash.h"
#include "grove/io.h"
#include "grove/json.h"
#include "grove/state.h"
#include "grove/sig.h"
#include "grove/slhdsa.h"
#include "grove/cross.h"
#include "grove/xmss.h"
#include "grove/pkix.h"
#include "grove/envelope.h"
#include "grove/bls12_381.h"
#if GROVE_HAVE_DGSP
#include "grove/dgsp.h"
#endif
#if GROVE_HAVE_STM
#include "grove/stm.h"
#endif

#if GROVE_HAVE_MITHRIL
#include "grove/mithril.h"
#endif

#endif
