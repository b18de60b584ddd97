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

void grove_hkdf_sha256_extract_parts_states(uint8_t prk[32], const grove_hkdf_salt_states *st,
                                            const grove_hkdf_part *ikm, size_t nparts)
{
    grove_hmac_sha256_ctx c;
    /* the contexts as grove_hmac_sha256_init leaves them: 64 bytes absorbed, buffer empty */
    memcpy(c.inner.s, st->inner, sizeof c.inner.s);
    memcpy(c.outer.s, st->outer, sizeof c.outer.s);
    c.inner.count = 64;
    c.outer.count = 64;
    for (size_t i = 0; i < nparts; i++)
        if (ikm[i].len)
            grove_hmac_sha256_update(&c, ikm[i].p, ikm[i].len);
    grove_hmac_sha256_final(&c, prk, 32);
    grove_wipe(&c, sizeof c);
}

int grove_hkdf_sha256_expand_parts(uint8_t *okm, size_t okm_len, const uint8_t prk[32],
                                   const grove_hkdf_part *info, size_t nparts)
{
    grove_hmac_sha256_ctx base, c;
    uint8_t t[32];
    size_t tlen = 0, done = 0;
    if (okm_len > 255 * 32)
        return 0;
    grove_hmac_sha256_init(&base, prk, 32);
    for (uint8_t i = 1; done < okm_len; i++) {
        c = base;
        if (tlen)
            grove_hmac_sha256_update(&c, t, tlen);
        for (size_t j = 0; j < nparts; j++)
            if (info[j].len)
                grove_hmac_sha256_update(&c, info[j].p, info[j].len);
        grove_hmac_sha256_update(&c, &i, 1);
        grove_hmac_sha256_final(&c, t, 32);
        tlen = 32;
        size_t take = okm_len - done < 32 ? okm_len - done : 32;
        memcpy(okm + done, t, take);
        done += take;
    }
    grove_wipe(t, sizeof t);
    grove_wipe(&base, sizeof base);
    grove_wipe(&c, sizeof c);
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
