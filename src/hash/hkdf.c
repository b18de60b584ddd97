/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* HKDF-SHA-256 (RFC 5869). */
#include "hash/hkdf.h"

#include <string.h>

#include "common/util.h"
#include "hash/sha2.h"

void grove_hkdf_sha256_extract_parts(uint8_t prk[32], const uint8_t *salt, size_t salt_len,
                                     const grove_hkdf_part *ikm, size_t nparts)
{
    static const uint8_t zero_salt[32] = {0};
    grove_hmac_sha256_ctx c;
    if (salt_len == 0) {
        salt = zero_salt;
        salt_len = sizeof zero_salt;
    }
    grove_hmac_sha256_init(&c, salt, salt_len);
    for (size_t i = 0; i < nparts; i++)
        if (ikm[i].len)
            grove_hmac_sha256_update(&c, ikm[i].p, ikm[i].len);
    grove_hmac_sha256_final(&c, prk, 32);
    grove_wipe(&c, sizeof c);
}

void grove_hkdf_sha256_salt_states(grove_hkdf_salt_states *st, const uint8_t *salt,
                                   size_t salt_len)
{
    static const uint8_t zero_salt[32] = {0};
    grove_hmac_sha256_ctx c;
    if (salt_len == 0) {
        salt = zero_salt;
        salt_len = sizeof zero_salt;
    }
    grove_hmac_sha256_init(&c, salt, salt_len); /* one block absorbed on each side */
    memcpy(st->inner, c.inner.s, sizeof st->inner);
    memcpy(st->outer, c.outer.s, sizeof st->outer);
    grove_wipe(&c, sizeof c);
}

/*
 * HMAC-SHA-256 on the key's two SHA-256 states (after key ^ ipad and key ^ opad): the inner hash
 * streams through a grove_sha256_ctx, its padding and the whole outer hash (one block: the
 * 32-byte inner digest after the opad block) are done here on one working area that the caller
 * wipes once, instead of copying and wiping whole HMAC contexts per call.
 */
typedef struct {
    grove_sha256_ctx in;
    uint32_t key_in[8], key_out[8], out[8];
    uint8_t blk[64];
} hmac_work;

/* w->in = the inner hash after the key block; then the parts. */
static void hmac_start(hmac_work *w, const grove_hkdf_part *parts, size_t nparts)
{
    memcpy(w->in.s, w->key_in, sizeof w->in.s);
    w->in.count = 64;
    for (size_t i = 0; i < nparts; i++)
        if (parts[i].len)
            grove_sha256_update(&w->in, parts[i].p, parts[i].len);
}

/* The tag of the message absorbed into w->in, into out (32 bytes). */
static void hmac_finish(hmac_work *w, uint8_t out[32])
{
    size_t have = (size_t)(w->in.count & 63);
    w->in.buf[have++] = 0x80;
    if (have > 56) {
        memset(w->in.buf + have, 0, 64 - have);
        grove_sha256_compress(w->in.s, w->in.buf, 1);
        have = 0;
    }
    memset(w->in.buf + have, 0, 56 - have);
    grove_store64_be(w->in.buf + 56, w->in.count << 3);
    grove_sha256_compress(w->in.s, w->in.buf, 1);
    for (int i = 0; i < 8; i++)
        grove_store32_be(w->blk + 4 * i, w->in.s[i]);
    w->blk[32] = 0x80;
    memset(w->blk + 33, 0, 56 - 33);
    grove_store64_be(w->blk + 56, (64 + 32) * 8);
    memcpy(w->out, w->key_out, sizeof w->out);
    grove_sha256_compress(w->out, w->blk, 1);
    for (int i = 0; i < 8; i++)
        grove_store32_be(out + 4 * i, w->out[i]);
}

void grove_hkdf_sha256_extract_parts_states(uint8_t prk[32], const grove_hkdf_salt_states *st,
                                            const grove_hkdf_part *ikm, size_t nparts)
{
    hmac_work w;
    memcpy(w.key_in, st->inner, sizeof w.key_in);
    memcpy(w.key_out, st->outer, sizeof w.key_out);
    hmac_start(&w, ikm, nparts);
    hmac_finish(&w, prk);
    grove_wipe(&w, sizeof w);
}

int grove_hkdf_sha256_expand_parts(uint8_t *okm, size_t okm_len, const uint8_t prk[32],
                                   const grove_hkdf_part *info, size_t nparts)
{
    struct {
        hmac_work w;
        uint8_t t[32];
    } x;
    size_t tlen = 0, done = 0;
    if (okm_len > 255 * 32)
        return 0;
    /* the key's states: prk ^ ipad and prk ^ opad, one block each from SHA-256's IV */
    grove_sha256_init(&x.w.in);
    memcpy(x.w.key_in, x.w.in.s, sizeof x.w.key_in);
    memcpy(x.w.key_out, x.w.in.s, sizeof x.w.key_out);
    for (size_t i = 0; i < 32; i++)
        x.w.blk[i] = (uint8_t)(prk[i] ^ 0x36);
    memset(x.w.blk + 32, 0x36, 32);
    grove_sha256_compress(x.w.key_in, x.w.blk, 1);
    for (size_t i = 0; i < 64; i++)
        x.w.blk[i] ^= 0x36 ^ 0x5c;
    grove_sha256_compress(x.w.key_out, x.w.blk, 1);
    /* T(i) = HMAC(prk, T(i-1) || info || i), T(0) empty */
    for (uint8_t i = 1; done < okm_len; i++) {
        grove_hkdf_part t = {x.t, tlen};
        hmac_start(&x.w, &t, 1);
        for (size_t j = 0; j < nparts; j++)
            if (info[j].len)
                grove_sha256_update(&x.w.in, info[j].p, info[j].len);
        grove_sha256_update(&x.w.in, &i, 1);
        hmac_finish(&x.w, x.t);
        tlen = 32;
        size_t take = okm_len - done < 32 ? okm_len - done : 32;
        memcpy(okm + done, x.t, take);
        done += take;
    }
    grove_wipe(&x, sizeof x);
    return 1;
}

void grove_hkdf_sha256_extract(uint8_t prk[32], const uint8_t *salt, size_t salt_len,
                               const uint8_t *ikm, size_t ikm_len)
{
    grove_hkdf_part part = {ikm, ikm_len};
    grove_hkdf_sha256_extract_parts(prk, salt, salt_len, &part, 1);
}

int grove_hkdf_sha256_expand(uint8_t *okm, size_t okm_len, const uint8_t prk[32],
                             const uint8_t *info, size_t info_len)
{
    grove_hkdf_part part = {info, info_len};
    return grove_hkdf_sha256_expand_parts(okm, okm_len, prk, &part, 1);
}
