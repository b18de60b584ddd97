/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Portable C one-block SHA-256 / SHA-512 messages of the SPHINCS+ tweakable-hash layout
 * (grove_sha256_many_pub16 / grove_sha512_many_pub16): a 64- (128-) byte PK.seed prefix
 * absorbed, then L bytes (22-byte compressed ADRS || data) that end inside the block with room
 * for the padding. L is a compile-time constant per call site, so the padding and length words
 * and the schedule terms made of them fold away, and the message words are read straight from
 * the message (no block buffer, no byte-wise copy).
 *
 * The first 16 bytes of every message are public (the ADRS up to its last words): consecutive
 * messages with the same 16 bytes share the message words 0..3 (SHA-256) or 0..1 (SHA-512), so
 * the rounds that use only those words, and the schedule terms made of them, run once per run
 * of equal prefixes. The comparison branches on those public bytes only.
 *
 * Included by sha256.c (SHA-256 part) and sha512.c (SHA-512 part), which provide the round
 * macros (BSIG*, SSIG*, CH) and the round constants; each wraps the body once for the plain
 * build and once for the BMI1/BMI2 copy, in a frame of its own whose stack is burnt after the
 * call (the data may be a secret: PRF inputs hold SK.seed).
 */
#ifndef GROVE_HASH_SHA2_ONEPUB_PORTABLE_H
#define GROVE_HASH_SHA2_ONEPUB_PORTABLE_H

/* One round, message word already added to its constant; Maj through the carried b ^ c. */
#define OP_R(T, a, b, c, d, e, f, g, h, kw)                                                 \
    do {                                                                                    \
        T t1_ = h + BSIG1(e) + CH(e, f, g) + (kw);                                          \
        T ab_ = a ^ b;                                                                      \
        T t2_ = BSIG0(a) + ((ab_ & bc) ^ b);                                                \
        bc = ab_;                                                                           \
        d += t1_;                                                                           \
        h = t1_ + t2_;                                                                      \
    } while (0)
#define OP_ROUNDS8(T, KW, t)                                                                \
    do {                                                                                    \
        OP_R(T, a, b, c, d, e, f, g, h, KW((t) + 0));                                       \
        OP_R(T, h, a, b, c, d, e, f, g, KW((t) + 1));                                       \
        OP_R(T, g, h, a, b, c, d, e, f, KW((t) + 2));                                       \
        OP_R(T, f, g, h, a, b, c, d, e, KW((t) + 3));                                       \
        OP_R(T, e, f, g, h, a, b, c, d, KW((t) + 4));                                       \
        OP_R(T, d, e, f, g, h, a, b, c, KW((t) + 5));                                       \
        OP_R(T, c, d, e, f, g, h, a, b, KW((t) + 6));                                       \
        OP_R(T, b, c, d, e, f, g, h, a, KW((t) + 7));                                       \
    } while (0)

#endif
