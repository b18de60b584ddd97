/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The 32-byte hash address (ADRS) of the hash-based schemes, one type for all of them.
 *
 * Eight big-endian 32-bit words. SPHINCS+ / SLH-DSA (and DGSP's WOTS+) and XMSS (RFC 8391)
 * lay them out alike except for the width of the tree address:
 *   SPHINCS+  layer | tree (3 words) | type | key pair     | chain/height | hash/index
 *   XMSS      layer | tree (2 words) | type | OTS / L-tree | chain/height | hash/index | key&mask
 * so everything from the type word on sits one word earlier in the XMSS form. An hs_adrs
 * records its form (the byte offset of its type word) and one set of setters serves both.
 * b is the serialised address; SLH-DSA's compressed 22-byte ADRSc for SHA-2 is made from it
 * by the scheme (a serialisation step, src/sphincs/hash.c).
 */
#ifndef GROVE_HASHSIG_ADRS_H
#define GROVE_HASHSIG_ADRS_H

#include <stdint.h>
#include <string.h>

#include "common/util.h"

/* The forms, named by the byte offset of their type word. */
typedef enum { HS_ADRS_XMSS = 12, HS_ADRS_SPHINCS = 16 } hs_adrs_form;

typedef struct {
    uint8_t b[32];
    uint8_t form; /* hs_adrs_form */
} hs_adrs;

/* Byte offsets of the words after the type word, for updates of an address inside a buffer. */
static inline unsigned hs_adrs_keypair_off(hs_adrs_form f)
{
    return (unsigned)f + 4;
}
static inline unsigned hs_adrs_chain_off(hs_adrs_form f)
{
    return (unsigned)f + 8;
}
static inline unsigned hs_adrs_hash_off(hs_adrs_form f)
{
    return (unsigned)f + 12;
}
/* XMSS only: the key-and-mask word (the last word). */
#define HS_ADRS_KEY_AND_MASK_OFF 28u

/* A zero address of the given form. */
static inline void hs_adrs_init(hs_adrs *a, hs_adrs_form form)
{
    memset(a->b, 0, sizeof a->b);
    a->form = (uint8_t)form;
}
static inline void hs_adrs_set_layer(hs_adrs *a, uint32_t layer)
{
    grove_store32_be(a->b, layer);
}
/* The tree address; SPHINCS+'s top tree word is always zero (trees < 2^64). */
static inline void hs_adrs_set_tree(hs_adrs *a, uint64_t tree)
{
    if (a->form == HS_ADRS_SPHINCS) {
        memset(a->b + 4, 0, 4);
        grove_store64_be(a->b + 8, tree);
    } else {
        grove_store64_be(a->b + 4, tree);
    }
}
/* The type; clears every word after it (both specifications require it). */
static inline void hs_adrs_set_type(hs_adrs *a, uint32_t type)
{
    /* one constant-size clear per form: these setters run once per hash in some loops */
    if (a->form == HS_ADRS_SPHINCS) {
        grove_store32_be(a->b + 16, type);
        memset(a->b + 20, 0, 12);
    } else {
        grove_store32_be(a->b + 12, type);
        memset(a->b + 16, 0, 16);
    }
}
/* The key pair (SPHINCS+) / OTS or L-tree address (XMSS). */
static inline void hs_adrs_set_keypair(hs_adrs *a, uint32_t kp)
{
    grove_store32_be(a->b + hs_adrs_keypair_off((hs_adrs_form)a->form), kp);
}
static inline void hs_adrs_set_chain(hs_adrs *a, uint32_t chain)
{
    grove_store32_be(a->b + hs_adrs_chain_off((hs_adrs_form)a->form), chain);
}
static inline void hs_adrs_set_hash(hs_adrs *a, uint32_t hash)
{
    grove_store32_be(a->b + hs_adrs_hash_off((hs_adrs_form)a->form), hash);
}
/* Tree nodes use the chain word for the height and the hash word for the index. */
static inline void hs_adrs_set_tree_height(hs_adrs *a, uint32_t z)
{
    hs_adrs_set_chain(a, z);
}
static inline void hs_adrs_set_tree_index(hs_adrs *a, uint32_t i)
{
    hs_adrs_set_hash(a, i);
}
/* XMSS only. */
static inline void hs_adrs_set_key_and_mask(hs_adrs *a, uint32_t km)
{
    grove_store32_be(a->b + HS_ADRS_KEY_AND_MASK_OFF, km);
}

#endif
